//! Drawing: a pure function from the app to a frame. Every cell of the data panes comes
//! from [`crate::view::rows`]; every string that came from the input or the keyboard went
//! through [`crate::view::glyph`] first.
//!
//! Besides the panes: the map strip along the right edge (a [`Shade`] per part of the
//! input, each with its own glyph so it reads without colour), the whole-input scan's
//! progress in the status line, and the statistics overlay (`s`).

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::app::{App, PromptKind, Scan};
use super::keymap::KEYS;
use super::layout::Layout;
use crate::decode::ErrorKind;
use crate::scan::index::Summary;
use crate::view::glyph::{sanitize, GlyphClass, FILLER};
use crate::view::map::{cells_in_view, Shade};
use crate::view::theme::{self, Paint, Tone};
use crate::view::{self, error_letter, Class, Detail, Meaning, Options, Role, Row, TextCell};

/// The view's [`theme::Theme`] as ratatui styles: every style the screen uses comes from
/// there, so the viewer and `dump` colour every cell alike.
struct Theme(theme::Theme);

impl Theme {
    fn role(&self, role: Role) -> Style {
        style(self.0.role(role))
    }

    fn error(&self, kind: Option<ErrorKind>) -> Style {
        style(self.0.error(kind))
    }

    fn marker(&self, kind: ErrorKind) -> Style {
        style(self.0.marker(kind))
    }

    fn glyph(&self, class: GlyphClass) -> Style {
        style(self.0.glyph(class))
    }

    fn dim(&self) -> Style {
        style(self.0.dim())
    }

    fn title(&self) -> Style {
        style(self.0.title())
    }

    fn accent(&self) -> Style {
        style(self.0.accent())
    }

    fn shade(&self, shade: Shade) -> (&'static str, Style) {
        let (glyph, paint) = self.0.shade(shade);
        (glyph, style(paint))
    }
}

/// A ratatui style that sets exactly `paint`.
fn style(paint: Paint) -> Style {
    let mut style = Style::new();
    if let Some(fg) = paint.fg {
        style = style.fg(color(fg));
    }
    if let Some(bg) = paint.bg {
        style = style.bg(color(bg));
    }
    for (on, modifier) in [
        (paint.bold, Modifier::BOLD),
        (paint.reversed, Modifier::REVERSED),
        (paint.underlined, Modifier::UNDERLINED),
    ] {
        if on {
            style = style.add_modifier(modifier);
        }
    }
    style
}

fn color(tone: Tone) -> Color {
    match tone {
        Tone::Black => Color::Black,
        Tone::Red => Color::Red,
        Tone::Green => Color::Green,
        Tone::Yellow => Color::Yellow,
        Tone::Blue => Color::Blue,
        Tone::Magenta => Color::Magenta,
        Tone::Cyan => Color::Cyan,
        Tone::Gray => Color::Gray,
        Tone::DarkGray => Color::DarkGray,
        Tone::LightRed => Color::LightRed,
        Tone::LightGreen => Color::LightGreen,
        Tone::LightYellow => Color::LightYellow,
        Tone::LightBlue => Color::LightBlue,
        Tone::LightMagenta => Color::LightMagenta,
        Tone::LightCyan => Color::LightCyan,
        Tone::White => Color::White,
        Tone::Indexed(i) => Color::Indexed(i),
    }
}

/// Selected cells (the unit under the cursor) are reversed; the cursor byte is also bold and
/// underlined.
fn select(style: Style, selected: bool, cursor: bool) -> Style {
    let paint = theme::select(Paint::PLAIN, selected, cursor);
    style.patch(self::style(paint))
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    render(app, area, frame.buffer_mut());
}

