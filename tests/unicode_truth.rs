//! One Unicode truth and one sanitiser, checked through every output path a user sees: the
//! detail from `view::detail`, the rendered TUI detail pane and status line, `hexrune
//! explain`, `hexrune at` (JSON) and `hexrune check`, and the error line `hexrune: <file>:
//! <cause>`. Each table row is written out by hand, so a path that drifts from the others
//! fails here with the row that shows it.

use hexrune::decode::{CodePoint, Dialect};
use hexrune::source::Source;
use hexrune::tui::app::App;
use hexrune::tui::draw;
use hexrune::view::{detail, Meaning};
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use ratatui::Terminal;
use serde_json::{json, Value};

mod common;
use common::{file_with, stderr_of, stdout_of};

/// The app on `bytes` (as the file `name`), cursor at 0, drawn on a `width` x 24 screen,
/// one string a line, wide glyphs counted once (as in tests/screens.rs).
fn screen(name: &str, bytes: &[u8], dialect: Dialect, width: u16) -> String {
    let source = Source::from_bytes(name, bytes.to_vec());
    let app = App::new(source, dialect, Rect::new(0, 0, width, 24), false);
    let mut terminal = Terminal::new(TestBackend::new(width, 24)).unwrap();
    terminal.draw(|f| draw::draw(f, &app)).unwrap();
    let buffer = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..buffer.area.height {
        let mut x = 0;
        while x < buffer.area.width {
            let symbol = buffer[(x, y)].symbol();
            out.push_str(symbol);
            x += unicode_width::UnicodeWidthStr::width(symbol).max(1) as u16;
        }
        out.push('\n');
    }
    out
}

/// What every path must say about one code point.
struct Row {
    cp: u32,
    /// The name, or the code point label.
    title: &'static str,
    /// The character between quotes in `explain`, where it is shown.
    quoted: Option<&'static str>,
    category: &'static str,
    abbreviation: Option<&'static str>,
    width: Option<u8>,
    plane: Option<u8>,
    plane_text: &'static str,
    block: Option<&'static str>,
}

const BMP: &str = "0 Basic Multilingual Plane";
const SMP: &str = "1 Supplementary Multilingual Plane";
const NOT_UNICODE: &str = "above U+10FFFF: not a Unicode code point";

