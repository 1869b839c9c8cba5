//! One loop over a whole input that pushes what it finds into sinks.
//!
//! [`scan`] and [`scan_range`] walk a byte slice front to back and account for every unit
//! exactly once, in one of two ways:
//!
//! - one by one, through [`Sink::unit`], in input order: every error unit, and the scalars
//!   the scan happened to decode individually near errors;
//! - in bulk, as counts per sequence-length class, through [`Sink::scalars`] (and, for
//!   sinks that only count, [`Sink::dense`] for error-dense stretches).
//!
//! In UTF-8 the range is read once, in 64-byte chunks, by hexrune's own kernel (`scan::simd`):
//! it validates with the lookup method of Keiser and Lemire, counts lead bytes by class on
//! the same vectors (in well-formed UTF-8 the scalars of class k are exactly the lead bytes
//! of class k), and marks each byte where an error shows as one bit of a 64-bit mask. Every
//! lead byte of the range is counted once, and the lead of each unit reported one by one is
//! taken off. An error unit shows at most 3 bytes after its start, so around the first bit
//! the scan decodes precisely only from the unit boundary at or before 3 bytes back to a
//! settled boundary past the bit, and reads the rest of the chunk's mask from there: an
//! error costs a few decoded units, not a restart. Where errors come close together, a
//! sink that only counts has them counted 32 bytes at a time by a branch-free kernel
//! (`scan::dense`), and other sinks get units decoded one by one for a while; a new run of
//! chunks starts after. The other dialects count each stretch the UTF-8 validator accepts
//! and hand what it rejects to the precise decoder. UTF-16 and UTF-32 have their own loop
//! (`scan::wide`): chunks without surrogates are counted whole, the rest decoded.
//!
//! The kernel runs on AVX-512 (AVX-512BW) or AVX2, chosen once at run time; on other CPUs
//! the UTF-8 scan validates with simdutf8 and counts lead bytes in a second pass, compiled
//! for baseline x86-64 and AVX2 and chosen at run time (the `multiversion` crate).
//!
//! Every command uses this one loop, so they cannot disagree; tests hold its result equal
//! to [`Dialect::units`] in every dialect, over any cutting of the input into ranges.
//! [`index`] builds on the loop: the whole-file summary, verdict and block index that the
//! viewer and `check` share.
//!
//! The edge: this layer reads [`crate::decode`] and [`crate::source`]; it knows decoding,
//! not terminals, and reports through sinks, never by printing.

use std::ops::Range;

mod dense;
pub mod index;
pub mod multibyte;
pub mod pool;
mod simd;
mod wide;

use crate::decode::{
    decode_utf8_at, is_continuation, Checkpoint, Dialect, ErrorKind, MbState, Shape, Unit,
};
use simd::{Leads, Level, CHUNK};

/// Receives what a scan finds.
pub trait Sink {
    /// One unit decoded individually: every error, in input order, and some scalars near
    /// errors. `bytes` is the whole input the scan runs over, for context.
    fn unit(&mut self, bytes: &[u8], unit: &Unit);

    /// Scalars counted in bulk, not reported through [`Sink::unit`]: `classes[k]` of class
    /// `k` (index 0 unused). Called once or more per range scanned.
    fn scalars(&mut self, classes: &ClassCounts);

    /// Whether this sink only counts. The scan may then report errors in UTF-8 stretches
    /// dense with them in bulk, as [`DenseCounts`] through [`Sink::dense`].
    const COUNTS_ONLY: bool = false;

    /// Error units counted in bulk. Called only when `COUNTS_ONLY`, at most once per range
    /// scanned, and not in input order with [`Sink::unit`]: the positions it carries may lie
    /// before those of units already reported.
    fn dense(&mut self, _counts: &DenseCounts) {}
}

/// Number of scalars per sequence-length class; index 0 unused, 1 to 6 used.
pub type ClassCounts = [u64; 7];

/// Error units counted by tag (see [`Shape`]) without being reported one by one, with the
/// offsets of the first and last of them (`usize::MAX` if none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DenseCounts {
    /// Units per [`Shape::tag`] (index 0 unused; only error tags are counted).
    pub tags: [u64; Shape::TAGS],
    /// Offset of the first error unit counted.
    pub first_error: usize,
    /// Offset of the last error unit counted.
    pub last_error: usize,
}

impl Default for DenseCounts {
    fn default() -> DenseCounts {
        DenseCounts {
            tags: [0; Shape::TAGS],
            first_error: usize::MAX,
            last_error: usize::MAX,
        }
    }
}

impl<A: Sink, B: Sink> Sink for (A, B) {
    fn unit(&mut self, bytes: &[u8], unit: &Unit) {
        self.0.unit(bytes, unit);
        self.1.unit(bytes, unit);
    }
    fn scalars(&mut self, classes: &ClassCounts) {
        self.0.scalars(classes);
        self.1.scalars(classes);
    }
}

impl<S: Sink> Sink for &mut S {
    fn unit(&mut self, bytes: &[u8], unit: &Unit) {
        (**self).unit(bytes, unit);
    }
    fn scalars(&mut self, classes: &ClassCounts) {
        (**self).scalars(classes);
    }
    const COUNTS_ONLY: bool = S::COUNTS_ONLY;
    fn dense(&mut self, counts: &DenseCounts) {
        (**self).dense(counts);
    }
}

/// The most bytes the fast path hands to the validator at once.
const BLOCK: usize = 64 * 1024;

/// The block the fast path starts with after an error; it doubles with every clean block
/// up to [`BLOCK`], so a lone error costs a short validation, not a 64 KiB one.
const SMALL_BLOCK: usize = 256;

/// Errors less than this many bytes apart count as close together.
const DENSE_GAP: usize = 16;

/// After this many close errors in a row, the UTF-8 scan for sinks that see every error
/// switches from validating between errors to decoding unit by unit for a while.
const DENSE_STREAK: usize = 4;

/// Outside UTF-8, after an error the precise decoder keeps going until it has seen this
/// many bytes without one; dense errors then never bounce through the fast path.
const CLEAN_STRETCH: usize = 64;

