//! The one fast path of `dump`: whole rows of UTF-8 printed straight into the output from
//! cells the reference printer rendered once.
//!
//! The tables ([`Tables`]) hold, rendered by the reference printer's own cell methods:
//! the cells of every ASCII byte and of every unit shape (length, scalar class or error
//! kind, found by [`shape_index`] from what UTF-8's decoding step looks at), the class
//! lane of every part of a shape cut by a row edge, and, memoized on first use, the text
//! of each multi-byte scalar whole and cut by a row's end.
//!
//! [`whole_row`] writes a row line and its marker line into a fixed-size stretch of the
//! output, every copy of a size known when compiled to an offset masked into it (no
//! bounds checks): hex digits and plain bytes found at once ([`RowBits`]), the shape at
//! every column found side by side ([`Scratch::shapes_of`]), units replayed from the
//! tables, runs of plain ASCII copied 16 at a time, error spans noted without a branch.
//! `COLOR` is known when compiled; without it every style switch compiles away. Other rows
//! (the last [`AHEAD`] bytes of a slice, offsets of 4 GiB and more, a first row that starts
//! inside a unit) go to the reference printer.

use std::ops::Range;

use super::row_bits::RowBits;
use super::{chunk, marker_line, put, Format, Pane, Printer, Rows, Span, StyleId, Switches};
use super::{DIM, HEX_SPACE, PLAIN, ROW_ROOM, SLACK};
use crate::decode::{shape_utf8_at, Dialect, ErrorKind, Shape, Unit, UnitKind};
use crate::view::glyph::InlineGlyph;
use crate::view::{self, ByteCell, CellSink, TextRun, WholeUnit};

/// Bytes of a [`Run`]: a glyph of at most 7 bytes, two switches of at most 10, fillers.
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

/// The cells of one kind of whole unit: an ASCII byte, or a shape of anything else (the
/// text of a multi-byte scalar comes from [`Tables::scalars`]).
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

/// Entries of [`Tables::shapes`]: 4 bits of the first byte's 8 more, see [`shape_index`].
const SHAPES: usize = 256 * 16;

/// Sets of the memo of scalars' text: room for the 1920 two-byte scalars.
const SCALAR_SETS: usize = 2048;

/// A scalar's glyph and text, memoized.
#[derive(Clone, Copy)]
struct Scalar {
    raw: u32,
    glyph: InlineGlyph,
    text: Run,
    /// The text of its glyph fitted to the first `s` columns of its unit (cut by a row's
    /// end), by `s`, where that text is a prefix of `text`: its length, or 0 until it is
    /// first needed, or [`NOT_A_PREFIX`]; and the style it leaves the pane in. (Measured:
    /// without it, CJK and Indic text without colour takes 10-20% more CPU time.)
    cut_len: [u8; 4],
    cut_last: [StyleId; 4],
}

/// [`Scalar::cut_len`] of a text that is not a prefix of the whole one's: rendered each time.
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

/// Cut positions 0 to 4: UTF-8 units are at most 4 bytes long.
const CUTS: usize = 5;

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
    /// The palette's switches, kept beside the other tables.
    switches: Switches,
    /// The first plain byte, `7F` if there are none ([`Tables::find_plain_bytes`]); the
    /// class lane of 16 plain bytes; their styles in the hex pane, class lane and text.
    plain_lo: u8,
    plain_class: [u8; 16],
    plain_styles: [StyleId; 3],
    /// The class lane of the part `k0..k1` of a unit cut by a row edge, by the unit's
    /// entry in `units` (less [`ASCII`]) and `CUTS * k0 + k1`, rendered as a whole unit's.
    cuts: Vec<[Run; CUTS * CUTS]>,
    /// `n` fillers, by `n` (a unit continued from the row above covers at most 3 columns).
    fillers: [([u8; 16], usize); 4],
    /// The printer that renders a table entry (with no tables of its own).
    scratch: Box<Printer>,
}

