//! The terminal viewer: ratatui + crossterm in an Elm-style loop.
//!
//! An input event becomes an [`Action`] through a pure keymap ([`keymap::action`]),
//! [`App::update`] is the only mutation, and [`draw::draw`] is a pure function of the app.
//! Drawing only uses cells from [`crate::view`], so nothing from the input reaches the
//! terminal as it is. The terminal is restored (alternate screen left, cursor shown, raw
//! mode, mouse reporting and bracketed paste off) on quit, on panic, and on every signal
//! that would end the process and can be caught (SIGTERM, SIGHUP, SIGINT, SIGQUIT,
//! SIGUSR1, SIGALRM, ...).
//!
//! A pipe or FIFO ([`crate::source::Stream`]) is read on a worker thread while the screen
//! says how much has come (`reading <stdin>… 12.3 MiB`); q and Ctrl-C quit meanwhile, and
//! Enter shows what has been read so far. Reading stops at
//! [`crate::source::stream_bound`], and the status line then says the input was cut.
//! A read that fails (running out of memory among the ways) ends the viewer with that
//! error, through the same restore as a quit.
//!
//! The whole-input scan starts as soon as the first frame is drawn and runs on worker
//! threads; the loop polls its progress while it runs and drops it on quit. Twice a second
//! the loop also checks that the file has not shrunk on disk, and says so once if it has.
//!
//! The edge: only this layer names ratatui and crossterm. It reads [`crate::view`] (and
//! the layers before it), never [`crate::cli`]: `main` hands it an opened source.

pub mod action;
pub mod app;
pub mod draw;
pub mod findings;
pub mod keymap;
pub mod layout;
pub mod line;
pub mod lookalike;
pub mod search;

mod terminal;
pub mod write;

pub use action::Action;
pub use app::{parse_offset, App, Scan};

use std::io::{self, IsTerminal};
use std::time::{Duration, Instant};

use ratatui::crossterm::event;
use ratatui::layout::Rect;

use crate::decode::Dialect;
use crate::source::{Access, Opening, ReadState, Source, Stream};
use crate::view::fallback::{Escape, Fallback};

pub use crate::view::theme::ColorChoice;

/// How the viewer starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The dialect to start in.
    pub dialect: Dialect,
    /// When to use colours.
    pub color: ColorChoice,
    /// The encoding error units are also read in (`--fallback`), if any.
    pub fallback: Option<Fallback>,
    /// How the text pane shows invalid bytes (`--escape`), if escaped.
    pub escape: Option<Escape>,
    /// The lints whose findings are marked (`--target`, `--security`).
    pub lints: crate::lint::Lints,
}

/// Runs the viewer on `source` until the user quits. Takes over the terminal and gives it
/// back in every case; a signal that ends the viewer is re-raised once the terminal is
/// restored, so the exit status tells it.
pub fn run(source: Source, options: Options) -> io::Result<()> {
    run_with_path(source, options, None)
}

/// [`run`] for an input read from `path`: the write form (`W`) offers a copy beside it and
/// refuses to write over it.
pub fn run_with_path(
    source: Source,
    options: Options,
    path: Option<std::path::PathBuf>,
) -> io::Result<()> {
    run_opening(Opening::Ready(source), options, path)
}

/// [`run_with_path`] for an input that may still have to be read: a stream is read while
/// the screen shows how far it got ([`Stream::start`]), up to
/// [`crate::source::stream_bound`].
pub fn run_opening(
    opening: Opening,
    options: Options,
    path: Option<std::path::PathBuf>,
) -> io::Result<()> {
    if !io::stdout().is_terminal() {
        return Err(io::Error::other(
            "<stdout>: not a terminal: the viewer needs one (hexrune dump FILE prints the \
             bytes, hexrune check FILE the errors)",
        ));
    }
    let signals = terminal::Signals::watch()?;
    let color = options.color.enabled_here(true);
    let mut term = terminal::enter(color)?;
    let source = match opening {
        Opening::Ready(source) => Ok(Some(source)),
        Opening::Stream(stream) => read_stream(&mut term, stream, &signals),
    };
    let result = match source {
        Ok(Some(source)) => view(&mut term, source, options, path, &signals),
        Ok(None) => Ok(()),
        Err(e) => Err(e),
    };
    terminal::leave();
    // A copy being written (`W`) when a signal came or the user quit leaves no temporary
    // file behind, and no copy.
    let unfinished = crate::repair::write::remove_temps();
    if let Some(signal) = signals.received() {
        terminal::reraise(signal);
    }
    if unfinished > 0 {
        use std::io::Write;
        let _ = writeln!(
            io::stderr(),
            "hexrune: the copy W was writing was not written: the viewer quit before it was done"
        );
    }
    result
}

