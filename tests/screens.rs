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

mod support;
use support::wide;

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
    for d in Dialect::UTF8_FAMILY {
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

/// The screen's line `y`, as [`screen`] writes it.
fn line(app: &App, y: usize) -> String {
    screen(app).lines().nth(y).unwrap_or_default().to_string()
}

#[test]
fn eighty_columns_show_16_bytes_a_row() {
    let app = app(hexrune::cli::demo::BYTES, 80, 24);
    let layout = app.layout().unwrap();
    assert_eq!(layout.bytes_per_row, 16);
    assert_eq!(
        line(&app, 1),
        "00000000  ef bb bf 3c 2d 20 74 68 61 74 20 77 61 73 20 61  ᴮˑˑ<- that was a   ┃░"
    );
    assert_eq!(
        line(&app, 23),
        " fixture  3.6 KiB  0x0  0%  utf8  char 1 of 3589  class and errors lanes hidden"
    );
    insta::assert_snapshot!("demo_80x24", screen(&app));
    // Once the note has been read (any key), the key hint has room at 80 columns.
    let mut app = app;
    app.update(Action::Right);
    app.update(Action::Left);
    assert_eq!(
        line(&app, 23),
        " fixture  3.6 KiB (3695 B)  0x0 (0)  0%  utf8  char 1 of 3589    ? help  q quit"
    );
    // Errors are still told apart at 80 columns: the hex pane marks them and the text
    // pane draws U+FFFD; the detail pane names the kind.
    let mut app = app_at(hexrune::cli::demo::BYTES, 80, 24, "0x44a");
    assert!(screen(&app).contains(
        "\n00000440  69 64 20 62 79 74 65 3a 20 5b ff 5d 20 61 6e 64  id byte: [�] and   "
    ));
    app.update(Action::Resize {
        width: 100,
        height: 30,
    });
    // Between 93 and 110 columns the class lane is back, with the errors' letters in it.
    assert_eq!(app.layout().unwrap().bytes_per_row, 16);
    assert!(
        screen(&app).contains("00000440  69 64 20 62 79 74 65 3a 20 5b ff 5d 20 61 6e 64  1111111111I11111  id byte: [�] and"),
        "{}",
        screen(&app)
    );
    assert_eq!(
        app.message.as_ref().map(|m| m.text.as_str()),
        Some("errors lane folded into the class lane")
    );
    insta::assert_snapshot!("demo_errors_100x30", screen(&app));
    // At 120 columns everything is back, and the note goes.
    app.update(Action::Resize {
        width: 120,
        height: 40,
    });
    assert_eq!(app.message, None);
    assert!(line(&app, 0).contains("errors"));
    // A very wide terminal: 32 bytes and every lane.
    let wide = self::app(hexrune::cli::demo::BYTES, 250, 50);
    let layout = wide.layout().unwrap();
    assert_eq!(layout.bytes_per_row, 32);
    assert_eq!(wide.message, None);
    let header = line(&wide, 0);
    for title in ["offset", "bytes", "class", "text", "errors", "map"] {
        assert!(header.contains(title), "{header}");
    }
}

#[test]
fn too_small_names_the_minimum_and_the_way_out() {
    let app = app(hexrune::cli::demo::BYTES, 42, 10);
    assert_eq!(line(&app, 0), "terminal too small: need 43×2 (q quits)");
    let app = self::app(hexrune::cli::demo::BYTES, 43, 2);
    assert!(line(&app, 0).starts_with("00000000  ef bb bf"));
    let mut app = self::app(hexrune::cli::demo::BYTES, 30, 5);
    assert_eq!(
        screen(&app),
        "terminal too small: need 43×2\n(q quits)\n\n\n\n"
    );
    app.update(Action::Quit);
    assert!(app.quit);
}

/// The text inside the help overlay's frame, one string per line.
fn help_text(app: &App) -> Vec<String> {
    screen(app)
        .lines()
        .filter_map(|l| l.strip_prefix('│'))
        .map(|l| l.trim_end().trim_end_matches('│').trim_end().to_string())
        .collect()
}

#[test]
fn help_fits_80_by_24_and_scrolls() {
    let mut app = app(hexrune::cli::demo::BYTES, 80, 24);
    app.update(Action::Help);
    insta::assert_snapshot!("help_80x24_top", screen(&app));
    // Every line is reached by j, one new line at a time.
    let mut seen = help_text(&app);
    assert_eq!(seen.len(), 22);
    loop {
        let before = app.help_scroll;
        app.update(Action::Down);
        if app.help_scroll == before {
            break;
        }
        seen.push(help_text(&app).last().unwrap().clone());
    }
    let all = seen
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for (keys, what) in hexrune::tui::keymap::KEYS {
        assert!(
            all.contains(&format!("{keys} {what}")),
            "{keys}: {what}\n{all}"
        );
    }
    for needed in [
        "ˑ the other columns of a multi-byte character",
        "␀ ␊ ␛ ␡ C0 control or DEL",
        "⇄ bidi control",
        "ᶻ zero-width space",
        "ᴮ byte order mark (BOM)",
        "◌́ combining mark, drawn on a dotted circle",
        "◌ spacing mark, or a Hangul vowel or final: the dotted circle alone",
        "∄ unassigned code point or noncharacter",
        "ᵖ private use",
        "I invalid byte",
        "P surrogate pair",
        "█ over 10% of the characters",
        "so that 80 columns still show 16 bytes a row",
    ] {
        assert!(all.contains(needed), "{needed}\n{all}");
    }
    // G shows the end, g the start; PgDn and PgUp move a page.
    app.update(Action::Start);
    assert_eq!(app.help_scroll, 0);
    app.update(Action::PageDown);
    assert_eq!(app.help_scroll, 22);
    app.update(Action::PageUp);
    assert_eq!(app.help_scroll, 0);
    app.update(Action::End);
    insta::assert_snapshot!("help_80x24_end", screen(&app));
    assert_eq!(app.cursor, 0, "the keys scroll the list, not the view");
    // Esc closes it (and does not quit); so does ?.
    app.update(Action::Cancel);
    assert!(!app.help && !app.quit);
    app.update(Action::Help);
    assert_eq!(app.help_scroll, 0);
    app.update(Action::Help);
    assert!(!app.help);
}

#[test]
fn without_colour_the_cursor_is_reversed_and_errors_bold() {
    use ratatui::style::{Color, Modifier};
    let render = |app: &App| {
        let mut terminal =
            Terminal::new(TestBackend::new(app.size.width, app.size.height)).unwrap();
        terminal.draw(|f| draw::draw(f, app)).unwrap();
        terminal.backend().buffer().clone()
    };
    // The row at 0x440 has the demo's first error, an invalid byte FF, at 0x44A; the
    // cursor is on the 5D after it.
    let mut app = app_at(hexrune::cli::demo::BYTES, 120, 40, "0x44b");
    let layout = app.layout().unwrap();
    let buf = render(&app);
    let row = (layout.rows.y..layout.rows.bottom())
        .find(|&y| (0..8).map(|x| buf[(x, y)].symbol()).collect::<String>() == "00000440")
        .unwrap();
    let error = &buf[(layout.hex_x + 30, row)];
    let cursor = &buf[(layout.hex_x + 33, row)];
    assert_eq!(error.symbol(), "f");
    assert_eq!(cursor.symbol(), "5");
    assert!(error.modifier.contains(Modifier::BOLD));
    assert!(cursor.modifier.contains(Modifier::REVERSED));
    assert_eq!((error.fg, cursor.fg), (Color::Reset, Color::Reset));
    // The text pane's U+FFFD is bold too.
    assert!(buf[(layout.text_x + 10, row)]
        .modifier
        .contains(Modifier::BOLD));
    // With colour, the same cells have colours as well.
    app.color = true;
    let buf = render(&app);
    assert_eq!(buf[(layout.hex_x + 30, row)].fg, Color::LightRed);
    assert!(buf[(layout.hex_x + 33, row)]
        .modifier
        .contains(Modifier::REVERSED));
}

/// Without colour (where the class and errors lanes are hidden too), an error byte is bold
/// and italic, a lead byte bold alone: `c3` (a lead) and `e2 82` (an error unit) were both
/// bold. Under the cursor each keeps its emphasis.
#[test]
fn without_colour_error_bytes_stand_apart_from_lead_bytes() {
    use ratatui::style::Modifier;
    // `hello café ` then E2 82, cut by the end.
    let bytes = b"hello caf\xc3\xa9 \xe2\x82";
    let modifiers = |app: &App| -> Vec<(String, Modifier)> {
        let layout = app.layout().unwrap();
        assert_eq!((layout.class_x, layout.errors_x), (None, None));
        let mut terminal = Terminal::new(TestBackend::new(80, 20)).unwrap();
        terminal.draw(|f| draw::draw(f, app)).unwrap();
        let buf = terminal.backend().buffer();
        [0u16, 9, 10, 12, 13]
            .iter()
            .map(|&i| {
                let x = layout.hex_x + 3 * i;
                let y = layout.rows.y;
                let text = format!("{}{}", buf[(x, y)].symbol(), buf[(x + 1, y)].symbol());
                (text, buf[(x, y)].modifier)
            })
            .collect()
    };
    let (bold, italic) = (Modifier::BOLD, Modifier::ITALIC);
    let (reversed, underlined) = (Modifier::REVERSED, Modifier::UNDERLINED);
    let cursor = reversed | bold | underlined;
    let expect = |cells: [(&str, Modifier); 5]| -> Vec<(String, Modifier)> {
        cells.iter().map(|(t, m)| (t.to_string(), *m)).collect()
    };
    let app = app(bytes, 80, 20);
    assert_eq!(
        modifiers(&app),
        expect([
            ("68", cursor),
            ("c3", bold),
            ("a9", Modifier::empty()),
            ("e2", bold | italic),
            ("82", bold | italic),
        ])
    );
    // The cursor in the error unit, then in the lead's unit.
    let app = app_at(bytes, 80, 20, "0xd");
    assert_eq!(
        modifiers(&app),
        expect([
            ("68", Modifier::empty()),
            ("c3", bold),
            ("a9", Modifier::empty()),
            ("e2", reversed | bold | italic),
            ("82", cursor | italic),
        ])
    );
    let app = app_at(bytes, 80, 20, "0xa");
    assert_eq!(
        modifiers(&app),
        expect([
            ("68", Modifier::empty()),
            ("c3", reversed | bold),
            ("a9", cursor),
            ("e2", bold | italic),
            ("82", bold | italic),
        ])
    );
}

/// Without colour, the cursor's cluster stands out in the lane: its bracket is bold, the
/// others are not.
#[test]
fn without_colour_the_cursors_cluster_is_bold_in_the_lane() {
    use ratatui::style::Modifier;
    // e + acute at 0..3, a space, a flag at 4..12.
    let bytes = "e\u{301} \u{1F1EB}\u{1F1F7}\n".as_bytes();
    let mut app = app_at(bytes, 120, 40, "5");
    app.update(Action::ToggleClusters);
    let layout = app.layout().unwrap();
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    terminal.draw(|f| draw::draw(f, &app)).unwrap();
    let buf = terminal.backend().buffer().clone();
    let lane = layout.rows.y + 1;
    let (mark, flag) = (&buf[(layout.hex_x, lane)], &buf[(layout.hex_x + 12, lane)]);
    assert_eq!((mark.symbol(), flag.symbol()), ("╰", "╰"));
    assert!(flag.modifier.contains(Modifier::BOLD), "{flag:?}");
    assert!(!mark.modifier.contains(Modifier::BOLD), "{mark:?}");
}

#[test]
fn esc_never_quits_and_ctrl_c_leaves_a_prompt() {
    use hexrune::tui::keymap::{action, Mode};
    use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    let mut app = app(hexrune::cli::demo::BYTES, 80, 24);
    app.update(Action::Cancel);
    assert!(!app.quit, "Esc with nothing open");
    app.update(Action::OpenGoto);
    app.update(Action::Input('9'));
    let ctrl_c = Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    let cancel = action(&ctrl_c, app.mode()).unwrap();
    assert_eq!(cancel, Action::Cancel);
    app.update(cancel);
    assert!(app.prompt.is_none() && !app.quit);
    assert_eq!(app.cursor, 0);
    assert_eq!(action(&ctrl_c, Mode::Normal), Some(Action::Quit));
    app.update(Action::Quit);
    assert!(app.quit);
}

#[test]
fn counts_repeat_motions_as_in_vim() {
    let mut app = app(hexrune::cli::demo::BYTES, 80, 24);
    app.update(Action::Digit(1));
    app.update(Action::Digit(0));
    assert_eq!(app.count, Some(10));
    assert!(line(&app, 23).contains("count 10"), "{}", line(&app, 23));
    app.update(Action::Down);
    assert_eq!((app.cursor, app.count), (160, None));
    // The scan's reports and a resize arriving between the digits do not drop the count.
    let mut scanning = scanning_app(hexrune::cli::demo::BYTES, 80, 24);
    scanning.begin_scan().unwrap();
    scanning.update(Action::Digit(1));
    scanning.update(Action::ScanProgress {
        done: 100,
        elapsed: Duration::from_millis(100),
    });
    scanning.update(Action::Resize {
        width: 80,
        height: 30,
    });
    scanning.update(Action::Digit(2));
    scanning.update(Action::Down);
    assert_eq!(scanning.cursor, 12 * 16);
    // 5w: five units on, over the three-byte BOM first.
    app.update(Action::Start);
    app.update(Action::Digit(5));
    app.update(Action::NextUnit);
    assert_eq!(app.cursor, 7);
    // 3]: the third error, from the index or by searching.
    let mut one_by_one = self::app(hexrune::cli::demo::BYTES, 80, 24);
    for _ in 0..3 {
        one_by_one.update(Action::NextError);
    }
    let mut indexed = self::app(hexrune::cli::demo::BYTES, 80, 24);
    let mut searching = scanning_app(hexrune::cli::demo::BYTES, 80, 24);
    for (what, app) in [("indexed", &mut indexed), ("searching", &mut searching)] {
        app.update(Action::Digit(3));
        app.update(Action::NextError);
        finish_job(app);
        assert_eq!(app.cursor, one_by_one.cursor, "{what}");
        assert_eq!(app.message, one_by_one.message);
    }
    // Esc drops a count; a key that takes none drops it too.
    app.update(Action::Digit(4));
    app.update(Action::Cancel);
    assert_eq!(app.count, None);
    assert!(!app.quit);
    let at = app.cursor;
    app.update(Action::Down);
    assert_eq!(app.cursor, at + 16);
    app.update(Action::Digit(4));
    app.update(Action::ToggleDecimal);
    app.update(Action::Up);
    assert_eq!(app.cursor, at);
}

#[test]
fn h_m_l_go_to_rows_of_the_screen() {
    // 80×24: 18 rows of 16 bytes on screen.
    let mut app = app(&[b'a'; 10_000], 80, 24);
    app.update(Action::Right);
    app.update(Action::Right);
    app.update(Action::ScreenBottom);
    assert_eq!(app.cursor, 17 * 16 + 2);
    app.update(Action::ScreenMiddle);
    assert_eq!(app.cursor, 8 * 16 + 2);
    app.update(Action::ScreenTop);
    assert_eq!(app.cursor, 2);
    app.update(Action::Digit(3));
    app.update(Action::ScreenTop);
    assert_eq!(app.cursor, 2 * 16 + 2);
    app.update(Action::Digit(2));
    app.update(Action::ScreenBottom);
    assert_eq!(app.cursor, 16 * 16 + 2);
    assert_eq!(app.top, 0, "the view does not move");
    // Past the end of a short input, only the rows it fills count.
    let mut short = self::app(&[b'a'; 50], 80, 24);
    short.update(Action::ScreenBottom);
    assert_eq!(short.cursor, 48);
    short.update(Action::ScreenMiddle);
    assert_eq!(short.cursor, 16);
}

/// An app in `dialect` (its scan done), the cursor at `target` as `:` takes it.
fn app_in(dialect: Dialect, bytes: &[u8], width: u16, height: u16, target: &str) -> App {
    let mut summary = Summary::build(dialect, bytes, 1, &Progress::new()).unwrap();
    summary.elapsed = Duration::from_millis(2);
    let source = Source::from_bytes("fixture", bytes.to_vec());
    let mut app = App::with_summary(source, summary, Rect::new(0, 0, width, height), false);
    assert_eq!(app.dialect, dialect);
    app.update(Action::OpenGoto);
    for c in target.chars() {
        app.update(Action::Input(c));
    }
    app.update(Action::Submit);
    app
}

/// The detail pane's lines: from its title to the line above the status line.
fn pane(app: &App) -> Vec<String> {
    let text = screen(app);
    let lines: Vec<&str> = text.lines().collect();
    let title = lines
        .iter()
        .rposition(|l| l.starts_with(" unit at "))
        .expect("a detail pane");
    lines[title..lines.len() - 1]
        .iter()
        .map(|l| l.to_string())
        .collect()
}

/// A resync note, a second code point or a mojibake region is a fact beside the category
/// line, not in its place: where the rows leave lines to spare, the pane shows them all.
#[test]
fn the_detail_pane_shows_every_fact_it_has_room_for() {
    let sjis = hexrune::encoding::resolve("shift_jis").unwrap();
    let text = "こんにちは、世界！ｱｲｳ";
    let mut bytes = encoding_rs::SHIFT_JIS.encode(text).0.into_owned();
    bytes.extend_from_slice(b"\x82\n\x85\x40\xa0\xfd\x81");
    assert_eq!(
        pane(&app_in(sjis, &bytes, 100, 30, "0x12")),
        [
            " unit at 0x12 (18), 1 byte ─────────────────────────────────────────────────────────────────────────",
            "hex B1   octal 261   binary 10110001",
            "U+FF71  ｱ  HALFWIDTH KATAKANA LETTER A   block Halfwidth and Fullwidth Forms",
            "category Lo: other letter   width 1   UTF-16 FF71   plane 0 BMP",
            "resync Shift_JIS is not self-synchronizing: units found by decoding from offset 0",
            "",
        ]
    );
    // A bad trail names the byte that cannot follow its lead; an encoding is no dialect.
    let lines = |app: &App| pane(app)[1..3].to_vec();
    assert_eq!(
        lines(&app_in(sjis, &bytes, 100, 30, "0x15")),
        [
            "hex 82   octal 202   binary 10000010",
            "error bad_trail: lead byte followed by a byte that cannot follow it: 0A cannot follow 82",
        ]
    );
    assert_eq!(
        lines(&app_in(sjis, &bytes, 100, 30, "0x19"))[1],
        "error invalid_byte: byte that never occurs in this encoding"
    );
    let big5 = hexrune::encoding::resolve("big5").unwrap();
    assert_eq!(
        pane(&app_in(big5, b"\xc1\x63\xc5\xe9\xa4\xa4\xa4\xe5\x88\x62\n", 100, 30, "8")),
        [
            " unit at 0x8 (8), 2 bytes ──────────────────────────────────────────────────────────────────────────",
            "hex 88 62   octal 210 142   binary 10001000 01100010",
            "U+00CA  Ê  LATIN CAPITAL LETTER E WITH CIRCUMFLEX   block Latin-1 Supplement",
            "category Lu: uppercase letter   width 1   UTF-16 00CA   plane 0 BMP",
            "text decodes to two code points: U+00CA U+0304",
            "resync Big5 is not self-synchronizing: units found by decoding from offset 2",
        ]
    );
    let broken = b"caf\xe9 ok \xc0\xaf x \xe2\x82 y \xed\xa0\xbd\xed\xb8\x80 \xc3\xa2\xe2\x82\xac\xe2\x84\xa2 end\xf0\x9f\n";
    assert_eq!(
        pane(&app_in(Dialect::Utf8, broken, 100, 30, "0x19"))[2..],
        [
            "U+00E2  â  LATIN SMALL LETTER A WITH CIRCUMFLEX   block Latin-1 Supplement",
            "category Ll: lowercase letter   width 1   UTF-16 00E2   plane 0 BMP",
            "mojibake 0x19..0x21 windows-1252 → “’”",
            "",
        ]
    );
    // Where the rows leave no line, the category line stays and the resync note goes.
    let mut large = bytes.repeat(200);
    large.extend_from_slice(&bytes);
    assert_eq!(
        pane(&app_in(sjis, &large, 100, 30, "0x12"))[1..],
        [
            "hex B1   octal 261   binary 10110001",
            "U+FF71  ｱ  HALFWIDTH KATAKANA LETTER A   block Halfwidth and Fullwidth Forms",
            "category Lo: other letter   width 1   UTF-16 FF71   plane 0 BMP",
        ]
    );
}

/// A bytes line that fits the pane exactly is shown whole, neither cut nor wrapped.
#[test]
fn a_bytes_line_that_fits_is_whole() {
    let sjis = hexrune::encoding::resolve("shift_jis").unwrap();
    // あ: 82 A0. `hex 82 A0   octal 202 240   binary 10000010` is 43 columns.
    let app = app_in(sjis, b"\x82\xa0\n", 43, 15, "0");
    assert_eq!(
        pane(&app)[1..3],
        ["hex 82 A0   octal 202 240   binary 10000010", "10100000"]
    );
    // 44 columns hold the first byte's bits with the second's.
    let app = app_in(Dialect::Utf8, "é\n".as_bytes(), 44, 15, "0");
    assert_eq!(
        pane(&app)[1],
        "hex C3 A9   octal 303 251   binary 110│00011"
    );
    let app = app_in(Dialect::Utf8, "é\n".as_bytes(), 54, 15, "0");
    assert_eq!(
        pane(&app)[1],
        "hex C3 A9   octal 303 251   binary 110│00011 10│101001"
    );
}

/// A UTF-16 unit's bits are the code unit's, high bit first whatever the byte order; a
/// surrogate's marker bits stand apart from its 10 payload bits.
#[test]
fn utf16_bits_are_code_units_with_surrogate_prefixes() {
    let bytes = b"\xff\xfeH\x00\xe9\x00\x3d\xd8\x00\xde\n\x00";
    let le = |w, h, at| pane(&app_in(Dialect::Utf16Le, bytes, w, h, at));
    assert_eq!(
        le(120, 30, "6")[1],
        "hex 3D D8 00 DE   octal 075 330 000 336   binary 110110│0000111101 110111│1000000000 (each unit high byte first)"
    );
    assert_eq!(
        le(80, 24, "6")[1..3],
        [
            "hex 3D D8 00 DE   octal 075 330 000 336   binary 110110│0000111101",
            "110111│1000000000 (each unit high byte first)",
        ]
    );
    assert_eq!(
        le(120, 30, "4")[1],
        "hex E9 00   octal 351 000   binary 0000000011101001 (each unit high byte first)"
    );
    let be: Vec<u8> = bytes.chunks(2).flat_map(|u| [u[1], u[0]]).collect();
    assert_eq!(
        pane(&app_in(Dialect::Utf16Be, &be, 120, 30, "6"))[1],
        "hex D8 3D DE 00   octal 330 075 336 000   binary 110110│0000111101 110111│1000000000"
    );
    let utf32 = b"\x00\xf6\x01\x00\n\x00\x00\x00";
    assert_eq!(
        pane(&app_in(Dialect::Utf32Le, utf32, 120, 30, "0"))[1],
        "hex 00 F6 01 00   octal 000 366 001 000   binary 00000000000000011111011000000000 (each unit high byte first)"
    );
}

/// The cluster pane's title, cut at a narrow width, ends in `…` as the detail pane's cut
/// lines do.
#[test]
fn a_cut_cluster_title_ends_in_an_ellipsis() {
    let mut app = app(b"cafe ok\n", 43, 20);
    app.update(Action::ToggleClusters);
    let text = screen(&app);
    let title = text
        .lines()
        .find(|l| l.starts_with(" cluster at "))
        .unwrap();
    assert_eq!(title, " cluster at 0x0, 1 byte, 1 code point, wid\u{2026}");
}

/// `e` with a label the viewer cannot read says why within the status line.
#[test]
fn an_unsupported_encoding_says_why_in_the_status_line() {
    let mut app = app(b"cafe ok\n", 80, 24);
    app.update(Action::OpenEncoding);
    for c in "hz-gb-2312".chars() {
        app.update(Action::Input(c));
    }
    app.update(Action::Submit);
    assert_eq!(
        line(&app, 23),
        "                 'hz-gb-2312' is not supported: WHATWG decodes it to one U+FFFD"
    );
}

/// The status line's percentage is rounded down: `100%` on the last byte only.
#[test]
fn the_percentage_says_100_on_the_last_byte_only() {
    let status = |len: usize, at: &str| {
        let app = app_at(&vec![b'a'; len], 120, 24, at);
        line(&app, 23).split("  utf8").next().unwrap().to_string()
    };
    assert_eq!(
        status(3800, "3781"),
        " fixture  3.7 KiB (3800 B)  0xEC5 (3781)  99%"
    );
    assert_eq!(
        status(3800, "3798"),
        " fixture  3.7 KiB (3800 B)  0xED6 (3798)  99%"
    );
    assert_eq!(
        status(3800, "3799"),
        " fixture  3.7 KiB (3800 B)  0xED7 (3799)  100%"
    );
    assert_eq!(status(19, "0"), " fixture  19 B  0x0 (0)  5%");
    assert_eq!(status(3800, "0"), " fixture  3.7 KiB (3800 B)  0x0 (0)  0%");
    assert_eq!(status(1, "0"), " fixture  1 B  0x0 (0)  100%");
}

/// At the end of the input every key that scrolls keeps a full screen of rows, as `less`
/// does and as the start does: the last row of the input stays on the screen's last row.
#[test]
fn page_keys_at_the_end_keep_a_full_screen() {
    // 80×24: 18 rows of 16 bytes; 10 000 bytes are 625 rows, the last at 0x2700.
    let full_top = (625 - 18) * 16;
    for keys in [
        &[Action::End, Action::PageDown][..],
        &[Action::End, Action::PageDown, Action::PageDown],
        &[Action::End, Action::HalfPageDown],
        &[Action::End, Action::ScrollDown, Action::ScrollDown],
        &[
            Action::Start,
            Action::PageDown,
            Action::Digit(9),
            Action::Digit(9),
            Action::PageDown,
        ],
        &[
            Action::Start,
            Action::Digit(3),
            Action::Digit(0),
            Action::Digit(0),
            Action::ScrollDown,
        ],
    ] {
        let mut app = app(&[b'a'; 10_000], 80, 24);
        for key in keys {
            app.update(key.clone());
        }
        assert_eq!(app.top, full_top, "{keys:?}");
        app.update(Action::ScreenTop);
        assert_eq!(app.cursor / 16 * 16, full_top, "H after {keys:?}");
        app.update(Action::ScreenMiddle);
        assert_eq!(app.cursor / 16, full_top / 16 + 8, "M after {keys:?}");
    }
}

/// `~/` first asks for a lookalike search; a `\` before it is dropped and the rest is
/// searched as written, so text that begins with `~/` can be searched for, and `\~/` too.
#[test]
fn a_backslash_before_a_tilde_slash_searches_it_as_written() {
    let bytes = b"home ~/x and \\~/x, ~/../etc, x\n";
    let search = |app: &mut App, typed: &str| {
        app.update(Action::OpenSearch { backward: false });
        for c in typed.chars() {
            app.update(Action::Input(c));
        }
        app.update(Action::Submit);
        finish_job(app);
        let said = app.message.as_ref().map(|m| m.text.clone());
        (app.cursor, said.unwrap_or_default())
    };
    let mut app = app(bytes, 120, 30);
    assert_eq!(
        search(&mut app, "\\~/x"),
        (0x5, "search \"~/x\": found at 0x5".to_string())
    );
    // `\\~/x` typed: the text `\~/x`, at 0xD.
    assert_eq!(
        search(&mut app, "\\\\~/x"),
        (0xD, "search \"\\~/x\": found at 0xD".to_string())
    );
    // Without the backslash, a lookalike search for `x`, from the cursor on.
    assert_eq!(
        search(&mut app, "~/x"),
        (
            0x10,
            "search lookalike \"x\": found at 0x10: the text as written".to_string()
        )
    );
    // A backslash elsewhere is itself.
    assert_eq!(
        search(&mut app, "\\x"),
        (0x10, "search \"\\x\": none found".to_string())
    );
    assert_eq!(
        search(&mut app, "d \\~"),
        (
            0xB,
            "search \"d \\~\": found at 0xB (search wrapped)".to_string()
        )
    );
    // The prompt names the search it will run.
    app.update(Action::OpenSearch { backward: false });
    for c in "\\~/".chars() {
        app.update(Action::Input(c));
    }
    assert!(
        line(&app, 29).starts_with("/text (Tab: hex): \\~/"),
        "{}",
        line(&app, 29)
    );
}

/// Each row of the help's legend of placeholders shows each glyph once: `␣ ␣` and `∄ ∄`
/// showed two code points drawn alike, and the combining and spacing marks share a row
/// no more.
#[test]
fn the_legend_shows_each_glyph_once() {
    let mut app = app(hexrune::cli::demo::BYTES, 120, 120);
    app.update(Action::Help);
    let lines = help_text(&app);
    let start = lines.iter().position(|l| l.trim() == "text pane:").unwrap();
    let legend: Vec<&str> = lines[start + 1..]
        .iter()
        .take_while(|l| !l.trim().is_empty())
        .map(String::as_str)
        .collect();
    for row in [
        "   ␣                              space other than U+0020",
        "   ◌́                              combining mark, drawn on a dotted circle",
        "   ◌                              spacing mark, or a Hangul vowel or final: the dotted circle alone",
        "   ∄                              unassigned code point or noncharacter",
    ] {
        assert!(legend.contains(&row), "{row:?} not in {legend:#?}");
    }
    for row in &legend {
        let head: Vec<&str> = row.split("  ").next().unwrap().split_whitespace().collect();
        let mut seen = head.clone();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), head.len(), "{row}");
    }
}

