//! `hexrune detect` as a user runs it: the verdict for inputs made by the encodings' own
//! encoders (encoding_rs), signatures, regions, U+FEFF inside, mojibake, exit codes.

use std::path::Path;

use hexrune::decode::Dialect;
use serde_json::{json, Value};

mod common;
mod support;
use common::{file_with, python_bytes, run, stdout_of, stdout_with_stdin, NO_ARGS};
use support::wide;

/// The `detect --json` object of `bytes`, without its path.
fn detect_json(bytes: &[u8]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "in", bytes);
    let text = stdout_of(["detect", "--json", &f], 0);
    assert_eq!(text.lines().count(), 1, "{text}");
    let mut v: Value = serde_json::from_str(text.trim_end()).unwrap();
    assert_eq!(v["path"], json!(f));
    v.as_object_mut().unwrap().remove("path");
    v
}

fn corpus(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/corpus")
        .join(format!("{name}.txt"));
    std::fs::read_to_string(path).unwrap()
}

fn encode(label: &str, text: &str) -> Vec<u8> {
    let e = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
    let (bytes, _, unmappable) = e.encode(text);
    assert!(!unmappable, "{label}");
    bytes.into_owned()
}

#[test]
fn human_output_of_clean_and_ascii_files() {
    let dir = tempfile::tempdir().unwrap();
    let a = file_with(dir.path(), "a.txt", b"plain\n");
    let u = file_with(dir.path(), "u.txt", "Grüße, 世界 😀\n".as_bytes());
    assert_eq!(
        stdout_of(["detect", &a, &u], 0),
        format!(
            "{a}: ASCII (also valid UTF-8)\n  why: every byte is ASCII\n\
             {u}: UTF-8\n  why: valid UTF-8: 5 multi-byte characters, no errors\n"
        )
    );
}

#[test]
fn json_of_a_clean_file() {
    assert_eq!(
        detect_json("é\n".as_bytes()),
        json!({"encoding":"UTF-8","bom":null,"errors":0,
               "regions":[{"start":0,"end":3,"encoding":"UTF-8"}],"mojibake":[],
               "ascii":false,"inner_boms":[],
               "evidence":["valid UTF-8: 1 multi-byte character, no errors"]})
    );
}

#[test]
fn every_clean_corpus_file_is_utf8_without_mojibake() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for path in names {
        let v = detect_json(&std::fs::read(&path).unwrap());
        assert_eq!(v["encoding"], "UTF-8", "{path:?}");
        assert_eq!(v["errors"], 0, "{path:?}");
        assert_eq!(v["mojibake"], json!([]), "{path:?}");
        assert_eq!(v["regions"].as_array().unwrap().len(), 1, "{path:?}");
    }
}

#[test]
fn legacy_encodings_made_by_encoding_rs_are_named() {
    let cases = [
        ("windows-1252", "fr"),
        ("windows-1252", "de"),
        ("windows-1250", "cs"),
        ("windows-1251", "ru"),
        ("windows-1253", "el"),
        ("Shift_JIS", "ja"),
        ("EUC-KR", "ko"),
        ("GBK", "zh"),
        ("ISO-2022-JP", "ja"),
    ];
    for (label, lang) in cases {
        let bytes = encode(label, &corpus(lang));
        let v = detect_json(&bytes);
        assert_eq!(v["encoding"], label, "{lang}: {v}");
        assert_eq!(v["errors"], 0, "{lang}");
        assert_eq!(
            v["regions"],
            json!([{"start":0,"end":bytes.len(),"encoding":label}]),
            "{lang}"
        );
    }
}

#[test]
fn signatures_are_read_longest_first() {
    let text = "Grüße\n";
    let cases: Vec<(Vec<u8>, &str, &str)> = vec![
        (
            [&b"\xEF\xBB\xBF"[..], text.as_bytes()].concat(),
            "UTF-8",
            "UTF-8",
        ),
        (
            [&b"\xFF\xFE"[..], &wide::text(Dialect::Utf16Le, text)].concat(),
            "UTF-16LE",
            "UTF-16LE",
        ),
        (
            [&b"\xFE\xFF"[..], &wide::text(Dialect::Utf16Be, text)].concat(),
            "UTF-16BE",
            "UTF-16BE",
        ),
        (
            [
                &b"\xFF\xFE\x00\x00"[..],
                &wide::text(Dialect::Utf32Le, text),
            ]
            .concat(),
            "UTF-32LE",
            "UTF-32LE",
        ),
        (
            [
                &b"\x00\x00\xFE\xFF"[..],
                &wide::text(Dialect::Utf32Be, text),
            ]
            .concat(),
            "UTF-32BE",
            "UTF-32BE",
        ),
        (b"+/v8-Hi\n".to_vec(), "UTF-7", "UTF-7"),
        (
            [&b"\x84\x31\x95\x33"[..], &encode("gb18030", "中文\n")].concat(),
            "gb18030",
            "gb18030",
        ),
    ];
    for (bytes, encoding, bom) in cases {
        let v = detect_json(&bytes);
        assert_eq!(
            (v["encoding"].as_str(), v["bom"].as_str()),
            (Some(encoding), Some(bom)),
            "{v}"
        );
        assert_eq!(v["errors"], 0, "{v}");
    }
}

#[test]
fn utf16_without_a_bom_by_its_zero_bytes() {
    let text = corpus("fr");
    assert_eq!(
        detect_json(&wide::text(Dialect::Utf16Le, &text))["encoding"],
        "UTF-16LE"
    );
    assert_eq!(
        detect_json(&wide::text(Dialect::Utf16Be, &text))["encoding"],
        "UTF-16BE"
    );
    // An unpaired surrogate is an error of the reading.
    let mut bytes = wide::text(Dialect::Utf16Le, "ab");
    bytes.extend([0x00, 0xD8]);
    bytes.extend(wide::text(
        Dialect::Utf16Le,
        " and some more text to judge on",
    ));
    let v = detect_json(&bytes);
    assert_eq!(
        (v["encoding"].as_str(), v["errors"].as_u64()),
        (Some("UTF-16LE"), Some(1))
    );
}

#[test]
fn a_utf8_log_with_a_windows_1252_part_appended() {
    let head = "2024-05-01 démarrage ✓\n".repeat(3);
    let tail = encode(
        "windows-1252",
        &"2024-05-02 échec, réessayer à 10 h\n".repeat(3),
    );
    let bytes = [head.as_bytes(), &tail].concat();
    let v = detect_json(&bytes);
    let cut = head.len();
    assert_eq!(v["encoding"], "UTF-8");
    // The 9 UTF-8 errors are the region's letters (é, à), not damage to the UTF-8: they
    // are counted in the evidence, apart.
    assert_eq!(v["errors"], 0);
    assert_eq!(
        v["regions"],
        json!([{"start":0,"end":cut,"encoding":"UTF-8"},{"start":cut,"end":bytes.len(),"encoding":"windows-1252"}])
    );
    assert_eq!(
        v["evidence"],
        json!(["mixed: 2 regions in 2 encodings; 9 UTF-8 errors, all in the windows-1252 region"])
    );
}

#[test]
fn a_utf16_block_inside_utf8() {
    let head = "Première partie, en UTF-8 — ok.\n";
    let block = wide::text(
        Dialect::Utf16Le,
        "This part was pasted from a UTF-16 file.\n",
    );
    let tail = "Dernière partie, encore en UTF-8 — fin.\n";
    let bytes = [head.as_bytes(), &block, tail.as_bytes()].concat();
    let v = detect_json(&bytes);
    let (a, b) = (head.len(), head.len() + block.len());
    assert_eq!(
        v["regions"],
        json!([
            {"start":0,"end":a,"encoding":"UTF-8"},
            {"start":a,"end":b,"encoding":"UTF-16LE"},
            {"start":b,"end":bytes.len(),"encoding":"UTF-8"}
        ]),
        "{v}"
    );
    // Said to be mixed, as any other mix is (it was "valid UTF-8: 6 multi-byte characters,
    // no errors").
    assert_eq!(v["evidence"], json!(["mixed: 3 regions in 2 encodings"]));
}

