//! Detection in the viewer: the statistics overlay's detection lines, the class lane's
//! mark on mojibake bytes, and the detail pane's repair, on rendered screens.

use hexrune::decode::Dialect;
use hexrune::scan::index::{Progress, Summary};
use hexrune::source::Source;
use hexrune::tui::app::App;
use hexrune::tui::{draw, Action};
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};
use ratatui::Terminal;

const TEXT: &str = "Le garÃ§on a mangÃ©.\nplain line\n";

fn app(bytes: &[u8], color: bool) -> App {
    let summary = Summary::build(Dialect::Utf8, bytes, 1, &Progress::new()).unwrap();
    let source = Source::from_bytes("fixture", bytes.to_vec());
    App::with_summary(source, summary, Rect::new(0, 0, 120, 30), color)
}

fn render(app: &App) -> ratatui::buffer::Buffer {
    let mut terminal = Terminal::new(TestBackend::new(app.size.width, app.size.height)).unwrap();
    terminal.draw(|f| draw::draw(f, app)).unwrap();
    terminal.backend().buffer().clone()
}

fn lines(buffer: &ratatui::buffer::Buffer) -> Vec<String> {
    (0..buffer.area.height)
        .map(|y| {
            (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect()
}

#[test]
fn the_app_knows_the_mojibake_regions() {
    let app = app(TEXT.as_bytes(), false);
    let d = app.detection().expect("detection is done with the summary");
    assert_eq!(d.mojibake.len(), 1);
    assert_eq!((d.mojibake[0].start, d.mojibake[0].end), (6, 23));
    assert!(app.mojibake_at(5).is_none());
    assert_eq!(
        app.mojibake_at(6).map(|m| m.text.as_str()),
        Some("çon a mangé")
    );
    assert_eq!(app.mojibake_at(22).map(|m| m.start), Some(6));
    assert!(app.mojibake_at(23).is_none());
}

#[test]
fn the_detail_pane_shows_the_repair_under_the_cursor() {
    let mut app = app(TEXT.as_bytes(), false);
    let before = lines(&render(&app));
    assert!(
        !before.iter().any(|l| l.contains("mojibake")),
        "{before:#?}"
    );
    for _ in 0..6 {
        app.update(Action::Right);
    }
    assert_eq!(app.cursor, 6);
    let after = lines(&render(&app));
    assert!(
        after
            .iter()
            .any(|l| l == "mojibake 0x6..0x17 windows-1252 → “çon a mangé”"),
        "{after:#?}"
    );
}

/// A chain of two encodings is said in the order the text went through them, as `detect`
/// and `repair` say it: read as windows-1250, then as windows-1252.
#[test]
fn the_detail_pane_says_a_chain_in_the_order_the_text_went_through_it() {
    let misread = |s: &str, e: &'static encoding_rs::Encoding| {
        e.decode_without_bom_handling(s.as_bytes()).0.into_owned()
    };
    let twice = misread(
        &misread(
            "Le garçon a mangé une crème brûlée.",
            encoding_rs::WINDOWS_1250,
        ),
        encoding_rs::WINDOWS_1252,
    );
    let bytes = format!("{twice}\n");
    let mut app = app(bytes.as_bytes(), false);
    let m = app.detection().expect("detection").mojibake[0].clone();
    assert_eq!(m.chain_names(), ["windows-1252", "windows-1250"]);
    for _ in 0..m.start {
        app.update(Action::Right);
    }
    let screen = lines(&render(&app));
    let line = screen
        .iter()
        .find(|l| l.starts_with("mojibake "))
        .unwrap_or_else(|| panic!("{screen:#?}"));
    assert_eq!(
        line,
        &format!(
            "mojibake 0x{:X}..0x{:X} windows-1250, then windows-1252 → “{}”",
            m.start, m.end, m.text
        )
    );
}

#[test]
fn the_class_lane_marks_mojibake_bytes() {
    let app = app(TEXT.as_bytes(), true);
    let buffer = render(&app);
    let screen = lines(&buffer);
    let row = screen
        .iter()
        .position(|l| l.starts_with("00000000"))
        .unwrap() as u16;
    let class_x = screen[0].find("class").unwrap() as u16;
    // Bytes 0..6 are plain ASCII; 6..16 of the first row are in the region.
    let plain = &buffer[(class_x + 5, row)];
    let marked = &buffer[(class_x + 6, row)];
    assert_eq!(marked.fg, Color::LightMagenta, "{marked:?}");
    assert!(marked.modifier.contains(Modifier::UNDERLINED), "{marked:?}");
    assert_ne!(plain.fg, Color::LightMagenta);
    assert!(!plain.modifier.contains(Modifier::UNDERLINED));
}

#[test]
fn the_statistics_overlay_has_a_detection_line() {
    let mut app = app(TEXT.as_bytes(), false);
    app.update(Action::Stats);
    let screen = lines(&render(&app));
    let detect = screen
        .iter()
        .find(|l| l.contains(" detect "))
        .expect("a detect line");
    assert!(
        detect.contains("detect   UTF-8, 1 mojibake region"),
        "{detect}"
    );
    let regions = screen
        .iter()
        .find(|l| l.contains(" regions "))
        .expect("a regions line");
    assert!(regions.contains("regions  one, UTF-8"), "{regions}");
}

/// The regions line names every region in the input's order (it named each encoding once,
/// `3: windows-1252, UTF-8`-like lists for three regions).
#[test]
fn the_statistics_overlay_names_the_regions_in_order() {
    let mut bytes = "première ligne ✓\n".repeat(3).into_bytes();
    let legacy = "deuxième partie, déjà.\n".repeat(3);
    bytes.extend(encoding_rs::WINDOWS_1252.encode(&legacy).0.iter());
    bytes.extend("retour ✓\n".as_bytes());
    let mut app = app(&bytes, false);
    app.update(Action::Stats);
    let screen = lines(&render(&app));
    let regions = screen
        .iter()
        .find(|l| l.contains(" regions "))
        .expect("a regions line");
    assert!(
        regions.contains("regions  3: UTF-8, windows-1252, UTF-8 "),
        "{regions}"
    );
}
