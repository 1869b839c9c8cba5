//! Findings in the viewer: what `hexrune check` reports beside error units, kept in
//! offset order for the panes' markers, the detail pane, `}` / `{` and the statistics
//! overlay. They are the U+FFFD characters already in the input (`replacement-character`,
//! found whatever lints are asked, from the scan's index) and the lints of `--target` /
//! `--security` (or what `T` chose), in `check`'s order: at one offset a U+FFFD first.
//!
//! The lints come from [`crate::lint::lint`] only, through its public types (`Lint`,
//! `Kind`, `Level`, `Lints`): how the lints are computed is not this module's business.
//! The pass needs the scan's [`Summary`], so it is wanted when a scan ends and runs on a
//! worker thread of its own; the first screen never waits for it. Like the scan, the app
//! only marks it wanted ([`Linting::want`]); the event loop starts it
//! ([`super::App::start_wanted_lint`]), so the state machine is testable without threads.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::decode::Dialect;
use crate::lint::{self, Kind, Level, Lint, Lints, Target};
use crate::scan::index::Summary;

/// At most this many findings are kept (a file of millions of them still opens); the
/// statistics overlay and the status line say when more were found.
pub const KEPT_MAX: usize = 250_000;

/// What a finding is: a U+FFFD already in the input, or a lint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FindingKind {
    /// A U+FFFD REPLACEMENT CHARACTER already in the input ([`lint::REPLACEMENT_CHARACTER`]).
    Replacement,
    /// A lint of the kind.
    Lint(Kind),
}

impl FindingKind {
    /// Its name, as `check` reports it (`replacement-character`, `bidi`, ...).
    pub fn name(self) -> &'static str {
        match self {
            FindingKind::Replacement => lint::REPLACEMENT_CHARACTER,
            FindingKind::Lint(kind) => kind.name(),
        }
    }
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Its kind.
    pub kind: FindingKind,
    /// Offset of its first byte.
    pub offset: usize,
    /// Number of bytes it covers (at least 1).
    pub len: usize,
    /// How much it matters.
    pub level: Level,
    /// What this one is, in a sentence (names and code points only: no byte of the input).
    /// Borrowed where every finding of the kind says the same (a U+FFFD: a file decoded
    /// with replacement can hold millions).
    pub message: std::borrow::Cow<'static, str>,
}

impl From<Lint> for Finding {
    fn from(l: Lint) -> Finding {
        Finding {
            kind: FindingKind::Lint(l.kind),
            offset: l.offset,
            len: l.len,
            level: l.level,
            message: l.message.into(),
        }
    }
}

/// What the pass found in one input, in one dialect.
#[derive(Debug, Default)]
pub struct Found {
    /// The findings, by offset (a U+FFFD before the lints at its offset, as `check` lists
    /// them), at most [`KEPT_MAX`].
    pub findings: Vec<Finding>,
    /// Findings found in all, kept or not.
    pub total: usize,
    /// Findings by kind, kept or not, in `check`'s order: `replacement-character`, then
    /// the lints in [`Kind::ALL`] order (kinds with none left out).
    pub by_kind: Vec<(FindingKind, usize)>,
    /// The dialect the input was read in.
    pub dialect: Dialect,
    /// The longest finding, in bytes: how far back a finding covering an offset can start.
    longest: usize,
    /// How long the pass took.
    pub elapsed: Duration,
}

