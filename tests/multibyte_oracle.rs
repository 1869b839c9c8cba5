//! The multi-byte legacy encodings against encoding_rs, their oracle.
//!
//! For Shift_JIS, EUC-JP, ISO-2022-JP, EUC-KR, GBK, gb18030 and Big5, over random inputs
//! (biased toward each encoding's lead and trail bytes, escape sequences and ASCII) and over
//! real sentences encoded by encoding_rs:
//!
//! - the units partition the input (each starts where the one before ended, the last ends
//!   at the end);
//! - their text (each scalar, both code points of a Big5 pair that has two, nothing for an
//!   escape sequence, U+FFFD for an error) is encoding_rs's decoding with replacement;
//! - the error units are exactly the malformed sequences encoding_rs's streaming decoder
//!   reports (`DecoderResult::Malformed(bad, consumed_after)`), byte for byte;
//! - the unit containing any offset, found by resync (with or without a checkpoint hint),
//!   is the unit decoding from the start gives.

use hexrune::decode::{Checkpoint, Dialect, Unit};
use hexrune::encoding::resolve;
use proptest::prelude::*;

const LABELS: [&str; 7] = [
    "Shift_JIS",
    "EUC-JP",
    "ISO-2022-JP",
    "EUC-KR",
    "GBK",
    "gb18030",
    "Big5",
];

fn dialect(label: &str) -> Dialect {
    let d = resolve(label).unwrap();
    assert!(d.multi_byte().is_some(), "{label}");
    d
}

fn encoding(label: &str) -> &'static encoding_rs::Encoding {
    encoding_rs::Encoding::for_label(label.as_bytes()).unwrap()
}

/// hexrune's text of `bytes`.
fn text(d: Dialect, bytes: &[u8], units: &[Unit]) -> String {
    let table = d.multi_byte().unwrap();
    let mut out = String::new();
    for u in units {
        let (chars, n) = table.text(bytes, u);
        out.extend(&chars[..n]);
    }
    out
}

/// The malformed sequences encoding_rs reports, as byte ranges.
fn oracle_errors(label: &str, bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut decoder = encoding(label).new_decoder_without_bom_handling();
    let mut out = vec![0u16; bytes.len() * 2 + 16];
    let (mut pos, mut found) = (0, Vec::new());
    loop {
        let (result, read, _) =
            decoder.decode_to_utf16_without_replacement(&bytes[pos..], &mut out, true);
        pos += read;
        match result {
            encoding_rs::DecoderResult::InputEmpty => return found,
            encoding_rs::DecoderResult::OutputFull => panic!("output sized for the input"),
            encoding_rs::DecoderResult::Malformed(bad, after) => {
                let end = pos - after as usize;
                found.push((end - bad as usize, end));
            }
        }
    }
}

fn check(label: &str, bytes: &[u8]) {
    let d = dialect(label);
    let units: Vec<Unit> = d.units(bytes).collect();
    let mut at = 0;
    for u in &units {
        assert_eq!(u.start, at, "{label}: units must tile {bytes:02X?}");
        assert!(u.len >= 1);
        at = u.end();
    }
    assert_eq!(at, bytes.len(), "{label}");
    let theirs = encoding(label).decode_without_bom_handling(bytes).0;
    assert_eq!(text(d, bytes, &units), theirs, "{label}: {bytes:02X?}");
    let errors: Vec<(usize, usize)> = units
        .iter()
        .filter(|u| u.is_error())
        .map(|u| (u.start, u.end()))
        .collect();
    assert_eq!(errors, oracle_errors(label, bytes), "{label}: {bytes:02X?}");
    for offset in 0..bytes.len() {
        let want = units.iter().find(|u| u.contains(offset)).unwrap();
        assert_eq!(d.unit_containing(bytes, offset), *want, "{label} @{offset}");
        // A checkpoint hint (any unit boundary at or before the offset) gives the same.
        let before = units.iter().filter(|u| u.start <= offset).count() / 2;
        let mut iter = d.units(bytes);
        for _ in 0..before {
            iter.next();
        }
        let hint: Checkpoint = iter.checkpoint();
        assert_eq!(
            d.resync(bytes, offset, Some(hint)).unit,
            *want,
            "{label} @{offset}"
        );
    }
}

