//! UTF-16 and UTF-32 against independent decoders: encoding_rs's UTF-16LE/BE decoders and
//! Python's `utf-32-le`/`utf-32-be` codecs (run through `python3` when it is installed).
//!
//! Over random inputs biased toward surrogates, hexrune's units must give the same text as
//! the oracle's decoding with replacement: every scalar in order, and one U+FFFD where the
//! oracle replaces (each error unit of hexrune is one U+FFFD; at the very end encoding_rs
//! folds a high surrogate and an odd byte after it into one U+FFFD, which the comparison
//! allows for, and nothing else).

use hexrune::decode::{Dialect, UnitKind};
use proptest::prelude::*;

mod common;
mod support;
use support::wide;

/// hexrune's reading of `bytes` as text: scalars as themselves, each error unit as U+FFFD.
fn text(d: Dialect, bytes: &[u8]) -> String {
    d.units(bytes)
        .map(|u| match u.kind {
            UnitKind::Scalar(cp) => cp.to_char().expect("a UTF-16/32 scalar is a char"),
            UnitKind::Error(_) => '\u{FFFD}',
        })
        .collect()
}

fn utf16_oracle(d: Dialect, bytes: &[u8]) -> String {
    let encoding = match d {
        Dialect::Utf16Le => encoding_rs::UTF_16LE,
        _ => encoding_rs::UTF_16BE,
    };
    encoding.decode_without_bom_handling(bytes).0.into_owned()
}

/// Code units biased toward the interesting ones, in `d`'s byte order, then 0 or 1 byte.
fn utf16_input() -> impl Strategy<Value = (Vec<u16>, Option<u8>)> {
    let unit = prop_oneof![
        4 => 0u16..0xD800,
        2 => 0xD800u16..0xDC00,
        2 => 0xDC00u16..0xE000,
        1 => 0xE000u16..=0xFFFF,
        1 => Just(0xFEFF),
    ];
    (
        proptest::collection::vec(unit, 0..64),
        proptest::option::of(any::<u8>()),
    )
}

fn utf16_bytes(d: Dialect, units: &[u16], tail: Option<u8>) -> Vec<u8> {
    let mut bytes = wide::units(d, units.iter().map(|&u| u32::from(u)));
    bytes.extend(tail);
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn utf16_equals_encoding_rs((units, tail) in utf16_input()) {
        for d in [Dialect::Utf16Le, Dialect::Utf16Be] {
            let bytes = utf16_bytes(d, &units, tail);
            let ours = text(d, &bytes);
            let theirs = utf16_oracle(d, &bytes);
            // encoding_rs replaces a high surrogate followed by the odd last byte with a
            // single U+FFFD; hexrune has two units there (unpaired_high_surrogate,
            // truncated_unit). Nowhere else may they differ.
            let folded = ours.strip_suffix("\u{FFFD}\u{FFFD}").filter(|_| {
                let n = bytes.len();
                n % 2 == 1 && n >= 3 && {
                    let last = match d {
                        Dialect::Utf16Le => u16::from_le_bytes([bytes[n - 3], bytes[n - 2]]),
                        _ => u16::from_be_bytes([bytes[n - 3], bytes[n - 2]]),
                    };
                    (0xD800..0xDC00).contains(&last)
                }
            });
            match folded {
                Some(prefix) => prop_assert_eq!(format!("{prefix}\u{FFFD}"), theirs, "{} {:02X?}", d, bytes),
                None => prop_assert_eq!(ours, theirs, "{} {:02X?}", d, bytes),
            }
        }
    }
}

/// The same comparison on real text: sentences in many scripts, encoded by encoding_rs's
/// own UTF-16 decoder's inverse (Rust's `encode_utf16`, as encoding_rs has no UTF-16
/// encoder), decoded by both.
#[test]
fn utf16_real_text_round_trips() {
    let text_in = "Příliš žluťoučký kůň úpěl ďábelské ódy. Ελληνικά. Съешь же ещё этих мягких \
                   французских булок. 日本語のテキスト。한국어 텍스트. 😀👍🏽 𝄞 𠀀";
    for d in [Dialect::Utf16Le, Dialect::Utf16Be] {
        let units: Vec<u16> = text_in.encode_utf16().collect();
        let bytes = utf16_bytes(d, &units, None);
        assert_eq!(text(d, &bytes), text_in, "{d}");
        assert_eq!(utf16_oracle(d, &bytes), text_in, "{d}");
        assert!(d.units(&bytes).all(|u| !u.is_error()));
        let pairs = d.units(&bytes).filter(|u| u.len == 4).count();
        assert_eq!(
            pairs,
            text_in.chars().filter(|c| *c as u32 > 0xFFFF).count()
        );
    }
}

/// UTF-32 against Python's codecs with `errors="replace"`, on a fixed random sample
/// (python3 is run once for all of it). Skipped, and said so, where python3 is missing.
#[test]
fn utf32_equals_python() {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let values = |r: u64| -> u32 {
        match r % 8 {
            0 => 0xD800 + (r >> 8) as u32 % 0x800,
            1 => 0x11_0000 + (r >> 8) as u32 % 0x1000,
            2 => (r >> 8) as u32,
            3 => 0x1_0000 + (r >> 8) as u32 % 0x10_0000,
            _ => (r >> 8) as u32 % 0xD800,
        }
    };
    let mut cases: Vec<(Dialect, Vec<u8>)> = Vec::new();
    for i in 0..400 {
        let d = if i % 2 == 0 {
            Dialect::Utf32Le
        } else {
            Dialect::Utf32Be
        };
        let n = (next() % 12) as usize;
        let mut bytes = Vec::new();
        for _ in 0..n {
            let v = values(next());
            bytes.extend(wide::units(d, [v]));
        }
        bytes.extend((0..next() % 4).map(|_| next() as u8));
        cases.push((d, bytes));
    }
    let script = "import sys\n\
        for line in sys.stdin:\n\
        \x20   codec, hexbytes = line.split()\n\
        \x20   text = bytes.fromhex(hexbytes[1:]).decode(codec, errors='replace')\n\
        \x20   print(' '.join('%X' % ord(c) for c in text) or '-')\n";
    let input: String = cases
        .iter()
        .map(|(d, bytes)| {
            let codec = if *d == Dialect::Utf32Le {
                "utf-32-le"
            } else {
                "utf-32-be"
            };
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            format!("{codec} x{hex}\n")
        })
        .collect();
    let Some(out) = common::python_bytes(script, common::NO_ARGS, input.as_bytes()) else {
        eprintln!("python3 not found: UTF-32 oracle skipped");
        return;
    };
    let lines: Vec<String> = String::from_utf8(out)
        .expect("ASCII")
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), cases.len());
    for ((d, bytes), theirs) in cases.iter().zip(&lines) {
        let ours: Vec<String> = text(*d, bytes)
            .chars()
            .map(|c| format!("{:X}", c as u32))
            .collect();
        let ours = if ours.is_empty() {
            "-".to_string()
        } else {
            ours.join(" ")
        };
        assert_eq!(&ours, theirs, "{d} {bytes:02X?}");
    }
}