/// The bytes of a UTF-16 region are not errors of the UTF-8 around it: the headline and
/// `errors` count only the UTF-8 errors outside the regions named as another encoding
/// (the 21 error units Python's decoder finds in the block were `UTF-8 with 21 errors, 3
/// regions`), and the evidence says where the others are.
#[test]
fn the_bytes_of_a_utf16_region_are_not_counted_as_utf8_errors() {
    let head = "Report in UTF-8: naïve café ✓\n".repeat(2);
    let block = wide::text(
        Dialect::Utf16Le,
        "Καλημέρα κόσμε, πώς είσαι;\nПривет, мир! Как дела?\n",
    );
    let (a, b) = (head.len(), head.len() + block.len());
    assert_eq!((a, b), (68, 168));
    let clean = [
        head.as_bytes(),
        &block,
        "End of the report, UTF-8 again ✓\n".as_bytes(),
    ]
    .concat();
    assert_eq!(
        detect_human(&clean),
        "<stdin>: UTF-8, 3 regions\n  region 0..68 (0x0..0x44): UTF-8\n  region 68..168 \
         (0x44..0xa8): UTF-16LE\n  region 168..203 (0xa8..0xcb): UTF-8\n  why: mixed: 3 regions \
         in 2 encodings; 21 UTF-8 errors, all in the UTF-16LE region\n"
    );
    let v = detect_json(&clean);
    assert_eq!((&v["encoding"], &v["errors"]), (&json!("UTF-8"), &json!(0)));
    // One real error (FF) in the UTF-8 after the region: that one is counted.
    let damaged = [
        head.as_bytes(),
        &block,
        b"End \xFF of the report, UTF-8 again \xE2\x9C\x93\n",
    ]
    .concat();
    let v = detect_json(&damaged);
    assert_eq!(v["errors"], 1);
    assert_eq!(
        v["regions"],
        json!([
            {"start":0,"end":68,"encoding":"UTF-8"},
            {"start":68,"end":168,"encoding":"UTF-16LE"},
            {"start":168,"end":205,"encoding":"UTF-8"}
        ])
    );
    assert_eq!(
        v["evidence"],
        json!(["mixed: 3 regions in 2 encodings; 22 UTF-8 errors, 1 of them in UTF-8 and 21 in the UTF-16LE region"])
    );
    assert!(detect_human(&damaged).starts_with("<stdin>: UTF-8 with 1 error, 3 regions\n"));
    // The oracle for the count: Python's decoder gives one U+FFFD per maximal subpart.
    let python = python_bytes(
        "import sys; d = sys.stdin.buffer.read(); print(d[68:168].decode('utf-8', 'replace').count('\\ufffd'))",
        NO_ARGS,
        &damaged,
    );
    if let Some(out) = python {
        assert_eq!(out, b"21\n");
    }
}

/// A UTF-16 block between lines of plain ASCII (a Windows tool's output appended to an
/// ASCII log): UTF-8 with a region of UTF-16 at the block's exact offsets, in both byte
/// orders. It was `binary` (`56 of 300 sampled bytes are controls no text encoding
/// explains`): the ASCII lines joined the wide region, whose reading they spoiled.
#[test]
fn a_utf16_block_between_ascii_lines_is_a_region_not_binary() {
    let ascii = "This is an English log line number one.\nAnother line of plain ASCII text here.\n";
    let text = "Καλημέρα κόσμε, αυτή είναι μια γραμμή.\nПривет, мир! Это строка текста.\n";
    for (dialect, name) in [
        (Dialect::Utf16Le, "UTF-16LE"),
        (Dialect::Utf16Be, "UTF-16BE"),
    ] {
        let block = wide::text(dialect, text);
        let bytes = [ascii.as_bytes(), &block, ascii.as_bytes()].concat();
        assert_eq!((ascii.len(), block.len(), bytes.len()), (79, 142, 300));
        assert_eq!(
            detect_human(&bytes),
            format!(
                "<stdin>: UTF-8, 3 regions\n  region 0..79 (0x0..0x4f): UTF-8\n  region 79..221 \
                 (0x4f..0xdd): {name}\n  region 221..300 (0xdd..0x12c): UTF-8\n  why: mixed: 3 \
                 regions in 2 encodings; 31 UTF-8 errors, all in the {name} region\n"
            )
        );
        let v = detect_json(&bytes);
        assert_eq!(
            (&v["encoding"], &v["errors"], &v["ascii"]),
            (&json!("UTF-8"), &json!(0), &json!(false))
        );
        assert_eq!(
            v["regions"],
            json!([
                {"start":0,"end":79,"encoding":"UTF-8"},
                {"start":79,"end":221,"encoding":name},
                {"start":221,"end":300,"encoding":"UTF-8"}
            ])
        );
        // The oracle for the count: Python's decoder gives one U+FFFD per maximal subpart.
        let python = python_bytes(
            "import sys; d = sys.stdin.buffer.read(); print(d.decode('utf-8', 'replace').count('\\ufffd'))",
            NO_ARGS,
            &bytes,
        );
        if let Some(out) = python {
            assert_eq!(out, b"31\n", "{name}");
        }
        // The block alone is UTF-16, not UTF-8 with a region.
        let v = detect_json(&block);
        assert_eq!(
            (&v["encoding"], &v["regions"]),
            (
                &json!(name),
                &json!([{"start":0,"end":142,"encoding":name}])
            ),
            "{name}"
        );
    }
}

/// ASCII lines beside a UTF-16 block, however short, are not the block's: a build log's
/// two lines and a last one of 14 bytes, UTF-8 lines before a Russian block with an empty
/// line after it, and a 15-byte header and a 12-byte footer around one. The region is the
/// block's bytes exactly, whole code units, in both byte orders. The short lines joined the
/// region (`42..256`, `66..187`, an odd length), and the header shifted every unit after it
/// (`binary` in UTF-16LE, the whole input `UTF-16LE` in UTF-16BE); the input of ASCII bytes
/// with a UTF-16 region was headed `ASCII (also valid UTF-8)`.
#[test]
fn short_ascii_lines_beside_a_utf16_block_are_not_part_of_its_region() {
    let build = "Microsoft (R) Build Engine version 16.0\r\nCopyright (C) Microsoft Corporation. All rights reserved.\r\n";
    let tool = "Windows tool output: Успешно завершено.\r\nStatus: OK — café\r\n";
    let russian = "Привет, мир! Это строка текста.\r\nЕщё одна строка.\r\n";
    let inputs = [
        (
            "[build] step 1 ok\r\n[build] running tools\r\n",
            build,
            "[build] done\r\n",
            (42, 242, 256),
            "",
        ),
        (
            "2024-05-01 10:00 démarrage du service ✓\n2024-05-01 10:01 prêt\n",
            tool,
            "\nafter block: fin ✓\n",
            (66, 186, 208),
            "; 1 UTF-8 error, all in the {name} region",
        ),
        (
            "=== output ===\n",
            russian,
            "=== end ===\n",
            (15, 117, 129),
            "",
        ),
    ];
    for (dialect, name) in [
        (Dialect::Utf16Le, "UTF-16LE"),
        (Dialect::Utf16Be, "UTF-16BE"),
    ] {
        for (before, text, after, (a, b, n), errors) in inputs {
            let bytes = [
                before.as_bytes(),
                &wide::text(dialect, text),
                after.as_bytes(),
            ]
            .concat();
            assert_eq!(
                (before.len(), bytes.len() - after.len(), bytes.len()),
                (a, b, n)
            );
            let errors = errors.replace("{name}", name);
            assert_eq!(
                detect_human(&bytes),
                format!(
                    "<stdin>: UTF-8, 3 regions\n  region 0..{a} (0x0..{a:#x}): UTF-8\n  region \
                     {a}..{b} ({a:#x}..{b:#x}): {name}\n  region {b}..{n} ({b:#x}..{n:#x}): \
                     UTF-8\n  why: mixed: 3 regions in 2 encodings{errors}\n"
                ),
                "{name} {before:?}"
            );
            let v = detect_json(&bytes);
            assert_eq!(
                (&v["encoding"], &v["errors"], &v["ascii"]),
                (&json!("UTF-8"), &json!(0), &json!(false)),
                "{name} {before:?}"
            );
        }
    }
}

#[test]
fn a_byte_order_mark_inside_marks_joined_files() {
    let bytes = b"\xEF\xBB\xBFfirst file\n\xEF\xBB\xBFsecond file\n";
    let v = detect_json(bytes);
    assert_eq!(v["bom"], "UTF-8");
    assert_eq!(v["inner_boms"], json!([14]));
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "joined.txt", bytes);
    let text = stdout_of(["detect", &f], 0);
    assert!(text.starts_with(&format!(
        "{f}: UTF-8, BOM UTF-8 (EF BB BF), U+FEFF inside ×1\n  U+FEFF at 14 (0xe): a byte order mark inside (files joined?)\n"
    )), "{text}");
}

#[test]
fn mojibake_regions_with_chain_and_text() {
    let text = "Prix : 12 â‚¬, dÃ©jÃ\u{A0} payÃ©.\nDouble : cafÃƒÂ©.\n";
    let v = detect_json(text.as_bytes());
    assert_eq!(
        v["mojibake"],
        json!([
            {"start":10,"end":37,"chain":["windows-1252"],"text":"€, déjà payé"},
            {"start":51,"end":59,"chain":["windows-1252","windows-1252"],"text":"é"}
        ]),
        "{v}"
    );
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "m.txt", text.as_bytes());
    assert_eq!(
        stdout_of(["detect", &f], 0),
        format!(
            "{f}: UTF-8, 2 mojibake regions\n  mojibake 10..37 (0xa..0x25): windows-1252 -> \"€, déjà payé\"\n  \
             mojibake 51..59 (0x33..0x3b): windows-1252, then windows-1252 -> \"é\"\n  \
             why: valid UTF-8: 13 multi-byte characters, no errors; 2 regions of UTF-8 read as a legacy encoding (mojibake)\n"
        )
    );
}

#[test]
fn binary_and_stdin() {
    let bytes: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
    assert_eq!(detect_json(&bytes)["encoding"], "binary");
    assert_eq!(
        stdout_with_stdin(["detect", "-"], "naïve\n", 0),
        "<stdin>: UTF-8\n  why: valid UTF-8: 1 multi-byte character, no errors\n"
    );
}