/// Bytes biased toward what makes each encoding's sequences: leads, trails, digits (gb18030),
/// escape sequences (ISO-2022-JP), ASCII, and anything.
fn input() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        3 => (0x81u8..=0xFE, 0x40u8..=0xFE).prop_map(|(a, b)| vec![a, b]),
        2 => (0xA1u8..=0xFE, 0xA1u8..=0xFE).prop_map(|(a, b)| vec![a, b]),
        1 => (0x81u8..=0x84, 0x30u8..=0x39, 0x81u8..=0xFE, 0x30u8..=0x39)
            .prop_map(|(a, b, c, e)| vec![a, b, c, e]),
        1 => (0x90u8..=0xE3, 0x30u8..=0x39, 0x81u8..=0xFE, 0x30u8..=0x39)
            .prop_map(|(a, b, c, e)| vec![a, b, c, e]),
        1 => (0x8Fu8..=0x8F, 0xA1u8..=0xFE, 0xA1u8..=0xFE).prop_map(|(a, b, c)| vec![a, b, c]),
        2 => prop::sample::select(vec![
            b"\x1b(B".to_vec(), b"\x1b(J".to_vec(), b"\x1b(I".to_vec(),
            b"\x1b$@".to_vec(), b"\x1b$B".to_vec(), b"\x1b(".to_vec(), b"\x1b".to_vec(),
        ]),
        2 => (0x21u8..=0x7E, 0x21u8..=0x7E).prop_map(|(a, b)| vec![a, b]),
        2 => (0u8..0x80).prop_map(|b| vec![b]),
        2 => any::<u8>().prop_map(|b| vec![b]),
    ];
    prop::collection::vec(piece, 0..24).prop_map(|p| p.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn random_inputs_match_encoding_rs(bytes in input(), which in 0..LABELS.len()) {
        check(LABELS[which], &bytes);
    }
}

/// Real text in each encoding's languages.
const SENTENCES: [(&str, &str); 7] = [
    ("Shift_JIS", "日本語の文章です。ひらがな、カタカナ、漢字が混ざっています。半角ｶﾀｶﾅも。\n東京都新宿区で２０２４年に会議が開かれた。"),
    ("EUC-JP", "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。\n何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。"),
    ("ISO-2022-JP", "メールの本文は ISO-2022-JP で送られることが多かった。\n件名：会議のお知らせ　ｶﾀｶﾅ ¥100"),
    ("EUC-KR", "대한민국은 민주공화국이다. 모든 사람은 자유롭고 평등하게 태어났다.\n한글은 세종대왕이 만들었다."),
    ("GBK", "中华人民共和国成立于一九四九年。我们在北京学习汉语，天气很好。\n欧元符号€和全角标点，。"),
    ("gb18030", "中文文本包含𠀀扩展字符与藏文ཀ以及蒙古文ᠠ，还有表情😀。\n简体与繁體混排。"),
    ("Big5", "中華民國的國語是正體中文。我們在臺北學習漢字，天氣很好。\n香港與臺灣都使用繁體字。"),
];

#[test]
fn real_text_round_trips() {
    for (label, sentence) in SENTENCES {
        let (bytes, used, unmappable) = encoding(label).encode(sentence);
        assert_eq!(used, encoding(label), "{label}");
        assert!(!unmappable, "{label}: every character is in the encoding");
        check(label, &bytes);
        let d = dialect(label);
        assert!(d.units(&bytes).all(|u| !u.is_error()), "{label}");
        // What a search looks for: bytes that decode back to the character alone.
        for c in sentence
            .chars()
            .filter(|c| label != "ISO-2022-JP" || c.is_ascii())
        {
            let encoded = d.encode(hexrune::decode::CodePoint::new(c as u32)).unwrap();
            let back = encoding(label)
                .decode_without_bom_handling(encoded.as_bytes())
                .0;
            assert_eq!(back, c.to_string(), "{label}: {c}");
        }
        // Cut anywhere, and with bytes spliced in: still equal to encoding_rs.
        for cut in (0..bytes.len()).step_by(7) {
            check(label, &bytes[cut..]);
            let mut spliced = bytes.to_vec();
            spliced.insert(cut, 0x82);
            check(label, &spliced);
        }
    }
}

#[test]
fn big5_pairs_with_two_code_points() {
    let bytes = b"\x88\x62\x88\x64\x88\x66";
    check("Big5", bytes);
    let d = dialect("Big5");
    assert_eq!(d.units(bytes).count(), 3);
}
