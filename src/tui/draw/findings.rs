//! Lint findings on screen: the marks on the bytes and glyphs they cover, their markers in
//! the errors lane, the detail pane's line on the findings under the cursor (and on a
//! lookalike match), the statistics overlay's counts by kind, and the `T` chooser's line.
//! Every paint comes from the view's theme ([`crate::view::theme::Theme::finding`]); every
//! message goes through [`sanitize`].

use ratatui::buffer::Buffer;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::*;
use crate::lint::Level;
use crate::tui::findings::{self, Pass};
use crate::view::theme::Severity;

/// The errors lane's marker of the first byte of a finding, by level; the bytes after it
/// get [`BODY`].
pub(super) fn head(level: Level) -> char {
    match level {
        Level::Error => '!',
        Level::Warning => '?',
        Level::Note => '\u{00B7}',
    }
}

/// The errors lane's marker of a finding's bytes after its first.
pub(super) const BODY: char = '\u{2504}';

fn severity(level: Level) -> Severity {
    match level {
        Level::Error => Severity::Error,
        Level::Warning => Severity::Warning,
        Level::Note => Severity::Note,
    }
}

fn level_name(level: Level) -> &'static str {
    match level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Note => "note",
    }
}

/// The findings to draw: the lint pass's, once it is done in the current dialect.
fn found(app: &App) -> Option<&findings::Found> {
    app.linting.found().filter(|f| f.dialect == app.dialect)
}

/// `style` with the mark of the findings covering `offset`, if any.
pub(super) fn mark(app: &App, offset: u64, theme: &Theme, style: Style) -> Style {
    match found(app).and_then(|f| f.level_at(offset)) {
        Some(level) => style.patch(self::style(theme.0.finding(severity(level)))),
        None => style,
    }
}

/// The findings' markers of one row in the errors lane at `x`: drawn before the errors'
/// own, which cover them where both are.
pub(super) fn draw_lane(app: &App, x: u16, y: u16, row: &Row, theme: &Theme, buf: &mut Buffer) {
    let Some(found) = found(app) else { return };
    for (i, cell) in row.cells.iter().enumerate() {
        let mut level = None;
        let mut starts = false;
        for l in found.covering(cell.offset) {
            level = Some(level.map_or(l.level, |v: Level| v.min(l.level)));
            starts |= l.offset as u64 == cell.offset;
        }
        let Some(level) = level else { continue };
        let glyph = if starts { head(level) } else { BODY };
        buf.set_string(
            x + i as u16,
            y,
            glyph.to_string(),
            style(theme.0.finding_marker(severity(level))),
        );
    }
}

/// `xml-forbidden error  XML 1.0: U+0001 … is not an XML 1.0 character`: each finding that
/// covers the cursor on a line of its own, the most severe first (in offset order among
/// equals), at most `room` lines; when more cover it than fit, the last line names the
/// rest: `+2 more here: xml-restricted warning, bidi warning`.
pub(super) fn detail_lines(
    app: &App,
    theme: &Theme,
    room: usize,
    width: usize,
) -> Vec<Line<'static>> {
    let Some(found) = found(app) else {
        return Vec::new();
    };
    let mut here: Vec<&findings::Finding> = found.covering(app.cursor).collect();
    here.sort_by_key(|l| l.level);
    let shown = if here.len() > room {
        room.saturating_sub(1)
    } else {
        here.len()
    };
    let mut lines: Vec<Line<'static>> = here[..shown]
        .iter()
        .map(|l| {
            Line::from(vec![
                Span::styled(
                    format!("{} {}", l.kind.name(), level_name(l.level)),
                    style(theme.0.finding_marker(severity(l.level))),
                ),
                Span::raw(format!("  {}", sanitize(&l.message))),
            ])
        })
        .collect();
    if shown < here.len() {
        // Two of a kind are told apart by what their messages begin with (`XML 1.1`).
        let rest: Vec<String> = here[shown..]
            .iter()
            .map(|l| {
                let name = format!("{} {}", l.kind.name(), level_name(l.level));
                let twin = here.iter().filter(|o| o.kind == l.kind).count() > 1;
                match l.message.split_once(": ") {
                    Some((lead, _)) if twin && lead.chars().count() <= 16 => {
                        format!("{name} ({})", sanitize(lead))
                    }
                    _ => name,
                }
            })
            .collect();
        let head = format!("+{} more here: ", here.len() - shown);
        let mut names = rest.join(", ");
        let left = width.saturating_sub(head.len());
        if names.chars().count() > left {
            names = names.chars().take(left.saturating_sub(1)).collect();
            names.push('\u{2026}');
        }
        lines.push(Line::from(vec![
            Span::styled(head, theme.accent()),
            Span::raw(names),
        ]));
    }
    lines
}