#[test]
fn an_unreadable_input_is_reported_and_the_others_still_detected() {
    let dir = tempfile::tempdir().unwrap();
    let ok = file_with(dir.path(), "ok.txt", b"ok\n");
    let missing = dir.path().join("missing.txt");
    let missing = missing.to_str().unwrap();
    let output = run(["detect", "--json", missing, &ok], 2);
    assert_eq!(
        String::from_utf8(output.stderr.clone()).unwrap(),
        format!("hexrune: {missing}: no such file or directory\n")
    );
    let lines: Vec<Value> = String::from_utf8(output.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines[0],
        json!({"type":"io_error","path":missing,"message":"no such file or directory"})
    );
    assert_eq!(lines[1]["encoding"], "UTF-8");
}

#[test]
fn utf8_errors_shown_between_brackets_are_not_a_legacy_region() {
    // The demo lists one error of each kind between brackets: no text encoding reads that
    // as words, so it stays UTF-8 with errors (chardetng alone would call it windows-1251).
    let v = detect_json(hexrune::cli::demo::BYTES);
    assert_eq!(v["encoding"], "UTF-8");
    // Its last section is UTF-16LE lines (a region of their own) and UTF-32LE lines: of
    // `check`'s 38 errors, 4 are units of the UTF-16LE region, not errors of the UTF-8.
    // The region is the section's 536 bytes, whole units: the `0A` after its last line
    // feed (`0A 00`) starts the UTF-8 line after it (it ended at 3099 while that joined).
    assert_eq!(v["errors"], 34);
    assert_eq!(
        v["evidence"][1],
        "mixed: 3 regions in 2 encodings; 38 UTF-8 errors, 34 of them in UTF-8 and 4 in the UTF-16LE region"
    );
    assert_eq!(
        v["regions"],
        json!([
            {"start":0,"end":2562,"encoding":"UTF-8"},
            {"start":2562,"end":3098,"encoding":"UTF-16LE"},
            {"start":3098,"end":3695,"encoding":"UTF-8"}
        ])
    );
}

/// What `hexrune detect ARGS` prints of standard input `bytes` (exit 0).
fn detect_stdout(args: &[&str], bytes: &[u8]) -> String {
    stdout_with_stdin([&["detect"], args].concat(), bytes, 0)
}

/// `hexrune detect` of standard input `bytes`, as the user reads it.
fn detect_human(bytes: &[u8]) -> String {
    detect_stdout(&[], bytes)
}

#[test]
fn counts_of_one_take_the_singular() {
    assert_eq!(
        detect_human(b"ok\xC3\xA9"),
        "<stdin>: UTF-8\n  why: valid UTF-8: 1 multi-byte character, no errors\n"
    );
    assert_eq!(
        detect_human(b"ok\xC3\xA9\xC3\xA8"),
        "<stdin>: UTF-8\n  why: valid UTF-8: 2 multi-byte characters, no errors\n"
    );
    assert_eq!(
        detect_human(b"ok\xE9!"),
        "<stdin>: windows-1250\n  why: 1 UTF-8 error and few multi-byte characters; chardetng reads it as windows-1250; a weak guess on 1 non-ASCII byte\n"
    );
    assert_eq!(
        detect_human(b"[\xFF] caf\xC3\xA9"),
        "<stdin>: UTF-8 with 1 error\n  why: UTF-8 with 1 error among 1 multi-byte character\n"
    );
    assert_eq!(
        detect_human(b"\xFF\xFEA\x00"),
        "<stdin>: UTF-16LE, BOM UTF-16LE (FF FE)\n  why: starts with the UTF-16LE signature FF FE; 1 code unit decodes as UTF-16LE\n"
    );
    let controls = detect_human(b"\x01");
    assert_eq!(
        controls,
        "<stdin>: binary\n  why: 1 of 1 sampled byte is a control no text encoding explains\n"
    );
    // The verb goes with the count of controls, the noun with the count of bytes.
    assert_eq!(
        detect_human(b"abcdefghijklm\x01"),
        "<stdin>: binary\n  why: 1 of 14 sampled bytes is a control no text encoding explains\n"
    );
    assert_eq!(
        detect_human(b"abcdefghijkl\x01\x02"),
        "<stdin>: binary\n  why: 2 of 14 sampled bytes are controls no text encoding explains\n"
    );
}

#[test]
fn zero_bytes_in_an_input_too_short_for_a_wide_pattern_say_so() {
    assert_eq!(
        detect_human(b"H\0i\0"),
        "<stdin>: binary\n  why: 2 of 4 bytes are NUL, too short to tell UTF-16 or UTF-32 by its zero bytes (16 bytes needed)\n"
    );
    // From 16 bytes on the input is decoded as UTF-16 and UTF-32, and that neither gives
    // text is the evidence.
    assert_eq!(
        detect_human(b"\0\0\0abcdefghijklm"),
        "<stdin>: binary\n  why: 3 of 16 sampled bytes are NUL, and neither UTF-16 nor UTF-32 decodes the input as text\n"
    );
    assert_eq!(
        detect_human(b"\0abcdefghijklmno"),
        "<stdin>: binary\n  why: 1 of 16 sampled bytes is NUL, and neither UTF-16 nor UTF-32 decodes the input as text\n"
    );
}

/// `find -print0` output (and `xargs -0` input, `/proc/PID/environ`): UTF-8 records that
/// NUL bytes end was binary once NULs were more than 1% of the bytes.
#[test]
fn nul_separated_records_of_utf8_are_utf8() {
    let names = ["Привет.txt", "мир.doc", "документ.pdf", "фото.jpg"];
    let records: Vec<u8> = names
        .iter()
        .cycle()
        .take(80)
        .flat_map(|n| [n.as_bytes(), b"\0"].concat())
        .collect();
    assert_eq!(
        detect_human(&records),
        "<stdin>: UTF-8\n  why: valid UTF-8: 420 multi-byte characters, no errors; NUL-separated \
         records: 80 of 1240 sampled bytes are NUL, each after a record of text (as find -print0 \
         and xargs -0 use them)\n"
    );
    assert_eq!(
        detect_human(b"HOME=/root\0LANG=C.UTF-8\0TERM=xterm"),
        "<stdin>: ASCII (also valid UTF-8)\n  why: every byte is ASCII; NUL-separated records: 2 \
         of 34 sampled bytes are NUL, each after a record of text (as find -print0 and xargs -0 \
         use them)\n"
    );
    // An empty record (a run of NULs, or one at the start) or a control is not that shape.
    let binary = |n: usize| {
        format!("<stdin>: binary\n  why: {n} of 35 sampled bytes are NUL, and neither UTF-16 nor UTF-32 decodes the input as text\n")
    };
    assert_eq!(
        detect_human(b"HOME=/root\0\0LANG=C.UTF-8\0TERM=xterm"),
        binary(3)
    );
    assert_eq!(
        detect_human(b"\0HOME=/root\0LANG=C.UTF-8\0TERM=xterm"),
        binary(3)
    );
    assert_eq!(
        detect_human(b"HOME=/root\0LANG=C.UTF-8\0TERM=xterm\x01"),
        "<stdin>: binary\n  why: 1 of 35 sampled bytes is a control no text encoding explains\n"
    );
}

