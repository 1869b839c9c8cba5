//! The lints of a whole input, counted block by block on the scan's workers, and listed
//! again only where the count found some.
//!
//! Each block of the scan's index owns a *segment*: from the first line start at or after
//! the block's start (a line start is offset 0 or just after an ASCII line feed, where
//! every piece of the walk's state is closed) to the first line start at or after its end.
//! The segments tile the input, and a [`Walk`] of a segment from a fresh state finds what a
//! walk from the start of the input finds there, so the blocks can be walked in any order
//! on any thread. Within a segment, only the lines the sieve hands on are walked (each
//! stretch of them from a fresh state, for the same reason). A block the scan saw as pure
//! ASCII is walked only from its last line feed (after one byte search for what a target
//! refuses in it). Dialects outside the UTF-8 family are walked whole, after the scan.
//!
//! What no segment can know, the confusable identifiers (two different words of the input
//! with one skeleton), is decided after the scan from the few words that mix scripts.

use std::collections::{HashMap, HashSet, VecDeque};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use unicode_security::skeleton;

use super::checks::{Candidate, Counts, Walk};
use super::sieve::lines_to_walk;
use super::{Kind, Level, Lint, Lints, Target};
use crate::decode::Dialect;
use crate::scan::index::{block_size_for, BlockSummary, Summary};
use crate::scan::pool;
use crate::view::safe::sanitize;

/// The most distinct words that mix scripts compared as confusable identifiers (over the
/// whole input): an input with more (random bytes, a binary, millions of distinct made-up
/// words that no text holds) has its confusable identifiers not compared, and says so
/// ([`Survey::identifiers_compared`]), so that memory does not grow with the input. Each
/// word that mixes scripts is still found on its own; a text that repeats a few such words
/// however often is compared.
pub const MAX_COMPARED_WORDS: usize = 1 << 16;

/// What one block's segment holds.
#[derive(Clone, Debug, Default)]
struct Segment {
    /// The stretches of lines walked that hold lints, for the listing to walk again.
    runs: Vec<Range<usize>>,
    /// Its lints, counted.
    counts: Counts,
    /// Its words that mix scripts.
    candidates: Vec<Candidate>,
    /// A walk of it met more words that mix scripts than it keeps.
    dropped: bool,
}

/// The lints of one input, counted: built block by block (on the scan's workers, through
/// [`Survey::look`], or after the scan by [`Survey::finish`]), then listed in offset order
/// by [`Survey::lints`], which walks again only the segments that hold some.
pub struct Survey {
    dialect: Dialect,
    lints: Lints,
    utf8: bool,
    block_size: usize,
    segments: Vec<OnceLock<Segment>>,
    /// The confusable identifiers, in offset order.
    identifiers: Vec<Lint>,
    /// The distinct words that mix scripts the segments met so far, up to
    /// [`MAX_COMPARED_WORDS`]; emptied once there are more ([`Survey::too_many_words`]).
    words: Mutex<HashSet<Box<str>>>,
    /// More distinct words that mix scripts than [`MAX_COMPARED_WORDS`] were met.
    too_many_words: AtomicBool,
    /// Whether the confusable identifiers were compared (not where there were too many
    /// words to compare).
    compared: bool,
    counts: Counts,
    finished: bool,
}

impl Survey {
    /// An empty survey of `lints` for an input of `len` bytes in `dialect`, with the
    /// scan's block size for that length.
    pub fn new(dialect: Dialect, len: usize, lints: &Lints) -> Survey {
        Survey::with_block_size(dialect, len, lints, block_size_for(len as u64))
    }

    /// [`Survey::new`] with blocks of `block_size` bytes (at least 1), for tests that cut an
    /// input in other places than the scan does: [`Survey::finish`] then walks every block
    /// itself.
    #[doc(hidden)]
    pub fn with_block_size(
        dialect: Dialect,
        len: usize,
        lints: &Lints,
        block_size: usize,
    ) -> Survey {
        let utf8 = Dialect::UTF8_FAMILY.contains(&dialect);
        let block_size = block_size.max(1);
        let count = if utf8 { len.div_ceil(block_size) } else { 1 };
        Survey {
            dialect,
            lints: lints.clone(),
            utf8,
            block_size,
            segments: (0..count).map(|_| OnceLock::new()).collect(),
            identifiers: Vec::new(),
            words: Mutex::new(HashSet::new()),
            too_many_words: AtomicBool::new(false),
            compared: true,
            counts: Counts::default(),
            finished: false,
        }
    }

