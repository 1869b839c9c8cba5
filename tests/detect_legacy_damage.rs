//! Legacy text with one bad spot, and short legacy words, against Python's codecs.
//!
//! chardetng drops an encoding at its first malformed sequence: Japanese or Chinese cut
//! inside its last character, or with one stray byte, was named a single-byte encoding and
//! `repair --from auto` wrote mojibake. Short words of Shift_JIS or EUC-KR whose bytes hold
//! a valid UTF-8 character by accident were "UTF-8 with errors". Here each is named as
//! Python's codec wrote it, the evidence says where the reading breaks, and `repair --from
//! auto` writes what Python's `decode(codec, 'replace')` gives (U+FFFD where the reading
//! breaks). The bytes are Python's where python3 runs (and must equal encoding_rs's, which
//! the test uses where it does not); the sentences are the test's own.

use hexrune::decode::Dialect;
use hexrune::detect::{detect, Detection};
use hexrune::scan::index::{Progress, Summary};

mod common;
use common::{python_bytes, repaired_auto as repaired, NO_ARGS};

/// How a sentence is damaged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Damage {
    /// None (a short word and its line feed).
    Whole,
    /// Its last byte cut off (no line feed after it).
    Cut,
    /// A byte `FF` inserted after its third character (a line feed ends it).
    Stray,
}

/// A sentence, the Python codec that writes it, and the encoding detect must name.
struct Case {
    text: &'static str,
    codec: &'static str,
    named: &'static str,
    damage: Damage,
}

const fn case(
    text: &'static str,
    codec: &'static str,
    named: &'static str,
    damage: Damage,
) -> Case {
    Case {
        text,
        codec,
        named,
        damage,
    }
}

/// The damaged sentences: Japanese, Chinese (simplified and traditional) and Korean cut by
/// one byte and with one stray byte; Greek and Thai with one stray byte (`FF` is undefined
/// in windows-1253 and windows-874).
const DAMAGED: [Case; 15] = [
    case(
        "来週の会議の資料を準備しています。",
        "shift_jis",
        "Shift_JIS",
        Damage::Cut,
    ),
    case(
        "駅前の本屋で新しい辞書を買いました。",
        "shift_jis",
        "Shift_JIS",
        Damage::Stray,
    ),
    case(
        "来週の会議の資料を準備しています。",
        "euc_jp",
        "EUC-JP",
        Damage::Cut,
    ),
    case(
        "駅前の本屋で新しい辞書を買いました。",
        "euc_jp",
        "EUC-JP",
        Damage::Stray,
    ),
    case("我们明天早上八点在图书馆见面。", "gbk", "GBK", Damage::Cut),
    case("这家饭店的饺子非常好吃。", "gbk", "GBK", Damage::Stray),
    case(
        "我們明天早上八點在圖書館見面。",
        "big5",
        "Big5",
        Damage::Cut,
    ),
    case("這家飯店的餃子非常好吃。", "big5", "Big5", Damage::Stray),
    case(
        "우리는 내일 아침 도서관에서 만나요",
        "euc_kr",
        "EUC-KR",
        Damage::Cut,
    ),
    case(
        "이 식당의 만두는 정말 맛있어요.",
        "euc_kr",
        "EUC-KR",
        Damage::Stray,
    ),
    case(
        "Αύριο θα πάμε στη θάλασσα με τα παιδιά.",
        "cp1253",
        "windows-1253",
        Damage::Stray,
    ),
    case(
        "Το τρένο για την Αθήνα έφυγε νωρίς.",
        "cp1253",
        "windows-1253",
        Damage::Stray,
    ),
    case(
        "พรุ่งนี้เราจะไปตลาดน้ำด้วยกัน",
        "cp874",
        "windows-874",
        Damage::Stray,
    ),
    case(
        "ฉันชอบอ่านหนังสือที่ห้องสมุด",
        "cp874",
        "windows-874",
        Damage::Stray,
    ),
    case("请把这份文件发给我的同事。", "gbk", "GBK", Damage::Cut),
];

