//! The inverse of the decoder: how each dialect writes one code point, and its UTF-16 form.
//!
//! Pure and allocation-free like the rest of [`super`]: an encoding is at most 6 bytes (or
//! two UTF-16 code units) held in a fixed array. Every encoding produced here decodes, in the
//! same dialect, back to one scalar unit of the same value; a unit test checks that for
//! every dialect over the whole range of code points each dialect accepts.

use core::fmt;

use super::dialect::Dialect;
use super::unit::CodePoint;

/// The largest value any form of UTF-8 can write: U+7FFFFFFF, a 6-byte RFC 2279 form.
pub const MAX_LEGACY: CodePoint = CodePoint::new(0x7FFF_FFFF);

/// The bytes of one encoded code point: 1 to 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Encoded {
    bytes: [u8; 6],
    len: u8,
}

impl Encoded {
    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }

    fn push(&mut self, other: Encoded) {
        for &b in other.as_bytes() {
            self.bytes[self.len as usize] = b;
            self.len += 1;
        }
    }
}

/// Why a dialect has no encoding for a code point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unencodable {
    /// A surrogate code point, U+D800..U+DFFF, in a dialect that writes only scalar values
    /// (UTF-8) or only surrogates that come in pairs (CESU-8).
    Surrogate,
    /// A value above U+10FFFF, in a dialect limited to Unicode's range.
    AboveUnicode,
    /// A value above U+7FFFFFFF, which no form of UTF-8 reaches.
    AboveLegacy,
    /// A code point a single-byte encoding has no byte for.
    NotInEncoding,
}

impl fmt::Display for Unencodable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Unencodable::Surrogate => "a surrogate code point is not a character on its own",
            Unencodable::AboveUnicode => super::unit::NOT_UNICODE,
            Unencodable::AboveLegacy => "above U+7FFFFFFF, the largest value of any UTF-8 form",
            Unencodable::NotInEncoding => "not a character of this encoding",
        })
    }
}

impl Dialect {
    /// How this dialect writes `cp`: the shortest form in UTF-8, WTF-8 and RFC 2279;
    /// supplementary characters as a 6-byte surrogate pair in CESU-8 and Modified UTF-8;
    /// U+0000 as `C0 80` in Modified UTF-8.
    ///
    /// ```
    /// use hexrune::decode::{CodePoint, Dialect, Unencodable};
    /// let euro = CodePoint::new(0x20AC);
    /// assert_eq!(Dialect::Utf8.encode(euro).unwrap().as_bytes(), b"\xE2\x82\xAC");
    /// let grin = CodePoint::new(0x1F600);
    /// assert_eq!(Dialect::Cesu8.encode(grin).unwrap().as_bytes(), b"\xED\xA0\xBD\xED\xB8\x80");
    /// assert_eq!(Dialect::Mutf8.encode(CodePoint::new(0)).unwrap().as_bytes(), b"\xC0\x80");
    /// assert_eq!(Dialect::Utf8.encode(CodePoint::new(0xD800)), Err(Unencodable::Surrogate));
    /// ```
    pub fn encode(self, cp: CodePoint) -> Result<Encoded, Unencodable> {
        let v = cp.value();
        if cp > MAX_LEGACY {
            return Err(Unencodable::AboveLegacy);
        }
        if self != Dialect::Legacy && cp > CodePoint::MAX_UNICODE {
            return Err(Unencodable::AboveUnicode);
        }
        match self {
            Dialect::Utf16Le | Dialect::Utf16Be | Dialect::Utf32Le | Dialect::Utf32Be => {
                self.encode_wide(cp)
            }
            Dialect::SingleByte(table) => match table.byte_of(cp) {
                Some(b) => Ok(Encoded {
                    bytes: [b, 0, 0, 0, 0, 0],
                    len: 1,
                }),
                None => Err(Unencodable::NotInEncoding),
            },
            Dialect::MultiByte(table) => match table.encode(v) {
                Some(([a, b, c, d], len)) => Ok(Encoded {
                    bytes: [a, b, c, d, 0, 0],
                    len,
                }),
                None => Err(Unencodable::NotInEncoding),
            },
            Dialect::Utf8 | Dialect::Cesu8 if cp.is_surrogate() => Err(Unencodable::Surrogate),
            Dialect::Mutf8 if v == 0 => Ok(Encoded {
                bytes: [0xC0, 0x80, 0, 0, 0, 0],
                len: 2,
            }),
            Dialect::Cesu8 | Dialect::Mutf8 if v > 0xFFFF => {
                let [lead, trail] = surrogate_pair(cp);
                let mut pair = shortest_form(CodePoint::new(lead as u32));
                pair.push(shortest_form(CodePoint::new(trail as u32)));
                Ok(pair)
            }
            _ => Ok(shortest_form(cp)),
        }
    }
}

