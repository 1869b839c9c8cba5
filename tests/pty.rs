//! End to end: the real binary in a pseudo-terminal. Types keys, reads what it draws, and
//! checks that quitting (and SIGTERM) gives the terminal back.

use std::io::{Read, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use portable_pty::{native_pty_system, CommandBuilder, PtySize};

mod common;

struct Session {
    child: Box<dyn portable_pty::Child + Send + Sync>,
    writer: Box<dyn Write + Send>,
    output: mpsc::Receiver<Vec<u8>>,
    seen: Vec<u8>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        Session::start_with(args, &[])
    }

    fn start_with(args: &[&str], env: &[(&str, &str)]) -> Session {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows: 30,
                cols: 100,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal");
        let mut command = CommandBuilder::new(common::binary());
        command.args(args);
        command.env("TERM", "xterm-256color");
        command.env_remove("NO_COLOR");
        for (key, value) in env {
            command.env(key, value);
        }
        let child = pty.slave.spawn_command(command).expect("hexrune starts");
        drop(pty.slave);
        let mut reader = pty.master.try_clone_reader().unwrap();
        let writer = pty.master.take_writer().unwrap();
        let (sender, output) = mpsc::channel();
        std::thread::spawn(move || {
            let _master = pty.master;
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 || sender.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            writer,
            output,
            seen: Vec::new(),
        }
    }

    /// Reads until `needle` has been output, or fails after 10 s.
    fn expect(&mut self, needle: &[u8]) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !contains(&self.seen, needle) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(chunk) => self.seen.extend(chunk),
                Err(_) => panic!(
                    "never saw {:?}; got {:?}",
                    String::from_utf8_lossy(needle),
                    String::from_utf8_lossy(&self.seen)
                ),
            }
        }
    }

    /// Reads until the screen, as a terminal would show it, contains `text`, or fails after
    /// 10 s. The viewer redraws only the cells that change, so a phrase on screen need not
    /// appear as one run of bytes in the output; a terminal emulator puts it back together.
    fn expect_screen(&mut self, text: &str) {
        self.screen_until(text, true);
    }

    /// Reads until the screen no longer contains `text`, or fails after 10 s.
    fn expect_screen_without(&mut self, text: &str) {
        self.screen_until(text, false);
    }

    /// Reads until whether the screen contains `text` is `shown`, or fails after 10 s.
    fn screen_until(&mut self, text: &str, shown: bool) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let mut terminal = vt100::Parser::new(30, 100, 0);
            terminal.process(&self.seen);
            let screen = terminal.screen().contents();
            if screen.contains(text) == shown {
                return;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(chunk) => self.seen.extend(chunk),
                Err(_) => panic!("waited for {text:?} to be shown: {shown}; the screen:\n{screen}"),
            }
        }
    }

    fn keys(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).unwrap();
        self.writer.flush().unwrap();
    }

    fn wait(&mut self) -> portable_pty::ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // Collect the rest of what was written.
                while let Ok(chunk) = self.output.recv_timeout(Duration::from_millis(300)) {
                    self.seen.extend(chunk);
                }
                return status;
            }
            assert!(Instant::now() < deadline, "hexrune did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn assert_restored(&self) {
        let tail = after_last(&self.seen, b"\x1b[?1049h");
        for (what, seq) in [
            ("alternate screen left", &b"\x1b[?1049l"[..]),
            ("cursor shown", b"\x1b[?25h"),
            ("mouse reporting off", b"\x1b[?1000l"),
        ] {
            assert!(contains(tail, seq), "{what}: {seq:?} missing");
        }
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

fn after_last<'a>(hay: &'a [u8], needle: &[u8]) -> &'a [u8] {
    let at = hay
        .windows(needle.len())
        .rposition(|w| w == needle)
        .expect("the alternate screen was entered");
    &hay[at..]
}

