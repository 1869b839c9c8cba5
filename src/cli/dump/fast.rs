//! The UTF-8 fast path of `dump`: rows printed from cells rendered once, not cell by cell.
//!
//! [`view::visit`] hands a sink every byte as a [`ByteCell`] and every unit's text as a
//! [`TextRun`], and the printer turns each into a few table lookups; on 256 MiB that is
//! most of the time. Here the same rows are printed unit by unit from [`Tables`].
//!
//! # What the tables hold
//!
//! - The shape of a unit (length, scalar class or error kind) by its first byte, the class
//!   of its second and whether its third and fourth are continuation bytes: 4096 entries
//!   filled at start-up from the decoding step itself ([`shape_utf8_at`]; a test holds
//!   them equal on every first and second byte). [`Scratch::shapes`] finds the shape at
//!   every column of a row at once (the indices in vector registers, byte by byte), so
//!   that printing a unit does not wait on the one before it.
//! - The class lane, text and hex styles of every ASCII byte and of every shape, the parts
//!   of every shape cut by a row edge ([`Tables::cuts`]), and the text of every scalar,
//!   whole and cut by a row's end (memoized by its bytes, [`Tables::scalar`],
//!   [`Tables::cut_text`]): rendered by the reference printer itself, the `CellSink`
//!   methods of [`Printer`] fed the cells the view builds for that unit, each pane
//!   starting in the style its first cell takes.
//! - Whether each byte `20..=7E` (or `21..=7E`) is printed as itself in one style, so that
//!   a run of them can be copied 8 or 16 bytes at a time ([`Tables::plain_run`],
//!   [`plain_columns`]; checked at start-up, so the copy is still a replay of the
//!   entries).
//!
//! # How a row is printed
//!
//! A whole row of 8, 16 or 32 bytes with [`AHEAD`] bytes from its start in the input
//! goes straight into the output buffer, its marker line included, runs of such rows in
//! one call ([`whole_rows`]): without colour by [`plain_row`] (its hex pane and plain
//! bytes found all at once, [`RowBits`], in vector registers where the processor has
//! them), with colour by [`colored_row`] (hex digits in place, each style switch a
//! 32-byte copy chosen by index, [`Tables::switches`], and the marker line from the row's
//! spans, [`colored_marker_line`]). The parts of units cut by its edges come from the cut
//! tables ([`PlainPart`], [`colored_part`]). Every copy has a size known when compiled and
//! goes to an offset masked into a fixed-size array, so none needs a bounds check. Without
//! colour, a row's units are printed with their marks and kinds of error (each unit's
//! marks copied to its column, error or not: no branch, as on random bytes every other
//! unit is one) if the row before had an error unit, else first without and then again
//! with them only if this row has one ([`plain_units_of`]).
//!
//! Other rows (other widths, the last [`AHEAD`] bytes of a slice, offsets of 4 GiB and
//! more, which take a ninth hex digit) go through the panes and [`Printer::end_row`],
//! unit by unit from the same tables; what the tables cannot index (a unit within 4 bytes
//! of the end of the slice, with colour a unit cut by a row or window edge) goes to the
//! reference cell methods with the cells [`view::visit`] builds for it.
//!
//! So the fast path prints no cell of its own making: it replays renderings of the view's
//! cells. The tests hold its output equal to the [`view::visit`] path, byte for byte, for
//! random inputs of every kind of unit, every width, colour, `--ascii`, window, stream
//! chunking and offsets across 4 GiB.

use std::ops::Range;

use super::row_bits::RowBits;
use super::{
    put_at, put_names_at, switch_indexed as switch, Format, Palette, Pane, Printer, StyleId,
    Writer, HEX_SPACE, MARKS_ROOM, PANE_ROOM, PLAIN, PUT_SLACK, ROW_MASK, ROW_ROOM,
};
use crate::decode::{shape_utf8_at, Dialect, ErrorKind, Shape, Unit, UnitKind};
use crate::view::glyph::InlineGlyph;
use crate::view::{self, ByteCell, CellSink, Class, ErrorSpan, Role, TextRun, WholeUnit};

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
/// comes from [`Tables::scalars`] instead.
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
    /// Whether the text is a multi-byte scalar's, found by value in [`Tables::scalars`].
    by_value: bool,
    /// Without colour, the unit's marks on the marker line and spaces after them (all
    /// spaces if it is no error), as [`Printer::error`] marks them; the bit of its kind
    /// ([`ErrorKind::index`]), or 0 if it is no error.
    marks: [u8; 16],
    kind_bit: u32,
}

/// A [`UnitCells`] without colour, as [`plain_units_into`] reads it: one cache line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct PlainCells {
    class: [u8; 16],
    text: [u8; 16],
    marks: [u8; 16],
    kind_bit: u32,
    class_len: u8,
    text_len: u8,
    /// [`ErrorKind::index`] of its kind.
    kind: u8,
    by_value: bool,
}

impl PlainCells {
    const EMPTY: PlainCells = PlainCells {
        class: [0; 16],
        text: [0; 16],
        marks: [b' '; 16],
        kind_bit: 0,
        class_len: 0,
        text_len: 0,
        kind: 0,
        by_value: false,
    };
}

/// [`second_class`] of every byte.
static SECOND: [u8; 256] = {
    let mut table = [0; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = second_class(b as u8);
        b += 1;
    }
    table
};

/// Units that are not ASCII are found at `ASCII + tag * SHAPE_LENS + len`.
const ASCII: usize = 128;
const SHAPE_LENS: usize = 8;
const UNITS: usize = (ASCII + Shape::TAGS * SHAPE_LENS).next_power_of_two();
// Keys are masked to the table's size instead of checked against it.
const _: () = assert!(UNITS.is_power_of_two());

/// Entries of [`Tables::shapes`]: 4 bits of the first byte's 8 more, see [`shape_index`].
const SHAPES: usize = 256 * 16;

/// Sets of the memo of scalars' text (a power of two): room for the 1920 two-byte scalars
/// that random bytes keep meeting (measured on 4 MiB of them: 29 thousand misses, against
/// 48 thousand with 1024 sets; most that remain are of longer scalars, seen once).
const SCALAR_SETS: usize = 2048;

/// A scalar's glyph and text, memoized.
#[derive(Clone, Copy)]
struct Scalar {
    raw: u32,
    glyph: InlineGlyph,
    text: Run,
    /// The text of its glyph fitted to the first `s` columns of its unit (cut by a row's
    /// end), by `s`, where that text is a prefix of `text`: its length, or 0 until it is
    /// first needed, or [`NOT_A_PREFIX`]; and the style it leaves the pane in.
    cut_len: [u8; 4],
    cut_last: [StyleId; 4],
}

/// What [`Scalar::cut_len`] holds for a text that is not a prefix of the whole unit's (a
/// wide glyph does not fit one column): it is rendered each time.
const NOT_A_PREFIX: u8 = u8::MAX;

impl Scalar {
    fn empty() -> Scalar {
        Scalar {
            raw: u32::MAX,
            glyph: InlineGlyph::error(),
            text: Run::EMPTY,
            cut_len: [0; 4],
            cut_last: [PLAIN; 4],
        }
    }
}

/// The rendered cells of every kind of unit, for one [`Format`].
pub(super) struct Tables {
    units: [UnitCells; UNITS],
    /// Scalars' glyphs and text, in sets of two slots chosen by a hash of their bytes as a
    /// little-endian `u32` (`u32::MAX` is no scalar's, so it marks an empty slot); the
    /// first slot of a set holds the scalar most recently rendered.
    scalars: Box<[[Scalar; 2]; SCALAR_SETS]>,
    /// The shape of a unit, by [`shape_index`]: the index of its cells in `units` times 8,
    /// plus its length.
    shapes: [u16; SHAPES],
    /// What [`plain_units_into`] reads of `units`, in 64 bytes an entry; and whether every
    /// entry it reads held all there is (it always does: a class lane or text of a unit
    /// without colour takes a few bytes).
    plain: [PlainCells; UNITS],
    plain_fits: bool,
    /// The entry of `shapes` by [`short_shape_index`], the first byte and the class of the
    /// second, where that is all it depends on and the text does not depend on the value
    /// (most units of random bytes: one byte); else [`LOOK_FURTHER`].
    short_shapes: [u16; SHORT_SHAPES],
    /// [`Palette::sgr_switch`] in an array whose index can be masked (`2 * style +
    /// changed`, see [`Tables::switch`]): each sequence (or nothing) in 32 bytes with its
    /// length in the last, so that one copy of 32 bytes writes it (what follows it in the
    /// copy is overwritten by what is written next).
    switches: [[u8; 32]; SWITCHES],
    /// The printer that renders a table entry (with no tables of its own).
    scratch: Box<Printer>,
    /// Runs of plain ASCII, see [`Tables::plain_run`]: added to each byte of 8 to set its
    /// top bit when it is at least the first plain byte, or 0 when there is none.
    plain_from: u64,
    /// The first plain byte, `7F` if there are none.
    plain_lo: u8,
    /// The class lane of 16 plain bytes.
    plain_class: [u8; 16],
    /// The styles of plain bytes in the hex pane, the class lane and the text.
    plain_styles: [StyleId; 3],
    /// The class lane of the part `k0..k1` of a unit cut by a row edge, by the unit's
    /// entry in `units` (less [`ASCII`]) and `CUTS * k0 + k1`, rendered as a whole unit's.
    cuts: Vec<[Run; CUTS * CUTS]>,
}

/// Cut positions 0 to 4: UTF-8 units are at most 4 bytes long.
const CUTS: usize = 5;