#[rustfmt::skip]
const ROWS: &[Row] = &[
    Row { cp: 0x41, title: "LATIN CAPITAL LETTER A", quoted: Some("A"), category: "Lu: uppercase letter", abbreviation: Some("Lu"), width: Some(1), plane: Some(0), plane_text: BMP, block: Some("Basic Latin") },
    Row { cp: 0xE9, title: "LATIN SMALL LETTER E WITH ACUTE", quoted: Some("é"), category: "Ll: lowercase letter", abbreviation: Some("Ll"), width: Some(1), plane: Some(0), plane_text: BMP, block: Some("Latin-1 Supplement") },
    Row { cp: 0x301, title: "COMBINING ACUTE ACCENT", quoted: Some("\u{25CC}\u{301}"), category: "Mn: nonspacing mark", abbreviation: Some("Mn"), width: Some(0), plane: Some(0), plane_text: BMP, block: Some("Combining Diacritical Marks") },
    Row { cp: 0x200B, title: "ZERO WIDTH SPACE", quoted: None, category: "Cf: format", abbreviation: Some("Cf"), width: Some(0), plane: Some(0), plane_text: BMP, block: Some("General Punctuation") },
    Row { cp: 0x202E, title: "RIGHT-TO-LEFT OVERRIDE", quoted: None, category: "Cf: format", abbreviation: Some("Cf"), width: Some(0), plane: Some(0), plane_text: BMP, block: Some("General Punctuation") },
    Row { cp: 0x4E00, title: "CJK UNIFIED IDEOGRAPH-4E00", quoted: Some("一"), category: "Lo: other letter", abbreviation: Some("Lo"), width: Some(2), plane: Some(0), plane_text: BMP, block: Some("CJK Unified Ideographs") },
    Row { cp: 0xAC00, title: "HANGUL SYLLABLE GA", quoted: Some("가"), category: "Lo: other letter", abbreviation: Some("Lo"), width: Some(2), plane: Some(0), plane_text: BMP, block: Some("Hangul Syllables") },
    Row { cp: 0xD800, title: "<surrogate-D800>", quoted: None, category: "Cs: surrogate", abbreviation: Some("Cs"), width: None, plane: Some(0), plane_text: BMP, block: Some("High Surrogates") },
    Row { cp: 0xE000, title: "<private-use-E000>", quoted: None, category: "Co: private use", abbreviation: Some("Co"), width: Some(1), plane: Some(0), plane_text: BMP, block: Some("Private Use Area") },
    Row { cp: 0xFDD0, title: "<noncharacter-FDD0>", quoted: None, category: "Cn: unassigned", abbreviation: Some("Cn"), width: Some(1), plane: Some(0), plane_text: BMP, block: Some("Arabic Presentation Forms-A") },
    Row { cp: 0xFFFE, title: "<noncharacter-FFFE>", quoted: None, category: "Cn: unassigned", abbreviation: Some("Cn"), width: Some(1), plane: Some(0), plane_text: BMP, block: Some("Specials") },
    Row { cp: 0x17000, title: "TANGUT IDEOGRAPH-17000", quoted: Some("\u{17000}"), category: "Lo: other letter", abbreviation: Some("Lo"), width: Some(2), plane: Some(1), plane_text: SMP, block: Some("Tangut") },
    Row { cp: 0x1F600, title: "GRINNING FACE", quoted: Some("\u{1F600}"), category: "So: other symbol", abbreviation: Some("So"), width: Some(2), plane: Some(1), plane_text: SMP, block: Some("Emoticons") },
    Row { cp: 0xE0041, title: "TAG LATIN CAPITAL LETTER A", quoted: None, category: "Cf: format", abbreviation: Some("Cf"), width: Some(0), plane: Some(14), plane_text: "14 Supplementary Special-purpose Plane", block: Some("Tags") },
    Row { cp: 0xF0000, title: "<private-use-F0000>", quoted: None, category: "Co: private use", abbreviation: Some("Co"), width: Some(1), plane: Some(15), plane_text: "15 Supplementary Private Use Area-A", block: Some("Supplementary Private Use Area-A") },
    Row { cp: 0x10FFFF, title: "<noncharacter-10FFFF>", quoted: None, category: "Cn: unassigned", abbreviation: Some("Cn"), width: Some(1), plane: Some(16), plane_text: "16 Supplementary Private Use Area-B", block: Some("Supplementary Private Use Area-B") },
    Row { cp: 0x110000, title: "<not-unicode-110000>", quoted: None, category: NOT_UNICODE, abbreviation: None, width: None, plane: None, plane_text: "none", block: None },
    Row { cp: 0x7FFF_FFFF, title: "<not-unicode-7FFFFFFF>", quoted: None, category: NOT_UNICODE, abbreviation: None, width: None, plane: None, plane_text: "none", block: None },
];

impl Row {
    fn code_point(&self) -> CodePoint {
        CodePoint::new(self.cp)
    }

    /// The dialect that decodes this value as a scalar: UTF-8, or WTF-8 for a surrogate,
    /// legacy UTF-8 above U+10FFFF.
    fn dialect(&self) -> Dialect {
        match self.cp {
            0xD800..=0xDFFF => Dialect::Wtf8,
            0x11_0000.. => Dialect::Legacy,
            _ => Dialect::Utf8,
        }
    }

    fn bytes(&self) -> Vec<u8> {
        let encoded = self.dialect().encode(self.code_point()).unwrap();
        encoded.as_bytes().to_vec()
    }

    fn width_text(&self) -> String {
        self.width.map_or("none".to_string(), |w| w.to_string())
    }

    fn block_text(&self) -> &'static str {
        self.block.unwrap_or("none")
    }

    fn utf16_text(&self) -> String {
        match self.cp {
            0..=0xFFFF => format!("{:04X}", self.cp),
            0x1_0000..=0x10_FFFF => {
                let v = self.cp - 0x1_0000;
                format!("{:04X} {:04X}", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF))
            }
            _ => "none".to_string(),
        }
    }
}

