//! Files in every encoding hexrune reads, made by encoding_rs itself from real sentences (by
//! Rust's `encode_utf16` and `u32` bytes for UTF-16 and UTF-32, which encoding_rs does not
//! write), read back with `--encoding`: valid, every character counted, the right character
//! at a given offset, and the sentence in `dump`'s text pane.

use hexrune::decode::Dialect;

mod common;
mod support;
use common::{output, output_with_stdin, text};
use support::wide;

/// (label, sentence in a script the encoding holds).
const SINGLE_BYTE: &[(&str, &str)] = &[
    (
        "windows-1252",
        "Voix ambiguë d'un cœur qui, au zéphyr, préfère les jattes de kiwis.",
    ),
    ("ISO-8859-2", "Příliš žluťoučký kůň úpěl ďábelské ódy."),
    ("windows-1250", "Zażółć gęślą jaźń. Árvíztűrő tükörfúrógép."),
    (
        "windows-1251",
        "Съешь же ещё этих мягких французских булок, да выпей чаю.",
    ),
    (
        "KOI8-R",
        "В чащах юга жил бы цитрус? Да, но фальшивый экземпляр!",
    ),
    (
        "KOI8-U",
        "Чуєш їх, доцю, га? Кумедна ж ти, прощайся без ґольфів!",
    ),
    ("ISO-8859-7", "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία."),
    (
        "windows-1253",
        "Τάχιστη αλώπηξ βαφής ψημένη γη, δρασκελίζει υπέρ νωθρού κυνός.",
    ),
    (
        "windows-1254",
        "Pijamalı hasta yağız şoföre çabucak güvendi.",
    ),
    ("windows-1255", "דג סקרן שט בים מאוכזב ולפתע מצא חברה"),
    ("windows-1256", "نص حكيم له سر قاطع وذو شأن عظيم"),
    (
        "windows-1257",
        "Įlinkdama fechtuotojo špaga sublykčiojusi pragręžė apvalų arbūzą.",
    ),
    (
        "windows-1258",
        "Tiê\u{301}ng Viê\u{323}t co\u{301} dâ\u{301}u.",
    ),
    ("windows-874", "เป็นมนุษย์สุดประเสริฐเลิศคุณค่า"),
    (
        "ISO-8859-15",
        "Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter: 10 €.",
    ),
    ("macintosh", "Größe: 10 µm, “quoted” — fin."),
    ("IBM866", "Эх, чужак, общий съём цен шляп (юфть) - вдрызг!"),
    (
        "x-mac-cyrillic",
        "Шеф взъярён тчк щипцы с эхом гудбай Жюль.",
    ),
];

/// The bytes of `text` in `label`, by encoding_rs (every character must be representable).
fn encode(label: &str, text: &str) -> Vec<u8> {
    let encoding = encoding_rs::Encoding::for_label(label.as_bytes()).expect("a label");
    let (bytes, used, unmappable) = encoding.encode(text);
    assert_eq!(used, encoding, "{label}");
    assert!(!unmappable, "{label}: {text} has unmappable characters");
    bytes.into_owned()
}

/// What `hexrune ARGS` prints, whatever its exit code.
fn printed(args: &[&str]) -> String {
    text(output(args).stdout)
}

/// Checks one file: `check --json` says valid with as many units as the sentence has
/// characters and names the encoding; `at` finds the last character.
fn check_file(label: &str, name: &str, bytes: &[u8], text: &str, unit_bytes: usize) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sample.txt");
    std::fs::write(&path, bytes).unwrap();
    let path = path.to_str().unwrap();
    let summary = printed(&["check", "--json", "-e", label, path]);
    // The summary is the last record, after the input record.
    let last = summary.lines().last().unwrap_or_default();
    let record: serde_json::Value = serde_json::from_str(last).expect(&summary);
    assert_eq!(record["valid"], true, "{label}: {summary}");
    assert_eq!(record["encoding"], name, "{label}: {summary}");
    let units: u64 = record["units"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(units as usize, text.chars().count(), "{label}");
    let last = text.chars().last().unwrap();
    let at = printed(&["at", "-e", label, path, &(bytes.len() - 1).to_string()]);
    let unit: serde_json::Value = serde_json::from_str(at.trim()).expect(&at);
    assert_eq!(unit["cp"], last as u32, "{label}: {at}");
    assert_eq!(
        unit["offset"],
        (bytes.len() - unit_bytes) as u64,
        "{label}: {at}"
    );
}

