//! The app's state and its one mutation, [`App::update`].
//!
//! Long work runs on worker threads that report over channels; the event loop feeds those
//! reports back in as actions, so every change still goes through `update`:
//!
//! - error and pattern searches ([`Action::Job`]), one at a time; keys typed meanwhile wait;
//! - the whole-input scan ([`Scan`]), which never makes a key wait. It is wanted when the
//!   app is made and again after each change of dialect; `update` only marks it wanted
//!   (and cancels the one running), and the event loop starts it
//!   ([`App::start_wanted_scan`]), so the state machine can be tested without threads.
//!   Its progress arrives as [`Action::ScanProgress`], its result as [`Action::Scanned`].
//!   Once it is done, `]` / `[` ask the block index instead of searching, and character
//!   numbers are known.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use ratatui::layout::Rect;

use super::action::{Action, Findings, JobEvent, ScanResult};
use super::findings::{self as lint_findings, Linting, Pass};
use super::keymap::Mode;
use super::layout::{layout, Layout};
use super::line::{edit, edit_text, Edit};
use super::lookalike::{Lookalike, Match};
use super::search::{self, Cancelled, Control};
use super::write::{default_path, path_bytes, path_of, Preview, WriteForm, POLICIES};
use crate::decode::Dialect;
use crate::detect::mojibake::Mojibake;
use crate::detect::{detect, Detection};
use crate::scan::index::{Progress, Summary, Verdict};
use crate::source::{Partial, Source};
use crate::view::fallback::{Escape, Fallback};
use crate::view::map::{self, MapCell};

/// The whole-input scan, as far as the app knows it.
#[derive(Debug)]
pub enum Scan {
    /// A scan in the app's dialect is wanted; the event loop starts it.
    Wanted,
    /// A scan is running.
    Running(ScanRun),
    /// The scan is done, in the app's dialect.
    Ready(Arc<Findings>),
    /// The scan could not finish (the file changed while it was read).
    Failed(String),
}

/// A running scan.
#[derive(Debug)]
pub struct ScanRun {
    /// The dialect it scans in.
    pub dialect: Dialect,
    /// Which scan it is: results of earlier, cancelled ones are ignored.
    pub generation: u64,
    /// Shared with the worker: bytes done, and the cancel request.
    pub progress: Arc<Progress>,
    /// Bytes done at the last report.
    pub done: u64,
    /// Time taken at the last report.
    pub elapsed: Duration,
    /// An earlier report, between 1 and 3 seconds before the last once the scan has run
    /// that long (time taken, bytes done): the speed shown is measured since it, so that
    /// the time left follows a scan slowed down meanwhile (by a search beside it).
    pub since: (Duration, u64),
    /// The report to become `since` next.
    next_since: (Duration, u64),
    started: Instant,
}

/// A running worker.
pub struct Job {
    /// What it is doing, for the status line ("next error").
    pub what: String,
    /// The part of `what` that may be shortened where the line is too narrow: the
    /// pattern searched for ([`Message::elide`]).
    pub elide: Option<std::ops::Range<usize>>,
    /// The offset it has reached.
    pub reached: u64,
    /// Where it started.
    pub from: u64,
    /// Whether it goes towards the start.
    pub backward: bool,
    /// Whether it goes on from the other end of the input (pattern searches, as vim's
    /// `wrapscan`), so that a find past `from` the other way is a wrap.
    pub wraps: bool,
    /// The needle of a lookalike search, to tell which forms matched.
    pub lookalike: Option<Arc<Lookalike>>,
    /// Whether an earlier step of the count this search is a step of went round an end.
    pub wrapped_before: bool,
    /// Whether it looks for an error (`]`, `[`): a count stops at the last one.
    pub error: bool,
    cancel: Arc<AtomicBool>,
    receiver: Receiver<JobEvent>,
}

/// What the prompt at the bottom is asking for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptKind {
    /// An offset.
    Goto,
    /// A pattern to search for.
    Search {
        /// Towards the start.
        backward: bool,
        /// Hex bytes rather than text.
        hex: bool,
    },
    /// An encoding to read the input as: a label typed, or else the choice at `choice` of
    /// [`App::encoding_choices`].
    Encoding {
        /// The index of the offered choice.
        choice: usize,
    },
    /// The path of a repaired copy (`W`); the rest of the form is [`App::write`].
    Write,
    /// The lints to mark (`T`): choice `choice` of the chooser is the one Space turns
    /// over; the chosen set is [`Linting::chooser`] until Enter.
    Lints {
        /// The index of the choice at hand.
        choice: usize,
    },
}

/// An open prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt {
    /// What it asks for.
    pub kind: PromptKind,
    /// What has been typed (for `W`, the path shown: [`Prompt::path`] as the status line
    /// shows a name, each byte that is not UTF-8 as `\xff`: [`shown_path`]).
    pub input: String,
    /// `W`'s path as the system holds it, exact: the default keeps the input's own bytes
    /// (a name that is not UTF-8 too), and every edit changes these bytes; `None` in the
    /// other prompts.
    pub path: Option<Vec<u8>>,
}

impl Prompt {
    /// Applies one edit: to the exact bytes of `W`'s path (the text shown follows), or to
    /// the text typed.
    fn edit(&mut self, step: Edit) {
        match &mut self.path {
            Some(path) => {
                edit(path, step);
                self.input = shown_path(path);
            }
            None => edit_text(&mut self.input, step),
        }
    }
}

/// `W`'s path as the viewer shows every path, the input's name in the status line too:
/// [`crate::view::safe::path_name`], a byte that is not UTF-8 as `\xff`.
pub fn shown_path(path: &[u8]) -> String {
    crate::view::safe::path_name(&path_of(path))
}

/// A search pattern, kept for n / N.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// The bytes searched for.
    pub bytes: Vec<u8>,
    /// How the user wrote it, for messages.
    pub label: String,
    /// The direction it was given in.
    pub backward: bool,
    /// The lookalike needle of a `/~/` search (then `bytes` is empty).
    pub lookalike: Option<Arc<Lookalike>>,
    /// Where its bytes may be found.
    pub anchor: Anchor,
}

/// Where a search pattern's bytes may be found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// This text: only where the view's units start and end (and, in ISO-2022-JP, decode
    /// to it), so that a match is the characters typed, never bytes inside or across
    /// characters ([`search::UnitEdges`]).
    Text(String),
    /// Hex bytes: at any offset.
    Bytes,
}

/// A line for the status bar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// The text (from hexrune, or sanitised before display).
    pub text: String,
    /// Whether it reports a failure.
    pub is_error: bool,
    /// The part of `text` that may be shortened (ending in `…`) where the line is too
    /// narrow for the whole: a search's pattern as typed, so that the outcome after it
    /// is what stays in view.
    pub elide: Option<std::ops::Range<usize>>,
    /// Where in `text` the part that is cut first begins, if any: the forms a lookalike
    /// search matched, after what it found.
    pub cut_from: Option<usize>,
}

impl Message {
    /// `self; next`: one line for two things said in turn, the first in front (where the
    /// line is too narrow, the end gives way first).
    fn then(self, next: Message) -> Message {
        let shift = self.text.len() + 2;
        let shifted = |r: std::ops::Range<usize>| r.start + shift..r.end + shift;
        Message {
            text: format!("{}; {}", self.text, next.text),
            is_error: self.is_error || next.is_error,
            elide: self.elide.or(next.elide.map(shifted)),
            cut_from: self.cut_from.or(next.cut_from.map(|at| at + shift)),
        }
    }
}

/// Everything the screen shows, and nothing of the terminal.
pub struct App {
    /// The input.
    pub source: Arc<Source>,
    /// The dialect the panes decode in.
    pub dialect: Dialect,
    /// The encoding the detail pane also reads an error unit in (`--fallback`; windows-1252
    /// unless told otherwise), if any.
    pub fallback: Option<Fallback>,
    /// How the text pane shows invalid bytes (`--escape`), if escaped.
    pub escape: Option<Escape>,
    /// The byte under the cursor.
    pub cursor: u64,
    /// The offset of the first row shown.
    pub top: u64,
    /// The terminal's size.
    pub size: Rect,
    /// Offsets in decimal rather than hex.
    pub decimal: bool,
    /// Whether colours are used (`NO_COLOR` turns them off).
    pub color: bool,
    /// The grapheme cluster lane and pane are shown (`c`).
    pub clusters: bool,
    /// The finding `}` or `{` last went to: the generation of the lint pass that found it
    /// and its index among that pass's findings, so that the next step goes on to the next
    /// one at the same offset.
    finding_step: Option<(u64, usize)>,
    /// The key list is shown.
    pub help: bool,
    /// The first line of the key list shown (it scrolls when taller than the terminal).
    pub help_scroll: u16,
    /// How far the statistics overlay is scrolled down, in lines.
    pub stats_scroll: u16,
    /// A count typed before a key (`10` of `10j`), waiting for the key.
    pub count: Option<u32>,
    /// The statistics overlay is shown.
    pub stats: bool,
    /// The whole-input scan.
    pub scan: Scan,
    /// The map strip's cells, kept in step with the scan and the strip's height.
    pub map: Vec<MapCell>,
    map_key: (usize, usize, u64),
    scan_generation: u64,
    scan_sender: Sender<ScanResult>,
    scan_receiver: Receiver<ScanResult>,
    /// The open prompt.
    pub prompt: Option<Prompt>,
    /// The last message.
    pub message: Option<Message>,
    /// The running worker.
    pub job: Option<Job>,
    /// The last search, for n / N.
    pub last_search: Option<Pattern>,
    /// What the encoding chooser offers, the likely one first, and why it is likely (set
    /// when the chooser opens).
    pub encoding_choices: (Vec<Dialect>, &'static str),
    /// Set when the user asked to quit.
    pub quit: bool,
    /// Set when the user asked to suspend (Ctrl-Z); the event loop gives the terminal
    /// back, stops, and draws again when resumed.
    pub suspend: bool,
    /// The file shrank on disk while it was shown (see [`App::pending_source_action`]).
    pub changed: bool,
    /// The file grew on disk while it was shown (said once; `R` shows the new bytes).
    pub grew: bool,
    /// The file was written to in place while it was shown (said once): what the scan
    /// found is dropped, as after a truncation.
    pub written: bool,
    /// The file's path names another file now (said once; `R` opens it).
    pub replaced: bool,
    /// The file's path names nothing now (said once, until it names a file again).
    pub removed: bool,
    /// The input's path, when it is a file: the write form's default and the refusal of
    /// writing over it.
    pub input_path: Option<PathBuf>,
    /// The write form, while it is open.
    pub write: Option<WriteForm>,
    /// The form, prompt and name of the write running, given back if it fails so that the
    /// path can be mended.
    write_retry: Option<(WriteForm, Prompt, String)>,
    /// What the write that just ended said, while the keys typed during it are replayed
    /// (and the searches they start run): what they say comes after it, so that `R`
    /// typed during a write does not hide whether the file was written.
    write_said: Option<Message>,
    /// Keys typed while a worker ran, replayed in order when it is done (at most
    /// [`DEFERRED_MAX`]): typing `]]]` finds the third error.
    /// Each with the steps of a count (`99n`) it still stands for (0: a key typed), one
    /// entry for all of them, so that a count is never cut to the queue's length.
    deferred: VecDeque<(Action, u32)>,
    /// Keys typed while a worker ran, as typed ([`App::holds`]): read through the keymap
    /// when it is done, each in the mode the one before left (text after `/` goes to the
    /// prompt it opens). At most [`DEFERRED_MAX`].
    held: VecDeque<ratatui::crossterm::event::Event>,
    /// Whether the last pattern search, or an earlier step of its count, went round an
    /// end: the next step of the same count says `(search wrapped)` too.
    count_wrapped: bool,
    /// The count of `]` or `[` being stepped through (`99]`), while its steps run.
    error_count: Option<ErrorCount>,
    /// Set while a step of a count that waited for a worker is replayed: it goes on with
    /// that count's [`App::error_count`].
    replaying_count: bool,
    /// The lints asked for and the pass that finds them ([`super::findings`]).
    pub linting: Linting,
    /// The last lookalike match a search found, and its needle: the detail pane says
    /// which forms matched while the cursor is in it.
    pub lookalike_match: Option<(Arc<Lookalike>, Match)>,
    /// The last checkpoint found by decoding from afar in a multi-byte legacy encoding
    /// (with the dialect it is of), before the scan's index has one near: the draws of one
    /// frame (rows, detail, clusters) and the keys after a far jump start from it rather
    /// than from the input's start ([`App::checkpoint_before`]).
    resync_memo: std::cell::Cell<Option<(Dialect, crate::decode::Checkpoint)>>,
}

/// What the viewer says once the file shrank on disk.
pub const SHRANK: &str = "file truncated on disk (zeros past its new end): R reopens it";

/// What the viewer says once the file grew on disk.
pub const GREW: &str = "file grew on disk: R reopens it to show the new bytes";

/// What the viewer says once the file was written to in place.
pub const WRITTEN: &str = "file changed on disk (written in place): R reopens it";

/// What the viewer says once the file's path names another file.
pub const REPLACED: &str = "file replaced on disk (its path names a new file): R opens it";

/// What the viewer says once the file's path names nothing.
pub const REMOVED: &str =
    "file removed from disk (its path names nothing now): the view keeps the bytes it opened";

/// What the statistics say once the file was written to in place.
pub const REWRITTEN: &str = "the file changed on disk: the scan's counts no longer hold\n\
     (] and [ search the bytes it holds now; R reopens the file)";

/// What the statistics say once the file shrank on disk.
pub const TRUNCATED: &str = "the file was truncated on disk: the scan's counts no longer hold\n\
     (] and [ search the bytes it holds now; R reopens the file)";

/// A count of `]` or `[` (`99]`): how many errors it asked for and how many it has moved
/// to. Errors do not wrap, so a count larger than the errors left stops at the last
/// (or first) one and says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ErrorCount {
    asked: u32,
    moved: u32,
    /// A step found nothing: the steps left would not either.
    stopped: bool,
}

/// How far (bytes) from its nearest checkpoint an offset is decoded to once and remembered
/// ([`App::checkpoint_before`]).
pub const RESYNC_FAR: usize = 1 << 20;

/// How many actions typed during a search are kept for after it.
pub const DEFERRED_MAX: usize = 32;

/// The largest count (`999999j`); more digits are not taken, and the count says so.
pub const COUNT_MAX: u32 = 999_999;