#[test]
fn searches_wrap_around_the_ends() {
    let mut bytes = vec![b'.'; 3000];
    bytes[100..103].copy_from_slice(b"abc");
    let mut app = app_at(&bytes, 80, 24, "2000");
    let search = |app: &mut App, backward: bool| {
        app.update(Action::OpenSearch { backward });
        for c in "abc".chars() {
            app.update(Action::Input(c));
        }
        app.update(Action::Submit);
        finish_job(app);
    };
    search(&mut app, false);
    assert_eq!(app.cursor, 100);
    assert_eq!(
        app.message.as_ref().map(|m| m.text.as_str()),
        Some("search \"abc\": found at 0x64 (search wrapped)")
    );
    assert!(
        line(&app, 23).contains("(search wrapped)"),
        "{}",
        line(&app, 23)
    );
    // n from the only match comes back to it, round the end again.
    app.update(Action::RepeatSearch { reverse: false });
    finish_job(&mut app);
    assert_eq!(app.cursor, 100);
    assert!(app
        .message
        .as_ref()
        .unwrap()
        .text
        .ends_with("(search wrapped)"));
    // Backward from before it wraps round the start.
    app.update(Action::Start);
    search(&mut app, true);
    assert_eq!(app.cursor, 100);
    assert_eq!(
        app.message.as_ref().map(|m| m.text.as_str()),
        Some("search \"abc\": found at 0x64 (search wrapped)")
    );
    // Without wrapping, no note.
    app.update(Action::End);
    search(&mut app, true);
    assert_eq!(
        app.message.as_ref().map(|m| m.text.as_str()),
        Some("search \"abc\": found at 0x64")
    );
    // Not there at all.
    app.update(Action::OpenSearch { backward: false });
    app.update(Action::Input('z'));
    app.update(Action::Submit);
    finish_job(&mut app);
    assert_eq!(
        app.message.as_ref().map(|m| m.text.as_str()),
        Some("search \"z\": none found")
    );
}