/// Reads `stream` on a worker while the screen says how far it got. `None` when the user
/// quit (or a signal came) first; an error when the read failed.
fn read_stream(
    term: &mut terminal::Term,
    stream: Stream,
    signals: &terminal::Signals,
) -> io::Result<Option<Source>> {
    let name = crate::view::glyph::sanitize(stream.name());
    let reading = stream.start(crate::source::stream_bound());
    'reading: loop {
        let state = reading.state();
        let read = reading.read_so_far();
        term.draw(|frame| draw::draw_reading(frame, &name, read))?;
        if signals.received().is_some() {
            return Ok(None);
        }
        if state != ReadState::Reading {
            break;
        }
        if event::poll(Duration::from_millis(100))? {
            loop {
                match keymap::reading_action(&event::read()?) {
                    Some(Action::Quit) => return Ok(None),
                    Some(_) => break 'reading,
                    None => {}
                }
                if !event::poll(Duration::ZERO)? {
                    break;
                }
            }
        }
    }
    reading
        .finish()
        .map(Some)
        .map_err(|e| io::Error::other(format!("{name}: {e}")))
}

/// The viewer on `source`, on a terminal already taken over, until the user quits.
fn view(
    term: &mut terminal::Term,
    source: Source,
    options: Options,
    path: Option<std::path::PathBuf>,
    signals: &terminal::Signals,
) -> io::Result<()> {
    source.advise(Access::Random);
    let size = term.size()?;
    let mut app = App::new(
        source,
        options.dialect,
        Rect::new(0, 0, size.width, size.height),
        options.color.enabled_here(true),
    );
    app.fallback = options.fallback;
    app.escape = options.escape;
    app.set_lints(options.lints);
    app.input_path = path;
    event_loop(term, &mut app, signals)
}

/// Feeds a terminal's event to the app, through [`keymap::unglue`] and the keymap, each
/// key in the mode the one before it left. Whether anything happened.
pub fn feed(app: &mut App, event: event::Event) -> bool {
    let mut changed = false;
    for event in keymap::unglue(event) {
        let action = keymap::action(&event, app.mode());
        if app.holds(&event, action.as_ref()) {
            app.hold(event);
            changed = true;
        } else if let Some(action) = action {
            app.update(action);
            changed = true;
        }
    }
    changed
}

fn event_loop(
    term: &mut terminal::Term,
    app: &mut App,
    signals: &terminal::Signals,
) -> io::Result<()> {
    let mut dirty = true;
    let mut checked = Instant::now();
    let mut detected = false;
    loop {
        // Detection ends on the scan's worker after the summary: draw what it found.
        if app.detection().is_some() != detected {
            detected = !detected;
            dirty = true;
        }
        if dirty {
            term.draw(|frame| draw::draw(frame, app))?;
            dirty = false;
        }
        if app.quit || signals.received().is_some() {
            return Ok(());
        }
        if std::mem::take(&mut app.suspend) | signals.take_stop() {
            if terminal::suspend(term)? {
                // The terminal may have been resized while hexrune was stopped.
                let size = term.size()?;
                app.update(Action::Resize {
                    width: size.width,
                    height: size.height,
                });
            } else {
                app.refuse_suspend();
            }
            dirty = true;
            continue;
        }
        // After a frame, so that the scan never delays one (the first above all).
        app.start_wanted_scan();
        app.start_wanted_lint();
        let timeout = if app.job.is_some() {
            50
        } else if app.is_scanning() || app.linting.status().is_some() {
            100
        } else {
            200
        };
        if event::poll(Duration::from_millis(timeout))? {
            // Take every event already waiting before drawing again: held keys stay smooth.
            loop {
                dirty |= feed(app, event::read()?);
                if app.quit || !event::poll(Duration::ZERO)? {
                    break;
                }
            }
        }
        for job_event in app.pending_job_events() {
            app.update(Action::Job(job_event));
            dirty = true;
        }
        for scan_event in app.pending_scan_actions() {
            app.update(scan_event);
            dirty = true;
        }
        if let Some(event) = app.linting.pending() {
            app.update(Action::Lint(event));
            dirty = true;
        }
        if checked.elapsed() >= Duration::from_millis(500) {
            checked = Instant::now();
            if let Some(action) = app.pending_source_action() {
                app.update(action);
                dirty = true;
            }
        }
    }
}
