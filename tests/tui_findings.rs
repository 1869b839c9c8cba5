//! Lint findings in the viewer (`--security`, `--target`, `T`, `}` / `{`) and the
//! lookalike search (`/~/`), as a user drives them: exact offsets, messages and screen text.

use hexrune::decode::Dialect;
use hexrune::lint::{Lints, Target};
use hexrune::scan::index::{Progress, Summary};
use hexrune::source::Source;
use hexrune::tui::app::App;
use hexrune::tui::{draw, Action};
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use ratatui::Terminal;

mod common;
mod support;
use support::wide;

/// An overlong `/` at 9, a right-to-left override left open at 31, a zero-width space
/// at 44.
const PLANTED: &[u8] =
    b"GET /a/..\xC0\xAFetc/passwd\n// admin \xE2\x80\xAE check\npay\xE2\x80\x8Bpal\n";

fn app(bytes: &[u8], dialect: Dialect, width: u16, height: u16) -> App {
    let summary = Summary::build(dialect, bytes, 1, &Progress::new()).unwrap();
    let source = Source::from_bytes("planted", bytes.to_vec());
    App::with_summary(source, summary, Rect::new(0, 0, width, height), false)
}

fn security() -> Lints {
    Lints {
        targets: vec![],
        security: true,
    }
}

fn screen(app: &App) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(app.size.width, app.size.height)).unwrap();
    terminal.draw(|f| draw::draw(f, app)).unwrap();
    let buffer = terminal.backend().buffer();
    (0..buffer.area.height)
        .map(|y| {
            let mut line = String::new();
            let mut x = 0;
            while x < buffer.area.width {
                let symbol = buffer[(x, y)].symbol();
                line.push_str(symbol);
                x += unicode_width::UnicodeWidthStr::width(symbol).max(1) as u16;
            }
            line.trim_end().to_string()
        })
        .collect()
}

fn message(app: &App) -> &str {
    app.message.as_ref().map_or("", |m| m.text.as_str())
}

fn type_in(app: &mut App, text: &str) {
    for c in text.chars() {
        app.update(Action::Input(c));
    }
}

fn finish_job(app: &mut App) {
    while app.job.is_some() {
        let event = app.wait_job_event().expect("worker reports");
        app.update(Action::Job(event));
    }
}

fn search(app: &mut App, text: &str, backward: bool) {
    app.update(Action::OpenSearch { backward });
    type_in(app, text);
    app.update(Action::Submit);
    finish_job(app);
}

#[test]
fn findings_are_stepped_through_with_counts_and_wraps() {
    let mut app = app(PLANTED, Dialect::Utf8, 120, 40);
    app.lint_now(); // no lint asked: the pass looks for U+FFFD only, and says nothing
    assert_eq!(message(&app), "");
    app.update(Action::NextFinding);
    assert_eq!(
        message(&app),
        "next finding: no findings; no lints asked (T chooses them, or --security, --target T)"
    );
    app.set_lints(security());
    assert_eq!(app.linting.status().as_deref(), Some("linting…"));
    app.update(Action::NextFinding);
    assert_eq!(message(&app), "next finding: the lint pass is not done yet");
    app.update(Action::Left); // a key clears the message: the pass's result is said
    app.lint_now();
    assert_eq!(
        message(&app),
        "lint: 3 findings (} and { step through them)"
    );
    let found = app.linting.found().unwrap();
    let spans: Vec<(usize, usize, &str)> = found
        .findings
        .iter()
        .map(|l| (l.offset, l.len, l.kind.name()))
        .collect();
    assert_eq!(
        spans,
        [
            (9, 2, "overlong-ascii"),
            (31, 3, "bidi"),
            (44, 3, "invisible")
        ]
    );
    app.update(Action::NextFinding);
    assert_eq!(app.cursor, 9);
    assert_eq!(message(&app), "finding 1 of 3: overlong-ascii at 0x9");
    app.update(Action::NextFinding);
    assert_eq!(
        (app.cursor, message(&app)),
        (31, "finding 2 of 3: bidi at 0x1F")
    );
    // A count: two more, the second wraps.
    app.update(Action::Digit(2));
    app.update(Action::NextFinding);
    assert_eq!(app.cursor, 9);
    assert_eq!(
        message(&app),
        "finding 1 of 3: overlong-ascii at 0x9 (wrapped to the start)"
    );
    app.update(Action::PrevFinding);
    assert_eq!(
        (app.cursor, message(&app)),
        (44, "finding 3 of 3: invisible at 0x2C (wrapped to the end)")
    );
    // A count that goes round the end says so, though its last step did not wrap.
    app.update(Action::Digit(2));
    app.update(Action::NextFinding);
    assert_eq!(
        (app.cursor, message(&app)),
        (31, "finding 2 of 3: bidi at 0x1F (wrapped to the start)")
    );
    app.update(Action::Digit(2));
    app.update(Action::NextFinding);
    assert_eq!(app.cursor, 9);
    app.update(Action::Digit(2));
    app.update(Action::PrevFinding);
    assert_eq!(
        (app.cursor, message(&app)),
        (31, "finding 2 of 3: bidi at 0x1F (wrapped to the end)")
    );
    // Inside a finding, `{` goes to its start.
    app.update(Action::End);
    app.update(Action::PrevFinding);
    app.update(Action::Right);
    app.update(Action::PrevFinding);
    assert_eq!(app.cursor, 44);
    // A change of dialect drops the findings until the new scan is linted.
    app.update(Action::NextDialect);
    assert!(app.linting.found().is_none());
    app.update(Action::PrevDialect);
    assert!(app.linting.found().is_none(), "wanted again after the scan");
}

