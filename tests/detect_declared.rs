//! What an input declares of its own encoding (an XML declaration, an HTML `<meta>`, a
//! Python or Emacs coding cookie, a CSS `@charset`): followed where the bytes are not
//! UTF-8 and decode in the declared encoding without a malformed sequence, and said to be
//! wrong where they do not (or are valid UTF-8 while it declares another encoding). The
//! bytes are made by Python's codecs (the oracle; encoding_rs's encoders where python3 is
//! missing), and what `repair --from auto` writes is checked against Python's decoding.
//! Each case was detected from its bytes alone before (`ISO-8859-2` for CPython's
//! `test.xml`, whose µ then became ľ).

use std::path::Path;

use hexrune::decode::Dialect;
use hexrune::detect::{detect, Detection};
use hexrune::scan::index::{Progress, Summary};

mod common;
use common::{python_decoded, python_encoded as encoded, repaired_auto as repaired};

fn detected(bytes: &[u8]) -> Detection {
    let summary = Summary::build(Dialect::Utf8, bytes, 1, &Progress::new()).unwrap();
    detect(bytes, &summary)
}

/// One case: the text, Python's codec and encoding_rs's label for its bytes, the encoding
/// detect names, and its evidence.
struct Case {
    text: &'static str,
    codec: &'static str,
    label: &'static str,
    named: &'static str,
    evidence: &'static [&'static str],
}

fn check(cases: &[Case]) {
    for c in cases {
        let bytes = encoded(c.text, c.codec, c.label);
        let d = detected(&bytes);
        let evidence: Vec<&str> = d.evidence.iter().map(String::as_str).collect();
        assert_eq!(
            (d.encoding, evidence.as_slice()),
            (c.named, c.evidence),
            "{}",
            c.text
        );
        assert_eq!(
            String::from_utf8(repaired(&bytes)).unwrap(),
            String::from_utf8(python_decoded(&bytes, c.codec, c.text)).unwrap(),
            "{}",
            c.text
        );
    }
}

/// CPython's own `test.xml` (Latin-1, `encoding="iso-8859-1"`, a µ in it) where that
/// Python is installed: it was `ISO-8859-2 (weak)`, and `repair --from auto` wrote `ľ`.
#[test]
fn cpythons_test_xml_is_read_as_it_declares() {
    let path = Path::new("/root/.pyenv/versions/3.11.7/lib/python3.11/test/xmltestdata/test.xml");
    let Ok(bytes) = std::fs::read(path) else {
        return;
    };
    let d = detected(&bytes);
    assert_eq!(d.encoding, "windows-1252");
    assert_eq!(
        d.evidence[..2],
        [
            "declared in the file: encoding=\"iso-8859-1\" at offset 30 (XML declaration)",
            "encoding_rs names iso-8859-1 windows-1252, as the web reads it (WHATWG)",
        ]
    );
    assert!(
        d.evidence[2].starts_with("windows-1252 decodes every byte"),
        "{:?}",
        d.evidence
    );
    let out = repaired(&bytes);
    assert_eq!(out, python_decoded(&bytes, "latin-1", ""));
    assert!(String::from_utf8(out).unwrap().contains('µ'));
}

#[test]
fn xml_declarations_are_followed() {
    check(&[
        Case {
            text: "<?xml version=\"1.0\" encoding=\"ISO-8859-15\"?>\n<recette>\n  <titre>Crème brûlée à l'orange</titre>\n  <prix>4,50 €</prix>\n</recette>\n",
            codec: "iso8859_15",
            label: "iso-8859-15",
            named: "ISO-8859-15",
            evidence: &[
                "declared in the file: encoding=\"ISO-8859-15\" at offset 30 (XML declaration)",
                "ISO-8859-15 decodes every byte (without the declaration: windows-1252)",
            ],
        },
        // Latin-1 declared, windows-1252 written (curly quotes, a dash): what the web
        // reads, and what encoding_rs gives the label.
        Case {
            text: "<?xml version='1.0' encoding='iso-8859-1'?>\n<p>L’été à Paris — c’est magnifique.</p>\n",
            codec: "cp1252",
            label: "windows-1252",
            named: "windows-1252",
            evidence: &[
                "declared in the file: encoding='iso-8859-1' at offset 30 (XML declaration)",
                "encoding_rs names iso-8859-1 windows-1252, as the web reads it (WHATWG)",
                "3 bytes 80..9F, C1 controls in ISO-8859-1 proper, are read as windows-1252's signs and letters",
                "windows-1252 decodes every byte",
            ],
        },
    ]);
}

