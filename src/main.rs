//! The `hexrune` binary: parses the command line and dispatches to a mode.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use hexrune::cli::{self, report_error, Args, Config, Input, EXIT_ERROR, EXIT_OK};
use hexrune::source::{io_message, Opening};

/// Whether standard output was closed when the process started (`hexrune dump f >&-`).
/// Rust's runtime opens the null device in its place before `main`, and every byte
/// printed would vanish, with exit 0; [`note_closed_stdout`] looks before it does.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Run by the C library before Rust's runtime starts, as std's own capture of the
/// arguments is on Linux.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static NOTE_CLOSED_STDOUT: extern "C" fn() = note_closed_stdout;

#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
extern "C" fn note_closed_stdout() {
    // SAFETY: F_GETFD reads the flags of descriptor 1 (-1 and EBADF if it is closed): no
    // pointer, no allocation, nothing of Rust's runtime, which is not up yet.
    let closed = unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFD) } == -1;
    STDOUT_CLOSED.store(closed, Ordering::Relaxed);
}

fn main() -> ExitCode {
    let config = Args::parse_or_exit(STDOUT_CLOSED.load(Ordering::Relaxed)).into_config();
    let mut err = io::stderr();
    if let Config::View {
        input,
        dialect,
        color,
        fallback,
        escape,
        lints,
    } = &config
    {
        let options = hexrune::tui::Options {
            dialect: *dialect,
            color: *color,
            fallback: *fallback,
            escape: *escape,
            lints: lints.clone(),
        };
        return ExitCode::from(view(input.as_ref(), options, &mut err));
    }
    if prints(&config) {
        let closed = STDOUT_CLOSED.load(Ordering::Relaxed);
        let writable = match closed {
            true => Err(io::Error::from_raw_os_error(libc::EBADF)),
            false => cli::stdout_writable(),
        };
        if let Err(e) = writable {
            let _ = writeln!(err, "hexrune: <stdout>: {}", io_message(&e));
            return ExitCode::from(EXIT_ERROR);
        }
    }
    let stdout = io::stdout();
    let mut out = Watched {
        inner: io::BufWriter::with_capacity(64 * 1024, stdout.lock()),
        failed: false,
    };
    let result = match &config {
        Config::Check(options) => cli::check::run(options, &mut out, &mut err),
        Config::At(options) => cli::at::run(options, &mut out, &mut err),
        Config::Detect(options) => cli::detect::run(options, &mut out, &mut err),
        Config::Explain(options) => cli::explain::run(options, &mut out, &mut err),
        Config::Dump(options) => cli::dump::run(options, &mut out, &mut err),
        Config::Repair(options) => cli::repair::run(options, &mut out, &mut err),
        Config::Generate(what) => hexrune::cli::generate(what, &mut out, &mut err),
        Config::View { .. } => unreachable!("handled above"),
    };
    let seen = out.failed;
    let result = result.and_then(|code| match out.flush() {
        // `hexrune check big.txt | head`: the reader left; end quietly, with the answer.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(code),
        // The command met this error and ended with it, on its one line (`repair` names
        // `<stdout>` there): what is still buffered fails again, and is not said twice.
        Err(_) if seen && code == EXIT_ERROR => Ok(code),
        flushed => flushed.map(|()| code),
    });
    match result {
        Ok(code) => ExitCode::from(code),
        // A command that stopped because the reader left: end quietly.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(err, "hexrune: <stdout>: {}", io_message(&e));
            ExitCode::from(EXIT_ERROR)
        }
    }
}

/// Standard output as the commands write to it, noting whether a write or flush failed.
struct Watched<W> {
    inner: W,
    /// A write or flush returned an error (but `Interrupted`, which is tried again).
    failed: bool,
}

impl<W: Write> Watched<W> {
    fn note<T>(&mut self, result: io::Result<T>) -> io::Result<T> {
        if let Err(e) = &result {
            self.failed |= e.kind() != io::ErrorKind::Interrupted;
        }
        result
    }
}

impl<W: Write> Write for Watched<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let written = self.inner.write(bytes);
        self.note(written)
    }

    // The buffer's own, whole: `dump` writes its rows so.
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        let written = self.inner.write_all(bytes);
        self.note(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        let flushed = self.inner.flush();
        self.note(flushed)
    }
}

/// Whether a command prints on standard output: all but the viewer, and `repair` unless
/// its copy or its log goes there (`-o -`, `--log -`).
fn prints(config: &Config) -> bool {
    use hexrune::cli::repair::Target;
    match config {
        Config::View { .. } => false,
        Config::Repair(options) => {
            options.output == Target::Stdout || options.log == Some(Target::Stdout)
        }
        _ => true,
    }
}

/// The interactive inspector on a file, on piped standard input, or on the built-in demo.
/// An input that cannot be opened is reported before the screen is taken over.
fn view(input: Option<&Input>, options: hexrune::tui::Options, err: &mut dyn Write) -> u8 {
    let (name, source) = match input {
        // The keyboard is no input to view: reading it would wait, on a blank line, for
        // keystrokes and Ctrl-D.
        Some(Input::Stdin) if io::stdin().is_terminal() => {
            let _ = writeln!(
                err,
                "hexrune: {}: is a terminal; pipe the bytes in (... | hexrune -) or name a file",
                Input::Stdin.display_name()
            );
            return EXIT_ERROR;
        }
        Some(input) => (input.display_name(), input.open_streaming()),
        None if !io::stdin().is_terminal() => {
            (Input::Stdin.display_name(), Input::Stdin.open_streaming())
        }
        None => (
            String::new(),
            Ok(Opening::Ready(hexrune::cli::demo::source())),
        ),
    };
    let source = match source {
        Ok(source) => source,
        Err(e) => {
            let _ = report_error(err, &name, &e);
            return EXIT_ERROR;
        }
    };
    let path = match input {
        Some(Input::Path(path)) => Some(path.clone()),
        _ => None,
    };
    match hexrune::tui::run_opening(source, options, path) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            let _ = writeln!(err, "hexrune: {}", io_message(&e));
            EXIT_ERROR
        }
    }
}
