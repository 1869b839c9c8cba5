//! Grapheme clusters against the whole text's segmentation and against a second,
//! independent implementation of UAX #29: the `\X` of Python's `regex` module, over random
//! text of the code points every rule is about, plus real sequences. `view::cluster` takes
//! its boundaries from unicode-segmentation; this checks that crate and hexrune's mapping
//! of its boundaries to byte offsets together.
//!
//! The `regex` module is not in Python's standard library, so its answers for [`texts`]
//! are vendored in `tests/data/cluster/regex-x.jsonl` (see the README there) and always
//! checked; where `python3 -c 'import regex'` works, the test also asks it live and fails
//! if the vendored file is not what it says now. `HEXRUNE_BLESS_CLUSTERS=1 cargo test
//! --test cluster_oracle` writes the file anew from the live answers.

use std::io::Write;
use std::path::Path;

use hexrune::decode::{Dialect, Unit};
use hexrune::view::cluster::{spans, window_with};
use proptest::prelude::*;
use unicode_segmentation::UnicodeSegmentation;

mod common;
mod support;
use common::{python, python_bytes, NO_ARGS};
use support::wide;

/// Code points that exercise every rule: letters, marks, joiners, pictographs, regional
/// indicators, viramas and consonants, CR and LF, jamo, prepend, spacing marks, selectors
/// (Unicode 11 or older, so that every implementation knows them).
const ALPHABET: [char; 26] = [
    'a',
    'b',
    ' ',
    '\u{301}',
    '\u{200D}',
    '\u{200C}',
    '\u{1F468}',
    '\u{1F469}',
    '\u{1F1EB}',
    '\u{1F1F7}',
    '\u{915}',
    '\u{94D}',
    '\u{937}',
    '\r',
    '\n',
    '\u{1100}',
    '\u{1161}',
    '\u{11A8}',
    '\u{AC00}',
    '\u{FE0F}',
    '\u{1F3FB}',
    '\u{600}',
    '\u{903}',
    '\u{20E3}',
    '\u{93F}',
    '\u{2764}',
];

/// The texts: the real sequences, then 3000 random ones from a fixed seed (xorshift), so that
/// a failure can be replayed and the vendored answers stay valid.
fn texts() -> Vec<String> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out: Vec<String> = [
        "\u{1F1EB}\u{1F1F7}",
        "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}",
        "1\u{FE0F}\u{20E3}",
        "\u{1112}\u{1161}\u{11AB}",
        "\u{915}\u{94D}\u{937}",
        "a\r\nb",
        "\u{1F44B}\u{1F3FD}",
        "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}",
        "\u{600}\u{661}",
    ]
    .map(str::to_string)
    .to_vec();
    for _ in 0..3000 {
        let len = (next() % 24) as usize;
        out.push(
            (0..len)
                .map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize])
                .collect(),
        );
    }
    out
}

/// The vendored answers of Python `regex`'s `\X`: one JSON line a text of [`texts`], in
/// order: `{"text": ..., "lens": [UTF-8 length of each cluster]}`.
fn vendored_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cluster/regex-x.jsonl")
}

#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq, Eq)]
struct Answer {
    text: String,
    lens: Vec<u64>,
}

fn vendored() -> Vec<Answer> {
    let data = std::fs::read_to_string(vendored_path()).expect("the vendored clusters");
    data.lines()
        .map(|line| serde_json::from_str(line).expect("a vendored line"))
        .collect()
}

