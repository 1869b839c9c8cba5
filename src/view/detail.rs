//! The detail pane's content: everything hexrune can say about the unit under the cursor.
//! What a scalar is comes from [`crate::view::unicode::facts`], as it does for `explain`
//! and the JSON records.

use crate::decode::{ByteRange, CodePoint, Dialect, ErrorKind, Unit, UnitKind, Utf16};
use crate::view::unicode::{facts, Facts};

/// The unit containing an offset, described.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Detail {
    /// Offset of the unit's first byte.
    pub start: u64,
    /// Its bytes (1 to 6).
    pub bytes: Vec<u8>,
    /// Each byte in binary, split into its prefix bits (`110`, `10`, ...) and payload bits;
    /// an error byte that is no lead or continuation has an empty prefix, and so has every
    /// byte of a legacy encoding. In UTF-16 and UTF-32 each code unit instead, its bits
    /// high first whatever the byte order (a byte left over at the end on its own): a
    /// surrogate's `110110` or `110111` is its prefix and its 10 low bits the payload, as a
    /// UTF-8 lead's and continuation's are; any other unit has no prefix.
    pub bits: Vec<(String, String)>,
    /// Whether `bits` reads code units whose bytes the input stores low byte first
    /// (UTF-16LE, UTF-32LE): their bits are not the bytes' in file order.
    pub units_swapped: bool,
    /// What the bytes mean.
    pub meaning: Meaning,
    /// In a multi-byte legacy encoding, where the decode that found the unit started, when
    /// that was before the unit (such encodings are not self-synchronizing).
    pub decoded_from: Option<u64>,
    /// The second code point of a sequence that decodes to two (Big5's `88 62`, `88 64`,
    /// `88 A3` and `88 A5`: a letter and U+0304 or U+030C); the unit's value is the first.
    pub second: Option<CodePoint>,
}

impl Detail {
    /// Why finding this unit cost a decode from further back, in words: "Shift_JIS is not
    /// self-synchronizing: units found by decoding from offset 1024".
    pub fn resync_note(&self, dialect: Dialect) -> Option<String> {
        self.decoded_from.map(|from| {
            format!(
                "{} is not self-synchronizing: units found by decoding from offset {from}",
                dialect.encoding_name()
            )
        })
    }

    /// For a sequence that decodes to two code points, both, in words: "decodes to two code
    /// points: U+00CA U+0304".
    pub fn second_note(&self) -> Option<String> {
        let second = self.second?;
        let Meaning::Scalar { value, .. } = &self.meaning else {
            return None;
        };
        Some(format!("decodes to two code points: {value} {second}"))
    }
}

/// The second code point of `unit`, when its sequence decodes to two (Big5's four such
/// sequences; see [`Detail::second`]).
pub fn second_code_point(bytes: &[u8], dialect: Dialect, unit: &Unit) -> Option<CodePoint> {
    let (text, n) = dialect.multi_byte()?.text(bytes, unit);
    (n == 2).then(|| CodePoint::new(text[1] as u32))
}

/// A scalar's or an error's description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Meaning {
    /// A decoded value.
    Scalar {
        /// The value.
        value: CodePoint,
        /// Its name, category, width, plane and block.
        facts: Facts,
        /// UTF-16 code units (one for the BMP and surrogates, two above; none above U+10FFFF).
        utf16: Vec<u16>,
    },
    /// An error unit.
    Error {
        /// The kind.
        kind: ErrorKind,
        /// The byte range that was expected where the unit stopped, if any.
        expected: Option<ByteRange>,
        /// What the bytes most likely are, e.g. "overlong form of U+002F '/'".
        diagnosis: Option<String>,
    },
}

