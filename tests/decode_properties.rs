//! Exhaustive comparisons and properties of the decoder, in every dialect.
//!
//! - UTF-8 against `core::str::Utf8Chunks`: every 1-, 2- and 3-byte input in several
//!   contexts, and every 4-byte input over a set of 40 boundary bytes.
//! - Every dialect against an independent reference model (`tests/support/reference.rs`)
//!   and the invariants of `tests/support/invariants.rs` (tiling, class == len, re-encoding,
//!   error patterns, resync at every offset from a bounded window, navigation), over boundary
//!   bytes, sequences of interesting tokens, and proptest inputs biased toward both.
//!
//! Sized for `cargo test` in debug mode on a small machine.

mod support;

use hexrune::decode::{is_continuation, Dialect, ErrorKind, Unit, UnitKind};
use proptest::prelude::*;
use support::invariants::{check_all, utf8_chunks_units};
use support::reference::Reference;
use support::wide;

/// Byte values at the edges of every range the dialects care about: ASCII, the continuation
/// sub-ranges that restricted leads split (80, 81, 83|84, 87|88, 8F|90, 9F|A0, AF|B0, BF),
/// and every kind of lead or never-valid byte.
const BOUNDARY: [u8; 40] = [
    0x00, 0x01, 0x41, 0x7F, // ASCII (00 is invalid in Modified UTF-8)
    0x80, 0x81, 0x83, 0x84, 0x87, 0x88, 0x8F, 0x90, 0x9F, 0xA0, 0xAF, 0xB0,
    0xBF, // continuations
    0xC0, 0xC1, 0xC2, 0xDF, // 2-byte leads and C0 C1
    0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, // 3-byte leads
    0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, // 4-byte leads (F5..F7 legacy only)
    0xF8, 0xF9, 0xFB, 0xFC, 0xFD, // 5- and 6-byte leads (legacy only)
    0xFE, 0xFF,
];

/// A smaller boundary set for the checks that cost more per input.
const SMALL: [u8; 18] = [
    0x41, 0x00, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xF0, 0xF4,
    0xF8, 0xFC,
];

/// The UTF-8 error kind a maximal subpart must have, from the dialect rules alone.
fn utf8_kind(bytes: &[u8], u: &Unit) -> ErrorKind {
    let b0 = bytes[u.start];
    if u.len >= 2 {
        return if u.end() < bytes.len() {
            ErrorKind::Truncated
        } else {
            ErrorKind::TruncatedEof
        };
    }
    if is_continuation(b0) {
        return ErrorKind::UnexpectedContinuation;
    }
    if matches!(b0, 0xC0 | 0xC1 | 0xF5..=0xFF) || b0 < 0x80 {
        return ErrorKind::InvalidByte;
    }
    match bytes.get(u.start + 1) {
        None => ErrorKind::TruncatedEof,
        Some(n) if !is_continuation(*n) => ErrorKind::Truncated,
        Some(_) => match b0 {
            0xED => ErrorKind::Surrogate,
            0xF4 => ErrorKind::OutOfRange,
            _ => ErrorKind::Overlong,
        },
    }
}

/// Compares the UTF-8 units of `bytes` with `Utf8Chunks` without allocating (boundaries,
/// values) and checks each error's kind.
fn utf8_matches_std(bytes: &[u8]) -> bool {
    let mut ours = Dialect::Utf8.units(bytes);
    let mut pos = 0;
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match ours.next() {
                Some(u)
                    if u.start == pos
                        && u.len as usize == c.len_utf8()
                        && u.code_point().map(|p| p.value()) == Some(c as u32) => {}
                _ => return false,
            }
            pos += c.len_utf8();
        }
        let bad = chunk.invalid().len();
        if bad > 0 {
            match ours.next() {
                Some(u)
                    if u.start == pos
                        && u.len as usize == bad
                        && u.error_kind() == Some(utf8_kind(bytes, &u)) => {}
                _ => return false,
            }
            pos += bad;
        }
    }
    ours.next().is_none()
}

fn assert_utf8_matches_std(bytes: &[u8]) {
    if !utf8_matches_std(bytes) {
        let ours: Vec<Unit> = Dialect::Utf8.units(bytes).collect();
        panic!(
            "utf8 differs from Utf8Chunks on {bytes:02X?}\n ours {ours:?}\n  std {:?}",
            utf8_chunks_units(bytes)
        );
    }
}