impl Tables {
    pub(super) fn new(format: &Format) -> Tables {
        let mut tables = Tables {
            units: [UnitCells {
                hex_first: PLAIN,
                hex_rest: PLAIN,
                class: Run::EMPTY,
                text: Run::EMPTY,
                error: false,
                kind: ErrorKind::InvalidByte,
                by_value: false,
                marks: [b' '; 16],
                kind_bit: 0,
            }; UNITS],
            scalars: vec![[Scalar::empty(); 2]; SCALAR_SETS]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("SCALAR_SETS sets")),
            shapes: [0; SHAPES],
            plain: [PlainCells::EMPTY; UNITS],
            plain_fits: false,
            short_shapes: [LOOK_FURTHER; SHORT_SHAPES],
            switches: [[0; 32]; SWITCHES],
            scratch: Box::new(Printer::new(format)),
            plain_from: 0,
            plain_lo: 0x7F,
            plain_class: [0; 16],
            plain_styles: [PLAIN; 3],
            cuts: vec![[Run::EMPTY; CUTS * CUTS]; UNITS - ASCII],
        };
        for b in 0..0x80u8 {
            let unit = Unit::scalar(0, 1, b as u32);
            tables.units[b as usize] = tables.render(&unit, &[b]);
        }
        tables.find_plain_bytes();
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
        // Every part of every shape a row edge can cut (a unit of one byte never is).
        for len in 2..CUTS as u8 {
            let bytes = [0xC0; CUTS];
            let units = ErrorKind::ALL
                .map(|kind| Unit::error(0, len, kind))
                .into_iter()
                .chain([Unit::scalar(0, len, 0x80)]);
            for unit in units {
                let key = unit_key(0xC0, &unit) - ASCII;
                for k0 in 0..len {
                    for k1 in k0 + 1..=len {
                        let run = tables.render_cut(&unit, &bytes[..len as usize], k0..k1);
                        tables.cuts[key][CUTS * k0 as usize + k1 as usize] = run;
                    }
                }
            }
        }
        // The shape of every unit by what decoding looks at, from the decoding step itself.
        for b0 in 0..=255u8 {
            for (class, &b1) in SECOND_OF_CLASS.iter().enumerate() {
                for (b2, b3) in [(0x41, 0x41), (0x41, 0x80), (0x80, 0x41), (0x80, 0x80)] {
                    let quad = [b0, b1, b2, b3];
                    debug_assert_eq!(SECOND[b1 as usize] as usize, class);
                    let shape = shape_utf8_at(&quad, 0).expect("four bytes");
                    let key = if b0 < 0x80 {
                        b0 as usize
                    } else {
                        ASCII + shape.tag as usize * SHAPE_LENS + shape.len as usize
                    };
                    tables.shapes[shape_index(&SECOND, quad)] =
                        (key << 3 | shape.len as usize) as u16;
                }
            }
        }
        tables.plain_fits = !format.color;
        for &shape in tables.shapes.iter() {
            // Only the entries of UTF-8's shapes are read (the table has others' too).
            let cells = &tables.units[(shape >> 3) as usize & (UNITS - 1)];
            let fits = |run: &Run| run.len as usize <= 16;
            tables.plain_fits &= fits(&cells.class) && (cells.by_value || fits(&cells.text));
        }
        for (plain, cells) in tables.plain.iter_mut().zip(&tables.units) {
            *plain = PlainCells {
                class: cells.class.bytes[..16].try_into().unwrap_or([0; 16]),
                text: cells.text.bytes[..16].try_into().unwrap_or([0; 16]),
                marks: cells.marks,
                kind_bit: cells.kind_bit,
                class_len: cells.class.len,
                text_len: cells.text.len,
                kind: cells.kind.index() as u8,
                by_value: cells.by_value,
            };
        }
        let palette = &tables.scratch.palette;
        for (switch, (sgr, len)) in tables.switches.iter_mut().zip(&palette.sgr_switch) {
            switch[..24].copy_from_slice(sgr);
            switch[31] = *len as u8;
        }
        for (i, short) in tables.short_shapes.iter_mut().enumerate() {
            let entry = |more| tables.shapes[i << 2 | more];
            let same = (1..4).all(|more| entry(more) == entry(0));
            let by_value = tables.units[(entry(0) >> 3) as usize].by_value;
            *short = if same && !by_value {
                entry(0)
            } else {
                LOOK_FURTHER
            };
        }
        tables
    }

    /// Finds the plain bytes: without colour, the ASCII bytes `lo..=7E` whose text, as
    /// rendered, is the byte itself and whose class lane is one and the same byte, for the
    /// lowest `lo` (`20` or `21`) for which every byte of the range is. A run of them is
    /// then printed by copying, 8 or 16 at a time ([`Tables::plain_run`],
    /// [`plain_units_into`]): the copy is what the
    /// rendered entries hold, checked here, not an assumption about them.
    fn find_plain_bytes(&mut self) {
        let last = self.units[0x7E];
        let (class, text) = (last.class, last.text);
        let plain = |cells: &UnitCells, b: u8| {
            cells.text.len == 1
                && cells.text.bytes[0] == b
                && cells.class.len == 1
                && cells.class.bytes[0] == class.bytes[0]
                && class.bytes[0].is_ascii()
                && !cells.error
                && !cells.by_value
                // With colour: one style per pane, kept from byte to byte.
                && [cells.hex_first, cells.hex_rest] == [last.hex_first; 2]
                && [cells.class.first, cells.class.last] == [class.first; 2]
                && [cells.text.first, cells.text.last] == [text.first; 2]
        };
        let all_plain = |lo: u8| (lo..=0x7E).all(|b| plain(&self.units[b as usize], b));
        if let Some(lo) = [0x20, 0x21].into_iter().find(|&lo| all_plain(lo)) {
            self.plain_from = u64::from_ne_bytes([0x80 - lo; 8]);
            self.plain_lo = lo;
            self.plain_class = [class.bytes[0]; 16];
            self.plain_styles = [last.hex_first, class.first, text.first];
        }
    }

    /// Switches a pane in `*style` to `to` at `*at` of `line` (offsets masked to `MASK`):
    /// [`switch`] without bounds to check.
    #[inline(always)]
    fn switch<const N: usize, const MASK: usize>(
        &self,
        line: &mut [u8; N],
        at: &mut usize,
        style: &mut StyleId,
        to: StyleId,
    ) {
        let changed = (*style != to) as usize;
        let switch = &self.switches[(2 * to as usize + changed) & (SWITCHES - 1)];
        line[*at & MASK..][..32].copy_from_slice(switch);
        *at += switch[31] as usize;
        *style = to;
    }

    /// The entry of [`Tables::shapes`] for the unit starting with `quad`, from
    /// [`Tables::short_shapes`] where it has it.
    #[inline(always)]
    fn shape(&self, quad: [u8; 4]) -> u16 {
        let shape = self.short_shapes[short_shape_index(&SECOND, quad)];
        if shape & LOOK_FURTHER != 0 {
            return self.shapes[shape_index(&SECOND, quad)];
        }
        shape
    }

    /// Which bytes of `block` are plain bytes ([`Tables::find_plain_bytes`]): their top
    /// bits set, the rest 0.
    #[inline(always)]
    fn plain_bytes(&self, block: [u8; 8]) -> u64 {
        const TOP: u64 = 0x8080_8080_8080_8080;
        let w = u64::from_le_bytes(block);
        let low = w & !TOP;
        // Bytes below 80 plus at most 7F stay below 100: no carry crosses bytes.
        let at_least_lo = low.wrapping_add(self.plain_from) & TOP;
        let at_least_7f = low.wrapping_add(0x0101_0101_0101_0101) & TOP;
        let on = (self.plain_from != 0) as u64 * TOP;
        at_least_lo & !at_least_7f & !(w & TOP) & on
    }

    /// The class lane of 8 plain bytes.
    fn plain_class8(&self) -> &[u8; 8] {
        self.plain_class.first_chunk().unwrap_or(&[0; 8])
    }

    /// How many of the first bytes of `block` (up to 8) are plain bytes, as found by
    /// [`Tables::find_plain_bytes`]; 0 if there are none.
    #[inline(always)]
    fn plain_run(&self, block: [u8; 8]) -> usize {
        const TOP: u64 = 0x8080_8080_8080_8080;
        ((!self.plain_bytes(block) & TOP).trailing_zeros() / 8) as usize
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
        // `colored_units_into` switches to `hex_rest` only after a first byte.
        debug_assert!(unit.len > 1 || hex_first == hex_rest);
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
        let mut marks = [b' '; 16];
        if let UnitKind::Error(kind) = unit.kind {
            // The reference printer's marks for a span of this unit, spaces after them.
            let mut marker = super::Marks::new(unit.len as usize);
            let span = ErrorSpan {
                col: 0,
                len: unit.len as usize,
                kind,
                head: true,
            };
            marker.mark(&p.palette, &span);
            marks.copy_from_slice(&marker.line.bytes[..16]);
        }
        UnitCells {
            hex_first: shown(hex_first),
            hex_rest: shown(hex_rest),
            class,
            text,
            error: unit.is_error(),
            kind: unit.error_kind().unwrap_or(ErrorKind::InvalidByte),
            by_value: unit.len > 1 && !unit.is_error(),
            marks,
            kind_bit: unit.error_kind().map_or(0, |kind| 1 << kind.index()),
        }
    }

    /// The class lane of the bytes `part` of a unit, as the reference printer renders their
    /// cells ([`view::role`], [`view::class`]), the pane starting in the style of the first.
    fn render_cut(&mut self, unit: &Unit, bytes: &[u8], part: Range<u8>) -> Run {
        let p = &mut *self.scratch;
        let palette = &p.palette;
        let first = match view::class(unit, part.start) {
            Class::Error(kind) => palette.error_style[kind.index()],
            Class::Lead(_) => {
                let role = view::role(unit, part.start, bytes[part.start as usize]);
                palette.role_style[role as usize]
            }
            Class::Continuation { .. } => palette.role_style[Role::Continuation as usize],
        };
        let first = if p.format.color { first } else { PLAIN };
        p.class.style = first;
        p.class.bytes.reserve(RUN + PUT_SLACK);
        p.hex.bytes.reserve(RUN + PUT_SLACK);
        for k in part {
            let byte = bytes[k as usize];
            p.byte(ByteCell {
                offset: k as u64,
                byte,
                role: view::role(unit, k, byte),
                class: view::class(unit, k),
                unit_start: 0,
                unit_len: unit.len,
                selected: false,
            });
        }
        p.hex.bytes.len = 0;
        p.cells = 0;
        capture(&mut p.class, first)
    }

    /// The glyph and text of the scalar of `n` bytes that `quad` starts with, rendered on
    /// first use.
    #[inline(always)]
    fn scalar(&mut self, quad: [u8; 4], n: usize) -> &Scalar {
        let (set, way) = self.scalar_slot(quad, n);
        &self.scalars[set][way]
    }

    /// Where [`Tables::scalar`] holds the scalar: its set and way. It is looked up by its
    /// bytes as a little-endian `u32`, the bytes after them 0.
    #[inline(always)]
    fn scalar_slot(&mut self, quad: [u8; 4], n: usize) -> (usize, usize) {
        let raw = u32::from_le_bytes(quad) & KEEP[n & 7];
        let hash = raw.wrapping_mul(0x9E37_79B1) >> (32 - SCALAR_SETS.trailing_zeros());
        let set = hash as usize & (SCALAR_SETS - 1);
        if self.scalars[set][0].raw == raw {
            (set, 0)
        } else if self.scalars[set][1].raw == raw {
            (set, 1)
        } else {
            self.fill(set, raw);
            (set, 0)
        }
    }

    /// Renders the scalar whose bytes are `raw` into the first slot of its set, moving
    /// what was there to the second.
    #[cold]
    #[inline(never)]
    fn fill(&mut self, set: usize, raw: u32) {
        // A scalar's bytes decode to it whatever follows them.
        let unit = Dialect::Utf8.decode_at(&raw.to_le_bytes(), 0);
        debug_assert!(!unit.is_error() && unit.len > 1, "{raw:08x}");
        let glyph = view::unit_glyph(&unit);
        let text = self.render_text(glyph, unit.len as usize);
        let ways = &mut self.scalars[set];
        ways[1] = ways[0];
        ways[0] = Scalar {
            raw,
            glyph,
            text,
            ..Scalar::empty()
        };
    }

    /// The text of the unit at `at` starting with `quad` (its shape is
    /// `part`'s) cut by a row's end after `part.span()` bytes: its glyph fitted to them,
    /// rendered by [`Tables::render_text`]. Memoized for a scalar, as a prefix of its
    /// whole text where it is one (checked when first rendered).
    fn cut_text(&mut self, part: &PlainPart, quad: [u8; 4], at: usize) -> Run {
        let span = part.span();
        if !part.by_value {
            let unit = Unit::error(at, part.n as u8, part.kind);
            return self.render_text(view::unit_glyph(&unit), span);
        }
        let (set, way) = self.scalar_slot(quad, part.n);
        let scalar = &mut self.scalars[set][way];
        let s = span & 3;
        let len = scalar.cut_len[s];
        if len != 0 && len != NOT_A_PREFIX {
            return Run {
                last: scalar.cut_last[s],
                len,
                ..scalar.text
            };
        }
        let (glyph, whole) = (scalar.glyph, scalar.text);
        let run = self.render_text(glyph, span);
        if len == 0 {
            let used = run.len as usize;
            let prefix = run.first == whole.first
                && used <= whole.len as usize
                && run.bytes[..used] == whole.bytes[..used];
            let scalar = &mut self.scalars[set][way];
            scalar.cut_len[s] = if prefix { run.len } else { NOT_A_PREFIX };
            scalar.cut_last[s] = run.last;
        }
        run
    }

    /// The text pane of a whole unit whose glyph is `glyph`, as [`Tables::render`] renders
    /// it: the reference printer's `text` with the run [`CellSink::unit`] hands it. The
    /// other panes of a scalar depend only on its shape, so a miss renders this one only.
    fn render_text(&mut self, glyph: InlineGlyph, len: usize) -> Run {
        let p = &mut *self.scratch;
        let glyph = glyph.fit(len);
        let first = if p.format.color {
            p.palette.glyph_style[glyph.class as usize]
        } else {
            PLAIN
        };
        p.text.style = first;
        p.text.bytes.reserve(RUN + PUT_SLACK);
        p.text(TextRun {
            glyph: Some(glyph),
            columns: len,
        });
        capture(&mut p.text, first)
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
/// Compiled for AVX2 (with BMI1/2, LZCNT and POPCNT, which processors with AVX2 have, though
/// a virtual machine may hide them) too and chosen at run time: most of the work is
/// fixed-size copies of 32 bytes, one instruction each there. Without them it runs the
/// same code, compiled for any x86-64 (slower, the output the same).
#[multiversion::multiversion(targets("x86_64+avx2+bmi1+bmi2+lzcnt+popcnt"))]
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
    let mut scratch = Scratch::new();
    let mut row = start;
    // A unit cut by the window the reader asked for shows its glyph (see `cut`), which the
    // whole rows do not print: its row goes the slow way.
    let reader_cut = at < start && p.first == Some(p.base + start as u64);
    while row < end {
        let row_end = (row + width).min(end);
        // Offsets of more than 8 digits (4 GiB on) are printed by the panes.
        let short_offset = p.base + (row as u64) < 1 << 32;
        let whole = at <= row && !(reader_cut && row == start);
        if whole && row_end == row + width && row + AHEAD <= bytes.len() && short_offset {
            p.end_row();
            // Not inlined, so that its registers are its own; compiled as `print` is.
            #[multiversion::inherit_target]
            #[inline(never)]
            fn rows_of<const COLOR: bool, const W: usize>(
                p: &mut Printer,
                tables: &mut Tables,
                bytes: &[u8],
                at: usize,
                row: usize,
                end: usize,
            ) -> (usize, usize) {
                // (The clone for AVX2, which implies both.)
                #[multiversion::target::target_cfg(all(
                    target_arch = "x86_64",
                    target_feature = "avx2"
                ))]
                #[multiversion::inherit_target]
                fn bits<const W: usize>(row: &[u8; 32], lo: u8) -> RowBits {
                    super::row_bits::of_x86::<W>(row, lo)
                }
                #[multiversion::target::target_cfg(not(all(
                    target_arch = "x86_64",
                    target_feature = "avx2"
                )))]
                #[inline(always)]
                fn bits<const W: usize>(row: &[u8; 32], lo: u8) -> RowBits {
                    RowBits::of::<W>(row, lo)
                }
                let bits = |row: &[u8; 32], lo: u8| bits::<W>(row, lo);
                whole_rows::<COLOR, W>(p, tables, bytes, at, row, end, bits)
            }
            let rows = match (COLOR, width) {
                (false, _) if !tables.plain_fits => None,
                (false, 8) => Some(rows_of::<false, 8>(p, tables, bytes, at, row, end)),
                (false, 16) => Some(rows_of::<false, 16>(p, tables, bytes, at, row, end)),
                (false, 32) => Some(rows_of::<false, 32>(p, tables, bytes, at, row, end)),
                (true, 8) => Some(rows_of::<true, 8>(p, tables, bytes, at, row, end)),
                (true, 16) => Some(rows_of::<true, 16>(p, tables, bytes, at, row, end)),
                (true, 32) => Some(rows_of::<true, 32>(p, tables, bytes, at, row, end)),
                _ => None,
            };
            if let Some((next, next_row)) = rows.filter(|&(_, next_row)| next_row > row) {
                (at, row) = (next, next_row);
                continue;
            }
        }
        p.row(row as u64, row_end - row);
        if !COLOR {
            // Without colour the hex pane does not depend on the units.
            let mut hex = p.hex.bytes.writer(0);
            let cells = &bytes[row..row_end];
            let whole = match cells.len() {
                8 => cells
                    .try_into()
                    .is_ok_and(|r| put_hex_row::<8>(&mut hex, r)),
                16 => cells
                    .try_into()
                    .is_ok_and(|r| put_hex_row::<16>(&mut hex, r)),
                32 => cells
                    .try_into()
                    .is_ok_and(|r| put_hex_row::<32>(&mut hex, r)),
                _ => false,
            };
            if !whole {
                for &b in cells {
                    hex.put(&HEX_SPACE[b as usize], 3);
                }
            }
            p.hex.bytes.len = hex.len;
        }
        loop {
            if let (false, true, Some(Ok(ahead))) = (
                COLOR,
                width <= 32 && tables.plain_fits,
                bytes.get(row..row + AHEAD).map(<&[u8; AHEAD]>::try_from),
            ) {
                scratch.ahead = *ahead;
                at = plain_units(p, tables, &mut scratch, at, row, row_end);
            } else {
                let mut lanes = Lanes::of(p);
                while at < row_end {
                    if let Some(block) = bytes.get(at..at + 8).and_then(|b| b.try_into().ok()) {
                        let k = tables.plain_run(block).min(row_end - at);
                        if k > 0 && at >= row {
                            lanes.plain_run::<COLOR>(tables, block, k);
                            at += k;
                            continue;
                        }
                    }
                    let Some(&[b0, b1, b2, b3]) = bytes.get(at..at + 4) else {
                        break;
                    };
                    let quad = [b0, b1, b2, b3];
                    let shape = tables.shapes[shape_index(&SECOND, quad)];
                    let n = (shape & 7) as usize;
                    if !((at >= row) & (at + n <= row_end)) {
                        break;
                    }
                    let key = (shape >> 3) as usize & (UNITS - 1);
                    lanes.whole::<COLOR>(tables, quad, key, n, at - row);
                    at += n;
                }
                lanes.settle();
            }
            if at >= row_end {
                break;
            }
            // With colour, the cut units are few and the loop above is slower for having
            // this call in it (measured: 2.5% more instructions on random bytes).
            if let (false, Some(&[b0, b1, b2, b3])) = (COLOR, bytes.get(at..at + 4)) {
                let unit_end = cut(p, tables, at, [b0, b1, b2, b3], row..row_end);
                if unit_end > row_end {
                    break; // the rest of it is on the next row
                }
                at = unit_end;
                continue;
            }
            let unit = Dialect::Utf8.decode_at(bytes, at);
            let hex_len = p.hex.bytes.len;
            part(
                p,
                tables,
                bytes,
                &unit,
                at.max(row)..unit.end().min(row_end),
                row,
            );
            if !COLOR {
                p.hex.bytes.len = hex_len; // printed with the row already
            }
            if unit.end() > row_end {
                break; // the rest of it is on the next row
            }
            at = unit.end();
        }
        row = row_end;
    }
}

