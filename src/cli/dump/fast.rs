//! The UTF-8 fast path of `dump`: whole rows printed from renderings of units, not cell by
//! cell.
//!
//! A row's units are found by the decoding step itself ([`shape_utf8_at`]: length, and
//! scalar or the kind of error), and each unit's part on the row (the whole unit, or the
//! part of one cut by the row's start or end) is looked up by its bytes, shape and part in
//! a table of [`Entry`]s: its hex pane (with colour), class lane and text as the
//! reference printer renders them, each with the style it starts in and the one it leaves.
//! An entry is made on first use ([`Tables::render`]): the unit is set in a row of its own
//! at the column where its part starts or ends, [`view::visit`] makes the cells and the
//! reference [`Printer`]'s cell methods print them, so the fast path prints no cell of its
//! own making. A row is then a few fixed-size copies a unit (and, with colour, a switch of
//! style where a unit starts in another than the one the pane is in); its hex pane without
//! colour is each byte's digits, and its marker line and readings come from the same
//! function as the reference's, fed the error units as they come.
//!
//! What the fast path does not print goes through the reference: the rows within 3 bytes
//! of the end of the slice, the first row when the reader's offset cuts a unit (its glyph
//! is drawn on its first byte in view), and a row with a unit whose rendering does not fit
//! an entry. Property tests hold the output equal to the reference's, byte for byte.

use std::ops::Range;

use super::{row_line, Format, Mark, Printer, StyleId, HEX_SPACE, PLAIN, UNSET};
use crate::decode::{shape_utf8_at, Dialect, ErrorKind, Shape};
use crate::view::{self, ByteCell, CellSink, ErrorSpan, Options, TextRun};

/// The most bytes of one pane's rendering of a unit.
const RUN: usize = 48;

/// One pane's text for one unit's part, as the reference printer renders it when the pane
/// is in the style `first` already; after it, the pane is in `last`.
#[derive(Clone, Copy)]
struct Run {
    bytes: [u8; RUN],
    len: u8,
    first: StyleId,
    last: StyleId,
}

/// A unit's part on a row: the styles of its first byte and of the others in the hex
/// pane (whose digits are the bytes'), and its class lane and text.
#[derive(Clone, Copy)]
struct Entry {
    hex: [StyleId; 2],
    runs: [Run; 2],
}

/// Entries of units other than ASCII, two slots to a hash of their key.
const SLOTS: usize = 4096;

/// The tables of the fast path for one format.
pub(super) struct Tables {
    /// Printable entries of the 128 ASCII bytes, whole.
    ascii: Vec<Entry>,
    /// The least byte of the plain ones, `lo..=7E`: each printed as itself in the text and
    /// `1` in the class lane, all in one style per pane, so that a run of them is copied 8
    /// bytes at a time (`80` if the renderings say otherwise).
    plain_lo: u8,
    /// Entries of other units and parts, made on first use, and their keys (apart, so
    /// that looking one up reads a small array).
    cache: Vec<Entry>,
    keys: Vec<u64>,
    /// The reference printer that renders entries.
    render: Box<Printer>,
}

/// Bytes of the lanes a fast row is built in, a power of two above what a row of 32 units
/// can take (an entry and a switch a unit).
const LANE: usize = 8192;

/// The panes of the row being printed.
struct Lanes {
    bytes: [[u8; LANE]; 3],
    len: [usize; 3],
    style: [StyleId; 3],
    /// The row's error spans.
    marks: [Mark; 33],
}

impl Tables {
    pub(super) fn new(format: &Format) -> Tables {
        let empty = Entry {
            hex: [PLAIN; 2],
            runs: [Run {
                bytes: [0; RUN],
                len: 0,
                first: PLAIN,
                last: PLAIN,
            }; 2],
        };
        let mut tables = Tables {
            ascii: Vec::new(),
            cache: vec![empty; SLOTS],
            keys: vec![0; SLOTS],
            plain_lo: 0x80,
            render: Box::new(Printer::new(&Format {
                fallback: None,
                ..*format
            })),
        };
        tables.ascii = (0..128u8)
            .map(|b| {
                let quad = [b, b'A', b'A', b'A'];
                let entry = tables.render(&quad, 1, 0..1);
                entry.unwrap_or(empty)
            })
            .collect();
        // With colour a space has a style of its own.
        let lo = if format.color { 0x21 } else { 0x20 };
        let first = tables.ascii[lo as usize];
        let plain = (lo..0x7F).all(|b| {
            let entry = &tables.ascii[b as usize];
            let runs = &entry.runs;
            let texts: [&[u8]; 2] = [b"1", &[b]];
            entry.hex[0] == first.hex[0]
                && (0..2).all(|i| {
                    runs[i].first == first.runs[i].first
                        && runs[i].last == first.runs[i].first
                        && &runs[i].bytes[..runs[i].len as usize] == texts[i]
                })
        });
        if plain {
            tables.plain_lo = lo;
        }
        tables
    }

