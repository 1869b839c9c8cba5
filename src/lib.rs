//! hexrune: a terminal inspector for UTF-8 byte structure.
//!
//! The library is layered, and data flows one way; each layer knows only the ones before
//! it (`tests/layers.rs` checks the imports; `docs/ARCHITECTURE.md` is the map):
//!
//! ```text
//! decode <- source <- scan <- detect <- view <- repair <- { tui, cli }
//! decode <- encoding <- { repair, tui, cli }
//! ```
//!
//! - [`decode`]: pure decoding of the UTF-8 family, UTF-16, UTF-32 and single-byte encodings
//!   given as tables (no I/O, no dependencies, no allocation).
//! - [`encoding`]: labels to dialects, the single-byte tables built from encoding_rs and
//!   oem_cp, and a guess of an input's encoding (chardetng).
//! - [`source`]: the bytes of one input, memory-mapped or read into memory.
//! - [`scan`]: one loop over a whole input that pushes what it finds into sinks, and the
//!   whole-file summary and block index built on it; every command uses it, so they
//!   cannot disagree.
//! - [`detect`]: what an input most likely is (UTF-8, UTF-16/32, a legacy encoding,
//!   binary), its regions in other encodings, and its mojibake, built on the scan's summary.
//! - [`view`]: what every pane shows for a window of an input, as plain data: rows of
//!   cells, glyphs, the detail of a unit, the map, the theme, the Unicode facts of a code
//!   point. No terminal types.
//! - [`repair`]: the transformation behind `hexrune repair`: an input's units in, repaired
//!   bytes and a record of every change out, under a policy.
//! - [`tui`]: the terminal viewer (ratatui + crossterm) drawing those cells.
//! - [`cli`]: the command line (clap), one module per command, the report and wire
//!   formats, and the built-in demo.
//!
//! `main.rs` parses the command line with [`cli`] and starts either a command or [`tui`].

#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod cli;
pub mod decode;
pub mod detect;
pub mod encoding;
pub mod lint;
pub mod repair;
pub mod scan;
pub mod source;
pub mod tui;
pub mod view;

/// A small deterministic generator (xorshift64) for the unit tests: the same sequence from
/// the same seed in every run.
#[cfg(test)]
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}
