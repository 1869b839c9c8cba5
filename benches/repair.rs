//! `hexrune repair` (the default policy, replace) side by side with the usual ways of doing
//! the same in one run, on the same file: `iconv -f UTF-8 -t UTF-8 -c` (which drops the
//! errors instead) and Python's `bytes.decode('utf-8', 'replace').encode()`. The input is
//! multilingual text with 0.1% errors (one stray byte or cut sequence inserted about every
//! 1000 bytes). Each command runs as a subprocess writing to /dev/null, the commands taking
//! turns, best of 3 each; prints MB/s of input and hexrune's ratio to each. A last row runs
//! `repair` to a file (temporary file, fsync, rename), as a user runs it.
//!
//! Run with `cargo bench --bench repair`. Set `HEXRUNE_BENCH_MB` to change the data size
//! (default 256 MiB; the figure is for 1024).

use std::time::Duration;

#[allow(dead_code)] // the shared helpers: each benchmark uses some
mod data;

use data::{multilingual, run, Rng};

/// Runs of each command.
const RUNS: usize = 3;

/// The errors inserted: stray bytes, a cut sequence, an overlong lead, a surrogate lead.
const ERRORS: [&[u8]; 6] = [b"\xE9", b"\x80", b"\xE2\x82", b"\xC0", b"\xFF", b"\xED\xA0"];

/// `text` with an error inserted at a character boundary about every 1000 bytes.
fn with_errors(text: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + text.len() / 500);
    let mut at = 0;
    while at < text.len() {
        let mut next = (at + 500 + (rng.next() % 1000) as usize).min(text.len());
        while next < text.len() && (text[next] & 0xC0) == 0x80 {
            next += 1;
        }
        out.extend_from_slice(&text[at..next]);
        if next < text.len() {
            out.extend_from_slice(ERRORS[(rng.next() % ERRORS.len() as u64) as usize]);
        }
        at = next;
    }
    out
}

fn mbps(bytes: usize, took: Duration) -> f64 {
    bytes as f64 / 1e6 / took.as_secs_f64()
}

const PYTHON: &str = "import sys; sys.stdout.buffer.write(open(sys.argv[1], 'rb').read().decode('utf-8', 'replace').encode())";

fn main() {
    let mb: usize = std::env::var("HEXRUNE_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    let hexrune = env!("CARGO_BIN_EXE_hexrune");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut rng = Rng::seeded();
    let text = multilingual(mb << 20, &mut rng);
    let bytes = with_errors(&text, &mut rng);
    drop(text);
    let path = dir.path().join("multilingual-errors.txt");
    std::fs::write(&path, &bytes).expect("write the data");
    let file = path.to_string_lossy().into_owned();
    let out = dir.path().join("out.txt").to_string_lossy().into_owned();
    println!(
        "data: {} MiB of multilingual text, an error about every 1000 bytes",
        bytes.len() >> 20
    );
    let ours = ["repair", file.as_str(), "-o", "-"];
    let to_file = ["repair", file.as_str(), "-o", out.as_str(), "--force"];
    let iconv = ["-f", "UTF-8", "-t", "UTF-8", "-c", file.as_str()];
    let python = ["-c", PYTHON, file.as_str()];
    let commands: [(&str, &str, &[&str]); 4] = [
        ("hexrune repair (stdout)", hexrune, &ours),
        ("iconv -c", "iconv", &iconv),
        ("python3 decode/encode", "python3", &python),
        ("hexrune repair (to a file)", hexrune, &to_file),
    ];
    let mut best: Vec<Option<Duration>> = vec![None; commands.len()];
    for _ in 0..RUNS {
        for (k, (_, program, args)) in commands.iter().enumerate() {
            if let Some(took) = run(program, args, &[0]) {
                best[k] = Some(best[k].map_or(took, |b: Duration| b.min(took)));
            }
        }
    }
    let ours_mbps = best[0].map(|t| mbps(bytes.len(), t));
    println!("{:<28} {:>10} {:>16}", "command", "MB/s", "hexrune's ratio");
    for ((name, _, _), took) in commands.iter().zip(&best) {
        match (took, ours_mbps) {
            (Some(t), Some(ours)) => {
                let theirs = mbps(bytes.len(), *t);
                println!("{name:<28} {theirs:>10.1} {:>15.2}x", ours / theirs);
            }
            _ => println!("{name:<28} {:>10} {:>16}", "failed", "-"),
        }
    }
}
