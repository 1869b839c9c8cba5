//! `hexrune check [FILE...]` and `hexrune check -r DIR...`: is each input valid in a
//! dialect, and if not, where and why; in human text, JSON Lines, CSV or SARIF.
//!
//! Every input is scanned once, in parallel, into a [`Summary`] (counts, verdict, block
//! index); where the format carries the input's SHA-256 (JSON Lines, SARIF), the hash is
//! computed in the same pass ([`Summary::build_alongside`]), so the file is read once.
//! Errors are then listed in order by decoding again only the blocks that hold some, so
//! memory stays constant however many errors there are. Nothing of an input is printed
//! before its scan ends: its first record can carry its hash.
//!
//! Every format is fed the same [`Finding`]s ([`findings`]); a format is one [`Emit`].

use std::io::{self, Write};
use std::ops::Range;

use sha2::{Digest, Sha256};

use super::findings::{Finding, Record, REPLACEMENT_CHARACTER};
use super::{report_error, Input, EXIT_ERROR, EXIT_INVALID, EXIT_OK};
use crate::cli::report::{hex_compact, hex_spaced};
use crate::cli::sarif::Sarif;
use crate::cli::walk::{self, Walk};
use crate::cli::wire::{
    finding_line, to_line, InputRecord, Invocation, IoErrorRecord, SkippedRecord, SummaryRecord,
    WirePath,
};
use crate::decode::{Dialect, Unit};
use crate::detect;
use crate::lint::{self, Kind, Lints, Survey};
use crate::scan::index::{BlockHook, BlockSummary, Progress, Summary, Verdict};
use crate::source::{Access, Source, SourceError};
use crate::view::fallback::Fallback;
use crate::view::safe::sanitize;

/// How many errors human output lists per input unless `--all` is given.
pub const DEFAULT_LIMIT: usize = 20;

/// What `check` prints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// Text for a person.
    #[default]
    Human,
    /// JSON Lines: an input record, a record per error and finding, a summary, per input.
    Json,
    /// A header, then one row per error and finding.
    Csv,
    /// One SARIF 2.1.0 log: one run, one result per error and finding.
    Sarif,
}

impl Format {
    /// Whether the format carries each input's SHA-256.
    fn hashes(self) -> bool {
        matches!(self, Format::Json | Format::Sarif)
    }
}

/// What `hexrune check` was asked.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// The dialect to validate against.
    pub dialect: Dialect,
    /// The output format.
    pub format: Format,
    /// List every error in human output, not just the first [`DEFAULT_LIMIT`].
    pub all: bool,
    /// The inputs, in order (under `walk`, the roots to walk).
    pub inputs: Vec<Input>,
    /// Worker threads for the scan (1 or more).
    pub threads: usize,
    /// The encoding each error unit is also read in (`--fallback`), if any.
    pub fallback: Option<Fallback>,
    /// `-r`: walk the inputs as directory trees, with these rules.
    pub walk: Option<Walk>,
    /// The command line, for the summary records and SARIF's invocation.
    pub invocation: Invocation,
    /// `--target` and `--security`: the lints to run on what decodes.
    pub lints: Lints,
}

/// One input, examined: what it is, its bytes and what its scan found.
pub struct Examined {
    /// Its name and evidence.
    pub facts: InputFacts,
    /// Its bytes.
    pub source: Source,
    /// What the scan found.
    pub summary: Summary,
    /// What the lints found, counted.
    pub lints: LintCounts,
    /// Where the lints are (`None` when none were asked).
    pub survey: Option<Survey>,
}

/// The lints found in an input, counted by kind (in [`Kind::ALL`] order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LintCounts {
    /// Every kind asked for, with its count (zero included).
    pub by_kind: Vec<(&'static str, u64)>,
    /// Lints of level error or warning: an input with any is not clean (exit 1).
    pub failing: u64,
    /// Every lint.
    pub total: u64,
    /// The confusable identifiers were not compared: more words mix scripts than are
    /// kept ([`crate::lint::MAX_COMPARED_WORDS`]).
    pub identifiers_skipped: bool,
}

impl LintCounts {
    /// What the lints could not look at, for the report: `more than 262144 words that mix
    /// scripts ...`.
    pub fn note(&self) -> Option<String> {
        self.identifiers_skipped.then(|| {
            format!(
                "more than {} words that mix scripts (random or binary data?): confusable \
                 identifiers (two words with one skeleton) were not compared; each word that \
                 mixes scripts is still found",
                crate::lint::MAX_COMPARED_WORDS
            )
        })
    }
}

