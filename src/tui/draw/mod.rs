//! Drawing: a pure function from the app to a frame. Every cell of the data panes comes
//! from [`crate::view::rows`]; every string that came from the input or the keyboard went
//! through [`crate::view::glyph`] first.
//!
//! One module a pane: `panes` (hex, class lane, text, errors), `map`, `detail`,
//! `status`, and the overlays `stats` and `help`. This module holds what they share:
//! the view's theme as ratatui styles, and [`render`], which lays the panes out.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::{Paragraph, Wrap};
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

mod cluster;
mod detail;
mod findings;
mod help;
mod map;
mod panes;
mod stats;
mod status;
mod write;

use detail::draw_detail;
use help::draw_help;
pub use help::help_room;
use map::draw_map;
use panes::{draw_header, draw_row};
use stats::draw_stats;
pub use stats::stats_room;
pub use stats::{stats_rows, Bar};
use status::draw_status;
pub use status::{scan_status, short_size, status_left};

/// How an overlay of lines scrolls in its frame: the lines shown at once, and the largest
/// useful scroll (its last line at the bottom).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Room {
    /// Lines shown at once (at least 1).
    pub page: u16,
    /// The largest useful scroll.
    pub limit: u16,
}

impl Room {
    /// The room of `total` lines in the frame `popup`.
    fn of(popup: Rect, total: usize) -> Room {
        let page = popup.height.saturating_sub(2);
        Room {
            page: page.max(1),
            limit: (total as u16).saturating_sub(page),
        }
    }

    /// Where a scroll at `at` goes for `action`, if it is a scrolling one (`j k PgDn PgUp
    /// g G`).
    pub fn scroll(self, at: u16, action: &super::action::Action) -> Option<u16> {
        use super::action::Action::*;
        let at = at.min(self.limit);
        let to = match action {
            Down => at.saturating_add(1),
            Up => at.saturating_sub(1),
            PageDown => at.saturating_add(self.page),
            PageUp => at.saturating_sub(self.page),
            Start => 0,
            End => self.limit,
            _ => return None,
        };
        Some(to.min(self.limit))
    }
}

/// An overlay: `lines` in the frame `popup` titled `title`, scrolled down `scroll` lines;
/// where they do not all fit, the frame's foot says which show and how to scroll.
fn draw_scrolled(
    popup: Rect,
    title: String,
    lines: Vec<ratatui::text::Line<'static>>,
    scroll: u16,
    buf: &mut Buffer,
) {
    use ratatui::layout::Alignment;
    use ratatui::text::Line;
    use ratatui::widgets::{Block, Clear, Widget};
    let total = lines.len() as u16;
    let page = popup.height.saturating_sub(2);
    let scroll = scroll.min(total.saturating_sub(page));
    Clear.render(popup, buf);
    let mut block = Block::bordered()
        .title(title)
        .title_alignment(Alignment::Center);
    if page < total {
        block = block.title_bottom(
            Line::from(format!(
                " {}-{} of {} (j k PgDn PgUp g G) ",
                scroll + 1,
                (scroll + page).min(total),
                total
            ))
            .alignment(Alignment::Center),
        );
    }
    Paragraph::new(lines)
        .block(block)
        .scroll((scroll, 0))
        .render(popup, buf);
}

/// The view's [`theme::Theme`] as ratatui styles: every style the screen uses comes from
/// there, so the viewer and `dump` colour every cell alike.
pub(super) struct Theme(theme::Theme);

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

    fn mojibake(&self) -> Style {
        style(self.0.mojibake())
    }

    fn shade(&self, shade: Shade) -> (&'static str, Style) {
        let (glyph, paint) = self.0.shade(shade);
        (glyph, style(paint))
    }
}

/// A ratatui style that sets exactly `paint`.
pub(super) fn style(paint: Paint) -> Style {
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
        (paint.italic, Modifier::ITALIC),
    ] {
        if on {
            style = style.add_modifier(modifier);
        }
    }
    style
}

