//! The repair's output byte for byte, per policy and dialect; its guarantees over random
//! inputs (valid UTF-8 out, exact round trips of the escapes, the changes replayed give the
//! output, streaming equals mapping however the stream is cut).

use proptest::prelude::*;

use super::*;
use crate::decode::ErrorKind;
use crate::view::fallback::Fallback;

fn repair(policy: Policy, input: &[u8]) -> Collected {
    let mut out = Collected::default();
    Repairer::new(policy)
        .repair_slice(input, &mut out, |_| Ok(()))
        .unwrap();
    out
}

fn invalid(invalid: Invalid) -> Policy {
    Policy {
        invalid,
        ..Policy::default()
    }
}

fn out(policy: Policy, input: &[u8]) -> Vec<u8> {
    repair(policy, input).bytes
}

/// The changes applied to `input`, from the front: what the output must be.
fn replay(input: &[u8], changes: &[OwnedChange]) -> Vec<u8> {
    let mut result = Vec::new();
    let mut at = 0usize;
    for c in changes {
        let offset = c.offset as usize;
        assert!(offset >= at, "changes in order, not overlapping");
        result.extend_from_slice(&input[at..offset]);
        assert_eq!(&input[offset..offset + c.old.len()], c.old.as_slice());
        result.extend_from_slice(&c.new);
        at = offset + c.old.len();
    }
    result.extend_from_slice(&input[at..]);
    result
}

// The Unicode Standard's example (ch. 3.9, table 3-8) and the conformance shapes: maximal
// subparts, truncations at the end, surrogates, overlongs.
const SAMPLE: &[u8] = b"\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64";

#[test]
fn replace_writes_one_fffd_per_maximal_subpart() {
    let r = "\u{FFFD}";
    let expected = format!("a{r}{r}{r}b{r}c{r}{r}d");
    assert_eq!(out(Policy::default(), SAMPLE), expected.as_bytes());
    let cases: [(&[u8], String); 6] = [
        (b"\xC0\xAF", format!("{r}{r}")),               // overlong '/'
        (b"\xE0\x80\xAF", format!("{r}{r}{r}")),        // overlong '/', 3 bytes
        (b"\xED\xA0\x80", format!("{r}{r}{r}")),        // a surrogate
        (b"\xF4\x90\x80\x80", format!("{r}{r}{r}{r}")), // above U+10FFFF
        (b"x\xF0\x9F\x98", format!("x{r}")),            // truncated at the end
        (b"\xE2\x82x", format!("{r}x")),                // truncated
    ];
    for (input, expected) in cases {
        assert_eq!(
            out(Policy::default(), input),
            expected.as_bytes(),
            "{input:02x?}"
        );
    }
}

#[test]
fn each_policy_writes_exact_bytes() {
    let input = b"a\xE9b\x81\xE2\x82";
    assert_eq!(out(invalid(Invalid::Drop), input), b"ab");
    assert_eq!(out(invalid(Invalid::Keep), input), input);
    let w1252 = invalid(Invalid::Fallback(Fallback::windows_1252()));
    // E9 is é; 81 is undefined in windows-1252: U+FFFD; E2 82 is "â‚".
    assert_eq!(out(w1252, input), "aéb\u{FFFD}â‚".as_bytes());
    let latin2 = Fallback::from_label("iso-8859-2").unwrap().unwrap();
    assert_eq!(
        out(invalid(Invalid::Fallback(latin2)), b"\xB1"),
        "ą".as_bytes()
    );
    assert_eq!(
        out(invalid(Invalid::Escape(Escape::Optu8)), input),
        b"a\xEE\xBF\xA9b\xEE\xBE\x81\xEE\xBF\xA2\xEE\xBE\x82"
    );
    assert_eq!(
        out(invalid(Invalid::Escape(Escape::Pep383)), input),
        b"a\xED\xB3\xA9b\xED\xB2\x81\xED\xB3\xA2\xED\xB2\x82"
    );
}

#[test]
fn pep383_escapes_equal_pythons_surrogateescape() {
    // Python: b'a\xe9'.decode('utf-8', 'surrogateescape') == 'a\udce9', written with
    // surrogatepass as 61 ED B3 A9.
    let escaped = out(invalid(Invalid::Escape(Escape::Pep383)), b"a\xE9");
    assert_eq!(escaped, b"a\xED\xB3\xA9");
}