/// The cluster lengths Python `regex`'s `\X` gives for each text; `None` where python3
/// or its `regex` module is missing.
fn live(texts: &[String]) -> Option<Vec<Vec<u64>>> {
    let probe = python("import regex", NO_ARGS, b"");
    if !probe.is_some_and(|out| out.status.success()) {
        return None;
    }
    let script = "import sys, json, regex\n\
                  for line in sys.stdin:\n\
                  \x20   t = json.loads(line)\n\
                  \x20   print(json.dumps([len(g.encode('utf-8')) for g in regex.findall(r'\\X', t)]))\n";
    let input: String = texts
        .iter()
        .map(|t| serde_json::to_string(t).unwrap() + "\n")
        .collect();
    let out = python_bytes(script, NO_ARGS, input.as_bytes()).expect("python3 runs");
    let lines: Vec<&str> = std::str::from_utf8(&out).unwrap().lines().collect();
    assert_eq!(lines.len(), texts.len());
    Some(
        lines
            .iter()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect(),
    )
}

/// The UTF-8 length of each cluster `spans` finds in `text`.
fn lens(text: &str) -> Vec<u64> {
    let units: Vec<Unit> = Dialect::Utf8.units(text.as_bytes()).collect();
    spans(&units).iter().map(|c| c.len).collect()
}

#[test]
fn clusters_agree_with_python_regex() {
    let texts = texts();
    let live = live(&texts);
    if std::env::var_os("HEXRUNE_BLESS_CLUSTERS").is_some() {
        let live = live
            .as_ref()
            .expect("blessing needs python3 with the regex module");
        let mut file = std::fs::File::create(vendored_path()).unwrap();
        for (text, lens) in texts.iter().zip(live) {
            let answer = Answer {
                text: text.clone(),
                lens: lens.clone(),
            };
            writeln!(file, "{}", serde_json::to_string(&answer).unwrap()).unwrap();
        }
    }
    let vendored = vendored();
    let vendored_texts: Vec<&String> = vendored.iter().map(|a| &a.text).collect();
    assert_eq!(
        vendored_texts,
        texts.iter().collect::<Vec<_>>(),
        "the vendored texts are not the generated ones (regenerate: HEXRUNE_BLESS_CLUSTERS=1)"
    );
    for answer in &vendored {
        assert_eq!(lens(&answer.text), answer.lens, "{:?}", answer.text);
    }
    match live {
        Some(live) => {
            for (answer, now) in vendored.iter().zip(live) {
                assert_eq!(
                    answer.lens, now,
                    "{:?}: the vendored answer is not what Python regex says now",
                    answer.text
                );
            }
        }
        None => eprintln!(
            "python3 with the regex module is not available: checked the vendored answers only"
        ),
    }
}

/// The true clusters of `text`, in UTF-8 byte offsets.
fn truth(text: &str) -> Vec<(u64, u64)> {
    text.grapheme_indices(true)
        .map(|(i, g)| (i as u64, g.len() as u64))
        .collect()
}

/// The code points of each cluster of `bytes` read whole in `dialect`.
fn counts(bytes: &[u8], dialect: Dialect) -> Vec<u32> {
    let units: Vec<Unit> = dialect.units(bytes).collect();
    spans(&units).iter().map(|c| c.cps).collect()
}

fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(&ALPHABET[..]), 0..120)
        .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Over the whole text, `spans` is the crate's segmentation.
    #[test]
    fn spans_of_the_whole_text_are_the_crates(text in text()) {
        let units: Vec<Unit> = Dialect::Utf8.units(text.as_bytes()).collect();
        let got: Vec<(u64, u64)> = spans(&units).iter().map(|c| (c.start, c.len)).collect();
        prop_assert_eq!(got, truth(&text));
    }

    /// A window starting anywhere: every span it is sure of is a true cluster, and the
    /// cluster containing its start is found whole when a letter lies between the bound
    /// and that cluster's start (a boundary the context decides).
    #[test]
    fn windows_agree_with_the_whole_text(text in text(), a in 0.0f64..1.0, n in 1u64..40, look in 4u64..48) {
        let bytes = text.as_bytes();
        prop_assume!(!bytes.is_empty());
        let len = bytes.len() as u64;
        let s = ((a * len as f64) as u64).min(len - 1);
        let e = (s + n).min(len);
        let truth = truth(&text);
        let got = window_with(bytes, Dialect::Utf8, s..e, None, look);
        prop_assert!(!got.is_empty());
        // They tile the range, in order.
        prop_assert!(got[0].start <= s && got[got.len() - 1].end() >= e);
        for pair in got.windows(2) {
            prop_assert_eq!(pair[0].end(), pair[1].start);
        }
        for c in &got {
            if !c.open_start && !c.open_end {
                prop_assert!(truth.contains(&(c.start, c.len)), "{:?} not in {:?}", c, truth);
            }
        }
        let (c, _) = *truth.iter().find(|(start, len)| s >= *start && s < start + len).unwrap();
        let from = Dialect::Utf8.unit_containing(bytes, s.saturating_sub(look) as usize).start as u64;
        let letter = (from + 1..=c).any(|q| q < len && bytes[q as usize].is_ascii_alphabetic());
        if from == 0 || letter {
            prop_assert!(!got[0].open_start);
            prop_assert_eq!(got[0].start, c);
        }
    }

    /// The same text in UTF-16LE and UTF-32LE has the same clusters, code point by code
    /// point.
    #[test]
    fn wide_encodings_agree_with_utf8(text in text()) {
        let utf16 = wide::text(Dialect::Utf16Le, &text);
        let utf32 = wide::text(Dialect::Utf32Le, &text);
        let expected = counts(text.as_bytes(), Dialect::Utf8);
        prop_assert_eq!(counts(&utf16, Dialect::Utf16Le), expected.clone());
        prop_assert_eq!(counts(&utf32, Dialect::Utf32Le), expected);
    }

    /// Runs of regional indicators longer than the context pair as the whole text pairs
    /// them (counted back to the run's start): every span a window gives is a true
    /// cluster, none with an unknown start; only the last may be cut by the context.
    #[test]
    fn regional_indicator_runs_pair_in_every_window(
        head in "[ab]{0,3}", n in 0usize..80, tail in "[ab\u{301}]{0,3}",
        a in 0.0f64..1.0, w in 1u64..40, look in 4u64..48,
    ) {
        let ri = ['\u{1F1EB}', '\u{1F1F7}', '\u{1F1E9}'];
        let run: String = (0..n).map(|i| ri[i % 3]).collect();
        let text = format!("{head}{run}{tail}");
        let bytes = text.as_bytes();
        prop_assume!(!bytes.is_empty());
        let len = bytes.len() as u64;
        let s = ((a * len as f64) as u64).min(len - 1);
        let got = window_with(bytes, Dialect::Utf8, s..(s + w).min(len), None, look);
        let truth = truth(&text);
        // The run's clusters: those before it and after it (a letter and its marks) may be
        // open at the context's bound as any other.
        let run_bytes = head.len() as u64..(head.len() + run.len()) as u64;
        for (i, c) in got.iter().enumerate() {
            if run_bytes.contains(&c.start) {
                prop_assert!(!c.open_start, "{:?}", c);
            }
            if c.open_end {
                prop_assert_eq!(i, got.len() - 1);
            }
            if !c.open_start && !c.open_end {
                prop_assert!(truth.contains(&(c.start, c.len)), "{:?} not in {:?}", c, truth);
            }
        }
    }
}

/// A window whose context begins inside the marks after a run of regional indicators
/// says that it does not know where their cluster starts (found by the proptest above:
/// a flag letter and three acute accents, the window on the last byte).
#[test]
fn marks_after_a_run_whose_start_is_out_of_reach_are_open_at_the_start() {
    let text = "\u{1F1EB}\u{301}\u{301}\u{301}";
    let spans = |look: u64| -> Vec<(u64, u64, bool, bool)> {
        window_with(text.as_bytes(), Dialect::Utf8, 9..10, None, look)
            .iter()
            .map(|c| (c.start, c.len, c.open_start, c.open_end))
            .collect()
    };
    assert_eq!(spans(4), vec![(4, 6, true, false)]);
    // With the run in reach, the cluster is found whole.
    assert_eq!(spans(9), vec![(0, 10, false, false)]);
}
