//! `hexrune dump` side by side with hexyl, in the same run, on the same files: multilingual
//! text, random bytes and text of mostly 3-byte units (CJK and Indic scripts), with and
//! without colour. Each command runs as a subprocess writing to /dev/null, the two taking
//! turns (so that a busy spell of the machine falls on both), best of 5 each; prints MB/s of
//! input and the ratio to hexyl.
//!
//! Run with `cargo bench --bench dump`. hexyl is found on `PATH` (`cargo install hexyl`);
//! without it, hexrune's figures are printed alone. Set `HEXRUNE_BENCH_MB` to change the
//! data size (default 256 MiB per data set). Set `HEXRUNE_BENCH_BASELINE` to another
//! hexrune binary (a build of an earlier commit) to run it in the same turns, so that a
//! change is measured before and after on the same data in the same run; its figures
//! and its ratio to hexyl are printed after hexrune's. Set `HEXRUNE_BENCH_KEEP` to a
//! directory to write the data sets there and keep them (for `perf` and the like).

use std::path::Path;
use std::process::Command;
#[allow(dead_code)] // the shared helpers: each benchmark uses some
mod data;

use data::{cjk_indic, multilingual, random, run, Rng};
use std::time::Duration;

/// Runs of each command.
const RUNS: usize = 5;

/// The best of [`RUNS`] runs of each command, the commands taking turns; `None` for one
/// that cannot be started or fails.
fn best_in_turns(commands: &[(&str, &[&str])]) -> Vec<Option<Duration>> {
    let mut best: Vec<Option<Duration>> = vec![None; commands.len()];
    let mut failed = vec![false; commands.len()];
    for _ in 0..RUNS {
        for (k, (program, args)) in commands.iter().enumerate() {
            if failed[k] {
                continue;
            }
            match run(program, args, &[0]) {
                Some(took) => best[k] = Some(best[k].map_or(took, |b| b.min(took))),
                None => (failed[k], best[k]) = (true, None),
            }
        }
    }
    best
}

fn mbps(bytes: usize, took: Duration) -> f64 {
    bytes as f64 / 1e6 / took.as_secs_f64()
}

fn hexyl_version() -> Option<String> {
    let out = Command::new("hexyl").arg("--version").output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let mb: usize = std::env::var("HEXRUNE_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    let size = mb << 20;
    let hexrune = env!("CARGO_BIN_EXE_hexrune");
    let hexyl = hexyl_version();
    let baseline = std::env::var("HEXRUNE_BENCH_BASELINE").ok();
    if let Some(b) = &baseline {
        println!("baseline: {b}");
    }
    match &hexyl {
        Some(v) => println!("reference: {v}"),
        None => println!("hexyl not found on PATH (cargo install hexyl): hexrune alone"),
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let keep = std::env::var_os("HEXRUNE_BENCH_KEEP").map(std::path::PathBuf::from);
    if let Some(keep) = &keep {
        std::fs::create_dir_all(keep).expect("the HEXRUNE_BENCH_KEEP directory");
    }
    let mut rng = Rng::seeded();
    let sets: [(&str, Vec<u8>); 3] = [
        ("multilingual", multilingual(size, &mut rng)),
        ("random", random(size, &mut rng)),
        ("cjk_indic", cjk_indic(size, &mut rng)),
    ];
    println!(
        "{:<13} {:<7} {:>14} {:>12} {:>7} {:>15} {:>7}",
        "data", "colour", "hexrune MB/s", "hexyl MB/s", "ratio", "baseline MB/s", "ratio"
    );
    for (name, bytes) in &sets {
        let path = keep.as_deref().unwrap_or(dir.path()).join(name);
        std::fs::write(&path, bytes).expect("write the data");
        let file = path_str(&path);
        for color in ["never", "always"] {
            let ours_args = ["dump", "--color", color, &file];
            let theirs_args = ["--color", color, &file];
            let mut commands: Vec<(&str, &[&str])> = vec![(hexrune, &ours_args)];
            if hexyl.is_some() {
                commands.push(("hexyl", &theirs_args));
            }
            if let Some(b) = &baseline {
                commands.push((b.as_str(), &ours_args));
            }
            let best = best_in_turns(&commands);
            let ours = best[0].expect("hexrune dump runs");
            let theirs = hexyl.as_ref().and_then(|_| best[1]);
            let before = baseline.as_ref().and_then(|_| best[best.len() - 1]);
            let ours_mbps = mbps(bytes.len(), ours);
            let theirs_mbps = theirs.map(|t| mbps(bytes.len(), t));
            let ratio = |x: f64| theirs_mbps.map_or("-".to_string(), |t| format!("{:.2}x", x / t));
            let (theirs_text, ratio_text) = match theirs_mbps {
                Some(t) => (format!("{t:.1}"), ratio(ours_mbps)),
                None => ("-".to_string(), "-".to_string()),
            };
            let before_text = match before {
                Some(b) => {
                    let b = mbps(bytes.len(), b);
                    format!("{b:>15.1} {:>7}", ratio(b))
                }
                None => String::new(),
            };
            println!(
                "{name:<13} {color:<7} {ours_mbps:>14.1} {theirs_text:>12} {ratio_text:>7} {before_text}"
            );
        }
        if keep.is_none() {
            std::fs::remove_file(&path).expect("remove the data");
        }
    }
}

fn path_str(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}