/// Renders the app into a buffer (what [`draw`] does, usable without a terminal).
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = Theme(theme::Theme { color: app.color });
    let Some(layout) = super::layout::layout(area, app.source.len(), app.decimal) else {
        too_small(area, buf);
        return;
    };
    if let Some(header) = layout.header {
        draw_header(&layout, header, &theme, buf);
    }
    let window_len = layout.bytes_per_row as u64 * layout.rows.height as u64;
    let rows = view::rows(
        app.source.bytes(),
        app.dialect,
        app.top..app.top.saturating_add(window_len),
        layout.bytes_per_row,
        Options {
            cursor: Some(app.cursor),
        },
    );
    for (i, row) in rows.iter().enumerate() {
        draw_row(app, &layout, layout.rows.y + i as u16, row, &theme, buf);
    }
    if app.source.is_empty() {
        buf.set_string(layout.hex_x, layout.rows.y, "(empty input)", theme.dim());
    }
    if let Some(area) = layout.detail {
        draw_detail(app, area, &theme, buf);
    }
    if let Some(strip) = layout.map {
        draw_map(app, strip, window_len, &theme, buf);
    }
    draw_status(app, layout.status, &theme, buf);
    if app.stats {
        draw_stats(app, area, &theme, buf);
    }
    if app.help {
        draw_help(area, &theme, buf);
    }
}

/// The map strip: per row, a viewport marker (`┃` beside the parts on screen, `│`
/// elsewhere) and the part's shade.
fn draw_map(app: &App, strip: Rect, window_len: u64, theme: &Theme, buf: &mut Buffer) {
    let view = cells_in_view(&app.map, app.top..app.top.saturating_add(window_len));
    for (i, cell) in app.map.iter().enumerate().take(strip.height as usize) {
        let y = strip.y + i as u16;
        let (marker, marker_style) = if view.contains(&i) {
            ("\u{2503}", style(theme.0.in_view()))
        } else {
            ("\u{2502}", theme.dim())
        };
        buf.set_string(strip.x, y, marker, marker_style);
        let (glyph, style) = theme.shade(cell.shade());
        for x in strip.x + 1..strip.right() {
            buf.set_string(x, y, glyph, style);
        }
    }
}

fn too_small(area: Rect, buf: &mut Buffer) {
    let text = "terminal too small";
    let paragraph = Paragraph::new(text).wrap(Wrap { trim: true });
    ratatui::widgets::Widget::render(paragraph, area, buf);
}

fn draw_header(layout: &Layout, area: Rect, theme: &Theme, buf: &mut Buffer) {
    let style = theme.title();
    buf.set_string(area.x, area.y, "offset", style);
    buf.set_string(layout.hex_x, area.y, "bytes", style);
    buf.set_string(layout.class_x, area.y, "class", style);
    buf.set_string(layout.text_x, area.y, "text", style);
    buf.set_string(layout.errors_x, area.y, "errors", style);
    if let Some(strip) = layout.map {
        let x = strip.right().saturating_sub(3);
        if x > layout.errors_x + layout.bytes_per_row as u16 {
            buf.set_string(x, area.y, "map", style);
        }
    }
}

fn draw_row(app: &App, layout: &Layout, y: u16, row: &Row, theme: &Theme, buf: &mut Buffer) {
    let offset = if app.decimal {
        format!("{:0width$}", row.offset, width = layout.offset_digits)
    } else {
        format!("{:0width$x}", row.offset, width = layout.offset_digits)
    };
    buf.set_string(0, y, offset, theme.dim());
    for (i, cell) in row.cells.iter().enumerate() {
        let cursor = cell.offset == app.cursor;
        let x = layout.hex_x + 3 * i as u16;
        let style = select(theme.role(cell.role), cell.selected, cursor);
        buf.set_string(x, y, format!("{:02x}", cell.byte), style);
        let class_style = match cell.class {
            Class::Error(kind) => theme.error(Some(kind)),
            Class::Lead(_) => theme.role(cell.role),
            Class::Continuation { .. } => theme.role(Role::Continuation),
        };
        buf.set_string(
            layout.class_x + i as u16,
            y,
            cell.class.symbol().to_string(),
            select(class_style, cell.selected, cursor),
        );
    }
    for (i, text) in row.text.iter().enumerate() {
        let x = layout.text_x + i as u16;
        let selected = row.cells.get(i).is_some_and(|c| c.selected);
        match text {
            TextCell::Glyph(glyph) => {
                let style = select(theme.glyph(glyph.class), selected, false);
                buf.set_string(x, y, &glyph.text, style);
            }
            TextCell::Covered => {}
            TextCell::Filler => {
                buf.set_string(x, y, FILLER, select(theme.dim(), selected, false));
            }
        }
    }
    for span in &row.errors {
        let style = theme.marker(span.kind);
        let mut marker = String::new();
        for k in 0..span.len {
            marker.push(match (k, span.head) {
                (0, true) => error_letter(span.kind),
                _ => '\u{2501}',
            });
        }
        buf.set_string(layout.errors_x + span.col as u16, y, marker, style);
    }
}

