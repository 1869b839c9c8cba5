//! Pure decoding of the UTF-8 family, UTF-16 and UTF-32: units, error kinds, byte roles,
//! resync, diagnoses.
//!
//! This module is the ground truth the rest of hexrune stands on. It knows nothing of files,
//! terminals or other modules of the crate, depends on no other crate, and never allocates:
//! it takes a byte slice and answers questions about it.
//!
//! - [`Dialect`] names an encoding form (UTF-8, CESU-8, Modified UTF-8, WTF-8, RFC 2279,
//!   UTF-16LE/BE, UTF-32LE/BE, a single-byte encoding given as a [`ByteTable`], or a
//!   multi-byte legacy encoding given as a [`MultiByteTable`]: `multibyte.rs`) and
//!   carries its 256-entry [`ByteRole`] table (UTF-16 and UTF-32 are decoded by code units
//!   instead: `wide.rs`; single-byte encodings by their table: `table.rs`).
//! - [`Dialect::units`] cuts a slice into [`Unit`]s: scalars (value and length class) and
//!   errors ([`ErrorKind`]), following the Unicode Standard's "U+FFFD substitution of maximal
//!   subparts" (ch. 3.9): an error is the longest prefix of a well-formed sequence the input
//!   holds, or one byte. In UTF-8, unit boundaries equal `core::str::Utf8Chunks`.
//! - [`Dialect::unit_containing`] resyncs from any offset by looking back at most 3 bytes
//!   (5 in dialects with 6-byte units; in WTF-8, 5 to tell a lone trail surrogate from half
//!   a pair; in UTF-16 and UTF-32, 3 bytes, with code units aligned to the slice's start),
//!   so a viewer can jump anywhere in a huge file.
//! - [`Dialect::expected`] and [`Dialect::diagnose`] explain an error: the byte range that
//!   was expected, and what a lax reading of the bytes suggests they were meant to be.
//! - [`Dialect::encode`] goes the other way: the bytes a dialect writes for a code point;
//!   [`Utf16`] gives its UTF-16 code units.
//!
//! ```
//! use hexrune::decode::{Dialect, ErrorKind};
//! let bytes = b"\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64";
//! let units: Vec<_> = Dialect::Utf8.units(bytes).map(|u| (u.start, u.len, u.is_error())).collect();
//! assert_eq!(units, [
//!     (0, 1, false), (1, 3, true), (4, 2, true), (6, 1, true), (7, 1, false),
//!     (8, 1, true), (9, 1, false), (10, 1, true), (11, 1, true), (12, 1, false),
//! ]);
//! ```

mod bom;
mod decoder;
mod diagnose;
mod dialect;
mod encode;
mod fast;
mod multibyte;
mod table;
mod unit;
mod wide;

pub use bom::Bom;
pub use decoder::Units;
pub use diagnose::{windows_1252, Diagnosis, Finding, Neighbours};
pub use dialect::{is_continuation, ByteRange, ByteRole, Dialect};
pub use encode::{surrogate_pair, Encoded, Unencodable, Utf16, MAX_LEGACY};
pub use fast::{decode_utf8_at, shape_utf8_at, Shape};
pub use multibyte::{
    ascii_run, skip_short, Checkpoint, Family, Lookup, MbState, MultiByteTable, Resync, Short,
};
pub use table::ByteTable;
pub use unit::{CodePoint, ErrorKind, Unit, UnitKind, NOT_UNICODE};
#[cfg(test)]
pub(crate) use wide::text_bytes;