impl Tables {
    pub(super) fn new(format: &Format) -> Tables {
        let scratch = Box::new(Printer::new(format, false, None, u64::MAX));
        let mut tables = Tables {
            units: [UnitCells {
                hex_first: PLAIN,
                hex_rest: PLAIN,
                class: Run::EMPTY,
                text: Run::EMPTY,
                error: false,
                kind: ErrorKind::InvalidByte,
                by_value: false,
            }; UNITS],
            scalars: vec![[Scalar::empty(); 2]; SCALAR_SETS]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("SCALAR_SETS sets")),
            shapes: [0; SHAPES],
            switches: scratch.palette.switches.clone(),
            plain_lo: 0x7F,
            plain_class: [0; 16],
            plain_styles: [PLAIN; 3],
            cuts: vec![[Run::EMPTY; CUTS * CUTS]; UNITS - ASCII],
            fillers: [([0; 16], 0); 4],
            scratch,
        };
        for b in 0..0x80u8 {
            let unit = Unit::scalar(0, 1, b as u32);
            tables.units[b as usize] = tables.render(&unit, &[b]);
        }
        tables.find_plain_bytes();
        // Every shape and every part of it a row edge can cut; the bytes stand for any
        // with that shape (only a one-byte scalar's cells depend on its byte: the ASCII
        // entries above).
        let bytes = [0xC0; SHAPE_LENS];
        for len in 1..=6u8 {
            let units = ErrorKind::ALL
                .map(|kind| Unit::error(0, len, kind))
                .into_iter()
                .chain((len > 1).then(|| Unit::scalar(0, len, 0x80)));
            for unit in units {
                let key = unit_key(0xC0, Shape::of(&unit));
                tables.units[key] = tables.render(&unit, &bytes[..len as usize]);
                for k0 in 0..len.min(CUTS as u8 - 1) {
                    for k1 in k0 + 1..=len.min(CUTS as u8 - 1) {
                        let run = tables.render_cut(&unit, &bytes[..len as usize], k0..k1);
                        tables.cuts[key - ASCII][CUTS * k0 as usize + k1 as usize] = run;
                    }
                }
            }
        }
        // The shape of every unit by what decoding looks at, from the decoding step itself.
        for b0 in 0..=255u8 {
            for &b1 in &SECOND_OF_CLASS {
                for (b2, b3) in [(0x41, 0x41), (0x41, 0x80), (0x80, 0x41), (0x80, 0x80)] {
                    let quad = [b0, b1, b2, b3];
                    let shape = shape_utf8_at(&quad, 0).expect("four bytes");
                    let key = unit_key(b0, shape);
                    tables.shapes[shape_index(quad)] = (key << 3 | shape.len as usize) as u16;
                }
            }
        }
        let palette = &tables.scratch.palette;
        tables.fillers = std::array::from_fn(|n| super::fixed(palette.filler.repeat(n).as_bytes()));
        tables
    }

    /// Finds the plain bytes `lo..=7E` (`lo` 20, or 21 if not all are): those whose rendered
    /// text is the byte itself, class lane one same byte, and styles one for all, so that a
    /// run of them is printed by copying (checked on the rendered entries, not assumed).
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
                && [cells.hex_first, cells.hex_rest] == [last.hex_first; 2]
                && [cells.class.first, cells.class.last] == [class.first; 2]
                && [cells.text.first, cells.text.last] == [text.first; 2]
        };
        let all_plain = |lo: u8| (lo..=0x7E).all(|b| plain(&self.units[b as usize], b));
        if let Some(lo) = [0x20, 0x21].into_iter().find(|&lo| all_plain(lo)) {
            self.plain_lo = lo;
            self.plain_class = [class.bytes[0]; 16];
            self.plain_styles = [last.hex_first, class.first, text.first];
        }
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
        Rows(p, bytes).unit(WholeUnit {
            unit: *unit,
            bytes,
            col: 0,
            glyph,
            selected: false,
        });
        let class = capture(&mut p.class, shown(class_first));
        let text = capture(&mut p.text, shown(text_first));
        p.hex.bytes.clear();
        p.errors.clear();
        p.cells = 0;
        UnitCells {
            hex_first: shown(hex_first),
            hex_rest: shown(hex_rest),
            class,
            text,
            error: unit.is_error(),
            kind: unit.error_kind().unwrap_or(ErrorKind::InvalidByte),
            by_value: unit.len > 1 && !unit.is_error(),
        }
    }

    /// The class lane of the bytes `part` of a unit, as the reference printer renders their
    /// cells ([`view::role`], [`view::class`]), the pane starting in the style of the first.
    fn render_cut(&mut self, unit: &Unit, bytes: &[u8], part: Range<u8>) -> Run {
        let p = &mut *self.scratch;
        let role = view::role(unit, part.start, bytes[part.start as usize]);
        let first = p.palette.class_style(role, view::class(unit, part.start));
        let first = if p.format.color { first } else { PLAIN };
        p.class.style = first;
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
        p.hex.bytes.clear();
        p.cells = 0;
        capture(&mut p.class, first)
    }

    /// Where the memo holds the scalar of `n` bytes that `quad` starts with (rendered on
    /// first use), looked up by its bytes as a little-endian `u32`: its set and way.
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

    /// The text of the unit at `at` starting with `quad` (its shape is `part`'s) cut by a
    /// row's end after `part.span()` bytes: its glyph fitted to them, rendered by
    /// [`Tables::render_text`]. Memoized for a scalar, as a prefix of its whole text where
    /// it is one (checked when first rendered).
    fn cut_text(&mut self, part: &Part, quad: [u8; 4], at: usize) -> Run {
        let (span, cells) = (part.span(), &self.units[part.key]);
        if !cells.by_value {
            let unit = Unit::error(at, part.n as u8, cells.kind);
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
    /// it: the reference printer's `text` with the run [`CellSink::unit`] hands it.
    fn render_text(&mut self, glyph: InlineGlyph, len: usize) -> Run {
        let p = &mut *self.scratch;
        let glyph = glyph.fit(len);
        let first = if p.format.color {
            p.palette.glyph_style[glyph.class as usize]
        } else {
            PLAIN
        };
        p.text.style = first;
        p.text(TextRun {
            glyph: Some(glyph),
            columns: len,
        });
        capture(&mut p.text, first)
    }
}

/// The pane's text as a [`Run`] from the style `first` it had, and the pane emptied.
fn capture(pane: &mut Pane, first: StyleId) -> Run {
    let text = &pane.bytes;
    let mut run = Run {
        first,
        last: pane.style,
        len: text.len().min(RUN) as u8,
        bytes: [0; RUN],
    };
    debug_assert!(text.len() <= RUN, "a run of {} bytes", text.len());
    run.bytes[..run.len as usize].copy_from_slice(&text[..run.len as usize]);
    pane.bytes.clear();
    run
}

/// Where a unit's cells are in [`Tables::units`]: by byte for ASCII (in UTF-8, that
/// one-byte scalar), else by shape.
fn unit_key(first_byte: u8, shape: Shape) -> usize {
    match first_byte {
        0..0x80 => first_byte as usize,
        _ => ASCII + shape.tag as usize * SHAPE_LENS + (shape.len as usize % SHAPE_LENS),
    }
}

/// Prints the rows of `bytes[window]` as the reference printer would, for UTF-8: runs of
/// whole rows by [`whole_row`], every other row by the reference. Also compiled for AVX2
/// (and what comes with it), chosen at run time: copies of 32 bytes are one instruction.
#[multiversion::multiversion(targets("x86_64+avx2+bmi1+bmi2+lzcnt+popcnt"))]
pub(super) fn print<const COLOR: bool>(
    p: &mut Printer,
    tables: &mut Tables,
    bytes: &[u8],
    window: Range<u64>,
) {
    let len = bytes.len();
    let (start, end) = (
        window.start.min(len as u64) as usize,
        window.end.min(len as u64) as usize,
    );
    if start >= end {
        return;
    }
    let width = p.format.width;
    let mut at = Dialect::Utf8.unit_containing(bytes, start).start;
    // A unit cut by the window the reader asked for shows its glyph on its first byte in
    // view, which whole rows do not print: that row goes to the reference.
    let reader_cut = at < start && p.first == Some(p.base + start as u64);
    let mut row = start;
    while row < end {
        let whole = row + width <= end && !(reader_cut && row == start);
        if whole {
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
            let (next, next_row) = match width {
                8 => rows_of::<COLOR, 8>(p, tables, bytes, at, row, end),
                16 => rows_of::<COLOR, 16>(p, tables, bytes, at, row, end),
                32 => rows_of::<COLOR, 32>(p, tables, bytes, at, row, end),
                _ => (at, row),
            };
            if next_row > row {
                (at, row) = (next, next_row);
                continue;
            }
        }
        let row_end = (row + width).min(end);
        p.reference(bytes, row as u64..row_end as u64);
        row = row_end;
        if row < end {
            at = Dialect::Utf8.unit_containing(bytes, row).start;
        }
    }
}

/// Whole rows of `W` bytes from `row` (its first unit at `at`), while they have [`AHEAD`]
/// bytes in `bytes` and offsets of 8 hex digits; returns where the next row and its first
/// unit start. The [`Scratch`] is on this function's stack, made once for all the rows.
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
    // Offsets of 8 hex digits only (a window past 4 GiB has more, on every row).
    if p.digits > 8 {
        return (at, row);
    }
    let mut scratch = Scratch::new();
    while row + W <= end {
        let Some(Ok(ahead)) = bytes.get(row..row + AHEAD).map(<&[u8; AHEAD]>::try_from) else {
            break;
        };
        let Ok(offset) = u32::try_from(p.base + row as u64) else {
            break;
        };
        scratch.ahead = *ahead;
        let bits = bits(ahead.first_chunk().unwrap_or(&[0; 32]), tables.plain_lo);
        at = whole_row::<COLOR, W>(p, tables, &mut scratch, bytes, at, row, offset, &bits);
        row += W;
    }
    (at, row)
}

