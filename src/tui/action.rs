//! Everything that can happen to the viewer, as one type: [`Action`], what [`super::keymap`]
//! makes of a key or mouse event, and what the event loop makes of a worker's report. The
//! app's one mutation, [`super::app::App::update`], takes these; neither the keymap nor
//! the app owns them, so neither imports the other.

use std::sync::Arc;
use std::time::Duration;

use crate::scan::index::{Summary, Verdict};

/// Everything that can happen to the app.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Leave hexrune.
    Quit,
    /// Give the terminal back to the shell and stop, as Ctrl-Z does in a shell (resumed
    /// by `fg`).
    Suspend,
    /// One byte left.
    Left,
    /// One byte right.
    Right,
    /// One row up.
    Up,
    /// One row down.
    Down,
    /// To the start of the next unit.
    NextUnit,
    /// To the start of the unit (or the previous one when already at a start).
    PrevUnit,
    /// One screen down.
    PageDown,
    /// One screen up.
    PageUp,
    /// Half a screen down.
    HalfPageDown,
    /// Half a screen up.
    HalfPageUp,
    /// To the first byte.
    Start,
    /// To the last byte.
    End,
    /// To the row at the top of the screen (with a count N: the Nth row from the top),
    /// in the same column.
    ScreenTop,
    /// To the row in the middle of the screen, in the same column.
    ScreenMiddle,
    /// To the row at the bottom of the screen (with a count N: the Nth from the bottom).
    ScreenBottom,
    /// A digit of a count typed before a key (`10j`): 0 to 9.
    Digit(u8),
    /// To the first byte of the row.
    RowStart,
    /// To the last byte of the row.
    RowEnd,
    /// Find the next error unit after the cursor.
    NextError,
    /// Find the previous error unit before the cursor.
    PrevError,
    /// To the next lint finding (`}`).
    NextFinding,
    /// To the previous lint finding (`{`).
    PrevFinding,
    /// Open the chooser of lints (`T`): security and the storage targets.
    OpenLints,
    /// A report of the lint pass.
    Lint(super::findings::Event),
    /// Open the go-to-offset prompt.
    OpenGoto,
    /// Open the search prompt, forward or backward.
    OpenSearch {
        /// Search towards the start.
        backward: bool,
    },
    /// Repeat the last search, in its direction or the opposite one.
    RepeatSearch {
        /// Search the other way.
        reverse: bool,
    },
    /// Switch to the next dialect.
    NextDialect,
    /// Switch to the previous dialect.
    PrevDialect,
    /// Open the encoding chooser (the likely encoding first).
    OpenEncoding,
    /// Show or hide the grapheme cluster lane and pane (`c`).
    ToggleClusters,
    /// Open the form that writes a repaired copy (`W`).
    OpenWrite,
    /// In the write form: `--mojibake` on or off.
    ToggleMojibake,
    /// In the write form: `--bom strip` or `keep`.
    ToggleBomStrip,
    /// Offsets in hex or decimal.
    ToggleDecimal,
    /// Show or hide the key list.
    Help,
    /// Show or hide the statistics overlay.
    Stats,
    /// Esc: close what is open, cancel what runs, or drop a pending count; never quits.
    Cancel,
    /// A typed character in a prompt.
    Input(char),
    /// Text pasted into a prompt (bracketed paste), its control characters already
    /// dropped ([`crate::tui::keymap::pasted`]): typed as it is, never read as keys.
    Paste(String),
    /// Delete the last character of a prompt.
    Backspace,
    /// Ctrl-U in a prompt: clear what was typed.
    ClearInput,
    /// Ctrl-W in a prompt: delete the word before the cursor.
    DeleteWord,
    /// Tab in the search prompt: text or hex bytes.
    TogglePattern,
    /// Enter in a prompt.
    Submit,
    /// A click at a terminal cell.
    Click {
        /// Column.
        x: u16,
        /// Row.
        y: u16,
    },
    /// Mouse wheel up.
    ScrollUp,
    /// Mouse wheel down.
    ScrollDown,
    /// The terminal's new size.
    Resize {
        /// Columns.
        width: u16,
        /// Rows.
        height: u16,
    },
    /// A report from a worker.
    Job(JobEvent),
    /// How far the whole-input scan is.
    ScanProgress {
        /// Bytes scanned.
        done: u64,
        /// Time since the scan started.
        elapsed: Duration,
    },
    /// The whole-input scan ended.
    Scanned(ScanResult),
    /// The file shrank on disk while it was shown: bytes past its new end read as zeros.
    SourceChanged,
    /// The file grew on disk while it was shown: the map holds its old size.
    SourceGrew,
    /// The file was written to in place while it was shown (its size the same, its
    /// modification time moved): the map shows the new bytes, the scan counted the old.
    SourceWritten,
    /// The file's path names another file now (a rename over it): the view holds the
    /// file it opened.
    SourceReplaced,
    /// The file's path names nothing now (removed, or renamed away): the view holds the
    /// file it opened.
    SourceRemoved,
    /// Open the file again as it is on disk now (`R`).
    Reopen,
}

impl Action {
    /// Whether it is what a worker or the terminal reports, not what the user did: it
    /// acts while a worker runs and while the terminal is too small, and clears no message
    /// and uses up no count.
    pub fn is_report(&self) -> bool {
        matches!(
            self,
            Action::Job(_)
                | Action::Resize { .. }
                | Action::ScanProgress { .. }
                | Action::Scanned(_)
                | Action::Lint(_)
                | Action::SourceChanged
                | Action::SourceGrew
                | Action::SourceWritten
                | Action::SourceReplaced
                | Action::SourceRemoved
        )
    }
}

/// What a worker reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JobEvent {
    /// The offset the worker has reached.
    Progress(u64),
    /// The search ended: the offset found, if any.
    Done(Option<u64>),
    /// The search stopped because it was cancelled.
    Cancelled,
    /// A repaired copy was written (what to say), or why not (the cause alone: the viewer
    /// names the path).
    Wrote(Result<String, String>),
}

/// What the scan found: the summary and the verdict on it (which may decode the blocks with
/// errors again in other dialects, so the worker works it out, not the drawing).
#[derive(Debug)]
pub struct Findings {
    /// The summary.
    pub summary: Summary,
    /// The verdict.
    pub verdict: Verdict,
    /// What the input most likely is, with its mojibake: set by the scan's worker after
    /// the summary is delivered (a UTF-8 scan only), so that the summary never waits for it.
    pub detection: std::sync::OnceLock<crate::detect::Detection>,
}

impl Findings {
    /// The findings of `summary`, with detection still to come.
    pub fn new(summary: Summary, verdict: Verdict) -> Findings {
        Findings {
            summary,
            verdict,
            detection: std::sync::OnceLock::new(),
        }
    }
}

/// What a scan worker reports when it ends (a cancelled worker reports nothing).
#[derive(Clone, Debug)]
pub struct ScanResult {
    /// The [`super::app::ScanRun::generation`] of the scan.
    pub generation: u64,
    /// The summary, or why there is none.
    pub outcome: Result<Arc<Findings>, String>,
}

impl PartialEq for ScanResult {
    fn eq(&self, other: &ScanResult) -> bool {
        self.generation == other.generation
            && match (&self.outcome, &other.outcome) {
                (Ok(a), Ok(b)) => Arc::ptr_eq(a, b),
                (Err(a), Err(b)) => a == b,
                _ => false,
            }
    }
}

impl Eq for ScanResult {}