impl App {
    /// A new app over `source`, with the cursor at the start and the whole-input scan
    /// wanted (the event loop starts it).
    pub fn new(source: Source, dialect: Dialect, size: Rect, color: bool) -> App {
        let (scan_sender, scan_receiver) = mpsc::channel();
        let mut app = App {
            source: Arc::new(source),
            dialect,
            fallback: Some(Fallback::windows_1252()),
            escape: None,
            cursor: 0,
            top: 0,
            size,
            decimal: false,
            clusters: false,
            finding_step: None,
            color,
            help: false,
            help_scroll: 0,
            stats_scroll: 0,
            count: None,
            stats: false,
            scan: Scan::Wanted,
            changed: false,
            grew: false,
            written: false,
            replaced: false,
            removed: false,
            map: Vec::new(),
            map_key: (usize::MAX, 0, 0),
            scan_generation: 0,
            scan_sender,
            scan_receiver,
            prompt: None,
            message: None,
            job: None,
            last_search: None,
            encoding_choices: (Vec::new(), ""),
            quit: false,
            suspend: false,
            input_path: None,
            write: None,
            write_retry: None,
            write_said: None,
            deferred: VecDeque::new(),
            held: VecDeque::new(),
            count_wrapped: false,
            error_count: None,
            replaying_count: false,
            linting: Linting::default(),
            lookalike_match: None,
            resync_memo: std::cell::Cell::new(None),
        };
        app.refresh_map();
        app.note_lanes(None);
        if let Some(note) = bom_note(app.source.bytes(), dialect) {
            app.say(note, false);
        }
        if let Some(partial) = app.source.partial() {
            app.say(partial_note(partial, app.source.len()), true);
        }
        app
    }

    /// Says which lanes the layout leaves out, when that differs from `before`.
    fn note_lanes(&mut self, before: Option<&'static str>) {
        let now = self.layout().and_then(|l| l.lanes.note());
        if now == before {
            return;
        }
        match now {
            Some(note) => self.say(note, false),
            None if self.message.as_ref().map(|m| m.text.as_str()) == before => self.message = None,
            None => {}
        }
    }

    /// A new app whose whole-input scan is already done (tests, benchmarks): `summary`
    /// must be of `source`'s bytes; the app starts in its dialect.
    pub fn with_summary(source: Source, summary: Summary, size: Rect, color: bool) -> App {
        let mut app = App::new(source, summary.dialect, size, color);
        let verdict = summary.verdict(app.source.bytes());
        let findings = Findings::new(summary, verdict);
        if findings.summary.dialect == Dialect::Utf8 {
            let _ = findings
                .detection
                .set(detect(app.source.bytes(), &findings.summary));
        }
        app.scan = Scan::Ready(Arc::new(findings));
        app.linting.want();
        app.refresh_map();
        app
    }

    /// Asks for the findings of `lints` (what `--target` and `--security` gave, or `T`
    /// chose): a pass is wanted once the scan is done, or at once if it is.
    pub fn set_lints(&mut self, lints: crate::lint::Lints) {
        self.linting.lints = lints;
        if self.findings().is_some() {
            self.linting.want();
        } else {
            self.linting.reset();
        }
    }

    /// Starts the wanted lint pass, if any, on a worker thread. Returns at once.
    pub fn start_wanted_lint(&mut self) {
        let Some(findings) = self.findings().map(|_| self.scan_findings()) else {
            return;
        };
        let Some((generation, cancel, progress)) = self.linting.begin() else {
            return;
        };
        let source = Arc::clone(&self.source);
        let lints = self.linting.lints.clone();
        let sender = self.linting.sender();
        thread::spawn(move || {
            let found = lint_findings::Found::collect(
                source.bytes(),
                &findings.summary,
                &lints,
                &cancel,
                &progress,
            );
            if let Some(found) = found {
                let _ = sender.send(lint_findings::LintResult {
                    generation,
                    found: Arc::new(found),
                });
            }
        });
    }

    /// Runs the wanted lint pass on this thread and takes its result in (tests).
    pub fn lint_now(&mut self) {
        self.start_wanted_lint();
        if matches!(self.linting.pass, Pass::Running(_)) {
            if let Some(result) = self.linting.wait() {
                self.update(Action::Lint(lint_findings::Event::Done(result)));
            }
        }
    }

    fn scan_findings(&self) -> Arc<Findings> {
        match &self.scan {
            Scan::Ready(f) => Arc::clone(f),
            _ => unreachable!("asked only when the scan is ready"),
        }
    }

    /// A checkpoint at or before `offset` to decode from in a multi-byte legacy encoding:
    /// the scan's nearest (once the scan is done), or the last one decoding from afar
    /// found (kept in the app); where both are more than [`RESYNC_FAR`] bytes away
    /// (a far jump before the scan is done, in a file without sync bytes), the unit
    /// containing `offset` is found once and its start kept for what follows. `None` in
    /// the other dialects.
    pub fn checkpoint_before(&self, offset: usize) -> Option<crate::decode::Checkpoint> {
        if !matches!(self.dialect, Dialect::MultiByte(_)) {
            return None;
        }
        let scanned = self
            .summary()
            .filter(|s| s.dialect == self.dialect)
            .and_then(|s| s.checkpoint_before(offset));
        let memo = self
            .resync_memo
            .get()
            .filter(|(d, c)| *d == self.dialect && c.at <= offset)
            .map(|(_, c)| c);
        let best = scanned.into_iter().chain(memo).max_by_key(|c| c.at);
        if offset - best.map_or(0, |c| c.at) <= RESYNC_FAR {
            return best;
        }
        let found = self.dialect.resync(self.source.bytes(), offset, best);
        let at = crate::decode::Checkpoint {
            at: found.unit.start,
            state: found.state,
        };
        self.resync_memo.set(Some((self.dialect, at)));
        Some(at)
    }

    /// The unit containing `offset` in the panes' dialect, decoded from
    /// [`App::checkpoint_before`] in a multi-byte legacy encoding.
    pub fn unit_at(&self, offset: usize) -> crate::decode::Unit {
        self.dialect
            .resync(self.source.bytes(), offset, self.checkpoint_before(offset))
            .unit
    }

    /// The whole-input summary, once the scan in the current dialect is done.
    pub fn summary(&self) -> Option<&Summary> {
        self.findings().map(|f| &f.summary)
    }

    /// The verdict on the input, once the scan in the current dialect is done.
    pub fn verdict(&self) -> Option<Verdict> {
        self.findings().map(|f| f.verdict)
    }

    /// What the input most likely is, once the scan (in UTF-8) and detection are done.
    pub fn detection(&self) -> Option<&Detection> {
        self.findings().and_then(|f| f.detection.get())
    }

    /// The mojibake region that holds byte `offset`, if detection found one there.
    pub fn mojibake_at(&self, offset: u64) -> Option<&Mojibake> {
        let found = &self.detection()?.mojibake;
        let i = found.partition_point(|m| (m.end as u64) <= offset);
        found.get(i).filter(|m| m.start as u64 <= offset)
    }

    fn findings(&self) -> Option<&Findings> {
        match &self.scan {
            Scan::Ready(f) if f.summary.dialect == self.dialect && f.summary.len == self.len() => {
                Some(f)
            }
            _ => None,
        }
    }

    /// Marks the wanted scan as running and returns what its worker needs: its generation,
    /// dialect and progress record. `None` when no scan is wanted.
    pub fn begin_scan(&mut self) -> Option<(u64, Dialect, Arc<Progress>)> {
        if !matches!(self.scan, Scan::Wanted) {
            return None;
        }
        self.scan_generation += 1;
        let progress = Arc::new(Progress::publishing_blocks());
        self.scan = Scan::Running(ScanRun {
            dialect: self.dialect,
            generation: self.scan_generation,
            progress: Arc::clone(&progress),
            done: 0,
            elapsed: Duration::ZERO,
            since: (Duration::ZERO, 0),
            next_since: (Duration::ZERO, 0),
            started: Instant::now(),
        });
        Some((self.scan_generation, self.dialect, progress))
    }

    /// Starts the wanted scan, if any, on a worker thread (which itself uses one thread
    /// per core). Returns at once.
    pub fn start_wanted_scan(&mut self) {
        let Some((generation, dialect, progress)) = self.begin_scan() else {
            return;
        };
        let source = Arc::clone(&self.source);
        let sender = self.scan_sender.clone();
        thread::spawn(move || {
            let threads = thread::available_parallelism().map_or(1, |n| n.get());
            // Pages behind the scan are let go, so memory does not grow with the file.
            let summary = Summary::build_releasing(
                dialect,
                source.bytes(),
                threads,
                &progress,
                |range| source.release(range),
                |range| source.prefetch(range),
            );
            let Some(summary) = summary else {
                return; // cancelled: nobody waits for it
            };
            let verdict = summary.verdict(source.bytes());
            let outcome = match source.check_intact() {
                Ok(()) => Ok(Arc::new(Findings::new(summary, verdict))),
                Err(e) => Err(e.to_string()),
            };
            let findings = outcome.as_ref().ok().map(Arc::clone);
            let _ = sender.send(ScanResult {
                generation,
                outcome,
            });
            // Detection after the summary is delivered: the view never waits for it.
            if let Some(findings) = findings.filter(|f| f.summary.dialect == Dialect::Utf8) {
                if !progress.is_cancelled() {
                    let _ = findings
                        .detection
                        .set(detect(source.bytes(), &findings.summary));
                }
            }
        });
    }

    /// What the scan has to report, without blocking: its result if it ended, else its
    /// progress. For the event loop, as actions to feed to [`App::update`].
    pub fn pending_scan_actions(&self) -> Vec<Action> {
        let mut actions: Vec<Action> = self.scan_receiver.try_iter().map(Action::Scanned).collect();
        if let (Scan::Running(run), true) = (&self.scan, actions.is_empty()) {
            actions.push(Action::ScanProgress {
                done: run.progress.done(),
                elapsed: run.started.elapsed(),
            });
        }
        actions
    }

    /// [`Action::SourceChanged`] the first time the file is found to have shrunk on disk
    /// (a file being rewritten or rotated under the viewer), [`Action::SourceGrew`] the
    /// first time it is found to have grown, [`Action::SourceWritten`] the first time it
    /// is found written to in place (the same size, a new modification time),
    /// [`Action::SourceReplaced`] the first time its path names another file,
    /// [`Action::SourceRemoved`] the first time it names nothing (unless it was replaced
    /// first), else `None`. Cheap (a few `fstat`s and a `stat`, no byte read); the event loop asks
    /// every half second or so.
    pub fn pending_source_action(&self) -> Option<Action> {
        if self.changed {
            return None;
        }
        if self.source.check_intact().is_err() {
            return Some(Action::SourceChanged);
        }
        if !self.grew && self.source.grown().is_some() {
            return Some(Action::SourceGrew);
        }
        if !self.written && self.source.written() {
            return Some(Action::SourceWritten);
        }
        let path = self.input_path.as_deref()?;
        if self.replaced {
            return None;
        }
        match self.source.path_now(path)? {
            crate::source::PathNow::Replaced => Some(Action::SourceReplaced),
            crate::source::PathNow::Removed if !self.removed => Some(Action::SourceRemoved),
            _ => None,
        }
    }

