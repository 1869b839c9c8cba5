//! `hexrune explain` as a user runs it: exact output for bytes and characters, the input
//! forms, JSON, and the error lines.

use serde_json::{json, Value};

mod common;
use common::{hexrune, quiet_stdout};

/// Runs `hexrune explain ARGS`, expects exit 0 and no stderr, returns stdout.
fn explain(args: &[&str]) -> String {
    quiet_stdout([&["explain"], args].concat())
}

/// Runs `hexrune explain ARGS`, expects exit 2 and nothing on stdout, returns stderr.
fn explain_error<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> String {
    let out = hexrune()
        .arg("explain")
        .args(args)
        .assert()
        .code(2)
        .stdout("")
        .get_output()
        .stderr
        .clone();
    String::from_utf8(out).unwrap()
}

const E282AC: &str = r#"e2 82 ac: 3 bytes

offset  hex  dec  oct    marker payload  role (utf8)
     0   e2  226  342      1110 0010     lead of a 3-byte sequence
     1   82  130  202        10 000010   continuation
     2   ac  172  254        10 101100   continuation

dialect  offset  len  bytes     unit
utf8          0    3  e2 82 ac  U+20AC '€' EURO SIGN (Sc: currency symbol)
cesu8    same as utf8
mutf8    same as utf8
wtf8     same as utf8
legacy   same as utf8

utf8, cesu8, mutf8, wtf8, legacy: e2 82 ac
  U+20AC        0010 0000 1010 1100 (16 bits)
  split 4+6+6   0010 000010 101100
  lead          1110 0010    e2
  continuation    10 000010  82
  continuation    10 101100  ac

valid in every dialect
"#;

const C0AF: &str = r#"c0 af: 2 bytes

offset  hex  dec  oct    marker payload  role (utf8)
     0   c0  192  300       110 00000    never valid; mutf8: lead of a 2-byte sequence, second byte 80
     1   af  175  257        10 101111   continuation

dialect  offset  len  bytes  unit
utf8          0    1  c0     invalid_byte: byte that never occurs in this dialect; overlong form of U+002F '/' (c0 af)
              1    1  af     unexpected_continuation: continuation byte after the broken sequence at 0x0 (lead C0)
cesu8    same as utf8
mutf8         0    1  c0     overlong: lead of an overlong (non-shortest) form; expected 80 after c0; overlong form of U+002F '/' (c0 af)
              1    1  af     unexpected_continuation: continuation byte after the broken sequence at 0x0 (lead C0)
wtf8     same as utf8
legacy   same as utf8

utf8 errors read as windows-1252 (--fallback)
       0  c0        À (windows-1252)
       1  af        ¯ (windows-1252)

invalid in every dialect
"#;

const CESU_PAIR: &str = r#"ed a0 bd ed b8 80: 6 bytes

offset  hex  dec  oct    marker payload  role (utf8)
     0   ed  237  355      1110 1101     lead of a 3-byte sequence, second byte 80..9F; cesu8, mutf8, wtf8, legacy: lead of a 3-byte sequence
     1   a0  160  240        10 100000   continuation
     2   bd  189  275        10 111101   continuation
     3   ed  237  355      1110 1101     lead of a 3-byte sequence, second byte 80..9F; cesu8, mutf8, wtf8, legacy: lead of a 3-byte sequence
     4   b8  184  270        10 111000   continuation
     5   80  128  200        10 000000   continuation

dialect  offset  len  bytes              unit
utf8          0    1  ed                 surrogate: lead of an encoded UTF-16 surrogate; expected 80..9F after ed; surrogate pair U+D83D U+DE00 for U+1F600 written as two 3-byte sequences (CESU-8 style) (ed a0 bd ed b8 80)
              1    1  a0                 unexpected_continuation: continuation byte after the broken sequence at 0x0 (lead ED)
              2    1  bd                 unexpected_continuation: continuation byte after the broken sequence at 0x0 (lead ED)
              3    1  ed                 surrogate: lead of an encoded UTF-16 surrogate; expected 80..9F after ed; surrogate pair U+D83D U+DE00 for U+1F600 written as two 3-byte sequences (CESU-8 style) (ed b8 80)
              4    1  b8                 unexpected_continuation: continuation byte after the broken sequence at 0x3 (lead ED)
              5    1  80                 unexpected_continuation: continuation byte after the broken sequence at 0x3 (lead ED)
