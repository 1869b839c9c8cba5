//! `hexrune check [FILE...]`: is each input valid in a dialect, and if not, where and why.
//!
//! Every input is scanned once by [`crate::scan::scan`]. In JSON mode each error is written
//! the moment the scan finds it, so memory stays constant however many errors there are.
//! In human mode the first `limit` errors are kept and printed under the verdict; with
//! `--all` the rest are listed by a second pass, again without holding them in memory.

use std::io::{self, Write};

use super::{report_error, Input, EXIT_ERROR, EXIT_INVALID, EXIT_OK};
use crate::decode::{Dialect, ErrorKind, Unit};
use crate::report::{error_json, explain, hex_spaced, json_string, summary_json, unit_bytes};
use crate::scan::{scan, ClassCounts, Sink, Tally};
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
}

/// Checks every input; returns 0 if all are valid, 1 if any is not, 2 if any could not be
/// read (the others are still checked).
pub fn run(options: &CheckOptions, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<u8> {
    let mut status = EXIT_OK;
    for input in &options.inputs {
        let name = input.display_name();
        let outcome = match input.open() {
            Ok(source) => check_one(options, &name, &source, out),
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
    source: &Source,
    out: &mut dyn Write,
) -> Result<bool, Failure> {
    source.advise(Access::Sequential);
    let dialect = options.dialect;
    let bytes = source.bytes();
    let mut tally = Tally::default();
    if options.json {
        let path = json_string(name);
        let mut lines = JsonErrors {
            path: &path,
            dialect,
            out: &mut *out,
            failed: None,
        };
        scan(dialect, bytes, &mut (&mut tally, &mut lines));
        if let Some(e) = lines.failed {
            return Err(Failure::Output(e));
        }
        source.check_intact().map_err(Failure::Source)?;
        writeln!(
            out,
            "{}",
            summary_json(&path, dialect, source.len(), &tally)
        )?;
    } else {
        let mut first = FirstErrors {
            limit: DEFAULT_LIMIT,
            units: Vec::new(),
        };
        scan(dialect, bytes, &mut (&mut tally, &mut first));
        source.check_intact().map_err(Failure::Source)?;
        print_human(options, name, source, &tally, &first.units, out)?;
        source.check_intact().map_err(Failure::Source)?;
    }
    Ok(tally.error_count() == 0)
}

/// Writes one JSON line per error unit as the scan finds it.
struct JsonErrors<'a> {
    path: &'a str,
    dialect: Dialect,
    out: &'a mut dyn Write,
    failed: Option<io::Error>,
}

impl Sink for JsonErrors<'_> {
    fn valid_run(&mut self, _start: usize, _len: usize, _classes: &ClassCounts) {}

    fn unit(&mut self, bytes: &[u8], unit: &Unit) {
        if unit.is_error() && self.failed.is_none() {
            let line = error_json(self.path, self.dialect, bytes, unit);
            if let Err(e) = writeln!(self.out, "{line}") {
                self.failed = Some(e);
            }
        }
    }
}

/// Keeps the first `limit` error units.
struct FirstErrors {
    limit: usize,
    units: Vec<Unit>,
}

impl Sink for FirstErrors {
    fn valid_run(&mut self, _start: usize, _len: usize, _classes: &ClassCounts) {}

    fn unit(&mut self, _bytes: &[u8], unit: &Unit) {
        if unit.is_error() && self.units.len() < self.limit {
            self.units.push(*unit);
        }
    }
}

/// Prints every error unit after the first `skip` (the `--all` second pass).
struct LaterErrors<'a> {
    skip: usize,
    seen: usize,
    dialect: Dialect,
    out: &'a mut dyn Write,
    failed: Option<io::Error>,
}

impl Sink for LaterErrors<'_> {
    fn valid_run(&mut self, _start: usize, _len: usize, _classes: &ClassCounts) {}

    fn unit(&mut self, bytes: &[u8], unit: &Unit) {
        if !unit.is_error() || self.failed.is_some() {
            return;
        }
        self.seen += 1;
        if self.seen > self.skip {
            if let Err(e) = writeln!(self.out, "{}", error_line(self.dialect, bytes, unit)) {
                self.failed = Some(e);
            }
        }
    }
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
    source: &Source,
    tally: &Tally,
    first: &[Unit],
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let dialect = options.dialect;
    let errors = tally.error_count();
    let size = source.len();
    let scalars: u64 = tally.classes.iter().sum();
    if errors == 0 {
        let ascii = if scalars == tally.classes[1] && size > 0 {
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
    let kinds: Vec<String> = ErrorKind::ALL
        .iter()
        .filter(|k| tally.errors_of(**k) > 0)
        .map(|k| format!("{} {}", k.name(), tally.errors_of(*k)))
        .collect();
    writeln!(out, "  errors   {}", kinds.join(", "))?;
    let bytes = source.bytes();
    for unit in first {
        writeln!(out, "{}", error_line(dialect, bytes, unit))?;
    }
    let hidden = errors - first.len() as u64;
    if hidden == 0 {
        return Ok(());
    }
    if options.all {
        let mut rest = LaterErrors {
            skip: first.len(),
            seen: 0,
            dialect,
            out: &mut *out,
            failed: None,
        };
        scan(dialect, bytes, &mut rest);
        if let Some(e) = rest.failed {
            return Err(Failure::Output(e));
        }
    } else {
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
