//! The app's state and its one mutation, [`App::update`].
//!
//! Long work (error and pattern searches) runs on a worker thread that reports over a
//! channel; the event loop feeds those reports back in as [`Action::Job`], so every change
//! still goes through `update`.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;
use std::thread;

use ratatui::layout::Rect;

use super::keymap::{Action, Mode};
use super::layout::{layout, Layout};
use super::search::{self, Cancelled, Control};
use crate::decode::Dialect;
use crate::source::Source;

/// What a worker reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JobEvent {
    /// The offset the worker has reached.
    Progress(u64),
    /// The search ended: the offset found, if any.
    Done(Option<u64>),
    /// The search stopped because it was cancelled.
    Cancelled,
}

/// A running worker.
pub struct Job {
    /// What it is doing, for the status line ("next error").
    pub what: String,
    /// The offset it has reached.
    pub reached: u64,
    /// Where it started.
    pub from: u64,
    /// Whether it goes towards the start.
    pub backward: bool,
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
}

/// An open prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt {
    /// What it asks for.
    pub kind: PromptKind,
    /// What has been typed.
    pub input: String,
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
}

/// A line for the status bar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// The text (from hexrune, or sanitised before display).
    pub text: String,
    /// Whether it reports a failure.
    pub is_error: bool,
}

/// Everything the screen shows, and nothing of the terminal.
pub struct App {
    /// The input.
    pub source: Arc<Source>,
    /// The dialect the panes decode in.
    pub dialect: Dialect,
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
    /// The key list is shown.
    pub help: bool,
    /// The open prompt.
    pub prompt: Option<Prompt>,
    /// The last message.
    pub message: Option<Message>,
    /// The running worker.
    pub job: Option<Job>,
    /// The last search, for n / N.
    pub last_search: Option<Pattern>,
    /// Set when the user asked to quit.
    pub quit: bool,
    /// Keys typed while a worker ran, replayed in order when it is done (at most
    /// [`DEFERRED_MAX`]): typing `]]]` finds the third error.
    deferred: VecDeque<Action>,
}

/// How many actions typed during a search are kept for after it.
pub const DEFERRED_MAX: usize = 32;

impl App {
    /// A new app over `source`, with the cursor at the start.
    pub fn new(source: Source, dialect: Dialect, size: Rect, color: bool) -> App {
        App {
            source: Arc::new(source),
            dialect,
            cursor: 0,
            top: 0,
            size,
            decimal: false,
            color,
            help: false,
            prompt: None,
            message: None,
            job: None,
            last_search: None,
            quit: false,
            deferred: VecDeque::new(),
        }
    }

    /// The mode the keymap works in.
    pub fn mode(&self) -> Mode {
        if self.prompt.is_some() {
            Mode::Prompt
        } else if self.job.is_some() {
            Mode::Busy
        } else if self.help {
            Mode::Help
        } else {
            Mode::Normal
        }
    }

    /// The current layout, if the terminal is big enough.
    pub fn layout(&self) -> Option<Layout> {
        layout(self.size, self.source.len(), self.decimal)
    }

    fn len(&self) -> u64 {
        self.source.len()
    }

    fn per_row(&self) -> u64 {
        self.layout().map_or(16, |l| l.bytes_per_row) as u64
    }

    fn rows_shown(&self) -> u64 {
        self.layout().map_or(1, |l| l.rows.height.max(1)) as u64
    }

    /// The last offset the cursor may take (0 for an empty input).
    fn last(&self) -> u64 {
        self.len().saturating_sub(1)
    }

