//! One loop over a whole input that pushes what it finds into sinks.
//!
//! [`scan`] walks a byte slice front to back. Stretches that are valid UTF-8 are confirmed
//! by a SIMD validator (simdutf8) and reported in bulk, as per-class counts
//! ([`Sink::valid_run`]); around errors the precise decoder of [`crate::decode`] takes over
//! and reports every unit ([`Sink::unit`]) until the input has been clean for a while. The
//! units reported, together with the counted runs, are exactly the units of
//! [`Dialect::units`] (tested for every dialect on random inputs with random block sizes).
//!
//! Every command uses this one loop, so they cannot disagree. This module knows decoding,
//! not files or terminals.

use std::ops::Range;

use crate::decode::{is_continuation, Dialect, ErrorKind, Unit};

/// Receives what a scan finds, in input order.
pub trait Sink {
    /// `len` bytes from `start` are well-formed, made of `classes[k]` scalars of class `k`
    /// (index 0 is unused). Their units are not reported one by one.
    fn valid_run(&mut self, start: usize, len: usize, classes: &ClassCounts);

    /// One unit, decoded precisely (a scalar near an error, or an error). `bytes` is the
    /// whole input the scan runs over, for context.
    fn unit(&mut self, bytes: &[u8], unit: &Unit);
}

/// Number of scalars per sequence-length class; index 0 unused, 1 to 6 used.
pub type ClassCounts = [u64; 7];

impl<A: Sink, B: Sink> Sink for (A, B) {
    fn valid_run(&mut self, start: usize, len: usize, classes: &ClassCounts) {
        self.0.valid_run(start, len, classes);
        self.1.valid_run(start, len, classes);
    }
    fn unit(&mut self, bytes: &[u8], unit: &Unit) {
        self.0.unit(bytes, unit);
        self.1.unit(bytes, unit);
    }
}

impl<S: Sink + ?Sized> Sink for &mut S {
    fn valid_run(&mut self, start: usize, len: usize, classes: &ClassCounts) {
        (**self).valid_run(start, len, classes);
    }
    fn unit(&mut self, bytes: &[u8], unit: &Unit) {
        (**self).unit(bytes, unit);
    }
}

/// The most bytes the fast path hands to the validator at once.
const BLOCK: usize = 64 * 1024;

/// The block the fast path starts with after an error; it doubles with every clean block
/// up to [`BLOCK`], so a lone error costs a short validation, not a 64 KiB one.
const SMALL_BLOCK: usize = 256;