pub(super) fn color(tone: Tone) -> Color {
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
pub(super) fn select(style: Style, selected: bool, cursor: bool) -> Style {
    let paint = theme::select(Paint::PLAIN, selected, cursor);
    style.patch(self::style(paint))
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    render(app, area, frame.buffer_mut());
    // The terminal's cursor shows where the next character typed in a prompt goes; it
    // is hidden otherwise.
    if let Some((status, column)) = prompt_cursor(app, area) {
        frame.set_cursor_position((status.x + column, status.y));
    }
}

/// The status line and the column in it where the open prompt's cursor is, if a prompt
/// is open and the terminal is big enough to show it.
pub fn prompt_cursor(app: &App, area: Rect) -> Option<(Rect, u16)> {
    let status = app.layout_in(area)?.status;
    let (_, column) = status::prompt_line(app, status.width)?;
    Some((status, column))
}

/// Renders the app into a buffer (what [`draw`] does, usable without a terminal).
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = Theme(theme::Theme { color: app.color });
    let Some(layout) = app.layout_in(area) else {
        too_small(app, area, buf);
        return;
    };
    if let Some(header) = layout.header {
        draw_header(&layout, header, &theme, buf);
    }
    let window_len = layout.bytes_per_row as u64 * layout.data_rows() as u64;
    let rows = view::rows(
        app.source.bytes(),
        app.dialect,
        app.top..app.top.saturating_add(window_len),
        layout.bytes_per_row,
        Options {
            cursor: Some(app.cursor),
            escape: app.escape,
            checkpoint: app.checkpoint_before(app.top as usize),
            ..Options::default()
        },
    );
    let lane =
        (layout.row_lines > 1).then(|| cluster::lane_spans(app, app.top..app.top + window_len));
    for (i, row) in rows.iter().enumerate() {
        let y = layout.rows.y + i as u16 * layout.row_lines;
        draw_row(app, &layout, y, row, &theme, buf);
        if let Some(spans) = &lane {
            if y + 1 < layout.rows.bottom() {
                cluster::draw_lane(app, &layout, y + 1, row, spans, &theme, buf);
            }
        }
    }
    if let Some(area) = layout.cluster {
        cluster::draw_cluster(app, area, &theme, buf);
    }
    if app.source.is_empty() {
        buf.set_string(layout.hex_x, layout.rows.y, "(empty input)", theme.dim());
    }
    if let Some(area) = layout.detail {
        draw_detail(app, area, layout.detail_spare, &theme, buf);
    }
    if let Some(strip) = layout.map {
        draw_map(app, strip, window_len, &theme, buf);
    }
    draw_status(app, layout.status, &theme, buf);
    if app.stats {
        draw_stats(app, area, &theme, buf);
    }
    if app.help {
        draw_help(app, area, &theme, buf);
    }
    if app.write.is_some()
        && app
            .prompt
            .as_ref()
            .is_some_and(|p| p.kind == PromptKind::Write)
    {
        write::draw_write(app, layout.status, &theme, buf);
    }
}

/// The screen while a stream is read, before the viewer opens: how much of `name` has
/// come, and the keys (Enter shows what is read so far, q quits). `name` is sanitised.
pub fn draw_reading(frame: &mut Frame, name: &str, read: u64) {
    let area = frame.area();
    render_reading(name, read, area, frame.buffer_mut());
}

/// Renders [`draw_reading`]'s screen into a buffer.
pub fn render_reading(name: &str, read: u64, area: Rect, buf: &mut Buffer) {
    use ratatui::layout::Alignment;
    let lines = vec![
        ratatui::text::Line::from(format!(
            "reading {name}\u{2026} {}",
            status::short_size(read)
        )),
        ratatui::text::Line::from("Enter shows what is read so far, q quits"),
    ];
    let middle = Rect::new(
        area.x,
        area.y + area.height.saturating_sub(2) / 2,
        area.width,
        area.height.min(2),
    );
    let paragraph = Paragraph::new(lines)
        .alignment(Alignment::Center)
        .wrap(Wrap { trim: true });
    ratatui::widgets::Widget::render(paragraph, middle, buf);
}

