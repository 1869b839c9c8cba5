//! Single-byte encodings (windows-125x, ISO-8859-x, KOI8, macintosh, IBM437, ...) as tables:
//! one byte is one unit, the table gives its code point, or none for a byte the encoding
//! leaves undefined (an `undefined_byte` error).
//!
//! The tables themselves are built outside this layer, from encoding_rs and oem_cp
//! (`crate::encoding`); this module only reads them, so it stays free of other crates. A
//! unit never depends on its neighbours: resync is the byte itself.

use core::fmt;

use super::unit::{CodePoint, ErrorKind, Unit};

/// The code point of every byte of a single-byte encoding, and the encoding's name; both
/// ways: [`ByteTable::value`] decodes a byte, [`ByteTable::byte_of`] encodes a code point.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ByteTable {
    name: &'static str,
    values: [u32; 256],
    /// Every (code point, byte) of `values`, sorted (undefined bytes last), for encoding.
    back: [(u32, u8); 256],
}

impl ByteTable {
    /// The value that marks a byte the encoding leaves undefined.
    pub const UNDEFINED: u32 = u32::MAX;

    /// A table named `name` (as encoding_rs names encodings: `windows-1252`, `IBM437`)
    /// with `values[b]` the code point of byte `b`, or [`ByteTable::UNDEFINED`].
    ///
    /// ```
    /// use hexrune::decode::{ByteTable, CodePoint};
    /// let mut values = [ByteTable::UNDEFINED; 256];
    /// values[0x41] = 0x41;
    /// let t = ByteTable::new("tiny", values);
    /// assert_eq!(t.value(0x41), Some(CodePoint::new(0x41)));
    /// assert_eq!(t.value(0x42), None);
    /// ```
    pub fn new(name: &'static str, values: [u32; 256]) -> ByteTable {
        let mut back: [(u32, u8); 256] = core::array::from_fn(|b| (values[b], b as u8));
        back.sort_unstable();
        ByteTable { name, values, back }
    }

    /// The encoding's name.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The code point of byte `b`, or `None` where the encoding leaves it undefined.
    #[inline(always)]
    pub fn value(&self, b: u8) -> Option<CodePoint> {
        let v = self.values[b as usize];
        (v != ByteTable::UNDEFINED).then_some(CodePoint::new(v))
    }

    /// The byte that stands for `cp`, if any (the first, if several do): a binary search
    /// of the table sorted by code point.
    ///
    /// ```
    /// use hexrune::decode::{ByteTable, CodePoint};
    /// let mut values = [ByteTable::UNDEFINED; 256];
    /// values[0xE9] = 0xE9;
    /// values[0xC9] = 0xE9;
    /// let t = ByteTable::new("twice", values);
    /// assert_eq!(t.byte_of(CodePoint::new(0xE9)), Some(0xC9));
    /// assert_eq!(t.byte_of(CodePoint::new(0x41)), None);
    /// ```
    #[inline]
    pub fn byte_of(&self, cp: CodePoint) -> Option<u8> {
        let v = cp.value();
        if v == ByteTable::UNDEFINED {
            return None;
        }
        let i = self.back.partition_point(|(c, _)| *c < v);
        self.back.get(i).filter(|(c, _)| *c == v).map(|(_, b)| *b)
    }

    /// The unit at `at`: one byte, a scalar or an `undefined_byte`.
    #[inline(always)]
    pub(crate) fn unit(&self, bytes: &[u8], at: usize) -> Unit {
        match self.values[bytes[at] as usize] {
            ByteTable::UNDEFINED => Unit::error(at, 1, ErrorKind::UndefinedByte),
            v => Unit::scalar(at, 1, v),
        }
    }

    /// Which bytes are undefined, as a 256-entry table (what the scan tests per byte).
    pub fn undefined(&self) -> [bool; 256] {
        core::array::from_fn(|b| self.values[b] == ByteTable::UNDEFINED)
    }
}

impl fmt::Debug for ByteTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ByteTable({})", self.name)
    }
}
