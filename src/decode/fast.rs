//! A branch-free decoding step for strict UTF-8, for the scan's error path.
//!
//! [`Dialect::decode_at`](super::Dialect::decode_at) is a handful of branches on the lead byte and the next ones. On
//! valid text they are predictable; on random or binary data every unit is a coin toss and
//! a mispredicted branch costs more than the decode. [`decode_utf8_at`] computes the same
//! unit from a table lookup and arithmetic only. It needs four readable bytes; the tests
//! hold it equal to `decode_at` on every combination of the bytes that matter.

use super::dialect::{is_continuation, ByteRole};
use super::unit::{CodePoint, ErrorKind, Unit, UnitKind};

/// What the branch-free step needs to know about a first byte.
#[derive(Clone, Copy)]
struct Lead {
    /// Sequence length: 1 for ASCII, continuation and never-valid bytes.
    len: u8,
    /// Range of the second byte, as `b1 - lo <= span` (wrapping).
    lo: u8,
    span: u8,
    /// A one-byte unit that is a scalar (ASCII).
    ascii: bool,
    /// The error of this byte when it stands alone or its second byte is a continuation
    /// outside the range: `invalid_byte`, `unexpected_continuation`, or the lead's
    /// restriction (`overlong`, `surrogate`, `out_of_range`).
    alone: ErrorKind,
}

const fn lead_of(b: u8) -> Lead {
    let alone = match b {
        0x80..=0xBF => ErrorKind::UnexpectedContinuation,
        0xED => ErrorKind::Surrogate,
        0xF4 => ErrorKind::OutOfRange,
        0xE0 | 0xF0 => ErrorKind::Overlong,
        _ => ErrorKind::InvalidByte,
    };
    let (len, lo, hi) = match utf8_role(b) {
        ByteRole::Lead { len, second } => (len, second.lo, second.hi),
        // Never matches: with lo = 1 and span = 0 only byte 1 would, and a 1-byte lead
        // never looks at its second byte anyway.
        _ => (1, 1, 1),
    };
    Lead {
        len,
        lo,
        span: hi.wrapping_sub(lo),
        ascii: b < 0x80,
        alone,
    }
}

const fn utf8_role(b: u8) -> ByteRole {
    // Dialect::role is not const; the UTF-8 table is small enough to restate from it in a
    // test (see `table_matches_roles`).
    match b {
        0x00..=0x7F => ByteRole::Ascii,
        0x80..=0xBF => ByteRole::Continuation,
        0xC2..=0xDF => lead(2, 0x80, 0xBF),
        0xE0 => lead(3, 0xA0, 0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => lead(3, 0x80, 0xBF),
        0xED => lead(3, 0x80, 0x9F),
        0xF0 => lead(4, 0x90, 0xBF),
        0xF1..=0xF3 => lead(4, 0x80, 0xBF),
        0xF4 => lead(4, 0x80, 0x8F),
        _ => ByteRole::Never,
    }
}

const fn lead(len: u8, lo: u8, hi: u8) -> ByteRole {
    ByteRole::Lead {
        len,
        second: super::dialect::ByteRange::new(lo, hi),
    }
}

static LEADS: [Lead; 256] = {
    let mut table = [lead_of(0); 256];
    let mut i = 0;
    while i < 256 {
        table[i] = lead_of(i as u8);
        i += 1;
    }
    table
};

const PAYLOAD_MASK: [u8; 5] = [0, 0x7F, 0x1F, 0x0F, 0x07];

/// A unit reduced to what counting needs: its length and one tag, `1..=6` for a scalar of
/// that class, `7 + ErrorKind::index()` for an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Length in bytes.
    pub len: u8,
    /// The class of a scalar (1 to 6), or 7 plus the index of the error kind.
    pub tag: u8,
}

impl Shape {
    /// The first tag of an error.
    pub const FIRST_ERROR_TAG: u8 = 7;
    /// One more than the largest tag.
    pub const TAGS: usize = 7 + ErrorKind::ALL.len();

    /// The shape of a decoded unit.
    pub fn of(unit: &Unit) -> Shape {
        let tag = match unit.kind {
            UnitKind::Scalar(_) => unit.len,
            UnitKind::Error(kind) => Shape::FIRST_ERROR_TAG + kind.index() as u8,
        };
        Shape { len: unit.len, tag }
    }

    /// Whether the unit is an error.
    #[inline(always)]
    pub fn is_error(self) -> bool {
        self.tag >= Shape::FIRST_ERROR_TAG
    }
}