impl Found {
    /// The U+FFFD characters of `bytes` (scanned into `summary`) and the lints `lints` (none
    /// when nothing is asked), to the end, or until `cancel` is set (then `None`),
    /// counting findings into `progress` as they come.
    pub fn collect(
        bytes: &[u8],
        summary: &Summary,
        lints: &Lints,
        cancel: &AtomicBool,
        progress: &AtomicUsize,
    ) -> Option<Found> {
        let started = Instant::now();
        let mut found = Found {
            dialect: summary.dialect,
            ..Found::default()
        };
        let mut replacements = summary
            .replacements(bytes)
            .map(|unit| Finding {
                kind: FindingKind::Replacement,
                offset: unit.start,
                len: unit.len as usize,
                level: Level::Warning,
                message: lint::REPLACEMENT_MESSAGE.into(),
            })
            .peekable();
        let linted =
            (!lints.is_empty()).then(|| lint::lint(bytes, summary.dialect, summary, lints));
        let mut linted = linted.into_iter().flatten().map(Finding::from).peekable();
        let (mut replaced, mut counts) = (0usize, [0usize; Kind::ALL.len()]);
        // Merged by offset; at one offset the U+FFFD first, as `check` lists them.
        let next = |r: &mut std::iter::Peekable<_>, l: &mut std::iter::Peekable<_>| match (
            r.peek().map(|f: &Finding| f.offset),
            l.peek().map(|f: &Finding| f.offset),
        ) {
            (Some(a), Some(b)) if b < a => l.next(),
            (Some(_), _) => r.next(),
            (None, _) => l.next(),
        };
        while let Some(f) = next(&mut replacements, &mut linted) {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            found.total += 1;
            progress.store(found.total, Ordering::Relaxed);
            match f.kind {
                FindingKind::Replacement => replaced += 1,
                FindingKind::Lint(kind) => {
                    if let Some(i) = Kind::ALL.iter().position(|k| *k == kind) {
                        counts[i] += 1;
                    }
                }
            }
            if found.findings.len() < KEPT_MAX {
                found.longest = found.longest.max(f.len);
                found.findings.push(f);
            }
        }
        found.by_kind = std::iter::once((FindingKind::Replacement, replaced))
            .chain(
                Kind::ALL
                    .iter()
                    .zip(counts)
                    .map(|(k, n)| (FindingKind::Lint(*k), n)),
            )
            .filter(|(_, n)| *n > 0)
            .collect();
        found.elapsed = started.elapsed();
        Some(found)
    }

    /// Whether findings were left out past [`KEPT_MAX`].
    pub fn truncated(&self) -> bool {
        self.total > self.findings.len()
    }

    /// The findings that cover byte `offset`, in offset order.
    pub fn covering(&self, offset: u64) -> impl Iterator<Item = &Finding> {
        let offset = offset as usize;
        let end = self.findings.partition_point(|l| l.offset <= offset);
        let start = self
            .findings
            .partition_point(|l| l.offset + self.longest <= offset);
        self.findings[start..end]
            .iter()
            .filter(move |l| offset < l.offset + l.len.max(1))
    }

    /// The level of the findings that cover `offset`: the highest (error before warning
    /// before note), if any.
    pub fn level_at(&self, offset: u64) -> Option<Level> {
        self.covering(offset).map(|l| l.level).min()
    }

    /// The index of the first finding that starts after `offset`.
    pub fn next_index_after(&self, offset: u64) -> Option<usize> {
        let i = self.findings.partition_point(|l| l.offset as u64 <= offset);
        (i < self.findings.len()).then_some(i)
    }

    /// The index of the last finding that starts before `offset` (the last of those that
    /// start at one offset, so that stepping back meets each of them).
    pub fn prev_index_before(&self, offset: u64) -> Option<usize> {
        self.findings
            .partition_point(|l| (l.offset as u64) < offset)
            .checked_sub(1)
    }
}

/// The lint pass, as far as the app knows it.
#[derive(Debug, Default)]
pub enum Pass {
    /// No scan to find them in yet, or its findings were dropped (the scan was).
    #[default]
    Off,
    /// A pass over the current scan is wanted; the event loop starts it.
    Wanted,
    /// A pass is running.
    Running(Run),
    /// The pass is done.
    Ready(Arc<Found>),
}

/// A running pass.
#[derive(Debug)]
pub struct Run {
    /// Which pass it is: results of earlier, cancelled ones are ignored.
    pub generation: u64,
    /// Findings so far (shared with the worker).
    pub progress: Arc<AtomicUsize>,
    /// Findings so far, at the last report.
    pub found: usize,
    cancel: Arc<AtomicBool>,
}

/// What a lint worker reports when it ends (a cancelled one reports nothing).
#[derive(Clone, Debug)]
pub struct LintResult {
    /// The [`Run::generation`] of the pass.
    pub generation: u64,
    /// What it found.
    pub found: Arc<Found>,
}

