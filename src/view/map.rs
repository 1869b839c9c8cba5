//! The map: the whole input cut into as many parts as a strip has cells, each part
//! described by what starts in it (units, errors, ASCII scalars) and given a [`Shade`], so
//! a viewer can draw where the errors are and where the text is multi-byte at a glance.
//!
//! Parts come from the whole-input [`Summary`]: when the input has at least as many blocks
//! as the strip has cells, every cell gets a run of whole blocks and its counts are sums of
//! block summaries (no byte is read again). A smaller input (fewer blocks than cells, so a
//! few MiB at most) is cut into equal byte ranges that are scanned again, which is cheap at
//! that size and keeps the map as fine as the strip; a range in which no unit starts (it
//! lies inside one, as a cell of two bytes may inside an emoji) counts the unit it lies
//! in. While the scan runs, [`map_in_progress`] gives the same cells from the blocks it
//! has published so far.
//!
//! This module knows the index and the scan loop, not terminals: shades are named here and
//! given glyphs and colours by the TUI.

use std::ops::Range;

use crate::decode::{Dialect, Unit};
use crate::scan::index::{block_size_for, BlockCounts, Progress, Summary};
use crate::scan::{scan_range, ClassCounts, Sink};

/// What starts in one part of the input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartCounts {
    /// Units (scalars and errors).
    pub units: u64,
    /// Error units.
    pub errors: u64,
    /// Scalars of class 1 (ASCII).
    pub ascii: u64,
}

/// One cell of the map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapCell {
    /// The bytes the cell stands for.
    pub range: Range<u64>,
    /// What starts in them; `None` before the whole-input scan is done.
    pub counts: Option<PartCounts>,
}

/// How a cell looks: by error density first, then by class mix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shade {
    /// Not scanned yet.
    Unknown,
    /// No unit starts here.
    Empty,
    /// Only ASCII, no error.
    Ascii,
    /// Some multi-byte scalars (under half the units), no error.
    SomeMultibyte,
    /// Mostly multi-byte scalars (half the units or more), no error.
    MostlyMultibyte,
    /// Errors in at most 1 % of the units.
    FewErrors,
    /// Errors in more than 1 % and at most 10 % of the units.
    ManyErrors,
    /// Errors in more than 10 % of the units: probably not text.
    DenseErrors,
}

impl MapCell {
    /// The cell's shade.
    ///
    /// ```
    /// use hexrune::view::map::{MapCell, PartCounts, Shade};
    /// let cell = |units, errors, ascii| MapCell {
    ///     range: 0..1,
    ///     counts: Some(PartCounts { units, errors, ascii }),
    /// };
    /// assert_eq!(cell(100, 0, 100).shade(), Shade::Ascii);
    /// assert_eq!(cell(100, 0, 51).shade(), Shade::SomeMultibyte);
    /// assert_eq!(cell(100, 0, 50).shade(), Shade::MostlyMultibyte);
    /// assert_eq!(cell(100, 1, 99).shade(), Shade::FewErrors);
    /// assert_eq!(cell(100, 10, 90).shade(), Shade::ManyErrors);
    /// assert_eq!(cell(100, 11, 89).shade(), Shade::DenseErrors);
    /// ```
    pub fn shade(&self) -> Shade {
        let Some(c) = self.counts else {
            return Shade::Unknown;
        };
        let multibyte = c.units - c.errors - c.ascii;
        match () {
            _ if c.units == 0 => Shade::Empty,
            _ if c.errors * 10 > c.units => Shade::DenseErrors,
            _ if c.errors * 100 > c.units => Shade::ManyErrors,
            _ if c.errors > 0 => Shade::FewErrors,
            _ if multibyte == 0 => Shade::Ascii,
            _ if multibyte * 2 < c.units => Shade::SomeMultibyte,
            _ => Shade::MostlyMultibyte,
        }
    }
}