/// A U+FFFD already in the file is a finding, not an error: its text cell is underlined and
/// not bold, where an error unit's U+FFFD is bold (with colour and without), and the detail
/// pane says what it means.
#[test]
fn a_replacement_character_in_the_file_is_marked_apart_from_an_error() {
    use ratatui::style::{Color, Modifier};
    // a, U+FFFD (EF BF BD), b, an invalid byte FF, c: text columns 0 to 6.
    let bytes = b"a\xEF\xBF\xBDb\xFFc";
    for color in [false, true] {
        let mut app = app_at(bytes, 120, 30, "1");
        app.color = color;
        let layout = app.layout().unwrap();
        let mut terminal = Terminal::new(TestBackend::new(120, 30)).unwrap();
        terminal.draw(|f| draw::draw(f, &app)).unwrap();
        let buf = terminal.backend().buffer().clone();
        let y = layout.rows.y;
        let (found, error) = (&buf[(layout.text_x + 1, y)], &buf[(layout.text_x + 5, y)]);
        assert_eq!((found.symbol(), error.symbol()), ("\u{FFFD}", "\u{FFFD}"));
        assert!(found.modifier.contains(Modifier::UNDERLINED), "{color}");
        assert!(!found.modifier.contains(Modifier::BOLD), "{color}");
        assert!(error.modifier.contains(Modifier::BOLD), "{color}");
        assert!(!error.modifier.contains(Modifier::UNDERLINED), "{color}");
        if color {
            assert_eq!((found.fg, error.fg), (Color::LightYellow, Color::LightRed));
        }
        let text = screen(&app);
        assert!(
            text.contains(
                "U+FFFD  \u{FFFD}  REPLACEMENT CHARACTER   block Specials   data was lost upstream"
            ),
            "{text}"
        );
    }
}

/// The detail pane's lines at `target`, at 120 columns: its title, its three lines and
/// the spare line a small input leaves it.
fn detail_at(bytes: &[u8], target: &str, setup: impl Fn(&mut App)) -> Vec<String> {
    let mut app = app_at(bytes, 120, 30, target);
    setup(&mut app);
    let text = screen(&app);
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let title = lines
        .iter()
        .position(|l| l.contains(" unit at "))
        .expect("a detail pane");
    lines[title..title + 5].to_vec()
}

/// The bytes line of a 6-byte unit (legacy dialect) wraps onto the pane's spare line
/// between two bytes' bits, rather than cut the last byte's payload at 120 columns.
#[test]
fn a_six_byte_units_binary_wraps_in_the_detail_pane() {
    let lines = detail_at(b"x\xfc\x84\x80\x80\x80\x80y\n", "1", |app| {
        for _ in 0..4 {
            app.update(Action::NextDialect);
        }
        assert_eq!(app.dialect, Dialect::Legacy);
    });
    assert_eq!(
        lines[1..5],
        [
            "hex FC 84 80 80 80 80   octal 374 204 200 200 200 200   binary 1111110│0 10│000100 10│000000 10│000000 10│000000",
            "10│000000",
            "U+4000000  ⁺  <not-unicode-4000000>   block none",
            "category above U+10FFFF: not a Unicode code point   width none   UTF-16 none   plane none",
        ]
    );
}

/// An error unit is read in the fallback encoding in the detail pane (windows-1252 unless
/// told otherwise, sanitised, an undefined byte said as such); escapes of a byte are named
/// wherever the cursor is in them; `--escape` draws a glyph a byte and says which code point.
#[test]
fn fallback_and_escapes_in_the_detail_pane() {
    use hexrune::view::fallback::{Escape, Fallback};
    // caf E9, space, 9B, space, 81, space, ED B3 A9 (U+DCE9 in WTF-8), space, EE BF A9.
    let bytes = b"caf\xE9 \x9B \x81 \xED\xB3\xA9 \xEE\xBF\xA9";
    let third = |target: &str, setup: &dyn Fn(&mut App)| detail_at(bytes, target, setup)[3].clone();
    assert_eq!(
        third("3", &|_| {}),
        "likely lone byte E9 between ASCII bytes   expected 80..BF here   fallback é (windows-1252)"
    );
    assert_eq!(
        third("7", &|_| {}),
        "likely lone byte 81 between ASCII bytes   fallback <81?> (81 undefined in windows-1252)"
    );
    // ISO-8859-2 reads 9B as CSI: escaped on screen, and windows-1252's '›' is still said.
    let latin2 = Fallback::from_label("iso-8859-2").unwrap();
    assert_eq!(
        third("5", &|app: &mut App| app.fallback = latin2),
        r"likely lone byte 9B: '›' in Latin-1/Windows-1252?   fallback \u{9b} (ISO-8859-2)"
    );
    assert_eq!(
        third("5", &|app: &mut App| app.fallback = None),
        "likely lone byte 9B: '›' in Latin-1/Windows-1252?"
    );
    // Every byte of ED B3 A9 is in the escape of E9, whatever the error unit.
    for target in ["9", "10", "11"] {
        let line = third(target, &|_| {});
        assert!(
            line.starts_with("likely U+DCE9 is how Python's surrogateescape writes the byte E9"),
            "{target}: {line}"
        );
    }
    // EE BF A9 is valid UTF-8: a private-use character, and the OPTU-8 escape of E9.
    let optu8 = third("14", &|_| {});
    assert!(
        optu8.starts_with(
            "escape U+EFE9 is how OPTU-8 writes the byte E9   category Co: private use"
        ),
        "{optu8}"
    );
    // --escape: a glyph a byte in the text pane, the code points in the detail pane.
    let mut app = app_at(bytes, 120, 30, "3");
    app.escape = Some(Escape::Pep383);
    let text = screen(&app);
    assert!(text.contains("cafˣ ˣ ˣ ˣˣˣ "), "{text}");
    assert!(
        text.contains("escaped U+DCE9 (pep383)   fallback é (windows-1252)"),
        "{text}"
    );
    app.escape = Some(Escape::Optu8);
    assert!(screen(&app).contains("escaped U+EFE9 (optu8)   fallback é (windows-1252)"));
}