    /// The scan's hook ([`crate::scan::index::BlockHook`]): walks the segment of the
    /// block at `range` of `bytes`, which the scan summarised as `block`.
    pub fn look(&self, bytes: &[u8], range: Range<usize>, block: &BlockSummary) {
        if !self.utf8 || self.lints.is_empty() {
            return;
        }
        self.walk_block(bytes, range, Some(block));
    }

    /// Walks the segment of the block at `range`, which the scan summarised as `block` (if
    /// known).
    fn walk_block(&self, bytes: &[u8], range: Range<usize>, block: Option<&BlockSummary>) {
        let well_formed = block.is_some_and(|b| b.errors == 0);
        let ascii = well_formed && block.is_some_and(|b| b.classes[1..].iter().all(|&n| n == 0));
        let b = range.start / self.block_size;
        let Some(slot) = self.segments.get(b) else {
            return;
        };
        slot.get_or_init(|| {
            let segment = segment_of(bytes, range.clone());
            let mut start = segment.start;
            if ascii && start < range.end && !self.refused_ascii(&bytes[start..range.end]) {
                // Nothing in the pure-ASCII part is a lint; only what follows its last
                // line feed can meet what comes after the block.
                if let Some(i) = memchr::memrchr(b'\n', &bytes[start..range.end]) {
                    start += i + 1;
                }
            }
            let mut found = Segment::default();
            // Every character above U+FFFF is looked at for MySQL; and in CESU-8, Modified
            // UTF-8 and legacy UTF-8, where the walk does not read a four-byte sequence as
            // UTF-8 does (an error, or not asked of the fast path), and it may stand next
            // to a joiner or a selector whose finding depends on it.
            let four_byte = self.lints.has(Target::MysqlUtf8mb3)
                || !matches!(self.dialect, Dialect::Utf8 | Dialect::Wtf8);
            // The segment's lines past the block's end are in the next block, whose errors
            // are not known here.
            let trusted = if well_formed { range.end } else { start };
            lines_to_walk(bytes, start..segment.end, four_byte, trusted, |run| {
                let mut walk = Walk::new(bytes, self.dialect, &self.lints, run.start, false);
                walk.walk_to(run.end);
                if walk.counts.total() > 0 {
                    found.counts.add(&walk.counts);
                    found.runs.push(run);
                }
                found.dropped |= walk.candidates_dropped;
                found.candidates.extend(walk.candidates);
            });
            // Each word once a segment; none kept once the input holds too many to compare.
            let mut seen = HashSet::new();
            found.candidates.retain(|c| seen.insert(c.word.clone()));
            if found.dropped {
                self.too_many_words.store(true, Ordering::Relaxed);
            }
            if found.dropped || !self.count_words(&found.candidates) {
                found.candidates = Vec::new();
            }
            found
        });
    }

    /// Walks the blocks no scan hook walked, on as many threads as there are cores (the
    /// scan's [`pool`]; a few blocks on the calling thread): blocks are handed out in turn,
    /// sixteen at a time.
    fn walk_the_rest(&self, bytes: &[u8], summary: &Summary) {
        const BLOCKS_AT_ONCE: usize = 16;
        let left: Vec<usize> = (0..self.segments.len())
            .filter(|&b| self.segments[b].get().is_none())
            .collect();
        let walk = |b: usize| {
            let start = b * self.block_size;
            let range = start..(start + self.block_size).min(bytes.len());
            let block = summary
                .blocks
                .get(b)
                .filter(|_| summary.block_size == self.block_size);
            self.walk_block(bytes, range, block);
        };
        let tasks: Vec<&[usize]> = left.chunks(BLOCKS_AT_ONCE).collect();
        pool::for_each(tasks.len(), pool::cores(), |t| {
            tasks[t].iter().copied().for_each(walk);
        });
    }

