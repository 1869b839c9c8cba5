//! Conformance: the decoder driven with public test data (vendored in `tests/data/`, origins
//! and licences in `tests/data/ATTRIBUTION.md`).
//!
//! Where a source's semantics differ from hexrune's dialect rules, the test follows hexrune's
//! rules and says so at the case; no assertion is bent to pass.

mod support;

use hexrune::decode::{Dialect, ErrorKind, Unit, UnitKind};
use serde_json::Value;
use support::invariants::encode;
use support::{hex, is_valid, json, lossy, triples, u32s, Triple, Want};
use ErrorKind::*;
use Want::{Cp, Err as E};

const FFFD: u32 = 0xFFFD;

// ---------------------------------------------------------------------------------------------
// Markus Kuhn's UTF-8 decoder capability and stress test
// ---------------------------------------------------------------------------------------------

const KUHN: &str = "kuhn/UTF-8-test.txt";
const KUHN_MARKER: &[u8] = b"Here come the tests:";

/// The lines of the file (without the final empty piece after the last `\n`), and the index of
/// the "Here come the tests:" line.
fn kuhn_lines(file: &[u8]) -> (Vec<&[u8]>, usize) {
    let mut lines: Vec<&[u8]> = file.split(|b| *b == b'\n').collect();
    assert_eq!(lines.pop(), Some(&b""[..]), "file must end with a newline");
    let marker = lines
        .iter()
        .position(|l| l.starts_with(KUHN_MARKER))
        .expect("marker line");
    (lines, marker)
}

#[test]
fn kuhn_vendored_file_is_the_documented_version() {
    let file = support::data(KUHN);
    assert_eq!(file.len(), 22835);
    let (lines, marker) = kuhn_lines(&file);
    assert_eq!(lines.len(), 300);
    assert_eq!(marker, 60, "\"Here come the tests:\" is line 61");
    assert_eq!(lines[0], b"UTF-8 decoder capability and stress test");
    assert_eq!(
        lines[299].trim_ascii_end(),
        b"THE END                                                                       |"
    );
}

/// Kuhn's own notion of a malformed sequence (the file's documented property is stated in it):
/// a lead byte C0..FD and as many of the continuation bytes its RFC 2279 length announces as
/// follow it; a lone continuation byte, FE or FF; or one ASCII byte. Returns the segments'
/// (start, end) in the line.
fn kuhn_segments(line: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < line.len() {
        let wanted = match line[i] {
            0xC0..=0xDF => 1,
            0xE0..=0xEF => 2,
            0xF0..=0xF7 => 3,
            0xF8..=0xFB => 4,
            0xFC..=0xFD => 5,
            _ => 0,
        };
        let start = i;
        i += 1;
        let mut left = wanted;
        while left > 0 && i < line.len() && (0x80..=0xBF).contains(&line[i]) {
            i += 1;
            left -= 1;
        }
        out.push((start, i));
    }
    out
}

/// The file's documented property, checked line by line: from "Here come the tests:" on, every
/// line is 79 characters wide when each malformed sequence (in Kuhn's sense) counts as one
/// character. And the decoder's units refine Kuhn's sequences: no unit crosses a sequence
/// boundary, and every well-formed sequence is exactly one scalar.
#[test]
fn kuhn_every_test_line_is_79_wide_counting_malformed_sequences_as_one() {
    let file = support::data(KUHN);
    let (lines, marker) = kuhn_lines(&file);
    assert_eq!(lines.len() - marker, 240);
    for (n, line) in lines.iter().enumerate().skip(marker) {
        let segments = kuhn_segments(line);
        assert_eq!(
            segments.len(),
            79,
            "line {}: {:?}",
            n + 1,
            String::from_utf8_lossy(line)
        );
        let units: Vec<Unit> = Dialect::Utf8.units(line).collect();
        for &(s, e) in &segments {
            let inside: Vec<&Unit> = units
                .iter()
                .filter(|u| u.start >= s && u.start < e)
                .collect();
            assert_eq!(
                inside.first().map(|u| u.start),
                Some(s),
                "line {}: a unit crosses into {s}",
                n + 1
            );
            assert_eq!(
                inside.last().map(|u| u.end()),
                Some(e),
                "line {}: a unit crosses out of {e}",
                n + 1
            );
            if std::str::from_utf8(&line[s..e]).is_ok() {
                assert_eq!(
                    inside.len(),
                    1,
                    "line {}: well-formed sequence at {s} split",
                    n + 1
                );
                assert!(!inside[0].is_error());
            }
        }
    }
}

/// The same widths counting each maximal subpart (one U+FFFD each) as one character, the way
/// hexrune cuts errors. Kuhn's file was written for the "one replacement per malformed
/// sequence" convention, so the lines holding a malformed sequence of more than one maximal
/// subpart are wider than 79. Those lines and their widths are pinned below; the widths were
/// computed independently with CPython's `bytes.decode('utf-8', 'replace')`, which also
/// substitutes per maximal subpart. Every other line must be exactly 79 wide.
#[test]
fn kuhn_line_widths_in_maximal_subparts() {
    #[rustfmt::skip]
    const WIDER: &[(usize, usize)] = &[
        // section 2: 5- and 6-byte forms, values above U+10FFFF (one subpart per byte)
        (75, 83), (76, 84), (83, 82), (84, 83), (85, 84), (93, 82),
        // 3.3.2..3.3.5, 3.3.8..3.3.10: truncated sequences on leads that are overlong or
        // never valid in UTF-8
        (154, 80), (155, 81), (156, 82), (157, 83), (160, 81), (161, 82), (162, 83),
        // 3.4: the ten truncated sequences concatenated
        (169, 98),
        // 4.1.x, 4.2.x, 4.3.x: overlong forms
        (207, 80), (208, 81), (209, 82), (210, 83), (211, 84),
        (220, 80), (221, 81), (222, 82), (223, 83), (224, 84),
        (232, 80), (233, 81), (234, 82), (235, 83), (236, 84),
        // 5.1.x: single surrogates (3 subparts each)
        (247, 81), (248, 81), (249, 81), (250, 81), (251, 81), (252, 81), (253, 81),
        // 5.2.x: paired surrogates (6 subparts each)
        (257, 83), (258, 83), (259, 83), (260, 83), (261, 83), (262, 83), (263, 83), (264, 83),
    ];
    let file = support::data(KUHN);
    let (lines, marker) = kuhn_lines(&file);
    let mut exactly_79 = 0;
    for (n, line) in lines.iter().enumerate().skip(marker) {
        let number = n + 1;
        let width = Dialect::Utf8.units(line).count();
        let want = WIDER
            .iter()
            .find(|(l, _)| *l == number)
            .map_or(79, |(_, w)| *w);
        assert_eq!(
            width,
            want,
            "line {number}: {:?}",
            String::from_utf8_lossy(line)
        );
        // The same width with std's replacement decoding.
        assert_eq!(
            String::from_utf8_lossy(line).chars().count(),
            width,
            "line {number}"
        );
        exactly_79 += usize::from(width == 79);
    }
    assert_eq!(exactly_79, 196);
}