/// A log a crash left NUL bytes in (blocks allocated but never written) was binary once
/// they were more than 1% of its bytes, and `repair --from auto` refused it: runs of NUL
/// bytes of 16 or more amid text otherwise valid are padding. A shorter run between text
/// (a binary format's fields, an empty record), a control, or no text besides stays
/// binary.
#[test]
fn nul_padding_in_a_utf8_log_is_utf8() {
    let line = |i: usize| {
        format!(
            "2026-11-29 03:{:02}:{:02} INFO Jürgen: café ok\n",
            i / 60,
            i % 60
        )
    };
    let head: String = (0..200).map(line).collect();
    let tail: String = (200..260).map(line).collect();
    let log = [head.as_bytes(), &[0; 4096], tail.as_bytes()].concat();
    assert_eq!(head.len(), 8600);
    assert_eq!(
        detect_human(&log),
        "<stdin>: UTF-8\n  why: valid UTF-8: 520 multi-byte characters, no errors; 4096 NUL \
         bytes in 1 run at 8600, in text: padding, as a crash or a preallocation leaves in a \
         log; no other control\n"
    );
    // Two crashes, and a preallocated tail of any length.
    let twice = [&log[..], &[0; 16], head.as_bytes(), &[0; 5]].concat();
    assert_eq!(
        detect_human(&twice),
        "<stdin>: UTF-8\n  why: valid UTF-8: 920 multi-byte characters, no errors; 4117 NUL \
         bytes in 3 runs (the first at 8600, 4096 bytes long), in text: padding, as a crash or \
         a preallocation leaves in a log; no other control\n"
    );
    let json = detect_json(&log);
    assert_eq!(json["encoding"], "UTF-8");
    assert_eq!(
        json["regions"],
        json!([{"start": 0, "end": 15276, "encoding": "UTF-8"}])
    );

    let binary = |nuls: usize, sampled: usize| {
        format!("<stdin>: binary\n  why: {nuls} of {sampled} sampled bytes are NUL, and neither UTF-16 nor UTF-32 decodes the input as text\n")
    };
    // A run of 15 between text is a field's padding, not a log's.
    let short = [
        head.as_bytes(),
        &[0; 4096],
        tail.as_bytes(),
        &[0; 15],
        b"x\n",
    ]
    .concat();
    assert_eq!(detect_human(&short), binary(4111, 15293));
    // No text besides the NUL bytes.
    assert_eq!(
        detect_human(&[b"hello\n", &[0u8; 4000][..]].concat()),
        binary(4000, 4006)
    );
    // A control besides.
    let control = [&log[..], b"\x01\n"].concat();
    assert_eq!(detect_human(&control), binary(4096, 15278));

    // A crash that stopped inside a character, then a preallocated tail: the cut character
    // is an error of UTF-8, and the rest is padding.
    let cut = [head.as_bytes(), "ש".as_bytes(), &[0; 4096]].concat();
    assert_eq!(
        detect_human(&[&cut[..8601], &cut[8602..]].concat()),
        "<stdin>: UTF-8 with 1 error\n  why: UTF-8 with 1 error among 400 multi-byte \
         characters; 4096 NUL bytes in 1 run at 8601, in text: padding, as a crash or a \
         preallocation leaves in a log; no other control; the character before one run is \
         cut short there (the 1 error)\n"
    );
    // Seventeen runs with a line between each two are records, not crashes.
    let records: Vec<u8> = (0..17)
        .flat_map(|i| [line(i).into_bytes(), vec![0; 20]].concat())
        .collect();
    assert_eq!(detect_human(&records), binary(340, 1071));

    // `repair --from auto` reads it as UTF-8 and changes nothing.
    let dir = tempfile::tempdir().unwrap();
    let input = file_with(dir.path(), "crash.log", &log);
    let out = dir.path().join("out.log");
    let done = run(
        [
            "repair",
            "--from",
            "auto",
            &input,
            "-o",
            out.to_str().unwrap(),
        ],
        0,
    );
    assert_eq!(std::fs::read(&out).unwrap(), log);
    assert!(
        String::from_utf8_lossy(&done.stderr).contains("0 units changed"),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
}

/// A table of 32-bit integers below 70000 has UTF-32LE's zero bytes (the top byte always,
/// the next one mostly): it was `UTF-32LE with 151 errors`. Read as UTF-32LE its units
/// are no text, so it is binary; text in UTF-32 is still named by the pattern.
#[test]
fn a_table_of_integers_with_utf32_zero_bytes_is_binary() {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let ints: Vec<u8> = (0..5000)
        .flat_map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            ((state % 70_000) as u32).to_le_bytes()
        })
        .collect();
    assert_eq!(
        detect_human(&ints),
        "<stdin>: binary\n  why: 1559 of 20000 sampled bytes are controls no text encoding \
         explains; zero bytes where UTF-32LE puts them, but read as UTF-32LE it is no text\n"
    );
    assert_eq!(
        detect_human(&wide::text(Dialect::Utf32Le, "hello")),
        "<stdin>: UTF-32LE\n  why: no byte order mark; zero bytes where UTF-32LE puts them; 5 \
         code units decode as UTF-32LE\n"
    );
}

/// UTF-16 without a zero byte: one word, no space or line end. Cyrillic puts 04 in the
/// high byte of every unit (a control to UTF-8): it was binary.
#[test]
fn a_word_of_utf16_without_a_zero_byte_is_named() {
    let word = "Достопримечательности";
    assert_eq!(
        detect_human(&wide::text(Dialect::Utf16Le, word)),
        "<stdin>: UTF-16LE\n  why: no byte order mark; read as UTF-16LE, the input is text: 21 \
         of 21 characters are letters (Cyrillic), 0 are spaces or line ends; 21 code units \
         decode as UTF-16LE\n"
    );
    assert_eq!(
        detect_json(&wide::text(Dialect::Utf16Be, "Καλημέρα"))["encoding"],
        "UTF-16BE"
    );
}

/// A block of Cyrillic UTF-16LE inside UTF-8: valid UTF-8 to the scan (its units are
/// ASCII letters and 04), with its controls it was binary; a Latin block was a region.
#[test]
fn a_cyrillic_utf16_block_inside_utf8_is_a_region() {
    let around = "Журнал ✓\n".repeat(3);
    let block = wide::text(Dialect::Utf16Le, &"Привет, мир! Это текст.\n".repeat(3));
    let bytes = [around.as_bytes(), &block, around.as_bytes()].concat();
    assert_eq!(
        detect_human(&bytes),
        "<stdin>: UTF-8, 3 regions\n  region 0..51 (0x0..0x33): UTF-8\n  region 51..195 \
         (0x33..0xc3): UTF-16LE\n  region 195..246 (0xc3..0xf6): UTF-8\n  why: mixed: 3 regions \
         in 2 encodings\n"
    );
}

#[test]
fn utf8_cut_inside_a_character_at_either_end_is_utf8_cut_short() {
    // The scan's truncated_eof at the end: no legacy encoding (chardetng said windows-1256).
    assert_eq!(
        detect_human(b"hello world this is text \xF0\x9F\x98"),
        "<stdin>: UTF-8, cut short at the end\n  why: valid UTF-8 but for a cut character: \
         0 multi-byte characters; the last character is cut short by the end of the input: \
         F0 9F 98 at 25\n"
    );
    // Continuation bytes first: the input starts inside a character (it was IBM866).
    assert_eq!(
        detect_human(b"\x9F\x98\x80 hello world this is text"),
        "<stdin>: UTF-8, cut short at the start\n  why: valid UTF-8 but for a cut character: \
         0 multi-byte characters; it starts inside a character: 9F 98 80 at 0 are the end of one\n"
    );
    assert_eq!(
        detect_human(b"\x80caf\xC3\xA9 \xE2\x82"),
        "<stdin>: UTF-8, cut short at both ends\n  why: valid UTF-8 but for 2 cut characters: \
         1 multi-byte character; it starts inside a character: 80 at 0 is the end of one; \
         the last character is cut short by the end of the input: E2 82 at 7\n"
    );
    // Four continuation bytes end no character: not a cut.
    let four = detect_human(b"\x9F\x98\x80\x80 hello world");
    assert!(!four.contains("cut"), "{four}");
}

/// `hexrune detect --json` of standard input `bytes`: the line as printed.
fn detect_json_line(bytes: &[u8]) -> String {
    detect_stdout(&["--json"], bytes)
}

#[test]
fn json_says_where_utf8_was_cut_inside_a_character() {
    // Byte for byte: `cut` comes last, each end `null` where it is not cut.
    assert_eq!(
        detect_json_line(b"hello world this is text \xF0\x9F\x98"),
        "{\"path\":\"<stdin>\",\"encoding\":\"UTF-8\",\"bom\":null,\"errors\":1,\
         \"regions\":[{\"start\":0,\"end\":28,\"encoding\":\"UTF-8\"}],\"mojibake\":[],\
         \"ascii\":false,\"inner_boms\":[],\"evidence\":[\"valid UTF-8 but for a cut character: \
         0 multi-byte characters\",\"the last character is cut short by the end of the input: \
         F0 9F 98 at 25\"],\"cut\":{\"start\":null,\"end\":{\"offset\":25,\"len\":3,\
         \"bytes\":\"f09f98\"}}}\n"
    );
    let start = detect_json(b"\x9F\x98\x80 hello world this is text");
    assert_eq!(
        start["cut"],
        json!({"start":{"offset":0,"len":3,"bytes":"9f9880"},"end":null})
    );
    let both = detect_json(b"\x80caf\xC3\xA9 \xE2\x82");
    assert_eq!(
        both["cut"],
        json!({"start":{"offset":0,"len":1,"bytes":"80"},"end":{"offset":7,"len":2,"bytes":"e282"}})
    );
    // A cut among other errors is still said.
    let more = detect_json(b"[\xFF] caf\xC3\xA9 \xE2\x82");
    assert_eq!(more["errors"], 2);
    assert_eq!(
        more["cut"],
        json!({"start":null,"end":{"offset":10,"len":2,"bytes":"e282"}})
    );
    // No cut, no key: the record is what it was before `cut` existed.
    assert_eq!(
        detect_json_line("é\n".as_bytes()),
        "{\"path\":\"<stdin>\",\"encoding\":\"UTF-8\",\"bom\":null,\"errors\":0,\
         \"regions\":[{\"start\":0,\"end\":3,\"encoding\":\"UTF-8\"}],\"mojibake\":[],\
         \"ascii\":false,\"inner_boms\":[],\
         \"evidence\":[\"valid UTF-8: 1 multi-byte character, no errors\"]}\n"
    );
    // Four continuation bytes end no character, and the last byte of a windows-1252
    // region is a letter of it: neither is a cut.
    assert!(detect_json(b"\x9F\x98\x80\x80 hello world")
        .get("cut")
        .is_none());
    let legacy = detect_json(b"09:02 \xE9chec, r\xE9essayer\n09:03 arr\xEAt d\xE9j\xE0 \xE9");
    assert!(legacy.get("cut").is_none(), "{legacy}");
}

#[test]
fn a_long_utf8_file_whose_last_line_is_cut_is_one_utf8_region() {
    // 1.4 MB of UTF-8, then a last line that is ASCII but for `E2 82`, € cut after two
    // bytes: it was a 13-byte windows-1257 region of its own.
    let mut bytes = corpus("fr")
        .into_bytes()
        .repeat(1 + (1400 << 10) / corpus("fr").len());
    bytes.extend_from_slice(b"\nend of log \xE2\x82");
    let len = bytes.len();
    let v = detect_json(&bytes);
    assert_eq!(v["encoding"], "UTF-8");
    assert_eq!(v["errors"], 1);
    assert_eq!(
        v["regions"],
        json!([{"start":0,"end":len,"encoding":"UTF-8"}])
    );
    let evidence = v["evidence"].as_array().unwrap();
    assert_eq!(
        evidence.last().unwrap(),
        &json!(format!(
            "the last character is cut short by the end of the input: E2 82 at {}",
            len - 2
        ))
    );
}

