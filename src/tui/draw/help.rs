//! The key list overlay (`?`): every binding of [`super::super::keymap::KEYS`] and a legend of
//! the panes' symbols, the text pane's placeholders among them.
//!
//! The list is wrapped at word boundaries to the terminal's width (less than 80 columns
//! wide at most), and scrolls when it is taller than the terminal: [`help_lines`] is the
//! one place that lays it out, so drawing and the app's scrolling agree on its length.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

use super::*;
use crate::decode::CodePoint;
use crate::view::glyph::{glyph, CUT_GLYPH, ERROR_GLYPH, ESCAPED_GLYPH};

/// The error kinds in the help overlay's legend, in short words, in legend order.
pub(super) const LEGEND: [(ErrorKind, &str); 18] = [
    (ErrorKind::InvalidByte, "invalid byte"),
    (ErrorKind::UnexpectedContinuation, "stray continuation"),
    (ErrorKind::Truncated, "truncated"),
    (ErrorKind::TruncatedEof, "truncated at end"),
    (ErrorKind::Overlong, "overlong"),
    (ErrorKind::Surrogate, "surrogate"),
    (ErrorKind::OutOfRange, "out of range"),
    (ErrorKind::UnpairedSurrogate, "unpaired surrogate"),
    (ErrorKind::SurrogatePair, "surrogate pair"),
    (
        ErrorKind::UnpairedHighSurrogate,
        "unpaired high surrogate (UTF-16)",
    ),
    (
        ErrorKind::UnpairedLowSurrogate,
        "unpaired low surrogate (UTF-16)",
    ),
    (ErrorKind::TruncatedUnit, "code unit cut at end (UTF-16/32)"),
    (ErrorKind::SurrogateUnit, "surrogate code unit (UTF-32)"),
    (
        ErrorKind::UndefinedByte,
        "undefined in the encoding (legacy)",
    ),
    (ErrorKind::BadTrail, "bad trail byte (multi-byte legacy)"),
    (ErrorKind::Unmapped, "unmapped sequence (multi-byte legacy)"),
    (ErrorKind::BadEscape, "bad escape (ISO-2022-JP)"),
    (
        ErrorKind::RedundantEscape,
        "escape after escape (ISO-2022-JP)",
    ),
];

/// The text pane's placeholders: code points whose glyphs stand for a class of them (drawn
/// with [`glyph`], so the legend shows what the pane shows), and what they are. A row has
/// one code point for each glyph it shows: two that are drawn alike (U+00A0 and U+3000
/// are both `␣`) showed the same glyph twice.
pub(super) const PLACEHOLDERS: &[(&[u32], &str)] = &[
    (
        &[0x00, 0x0A, 0x1B, 0x7F],
        "C0 control or DEL (control pictures)",
    ),
    (&[0x85], "C1 control"),
    (&[0xA0], "space other than U+0020"),
    (&[0x2028], "line or paragraph separator"),
    (
        &[0x202E],
        "bidi control: embedding, override, isolate, mark",
    ),
    (
        &[0x200B],
        "zero-width space, joiner, non-joiner, word joiner",
    ),
    (&[0xFEFF], "byte order mark (BOM)"),
    (&[0xAD], "soft hyphen"),
    (&[0xE0041], "tag character"),
    (&[0x0600], "other format character"),
    (&[0xFE0F], "variation selector"),
    (&[0x0301], "combining mark, drawn on a dotted circle"),
    (
        &[0x0903],
        "spacing mark, or a Hangul vowel or final: the dotted circle alone",
    ),
    (&[0x0378], "unassigned code point or noncharacter"),
    (&[0xE000], "private use"),
    (&[0xD800], "surrogate (valid alone in some dialects)"),
    (&[0x110000], "above U+10FFFF (legacy dialect)"),
    (
        &[0xFFFD],
        "U+FFFD already in the file (underlined): data was lost before it was written",
    ),
];

/// One entry of the list: a head in the first columns and a body wrapped beside it.
struct Entry {
    head: String,
    head_style: Style,
    body: Vec<String>,
    separator: &'static str,
    body_style: Style,
}

impl Entry {
    fn words(head: impl Into<String>, head_style: Style, body: &str, style: Style) -> Entry {
        Entry {
            head: head.into(),
            head_style,
            body: body.split(' ').map(str::to_string).collect(),
            separator: " ",
            body_style: style,
        }
    }
}

