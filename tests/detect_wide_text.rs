//! UTF-16 without a byte order mark in any script: the corpus (28 languages, symbols and
//! emoji), each file and each line, encoded by Python's `utf-16-le` and `utf-16-be` codecs
//! (the oracle; Rust's `encode_utf16` where python3 is missing) is named UTF-16LE or
//! UTF-16BE, also where its zero bytes show no pattern (Cyrillic, Greek, CJK fill both
//! bytes of their units). The false positives are counted: binary data (random bytes, an
//! executable, gzip data, PNG images), the corpus in UTF-8 and in the legacy encodings of
//! its scripts are never UTF-16 or UTF-32.

use std::path::Path;

use hexrune::decode::Dialect;
use hexrune::detect::{detect, Detection};
use hexrune::scan::index::{Progress, Summary};

mod common;
mod support;
use common::{python_bytes, NO_ARGS};

fn detected(bytes: &[u8]) -> &'static str {
    regions_of(bytes).0.encoding
}

use common::{corpus_files as corpus, Rng};

/// The corpus's files and each of their lines, with the file's name.
/// Detection of `bytes`, and its regions as (start, end, encoding).
fn regions_of(bytes: &[u8]) -> (Detection, Vec<(usize, usize, &'static str)>) {
    let summary = Summary::build(Dialect::Utf8, bytes, 1, &Progress::new()).unwrap();
    let d = detect(bytes, &summary);
    let got = d
        .regions
        .iter()
        .map(|r| (r.start, r.end, r.encoding))
        .collect();
    (d, got)
}

fn files_and_lines(corpus: &[(String, String)]) -> Vec<(&str, &str)> {
    let mut pieces: Vec<(&str, &str)> = Vec::new();
    for (name, text) in corpus {
        pieces.push((name, text));
        pieces.extend(text.split_inclusive('\n').map(|line| (name.as_str(), line)));
    }
    pieces
}

/// Each of `texts` in UTF-16 of `order` (`le` or `be`), without a BOM, as Python's codec
/// encodes it (one python3 run for all).
fn utf16(texts: &[&str], order: &str) -> Vec<Vec<u8>> {
    wide(texts, &format!("16-{order}"))
}

/// Each of `texts` in `form` (`16-le`, `16-be`, `32-le`, `32-be`), without a BOM, as
/// Python's `utf-` codec of that name encodes it (one python3 run for all).
fn wide(texts: &[&str], form: &str) -> Vec<Vec<u8>> {
    let dialect = match form {
        "16-le" => Dialect::Utf16Le,
        "16-be" => Dialect::Utf16Be,
        "32-le" => Dialect::Utf32Le,
        _ => Dialect::Utf32Be,
    };
    let order = form;
    let ours: Vec<Vec<u8>> = texts
        .iter()
        .map(|t| support::wide::text(dialect, t))
        .collect();
    let code = format!(
        "import sys, json; sys.stdout.write(json.dumps([t.encode('utf-{order}').hex() for t in json.load(sys.stdin)]))"
    );
    let input = serde_json::to_vec(texts).unwrap();
    if let Some(python) = python_bytes(&code, NO_ARGS, &input) {
        let hex: Vec<String> = serde_json::from_slice(&python).unwrap();
        let ours_hex: Vec<String> = ours
            .iter()
            .map(|b| b.iter().map(|x| format!("{x:02x}")).collect())
            .collect();
        assert_eq!(hex, ours_hex, "{order}");
    }
    ours
}

#[test]
fn utf16_without_a_bom_in_every_script_of_the_corpus() {
    let corpus = corpus();
    let pieces = files_and_lines(&corpus);
    let texts: Vec<&str> = pieces.iter().map(|(_, t)| *t).collect();
    let (mut tried, mut missed) = (0, Vec::new());
    for (order, want) in [("le", "UTF-16LE"), ("be", "UTF-16BE")] {
        for ((name, piece), bytes) in pieces.iter().zip(utf16(&texts, order)) {
            tried += 1;
            let got = detected(&bytes);
            if got != want {
                missed.push(format!("{name} {order}: {got} {piece:?}"));
            }
        }
    }
    // 30 files and their 147 lines, in both byte orders.
    assert_eq!((tried, missed.len()), (354, 0), "{missed:#?}");
}

/// The corpus's files and lines in UTF-32LE and UTF-32BE without a BOM (their zero bytes
/// show the pattern in every script), and in UTF-16 and UTF-32 of both byte orders after
/// their BOMs: each named so. A table of numbers has UTF-32's zero bytes too, so the
/// pattern alone no longer names UTF-32: this holds that every text still reads as text.
#[test]
fn utf32_and_text_after_a_bom_in_every_script_of_the_corpus() {
    let corpus = corpus();
    let pieces = files_and_lines(&corpus);
    let texts: Vec<&str> = pieces.iter().map(|(_, t)| *t).collect();
    let (mut tried, mut missed) = (0, Vec::new());
    for (form, want, bom) in [
        ("32-le", "UTF-32LE", &b"\xFF\xFE\x00\x00"[..]),
        ("32-be", "UTF-32BE", b"\x00\x00\xFE\xFF"),
        ("16-le", "UTF-16LE", b"\xFF\xFE"),
        ("16-be", "UTF-16BE", b"\xFE\xFF"),
    ] {
        for ((name, piece), bytes) in pieces.iter().zip(wide(&texts, form)) {
            let with_bom = [bom, &bytes].concat();
            let tries = [(false, with_bom)]
                .into_iter()
                .chain(form.starts_with("32").then_some((true, bytes)));
            for (bare, bytes) in tries {
                tried += 1;
                let got = detected(&bytes);
                if got != want {
                    missed.push(format!("{name} {form} (no BOM: {bare}): {got} {piece:?}"));
                }
            }
        }
    }
    // 30 files and their 147 lines, in four forms after a BOM and two without.
    assert_eq!((tried, missed.len()), (1062, 0), "{missed:#?}");
}

/// The shortest wide texts the zero pattern names (16 bytes: four characters of UTF-32,
/// eight of UTF-16), one word or line without a space or line end among them.
#[test]
fn short_wide_text_is_named_by_its_zero_bytes() {
    let mut wrong = Vec::new();
    for text in ["hi!\n", "hello", "Grüße", "中文文本", "Привет", "Καλημέρα"] {
        for (dialect, want) in [
            (Dialect::Utf32Le, "UTF-32LE"),
            (Dialect::Utf32Be, "UTF-32BE"),
        ] {
            let got = detected(&support::wide::text(dialect, text));
            if got != want {
                wrong.push(format!("{text:?} {want}: {got}"));
            }
        }
    }
    for text in [
        "abcdefgh",
        "Straße\r\n",
        "Grüße aus Köln",
        "a string, and its NUL\u{0}",
    ] {
        for (dialect, want) in [
            (Dialect::Utf16Le, "UTF-16LE"),
            (Dialect::Utf16Be, "UTF-16BE"),
        ] {
            let got = detected(&support::wide::text(dialect, text));
            if got != want {
                wrong.push(format!("{text:?} {want}: {got}"));
            }
        }
    }
    assert_eq!(wrong, Vec::<String>::new());
}

/// gzip data of the corpus's files and PNG images of random pixels, made by Python's gzip
/// and zlib modules; empty where python3 is missing.
fn compressed_samples() -> Vec<(String, Vec<u8>)> {
    const CODE: &str = r#"
import gzip, random, struct, sys, zlib
def chunk(kind, data):
    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
def png(w, h, seed):
    r = random.Random(seed)
    raw = b''.join(b'\0' + bytes(r.getrandbits(8) for _ in range(3 * w)) for _ in range(h))
    head = struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', head) + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')
out = [gzip.compress(open(p, 'rb').read(), mtime=0) for p in sys.argv[1:]]
out += [png(40 + 10 * k, 30, k) for k in range(5)]
for b in out:
    sys.stdout.buffer.write(struct.pack('>I', len(b)) + b)
"#;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
    let mut paths: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path().to_string_lossy().into_owned())
        .collect();
    paths.sort();
    let Some(mut stream) = python_bytes(CODE, &paths, b"") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut k = 0;
    while !stream.is_empty() {
        let len = u32::from_be_bytes(stream[..4].try_into().unwrap()) as usize;
        let name = if k < paths.len() { "gzip" } else { "png" };
        out.push((name.to_string(), stream[4..4 + len].to_vec()));
        stream.drain(..4 + len);
        k += 1;
    }
    out
}

