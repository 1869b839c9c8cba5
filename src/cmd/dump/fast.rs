//! The UTF-8 fast path of `dump`: rows printed from cells rendered once, not cell by cell.
//!
//! [`view::visit`] hands a sink every byte as a [`ByteCell`] and every unit's text as a
//! [`TextRun`]; the printer turns each into a few table lookups, and on 256 MiB that is
//! most of the time. Here the same rows are printed unit by unit from [`Tables`]: the class
//! lane and the text of every kind of unit, rendered once by the reference printer itself
//! (the `CellSink` methods of [`Printer`], fed the cells the view builds for that unit with
//! [`CellSink::unit`]'s default, which uses [`view::role`], [`view::class`] and
//! [`view::unit_glyph`]). Printing a unit is then a branch-free decoding step
//! ([`decode_utf8_at`]), a few fixed-size copies, and a style switch per pane kept or
//! dropped by a mask.
//!
//! What the tables do not hold is printed by the reference: a unit cut by a row or window
//! edge, and a unit within 4 bytes of the end of the slice (where the branch-free step
//! cannot read), go to the printer's `CellSink` methods with the cells [`view::visit`]
//! would build for them. The tests hold the output equal to the reference's, byte for
//! byte, for every width, colour, `--ascii`, window and stream chunking.

use std::ops::Range;

use super::{switch_to, Format, Pane, Printer, StyleId, HEX_SPACE, PLAIN};
use crate::decode::{decode_utf8_at, ByteRole, Dialect, ErrorKind, Shape, Unit, UnitKind};
use crate::view::{self, ByteCell, CellSink, ErrorSpan, TextRun, WholeUnit};

/// Bytes of a [`Run`]: the longest is the text of a mark with colour, under 32 (a glyph of
/// at most 7 bytes, two SGR sequences of at most 10, and fillers).
const RUN: usize = 32;

/// A pane's text for one unit, as the reference printer renders it when the pane already
/// has the style `first`: printed after a switch to `first`, it leaves the pane in `last`.
#[derive(Clone, Copy)]
struct Run {
    first: StyleId,
    last: StyleId,
    len: u8,
    bytes: [u8; RUN],
}

impl Run {
    const EMPTY: Run = Run {
        first: PLAIN,
        last: PLAIN,
        len: 0,
        bytes: [0; RUN],
    };
}

/// What the tables hold for one kind of whole unit: an ASCII byte, or a shape (tag and
/// length) of anything else. The text of a multi-byte scalar depends on its value, so it
/// comes from [`Tables::texts`] instead.
#[derive(Clone, Copy)]
struct UnitCells {
    /// The hex pane's style for the first byte and for the rest.
    hex_first: StyleId,
    hex_rest: StyleId,
    class: Run,
    text: Run,
    /// Whether the unit is an error, and its kind (any kind if not).
    error: bool,
    kind: ErrorKind,
}

/// Units that are not ASCII are found at `ASCII + tag * SHAPE_LENS + len`.
const ASCII: usize = 128;
const SHAPE_LENS: usize = 8;
const UNITS: usize = ASCII + Shape::TAGS * SHAPE_LENS;

/// Slots of the direct-mapped memo of scalars' text (a power of two).
const TEXT_SLOTS: usize = 1024;

/// Bytes validated at once ahead of the units printed ([`Validated`]).
const VALIDATE: usize = 16 * 1024;

/// After an error, the units of the next this many bytes are decoded step by step before
/// the validator is tried again: in error-dense input it would stop at once every time.
const ERROR_DENSE: usize = 64;

/// The rendered cells of every kind of unit, for one [`Format`].
pub(super) struct Tables {
    units: Vec<UnitCells>,
    /// The text of scalars, by their bytes as a little-endian `u32` (`u32::MAX` is no
    /// scalar's, so it marks an empty slot).
    texts: Vec<(u32, Run)>,
    /// The length of the UTF-8 sequence each byte starts (1 for any byte that is no lead),
    /// from [`Dialect::role`].
    seq_len: [u8; 256],
    /// The printer that renders a table entry (with no tables of its own).
    scratch: Box<Printer>,
}

