//! The viewer's `W`: the form drawn with its preview (exact screen text), the copy written
//! through `repair::write` (exact bytes), the refusals (the input itself; an existing file
//! asked about first), and the file on screen left as it was.

use std::time::Duration;

use hexrune::decode::Dialect;
use hexrune::scan::index::{Progress, Summary};
use hexrune::source::Source;
use hexrune::tui::app::{App, PromptKind};
use hexrune::tui::keymap::Mode;
use hexrune::tui::{draw, Action};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::Terminal;

const INPUT: &[u8] = b"Caf\xE9 au lait\nIl a dit : L\xC3\xA2\xE2\x82\xAC\xE2\x84\xA2\xC3\x83\xC2\xA9t\xC3\x83\xC2\xA9 \xC3\x83\xC2\xA9tait chaud.\n";

fn app_on_file(dir: &std::path::Path, width: u16, height: u16) -> App {
    let path = dir.join("notes.txt");
    std::fs::write(&path, INPUT).unwrap();
    let source = Source::open(&path).unwrap();
    let mut summary = Summary::build(Dialect::Utf8, INPUT, 1, &Progress::new()).unwrap();
    summary.elapsed = Duration::from_millis(2);
    let mut app = App::with_summary(source, summary, Rect::new(0, 0, width, height), false);
    app.input_path = Some(path);
    app
}

fn screen(app: &App) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(app.size.width, app.size.height)).unwrap();
    terminal.draw(|f| draw::draw(f, app)).unwrap();
    let buffer = terminal.backend().buffer();
    let mut out = Vec::new();
    for y in 0..buffer.area.height {
        let mut line = String::new();
        let mut x = 0;
        while x < buffer.area.width {
            let symbol = buffer[(x, y)].symbol();
            line.push_str(symbol);
            x += unicode_width::UnicodeWidthStr::width(symbol).max(1) as u16;
        }
        out.push(line.trim_end().to_string());
    }
    out
}

fn finish_job(app: &mut App) {
    while app.job.is_some() {
        let event = app.wait_job_event().expect("worker reports");
        app.update(Action::Job(event));
    }
}

/// Empties the open prompt, a character at a time, as Backspace does.
fn clear_prompt(app: &mut App) {
    let len = app.prompt.as_ref().unwrap().input.chars().count();
    for _ in 0..len {
        app.update(Action::Backspace);
    }
}

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        app.update(Action::Input(c));
    }
}

#[test]
fn the_form_previews_the_unit_under_the_cursor() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_on_file(dir.path(), 80, 24);
    for _ in 0..3 {
        app.update(Action::Right);
    }
    app.update(Action::OpenWrite);
    let s = screen(&app);
    let form: Vec<&str> = s[16..23].iter().map(String::as_str).collect();
    let expected_path = format!(
        "write a repaired copy to: {}",
        dir.path().join("notes.repaired.txt").display()
    );
    assert_eq!(s[23], expected_path);
    assert!(
        form[0].starts_with("┌ write a repaired copy (W) ─────"),
        "{}",
        form[0]
    );
    assert!(
        form[1].starts_with(
            "│ policy replace       Tab: next  Ctrl-T --mojibake off  Ctrl-R --bom keep   │"
        ),
        "{}",
        form[1]
    );
    assert!(
        form[2].starts_with("│ at     0x3  error: truncated"),
        "{}",
        form[2]
    );
    assert!(
        form[3].starts_with("│ before E9                       �"),
        "{}",
        form[3]
    );
    assert!(
        form[4].starts_with("│ after  EF BF BD                 � (U+FFFD) "),
        "{}",
        form[4]
    );
    assert!(
        form[5].starts_with("│ Enter writes, Esc cancels; the file shown stays as it is"),
        "{}",
        form[5]
    );
    // Tab: the next policies, each previewed.
    app.update(Action::TogglePattern);
    assert!(
        screen(&app)[20].starts_with("│ after  (nothing)"),
        "{}",
        screen(&app)[20]
    );
    app.update(Action::TogglePattern);
    assert!(
        screen(&app)[20].starts_with("│ after  C3 A9                    é"),
        "{}",
        screen(&app)[20]
    );
    app.update(Action::TogglePattern);
    assert!(
        screen(&app)[20].starts_with("│ after  EE BF A9                 ᵖ (U+EFE9) "),
        "{}",
        screen(&app)[20]
    );
    app.update(Action::TogglePattern);
    assert!(
        screen(&app)[20].starts_with("│ after  ED B3 A9                 ˢ (U+DCE9) "),
        "{}",
        screen(&app)[20]
    );
    // On the mojibake, with --mojibake: the region before → after.
    app.update(Action::Cancel);
    assert!(app.prompt.is_none() && app.write.is_none());
    app.cursor = 30;
    app.update(Action::OpenWrite);
    app.update(Action::ToggleMojibake);
    let s = screen(&app);
    assert!(s[17].contains("Ctrl-T --mojibake on "), "{}", s[17]);
    assert!(s[18].starts_with("│ at     0x19  mojibake"), "{}", s[18]);
    assert!(
        s[19].starts_with("│ before C3 A2 E2 82 AC E2 84 A2 C3 83 C2 A9 … (22 bytes) â€™Ã©tÃ© Ã©"),
        "{}",
        s[19]
    );
    assert!(
        s[20].starts_with("│ after  E2 80 99 C3 A9 74 C3 A9 20 C3 A9 ’été é"),
        "{}",
        s[20]
    );
}