    /// How many of the first bytes of `block` are plain (see [`Tables::plain_lo`]).
    #[inline(always)]
    fn plain_run(&self, block: u64) -> usize {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let low = block & !HIGH;
        // Bit 7 of each byte: at least `lo`, at most 7E, below 80.
        let at_least = (low + (0x80 - self.plain_lo as u64) * ONES) & HIGH;
        let above = (low + ONES) & HIGH;
        let plain = at_least & !above & !(block & HIGH);
        ((!plain & HIGH).trailing_zeros() / 8) as usize
    }

    /// The slot of the entry under `key` (see [`render`](Tables::render) for the rest),
    /// made if it is in neither of the two slots its hash picks. The one found or made
    /// goes first, so that two keys of the same hash both stay.
    #[inline(always)]
    fn slot(&mut self, key: u64, quad: &[u8; 4], len: usize, part: Range<usize>) -> Option<usize> {
        let mixed = (key ^ key >> 31).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let slot = (mixed >> 40) as usize & (SLOTS - 2);
        if self.keys[slot] == key {
            return Some(slot);
        }
        if self.keys[slot + 1] != key {
            self.cache[slot + 1] = self.render(quad, len, part)?;
            self.keys[slot + 1] = key;
        }
        self.cache.swap(slot, slot + 1);
        self.keys.swap(slot, slot + 1);
        Some(slot)
    }

    /// The entry of the part `part` of the unit of `len` bytes at the start of `quad` (and
    /// the bytes after it that decide its shape), rendered by the reference printer, or
    /// `None` if a pane's rendering is longer than [`RUN`] or the unit is not what `len` says.
    fn render(&mut self, quad: &[u8; 4], len: usize, part: Range<usize>) -> Option<Entry> {
        // A row that ends where the part does (the unit at its start), or, for a part
        // after the first row of its unit, a row of the unit's first `part.start` bytes
        // (after some of padding) then one with the rest: its cells are the same as on a
        // row of any width that cuts the unit there.
        let (width, lead) = match (part.start, part.end) {
            (0, end) if end == len => (self.render.format.width, 0),
            (0, end) => (end, 0),
            (start, _) => {
                let width = start.max(len - start);
                (width, width - start)
            }
        };
        let mut bytes = vec![b'A'; lead];
        bytes.extend_from_slice(quad);
        bytes.extend_from_slice(b"AAAAAAAA");
        let unit = Dialect::Utf8.decode_at(&bytes, lead);
        if unit.len as usize != len {
            return None;
        }
        let p = &mut *self.render;
        for pane in &mut p.panes {
            pane.bytes.clear();
            pane.bytes.reserve(1024);
            pane.style = UNSET;
        }
        let within = (lead + part.start) as u64..(lead + part.end) as u64;
        let mut capture = Capture {
            printer: p,
            within,
            inside: false,
            hex: Vec::new(),
        };
        let window = 0..(lead + len) as u64;
        view::visit(
            &bytes,
            Dialect::Utf8,
            window,
            width,
            Options::default(),
            &mut capture,
        );
        let hex = std::mem::take(&mut capture.hex);
        p.cells = 0;
        // The hex pane: one style for the first byte, one for the others.
        let first = *hex.first()?;
        let rest = hex.get(1).copied().unwrap_or(first);
        if hex.iter().skip(1).any(|&s| s != rest) {
            return None;
        }
        let palette = &p.palette;
        let mut runs = [Run {
            bytes: [0; RUN],
            len: 0,
            first: PLAIN,
            last: PLAIN,
        }; 2];
        for (run, pane) in runs.iter_mut().zip(&p.panes[1..]) {
            let mut text = pane.bytes.as_slice();
            run.first = PLAIN;
            run.last = if p.format.color { pane.style } else { PLAIN };
            if p.format.color {
                // Its first switch, from no style: which style it starts in.
                let first = (0..palette.sgr.len() as StyleId)
                    .filter(|&s| palette.style(s) == s)
                    .find(|&s| {
                        let (sgr, len) = &palette.sgr[s as usize];
                        text.starts_with(&sgr[..*len])
                    })?;
                run.first = first;
                text = &text[palette.sgr[first as usize].1..];
            }
            if text.len() > RUN {
                return None;
            }
            run.bytes[..text.len()].copy_from_slice(text);
            run.len = text.len() as u8;
        }
        Some(Entry {
            hex: [first, rest],
            runs,
        })
    }
}

