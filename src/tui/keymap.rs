//! Keys to actions: a pure function of an input event and the mode the app is in.
//!
//! Every binding is listed once, in [`KEYS`], which the `?` overlay shows and
//! `docs/keys.md` repeats (a test keeps them in step).

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use super::action::Action;

/// What the keymap needs to know about the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Browsing.
    Normal,
    /// Browsing, with a count typed (`10` of `10j`): `0` is a digit of it.
    Count,
    /// Typing in a prompt.
    Prompt,
    /// The key list is shown: motion keys scroll it.
    Help,
    /// The statistics overlay is shown.
    Stats,
    /// A worker is running: Esc cancels it, q and Ctrl-C quit, other keys wait for it.
    Busy,
}

/// The key list: keys, and what they do. Shown by `?` and in `docs/keys.md`.
pub const KEYS: &[(&str, &str)] = &[
    ("← → / h l", "previous / next byte"),
    ("↑ ↓ / k j", "previous / next row"),
    (
        "1-9 0",
        "a count before a key repeats it: 10j ten rows down, 5w, 3] (Esc drops it)",
    ),
    ("w / b", "next unit / start of unit (previous unit)"),
    ("PgDn Space Ctrl-F / PgUp Ctrl-B", "next / previous page"),
    ("Ctrl-D / Ctrl-U", "half a page down / up"),
    ("g / G", "start / end of the input"),
    ("Home 0 / End $", "start / end of the row"),
    (
        "H / M / L",
        "top / middle / bottom row of the screen (3H: third row)",
    ),
    (
        ": or Ctrl-G",
        "go to offset: 1234, 0x4D2, 50%, +16, -0x10; #N: character N",
    ),
    (
        "] / [",
        "next / previous error (instant once the scan is done; Esc cancels a search)",
    ),
    (
        "} / {",
        "next / previous finding (a U+FFFD in the file, or a lint; 3}; wraps at the end)",
    ),
    (
        "/ / \\",
        "search forward / backward (Tab: text or hex bytes); wraps at the end",
    ),
    (
        "/~/text",
        "lookalike search: the text and its overlong and CESU-8 forms (/~/../ finds C0 AE C0 AE C0 AF); the status line says n N: lookalike search while n / N repeat it; /\\~/text searches ~/text as written",
    ),
    ("n / N", "repeat the search / in the other direction"),
    (
        "d / D",
        "next / previous dialect: utf8 cesu8 mutf8 wtf8 legacy (utf16le utf16be utf32le utf32be in UTF-16/32)",
    ),
    (
        "e",
        "read as another encoding: the likely one first (Tab: next choice; or type a label; Enter)",
    ),
    (
        "W",
        "write a repaired copy (Tab: policy, Ctrl-T --mojibake, Ctrl-R --bom strip; preview)",
    ),
    (
        "R",
        "reopen the file as it is on disk now (rewritten, truncated, grown or replaced)",
    ),
    ("o", "offsets in hex / decimal"),
    (
        "c",
        "grapheme clusters: a lane brackets each one of several code points, a pane lists it",
    ),
    (
        "s",
        "statistics: verdict, counts per class and error kind, BOM, scan speed, findings by kind",
    ),
    (
        "T",
        "choose the lints (Tab: next, Space: on / off, or type security,postgres,...; Enter)",
    ),
    (
        "mouse",
        "click selects a byte or jumps to a part of the map, wheel scrolls",
    ),
    (
        "?",
        "show / hide this list (j k PgDn PgUp g G scroll it, Esc closes)",
    ),
    (
        "Esc",
        "close a prompt or overlay, cancel a search, drop a count",
    ),
    ("q Ctrl-C", "quit (Ctrl-C in a prompt cancels it)"),
    (
        "Ctrl-Z",
        "suspend to the shell (fg resumes); a SIGTSTP from outside does the same",
    ),
    (
        "Ctrl-U / Ctrl-W",
        "in a prompt: clear what was typed / delete the word before the cursor (to a space or /)",
    ),
];