#[test]
fn optu8_escapes_a_genuine_private_use_character_byte_by_byte() {
    // U+EFA9 (EE BE A9) is in the input as a character: each of its bytes is escaped, so
    // unescaping gives it back instead of the byte A9.
    let input = "x\u{EFA9}y".as_bytes();
    let escaped = repair(invalid(Invalid::Escape(Escape::Optu8)), input);
    assert_eq!(escaped.bytes, b"x\xEE\xBF\xAE\xEE\xBE\xBE\xEE\xBE\xA9y");
    assert_eq!(escaped.changes[0].kind, Kind::GenuineOptu8);
    let policy = Policy {
        unescape: Some(Escape::Optu8),
        invalid: Invalid::Keep,
        ..Policy::default()
    };
    assert_eq!(out(policy, &escaped.bytes), input);
    // Below U+EF80 the private use area is left alone.
    let below = "\u{EF7F}".as_bytes();
    assert_eq!(out(invalid(Invalid::Escape(Escape::Optu8)), below), below);
}

#[test]
fn the_log_names_kind_offset_and_policy() {
    let r = repair(Policy::default(), b"ab\xC0\xAFc");
    assert_eq!(
        r.changes,
        [
            OwnedChange {
                offset: 2,
                old: vec![0xC0],
                new: REPLACEMENT.to_vec(),
                kind: Kind::Error(ErrorKind::InvalidByte),
                action: Action::Replace,
            },
            OwnedChange {
                offset: 3,
                old: vec![0xAF],
                new: REPLACEMENT.to_vec(),
                kind: Kind::Error(ErrorKind::UnexpectedContinuation),
                action: Action::Replace,
            },
        ]
    );
}

fn dialect(dialect: Dialect, invalid: Invalid) -> Policy {
    Policy {
        dialect,
        invalid,
        ..Policy::default()
    }
}

#[test]
fn dialects_are_written_as_standard_utf8() {
    let grin_cesu = b"\xED\xA0\xBD\xED\xB8\x80";
    let grin = "😀".as_bytes();
    assert_eq!(
        out(dialect(Dialect::Cesu8, Invalid::Replace), grin_cesu),
        grin
    );
    assert_eq!(
        out(dialect(Dialect::Mutf8, Invalid::Replace), grin_cesu),
        grin
    );
    assert_eq!(
        out(dialect(Dialect::Mutf8, Invalid::Replace), b"a\xC0\x80b"),
        b"a\x00b"
    );
    // A lone surrogate follows --invalid: one U+FFFD for its 3-byte unit, or its bytes.
    let lone = b"a\xED\xA0\x80b";
    for d in [Dialect::Mutf8, Dialect::Wtf8, Dialect::Legacy] {
        assert_eq!(
            out(dialect(d, Invalid::Replace), lone),
            "a\u{FFFD}b".as_bytes(),
            "{d:?}"
        );
        assert_eq!(out(dialect(d, Invalid::Keep), lone), lone, "{d:?}");
        assert_eq!(out(dialect(d, Invalid::Drop), lone), b"ab", "{d:?}");
    }
    // CESU-8 has no lone surrogates: the unit is an error, replaced all the same.
    assert_eq!(
        out(dialect(Dialect::Cesu8, Invalid::Replace), lone),
        "a\u{FFFD}b".as_bytes()
    );
    // Legacy UTF-8's values above U+10FFFF (here U+200000, 5 bytes).
    let big = b"\xF8\x88\x80\x80\x80";
    let r = repair(dialect(Dialect::Legacy, Invalid::Replace), big);
    assert_eq!(r.bytes, REPLACEMENT);
    assert_eq!(r.changes[0].kind, Kind::AboveUnicode);
    // A 4-byte character is already UTF-8's form in every dialect that allows it.
    assert_eq!(out(dialect(Dialect::Wtf8, Invalid::Replace), grin), grin);
    let r = repair(dialect(Dialect::Cesu8, Invalid::Replace), grin_cesu);
    assert_eq!(r.changes[0].kind, Kind::DialectForm);
    assert_eq!(r.changes[0].action, Action::Reencode(Dialect::Cesu8));
}

#[test]
fn boms_are_kept_stripped_or_added() {
    let policy = |bom| Policy {
        bom,
        ..Policy::default()
    };
    let with = b"\xEF\xBB\xBFa\xEF\xBB\xBFb";
    assert_eq!(out(policy(Bom::Keep), with), with);
    assert_eq!(out(policy(Bom::Strip), with), b"ab");
    assert_eq!(out(policy(Bom::Add), with), with);
    assert_eq!(out(policy(Bom::Add), b"ab"), b"\xEF\xBB\xBFab");
    assert_eq!(out(policy(Bom::Add), b""), BOM);
    let kept = repair(policy(Bom::Keep), with);
    assert!(kept.changes.is_empty());
    let mut tally = Repairer::new(policy(Bom::Keep));
    tally
        .repair_slice(with, &mut Collected::default(), |_| Ok(()))
        .unwrap();
    assert_eq!(tally.tally().rows(), [(Kind::MidFileBom, Action::Keep, 1)]);
    let stripped = repair(policy(Bom::Strip), with);
    let kinds: Vec<_> = stripped
        .changes
        .iter()
        .map(|c| (c.offset, c.kind))
        .collect();
    assert_eq!(kinds, [(0, Kind::Bom), (4, Kind::MidFileBom)]);
}