/// Tables of integers, little- and big-endian, 16 and 32 bits, of 16 and of 5000 values:
/// small values (whose high bytes are zero, the zero pattern of UTF-16 or UTF-32) and any
/// value.
fn integer_tables() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut rng = Rng(0x2545_F491_4F6C_DD1D ^ 0xFFFF);
    for (bits, below) in [
        (16, 256u64),
        (16, 1000),
        (16, 1 << 16),
        (32, 256),
        (32, 1000),
        (32, 40_000),
        (32, 70_000),
        (32, 1 << 32),
    ] {
        for order in ["le", "be"] {
            for count in [16usize, 5000] {
                let mut bytes = Vec::new();
                for _ in 0..count {
                    let v = rng.next() % below;
                    match (bits, order) {
                        (16, "le") => bytes.extend((v as u16).to_le_bytes()),
                        (16, _) => bytes.extend((v as u16).to_be_bytes()),
                        (_, "le") => bytes.extend((v as u32).to_le_bytes()),
                        _ => bytes.extend((v as u32).to_be_bytes()),
                    }
                }
                out.push((format!("{count} int{bits} {order} below {below}"), bytes));
            }
        }
    }
    out
}

/// Binary data without a zero byte, which is read as UTF-16 without spaces where its
/// controls sit in every other byte: random bytes 01..FF, and random bytes with a control
/// (01..08) in every other one, the shape of UTF-16 whose units spread over U+0100..08FF
/// (Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic ... mixed); 16 to 1024 bytes.
fn zero_free_samples() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    for k in 0..40 {
        let len = 16 + (rng.next() % 1008) as usize;
        let bytes = (0..len).map(|_| 1 + (rng.next() % 255) as u8).collect();
        out.push((format!("zero-free random {k}"), bytes));
        let bytes = (0..len)
            .map(|i| match i % 2 {
                0 => 1 + (rng.next() % 255) as u8,
                _ => 1 + (rng.next() % 8) as u8,
            })
            .collect();
        out.push((format!("zero-free random with controls {k}"), bytes));
    }
    out
}

/// Binary data with many zero bytes: zeros with a little ASCII, string tables inside zero
/// padding and padded to 4 bytes.
fn nul_heavy_samples() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut zeros = vec![0u8; 4096];
    for k in 0..40 {
        let at = (rng.next() % 4000) as usize;
        zeros[at..at + 5].copy_from_slice(format!("v{k:04}").as_bytes());
    }
    out.push(("zeros with some ASCII".to_string(), zeros));
    let names = [
        "main",
        "printf",
        "__libc_start_main",
        "données",
        "имя",
        "名前",
    ];
    let table: Vec<u8> = names
        .iter()
        .flat_map(|n| [n.as_bytes(), b"\0"].concat())
        .collect();
    out.push((
        "a string table in zero padding".to_string(),
        [&[0u8; 256][..], &table, &[0u8; 512]].concat(),
    ));
    let padded: Vec<u8> = names
        .iter()
        .cycle()
        .take(60)
        .flat_map(|n| {
            let mut b = n.as_bytes().to_vec();
            b.resize((b.len() / 4 + 1) * 4, 0);
            b
        })
        .collect();
    out.push(("a string table padded to 4 bytes".to_string(), padded));
    out
}

#[test]
fn binary_data_and_other_text_are_never_utf16_or_utf32() {
    let mut samples: Vec<(String, Vec<u8>)> = Vec::new();
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for (k, len) in [64usize, 300, 4096, 70_000]
        .into_iter()
        .cycle()
        .take(40)
        .enumerate()
    {
        let bytes = (0..len).map(|_| rng.next() as u8).collect();
        samples.push((format!("random {k}"), bytes));
    }
    // An executable: this test itself, and ls where there is one.
    let me = std::env::current_exe().unwrap();
    samples.push(("this test".to_string(), std::fs::read(me).unwrap()));
    if let Ok(ls) = std::fs::read("/bin/ls") {
        samples.push(("/bin/ls".to_string(), ls));
    }
    let compressed = compressed_samples();
    let python = !compressed.is_empty();
    samples.extend(compressed);
    samples.extend(nul_heavy_samples());
    samples.extend(integer_tables());
    samples.extend(zero_free_samples());
    let wrong: Vec<String> = samples
        .iter()
        .map(|(name, bytes)| (name, detected(bytes)))
        .filter(|(_, got)| *got != "binary")
        .map(|(name, got)| format!("{name}: {got}"))
        .collect();
    assert_eq!(wrong, Vec::<String>::new());
    if python {
        // 40 random, 1 or 2 executables, 30 gzip files, 5 images, zeros with ASCII, 2
        // string tables, 32 tables of integers and 80 inputs without a zero byte.
        assert!(matches!(samples.len(), 191 | 192), "{}", samples.len());
    }
    // The corpus in UTF-8 (each file) and its lines in the legacy encodings that have
    // them (no zero byte, which the spaces and line ends of UTF-16 text have): never wide.
    let (mut tried, mut wide) = (0, Vec::new());
    for (name, text) in corpus() {
        tried += 1;
        assert_eq!(detected(text.as_bytes()), "UTF-8", "{name}");
        for line in text.split_inclusive('\n') {
            for label in [
                "GBK",
                "EUC-KR",
                "Shift_JIS",
                "Big5",
                "windows-1251",
                "windows-1253",
            ] {
                let e = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
                let (bytes, _, unmappable) = e.encode(line);
                if unmappable {
                    continue;
                }
                tried += 1;
                let got = detected(&bytes);
                if got.starts_with("UTF-16") || got.starts_with("UTF-32") {
                    wide.push(format!("{name} in {label}: {got} {line:?}"));
                }
            }
        }
    }
    println!("{tried} texts, {} wide", wide.len());
    assert_eq!((tried, wide.len()), (119, 0), "{wide:#?}");
}

