//! The map strip along the right edge: a [`Shade`] per part of the input, each with its own
//! glyph so it reads without colour, and a mark beside the parts on screen.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::*;

/// The map strip: per row, a viewport marker (`┃` beside the parts on screen, `│`
/// elsewhere) and the part's shade.
pub(super) fn draw_map(app: &App, strip: Rect, window_len: u64, theme: &Theme, buf: &mut Buffer) {
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
