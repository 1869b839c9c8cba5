//! A deliberately naive reference decoder, written from the dialect rules alone.
//!
//! It shares no code with `src/decode/`: each dialect is a list of well-formed byte patterns
//! (rows in the style of the Unicode Standard's Table 3-7), an error is the longest prefix of
//! a row that the input holds (or one byte), the kind of a one-byte error on a restricted
//! lead comes from an explicit table, and the surrogate rules of CESU-8, Modified UTF-8 and
//! WTF-8 are a second pass over the units. Slow and obvious on purpose.

use hexrune::decode::{CodePoint, Dialect, ErrorKind, Unit, UnitKind};

type Range = (u8, u8);
const CONT: Range = (0x80, 0xBF);

/// The well-formed byte patterns of a dialect, one row per sequence shape.
fn rows(d: Dialect) -> Vec<Vec<Range>> {
    let ascii_from = if d == Dialect::Mutf8 { 0x01 } else { 0x00 };
    let mut rows: Vec<Vec<Range>> = vec![
        vec![(ascii_from, 0x7F)],
        vec![(0xC2, 0xDF), CONT],
        vec![(0xE0, 0xE0), (0xA0, 0xBF), CONT],
        vec![(0xE1, 0xEC), CONT, CONT],
        vec![(0xEE, 0xEF), CONT, CONT],
    ];
    // ED: only the non-surrogates in UTF-8; the surrogate encodings too everywhere else.
    rows.push(match d {
        Dialect::Utf8 => vec![(0xED, 0xED), (0x80, 0x9F), CONT],
        _ => vec![(0xED, 0xED), CONT, CONT],
    });
    if d == Dialect::Mutf8 {
        rows.push(vec![(0xC0, 0xC0), (0x80, 0x80)]);
    }
    match d {
        Dialect::Utf8 | Dialect::Wtf8 => {
            rows.push(vec![(0xF0, 0xF0), (0x90, 0xBF), CONT, CONT]);
            rows.push(vec![(0xF1, 0xF3), CONT, CONT, CONT]);
            rows.push(vec![(0xF4, 0xF4), (0x80, 0x8F), CONT, CONT]);
        }
        Dialect::Legacy => {
            rows.push(vec![(0xF0, 0xF0), (0x90, 0xBF), CONT, CONT]);
            rows.push(vec![(0xF1, 0xF7), CONT, CONT, CONT]);
            rows.push(vec![(0xF8, 0xF8), (0x88, 0xBF), CONT, CONT, CONT]);
            rows.push(vec![(0xF9, 0xFB), CONT, CONT, CONT, CONT]);
            rows.push(vec![(0xFC, 0xFC), (0x84, 0xBF), CONT, CONT, CONT, CONT]);
            rows.push(vec![(0xFD, 0xFD), CONT, CONT, CONT, CONT, CONT]);
        }
        _ => {}
    }
    rows
}

/// The kind of the one-byte error a restricted lead makes when a continuation byte outside
/// its allowed range follows it. Straight from the dialect rules.
fn restriction(d: Dialect, lead: u8, next: u8) -> ErrorKind {
    let table: &[(u8, Range, ErrorKind)] = match d {
        Dialect::Utf8 => &[
            (0xE0, (0x80, 0x9F), ErrorKind::Overlong),
            (0xED, (0xA0, 0xBF), ErrorKind::Surrogate),
            (0xF0, (0x80, 0x8F), ErrorKind::Overlong),
            (0xF4, (0x90, 0xBF), ErrorKind::OutOfRange),
        ],
        Dialect::Cesu8 => &[(0xE0, (0x80, 0x9F), ErrorKind::Overlong)],
        Dialect::Mutf8 => &[
            (0xE0, (0x80, 0x9F), ErrorKind::Overlong),
            (0xC0, (0x81, 0xBF), ErrorKind::Overlong),
        ],
        Dialect::Wtf8 => &[
            (0xE0, (0x80, 0x9F), ErrorKind::Overlong),
            (0xF0, (0x80, 0x8F), ErrorKind::Overlong),
            (0xF4, (0x90, 0xBF), ErrorKind::OutOfRange),
        ],
        Dialect::Legacy => &[
            (0xE0, (0x80, 0x9F), ErrorKind::Overlong),
            (0xF0, (0x80, 0x8F), ErrorKind::Overlong),
            (0xF8, (0x80, 0x87), ErrorKind::Overlong),
            (0xFC, (0x80, 0x83), ErrorKind::Overlong),
        ],
        // UTF-16 and UTF-32 have no byte rows: see `utf16_units`, `utf32_units`.
        _ => &[],
    };
    table
        .iter()
        .find(|(l, (lo, hi), _)| *l == lead && (*lo..=*hi).contains(&next))
        .map(|(_, _, k)| *k)
        .unwrap_or_else(|| panic!("reference model has no rule for {d} {lead:02X} {next:02X}"))
}

