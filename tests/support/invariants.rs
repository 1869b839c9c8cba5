//! Invariants every decoding must satisfy, whatever the input.
//!
//! Shared by `tests/decode_properties.rs`, `tests/decode_cases.rs` and the fuzz target
//! (`fuzz/fuzz_targets/decode.rs` includes this file by path), so it depends on nothing but
//! `hexrune` and `std`. Every check panics with the dialect, the input and the offset on
//! failure, which is what both proptest (shrinking) and libFuzzer (crash) want.

use hexrune::decode::{is_continuation, ByteRole, CodePoint, Dialect, ErrorKind, Unit, UnitKind};

/// The error kinds that can occur in a dialect, per the dialect rules.
pub fn possible_kinds(d: Dialect) -> &'static [ErrorKind] {
    use ErrorKind::*;
    match d {
        Dialect::Utf8 => &[
            InvalidByte,
            UnexpectedContinuation,
            Truncated,
            TruncatedEof,
            Overlong,
            Surrogate,
            OutOfRange,
        ],
        Dialect::Cesu8 => &[
            InvalidByte,
            UnexpectedContinuation,
            Truncated,
            TruncatedEof,
            Overlong,
            UnpairedSurrogate,
        ],
        Dialect::Mutf8 => &[
            InvalidByte,
            UnexpectedContinuation,
            Truncated,
            TruncatedEof,
            Overlong,
        ],
        Dialect::Wtf8 => &[
            InvalidByte,
            UnexpectedContinuation,
            Truncated,
            TruncatedEof,
            Overlong,
            OutOfRange,
            SurrogatePair,
        ],
        Dialect::Legacy => &[
            InvalidByte,
            UnexpectedContinuation,
            Truncated,
            TruncatedEof,
            Overlong,
        ],
        Dialect::Utf16Le | Dialect::Utf16Be => {
            &[UnpairedHighSurrogate, UnpairedLowSurrogate, TruncatedUnit]
        }
        Dialect::Utf32Le | Dialect::Utf32Be => &[OutOfRange, TruncatedUnit, SurrogateUnit],
        Dialect::SingleByte(_) => &[UndefinedByte],
    }
}

/// The code unit width of a UTF-16 (2) or UTF-32 (4) dialect, from its name alone.
pub fn width(d: Dialect) -> Option<usize> {
    match d {
        Dialect::SingleByte(_) => Some(1),
        Dialect::Utf16Le | Dialect::Utf16Be => Some(2),
        Dialect::Utf32Le | Dialect::Utf32Be => Some(4),
        _ => None,
    }
}

/// The code unit of `width` bytes at `at` in dialect `d`'s byte order.
pub fn code_unit(d: Dialect, bytes: &[u8], at: usize) -> u32 {
    let mut v = 0u32;
    let width = width(d).unwrap_or(2);
    for i in 0..width {
        let b = bytes[at + i] as u32;
        if matches!(d, Dialect::Utf16Be | Dialect::Utf32Be) {
            v = (v << 8) | b;
        } else {
            v |= b << (8 * i);
        }
    }
    v
}

/// The longest error unit a dialect can produce: a maximal subpart is at most one byte
/// shorter than the longest sequence (3 in UTF-8 and WTF-8, 5 in legacy UTF-8), and the
/// CESU-8 / Modified UTF-8 surrogate errors are whole 3-byte encodings.
pub fn max_error_len(d: Dialect) -> u8 {
    match d {
        Dialect::Utf8 | Dialect::Wtf8 | Dialect::Cesu8 | Dialect::Mutf8 => 3,
        Dialect::Legacy => 5,
        Dialect::Utf16Le | Dialect::Utf16Be => 2,
        Dialect::SingleByte(_) => 1,
        _ => 4,
    }
}

/// The RFC 2279 bit layout of `value` in exactly `len` bytes (1 to 6), no checks.
fn put_form(value: u32, len: usize, out: &mut [u8; 6]) -> usize {
    if len == 1 {
        out[0] = value as u8;
        return 1;
    }
    // The lead: `len` one bits, a zero bit, then the high payload bits.
    let lead_marker = !(0xFFu8 >> len);
    let mut v = value;
    for i in (1..len).rev() {
        out[i] = 0x80 | (v & 0x3F) as u8;
        v >>= 6;
    }
    out[0] = lead_marker | v as u8;
    len
}