#[test]
fn html_meta_charsets_are_followed() {
    check(&[
        Case {
            text: "<!DOCTYPE html>\n<html><head><meta charset=\"windows-1251\"><title>Новости</title></head>\n<body><p>Сегодня в Москве солнечно.</p></body></html>\n",
            codec: "cp1251",
            label: "windows-1251",
            named: "windows-1251",
            evidence: &[
                "declared in the file: charset=\"windows-1251\" at offset 43 (HTML meta)",
                "windows-1251 decodes every byte",
            ],
        },
        Case {
            text: "<html><head>\n<meta http-equiv=\"Content-Type\" content=\"text/html; charset=Shift_JIS\">\n</head><body><p>駅までの道を教えてください。</p></body></html>\n",
            codec: "shift_jis",
            label: "shift_jis",
            named: "Shift_JIS",
            evidence: &[
                "declared in the file: charset=Shift_JIS at offset 73 (HTML meta)",
                "Shift_JIS decodes every byte",
            ],
        },
    ]);
}

#[test]
fn coding_cookies_and_css_charsets_are_followed() {
    check(&[
        // Python's spelling, latin-1, is no label of the web's: read as latin1.
        Case {
            text: "#!/usr/bin/env python3\n# -*- coding: latin-1 -*-\n\"\"\"Grüße aus Köln.\"\"\"\nprint(\"Schöne Grüße\")\n",
            codec: "latin-1",
            label: "windows-1252",
            named: "windows-1252",
            evidence: &[
                "declared in the file: coding: latin-1 at offset 37 (coding cookie, PEP 263)",
                "encoding_rs names latin-1 windows-1252, as the web reads it (WHATWG)",
                "windows-1252 decodes every byte",
            ],
        },
        // An Emacs cookie in Lisp.
        Case {
            text: ";; -*- mode: lisp; coding: koi8-r -*-\n(message \"Привет, мир! Как дела?\")\n",
            codec: "koi8_r",
            label: "koi8-r",
            named: "KOI8-R",
            evidence: &[
                "declared in the file: coding: koi8-r at offset 27 (coding cookie, PEP 263)",
                "KOI8-R decodes every byte (without the declaration: KOI8-U)",
            ],
        },
        Case {
            text: "@charset \"iso-8859-15\";\n.prix::after { content: \"€ 5\"; }\n/* Créé à Paris, été 2024 */\n",
            codec: "iso8859_15",
            label: "iso-8859-15",
            named: "ISO-8859-15",
            evidence: &[
                "declared in the file: @charset \"iso-8859-15\" at offset 10 (CSS @charset)",
                "ISO-8859-15 decodes every byte (without the declaration: windows-1252)",
            ],
        },
    ]);
}