/// The action for an input event in a mode, if any.
pub fn action(event: &Event, mode: Mode) -> Option<Action> {
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => key_action(key, mode),
        Event::Mouse(mouse) if mode == Mode::Normal => mouse_action(mouse),
        // Elsewhere a paste does nothing: its text is no keys to act on.
        Event::Paste(text) if mode == Mode::Prompt => {
            let text = pasted(text);
            (!text.is_empty()).then_some(Action::Paste(text))
        }
        Event::Resize(width, height) => Some(Action::Resize {
            width: *width,
            height: *height,
        }),
        _ => None,
    }
}

/// What a paste types into a prompt: its text without control characters (C0 and C1,
/// DEL; ESC, tab and line ends among them), which a prompt holds no place for and which
/// must not act as keys.
///
/// ```
/// assert_eq!(hexrune::tui::keymap::pasted("a\x1b[2J\tb\r\n\u{9b}c"), "a[2Jbc");
/// ```
pub fn pasted(text: &str) -> String {
    text.chars().filter(|c| !c.is_control()).collect()
}

/// The events a terminal's event stands for: a key with Alt held as Esc and then the key
/// alone, the event itself otherwise. A terminal sends Alt+j as ESC then `j`, and an Esc
/// typed just before `j` arrives the same way when both are read at once (tmux's
/// `escape-time`, a slow link): the viewer binds no key with Alt, so the two are taken as
/// the Esc and the key they most likely were.
pub fn unglue(event: Event) -> Vec<Event> {
    match event {
        Event::Key(key)
            if key.modifiers.contains(KeyModifiers::ALT) && key.kind != KeyEventKind::Release =>
        {
            let esc = KeyEvent::new_with_kind(KeyCode::Esc, KeyModifiers::NONE, key.kind);
            let alone =
                KeyEvent::new_with_kind(key.code, key.modifiers - KeyModifiers::ALT, key.kind);
            vec![Event::Key(esc), Event::Key(alone)]
        }
        event => vec![event],
    }
}

/// The action for an input event while a stream is still being read, before the viewer
/// opens: [`Action::Quit`] for q and Ctrl-C, [`Action::Submit`] for Enter (show what is
/// read so far); nothing else does anything.
pub fn reading_action(event: &Event) -> Option<Action> {
    let Event::Key(key) = event else { return None };
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Char('c') if ctrl => Some(Action::Quit),
        KeyCode::Char('q') if !ctrl => Some(Action::Quit),
        KeyCode::Enter => Some(Action::Submit),
        _ => None,
    }
}

fn key_action(key: &KeyEvent, mode: Mode) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    if ctrl && key.code == KeyCode::Char('z') {
        return Some(Action::Suspend);
    }
    if ctrl && key.code == KeyCode::Char('c') {
        // As in a shell, Ctrl-C at a prompt drops what was typed.
        return Some(match mode {
            Mode::Prompt => Action::Cancel,
            _ => Action::Quit,
        });
    }
    match mode {
        Mode::Normal => normal_key(key.code, ctrl),
        Mode::Count => match key.code {
            KeyCode::Char('0') if !ctrl => Some(Action::Digit(0)),
            code => normal_key(code, ctrl),
        },
        Mode::Prompt => prompt_key(key.code, ctrl),
        Mode::Help => help_key(key.code, ctrl),
        // The help's scrolling keys scroll, q quits, any other key closes.
        Mode::Stats => match help_key(key.code, ctrl) {
            Some(Action::Help | Action::Cancel) | None => Some(Action::Stats),
            scroll_or_quit => scroll_or_quit,
        },
        // Esc cancels the search; other keys wait for it to end (App::update keeps them).
        Mode::Busy => match key.code {
            KeyCode::Esc => Some(Action::Cancel),
            code => normal_key(code, ctrl),
        },
    }
}

