//! Legacy text is judged a line at a time, and a line is judged whole: a block's edge in
//! the middle of a line of GBK, Big5 or EUC-KR does not leave a piece that reads as a
//! character of UTF-8 or two and a stray byte. A number beside CJK letters (`第0行`) is
//! part of the text, and a UTF-16 byte order mark before one word of Cyrillic (valid
//! UTF-8 to the byte, half of it the control `04`) is believed.

use std::fs;
use std::path::Path;

use hexrune::decode::Dialect;
use hexrune::detect::{detect, Detection};
use hexrune::scan::index::{Progress, Summary};

fn detected(bytes: &[u8]) -> Detection {
    let summary = Summary::build(Dialect::Utf8, bytes, 1, &Progress::new()).unwrap();
    detect(bytes, &summary)
}

fn corpus(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/corpus")
        .join(format!("{name}.txt"));
    fs::read_to_string(path).unwrap()
}

/// The encoding and regions of a detection, as `(start, end, encoding)`.
fn regions(d: &Detection) -> Vec<(usize, usize, &'static str)> {
    d.regions
        .iter()
        .map(|r| (r.start, r.end, r.encoding))
        .collect()
}

/// Sentences in traditional Chinese (the corpus's `zh` is simplified, which Big5 lacks).
const TRADITIONAL: &str = "昨天下午我們去公園散步，看到很多人在放風箏。
我的奶奶每天早上都會去菜市場買新鮮的蔬菜。
這本書講的是一個小女孩在山村裡長大的故事。
學習中文最難的部分是記住漢字的寫法和聲調。
";

/// Numbered lines of the sentences in `lang` up to `size` bytes of `label`, after `pad`
/// bytes of ASCII (so the blocks' edges fall elsewhere in the lines).
fn numbered(lang: &str, label: &str, size: usize, pad: usize) -> Vec<u8> {
    let encoding = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
    let text = match lang {
        "zh-Hant" => TRADITIONAL.to_string(),
        _ => corpus(lang),
    };
    let sentences: Vec<String> = text.lines().map(str::to_string).collect();
    let mut out = vec![b'#'; pad];
    out.push(b'\n');
    let mut i = 0;
    while out.len() < size {
        let line = format!("{i}: {}\n", sentences[i % sentences.len()]);
        let (bytes, _, unmappable) = encoding.encode(&line);
        assert!(!unmappable, "{line}");
        out.extend_from_slice(&bytes);
        i += 1;
    }
    out
}

#[test]
fn a_large_file_of_a_multi_byte_encoding_is_one_region_wherever_blocks_cut_its_lines() {
    for (lang, label) in [
        ("zh", "GBK"),
        ("zh-Hant", "Big5"),
        ("ko", "EUC-KR"),
        ("ja", "Shift_JIS"),
    ] {
        for pad in [0, 7, 33, 61] {
            // Five blocks of 64 KiB, four edges inside lines.
            let bytes = numbered(lang, label, 300_000, pad);
            let d = detected(&bytes);
            assert_eq!(
                (d.encoding, regions(&d)),
                (label, vec![(0, bytes.len(), label)]),
                "{label} after {pad} bytes"
            );
        }
    }
}

#[test]
fn a_number_beside_cjk_letters_is_part_of_the_text() {
    let line = "第0行：今天天气很好。\n";
    let (one, _, _) = encoding_rs::GBK.encode(line);
    let d = detected(&one);
    assert_eq!((d.encoding, regions(&d)), ("GBK", vec![(0, 22, "GBK")]));
    let many: String = (0..20_000)
        .map(|i| format!("第{i}行：今天天气很好。\n"))
        .collect();
    let (many, _, _) = encoding_rs::GBK.encode(&many);
    let d = detected(&many);
    assert_eq!(
        (d.encoding, regions(&d)),
        ("GBK", vec![(0, many.len(), "GBK")])
    );
    // UTF-8's `2°C` read as windows-1252 is a sign beside a number: still no text.
    let d = detected("Il fait 2Â°C ce matin, et 5Â°C à midi.\n".as_bytes());
    assert_eq!(d.encoding, "UTF-8");
}

#[test]
fn a_utf16_mark_before_one_word_of_a_script_with_a_zero_free_high_byte_is_believed() {
    for word in ["здравствуйте", "мир", "مرحبا", "สวัสดี", "नमस्ते", "Ελλάδα"]
    {
        for (name, bom, be) in [
            ("UTF-16LE", [0xFF, 0xFE], false),
            ("UTF-16BE", [0xFE, 0xFF], true),
        ] {
            let mut bytes = bom.to_vec();
            for unit in word.encode_utf16() {
                let b = if be {
                    unit.to_be_bytes()
                } else {
                    unit.to_le_bytes()
                };
                bytes.extend_from_slice(&b);
            }
            let d = detected(&bytes);
            assert_eq!(d.encoding, name, "{word} {name}: {:?}", d.evidence);
        }
    }
    // UTF-8 behind the mark stays UTF-8 that the mark contradicts.
    let d = detected(b"\xFF\xFEh\xC3\xA9llo\n");
    assert_eq!(d.encoding, "UTF-8");
}

