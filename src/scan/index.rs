//! The whole-file summary: counts, a verdict, and a block index built by one parallel scan.
//!
//! The input is cut into fixed blocks (64 KiB, larger for inputs over 32 GiB so there are
//! never more than 2^19 blocks: 44 bytes of summary and 8 of unit count each, so the index
//! stays under 27 MiB whatever the input). Each block's [`BlockSummary`] counts the units
//! that *start* in it, its errors, the offsets of its first and last error, and the U+FFFD
//! characters that start in it. Blocks are scanned by the workers of [`crate::scan::pool`],
//! a few blocks to a task, with [`crate::scan::scan_range`]; as every unit belongs to exactly one block, the merged result
//! equals one sequential decode.
//!
//! The index never stores every error: dense errors (binary data) would make it as large as
//! the input. What it does store answers the questions that matter at any distance: where
//! the next or previous error is (a walk over block summaries, then one block re-decoded),
//! which unit number an offset has and the reverse, and the errors in order, re-decoding
//! only the blocks that hold some.
//!
//! This module knows decoding and the scan loop, not files or terminals.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::decode::{
    Checkpoint, CodePoint, Dialect, ErrorKind, Finding, MultiByteTable, Resync, Shape, Unit, Units,
};
use crate::scan::{pool, scan_range, ClassCounts, DenseCounts, Sink, Tally};

/// The smallest block, in bytes.
pub const MIN_BLOCK: usize = 64 * 1024;

/// The most blocks an index has.
pub const MAX_BLOCKS: usize = 1 << 19;

/// How far behind the scan's progress mark [`Summary::build_releasing`] releases pages.
pub const RELEASE_LAG: usize = 64 << 20;

/// How far ahead of the scan's progress mark [`Summary::build_releasing`] asks for pages.
pub const PREFETCH_AHEAD: usize = 128 << 20;

/// Blocks handed to a worker at once.
const BLOCKS_PER_TASK: usize = 16;

/// The largest input [`Summary::build_alongside`] scans on the calling thread alone: one
/// worker's task, so a parallel scan would not have split it anyway.
pub const INLINE_LIMIT: usize = MIN_BLOCK * BLOCKS_PER_TASK;

/// The piece of input [`Summary::build_alongside`]'s reader is handed at a time.
pub const ALONGSIDE_CHUNK: usize = 1 << 20;

/// What [`Summary::build_alongside`] hands the input to, piece by piece, front to back.
pub type Reader<'a> = &'a mut dyn FnMut(&[u8]);

/// What the index knows of one block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BlockSummary {
    /// Units (scalars and errors) that start in the block.
    pub units: u32,
    /// Error units that start in the block.
    pub errors: u32,
    /// Offset of the first error unit, from the block start (`u32::MAX` if none).
    pub first_error: u32,
    /// Offset of the last error unit, from the block start (`u32::MAX` if none).
    pub last_error: u32,
    /// Scalars per class: index 0 is class 1, up to class 6.
    pub classes: [u32; 6],
    /// U+FFFD REPLACEMENT CHARACTERs (EF BF BD) that start in the block.
    pub replacements: u32,
}

impl BlockSummary {
    const EMPTY: BlockSummary = BlockSummary {
        units: 0,
        errors: 0,
        first_error: u32::MAX,
        last_error: u32::MAX,
        classes: [0; 6],
        replacements: 0,
    };
}

/// Shared between a scan and whoever watches it: bytes done, a request to stop, and, if
/// asked for, what each block held as soon as it is scanned ([`Progress::block`]).
#[derive(Debug, Default)]
pub struct Progress {
    done: AtomicU64,
    cancel: AtomicBool,
    wants_blocks: bool,
    blocks: OnceLock<Vec<BlockSeen>>,
}

/// One block as the scan publishes it: `units` is written last, and is [`BlockSeen::NOT_YET`]
/// until then.
#[derive(Debug)]
struct BlockSeen {
    units: AtomicU32,
    errors: AtomicU32,
    ascii: AtomicU32,
}

impl BlockSeen {
    const NOT_YET: u32 = u32::MAX;
}

/// What a block held, as published while the scan runs: units, error units and ASCII
/// scalars that start in it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BlockCounts {
    /// Units (scalars and errors) that start in the block.
    pub units: u32,
    /// Error units that start in the block.
    pub errors: u32,
    /// ASCII scalars that start in the block.
    pub ascii: u32,
}

impl From<&BlockSummary> for BlockCounts {
    fn from(b: &BlockSummary) -> BlockCounts {
        BlockCounts {
            units: b.units,
            errors: b.errors,
            ascii: b.classes[0],
        }
    }
}

impl Progress {
    /// A fresh progress record.
    pub fn new() -> Progress {
        Progress::default()
    }

    /// A fresh progress record through which the scan also publishes each block's counts
    /// as it finishes it (12 bytes per block, at most 6 MiB), so a map can fill in while
    /// the scan runs.
    pub fn publishing_blocks() -> Progress {
        Progress {
            wants_blocks: true,
            ..Progress::default()
        }
    }

    /// The counts of block `b`, once the scan has published them (see
    /// [`Progress::publishing_blocks`]; blocks are cut as [`block_size_for`] says).
    pub fn block(&self, b: usize) -> Option<BlockCounts> {
        let seen = self.blocks.get()?.get(b)?;
        let units = seen.units.load(Ordering::Acquire);
        (units != BlockSeen::NOT_YET).then(|| BlockCounts {
            units,
            errors: seen.errors.load(Ordering::Relaxed),
            ascii: seen.ascii.load(Ordering::Relaxed),
        })
    }

    /// Makes room for `count` blocks, if blocks are wanted.
    fn expect_blocks(&self, count: usize) {
        if self.wants_blocks {
            self.blocks.get_or_init(|| {
                (0..count)
                    .map(|_| BlockSeen {
                        units: AtomicU32::new(BlockSeen::NOT_YET),
                        errors: AtomicU32::new(0),
                        ascii: AtomicU32::new(0),
                    })
                    .collect()
            });
        }
    }

    /// Publishes block `b`, if blocks are wanted.
    fn publish(&self, b: usize, summary: &BlockSummary) {
        if let Some(seen) = self.blocks.get().and_then(|blocks| blocks.get(b)) {
            seen.errors.store(summary.errors, Ordering::Relaxed);
            seen.ascii.store(summary.classes[0], Ordering::Relaxed);
            seen.units.store(summary.units, Ordering::Release);
        }
    }

    /// Bytes scanned so far.
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }

    /// Asks the scan to stop as soon as it can.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// A byte order mark at the start of the input (the decoding layer's: the one reading of
/// Unicode's marks, which the diagnosis of an invalid byte reads too).
pub use crate::decode::Bom;

/// What the scan concludes about an input as a whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No bytes at all.
    Empty,
    /// Only bytes 00..7F (valid in every dialect but Modified UTF-8 if it holds a NUL).
    AsciiOnly,
    /// Valid in the dialect that was scanned.
    Valid(Dialect),
    /// Invalid in the scanned dialect (UTF-8) but valid in this one.
    ValidOnlyIn(Dialect),
    /// Valid in the scanned dialect up to its last few bytes: the only error is the last
    /// character cut short by the end of the input (`truncated_eof`).
    CutShort,
    /// Text in the scanned dialect with this many stray bytes: every error is one byte that
    /// windows-1252 gives a character to (80..FF but 81, 8D, 8F, 90, 9D), as when a few
    /// characters were written in windows-1252 into UTF-8 text.
    StrayBytes(u64),
    /// Text in the scanned dialect with this many error units.
    WithErrors(u64),
    /// So many errors that the input is probably not in the scanned dialect at all.
    ProbablyNot(u64),
}

impl Verdict {
    /// A one-line human description, for `dialect` (the one that was scanned).
    pub fn describe(self, dialect: Dialect) -> String {
        let name = dialect.title();
        match self {
            Verdict::Empty => "empty".to_string(),
            Verdict::AsciiOnly => "ASCII only".to_string(),
            Verdict::Valid(d) => format!("valid {}", d.title()),
            Verdict::ValidOnlyIn(d) => format!("not valid {name}, but valid {}", d.title()),
            Verdict::CutShort => format!("{name}, cut short at the end"),
            Verdict::StrayBytes(n) => format!(
                "{name} with {n} stray {} (windows-1252?)",
                if n == 1 { "byte" } else { "bytes" }
            ),
            Verdict::WithErrors(n) => format!(
                "{name} with {n} {}",
                if n == 1 { "error" } else { "errors" }
            ),
            Verdict::ProbablyNot(n) => format!(
                "probably not {name}: {n} {}",
                if n == 1 { "error" } else { "errors" }
            ),
        }
    }
}