/// `if condition { a } else { b }` on bytes, written with masks so that the compiler keeps
/// it free of branches (on random data the condition is a coin toss).
#[inline(always)]
fn select(condition: bool, a: u8, b: u8) -> u8 {
    let mask = (condition as u8).wrapping_neg();
    (a & mask) | (b & !mask)
}

/// The pieces both front ends need: (length, is a scalar, value, error kind index).
#[inline(always)]
fn step(b0: u8, b1: u8, b2: u8, b3: u8) -> (u8, bool, u32, u8) {
    let lead = LEADS[b0 as usize];
    let n = lead.len;
    let in_range = b1.wrapping_sub(lead.lo) <= lead.span;
    let (c1, c2, c3) = (
        is_continuation(b1),
        is_continuation(b2),
        is_continuation(b3),
    );
    let ok1 = (n >= 2) & in_range;
    let ok2 = ok1 & (n >= 3) & c2;
    let ok3 = ok2 & (n >= 4) & c3;
    let consumed = 1 + ok1 as u8 + ok2 as u8 + ok3 as u8;
    let complete = consumed == n;
    let mut value = (b0 & PAYLOAD_MASK[n as usize]) as u32;
    value = if n >= 2 {
        (value << 6) | (b1 & 0x3F) as u32
    } else {
        value
    };
    value = if n >= 3 {
        (value << 6) | (b2 & 0x3F) as u32
    } else {
        value
    };
    value = if n >= 4 {
        (value << 6) | (b3 & 0x3F) as u32
    } else {
        value
    };
    let scalar = complete & ((n >= 2) | lead.ascii);
    // Four bytes are readable, so an incomplete sequence was cut by a byte, not the end.
    let error = select(
        (n == 1) | ((consumed == 1) & c1),
        lead.alone as u8,
        ErrorKind::Truncated as u8,
    );
    (consumed, scalar, value, error)
}

/// The UTF-8 unit starting at `at`, exactly as `Dialect::Utf8.decode_at(bytes, at)`, for
/// `at + 4 <= bytes.len()`; `None` closer to the end (use `decode_at` there).
#[inline(always)]
pub fn decode_utf8_at(bytes: &[u8], at: usize) -> Option<Unit> {
    let &[b0, b1, b2, b3] = bytes.get(at..at.checked_add(4)?)? else {
        return None;
    };
    let (len, scalar, value, error) = step(b0, b1, b2, b3);
    Some(Unit {
        start: at,
        len,
        kind: if scalar {
            UnitKind::Scalar(CodePoint::new(value))
        } else {
            UnitKind::Error(ErrorKind::ALL[error as usize])
        },
    })
}

/// The [`Shape`] of the UTF-8 unit starting at `at`, exactly
/// `Shape::of(&decode_utf8_at(bytes, at)?)`, without computing the unit's value: for a
/// printer that looks a unit's cells up by its shape. `None` where `decode_utf8_at` is.
#[inline(always)]
pub fn shape_utf8_at(bytes: &[u8], at: usize) -> Option<Shape> {
    let &[b0, b1, b2, b3] = bytes.get(at..at.checked_add(4)?)? else {
        return None;
    };
    let (len, scalar, _, error) = step(b0, b1, b2, b3);
    Some(Shape {
        len,
        tag: select(scalar, len, Shape::FIRST_ERROR_TAG + error),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::Dialect;

    #[test]
    fn table_matches_roles() {
        for b in 0..=255u8 {
            assert_eq!(utf8_role(b), Dialect::Utf8.role(b), "{b:02X}");
        }
    }

    /// Every first and second byte, with the third and fourth from the values where the
    /// rules change.
    #[test]
    fn equals_decode_at() {
        let edges = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xF0,
            0xF4, 0xFF,
        ];
        for b0 in 0..=255u8 {
            for b1 in 0..=255u8 {
                for b2 in edges {
                    for b3 in edges {
                        let bytes = [b0, b1, b2, b3, 0x41];
                        let unit = Dialect::Utf8.decode_at(&bytes, 0);
                        assert_eq!(decode_utf8_at(&bytes, 0), Some(unit), "{bytes:02X?}");
                        assert_eq!(shape_utf8_at(&bytes, 0), Some(Shape::of(&unit)));
                    }
                }
            }
        }
        assert_eq!(decode_utf8_at(b"abc", 0), None);
        assert_eq!(decode_utf8_at(b"abcd", 1), None);
        assert_eq!(shape_utf8_at(b"abcd", 1), None);
    }
}