/// A short line of GBK, EUC-KR or Shift_JIS whose bytes hold as many valid UTF-8
/// characters as errors (`好的。` is `õ`, `ġ` and two errors) is part of the legacy text
/// around it, not a region of UTF-8 that makes the whole file UTF-8 with errors.
#[test]
fn a_short_legacy_line_with_accidental_utf8_is_part_of_its_text() {
    let zh = "今天天气很好，我们去公园散步吧。\n".repeat(300);
    for (text, label) in [
        (format!("{zh}好的。\n"), "GBK"),
        (
            format!("好的。\n{zh}谢谢！\n是的。\n{}", "我们走吧。\n".repeat(100)),
            "GBK",
        ),
        (
            format!(
                "{}알겠습니다.\n맞아요.\n",
                "오늘은 날씨가 정말 좋네요. 공원에 산책하러 갑시다.\n".repeat(200)
            ),
            "EUC-KR",
        ),
    ] {
        let encoding = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
        let (bytes, _, _) = encoding.encode(&text);
        let d = detected(&bytes);
        assert_eq!(
            (d.encoding, regions(&d)),
            (label, vec![(0, bytes.len(), label)]),
            "{label}"
        );
    }
    // Key-value lines and a price: a colon and a number beside letters are text.
    for (text, label) in [
        (
            "이름: 김철수\n성별: 남\n나이: 35\n도시: 서울\n직업: 소프트웨어 엔지니어\n\
             전화: 010-1234-5678\n메모: 농구와 영화를 좋아합니다.\n",
            "EUC-KR",
        ),
        ("价格100元。\n", "GBK"),
    ] {
        let encoding = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
        let (bytes, _, _) = encoding.encode(text);
        assert_eq!(detected(&bytes).encoding, label, "{text}");
    }
}

/// A subtitle file of short GBK lines, each of whose UTF-8 readings is an accident (as many
/// characters as errors), is GBK whole; a file of GBK with real UTF-8 lines after it keeps
/// its UTF-8 region.
#[test]
fn a_file_of_short_legacy_lines_is_legacy_whole() {
    let lines = [
        "好的。",
        "谢谢！",
        "是的。",
        "走吧。",
        "什么？",
        "对不起。",
        "没关系。",
        "你好！",
        "再见。",
        "当然。",
    ];
    let text: String = (1..400)
        .map(|i| {
            format!(
                "{i}\n00:00:{:02},000 --> 00:00:{:02},500\n{}\n\n",
                i % 60,
                (i + 1) % 60,
                lines[(i * 7) % lines.len()]
            )
        })
        .collect();
    let (bytes, _, _) = encoding_rs::GBK.encode(&text);
    let d = detected(&bytes);
    assert_eq!(
        (d.encoding, regions(&d)),
        ("GBK", vec![(0, bytes.len(), "GBK")])
    );

    let sentences = "今天天气很好，我们去公园散步吧。\n".repeat(300);
    let (gbk, _, _) = encoding_rs::GBK.encode(&sentences);
    let bytes = [gbk.to_vec(), "这是一行UTF-8文本。\n".repeat(3).into_bytes()].concat();
    let d = detected(&bytes);
    assert_eq!(
        (d.encoding, regions(&d)),
        (
            "UTF-8",
            vec![(0, 9900, "GBK"), (9900, bytes.len(), "UTF-8")]
        )
    );
}

/// A line of Japanese in Shift_JIS that chardetng names windows-1251 (and, three times
/// over, looked like IBM437's accented letters between the trail bytes `V`, `C` and `B`)
/// is Shift_JIS: its reading has no malformed sequence and is kana and kanji; short lines
/// chardetng names right keep their name.
#[test]
fn a_short_line_of_japanese_in_shift_jis_is_named_so() {
    let lines = [
        "今日はとても良い天気ですね。",
        "ありがとうございます。",
        "駅はどこですか？",
        "明日は雨が降るそうです。",
        "すみません、トイレはどこですか。",
        "日本語を勉強しています。",
    ];
    for line in lines {
        for n in [1, 3] {
            let text = format!("{line}\n").repeat(n);
            let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode(&text);
            let d = detected(&bytes);
            assert_eq!(
                (d.encoding, regions(&d)),
                ("Shift_JIS", vec![(0, bytes.len(), "Shift_JIS")]),
                "{text}"
            );
        }
    }
    let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode("今日はとても良い天気ですね。\n");
    assert_eq!(
        detected(&bytes).evidence[0],
        "13 UTF-8 errors and few multi-byte characters; chardetng reads it as windows-1251; \
         as Shift_JIS it is words of kana and kanji, with no malformed sequence"
    );
}
