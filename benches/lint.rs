//! What the lints cost: `hexrune check FILE` against `hexrune check --security --target
//! xml-1.0 FILE` and `hexrune check --security --target mysql-utf8mb3 FILE`, the commands
//! taking turns, best of 3, each a subprocess writing to /dev/null; the ratio to plain
//! `check` is what issue 15 bounds (at most 2 on valid multilingual text).
//!
//! Four inputs of `HEXRUNE_BENCH_MB` MiB each (default 256; the figure is for
//! 1024):
//!
//! - multilingual: the sentences of `tests/data/corpus/` (thirty files: twenty-eight
//!   languages, symbols, emoji) drawn at random with a seeded generator, never one sentence
//!   twice in a row, so no block of the input repeats another;
//! - mixed_words: the corpus's sentences in scripts other than Latin, half of them with a
//!   technical term in ASCII letters (`USB`, `Wi-Fi`, `JSON`, ...) put between two of
//!   their words, as in technical writing: lines that mix scripts word by word, where no
//!   word mixes them;
//! - ascii: English-like ASCII prose (words drawn at random), one line in 200 with a
//!   sentence of the corpus;
//! - cjk_indic: words of Chinese, Japanese, Hindi, Tamil and Thai (3-byte units, combining
//!   vowel signs and viramas), the shared generator of `benches/data`;
//! - random bytes (mostly errors: the lints see little that decodes).
//!
//! Run with `cargo bench --bench lint`; `HEXRUNE_BENCH_SET` (a word of a set's name) runs
//! one set; `HEXRUNE_BENCH_KEEP` names a directory to write the sets to and keep them.

use std::path::Path;
use std::time::Duration;

#[allow(dead_code)] // the shared helpers: each benchmark uses some
mod data;

use data::{cjk_indic, random, run, Rng};

const RUNS: usize = 3;

/// The sentences (lines) of the clean corpus.
fn sentences() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the corpus")
        .map(|e| e.expect("a corpus entry").path())
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a corpus file");
        out.extend(
            text.lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| format!("{l}\n")),
        );
    }
    out
}

/// `size` bytes of corpus sentences drawn at random, never the same twice in a row; cut at
/// a line end.
fn multilingual(size: usize, rng: &mut Rng, sentences: &[String]) -> Vec<u8> {
    let mut out = Vec::with_capacity(size + 512);
    let mut last = usize::MAX;
    while out.len() < size {
        let mut i = (rng.next() % sentences.len() as u64) as usize;
        if i == last {
            i = (i + 1) % sentences.len();
        }
        last = i;
        out.extend_from_slice(sentences[i].as_bytes());
    }
    out
}

/// `size` bytes of the corpus's sentences in scripts other than Latin (more than a third of
/// their letters above U+024F), half of them with an ASCII term after a space or before
/// the first word.
fn mixed_words(size: usize, rng: &mut Rng, sentences: &[String]) -> Vec<u8> {
    const TERMS: &[&str] = &[
        "USB", "Wi-Fi", "JSON", "Linux", "HTTP", "API", "GitHub", "PDF", "SQL", "COVID-19",
        "iPhone", "Python",
    ];
    let other: Vec<&String> = sentences
        .iter()
        .filter(|s| s.chars().filter(|&c| c > '\u{24F}').count() * 3 > s.chars().count())
        .collect();
    let mut out = Vec::with_capacity(size + 512);
    while out.len() < size {
        let line = other[(rng.next() % other.len() as u64) as usize];
        let term = TERMS[(rng.next() % TERMS.len() as u64) as usize];
        if rng.next().is_multiple_of(2) {
            out.extend_from_slice(line.as_bytes());
            continue;
        }
        // After one of the spaces, or at the start of a line that has none (Chinese,
        // Japanese).
        let spaces: Vec<usize> = line.match_indices(' ').map(|(i, _)| i + 1).collect();
        let at = match spaces.len() {
            0 => 0,
            n => spaces[(rng.next() % n as u64) as usize],
        };
        out.extend_from_slice(&line.as_bytes()[..at]);
        out.extend_from_slice(term.as_bytes());
        out.push(b' ');
        out.extend_from_slice(&line.as_bytes()[at..]);
    }
    out
}