/// The non-ASCII units of a labelled Kuhn test: the label's line is found, then the bytes
/// between the next two `"` (which may span lines); the whole file is decoded once, so each
/// test keeps its real context (the closing quote cuts truncated sequences). Each unit is given
/// as (its bytes in hex, what it is).
fn kuhn_case(d: Dialect, file: &[u8], label: &str) -> Vec<(String, Want)> {
    let needle = format!("\n{label} ");
    let at = file
        .windows(needle.len())
        .position(|w| w == needle.as_bytes())
        .unwrap_or_else(|| panic!("no Kuhn test {label}"));
    let open = at + file[at..].iter().position(|b| *b == b'"').unwrap();
    let close = open + 1 + file[open + 1..].iter().position(|b| *b == b'"').unwrap();
    d.units(file)
        .filter(|u| u.start > open && u.start < close)
        .filter(|u| u.is_error() || file[u.start] >= 0x80)
        .map(|u| {
            let h: String = file[u.start..u.end()]
                .iter()
                .map(|b| format!("{b:02X}"))
                .collect();
            (h, Want::of(&u))
        })
        .collect()
}

/// Builds an expectation: each `hex` string is one unit.
fn exp(items: &[(&str, Want)]) -> Vec<(String, Want)> {
    items.iter().map(|(h, w)| (h.to_string(), *w)).collect()
}

/// A lead that is an error, followed by `n` continuation bytes, each its own unit.
fn lead_then_conts(lead: &str, lead_kind: ErrorKind, conts: &[&str]) -> Vec<(String, Want)> {
    let mut v = vec![(lead.to_string(), E(lead_kind))];
    v.extend(
        conts
            .iter()
            .map(|c| (c.to_string(), E(UnexpectedContinuation))),
    );
    v
}

#[test]
fn kuhn_section_1_and_2_boundaries() {
    let file = support::data(KUHN);
    let u = Dialect::Utf8;
    // 1: the Greek word kosme.
    assert_eq!(
        kuhn_case(u, &file, "You should see the Greek word 'kosme':")
            .iter()
            .map(|(_, w)| *w)
            .collect::<Vec<_>>(),
        // κόσμε, with U+1F79 GREEK SMALL LETTER OMICRON WITH OXIA as the file has it
        [0x3BA, 0x1F79, 0x3C3, 0x3BC, 0x3B5].map(Cp)
    );
    // 2.1.1 and 2.2.1 are ASCII (U+0000, U+007F): no non-ASCII unit.
    assert_eq!(kuhn_case(u, &file, "2.1.1"), []);
    assert_eq!(kuhn_case(u, &file, "2.2.1"), []);
    let valid = [
        ("2.1.2", "C280", 0x80),
        ("2.1.3", "E0A080", 0x800),
        ("2.1.4", "F0908080", 0x1_0000),
        ("2.2.2", "DFBF", 0x7FF),
        ("2.2.3", "EFBFBF", 0xFFFF),
        ("2.3.1", "ED9FBF", 0xD7FF),
        ("2.3.2", "EE8080", 0xE000),
        ("2.3.3", "EFBFBD", 0xFFFD),
        ("2.3.4", "F48FBFBF", 0x10_FFFF),
    ];
    for (label, h, v) in valid {
        assert_eq!(kuhn_case(u, &file, label), exp(&[(h, Cp(v))]), "{label}");
    }
    let bf = ["BF"; 5];
    let c80 = ["80"; 5];
    assert_eq!(
        kuhn_case(u, &file, "2.1.5"),
        lead_then_conts("F8", InvalidByte, &["88", "80", "80", "80"])
    );
    assert_eq!(
        kuhn_case(u, &file, "2.1.6"),
        lead_then_conts("FC", InvalidByte, &[&["84"][..], &c80[..4]].concat())
    );
    assert_eq!(
        kuhn_case(u, &file, "2.2.4"),
        lead_then_conts("F7", InvalidByte, &bf[..3])
    );
    assert_eq!(
        kuhn_case(u, &file, "2.2.5"),
        lead_then_conts("FB", InvalidByte, &bf[..4])
    );
    assert_eq!(
        kuhn_case(u, &file, "2.2.6"),
        lead_then_conts("FD", InvalidByte, &bf[..5])
    );
    assert_eq!(
        kuhn_case(u, &file, "2.3.5"),
        lead_then_conts("F4", OutOfRange, &["90", "80", "80"])
    );

    // RFC 2279 (legacy) reads every line of section 2 as one scalar, its value from the label.
    let l = Dialect::Legacy;
    let legacy = [
        ("2.1.5", "F888808080", 0x20_0000),
        ("2.1.6", "FC8480808080", 0x400_0000),
        ("2.2.4", "F7BFBFBF", 0x1F_FFFF),
        ("2.2.5", "FBBFBFBFBF", 0x3FF_FFFF),
        ("2.2.6", "FDBFBFBFBFBF", 0x7FFF_FFFF),
        ("2.3.5", "F4908080", 0x11_0000),
    ];
    for (label, h, v) in valid.into_iter().chain(legacy) {
        assert_eq!(
            kuhn_case(l, &file, label),
            exp(&[(h, Cp(v))]),
            "legacy {label}"
        );
    }
}