#[test]
fn the_detail_model_gives_the_facts() {
    for row in ROWS {
        let d = detail(&row.bytes(), row.dialect(), 0).unwrap();
        let Meaning::Scalar { value, facts, .. } = d.meaning else {
            panic!("U+{:04X} is no scalar", row.cp)
        };
        assert_eq!(value, row.code_point());
        assert_eq!(
            (
                facts.title(),
                facts.category_text(),
                facts.width,
                facts.plane_text(),
                facts.block
            ),
            (
                row.title.to_string(),
                row.category.to_string(),
                row.width,
                row.plane_text.to_string(),
                row.block
            ),
            "{value}"
        );
    }
}

#[test]
fn explain_gives_the_facts() {
    for row in ROWS {
        let text = stdout_of(["explain", "--char", &format!("U+{:04X}", row.cp)], 0);
        let first_two: Vec<&str> = text.lines().take(2).collect();
        let quoted = row.quoted.map(|q| format!("'{q}' ")).unwrap_or_default();
        assert_eq!(
            first_two,
            [
                format!(
                    "{} {quoted}{} ({})",
                    row.code_point(),
                    row.title,
                    row.category
                ),
                format!(
                    "block {}   plane {}   width {}",
                    row.block_text(),
                    row.plane_text,
                    row.width_text()
                ),
            ]
        );
    }
}

#[test]
fn at_json_gives_the_facts() {
    let dir = tempfile::tempdir().unwrap();
    for row in ROWS {
        let bytes = row.bytes();
        let f = file_with(dir.path(), "one.bin", &bytes);
        let out = stdout_of(["at", "-d", row.dialect().name(), &f, "0"], 0);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            v,
            json!({
                "offset": 0, "len": bytes.len(), "kind": "scalar", "cp": row.cp,
                "class": bytes.len(), "name": row.title, "alias": null,
                "category": row.abbreviation, "width": row.width, "plane": row.plane,
                "block": row.block,
            }),
            "U+{:04X}",
            row.cp
        );
    }
}

#[test]
fn the_tui_detail_pane_gives_the_facts() {
    for row in ROWS {
        let text = screen("fixture", &row.bytes(), row.dialect(), 160);
        let name_line = format!("  {}   block {}", row.title, row.block_text());
        // The pane names the plane by its short name, so that the line fits 80 columns.
        let short = match row.plane {
            None => "none".to_string(),
            Some(p) => {
                let name = match p {
                    0 => "BMP",
                    1 => "SMP",
                    2 => "SIP",
                    3 => "TIP",
                    14 => "SSP",
                    15 => "SPUA-A",
                    16 => "SPUA-B",
                    _ => "unassigned",
                };
                format!("{p} {name}")
            }
        };
        let category_line = format!(
            "category {}   width {}   UTF-16 {}   plane {short}",
            row.category,
            row.width_text(),
            row.utf16_text()
        );
        for expected in [name_line, category_line] {
            assert!(
                text.lines().any(|l| l.trim_end().ends_with(&expected)),
                "U+{:04X}: no line ends with {expected:?} in\n{text}",
                row.cp
            );
        }
    }
}

#[test]
fn explain_shows_the_surrogate_pair_a_cesu8_writer_would_use() {
    let text = stdout_of(["explain", "f0 9f 98 80"], 0);
    let cesu8: Vec<&str> = text.lines().filter(|l| l.starts_with("cesu8")).collect();
    assert_eq!(
        cesu8,
        ["cesu8         0    1  f0           invalid_byte: byte that never occurs in this dialect; \
          4-byte UTF-8 form of U+1F600 (F0 9F 98 80); \
          this dialect writes it as the surrogate pair ED A0 BD ED B8 80"]
    );
}