#[test]
fn demo_keys_and_quit_restore_the_terminal() {
    let mut s = Session::start(&[]);
    s.expect(b"\x1b[?1049h");
    s.expect(b"demo");
    s.expect(b"errors");
    // Next error, then the detail pane names it.
    s.keys("]");
    s.expect_screen("invalid_byte");
    // The background scan of the demo ends at once: its character count shows, and the
    // statistics overlay opens and closes.
    s.expect_screen("of 3589");
    s.keys("s");
    s.expect_screen("statistics");
    s.expect_screen("verdict");
    s.keys("s");
    s.keys("d");
    s.expect_screen("cesu8");
    s.keys("q");
    let status = s.wait();
    assert!(status.success(), "{status:?}");
    s.assert_restored();
}

#[test]
fn sigterm_restores_the_terminal() {
    let mut s = Session::start(&[]);
    s.expect(b"errors");
    let pid = s.child.process_id().expect("a pid") as i32;
    // SAFETY: kill has no memory-safety preconditions.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let status = s.wait();
    assert!(!status.success());
    s.assert_restored();
}

#[test]
fn open_error_before_the_screen_is_taken() {
    let mut s = Session::start(&["/nonexistent/file"]);
    s.expect(b"hexrune: /nonexistent/file: no such file or directory");
    let status = s.wait();
    assert_eq!(status.exit_code(), 2);
    assert!(!contains(&s.seen, b"\x1b[?1049h"));
}

#[test]
fn dash_on_a_terminal_is_refused_before_the_screen_is_taken() {
    // `hexrune -` with the keyboard as standard input once waited, with a blank line and
    // no word, for bytes typed and Ctrl-D, then viewed the keystrokes.
    let mut s = Session::start(&["-"]);
    s.expect(
        b"hexrune: <stdin>: is a terminal; pipe the bytes in (... | hexrune -) or name a file",
    );
    let status = s.wait();
    assert_eq!(status.exit_code(), 2);
    assert!(!contains(&s.seen, b"\x1b[?1049h"));
}

/// `--color always` beats `NO_COLOR`, as in `dump`; without colour the cursor is still
/// drawn reversed and error bytes bold.
#[test]
fn color_always_beats_no_color() {
    // A foreground colour from the 256-colour palette: how crossterm writes ratatui's.
    let coloured = |s: &Session| contains(&s.seen, b"\x1b[38;5;");
    let mut s = Session::start_with(&["--color", "always"], &[("NO_COLOR", "1")]);
    s.expect_screen("of 3589");
    s.keys("q");
    assert!(s.wait().success());
    assert!(coloured(&s), "no colour under --color always");

    let mut s = Session::start_with(&[], &[("NO_COLOR", "1")]);
    s.expect_screen("of 3589");
    s.keys("]");
    s.expect_screen("invalid_byte");
    s.keys("q");
    assert!(s.wait().success());
    assert!(!coloured(&s), "colour despite NO_COLOR");
    assert!(contains(&s.seen, b"\x1b[7m"), "nothing reversed");
    assert!(contains(&s.seen, b"\x1b[1m"), "nothing bold");
}

/// Esc drops a count and, with nothing open, does not quit. No key is typed right after an
/// Esc: a terminal that reads the two at once sees Alt and that key, and a loaded machine
/// can make any pause between them too short.
#[test]
fn esc_does_not_quit() {
    let mut s = Session::start(&[]);
    s.expect_screen("of 3589");
    s.keys("2");
    s.expect_screen("count 2");
    s.keys("\x1b");
    s.expect_screen_without("count 2");
    std::thread::sleep(Duration::from_millis(300));
    assert!(s.child.try_wait().unwrap().is_none(), "Esc quit the viewer");
    s.expect_screen("of 3589");
    s.keys("\x1b");
    std::thread::sleep(Duration::from_millis(500));
    assert!(s.child.try_wait().unwrap().is_none(), "Esc quit the viewer");
    let pid = s.child.process_id().expect("a pid") as i32;
    // SAFETY: kill has no memory-safety preconditions.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    s.wait();
    s.assert_restored();
}
