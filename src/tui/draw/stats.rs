//! The statistics overlay (`s`): units by class and errors by kind, as bars, with the
//! verdict of the whole-input scan.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::status::{human_elapsed, human_size, human_speed};
use super::*;
use crate::decode::Dialect;

/// One bar of the statistics overlay: its label and count.
pub type Bar = (String, u64);

/// The statistics overlay's bars: a label and a count for each class of the dialect, and
/// for each error kind that occurred. The counts are the summary's, which `hexrune check`
/// prints too. The UTF-8 family lists classes 1 to 4 always (and 5, 6 where the dialect
/// has them); UTF-16 lists its 2- and 4-byte units, UTF-32 its 4-byte units and a
/// single-byte encoding its bytes: the classes that exist in the encoding.
pub fn stats_rows(summary: &Summary) -> (Vec<Bar>, Vec<Bar>) {
    let dialect = summary.dialect;
    let (listed, first) = if dialect.code_unit_width().is_some() {
        (dialect.classes().to_vec(), "1 byte")
    } else {
        (crate::scan::index::summary_classes(dialect), "1 ASCII")
    };
    let classes = listed
        .into_iter()
        .map(|c| {
            let label = match (c, dialect) {
                (1, _) => first.to_string(),
                (2, Dialect::Utf16Le | Dialect::Utf16Be) => "2 one unit".to_string(),
                (4, Dialect::Utf16Le | Dialect::Utf16Be) => "4 surrogate pair".to_string(),
                _ => format!("{c} {c}-byte"),
            };
            (label, summary.tally.classes[c as usize])
        })
        .collect();
    let kinds = summary
        .error_kinds()
        .into_iter()
        .map(|(k, n)| (format!("{} {}", error_letter(k), k.name()), n))
        .collect();
    (classes, kinds)
}

/// Horizontal bars scaled to the largest count, in eighths of a cell; a count above zero
/// always shows.
pub(super) fn bar(value: u64, max: u64, width: usize) -> String {
    const EIGHTHS: [char; 8] = [
        '\u{258F}', '\u{258E}', '\u{258D}', '\u{258C}', '\u{258B}', '\u{258A}', '\u{2589}',
        '\u{2588}',
    ];
    if value == 0 || max == 0 || width == 0 {
        return String::new();
    }
    let eighths = ((value as u128 * width as u128 * 8) / max as u128).max(1) as usize;
    let mut out = "\u{2588}".repeat(eighths / 8);
    if !eighths.is_multiple_of(8) {
        out.push(EIGHTHS[eighths % 8 - 1]);
    }
    out
}

pub(super) fn bar_lines(
    rows: &[Bar],
    label_width: usize,
    count_width: usize,
    inner_width: usize,
    style: Style,
) -> Vec<Line<'static>> {
    let max = rows.iter().map(|(_, n)| *n).max().unwrap_or(0);
    let bar_width = inner_width.saturating_sub(label_width + count_width + 4);
    rows.iter()
        .map(|(label, n)| {
            let bar = if bar_width >= 4 {
                bar(*n, max, bar_width)
            } else {
                String::new()
            };
            Line::from(vec![
                Span::raw(format!(" {label:label_width$} {n:>count_width$} ")),
                Span::styled(bar, style),
            ])
        })
        .collect()
}

pub(super) fn summary_lines(
    app: &App,
    summary: &Summary,
    verdict: &str,
    inner_width: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let label = |s: &str| Span::styled(format!(" {s:<8} "), theme.dim());
    let tally = &summary.tally;
    let errors = match (tally.first_error, tally.last_error) {
        (Some(first), Some(last)) => format!(
            "{}, first at {}, last at {}",
            tally.error_count(),
            app.format_offset(first as u64),
            app.format_offset(last as u64)
        ),
        _ => "none".to_string(),
    };
    let seconds = summary.elapsed.as_secs_f64();
    let speed = if seconds > 0.0 {
        format!(", {}", human_speed(summary.len as f64 / seconds))
    } else {
        String::new()
    };
    let mut lines = vec![
        Line::from(vec![
            label("verdict"),
            Span::styled(
                verdict.to_string(),
                Style::new().add_modifier(Modifier::BOLD),
            ),
        ]),
        Line::from(vec![
            label("size"),
            Span::raw(format!(
                "{}, {} characters",
                human_size(summary.len),
                summary.unit_count()
            )),
        ]),
        Line::from(vec![
            label("BOM"),
            Span::raw(summary.bom.map_or("none", |b| b.describe()).to_string()),
        ]),
        Line::from(vec![label("errors"), Span::raw(errors)]),
        Line::from(vec![label("detect"), Span::raw(detect_text(app))]),
        Line::from(vec![label("regions"), Span::raw(regions_text(app))]),
        Line::from(vec![
            label("scan"),
            Span::raw(format!("{}{speed}", human_elapsed(seconds))),
        ]),
        Line::raw(""),
        Line::from(Span::styled(" characters by class", theme.title())),
    ];
    let (classes, kinds) = stats_rows(summary);
    let label_width = classes
        .iter()
        .chain(&kinds)
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0);
    let count_width = classes
        .iter()
        .chain(&kinds)
        .map(|(_, n)| n.to_string().len())
        .max()
        .unwrap_or(1);
    lines.extend(bar_lines(
        &classes,
        label_width,
        count_width,
        inner_width,
        theme.accent(),
    ));
    lines.push(Line::raw(""));
    if kinds.is_empty() {
        lines.push(Line::from(Span::styled(" no errors", theme.title())));
    } else {
        lines.push(Line::from(Span::styled(" errors by kind", theme.title())));
        lines.extend(bar_lines(
            &kinds,
            label_width,
            count_width,
            inner_width,
            theme.error(None),
        ));
    }
    lines.extend(super::findings::stats_lines(app, inner_width, theme));
    lines
}