impl Tables {
    pub(super) fn new(format: &Format) -> Tables {
        let mut tables = Tables {
            units: vec![
                UnitCells {
                    hex_first: PLAIN,
                    hex_rest: PLAIN,
                    class: Run::EMPTY,
                    text: Run::EMPTY,
                    error: false,
                    kind: ErrorKind::InvalidByte,
                };
                UNITS
            ],
            texts: vec![(u32::MAX, Run::EMPTY); TEXT_SLOTS],
            seq_len: std::array::from_fn(|b| match Dialect::Utf8.role(b as u8) {
                ByteRole::Lead { len, .. } => len,
                _ => 1,
            }),
            scratch: Box::new(Printer::new(format)),
        };
        for b in 0..0x80u8 {
            let unit = Unit::scalar(0, 1, b as u32);
            tables.units[b as usize] = tables.render(&unit, &[b]);
        }
        // Every shape; the bytes stand for any with that shape (only a one-byte scalar's
        // cells depend on its byte, and those are the ASCII entries above).
        for len in 1..=6 {
            let bytes = [0xC0; SHAPE_LENS];
            for kind in ErrorKind::ALL {
                let unit = Unit::error(0, len, kind);
                let key = unit_key(0xC0, &unit);
                tables.units[key] = tables.render(&unit, &bytes[..len as usize]);
            }
            if len > 1 {
                let unit = Unit::scalar(0, len, 0x80);
                let key = unit_key(0xC0, &unit);
                tables.units[key] = tables.render(&unit, &bytes[..len as usize]);
            }
        }
        tables
    }

    /// Renders a whole unit with the reference printer, each pane starting in the style
    /// its first cell takes (so that no switch to it is rendered).
    fn render(&mut self, unit: &Unit, bytes: &[u8]) -> UnitCells {
        let p = &mut *self.scratch;
        let palette = &p.palette;
        let color = p.format.color;
        let glyph = view::unit_glyph(unit).fit(unit.len as usize);
        let role = |k: u8| palette.role_style[view::role(unit, k, bytes[k as usize]) as usize];
        let (hex_first, hex_rest) = (role(0), role(unit.len.min(2) - 1));
        let class_first = match unit.kind {
            UnitKind::Error(kind) => palette.error_style[kind.index()],
            UnitKind::Scalar(_) => hex_first,
        };
        let text_first = palette.glyph_style[glyph.class as usize];
        let shown = |style: StyleId| if color { style } else { PLAIN };
        p.class.style = shown(class_first);
        p.text.style = shown(text_first);
        p.hex.style = shown(hex_first);
        p.row(0, unit.len as usize);
        Cells(p).unit(WholeUnit {
            unit: *unit,
            bytes,
            col: 0,
            glyph,
            selected: false,
        });
        let class = capture(&mut p.class, shown(class_first));
        let text = capture(&mut p.text, shown(text_first));
        p.hex.bytes.len = 0;
        p.row = None;
        p.cells = 0;
        p.error_count = 0;
        UnitCells {
            hex_first: shown(hex_first),
            hex_rest: shown(hex_rest),
            class,
            text,
            error: unit.is_error(),
            kind: unit.error_kind().unwrap_or(ErrorKind::InvalidByte),
        }
    }

    /// The text of the scalar whose bytes are `raw`, rendered on first use; `unit` decodes
    /// it (called on a miss only).
    #[inline(always)]
    fn text(&mut self, raw: u32, unit: impl FnOnce() -> Unit) -> &Run {
        let slot = (raw.wrapping_mul(0x9E37_79B1) >> (32 - TEXT_SLOTS.trailing_zeros())) as usize;
        if self.texts[slot].0 != raw {
            self.fill(slot, raw, unit());
        }
        &self.texts[slot].1
    }

    #[cold]
    #[inline(never)]
    fn fill(&mut self, slot: usize, raw: u32, unit: Unit) {
        let mut bytes = [0x80; SHAPE_LENS];
        bytes[..4].copy_from_slice(&raw.to_le_bytes());
        let run = self.render(&unit, &bytes[..unit.len as usize]).text;
        self.texts[slot] = (raw, run);
    }
}

/// The pane's text as a [`Run`] from the style `first` it had, and the pane emptied.
fn capture(pane: &mut Pane, first: StyleId) -> Run {
    let text = pane.bytes.as_slice();
    let mut run = Run {
        first,
        last: pane.style,
        len: text.len().min(RUN) as u8,
        bytes: [0; RUN],
    };
    debug_assert!(text.len() <= RUN, "a run of {} bytes", text.len());
    run.bytes[..run.len as usize].copy_from_slice(&text[..run.len as usize]);
    pane.bytes.len = 0;
    run
}

