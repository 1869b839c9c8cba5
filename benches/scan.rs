//! The scan path of `hexrune check`, side by side with references on the same data, in the
//! same run: a plain sum of the bytes (memory read speed), `std::str::from_utf8`, simdutf8's
//! validation, and iterating std's `Utf8Chunks`. Prints GB/s and ratios. Then the UTF-16
//! and UTF-32 scans of the same text, with their ratio to the UTF-8 scan and to
//! encoding_rs's UTF-16 decoder.
//!
//! Run with `cargo bench --bench scan`. Set `HEXRUNE_BENCH_MB` to change the data size
//! (default 256 MiB per data set), and `HEXRUNE_SCAN_KERNEL` to `avx2`, `validator` or
//! `scalar` to measure a slower implementation of the UTF-8 scan than the CPU's best.

use std::hint::black_box;
#[allow(dead_code)] // the shared helpers: each benchmark uses some
mod data;

use data::{multilingual, random, Rng};
use std::time::{Duration, Instant};

use hexrune::decode::Dialect;
use hexrune::scan::index::{Progress, Summary};
use hexrune::scan::{scan, Tally};

fn corrupted(base: &[u8], per_mille: f64, rng: &mut Rng) -> Vec<u8> {
    let mut out = base.to_vec();
    let count = (out.len() as f64 * per_mille / 1000.0) as usize;
    for _ in 0..count {
        let i = (rng.next() % out.len() as u64) as usize;
        out[i] = (rng.next() & 0xFF) as u8 | 0x80;
    }
    out
}

/// One of the functions timed side by side.
type Contestant<'a> = &'a mut dyn FnMut(&[u8]) -> u64;

/// The best time of each function over `runs` rounds, the functions taking turns within a
/// round: on a shared machine a burst of load then slows every contestant alike, instead of
/// all the runs of one.
fn best_of_each(bytes: &[u8], runs: usize, fs: &mut [Contestant]) -> Vec<Duration> {
    let mut best = vec![Duration::MAX; fs.len()];
    for _ in 0..runs {
        for (f, best) in fs.iter_mut().zip(best.iter_mut()) {
            let t = Instant::now();
            black_box(f(black_box(bytes)));
            *best = (*best).min(t.elapsed());
        }
    }
    best
}

fn gbps(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / d.as_secs_f64() / 1e9
}

/// The plain-sum reference: reads every byte, 8 lanes of u64 at a time.
fn sum_u64(b: &[u8]) -> u64 {
    let mut acc = [0u64; 8];
    let mut chunks = b.chunks_exact(64);
    for c in &mut chunks {
        for (i, a) in acc.iter_mut().enumerate() {
            *a = a.wrapping_add(u64::from_le_bytes(c[i * 8..i * 8 + 8].try_into().unwrap()));
        }
    }
    acc.iter().fold(0u64, |x, y| x.wrapping_add(*y))
        + chunks.remainder().iter().map(|x| *x as u64).sum::<u64>()
}

fn utf8_chunks(b: &[u8]) -> u64 {
    let mut n = 0u64;
    for c in b.utf8_chunks() {
        n += c.valid().len() as u64 + (!c.invalid().is_empty()) as u64;
    }
    n
}

fn hexrune_scan(b: &[u8]) -> u64 {
    let mut tally = Tally::default();
    scan(Dialect::Utf8, b, &mut tally);
    tally.unit_count()
}

