//! Where every pane goes for a terminal size: one pure function, used by drawing and by
//! the app (paging, mouse clicks), so the two cannot disagree.
//!
//! A row is `offset  hex  class  text  errors`, the hex pane 3 columns per byte and the
//! other three 1 column per byte: `offset + 2 + 6 × bytes + 5` columns (111 for 16 bytes
//! and 8 offset digits). Sixteen bytes a row matter more than the lanes, so where all
//! panes do not fit, the lanes give way before the bytes do ([`Lanes`]): first the errors
//! lane, whose kind letters then stand in the class lane instead of its `✗` (93 columns for
//! 16 bytes), then the class lane too (75 columns: 16 bytes at 80). The order tried is
//! 32 bytes with every lane, then 16 and 8 bytes with every lane, without the errors lane,
//! and without both; below the last, the terminal is too small ([`minimum_size`]). The map
//! strip takes the last [`MAP_WIDTH`] columns beside the rows when at least one more is
//! left over (a gap), and is left out otherwise: it never costs bytes per row.

use ratatui::layout::Rect;

/// Columns of the map strip: a viewport marker and the shade.
pub const MAP_WIDTH: u16 = 2;

/// Lines of the detail pane, its title included.
pub const DETAIL_HEIGHT: u16 = 4;

/// Which of the 1-column lanes beside the hex pane are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lanes {
    /// Class, text and errors.
    All,
    /// Class and text; error cells of the class lane show their kind's letter.
    NoErrors,
    /// Text only.
    TextOnly,
}

impl Lanes {
    /// What is left out, for the status line; `None` when nothing is.
    pub fn note(self) -> Option<&'static str> {
        match self {
            Lanes::All => None,
            Lanes::NoErrors => Some("errors lane folded into the class lane"),
            Lanes::TextOnly => Some("class and errors lanes hidden"),
        }
    }

    /// Columns of a row of `bytes` bytes after the offset and its 2-column gap.
    const fn width(self, bytes: usize) -> usize {
        match self {
            Lanes::All => 6 * bytes + 5,
            Lanes::NoErrors => 5 * bytes + 3,
            Lanes::TextOnly => 4 * bytes + 1,
        }
    }
}

/// The layouts tried, in order: bytes per row and lanes.
const CHOICES: [(usize, Lanes); 7] = [
    (32, Lanes::All),
    (16, Lanes::All),
    (16, Lanes::NoErrors),
    (16, Lanes::TextOnly),
    (8, Lanes::All),
    (8, Lanes::NoErrors),
    (8, Lanes::TextOnly),
];

/// The smallest terminal, columns × lines, that shows an input of `file_len` bytes: one
/// row of 8 bytes and the text pane, and the status line.
pub fn minimum_size(file_len: u64, decimal: bool) -> (u16, u16) {
    let (bytes, lanes) = CHOICES[CHOICES.len() - 1];
    let columns = offset_digits(file_len, decimal) + 2 + lanes.width(bytes);
    (columns as u16, 2)
}

/// The panes' places.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Bytes per row.
    pub bytes_per_row: usize,
    /// Digits of the offset column.
    pub offset_digits: usize,
    /// The lanes shown.
    pub lanes: Lanes,
    /// The x of each pane: hex, class, text, errors.
    pub hex_x: u16,
    /// The class lane's x, if it is shown.
    pub class_x: Option<u16>,
    /// The text pane's x.
    pub text_x: u16,
    /// The error lane's x, if it is shown.
    pub errors_x: Option<u16>,
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
    /// Screen lines a data row takes: 1, or 2 with the cluster lane under it
    /// ([`Layout::with_clusters`]).
    pub row_lines: u16,
    /// The cluster pane (the cluster under the cursor), with the cluster lane.
    pub cluster: Option<Rect>,
    /// Lines the detail pane has beyond its own [`DETAIL_HEIGHT`] (and the findings'),
    /// for facts beyond its three lines and for lines too wide for it
    /// ([`Layout::with_spare_detail_lines`]): 0 to [`DETAIL_SPARE_MOST`].
    pub detail_spare: u16,
}

