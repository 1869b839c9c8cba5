//! The view model: what every pane shows for a window of an input, as plain data.
//!
//! [`rows`] turns a byte window into [`Row`]s of cells for the hex pane (byte and
//! [`Role`]), the class lane ([`Class`]), the text pane ([`TextCell`], glyphs with their
//! display widths from [`glyph`]) and the error lane ([`ErrorSpan`]); [`detail()`] describes
//! the unit under a cursor. No terminal types appear here: the TUI draws these rows and
//! `dump` prints them, so both show the same thing. [`map`] cuts the whole input into the
//! parts of the viewer's map strip; [`theme`] gives every role its colour and emphasis as
//! plain data; [`unicode`] answers every question about a code point.
//!
//! The edge: this layer reads [`crate::decode`], [`crate::source`] and [`crate::scan`]; it
//! names no terminal crate and writes nothing. What a cell looks like on a terminal is
//! decided by the viewer (ratatui styles) and by `dump` (SGR sequences), both from
//! [`theme`].
//!
//! A window is decoded with context: the first unit is found by resync
//! ([`Dialect::unit_containing`]), so the cells of any window equal the full decode of the
//! input restricted to that window, and a unit cut by a row or window edge is never an
//! error. A unit's glyph is drawn once, on the row of its lead; its other columns hold
//! [`glyph::FILLER`].

pub mod cluster;
pub mod fallback;
pub mod glyph;
pub mod map;
pub mod safe;
pub mod theme;
pub mod unicode;

mod detail;

pub use detail::{detail, detail_from, second_code_point, Detail, Meaning};

use std::ops::Range;

use crate::decode::{decode_utf8_at, Checkpoint, CodePoint, Dialect, ErrorKind, Unit, UnitKind};
use glyph::{Glyph, GlyphClass, InlineGlyph};

/// What a byte is, for its colour in the hex pane (hexyl's categories for ASCII, extended
/// with the roles a byte plays in UTF-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// `00`.
    Null,
    /// A printable ASCII character.
    AsciiPrintable,
    /// ASCII whitespace (tab, newline, vertical tab, form feed, carriage return, space).
    AsciiWhitespace,
    /// Another ASCII control.
    AsciiControl,
    /// The first byte of a multi-byte scalar (or a byte above 7F that is a character of
    /// a single-byte encoding).
    Lead,
    /// A later byte of a multi-byte scalar.
    Continuation,
    /// A byte of an error unit.
    Error,
}

/// The sequence-length class lane, per byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// The first byte of an `n`-byte scalar (1 for ASCII, up to 6).
    Lead(u8),
    /// Byte `k` (2 to `n`) of an `n`-byte scalar.
    Continuation {
        /// Position in the sequence, from 2.
        k: u8,
        /// The sequence's length.
        n: u8,
    },
    /// A byte of an error unit.
    Error(ErrorKind),
}

impl Class {
    /// The lane's text for this byte, one column: `1`..`6` at a lead, the position as a
    /// subscript digit (`₂`..`₆`) on a continuation byte, `✗` on an error byte.
    pub fn symbol(self) -> char {
        const SUBSCRIPT: [char; 7] = ['₀', '₁', '₂', '₃', '₄', '₅', '₆'];
        match self {
            Class::Lead(n) => char::from(b'0' + n.min(9)),
            Class::Continuation { k, .. } => SUBSCRIPT[(k as usize).min(6)],
            Class::Error(_) => '\u{2717}',
        }
    }
}

/// One byte of a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByteCell {
    /// The byte's offset in the input.
    pub offset: u64,
    /// The byte.
    pub byte: u8,
    /// Its role, for colour.
    pub role: Role,
    /// Its class lane entry.
    pub class: Class,
    /// Offset of the first byte of the unit it belongs to.
    pub unit_start: u64,
    /// Length of that unit.
    pub unit_len: u8,
    /// Whether its unit contains the cursor ([`Options::cursor`]).
    pub selected: bool,
}

/// One column of the text pane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextCell {
    /// The glyph of the unit whose lead (or first byte in the window) is here.
    Glyph(Glyph),
    /// A column covered by the second half of the wide glyph before it.
    Covered,
    /// Another column of a unit whose glyph is elsewhere.
    Filler,
}