/// Whole rows of `W` bytes from the row at `row` (its first unit at `at`), as many as
/// there are before `end` with [`AHEAD`] bytes from their start in `bytes`, printed
/// straight into the output by [`plain_row`] or [`colored_row`]; stops early at an offset
/// of more than 8 digits. Returns where the next row and its first unit start. What the
/// rows read and write is on this function's stack ([`Scratch`]), made once for them all.
/// `bits` is [`RowBits::of`] (or its twin in vector registers).
#[inline(always)]
fn whole_rows<const COLOR: bool, const W: usize>(
    p: &mut Printer,
    tables: &mut Tables,
    bytes: &[u8],
    mut at: usize,
    mut row: usize,
    end: usize,
    bits: impl Fn(&[u8; 32], u8) -> RowBits,
) -> (usize, usize) {
    let mut scratch = Scratch::new();
    while row + W <= end && at <= row {
        let Some(Ok(ahead)) = bytes.get(row..row + AHEAD).map(<&[u8; AHEAD]>::try_from) else {
            break;
        };
        scratch.ahead = *ahead;
        let next = if COLOR {
            colored_row::<W>(p, tables, &mut scratch, bytes, at, row)
        } else {
            let first: &[u8; 32] = ahead.first_chunk().unwrap_or(&[0; 32]);
            let bits = bits(first, tables.plain_lo);
            plain_row::<W>(p, tables, &mut scratch, bytes, at, row, &bits)
        };
        let Some(next) = next else {
            break;
        };
        (at, row) = (next, row + W);
    }
    (at, row)
}

/// Bytes from the start of a row that [`plain_units`] looks at: a row of at most 32 and
/// the 3 after it that its last unit may take, read in blocks of 8.
const AHEAD: usize = 64;

/// Bytes of a pane, and of [`super::Marks::line`], that [`plain_units`] indexes: at
/// offsets masked to `PANE_MASK`, so the compiler can see every copy in bounds (the mask
/// changes no offset: a row's panes hold far less).
const PANE_MASK: usize = 4095;
const _: () = assert!(PANE_MASK + 1 + 64 <= PANE_ROOM && 3 * 32 + 32 <= MARKS_ROOM);