#[test]
fn the_detail_pane_names_the_findings_under_the_cursor() {
    let mut app = app(PLANTED, Dialect::Utf8, 120, 40);
    app.set_lints(security());
    app.lint_now();
    app.update(Action::NextFinding);
    let lines = screen(&app);
    // The findings' lines are below the unit's three: the first at 37.
    let detail = &lines[37];
    let lint = &app.linting.found().unwrap().findings[0];
    let expected = format!("overlong-ascii error  {}", lint.message);
    // Too long for the pane: cut, and the cut shown.
    let cut = detail
        .strip_suffix('\u{2026}')
        .expect("a line cut ends in …");
    assert!(
        expected.len() > cut.len() && expected.starts_with(cut),
        "{detail}"
    );
    assert!(
        detail.starts_with("overlong-ascii error  overlong 2-byte form of U+002F '/' (SOLIDUS)"),
        "{detail}"
    );
    // The errors lane: the error unit's own markers win; the override's bytes carry the
    // warning's marker, head then body.
    app.update(Action::NextFinding);
    let lines = screen(&app);
    // At 120 columns, 16 bytes a row, the errors lane from column 95: the override is
    // the last byte of the second row, its two others start the third.
    let lane = |line: &str| {
        let lane: String = line.chars().skip(95).take(16).collect();
        lane.trim_end().to_string()
    };
    assert_eq!(lane(&lines[2]), "               ?");
    assert_eq!(
        lane(&lines[3]),
        "┄┄          ?┄┄",
        "and the zero-width space at 0x2C"
    );
    // The overlong form's bytes are error units: their own markers win there.
    assert_eq!(lane(&lines[1]), "         IC");
    assert!(lines[37].starts_with("bidi warning  U+202E RIGHT-TO-LEFT OVERRIDE"));
    // Off a finding, no finding line; the third line is the category line (then the
    // two spare lines a small input leaves the pane).
    app.update(Action::Start);
    let lines = screen(&app);
    assert!(lines[34].starts_with("category"), "{}", lines[34]);
    assert_eq!(lines[35..39], ["", "", "", ""]);
}