/// The result of one whole-input scan.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The dialect scanned.
    pub dialect: Dialect,
    /// Input length in bytes.
    pub len: u64,
    /// Block size in bytes.
    pub block_size: usize,
    /// One summary per block.
    pub blocks: Vec<BlockSummary>,
    /// Totals per class and kind, first and last error.
    pub tally: Tally,
    /// The byte order mark at the start, if any.
    pub bom: Option<Bom>,
    /// How long the scan took.
    pub elapsed: Duration,
    /// Running unit count before each block (prefix sums of `units`), for unit-number
    /// lookups; one more entry than `blocks`.
    unit_starts: Vec<u64>,
    /// In a multi-byte legacy encoding, the first unit boundary at or after each block's
    /// start and the decoder state there (empty in other dialects): where a decode of the
    /// block, or of any offset in it, may start.
    checkpoints: Vec<Checkpoint>,
    /// What a [`Marker`] said of each block that holds a non-ASCII unit (0 for the others),
    /// one entry per block; `None` when the scan was given no marker.
    pub marks: Option<Vec<u8>>,
}

/// A question asked of each block while the scan has it in cache: given the whole input
/// and the block's range, a few bits of what the block holds (the caller gives them their
/// meaning). Asked only of blocks that hold a non-ASCII unit; all-ASCII blocks are 0.
pub type Marker = dyn Fn(&[u8], Range<usize>) -> u8 + Sync;

/// A look at every block while the scan has it in cache (the ASCII ones too): given the
/// whole input, the block's range and its summary, the hook keeps what it learns itself
/// (the lints' survey, [`crate::lint::Survey`], does). Called on the worker threads, once
/// per block, in no particular order; not called in the multi-byte legacy encodings.
pub type BlockHook<'a> = dyn Fn(&[u8], Range<usize>, &BlockSummary) + Sync + 'a;

/// The block size for an input of `len` bytes.
pub fn block_size_for(len: u64) -> usize {
    let needed = len.div_ceil(MAX_BLOCKS as u64) as usize;
    needed.next_power_of_two().max(MIN_BLOCK)
}

/// Counts into one block's summary. Units are counted into one array of slots (classes 1
/// to 6, then the error kinds) with no branch on the unit's kind: on random data whether
/// the next unit is an error is a coin toss, and a mispredicted branch would cost more
/// than decoding the unit.
struct BlockSink {
    base: usize,
    slots: [u32; 6 + ErrorKind::ALL.len()],
    first_error: u32,
    /// One past the offset of the last error (0: none), so that `max` keeps it.
    last_error_end: u32,
}

impl BlockSink {
    fn new(base: usize) -> BlockSink {
        BlockSink {
            base,
            slots: [0; 6 + ErrorKind::ALL.len()],
            first_error: u32::MAX,
            last_error_end: 0,
        }
    }

    /// The block's summary; adds its counts to `tally`.
    fn finish(self, tally: &mut Tally) -> BlockSummary {
        let mut classes = [0u32; 6];
        classes.copy_from_slice(&self.slots[..6]);
        for (c, n) in classes.iter().enumerate() {
            tally.classes[c + 1] += *n as u64;
        }
        for (k, n) in self.slots[6..].iter().enumerate() {
            tally.errors[k] += *n as u64;
        }
        let errors: u32 = self.slots[6..].iter().sum();
        BlockSummary {
            units: classes.iter().sum::<u32>() + errors,
            errors,
            first_error: self.first_error,
            last_error: self.last_error_end.wrapping_sub(1),
            classes,
            replacements: 0,
        }
    }
}

impl Sink for BlockSink {
    fn scalars(&mut self, classes: &ClassCounts) {
        for (slot, n) in self.slots.iter_mut().zip(&classes[1..]) {
            *slot += *n as u32;
        }
    }

    fn unit(&mut self, _bytes: &[u8], unit: &Unit) {
        let at = (unit.start - self.base) as u32;
        let shape = Shape::of(unit);
        let is_error = shape.is_error();
        // Tags 1..=6 are classes, 7.. error kinds: slot = tag - 1.
        self.slots[shape.tag as usize - 1] += 1;
        self.first_error = self.first_error.min(if is_error { at } else { u32::MAX });
        self.last_error_end = self.last_error_end.max(if is_error { at + 1 } else { 0 });
    }

    const COUNTS_ONLY: bool = true;

    fn dense(&mut self, counts: &DenseCounts) {
        for (slot, n) in self.slots.iter_mut().zip(&counts.tags[1..]) {
            *slot += *n as u32;
        }
        if counts.first_error != usize::MAX {
            let first = (counts.first_error - self.base) as u32;
            self.first_error = self.first_error.min(first);
            let last = (counts.last_error - self.base) as u32;
            self.last_error_end = self.last_error_end.max(last + 1);
        }
    }
}

impl Summary {
    /// Scans all of `bytes` with up to `threads` worker threads. Returns `None` if
    /// `progress` was cancelled before the end.
    pub fn build(
        dialect: Dialect,
        bytes: &[u8],
        threads: usize,
        progress: &Progress,
    ) -> Option<Summary> {
        Summary::build_marked(dialect, bytes, threads, progress, None)
    }

    /// [`Summary::build`], asking `marker` of every block that holds a non-ASCII unit
    /// right after the block is scanned, while its bytes are still in cache; the answers
    /// are [`Summary::marks`]. This is how a later look at the input (detection's search
    /// for mojibake) learns where to look without reading the whole input again.
    pub fn build_marked(
        dialect: Dialect,
        bytes: &[u8],
        threads: usize,
        progress: &Progress,
        marker: Option<&Marker>,
    ) -> Option<Summary> {
        Summary::build_hooked(dialect, bytes, threads, progress, marker, None)
    }

    /// [`Summary::build_marked`], also handing every block to `hook` right after it is
    /// scanned (see [`BlockHook`]).
    pub fn build_hooked(
        dialect: Dialect,
        bytes: &[u8],
        threads: usize,
        progress: &Progress,
        marker: Option<&Marker>,
        hook: Option<&BlockHook<'_>>,
    ) -> Option<Summary> {
        let started = Instant::now();
        if let Dialect::MultiByte(table) = dialect {
            return build_multi_byte(table, bytes, threads, progress, started);
        }
        let block_size = block_size_for(bytes.len() as u64);
        let count = bytes.len().div_ceil(block_size);
        let tasks = count.div_ceil(BLOCKS_PER_TASK);
        progress.expect_blocks(count);
        // Each worker's tally, and the blocks (and marks) of each task it ran.
        type Done = (Tally, Vec<(usize, Vec<BlockSummary>, Vec<u8>)>);
        let task = |(tally, done): &mut Done, task: usize| {
            if progress.is_cancelled() {
                return;
            }
            let first = task * BLOCKS_PER_TASK;
            let mut marks = Vec::new();
            let blocks: Vec<BlockSummary> = (first..count.min(first + BLOCKS_PER_TASK))
                .map(|b| {
                    let range = b * block_size..((b + 1) * block_size).min(bytes.len());
                    let scanned = range.len() as u64;
                    let summary = scan_block(dialect, bytes, range.clone(), tally);
                    if let Some(marker) = marker {
                        let ascii = summary.classes[0] == summary.units;
                        marks.push(if ascii {
                            0
                        } else {
                            marker(bytes, range.clone())
                        });
                    }
                    if let Some(hook) = hook {
                        hook(bytes, range, &summary);
                    }
                    progress.publish(b, &summary);
                    progress.done.fetch_add(scanned, Ordering::Relaxed);
                    summary
                })
                .collect();
            done.push((first, blocks, marks));
        };
        let workers = pool::run(tasks, threads, Done::default, task);
        if progress.is_cancelled() {
            return None;
        }
        let mut blocks = vec![BlockSummary::EMPTY; count];
        let mut marks = marker.map(|_| vec![0u8; count]);
        let mut tally = Tally::default();
        for (worker_tally, done) in workers {
            tally.merge(&worker_tally);
            for (first, part, part_marks) in done {
                blocks[first..first + part.len()].copy_from_slice(&part);
                if let Some(marks) = marks.as_mut() {
                    marks[first..first + part_marks.len()].copy_from_slice(&part_marks);
                }
            }
        }
        // Per-worker first/last errors are unordered; the blocks know the true ones.
        Some(Summary::assemble(
            dialect,
            bytes,
            block_size,
            blocks,
            tally,
            started,
            Vec::new(),
            marks,
        ))
    }

    /// The summary of scanned `blocks`: the true first and last errors and the running
    /// unit counts are derived from the blocks, whatever order the workers merged in.
    #[allow(clippy::too_many_arguments)]
    fn assemble(
        dialect: Dialect,
        bytes: &[u8],
        block_size: usize,
        blocks: Vec<BlockSummary>,
        mut tally: Tally,
        started: Instant,
        checkpoints: Vec<Checkpoint>,
        marks: Option<Vec<u8>>,
    ) -> Summary {
        tally.first_error = first_error_offset(&blocks, block_size);
        tally.last_error = last_error_offset(&blocks, block_size);
        let unit_starts = std::iter::once(0)
            .chain(blocks.iter().scan(0u64, |units, b| {
                *units += b.units as u64;
                Some(*units)
            }))
            .collect();
        Summary {
            dialect,
            len: bytes.len() as u64,
            block_size,
            blocks,
            tally,
            bom: Bom::detect(bytes),
            elapsed: started.elapsed(),
            unit_starts,
            checkpoints,
            marks,
        }
    }