cesu8         0    6  ed a0 bd ed b8 80  U+1F600 '😀' GRINNING FACE (So: other symbol)
mutf8    same as cesu8
wtf8          0    3  ed a0 bd           surrogate_pair: half of a surrogate pair that must be one 4-byte form; surrogate pair U+D83D U+DE00 for U+1F600 written as two 3-byte sequences (CESU-8 style) (ed a0 bd ed b8 80)
              3    3  ed b8 80           surrogate_pair: half of a surrogate pair that must be one 4-byte form; surrogate pair U+D83D U+DE00 for U+1F600 written as two 3-byte sequences (CESU-8 style)
legacy        0    3  ed a0 bd           U+D83D <surrogate-D83D> (Cs: surrogate)
              3    3  ed b8 80           U+DE00 <surrogate-DE00> (Cs: surrogate)

cesu8, mutf8: ed a0 bd ed b8 80 (the UTF-16 surrogate pair U+D83D U+DE00, each half as 3 bytes)
  U+D83D        1101 1000 0011 1101 (16 bits)
  split 4+6+6   1101 100000 111101
  lead          1110 1101    ed
  continuation    10 100000  a0
  continuation    10 111101  bd
  U+DE00        1101 1110 0000 0000 (16 bits)
  split 4+6+6   1101 111000 000000
  lead          1110 1101    ed
  continuation    10 111000  b8
  continuation    10 000000  80

legacy: ed a0 bd, ed b8 80: U+D83D, U+DE00, each a code point of its own (bits above)

utf8 errors read as windows-1252 (--fallback)
       0  ed        í (windows-1252)
       1  a0        \u{a0} (windows-1252)
       2  bd        ½ (windows-1252)
       3  ed        í (windows-1252)
       4  b8        ¸ (windows-1252)
       5  80        € (windows-1252)

valid in cesu8, mutf8, legacy; invalid in utf8, wtf8
"#;

const FIVE_BYTE: &str = r#"f8 88 80 80 80: 5 bytes

offset  hex  dec  oct    marker payload  role (utf8)
     0   f8  248  370    111110 00       never valid; legacy: lead of a 5-byte sequence, second byte 88..BF
     1   88  136  210        10 001000   continuation
     2   80  128  200        10 000000   continuation
     3   80  128  200        10 000000   continuation
     4   80  128  200        10 000000   continuation

dialect  offset  len  bytes           unit
utf8          0    1  f8              invalid_byte: byte that never occurs in this dialect; a 5-byte form from RFC 2279 (U+200000) (f8 88 80 80 80)
              1    1  88              unexpected_continuation: continuation byte after the broken sequence at 0x0 (lead F8)
              2    1  80              unexpected_continuation: continuation byte after the broken sequence at 0x0 (lead F8)
              3    1  80              unexpected_continuation: continuation byte after the broken sequence at 0x0 (lead F8)
              4    1  80              unexpected_continuation: continuation byte with no lead before it
cesu8    same as utf8
mutf8    same as utf8
wtf8     same as utf8
legacy        0    5  f8 88 80 80 80  U+200000 <not-unicode-200000> (above U+10FFFF: not a Unicode code point)

legacy: f8 88 80 80 80
  U+200000         00 0010 0000 0000 0000 0000 0000 (26 bits)
  split 2+6+6+6+6  00 001000 000000 000000 000000
  lead             111110 00      f8
  continuation         10 001000  88
  continuation         10 000000  80
  continuation         10 000000  80
  continuation         10 000000  80

utf8 errors read as windows-1252 (--fallback)
       0  f8        ø (windows-1252)
       1  88        ˆ (windows-1252)
       2  80        € (windows-1252)
       3  80        € (windows-1252)
       4  80        € (windows-1252)

valid in legacy; invalid in utf8, cesu8, mutf8, wtf8
"#;

const EURO: &str = r#"U+20AC '€' EURO SIGN (Sc: currency symbol)
block Currency Symbols   plane 0 Basic Multilingual Plane   width 1