/// At 80 columns the diagnosis comes first on its line, so it is not cut off; the
/// fallback reading wraps onto the spare line a small input leaves the pane.
#[test]
fn the_fallback_reading_fits_80_columns() {
    let mut app = app_at(b"caf\xE9 ok", 80, 24, "3");
    app.escape = Some(hexrune::view::fallback::Escape::Pep383);
    insta::assert_snapshot!("fallback_80x24", screen(&app));
}

/// A UTF-16LE file with a pair, a lone high and a lone low surrogate and an odd last byte,
/// at 80×24 and 120×40: the class lane's `2₂` and `4₂₃₄`, the glyph on each unit's first
/// byte, the error letters, the detail of the pair, and the encoding on the status line.
#[test]
fn utf16_at_80_by_24_and_120_by_40() {
    let mut bytes = wide::text(Dialect::Utf16Le, "Zürich 😀 naïve\n");
    bytes.extend_from_slice(b"a\x00\x3d\xd8b\x00\x00\xdez");
    for (w, h) in [(80, 24), (120, 40)] {
        let mut summary = Summary::build(Dialect::Utf16Le, &bytes, 1, &Progress::new()).unwrap();
        summary.elapsed = Duration::from_millis(2);
        let source = Source::from_bytes("fixture16", bytes.clone());
        let mut app = App::with_summary(source, summary, Rect::new(0, 0, w, h), false);
        assert_eq!(app.dialect, Dialect::Utf16Le);
        // The cursor on the last byte of the pair: the detail is the whole 4-byte unit.
        for c in "17".chars() {
            if app.prompt.is_none() {
                app.update(Action::OpenGoto);
            }
            app.update(Action::Input(c));
        }
        app.update(Action::Submit);
        let text = screen(&app);
        assert!(text.contains("U+1F600"), "{text}");
        assert!(text.contains("utf16le"), "{text}");
        insta::assert_snapshot!(format!("utf16_{w}x{h}"), text);
    }
}

/// Lint findings as the viewer marks them, and a lookalike match: a file with an overlong
/// `/`, a right-to-left override left open and a zero-width space, at 120×40 and 80×24.
/// At 50 columns the help puts each description under its keys, so it reads in lines
/// of words, not in a column of one or two words beside the widest keys.
#[test]
fn help_at_50_columns_puts_descriptions_under_their_keys() {
    let mut app = app(hexrune::cli::demo::BYTES, 50, 24);
    app.update(Action::Help);
    let first = help_text(&app);
    assert_eq!(
        first[..4],
        [
            " ← → / h l",
            "    previous / next byte",
            " ↑ ↓ / k j",
            "    previous / next row"
        ]
    );
    assert!(screen(&app).contains(" 1-22 of 181 "), "{}", screen(&app));
    let mut seen = first;
    loop {
        let before = app.help_scroll;
        app.update(Action::Down);
        if app.help_scroll == before {
            break;
        }
        seen.push(help_text(&app).last().unwrap().clone());
    }
    assert_eq!(seen.len(), 181);
    let all = seen
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for (keys, what) in hexrune::tui::keymap::KEYS {
        assert!(
            all.contains(&format!("{keys} {what}")),
            "{keys}: {what}\n{all}"
        );
    }
    // Nothing is cut: every line fits inside the frame.
    assert!(seen
        .iter()
        .all(|l| unicode_width::UnicodeWidthStr::width(l.as_str()) <= 47));
}

#[test]
fn findings_and_lookalike_matches() {
    let bytes = b"GET /a/..\xC0\xAFetc/passwd\n// admin \xE2\x80\xAE check\npay\xE2\x80\x8Bpal\n\
x=\xC0\xAE\xC0\xAE\xC0\xAF\n";
    let security = hexrune::lint::Lints {
        targets: vec![],
        security: true,
    };
    for (w, h, name) in [(120, 40, "findings_120x40"), (80, 24, "findings_80x24")] {
        let mut app = app(bytes, w, h);
        app.set_lints(security.clone());
        app.lint_now();
        app.update(Action::NextFinding);
        app.update(Action::NextFinding);
        insta::assert_snapshot!(name, screen(&app));
    }
    let mut app = app(bytes, 120, 40);
    app.set_lints(security);
    app.lint_now();
    app.update(Action::Stats);
    insta::assert_snapshot!("findings_stats", screen(&app));
    app.update(Action::Stats);
    app.update(Action::OpenSearch { backward: false });
    for c in "~/../".chars() {
        app.update(Action::Input(c));
    }
    app.update(Action::Submit);
    finish_job(&mut app);
    app.update(Action::RepeatSearch { reverse: false });
    finish_job(&mut app);
    insta::assert_snapshot!("lookalike_match", screen(&app));
}