/// A wrong declaration is said to be so, and detection goes on from the bytes alone:
/// valid UTF-8 that declares Latin-1 (the common bug) stays UTF-8; windows-1252 that
/// declares UTF-8, or EUC-KR that declares Shift_JIS, have bytes malformed in it; UTF-16
/// declared in ASCII bytes is ignored, as browsers do; an unknown label is not followed.
#[test]
fn wrong_declarations_are_said_and_not_followed() {
    check(&[
        Case {
            text: "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<dessert>Crème brûlée, s’il vous plaît</dessert>\n",
            codec: "utf-8",
            label: "utf-8",
            named: "UTF-8",
            evidence: &[
                "valid UTF-8: 5 multi-byte characters, no errors",
                "declared in the file: encoding=\"ISO-8859-1\" at offset 30 (XML declaration), but the bytes are valid UTF-8: the declaration is wrong (a UTF-8 file that declares ISO-8859-1 is a common bug)",
            ],
        },
        Case {
            text: "<meta charset=\"utf-8\">\n<p>Le café est très bon, à bientôt chez Noël.</p>\n",
            codec: "cp1252",
            label: "windows-1252",
            named: "windows-1252",
            evidence: &[
                "5 UTF-8 errors and few multi-byte characters; chardetng reads it as windows-1252; a weak guess on 5 non-ASCII bytes",
                "declared in the file: charset=\"utf-8\" at offset 15 (HTML meta), but 5 sequences are malformed in UTF-8, the first at offset 32: not followed",
            ],
        },
        Case {
            text: "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=Shift_JIS\"></head>\n<body><p>안녕하세요. 오늘은 날씨가 정말 좋네요.</p></body></html>\n",
            codec: "euc_kr",
            label: "euc-kr",
            named: "EUC-KR",
            evidence: &[
                "26 UTF-8 errors and few multi-byte characters; chardetng reads it as EUC-KR",
                "declared in the file: charset=Shift_JIS at offset 72 (HTML meta), but 2 sequences are malformed in Shift_JIS, the first at offset 109: not followed",
            ],
        },
        Case {
            text: "<meta charset=\"utf-16\">\n<p>Der Bäcker öffnet um sieben Uhr, die Brötchen sind frisch.</p>\n",
            codec: "cp1252",
            label: "windows-1252",
            named: "windows-1252",
            evidence: &[
                "3 UTF-8 errors and few multi-byte characters; chardetng reads it as windows-1252; a weak guess on 3 non-ASCII bytes",
                "declared in the file: charset=\"utf-16\" at offset 15 (HTML meta), but the declaration itself is ASCII bytes, which UTF-16LE is not (browsers ignore such a label): not followed",
            ],
        },
        Case {
            text: "# coding: klingon\nprint(\"Ελληνικά γράμματα στην οθόνη\")\n",
            codec: "cp1253",
            label: "windows-1253",
            named: "windows-1253",
            evidence: &[
                "25 UTF-8 errors and few multi-byte characters; chardetng reads it as windows-1253",
                "declared in the file: coding: klingon at offset 10 (coding cookie, PEP 263), a label encoding_rs does not know: not followed",
            ],
        },
    ]);
}

/// An ASCII input that declares an encoding reads the same in it; one that declares
/// UTF-8 agrees. Both stay what they are.
#[test]
fn ascii_and_utf8_inputs_keep_their_verdict() {
    let d = detected(b"<?xml version=\"1.0\" encoding=\"iso-8859-1\"?>\n<a>plain</a>\n");
    assert_eq!(
        (d.headline(), d.evidence),
        (
            "ASCII (also valid UTF-8)".to_string(),
            vec![
                "every byte is ASCII".to_string(),
                "declared in the file: encoding=\"iso-8859-1\" at offset 30 (XML declaration); every byte is ASCII, which windows-1252 reads the same".to_string(),
            ]
        )
    );
    let d = detected("# -*- coding: utf-8 -*-\nprint(\"naïve café\")\n".as_bytes());
    assert_eq!(
        (d.encoding, d.evidence),
        (
            "UTF-8",
            vec![
                "valid UTF-8: 2 multi-byte characters, no errors".to_string(),
                "declared in the file: coding: utf-8 at offset 14 (coding cookie, PEP 263), which the bytes agree with".to_string(),
            ]
        )
    );
}