/// What [`plain_units_into`] and the whole-row printers read and write, in one place on
/// the stack of [`whole_rows`] (or of [`print()`] for other rows), so that it is addressed
/// from the stack pointer rather than from pointers the loops would have to keep in
/// registers: the row and the bytes after it, the
/// class lane and text of its units (`LANE_MASK + 1` bytes are more than a row of 32 takes,
/// at most 4 bytes each a byte), and its marker line.
struct Scratch {
    ahead: [u8; AHEAD],
    text: [u8; LANE_ROOM],
    marker: [u8; MARKER_ROOM],
    /// With colour: the class lane and text of a row (escapes take more room), and its
    /// error spans.
    colored_class: [u8; COLORED_ROOM],
    colored_text: [u8; COLORED_ROOM],
    spans: [ErrorSpan; 64],
    /// Whether the last row [`plain_units_of`] printed through its pass with the marks had
    /// no error (counting the kinds already on the row before its units): a guess at
    /// whether the next has one, which decides only which pass goes first.
    clean: bool,
}

/// A pane of a row of 32 bytes with colour takes less than `COLORED_MASK + 1` bytes: at
/// most a unit a byte, each with a switch of at most 24 bytes and a run of 32.
const COLORED_MASK: usize = 2047;
const COLORED_ROOM: usize = COLORED_MASK + 1 + 64;

impl Scratch {
    fn new() -> Scratch {
        Scratch {
            ahead: [0; AHEAD],
            text: [0; LANE_ROOM],
            colored_class: [0; COLORED_ROOM],
            colored_text: [0; COLORED_ROOM],
            spans: [super::NO_SPAN; 64],
            marker: [b' '; MARKER_ROOM],
            clean: true,
        }
    }

    /// The shape ([`Tables::shapes`]) of a unit starting at each of the first `len`
    /// columns of the row, as if one did: each independent of the others, so they are
    /// found side by side rather than each waiting for the length of the unit before it
    /// (on random bytes, that wait is what a row takes).
    #[inline(always)]
    fn shapes(&self, tables: &Tables, len: usize) -> [u16; 32] {
        match len {
            ..=8 => self.shapes_of::<8>(tables),
            9..=16 => self.shapes_of::<16>(tables),
            _ => self.shapes_of::<32>(tables),
        }
    }

    /// [`Scratch::shapes`] of the first `W` columns: their [`shape_index`] found byte by
    /// byte in the same steps for all (so that they go side by side in vector registers),
    /// then each looked up.
    #[inline(always)]
    fn shapes_of<const W: usize>(&self, tables: &Tables) -> [u16; 32] {
        const { assert!(W <= 32) };
        let a = &self.ahead;
        let continuation = |b: u8| (b & 0xC0 == 0x80) as u16;
        let mut index = [0u16; W];
        for (k, index) in index.iter_mut().enumerate() {
            // `second_class` without a table.
            let b1 = a[k + 1];
            let class = continuation(b1) * (1 + (b1 >= 0x90) as u16 + (b1 >= 0xA0) as u16);
            *index = (a[k] as u16) << 4
                | class << 2
                | continuation(a[k + 2]) << 1
                | continuation(a[k + 3]);
        }
        let mut shapes = [0; 32];
        for (shape, &index) in shapes.iter_mut().zip(&index) {
            *shape = tables.shapes[index as usize & (SHAPES - 1)];
        }
        shapes
    }
}

const LANE_MASK: usize = 255;
const LANE_ROOM: usize = LANE_MASK + 1 + RUN;
/// The marker line of a row of 32 bytes, and a copy of 16 at its last column.
const MARKER_ROOM: usize = 128;
const _: () = assert!(MARKER_ROOM >= 3 * 31 + 16 && MARKER_ROOM + 32 <= MARKS_ROOM);

/// The kinds of error on a row so far, as [`super::Marks`] keeps them.
#[derive(Clone, Copy)]
struct Kinds {
    seen: u32,
    named: usize,
    order: [u8; 16],
}

/// Whether plain bytes ([`plain_columns`]) have a run of 4: the rows worth copying runs for
/// without colour.
#[inline(always)]
fn has_runs(plain: u32) -> bool {
    plain & plain >> 1 & plain >> 2 & plain >> 3 != 0
}

/// Whether a row has a run of 4 plain bytes within one of its blocks of 8: the rows worth
/// copying runs for with colour, whose runs are copied from a block of 8 at a time (asking
/// [`has_runs`] instead sends more rows of random bytes down the slower loop: measured 3 %
/// slower with colour on random bytes).
#[inline(always)]
fn has_block_runs(tables: &Tables, ahead: &[u8; AHEAD], row_len: usize) -> bool {
    let mut runs = 0;
    for block in ahead.chunks_exact(8).take(row_len.div_ceil(8)) {
        let plain = tables.plain_bytes(block.try_into().unwrap_or([0; 8]));
        runs |= plain & plain >> 8 & plain >> 16 & plain >> 24;
    }
    runs != 0
}

/// The unit at column `i` of the row of `row_len` bytes in `scratch.ahead`, whose shapes
/// are `shapes` ([`Scratch::shapes`]): its first 4 bytes, its shape and its length, or
/// `None` if it crosses the row's end.
#[inline(always)]
fn unit_at(
    scratch: &Scratch,
    shapes: &[u16; 32],
    i: usize,
    row_len: usize,
) -> Option<([u8; 4], u16, usize)> {
    let i5 = i & 31;
    let quad: [u8; 4] = scratch.ahead[i5..i5 + 4].try_into().unwrap_or([0; 4]);
    let shape = shapes[i5];
    let n = (shape & 7) as usize;
    (i + n <= row_len).then_some((quad, shape, n))
}