/// A character a terminal could act on or that would hide, its escape, and how the detail
/// pane shows it: glyph and name.
#[rustfmt::skip]
const HIDDEN: &[(char, &str, &str, &str)] = &[
    ('\u{1B}', r"\u{1b}", "\u{241B}", "<control-001B> ESCAPE"),
    ('\u{7F}', r"\u{7f}", "\u{2421}", "<control-007F> DELETE"),
    ('\u{9B}', r"\u{9b}", "\u{2327}", "<control-009B>"),
    ('\u{202E}', r"\u{202e}", "\u{21C4}", "RIGHT-TO-LEFT OVERRIDE"),
    ('\u{2066}', r"\u{2066}", "\u{21C4}", "LEFT-TO-RIGHT ISOLATE"),
    ('\u{200E}', r"\u{200e}", "\u{21C4}", "LEFT-TO-RIGHT MARK"),
    ('\u{061C}', r"\u{61c}", "\u{21C4}", "ARABIC LETTER MARK"),
    ('\u{2028}', r"\u{2028}", "\u{23CE}", "LINE SEPARATOR"),
    ('\u{2029}', r"\u{2029}", "\u{23CE}", "PARAGRAPH SEPARATOR"),
    ('\u{AD}', r"\u{ad}", "\u{207B}", "SOFT HYPHEN"),
    ('\u{200B}', r"\u{200b}", "\u{1DBB}", "ZERO WIDTH SPACE"),
    ('\u{200D}', r"\u{200d}", "\u{1DBB}", "ZERO WIDTH JOINER"),
    ('\u{2060}', r"\u{2060}", "\u{1DBB}", "WORD JOINER"),
    ('\u{FEFF}', r"\u{feff}", "\u{1D2E}", "ZERO WIDTH NO-BREAK SPACE"),
    ('\u{E0041}', r"\u{e0041}", "\u{1D57}", "TAG LATIN CAPITAL LETTER A"),
    ('\u{FE0F}', r"\u{fe0f}", "\u{1D5B}", "VARIATION SELECTOR-16"),
    ('\u{3164}', r"\u{3164}", "\u{1DA0}", "HANGUL FILLER"),
    ('\u{E000}', r"\u{e000}", "\u{1D56}", "<private-use-E000>"),
    ('\u{FDD0}', r"\u{fdd0}", "\u{2204}", "<noncharacter-FDD0>"),
];

#[test]
fn a_file_name_in_an_error_message_is_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().to_str().unwrap();
    for &(c, escape, ..) in HIDDEN {
        let missing = format!("{base}/x{c}y.txt");
        let out = stderr_of(["check", &missing], 2);
        assert_eq!(
            out,
            format!("hexrune: {base}/x{escape}y.txt: no such file or directory\n")
        );
    }
}

#[test]
fn a_file_name_in_check_output_is_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().to_str().unwrap();
    for &(c, escape, ..) in HIDDEN {
        let f = file_with(dir.path(), &format!("x{c}y.txt"), b"ok\n");
        let out = stdout_of(["check", &f], 0);
        assert_eq!(
            out,
            format!(
                "{base}/x{escape}y.txt: valid utf8, ASCII only: 3 bytes, 3 characters\n  units    1-byte 3, 2-byte 0, 3-byte 0, 4-byte 0\n"
            )
        );
    }
}

#[test]
fn an_explain_argument_is_escaped_when_quoted_back() {
    for &(c, escape, ..) in HIDDEN {
        let out = stderr_of(["explain", "--char", &format!("a{c}b")], 2);
        // Text that is not ASCII could be meant as text: the clusters are named.
        let hint = match c.is_ascii() {
            true => "",
            false => {
                "; or leave out --char to see the text's grapheme clusters and their code points"
            }
        };
        assert_eq!(
            out,
            format!(
                "hexrune: explain: 'a{escape}b' is 3 code points (U+0061 U+{:04X} U+0062); \
                 give one character, or one code point as U+XXXX{hint}\n",
                c as u32
            )
        );
    }
}

#[test]
fn a_file_name_in_the_status_line_is_escaped() {
    for &(c, escape, ..) in HIDDEN {
        let text = screen(&format!("x{c}y.txt"), b"ok", Dialect::Utf8, 100);
        let status = text.lines().last().unwrap();
        assert!(
            status.starts_with(&format!(" x{escape}y.txt  ")),
            "{status:?}"
        );
        assert!(!text.contains(c), "U+{:04X} on screen", c as u32);
    }
}

#[test]
fn the_detail_pane_shows_a_hidden_character_by_glyph_and_name() {
    for &(c, _, glyph, name) in HIDDEN {
        let bytes = c.to_string().into_bytes();
        let text = screen("fixture", &bytes, Dialect::Utf8, 160);
        let line = format!("U+{:04X}  {glyph}  {name}   block ", c as u32);
        assert!(
            text.lines().any(|l| l.contains(&line)),
            "no {line:?} in\n{text}"
        );
        assert!(!text.contains(c), "U+{:04X} on screen", c as u32);
    }
}