/// The layout for `area`, or `None` when it is smaller than [`minimum_size`].
pub fn layout(area: Rect, file_len: u64, decimal: bool) -> Option<Layout> {
    let offset_digits = offset_digits(file_len, decimal);
    let (bytes_per_row, lanes) = CHOICES
        .into_iter()
        .find(|(w, lanes)| offset_digits + 2 + lanes.width(*w) <= area.width as usize)?;
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
    let spare = area.width as usize - offset_digits - 2 - lanes.width(bytes_per_row);
    let map = (spare > MAP_WIDTH as usize && rows.height > 0)
        .then(|| Rect::new(area.right() - MAP_WIDTH, rows.y, MAP_WIDTH, rows.height));
    let w = bytes_per_row as u16;
    let hex_x = area.x + (offset_digits + 2) as u16;
    let after_hex = hex_x + 3 * w + 1;
    let (class_x, text_x) = match lanes {
        Lanes::TextOnly => (None, after_hex),
        _ => (Some(after_hex), after_hex + w + 2),
    };
    let errors_x = (lanes == Lanes::All).then_some(text_x + w + 2);
    Some(Layout {
        bytes_per_row,
        offset_digits,
        lanes,
        hex_x,
        class_x,
        text_x,
        errors_x,
        header,
        rows,
        map,
        detail,
        status,
        row_lines: 1,
        cluster: None,
        detail_spare: 0,
    })
}

/// Lines of the cluster pane, its title included.
pub const CLUSTER_HEIGHT: u16 = 4;

/// Lines the detail pane takes at most beyond its own [`DETAIL_HEIGHT`] where the rows
/// area has lines no row uses ([`Layout::with_spare_detail_lines`]).
pub const DETAIL_SPARE_MOST: u16 = 2;

/// Lines the detail pane gains for the lint findings under the cursor, when lints are
/// asked ([`Layout::with_findings`]).
pub const FINDING_LINES: u16 = 2;

impl Layout {
    /// This layout with room for the findings under the cursor: the detail pane grows by
    /// [`FINDING_LINES`] below the unit's own lines, when at least four data rows are left.
    pub fn with_findings(mut self) -> Layout {
        if let Some(detail) = &mut self.detail {
            if self.rows.height >= FINDING_LINES + 4 {
                self.rows.height -= FINDING_LINES;
                detail.y -= FINDING_LINES;
                detail.height += FINDING_LINES;
                if let Some(map) = &mut self.map {
                    map.height = self.rows.height;
                }
            }
        }
        self
    }

    /// This layout with the cluster lane (`c`): a line under every data row, and the
    /// cluster pane above the detail pane when at least two data rows are left beside it.
    pub fn with_clusters(mut self) -> Layout {
        self.row_lines = 2;
        if self.detail.is_some() && self.rows.height >= CLUSTER_HEIGHT + 4 {
            self.rows.height -= CLUSTER_HEIGHT;
            self.cluster = Some(Rect::new(
                self.rows.x,
                self.rows.bottom(),
                self.rows.width,
                CLUSTER_HEIGHT,
            ));
            if let Some(map) = &mut self.map {
                map.height = self.rows.height;
            }
        }
        self
    }

    /// This layout with up to [`DETAIL_SPARE_MOST`] more lines for the detail pane, from
    /// the lines of the rows area that no row of an input of `file_len` bytes can use (a
    /// small input): the pane's facts beyond its three lines (a resync note, a second code
    /// point, a mojibake region, a lookalike match) and a line too wide for it (a long
    /// diagnosis, a 6-byte unit's bits) go there rather than be left out or cut.
    pub fn with_spare_detail_lines(mut self, file_len: u64) -> Layout {
        let Some(detail) = &mut self.detail else {
            return self;
        };
        let rows = file_len.div_ceil(self.bytes_per_row as u64).max(1);
        let lines = rows.saturating_mul(self.row_lines as u64);
        let unused = (self.rows.height as u64).saturating_sub(lines);
        let spare = unused.min(DETAIL_SPARE_MOST as u64) as u16;
        self.rows.height -= spare;
        detail.y -= spare;
        detail.height += spare;
        self.detail_spare = spare;
        if let Some(cluster) = &mut self.cluster {
            cluster.y -= spare;
        }
        if let Some(map) = &mut self.map {
            map.height = self.rows.height;
        }
        self
    }