    /// How the file shown changed on disk, where what the scan found no longer holds for
    /// the bytes shown: `was truncated` or `changed`.
    fn stale(&self) -> Option<&'static str> {
        if self.changed {
            Some("was truncated")
        } else if self.written {
            Some("changed")
        } else {
            None
        }
    }

    /// Waits for a scan worker's result (tests).
    pub fn wait_scan_result(&self) -> Option<ScanResult> {
        self.scan_receiver.recv().ok()
    }

    /// Whether the scan is wanted or running.
    pub fn is_scanning(&self) -> bool {
        matches!(self.scan, Scan::Wanted | Scan::Running(_))
    }

    /// Drops what the scan and the lints found of bytes that changed under them (`why` is
    /// what the statistics then say), and says `message` until a key is pressed.
    fn drop_scan(&mut self, why: &str, message: &str) {
        self.cancel_scan();
        self.scan = Scan::Failed(why.to_string());
        self.linting.reset();
        self.say(message, true);
    }

    fn cancel_scan(&mut self) {
        if let Scan::Running(run) = &self.scan {
            run.progress.cancel();
        }
    }

    fn scan_event(&mut self, action: Action) {
        match action {
            Action::ScanProgress { done, elapsed } => {
                if let Scan::Running(run) = &mut self.scan {
                    run.done = done;
                    run.elapsed = elapsed;
                    // Every second, the report of a second ago becomes the measure's start.
                    if elapsed.saturating_sub(run.next_since.0) >= Duration::from_secs(1) {
                        run.since = run.next_since;
                        run.next_since = (elapsed, done);
                    }
                }
            }
            Action::Scanned(result) => {
                let current =
                    matches!(&self.scan, Scan::Running(run) if run.generation == result.generation);
                if !current {
                    return;
                }
                match result.outcome {
                    Ok(summary) => {
                        self.scan = Scan::Ready(summary);
                        self.linting.want();
                    }
                    Err(e) => {
                        self.say(format!("scan: {e}"), true);
                        self.scan = Scan::Failed(e);
                    }
                }
            }
            _ => {}
        }
    }

    /// Recomputes the map's cells when the strip's height, the summary or the scan's
    /// progress changed: while the scan runs, the cells it has finished fill in.
    fn refresh_map(&mut self) {
        let cells = self
            .layout()
            .and_then(|l| l.map)
            .map_or(0, |m| m.height as usize);
        let summary = self.summary();
        let running = match (&self.scan, summary) {
            (Scan::Running(run), None) => Some(run),
            _ => None,
        };
        let key = (
            cells,
            summary.map_or(0, |s| s as *const Summary as usize),
            running.map_or(0, |run| run.done),
        );
        if key != self.map_key {
            self.map = match running {
                Some(run) => map::map_in_progress(&run.progress, self.source.len(), cells),
                None => map::map(summary, self.source.bytes(), cells),
            };
            self.map_key = key;
        }
    }

    /// The cursor's character number (1-based) and the number of characters, once the
    /// scan is done. Characters are units: scalars and error units alike.
    pub fn char_position(&self) -> Option<(u64, u64)> {
        let summary = self.summary()?;
        // Character numbers count what the scan read; once the file has shrunk, the
        // bytes shown past its new end are not what was counted.
        if self.source.is_empty() || self.changed {
            return None;
        }
        let n = summary.unit_number(self.source.bytes(), self.cursor as usize);
        Some((n + 1, summary.unit_count()))
    }

    /// The offset of character `text` (1-based, as the status line counts them).
    fn char_offset(&self, text: &str) -> Result<u64, String> {
        let n: u64 = match text.trim().replace('_', "").parse::<u64>() {
            Ok(n) => n,
            // Digits enough to pass any end: past it, as an offset is.
            Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => u64::MAX,
            Err(e) if *e.kind() == std::num::IntErrorKind::Empty => {
                return Err("a character number after #: :#100 goes to the 100th".to_string())
            }
            Err(_) => {
                return Err(format!(
                    "not a character number: {}",
                    crate::view::glyph::sanitize(text)
                ))
            }
        };
        let Some(summary) = self.summary() else {
            return Err("character numbers are known once the scan is done".to_string());
        };
        if n == 0 {
            return Err("characters are numbered from 1".to_string());
        }
        match summary.unit_offset(self.source.bytes(), n - 1) {
            Some(offset) => Ok(offset as u64),
            None => Err(match summary.unit_count() {
                0 => format!("character {n}: the input is empty (0 characters)"),
                1 => "there is only 1 character".to_string(),
                count => format!("there are only {count} characters"),
            }),
        }
    }

    /// The mode the keymap works in.
    pub fn mode(&self) -> Mode {
        if self.layout().is_none() {
            // Too small to show anything: q and Ctrl-C quit whatever is open, and
            // `update` lets no other key act.
            Mode::Normal
        } else if self.prompt.is_some() {
            Mode::Prompt
        } else if self.job.is_some() {
            Mode::Busy
        } else if self.help {
            Mode::Help
        } else if self.stats {
            Mode::Stats
        } else if self.count.is_some() {
            Mode::Count
        } else {
            Mode::Normal
        }
    }

    /// The current layout, if the terminal is big enough.
    pub fn layout(&self) -> Option<Layout> {
        self.layout_in(self.size)
    }

    /// The layout of the panes in `area`, with the cluster lane (`c`) and the detail
    /// pane's room for findings (when lints are asked) as the app has them.
    pub fn layout_in(&self, area: Rect) -> Option<Layout> {
        let l = layout(area, self.source.len(), self.decimal)?;
        let l = if self.linting.lints.is_empty() {
            l
        } else {
            l.with_findings()
        };
        let l = if self.clusters { l.with_clusters() } else { l };
        Some(l.with_spare_detail_lines(self.source.len()))
    }

    fn len(&self) -> u64 {
        self.source.len()
    }

    fn per_row(&self) -> u64 {
        self.layout().map_or(16, |l| l.bytes_per_row) as u64
    }

    fn rows_shown(&self) -> u64 {
        self.layout().map_or(1, |l| l.data_rows().max(1)) as u64
    }

    /// The last offset the cursor may take (0 for an empty input).
    fn last(&self) -> u64 {
        self.len().saturating_sub(1)
    }

    /// The one mutation.
    pub fn update(&mut self, action: Action) {
        // Below the smallest layout the screen says only that: a key would act unseen
        // (scroll a hidden overlay, move the cursor), so only quitting, suspending and
        // what workers and the terminal report act.
        // `o` back to hex offsets acts too, where the decimal ones made it too small.
        let report = action.is_report();
        let back_to_hex = action == Action::ToggleDecimal && self.decimal;
        if self.layout().is_none()
            && !report
            && !back_to_hex
            && !matches!(action, Action::Quit | Action::Suspend)
        {
            return;
        }
        if self.job.is_some()
            && !report
            && !matches!(action, Action::Quit | Action::Suspend | Action::Cancel)
        {
            if self.deferred.len() < DEFERRED_MAX {
                self.deferred.push_back((action, 0));
            }
            return;
        }
        // What the user did clears the last message and uses up a count; what workers and
        // the terminal report does neither. Nor does an Esc with nothing to close or cancel:
        // it came too late for the worker it was meant for, and the message is that
        // worker's outcome ("wrote …": the file was written after all).
        if !report && !self.is_idle_esc(&action) {
            self.message = None;
        }
        if self.help && self.scroll_help(&action) {
            return;
        }
        if self.stats && !self.help && self.scroll_stats(&action) {
            return;
        }
        if let Action::Digit(d) = action {
            let count = self.count.unwrap_or(0).saturating_mul(10) + d as u32;
            self.count = Some(count.min(COUNT_MAX));
            return;
        }
        let count = match (report, Self::counts(&action)) {
            (true, _) => None,
            (false, true) => self.count.take(),
            (false, false) => {
                self.count = None; // a key that takes no count drops it, as in vim
                None
            }
        };
        if !report && !self.replaying_count {
            self.error_count = match (&action, count) {
                (Action::NextError | Action::PrevError, Some(asked)) if asked > 1 => {
                    Some(ErrorCount {
                        asked,
                        moved: 0,
                        stopped: false,
                    })
                }
                _ => None,
            };
        }
        self.apply(action.clone(), count);
        let mut left = count.unwrap_or(1).saturating_sub(1);
        while left > 0 && Self::repeats(&action) {
            if self.error_count.is_some_and(|c| c.stopped) {
                break;
            }
            if self.job.is_some() {
                // The rest waits for the search, as keys typed during it do: one entry
                // for all the steps left.
                self.deferred.push_front((action.clone(), left));
                break;
            }
            self.apply(action.clone(), None);
            left -= 1;
        }
        if count == Some(COUNT_MAX) && self.message.is_none() {
            // More digits were typed than a count keeps: not silently fewer moves.
            self.say(format!("{COUNT_MAX} is the largest count"), false);
        }
        self.keep_cursor_in_view();
        if self.quit {
            self.cancel_scan();
            self.linting.cancel();
        }
        self.refresh_map();
    }

    /// Whether `action` is an Esc with nothing to act on: no worker to cancel, no prompt,
    /// form or overlay to close (a count it drops has already cleared the message).
    fn is_idle_esc(&self, action: &Action) -> bool {
        matches!(action, Action::Cancel)
            && self.job.is_none()
            && self.prompt.is_none()
            && !self.help
            && !self.stats
    }

    /// Whether a count typed before `action` is used by it (and not dropped).
    fn counts(action: &Action) -> bool {
        Self::repeats(action) || matches!(action, Action::ScreenTop | Action::ScreenBottom)
    }

    /// Whether a count typed before `action` repeats it.
    fn repeats(action: &Action) -> bool {
        use Action::*;
        matches!(
            action,
            Left | Right
                | Up
                | Down
                | NextUnit
                | PrevUnit
                | PageDown
                | PageUp
                | HalfPageDown
                | HalfPageUp
                | NextError
                | PrevError
                | NextFinding
                | PrevFinding
                | RepeatSearch { .. }
                | ScrollUp
                | ScrollDown
        )
    }

    /// Scrolls the key list for a motion key while it is shown; `false` for other actions.
    fn scroll_help(&mut self, action: &Action) -> bool {
        let room = super::draw::help_room(self.size);
        room.scroll(self.help_scroll, action)
            .map(|to| self.help_scroll = to)
            .is_some()
    }

    /// Scrolls the statistics overlay for a motion key; `false` for other actions.
    fn scroll_stats(&mut self, action: &Action) -> bool {
        let room = super::draw::stats_room(self, self.size);
        room.scroll(self.stats_scroll, action)
            .map(|to| self.stats_scroll = to)
            .is_some()
    }

    /// One action, with the count typed before it for those that take one as a number
    /// (`3H`) rather than as repeats.
    fn apply(&mut self, action: Action, count: Option<u32>) {
        match action {
            Action::Quit => self.quit = true,
            Action::Suspend => self.suspend = true,
            Action::Cancel => self.cancel(),
            Action::Help => {
                self.help = !self.help;
                self.help_scroll = 0;
            }
            Action::ScreenTop | Action::ScreenMiddle | Action::ScreenBottom => {
                self.screen_row(&action, count.unwrap_or(1))
            }
            Action::Stats => {
                self.stats = !self.stats;
                self.stats_scroll = 0;
            }
            Action::ScanProgress { .. } | Action::Scanned(_) => self.scan_event(action),
            Action::SourceChanged => {
                self.changed = true;
                // What the scan found is of bytes that are now zeros: dropped, so that
                // `]` and `[` search the bytes as they are and the statistics say why
                // they are gone. A new dialect scans again (and fails, as it would).
                self.drop_scan(TRUNCATED, SHRANK);
            }
            Action::SourceGrew => {
                self.grew = true;
                self.say(GREW, false);
            }
            Action::SourceWritten => {
                self.written = true;
                // The map shows the new bytes where they were written; the scan counted
                // the old ones: dropped, as after a truncation. A new dialect scans the
                // bytes as they are now.
                self.drop_scan(REWRITTEN, WRITTEN);
            }
            Action::SourceReplaced => {
                // The view keeps the file it opened, unchanged: what the scan found of it
                // still holds.
                self.replaced = true;
                self.removed = false;
                self.say(REPLACED, false);
            }
            Action::SourceRemoved => {
                // As for a replaced file: the view keeps what it opened, the scan holds.
                self.removed = true;
                self.say(REMOVED, false);
            }
            Action::Reopen => self.reopen(),
            Action::Resize { width, height } => {
                let before = self.layout().and_then(|l| l.lanes.note());
                self.size = Rect::new(0, 0, width, height);
                self.note_lanes(before);
                // No rows left blank below the input's end that rows above could use: a
                // file that now fits is shown from its start.
                self.top = self.top.min(self.max_top());
            }
            Action::Job(event) => self.job_event(event),
            Action::Input(_)
            | Action::Paste(_)
            | Action::Backspace
            | Action::ClearInput
            | Action::DeleteWord
            | Action::TogglePattern
            | Action::Submit => self.prompt_edit(action),
            Action::OpenGoto => self.open_prompt(PromptKind::Goto),
            Action::OpenSearch { backward } => self.open_prompt(PromptKind::Search {
                backward,
                hex: false,
            }),
            Action::RepeatSearch { reverse } => self.repeat_search(reverse),
            Action::NextError => self.start_error_search(false),
            Action::PrevError => self.start_error_search(true),
            Action::NextFinding => self.step_finding(false),
            Action::PrevFinding => self.step_finding(true),
            Action::OpenLints => {
                self.linting.chooser = self.linting.lints.clone();
                self.open_prompt(PromptKind::Lints { choice: 0 });
            }
            Action::Lint(event) => self.lint_event(event),
            Action::NextDialect => self.step_dialect(self.dialect.next()),
            Action::PrevDialect => self.step_dialect(self.dialect.prev()),
            Action::OpenEncoding => self.open_encoding_chooser(),
            Action::OpenWrite => self.open_write(),
            Action::ToggleMojibake | Action::ToggleBomStrip => self.toggle_write(&action),
            Action::ToggleDecimal => self.toggle_decimal(),
            Action::ToggleClusters => {
                self.clusters = !self.clusters;
                self.keep_cursor_in_view();
            }
            Action::Click { x, y } => self.click(x, y),
            Action::ScrollUp => self.scroll(-3),
            Action::ScrollDown => self.scroll(3),
            Action::Digit(_) => {}
            motion => self.motion(motion),
        }
    }

    /// `H`, `M`, `L`: the cursor to a row of the screen, in its column. `n` counts rows
    /// from the top (`H`) or the bottom (`L`), 1 for the edge row; rows past the end of
    /// the input do not count.
    fn screen_row(&mut self, action: &Action, n: u32) {
        let per_row = self.per_row();
        let top = self.top / per_row * per_row;
        let last_row = (self.last() / per_row * per_row).max(top);
        let shown = ((last_row - top) / per_row + 1).min(self.rows_shown());
        let from_top = match action {
            Action::ScreenTop => (n as u64 - 1).min(shown - 1),
            Action::ScreenMiddle => (shown - 1) / 2,
            _ => (shown - 1).saturating_sub(n as u64 - 1),
        };
        let column = self.cursor % per_row;
        self.cursor = (top + from_top * per_row + column).min(self.last());
    }

    fn motion(&mut self, action: Action) {
        let per_row = self.per_row();
        let page = per_row * self.rows_shown();
        let bytes = self.source.bytes();
        let c = self.cursor;
        let target = match action {
            Action::Left => c.saturating_sub(1),
            Action::Right => c + 1,
            Action::Up => c.checked_sub(per_row).unwrap_or(c),
            Action::Down if c + per_row <= self.last() => c + per_row,
            Action::Down => c,
            Action::PageDown => {
                self.top = (self.top + page).min(self.max_top());
                c + page
            }
            Action::PageUp => {
                self.top = self.top.saturating_sub(page);
                c.saturating_sub(page)
            }
            Action::HalfPageDown => c + page / 2 / per_row * per_row,
            Action::HalfPageUp => c.saturating_sub(page / 2 / per_row * per_row),
            Action::Start => 0,
            Action::End => self.last(),
            Action::RowStart => c / per_row * per_row,
            Action::RowEnd => c / per_row * per_row + per_row - 1,
            Action::NextUnit if !bytes.is_empty() => {
                let end = self.unit_at(c as usize).end();
                match end < bytes.len() {
                    true => end as u64,
                    false => c,
                }
            }
            Action::PrevUnit if !bytes.is_empty() => {
                let unit = self.unit_at(c as usize);
                match (unit.start as u64 != c, unit.start) {
                    (true, start) => start as u64,
                    (false, 0) => c,
                    (false, start) => self.unit_at(start - 1).start as u64,
                }
            }
            _ => c,
        };
        self.cursor = target.min(self.last());
    }

    fn scroll(&mut self, rows: i64) {
        let per_row = self.per_row();
        self.top = if rows < 0 {
            self.top.saturating_sub(per_row * rows.unsigned_abs())
        } else {
            (self.top + per_row * rows as u64).min(self.max_top())
        };
        // The view moved: bring the cursor along, as less does.
        let rows_shown = self.rows_shown();
        let bottom = self.top + per_row * rows_shown - 1;
        self.cursor = self.cursor.clamp(self.top, bottom.min(self.last()));
    }

    /// Reflows `top` to the row width and scrolls just enough to show the cursor.
    fn keep_cursor_in_view(&mut self) {
        let per_row = self.per_row();
        let rows = self.rows_shown();
        self.top = self.top / per_row * per_row;
        let cursor_row = self.cursor / per_row * per_row;
        if cursor_row < self.top {
            self.top = cursor_row;
        } else if cursor_row >= self.top + rows * per_row {
            self.top = cursor_row - (rows - 1) * per_row;
        }
        // A screen ends at the input's last row at the latest, as less keeps it: no key
        // scrolls rows of the input off the top to leave blank rows below its end.
        self.top = self.top.min(self.max_top());
    }

    /// The highest top row: the one that shows the input's last row on the screen's last
    /// (0 when the input fits on one screen).
    fn max_top(&self) -> u64 {
        let per_row = self.per_row();
        let last_row = self.last() / per_row * per_row;
        last_row.saturating_sub((self.rows_shown() - 1) * per_row)
    }

    fn click(&mut self, x: u16, y: u16) {
        let Some(layout) = self.layout() else { return };
        if let Some(strip) = layout.map {
            if x >= strip.x && x < strip.right() && y >= strip.y && y < strip.bottom() {
                self.jump_to_map_cell((y - strip.y) as usize);
                return;
            }
        }
        if y < layout.rows.y || y >= layout.rows.bottom() {
            return;
        }
        let Some(col) = layout.column_at(x) else {
            return;
        };
        let row = (y - layout.rows.y) / layout.row_lines;
        if row >= layout.data_rows() {
            return;
        }
        let offset = self.top + row as u64 * layout.bytes_per_row as u64;
        let offset = offset + col as u64;
        if offset < self.len() {
            self.cursor = offset;
        }
    }

    /// Puts the start of map cell `i`'s part of the input at the top of the view.
    fn jump_to_map_cell(&mut self, i: usize) {
        let Some(cell) = self.map.get(i) else { return };
        let per_row = self.per_row();
        self.cursor = cell.range.start.min(self.last());
        self.top = self.cursor / per_row * per_row;
    }

    /// `d` / `D`: the next or previous dialect, or, in an encoding that has none (a legacy
    /// one), says so and how to choose another.
    fn step_dialect(&mut self, dialect: Dialect) {
        if self.dialect.family().is_empty() {
            let name = self.dialect.encoding_name();
            self.say(
                format!("{name} has no dialects: e chooses another encoding"),
                true,
            );
            return;
        }
        self.set_dialect(dialect);
    }

    /// Switches dialect; the scan of the old one is cancelled and a new one wanted. What the
    /// input's byte order mark says against the new one is said instead of its name.
    fn set_dialect(&mut self, dialect: Dialect) {
        if dialect != self.dialect {
            self.cancel_scan();
            self.scan = Scan::Wanted;
            self.linting.reset();
            self.lookalike_match = None;
        }
        self.dialect = dialect;
        let what = match dialect.code_unit_width() {
            Some(_) => "encoding",
            None => "dialect",
        };
        self.say(format!("{what}: {}", dialect.title()), false);
        if let Some(note) = bom_note(self.source.bytes(), dialect) {
            self.say(note, false);
        }
    }

    /// Says why Ctrl-Z (or a SIGTSTP) did not stop the viewer.
    pub fn refuse_suspend(&mut self) {
        self.say(
            "not suspended: no shell with job control started hexrune to resume it (q quits)",
            true,
        );
    }

    /// `write: NAME: CAUSE`, where the name gives way first (shortened with `…`) so that
    /// the cause stays in view on a narrow terminal.
    fn say_write_error(&mut self, name: &str, cause: &str) {
        let text = format!("write: {name}: {cause}");
        self.say(text, true);
        if let Some(message) = &mut self.message {
            message.elide = Some(7..7 + name.len());
        }
    }

    /// `o`: decimal offsets for hex ones and back, unless the wider decimal column leaves
    /// the terminal too small (the 10 digits of a 2 GiB file's offsets in 43 columns): then
    /// the offsets stay in hex, and the message says why.
    fn toggle_decimal(&mut self) {
        self.decimal = !self.decimal;
        if self.decimal && self.layout().is_none() {
            self.decimal = false;
            let (columns, _) = super::layout::minimum_size(self.source.len(), true);
            self.say(format!("decimal offsets need {columns} columns"), true);
        }
    }

    fn say(&mut self, text: impl Into<String>, is_error: bool) {
        self.message = Some(Message {
            text: text.into(),
            is_error,
            elide: None,
            cut_from: None,
        });
    }

    fn cancel(&mut self) {
        if let Some(job) = &self.job {
            job.cancel.store(true, Ordering::Relaxed);
        } else if let Some(form) = self.write.as_mut().filter(|f| f.confirm) {
            form.confirm = false; // back to the form, the path still typed
        } else if self.prompt.is_some() {
            self.prompt = None;
            self.write = None;
        } else if self.help {
            self.help = false;
        } else if self.stats {
            self.stats = false;
        }
        // Nothing open: Esc only drops a count (done in `update`); q quits.
    }

    fn open_prompt(&mut self, kind: PromptKind) {
        self.prompt = Some(Prompt {
            kind,
            input: String::new(),
            path: None,
        });
    }

    fn prompt_edit(&mut self, action: Action) {
        let Some(prompt) = &mut self.prompt else {
            return;
        };
        match action {
            Action::Input(' ')
                if prompt.input.is_empty() && matches!(prompt.kind, PromptKind::Lints { .. }) =>
            {
                if let PromptKind::Lints { choice } = prompt.kind {
                    self.linting.chooser = lint_findings::toggle(&self.linting.chooser, choice);
                }
            }
            Action::Input(c) if prompt.input.chars().count() < 4096 => {
                prompt.edit(Edit::Push(c));
                if let Some(form) = &mut self.write {
                    form.confirm = false;
                }
            }
            // Typed as it is: a space does not turn a lint over as Space does.
            Action::Paste(text) => {
                let room = 4096usize.saturating_sub(prompt.input.chars().count());
                for c in text.chars().take(room) {
                    prompt.edit(Edit::Push(c));
                }
                if let Some(form) = &mut self.write {
                    form.confirm = false;
                }
            }
            Action::Backspace | Action::ClearInput | Action::DeleteWord => {
                let step = match action {
                    Action::ClearInput => Edit::Clear,
                    Action::DeleteWord => Edit::DeleteWord,
                    _ => Edit::Backspace,
                };
                prompt.edit(step);
                if let Some(form) = &mut self.write {
                    form.confirm = false;
                }
            }
            Action::TogglePattern => match &mut prompt.kind {
                PromptKind::Search { hex, .. } => *hex = !*hex,
                PromptKind::Encoding { choice } => {
                    *choice = (*choice + 1) % self.encoding_choices.0.len().max(1);
                    prompt.input.clear();
                }
                PromptKind::Write => {
                    if let Some(form) = &mut self.write {
                        form.policy = (form.policy + 1) % POLICIES.len();
                        form.confirm = false;
                    }
                }
                PromptKind::Lints { choice } => {
                    *choice = (*choice + 1) % lint_findings::CHOICES;
                }
                PromptKind::Goto => {}
            },
            Action::Submit => {
                let prompt = self.prompt.take().expect("prompt is open");
                self.submit(prompt);
            }
            _ => {}
        }
    }

    /// Opens the encoding chooser, the likely encoding first: what detection found, once
    /// it is done and names an encoding the viewer reads; before that (or for a multi-byte
    /// legacy encoding) the quick guess of [`crate::encoding::choices`].
    fn open_encoding_chooser(&mut self) {
        let detected = self
            .detection()
            .and_then(|d| crate::encoding::resolve(d.encoding).ok());
        self.encoding_choices = match detected {
            Some(d) => (crate::encoding::choices_after(d), "detected"),
            None => {
                let bytes = self.source.bytes();
                let sample = &bytes[..bytes.len().min(crate::encoding::GUESS_SAMPLE)];
                let (_, why) = crate::encoding::guess(sample);
                (crate::encoding::choices(sample), why)
            }
        };
        self.open_prompt(PromptKind::Encoding { choice: 0 });
    }

    fn submit(&mut self, prompt: Prompt) {
        match prompt.kind {
            PromptKind::Write => self.submit_write(prompt),
            PromptKind::Lints { .. } => {
                let chosen = if prompt.input.trim().is_empty() {
                    Ok(self.linting.chooser.clone())
                } else {
                    lint_findings::parse_list(&prompt.input)
                };
                match chosen {
                    Ok(lints) => {
                        let text = lint_findings::asked(&lints);
                        self.set_lints(lints);
                        self.say(format!("lints: {text}"), false);
                    }
                    Err(e) => self.say(e, true),
                }
            }
            PromptKind::Encoding { choice } => {
                let chosen = if prompt.input.trim().is_empty() {
                    self.encoding_choices
                        .0
                        .get(choice)
                        .copied()
                        .ok_or_else(|| "no encoding chosen".to_string())
                } else {
                    crate::encoding::resolve(&prompt.input).map_err(|e| {
                        use crate::encoding::EncodingError::{Replacement, Unknown};
                        // The label goes through the sanitiser alone, so that a mark typed
                        // first does not sit on the quote before it.
                        match e {
                            Unknown(l) => Unknown(crate::view::safe::sanitize(&l)),
                            Replacement(l) => Replacement(crate::view::safe::sanitize(&l)),
                        }
                        .brief()
                    })
                };
                match chosen {
                    Ok(d) => {
                        self.set_dialect(d);
                        // Chosen as an encoding, said as one (UTF-8 too).
                        if let Some(m) = &mut self.message {
                            if let Some(rest) = m.text.strip_prefix("dialect: ") {
                                m.text = format!("encoding: {rest}");
                            }
                        }
                    }
                    Err(e) => self.say(e, true),
                }
            }
            // Nothing typed: the prompt just closes, as vim's and less's do.
            PromptKind::Goto if prompt.input.trim().is_empty() => {}
            PromptKind::Goto if self.before_start(&prompt.input) => {
                self.cursor = 0;
                self.say(
                    format!(
                        "offset {} is before the start",
                        crate::view::safe::sanitize(prompt.input.trim())
                    ),
                    false,
                );
            }
            PromptKind::Goto => match self.goto_target(&prompt.input) {
                // No byte at all: `last` is 0 too, and the cursor already on it.
                Ok(_) if self.len() == 0 => self.say(
                    format!(
                        "offset {}: the input is empty (0 bytes)",
                        crate::view::safe::sanitize(prompt.input.trim())
                    ),
                    false,
                ),
                Ok(offset) if offset > self.last() => {
                    // Past the end: to the last byte, and said.
                    self.cursor = self.last();
                    let len = self.len();
                    self.say(
                        format!(
                            "offset {} is past the end ({len} byte{})",
                            crate::view::safe::sanitize(prompt.input.trim()),
                            if len == 1 { "" } else { "s" }
                        ),
                        false,
                    );
                }
                Ok(offset) => self.cursor = offset,
                Err(e) => self.say(e, true),
            },
            // Nothing typed: the last pattern again, this way, as vim's and less's `/`
            // and `?` do; `n` then goes this way too.
            PromptKind::Search { backward, .. }
                if prompt.input.is_empty() && self.last_search.is_some() =>
            {
                let mut pattern = self.last_search.take().expect("just checked");
                pattern.backward = backward;
                self.start_pattern_search(&pattern, backward);
                self.last_search = Some(pattern);
            }
            PromptKind::Search { backward, hex } if !hex && prompt.input.starts_with("~/") => {
                let text = &prompt.input[2..];
                match Lookalike::new(text, self.dialect) {
                    Ok(needle) => {
                        let pattern = Pattern {
                            bytes: Vec::new(),
                            label: format!("lookalike {}", quoted(text)),
                            backward,
                            lookalike: Some(Arc::new(needle)),
                            anchor: Anchor::Text(text.to_string()),
                        };
                        self.start_pattern_search(&pattern, backward);
                        self.last_search = Some(pattern);
                    }
                    Err(e) => self.say(e, true),
                }
            }
            PromptKind::Search { backward, hex } => {
                // `\~/x` searches for `~/x` as written ([`search::TextSearch`]).
                let text = match search::TextSearch::parse(&prompt.input) {
                    search::TextSearch::Text(text) => text,
                    // Taken by the arm above.
                    search::TextSearch::Lookalike(_) => &prompt.input,
                };
                let bytes = if hex {
                    search::parse_hex(&prompt.input)
                } else if text.is_empty() {
                    Err("nothing to search for".to_string())
                } else {
                    search::encode_text(self.dialect, text)
                };
                match bytes {
                    Ok(bytes) => {
                        let label = if hex { hex_label(&bytes) } else { quoted(text) };
                        let pattern = Pattern {
                            bytes,
                            label,
                            backward,
                            lookalike: None,
                            anchor: if hex {
                                Anchor::Bytes
                            } else {
                                Anchor::Text(text.to_string())
                            },
                        };
                        self.start_pattern_search(&pattern, backward);
                        self.last_search = Some(pattern);
                    }
                    Err(e) => self.say(e, true),
                }
            }
        }
    }

    /// Whether a go-to target `-N` goes back past the start (it is taken to offset 0).
    fn before_start(&self, text: &str) -> bool {
        let Some(back) = text.trim().strip_prefix('-') else {
            return false;
        };
        parse_target(back, 0, self.len()).is_ok_and(|n| n > self.cursor)
    }

    /// A go-to target: `#N` is character N, anything else an offset ([`parse_offset`]).
    fn goto_target(&self, text: &str) -> Result<u64, String> {
        match text.trim().strip_prefix('#') {
            Some(number) => self.char_offset(number),
            None => parse_target(text, self.cursor, self.len()),
        }
    }

    fn repeat_search(&mut self, reverse: bool) {
        match self.last_search.clone() {
            Some(pattern) => self.start_pattern_search(&pattern, pattern.backward != reverse),
            None => self.say("no previous search", true),
        }
    }

    fn start_pattern_search(&mut self, pattern: &Pattern, backward: bool) {
        if let Some(needle) = &pattern.lookalike {
            self.start_lookalike_search(needle, &pattern.label, backward);
            return;
        }
        let needle = pattern.bytes.clone();
        let cursor = self.cursor as usize;
        let what = format!("search {}", pattern.label);
        let (dialect, anchor) = (self.dialect, pattern.anchor.clone());
        // In a multi-byte legacy encoding the scan's checkpoints spare decoding from afar.
        let findings = match &self.scan {
            Scan::Ready(f) if self.findings().is_some() => Some(Arc::clone(f)),
            _ => None,
        };
        self.spawn(what, backward, move |bytes, control| {
            let hint = |offset: usize| {
                let summary = &findings.as_ref()?.summary;
                summary.checkpoint_before(offset)
            };
            let mut edges = match anchor {
                Anchor::Text(text) => search::UnitEdges::new(dialect, &hint).decoding_to(&text),
                Anchor::Bytes => search::UnitEdges::any_byte(),
            };
            let edges = &mut edges;
            let end = bytes.len();
            // Past the end, the search goes on from the other end up to the cursor, as
            // vim's does: only an occurrence at the cursor itself is found twice.
            if backward {
                match search::find_units_backward(bytes, &needle, (0, cursor), edges, control)? {
                    Some(found) => Ok(Some(found)),
                    None => {
                        search::find_units_backward(bytes, &needle, (cursor, end), edges, control)
                    }
                }
            } else {
                match search::find_units_forward(bytes, &needle, (cursor + 1, end), edges, control)?
                {
                    Some(found) => Ok(Some(found)),
                    None => {
                        search::find_units_forward(bytes, &needle, (0, cursor + 1), edges, control)
                    }
                }
            }
        });
        if let Some(job) = &mut self.job {
            job.wraps = true;
            job.elide = label_range(&job.what, &pattern.label);
        }
    }

    /// A `/~/` search: like a pattern search (on a worker, wrapping at the ends), over
    /// the alternatives of each character.
    fn start_lookalike_search(&mut self, needle: &Arc<Lookalike>, label: &str, backward: bool) {
        let cursor = self.cursor as usize;
        let worker_needle = Arc::clone(needle);
        self.spawn(
            format!("search {label}"),
            backward,
            move |bytes, control| {
                let n = &worker_needle;
                if backward {
                    match n.find_backward(bytes, 0, cursor, control)? {
                        Some(found) => Ok(Some(found)),
                        None => n.find_backward(bytes, cursor, bytes.len(), control),
                    }
                } else {
                    match n.find_forward(bytes, cursor + 1, bytes.len(), control)? {
                        Some(found) => Ok(Some(found)),
                        None => n.find_forward(bytes, 0, cursor + 1, control),
                    }
                }
            },
        );
        if let Some(job) = &mut self.job {
            job.wraps = true;
            job.lookalike = Some(Arc::clone(needle));
            job.elide = label_range(&job.what, label);
        }
    }

    /// `}` / `{`: the cursor to the next / previous finding (a U+FFFD in the input, or a
    /// lint), wrapping at the ends.
    fn step_finding(&mut self, backward: bool) {
        let what = if backward {
            "previous finding"
        } else {
            "next finding"
        };
        if let (Some(how), false) = (self.stale(), matches!(self.linting.pass, Pass::Ready(_))) {
            // The findings were of the bytes the scan read, which are not those shown.
            self.say(
                format!("{what}: the file {how} on disk: R reopens it"),
                true,
            );
            return;
        }
        let asked = !self.linting.lints.is_empty();
        let found = match &self.linting.pass {
            Pass::Ready(found) => Arc::clone(found),
            // Without lints, the U+FFFD characters come from the scan's index, at once.
            _ if !asked => {
                self.say(format!("{what}: the scan is not done yet"), false);
                return;
            }
            _ => {
                self.say(format!("{what}: the lint pass is not done yet"), false);
                return;
            }
        };
        let n = found.findings.len();
        if n == 0 && !asked {
            self.say(
                format!("{what}: no findings; no lints asked (T chooses them, or --security, --target T)"),
                true,
            );
            return;
        }
        if n == 0 {
            self.say(format!("{what}: no findings"), false);
            return;
        }
        // From the finding last stepped to, while the cursor is on it, the next is the one
        // after it in the list, at the same offset or not: several findings on one byte are
        // each stepped to once, in the same order both ways.
        let pass = self.linting.generation();
        let current = self
            .finding_step
            .filter(|&(g, i)| {
                g == pass
                    && found
                        .findings
                        .get(i)
                        .is_some_and(|l| l.offset as u64 == self.cursor)
            })
            .map(|(_, i)| i);
        let (index, wrapped) = match (current, backward) {
            (Some(i), false) => ((i + 1) % n, i + 1 == n),
            (Some(i), true) => (i.checked_sub(1).unwrap_or(n - 1), i == 0),
            (None, false) => match found.next_index_after(self.cursor) {
                Some(i) => (i, false),
                None => (0, true),
            },
            (None, true) => match found.prev_index_before(self.cursor) {
                Some(i) => (i, false),
                None => (n - 1, true),
            },
        };
        let finding = &found.findings[index];
        self.finding_step = Some((pass, index));
        // A count (`5}`) that went round the end says so, whichever step did.
        let wrapped = wrapped
            || self.message.as_ref().is_some_and(|m| {
                m.text.ends_with(" (wrapped to the start)")
                    || m.text.ends_with(" (wrapped to the end)")
            });
        self.cursor = (finding.offset as u64).min(self.last());
        let mut text = format!(
            "finding {} of {}{}: {} at {}",
            index + 1,
            found.findings.len(),
            if found.truncated() { " kept" } else { "" },
            finding.kind.name(),
            self.format_offset(finding.offset as u64)
        );
        if found.truncated() {
            // Short, to fit the status line: `kept` above says the rest is not.
            text.push_str(&format!(" ({} found; see docs/lint.md)", found.total));
        }
        if wrapped {
            text.push_str(if backward {
                " (wrapped to the end)"
            } else {
                " (wrapped to the start)"
            });
        }
        self.say(text, false);
    }

    /// A report of the lint pass: its progress, or its findings (said when nothing else is).
    fn lint_event(&mut self, event: lint_findings::Event) {
        let done = matches!(event, lint_findings::Event::Done(_));
        self.linting.take(event);
        // Said when nothing else is, or after what `T` chose.
        let chosen = self
            .message
            .as_ref()
            .filter(|m| m.text.starts_with("lints: "))
            .map(|m| format!("{}: ", m.text));
        if let (true, Some(found)) = (done, self.linting.found()) {
            if self.message.is_some() && chosen.is_none() {
                return;
            }
            // With no lint asked the pass lists the U+FFFD characters only, after every
            // scan: `s` counts them and `}` steps to them, unannounced.
            if self.linting.lints.is_empty() && chosen.is_none() {
                return;
            }
            let text = match found.total {
                0 => "no findings".to_string(),
                1 => "1 finding (} steps to it)".to_string(),
                n if found.truncated() => format!(
                    "{n} findings, the first {} kept (}} and {{ step through those)",
                    found.findings.len()
                ),
                n => format!("{n} findings (}} and {{ step through them)"),
            };
            let prefix = chosen.unwrap_or_else(|| "lint: ".to_string());
            self.say(format!("{prefix}{text}"), false);
        }
    }

    fn start_error_search(&mut self, backward: bool) {
        let dialect = self.dialect;
        let what = if backward {
            "previous error"
        } else {
            "next error"
        };
        if self.source.is_empty() {
            self.found(what, None);
            return;
        }
        let unit = self.unit_at(self.cursor as usize);
        // Once the scan is done the block index answers at once, however far the error is.
        if let Some(summary) = self.summary() {
            let bytes = self.source.bytes();
            let found = if backward {
                summary.prev_error(bytes, unit.start)
            } else {
                summary.next_error(bytes, unit.end())
            };
            self.error_found(what, backward, found.map(|u| u.start as u64));
            return;
        }
        self.spawn(what.to_string(), backward, move |bytes, control| {
            let found = if backward {
                search::prev_error(bytes, dialect, unit.start, control)?
            } else {
                search::next_error(bytes, dialect, unit.end(), bytes.len(), control)?
            };
            Ok(found.map(|u| u.start))
        });
        if let Some(job) = &mut self.job {
            job.error = true;
        }
    }

    /// Moves to the error a step of `]` or `[` found, and says so. A step of a count
    /// that finds none ends the count: after some steps moved, it says where the cursor
    /// stopped and how many of the count it went (`next error: found at 0x19 (the last;
    /// 15 of 99)`), where a step alone says `none found`.
    fn error_found(&mut self, what: &str, backward: bool, found: Option<u64>) {
        let Some(count) = &mut self.error_count else {
            self.found(what, found);
            return;
        };
        if found.is_some() {
            count.moved += 1;
            self.found(what, found);
            return;
        }
        count.stopped = true;
        let (moved, asked) = (count.moved, count.asked);
        // The steps of the count still waiting would find nothing either.
        self.deferred.retain(|&(_, steps)| steps == 0);
        if moved == 0 {
            self.found(what, None);
            return;
        }
        let edge = if backward { "first" } else { "last" };
        self.say(
            format!(
                "{what}: found at {} (the {edge}; {moved} of {asked})",
                self.format_offset(self.cursor)
            ),
            false,
        );
    }

    /// Runs `work` on a worker thread over the input's bytes.
    fn spawn<F>(&mut self, what: String, backward: bool, work: F)
    where
        F: FnOnce(&[u8], &mut Control) -> Result<Option<usize>, Cancelled> + Send + 'static,
    {
        let (sender, receiver) = mpsc::channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let source = Arc::clone(&self.source);
        let flag = Arc::clone(&cancel);
        thread::spawn(move || {
            let progress_sender = sender.clone();
            let mut progress = |at: u64| {
                let _ = progress_sender.send(JobEvent::Progress(at));
            };
            let mut control = Control {
                cancel: &flag,
                progress: &mut progress,
            };
            let event = match work(source.bytes(), &mut control) {
                Ok(found) => JobEvent::Done(found.map(|o| o as u64)),
                Err(Cancelled) => JobEvent::Cancelled,
            };
            let _ = sender.send(event);
        });
        self.job = Some(Job {
            what,
            elide: None,
            reached: self.cursor,
            from: self.cursor,
            backward,
            wraps: false,
            lookalike: None,
            wrapped_before: false,
            error: false,
            cancel,
            receiver,
        });
    }

    /// Opens the write form: the default path typed, `replace`, toggles off.
    /// `R`: the file opened again, as it is on disk now, in the same dialect and at the
    /// same offset (or the new last byte); what the scan and the lints found is found
    /// again. Only for a regular file: a pipe's bytes are gone once read.
    fn reopen(&mut self) {
        let Some(path) = self.input_path.clone() else {
            // No path: standard input, or the built-in demo (named so by `main`).
            let what = match self.source.name() {
                "demo" => "the demo is built in",
                _ => "this input was read from standard input",
            };
            self.say(format!("R reopens a file; {what}"), true);
            return;
        };
        let name = crate::view::safe::path_name(&path);
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_file() => {}
            Ok(_) => {
                self.say(format!("reopen: {name}: is not a regular file"), true);
                return;
            }
            Err(e) => {
                let cause = crate::source::SourceError::of_path(&path, e);
                self.say(format!("reopen: {name}: {cause}"), true);
                return;
            }
        }
        let source = match Source::open(&path) {
            Ok(source) => source,
            Err(e) => {
                self.say(format!("reopen: {name}: {e}"), true);
                return;
            }
        };
        source.advise(crate::source::Access::Random);
        let before = self.source.len();
        self.cancel_scan();
        self.scan = Scan::Wanted;
        self.linting.reset();
        self.lookalike_match = None;
        self.finding_step = None;
        self.source = Arc::new(source);
        self.changed = false;
        self.grew = false;
        self.written = false;
        self.replaced = false;
        self.removed = false;
        self.cursor = self.cursor.min(self.last());
        let per_row = self.per_row();
        let last_row = self.last() / per_row * per_row;
        self.top = self.top.min(last_row);
        self.refresh_map();
        // In bytes where the short sizes would read alike.
        let (now, was) = (self.source.len(), before);
        let (mut now_said, mut was_said) =
            (super::draw::short_size(now), super::draw::short_size(was));
        if now_said == was_said && now != was {
            (now_said, was_said) = (format!("{now} B"), format!("{was} B"));
        }
        self.say(
            format!("reopened {name}: {now_said} (was {was_said})"),
            false,
        );
    }

    fn open_write(&mut self) {
        // Bytes past a new end read as zeros, and bytes written in place show through
        // the map: a copy of them is no repair of what was shown, nor of the file now.
        let how = match self.source.check_unchanged() {
            _ if self.changed => "was truncated",
            Ok(()) => "",
            Err(crate::source::SourceError::Changed) => "was truncated",
            Err(_) => "changed",
        };
        if !how.is_empty() {
            self.say(
                format!("write: the file {how} on disk since it was opened: R reopens it"),
                true,
            );
            return;
        }
        self.write = Some(WriteForm::new(self.fallback));
        let path = path_bytes(&default_path(self.input_path.as_deref()));
        self.prompt = Some(Prompt {
            kind: PromptKind::Write,
            input: shown_path(&path),
            path: Some(path),
        });
    }

    fn toggle_write(&mut self, action: &Action) {
        let Some(form) = &mut self.write else { return };
        match action {
            Action::ToggleMojibake => form.mojibake = !form.mojibake,
            Action::ToggleBomStrip => form.strip_bom = !form.strip_bom,
            _ => {}
        }
        form.confirm = false;
    }

    /// The preview of the write form, for the unit under the cursor.
    pub fn write_preview(&self) -> Option<Preview> {
        let form = self.write?;
        let region = self
            .mojibake_at(self.cursor)
            .map(|m| (m.start, m.end, m.text.as_str()));
        super::write::preview(
            self.source.bytes(),
            self.dialect,
            self.cursor,
            &form,
            region,
        )
    }

    /// Enter in the write form: the refusals first (the input itself: said; an existing
    /// file: asked, Enter again replaces it), then the write on a worker.
    fn submit_write(&mut self, prompt: Prompt) {
        let Some(mut form) = self.write else { return };
        let typed = match &prompt.path {
            Some(path) => path.trim_ascii().to_vec(),
            None => prompt.input.trim().as_bytes().to_vec(),
        };
        if typed.is_empty() {
            self.say("write: no path typed", true);
            self.prompt = Some(prompt);
            return;
        }
        // The exact bytes are written to; the name said is the one the prompt showed.
        let path = path_of(&typed);
        let name = shown_path(&typed);
        let input = self
            .input_path
            .as_deref()
            .and_then(|p| std::fs::metadata(p).ok())
            .map(|m| crate::repair::write::identity(&m));
        let policy = form.policy(self.dialect);
        if let Err(e) = crate::repair::Engine::new(crate::repair::Policy {
            from: None,
            dialect: crate::decode::Dialect::Utf8,
            ..policy
        }) {
            self.say(format!("write: {e}"), true);
            self.prompt = Some(prompt);
            return;
        }
        match crate::repair::write::refuse_output(&path, &name, input, form.confirm) {
            Ok(()) => {}
            Err(e) if e.is_exists() => {
                form.confirm = true;
                self.write = Some(form);
                self.prompt = Some(prompt);
                return;
            }
            Err(e) => {
                self.say_write_error(&e.name, &e.cause);
                self.prompt = Some(prompt);
                return;
            }
        }
        let force = form.confirm;
        self.write = None;
        self.write_retry = Some((
            WriteForm {
                confirm: false,
                ..form
            },
            prompt,
            name.clone(),
        ));
        let (sender, receiver) = mpsc::channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let source = Arc::clone(&self.source);
        let flag = Arc::clone(&cancel);
        let what = format!("write {name}");
        let mut label = form.policy_name().to_string();
        if form.mojibake {
            label.push_str(", --mojibake");
        }
        if form.strip_bom {
            label.push_str(", --bom strip");
        }
        thread::spawn(move || {
            let progress = |done: u64| {
                let _ = sender.send(JobEvent::Progress(done));
                if flag.load(Ordering::Relaxed) {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::Interrupted,
                        "cancelled",
                    ));
                }
                Ok(())
            };
            let result = crate::repair::write::write_copy(
                source.bytes(),
                input,
                &path,
                force,
                0o644,
                policy,
                progress,
            );
            // What happened, not what was asked: a cancel that comes once the copy has
            // taken its path (after the last check, before the rename) is too late, and
            // the copy is there.
            let event = match result {
                Err(_) if flag.load(Ordering::Relaxed) => JobEvent::Cancelled,
                Ok(w) => {
                    let n = w.tally.changed();
                    JobEvent::Wrote(Ok(format!(
                        "wrote {name}: {n} {} changed ({label}), {} bytes",
                        if n == 1 { "unit" } else { "units" },
                        w.written,
                    )))
                }
                Err(e) => JobEvent::Wrote(Err(e.cause)),
            };
            let _ = sender.send(event);
        });
        self.job = Some(Job {
            what,
            elide: None,
            reached: 0,
            from: 0,
            backward: false,
            wraps: false,
            lookalike: None,
            wrapped_before: false,
            error: false,
            cancel,
            receiver,
        });
    }

    /// Reports waiting from the worker, without blocking.
    pub fn pending_job_events(&self) -> Vec<JobEvent> {
        match &self.job {
            Some(job) => job.receiver.try_iter().collect(),
            None => Vec::new(),
        }
    }

    /// Waits for the worker's next report (tests and benchmarks).
    pub fn wait_job_event(&self) -> Option<JobEvent> {
        self.job.as_ref().and_then(|job| job.receiver.recv().ok())
    }

    fn job_event(&mut self, event: JobEvent) {
        let Some(job) = &mut self.job else { return };
        match event {
            JobEvent::Progress(at) => job.reached = at,
            JobEvent::Done(found) => {
                let what = job.what.clone();
                let (from, backward) = (job.from, job.backward);
                // A count (`3n`) that went round an end says so, whichever step did.
                let wrapped = job.wrapped_before
                    || job.wraps
                        && found.is_some_and(|at| if backward { at >= from } else { at <= from });
                self.count_wrapped = wrapped;
                let lookalike = job.lookalike.take();
                let elide = job.elide.clone();
                let error = job.error;
                self.job = None;
                match error {
                    true => self.error_found(&what, backward, found),
                    false => self.found(&what, found),
                }
                if found.is_none() {
                    // A pattern search goes round the ends: a step of a count (`99n`) that
                    // found nothing would be followed by as many that find nothing.
                    self.deferred.retain(|&(_, steps)| steps == 0);
                }
                if let Some(message) = &mut self.message {
                    message.elide = elide;
                    // Said before the forms a lookalike matched, which may be cut.
                    if wrapped {
                        message.text.push_str(" (search wrapped)");
                    }
                }
                if let (Some(needle), Some(at)) = (lookalike, found) {
                    let bytes = self.source.bytes();
                    if let Some(m) = needle.match_at(bytes, at as usize) {
                        let said = needle.describe(&m, bytes);
                        if let Some(message) = &mut self.message {
                            message.cut_from = Some(message.text.len());
                            message.text.push_str(&format!(": {said}"));
                        }
                        self.lookalike_match = Some((needle, m));
                    }
                }
            }
            JobEvent::Wrote(result) => {
                self.job = None;
                let retry = self.write_retry.take();
                match (result, retry) {
                    (Ok(text), _) => self.say(text, false),
                    // The form again, as it was, to mend the path or policy: keys typed
                    // for the view meanwhile are dropped, not acted on under the form
                    // (where `R` would put its word in place of the cause).
                    (Err(cause), Some((form, prompt, name))) => {
                        self.write = Some(form);
                        self.prompt = Some(prompt);
                        self.deferred.clear();
                        self.held.clear();
                        self.say_write_error(&name, &cause);
                    }
                    (Err(cause), None) => self.say(format!("write: {cause}"), true),
                }
                self.write_said = self.message.clone();
            }
            JobEvent::Cancelled => {
                let what = job.what.clone();
                self.job = None;
                self.write_retry = None;
                self.deferred.clear();
                self.held.clear();
                self.say(format!("{what}: cancelled"), false);
            }
        }
        self.replay_deferred();
        if self.job.is_none() {
            // Every key typed during the write has acted: what the last of them said
            // follows what the write did.
            if let Some(said) = self.write_said.take() {
                self.message = Some(match self.message.take() {
                    Some(after) if after != said => said.then(after),
                    _ => said,
                });
            }
        }
    }

    /// Moves to what a search found, and says so.
    fn found(&mut self, what: &str, found: Option<u64>) {
        match found {
            Some(offset) => {
                self.cursor = offset.min(self.last());
                self.say(
                    format!("{what}: found at {}", self.format_offset(offset)),
                    false,
                );
            }
            None => self.say(format!("{what}: none found"), false),
        }
    }

    /// Whether a key, read as `action` in the current mode, waits for the running worker
    /// as typed ([`App::hold`]): while one runs, every key from the first that does not
    /// quit, suspend or cancel (`q` after a `/` is a letter of the search, not a quit), but
    /// Ctrl-C, which always quits.
    pub fn holds(&self, event: &ratatui::crossterm::event::Event, action: Option<&Action>) -> bool {
        use ratatui::crossterm::event::{Event, KeyCode, KeyEventKind, KeyModifiers};
        if self.job.is_none() || self.layout().is_none() {
            return false;
        }
        match event {
            Event::Key(key) if key.kind == KeyEventKind::Release => return false,
            Event::Key(key)
                if key.modifiers.contains(KeyModifiers::CONTROL)
                    && key.code == KeyCode::Char('c') =>
            {
                return false
            }
            // The screen follows the terminal at once.
            Event::Resize(..) => return false,
            _ => {}
        }
        !self.held.is_empty()
            || action.is_some_and(|a| !matches!(a, Action::Quit | Action::Suspend | Action::Cancel))
    }

    /// Keeps a key for when the running worker is done ([`App::holds`]).
    pub fn hold(&mut self, event: ratatui::crossterm::event::Event) {
        if self.held.len() < DEFERRED_MAX {
            self.held.push_back(event);
        }
    }

    /// Replays keys typed during a search, until one starts another search.
    fn replay_deferred(&mut self) {
        while self.job.is_none() {
            let Some((action, steps)) = self.deferred.pop_front() else {
                break;
            };
            // One step of a count now; the rest stays first in line.
            if steps > 1 {
                self.deferred.push_front((action.clone(), steps - 1));
            }
            let counted = steps > 0;
            let message = self.message.take();
            let wrapped_before = counted && self.count_wrapped;
            self.replaying_count = counted;
            self.update(action);
            self.replaying_count = false;
            // The search this step started, if it started one, carries the count's wrap.
            if let Some(job) = &mut self.job {
                job.wrapped_before = wrapped_before;
            }
            if self.message.is_none() {
                self.message = message;
            }
        }
        while self.job.is_none() {
            let Some(event) = self.held.pop_front() else {
                break;
            };
            let Some(action) = super::keymap::action(&event, self.mode()) else {
                continue;
            };
            let message = self.message.take();
            self.update(action);
            if self.message.is_none() {
                self.message = message;
            }
        }
    }

    /// An offset as the status line writes it: hex `0x…` or decimal.
    pub fn format_offset(&self, offset: u64) -> String {
        if self.decimal {
            offset.to_string()
        } else {
            format!("0x{offset:X}")
        }
    }
}