/// The implementation of the UTF-8 scan this CPU runs, chosen once: `avx512` or `avx2` (the
/// kernel on those vectors), or `validator` (simdutf8, then a separate count) elsewhere.
/// The environment variable `HEXRUNE_SCAN_KERNEL` may name a slower one the CPU runs
/// (`scalar` is the kernel's method a byte at a time), to compare them.
///
/// ```
/// let names = ["avx512", "avx2", "validator", "scalar"];
/// assert!(names.contains(&hexrune::scan::utf8_kernel()));
/// ```
pub fn utf8_kernel() -> &'static str {
    Level::best().name()
}

/// The most chunks with errors one call of the kernel reports: enough to spare a call per
/// error on corrupted text, few enough that a run that ends for dense errors has not read
/// far ahead.
const FOUND: usize = 8;

/// Scans all of `bytes` in `dialect`, pushing into `sink`.
pub fn scan(dialect: Dialect, bytes: &[u8], sink: &mut impl Sink) {
    scan_range(dialect, bytes, 0..bytes.len(), sink);
}

/// Scans the units that *start* in `range`, pushing into `sink`. The first of them is found
/// by resync (a unit that starts before `range.start` belongs to the range before); the last
/// may end past `range.end`. Scanning consecutive ranges therefore reports every unit of
/// the input exactly once, which is what lets the scan run in parallel chunks.
pub fn scan_range(dialect: Dialect, bytes: &[u8], range: Range<usize>, sink: &mut impl Sink) {
    let stop = range.end.min(bytes.len());
    if let Dialect::MultiByte(table) = dialect {
        let from = first_checkpoint(dialect, bytes, range.start);
        multibyte::scan_multi_byte(table, bytes, from, stop, sink);
        return;
    }
    let start = first_boundary(dialect, bytes, range.start);
    if start >= stop {
        return;
    }
    match dialect {
        Dialect::Utf8 => scan_utf8(Level::best(), bytes, start, stop, sink),
        Dialect::Utf16Le | Dialect::Utf16Be | Dialect::Utf32Le | Dialect::Utf32Be => {
            wide::scan_wide(dialect, bytes, start, stop, sink)
        }
        Dialect::SingleByte(table) => wide::scan_single_byte(table, bytes, start, stop, sink),
        _ => scan_general(dialect, bytes, start, stop, sink),
    }
}

/// [`scan_range`] with a chosen implementation of the UTF-8 path, so tests reach every one.
#[cfg(test)]
fn scan_range_at(
    level: Level,
    dialect: Dialect,
    bytes: &[u8],
    range: Range<usize>,
    sink: &mut impl Sink,
) {
    let stop = range.end.min(bytes.len());
    if let Dialect::MultiByte(table) = dialect {
        let from = first_checkpoint(dialect, bytes, range.start);
        multibyte::scan_multi_byte(table, bytes, from, stop, sink);
        return;
    }
    let start = first_boundary(dialect, bytes, range.start);
    if start >= stop {
        return;
    }
    match dialect {
        Dialect::Utf8 => scan_utf8(level, bytes, start, stop, sink),
        Dialect::Utf16Le | Dialect::Utf16Be | Dialect::Utf32Le | Dialect::Utf32Be => {
            wide::scan_wide(dialect, bytes, start, stop, sink)
        }
        Dialect::SingleByte(table) => wide::scan_single_byte(table, bytes, start, stop, sink),
        _ => scan_general(dialect, bytes, start, stop, sink),
    }
}

/// The first unit boundary at or after `offset`: `offset` itself if a unit starts there,
/// else the end of the unit containing it.
pub fn first_boundary(dialect: Dialect, bytes: &[u8], offset: usize) -> usize {
    if offset == 0 || offset >= bytes.len() {
        return offset.min(bytes.len());
    }
    let unit = dialect.unit_containing(bytes, offset);
    if unit.start == offset {
        offset
    } else {
        unit.end()
    }
}

/// The first unit boundary at or after `offset` and the decoder state there (ISO-2022-JP's
/// mode; nothing in other dialects), found by [`Dialect::resync`].
pub fn first_checkpoint(dialect: Dialect, bytes: &[u8], offset: usize) -> Checkpoint {
    if offset == 0 || offset >= bytes.len() {
        return Checkpoint {
            at: offset.min(bytes.len()),
            state: MbState::INITIAL,
        };
    }
    let found = dialect.resync(bytes, offset, None);
    match (found.unit.start == offset, dialect.multi_byte()) {
        (true, _) | (false, None) => Checkpoint {
            at: if found.unit.start == offset {
                offset
            } else {
                found.unit.end()
            },
            state: found.state,
        },
        (false, Some(table)) => {
            let start = Checkpoint {
                at: found.unit.start,
                state: found.state,
            };
            multibyte::start_of(table, bytes, start, offset)
        }
    }
}

/// The lead class of a byte as [`count_classes`] counts it: 1 for ASCII, 2 for C0..DF, 3
/// for E0..EF, 4 for F0..FF, 0 for a continuation byte.
const fn lead_class(b: u8) -> usize {
    match b {
        0x00..=0x7F => 1,
        0x80..=0xBF => 0,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

static LEAD_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = lead_class(i as u8) as u8;
        i += 1;
    }
    table
};

/// Forwards units to a sink and keeps the lead class of each, to take them off a bulk
/// count of lead bytes.
struct Individually<'a, S> {
    sink: &'a mut S,
    leads: [u64; 5],
}

impl<S: Sink> Individually<'_, S> {
    fn report(&mut self, bytes: &[u8], unit: &Unit) {
        self.leads[LEAD_CLASS[bytes[unit.start] as usize] as usize] += 1;
        self.sink.unit(bytes, unit);
    }
}

/// The UTF-8 scan of the units starting in `start..stop` (`start` a unit boundary).
fn scan_utf8<S: Sink>(level: Level, bytes: &[u8], start: usize, stop: usize, sink: &mut S) {
    match level {
        Level::Validator => scan_utf8_validated(bytes, start, stop, sink),
        _ => scan_utf8_fused(level, bytes, start, stop, sink),
    }
}