utf8, cesu8, mutf8, wtf8, legacy: e2 82 ac
  U+20AC        0010 0000 1010 1100 (16 bits)
  split 4+6+6   0010 000010 101100
  lead          1110 0010    e2
  continuation    10 000010  82
  continuation    10 101100  ac

utf16: 20ac (UTF-16BE 20 ac, UTF-16LE ac 20)
"#;

const NUL: &str = r#"U+0000 <control-0000> NULL (Cc: control)
block Basic Latin   plane 0 Basic Multilingual Plane   width none

utf8, cesu8, wtf8, legacy: 00
  U+0000  000 0000 (7 bits)
  ASCII   0 0000000  00

mutf8: c0 80 (a 2-byte form on purpose, so that no 00 byte occurs)
  U+0000        000 0000 0000 (11 bits)
  split 5+6     00000 000000
  lead          110 00000   c0
  continuation   10 000000  80

utf16: 0000 (UTF-16BE 00 00, UTF-16LE 00 00)
"#;

const SURROGATE: &str = r#"U+D800 <surrogate-D800> (Cs: surrogate)
block High Surrogates   plane 0 Basic Multilingual Plane   width none

utf8, cesu8: not encodable: a surrogate code point is not a character on its own

mutf8, wtf8, legacy: ed a0 80
  U+D800        1101 1000 0000 0000 (16 bits)
  split 4+6+6   1101 100000 000000
  lead          1110 1101    ed
  continuation    10 100000  a0
  continuation    10 000000  80

utf16: d800 (UTF-16BE d8 00, UTF-16LE 00 d8)
  a lone surrogate: ill-formed UTF-16, as found in JavaScript strings and Windows file names
"#;

#[test]
fn a_valid_three_byte_sequence() {
    assert_eq!(explain(&["e2 82 ac"]), E282AC);
}

#[test]
fn an_overlong_slash() {
    assert_eq!(explain(&["c0 af"]), C0AF);
}

#[test]
fn a_cesu8_surrogate_pair_across_dialects() {
    assert_eq!(explain(&["ed a0 bd ed b8 80"]), CESU_PAIR);
}

/// The payload bits of a decoded character are joined into its code point, as `--char`
/// derives them.
#[test]
fn bytes_show_their_payload_bits_joined() {
    let text = explain(&["f0 9f 98 80"]);
    let block = "\
utf8, wtf8, legacy: f0 9f 98 80
  U+1F600        0 0001 1111 0110 0000 0000 (21 bits)
  split 3+6+6+6  000 011111 011000 000000
  lead           11110 000     f0
  continuation      10 011111  9f
  continuation      10 011000  98
  continuation      10 000000  80

valid in utf8, wtf8, legacy; invalid in cesu8, mutf8
";
    assert!(text.ends_with(block), "{text}");
    // Nothing to join in ASCII or in errors.
    assert!(!explain(&["41 c0"]).contains("split"));
}

#[test]
fn a_five_byte_rfc_2279_form() {
    assert_eq!(explain(&["f8 88 80 80 80"]), FIVE_BYTE);
}

#[test]
fn every_input_form_gives_the_same_answer() {
    let forms: [&[&str]; 9] = [
        &["e2 82 ac"],
        &["e2", "82", "ac"],
        &["e282ac"],
        &["E282AC"],
        &[r"\xe2\x82\xac"],
        &[r"\xE2\x82\xAC"],
        &["0xE2 0x82 0xAC"],
        &["0xe2", "0x82", "0xac"],
        &["e2,82,ac"],
    ];
    for args in forms {
        assert_eq!(explain(args), E282AC, "{args:?}");
    }
}

#[test]
fn the_euro_sign_bit_by_bit() {
    assert_eq!(explain(&["--char", "€"]), EURO);
    assert_eq!(explain(&["--char", "U+20AC"]), EURO);
    assert_eq!(explain(&["-c", "u+20ac"]), EURO);
}

