//! `hexrune check [FILE...]`: is each input valid in a dialect, and if not, where and why.
//!
//! Every input is scanned once, in parallel, into a [`Summary`] (counts, verdict, block
//! index). Errors are then listed in order by decoding again only the blocks that hold
//! some, so memory stays constant however many errors there are.

use std::io::{self, Write};

use super::{report_error, Input, EXIT_ERROR, EXIT_INVALID, EXIT_OK};
use crate::cli::report::{explain, hex_spaced, unit_bytes};
use crate::cli::wire::{
    to_line, ErrorRecord, FindingRecord, IoErrorRecord, LineColumn, SummaryRecord, WirePath,
};
use crate::decode::{Dialect, ErrorKind, Unit};
use crate::scan::index::{Progress, Summary, Verdict};
use crate::source::{Access, Source};
use crate::view::fallback::Fallback;

/// How many errors human output lists per input unless `--all` is given.
pub const DEFAULT_LIMIT: usize = 20;

/// What `hexrune check` was asked.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// The dialect to validate against.
    pub dialect: Dialect,
    /// JSON Lines instead of human output.
    pub json: bool,
    /// List every error in human output, not just the first [`DEFAULT_LIMIT`].
    pub all: bool,
    /// The inputs, in order.
    pub inputs: Vec<Input>,
    /// Worker threads for the scan (1 or more).
    pub threads: usize,
    /// The encoding each error unit is also read in (`--fallback`), if any.
    pub fallback: Option<Fallback>,
}