#[test]
fn utf8_every_1_and_2_byte_input_in_many_contexts() {
    let mut contexts: Vec<Vec<u8>> = vec![vec![], vec![0x80, 0x80, 0x80], vec![0xBF, 0x41]];
    contexts.extend(BOUNDARY.iter().map(|b| vec![*b]));
    let mut buf = Vec::with_capacity(8);
    for ctx in &contexts {
        for a in 0..=255u8 {
            buf.clear();
            buf.push(a);
            buf.extend_from_slice(ctx);
            assert_utf8_matches_std(&buf);
            for b in 0..=255u8 {
                buf.clear();
                buf.extend_from_slice(&[a, b]);
                buf.extend_from_slice(ctx);
                assert_utf8_matches_std(&buf);
            }
        }
    }
}

/// Every 3-byte input followed by `ctx`.
fn utf8_every_3_byte_input(ctx: &[u8]) {
    let mut buf = vec![0u8; 3 + ctx.len()];
    buf[3..].copy_from_slice(ctx);
    for a in 0..=255u8 {
        buf[0] = a;
        for b in 0..=255u8 {
            buf[1] = b;
            for c in 0..=255u8 {
                buf[2] = c;
                assert_utf8_matches_std(&buf);
            }
        }
    }
}

#[test]
fn utf8_every_3_byte_input_at_the_end() {
    utf8_every_3_byte_input(&[]);
}

#[test]
fn utf8_every_3_byte_input_before_ascii() {
    utf8_every_3_byte_input(b"A");
}

#[test]
fn utf8_every_3_byte_input_before_continuations() {
    // Completes every 2- and 3-byte prefix that can be completed, and leaves unclaimed
    // continuation bytes after the rest.
    utf8_every_3_byte_input(&[0x80, 0xBF, 0x80]);
}

#[test]
fn utf8_every_4_byte_input_over_boundary_bytes() {
    for ctx in [&[][..], &[0x80, 0x41][..]] {
        let mut buf = vec![0u8; 4 + ctx.len()];
        buf[4..].copy_from_slice(ctx);
        for a in BOUNDARY {
            for b in BOUNDARY {
                for c in BOUNDARY {
                    for d in BOUNDARY {
                        buf[..4].copy_from_slice(&[a, b, c, d]);
                        assert_utf8_matches_std(&buf);
                    }
                }
            }
        }
    }
}

/// Asserts the decoder equals the reference model on `bytes` in `d`.
fn assert_matches_reference(d: Dialect, reference: &Reference, bytes: &[u8]) {
    let ours: Vec<Unit> = d.units(bytes).collect();
    let want = reference.units(bytes);
    assert_eq!(
        ours, want,
        "{d} differs from the reference model on {bytes:02X?}"
    );
}

/// The reference model itself agrees with `Utf8Chunks` (so it is a fair oracle for the
/// dialects that differ from UTF-8 only in a few rules).
#[test]
fn reference_model_agrees_with_std_on_utf8() {
    let reference = Reference::new(Dialect::Utf8);
    for a in BOUNDARY {
        for b in BOUNDARY {
            for c in BOUNDARY {
                let bytes = [a, b, c];
                assert!(
                    support::invariants::same_boundaries(
                        &reference.units(&bytes),
                        &utf8_chunks_units(&bytes)
                    ),
                    "{bytes:02X?}"
                );
            }
        }
    }
}

/// Every dialect, every input of 1 to 4 boundary bytes: equal to the reference model.
#[test]
fn every_dialect_matches_the_reference_model_on_boundary_bytes() {
    for d in Dialect::ALL {
        let reference = Reference::new(d);
        let mut buf = Vec::with_capacity(4);
        for a in BOUNDARY {
            for b in BOUNDARY {
                for c in BOUNDARY {
                    buf.clear();
                    buf.extend_from_slice(&[a, b, c]);
                    assert_matches_reference(d, &reference, &buf);
                    assert_matches_reference(d, &reference, &buf[..1]);
                    assert_matches_reference(d, &reference, &buf[..2]);
                }
            }
        }
        for a in SMALL {
            for b in SMALL {
                for c in SMALL {
                    for e in SMALL {
                        assert_matches_reference(d, &reference, &[a, b, c, e]);
                    }
                }
            }
        }
    }
}

/// Every dialect, every input of 1 to 3 boundary bytes: every invariant, resync at every
/// offset included.
#[test]
fn every_dialect_invariants_on_boundary_bytes() {
    for d in Dialect::ALL {
        for a in BOUNDARY {
            check_all(d, &[a]);
            for b in BOUNDARY {
                check_all(d, &[a, b]);
                for c in SMALL {
                    check_all(d, &[a, b, c]);
                }
            }
        }
    }
}

