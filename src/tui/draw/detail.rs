//! The detail pane: the unit under the cursor ([`crate::view::detail()`]), bit by bit.
//! An error unit is also read in the fallback encoding (`--fallback`), and, under
//! `--escape`, shown as the code points the scheme writes for it; a 3-byte sequence that
//! is an escape of a byte (U+DC80..U+DCFF, U+EF80..U+EFFF) is named as such, wherever the
//! cursor is in it ([`crate::view::fallback`]).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::*;
use crate::detect::mojibake::Mojibake;
use crate::view::fallback::{Escape, Fallback};

pub(super) fn draw_detail(app: &App, area: Rect, spare: u16, theme: &Theme, buf: &mut Buffer) {
    let checkpoint = app.checkpoint_before(app.cursor as usize);
    let Some(detail) = view::detail_from(app.source.bytes(), app.dialect, app.cursor, checkpoint)
    else {
        return;
    };
    let title = format!(
        " unit at {} ({}), {} byte{} ",
        app.format_offset(detail.start),
        if app.decimal {
            format!("0x{:X}", detail.start)
        } else {
            detail.start.to_string()
        },
        detail.bytes.len(),
        if detail.bytes.len() == 1 { "" } else { "s" }
    );
    let block = Block::new()
        .borders(Borders::TOP)
        .border_style(theme.dim())
        .title(Span::styled(title, theme.title()));
    let inner = block.inner(area);
    ratatui::widgets::Widget::render(block, area, buf);
    let bytes = app.source.bytes();
    let fallback = app
        .fallback
        .filter(|_| matches!(detail.meaning, Meaning::Error { .. }))
        .filter(|_| Fallback::reads_errors_of(app.dialect));
    let notes = Notes {
        fallback: fallback.map(|f| f.describe(&detail.bytes)),
        diagnosis: fallback.and_then(|f| {
            let unit = app.dialect.unit_containing(bytes, detail.start as usize);
            let d = app.dialect.diagnose(bytes, &unit)?;
            Some(f.beside(&detail.bytes, &d))
        }),
        escaped: app
            .escape
            .filter(|_| matches!(detail.meaning, Meaning::Error { .. }))
            .map(|e| {
                let cps: Vec<String> = detail
                    .bytes
                    .iter()
                    .map(|b| e.code_point(*b).to_string())
                    .collect();
                format!("{} ({})", cps.join(" "), e.name())
            }),
        escape_of: Escape::around(bytes, app.cursor as usize).map(|(_, e, b)| e.sentence(b)),
        summary: after_invalid_lead(app, &detail).or_else(|| match detail.meaning {
            // The unit the detail found from the scan's checkpoint: a legacy encoding's
            // found again without one would be decoded from the start of the file.
            Meaning::Error { kind, .. } => app.dialect.error_summary(
                bytes,
                &crate::decode::Unit::error(detail.start as usize, detail.bytes.len() as u8, kind),
            ),
            Meaning::Scalar { .. } => None,
        }),
    };
    let width = inner.width as usize;
    let own = 3 + spare as usize;
    let mut lines = pane_lines(
        detail_lines(&detail, &notes, theme),
        Extras {
            second: detail
                .second_note()
                .map(|note| Line::from(vec![Span::styled("text ", theme.dim()), Span::raw(note)])),
            mojibake: app
                .mojibake_at(app.cursor)
                .map(|m| mojibake_line(app, m, theme)),
            lookalike: findings::lookalike_line(app, theme),
            resync: detail.resync_note(app.dialect).map(|note| {
                Line::from(vec![Span::styled("resync ", theme.dim()), Span::raw(note)])
            }),
        },
        own,
        width,
    );
    // The findings here go below the unit's own lines, in the room the layout gave them.
    let room = (inner.height as usize).saturating_sub(own);
    if room > 0 && !app.linting.lints.is_empty() {
        lines.resize(own, Line::raw(""));
        lines.extend(findings::detail_lines(
            app,
            theme,
            room,
            inner.width as usize,
        ));
    }
    let lines: Vec<Line<'static>> = lines.into_iter().map(|l| fit_line(l, width)).collect();
    ratatui::widgets::Widget::render(Paragraph::new(lines), inner, buf);
}

/// The facts the pane adds after the unit's own lines, each on a line of its own.
struct Extras {
    /// Both code points of a Big5 sequence that decodes to two.
    second: Option<Line<'static>>,
    /// The mojibake region the cursor is in, and its repair.
    mojibake: Option<Line<'static>>,
    /// The lookalike match just found.
    lookalike: Option<Line<'static>>,
    /// Why finding the unit cost a decode from further back.
    resync: Option<Line<'static>>,
}

