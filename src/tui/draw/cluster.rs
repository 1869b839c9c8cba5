//! The cluster lane and the cluster pane (`c`), from [`crate::view::cluster`].
//!
//! The lane is a line under every data row: each extended grapheme cluster of more than one
//! code point is bracketed under its bytes, `╰───╯` under the hex pane and `╰╯` under the
//! text pane, so the bytes of a flag or an emoji sequence read as one character. A cluster
//! cut by a row's end goes on with `─` at the edge and on the next row; one whose start or
//! end lies past the context the view decodes ([`crate::view::cluster::LOOK`]) ends in `…`.
//! The cluster under the cursor is bracketed in the accent colour. Clusters of one code
//! point are left unmarked. The pane lists the whole cluster under the cursor: its bytes,
//! its code points with their names, its length and width. Names go through
//! [`crate::view::glyph::sanitize`].

use std::ops::Range;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::*;
use crate::decode::{CodePoint, UnitKind};
use crate::view::cluster::{self, ClusterSpan, LOOK};
use crate::view::unicode;

/// A checkpoint for decoding from `offset - LOOK` in a multi-byte legacy encoding.
fn checkpoint(app: &App, offset: u64) -> Option<crate::decode::Checkpoint> {
    app.checkpoint_before(offset.saturating_sub(LOOK) as usize)
}

/// The clusters of several code points that meet `window` (the rows shown). A cluster whose
/// start or end lies past the context decoded is cut to the rows shown there, so that its
/// `…` is drawn on the first or last row instead of off the screen: the rows above or below
/// belong to it, but where it starts or ends is not known.
pub(super) fn lane_spans(app: &App, window: Range<u64>) -> Vec<ClusterSpan> {
    let from = checkpoint(app, window.start);
    cluster::window(app.source.bytes(), app.dialect, window.clone(), from)
        .into_iter()
        .filter(ClusterSpan::joins)
        .map(|span| span.cut_to(window.clone()))
        .collect()
}

/// The pane's title: exact figures for a whole cluster; for one cut by the context, what is
/// known (`at least`, `…` where its start or end lies further) and no width measured without
/// its first code point.
fn title(app: &App, c: &cluster::Cluster) -> String {
    let span = c.span;
    let plural = |n: u64, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let cps = c.code_points.len() as u64;
    if !span.open_start && !span.open_end {
        return format!(
            " cluster at {}, {}, {}, width {} ",
            app.format_offset(span.start),
            plural(span.len, "byte"),
            plural(cps, "code point"),
            c.width.map_or("none".to_string(), |w| w.to_string()),
        );
    }
    let width = match (span.open_start, c.width) {
        (true, _) => "width unknown".to_string(),
        (false, Some(w)) => format!("width {w} so far"),
        (false, None) => "width none".to_string(),
    };
    format!(
        " cluster at {}{}, at least {} and {}{}, {width} ",
        if span.open_start { "\u{2026}" } else { "" },
        app.format_offset(span.start),
        plural(span.len, "byte"),
        plural(cps, "code point"),
        if span.open_end { "\u{2026}" } else { "" },
    )
}

/// The lane line under `row`, at `y`.
pub(super) fn draw_lane(
    app: &App,
    layout: &Layout,
    y: u16,
    row: &Row,
    spans: &[ClusterSpan],
    theme: &Theme,
    buf: &mut Buffer,
) {
    let (row_start, row_end) = (row.offset, row.offset + row.cells.len() as u64);
    for span in spans {
        let Some(mark) = span.lane_mark(row_start, row_end) else {
            continue;
        };
        let (first, last) = (mark.first as u16, mark.last as u16);
        // The cursor's cluster in the accent colour, and bold, so that it stands out
        // without colour too.
        let style = if span.contains(app.cursor) {
            theme.accent().add_modifier(ratatui::style::Modifier::BOLD)
        } else {
            theme.dim()
        };
        let hex = mark.bracket(3 * (last - first) as usize + 2);
        buf.set_string(layout.hex_x + 3 * first, y, hex, style);
        let text = mark.bracket((last - first) as usize + 1);
        buf.set_string(layout.text_x + first, y, text, style);
    }
}