fn draw_detail(app: &App, area: Rect, theme: &Theme, buf: &mut Buffer) {
    let Some(detail) = view::detail(app.source.bytes(), app.dialect, app.cursor) else {
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
    let lines = detail_lines(&detail, theme);
    ratatui::widgets::Widget::render(Paragraph::new(lines), inner, buf);
}

fn detail_lines(detail: &Detail, theme: &Theme) -> Vec<Line<'static>> {
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
    for (prefix, payload) in &detail.bits {
        bytes_line.push(Span::styled(prefix.clone(), theme.dim()));
        if !prefix.is_empty() {
            bytes_line.push(Span::styled("\u{2502}", theme.dim()));
        }
        bytes_line.push(Span::styled(
            payload.clone(),
            Style::new().add_modifier(Modifier::BOLD),
        ));
        bytes_line.push(Span::raw(" "));
    }
    let mut lines = vec![Line::from(bytes_line)];
    match &detail.meaning {
        Meaning::Scalar {
            value,
            name,
            category,
            width,
            utf16,
        } => {
            let glyph = crate::view::glyph::glyph(*value);
            let utf16: Vec<String> = utf16.iter().map(|u| format!("{u:04X}")).collect();
            lines.push(Line::from(vec![
                Span::styled(value.to_string(), Style::new().add_modifier(Modifier::BOLD)),
                Span::raw("  "),
                Span::styled(glyph.text, theme.glyph(glyph.class)),
                Span::raw("  "),
                Span::raw(sanitize(name)),
            ]));
            lines.push(Line::from(vec![
                label("category"),
                Span::raw(format!("{} {}", category.0, category.1)),
                Span::raw("   "),
                label("width"),
                Span::raw(width.map_or("none (control)".to_string(), |w| w.to_string())),
                Span::raw("   "),
                label("UTF-16"),
                Span::raw(if utf16.is_empty() {
                    "none (above U+10FFFF)".to_string()
                } else {
                    utf16.join(" ")
                }),
            ]));
        }
        Meaning::Error {
            kind,
            expected,
            diagnosis,
        } => {
            lines.push(Line::from(vec![
                Span::styled(format!("error {}", kind.name()), theme.marker(*kind)),
                Span::raw(format!(": {}", kind.summary())),
            ]));
            let mut third = Vec::new();
            if let Some(range) = expected {
                third.push(label("expected"));
                third.push(Span::raw(format!("{range} here")));
                third.push(Span::raw("   "));
            }
            if let Some(d) = diagnosis {
                third.push(label("likely"));
                third.push(Span::raw(sanitize(d)));
            }
            lines.push(Line::from(third));
        }
    }
    lines
}