/// The statistics overlay, taller than a 80×20 screen with the findings' counts, scrolls as
/// the help does: every line is reached, one at a time, and its frame says which are shown.
#[test]
fn the_statistics_scroll_where_they_do_not_fit() {
    let bytes = b"GET /a/..\xC0\xAFetc/passwd\n// admin \xE2\x80\xAE check\npay\xE2\x80\x8Bpal\n\
x=\xC0\xAE\xC0\xAE\xC0\xAF\n";
    let mut app = app(bytes, 80, 20);
    app.set_lints(hexrune::lint::Lints {
        targets: vec![],
        security: true,
    });
    app.lint_now();
    app.update(Action::Stats);
    // The overlay is 72 columns wide, centred: its inside is columns 5 to 74, between the
    // rows of its frame.
    let framed = |app: &App| -> Vec<String> {
        let screen = screen(app);
        let rows: Vec<&str> = screen.lines().collect();
        let top = rows.iter().position(|l| l.contains('┌')).unwrap();
        let bottom = rows.iter().position(|l| l.contains('└')).unwrap();
        rows[top + 1..bottom]
            .iter()
            .map(|l| {
                l.chars()
                    .skip(5)
                    .take(70)
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect()
    };
    let first = framed(&app);
    assert_eq!(first.len(), 18, "{}", screen(&app));
    assert!(screen(&app).contains(" 1-18 of 22 "), "{}", screen(&app));
    let mut seen = first.clone();
    loop {
        let before = app.stats_scroll;
        app.update(Action::Down);
        if app.stats_scroll == before {
            break;
        }
        seen.push(framed(&app).last().unwrap().clone());
    }
    // Every line of the overlay drawn on a screen tall enough for all of them is reached.
    let mut tall = self::app(bytes, 80, 60);
    tall.set_lints(hexrune::lint::Lints {
        targets: vec![],
        security: true,
    });
    tall.lint_now();
    tall.update(Action::Stats);
    let whole = framed(&tall);
    assert_eq!(whole.len(), 22, "{}", screen(&tall));
    assert_eq!(seen, whole);
    assert!(
        !screen(&tall).contains("PgDn PgUp"),
        "all shown: no position in the frame"
    );
    assert!(
        whole.iter().any(|l| l.contains("overlong-ascii")),
        "{whole:?}"
    );
    // g and G, PgUp and PgDn; the view does not move under it.
    app.update(Action::Start);
    assert_eq!(app.stats_scroll, 0);
    app.update(Action::PageDown);
    assert_eq!(app.stats_scroll, 4);
    app.update(Action::End);
    assert_eq!(app.stats_scroll, 4);
    assert_eq!(app.cursor, 0, "the keys scroll the overlay, not the view");
    assert_eq!(framed(&app).last(), whole.last());
    // Closing and opening again starts at the top.
    app.update(Action::Stats);
    assert!(!app.stats);
    app.update(Action::Stats);
    assert_eq!(app.stats_scroll, 0);
}

/// A flag, a family, a keycap with CR LF after it, Hangul jamo, a Devanagari conjunct, a
/// combining accent, and the same accent cut off its base by an invalid byte.
const CLUSTERS: &[u8] = b"flag \xf0\x9f\x87\xab\xf0\x9f\x87\xb7 family \xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7\xe2\x80\x8d\xf0\x9f\x91\xa6 keycap 1\xef\xb8\x8f\xe2\x83\xa3\r\nhangul \xe1\x84\x92\xe1\x85\xa1\xe1\x86\xab hindi \xe0\xa4\x95\xe0\xa5\x8d\xe0\xa4\xb7 e\xcc\x81 bad e\xff\xcc\x81\n";

#[test]
fn the_cluster_lane_and_pane() {
    let mut app = app(CLUSTERS, 120, 40);
    let plain = screen(&app);
    app.update(Action::ToggleClusters);
    // On the family emoji (0x15..0x2E), its third code point.
    app.cursor = 0x1D;
    let shown = screen(&app);
    insta::assert_snapshot!("clusters_120x40", shown);
    let lines: Vec<&str> = shown.lines().collect();
    // Row 0x00: the flag, 8 bytes from column 5, under the hex and the text.
    assert!(lines[2].starts_with(&format!("{}╰{}╯  ", " ".repeat(25), "─".repeat(21))));
    assert!(lines[2].contains(&format!("{}╰──────╯  ", " ".repeat(34))));
    // The family goes on across two rows: no end on the first, no start on the second.
    assert!(lines[4].contains("╰───────────────────────────────") && !lines[4].contains('╯'));
    assert!(lines[6].starts_with("          ────────────────────────────────────────╯"));
    // CR LF (0x3D, 0x3E) is one cluster; the accent after the invalid byte is alone.
    assert!(lines[8].contains("╰──────────────────╯ ╰───╯"));
    assert!(lines[14].starts_with("          ╰──────╯    ") && lines[14].matches('╰').count() == 2);
    let pane = shown
        .lines()
        .position(|l| l.starts_with(" cluster at "))
        .unwrap();
    assert!(lines[pane].starts_with(" cluster at 0x15, 25 bytes, 7 code points, width 2 ─"));
    assert_eq!(
        lines[pane + 1],
        "hex F0 9F 91 A8 E2 80 8D F0 9F 91 A9 E2 80 8D F0 9F 91 A7 E2 80 8D F0 9F 91 A6"
    );
    assert!(lines[pane + 2].starts_with("U+1F468 MAN · U+200D ZERO WIDTH JOINER · U+1F469 WOMAN ·"));
    // The unit's own detail is still there, below.
    assert!(lines[pane + 4].starts_with(" unit at 0x1C (28), 4 bytes"));
    // c again: the screen as it was.
    app.update(Action::ToggleClusters);
    app.cursor = 0;
    assert_eq!(screen(&app), plain);
}

#[test]
fn the_cluster_lane_at_80_by_24_halves_the_rows() {
    let mut app = app(&CLUSTERS.repeat(8), 80, 24);
    let rows_before = app.layout().unwrap().data_rows();
    app.update(Action::ToggleClusters);
    let layout = app.layout().unwrap();
    assert_eq!(
        (rows_before, layout.data_rows(), layout.row_lines),
        (18, 7, 2)
    );
    insta::assert_snapshot!("clusters_80x24", screen(&app));
    // A page is the rows shown.
    app.update(Action::PageDown);
    assert_eq!(app.top, 7 * 16);
    // A click on a lane line selects nothing; on a data row, its byte.
    let cursor = app.cursor;
    app.update(Action::Click { x: 12, y: 2 });
    assert_eq!(app.cursor, cursor);
    app.update(Action::Click { x: 12, y: 3 });
    assert_eq!(app.cursor, 7 * 16 + 16);
}

#[test]
fn a_zalgo_cluster_past_the_bound_is_open() {
    let mut bytes = b"a".to_vec();
    for _ in 0..700 {
        bytes.extend_from_slice("\u{301}".as_bytes());
    }
    bytes.push(b'\n');
    let mut app = app(&bytes, 120, 40);
    app.update(Action::ToggleClusters);
    app.cursor = 1300;
    app.update(Action::Right);
    let shown = screen(&app);
    let pane = shown
        .lines()
        .find(|l| l.starts_with(" cluster at "))
        .unwrap();
    // Its start is more than 1 KiB back: seen from 1301 - 1024 = 0x115, a mark's first byte.
    // What is seen of it is at least its size; its width, without its letter, is unknown.
    assert!(
        pane.starts_with(
            " cluster at …0x115, at least 1124 bytes and 562 code points, width unknown ─"
        ),
        "{pane}"
    );
    assert!(shown.contains("hex (longer: past 1024 bytes of context) CC 81 CC 81 "));
    // One line for 562 equal marks.
    assert!(
        shown.contains("\nU+0301 COMBINING ACUTE ACCENT ×562\n"),
        "{shown}"
    );
}

#[test]
fn regional_indicators_pair_past_the_context() {
    // x, then 400 flags: the pairing 2 KiB in is counted back to the run's start.
    let mut bytes = b"x".to_vec();
    bytes.extend_from_slice("\u{1F1EB}\u{1F1F7}".repeat(400).as_bytes());
    bytes.push(b'\n');
    let mut app = app_at(&bytes, 120, 40, "0x800");
    app.update(Action::ToggleClusters);
    let shown = screen(&app);
    let lines: Vec<&str> = shown.lines().collect();
    let pane = lines
        .iter()
        .find(|l| l.starts_with(" cluster at "))
        .unwrap();
    assert!(
        pane.starts_with(" cluster at 0x7F9, 8 bytes, 2 code points, width 2 ─"),
        "{pane}"
    );
    assert!(shown.contains("\nhex F0 9F 87 AB F0 9F 87 B7\n"), "{shown}");
    // Under row 0x800: the end of that flag, a whole flag, the start of the next, as
    // `dump --clusters` draws them.
    let row = lines
        .iter()
        .position(|l| l.starts_with("00000800"))
        .unwrap();
    assert_eq!(
        lines[row + 1],
        "          ─╯ ╰─────────────────────╯ ╰───────────────────                    ╯╰──────╯╰──────                         │▒"
    );
}

#[test]
fn a_zalgo_cluster_cut_by_the_context_says_what_is_known() {
    // Z and 3000 accents: one cluster of 0x4..0x1775 (6001 bytes, 3001 code points).
    let mut bytes = b"abc Z".to_vec();
    bytes.extend_from_slice("\u{301}".repeat(3000).as_bytes());
    bytes.extend_from_slice(b" end\n");
    let mut app = app(&bytes, 120, 40);
    app.update(Action::ToggleClusters);
    let pane = |app: &App| {
        let shown = screen(app);
        let lines: Vec<String> = shown.lines().map(str::to_string).collect();
        let title = lines
            .iter()
            .position(|l| l.starts_with(" cluster at "))
            .unwrap();
        (lines, title)
    };
    // Its start is known, its end past the context: the figures are of what is decoded.
    app.cursor = 0x280;
    let (lines, title) = pane(&app);
    assert!(
        lines[title].starts_with(
            " cluster at 0x4, at least 1661 bytes and 831 code points…, width 1 so far ─"
        ),
        "{}",
        lines[title]
    );
    // The lane: the bracket under the last row shown ends in `…` (the rest lies below).
    let last = lines[title - 1].clone();
    assert_eq!(
        last,
        format!(
            "          {}…{}{}…{}│▒",
            "─".repeat(46),
            " ".repeat(20),
            "─".repeat(15),
            " ".repeat(25)
        )
    );
    // Near its end: its start is past the context, its width unknown (not 0).
    app.update(Action::End);
    app.cursor = 0x1729;
    let (lines, title) = pane(&app);
    assert!(
        lines[title].starts_with(
            " cluster at …0x1329, at least 1100 bytes and 550 code points, width unknown ─"
        ),
        "{}",
        lines[title]
    );
    // The first row shown starts with `…`: the cluster began further up.
    let first = lines[2].clone();
    assert!(
        first.starts_with(&format!("          …{}", "─".repeat(46))),
        "{first}"
    );
    // Within 1 KiB of both ends the figures are exact.
    let mut short = b"abc Z".to_vec();
    short.extend_from_slice("\u{301}".repeat(300).as_bytes());
    short.extend_from_slice(b" end\n");
    let mut app = app_at(&short, 120, 40, "0x100");
    app.update(Action::ToggleClusters);
    let (lines, title) = pane(&app);
    assert!(
        lines[title].starts_with(" cluster at 0x4, 601 bytes, 301 code points, width 1 ─"),
        "{}",
        lines[title]
    );
}

#[test]
fn goto_past_the_end_says_so_and_counts_agree_in_number() {
    let message = |app: &App| app.message.as_ref().map(|m| m.text.clone());
    let bytes = vec![b'a'; 202];
    let app = app_at(&bytes, 120, 40, "1000");
    assert_eq!(app.cursor, 201);
    assert_eq!(
        message(&app).as_deref(),
        Some("offset 1000 is past the end (202 bytes)")
    );
    assert!(screen(&app)
        .lines()
        .nth(39)
        .unwrap()
        .ends_with("offset 1000 is past the end (202 bytes)"));
    let app = app_at(&bytes, 120, 40, "+0x100");
    assert_eq!(
        message(&app).as_deref(),
        Some("offset +0x100 is past the end (202 bytes)")
    );
    // The last byte and 100% are in the file: nothing to say.
    for target in ["201", "100%", "0xC9"] {
        let app = app_at(&bytes, 120, 40, target);
        assert_eq!((app.cursor, message(&app)), (201, None), "{target}");
    }
    let app = app_at(b"a", 120, 40, "5");
    assert_eq!(
        message(&app).as_deref(),
        Some("offset 5 is past the end (1 byte)")
    );
    // Character numbers: one character is said in the singular.
    let app = app_at(b"a", 120, 40, "#2");
    assert_eq!(message(&app).as_deref(), Some("there is only 1 character"));
    let app = app_at(b"ab", 120, 40, "#3");
    assert_eq!(
        message(&app).as_deref(),
        Some("there are only 2 characters")
    );
}

/// A stream being read: how much has come, and the keys. Once read only in part, the
/// status line says so, first in a message, then beside the size.
#[test]
fn a_stream_read_in_part_says_so() {
    let mut buffer = ratatui::buffer::Buffer::empty(Rect::new(0, 0, 60, 6));
    draw::render_reading("<stdin>", 12_900_000, buffer.area, &mut buffer);
    let rows: Vec<String> = (0..6)
        .map(|y| {
            (0..60)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect();
    assert_eq!(
        rows,
        [
            "",
            "",
            "                  reading <stdin>… 12.3 MiB",
            "          Enter shows what is read so far, q quits",
            "",
            ""
        ]
    );
    use hexrune::source::Partial;
    for (partial, message) in [
        (
            Partial::Bound(4 << 30),
            "stopped reading at 3.9 KiB, the viewer's bound for a stream: the rest is not shown",
        ),
        (
            Partial::Stopped,
            "stopped reading at 3.9 KiB (Enter); what came later is not shown",
        ),
    ] {
        let source = Source::from_bytes("<stdin>", vec![b'y'; 4000]).with_partial(Some(partial));
        let mut app = App::new(source, Dialect::Utf8, Rect::new(0, 0, 120, 24), false);
        assert_eq!(app.message.as_ref().map(|m| m.text.as_str()), Some(message));
        app.update(Action::Right);
        assert_eq!(
            line(&app, 23),
            " <stdin>  3.9 KiB (4000 B), more not read  0x1 (1)  0%  utf8                                  scanning…  ? help  q quit"
        );
    }
}

/// The detail pane says what an error's bytes likely are before the readings that help
/// less; a small input leaves the pane a spare line, onto which the line wraps whole. A
/// large one does not, and then the readings after the diagnosis are what is cut.
#[test]
fn the_diagnosis_comes_first_and_wraps_where_there_is_room() {
    let small = b"cesu \xED\xA0\xBD\xED\xB8\x80 pair\n";
    let app = app_at(small, 80, 24, "5");
    let text = screen(&app);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[17..24],
        [
            " unit at 0x5 (5), 1 byte ───────────────────────────────────────────────────────",
            "hex ED   octal 355   binary 1110│1101",
            "error surrogate: lead of an encoded UTF-16 surrogate",
            "likely surrogate pair U+D83D U+DE00 for U+1F600 written as two 3-byte sequences",
            "(CESU-8 style)   expected 80..9F here   fallback í (windows-1252)",
            "",
            " fixture  17 B  0x5 (5)  35%  utf8  char 6 of 17                 ? help  q quit",
        ]
    );
    // Rows fill the screen: no spare line, and the diagnosis is what stays.
    let mut large = b"x".repeat(4096);
    large.extend_from_slice(small);
    let app = app_at(&large, 80, 24, "4101");
    let text = screen(&app);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[19..23],
        [
            " unit at 0x1005 (4101), 1 byte ─────────────────────────────────────────────────",
            "hex ED   octal 355   binary 1110│1101",
            "error surrogate: lead of an encoded UTF-16 surrogate",
            "likely surrogate pair U+D83D U+DE00 for U+1F600 written as two 3-byte sequences…",
        ]
    );
}

fn type_in(app: &mut App, text: &str) {
    for c in text.chars() {
        app.update(Action::Input(c));
    }
}

/// A message wider than the status line: a search gives up its pattern, not what it
/// found; any other is cut at its end; both cuts are marked `…`.
#[test]
fn a_long_message_keeps_its_outcome_and_marks_its_cut() {
    let mut app = app(b"hello world\n", 60, 20);
    app.update(Action::OpenSearch { backward: false });
    type_in(
        &mut app,
        "a very long search text that is wider than the screen itself",
    );
    app.update(Action::Submit);
    finish_job(&mut app);
    assert_eq!(
        line(&app, 19),
        "  search \"a very long search text that is wid…\": none found"
    );
    app.update(Action::OpenSearch { backward: false });
    type_in(&mut app, "world");
    app.update(Action::Submit);
    finish_job(&mut app);
    assert_eq!(app.cursor, 6);
    app.update(Action::OpenSearch { backward: false });
    type_in(&mut app, "hello world");
    app.update(Action::Submit);
    finish_job(&mut app);
    assert_eq!(
        app.message.as_ref().map(|m| m.text.as_str()),
        Some("search \"hello world\": found at 0x0 (search wrapped)")
    );
    assert_eq!(
        line(&app, 19),
        "        search \"hello world\": found at 0x0 (search wrapped)"
    );
    app.update(Action::OpenEncoding);
    type_in(&mut app, "klingon");
    app.update(Action::Submit);
    assert_eq!(
        line(&app, 19),
        "  unknown encoding 'klingon' (a dialect name like utf8 or …"
    );
}

/// The status line of a frame, and where the terminal's cursor is, if it is shown.
fn status_and_cursor(app: &App) -> (String, Option<(u16, u16)>) {
    let mut terminal = Terminal::new(TestBackend::new(app.size.width, app.size.height)).unwrap();
    terminal.draw(|f| draw::draw(f, app)).unwrap();
    let backend = terminal.backend();
    let cursor = backend.cursor_visible().then(|| {
        let p = backend.cursor_position();
        (p.x, p.y)
    });
    let last = app.size.height as usize - 1;
    (screen(app).lines().nth(last).unwrap().to_string(), cursor)
}

/// A prompt scrolls to keep what is typed last in view, the terminal's cursor after it;
/// the cursor is hidden again once the prompt closes.
#[test]
fn prompts_scroll_and_show_the_cursor() {
    let mut app = app(b"hello world\n", 60, 20);
    assert_eq!(status_and_cursor(&app).1, None);
    app.update(Action::OpenSearch { backward: false });
    app.update(Action::TogglePattern);
    assert_eq!(
        status_and_cursor(&app),
        ("/hex bytes (Tab: text):".to_string(), Some((24, 19)))
    );
    type_in(
        &mut app,
        "41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f 50 51 52 53 54 55",
    );
    assert_eq!(
        status_and_cursor(&app),
        (
            "/hex bytes (Tab: text): …a 4b 4c 4d 4e 4f 50 51 52 53 54 55".to_string(),
            Some((59, 19))
        )
    );
    for _ in 0..3 {
        app.update(Action::Backspace);
    }
    assert_eq!(
        status_and_cursor(&app),
        (
            "/hex bytes (Tab: text): …9 4a 4b 4c 4d 4e 4f 50 51 52 53 54".to_string(),
            Some((59, 19))
        )
    );
    app.update(Action::ClearInput);
    type_in(&mut app, "41 42");
    assert_eq!(
        status_and_cursor(&app),
        ("/hex bytes (Tab: text): 41 42".to_string(), Some((29, 19)))
    );
    app.update(Action::Cancel);
    assert_eq!(status_and_cursor(&app).1, None);
    // A label wider than half the line gives way first, then what is typed.
    app.update(Action::OpenEncoding);
    type_in(&mut app, "windows-1252 and more text");
    assert_eq!(
        status_and_cursor(&app),
        (
            "encoding (Tab: next choice, or ty…: …ows-1252 and more text".to_string(),
            Some((59, 19))
        )
    );
}

/// An Esc read together with the key after it arrives as that key with Alt: it acts as
/// Esc, then the key, in every mode (a count dropped, an overlay or prompt closed).
#[test]
fn esc_glued_to_a_key_is_esc_then_the_key() {
    use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    let key = |c: char, mods| Event::Key(KeyEvent::new(KeyCode::Char(c), mods));
    let alt_j = key('j', KeyModifiers::ALT);
    let mut app = app(hexrune::cli::demo::BYTES, 120, 40);
    for event in [
        key('1', KeyModifiers::NONE),
        key('2', KeyModifiers::NONE),
        alt_j.clone(),
    ] {
        hexrune::tui::feed(&mut app, event);
    }
    assert_eq!((app.cursor, app.count), (0x10, None));
    hexrune::tui::feed(&mut app, key('?', KeyModifiers::NONE));
    assert!(app.help);
    hexrune::tui::feed(&mut app, alt_j.clone());
    assert!(!app.help);
    assert_eq!(app.cursor, 0x20);
    hexrune::tui::feed(&mut app, key('s', KeyModifiers::NONE));
    hexrune::tui::feed(&mut app, alt_j.clone());
    assert!(!app.stats);
    assert_eq!(app.cursor, 0x30);
    hexrune::tui::feed(&mut app, key(':', KeyModifiers::NONE));
    hexrune::tui::feed(&mut app, key('5', KeyModifiers::NONE));
    hexrune::tui::feed(&mut app, alt_j);
    assert!(app.prompt.is_none());
    assert_eq!(app.cursor, 0x40);
    // Alt with Ctrl: Esc, then the Ctrl key (half a page down: 17 of 34 rows).
    hexrune::tui::feed(
        &mut app,
        key('d', KeyModifiers::ALT | KeyModifiers::CONTROL),
    );
    assert_eq!(app.cursor, 0x40 + 17 * 16);
}

/// A count of searches that goes round the end says so, whichever of its steps did.
#[test]
fn a_count_of_searches_that_wraps_says_so() {
    let mut app = app(b"ab ab ab ab.", 120, 40);
    app.update(Action::OpenSearch { backward: false });
    type_in(&mut app, "ab");
    app.update(Action::Submit);
    finish_job(&mut app);
    let message = |app: &App| app.message.as_ref().map(|m| m.text.clone()).unwrap();
    assert_eq!(
        (app.cursor, message(&app)),
        (3, "search \"ab\": found at 0x3".into())
    );
    app.cursor = 9;
    app.update(Action::Digit(3));
    app.update(Action::RepeatSearch { reverse: false });
    finish_job(&mut app);
    assert_eq!(
        (app.cursor, message(&app)),
        (6, "search \"ab\": found at 0x6 (search wrapped)".into())
    );
    // The next count starts afresh.
    app.update(Action::Digit(2));
    app.update(Action::RepeatSearch { reverse: true });
    finish_job(&mut app);
    assert_eq!(
        (app.cursor, message(&app)),
        (0, "search \"ab\": found at 0x0".into())
    );
    app.update(Action::Digit(2));
    app.update(Action::RepeatSearch { reverse: true });
    finish_job(&mut app);
    assert_eq!(
        (app.cursor, message(&app)),
        (6, "search \"ab\": found at 0x6 (search wrapped)".into())
    );
    assert!(line(&app, 39).ends_with("search \"ab\": found at 0x6 (search wrapped)"));
}

/// Once the file shrinks on disk, what the scan found is dropped: `]` searches the bytes
/// as they are (zeros past the new end), and the statistics say why they are gone.
#[test]
fn a_file_truncated_on_disk_drops_what_the_scan_found() {
    use std::io::Write;
    let mut bytes = vec![b'a'; 10_000];
    bytes.extend(b"\xFF\xC0\xAF the end\n");
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(&bytes).unwrap();
    file.flush().unwrap();
    let source = Source::open(file.path()).unwrap();
    let summary = Summary::build(Dialect::Utf8, &bytes, 1, &Progress::new()).unwrap();
    let mut app = App::with_summary(source, summary, Rect::new(0, 0, 100, 24), false);
    app.update(Action::NextError);
    assert_eq!(app.cursor, 10_000);
    app.update(Action::Start);
    file.as_file().set_len(1000).unwrap();
    let changed = app.pending_source_action().expect("the shrink is noticed");
    app.update(changed);
    app.update(Action::NextError);
    finish_job(&mut app);
    assert_eq!(app.cursor, 0);
    assert_eq!(
        app.message.as_ref().map(|m| m.text.as_str()),
        Some("next error: none found")
    );
    app.update(Action::Stats);
    let text = screen(&app);
    let popup: Vec<String> = text
        .lines()
        .skip(10)
        .take(4)
        .map(|l| l.chars().skip(14).take(72).collect())
        .collect();
    assert_eq!(
        popup,
        [
            "┌──────────────────── statistics: UTF-8 (RFC 3629) ────────────────────┐",
            "│ the file was truncated on disk: the scan's counts no longer hold     │",
            "│ (] and [ search the bytes it holds now; R reopens the file)          │",
            "└──────────────────────────────────────────────────────────────────────┘",
        ]
    );
}

/// An empty file is watched as a mapped one is: once it grows (a log not yet written to
/// when it was opened), the viewer says so, and `R` shows its bytes.
#[test]
fn an_empty_file_that_grows_is_said_to_as_any_other() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("app.log");
    std::fs::write(&path, b"").unwrap();
    let summary = Summary::build(Dialect::Utf8, b"", 1, &Progress::new()).unwrap();
    let source = Source::open(&path).unwrap();
    let mut app = App::with_summary(source, summary, Rect::new(0, 0, 120, 24), false);
    app.input_path = Some(path.clone());
    let mut log = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    log.write_all(b"started \xFF\n").unwrap();
    let grew = app.pending_source_action().expect("the growth is noticed");
    app.update(grew);
    let name = path.display().to_string();
    let left = format!(" {name}  0 B, grew on disk  \u{2014}  utf8");
    let right = "file grew on disk: R reopens it to show the new bytes ";
    let gap = " ".repeat(120 - left.chars().count() - right.chars().count());
    assert_eq!(line(&app, 23), format!("{left}{gap}{right}").trim_end());
    app.update(Action::Reopen);
    // Scanned again, as any file reopened.
    let left = format!(" {name}  10 B  0x0 (0)  10%  utf8");
    let right = format!("reopened {name}: 10 B (was 0 B)  scanning\u{2026} ");
    let gap = " ".repeat(120 - left.chars().count() - right.chars().count());
    assert_eq!(line(&app, 23), format!("{left}{gap}{right}").trim_end());
    assert_eq!(app.source.bytes(), b"started \xFF\n");
}

/// An input with the byte order mark of UTF-16 or UTF-32, opened as UTF-8, says at once
/// what `e` would read it as, and so does one without a mark whose zero bytes stand where
/// UTF-16 or UTF-32 puts them; in that encoding, or without either, nothing is said.
#[test]
fn a_utf16_byte_order_mark_is_said_at_the_start() {
    let said = |bytes: &[u8], dialect| {
        let source = Source::from_bytes("fixture", bytes.to_vec());
        let app = App::new(source, dialect, Rect::new(0, 0, 120, 24), false);
        app.message.clone().map(|m| m.text)
    };
    let le = b"\xFF\xFEh\x00i\x00\n\x00";
    assert_eq!(
        said(le, Dialect::Utf8).as_deref(),
        Some("starts with a UTF-16LE byte order mark: e reads it as UTF-16LE")
    );
    assert_eq!(
        said(b"\xFE\xFF\x00h", Dialect::Utf8).as_deref(),
        Some("starts with a UTF-16BE byte order mark: e reads it as UTF-16BE")
    );
    assert_eq!(
        said(b"\xFF\xFE\x00\x00h\x00\x00\x00", Dialect::Utf8).as_deref(),
        Some("starts with a UTF-32LE byte order mark: e reads it as UTF-32LE")
    );
    // UTF-8 behind a UTF-16 mark (no zero byte after it): the mark is contradicted, as
    // `detect` says, and UTF-16 would read CJK characters of ASCII pairs.
    for (bytes, name) in [
        (&b"\xFF\xFEh\xC3\xA9llo w\xC3\xB6rld\n"[..], "UTF-16LE"),
        (&b"\xFE\xFFhello\n"[..], "UTF-16BE"),
    ] {
        assert_eq!(
            said(bytes, Dialect::Utf8),
            Some(format!(
                "starts with a {name} byte order mark, but valid UTF-8 follows it: the mark's bytes are its errors"
            ))
        );
    }
    assert_eq!(said(le, Dialect::Utf16Le), None);
    assert_eq!(said(b"\xEF\xBB\xBFhi", Dialect::Utf8), None);
    assert_eq!(said(b"hi", Dialect::Utf8), None);
    // No mark, but zero bytes where UTF-16 puts them (as `check`'s hint reads them).
    let bare: Vec<u8> = "Hello world, this is UTF-16 text.\n"
        .repeat(5)
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    assert_eq!(
        said(&bare, Dialect::Utf8).as_deref(),
        Some("zero bytes where UTF-16LE puts them, and no byte order mark: e reads it as UTF-16LE")
    );
    assert_eq!(said(&bare, Dialect::Utf16Le), None);
    // Emoji and CJK put zeros where high bytes stand: a short input is asked of detection.
    let emoji: Vec<u8> = "Line with emoji 😀 and Ā.\n"
        .repeat(40)
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    assert_eq!(
        said(&emoji, Dialect::Utf8).as_deref(),
        Some("zero bytes where UTF-16LE puts them, and no byte order mark: e reads it as UTF-16LE")
    );
    assert_eq!(said(&[0u8; 4096], Dialect::Utf8), None);
    let source = Source::from_bytes("fixture", le.to_vec());
    let app = App::new(source, Dialect::Utf8, Rect::new(0, 0, 120, 24), false);
    assert_eq!(
        line(&app, 23),
        " fixture  8 B  0x0 (0)  12%  utf8             \
         starts with a UTF-16LE byte order mark: e reads it as UTF-16LE  scanning…"
    );
}

/// An empty input: error jumps say none was found, `e` speaks of an encoding, and the
/// status line names no offset or percentage for a byte that is not there.
#[test]
fn an_empty_input_answers_as_any_other() {
    let mut app = app(b"", 120, 20);
    assert_eq!(
        line(&app, 19),
        " fixture  0 B  —  utf8                                                                                   ? help  q quit"
    );
    let message = |app: &App| app.message.as_ref().map(|m| m.text.clone());
    app.update(Action::NextError);
    assert_eq!(message(&app).as_deref(), Some("next error: none found"));
    app.update(Action::PrevError);
    assert_eq!(message(&app).as_deref(), Some("previous error: none found"));
    app.update(Action::OpenEncoding);
    app.update(Action::Submit);
    assert_eq!(message(&app).as_deref(), Some("encoding: UTF-8 (RFC 3629)"));
    app.update(Action::NextDialect);
    assert_eq!(
        message(&app).as_deref(),
        Some("dialect: CESU-8 (Unicode TR #26)")
    );
}

/// `:` on an empty input says it is empty, whatever the target (there is no byte 0); a
/// target that is no offset is still said to be none.
#[test]
fn goto_on_an_empty_input_says_it_is_empty() {
    use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    let press = |code| Event::Key(KeyEvent::new(code, KeyModifiers::NONE));
    let message = |app: &App| app.message.as_ref().map(|m| m.text.clone());
    let mut app = app(b"", 120, 20);
    for (typed, said) in [
        ("0", "offset 0: the input is empty (0 bytes)"),
        ("100%", "offset 100%: the input is empty (0 bytes)"),
        ("+0x10", "offset +0x10: the input is empty (0 bytes)"),
        ("-1", "offset -1 is before the start"),
        ("#1", "character 1: the input is empty (0 characters)"),
        ("zz", "not an offset: zz"),
    ] {
        // As typed: `:`, the target, Enter, through the keymap.
        hexrune::tui::feed(&mut app, press(KeyCode::Char(':')));
        for c in typed.chars() {
            hexrune::tui::feed(&mut app, press(KeyCode::Char(c)));
        }
        hexrune::tui::feed(&mut app, press(KeyCode::Enter));
        assert_eq!(
            (app.cursor, app.prompt.is_none(), message(&app).as_deref()),
            (0, true, Some(said)),
            "{typed}"
        );
    }
    app.update(Action::OpenGoto);
    type_in(&mut app, "0");
    app.update(Action::Submit);
    assert_eq!(
        line(&app, 19),
        " fixture  0 B  —  utf8                                                           offset 0: the input is empty (0 bytes)"
    );
}

/// `:` says where a target lies out of the input, before its start as past its end;
/// nothing typed just closes the prompt.
#[test]
fn goto_out_of_range_is_said_either_way() {
    let message = |app: &App| app.message.as_ref().map(|m| m.text.clone());
    let mut app = app_at(&[b'a'; 88], 120, 40, "0x10");
    assert_eq!(app.cursor, 16);
    let goto = |app: &mut App, text: &str| {
        app.update(Action::OpenGoto);
        type_in(app, text);
        app.update(Action::Submit);
    };
    goto(&mut app, "-1000");
    assert_eq!(
        (app.cursor, message(&app).as_deref()),
        (0, Some("offset -1000 is before the start"))
    );
    goto(&mut app, "+0x20");
    goto(&mut app, "-0x20");
    assert_eq!((app.cursor, message(&app)), (0, None));
    goto(&mut app, "99999999999999999999999");
    assert_eq!(
        (app.cursor, message(&app).as_deref()),
        (
            87,
            Some("offset 99999999999999999999999 is past the end (88 bytes)")
        )
    );
    goto(&mut app, "  ");
    assert_eq!(
        (app.cursor, message(&app), app.prompt.is_none()),
        (87, None, true)
    );
    goto(&mut app, "0x1_0");
    assert_eq!(app.cursor, 16);
    goto(&mut app, "zz");
    assert_eq!(message(&app).as_deref(), Some("not an offset: zz"));
}

/// `/` or `\` and Enter with nothing typed search for the last pattern again, that way.
#[test]
fn an_empty_search_repeats_the_last_pattern() {
    let mut app = app(b"caf ab caf ab caf", 120, 40);
    let message = |app: &App| app.message.as_ref().map(|m| m.text.clone()).unwrap();
    app.update(Action::OpenSearch { backward: false });
    app.update(Action::Submit);
    assert_eq!(message(&app), "nothing to search for");
    app.update(Action::OpenSearch { backward: false });
    type_in(&mut app, "caf");
    app.update(Action::Submit);
    finish_job(&mut app);
    assert_eq!(app.cursor, 7);
    app.update(Action::OpenSearch { backward: false });
    app.update(Action::Submit);
    finish_job(&mut app);
    assert_eq!(
        (app.cursor, message(&app)),
        (14, "search \"caf\": found at 0xE".into())
    );
    app.update(Action::OpenSearch { backward: true });
    app.update(Action::Submit);
    finish_job(&mut app);
    assert_eq!(app.cursor, 7);
    // n goes the way the last prompt went.
    app.update(Action::RepeatSearch { reverse: false });
    finish_job(&mut app);
    assert_eq!(app.cursor, 0);
}

/// A note said while the write form is open (a resize hid lanes) leaves its instructions
/// in place; a line wider than the form ends in `…`, a column before the border.
#[test]
fn the_write_form_keeps_its_instructions_through_a_resize() {
    let bytes = "flags \u{1F1EB}\u{1F1F7}\u{1F1E9}\u{1F1EA} and \u{1F468}\u{200D}\u{1F469}\n";
    let mut app = app_at(bytes.as_bytes(), 120, 30, "0x1E");
    app.update(Action::OpenWrite);
    app.update(Action::Resize {
        width: 50,
        height: 12,
    });
    assert_eq!(
        app.message.as_ref().map(|m| m.text.as_str()),
        Some("class and errors lanes hidden")
    );
    let text = screen(&app);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[3..11],
        [
            "┌ write a repaired copy (W) ─────────────────────┐",
            "│ policy replace       Tab: next                 │",
            "│ Ctrl-T --mojibake off  Ctrl-R --bom keep       │",
            "│ at     0x1B  U+1F468                           │",
            "│ before F0 9F 91 A8              👨             │",
            "│ after  F0 9F 91 A8              👨             │",
            "│ Enter writes, Esc cancels; the file shown sta… │",
            "└────────────────────────────────────────────────┘",
        ]
    );
}