/// The whole list, wrapped to `width` columns: what the overlay shows from its first line
/// on (before scrolling).
pub(super) fn help_lines(width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let key_width = KEYS.iter().map(|(k, _)| k.width()).max().unwrap_or(0) + 3;
    let accent = style(theme.0.accent().bold());
    let mut entries: Vec<Entry> = KEYS
        .iter()
        .map(|(keys, what)| Entry::words(format!(" {keys}"), accent, what, Style::new()))
        .collect();
    let heading = |text: &str| Entry::words(format!(" {text}"), theme.title(), "", theme.dim());
    entries.push(heading(""));
    entries.push(heading("text pane:"));
    let glyphs = |samples: &[u32]| -> String {
        let shown: Vec<String> = samples
            .iter()
            .map(|v| glyph(CodePoint::new(*v)).text)
            .collect();
        format!("   {}", shown.join(" "))
    };
    for (head, what) in [
        (
            format!("   {FILLER}"),
            "the other columns of a multi-byte character",
        ),
        (
            format!("   {ERROR_GLYPH}"),
            "error unit (one per maximal subpart)",
        ),
        (
            format!("   {CUT_GLYPH}"),
            "wide character cut by the row's edge",
        ),
        (
            format!("   {ESCAPED_GLYPH}"),
            "invalid byte as --escape writes it (the detail pane says which code point)",
        ),
    ]
    .into_iter()
    .chain(PLACEHOLDERS.iter().map(|(s, what)| (glyphs(s), *what)))
    {
        entries.push(Entry::words(
            head,
            style(theme.0.accent()),
            what,
            theme.dim(),
        ));
    }
    entries.push(heading(""));
    entries.push(Entry::words(
        " class lane:",
        theme.title(),
        "1-6 at a lead, ₂..₆ = position in the sequence, ✗ error; underlined magenta: \
         mojibake, UTF-8 read as a legacy encoding and written again (the detail pane shows \
         the repair)",
        theme.dim(),
    ));
    entries.push(Entry {
        head: " errors lane:".to_string(),
        head_style: theme.title(),
        // The letters come from the one table the panes and `dump` use.
        body: LEGEND
            .iter()
            .map(|(kind, what)| format!("{} {what}", error_letter(*kind)))
            .collect(),
        separator: "  ",
        body_style: theme.dim(),
    });
    entries.push(Entry::words(
        " findings:",
        theme.title(),
        &format!(
            "with --security, --target or T, the bytes and glyphs of a lint finding are \
             underlined (on dark red: error, olive: warning, blue: note); the errors lane marks \
             its first byte {} error, {} warning, {} note, and the rest {}; the detail pane \
             names the findings under the cursor, s counts them by kind",
            super::findings::head(crate::lint::Level::Error),
            super::findings::head(crate::lint::Level::Warning),
            super::findings::head(crate::lint::Level::Note),
            super::findings::BODY,
        ),
        theme.dim(),
    ));
    entries.push(Entry::words(
        " cluster lane:",
        theme.title(),
        "with c, a line under each row: ╰──╯ under the bytes of one grapheme cluster of several \
         code points (a flag, an emoji sequence, a letter and its marks), ─ at a row's end where \
         it goes on, … where it goes on past 1 KiB of context (Zalgo)",
        theme.dim(),
    ));
    entries.push(Entry {
        head: " map:".to_string(),
        head_style: theme.title(),
        body: [
            "┃ on screen",
            "· ASCII",
            "░ some multi-byte",
            "▒ mostly multi-byte",
            "╎ not scanned yet",
            "! errors in up to 1%,",
            "▓ up to 10%,",
            "█ over 10% of the characters",
        ]
        .map(str::to_string)
        .to_vec(),
        separator: "  ",
        body_style: theme.dim(),
    });
    entries.push(Entry::words(
        " narrow:",
        theme.title(),
        "below 111 columns the errors lane folds into the class lane (its letters replace ✗); \
         below 93 both lanes are hidden, so that 80 columns still show 16 bytes a row",
        theme.dim(),
    ));
    let mut lines = Vec::new();
    for entry in entries {
        wrap_entry(&entry, key_width, width as usize, &mut lines);
    }
    lines
}

/// The fewest columns the body of an entry is given beside its head; with less room, the
/// body goes under the head ([`STACKED_INDENT`]).
const MIN_BODY: usize = 28;

/// Where the body of an entry starts when it goes under its head.
const STACKED_INDENT: usize = 4;