#[test]
fn kuhn_section_3_malformed_sequences() {
    let file = support::data(KUHN);
    let u = Dialect::Utf8;
    let uc = |h: &str| (h.to_string(), E(UnexpectedContinuation));
    // 3.1: each unexpected continuation byte is its own error.
    assert_eq!(kuhn_case(u, &file, "3.1.1"), vec![uc("80")]);
    assert_eq!(kuhn_case(u, &file, "3.1.2"), vec![uc("BF")]);
    for (n, label) in ["3.1.3", "3.1.4", "3.1.5", "3.1.6", "3.1.7", "3.1.8"]
        .iter()
        .enumerate()
    {
        let want: Vec<_> = ["80", "BF"]
            .iter()
            .cycle()
            .take(n + 2)
            .map(|h| uc(h))
            .collect();
        assert_eq!(kuhn_case(u, &file, label), want, "{label}");
    }
    let all64: Vec<_> = (0x80..=0xBFu8).map(|b| uc(&format!("{b:02X}"))).collect();
    assert_eq!(kuhn_case(u, &file, "3.1.9"), all64);

    // 3.2: lonely start characters, each followed by a space.
    let lonely = |d: Dialect,
                  label: &str,
                  bytes: std::ops::RangeInclusive<u8>,
                  kind: &dyn Fn(u8) -> ErrorKind| {
        let want: Vec<_> = bytes.map(|b| (format!("{b:02X}"), E(kind(b)))).collect();
        assert_eq!(kuhn_case(d, &file, label), want, "{d} {label}");
    };
    lonely(u, "3.2.1", 0xC0..=0xDF, &|b| {
        if b < 0xC2 {
            InvalidByte
        } else {
            Truncated
        }
    });
    lonely(u, "3.2.2", 0xE0..=0xEF, &|_| Truncated);
    lonely(u, "3.2.3", 0xF0..=0xF7, &|b| {
        if b <= 0xF4 {
            Truncated
        } else {
            InvalidByte
        }
    });
    lonely(u, "3.2.4", 0xF8..=0xFB, &|_| InvalidByte);
    lonely(u, "3.2.5", 0xFC..=0xFD, &|_| InvalidByte);
    // In RFC 2279 every one of them but C0 and C1 is a lead.
    let l = Dialect::Legacy;
    lonely(l, "3.2.1", 0xC0..=0xDF, &|b| {
        if b < 0xC2 {
            InvalidByte
        } else {
            Truncated
        }
    });
    lonely(l, "3.2.3", 0xF0..=0xF7, &|_| Truncated);
    lonely(l, "3.2.4", 0xF8..=0xFB, &|_| Truncated);
    lonely(l, "3.2.5", 0xFC..=0xFD, &|_| Truncated);

    // 3.3: sequences with the last continuation byte missing, cut by the closing quote.
    // Kuhn wants one replacement for each; maximal subparts give one only where the bytes
    // are a prefix of a well-formed UTF-8 sequence (3.3.6, 3.3.7).
    let t = |h: &str| exp(&[(h, E(Truncated))]);
    assert_eq!(kuhn_case(u, &file, "3.3.1"), exp(&[("C0", E(InvalidByte))]));
    assert_eq!(
        kuhn_case(u, &file, "3.3.2"),
        lead_then_conts("E0", Overlong, &["80"])
    );
    assert_eq!(
        kuhn_case(u, &file, "3.3.3"),
        lead_then_conts("F0", Overlong, &["80", "80"])
    );
    assert_eq!(
        kuhn_case(u, &file, "3.3.4"),
        lead_then_conts("F8", InvalidByte, &["80"; 3])
    );
    assert_eq!(
        kuhn_case(u, &file, "3.3.5"),
        lead_then_conts("FC", InvalidByte, &["80"; 4])
    );
    assert_eq!(kuhn_case(u, &file, "3.3.6"), t("DF"));
    assert_eq!(kuhn_case(u, &file, "3.3.7"), t("EFBF"));
    assert_eq!(
        kuhn_case(u, &file, "3.3.8"),
        lead_then_conts("F7", InvalidByte, &["BF"; 2])
    );
    assert_eq!(
        kuhn_case(u, &file, "3.3.9"),
        lead_then_conts("FB", InvalidByte, &["BF"; 3])
    );
    assert_eq!(
        kuhn_case(u, &file, "3.3.10"),
        lead_then_conts("FD", InvalidByte, &["BF"; 4])
    );
    // In RFC 2279 the ones on valid leads with allowed second bytes are one truncated unit
    // each: exactly Kuhn's "single malformed sequence".
    assert_eq!(kuhn_case(l, &file, "3.3.1"), exp(&[("C0", E(InvalidByte))]));
    assert_eq!(
        kuhn_case(l, &file, "3.3.2"),
        lead_then_conts("E0", Overlong, &["80"])
    );
    assert_eq!(
        kuhn_case(l, &file, "3.3.5"),
        lead_then_conts("FC", Overlong, &["80"; 4])
    );
    assert_eq!(kuhn_case(l, &file, "3.3.8"), t("F7BFBF"));
    assert_eq!(kuhn_case(l, &file, "3.3.9"), t("FBBFBFBF"));
    assert_eq!(kuhn_case(l, &file, "3.3.10"), t("FDBFBFBFBF"));

    // 3.5: impossible bytes.
    assert_eq!(kuhn_case(u, &file, "3.5.1"), exp(&[("FE", E(InvalidByte))]));
    assert_eq!(kuhn_case(u, &file, "3.5.2"), exp(&[("FF", E(InvalidByte))]));
    assert_eq!(
        kuhn_case(u, &file, "3.5.3"),
        exp(&[
            ("FE", E(InvalidByte)),
            ("FE", E(InvalidByte)),
            ("FF", E(InvalidByte)),
            ("FF", E(InvalidByte))
        ])
    );
    for d in Dialect::UTF8_FAMILY {
        assert_eq!(
            kuhn_case(d, &file, "3.5.1"),
            exp(&[("FE", E(InvalidByte))]),
            "{d}"
        );
    }
}

#[test]
fn kuhn_section_3_4_concatenated_truncations() {
    // The 3.4 line has no label of its own: find the ten 3.3 sequences back to back.
    let file = support::data(KUHN);
    let seq = hex("C0 E080 F08080 F8808080 FC80808080 DF EFBF F7BFBF FBBFBFBF FDBFBFBFBF");
    let at = file
        .windows(seq.len())
        .position(|w| w == seq)
        .expect("3.4 data");
    let part = &file[at..at + seq.len() + 1]; // with the closing quote
    let got: Vec<(usize, u8, Want)> = triples(Dialect::Utf8, part);
    let uc = E(UnexpectedContinuation);
    #[rustfmt::skip]
    let want: Vec<Triple> = vec![
        (0, 1, E(InvalidByte)),
        (1, 1, E(Overlong)), (2, 1, uc),
        (3, 1, E(Overlong)), (4, 1, uc), (5, 1, uc),
        (6, 1, E(InvalidByte)), (7, 1, uc), (8, 1, uc), (9, 1, uc),
        (10, 1, E(InvalidByte)), (11, 1, uc), (12, 1, uc), (13, 1, uc), (14, 1, uc),
        (15, 1, E(Truncated)),
        (16, 2, E(Truncated)),
        (18, 1, E(InvalidByte)), (19, 1, uc), (20, 1, uc),
        (21, 1, E(InvalidByte)), (22, 1, uc), (23, 1, uc), (24, 1, uc),
        (25, 1, E(InvalidByte)), (26, 1, uc), (27, 1, uc), (28, 1, uc), (29, 1, uc),
        (30, 1, Cp('"' as u32)),
    ];
    assert_eq!(got, want);
    // Legacy UTF-8 reads the last five as the five truncated sequences Kuhn means.
    let got = triples(Dialect::Legacy, &part[15..]);
    assert_eq!(
        got,
        vec![
            (0, 1, E(Truncated)),
            (1, 2, E(Truncated)),
            (3, 3, E(Truncated)),
            (6, 4, E(Truncated)),
            (10, 5, E(Truncated)),
            (15, 1, Cp('"' as u32)),
        ]
    );
}