/// The words of the corpus (and, shorter, of each of its lines) as records that NUL bytes
/// end, as `find -print0`, `xargs -0` and `/proc/PID/environ` write them: UTF-8, not binary
/// (each was binary while more than 1% NUL bytes made any input binary).
#[test]
fn nul_separated_records_of_utf8_text_are_utf8() {
    let (mut tried, mut wrong) = (0, Vec::new());
    for (name, text) in corpus() {
        let mut pieces: Vec<&str> = vec![&text];
        pieces.extend(text.lines().filter(|l| l.split_whitespace().count() >= 2));
        for piece in pieces {
            let records: Vec<u8> = piece
                .split_whitespace()
                .flat_map(|w| [w.as_bytes(), b"\0"].concat())
                .collect();
            if records.len() < 16 {
                continue;
            }
            tried += 1;
            let got = detected(&records);
            if got != "UTF-8" {
                wrong.push(format!("{name}: {got} {piece:?}"));
            }
        }
    }
    assert_eq!((tried, wrong.len()), (166, 0), "{wrong:#?}");
}

/// UTF-16 without a zero byte: the corpus's lines with their spaces, line ends and other
/// ASCII taken out (a line of one long word), 8 characters or more. Where the script puts
/// a control in the high byte of its units (Greek 03, Cyrillic 04, Hebrew 05, Arabic 06)
/// it is named, and where it is Chinese or Japanese, whose controls are low bytes (`気`,
/// U+6C17, is `17 6C` in UTF-16LE); the others (Devanagari, Latin with diacritics, a line
/// of Hangul with no control byte) are not asked, since nothing in their bytes then says
/// UTF-16: a legacy double-byte encoding's text looks the same.
#[test]
fn utf16_without_a_zero_byte_where_its_high_bytes_are_controls() {
    let mut squeezed: Vec<(String, String)> = Vec::new();
    for (name, text) in corpus() {
        for line in text.lines() {
            let s: String = line.chars().filter(|c| !c.is_ascii()).collect();
            if s.chars().count() >= 8 {
                squeezed.push((name.clone(), s));
            }
        }
    }
    let texts: Vec<&str> = squeezed.iter().map(|(_, t)| t.as_str()).collect();
    let (mut tried, mut found, mut missed) = (0, 0, Vec::new());
    for (form, want) in [("16-le", "UTF-16LE"), ("16-be", "UTF-16BE")] {
        for ((name, text), bytes) in squeezed.iter().zip(wide(&texts, form)) {
            // Latin-1's letters (é is E9 00) have a zero byte: not this shape.
            if bytes.contains(&0) {
                continue;
            }
            tried += 1;
            let got = detected(&bytes);
            if got.starts_with("UTF-16") || got.starts_with("UTF-32") {
                assert_eq!(got, want, "{name} {text:?}");
                found += 1;
            } else if ["ar", "el", "he", "ru", "uk", "zh", "ja"].contains(&name.as_str()) {
                missed.push(format!("{name} {form}: {got} {text:?}"));
            }
        }
    }
    // 40 lines in both byte orders; those of Arabic, Greek, Hebrew, Russian, Ukrainian,
    // Chinese and Japanese all found, and Korean lines with a control byte.
    assert_eq!((tried, found, missed.len()), (80, 60, 0), "{missed:#?}");
}

/// A UTF-16 block inside UTF-8 (a file in UTF-16 pasted into a UTF-8 one): each corpus
/// file, in both byte orders, between two paragraphs of UTF-8, is found as a region of its
/// own with its exact offsets. Latin-script blocks were found by their zero bytes; the
/// others (Cyrillic, Greek, CJK ...), whose zero bytes are only their spaces and line
/// ends, were not (they were binary, or UTF-8 with errors in one region).
#[test]
fn a_utf16_block_inside_utf8_is_a_region_in_every_script() {
    let around = "Журнал: запись в UTF-8, до и после вставки. Ça va, ✓\n".repeat(3);
    let corpus = corpus();
    let texts: Vec<&str> = corpus.iter().map(|(_, t)| t.as_str()).collect();
    let (mut tried, mut missed) = (0, Vec::new());
    for (form, want) in [("16-le", "UTF-16LE"), ("16-be", "UTF-16BE")] {
        for ((name, _), block) in corpus.iter().zip(wide(&texts, form)) {
            tried += 1;
            let bytes = [around.as_bytes(), &block, around.as_bytes()].concat();
            let (d, got) = regions_of(&bytes);
            let a = around.len();
            let b = a + block.len();
            let expected = vec![(0, a, "UTF-8"), (a, b, want), (b, bytes.len(), "UTF-8")];
            if got != expected {
                missed.push(format!("{name} {form}: {} {got:?}", d.encoding));
            }
        }
    }
    // All 60. Three were missed while lines were cut at every byte 0A, also one inside a
    // unit (`上` is U+4E0A: zh in both byte orders; zh in UTF-16LE was binary, its
    // controls outside any wide region), and while UTF-16BE's line feed (00 0A) counted
    // against the zero pattern of a line of box drawing (symbols in UTF-16BE, 9 regions).
    assert_eq!((tried, missed.len()), (60, 0), "{missed:#?}");
}

/// A byte 0A inside a UTF-16 code unit is no line end: `上` (U+4E0A) is `0A 4E` in
/// UTF-16LE and `4E 0A` in UTF-16BE. Chinese lines with it, between UTF-8 lines, are one
/// region with their exact offsets (they were cut there: binary in UTF-16LE, 5 regions in
/// UTF-16BE).
#[test]
fn a_0a_byte_inside_a_utf16_unit_does_not_cut_the_region() {
    let around = "Journal en UTF-8 : déjà vu, ça va ✓\n".repeat(3);
    let text = "我们上午去上海看朋友。\n天气很好，大家都很高兴。\n上海的夜景非常美丽。\n";
    for (dialect, name, inside) in [
        (Dialect::Utf16Le, "UTF-16LE", [0x0A, 0x4E]),
        (Dialect::Utf16Be, "UTF-16BE", [0x4E, 0x0A]),
    ] {
        let block = support::wide::text(dialect, text);
        let (a, b) = (around.len(), around.len() + block.len());
        assert_eq!((a, b), (123, 195), "{name}");
        // The units of `上` (at 4 and 10, and the first of the third line), each a 0A
        // that is not a line feed.
        let units: Vec<usize> = block
            .chunks(2)
            .enumerate()
            .filter(|(_, u)| *u == inside)
            .map(|(i, _)| a + 2 * i)
            .collect();
        assert_eq!(units, [a + 4, a + 10, a + 50], "{name}");
        let bytes = [around.as_bytes(), &block, around.as_bytes()].concat();
        let (d, got) = regions_of(&bytes);
        assert_eq!(
            got,
            [(0, 123, "UTF-8"), (123, 195, name), (195, 318, "UTF-8")],
            "{name}"
        );
        assert_eq!((d.encoding, d.errors), ("UTF-8", 0), "{name}");
    }
}