    /// The one mutation.
    pub fn update(&mut self, action: Action) {
        if self.job.is_some()
            && !matches!(
                action,
                Action::Quit | Action::Cancel | Action::Job(_) | Action::Resize { .. }
            )
        {
            if self.deferred.len() < DEFERRED_MAX {
                self.deferred.push_back(action);
            }
            return;
        }
        if !matches!(action, Action::Job(_) | Action::Resize { .. }) {
            self.message = None;
        }
        match action {
            Action::Quit => self.quit = true,
            Action::Cancel => self.cancel(),
            Action::Help => self.help = !self.help,
            Action::Resize { width, height } => self.size = Rect::new(0, 0, width, height),
            Action::Job(event) => self.job_event(event),
            Action::Input(_) | Action::Backspace | Action::TogglePattern | Action::Submit => {
                self.prompt_edit(action)
            }
            Action::OpenGoto => self.open_prompt(PromptKind::Goto),
            Action::OpenSearch { backward } => self.open_prompt(PromptKind::Search {
                backward,
                hex: false,
            }),
            Action::RepeatSearch { reverse } => self.repeat_search(reverse),
            Action::NextError => self.start_error_search(false),
            Action::PrevError => self.start_error_search(true),
            Action::NextDialect => self.set_dialect(self.dialect.next()),
            Action::PrevDialect => {
                let all = Dialect::ALL;
                let i = all.iter().position(|d| *d == self.dialect).unwrap_or(0);
                self.set_dialect(all[(i + all.len() - 1) % all.len()]);
            }
            Action::ToggleDecimal => self.decimal = !self.decimal,
            Action::Click { x, y } => self.click(x, y),
            Action::ScrollUp => self.scroll(-3),
            Action::ScrollDown => self.scroll(3),
            motion => self.motion(motion),
        }
        self.keep_cursor_in_view();
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
                self.top = (self.top + page).min(self.last() / per_row * per_row);
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
            Action::NextUnit if !bytes.is_empty() => self
                .dialect
                .next_unit(bytes, c as usize)
                .map_or(c, |u| u.start as u64),
            Action::PrevUnit if !bytes.is_empty() => {
                let unit = self.dialect.unit_containing(bytes, c as usize);
                if unit.start as u64 != c {
                    unit.start as u64
                } else {
                    self.dialect
                        .prev_unit(bytes, c as usize)
                        .map_or(c, |u| u.start as u64)
                }
            }
            _ => c,
        };
        self.cursor = target.min(self.last());
    }

    fn scroll(&mut self, rows: i64) {
        let per_row = self.per_row();
        let max_top = self.last() / per_row * per_row;
        self.top = if rows < 0 {
            self.top.saturating_sub(per_row * rows.unsigned_abs())
        } else {
            (self.top + per_row * rows as u64).min(max_top)
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
    }

    fn click(&mut self, x: u16, y: u16) {
        let Some(layout) = self.layout() else { return };
        if y < layout.rows.y || y >= layout.rows.bottom() {
            return;
        }
        let Some(col) = layout.column_at(x) else {
            return;
        };
        let offset = self.top + (y - layout.rows.y) as u64 * layout.bytes_per_row as u64;
        let offset = offset + col as u64;
        if offset < self.len() {
            self.cursor = offset;
        }
    }

    fn set_dialect(&mut self, dialect: Dialect) {
        self.dialect = dialect;
        self.say(format!("dialect: {}", dialect.title()), false);
    }

    fn say(&mut self, text: impl Into<String>, is_error: bool) {
        self.message = Some(Message {
            text: text.into(),
            is_error,
        });
    }

    fn cancel(&mut self) {
        if let Some(job) = &self.job {
            job.cancel.store(true, Ordering::Relaxed);
        } else if self.prompt.is_some() {
            self.prompt = None;
        } else if self.help {
            self.help = false;
        } else {
            self.quit = true;
        }
    }

    fn open_prompt(&mut self, kind: PromptKind) {
        self.prompt = Some(Prompt {
            kind,
            input: String::new(),
        });
    }

    fn prompt_edit(&mut self, action: Action) {
        let Some(prompt) = &mut self.prompt else {
            return;
        };
        match action {
            Action::Input(c) if prompt.input.chars().count() < 256 => prompt.input.push(c),
            Action::Backspace => {
                prompt.input.pop();
            }
            Action::TogglePattern => {
                if let PromptKind::Search { hex, .. } = &mut prompt.kind {
                    *hex = !*hex;
                }
            }
            Action::Submit => {
                let prompt = self.prompt.take().expect("prompt is open");
                self.submit(prompt);
            }
            _ => {}
        }
    }

    fn submit(&mut self, prompt: Prompt) {
        match prompt.kind {
            PromptKind::Goto => match parse_offset(&prompt.input, self.cursor, self.len()) {
                Ok(offset) => self.cursor = offset,
                Err(e) => self.say(e, true),
            },
            PromptKind::Search { backward, hex } => {
                let bytes = if hex {
                    search::parse_hex(&prompt.input)
                } else if prompt.input.is_empty() {
                    Err("nothing to search for".to_string())
                } else {
                    Ok(prompt.input.clone().into_bytes())
                };
                match bytes {
                    Ok(bytes) => {
                        let label = if hex {
                            hex_label(&bytes)
                        } else {
                            format!("\"{}\"", prompt.input)
                        };
                        let pattern = Pattern {
                            bytes,
                            label,
                            backward,
                        };
                        self.start_pattern_search(&pattern, backward);
                        self.last_search = Some(pattern);
                    }
                    Err(e) => self.say(e, true),
                }
            }
        }
    }

    fn repeat_search(&mut self, reverse: bool) {
        match self.last_search.clone() {
            Some(pattern) => self.start_pattern_search(&pattern, pattern.backward != reverse),
            None => self.say("no previous search", true),
        }
    }

    fn start_pattern_search(&mut self, pattern: &Pattern, backward: bool) {
        let needle = pattern.bytes.clone();
        let cursor = self.cursor as usize;
        let what = format!("search {}", pattern.label);
        self.spawn(what, backward, move |bytes, control| {
            if backward {
                search::find_backward(bytes, &needle, cursor, control)
            } else {
                search::find_forward(bytes, &needle, cursor + 1, control)
            }
        });
    }

    fn start_error_search(&mut self, backward: bool) {
        if self.source.is_empty() {
            return;
        }
        let dialect = self.dialect;
        let unit = dialect.unit_containing(self.source.bytes(), self.cursor as usize);
        let what = if backward {
            "previous error"
        } else {
            "next error"
        };
        self.spawn(what.to_string(), backward, move |bytes, control| {
            let found = if backward {
                search::prev_error(bytes, dialect, unit.start, control)?
            } else {
                search::next_error(bytes, dialect, unit.end(), bytes.len(), control)?
            };
            Ok(found.map(|u| u.start))
        });
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
            reached: self.cursor,
            from: self.cursor,
            backward,
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
                self.job = None;
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
            JobEvent::Cancelled => {
                let what = job.what.clone();
                self.job = None;
                self.deferred.clear();
                self.say(format!("{what}: cancelled"), false);
            }
        }
        self.replay_deferred();
    }

    /// Replays keys typed during a search, until one starts another search.
    fn replay_deferred(&mut self) {
        while self.job.is_none() {
            let Some(action) = self.deferred.pop_front() else {
                break;
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
    let text = text.trim();
    let last = len.saturating_sub(1);
    let number = |s: &str| -> Result<u64, String> {
        let s = s.replace('_', "");
        let parsed = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
            Some(hex) => u64::from_str_radix(hex, 16),
            None => s.parse::<u64>(),
        };
        parsed.map_err(|_| format!("not an offset: {}", crate::view::glyph::sanitize(text)))
    };
    let target = if let Some(percent) = text.strip_suffix('%') {
        let p: f64 = percent
            .trim()
            .parse()
            .ok()
            .filter(|p: &f64| (0.0..=100.0).contains(p))
            .ok_or_else(|| "a percentage is 0 to 100".to_string())?;
        ((len as f64) * p / 100.0) as u64
    } else if let Some(rest) = text.strip_prefix('+') {
        cursor.saturating_add(number(rest)?)
    } else if let Some(rest) = text.strip_prefix('-') {
        cursor.saturating_sub(number(rest)?)
    } else {
        number(text)?
    };
    Ok(target.min(last))
}