    /// Data rows shown: one every [`Layout::row_lines`] lines, at least one.
    pub fn data_rows(&self) -> u16 {
        (self.rows.height / self.row_lines).max(self.rows.height.min(1))
    }
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
        let lane = |start: Option<u16>| start.and_then(|s| within(s, w, 1));
        within(self.hex_x, w, 3)
            .or_else(|| lane(self.class_x))
            .or_else(|| within(self.text_x, w, 1))
            .or_else(|| lane(self.errors_x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_follow_the_terminal() {
        let per = |w| layout(Rect::new(0, 0, w, 40), 1000, false).map(|l| l.bytes_per_row);
        assert_eq!(per(42), None);
        assert_eq!(per(43), Some(8));
        assert_eq!(per(74), Some(8));
        assert_eq!(per(75), Some(16));
        assert_eq!(per(80), Some(16));
        assert_eq!(per(111), Some(16));
        assert_eq!(per(120), Some(16));
        assert_eq!(per(207), Some(32));
        assert_eq!(layout(Rect::new(0, 0, 80, 1), 10, false), None);
    }

    #[test]
    fn panes_do_not_overlap_and_fit() {
        let l = layout(Rect::new(0, 0, 111, 24), 1000, false).unwrap();
        assert_eq!(l.errors_x.map(|x| x as usize + 16), Some(111));
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
        assert_eq!(map(77), None);
        assert_eq!(
            layout(Rect::new(0, 0, 120, 24), 1000, false).map(|l| l.bytes_per_row),
            Some(16)
        );
    }

    #[test]
    fn a_small_input_gives_the_detail_pane_spare_lines() {
        let spare = |height, len| {
            let l = layout(Rect::new(0, 0, 120, height), len, false).unwrap();
            let l = l.with_spare_detail_lines(len);
            (
                l.rows.height,
                l.detail,
                l.detail_spare,
                l.map.map(|m| m.height),
            )
        };
        assert_eq!(
            spare(40, 88),
            (32, Some(Rect::new(0, 33, 120, 6)), 2, Some(32))
        );
        // 18 rows of 16 bytes fill the rows area at 24 lines; 17 leave a line, 16 two.
        assert_eq!(
            spare(24, 288),
            (18, Some(Rect::new(0, 19, 120, 4)), 0, Some(18))
        );
        assert_eq!(
            spare(24, 272),
            (17, Some(Rect::new(0, 18, 120, 5)), 1, Some(17))
        );
        assert_eq!(
            spare(24, 256),
            (16, Some(Rect::new(0, 17, 120, 6)), 2, Some(16))
        );
        // The cluster lane's rows take two lines each.
        let l = layout(Rect::new(0, 0, 120, 24), 100, false).unwrap();
        assert_eq!(
            l.with_clusters().with_spare_detail_lines(100).detail_spare,
            0
        );
        let l = l.with_clusters().with_spare_detail_lines(90);
        assert_eq!((l.rows.height, l.detail_spare), (12, 2));
        assert_eq!(l.cluster, Some(Rect::new(0, 13, 120, CLUSTER_HEIGHT)));
        // Too short for a detail pane: nothing to give.
        let l = layout(Rect::new(0, 0, 120, 6), 10, false).unwrap();
        assert_eq!(l.with_spare_detail_lines(10).detail_spare, 0);
    }

    #[test]
    fn lanes_give_way_before_bytes() {
        let at = |w| layout(Rect::new(0, 0, w, 24), 1000, false).unwrap();
        let cases = [
            (43, 8, Lanes::TextOnly),
            (53, 8, Lanes::NoErrors),
            (63, 8, Lanes::All),
            (75, 16, Lanes::TextOnly),
            (80, 16, Lanes::TextOnly),
            (93, 16, Lanes::NoErrors),
            (100, 16, Lanes::NoErrors),
            (111, 16, Lanes::All),
            (206, 16, Lanes::All),
            (207, 32, Lanes::All),
        ];
        for (width, bytes, lanes) in cases {
            let l = at(width);
            assert_eq!(
                (l.bytes_per_row, l.lanes),
                (bytes, lanes),
                "{width} columns"
            );
            // The last pane ends inside the terminal.
            let end = l.errors_x.unwrap_or(l.text_x) as usize + bytes;
            assert!(end <= width as usize, "{width} columns");
        }
        let l = at(80);
        assert_eq!(
            (l.hex_x, l.class_x, l.text_x, l.errors_x),
            (10, None, 59, None)
        );
        let l = at(100);
        assert_eq!((l.class_x, l.text_x, l.errors_x), (Some(59), 77, None));
        assert_eq!(minimum_size(1000, false), (43, 2));
        assert_eq!(minimum_size(1000, true), (45, 2));
        assert_eq!(
            layout(Rect::new(0, 0, 43, 2), 1000, false).map(|l| l.rows.height),
            Some(1)
        );
        assert_eq!(layout(Rect::new(0, 0, 42, 2), 1000, false), None);
        assert_eq!(layout(Rect::new(0, 0, 43, 1), 1000, false), None);
    }
}