    /// [`Summary::build`], calling `release` on the ranges the scan has left behind (by a
    /// lag of [`RELEASE_LAG`], as workers may still be reading just behind the progress
    /// mark) and at the end on the whole input. A caller with a memory-mapped input passes
    /// a function that lets go of those pages, so scanning a 16 GiB file does not leave
    /// 16 GiB resident.
    pub fn build_releasing(
        dialect: Dialect,
        bytes: &[u8],
        threads: usize,
        progress: &Progress,
        release: impl Fn(Range<usize>),
        prefetch: impl Fn(Range<usize>),
    ) -> Option<Summary> {
        Summary::build_alongside(dialect, bytes, threads, progress, release, prefetch, None)
    }

    /// [`Summary::build_releasing`], with a reader that sees every byte of the input once,
    /// front to back, in pieces of [`ALONGSIDE_CHUNK`] bytes, while the scan runs: a hash of
    /// the input, say, that costs no second read of the file. The reader runs on the calling
    /// thread, which also looks after the pages; a page is let go only once both the scan
    /// and the reader are [`RELEASE_LAG`] past it.
    ///
    /// An input of at most [`INLINE_LIMIT`] bytes is read and scanned on the calling thread
    /// alone (the reader first, then the scan, over pages now in memory), so a walk over
    /// many small files starts no thread per file.
    pub fn build_alongside(
        dialect: Dialect,
        bytes: &[u8],
        threads: usize,
        progress: &Progress,
        release: impl Fn(Range<usize>),
        prefetch: impl Fn(Range<usize>),
        alongside: Option<Reader<'_>>,
    ) -> Option<Summary> {
        Summary::build_alongside_hooked(
            dialect, bytes, threads, progress, release, prefetch, alongside, None,
        )
    }

    /// [`Summary::build_alongside`], also handing every block to `hook` on the scan's
    /// workers (see [`BlockHook`]).
    #[allow(clippy::too_many_arguments)]
    pub fn build_alongside_hooked(
        dialect: Dialect,
        bytes: &[u8],
        threads: usize,
        progress: &Progress,
        release: impl Fn(Range<usize>),
        prefetch: impl Fn(Range<usize>),
        mut alongside: Option<Reader<'_>>,
        hook: Option<&BlockHook<'_>>,
    ) -> Option<Summary> {
        if bytes.len() <= INLINE_LIMIT {
            if let Some(read) = alongside.as_mut() {
                read(bytes);
            }
            let summary = Summary::build_hooked(dialect, bytes, 1, progress, None, hook);
            release(0..bytes.len());
            return summary;
        }
        std::thread::scope(|scope| {
            // The scan drops `finished` when it ends (or unwinds), which wakes the wait
            // below at once: a fixed sleep would add up to its length to every scan.
            let (finished, ended) = mpsc::channel::<()>();
            let scan = scope.spawn(move || {
                let summary = Summary::build_hooked(dialect, bytes, threads, progress, None, hook);
                drop(finished);
                summary
            });
            let mut released = 0;
            let mut fetched = PREFETCH_AHEAD.min(bytes.len());
            prefetch(0..fetched);
            // Without a reader, everything counts as read already.
            let has_reader = alongside.is_some();
            let mut read = if has_reader { 0 } else { bytes.len() };
            let mut scan_over = false;
            while !progress.is_cancelled() {
                if !scan_over {
                    let waited = if read < bytes.len() {
                        ended.try_recv().map_err(|e| e == mpsc::TryRecvError::Empty)
                    } else {
                        ended
                            .recv_timeout(Duration::from_millis(10))
                            .map_err(|e| e == RecvTimeoutError::Timeout)
                    };
                    scan_over = waited != Err(true);
                }
                if read < bytes.len() {
                    let end = (read + ALONGSIDE_CHUNK).min(bytes.len());
                    if let Some(reader) = alongside.as_mut() {
                        reader(&bytes[read..end]);
                    }
                    read = end;
                } else if scan_over {
                    break;
                }
                let scanned = if scan_over {
                    bytes.len()
                } else {
                    progress.done() as usize
                };
                // Ahead of whichever is in front: the scan, or a reader that overtook it.
                let front = if has_reader {
                    scanned.max(read)
                } else {
                    scanned
                };
                let ahead = (front + PREFETCH_AHEAD).min(bytes.len());
                if ahead > fetched {
                    prefetch(fetched..ahead);
                    fetched = ahead;
                }
                let done = scanned.min(read).saturating_sub(RELEASE_LAG);
                if done > released {
                    release(released..done);
                    released = done;
                }
            }
            release(released..bytes.len());
            scan.join().ok().flatten()
        })
    }

    /// Scans with one worker per available core.
    pub fn build_parallel(dialect: Dialect, bytes: &[u8]) -> Summary {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let progress = Progress::new();
        Summary::build(dialect, bytes, threads, &progress).expect("not cancelled")
    }

    /// The byte range of block `b`.
    pub fn block_range(&self, b: usize) -> Range<usize> {
        let start = b * self.block_size;
        start..(start + self.block_size).min(self.len as usize)
    }

    /// Total units (scalars and errors).
    pub fn unit_count(&self) -> u64 {
        self.unit_starts.last().copied().unwrap_or(0)
    }

    /// Whether the input is valid in the scanned dialect.
    pub fn is_valid(&self) -> bool {
        self.tally.error_count() == 0
    }

    /// The first error unit that starts at or after `offset`, anywhere in the input.
    pub fn next_error(&self, bytes: &[u8], offset: usize) -> Option<Unit> {
        let first_block = offset / self.block_size;
        for b in first_block..self.blocks.len() {
            let summary = &self.blocks[b];
            if summary.errors == 0 {
                continue;
            }
            let range = self.block_range(b);
            if range.start >= offset {
                let at = range.start + summary.first_error as usize;
                return Some(self.dialect.decode_at(bytes, at));
            }
            if range.start + (summary.last_error as usize) < offset {
                continue;
            }
            let found = self.errors_in_block(bytes, b).find(|u| u.start >= offset);
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// The last error unit that starts before `offset`, anywhere in the input.
    pub fn prev_error(&self, bytes: &[u8], offset: usize) -> Option<Unit> {
        if offset == 0 || self.blocks.is_empty() {
            return None;
        }
        let last_block = ((offset - 1) / self.block_size).min(self.blocks.len() - 1);
        for b in (0..=last_block).rev() {
            let summary = &self.blocks[b];
            if summary.errors == 0 {
                continue;
            }
            let range = self.block_range(b);
            let last = range.start + summary.last_error as usize;
            if last < offset {
                return Some(self.dialect.decode_at(bytes, last));
            }
            if range.start + (summary.first_error as usize) >= offset {
                continue;
            }
            let found = self
                .errors_in_block(bytes, b)
                .take_while(|u| u.start < offset)
                .last();
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// Every error unit, in input order, re-decoding only the blocks that hold some.
    pub fn errors<'a>(&'a self, bytes: &'a [u8]) -> impl Iterator<Item = Unit> + 'a {
        (0..self.blocks.len())
            .filter(|b| self.blocks[*b].errors > 0)
            .flat_map(move |b| self.errors_in_block(bytes, b))
    }

    /// The U+FFFD characters in the input (already replacements when it was written: a
    /// sign that data was lost before).
    pub fn replacement_count(&self) -> u64 {
        self.blocks.iter().map(|b| b.replacements as u64).sum()
    }

    /// Every U+FFFD unit, in input order, searching only the blocks that hold some.
    pub fn replacements<'a>(&'a self, bytes: &'a [u8]) -> impl Iterator<Item = Unit> + 'a {
        (0..self.blocks.len())
            .filter(|b| self.blocks[*b].replacements > 0)
            .flat_map(move |b| replacements_in(self.dialect, bytes, self.block_range(b)))
            .map(move |at| self.dialect.decode_at(bytes, at))
    }

    /// A cursor that gives the line and column of offsets asked for in increasing order
    /// ([`Lines::at`]).
    pub fn lines<'a>(&'a self, bytes: &'a [u8]) -> Lines<'a> {
        // A byte order mark the dialect reads as U+FEFF takes no column, as in an editor:
        // the first character after it is in column 1.
        let first = (!bytes.is_empty()).then(|| self.dialect.decode_at(bytes, 0));
        let mark = first
            .filter(
                |u| matches!(u.kind, crate::decode::UnitKind::Scalar(cp) if cp.value() == 0xFEFF),
            )
            .map_or(0, |u| u.end());
        Lines {
            summary: self,
            bytes,
            at: mark,
            line: 1,
            column: 1,
        }
    }

    /// The number of the unit containing `offset` (0-based; units counted from the start,
    /// scalars and errors alike).
    pub fn unit_number(&self, bytes: &[u8], offset: usize) -> u64 {
        if self.blocks.is_empty() {
            return 0;
        }
        let target = self
            .unit_containing(bytes, offset.min(bytes.len() - 1))
            .start;
        let b = target / self.block_size;
        let before = self
            .block_units(bytes, b)
            .take_while(|u| u.start < target)
            .count() as u64;
        // A unit starting before the block (and containing `target`) can only be `target`
        // itself when target < range.start, which cannot happen: target starts a unit and
        // lies in block b.
        self.unit_starts[b] + before
    }

    /// The start offset of unit number `n` (0-based), or `None` past the last unit.
    pub fn unit_offset(&self, bytes: &[u8], n: u64) -> Option<usize> {
        if n >= self.unit_count() {
            return None;
        }
        // The block whose units include number n: the last block starting at or before n.
        let b = self.unit_starts.partition_point(|&s| s <= n) - 1;
        let skip = n - self.unit_starts[b];
        let mut units = self.block_units(bytes, b);
        for _ in 0..skip {
            units.next();
        }
        Some(units.position())
    }

    /// The units from the first one that starts in block `b`: in a multi-byte legacy
    /// encoding from the block's checkpoint, elsewhere found by resync.
    pub fn block_units<'a>(&self, bytes: &'a [u8], b: usize) -> Units<'a> {
        match self.checkpoints.get(b) {
            Some(checkpoint) => self.dialect.units_from_checkpoint(bytes, *checkpoint),
            None => {
                let start =
                    crate::scan::first_boundary(self.dialect, bytes, self.block_range(b).start);
                self.dialect.units_from(bytes, start.min(bytes.len()))
            }
        }
    }

    /// The error units that start in block `b`, in order.
    fn errors_in_block<'a>(&self, bytes: &'a [u8], b: usize) -> impl Iterator<Item = Unit> + 'a {
        let end = self.block_range(b).end;
        self.block_units(bytes, b)
            .take_while(move |u| u.start < end)
            .filter(|u| u.is_error())
    }