impl PartialEq for LintResult {
    fn eq(&self, other: &LintResult) -> bool {
        self.generation == other.generation && Arc::ptr_eq(&self.found, &other.found)
    }
}

impl Eq for LintResult {}

/// The viewer's lints: what is asked, and the pass over the current scan.
pub struct Linting {
    /// What is asked (`--target`, `--security`, or the `T` chooser).
    pub lints: Lints,
    /// The pass.
    pub pass: Pass,
    /// What the `T` chooser has chosen so far (taken on Enter).
    pub chooser: Lints,
    generation: u64,
    sender: Sender<LintResult>,
    receiver: Receiver<LintResult>,
}

impl Default for Linting {
    fn default() -> Linting {
        let (sender, receiver) = mpsc::channel();
        Linting {
            lints: Lints::default(),
            pass: Pass::Off,
            chooser: Lints::default(),
            generation: 0,
            sender,
            receiver,
        }
    }
}

impl Linting {
    /// Marks a pass wanted, cancelling the one running: the scan changed, or what is asked
    /// did. Wanted with no lint asked too: the U+FFFD characters are findings whatever is
    /// asked, as `check` reports them.
    pub fn want(&mut self) {
        self.cancel();
        self.pass = Pass::Wanted;
    }

    /// Drops the findings and stops the pass: the scan they were of is gone.
    pub fn reset(&mut self) {
        self.cancel();
        self.pass = Pass::Off;
    }

    /// Stops the running pass, if any.
    pub fn cancel(&mut self) {
        if let Pass::Running(run) = &self.pass {
            run.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// The generation of the last pass begun: the findings of a pass that is done are
    /// told from those of any other pass by it.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The findings, once the pass is done.
    pub fn found(&self) -> Option<&Found> {
        match &self.pass {
            Pass::Ready(found) => Some(found),
            _ => None,
        }
    }

    /// Marks the wanted pass as running and returns what its worker needs: its generation,
    /// the cancel flag and the progress counter. `None` when no pass is wanted.
    pub fn begin(&mut self) -> Option<(u64, Arc<AtomicBool>, Arc<AtomicUsize>)> {
        if !matches!(self.pass, Pass::Wanted) {
            return None;
        }
        self.generation += 1;
        let cancel = Arc::new(AtomicBool::new(false));
        let progress = Arc::new(AtomicUsize::new(0));
        self.pass = Pass::Running(Run {
            generation: self.generation,
            progress: Arc::clone(&progress),
            found: 0,
            cancel: Arc::clone(&cancel),
        });
        Some((self.generation, cancel, progress))
    }

    /// Where a worker sends its result.
    pub fn sender(&self) -> Sender<LintResult> {
        self.sender.clone()
    }

    /// The worker's result if it ended, else how many findings it has so far.
    pub fn pending(&self) -> Option<Event> {
        if let Some(result) = self.receiver.try_iter().last() {
            return Some(Event::Done(result));
        }
        match &self.pass {
            Pass::Running(run) => {
                let now = run.progress.load(Ordering::Relaxed);
                (now != run.found).then_some(Event::Progress(now))
            }
            _ => None,
        }
    }

    /// Waits for a worker's result (tests).
    pub fn wait(&self) -> Option<LintResult> {
        self.receiver.recv().ok()
    }

    /// Takes a worker's report in.
    pub fn take(&mut self, event: Event) {
        match event {
            Event::Progress(n) => {
                if let Pass::Running(run) = &mut self.pass {
                    run.found = n;
                }
            }
            Event::Done(result) => {
                if matches!(&self.pass, Pass::Running(run) if run.generation == result.generation) {
                    self.pass = Pass::Ready(result.found);
                }
            }
        }
    }

    /// The lint pass's part of the status line while it runs (`linting… 12 found`), or
    /// `None`; `None` with no lint asked, when the pass only lists the U+FFFD characters
    /// the scan's index holds (at once, with nothing to wait for).
    pub fn status(&self) -> Option<String> {
        if self.lints.is_empty() {
            return None;
        }
        match &self.pass {
            Pass::Wanted => Some("linting…".to_string()),
            Pass::Running(run) => Some(format!("linting… {} found", run.found)),
            _ => None,
        }
    }

    /// What is asked, in the words of the command line: `--security --target postgres`.
    pub fn asked(&self) -> String {
        asked(&self.lints)
    }
}

/// `lints` in the words of the command line (`none` when nothing is asked).
pub fn asked(lints: &Lints) -> String {
    let mut parts = Vec::new();
    if lints.security {
        parts.push("--security".to_string());
    }
    if !lints.targets.is_empty() {
        let names: Vec<&str> = lints.targets.iter().map(|t| t.name()).collect();
        parts.push(format!("--target {}", names.join(",")));
    }
    if parts.is_empty() {
        "none".to_string()
    } else {
        parts.join(" ")
    }
}

/// A report of a lint worker, for [`super::Action::Lint`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Findings so far.
    Progress(usize),
    /// The pass ended.
    Done(LintResult),
}

/// The choices of the `T` chooser, in its order: security first, then every target.
pub const CHOICES: usize = 1 + Target::ALL.len();

/// The name of choice `i` of the chooser.
pub fn choice_name(i: usize) -> &'static str {
    match i {
        0 => "security",
        i => Target::ALL.get(i - 1).map_or("", |t| t.name()),
    }
}