/// Shortest RFC 2279 length of a value (1 to 6).
fn shortest(value: u32) -> usize {
    match value {
        0..=0x7F => 1,
        0x80..=0x7FF => 2,
        0x800..=0xFFFF => 3,
        0x1_0000..=0x1F_FFFF => 4,
        0x20_0000..=0x3FF_FFFF => 5,
        _ => 6,
    }
}

/// Encodes `value` the way dialect `d` writes it, into `out`; the number of bytes, or `None`
/// when the dialect cannot represent the value as one scalar.
///
/// Written from the dialect rules, independently of the decoder: shortest forms everywhere,
/// supplementary characters as two 3-byte surrogates in CESU-8 and Modified UTF-8, U+0000 as
/// `C0 80` in Modified UTF-8, lone surrogates only where the dialect allows them.
pub fn encode(d: Dialect, value: u32, out: &mut [u8; 6]) -> Option<usize> {
    let surrogate = (0xD800..=0xDFFF).contains(&value);
    match d {
        Dialect::SingleByte(table) => {
            out[0] = table.byte_of(CodePoint::new(value))?;
            Some(1)
        }
        Dialect::Utf16Le | Dialect::Utf16Be => {
            let c = char::from_u32(value)?;
            let mut units = [0u16; 2];
            let mut n = 0;
            for u in c.encode_utf16(&mut units) {
                let pair = match d {
                    Dialect::Utf16Le => u.to_le_bytes(),
                    _ => u.to_be_bytes(),
                };
                out[n..n + 2].copy_from_slice(&pair);
                n += 2;
            }
            Some(n)
        }
        Dialect::Utf32Le | Dialect::Utf32Be => {
            let c = char::from_u32(value)? as u32;
            let quad = match d {
                Dialect::Utf32Le => c.to_le_bytes(),
                _ => c.to_be_bytes(),
            };
            out[..4].copy_from_slice(&quad);
            Some(4)
        }
        Dialect::Utf8 => {
            let c = char::from_u32(value)?;
            Some(c.encode_utf8(&mut out[..4]).len())
        }
        Dialect::Wtf8 => (value <= 0x10_FFFF).then(|| put_form(value, shortest(value), out)),
        Dialect::Legacy => (value <= 0x7FFF_FFFF).then(|| put_form(value, shortest(value), out)),
        Dialect::Cesu8 | Dialect::Mutf8 => {
            if value > 0x10_FFFF || (surrogate && d == Dialect::Cesu8) {
                return None;
            }
            if value == 0 && d == Dialect::Mutf8 {
                out[0] = 0xC0;
                out[1] = 0x80;
                return Some(2);
            }
            if value < 0x1_0000 {
                return Some(put_form(value, shortest(value), out));
            }
            let v = value - 0x1_0000;
            let (hi, lo) = (0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF));
            let mut half = [0u8; 6];
            put_form(hi, 3, &mut half);
            out[..3].copy_from_slice(&half[..3]);
            put_form(lo, 3, &mut half);
            out[3..6].copy_from_slice(&half[..3]);
            Some(6)
        }
    }
}

/// The units `core::str::Utf8Chunks` implies: each `char` of a valid run is a scalar, each
/// invalid run is one error (its kind unknown to std, so `InvalidByte` stands in; compare
/// with [`same_boundaries`]).
pub fn utf8_chunks_units(bytes: &[u8]) -> Vec<Unit> {
    let mut units = Vec::with_capacity(bytes.len());
    let mut pos = 0;
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            units.push(Unit {
                start: pos,
                len: c.len_utf8() as u8,
                kind: UnitKind::Scalar(CodePoint::new(c as u32)),
            });
            pos += c.len_utf8();
        }
        let bad = chunk.invalid().len();
        if bad > 0 {
            units.push(Unit {
                start: pos,
                len: bad as u8,
                kind: UnitKind::Error(ErrorKind::InvalidByte),
            });
            pos += bad;
        }
    }
    units
}