/// The map of an input of `len` bytes in `cells` cells (fewer when the input has fewer
/// bytes). Without a summary, the cells are equal byte ranges with no counts.
pub fn map(summary: Option<&Summary>, bytes: &[u8], cells: usize) -> Vec<MapCell> {
    let len = bytes.len();
    let cells = cells.min(len);
    if cells == 0 {
        return Vec::new();
    }
    let Some(summary) = summary.filter(|s| s.len == len as u64) else {
        return equal_ranges(len, cells)
            .map(|range| MapCell {
                range: range.start as u64..range.end as u64,
                counts: None,
            })
            .collect();
    };
    if summary.blocks.len() >= cells {
        return from_blocks(len, summary.block_size, cells, |b| {
            Some(BlockCounts::from(&summary.blocks[b]))
        });
    }
    equal_ranges(len, cells)
        .map(|range| {
            let mut counts = count_part(summary.dialect, bytes, range.clone());
            if counts.units == 0 {
                // No unit starts in the cell: it lies inside one begun before (a cell of a
                // few bytes in the middle of an emoji), and is shaded as that unit rather
                // than left blank.
                let unit = summary.dialect.unit_containing(bytes, range.start);
                counts = count_part(summary.dialect, bytes, unit.start..range.start + 1);
            }
            MapCell {
                range: range.start as u64..range.end as u64,
                counts: Some(counts),
            }
        })
        .collect()
}

/// The map of an input of `len` bytes while its scan runs: the cells whose blocks are all
/// scanned have their counts, as they will in the finished [`map`], the others none.
/// `progress` must publish blocks ([`Progress::publishing_blocks`]).
pub fn map_in_progress(progress: &Progress, len: u64, cells: usize) -> Vec<MapCell> {
    let len = len as usize;
    let cells = cells.min(len);
    let block_size = block_size_for(len as u64);
    if len.div_ceil(block_size.max(1)) < cells || cells == 0 {
        // Too few blocks to give each cell its own; such an input is scanned in moments.
        return equal_ranges(len, cells)
            .map(|range| MapCell {
                range: range.start as u64..range.end as u64,
                counts: None,
            })
            .collect();
    }
    from_blocks(len, block_size, cells, |b| progress.block(b))
}

/// `cells` cells over the blocks of an input of `len` bytes (at least as many blocks as
/// cells), each a run of whole blocks; a cell has counts only if all its blocks do.
fn from_blocks(
    len: usize,
    block_size: usize,
    cells: usize,
    block: impl Fn(usize) -> Option<BlockCounts>,
) -> Vec<MapCell> {
    let blocks = len.div_ceil(block_size);
    (0..cells)
        .map(|i| {
            let (first, end) = (i * blocks / cells, (i + 1) * blocks / cells);
            let counts = (first..end).try_fold(PartCounts::default(), |mut counts, b| {
                let seen = block(b)?;
                counts.units += seen.units as u64;
                counts.errors += seen.errors as u64;
                counts.ascii += seen.ascii as u64;
                Some(counts)
            });
            let start = (first * block_size) as u64;
            let stop = (end * block_size).min(len) as u64;
            MapCell {
                range: start..stop,
                counts,
            }
        })
        .collect()
}

/// `cells` consecutive ranges covering `0..len`, as equal as integers allow.
fn equal_ranges(len: usize, cells: usize) -> impl Iterator<Item = Range<usize>> {
    (0..cells).map(move |i| i * len / cells..(i + 1) * len / cells)
}

/// The cells whose bytes meet `window` (at least the one holding `window.start`).
pub fn cells_in_view(cells: &[MapCell], window: Range<u64>) -> Range<usize> {
    let first = cells
        .iter()
        .position(|c| c.range.end > window.start)
        .unwrap_or(cells.len().saturating_sub(1));
    let end = cells
        .iter()
        .position(|c| c.range.start >= window.end)
        .unwrap_or(cells.len())
        .max(first + 1)
        .min(cells.len());
    first..end
}

#[derive(Default)]
struct PartSink(PartCounts);

impl Sink for PartSink {
    fn unit(&mut self, _bytes: &[u8], unit: &Unit) {
        self.0.units += 1;
        if unit.is_error() {
            self.0.errors += 1;
        } else if unit.class() == Some(1) {
            self.0.ascii += 1;
        }
    }

    fn scalars(&mut self, classes: &ClassCounts) {
        self.0.units += classes.iter().sum::<u64>();
        self.0.ascii += classes[1];
    }
}