/// The cells of one unit's part, found among a row's by their offsets, handed to the
/// reference printer's cell methods.
struct Capture<'a> {
    printer: &'a mut Printer,
    within: Range<u64>,
    /// Whether the last byte was the part's, so that the text after it is too.
    inside: bool,
    /// The style of each of the part's bytes in the hex pane.
    hex: Vec<StyleId>,
}

impl CellSink for Capture<'_> {
    fn row(&mut self, _offset: u64, _len: usize) {}
    fn error(&mut self, _span: ErrorSpan) {}
    fn byte(&mut self, cell: ByteCell) {
        self.inside = self.within.contains(&cell.offset);
        if self.inside {
            let palette = &self.printer.palette;
            self.hex.push(palette.style(super::role_id(cell.role)));
            self.printer.byte(cell);
        }
    }
    fn text(&mut self, run: TextRun) {
        if self.inside {
            self.printer.text(run);
        }
    }
}

/// Prints the rows of `bytes[window]` (UTF-8, a width of 4 to 32): whole rows with 3 bytes
/// after them in the slice by [`row`], the others by the reference.
pub(super) fn print(p: &mut Printer, tables: &mut Tables, bytes: &[u8], window: Range<u64>) {
    let len = bytes.len();
    let (start, end) = (
        window.start.min(len as u64) as usize,
        window.end.min(len as u64) as usize,
    );
    if start >= end {
        return;
    }
    let width = p.format.width;
    let mut row = start;
    let mut at = Dialect::Utf8.unit_containing(bytes, start).start;
    if at < start && p.first == Some(p.base + start as u64) {
        // A unit cut by the reader's offset shows its glyph: the reference's row.
        row = (start + width).min(end);
        p.visit(bytes, start as u64..row as u64);
        at = row;
        if row < len {
            at = Dialect::Utf8.unit_containing(bytes, row).start;
        }
    }
    let mut lanes = Box::new(Lanes {
        bytes: [[0; LANE]; 3],
        len: [0; 3],
        style: [PLAIN; 3],
        marks: [Mark {
            col: 0,
            len: 0,
            kind: ErrorKind::InvalidByte,
            head: false,
            unit: (0, 0),
        }; 33],
    });
    while row + width <= end && row + width + 3 <= len {
        let next = if p.format.color {
            row_of::<true>(p, tables, &mut lanes, bytes, at, row)
        } else {
            row_of::<false>(p, tables, &mut lanes, bytes, at, row)
        };
        row += width;
        at = match next {
            Some(next) => next,
            None => {
                p.visit(bytes, (row - width) as u64..row as u64);
                Dialect::Utf8.unit_containing(bytes, row).start
            }
        };
    }
    if row < end {
        p.visit(bytes, row as u64..end as u64);
    }
}

/// Keeps the first `n` bytes of a little-endian quad, by `n`.
const KEEP: [u32; 5] = [0, 0xFF, 0xFFFF, 0xFF_FFFF, 0xFFFF_FFFF];