/// Whether two unit lists have the same boundaries, the same values for scalars and errors in
/// the same places (error kinds are not compared).
pub fn same_boundaries(a: &[Unit], b: &[Unit]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.start == y.start
                && x.len == y.len
                && match (x.kind, y.kind) {
                    (UnitKind::Scalar(p), UnitKind::Scalar(q)) => p == q,
                    (UnitKind::Error(_), UnitKind::Error(_)) => true,
                    _ => false,
                }
        })
}

/// Asserts that the UTF-8 units of `bytes` equal `Utf8Chunks` (boundaries and values).
pub fn check_utf8_chunks(bytes: &[u8], units: &[Unit]) {
    let std_units = utf8_chunks_units(bytes);
    assert!(
        same_boundaries(units, &std_units),
        "utf8 units differ from Utf8Chunks on {bytes:02X?}:\n ours {units:?}\n  std {std_units:?}"
    );
}

/// Asserts the shape of a decoding: the units tile the input (no gap, no overlap), each scalar
/// has class == len and re-encodes to exactly its bytes, each error has a kind possible in the
/// dialect and the byte pattern its kind names.
pub fn check_shape(d: Dialect, bytes: &[u8], units: &[Unit]) {
    let ctx = |i: usize| format!("{d} on {bytes:02X?}, unit #{i} {:?}", units[i]);
    let mut pos = 0;
    for (i, u) in units.iter().enumerate() {
        assert_eq!(u.start, pos, "gap or overlap: {}", ctx(i));
        assert!(
            u.len >= 1 && u.len as usize <= d.max_unit_len(),
            "bad length: {}",
            ctx(i)
        );
        assert!(u.end() <= bytes.len(), "unit past the end: {}", ctx(i));
        let b = &bytes[u.start..u.end()];
        match u.kind {
            UnitKind::Scalar(cp) => {
                assert_eq!(u.class(), Some(u.len), "class != len: {}", ctx(i));
                let mut buf = [0u8; 6];
                let n = encode(d, cp.value(), &mut buf)
                    .unwrap_or_else(|| panic!("scalar not encodable in the dialect: {}", ctx(i)));
                assert_eq!(
                    &buf[..n],
                    b,
                    "scalar does not re-encode to its bytes: {}",
                    ctx(i)
                );
                if cp.is_surrogate() && matches!(d, Dialect::Mutf8 | Dialect::Wtf8) {
                    // A lone surrogate: no partner right next to it.
                    assert!(
                        !pairs_with_neighbour(bytes, u.start),
                        "paired surrogate left lone: {}",
                        ctx(i)
                    );
                }
            }
            UnitKind::Error(kind) => {
                assert_eq!(u.class(), None);
                assert!(
                    possible_kinds(d).contains(&kind),
                    "kind impossible in dialect: {}",
                    ctx(i)
                );
                assert!(u.len <= max_error_len(d), "error too long: {}", ctx(i));
                check_error_pattern(d, bytes, u, kind, &ctx(i));
            }
        }
        pos = u.end();
    }
    assert_eq!(pos, bytes.len(), "units stop short: {d} on {bytes:02X?}");
}

