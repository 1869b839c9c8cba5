//! The write form of `W`, drawn above the status line (where the path is typed): the
//! policy and the toggles with their keys, and the preview of the unit under the cursor,
//! before → after, in hex and glyphs (every glyph from [`crate::view::glyph`]).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use super::{App, Theme};

/// Draws the form in the rows just above `status`.
pub(super) fn draw_write(app: &App, status: Rect, theme: &Theme, buf: &mut Buffer) {
    let Some(form) = app.write else { return };
    let width = status.width.min(78);
    let on = |b: bool| if b { "on " } else { "off" };
    // The policy and each toggle with its state, as many to a line as fit: a narrow form
    // takes a line more rather than cut off a state.
    let settings = [
        vec![
            Span::styled("policy ", theme.dim()),
            Span::styled(format!("{:<13}", form.policy_name()), theme.accent()),
            Span::styled(" Tab: next", theme.dim()),
        ],
        vec![Span::raw(format!(
            "Ctrl-T --mojibake {}",
            on(form.mojibake)
        ))],
        vec![Span::raw(format!(
            "Ctrl-R --bom {}",
            if form.strip_bom { "strip" } else { "keep" }
        ))],
    ];
    // One column of padding inside the border on each side.
    let inner = width.saturating_sub(2) as usize;
    let mut lines = pack(settings, inner.saturating_sub(2));
    match app.write_preview() {
        Some(p) => {
            lines.push(Line::from(vec![
                Span::styled(" at     ", theme.dim()),
                Span::raw(format!("{}  {}", app.format_offset(p.offset), p.what)),
            ]));
            lines.push(Line::from(vec![
                Span::styled(" before ", theme.dim()),
                Span::raw(format!("{:<24} {}", p.before.hex, p.before.glyphs)),
            ]));
            lines.push(Line::from(vec![
                Span::styled(" after  ", theme.dim()),
                Span::raw(format!("{:<24} {}", p.after.hex, p.after.glyphs)),
            ]));
        }
        _ => lines.push(Line::styled(
            " (empty input: nothing to preview)",
            theme.dim(),
        )),
    }
    match &app.message {
        // A refusal (the input itself, a policy that cannot be) is said here, where the
        // eyes are: the status line holds the path being typed. A note (the lanes a
        // resize hid) leaves the form's instructions in place.
        Some(m) if m.is_error => {
            // In the rows the form has left; where it would take more, the part of the
            // message that may be shortened (a long path) gives way first, so that the
            // cause stays in view.
            let wide = status.width.min(78).saturating_sub(4) as usize;
            let rows = (status.y as usize).saturating_sub(lines.len() + 2).max(1);
            let mut room = rows * wide;
            let mut text = crate::view::safe::sanitize(&m.text);
            while wrap(&text, wide).len() > rows && room > 8 {
                room -= 4;
                text = super::status::fit_message(&m.text, m.elide.clone(), room);
            }
            for piece in wrap(&text, wide) {
                lines.push(Line::styled(
                    format!(" {piece}"),
                    super::style(theme.0.status_error()),
                ));
            }
        }
        _ => lines.push(Line::styled(
            " Enter writes, Esc cancels; the file shown stays as it is",
            theme.dim(),
        )),
    }
    let height = lines.len() as u16 + 2;
    let area = Rect {
        x: status.x,
        y: status.y.saturating_sub(height),
        width,
        height: height.min(status.y),
    };
    // The rows the form stands in are cleared across the screen: what the panes drew
    // beside a form narrower than the screen would show in pieces.
    let rows = Rect {
        width: status.width,
        ..area
    };
    ratatui::widgets::Widget::render(Clear, rows, buf);
    let block = Block::bordered().title(" write a repaired copy (W) ");
    // A line wider than the box ends in `…` where it is cut, a column before the border.
    let lines: Vec<Line<'static>> = lines
        .into_iter()
        .map(|l| super::detail::fit_line(l, inner.saturating_sub(1)))
        .collect();
    ratatui::widgets::Widget::render(Paragraph::new(lines).block(block), area, buf);
}

/// `pieces` on as few lines of `width` columns as hold them whole, in order, two spaces
/// between two on a line; each line begins with a space (the form's padding, not counted
/// in `width`).
fn pack(pieces: impl IntoIterator<Item = Vec<Span<'static>>>, width: usize) -> Vec<Line<'static>> {
    let columns = |spans: &[Span]| spans.iter().map(|s| s.width()).sum::<usize>();
    let mut lines: Vec<Vec<Span<'static>>> = Vec::new();
    for piece in pieces {
        match lines.last_mut() {
            Some(line) if columns(&line[1..]) + 2 + columns(&piece) <= width => {
                line.push(Span::raw("  "));
                line.extend(piece);
            }
            _ => lines.push(std::iter::once(Span::raw(" ")).chain(piece).collect()),
        }
    }
    lines.into_iter().map(Line::from).collect()
}

/// `text` cut into lines of at most `width` columns, at spaces where there are some.
fn wrap(text: &str, width: usize) -> Vec<String> {
    use unicode_width::UnicodeWidthStr;
    let width = width.max(8);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let extra = usize::from(!line.is_empty());
        if !line.is_empty() && line.width() + extra + word.width() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        for c in word.chars() {
            if line.width() + unicode_width::UnicodeWidthChar::width(c).unwrap_or(0) > width {
                lines.push(std::mem::take(&mut line));
            }
            line.push(c);
        }
    }
    lines.push(line);
    lines
}