/// Why there is no detection to show: it is running, or detection reads the input as
/// UTF-8 and the view reads it otherwise.
fn no_detection(app: &App) -> String {
    if app.dialect == crate::decode::Dialect::Utf8 {
        "detecting…".to_string()
    } else {
        "only in the utf8 dialect (d or e to switch)".to_string()
    }
}

/// The detection line: encoding, BOM, regions and mojibake, or why there is none yet.
fn detect_text(app: &App) -> String {
    let Some(d) = app.detection() else {
        return no_detection(app);
    };
    let mut text = d.headline();
    if let Some(bom) = d.bom {
        text.push_str(&format!(", BOM {}", bom.encoding()));
    }
    if !d.inner_boms.is_empty() {
        text.push_str(&format!(", U+FEFF inside ×{}", d.inner_boms.len()));
    }
    match d.mojibake.len() {
        0 => text.push_str(", no mojibake"),
        1 => text.push_str(", 1 mojibake region"),
        n => text.push_str(&format!(", {n} mojibake regions")),
    }
    text
}

/// The most regions the regions line names.
const REGIONS_NAMED: usize = 6;

/// The regions line: how many, and the encoding of each in the input's order (the first
/// [`REGIONS_NAMED`]).
fn regions_text(app: &App) -> String {
    let Some(d) = app.detection() else {
        return no_detection(app);
    };
    let names: Vec<&str> = d.regions.iter().map(|r| r.encoding).collect();
    match names.len() {
        0 | 1 => format!("one, {}", names.first().copied().unwrap_or("UTF-8")),
        n if n <= REGIONS_NAMED => format!("{n}: {}", names.join(", ")),
        n => format!("{n}: {}, …", names[..REGIONS_NAMED].join(", ")),
    }
}

/// Where the statistics overlay goes in `area`, and its lines.
fn popup(app: &App, area: Rect, theme: &Theme) -> (Rect, Vec<Line<'static>>) {
    let width = area.width.min(72);
    let inner_width = width.saturating_sub(2) as usize;
    let lines = match (&app.scan, app.summary(), app.verdict()) {
        (_, Some(summary), Some(verdict)) => summary_lines(
            app,
            summary,
            &verdict.describe(app.dialect),
            inner_width,
            theme,
        ),
        (Scan::Failed(e), ..) if app.changed || app.written => e
            .lines()
            .map(|l| Line::raw(format!(" {}", sanitize(l))))
            .collect(),
        (Scan::Failed(e), ..) => vec![Line::raw(format!(" scan failed: {}", sanitize(e)))],
        _ => vec![Line::raw(format!(
            " {}",
            scan_status(app).unwrap_or_else(|| "scanning…".to_string())
        ))],
    };
    // A line wider than the overlay ends in `…` where it is cut, as in the detail pane.
    let lines: Vec<Line<'static>> = lines
        .into_iter()
        .map(|line| super::detail::fit_line(line, inner_width))
        .collect();
    let height = (lines.len() as u16 + 2).min(area.height);
    let popup = Rect {
        x: area.x + area.width.saturating_sub(width) / 2,
        y: area.y + area.height.saturating_sub(height) / 2,
        width,
        height,
    };
    (popup, lines)
}

/// How the statistics scroll in `area`.
pub fn stats_room(app: &App, area: Rect) -> Room {
    let (popup, lines) = popup(app, area, &Theme(theme::Theme::MONO));
    Room::of(popup, lines.len())
}

/// The statistics overlay (`s`): the verdict and counts once the scan is done, its progress
/// before; scrolled as the help is where it does not fit.
pub(super) fn draw_stats(app: &App, area: Rect, theme: &Theme, buf: &mut Buffer) {
    let (popup, lines) = popup(app, area, theme);
    let title = format!(" statistics: {} ", app.dialect.title());
    draw_scrolled(popup, title, lines, app.stats_scroll, buf);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::index::Progress;

    fn labels(dialect: Dialect, bytes: &[u8]) -> Vec<(String, u64)> {
        let summary = Summary::build(dialect, bytes, 1, &Progress::new()).unwrap();
        stats_rows(&summary).0
    }

    /// Each encoding lists the classes it has: UTF-16 its one-unit and pair units, UTF-32
    /// its 4-byte units, a single-byte encoding its bytes; the UTF-8 family 1 to 4.
    #[test]
    fn classes_of_the_view_encoding() {
        let text = "aé€😀";
        let utf16 = crate::decode::text_bytes(Dialect::Utf16Le, text);
        assert_eq!(
            labels(Dialect::Utf16Le, &utf16),
            [
                ("2 one unit".to_string(), 3),
                ("4 surrogate pair".to_string(), 1)
            ]
        );
        let utf32 = crate::decode::text_bytes(Dialect::Utf32Be, text);
        assert_eq!(
            labels(Dialect::Utf32Be, &utf32),
            [("4 4-byte".to_string(), 4)]
        );
        let cp1252 = crate::encoding::resolve("windows-1252").unwrap();
        assert_eq!(labels(cp1252, b"a\xE9\x80"), [("1 byte".to_string(), 3)]);
        let utf8: Vec<String> = labels(Dialect::Utf8, text.as_bytes())
            .into_iter()
            .map(|(l, _)| l)
            .collect();
        assert_eq!(utf8, ["1 ASCII", "2 2-byte", "3 3-byte", "4 4-byte"]);
    }
}