/// The lead bytes of `start..covered` (bytes past the input read as `00`), counted by the
/// kernel chunk by chunk and corrected where runs of chunks overlap or leave gaps.
struct Coverage<'a> {
    bytes: &'a [u8],
    covered: usize,
    leads: Leads,
}

impl Coverage<'_> {
    /// Moves the end of the counted bytes to `at`, counting or uncounting the difference.
    fn move_to(&mut self, at: usize) {
        let (from, to, add) = if at >= self.covered {
            (self.covered, at, true)
        } else {
            (at, self.covered, false)
        };
        let len = self.bytes.len();
        let mut part = count_classes(&self.bytes[from.min(len)..to.min(len)]);
        part[1] += (to - from.max(len).min(to)) as u64;
        for (lead, n) in self.leads.iter_mut().zip(part) {
            *lead = if add {
                lead.wrapping_add(n)
            } else {
                lead.wrapping_sub(n)
            };
        }
        self.covered = at;
    }
}

/// The UTF-8 scan with the kernel ([`simd`]): runs of 64-byte chunks validated and counted
/// in one pass, each error decoded precisely from at most 3 bytes before its error bit.
///
/// Every byte of `start..stop` is counted once as a lead (or not, for a continuation byte)
/// by [`Coverage`]; the units reported one by one are taken off at the end. Where errors
/// keep coming close together (random or binary data), a sink that only counts has them
/// counted window by window ([`dense`]); other sinks get units decoded one by one for a
/// while. Either way a new run of chunks starts after.
fn scan_utf8_fused<S: Sink>(level: Level, bytes: &[u8], start: usize, stop: usize, sink: &mut S) {
    let mut out = Individually {
        sink,
        leads: [0; 5],
    };
    let mut coverage = Coverage {
        bytes,
        covered: start,
        leads: [0; 5],
    };
    let mut dense = DenseCounts::default();
    let mut pos = start;
    let mut close_errors = 0;
    while pos < stop {
        if close_errors < DENSE_STREAK {
            pos = run(
                level,
                bytes,
                pos,
                stop,
                &mut coverage,
                &mut out,
                &mut close_errors,
            );
            continue;
        }
        if S::COUNTS_ONLY {
            let end = block_end(bytes, pos, dense::WINDOW, stop);
            if end + dense::VIEW <= bytes.len() {
                let (next, found) = count_windows(bytes, pos, end, &mut dense, &mut out.leads);
                pos = next;
                close_errors = if found { close_errors } else { 0 };
                continue;
            }
        } else {
            pos = decode_until_clean(Dialect::Utf8, bytes, pos, stop, &mut |u: &Unit| {
                out.report(bytes, u)
            });
        }
        close_errors = 0;
    }
    if dense.first_error != usize::MAX {
        out.sink.dense(&dense);
    }
    coverage.move_to(stop);
    let mut classes = [0u64; 7];
    for (class, n) in classes.iter_mut().enumerate().take(5).skip(1) {
        *n = coverage.leads[class].wrapping_sub(out.leads[class]);
    }
    out.sink.scalars(&classes);
}

/// One run of the kernel from `pos` (a unit boundary). Returns where the scan goes on:
/// `stop` or past it when the range is done, or the unit boundary after an error when
/// `close_errors` has reached [`DENSE_STREAK`].
fn run<S: Sink>(
    level: Level,
    bytes: &[u8],
    mut pos: usize,
    stop: usize,
    coverage: &mut Coverage,
    out: &mut Individually<S>,
    close_errors: &mut usize,
) -> usize {
    let first = pos;
    if coverage.covered != first {
        coverage.move_to(first);
    }
    // Where the bytes before the run are settled, the kernel may read them: its bits are
    // then those of a fresh start (see `scan::simd`). Otherwise it reads the run as
    // preceded by `00` bytes, from a padded copy of the first chunk.
    let context = if first >= 3 && simd::settled(bytes, 0, first) {
        0
    } else {
        first
    };
    let mut chunk = first;
    let mut found = [(0, 0); FOUND];
    while chunk < stop {
        let padded_start = chunk == first && context == first;
        let (done, written) = if padded_start || chunk + CHUNK > bytes.len() {
            // The first chunk of a run without context, or the last of the input.
            let mut padded = [0u8; 3 + CHUNK];
            if chunk - context >= 3 {
                padded[..3].copy_from_slice(&bytes[chunk - 3..chunk]);
            }
            let real = bytes.len().min(chunk + CHUNK) - chunk;
            padded[3..3 + real].copy_from_slice(&bytes[chunk..chunk + real]);
            simd::check_chunks(level, &padded, 3, 1, &mut coverage.leads, &mut found)
        } else {
            let chunks = (stop - chunk)
                .div_ceil(CHUNK)
                .min((bytes.len() - chunk) / CHUNK);
            simd::check_chunks(level, bytes, chunk, chunks, &mut coverage.leads, &mut found)
        };
        if done == 0 {
            // Cannot happen (a chunk always fits, padded if need be); stay correct anyway.
            return decode_until_clean(Dialect::Utf8, bytes, pos, stop, &mut |u: &Unit| {
                out.report(bytes, u)
            });
        }
        let batch = chunk;
        chunk += done * CHUNK;
        coverage.covered = chunk;
        for &(index, mut mask) in &found[..written] {
            let base = batch + index * CHUNK;
            loop {
                let skip = pos.saturating_sub(base);
                mask = if skip >= CHUNK {
                    0
                } else {
                    mask & (!0 << skip)
                };
                if mask == 0 {
                    break;
                }
                let flag = base + mask.trailing_zeros() as usize;
                if flag >= stop + 3 {
                    // Every unit that starts before `stop` starts before `flag - 3`: a scalar.
                    return stop;
                }
                let from = boundary_before(bytes, pos, flag.saturating_sub(3).max(pos));
                *close_errors = if from - pos < DENSE_GAP {
                    *close_errors + 1
                } else {
                    0
                };
                pos = decode_past(bytes, context, from, flag, stop, out);
                if pos >= stop || *close_errors >= DENSE_STREAK {
                    return pos;
                }
            }
        }
    }
    // A unit that starts in the 3 bytes before the last chunk's end may have its error bit
    // past it; unless that end is settled, decode them.
    if pos < stop && !simd::settled(bytes, context, chunk) {
        let from = boundary_before(bytes, pos, chunk.saturating_sub(3).max(pos));
        pos = decode_past(bytes, context, from, chunk, stop, out);
    }
    pos.max(stop)
}

