//! The command line: argument parsing, one module per command, the report and wire formats,
//! and the built-in demo.
//!
//! clap is named here and nowhere else: [`Args`] is parsed once and turned into a plain
//! [`Config`], whose options structs the commands take. Each command takes its options and
//! the writers to print to, and returns the process exit code, so tests can run them
//! in-process.
//!
//! Exit codes: 0 success, 1 "found invalid data" (where that is the question asked), 2 a
//! usage or I/O error. Errors are printed as one line, `hexrune: <file>: <cause>`.
//!
//! This layer reads [`crate::decode`], [`crate::encoding`], [`crate::source`],
//! [`crate::scan`], [`crate::detect`], [`crate::view`] and [`crate::repair`]; it never names ratatui or crossterm (the viewer is [`crate::tui`], which
//! `main` starts), and nothing below it names this layer.

mod args;
mod generate;
mod input;

pub mod at;
pub mod check;
pub mod demo;
pub mod detect;
pub mod dump;
pub mod explain;
pub mod findings;
pub mod repair;
pub mod report;
pub mod sarif;
pub mod walk;
pub mod wire;

pub use args::{parse_offset, with_usage, Args, Config};
pub use generate::{generate, page_commands, Generate};
pub use input::{report_error, stdout_writable, Input, EXIT_ERROR, EXIT_INVALID, EXIT_OK};