/// An error unit's marker in the error lane, for the part of it on one row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorSpan {
    /// The first column (byte index in the row) it covers.
    pub col: usize,
    /// How many columns it covers on this row.
    pub len: usize,
    /// The error.
    pub kind: ErrorKind,
    /// Whether the unit starts on this row (the marker's head is drawn here).
    pub head: bool,
}

/// One row of every pane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// Offset of the row's first byte.
    pub offset: u64,
    /// One cell per byte (fewer than the width on the last row).
    pub cells: Vec<ByteCell>,
    /// One entry per byte column.
    pub text: Vec<TextCell>,
    /// Error markers, left to right.
    pub errors: Vec<ErrorSpan>,
}

/// Choices that change the cells built.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The cursor offset: the cells of the unit containing it are `selected`.
    pub cursor: Option<u64>,
    /// Where the window a reader asked for starts (`dump -o N`), when that may be inside a
    /// unit: a unit cut there still shows its glyph, on its first byte in view, instead of
    /// only fillers. Leave it `None` for windows cut internally (batches, scrolling), which
    /// must print as the whole dump restricted to them.
    pub glyph_at: Option<u64>,
    /// Show each byte of an error unit as the code point this scheme writes for it
    /// ([`InlineGlyph::escaped`], one glyph a byte) instead of one error glyph a unit.
    pub escape: Option<fallback::Escape>,
    /// In a multi-byte legacy encoding, a checkpoint at or before the window's start (from
    /// the scan's block index, or where the last window ended): the window's first unit is
    /// found by decoding forward from it or from a nearer sync byte ([`Dialect::resync`]).
    pub checkpoint: Option<Checkpoint>,
}

/// The rows of `bytes[window]`, `width` bytes per row from `window.start`, decoded in
/// `dialect` with context from outside the window.
///
/// ```
/// use hexrune::decode::Dialect;
/// use hexrune::view::{rows, Class, Options};
/// let bytes = "a€".as_bytes();
/// // A window that starts inside the euro sign: its bytes are continuation bytes 2 and 3.
/// let r = rows(bytes, Dialect::Utf8, 2..4, 8, Options::default());
/// assert_eq!(r[0].cells[0].class, Class::Continuation { k: 2, n: 3 });
/// assert_eq!(r[0].cells[0].unit_start, 1);
/// ```
pub fn rows(
    bytes: &[u8],
    dialect: Dialect,
    window: Range<u64>,
    width: usize,
    options: Options,
) -> Vec<Row> {
    let mut sink = RowsSink(Vec::new());
    visit(bytes, dialect, window, width, options, &mut sink);
    sink.0
}

/// Builds [`Row`]s from the cells [`visit`] hands out.
struct RowsSink(Vec<Row>);

impl RowsSink {
    fn last(&mut self) -> &mut Row {
        self.0
            .last_mut()
            .expect("visit starts a row before its cells")
    }
}

impl CellSink for RowsSink {
    fn row(&mut self, offset: u64, len: usize) {
        self.0.push(Row {
            offset,
            cells: Vec::with_capacity(len),
            text: Vec::with_capacity(len),
            errors: Vec::new(),
        });
    }

    fn error(&mut self, span: ErrorSpan) {
        self.last().errors.push(span);
    }

    fn byte(&mut self, cell: ByteCell) {
        self.last().cells.push(cell);
    }

    fn text(&mut self, run: TextRun) {
        let text = &mut self.last().text;
        if let Some(glyph) = run.glyph {
            text.push(TextCell::Glyph(glyph.into()));
        }
        text.extend((0..run.covered()).map(|_| TextCell::Covered));
        text.extend((0..run.fillers()).map(|_| TextCell::Filler));
    }
}

/// The text of one unit's part on one row: the unit's glyph if its lead is on this row
/// (fitted to the columns it owns here), then fillers for the rest of its `columns`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextRun {
    /// The glyph, on the row of the unit's lead (or its first byte in the window).
    pub glyph: Option<InlineGlyph>,
    /// The columns this part of the unit owns on the row, 1 or more.
    pub columns: usize,
}

impl TextRun {
    /// Columns covered by the second half of a wide glyph: 0 or 1.
    pub fn covered(&self) -> usize {
        self.glyph.map_or(0, |g| g.width as usize - 1)
    }

    /// Columns drawn with [`glyph::FILLER`].
    pub fn fillers(&self) -> usize {
        self.columns - self.glyph.map_or(0, |g| g.width as usize)
    }
}