/// Short ASCII lines beside a UTF-16 block of Chinese whose `上` (`0A 4E` in UTF-16LE,
/// `4E 0A` in UTF-16BE) is cut into ASCII-looking pieces at its `0A`: the lines (5 and 4
/// bytes) are UTF-8 regions of their own, and the pieces stay in the block's region, which
/// is exactly the block's 72 bytes before, between and after them. With the lines it was
/// `binary`; with only the line after it, UTF-16LE was `binary` and UTF-16BE was read
/// whole, the line as two units.
#[test]
fn short_ascii_lines_beside_a_utf16_block_with_0a_inside_units_are_regions_of_their_own() {
    let text = "我们上午去上海看朋友。\n天气很好，大家都很高兴。\n上海的夜景非常美丽。\n";
    let (before, after) = (b"log:\n".as_slice(), b"end\n".as_slice());
    for (dialect, name) in [
        (Dialect::Utf16Le, "UTF-16LE"),
        (Dialect::Utf16Be, "UTF-16BE"),
    ] {
        let block = support::wide::text(dialect, text);
        assert_eq!(block.len(), 72, "{name}");
        for (bytes, expected) in [
            (
                [before, &block, after].concat(),
                vec![(0, 5, "UTF-8"), (5, 77, name), (77, 81, "UTF-8")],
            ),
            (
                [before, &block].concat(),
                vec![(0, 5, "UTF-8"), (5, 77, name)],
            ),
            (
                [&block, after].concat(),
                vec![(0, 72, name), (72, 76, "UTF-8")],
            ),
        ] {
            let (d, got) = regions_of(&bytes);
            assert_eq!(got, expected, "{name}");
            assert_eq!(
                (d.headline(), d.ascii),
                ("UTF-8".to_string(), false),
                "{name}"
            );
        }
    }
}

/// A UTF-16 block inside plain ASCII lines (a Windows tool's output appended to an ASCII
/// log, PowerShell's `>>`): each corpus file, in both byte orders, at the start, in the
/// middle and at the end of ASCII log lines, is a region of its own with its exact offsets
/// in an input named UTF-8 with no errors; the same block alone is still named UTF-16. All
/// were binary or one region of a legacy encoding while ASCII-only lines joined the wide
/// region beside them, whose reading they spoiled.
#[test]
fn a_utf16_block_between_ascii_lines_is_a_region_in_every_script() {
    let ascii = "2024-05-01 12:00:01 INFO job started, writing the report\n".repeat(2);
    let corpus = corpus();
    let texts: Vec<&str> = corpus.iter().map(|(_, t)| t.as_str()).collect();
    let (mut tried, mut missed) = (0, Vec::new());
    for (form, want) in [("16-le", "UTF-16LE"), ("16-be", "UTF-16BE")] {
        for ((name, _), block) in corpus.iter().zip(wide(&texts, form)) {
            let a = ascii.as_bytes();
            let n = a.len() + block.len();
            for (place, bytes, expected) in [
                (
                    "start",
                    [&block, a].concat(),
                    vec![(0, block.len(), want), (block.len(), n, "UTF-8")],
                ),
                (
                    "middle",
                    [a, &block, a].concat(),
                    vec![
                        (0, a.len(), "UTF-8"),
                        (a.len(), n, want),
                        (n, n + a.len(), "UTF-8"),
                    ],
                ),
                (
                    "end",
                    [a, &block].concat(),
                    vec![(0, a.len(), "UTF-8"), (a.len(), n, want)],
                ),
            ] {
                tried += 1;
                let (d, got) = regions_of(&bytes);
                if (d.encoding, d.errors, &got) != ("UTF-8", 0, &expected) {
                    missed.push(format!("{name} {form} {place}: {} {got:?}", d.headline()));
                }
            }
            tried += 1;
            if detected(&block) != want {
                missed.push(format!("{name} {form} alone: {}", detected(&block)));
            }
        }
    }
    assert_eq!((tried, missed.len()), (240, 0), "{missed:#?}");
}

/// Binary data between ASCII lines stays binary: tables of integers, NUL-padded records,
/// random bytes and PNG images have zero bytes and controls too, but no line of them reads
/// as UTF-16 text, so ASCII lines kept apart from wide text do not make them a region.
#[test]
fn binary_data_between_ascii_lines_stays_binary() {
    let ascii: &[u8] = &b"2024-05-01 12:00:01 INFO job started, writing the report\n".repeat(2);
    let mut samples: Vec<(String, Vec<u8>)> = Vec::new();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    samples.push((
        "random".to_string(),
        (0..4096).map(|_| rng.next() as u8).collect(),
    ));
    samples.extend(integer_tables());
    samples.extend(nul_heavy_samples());
    // Records of names padded with NUL bytes to 32 bytes each.
    let records: Vec<u8> = ["alpha", "beta", "gamma record", "delta", "données"]
        .iter()
        .cycle()
        .take(50)
        .flat_map(|n| {
            let mut b = n.as_bytes().to_vec();
            b.resize(32, 0);
            b
        })
        .collect();
    samples.push(("NUL-padded records".to_string(), records));
    let compressed = compressed_samples();
    let python = !compressed.is_empty();
    samples.extend(compressed);
    // 16 integers are too few to call binary beside 114 bytes of text.
    samples.retain(|(_, data)| data.len() >= 1000);
    let mut tried = 0;
    let wrong: Vec<String> = samples
        .iter()
        .flat_map(|(name, data)| {
            [
                (
                    format!("{name} in the middle"),
                    [ascii, data, ascii].concat(),
                ),
                (format!("{name} after"), [ascii, data].concat()),
            ]
        })
        .inspect(|_| tried += 1)
        .map(|(name, bytes)| (name, detected(&bytes)))
        .filter(|(_, got)| *got != "binary")
        .map(|(name, got)| format!("{name}: {got}"))
        .collect();
    assert_eq!(wrong, Vec::<String>::new());
    // Random bytes, 16 tables of 5000 integers, zeros with ASCII, the records, and the 5
    // PNG images (the gzip data of the corpus's files is under 1000 bytes).
    assert_eq!(tried, 2 * if python { 24 } else { 19 });
}

/// UTF-16 without a BOM that starts with an empty line (`"\n".encode('utf-16-le')`, `0A
/// 00`; `00 0A` in UTF-16BE): named by its zero bytes as a whole, one region. UTF-16LE's
/// line feed was taken for an empty line of ASCII before the text, which then lost the
/// whole-file verdict and was read as a UTF-8 byte and a UTF-16BE region (`1..176`).
#[test]
fn utf16_that_starts_with_an_empty_line_is_named_whole() {
    let text = "\nThe quick brown fox jumps over the lazy dog.\nSecond sentence is here, with more words.\n";
    for (form, want) in [("16-le", "UTF-16LE"), ("16-be", "UTF-16BE")] {
        let bytes = wide(&[text], form).remove(0);
        assert_eq!(bytes.len(), 176, "{want}");
        let (d, got) = regions_of(&bytes);
        assert_eq!(got, [(0, 176, want)], "{want}");
        assert_eq!(d.headline(), want);
        assert_eq!(
            d.evidence,
            [
                format!("no byte order mark; zero bytes where {want} puts them"),
                format!("88 code units decode as {want}"),
            ],
            "{want}"
        );
    }
}