/// Whether choice `i` is on in `lints`.
pub fn choice_on(lints: &Lints, i: usize) -> bool {
    match i {
        0 => lints.security,
        i => Target::ALL.get(i - 1).is_some_and(|t| lints.has(*t)),
    }
}

/// `lints` with choice `i` turned over (targets kept in [`Target::ALL`] order).
pub fn toggle(lints: &Lints, i: usize) -> Lints {
    let mut out = lints.clone();
    match i {
        0 => out.security = !out.security,
        i => {
            if let Some(t) = Target::ALL.get(i - 1).copied() {
                if out.has(t) {
                    out.targets.retain(|x| *x != t);
                } else {
                    out.targets.push(t);
                    out.targets.sort();
                }
            }
        }
    }
    out
}

/// The lints a typed list names: `security`, target names (as `--target` takes them),
/// separated by commas or spaces; `none` (or nothing) asks for nothing.
pub fn parse_list(text: &str) -> Result<Lints, String> {
    let mut lints = Lints::default();
    for word in text.split([',', ' ']).filter(|w| !w.is_empty()) {
        match word.to_ascii_lowercase().as_str() {
            "none" | "off" => {}
            "security" | "sec" | "--security" => lints.security = true,
            name => match Target::from_name(name) {
                Some(t) if !lints.has(t) => lints.targets.push(t),
                Some(_) => {}
                None => {
                    return Err(format!(
                        "unknown lint '{}' (security, or a target: {})",
                        crate::view::safe::sanitize(word),
                        Target::ALL.map(|t| t.name()).join(", ")
                    ))
                }
            },
        }
    }
    lints.targets.sort();
    Ok(lints)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::index::Progress;

    fn found(bytes: &[u8], lints: &Lints) -> Found {
        let summary = Summary::build(Dialect::Utf8, bytes, 1, &Progress::new()).unwrap();
        Found::collect(
            bytes,
            &summary,
            lints,
            &AtomicBool::new(false),
            &AtomicUsize::new(0),
        )
        .unwrap()
    }

    fn security() -> Lints {
        Lints {
            targets: vec![],
            security: true,
        }
    }

    #[test]
    fn covering_next_and_previous() {
        // C0 AF at 2 (overlong "/", 2 bytes), "pаypal" (confusable, 7 bytes) at 6, and a
        // zero-width space inside no word at 15.
        let bytes = "ab\u{0}\u{0}  pаypal \u{200B}!".as_bytes();
        let mut bytes = bytes.to_vec();
        bytes[2..4].copy_from_slice(b"\xC0\xAF");
        let f = found(&bytes, &security());
        let spans: Vec<(usize, usize, &str)> = f
            .findings
            .iter()
            .map(|l| (l.offset, l.len, l.kind.name()))
            .collect();
        assert_eq!(
            spans,
            [
                (2, 2, "overlong-ascii"),
                (6, 7, "confusable"),
                (14, 3, "invisible")
            ]
        );
        assert_eq!(f.total, 3);
        assert_eq!(
            f.by_kind,
            [
                (FindingKind::Lint(Kind::OverlongAscii), 1),
                (FindingKind::Lint(Kind::Invisible), 1),
                (FindingKind::Lint(Kind::Confusable), 1)
            ]
        );
        let at = |o| f.covering(o).map(|l| l.offset).collect::<Vec<_>>();
        assert_eq!(at(1), Vec::<usize>::new());
        assert_eq!(at(3), [2]);
        assert_eq!(at(12), [6]);
        assert_eq!(at(13), Vec::<usize>::new());
        assert_eq!(f.level_at(2), Some(Level::Error));
        assert_eq!(f.level_at(8), Some(Level::Warning));
        assert_eq!(f.level_at(0), None);
        let offset = |i: usize| f.findings[i].offset;
        assert_eq!(f.next_index_after(0).map(offset), Some(2));
        assert_eq!(f.next_index_after(2).map(offset), Some(6));
        assert_eq!(f.next_index_after(14), None);
        assert_eq!(f.prev_index_before(14).map(offset), Some(6));
        assert_eq!(f.prev_index_before(2), None);
    }

    #[test]
    fn a_pass_is_wanted_run_and_taken_in_order() {
        let mut linting = Linting::default();
        linting.want();
        assert!(
            matches!(linting.pass, Pass::Wanted),
            "nothing asked: U+FFFD characters are findings still"
        );
        assert_eq!(
            linting.status(),
            None,
            "and found at once: nothing to wait for"
        );
        linting.lints = security();
        linting.want();
        assert_eq!(linting.status().as_deref(), Some("linting…"));
        let (first, cancel, progress) = linting.begin().unwrap();
        assert!(linting.begin().is_none(), "one pass at a time");
        progress.store(4, Ordering::Relaxed);
        let event = linting.pending().unwrap();
        assert_eq!(event, Event::Progress(4));
        linting.take(event);
        assert_eq!(linting.status().as_deref(), Some("linting… 4 found"));
        // Asked again: the first is cancelled, its result ignored.
        linting.want();
        assert!(cancel.load(Ordering::Relaxed));
        let (second, _, _) = linting.begin().unwrap();
        let stale = Arc::new(Found::default());
        linting.take(Event::Done(LintResult {
            generation: first,
            found: Arc::clone(&stale),
        }));
        assert!(linting.found().is_none());
        linting.take(Event::Done(LintResult {
            generation: second,
            found: stale,
        }));
        assert!(linting.found().is_some());
        assert_eq!(linting.status(), None);
    }

    #[test]
    fn chooser_and_typed_lists() {
        let none = Lints::default();
        assert_eq!(asked(&none), "none");
        let l = toggle(&toggle(&none, 0), 2);
        assert_eq!(asked(&l), "--security --target postgres");
        assert!(choice_on(&l, 0) && choice_on(&l, 2) && !choice_on(&l, 1));
        let l = toggle(&l, 1);
        assert_eq!(asked(&l), "--security --target mysql-utf8mb3,postgres");
        assert_eq!(choice_name(CHOICES - 1), "i-json");
        assert_eq!(
            parse_list("XML-1.0, security postgres").map(|l| asked(&l)),
            Ok("--security --target postgres,xml-1.0".to_string())
        );
        // The names `--target` takes, and no alias.
        assert_eq!(
            parse_list("security pg"),
            Err(
                "unknown lint 'pg' (security, or a target: mysql-utf8mb3, postgres, xml-1.0, \
                 xml-1.1, json, i-json)"
                    .to_string()
            )
        );
        assert_eq!(parse_list("none"), Ok(Lints::default()));
        assert!(parse_list("oracle")
            .unwrap_err()
            .starts_with("unknown lint 'oracle'"));
    }
}
