//! The data panes, one row at a time: offsets, hex bytes coloured by role, the class lane,
//! the text pane's glyphs and the error lane, all from the cells of [`crate::view::rows`].

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::*;

pub(super) fn draw_header(layout: &Layout, area: Rect, theme: &Theme, buf: &mut Buffer) {
    let style = theme.title();
    buf.set_string(area.x, area.y, "offset", style);
    buf.set_string(layout.hex_x, area.y, "bytes", style);
    if let Some(x) = layout.class_x {
        buf.set_string(x, area.y, "class", style);
    }
    buf.set_string(layout.text_x, area.y, "text", style);
    if let Some(x) = layout.errors_x {
        buf.set_string(x, area.y, "errors", style);
    }
    if let Some(strip) = layout.map {
        // Over the strip and the column before it, which no lane takes.
        let x = strip.right().saturating_sub(3);
        let last = layout.errors_x.unwrap_or(layout.text_x);
        if x >= last + layout.bytes_per_row as u16 {
            buf.set_string(x, area.y, "map", style);
        }
    }
}

pub(super) fn draw_row(
    app: &App,
    layout: &Layout,
    y: u16,
    row: &Row,
    theme: &Theme,
    buf: &mut Buffer,
) {
    let offset = if app.decimal {
        format!("{:0width$}", row.offset, width = layout.offset_digits)
    } else {
        format!("{:0width$x}", row.offset, width = layout.offset_digits)
    };
    buf.set_string(0, y, offset, theme.dim());
    for (i, cell) in row.cells.iter().enumerate() {
        let cursor = cell.offset == app.cursor;
        let x = layout.hex_x + 3 * i as u16;
        let style = findings::mark(app, cell.offset, theme, theme.role(cell.role));
        let style = select(style, cell.selected, cursor);
        buf.set_string(x, y, format!("{:02x}", cell.byte), style);
        let Some(class_x) = layout.class_x else {
            continue;
        };
        let (symbol, class_style) = match cell.class {
            // Without the errors lane, the class lane tells the error's kind.
            Class::Error(kind) if layout.errors_x.is_none() => {
                (error_letter(kind), theme.marker(kind))
            }
            Class::Error(kind) => (cell.class.symbol(), theme.error(Some(kind))),
            Class::Lead(_) => (cell.class.symbol(), theme.role(cell.role)),
            Class::Continuation { .. } => (cell.class.symbol(), theme.role(Role::Continuation)),
        };
        let class_style = if app.mojibake_at(cell.offset).is_some() {
            theme.mojibake()
        } else {
            class_style
        };
        buf.set_string(
            class_x + i as u16,
            y,
            symbol.to_string(),
            select(class_style, cell.selected, cursor),
        );
    }
    for (i, text) in row.text.iter().enumerate() {
        let x = layout.text_x + i as u16;
        let selected = row.cells.get(i).is_some_and(|c| c.selected);
        let marked = |style| match row.cells.get(i) {
            Some(c) => findings::mark(app, c.offset, theme, style),
            None => style,
        };
        match text {
            TextCell::Glyph(glyph) => {
                let style = select(marked(theme.glyph(glyph.class)), selected, false);
                buf.set_string(x, y, &glyph.text, style);
            }
            TextCell::Covered => {}
            TextCell::Filler => {
                buf.set_string(x, y, FILLER, select(theme.dim(), selected, false));
            }
        }
    }
    let Some(errors_x) = layout.errors_x else {
        return;
    };
    findings::draw_lane(app, errors_x, y, row, theme, buf);
    for span in &row.errors {
        let style = theme.marker(span.kind);
        let mut marker = String::new();
        for k in 0..span.len {
            marker.push(match (k, span.head) {
                (0, true) => error_letter(span.kind),
                _ => '\u{2501}',
            });
        }
        buf.set_string(errors_x + span.col as u16, y, marker, style);
    }
}