/// Bit `k` set for each plain byte ([`Tables::find_plain_bytes`]) among the first `len`
/// (at most 32) of `ahead`.
#[inline(always)]
fn plain_columns(tables: &Tables, ahead: &[u8; AHEAD], len: usize) -> u32 {
    let mut plain = 0;
    for (k, block) in ahead
        .chunks_exact(8)
        .take(len.div_ceil(8).min(4))
        .enumerate()
    {
        let top = tables.plain_bytes(block.try_into().unwrap_or([0; 8]));
        // The top bit of byte `j` to bit `j` of the top byte: the product's bytes add
        // distinct bits, so nothing carries.
        let bits = (top >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        plain |= (bits as u32) << (8 * k);
    }
    plain & ((1u64 << len.min(32)) - 1) as u32
}

/// The whole units without colour from column `i` of the row `row` of `row_len` bytes
/// (the bytes in `scratch.ahead`, its plain bytes `plain` by [`plain_columns`]), until one
/// crosses the row's end: the class lane into `class` at `*cl` (offsets masked to
/// `MASK`), the text into `scratch.text` at `*tl`, and with `ERRORS` the marks into
/// `scratch.marker` and the kinds into `kinds`. With `RUNS`, a run of plain bytes is
/// copied 16 at a time. Returns where it stopped and the bits of the kinds of error met
/// ([`ErrorKind::index`]; with `ERRORS`, those already in `kinds` too).
#[allow(clippy::too_many_arguments)] // inlined into its caller
#[inline(always)]
fn plain_units_into<const RUNS: bool, const ERRORS: bool, const N: usize, const MASK: usize>(
    tables: &mut Tables,
    scratch: &mut Scratch,
    mut i: usize,
    row_len: usize,
    class: &mut [u8; N],
    (cl, tl): (&mut usize, &mut usize),
    kinds: &mut Kinds,
    plain: u32,
) -> (usize, u32) {
    let (mut c, mut t) = (*cl, *tl);
    let Kinds {
        mut seen,
        named: _,
        mut order,
    } = *kinds;
    // Each kind is named once, when first seen: `named` counts the bits of `seen`.
    debug_assert_eq!(kinds.named, seen.count_ones() as usize);
    let mut errors = 0;
    let shapes = scratch.shapes(tables, row_len);
    while i < row_len {
        let i5 = i & 31;
        if RUNS {
            // Bits of `plain` past the row are clear, so the run ends on it.
            let k = (!(plain >> i5)).trailing_zeros() as usize;
            if k > 0 {
                let k = k.min(16);
                class[c & MASK..][..16].copy_from_slice(&tables.plain_class);
                let text = &scratch.ahead[i5..][..16];
                scratch.text[t & LANE_MASK..][..16].copy_from_slice(text);
                (c, t, i) = (c + k, t + k, i + k);
                continue;
            }
        }
        let Some((quad, shape, n)) = unit_at(scratch, &shapes, i, row_len) else {
            break;
        };
        let cells = &tables.plain[(shape >> 3) as usize & (UNITS - 1)];
        class[c & MASK..][..16].copy_from_slice(&cells.class);
        c += cells.class_len as usize;
        let bit = cells.kind_bit;
        if ERRORS {
            // Without a branch: on random bytes, every other unit is an error.
            scratch.marker[3 * i5..][..16].copy_from_slice(&cells.marks);
            // Overwritten by the next kind seen, unless this one is new.
            order[seen.count_ones() as usize & 15] = cells.kind;
            seen |= bit;
        } else {
            errors |= bit;
        }
        // Only a multi-byte scalar's text depends on more than its shape.
        if cells.by_value {
            let run = &tables.scalar(quad, n).text;
            scratch.text[t & LANE_MASK..][..RUN].copy_from_slice(&run.bytes);
            t += run.len as usize;
        } else {
            scratch.text[t & LANE_MASK..][..16].copy_from_slice(&cells.text);
            t += cells.text_len as usize;
        }
        i += n;
    }
    // The masks change no offset: a broken size budget fails here, in tests.
    debug_assert!(c <= MASK && t <= LANE_MASK, "{c} {t}");
    (*cl, *tl) = (c, t);
    if ERRORS {
        let named = seen.count_ones() as usize;
        *kinds = Kinds { seen, named, order };
        errors = seen;
    }
    (i, errors)
}

/// [`plain_units_into`] in the variants the row takes: with `RUNS` if it has a run of 4
/// plain bytes; and if the row before had no error unit, first without `ERRORS`, then
/// again with it only if this row has one after all (the second pass writes the same
/// bytes to the same places, and the marks and kinds besides). Random bytes have errors
/// on every row, text on few.
#[allow(clippy::too_many_arguments)] // inlined into its two callers
#[inline(always)]
fn plain_units_of<const N: usize, const MASK: usize>(
    tables: &mut Tables,
    scratch: &mut Scratch,
    i: usize,
    row_len: usize,
    class: &mut [u8; N],
    (cl, tl): (&mut usize, &mut usize),
    kinds: &mut Kinds,
    plain: u32,
) -> usize {
    // A run of plain bytes ends on the row (`plain_units_into` takes it as is).
    debug_assert_eq!(u64::from(plain) >> row_len, 0, "{plain:b} {row_len}");
    let runs = has_runs(plain);
    if scratch.clean {
        let (mut c, mut t) = (*cl, *tl);
        let lens = (&mut c, &mut t);
        let (end, errors) = if runs {
            plain_units_into::<true, false, N, MASK>(
                tables, scratch, i, row_len, class, lens, kinds, plain,
            )
        } else {
            plain_units_into::<false, false, N, MASK>(
                tables, scratch, i, row_len, class, lens, kinds, plain,
            )
        };
        if errors == 0 {
            (*cl, *tl) = (c, t);
            return end;
        }
    }
    let lens = (cl, tl);
    let (end, errors) = if runs {
        plain_units_into::<true, true, N, MASK>(
            tables, scratch, i, row_len, class, lens, kinds, plain,
        )
    } else {
        plain_units_into::<false, true, N, MASK>(
            tables, scratch, i, row_len, class, lens, kinds, plain,
        )
    };
    scratch.clean = errors == 0;
    end
}

/// Without colour, the units of the row at `row` from `at` (on the row) into the panes,
/// until one crosses the row's end, through [`plain_units_into`]; returns where it stopped.
#[inline(always)]
fn plain_units(
    p: &mut Printer,
    tables: &mut Tables,
    scratch: &mut Scratch,
    at: usize,
    row: usize,
    row_end: usize,
) -> usize {
    let row_len = row_end - row;
    let (Some(i), Some(class), Some(marks)) = (
        at.checked_sub(row),
        fixed::<{ PANE_MASK + 65 }>(&mut p.class.bytes.bytes),
        fixed::<MARKER_ROOM>(&mut p.marks.line.bytes),
    ) else {
        return at;
    };
    scratch.marker = *marks;
    let (mut cl, mut tl) = (p.class.bytes.len, 0);
    let mut kinds = Kinds {
        seen: p.marks.seen,
        named: p.marks.named,
        order: p.marks.order,
    };
    let lens = (&mut cl, &mut tl);
    let plain = plain_columns(tables, &scratch.ahead, row_len);
    let i = plain_units_of::<{ PANE_MASK + 65 }, PANE_MASK>(
        tables, scratch, i, row_len, class, lens, &mut kinds, plain,
    );
    *marks = scratch.marker;
    let mut w = p.text.bytes.writer(0);
    w.put::<LANE_ROOM>(&scratch.text, tl);
    p.text.bytes.len = w.len;
    p.class.bytes.len = cl;
    (p.marks.seen, p.marks.named, p.marks.order) = (kinds.seen, kinds.named, kinds.order);
    p.cells = i;
    row + i
}

/// A whole row of `W` bytes without colour, the unit at `at` its first (`at` is before the
/// row if that unit started on the row above), the row's bytes and 3 more in
/// `scratch.ahead`: printed straight into the output with its marker line, what the panes
/// and [`Printer::end_row`] print for it, in fewer steps (each a copy of a size known when
/// compiled, to an offset masked into a fixed-size array). The parts of units cut by the
/// row's edges are printed as [`cut`] prints them. Returns where the next row's first unit
/// starts (before it, if it is cut), or `None` (and nothing printed) if the offset has
/// more than 8 digits.
#[inline(always)]
fn plain_row<const W: usize>(
    p: &mut Printer,
    tables: &mut Tables,
    scratch: &mut Scratch,
    bytes: &[u8],
    at: usize,
    row: usize,
    bits: &RowBits,
) -> Option<usize> {
    const { assert!(W <= 32 && W >= 4) };
    let offset = u32::try_from(p.base + row as u64).ok()?;
    let start = p.out.len;
    let line = fixed::<ROW_ROOM>(&mut p.out.writer(ROW_ROOM).bytes[start..])?;
    let [a, b, c, d] = offset.to_be_bytes().map(|byte| super::HEX[byte as usize]);
    line[..16].copy_from_slice(&[
        a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1], b' ', b' ', 0, 0, 0, 0, 0, 0,
    ]);
    line[10..][..96].copy_from_slice(&bits.hex);
    line[10 + 3 * W] = b' ';
    scratch.marker = [b' '; MARKER_ROOM];
    let (mut cl, mut tl) = (11 + 3 * W, 0);
    let mut kinds = Kinds {
        seen: 0,
        named: 0,
        order: [0; 16],
    };
    let mut i = 0;
    if at < row {
        // The rest of a unit from the row above: at most 3 bytes.
        let quad: [u8; 4] = bytes.get(at..at + 4)?.try_into().ok()?;
        let part = PlainPart::of(tables, quad, row - at, W + row - at);
        part.print(&p.palette, tables, line, &mut cl, scratch, 0, &mut kinds);
        let (fillers, len) = &p.palette.filler_runs[part.span() % 7];
        scratch.text[tl & LANE_MASK..][..16].copy_from_slice(fillers);
        tl += len;
        i = part.span();
    }
    let lens = (&mut cl, &mut tl);
    let plain = bits.plain;
    i = plain_units_of::<ROW_ROOM, ROW_MASK>(tables, scratch, i, W, line, lens, &mut kinds, plain);
    let mut next = row + W;
    if i < W {
        // A unit crossing the row's end: its first bytes, and its glyph fitted to them.
        let quad: [u8; 4] = scratch.ahead[i..i + 4].try_into().ok()?;
        let part = PlainPart::of(tables, quad, 0, W - i);
        part.print(&p.palette, tables, line, &mut cl, scratch, i, &mut kinds);
        let run = tables.cut_text(&part, quad, row + i);
        scratch.text[tl & LANE_MASK..][..RUN].copy_from_slice(&run.bytes);
        tl += run.len as usize;
        // The rest of it is printed with the next row, as the unit this row ends with.
        next = row + i;
    }
    let mut at = cl;
    put_at::<2>(line, at, b"  ");
    at += 2;
    if tl <= 64 {
        put_at::<64>(line, at, scratch.text[..64].try_into().unwrap_or(&[0; 64]));
    } else {
        put_at::<LANE_ROOM>(line, at, &scratch.text);
    }
    at += tl;
    put_at::<1>(line, at, b"\n");
    at += 1;
    let marker_at = start + at;
    if kinds.seen != 0 {
        put_at::<16>(line, at, &[b' '; 16]);
        at += 10;
        put_at::<MARKER_ROOM>(line, at, &scratch.marker);
        at += 3 * W + 1;
        at = put_names_at(&p.palette, line, at, &kinds.order, kinds.named);
    }
    debug_assert!(at <= ROW_MASK, "a row of {at} bytes");
    p.out.len += at;
    if kinds.seen != 0 {
        p.note_marker_line(marker_at, row as u64);
    }
    Some(next)
}

/// The part `k0..k1` of a unit cut by an edge of a row, without colour.
struct PlainPart {
    n: usize,
    key: usize,
    k0: usize,
    k1: usize,
    error: bool,
    kind: ErrorKind,
    by_value: bool,
}

impl PlainPart {
    /// The part from `k0` of the unit starting with `quad`, up to `room` bytes of it.
    #[inline(always)]
    fn of(tables: &Tables, quad: [u8; 4], k0: usize, room: usize) -> PlainPart {
        let shape = tables.shape(quad);
        let n = (shape & 7) as usize;
        let key = (shape >> 3) as usize & (UNITS - 1);
        let cells = &tables.units[key];
        PlainPart {
            n,
            key,
            k0,
            k1: n.min(room),
            error: cells.error,
            kind: cells.kind,
            by_value: cells.by_value,
        }
    }

    fn span(&self) -> usize {
        self.k1 - self.k0
    }

    /// Its class lane into `line` at `*cl`, and its marks at column `col` (if it is an
    /// error), as [`cut`] prints them.
    #[allow(clippy::too_many_arguments)] // inlined into its caller
    #[inline(always)]
    fn print(
        &self,
        palette: &Palette,
        tables: &Tables,
        line: &mut [u8; ROW_ROOM],
        cl: &mut usize,
        scratch: &mut Scratch,
        col: usize,
        kinds: &mut Kinds,
    ) {
        let run = &tables.cuts[self.key.wrapping_sub(ASCII) % (UNITS - ASCII)]
            [(CUTS * self.k0 + self.k1) % (CUTS * CUTS)];
        put_at::<RUN>(line, *cl, &run.bytes);
        *cl += run.len as usize;
        if self.error {
            let span = self.span();
            let marks = 2 * self.kind.index() + (self.k0 == 0) as usize;
            let chunk = &palette.plain_marks[marks * super::MARKED_LENS + span];
            scratch.marker[(3 * col).min(MARKER_ROOM - 32)..][..32].copy_from_slice(chunk);
            let bit = 1 << self.kind.index();
            kinds.order[kinds.named & 15] = self.kind.index() as u8;
            kinds.named += (kinds.seen & bit == 0) as usize;
            kinds.seen |= bit;
        }
    }
}

/// What [`colored_units_into`] keeps while printing the units of a row: where each pane
/// is and the style it is in.
struct ColoredLanes {
    hex: usize,
    class: usize,
    text: usize,
    styles: [StyleId; 3],
    spans: usize,
}