/// What [`visit`] hands its cells to, in order. Each row is announced by [`CellSink::row`]
/// before its cells; then, unit by unit left to right, the unit's [`ErrorSpan`] (for an
/// error unit), one [`ByteCell`] per byte, and one [`TextRun`] (one per byte for an error
/// unit under [`Options::escape`]).
pub trait CellSink {
    /// A row starts at `offset`, holding `len` bytes (the width, or fewer on the last row).
    fn row(&mut self, offset: u64, len: usize);
    /// An error unit's part on the current row.
    fn error(&mut self, span: ErrorSpan);
    /// The next byte of the current row.
    fn byte(&mut self, cell: ByteCell);
    /// The text of the unit whose bytes were just given, on the current row.
    fn text(&mut self, run: TextRun);

    /// A unit that lies whole on the current row, its lead in the window: the most common
    /// case, given at once so that a sink may print it faster. It must have the effect of
    /// the calls it stands for, which this default makes: the unit's [`ErrorSpan`] (for an
    /// error unit), its [`ByteCell`]s, its [`TextRun`].
    #[inline]
    fn unit(&mut self, whole: WholeUnit) {
        let unit = &whole.unit;
        let unit_start = unit.start as u64;
        if let UnitKind::Error(kind) = unit.kind {
            self.error(ErrorSpan {
                col: whole.col,
                len: unit.len as usize,
                kind,
                head: true,
            });
        }
        for (k, &byte) in whole.bytes.iter().enumerate() {
            self.byte(ByteCell {
                offset: unit_start + k as u64,
                byte,
                role: role(unit, k as u8, byte),
                class: class(unit, k as u8),
                unit_start,
                unit_len: unit.len,
                selected: whole.selected,
            });
        }
        self.text(TextRun {
            glyph: Some(whole.glyph),
            columns: unit.len as usize,
        });
    }
}

/// A unit that lies whole on one row, its lead in the window: see [`CellSink::unit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WholeUnit<'a> {
    /// The unit (its start is an offset in the slice given to [`visit`]).
    pub unit: Unit,
    /// Its bytes.
    pub bytes: &'a [u8],
    /// The row column of its first byte.
    pub col: usize,
    /// Its glyph, fitted to its columns.
    pub glyph: InlineGlyph,
    /// Whether it contains the cursor ([`Options::cursor`]).
    pub selected: bool,
}

/// The cells of `bytes[window]`, `width` bytes per row from `window.start`, decoded in
/// `dialect` with context from outside the window, handed to `sink` without allocating:
/// [`rows`] collects them, `hexrune dump` prints them as they come.
///
/// Decoding reads at most 8 bytes before `window.start` and 8 bytes after `window.end`
/// (resync looks back up to 5 bytes, WTF-8 looks 3 more behind a unit for a surrogate
/// pair; a 6-byte unit at the end reads 5 past it), so a caller holding a bounded buffer of
/// the input with that much context on each side gets the cells of the whole input. In
/// UTF-16 and UTF-32 code units are counted from the slice's start: such a buffer must
/// start at an offset of the input that is a multiple of 4 (`dump`'s buffers start on a
/// row, a multiple of 8, less 8 bytes of context).
pub fn visit(
    bytes: &[u8],
    dialect: Dialect,
    window: Range<u64>,
    width: usize,
    options: Options,
    sink: &mut impl CellSink,
) {
    let len = bytes.len() as u64;
    let start = window.start.min(len);
    let end = window.end.min(len);
    let width = width.max(1);
    if start >= end {
        return;
    }
    let mut placer = Placer {
        start,
        end,
        width,
        options,
        row: start,
        next_row: start,
        glyphs: GlyphCache::new(),
    };
    if dialect.multi_byte().is_some() {
        // Not self-synchronizing: the units come from one forward decode, with its state.
        let found = dialect.resync(bytes, start as usize, options.checkpoint);
        let from = Checkpoint {
            at: found.unit.start,
            state: found.state,
        };
        for unit in dialect.units_from_checkpoint(bytes, from) {
            if unit.start as u64 >= end {
                break;
            }
            placer.place(bytes, &unit, sink);
        }
        return;
    }
    let first = dialect.unit_containing(bytes, start as usize).start;
    if dialect == Dialect::Utf8 {
        placer.place_all::<true>(bytes, dialect, first, sink);
    } else {
        placer.place_all::<false>(bytes, dialect, first, sink);
    }
}