/// `size` bytes of ASCII words, a line of the corpus one line in 200.
fn ascii_heavy(size: usize, rng: &mut Rng, sentences: &[String]) -> Vec<u8> {
    const WORDS: &[&str] = &[
        "the", "of", "data", "file", "error", "value", "and", "to", "offset", "byte", "text",
        "which", "reads", "as", "is", "a", "line", "with", "in", "that",
    ];
    let mut out = Vec::with_capacity(size + 512);
    let mut line = 0u64;
    while out.len() < size {
        line += 1;
        if line.is_multiple_of(200) {
            let i = (rng.next() % sentences.len() as u64) as usize;
            out.extend_from_slice(sentences[i].as_bytes());
            continue;
        }
        for w in 0..12 {
            if w > 0 {
                out.push(b' ');
            }
            out.extend_from_slice(WORDS[(rng.next() % WORDS.len() as u64) as usize].as_bytes());
        }
        out.extend_from_slice(b".\n");
    }
    out
}

fn main() {
    let hexrune = env!("CARGO_BIN_EXE_hexrune");
    let mb: usize = std::env::var("HEXRUNE_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    let only = std::env::var("HEXRUNE_BENCH_SET").ok();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut rng = Rng::seeded();
    let corpus = sentences();
    println!(
        "{mb} MiB per set, best of {RUNS}, commands taking turns; figures from one run on a \
         machine shared with other work vary from run to run"
    );
    type Make = fn(usize, &mut Rng, &[String]) -> Vec<u8>;
    let sets: [(&str, Make); 5] = [
        ("multilingual", multilingual),
        ("mixed_words", mixed_words),
        ("ascii", ascii_heavy),
        ("cjk_indic", |size, rng, _| cjk_indic(size, rng)),
        ("random", |size, rng, _| random(size, rng)),
    ];
    let asked: [(&str, &[&str]); 3] = [
        ("check", &[]),
        (
            "--security --target xml-1.0",
            &["--security", "--target", "xml-1.0"],
        ),
        (
            "--security --target mysql-utf8mb3",
            &["--security", "--target", "mysql-utf8mb3"],
        ),
    ];
    for (name, make) in sets {
        if only.as_ref().is_some_and(|o| !name.contains(o.as_str())) {
            continue;
        }
        let data = make(mb << 20, &mut rng, &corpus);
        let keep = std::env::var_os("HEXRUNE_BENCH_KEEP").map(std::path::PathBuf::from);
        if let Some(keep) = &keep {
            std::fs::create_dir_all(keep).expect("the HEXRUNE_BENCH_KEEP directory");
        }
        let path = keep
            .as_deref()
            .unwrap_or(dir.path())
            .join(format!("{name}.txt"));
        std::fs::write(&path, &data).expect("write the data");
        drop(data);
        let file = path.to_string_lossy().into_owned();
        let mut best = [None::<Duration>; 3];
        for _ in 0..RUNS {
            for (i, (_, extra)) in asked.iter().enumerate() {
                let mut args = vec!["check"];
                args.extend_from_slice(extra);
                args.push(&file);
                if let Some(took) = run(hexrune, &args, &[0, 1]) {
                    best[i] = Some(best[i].map_or(took, |b| b.min(took)));
                }
            }
        }
        println!("{name}:");
        let plain = best[0];
        for ((label, _), took) in asked.iter().zip(best) {
            let Some(took) = took else {
                println!("  {label:<36} failed");
                continue;
            };
            let gbps = (mb << 20) as f64 / 1e9 / took.as_secs_f64();
            let ratio = plain.map_or(f64::NAN, |p| took.as_secs_f64() / p.as_secs_f64());
            println!(
                "  {label:<36} {:>8.3} s {gbps:>6.2} GB/s  {ratio:>5.2}x plain check",
                took.as_secs_f64()
            );
        }
        if keep.is_none() {
            std::fs::remove_file(&path).ok();
        }
    }
}
