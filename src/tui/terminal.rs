//! Taking the terminal over and giving it back, whatever happens: on return, on panic (a
//! hook restores before the message is printed) and on SIGTERM, SIGHUP and SIGINT (the loop
//! notices within 200 ms; a watchdog restores and ends the process if it does not).

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::crossterm::{cursor, execute};
use ratatui::Terminal;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

/// The terminal type the viewer draws on.
pub type Term = Terminal<CrosstermBackend<io::Stdout>>;

/// Whether the terminal is currently taken over.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Raw mode, alternate screen, mouse reporting on, cursor hidden; installs the panic hook.
/// `color` is the viewer's own decision (`--color`, then `NO_COLOR`): crossterm reads
/// `NO_COLOR` itself and would drop every colour even under `--color always`, so it is told.
pub fn enter(color: bool) -> io::Result<Term> {
    ratatui::crossterm::style::force_color_output(color);
    install_panic_hook();
    ACTIVE.store(true, Ordering::SeqCst);
    let setup = || -> io::Result<Term> {
        enable_raw_mode()?;
        execute!(
            io::stdout(),
            EnterAlternateScreen,
            EnableMouseCapture,
            cursor::Hide
        )?;
        Terminal::new(CrosstermBackend::new(io::stdout()))
    };
    setup().inspect_err(|_| leave())
}

/// Gives the terminal back; does nothing the second time.
pub fn leave() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let mut out = io::stdout();
    let _ = execute!(out, DisableMouseCapture, LeaveAlternateScreen, cursor::Show);
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

/// The termination signals, caught while the viewer runs.
pub struct Signals {
    received: Arc<AtomicI32>,
}

impl Signals {
    /// Starts catching SIGTERM, SIGHUP and SIGINT.
    pub fn watch() -> io::Result<Signals> {
        let received = Arc::new(AtomicI32::new(0));
        let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT])?;
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
        Ok(Signals { received })
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
    std::process::exit(128 + signal);
}