    /// The nearest checkpoint of the block index at or before `offset`: where decoding is
    /// known to be in step in a multi-byte legacy encoding. `None` in other dialects (which
    /// resync from the bytes around an offset alone).
    pub fn checkpoint_before(&self, offset: usize) -> Option<Checkpoint> {
        let b = (offset / self.block_size).min(self.checkpoints.len().checked_sub(1)?);
        self.checkpoints[..=b]
            .iter()
            .rev()
            .find(|c| c.at <= offset)
            .copied()
    }

    /// The unit containing `offset`, found with the block index's checkpoints in a
    /// multi-byte legacy encoding ([`Dialect::resync`]), and where decoding started.
    pub fn resync(&self, bytes: &[u8], offset: usize) -> Resync {
        self.dialect
            .resync(bytes, offset, self.checkpoint_before(offset))
    }

    /// The unit containing `offset` (see [`Summary::resync`]).
    pub fn unit_containing(&self, bytes: &[u8], offset: usize) -> Unit {
        self.resync(bytes, offset).unit
    }

    /// The verdict. `bytes` is needed to test, for an invalid UTF-8 input, whether another
    /// dialect accepts it (decoding only the blocks with errors again).
    pub fn verdict(&self, bytes: &[u8]) -> Verdict {
        let errors = self.tally.error_count();
        if self.len == 0 {
            return Verdict::Empty;
        }
        if errors == 0 {
            // In a single-byte encoding every unit has 1 byte: ASCII only if every byte is.
            let ascii = self.tally.classes[1] == self.len
                && (!matches!(self.dialect, Dialect::SingleByte(_) | Dialect::MultiByte(_))
                    || bytes.is_ascii());
            return if ascii {
                Verdict::AsciiOnly
            } else {
                Verdict::Valid(self.dialect)
            };
        }
        if self.dialect == Dialect::Utf8 {
            if let Some(d) = self.valid_in_other_dialect(bytes) {
                return Verdict::ValidOnlyIn(d);
            }
        }
        // A last character cut short by the end of the input says nothing against the rest.
        let cut = self.cut_at_end(bytes).is_some();
        let rest = errors - u64::from(cut);
        if rest == 0 {
            return Verdict::CutShort;
        }
        // Evidence for the dialect: characters of two bytes or more decoded (random bytes or
        // single-byte encodings rarely form them), against the errors; a few errors in a
        // long text are not evidence against it either. But when every error is a byte
        // windows-1252 reads as a character, and UTF-8 characters are not rare beside them
        // (a short text that mixes a few of each), the text is UTF-8 with stray bytes.
        //
        // A form that only a lax UTF-8 decoder reads (an overlong `C0 AF`, a surrogate, a
        // 5-byte form) is written by a UTF-8 encoder, lax or malicious, never by a
        // single-byte one: it counts as a character of the dialect, its error units do not
        // count against it, and a text that holds one is not "UTF-8 with stray bytes"
        // (windows-1252 reads `C0 AF` as "À¯", but that is not what it is).
        let utf8_family = self.dialect.code_unit_width().is_none();
        let lax = if utf8_family && rest <= LAX_EVIDENCE_LIMIT {
            self.lax_evidence(bytes)
        } else {
            LaxEvidence::default()
        };
        let rest = rest - lax.error_units;
        let multibyte: u64 = self.tally.classes[2..].iter().sum::<u64>() + lax.forms;
        let units = self.unit_count();
        let many = rest * 20 > units || (rest >= 8 && rest > multibyte);
        let against = multibyte <= rest && many;
        if against && multibyte * 8 < rest {
            return Verdict::ProbablyNot(errors);
        }
        // Every error a stray windows-1252 byte or part of a lax form.
        let stray = utf8_family
            && !cut
            && if rest <= LAX_EVIDENCE_LIMIT {
                lax.all_others_stray
            } else {
                self.errors(bytes).all(|u| is_stray_windows_1252(bytes, &u))
            };
        // Stray bytes stand among UTF-8's characters: where they outnumber them more than
        // twice over in a text with many errors (GBK or Big5 text, whose pairs of bytes
        // windows-1252 reads too, makes a UTF-8 character of one pair in four), they are
        // the text, and it is not UTF-8. A short text with a few is still read as UTF-8's
        // (four in a sentence beside its one `Ø`), and so is a long one where they are
        // fewer than 1 unit in 20 (curly quotes in an ASCII report).
        let stray = stray && !(against && rest >= 16 && rest > 2 * multibyte && rest * 20 > units);
        if stray && lax.forms == 0 {
            Verdict::StrayBytes(rest)
        } else if stray || !against {
            Verdict::WithErrors(errors)
        } else {
            Verdict::ProbablyNot(errors)
        }
    }

    /// The lax-decoder forms among the errors (see [`Summary::verdict`]), and whether every
    /// other error unit is a byte windows-1252 reads as a character.
    fn lax_evidence(&self, bytes: &[u8]) -> LaxEvidence {
        let mut evidence = LaxEvidence {
            all_others_stray: true,
            ..LaxEvidence::default()
        };
        let mut covered_until = 0;
        for unit in self.errors(bytes) {
            if unit.start < covered_until {
                evidence.error_units += 1;
                continue;
            }
            let lax_form = self.dialect.diagnose(bytes, &unit).filter(|d| {
                matches!(
                    d.finding,
                    Finding::Overlong { .. }
                        | Finding::Surrogate { .. }
                        | Finding::SurrogatePair { .. }
                        | Finding::AboveUnicode { .. }
                        | Finding::LegacyForm { .. }
                        | Finding::FourByteForm { .. }
                )
            });
            if let Some(d) = lax_form {
                evidence.forms += 1;
                evidence.error_units += 1;
                covered_until = unit.start + d.span as usize;
            } else if !is_stray_windows_1252(bytes, &unit) {
                evidence.all_others_stray = false;
            }
        }
        evidence
    }

    /// The offset of the last error unit, if any.
    fn last_error_offset(&self) -> Option<usize> {
        last_error_offset(&self.blocks, self.block_size)
    }

    /// The offset of the last unit of `bytes` (what was scanned), where the end of the
    /// input cuts a character short there. A lone lead byte at the end is such a cut only
    /// beside characters of two bytes or more: after ASCII alone it is as much a byte of a
    /// single-byte encoding (`caf` E9), and is read as any other error.
    pub fn cut_at_end(&self, bytes: &[u8]) -> Option<usize> {
        let at = self.last_error_offset()?;
        let unit = self.dialect.decode_at(bytes, at);
        let multibyte: u64 = self.tally.classes[2..].iter().sum();
        let cut = matches!(
            unit.error_kind(),
            Some(ErrorKind::TruncatedEof | ErrorKind::TruncatedUnit)
        ) && unit.end() == bytes.len()
            && (unit.len > 1 || multibyte > 0);
        cut.then_some(at)
    }