fn summary(b: &[u8], threads: usize) -> u64 {
    Summary::build(Dialect::Utf8, b, threads, &Progress::new()).map_or(0, |s| s.unit_count())
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let mb: usize = std::env::var("HEXRUNE_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    let size = mb << 20;
    let runs = 5;
    let mut rng = Rng::seeded();
    let ascii: Vec<u8> = (0..size)
        .map(|i| b"The quick brown fox jumps over the lazy dog. "[i % 45])
        .collect();
    let multi = multilingual(size, &mut rng);
    let c01 = corrupted(&multi, 1.0, &mut rng);
    let c1 = corrupted(&multi, 10.0, &mut rng);
    let random = random(size, &mut rng);
    let sets: [(&str, &[u8]); 5] = [
        ("ascii", &ascii),
        ("multilingual", &multi),
        ("0.1% corrupted", &c01),
        ("1% corrupted", &c1),
        ("random", &random),
    ];
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "hexrune scan benchmark: {mb} MiB per data set, best of {runs} interleaved runs, UTF-8 kernel: {}",
        hexrune::scan::utf8_kernel()
    );
    println!("GB/s. sum: plain sum of the bytes (memory read speed); scan: hexrune's scan loop, 1 thread;");
    println!("index: the whole-input summary check uses (scan + block index), 1 thread and {threads} threads.");
    println!(
        "{:<15} {:>7} {:>9} {:>8} {:>7} {:>7} {:>7} {:>7} | {:>9} {:>9} {:>9}",
        "data",
        "sum",
        "from_utf8",
        "simdutf8",
        "chunks",
        "scan",
        "index1",
        &format!("index{threads}"),
        "1t/simd",
        "1t/chunks",
        &format!("{threads}t/sum")
    );
    for (name, data) in sets {
        let times = best_of_each(
            data,
            runs,
            &mut [
                &mut sum_u64,
                &mut |b: &[u8]| std::str::from_utf8(b).is_ok() as u64,
                &mut |b: &[u8]| simdutf8::basic::from_utf8(b).is_ok() as u64,
                &mut utf8_chunks,
                &mut hexrune_scan,
                &mut |b: &[u8]| summary(b, 1),
                &mut |b: &[u8]| summary(b, threads),
            ],
        );
        let [t_sum, t_std, t_simd, t_chunks, t_scan, t_index1, t_index_n] = times[..] else {
            unreachable!("one time per function")
        };
        let g = |t| gbps(data.len(), t);
        println!(
            "{:<15} {:>7.2} {:>9.2} {:>8.2} {:>7.2} {:>7.2} {:>7.2} {:>7.2} | {:>8.2}x {:>8.2}x {:>8.2}x",
            name,
            g(t_sum),
            g(t_std),
            g(t_simd),
            g(t_chunks),
            g(t_scan),
            g(t_index1),
            g(t_index_n),
            g(t_index1) / g(t_simd),
            g(t_index1) / g(t_chunks),
            g(t_index_n) / g(t_sum),
        );
    }
    println!("(from_utf8 and simdutf8 stop at the first error: on corrupted data they measure only a prefix)");
    wide_scans(&ascii, &multi, runs);
}

/// The same text in UTF-8, UTF-16 and UTF-32, each scanned in its own dialect on one thread,
/// and encoding_rs decoding the UTF-16 to UTF-8 (a reference for reading UTF-16 at all).
fn wide_scans(ascii: &[u8], multi: &[u8], runs: usize) {
    fn scan_in(d: Dialect, b: &[u8]) -> u64 {
        let mut tally = Tally::default();
        scan(d, b, &mut tally);
        tally.unit_count()
    }
    let mut out = vec![0u8; 0];
    println!();
    println!("UTF-16 and UTF-32 scans, 1 thread, GB/s of each form's bytes; the text is the same as UTF-8's");
    println!(
        "{:<13} {:>6} {:>8} {:>8} {:>8} {:>8} {:>11} | {:>10} {:>10}",
        "data",
        "utf8",
        "utf16le",
        "utf16be",
        "utf32le",
        "utf32be",
        "encoding_rs",
        "16le/utf8",
        "16le/e_rs"
    );
    for (name, data) in [("ascii", ascii), ("multilingual", multi)] {
        let text = String::from_utf8_lossy(data);
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        let le32: Vec<u8> = text
            .chars()
            .flat_map(|c| (c as u32).to_le_bytes())
            .collect();
        let be32: Vec<u8> = text
            .chars()
            .flat_map(|c| (c as u32).to_be_bytes())
            .collect();
        out.resize(le.len() * 3 / 2 + 16, 0);
        let t8 = best_of_each(
            text.as_bytes(),
            runs,
            &mut [&mut |b: &[u8]| scan_in(Dialect::Utf8, b)],
        )[0];
        let t16 = best_of_each(
            &le,
            runs,
            &mut [
                &mut |b: &[u8]| scan_in(Dialect::Utf16Le, b),
                &mut |b: &[u8]| {
                    let mut decoder = encoding_rs::UTF_16LE.new_decoder_without_bom_handling();
                    decoder.decode_to_utf8(b, &mut out, true).2 as u64
                },
            ],
        );
        let t16be = best_of_each(
            &be,
            runs,
            &mut [&mut |b: &[u8]| scan_in(Dialect::Utf16Be, b)],
        )[0];
        let t32le = best_of_each(
            &le32,
            runs,
            &mut [&mut |b: &[u8]| scan_in(Dialect::Utf32Le, b)],
        )[0];
        let t32be = best_of_each(
            &be32,
            runs,
            &mut [&mut |b: &[u8]| scan_in(Dialect::Utf32Be, b)],
        )[0];
        let g8 = gbps(text.len(), t8);
        let g16 = gbps(le.len(), t16[0]);
        let ge = gbps(le.len(), t16[1]);
        println!(
            "{:<13} {:>6.2} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>11.2} | {:>9.2}x {:>9.2}x",
            name,
            g8,
            g16,
            gbps(be.len(), t16be),
            gbps(le32.len(), t32le),
            gbps(be32.len(), t32be),
            ge,
            g16 / g8,
            g16 / ge,
        );
    }
}