fn count_part(dialect: Dialect, bytes: &[u8], range: Range<usize>) -> PartCounts {
    let mut sink = PartSink::default();
    scan_range(dialect, bytes, range, &mut sink);
    sink.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::index::{Progress, MIN_BLOCK};

    fn summary(d: Dialect, bytes: &[u8]) -> Summary {
        Summary::build(d, bytes, 1, &Progress::new()).unwrap()
    }

    #[test]
    fn blocks_are_summed_into_cells() {
        // Five blocks: ASCII, ASCII with one error, "é" text, ASCII, random bytes.
        let mut bytes = vec![b'a'; MIN_BLOCK * 2];
        bytes[MIN_BLOCK + 7] = 0xFF;
        bytes.extend("é".repeat(MIN_BLOCK / 2).bytes());
        bytes.extend(vec![b'b'; MIN_BLOCK]);
        bytes.extend((0..MIN_BLOCK as u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
        let s = summary(Dialect::Utf8, &bytes);
        assert_eq!(s.blocks.len(), 5);
        let cells = map(Some(&s), &bytes, 2);
        // Cell 0 holds blocks 0..2, cell 1 blocks 2..5.
        assert_eq!(cells[0].range, 0..2 * MIN_BLOCK as u64);
        assert_eq!(cells[1].range, 2 * MIN_BLOCK as u64..5 * MIN_BLOCK as u64);
        assert_eq!(
            cells[0].counts,
            Some(PartCounts {
                units: 2 * MIN_BLOCK as u64,
                errors: 1,
                ascii: 2 * MIN_BLOCK as u64 - 1,
            })
        );
        let last = s.blocks[4];
        assert_eq!(
            cells[1].counts,
            Some(PartCounts {
                units: MIN_BLOCK as u64 / 2 + MIN_BLOCK as u64 + last.units as u64,
                errors: last.errors as u64,
                ascii: MIN_BLOCK as u64 + last.classes[0] as u64,
            })
        );
        assert_eq!(cells[0].shade(), Shade::FewErrors);
        // The random block's errors, diluted by two clean blocks, are over 1 % but not 10 %.
        assert_eq!(cells[1].shade(), Shade::ManyErrors);
        let five = map(Some(&s), &bytes, 5);
        let shades: Vec<Shade> = five.iter().map(MapCell::shade).collect();
        assert_eq!(
            shades,
            [
                Shade::Ascii,
                Shade::FewErrors,
                Shade::MostlyMultibyte,
                Shade::Ascii,
                Shade::DenseErrors
            ]
        );
    }

    #[test]
    fn the_map_fills_in_as_the_scan_publishes_blocks() {
        let mut bytes = vec![b'a'; MIN_BLOCK * 6];
        bytes[MIN_BLOCK * 4 + 1] = 0xC0;
        let progress = Progress::publishing_blocks();
        let before = map_in_progress(&progress, bytes.len() as u64, 3);
        assert_eq!(before.len(), 3);
        assert!(before.iter().all(|c| c.counts.is_none()));
        assert_eq!(before[1].range, 2 * MIN_BLOCK as u64..4 * MIN_BLOCK as u64);
        let s = Summary::build(Dialect::Utf8, &bytes, 2, &progress).unwrap();
        let during = map_in_progress(&progress, bytes.len() as u64, 3);
        assert_eq!(during, map(Some(&s), &bytes, 3));
        assert_eq!(during[2].shade(), Shade::FewErrors);
        // Too few blocks for the cells: plain cells until the summary is there.
        let small = map_in_progress(&progress, 100, 10);
        assert_eq!(small[9].range, 90..100);
        assert!(small.iter().all(|c| c.counts.is_none()));
    }

    #[test]
    fn small_inputs_are_scanned_per_cell() {
        // 40 bytes in 4 cells of 10: ASCII, "é" x5, ASCII with C0 AF, ASCII.
        let mut bytes = b"0123456789".to_vec();
        bytes.extend("ééééé".bytes());
        bytes.extend(b"ab\xC0\xAFcdefgh");
        bytes.extend(b"0123456789");
        let s = summary(Dialect::Utf8, &bytes);
        let cells = map(Some(&s), &bytes, 4);
        let counts: Vec<PartCounts> = cells.iter().map(|c| c.counts.unwrap()).collect();
        let part = |units, errors, ascii| PartCounts {
            units,
            errors,
            ascii,
        };
        assert_eq!(
            counts,
            [
                part(10, 0, 10),
                part(5, 0, 0),
                part(10, 2, 8),
                part(10, 0, 10)
            ]
        );
        assert_eq!(cells[2].range, 20..30);
        // Every unit is counted once, whatever the cutting, but in a cell where none starts,
        // which counts the one it lies in.
        for n in 1..=40 {
            let cells = map(Some(&s), &bytes, n);
            let inside = cells
                .iter()
                .filter(|c| {
                    let start = c.range.start as usize;
                    Dialect::Utf8.unit_containing(&bytes, start).start < start
                        && (start..c.range.end as usize)
                            .all(|b| Dialect::Utf8.unit_containing(&bytes, b).start < start)
                })
                .count() as u64;
            let total: u64 = cells.iter().map(|c| c.counts.unwrap().units).sum();
            assert_eq!(total, s.unit_count() + inside, "{n} cells");
            assert!(cells.iter().all(|c| c.shade() != Shade::Empty), "{n} cells");
        }
        assert_eq!(map(Some(&s), &bytes, 100).len(), 40);
    }

    /// A cell of a small input that lies inside one unit is shaded as that unit: the middle
    /// of an emoji is multi-byte, the middle of an invalid overlong form an error.
    #[test]
    fn a_cell_inside_one_unit_is_shaded_as_it() {
        // An emoji, then two ASCII letters: 6 bytes in 6 cells.
        let bytes = "\u{1F600}ab".as_bytes();
        let s = summary(Dialect::Utf8, bytes);
        let shades: Vec<Shade> = map(Some(&s), bytes, 6).iter().map(MapCell::shade).collect();
        use Shade::*;
        assert_eq!(
            shades,
            [
                MostlyMultibyte,
                MostlyMultibyte,
                MostlyMultibyte,
                MostlyMultibyte,
                Ascii,
                Ascii
            ]
        );
        // In the legacy dialect U+7FFFFFFF is one unit of 6 bytes: each of 3 cells lies in it.
        let bytes = b"\xFD\xBF\xBF\xBF\xBF\xBF";
        let s = summary(Dialect::Legacy, bytes);
        let cells = map(Some(&s), bytes, 3);
        assert!(
            cells.iter().all(|c| c.counts.unwrap().units == 1),
            "{cells:?}"
        );
        assert!(
            cells.iter().all(|c| c.shade() == MostlyMultibyte),
            "{cells:?}"
        );
        // Inside an error unit of three bytes (a truncated 4-byte form), a cell is an error.
        let bytes = b"\xF0\x9F\x98ab";
        let s = summary(Dialect::Utf8, bytes);
        let shades: Vec<Shade> = map(Some(&s), bytes, 5).iter().map(MapCell::shade).collect();
        assert_eq!(
            shades,
            [DenseErrors, DenseErrors, DenseErrors, Ascii, Ascii]
        );
    }

    #[test]
    fn without_a_summary_cells_are_plain() {
        let bytes = vec![0u8; 100];
        let cells = map(None, &bytes, 3);
        let ranges: Vec<Range<u64>> = cells.iter().map(|c| c.range.clone()).collect();
        assert_eq!(ranges, [0..33, 33..66, 66..100]);
        assert!(cells.iter().all(|c| c.shade() == Shade::Unknown));
        assert!(map(None, b"", 3).is_empty());
        // A summary of other bytes (the input changed) is not used.
        let other = summary(Dialect::Utf8, b"abc");
        assert_eq!(map(Some(&other), &bytes, 3), cells);
    }

    #[test]
    fn viewport_cells() {
        let bytes = vec![0u8; 100];
        let cells = map(None, &bytes, 10);
        assert_eq!(cells_in_view(&cells, 0..10), 0..1);
        assert_eq!(cells_in_view(&cells, 5..25), 0..3);
        assert_eq!(cells_in_view(&cells, 95..200), 9..10);
        assert_eq!(cells_in_view(&cells, 40..40), 4..5);
    }
}