impl Examined {
    /// Whether the input is valid and has no lint of level error or warning.
    pub fn is_clean(&self) -> bool {
        self.summary.is_valid() && self.lints.failing == 0
    }

    /// Everything to report for this input, in input order.
    pub fn findings<'a>(&'a self, options: &'a CheckOptions) -> impl Iterator<Item = Finding> + 'a {
        self.findings_in(options.dialect, options.fallback.as_ref())
    }

    /// [`Examined::findings`], errors read in `dialect` (the one it was scanned in) with
    /// `fallback`. The lints come from this input's own survey, which walks again only
    /// the stretches that hold some, on the calling thread: no second survey of the input.
    pub fn findings_in<'a>(
        &'a self,
        dialect: Dialect,
        fallback: Option<&'a Fallback>,
    ) -> impl Iterator<Item = Finding> + 'a {
        let bytes = self.source.bytes();
        let linted = self
            .survey
            .as_ref()
            .filter(|s| s.total() > 0)
            .map(|s| s.lints(bytes));
        findings_with(dialect, fallback, bytes, &self.summary, linted)
    }
}

/// Runs `lints` over an input once and counts what they find.
pub fn count_lints(bytes: &[u8], dialect: Dialect, summary: &Summary, lints: &Lints) -> LintCounts {
    let mut survey = Survey::new(dialect, bytes.len(), lints);
    survey.finish(bytes, summary);
    lint_counts(&survey, lints)
}

/// The counts of a finished `survey` of `lints`.
fn lint_counts(survey: &Survey, lints: &Lints) -> LintCounts {
    if lints.is_empty() {
        return LintCounts::default();
    }
    let by_kind = survey.by_kind();
    // A kind found is counted whatever the table says: every finding listed is counted.
    let asked = |k: Kind| lint_kind_asked(lints, k) || by_kind[k as usize] > 0;
    LintCounts {
        by_kind: Kind::ALL
            .iter()
            .filter(|k| asked(**k))
            .map(|k| (k.name(), by_kind[*k as usize]))
            .collect(),
        failing: survey.failing(),
        total: survey.total(),
        identifiers_skipped: !survey.identifiers_compared(),
    }
}

/// Whether `lints` can yield lints of `kind`.
fn lint_kind_asked(lints: &Lints, kind: Kind) -> bool {
    use crate::lint::Target::*;
    match kind {
        Kind::FourByte => lints.has(MysqlUtf8mb3),
        Kind::Nul => lints.has(Postgres),
        Kind::XmlForbidden | Kind::XmlDiscouraged => lints.has(Xml10) || lints.has(Xml11),
        Kind::LoneSurrogate => lints.has(Json) || lints.has(IJson) || lints.has(Postgres),
        Kind::Noncharacter => lints.has(IJson),
        _ => lints.security,
    }
}

/// What names an input and proves what was read.
#[derive(Clone, Debug)]
pub struct InputFacts {
    /// The name for a person (sanitised).
    pub name: String,
    /// The name on the wire.
    pub path: WirePath,
    /// Its size in bytes.
    pub size: u64,
    /// Its SHA-256 in lower-case hex, where the format asked for it.
    pub sha256: Option<String>,
    /// Its last modification, RFC 3339 UTC, for a regular file named by path.
    pub mtime: Option<String>,
    /// Whether it is the standard input.
    pub stdin: bool,
}

