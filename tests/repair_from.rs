//! `repair --from`: an input in another encoding repaired into UTF-8. The oracle is
//! encoding_rs's own decoding (with replacement: the WHATWG Encoding Standard's output) over
//! random inputs, and exact bytes for hand cases; the output is always valid UTF-8, and a
//! stream cut anywhere gives what the mapped input gives.

use hexrune::decode::Dialect;
use hexrune::repair::{
    Action, Bom, Collected, Engine, FromEncoding, Invalid, Kind, OwnedChange, Policy, SNIFF_LEN,
};
use hexrune::view::fallback::Escape;
use proptest::prelude::*;

mod support;
use support::wide;

fn from(label: &str, invalid: Invalid) -> Policy {
    Policy {
        from: Some(FromEncoding::parse(label).unwrap()),
        invalid,
        ..Policy::default()
    }
}

fn repair(policy: Policy, input: &[u8]) -> Collected {
    let mut out = Collected::default();
    Engine::for_slice(policy, input)
        .unwrap()
        .repair_slice(input, &mut out, |_| Ok(()))
        .unwrap();
    out
}

fn streamed(policy: Policy, input: &[u8], chunk: usize) -> Collected {
    let mut out = Collected::default();
    Engine::for_head(policy, &input[..input.len().min(SNIFF_LEN)])
        .unwrap()
        .repair_chunks(&mut &input[..], chunk, &mut out, |_| Ok(()))
        .unwrap();
    out
}

fn out(label: &str, invalid: Invalid, input: &[u8]) -> Vec<u8> {
    repair(from(label, invalid), input).bytes
}

fn changes(label: &str, invalid: Invalid, input: &[u8]) -> Vec<(u64, Vec<u8>, &'static str)> {
    repair(from(label, invalid), input)
        .changes
        .into_iter()
        .map(|c: OwnedChange| (c.offset, c.old, c.kind.name()))
        .collect()
}

/// encoding_rs's decoding with replacement, with the WHATWG decode algorithm's BOM
/// sniffing (a BOM overrides the label), and the BOM kept as U+FEFF, as `--bom keep` keeps
/// it.
fn whatwg(label: &str, input: &[u8]) -> Vec<u8> {
    let encoding = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
    let (text, _, _) = encoding.decode(input);
    let bom = encoding_rs::Encoding::for_bom(input).map_or("", |_| "\u{FEFF}");
    [bom, &text].concat().into_bytes()
}

