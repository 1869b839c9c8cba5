//! Files of Python's surrogateescape (PEP 383): bytes 80..FF that a string held as
//! U+DC80..U+DCFF, written with `surrogatepass` as `ED B2 80`..`ED B3 BF`. `detect` names
//! them where they are all, or most, of the UTF-8 errors, and gives the command that turns
//! them back into bytes (`repair --unescape pep383`); other surrogates (CESU-8's pairs, a
//! high one, a low one below U+DC80) get no such hint (alone, they are CESU-8 or WTF-8). The bytes are Python's own
//! (`'caf\udce9'.encode('utf-8', 'surrogatepass')`), built here where python3 is missing.

use hexrune::decode::Dialect;
use hexrune::detect::{detect, Detection};
use hexrune::scan::index::{Progress, Summary};

mod common;
use common::{python_bytes, NO_ARGS};

fn detection(bytes: &[u8]) -> Detection {
    let summary = Summary::build(Dialect::Utf8, bytes, 1, &Progress::new()).unwrap();
    detect(bytes, &summary)
}

/// `text` in UTF-8 with its surrogates written as 3-byte forms, as Python's `surrogatepass`
/// writes them (`text` holds each surrogate as a `\u{..}` escape of the test's, since a
/// Rust string cannot).
fn surrogatepass(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("\\u") {
        out.extend(&rest.as_bytes()[..i]);
        let cp = u32::from_str_radix(&rest[i + 2..i + 6], 16).unwrap();
        out.extend([
            0xE0 | (cp >> 12) as u8,
            0x80 | ((cp >> 6) & 0x3F) as u8,
            0x80 | (cp & 0x3F) as u8,
        ]);
        rest = &rest[i + 6..];
    }
    out.extend(rest.as_bytes());
    let script = "import sys; sys.stdout.buffer.write(sys.stdin.buffer.read().decode('unicode_escape').encode('utf-8', 'surrogatepass'))";
    if let Some(python) = text
        .is_ascii()
        .then(|| python_bytes(script, NO_ARGS, text.as_bytes()))
        .flatten()
    {
        assert_eq!(python, out, "{text}");
    }
    out
}

const HINT: &str = "turn them back into bytes with hexrune repair --unescape pep383 IN -o OUT";

#[test]
fn pep383_escapes_are_named_with_the_command_that_undoes_them() {
    for (text, len, headline, why) in [
        (
            "caf\\udce9 cr\\udce8me\n",
            15,
            "UTF-8 with 6 errors",
            vec![
                "UTF-8 with 6 errors among 0 multi-byte characters".to_string(),
                format!("its 6 UTF-8 errors are 2 PEP 383 escapes, bytes 80..FF that Python's surrogateescape wrote as U+DC80..U+DCFF (ED B3 A9 at 3 is the byte E9); {HINT}"),
            ],
        ),
        (
            "caf\\udce9 et le thé\n",
            18,
            "UTF-8 with 3 errors",
            vec![
                "UTF-8 with 3 errors among 1 multi-byte character".to_string(),
                "its 3 UTF-8 errors are 1 PEP 383 escape, a byte 80..FF that Python's surrogateescape wrote as U+DC80..U+DCFF (ED B3 A9 at 3 is the byte E9); turn it back into its byte with hexrune repair --unescape pep383 IN -o OUT".to_string(),
            ],
        ),
        (
            "name,city\nJos\\udce9,M\\udce1laga\nFran\\udce7ois,Orl\\udce9ans\n",
            47,
            "UTF-8 with 12 errors",
            vec![
                "UTF-8 with 12 errors among 0 multi-byte characters".to_string(),
                format!("its 12 UTF-8 errors are 4 PEP 383 escapes, bytes 80..FF that Python's surrogateescape wrote as U+DC80..U+DCFF (ED B3 A9 at 13 is the byte E9); {HINT}"),
            ],
        ),
    ] {
        let bytes = surrogatepass(text);
        assert_eq!(bytes.len(), len, "{text}");
        let d = detection(&bytes);
        assert_eq!(d.regions.len(), 1, "{text}");
        assert_eq!(
            (d.headline(), d.regions[0].end, d.evidence),
            (headline.to_string(), len, why),
            "{text}"
        );
    }
}

/// Most of the errors escapes, and a stray byte of windows-1252 (`EF`, ï) beside them: the
/// hint says how many of the errors the escapes are.
#[test]
fn pep383_escapes_that_are_most_of_the_errors_are_named() {
    let mut bytes = surrogatepass("caf\\udce9 cr\\udce8me br\\udcfbl\\udce9e, na");
    bytes.extend(b"\xEFve\n");
    assert_eq!(bytes.len(), 33);
    let d = detection(&bytes);
    assert_eq!(d.headline(), "UTF-8 with 13 errors");
    assert_eq!(
        d.evidence,
        [
            "UTF-8 with 13 errors among 0 multi-byte characters".to_string(),
            format!("12 of its 13 UTF-8 errors are 4 PEP 383 escapes, bytes 80..FF that Python's surrogateescape wrote as U+DC80..U+DCFF (ED B3 A9 at 3 is the byte E9); {HINT}"),
        ]
    );
}

/// Surrogates that are no PEP 383 escape: a high one (U+D800), a low one below U+DC80
/// (U+DC12), a pair of CESU-8 whose low half is in U+DC80..U+DCFF (U+10080 is D800 DC80),
/// and an escape among more errors of other kinds. No hint; a lone surrogate that is no
/// escape makes the input WTF-8 (a Windows file name, a JavaScript string cut in a pair).
#[test]
fn other_surrogates_get_no_pep383_hint() {
    for (text, evidence) in [
        (
            "lone \\ud800 high\n",
            "not valid UTF-8, but valid WTF-8: its UTF-8 errors are 1 lone surrogate; read it with --dialect wtf8",
        ),
        (
            "a \\udc12 low one\n",
            "not valid UTF-8, but valid WTF-8: its UTF-8 errors are 1 lone surrogate; read it with --dialect wtf8",
        ),
        (
            "pair \\ud800\\udc80 in CESU-8\n",
            "not valid UTF-8, but valid CESU-8 (Unicode TR #26): its UTF-8 errors are 1 surrogate pair in 3-byte forms (a character above U+FFFF); read it with --dialect cesu8",
        ),
    ] {
        let d = detection(&surrogatepass(text));
        assert_eq!(d.evidence, [evidence], "{text}");
    }
    // One escape (3 error units) and four stray bytes (4 more) in UTF-8 text: not most.
    let mut bytes = surrogatepass("caf\\udce9 ");
    bytes.extend("Grüße aus Köln, déjà vu, ça va".as_bytes());
    bytes.extend(b" \xE8 \xFB \xE9 \xEF\n");
    let d = detection(&bytes);
    assert_eq!(
        (d.headline(), d.evidence),
        (
            "UTF-8 with 7 errors".to_string(),
            vec!["UTF-8 with 7 errors among 6 multi-byte characters".to_string()]
        )
    );
}