/// Checks every input; returns 0 if all are valid, 1 if any is not, 2 if any could not be
/// read (the others are still checked). Under `-r`, 2 wins over 1 as well.
///
/// A reader that leaves early (`hexrune check --json big.bin | head -1`) does not change the
/// answer: the output goes quiet, every input is still checked, and the exit code is the
/// one a reader that stayed would have seen. An input that cannot be read is reported on
/// `err`, and under `--json` as an `io_error` record on `out` too.
pub fn run(options: &CheckOptions, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<u8> {
    let mut emit = emitter(options);
    let mut out = Quiet::new(out);
    out.then(|o| emit.begin(o))?;
    let status = match &options.walk {
        Some(rules) => walk::run(options, rules, emit.as_mut(), &mut out, err)?,
        None => {
            let mut status = EXIT_OK;
            for input in &options.inputs {
                let code = match examine(options, input, options.threads) {
                    Ok(examined) => {
                        out.then(|o| emit.input(o, &examined))?;
                        let (name, path) = (input.display_name(), input.wire_path());
                        match report_held(&examined, &name, &path, emit.as_mut(), &mut out, err)? {
                            false => EXIT_ERROR,
                            true if examined.is_clean() => EXIT_OK,
                            true => EXIT_INVALID,
                        }
                    }
                    Err(e) => {
                        let (name, path) = (input.display_name(), input.wire_path());
                        out.then(|o| emit.io_error(o, &name, &path, &e.to_string()))?;
                        report_error(err, &name, &e)?;
                        EXIT_ERROR
                    }
                };
                status = status.max(code);
            }
            status
        }
    };
    out.then(|o| emit.finish(o, status))?;
    Ok(status)
}

/// Whether what was just written of `examined` still holds: its records of errors and
/// findings are read from the file again after its scan (a long list of them can take
/// seconds), so a file written to or cut short in that time may have given records of its
/// new bytes beside a hash and a summary of the old. Where it changed, an `io_error` record
/// follows them and the error goes to stderr (`false`: exit 2), as for a change during the
/// scan, which gets no record at all.
pub fn report_held(
    examined: &Examined,
    name: &str,
    path: &WirePath,
    emit: &mut dyn Emit,
    out: &mut Quiet,
    err: &mut dyn Write,
) -> io::Result<bool> {
    let Err(e) = examined.source.check_unchanged() else {
        return Ok(true);
    };
    let why = format!("{e}; the records above may be of its old and new bytes");
    out.then(|o| emit.io_error(o, name, path, &why))?;
    report_error(err, name, &why)?;
    Ok(false)
}

/// A writer that goes quiet once its reader has left (a broken pipe), so the rest of the
/// work still decides the exit code; any other error is returned.
pub struct Quiet<'a> {
    out: &'a mut dyn Write,
    gone: bool,
}

impl<'a> Quiet<'a> {
    fn new(out: &'a mut dyn Write) -> Quiet<'a> {
        Quiet { out, gone: false }
    }

    /// Runs `print` on the writer (and flushes it), unless the reader has left.
    pub fn then(&mut self, print: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
        if self.gone {
            return Ok(());
        }
        match print(&mut *self.out).and_then(|()| self.out.flush()) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.gone = true;
                Ok(())
            }
            other => other,
        }
    }
}

/// Opens, hashes (where the format needs it) and scans one input, with `threads` workers.
pub fn examine(
    options: &CheckOptions,
    input: &Input,
    threads: usize,
) -> Result<Examined, SourceError> {
    let source = input.open()?;
    // The time the mapped file had when it was opened, which a write while it is read
    // moves ([`Source::check_unchanged`]); that of the path for a file read into memory.
    // None for standard input, even redirected from a file: the record names no file.
    let mtime = match input {
        Input::Path(p) => source.modified().or_else(|| {
            std::fs::metadata(p)
                .ok()
                .filter(|m| m.is_file())
                .and_then(|m| m.modified().ok())
        }),
        Input::Stdin => None,
    };
    examine_source(options, input, source, mtime, threads)
}

/// Hashes (where the format needs it) and scans `source`, the bytes of `input`, last
/// modified at `mtime`, with `threads` workers.
pub fn examine_source(
    options: &CheckOptions,
    input: &Input,
    source: Source,
    mtime: Option<std::time::SystemTime>,
    threads: usize,
) -> Result<Examined, SourceError> {
    source.advise(Access::Sequential);
    let bytes = source.bytes();
    let mut hasher = options.format.hashes().then(Sha256::new);
    let mut feed = |piece: &[u8]| {
        if let Some(h) = hasher.as_mut() {
            h.update(piece);
        }
    };
    // Pages behind the scan (and the hash) are let go, so memory does not grow with the
    // input.
    // The lints ride the scan: each block is walked on the worker that scanned it.
    let mut survey = (!options.lints.is_empty())
        .then(|| Survey::new(options.dialect, bytes.len(), &options.lints));
    let look = survey.as_ref().map(|s| {
        move |bytes: &[u8], range: Range<usize>, block: &BlockSummary| s.look(bytes, range, block)
    });
    let summary = Summary::build_alongside_hooked(
        options.dialect,
        bytes,
        threads,
        &Progress::new(),
        |range| source.release(range),
        |range| source.prefetch(range),
        Some(&mut feed),
        look.as_ref().map(|l| l as &BlockHook),
    )
    .expect("a scan nobody cancels runs to the end");
    // Nothing of a changed input is printed (its hash and verdict may be of a mix of old
    // and new bytes); the caller reports it.
    source.check_unchanged()?;
    let lints = match survey.as_mut() {
        Some(survey) => {
            survey.finish(bytes, &summary);
            lint_counts(survey, &options.lints)
        }
        None => LintCounts::default(),
    };
    let facts = InputFacts {
        name: input.display_name(),
        path: input.wire_path(),
        size: summary.len,
        sha256: hasher.map(|h| hex_compact(&h.finalize())),
        mtime: mtime.map(rfc3339),
        stdin: *input == Input::Stdin,
    };
    Ok(Examined {
        facts,
        source,
        summary,
        lints,
        survey,
    })
}