    /// Whether pure-ASCII `block` holds a byte a target refuses (a C0 control for XML,
    /// NUL for PostgreSQL); the security lints refuse no ASCII byte.
    fn refused_ascii(&self, block: &[u8]) -> bool {
        if self.lints.has(Target::Xml10) || self.lints.has(Target::Xml11) {
            let bad = |b: u8| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b == 0x7F;
            return block.iter().fold(false, |any, &b| any | bad(b));
        }
        self.lints.has(Target::Postgres) && memchr::memchr(0, block).is_some()
    }

    /// Walks the blocks the scan did not hand over (all of them in a dialect outside the
    /// UTF-8 family, or when no scan hook was given), then decides the confusable
    /// identifiers and the totals. `summary` is the scan of `bytes`.
    pub fn finish(&mut self, bytes: &[u8], summary: &Summary) {
        if self.finished {
            return;
        }
        if self.lints.is_empty() {
            self.finished = true;
            return;
        }
        if self.utf8 {
            self.walk_the_rest(bytes, summary);
        } else {
            self.segments[0].get_or_init(|| {
                let mut walk = Walk::new(bytes, self.dialect, &self.lints, 0, false);
                walk.walk_to(bytes.len());
                Segment {
                    runs: std::iter::once(0..bytes.len()).collect(),
                    counts: walk.counts,
                    candidates: Vec::new(),
                    dropped: false,
                }
            });
        }
        let mut counts = Counts::default();
        let mut candidates: Vec<&Candidate> = Vec::new();
        for segment in self.segments.iter().filter_map(OnceLock::get) {
            counts.add(&segment.counts);
            candidates.extend(&segment.candidates);
        }
        // Whether some were dropped depends only on how many the segments held, whatever
        // order the workers took them in: then none are compared.
        self.compared = !*self.too_many_words.get_mut();
        if !self.compared {
            candidates.clear();
        }
        if self.lints.security {
            self.identifiers = identifiers(bytes, &candidates);
        }
        for l in &self.identifiers {
            counts.count(l.kind, l.level);
        }
        self.counts = counts;
        self.finished = true;
    }

    /// Counts the distinct words of `candidates` among the input's; false once the input
    /// holds more than [`MAX_COMPARED_WORDS`] (then none are compared, whichever segment
    /// found them: the outcome does not depend on the order the workers went in).
    fn count_words(&self, candidates: &[Candidate]) -> bool {
        if self.too_many_words.load(Ordering::Relaxed) {
            return false;
        }
        let mut words = self.words.lock().unwrap_or_else(|e| e.into_inner());
        for c in candidates {
            if !words.contains(c.word.as_str()) {
                words.insert(c.word.as_str().into());
            }
            if words.len() > MAX_COMPARED_WORDS {
                words.clear();
                words.shrink_to_fit();
                self.too_many_words.store(true, Ordering::Relaxed);
                return false;
            }
        }
        true
    }

    /// Whether the confusable identifiers were compared: not where the input holds more
    /// than [`MAX_COMPARED_WORDS`] words that mix scripts.
    pub fn identifiers_compared(&self) -> bool {
        self.compared
    }

    /// The lints found, by kind (in [`Kind::ALL`] order).
    pub fn by_kind(&self) -> [u64; Kind::ALL.len()] {
        self.counts.by_kind
    }

    /// The lints found of level error or warning.
    pub fn failing(&self) -> u64 {
        self.counts.failing
    }

    /// Every lint found.
    pub fn total(&self) -> u64 {
        self.counts.total()
    }

    /// The lints of `bytes` (the input surveyed, after [`Survey::finish`]), in offset
    /// order (at one offset, in the order the walk found them, a confusable identifier
    /// last).
    pub fn lints<'a>(&'a self, bytes: &'a [u8]) -> Linter<'a> {
        Linter::of(bytes, Held::Borrowed(self))
    }
}