#[test]
fn the_last_byte_of_a_legacy_region_is_no_cut() {
    // The log's windows-1252 part ends in `E9` (é) at the very end: a letter of that
    // region, not a UTF-8 character cut short.
    let v = detect_json(
        b"09:00 d\xC3\xA9marrage \xE2\x9C\x93\n09:02 \xE9chec, r\xE9essayer\n09:03 arr\xEAt d\xE9j\xE0 \xE9",
    );
    assert_eq!(v["errors"], 0);
    assert_eq!(
        v["regions"],
        json!([{"start":0,"end":21,"encoding":"UTF-8"},{"start":21,"end":62,"encoding":"windows-1252"}])
    );
    assert_eq!(
        v["evidence"],
        json!(["mixed: 2 regions in 2 encodings; 6 UTF-8 errors, all in the windows-1252 region"])
    );
}

#[test]
fn repair_from_auto_of_utf8_cut_at_the_end_replaces_only_the_cut_character() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(
        dir.path(),
        "cut.txt",
        b"hello world this is text \xF0\x9F\x98",
    );
    let output = run(["repair", "--from", "auto", "-o", "-", &f], 0);
    assert_eq!(
        output.stdout,
        "hello world this is text \u{FFFD}".as_bytes()
    );
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("read as UTF-8 (--from auto"), "{stderr}");
    assert!(stderr.contains("1 truncated_eof"), "{stderr}");
}

#[test]
fn a_short_windows_1252_line_with_dashes_quotes_and_a_euro_sign_is_windows_1252() {
    // — ‘ ’ € are runs of signs: they count neither for nor against the reading, so the
    // six accented letters inside words decide (it was "UTF-8 with 10 errors").
    let bytes = encode(
        "windows-1252",
        "Café crème brûlée, naïve façade — ‘quoted’ €5",
    );
    assert_eq!(
        detect_human(&bytes),
        "<stdin>: windows-1252\n  why: 10 UTF-8 errors and few multi-byte characters; \
         chardetng reads it as windows-1252\n"
    );
    // Python's codec is the oracle for the bytes.
    let python = python_bytes(
        "import sys; sys.stdout.buffer.write('Café crème brûlée, naïve façade — ‘quoted’ €5'.encode('cp1252'))",
        NO_ARGS,
        b"",
    );
    if let Some(stdout) = python {
        assert_eq!(stdout, bytes);
    }
    // And `repair --from auto` reads it so.
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "cafe.txt", &bytes);
    assert_eq!(
        stdout_of(["repair", "--from", "auto", "-o", "-", &f], 0),
        "Café crème brûlée, naïve façade — ‘quoted’ €5"
    );
    // Signs alone are little evidence for a legacy reading, but with no multi-byte
    // character it is no UTF-8 either: chardetng's guess, said to be weak. Each stands
    // where text puts it, so the reading is text.
    assert_eq!(
        detect_human(b"total \x97 \x80 \x93 \x94 ok"),
        "<stdin>: windows-1252\n  why: 4 UTF-8 errors and few multi-byte characters; chardetng reads it as \
         windows-1252; a weak guess on 4 non-ASCII bytes\n"
    );
    // French in Mac OS Roman, no text as windows-1252 (`re` 8D `u`, an undefined byte):
    // Mac OS Roman reads its letters inside words, its apostrophes (`D5`) counting
    // neither way.
    let french = "L’hôpital a reçu trois ambulances à l’aube, et l’équipe a travaillé sans \
                  pause jusqu’à midi.\n";
    let bytes = encode("macintosh", french);
    assert_eq!(
        detect_human(&bytes),
        "<stdin>: macintosh\n  why: 6 UTF-8 errors and few multi-byte characters; read as \
         chardetng's guess, windows-1252, it is no text; as macintosh, which chardetng does \
         not know, it is\n"
    );
    // German capitals starting words (`Überweisung`, `Öffnung`) are letters in words too.
    let german = "ÄRGERLICH war nur, dass die Überweisung erst nach Öffnung der Schalter \
                  gebucht wurde.\n";
    assert_eq!(
        detect_human(&encode("macintosh", german)),
        "<stdin>: macintosh\n  why: 3 UTF-8 errors and few multi-byte characters; read as \
         chardetng's guess, windows-1252, it is no text; as macintosh, which chardetng does \
         not know, it is; a weak guess on 3 non-ASCII bytes\n"
    );
    // A line of Dutch between curly quotes: signs in place alone, read as windows-1252
    // (not Mac OS Roman, whose `ì` and `î` they would be, glued to the words).
    assert_eq!(
        detect_human(b"Zij zei: \x93Ik kom morgen\x94, maar ze is er nog steeds niet.\n"),
        "<stdin>: windows-1252\n  why: 2 UTF-8 errors and few multi-byte characters; chardetng reads it as \
         windows-1252; a weak guess on 2 non-ASCII bytes\n"
    );
}

/// Overlong forms of ASCII (`C0 AF` is `/`, `C0 AE` is `.`) in a request log are the
/// path-traversal shape, not text of a legacy encoding: no EUC-KR or EUC-JP region is
/// made of them (each reads the pairs as Hangul or kanji), nor of UTF-8's other broken
/// shapes, where a real region of either is still found.
#[test]
fn overlong_slashes_are_no_region_of_a_legacy_encoding() {
    let log = "GET /index.html 200\n".repeat(20);
    let mut bytes = log.as_bytes().to_vec();
    bytes.extend_from_slice(b"GET /a/..\xC0\xAFetc/passwd 404\n");
    bytes.extend_from_slice("réponse envoyée\n".as_bytes());
    bytes.extend_from_slice(b"x=\xC0\xAE\xC0\xAE\xC0\xAF\n");
    bytes.extend_from_slice(b"GET /b/%2e%2e\xE0\x80\xAFwin.ini 404\n");
    let v = detect_json(&bytes);
    assert_eq!(v["encoding"], "UTF-8");
    assert_eq!(v["errors"], 11);
    assert_eq!(
        v["regions"],
        json!([{"start":0,"end":bytes.len(),"encoding":"UTF-8"}])
    );
    // UTF-8's other broken shapes as well (a CESU-8 pair, a 5-byte form of RFC 2279), with
    // a BOM and a word gone through windows-1252 twice: UTF-8 with errors and the mojibake
    // found, where chardetng had read the whole file as GBK.
    let shapes = b"\xEF\xBB\xBFcaf\xC3\xA9 \xC3\x83\xC2\xA9t\xC3\x83\xC2\xA9 \xED\xA0\xBD\xED\xB8\x80 \xC0\xAF \xF8\x88\x80\x80\x80\n";
    let v = detect_json(shapes);
    assert_eq!(v["encoding"], "UTF-8", "{v}");
    assert_eq!(v["errors"], 13);
    assert_eq!(v["mojibake"][0]["text"], "été", "{v}");
    // The same lines beside a real EUC-KR region: the region is found.
    let korean = encoding_rs::EUC_KR
        .encode("한국어 문장입니다. 서울은 대한민국의 수도입니다.")
        .0;
    let mut mixed = "réponse envoyée\n".repeat(40).into_bytes();
    mixed.extend_from_slice(&korean);
    mixed.push(b'\n');
    let v = detect_json(&mixed);
    let encodings: Vec<&str> = v["regions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["encoding"].as_str().unwrap())
        .collect();
    assert!(encodings.contains(&"EUC-KR"), "{v}");
}

/// `hexrune detect` of a file holding `bytes`, as the user reads it (the file's name
/// replaced by `in`).
fn detect_file_human(bytes: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "in", bytes);
    stdout_of(["detect", &f], 0).replace(&f, "in")
}

/// UTF-16 without a BOM whose letters fill both bytes of their units (Cyrillic `04`,
/// Greek `03`, kana and kanji) was binary, with "in no pattern of UTF-16" for NUL bytes
/// that all sat where UTF-16LE puts a line feed's. Python's codec makes the bytes.
#[test]
fn utf16_without_a_bom_in_cyrillic_greek_and_japanese_is_named() {
    let cases = [
        ("Привет мир\n", "utf-16-le", "UTF-16LE", "360 of 440 characters are letters (Cyrillic), 80 are spaces or line ends; 440 code units"),
        ("Καλημέρα κόσμε\n", "utf-16-be", "UTF-16BE", "520 of 600 characters are letters (Greek), 80 are spaces or line ends; 600 code units"),
        ("日本語のテキスト\n", "utf-16-le", "UTF-16LE", "320 of 360 characters are letters (Han+Hiragana+Katakana), 40 are spaces or line ends; 360 code units"),
        ("中文文本示例\n", "utf-16-be", "UTF-16BE", "240 of 280 characters are letters (Han), 40 are spaces or line ends; 280 code units"),
    ];
    for (line, codec, name, counts) in cases {
        let text = line.repeat(40);
        let code = format!(
            "import sys; sys.stdout.buffer.write(sys.stdin.buffer.read().decode().encode('{codec}'))"
        );
        let dialect = if name == "UTF-16LE" {
            Dialect::Utf16Le
        } else {
            Dialect::Utf16Be
        };
        let bytes = python_bytes(&code, NO_ARGS, text.as_bytes())
            .unwrap_or_else(|| wide::text(dialect, &text));
        assert_eq!(
            detect_file_human(&bytes),
            format!(
                "in: {name}\n  why: no byte order mark; read as {name}, the input is text: {counts} decode as {name}\n"
            )
        );
    }
}

