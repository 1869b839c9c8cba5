//! A whole-file verdict of IBM437 or IBM850 where the evidence says DOS code page text
//! (box drawing in lines, accented letters where DOS puts them inside words), and never for
//! text in the web's single-byte encodings. The DOS files are made by oem_cp from the
//! corpus's own sentences; the others by encoding_rs.

use std::fs;
use std::path::Path;

use hexrune::decode::Dialect;
use hexrune::detect::{detect, Detection};
use hexrune::scan::index::{Progress, Summary};

mod common;

fn corpus(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/corpus")
        .join(format!("{name}.txt"));
    fs::read_to_string(path).unwrap()
}

fn detected(bytes: &[u8]) -> Detection {
    let summary = Summary::build(Dialect::Utf8, bytes, 1, &Progress::new()).unwrap();
    detect(bytes, &summary)
}

/// `text`'s lines that the code page has, encoded by oem_cp (typographic quotes as the
/// plain ones a DOS editor had).
fn oem(text: &str, table: &oem_cp::OEMCPHashMap<char, u8>) -> Vec<u8> {
    let mut out = Vec::new();
    for line in text.lines() {
        let plain = line.replace(['’', '‘'], "'").replace(['“', '”'], "\"");
        if let Some(bytes) = oem_cp::encode_string_checked(&plain, table) {
            out.extend(bytes);
            out.extend(b"\r\n");
        }
    }
    out
}

const LATIN: [&str; 8] = ["fr", "de", "es", "it", "pt", "nl", "da", "sv"];

#[test]
fn real_sentences_in_dos_code_pages() {
    use oem_cp::code_table::{ENCODING_TABLE_CP437, ENCODING_TABLE_CP850};
    let mut got = Vec::new();
    for lang in LATIN {
        let text = corpus(lang);
        for (table, page) in [(&ENCODING_TABLE_CP437, 437), (&ENCODING_TABLE_CP850, 850)] {
            let d = detected(&oem(&text, table));
            got.push(format!("{lang} {page}: {}", d.headline()));
        }
    }
    // Where the two pages agree on every byte of the text (é, è, à, ü, ñ ...), IBM437;
    // Portuguese ã õ and Danish ø, Ø exist in IBM850 only. Italian accents stand at the
    // ends of words and Dutch has few: too little evidence for DOS. With errors and no
    // multi-byte character they are no UTF-8 either (`check` says probably not), so they
    // get the nearest guess: chardetng's, or macintosh where that one gives no text and
    // Mac OS Roman reads the bytes as letters inside words of their case (Italian 437's
    // `8A` è is ä there). Portuguese and Danish in IBM437 lose every line with ã or ø (the
    // page lacks them), leaving nothing: an empty input, ASCII.
    assert_eq!(
        got,
        [
            "fr 437: IBM437",
            "fr 850: IBM437",
            "de 437: IBM437",
            "de 850: IBM437",
            "es 437: IBM437",
            "es 850: IBM437",
            "it 437: macintosh",
            "it 850: windows-1250",
            "pt 437: ASCII (also valid UTF-8)",
            "pt 850: IBM850",
            "nl 437: windows-1252",
            "nl 850: windows-1252",
            "da 437: ASCII (also valid UTF-8)",
            "da 850: IBM850",
            "sv 437: IBM437",
            "sv 850: IBM437",
        ]
    );
}

/// A box-drawing table of ASCII words, as a DOS program printed it: IBM437 with the
/// evidence in words, also through `hexrune detect --json`.
#[test]
fn a_box_drawing_table() {
    let table = "╔══════════╦═══════╗\r\n\
                 ║ Name     ║ Total ║\r\n\
                 ╠══════════╬═══════╣\r\n\
                 ║ Apples   ║    12 ║\r\n\
                 ║ Pears    ║     7 ║\r\n\
                 ╚══════════╩═══════╝\r\n";
    let bytes =
        oem_cp::encode_string_checked(table, &oem_cp::code_table::ENCODING_TABLE_CP437).unwrap();
    assert!(bytes.starts_with(b"\xC9\xCD\xCD"));
    let d = detected(&bytes);
    assert_eq!(d.headline(), "IBM437");
    assert_eq!(
        d.evidence,
        [
            "63 UTF-8 errors and few multi-byte characters; DOS code page text: 6 box-drawing \
          lines (runs of C4 or CD)"
        ]
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("table.txt");
    fs::write(&path, &bytes).unwrap();
    let out = common::output([
        std::ffi::OsStr::new("detect"),
        "--json".as_ref(),
        path.as_os_str(),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["encoding"], "IBM437");
    assert_eq!(v["errors"], 0);
    assert_eq!(v["regions"][0]["encoding"], "IBM437");
}

/// The corpus in every web single-byte encoding that has its lines, each language alone
/// and all together: never a DOS code page.
#[test]
fn web_encodings_are_never_called_dos() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
    let mut names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            e.unwrap()
                .path()
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    let encodings = [
        encoding_rs::WINDOWS_1252,
        encoding_rs::WINDOWS_1250,
        encoding_rs::WINDOWS_1251,
        encoding_rs::WINDOWS_1253,
        encoding_rs::WINDOWS_1254,
        encoding_rs::WINDOWS_1257,
        encoding_rs::ISO_8859_2,
        encoding_rs::ISO_8859_7,
        encoding_rs::ISO_8859_15,
        encoding_rs::MACINTOSH,
        encoding_rs::KOI8_R,
    ];
    let mut checked = 0;
    for e in encodings {
        let mut all = Vec::new();
        for name in &names {
            let mut bytes = Vec::new();
            for line in corpus(name).lines() {
                let (b, _, unmappable) = e.encode(line);
                if !unmappable {
                    bytes.extend_from_slice(&b);
                    bytes.push(b'\n');
                }
            }
            if bytes.iter().any(|b| *b >= 0x80) {
                let d = detected(&bytes);
                assert!(
                    !matches!(d.encoding, "IBM437" | "IBM850"),
                    "{name} {}: {d:?}",
                    e.name()
                );
                checked += 1;
            }
            all.extend(bytes);
        }
        let d = detected(&all);
        assert!(
            !matches!(d.encoding, "IBM437" | "IBM850"),
            "{}: {d:?}",
            e.name()
        );
    }
    assert!(checked > 80, "{checked}");
}

#[test]
fn short_cjk_text_is_never_called_dos() {
    // In Shift_JIS the second byte of a katakana is often an ASCII letter (テ is 83 65):
    // a short line once read as "5 of 5 bytes inside words are IBM437's accented letters".
    let lines = [
        "日本語のテキストです。これは文字化けのテストです。",
        "コンピュータのテストです。",
        "メールのアドレスを入力してください。",
        "ソフトウェアのアップデート",
    ];
    let mut got = Vec::new();
    for line in lines {
        for e in [encoding_rs::SHIFT_JIS, encoding_rs::EUC_JP] {
            let (bytes, _, unmappable) = e.encode(line);
            assert!(!unmappable);
            got.push(format!("{} {}", e.name(), detected(&bytes).headline()));
        }
    }
    assert_eq!(
        got,
        [
            "Shift_JIS Shift_JIS",
            "EUC-JP EUC-JP",
            "Shift_JIS Shift_JIS",
            "EUC-JP EUC-JP",
            "Shift_JIS Shift_JIS",
            "EUC-JP EUC-JP",
            "Shift_JIS Shift_JIS",
            "EUC-JP EUC-JP",
        ]
    );
}