/// A unit boundary at or before `at` and at or after `pos` (itself a unit boundary), when
/// every unit that starts before `at` is a scalar: the nearest byte at or before `at` that
/// is not a continuation byte (in UTF-8 every such byte starts a unit), which is at most 3
/// bytes back, else resync.
fn boundary_before(bytes: &[u8], pos: usize, at: usize) -> usize {
    let lowest = at.saturating_sub(3).max(pos);
    match (lowest..=at).rev().find(|&i| !is_continuation(bytes[i])) {
        Some(i) => i,
        None if lowest == pos => pos,
        None => Dialect::Utf8.unit_containing(bytes, at).start.max(pos),
    }
}

/// Decodes and reports the units from `pos` (a unit boundary) until a settled boundary
/// (see [`simd::settled`]; the kernel read the bytes before `context` as `00`) past `flag`,
/// or until no unit starts before `stop`. Returns that boundary.
fn decode_past<S: Sink>(
    bytes: &[u8],
    context: usize,
    mut pos: usize,
    flag: usize,
    stop: usize,
    out: &mut Individually<S>,
) -> usize {
    while pos < stop {
        // Branch-free where four bytes are readable: near errors, what comes next is hard
        // to predict.
        let unit =
            decode_utf8_at(bytes, pos).unwrap_or_else(|| Dialect::Utf8.decode_at(bytes, pos));
        out.report(bytes, &unit);
        pos = unit.end();
        if pos > flag && simd::settled(bytes, context, pos) {
            break;
        }
    }
    pos
}

/// The UTF-8 scan without a kernel, where the CPU has none: blocks are validated by
/// simdutf8, and lead bytes counted in a second pass.
///
/// Blocks the SIMD validator accepts need nothing more: their scalars are in the count of
/// lead bytes made at the end. In a block it rejects, the validator locates the error, that
/// one unit is decoded, and validation resumes right after it. Where errors keep coming
/// close together (random or binary data), a sink that only counts has each rejected block
/// counted window by window ([`dense`]), without locating anything; other sinks get the
/// units decoded one by one for a while.
fn scan_utf8_validated<S: Sink>(bytes: &[u8], start: usize, stop: usize, sink: &mut S) {
    let mut out = Individually {
        sink,
        leads: [0; 5],
    };
    let mut dense = DenseCounts::default();
    let mut pos = start;
    let mut block_len = BLOCK;
    let mut close_errors = 0;
    while pos < stop {
        // Dense errors: one window at a time, back to validating after a clean one.
        let dense_now = S::COUNTS_ONLY && close_errors >= DENSE_STREAK;
        let end = block_end(
            bytes,
            pos,
            if dense_now { dense::WINDOW } else { block_len },
            stop,
        );
        if dense_now && end + dense::VIEW <= bytes.len() {
            let (next, found) = count_windows(bytes, pos, end, &mut dense, &mut out.leads);
            pos = next;
            close_errors = if found { close_errors } else { 0 };
            continue;
        }
        let block = &bytes[pos..end];
        // The plain validator is the faster one: far from errors, try it first. Near
        // errors a block is likely to hold one: go straight to the one that locates it.
        let valid = if block_len == BLOCK && simdutf8::basic::from_utf8(block).is_ok() {
            block.len()
        } else {
            valid_prefix(block)
        };
        pos += valid;
        if pos == end {
            block_len = (block_len * 2).min(BLOCK);
            close_errors = 0;
            continue;
        }
        // The validator stopped at an error, or at a sequence cut by the block's end (the
        // unit decoded there is then a scalar reaching past the block).
        block_len = SMALL_BLOCK;
        close_errors = if valid < DENSE_GAP {
            close_errors + 1
        } else {
            0
        };
        if S::COUNTS_ONLY || close_errors < DENSE_STREAK {
            let unit = Dialect::Utf8.decode_at(bytes, pos);
            out.report(bytes, &unit);
            pos = unit.end();
        } else {
            pos = decode_until_clean(Dialect::Utf8, bytes, pos, stop, &mut |u: &Unit| {
                out.report(bytes, u)
            });
            close_errors = 0;
        }
    }
    if dense.first_error != usize::MAX {
        out.sink.dense(&dense);
    }
    // Every unit starting in the range has its first byte in the range, and no other
    // byte of a unit is a lead: lead bytes in the range = units in the range, by class,
    // once the units reported one by one are taken off. Counting after validating reads
    // the range from cache.
    let mut classes = count_classes(&bytes[start..stop]);
    for (class, taken) in out.leads.iter().enumerate().skip(1) {
        classes[class] -= taken;
    }
    out.sink.scalars(&classes);
}

/// Counts the error units that start in `pos..end` (`pos` a unit boundary, and at least
/// [`dense::VIEW`] bytes readable after `end`) window by window into `counts`, and their
/// leads into `leads`. Returns the first unit boundary at or after `end`, and whether any
/// error was found.
fn count_windows(
    bytes: &[u8],
    pos: usize,
    end: usize,
    counts: &mut DenseCounts,
    leads: &mut [u64; 5],
) -> (usize, bool) {
    let mut found_any = false;
    let mut window = pos;
    let mut boundary = end;
    while window < end {
        let mut view = [0x80u8; dense::VIEW];
        let from = window.saturating_sub(3);
        view[3 - (window - from)..].copy_from_slice(&bytes[from..window + dense::VIEW - 3]);
        // A window starts at a unit boundary or right after another window, so the
        // units of its 3 bytes of context are real and may reach into it.
        let limit = (end - window).min(dense::WINDOW);
        let found = dense::window_errors(&view, 0, limit);
        for (k, n) in found.kinds.iter().enumerate() {
            counts.tags[Shape::FIRST_ERROR_TAG as usize + k] += *n as u64;
        }
        for (class, n) in found.leads.iter().enumerate() {
            leads[class] += *n as u64;
        }
        if let (Some(first), Some(last)) = (found.first, found.last) {
            counts.first_error = counts.first_error.min(window + first);
            counts.last_error = window + last;
            found_any = true;
        }
        boundary = window + found.spill;
        window += dense::WINDOW;
    }
    (boundary, found_any)
}