/// What a terminal smaller than [`super::layout::minimum_size`] shows: that size, and the
/// way out.
pub(super) fn too_small(app: &App, area: Rect, buf: &mut Buffer) {
    let (columns, lines) = super::layout::minimum_size(app.source.len(), app.decimal);
    let (hex, _) = super::layout::minimum_size(app.source.len(), false);
    let way_out = match app.decimal && hex <= area.width {
        true => "o: hex offsets, q quits",
        false => "q quits",
    };
    let text = format!("terminal too small: need {columns}\u{d7}{lines} ({way_out})");
    let paragraph = Paragraph::new(text).wrap(Wrap { trim: true });
    ratatui::widgets::Widget::render(paragraph, area, buf);
}

#[cfg(test)]
mod tests {
    use super::help::{help_lines, LEGEND, PLACEHOLDERS};
    use super::stats::bar;
    use super::status::{
        elide_start, human_duration, human_elapsed, progress_text, progress_text_since,
    };
    use super::*;

    #[test]
    fn the_help_legend_names_every_error_kind_once() {
        let kinds: Vec<ErrorKind> = LEGEND.iter().map(|(k, _)| *k).collect();
        assert_eq!(kinds, ErrorKind::ALL);
    }

    /// Every class of glyph the text pane draws other than plain characters has a line in
    /// the legend (a class added to the view without one fails to compile here first).
    #[test]
    fn the_help_legend_shows_every_placeholder_class() {
        use crate::decode::CodePoint;
        use crate::view::glyph::glyph;
        let shown: Vec<GlyphClass> = PLACEHOLDERS
            .iter()
            .flat_map(|(samples, _)| samples.iter())
            .map(|v| glyph(CodePoint::new(*v)).class)
            .chain([GlyphClass::Error, GlyphClass::Cut, GlyphClass::Escaped])
            .collect();
        for class in shown.iter().copied() {
            match class {
                GlyphClass::Plain
                | GlyphClass::Space
                | GlyphClass::Control
                | GlyphClass::Format
                | GlyphClass::Selector
                | GlyphClass::Mark
                | GlyphClass::Unassigned
                | GlyphClass::PrivateUse
                | GlyphClass::Surrogate
                | GlyphClass::NonUnicode
                | GlyphClass::Error
                | GlyphClass::Replacement
                | GlyphClass::Escaped
                | GlyphClass::Cut => {}
            }
        }
        let every = [
            GlyphClass::Space,
            GlyphClass::Control,
            GlyphClass::Format,
            GlyphClass::Selector,
            GlyphClass::Mark,
            GlyphClass::Unassigned,
            GlyphClass::PrivateUse,
            GlyphClass::Surrogate,
            GlyphClass::NonUnicode,
            GlyphClass::Error,
            GlyphClass::Replacement,
            GlyphClass::Cut,
            GlyphClass::Escaped,
        ];
        for class in every {
            assert!(shown.contains(&class), "{class:?} is not in the legend");
        }
        assert!(!shown.contains(&GlyphClass::Plain));
        // Each format mark the pane draws has its own line.
        let text: String = help_lines(200, &Theme(theme::Theme::MONO))
            .iter()
            .map(|l| l.to_string() + "\n")
            .collect();
        for mark in [
            "ˑ", "␀", "⌧", "␣", "⏎", "⇄", "ᶻ", "ᴮ", "⁻", "ᵗ", "ᶠ", "ᵛ", "◌", "∄", "ᵖ", "ˢ", "⁺",
            "\u{FFFD}", "…",
        ] {
            assert!(text.contains(mark), "{mark} is not in the legend");
        }
    }