/// [`plain_units_into`] with colour: the hex digits into `hex` at `lanes.hex` (offsets
/// masked to `MASK`), the class lane and text into the scratch, each pane switching style
/// as [`Lanes::whole`] and [`Lanes::plain_run`] switch it; error spans into
/// `scratch.spans`. Returns where it stopped.
#[allow(clippy::too_many_arguments)] // inlined into its caller
#[inline(always)]
fn colored_units_into<const RUNS: bool, const N: usize, const MASK: usize>(
    tables: &mut Tables,
    scratch: &mut Scratch,
    mut i: usize,
    row_len: usize,
    hex: &mut [u8; N],
    lanes: &mut ColoredLanes,
) -> usize {
    const C: usize = COLORED_MASK;
    let ColoredLanes {
        hex: mut h,
        class: mut c,
        text: mut t,
        styles: [mut hs, mut cs, mut ts],
        spans: mut count,
    } = *lanes;
    let shapes = scratch.shapes(tables, row_len);
    while i < row_len {
        let i5 = i & 31;
        if RUNS {
            let block: [u8; 8] = scratch.ahead[i5..i5 + 8].try_into().unwrap_or([0; 8]);
            let k = tables.plain_run(block).min(row_len - i);
            if k > 0 {
                let [hex_style, class_style, text_style] = tables.plain_styles;
                tables.switch::<N, MASK>(hex, &mut h, &mut hs, hex_style);
                for (j, &b) in block.iter().enumerate() {
                    hex[(h + 3 * j) & MASK..][..4].copy_from_slice(&HEX_SPACE[b as usize]);
                }
                h += 3 * k;
                let class = &mut scratch.colored_class;
                tables.switch::<COLORED_ROOM, C>(class, &mut c, &mut cs, class_style);
                class[c & C..][..8].copy_from_slice(tables.plain_class8());
                c += k;
                let text = &mut scratch.colored_text;
                tables.switch::<COLORED_ROOM, C>(text, &mut t, &mut ts, text_style);
                text[t & C..][..8].copy_from_slice(&block);
                t += k;
                i += k;
                continue;
            }
        }
        let Some((quad, shape, n)) = unit_at(scratch, &shapes, i, row_len) else {
            break;
        };
        let cells = &tables.units[(shape >> 3) as usize & (UNITS - 1)];
        let (hex_first, hex_rest) = (cells.hex_first, cells.hex_rest);
        tables.switch::<N, MASK>(hex, &mut h, &mut hs, hex_first);
        hex[h & MASK..][..4].copy_from_slice(&HEX_SPACE[quad[0] as usize]);
        h += 3;
        if n > 1 {
            // A unit of one byte has one style (`hex_rest` is `hex_first`).
            tables.switch::<N, MASK>(hex, &mut h, &mut hs, hex_rest);
            let [h1, h2, h3] = [quad[1], quad[2], quad[3]].map(|b| HEX_SPACE[b as usize]);
            hex[h & MASK..][..12].copy_from_slice(&[
                h1[0], h1[1], b' ', h2[0], h2[1], b' ', h3[0], h3[1], b' ', 0, 0, 0,
            ]);
            h += 3 * (n - 1);
        }
        let class = &mut scratch.colored_class;
        tables.switch::<COLORED_ROOM, C>(class, &mut c, &mut cs, cells.class.first);
        class[c & C..][..RUN].copy_from_slice(&cells.class.bytes);
        c += cells.class.len as usize;
        cs = cells.class.last;
        scratch.spans[count & 63] = ErrorSpan {
            col: i,
            len: n,
            kind: cells.kind,
            head: true,
        };
        count += cells.error as usize;
        let run = if cells.by_value {
            tables.scalar(quad, n).text
        } else {
            cells.text
        };
        let text = &mut scratch.colored_text;
        tables.switch::<COLORED_ROOM, C>(text, &mut t, &mut ts, run.first);
        text[t & C..][..RUN].copy_from_slice(&run.bytes);
        t += run.len as usize;
        ts = run.last;
        i += n;
    }
    // The masks change no offset: a broken size budget fails here, in tests.
    debug_assert!(h <= MASK && c <= C && t <= C, "{h} {c} {t}");
    *lanes = ColoredLanes {
        hex: h,
        class: c,
        text: t,
        styles: [hs, cs, ts],
        spans: count,
    };
    i
}

/// [`plain_row`] with colour: the row line straight into the output as
/// [`Printer::end_row`] prints it, then the marker line as [`Printer::fast_marker_line`]
/// prints it from the row's spans ([`colored_marker_line`]). Returns what [`plain_row`]
/// returns.
#[inline(always)]
fn colored_row<const W: usize>(
    p: &mut Printer,
    tables: &mut Tables,
    scratch: &mut Scratch,
    bytes: &[u8],
    at: usize,
    row: usize,
) -> Option<usize> {
    const { assert!(W <= 32 && W >= 4) };
    const M: usize = COLORED_ROW_MASK;
    let offset = u32::try_from(p.base + row as u64).ok()?;
    let start = p.out.len;
    let line = fixed::<COLORED_ROW_ROOM>(&mut p.out.writer(COLORED_ROW_ROOM).bytes[start..])?;
    let palette = &p.palette;
    let unit_at = at;
    let mut at = 0;
    let mut style = PLAIN;
    tables.switch::<COLORED_ROW_ROOM, M>(line, &mut at, &mut style, super::DIM);
    let [a, b, c, d] = offset.to_be_bytes().map(|byte| super::HEX[byte as usize]);
    line[at & M..][..8].copy_from_slice(&[a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1]]);
    at += 8;
    tables.switch::<COLORED_ROW_ROOM, M>(line, &mut at, &mut style, PLAIN);
    line[at & M..][..2].copy_from_slice(b"  ");
    at += 2;
    let mut lanes = ColoredLanes {
        hex: at,
        class: 0,
        text: 0,
        styles: [PLAIN; 3],
        spans: 0,
    };
    let mut i = 0;
    if unit_at < row {
        // The rest of a unit from the row above: at most 3 bytes, and fillers.
        let quad: [u8; 4] = bytes.get(unit_at..unit_at + 4)?.try_into().ok()?;
        let part = PlainPart::of(tables, quad, row - unit_at, W + row - unit_at);
        colored_part(tables, line, scratch, &mut lanes, &part, quad, 0);
        let text = &mut scratch.colored_text;
        let [_, _, ts] = &mut lanes.styles;
        let dim = palette.alias[super::DIM as usize];
        tables.switch::<COLORED_ROOM, COLORED_MASK>(text, &mut lanes.text, ts, dim);
        let (fillers, len) = &palette.filler_runs[part.span() % 7];
        text[lanes.text & COLORED_MASK..][..16].copy_from_slice(fillers);
        lanes.text += len;
        i = part.span();
    }
    i = if has_block_runs(tables, &scratch.ahead, W) {
        colored_units_into::<true, COLORED_ROW_ROOM, M>(tables, scratch, i, W, line, &mut lanes)
    } else {
        colored_units_into::<false, COLORED_ROW_ROOM, M>(tables, scratch, i, W, line, &mut lanes)
    };
    let mut next = row + W;
    if i < W {
        // A unit crossing the row's end: its first bytes, and its glyph fitted to them.
        let quad: [u8; 4] = scratch.ahead[i..i + 4].try_into().ok()?;
        let part = PlainPart::of(tables, quad, 0, W - i);
        colored_part(tables, line, scratch, &mut lanes, &part, quad, i);
        let run = tables.cut_text(&part, quad, row + i);
        let text = &mut scratch.colored_text;
        let [_, _, ts] = &mut lanes.styles;
        tables.switch::<COLORED_ROOM, COLORED_MASK>(text, &mut lanes.text, ts, run.first);
        text[lanes.text & COLORED_MASK..][..RUN].copy_from_slice(&run.bytes);
        lanes.text += run.len as usize;
        *ts = run.last;
        // The rest of it is printed with the next row, as the unit this row ends with.
        next = row + i;
    }
    let [mut hs, mut cs, mut ts] = lanes.styles;
    let mut at = lanes.hex;
    tables.switch::<COLORED_ROW_ROOM, M>(line, &mut at, &mut hs, PLAIN);
    line[at & M] = b' ';
    at += 1;
    let (class, text) = (&mut scratch.colored_class, &mut scratch.colored_text);
    let mut c = lanes.class;
    tables.switch::<COLORED_ROOM, COLORED_MASK>(class, &mut c, &mut cs, PLAIN);
    let mut t = lanes.text;
    tables.switch::<COLORED_ROOM, COLORED_MASK>(text, &mut t, &mut ts, PLAIN);
    for (lane, len, gap) in [(&*class, c, 2), (&*text, t, 0)] {
        for k in 0..len.div_ceil(64) {
            let chunk = &lane[(64 * k) & COLORED_MASK..][..64];
            line[(at + 64 * k) & M..][..64].copy_from_slice(chunk);
        }
        at += len;
        line[at & M..][..2].copy_from_slice(b"  ");
        at += gap;
    }
    line[at & M] = b'\n';
    at += 1;
    let marker_at = start + at;
    if lanes.spans > 0 {
        let spans = &scratch.spans[..lanes.spans.min(W)];
        at = colored_marker_line::<W>(palette, tables, line, at, spans);
    }
    debug_assert!(at <= M, "a row of {at} bytes");
    p.out.len += at;
    if lanes.spans > 0 {
        p.note_marker_line(marker_at, row as u64);
    }
    Some(next)
}

/// The hex digits, class lane and error span of the part of a unit cut by an edge of a
/// row with colour, at column `col`, as [`part`] prints them with the reference cell
/// methods: each byte in its role's style (the lead's, or the others'), the class lane as
/// [`Tables::cuts`] holds it.
#[inline(never)]
fn colored_part(
    tables: &Tables,
    line: &mut [u8; COLORED_ROW_ROOM],
    scratch: &mut Scratch,
    lanes: &mut ColoredLanes,
    part: &PlainPart,
    quad: [u8; 4],
    col: usize,
) {
    const M: usize = COLORED_ROW_MASK;
    let cells = &tables.units[part.key];
    if part.error {
        scratch.spans[lanes.spans % 64] = ErrorSpan {
            col,
            len: part.span(),
            kind: part.kind,
            head: part.k0 == 0,
        };
        lanes.spans += 1;
    }
    let [hs, cs, _] = &mut lanes.styles;
    for k in part.k0..part.k1 {
        let role = if k == 0 {
            cells.hex_first
        } else {
            cells.hex_rest
        };
        tables.switch::<COLORED_ROW_ROOM, M>(line, &mut lanes.hex, hs, role);
        line[lanes.hex & M..][..4].copy_from_slice(&HEX_SPACE[quad[k % 4] as usize]);
        lanes.hex += 3;
    }
    let run = &tables.cuts[part.key.wrapping_sub(ASCII) % (UNITS - ASCII)]
        [(CUTS * part.k0 + part.k1) % (CUTS * CUTS)];
    let class = &mut scratch.colored_class;
    tables.switch::<COLORED_ROOM, COLORED_MASK>(class, &mut lanes.class, cs, run.first);
    class[lanes.class & COLORED_MASK..][..RUN].copy_from_slice(&run.bytes);
    lanes.class += run.len as usize;
    *cs = run.last;
}

