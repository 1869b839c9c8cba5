//! Drawing: a pure function from the app to a frame. Every cell of the data panes comes
//! from [`crate::view::rows`]; every string that came from the input or the keyboard went
//! through [`crate::view::glyph`] first.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::app::{App, PromptKind};
use super::keymap::KEYS;
use super::layout::Layout;
use crate::decode::ErrorKind;
use crate::view::glyph::{sanitize, GlyphClass, FILLER};
use crate::view::{self, error_letter, Class, Detail, Meaning, Options, Role, Row, TextCell};

/// Styles, with or without colour. `hexrune dump` prints with these styles too, so the
/// viewer and the dump colour every cell alike.
pub(crate) struct Theme {
    pub(crate) color: bool,
}

impl Theme {
    fn fg(&self, color: Color) -> Style {
        if self.color {
            Style::new().fg(color)
        } else {
            Style::new()
        }
    }

    pub(crate) fn role(&self, role: Role) -> Style {
        match role {
            Role::Null => self.fg(Color::DarkGray),
            Role::AsciiPrintable => self.fg(Color::Cyan),
            Role::AsciiWhitespace => self.fg(Color::Green),
            Role::AsciiControl => self.fg(Color::Magenta),
            Role::Lead => self.fg(Color::LightYellow).add_modifier(Modifier::BOLD),
            Role::Continuation => self.fg(Color::Yellow),
            Role::Error => self.error(None).add_modifier(Modifier::BOLD),
        }
    }

    pub(crate) fn error(&self, kind: Option<ErrorKind>) -> Style {
        let color = match kind {
            None | Some(ErrorKind::InvalidByte) => Color::LightRed,
            Some(ErrorKind::UnexpectedContinuation) => Color::Red,
            Some(ErrorKind::Truncated) => Color::LightMagenta,
            Some(ErrorKind::TruncatedEof) => Color::Magenta,
            Some(ErrorKind::Overlong) => Color::Yellow,
            Some(ErrorKind::Surrogate) => Color::LightCyan,
            Some(ErrorKind::OutOfRange) => Color::LightBlue,
            Some(ErrorKind::UnpairedSurrogate) => Color::Cyan,
            Some(ErrorKind::SurrogatePair) => Color::Blue,
        };
        self.fg(color)
    }

    pub(crate) fn glyph(&self, class: GlyphClass) -> Style {
        match class {
            GlyphClass::Plain => Style::new(),
            GlyphClass::Space => self.fg(Color::Green),
            GlyphClass::Control => self.fg(Color::Magenta),
            GlyphClass::Format | GlyphClass::Selector => self.fg(Color::LightMagenta),
            GlyphClass::Mark => self.fg(Color::LightGreen),
            GlyphClass::Unassigned | GlyphClass::PrivateUse | GlyphClass::Cut => {
                self.fg(Color::Blue)
            }
            GlyphClass::Surrogate | GlyphClass::NonUnicode => self.fg(Color::LightCyan),
            GlyphClass::Error => self.error(None).add_modifier(Modifier::BOLD),
        }
    }

    pub(crate) fn dim(&self) -> Style {
        self.fg(Color::DarkGray)
    }

    fn title(&self) -> Style {
        self.fg(Color::Gray).add_modifier(Modifier::BOLD)
    }

    fn status(&self) -> Style {
        if self.color {
            Style::new().fg(Color::Black).bg(Color::Gray)
        } else {
            Style::new().add_modifier(Modifier::REVERSED)
        }
    }
}

/// Selected cells (the unit under the cursor) are reversed; the cursor byte is also bold and
/// underlined.
fn select(style: Style, selected: bool, cursor: bool) -> Style {
    match (selected, cursor) {
        (_, true) => style.add_modifier(Modifier::REVERSED | Modifier::BOLD | Modifier::UNDERLINED),
        (true, false) => style.add_modifier(Modifier::REVERSED),
        _ => style,
    }
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    render(app, area, frame.buffer_mut());
}

/// Renders the app into a buffer (what [`draw`] does, usable without a terminal).
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = Theme { color: app.color };
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
    draw_status(app, layout.status, &theme, buf);
    if app.help {
        draw_help(area, &theme, buf);
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
        let style = theme.error(Some(span.kind)).add_modifier(Modifier::BOLD);
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
                Span::styled(
                    format!("error {}", kind.name()),
                    theme.error(Some(*kind)).add_modifier(Modifier::BOLD),
                ),
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
    buf.set_style(area, theme.status());
    if let Some(prompt) = &app.prompt {
        let label = match prompt.kind {
            PromptKind::Goto => "go to offset: ".to_string(),
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
    let len = app.source.len();
    let percent = if len == 0 {
        100.0
    } else {
        (app.cursor + 1) as f64 * 100.0 / len as f64
    };
    let left = format!(
        " {}  {}  0x{:X} ({})  {:.0}%  {}",
        sanitize(app.source.name()),
        human_size(len),
        app.cursor,
        app.cursor,
        percent,
        app.dialect.name(),
    );
    let hint = app.job.is_none() && app.message.is_none();
    let right = match (&app.job, &app.message) {
        (Some(job), _) => {
            let done = if job.backward {
                job.from.saturating_sub(job.reached)
            } else {
                job.reached.saturating_sub(job.from)
            };
            let total = if job.backward {
                job.from
            } else {
                len.saturating_sub(job.from)
            };
            let pct = if total == 0 {
                100.0
            } else {
                done as f64 * 100.0 / total as f64
            };
            format!("{}… {:.0}% (Esc cancels) ", sanitize(&job.what), pct)
        }
        (None, Some(m)) => format!("{} ", sanitize(&m.text)),
        (None, None) => "? help  q quit ".to_string(),
    };
    let mut style = theme.status();
    if app.message.as_ref().is_some_and(|m| m.is_error) && app.job.is_none() {
        style = style.add_modifier(Modifier::BOLD);
        if app.color {
            style = style.fg(Color::Red);
        }
    }
    buf.set_stringn(area.x, area.y, &left, area.width as usize, theme.status());
    let right_width = unicode_width::UnicodeWidthStr::width(right.as_str()) as u16;
    let left_width = unicode_width::UnicodeWidthStr::width(left.as_str()) as u16;
    if left_width + 2 + right_width <= area.width {
        buf.set_string(area.right() - right_width, area.y, &right, style);
    } else if !hint && left_width + 2 < area.width {
        let x = area.x + left_width + 2;
        buf.set_stringn(x, area.y, &right, (area.right() - x) as usize, style);
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
                    theme.fg(Color::LightYellow).add_modifier(Modifier::BOLD),
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
    lines.push(Line::from(Span::styled(
        " errors: I invalid byte  C stray continuation  T truncated  E truncated at end",
        theme.dim(),
    )));
    lines.push(Line::from(Span::styled(
        "         O overlong  S surrogate  R out of range  U unpaired surrogate  P surrogate pair",
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