/// After a resize, a file that fits is shown from its start, and no rows are left blank
/// below its end that rows above it could fill.
#[test]
fn a_resize_shows_a_file_that_fits_from_its_start() {
    let mut app = app_at(&[b'a'; 98], 120, 30, "0x27");
    app.update(Action::ToggleClusters);
    app.update(Action::Resize {
        width: 50,
        height: 12,
    });
    assert_eq!((app.top, app.cursor), (0x10, 0x27));
    app.update(Action::Resize {
        width: 90,
        height: 24,
    });
    assert_eq!(app.top, 0);
    assert!(
        line(&app, 1).starts_with("00000000  61"),
        "{}",
        line(&app, 1)
    );
    // A long file scrolled to its end keeps its last row at the bottom.
    let mut app = app_at(&[b'a'; 4000], 120, 30, "100%");
    app.update(Action::Resize {
        width: 120,
        height: 40,
    });
    let rows = app.layout().unwrap().data_rows() as u64;
    assert_eq!(app.top, (3999 / 16 - (rows - 1)) * 16);
}

/// The scan's time left follows its speed of the last seconds: a scan that slows down
/// (a search reading beside it) says it needs longer.
#[test]
fn the_time_left_follows_a_scan_that_slows_down() {
    let mut app = scanning_app(hexrune::cli::demo::BYTES, 120, 40);
    app.begin_scan().unwrap();
    for (done, ms) in [(1000, 1000), (2000, 2000), (2100, 3000)] {
        app.update(Action::ScanProgress {
            done,
            elapsed: Duration::from_millis(ms),
        });
    }
    // 100 bytes in the last second, 1595 to go; the whole scan's 700 a second said 3s.
    assert_eq!(
        hexrune::tui::draw::scan_status(&app).as_deref(),
        Some("scanning… 56%  0 kB/s  16s left")
    );
}