/// After an error, the precise decoder keeps going until it has seen this many bytes without
/// one; dense errors (random or binary data) then never bounce through the fast path.
const CLEAN_STRETCH: usize = 64;

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
    let mut pos = first_boundary(dialect, bytes, range.start);
    let mut block_len = BLOCK;
    while pos < stop {
        let end = block_end(bytes, pos, block_len, stop);
        let block = &bytes[pos..end];
        // Counting comes first: a block that is all ASCII needs no validation at all.
        let classes = count_classes(block);
        let valid = if classes[1] == block.len() as u64 || simdutf8::basic::from_utf8(block).is_ok()
        {
            block.len()
        } else {
            // The validator that says where the error is runs only on a block known to
            // hold one.
            match simdutf8::compat::from_utf8(block) {
                Ok(_) => block.len(),
                Err(e) => e.valid_up_to(),
            }
        };
        if valid > 0 {
            let classes = if valid == block.len() {
                classes
            } else {
                count_classes(&block[..valid])
            };
            emit_utf8_run(dialect, bytes, pos, valid, &classes, sink);
            pos += valid;
        }
        if pos < end {
            pos = decode_until_clean(dialect, bytes, pos, stop, sink);
            block_len = SMALL_BLOCK;
        } else {
            block_len = (block_len * 2).min(BLOCK);
        }
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

/// Where a block from `pos` should end: `pos + len`, moved back (at most 3 bytes) onto a byte
/// that is not a continuation byte, so a block never cuts a sequence in two.
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

/// Reports `bytes[start..start + len]`, known to be well-formed UTF-8. Such bytes decode
/// to the same units in every dialect, except that CESU-8 and Modified UTF-8 reject 4-byte
/// forms and Modified UTF-8 rejects raw `00`: where those occur, the run is decoded precisely.
fn emit_utf8_run(
    dialect: Dialect,
    bytes: &[u8],
    start: usize,
    len: usize,
    classes: &ClassCounts,
    sink: &mut impl Sink,
) {
    let run = &bytes[start..start + len];
    let rejects_some = match dialect {
        Dialect::Cesu8 => classes[4] > 0,
        Dialect::Mutf8 => classes[4] > 0 || run.contains(&0),
        Dialect::Utf8 | Dialect::Wtf8 | Dialect::Legacy => false,
    };
    if !rejects_some {
        sink.valid_run(start, len, classes);
        return;
    }
    let mut pos = start;
    while pos < start + len {
        let unit = dialect.decode_at(bytes, pos);
        sink.unit(bytes, &unit);
        pos = unit.end();
    }
}

/// Decodes unit by unit from `pos` (a unit boundary) until `CLEAN_STRETCH` bytes in a row
/// were error-free, or no unit starts before `stop`; returns where it stopped (a unit
/// boundary).
fn decode_until_clean(
    dialect: Dialect,
    bytes: &[u8],
    mut pos: usize,
    stop: usize,
    sink: &mut impl Sink,
) -> usize {
    let mut clean_since = pos;
    while pos < stop && pos - clean_since < CLEAN_STRETCH {
        let unit = dialect.decode_at(bytes, pos);
        sink.unit(bytes, &unit);
        pos = unit.end();
        if unit.is_error() {
            clean_since = pos;
        }
    }
    pos
}

/// Counts the scalars of each class in well-formed UTF-8 by counting lead bytes.
pub fn count_classes(run: &[u8]) -> ClassCounts {
    // Bytes read as i8 make every test a signed comparison, which SSE2 has natively:
    // ASCII is >= 0, a lead C0..FF or ASCII >= -64, E0..FF or ASCII >= -32, F0..FF or
    // ASCII >= -16. 32 lanes of u8 counters, emptied every 255 rounds, stay in vector
    // registers.
    const LANES: usize = 32;
    const ROUNDS: usize = 255;
    let mut totals = [0u64; 4];
    let mut blocks = run.chunks_exact(LANES * ROUNDS);
    for block in &mut blocks {
        let mut lanes = [[0u8; LANES]; 4];
        for chunk in block.chunks_exact(LANES) {
            for i in 0..LANES {
                let b = chunk[i] as i8;
                lanes[0][i] += (b >= 0) as u8;
                lanes[1][i] += (b >= -64) as u8;
                lanes[2][i] += (b >= -32) as u8;
                lanes[3][i] += (b >= -16) as u8;
            }
        }
        for (total, lane) in totals.iter_mut().zip(&lanes) {
            *total += lane.iter().map(|x| *x as u64).sum::<u64>();
        }
    }
    for &b in blocks.remainder() {
        let b = b as i8;
        totals[0] += (b >= 0) as u64;
        totals[1] += (b >= -64) as u64;
        totals[2] += (b >= -32) as u64;
        totals[3] += (b >= -16) as u64;
    }
    let [ascii, ge_c0, ge_e0, ge_f0] = totals;
    [0, ascii, ge_c0 - ge_e0, ge_e0 - ge_f0, ge_f0 - ascii, 0, 0]
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
    fn valid_run(&mut self, _start: usize, _len: usize, classes: &ClassCounts) {
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

    /// Rebuilds the unit list a scan reports, expanding counted runs by decoding them.
    struct Collect(Vec<Unit>, Vec<u8>);
    impl Sink for Collect {
        fn valid_run(&mut self, start: usize, len: usize, classes: &ClassCounts) {
            let units: Vec<Unit> = Dialect::Utf8.units(&self.1[start..start + len]).collect();
            let mut check = [0u64; 7];
            for u in &units {
                assert!(!u.is_error());
                check[u.len as usize] += 1;
            }
            assert_eq!(&check, classes);
            self.0.extend(units.into_iter().map(|mut u| {
                u.start += start;
                u
            }));
        }
        fn unit(&mut self, _bytes: &[u8], unit: &Unit) {
            self.0.push(*unit);
        }
    }

    fn scanned(d: Dialect, bytes: &[u8]) -> Vec<Unit> {
        let mut sink = Collect(Vec::new(), bytes.to_vec());
        scan(d, bytes, &mut sink);
        sink.0
    }

    #[test]
    fn scan_equals_units_on_mixed_input() {
        let mut input = Vec::new();
        for i in 0..5000u32 {
            input.extend_from_slice("héllo wörld €😀 ".as_bytes());
            if i % 97 == 0 {
                input.extend_from_slice(
                    b"\xE1\x80\xC0\xAF\xED\xA0\xBD\xED\xB8\x80\x00\xC0\x80\xF8\x88\x80\x80\x80",
                );
            }
        }
        for d in Dialect::ALL {
            let expected: Vec<Unit> = d.units(&input).collect();
            assert_eq!(scanned(d, &input), expected, "{d}");
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
            let expected: Vec<Unit> = d.units(&input).collect();
            for step in [1, 2, 3, 5, 7, 64, 1000] {
                let mut sink = Collect(Vec::new(), input.clone());
                let mut at = 0;
                while at < input.len() {
                    let end = (at + step).min(input.len());
                    scan_range(d, &input, at..end, &mut sink);
                    at = end;
                }
                assert_eq!(sink.0, expected, "{d} step {step}");
            }
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
    }
}