#[test]
fn single_byte_files_made_by_encoding_rs() {
    for (label, text) in SINGLE_BYTE {
        let bytes = encode(label, text);
        assert_eq!(bytes.len(), text.chars().count(), "{label}");
        check_file(label, label, &bytes, text, 1);
        // The text pane shows the sentence (letters, spaces and punctuation: no placeholders).
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.txt");
        std::fs::write(&path, &bytes).unwrap();
        let dump = printed(&["dump", "--width", "32", "-e", label, path.to_str().unwrap()]);
        let shown: String = dump
            .lines()
            .map(|l| l.split("  ").last().unwrap_or_default().to_string())
            .collect();
        let plain: String = text.chars().filter(|c| c.is_alphabetic()).take(8).collect();
        assert!(
            shown
                .chars()
                .filter(|c| c.is_alphabetic())
                .collect::<String>()
                .starts_with(&plain),
            "{label}: {dump}"
        );
    }
}

#[test]
fn dos_code_pages() {
    // encoding_rs has no IBM437: the bytes by hand, from the code page chart.
    let text = "Ça coûte 5 £ ½ ░▒▓";
    let bytes = b"\x80a co\x96te 5 \x9C \xAB \xB0\xB1\xB2";
    check_file("IBM437", "IBM437", bytes, text, 1);
    let text = "Øre ß ©";
    check_file("cp850", "IBM850", b"\x9Dre \xE1 \xB8", text, 1);
}

#[test]
fn utf16_and_utf32_files() {
    let text = "Příliš žluťoučký kůň 😀, 日本語, Ελληνικά 𝄞";
    let le = wide::text(Dialect::Utf16Le, text);
    let be = wide::text(Dialect::Utf16Be, text);
    let le32 = wide::text(Dialect::Utf32Le, text);
    let be32 = wide::text(Dialect::Utf32Be, text);
    // encoding_rs reads the UTF-16 files back to the sentence, as hexrune does.
    assert_eq!(
        encoding_rs::UTF_16LE.decode_without_bom_handling(&le).0,
        text
    );
    assert_eq!(
        encoding_rs::UTF_16BE.decode_without_bom_handling(&be).0,
        text
    );
    check_file("utf-16le", "UTF-16LE", &le, text, 4);
    check_file("UTF-16BE", "UTF-16BE", &be, text, 4);
    check_file("utf-32le", "UTF-32LE", &le32, text, 4);
    check_file("utf32be", "UTF-32BE", &be32, text, 4);
}

