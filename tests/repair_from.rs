//! `repair --from`: an input in another encoding repaired into UTF-8. The oracle is
//! encoding_rs's own decoding (with replacement: the WHATWG Encoding Standard's output) over
//! random inputs, and exact bytes for hand cases; the output is always valid UTF-8, and a
//! stream cut anywhere gives what the mapped input gives.

use hexrune::decode::Dialect;
use hexrune::repair::{
    Action, Bom, Collected, Engine, FromEncoding, Invalid, Kind, OwnedChange, Policy,
};
use hexrune::view::fallback::Escape;
use proptest::prelude::*;

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
    Engine::new(policy)
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

/// encoding_rs's decoding with replacement, without BOM sniffing.
fn whatwg(label: &str, input: &[u8]) -> Vec<u8> {
    let encoding = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
    let (text, _) = encoding.decode_without_bom_handling(input);
    text.into_owned().into_bytes()
}

#[test]
fn utf16_with_unpaired_surrogates() {
    // "A", a lone high surrogate, "B", a lone low surrogate, "😀" as a pair, 1 odd byte.
    let input = b"A\x00\x00\xD8B\x00\x00\xDC\x3D\xD8\x00\xDE\x43";
    let r = "\u{FFFD}";
    assert_eq!(
        out("utf-16le", Invalid::Replace, input),
        format!("A{r}B{r}\u{1F600}{r}").as_bytes()
    );
    assert_eq!(
        out("utf-16le", Invalid::Replace, input),
        whatwg("utf-16le", input)
    );
    assert_eq!(
        out("utf-16le", Invalid::Drop, input),
        "AB\u{1F600}".as_bytes()
    );
    assert_eq!(
        changes("utf-16le", Invalid::Replace, input),
        [
            (2, b"\x00\xD8".to_vec(), "unpaired_high_surrogate"),
            (6, b"\x00\xDC".to_vec(), "unpaired_low_surrogate"),
            (12, b"\x43".to_vec(), "truncated_unit"),
        ]
    );
    // Each byte 80..FF escaped; the zero byte of a unit has no escape and stays.
    assert_eq!(
        out("utf-16le", Invalid::Escape(Escape::Optu8), b"\x00\xD8"),
        b"\x00\xEE\xBF\x98"
    );
}

#[test]
fn utf16be_and_utf32() {
    assert_eq!(
        out("utf-16be", Invalid::Replace, b"\x00\xE9\xD8\x3D\xDE\x00"),
        "é😀".as_bytes()
    );
    assert_eq!(
        out(
            "utf-32le",
            Invalid::Replace,
            b"\xE9\x00\x00\x00\x00\xD8\x00\x00\x00\x00\x11\x00"
        ),
        "é\u{FFFD}\u{FFFD}".as_bytes()
    );
    assert_eq!(
        changes("utf-32be", Invalid::Replace, b"\x00\x00\xD8\x00"),
        [(0, b"\x00\x00\xD8\x00".to_vec(), "surrogate_unit")]
    );
}

#[test]
fn single_byte_undefined_bytes() {
    // The WHATWG standard reads windows-1252's 81 as U+0081 (as encoding_rs does), so it is
    // written as C2 81; windows-1253's AA is undefined, and follows --invalid.
    assert_eq!(
        out("windows-1252", Invalid::Replace, b"caf\xE9 \x81 \x80"),
        "café \u{81} €".as_bytes()
    );
    assert_eq!(
        out("windows-1253", Invalid::Replace, b"\xE1\xAA\xE2"),
        "α\u{FFFD}β".as_bytes()
    );
    assert_eq!(
        changes("windows-1253", Invalid::Replace, b"\xE1 \xAA"),
        [(2, b"\xAA".to_vec(), "undefined_byte")]
    );
    assert_eq!(
        out("windows-1253", Invalid::Escape(Escape::Pep383), b"\xAA"),
        b"\xED\xB2\xAA"
    );
    assert_eq!(
        out(
            "windows-1253",
            Invalid::parse("fallback=windows-1252").unwrap(),
            b"\xAA"
        ),
        "ª".as_bytes()
    );
    assert_eq!(
        out("ibm437", Invalid::Replace, b"\x80\xE9\xFE"),
        "ÇΘ■".as_bytes()
    );
    assert_eq!(
        out("koi8-r", Invalid::Replace, b"\xF0\xD2\xC9"),
        "При".as_bytes()
    );
}