/// What the status line says about an input whose byte order mark names another encoding
/// than the one it is read in, when it opens or the encoding is switched: that `e` reads it
/// in the encoding the mark names. In UTF-16, UTF-32 and the legacy encodings, in the words
/// of `check`'s note ([`crate::detect::bom::Contradiction`]); in the UTF-8 family, where
/// the mark of UTF-16 or UTF-32 is read byte by byte, shorter.
fn bom_note(bytes: &[u8], dialect: Dialect) -> Option<String> {
    use crate::detect::bom::{Bom, Contradiction};
    if dialect.code_unit_width().is_some() {
        let found = Contradiction::of(dialect, bytes)?;
        return Some(format!(
            "{}: e reads it as {}",
            found.claim(),
            found.bom.encoding()
        ));
    }
    // Unicode's marks only: `e` reads no UTF-7 or GB18030.
    let Some(bom) = crate::decode::Bom::detect(bytes).map(Bom::from) else {
        // No mark: UTF-16 or UTF-32 by its zero bytes, as `check`'s hint reads them (the
        // viewer's scan has not begun).
        let wide = crate::detect::wide_without_mark(bytes, None)?;
        return Some(format!(
            "zero bytes where {0} puts them, and no byte order mark: e reads it as {0}",
            wide.name()
        ));
    };
    if bom == Bom::Utf8 {
        return None;
    }
    let name = bom.encoding();
    // UTF-8 behind a UTF-16 mark: read as UTF-16 it would be CJK characters of ASCII
    // pairs (detect says the same).
    let utf16 = matches!(bom, Bom::Utf16Le | Bom::Utf16Be);
    if utf16 && crate::detect::utf8_after_utf16_bom(bytes, bom.len()) {
        return Some(format!(
            "starts with a {name} byte order mark, but valid UTF-8 follows it: the mark's bytes are its errors"
        ));
    }
    Some(format!(
        "starts with a {name} byte order mark: e reads it as {name}"
    ))
}