fn draw_status(app: &App, area: Rect, theme: &Theme, buf: &mut Buffer) {
    buf.set_style(area, style(theme.0.status()));
    if let Some(prompt) = &app.prompt {
        let label = match prompt.kind {
            PromptKind::Goto => "go to offset (#N: character N): ".to_string(),
            PromptKind::Search { backward, hex } => format!(
                "{}{} (Tab: {}): ",
                if backward { "\\" } else { "/" },
                if hex { "hex bytes" } else { "text" },
                if hex { "text" } else { "hex" },
            ),
        };
        let line = Line::from(vec![
            Span::raw(label),
            Span::raw(sanitize(&prompt.input)),
            Span::styled(" ", Style::new().add_modifier(Modifier::REVERSED)),
        ]);
        buf.set_line(area.x, area.y, &line, area.width);
        return;
    }
    // The right of the line: what is going on (a search, a message) and the scan's
    // progress must be seen; the left gives up detail to make room for them. The key hint
    // is shown only where there is room left.
    let action = match (&app.job, &app.message) {
        (Some(job), _) => Some(job_text(app, job)),
        (None, Some(m)) => Some(sanitize(&m.text)),
        (None, None) => None,
    };
    let needed: Vec<String> = action.into_iter().chain(scan_status(app)).collect();
    let needed = (!needed.is_empty()).then(|| format!("{} ", needed.join("  ")));
    let style = if app.message.as_ref().is_some_and(|m| m.is_error) && app.job.is_none() {
        self::style(theme.0.status_error())
    } else {
        self::style(theme.0.status())
    };
    let width = |s: &str| unicode_width::UnicodeWidthStr::width(s) as u16;
    let room = needed
        .as_deref()
        .map_or(area.width, |n| area.width.saturating_sub(width(n) + 2));
    let left = status_left(app, room);
    let left_width = width(&left);
    buf.set_stringn(
        area.x,
        area.y,
        &left,
        area.width as usize,
        self::style(theme.0.status()),
    );
    let right = match needed {
        Some(needed) => {
            let with_hint = format!("{needed} {HINT}");
            let hint_fits = app.job.is_none()
                && app.message.is_none()
                && left_width + 2 + width(&with_hint) <= area.width;
            if hint_fits {
                with_hint
            } else {
                needed
            }
        }
        None if left_width + 2 + width(HINT) <= area.width => HINT.to_string(),
        None => return,
    };
    let right_width = width(&right);
    if left_width + 2 + right_width <= area.width {
        buf.set_string(area.right() - right_width, area.y, &right, style);
    } else if left_width + 2 < area.width {
        let x = area.x + left_width + 2;
        buf.set_stringn(x, area.y, &right, (area.right() - x) as usize, style);
    }
}

/// The key hint at the right of an idle status line.
const HINT: &str = "? help  q quit ";

/// A running search or jump: `search "zzz"… 12% (Esc cancels)`.
fn job_text(app: &App, job: &super::app::Job) -> String {
    let len = app.source.len();
    let (done, total) = if job.backward {
        (job.from.saturating_sub(job.reached), job.from)
    } else {
        (
            job.reached.saturating_sub(job.from),
            len.saturating_sub(job.from),
        )
    };
    let pct = if total == 0 {
        100.0
    } else {
        done as f64 * 100.0 / total as f64
    };
    format!("{}… {pct:.0}% (Esc cancels)", sanitize(&job.what))
}

/// The left of the status line: name, size, cursor offset (hex and decimal), percentage,
/// dialect, and once the scan is done the cursor's character number. When that is wider
/// than `width`, the size in bytes goes first, then the decimal offset.
///
/// `" demo  1.6 KiB (1673 B)  0x28D (653)  39%  utf8  char 640 of 1590"`
pub fn status_left(app: &App, width: u16) -> String {
    let len = app.source.len();
    let percent = if len == 0 {
        100.0
    } else {
        (app.cursor + 1) as f64 * 100.0 / len as f64
    };
    let position = app
        .char_position()
        .map(|(n, count)| format!("  char {n} of {count}"))
        .unwrap_or_default();
    let name = sanitize(app.source.name());
    let line = |name: &str, exact_size: bool, decimal: bool| {
        let size = if exact_size || len < 1024 {
            human_size(len)
        } else {
            human_size(len)
                .split(" (")
                .next()
                .unwrap_or_default()
                .to_string()
        };
        let decimal = if decimal {
            format!(" ({})", app.cursor)
        } else {
            String::new()
        };
        let size = if app.changed {
            format!("{size}, truncated on disk")
        } else {
            size
        };
        format!(
            " {name}  {size}  0x{:X}{decimal}  {percent:.0}%  {}{position}",
            app.cursor,
            app.dialect.name(),
        )
    };
    let fits = |l: &String| unicode_width::UnicodeWidthStr::width(l.as_str()) <= width as usize;
    if let Some(l) = [line(&name, true, true), line(&name, false, true)]
        .into_iter()
        .find(fits)
    {
        return l;
    }
    let shortest = line(&name, false, false);
    let over =
        unicode_width::UnicodeWidthStr::width(shortest.as_str()).saturating_sub(width as usize);
    if over == 0 {
        return shortest;
    }
    let name_width = unicode_width::UnicodeWidthStr::width(name.as_str());
    // Then the name gives up its start (the directories first), keeping 8 columns of it.
    match name_width.checked_sub(over + 1) {
        Some(keep) if keep >= 8 => line(&elide_start(&name, keep), false, false),
        _ => shortest,
    }
}