/// Bytes from the start of a row that a whole row reads: a row of at most 32 and the 3
/// after it that its last unit may take, and room for copies of 16 from any column.
const AHEAD: usize = 64;

/// What a whole row reads and writes, addressed from the stack pointer: the row and the
/// bytes after it, its hex digits, class lane, text and error spans.
struct Scratch {
    ahead: [u8; AHEAD],
    hex: [u8; 160],
    class: [u8; ROW_ROOM],
    text: [u8; ROW_ROOM],
    spans: [Span; 64],
}

impl Scratch {
    fn new() -> Scratch {
        let none = Span {
            col: 0,
            len: 1,
            kind: 0,
            head: false,
        };
        Scratch {
            ahead: [0; AHEAD],
            hex: [0; 160],
            class: [0; ROW_ROOM],
            text: [0; ROW_ROOM],
            spans: [none; 64],
        }
    }

    /// The shape of a unit starting at each of the first `W` columns, found side by side
    /// in vector registers rather than each waiting for the length of the unit before it.
    #[inline(always)]
    fn shapes_of<const W: usize>(&self, tables: &Tables) -> [u16; 32] {
        const { assert!(W <= 32) };
        let a = &self.ahead;
        let continuation = |b: u8| (b & 0xC0 == 0x80) as u16;
        let mut index = [0u16; W];
        for (k, index) in index.iter_mut().enumerate() {
            // `shape_index` without a table.
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

/// Where a whole row's panes are and the style each is in, and how many error spans it has.
#[derive(Clone, Copy)]
struct Lanes {
    hex: usize,
    class: usize,
    text: usize,
    styles: [StyleId; 3],
    spans: usize,
}

impl Lanes {
    /// The bytes `part` of a unit with these `cells`, from column `col`: its hex digits
    /// (with colour; `digits` the row's), its class lane `class_run` and its error span
    /// (noted without a branch: on random bytes, every other unit is an error). The one
    /// writer of a unit's cells, for whole units and for parts cut by a row's edge; `line`
    /// and `class` as [`lanes_of`] gives them.
    #[allow(clippy::too_many_arguments)] // inlined into its callers
    #[inline(always)]
    fn unit<const COLOR: bool>(
        &mut self,
        switches: &Switches,
        line: &mut [u8; ROW_ROOM],
        class: &mut [u8; ROW_ROOM],
        digits: &[u8; 160],
        spans: &mut [Span; 64],
        cells: &UnitCells,
        class_run: &Run,
        col: usize,
        part: Range<usize>,
    ) {
        let (k0, k1) = (part.start, part.end);
        spans[self.spans & 63] = Span {
            col: col as u8,
            len: (k1 - k0) as u8,
            kind: cells.kind.index() as u8,
            head: k0 == 0,
        };
        self.spans += cells.error as usize;
        let [hs, cs, _] = &mut self.styles;
        if COLOR {
            if k0 == 0 {
                switches.switch(line, &mut self.hex, hs, cells.hex_first);
                put::<4, ROW_ROOM>(line, self.hex, &chunk(digits, 3 * col));
                self.hex += 3;
            }
            // The bytes after the first have one style.
            let rest = k0.max(1);
            if k1 > rest {
                switches.switch(line, &mut self.hex, hs, cells.hex_rest);
                put::<12, ROW_ROOM>(line, self.hex, &chunk(digits, 3 * (col + rest - k0)));
                self.hex += 3 * (k1 - rest);
            }
        }
        put_run::<COLOR>(switches, class, &mut self.class, cs, class_run);
    }
}

/// The row line and marker line of the row of `W` bytes at `row` (input offset `offset`,
/// bytes in `s.ahead`, first unit at `at`, before it if cut by the row's start), straight
/// into the output. Returns where the next row's first unit starts.
#[allow(clippy::too_many_arguments)] // inlined into its caller
#[inline(always)]
fn whole_row<const COLOR: bool, const W: usize>(
    p: &mut Printer,
    tables: &mut Tables,
    s: &mut Scratch,
    bytes: &[u8],
    at: usize,
    row: usize,
    offset: u32,
    bits: &RowBits,
) -> usize {
    const { assert!(W == 8 || W == 16 || W == 32) };
    let line = p.out.room();
    let mut o = 0;
    let mut style = PLAIN;
    if COLOR {
        tables.switches.switch(line, &mut o, &mut style, DIM);
    }
    let [a, b, c, d] = offset.to_be_bytes().map(|byte| HEX_SPACE[byte as usize]);
    put(line, o, &[a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1]]);
    o += 8;
    if COLOR {
        tables.switches.switch(line, &mut o, &mut style, PLAIN);
    }
    put(line, o, b"  ");
    o += 2;
    let mut lanes = Lanes {
        hex: o,
        class: 0,
        text: 0,
        styles: [PLAIN; 3],
        spans: 0,
    };
    if COLOR {
        s.hex[..96].copy_from_slice(&bits.hex);
    } else {
        // Without colour the hex pane does not depend on the units, and the class lane
        // goes straight after it.
        put(line, o, &bits.hex);
        lanes.hex += 3 * W;
        lanes.class = lanes.hex + 1;
    }
    let mut i = 0;
    if at < row {
        // The rest of a unit from the row above (at most 3 bytes): fillers in the text.
        let quad = chunk(bytes, at);
        let part = Part::of(tables, quad, row - at, W + row - at);
        part.print::<COLOR>(tables, line, s, &mut lanes, 0);
        if COLOR {
            tables
                .switches
                .switch(&mut s.text, &mut lanes.text, &mut lanes.styles[2], DIM);
        }
        let (fillers, len) = &tables.fillers[part.span() & 3];
        put(&mut s.text, lanes.text, fillers);
        lanes.text += len;
        i = part.span();
    }
    i = match has_runs(bits.plain) {
        true => units::<COLOR, true, W>(tables, s, line, &mut lanes, i, bits.plain),
        false => units::<COLOR, false, W>(tables, s, line, &mut lanes, i, bits.plain),
    };
    let mut next = row + W;
    if i < W {
        // A unit crossing the row's end: its first bytes, and its glyph fitted to them.
        let quad = chunk(&s.ahead, i);
        let part = Part::of(tables, quad, 0, W - i);
        part.print::<COLOR>(tables, line, s, &mut lanes, i);
        let run = tables.cut_text(&part, quad, row + i);
        put_run::<COLOR>(
            &tables.switches,
            &mut s.text,
            &mut lanes.text,
            &mut lanes.styles[2],
            &run,
        );
        // The rest of it is printed with the next row, as the unit this row ends with.
        next = row + i;
    }
    let Lanes {
        hex: mut o,
        class: mut c,
        text: mut t,
        styles: [mut hs, mut cs, mut ts],
        spans,
    } = lanes;
    if COLOR {
        tables.switches.switch(line, &mut o, &mut hs, PLAIN);
        tables.switches.switch(&mut s.class, &mut c, &mut cs, PLAIN);
        tables.switches.switch(&mut s.text, &mut t, &mut ts, PLAIN);
    }
    put(line, o, b" ");
    o += 1;
    if COLOR {
        copy_lane(line, o, &s.class, c);
        o += c;
    } else {
        o = c; // the class lane is in place already
    }
    put(line, o, b"  ");
    copy_lane(line, o + 2, &s.text, t);
    o += 2 + t;
    put(line, o, b"\n");
    o += 1;
    if spans > 0 {
        let spans = &s.spans[..spans.min(W)];
        // A unit that reaches the row's end is read whole (it may go on past it).
        let unit = |span: &Span| {
            let (col, len) = (span.col as usize & 31, span.len as usize);
            let n = match col + len >= W {
                true => (tables.shapes[shape_index(chunk(&s.ahead, col))] & 7) as usize,
                false => len,
            };
            &s.ahead[col..col + n]
        };
        let (palette, readings) = (&p.palette, p.readings.as_ref());
        o = marker_line::<COLOR>(
            palette,
            &tables.switches,
            readings,
            line,
            o,
            8,
            W,
            spans,
            unit,
        );
    }
    p.out.len += o;
    next
}

/// Copies the first `len` bytes of `lane` into `line` at `o`, 64 at a time.
#[inline(always)]
fn copy_lane(line: &mut [u8; ROW_ROOM], o: usize, lane: &[u8; ROW_ROOM], len: usize) {
    const MASK: usize = ROW_ROOM - SLACK - 1;
    for k in (0..len).step_by(64) {
        line[(o + k) & MASK..][..64].copy_from_slice(&lane[k & MASK..][..64]);
    }
}

/// Whether plain bytes have a run of 4: the rows worth looking for runs in.
#[inline(always)]
fn has_runs(plain: u32) -> bool {
    plain & plain >> 1 & plain >> 2 & plain >> 3 != 0
}

/// The whole units of a row of `W` bytes from column `i` until one crosses its end: the
/// hex digits (with colour), class lane, text and error spans, each pane switching style
/// as the reference does; with `RUNS`, runs of plain bytes copied 16 at a time. Returns
/// where it stopped.
#[inline(always)]
fn units<const COLOR: bool, const RUNS: bool, const W: usize>(
    tables: &mut Tables,
    s: &mut Scratch,
    line: &mut [u8; ROW_ROOM],
    lanes: &mut Lanes,
    mut i: usize,
    plain: u32,
) -> usize {
    let mut l = *lanes;
    let shapes = s.shapes_of::<W>(tables);
    let (ahead, digits, text, spans) = (&s.ahead, &s.hex, &mut s.text, &mut s.spans);
    let (line, class) = lanes_of::<COLOR>(line, &mut s.class);
    while i < W {
        let switches = &tables.switches;
        let i5 = i & 31;
        if RUNS {
            // Bits of `plain` past the row are clear, so the run ends on it.
            let k = ((!(plain >> i5)).trailing_zeros() as usize).min(16);
            if k > 0 {
                let [hs, cs, ts] = &mut l.styles;
                if COLOR {
                    let [hex_style, class_style, text_style] = tables.plain_styles;
                    switches.switch(line, &mut l.hex, hs, hex_style);
                    put::<48, ROW_ROOM>(line, l.hex, &chunk(digits, 3 * i5));
                    l.hex += 3 * k;
                    switches.switch(class, &mut l.class, cs, class_style);
                    switches.switch(text, &mut l.text, ts, text_style);
                }
                put(class, l.class, &tables.plain_class);
                put::<16, ROW_ROOM>(text, l.text, &chunk(ahead, i5));
                (l.class, l.text, i) = (l.class + k, l.text + k, i + k);
                continue;
            }
        }
        let quad: [u8; 4] = chunk(ahead, i5);
        let shape = shapes[i5];
        let n = (shape & 7) as usize;
        if i + n > W {
            break;
        }
        let cells = &tables.units[(shape >> 3) as usize & (UNITS - 1)];
        l.unit::<COLOR>(
            switches,
            line,
            class,
            digits,
            spans,
            cells,
            &cells.class,
            i,
            0..n,
        );
        let run = if cells.by_value {
            let (set, way) = tables.scalar_slot(quad, n);
            &tables.scalars[set][way].text
        } else {
            &cells.text
        };
        put_run::<COLOR>(&tables.switches, text, &mut l.text, &mut l.styles[2], run);
        i += n;
    }
    *lanes = l;
    i
}

/// Where the hex digits and class lane go: with colour, the line and the scratch; without,
/// the class lane into the line (after the hex pane) and the hex digits nowhere.
#[inline(always)]
fn lanes_of<'a, const COLOR: bool>(
    line: &'a mut [u8; ROW_ROOM],
    class: &'a mut [u8; ROW_ROOM],
) -> (&'a mut [u8; ROW_ROOM], &'a mut [u8; ROW_ROOM]) {
    if COLOR {
        (line, class)
    } else {
        (class, line)
    }
}

/// The part `k0..k1` of a unit cut by an edge of a row.
struct Part {
    n: usize,
    key: usize,
    k0: usize,
    k1: usize,
}

impl Part {
    /// The part from `k0` of the unit starting with `quad`, up to `room` bytes of it.
    #[inline(always)]
    fn of(tables: &Tables, quad: [u8; 4], k0: usize, room: usize) -> Part {
        let shape = tables.shapes[shape_index(quad)];
        let n = (shape & 7) as usize;
        let key = (shape >> 3) as usize & (UNITS - 1);
        Part {
            n,
            key,
            k0,
            k1: n.min(room),
        }
    }