/// What the status line says at the start about a stream read in part.
fn partial_note(partial: Partial, len: u64) -> String {
    let size = super::draw::short_size(len);
    match partial {
        Partial::Bound(_) => format!(
            "stopped reading at {size}, the viewer's bound for a stream: the rest is not shown"
        ),
        Partial::Stopped => {
            format!("stopped reading at {size} (Enter); what came later is not shown")
        }
    }
}

/// Where a search's pattern is in `what` (`search "abc"`, `search lookalike "../"`,
/// `search 41 42`): the text between the quotes, or a hex label whole. The part of a
/// search's message that may be shortened.
fn label_range(what: &str, label: &str) -> Option<std::ops::Range<usize>> {
    let start = what.find(label)?;
    let (open, close) = match label.ends_with('"') {
        true => (label.find('"')? + 1, 1),
        false => (0, 0),
    };
    Some(start + open..start + label.len().saturating_sub(close).max(open))
}

/// Typed text in quotes for a message: `"x"`. The text goes through the sanitiser on its
/// own, before the quotes are put around it, so that a combining mark typed first is
/// escaped (`"\u{301}x"`) instead of sitting on the quote.
fn quoted(text: &str) -> String {
    format!("\"{}\"", crate::view::safe::sanitize(text))
}

fn hex_label(bytes: &[u8]) -> String {
    let parts: Vec<String> = bytes.iter().map(|b| format!("{b:02X}")).collect();
    parts.join(" ")
}