/// The scan of the units starting in `start..stop` in a dialect other than UTF-8: each
/// stretch the UTF-8 validator accepts is counted (and decoded precisely where the dialect
/// rejects part of it); what the validator rejects goes to the precise decoder.
fn scan_general<S: Sink>(dialect: Dialect, bytes: &[u8], start: usize, stop: usize, sink: &mut S) {
    let mut pos = start;
    let mut block_len = BLOCK;
    while pos < stop {
        let end = block_end(bytes, pos, block_len, stop);
        let valid = valid_prefix(&bytes[pos..end]);
        if valid > 0 {
            emit_utf8_run(dialect, bytes, pos, valid, sink);
            pos += valid;
        }
        if pos < end {
            pos = decode_until_clean(dialect, bytes, pos, stop, &mut |u: &Unit| {
                sink.unit(bytes, u)
            });
            block_len = SMALL_BLOCK;
        } else {
            block_len = (block_len * 2).min(BLOCK);
        }
    }
}

/// How many bytes from the start of `block` are well-formed UTF-8 (a whole number of
/// sequences).
fn valid_prefix(block: &[u8]) -> usize {
    match simdutf8::compat::from_utf8(block) {
        Ok(_) => block.len(),
        Err(e) => e.valid_up_to(),
    }
}

/// Where a block from `pos` should end: `pos + len` (at most `stop`), moved back (at most
/// 3 bytes) onto a byte that is not a continuation byte, so a block never cuts a sequence
/// in two.
fn block_end(bytes: &[u8], pos: usize, len: usize, stop: usize) -> usize {
    let end = (pos + len).min(stop);
    if end >= bytes.len() {
        return bytes.len();
    }
    let lowest = end.saturating_sub(3).max(pos + 1);
    (lowest..=end)
        .rev()
        .find(|&i| !is_continuation(bytes[i]))
        .unwrap_or(end)
}

/// Reports `bytes[start..start + len]`, known to be well-formed UTF-8, in a dialect other
/// than UTF-8. Such bytes decode to the same units in every dialect, except that CESU-8 and
/// Modified UTF-8 reject 4-byte forms and Modified UTF-8 rejects raw `00`: only those
/// sequences are decoded precisely, and the stretches between them are counted.
fn emit_utf8_run(dialect: Dialect, bytes: &[u8], start: usize, len: usize, sink: &mut impl Sink) {
    let run = &bytes[start..start + len];
    let rejects_nul = dialect == Dialect::Mutf8;
    if !matches!(dialect, Dialect::Cesu8 | Dialect::Mutf8) {
        sink.scalars(&count_classes(run));
        return;
    }
    let rejected = |b: u8| b >= 0xF0 || (rejects_nul && b == 0);
    let mut classes = ClassCounts::default();
    let mut pos = 0;
    while pos < len {
        let next = next_rejected(&run[pos..], rejected).map_or(len, |i| pos + i);
        for (total, n) in classes.iter_mut().zip(count_classes(&run[pos..next])) {
            *total += n;
        }
        if next == len {
            break;
        }
        // In well-formed UTF-8 a byte F0..F4 leads a 4-byte sequence and 00 stands alone;
        // no byte inside a sequence is a lead, so the dialect's units for it end where the
        // sequence ends, and the stretch after it starts on a boundary.
        let sequence_end = start + next + if run[next] == 0 { 1 } else { 4 };
        let mut at = start + next;
        while at < sequence_end {
            let unit = dialect.decode_at(bytes, at);
            sink.unit(bytes, &unit);
            at = unit.end();
        }
        pos = at - start;
    }
    sink.scalars(&classes);
}

/// The index of the first byte of `run` that `rejected` picks, looking 64 bytes at a time
/// (a test over a whole chunk compiles to vector code; most chunks have none).
fn next_rejected(run: &[u8], rejected: impl Fn(u8) -> bool) -> Option<usize> {
    let mut chunks = run.chunks_exact(64);
    let mut base = 0;
    for chunk in &mut chunks {
        if chunk.iter().fold(false, |any, &b| any | rejected(b)) {
            return chunk.iter().position(|&b| rejected(b)).map(|i| base + i);
        }
        base += 64;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| rejected(b))
        .map(|i| base + i)
}

/// Decodes unit by unit from `pos` (a unit boundary) until `CLEAN_STRETCH` bytes in a row
/// were error-free, or no unit starts before `stop`; returns where it stopped (a unit
/// boundary).
fn decode_until_clean(
    dialect: Dialect,
    bytes: &[u8],
    mut pos: usize,
    stop: usize,
    report: &mut impl FnMut(&Unit),
) -> usize {
    let mut clean_since = pos;
    while pos < stop && pos - clean_since < CLEAN_STRETCH {
        let unit = dialect.decode_at(bytes, pos);
        report(&unit);
        pos = unit.end();
        // A select, not a branch: whether a unit is an error is a coin toss on random data.
        clean_since = if unit.is_error() { pos } else { clean_since };
    }
    pos
}

/// Counts the scalars of each class in well-formed UTF-8 by counting lead bytes (in any
/// bytes, it counts their lead bytes by class).
pub fn count_classes(run: &[u8]) -> ClassCounts {
    let mut blocks = run.chunks_exact(LANES * ROUNDS);
    let mut totals = [0u64; 4];
    for block in &mut blocks {
        add4(&mut totals, count_block(block));
    }
    add4(&mut totals, count_block(blocks.remainder()));
    let [ascii, ge_c0, ge_e0, ge_f0] = totals;
    [0, ascii, ge_c0 - ge_e0, ge_e0 - ge_f0, ge_f0 - ascii, 0, 0]
}

const LANES: usize = 32;
const ROUNDS: usize = 255;

fn add4(totals: &mut [u64; 4], more: [u64; 4]) {
    for (t, m) in totals.iter_mut().zip(more) {
        *t += m;
    }
}