/// On a screen wider than the form, the rows it stands in are cleared across the screen
/// (the detail pane's rule and last line showed beside it), and every line keeps a column
/// of padding inside the border, with `--bom strip` too.
#[test]
fn the_form_clears_its_rows_and_keeps_its_padding() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_on_file(dir.path(), 120, 30);
    app.update(Action::Right);
    app.update(Action::Right);
    app.update(Action::Right);
    app.update(Action::OpenWrite);
    app.update(Action::ToggleBomStrip);
    let s = screen(&app);
    let rule = "─".repeat(76);
    assert_eq!(
        s[22..30],
        [
            format!(
                "┌ write a repaired copy (W) {}┐",
                &rule[..rule.len() - 27 * 3]
            ),
            "│ policy replace       Tab: next  Ctrl-T --mojibake off  Ctrl-R --bom strip  │".into(),
            "│ at     0x3  error: truncated                                               │".into(),
            "│ before E9                       �                                          │".into(),
            "│ after  EF BF BD                 � (U+FFFD)                                 │".into(),
            "│ Enter writes, Esc cancels; the file shown stays as it is                   │".into(),
            format!("└{rule}┘"),
            format!(
                "write a repaired copy to: {}",
                dir.path().join("notes.repaired.txt").display()
            ),
        ][..]
    );
}