/// Parses a go-to target: a decimal offset, `0x` hex, `N%` of the size, or `+N` / `-N`
/// relative to `cursor`. The result is clamped to the last byte.
///
/// ```
/// use hexrune::tui::parse_offset;
/// assert_eq!(parse_offset("0x10", 0, 100), Ok(16));
/// assert_eq!(parse_offset("50%", 0, 100), Ok(50));
/// assert_eq!(parse_offset("-0x2", 10, 100), Ok(8));
/// assert_eq!(parse_offset("+5", 10, 100), Ok(15));
/// assert_eq!(parse_offset("1000", 0, 100), Ok(99));
/// assert!(parse_offset("x", 0, 100).is_err());
/// ```
pub fn parse_offset(text: &str, cursor: u64, len: u64) -> Result<u64, String> {
    Ok(parse_target(text, cursor, len)?.min(len.saturating_sub(1)))
}

/// [`parse_offset`] without the clamp: the offset asked for, which may lie past the end.
///
/// ```
/// use hexrune::tui::app::parse_target;
/// assert_eq!(parse_target("1000", 0, 100), Ok(1000));
/// assert_eq!(parse_target("+0x10", 95, 100), Ok(111));
/// assert_eq!(parse_target("100%", 0, 100), Ok(99));
/// assert_eq!(parse_target("99999999999999999999999", 0, 100), Ok(u64::MAX));
/// ```
pub fn parse_target(text: &str, cursor: u64, len: u64) -> Result<u64, String> {
    let text = text.trim();
    let number = |s: &str| -> Result<u64, String> {
        let s = s.replace('_', "");
        let parsed = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
            Some(hex) => u64::from_str_radix(hex, 16),
            None => s.parse::<u64>(),
        };
        match parsed {
            // Digits enough to pass any end: past it, not "not an offset".
            Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Ok(u64::MAX),
            parsed => {
                parsed.map_err(|_| format!("not an offset: {}", crate::view::glyph::sanitize(text)))
            }
        }
    };
    let target = if let Some(percent) = text.strip_suffix('%') {
        if percent.trim().is_empty() {
            return Err("a percentage needs a number before the %: 50%".to_string());
        }
        let p: f64 = percent
            .trim()
            .parse()
            .ok()
            .filter(|p: &f64| (0.0..=100.0).contains(p))
            .ok_or_else(|| "a percentage is 0 to 100".to_string())?;
        // 100% is the last byte, not past it.
        (((len as f64) * p / 100.0) as u64).min(len.saturating_sub(1))
    } else if let Some(rest) = text.strip_prefix('+') {
        cursor.saturating_add(number(rest)?)
    } else if let Some(rest) = text.strip_prefix('-') {
        cursor.saturating_sub(number(rest)?)
    } else {
        number(text)?
    };
    Ok(target)
}