/// Context [`visit`] may read before a window's start and after its end: see its docs.
pub const CONTEXT: usize = 8;

/// The state of one [`visit`].
struct Placer {
    start: u64,
    end: u64,
    width: usize,
    options: Options,
    /// The offset of the current row.
    row: u64,
    /// The offset of the next row to announce.
    next_row: u64,
    glyphs: GlyphCache,
}

impl Placer {
    /// Hands out the cells of the units from the one starting at `at` to the window's end.
    /// `UTF8`: the dialect is UTF-8, decoded by [`decode_utf8_at`] (equal to
    /// [`Dialect::decode_at`] where 4 bytes are readable, and free of branches on the bytes).
    #[inline(always)]
    fn place_all<const UTF8: bool>(
        &mut self,
        bytes: &[u8],
        dialect: Dialect,
        mut at: usize,
        sink: &mut impl CellSink,
    ) {
        let end = self.end as usize;
        while at < end {
            let unit = match UTF8 {
                true => decode_utf8_at(bytes, at).unwrap_or_else(|| dialect.decode_at(bytes, at)),
                false => dialect.decode_at(bytes, at),
            };
            self.place(bytes, &unit, sink);
            at = unit.end();
        }
    }

    /// Hands out the cells of one unit, on the rows it touches.
    fn place(&mut self, bytes: &[u8], unit: &Unit, sink: &mut impl CellSink) {
        let unit_start = unit.start as u64;
        let first = unit_start.max(self.start);
        let last = (unit_start + unit.len as u64).min(self.end);
        let selected = self
            .options
            .cursor
            .is_some_and(|c| c >= unit_start && c < unit_start + unit.len as u64);
        // An error unit under `--escape` shows a glyph a byte: one text run for each.
        let escape = match unit.kind {
            UnitKind::Error(_) => self.options.escape,
            UnitKind::Scalar(_) => None,
        };
        // The common case: the whole unit, lead included, on one row, handed out at once.
        let unit_end = unit_start + unit.len as u64;
        if escape.is_none() && unit_start >= self.start && unit_end <= self.end {
            if unit_start == self.next_row {
                self.start_row(unit_start, sink);
            }
            if unit_end <= self.next_row {
                let glyph = self.unit_glyph(unit).fit(unit.len as usize);
                sink.unit(WholeUnit {
                    unit: *unit,
                    bytes: &bytes[unit.start..unit.start + unit.len as usize],
                    col: (unit_start - self.row) as usize,
                    glyph,
                    selected,
                });
                return;
            }
        }
        // Drawn once, on the row of the lead; a unit whose lead lies before the window shows
        // only fillers, unless the window is the one the reader asked for.
        let lead_in_view = unit_start >= self.start || self.options.glyph_at == Some(self.start);
        let mut pending_glyph = lead_in_view.then(|| self.unit_glyph(unit));
        let mut offset = first;
        while offset < last {
            if offset == self.next_row {
                self.start_row(offset, sink);
            }
            let row_end = self.next_row.min(last);
            let col = (offset - self.row) as usize;
            let span = (row_end - offset) as usize;
            if let UnitKind::Error(kind) = unit.kind {
                sink.error(ErrorSpan {
                    col,
                    len: span,
                    kind,
                    head: offset == unit_start,
                });
            }
            for at in offset..row_end {
                let k = (at - unit_start) as u8;
                let byte = bytes[at as usize];
                sink.byte(ByteCell {
                    offset: at,
                    byte,
                    role: role(unit, k, byte),
                    class: class(unit, k),
                    unit_start,
                    unit_len: unit.len,
                    selected,
                });
            }
            match escape {
                Some(escape) => {
                    for at in offset..row_end {
                        let glyph = InlineGlyph::escaped(escape, bytes[at as usize]).fit(1);
                        sink.text(TextRun {
                            glyph: Some(glyph),
                            columns: 1,
                        });
                    }
                }
                None => sink.text(TextRun {
                    glyph: pending_glyph.take().map(|g| g.fit(span)),
                    columns: span,
                }),
            }
            offset = row_end;
        }
    }