#[test]
fn targets_and_the_chooser() {
    let bytes = "id,name\n1,caf\u{e9} \u{1F600}\n2,a\u{0}b\n".as_bytes();
    let mut app = app(bytes, Dialect::Utf8, 120, 40);
    app.update(Action::OpenLints);
    // Tab to postgres (third choice), Space turns it on, Tab, Tab back round to
    // mysql-utf8mb3 is the second: Tab six times more.
    app.update(Action::TogglePattern);
    app.update(Action::TogglePattern);
    app.update(Action::Input(' '));
    assert_eq!(
        screen(&app)[39],
        "lints (Tab Space Enter, or type a list):  [x] postgres  3/7  on: postgres"
    );
    for _ in 0..6 {
        app.update(Action::TogglePattern);
    }
    app.update(Action::Input(' '));
    app.update(Action::Submit);
    assert_eq!(message(&app), "lints: --target mysql-utf8mb3,postgres");
    assert_eq!(
        app.linting.lints.targets,
        [Target::MysqlUtf8mb3, Target::Postgres]
    );
    app.lint_now();
    assert_eq!(
        message(&app),
        "lints: --target mysql-utf8mb3,postgres: 2 findings (} and { step through them)"
    );
    let spans = finding_spans(&app);
    assert_eq!(spans, [(16, "four-byte"), (24, "nul")]);
    // The statistics overlay counts them by kind.
    app.update(Action::Stats);
    let text = screen(&app).join("\n");
    assert!(
        text.contains("findings (--target mysql-utf8mb3,postgres)"),
        "{text}"
    );
    assert!(text.contains(" four-byte 1 "), "{text}");
    assert!(text.contains(" nul       1 "), "{text}");
    app.update(Action::Stats);
    // A typed list wins over the toggles; an unknown name is said.
    app.update(Action::OpenLints);
    type_in(&mut app, "oracle");
    app.update(Action::Submit);
    assert!(message(&app).starts_with("unknown lint 'oracle'"));
    assert!(app.message.as_ref().unwrap().is_error);
    app.update(Action::OpenLints);
    type_in(&mut app, "none");
    app.update(Action::Submit);
    assert!(app.linting.lints.is_empty());
    app.lint_now();
    assert_eq!(message(&app), "lints: none: no findings");
    app.update(Action::NextFinding);
    assert_eq!(
        message(&app),
        "next finding: no findings; no lints asked (T chooses them, or --security, --target T)"
    );
}

/// `..%2F` and its overlong shapes, planted: the lookalike search finds each at its exact
/// offset, forward and backward, with n and N, and says which forms matched.
#[test]
fn lookalike_search_finds_overlong_and_plain_forms() {
    let mut bytes = b"GET /a/../".to_vec(); // 2E 2E 2F at 7
    bytes.extend(b" x=\xC0\xAE\xC0\xAE\xC0\xAF"); // 13
    bytes.extend(b" y=\xE0\x80\xAE.\xF0\x80\x80\xAF"); // 22
    bytes.extend(b" z=..\\ \xC0\xAE\xC0\xAE/"); // near misses, then one at 37
    let mut app = app(&bytes, Dialect::Utf8, 120, 40);
    app.update(Action::OpenSearch { backward: false });
    type_in(&mut app, "~/../");
    assert!(
        screen(&app)[39].starts_with("/lookalike text (Tab: hex): ~/../"),
        "{}",
        screen(&app)[39]
    );
    app.update(Action::Submit);
    finish_job(&mut app);
    assert_eq!(app.cursor, 7);
    assert_eq!(
        message(&app),
        "search lookalike \"../\": found at 0x7: the text as written"
    );
    app.update(Action::RepeatSearch { reverse: false });
    finish_job(&mut app);
    assert_eq!(app.cursor, 13);
    assert_eq!(
        message(&app),
        "search lookalike \"../\": found at 0xD: “.” as C0 AE (overlong, 2 bytes), \
“.” as C0 AE (overlong, 2 bytes), “/” as C0 AF (overlong, 2 bytes)"
    );
    app.update(Action::RepeatSearch { reverse: false });
    finish_job(&mut app);
    assert_eq!(app.cursor, 22);
    // The detail pane says which forms matched while the cursor is in the match.
    app.update(Action::Right);
    let lines = screen(&app);
    assert_eq!(
        lines[37],
        "lookalike 0x16..0x1E  “.” as E0 80 AE (overlong, 3 bytes), “/” as F0 80 80 AF (overlong, 4 bytes)"
    );
    assert_eq!(lines[38], "");
    // The tag that stays while n / N repeat it says what they repeat.
    assert_eq!(
        lines[39],
        " planted  42 B  0x17 (23)  57%  utf8  char 24 of 42                               n N: lookalike search  ? help  q quit"
    );
    app.update(Action::RepeatSearch { reverse: false });
    finish_job(&mut app);
    assert_eq!(app.cursor, 37);
    app.update(Action::RepeatSearch { reverse: false });
    finish_job(&mut app);
    assert_eq!(app.cursor, 7);
    assert_eq!(
        message(&app),
        "search lookalike \"../\": found at 0x7 (search wrapped): the text as written"
    );
    app.update(Action::RepeatSearch { reverse: true });
    finish_job(&mut app);
    assert_eq!(app.cursor, 37);
    // Backward from the end.
    app.update(Action::End);
    search(&mut app, "~/../", true);
    assert_eq!(app.cursor, 37);
    app.update(Action::RepeatSearch { reverse: false });
    finish_job(&mut app);
    assert_eq!(app.cursor, 22);
    // A plain search finds only the text as written.
    app.update(Action::Start);
    search(&mut app, "../", false);
    assert_eq!(app.cursor, 7);
    app.update(Action::RepeatSearch { reverse: false });
    finish_job(&mut app);
    assert_eq!(app.cursor, 7, "{}", message(&app));
}

