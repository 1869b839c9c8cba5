//! What evidence and whole trees cost, each side by side with a reference in one run:
//!
//! 1. The SHA-256 of `check --json` (hashed in the scan's pass): `hexrune check FILE` (no
//!    hash) against `hexrune check --json FILE` and `--sarif` (hash), and `sha256sum FILE`
//!    alone, on one file of valid multilingual text (`HEXRUNE_BENCH_MB`, default 256 MiB).
//! 2. Many small files: `hexrune check -r DIR` against `find DIR -type f -exec isutf8 {} +`
//!    (moreutils; skipped if missing) and a Python loop that decodes each file, on a tree
//!    of `HEXRUNE_BENCH_FILES` files (default 20,000; the issue's figure is for 100,000) of
//!    100 bytes to 8 KiB in 100 directories; files per second.
//! 3. A few large files: `hexrune check -r` on 4 files of a quarter of the data size each,
//!    against `hexrune check` on them one by one; GB/s.
//!
//! Every command runs as a subprocess writing to /dev/null, the commands taking turns, best
//! of 3; the data is in the page cache after the first run. Run with
//! `cargo bench --bench tree`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

#[allow(dead_code)] // the shared helpers: each benchmark uses some
mod data;

use data::{multilingual, run, Rng};

const RUNS: usize = 3;

/// The best of [`RUNS`] of each command, taking turns.
fn best(commands: &[(&str, Vec<String>)]) -> Vec<Option<Duration>> {
    let mut best = vec![None::<Duration>; commands.len()];
    for _ in 0..RUNS {
        for (i, (program, args)) in commands.iter().enumerate() {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            if let Some(took) = run(program, &args, &[0, 1]) {
                best[i] = Some(best[i].map_or(took, |b: Duration| b.min(took)));
            }
        }
    }
    best
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| a.to_string()).collect()
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let hexrune = env!("CARGO_BIN_EXE_hexrune");
    let mb = env_number("HEXRUNE_BENCH_MB", 256);
    let files = env_number("HEXRUNE_BENCH_FILES", 20_000);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut rng = Rng::seeded();
    println!("figures from one run; on a shared machine they vary from run to run");

    // 1. The hash's cost.
    let text = multilingual(mb << 20, &mut rng);
    let big = dir.path().join("multilingual.txt");
    std::fs::write(&big, &text).expect("write the data");
    let file = big.to_string_lossy().into_owned();
    let gbps = |took: Duration| text.len() as f64 / 1e9 / took.as_secs_f64();
    let times = best(&[
        (hexrune, strings(&["check", &file])),
        (hexrune, strings(&["check", "--json", &file])),
        (hexrune, strings(&["check", "--sarif", &file])),
        ("sha256sum", strings(&[&file])),
    ]);
    println!("\n1. {} MiB of valid multilingual text", text.len() >> 20);
    let names = [
        "check (no hash)",
        "check --json (SHA-256 in the pass)",
        "check --sarif (SHA-256 in the pass)",
        "sha256sum alone",
    ];
    for (name, took) in names.iter().zip(&times) {
        match took {
            Some(t) => println!(
                "  {name:<38} {:>8.1} ms  {:>6.2} GB/s  {:.2}x plain check's time",
                t.as_secs_f64() * 1e3,
                gbps(*t),
                t.as_secs_f64() / times[0].map_or(f64::NAN, |p| p.as_secs_f64())
            ),
            None => println!("  {name:<38} (did not run)"),
        }
    }
    drop(text);

    // 2. Many small files.
    let tree = dir.path().join("small");
    let mut total = 0usize;
    for i in 0..files {
        let sub = tree.join(format!("d{:02}", i % 100));
        if i < 100 {
            std::fs::create_dir_all(&sub).expect("make the tree");
        }
        let size = 100 + (rng.next() % 8000) as usize;
        let mut body = multilingual(size, &mut rng);
        if i % 50 == 0 {
            body.push(0xFF);
        }
        total += body.len();
        std::fs::write(sub.join(format!("f{i}.txt")), &body).expect("write a file");
    }
    let root = tree.to_string_lossy().into_owned();
    let python = "import os, sys\nbad = 0\nfor d, _, names in os.walk(sys.argv[1]):\n    for n in names:\n        try:\n            open(os.path.join(d, n), 'rb').read().decode('utf-8')\n        except UnicodeDecodeError:\n            bad += 1\nprint(bad)";
    let has_isutf8 = Command::new("isutf8")
        .arg("--help")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    let mut commands = vec![
        (hexrune, strings(&["check", "-r", &root])),
        (hexrune, strings(&["check", "-r", "--json", &root])),
        ("python3", strings(&["-c", python, &root])),
    ];
    if has_isutf8 {
        commands.push((
            "find",
            strings(&[&root, "-type", "f", "-exec", "isutf8", "{}", "+"]),
        ));
    }
    let times = best(&commands);
    println!(
        "\n2. {files} small files ({:.1} MB in all) in 100 directories",
        total as f64 / 1e6
    );
    let names = [
        "check -r",
        "check -r --json (with SHA-256)",
        "Python os.walk + decode",
        "find -exec isutf8 {} +",
    ];
    for (name, took) in names.iter().zip(&times) {
        if let Some(t) = took {
            println!(
                "  {name:<38} {:>8.1} ms  {:>9.0} files/s  check -r is {:.2}x as fast",
                t.as_secs_f64() * 1e3,
                files as f64 / t.as_secs_f64(),
                t.as_secs_f64() / times[0].map_or(f64::NAN, |p| p.as_secs_f64())
            );
        }
    }
    if !has_isutf8 {
        println!("  (isutf8 not found: apt-get install moreutils to compare with it)");
    }

    // 3. A few large files.
    let large = dir.path().join("large");
    std::fs::create_dir_all(&large).expect("make the directory");
    let quarter = (mb << 20) / 4;
    let mut paths = Vec::new();
    for i in 0..4 {
        let path = large.join(format!("l{i}.txt"));
        std::fs::write(&path, multilingual(quarter, &mut rng)).expect("write a file");
        paths.push(path);
    }
    let bytes: u64 = paths
        .iter()
        .map(|p| std::fs::metadata(p).map_or(0, |m| m.len()))
        .sum();
    let root = large.to_string_lossy().into_owned();
    let mut one_by_one = strings(&["check"]);
    one_by_one.extend(paths.iter().map(|p| path_text(p)));
    let times = best(&[
        (hexrune, strings(&["check", "-r", &root])),
        (hexrune, one_by_one),
        (hexrune, strings(&["check", "-r", "--json", &root])),
    ]);
    println!("\n3. 4 files of {} MiB", quarter >> 20);
    let names = [
        "check -r",
        "check FILE...",
        "check -r --json (with SHA-256)",
    ];
    for (name, took) in names.iter().zip(&times) {
        if let Some(t) = took {
            println!(
                "  {name:<38} {:>8.1} ms  {:>6.2} GB/s",
                t.as_secs_f64() * 1e3,
                bytes as f64 / 1e9 / t.as_secs_f64()
            );
        }
    }
}

fn path_text(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}