    fn span(&self) -> usize {
        self.k1 - self.k0
    }

    /// Its cells at `col` ([`Lanes::unit`]), the class lane from [`Tables::cuts`].
    #[inline(always)]
    fn print<const COLOR: bool>(
        &self,
        tables: &Tables,
        line: &mut [u8; ROW_ROOM],
        s: &mut Scratch,
        lanes: &mut Lanes,
        col: usize,
    ) {
        let run = &tables.cuts[self.key.wrapping_sub(ASCII) % (UNITS - ASCII)]
            [(CUTS * self.k0 + self.k1) % (CUTS * CUTS)];
        let (line, class) = lanes_of::<COLOR>(line, &mut s.class);
        let cells = &tables.units[self.key];
        let (switches, spans) = (&tables.switches, &mut s.spans);
        lanes.unit::<COLOR>(
            switches,
            line,
            class,
            &s.hex,
            spans,
            cells,
            run,
            col,
            self.k0..self.k1,
        );
    }
}

/// Switches a pane in `*style` to the style `run` starts in (with colour), then writes
/// the run at `*at` of `buf`: the pane is left in the style the run ends in.
#[inline(always)]
fn put_run<const COLOR: bool>(
    switches: &Switches,
    buf: &mut [u8; ROW_ROOM],
    at: &mut usize,
    style: &mut StyleId,
    run: &Run,
) {
    if COLOR {
        switches.switch(buf, at, style, run.first);
    }
    put(buf, *at, &run.bytes);
    *at += run.len as usize;
    *style = run.last;
}

/// The index in [`Tables::shapes`] of the unit that starts with `quad`: its first byte,
/// the [`second_class`] of its second, whether its third and fourth are continuations.
#[inline(always)]
fn shape_index(quad: [u8; 4]) -> usize {
    let continuation = |b: u8| (b & 0xC0 == 0x80) as usize;
    (quad[0] as usize) << 4
        | (SECOND[quad[1] as usize] as usize) << 2
        | continuation(quad[2]) << 1
        | continuation(quad[3])
}

/// The class of a second byte, as far as decoding a first byte cares: not a continuation
/// byte (0), `80..=8F` (1), `90..=9F` (2), `A0..=BF` (3).
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

/// The bytes of a unit of `n` bytes in a little-endian `u32`.
const KEEP: [u32; 8] = [0, 0xFF, 0xFFFF, 0xFF_FFFF, 0xFFFF_FFFF, 0, 0, 0];

#[cfg(test)]
mod tests {
    use super::super::{dump_stream, Format, Printer};
    use super::{shape_index, unit_key, Scratch, Tables};
    use crate::decode::{shape_utf8_at, Dialect};
    use crate::view::fallback::{Escape, Fallback};
    use proptest::prelude::*;