/// Every lint of `lints` in `bytes` by one walk from the start to the end that gives every
/// character the full look (no table, no segments, no block passed over), in offset order:
/// the oracle the survey is tested against.
#[doc(hidden)]
pub fn reference(bytes: &[u8], dialect: Dialect, lints: &Lints) -> Vec<Lint> {
    if lints.is_empty() {
        return Vec::new();
    }
    let mut walk = Walk::new(bytes, dialect, lints, 0, true);
    walk.full_look_only();
    walk.walk_to(bytes.len());
    let mut out = walk.out;
    if lints.security {
        let candidates: Vec<&Candidate> = walk.candidates.iter().collect();
        out.extend(identifiers(bytes, &candidates));
    }
    out.sort_by_key(|l| l.offset);
    out
}

/// The segment of the block at `range`: from the first line start at or after its start to
/// the first at or after its end (empty when no line starts in the block).
fn segment_of(bytes: &[u8], range: Range<usize>) -> Range<usize> {
    // The first line start in from..=upto.
    let line_start = |from: usize, upto: usize| -> Option<usize> {
        if from == 0 {
            return Some(0);
        }
        memchr::memchr(b'\n', &bytes[from - 1..upto]).map(|i| from + i)
    };
    // Where no line starts in the block, the end is not looked for: in a file of one long
    // line, every block would read on to its end.
    let Some(start) = line_start(range.start, range.end - 1) else {
        return range.end..range.end;
    };
    let end = line_start(range.end, bytes.len()).unwrap_or(bytes.len());
    start..end
}

/// The confusable identifiers among `candidates` (the words that mix scripts, in offset
/// order) and the ASCII words of `bytes`: for each UTS #39 skeleton shared by two or more
/// different words, a lint at the first occurrence of each word but the earliest, naming
/// the earliest. An ASCII word is looked for only when a candidate's skeleton is all
/// ASCII, in one pass over the input's ASCII words; so memory grows with the words that mix
/// scripts, not with the input.
fn identifiers(bytes: &[u8], candidates: &[&Candidate]) -> Vec<Lint> {
    if candidates.is_empty() {
        return Vec::new();
    }
    // Per skeleton, each different word with its first offset.
    // Each word with its first offset and its length there.
    let mut classes: HashMap<&str, Vec<(usize, &str, usize)>> = HashMap::new();
    for c in candidates {
        let words = classes.entry(c.skeleton.as_str()).or_default();
        if !words.iter().any(|(_, w, _)| *w == c.word) {
            words.push((c.offset, c.word.as_str(), c.len));
        }
    }
    let wanted: HashMap<&str, ()> = classes
        .keys()
        .filter(|s| s.is_ascii())
        .map(|s| (*s, ()))
        .collect();
    let ascii_words = match wanted.is_empty() {
        true => HashMap::new(),
        false => ascii_words(bytes, &wanted, PIECE),
    };
    for (word, (offset, reads)) in &ascii_words {
        if let Some((key, _)) = classes.get_key_value(reads.as_str()) {
            let key: &str = key;
            classes.get_mut(key).expect("the key was just found").push((
                *offset,
                word.as_str(),
                word.len(),
            ));
        }
    }
    let mut found = Vec::new();
    for (reads, mut words) in classes {
        if words.len() < 2 {
            continue;
        }
        words.sort();
        let (first_at, first, _) = words[0];
        for &(offset, word, len) in &words[1..] {
            let message = format!(
                "\"{}\" reads as \"{}\" at offset {first_at}: two different identifiers with \
                 one UTS #39 skeleton (\"{}\")",
                sanitize(word),
                sanitize(first),
                sanitize(reads)
            );
            found.push(Lint {
                kind: Kind::Confusable,
                offset,
                len,
                level: Level::Warning,
                message,
            });
        }
    }
    found.sort_by_key(|l| l.offset);
    found
}

/// Bytes of the input one thread reads for [`ascii_words`] (up to the next line feed).
const PIECE: usize = 1 << 20;