/// `time` as RFC 3339 in UTC: `2024-02-29T23:59:59Z`, with nanoseconds
/// (`...:59.123456789Z`) where it has any. Days to a civil date by Howard Hinnant's
/// `civil_from_days` (public domain), which holds for the whole range of `i64` seconds.
pub fn rfc3339(time: std::time::SystemTime) -> String {
    let (secs, nanos) = match time.duration_since(std::time::UNIX_EPOCH) {
        Ok(d) => (d.as_secs() as i64, d.subsec_nanos()),
        Err(e) => {
            let d = e.duration();
            let (s, n) = (d.as_secs() as i64, d.subsec_nanos());
            if n == 0 {
                (-s, 0)
            } else {
                (-s - 1, 1_000_000_000 - n)
            }
        }
    };
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let (h, m, s) = (rest / 3600, rest / 60 % 60, rest % 60);
    let fraction = if nanos == 0 {
        String::new()
    } else {
        format!(".{nanos:09}")
    };
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}{fraction}Z")
}

/// Everything `check` reports for an input, in input order: each error unit, each
/// finding (a U+FFFD: valid, but a sign that data was lost before the input was written)
/// and each lint of `lints` (`--target`, `--security`), with its line and column. At one
/// offset an error comes first, then a U+FFFD, then lints.
pub fn findings<'a>(
    dialect: Dialect,
    fallback: Option<&'a Fallback>,
    bytes: &'a [u8],
    summary: &'a Summary,
    lints: &'a Lints,
) -> impl Iterator<Item = Finding> + 'a {
    let linted = (!lints.is_empty()).then(|| lint::lint(bytes, dialect, summary, lints));
    findings_with(dialect, fallback, bytes, summary, linted)
}

/// [`findings`], with the lints from `linted`.
fn findings_with<'a>(
    dialect: Dialect,
    fallback: Option<&'a Fallback>,
    bytes: &'a [u8],
    summary: &'a Summary,
    linted: Option<lint::Linter<'a>>,
) -> impl Iterator<Item = Finding> + 'a {
    let mut errors = summary.errors(bytes).peekable();
    let mut replacements = summary.replacements(bytes).peekable();
    let mut linted = linted.into_iter().flatten().peekable();
    let mut lines = summary.lines(bytes);
    std::iter::from_fn(move || {
        let unit_start = match (errors.peek(), replacements.peek()) {
            (Some(e), Some(f)) => Some(e.start.min(f.start)),
            (Some(e), None) => Some(e.start),
            (None, Some(f)) => Some(f.start),
            (None, None) => None,
        };
        if let Some(l) = linted.peek() {
            if unit_start.is_none_or(|s| l.offset < s) {
                let l = linted.next()?;
                let at = lines.at(l.offset);
                return Some(Finding::lint(bytes, &l, at));
            }
        }
        let (unit, error): (Unit, bool) = match (errors.peek(), replacements.peek()) {
            (Some(e), Some(f)) if f.start < e.start => (replacements.next()?, false),
            (Some(_), _) => (errors.next()?, true),
            (None, _) => (replacements.next()?, false),
        };
        let at = lines.at(unit.start);
        Some(if error {
            Finding::error(dialect, bytes, &unit, at, fallback)
        } else {
            Finding::replacement(bytes, &unit, at)
        })
    })
}

/// The counts of findings by kind a summary record carries: U+FFFD, then each lint kind
/// asked for.
fn finding_counts(examined: &Examined) -> Vec<(&'static str, u64)> {
    let mut counts = vec![(REPLACEMENT_CHARACTER, examined.summary.replacement_count())];
    counts.extend(examined.lints.by_kind.iter().copied());
    counts
}