    /// For an input scanned as UTF-8: the first other dialect in which it is valid.
    ///
    /// Every byte where a dialect's units differ from UTF-8's lies in a unit that UTF-8
    /// calls an error (a surrogate, `C0 80`, a 5-byte form ...), so it is enough to decode
    /// the blocks with UTF-8 errors again, plus two whole-input facts: CESU-8 and Modified
    /// UTF-8 have no 4-byte forms, and Modified UTF-8 no raw NUL.
    fn valid_in_other_dialect(&self, bytes: &[u8]) -> Option<Dialect> {
        let has_four_byte = self.tally.classes[4] > 0;
        [
            Dialect::Wtf8,
            Dialect::Cesu8,
            Dialect::Mutf8,
            Dialect::Legacy,
        ]
        .into_iter()
        .filter(|d| !(has_four_byte && matches!(d, Dialect::Cesu8 | Dialect::Mutf8)))
        .filter(|d| *d != Dialect::Mutf8 || !bytes.contains(&0))
        .find(|d| {
            (0..self.blocks.len())
                .filter(|b| self.blocks[*b].errors > 0)
                .all(|b| errors_in(*d, bytes, self.block_range(b)).next().is_none())
        })
    }

    /// Error counts of the kinds that occurred, in the order of [`ErrorKind::ALL`].
    pub fn error_kinds(&self) -> Vec<(ErrorKind, u64)> {
        ErrorKind::ALL
            .iter()
            .map(|k| (*k, self.tally.errors_of(*k)))
            .filter(|(_, n)| *n > 0)
            .collect()
    }
}

/// Lines and columns of offsets taken in increasing order, from a [`Summary`]. Nothing is
/// counted until a line is asked for, so an input without errors or findings pays nothing
/// for them: the line feeds of the stretch since the last offset asked for are counted
/// then (16 bytes to a vector compare, far faster than the scan), and the column counts
/// units from the line's start, by decoding a short stretch or, across a block, by the
/// summary's unit numbers. Listing every error of an input reads its bytes up to the last
/// one at most once more, at that speed.
///
/// Lines and columns count from 1; a line ends at a line feed (0A); the column counts units
/// (a character, or an error unit, each one column), as an editor counts characters.
#[derive(Debug)]
pub struct Lines<'a> {
    summary: &'a Summary,
    bytes: &'a [u8],
    /// The offset of the last answer (a unit boundary).
    at: usize,
    line: u64,
    column: u64,
}

impl Lines<'_> {
    /// The line and column of `offset`, which starts a unit and is not before the last
    /// offset asked for (else the answer is for the last one).
    pub fn at(&mut self, offset: usize) -> (u64, u64) {
        let offset = offset.max(self.at).min(self.bytes.len());
        let gap = &self.bytes[self.at..offset];
        let (newlines, last) = line_feeds(self.summary.dialect, gap);
        if newlines > 0 {
            self.line += newlines;
            let last = last.map_or(self.at, |end| self.at + end);
            self.column = 1 + self.units_between(last, offset);
        } else {
            self.column += self.units_between(self.at, offset);
        }
        self.at = offset;
        (self.line, self.column)
    }

    /// The units from boundary `from` to boundary `to`: decoded where the stretch is short,
    /// from the summary's unit numbers where it is long.
    fn units_between(&self, from: usize, to: usize) -> u64 {
        let summary = self.summary;
        if to - from <= summary.block_size || to >= self.bytes.len() {
            units_in(summary.dialect, self.bytes, from..to)
        } else {
            summary.unit_number(self.bytes, to) - summary.unit_number(self.bytes, from)
        }
    }
}

/// The line feeds of `gap` (which starts on a unit boundary) and the offset in it just past
/// the last: bytes 0A in the UTF-8 family and single-byte encodings, code units U+000A in
/// UTF-16 and UTF-32 (where a byte 0A may be half of another character, like U+010A).
fn line_feeds(dialect: Dialect, gap: &[u8]) -> (u64, Option<usize>) {
    let width = dialect.code_unit_width().filter(|w| *w > 1);
    let Some((width, Ok(lf))) = width.map(|w| (w, dialect.encode(CodePoint::new(0x0A)))) else {
        return (
            count_byte(gap, b'\n'),
            memchr::memrchr(b'\n', gap).map(|at| at + 1),
        );
    };
    let mut count = 0;
    let mut last = None;
    for (i, unit) in gap.chunks_exact(width).enumerate() {
        if unit == lf.as_bytes() {
            count += 1;
            last = Some((i + 1) * width);
        }
    }
    (count, last)
}

fn scan_block(
    dialect: Dialect,
    bytes: &[u8],
    range: Range<usize>,
    tally: &mut Tally,
) -> BlockSummary {
    let mut sink = BlockSink::new(range.start);
    scan_range(dialect, bytes, range.clone(), &mut sink);
    let mut summary = sink.finish(tally);
    // A U+FFFD is a 3-byte scalar in the UTF-8 family: a block without one has none, and
    // ASCII and most alphabetic text skip the search (looked for while the block is
    // still in cache). In UTF-16, UTF-32 and gb18030 its bytes are looked for where a
    // unit starts; the other encodings have no U+FFFD.
    if summary.classes[2] > 0 || dialect.code_unit_width().is_some() {
        summary.replacements = replacements_in(dialect, bytes, range).count() as u32;
    }
    summary
}

/// How many bytes of `hay` are `byte`: per 64-byte row, a counter per lane (emptied
/// before it can wrap), which compiles to vector compares and subtractions.
#[multiversion::multiversion(targets("x86_64+avx2", "x86_64+sse4.2"))]
fn count_byte(hay: &[u8], byte: u8) -> u64 {
    const ROW: usize = 64;
    let mut total = 0u64;
    for chunk in hay.chunks(ROW * u8::MAX as usize) {
        let mut lanes = [0u8; ROW];
        let mut rows = chunk.chunks_exact(ROW);
        for row in &mut rows {
            for i in 0..ROW {
                lanes[i] += u8::from(row[i] == byte);
            }
        }
        total += lanes.iter().map(|&n| u64::from(n)).sum::<u64>();
        total += rows.remainder().iter().filter(|&&b| b == byte).count() as u64;
    }
    total
}

/// The bytes of U+FFFD, the same in every dialect.
const REPLACEMENT: &[u8] = "\u{FFFD}".as_bytes();

/// The bytes of U+FFFD in gb18030: pointer 39417 of the WHATWG Encoding Standard's
/// four-byte ranges (U+FFE6 at 39394, plus 23).
const GB18030_REPLACEMENT: [u8; 4] = [0x84, 0x31, 0xA4, 0x37];

/// The offsets of the U+FFFD characters that start in `range`. In the UTF-8 family `EF`
/// is a lead in every dialect, so `EF BF BD` is always a whole unit, a valid scalar.
///
/// `EF` is rare in most text: looking for it with memchr and checking the next two bytes
/// costs less than a search for the three bytes (measured on multilingual text).
///
/// In the encodings of code units (UTF-16 `FD FF` or `FF FD`, UTF-32, gb18030's
/// `84 31 A4 37`), the bytes count where a unit starts: on the units' grid from the
/// input's start, or (gb18030) where the decoder, resynchronised, starts one. The other
/// encodings cannot write U+FFFD.
fn replacements_in(
    dialect: Dialect,
    bytes: &[u8],
    range: Range<usize>,
) -> Box<dyn Iterator<Item = usize> + '_> {
    let Some(width) = dialect.code_unit_width() else {
        return Box::new(
            memchr::memchr_iter(REPLACEMENT[0], &bytes[range.clone()])
                .map(move |at| range.start + at)
                .filter(move |at| bytes.get(at + 1..at + 3) == Some(&REPLACEMENT[1..])),
        );
    };
    let pattern: Vec<u8> = match dialect {
        // The WHATWG Encoding Standard's GBK decoder is gb18030's.
        Dialect::MultiByte(table) if matches!(table.name(), "gb18030" | "GBK") => {
            GB18030_REPLACEMENT.to_vec()
        }
        // The table's own search for a character reads every entry: for the others, which
        // have no U+FFFD, it would be asked in every block.
        Dialect::MultiByte(_) | Dialect::SingleByte(_) => return Box::new(std::iter::empty()),
        _ => match dialect.encode(CodePoint::new(0xFFFD)) {
            Ok(encoded) => encoded.as_bytes().to_vec(),
            Err(_) => return Box::new(std::iter::empty()),
        },
    };
    // A match may start in `range` and end past it.
    let end = (range.end + pattern.len() - 1).min(bytes.len());
    let finder = memchr::memmem::Finder::new(&pattern).into_owned();
    let starts: Vec<usize> = finder
        .find_iter(&bytes[range.start..end])
        .map(|at| range.start + at)
        .filter(|at| *at < range.end)
        .filter(|at| match width {
            1 => dialect.unit_containing(bytes, *at).start == *at,
            w => at % w == 0,
        })
        .collect();
    Box::new(starts.into_iter())
}

/// The most errors [`Summary::verdict`] reads one by one for lax-decoder forms; beyond it
/// the errors are too many for a few such forms to change the verdict (and listing them
/// decodes every block that holds one).
const LAX_EVIDENCE_LIMIT: u64 = 1 << 14;

