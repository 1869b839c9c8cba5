//! Taking the terminal over and giving it back, whatever happens: on return, on panic (a
//! hook restores before the message is printed) and on every signal that would end the
//! process and can be caught (SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGALRM, ...:
//! [`crate::repair::write::terminating_signals`], the list `repair` catches too; the loop
//! notices within 200 ms; a watchdog restores and ends the process if it does not). On
//! SIGTSTP (from outside; Ctrl-Z arrives as a key in raw mode) the loop gives the terminal
//! back, stops, and takes it again when continued ([`suspend`]).

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use ratatui::crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::crossterm::{cursor, execute};
use ratatui::Terminal;
use signal_hook::consts::{SIGSTOP, SIGTSTP};

/// The terminal type the viewer draws on.
pub type Term = Terminal<CrosstermBackend<io::Stdout>>;

/// Whether the terminal is currently taken over.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Raw mode, alternate screen, mouse reporting and bracketed paste on, cursor hidden;
/// installs the panic hook. `color` is the viewer's own decision (`--color`, then
/// `NO_COLOR` and `TERM=dumb`): crossterm reads `NO_COLOR` itself and would drop every
/// colour even under `--color always`, so it is told.
pub fn enter(color: bool) -> io::Result<Term> {
    ratatui::crossterm::style::force_color_output(color);
    install_panic_hook();
    let setup = || -> io::Result<Term> {
        take_over()?;
        Terminal::new(CrosstermBackend::new(io::stdout()))
    };
    setup().inspect_err(|_| leave())
}

/// Raw mode, alternate screen, mouse reporting, bracketed paste (a paste arrives as one
/// event, never as keys: an ESC in it would close a prompt), cursor hidden.
fn take_over() -> io::Result<()> {
    ACTIVE.store(true, Ordering::SeqCst);
    enable_raw_mode()?;
    execute!(
        io::stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste,
        cursor::Hide
    )
}

/// Whether a shell with job control can resume hexrune once it stops: it runs in a process
/// group of its own (a job), not in its session leader's, and that group has the terminal.
/// A viewer started by a terminal multiplexer or a script without job control would stop
/// with nobody to continue it.
fn can_be_resumed() -> bool {
    // SAFETY: these calls read process attributes and have no memory-safety preconditions.
    unsafe {
        let group = libc::getpgrp();
        group != libc::getsid(0) && libc::tcgetpgrp(libc::STDOUT_FILENO) == group
    }
}

/// Stops hexrune as SIGTSTP would, the terminal given back first and taken again when the
/// shell continues it (`fg`); `term` is then new, so that the next frame is drawn whole
/// (ratatui's `clear` would ask the terminal where its cursor is, and wait for the
/// answer). `Ok(false)`, and nothing done, where no shell could continue it
/// ([`can_be_resumed`]).
pub fn suspend(term: &mut Term) -> io::Result<bool> {
    if !can_be_resumed() {
        return Ok(false);
    }
    leave();
    // SIGSTOP, not SIGTSTP: hexrune catches the latter. Execution goes on from here when
    // the process is continued.
    signal_hook::low_level::raise(SIGSTOP)?;
    take_over()?;
    execute!(io::stdout(), Clear(ClearType::All))?;
    *term = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    Ok(true)
}

/// Gives the terminal back; does nothing the second time.
pub fn leave() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let mut out = io::stdout();
    let _ = execute!(
        out,
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        cursor::Show
    );
    let _ = disable_raw_mode();
    let _ = out.flush();
}

fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            leave();
            previous(info);
        }));
    });
}

/// The termination signals and SIGTSTP, caught while the viewer runs.
pub struct Signals {
    received: Arc<AtomicI32>,
    stop: Arc<AtomicBool>,
}

impl Signals {
    /// Starts catching SIGTSTP and every signal that would end the process
    /// ([`crate::repair::write::terminating_signals`]).
    pub fn watch() -> io::Result<Signals> {
        let stop = Arc::new(AtomicBool::new(false));
        signal_hook::flag::register(SIGTSTP, Arc::clone(&stop))?;
        let received = Arc::new(AtomicI32::new(0));
        let mut signals =
            signal_hook::iterator::Signals::new(crate::repair::write::terminating_signals())?;
        let flag = Arc::clone(&received);
        thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                flag.store(signal, Ordering::SeqCst);
                // The event loop notices within its poll interval; if it is stuck, restore
                // the terminal from here and end.
                thread::sleep(Duration::from_millis(1000));
                leave();
                reraise(signal);
            }
        });
        Ok(Signals { received, stop })
    }

    /// Whether a SIGTSTP came since the last call.
    pub fn take_stop(&self) -> bool {
        self.stop.swap(false, Ordering::SeqCst)
    }

    /// The signal received, if any.
    pub fn received(&self) -> Option<i32> {
        match self.received.load(Ordering::SeqCst) {
            0 => None,
            s => Some(s),
        }
    }
}

/// Ends the process as the signal would have without hexrune's handler.
pub fn reraise(signal: i32) {
    let _ = signal_hook::low_level::emulate_default_handler(signal);
    // Still here: a signal signal-hook knows no default for (a real-time one, whose
    // default ends the process). SAFETY: signal() with SIG_DFL takes no pointer; the
    // handler it replaces is signal-hook's, whose actions are not needed any more.
    unsafe { libc::signal(signal, libc::SIG_DFL) };
    let _ = signal_hook::low_level::raise(signal);
    std::process::exit(128 + signal);
}