fn normal_key(code: KeyCode, ctrl: bool) -> Option<Action> {
    use Action::*;
    if ctrl {
        return match code {
            KeyCode::Char('f') => Some(PageDown),
            KeyCode::Char('b') => Some(PageUp),
            KeyCode::Char('d') => Some(HalfPageDown),
            KeyCode::Char('u') => Some(HalfPageUp),
            KeyCode::Char('g') => Some(OpenGoto),
            _ => None,
        };
    }
    Some(match code {
        KeyCode::Left | KeyCode::Char('h') => Left,
        KeyCode::Right | KeyCode::Char('l') => Right,
        KeyCode::Up | KeyCode::Char('k') => Up,
        KeyCode::Down | KeyCode::Char('j') => Down,
        KeyCode::Char('w') => NextUnit,
        KeyCode::Char('b') => PrevUnit,
        KeyCode::PageDown | KeyCode::Char(' ') => PageDown,
        KeyCode::PageUp => PageUp,
        KeyCode::Char('g') => Start,
        KeyCode::Char('G') => End,
        KeyCode::Home | KeyCode::Char('0') => RowStart,
        KeyCode::End | KeyCode::Char('$') => RowEnd,
        KeyCode::Char(':') => OpenGoto,
        KeyCode::Char(']') => NextError,
        KeyCode::Char('[') => PrevError,
        KeyCode::Char('}') => NextFinding,
        KeyCode::Char('{') => PrevFinding,
        KeyCode::Char('T') => OpenLints,
        KeyCode::Char('/') => OpenSearch { backward: false },
        KeyCode::Char('\\') => OpenSearch { backward: true },
        KeyCode::Char('n') => RepeatSearch { reverse: false },
        KeyCode::Char('N') => RepeatSearch { reverse: true },
        KeyCode::Char('d') => NextDialect,
        KeyCode::Char('D') => PrevDialect,
        KeyCode::Char('e') => OpenEncoding,
        KeyCode::Char('W') => OpenWrite,
        KeyCode::Char('R') => Reopen,
        KeyCode::Char('o') => ToggleDecimal,
        KeyCode::Char('c') => ToggleClusters,
        KeyCode::Char('s') => Stats,
        KeyCode::Char('H') => ScreenTop,
        KeyCode::Char('M') => ScreenMiddle,
        KeyCode::Char('L') => ScreenBottom,
        KeyCode::Char(c @ '1'..='9') => Digit(c as u8 - b'0'),
        KeyCode::Char('?') => Help,
        KeyCode::Char('q') => Quit,
        KeyCode::Esc => Cancel,
        _ => return None,
    })
}

/// Keys while the key list is shown: the motion keys scroll it.
fn help_key(code: KeyCode, ctrl: bool) -> Option<Action> {
    use Action::*;
    if ctrl {
        return match code {
            KeyCode::Char('f' | 'd') => Some(PageDown),
            KeyCode::Char('b' | 'u') => Some(PageUp),
            _ => None,
        };
    }
    Some(match code {
        KeyCode::Down | KeyCode::Char('j') => Down,
        KeyCode::Up | KeyCode::Char('k') => Up,
        KeyCode::PageDown | KeyCode::Char(' ') => PageDown,
        KeyCode::PageUp => PageUp,
        KeyCode::Home | KeyCode::Char('g') => Start,
        KeyCode::End | KeyCode::Char('G') => End,
        KeyCode::Esc => Cancel,
        KeyCode::Char('?') => Help,
        KeyCode::Char('q') => Quit,
        _ => return None,
    })
}

fn prompt_key(code: KeyCode, ctrl: bool) -> Option<Action> {
    if ctrl {
        // readline's Ctrl-U and Ctrl-W in every prompt; the write form's toggles (other
        // prompts ignore them).
        return match code {
            KeyCode::Char('u') => Some(Action::ClearInput),
            KeyCode::Char('w') => Some(Action::DeleteWord),
            KeyCode::Char('t') => Some(Action::ToggleMojibake),
            KeyCode::Char('r') => Some(Action::ToggleBomStrip),
            _ => None,
        };
    }
    Some(match code {
        KeyCode::Esc => Action::Cancel,
        KeyCode::Enter => Action::Submit,
        KeyCode::Backspace => Action::Backspace,
        KeyCode::Tab => Action::TogglePattern,
        KeyCode::Char(c) => Action::Input(c),
        _ => return None,
    })
}