/// The cluster pane: the whole cluster under the cursor.
pub(super) fn draw_cluster(app: &App, area: Rect, theme: &Theme, buf: &mut Buffer) {
    let bytes = app.source.bytes();
    let Some(c) = cluster::at(bytes, app.dialect, app.cursor, checkpoint(app, app.cursor)) else {
        return;
    };
    let span = c.span;
    // A title wider than the pane ends in `…`, as the detail pane's cut lines do.
    let title = super::detail::fit_line(
        Line::from(Span::styled(title(app, &c), theme.title())),
        area.width as usize,
    );
    let block = Block::new()
        .borders(Borders::TOP)
        .border_style(theme.dim())
        .title(title);
    let inner = block.inner(area);
    ratatui::widgets::Widget::render(block, area, buf);
    let width = inner.width as usize;
    let label = |s: &str| Span::styled(format!("{s} "), theme.dim());
    let hex: Vec<String> = bytes[span.start as usize..span.end() as usize]
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect();
    let hex = hex.join(" ");
    let mut first = vec![label("hex")];
    let mut room = width.saturating_sub(4);
    if span.open_start || span.open_end {
        // Said first: the bytes run past the line.
        let note = format!("(longer: past {LOOK} bytes of context) ");
        room = room.saturating_sub(unicode::text_width(&note));
        first.push(Span::styled(note, theme.accent()));
    }
    first.push(Span::raw(fit(&hex, room)));
    let mut lines = vec![Line::from(first)];
    let items: Vec<String> = c
        .parts()
        .flat_map(|(unit, cps)| match unit.kind {
            UnitKind::Error(kind) => vec![format!("error {}", kind.name())],
            UnitKind::Scalar(CodePoint::ESCAPE_SEQUENCE) => vec!["escape sequence".to_string()],
            UnitKind::Scalar(_) => cps
                .iter()
                .map(|&cp| format!("{cp} {}", sanitize(&unicode::label(cp))))
                .collect(),
        })
        .collect();
    lines.extend(
        wrap_items(&runs(items), width, 2)
            .into_iter()
            .map(Line::raw),
    );
    ratatui::widgets::Widget::render(Paragraph::new(lines), inner, buf);
}

/// Repeats of one item counted: `U+0301 COMBINING ACUTE ACCENT ×600` (a Zalgo cluster).
fn runs(items: Vec<String>) -> Vec<String> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for item in items {
        match out.last_mut() {
            Some((last, n)) if *last == item => *n += 1,
            _ => out.push((item, 1)),
        }
    }
    out.into_iter()
        .map(|(item, n)| match n {
            1 => item,
            n => format!("{item} \u{d7}{n}"),
        })
        .collect()
}

/// `text` cut to `width` columns, ending in `…` when cut.
fn fit(text: &str, width: usize) -> String {
    if unicode::text_width(text) <= width || width == 0 {
        return text.to_string();
    }
    let mut out = String::new();
    for c in text.chars() {
        if unicode::text_width(&out) + unicode::text_width(&c.to_string()) + 1 > width {
            break;
        }
        out.push(c);
    }
    out.push('\u{2026}');
    out
}

/// `items` separated by ` · `, on at most `lines` lines of `width` columns; what does not
/// fit is counted at the end: `… 3 more`.
pub(super) fn wrap_items(items: &[String], width: usize, lines: usize) -> Vec<String> {
    let sep = " \u{b7} ";
    let mut out: Vec<String> = vec![String::new()];
    for (i, item) in items.iter().enumerate() {
        let line = out.last_mut().expect("one line at least");
        let joined = if line.is_empty() {
            item.clone()
        } else {
            format!("{line}{sep}{item}")
        };
        if unicode::text_width(&joined) <= width {
            *line = joined;
            continue;
        }
        if out.len() < lines && unicode::text_width(item) <= width {
            out.push(item.clone());
            continue;
        }
        // No room: say how many are left, on the last line.
        let more = format!("\u{2026} {} more", items.len() - i);
        let line = out.last_mut().expect("one line at least");
        while !line.is_empty() && unicode::text_width(&format!("{line} {more}")) > width {
            line.pop();
        }
        *line = format!("{line} {more}").trim_start().to_string();
        break;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_are_counted() {
        let items = ["a", "b", "b", "b", "a"].map(str::to_string).to_vec();
        assert_eq!(runs(items), ["a", "b ×3", "a"]);
    }

    #[test]
    fn items_wrap_and_count_the_rest() {
        let items: Vec<String> = ["U+1F468 MAN", "U+200D ZERO WIDTH JOINER", "U+1F469 WOMAN"]
            .map(str::to_string)
            .to_vec();
        assert_eq!(
            wrap_items(&items, 80, 2),
            ["U+1F468 MAN · U+200D ZERO WIDTH JOINER · U+1F469 WOMAN"]
        );
        assert_eq!(
            wrap_items(&items, 40, 2),
            ["U+1F468 MAN · U+200D ZERO WIDTH JOINER", "U+1F469 WOMAN"]
        );
        assert_eq!(wrap_items(&items, 30, 1), ["U+1F468 MAN … 2 more"]);
    }
}