/// CESU-8 (surrogate pairs of 3-byte forms for characters above U+FFFF) and Java's
/// Modified UTF-8 (also `C0 80` for NUL) were "UTF-8 with 240 errors"; `check` said they
/// are valid CESU-8. Named so, with the dialect to read them with; `repair --from auto`
/// then gives the emoji back.
#[test]
fn cesu8_and_modified_utf8_are_named_with_their_dialect() {
    let cesu = |s: &str| -> Vec<u8> {
        let mut out = Vec::new();
        for u in s.encode_utf16() {
            // Each UTF-16 unit, surrogates included, in its 3-byte (or shorter) form.
            let c = u32::from(u);
            match c {
                0..=0x7F => out.push(c as u8),
                0x80..=0x7FF => out.extend([0xC0 | (c >> 6) as u8, 0x80 | (c & 0x3F) as u8]),
                _ => out.extend([
                    0xE0 | (c >> 12) as u8,
                    0x80 | ((c >> 6) & 0x3F) as u8,
                    0x80 | (c & 0x3F) as u8,
                ]),
            }
        }
        out
    };
    let text = "emoji 😀 party 🎉 done\n".repeat(20);
    let bytes = cesu(&text);
    // Python's surrogatepass writes the same bytes.
    const SURROGATEPASS: &str = "import sys
def form(ch):
    o = ord(ch) - 0x10000
    if o < 0:
        return ch.encode()
    pair = chr(0xD800 + (o >> 10)) + chr(0xDC00 + (o & 0x3FF))
    return pair.encode('utf-8', 'surrogatepass')
sys.stdout.buffer.write(b''.join(form(ch) for ch in sys.stdin.buffer.read().decode()))";
    let python = python_bytes(SURROGATEPASS, NO_ARGS, text.as_bytes());
    if let Some(python) = python {
        assert_eq!(python, bytes);
    }
    assert_eq!(
        detect_file_human(&bytes),
        "in: CESU-8\n  why: not valid UTF-8, but valid CESU-8 (Unicode TR #26): its UTF-8 errors are \
         40 surrogate pairs in 3-byte forms (characters above U+FFFF); read it with --dialect cesu8\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "cesu.txt", &bytes);
    assert!(stdout_of(["check", &f], 1).contains("but valid CESU-8"));
    assert_eq!(
        stdout_of(["repair", "--from", "auto", "-o", "-", &f], 0),
        text
    );
    // With C0 80 for NUL, as Java writes class files and serialized strings.
    let mut java = cesu("grin 😀 nul ");
    java.extend(b"\xC0\x80\n");
    assert_eq!(
        detect_file_human(&java),
        "in: MUTF-8\n  why: not valid UTF-8, but valid Modified UTF-8 (Java): its UTF-8 errors are \
         1 surrogate pair in 3-byte forms (a character above U+FFFF) and 1 C0 80 for NUL; read it with --dialect mutf8\n"
    );
    // One real 4-byte character beside the pairs: neither CESU-8 nor UTF-8 reads it all;
    // legacy UTF-8 does, and `repair --from auto` joins the pairs.
    let mut mixed = cesu("a 😀 b ");
    mixed.extend("🎉\n".as_bytes());
    assert_eq!(detect_json(&mixed)["encoding"], "RFC 2279");
    let f = file_with(dir.path(), "mixed.txt", &mixed);
    assert_eq!(
        stdout_of(["repair", "--from", "auto", "-o", "-", &f], 0),
        "a 😀 b 🎉\n"
    );
}

/// WTF-8 (lone surrogates in 3-byte forms: a Windows file name, a JavaScript string cut
/// inside a pair) and legacy UTF-8 of RFC 2279 (forms of 5 and 6 bytes, values above
/// U+10FFFF) were "UTF-8 with N errors" where `check` called them valid in their dialect,
/// and `repair --from auto` wrote three U+FFFD for each lone surrogate. Named as CESU-8 is,
/// by the rule of `check`'s verdict: every UTF-8 error is a form the dialect reads.
#[test]
fn wtf8_and_rfc2279_are_named_with_their_dialect() {
    // Python's surrogatepass writes the same bytes.
    let wtf8 = b"file\xED\xA0\x80name and \xED\xB0\x80 x\n".to_vec();
    let code = "import sys; sys.stdout.buffer.write('file\\ud800name and \\udc00 x\\n'.encode('utf-8', 'surrogatepass'))";
    if let Some(python) = python_bytes(code, NO_ARGS, b"") {
        assert_eq!(python, wtf8);
    }
    let legacy = b"a \xF8\x88\x80\x80\x80 b \xFC\x84\x80\x80\x80\x80 c \xF4\x90\x80\x80\n".to_vec();
    let dir = tempfile::tempdir().unwrap();
    for (bytes, human, dialect, repaired) in [
        (
            &wtf8,
            "in: WTF-8\n  why: not valid UTF-8, but valid WTF-8: its UTF-8 errors are 2 lone \
             surrogates; read it with --dialect wtf8\n",
            "wtf8",
            "file\u{FFFD}name and \u{FFFD} x\n",
        ),
        (
            &legacy,
            "in: RFC 2279\n  why: not valid UTF-8, but valid legacy UTF-8 (RFC 2279, 1 to 6 \
             bytes): its UTF-8 errors are 2 forms of 5 or 6 bytes and 1 value above U+10FFFF \
             in a 4-byte form; read it with --dialect legacy\n",
            "legacy",
            "a \u{FFFD} b \u{FFFD} c \u{FFFD}\n",
        ),
    ] {
        assert_eq!(detect_file_human(bytes), human);
        let json = detect_json(bytes);
        assert_eq!(json["errors"], 0, "{json}");
        assert_eq!(
            json["regions"],
            json!([{"start": 0, "end": bytes.len(), "encoding": json["encoding"]}])
        );
        let f = file_with(dir.path(), dialect, bytes);
        // `repair --from auto` reads it in the dialect: one U+FFFD for each unit UTF-8
        // cannot hold, as --dialect writes.
        assert_eq!(
            stdout_of(["repair", "--from", "auto", "-o", "-", &f], 0),
            repaired
        );
        assert_eq!(
            stdout_of(["repair", "--dialect", dialect, "-o", "-", &f], 0),
            repaired
        );
        // The name detect gives is a label --from takes.
        let name = json["encoding"].as_str().unwrap();
        assert_eq!(
            stdout_of(["repair", "--from", name, "-o", "-", &f], 0),
            repaired
        );
    }
    // A MySQL utf8mb3 export (😀 as a CESU-8 pair) joined to a utf8mb4 one (🚚 in four
    // bytes): legacy UTF-8 reads both, and `--from auto` joins the pair.
    let joined = b"(1,\"\xED\xA0\xBD\xED\xB8\x80 happy\");\n(2,\"\xF0\x9F\x9A\x9A shipped\");\n";
    assert_eq!(
        detect_file_human(joined),
        "in: RFC 2279\n  why: not valid UTF-8, but valid legacy UTF-8 (RFC 2279, 1 to 6 bytes): \
         its UTF-8 errors are 1 surrogate pair in 3-byte forms (a character above U+FFFF) \
         beside characters in 4-byte forms (CESU-8 and UTF-8 joined: a MySQL utf8mb3 export \
         and a utf8mb4 one); read it with --dialect legacy\n"
    );
    let f = file_with(dir.path(), "joined", joined);
    assert_eq!(
        stdout_of(["repair", "--from", "auto", "-o", "-", &f], 0),
        "(1,\"😀 happy\");\n(2,\"🚚 shipped\");\n"
    );
    // With a lone surrogate too, it stays UTF-8 with errors.
    let lone = [joined.as_slice(), b"\xED\xA0\x80\n"].concat();
    assert!(detect_file_human(&lone).starts_with("in: UTF-8 with "));
    // The summary says what auto read it as.
    let f = file_with(dir.path(), "w", &wtf8);
    assert_eq!(
        String::from_utf8(run(["repair", "--from", "auto", "-o", "-", &f], 0).stderr).unwrap(),
        format!(
            "repair: {f} (22 bytes) -> <stdout> (22 bytes): 2 units changed\n\
             \x20            read as WTF-8 (--from auto: what detect finds)\n\
             \x20          2 lone_surrogate           replaced with U+FFFD\n"
        )
    );
}

/// The rule is `check`'s: every UTF-8 error is a form the dialect reads, and no other. One
/// lone surrogate among stray bytes, an overlong form, a cut at the end, or a 5-byte form
/// beside a stray byte is UTF-8 with errors; so are surrogates that are mostly PEP 383
/// escapes (their hint is the repair); and RFC 2279 needs one of its own forms (surrogates
/// alone are WTF-8's, or CESU-8 pairs beside 4-byte characters).
#[test]
fn wtf8_and_rfc2279_only_where_the_dialect_explains_every_error() {
    let text = "Grüße aus Köln, déjà vu";
    for (bytes, encoding) in [
        // Alone, one lone surrogate is WTF-8, as check says.
        ([text.as_bytes(), b" \xED\xA0\x80 x\n"].concat(), "WTF-8"),
        (
            [text.as_bytes(), b" \xED\xA0\x80 \xE9 x\n"].concat(),
            "UTF-8",
        ),
        (
            [text.as_bytes(), b" \xED\xA0\x80 \xC0\xAF\n"].concat(),
            "UTF-8",
        ),
        (
            [text.as_bytes(), b" \xED\xA0\x80 x \xE2\x82"].concat(),
            "UTF-8",
        ),
        (
            [text.as_bytes(), b" \xF8\x88\x80\x80\x80 \xE9\n"].concat(),
            "UTF-8",
        ),
        // Lone surrogates and a 5-byte form: RFC 2279 reads both.
        (
            [text.as_bytes(), b" \xED\xA0\x80 \xF8\x88\x80\x80\x80\n"].concat(),
            "RFC 2279",
        ),
        // A CESU-8 pair beside a 4-byte character: neither CESU-8 nor UTF-8 reads both,
        // RFC 2279 does (and `repair` joins the pair): a utf8mb3 export joined to a
        // utf8mb4 one.
        (
            [
                text.as_bytes(),
                " \u{1F389} \n".as_bytes(),
                b"\xED\xA0\xBD\xED\xB8\x80\n",
            ]
            .concat(),
            "RFC 2279",
        ),
        // PEP 383 escapes (valid WTF-8): Python's surrogateescape, with its own hint.
        (b"caf\xED\xB3\xA9 cr\xED\xB3\xA8me\n".to_vec(), "UTF-8"),
    ] {
        let json = detect_json(&bytes);
        assert_eq!(json["encoding"], encoding, "{json}");
    }
}

/// French in Mac OS Roman has no multi-byte character and 21 UTF-8 errors: it was "UTF-8
/// with 21 errors among 0 multi-byte characters" while `check` said "probably not UTF-8".
/// chardetng's guess (windows-1252, which leaves 8D, 8F, 90 undefined) gives no text;
/// macintosh, which chardetng does not know, does.
#[test]
fn mac_roman_text_is_macintosh_not_utf8_with_errors() {
    let text = "Le garçon a mangé une crème brûlée près de la fenêtre.\n".repeat(3);
    let bytes = encode("macintosh", &text);
    if let Some(python) = python_bytes(
        "import sys; sys.stdout.buffer.write(sys.stdin.buffer.read().decode().encode('mac_roman'))",
        NO_ARGS,
        text.as_bytes(),
    ) {
        assert_eq!(python, bytes);
    }
    assert_eq!(
        detect_file_human(&bytes),
        "in: macintosh\n  why: 21 UTF-8 errors and few multi-byte characters; read as chardetng's guess, \
         windows-1252, it is no text; as macintosh, which chardetng does not know, it is\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "mr.txt", &bytes);
    assert!(stdout_of(["check", &f], 1).contains("verdict  probably not UTF-8"));
    // Text that windows-1252 read as text too, but only with bytes it leaves undefined
    // (è is 8F in Mac OS Roman): macintosh, not windows-1252 with C1 controls. Its é is 8E,
    // windows-1252's Ž, a capital of row 80..9F inside a word (`dŽjˆ`), which no text
    // writes: the windows-1252 reading is now no text at all.
    for (text, errors) in [
        (
            "Le cœur a ses raisons que la raison ne connaît point. Été, déjà, très.\n",
            21,
        ),
        ("Un cœur très déjà été.\n", 18),
    ] {
        let bytes = encode("macintosh", &text.repeat(3));
        assert_eq!(
            detect_file_human(&bytes),
            format!(
                "in: macintosh\n  why: {errors} UTF-8 errors and few multi-byte characters; read as \
                 chardetng's guess, windows-1252, it is no text; as macintosh, which chardetng does \
                 not know, it is\n"
            ),
            "{text}"
        );
    }
    // The same French in windows-1252 stays windows-1252.
    let w = encode("windows-1252", &text);
    assert_eq!(
        detect_file_human(&w),
        "in: windows-1252\n  why: 21 UTF-8 errors and few multi-byte characters; chardetng reads it as windows-1252\n"
    );
}

/// A UTF-16 signature in front of valid UTF-8 with no zero byte: said to contradict the
/// bytes after it (it was "UTF-16LE with 1 error", and `repair --from auto` wrote CJK).
#[test]
fn a_utf16_bom_before_utf8_text_contradicts_it() {
    assert_eq!(
        detect_file_human(b"\xFF\xFEh\xC3\xA9llo\n"),
        "in: UTF-8 with 2 errors, BOM UTF-16LE (FF FE)\n  why: starts with the UTF-16LE signature FF FE; \
         but the bytes after it are valid UTF-8 (1 multi-byte character) with no zero byte: the signature contradicts them\n"
    );
    assert_eq!(
        detect_json(b"\xFE\xFFplain words\n")["evidence"],
        json!([
            "starts with the UTF-16BE signature FE FF",
            "but the bytes after it are valid UTF-8 (ASCII only) with no zero byte: the signature contradicts them"
        ])
    );
    // Real UTF-16 after the mark is read as ever, in either script.
    let mut ru = b"\xFF\xFE".to_vec();
    ru.extend(wide::text(Dialect::Utf16Le, "Привет\n"));
    assert_eq!(detect_json(&ru)["encoding"], "UTF-16LE");
}

#[test]
fn an_empty_input_is_ascii_in_one_region() {
    assert_eq!(
        detect_json(b""),
        json!({"encoding":"UTF-8","bom":null,"errors":0,
               "regions":[{"start":0,"end":0,"encoding":"UTF-8"}],"mojibake":[],
               "ascii":true,"inner_boms":[],"evidence":["empty"]})
    );
}

/// A legacy guess on a handful of bytes says it is weak (fewer than 8 non-ASCII bytes).
#[test]
fn a_guess_on_few_bytes_says_it_is_weak() {
    assert_eq!(
        detect_human(b"na\xEFve\n"),
        "<stdin>: ISO-8859-4\n  why: 1 UTF-8 error and few multi-byte characters; chardetng reads it as ISO-8859-4; a weak guess on 1 non-ASCII byte\n"
    );
    // Eight or more: no such note.
    assert_eq!(
        detect_human(&encode("windows-1252", "Café crème brûlée, déjà vu, à côté\n")),
        "<stdin>: windows-1252\n  why: 9 UTF-8 errors and few multi-byte characters; chardetng reads it as windows-1252\n"
    );
}

/// A line of ASCII ending in `é`, an overlong `/` and two stray continuation bytes was an
/// EUC-KR region (Hangul of `C3 A9`, `C0 AF`, `82 AC`): the overlong form counts for
/// UTF-8, as `check`'s verdict counts it, and the line stays UTF-8.
#[test]
fn ascii_with_an_overlong_slash_and_stray_bytes_is_no_euc_kr() {
    let mut bytes = "hello world line\n".repeat(50).into_bytes();
    bytes.extend(b"The quick brown fox jumps over the lazy dog caf\xC3\xA9\xC0\xAF\x82\xAC\n");
    bytes.extend("déjà vu\n".repeat(20).as_bytes());
    let v = detect_json(&bytes);
    assert_eq!(
        (&v["encoding"], &v["errors"], &v["regions"]),
        (
            &json!("UTF-8"),
            &json!(4),
            &json!([{"start":0,"end":bytes.len(),"encoding":"UTF-8"}])
        ),
        "{v}"
    );
    assert_eq!(
        v["evidence"],
        json!(["UTF-8 with 4 errors among 41 multi-byte characters"])
    );
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "big.txt", &bytes);
    assert!(stdout_of(["check", &f], 1).contains("verdict  UTF-8 (RFC 3629) with 4 errors"));
}

/// A CSV export of CJK names and places in a legacy encoding: the cells between commas
/// are words, so the guess reads as text and is named (it was `UTF-8 with 63 errors`).
#[test]
fn a_csv_of_cjk_cells_in_a_legacy_encoding_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "gbk",
            "GBK",
            "姓名,城市,电话,备注\n张伟,北京,010-12345678,老客户\n李娜,上海,021-87654321,新客户，需要回访\n王芳,广州,020-11112222,已付款\n刘洋,深圳,0755-3333444,发票已寄出\n陈静,成都,028-5555666,无\n",
        ),
        (
            "euc-kr",
            "EUC-KR",
            "이름;도시;전화;메모\n김민수;서울;02-1234-5678;단골 고객\n이영희;부산;051-987-6543;신규\n박지훈;대구;053-111-2222;결제 완료\n",
        ),
        (
            "shift_jis",
            "Shift_JIS",
            "氏名,住所,電話\n山田太郎,東京都,03-1234-5678\n佐藤花子,大阪府,06-9876-5432\n",
        ),
        (
            "big5",
            "Big5",
            "姓名|城市|電話\n王小明|台北|02-2345-6789\n林美玲|高雄|07-3456-7890\n",
        ),
    ];
    for (label, name, text) in cases {
        let f = file_with(dir.path(), &format!("{label}.csv"), &encode(label, text));
        let out = stdout_of(["detect", &f], 0);
        assert_eq!(
            out.lines().next(),
            Some(format!("{f}: {name}").as_str()),
            "{out}"
        );
    }
}