#[test]
fn lookalike_search_in_legacy_and_outside_the_utf8_family() {
    let bytes = b"a\xF8\x80\x80\x80\xAFb\xFC\x80\x80\x80\x80\xAFc";
    let mut app = app(bytes, Dialect::Legacy, 120, 40);
    search(&mut app, "~//", false);
    assert_eq!(app.cursor, 1);
    app.update(Action::RepeatSearch { reverse: false });
    finish_job(&mut app);
    assert_eq!(app.cursor, 7);
    let mut utf8 = self::app(bytes, Dialect::Utf8, 120, 40);
    search(&mut utf8, "~//", false);
    assert_eq!(utf8.cursor, 0);
    assert_eq!(message(&utf8), "search lookalike \"/\": none found");
    let utf16 = wide::text(Dialect::Utf16Le, "a/b");
    let mut wide = self::app(&utf16, Dialect::Utf16Le, 120, 40);
    search(&mut wide, "~//", false);
    assert!(
        message(&wide).starts_with("lookalike search reads the UTF-8 family"),
        "{}",
        message(&wide)
    );
}

/// The marks are in the cells' styles: covered bytes and glyphs underlined (without
/// colour) or on a background by level (with colour), others not; the errors lane's
/// markers are coloured by level.
#[test]
fn covered_cells_are_marked_by_level() {
    use ratatui::style::{Color, Modifier};
    for color in [false, true] {
        let summary = Summary::build(Dialect::Utf8, PLANTED, 1, &Progress::new()).unwrap();
        let source = Source::from_bytes("planted", PLANTED.to_vec());
        let mut app = App::with_summary(source, summary, Rect::new(0, 0, 120, 40), color);
        app.set_lints(security());
        app.lint_now();
        app.update(Action::End);
        let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
        terminal.draw(|f| draw::draw(f, &app)).unwrap();
        let buffer = terminal.backend().buffer();
        // Hex cells: offset o of row r is at column 10 + 3 * (o % 16), line 1 + o / 16.
        let hex = |o: u16| &buffer[(10 + 3 * (o % 16), 1 + o / 16)];
        let text = |o: u16| &buffer[(77 + o % 16, 1 + o / 16)];
        let lane = |o: u16| &buffer[(95 + o % 16, 1 + o / 16)];
        for (o, bg) in [(9, 52), (10, 52), (31, 58), (32, 58), (33, 58), (44, 58)] {
            assert!(
                hex(o).modifier.contains(Modifier::UNDERLINED),
                "{o} {color}"
            );
            let expected = if color {
                Color::Indexed(bg)
            } else {
                Color::Reset
            };
            assert_eq!(hex(o).bg, expected, "{o} {color}");
        }
        assert!(text(31).modifier.contains(Modifier::UNDERLINED));
        for o in [0, 8, 11, 30, 34, 47] {
            assert!(!hex(o).modifier.contains(Modifier::UNDERLINED), "{o}");
            assert!(!text(o).modifier.contains(Modifier::UNDERLINED), "{o}");
        }
        assert_eq!(lane(31).symbol(), "?");
        if color {
            assert_eq!(lane(31).fg, Color::Indexed(214));
        }
    }
}