#[test]
fn pep383_unescape_restores_bytes_across_windows() {
    // An escape sequence cut by the 1 MiB window edge is still read whole.
    let mut input = vec![b'a'; WINDOW - 1];
    input.extend_from_slice(b"\xE9\xFF");
    let escaped = out(invalid(Invalid::Escape(Escape::Pep383)), &input);
    let policy = Policy {
        unescape: Some(Escape::Pep383),
        invalid: Invalid::Keep,
        ..Policy::default()
    };
    assert_eq!(out(policy, &escaped), input);
}

/// Random bytes with the shapes that matter over-represented.
fn shaped_bytes() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        4 => proptest::collection::vec(any::<u8>(), 0..6),
        2 => "[a-zé€😀\u{FEFF}\u{EF80}-\u{EFFF}]{0,4}".prop_map(|s| s.into_bytes()),
        1 => (0xBEu8..=0xBF, 0x80u8..=0xBF).prop_map(|(a, b)| vec![0xEE, a, b]),
        1 => (0xB2u8..=0xB3, 0x80u8..=0xBF).prop_map(|(a, b)| vec![0xED, a, b]),
        1 => Just(b"\xED\xA0\xBD\xED\xB8\x80".to_vec()),
        1 => Just(b"\xC0\x80".to_vec()),
        1 => Just(BOM.to_vec()),
    ];
    proptest::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