/// Valid UTF-8 lines with Latin-1 ones appended, under a declaration of Latin-1: the UTF-8
/// region is kept (a decoding of the whole as windows-1252 would garble its `✓`), and the
/// evidence says why the declaration is not followed.
#[test]
fn a_declaration_does_not_override_a_utf8_region() {
    let bytes = [
        "<?xml version=\"1.0\" encoding=\"iso-8859-1\"?>\n<log>\n<e>09:00 start ✓</e>\n"
            .as_bytes()
            .to_vec(),
        encoded(
            "<e>09:02 échec, réessayer</e>\n<e>09:03 arrêt</e>\n</log>\n",
            "latin-1",
            "windows-1252",
        ),
    ]
    .concat();
    let d = detected(&bytes);
    let regions: Vec<_> = d
        .regions
        .iter()
        .map(|r| (r.start, r.end, r.encoding))
        .collect();
    assert_eq!(regions, [(0, 73, "UTF-8"), (73, 129, "windows-1252")]);
    assert_eq!(
        d.evidence,
        [
            "mixed: 2 regions in 2 encodings; 3 UTF-8 errors, all in the windows-1252 region",
            "declared in the file: encoding=\"iso-8859-1\" at offset 30 (XML declaration), but 1 multi-byte character is valid UTF-8, against 3 errors: not followed",
        ]
    );
}

/// A declaration is printed in the evidence as the file writes it, so only one of printable
/// ASCII is read: a label with a bidi override in it (or any byte past ASCII, or a control)
/// is no declaration, and never reaches the terminal.
#[test]
fn a_label_that_is_not_printable_ascii_is_no_declaration() {
    for label in [
        "\u{202E}iso-8859-1",
        "iso-8859-1\u{1B}[31m",
        "iso\u{7F}-8859-1",
    ] {
        let mut bytes = format!("<?xml version=\"1.0\" encoding=\"{label}\"?>\n<a>").into_bytes();
        bytes.extend_from_slice(b"caf\xE9 na\xEFve \xB5</a>\n");
        let d = detected(&bytes);
        assert!(
            d.evidence
                .iter()
                .all(|e| !e.contains("declared") && e.is_ascii()),
            "{label:?}: {:?}",
            d.evidence
        );
    }
    // A label longer than any encoding's is none either.
    let long = "x".repeat(41);
    let bytes = format!("<?xml version=\"1.0\" encoding=\"{long}\"?>\n<a>caf\u{E9}</a>\n");
    let d = detected(bytes.as_bytes());
    assert!(
        d.evidence.iter().all(|e| !e.contains("declared")),
        "{:?}",
        d.evidence
    );
}

/// A UTF-8 byte order mark before `encoding="utf-16"` (a .resx file) was "UTF-8, BOM
/// UTF-8" with no word of the declaration, which without the mark is reported: the mark
/// wins, and the evidence says that the declaration contradicts it.
#[test]
fn a_declaration_that_contradicts_a_utf8_bom_is_reported() {
    let bytes = "\u{feff}<?xml version=\"1.0\" encoding=\"utf-16\"?>\r\n<root>Grüß</root>\r\n";
    let dir = tempfile::tempdir().unwrap();
    let f = common::file_with(dir.path(), "in", bytes.as_bytes());
    assert_eq!(
        common::stdout_of(["detect", &f], 0).replace(&f, "in"),
        "in: UTF-8, BOM UTF-8 (EF BB BF)\n  why: starts with the UTF-8 signature EF BB BF; valid \
         UTF-8: 3 multi-byte characters, no errors; declared in the file: encoding=\"utf-16\" at \
         offset 33 (XML declaration), which contradicts the UTF-8 byte order mark: the mark wins \
         and the bytes are read as UTF-8 (XML 1.0, 4.3.3 and Appendix F), but the declaration is \
         wrong: .NET's XmlReader refuses it (\"There is no Unicode byte order mark. Cannot switch \
         to Unicode\")\n"
    );
    // A declaration of UTF-8 after the mark agrees: nothing to say.
    let agrees = "\u{feff}<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<a>é</a>\n";
    let f = common::file_with(dir.path(), "ok", agrees.as_bytes());
    assert!(!common::stdout_of(["detect", &f], 0).contains("declared"));
}