impl Dialect {
    /// UTF-16 and UTF-32 forms: code units in the dialect's byte order. Surrogates are
    /// refused (a lone one is an error in both).
    fn encode_wide(self, cp: CodePoint) -> Result<Encoded, Unencodable> {
        if cp.is_surrogate() {
            return Err(Unencodable::Surrogate);
        }
        let mut out = Encoded {
            bytes: [0; 6],
            len: 0,
        };
        let mut put = |bytes: &[u8]| {
            for &b in bytes {
                out.bytes[out.len as usize] = b;
                out.len += 1;
            }
        };
        let v = cp.value();
        match self {
            Dialect::Utf32Le => put(&v.to_le_bytes()),
            Dialect::Utf32Be => put(&v.to_be_bytes()),
            _ => {
                let units = Utf16::of(cp).ok_or(Unencodable::AboveUnicode)?;
                for unit in units.units() {
                    match self {
                        Dialect::Utf16Be => put(&unit.to_be_bytes()),
                        _ => put(&unit.to_le_bytes()),
                    }
                }
            }
        }
        Ok(out)
    }
}

/// The shortest form of `cp` in the RFC 2279 scheme (1 to 6 bytes; the same bytes as UTF-8
/// up to U+10FFFF). `cp` must be at most U+7FFFFFFF.
fn shortest_form(cp: CodePoint) -> Encoded {
    let len = cp.shortest_len();
    let v = cp.value();
    let mut bytes = [0u8; 6];
    if len == 1 {
        bytes[0] = v as u8;
    } else {
        let marker = !(0xFFu8 >> len); // len one bits: 110..., 1110..., ...
        let shift = 6 * (len as u32 - 1);
        bytes[0] = marker | (v >> shift) as u8;
        for (i, b) in bytes[1..len as usize].iter_mut().enumerate() {
            let shift = 6 * (len as usize - 2 - i);
            *b = 0x80 | ((v >> shift) & 0x3F) as u8;
        }
    }
    Encoded { bytes, len }
}

/// The UTF-16 lead and trail surrogates of a supplementary code point (U+10000..U+10FFFF).
///
/// ```
/// use hexrune::decode::{surrogate_pair, CodePoint};
/// assert_eq!(surrogate_pair(CodePoint::new(0x1F600)), [0xD83D, 0xDE00]);
/// ```
pub fn surrogate_pair(cp: CodePoint) -> [u16; 2] {
    let offset = cp.value() - 0x1_0000;
    [
        0xD800 | (offset >> 10) as u16,
        0xDC00 | (offset & 0x3FF) as u16,
    ]
}

/// The UTF-16 form of a code point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Utf16 {
    /// One code unit: a BMP character.
    Single(u16),
    /// A lone surrogate as one code unit: ill-formed UTF-16, but it occurs in JavaScript
    /// strings and Windows file names (the "potentially ill-formed UTF-16" WTF-8 stores).
    LoneSurrogate(u16),
    /// A lead and a trail surrogate: a supplementary character.
    Pair([u16; 2]),
}

impl Utf16 {
    /// The UTF-16 form of `cp`; `None` above U+10FFFF.
    ///
    /// ```
    /// use hexrune::decode::{CodePoint, Utf16};
    /// assert_eq!(Utf16::of(CodePoint::new(0x20AC)), Some(Utf16::Single(0x20AC)));
    /// assert_eq!(Utf16::of(CodePoint::new(0x1F600)), Some(Utf16::Pair([0xD83D, 0xDE00])));
    /// assert_eq!(Utf16::of(CodePoint::new(0x110000)), None);
    /// ```
    pub fn of(cp: CodePoint) -> Option<Utf16> {
        let v = cp.value();
        match v {
            0xD800..=0xDFFF => Some(Utf16::LoneSurrogate(v as u16)),
            0..=0xFFFF => Some(Utf16::Single(v as u16)),
            0x1_0000..=0x10_FFFF => Some(Utf16::Pair(surrogate_pair(cp))),
            _ => None,
        }
    }