#[test]
fn kuhn_section_4_overlong_forms_and_their_diagnoses() {
    let file = support::data(KUHN);
    let u = Dialect::Utf8;
    // (label, bytes, value named by the label)
    let cases: [(&str, &str, u32); 15] = [
        ("4.1.1", "C0 AF", 0x2F),
        ("4.1.2", "E0 80 AF", 0x2F),
        ("4.1.3", "F0 80 80 AF", 0x2F),
        ("4.1.4", "F8 80 80 80 AF", 0x2F),
        ("4.1.5", "FC 80 80 80 80 AF", 0x2F),
        ("4.2.1", "C1 BF", 0x7F),
        ("4.2.2", "E0 9F BF", 0x7FF),
        ("4.2.3", "F0 8F BF BF", 0xFFFF),
        ("4.2.4", "F8 87 BF BF BF", 0x1F_FFFF),
        ("4.2.5", "FC 83 BF BF BF BF", 0x3FF_FFFF),
        ("4.3.1", "C0 80", 0),
        ("4.3.2", "E0 80 80", 0),
        ("4.3.3", "F0 80 80 80", 0),
        ("4.3.4", "F8 80 80 80 80", 0),
        ("4.3.5", "FC 80 80 80 80 80", 0),
    ];
    for (label, h, value) in cases {
        let bytes = hex(h);
        // The lead is an error (invalid_byte for C0, C1, F8, FC; overlong for E0, F0) and
        // every continuation byte after it is an error of its own.
        let lead_kind = if matches!(bytes[0], 0xE0 | 0xF0) {
            Overlong
        } else {
            InvalidByte
        };
        let conts: Vec<String> = bytes[1..].iter().map(|b| format!("{b:02X}")).collect();
        let conts: Vec<&str> = conts.iter().map(|s| s.as_str()).collect();
        assert_eq!(
            kuhn_case(u, &file, label),
            lead_then_conts(&format!("{:02X}", bytes[0]), lead_kind, &conts),
            "{label}"
        );
        // The diagnosis names the value and spans the whole form.
        let unit = u.decode_at(&bytes, 0);
        let d = u
            .diagnose(&bytes, &unit)
            .unwrap_or_else(|| panic!("{label}: no diagnosis"));
        let name = match value {
            0x2F => "U+002F '/'".to_string(),
            v => format!("U+{v:04X}"),
        };
        let want = if value == 0 && bytes.len() == 2 {
            "overlong form of U+0000 (Modified UTF-8's NUL)".to_string()
        } else {
            format!("overlong form of {name}")
        };
        assert_eq!(
            (d.to_string(), d.span as usize),
            (want, bytes.len()),
            "{label}"
        );
    }
    // Modified UTF-8 takes 4.3.1 as its U+0000 and nothing else.
    assert_eq!(
        kuhn_case(Dialect::Mutf8, &file, "4.3.1"),
        exp(&[("C080", Cp(0))])
    );
    assert_eq!(
        kuhn_case(Dialect::Mutf8, &file, "4.1.1"),
        lead_then_conts("C0", Overlong, &["AF"])
    );
    // Legacy UTF-8 requires shortest forms too: every 4.x case is an error there.
    for (label, _, _) in cases {
        let got = kuhn_case(Dialect::Legacy, &file, label);
        assert!(
            got.iter().all(|(_, w)| matches!(w, E(_))),
            "legacy {label}: {got:?}"
        );
    }
}

#[test]
fn kuhn_section_5_surrogates_in_every_dialect() {
    let file = support::data(KUHN);
    let singles = [
        ("5.1.1", "EDA080", 0xD800),
        ("5.1.2", "EDADBF", 0xDB7F),
        ("5.1.3", "EDAE80", 0xDB80),
        ("5.1.4", "EDAFBF", 0xDBFF),
        ("5.1.5", "EDB080", 0xDC00),
        ("5.1.6", "EDBE80", 0xDF80),
        ("5.1.7", "EDBFBF", 0xDFFF),
    ];
    for (label, h, v) in singles {
        assert_eq!(
            kuhn_case(Dialect::Utf8, &file, label),
            lead_then_conts("ED", Surrogate, &[&h[2..4], &h[4..6]]),
            "{label}"
        );
        assert_eq!(
            kuhn_case(Dialect::Cesu8, &file, label),
            exp(&[(h, E(UnpairedSurrogate))])
        );
        for d in [Dialect::Mutf8, Dialect::Wtf8, Dialect::Legacy] {
            assert_eq!(
                kuhn_case(d, &file, label),
                exp(&[(h, Cp(v))]),
                "{d} {label}"
            );
        }
        let bytes = hex(h);
        let unit = Dialect::Utf8.decode_at(&bytes, 0);
        let half = if v <= 0xDBFF { "lead" } else { "trail" };
        assert_eq!(
            Dialect::Utf8
                .diagnose(&bytes, &unit)
                .map(|d| (d.to_string(), d.span)),
            Some((
                format!("UTF-16 surrogate U+{v:04X} ({half} half, not a character)"),
                3
            )),
            "{label}"
        );
    }
    let pairs = [
        ("5.2.1", 0xD800, 0xDC00),
        ("5.2.2", 0xD800, 0xDFFF),
        ("5.2.3", 0xDB7F, 0xDC00),
        ("5.2.4", 0xDB7F, 0xDFFF),
        ("5.2.5", 0xDB80, 0xDC00),
        ("5.2.6", 0xDB80, 0xDFFF),
        ("5.2.7", 0xDBFF, 0xDC00),
        ("5.2.8", 0xDBFF, 0xDFFF),
    ];
    for (label, hi, lo) in pairs {
        let h3 = |v: u32| {
            format!(
                "ED{:02X}{:02X}",
                0xA0 | ((v >> 6) & 0x1F),
                0x80 | (v & 0x3F)
            )
        };
        let (a, b) = (h3(hi), h3(lo));
        let supplementary = 0x1_0000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
        let mut utf8 = lead_then_conts("ED", Surrogate, &[&a[2..4], &a[4..6]]);
        utf8.extend(lead_then_conts("ED", Surrogate, &[&b[2..4], &b[4..6]]));
        assert_eq!(kuhn_case(Dialect::Utf8, &file, label), utf8, "{label}");
        let six = format!("{a}{b}");
        assert_eq!(
            kuhn_case(Dialect::Cesu8, &file, label),
            exp(&[(six.as_str(), Cp(supplementary))])
        );
        assert_eq!(
            kuhn_case(Dialect::Mutf8, &file, label),
            exp(&[(six.as_str(), Cp(supplementary))])
        );
        assert_eq!(
            kuhn_case(Dialect::Wtf8, &file, label),
            exp(&[
                (a.as_str(), E(SurrogatePair)),
                (b.as_str(), E(SurrogatePair))
            ])
        );
        assert_eq!(
            kuhn_case(Dialect::Legacy, &file, label),
            exp(&[(a.as_str(), Cp(hi)), (b.as_str(), Cp(lo))])
        );
        let bytes = hex(&six);
        let unit = Dialect::Utf8.decode_at(&bytes, 0);
        assert_eq!(
            Dialect::Utf8.diagnose(&bytes, &unit).map(|d| (d.to_string(), d.span)),
            Some((
                format!(
                    "surrogate pair U+{hi:04X} U+{lo:04X} for U+{supplementary:04X} written as two 3-byte sequences (CESU-8 style)"
                ),
                6
            )),
            "{label}"
        );
    }
    // 5.3: noncharacters are well-formed scalars.
    assert_eq!(
        kuhn_case(Dialect::Utf8, &file, "5.3.1"),
        exp(&[("EFBFBE", Cp(0xFFFE))])
    );
    assert_eq!(
        kuhn_case(Dialect::Utf8, &file, "5.3.2"),
        exp(&[("EFBFBF", Cp(0xFFFF))])
    );
    let fdd: Vec<Want> = kuhn_case(Dialect::Utf8, &file, "5.3.3")
        .into_iter()
        .map(|x| x.1)
        .collect();
    assert_eq!(fdd, (0xFDD0..=0xFDEF).map(Cp).collect::<Vec<_>>());
    let planes: Vec<Want> = kuhn_case(Dialect::Utf8, &file, "5.3.4")
        .into_iter()
        .map(|x| x.1)
        .collect();
    let want: Vec<Want> = (1..=0x10u32)
        .flat_map(|n| [Cp((n << 16) | 0xFFFE), Cp((n << 16) | 0xFFFF)])
        .collect();
    assert_eq!(planes, want);
}