/// Describes the unit of `bytes` containing `offset`; `None` past the end.
///
/// ```
/// use hexrune::decode::Dialect;
/// use hexrune::view::{detail, Meaning};
/// let d = detail(b"x\xC0\xAF", Dialect::Utf8, 1).unwrap();
/// match d.meaning {
///     Meaning::Error { diagnosis, .. } => {
///         assert_eq!(diagnosis.as_deref(), Some("overlong form of U+002F '/'"))
///     }
///     _ => unreachable!(),
/// }
/// ```
pub fn detail(bytes: &[u8], dialect: Dialect, offset: u64) -> Option<Detail> {
    detail_from(bytes, dialect, offset, None)
}

/// [`detail()`], with a checkpoint at or before `offset` for a multi-byte legacy encoding
/// (from the scan's block index: [`Dialect::resync`]).
///
/// ```
/// use hexrune::encoding::resolve;
/// use hexrune::view::detail;
/// // Shift_JIS: a line feed, then hiragana あい: 0A 82 A0 82 A2.
/// let sjis = resolve("shift_jis").unwrap();
/// let d = detail(b"\n\x82\xA0\x82\xA2", sjis, 4).unwrap();
/// assert_eq!((d.start, d.decoded_from), (3, Some(1)));
/// assert_eq!(
///     d.resync_note(sjis).unwrap(),
///     "Shift_JIS is not self-synchronizing: units found by decoding from offset 1"
/// );
/// ```
pub fn detail_from(
    bytes: &[u8],
    dialect: Dialect,
    offset: u64,
    checkpoint: Option<crate::decode::Checkpoint>,
) -> Option<Detail> {
    if offset >= bytes.len() as u64 {
        return None;
    }
    let found = dialect.resync(bytes, offset as usize, checkpoint);
    let unit = found.unit;
    let decoded_from =
        (dialect.multi_byte().is_some() && found.from < unit.start).then_some(found.from as u64);
    let raw = bytes[unit.start..unit.end()].to_vec();
    let order = match dialect {
        Dialect::Utf16Le | Dialect::Utf32Le => Some(Order::Little),
        Dialect::Utf16Be | Dialect::Utf32Be => Some(Order::Big),
        _ => None,
    };
    let bits = match (order, dialect.code_unit_width()) {
        (Some(order), Some(width)) => unit_bits(&raw, width, order),
        // A legacy encoding's bytes have no marker bits.
        (None, Some(_)) => raw
            .iter()
            .map(|b| (String::new(), format!("{b:08b}")))
            .collect(),
        _ => raw.iter().map(|b| split_bits(&unit, *b)).collect(),
    };
    let units_swapped = order == Some(Order::Little) && raw.len() > 1;
    let meaning = match unit.kind {
        UnitKind::Scalar(value) => scalar(value),
        UnitKind::Error(kind) => Meaning::Error {
            kind,
            expected: dialect.expected(bytes, &unit),
            diagnosis: dialect.diagnose(bytes, &unit).map(|d| d.to_string()),
        },
    };
    Some(Detail {
        start: unit.start as u64,
        bytes: raw,
        bits,
        units_swapped,
        meaning,
        decoded_from,
        second: second_code_point(bytes, dialect, &unit),
    })
}

/// The prefix bits of a byte of a unit: a lead's leading ones and zero, a continuation
/// byte's `10`, nothing for ASCII or a byte that fits no pattern. A lead byte is a lead
/// wherever it stands in the unit: a CESU-8 or MUTF-8 pair (`ED A0 BD ED B8 80`) has a
/// second one at its fourth byte.
fn split_bits(unit: &Unit, byte: u8) -> (String, String) {
    let text = format!("{byte:08b}");
    let prefix = match byte.leading_ones() as usize {
        0 if unit.len == 1 && !unit.is_error() => 1,
        0 => 0,
        1 => 2, // a continuation byte, or a stray one
        n @ 2..=7 => n + 1,
        _ => 0,
    };
    (text[..prefix].to_string(), text[prefix..].to_string())
}

/// The byte order of a UTF-16 or UTF-32 view.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    Little,
    Big,
}

