//! What every command shares: an input named on the command line, the exit codes, and the
//! one-line error report `hexrune: <file>: <cause>`.

use std::io::{self, Write};
use std::path::PathBuf;

use crate::source::{Source, SourceError};
use crate::view::safe::sanitize;

/// Exit code: everything asked about is fine.
pub const EXIT_OK: u8 = 0;
/// Exit code: an input holds invalid data.
pub const EXIT_INVALID: u8 = 1;
/// Exit code: a usage or I/O error.
pub const EXIT_ERROR: u8 = 2;

/// An input named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// The standard input (`-`, or no file at all).
    Stdin,
    /// A path.
    Path(PathBuf),
}

impl Input {
    /// `-` is the standard input; anything else a path.
    pub fn from_arg(arg: PathBuf) -> Input {
        if arg.as_os_str() == "-" {
            Input::Stdin
        } else {
            Input::Path(arg)
        }
    }

    /// Opens the input.
    pub fn open(&self) -> Result<Source, SourceError> {
        match self {
            Input::Stdin => Source::stdin(),
            Input::Path(p) => Source::open(p),
        }
    }

    /// The name to print for this input (made safe for a terminal).
    pub fn display_name(&self) -> String {
        match self {
            Input::Stdin => "<stdin>".to_string(),
            Input::Path(p) => sanitize(&p.to_string_lossy()),
        }
    }
}

/// Prints `hexrune: <name>: <cause>` on one line.
pub fn report_error(
    err: &mut dyn Write,
    name: &str,
    cause: &dyn std::fmt::Display,
) -> io::Result<()> {
    // Both are sanitised here, whoever built them: a cause may quote the input too.
    writeln!(
        err,
        "hexrune: {}: {}",
        sanitize(name),
        sanitize(&cause.to_string())
    )
}