/// Short words whose bytes hold a valid UTF-8 character by accident (and, in Shift_JIS,
/// EUC-JP, Thai and Russian, start with continuation bytes): each and its line feed.
const WORDS: [Case; 7] = [
    case("ありがとう", "shift_jis", "Shift_JIS", Damage::Whole),
    case("こんにちは", "euc_jp", "EUC-JP", Damage::Whole),
    case("부탁합니다", "euc_kr", "EUC-KR", Damage::Whole),
    case("계약서", "euc_kr", "EUC-KR", Damage::Whole),
    case("대구", "euc_kr", "EUC-KR", Damage::Whole),
    case("ขอบคุณครับ", "cp874", "windows-874", Damage::Whole),
    case("Общежитие", "cp866", "IBM866", Damage::Whole),
];

/// The bytes of `c`: `text` in the encoding it is named, damaged, as encoding_rs writes
/// them.
fn ours(c: &Case) -> Vec<u8> {
    let encoding = encoding_rs::Encoding::for_label(c.named.as_bytes()).unwrap();
    let encode = |s: &str| -> Vec<u8> {
        let (bytes, _, unmappable) = encoding.encode(s);
        assert!(!unmappable, "{s} in {}", c.named);
        bytes.into_owned()
    };
    damaged(c, &encode)
}

/// `c`'s text encoded by `encode`, damaged as `c.damage` says.
fn damaged(c: &Case, encode: &dyn Fn(&str) -> Vec<u8>) -> Vec<u8> {
    match c.damage {
        Damage::Whole => encode(&format!("{}\n", c.text)),
        Damage::Cut => {
            let mut b = encode(c.text);
            b.pop();
            b
        }
        Damage::Stray => {
            let third = c.text.char_indices().nth(3).unwrap().0;
            let mut b = encode(&c.text[..third]);
            b.push(0xFF);
            b.extend(encode(&format!("{}\n", &c.text[third..])));
            b
        }
    }
}

/// What encoding_rs's decoding of `bytes` as `named`, with replacement, gives: what
/// `repair --from auto` must write.
fn replaced(named: &str, bytes: &[u8]) -> String {
    let encoding = encoding_rs::Encoding::for_label(named.as_bytes()).unwrap();
    encoding.decode_without_bom_handling(bytes).0.into_owned()
}