    /// The shape table answers what the decoding step answers, for every first and second
    /// byte and third and fourth bytes on each side of the continuation range.
    #[test]
    fn shape_table_equals_the_decoding_step() {
        let tables = Tables::new(&Format::plain(Dialect::Utf8, 16, false, false));
        let edges = [0x00, 0x7F, 0x80, 0xBF, 0xC0, 0xFF];
        for b0 in 0..=255u8 {
            for b1 in 0..=255u8 {
                for b2 in edges {
                    for b3 in edges {
                        let quad = [b0, b1, b2, b3];
                        let shape = shape_utf8_at(&quad, 0).unwrap();
                        let key = unit_key(b0, shape);
                        let entry = tables.shapes[shape_index(quad)];
                        assert_eq!(entry, (key << 3 | shape.len as usize) as u16, "{quad:02X?}");
                    }
                }
            }
        }
    }

    /// The shapes of a row found for all columns at once are each column's own, for every
    /// byte in every position of the first four and each width.
    #[test]
    fn shapes_of_a_row_are_each_columns() {
        let tables = Tables::new(&Format::plain(Dialect::Utf8, 16, false, false));
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
            let shapes = [
                (8, scratch.shapes_of::<8>(&tables)),
                (16, scratch.shapes_of::<16>(&tables)),
                (32, scratch.shapes_of::<32>(&tables)),
            ];
            for (len, shapes) in shapes {
                for (k, &shape) in shapes.iter().enumerate().take(len) {
                    let quad = scratch.ahead[k..k + 4].try_into().unwrap();
                    let expected = tables.shapes[shape_index(quad)];
                    assert_eq!(shape, expected, "{:02x?} {k} {len}", &scratch.ahead[..36]);
                }
            }
        }
    }

