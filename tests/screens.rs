//! Whole screens rendered to ratatui's TestBackend, compared with snapshots (insta).
//!
//! The whole-input scan is done before the screen is drawn (one thread, a fixed time
//! taken), so screens do not depend on timing; `scanning_app` shows the screen before it.

use std::time::Duration;

use hexrune::decode::Dialect;
use hexrune::scan::index::{Progress, Summary};
use hexrune::source::Source;
use hexrune::tui::app::App;
use hexrune::tui::{draw, Action};
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use ratatui::Terminal;

/// An app whose scan is done (it took 2 ms, as far as screens tell).
fn app(bytes: &[u8], width: u16, height: u16) -> App {
    let mut summary = Summary::build(Dialect::Utf8, bytes, 1, &Progress::new()).unwrap();
    summary.elapsed = Duration::from_millis(2);
    let source = Source::from_bytes("fixture", bytes.to_vec());
    App::with_summary(source, summary, Rect::new(0, 0, width, height), false)
}

/// An app whose scan has not started.
fn scanning_app(bytes: &[u8], width: u16, height: u16) -> App {
    let source = Source::from_bytes("fixture", bytes.to_vec());
    App::new(source, Dialect::Utf8, Rect::new(0, 0, width, height), false)
}

fn screen(app: &App) -> String {
    let mut terminal = Terminal::new(TestBackend::new(app.size.width, app.size.height)).unwrap();
    terminal.draw(|f| draw::draw(f, app)).unwrap();
    let buffer = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..buffer.area.height {
        let mut line = String::new();
        let mut x = 0;
        while x < buffer.area.width {
            let symbol = buffer[(x, y)].symbol();
            line.push_str(symbol);
            // A wide glyph covers the next cell: skip it, as a terminal would.
            x += unicode_width::UnicodeWidthStr::width(symbol).max(1) as u16;
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Runs an error or pattern search to its end.
fn finish_job(app: &mut App) {
    while app.job.is_some() {
        let event = app.wait_job_event().expect("worker reports");
        app.update(Action::Job(event));
    }
}

#[test]
fn demo_at_120_by_40() {
    let mut app = app(hexrune::cli::demo::BYTES, 120, 40);
    insta::assert_snapshot!("demo_start", screen(&app));
    app.update(Action::NextError);
    finish_job(&mut app);
    insta::assert_snapshot!("demo_first_error", screen(&app));
}

#[test]
fn error_jumps_agree_with_and_without_the_index() {
    let mut indexed = app(hexrune::cli::demo::BYTES, 120, 40);
    let mut searching = scanning_app(hexrune::cli::demo::BYTES, 120, 40);
    for action in [
        Action::NextError,
        Action::NextError,
        Action::NextError,
        Action::PrevError,
        Action::End,
        Action::PrevError,
    ] {
        indexed.update(action.clone());
        assert!(indexed.job.is_none(), "the index answers at once");
        searching.update(action);
        finish_job(&mut searching);
        assert_eq!(indexed.cursor, searching.cursor);
        assert_eq!(indexed.message, searching.message);
    }
}

#[test]
fn stats_overlay_and_map() {
    let mut app = app(hexrune::cli::demo::BYTES, 120, 40);
    app.update(Action::Stats);
    insta::assert_snapshot!("demo_stats", screen(&app));
    app.update(Action::Stats);
    // The map at 80 columns, scrolled to the errors: the viewport marker follows.
    let mut app = app_at(hexrune::cli::demo::BYTES, 80, 24, "0x500");
    app.update(Action::Down);
    insta::assert_snapshot!("demo_map_80x24", screen(&app));
    // A few MiB with errors in one place and multi-byte text in another.
    let mut bytes = "plain text\n".repeat(200_000).into_bytes();
    bytes.extend("ελληνικά κείμενα\n".repeat(60_000).bytes());
    bytes.extend(b"\xFF\xC0\xAF text with errors\n".repeat(10_000));
    bytes.extend("plain text\n".repeat(100_000).bytes());
    let app = app_at(&bytes, 80, 24, "50%");
    insta::assert_snapshot!("mixed_map_80x24", screen(&app));
    // Small sizes: the overlay is cut, never a panic.
    for (w, h) in [(1, 1), (20, 5), (63, 3), (64, 8), (80, 10)] {
        let mut small = self::app(hexrune::cli::demo::BYTES, w, h);
        small.update(Action::Stats);
        let _ = screen(&small);
    }
}

#[test]
fn stats_and_status_while_scanning() {
    let mut app = scanning_app(hexrune::cli::demo::BYTES, 100, 24);
    insta::assert_snapshot!("scan_wanted", screen(&app));
    app.begin_scan().unwrap();
    app.update(Action::ScanProgress {
        done: 1000,
        elapsed: Duration::from_millis(500),
    });
    app.update(Action::Stats);
    insta::assert_snapshot!("scan_running_stats", screen(&app));
}

fn app_at(bytes: &[u8], width: u16, height: u16, target: &str) -> App {
    let mut app = app(bytes, width, height);
    app.update(Action::OpenGoto);
    for c in target.chars() {
        app.update(Action::Input(c));
    }
    app.update(Action::Submit);
    app
}

#[test]
fn demo_in_every_dialect_at_80_by_24() {
    let mut app = app(hexrune::cli::demo::BYTES, 80, 24);
    let at = hexrune::cli::demo::BYTES
        .windows(6)
        .position(|w| w == b"\xED\xA0\xBD\xED\xB8\x80")
        .unwrap();
    for c in format!("{at}").chars() {
        if app.prompt.is_none() {
            app.update(Action::OpenGoto);
        }
        app.update(Action::Input(c));
    }
    app.update(Action::Submit);
    for d in Dialect::ALL {
        assert_eq!(app.dialect, d);
        insta::assert_snapshot!(format!("demo_pair_{}", d.name()), screen(&app));
        app.update(Action::NextDialect);
    }
}

#[test]
fn hostile_bytes_are_drawn_as_placeholders() {
    let bytes = b"\x1b]0;title\x07\x1b[2J\xe2\x80\xae\x9b31m\r\n\xef\xbb\xbf\xcc\x81\xe4\xb8\xad\xf0\x9f\x98\x80\xc0\xaf\xff";
    let app = app(bytes, 111, 12);
    let text = screen(&app);
    for c in text.chars() {
        assert!(!c.is_control() || c == '\n', "control {c:?} on screen");
    }
    insta::assert_snapshot!("hostile", text);
}

#[test]
fn small_sizes_survive() {
    for (w, h) in [
        (1, 1),
        (20, 5),
        (62, 24),
        (63, 2),
        (63, 3),
        (80, 8),
        (200, 50),
    ] {
        let mut app = app(hexrune::cli::demo::BYTES, w, h);
        for action in [Action::End, Action::PageUp, Action::Help] {
            app.update(action);
            let _ = screen(&app);
        }
    }
    insta::assert_snapshot!("tiny_20x5", screen(&app(b"abc", 20, 5)));
    insta::assert_snapshot!("empty", screen(&app(b"", 80, 10)));
}

#[test]
fn help_overlay() {
    let mut app = app(hexrune::cli::demo::BYTES, 120, 30);
    app.update(Action::Help);
    insta::assert_snapshot!("help", screen(&app));
}

#[test]
fn search_goto_and_reflow() {
    let mut bytes = vec![b'.'; 5000];
    bytes[4000..4003].copy_from_slice("€".as_bytes());
    let mut app = app(&bytes, 80, 12);
    app.update(Action::OpenSearch { backward: false });
    app.update(Action::TogglePattern);
    for c in "e2 82 ac".chars() {
        app.update(Action::Input(c));
    }
    app.update(Action::Submit);
    finish_job(&mut app);
    assert_eq!(app.cursor, 4000);
    // Landing inside the sequence selects the unit containing it.
    app.update(Action::OpenGoto);
    for c in "0xFA2".chars() {
        app.update(Action::Input(c));
    }
    app.update(Action::Submit);
    assert_eq!(app.cursor, 4002);
    insta::assert_snapshot!("goto_inside_sequence", screen(&app));
    app.update(Action::Resize {
        width: 120,
        height: 12,
    });
    assert_eq!(app.top % 16, 0);
    insta::assert_snapshot!("reflowed_to_16", screen(&app));
    // A click on the text pane, row 2, column 5 selects that byte; the wheel scrolls.
    let layout = app.layout().unwrap();
    let top = app.top;
    app.update(Action::Click {
        x: layout.text_x + 5,
        y: layout.rows.y + 2,
    });
    assert_eq!(app.cursor, top + 2 * 16 + 5);
    app.update(Action::ScrollDown);
    assert_eq!(app.top, top + 3 * 16);
}