fn in_range(b: u8, r: Range) -> bool {
    r.0 <= b && b <= r.1
}

/// The value of a complete sequence by the RFC 2279 bit layout.
fn value_of(seq: &[u8]) -> u32 {
    let payload_mask = [0x7F, 0x1F, 0x0F, 0x07, 0x03, 0x01][seq.len() - 1];
    seq[1..]
        .iter()
        .fold((seq[0] & payload_mask) as u32, |v, b| {
            (v << 6) | (b & 0x3F) as u32
        })
}

/// First pass: maximal subparts against the dialect's rows.
fn segment(d: Dialect, rows: &[Vec<Range>], bytes: &[u8]) -> Vec<Unit> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b0 = bytes[i];
        let row = rows.iter().find(|r| in_range(b0, r[0]));
        let unit = match row {
            None => {
                let kind = if in_range(b0, CONT) {
                    ErrorKind::UnexpectedContinuation
                } else {
                    ErrorKind::InvalidByte
                };
                Unit {
                    start: i,
                    len: 1,
                    kind: UnitKind::Error(kind),
                }
            }
            Some(row) => {
                let matched = row
                    .iter()
                    .zip(&bytes[i..])
                    .take_while(|(r, b)| in_range(**b, **r))
                    .count();
                if matched == row.len() {
                    let value = value_of(&bytes[i..i + matched]);
                    Unit {
                        start: i,
                        len: matched as u8,
                        kind: UnitKind::Scalar(CodePoint::new(value)),
                    }
                } else {
                    let kind = match bytes.get(i + matched) {
                        None => ErrorKind::TruncatedEof,
                        Some(&n) if matched == 1 && in_range(n, CONT) => restriction(d, b0, n),
                        Some(_) => ErrorKind::Truncated,
                    };
                    Unit {
                        start: i,
                        len: matched as u8,
                        kind: UnitKind::Error(kind),
                    }
                }
            }
        };
        i += unit.len as usize;
        out.push(unit);
    }
    out
}

fn surrogate(u: &Unit) -> Option<u32> {
    match u.kind {
        UnitKind::Scalar(cp) if u.len == 3 && (0xD800..=0xDFFF).contains(&cp.value()) => {
            Some(cp.value())
        }
        _ => None,
    }
}

/// The reference decoder of one dialect (its row table built once).
pub struct Reference {
    d: Dialect,
    rows: Vec<Vec<Range>>,
}

impl Reference {
    pub fn new(d: Dialect) -> Reference {
        Reference { d, rows: rows(d) }
    }

    /// The units of `bytes`, by the reference model.
    pub fn units(&self, bytes: &[u8]) -> Vec<Unit> {
        match self.d {
            Dialect::Utf16Le | Dialect::Utf16Be => utf16_units(self.d, bytes),
            Dialect::Utf32Le | Dialect::Utf32Be => utf32_units(self.d, bytes),
            Dialect::SingleByte(table) => bytes
                .iter()
                .enumerate()
                .map(|(start, b)| Unit {
                    start,
                    len: 1,
                    kind: match table.value(*b) {
                        Some(cp) => UnitKind::Scalar(cp),
                        None => UnitKind::Error(ErrorKind::UndefinedByte),
                    },
                })
                .collect(),
            _ => pair_pass(self.d, segment(self.d, &self.rows, bytes)),
        }
    }
}

/// The units of `bytes` in dialect `d`, by the reference model.
pub fn units(d: Dialect, bytes: &[u8]) -> Vec<Unit> {
    Reference::new(d).units(bytes)
}