/// What [`Summary::lax_evidence`] found.
#[derive(Default)]
struct LaxEvidence {
    /// Lax-decoder forms (`C0 AF`, `ED A0 80`, `F8 88 80 80 80` ...).
    forms: u64,
    /// The error units they cover.
    error_units: u64,
    /// Every other error unit is one byte windows-1252 reads as a character.
    all_others_stray: bool,
}

/// Whether error unit `unit` is one byte that windows-1252 maps to a character: 80..FF but
/// the five it leaves undefined (81, 8D, 8F, 90, 9D).
fn is_stray_windows_1252(bytes: &[u8], unit: &Unit) -> bool {
    unit.len == 1
        && bytes[unit.start] >= 0x80
        && !matches!(bytes[unit.start], 0x81 | 0x8D | 0x8F | 0x90 | 0x9D)
}

fn first_error_offset(blocks: &[BlockSummary], block_size: usize) -> Option<usize> {
    let b = blocks.iter().position(|s| s.errors > 0)?;
    Some(b * block_size + blocks[b].first_error as usize)
}

fn last_error_offset(blocks: &[BlockSummary], block_size: usize) -> Option<usize> {
    let b = blocks.iter().rposition(|s| s.errors > 0)?;
    Some(b * block_size + blocks[b].last_error as usize)
}

/// The error units that start in `range`, in order.
pub fn errors_in(
    dialect: Dialect,
    bytes: &[u8],
    range: Range<usize>,
) -> impl Iterator<Item = Unit> + '_ {
    let start = crate::scan::first_boundary(dialect, bytes, range.start);
    let end = range.end;
    dialect
        .units_from(bytes, start.min(bytes.len()))
        .take_while(move |u| u.start < end)
        .filter(|u| u.is_error())
}

/// The number of units that start in `range`.
fn units_in(dialect: Dialect, bytes: &[u8], range: Range<usize>) -> u64 {
    let start = crate::scan::first_boundary(dialect, bytes, range.start);
    dialect
        .units_from(bytes, start.min(bytes.len()))
        .take_while(|u| u.start < range.end)
        .count() as u64
}

/// [`Summary::build`] in a multi-byte legacy encoding, which is not self-synchronizing.
///
/// Blocks are handed to workers [`BLOCKS_PER_TASK`] at a time; a worker starts a task at
/// the nearest sync point ([`MultiByteTable::sync_before`]) it finds looking back at most
/// one block from the task's first block, decodes forward to that block's start, and
/// chains each next block from the checkpoint where the last one stopped. A task that finds
/// no sync point so near (a long run of lead bytes) is left for a second pass, in order
/// after the parallel one, which starts it from the checkpoint where the block before it
/// ended. Every block thus starts where one decode from the start would be, whatever the
/// number of threads, and each is decoded once (plus at most one block of look-back per
/// task).
fn build_multi_byte(
    table: &'static MultiByteTable,
    bytes: &[u8],
    threads: usize,
    progress: &Progress,
    started: Instant,
) -> Option<Summary> {
    let dialect = Dialect::MultiByte(table);
    let block_size = block_size_for(bytes.len() as u64);
    let count = bytes.len().div_ceil(block_size);
    let tasks = count.div_ceil(BLOCKS_PER_TASK);
    progress.expect_blocks(count);
    let range_of = |b: usize| b * block_size..((b + 1) * block_size).min(bytes.len());
    // One block scanned from `from` (its first checkpoint): summary, tally, end checkpoint.
    let scan = |b: usize, from: Checkpoint| {
        let range = range_of(b);
        let mut sink = BlockSink::new(range.start);
        let end = crate::scan::multibyte::scan_multi_byte(table, bytes, from, range.end, &mut sink);
        let mut tally = Tally::default();
        let mut summary = sink.finish(&mut tally);
        // gb18030 (and GBK, read by its decoder) write U+FFFD (`84 31 A4 37`); the others
        // cannot.
        summary.replacements = replacements_in(dialect, bytes, range.clone()).count() as u32;
        progress.publish(b, &summary);
        progress
            .done
            .fetch_add(range.len() as u64, Ordering::Relaxed);
        (summary, tally, end)
    };
    type Done = (BlockSummary, Tally, Checkpoint, Checkpoint);
    let task = |done: &mut Vec<(usize, Done)>, task: usize| {
        if progress.is_cancelled() {
            return;
        }
        let first = task * BLOCKS_PER_TASK;
        let start = range_of(first).start;
        let floor = start.saturating_sub(block_size);
        let Some(sync) = table.sync_before(bytes, start, floor) else {
            return;
        };
        let mut from = crate::scan::multibyte::start_of(table, bytes, sync, start);
        for b in first..count.min(first + BLOCKS_PER_TASK) {
            let (summary, tally, end) = scan(b, from);
            done.push((b, (summary, tally, from, end)));
            from = end;
        }
    };
    let workers = pool::run(tasks, threads, Vec::new, task);
    if progress.is_cancelled() {
        return None;
    }
    let mut slots: Vec<Option<Done>> = vec![None; count];
    for (b, done) in workers.into_iter().flatten() {
        slots[b] = Some(done);
    }
    let mut blocks = Vec::with_capacity(count);
    let mut checkpoints = Vec::with_capacity(count);
    let mut tally = Tally::default();
    let mut end = Checkpoint::default();
    for (b, slot) in slots.into_iter().enumerate() {
        if progress.is_cancelled() {
            return None;
        }
        // The second pass: a block the parallel one left starts where the one before ended.
        let (summary, block_tally, from, block_end) = match slot {
            Some(done) => done,
            None => {
                let (summary, block_tally, block_end) = scan(b, end);
                (summary, block_tally, end, block_end)
            }
        };
        debug_assert!(
            b == 0 || from == end,
            "block {b} starts where {} ended",
            b - 1
        );
        tally.merge(&block_tally);
        blocks.push(summary);
        checkpoints.push(from);
        end = block_end;
    }
    // No marker is asked in these encodings: detection's marks are questions about UTF-8,
    // and a reader without marks looks at every block, as it must.
    Some(Summary::assemble(
        dialect,
        bytes,
        block_size,
        blocks,
        tally,
        started,
        checkpoints,
        None,
    ))
}