/// The end of `text` that fits in `keep` columns, after `…`.
fn elide_start(text: &str, keep: usize) -> String {
    let mut width = 0;
    let mut start = text.len();
    for (i, c) in text.char_indices().rev() {
        width += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if width > keep {
            break;
        }
        start = i;
    }
    format!("…{}", &text[start..])
}

/// The scan's part of the status line while it runs (`scanning 42%  1.9 GB/s  8s left`),
/// or `None` once it is done.
pub fn scan_status(app: &App) -> Option<String> {
    match &app.scan {
        Scan::Wanted => Some("scanning…".to_string()),
        Scan::Running(run) => Some(progress_text(run.done, app.source.len(), run.elapsed)),
        Scan::Ready(_) | Scan::Failed(_) => None,
    }
}

/// `scanning 42%`, then with speed and time left once there is a measure of them.
fn progress_text(done: u64, len: u64, elapsed: std::time::Duration) -> String {
    let percent = if len == 0 {
        100
    } else {
        (done as u128 * 100 / len as u128) as u64
    };
    let seconds = elapsed.as_secs_f64();
    if done == 0 || seconds < 0.1 {
        return format!("scanning… {percent}%");
    }
    let speed = done as f64 / seconds;
    let left = (len - done.min(len)) as f64 / speed;
    format!(
        "scanning… {percent}%  {}  {} left",
        human_speed(speed),
        human_duration(left)
    )
}

/// `850 MB/s`, `1.9 GB/s` (decimal units, as disks and networks are measured).
fn human_speed(bytes_per_second: f64) -> String {
    if bytes_per_second >= 1e9 {
        format!("{:.1} GB/s", bytes_per_second / 1e9)
    } else if bytes_per_second >= 1e6 {
        format!("{:.0} MB/s", bytes_per_second / 1e6)
    } else {
        format!("{:.0} kB/s", bytes_per_second / 1e3)
    }
}

/// `2.0 ms`, `48.0 s`.
fn human_elapsed(seconds: f64) -> String {
    if seconds < 1.0 {
        format!("{:.1} ms", seconds * 1e3)
    } else {
        format!("{seconds:.1} s")
    }
}