#[test]
fn refused_labels_say_why() {
    // One line that says it is not supported, for `check -e` and `repair --from` alike.
    let why = "is not supported: hexrune reads encodings as the WHATWG Encoding Standard \
               defines them, and it maps ISO-2022-KR, ISO-2022-CN and HZ-GB-2312 to its \
               replacement encoding, which has no characters to read\n";
    let out = output(["check", "-e", "iso-2022-kr", "x"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with(&format!(
            "error: invalid value 'iso-2022-kr' for '--encoding <LABEL>': 'iso-2022-kr' {why}"
        )),
        "{stderr}"
    );
    let out = output(["repair", "--from", "HZ-GB-2312", "x", "-o", "y"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with(&format!(
            "error: invalid value 'HZ-GB-2312' for '--from <LABEL>': 'HZ-GB-2312' {why}"
        )),
        "{stderr}"
    );
}

/// (label, name, sentence): the multi-byte legacy encodings.
const MULTI_BYTE: &[(&str, &str, &str)] = &[
    (
        "sjis",
        "Shift_JIS",
        "いろはにほへと　ちりぬるを。カタカナと漢字、ｶﾀｶﾅ。",
    ),
    ("euc-jp", "EUC-JP", "吾輩は猫である。名前はまだ無い。"),
    ("iso-2022-jp", "ISO-2022-JP", "メールの件名：会議のお知らせ"),
    ("euc-kr", "EUC-KR", "다람쥐 헌 쳇바퀴에 타고파."),
    ("gb2312", "GBK", "我能吞下玻璃而不伤身体。"),
    ("gb18030", "gb18030", "我能吞下玻璃而不伤身体𠀀😀"),
    ("big5", "Big5", "我能吞下玻璃而不傷身體。"),
];

#[test]
fn multi_byte_files_made_by_encoding_rs() {
    for (label, name, text) in MULTI_BYTE {
        let encoding = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
        let (bytes, _, unmappable) = encoding.encode(text);
        assert!(!unmappable, "{label}");
        let last = text.chars().last().unwrap().to_string();
        let last_len = encoding.encode(&last).0.len();
        if *name == "ISO-2022-JP" {
            // Escape sequences are units too: ESC $ B at the start, ESC ( B at the end.
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("jis.txt");
            std::fs::write(&path, &bytes).unwrap();
            let summary = printed(&["check", "--json", "-e", label, path.to_str().unwrap()]);
            assert!(summary.contains("\"valid\":true"), "{summary}");
            assert!(
                summary.contains("\"units\":{\"1\":0,\"2\":14,\"3\":2,"),
                "{summary}"
            );
            continue;
        }
        check_file(label, name, &bytes, text, last_len);
    }
}

/// `dump` of a multi-byte stream from any offset equals the dump of the same file from a
/// memory map, on text with no sync byte for a long way (hiragana in Shift_JIS) and a
/// stray lead byte that shifts every pair after it.
#[test]
fn streamed_multi_byte_dumps_agree() {
    let text = "あいうえおかきくけこ、漢字とひらがな。".repeat(6_000);
    let mut bytes = encoding_rs::SHIFT_JIS.encode(&text).0.into_owned();
    bytes.insert(100_001, 0x82);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sjis.txt");
    std::fs::write(&path, &bytes).unwrap();
    for offset in ["3", "100000", "0x20001"] {
        let args = [
            "dump", "-e", "sjis", "--offset", offset, "--length", "70000",
        ];
        let from_file = printed(&[&args[..], &[path.to_str().unwrap()]].concat());
        let streamed = output_with_stdin(args, bytes.clone());
        let streamed = String::from_utf8(streamed.stdout).unwrap();
        assert!(from_file.lines().count() > 4000, "{offset}");
        assert!(
            from_file == streamed,
            "sjis from {offset}: the stream differs"
        );
    }
    // Past the stray lead, the pairing is shifted: `82 A0` (あ) is read as `A0` ... no more.
    let at = printed(&["at", "-e", "sjis", path.to_str().unwrap(), "100003"]);
    let unit: serde_json::Value = serde_json::from_str(at.trim()).unwrap();
    let want = hexrune::encoding::resolve("sjis")
        .unwrap()
        .units(&bytes)
        .find(|u| u.contains(100_003))
        .unwrap();
    assert_eq!(unit["offset"], want.start as u64, "{at}");
    assert_eq!(unit["len"], want.len as u64, "{at}");
}

/// `dump` of a UTF-16 or UTF-32 stream from an odd offset equals the dump of the same file
/// from a memory map: the stream's buffer keeps code units aligned however it is cut.
#[test]
fn streamed_wide_dumps_stay_aligned() {
    let text = "Příliš žluťoučký kůň 😀 ".repeat(20_000);
    let le = wide::text(Dialect::Utf16Le, &text);
    let be32 = wide::text(Dialect::Utf32Be, &text);
    let dir = tempfile::tempdir().unwrap();
    for (label, bytes) in [("utf16le", &le), ("utf32be", &be32)] {
        let path = dir.path().join(label);
        std::fs::write(&path, bytes).unwrap();
        for offset in ["3", "5", "0x8001"] {
            let args = [
                "dump", "-e", label, "--offset", offset, "--length", "300000",
            ];
            let from_file = printed(&[&args[..], &[path.to_str().unwrap()]].concat());
            let streamed = output_with_stdin(args, bytes.clone());
            let streamed = String::from_utf8(streamed.stdout).unwrap();
            assert!(!from_file.contains('✗'), "{label} {offset}");
            assert!(
                from_file == streamed,
                "{label} from {offset}: the stream differs"
            );
        }
    }
}