#[test]
fn writes_the_copy_and_never_the_file_shown() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_on_file(dir.path(), 120, 40);
    app.update(Action::OpenWrite);
    app.update(Action::ToggleMojibake);
    app.update(Action::Submit);
    finish_job(&mut app);
    let out = dir.path().join("notes.repaired.txt");
    assert_eq!(
        std::fs::read(&out).unwrap(),
        "Caf\u{FFFD} au lait\nIl a dit : L’été était chaud.\n".as_bytes()
    );
    let name = out.display().to_string();
    assert_eq!(
        app.message.as_ref().map(|m| m.text.clone()),
        Some(format!(
            "wrote {name}: 2 units changed (replace, --mojibake), 50 bytes"
        ))
    );
    assert!(screen(&app)[39].contains(&format!("wrote {name}: 2 units changed")));
    assert_eq!(std::fs::read(dir.path().join("notes.txt")).unwrap(), INPUT);
    assert_eq!(app.source.bytes(), INPUT);
    // Again: the file exists, Enter asks, Esc goes back, Enter and Enter replace it.
    app.update(Action::OpenWrite);
    app.update(Action::Submit);
    assert_eq!(app.prompt.as_ref().map(|p| p.kind), Some(PromptKind::Write));
    assert!(screen(&app)[39].starts_with("exists; Enter replaces it, Esc goes back: "));
    app.update(Action::Cancel);
    assert!(screen(&app)[39].starts_with("write a repaired copy to: "));
    app.update(Action::TogglePattern); // drop
    app.update(Action::Submit);
    app.update(Action::Submit);
    finish_job(&mut app);
    assert_eq!(
        std::fs::read(&out).unwrap(),
        "Caf au lait\nIl a dit : Lâ€™Ã©tÃ© Ã©tait chaud.\n".as_bytes()
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".hexrune"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn the_input_itself_is_refused_in_the_form() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_on_file(dir.path(), 120, 40);
    app.update(Action::OpenWrite);
    clear_prompt(&mut app);
    typed(
        &mut app,
        &dir.path().join(".").join("notes.txt").display().to_string(),
    );
    app.update(Action::Submit);
    assert!(app.job.is_none());
    let s = screen(&app);
    let said: String = s[36..38]
        .iter()
        .map(|l| l.trim_start_matches('│').trim_end_matches('│').trim())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        said.ends_with(
            "notes.txt: is the input; repair never writes its input (choose another path)"
        ),
        "{said}"
    );
    assert_eq!(std::fs::read(dir.path().join("notes.txt")).unwrap(), INPUT);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn a_write_that_fails_gives_the_form_back_with_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_on_file(dir.path(), 120, 40);
    app.update(Action::OpenWrite);
    clear_prompt(&mut app);
    // A directory that is not there: found only when the write begins, on the worker.
    let path = dir.path().join("no-such-dir").join("notes.fixed.txt");
    let name = path.display().to_string();
    typed(&mut app, &name);
    app.update(Action::ToggleMojibake);
    app.update(Action::Submit);
    assert!(app.job.is_some());
    finish_job(&mut app);
    let message = app.message.clone().unwrap();
    assert!(message.is_error);
    assert_eq!(
        message.text,
        format!("write: {name}: no such file or directory")
    );
    assert_eq!(
        message.elide,
        Some(7..7 + name.len()),
        "the path gives way first"
    );
    let prompt = app.prompt.clone().expect("the form again");
    assert_eq!(prompt.kind, PromptKind::Write);
    assert_eq!(prompt.input, name);
    assert!(app.write.is_some_and(|f| f.mojibake && !f.confirm));
    // Mended, the same form writes.
    for _ in 0.."no-such-dir/notes.fixed.txt".len() {
        app.update(Action::Backspace);
    }
    typed(&mut app, "notes.fixed.txt");
    app.update(Action::Submit);
    finish_job(&mut app);
    assert!(app.write.is_none());
    assert_eq!(
        std::fs::read(dir.path().join("notes.fixed.txt")).unwrap(),
        "Caf\u{FFFD} au lait\nIl a dit : L’été était chaud.\n".as_bytes()
    );
}

#[test]
fn on_a_small_terminal_a_failed_write_keeps_its_cause_in_view() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_on_file(dir.path(), 43, 12);
    app.update(Action::OpenWrite);
    clear_prompt(&mut app);
    let path = dir
        .path()
        .join("a-directory-that-is-not-there-with-a-long-name")
        .join("subdir")
        .join("output-file.txt");
    typed(&mut app, &path.display().to_string());
    app.update(Action::Submit);
    finish_job(&mut app);
    let s = screen(&app);
    let form: Vec<&str> = s
        .iter()
        .filter(|l| l.starts_with('│'))
        .map(|l| l.trim_start_matches('│').trim_end_matches('│').trim())
        .collect();
    let said = form[form.iter().position(|l| l.starts_with("write:")).unwrap()..].join(" ");
    assert!(said.ends_with("…: no such file or directory"), "{s:#?}");
}

/// Sends one key as the event loop does ([`hexrune::tui::feed`]: through the keymap, in
/// the mode the app is in, or held while a worker runs).
fn key(app: &mut App, code: KeyCode, modifiers: KeyModifiers) {
    hexrune::tui::feed(app, Event::Key(KeyEvent::new(code, modifiers)));
}

fn ctrl(app: &mut App, c: char) {
    key(app, KeyCode::Char(c), KeyModifiers::CONTROL);
}

fn keys(app: &mut App, text: &str) {
    for c in text.chars() {
        key(app, KeyCode::Char(c), KeyModifiers::NONE);
    }
}

/// The status line: the prompt and what is typed (the cursor is a reversed space).
fn prompt_line(app: &App) -> String {
    screen(app)[app.size.height as usize - 1].clone()
}