/// The first occurrence of each ASCII word of `bytes` whose skeleton is `wanted`, with
/// that skeleton. The input is cut at line feeds (no word spans one) into pieces of about
/// `piece` bytes, read on every core; the first piece that holds a word gives its offset.
fn ascii_words(
    bytes: &[u8],
    wanted: &HashMap<&str, ()>,
    piece: usize,
) -> HashMap<String, (usize, String)> {
    let skeletons = AsciiSkeletons::get();
    // The lengths and first bytes of the skeletons wanted: a word whose skeleton has
    // neither is passed over before its skeleton is written out.
    let (mut lengths, mut firsts) = ([false; 256], [false; 128]);
    for s in wanted.keys() {
        lengths[s.len().min(255)] = true;
        if let Some(&b) = s.as_bytes().first() {
            firsts[b as usize & 0x7F] = true;
        }
    }
    let longest = wanted.keys().map(|s| s.len()).max().unwrap_or(0);
    let mut pieces = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        let aim = start.saturating_add(piece.max(1)).min(bytes.len());
        let end = memchr::memchr(b'\n', &bytes[aim..]).map_or(bytes.len(), |i| aim + i + 1);
        pieces.push(start..end);
        start = end;
    }
    let found = pool::map(pieces.len(), pool::cores(), |p| {
        let base = pieces[p].start;
        let mut found: HashMap<String, (usize, String)> = HashMap::new();
        let mut reads = String::new();
        for_each_ascii_word(&bytes[pieces[p].clone()], |offset, word| {
            // A character's skeleton is at least one character long.
            let first = skeletons.first[word[0] as usize & 0x7F];
            if word.len() > longest || !firsts[first as usize] {
                return;
            }
            let len: usize = word
                .iter()
                .map(|&b| skeletons.of[b as usize & 0x7F].len())
                .sum();
            if !lengths[len.min(255)] {
                return;
            }
            reads.clear();
            for &b in word {
                reads.push_str(&skeletons.of[b as usize & 0x7F]);
            }
            let Ok(word) = std::str::from_utf8(word) else {
                return;
            };
            if wanted.contains_key(reads.as_str()) && !found.contains_key(word) {
                found.insert(word.to_string(), (base + offset, reads.clone()));
            }
        });
        found
    });
    let mut words = HashMap::new();
    for (word, first) in found.into_iter().flatten() {
        words.entry(word).or_insert(first);
    }
    words
}

/// The UTS #39 skeleton of each ASCII character, and its first byte: the skeleton of a
/// word of ASCII letters, digits and `_` is theirs one after another (the test
/// `ascii_skeletons_are_each_characters_in_turn` holds every such character, and words of
/// them, to `unicode_security::skeleton`), so the input's ASCII words are read without
/// asking the crate of each.
struct AsciiSkeletons {
    of: Vec<String>,
    first: [u8; 128],
}

impl AsciiSkeletons {
    fn get() -> &'static AsciiSkeletons {
        static SKELETONS: OnceLock<AsciiSkeletons> = OnceLock::new();
        SKELETONS.get_or_init(|| {
            let of: Vec<String> = (0..128u8)
                .map(|b| skeleton(&char::from(b).to_string()).collect())
                .collect();
            let mut first = [0; 128];
            for (f, s) in first.iter_mut().zip(&of) {
                // A skeleton that does not begin with ASCII begins no skeleton wanted.
                *f = s.bytes().next().filter(u8::is_ascii).unwrap_or(0);
            }
            AsciiSkeletons { of, first }
        })
    }
}

/// Calls `f` with each ASCII word of `bytes` (a run of ASCII letters, digits and `_`) that
/// stands alone, and its offset: neither neighbour is a byte of a non-ASCII character, so
/// no walk's word holds more. Sixty-four bytes at a time: a block's word bytes are one
/// mask ([`word_bytes`]), and the words' starts and ends are its edges.
fn for_each_ascii_word<'a>(bytes: &'a [u8], mut f: impl FnMut(usize, &'a [u8])) {
    let mut word = |start: usize, end: usize| {
        let before = start.checked_sub(1).map(|i| bytes[i]);
        let after = bytes.get(end).copied();
        if before.is_none_or(|b| b < 0x80) && after.is_none_or(|b| b < 0x80) {
            f(start, &bytes[start..end]);
        }
    };
    // The start of the word the last block ended in.
    let mut open: Option<usize> = None;
    for (k, block) in bytes.chunks(64).enumerate() {
        let mask = word_bytes(block);
        let mut from = 0;
        loop {
            // The next start (outside a word) or end (inside one) from bit `from`.
            let edges = match open {
                Some(_) => !mask,
                None => mask,
            } & (u64::MAX << from);
            if edges == 0 {
                break;
            }
            from = edges.trailing_zeros();
            let at = 64 * k + from as usize;
            match open.take() {
                Some(start) => word(start, at),
                None => open = Some(at),
            }
        }
    }
    if let Some(start) = open {
        word(start, bytes.len());
    }
}