/// One output format: told of each input in turn (in the order they are printed), and of
/// the start and end of the run.
pub trait Emit {
    /// Before the first input.
    fn begin(&mut self, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
    /// An input that was read and scanned.
    fn input(&mut self, out: &mut dyn Write, examined: &Examined) -> io::Result<()>;
    /// An input that could not be read (its one-line error goes to stderr besides).
    fn io_error(
        &mut self,
        _out: &mut dyn Write,
        _name: &str,
        _path: &WirePath,
        _message: &str,
    ) -> io::Result<()> {
        Ok(())
    }
    /// A special file a walk passed over (`fifo`, `socket`, ...).
    fn skipped(
        &mut self,
        _out: &mut dyn Write,
        _name: &str,
        _path: &WirePath,
        _what: &str,
    ) -> io::Result<()> {
        Ok(())
    }
    /// After the last input, with the exit status the run will have.
    fn finish(&mut self, _out: &mut dyn Write, _status: u8) -> io::Result<()> {
        Ok(())
    }
}

fn emitter(options: &CheckOptions) -> Box<dyn Emit + '_> {
    match (options.format, options.walk.is_some()) {
        (Format::Human, false) => Box::new(Human { options }),
        (Format::Human, true) => Box::new(walk::HumanTree::new(options.dialect)),
        (Format::Json, _) => Box::new(Json { options }),
        (Format::Csv, _) => Box::new(Csv { options }),
        (Format::Sarif, _) => Box::new(Sarif::new(options)),
    }
}

/// `--json`: per input, its `input` record, its findings, its `summary`.
struct Json<'a> {
    options: &'a CheckOptions,
}

impl Emit for Json<'_> {
    fn input(&mut self, out: &mut dyn Write, examined: &Examined) -> io::Result<()> {
        let Examined {
            facts,
            source,
            summary,
            ..
        } = examined;
        let path = &facts.path;
        let sha256 = facts.sha256.as_deref().unwrap_or_default();
        let record = InputRecord::new(path, facts.size, sha256, facts.mtime.as_deref());
        writeln!(out, "{}", to_line(&record))?;
        let dialect = self.options.dialect;
        let _ = (source, summary);
        for finding in examined.findings(self.options) {
            writeln!(out, "{}", finding_line(path, &finding))?;
        }
        let counts = finding_counts(examined);
        let record = SummaryRecord::new(
            path,
            dialect,
            summary.len,
            &summary.tally,
            &counts,
            &self.options.invocation,
        )
        .with_note(examined.lints.note());
        writeln!(out, "{}", to_line(&record))
    }

    fn io_error(
        &mut self,
        out: &mut dyn Write,
        _name: &str,
        path: &WirePath,
        message: &str,
    ) -> io::Result<()> {
        let record = IoErrorRecord::new(path, message.to_string());
        writeln!(out, "{}", to_line(&record))
    }

    fn skipped(
        &mut self,
        out: &mut dyn Write,
        _name: &str,
        path: &WirePath,
        what: &str,
    ) -> io::Result<()> {
        writeln!(out, "{}", to_line(&SkippedRecord::new(path, what)))
    }
}

/// The columns of `--csv`, in order.
pub const CSV_HEADER: [&str; 10] = [
    "path", "offset", "len", "line", "column", "kind", "level", "bytes", "message", "fallback",
];

/// `--csv`: a header, then one row per error and finding (RFC 4180 quoting, by the csv
/// crate). Text cells (path, message, fallback) go through the sanitiser, as on a terminal.
struct Csv<'a> {
    options: &'a CheckOptions,
}

impl Emit for Csv<'_> {
    fn begin(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let mut writer = csv::Writer::from_writer(out);
        writer.write_record(CSV_HEADER).map_err(csv_io)?;
        writer.flush()
    }

    fn input(&mut self, out: &mut dyn Write, examined: &Examined) -> io::Result<()> {
        let path = csv_text(&examined.facts.name);
        let mut writer = csv::Writer::from_writer(out);
        for f in examined.findings(self.options) {
            // An error's reading as the human line shows it (`<81?>`, `\u{a0}`), not the
            // decoder's text that JSON carries.
            let fallback = match (&f.fallback, &self.options.fallback) {
                (Some(_), Some(fb)) => csv_text(&fb.show(&f.bytes)),
                _ => String::new(),
            };
            writer
                .write_record([
                    path.as_str(),
                    &f.offset.to_string(),
                    &f.len().to_string(),
                    &f.line.to_string(),
                    &f.column.to_string(),
                    f.kind,
                    f.level.name(),
                    &hex_compact(&f.bytes),
                    &csv_text(&f.message),
                    &fallback,
                ])
                .map_err(csv_io)?;
        }
        writer.flush()
    }
}

/// A text cell of `--csv`: sanitised as human output is, and with a `'` before a cell
/// that begins with `=`, `+`, `-` or `@`, which a spreadsheet would take for a formula (a
/// file named `=HYPERLINK(...)` must stay a name), and before one that begins with `'`
/// itself, so that stripping one leading `'` gives every cell back (`=x` and `'=x` are
/// `'=x` and `''=x`).
fn csv_text(text: &str) -> String {
    let safe = sanitize(text);
    match safe.starts_with(['=', '+', '-', '@', '\'']) {
        true => format!("'{safe}"),
        false => safe,
    }
}

