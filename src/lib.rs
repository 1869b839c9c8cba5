//! hexrune: a terminal inspector for UTF-8 byte structure.
//!
//! The library is layered; each layer knows only the ones above it:
//!
//! - [`decode`]: pure decoding of the UTF-8 family (no I/O, no dependencies).
//! - [`source`]: the bytes of one input, memory-mapped or read into memory.
//! - [`scan`]: one loop over a whole input that pushes what it finds into sinks; every
//!   command uses it, so they cannot disagree.
//! - [`report`]: the human and JSON Lines renderings of what the scan found.
//! - [`properties`]: the Unicode name, general category and printable glyph of a code point.
//! - [`view`]: the cells of every pane for a window of an input, without terminal types.
//! - [`tui`]: the terminal viewer (ratatui + crossterm) drawing those cells.
//! - [`demo`]: the embedded demo file the viewer opens when given none.

#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod cli;
pub mod decode;
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
