//! `hexrune at FILE OFFSET`: the unit containing one offset, as one JSON object.

use std::io::{self, Write};

use super::{report_error, Input, EXIT_ERROR, EXIT_OK};
use crate::cli::wire::{to_line, UnitRecord};
use crate::decode::Dialect;
use crate::view::fallback::Fallback;

/// What `hexrune at` was asked.
#[derive(Clone, Debug)]
pub struct AtOptions {
    /// The dialect to decode in.
    pub dialect: Dialect,
    /// The input.
    pub input: Input,
    /// The byte offset to look at.
    pub offset: u64,
    /// The encoding an error unit is also read in (`--fallback`), if any.
    pub fallback: Option<Fallback>,
}

/// Prints the unit containing `offset` (found by resync, never decoding from the start).
pub fn run(options: &AtOptions, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<u8> {
    let name = options.input.display_name();
    let source = match options.input.open() {
        Ok(s) => s,
        Err(e) => {
            report_error(err, &name, &e)?;
            return Ok(EXIT_ERROR);
        }
    };
    if options.offset >= source.len() {
        let cause = super::input::no_byte_at(options.offset, source.len());
        report_error(err, &name, &cause)?;
        return Ok(EXIT_ERROR);
    }
    let bytes = source.bytes();
    let unit = options
        .dialect
        .unit_containing(bytes, options.offset as usize);
    let record = UnitRecord::new(options.dialect, bytes, &unit, options.fallback.as_ref());
    let line = to_line(&record);
    if let Err(e) = source.check_intact() {
        report_error(err, &name, &e)?;
        return Ok(EXIT_ERROR);
    }
    writeln!(out, "{line}")?;
    Ok(EXIT_OK)
}
