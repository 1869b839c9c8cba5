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
        let mut command = terminal_command(common::binary());
        command.args(args);
        for (key, value) in env {
            command.env(key, value);
        }
        Session::spawn(command)
    }

    /// `command` in the pseudo-terminal, as its session's first process.
    fn spawn(command: CommandBuilder) -> Session {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows: 30,
                cols: 100,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal");
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

    /// How many times `needle` has been output so far.
    fn count(&self, needle: &[u8]) -> usize {
        self.seen
            .windows(needle.len())
            .filter(|w| *w == needle)
            .count()
    }

    /// Reads until `needle` has been output `n` times, or fails after 10 s.
    fn expect_times(&mut self, needle: &[u8], n: usize) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.count(needle) < n {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(chunk) => self.seen.extend(chunk),
                Err(_) => panic!(
                    "never saw {:?} {n} times; got {:?}",
                    String::from_utf8_lossy(needle),
                    String::from_utf8_lossy(&self.seen)
                ),
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
        assert_restored(&self.seen);
    }
}

/// `program`, for a terminal as the tests' (xterm, colours on).
fn terminal_command(program: impl AsRef<std::ffi::OsStr>) -> CommandBuilder {
    let mut command = CommandBuilder::new(program);
    command.env("TERM", "xterm-256color");
    command.env_remove("NO_COLOR");
    command
}

/// Whether the terminal was given back after the last time `seen` took it.
fn assert_restored(seen: &[u8]) {
    let tail = after_last(seen, b"\x1b[?1049h");
    for (what, seq) in [
        ("alternate screen left", &b"\x1b[?1049l"[..]),
        ("cursor shown", b"\x1b[?25h"),
        ("mouse reporting off", b"\x1b[?1000l"),
        ("bracketed paste off", b"\x1b[?2004l"),
    ] {
        assert!(contains(tail, seq), "{what}: {seq:?} missing");
    }
}