/// A last line of ASCII without a line feed at the very end of an ASCII log after a UTF-16
/// block (`[build] done`): a region of its own, UTF-8, and the UTF-16 region the block's
/// bytes exactly (`114..210`, whole code units), in both byte orders, for a short line of
/// an even and of an odd length and for a long one (16 bytes or more), also with a short
/// ASCII line before it. A last line ending in `0A` was cut off already; the short ones
/// without it stayed in the UTF-16 region (`114..222`, `114..223`, an odd length).
/// A last ASCII line whose bytes, read in the block's encoding, are no text (`l ` of `all
/// good` is U+206C in UTF-16LE, a format control) made the whole input `binary`: the line is
/// cut before the block is read, where the rest reads as text.
#[test]
fn an_ascii_last_line_that_reads_as_no_text_in_utf16_is_cut_before_the_block_is_read() {
    let log = "2024-01-01 start build\n2024-01-01 step one ok\n";
    let block = "Привіт світ, це тест.\nДругий рядок тексту.\n";
    for (form, want) in [("16-le", "UTF-16LE"), ("16-be", "UTF-16BE")] {
        let wide_block = wide(&[block], form).remove(0);
        let (a, b) = (log.len(), log.len() + wide_block.len());
        assert_eq!((a, b), (46, 132), "{want}");
        for last in [
            "all good",
            "build done",
            "exit code 0",
            "build finished",
            "all good\nexit 0",
            "[build] done\nall good",
        ] {
            let bytes = [log.as_bytes(), &wide_block, last.as_bytes()].concat();
            assert_eq!(
                regions_of(&bytes).1,
                [
                    (0, 46, "UTF-8"),
                    (46, 132, want),
                    (132, bytes.len(), "UTF-8")
                ],
                "{want} {last:?}"
            );
            // Without the log before it, the input is the block's text, never binary: its
            // tail cut off as above, or (where the whole reads as text, as ASCII bytes
            // read as Han do) read with it, as any input whose head reads so.
            let bytes = [&wide_block[..], last.as_bytes()].concat();
            let (d, got) = regions_of(&bytes);
            assert_eq!((got[0].0, got[0].2), (0, want), "{want} {last:?}");
            assert!(
                got == [(0, 86, want), (86, bytes.len(), "UTF-8")]
                    || got == [(0, bytes.len(), want)],
                "{want} {last:?}: {got:?}"
            );
            assert_ne!(d.headline(), "binary");
        }
    }
}

#[test]
fn an_ascii_last_line_without_a_line_feed_after_a_utf16_block_is_a_region_of_its_own() {
    let log = "2024-05-01 12:00:01 INFO job started, writing the report\n".repeat(2);
    let block = "Das Ergebnis ist fertig.\nZweite Zeile mit Text.\n";
    for (form, want) in [("16-le", "UTF-16LE"), ("16-be", "UTF-16BE")] {
        let wide_block = wide(&[block], form).remove(0);
        let (a, b) = (log.len(), log.len() + wide_block.len());
        assert_eq!((a, b), (114, 210), "{want}");
        for last in [
            "[build] done",
            "[build] done.",
            "[build] finished at 12:00:03",
            "[b] ok\n[build] done",
            "[b] ok\n[b] end",
        ] {
            let bytes = [log.as_bytes(), &wide_block, last.as_bytes()].concat();
            let (d, got) = regions_of(&bytes);
            assert_eq!(
                got,
                [
                    (0, 114, "UTF-8"),
                    (114, 210, want),
                    (210, bytes.len(), "UTF-8")
                ],
                "{want} {last:?}"
            );
            assert_eq!(
                (d.headline(), d.ascii, d.evidence.clone()),
                (
                    "UTF-8".to_string(),
                    false,
                    vec!["mixed: 3 regions in 2 encodings".to_string()]
                ),
                "{want} {last:?}"
            );
        }
        // A last line of Chinese whose bytes are ASCII (`田中` is `30 75 2D 4E` in
        // UTF-16LE, `75 30 4E 2D` in UTF-16BE) after Chinese lines is the block's.
        let zh = wide(
            &["我们今天去公园看朋友。\n天气很好，大家都很高兴。\n田中"],
            form,
        )
        .remove(0);
        assert_eq!(zh.len(), 54, "{want}");
        let bytes = [log.as_bytes(), &zh].concat();
        assert_eq!(
            regions_of(&bytes).1,
            [(0, 114, "UTF-8"), (114, 168, want)],
            "{want}"
        );
    }
}

/// Wide text without a BOM whose first code unit holds a byte `0A`: `上` (U+4E0A) is `0A 4E`
/// in UTF-16LE, `4E 0A` in UTF-16BE, `0A 4E 00 00` in UTF-32LE, and Gurmukhi and Gujarati
/// (U+0A00..0AFF) put a `0A` in every letter. Named whole in all four encodings, with and
/// without a last line feed, and `repair --from auto` gives the text back. The `0A` was taken
/// for the end of a line of ASCII before the text (empty, `.`, or `f(Y)fZN`, the four
/// characters `昨天晚上` in UTF-16BE), which kept the input from being named whole: Chinese
/// and UTF-16BE Gujarati were `binary`, the others `UTF-8` with a UTF-8 region of 1 to 8
/// bytes and a wide one after it, which `repair --from auto` replaced or kept as bytes.
/// The same text with `上` at the start of a later line was named right, and still is.
#[test]
fn wide_text_whose_first_unit_holds_a_0a_byte_is_named_whole() {
    use hexrune::repair::{Collected, Engine, FromEncoding, Invalid, Policy};
    let texts = [
        "上海是中国最大的城市之一，也是世界上人口最多的城市之一。\n北京是中国的首都。",
        "昨天晚上我们去看了电影，大家都很开心。\n明天我们还想再去一次。",
        "ਮੈਂ ਕੱਚ ਖਾ ਸਕਦਾ ਹਾਂ ਅਤੇ ਇਸ ਨਾਲ ਮੈਨੂੰ ਕੋਈ ਸੱਟ ਨਹੀਂ ਲੱਗਦੀ।",
        "ਪੰਜਾਬ ਦੀ ਰਾਜਧਾਨੀ ਚੰਡੀਗੜ੍ਹ ਹੈ ਅਤੇ ਅੰਮ੍ਰਿਤਸਰ ਇੱਕ ਪੁਰਾਣਾ ਸ਼ਹਿਰ ਹੈ।",
        "ગુજરાત ભારતનું એક રાજ્ય છે અને અમદાવાદ તેનું સૌથી મોટું શહેર છે.",
        "હું કાચ ખાઈ શકું છું અને તેનાથી મને દર્દ થતું નથી.",
        // `上` at the start of a later line: named whole before too.
        "北京是中国的首都。\n上海是中国最大的城市之一。",
    ];
    let texts: Vec<String> = texts
        .iter()
        .flat_map(|t| [t.to_string(), format!("{t}\n")])
        .collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let auto = |bytes: &[u8]| {
        let policy = Policy {
            from: Some(FromEncoding::parse("auto").unwrap()),
            invalid: Invalid::Replace,
            ..Policy::default()
        };
        let mut out = Collected::default();
        Engine::for_slice(policy, bytes).map(|mut engine| {
            engine.repair_slice(bytes, &mut out, |_| Ok(())).unwrap();
            String::from_utf8_lossy(&out.bytes).into_owned()
        })
    };
    let (mut tried, mut missed) = (0, Vec::new());
    for (form, want) in [
        ("16-le", "UTF-16LE"),
        ("16-be", "UTF-16BE"),
        ("32-le", "UTF-32LE"),
        ("32-be", "UTF-32BE"),
    ] {
        for (text, bytes) in texts.iter().zip(wide(&texts, form)) {
            tried += 1;
            let (d, got) = regions_of(&bytes);
            let repaired = auto(&bytes);
            if got != [(0, bytes.len(), want)]
                || d.headline() != want
                || repaired.as_deref() != Ok(*text)
            {
                missed.push(format!("{want} {text:?}: {got:?}, repaired {repaired:?}"));
            }
        }
    }
    // All 56. 25 were missed: 7 in UTF-16LE, 12 in UTF-16BE, 6 in UTF-32LE (UTF-32BE puts
    // zero bytes before each 0A, Gujarati in UTF-16LE a byte above 7F).
    assert_eq!((tried, missed.len()), (56, 0), "{missed:#?}");
}