/// The byte patterns of the UTF-16 and UTF-32 error kinds, from the definitions.
fn check_wide_error_pattern(d: Dialect, bytes: &[u8], u: &Unit, kind: ErrorKind, ctx: &str) {
    let w = width(d).unwrap_or(2);
    if let Dialect::SingleByte(table) = d {
        assert_eq!((kind, u.len), (ErrorKind::UndefinedByte, 1), "{ctx}");
        assert_eq!(table.value(bytes[u.start]), None, "defined: {ctx}");
        return;
    }
    assert_eq!(u.start % w, 0, "unit not aligned: {ctx}");
    if kind == ErrorKind::TruncatedUnit {
        assert!((u.len as usize) < w, "{ctx}");
        assert_eq!(u.end(), bytes.len(), "truncated_unit before the end: {ctx}");
        return;
    }
    assert_eq!(u.len as usize, w, "{ctx}");
    let v = code_unit(d, bytes, u.start);
    let high = |at: usize| (0xD800..=0xDBFF).contains(&code_unit(d, bytes, at));
    let low = |at: usize| (0xDC00..=0xDFFF).contains(&code_unit(d, bytes, at));
    match kind {
        ErrorKind::UnpairedHighSurrogate => {
            assert!(w == 2 && (0xD800..=0xDBFF).contains(&v), "{ctx}");
            assert!(u.end() + 2 > bytes.len() || !low(u.end()), "paired: {ctx}");
        }
        ErrorKind::UnpairedLowSurrogate => {
            assert!(w == 2 && (0xDC00..=0xDFFF).contains(&v), "{ctx}");
            assert!(u.start < 2 || !high(u.start - 2), "paired: {ctx}");
        }
        ErrorKind::SurrogateUnit => assert!(w == 4 && (0xD800..=0xDFFF).contains(&v), "{ctx}"),
        ErrorKind::OutOfRange => assert!(w == 4 && v > 0x10_FFFF, "{ctx}"),
        _ => panic!("not a UTF-16/32 kind: {ctx}"),
    }
}

fn check_error_pattern(d: Dialect, bytes: &[u8], u: &Unit, kind: ErrorKind, ctx: &str) {
    if width(d).is_some() {
        return check_wide_error_pattern(d, bytes, u, kind, ctx);
    }
    let b0 = bytes[u.start];
    let next = bytes.get(u.end()).copied();
    let lead = match d.role(b0) {
        ByteRole::Lead { len, second } => Some((len, second)),
        _ => None,
    };
    match kind {
        ErrorKind::InvalidByte => {
            assert_eq!(u.len, 1, "{ctx}");
            assert_eq!(d.role(b0), ByteRole::Never, "{ctx}");
        }
        ErrorKind::UnexpectedContinuation => {
            assert_eq!(u.len, 1, "{ctx}");
            assert!(is_continuation(b0), "{ctx}");
        }
        ErrorKind::Truncated | ErrorKind::TruncatedEof => {
            let (len, second) = lead.unwrap_or_else(|| panic!("truncated without a lead: {ctx}"));
            assert!(u.len < len, "{ctx}");
            if u.len >= 2 {
                assert!(second.contains(bytes[u.start + 1]), "{ctx}");
            }
            assert!(
                bytes[u.start + 1..u.end()]
                    .iter()
                    .all(|b| is_continuation(*b)),
                "{ctx}"
            );
            if kind == ErrorKind::TruncatedEof {
                assert_eq!(next, None, "truncated_eof before the end: {ctx}");
            } else {
                let n = next.unwrap_or_else(|| panic!("truncated at the end: {ctx}"));
                assert!(!is_continuation(n), "cut by a continuation byte: {ctx}");
            }
        }
        ErrorKind::Overlong | ErrorKind::Surrogate | ErrorKind::OutOfRange => {
            assert_eq!(u.len, 1, "{ctx}");
            let (_, second) = lead.unwrap_or_else(|| panic!("restriction without a lead: {ctx}"));
            let n = next.unwrap_or_else(|| panic!("restriction error at the end: {ctx}"));
            assert!(is_continuation(n) && !second.contains(n), "{ctx}");
            let want = match b0 {
                0xED => ErrorKind::Surrogate,
                0xF4 => ErrorKind::OutOfRange,
                _ => ErrorKind::Overlong,
            };
            assert_eq!(kind, want, "{ctx}");
        }
        ErrorKind::UnpairedSurrogate | ErrorKind::SurrogatePair => {
            assert_eq!(u.len, 3, "{ctx}");
            assert!(
                surrogate_half(bytes, u.start).is_some(),
                "not a surrogate encoding: {ctx}"
            );
            assert_eq!(
                pairs_with_neighbour(bytes, u.start),
                kind == ErrorKind::SurrogatePair,
                "pairing context does not match the kind: {ctx}"
            );
        }
        _ => panic!("not a UTF-8 family kind: {ctx}"),
    }
}