#[test]
fn ctrl_u_clears_and_ctrl_w_deletes_a_word_in_every_prompt() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_on_file(dir.path(), 120, 40);
    let base = dir.path().display().to_string();

    // W: the default path; Ctrl-W takes the name back to the last /, then the directory.
    key(&mut app, KeyCode::Char('W'), KeyModifiers::NONE);
    ctrl(&mut app, 'w');
    assert_eq!(
        prompt_line(&app),
        format!("write a repaired copy to: {base}/")
    );
    ctrl(&mut app, 'w');
    let parent = base.rsplit_once('/').unwrap().0;
    assert_eq!(
        prompt_line(&app),
        format!("write a repaired copy to: {parent}/")
    );
    ctrl(&mut app, 'u');
    assert_eq!(prompt_line(&app), "write a repaired copy to:");
    keys(&mut app, "out.txt");
    assert_eq!(prompt_line(&app), "write a repaired copy to: out.txt");
    // Ctrl-U and Ctrl-W are editing keys here, not the viewer's half page or the form's.
    assert_eq!(app.mode(), Mode::Prompt);
    key(&mut app, KeyCode::Esc, KeyModifiers::NONE);

    // / search: words end at spaces; spaces before the word go with it.
    key(&mut app, KeyCode::Char('/'), KeyModifiers::NONE);
    keys(&mut app, "il a dit  ");
    ctrl(&mut app, 'w');
    assert_eq!(prompt_line(&app), "/text (Tab: hex): il a");
    ctrl(&mut app, 'w');
    assert_eq!(prompt_line(&app), "/text (Tab: hex): il");
    ctrl(&mut app, 'u');
    assert_eq!(prompt_line(&app), "/text (Tab: hex):");
    ctrl(&mut app, 'w'); // nothing left: nothing happens
    assert_eq!(prompt_line(&app), "/text (Tab: hex):");
    keys(&mut app, "lait");
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    finish_job(&mut app);
    assert_eq!(app.mode(), Mode::Normal);
    assert_eq!(app.cursor, 8, "found at \"lait\"");

    // : go to: Ctrl-U, then a new offset is typed and taken.
    key(&mut app, KeyCode::Char(':'), KeyModifiers::NONE);
    keys(&mut app, "0x4D2");
    ctrl(&mut app, 'u');
    assert_eq!(prompt_line(&app), "go to offset (#N: character N):");
    keys(&mut app, "5");
    assert_eq!(prompt_line(&app), "go to offset (#N: character N): 5");
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(app.cursor, 5);

    // e: a label typed, cleared: the first choice is offered again.
    key(&mut app, KeyCode::Char('e'), KeyModifiers::NONE);
    let offered = prompt_line(&app);
    keys(&mut app, "latin1");
    ctrl(&mut app, 'w');
    assert_eq!(prompt_line(&app), offered);
}

#[test]
fn a_name_that_is_not_utf8_is_written_next_to_the_input_in_its_own_bytes() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join(OsStr::from_bytes(b"d\xE9j\xE0"));
    std::fs::create_dir(&dir).unwrap();
    let path = dir.join(OsStr::from_bytes(b"ev\xFF.txt"));
    std::fs::write(&path, INPUT).unwrap();
    let source = Source::open(&path).unwrap();
    let summary = Summary::build(Dialect::Utf8, INPUT, 1, &Progress::new()).unwrap();
    let mut app = App::with_summary(source, summary, Rect::new(0, 0, 120, 40), false);
    app.input_path = Some(path.clone());
    let base = root.path().display().to_string();

    // The prompt shows the name as the status line shows the input's (`\xff` for a byte
    // that is not UTF-8), the path written is the input's own bytes.
    assert!(
        prompt_line(&app).starts_with(&format!(" {base}/d\\xe9j\\xe0/ev\\xff.txt  ")),
        "{}",
        prompt_line(&app)
    );
    key(&mut app, KeyCode::Char('W'), KeyModifiers::NONE);
    assert_eq!(
        prompt_line(&app),
        format!("write a repaired copy to: {base}/d\\xe9j\\xe0/ev\\xff.repaired.txt")
    );
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    finish_job(&mut app);
    let mut names: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().as_bytes().to_vec())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [b"ev\xFF.repaired.txt".to_vec(), b"ev\xFF.txt".to_vec()]
    );
    let out = dir.join(OsStr::from_bytes(b"ev\xFF.repaired.txt"));
    assert_eq!(
        std::fs::read(&out).unwrap(),
        "Caf\u{FFFD} au lait\nIl a dit : L\u{e2}\u{20ac}\u{2122}\u{c3}\u{a9}t\u{c3}\u{a9} \u{c3}\u{a9}tait chaud.\n".as_bytes()
    );
    // The message names it as the prompt did.
    let said = app.message.as_ref().map(|m| m.text.clone()).unwrap();
    assert!(
        said.starts_with(&format!("wrote {base}/d\\xe9j\\xe0/ev\\xff.repaired.txt: ")),
        "{said}"
    );

    // Edited: Backspace takes a `\xe0` (one byte) as one step; Ctrl-W keeps the
    // directory's bytes.
    key(&mut app, KeyCode::Char('W'), KeyModifiers::NONE);
    ctrl(&mut app, 'w');
    assert_eq!(
        prompt_line(&app),
        format!("write a repaired copy to: {base}/d\\xe9j\\xe0/")
    );
    key(&mut app, KeyCode::Backspace, KeyModifiers::NONE);
    key(&mut app, KeyCode::Backspace, KeyModifiers::NONE);
    assert_eq!(
        prompt_line(&app),
        format!("write a repaired copy to: {base}/d\\xe9j")
    );
    keys(&mut app, "\u{e0}/x.txt"); // typed: à is C3 A0, not the E0 of the name
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    finish_job(&mut app);
    let typed = root.path().join(OsStr::from_bytes(b"d\xE9j\xC3\xA0"));
    assert!(!typed.exists(), "no such directory: the write is refused");
    key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    key(&mut app, KeyCode::Char('W'), KeyModifiers::NONE);
    ctrl(&mut app, 'w');
    keys(&mut app, "x.txt");
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    finish_job(&mut app);
    assert!(dir.join("x.txt").exists(), "{:?}", app.message);
}