/// `doubt` is in a record only where a legacy guess rests on fewer than 8 non-ASCII bytes
/// (Czech in windows-1250 reads as windows-1254) or reads as no text: last, after
/// `evidence`, which says the same.
#[test]
fn json_says_when_detect_doubts_its_guess() {
    let weak = detect_json(b"Dobr\xFD den, jak se m\xE1te?\n");
    assert_eq!(weak["encoding"], "windows-1254");
    assert_eq!(
        weak["doubt"],
        json!("windows-1254: a weak guess on 2 non-ASCII bytes")
    );
    assert!(detect_json_line(b"Dobr\xFD den, jak se m\xE1te?\n")
        .ends_with("],\"doubt\":\"windows-1254: a weak guess on 2 non-ASCII bytes\"}\n"));
    let firm = detect_json(
        b"Caf\xE9 cr\xE8me br\xFBl\xE9e, na\xEFve fa\xE7ade, d\xE9j\xE0 vu, \xE9t\xE9\n",
    );
    assert_eq!(firm["encoding"], "windows-1252");
    assert!(firm.get("doubt").is_none(), "{firm}");
    // UTF-8 is never doubted so.
    assert!(detect_json("déjà vu\n".as_bytes()).get("doubt").is_none());
}

/// A mojibake region's repaired text is shown to 160 characters, with how many more:
/// a region can be a whole file of one line (it printed all of it).
#[test]
fn a_long_mojibake_region_is_shown_cut() {
    let dir = tempfile::tempdir().unwrap();
    let text = "café crème ".repeat(40);
    let twice: String = text.bytes().map(char::from).collect();
    let f = file_with(dir.path(), "m.txt", twice.as_bytes());
    let out = stdout_of(["detect", &f], 0);
    let line = out.lines().nth(1).unwrap();
    // The region runs from the first misread letter to the last (`caf` before it, `me `
    // after it, are ASCII).
    let inner = &text[3..text.len() - 3];
    let shown: String = inner.chars().take(160).collect();
    let more = inner.chars().count() - 160;
    let (start, end) = (3, twice.len() - 3);
    assert_eq!(
        line,
        format!(
            "  mojibake {start}..{end} ({start:#x}..{end:#x}): windows-1252 -> \"{shown}\" ... \
             {more} more characters (--json has them all)"
        )
    );
}