/// Counts of (ASCII, >= C0 or ASCII, >= E0 or ASCII, >= F0 or ASCII) in at most
/// `LANES * ROUNDS` bytes. Bytes read as i8 make every test a signed comparison, which SSE2
/// has natively; 32 lanes of u8 counters (at most 255 rounds, so they cannot overflow)
/// stay in vector registers. Compiled for AVX2 too and chosen at run time, as simdutf8
/// does for its validator, so counting keeps pace with validating.
#[multiversion::multiversion(targets("x86_64+avx2"))]
fn count_block(block: &[u8]) -> [u64; 4] {
    let mut lanes = [[0u8; LANES]; 4];
    let mut chunks = block.chunks_exact(LANES);
    for chunk in &mut chunks {
        for i in 0..LANES {
            let b = chunk[i] as i8;
            lanes[0][i] += (b >= 0) as u8;
            lanes[1][i] += (b >= -64) as u8;
            lanes[2][i] += (b >= -32) as u8;
            lanes[3][i] += (b >= -16) as u8;
        }
    }
    let mut totals = [0u64; 4];
    for (total, lane) in totals.iter_mut().zip(&lanes) {
        *total = lane.iter().map(|x| *x as u64).sum();
    }
    for &b in chunks.remainder() {
        let b = b as i8;
        totals[0] += (b >= 0) as u64;
        totals[1] += (b >= -64) as u64;
        totals[2] += (b >= -32) as u64;
        totals[3] += (b >= -16) as u64;
    }
    totals
}

/// Counts per class and per error kind, the first and last error: the sink behind every
/// summary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Scalars per class (index 1 to 6).
    pub classes: ClassCounts,
    /// Error units per kind, indexed by [`ErrorKind::index`].
    pub errors: [u64; ErrorKind::ALL.len()],
    /// Offset of the first error unit.
    pub first_error: Option<usize>,
    /// Offset of the last error unit.
    pub last_error: Option<usize>,
}

impl Tally {
    /// Total number of error units.
    pub fn error_count(&self) -> u64 {
        self.errors.iter().sum()
    }

    /// Total number of units (scalars and errors).
    pub fn unit_count(&self) -> u64 {
        self.classes.iter().sum::<u64>() + self.error_count()
    }

    /// Adds another tally's counts (first and last error take the earlier and later).
    pub fn merge(&mut self, other: &Tally) {
        for (a, b) in self.classes.iter_mut().zip(&other.classes) {
            *a += b;
        }
        for (a, b) in self.errors.iter_mut().zip(&other.errors) {
            *a += b;
        }
        self.first_error = match (self.first_error, other.first_error) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.last_error = self.last_error.max(other.last_error);
    }

    /// The number of errors of one kind.
    pub fn errors_of(&self, kind: ErrorKind) -> u64 {
        self.errors[kind.index()]
    }
}

impl Sink for Tally {
    fn scalars(&mut self, classes: &ClassCounts) {
        for (total, n) in self.classes.iter_mut().zip(classes) {
            *total += n;
        }
    }