#[test]
fn a_bom_overrides_the_label_as_whatwg_decoding_does() {
    let text = "Grüße, 日本\n";
    let (be, le) = (
        wide::text(Dialect::Utf16Be, text),
        wide::text(Dialect::Utf16Le, text),
    );
    let inputs = [
        [b"\xFE\xFF".as_slice(), &be].concat(),
        [b"\xFF\xFE".as_slice(), &le].concat(),
        [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat(),
    ];
    for label in [
        "utf-16le",
        "utf-16be",
        "windows-1252",
        "shift_jis",
        "koi8-r",
    ] {
        for input in &inputs {
            let expected = [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat();
            assert_eq!(whatwg(label, input), expected, "{label}: the oracle");
            assert_eq!(out(label, Invalid::Replace, input), expected, "{label}");
            let policy = from(label, Invalid::Replace);
            assert_eq!(
                streamed(policy, input, 3).bytes,
                expected,
                "{label} streamed"
            );
        }
    }
    // A UTF-16 label and no BOM: the label's byte order.
    assert_eq!(out("utf-16be", Invalid::Replace, &be), text.as_bytes());
}

#[test]
fn a_bom_overrides_every_label_that_names_another_encoding() {
    let text = "Grüße, 日本 😀\n";
    let with_bom = |d, bom: &[u8]| [bom, &wide::text(d, text)].concat();
    let expected = [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat();
    // (input, labels it overrides): the UTF-32 BOMs are read before UTF-16LE's, which
    // `FF FE 00 00` starts with; a UTF-16 or UTF-32 BOM overrides the UTF-8 family too.
    let cases = [
        (
            with_bom(Dialect::Utf16Le, b"\xFF\xFE"),
            &[
                "utf-8",
                "cesu8",
                "wtf8",
                "utf-32le",
                "utf-32be",
                "windows-1252",
            ][..],
        ),
        (
            with_bom(Dialect::Utf16Be, b"\xFE\xFF"),
            &["utf-8", "mutf8", "utf-32be", "utf-16le", "gbk"][..],
        ),
        (
            with_bom(Dialect::Utf32Le, b"\xFF\xFE\x00\x00"),
            &[
                "utf-16le",
                "utf-16be",
                "utf-8",
                "utf-32be",
                "koi8-r",
                "shift_jis",
            ][..],
        ),
        (
            with_bom(Dialect::Utf32Be, b"\x00\x00\xFE\xFF"),
            &["utf-16be", "utf-8", "utf-32le", "windows-1253"][..],
        ),
        (
            [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat(),
            &["utf-32le", "utf-32be", "utf-16be", "big5"][..],
        ),
    ];
    for (input, labels) in &cases {
        for label in *labels {
            let policy = from(label, Invalid::Replace);
            assert_eq!(
                repair(policy, input).bytes,
                expected,
                "{label} {input:02X?}"
            );
            for chunk in [1, 3, 7] {
                assert_eq!(
                    streamed(policy, input, chunk).bytes,
                    expected,
                    "{label} streamed by {chunk}"
                );
            }
        }
    }
    // `FF FE 00 00` followed by UTF-16LE text (U+FEFF, U+0000, then the text): a unit
    // after it above U+10FFFF says it is UTF-16LE's mark, whatever the label (Python's
    // `utf-16` codec reads it so; its `utf-32` codec refuses it).
    let nul_first = [
        b"\xFF\xFE\x00\x00".as_slice(),
        &wide::text(Dialect::Utf16Le, text),
    ]
    .concat();
    let expected = [b"\xEF\xBB\xBF\x00".as_slice(), text.as_bytes()].concat();
    for label in ["utf-16le", "utf-16", "utf-32le", "utf-8", "windows-1252"] {
        let policy = from(label, Invalid::Replace);
        assert_eq!(repair(policy, &nul_first).bytes, expected, "{label}");
        for chunk in [1, 3, 7] {
            let streamed = streamed(policy, &nul_first, chunk).bytes;
            assert_eq!(streamed, expected, "{label} streamed by {chunk}");
        }
    }
    // A UTF-32LE input cut short in a unit keeps UTF-32LE's reading.
    let cut = [b"\xFF\xFE\x00\x00h\x00\x00\x00i\x00".as_slice()].concat();
    let policy = from("utf-16le", Invalid::Replace);
    assert_eq!(repair(policy, &cut).bytes, "\u{FEFF}h\u{FFFD}".as_bytes());

    // A UTF-8 BOM is the same bytes in every dialect of the UTF-8 family: the label stays
    // (CESU-8 reads a surrogate pair as one character, UTF-8 as two errors).
    let cesu = b"\xEF\xBB\xBF\xED\xA0\xBD\xED\xB8\x80";
    assert_eq!(
        out("cesu8", Invalid::Replace, cesu),
        "\u{FEFF}😀".as_bytes()
    );
}

/// "A", a lone high surrogate, "B", a lone low surrogate, "😀" as a pair, 1 odd byte.
const UTF16_UNPAIRED: &[u8] = b"A\x00\x00\xD8B\x00\x00\xDC\x3D\xD8\x00\xDE\x43";
/// 日本 in Shift_JIS, then a lead byte followed by ASCII, then a lone lead at the end.
const SJIS_BAD_LEADS: &[u8] = b"\x93\xFA\x96\x7Ba\x82 a\x82";
/// ISO-2022-JP: escape sequences write nothing, and two in a row are an error as
/// encoding_rs says.
const JIS_TWO_ESCAPES: &[u8] = b"\x1B$B\x46\x7C\x4B\x5C\x1B(Bok\x1B$B\x1B(B.";

/// Exact outputs: (label, `--invalid`, input, output). Where the policy is `replace` and
/// encoding_rs knows the label, the output is also its decoding (`exact_outputs`).
#[rustfmt::skip]
const OUTPUTS: &[(&str, &str, &[u8], &[u8])] = &[
    // UTF-16/32.
    ("utf-16le", "replace", UTF16_UNPAIRED, "A\u{FFFD}B\u{FFFD}\u{1F600}\u{FFFD}".as_bytes()),
    ("utf-16le", "drop", UTF16_UNPAIRED, "AB\u{1F600}".as_bytes()),
    // Each byte 80..FF escaped; the zero byte of a unit has no escape and stays.
    ("utf-16le", "escape=optu8", b"\x00\xD8", b"\x00\xEE\xBF\x98"),
    ("utf-16be", "replace", b"\x00\xE9\xD8\x3D\xDE\x00", "é😀".as_bytes()),
    ("utf-32le", "replace", b"\xE9\x00\x00\x00\x00\xD8\x00\x00\x00\x00\x11\x00", "é\u{FFFD}\u{FFFD}".as_bytes()),
    // Single-byte encodings. The WHATWG standard reads windows-1252's 81 as U+0081 (as
    // encoding_rs does), so it is written as C2 81; windows-1253's AA is undefined, and
    // follows --invalid.
    ("windows-1252", "replace", b"caf\xE9 \x81 \x80", "café \u{81} €".as_bytes()),
    ("windows-1253", "replace", b"\xE1\xAA\xE2", "α\u{FFFD}β".as_bytes()),
    ("windows-1253", "escape=pep383", b"\xAA", b"\xED\xB2\xAA"),
    ("windows-1253", "fallback=windows-1252", b"\xAA", "ª".as_bytes()),
    ("ibm437", "replace", b"\x80\xE9\xFE", "ÇΘ■".as_bytes()),
    ("koi8-r", "replace", b"\xF0\xD2\xC9", "При".as_bytes()),
    // The multi-byte encodings, as the view reads them.
    ("shift_jis", "replace", SJIS_BAD_LEADS, "日本a\u{FFFD} a\u{FFFD}".as_bytes()),
    ("sjis", "drop", SJIS_BAD_LEADS, "日本a a".as_bytes()),
    // Big5's 88 62 is two code points.
    ("big5", "replace", b"a\x88\x62b", "a\u{CA}\u{304}b".as_bytes()),
    ("iso-2022-jp", "replace", JIS_TWO_ESCAPES, "日本ok\u{FFFD}.".as_bytes()),
    ("euc-kr", "replace", b"\xC7\xD1\xB1\xDB", "한글".as_bytes()),
    ("big5", "replace", b"\xA4\xA4\xA4\xE5", "中文".as_bytes()),
    ("gb18030", "replace", b"\x81\x30\x81\x30", "\u{80}".as_bytes()),
    ("iso-2022-jp", "replace", b"\x1B$B$3$s\x1B(B!", "こん!".as_bytes()),
];

#[test]
fn exact_outputs() {
    for &(label, invalid, input, expected) in OUTPUTS {
        let got = out(label, Invalid::parse(invalid).unwrap(), input);
        assert_eq!(got, expected, "{label} {invalid} {input:02X?}");
        if invalid == "replace" && encoding_rs::Encoding::for_label(label.as_bytes()).is_some() {
            assert_eq!(
                whatwg(label, input),
                expected,
                "encoding_rs: {label} {input:02X?}"
            );
        }
    }
}

/// A change as the tables say it: (offset, old bytes, kind).
type Said = (u64, &'static [u8], &'static str);

/// The changes under `--invalid replace`: (label, input, each change).
#[rustfmt::skip]
const CHANGES: &[(&str, &[u8], &[Said])] = &[
    ("utf-16le", UTF16_UNPAIRED, &[
        (2, b"\x00\xD8", "unpaired_high_surrogate"),
        (6, b"\x00\xDC", "unpaired_low_surrogate"),
        (12, b"\x43", "truncated_unit"),
    ]),
    ("utf-32be", b"\x00\x00\xD8\x00", &[(0, b"\x00\x00\xD8\x00", "surrogate_unit")]),
    ("windows-1253", b"\xE1 \xAA", &[(2, b"\xAA", "undefined_byte")]),
    ("shift_jis", SJIS_BAD_LEADS, &[(5, b"\x82", "bad_trail"), (8, b"\x82", "truncated_eof")]),
    ("iso-2022-jp", JIS_TWO_ESCAPES, &[(12, b"\x1B$B", "redundant_escape")]),
];

#[test]
fn exact_changes() {
    for &(label, input, expected) in CHANGES {
        let expected: Vec<(u64, Vec<u8>, &str)> = expected
            .iter()
            .map(|&(offset, old, kind)| (offset, old.to_vec(), kind))
            .collect();
        assert_eq!(changes(label, Invalid::Replace, input), expected, "{label}");
    }
}

#[test]
fn multi_byte_kinds_are_the_views() {
    // check -e shift_jis names the same units as the repair's log.
    let view: Vec<(usize, &str)> = hexrune::encoding::resolve("shift_jis")
        .unwrap()
        .units(SJIS_BAD_LEADS)
        .filter_map(|u| u.error_kind().map(|k| (u.start, k.name())))
        .collect();
    assert_eq!(view, [(5, "bad_trail"), (8, "truncated_eof")]);
}

#[test]
fn a_source_bom_becomes_utf8s_only_under_keep() {
    let input = b"\xFF\xFEh\x00i\x00";
    let policy = |bom| Policy {
        bom,
        ..from("utf-16le", Invalid::Replace)
    };
    assert_eq!(repair(policy(Bom::Keep), input).bytes, b"\xEF\xBB\xBFhi");
    assert_eq!(repair(policy(Bom::Strip), input).bytes, b"hi");
    assert_eq!(repair(policy(Bom::Add), input).bytes, b"\xEF\xBB\xBFhi");
    assert_eq!(repair(policy(Bom::Add), b"h\x00").bytes, b"\xEF\xBB\xBFh");
    let gb = b"\x84\x31\x95\x33x";
    let gb_policy = |bom| Policy {
        bom,
        ..from("gb18030", Invalid::Replace)
    };
    assert_eq!(repair(gb_policy(Bom::Keep), gb).bytes, b"\xEF\xBB\xBFx");
    assert_eq!(repair(gb_policy(Bom::Strip), gb).bytes, b"x");
    let stripped = repair(policy(Bom::Strip), input);
    assert_eq!(stripped.changes.len(), 1);
    assert_eq!(
        (stripped.changes[0].kind, stripped.changes[0].action),
        (Kind::Bom, Action::Strip)
    );
}

#[test]
fn keep_unescape_and_mojibake_are_refused_with_from() {
    let refusal = |p: Policy| Engine::new(p).unwrap_err();
    assert!(refusal(from("shift_jis", Invalid::Keep))
        .contains("--invalid keep would write Shift_JIS bytes"));
    let p = Policy {
        mojibake: true,
        ..from("windows-1252", Invalid::Replace)
    };
    assert_eq!(
        refusal(p),
        "--mojibake reads UTF-8, not windows-1252; convert with --from alone first, then run --mojibake on the copy"
    );
    assert!(refusal(from("auto", Invalid::Replace)).contains("settled by detection"));
    // UTF-8 itself is the UTF-8 repair: keep is fine there.
    assert_eq!(out("utf-8", Invalid::Keep, b"a\xFFb"), b"a\xFFb");
}

#[test]
fn auto_takes_detections_answer() {
    let utf16 = "Grüße aus Köln, schöne Grüße!\n".repeat(8);
    let input = [
        b"\xFF\xFE".as_slice(),
        &wide::text(Dialect::Utf16Le, &utf16),
    ]
    .concat();
    assert_eq!(
        repair(from("auto", Invalid::Replace), &input).bytes,
        [b"\xEF\xBB\xBF".as_slice(), utf16.as_bytes()].concat()
    );
    let text = "Ça coûte très cher, à côté du château. ".repeat(8);
    let (latin, _, _) = encoding_rs::WINDOWS_1252.encode(&text);
    assert_eq!(
        FromEncoding::parse(hexrune::repair::detected(&latin).unwrap().name()).unwrap(),
        FromEncoding::Dialect(hexrune::encoding::resolve("windows-1252").unwrap())
    );
}

const LABELS: [&str; 13] = [
    "windows-1253",
    "utf-16le",
    "utf-16be",
    "windows-1252",
    "iso-8859-2",
    "koi8-r",
    "shift_jis",
    "euc-jp",
    "gb18030",
    "big5",
    "euc-kr",
    "gbk",
    "iso-2022-jp",
];

/// Bytes shaped like text in the multi-byte encodings: ASCII, leads, trails.
/// Inputs longer than a window (1 MiB) are cut where the decoder finds a boundary: the
/// output equals encoding_rs's however the cuts fall, with ASCII, with sync bytes only
/// far apart, and with none at all for more than a window.
#[test]
fn inputs_longer_than_a_window_equal_encoding_rs() {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut mixed = Vec::with_capacity(3 << 20);
    while mixed.len() < (5 << 20) / 2 {
        let r = next();
        match r % 8 {
            0 => mixed.extend_from_slice(b"line of ASCII text\n"),
            1 => mixed.push(0x1B),
            _ => mixed.extend((0..8).map(|k| 0x80 | (r >> (8 * k)) as u8)),
        }
    }
    // More than a window with no byte below 80: nothing to synchronize on.
    let mut no_sync = mixed.clone();
    no_sync.extend((0..(1 << 20) + 4093).map(|_| 0x81 | next() as u8));
    no_sync.extend_from_slice(b"\nend");
    for label in [
        "shift_jis",
        "euc-jp",
        "euc-kr",
        "gbk",
        "gb18030",
        "big5",
        "iso-2022-jp",
    ] {
        for input in [&mixed, &no_sync] {
            let expected = whatwg(label, input);
            assert!(out(label, Invalid::Replace, input) == expected, "{label}");
            let policy = from(label, Invalid::Replace);
            assert!(
                streamed(policy, input, 1 << 16).bytes == expected,
                "{label} streamed"
            );
        }
    }
}

fn shaped() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![
            3 => 0x20u8..0x7F,
            3 => 0x80u8..=0xFF,
            1 => Just(0x00u8),
            1 => prop_oneof![Just(0xD8u8), Just(0xDC), Just(0x1B), Just(0x24), Just(0x28)],
        ],
        0..200,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn replace_equals_encoding_rs(input in shaped()) {
        // A UTF-32 BOM overrides the label here; encoding_rs knows no UTF-32.
        prop_assume!(!input.starts_with(b"\xFF\xFE\x00\x00") && !input.starts_with(b"\x00\x00\xFE\xFF"));
        for label in LABELS {
            let got = out(label, Invalid::Replace, &input);
            let mut expected = whatwg(label, &input);
            // One difference, by design: a high surrogate followed by one last byte is two
            // units for hexrune (unpaired_high_surrogate, truncated_unit) and one malformed
            // sequence for encoding_rs.
            let n = input.len();
            if label.starts_with("utf-16") && n % 2 == 1 && n >= 3 {
                let unit = match label {
                    "utf-16le" => u16::from_le_bytes([input[n - 3], input[n - 2]]),
                    _ => u16::from_be_bytes([input[n - 3], input[n - 2]]),
                };
                if (0xD800..0xDC00).contains(&unit) {
                    expected.extend_from_slice("\u{FFFD}".as_bytes());
                }
            }
            prop_assert_eq!(&got, &expected, "{}", label);
        }
    }

    #[test]
    fn the_output_is_utf8_and_a_stream_gives_the_mapped_output(input in shaped(), chunk in 1usize..50) {
        for label in LABELS.iter().chain(&["utf-32le", "utf-32be", "ibm437"]) {
            for invalid in [Invalid::Replace, Invalid::Drop, Invalid::Escape(Escape::Optu8), Invalid::parse("fallback").unwrap()] {
                let policy = from(label, invalid);
                // A fallback is refused where the input is read as UTF-16 or UTF-32 (the
                // label's, or its BOM's): an error there is a code unit.
                if let Err(e) = Engine::for_slice(policy, &input) {
                    prop_assert!(matches!(invalid, Invalid::Fallback(_)), "{} {}: {}", label, invalid, e);
                    prop_assert!(e.contains("is a code unit"), "{}", e);
                    continue;
                }
                let mapped = repair(policy, &input);
                prop_assert!(hexrune::decode::Dialect::Utf8.units(&mapped.bytes).all(|u| !u.is_error()), "{} {}", label, invalid);
                prop_assert!(std::str::from_utf8(&mapped.bytes).is_ok());
                let stream = streamed(policy, &input, chunk);
                prop_assert_eq!(&stream.bytes, &mapped.bytes, "{} {}", label, invalid);
                prop_assert_eq!(&stream.changes, &mapped.changes, "{} {}", label, invalid);
                // Each change's old bytes are the input's at its offset.
                for c in &mapped.changes {
                    let at = c.offset as usize;
                    prop_assert_eq!(&input[at..at + c.old.len()], c.old.as_slice());
                }
            }
        }
    }
}

#[test]
fn dialects_of_the_family_are_the_utf8_repair() {
    let p = Policy {
        from: Some(FromEncoding::Dialect(Dialect::Cesu8)),
        ..Policy::default()
    };
    assert_eq!(
        repair(p, b"\xED\xA0\xBD\xED\xB8\x80").bytes,
        "😀".as_bytes()
    );
}