/// Where a unit's cells are in [`Tables::units`]: by byte for ASCII, else by shape.
#[inline(always)]
fn unit_key(first_byte: u8, unit: &Unit) -> usize {
    let shape = Shape::of(unit);
    let by_shape = ASCII + shape.tag as usize * SHAPE_LENS + (shape.len as usize % SHAPE_LENS);
    // In UTF-8 a unit whose first byte is ASCII is that one-byte scalar.
    if first_byte < 0x80 {
        first_byte as usize
    } else {
        by_shape
    }
}

/// Hands a printer the cells of a unit one by one: [`CellSink::unit`]'s default (built
/// with the view's functions), not the printer's fused version.
pub(super) struct Cells<'a>(pub(super) &'a mut Printer);

impl CellSink for Cells<'_> {
    fn row(&mut self, offset: u64, len: usize) {
        self.0.row(offset, len);
    }
    fn error(&mut self, span: ErrorSpan) {
        self.0.error(span);
    }
    fn byte(&mut self, cell: ByteCell) {
        self.0.byte(cell);
    }
    fn text(&mut self, run: TextRun) {
        self.0.text(run);
    }
}

/// Prints the rows of `bytes[window]` as [`view::visit`] and the printer would, for UTF-8.
pub(super) fn print<const COLOR: bool>(
    p: &mut Printer,
    tables: &mut Tables,
    bytes: &[u8],
    window: Range<u64>,
) {
    let len = bytes.len() as u64;
    let (start, end) = (window.start.min(len) as usize, window.end.min(len) as usize);
    if start >= end {
        return;
    }
    let width = p.format.width;
    let mut at = Dialect::Utf8.unit_containing(bytes, start).start;
    let mut valid = Validated::new(bytes);
    let mut row = start;
    while row < end {
        let row_end = (row + width).min(end);
        p.row(row as u64, row_end - row);
        if at >= row {
            at = valid_units::<COLOR>(p, tables, &mut valid, bytes, at, row, row_end);
        }
        while at < row_end {
            let (unit, fast) = match decode_utf8_at(bytes, at) {
                Some(unit) => (unit, true),
                None => (Dialect::Utf8.decode_at(bytes, at), false),
            };
            let unit_end = unit.end();
            if fast & (at >= row) & (unit_end <= row_end) {
                whole::<COLOR>(p, tables, bytes, &unit, at - row);
            } else {
                part(p, bytes, &unit, at.max(row)..unit_end.min(row_end), row);
            }
            if unit_end > row_end {
                break; // the rest of it is on the next row
            }
            at = unit_end;
            valid.error_at(at);
            at = valid_units::<COLOR>(p, tables, &mut valid, bytes, at, row, row_end);
        }
        row = row_end;
    }
}

/// How far the input is known to be valid UTF-8 from the unit being printed.
struct Validated {
    /// Units that start before this offset (and after the last check) are scalars.
    until: usize,
    /// The validator is not tried again before this offset (see [`ERROR_DENSE`]).
    retry: usize,
    /// Units before this offset have 4 readable bytes.
    readable: usize,
}

impl Validated {
    fn new(bytes: &[u8]) -> Validated {
        Validated {
            until: 0,
            retry: 0,
            readable: bytes.len().saturating_sub(3),
        }
    }

    /// Where the valid stretch from `at` (a unit's start) ends, checking ahead if due.
    #[inline]
    fn check(&mut self, bytes: &[u8], at: usize) -> usize {
        if at >= self.until && at >= self.retry {
            let block = &bytes[at..bytes.len().min(at + VALIDATE)];
            let valid = match simdutf8::compat::from_utf8(block) {
                Ok(_) => block.len(),
                Err(e) => e.valid_up_to(),
            };
            self.until = at + valid;
            if valid < block.len() && valid < ERROR_DENSE {
                self.retry = self.until + ERROR_DENSE;
            }
        }
        self.until.min(self.readable)
    }

    /// Units decoded step by step reached `at`.
    #[inline(always)]
    fn error_at(&mut self, _at: usize) {}
}

/// Prints the valid units from `at` that lie whole on the row `row..row_end`, from the
/// tables; returns where it stopped (at an error, a unit cut by the row's end, or within
/// 4 bytes of the end of `bytes`).
#[inline(always)]
fn valid_units<const COLOR: bool>(
    p: &mut Printer,
    tables: &mut Tables,
    valid: &mut Validated,
    bytes: &[u8],
    mut at: usize,
    row: usize,
    row_end: usize,
) -> usize {
    let until = valid.check(bytes, at).min(row_end);
    while at < until {
        let n = tables.seq_len[bytes[at] as usize] as usize;
        if at + n > row_end {
            break;
        }
        scalar::<COLOR>(p, tables, bytes, at, n, at - row);
        at += n;
    }
    at
}

