//! The non-interactive commands. Each takes a plain options struct (built from the command
//! line by [`crate::cli`]) and the writers to print to, and returns the process exit code, so
//! tests can run them in-process.
//!
//! Exit codes: 0 success, 1 "found invalid data" (where that is the question asked), 2 a
//! usage or I/O error. Errors are printed as one line, `hexrune: <file>: <cause>`.

pub mod at;
pub mod check;
pub mod dump;
pub mod explain;

use std::io::{self, Write};
use std::path::PathBuf;

use crate::report::safe_name;
use crate::source::{Source, SourceError};

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
            Input::Path(p) => safe_name(&p.to_string_lossy()),
        }
    }
}

/// Prints `hexrune: <name>: <cause>` on one line.
pub fn report_error(
    err: &mut dyn Write,
    name: &str,
    cause: &dyn std::fmt::Display,
) -> io::Result<()> {
    writeln!(err, "hexrune: {name}: {cause}")
}