/// `text` in IBM437, for the characters of a DOS menu screen (encoding_rs has no IBM437);
/// the bytes are Python's `text.encode('cp437')`.
fn cp437(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| match c {
            '╔' => 0xC9,
            '═' => 0xCD,
            '╗' => 0xBB,
            '║' => 0xBA,
            '╠' => 0xCC,
            '╣' => 0xB9,
            '╚' => 0xC8,
            '╝' => 0xBC,
            'ü' => 0x81,
            'ä' => 0x84,
            'ß' => 0xE1,
            '░' => 0xB0,
            c if c.is_ascii() => c as u8,
            c => panic!("{c} not in this table"),
        })
        .collect()
}

/// A DOS menu screen with three box-drawing lines, `ü` (81) and `░` (B0) was `Shift_JIS
/// with 1 error` (chardetng confirmed Shift_JIS once its one malformed sequence was left
/// out), and `repair --from auto` wrote half-width katakana: runs of eight or more `CD`
/// are half-width ﾍ eight times over in Shift_JIS, which no text writes, and the box rule
/// outweighs a multi-byte reading with malformed sequences.
#[test]
fn a_dos_menu_screen_with_box_lines_is_ibm437_not_damaged_shift_jis() {
    let line = "═".repeat(26);
    let screen = format!(
        "╔{line}╗\r\n║  Kundenverwaltung v2.1   ║\r\n╠{line}╣\r\n║ 1. Künden anzeigen       ║\r\n\
         ║ 2. Straße ändern         ║\r\n║ 3. Beenden  ░░░░         ║\r\n╚{line}╝\r\n"
    );
    let bytes = cp437(&screen);
    assert_eq!(
        detect_file_human(&bytes),
        "in: IBM437\n  why: 93 UTF-8 errors and few multi-byte characters; DOS code page text: \
         3 box-drawing lines (runs of C4 or CD)\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "dos.txt", &bytes);
    assert_eq!(
        stdout_of(["repair", "--from", "auto", &f, "-o", "-"], 0),
        screen
    );
}

/// German in Mac OS Roman was windows-1252 (`MŸller, Grš§e, CafŽ`): a capital of row
/// 80..9F inside a word (after a letter, before a small one) is no text, so the
/// windows-1252 reading gives none and Mac OS Roman is tried.
#[test]
fn german_in_mac_os_roman_is_macintosh() {
    let text = "Müller, Größe, Café “Müller” – für Sie\r";
    let bytes = encode("macintosh", text);
    assert_eq!(
        detect_file_human(&bytes),
        "in: macintosh\n  why: 9 UTF-8 errors and few multi-byte characters; read as chardetng's \
         guess, windows-1252, it is no text; as macintosh, which chardetng does not know, it is\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "de.txt", &bytes);
    assert_eq!(
        stdout_of(["repair", "--from", "auto", &f, "-o", "-"], 0),
        text
    );
    // windows-1252 text with Š and Ž starting names, Ÿ in capitals, stays so, no doubt.
    let w1252 = encode(
        "windows-1252",
        "Œuvres complètes de L'HAŸ-LES-ROSES, Müller, Größe, très, déjà vu, café, Škoda.\n",
    );
    assert!(detect_file_human(&w1252).starts_with("in: windows-1252\n"));
    assert!(detect_json(&w1252).get("doubt").is_none());
}

/// ISO-8859-15 was windows-1252 without doubt (`12,50 ¤`, `C½ur`): chardetng does not
/// know Latin-9; where the bytes the two read apart stand as its euro sign (beside a
/// number) and letters (in words) would, detect doubts its guess and names the label.
#[test]
fn latin9_prices_and_letters_make_a_doubt_on_windows_1252() {
    let text =
        "nom,ville,prix\n\"Cœur de Lion\",\"Œting\",12,50 €\n\"Šárka Žáková\",\"Brno\",7 €\n\
                \"Mañana\",\"Sevilla\",3 €\n\"Ærø Ødegård\",\"Ålesund\",19 €\n";
    let bytes = encode("iso-8859-15", text);
    let doubt = "8 bytes read as ISO-8859-15 (Latin-9, which chardetng does not know) give the \
                 euro sign beside a number or letters in words where windows-1252 gives signs \
                 (the first at 17: A4 € not ¤, A6 Š not ¦, B4 Ž not ´, BC Œ not ¼, BD œ not ½); \
                 if it is ISO-8859-15, give --from iso-8859-15";
    assert_eq!(
        detect_file_human(&bytes),
        format!(
            "in: windows-1252\n  why: 17 UTF-8 errors and few multi-byte characters; chardetng \
             reads it as windows-1252; {doubt}\n"
        )
    );
    assert_eq!(
        detect_json(&bytes)["doubt"],
        json!(format!("windows-1252: {doubt}"))
    );
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "l9.csv", &bytes);
    let out = run(["repair", "--from", "auto", &f, "-o", "-"], 0);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--from iso-8859-15"));
    assert_eq!(
        stdout_of(["repair", "--from", "iso-8859-15", &f, "-o", "-"], 0),
        text
    );
    // The same text in windows-1252 (its € is 80) has no such byte: no doubt.
    let w1252 = encode("windows-1252", text);
    assert!(detect_json(&w1252).get("doubt").is_none());
}

/// A UTF-8 byte order mark misread as windows-1252 (`ï»¿`, `C3 AF C2 BB C2 BF`) at the
/// start of a CSV was no mojibake: U+FEFF is no character a writer means inside text, but
/// at the start it is the mark. Elsewhere it is left as it is.
#[test]
fn a_misread_byte_order_mark_at_the_start_is_mojibake() {
    let bytes = b"\xc3\xaf\xc2\xbb\xc2\xbfName;Stadt\r\nAnna;Berlin\r\n";
    assert_eq!(
        detect_file_human(bytes),
        "in: UTF-8, 1 mojibake region\n  mojibake 0..6 (0x0..0x6): windows-1252 -> \"\\u{feff}\"\n  \
         why: valid UTF-8: 3 multi-byte characters, no errors; 1 region of UTF-8 read as a legacy \
         encoding (mojibake)\n"
    );
    let v = detect_json(bytes);
    assert_eq!(
        v["mojibake"],
        json!([{"start": 0, "end": 6, "chain": ["windows-1252"], "text": "\u{feff}"}])
    );
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "b.csv", bytes);
    assert_eq!(
        stdout_of(["repair", "--mojibake", &f, "-o", "-"], 0),
        "\u{feff}Name;Stadt\r\nAnna;Berlin\r\n"
    );
    // Misread twice, and after a real byte order mark.
    let twice = "ï»¿".bytes().map(char::from).collect::<String>();
    let mut after = b"\xef\xbb\xbf".to_vec();
    after.extend_from_slice(twice.as_bytes());
    after.extend_from_slice(b"a;b\n");
    assert_eq!(
        detect_json(&after)["mojibake"],
        json!([{"start": 3, "end": 15, "chain": ["windows-1252", "windows-1252"], "text": "\u{feff}"}])
    );
    // Inside text, or at the start of a later line, it is left alone.
    let inside = b"Name;Stadt \xc3\xaf\xc2\xbb\xc2\xbf\r\n\xc3\xaf\xc2\xbb\xc2\xbfAnna;Berlin\r\n";
    assert_eq!(detect_json(inside)["mojibake"], json!([]));
}