    /// The plain bytes, copied in runs, are the printable ASCII bytes `20..=7E` without
    /// colour (`--ascii` or not), `21..=7E` with colour (a space has a style of its own).
    #[test]
    fn plain_bytes_are_printable_ascii() {
        for (color, ascii, lo) in [
            (false, false, 0x20),
            (false, true, 0x20),
            (true, false, 0x21),
        ] {
            let tables = Tables::new(&Format::plain(Dialect::Utf8, 16, color, ascii));
            assert_eq!(tables.plain_lo, lo, "{color} {ascii}");
            assert_eq!(tables.plain_class, [b'1'; 16]);
        }
    }

    /// The rows of `bytes[window]`, `bytes` at offset `base` of the input, by a printer
    /// with the fast path or without.
    fn printed(
        fast: bool,
        bytes: &[u8],
        base: u64,
        window: std::ops::Range<u64>,
        f: &Format,
    ) -> String {
        let mut printer = Printer::new(f, fast, Some(base + window.start), u64::MAX);
        printer.print(bytes, base, window);
        String::from_utf8(printer.out.as_slice().to_vec()).unwrap()
    }

    /// Pieces that make every case likely: ASCII of every role, valid 2- to 4-byte
    /// characters (wide, combining, format, controls), every kind of error, and the bytes
    /// where the rules change.
    fn pieces() -> impl Strategy<Value = Vec<u8>> {
        let valid = "a|abcdefghijklmnopq| |\t|\n|\0|\u{1b}|\u{7f}|é|\u{85}|\u{a0}|€|中|\u{301}|\u{202e}|\u{feff}|\u{e000}|\u{fe0f}|😀|\u{10ffff}";
        let invalid: [&[u8]; 6] = [
            b"\xe2\x82",
            b"\xf0\x9f\x98",
            b"\xed\xa0\x80",
            b"\xe0\x80\xaf",
            b"\xf4\x90\x80\x80",
            b"\xc0\xaf",
        ];
        let text: Vec<Vec<u8>> = valid
            .split('|')
            .map(|p| p.as_bytes().to_vec())
            .chain(invalid.map(|p| p.to_vec()))
            .collect();
        let edges = [
            0x00u8, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0,
            0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
        ];
        proptest::collection::vec(
            prop_oneof![
                3 => prop::sample::select(text),
                1 => prop::sample::select(edges.to_vec()).prop_map(|b| vec![b]),
                1 => any::<u8>().prop_map(|b| vec![b]),
            ],
            0..200,
        )
        .prop_map(|parts| parts.concat())
    }