/// Second pass: the surrogate rules.
fn pair_pass(d: Dialect, first: Vec<Unit>) -> Vec<Unit> {
    let is_lead = |v: u32| v <= 0xDBFF;
    let mut out = Vec::with_capacity(first.len());
    let mut k = 0;
    while k < first.len() {
        let u = first[k];
        let pair = match (surrogate(&u), first.get(k + 1).and_then(surrogate)) {
            (Some(a), Some(b)) if is_lead(a) && !is_lead(b) => Some((a, b)),
            _ => None,
        };
        match (d, surrogate(&u), pair) {
            // CESU-8 and Modified UTF-8: a lead+trail pair is one 6-byte scalar.
            (Dialect::Cesu8 | Dialect::Mutf8, _, Some((a, b))) => {
                let v = 0x1_0000 + ((a - 0xD800) << 10) + (b - 0xDC00);
                out.push(Unit {
                    start: u.start,
                    len: 6,
                    kind: UnitKind::Scalar(CodePoint::new(v)),
                });
                k += 2;
            }
            // CESU-8: any other surrogate encoding is an error.
            (Dialect::Cesu8, Some(_), None) => {
                out.push(Unit {
                    kind: UnitKind::Error(ErrorKind::UnpairedSurrogate),
                    ..u
                });
                k += 1;
            }
            // WTF-8: a pair written as two 3-byte sequences is two errors.
            (Dialect::Wtf8, _, Some(_)) => {
                let e = UnitKind::Error(ErrorKind::SurrogatePair);
                out.push(Unit { kind: e, ..u });
                out.push(Unit {
                    kind: e,
                    ..first[k + 1]
                });
                k += 2;
            }
            // Modified UTF-8 and WTF-8 lone surrogates, legacy surrogates: scalars.
            _ => {
                out.push(u);
                k += 1;
            }
        }
    }
    out
}

/// UTF-16 by the standard library's `char::decode_utf16`: each `Ok` is a scalar of 2 or 4
/// bytes, each `Err` one unpaired surrogate code unit; an odd byte at the end is left over.
fn utf16_units(d: Dialect, bytes: &[u8]) -> Vec<Unit> {
    let whole = bytes.len() / 2 * 2;
    let code_units = bytes[..whole].chunks_exact(2).map(|p| match d {
        Dialect::Utf16Be => u16::from_be_bytes([p[0], p[1]]),
        _ => u16::from_le_bytes([p[0], p[1]]),
    });
    let mut units = Vec::new();
    let mut pos = 0;
    for item in char::decode_utf16(code_units) {
        let (len, kind) = match item {
            Ok(c) => (
                2 * c.len_utf16() as u8,
                UnitKind::Scalar(CodePoint::new(c as u32)),
            ),
            Err(e) if e.unpaired_surrogate() <= 0xDBFF => {
                (2, UnitKind::Error(ErrorKind::UnpairedHighSurrogate))
            }
            Err(_) => (2, UnitKind::Error(ErrorKind::UnpairedLowSurrogate)),
        };
        units.push(Unit {
            start: pos,
            len,
            kind,
        });
        pos += len as usize;
    }
    left_over(&mut units, bytes.len(), whole);
    units
}

/// UTF-32 by `char::from_u32`.
fn utf32_units(d: Dialect, bytes: &[u8]) -> Vec<Unit> {
    let whole = bytes.len() / 4 * 4;
    let mut units: Vec<Unit> = bytes[..whole]
        .chunks_exact(4)
        .enumerate()
        .map(|(i, q)| {
            let q = [q[0], q[1], q[2], q[3]];
            let v = match d {
                Dialect::Utf32Be => u32::from_be_bytes(q),
                _ => u32::from_le_bytes(q),
            };
            let kind = match char::from_u32(v) {
                Some(c) => UnitKind::Scalar(CodePoint::new(c as u32)),
                None if v <= 0x10_FFFF => UnitKind::Error(ErrorKind::SurrogateUnit),
                None => UnitKind::Error(ErrorKind::OutOfRange),
            };
            Unit {
                start: 4 * i,
                len: 4,
                kind,
            }
        })
        .collect();
    left_over(&mut units, bytes.len(), whole);
    units
}

fn left_over(units: &mut Vec<Unit>, len: usize, whole: usize) {
    if len > whole {
        units.push(Unit {
            start: whole,
            len: (len - whole) as u8,
            kind: UnitKind::Error(ErrorKind::TruncatedUnit),
        });
    }
}
