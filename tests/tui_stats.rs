//! The viewer's statistics are `hexrune check`'s: both come from one `Summary`, and this
//! holds them equal as a user sees them, for a fixture in every dialect (the viewer's scan
//! runs on its real worker thread here): the counts per class and error kind, and the
//! findings per kind, with no lint asked and with every lint asked.

use std::io::Write;

use hexrune::decode::Dialect;
use hexrune::lint::{Lints, Target};
use hexrune::source::Source;
use hexrune::tui::app::App;
use hexrune::tui::{draw, Action};
use ratatui::layout::Rect;
use serde_json::Value;

mod common;

/// The demo, a stretch of random bytes and more text: every class, many error kinds; and
/// findings, asked for or not: U+FFFD (which `check` reports whatever is asked; neither
/// the demo nor the random bytes hold one), a bidi control, a zero-width space, NUL.
fn fixture() -> Vec<u8> {
    let mut bytes = hexrune::cli::demo::BYTES.to_vec();
    bytes.extend((0..200_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
    bytes.extend("ωμέγα 😀 €\n".repeat(20_000).bytes());
    bytes.extend("lost \u{FFFD} data\n\u{202E}open \u{FFFD}\u{FFFD}\npay\u{200B}pal\0\n".bytes());
    bytes
}

/// Every lint: `--security` and each target.
const ALL_LINTS: [&str; 3] = [
    "--security",
    "--target",
    "mysql-utf8mb3,postgres,xml-1.0,xml-1.1,json,i-json",
];

fn check_json(path: &str, dialect: Dialect) -> Value {
    check_json_with(path, dialect, &[])
}

fn check_json_with(path: &str, dialect: Dialect, lints: &[&str]) -> Value {
    let mut args = vec!["check", "--json", "--dialect", dialect.name()];
    args.extend(lints);
    args.push(path);
    let out = common::output(args);
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

/// The findings per kind of the viewer's `s` (its pass over the scan, with `lints`), as
/// `check --json` names them.
fn viewer_findings(app: &mut App, lints: Lints) -> Vec<(String, u64)> {
    app.set_lints(lints);
    app.lint_now();
    let found = app.linting.found().expect("the pass is done");
    found
        .by_kind
        .iter()
        .map(|(kind, n)| (kind.name().to_string(), *n as u64))
        .collect()
}

#[test]
fn the_viewer_finds_what_check_json_finds() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fixture.bin");
    std::fs::write(&path, fixture()).unwrap();
    let all = Lints {
        targets: Target::ALL.to_vec(),
        security: true,
    };
    for dialect in Dialect::ALL {
        let mut app = scanned_app(&path, dialect);
        for (lints, args) in [(Lints::default(), &[][..]), (all.clone(), &ALL_LINTS[..])] {
            let json = check_json_with(path.to_str().unwrap(), dialect, args);
            let want: Vec<(String, u64)> = json["findings"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, n)| (k.clone(), n.as_u64().unwrap()))
                .collect();
            let mut got = viewer_findings(&mut app, lints);
            got.sort();
            let mut want = want;
            want.sort();
            assert_eq!(got, want, "{dialect} {args:?}");
        }
    }
    // The three U+FFFD are findings in the UTF-8 family with no lint asked, as in check.
    let mut app = scanned_app(&path, Dialect::Utf8);
    assert_eq!(
        viewer_findings(&mut app, Lints::default()),
        [("replacement-character".to_string(), 3)]
    );
}