/// The preview reads the input as the write does: a UTF-8 BOM overrides the view's
/// windows-1252 (as `repair --from windows-1252` reads it), so the preview shows the
/// U+FFFD the copy gets, and says why, where it showed `é`.
#[test]
fn the_preview_reads_the_input_as_the_write_does() {
    use hexrune::tui::write::{preview, WriteForm};
    let bytes = b"\xEF\xBB\xBFCaf\xE9 cr\xE8me\n";
    let cp1252 = hexrune::encoding::resolve("windows-1252").unwrap();
    let form = WriteForm::default();
    let p = preview(bytes, cp1252, 6, &form, None).unwrap();
    assert_eq!(
        (p.offset, p.what.as_str()),
        (6, "error: truncated  (read as UTF-8: its BOM)")
    );
    assert_eq!(
        (p.before.hex.as_str(), p.after.hex.as_str()),
        ("E9", "EF BF BD")
    );
    // Without a BOM, the view's encoding is the write's.
    let p = preview(&bytes[3..], cp1252, 3, &form, None).unwrap();
    assert_eq!((p.what.as_str(), p.after.hex.as_str()), ("U+00E9", "C3 A9"));
    // And what the write makes of the whole input is that U+FFFD.
    let policy = form.policy(cp1252);
    let mut out = hexrune::repair::Collected::default();
    let mut engine = hexrune::repair::Engine::for_slice(policy, bytes).unwrap();
    engine.repair_slice(bytes, &mut out, |_| Ok(())).unwrap();
    assert_eq!(out.bytes, "\u{FEFF}Caf\u{FFFD} cr\u{FFFD}me\n".as_bytes());
}

/// `R` typed while a write runs waits for it, as every key does; what it says then follows
/// what the write did, which stays in view: the file was written.
#[test]
fn r_typed_during_a_write_keeps_what_the_write_said() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_on_file(dir.path(), 200, 40);
    key(&mut app, KeyCode::Char('W'), KeyModifiers::NONE);
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(app.mode(), Mode::Busy);
    keys(&mut app, "R");
    finish_job(&mut app);
    let out = dir.path().join("notes.repaired.txt");
    assert!(out.exists());
    let input = dir.path().join("notes.txt");
    let (out, input) = (out.display(), input.display());
    let said = format!(
        "wrote {out}: 1 unit changed (replace), 61 bytes; reopened {input}: 59 B (was 59 B)"
    );
    let message = app.message.clone().unwrap();
    assert_eq!(
        (message.text.as_str(), message.is_error),
        (said.as_str(), false)
    );
    // Reopened, the input is scanned again.
    let left = format!(" {input}  59 B  0x0 (0)  1%  utf8");
    let right = format!("{said}  scanning\u{2026} ");
    let gap = " ".repeat(200 - left.chars().count() - right.chars().count());
    assert_eq!(screen(&app)[39], format!("{left}{gap}{right}").trim_end());
    // Where the line is too narrow, what R said gives way first.
    let mut app = app_on_file(dir.path(), 120, 40);
    key(&mut app, KeyCode::Char('W'), KeyModifiers::NONE);
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE); // it exists: replaced
    keys(&mut app, "R");
    finish_job(&mut app);
    let kept: String = said.chars().take(116).collect();
    assert!(kept.starts_with(&format!(
        "wrote {out}: 1 unit changed (replace), 61 bytes; "
    )));
    assert_eq!(screen(&app)[39], format!("  {kept}\u{2026}"));
}