    /// Announces the row that starts at `offset`.
    fn start_row(&mut self, offset: u64, sink: &mut impl CellSink) {
        let n = (self.end - offset).min(self.width as u64) as usize;
        sink.row(offset, n);
        self.row = offset;
        self.next_row = offset + n as u64;
    }

    /// [`unit_glyph`], memoized.
    fn unit_glyph(&mut self, unit: &Unit) -> InlineGlyph {
        match unit.kind {
            UnitKind::Scalar(cp) => self.glyphs.get(cp),
            UnitKind::Error(_) => unit_glyph(unit),
        }
    }
}

/// A small direct-mapped memo of [`glyph::inline_glyph`], which is a pure function: text
/// repeats its characters, and the category lookup behind a glyph costs more than a probe.
struct GlyphCache {
    slots: [(u32, InlineGlyph); GlyphCache::SLOTS],
}

impl GlyphCache {
    const SLOTS: usize = 256;

    fn new() -> GlyphCache {
        // u32::MAX is no code point (they end at 0x7FFF_FFFF), so every slot starts empty.
        GlyphCache {
            slots: [(u32::MAX, InlineGlyph::error()); GlyphCache::SLOTS],
        }
    }

    #[inline]
    fn get(&mut self, cp: CodePoint) -> InlineGlyph {
        let value = cp.value();
        let slot = &mut self.slots[value as usize % GlyphCache::SLOTS];
        if slot.0 != value {
            *slot = (value, glyph::inline_glyph(cp));
        }
        slot.1
    }
}

/// The glyph of a unit in the text pane, before it is fitted to the columns it owns on a row:
/// its value's [`glyph::inline_glyph`], or the error glyph.
pub fn unit_glyph(unit: &Unit) -> InlineGlyph {
    match unit.kind {
        UnitKind::Scalar(cp) => glyph::inline_glyph(cp),
        UnitKind::Error(_) => InlineGlyph::error(),
    }
}

/// The role of byte `k` (from 0) of `unit`.
pub fn role(unit: &Unit, k: u8, byte: u8) -> Role {
    match unit.kind {
        UnitKind::Error(_) => Role::Error,
        UnitKind::Scalar(_) if unit.len > 1 => {
            if k == 0 {
                Role::Lead
            } else {
                Role::Continuation
            }
        }
        UnitKind::Scalar(_) => match byte {
            0x00 => Role::Null,
            b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ' => Role::AsciiWhitespace,
            0x21..=0x7E => Role::AsciiPrintable,
            // Only a single-byte encoding has a one-byte unit above 7F: a character of its
            // own, coloured like the lead of a multi-byte one.
            0x80..=0xFF => Role::Lead,
            _ => Role::AsciiControl,
        },
    }
}

/// The class lane entry of byte `k` (from 0) of `unit`.
pub fn class(unit: &Unit, k: u8) -> Class {
    match unit.kind {
        UnitKind::Error(kind) => Class::Error(kind),
        UnitKind::Scalar(_) if k == 0 => Class::Lead(unit.len),
        UnitKind::Scalar(_) => Class::Continuation {
            k: k + 1,
            n: unit.len,
        },
    }
}

/// The one-letter code of an error kind in the error lane, readable without colour.
pub fn error_letter(kind: ErrorKind) -> char {
    match kind {
        ErrorKind::InvalidByte => 'I',
        ErrorKind::UnexpectedContinuation => 'C',
        ErrorKind::Truncated => 'T',
        ErrorKind::TruncatedEof => 'E',
        ErrorKind::Overlong => 'O',
        ErrorKind::Surrogate => 'S',
        ErrorKind::OutOfRange => 'R',
        ErrorKind::UnpairedSurrogate => 'U',
        ErrorKind::SurrogatePair => 'P',
        ErrorKind::UnpairedHighSurrogate => 'H',
        ErrorKind::UnpairedLowSurrogate => 'L',
        ErrorKind::TruncatedUnit => 'Z',
        ErrorKind::SurrogateUnit => 'D',
        ErrorKind::UndefinedByte => 'N',
        ErrorKind::BadTrail => 'B',
        ErrorKind::Unmapped => 'M',
        ErrorKind::BadEscape => 'X',
        ErrorKind::RedundantEscape => 'W',
    }
}

/// Whether `class` is a glyph class that the text pane styles as unusual.
pub fn is_placeholder(class: GlyphClass) -> bool {
    !matches!(class, GlyphClass::Plain)
}