/// The code units of `raw` (`width` bytes each), in binary, high bit first: a surrogate
/// split after its 6 marker bits, any other unit whole, and a byte short of a unit (at
/// the end of the input) on its own.
fn unit_bits(raw: &[u8], width: usize, order: Order) -> Vec<(String, String)> {
    raw.chunks(width)
        .map(|chunk| {
            if chunk.len() < width {
                return (String::new(), format!("{:08b}", chunk[0]));
            }
            let value = chunk.iter().enumerate().fold(0u32, |v, (i, b)| {
                let shift = match order {
                    Order::Little => 8 * i,
                    Order::Big => 8 * (width - 1 - i),
                };
                v | (u32::from(*b) << shift)
            });
            let text = format!("{value:0w$b}", w = 8 * width);
            match value {
                0xD800..=0xDFFF if width == 2 => (text[..6].to_string(), text[6..].to_string()),
                _ => (String::new(), text),
            }
        })
        .collect()
}

fn scalar(value: CodePoint) -> Meaning {
    let utf16 = Utf16::of(value).map_or(Vec::new(), |u| u.units().to_vec());
    Meaning::Scalar {
        value,
        facts: facts(value),
        utf16,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big5_pairs_of_two_code_points() {
        let big5 = crate::encoding::resolve("big5").unwrap();
        for (bytes, first, second) in [
            (b"\x88\x62", 0xCA, 0x304),
            (b"\x88\x64", 0xCA, 0x30C),
            (b"\x88\xA3", 0xEA, 0x304),
            (b"\x88\xA5", 0xEA, 0x30C),
        ] {
            let d = detail(bytes, big5, 1).unwrap();
            assert_eq!(d.second, Some(CodePoint::new(second)));
            assert!(matches!(d.meaning, Meaning::Scalar { value, .. } if value.value() == first));
            // encoding_rs decodes the pair to the same two code points.
            let (text, _) = encoding_rs::BIG5.decode_without_bom_handling(bytes);
            let expected: String = [first, second]
                .iter()
                .map(|c| char::from_u32(*c).unwrap())
                .collect();
            assert_eq!(text, expected);
        }
        assert_eq!(
            detail(b"\x88\x62", big5, 0).unwrap().second_note().unwrap(),
            "decodes to two code points: U+00CA U+0304"
        );
        // Any other pair has one.
        let d = detail(b"\xA4\x40", big5, 0).unwrap();
        assert_eq!((d.second, d.second_note()), (None, None));
        assert_eq!(
            detail("é".as_bytes(), Dialect::Utf8, 0).unwrap().second,
            None
        );
    }

    fn meaning(bytes: &[u8], d: Dialect, at: u64) -> Meaning {
        detail(bytes, d, at).unwrap().meaning
    }

    #[test]
    fn euro_sign() {
        let d = detail("a€".as_bytes(), Dialect::Utf8, 3).unwrap();
        assert_eq!(d.start, 1);
        assert_eq!(d.bytes, [0xE2, 0x82, 0xAC]);
        assert_eq!(
            d.bits,
            [
                ("1110".to_string(), "0010".to_string()),
                ("10".to_string(), "000010".to_string()),
                ("10".to_string(), "101100".to_string()),
            ]
        );
        let Meaning::Scalar { facts, utf16, .. } = d.meaning else {
            panic!()
        };
        assert_eq!(facts.title(), "EURO SIGN");
        assert_eq!(facts.category_text(), "Sc: currency symbol");
        assert_eq!(facts.width, Some(1));
        assert_eq!(utf16, [0x20AC]);
    }

    #[test]
    fn labels_and_pairs() {
        let name = |b: &[u8], d| match meaning(b, d, 0) {
            Meaning::Scalar { facts, .. } => facts.title(),
            m => panic!("{m:?}"),
        };
        assert_eq!(name(b"\x1B", Dialect::Utf8), "<control-001B> ESCAPE");
        assert_eq!(name(b"\xED\xA0\x80", Dialect::Wtf8), "<surrogate-D800>");
        assert_eq!(
            name("\u{E000}".as_bytes(), Dialect::Utf8),
            "<private-use-E000>"
        );
        assert_eq!(
            name("\u{FFFF}".as_bytes(), Dialect::Utf8),
            "<noncharacter-FFFF>"
        );
        match meaning("😀".as_bytes(), Dialect::Utf8, 2) {
            Meaning::Scalar { utf16, facts, .. } => {
                assert_eq!(utf16, [0xD83D, 0xDE00]);
                assert_eq!(facts.width, Some(2));
            }
            m => panic!("{m:?}"),
        }
    }

    #[test]
    fn error_details() {
        match meaning(b"\xE0\x80\xAF", Dialect::Utf8, 0) {
            Meaning::Error {
                kind,
                expected,
                diagnosis,
            } => {
                assert_eq!(kind, ErrorKind::Overlong);
                assert_eq!(expected, Some(ByteRange::new(0xA0, 0xBF)));
                assert_eq!(diagnosis.as_deref(), Some("overlong form of U+002F '/'"));
            }
            m => panic!("{m:?}"),
        }
        let d = detail(b"\x80", Dialect::Utf8, 0).unwrap();
        assert_eq!(d.bits, [("10".to_string(), "000000".to_string())]);
    }

    /// UTF-16's surrogates show their marker bits apart from the 10 payload bits each,
    /// read as code units (high byte first in a little-endian file); other units whole.
    #[test]
    fn utf16_and_utf32_bits_are_code_units() {
        let split = |d: &Detail| {
            d.bits
                .iter()
                .map(|(p, b)| format!("{p}|{b}"))
                .collect::<Vec<_>>()
        };
        let le = detail(b"\x3D\xD8\x00\xDE", Dialect::Utf16Le, 0).unwrap();
        assert_eq!(split(&le), ["110110|0000111101", "110111|1000000000"]);
        assert!(le.units_swapped);
        let be = detail(b"\xD8\x3D\xDE\x00", Dialect::Utf16Be, 2).unwrap();
        assert_eq!(split(&be), ["110110|0000111101", "110111|1000000000"]);
        assert!(!be.units_swapped);
        let bmp = detail(b"\xE9\x00", Dialect::Utf16Le, 0).unwrap();
        assert_eq!(split(&bmp), ["|0000000011101001"]);
        // A lone low surrogate is still one, and an odd byte at the end is a byte.
        let lone = detail(b"\x00\xDEx", Dialect::Utf16Le, 0).unwrap();
        assert_eq!(split(&lone), ["110111|1000000000"]);
        let odd = detail(b"\x41\x00x", Dialect::Utf16Le, 2).unwrap();
        assert_eq!(
            (split(&odd), odd.units_swapped),
            (vec!["|01111000".to_string()], false)
        );
        let wide = detail(b"\x00\xF6\x01\x00", Dialect::Utf32Le, 0).unwrap();
        assert_eq!(split(&wide), ["|00000000000000011111011000000000"]);
    }

    /// A surrogate pair written as two 3-byte sequences has two lead bytes, the first and
    /// the fourth, in the dialects that read it as one scalar.
    #[test]
    fn pair_has_two_leads() {
        let pair = b"\xED\xA0\xBD\xED\xB8\x80";
        let split = |(p, b): &(String, String)| format!("{p}|{b}");
        for dialect in [Dialect::Cesu8, Dialect::Mutf8] {
            let d = detail(pair, dialect, 3).unwrap();
            assert_eq!(d.bytes.len(), 6, "{dialect:?}");
            assert_eq!(
                d.bits.iter().map(split).collect::<Vec<_>>(),
                [
                    "1110|1101",
                    "10|100000",
                    "10|111101",
                    "1110|1101",
                    "10|111000",
                    "10|000000"
                ],
                "{dialect:?}"
            );
        }
    }
}