/// The I/O error inside a csv error, as it was: `?` alone would wrap it as "other", and a
/// reader that left (`| head -1`, a broken pipe) would read as a failure.
fn csv_io(e: csv::Error) -> io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        kind => io::Error::other(format!("csv: {kind:?}")),
    }
}

/// Human output for inputs named one by one: a verdict per input, then its errors.
struct Human<'a> {
    options: &'a CheckOptions,
}

impl Emit for Human<'_> {
    fn input(&mut self, out: &mut dyn Write, examined: &Examined) -> io::Result<()> {
        print_human(self.options, examined, out)
    }
}

/// One human line for a finding.
fn listed_line(options: &CheckOptions, finding: &Finding) -> String {
    let mut why = finding.message.clone();
    if finding.record == Record::Error {
        if let Some(f) = &options.fallback {
            why.push_str("; fallback ");
            why.push_str(&f.describe(&finding.bytes));
        }
    }
    // A unit is at most a few bytes, a lint's span may be any length (a run of marks or
    // tags): its first bytes and its length keep the line a line.
    let bytes = &finding.bytes;
    let hex = match bytes.len() > LISTED_BYTES {
        true => format!(
            "{} … ({} bytes)",
            hex_spaced(&bytes[..LISTED_BYTES]),
            bytes.len()
        ),
        false => hex_spaced(bytes),
    };
    format!(
        "  offset {} ({:#x})  {}:{}  {}  {}: {}",
        finding.offset, finding.offset, finding.line, finding.column, hex, finding.kind, why,
    )
}

/// The most bytes of a finding a human line lists (JSON, CSV and SARIF carry them all).
const LISTED_BYTES: usize = 32;

fn print_human(options: &CheckOptions, examined: &Examined, out: &mut dyn Write) -> io::Result<()> {
    let name = &examined.facts.name;
    let bytes = examined.source.bytes();
    let summary = &examined.summary;
    let dialect = options.dialect;
    let tally = &summary.tally;
    let errors = tally.error_count();
    let size = summary.len;
    let scalars: u64 = tally.classes.iter().sum();
    let verdict = summary.verdict(bytes);
    if errors == 0 {
        let ascii = if verdict == Verdict::AsciiOnly {
            ", ASCII only"
        } else {
            ""
        };
        writeln!(
            out,
            "{name}: valid {dialect}{ascii}: {size} {}, {scalars} {}",
            plural(size, "byte", "bytes"),
            plural(scalars, "character", "characters")
        )?;
    } else {
        writeln!(
            out,
            "{name}: invalid {dialect}: {errors} {} in {size} {}",
            plural(errors, "error", "errors"),
            plural(size, "byte", "bytes")
        )?;
        writeln!(out, "  verdict  {}", verdict.describe(dialect))?;
    }
    if let Some(hint) = wide_hint(dialect, verdict, summary, bytes) {
        writeln!(out, "  hint     {hint}")?;
    } else if let Some(hint) = legacy_hint(dialect, verdict, bytes) {
        writeln!(out, "  hint     {hint}")?;
    }
    if let Some(bom) = summary.bom {
        writeln!(out, "  bom      {}", bom.describe())?;
    }
    if let Some(note) = bom_note(dialect, bytes) {
        writeln!(out, "  note     {note}")?;
    }
    let classes: Vec<String> = dialect
        .classes()
        .iter()
        .map(|c| format!("{c}-byte {}", tally.classes[*c as usize]))
        .collect();
    writeln!(out, "  units    {}", classes.join(", "))?;
    let found = summary.replacement_count() + examined.lints.total;
    if errors > 0 {
        let kinds: Vec<String> = summary
            .error_kinds()
            .iter()
            .map(|(k, n)| format!("{} {n}", k.name()))
            .collect();
        writeln!(out, "  errors   {}", kinds.join(", "))?;
    }
    if found > 0 {
        let kinds: Vec<String> = finding_counts(examined)
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        writeln!(out, "  findings {}", kinds.join(", "))?;
    }
    if let Some(note) = examined.lints.note() {
        writeln!(out, "  note     {note}")?;
    }
    let limit = if options.all {
        usize::MAX
    } else {
        DEFAULT_LIMIT
    };
    let (mut errors_listed, mut findings_listed) = (0u64, 0u64);
    for finding in examined.findings(options).take(limit) {
        writeln!(out, "{}", listed_line(options, &finding))?;
        match finding.record {
            Record::Error => errors_listed += 1,
            Record::Finding => findings_listed += 1,
        }
    }
    let (errors_hidden, findings_hidden) = (errors - errors_listed, found - findings_listed);
    let hidden = errors_hidden + findings_hidden;
    if hidden > 0 {
        let what = match (errors_hidden, findings_hidden) {
            (_, 0) => plural(hidden, "error", "errors"),
            (0, _) => plural(hidden, "finding", "findings"),
            _ => "errors and findings",
        };
        writeln!(
            out,
            "  ... and {hidden} more {what} (--all lists every one)"
        )?;
    }
    Ok(())
}