/// Keys typed during a write wait for it as typed, each read in the mode the one before
/// left: `/quote` opens the search prompt with `quote` in it (the `q` quit the viewer,
/// leaving the copy's temporary file; `/cafe` ran `c`, `a`, `f`, `e` as commands); and an
/// Enter after them searches. Ctrl-C still quits at once.
#[test]
fn text_typed_after_a_slash_during_a_write_goes_to_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_on_file(dir.path(), 120, 40);
    key(&mut app, KeyCode::Char('W'), KeyModifiers::NONE);
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(app.mode(), Mode::Busy);
    keys(&mut app, "/quote");
    assert!(!app.quit);
    assert_eq!(app.mode(), Mode::Busy, "held, not acted on");
    finish_job(&mut app);
    assert!(!app.quit);
    assert_eq!(app.mode(), Mode::Prompt);
    assert_eq!(app.prompt.as_ref().unwrap().input, "quote");
    assert_eq!(prompt_line(&app), "/text (Tab: hex): quote");
    // Typed ahead with its Enter: the search runs once the write is done.
    let mut app = app_on_file(dir.path(), 120, 40);
    key(&mut app, KeyCode::Char('W'), KeyModifiers::NONE);
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE); // it exists: replaced
    keys(&mut app, "/zzz");
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    finish_job(&mut app);
    finish_job(&mut app);
    let said = &app.message.as_ref().unwrap().text;
    assert!(
        said.starts_with("wrote ") && said.ends_with("; search \"zzz\": none found"),
        "{said}"
    );
    // Ctrl-C during a write quits, whatever was typed before it.
    let mut app = app_on_file(dir.path(), 120, 40);
    key(&mut app, KeyCode::Char('W'), KeyModifiers::NONE);
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    keys(&mut app, "/ab");
    ctrl(&mut app, 'c');
    assert!(app.quit);
}

/// A write that fails gives its form back with the cause; keys typed during it were typed
/// for the view and are dropped: `R` neither reopens the file under the form nor puts its
/// word in place of the cause.
#[test]
fn r_typed_during_a_write_that_fails_leaves_the_cause_in_the_form() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_on_file(dir.path(), 120, 40);
    let shown = std::sync::Arc::clone(&app.source);
    app.update(Action::OpenWrite);
    clear_prompt(&mut app);
    let name = dir
        .path()
        .join("no-such-dir")
        .join("x.txt")
        .display()
        .to_string();
    typed(&mut app, &name);
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    keys(&mut app, "Rj");
    finish_job(&mut app);
    let message = app.message.clone().unwrap();
    assert_eq!(
        (message.text.as_str(), message.is_error),
        (
            format!("write: {name}: no such file or directory").as_str(),
            true
        )
    );
    assert_eq!(app.prompt.as_ref().map(|p| p.kind), Some(PromptKind::Write));
    assert!(std::sync::Arc::ptr_eq(&shown, &app.source), "not reopened");
    assert_eq!(app.cursor, 0, "j did not move the cursor under the form");
}

/// A search typed during a write runs once the write is done; what it found is said after
/// what the write did.
#[test]
fn a_search_typed_during_a_write_is_said_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_on_file(dir.path(), 200, 40);
    keys(&mut app, "/a");
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    finish_job(&mut app);
    assert_eq!(app.cursor, 1);
    key(&mut app, KeyCode::Char('W'), KeyModifiers::NONE);
    key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    keys(&mut app, "n");
    // The write ends, the search it held back runs and ends.
    finish_job(&mut app);
    let out = dir.path().join("notes.repaired.txt");
    assert_eq!(app.cursor, 5);
    assert_eq!(
        app.message.as_ref().map(|m| m.text.clone()),
        Some(format!(
            "wrote {}: 1 unit changed (replace), 61 bytes; search \"a\": found at 0x5",
            out.display()
        ))
    );
}