    /// Every width, colour, `--ascii`, fallback (single-byte, multi-byte, none) and escape;
    /// mostly UTF-8, where the fast path runs, and the other dialects, where it must not.
    fn formats() -> impl Strategy<Value = Format> {
        let dialects = [vec![Dialect::Utf8; 4], Dialect::ALL.to_vec()].concat();
        (
            prop::sample::select(vec![1usize, 3, 8, 16, 32]),
            any::<bool>(),
            any::<bool>(),
            prop::sample::select(vec![
                "none",
                "windows-1252",
                "iso-8859-2",
                "IBM437",
                "shift_jis",
            ]),
            prop::sample::select(vec![None, None, Some(Escape::Pep383), Some(Escape::Optu8)]),
            prop::sample::select(dialects),
        )
            .prop_map(|(width, color, ascii, fallback, escape, dialect)| Format {
                fallback: Fallback::from_label(fallback).unwrap(),
                escape,
                ..Format::plain(dialect, width, color, ascii)
            })
    }

    /// Long inputs, so that most rows are printed whole: random bytes, text with runs of
    /// ASCII, and both mixed, at every width whole rows take, with windows that start
    /// rows mid-unit and offsets across 4 GiB.
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
                    fallback: Fallback::from_label(["none", "windows-1252"][round % 2]).unwrap(),
                    ..Format::plain(Dialect::Utf8, width, round % 4 < 2, ascii)
                };
                let a = next() % 40;
                let rows = width as u64 * (1 + next() % 60);
                let len = bytes.len() as u64;
                let base = (1 << 32) - 1000 - a;
                for (base, window) in [
                    (0, 0..len),
                    (0, a..len - a),
                    (0, a..a + rows),
                    (base, 0..len),
                ] {
                    assert_eq!(
                        printed(true, &bytes, base, window.clone(), &f),
                        printed(false, &bytes, base, window.clone(), &f),
                        "{f:?} {window:?} at {base}"
                    );
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The fast path prints what the reference prints, for any window of any input.
        #[test]
        fn fast_rows_equal_the_reference(
            bytes in pieces(),
            f in formats(),
            a in 0u64..200,
            n in 0u64..200,
            base in prop::sample::select(vec![0u64, (1 << 32) - 64]),
        ) {
            let len = bytes.len() as u64;
            for window in [0..len, a.min(len)..(a + n).min(len)] {
                prop_assert_eq!(
                    printed(true, &bytes, base, window.clone(), &f),
                    printed(false, &bytes, base, window, &f)
                );
            }
        }

        /// Streamed in chunks of any size, the fast path prints what the reference prints
        /// for the whole input.
        #[test]
        fn streamed_rows_equal_the_reference(
            bytes in pieces(),
            f in formats(),
            a in 0u64..100,
            n in prop::option::of(0u64..200),
            chunk in 1usize..40,
        ) {
            let len = bytes.len() as u64;
            let end = n.map_or(len, |n| (a + n).min(len));
            let mut out = Vec::new();
            dump_stream(&bytes[..], a, n, &f, chunk, &mut out).unwrap();
            let expected = printed(false, &bytes, 0, a.min(len)..end, &f);
            prop_assert_eq!(String::from_utf8(out).unwrap(), expected);
        }
    }
}
