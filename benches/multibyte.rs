//! The scan of the multi-byte legacy encodings, side by side with encoding_rs's own decoder
//! (`decode_without_bom_handling`, which also builds the UTF-8 string) on the same bytes, in
//! the same run: Japanese text in Shift_JIS and EUC-JP, Chinese in GBK and Big5, Korean in
//! EUC-KR, each with some ASCII (line feeds, numbers, markup) as real files have. Prints
//! MB/s for hexrune's single-thread scan (`scan::scan` into a `Tally`), its block index on
//! one thread (`Summary::build`, what `check` runs) and encoding_rs, and the ratio.
//!
//! Run with `cargo bench --bench multibyte`; `HEXRUNE_BENCH_MB` sets the data size (default
//! 64 MiB per encoding).

use std::hint::black_box;
use std::time::{Duration, Instant};

use hexrune::encoding::resolve;
use hexrune::scan::index::{Progress, Summary};
use hexrune::scan::{scan, Tally};

const TEXTS: [(&str, &str); 5] = [
    ("Shift_JIS", "<p>吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。</p>\n2024年10月1日 ｶﾀｶﾅ\n"),
    ("EUC-JP", "<p>吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。</p>\n2024年10月1日\n"),
    ("GBK", "<p>中华人民共和国成立于一九四九年。我们在北京学习汉语，天气很好，大家都很高兴。</p>\n第12章 2024年\n"),
    ("Big5", "<p>中華民國的國語是正體中文。我們在臺北學習漢字，天氣很好，大家都很高興。</p>\n第12章 2024年\n"),
    ("EUC-KR", "<p>대한민국은 민주공화국이다. 모든 사람은 자유롭고 평등하게 태어났다. 한글은 세종대왕이 만들었다.</p>\n2024년\n"),
];

fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..runs {
        let t = Instant::now();
        black_box(f());
        best = best.min(t.elapsed());
    }
    best
}

fn main() {
    let mb: usize = std::env::var("HEXRUNE_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64);
    println!("multi-byte legacy scan, {mb} MiB per encoding, best of 5, single thread");
    println!(
        "{:<10} {:>12} {:>12} {:>14} {:>8}",
        "encoding", "scan MB/s", "index MB/s", "encoding_rs", "ratio"
    );
    for (label, text) in TEXTS {
        let encoding = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
        let one = encoding.encode(text).0.into_owned();
        let bytes: Vec<u8> = one.iter().copied().cycle().take(mb << 20).collect();
        let d = resolve(label).unwrap();
        let scan_time = best(5, || {
            let mut tally = Tally::default();
            scan(d, &bytes, &mut tally);
            tally.error_count()
        });
        let index_time = best(5, || {
            Summary::build(d, &bytes, 1, &Progress::new())
                .map(|s| s.unit_count())
                .unwrap_or(0)
        });
        let theirs = best(5, || encoding.decode_without_bom_handling(&bytes).0.len());
        let rate = |t: Duration| bytes.len() as f64 / t.as_secs_f64() / 1e6;
        println!(
            "{:<10} {:>12.0} {:>12.0} {:>14.0} {:>7.2}x",
            label,
            rate(scan_time),
            rate(index_time),
            rate(theirs),
            theirs.as_secs_f64() / scan_time.as_secs_f64()
        );
    }
}