/// Asserts that resync from every offset gives the unit decoding from the start gives, that
/// it needs no byte outside `x-5 ..= x+5`, and that its start lies within
/// `max_lookback` bytes of `x`.
pub fn check_resync(d: Dialect, bytes: &[u8], units: &[Unit]) {
    for u in units {
        for x in u.start..u.end() {
            let got = d.unit_containing(bytes, x);
            assert_eq!(
                got, *u,
                "{d}: unit_containing({x}) differs from full decode on {bytes:02X?}"
            );
            assert!(x - u.start <= d.max_lookback());

            // The same question asked of a window x-5 ..= x+5 of the input must get the same
            // answer: the decoder documents it reads nothing outside it.
            // UTF-16 and UTF-32 count code units from the slice's start: a window must
            // start on a multiple of 4 (see `decode::wide`).
            let align = if width(d).is_some() { !3 } else { !0 };
            let lo = x.saturating_sub(5) & align;
            let hi = (x + 6).min(bytes.len());
            let w = d.unit_containing(&bytes[lo..hi], x - lo);
            assert_eq!(
                (w.start + lo, w.len, w.kind),
                (u.start, u.len, u.kind),
                "{d}: window {lo}..{hi} changes the unit containing {x} on {bytes:02X?}"
            );

            // Looking back only `max_lookback` bytes finds the same unit. In WTF-8 the start
            // and length are found that way, but whether a trail surrogate is the second
            // half of a `surrogate_pair` depends on the 3 bytes before it, which are up to
            // 5 bytes before `x` (the window check above covers it).
            let lo = (x - d.max_lookback().min(x)) & align;
            let w = d.unit_containing(&bytes[lo..], x - lo);
            let trail_of_pair = d == Dialect::Wtf8
                && u.kind == UnitKind::Error(ErrorKind::SurrogatePair)
                && bytes[u.start + 1] >= 0xB0;
            if trail_of_pair && u.start - lo < 3 {
                assert_eq!(
                    (w.start + lo, w.len),
                    (u.start, u.len),
                    "{d} x={x} {bytes:02X?}"
                );
            } else {
                assert_eq!(
                    (w.start + lo, w.len, w.kind),
                    (u.start, u.len, u.kind),
                    "{d}: lookback of {} bytes is not enough at {x} on {bytes:02X?}",
                    d.max_lookback()
                );
            }
        }
    }
}

/// Asserts `decode_at`, `next_unit`, `prev_unit`, `units_from` and the iterator agree with the
/// list of units from the start.
pub fn check_navigation(d: Dialect, bytes: &[u8], units: &[Unit]) {
    for (k, u) in units.iter().enumerate() {
        assert_eq!(
            d.decode_at(bytes, u.start),
            *u,
            "{d}: decode_at({}) on {bytes:02X?}",
            u.start
        );
        for x in [u.start, u.end() - 1] {
            assert_eq!(
                d.next_unit(bytes, x),
                units.get(k + 1).copied(),
                "{d}: next_unit({x}) on {bytes:02X?}"
            );
            assert_eq!(
                d.prev_unit(bytes, x),
                k.checked_sub(1).map(|j| units[j]),
                "{d}: prev_unit({x}) on {bytes:02X?}"
            );
        }
        // units_from resyncs, then decodes forward: its position and first few units tell
        // (comparing to the end would make the check quadratic on long fuzz inputs).
        let x = u.end() - 1;
        let from = d.units_from(bytes, x);
        assert_eq!(from.position(), u.start);
        assert!(
            from.take(4).eq(units[k..].iter().copied().take(4)),
            "{d}: units_from({x}) on {bytes:02X?}"
        );
    }
    assert_eq!(d.units_from(bytes, bytes.len()).next(), None);
    // Once to the end, from the middle unit's last byte.
    if let Some(mid) = units.get(units.len() / 2) {
        assert!(
            d.units_from(bytes, mid.end() - 1)
                .eq(units[units.len() / 2..].iter().copied()),
            "{d}: units_from({}) to the end on {bytes:02X?}",
            mid.end() - 1
        );
    }
    // The iterator's size hint brackets the real count at every step.
    let mut it = d.units(bytes);
    let mut left = units.len();
    loop {
        let (lo, hi) = it.size_hint();
        assert!(
            lo <= left && hi.is_none_or(|h| left <= h),
            "{d}: size_hint {lo} {hi:?} vs {left}"
        );
        if it.next().is_none() {
            break;
        }
        left -= 1;
    }
    assert_eq!(left, 0);
    assert_eq!(it.next(), None, "not fused");
}