/// Where `needle` is first output after `from`.
fn find_after(hay: &[u8], needle: &[u8], from: usize) -> usize {
    from + hay[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .expect("output")
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
    // SIGUSR1, SIGALRM and the real-time signals left the terminal in raw mode, on the
    // alternate screen (and a copy `W` was writing beside its file).
    for signal in [
        libc::SIGTERM,
        libc::SIGQUIT,
        libc::SIGUSR1,
        libc::SIGALRM,
        libc::SIGRTMIN(),
    ] {
        if hexrune::repair::write::is_ignored(signal) {
            // Ignored when the tests started (`nohup`, a background job): the viewer, which
            // inherits that, leaves it ignored, as it should.
            continue;
        }
        let mut s = Session::start(&[]);
        s.expect(b"errors");
        let pid = s.child.process_id().expect("a pid") as i32;
        // SAFETY: kill has no memory-safety preconditions.
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
        let status = s.wait();
        assert!(!status.success(), "{signal}");
        s.assert_restored();
    }
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

/// Ctrl-Z, and a SIGTSTP from outside, give the terminal back to the shell and stop the
/// viewer as a job; `fg` takes the terminal again and draws the whole screen. Run as the job
/// of a shell with job control, as a user's is.
#[test]
fn ctrl_z_and_sigtstp_suspend_and_fg_resumes() {
    let bin = common::binary();
    let script = format!(
        "set -m; '{}'; echo \"stopped:$?\"; fg; echo \"stopped:$?\"; fg; echo \"done:$?\"",
        bin.display()
    );
    let mut command = terminal_command("bash");
    command.args(["--norc", "--noprofile", "-c", &script]);
    let mut s = Session::spawn(command);
    let stopped = format!("stopped:{}", 128 + libc::SIGSTOP);
    let enter = b"\x1b[?1049h";
    s.expect_screen("of 3589");
    // Ctrl-Z, typed.
    s.keys("\x1a");
    s.expect(stopped.as_bytes());
    // The terminal was given back before the shell said the job stopped.
    let first = find_after(&s.seen, stopped.as_bytes(), 0);
    assert_restored(&s.seen[..first]);
    // The shell's fg: the screen is taken again and drawn whole.
    s.expect_times(enter, 2);
    s.expect_screen("of 3589");
    // What was drawn after the screen was taken again is the whole screen.
    let again = find_after(&s.seen, enter, first);
    let mut terminal = vt100::Parser::new(30, 100, 0);
    terminal.process(&s.seen[again..]);
    let screen = terminal.screen().contents();
    for part in [
        "offset",
        "00000000  ef bb bf",
        "ZERO WIDTH NO-BREAK SPACE",
        "char 1 of 3589",
    ] {
        assert!(screen.contains(part), "{part:?} not drawn again:\n{screen}");
    }
    // SIGTSTP from outside, to the viewer (the shell's child).
    let shell = s.child.process_id().expect("a pid");
    let children = std::fs::read_to_string(format!("/proc/{shell}/task/{shell}/children"))
        .expect("the shell's children");
    let viewer: i32 = children
        .split_whitespace()
        .next()
        .expect("the viewer")
        .parse()
        .unwrap();
    // SAFETY: kill has no memory-safety preconditions.
    assert_eq!(unsafe { libc::kill(viewer, libc::SIGTSTP) }, 0);
    s.expect_times(stopped.as_bytes(), 2);
    let second = find_after(&s.seen, stopped.as_bytes(), first + 1);
    assert_restored(&s.seen[..second]);
    s.expect_times(enter, 3);
    s.expect_screen("of 3589");
    s.keys("q");
    s.expect(b"done:0");
    let status = s.wait();
    assert!(status.success(), "{status:?}");
    s.assert_restored();
}

/// Where no shell could continue it (hexrune leads its own session, as when a terminal
/// multiplexer starts it), Ctrl-Z and SIGTSTP say so and the viewer goes on.
#[test]
fn without_job_control_ctrl_z_says_why_it_does_not_stop() {
    let mut s = Session::start(&[]);
    s.expect_screen("of 3589");
    s.keys("\x1a");
    s.expect_screen("not suspended: no shell with job control");
    s.keys("l");
    s.expect_screen_without("not suspended");
    let pid = s.child.process_id().expect("a pid") as i32;
    // SAFETY: kill has no memory-safety preconditions.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTSTP) }, 0);
    s.expect_screen("not suspended: no shell with job control");
    s.keys("q");
    let status = s.wait();
    assert!(status.success(), "{status:?}");
    s.assert_restored();
}

/// `hexrune` at the end of a pipeline, its producer slow: `sh -c` runs it, and waits for
/// hexrune alone (the producer may linger, sleeping).
fn piped(producer: &str) -> Session {
    let script = format!("({producer}) | '{}' & wait $!", common::binary().display());
    let mut command = terminal_command("sh");
    command.args(["-c", &script]);
    Session::spawn(command)
}

/// A pipe is read while the screen says how much has come; Enter shows what has, q and
/// Ctrl-C quit before, the terminal given back. A pipe that ends opens by itself.
#[test]
fn a_pipe_is_shown_while_it_is_read() {
    let slow = "printf 'slow \\377 start\\n'; sleep 4";
    let mut s = piped(slow);
    s.expect_screen("reading <stdin>\u{2026} 13 B");
    s.expect_screen("Enter shows what is read so far, q quits");
    s.keys("\r");
    s.expect_screen("stopped reading at 13 B (Enter); what came later is not shown");
    s.expect_screen("00000000  73 6c 6f 77 20 ff 20 73 74 61 72 74 0a");
    s.keys("q");
    assert!(s.wait().success());
    s.assert_restored();

    for quit in ["q", "\x03"] {
        let mut s = piped(slow);
        s.expect_screen("reading <stdin>\u{2026} 13 B");
        s.keys(quit);
        let status = s.wait();
        assert!(status.success(), "{quit:?}: {status:?}");
        s.assert_restored();
        assert!(
            !contains(&s.seen, b"73 6c 6f"),
            "{quit:?}: the viewer opened"
        );
    }

    let mut s = piped("printf 'ab\\300\\257'");
    s.expect_screen("00000000  61 62 c0 af");
    s.expect_screen("<stdin>  4 B  0x0 (0)");
    s.keys("q");
    assert!(s.wait().success());
    s.assert_restored();
}

/// An Esc written together with the next key (as tmux passes them on within its
/// `escape-time`) is read as Alt and that key: it drops a count and closes an overlay as
/// an Esc on its own does, then the key acts.
#[test]
fn esc_written_with_the_next_key_acts_as_esc() {
    let mut s = Session::start(&[]);
    s.expect_screen("of 3589");
    s.keys("12\x1bj");
    s.expect_screen("0x10 (16)");
    s.keys("?");
    s.expect_screen("keys (? or Esc closes)");
    s.keys("\x1bj");
    s.expect_screen("0x20 (32)");
    s.expect_screen_without("keys (? or Esc closes)");
    s.keys("q");
    assert!(s.wait().success());
    s.assert_restored();
}

/// A paste arrives bracketed (the viewer asks for it) and is typed into the prompt, its
/// ESC dropped: read as keys, the ESC closed the search prompt and `e` opened the
/// encoding chooser.
#[test]
fn a_paste_with_an_esc_is_typed_into_the_search_prompt() {
    let mut s = Session::start(&[]);
    s.expect(b"\x1b[?2004h");
    s.expect_screen("of 3589");
    s.keys("/");
    s.expect_screen("/text (Tab: hex): ");
    s.keys("\x1b[200~ab\x1bec\x1b[201~");
    s.expect_screen("/text (Tab: hex): abec");
    s.keys("\x1b");
    s.expect_screen_without("/text (Tab: hex)");
    s.keys("q");
    assert!(s.wait().success());
    s.assert_restored();
}

/// `hexrune` (or `hexrune -`) on a pipe bigger than the memory it may use: the read
/// that fails to grow its buffer ends the viewer with one line and exit 2, the terminal
/// given back (an allocation failure aborted it: exit 134, the terminal left in raw
/// mode on the alternate screen, mouse reporting on).
#[test]
fn a_pipe_bigger_than_memory_ends_with_one_line_and_the_terminal_restored() {
    let dir = tempfile::tempdir().unwrap();
    for args in ["", " -"] {
        let err = dir.path().join("err");
        let script = format!(
            "head -c 800000000 /dev/zero | (ulimit -v 400000 && exec '{}'{args} 2>'{}'); \
             echo rc=$?",
            common::binary().display(),
            err.display()
        );
        let mut command = terminal_command("sh");
        command.args(["-c", &script]);
        let mut s = Session::spawn(command);
        s.expect(b"\x1b[?1049h");
        s.expect(b"rc=");
        let status = s.wait();
        assert!(status.success(), "{args:?}: {status:?}");
        assert!(
            contains(&s.seen, b"rc=2"),
            "{args:?}: {:?}",
            String::from_utf8_lossy(&s.seen)
        );
        s.assert_restored();
        assert_eq!(
            std::fs::read_to_string(&err).unwrap(),
            "hexrune: <stdin>: out of memory\n",
            "{args:?}"
        );
    }
}