/// A short ASCII first line before UTF-16 text (`ok:`, `[build] start`, `[build] start.`;
/// 4, 14 and 15 bytes with their line feed) is a UTF-8 region of its own, as it was before
/// a `0A` inside wide text's first unit stopped ending such a line: read from the start of
/// the input, its `0A` is half of a unit of other scripts than the text's (a Gurmukhi
/// letter or none, Han before Latin) or the units after it are misaligned. (A `0A 00` right
/// after the 15-byte line, the `00` of UTF-16BE's `D`, was taken for UTF-16LE's line feed
/// for a while: `UTF-16LE with 1 error`.) An even number of ASCII bytes read as UTF-16BE is
/// Han, so before Chinese in UTF-16BE such a line is read as the text's: the bytes alone
/// cannot tell.
#[test]
fn a_short_ascii_first_line_before_utf16_text_is_a_region_of_its_own() {
    let texts = [
        "Das Ergebnis ist fertig.\nZweite Zeile mit Text.\n",
        "我们今天去公园看朋友。\n天气很好，大家都很高兴。\n",
    ];
    for (form, want) in [("16-le", "UTF-16LE"), ("16-be", "UTF-16BE")] {
        for (text, block) in texts.iter().zip(wide(&texts, form)) {
            for first in ["ok:\n", "[build] start\n", "[build] start.\n"] {
                let bytes = [first.as_bytes(), &block].concat();
                let (d, got) = regions_of(&bytes);
                let h = first.len();
                let ambiguous = want == "UTF-16BE" && text.starts_with('我') && h % 2 == 0;
                let (expected, headline) = if ambiguous {
                    (vec![(0, bytes.len(), want)], want)
                } else {
                    (vec![(0, h, "UTF-8"), (h, bytes.len(), want)], "UTF-8")
                };
                assert_eq!(
                    (got, d.headline()),
                    (expected, headline.to_string()),
                    "{want} {first:?} {text:?}"
                );
            }
        }
    }
}

/// Wide text without a BOM and without a last line feed whose last code unit holds a byte
/// `0A` after a unit that holds one too: Gurmukhi that ends in a letter, `ਸ਼ਹਿਰ` (`ਰ`,
/// U+0A30, is `30 0A` in UTF-16LE) or `ਸਕਦਾ` (`ਦਾ` is `26 0A 3E 0A`). Named whole in all four
/// encodings; in UTF-16LE the byte between the two `0A` (`0`, `>`) was taken for a last line
/// of ASCII, and the input was `binary` (the 2 texts of Gurmukhi; Gujarati in UTF-16LE puts
/// a byte above 7F there).
#[test]
fn wide_text_whose_last_unit_holds_a_0a_byte_is_named_whole() {
    let texts = [
        "ਪੰਜਾਬ ਦੀ ਰਾਜਧਾਨੀ ਚੰਡੀਗੜ੍ਹ ਹੈ ਅਤੇ ਅੰਮ੍ਰਿਤਸਰ ਇੱਕ ਪੁਰਾਣਾ ਸ਼ਹਿਰ",
        "ਮੈਂ ਕੱਚ ਖਾ ਸਕਦਾ ਹਾਂ\nਮੈਂ ਪੰਜਾਬੀ ਬੋਲ ਸਕਦਾ",
        "અમદાવાદ ગુજરાતનું સૌથી મોટું શહેર",
        "北京是中国的首都。\n我们明天去上",
    ];
    let (mut tried, mut missed) = (0, Vec::new());
    for (form, want) in [
        ("16-le", "UTF-16LE"),
        ("16-be", "UTF-16BE"),
        ("32-le", "UTF-32LE"),
        ("32-be", "UTF-32BE"),
    ] {
        for (text, bytes) in texts.iter().zip(wide(&texts, form)) {
            tried += 1;
            let (d, got) = regions_of(&bytes);
            if got != [(0, bytes.len(), want)] || d.headline() != want {
                missed.push(format!("{want} {text:?}: {got:?}"));
            }
        }
    }
    assert_eq!((tried, missed.len()), (16, 0), "{missed:#?}");
}

