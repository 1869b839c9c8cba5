//! The view model: what every pane shows for a window of an input, as plain data.
//!
//! [`rows`] turns a byte window into [`Row`]s of cells for the hex pane (byte and
//! [`Role`]), the class lane ([`Class`]), the text pane ([`TextCell`], glyphs with their
//! display widths from [`glyph`]) and the error lane ([`ErrorSpan`]); [`detail`] describes
//! the unit under a cursor. No terminal types appear here: the TUI draws these rows and
//! `dump` prints them, so both show the same thing. [`map`] cuts the whole input into the
//! parts of the viewer's map strip.
//!
//! A window is decoded with context: the first unit is found by resync
//! ([`Dialect::unit_containing`]), so the cells of any window equal the full decode of the
//! input restricted to that window, and a unit cut by a row or window edge is never an
//! error. A unit's glyph is drawn once, on the row of its lead; its other columns hold
//! [`glyph::FILLER`].

pub mod glyph;
pub mod map;

mod detail;

pub use detail::{detail, Detail, Meaning};

use std::ops::Range;

use crate::decode::{Dialect, ErrorKind, Unit, UnitKind};
use glyph::{Glyph, GlyphClass};

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
    /// The first byte of a multi-byte scalar.
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
    let len = bytes.len() as u64;
    let start = window.start.min(len);
    let end = window.end.min(len);
    let width = width.max(1);
    if start >= end {
        return Vec::new();
    }
    let mut out: Vec<Row> = (start..end)
        .step_by(width)
        .map(|offset| {
            let n = (end - offset).min(width as u64) as usize;
            Row {
                offset,
                cells: Vec::with_capacity(n),
                text: Vec::with_capacity(n),
                errors: Vec::new(),
            }
        })
        .collect();
    for unit in dialect.units_from(bytes, start as usize) {
        if unit.start as u64 >= end {
            break;
        }
        place_unit(&mut out, bytes, &unit, start, end, width, options);
    }
    out
}

/// Puts the cells of one unit into the rows it touches.
fn place_unit(
    out: &mut [Row],
    bytes: &[u8],
    unit: &Unit,
    start: u64,
    end: u64,
    width: usize,
    options: Options,
) {
    let unit_start = unit.start as u64;
    let first = unit_start.max(start);
    let last = (unit_start + unit.len as u64).min(end);
    let selected = options
        .cursor
        .is_some_and(|c| c >= unit_start && c < unit_start + unit.len as u64);
    // Drawn once, on the row of the lead; a unit whose lead lies before the window shows
    // only fillers.
    let mut pending_glyph = (unit_start >= start).then(|| unit_glyph(unit));
    let mut offset = first;
    while offset < last {
        let row_index = ((offset - start) / width as u64) as usize;
        let row = &mut out[row_index];
        let row_end = (row.offset + width as u64).min(last);
        let col = (offset - row.offset) as usize;
        let span = (row_end - offset) as usize;
        if let UnitKind::Error(kind) = unit.kind {
            row.errors.push(ErrorSpan {
                col,
                len: span,
                kind,
                head: offset == unit_start,
            });
        }
        for at in offset..row_end {
            let k = (at - unit_start) as u8;
            row.cells.push(ByteCell {
                offset: at,
                byte: bytes[at as usize],
                role: role(unit, k, bytes[at as usize]),
                class: class(unit, k),
                unit_start,
                unit_len: unit.len,
                selected,
            });
        }
        match pending_glyph.take() {
            Some(glyph) => {
                let glyph = glyph.fit(span);
                let w = glyph.width as usize;
                row.text.push(TextCell::Glyph(glyph));
                row.text.extend((1..w).map(|_| TextCell::Covered));
                row.text.extend((w..span).map(|_| TextCell::Filler));
            }
            None => row.text.extend((0..span).map(|_| TextCell::Filler)),
        }
        offset = row_end;
    }
}

fn unit_glyph(unit: &Unit) -> Glyph {
    match unit.kind {
        UnitKind::Scalar(cp) => glyph::glyph(cp),
        UnitKind::Error(_) => Glyph::error(),
    }
}

/// The role of byte `k` (from 0) of `unit`.
fn role(unit: &Unit, k: u8, byte: u8) -> Role {
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
            _ => Role::AsciiControl,
        },
    }
}

fn class(unit: &Unit, k: u8) -> Class {
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
    }
}

/// Whether `class` is a glyph class that the text pane styles as unusual.
pub fn is_placeholder(class: GlyphClass) -> bool {
    !matches!(class, GlyphClass::Plain)
}