/// Prints the row of `W` bytes at `row` whose first unit starts at `at`; returns where the
/// next row's first unit starts, or `None` (and nothing printed) if a unit has no entry.
#[inline(always)]
fn row_of<const COLOR: bool>(
    p: &mut Printer,
    tables: &mut Tables,
    lanes: &mut Lanes,
    bytes: &[u8],
    mut at: usize,
    row: usize,
) -> Option<usize> {
    let width = p.format.width;
    let end = row + width;
    lanes.len = [0; 3];
    lanes.style = [PLAIN; 3];
    if !COLOR {
        for (k, &b) in bytes[row..end].iter().enumerate() {
            lanes.bytes[0][3 * k..3 * k + 4].copy_from_slice(&HEX_SPACE[b as usize]);
        }
        lanes.len[0] = 3 * width;
    }
    let mut count = 0;
    while at < end {
        let b0 = bytes[at];
        if at >= row && at + 8 <= end {
            let block: [u8; 8] = bytes[at..at + 8].try_into().ok()?;
            let k = tables.plain_run(u64::from_le_bytes(block));
            if k > 0 {
                lanes.plain::<COLOR>(&p.palette.sgr, &tables.ascii[block[0] as usize], block, k);
                at += k;
                continue;
            }
        }
        if b0 < 0x80 && at >= row {
            lanes.put::<COLOR>(&p.palette.sgr, &tables.ascii[b0 as usize], &[b0]);
            at += 1;
            continue;
        }
        let shape = shape_utf8_at(bytes, at)?;
        let n = shape.len as usize;
        let quad: [u8; 4] = bytes[at..at + 4].try_into().ok()?;
        let (k0, k1) = (row.saturating_sub(at), n.min(end - at));
        // An error's class lane and text do not depend on its bytes, a scalar's do.
        let keep = KEEP[n.min(4)] & (shape.is_error() as u32).wrapping_sub(1);
        let key = (u32::from_le_bytes(quad) & keep) as u64
            | (n as u64) << 32
            | (shape.tag as u64) << 36
            | (k0 as u64) << 44
            | (k1 as u64) << 48;
        let slot = tables.slot(key, &quad, n, k0..k1)?;
        lanes.put::<COLOR>(&p.palette.sgr, &tables.cache[slot], &quad[k0..k1]);
        if shape.is_error() {
            lanes.marks[count % 33] = Mark {
                col: at + k0 - row,
                len: k1 - k0,
                kind: ErrorKind::ALL[(shape.tag - Shape::FIRST_ERROR_TAG) as usize],
                head: k0 == 0,
                unit: (at, at + n),
            };
            count += 1;
        }
        if at + n > end {
            break; // the rest of it is on the next row
        }
        at += n;
    }
    let panes = [0, 1, 2].map(|i| (&lanes.bytes[i][..lanes.len[i]], lanes.style[i]));
    let digits = row_line(
        &p.format,
        &p.palette,
        &mut p.out,
        p.base + row as u64,
        panes,
        0,
    );
    if count > 0 {
        p.marker_line(digits, &lanes.marks[..count.min(33)], bytes);
    }
    Some(at)
}

impl Lanes {
    /// Appends `k` plain bytes from the start of `block` (the first one's entry `first`).
    #[inline(always)]
    fn plain<const COLOR: bool>(&mut self, sgr: &Sgr, first: &Entry, block: [u8; 8], k: usize) {
        if COLOR {
            let mut hex = [0u8; 24];
            for (i, &b) in block.iter().enumerate() {
                hex[3 * i..3 * i + 3].copy_from_slice(&HEX_SPACE[b as usize][..3]);
            }
            let style = first.hex[0];
            self.put_run::<true, 24>(sgr, 0, [style, style], &hex, 3 * k);
        }
        let [class, text] = &first.runs;
        self.put_run::<COLOR, 8>(sgr, 1, [class.first, class.last], b"11111111", k);
        self.put_run::<COLOR, 8>(sgr, 2, [text.first, text.last], &block, k);
    }

    /// Appends `len` bytes of `bytes` to lane `i`, after a switch to the style `first` if
    /// the lane is in another; the lane is then in `last`.
    #[inline(always)]
    fn put_run<const COLOR: bool, const N: usize>(
        &mut self,
        sgr: &Sgr,
        i: usize,
        [first, last]: [StyleId; 2],
        bytes: &[u8; N],
        len: usize,
    ) {
        let mut at = self.len[i];
        let lane = &mut self.bytes[i];
        if COLOR {
            let (sgr, n) = &sgr[first as usize];
            lane[at & (LANE / 2 - 1)..][..24].copy_from_slice(sgr);
            at += *n * (self.style[i] != first) as usize;
            self.style[i] = last;
        }
        lane[at & (LANE / 2 - 1)..][..N].copy_from_slice(bytes);
        self.len[i] = at + len;
    }

    /// Appends an entry: with colour, the hex digits of `part` (the bytes of the unit's
    /// part) in their styles; the class lane and text, each after a switch to the style
    /// it starts in if the pane is in another.
    #[inline(always)]
    fn put<const COLOR: bool>(&mut self, sgr: &Sgr, entry: &Entry, part: &[u8]) {
        if COLOR {
            let [lead, rest] = entry.hex;
            if let Some((&b0, more)) = part.split_first() {
                self.put_run::<true, 4>(sgr, 0, [lead, lead], &HEX_SPACE[b0 as usize], 3);
                if !more.is_empty() {
                    let mut hex = [0u8; 12];
                    for (k, &b) in more.iter().take(3).enumerate() {
                        hex[3 * k..3 * k + 3].copy_from_slice(&HEX_SPACE[b as usize][..3]);
                    }
                    self.put_run::<true, 12>(sgr, 0, [rest, rest], &hex, 3 * more.len().min(3));
                }
            }
        }
        for (i, run) in entry.runs.iter().enumerate() {
            self.put_run::<COLOR, RUN>(
                sgr,
                i + 1,
                [run.first, run.last],
                &run.bytes,
                run.len as usize,
            );
        }
    }
}

