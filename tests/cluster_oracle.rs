//! Grapheme clusters against a second, independent implementation of UAX #29: the `\X` of
//! Python's `regex` module, over random text of the code points every rule is about, plus
//! real sequences. `view::cluster` takes its boundaries from unicode-segmentation; this
//! checks that crate and hexrune's mapping of its boundaries to byte offsets together.
//!
//! The `regex` module is not in Python's standard library: where `python3 -c 'import
//! regex'` fails, the test says so on stderr and checks nothing.

use std::io::Write;
use std::process::{Command, Stdio};

use hexrune::decode::{Dialect, Unit};
use hexrune::view::cluster::spans;

/// Code points of every rule (Unicode 11 or older, so that both sides know them).
const ALPHABET: [char; 24] = [
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
];

/// A small deterministic generator (xorshift), so that a failure can be replayed.
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

#[test]
fn clusters_agree_with_python_regex() {
    let probe = Command::new("python3")
        .args(["-c", "import regex"])
        .status();
    if !probe.is_ok_and(|s| s.success()) {
        eprintln!("python3 with the regex module is not available: nothing checked");
        return;
    }
    let texts = texts();
    let script = "import sys, json, regex\n\
                  for line in sys.stdin:\n\
                  \x20   t = json.loads(line)\n\
                  \x20   print(json.dumps([len(g.encode('utf-8')) for g in regex.findall(r'\\X', t)]))\n";
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let input: String = texts
        .iter()
        .map(|t| serde_json::to_string(t).unwrap() + "\n")
        .collect();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success());
    let lines: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    assert_eq!(lines.len(), texts.len());
    for (text, line) in texts.iter().zip(lines) {
        let expected: Vec<u64> = serde_json::from_str(line).unwrap();
        let units: Vec<Unit> = Dialect::Utf8.units(text.as_bytes()).collect();
        let got: Vec<u64> = spans(&units).iter().map(|c| c.len).collect();
        assert_eq!(got, expected, "{text:?}");
    }
}
