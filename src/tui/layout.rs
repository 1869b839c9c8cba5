//! Where every pane goes for a terminal size: one pure function, used by drawing and by
//! the app (paging, mouse clicks), so the two cannot disagree.
//!
//! A row is `offset  hex  class  text  errors`, the hex pane 3 columns per byte and the
//! other three 1 column per byte: `offset + 6 × bytes + 5` columns. Bytes per row are the
//! most of 32, 16 and 8 that fit; below 8, the terminal is too small. The map strip takes
//! the last [`MAP_WIDTH`] columns beside the rows when at least one more is left over (a
//! gap), and is left out otherwise: it never costs bytes per row.

use ratatui::layout::Rect;

/// Bytes per row that hexrune chooses from, widest first.
pub const WIDTHS: [usize; 3] = [32, 16, 8];

/// Columns of the map strip: a viewport marker and the shade.
pub const MAP_WIDTH: u16 = 2;

/// Lines of the detail pane, its title included.
pub const DETAIL_HEIGHT: u16 = 4;

/// The panes' places.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Bytes per row.
    pub bytes_per_row: usize,
    /// Digits of the offset column.
    pub offset_digits: usize,
    /// The x of each pane: hex, class, text, errors.
    pub hex_x: u16,
    /// The class lane's x.
    pub class_x: u16,
    /// The text pane's x.
    pub text_x: u16,
    /// The error lane's x.
    pub errors_x: u16,
    /// The header line, if there is room.
    pub header: Option<Rect>,
    /// The data rows.
    pub rows: Rect,
    /// The map strip, beside the rows, if there is room.
    pub map: Option<Rect>,
    /// The detail pane, if there is room.
    pub detail: Option<Rect>,
    /// The status line.
    pub status: Rect,
}

/// The layout for `area`, or `None` when not even 8 bytes and a status line fit.
pub fn layout(area: Rect, file_len: u64, decimal: bool) -> Option<Layout> {
    let offset_digits = offset_digits(file_len, decimal);
    let fixed = offset_digits + 2 + 5;
    let bytes_per_row = WIDTHS
        .into_iter()
        .find(|w| fixed + 6 * w <= area.width as usize)?;
    if area.height < 2 {
        return None;
    }
    let mut y = area.y;
    let mut left = area.height - 1; // the status line
    let header = (left >= 3).then(|| {
        y += 1;
        left -= 1;
        Rect::new(area.x, y - 1, area.width, 1)
    });
    let detail_height = if left > DETAIL_HEIGHT + 2 {
        DETAIL_HEIGHT
    } else {
        0
    };
    let rows = Rect::new(area.x, y, area.width, left - detail_height);
    let detail =
        (detail_height > 0).then(|| Rect::new(area.x, rows.bottom(), area.width, detail_height));
    let status = Rect::new(area.x, area.bottom() - 1, area.width, 1);
    let spare = area.width as usize - fixed - 6 * bytes_per_row;
    let map = (spare > MAP_WIDTH as usize && rows.height > 0)
        .then(|| Rect::new(area.right() - MAP_WIDTH, rows.y, MAP_WIDTH, rows.height));
    let hex_x = area.x + (offset_digits + 2) as u16;
    let class_x = hex_x + (3 * bytes_per_row + 1) as u16;
    let text_x = class_x + (bytes_per_row + 2) as u16;
    let errors_x = text_x + (bytes_per_row + 2) as u16;
    Some(Layout {
        bytes_per_row,
        offset_digits,
        hex_x,
        class_x,
        text_x,
        errors_x,
        header,
        rows,
        map,
        detail,
        status,
    })
}

/// Digits for offsets up to `file_len`: at least 8 in hex, 10 in decimal.
pub fn offset_digits(file_len: u64, decimal: bool) -> usize {
    let last = file_len.saturating_sub(1);
    if decimal {
        last.to_string().len().max(10)
    } else {
        format!("{last:x}").len().max(8)
    }
}

impl Layout {
    /// The byte column under terminal column `x` in any pane, if any.
    pub fn column_at(&self, x: u16) -> Option<usize> {
        let w = self.bytes_per_row as u16;
        let within = |start: u16, cells: u16, per: u16| {
            (x >= start && x < start + cells * per).then(|| ((x - start) / per) as usize)
        };
        within(self.hex_x, w, 3)
            .or_else(|| within(self.class_x, w, 1))
            .or_else(|| within(self.text_x, w, 1))
            .or_else(|| within(self.errors_x, w, 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_follow_the_terminal() {
        let per = |w| layout(Rect::new(0, 0, w, 40), 1000, false).map(|l| l.bytes_per_row);
        assert_eq!(per(62), None);
        assert_eq!(per(63), Some(8));
        assert_eq!(per(80), Some(8));
        assert_eq!(per(111), Some(16));
        assert_eq!(per(120), Some(16));
        assert_eq!(per(207), Some(32));
        assert_eq!(layout(Rect::new(0, 0, 80, 1), 10, false), None);
    }

    #[test]
    fn panes_do_not_overlap_and_fit() {
        let l = layout(Rect::new(0, 0, 111, 24), 1000, false).unwrap();
        assert_eq!(l.errors_x as usize + 16, 111);
        assert_eq!(l.column_at(10), Some(0));
        assert_eq!(l.column_at(12), Some(0));
        assert_eq!(l.column_at(13), Some(1));
        assert_eq!(l.column_at(l.text_x + 3), Some(3));
        assert_eq!(l.rows.height, 24 - 1 - 1 - DETAIL_HEIGHT);
        assert_eq!(offset_digits(16 << 30, false), 9);
        assert_eq!(l.map, None);
    }

    #[test]
    fn the_map_takes_spare_columns_only() {
        let map = |w| layout(Rect::new(0, 0, w, 24), 1000, false).and_then(|l| l.map);
        assert_eq!(map(113), None);
        assert_eq!(map(114), Some(Rect::new(112, 1, 2, 18)));
        assert_eq!(map(120), Some(Rect::new(118, 1, 2, 18)));
        assert_eq!(map(80), Some(Rect::new(78, 1, 2, 18)));
        assert_eq!(
            layout(Rect::new(0, 0, 120, 24), 1000, false).map(|l| l.bytes_per_row),
            Some(16)
        );
    }
}