#[test]
fn a_supplementary_character_and_its_utf16_pair() {
    let text = explain(&["--char", "U+1F600"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "U+1F600 '\u{1F600}' GRINNING FACE (So: other symbol)"
    );
    assert_eq!(
        lines[1],
        "block Emoticons   plane 1 Supplementary Multilingual Plane   width 2"
    );
    assert_eq!(lines[3], "utf8, wtf8, legacy: f0 9f 98 80");
    assert_eq!(lines[5], "  split 3+6+6+6  000 011111 011000 000000");
    assert_eq!(lines[6], "  lead           11110 000     f0");
    assert_eq!(lines[7], "  continuation      10 011111  9f");
    assert_eq!(
        lines[11],
        "cesu8, mutf8: ed a0 bd ed b8 80 (the UTF-16 surrogate pair U+D83D U+DE00, each half as 3 bytes)"
    );
    let utf16: Vec<&str> = lines[lines.len() - 5..].to_vec();
    assert_eq!(
        utf16,
        [
            "utf16: d83d de00 (UTF-16BE d8 3d de 00, UTF-16LE 3d d8 00 de)",
            "  U+1F600 - 0x10000  0xF600 = 0000 1111 0110 0000 0000 (20 bits)",
            "  split 10+10        0000111101 1000000000",
            "  lead surrogate     0xD800 + 0x03D = 0xD83D",
            "  trail surrogate    0xDC00 + 0x200 = 0xDE00",
        ]
    );
    assert_eq!(explain(&["--char", "\u{1F600}"]), text);
}

#[test]
fn nul_is_c0_80_in_modified_utf8() {
    assert_eq!(explain(&["--char", "U+0000"]), NUL);
}

#[test]
fn a_lone_surrogate_is_encodable_only_where_dialects_allow_it() {
    assert_eq!(explain(&["--char", "U+D800"]), SURROGATE);
}

#[test]
fn values_above_unicode() {
    let text = explain(&["--char", "U+110000"]);
    assert!(text.starts_with(
        "U+110000 <not-unicode-110000> (above U+10FFFF: not a Unicode code point)\n\
         block none   plane none   width none\n\n\
         utf8, cesu8, mutf8, wtf8: not encodable: above U+10FFFF: not a Unicode code point\n\n\
         legacy: f4 90 80 80\n"
    ));
    assert!(text.ends_with("\nutf16: not encodable: above U+10FFFF: not a Unicode code point\n"));
    let text = explain(&["--char", "U+7FFFFFFF"]);
    assert!(text.contains("\nlegacy: fd bf bf bf bf bf\n"), "{text}");
    assert!(text.contains("\n  split 1+6+6+6+6+6  1 111111 111111 111111 111111 111111\n"));
}

#[test]
fn unsafe_characters_are_named_not_printed() {
    for (arg, first_line) in [
        ("\u{202E}", "U+202E RIGHT-TO-LEFT OVERRIDE (Cf: format)"),
        ("\u{1B}", "U+001B <control-001B> ESCAPE (Cc: control)"),
        ("\u{200B}", "U+200B ZERO WIDTH SPACE (Cf: format)"),
        ("\u{2028}", "U+2028 LINE SEPARATOR (Zl: line separator)"),
        ("\u{E000}", "U+E000 <private-use-E000> (Co: private use)"),
        (
            "\u{301}",
            "U+0301 '\u{25CC}\u{301}' COMBINING ACUTE ACCENT (Mn: nonspacing mark)",
        ),
    ] {
        let text = explain(&["--char", arg]);
        assert_eq!(text.lines().next(), Some(first_line));
        let raw_allowed = arg == "\u{301}";
        assert_eq!(text.contains(arg), raw_allowed, "{first_line}");
    }
    // bytes that decode to a control character or a bidi override are named, never printed
    let text = explain(&["1b 5b 33 31 6d e2 80 ae"]);
    assert!(
        !text.contains('\u{1B}') && !text.contains('\u{202E}'),
        "{text}"
    );
    assert!(text.contains("U+202E RIGHT-TO-LEFT OVERRIDE (Cf: format)"));
}

#[test]
fn json_for_bytes() {
    let out = explain(&["--json", "c0 af"]);
    assert!(out.ends_with("}\n") && out.lines().count() == 1);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["bytes"], "c0af");
    let dialects: Vec<&str> = v["dialects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["dialect"].as_str().unwrap())
        .collect();
    assert_eq!(dialects, ["utf8", "cesu8", "mutf8", "wtf8", "legacy"]);
    assert_eq!(
        v["dialects"][2],
        json!({"dialect": "mutf8", "valid": false, "units": [
            {"offset": 0, "len": 1, "kind": "error", "error": "overlong", "expected": "80",
             "diagnosis": "overlong form of U+002F '/'", "fallback": "À"},
            {"offset": 1, "len": 1, "kind": "error", "error": "unexpected_continuation",
             "fallback": "¯"}
        ]})
    );
    let v: Value = serde_json::from_str(&explain(&["--json", "ed a0 bd ed b8 80"])).unwrap();
    assert_eq!(
        v["dialects"][1],
        json!({"dialect": "cesu8", "valid": true, "units": [
            {"offset": 0, "len": 6, "kind": "scalar", "cp": 0x1F600, "class": 6,
             "name": "GRINNING FACE", "alias": null, "category": "So", "width": 2,
             "plane": 1, "block": "Emoticons"}
        ]})
    );
}

#[test]
fn json_for_a_character() {
    let v: Value = serde_json::from_str(&explain(&["--json", "--char", "U+D800"])).unwrap();
    assert_eq!(
        v,
        json!({
            "cp": 0xD800,
            "name": "<surrogate-D800>",
            "alias": null,
            "category": "Cs",
            "width": null,
            "plane": 0,
            "block": "High Surrogates",
            "encodings": {"utf8": null, "cesu8": null, "mutf8": "eda080", "wtf8": "eda080",
                          "legacy": "eda080", "utf16": ["d800"]},
            "unencodable": {"utf8": "a surrogate code point is not a character on its own",
                            "cesu8": "a surrogate code point is not a character on its own"}
        })
    );
    let v: Value = serde_json::from_str(&explain(&["--json", "--char", "€"])).unwrap();
    assert_eq!(v["encodings"]["utf16"], json!(["20ac"]));
    assert_eq!(v["encodings"]["cesu8"], "e282ac");
    assert_eq!(v["unencodable"], json!({}));
}

#[test]
fn bad_bytes_are_one_line_errors() {
    let cases: [(&[&str], &str); 6] = [
        (
            &["e2 8"],
            "odd number of hex digits in '8' (write every byte as two digits: 0e, not e)",
        ),
        (
            &["e282a"],
            "odd number of hex digits in 'e282a' (write every byte as two digits: 0e, not e)",
        ),
        (&["e2", "zz"], "'z' in 'zz' is not a hex digit"),
        (
            &["xe2x82xac"],
            r"'x' in 'xe2x82xac' is not a hex digit; quote \x escapes so the shell keeps the backslash: '\xe2\x82\xac'",
        ),
        (&["0x"], "no hex digits after the prefix in '0x'"),
        (&[""], "no bytes given (write them in hex: e2 82 ac)"),
    ];
    for (args, cause) in cases {
        assert_eq!(
            explain_error(args),
            format!("hexrune: explain: {cause}\n"),
            "{args:?}"
        );
    }
    // a terminal escape in the argument is escaped in the message
    assert_eq!(
        explain_error(&["\u{1B}]0;x\u{7}"]),
        "hexrune: explain: '\\u{1b}' in '\\u{1b}]0;x\\u{7}' is not a hex digit\n"
    );
}

#[test]
fn bad_characters_are_one_line_errors() {
    let cases: [(&str, &str); 5] = [
        ("ab", "'ab' is 2 code points (U+0061 U+0062); give one character, or one code point as U+XXXX"),
        ("e\u{301}", "'e\u{301}' is 2 code points (U+0065 U+0301); give one character, or one code point as U+XXXX; or leave out --char to see the text's grapheme clusters and their code points"),
        ("U+XYZ", "'U+XYZ' is not a code point (U+ and 1 to 8 hex digits: U+20AC)"),
        ("U+80000000", "U+80000000 is above U+7FFFFFFF, the largest value any form of UTF-8 can write"),
        ("", "no character given (give one, or U+XXXX)"),
    ];
    for (arg, cause) in cases {
        assert_eq!(
            explain_error(&["--char", arg]),
            format!("hexrune: explain: {cause}\n"),
            "{arg:?}"
        );
    }
}

#[test]
fn usage_errors_name_the_explain_usage_line() {
    let stderr = explain_error::<&str>(&[]);
    assert_eq!(
        stderr,
        "error: the following required arguments were not provided:\n  <BYTES|--char <C>>\n\n\
         Usage: hexrune explain <BYTES|--char <C>>\n\nFor more information, try '--help'.\n"
    );
    let stderr = explain_error(&["e2", "--char", "x"]);
    assert!(
        stderr.starts_with("error: the argument '[BYTES]...' cannot be used with '--char <C>'\n")
    );
}

#[test]
fn long_inputs_are_counted_not_repeated_in_the_header() {
    let ascii32 = "41".repeat(32);
    let text = explain(&[&ascii32]);
    assert_eq!(
        text.lines().next(),
        Some(format!("{}: 32 bytes", ["41"; 32].join(" ")).as_str())
    );
    let text = explain(&[&"41".repeat(33)]);
    assert_eq!(text.lines().next(), Some("33 bytes"));
    assert_eq!(text.lines().filter(|l| l.ends_with("  ASCII")).count(), 33);
}

/// The escapes of a byte are recognised wherever they are among the bytes, and UTF-8's
/// error units are read in the fallback encoding, undefined bytes said as such.
#[test]
fn escaped_bytes_and_fallback_readings() {
    let text = explain(&["ed b3 a9 41 ee bf a9 ee be 80 81"]);
    let escapes = "\
escaped bytes
  ed b3 a9  at 0: U+DCE9 is how Python's surrogateescape writes the byte E9 (an error in utf8, a lone surrogate in wtf8)
  ee bf a9  at 4: U+EFE9 is how OPTU-8 writes the byte E9 (valid UTF-8, private use)
  ee be 80  at 7: U+EF80 is how OPTU-8 writes the byte 80 (valid UTF-8, private use)

utf8 errors read as windows-1252 (--fallback)
       0  ed        í (windows-1252)
       1  b3        ³ (windows-1252)
       2  a9        © (windows-1252)
      10  81        <81?> (81 undefined in windows-1252)

";
    assert!(text.contains(escapes), "{text}");
    // The edges of both ranges, and their neighbours that are not escapes.
    assert!(explain(&["ed b2 80"])
        .contains("U+DC80 is how Python's surrogateescape writes the byte 80"));
    assert!(explain(&["ed b3 bf"])
        .contains("U+DCFF is how Python's surrogateescape writes the byte FF"));
    assert!(explain(&["ee bf bf"]).contains("U+EFFF is how OPTU-8 writes the byte FF"));
    for not_an_escape in ["ed b1 bf", "ee bd bf", "ef 80 80", "ed b3"] {
        assert!(
            !explain(&[not_an_escape]).contains("escaped bytes"),
            "{not_an_escape}"
        );
    }
    // Another fallback, and none.
    let koi8 = explain(&["--fallback", "koi8-r", "e9"]);
    assert!(
        koi8.contains("utf8 errors read as KOI8-R (--fallback)\n       0  e9        И (KOI8-R)\n"),
        "{koi8}"
    );
    assert!(!explain(&["--fallback", "none", "e9"]).contains("--fallback"));
    // A hostile reading is sanitised: 9B is CSI in ISO-8859-2.
    let latin2 = explain(&["--fallback", "iso-8859-2", "9b"]);
    assert!(
        latin2.contains("       0  9b        \\u{9b} (ISO-8859-2)\n"),
        "{latin2}"
    );
    assert!(!latin2.contains('\u{9B}'));
}

const FLAG: &str = "8 bytes of UTF-8, 2 code points, 1 grapheme cluster

cluster 1 of 1: offsets 0..8, 8 bytes, 2 code points, width 2
  offset  bytes        joins by                           unit
       0  f0 9f 87 ab  (starts the cluster)               U+1F1EB '🇫' REGIONAL INDICATOR SYMBOL LETTER F (So: other symbol)
       4  f0 9f 87 b7  regional indicator pair (GB12/13)  U+1F1F7 '🇷' REGIONAL INDICATOR SYMBOL LETTER R (So: other symbol)

why they join (UAX #29)
  regional indicator pair (GB12/13): two regional indicators spell a country code: one flag

";

#[test]
fn text_is_broken_into_clusters() {
    assert_eq!(explain(&["🇫🇷"]), FLAG);
    // The same bytes in hex get the same section, after the bytes' own anatomy.
    let bytes = explain(&["f0 9f 87 ab f0 9f 87 b7"]);
    let section = FLAG.split_once("\n\n").unwrap().1;
    assert!(
        bytes.contains(&format!("grapheme clusters (utf8)\n\n{section}")),
        "{bytes}"
    );
    // One code point: no section.
    assert!(!explain(&["e2 82 ac"]).contains("grapheme clusters"));
}

#[test]
fn a_family_keycap_jamo_and_a_conjunct() {
    let out = explain(&["👨‍👩‍👧‍👦"]);
    assert!(out.starts_with("25 bytes of UTF-8, 7 code points, 1 grapheme cluster\n"));
    assert!(out.contains("cluster 1 of 1: offsets 0..25, 25 bytes, 7 code points, width 2\n"));
    assert!(out.contains(
        "       4  e2 80 8d     joiner (GB9)                       U+200D ZERO WIDTH JOINER (Cf: format)\n"
    ));
    assert!(out.contains(
        "      21  f0 9f 91 a6  emoji ZWJ sequence (GB11)          U+1F466 '👦' BOY (So: other symbol)\n"
    ));
    let out = explain(&["1\u{FE0F}\u{20E3}"]);
    assert!(
        out.contains("       1  ef b8 8f  variation selector (GB9)"),
        "{out}"
    );
    assert!(
        out.contains("       4  e2 83 a3  combining mark (GB9)"),
        "{out}"
    );
    // ᄒ ᅡ ᆫ: one syllable block, and a second cluster for the space and 가.
    let out = explain(&["\u{1112}\u{1161}\u{11AB} \u{AC00}"]);
    assert!(
        out.starts_with("13 bytes of UTF-8, 5 code points, 3 grapheme clusters\n"),
        "{out}"
    );
    assert_eq!(out.matches("Hangul L V T (GB6-8)").count(), 3, "{out}");
    // क्ष: a virama conjunct.
    let out = explain(&["\u{915}\u{94D}\u{937}"]);
    assert!(
        out.contains("       3  e0 a5 8d  combining mark (GB9)"),
        "{out}"
    );
    assert!(
        out.contains("       6  e0 a4 b7  virama conjunct (GB9c)"),
        "{out}"
    );
}

#[test]
fn an_error_unit_is_a_cluster_of_its_own() {
    // e, FF, COMBINING ACUTE ACCENT, e, COMBINING ACUTE ACCENT.
    let out = explain(&["65 ff cc 81 65 cc 81"]);
    let section = out.split_once("grapheme clusters (utf8)\n\n").unwrap().1;
    assert!(section.starts_with("cluster 1 of 4: offsets 0..1, 1 byte, 1 code point, width 1\n"));
    assert!(section.contains("cluster 2 of 4: offsets 1..2, 1 byte, 0 code points, width none\n"));
    assert!(section.contains("cluster 3 of 4: offsets 2..4, 2 bytes, 1 code point, width 0\n"));
    assert!(section.contains("cluster 4 of 4: offsets 4..7, 3 bytes, 2 code points, width 1\n"));
}

#[test]
fn unsafe_characters_in_a_cluster_are_named_not_printed() {
    // RIGHT-TO-LEFT OVERRIDE with a combining mark on it, and an escape.
    let out = explain(&["\u{202E}\u{301}\u{1B}x"]);
    assert!(
        !out.contains('\u{202E}') && !out.contains('\u{1B}'),
        "{out}"
    );
    assert!(
        out.contains("U+202E RIGHT-TO-LEFT OVERRIDE (Cf: format)"),
        "{out}"
    );
}

#[test]
fn json_for_clusters() {
    let v: Value = serde_json::from_str(&explain(&["--json", "1\u{FE0F}\u{20E3}é"])).unwrap();
    assert_eq!(v["bytes"], "31efb88fe283a3c3a9");
    let clusters = v["clusters"].as_array().unwrap();
    let shape: Vec<(u64, u64, u64)> = clusters
        .iter()
        .map(|c| {
            (
                c["offset"].as_u64().unwrap(),
                c["len"].as_u64().unwrap(),
                c["code_points"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(shape, [(0, 7, 3), (7, 2, 1)]);
    let joins: Vec<&Value> = clusters[0]["units"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| &u["joins"])
        .collect();
    assert_eq!(
        joins,
        [
            &Value::Null,
            &json!("variation_selector"),
            &json!("combining_mark")
        ]
    );
    assert_eq!(clusters[0]["width"], 2);
    assert_eq!(
        clusters[0]["units"][2]["name"],
        "COMBINING ENCLOSING KEYCAP"
    );
    // Bytes: the record has clusters only when code points join.
    let v: Value = serde_json::from_str(&explain(&["--json", "f0 9f 87 ab f0 9f 87 b7"])).unwrap();
    assert_eq!(v["clusters"][0]["len"], 8);
    assert_eq!(
        v["clusters"][0]["units"][1]["joins"],
        "regional_indicator_pair"
    );
    let v: Value = serde_json::from_str(&explain(&["--json", "e2 82 ac"])).unwrap();
    assert!(v.get("clusters").is_none());
}

/// Runs `hexrune explain` with raw (not UTF-8) arguments; expects exit 0 and no stderr.
fn explain_raw(args: &[&[u8]]) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    hexrune()
        .arg("explain")
        .args(args.iter().map(|a| std::ffi::OsStr::from_bytes(a)))
        .assert()
        .code(0)
        .stderr("")
        .get_output()
        .stdout
        .clone()
}

#[test]
fn an_argument_that_is_not_utf8_is_explained_as_its_bytes() {
    let cases: [(&[u8], &str); 5] = [
        (b"\xE9", "e9"),
        (b"\xC0\xAF", "c0 af"),
        (b"\xF0\x9F\x98", "f0 9f 98"),
        (b"\xED\xA0\xBD\xED\xB8\x80", "ed a0 bd ed b8 80"),
        // ASCII around an error: every byte, the ASCII ones too
        (b"caf\xE9!", "63 61 66 e9 21"),
    ];
    for (raw, hex) in cases {
        let got = explain_raw(&[raw]);
        assert_eq!(
            String::from_utf8(got).unwrap(),
            explain(&[hex]),
            "{raw:02X?}"
        );
        let got = explain_raw(&[b"--json", raw]);
        assert_eq!(
            String::from_utf8(got).unwrap(),
            explain(&["--json", hex]),
            "--json {raw:02X?}"
        );
    }
    // two arguments are joined by a space, as text arguments are
    let got = explain_raw(&[b"\xE9", b"\xE0"]);
    assert_eq!(String::from_utf8(got).unwrap(), explain(&["e9 20 e0"]));
    // the lone E9 exactly, its byte never printed as it is
    let got = String::from_utf8(explain_raw(&[b"\xE9"])).unwrap();
    assert!(got.starts_with("e9: 1 byte\n"), "{got}");
}

#[test]
fn a_character_that_is_not_utf8_is_a_one_line_error() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    assert_eq!(
        explain_error(&[OsStr::new("--char"), OsStr::from_bytes(b"\xE9")]),
        "hexrune: explain: the character given is not UTF-8 (bytes e9); to explain the bytes, \
         leave out --char: hexrune explain e9\n"
    );
}

/// A cluster longer than the viewer's context (a base and 1,000 combining marks) is read
/// whole: `explain` segments all its argument, so its counts are the cluster's.
#[test]
fn a_long_cluster_is_read_whole() {
    let text = format!("Z{}", "\u{301}".repeat(1000));
    let out = quiet_stdout(["explain", text.as_str()]);
    let heading: Vec<&str> = out.lines().filter(|l| l.starts_with("cluster ")).collect();
    assert_eq!(
        heading,
        ["cluster 1 of 1: offsets 0..2001, 2001 bytes, 1001 code points, width 1"]
    );
    let marks = out
        .lines()
        .filter(|l| l.contains("COMBINING ACUTE ACCENT"))
        .count();
    assert!(marks >= 1000, "{marks}");
}