/// The marker line of a row of `W` bytes with colour and these spans, at `at` of `line`
/// (the offset had 8 digits): what [`Printer::fast_marker_line`] prints, each piece a copy
/// of a size known when compiled. Returns the end of the line.
#[inline(always)]
fn colored_marker_line<const W: usize>(
    palette: &Palette,
    tables: &Tables,
    line: &mut [u8; COLORED_ROW_ROOM],
    mut at: usize,
    spans: &[ErrorSpan],
) -> usize {
    const M: usize = COLORED_ROW_MASK;
    // A gap of spaces: at most the hex pane, `3 * W + 1` columns.
    let gap = |line: &mut [u8; COLORED_ROW_ROOM], at: usize| {
        if W <= 16 {
            line[at & M..][..64].copy_from_slice(&[b' '; 64]);
        } else {
            line[at & M..][..128].copy_from_slice(&[b' '; 128]);
        }
    };
    line[at & M..][..16].copy_from_slice(&[b' '; 16]);
    at += 10;
    let (mut column, mut style) = (0, PLAIN);
    let (mut named, mut order, mut kinds) = (0u32, [0u8; 16], 0);
    for span in spans {
        let col = 3 * span.col;
        gap(line, at);
        at += col - column;
        let kind = span.kind.index();
        tables.switch::<COLORED_ROW_ROOM, M>(line, &mut at, &mut style, palette.marker_style[kind]);
        let marks = 3 * span.len - 1;
        line[at & M..][..32].copy_from_slice(&palette.marks[(2 * kind + span.head as usize) % 18]);
        at += marks.min(32);
        column = col + marks;
        let bit = 1 << kind;
        order[kinds & 15] = kind as u8;
        kinds += (named & bit == 0) as usize;
        named |= bit;
    }
    tables.switch::<COLORED_ROW_ROOM, M>(line, &mut at, &mut style, PLAIN);
    gap(line, at);
    at += 3 * W + 1 - column;
    for (k, &kind) in order[..kinds.min(16)].iter().enumerate() {
        let kind = kind as usize % 9;
        if k > 0 {
            tables.switch::<COLORED_ROW_ROOM, M>(line, &mut at, &mut style, PLAIN);
            line[at & M..][..2].copy_from_slice(b", ");
            at += 2;
        }
        tables.switch::<COLORED_ROW_ROOM, M>(line, &mut at, &mut style, palette.marker_style[kind]);
        let (name, len) = &palette.names[kind];
        line[at & M..][..32].copy_from_slice(name);
        at += len;
    }
    tables.switch::<COLORED_ROW_ROOM, M>(line, &mut at, &mut style, PLAIN);
    line[at & M] = b'\n';
    at + 1
}

/// What [`colored_row`] writes into: a row of 32 bytes with colour takes less than
/// `COLORED_ROW_MASK + 1` bytes (escapes of at most 24 bytes and the panes), and the last
/// copy at most 64 more.
const COLORED_ROW_MASK: usize = 8191;
const COLORED_ROW_ROOM: usize = COLORED_ROW_MASK + 1 + 64;

/// The first `N` bytes of `buf` as an array, if it has them.
#[inline(always)]
fn fixed<const N: usize>(buf: &mut [u8]) -> Option<&mut [u8; N]> {
    buf.get_mut(..N)?.try_into().ok()
}