/// The bytes of `block` (at most 64) that are ASCII letters, digits or `_`
/// ([`super::is_word_byte`]), one bit a byte: in SSE2 on x86-64 (a fold a byte at a time
/// took twice as long there).
fn word_bytes(block: &[u8]) -> u64 {
    let mut padded = [0u8; 64];
    let bytes: &[u8; 64] = match block.try_into() {
        Ok(whole) => whole,
        Err(_) => {
            padded[..block.len()].copy_from_slice(block);
            &padded
        }
    };
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        let mut mask = 0;
        for q in 0..4 {
            // SAFETY: the load reads bytes 16q..16q + 16 of `bytes`; SSE2 is part of x86_64.
            unsafe {
                let v = _mm_loadu_si128(bytes.as_ptr().add(16 * q).cast());
                let within = |lo: u8, hi: u8| {
                    let past = _mm_subs_epu8(
                        _mm_sub_epi8(v, _mm_set1_epi8(lo as i8)),
                        _mm_set1_epi8((hi - lo) as i8),
                    );
                    _mm_cmpeq_epi8(past, _mm_setzero_si128())
                };
                let word = _mm_or_si128(
                    _mm_or_si128(within(b'a', b'z'), within(b'A', b'Z')),
                    _mm_or_si128(
                        within(b'0', b'9'),
                        _mm_cmpeq_epi8(v, _mm_set1_epi8(b'_' as i8)),
                    ),
                );
                mask |= (_mm_movemask_epi8(word) as u32 as u64) << (16 * q);
            }
        }
        mask
    }
    #[cfg(not(target_arch = "x86_64"))]
    bytes
        .iter()
        .enumerate()
        .fold(0, |m, (i, &b)| m | (super::is_word_byte(b) as u64) << i)
}

/// A survey owned or borrowed.
enum Held<'a> {
    Owned(Box<Survey>),
    Borrowed(&'a Survey),
}

impl std::ops::Deref for Held<'_> {
    type Target = Survey;

    fn deref(&self) -> &Survey {
        match self {
            Held::Owned(s) => s,
            Held::Borrowed(s) => s,
        }
    }
}

/// How many bytes a listing walks before it hands on the lints that nothing still open can
/// come before: a line of any length with lints all along (a NUL-padded image under
/// `--target postgres`, a minified JSON of emoji under `mysql-utf8mb3`) is listed in
/// memory that does not grow with it.
const LISTED_PIECE: usize = 1 << 16;

/// The iterator of lints (see [`crate::lint::lint`] and [`Survey::lints`]).
pub struct Linter<'a> {
    bytes: &'a [u8],
    survey: Held<'a>,
    next_segment: usize,
    /// The runs of the segment being listed that are not walked yet.
    runs: VecDeque<Range<usize>>,
    /// The run being walked, and its end.
    walking: Option<(Walk<'a>, usize)>,
    /// How many bytes are walked between two hand-overs ([`LISTED_PIECE`]).
    piece: usize,
    ready: VecDeque<Lint>,
    identifier: usize,
}