/// Pieces that make the interesting sequences of every dialect: well-formed units of each
/// class, surrogate halves (which pair or not), the 6-byte CESU-8 pair, 5- and 6-byte legacy
/// forms, overlong and out-of-range forms, truncated prefixes, stray bytes.
const TOKENS: &[&[u8]] = &[
    b"a",
    b"\x00",
    b"\xC2\x80",
    b"\xC0\x80",
    b"\xC1\xBF",
    b"\xE0\xA0\x80",
    b"\xEF\xBF\xBF",
    b"\xE0\x80\xAF",
    b"\xED\x9F\xBF",
    b"\xED\xA0\x80", // lead surrogate
    b"\xED\xAF\xBF", // lead surrogate
    b"\xED\xB0\x80", // trail surrogate
    b"\xED\xBF\xBF", // trail surrogate
    b"\xF0\x90\x80\x80",
    b"\xF4\x8F\xBF\xBF",
    b"\xF4\x90\x80\x80",
    b"\xF0\x8F\xBF\xBF",
    b"\xF7\xBF\xBF\xBF",
    b"\xF8\x88\x80\x80\x80",
    b"\xF8\x87\xBF\xBF\xBF",
    b"\xFC\x84\x80\x80\x80\x80",
    b"\xFD\xBF\xBF\xBF\xBF\xBF",
    b"\xFC\x83\xBF\xBF\xBF\xBF",
    b"\xC2",
    b"\xE1\x80",
    b"\xF1\x80\x80",
    b"\xED\xA0",
    b"\xED\xB0",
    b"\xF8\x88\x80\x80",
    b"\xFC\x84\x80\x80\x80",
    b"\x80",
    b"\xBF",
    b"\xFE",
    b"\xFF",
];

/// Surrogate-related tokens, for longer sequences.
const SURROGATE_TOKENS: &[&[u8]] = &[
    b"\xED\xA0\x80",
    b"\xED\xAF\xBF",
    b"\xED\xB0\x80",
    b"\xED\xBF\xBF",
    b"\xED\xA0",
    b"\xED\xB0",
    b"\xED",
    b"a",
    b"\x80",
    b"\xF0\x90\x80\x80",
];

/// Every sequence of two tokens, and of three surrogate-related tokens, in every dialect:
/// the reference model and every invariant.
#[test]
fn every_dialect_on_token_sequences() {
    for d in Dialect::ALL {
        let reference = Reference::new(d);
        for a in TOKENS {
            for b in TOKENS {
                let bytes = [*a, *b].concat();
                assert_matches_reference(d, &reference, &bytes);
                check_all(d, &bytes);
            }
        }
        for a in SURROGATE_TOKENS {
            for b in SURROGATE_TOKENS {
                for c in SURROGATE_TOKENS {
                    let bytes = [*a, *b, *c].concat();
                    assert_matches_reference(d, &reference, &bytes);
                    check_all(d, &bytes);
                }
            }
        }
    }
}

/// Long runs: resync from every offset of a buffer where many units of every length touch.
#[test]
fn every_dialect_on_one_long_mixed_buffer() {
    let mut bytes: Vec<u8> = TOKENS.concat();
    for a in SURROGATE_TOKENS {
        for b in SURROGATE_TOKENS {
            bytes.extend_from_slice(a);
            bytes.extend_from_slice(b);
        }
    }
    bytes.extend_from_slice(b"\xE1\x80"); // truncated_eof in every dialect
    for d in Dialect::UTF8_FAMILY {
        let units = check_all(d, &bytes);
        assert_eq!(units, Reference::new(d).units(&bytes), "{d}");
        // Every kind the dialect can produce shows up in this buffer.
        let mut seen: Vec<ErrorKind> = units.iter().filter_map(|u| u.error_kind()).collect();
        seen.sort();
        seen.dedup();
        let mut possible = support::invariants::possible_kinds(d).to_vec();
        possible.sort();
        assert_eq!(seen, possible, "{d}");
        // And scalars of every class the dialect has.
        let mut classes: Vec<u8> = units.iter().filter_map(|u| u.class()).collect();
        classes.sort();
        classes.dedup();
        let want: &[u8] = match d {
            Dialect::Utf8 | Dialect::Wtf8 => &[1, 2, 3, 4],
            Dialect::Cesu8 | Dialect::Mutf8 => &[1, 2, 3, 6],
            Dialect::Legacy => &[1, 2, 3, 4, 5, 6],
            _ => unreachable!("not in the UTF-8 family"),
        };
        assert_eq!(classes, want, "{d}");
    }
}