// ---------------------------------------------------------------------------------------------
// The Unicode Standard, ch. 3.9, Tables 3-8 to 3-12
// ---------------------------------------------------------------------------------------------

#[test]
fn unicode_ch3_fffd_tables_exact_segmentation() {
    let data = json("unicode/ch03_fffd_tables.json");
    let cases = data["cases"].as_array().unwrap();
    // hexrune's kinds for each table's units (the standard gives the segmentation only).
    let uc = E(UnexpectedContinuation);
    let kinds: [(&str, Vec<Want>); 5] = [
        (
            "3-8",
            vec![
                Cp(0x61),
                E(Truncated),
                E(Truncated),
                E(Truncated),
                Cp(0x62),
                uc,
                Cp(0x63),
                uc,
                uc,
                Cp(0x64),
            ],
        ),
        (
            "3-9",
            vec![
                E(InvalidByte),
                uc,
                E(Overlong),
                uc,
                uc,
                E(Overlong),
                uc,
                uc,
                Cp(0x41),
            ],
        ),
        (
            "3-10",
            vec![
                E(Surrogate),
                uc,
                uc,
                E(Surrogate),
                uc,
                uc,
                E(Surrogate),
                uc,
                Cp(0x41),
            ],
        ),
        (
            "3-11",
            vec![
                E(OutOfRange),
                uc,
                uc,
                uc,
                E(InvalidByte),
                Cp(0x41),
                uc,
                uc,
                Cp(0x42),
            ],
        ),
        (
            "3-12",
            vec![
                E(Truncated),
                E(Truncated),
                E(Truncated),
                E(Truncated),
                Cp(0x41),
            ],
        ),
    ];
    assert_eq!(cases.len(), kinds.len());
    for (case, (table, want_kinds)) in cases.iter().zip(kinds) {
        assert_eq!(case["table"], table);
        let input = hex(case["input_hex"].as_str().unwrap());
        let units: Vec<Unit> = Dialect::Utf8.units(&input).collect();
        let got: Vec<String> = units
            .iter()
            .map(|u| {
                input[u.start..u.end()]
                    .iter()
                    .map(|b| format!("{b:02X}"))
                    .collect()
            })
            .collect();
        let want: Vec<String> = case["maximal_subparts_hex"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_uppercase())
            .collect();
        assert_eq!(got, want, "table {table}");
        assert_eq!(
            lossy(Dialect::Utf8, &input),
            u32s(&case["expected_output"]),
            "table {table}"
        );
        assert_eq!(
            units.iter().map(Want::of).collect::<Vec<_>>(),
            want_kinds,
            "table {table}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// web-platform-tests TextDecoder cases
// ---------------------------------------------------------------------------------------------

/// A streaming decoder built on hexrune's units, as TextDecoder's `stream: true` works: each
/// call decodes what is pending plus the new bytes and emits every unit except a final
/// `truncated_eof` one (more bytes may complete it); a call with `stream: false` emits all.
struct Streamer {
    pending: Vec<u8>,
}

impl Streamer {
    fn call(&mut self, input: &[u8], stream: bool) -> Vec<u32> {
        self.pending.extend_from_slice(input);
        let units: Vec<Unit> = Dialect::Utf8.units(&self.pending).collect();
        let keep = match units.last() {
            Some(u) if stream && u.kind == UnitKind::Error(TruncatedEof) => 1,
            _ => 0,
        };
        let emit = &units[..units.len() - keep];
        let out = emit
            .iter()
            .map(|u| u.code_point().map_or(FFFD, |c| c.value()))
            .collect();
        let consumed = emit.last().map_or(0, |u| u.end());
        self.pending.drain(..consumed);
        out
    }
}

#[test]
fn wpt_textdecoder_cases() {
    let data = json("wpt/textdecoder_cases.json");
    let cases = data["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 76);
    let (mut ran, mut skipped) = (0, 0);
    for case in cases {
        let id = case["id"].as_str().unwrap();
        // Only UTF-8 cases apply: hexrune decodes the UTF-8 family, not UTF-16.
        if case["encoding"] != "utf-8" {
            assert!(
                case["encoding"].as_str().unwrap().starts_with("utf-16"),
                "{id}"
            );
            skipped += 1;
            continue;
        }
        ran += 1;
        let input = hex(case["input_hex"].as_str().unwrap());
        let ours = lossy(Dialect::Utf8, &input);
        let expect = &case["expect"];
        if expect.get("throws").is_some() {
            // Fatal mode throws exactly when the input holds an ill-formed subsequence.
            assert_eq!(case["fatal"], true, "{id}");
            assert!(
                !is_valid(Dialect::Utf8, &input),
                "{id}: should hold an error"
            );
            continue;
        }
        if let Some(not) = expect.get("not_equal_codepoints") {
            // FF FE / FE FF before UTF-8 text: a UTF-8 decoder treats the UTF-16 BOM as two
            // invalid bytes. The case only asserts inequality; we assert the exact output too.
            let not = u32s(not);
            assert_ne!(ours, not, "{id}");
            let mut want = vec![FFFD, FFFD];
            want.extend(&not);
            assert_eq!(ours, want, "{id}");
            let first = Dialect::Utf8.decode_at(&input, 0);
            let big_endian = input[0] == 0xFE;
            let name = if big_endian { "UTF-16BE" } else { "UTF-16LE" };
            assert_eq!(
                Dialect::Utf8
                    .diagnose(&input, &first)
                    .map(|d| (d.to_string(), d.span)),
                Some((
                    format!("{name} byte order mark: the input looks like UTF-16"),
                    2
                )),
                "{id}"
            );
            continue;
        }
        let mut want = u32s(&expect["output_codepoints"]);
        if input.starts_with(b"\xEF\xBB\xBF") {
            // TextDecoder strips a leading UTF-8 BOM (ignoreBOM=false); a byte-level
            // inspector shows it as the 3-byte scalar U+FEFF, as the case's note says.
            assert!(case["note"].as_str().unwrap().contains("U+FEFF"), "{id}");
            assert_eq!(triples(Dialect::Utf8, &input)[0], (0, 3, Cp(0xFEFF)));
            want.insert(0, 0xFEFF);
        }
        assert_eq!(ours, want, "{id}");
        if case["fatal"] == true {
            assert!(
                is_valid(Dialect::Utf8, &input),
                "{id}: fatal decode succeeded upstream"
            );
        }
        if let Some(calls) = case.get("calls") {
            let mut s = Streamer {
                pending: Vec::new(),
            };
            let mut all = Vec::new();
            for (i, call) in calls.as_array().unwrap().iter().enumerate() {
                let bytes = call["input_hex"].as_str().map(hex).unwrap_or_default();
                let got = s.call(&bytes, call["stream"] == true);
                match call.get("expect_codepoints") {
                    Some(w) => assert_eq!(got, u32s(w), "{id} call {i}"),
                    // Unasserted calls return "" in a conforming decoder (the case's note).
                    None => assert_eq!(got, Vec::<u32>::new(), "{id} call {i}"),
                }
                all.extend(got);
            }
            assert_eq!(all, want, "{id}: calls together");
        }
        if let Some(windows) = case.get("stream_windows") {
            for w in u32s(windows) {
                let mut s = Streamer {
                    pending: Vec::new(),
                };
                let mut all = Vec::new();
                for chunk in input.chunks(w as usize) {
                    all.extend(s.call(chunk, true));
                }
                all.extend(s.call(&[], false));
                assert_eq!(all, want, "{id}: windows of {w}");
            }
        }
    }
    assert_eq!((ran, skipped), (71, 5));
}

// ---------------------------------------------------------------------------------------------
// CPython issue8271 and Rust from_utf8_lossy
// ---------------------------------------------------------------------------------------------

#[test]
fn cpython_issue8271_replacement_output() {
    let data = json("cpython/issue8271_vectors.json");
    let cases = data["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 63);
    for case in cases {
        let h = case["input_hex"].as_str().unwrap();
        let input = hex(h);
        let want = u32s(&case["replace_output"]);
        assert_eq!(lossy(Dialect::Utf8, &input), want, "{h}");
        // The upstream test also asserts: strict decoding fails on every input, the same
        // output follows when a 'b' is appended, and errors='ignore' drops the U+FFFDs.
        assert!(!is_valid(Dialect::Utf8, &input), "{h}");
        let mut with_b = input.clone();
        with_b.push(b'b');
        let mut want_b = want.clone();
        want_b.push('b' as u32);
        assert_eq!(lossy(Dialect::Utf8, &with_b), want_b, "{h} + 'b'");
        let ignore: Vec<u32> = Dialect::Utf8
            .units(&input)
            .filter_map(|u| u.code_point())
            .map(|c| c.value())
            .collect();
        let want_ignore: Vec<u32> = want.iter().copied().filter(|c| *c != FFFD).collect();
        assert_eq!(ignore, want_ignore, "{h} ignore");
    }
}

#[test]
fn rust_from_utf8_lossy_vectors() {
    let data = json("rust/from_utf8_lossy_vectors.json");
    let cases = data["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 9);
    for case in cases {
        let h = case["input_hex"].as_str().unwrap();
        assert_eq!(
            lossy(Dialect::Utf8, &hex(h)),
            u32s(&case["lossy_output"]),
            "{h}"
        );
    }
    let extra = &data["extra"][0];
    let input = hex(extra["input_hex"].as_str().unwrap());
    let first_error = Dialect::Utf8.units(&input).find(|u| u.is_error()).unwrap();
    assert_eq!(
        first_error.start as u64,
        extra["valid_up_to"].as_u64().unwrap()
    );
    assert_eq!(
        (first_error.start, first_error.len, Want::of(&first_error)),
        (5, 1, E(InvalidByte))
    );
}

// ---------------------------------------------------------------------------------------------
// Dialect vectors
// ---------------------------------------------------------------------------------------------

/// The bytes hexrune's encoder rules give for a list of code points in a dialect.
fn encoded(d: Dialect, cps: &[u32]) -> Vec<u8> {
    let mut out = Vec::new();
    for &c in cps {
        let mut buf = [0u8; 6];
        let n = encode(d, c, &mut buf).unwrap_or_else(|| panic!("{d} cannot encode U+{c:04X}"));
        out.extend_from_slice(&buf[..n]);
    }
    out
}

fn decoded(d: Dialect, bytes: &[u8]) -> Vec<u32> {
    d.units(bytes)
        .map(|u| match u.kind {
            UnitKind::Scalar(cp) => cp.value(),
            UnitKind::Error(k) => panic!("{d}: {k} at {} in {bytes:02X?}", u.start),
        })
        .collect()
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key].as_str().unwrap_or_else(|| panic!("no {key} in {v}"))
}

#[test]
fn cesu8_vectors() {
    let data = json("dialects/cesu8_vectors.json");
    let cases = data["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 27);
    // The exact units of every invalid vector, by hexrune's rules.
    let invalid: &[(&str, &str, Vec<Triple>)] = &[
        // A 4-byte UTF-8 form: F0 never occurs in CESU-8.
        (
            "cesu8",
            "f0909081",
            vec![
                (0, 1, E(InvalidByte)),
                (1, 1, E(UnexpectedContinuation)),
                (2, 1, E(UnexpectedContinuation)),
                (3, 1, E(UnexpectedContinuation)),
            ],
        ),
        (
            "java",
            "f0909081",
            vec![
                (0, 1, E(InvalidByte)),
                (1, 1, E(UnexpectedContinuation)),
                (2, 1, E(UnexpectedContinuation)),
                (3, 1, E(UnexpectedContinuation)),
            ],
        ),
        // A raw NUL is not Modified UTF-8.
        (
            "java",
            "0000",
            vec![(0, 1, E(InvalidByte)), (1, 1, E(InvalidByte))],
        ),
    ];
    let mut invalid_seen = 0;
    for case in cases {
        // "java" is the variant hexrune calls Modified UTF-8 (U+0000 as C0 80).
        let d = match str_of(case, "variant") {
            "cesu8" => Dialect::Cesu8,
            "java" => Dialect::Mutf8,
            v => panic!("variant {v}"),
        };
        let what = str_of(case, "test");
        match str_of(case, "kind") {
            "decode" => {
                let bytes = hex(str_of(case, "input_hex"));
                assert_eq!(decoded(d, &bytes), u32s(&case["codepoints"]), "{what}");
            }
            "encode" => {
                let bytes = hex(str_of(case, "bytes_hex"));
                let cps = u32s(&case["codepoints"]);
                assert_eq!(encoded(d, &cps), bytes, "{what}");
                assert_eq!(decoded(d, &bytes), cps, "{what}");
            }
            "valid" => {
                let h = str_of(case, "input_hex");
                let bytes = hex(h);
                let valid = case["valid"].as_bool().unwrap();
                assert_eq!(is_valid(d, &bytes), valid, "{what}");
                if !valid {
                    let (_, _, want) = invalid
                        .iter()
                        .find(|(v, x, _)| *v == str_of(case, "variant") && *x == h)
                        .unwrap_or_else(|| panic!("no exact expectation for {what}"));
                    assert_eq!(&triples(d, &bytes), want, "{what}");
                    invalid_seen += 1;
                }
            }
            k => panic!("kind {k}"),
        }
    }
    assert_eq!(invalid_seen, invalid.len());
    // CESU-8 keeps 00 as U+0000; the pair of the UTR #26 example is U+F0000.
    assert_eq!(triples(Dialect::Cesu8, b"\x00"), [(0, 1, Cp(0))]);
    assert_eq!(
        triples(Dialect::Cesu8, &hex("edae80edb080")),
        [(0, 6, Cp(0xF0000))]
    );
}

#[test]
fn mutf8_vectors() {
    let data = json("dialects/mutf8_vectors.json");
    let cases = data["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 112);
    let d = Dialect::Mutf8;
    let mut counts = [0usize; 4];
    for case in cases {
        let what = str_of(case, "test");
        let h = str_of(case, "input_hex");
        let bytes = hex(h);
        match str_of(case, "kind") {
            "roundtrip" => {
                let cps = u32s(&case["codepoints"]);
                assert_eq!(decoded(d, &bytes), cps, "{what} {h}");
                assert_eq!(encoded(d, &cps), bytes, "{what} {h}");
                // One unit whose class is its length: 2, 3 or 6 bytes.
                let t = triples(d, &bytes);
                assert_eq!(t, [(0, bytes.len() as u8, Cp(cps[0]))], "{what} {h}");
                counts[0] += 1;
            }
            "decode" => {
                // Includes lone surrogates (TkTech/mutf8 issue 4): valid 3-byte scalars in
                // hexrune's Modified UTF-8, each its own unit.
                assert_eq!(decoded(d, &bytes), u32s(&case["codepoints"]), "{what} {h}");
                counts[1] += 1;
            }
            "decode_error" => {
                // Upstream raises; hexrune gives the exact error units. For "ED" upstream says
                // "6-byte (surrogate pair) sequence truncated"; by hexrune's rules a lone lead
                // at the end is a one-byte truncated_eof unit, whatever it might have become.
                let want: Vec<Triple> = match h {
                    "00" => vec![(0, 1, E(InvalidByte))],
                    "c2" | "ed" | "e2" => vec![(0, 1, E(TruncatedEof))],
                    _ => panic!("no exact expectation for {h}"),
                };
                assert_eq!(triples(d, &bytes), want, "{what} {h}");
                counts[2] += 1;
            }
            "valid" => {
                assert_eq!(
                    is_valid(d, &bytes),
                    case["valid"].as_bool().unwrap(),
                    "{what}"
                );
                let want: Vec<Triple> = match h {
                    "0000" => vec![(0, 1, E(InvalidByte)), (1, 1, E(InvalidByte))],
                    "f0909081" => vec![
                        (0, 1, E(InvalidByte)),
                        (1, 1, E(UnexpectedContinuation)),
                        (2, 1, E(UnexpectedContinuation)),
                        (3, 1, E(UnexpectedContinuation)),
                    ],
                    _ => panic!("no exact expectation for {h}"),
                };
                assert_eq!(triples(d, &bytes), want, "{what} {h}");
                counts[3] += 1;
            }
            k => panic!("kind {k}"),
        }
    }
    assert_eq!(counts, [100, 6, 4, 2]);
}

/// Parses a WTF-8 spec range such as `"A0-AF"` or `"ED"`.
fn spec_range(s: &str) -> (u8, u8) {
    match s.split_once('-') {
        Some((a, b)) => (
            u8::from_str_radix(a, 16).unwrap(),
            u8::from_str_radix(b, 16).unwrap(),
        ),
        None => {
            let v = u8::from_str_radix(s, 16).unwrap();
            (v, v)
        }
    }
}

/// Every sequence whose first byte is any byte of the first range and whose later bytes are
/// the ends of their ranges.
fn spec_row_samples(row: &[(u8, u8)]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = (row[0].0..=row[0].1).map(|b| vec![b]).collect();
    for &(lo, hi) in &row[1..] {
        out = out
            .into_iter()
            .flat_map(|p| {
                [lo, hi].into_iter().map(move |b| {
                    let mut q = p.clone();
                    q.push(b);
                    q
                })
            })
            .collect();
    }
    out
}

fn ranges(v: &Value) -> Vec<(u8, u8)> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| spec_range(s.as_str().unwrap()))
        .collect()
}

#[test]
fn wtf8_spec_tables() {
    let data = json("dialects/wtf8_vectors.json");
    let tables = &data["spec_tables"];
    let w = Dialect::Wtf8;
    // Generalized UTF-8: every row is one scalar of the row's length in WTF-8.
    let rows = tables["generalized_utf8_well_formed"].as_array().unwrap();
    assert_eq!(rows.len(), 7);
    for row in rows {
        for seq in spec_row_samples(&ranges(row)) {
            let t = triples(w, &seq);
            assert_eq!(t.len(), 1, "{seq:02X?}");
            assert_eq!((t[0].0, t[0].1), (0, seq.len() as u8), "{seq:02X?}");
            assert!(matches!(t[0].2, Cp(_)), "{seq:02X?}");
        }
    }
    // Surrogate byte sequences: each alone is a scalar (the surrogate); in strict UTF-8
    // it is an error on the lead.
    let sur = &tables["surrogate_byte_sequences"];
    for (key, lo, hi) in [
        ("lead", 0xD800, 0xDBFF),
        ("trail", 0xDC00, 0xDFFF),
        ("any", 0xD800, 0xDFFF),
    ] {
        for seq in spec_row_samples(&ranges(&sur[key])) {
            let v = ((seq[1] as u32 & 0x3F) << 6) | (seq[2] as u32 & 0x3F) | 0xD000;
            assert!((lo..=hi).contains(&v));
            assert_eq!(triples(w, &seq), [(0, 3, Cp(v))], "{seq:02X?}");
            assert_eq!(triples(Dialect::Utf8, &seq)[0], (0, 1, E(Surrogate)));
        }
    }
    // The pair rule: a lead sequence immediately followed by a trail sequence is ill-formed.
    // The spec's decoder is defined only for well-formed input (its decoder_note); hexrune's
    // rule is two 3-byte surrogate_pair errors.
    assert!(str_of(tables, "rule").contains("ill-formed"));
    for a in spec_row_samples(&ranges(&sur["lead"])) {
        for b in spec_row_samples(&ranges(&sur["trail"])) {
            let seq = [a.clone(), b].concat();
            assert_eq!(
                triples(w, &seq),
                [(0, 3, E(SurrogatePair)), (3, 3, E(SurrogatePair))],
                "{seq:02X?}"
            );
        }
    }
}

/// WTF-8's conversion from potentially ill-formed UTF-16: pairs join, lone surrogates stay.
fn from_utf16(units: &[u32]) -> Vec<u32> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < units.len() {
        let u = units[i];
        match units.get(i + 1) {
            Some(&t) if (0xD800..=0xDBFF).contains(&u) && (0xDC00..=0xDFFF).contains(&t) => {
                out.push(0x1_0000 + ((u - 0xD800) << 10) + (t - 0xDC00));
                i += 2;
            }
            _ => {
                out.push(u);
                i += 1;
            }
        }
    }
    out
}

fn to_utf16(cps: &[u32]) -> Vec<u32> {
    cps.iter()
        .flat_map(|&c| {
            if c >= 0x1_0000 {
                let v = c - 0x1_0000;
                vec![0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF)]
            } else {
                vec![c]
            }
        })
        .collect()
}

#[test]
fn wtf8_vectors() {
    let data = json("dialects/wtf8_vectors.json");
    let cases = data["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 15); // 14 vectors and a note
    let w = Dialect::Wtf8;
    for case in cases {
        let what = str_of(case, "test");
        match str_of(case, "kind") {
            "encode" => {
                let bytes = hex(str_of(case, "bytes_hex"));
                let cps = u32s(&case["codepoints"]);
                assert_eq!(encoded(w, &cps), bytes, "{what}");
                assert_eq!(decoded(w, &bytes), cps, "{what}");
            }
            "from_utf16" => {
                let bytes = hex(str_of(case, "bytes_hex"));
                let cps = u32s(&case["codepoints"]);
                assert_eq!(from_utf16(&u32s(&case["utf16"])), cps, "{what}");
                assert_eq!(encoded(w, &cps), bytes, "{what}");
                assert_eq!(decoded(w, &bytes), cps, "{what}");
            }
            "encode_codepoints" => {
                // Code points pushed one by one: a lead directly followed by a trail joins
                // into one supplementary code point (one 4-byte sequence).
                let bytes = hex(str_of(case, "bytes_hex"));
                let joined = from_utf16(&u32s(&case["codepoints_in"]));
                assert_eq!(encoded(w, &joined), bytes, "{what}");
                assert_eq!(decoded(w, &bytes), joined, "{what}");
            }
            "concat" => {
                // Naive byte concatenation of a lead and a trail is ill-formed WTF-8 (two
                // surrogate_pair errors); the right concatenation is the 4-byte form.
                let parts: Vec<u8> = case["parts_hex"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .flat_map(|p| hex(p.as_str().unwrap()))
                    .collect();
                assert_eq!(
                    triples(w, &parts),
                    [(0, 3, E(SurrogatePair)), (3, 3, E(SurrogatePair))],
                    "{what}"
                );
                let bytes = hex(str_of(case, "bytes_hex"));
                assert_eq!(triples(w, &bytes), [(0, 4, Cp(0x1F4A9))], "{what}");
            }
            "decode" => {
                let bytes = hex(str_of(case, "input_hex"));
                assert_eq!(decoded(w, &bytes), u32s(&case["codepoints"]), "{what}");
            }
            "lossy_to_utf8" => {
                // Surrogates (valid WTF-8 scalars) become U+FFFD when converting to UTF-8.
                let bytes = hex(str_of(case, "input_hex"));
                let out: Vec<u32> = decoded(w, &bytes)
                    .into_iter()
                    .map(|c| {
                        if (0xD800..=0xDFFF).contains(&c) {
                            FFFD
                        } else {
                            c
                        }
                    })
                    .collect();
                assert_eq!(out, u32s(&case["codepoints"]), "{what}");
                // Strict UTF-8 sees the same bytes as 3 errors where the surrogate was.
                let n = bytes.len();
                assert_eq!(
                    triples(Dialect::Utf8, &bytes[n - 3..]),
                    [
                        (0, 1, E(Surrogate)),
                        (1, 1, E(UnexpectedContinuation)),
                        (2, 1, E(UnexpectedContinuation))
                    ]
                );
            }
            "to_utf16" => {
                let bytes = hex(str_of(case, "input_hex"));
                assert_eq!(
                    to_utf16(&decoded(w, &bytes)),
                    u32s(&case["utf16"]),
                    "{what}"
                );
            }
            "note" => {
                // "0, 0xD800, 0x10FFFF valid code points; 0x110000 not": the same at the
                // byte level in WTF-8.
                assert_eq!(triples(w, b"\x00"), [(0, 1, Cp(0))]);
                assert_eq!(triples(w, &hex("EDA080")), [(0, 3, Cp(0xD800))]);
                assert_eq!(triples(w, &hex("F48FBFBF")), [(0, 4, Cp(0x10_FFFF))]);
                assert_eq!(triples(w, &hex("F4908080"))[0], (0, 1, E(OutOfRange)));
            }
            k => panic!("kind {k}"),
        }
    }
}

#[test]
fn legacy_rfc2279_vectors() {
    let data = json("dialects/legacy_rfc2279_vectors.json");
    let cases = data["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 17);
    for case in cases {
        let section = str_of(case, "section");
        let bytes = hex(str_of(case, "input_hex"));
        let v = case["codepoint"].as_u64().unwrap() as u32;
        let n = bytes.len() as u8;
        if let Some(len) = case["declared_length"].as_u64() {
            assert_eq!(len, n as u64, "{section}");
        } else {
            assert_eq!(hex(str_of(case, "declared_bytes")), bytes, "{section}");
        }
        assert_eq!(
            triples(Dialect::Legacy, &bytes),
            [(0, n, Cp(v))],
            "{section}"
        );
        assert_eq!(encoded(Dialect::Legacy, &[v]), bytes, "{section}");
        // In strict UTF-8 the 5- and 6-byte forms and the values above U+10FFFF are errors:
        // the lead (invalid_byte, or out_of_range for F4 90) and each continuation byte.
        let utf8 = triples(Dialect::Utf8, &bytes);
        if v <= 0x10_FFFF {
            assert_eq!(utf8, [(0, n, Cp(v))], "{section}");
        } else {
            let lead = if bytes[0] == 0xF4 {
                OutOfRange
            } else {
                InvalidByte
            };
            let mut want = vec![(0, 1, E(lead))];
            want.extend((1..bytes.len()).map(|i| (i, 1, E(UnexpectedContinuation))));
            assert_eq!(utf8, want, "{section}");
        }
    }
}