/// Esc pressed just as a write finishes is too late to cancel it, and the file is written:
/// the status line says so, whether the Esc reaches the viewer before the write's last
/// report (it then asks the worker to stop, which has passed its last check) or after it
/// (nothing is left to cancel, and the Esc leaves the message).
#[test]
fn esc_just_as_a_write_finishes_leaves_what_it_wrote_in_view() {
    use hexrune::tui::action::JobEvent;
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_on_file(dir.path(), 200, 40);
    let out = dir.path().join("notes.repaired.txt");
    let input = dir.path().join("notes.txt");
    let said = format!(
        "wrote {}: 1 unit changed (replace), 61 bytes",
        out.display()
    );
    let left = format!(
        " {}  59 B  0x0 (0)  1%  utf8  char 1 of 48",
        input.display()
    );
    let row = format!(
        "{left}{}{said}",
        " ".repeat(200 - 1 - left.len() - said.len())
    );
    for esc_before_report in [true, false] {
        let _ = std::fs::remove_file(&out);
        key(&mut app, KeyCode::Char('W'), KeyModifiers::NONE);
        key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
        // The worker is done: the copy has its path, its last report not yet taken in.
        let last = loop {
            match app.wait_job_event().expect("worker reports") {
                JobEvent::Progress(_) => continue,
                event => break event,
            }
        };
        assert!(out.exists());
        if esc_before_report {
            assert_eq!(app.mode(), Mode::Busy);
            key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
        }
        app.update(Action::Job(last));
        assert_eq!(app.mode(), Mode::Normal);
        key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
        let message = app.message.clone().unwrap();
        assert_eq!(
            (message.text.as_str(), message.is_error),
            (said.as_str(), false),
            "Esc before the report: {esc_before_report}"
        );
        assert_eq!(screen(&app)[39], row);
    }
}

/// A paste into the path field is typed, its control characters dropped (an ESC in it
/// closed the form, and what followed acted as keys).
#[test]
fn a_paste_into_the_path_is_typed_without_its_controls() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_on_file(dir.path(), 80, 24);
    app.update(Action::OpenWrite);
    app.update(Action::ClearInput);
    hexrune::tui::feed(&mut app, Event::Paste("out\x1b[201~\n.txt\u{85}".into()));
    assert_eq!(app.mode(), Mode::Prompt);
    let prompt = app.prompt.as_ref().expect("the form is open");
    assert_eq!(prompt.kind, PromptKind::Write);
    assert_eq!(prompt.input, "out[201~.txt");
    assert_eq!(prompt.path.as_deref(), Some(&b"out[201~.txt"[..]));
}

/// The policy `fallback` reads error units in the viewer's `--fallback` (a single-byte
/// encoding), as the detail pane does, and the form names it; with no such fallback, or
/// a multi-byte one, it reads them in windows-1252.
#[test]
fn the_fallback_policy_reads_in_the_viewers_fallback() {
    use hexrune::view::fallback::Fallback;
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_on_file(dir.path(), 80, 24);
    app.fallback = Fallback::from_label("koi8-r").unwrap();
    for _ in 0..3 {
        app.update(Action::Right);
    }
    app.update(Action::OpenWrite);
    app.update(Action::TogglePattern);
    app.update(Action::TogglePattern);
    let s = screen(&app);
    assert!(
        s[17].starts_with("│ policy fallback=KOI8-R Tab: next  Ctrl-T --mojibake off"),
        "{}",
        s[17]
    );
    assert!(
        s[20].starts_with("│ after  D0 98                    И"),
        "{}",
        s[20]
    );
    app.update(Action::Submit);
    finish_job(&mut app);
    let out = dir.path().join("notes.repaired.txt");
    assert!(std::fs::read(&out)
        .unwrap()
        .starts_with("CafИ au lait\n".as_bytes()));
    assert!(app
        .message
        .as_ref()
        .is_some_and(|m| m.text.contains("(fallback=KOI8-R)")));
    for fallback in [None, Fallback::from_label("shift_jis").unwrap()] {
        let mut app = app_on_file(dir.path(), 80, 24);
        app.fallback = fallback;
        for _ in 0..3 {
            app.update(Action::Right);
        }
        app.update(Action::OpenWrite);
        app.update(Action::TogglePattern);
        app.update(Action::TogglePattern);
        // Wider than `KOI8-R`: the toggles go on the form's next line.
        let s = screen(&app);
        assert!(
            s.iter()
                .any(|l| l.starts_with("│ policy fallback=windows-1252 Tab: next")),
            "{s:#?}"
        );
        assert!(s.iter().any(|l| l.starts_with("│ after  C3 A9 ")), "{s:#?}");
    }
}