/// `lookalike 0x3..0x5  "/" as C0 AF (overlong, 2 bytes)`: which forms the lookalike
/// match under the cursor is made of.
pub(super) fn lookalike_line(app: &App, theme: &Theme) -> Option<Line<'static>> {
    let (needle, m) = app.lookalike_match.as_ref()?;
    if !(m.start as u64..m.end as u64).contains(&app.cursor) {
        return None;
    }
    Some(Line::from(vec![
        Span::styled("lookalike ", theme.accent()),
        Span::raw(format!(
            "{}..{}  ",
            app.format_offset(m.start as u64),
            app.format_offset(m.end as u64)
        )),
        Span::raw(needle.describe(m, app.source.bytes())),
    ]))
}

/// The statistics overlay's section on findings: counts by kind as bars, or why there
/// are none yet; with no lint asked, the U+FFFD characters only, and nothing when there
/// are none.
pub(super) fn stats_lines(app: &App, inner_width: usize, theme: &Theme) -> Vec<Line<'static>> {
    // With no lint asked, only U+FFFD characters are findings: shown where there are some.
    if app.linting.lints.is_empty() && found(app).is_none_or(|f| f.by_kind.is_empty()) {
        return Vec::new();
    }
    let title = match app.linting.lints.is_empty() {
        true => " findings (no lints asked)".to_string(),
        false => format!(" findings ({})", app.linting.asked()),
    };
    let mut lines = vec![Line::raw("")];
    let found = match (&app.linting.pass, found(app)) {
        (_, Some(found)) => found,
        (Pass::Running(run), _) => {
            lines.push(Line::from(Span::styled(title, theme.title())));
            lines.push(Line::raw(format!(" linting… {} found", run.found)));
            return lines;
        }
        _ => {
            lines.push(Line::from(Span::styled(title, theme.title())));
            lines.push(Line::raw(" linting…"));
            return lines;
        }
    };
    if found.by_kind.is_empty() {
        lines.push(Line::from(Span::styled(
            format!("{title}: none"),
            theme.title(),
        )));
        return lines;
    }
    lines.push(Line::from(Span::styled(title, theme.title())));
    let rows: Vec<Bar> = found
        .by_kind
        .iter()
        .map(|(k, n)| (k.name().to_string(), *n as u64))
        .collect();
    let label_width = rows.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
    let count_width = rows
        .iter()
        .map(|(_, n)| n.to_string().len())
        .max()
        .unwrap_or(1);
    lines.extend(stats::bar_lines(
        &rows,
        label_width,
        count_width,
        inner_width,
        style(theme.0.finding_marker(Severity::Warning)),
    ));
    if found.truncated() {
        lines.push(Line::from(Span::styled(
            format!(
                " {} found; the first {} are kept, for }} {{ (see docs/lint.md)",
                found.total,
                found.findings.len(),
            ),
            theme.dim(),
        )));
    }
    lines
}

/// The `T` chooser's offer while nothing is typed: `[x] security  1/7  on: security`.
pub(super) fn chooser_text(app: &App, choice: usize) -> String {
    let chosen = &app.linting.chooser;
    let on: Vec<&str> = (0..findings::CHOICES)
        .filter(|i| findings::choice_on(chosen, *i))
        .map(findings::choice_name)
        .collect();
    format!(
        "[{}] {}  {}/{}  on: {}",
        if findings::choice_on(chosen, choice) {
            "x"
        } else {
            " "
        },
        findings::choice_name(choice),
        choice + 1,
        findings::CHOICES,
        if on.is_empty() {
            "none".to_string()
        } else {
            on.join(",")
        }
    )
}
