//! Time to first frame and per-key redraw cost as the input grows from 1 KiB to a 16 GiB
//! sparse file. Both must stay flat: the viewer decodes only the window it shows.
//!
//! `cargo bench --bench tui` prints a table; the ratio column compares each size with the
//! 1 KiB file measured in the same run.

use std::fs::File;
use std::io::Write;
use std::time::{Duration, Instant};

use hexrune::decode::Dialect;
use hexrune::source::{Access, Source};
use hexrune::tui::app::App;
use hexrune::tui::{draw, Action};
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use ratatui::Terminal;

const WIDTH: u16 = 120;
const HEIGHT: u16 = 40;

fn main() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let sizes: [(&str, u64); 5] = [
        ("1 KiB", 1 << 10),
        ("1 MiB", 1 << 20),
        ("64 MiB", 64 << 20),
        ("1 GiB sparse", 1 << 30),
        ("16 GiB sparse", 16 << 30),
    ];
    println!(
        "{:<14} {:>16} {:>8} {:>16} {:>8}",
        "input", "first frame", "ratio", "per key", "ratio"
    );
    let mut reference = None;
    for (label, size) in sizes {
        let path = dir.path().join(label.replace(' ', "_"));
        make_input(&path, size);
        let first = median(9, || first_frame(&path));
        let key = per_key(&path);
        let (first_ref, key_ref) = *reference.get_or_insert((first, key));
        println!(
            "{:<14} {:>13.1} µs {:>7.2}x {:>13.1} µs {:>7.2}x",
            label,
            micros(first),
            ratio(first, first_ref),
            micros(key),
            ratio(key, key_ref),
        );
    }
    // The cluster lane (`c`) segments a window with 1 KiB of context each side per frame.
    println!(
        "\n{:<14} {:>16} {:>16} {:>8}",
        "input", "per key", "with c", "ratio"
    );
    for (label, size) in [("1 MiB", 1u64 << 20), ("16 GiB sparse", 16 << 30)] {
        let path = dir.path().join(label.replace(' ', "_"));
        make_input(&path, size);
        let (off, on) = (per_key_with(&path, false), per_key_with(&path, true));
        println!(
            "{:<14} {:>13.1} µs {:>13.1} µs {:>7.2}x",
            label,
            micros(off),
            micros(on),
            ratio(on, off),
        );
    }
}

/// Real text for the small files (so the screen holds multi-byte units and errors); the
/// large ones are that text followed by a hole.
fn make_input(path: &std::path::Path, size: u64) {
    let mut file = File::create(path).unwrap();
    let head = hexrune::cli::demo::BYTES;
    let n = head.len().min(size as usize);
    file.write_all(&head[..n]).unwrap();
    if size <= 64 << 20 {
        let unit = "héllo wörld €😀 ".as_bytes();
        let mut left = size - n as u64;
        while left > 0 {
            let k = (left as usize).min(unit.len());
            file.write_all(&unit[..k]).unwrap();
            left -= k as u64;
        }
    } else {
        file.set_len(size).unwrap();
    }
}

fn terminal() -> Terminal<TestBackend> {
    Terminal::new(TestBackend::new(WIDTH, HEIGHT)).unwrap()
}

/// Open, build the app, draw once.
fn first_frame(path: &std::path::Path) -> Duration {
    let start = Instant::now();
    let source = Source::open(path).unwrap();
    source.advise(Access::Random);
    let app = App::new(source, Dialect::Utf8, Rect::new(0, 0, WIDTH, HEIGHT), true);
    let mut term = terminal();
    term.draw(|f| draw::draw(f, &app)).unwrap();
    start.elapsed()
}

/// Median cost of one key (alternating moves and page jumps across the file) plus a redraw.
fn per_key(path: &std::path::Path) -> Duration {
    per_key_with(path, false)
}

/// [`per_key`], with the cluster lane and pane shown or not.
fn per_key_with(path: &std::path::Path, clusters: bool) -> Duration {
    let source = Source::open(path).unwrap();
    let mut app = App::new(source, Dialect::Utf8, Rect::new(0, 0, WIDTH, HEIGHT), true);
    if clusters {
        app.update(Action::ToggleClusters);
    }
    let mut term = terminal();
    let keys = [
        Action::Down,
        Action::NextUnit,
        Action::PageDown,
        Action::End,
        Action::Up,
        Action::PageUp,
        Action::Start,
        Action::Right,
    ];
    let mut times = Vec::new();
    for round in 0..40 {
        let action = keys[round % keys.len()].clone();
        let start = Instant::now();
        app.update(action);
        term.draw(|f| draw::draw(f, &app)).unwrap();
        times.push(start.elapsed());
    }
    times.sort();
    times[times.len() / 2]
}

fn median(n: usize, mut f: impl FnMut() -> Duration) -> Duration {
    let mut times: Vec<Duration> = (0..n).map(|_| f()).collect();
    times.sort();
    times[n / 2]
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn ratio(d: Duration, reference: Duration) -> f64 {
    d.as_secs_f64() / reference.as_secs_f64()
}