impl Drop for App {
    /// A scan nobody will look at stops (the viewer quit, a test ended).
    fn drop(&mut self) {
        self.cancel_scan();
        self.linting.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ready(bytes: &[u8], dialect: Dialect) -> App {
        let summary = Summary::build(dialect, bytes, 1, &Progress::new()).unwrap();
        let source = Source::from_bytes("t", bytes.to_vec());
        App::with_summary(source, summary, Rect::new(0, 0, 120, 30), false)
    }

    /// Before the scan is done, a far offset in a multi-byte encoding with no sync byte is
    /// decoded to once: its unit's start is kept, and an offset after it (the next frame's
    /// rows, a key) starts from there; the units are those of one decode from the start.
    #[test]
    fn a_far_decode_in_a_multi_byte_encoding_is_kept_for_what_follows() {
        let dialect = crate::encoding::resolve("shift_jis").unwrap();
        // Pairs 81 80 (no character: an error) and 88 9F (亜) and lone A5 (ｵ), no sync byte.
        let bytes: Vec<u8> = b"\x88\x9F\xA5\x81\x80".repeat(600_000);
        let source = Source::from_bytes("t", bytes.clone());
        let app = App::new(source, dialect, Rect::new(0, 0, 120, 30), false);
        assert!(app.summary().is_none());
        let far = bytes.len() - 7;
        let want = dialect.resync(&bytes, far, None).unit;
        assert_eq!(app.unit_at(far), want);
        let kept = app.resync_memo.get().map(|(_, c)| c.at);
        assert_eq!(kept, Some(want.start));
        // Near offsets are found from it, and are the units one decode gives.
        for offset in far..bytes.len() {
            assert_eq!(
                app.unit_at(offset),
                dialect.resync(&bytes, offset, None).unit
            );
        }
        assert_eq!(
            app.checkpoint_before(far + 3).map(|c| c.at),
            Some(want.start)
        );
        // One before it, far from the start, is decoded to once more and kept instead.
        let before = dialect.resync(&bytes, far - 3, None).unit;
        assert_eq!(app.unit_at(far - 3), before);
        assert_eq!(app.resync_memo.get().map(|(_, c)| c.at), Some(before.start));
        // Offsets before it are decoded from where they are (the start, here), not kept.
        assert_eq!(app.unit_at(10), dialect.resync(&bytes, 10, None).unit);
        assert_eq!(app.resync_memo.get().map(|(_, c)| c.at), Some(before.start));
        // In UTF-8 there is no checkpoint.
        let utf8 = App::new(
            Source::from_bytes("u", b"abc".to_vec()),
            Dialect::Utf8,
            Rect::new(0, 0, 120, 30),
            false,
        );
        assert_eq!(utf8.checkpoint_before(2), None);
    }

    #[test]
    fn encoding_chooser_offers_the_guess_first_and_switches() {
        let text = "Zürich, naïve café: a sentence long enough to judge by, with more words.";
        let bytes = crate::decode::text_bytes(Dialect::Utf16Le, text);
        let mut app = ready(&bytes, Dialect::Utf8);
        app.update(Action::OpenEncoding);
        assert_eq!(app.encoding_choices.0[0], Dialect::Utf16Le);
        // Detection ran with the scan: its answer comes first.
        assert!(app.detection().is_some());
        assert_eq!(app.encoding_choices.1, "detected");
        assert_eq!(
            app.prompt.as_ref().map(|p| p.kind),
            Some(PromptKind::Encoding { choice: 0 })
        );
        app.update(Action::Submit);
        assert_eq!(app.dialect, Dialect::Utf16Le);
        assert!(matches!(app.scan, Scan::Wanted));
        assert_eq!(
            app.message.as_ref().map(|m| m.text.as_str()),
            Some("encoding: UTF-16, little-endian")
        );
        // Tab steps to the next choice (UTF-8); Enter takes it.
        app.update(Action::OpenEncoding);
        app.update(Action::TogglePattern);
        assert_eq!(
            app.prompt.as_ref().map(|p| p.kind),
            Some(PromptKind::Encoding { choice: 1 })
        );
        app.update(Action::Submit);
        assert_eq!(app.dialect, Dialect::Utf8);
        // A typed label wins over the choice.
        app.update(Action::OpenEncoding);
        for c in "latin2".chars() {
            app.update(Action::Input(c));
        }
        app.update(Action::Submit);
        assert_eq!(app.dialect.name(), "ISO-8859-2");
        // A multi-byte legacy encoding is read too.
        app.update(Action::OpenEncoding);
        for c in "sjis".chars() {
            app.update(Action::Input(c));
        }
        app.update(Action::Submit);
        assert_eq!(app.dialect.name(), "Shift_JIS");
        // An unknown one is said, and changes nothing.
        app.update(Action::OpenEncoding);
        for c in "klingon".chars() {
            app.update(Action::Input(c));
        }
        app.update(Action::Submit);
        assert_eq!(app.dialect.name(), "Shift_JIS");
        let message = app.message.clone().unwrap();
        assert!(message.is_error);
        assert!(
            message.text.starts_with("unknown encoding 'klingon'"),
            "{}",
            message.text
        );
    }

    fn finish(app: &mut App, generation: u64, dialect: Dialect) -> Arc<Findings> {
        let summary = Summary::build(dialect, app.source.bytes(), 1, &Progress::new()).unwrap();
        let verdict = summary.verdict(app.source.bytes());
        let findings = Arc::new(Findings::new(summary, verdict));
        app.update(Action::Scanned(ScanResult {
            generation,
            outcome: Ok(Arc::clone(&findings)),
        }));
        findings
    }

    fn goto(app: &mut App, text: &str) {
        app.update(Action::OpenGoto);
        for c in text.chars() {
            app.update(Action::Input(c));
        }
        app.update(Action::Submit);
    }

    #[test]
    fn the_map_fills_in_while_the_scan_runs() {
        let mut bytes = vec![b'a'; 64 * 1024 * 64];
        bytes[64 * 1024 * 63] = 0xFF;
        let source = Source::from_bytes("t", bytes.clone());
        let mut app = App::new(source, Dialect::Utf8, Rect::new(0, 0, 120, 40), false);
        let (_, dialect, progress) = app.begin_scan().unwrap();
        app.update(Action::ScanProgress {
            done: 0,
            elapsed: Duration::ZERO,
        });
        assert!(!app.map.is_empty());
        assert!(app.map.iter().all(|c| c.counts.is_none()));
        let summary = Summary::build(dialect, &bytes, 1, &progress).unwrap();
        app.update(Action::ScanProgress {
            done: bytes.len() as u64,
            elapsed: Duration::from_millis(5),
        });
        assert_eq!(
            app.map,
            map::map(Some(&summary), &bytes, app.map.len()),
            "every part is scanned: the same map as after the scan"
        );
        assert_eq!(app.map.last().unwrap().shade(), map::Shade::FewErrors);
    }

    #[test]
    fn a_file_truncated_on_disk_is_reported_once() {
        use std::io::Write;
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(&[b'a'; 100_000]).unwrap();
        file.flush().unwrap();
        let source = Source::open(file.path()).unwrap();
        let mut app = App::new(source, Dialect::Utf8, Rect::new(0, 0, 120, 30), false);
        assert_eq!(app.pending_source_action(), None);
        file.as_file().set_len(10).unwrap();
        assert_eq!(app.pending_source_action(), Some(Action::SourceChanged));
        app.update(Action::SourceChanged);
        assert!(app.changed);
        let message = app.message.clone().unwrap();
        assert!(message.is_error);
        assert_eq!(message.text, SHRANK);
        assert_eq!(app.pending_source_action(), None);
        assert!(crate::tui::draw::status_left(&app, 200)
            .contains("97.7 KiB (100000 B), truncated on disk"));
        assert!(matches!(&app.scan, Scan::Failed(e) if e == TRUNCATED));
    }

    /// A viewer on a temporary file holding `content`, which it knows by path (so `R` and
    /// `W` work), and the file, to change on disk.
    fn app_on_file(content: &[u8]) -> (tempfile::NamedTempFile, App) {
        use std::io::Write;
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(content).unwrap();
        file.flush().unwrap();
        let mut app = App::new(
            Source::open(file.path()).unwrap(),
            Dialect::Utf8,
            Rect::new(0, 0, 120, 30),
            false,
        );
        app.input_path = Some(file.path().to_path_buf());
        (file, app)
    }

    #[test]
    fn a_file_that_grew_is_said_once_and_r_reopens_it() {
        use std::io::Write;
        let (mut file, mut app) = app_on_file(b"abc\n");
        app.update(Action::End);
        file.write_all(b"MORE \xFF\n").unwrap();
        file.flush().unwrap();
        assert_eq!(app.pending_source_action(), Some(Action::SourceGrew));
        app.update(Action::SourceGrew);
        assert_eq!(app.message.as_ref().unwrap().text, GREW);
        assert_eq!(app.pending_source_action(), None, "said once");
        assert!(crate::tui::draw::status_left(&app, 200).contains("4 B, grew on disk"));
        app.update(Action::Reopen);
        let name = crate::view::safe::path_name(file.path());
        assert_eq!(
            app.message.as_ref().unwrap().text,
            format!("reopened {name}: 11 B (was 4 B)")
        );
        assert_eq!(app.source.bytes(), b"abc\nMORE \xFF\n");
        assert_eq!(app.cursor, 3, "the same offset");
        assert!(matches!(app.scan, Scan::Wanted), "scanned again");
        assert!(!app.grew);
        assert!(crate::tui::draw::status_left(&app, 200).contains(" 11 B  0x3"));
    }

    #[test]
    fn an_empty_file_that_grew_is_said_once_and_r_reopens_it() {
        use std::io::Write;
        let (mut file, mut app) = app_on_file(b"");
        assert_eq!(app.pending_source_action(), None);
        file.write_all(b"MORE \xFF\n").unwrap();
        file.flush().unwrap();
        assert_eq!(app.pending_source_action(), Some(Action::SourceGrew));
        app.update(Action::SourceGrew);
        let message = app.message.clone().unwrap();
        assert_eq!((message.text.as_str(), message.is_error), (GREW, false));
        assert_eq!(app.pending_source_action(), None, "said once");
        let name = crate::view::safe::path_name(file.path());
        assert_eq!(
            crate::tui::draw::status_left(&app, 200),
            format!(" {name}  0 B, grew on disk  \u{2014}  utf8")
        );
        // As for a file that had bytes: no copy of the nothing shown.
        app.update(Action::OpenWrite);
        assert!(app.write.is_none());
        assert_eq!(
            app.message.as_ref().unwrap().text,
            "write: the file changed on disk since it was opened: R reopens it"
        );
        app.update(Action::Reopen);
        assert_eq!(
            app.message.as_ref().unwrap().text,
            format!("reopened {name}: 7 B (was 0 B)")
        );
        assert_eq!(app.source.bytes(), b"MORE \xFF\n");
        assert!(!app.grew);
        assert!(matches!(app.scan, Scan::Wanted), "scanned again");
        assert_eq!(
            crate::tui::draw::status_left(&app, 200),
            format!(" {name}  7 B  0x0 (0)  14%  utf8")
        );
    }

    /// [`app_on_file`], the file's modification time set in the past first, so that a
    /// write moves it however coarse the file system's clock; the scan done.
    fn scanned_app_on_old_file(content: &[u8]) -> (tempfile::NamedTempFile, App) {
        let (file, _) = app_on_file(content);
        let past = std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
        file.as_file().set_modified(past).unwrap();
        let source = Source::open(file.path()).unwrap();
        let summary = Summary::build(Dialect::Utf8, source.bytes(), 1, &Progress::new()).unwrap();
        let mut app = App::with_summary(source, summary, Rect::new(0, 0, 120, 30), false);
        app.input_path = Some(file.path().to_path_buf());
        (file, app)
    }

    #[test]
    fn a_file_written_in_place_is_said_once_and_the_scan_is_dropped() {
        use std::os::unix::fs::FileExt;
        // The review's file: ASCII, then one byte made invalid in place, the size the same.
        let (file, mut app) = scanned_app_on_old_file(b"hello world, all ascii here\n");
        let name = crate::view::safe::path_name(file.path());
        assert_eq!(app.char_position(), Some((1, 28)));
        assert_eq!(app.pending_source_action(), None);
        file.as_file().write_at(b"\xFF", 6).unwrap();
        assert_eq!(app.source.bytes()[6], 0xFF, "the map shows the new byte");
        assert_eq!(app.pending_source_action(), Some(Action::SourceWritten));
        app.update(Action::SourceWritten);
        let message = app.message.clone().unwrap();
        assert_eq!(
            (message.text.as_str(), message.is_error),
            (
                "file changed on disk (written in place): R reopens it",
                true
            )
        );
        assert_eq!(app.pending_source_action(), None, "said once");
        // What the scan counted is gone: no character numbers, the statistics say why.
        assert_eq!(app.char_position(), None);
        assert_eq!(
            crate::tui::draw::status_left(&app, 200),
            format!(" {name}  28 B, changed on disk  0x0 (0)  3%  utf8")
        );
        assert!(matches!(&app.scan, Scan::Failed(e) if e == REWRITTEN));
        // `]` searches the bytes as they are now, and finds the byte written.
        app.update(Action::NextError);
        while app.job.is_some() {
            let event = app.wait_job_event().unwrap();
            app.update(Action::Job(event));
        }
        assert_eq!(app.cursor, 6);
        assert_eq!(
            app.message.as_ref().unwrap().text,
            "next error: found at 0x6"
        );
        app.update(Action::NextFinding);
        assert_eq!(
            app.message.as_ref().unwrap().text,
            "next finding: the file changed on disk: R reopens it"
        );
        app.update(Action::OpenWrite);
        assert!(app.write.is_none());
        assert_eq!(
            app.message.as_ref().unwrap().text,
            "write: the file changed on disk since it was opened: R reopens it"
        );
        app.update(Action::Reopen);
        assert_eq!(
            app.message.as_ref().unwrap().text,
            format!("reopened {name}: 28 B (was 28 B)")
        );
        assert!(!app.written);
        assert!(matches!(app.scan, Scan::Wanted), "scanned again");
        assert_eq!(app.pending_source_action(), None);
    }

    #[test]
    fn a_file_replaced_by_a_rename_is_said_once_and_r_opens_the_new_one() {
        let (file, mut app) = scanned_app_on_old_file(b"twelve bytes");
        let name = crate::view::safe::path_name(file.path());
        let new = file.path().with_extension("new");
        std::fs::write(&new, "a new file of 22 B \u{FFFD}").unwrap();
        std::fs::rename(&new, file.path()).unwrap();
        assert_eq!(app.pending_source_action(), Some(Action::SourceReplaced));
        app.update(Action::SourceReplaced);
        let message = app.message.clone().unwrap();
        assert_eq!(
            (message.text.as_str(), message.is_error),
            (
                "file replaced on disk (its path names a new file): R opens it",
                false
            )
        );
        assert_eq!(app.pending_source_action(), None, "said once");
        // The file shown is the one opened, unchanged: what the scan found still holds.
        assert_eq!(app.source.bytes(), b"twelve bytes");
        assert_eq!(app.char_position(), Some((1, 12)));
        assert_eq!(
            crate::tui::draw::status_left(&app, 200),
            format!(" {name}  12 B, replaced on disk  0x0 (0)  8%  utf8  char 1 of 12")
        );
        app.update(Action::Reopen);
        assert_eq!(
            app.message.as_ref().unwrap().text,
            format!("reopened {name}: 22 B (was 12 B)")
        );
        assert_eq!(app.source.bytes(), "a new file of 22 B \u{FFFD}".as_bytes());
        assert!(!app.replaced);
        assert_eq!(app.pending_source_action(), None);
    }

    /// A path that names nothing now is said once; the view keeps the file it opened, and
    /// a file put in its place later is said to replace it.
    #[test]
    fn a_file_removed_is_said_once_and_then_a_new_one_in_its_place() {
        let (file, mut app) = scanned_app_on_old_file(b"twelve bytes");
        let name = crate::view::safe::path_name(file.path());
        let path = file.path().to_path_buf();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(app.pending_source_action(), Some(Action::SourceRemoved));
        app.update(Action::SourceRemoved);
        let message = app.message.clone().unwrap();
        assert_eq!(
            (message.text.as_str(), message.is_error),
            (
                "file removed from disk (its path names nothing now): the view keeps the bytes it opened",
                false
            )
        );
        assert_eq!(app.pending_source_action(), None, "said once");
        assert_eq!(app.source.bytes(), b"twelve bytes");
        assert_eq!(app.char_position(), Some((1, 12)));
        assert_eq!(
            crate::tui::draw::status_left(&app, 200),
            format!(" {name}  12 B, removed from disk  0x0 (0)  8%  utf8  char 1 of 12")
        );
        std::fs::write(&path, "back").unwrap();
        assert_eq!(app.pending_source_action(), Some(Action::SourceReplaced));
        app.update(Action::SourceReplaced);
        assert!(app.replaced && !app.removed);
        assert_eq!(app.pending_source_action(), None);
    }

    #[test]
    fn a_report_acts_while_the_terminal_is_too_small() {
        use std::io::Write;
        let (mut file, mut app) = app_on_file(b"abc\n");
        app.update(Action::Resize {
            width: 10,
            height: 3,
        });
        assert!(app.layout().is_none());
        file.write_all(b"more\n").unwrap();
        file.flush().unwrap();
        app.update(app.pending_source_action().unwrap());
        assert!(app.grew, "said once, not every half second");
        app.update(Action::Reopen);
        assert_eq!(app.source.len(), 4, "a key does not act unseen");
    }

    /// `o` does not make the terminal too small (decimal offsets are wider than hex
    /// ones), and where a resize did, `o` back to hex acts.
    #[test]
    fn decimal_offsets_never_leave_the_terminal_too_small() {
        let (_file, mut app) = app_on_file(&[b'a'; 1000]);
        let resize = |app: &mut App, width| app.update(Action::Resize { width, height: 12 });
        resize(&mut app, 43);
        app.update(Action::ToggleDecimal);
        assert!(!app.decimal && app.layout().is_some());
        assert_eq!(
            app.message.as_ref().map(|m| m.text.as_str()),
            Some("decimal offsets need 45 columns")
        );
        resize(&mut app, 45);
        app.update(Action::ToggleDecimal);
        assert!(app.decimal && app.layout().is_some());
        resize(&mut app, 43);
        assert!(app.layout().is_none());
        app.update(Action::ToggleDecimal);
        assert!(!app.decimal && app.layout().is_some());
        // Too small for hex offsets too: `o` to decimal does not act unseen.
        resize(&mut app, 20);
        app.update(Action::ToggleDecimal);
        assert!(!app.decimal);
    }

    #[test]
    fn a_file_truncated_and_written_again_is_reopened_and_never_written_from_zeros() {
        use std::io::{Seek, Write};
        let (mut file, mut app) = app_on_file(&b"old line\n".repeat(10_000));
        app.update(Action::End);
        file.as_file().set_len(0).unwrap();
        file.as_file().rewind().unwrap();
        file.write_all(b"new line\n").unwrap();
        file.flush().unwrap();
        // A copy of what the map holds now would be zeros: refused, before the form opens.
        app.update(Action::OpenWrite);
        assert!(app.write.is_none());
        let message = app.message.clone().unwrap();
        assert!(message.is_error);
        assert_eq!(
            message.text,
            "write: the file was truncated on disk since it was opened: R reopens it"
        );
        assert_eq!(app.pending_source_action(), Some(Action::SourceChanged));
        app.update(Action::SourceChanged);
        assert_eq!(app.message.as_ref().unwrap().text, SHRANK);
        app.update(Action::Reopen);
        assert_eq!(app.source.bytes(), b"new line\n");
        assert_eq!(app.cursor, 8, "the new last byte");
        assert!(!app.changed);
        assert!(matches!(app.scan, Scan::Wanted));
        assert_eq!(app.pending_source_action(), None);
        app.update(Action::OpenWrite);
        assert!(app.write.is_some(), "the bytes are the file's again");
    }

    #[test]
    fn w_is_refused_on_a_file_written_to_and_r_names_what_is_gone() {
        use std::io::{Seek, Write};
        let (mut file, mut app) = app_on_file(&b"x".repeat(280_000));
        // Rewritten in place and longer: the map shows new bytes and old, mixed.
        file.as_file().set_len(0).unwrap();
        file.as_file().rewind().unwrap();
        file.write_all(&b"\xFF".repeat(280_007)).unwrap();
        file.flush().unwrap();
        app.update(Action::OpenWrite);
        assert!(app.write.is_none());
        assert_eq!(
            app.message.as_ref().unwrap().text,
            "write: the file changed on disk since it was opened: R reopens it"
        );
        app.update(Action::Reopen);
        let name = crate::view::safe::path_name(file.path());
        assert_eq!(
            app.message.as_ref().unwrap().text,
            format!("reopened {name}: 280007 B (was 280000 B)"),
            "in bytes where the short sizes read alike"
        );
        let path = file.path().to_path_buf();
        drop(file);
        app.update(Action::Reopen);
        assert_eq!(
            app.message.as_ref().unwrap().text,
            format!("reopen: {name}: no such file or directory")
        );
        assert_eq!(app.source.len(), 280_007, "the view stays as it was");
        assert!(!path.exists());
    }

    #[test]
    fn two_messages_in_turn_keep_the_parts_that_give_way() {
        let wrote = Message {
            text: "wrote a.txt: 1 unit changed (replace), 4 bytes".to_string(),
            is_error: false,
            elide: None,
            cut_from: None,
        };
        let found = Message {
            text: "search \"ab\": found at 0x1: overlong".to_string(),
            is_error: true,
            elide: Some(8..10),
            cut_from: Some(25),
        };
        let both = wrote.then(found);
        assert_eq!(
            both.text,
            "wrote a.txt: 1 unit changed (replace), 4 bytes; search \"ab\": found at 0x1: overlong"
        );
        assert!(both.is_error);
        assert_eq!(both.elide.clone().map(|r| &both.text[r]), Some("ab"));
        assert_eq!(both.cut_from.map(|at| &both.text[at..]), Some(": overlong"));
    }

    #[test]
    fn r_says_why_the_demo_is_not_reopened() {
        let source = Source::from_bytes("demo", b"abc".to_vec());
        let mut app = App::new(source, Dialect::Utf8, Rect::new(0, 0, 120, 30), false);
        app.update(Action::Reopen);
        assert_eq!(
            app.message.as_ref().unwrap().text,
            "R reopens a file; the demo is built in"
        );
    }

    #[test]
    fn r_says_why_standard_input_is_not_reopened() {
        let source = Source::from_bytes("<stdin>", b"abc".to_vec());
        let mut app = App::new(source, Dialect::Utf8, Rect::new(0, 0, 120, 30), false);
        app.update(Action::Reopen);
        let message = app.message.clone().unwrap();
        assert!(message.is_error);
        assert_eq!(
            message.text,
            "R reopens a file; this input was read from standard input"
        );
        assert_eq!(app.source.bytes(), b"abc");
    }

    #[test]
    fn a_dialect_change_cancels_the_scan_and_wants_another() {
        let source = Source::from_bytes("t", b"a\xED\xA0\xBD\xED\xB8\x80b".to_vec());
        let mut app = App::new(source, Dialect::Utf8, Rect::new(0, 0, 120, 30), false);
        assert!(matches!(app.scan, Scan::Wanted));
        let (first, dialect, progress) = app.begin_scan().unwrap();
        assert_eq!((first, dialect), (1, Dialect::Utf8));
        assert!(app.begin_scan().is_none(), "one scan at a time");
        app.update(Action::ScanProgress {
            done: 4,
            elapsed: Duration::from_millis(300),
        });
        assert!(matches!(&app.scan, Scan::Running(run) if run.done == 4));
        app.update(Action::NextDialect);
        assert!(progress.is_cancelled());
        assert!(matches!(app.scan, Scan::Wanted));
        let (second, dialect, _) = app.begin_scan().unwrap();
        assert_eq!((second, dialect), (2, Dialect::Cesu8));
        // The first scan's result, had it got through, is stale.
        finish(&mut app, first, Dialect::Utf8);
        assert!(matches!(app.scan, Scan::Running(_)));
        assert_eq!(app.summary().map(|s| s.dialect), None);
        finish(&mut app, second, Dialect::Cesu8);
        assert_eq!(app.summary().map(|s| s.dialect), Some(Dialect::Cesu8));
        assert_eq!(app.verdict(), Some(Verdict::Valid(Dialect::Cesu8)));
        // Switching again drops the summary; the same dialect keeps it.
        app.update(Action::PrevDialect);
        assert!(matches!(app.scan, Scan::Wanted));
        assert!(app.summary().is_none());
    }

    #[test]
    fn quitting_cancels_the_scan() {
        let mut app = App::new(
            Source::from_bytes("t", vec![b'a'; 100]),
            Dialect::Utf8,
            Rect::new(0, 0, 80, 24),
            false,
        );
        let (_, _, progress) = app.begin_scan().unwrap();
        app.update(Action::Quit);
        assert!(app.quit);
        assert!(progress.is_cancelled());
    }

    #[test]
    fn scan_reports_never_clear_a_message_or_wait_for_a_search() {
        let mut app = App::new(
            Source::from_bytes("t", vec![b'a'; 100]),
            Dialect::Utf8,
            Rect::new(0, 0, 80, 24),
            false,
        );
        let (generation, _, _) = app.begin_scan().unwrap();
        app.update(Action::NextDialect);
        app.update(Action::PrevDialect);
        let (generation2, _, _) = app.begin_scan().unwrap();
        assert_eq!(generation2, generation + 1);
        app.update(Action::ScanProgress {
            done: 50,
            elapsed: Duration::from_millis(10),
        });
        assert_eq!(
            app.message.as_ref().map(|m| m.text.as_str()),
            Some("dialect: UTF-8 (RFC 3629)")
        );
        finish(&mut app, generation2, Dialect::Utf8);
        assert!(app.summary().is_some());
        assert!(app.message.is_some());
    }

    #[test]
    fn go_to_character_n() {
        // Characters: a, é, C0, AF, €, E2 82 (truncated at the end) = 6.
        let mut bytes = "aé".as_bytes().to_vec();
        bytes.extend(b"\xC0\xAF");
        bytes.extend("€".bytes());
        bytes.extend(b"\xE2\x82");
        let mut app = ready(&bytes, Dialect::Utf8);
        let cases = [
            ("#1", 0),
            ("#2", 1),
            ("#3", 3),
            ("#4", 4),
            ("#5", 5),
            ("#6", 8),
        ];
        for (text, offset) in cases {
            goto(&mut app, text);
            assert_eq!(app.cursor, offset, "{text}");
            assert_eq!(app.message, None, "{text}");
            let n: u64 = text[1..].parse().unwrap();
            assert_eq!(app.char_position(), Some((n, 6)), "{text}");
        }
        goto(&mut app, "# 1_0");
        assert_eq!(
            app.message.as_ref().map(|m| m.text.as_str()),
            Some("there are only 6 characters")
        );
        goto(&mut app, "#0");
        assert_eq!(
            app.message.as_ref().map(|m| m.text.as_str()),
            Some("characters are numbered from 1")
        );
        goto(&mut app, "#x");
        assert_eq!(
            app.message.as_ref().map(|m| m.text.as_str()),
            Some("not a character number: x")
        );
        goto(&mut app, "#");
        assert_eq!(
            app.message.as_ref().map(|m| m.text.as_str()),
            Some("a character number after #: :#100 goes to the 100th")
        );
        // Before the scan, no numbers at all.
        let mut early = App::new(
            Source::from_bytes("t", bytes.clone()),
            Dialect::Utf8,
            Rect::new(0, 0, 120, 30),
            false,
        );
        assert_eq!(early.char_position(), None);
        goto(&mut early, "#2");
        assert_eq!(early.cursor, 0);
        assert_eq!(
            early.message.as_ref().map(|m| m.text.as_str()),
            Some("character numbers are known once the scan is done")
        );
    }

    #[test]
    fn error_jumps_use_the_index_once_it_is_there() {
        let mut bytes = vec![b'.'; 3 << 20];
        bytes[10] = 0xFF;
        bytes[(3 << 20) - 5] = 0x80;
        let mut app = ready(&bytes, Dialect::Utf8);
        app.update(Action::NextError);
        assert!(app.job.is_none(), "no worker");
        assert_eq!(app.cursor, 10);
        app.update(Action::NextError);
        assert!(app.job.is_none());
        assert_eq!(app.cursor, (3 << 20) - 5);
        app.update(Action::NextError);
        assert_eq!(
            app.message.as_ref().map(|m| m.text.as_str()),
            Some("next error: none found")
        );
        app.update(Action::PrevError);
        assert_eq!(app.cursor, 10);
        assert_eq!(
            app.message.as_ref().map(|m| m.text.as_str()),
            Some("previous error: found at 0xA")
        );
    }

    /// `count` then `action`, and every worker step of it run to its end.
    fn counted(app: &mut App, count: u32, action: Action) {
        for d in count.to_string().bytes() {
            app.update(Action::Digit(d - b'0'));
        }
        app.update(action);
        while app.job.is_some() {
            let event = app.wait_job_event().expect("worker reports");
            app.update(Action::Job(event));
        }
    }

    /// A count larger than the queue of keys waiting for a worker is kept whole: `60]`
    /// before the scan is done moves 60 errors (it moved 33, the queue's length and the
    /// first step, saying nothing), and `60[` back.
    #[test]
    fn a_count_waiting_for_workers_is_not_cut_to_the_queue() {
        // 100 error units, at 0x1, 0x3, ... 0xC7.
        let bytes = b"a\xff".repeat(100);
        let source = Source::from_bytes("t", bytes.clone());
        let mut app = App::new(source, Dialect::Utf8, Rect::new(0, 0, 120, 30), false);
        counted(&mut app, 60, Action::NextError);
        assert_eq!(app.cursor, 2 * 60 - 1);
        let said = app.message.as_ref().map(|m| m.text.clone());
        assert_eq!(said.as_deref(), Some("next error: found at 0x77"));
        counted(&mut app, 45, Action::PrevError);
        assert_eq!(app.cursor, 2 * 15 - 1);
        let mut ready = ready(&bytes, Dialect::Utf8);
        counted(&mut ready, 60, Action::NextError);
        assert_eq!(ready.cursor, 2 * 60 - 1);
    }

    #[test]
    fn a_count_of_errors_past_the_last_says_where_it_stopped() {
        // 15 error units, the first at 0x1 and the last at 0x19.
        let bytes = b"a\xf0\x9f\x98b\xe0\x80\xafc\xed\xa0\x80d\xf4\x90\x80\x80e\xf1\x80f\xc2g\xe1\x80\xe2h\n";
        let said = |app: &App| app.message.as_ref().map(|m| m.text.clone());
        // From the index (the scan done) and on workers (before it): the same.
        let fresh = || {
            let source = Source::from_bytes("t", bytes.to_vec());
            App::new(source, Dialect::Utf8, Rect::new(0, 0, 120, 30), false)
        };
        for mut app in [ready(bytes, Dialect::Utf8), fresh()] {
            counted(&mut app, 99, Action::NextError);
            assert_eq!(app.cursor, 0x19);
            assert_eq!(
                said(&app).as_deref(),
                Some("next error: found at 0x19 (the last; 15 of 99)")
            );
            // At the last, a step alone (or a count) finds none and stays.
            counted(&mut app, 1, Action::NextError);
            assert_eq!(said(&app).as_deref(), Some("next error: none found"));
            counted(&mut app, 5, Action::NextError);
            assert_eq!(
                (app.cursor, said(&app).as_deref()),
                (0x19, Some("next error: none found"))
            );
            counted(&mut app, 20, Action::PrevError);
            assert_eq!(app.cursor, 0x1);
            assert_eq!(
                said(&app).as_deref(),
                Some("previous error: found at 0x1 (the first; 14 of 20)")
            );
            // A count that all its steps use says where it is, as one step does.
            counted(&mut app, 14, Action::NextError);
            assert_eq!(
                (app.cursor, said(&app).as_deref()),
                (0x19, Some("next error: found at 0x19"))
            );
            // A count of n that finds nothing stops at its first step, not after each of
            // them has searched the whole input again.
            app.last_search = Some(Pattern {
                bytes: b"zz".to_vec(),
                label: quoted("zz"),
                backward: false,
                lookalike: None,
                anchor: Anchor::Text("zz".to_string()),
            });
            app.update(Action::Digit(9));
            app.update(Action::RepeatSearch { reverse: false });
            loop {
                let event = app.wait_job_event().expect("worker reports");
                let done = matches!(event, JobEvent::Done(_));
                app.update(Action::Job(event));
                if done {
                    break;
                }
            }
            assert!(app.job.is_none(), "no second step");
            assert_eq!(said(&app).as_deref(), Some("search \"zz\": none found"));
            // Decimal offsets too.
            app.update(Action::ToggleDecimal);
            counted(&mut app, 3, Action::PrevError);
            counted(&mut app, 7, Action::NextError);
            assert_eq!(
                said(&app).as_deref(),
                Some("next error: found at 25 (the last; 3 of 7)")
            );
        }
    }

    #[test]
    fn a_click_on_the_map_jumps_to_its_part() {
        let bytes = vec![b'a'; 100_000];
        let mut app = ready(&bytes, Dialect::Utf8);
        let strip = app.layout().unwrap().map.unwrap();
        assert_eq!(app.map.len(), strip.height as usize);
        let i = strip.height as usize / 2;
        let start = app.map[i].range.start;
        app.update(Action::Click {
            x: strip.x + 1,
            y: strip.y + i as u16,
        });
        assert_eq!(app.cursor, start);
        assert_eq!(app.top, start / 16 * 16);
        // A resize makes as many cells as the new strip has rows.
        app.update(Action::Resize {
            width: 120,
            height: 20,
        });
        let strip = app.layout().unwrap().map.unwrap();
        assert_eq!(app.map.len(), strip.height as usize);
    }
}