/// A stray continuation byte after a broken sequence is said to follow it; one with
/// nothing like a lead before it has none.
#[test]
fn a_continuation_after_an_invalid_lead_names_it() {
    let second = |bytes: &[u8], target: &str| detail_at(bytes, target, |_| {})[2].clone();
    assert_eq!(
        second(b"..\xC0\xAF..", "3"),
        "error unexpected_continuation: continuation byte after the broken sequence at 0x2 (lead C0)"
    );
    assert_eq!(
        second(b"\xE0\x80\x41", "1"),
        "error unexpected_continuation: continuation byte after the broken sequence at 0x0 (lead E0)"
    );
    // Each of the stray bytes after a lead, and after a lead that takes 80..9F only.
    for target in ["4", "5", "6"] {
        assert_eq!(
            second(b"ab \xF5\x80\x80\x80 cd", target),
            "error unexpected_continuation: continuation byte after the broken sequence at 0x3 (lead F5)",
            "{target}"
        );
    }
    for target in ["4", "5"] {
        assert_eq!(
            second(b"ab \xED\xA0\xBD.", target),
            "error unexpected_continuation: continuation byte after the broken sequence at 0x3 (lead ED)",
            "{target}"
        );
    }
    // Four stray bytes on: too far from the lead to name it.
    assert_eq!(
        second(b"\xC0\x80\x80\x80\x80", "4"),
        "error unexpected_continuation: continuation byte with no lead before it"
    );
    assert_eq!(
        second(b"caf\xC3\xA9\xA9", "5"),
        "error unexpected_continuation: continuation byte with no lead before it"
    );
    assert_eq!(
        second(b"\x80ab", "0"),
        "error unexpected_continuation: continuation byte with no lead before it"
    );
}

/// The status line names a file as the commands do: a byte of its name that is no UTF-8
/// as `\xff` (it showed U+FFFD), a backslash of the name's own doubled.
#[test]
fn the_status_line_names_a_file_as_the_commands_do() {
    use std::os::unix::ffi::OsStrExt;
    let mut app = app(b"ok\n", 80, 24);
    let name = std::ffi::OsStr::from_bytes(b"n\xff\\x.txt");
    app.input_path = Some(std::path::PathBuf::from(name));
    let status = line(&app, 23);
    assert!(status.starts_with(r" n\xff\\x.txt  3 B"), "{status}");
}

#[test]
fn the_statistics_mark_a_cut_line_with_an_ellipsis() {
    let mut app = app(hexrune::cli::demo::BYTES, 43, 12);
    app.update(Action::Stats);
    let screen = screen(&app);
    let rows: Vec<&str> = screen.lines().collect();
    let row = |label: &str| {
        rows.iter()
            .find(|l| l.contains(label))
            .unwrap_or_else(|| panic!("{label}: {screen}"))
            .to_string()
    };
    assert_eq!(
        row(" detect "),
        "│ detect   UTF-8 with 34 errors, BOM UTF-…│"
    );
    assert_eq!(row(" size "), "│ size     3.6 KiB (3695 B), 3589 charact…│");
    assert_eq!(
        row(" regions "),
        "│ regions  3: UTF-8, UTF-16LE, UTF-8      │"
    );
}

/// A chooser's offer (`T`, `e`) is what the line is for: the label gives way to it, and
/// what of it still does not fit ends in `…`.
#[test]
fn a_narrow_chooser_shows_its_choice() {
    let mut app = app(hexrune::cli::demo::BYTES, 43, 12);
    app.update(Action::OpenLints);
    let mut got = vec![status_and_cursor(&app)];
    app.update(Action::Input(' '));
    app.update(Action::TogglePattern);
    app.update(Action::Input(' '));
    got.push(status_and_cursor(&app));
    let mut app = self::app(hexrune::cli::demo::BYTES, 60, 12);
    app.update(Action::OpenLints);
    app.update(Action::Input(' '));
    got.push(status_and_cursor(&app));
    let mut app = self::app(hexrune::cli::demo::BYTES, 43, 12);
    app.update(Action::OpenEncoding);
    got.push(status_and_cursor(&app));
    app.update(Action::TogglePattern);
    got.push(status_and_cursor(&app));
    let mut app = self::app(hexrune::cli::demo::BYTES, 120, 12);
    app.update(Action::OpenEncoding);
    got.push(status_and_cursor(&app));
    assert_eq!(
        got,
        [
            (
                "lints (Tab S…:  [ ] security  1/7  on: none".to_string(),
                Some((15, 11))
            ),
            (
                "lints…:  [x] mysql-utf8mb3  2/7  on: secur…".to_string(),
                Some((8, 11))
            ),
            (
                "lints (Tab Space Enter, o…:  [x] security  1/7  on: security".to_string(),
                Some((28, 11))
            ),
            (
                "encoding (Tab: n…:   UTF-8 (detected)  1/35".to_string(),
                Some((19, 11))
            ),
            (
                "encoding (Tab: next choi…:   UTF-16LE  2/35".to_string(),
                Some((27, 11))
            ),
            (
                "encoding (Tab: next choice, or type a label; Enter):   UTF-8 (detected)  1/35"
                    .to_string(),
                Some((53, 11))
            ),
        ]
    );
}

/// The `W` form puts a toggle on a line of its own rather than cut off its state.
#[test]
fn a_narrow_write_form_shows_every_toggle() {
    let mut forms = Vec::new();
    for width in [66, 43] {
        let mut app = app(hexrune::cli::demo::BYTES, width, 24);
        app.update(Action::OpenWrite);
        let screen = screen(&app);
        let form: Vec<&str> = screen
            .lines()
            .skip_while(|l| !l.contains("write a repaired copy (W)"))
            .skip(1)
            .take(3)
            .collect();
        forms.push(form.join("\n"));
    }
    assert_eq!(
        forms,
        [
            "│ policy replace       Tab: next  Ctrl-T --mojibake off          │\n\
             │ Ctrl-R --bom keep                                              │\n\
             │ at     0x0  U+FEFF                                             │",
            "│ policy replace       Tab: next          │\n\
             │ Ctrl-T --mojibake off                   │\n\
             │ Ctrl-R --bom keep                       │",
        ]
    );
}

/// The messages of `:`: what is missing, past the end however many digits, an empty input.
#[test]
fn goto_messages_say_what_is_wrong() {
    let message = |app: &App| app.message.as_ref().map(|m| m.text.clone());
    let goto = |app: &mut App, text: &str| {
        app.update(Action::OpenGoto);
        type_in(app, text);
        app.update(Action::Submit);
    };
    let mut app = app(b"abc", 120, 20);
    goto(&mut app, "%");
    assert_eq!(
        message(&app).as_deref(),
        Some("a percentage needs a number before the %: 50%")
    );
    goto(&mut app, " %");
    assert_eq!(
        message(&app).as_deref(),
        Some("a percentage needs a number before the %: 50%")
    );
    goto(&mut app, "#999");
    assert_eq!(
        message(&app).as_deref(),
        Some("there are only 3 characters")
    );
    goto(&mut app, "#99999999999999999999999");
    assert_eq!(
        message(&app).as_deref(),
        Some("there are only 3 characters")
    );
    let mut empty = self::app(b"", 120, 20);
    goto(&mut empty, "#99999999999999999999999");
    assert_eq!(
        message(&empty).as_deref(),
        Some("character 18446744073709551615: the input is empty (0 characters)")
    );
}