/// The sequence-length classes a summary lists for `dialect`: 1 to 4 always, 5 and 6
/// where the dialect has them.
pub fn summary_classes(dialect: Dialect) -> Vec<u8> {
    let mut classes = vec![1, 2, 3, 4];
    classes.extend(dialect.classes().iter().filter(|c| **c > 4));
    classes
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    fn sample() -> Vec<u8> {
        let mut input = Vec::new();
        for i in 0..60_000u32 {
            input.extend_from_slice("a€😀é ".as_bytes());
            if i % 5_000 == 17 {
                input.extend_from_slice(b"\xED\xA0\xBD\xED\xB8\x80\xC0\xAF\xE1\x80");
            }
            if i % 9_000 == 4 {
                // Random bytes: errors every few bytes, the scan's dense path.
                input.extend((0..3_000u32).map(|k| (k.wrapping_mul(2_654_435_761) >> 11) as u8));
            }
        }
        input
    }

    /// The reader sees every byte once, in order, whether the input is scanned inline or in
    /// parallel; the summary is the plain build's; no page is let go before the reader has
    /// passed it.
    #[test]
    fn a_reader_alongside_sees_every_byte_in_order() {
        let big = sample().repeat(6);
        assert!(big.len() > INLINE_LIMIT + 2 * ALONGSIDE_CHUNK);
        for bytes in [&big[..], &big[..INLINE_LIMIT], &big[..1000], &[][..]] {
            let plain = Summary::build(Dialect::Utf8, bytes, 1, &Progress::new()).unwrap();
            let seen = Mutex::new(Vec::new());
            let released = Mutex::new(Vec::new());
            let mut read = |piece: &[u8]| {
                let mut seen = seen.lock().unwrap();
                assert!(piece.len() <= ALONGSIDE_CHUNK);
                seen.extend_from_slice(piece);
            };
            let summary = Summary::build_alongside(
                Dialect::Utf8,
                bytes,
                3,
                &Progress::new(),
                |range| {
                    // Released only what the reader has already had.
                    assert!(range.end <= seen.lock().unwrap().len() || range.is_empty());
                    released.lock().unwrap().push(range);
                },
                |_| {},
                Some(&mut read),
            )
            .unwrap();
            assert_eq!(seen.into_inner().unwrap(), bytes);
            assert_eq!(summary.tally, plain.tally);
            assert_eq!(summary.blocks, plain.blocks);
            let released = released.into_inner().unwrap();
            assert_eq!(released.last().map(|r| r.end), Some(bytes.len()));
        }
    }

    #[test]
    fn blocks_are_published_one_by_one() {
        let silent = Progress::new();
        silent.expect_blocks(4);
        silent.publish(0, &BlockSummary::EMPTY);
        assert_eq!(silent.block(0), None, "not asked to publish");
        let progress = Progress::publishing_blocks();
        assert_eq!(progress.block(0), None);
        progress.expect_blocks(4);
        let mut summary = BlockSummary::EMPTY;
        summary.units = 7;
        summary.errors = 2;
        summary.classes[0] = 4;
        progress.publish(2, &summary);
        assert_eq!(progress.block(0), None);
        assert_eq!(
            progress.block(2),
            Some(BlockCounts {
                units: 7,
                errors: 2,
                ascii: 4
            })
        );
        assert_eq!(progress.block(4), None);
    }

    #[test]
    fn parallel_summary_equals_sequential_decode() {
        let input = sample();
        for d in Dialect::ALL {
            let units: Vec<Unit> = d.units(&input).collect();
            for threads in [1, 2, 3] {
                let s = Summary::build(d, &input, threads, &Progress::new()).unwrap();
                assert_eq!(s.unit_count(), units.len() as u64, "{d}");
                let errors: Vec<Unit> = units.iter().copied().filter(|u| u.is_error()).collect();
                assert_eq!(s.errors(&input).collect::<Vec<_>>(), errors, "{d}");
                assert_eq!(s.tally.first_error, errors.first().map(|u| u.start));
                assert_eq!(s.tally.last_error, errors.last().map(|u| u.start));
                let mut classes = [0u64; 7];
                for u in &units {
                    if let Some(c) = u.class() {
                        classes[c as usize] += 1;
                    }
                }
                assert_eq!(s.tally.classes, classes);
            }
        }
    }

    #[test]
    fn next_and_prev_error_from_anywhere() {
        let input = sample();
        let s = Summary::build_parallel(Dialect::Utf8, &input);
        let errors: Vec<usize> = Dialect::Utf8
            .units(&input)
            .filter(|u| u.is_error())
            .map(|u| u.start)
            .collect();
        for offset in (0..input.len()).step_by(997).chain([0, input.len() - 1]) {
            let next = errors.iter().copied().find(|e| *e >= offset);
            let prev = errors.iter().copied().rev().find(|e| *e < offset);
            assert_eq!(
                s.next_error(&input, offset).map(|u| u.start),
                next,
                "next from {offset}"
            );
            assert_eq!(
                s.prev_error(&input, offset).map(|u| u.start),
                prev,
                "prev from {offset}"
            );
        }
        for e in &errors {
            assert_eq!(s.next_error(&input, *e).map(|u| u.start), Some(*e));
            assert_eq!(s.prev_error(&input, *e + 1).map(|u| u.start), Some(*e));
        }
    }

    #[test]
    fn unit_numbers_and_offsets() {
        let input = sample();
        for d in [Dialect::Utf8, Dialect::Cesu8] {
            let s = Summary::build_parallel(d, &input);
            let starts: Vec<usize> = d.units(&input).map(|u| u.start).collect();
            for n in (0..starts.len()).step_by(4099).chain([starts.len() - 1]) {
                assert_eq!(s.unit_offset(&input, n as u64), Some(starts[n]));
                assert_eq!(s.unit_number(&input, starts[n]), n as u64);
            }
            assert_eq!(s.unit_offset(&input, starts.len() as u64), None);
        }
    }

    #[test]
    fn verdicts() {
        let v = |bytes: &[u8]| Summary::build_parallel(Dialect::Utf8, bytes).verdict(bytes);
        assert_eq!(v(b""), Verdict::Empty);
        assert_eq!(v(b"plain"), Verdict::AsciiOnly);
        assert_eq!(v("caf\u{E9}".as_bytes()), Verdict::Valid(Dialect::Utf8));
        assert_eq!(
            v(b"a\xED\xA0\xBD\xED\xB8\x80b"),
            Verdict::ValidOnlyIn(Dialect::Cesu8)
        );
        assert_eq!(v(b"a\xED\xA0\xBDb"), Verdict::ValidOnlyIn(Dialect::Wtf8));
        assert_eq!(v(b"a\xC0\x80b"), Verdict::ValidOnlyIn(Dialect::Mutf8));
        assert_eq!(
            v(b"a\xF8\x88\x80\x80\x80b"),
            Verdict::ValidOnlyIn(Dialect::Legacy)
        );
        let mostly_text = "é".repeat(100) + "\u{FFFD}";
        let mut bytes = mostly_text.into_bytes();
        bytes.push(0xFF);
        // FF is 'ÿ' in windows-1252.
        assert_eq!(v(&bytes), Verdict::StrayBytes(1));
        bytes.extend_from_slice(b"\xE2\x82x");
        assert_eq!(v(&bytes), Verdict::WithErrors(2));
        assert_eq!(
            v(b"caf\xE9 cr\xE8me br\xFBl\xE9e \xE0 la fran\xE7aise, tr\xE8s \xE9l\xE9gant"),
            Verdict::ProbablyNot(9)
        );
        let noise: Vec<u8> = (0..4096u32)
            .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
            .collect();
        assert!(matches!(v(&noise), Verdict::ProbablyNot(_)));
    }

    #[test]
    fn lax_forms_are_evidence_for_utf8() {
        let v = |bytes: &[u8]| Summary::build_parallel(Dialect::Utf8, bytes).verdict(bytes);
        // An overlong "/" is two error units windows-1252 reads as "À¯", but only a UTF-8
        // encoder writes it: not stray bytes, and not evidence against UTF-8.
        assert_eq!(v(b"GET /a/..\xC0\xAFetc/passwd\n"), Verdict::WithErrors(2));
        assert_eq!(v(b"\xC0\xAF"), Verdict::WithErrors(2));
        // A stray Latin-1 byte beside a lax form: errors, not only stray bytes.
        assert_eq!(v(b"caf\xE9 and \xC0\xAF"), Verdict::WithErrors(3));
        assert_eq!(v(b"caf\xE9 and \xE0\x80\xAE"), Verdict::WithErrors(4));
        // Surrogates and 5-byte forms among other errors count as the dialect's characters.
        assert_eq!(
            v(b"a\xED\xA0\x80 \xE9 \xF8\x88\x80\x80\x80 \xFF\xFE"),
            Verdict::WithErrors(11)
        );
        // Without a lax form the rules are as before.
        assert_eq!(v(b"caf\xC3\xA9 \xE9 and"), Verdict::StrayBytes(1));
        assert_eq!(v(b"abc\x81"), Verdict::ProbablyNot(1));
    }

    #[test]
    fn verdicts_name_what_they_see() {
        let v = |bytes: &[u8]| Summary::build_parallel(Dialect::Utf8, bytes).verdict(bytes);
        let d = |bytes: &[u8]| v(bytes).describe(Dialect::Utf8);
        // The cases: cut inside the last character; three stray windows-1252 bytes.
        let cut = "Grüße aus Köln. 😀".as_bytes();
        let cut = &cut[..cut.len() - 1];
        assert_eq!(v(cut), Verdict::CutShort);
        assert_eq!(d(cut), "UTF-8 (RFC 3629), cut short at the end");
        let stray = b"Gr\xC3\xBC\xC3\x9Fe \x93aus\x94 K\xC3\xB6ln \x96 Stra\xC3\x9Fe";
        assert_eq!(v(stray), Verdict::StrayBytes(3));
        assert_eq!(
            d(stray),
            "UTF-8 (RFC 3629) with 3 stray bytes (windows-1252?)"
        );
        // As many stray bytes as UTF-8 characters, in a short text.
        let mixed = b"Gr\xC3\xBC\xC3\x9Fe aus K\xC3\xB6ln, caf\xE9 and na\xEFve r\xE9sum\xE9 ok";
        assert_eq!(v(mixed), Verdict::StrayBytes(4));
        assert_eq!(
            d(b"x\xE9 \xC3\xA9\xC3\xA9"),
            "UTF-8 (RFC 3629) with 1 stray byte (windows-1252?)"
        );
        // Errors more than twice as many as UTF-8's characters, in a text of many, each a
        // byte windows-1252 reads: GBK, whose pairs of bytes make a UTF-8 character now
        // and then (`第0行：今天天气很好，我们去公园散步吧。` a line: `D4 B0` is `԰`,
        // `C9 A2` is `ɢ`, and 12 bytes are stray).
        let gbk: Vec<u8> = (0..40)
            .flat_map(|i| {
                let mut line = b"\xB5\xDA".to_vec();
                line.extend_from_slice(i.to_string().as_bytes());
                line.extend_from_slice(
                    b"\xD0\xD0\xA3\xBA\xBD\xF1\xCC\xEC\xCC\xEC\xC6\xF8\xBA\xDC\xBA\xC3\xA3\xAC\
                      \xCE\xD2\xC3\xC7\xC8\xA5\xB9\xAB\xD4\xB0\xC9\xA2\xB2\xBD\xB0\xC9\xA1\xA3\n",
                );
                line
            })
            .collect();
        assert_eq!(v(&gbk), Verdict::ProbablyNot(960));
        // Sixteen windows-1252 quotation marks in 400 lines of ASCII beside three dashes
        // of UTF-8: stray bytes still.
        let report: Vec<u8> = (1..=400)
            .flat_map(|i| match (i % 50, i) {
                (0, _) => format!("Line {i} says \u{93}done\u{94}.\n")
                    .chars()
                    .map(|c| c as u32 as u8)
                    .collect::<Vec<u8>>(),
                (_, 10 | 20 | 30) => format!("Line {i} \u{2014} a note.\n").into_bytes(),
                _ => format!("Line {i} is plain text.\n").into_bytes(),
            })
            .collect();
        assert_eq!(v(&report), Verdict::StrayBytes(16));
        // A byte windows-1252 leaves undefined is an error, not a stray character.
        assert_eq!(v(b"\xC3\xA9\xC3\xA9 \x81"), Verdict::WithErrors(1));
        // A cut in the middle is an error; a cut at the end with other errors too counts all.
        assert_eq!(
            v(b"\xC3\xA9\xC3\xA9\xC3\xA9 \xE2\x82 x"),
            Verdict::WithErrors(1)
        );
        assert_eq!(
            v(b"\xC3\xA9\xC3\xA9\xC3\xA9 \xFF \xE2\x82"),
            Verdict::WithErrors(2)
        );
        // Not UTF-8: Latin-1 text, UTF-16 with non-ASCII, random bytes.
        let latin1 = b"caf\xE9 cr\xE8me br\xFBl\xE9e \xE0 la fran\xE7aise";
        assert!(
            matches!(v(latin1), Verdict::ProbablyNot(_)),
            "{:?}",
            v(latin1)
        );
        let utf16: Vec<u8> = "Grüße aus Köln, Ελληνικά"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert!(
            matches!(v(&utf16), Verdict::ProbablyNot(_)),
            "{:?}",
            v(&utf16)
        );
        let noise: Vec<u8> = (0..4096u32)
            .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
            .collect();
        assert!(matches!(v(&noise), Verdict::ProbablyNot(_)));
        // A lone lead byte at the end after ASCII alone: as with a line feed after it.
        for (bytes, with_feed) in [
            (&b"caf\xE9"[..], &b"caf\xE9\n"[..]),
            (b"\xE9", b"\xE9\n"),
            (b"price: 100 \xA3", b"price: 100 \xA3\n"),
        ] {
            assert!(matches!(v(bytes), Verdict::ProbablyNot(1)), "{bytes:?}");
            assert_eq!(v(bytes), v(with_feed), "{bytes:?}");
        }
        // After characters of two bytes or more, still a cut, of one byte or more.
        assert_eq!(
            v("Köln \u{65E5}".as_bytes().split_last().unwrap().1),
            Verdict::CutShort
        );
        assert_eq!(v(b"K\xC3\xB6ln \xE6"), Verdict::CutShort);
        assert_eq!(v(b"caf\xE2\x82"), Verdict::CutShort);
        // Random bytes cut short at the end are still not UTF-8.
        let mut noise_cut = noise.clone();
        noise_cut.push(0xF0);
        assert!(matches!(v(&noise_cut), Verdict::ProbablyNot(_)));
    }

    /// A U+FFFD is found once, in the block where it starts, also across a block edge.
    #[test]
    fn replacements_in_encodings_of_code_units() {
        for (dialect, bytes, want) in [
            // `FD FF` on the grid and off it (the halves of `61 FD` and `FF 62`).
            (Dialect::Utf16Le, &b"a\0\xFD\xFFb\0\xFD\xFF"[..], vec![2, 6]),
            (Dialect::Utf16Le, &b"a\xFD\xFFb"[..], vec![]),
            (Dialect::Utf16Be, &b"\0a\xFF\xFD"[..], vec![2]),
            (
                Dialect::Utf32Le,
                &b"\xFD\xFF\0\0\0\xFD\xFF\0\0\0\0"[..],
                vec![0],
            ),
            (Dialect::Utf32Be, &b"\0\0\xFF\xFD"[..], vec![0]),
        ] {
            let summary = Summary::build(dialect, bytes, 1, &Progress::new()).expect("a summary");
            let found: Vec<usize> = summary.replacements(bytes).map(|u| u.start).collect();
            assert_eq!(found, want, "{dialect:?} {bytes:02X?}");
            assert_eq!(summary.replacement_count(), want.len() as u64);
        }
    }

    #[test]
    fn replacements_across_block_edges() {
        for before in [MIN_BLOCK - 3, MIN_BLOCK - 2, MIN_BLOCK - 1, MIN_BLOCK] {
            let mut bytes = vec![b'a'; before];
            bytes.extend_from_slice("\u{FFFD}x\u{FFFD}".as_bytes());
            bytes.extend_from_slice(b"\xEF\xBF");
            let summary = Summary::build_parallel(Dialect::Utf8, &bytes);
            assert_eq!(summary.replacement_count(), 2, "{before}");
            let found: Vec<usize> = summary.replacements(&bytes).map(|u| u.start).collect();
            assert_eq!(found, [before, before + 4], "{before}");
        }
    }

    #[test]
    fn bytes_counted_by_lanes() {
        let hay: Vec<u8> = (0..100_000u32).map(|i| (i * 7 % 251) as u8).collect();
        for len in [0, 1, 63, 64, 65, 64 * 255, 64 * 255 + 1, hay.len()] {
            let hay = &hay[..len];
            for x in [b'\n', 0xEF] {
                let naive = hay.iter().filter(|&&b| b == x).count() as u64;
                assert_eq!(count_byte(hay, x), naive, "{len} {x}");
            }
        }
        assert_eq!(count_byte(&[0xEF; 70_000], 0xEF), 70_000);
    }

    #[test]
    fn block_sizes_bound_the_index() {
        assert_eq!(block_size_for(0), MIN_BLOCK);
        assert_eq!(block_size_for(16 << 30), 64 * 1024);
        assert_eq!(block_size_for(64 << 30), 128 * 1024);
        // However large the input, at most MAX_BLOCKS blocks...
        for len in [1u64, 16 << 30, (16 << 30) + 1, 1 << 40, u64::MAX >> 8] {
            let blocks = len.div_ceil(block_size_for(len) as u64);
            assert!(blocks <= MAX_BLOCKS as u64, "{len}: {blocks}");
        }
        // ...of one summary and one running unit count each (one more count than blocks).
        assert_eq!(std::mem::size_of::<BlockSummary>(), 44);
        let most = MAX_BLOCKS * std::mem::size_of::<BlockSummary>() + (MAX_BLOCKS + 1) * 8;
        assert_eq!(most, (26 << 20) + 8);
    }

    #[test]
    fn cancelled_scans_return_nothing() {
        let input = sample();
        let progress = Progress::new();
        progress.cancel();
        assert!(Summary::build(Dialect::Utf8, &input, 2, &progress).is_none());
    }

    /// Lines and columns equal a naive count from the start, for near and far steps.
    #[test]
    fn lines_in_utf16_count_line_feed_code_units() {
        // U+010A is 0A 01 in UTF-16LE: a byte 0A that is no line feed.
        let text = "\u{10A}a\nbc\u{A0A}\nd";
        let mut bytes: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        bytes.extend_from_slice(b"\x00\xDC"); // a lone low surrogate: line 3, column 2
        let summary = Summary::build_parallel(Dialect::Utf16Le, &bytes);
        let error = summary.errors(&bytes).next().unwrap();
        assert_eq!(error.start, 16);
        assert_eq!(summary.lines(&bytes).at(error.start), (3, 2));
        assert_eq!(summary.lines(&bytes).at(6), (2, 1));
        assert_eq!(summary.replacement_count(), 0);
    }

    #[test]
    fn lines_and_columns_match_a_naive_count() {
        let mut bytes = Vec::new();
        for i in 0..40_000u32 {
            match i % 7 {
                0 => bytes.push(b'\n'),
                1 => bytes.extend_from_slice("é€".as_bytes()),
                2 if i % 5 == 0 => bytes.push(0xFF),
                3 if i % 3 == 0 => bytes.extend_from_slice(b"\xE2\x82"),
                _ => bytes.extend_from_slice(b"ab"),
            }
        }
        // A long last line with no line feed, longer than a block.
        bytes.extend(std::iter::repeat_n(b'x', 3 * MIN_BLOCK));
        bytes.push(0xFF);
        let summary = Summary::build_parallel(Dialect::Utf8, &bytes);
        let mut naive = Vec::new();
        let (mut line, mut column) = (1u64, 1u64);
        for unit in Dialect::Utf8.units(&bytes) {
            naive.push((unit.start, line, column));
            if bytes[unit.start] == b'\n' {
                line += 1;
                column = 1;
            } else {
                column += 1;
            }
        }
        for step in [1, 97, 5003, MIN_BLOCK + 11] {
            let mut lines = summary.lines(&bytes);
            let mut next = 0;
            for (start, line, column) in &naive {
                if *start >= next {
                    assert_eq!(
                        lines.at(*start),
                        (*line, *column),
                        "offset {start}, step {step}"
                    );
                    next = start + step;
                }
            }
        }
        let last = naive.last().unwrap();
        assert_eq!(summary.lines(&bytes).at(last.0), (last.1, last.2));
    }
}