/// Every invariant: shape, resync, navigation, and in UTF-8 equality with `Utf8Chunks`.
/// Returns the units.
pub fn check_all(d: Dialect, bytes: &[u8]) -> Vec<Unit> {
    let units: Vec<Unit> = d.units(bytes).collect();
    check_shape(d, bytes, &units);
    if d == Dialect::Utf8 {
        check_utf8_chunks(bytes, &units);
    }
    check_resync(d, bytes, &units);
    check_navigation(d, bytes, &units);
    check_explanations(d, bytes, &units);
    units
}

/// Asserts what `expected` and `diagnose` say is consistent with the units: an expected range
/// exactly for the kinds that have one, never containing the byte actually found; a diagnosis
/// only for errors, spanning whole error units from the error's start.
pub fn check_explanations(d: Dialect, bytes: &[u8], units: &[Unit]) {
    for (k, u) in units.iter().enumerate() {
        let expected = d.expected(bytes, u);
        let diagnosis = d.diagnose(bytes, u);
        let Some(kind) = u.error_kind() else {
            assert_eq!(
                (expected, diagnosis),
                (None, None),
                "{d}: scalar {u:?} on {bytes:02X?}"
            );
            continue;
        };
        let has_range = width(d).is_none()
            && matches!(
                kind,
                ErrorKind::Truncated
                    | ErrorKind::TruncatedEof
                    | ErrorKind::Overlong
                    | ErrorKind::Surrogate
                    | ErrorKind::OutOfRange
            );
        assert_eq!(
            expected.is_some(),
            has_range,
            "{d}: expected() for {u:?} on {bytes:02X?}"
        );
        if let (Some(range), Some(found)) = (expected, bytes.get(u.end())) {
            assert!(
                !range.contains(*found),
                "{d}: expected {range} holds the byte found, {u:?} on {bytes:02X?}"
            );
        }
        if let Some(diag) = diagnosis {
            let span = diag.span as usize;
            assert!(
                span >= u.len as usize,
                "{d}: diagnosis shorter than its unit {u:?} on {bytes:02X?}"
            );
            let end = u.start + span;
            assert!(
                end <= bytes.len(),
                "{d}: diagnosis past the end {u:?} on {bytes:02X?}"
            );
            let covered: Vec<&Unit> = units[k..].iter().take_while(|v| v.start < end).collect();
            assert_eq!(
                covered.last().map(|v| v.end()),
                Some(end),
                "{d}: diagnosis {diag} ends inside a unit, {u:?} on {bytes:02X?}"
            );
            assert!(
                covered.iter().all(|v| v.is_error()),
                "{d}: diagnosis {diag} covers a scalar, {u:?} on {bytes:02X?}"
            );
            assert!(!diag.to_string().is_empty());
        }
    }
}

/// `Some(true)` for a complete lead-surrogate encoding (`ED A0..AF 80..BF`) at `at`,
/// `Some(false)` for a trail (`ED B0..BF 80..BF`), `None` otherwise.
pub fn surrogate_half(bytes: &[u8], at: usize) -> Option<bool> {
    match bytes.get(at..at + 3)? {
        [0xED, b1 @ 0xA0..=0xBF, b2] if is_continuation(*b2) => Some(*b1 <= 0xAF),
        _ => None,
    }
}

/// Whether the surrogate encoding at `at` is a lead directly followed by a trail, or a trail
/// directly after a lead.
pub fn pairs_with_neighbour(bytes: &[u8], at: usize) -> bool {
    match surrogate_half(bytes, at) {
        Some(true) => surrogate_half(bytes, at + 3) == Some(false),
        Some(false) => at >= 3 && surrogate_half(bytes, at - 3) == Some(true),
        None => false,
    }
}