/// The pane's lines within `most` lines of `width` columns. Every fact is shown, in a
/// fixed order (bytes, value or error, category or diagnosis, second code point, mojibake,
/// lookalike match, resync note), while there are lines for it; where there are fewer
/// lines than facts, the facts the reader can least do without keep theirs (bytes, value,
/// a lookalike match just searched for, a mojibake region, the category line, then the
/// rest) and the others are left out. Lines left over then let a line too wide go on
/// below rather than be cut, in the same order (a 6-byte unit's bits break between two
/// bytes).
fn pane_lines(
    own: Vec<Line<'static>>,
    extras: Extras,
    most: usize,
    width: usize,
) -> Vec<Line<'static>> {
    // (display place, keep rank, line)
    let mut facts: Vec<(usize, usize, Line<'static>)> = Vec::new();
    let mut own = own.into_iter();
    for (place, keep) in [(0, 0), (1, 1), (2, 4)] {
        if let Some(line) = own.next() {
            facts.push((place, keep, line));
        }
    }
    let Extras {
        second,
        mojibake,
        lookalike,
        resync,
    } = extras;
    for (place, keep, line) in [
        (3, 5, second),
        (4, 3, mojibake),
        (5, 2, lookalike),
        (6, 6, resync),
    ] {
        if let Some(line) = line {
            facts.push((place, keep, line));
        }
    }
    facts.retain(|(_, _, line)| line.width() > 0);
    facts.sort_by_key(|f| f.1);
    facts.truncate(most);
    let mut left = most - facts.len();
    let mut shown: Vec<(usize, Vec<Line<'static>>)> = facts
        .into_iter()
        .map(|(place, _, line)| {
            // The bytes line goes on to one more line at most: the bits of a 6-byte unit,
            // or of two UTF-16 units, fit on two at 43 columns.
            let most = if place == 0 {
                2.min(1 + left)
            } else {
                1 + left
            };
            let lines = wrap_line(line, width, most);
            left -= lines.len() - 1;
            (place, lines)
        })
        .collect();
    shown.sort_by_key(|(place, _)| *place);
    shown.into_iter().flat_map(|(_, lines)| lines).collect()
}

/// `line` on at most `most` lines of `width` columns, broken after a space where one is
/// within the line (else inside a word); what does not fit on the last is left for
/// [`fit_line`] to cut. Styles stay with their characters.
fn wrap_line(line: Line<'static>, width: usize, most: usize) -> Vec<Line<'static>> {
    let columns = |c: char| crate::view::unicode::text_width(c.encode_utf8(&mut [0; 4]));
    let cells: Vec<(char, Style)> = line
        .spans
        .iter()
        .flat_map(|s| s.content.chars().map(move |c| (c, s.style)))
        .collect();
    let total: usize = cells.iter().map(|(c, _)| columns(*c)).sum();
    if width == 0 || most <= 1 || total <= width {
        return vec![line];
    }
    let mut pieces: Vec<&[(char, Style)]> = Vec::new();
    let mut rest = &cells[..];
    while pieces.len() + 1 < most {
        let mut used = 0;
        let mut fit = 0;
        for (c, _) in rest {
            used += columns(*c);
            if used > width {
                break;
            }
            fit += 1;
        }
        if fit == rest.len() {
            break;
        }
        // Break after the last space that fits, if the piece keeps some text.
        let cut = match rest[..=fit].iter().rposition(|(c, _)| *c == ' ') {
            Some(space) if space > 0 => space + 1,
            _ => fit.max(1),
        };
        // Spaces at the end of a piece are not shown, nor counted against its width.
        let kept = rest[..cut]
            .iter()
            .rposition(|(c, _)| *c != ' ')
            .map_or(cut, |i| i + 1);
        pieces.push(&rest[..kept]);
        rest = &rest[cut..];
        // The next line starts at a word: the spaces between columns are dropped.
        let blanks = rest.iter().take_while(|(c, _)| *c == ' ').count();
        rest = &rest[blanks..];
    }
    pieces.push(rest);
    pieces
        .into_iter()
        .map(|piece| {
            let mut spans: Vec<Span<'static>> = Vec::new();
            for (c, style) in piece {
                match spans.last_mut() {
                    Some(span) if span.style == *style => span.content.to_mut().push(*c),
                    _ => spans.push(Span::styled(c.to_string(), *style)),
                }
            }
            Line::from(spans)
        })
        .collect()
}

/// `line` cut to `width` columns, its last column `…` (in the style of the span it cuts)
/// where it is wider: a value cut short says so, rather than reading as whole.
pub(super) fn fit_line(line: Line<'static>, width: usize) -> Line<'static> {
    let columns = |s: &str| crate::view::unicode::text_width(s);
    if width == 0
        || line
            .spans
            .iter()
            .map(|s| columns(&s.content))
            .sum::<usize>()
            <= width
    {
        return line;
    }
    let (style, alignment) = (line.style, line.alignment);
    let mut spans = Vec::new();
    let mut used = 0;
    for span in line.spans {
        let mut kept = String::new();
        for c in span.content.chars() {
            let w = columns(c.encode_utf8(&mut [0; 4]));
            if used + w + 1 > width {
                kept.push('\u{2026}');
                spans.push(Span::styled(kept, span.style));
                return Line {
                    style,
                    alignment,
                    spans,
                };
            }
            used += w;
            kept.push(c);
        }
        spans.push(Span::styled(kept, span.style));
    }
    Line {
        style,
        alignment,
        spans,
    }
}

/// `mojibake 6..14 windows-1252 → "é"`: the region the cursor is in, the encodings it
/// went through (in that order, as `detect` and `repair` say them), and the repaired
/// text.
fn mojibake_line(app: &App, m: &Mojibake, theme: &Theme) -> Line<'static> {
    Line::from(vec![
        Span::styled("mojibake ", theme.mojibake()),
        Span::raw(format!(
            "{}..{} ",
            app.format_offset(m.start as u64),
            app.format_offset(m.end as u64)
        )),
        Span::styled(
            crate::repair::history(m.chain_names().into_iter()),
            theme.dim(),
        ),
        Span::raw(" \u{2192} \u{201C}"),
        Span::styled(sanitize(&m.text), Style::new().add_modifier(Modifier::BOLD)),
        Span::raw("\u{201D}"),
    ])
}

/// For a stray continuation byte after an error unit that starts with a lead's shape
/// ([`Dialect::broken_lead_before`]): "continuation byte after the broken sequence at 0x9
/// (lead ED)", the offset as the viewer shows offsets.
///
/// [`Dialect::broken_lead_before`]: crate::decode::Dialect::broken_lead_before
fn after_invalid_lead(app: &App, detail: &Detail) -> Option<String> {
    use crate::decode::ErrorKind;
    let Meaning::Error {
        kind: kind @ ErrorKind::UnexpectedContinuation,
        ..
    } = detail.meaning
    else {
        return None;
    };
    let bytes = app.source.bytes();
    let unit = crate::decode::Unit::error(detail.start as usize, detail.bytes.len() as u8, kind);
    let at = app.dialect.broken_lead_before(bytes, &unit)?;
    Some(format!(
        "continuation byte after the broken sequence at {} (lead {:02X})",
        app.format_offset(at as u64),
        bytes[at]
    ))
}

/// What the pane adds to a unit's own detail, from the viewer's options.
pub(super) struct Notes {
    /// An error unit's fallback reading: `é (windows-1252)`.
    pub fallback: Option<String>,
    /// The unit's diagnosis said beside the fallback reading, without a character that
    /// reading shows ([`Fallback::beside`]); `None` shows the detail's own.
    pub diagnosis: Option<String>,
    /// An error unit's bytes as `--escape` writes them: `U+DCE9 (pep383)`.
    pub escaped: Option<String>,
    /// The escape sequence around the cursor, said: "U+DCE9 is how ... writes the byte E9".
    pub escape_of: Option<String>,
    /// What an error unit is: [`after_invalid_lead`] where it applies, else the dialect's
    /// sentence for it (`Dialect::error_summary`: "encoding" where the view is one, a bad
    /// trail's bytes).
    pub summary: Option<String>,
}

pub(super) fn detail_lines(detail: &Detail, notes: &Notes, theme: &Theme) -> Vec<Line<'static>> {
    let label = |s: &str| Span::styled(format!("{s} "), theme.dim());
    let hex: Vec<String> = detail.bytes.iter().map(|b| format!("{b:02X}")).collect();
    let oct: Vec<String> = detail.bytes.iter().map(|b| format!("{b:03o}")).collect();
    let mut bytes_line = vec![
        label("hex"),
        Span::raw(hex.join(" ")),
        Span::raw("   "),
        label("octal"),
        Span::raw(oct.join(" ")),
        Span::raw("   "),
        label("binary"),
    ];
    for (i, (prefix, payload)) in detail.bits.iter().enumerate() {
        if i > 0 {
            bytes_line.push(Span::raw(" "));
        }
        bytes_line.push(Span::styled(prefix.clone(), theme.dim()));
        if !prefix.is_empty() {
            bytes_line.push(Span::styled("\u{2502}", theme.dim()));
        }
        bytes_line.push(Span::styled(
            payload.clone(),
            Style::new().add_modifier(Modifier::BOLD),
        ));
    }
    if detail.units_swapped {
        // UTF-16LE and UTF-32LE units are shown as values, the other way round from the
        // hex: said after the bits, so that a narrow pane cuts the words and not the bits.
        bytes_line.push(Span::styled(" (each unit high byte first)", theme.dim()));
    }
    let mut lines = vec![Line::from(bytes_line)];
    match &detail.meaning {
        Meaning::Scalar {
            value,
            facts,
            utf16,
        } if *value == crate::decode::CodePoint::ESCAPE_SEQUENCE => {
            let mode = escape_mode(&detail.bytes);
            lines.push(Line::from(vec![
                Span::styled("escape sequence", Style::new().add_modifier(Modifier::BOLD)),
                Span::raw(format!("  switches to {mode}; decodes to no character")),
            ]));
        }
        Meaning::Scalar {
            value,
            facts,
            utf16,
        } => {
            let glyph = crate::view::glyph::glyph(*value);
            let utf16: Vec<String> = utf16.iter().map(|u| format!("{u:04X}")).collect();
            lines.push(Line::from(vec![
                Span::styled(value.to_string(), Style::new().add_modifier(Modifier::BOLD)),
                Span::raw("  "),
                Span::styled(glyph.text, theme.glyph(glyph.class)),
                Span::raw("  "),
                Span::raw(sanitize(&facts.title())),
                Span::raw("   "),
                label("block"),
                Span::raw(facts.block_text()),
            ]));
            if value.value() == 0xFFFD {
                // A finding, not an error: `check` reports it as `replacement-character`.
                lines
                    .last_mut()
                    .expect("the line just pushed")
                    .push_span(Span::styled(
                        "   data was lost upstream",
                        theme.glyph(GlyphClass::Replacement),
                    ));
            }
            let mut third = Vec::new();
            if let Some(sentence) = &notes.escape_of {
                third.push(label("escape"));
                third.push(Span::styled(
                    sentence.clone(),
                    theme.glyph(GlyphClass::Escaped),
                ));
                third.push(Span::raw("   "));
            }
            third.extend([
                label("category"),
                Span::raw(facts.category_text()),
                Span::raw("   "),
                label("width"),
                Span::raw(facts.width_text()),
                Span::raw("   "),
                label("UTF-16"),
                Span::raw(if utf16.is_empty() {
                    "none".to_string()
                } else {
                    utf16.join(" ")
                }),
                // The short plane name keeps the line within 80 columns.
                Span::raw("   "),
                label("plane"),
                Span::raw(facts.plane_short()),
            ]);
            lines.push(Line::from(third));
        }
        Meaning::Error {
            kind,
            expected,
            diagnosis,
        } => {
            lines.push(Line::from(vec![
                Span::styled(format!("error {}", kind.name()), theme.marker(*kind)),
                Span::raw(format!(
                    ": {}",
                    notes.summary.as_deref().unwrap_or(kind.summary())
                )),
            ]));
            // What the bytes most likely are comes first: where the line is cut, it is the
            // readings after it that go.
            let mut third = Vec::new();
            if let Some(sentence) = &notes.escape_of {
                // An escape of a byte is what the bytes most likely are.
                third.push(label("likely"));
                third.push(Span::styled(
                    sentence.clone(),
                    theme.glyph(GlyphClass::Escaped),
                ));
                third.push(Span::raw("   "));
            } else if let Some(d) = notes.diagnosis.as_ref().or(diagnosis.as_ref()) {
                third.push(label("likely"));
                third.push(Span::raw(sanitize(d)));
                third.push(Span::raw("   "));
            }
            if let Some(range) = expected {
                third.push(label("expected"));
                third.push(Span::raw(format!("{range} here")));
                third.push(Span::raw("   "));
            }
            if let Some(escaped) = &notes.escaped {
                third.push(label("escaped"));
                third.push(Span::styled(
                    escaped.clone(),
                    theme.glyph(GlyphClass::Escaped),
                ));
                third.push(Span::raw("   "));
            }
            if let Some(reading) = &notes.fallback {
                // Sanitised by `describe`.
                third.push(label("fallback"));
                third.push(Span::raw(reading.clone()));
            }
            if third.last().is_some_and(|s| s.content == "   ") {
                third.pop();
            }
            lines.push(Line::from(third));
        }
    }
    lines
}

/// The mode an ISO-2022-JP escape sequence selects, by its bytes.
fn escape_mode(bytes: &[u8]) -> &'static str {
    match bytes {
        [0x1B, 0x28, 0x42] => "ASCII",
        [0x1B, 0x28, 0x4A] => "JIS X 0201 Roman",
        [0x1B, 0x28, 0x49] => "JIS X 0201 katakana",
        _ => "JIS X 0208",
    }
}