/// UTF-16 and UTF-32: code units of every kind next to each other, in both byte orders,
/// with 0 to 3 bytes left over; resync from every offset, and every kind shows up.
#[test]
fn wide_dialects_on_code_unit_sequences() {
    let values: [u32; 9] = [
        0x41, 0xE9, 0xD83D, 0xDE00, 0xDBFF, 0xDFFF, 0xFFFE, 0x1F600, 0x11_0000,
    ];
    for d in Dialect::WIDE {
        let w = d.code_unit_width().unwrap();
        let reference = Reference::new(d);
        let mut seen = std::collections::BTreeSet::new();
        let mut classes = std::collections::BTreeSet::new();
        for a in values {
            for b in values {
                for c in values {
                    for tail in 0..w {
                        let mut bytes = Vec::new();
                        for v in [a, b, c] {
                            // In UTF-16 a supplementary value is written as its pair.
                            match (w, char::from_u32(v)) {
                                (2, Some(ch)) if v > 0xFFFF => {
                                    bytes.extend(wide::text(d, ch.encode_utf8(&mut [0; 4])))
                                }
                                _ => bytes.extend(wide::units(d, [v])),
                            }
                        }
                        bytes.extend(std::iter::repeat_n(0xD8u8, tail));
                        let units = check_all(d, &bytes);
                        assert_eq!(units, reference.units(&bytes), "{d} {bytes:02X?}");
                        seen.extend(units.iter().filter_map(|u| u.error_kind()));
                        classes.extend(units.iter().filter_map(|u| u.class()));
                    }
                }
            }
        }
        let possible: std::collections::BTreeSet<ErrorKind> =
            support::invariants::possible_kinds(d)
                .iter()
                .copied()
                .collect();
        assert_eq!(seen, possible, "{d}");
        assert_eq!(
            classes.into_iter().collect::<Vec<_>>(),
            d.classes().to_vec(),
            "{d}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// proptest
// ---------------------------------------------------------------------------------------------

/// Bytes biased toward the interesting ones: boundary bytes, any byte, and whole tokens.
fn biased_bytes() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        4 => proptest::sample::select(TOKENS).prop_map(|t| t.to_vec()),
        3 => proptest::sample::select(&BOUNDARY[..]).prop_map(|b| vec![b]),
        2 => proptest::sample::select(SURROGATE_TOKENS).prop_map(|t| t.to_vec()),
        1 => any::<char>().prop_map(|c| c.to_string().into_bytes()),
        1 => any::<u8>().prop_map(|b| vec![b]),
    ];
    proptest::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

/// A few random cuts of biased bytes: a prefix cut mid-unit, to exercise resync from inside.
fn cut_biased_bytes() -> impl Strategy<Value = Vec<u8>> {
    (biased_bytes(), 0usize..6).prop_map(|(v, k)| v[k.min(v.len())..].to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, ..ProptestConfig::default() })]

    #[test]
    fn prop_utf8(bytes in biased_bytes()) {
        check_all(Dialect::Utf8, &bytes);
        assert_utf8_matches_std(&bytes);
    }

    #[test]
    fn prop_every_dialect_matches_reference(bytes in biased_bytes()) {
        for d in Dialect::ALL {
            check_all(d, &bytes);
            prop_assert_eq!(d.units(&bytes).collect::<Vec<_>>(), Reference::new(d).units(&bytes), "{}", d);
        }
    }

    #[test]
    fn prop_single_byte_encodings(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        for label in ["windows-1252", "iso-8859-3", "koi8-r", "IBM437", "windows-874"] {
            let d = hexrune::encoding::resolve(label).unwrap();
            check_all(d, &bytes);
            prop_assert_eq!(d.units(&bytes).collect::<Vec<_>>(), Reference::new(d).units(&bytes), "{}", label);
        }
    }

    #[test]
    fn prop_every_dialect_cut_inputs(bytes in cut_biased_bytes()) {
        for d in Dialect::ALL {
            let units = check_all(d, &bytes);
            // Scalars never exceed what the dialect can hold.
            for u in &units {
                if let UnitKind::Scalar(cp) = u.kind {
                    let max = if d == Dialect::Legacy { 0x7FFF_FFFF } else { 0x10_FFFF };
                    prop_assert!(cp.value() <= max);
                }
            }
        }
    }

    #[test]
    fn prop_utf8_uniform_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        check_all(Dialect::Utf8, &bytes);
    }

    #[test]
    fn prop_valid_strings_are_one_scalar_per_char(s in any::<String>()) {
        let units: Vec<Unit> = Dialect::Utf8.units(s.as_bytes()).collect();
        let want: Vec<u32> = s.chars().map(|c| c as u32).collect();
        prop_assert_eq!(units.iter().map(|u| u.code_point().map(|c| c.value())).collect::<Vec<_>>(), want.into_iter().map(Some).collect::<Vec<_>>());
        // WTF-8 and legacy UTF-8 read valid UTF-8 the same way.
        for d in [Dialect::Wtf8, Dialect::Legacy] {
            prop_assert_eq!(&d.units(s.as_bytes()).collect::<Vec<_>>(), &units);
        }
    }
}
