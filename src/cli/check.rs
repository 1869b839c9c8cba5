//! `hexrune check [FILE...]`: is each input valid in a dialect, and if not, where and why.
//!
//! Every input is scanned once, in parallel, into a [`Summary`] (counts, verdict, block
//! index). Errors are then listed in order by decoding again only the blocks that hold
//! some, so memory stays constant however many errors there are.

use std::io::{self, Write};

use super::{report_error, Input, EXIT_ERROR, EXIT_INVALID, EXIT_OK};
use crate::cli::report::{explain, hex_spaced, unit_bytes};
use crate::cli::wire::{to_line, ErrorRecord, SummaryRecord, WirePath};
use crate::decode::{Dialect, ErrorKind, Unit};
use crate::scan::index::{Progress, Summary, Verdict};
use crate::source::{Access, Source};

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
}

/// Checks every input; returns 0 if all are valid, 1 if any is not, 2 if any could not be
/// read (the others are still checked).
pub fn run(options: &CheckOptions, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<u8> {
    let mut status = EXIT_OK;
    for input in &options.inputs {
        let name = input.display_name();
        let outcome = match input.open() {
            Ok(source) => check_one(options, &name, &input.wire_path(), &source, out),
            Err(e) => Err(Failure::Source(e)),
        };
        match outcome {
            Ok(true) => {}
            Ok(false) => status = status.max(EXIT_INVALID),
            Err(Failure::Source(e)) => {
                out.flush()?;
                report_error(err, &name, &e)?;
                status = EXIT_ERROR;
            }
            Err(Failure::Output(e)) => return Err(e),
        }
    }
    Ok(status)
}

enum Failure {
    /// The input could not be read (or changed while being read).
    Source(crate::source::SourceError),
    /// Writing the report failed (a closed pipe, a full disk).
    Output(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Output(e)
    }
}

/// Checks one input and prints its report; `Ok(valid)`.
fn check_one(
    options: &CheckOptions,
    name: &str,
    path: &WirePath,
    source: &Source,
    out: &mut dyn Write,
) -> Result<bool, Failure> {
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
    source.check_intact().map_err(Failure::Source)?;
    if options.json {
        for unit in summary.errors(bytes) {
            let record = ErrorRecord::new(path, dialect, bytes, &unit);
            writeln!(out, "{}", to_line(&record))?;
        }
        let record = SummaryRecord::new(path, dialect, source.len(), &summary.tally);
        writeln!(out, "{}", to_line(&record))?;
    } else {
        print_human(options, name, bytes, &summary, out)?;
    }
    source.check_intact().map_err(Failure::Source)?;
    Ok(summary.is_valid())
}

/// One human line for an error unit.
fn error_line(dialect: Dialect, bytes: &[u8], unit: &Unit) -> String {
    let kind = unit.error_kind().map(ErrorKind::name).unwrap_or_default();
    format!(
        "  offset {} ({:#x})  {}  {kind}: {}",
        unit.start,
        unit.start,
        hex_spaced(unit_bytes(bytes, unit)),
        explain(dialect, bytes, unit)
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
    if errors == 0 {
        return Ok(());
    }
    let kinds: Vec<String> = summary
        .error_kinds()
        .iter()
        .map(|(k, n)| format!("{} {n}", k.name()))
        .collect();
    writeln!(out, "  errors   {}", kinds.join(", "))?;
    let limit = if options.all {
        usize::MAX
    } else {
        DEFAULT_LIMIT
    };
    let mut listed = 0u64;
    for unit in summary.errors(bytes).take(limit) {
        writeln!(out, "{}", error_line(dialect, bytes, &unit))?;
        listed += 1;
    }
    let hidden = errors - listed;
    if hidden > 0 {
        writeln!(
            out,
            "  ... and {hidden} more {} (--all lists every one)",
            plural(hidden, "error", "errors")
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