/// `entry` as lines of at most `width` columns: the head, then as many pieces of the body
/// as fit, the rest on lines indented to `indent` (or past the head, if it is wider). Where
/// that leaves the body less than [`MIN_BODY`] columns (a narrow terminal), the head has a
/// line of its own and the body follows, indented [`STACKED_INDENT`].
fn wrap_entry(entry: &Entry, indent: usize, width: usize, lines: &mut Vec<Line<'static>>) {
    let head_width = entry.head.width();
    let indent = if head_width + 2 > indent {
        head_width + 1
    } else {
        indent
    };
    let stacked =
        width.saturating_sub(indent) < MIN_BODY && entry.body.iter().any(|p| !p.is_empty());
    if stacked {
        lines.push(Line::from(Span::styled(
            entry.head.clone(),
            entry.head_style,
        )));
        let under = Entry {
            head: String::new(),
            head_style: entry.head_style,
            body: entry.body.clone(),
            separator: entry.separator,
            body_style: entry.body_style,
        };
        let indent = STACKED_INDENT.min(width.saturating_sub(1));
        return wrap_at(&under, indent, width, lines);
    }
    wrap_at(entry, indent, width, lines)
}

/// [`wrap_entry`] with the body beside the head, from column `indent`.
fn wrap_at(entry: &Entry, indent: usize, width: usize, lines: &mut Vec<Line<'static>>) {
    let room = width.saturating_sub(indent).max(1);
    let mut rows: Vec<String> = Vec::new();
    for piece in entry.body.iter().filter(|p| !p.is_empty()) {
        if piece.width() <= room {
            place(&mut rows, entry.separator, piece, room);
            continue;
        }
        // A piece wider than a row is wrapped at its own spaces.
        let mut separator = entry.separator;
        for word in piece.split(' ') {
            place(&mut rows, separator, word, room);
            separator = " ";
        }
    }
    if rows.is_empty() {
        rows.push(String::new());
    }
    for (i, row) in rows.into_iter().enumerate() {
        let head = if i == 0 { entry.head.as_str() } else { "" };
        let pad = indent - head.width();
        lines.push(Line::from(vec![
            Span::styled(head.to_string(), entry.head_style),
            Span::raw(" ".repeat(pad)),
            Span::styled(row, entry.body_style),
        ]));
    }
}

/// Puts `piece` after `separator` on the last row if it fits there, else on new rows.
fn place(rows: &mut Vec<String>, separator: &str, piece: &str, room: usize) {
    match rows.last_mut() {
        Some(row) if row.width() + separator.width() + piece.width() <= room => {
            row.push_str(separator);
            row.push_str(piece);
        }
        _ => rows.extend(split_to_width(piece, room)),
    }
}

/// A piece of text as rows of at most `room` columns: whole unless it is longer than a row.
fn split_to_width(piece: &str, room: usize) -> Vec<String> {
    let mut rows = vec![String::new()];
    for c in piece.chars() {
        let row = rows.last_mut().expect("one row at least");
        if row.width() + c.to_string().width() > room && !row.is_empty() {
            rows.push(String::new());
        }
        rows.last_mut().expect("one row at least").push(c);
    }
    rows
}

/// Where the overlay goes in `area`, and its lines.
fn popup(area: Rect, theme: &Theme) -> (Rect, Vec<Line<'static>>) {
    // As wide as the longest line unwrapped, at most the terminal.
    let natural = help_lines(u16::MAX, theme)
        .iter()
        .map(Line::width)
        .max()
        .unwrap_or(0) as u16
        + 3;
    let width = natural.min(area.width);
    let lines = help_lines(width.saturating_sub(3), theme);
    let height = (lines.len() as u16 + 2).min(area.height);
    let popup = Rect {
        x: area.x + area.width.saturating_sub(width) / 2,
        y: area.y + area.height.saturating_sub(height) / 2,
        width,
        height,
    };
    (popup, lines)
}

/// How the list scrolls in `area`.
pub fn help_room(area: Rect) -> Room {
    let (popup, lines) = popup(area, &Theme(theme::Theme::MONO));
    Room::of(popup, lines.len())
}

pub(super) fn draw_help(app: &App, area: Rect, theme: &Theme, buf: &mut Buffer) {
    let (popup, lines) = popup(area, theme);
    let title = " keys (? or Esc closes) ".to_string();
    draw_scrolled(popup, title, lines, app.help_scroll, buf);
}