/// Checks every input; returns 0 if all are valid, 1 if any is not, 2 if any could not be
/// read (the others are still checked).
///
/// A reader that leaves early (`hexrune check --json big.bin | head -1`) does not change the
/// answer: the output goes quiet, every input is still checked, and the exit code is the
/// one a reader that stayed would have seen. An input that cannot be read is reported on
/// `err`, and under `--json` as an `io_error` record on `out` too.
pub fn run(options: &CheckOptions, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<u8> {
    let mut status = EXIT_OK;
    let mut sink = io::sink();
    let mut out = out;
    for input in &options.inputs {
        let name = input.display_name();
        let path = input.wire_path();
        let (code, printed) = match input.open().and_then(|source| {
            let checked = check_one(options, &name, &path, &source, out);
            source.check_intact().map(|()| checked)
        }) {
            Ok(Checked { valid, printed }) => (if valid { EXIT_OK } else { EXIT_INVALID }, printed),
            Err(e) => {
                let printed = if options.json {
                    let record = IoErrorRecord::new(&path, e.to_string());
                    writeln!(out, "{}", to_line(&record))
                } else {
                    Ok(())
                };
                let printed = printed.and_then(|()| out.flush());
                report_error(err, &name, &e)?;
                (EXIT_ERROR, printed)
            }
        };
        status = status.max(code);
        match printed {
            Ok(()) => {}
            // The reader left: what is left to say is the exit code.
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => out = &mut sink,
            Err(e) => return Err(e),
        }
    }
    Ok(status)
}

/// What checking one readable input found, and whether its report could be written.
struct Checked {
    valid: bool,
    printed: io::Result<()>,
}

/// Checks one input and prints its report. The caller checks that the input stayed intact
/// while it was read.
fn check_one(
    options: &CheckOptions,
    name: &str,
    path: &WirePath,
    source: &Source,
    out: &mut dyn Write,
) -> Checked {
    source.advise(Access::Sequential);
    let dialect = options.dialect;
    let bytes = source.bytes();
    // Pages behind the scan are let go, so memory does not grow with the input.
    let summary = Summary::build_releasing(
        dialect,
        bytes,
        options.threads,
        &Progress::new(),
        |range| source.release(range),
        |range| source.prefetch(range),
    )
    .expect("a scan nobody cancels runs to the end");
    let printed = if source.check_intact().is_err() {
        // Nothing of a changed input is printed; the caller reports it.
        Ok(())
    } else if options.json {
        print_json(
            path,
            dialect,
            options.fallback.as_ref(),
            bytes,
            &summary,
            out,
        )
    } else {
        print_human(options, name, bytes, &summary, out)
    };
    Checked {
        valid: summary.is_valid(),
        printed,
    }
}

/// The kind of finding `check` reports for a U+FFFD already in the input.
pub const REPLACEMENT_CHARACTER: &str = "replacement-character";

/// What `check` lists for an input, in input order: error units, and findings (U+FFFD
/// characters: valid, but a sign that data was lost before the input was written).
enum Listed {
    Error(Unit),
    Finding(Unit),
}

impl Listed {
    fn unit(&self) -> &Unit {
        match self {
            Listed::Error(u) | Listed::Finding(u) => u,
        }
    }
}

/// Errors and findings merged in input order.
fn listed<'a>(summary: &'a Summary, bytes: &'a [u8]) -> impl Iterator<Item = Listed> + 'a {
    let mut errors = summary.errors(bytes).peekable();
    let mut findings = summary.replacements(bytes).peekable();
    std::iter::from_fn(move || match (errors.peek(), findings.peek()) {
        (Some(e), Some(f)) if f.start < e.start => findings.next().map(Listed::Finding),
        (Some(_), _) => errors.next().map(Listed::Error),
        (None, _) => findings.next().map(Listed::Finding),
    })
}

fn print_json(
    path: &WirePath,
    dialect: Dialect,
    fallback: Option<&Fallback>,
    bytes: &[u8],
    summary: &Summary,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut lines = summary.lines(bytes);
    for item in listed(summary, bytes) {
        let unit = item.unit();
        let (line, column) = lines.at(unit.start);
        let position = LineColumn { line, column };
        let record = match &item {
            Listed::Error(u) => to_line(&ErrorRecord::new(
                path, dialect, bytes, u, position, fallback,
            )),
            Listed::Finding(u) => to_line(&FindingRecord::new(
                path,
                REPLACEMENT_CHARACTER,
                bytes,
                u,
                position,
            )),
        };
        writeln!(out, "{record}")?;
    }
    let findings = [(REPLACEMENT_CHARACTER, summary.replacement_count())];
    let record = SummaryRecord::new(path, dialect, summary.len, &summary.tally, &findings);
    writeln!(out, "{}", to_line(&record))
}

/// One human line for an error unit or a finding that starts on `line` at `column`.
fn listed_line(
    options: &CheckOptions,
    bytes: &[u8],
    item: &Listed,
    line: u64,
    column: u64,
) -> String {
    let unit = item.unit();
    let (kind, why) = match item {
        Listed::Error(u) => {
            let mut why = explain(options.dialect, bytes, u);
            if let Some(f) = &options.fallback {
                why.push_str("; fallback ");
                why.push_str(&f.describe(unit_bytes(bytes, u)));
            }
            (u.error_kind().map(ErrorKind::name).unwrap_or_default(), why)
        }
        Listed::Finding(_) => (
            REPLACEMENT_CHARACTER,
            "U+FFFD REPLACEMENT CHARACTER already in the input: something lost data before it was written".to_string(),
        ),
    };
    format!(
        "  offset {} ({:#x})  {line}:{column}  {}  {kind}: {why}",
        unit.start,
        unit.start,
        hex_spaced(unit_bytes(bytes, unit)),
    )
}

fn print_human(
    options: &CheckOptions,
    name: &str,
    bytes: &[u8],
    summary: &Summary,
    out: &mut dyn Write,
) -> io::Result<()> {
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
    if let Some(bom) = summary.bom {
        writeln!(out, "  bom      {}", bom.describe())?;
    }
    let classes: Vec<String> = dialect
        .classes()
        .iter()
        .map(|c| format!("{c}-byte {}", tally.classes[*c as usize]))
        .collect();
    writeln!(out, "  units    {}", classes.join(", "))?;
    let findings = summary.replacement_count();
    if errors > 0 {
        let kinds: Vec<String> = summary
            .error_kinds()
            .iter()
            .map(|(k, n)| format!("{} {n}", k.name()))
            .collect();
        writeln!(out, "  errors   {}", kinds.join(", "))?;
    }
    if findings > 0 {
        writeln!(out, "  findings {REPLACEMENT_CHARACTER} {findings}")?;
    }
    let limit = if options.all {
        usize::MAX
    } else {
        DEFAULT_LIMIT
    };
    let (mut errors_listed, mut findings_listed) = (0u64, 0u64);
    let mut lines = summary.lines(bytes);
    for item in listed(summary, bytes).take(limit) {
        let (line, column) = lines.at(item.unit().start);
        writeln!(out, "{}", listed_line(options, bytes, &item, line, column))?;
        match item {
            Listed::Error(_) => errors_listed += 1,
            Listed::Finding(_) => findings_listed += 1,
        }
    }
    let (errors_hidden, findings_hidden) = (errors - errors_listed, findings - findings_listed);
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

fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}