/// The hint for an input of the UTF-8 family that reads as UTF-16 or UTF-32 without a
/// byte order mark: `zero bytes where UTF-16LE puts them: this looks like UTF-16LE; try
/// -e utf-16le`. Detection's own reading of the zero bytes ([`detect::zero_pattern`]), asked
/// only where the verdict is not valid UTF-8 with multi-byte characters (an ASCII-only
/// verdict included: UTF-16 of Latin text is ASCII and NUL bytes to UTF-8), there is no
/// byte order mark (the `bom` line names it, and the diagnosis of its first invalid byte
/// says UTF-16 or UTF-32) and a NUL byte is in the first 64 KiB (so a text file costs one
/// `memchr`).
pub fn wide_hint(
    dialect: Dialect,
    verdict: Verdict,
    summary: &Summary,
    bytes: &[u8],
) -> Option<String> {
    let name = wide_by_zeros(dialect, verdict, summary, bytes)?.name();
    Some(format!(
        "zero bytes where {name} puts them: this looks like {name}; try -e {}",
        name.to_ascii_lowercase()
    ))
}

/// For an input of the UTF-8 family that is probably not UTF-8: the legacy encoding
/// detection finds in it (in 64 KiB: [`detect::hint_window`], as `repair` judges its
/// hint), and the two
/// commands that read it so: `detect finds windows-1251: read it with -e windows-1251,
/// convert it with hexrune repair --from windows-1251 FILE -o OUT`. `None` for a weak guess
/// (fewer than [`detect::WEAK_GUESS_BYTES`] non-ASCII bytes) or what no `-e` reads.
fn legacy_hint(dialect: Dialect, verdict: Verdict, bytes: &[u8]) -> Option<String> {
    if !Dialect::UTF8_FAMILY.contains(&dialect) || !matches!(verdict, Verdict::ProbablyNot(_)) {
        return None;
    }
    let head = &bytes[detect::hint_window(bytes, 64 << 10)];
    if head.iter().filter(|b| !b.is_ascii()).count() < detect::WEAK_GUESS_BYTES {
        return None;
    }
    let summary = Summary::build_parallel(Dialect::Utf8, head);
    let found = detect::detect(head, &summary).encoding;
    let label = found.to_ascii_lowercase();
    let readable =
        crate::encoding::resolve(&label).is_ok_and(|d| !Dialect::UTF8_FAMILY.contains(&d));
    // A UTF-8 mark overrides `-e` and `--from`: only `--from auto` reads it apart.
    let bom = crate::decode::Bom::starts_utf8(bytes);
    readable.then(|| match bom {
        true => format!(
            "detect finds {found} after its UTF-8 BOM, which -e and --from give way to: \
             convert it with hexrune repair --from auto FILE -o OUT"
        ),
        false => format!(
            "detect finds {found}: read it with -e {label}, convert it with hexrune repair \
             --from {label} FILE -o OUT"
        ),
    })
}

/// What [`wide_hint`] reads the zero bytes as, under the same conditions.
fn wide_by_zeros(
    dialect: Dialect,
    verdict: Verdict,
    summary: &Summary,
    bytes: &[u8],
) -> Option<detect::wide::Wide> {
    let asked = dialect.code_unit_width().is_none()
        && !matches!(verdict, Verdict::Empty | Verdict::Valid(_))
        && summary.bom.is_none();
    asked
        .then(|| detect::wide_without_mark(bytes, Some(summary)))
        .flatten()
}

/// For `check -r`'s one line of an input of the UTF-8 family that is not valid: what it
/// looks like instead, where that is UTF-16 or UTF-32, by its byte order mark (`byte order
/// mark FF FE says UTF-16LE; try -e utf-16le`) or by its zero bytes ([`wide_hint`]'s
/// reading: `looks like UTF-16LE; try -e utf-16le`), so that a tree's UTF-16 files are not
/// taken for broken UTF-8 ones.
pub fn wide_reading(dialect: Dialect, summary: &Summary, bytes: &[u8]) -> Option<String> {
    if dialect.code_unit_width().is_some() || summary.tally.error_count() == 0 {
        return None;
    }
    let try_e = |name: &str| format!("try -e {}", name.to_ascii_lowercase());
    if let Some(bom) = summary.bom.map(detect::bom::Bom::from) {
        return (bom != detect::bom::Bom::Utf8).then(|| {
            format!(
                "byte order mark {} says {}; {}",
                bom.hex(),
                bom.encoding(),
                try_e(bom.encoding())
            )
        });
    }
    let name = wide_by_zeros(dialect, summary.verdict(bytes), summary, bytes)?.name();
    Some(format!("looks like {name}; {}", try_e(name)))
}