/// A UTF-16 block whose first code unit holds a byte `0A` (`上` is `0A 4E` in UTF-16LE and
/// `4E 0A` in UTF-16BE, Gurmukhi and Gujarati are U+0A00..0AFF) between UTF-8 lines, between,
/// before and after ASCII log lines, and between short ASCII lines: a region with its
/// exact offsets, in an input named UTF-8 without errors. The `0A` was taken for a line
/// end: the block lost its first unit or two to the ASCII region before it (`N\n` of `上`
/// in UTF-16BE, `.\nH\n` of `ਮੈ` in UTF-16LE) or was `binary` (25 of the 30).
#[test]
fn a_utf16_block_whose_first_unit_holds_a_0a_byte_is_a_region_of_its_own() {
    let texts = [
        "上海是中国最大的城市之一，也是世界上人口最多的城市之一。\n北京是中国的首都。\n",
        "ਮੈਂ ਕੱਚ ਖਾ ਸਕਦਾ ਹਾਂ ਅਤੇ ਇਸ ਨਾਲ ਮੈਨੂੰ ਕੋਈ ਸੱਟ ਨਹੀਂ ਲੱਗਦੀ।\n",
        "ગુજરાત ભારતનું એક રાજ્ય છે અને અમદાવાદ તેનું સૌથી મોટું શહેર છે.\n",
    ];
    let utf8 = "Journal en UTF-8 : déjà vu, ça va ✓\n".repeat(3);
    let log = "2024-05-01 12:00:01 INFO job started, writing the report\n".repeat(2);
    let (utf8, log) = (utf8.as_bytes(), log.as_bytes());
    let (before, after) = (b"log:\n".as_slice(), b"end\n".as_slice());
    let (mut tried, mut missed) = (0, Vec::new());
    for (form, want) in [("16-le", "UTF-16LE"), ("16-be", "UTF-16BE")] {
        for (text, block) in texts.iter().zip(wide(&texts, form)) {
            let n = block.len();
            for (place, parts) in [
                ("between UTF-8 lines", [utf8, &block, utf8]),
                ("between log lines", [log, &block, log]),
                ("before log lines", [b"", &block, log]),
                ("after log lines", [log, &block, b""]),
                ("between short lines", [before, &block, after]),
            ] {
                tried += 1;
                let (a, b) = (parts[0].len(), parts[0].len() + n);
                let bytes = parts.concat();
                let expected: Vec<_> = [(0, a, "UTF-8"), (a, b, want), (b, bytes.len(), "UTF-8")]
                    .into_iter()
                    .filter(|(start, end, _)| start < end)
                    .collect();
                let (d, got) = regions_of(&bytes);
                if (d.encoding, d.errors, &got) != ("UTF-8", 0, &expected) {
                    missed.push(format!("{want} {place} {text:?}: {} {got:?}", d.headline()));
                }
            }
        }
    }
    assert_eq!((tried, missed.len()), (30, 0), "{missed:#?}");
}

/// A file of translations without a BOM (a Windows `.rc` or `.strings` export): the corpus's
/// lines taken in turn from each of its 30 files, a line of each language after the other,
/// and the same of its 9 files in non-Latin scripts alone (Arabic, Greek, Hebrew, Hindi,
/// Japanese, Korean, Russian, Ukrainian, Chinese, whose zero bytes are only their spaces
/// and line ends), in all four wide encodings: named whole. Each line is in one or two
/// groups of scripts, the whole in many; read as a whole they were `binary` (`zero bytes
/// where UTF-16LE puts them, but read as UTF-16LE it is no text`). Tables of consecutive
/// integers, whose characters in any run of 64 are of one or two scripts too, stay
/// `binary`: the whole table is not only letters of few scripts but controls,
/// unassigned code points and too few spaces.
#[test]
fn a_file_of_translations_in_many_scripts_is_named_whole() {
    let corpus = corpus();
    let in_turn = |names: &[&str]| {
        let files: Vec<Vec<&str>> = corpus
            .iter()
            .filter(|(name, _)| names.is_empty() || names.contains(&name.as_str()))
            .map(|(_, text)| text.lines().filter(|l| !l.trim().is_empty()).collect())
            .collect();
        let longest = files.iter().map(Vec::len).max().unwrap_or(0);
        let mut out = String::new();
        for i in 0..longest {
            for line in files.iter().filter_map(|f| f.get(i)) {
                out.push_str(line);
                out.push('\n');
            }
        }
        out
    };
    let all = in_turn(&[]);
    let non_latin = in_turn(&["ar", "el", "he", "hi", "ja", "ko", "ru", "uk", "zh"]);
    assert_eq!((all.lines().count(), non_latin.lines().count()), (147, 39));
    let mut missed = Vec::new();
    for (form, want) in [
        ("16-le", "UTF-16LE"),
        ("16-be", "UTF-16BE"),
        ("32-le", "UTF-32LE"),
        ("32-be", "UTF-32BE"),
    ] {
        for (which, bytes) in ["all", "non-Latin"]
            .iter()
            .zip(wide(&[&all, &non_latin], form))
        {
            let (d, got) = regions_of(&bytes);
            if got != [(0, bytes.len(), want)] || d.headline() != want {
                missed.push(format!("{which} {want}: {} {got:?}", d.headline()));
            }
        }
    }
    // All 8 were binary.
    assert_eq!(missed, Vec::<String>::new());
    let mut tables = Vec::new();
    for n in [300u32, 1000, 5000, 30_000, 65_536] {
        for from in [0, 256] {
            let values = from..(from + n).min(65_536);
            let le16: Vec<u8> = values
                .clone()
                .flat_map(|v| (v as u16).to_le_bytes())
                .collect();
            let be16: Vec<u8> = values
                .clone()
                .flat_map(|v| (v as u16).to_be_bytes())
                .collect();
            let le32: Vec<u8> = values.clone().flat_map(u32::to_le_bytes).collect();
            let be32: Vec<u8> = values.clone().flat_map(u32::to_be_bytes).collect();
            for (form, bytes) in [
                ("le16", le16),
                ("be16", be16),
                ("le32", le32),
                ("be32", be32),
            ] {
                tables.push((format!("{form} {values:?}"), detected(&bytes)));
            }
        }
    }
    let wrong: Vec<_> = tables.iter().filter(|(_, got)| *got != "binary").collect();
    assert_eq!((tables.len(), wrong), (40, Vec::new()));
}

/// A NUL byte inside a line of otherwise clean text (a field of a CSV export, a string of
/// CESU-8) is said as such, not as `NUL-separated records`, and does not make CESU-8
/// `binary`; records that NUL bytes end are still said so. No more NUL bytes than line
/// feeds is what tells them apart (`find -print0` writes no line feed).
#[test]
fn a_rare_nul_inside_lines_of_text_is_no_record_separator() {
    let csv = b"id,name,city\n1,Alice,Paris\n2,Bob\x00,Berlin\n3,Carol,Rome\n";
    let (d, got) = regions_of(csv);
    assert_eq!(got, [(0, 54, "UTF-8")]);
    assert_eq!(
        (d.headline(), d.evidence),
        (
            "ASCII (also valid UTF-8)".to_string(),
            vec![
                "every byte is ASCII".to_string(),
                "1 of 54 sampled bytes is NUL (the first at 32), inside a line of text: no more NUL bytes than line feeds, so no NUL-separated records".to_string()
            ]
        )
    );
    // 312 lines of UTF-8 with one NUL in a field: far below 1%.
    let mut big: Vec<u8> = (0..312)
        .flat_map(|k| format!("{k:04},Zoë,Köln\n").into_bytes())
        .collect();
    big.insert(2002, 0);
    let (d, got) = regions_of(&big);
    assert_eq!(got, [(0, 4993, "UTF-8")]);
    assert_eq!(
        (d.headline(), d.evidence),
        (
            "UTF-8".to_string(),
            vec![
                "valid UTF-8: 624 multi-byte characters, no errors".to_string(),
                "1 of 4993 sampled bytes is NUL (the first at 2002), inside a line of text: no more NUL bytes than line feeds, so no NUL-separated records".to_string()
            ]
        )
    );
    // CESU-8 (U+1F600 as a surrogate pair of 3-byte forms) with a NUL in a string.
    let mut cesu = b"Name: \xED\xA0\xBD\xED\xB8\x80 Bob".to_vec();
    cesu.extend(b"\x00 and more text here to be long enough\n");
    let (d, got) = regions_of(&cesu);
    assert_eq!(got, [(0, 55, "CESU-8")]);
    assert_eq!(
        (d.headline(), d.evidence),
        (
            "CESU-8".to_string(),
            vec![
                "not valid UTF-8, but valid CESU-8 (Unicode TR #26): its UTF-8 errors are 1 surrogate pair in 3-byte forms (a character above U+FFFF); read it with --dialect cesu8".to_string(),
                "1 of 55 sampled bytes is NUL (the first at 16), inside a line of text: no more NUL bytes than line feeds, so no NUL-separated records".to_string()
            ]
        )
    );
    // Records, as find -print0 writes them: still records.
    let records = b"./a.txt\x00./b/c.txt\x00./d e.txt\x00";
    let (d, got) = regions_of(records);
    assert_eq!(got, [(0, 28, "UTF-8")]);
    assert_eq!(
        d.evidence,
        [
            "every byte is ASCII",
            "NUL-separated records: 3 of 28 sampled bytes are NUL, each after a record of text (as find -print0 and xargs -0 use them)"
        ]
    );
}