/// Python's bytes for each case and its `decode(codec, 'replace')` (`None` where python3
/// is missing), one python3 run for all.
fn python(cases: &[&Case]) -> Option<Vec<(Vec<u8>, String)>> {
    let code = r#"
import sys, json
out = []
for text, codec, damage in json.load(sys.stdin):
    if damage == 'whole':
        b = (text + '\n').encode(codec)
    elif damage == 'cut':
        b = text.encode(codec)[:-1]
    else:
        b = text[:3].encode(codec) + b'\xff' + (text[3:] + '\n').encode(codec)
    out.append([b.hex(), b.decode(codec, 'replace')])
sys.stdout.write(json.dumps(out))
"#;
    let input: Vec<(&str, &str, &str)> = cases
        .iter()
        .map(|c| {
            let damage = match c.damage {
                Damage::Whole => "whole",
                Damage::Cut => "cut",
                Damage::Stray => "stray",
            };
            (c.text, c.codec, damage)
        })
        .collect();
    let answer = python_bytes(code, NO_ARGS, &serde_json::to_vec(&input).unwrap())?;
    let pairs: Vec<(String, String)> = serde_json::from_slice(&answer).unwrap();
    Some(
        pairs
            .into_iter()
            .map(|(hex, text)| {
                let bytes = (0..hex.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                    .collect();
                (bytes, text)
            })
            .collect(),
    )
}

/// Each case's bytes, checked against Python's where python3 runs, and the text `repair
/// --from auto` must write, which Python's decoding with replacement must also give.
fn inputs(cases: &[&Case]) -> Vec<(Vec<u8>, String)> {
    let ours: Vec<(Vec<u8>, String)> = cases
        .iter()
        .map(|c| {
            let b = ours(c);
            let text = replaced(c.named, &b);
            (b, text)
        })
        .collect();
    match python(cases) {
        Some(theirs) => {
            for ((c, o), t) in cases.iter().zip(&ours).zip(&theirs) {
                assert_eq!(o.0, t.0, "{} in {}: Python's bytes", c.text, c.codec);
                assert_eq!(o.1, t.1, "{} in {}: Python's reading", c.text, c.codec);
            }
        }
        None => eprintln!("python3 not found: encoding_rs's bytes and readings only"),
    }
    ours
}

fn detected(bytes: &[u8]) -> Detection {
    let summary = Summary::build(Dialect::Utf8, bytes, 1, &Progress::new()).unwrap();
    detect(bytes, &summary)
}

/// Where the encoding `named` first breaks on `bytes`, and its bytes there.
fn first_malformed(named: &str, bytes: &[u8]) -> (usize, Vec<u8>) {
    let encoding = encoding_rs::Encoding::for_label(named.as_bytes()).unwrap();
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut out = vec![0u8; bytes.len() * 3 + 16];
    let (result, read, _) = decoder.decode_to_utf8_without_replacement(bytes, &mut out, true);
    match result {
        encoding_rs::DecoderResult::Malformed(bad, after) => {
            let end = read - usize::from(after);
            let start = end - usize::from(bad);
            (start, bytes[start..end].to_vec())
        }
        other => panic!("{named} reads {bytes:02X?} without a malformed sequence: {other:?}"),
    }
}

fn hex(bytes: &[u8]) -> String {
    let pairs: Vec<String> = bytes.iter().map(|b| format!("{b:02X}")).collect();
    pairs.join(" ")
}

#[test]
fn one_bad_spot_keeps_the_legacy_encoding_and_says_where_it_is() {
    let cases: Vec<&Case> = DAMAGED.iter().collect();
    let mut wrong = Vec::new();
    for (c, (bytes, text)) in cases.iter().zip(inputs(&cases)) {
        let d = detected(&bytes);
        let (at, bad) = first_malformed(c.named, &bytes);
        let phrase = format!(
            "{} but for 1 malformed sequence at {at} ({})",
            c.named,
            hex(&bad)
        );
        let said = d.evidence.iter().any(|e| e.contains(&phrase));
        if d.encoding != c.named || d.errors != 1 || !said {
            wrong.push(format!("{} {:?} in {}: {d:?}", c.text, c.damage, c.codec));
            continue;
        }
        assert!(text.contains('\u{FFFD}'), "{text}");
        assert_eq!(
            String::from_utf8(repaired(&bytes)).unwrap(),
            text,
            "{} {:?} in {}",
            c.text,
            c.damage,
            c.codec
        );
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn the_evidence_and_the_headline_of_a_cut_line_of_gbk() {
    // "我忘记密码了。" in GBK, cut inside its last character (`A1 A3`).
    let bytes = b"\xCE\xD2\xCD\xFC\xBC\xC7\xC3\xDC\xC2\xEB\xC1\xCB\xA1";
    let d = detected(bytes);
    assert_eq!(d.headline(), "GBK with 1 error");
    assert_eq!(
        d.evidence,
        ["11 UTF-8 errors and few multi-byte characters; chardetng reads it as GBK but for 1 malformed sequence at 12 (A1)"]
    );
    assert_eq!(repaired(bytes), "我忘记密码了\u{FFFD}".as_bytes());
    // 鷗 (EF E3 in JIS X 0213) is outside the WHATWG table: one malformed sequence of
    // two bytes, one U+FFFD, and the character after it whole (Python's cp932 reads E3 as
    // the first byte of the next character instead).
    let ogai = b"\x90X\xEF\xE3\x8AO\x82\xCC\x8F\xAC\x90\xE0\x82\xF0\x93\xC7\x82\xDD\x82\xDC\x82\xB5\x82\xBD\x81B\n";
    let d = detected(ogai);
    assert_eq!(d.encoding, "Shift_JIS");
    assert_eq!(
        d.evidence,
        ["13 UTF-8 errors and few multi-byte characters; chardetng reads it as Shift_JIS but for 1 malformed sequence at 2 (EF E3)"]
    );
    assert_eq!(
        repaired(ogai),
        "森\u{FFFD}外の小説を読みました。\n".as_bytes()
    );
}

#[test]
fn short_legacy_words_are_not_utf8_with_errors() {
    let cases: Vec<&Case> = WORDS.iter().collect();
    let mut wrong = Vec::new();
    for (c, (bytes, text)) in cases.iter().zip(inputs(&cases)) {
        let d = detected(&bytes);
        if d.encoding != c.named || d.errors != 0 {
            wrong.push(format!("{} in {}: {d:?}", c.text, c.codec));
            continue;
        }
        assert_eq!(text, format!("{}\n", c.text));
        assert_eq!(repaired(&bytes), text.as_bytes(), "{}", c.text);
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn utf8_with_the_same_damage_stays_utf8() {
    // The sentences themselves in UTF-8, cut by one byte or with a stray byte: UTF-8 cut
    // short, or with 1 error.
    for c in DAMAGED.iter().chain(&WORDS) {
        let bytes = damaged(c, &|s: &str| s.as_bytes().to_vec());
        let d = detected(&bytes);
        let expected = match c.damage {
            Damage::Whole => "UTF-8",
            Damage::Cut => "UTF-8, cut short at the end",
            Damage::Stray => "UTF-8 with 1 error",
        };
        assert_eq!(d.headline(), expected, "{} {:?}: {d:?}", c.text, c.damage);
    }
}

#[test]
fn a_cut_start_is_said_only_where_the_rest_of_its_line_is_utf8() {
    // ありがとう in Shift_JIS starts 82 A0 82, continuation bytes to UTF-8, but its line
    // goes on with errors: no cut.
    let d = detected(b"\x82\xA0\x82\xE8\x82\xAA\x82\xC6\x82\xA4\n");
    assert_eq!(d.cut.start, 0);
    assert!(
        !d.evidence.iter().any(|e| e.contains("starts inside")),
        "{d:?}"
    );
    // UTF-8 cut inside 世 (E4 B8 96): 96 and then valid UTF-8.
    let d = detected(&[&[0x96][..], "界は広い\n".as_bytes()].concat());
    assert_eq!(d.headline(), "UTF-8, cut short at the start");
    // A word of two Han characters after the same byte is as likely Shift_JIS (`96` and
    // `界`, or `貌熱`): its legacy reading is words of one script, which a cut and one
    // character of UTF-8 do not outweigh.
    assert_eq!(detected(b"\x96\xE7\x95\x8C\n").encoding, "Shift_JIS");
}

#[test]
fn two_characters_of_gbk_are_a_weak_guess_not_utf8() {
    // 发票 in GBK is B7 A2 C6 B1: a cut and `Ʊ` to UTF-8; EUC-JP reads it as well, and
    // chardetng prefers that on four bytes, but the evidence says the guess is weak.
    let d = detected(b"\xB7\xA2\xC6\xB1\n");
    assert_ne!(d.encoding, "UTF-8");
    assert!(
        d.evidence[0].ends_with("a weak guess on 4 non-ASCII bytes"),
        "{d:?}"
    );
}

#[test]
fn a_gbk_region_after_utf8_says_where_its_reading_breaks() {
    let text = "这家饭店的饺子非常好吃。我们明天早上八点在图书馆见面。\n".repeat(3);
    let (gbk, _, _) = encoding_rs::GBK.encode(&text);
    let head = "日志 ✓ 开始\n".as_bytes();
    let bytes = [head, &gbk[..20], &[0xFF], &gbk[20..]].concat();
    let d = detected(&bytes);
    let regions: Vec<_> = d
        .regions
        .iter()
        .map(|r| (r.start, r.end, r.encoding))
        .collect();
    assert_eq!(regions, [(0, 18, "UTF-8"), (18, bytes.len(), "GBK")]);
    assert_eq!(
        d.evidence,
        [
            "mixed: 2 regions in 2 encodings; 87 UTF-8 errors, all in the GBK region",
            "the GBK text reads as GBK but for 1 malformed sequence at 38 (FF)"
        ]
    );
}