    /// The code units, in order.
    pub fn units(&self) -> &[u16] {
        match self {
            Utf16::Single(u) | Utf16::LoneSurrogate(u) => core::slice::from_ref(u),
            Utf16::Pair(pair) => pair,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::UnitKind;

    fn enc(d: Dialect, v: u32) -> Result<Vec<u8>, Unencodable> {
        d.encode(CodePoint::new(v)).map(|e| e.as_bytes().to_vec())
    }

    #[test]
    fn shortest_forms_of_every_length() {
        let cases: [(u32, &[u8]); 12] = [
            (0x41, b"\x41"),
            (0x7F, b"\x7F"),
            (0x80, b"\xC2\x80"),
            (0x7FF, b"\xDF\xBF"),
            (0x800, b"\xE0\xA0\x80"),
            (0x20AC, b"\xE2\x82\xAC"),
            (0xFFFF, b"\xEF\xBF\xBF"),
            (0x1_0000, b"\xF0\x90\x80\x80"),
            (0x10_FFFF, b"\xF4\x8F\xBF\xBF"),
            (0x20_0000, b"\xF8\x88\x80\x80\x80"),
            (0x400_0000, b"\xFC\x84\x80\x80\x80\x80"),
            (0x7FFF_FFFF, b"\xFD\xBF\xBF\xBF\xBF\xBF"),
        ];
        for (v, bytes) in cases {
            assert_eq!(enc(Dialect::Legacy, v).as_deref(), Ok(bytes), "{v:X}");
        }
    }

    #[test]
    fn dialect_rules() {
        use Dialect::*;
        use Unencodable::*;
        assert_eq!(enc(Utf8, 0xD800), Err(Surrogate));
        assert_eq!(enc(Cesu8, 0xDC00), Err(Surrogate));
        assert_eq!(enc(Mutf8, 0xD800).as_deref(), Ok(&b"\xED\xA0\x80"[..]));
        assert_eq!(enc(Wtf8, 0xDFFF).as_deref(), Ok(&b"\xED\xBF\xBF"[..]));
        assert_eq!(enc(Legacy, 0xD800).as_deref(), Ok(&b"\xED\xA0\x80"[..]));
        assert_eq!(enc(Utf8, 0x0).as_deref(), Ok(&b"\x00"[..]));
        assert_eq!(enc(Mutf8, 0x0).as_deref(), Ok(&b"\xC0\x80"[..]));
        assert_eq!(
            enc(Mutf8, 0x10_FFFF).as_deref(),
            Ok(&b"\xED\xAF\xBF\xED\xBF\xBF"[..])
        );
        assert_eq!(enc(Wtf8, 0x1F600).as_deref(), Ok(&b"\xF0\x9F\x98\x80"[..]));
        assert_eq!(
            enc(Utf16Le, 0x1F600).as_deref(),
            Ok(&b"\x3D\xD8\x00\xDE"[..])
        );
        assert_eq!(enc(Utf16Be, 0xE9).as_deref(), Ok(&b"\x00\xE9"[..]));
        assert_eq!(
            enc(Utf32Be, 0x1F600).as_deref(),
            Ok(&b"\x00\x01\xF6\x00"[..])
        );
        assert_eq!(enc(Utf32Le, 0xD800), Err(Surrogate));
        assert_eq!(enc(Utf16Be, 0xDC00), Err(Surrogate));
        for d in [Utf8, Cesu8, Mutf8, Wtf8, Utf16Le, Utf16Be, Utf32Le, Utf32Be] {
            assert_eq!(enc(d, 0x11_0000), Err(AboveUnicode));
        }
        for d in Dialect::ALL {
            assert_eq!(enc(d, 0x8000_0000), Err(AboveLegacy));
            assert_eq!(enc(d, u32::MAX), Err(AboveLegacy));
        }
    }

    /// Every encoding decodes, in its own dialect, to one scalar unit of the same value.
    #[test]
    fn encodings_round_trip_through_the_decoder() {
        let samples = (0..=0x11_0000u32).step_by(7).chain(0xD7F0..=0xE010).chain([
            0x1F_FFFF,
            0x20_0000,
            0x3FF_FFFF,
            0x400_0000,
            0x7FFF_FFFF,
        ]);
        for v in samples {
            let cp = CodePoint::new(v);
            for d in Dialect::ALL {
                let Ok(e) = d.encode(cp) else { continue };
                let units: Vec<_> = d.units(e.as_bytes()).collect();
                assert_eq!(units.len(), 1, "{d} {cp}");
                assert_eq!(units[0].kind, UnitKind::Scalar(cp), "{d} {cp}");
                assert_eq!(units[0].len as usize, e.as_bytes().len(), "{d} {cp}");
            }
            if let Some(c) = cp.to_char() {
                let mut buf = [0u8; 4];
                let std_form = c.encode_utf8(&mut buf).as_bytes();
                assert_eq!(enc(Dialect::Utf8, v).as_deref(), Ok(std_form));
                let mut units = [0u16; 2];
                let utf16 = Utf16::of(cp).unwrap();
                assert_eq!(utf16.units(), c.encode_utf16(&mut units));
            }
        }
    }
}