impl<'a> Linter<'a> {
    /// Every lint of `lints` in `bytes`, surveyed now (on every core).
    pub(super) fn new(
        bytes: &'a [u8],
        dialect: Dialect,
        summary: &Summary,
        lints: &Lints,
    ) -> Linter<'a> {
        let mut survey = Survey::new(dialect, bytes.len(), lints);
        survey.finish(bytes, summary);
        Linter::of(bytes, Held::Owned(Box::new(survey)))
    }

    fn of(bytes: &'a [u8], survey: Held<'a>) -> Linter<'a> {
        Linter {
            bytes,
            survey,
            next_segment: 0,
            runs: VecDeque::new(),
            walking: None,
            piece: LISTED_PIECE,
            ready: VecDeque::new(),
            identifier: 0,
        }
    }

    /// The same lints, handed on every `piece` bytes walked (the tests' way to cut long
    /// lines into many pieces).
    #[doc(hidden)]
    pub fn in_pieces(mut self, piece: usize) -> Linter<'a> {
        self.piece = piece.max(1);
        self
    }

    /// Walks the runs of the segments that hold lints, a piece at a time, until some are
    /// ready: after each piece, the lints before the start of what is still open (a word,
    /// a run of marks, a joiner, a tag run, the line's bidi controls), which no lint found
    /// later can come before; at a run's end, the rest.
    fn fill(&mut self) {
        while self.ready.is_empty() {
            if let Some((walk, end)) = &mut self.walking {
                let end = *end;
                walk.walk_on(walk.pos().saturating_add(self.piece).min(end));
                walk.out.sort_by_key(|l| l.offset);
                if walk.pos() >= end {
                    walk.finish();
                    walk.out.sort_by_key(|l| l.offset);
                    self.ready.extend(std::mem::take(&mut walk.out));
                    self.walking = None;
                } else {
                    // A bidi control still open on its line holds every lint after it
                    // until the line ends: past a piece's worth, it is judged now.
                    if walk.out.len() > self.piece && walk.bidi_pending() {
                        walk.resolve_bidi_ahead();
                        walk.out.sort_by_key(|l| l.offset);
                    }
                    let settled = walk.settled();
                    let k = walk.out.partition_point(|l| l.offset < settled);
                    self.ready.extend(walk.out.drain(..k));
                }
                continue;
            }
            let survey = &*self.survey;
            if let Some(run) = self.runs.pop_front() {
                let walk = Walk::new(self.bytes, survey.dialect, &survey.lints, run.start, true);
                self.walking = Some((walk, run.end));
                continue;
            }
            if self.next_segment >= survey.segments.len() {
                return;
            }
            let at = self.next_segment;
            self.next_segment += 1;
            if let Some(segment) = survey.segments[at].get() {
                self.runs.extend(segment.runs.iter().cloned());
            }
        }
    }
}