/// The SGR sequences of the styles ([`super::Palette::sgr`]).
type Sgr = [([u8; 24], usize)];

#[cfg(test)]
mod tests {
    use super::super::{dump_stream, Format, Printer};
    use crate::decode::Dialect;
    use crate::view::fallback::{Escape, Fallback};
    use proptest::prelude::*;

    /// The rows of `bytes[window]`, with `bytes` at offset `base` of the input, through
    /// [`view::visit`] and the reference printer alone (`fast` false) or the fast path.
    fn printed(
        bytes: &[u8],
        base: u64,
        window: std::ops::Range<u64>,
        f: &Format,
        fast: bool,
    ) -> String {
        let mut printer = if fast {
            Printer::new_fast(f)
        } else {
            Printer::new(f)
        };
        printer.first = Some(base + window.start);
        printer.print(bytes, base, window);
        String::from_utf8(printer.out.as_slice().to_vec()).unwrap()
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

    /// Every width, colour, `--ascii`, fallback and escape; UTF-8 mostly, the other
    /// dialects too (which the fast printer prints by the reference).
    fn format() -> impl Strategy<Value = Format> {
        (
            prop::sample::select(vec![1usize, 2, 3, 4, 5, 8, 16, 32]),
            any::<bool>(),
            any::<bool>(),
            prop::sample::select(vec!["none", "windows-1252", "iso-8859-2", "shift_jis"]),
            prop_oneof![6 => Just(Dialect::Utf8), 1 => prop::sample::select(Dialect::ALL.to_vec())],
            prop_oneof![6 => Just(None), 1 => Just(Some(Escape::Pep383)), 1 => Just(Some(Escape::Optu8))],
        )
            .prop_map(|(width, color, ascii, fallback, dialect, escape)| Format {
                dialect,
                width,
                color,
                ascii,
                fallback: Fallback::from_label(fallback).unwrap(),
                escape,
            })
    }

    /// Long inputs, so that most rows are printed whole: random bytes, text with runs of
    /// ASCII, and both mixed, at every width and with offsets that start rows mid-unit,
    /// also across 4 GiB.
    #[test]
    fn whole_rows_equal_the_reference() {
        let mut next = crate::xorshift(0x5DEE_CE66_D1CE_4E5B);
        let text = "naïve café Ελληνικά 中文字符 😀 the data\t\u{1b}\u{301}\n".as_bytes();
        for round in 0..24 {
            let bytes: Vec<u8> = (0..3000)
                .map(|i| match round % 3 {
                    0 => next() as u8,
                    1 => text[i % text.len()],
                    _ if next().is_multiple_of(4) => next() as u8,
                    _ => text[i % text.len()],
                })
                .collect();
            for (width, ascii) in [4, 8, 16, 32]
                .into_iter()
                .flat_map(|w| [(w, false), (w, true)])
            {
                let f = Format {
                    dialect: Dialect::Utf8,
                    width,
                    color: round % 2 == 1,
                    ascii,
                    fallback: Fallback::from_label(["none", "windows-1252"][round / 3 % 2])
                        .unwrap(),
                    escape: None,
                };
                let a = next() % 40;
                let rows = width as u64 * (1 + next() % 60);
                let len = bytes.len() as u64;
                for window in [0..len, a..len - a, a..a + rows] {
                    assert_eq!(
                        printed(&bytes, 0, window.clone(), &f, true),
                        printed(&bytes, 0, window.clone(), &f, false),
                        "{f:?} {window:?}"
                    );
                }
                let base = (1 << 32) - 1000 - a;
                assert_eq!(
                    printed(&bytes, base, 0..len, &f, true),
                    printed(&bytes, base, 0..len, &f, false),
                    "{f:?} at {base}"
                );
            }
        }
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
            base in prop_oneof![Just(0u64), Just((1 << 32) - 64)],
        ) {
            let len = bytes.len() as u64;
            for window in [0..len, a.min(len)..(a + n).min(len)] {
                prop_assert_eq!(
                    printed(&bytes, base, window.clone(), &f, true),
                    printed(&bytes, base, window, &f, false)
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
            prop_assert_eq!(
                String::from_utf8(out).unwrap(),
                printed(&bytes, 0, a.min(len)..end, &f, false)
            );
        }
    }
}