/// Short lines of Chinese, Japanese and Korean in UTF-16 and UTF-32 without a BOM, each
/// ending in a line feed (or CR LF), as Python's codecs encode them. Two kinds were
/// `binary` (`1 of 26 sampled bytes is a control`: `。`, U+3002, is `02 30` in UTF-16LE):
/// lines with katakana's prolonged sound mark ー (U+30FC, a letter of no one script, which
/// counted against the share of letters in few scripts), in all four encodings; and lines
/// of fewer than 8 characters in UTF-16 (too short to be read as text at all), whose bytes
/// that are controls alone are halves of their units. `repair --from auto` writes the
/// line back.
#[test]
fn short_cjk_lines_with_a_line_end_are_wide_text() {
    let long = [
        "コーヒーを一杯ください。",
        "このケーキはとても美味しい。",
        "ラーメンが好きです。",
        "スーパーで野菜を買う。",
    ];
    let short = [
        "请把门关上。",
        "你吃饭了吗？",
        "我喜欢喝茶。",
        "감사합니다.",
        "他每天跑步。",
        "駅はどこ？",
        "고마워요.",
    ];
    let mut texts: Vec<String> = Vec::new();
    for line in long.iter().chain(&short) {
        texts.push(format!("{line}\n"));
        texts.push(format!("{line}\r\n"));
    }
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let mut wrong = Vec::new();
    let mut tried = 0;
    for (form, want) in [
        ("16-le", "UTF-16LE"),
        ("16-be", "UTF-16BE"),
        ("32-le", "UTF-32LE"),
        ("32-be", "UTF-32BE"),
    ] {
        for (text, bytes) in texts.iter().zip(wide(&refs, form)) {
            tried += 1;
            let got = detected(&bytes);
            if got != want {
                wrong.push(format!("{want} {text:?}: {got}"));
            }
        }
    }
    assert_eq!((tried, wrong), (88, Vec::<String>::new()));
    // The review's line, and a short one, with their evidence and repair.
    let cases = [
        (
            "コーヒーを一杯ください。\n",
            "16-le",
            "UTF-16LE",
            "no byte order mark; read as UTF-16LE, the input is text: 11 of 13 characters are letters (Han+Hiragana+Katakana), 1 is a space or line end",
        ),
        (
            "请把门关上。\n",
            "16-le",
            "UTF-16LE",
            "no byte order mark; read as UTF-16LE, the input is text: 5 of 7 characters are letters (Han), 1 is a space or line end; one line ending in UTF-16LE's line feed, its 1 byte that is a control alone is half of one of its units",
        ),
        (
            "감사합니다.\n",
            "16-be",
            "UTF-16BE",
            "no byte order mark; read as UTF-16BE, the input is text: 5 of 7 characters are letters (Hangul), 1 is a space or line end; one line ending in UTF-16BE's line feed, its 1 byte that is a control alone is half of one of its units",
        ),
        (
            "고마워요.\n",
            "16-le",
            "UTF-16LE",
            "no byte order mark; read as UTF-16LE, the input is text: 4 of 6 characters are letters (Hangul), 1 is a space or line end; one line ending in UTF-16LE's line feed",
        ),
    ];
    for (text, form, name, evidence) in cases {
        let bytes = wide(&[text], form).remove(0);
        let (d, _) = regions_of(&bytes);
        let units = bytes.len() / 2;
        assert_eq!(
            (d.headline(), d.evidence),
            (
                name.to_string(),
                vec![
                    evidence.to_string(),
                    format!("{units} code units decode as {name}")
                ]
            )
        );
        assert_eq!(common::repaired_auto(&bytes), text.as_bytes());
    }
}

/// Chinese and Japanese in UTF-16 without a byte order mark, on one line with no line
/// feed: each sentence of the corpus alone, and each file's sentences joined, in both byte
/// orders. Their only zero bytes are those of `一` (U+4E00) and the like, and their
/// controls are low bytes of their units: they were binary. `repair --from auto` writes
/// the text back.
#[test]
fn cjk_paragraphs_on_one_line_are_wide_text() {
    let mut texts: Vec<String> = Vec::new();
    for (name, text) in corpus() {
        if !matches!(name.as_str(), "zh" | "ja") {
            continue;
        }
        let lines: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
        texts.extend(lines.iter().map(|l| l.to_string()));
        texts.push(lines.concat());
    }
    texts.extend(
        [
            "我們下週要去台北參加研討會，請大家準時出席。",
            "他說這個問題需要更多時間來討論。",
            "会議の資料は明日までにメールで送ってください。",
            "駅前の本屋で新しい辞書を買いました。",
            "请在下午三点以前把报告交给经理。",
            "来月から新しいプロジェクトが始まります。",
        ]
        .map(String::from),
    );
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let (mut tried, mut wrong) = (0, Vec::new());
    for (form, want) in [("16-le", "UTF-16LE"), ("16-be", "UTF-16BE")] {
        for (text, bytes) in texts.iter().zip(wide(&refs, form)) {
            tried += 1;
            let got = detected(&bytes);
            if got != want {
                wrong.push(format!("{want} {text:?}: {got}"));
            }
            if got == want {
                assert_eq!(common::repaired_auto(&bytes), text.as_bytes(), "{text}");
            }
        }
    }
    assert_eq!((tried, wrong), (2 * texts.len(), Vec::<String>::new()));
    assert_eq!(texts.len(), 16);
    // One with its evidence.
    let text = "東京都の天気は晴れです";
    let bytes = wide(&[text], "16-le").remove(0);
    let (d, _) = regions_of(&bytes);
    assert_eq!(
        (d.headline(), d.evidence),
        (
            "UTF-16LE".to_string(),
            vec![
                "no byte order mark; read as UTF-16LE, the input is text: 11 of 11 characters are letters (Han+Hiragana), 0 are spaces or line ends; its 1 byte that is a control alone is the low half of one of its units".to_string(),
                "11 code units decode as UTF-16LE".to_string(),
            ]
        )
    );
}