/// Masks that keep the first `n` bytes of a little-endian `u32`, by `n`.
const KEEP: [u32; 5] = [0, 0xFF, 0xFFFF, 0xFF_FFFF, 0xFFFF_FFFF];

/// A scalar of `n` bytes at `at`, whole on the row, known valid, with 4 bytes readable.
#[inline(always)]
fn scalar<const COLOR: bool>(
    p: &mut Printer,
    tables: &mut Tables,
    bytes: &[u8],
    at: usize,
    n: usize,
    col: usize,
) {
    let &[b0, b1, b2, b3] = &bytes[at..at + 4] else {
        unreachable!("four bytes are readable");
    };
    let key = if b0 < 0x80 {
        b0 as usize
    } else {
        ASCII + n * SHAPE_LENS + n
    };
    let _ = col;
    let cells = &tables.units[key];
    hex_cells::<COLOR>(p, cells, [b0, b1, b2, b3], n);
    put_run::<COLOR>(&p.palette, &mut p.class, &cells.class);
    p.cells += n;
    let raw = u32::from_le_bytes([b0, b1, b2, b3]) & KEEP[n];
    let text = tables.text(raw, || Dialect::Utf8.decode_at(bytes, at));
    put_run::<COLOR>(&p.palette, &mut p.text, text);
}

/// The hex cells of a unit of `n` bytes (1 to 4) from its first 4.
#[inline(always)]
fn hex_cells<const COLOR: bool>(p: &mut Printer, cells: &UnitCells, b: [u8; 4], n: usize) {
    let palette = &p.palette;
    if COLOR {
        switch_to(palette, &mut p.hex, cells.hex_first);
    }
    p.hex.bytes.put(&HEX_SPACE[b[0] as usize], 3);
    if COLOR {
        switch_to(palette, &mut p.hex, cells.hex_rest);
    }
    let [h1, h2, h3] = [b[1], b[2], b[3]].map(|b| HEX_SPACE[b as usize]);
    let rest = [
        h1[0], h1[1], b' ', h2[0], h2[1], b' ', h3[0], h3[1], b' ', 0, 0, 0, 0, 0, 0, 0,
    ];
    p.hex.bytes.put(&rest, 3 * (n - 1));
}

/// A unit whole on the row, with 4 bytes readable from its start: its cells from the tables.
#[inline(always)]
fn whole<const COLOR: bool>(
    p: &mut Printer,
    tables: &mut Tables,
    bytes: &[u8],
    unit: &Unit,
    col: usize,
) {
    let &[b0, b1, b2, b3] = &bytes[unit.start..unit.start + 4] else {
        unreachable!("four bytes are readable where decode_utf8_at decodes");
    };
    let n = unit.len as usize;
    let key = unit_key(b0, unit);
    let cells = &tables.units[key];
    hex_cells::<COLOR>(p, cells, [b0, b1, b2, b3], n);
    put_run::<COLOR>(&p.palette, &mut p.class, &cells.class);
    p.errors[p.error_count] = ErrorSpan {
        col,
        len: n,
        kind: cells.kind,
        head: true,
    };
    p.error_count += cells.error as usize;
    p.cells += n;
    let text = if unit.is_error() {
        &cells.text
    } else {
        let raw = u32::from_le_bytes([b0, b1, b2, b3]) & KEEP[n];
        tables.text(raw, || *unit)
    };
    put_run::<COLOR>(&p.palette, &mut p.text, text);
}

#[inline(always)]
fn put_run<const COLOR: bool>(palette: &super::Palette, pane: &mut Pane, run: &Run) {
    if COLOR {
        switch_to(palette, pane, run.first);
        pane.style = run.last;
    }
    pane.bytes.put(&run.bytes, run.len as usize);
}