impl Iterator for Linter<'_> {
    type Item = Lint;

    fn next(&mut self) -> Option<Lint> {
        self.fill();
        let identifier = self.survey.identifiers.get(self.identifier);
        match (self.ready.front(), identifier) {
            (Some(l), Some(i)) if i.offset < l.offset => {
                self.identifier += 1;
                Some(i.clone())
            }
            (Some(_), _) => self.ready.pop_front(),
            (None, Some(i)) => {
                self.identifier += 1;
                Some(i.clone())
            }
            (None, None) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A block's segment runs from the first line start in it to the first after it; a
    /// block where no line starts has an empty one at its end, found without reading on
    /// (in a file of one long line, every block read on to the end of the file).
    #[test]
    fn a_segment_is_the_lines_that_start_in_its_block() {
        let bytes = b"ab\ncdefghij\nk";
        assert_eq!(segment_of(bytes, 0..4), 0..12);
        assert_eq!(segment_of(bytes, 4..8), 8..8);
        assert_eq!(segment_of(bytes, 8..12), 12..12);
        assert_eq!(segment_of(bytes, 12..13), 12..13);
        assert_eq!(segment_of(bytes, 3..5), 3..12);
        let one_line = [b'x'; 100];
        assert_eq!(segment_of(&one_line, 0..10), 0..100);
        assert_eq!(segment_of(&one_line, 10..20), 20..20);
    }

    /// The ASCII words that stand alone, a byte at a time.
    fn ascii_words_one_byte_at_a_time(bytes: &[u8]) -> Vec<(usize, &[u8])> {
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if !word(bytes[i]) {
                i += 1;
                continue;
            }
            let start = i;
            while i < bytes.len() && word(bytes[i]) {
                i += 1;
            }
            let before = start.checked_sub(1).map(|k| bytes[k]);
            if before.is_none_or(|b| b < 0x80) && bytes.get(i).is_none_or(|&b| b < 0x80) {
                out.push((start, &bytes[start..i]));
            }
        }
        out
    }

    #[test]
    fn ascii_words_in_blocks_are_those_read_a_byte_at_a_time() {
        let pieces: [&[u8]; 9] = [
            b"a",
            b"Z9",
            b"_",
            b" ",
            b"-",
            b"\n",
            "\u{434}".as_bytes(),
            b"\xFF",
            b"word",
        ];
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for len in 0..400 {
            let mut bytes = Vec::new();
            for _ in 0..len {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                bytes.extend_from_slice(pieces[(x % 9) as usize]);
            }
            let mut got = Vec::new();
            for_each_ascii_word(&bytes, |at, word| got.push((at, word)));
            assert_eq!(got, ascii_words_one_byte_at_a_time(&bytes), "{bytes:?}");
        }
        // A word of 64 bytes exactly, and one across two blocks.
        let text = format!("{} {}-{}", "w".repeat(64), "x".repeat(63), "y".repeat(70));
        let mut got = Vec::new();
        for_each_ascii_word(text.as_bytes(), |at, word| got.push((at, word.len())));
        assert_eq!(got, vec![(0, 64), (65, 63), (129, 70)]);
    }

    #[test]
    fn ascii_words_of_pieces_are_those_of_one_pass() {
        let wanted: HashMap<&str, ()> = [("paypal", ()), ("rnodern", ())].into();
        let text = "x paypal\npaypa1 modern\u{434}\npaypal mоdern modern paypa1\n";
        let got = ascii_words(text.as_bytes(), &wanted, 1);
        let want: HashMap<String, (usize, String)> = [
            ("paypal".to_string(), (2, "paypal".to_string())),
            ("paypa1".to_string(), (9, "paypal".to_string())),
            ("modern".to_string(), (40, "rnodern".to_string())),
        ]
        .into();
        assert_eq!(got, want);
        // Random lines: pieces of every size find what one piece finds.
        let words = [
            "paypal", "paypa1", "modern", "rnodern", "pay", "\u{434}", " ", "\n",
        ];
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for len in [0, 1, 10, 200, 2000] {
            let mut text = String::new();
            for _ in 0..len {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                text.push_str(words[(x % 8) as usize]);
            }
            let whole = ascii_words(text.as_bytes(), &wanted, usize::MAX);
            for piece in [1, 5, 17, 64, 1000] {
                assert_eq!(
                    ascii_words(text.as_bytes(), &wanted, piece),
                    whole,
                    "{piece}"
                );
            }
        }
    }

    #[test]
    fn ascii_skeletons_are_each_characters_in_turn() {
        let skeletons = AsciiSkeletons::get();
        let chars: Vec<u8> = (0..128u8)
            .filter(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .collect();
        for &b in &chars {
            let want: String = skeleton(&char::from(b).to_string()).collect();
            assert!(!want.is_empty(), "{:?}", char::from(b));
            assert_eq!(skeletons.of[b as usize], want, "{:?}", char::from(b));
            let first = want.bytes().next().filter(u8::is_ascii).unwrap_or(0);
            assert_eq!(skeletons.first[b as usize], first, "{:?}", char::from(b));
        }
        // Every pair, and words of up to twelve drawn with a fixed generator.
        let mut words: Vec<Vec<u8>> = chars
            .iter()
            .flat_map(|&a| chars.iter().map(move |&b| vec![a, b]))
            .collect();
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            let mut word = Vec::new();
            for _ in 0..1 + x % 12 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                word.push(chars[(x % chars.len() as u64) as usize]);
            }
            words.push(word);
        }
        for word in words {
            let word = std::str::from_utf8(&word).unwrap();
            let want: String = skeleton(word).collect();
            let got: String = word
                .bytes()
                .map(|b| skeletons.of[b as usize].as_str())
                .collect();
            assert_eq!(got, want, "{word:?}");
        }
    }
}