    fn unit(&mut self, _bytes: &[u8], unit: &Unit) {
        match unit.error_kind() {
            None => self.classes[unit.len as usize] += 1,
            Some(kind) => {
                self.errors[kind.index()] += 1;
                self.first_error.get_or_insert(unit.start);
                self.last_error = Some(unit.start);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a scan reported: the units given one by one, the bulk class counts, and the
    /// errors counted in bulk.
    #[derive(Default)]
    struct Collect {
        units: Vec<Unit>,
        bulk: ClassCounts,
        dense: [u64; Shape::TAGS],
    }
    impl Sink for Collect {
        fn unit(&mut self, _bytes: &[u8], unit: &Unit) {
            self.units.push(*unit);
        }
        fn scalars(&mut self, classes: &ClassCounts) {
            for (a, b) in self.bulk.iter_mut().zip(classes) {
                *a += b;
            }
        }
    }

    /// Checks a scan's report against decoding from the start: the errors in order, and
    /// every scalar counted once (one by one or in bulk).
    fn check(d: Dialect, input: &[u8], sink: &Collect) {
        let expected: Vec<Unit> = d.units(input).collect();
        let errors: Vec<Unit> = expected.iter().copied().filter(|u| u.is_error()).collect();
        let reported: Vec<Unit> = sink
            .units
            .iter()
            .copied()
            .filter(|u| u.is_error())
            .collect();
        assert_eq!(reported, errors, "{d}");
        let mut classes = [0u64; 7];
        for u in &expected {
            if let Some(c) = u.class() {
                classes[c as usize] += 1;
            }
        }
        let mut counted = sink.bulk;
        let units: std::collections::HashSet<&Unit> = expected.iter().collect();
        for u in sink.units.iter().filter(|u| !u.is_error()) {
            counted[u.len as usize] += 1;
            assert!(
                units.contains(u),
                "{d}: reported scalar {u:?} is not a unit"
            );
        }
        assert_eq!(counted, classes, "{d}");
        assert_eq!(sink.dense, [0; Shape::TAGS]);
    }

    fn mixed_input() -> Vec<u8> {
        let mut input = Vec::new();
        for i in 0..5000u32 {
            input.extend_from_slice("héllo wörld €😀 ".as_bytes());
            if i % 97 == 0 {
                input.extend_from_slice(
                    b"\xE1\x80\xC0\xAF\xED\xA0\xBD\xED\xB8\x80\x00\xC0\x80\xF8\x88\x80\x80\x80",
                );
            }
            if i % 1001 == 0 {
                input.extend((0..300u32).map(|k| (k.wrapping_mul(2654435761) >> 7) as u8));
            }
        }
        input
    }

    #[test]
    fn scan_equals_units_on_mixed_input() {
        let input = mixed_input();
        for d in Dialect::ALL {
            for level in Level::available() {
                let mut sink = Collect::default();
                scan_range_at(level, d, &input, 0..input.len(), &mut sink);
                check(d, &input, &sink);
            }
        }
    }

    /// Well-formed UTF-8 that CESU-8 and Modified UTF-8 reject in places (4-byte forms,
    /// raw `00`), each place at every offset around the 64-byte steps of the search for
    /// them: only those sequences are decoded, and the counts stay exact.
    #[test]
    fn rejected_sequences_in_valid_utf8() {
        for rejected in ["😀", "\0", "\u{10FFFF}"] {
            for at in 0..140 {
                let mut input = "ab€é".repeat(40).into_bytes();
                input.insert(0, b'x');
                let mut at = at.min(input.len());
                while at < input.len() && is_continuation(input[at]) {
                    at += 1;
                }
                input.splice(at..at, rejected.bytes());
                input.extend_from_slice(rejected.as_bytes());
                for d in [Dialect::Cesu8, Dialect::Mutf8] {
                    let mut sink = Collect::default();
                    scan_range(d, &input, 0..input.len(), &mut sink);
                    check(d, &input, &sink);
                }
            }
        }
    }

    #[test]
    fn consecutive_ranges_report_every_unit_once() {
        let mut input = Vec::new();
        for i in 0..300u32 {
            input.extend_from_slice("a€😀é".as_bytes());
            if i % 7 == 0 {
                input.extend_from_slice(
                    b"\xED\xA0\xBD\xED\xB8\x80\xF8\x88\x80\x80\x80\xFC\x84\x80\x80\x80\x80\xE1\x80",
                );
            }
        }
        for d in Dialect::ALL {
            for (step, level) in [1, 2, 3, 5, 7, 64, 1000]
                .into_iter()
                .flat_map(|step| Level::available().map(move |l| (step, l)))
            {
                let mut sink = Collect::default();
                let mut at = 0;
                while at < input.len() {
                    let end = (at + step).min(input.len());
                    scan_range_at(level, d, &input, at..end, &mut sink);
                    at = end;
                }
                check(d, &input, &sink);
            }
        }
    }

    /// A sink that only counts, so the scan may use its dense path.
    #[derive(Default, Debug, PartialEq, Eq)]
    struct Counts {
        classes: ClassCounts,
        errors: [u64; ErrorKind::ALL.len()],
        first_error: Option<usize>,
        last_error: Option<usize>,
    }
    impl Sink for Counts {
        fn unit(&mut self, _bytes: &[u8], unit: &Unit) {
            match unit.error_kind() {
                None => self.classes[unit.len as usize] += 1,
                Some(k) => {
                    self.errors[k.index()] += 1;
                    self.first_error = self.first_error.min(Some(unit.start)).or(Some(unit.start));
                    self.last_error = self.last_error.max(Some(unit.start));
                }
            }
        }
        fn scalars(&mut self, classes: &ClassCounts) {
            for (a, b) in self.classes.iter_mut().zip(classes) {
                *a += b;
            }
        }
        const COUNTS_ONLY: bool = true;
        fn dense(&mut self, counts: &DenseCounts) {
            for (k, n) in self.errors.iter_mut().enumerate() {
                *n += counts.tags[Shape::FIRST_ERROR_TAG as usize + k];
            }
            if counts.first_error != usize::MAX {
                // Not in input order with units: keep the extremes.
                self.first_error = self
                    .first_error
                    .min(Some(counts.first_error))
                    .or(Some(counts.first_error));
                self.last_error = self.last_error.max(Some(counts.last_error));
            }
        }
    }

    fn decoded_counts(input: &[u8]) -> Counts {
        let mut c = Counts::default();
        for u in Dialect::Utf8.units(input) {
            c.unit(input, &u);
        }
        c
    }

    #[test]
    fn counting_sinks_see_the_same_units() {
        let mut next = crate::xorshift(0x2545_F491_4F6C_DD1D);
        let mut inputs = vec![mixed_input()];
        for len in [0usize, 1, 3, 4, 31, 32, 35, 36, 37, 100, 5000] {
            inputs.push((0..len).map(|_| next() as u8).collect());
            // Bytes where the rules change, densely mixed.
            let edges = [
                0x41u8, 0x80, 0x8F, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xF5,
                0xFF,
            ];
            inputs.push((0..len).map(|_| edges[(next() % 14) as usize]).collect());
        }
        for input in &inputs {
            let expected = decoded_counts(input);
            for step in [input.len().max(1), 1, 7, 33, 1000] {
                for level in Level::available() {
                    let mut counts = Counts::default();
                    let mut at = 0;
                    while at < input.len() {
                        let end = (at + step).min(input.len());
                        scan_range_at(level, Dialect::Utf8, input, at..end, &mut counts);
                        at = end;
                    }
                    assert_eq!(
                        counts,
                        expected,
                        "len {} step {step} {level:?}",
                        input.len()
                    );
                }
            }
        }
    }

    /// Scans `input` cut at `cuts` with every level, into a sink that sees every unit and
    /// one that only counts, and checks both against decoding from the start.
    fn check_cut_scans(input: &[u8], cuts: &[usize]) {
        let mut bounds: Vec<usize> = cuts.iter().map(|c| c % (input.len() + 1)).collect();
        bounds.extend([0, input.len()]);
        bounds.sort_unstable();
        let expected = decoded_counts(input);
        for level in Level::available() {
            let mut all = Collect::default();
            let mut counts = Counts::default();
            for range in bounds.windows(2) {
                scan_range_at(level, Dialect::Utf8, input, range[0]..range[1], &mut all);
                scan_range_at(level, Dialect::Utf8, input, range[0]..range[1], &mut counts);
            }
            check(Dialect::Utf8, input, &all);
            assert_eq!(counts, expected, "{level:?} {input:02X?} cut at {bounds:?}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        #[test]
        fn scans_equal_decoding_cut_anywhere(
            input in simd::tests::input(),
            cuts in proptest::collection::vec(0usize..1000, 0..6),
        ) {
            check_cut_scans(&input, &cuts);
        }
    }

    /// UTF-16 or UTF-32 code units, mostly scalars with surrogates, pairs and values above
    /// U+10FFFF among them (long runs without, so the scan's whole-chunk path runs), and
    /// 0 to 3 bytes more at the end.
    fn wide_input() -> impl proptest::strategy::Strategy<Value = (Vec<u32>, Vec<u8>)> {
        use proptest::prelude::*;
        let unit = prop_oneof![
            20 => Just(0x41u32),
            5 => 0u32..0xD800,
            2 => 0xD800u32..0xDC00,
            2 => 0xDC00u32..0xE000,
            1 => 0xE000u32..0x1_0000,
            3 => 0x1_0000u32..0x11_0000,
            1 => 0x11_0000u32..,
        ];
        (
            proptest::collection::vec((unit, 0usize..40), 0..40).prop_map(|runs| {
                runs.into_iter()
                    .flat_map(|(u, n)| std::iter::repeat_n(u, n))
                    .collect()
            }),
            proptest::collection::vec(any::<u8>(), 0..4),
        )
    }

    fn wide_bytes(d: Dialect, units: &[u32], tail: &[u8]) -> Vec<u8> {
        let mut bytes = Vec::new();
        for &u in units {
            // In UTF-16 a supplementary character is written as its pair (runs of them fill
            // whole chunks with pairs), anything else as its low 16 bits.
            let pair = char::from_u32(u).filter(|_| u > 0xFFFF).map(|c| {
                let mut pair = [0u16; 2];
                c.encode_utf16(&mut pair);
                pair
            });
            match (d, pair) {
                (Dialect::Utf16Le, Some(p)) => p.iter().for_each(|h| bytes.extend(h.to_le_bytes())),
                (Dialect::Utf16Be, Some(p)) => p.iter().for_each(|h| bytes.extend(h.to_be_bytes())),
                _ => {}
            }
            if pair.is_some() && d.code_unit_width() == Some(2) {
                continue;
            }
            match d {
                Dialect::Utf16Le => bytes.extend_from_slice(&(u as u16).to_le_bytes()),
                Dialect::Utf16Be => bytes.extend_from_slice(&(u as u16).to_be_bytes()),
                Dialect::Utf32Le => bytes.extend_from_slice(&u.to_le_bytes()),
                _ => bytes.extend_from_slice(&u.to_be_bytes()),
            }
        }
        bytes.extend_from_slice(tail);
        bytes
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        #[test]
        fn wide_scans_equal_decoding_cut_anywhere(
            (units, tail) in wide_input(),
            cuts in proptest::collection::vec(0usize..2000, 0..6),
        ) {
            for d in Dialect::WIDE {
                let input = wide_bytes(d, &units, &tail);
                let mut bounds: Vec<usize> = cuts.iter().map(|c| c % (input.len() + 1)).collect();
                bounds.extend([0, input.len()]);
                bounds.sort_unstable();
                let mut all = Collect::default();
                for range in bounds.windows(2) {
                    scan_range(d, &input, range[0]..range[1], &mut all);
                }
                check(d, &input, &all);
            }
        }
    }

    #[test]
    fn single_byte_scans_equal_decoding() {
        let input: Vec<u8> = (0..3000u32).map(|i| (i * 7 % 256) as u8).collect();
        // Tables made here (the encoding layer is not the scan's to read): Latin-1 with
        // 80..9F undefined, and one with every byte defined.
        let latin = std::array::from_fn(|b| match b {
            0x80..=0x9F => crate::decode::ByteTable::UNDEFINED,
            _ => b as u32,
        });
        let all = std::array::from_fn(|b| 0x400 + b as u32);
        for values in [latin, all] {
            let table = Box::leak(Box::new(crate::decode::ByteTable::new("t", values)));
            let d = Dialect::SingleByte(table);
            for step in [1, 7, 64, 1000, input.len()] {
                let mut sink = Collect::default();
                let mut at = 0;
                while at < input.len() {
                    let end = (at + step).min(input.len());
                    scan_range(d, &input, at..end, &mut sink);
                    at = end;
                }
                check(d, &input, &sink);
            }
        }
    }

    #[test]
    fn errors_at_chunk_and_block_edges() {
        // Text of every class, cut into 64 KiB blocks as the index cuts it, with errors
        // planted just before, on and after block and chunk edges.
        let text = "aé€😀".repeat(40_000);
        let patterns: [&[u8]; 6] = [
            b"\xE1\x80",
            b"\xF0\x80\x80",
            b"\x80",
            b"\xED\xA0\x80",
            b"\xF4\x90",
            b"\xC0",
        ];
        for (k, pattern) in patterns.iter().enumerate() {
            let mut input = text.as_bytes().to_vec();
            for edge in [64usize, 128, 4096, BLOCK, 2 * BLOCK] {
                for delta in 0..8 {
                    let at = edge + delta * 5 - 4 + k;
                    input[at..at + pattern.len()].copy_from_slice(pattern);
                }
            }
            let end = input.len();
            input[end - 2..].copy_from_slice(b"\xF0\x90");
            check_cut_scans(&input, &[BLOCK, 2 * BLOCK, 3 * BLOCK, 64 * 1001]);
        }
    }

    #[test]
    fn tally_counts() {
        let mut tally = Tally::default();
        scan(
            Dialect::Utf8,
            "a\u{E9}\u{20AC}\u{1F600}\u{1F600}".as_bytes(),
            &mut tally,
        );
        scan(Dialect::Utf8, b"x\xE1\x80", &mut tally);
        assert_eq!(tally.classes, [0, 2, 1, 1, 2, 0, 0]);
        assert_eq!(tally.errors_of(ErrorKind::TruncatedEof), 1);
        assert_eq!(tally.error_count(), 1);
        assert_eq!(tally.first_error, Some(1));
    }

    #[test]
    fn class_counts() {
        assert_eq!(count_classes("aé€😀a".as_bytes()), [0, 2, 1, 1, 1, 0, 0]);
        let big = "a€é😀".repeat(70_000);
        assert_eq!(
            count_classes(big.as_bytes()),
            [0, 70_000, 70_000, 70_000, 70_000, 0, 0]
        );
        for cut in [0, 1, 31, 32, 8159, 8160, 8161] {
            let text = "é".repeat(cut);
            assert_eq!(count_classes(text.as_bytes())[2], cut as u64);
        }
        for b in 0..=255u8 {
            let c = count_classes(&[b]);
            assert_eq!(c.iter().sum::<u64>(), (lead_class(b) > 0) as u64, "{b:02X}");
            if lead_class(b) > 0 {
                assert_eq!(c[lead_class(b)], 1, "{b:02X}");
            }
        }
    }
}