/// Below the smallest layout a key does nothing unseen: the help does not scroll, the
/// cursor does not move; q still quits.
#[test]
fn too_small_keys_do_nothing_but_quit() {
    let mut app = app(hexrune::cli::demo::BYTES, 80, 24);
    app.update(Action::Help);
    app.update(Action::Resize {
        width: 30,
        height: 5,
    });
    for action in [Action::Down, Action::Down, Action::End, Action::Help] {
        app.update(action);
    }
    assert_eq!((app.help, app.help_scroll, app.cursor), (true, 0, 0));
    app.update(Action::Stats);
    assert!(!app.stats);
    app.update(Action::Resize {
        width: 80,
        height: 24,
    });
    app.update(Action::Down);
    assert_eq!(app.help_scroll, 1);
    app.update(Action::Help);
    app.update(Action::OpenGoto);
    app.update(Action::Resize {
        width: 30,
        height: 5,
    });
    // q quits even from a prompt, which it would be typed into were it seen.
    use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    hexrune::tui::feed(
        &mut app,
        Event::Key(KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE)),
    );
    assert!(app.prompt.is_some());
    assert!(app.quit);
}

/// A count of more digits than a count keeps says so.
#[test]
fn a_count_too_large_says_so() {
    let mut app = app(&[b'a'; 4096], 80, 24);
    for _ in 0..20 {
        app.update(Action::Digit(9));
    }
    assert_eq!(app.count, Some(999_999));
    assert!(
        line(&app, 23).ends_with("count 999999 (the largest)"),
        "{}",
        line(&app, 23)
    );
    app.update(Action::Down);
    assert_eq!(app.cursor, 4080);
    assert_eq!(
        app.message.as_ref().map(|m| m.text.as_str()),
        Some("999999 is the largest count")
    );
    app.update(Action::Digit(5));
    app.update(Action::Up);
    assert_eq!((app.cursor, app.message.clone()), (4000, None));
}

/// An app over `bytes` read in `label`'s encoding, its scan done.
fn app_in_encoding(bytes: &[u8], label: &str, width: u16, height: u16) -> App {
    let dialect = hexrune::encoding::resolve(label).unwrap();
    let summary = Summary::build(dialect, bytes, 1, &Progress::new()).unwrap();
    let source = Source::from_bytes("fixture", bytes.to_vec());
    App::with_summary(source, summary, Rect::new(0, 0, width, height), false)
}

/// A text search in a multi-byte legacy encoding finds characters: a match starts and
/// ends where the view's units do, never on a trail byte that has the bytes of the text
/// (Shift_JIS `A2` is ｢ alone and the trail of い), forward, backward, round the ends and
/// with a count; a hex search finds the bytes anywhere.
#[test]
fn text_search_in_a_multi_byte_view_finds_whole_characters() {
    // "abあい ｢い｢\n": ｢ at 0x7 and 0xA; A2 also at 0x5 and 0x9, the trails of い.
    let bytes = b"ab\x82\xA0\x82\xA2 \xA2\x82\xA2\xA2\n";
    let mut app = app_in_encoding(bytes, "shift_jis", 120, 30);
    let message = |app: &App| app.message.as_ref().map(|m| m.text.clone()).unwrap();
    let search = |app: &mut App, text: &str, backward: bool| {
        app.update(Action::OpenSearch { backward });
        type_in(app, text);
        app.update(Action::Submit);
        finish_job(app);
    };
    search(&mut app, "｢", false);
    assert_eq!(
        (app.cursor, message(&app)),
        (7, "search \"｢\": found at 0x7".into())
    );
    assert_eq!(
        line(&app, 29),
        " fixture  12 B  0x7 (7)  66%  Shift_JIS  char 6 of 9                                           search \"｢\": found at 0x7"
    );
    let step = |app: &mut App, reverse: bool| {
        app.update(Action::RepeatSearch { reverse });
        finish_job(app);
        (app.cursor, message(app))
    };
    assert_eq!(
        step(&mut app, false),
        (10, "search \"｢\": found at 0xA".into())
    );
    assert_eq!(
        step(&mut app, false),
        (7, "search \"｢\": found at 0x7 (search wrapped)".into())
    );
    assert_eq!(
        step(&mut app, true),
        (10, "search \"｢\": found at 0xA (search wrapped)".into())
    );
    search(&mut app, "｢", true);
    assert_eq!(
        (app.cursor, message(&app)),
        (7, "search \"｢\": found at 0x7".into())
    );
    // A count of two from the start (`2N`: the last search went backward): ｢, then ｢
    // again, never the trail bytes between.
    app.update(Action::Start);
    app.update(Action::Digit(2));
    assert_eq!(
        step(&mut app, true),
        (10, "search \"｢\": found at 0xA".into())
    );
    // い is two bytes, found on its own units only.
    app.update(Action::Start);
    search(&mut app, "い", false);
    assert_eq!(
        (app.cursor, message(&app)),
        (4, "search \"い\": found at 0x4".into())
    );
    // Hex bytes are bytes: A2 first occurs inside い.
    app.update(Action::Start);
    app.update(Action::OpenSearch { backward: false });
    app.update(Action::TogglePattern);
    type_in(&mut app, "a2");
    app.update(Action::Submit);
    finish_job(&mut app);
    assert_eq!(
        (app.cursor, message(&app)),
        (5, "search A2: found at 0x5".into())
    );
    // The lookalike search reads only the UTF-8 family.
    search(&mut app, "~/｢", false);
    assert_eq!(
        message(&app),
        "lookalike search reads the UTF-8 family (utf8, cesu8, mutf8, wtf8, legacy), not Shift_JIS"
    );
    // EUC-KR "가나" (B0 A1 B3 AA): 〕 is A1 B3, the trail of 가 and the lead of 나.
    let mut app = app_in_encoding(b"\xB0\xA1\xB3\xAA\n", "euc-kr", 120, 30);
    search(&mut app, "〕", false);
    assert_eq!(
        (app.cursor, message(&app)),
        (0, "search \"〕\": none found".into())
    );
    search(&mut app, "나", false);
    assert_eq!(
        (app.cursor, message(&app)),
        (2, "search \"나\": found at 0x2".into())
    );
    // UTF-16LE: text on code units (41 00 at 0x3 straddles two), hex bytes anywhere.
    let mut app = app_in_encoding(b"x\x00\x00\x41\x00\x26\x41\x00", "utf-16le", 120, 30);
    search(&mut app, "A", false);
    assert_eq!(
        (app.cursor, message(&app)),
        (6, "search \"A\": found at 0x6".into())
    );
    app.update(Action::Start);
    app.update(Action::OpenSearch { backward: false });
    app.update(Action::TogglePattern);
    type_in(&mut app, "41 00");
    app.update(Action::Submit);
    finish_job(&mut app);
    assert_eq!(
        (app.cursor, message(&app)),
        (3, "search 41 00: found at 0x3".into())
    );
    // ISO-2022-JP: 24 22 is あ after ESC $ B, and `$"` in ASCII.
    let mut app = app_in_encoding(b"x $\"\n\x1B$B$\"\x1B(B\n", "iso-2022-jp", 120, 30);
    search(&mut app, "あ", false);
    assert_eq!(
        (app.cursor, message(&app)),
        (8, "search \"あ\": found at 0x8".into())
    );
    search(&mut app, "$\"", false);
    assert_eq!(
        (app.cursor, message(&app)),
        (2, "search \"$\"\": found at 0x2 (search wrapped)".into())
    );
    // In a single-byte view every byte is a character: A1 B3 is ¡³.
    let mut app = app_in_encoding(b"\xB0\xA1\xB3\xAA\n", "windows-1252", 120, 30);
    search(&mut app, "¡³", false);
    assert_eq!(
        (app.cursor, message(&app)),
        (1, "search \"¡³\": found at 0x1".into())
    );
}

/// A UTF-16 or UTF-32 view (or a legacy one) whose byte order mark names another encoding
/// says so in `check`'s words as the file opens and when `d` or `e` switch to such an
/// encoding, with the key that reads it as the mark says.
#[test]
fn a_byte_order_mark_against_the_view_encoding_is_said() {
    let be = b"\xFE\xFF\x00H\x00\xE9\xD8\x3D\xDE\x00\n";
    let app = |bytes: &[u8], dialect| {
        let source = Source::from_bytes("fixture", bytes.to_vec());
        App::new(source, dialect, Rect::new(0, 0, 120, 24), false)
    };
    let message = |app: &App| app.message.as_ref().map(|m| m.text.clone());
    let mut le = app(be, Dialect::Utf16Le);
    assert_eq!(
        message(&le).as_deref(),
        Some("the byte order mark FE FF says UTF-16BE, but UTF-16LE was asked: e reads it as UTF-16BE")
    );
    assert_eq!(
        line(&le, 23),
        "                                \
         the byte order mark FE FF says UTF-16BE, but UTF-16LE was asked: e reads it as UTF-16BE"
    );
    // `d` to UTF-16BE: the mark agrees, the encoding is named; `D` back says it again.
    le.update(Action::NextDialect);
    assert_eq!(
        message(&le).as_deref(),
        Some("encoding: UTF-16, big-endian")
    );
    le.update(Action::PrevDialect);
    assert_eq!(
        message(&le).as_deref(),
        Some("the byte order mark FE FF says UTF-16BE, but UTF-16LE was asked: e reads it as UTF-16BE")
    );
    // Opened in the mark's own encoding: nothing to say; `e` to UTF-32LE says it.
    let mut right = app(be, Dialect::Utf16Be);
    assert_eq!(message(&right), None);
    right.update(Action::OpenEncoding);
    type_in(&mut right, "utf-32le");
    right.update(Action::Submit);
    assert_eq!(
        message(&right).as_deref(),
        Some("the byte order mark FE FF says UTF-16BE, but UTF-32LE was asked: e reads it as UTF-16BE")
    );
    // A legacy view reads UTF-8's mark as three characters.
    let cp1252 = hexrune::encoding::resolve("windows-1252").unwrap();
    assert_eq!(
        message(&app("\u{FEFF}café\n".as_bytes(), cp1252)).as_deref(),
        Some("the byte order mark EF BB BF says UTF-8, but windows-1252 was asked: e reads it as UTF-8")
    );
}

/// `d` and `D` in an encoding with no dialects say so, and which key chooses another.
#[test]
fn d_in_a_legacy_view_says_it_has_no_dialects() {
    let mut app = app_in_encoding(b"ab\x82\xA0\n", "shift_jis", 120, 24);
    for action in [Action::NextDialect, Action::PrevDialect] {
        app.update(action);
        assert_eq!(
            app.message.as_ref().map(|m| (m.text.as_str(), m.is_error)),
            Some((
                "Shift_JIS has no dialects: e chooses another encoding",
                true
            ))
        );
        assert_eq!(app.dialect.name(), "Shift_JIS");
    }
    assert_eq!(
        line(&app, 23),
        " fixture  5 B  0x0 (0)  20%  Shift_JIS  char 1 of 4               Shift_JIS has no dialects: e chooses another encoding"
    );
    let mut app = app_in_encoding(b"caf\xE9\n", "koi8-r", 120, 24);
    app.update(Action::NextDialect);
    assert_eq!(
        app.message.as_ref().map(|m| m.text.as_str()),
        Some("KOI8-R has no dialects: e chooses another encoding")
    );
}

/// A paste (bracketed by the terminal) is typed into the open prompt, its control
/// characters dropped: an ESC in it closed the search prompt and the rest acted as keys.
/// Outside a prompt a paste does nothing.
#[test]
fn a_paste_is_typed_into_the_prompt_without_its_controls() {
    use hexrune::tui::app::PromptKind;
    use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    let key = |c: char| Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    let paste = |text: &str| Event::Paste(text.to_string());
    let pasted = "ab\x1bec\td\r\n\x7f\u{9b}2J\u{0}é";
    let mut app = app(hexrune::cli::demo::BYTES, 120, 40);
    for (open, kind) in [
        (
            '/',
            PromptKind::Search {
                backward: false,
                hex: false,
            },
        ),
        (':', PromptKind::Goto),
        ('e', PromptKind::Encoding { choice: 0 }),
        ('T', PromptKind::Lints { choice: 0 }),
    ] {
        hexrune::tui::feed(&mut app, key(open));
        hexrune::tui::feed(&mut app, paste(pasted));
        let prompt = app.prompt.as_ref().expect("the prompt is still open");
        assert_eq!((prompt.kind, prompt.input.as_str()), (kind, "abecd2Jé"));
        hexrune::tui::feed(&mut app, paste("x"));
        assert_eq!(app.prompt.as_ref().unwrap().input, "abecd2Jéx");
        hexrune::tui::feed(
            &mut app,
            Event::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)),
        );
        assert!(app.prompt.is_none());
    }
    // Outside a prompt: nothing moves, nothing opens, nothing is said.
    let before = screen(&app);
    let cursor = app.cursor;
    assert!(!hexrune::tui::feed(&mut app, paste("jjj/q\x1b:")));
    assert_eq!(
        (app.cursor, app.prompt.is_none(), app.quit),
        (cursor, true, false)
    );
    assert_eq!(screen(&app), before);
}