/// `<1s`, `8s`, `3m05s`, `1h02m`.
fn human_duration(seconds: f64) -> String {
    let s = seconds.ceil() as u64;
    match s {
        0 | 1 if seconds < 1.0 => "<1s".to_string(),
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}

/// `1673 B`, `16.0 GiB (17179869184 B)`.
fn human_size(len: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    if len < 1024 {
        return format!("{len} B");
    }
    let mut value = len as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {} ({len} B)", UNITS[unit])
}

/// One bar of the statistics overlay: its label and count.
pub type Bar = (String, u64);

/// The statistics overlay's bars: a label and a count for each class of the dialect, and
/// for each error kind that occurred. The counts are the summary's, which `hexrune check`
/// prints too.
pub fn stats_rows(summary: &Summary) -> (Vec<Bar>, Vec<Bar>) {
    let classes = crate::scan::index::summary_classes(summary.dialect)
        .into_iter()
        .map(|c| {
            let label = if c == 1 {
                "1 ASCII".to_string()
            } else {
                format!("{c} {c}-byte")
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
fn bar(value: u64, max: u64, width: usize) -> String {
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

fn bar_lines(
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

fn summary_lines(
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
    lines
}

/// The statistics overlay (`s`): the verdict and counts once the scan is done, its progress
/// before.
fn draw_stats(app: &App, area: Rect, theme: &Theme, buf: &mut Buffer) {
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
        (Scan::Failed(e), ..) => vec![Line::raw(format!(" scan failed: {}", sanitize(e)))],
        _ => vec![Line::raw(format!(
            " {}",
            scan_status(app).unwrap_or_else(|| "scanning…".to_string())
        ))],
    };
    let height = lines.len() as u16 + 2;
    let popup = Rect {
        x: area.x + area.width.saturating_sub(width) / 2,
        y: area.y + area.height.saturating_sub(height) / 2,
        width,
        height: height.min(area.height),
    };
    ratatui::widgets::Widget::render(Clear, popup, buf);
    let block = Block::bordered()
        .title(format!(" statistics: {} ", app.dialect.title()))
        .title_alignment(Alignment::Center);
    ratatui::widgets::Widget::render(Paragraph::new(lines).block(block), popup, buf);
}

/// The error kinds in the help overlay's legend, in short words, in legend order.
const LEGEND: [(ErrorKind, &str); 9] = [
    (ErrorKind::InvalidByte, "invalid byte"),
    (ErrorKind::UnexpectedContinuation, "stray continuation"),
    (ErrorKind::Truncated, "truncated"),
    (ErrorKind::TruncatedEof, "truncated at end"),
    (ErrorKind::Overlong, "overlong"),
    (ErrorKind::Surrogate, "surrogate"),
    (ErrorKind::OutOfRange, "out of range"),
    (ErrorKind::UnpairedSurrogate, "unpaired surrogate"),
    (ErrorKind::SurrogatePair, "surrogate pair"),
];

fn draw_help(area: Rect, theme: &Theme, buf: &mut Buffer) {
    let key_width = KEYS
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let mut lines: Vec<Line> = KEYS
        .iter()
        .map(|(keys, what)| {
            Line::from(vec![
                Span::styled(
                    format!(" {keys:key_width$}  "),
                    style(theme.0.accent().bold()),
                ),
                Span::raw(*what),
            ])
        })
        .collect();
    lines.push(Line::raw(""));
    lines.push(Line::from(Span::styled(
        " class lane: 1-6 at a lead, ₂..₆ = position in the sequence, ✗ error",
        theme.dim(),
    )));
    for (prefix, kinds) in [(" errors: ", &LEGEND[..4]), ("         ", &LEGEND[4..])] {
        // The letters come from the one table the panes and `dump` use.
        let entries: Vec<String> = kinds
            .iter()
            .map(|(kind, what)| format!("{} {what}", error_letter(*kind)))
            .collect();
        lines.push(Line::from(Span::styled(
            format!("{prefix}{}", entries.join("  ")),
            theme.dim(),
        )));
    }
    lines.push(Line::from(Span::styled(
        " map: ┃ on screen  · ASCII  ░ some multi-byte  ▒ mostly multi-byte  ╎ not scanned yet",
        theme.dim(),
    )));
    lines.push(Line::from(Span::styled(
        "      errors in ! up to 1%  ▓ up to 10%  █ over 10% of the characters",
        theme.dim(),
    )));
    let width = (lines.iter().map(Line::width).max().unwrap_or(0) + 2) as u16;
    let height = lines.len() as u16 + 2;
    let popup = Rect {
        x: area.x + area.width.saturating_sub(width) / 2,
        y: area.y + area.height.saturating_sub(height) / 2,
        width: width.min(area.width),
        height: height.min(area.height),
    };
    ratatui::widgets::Widget::render(Clear, popup, buf);
    let block = Block::bordered()
        .title(" keys (any key closes) ")
        .title_alignment(Alignment::Center);
    ratatui::widgets::Widget::render(Paragraph::new(lines).block(block), popup, buf);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_legend_names_every_error_kind_once() {
        let kinds: Vec<ErrorKind> = LEGEND.iter().map(|(k, _)| *k).collect();
        assert_eq!(kinds, ErrorKind::ALL);
    }
    use crate::decode::Dialect;
    use crate::scan::index::Progress;
    use crate::source::Source;
    use crate::tui::Action;
    use std::time::Duration;

    /// The demo file, read here and not from the command line's copy: the viewer does not
    /// know the command line.
    const DEMO: &[u8] = include_bytes!("../../assets/demo.utf8");

    fn demo(ready: bool) -> App {
        let source = Source::from_bytes("demo", DEMO.to_vec());
        let size = Rect::new(0, 0, 120, 40);
        if ready {
            let summary = Summary::build(Dialect::Utf8, DEMO, 1, &Progress::new()).unwrap();
            App::with_summary(source, summary, size, false)
        } else {
            App::new(source, Dialect::Utf8, size, false)
        }
    }

    #[test]
    fn status_line_texts() {
        let mut app = demo(true);
        app.update(Action::End);
        assert_eq!(
            status_left(&app, 120),
            " demo  1.6 KiB (1673 B)  0x688 (1672)  100%  utf8  char 1577 of 1577"
        );
        assert_eq!(
            status_left(&app, 60),
            " demo  1.6 KiB  0x688 (1672)  100%  utf8  char 1577 of 1577"
        );
        assert_eq!(
            status_left(&app, 55),
            " demo  1.6 KiB  0x688  100%  utf8  char 1577 of 1577"
        );
        assert_eq!(
            status_left(&app, 40),
            " demo  1.6 KiB  0x688  100%  utf8  char 1577 of 1577"
        );
        assert_eq!(
            status_left(&app, 30),
            " demo  1.6 KiB  0x688  100%  utf8  char 1577 of 1577"
        );
        assert_eq!(scan_status(&app), None);
        let mut app = demo(false);
        assert_eq!(
            status_left(&app, 120),
            " demo  1.6 KiB (1673 B)  0x0 (0)  0%  utf8"
        );
        assert_eq!(scan_status(&app).as_deref(), Some("scanning…"));
        app.begin_scan().unwrap();
        let progress = |app: &mut App, done, ms| {
            app.update(Action::ScanProgress {
                done,
                elapsed: Duration::from_millis(ms),
            });
            scan_status(app).unwrap()
        };
        assert_eq!(progress(&mut app, 0, 0), "scanning… 0%");
        assert_eq!(progress(&mut app, 100, 50), "scanning… 5%");
        assert_eq!(
            progress(&mut app, 836, 1000),
            "scanning… 49%  1 kB/s  2s left"
        );
    }

    #[test]
    fn long_names_give_up_their_start() {
        let name = "/var/log/archive/2026/november/server-frontend.log";
        let source = Source::from_bytes(name, vec![b'a'; 4000]);
        let app = App::new(source, Dialect::Utf8, Rect::new(0, 0, 120, 40), false);
        assert_eq!(
            status_left(&app, 120),
            format!(" {name}  3.9 KiB (4000 B)  0x0 (0)  0%  utf8")
        );
        assert_eq!(
            status_left(&app, 60),
            " …/2026/november/server-frontend.log  3.9 KiB  0x0  0%  utf8"
        );
        assert_eq!(elide_start("ab日本", 3), "…本");
        assert_eq!(elide_start("ab日本", 4), "…日本");
    }

    #[test]
    fn progress_figures() {
        let gib = 1u64 << 30;
        let text = |done, len, ms| progress_text(done, len, Duration::from_millis(ms));
        assert_eq!(
            text(4 * gib, 16 * gib, 2000),
            "scanning… 25%  2.1 GB/s  6s left"
        );
        assert_eq!(
            text(gib / 4, 16 * gib, 1000),
            "scanning… 1%  268 MB/s  1m03s left"
        );
        assert_eq!(
            text(gib / 1024, 16 * gib, 1000),
            "scanning… 0%  1 MB/s  4h33m left"
        );
        assert_eq!(
            text(16 * gib - 1, 16 * gib, 9000),
            "scanning… 99%  1.9 GB/s  <1s left"
        );
        assert_eq!(human_duration(59.5), "1m00s");
        assert_eq!(human_elapsed(0.002), "2.0 ms");
        assert_eq!(human_elapsed(47.99), "48.0 s");
    }

    #[test]
    fn bars_in_eighths() {
        assert_eq!(bar(10, 10, 4), "████");
        assert_eq!(bar(5, 10, 4), "██");
        assert_eq!(bar(1, 16, 4), "▎");
        assert_eq!(bar(1, 1_000_000, 4), "▏");
        assert_eq!(bar(0, 10, 4), "");
        let source = Source::from_bytes("t", b"ab\xC0\xAF\xE2\x82".to_vec());
        let summary = Summary::build(Dialect::Utf8, source.bytes(), 1, &Progress::new()).unwrap();
        let (classes, kinds) = stats_rows(&summary);
        let row = |l: &str, n| (l.to_string(), n);
        assert_eq!(
            classes,
            [
                row("1 ASCII", 2),
                row("2 2-byte", 0),
                row("3 3-byte", 0),
                row("4 4-byte", 0)
            ]
        );
        assert_eq!(
            kinds,
            [
                row("I invalid_byte", 1),
                row("C unexpected_continuation", 1),
                row("E truncated_eof", 1)
            ]
        );
    }
}