/// The panes of the current row, borrowed from the printer while units are printed from
/// the tables: lengths and styles in locals, so nothing is reloaded between writes.
struct Lanes<'a> {
    palette: &'a Palette,
    hex: Writer<'a>,
    class: Writer<'a>,
    text: Writer<'a>,
    styles: [StyleId; 3],
    errors: &'a mut [ErrorSpan],
    error_count: usize,
    cells: usize,
    /// Without colour, the marker line and the kinds on it ([`super::Marks`]).
    marker: &'a mut [u8],
    seen: u32,
    order: [u8; 16],
    named: usize,
    /// Where the state goes back to.
    back: [&'a mut usize; 3],
    back_styles: [&'a mut StyleId; 3],
    back_counts: [&'a mut usize; 2],
    back_marks: (&'a mut u32, &'a mut [u8; 16], &'a mut usize),
}

impl<'a> Lanes<'a> {
    #[inline(always)]
    fn of(p: &'a mut Printer) -> Lanes<'a> {
        let styles = [p.hex.style, p.class.style, p.text.style];
        let (hex_len, class_len, text_len) = (p.hex.bytes.len, p.class.bytes.len, p.text.bytes.len);
        Lanes {
            palette: &p.palette,
            hex: Writer {
                bytes: &mut p.hex.bytes.bytes[..],
                len: hex_len,
            },
            class: Writer {
                bytes: &mut p.class.bytes.bytes[..],
                len: class_len,
            },
            text: Writer {
                bytes: &mut p.text.bytes.bytes[..],
                len: text_len,
            },
            styles,
            error_count: p.error_count,
            cells: p.cells,
            errors: &mut p.errors[..],
            marker: &mut p.marks.line.bytes[..],
            seen: p.marks.seen,
            order: p.marks.order,
            named: p.marks.named,
            back_marks: (&mut p.marks.seen, &mut p.marks.order, &mut p.marks.named),
            back: [
                &mut p.hex.bytes.len,
                &mut p.class.bytes.len,
                &mut p.text.bytes.len,
            ],
            back_styles: [&mut p.hex.style, &mut p.class.style, &mut p.text.style],
            back_counts: [&mut p.error_count, &mut p.cells],
        }
    }

    /// Hands the state back to the printer.
    #[inline(always)]
    fn settle(self) {
        let [hex, class, text] = self.back;
        (*hex, *class, *text) = (self.hex.len, self.class.len, self.text.len);
        let [a, b, c] = self.back_styles;
        (*a, *b, *c) = (self.styles[0], self.styles[1], self.styles[2]);
        let [errors, cells] = self.back_counts;
        (*errors, *cells) = (self.error_count, self.cells);
        let (seen, order, named) = self.back_marks;
        (*seen, *order, *named) = (self.seen, self.order, self.named);
    }

    /// The first `k` bytes of `block`, plain bytes on the row ([`Tables::plain_run`]): their
    /// text is themselves and their class lane `k` of one byte, each pane in one style.
    #[inline(always)]
    fn plain_run<const COLOR: bool>(&mut self, tables: &Tables, block: [u8; 8], k: usize) {
        let [hex, class, text] = tables.plain_styles;
        if COLOR {
            let palette = self.palette;
            switch(palette, &mut self.hex, &mut self.styles[0], hex);
            // All 8 stored, the first `k` kept.
            let digits = block.map(|b| HEX_SPACE[b as usize]);
            let mut triples = [0u8; 24];
            for (i, d) in digits.iter().enumerate() {
                triples[3 * i..3 * i + 3].copy_from_slice(&d[..3]);
            }
            self.hex.put(&triples, 3 * k);
            switch(palette, &mut self.class, &mut self.styles[1], class);
            switch(palette, &mut self.text, &mut self.styles[2], text);
        }
        self.class.put(tables.plain_class8(), k);
        self.text.put(&block, k);
        self.cells += k;
    }

    /// The unit at `at` (starting with `quad`), whole on the row: its cells from the tables.
    #[allow(clippy::too_many_arguments)] // all in registers; a struct would be rebuilt per unit
    #[inline(always)]
    fn whole<const COLOR: bool>(
        &mut self,
        tables: &mut Tables,
        quad: [u8; 4],
        key: usize,
        n: usize,
        col: usize,
    ) {
        let palette = self.palette;
        let cells = &tables.units[key];
        if COLOR {
            switch(palette, &mut self.hex, &mut self.styles[0], cells.hex_first);
            self.hex.put(&HEX_SPACE[quad[0] as usize], 3);
            switch(palette, &mut self.hex, &mut self.styles[0], cells.hex_rest);
            let [h1, h2, h3] = [quad[1], quad[2], quad[3]].map(|b| HEX_SPACE[b as usize]);
            let rest = [
                h1[0], h1[1], b' ', h2[0], h2[1], b' ', h3[0], h3[1], b' ', 0, 0, 0, 0, 0, 0, 0,
            ];
            self.hex.put(&rest, 3 * (n - 1));
        }
        put_run::<COLOR>(palette, &mut self.class, &mut self.styles[1], &cells.class);
        if COLOR {
            self.errors[self.error_count] = ErrorSpan {
                col,
                len: n,
                kind: cells.kind,
                head: true,
            };
            self.error_count += cells.error as usize;
        } else {
            // Without a branch: on random bytes, every other unit is an error.
            self.marker[3 * col..3 * col + 16].copy_from_slice(&cells.marks);
            let bit = cells.kind_bit;
            self.order[self.named & 15] = cells.kind.index() as u8;
            self.named += (bit & !self.seen != 0) as usize;
            self.seen |= bit;
        }
        self.cells += n;
        // Only a multi-byte scalar's text depends on more than its shape.
        let text = if cells.by_value {
            &tables.scalar(quad, n).text
        } else {
            &tables.units[key].text
        };
        put_run::<COLOR>(palette, &mut self.text, &mut self.styles[2], text);
    }
}

/// The hex digits of a row of `W` bytes (a width `--width` takes), at offsets fixed when
/// compiled: no length to update and no bounds to check between bytes. False, and nothing
/// written, if the writer has no room (it always has: rows reserve it).
#[inline(always)]
fn put_hex_row<const W: usize>(w: &mut Writer, row: &[u8; W]) -> bool {
    let Some(dst) = w.bytes.get_mut(w.len..w.len + 3 * W + 1) else {
        return false;
    };
    for (i, &b) in row.iter().enumerate() {
        dst[3 * i..3 * i + 4].copy_from_slice(&HEX_SPACE[b as usize]);
    }
    w.len += 3 * W;
    true
}

#[inline(always)]
fn put_run<const COLOR: bool>(palette: &Palette, w: &mut Writer, style: &mut StyleId, run: &Run) {
    if COLOR {
        switch(palette, w, style, run.first);
        *style = run.last;
    }
    w.put(&run.bytes, run.len as usize);
}

/// Where the shape of the unit starting with `quad` is in [`Tables::shapes`]: its first
/// byte, the class of its second ([`SECOND`]), and whether its third and fourth
/// are continuation bytes. That is all UTF-8 decoding looks at in 4 bytes (the tests
/// hold the table equal to [`shape_utf8_at`] on every first and second byte).
#[inline(always)]
fn shape_index(second: &[u8; 256], quad: [u8; 4]) -> usize {
    let continuation = |b: u8| (b & 0xC0 == 0x80) as usize;
    ((quad[0] as usize) << 4
        | (second[quad[1] as usize] as usize & 3) << 2
        | continuation(quad[2]) << 1
        | continuation(quad[3]))
        & (SHAPES - 1)
}

/// Where the first byte and the class of the second of `quad` are in
/// [`Tables::short_shapes`]: [`shape_index`] without the third and fourth bytes.
#[inline(always)]
fn short_shape_index(second: &[u8; 256], quad: [u8; 4]) -> usize {
    ((quad[0] as usize) << 2 | (second[quad[1] as usize] as usize & 3)) & (SHORT_SHAPES - 1)
}

/// Entries of [`Tables::short_shapes`], and what one holds when the third or fourth byte
/// or the value is needed.
const SHORT_SHAPES: usize = 256 * 4;

/// Entries of [`Tables::switches`]: two for each style, and more.
const SWITCHES: usize = 128;
const _: () = assert!(2 * super::STYLES <= SWITCHES);
const LOOK_FURTHER: u16 = 1 << 15;

/// The class of a second byte: 0 not a continuation byte, then `80..8F`, `90..9F` and
/// `A0..BF`, the ranges the restricted leads (E0, ED, F0, F4) tell apart.
const fn second_class(b: u8) -> u8 {
    match b {
        0x80..=0x8F => 1,
        0x90..=0x9F => 2,
        0xA0..=0xBF => 3,
        _ => 0,
    }
}

/// A second byte of each class.
const SECOND_OF_CLASS: [u8; 4] = [0x41, 0x80, 0x90, 0xA0];

/// Masks that keep the first `n` bytes of a little-endian `u32`, by `n`.
const KEEP: [u32; 8] = [0, 0xFF, 0xFFFF, 0xFF_FFFF, 0xFFFF_FFFF, 0, 0, 0];

/// The part on the row `row` of the unit at `at`, which starts with `quad` and is cut by
/// an edge of the row, without colour: what [`part`] prints, from the tables (the class
/// lane rendered for that part, and the text through the reference `text` method with the
/// run [`part`] hands it; the hex digits are printed with the row). Returns the unit's end.
#[inline(never)]
fn cut(p: &mut Printer, tables: &mut Tables, at: usize, quad: [u8; 4], row: Range<usize>) -> usize {
    let shape = tables.shapes[shape_index(&SECOND, quad)];
    let n = (shape & 7) as usize;
    let key = (shape >> 3) as usize & (UNITS - 1);
    let (k0, k1) = (row.start.saturating_sub(at), n.min(row.end - at));
    let cells = &tables.units[key];
    let (error, kind, by_value) = (cells.error, cells.kind, cells.by_value);
    if error {
        p.error(ErrorSpan {
            col: at + k0 - row.start,
            len: k1 - k0,
            kind,
            head: k0 == 0,
        });
    }
    let run = &tables.cuts[key.wrapping_sub(ASCII) % (UNITS - ASCII)][CUTS * k0 + k1];
    p.class.bytes.put(&run.bytes, run.len as usize);
    p.cells += k1 - k0;
    let span = k1 - k0;
    let lead_in_view = k0 == 0 || p.first == Some(p.base + row.start as u64);
    let glyph = lead_in_view.then(|| {
        let glyph = if by_value {
            tables.scalar(quad, n).glyph
        } else {
            view::unit_glyph(&Unit::error(at, n as u8, kind))
        };
        glyph.fit(span)
    });
    p.text(TextRun {
        glyph,
        columns: span,
    });
    at + n
}

/// The part `range` of a unit on the row that starts at `row`, printed by the reference
/// cell methods with the cells [`view::visit`] builds for it: the glyph on the row of the
/// lead, fitted to the columns there (from the memo, which holds [`view::unit_glyph`]);
/// fillers on the others.
fn part(
    p: &mut Printer,
    tables: &mut Tables,
    bytes: &[u8],
    unit: &Unit,
    range: Range<usize>,
    row: usize,
) {
    let head = range.start == unit.start;
    let lead_in_view = head || (range.start == row && p.first == Some(p.base + row as u64));
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
    let glyph = lead_in_view.then(|| {
        let glyph = match (unit.kind, bytes.get(unit.start..unit.start + 4)) {
            (UnitKind::Scalar(_), Some(&[b0, b1, b2, b3])) => {
                tables.scalar([b0, b1, b2, b3], unit.len as usize).glyph
            }
            _ => view::unit_glyph(unit),
        };
        glyph.fit(span)
    });
    p.text(TextRun {
        glyph,
        columns: span,
    });
}

#[cfg(test)]
mod tests {
    use super::super::{dump_stream, Format, Printer};
    use super::{plain_columns, shape_index, Scratch, Tables, AHEAD, ASCII, SECOND, SHAPE_LENS};
    use crate::decode::shape_utf8_at;
    use crate::decode::Dialect;
    use proptest::prelude::*;

    /// The shape table answers what the decoding step answers, for every first and second
    /// byte and third and fourth bytes on each side of the continuation range.
    #[test]
    fn shape_table_equals_the_decoding_step() {
        let f = Format {
            dialect: Dialect::Utf8,
            width: 16,
            color: false,
            ascii: false,
            fallback: None,
            escape: None,
        };
        let tables = Tables::new(&f);
        let edges = [0x00, 0x7F, 0x80, 0xBF, 0xC0, 0xFF];
        for b0 in 0..=255u8 {
            for b1 in 0..=255u8 {
                for b2 in edges {
                    for b3 in edges {
                        let quad = [b0, b1, b2, b3];
                        let shape = shape_utf8_at(&quad, 0).unwrap();
                        let entry = tables.shapes[shape_index(&SECOND, quad)];
                        let key = if b0 < 0x80 {
                            b0 as usize
                        } else {
                            ASCII + shape.tag as usize * SHAPE_LENS + shape.len as usize
                        };
                        assert_eq!(entry, (key << 3 | shape.len as usize) as u16, "{quad:02X?}");
                    }
                }
            }
        }
    }

    /// The shapes of a row found for all columns at once are each column's own, by
    /// [`shape_index`], for every byte in every position of the first four and rows of
    /// each length.
    #[test]
    fn shapes_of_a_row_are_each_columns() {
        let tables = Tables::new(&Format {
            dialect: Dialect::Utf8,
            width: 16,
            color: false,
            ascii: false,
            fallback: None,
            escape: None,
        });
        let mut scratch = Scratch::new();
        let mut next = crate::xorshift(0x2545_F491_4F6C_DD1D);
        let some = [
            0x41u8, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC2, 0xE0, 0xED, 0xF0, 0xF4,
        ];
        for round in 0..4000 {
            for byte in scratch.ahead.iter_mut() {
                *byte = some[next() as usize % some.len()];
            }
            if round < 4 * 256 {
                scratch.ahead[round / 256] = round as u8;
            }
            for len in [5, 8, 13, 16, 29, 32] {
                let shapes = scratch.shapes(&tables, len);
                for (k, &shape) in shapes.iter().enumerate().take(len) {
                    let quad = scratch.ahead[k..k + 4].try_into().unwrap();
                    let expected = tables.shapes[shape_index(&SECOND, quad)];
                    assert_eq!(shape, expected, "{:02x?} {k} {len}", &scratch.ahead[..36]);
                }
            }
        }
    }

    /// Without colour, a plain run is the leading bytes in `20..=7E` (their text is
    /// themselves, `--ascii` or not); with colour, in `21..=7E`.
    #[test]
    fn plain_runs_and_columns_are_printable_ascii() {
        let mut next = crate::xorshift(0x9E37_79B9_7F4A_7C15);
        for (color, ascii) in [(false, false), (false, true), (true, false)] {
            let f = Format {
                dialect: Dialect::Utf8,
                width: 16,
                color,
                ascii,
                fallback: None,
                escape: None,
            };
            let tables = Tables::new(&f);
            let mut blocks: Vec<[u8; 8]> = (0..20_000)
                .map(|_| {
                    next()
                        .to_le_bytes()
                        .map(|b| if b & 1 == 0 { b >> 1 } else { b })
                })
                .collect();
            for b in 0..=255u8 {
                for k in 0..8 {
                    let mut block = *b"abcdefgh";
                    block[k] = b;
                    blocks.push(block);
                }
            }
            for &block in &blocks {
                // With colour, a space has a style of its own.
                let lo = if color { 0x21 } else { 0x20 };
                let expected = block
                    .iter()
                    .take_while(|b| (lo..=0x7E).contains(*b))
                    .count();
                assert_eq!(tables.plain_run(block), expected, "{block:02x?} {f:?}");
            }
            // The plain columns of a row: blocks of 8 from the ones above, each row length.
            let bytes: Vec<u8> = blocks.concat();
            for (r, ahead) in bytes.chunks_exact(AHEAD).enumerate().take(3000) {
                let ahead: &[u8; AHEAD] = ahead.try_into().unwrap();
                let len = r % 33;
                let lo = if color { 0x21 } else { 0x20 };
                let expected = (0..len)
                    .filter(|&k| (lo..=0x7E).contains(&ahead[k]))
                    .fold(0u32, |bits, k| bits | 1 << k);
                let got = plain_columns(&tables, ahead, len);
                assert_eq!(got, expected, "{:02x?} {len} {f:?}", &ahead[..len]);
            }
        }
    }

    /// The rows of `bytes[window]` through [`view::visit`] and the reference printer alone.
    fn reference(bytes: &[u8], window: std::ops::Range<u64>, f: &Format) -> String {
        reference_at(bytes, 0, window, f)
    }

    fn fast(bytes: &[u8], window: std::ops::Range<u64>, f: &Format) -> String {
        fast_at(bytes, 0, window, f)
    }

    /// [`reference`] with `bytes` at offset `base` of the input.
    fn reference_at(bytes: &[u8], base: u64, window: std::ops::Range<u64>, f: &Format) -> String {
        let mut printer = Printer::new(f);
        printer.first = Some(base + window.start);
        printer.print(bytes, base, window);
        String::from_utf8(printer.out.as_slice().to_vec()).unwrap()
    }

    /// [`fast`] with `bytes` at offset `base` of the input.
    fn fast_at(bytes: &[u8], base: u64, window: std::ops::Range<u64>, f: &Format) -> String {
        let mut printer = Printer::new_fast(f);
        assert!(printer.fast.is_some());
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

    fn format() -> impl Strategy<Value = Format> {
        (
            prop::sample::select(vec![1usize, 2, 3, 5, 8, 16, 32]),
            any::<bool>(),
            any::<bool>(),
            prop::sample::select(vec!["none", "windows-1252", "iso-8859-2", "shift_jis"]),
        )
            .prop_map(|(width, color, ascii, fallback)| Format {
                dialect: Dialect::Utf8,
                width,
                color,
                ascii,
                fallback: crate::view::fallback::Fallback::from_label(fallback).unwrap(),
                escape: None,
            })
    }

    /// Long inputs, so that most rows are printed whole by `plain_row` (a row and 3 bytes
    /// after it in the input): random bytes, text with runs of ASCII, and both mixed, at
    /// every width `plain_row` takes and with offsets that start rows mid-unit.
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
            for (width, ascii) in [8, 16, 32]
                .into_iter()
                .flat_map(|w| [(w, false), (w, true)])
            {
                let f = Format {
                    dialect: Dialect::Utf8,
                    width,
                    color: round % 2 == 1,
                    ascii,
                    fallback: None,
                    escape: None,
                };
                // Without colour, whole rows need every rendered table entry to fit its
                // fixed-size copies; if they did not, this test would check the slow path.
                assert!(f.color || Tables::new(&f).plain_fits, "{f:?}");
                let a = next() % 40;
                let rows = width as u64 * (1 + next() % 60);
                let len = bytes.len() as u64;
                for window in [0..len, a..len - a, a..a + rows] {
                    assert_eq!(
                        fast(&bytes, window.clone(), &f),
                        reference(&bytes, window.clone(), &f),
                        "{f:?} {window:?}"
                    );
                }
                let base = (1 << 32) - 1000 - a;
                assert_eq!(
                    fast_at(&bytes, base, 0..len, &f),
                    reference_at(&bytes, base, 0..len, &f),
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
