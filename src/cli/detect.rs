//! `hexrune detect FILE...`: what each input most likely is (UTF-8, UTF-16/32, a legacy
//! encoding, binary), its byte order mark, the regions of an input that mixes encodings,
//! and its mojibake (UTF-8 that went through a wrong decoding).
//!
//! Each input is scanned once, in parallel, into the same [`Summary`] `check` builds;
//! [`crate::detect::detect`] looks further only where the summary says there is something
//! to see. Human output is one line per input, then indented lines for regions, U+FEFF
//! found after the start, mojibake and the evidence; `--json` is one object per input.

use std::io::{self, Write};

use super::{report_error, Input, EXIT_ERROR, EXIT_OK};
use crate::cli::wire::{to_line, DetectRecord, IoErrorRecord};
use crate::decode::Dialect;
use crate::detect::{detect, Detection};
use crate::scan::index::{Progress, Summary};
use crate::source::Access;
use crate::view::safe::sanitize;

/// What `hexrune detect` was asked.
#[derive(Clone, Debug)]
pub struct DetectOptions {
    /// JSON Lines instead of human output.
    pub json: bool,
    /// The inputs, in order.
    pub inputs: Vec<Input>,
    /// Worker threads for the scan (1 or more).
    pub threads: usize,
}

/// How many mojibake regions human output lists per input.
pub const MOJIBAKE_SHOWN: usize = 20;

/// Detects every input; returns 0, or 2 if any input could not be read (the others are
/// still looked at). An unreadable input is reported on `err`, and under `--json` as an
/// `io_error` record on `out` too, as `check` does.
pub fn run(options: &DetectOptions, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<u8> {
    let mut status = EXIT_OK;
    for input in &options.inputs {
        let name = input.display_name();
        let path = input.wire_path();
        let found = input.open().and_then(|source| {
            source.advise(Access::Sequential);
            let bytes = source.bytes();
            let summary = Summary::build_marked(
                Dialect::Utf8,
                bytes,
                options.threads,
                &Progress::new(),
                Some(&crate::detect::mark_block),
            )
            .expect("a scan nobody cancels runs to the end");
            let detection = detect(bytes, &summary);
            source.check_intact().map(|()| (source, detection))
        });
        let printed = match found {
            Ok((source, detection)) if options.json => {
                let record = DetectRecord::new(&path, source.bytes(), &detection);
                writeln!(out, "{}", to_line(&record))
            }
            Ok((_, detection)) => print_human(&name, &detection, out),
            Err(e) => {
                status = EXIT_ERROR;
                report_error(err, &name, &e)?;
                if options.json {
                    writeln!(
                        out,
                        "{}",
                        to_line(&IoErrorRecord::new(&path, e.to_string()))
                    )
                } else {
                    Ok(())
                }
            }
        };
        match printed {
            Ok(()) => {}
            // The reader left: nothing more to say but the exit code.
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(status),
            Err(e) => return Err(e),
        }
    }
    Ok(status)
}

/// How many characters of a mojibake region's repaired text human output shows.
const TEXT_SHOWN: usize = 160;

/// A region's repaired text as a line shows it: quoted, sanitised, and cut after [`TEXT_SHOWN`]
/// characters with how many more there are (a region can be a whole file of one line;
/// `--json` has the whole text).
fn shown_text(text: &str) -> String {
    let mut chars = text.char_indices();
    match chars.nth(TEXT_SHOWN) {
        None => format!("\"{}\"", sanitize(text)),
        Some((cut, _)) => {
            let more = text[cut..].chars().count();
            format!(
                "\"{}\" ... {more} more characters (--json has them all)",
                sanitize(&text[..cut])
            )
        }
    }
}

/// The human report of one input.
fn print_human(name: &str, d: &Detection, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{}", headline(name, d))?;
    if d.regions.len() > 1 {
        for r in &d.regions {
            writeln!(
                out,
                "  region {}..{} ({:#x}..{:#x}): {}",
                r.start, r.end, r.start, r.end, r.encoding
            )?;
        }
    }
    for at in &d.inner_boms {
        writeln!(
            out,
            "  U+FEFF at {at} ({at:#x}): a byte order mark inside (files joined?)"
        )?;
    }
    for m in d.mojibake.iter().take(MOJIBAKE_SHOWN) {
        writeln!(
            out,
            "  mojibake {}..{} ({:#x}..{:#x}): {} -> {}",
            m.start,
            m.end,
            m.start,
            m.end,
            crate::repair::history(m.chain_names().into_iter()),
            shown_text(&m.text)
        )?;
    }
    if d.mojibake.len() > MOJIBAKE_SHOWN {
        writeln!(
            out,
            "  ... {} more mojibake regions (--json lists all)",
            d.mojibake.len() - MOJIBAKE_SHOWN
        )?;
    }
    if !d.evidence.is_empty() {
        writeln!(out, "  why: {}", d.evidence.join("; "))?;
    }
    Ok(())
}

/// `name: UTF-8 with 2 errors, BOM UTF-8 (EF BB BF), 3 regions, 1 mojibake region`.
pub fn headline(name: &str, d: &Detection) -> String {
    let mut line = format!("{name}: {}", d.headline());
    if let Some(bom) = d.bom {
        line.push_str(&format!(", BOM {} ({})", bom.encoding(), bom.hex()));
    }
    if d.regions.len() > 1 {
        line.push_str(&format!(", {} regions", d.regions.len()));
    }
    if !d.inner_boms.is_empty() {
        line.push_str(&format!(", U+FEFF inside ×{}", d.inner_boms.len()));
    }
    match d.mojibake.len() {
        0 => {}
        1 => line.push_str(", 1 mojibake region"),
        n => line.push_str(&format!(", {n} mojibake regions")),
    }
    line
}
