//! The viewer's statistics are `hexrune check`'s: both come from one `Summary`, and this
//! holds them equal as a user sees them, for a fixture in every dialect (the viewer's scan
//! runs on its real worker thread here).

use std::io::Write;

use hexrune::decode::Dialect;
use hexrune::source::Source;
use hexrune::tui::app::App;
use hexrune::tui::{draw, Action};
use ratatui::layout::Rect;
use serde_json::Value;

mod common;

/// The demo, a stretch of random bytes and more text: every class, many error kinds.
fn fixture() -> Vec<u8> {
    let mut bytes = hexrune::cli::demo::BYTES.to_vec();
    bytes.extend((0..200_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
    bytes.extend("ωμέγα 😀 €\n".repeat(20_000).bytes());
    bytes
}

fn check_json(path: &str, dialect: Dialect) -> Value {
    let out = common::output(["check", "--json", "--dialect", dialect.name(), path]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    let last = stdout.lines().last().expect("a summary line");
    serde_json::from_str(last).unwrap()
}

fn scanned_app(path: &std::path::Path, dialect: Dialect) -> App {
    let source = Source::open(path).unwrap();
    let mut app = App::new(source, dialect, Rect::new(0, 0, 120, 40), false);
    app.start_wanted_scan();
    let result = app.wait_scan_result().expect("the scan reports");
    app.update(Action::Scanned(result));
    app
}

#[test]
fn the_viewer_counts_what_check_json_prints() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fixture.bin");
    std::fs::File::create(&path)
        .unwrap()
        .write_all(&fixture())
        .unwrap();
    for dialect in Dialect::ALL {
        let json = check_json(path.to_str().unwrap(), dialect);
        assert_eq!(json["type"], "summary");
        let app = scanned_app(&path, dialect);
        let summary = app.summary().expect("the scan is done");
        let (classes, kinds) = draw::stats_rows(summary);
        let units = json["units"].as_object().unwrap();
        // The overlay lists the classes the encoding has (UTF-16: 2 and 4, UTF-32: 4);
        // check's summary lists 1 to 4 always, and any class not listed counts 0.
        let want: &[&str] = match dialect {
            Dialect::Utf16Le | Dialect::Utf16Be => &["2", "4"],
            Dialect::Utf32Le | Dialect::Utf32Be => &["4"],
            _ => &[],
        };
        if want.is_empty() {
            assert_eq!(classes.len(), units.len(), "{dialect}");
        } else {
            let listed: Vec<&str> = classes.iter().map(|(l, _)| &l[..1]).collect();
            assert_eq!(listed, want, "{dialect}");
            for (class, n) in units {
                if !want.contains(&class.as_str()) {
                    assert_eq!(n.as_u64(), Some(0), "{dialect} class {class}");
                }
            }
        }
        for (label, n) in &classes {
            let class = &label[..1];
            assert_eq!(units[class].as_u64(), Some(*n), "{dialect} class {class}");
        }
        let errors = json["errors"].as_object().unwrap();
        assert_eq!(kinds.len(), errors.len(), "{dialect}");
        for (label, n) in &kinds {
            let name = &label[2..];
            assert_eq!(errors[name].as_u64(), Some(*n), "{dialect} {name}");
        }
        assert_eq!(json["valid"].as_bool(), Some(kinds.is_empty()));
        // The status line's character count is the sum of the same counts.
        let total: u64 = classes.iter().chain(&kinds).map(|(_, n)| n).sum();
        assert_eq!(
            app.char_position().map(|(_, m)| m),
            Some(total),
            "{dialect}"
        );
    }
}