    /// Wrapped to any width, no line is wider than it, and no word is cut.
    #[test]
    fn the_help_wraps_at_words() {
        let theme = Theme(theme::Theme::MONO);
        let words = |lines: &[ratatui::text::Line]| -> Vec<String> {
            lines
                .iter()
                .flat_map(|l| {
                    l.to_string()
                        .split_whitespace()
                        .map(str::to_string)
                        .collect::<Vec<_>>()
                })
                .collect()
        };
        let wide = words(&help_lines(500, &theme));
        for width in [60, 77, 100] {
            let lines = help_lines(width, &theme);
            for line in &lines {
                assert!(line.width() <= width as usize, "{width}: {line}");
            }
            assert_eq!(words(&lines), wide, "{width}");
        }
    }
    use crate::decode::Dialect;
    use crate::scan::index::Progress;
    use crate::source::Source;
    use crate::tui::Action;
    use std::time::Duration;

    /// The demo file, read here and not from the command line's copy: the viewer does not
    /// know the command line.
    const DEMO: &[u8] = include_bytes!("../../../assets/demo.utf8");

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
            " demo  3.6 KiB (3695 B)  0xE6E (3694)  100%  utf8  char 3589 of 3589"
        );
        assert_eq!(
            status_left(&app, 60),
            " demo  3.6 KiB  0xE6E (3694)  100%  utf8  char 3589 of 3589"
        );
        assert_eq!(
            status_left(&app, 55),
            " demo  3.6 KiB  0xE6E  100%  utf8  char 3589 of 3589"
        );
        assert_eq!(status_left(&app, 40), " demo  3.6 KiB  0xE6E  100%  utf8");
        assert_eq!(status_left(&app, 30), " demo  3.6 KiB  0xE6E  100%  utf8");
        assert_eq!(scan_status(&app), None);
        let mut app = demo(false);
        assert_eq!(
            status_left(&app, 120),
            " demo  3.6 KiB (3695 B)  0x0 (0)  0%  utf8"
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
        assert_eq!(progress(&mut app, 185, 50), "scanning… 5%");
        assert_eq!(
            progress(&mut app, 1847, 2000),
            "scanning… 49%  1 kB/s  3s left"
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
    fn messages_give_up_their_pattern_then_their_end() {
        use super::status::fit_message;
        let text = "search \"a very long pattern\": none found";
        let pattern = Some(8..27);
        assert_eq!(&text[8..27], "a very long pattern");
        assert_eq!(fit_message(text, pattern.clone(), 41), text);
        assert_eq!(
            fit_message(text, pattern.clone(), 30),
            "search \"a very l…\": none found"
        );
        // One column of the pattern at least, then the end goes.
        assert_eq!(
            fit_message(text, pattern.clone(), 24),
            "search \"a …\": none found"
        );
        assert_eq!(fit_message(text, pattern, 16), "search \"a…\": no…");
        assert_eq!(fit_message(text, None, 16), "search \"a very …");
        assert_eq!(fit_message(text, None, 0), "");
        // What the input put in a message is sanitised whole or in parts.
        assert_eq!(fit_message("x\u{1b}y", None, 10), r"x\u{1b}y");
        assert_eq!(
            fit_message("\"\u{1b}\u{1b}\u{1b}\": done", Some(1..4), 12),
            r#""\u{…": done"#
        );
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
        // Measured since an earlier report: a scan that slowed says so.
        let since = |done, len, ms, from: (u64, u64)| {
            progress_text_since(
                done,
                len,
                Duration::from_millis(ms),
                (Duration::from_millis(from.0), from.1),
            )
        };
        assert_eq!(
            since(10 * gib, 16 * gib, 4000, (3000, 9 * gib)),
            "scanning… 62%  1.1 GB/s  6s left"
        );
        assert_eq!(
            text(10 * gib, 16 * gib, 4000),
            "scanning… 62%  2.7 GB/s  3s left"
        );
        // Too short a span: the whole scan's speed.
        assert_eq!(
            since(10 * gib, 16 * gib, 4000, (3800, 9 * gib)),
            "scanning… 62%  2.7 GB/s  3s left"
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