/// The part `range` of a unit on the row that starts at `row`, printed by the reference
/// cell methods with the cells [`view::visit`] builds for it: the glyph on the row of the
/// lead, fitted to the columns there; fillers on the others.
fn part(p: &mut Printer, bytes: &[u8], unit: &Unit, range: Range<usize>, row: usize) {
    let head = range.start == unit.start;
    let span = range.len();
    if let UnitKind::Error(kind) = unit.kind {
        p.error(ErrorSpan {
            col: range.start - row,
            len: span,
            kind,
            head,
        });
    }
    for at in range {
        let k = (at - unit.start) as u8;
        let byte = bytes[at];
        p.byte(ByteCell {
            offset: at as u64,
            byte,
            role: view::role(unit, k, byte),
            class: view::class(unit, k),
            unit_start: unit.start as u64,
            unit_len: unit.len,
            selected: false,
        });
    }
    p.text(TextRun {
        glyph: head.then(|| view::unit_glyph(unit).fit(span)),
        columns: span,
    });
}

#[cfg(test)]
mod tests {
    use super::super::{dump_stream, Format, Printer};
    use crate::decode::Dialect;
    use proptest::prelude::*;

    /// The rows of `bytes[window]` through [`view::visit`] and the reference printer alone.
    fn reference(bytes: &[u8], window: std::ops::Range<u64>, f: &Format) -> String {
        let mut printer = Printer::new(f);
        printer.print(bytes, 0, window);
        String::from_utf8(printer.out.clone()).unwrap()
    }

    fn fast(bytes: &[u8], window: std::ops::Range<u64>, f: &Format) -> String {
        let mut printer = Printer::new_fast(f);
        assert!(printer.fast.is_some());
        printer.print(bytes, 0, window);
        String::from_utf8(printer.out.clone()).unwrap()
    }

    /// Pieces that make every case likely: ASCII of every role, valid 2- to 4-byte
    /// characters (wide, combining, format, controls), every kind of error, and the bytes
    /// where the rules change.
    fn pieces() -> impl Strategy<Value = Vec<u8>> {
        let text: Vec<&'static [u8]> = vec![
            b"a",
            b" ",
            b"\t",
            b"\n",
            b"\x00",
            b"\x1b",
            b"\x7f",
            "é".as_bytes(),
            "\u{85}".as_bytes(),
            "\u{a0}".as_bytes(),
            "€".as_bytes(),
            "中".as_bytes(),
            "\u{301}".as_bytes(),
            "\u{202e}".as_bytes(),
            "\u{feff}".as_bytes(),
            "\u{e000}".as_bytes(),
            "\u{fe0f}".as_bytes(),
            "😀".as_bytes(),
            "\u{10ffff}".as_bytes(),
            b"\xe2\x82",
            b"\xf0\x9f\x98",
            b"\xed\xa0\x80",
            b"\xe0\x80\xaf",
            b"\xf4\x90\x80\x80",
            b"\xc0\xaf",
        ];
        let edges = [
            0x00u8, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0,
            0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
        ];
        proptest::collection::vec(
            prop_oneof![
                3 => prop::sample::select(text).prop_map(|p| p.to_vec()),
                1 => prop::sample::select(edges.to_vec()).prop_map(|b| vec![b]),
                1 => any::<u8>().prop_map(|b| vec![b]),
            ],
            0..160,
        )
        .prop_map(|parts| parts.concat())
    }

    fn format() -> impl Strategy<Value = Format> {
        (
            prop::sample::select(vec![1usize, 2, 3, 5, 8, 16, 32]),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(|(width, color, ascii)| Format {
                dialect: Dialect::Utf8,
                width,
                color,
                ascii,
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The fast path prints what the reference prints, for any window of any input.
        #[test]
        fn fast_rows_equal_the_reference(
            bytes in pieces(),
            f in format(),
            a in 0u64..200,
            n in 0u64..200,
        ) {
            let len = bytes.len() as u64;
            for window in [0..len, a.min(len)..(a + n).min(len)] {
                prop_assert_eq!(
                    fast(&bytes, window.clone(), &f),
                    reference(&bytes, window, &f)
                );
            }
        }

        /// Streamed in chunks of any size, the fast path prints what the reference prints
        /// for the whole input.
        #[test]
        fn streamed_rows_equal_the_reference(
            bytes in pieces(),
            f in format(),
            a in 0u64..100,
            n in prop::option::of(0u64..200),
            chunk in 1usize..40,
        ) {
            let len = bytes.len() as u64;
            let end = n.map_or(len, |n| (a + n).min(len));
            let mut out = Vec::new();
            dump_stream(&bytes[..], a, n, &f, chunk, &mut out).unwrap();
            prop_assert_eq!(String::from_utf8(out).unwrap(), reference(&bytes, a.min(len)..end, &f));
        }
    }
}