fn all_policies() -> Vec<Invalid> {
    vec![
        Invalid::Replace,
        Invalid::Drop,
        Invalid::Fallback(Fallback::windows_1252()),
        Invalid::Fallback(Fallback::from_label("shift_jis").unwrap().unwrap()),
        Invalid::Fallback(Fallback::from_label("ibm437").unwrap().unwrap()),
        Invalid::Escape(Escape::Optu8),
        Invalid::Escape(Escape::Pep383),
        Invalid::Keep,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn escapes_round_trip_exactly(input in shaped_bytes(), raw in proptest::collection::vec(any::<u8>(), 0..64)) {
        for bytes in [&input, &raw] {
            for scheme in Escape::ALL {
                let escaped = out(invalid(Invalid::Escape(scheme)), bytes);
                let back = Policy { unescape: Some(scheme), invalid: Invalid::Keep, ..Policy::default() };
                prop_assert_eq!(&out(back, &escaped), bytes, "{:?}", scheme);
            }
        }
    }

    #[test]
    fn utf8_policies_write_valid_utf8(input in shaped_bytes()) {
        for policy in all_policies().into_iter().filter(|p| p.writes_utf8()) {
            for d in Dialect::UTF8_FAMILY {
                let written = out(dialect(d, policy), &input);
                prop_assert!(std::str::from_utf8(&written).is_ok(), "{:?} {:?}: {:02x?}", d, policy, written);
            }
        }
    }

    #[test]
    fn replace_equals_the_standard_librarys_lossy_decoding(input in shaped_bytes()) {
        let expected = String::from_utf8_lossy(&input);
        prop_assert_eq!(out(Policy::default(), &input), expected.as_bytes());
    }

    #[test]
    fn valid_text_is_copied_byte_for_byte(text in "\\PC{0,64}") {
        // No BOM to strip, no OPTU-8 to escape: nothing applies.
        for policy in all_policies() {
            let r = repair(invalid(policy), text.as_bytes());
            prop_assert_eq!(&r.bytes, text.as_bytes());
            let genuine = text.chars().any(|c| ('\u{EF80}'..='\u{EFFF}').contains(&c));
            if !(genuine && policy == Invalid::Escape(Escape::Optu8)) {
                prop_assert!(r.changes.is_empty());
            }
        }
    }

    #[test]
    fn the_changes_replayed_give_the_output(input in shaped_bytes()) {
        for policy in all_policies() {
            for d in Dialect::UTF8_FAMILY {
                for bom in [Bom::Keep, Bom::Strip, Bom::Add] {
                    let p = Policy { invalid: policy, dialect: d, bom, ..Policy::default() };
                    let r = repair(p, &input);
                    prop_assert_eq!(replay(&input, &r.changes), r.bytes);
                }
            }
        }
    }

    #[test]
    fn a_stream_cut_anywhere_gives_the_mapped_output(input in shaped_bytes(), chunk in 1usize..40) {
        for d in Dialect::UTF8_FAMILY {
            for policy in [Invalid::Replace, Invalid::Escape(Escape::Pep383)] {
                for unescape in [None, Some(Escape::Pep383)] {
                    if unescape.is_some() && policy != Invalid::Replace {
                        continue;
                    }
                    let p = Policy { invalid: policy, dialect: d, bom: Bom::Strip, unescape, ..Policy::default() };
                    let mapped = repair(p, &input);
                    let mut streamed = Collected::default();
                    Repairer::new(p)
                        .repair_chunks(&mut input.as_slice(), chunk, &mut streamed, |_| Ok(()))
                        .unwrap();
                    prop_assert_eq!(&streamed, &mapped, "{:?} {:?} chunk {}", d, policy, chunk);
                }
            }
        }
    }
}

/// `--mojibake` over `input` with lines searched whole up to `line_max` bytes: mapped in
/// windows of `window` bytes, and streamed in reads of `chunk` bytes.
fn mojibake_both_ways(
    input: &[u8],
    line_max: usize,
    window: usize,
    chunk: usize,
) -> (Collected, Collected) {
    let policy = Policy {
        mojibake: true,
        ..Policy::default()
    };
    let mut mapped = Collected::default();
    let mut front = Repairer::new(policy);
    front.line_max = line_max;
    slice_windows(&mut front, input, window, &mut mapped, |_| Ok(())).unwrap();
    let mut streamed = Collected::default();
    let mut front = Repairer::new(policy);
    front.line_max = line_max;
    front
        .repair_chunks(&mut &input[..], chunk, &mut streamed, |_| Ok(()))
        .unwrap();
    (mapped, streamed)
}

#[test]
fn a_line_longer_than_the_limit_is_cut_alike_mapped_and_streamed() {
    let moj = "cafÃ© crÃ¨me";
    let line = |n: usize, tail: &str| [&"a".repeat(n), moj, tail].concat();
    let inputs = [
        line(64, " tail"),
        line(64, ""),
        line(60, " tail"),
        line(130, " tail\nmore cafÃ©\n"),
        format!("x\n{}\n{}", line(70, ""), line(200, " Ã©tÃ©")),
    ];
    for input in &inputs {
        for window in [8, 24, 100, 1000] {
            for chunk in (1..80).chain([1000]) {
                let (mapped, streamed) = mojibake_both_ways(input.as_bytes(), 64, window, chunk);
                assert_eq!(
                    mapped, streamed,
                    "{input:?}: windows of {window}, reads of {chunk}"
                );
            }
        }
    }
    // The cut is 64 bytes from the line's start: "cafÃ©" begins the second piece.
    let (mapped, _) = mojibake_both_ways(line(64, " tail").as_bytes(), 64, 1000, 1000);
    assert_eq!(
        String::from_utf8(mapped.bytes).unwrap(),
        line(64, " tail").replace(moj, "café crème")
    );
    let offsets: Vec<u64> = mapped.changes.iter().map(|c| c.offset).collect();
    assert_eq!(offsets, [67]);
}

/// Legacy UTF-8 joins a lead and a trail surrogate written as CESU-8 writes a pair, at
/// every place the pair can stand against the windows of a mapped input and the reads of
/// a stream: the same bytes, the same changes, however the input is cut.
#[test]
fn legacy_joins_a_pair_across_every_cut() {
    let policy = dialect(Dialect::Legacy, Invalid::Replace);
    for lead in 0..24 {
        let mut input = b"x".repeat(lead);
        input.extend_from_slice(b"\xED\xA0\xBD\xED\xB8\x80 \xF0\x9F\x91\x8D \xED\xA0\xBD.\n");
        let mut want = "x".repeat(lead).into_bytes();
        want.extend_from_slice("\u{1F600} \u{1F44D} \u{FFFD}.\n".as_bytes());
        let whole = repair(policy, &input);
        assert_eq!(whole.bytes, want, "{lead}");
        for size in [4, 5, 7, 16, 19] {
            let mut mapped = Collected::default();
            slice_windows(
                &mut Repairer::new(policy),
                &input,
                size,
                &mut mapped,
                |_| Ok(()),
            )
            .unwrap();
            assert_eq!(mapped.bytes, want, "{lead} window {size}");
            assert_eq!(mapped.changes, whole.changes, "{lead} window {size}");
            let mut streamed = Collected::default();
            Repairer::new(policy)
                .repair_chunks(&mut &input[..], size, &mut streamed, |_| Ok(()))
                .unwrap();
            assert_eq!(streamed.bytes, want, "{lead} chunk {size}");
            assert_eq!(streamed.changes, whole.changes, "{lead} chunk {size}");
        }
    }
}
