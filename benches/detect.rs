//! `hexrune detect`'s work (the parallel summary with the blocks marked for detection, then
//! detection on it; and, for comparison, detection rereading every non-ASCII block as it
//! did before the marks, "unmarked") side by side with
//! chardetng alone fed the whole buffer, on the same data in the same run: clean
//! multilingual UTF-8, one line of CJK and Indic text with no ASCII byte, windows-1252
//! text, UTF-16LE, and UTF-8 with 0.1% of its bytes
//! corrupted. Prints GB/s (the summary alone too, for scale) and the ratio
//! detect / chardetng.
//!
//! Run with `cargo bench --bench detect`. `HEXRUNE_BENCH_MB` sets the size of each data
//! set (default 64 MiB); `HEXRUNE_BENCH_THREADS` the scan's threads (default: all cores);
//! `HEXRUNE_BENCH_SET` a word of the one set to run; `HEXRUNE_BENCH_ONLY=detect` leaves
//! chardetng out and prints detection's own time (for a profiler).

use std::hint::black_box;
use std::time::{Duration, Instant};

#[allow(dead_code)] // the shared helpers: each benchmark uses some
mod data;

use data::{cjk_indic, multilingual, Rng};
use hexrune::decode::Dialect;
use hexrune::detect::detect;
use hexrune::scan::index::{Progress, Summary};

fn best_of(runs: usize, mut f: impl FnMut() -> u64) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..runs {
        let t = Instant::now();
        black_box(f());
        best = best.min(t.elapsed());
    }
    best
}

fn gbps(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / d.as_secs_f64() / 1e9
}

fn hexrune_detect(bytes: &[u8], threads: usize) -> u64 {
    let summary = Summary::build_marked(
        Dialect::Utf8,
        bytes,
        threads,
        &Progress::new(),
        Some(&hexrune::detect::mark_block),
    )
    .unwrap();
    let d = detect(bytes, &summary);
    d.encoding.len() as u64 + d.mojibake.len() as u64
}

/// Detection as it was before the scan marked blocks: every block with non-ASCII bytes
/// reread for mojibake and U+FEFF.
fn hexrune_detect_unmarked(bytes: &[u8], threads: usize) -> u64 {
    let summary = Summary::build(Dialect::Utf8, bytes, threads, &Progress::new()).unwrap();
    let d = detect(bytes, &summary);
    d.encoding.len() as u64 + d.mojibake.len() as u64
}

fn chardetng_alone(bytes: &[u8]) -> u64 {
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
    detector.feed(bytes, true);
    detector
        .guess(None, chardetng::Utf8Detection::Allow)
        .name()
        .len() as u64
}

fn main() {
    let mb: usize = std::env::var("HEXRUNE_BENCH_MB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(64);
    let threads: usize = std::env::var("HEXRUNE_BENCH_THREADS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let size = mb << 20;
    let mut rng = Rng::seeded();
    let clean = multilingual(size, &mut rng);
    let latin: String =
        "Le garçon a mangé une crème brûlée à l’hôtel, déjà très tard. ".repeat(size / 64);
    let (cp1252, _, _) = encoding_rs::WINDOWS_1252.encode(&latin);
    let utf16: Vec<u8> = latin
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .take(size)
        .collect();
    let mut corrupted = clean.clone();
    for _ in 0..corrupted.len() / 1000 {
        let i = (rng.next() % corrupted.len() as u64) as usize;
        corrupted[i] = (rng.next() & 0xFF) as u8 | 0x80;
    }
    // Chinese, Japanese, Hindi, Tamil and Thai with no ASCII byte at all: one line of
    // non-ASCII runs as long as the input (a detection that looked for a run's end from
    // each block read it once a block).
    let one_line: Vec<u8> = cjk_indic(size, &mut rng)
        .into_iter()
        .filter(|b| !b.is_ascii())
        .collect();
    println!("detect ({threads} scan threads) vs chardetng alone, {mb} MiB per set, best of 3");
    println!(
        "{:<22} {:>10} {:>12} {:>14} {:>14} {:>8}",
        "data", "scan GB/s", "detect GB/s", "unmarked GB/s", "chardetng GB/s", "ratio"
    );
    let sets: [(&str, &[u8]); 5] = [
        ("clean multilingual", &clean),
        ("CJK/Indic, no ASCII", &one_line),
        ("windows-1252 text", &cp1252),
        ("UTF-16LE", &utf16),
        ("UTF-8, 0.1% corrupted", &corrupted),
    ];
    let only_set = std::env::var("HEXRUNE_BENCH_SET").ok();
    for (name, bytes) in sets {
        if only_set
            .as_ref()
            .is_some_and(|want| !name.contains(want.as_str()))
        {
            continue;
        }
        let scan = best_of(3, || {
            let s = Summary::build(Dialect::Utf8, bytes, threads, &Progress::new()).unwrap();
            s.tally.error_count()
        });
        let ours = best_of(3, || hexrune_detect(bytes, threads));
        let unmarked = best_of(3, || hexrune_detect_unmarked(bytes, threads));
        if std::env::var("HEXRUNE_BENCH_ONLY").is_ok_and(|v| v == "detect") {
            let summary = Summary::build(Dialect::Utf8, bytes, threads, &Progress::new()).unwrap();
            let t = Instant::now();
            black_box(detect(bytes, &summary));
            println!("  detect alone on the summary: {:?}", t.elapsed());
        }
        // `HEXRUNE_BENCH_ONLY=detect` leaves chardetng out (for a profiler).
        let theirs = if std::env::var("HEXRUNE_BENCH_ONLY").is_ok_and(|v| v == "detect") {
            Duration::from_secs(1)
        } else {
            best_of(3, || chardetng_alone(bytes))
        };
        println!(
            "{name:<22} {:>10.2} {:>12.2} {:>14.2} {:>14.2} {:>7.1}x",
            gbps(bytes.len(), scan),
            gbps(bytes.len(), ours),
            gbps(bytes.len(), unmarked),
            gbps(bytes.len(), theirs),
            theirs.as_secs_f64() / ours.as_secs_f64()
        );
    }
}