#[test]
fn shift_jis_and_friends_as_the_view_reads_them() {
    // 日本 in Shift_JIS, then a lead byte followed by ASCII, then a lone lead at the end.
    let input = b"\x93\xFA\x96\x7Ba\x82 a\x82";
    let expected = whatwg("shift_jis", input);
    assert_eq!(expected, "日本a\u{FFFD} a\u{FFFD}".as_bytes());
    assert_eq!(out("shift_jis", Invalid::Replace, input), expected);
    assert_eq!(out("sjis", Invalid::Drop, input), "日本a a".as_bytes());
    assert_eq!(
        changes("shift_jis", Invalid::Replace, input),
        [
            (5, b"\x82".to_vec(), "bad_trail"),
            (8, b"\x82".to_vec(), "truncated_eof")
        ]
    );
    // The kinds are the view's: check -e shift_jis names the same units.
    let view: Vec<(usize, &str)> = hexrune::encoding::resolve("shift_jis")
        .unwrap()
        .units(input)
        .filter_map(|u| u.error_kind().map(|k| (u.start, k.name())))
        .collect();
    assert_eq!(view, [(5, "bad_trail"), (8, "truncated_eof")]);
    // Big5's 88 62 is two code points; ISO-2022-JP's escape sequences write nothing, and
    // two in a row are an error as encoding_rs says.
    assert_eq!(
        out("big5", Invalid::Replace, b"a\x88\x62b"),
        "a\u{CA}\u{304}b".as_bytes()
    );
    let jis = b"\x1B$B\x46\x7C\x4B\x5C\x1B(Bok\x1B$B\x1B(B.";
    assert_eq!(whatwg("iso-2022-jp", jis), "日本ok\u{FFFD}.".as_bytes());
    assert_eq!(
        out("iso-2022-jp", Invalid::Replace, jis),
        whatwg("iso-2022-jp", jis)
    );
    assert_eq!(
        changes("iso-2022-jp", Invalid::Replace, jis),
        [(12, b"\x1B$B".to_vec(), "redundant_escape")]
    );
    assert_eq!(
        out("euc-kr", Invalid::Replace, b"\xC7\xD1\xB1\xDB"),
        "한글".as_bytes()
    );
    assert_eq!(
        out("big5", Invalid::Replace, b"\xA4\xA4\xA4\xE5"),
        "中文".as_bytes()
    );
    assert_eq!(
        out("gb18030", Invalid::Replace, b"\x81\x30\x81\x30"),
        "\u{80}".as_bytes()
    );
    assert_eq!(
        out("iso-2022-jp", Invalid::Replace, b"\x1B$B$3$s\x1B(B!"),
        "こん!".as_bytes()
    );
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
    assert!(refusal(p).contains("--mojibake read UTF-8"));
    assert!(refusal(from("auto", Invalid::Replace)).contains("needs a file"));
    // UTF-8 itself is the UTF-8 repair: keep is fine there.
    assert_eq!(out("utf-8", Invalid::Keep, b"a\xFFb"), b"a\xFFb");
}

#[test]
fn auto_takes_detections_answer() {
    let utf16 = "Grüße aus Köln, schöne Grüße!\n".repeat(8);
    let mut input = vec![0xFF, 0xFE];
    for u in utf16.encode_utf16() {
        input.extend_from_slice(&u.to_le_bytes());
    }
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