/// A note for an input read as a UTF-16, UTF-32 or legacy encoding (`-e`) whose byte order
/// mark names another encoding: `the byte order mark FF FE says UTF-16LE, but UTF-16BE was
/// asked: the input was read as UTF-16BE, FF FE as U+FFFE (a noncharacter); try -e
/// utf-16le`. The mark is read longest first ([`detect::bom::Bom::at_start`]: `FF FE 00 00`
/// is UTF-32LE's); only the marks of Unicode's encodings count. In the UTF-8 family a
/// UTF-16 mark is an error whose diagnosis already says so.
pub fn bom_note(dialect: Dialect, bytes: &[u8]) -> Option<String> {
    let found = detect::bom::Contradiction::of(dialect, bytes)?;
    Some(format!(
        "{}: {}; try -e {}",
        found.claim(),
        found.reading(),
        found.bom.encoding().to_ascii_lowercase()
    ))
}

pub(crate) fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::FileExt;
    use std::time::{Duration, SystemTime};

    /// When the test files were last modified, as they are made.
    fn start() -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000)
    }

    /// A file of `bytes` last modified at [`start`], as an input, and the options of
    /// `check --json` on it.
    fn json_of(bytes: &[u8]) -> (tempfile::NamedTempFile, Input, CheckOptions) {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(bytes).unwrap();
        file.as_file().set_modified(start()).unwrap();
        let input = Input::Path(file.path().to_path_buf());
        let options = CheckOptions {
            dialect: Dialect::Utf8,
            format: Format::Json,
            all: false,
            inputs: vec![input.clone()],
            threads: 1,
            fallback: None,
            walk: None,
            invocation: Invocation::default(),
            lints: Lints::default(),
        };
        (file, input, options)
    }

    /// A file written to after it was opened and before its scan ends gets no record: its
    /// hash and verdict could be of old and new bytes mixed.
    #[test]
    fn a_file_written_while_it_is_read_gets_no_record() {
        let (file, input, options) = json_of(&[b'x'; 1 << 16]);
        let examined = examine(&options, &input, 1).unwrap();
        assert_eq!(
            examined.facts.mtime.as_deref(),
            Some("2023-11-14T22:13:20Z")
        );
        let source = input.open().unwrap();
        file.as_file().write_at(b"\xFF", 100).unwrap();
        file.as_file()
            .set_modified(start() + Duration::from_secs(1))
            .unwrap();
        let e = examine_source(&options, &input, source, None, 1).err();
        assert!(matches!(e, Some(SourceError::Rewritten)), "{e:?}");
    }

    /// A file written to after its scan, while its records are written, gets an `io_error`
    /// record after them and its error on stderr: its records may be of its new bytes.
    #[test]
    fn a_file_written_while_its_records_are_written_gets_an_error_after_them() {
        let (file, input, options) = json_of(b"a\xFFb\n");
        let examined = examine(&options, &input, 1).unwrap();
        let mut emit = emitter(&options);
        let (mut records, mut err) = (Vec::new(), Vec::new());
        let held = report_held(
            &examined,
            "f",
            &input.wire_path(),
            emit.as_mut(),
            &mut Quiet::new(&mut records),
            &mut err,
        );
        assert_eq!((held.unwrap(), records.len(), err.len()), (true, 0, 0));
        file.as_file().write_at(b"\xFE", 1).unwrap();
        file.as_file()
            .set_modified(start() + Duration::from_secs(1))
            .unwrap();
        let held = report_held(
            &examined,
            "f",
            &input.wire_path(),
            emit.as_mut(),
            &mut Quiet::new(&mut records),
            &mut err,
        );
        assert!(!held.unwrap());
        let why = "the file changed while it was being read (it was written to: its size or \
                   modification time moved); the records above may be of its old and new bytes";
        assert_eq!(
            String::from_utf8(err).unwrap(),
            format!("hexrune: f: {why}\n")
        );
        let record: serde_json::Value = serde_json::from_slice(&records).unwrap();
        assert_eq!(record["type"], "io_error");
        assert_eq!(record["message"], why);
    }
}