/// The viewer's flags: a bad target is a usage error, a missing file the one-line error,
/// both before the screen is taken over.
#[test]
fn viewer_flags_fail_before_the_screen() {
    let out = common::output(["--security", "--target", "oracle", "x.txt"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("unknown target 'oracle'"), "{err}");
    let out = common::output([
        "--security",
        "--target",
        "postgres,xml-1.0",
        "no-such-file.txt",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("hexrune: no-such-file.txt: "), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn findings_past_the_cap_are_said_to_be_left_out() {
    // 300,000 right-to-left overrides, one a line: 250,000 are kept.
    let bytes = "x\u{202E}\n".repeat(300_000).into_bytes();
    let mut app = app(&bytes, Dialect::Utf8, 120, 40);
    app.set_lints(security());
    app.lint_now();
    assert_eq!(
        message(&app),
        "lint: 300000 findings, the first 250000 kept (} and { step through those)"
    );
    // The last one kept, at line 250,000 (5 bytes a line, the override at 1).
    app.update(Action::End);
    app.update(Action::PrevFinding);
    assert_eq!(app.cursor, 5 * 249_999 + 1);
    assert_eq!(
        message(&app),
        "finding 250000 of 250000 kept: bidi at 0x1312CC \
         (300000 found; see docs/lint.md)"
    );
    app.update(Action::NextFinding);
    assert_eq!(
        message(&app),
        "finding 1 of 250000 kept: bidi at 0x1 \
         (300000 found; see docs/lint.md) (wrapped to the start)"
    );
    app.update(Action::Stats);
    let lines = screen(&app);
    assert!(
        lines
            .iter()
            .any(|l| l
                .contains(" 300000 found; the first 250000 are kept, for } { (see docs/lint.md)")),
        "{}",
        lines.join("\n")
    );
}

#[test]
fn several_findings_on_one_byte_are_each_stepped_to_and_listed() {
    // Three characters, each forbidden in XML 1.0 and restricted in XML 1.1 (or the
    // reverse): two findings on each of bytes 3, 5 and 8.
    let bytes = b"<a>\x01 \xc2\x86 \xef\xbf\xbe</a>\n";
    let mut app = app(bytes, Dialect::Utf8, 120, 40);
    app.set_lints(Lints {
        targets: vec![Target::Xml10, Target::Xml11],
        security: false,
    });
    app.lint_now();
    let found = app.linting.found().unwrap();
    let offsets: Vec<usize> = found.findings.iter().map(|l| l.offset).collect();
    assert_eq!(offsets, [3, 3, 5, 5, 8, 8]);
    let mut forward = Vec::new();
    for _ in 0..7 {
        app.update(Action::NextFinding);
        forward.push((app.cursor, message(&app).to_string()));
    }
    let numbers: Vec<(u64, String)> = forward
        .iter()
        .map(|(c, m)| (*c, m.split(':').next().unwrap().to_string()))
        .collect();
    assert_eq!(
        numbers,
        [
            (3, "finding 1 of 6".to_string()),
            (3, "finding 2 of 6".to_string()),
            (5, "finding 3 of 6".to_string()),
            (5, "finding 4 of 6".to_string()),
            (8, "finding 5 of 6".to_string()),
            (8, "finding 6 of 6".to_string()),
            (3, "finding 1 of 6".to_string()),
        ]
    );
    assert!(forward[6].1.ends_with(" (wrapped to the start)"));
    // Back: the same findings in the reverse order, each once.
    let mut backward = Vec::new();
    for _ in 0..6 {
        app.update(Action::PrevFinding);
        backward.push(message(&app).split(':').next().unwrap().to_string());
    }
    assert_eq!(
        backward,
        [
            "finding 6 of 6",
            "finding 5 of 6",
            "finding 4 of 6",
            "finding 3 of 6",
            "finding 2 of 6",
            "finding 1 of 6"
        ]
    );
    // `{` from past the end starts at the last finding of the last offset.
    app.update(Action::End);
    app.update(Action::PrevFinding);
    assert!(
        message(&app).starts_with("finding 6 of 6: "),
        "{}",
        message(&app)
    );
    // The detail pane lists both findings at the cursor, the error first, below the
    // unit's own three lines and the spare lines.
    app.cursor = 3;
    let lines = screen(&app);
    let title = lines
        .iter()
        .position(|l| l.starts_with(" unit at 0x3"))
        .unwrap();
    assert!(
        lines[title + 2].starts_with("U+0001  "),
        "{}",
        lines[title + 2]
    );
    let listed: Vec<&str> = lines[title + 6..title + 8]
        .iter()
        .map(String::as_str)
        .collect();
    assert_eq!(
        listed,
        [
            "xml-forbidden error  XML 1.0: U+0001 <control-0001> is not an XML 1.0 character",
            "xml-forbidden error  XML 1.1: U+0001 <control-0001> is a restricted character: \
             XML 1.1 allows it only as a character re\u{2026}"
        ],
        "{}",
        lines.join("\n")
    );
}

/// Where more findings cover the cursor than the pane has room for, the rest are named
/// on one line, two of a kind told apart by what their messages begin with.
#[test]
fn findings_left_out_of_the_pane_are_named_apart() {
    let bytes = b"ab\x00cd \xef\xbf\xbe\n";
    let mut app = app(bytes, Dialect::Utf8, 120, 24);
    app.set_lints(Lints {
        targets: vec![
            Target::Xml10,
            Target::Xml11,
            Target::Postgres,
            Target::IJson,
        ],
        security: false,
    });
    app.lint_now();
    app.cursor = 6;
    let lines = screen(&app);
    let more = lines
        .iter()
        .find(|l| l.contains(" more here: "))
        .unwrap_or_else(|| panic!("{}", lines.join("\n")));
    assert_eq!(
        more.trim(),
        "+2 more here: xml-forbidden error (XML 1.1), noncharacter error",
        "{}",
        lines.join("\n")
    );
}

#[test]
fn a_finding_on_an_error_byte_keeps_its_fallback_line() {
    // docs/forensics.md's file: an overlong `/` (C0 AF) at 10, read with --security.
    let bytes = b"path = \"..\xc0\xaf..\xc0\xafetc/passwd\"\nif (access != \"user\xe2\x80\xae \xe2\x81\xa6// admin only\xe2\x81\xa9 \xe2\x81\xa6\") {\n";
    let mut app = app(bytes, Dialect::Utf8, 120, 40);
    app.set_lints(security());
    app.lint_now();
    app.cursor = 10;
    let lines = screen(&app);
    assert_eq!(
        lines[31],
        format!(" unit at 0xA (10), 1 byte {}", "─".repeat(94))
    );
    assert_eq!(
        lines[33],
        "error invalid_byte: byte that never occurs in this dialect"
    );
    assert_eq!(
        lines[34],
        "likely overlong form of U+002F '/'   fallback À (windows-1252)"
    );
    assert_eq!(lines[35..37], ["", ""]);
    assert!(
        lines[37].starts_with("overlong-ascii error  overlong 2-byte form of U+002F '/' (SOLIDUS)"),
        "{}",
        lines[37]
    );
}

#[test]
fn a_typed_combining_mark_is_escaped_in_the_message() {
    let mut app = app(b"abc\n", Dialect::Utf8, 120, 40);
    search(&mut app, "\u{301}x", false);
    assert_eq!(message(&app), "search \"\\u{301}x\": none found");
    let lines = screen(&app);
    assert!(
        lines[39].ends_with("search \"\\u{301}x\": none found"),
        "{}",
        lines[39]
    );
    // A mark after a letter stays on it, as the prompt shows it.
    search(&mut app, "e\u{301}", false);
    assert_eq!(message(&app), "search \"e\u{301}\": none found");
    search(&mut app, "~/\u{301}", false);
    assert_eq!(message(&app), "search lookalike \"\\u{301}\": none found");
}

/// The status line keeps a finding's message whole: the lint pass's count gives way to it
/// (at 120 columns it once cut the message to `... at 0x`), and a message wider than what
/// the left leaves shows alone.
#[test]
fn a_findings_message_is_read_whole_on_the_status_line() {
    let bytes = b"<a>\x01 \xc2\x86 \xef\xbf\xbe</a>\n";
    for (width, want) in [
        (
            120,
            " planted  16 B  0x3 (3)  25%  utf8  char 4 of 13            finding 1 of 6: \
             xml-forbidden at 0x3 (wrapped to the start)",
        ),
        (
            80,
            "                    finding 1 of 6: xml-forbidden at 0x3 (wrapped to the start)",
        ),
    ] {
        let mut app = app(bytes, Dialect::Utf8, width, 24);
        app.set_lints(Lints {
            targets: vec![Target::Xml10, Target::Xml11],
            security: false,
        });
        app.lint_now();
        for _ in 0..7 {
            app.update(Action::NextFinding);
        }
        let lines = screen(&app);
        assert_eq!(lines.last().map(String::as_str), Some(want), "{width}");
    }
}

/// The review's file: NUL, a surrogate (an error in UTF-8), an emoji, the noncharacter
/// U+FFFE, and U+FFFD at 0x12, which `check` always reports (`replacement-character`).
const TARGETS: &[u8] = b"id\x00x \xed\xa0\x80 \xf0\x9f\x98\x80 \xef\xbf\xbe \xef\xbf\xbd\n";

#[test]
fn a_replacement_character_in_the_input_is_a_finding_asked_or_not() {
    // No lint asked: `}` steps to it, `s` counts it, the errors lane marks it a warning.
    let mut app = app(TARGETS, Dialect::Utf8, 120, 40);
    app.lint_now();
    assert_eq!(message(&app), "", "no lint asked: nothing to announce");
    assert!(
        screen(&app)[2].starts_with(
            "00000010  be 20 ef bf bd 0a                                \
             \u{2083}13\u{2082}\u{2083}1            \u{2D1} \u{FFFD}\u{2D1}\u{2D1}\u{240A}              ?\u{2504}\u{2504} "
        ),
        "{}",
        screen(&app)[2]
    );
    app.update(Action::NextFinding);
    assert_eq!(
        (app.cursor, message(&app)),
        (0x12, "finding 1 of 1: replacement-character at 0x12")
    );
    app.update(Action::Stats);
    let text = screen(&app).join("\n");
    assert!(
        text.contains("\u{2502} findings (no lints asked)    "),
        "{text}"
    );
    assert!(
        text.contains("\u{2502} replacement-character 1 \u{2588}"),
        "{text}"
    );
    app.update(Action::Stats);
    // `--security`, the review's keys: `:0x12` then `{`, and `s`.
    app.set_lints(security());
    app.lint_now();
    assert_eq!(message(&app), "lint: 1 finding (} steps to it)");
    app.update(Action::Start);
    app.update(Action::PrevFinding);
    assert_eq!(
        (app.cursor, message(&app)),
        (
            0x12,
            "finding 1 of 1: replacement-character at 0x12 (wrapped to the end)"
        )
    );
    let rows = screen(&app);
    assert!(
        rows.iter().any(|l| l
            == "replacement-character warning  U+FFFD REPLACEMENT CHARACTER already in the \
                input: something lost data before it was wri\u{2026}"),
        "{rows:#?}"
    );
    app.update(Action::Stats);
    let text = screen(&app).join("\n");
    assert!(
        text.contains("\u{2502} findings (--security)    "),
        "{text}"
    );
    assert!(!text.contains("findings (--security): none"), "{text}");
    assert!(
        text.contains("\u{2502} replacement-character 1 \u{2588}"),
        "{text}"
    );
    app.update(Action::Stats);
    // With targets, the U+FFFD comes in offset order among the lints, as in `check`.
    app.set_lints(Lints {
        targets: vec![Target::MysqlUtf8mb3, Target::Postgres, Target::Json],
        security: true,
    });
    app.lint_now();
    let spans = finding_spans(&app);
    assert_eq!(
        spans,
        [
            (2, "nul"),
            (5, "lone-surrogate"),
            (5, "lone-surrogate"),
            (9, "four-byte"),
            (0x12, "replacement-character")
        ]
    );
    assert_eq!(
        message(&app),
        "lint: 5 findings (} and { step through them)"
    );
}

/// The offset and kind of each lint the viewer's lint pass found.
fn finding_spans(app: &App) -> Vec<(usize, &'static str)> {
    let found = app.linting.found().unwrap();
    found
        .findings
        .iter()
        .map(|l| (l.offset, l.kind.name()))
        .collect()
}