fn mouse_action(mouse: &MouseEvent) -> Option<Action> {
    match mouse.kind {
        MouseEventKind::Down(MouseButton::Left) => Some(Action::Click {
            x: mouse.column,
            y: mouse.row,
        }),
        MouseEventKind::ScrollUp => Some(Action::ScrollUp),
        MouseEventKind::ScrollDown => Some(Action::ScrollDown),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, mods: KeyModifiers) -> Event {
        Event::Key(KeyEvent::new(code, mods))
    }

    #[test]
    fn alt_and_a_key_are_esc_then_the_key() {
        let alt = KeyModifiers::ALT;
        let none = KeyModifiers::NONE;
        let ctrl = KeyModifiers::CONTROL;
        assert_eq!(
            unglue(key(KeyCode::Char('j'), alt)),
            [key(KeyCode::Esc, none), key(KeyCode::Char('j'), none)]
        );
        assert_eq!(
            unglue(key(KeyCode::Char('d'), alt | ctrl)),
            [key(KeyCode::Esc, none), key(KeyCode::Char('d'), ctrl)]
        );
        assert_eq!(
            unglue(key(KeyCode::Char('j'), none)),
            [key(KeyCode::Char('j'), none)]
        );
        assert_eq!(unglue(Event::Resize(80, 24)), [Event::Resize(80, 24)]);
    }

    #[test]
    fn while_a_stream_is_read_only_quit_and_enter_count() {
        let none = KeyModifiers::NONE;
        let ctrl = KeyModifiers::CONTROL;
        let cases = [
            (key(KeyCode::Char('q'), none), Some(Action::Quit)),
            (key(KeyCode::Char('c'), ctrl), Some(Action::Quit)),
            (key(KeyCode::Enter, none), Some(Action::Submit)),
            (key(KeyCode::Char('c'), none), None),
            (key(KeyCode::Char('q'), ctrl), None),
            (key(KeyCode::Esc, none), None),
            (key(KeyCode::Char('j'), none), None),
        ];
        for (event, expected) in cases {
            assert_eq!(reading_action(&event), expected, "{event:?}");
        }
    }

    #[test]
    fn less_and_vim_habits() {
        let none = KeyModifiers::NONE;
        let ctrl = KeyModifiers::CONTROL;
        let cases = [
            (
                key(KeyCode::Char('j'), none),
                Mode::Normal,
                Some(Action::Down),
            ),
            (
                key(KeyCode::Char('G'), none),
                Mode::Normal,
                Some(Action::End),
            ),
            (
                key(KeyCode::Char('f'), ctrl),
                Mode::Normal,
                Some(Action::PageDown),
            ),
            (
                key(KeyCode::Char('g'), ctrl),
                Mode::Normal,
                Some(Action::OpenGoto),
            ),
            (
                key(KeyCode::Char('c'), ctrl),
                Mode::Prompt,
                Some(Action::Cancel),
            ),
            (
                key(KeyCode::Char('c'), ctrl),
                Mode::Normal,
                Some(Action::Quit),
            ),
            (key(KeyCode::Esc, none), Mode::Normal, Some(Action::Cancel)),
            (
                key(KeyCode::Char('0'), none),
                Mode::Normal,
                Some(Action::RowStart),
            ),
            (
                key(KeyCode::Char('0'), none),
                Mode::Count,
                Some(Action::Digit(0)),
            ),
            (
                key(KeyCode::Char('7'), none),
                Mode::Normal,
                Some(Action::Digit(7)),
            ),
            (
                key(KeyCode::Char('j'), none),
                Mode::Count,
                Some(Action::Down),
            ),
            (
                key(KeyCode::Char('M'), none),
                Mode::Normal,
                Some(Action::ScreenMiddle),
            ),
            (
                key(KeyCode::Char('q'), none),
                Mode::Prompt,
                Some(Action::Input('q')),
            ),
            (key(KeyCode::Esc, none), Mode::Busy, Some(Action::Cancel)),
            (
                key(KeyCode::Char('j'), none),
                Mode::Busy,
                Some(Action::Down),
            ),
            (key(KeyCode::Char('x'), none), Mode::Help, None),
            (
                key(KeyCode::Char('j'), none),
                Mode::Help,
                Some(Action::Down),
            ),
            (
                key(KeyCode::PageDown, none),
                Mode::Help,
                Some(Action::PageDown),
            ),
            (key(KeyCode::Char('G'), none), Mode::Help, Some(Action::End)),
            (key(KeyCode::Esc, none), Mode::Help, Some(Action::Cancel)),
            (
                key(KeyCode::Char('?'), none),
                Mode::Help,
                Some(Action::Help),
            ),
            (
                key(KeyCode::Char('s'), none),
                Mode::Normal,
                Some(Action::Stats),
            ),
            (key(KeyCode::Esc, none), Mode::Stats, Some(Action::Stats)),
            (
                key(KeyCode::Char('s'), none),
                Mode::Stats,
                Some(Action::Stats),
            ),
            (
                key(KeyCode::Char('x'), none),
                Mode::Stats,
                Some(Action::Stats),
            ),
            (
                key(KeyCode::Char('?'), none),
                Mode::Stats,
                Some(Action::Stats),
            ),
            (
                key(KeyCode::Char('j'), none),
                Mode::Stats,
                Some(Action::Down),
            ),
            (key(KeyCode::Up, none), Mode::Stats, Some(Action::Up)),
            (
                key(KeyCode::Char(' '), none),
                Mode::Stats,
                Some(Action::PageDown),
            ),
            (
                key(KeyCode::Char('b'), ctrl),
                Mode::Stats,
                Some(Action::PageUp),
            ),
            (
                key(KeyCode::Char('g'), none),
                Mode::Stats,
                Some(Action::Start),
            ),
            (key(KeyCode::End, none), Mode::Stats, Some(Action::End)),
            (
                key(KeyCode::Char('z'), ctrl),
                Mode::Stats,
                Some(Action::Suspend),
            ),
            (
                key(KeyCode::Char('z'), ctrl),
                Mode::Normal,
                Some(Action::Suspend),
            ),
            (
                key(KeyCode::Char('z'), ctrl),
                Mode::Prompt,
                Some(Action::Suspend),
            ),
            (
                key(KeyCode::Char('q'), none),
                Mode::Stats,
                Some(Action::Quit),
            ),
            (
                key(KeyCode::Char('}'), none),
                Mode::Normal,
                Some(Action::NextFinding),
            ),
            (
                key(KeyCode::Char('{'), none),
                Mode::Normal,
                Some(Action::PrevFinding),
            ),
            (
                key(KeyCode::Char('}'), none),
                Mode::Count,
                Some(Action::NextFinding),
            ),
            (
                key(KeyCode::Char('T'), none),
                Mode::Normal,
                Some(Action::OpenLints),
            ),
            (
                key(KeyCode::Char(' '), none),
                Mode::Prompt,
                Some(Action::Input(' ')),
            ),
            (
                key(KeyCode::Char('~'), none),
                Mode::Prompt,
                Some(Action::Input('~')),
            ),
            (
                key(KeyCode::Char('{'), none),
                Mode::Busy,
                Some(Action::PrevFinding),
            ),
        ];
        for (event, mode, expected) in cases {
            assert_eq!(action(&event, mode), expected, "{event:?} in {mode:?}");
        }
    }

    #[test]
    fn docs_list_every_key() {
        let doc =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/keys.md")).unwrap();
        for (keys, what) in KEYS {
            let line = format!("| `{keys}` | {what} |");
            assert!(doc.contains(&line), "docs/keys.md lacks: {line}");
        }
    }
}
