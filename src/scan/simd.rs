//! The UTF-8 kernel of the scan: one pass over 64-byte chunks that validates, counts lead
//! bytes by class, and says *where* the errors are, as one bit per byte.
//!
//! # The method
//!
//! Validation follows the lookup method of John Keiser and Daniel Lemire, "Validating UTF-8
//! In Less Than One Instruction Per Byte", Software: Practice and Experience 51(5), 2021.
//! Every byte is judged from itself and the three bytes before it:
//!
//! - three 16-entry tables, indexed by the high and the low nibble of the byte before and by
//!   the high nibble of the byte itself, are ANDed; each bit of the result is one *error
//!   class*, a condition of the form "high nibble before in A, low nibble before in B, high
//!   nibble here in C". The tables are derived below in `const fn` from the named classes
//!   (`PAIR_CLASSES`), so they are right by construction, and a test holds every one of the
//!   65 536 pairs to Unicode's Table 3-7 ([`crate::decode::Dialect::role`]);
//! - one class, `TWO_CONTS` (a continuation byte after a continuation byte), is an error
//!   exactly when the byte is *not* the 3rd or 4th byte of a sequence, that is when neither
//!   the byte two before is `E0..FF` nor the byte three before is `F0..FF`: that bit is
//!   flipped where they are;
//! - the input is read as if followed by `00` bytes, so a sequence cut by the end of the input
//!   is flagged on the first padding byte (the scan checks the end of a range the same way).
//!
//! Counting rides on the same loaded vectors: in well-formed UTF-8 the scalars of class k are
//! the lead bytes of class k, so the kernel counts, per chunk, bytes `80..FF` (ASCII by
//! difference), `C0..FF`, `E0..FF` and `F0..FF`, by two lookups of weights on the high
//! nibble the validation needs anyway, two 4-bit counters to a byte lane, widened every few
//! chunks. A chunk of ASCII after a settled context (below) skips validation, and so do the
//! ASCII chunks after it. A call goes on past chunks with errors and lists them, up to a
//! limit the caller sets.
//!
//! # Where an error bit lies
//!
//! A unit boundary `y` is *settled* when no byte in the three before it expects
//! continuation bytes at or after `y` (`b[y-1] < C0`, `b[y-2] < E0`, `b[y-3] < F0`; see
//! [`settled`]). From a settled boundary, the first error unit that starts at `s` is flagged
//! at a byte in `s..=s+3`: at `s` for a continuation byte; at `s+1` for `C0`, `C1`, `F5..FF`,
//! a lead followed by a byte that is not a continuation or by a continuation outside its
//! second-byte range (`overlong`, `surrogate`, `out_of_range`); at `s+2` or `s+3` for a
//! 3- or 4-byte sequence cut after 2 or 3 bytes (`truncated`, or `truncated_eof` on the
//! padding). So if the first bit after `y` is at `e`, every unit that starts before `e - 3`
//! is a scalar; the scan ([`super`]) decodes precisely only from there.
//!
//! Two facts make this usable in the middle of a run of chunks. The bits from a settled
//! boundary on are the same whatever the bytes before it (only the class that flags a
//! continuation byte right after it can differ), so they are those of a fresh start there.
//! And a boundary reached from a settled one through scalars is settled: a scalar's lead
//! expects no byte past the scalar. The tests check the claim itself, from every settled
//! boundary, against decoding.
//!
//! # Why hexrune has its own kernel
//!
//! hexrune prefers crates to hand-written code, and its only other `unsafe` is in
//! `source.rs`. But a validator answers one question, "valid or not, and up to where": the
//! simdutf8 crate neither counts nor locates errors cheaply (its error path re-validates the
//! failing chunk with `core::str::from_utf8`), so the scan read every block twice and, on
//! corrupted text, restarted validation after every error. Counting and locating on the
//! vectors the validation already holds is hexrune's own idea; this module is written from
//! the paper, not from any implementation.
//!
//! All the `unsafe` of the scan is here: AVX2 and AVX-512 intrinsics, called only by the
//! safe wrapper [`check_chunks`], after it has checked the CPU's features at run time and the
//! bounds of what the kernel reads; and the SSE2 compares of the UTF-16 scan's
//! `surrogate_masks` (SSE2 is part of x86-64 itself). [`Level::Scalar`] runs the same method one byte at a
//! time, as the reference the vector kernels are tested against; [`Level::Validator`] is
//! the scan without a kernel (simdutf8, then a separate count), for other CPUs.

use std::sync::atomic::{AtomicU8, Ordering};

/// Bytes per chunk: one bit of an error mask per byte.
pub const CHUNK: usize = 64;

/// Lead bytes counted by class: index 1 to 4 as [`super::count_classes`] sorts them (0
/// unused). Counts are kept with wrapping arithmetic, as the scan also subtracts.
pub type Leads = [u64; 5];

/// An implementation of the scan's UTF-8 path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// No kernel: simdutf8 validates, then lead bytes are counted in a second pass.
    Validator,
    /// The kernel's method one byte at a time: the reference for the vector kernels.
    Scalar,
    /// The kernel on 32-byte AVX2 vectors.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// The kernel on 64-byte AVX-512 vectors (AVX-512BW), error masks in mask
    /// registers.
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

static BEST: AtomicU8 = AtomicU8::new(u8::MAX);

impl Level {
    const ALL: &[Level] = &[
        Level::Validator,
        Level::Scalar,
        #[cfg(target_arch = "x86_64")]
        Level::Avx2,
        #[cfg(target_arch = "x86_64")]
        Level::Avx512,
    ];

    /// The fastest implementation this CPU runs, checked once.
    pub fn best() -> Level {
        let cached = BEST.load(Ordering::Relaxed);
        if let Some(level) = Level::ALL.get(cached as usize) {
            return *level;
        }
        // A diagnostic knob for benchmarks: `HEXRUNE_SCAN_KERNEL` may name a slower level.
        // A name this CPU does not run (or a typo) is ignored, rather than quietly
        // falling back to the slowest path.
        let wanted = std::env::var("HEXRUNE_SCAN_KERNEL").ok();
        let fastest = Level::available().last().unwrap_or(Level::Validator);
        let best = Level::available()
            .find(|l| wanted.as_deref() == Some(l.name()))
            .unwrap_or(fastest);
        let index = Level::ALL.iter().position(|l| *l == best).unwrap_or(0);
        BEST.store(index as u8, Ordering::Relaxed);
        best
    }

    /// Every implementation this CPU runs, slowest first.
    pub fn available() -> impl Iterator<Item = Level> {
        Level::ALL.iter().copied().filter(|l| l.is_supported())
    }

    /// The name `HEXRUNE_SCAN_KERNEL` knows the level by.
    pub fn name(self) -> &'static str {
        match self {
            Level::Validator => "validator",
            Level::Scalar => "scalar",
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => "avx2",
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => "avx512",
        }
    }

    fn is_supported(self) -> bool {
        match self {
            Level::Validator | Level::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => {
                std::is_x86_feature_detected!("avx2")
            }
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => {
                std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw")
            }
        }
    }
}

/// Error classes of a pair (byte before, byte here), one bit each.
const TOO_SHORT: u8 = 1 << 0;
const TOO_LONG: u8 = 1 << 1;
const OVERLONG_2: u8 = 1 << 2;
const OVERLONG_3: u8 = 1 << 3;
const SURROGATE: u8 = 1 << 4;
/// `F0 80..8F` (overlong) and `F5..FF 80..8F` (too large) share a bit: with any other low
/// nibble of `F_` the pair is valid only for `F1..F4`, which neither admits.
const OVERLONG_4_OR_ABOVE: u8 = 1 << 5;
const TOO_LARGE: u8 = 1 << 6;
/// A continuation byte after a continuation byte: an error unless the sequence needs it.
const TWO_CONTS: u8 = 1 << 7;

/// A set of nibbles, bit `n` for nibble `n`.
type Nibbles = u16;

const fn nibbles(lo: u8, hi: u8) -> Nibbles {
    let mut set = 0;
    let mut n = lo;
    while n <= hi {
        set |= 1 << n;
        n += 1;
    }
    set
}

const ANY: Nibbles = nibbles(0x0, 0xF);
const ASCII: Nibbles = nibbles(0x0, 0x7);
const CONT: Nibbles = nibbles(0x8, 0xB);
const LEAD: Nibbles = nibbles(0xC, 0xF);

/// Each class: its bit, and the high nibbles before, low nibbles before and high nibbles
/// here for which the pair is in it.
const PAIR_CLASSES: [(u8, Nibbles, Nibbles, Nibbles); 8] = [
    // A lead (or C0, C1, F5..FF) followed by a byte that is not a continuation.
    (TOO_SHORT, LEAD, ANY, ASCII | LEAD),
    // A continuation byte after ASCII.
    (TOO_LONG, ASCII, ANY, CONT),
    // C0, C1 and a continuation: an overlong 2-byte form.
    (OVERLONG_2, nibbles(0xC, 0xC), nibbles(0x0, 0x1), CONT),
    // E0 80..9F.
    (
        OVERLONG_3,
        nibbles(0xE, 0xE),
        nibbles(0x0, 0x0),
        nibbles(0x8, 0x9),
    ),
    // ED A0..BF.
    (
        SURROGATE,
        nibbles(0xE, 0xE),
        nibbles(0xD, 0xD),
        nibbles(0xA, 0xB),
    ),
    // F0 80..8F, and F5..FF 80..8F.
    (
        OVERLONG_4_OR_ABOVE,
        nibbles(0xF, 0xF),
        nibbles(0x0, 0x0) | nibbles(0x5, 0xF),
        nibbles(0x8, 0x8),
    ),
    // F4..FF 90..BF: above U+10FFFF.
    (
        TOO_LARGE,
        nibbles(0xF, 0xF),
        nibbles(0x4, 0xF),
        nibbles(0x9, 0xB),
    ),
    (TWO_CONTS, CONT, ANY, CONT),
];

/// One of the three tables: entry `n` has the bit of every class whose `which` set (0: high
/// nibble before, 1: low nibble before, 2: high nibble here) holds `n`.
const fn table(which: usize) -> [u8; 16] {
    let mut out = [0u8; 16];
    let mut c = 0;
    while c < PAIR_CLASSES.len() {
        let (bit, before_high, before_low, here_high) = PAIR_CLASSES[c];
        let set = match which {
            0 => before_high,
            1 => before_low,
            _ => here_high,
        };
        let mut n = 0;
        while n < 16 {
            if set & (1 << n) != 0 {
                out[n] |= bit;
            }
            n += 1;
        }
        c += 1;
    }
    out
}

const BEFORE_HIGH: [u8; 16] = table(0);
const BEFORE_LOW: [u8; 16] = table(1);
const HERE_HIGH: [u8; 16] = table(2);

/// The error classes of a pair of bytes (before, here).
const fn pair_classes(before: u8, here: u8) -> u8 {
    BEFORE_HIGH[(before >> 4) as usize]
        & BEFORE_LOW[(before & 0xF) as usize]
        & HERE_HIGH[(here >> 4) as usize]
}

/// Whether a byte must be the 3rd or 4th of a sequence, from the bytes 2 and 3 before it.
const fn must_continue(before2: u8, before3: u8) -> bool {
    before2 >= 0xE0 || before3 >= 0xF0
}

/// Whether the byte at `at` (with `b1`, `b2`, `b3` the bytes 1, 2, 3 before it) is flagged.
const fn flagged(b3: u8, b2: u8, b1: u8, here: u8) -> bool {
    let flip = if must_continue(b2, b3) { TWO_CONTS } else { 0 };
    pair_classes(b1, here) ^ flip != 0
}

/// Whether `at` is a settled point of `bytes` read as followed by `00` bytes (and, before
/// `from`, as preceded by them): none of the three bytes before it is a lead that expects
/// continuation bytes at or after `at`. From a settled unit boundary the kernel's error bits
/// are the same as from the start of an input.
pub fn settled(bytes: &[u8], from: usize, at: usize) -> bool {
    let byte = |k: usize| match at.checked_sub(k) {
        Some(i) if i >= from => bytes.get(i).copied().unwrap_or(0),
        _ => 0,
    };
    byte(1) < 0xC0 && byte(2) < 0xE0 && byte(3) < 0xF0
}

/// Where errors show in one chunk: its index in a call of [`check_chunks`], and its error
/// mask (bit `i` for byte `i` of the chunk).
pub type Flagged = (usize, u64);

/// Validates and counts `chunks` chunks of `bytes` from `from`, reading the three bytes
/// before `from` as context. Writes each chunk with errors into `found`, in order, and stops
/// after the chunk that fills it. Returns how many chunks were done and how many were
/// written; adds the lead bytes of every chunk done to `leads`.
///
/// Requires `from >= 3`, `from + chunks * CHUNK <= bytes.len()` and a non-empty `found`;
/// with less, it does as many whole chunks as there are (none if `from < 3` or `found` is
/// empty). [`Level::Validator`] has no kernel and does the [`Level::Scalar`] method.
pub fn check_chunks(
    level: Level,
    bytes: &[u8],
    from: usize,
    chunks: usize,
    leads: &mut Leads,
    found: &mut [Flagged],
) -> (usize, usize) {
    if from < 3 || from > bytes.len() || found.is_empty() {
        return (0, 0);
    }
    let chunks = chunks.min((bytes.len() - from) / CHUNK);
    match level {
        Level::Validator | Level::Scalar => scalar_chunks(bytes, from, chunks, leads, found),
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 => {
            if !level.is_supported() {
                return scalar_chunks(bytes, from, chunks, leads, found);
            }
            // SAFETY: the CPU has AVX2 (checked just above; `is_x86_feature_detected!`
            // caches its answer). The kernel reads `bytes[from - 3 .. from + chunks * 64]`,
            // in bounds: `from >= 3` and `chunks` was clamped to the whole chunks left.
            unsafe { x86::avx2_chunks(bytes.as_ptr().add(from), chunks, leads, found) }
        }
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 => {
            if !level.is_supported() {
                return scalar_chunks(bytes, from, chunks, leads, found);
            }
            // SAFETY: the CPU has AVX-512F and AVX-512BW (checked just above). The kernel
            // reads `bytes[from - 3 .. from + chunks * 64]`, in bounds as for AVX2.
            unsafe { x86::avx512_chunks(bytes.as_ptr().add(from), chunks, leads, found) }
        }
    }
}

/// The lead class a count sorts a byte into (1 for ASCII, 2 for C0..DF, 3 for E0..EF, 4 for
/// F0..FF, 0 for a continuation byte).
const fn lead_class(b: u8) -> usize {
    (b < 0x80) as usize + 2 * (b >= 0xC0) as usize + (b >= 0xE0) as usize + (b >= 0xF0) as usize
}

fn scalar_chunks(
    bytes: &[u8],
    from: usize,
    chunks: usize,
    leads: &mut Leads,
    found: &mut [Flagged],
) -> (usize, usize) {
    let mut written = 0;
    for c in 0..chunks {
        let start = from + c * CHUNK;
        let mut mask = 0u64;
        for i in 0..CHUNK {
            let at = start + i;
            let here = bytes[at];
            let class = lead_class(here);
            if class > 0 {
                leads[class] = leads[class].wrapping_add(1);
            }
            let hit = flagged(bytes[at - 3], bytes[at - 2], bytes[at - 1], here);
            mask |= (hit as u64) << i;
        }
        if mask != 0 {
            found[written] = (c, mask);
            written += 1;
            if written == found.len() {
                return (c + 1, written);
            }
        }
    }
    (chunks, written)
}

/// Two masks of a 64-byte chunk, one bit a byte: where `byte & FC` is `D8` (the byte that
/// tells a UTF-16 high surrogate, or any other byte that looks the same) and where it is
/// `DC` (a low surrogate's). What the UTF-16 scan (`scan::wide`) reads a chunk by.
#[inline]
pub(super) fn surrogate_masks(chunk: &[u8; CHUNK]) -> (u64, u64) {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: SSE2 is part of the x86-64 baseline, so every CPU this code runs on has
        // these instructions; the four unaligned loads read bytes 0..64 of the 64-byte array.
        unsafe { x86::surrogate_masks(chunk) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let (mut highs, mut lows) = (0u64, 0u64);
        for (i, b) in chunk.iter().enumerate() {
            highs |= u64::from(b & 0xFC == 0xD8) << i;
            lows |= u64::from(b & 0xFC == 0xDC) << i;
        }
        (highs, lows)
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    /// [`super::surrogate_masks`] on SSE2: 16 bytes a compare, a movemask per 16 bits.
    ///
    /// # Safety
    ///
    /// The CPU must have SSE2 (every x86-64 CPU has).
    #[inline]
    #[target_feature(enable = "sse2")]
    pub(super) unsafe fn surrogate_masks(chunk: &[u8; super::CHUNK]) -> (u64, u64) {
        use core::arch::x86_64::*;
        let fc = _mm_set1_epi8(0xFCu8 as i8);
        let d8 = _mm_set1_epi8(0xD8u8 as i8);
        let dc = _mm_set1_epi8(0xDCu8 as i8);
        let (mut highs, mut lows) = (0u64, 0u64);
        for k in 0..4 {
            // SAFETY: bytes 16k..16k+16 lie inside the 64-byte array; loadu needs no
            // alignment.
            let v = unsafe { _mm_loadu_si128(chunk.as_ptr().add(16 * k).cast::<__m128i>()) };
            let v = _mm_and_si128(v, fc);
            let h = _mm_movemask_epi8(_mm_cmpeq_epi8(v, d8)) as u32 as u64 & 0xFFFF;
            let l = _mm_movemask_epi8(_mm_cmpeq_epi8(v, dc)) as u32 as u64 & 0xFFFF;
            highs |= h << (16 * k);
            lows |= l << (16 * k);
        }
        (highs, lows)
    }

    use super::{Flagged, Leads, BEFORE_HIGH, BEFORE_LOW, CHUNK, HERE_HIGH};
    use std::arch::x86_64::*;

    /// How far ahead of the chunk at hand the kernels ask for memory. A run stops at the end
    /// of its range (each 64 KiB block of the index), and the work between two runs lets the
    /// hardware prefetcher lose the stream; asking ahead keeps the next block's start on its
    /// way. The distance must cover the memory's latency at the kernel's speed: on 256 MiB
    /// of multilingual text, one thread, the AVX-512 index ran at 0.72-0.89x of simdutf8
    /// without prefetching, 0.62-0.93x at 2 KiB ahead and 1.11-1.17x at 8 KiB (same run,
    /// interleaved). A prefetch never faults, so it may point past the input.
    const PREFETCH: usize = 8192;

    /// Lead bytes are counted with two lookups on the high nibble of every byte, into byte
    /// lanes that each hold two 4-bit counters (the low one with weight 1, the high one with
    /// weight 16). This one counts bytes `>= 80` (for ASCII, by difference) and `>= C0`.
    const WEIGHTS_80_C0: [u8; 16] = weights(0x8, 0xC);
    /// The other counts bytes `>= E0` and `>= F0`.
    const WEIGHTS_E0_F0: [u8; 16] = weights(0xE, 0xF);

    /// Per high nibble: 1 from `low` on, plus 16 from `high` on.
    const fn weights(low: usize, high: usize) -> [u8; 16] {
        let mut w = [0u8; 16];
        let mut n = 0;
        while n < 16 {
            w[n] = (n >= low) as u8 + 16 * (n >= high) as u8;
            n += 1;
        }
        w
    }

    /// Chunks between two widenings of the AVX2 counters: each chunk adds at most 2 to each
    /// 4-bit counter of a lane (its two halves), and each holds 15.
    const AVX2_ROUNDS: usize = 7;
    /// Chunks between two widenings of the AVX-512 counters: each chunk adds at most 1.
    const AVX512_ROUNDS: usize = 15;

    /// The sums the counters are widened into, in u64 lanes: of the whole byte lanes and of
    /// their low counters, for each of the two lookups. The high counter's sum is the
    /// difference over 16, worked out once at the end ([`add_counts`]).
    type Widened<V> = [V; 4];

    /// Adds the lead bytes of `done` chunks to `leads`, from the widened sums.
    fn add_counts(leads: &mut Leads, done: usize, [all_a, low_a, all_b, low_b]: [u64; 4]) {
        let (high, c0) = (low_a, (all_a - low_a) / 16);
        let (e0, f0) = (low_b, (all_b - low_b) / 16);
        let ascii = (done * CHUNK) as u64 - high;
        for (lead, n) in leads[1..].iter_mut().zip([ascii, c0 - e0, e0 - f0, f0]) {
            *lead = lead.wrapping_add(n);
        }
    }

    /// Whether the three bytes before `p` expect no continuation byte (see
    /// [`super::settled`]).
    ///
    /// # Safety
    /// `p - 3 .. p` must be readable.
    #[inline(always)]
    unsafe fn settled_before(p: *const u8) -> bool {
        // SAFETY: the caller's contract.
        unsafe { *p.sub(1) < 0xC0 && *p.sub(2) < 0xE0 && *p.sub(3) < 0xF0 }
    }

    /// The index of the chunk that ends at `end`, `p` being the first chunk's start.
    #[inline(always)]
    fn index_before(p: *const u8, end: *const u8) -> usize {
        (end as usize - p as usize) / CHUNK - 1
    }

    /// A table repeated in every 16-byte lane, as `vpshufb` looks up within lanes.
    #[target_feature(enable = "avx2")]
    fn table256(t: &[u8; 16]) -> __m256i {
        // SAFETY: the load reads 16 bytes from a `[u8; 16]`.
        let lane = unsafe { _mm_loadu_si128(t.as_ptr().cast()) };
        _mm256_broadcastsi128_si256(lane)
    }

    /// The splat constants of [`avx2_errors`]: `60`, `70` and `80` in every byte.
    ///
    /// They are made opaque to the compiler ([`std::hint::black_box`]): with the tables, the
    /// loop needs more than the 16 vector registers, and LLVM would otherwise make them again
    /// in each round with `vpbroadcastb`, which competes with the lookups for the shuffle
    /// port. An opaque value spilled to the stack is read back as a memory operand, for free
    /// (`llvm-mca -mcpu=skylake` on the loop: 17.1 cycles a chunk with the broadcasts, 14.6
    /// without; simdutf8's validation loop: 16.0).
    #[derive(Clone, Copy)]
    struct Splats {
        x60: __m256i,
        x70: __m256i,
        x80: __m256i,
    }

    impl Splats {
        #[target_feature(enable = "avx2")]
        fn new() -> Splats {
            std::hint::black_box(Splats {
                x60: _mm256_set1_epi8(0x60),
                x70: _mm256_set1_epi8(0x70),
                x80: _mm256_set1_epi8(0x80u8 as i8),
            })
        }
    }

    /// The error bytes (non-zero) of the 32 bytes at `p`, given their high nibbles.
    ///
    /// # Safety
    /// AVX2, and `p - 3 .. p + 32` readable.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn avx2_errors(
        p: *const u8,
        here_high: __m256i,
        tables: &[__m256i; 3],
        splats: &Splats,
    ) -> __m256i {
        // SAFETY: the caller's contract covers the three loads that start 1 to 3 bytes
        // before `p`.
        let (b1, b2, b3) = unsafe {
            (
                _mm256_loadu_si256(p.sub(1).cast()),
                _mm256_loadu_si256(p.sub(2).cast()),
                _mm256_loadu_si256(p.sub(3).cast()),
            )
        };
        let nibble = _mm256_set1_epi8(0x0F);
        let before_high = _mm256_and_si256(_mm256_srli_epi16::<4>(b1), nibble);
        let before_low = _mm256_and_si256(b1, nibble);
        let classes = _mm256_and_si256(
            _mm256_and_si256(
                _mm256_shuffle_epi8(tables[0], before_high),
                _mm256_shuffle_epi8(tables[1], before_low),
            ),
            _mm256_shuffle_epi8(tables[2], here_high),
        );
        // b2 - 0x60 (saturating) has its top bit set exactly for b2 >= E0; b3 - 0x70 for
        // b3 >= F0: the top bit is TWO_CONTS, flipped where the sequence needs the byte.
        let must = _mm256_or_si256(
            _mm256_subs_epu8(b2, splats.x60),
            _mm256_subs_epu8(b3, splats.x70),
        );
        _mm256_xor_si256(classes, _mm256_and_si256(must, splats.x80))
    }

    /// The AVX2 kernel of [`super::check_chunks`]: a chunk is two vectors, its error mask is
    /// made only when it has errors (a branch, which valid text always predicts). A chunk
    /// of ASCII after a settled context skips the rest, and so does every ASCII chunk after
    /// it, in a tighter loop.
    ///
    /// # Safety
    /// AVX2, `p - 3 .. p + chunks * 64` readable, and `found` not empty.
    #[target_feature(enable = "avx2")]
    pub unsafe fn avx2_chunks(
        p: *const u8,
        chunks: usize,
        leads: &mut Leads,
        found: &mut [Flagged],
    ) -> (usize, usize) {
        let tables = [
            table256(&BEFORE_HIGH),
            table256(&BEFORE_LOW),
            table256(&HERE_HIGH),
        ];
        let (w_a, w_b) = (table256(&WEIGHTS_80_C0), table256(&WEIGHTS_E0_F0));
        let nibble = _mm256_set1_epi8(0x0F);
        let splats = Splats::new();
        let zero = _mm256_setzero_si256();
        let mut sums: Widened<__m256i> = [zero; 4];
        // SAFETY (for every `add` and load below): the chunks lie in `p .. end`, each with
        // the 3 bytes before it readable (the caller's contract).
        let end = unsafe { p.add(chunks * CHUNK) };
        let mut at = p;
        let mut written = 0;
        while at < end {
            let left = (end as usize - at as usize) / CHUNK;
            let round_end = unsafe { at.add(left.min(AVX2_ROUNDS) * CHUNK) };
            let (mut a, mut b) = (zero, zero);
            let mut full = false;
            while at < round_end {
                let (lo, hi) = unsafe {
                    (
                        _mm256_loadu_si256(at.cast()),
                        _mm256_loadu_si256(at.add(32).cast()),
                    )
                };
                _mm_prefetch::<_MM_HINT_T0>(at.wrapping_add(PREFETCH).cast());
                let ascii = _mm256_movemask_epi8(_mm256_or_si256(lo, hi)) == 0;
                if ascii && unsafe { settled_before(at) } {
                    at = unsafe { at.add(CHUNK) };
                    // Each chunk of the run has an ASCII chunk before it. The counters do
                    // not move, so the run may pass the round's end.
                    while at < end {
                        let any = unsafe {
                            _mm256_or_si256(
                                _mm256_loadu_si256(at.cast()),
                                _mm256_loadu_si256(at.add(32).cast()),
                            )
                        };
                        _mm_prefetch::<_MM_HINT_T0>(at.wrapping_add(PREFETCH).cast());
                        if _mm256_movemask_epi8(any) != 0 {
                            break;
                        }
                        at = unsafe { at.add(CHUNK) };
                    }
                    continue;
                }
                // One half at a time, so that the constants stay in the 16 registers.
                let mut half = |v, at: *const u8| {
                    let high = _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble);
                    a = _mm256_add_epi8(a, _mm256_shuffle_epi8(w_a, high));
                    b = _mm256_add_epi8(b, _mm256_shuffle_epi8(w_b, high));
                    // SAFETY: as above.
                    unsafe { avx2_errors(at, high, &tables, &splats) }
                };
                let e_lo = half(lo, at);
                let e_hi = half(hi, unsafe { at.add(32) });
                at = unsafe { at.add(CHUNK) };
                let any = _mm256_or_si256(e_lo, e_hi);
                if _mm256_testz_si256(any, any) == 0 {
                    let clean_lo = _mm256_movemask_epi8(_mm256_cmpeq_epi8(e_lo, zero)) as u32;
                    let clean_hi = _mm256_movemask_epi8(_mm256_cmpeq_epi8(e_hi, zero)) as u32;
                    let mask = !((clean_hi as u64) << 32 | clean_lo as u64);
                    found[written] = (index_before(p, at), mask);
                    written += 1;
                    if written == found.len() {
                        full = true;
                        break;
                    }
                }
            }
            for (sum, v) in sums.iter_mut().zip([
                a,
                _mm256_and_si256(a, nibble),
                b,
                _mm256_and_si256(b, nibble),
            ]) {
                *sum = _mm256_add_epi64(*sum, _mm256_sad_epu8(v, zero));
            }
            if full {
                break;
            }
        }
        let totals = sums.map(|sum| {
            let mut lanes = [0u64; 4];
            // SAFETY: a 32-byte store into a `[u64; 4]`.
            unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum) };
            lanes.iter().sum()
        });
        let done = (at as usize - p as usize) / CHUNK;
        add_counts(leads, done, totals);
        (done, written)
    }

    /// The AVX-512 kernel of [`super::check_chunks`]: a chunk is one vector and its error
    /// mask one mask register; otherwise as the AVX2 kernel. (Lead bytes are counted by
    /// lookups rather than compares into mask registers, which would compete with the
    /// validation's.)
    ///
    /// # Safety
    /// AVX-512F and AVX-512BW, `p - 3 .. p + chunks * 64` readable, and `found` not empty.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn avx512_chunks(
        p: *const u8,
        chunks: usize,
        leads: &mut Leads,
        found: &mut [Flagged],
    ) -> (usize, usize) {
        let wide = |t: &[u8; 16]| {
            // SAFETY: a 16-byte load from a `[u8; 16]`.
            let lane = unsafe { _mm_loadu_si128(t.as_ptr().cast()) };
            _mm512_broadcast_i32x4(lane)
        };
        let (t0, t1, t2) = (wide(&BEFORE_HIGH), wide(&BEFORE_LOW), wide(&HERE_HIGH));
        let (w_a, w_b) = (wide(&WEIGHTS_80_C0), wide(&WEIGHTS_E0_F0));
        let nibble = _mm512_set1_epi8(0x0F);
        let zero = _mm512_setzero_si512();
        let mut sums: Widened<__m512i> = [zero; 4];
        // SAFETY (for every `add` and load below): as in the AVX2 kernel.
        let end = unsafe { p.add(chunks * CHUNK) };
        let mut at = p;
        let mut written = 0;
        while at < end {
            let left = (end as usize - at as usize) / CHUNK;
            let round_end = unsafe { at.add(left.min(AVX512_ROUNDS) * CHUNK) };
            let (mut a, mut b) = (zero, zero);
            let mut full = false;
            while at < round_end {
                let here = unsafe { _mm512_loadu_si512(at.cast()) };
                _mm_prefetch::<_MM_HINT_T0>(at.wrapping_add(PREFETCH).cast());
                if _mm512_movepi8_mask(here) == 0 && unsafe { settled_before(at) } {
                    at = unsafe { at.add(CHUNK) };
                    while at < end {
                        let here = unsafe { _mm512_loadu_si512(at.cast()) };
                        _mm_prefetch::<_MM_HINT_T0>(at.wrapping_add(PREFETCH).cast());
                        if _mm512_movepi8_mask(here) != 0 {
                            break;
                        }
                        at = unsafe { at.add(CHUNK) };
                    }
                    continue;
                }
                let here_high = _mm512_and_si512(_mm512_srli_epi16::<4>(here), nibble);
                a = _mm512_add_epi8(a, _mm512_shuffle_epi8(w_a, here_high));
                b = _mm512_add_epi8(b, _mm512_shuffle_epi8(w_b, here_high));
                let (b1, b2, b3) = unsafe {
                    (
                        _mm512_loadu_si512(at.sub(1).cast()),
                        _mm512_loadu_si512(at.sub(2).cast()),
                        _mm512_loadu_si512(at.sub(3).cast()),
                    )
                };
                let before_high = _mm512_and_si512(_mm512_srli_epi16::<4>(b1), nibble);
                let before_low = _mm512_and_si512(b1, nibble);
                // 0x80: a AND b AND c.
                let classes = _mm512_ternarylogic_epi32::<0x80>(
                    _mm512_shuffle_epi8(t0, before_high),
                    _mm512_shuffle_epi8(t1, before_low),
                    _mm512_shuffle_epi8(t2, here_high),
                );
                // As in AVX2: the top bit of b2 - 0x60 and of b3 - 0x70 (saturating) says
                // the sequence needs this byte; it flips TWO_CONTS. 0x78: a XOR (b AND c).
                let must = _mm512_or_si512(
                    _mm512_subs_epu8(b2, _mm512_set1_epi8(0x60)),
                    _mm512_subs_epu8(b3, _mm512_set1_epi8(0x70)),
                );
                let errors = _mm512_ternarylogic_epi32::<0x78>(
                    classes,
                    must,
                    _mm512_set1_epi8(0x80u8 as i8),
                );
                let flagged = _mm512_test_epi8_mask(errors, errors);
                at = unsafe { at.add(CHUNK) };
                if flagged != 0 {
                    found[written] = (index_before(p, at), flagged);
                    written += 1;
                    if written == found.len() {
                        full = true;
                        break;
                    }
                }
            }
            for (sum, v) in sums.iter_mut().zip([
                a,
                _mm512_and_si512(a, nibble),
                b,
                _mm512_and_si512(b, nibble),
            ]) {
                *sum = _mm512_add_epi64(*sum, _mm512_sad_epu8(v, zero));
            }
            if full {
                break;
            }
        }
        let totals = sums.map(|s| _mm512_reduce_add_epi64(s) as u64);
        let done = (at as usize - p as usize) / CHUNK;
        add_counts(leads, done, totals);
        (done, written)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::decode::{ByteRole, Dialect};
    use proptest::prelude::*;

    /// Whether a pair is ill-formed by Table 3-7 alone, continuation pairs aside.
    fn pair_is_error(before: u8, here: u8) -> bool {
        let cont = (0x80..=0xBF).contains(&here);
        match Dialect::Utf8.role(before) {
            ByteRole::Ascii => cont,
            ByteRole::Continuation => false,
            ByteRole::Lead { second, .. } => !second.contains(here),
            ByteRole::Never | ByteRole::InCodeUnit => true,
        }
    }

    #[test]
    fn tables_match_table_3_7_on_every_pair() {
        for before in 0..=255u8 {
            for here in 0..=255u8 {
                let classes = pair_classes(before, here);
                assert_eq!(
                    classes & !TWO_CONTS != 0,
                    pair_is_error(before, here),
                    "{before:02X} {here:02X}"
                );
                let both_cont = (0x80..=0xBF).contains(&before) && (0x80..=0xBF).contains(&here);
                assert_eq!(
                    classes & TWO_CONTS != 0,
                    both_cont,
                    "{before:02X} {here:02X}"
                );
            }
        }
    }

    /// Every flagged byte of `input` read as preceded and followed by `00` bytes, and the
    /// lead bytes of every chunk, as `level` reports them chunk by chunk (resuming after
    /// each chunk with errors). `shift` bytes of `a` come first, to move the input across
    /// chunk edges; positions are relative to the input.
    fn kernel_view(level: Level, input: &[u8], shift: usize) -> (Vec<usize>, Leads) {
        let mut padded = vec![0u8; 3];
        padded.extend(std::iter::repeat_n(b'a', shift));
        padded.extend_from_slice(input);
        // Padding past the end: at least 3 bytes, then whole chunks.
        let body = padded.len() - 3 + 3;
        padded.resize(3 + body.div_ceil(CHUNK) * CHUNK, 0);
        let chunks = (padded.len() - 3) / CHUNK;
        let mut flags = Vec::new();
        let mut leads = [0u64; 5];
        let mut done = 0;
        // A small list of chunks with errors, so that calls end early and resume.
        let mut found = [(0, 0); 2];
        while done < chunks {
            let from = 3 + done * CHUNK;
            let (n, written) =
                check_chunks(level, &padded, from, chunks - done, &mut leads, &mut found);
            assert!(n >= 1, "{level:?} did no chunk");
            for (index, mask) in &found[..written] {
                assert!(*index < n && *mask != 0, "{level:?}");
                let base = from + index * CHUNK;
                for i in 0..CHUNK {
                    if mask & (1 << i) != 0 {
                        flags.push(base + i - 3 - shift);
                    }
                }
            }
            if written < found.len() {
                assert_eq!(done + n, chunks, "{level:?} stopped early");
            }
            done += n;
        }
        (flags, leads)
    }

    /// The flags of the method itself, byte by byte, and the lead bytes the kernel must
    /// have counted (the input, the `a`s and the padding).
    fn reference(input: &[u8], shift: usize) -> (Vec<usize>, Leads) {
        let mut padded = vec![0u8; 3];
        padded.extend_from_slice(input);
        padded.extend_from_slice(&[0; 3]);
        let flags = (3..padded.len())
            .filter(|&i| flagged(padded[i - 3], padded[i - 2], padded[i - 1], padded[i]))
            .map(|i| i - 3)
            .collect();
        let total = (shift + input.len() + 3).div_ceil(CHUNK) * CHUNK;
        let mut leads = [0u64; 5];
        for &b in input {
            leads[lead_class(b)] += 1;
        }
        leads[0] = 0;
        leads[1] += (total - input.len()) as u64;
        (flags, leads)
    }

    /// Checks the method against decoding: valid exactly when std says so, and, for every
    /// error unit after a scalar (or at the start), the first flag at or after it lies
    /// within 3 bytes of it. Then every level against the reference.
    fn check_kernel(input: &[u8]) {
        let (flags, _) = reference(input, 0);
        assert_eq!(
            flags.is_empty(),
            std::str::from_utf8(input).is_ok(),
            "{input:02X?}"
        );
        // What the scan relies on: from any settled unit boundary, the first flag is within
        // 3 bytes after the start of the first error unit, and there is none if none follows.
        let units: Vec<_> = Dialect::Utf8.units(input).collect();
        for (i, u) in units.iter().enumerate() {
            if !settled(input, 0, u.start) {
                continue;
            }
            let first_flag = flags.iter().find(|&&f| f >= u.start);
            match units[i..].iter().find(|e| e.is_error()) {
                Some(e) => assert!(
                    first_flag.is_some_and(|&f| f >= e.start && f <= e.start + 3),
                    "{input:02X?}: from {}, {e:?}, first flag {first_flag:?}",
                    u.start
                ),
                None => assert_eq!(first_flag, None, "{input:02X?}: from {}", u.start),
            }
        }
        // std agrees on where the first error is.
        if let Some(chunk) = input.utf8_chunks().find(|c| !c.invalid().is_empty()) {
            let at =
                chunk.valid().as_ptr() as usize - input.as_ptr() as usize + chunk.valid().len();
            assert!(flags[0] >= at && flags[0] <= at + 3, "{input:02X?}");
        }
        for level in Level::available() {
            for shift in [0, 1, 2, 3, 31, 61, 62, 63] {
                let (level_flags, level_leads) = kernel_view(level, input, shift);
                let (_, want_leads) = reference(input, shift);
                assert_eq!(level_flags, flags, "{level:?} shift {shift} {input:02X?}");
                assert_eq!(
                    level_leads, want_leads,
                    "{level:?} shift {shift} {input:02X?}"
                );
            }
        }
    }

    /// Pieces inputs are made of: the bytes where the rules change, whole sequences of
    /// every length and restricted lead, and their truncations.
    fn piece() -> impl Strategy<Value = Vec<u8>> {
        const EDGES: [u8; 15] = [
            0x00, 0x7F, 0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5,
            0xFF,
        ];
        const SEQUENCES: [&[u8]; 12] = [
            b"a",
            b"\xC2\x80",
            b"\xDF\xBF",
            b"\xE0\xA0\x80",
            b"\xED\x9F\xBF",
            b"\xEF\xBF\xBF",
            b"\xF0\x90\x80\x80",
            b"\xF4\x8F\xBF\xBF",
            b"\xF1\x80\x80\x80",
            b"\xED\xA0\x80",
            b"\xF4\x90\x80\x80",
            b"\xE0\x80\x80",
        ];
        prop_oneof![
            3 => proptest::sample::select(&EDGES[..]).prop_map(|b| vec![b]),
            3 => (proptest::sample::select(&SEQUENCES[..]), 0..4usize)
                .prop_map(|(s, cut)| s[..s.len().saturating_sub(cut).max(1)].to_vec()),
            1 => proptest::collection::vec(0u8..0x80, 1..40),
        ]
    }

    /// Up to 300 bytes of [`piece`]s.
    pub(in crate::scan) fn input() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(piece(), 0..120).prop_map(|pieces| {
            let mut bytes: Vec<u8> = pieces.concat();
            bytes.truncate(300);
            bytes
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn kernels_equal_the_method_and_decoding(bytes in input()) {
            check_kernel(&bytes);
        }
    }

    #[test]
    fn counters_hold_the_densest_text() {
        // Every 4th byte a 4-byte lead, in the same byte lanes chunk after chunk: the most a
        // lane counter gains between two widenings. Then 2- and 3-byte text, and each with
        // errors that end calls early.
        for unit in [
            "\u{10000}",
            "\u{10FFFF}",
            "\u{E9}",
            "\u{20AC}",
            "a\u{E9}\u{20AC}\u{10000}",
        ] {
            for bytes in [
                unit.repeat(4096).into_bytes(),
                (unit.repeat(300) + "\u{FF}").repeat(8).into_bytes(),
            ] {
                for level in Level::available() {
                    assert_eq!(
                        kernel_view(level, &bytes, 0),
                        reference(&bytes, 0),
                        "{level:?} {unit}"
                    );
                }
            }
        }
    }

    /// Up to 8 KiB: stretches of [`input`] between runs of ASCII up to 1 KiB long, so that
    /// a call spans many rounds of the counters, and ASCII runs start and end anywhere in
    /// them.
    fn long_input() -> impl Strategy<Value = Vec<u8>> {
        let ascii_run = (0..1024usize).prop_map(|n| vec![b'.'; n]);
        proptest::collection::vec((input(), ascii_run), 1..16).prop_map(|parts| {
            let mut bytes = Vec::new();
            for (text, run) in parts {
                bytes.extend_from_slice(&text);
                bytes.extend_from_slice(&run);
            }
            bytes.truncate(8192);
            bytes
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn kernels_equal_the_method_over_many_rounds(bytes in long_input()) {
            for level in Level::available() {
                for shift in [0, 5, 63] {
                    let (flags, leads) = kernel_view(level, &bytes, shift);
                    let (want_flags, want_leads) = reference(&bytes, shift);
                    prop_assert_eq!(flags, want_flags, "{:?} shift {}", level, shift);
                    prop_assert_eq!(leads, want_leads, "{:?} shift {}", level, shift);
                }
            }
        }
    }

    #[test]
    fn kernels_on_every_short_input_of_edge_bytes() {
        // Every input of up to 3 edge bytes, after a 2-byte prefix of every kind.
        let edges = [
            0x41u8, 0x80, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xE1, 0xED, 0xF0, 0xF4, 0xF5,
        ];
        let mut input = Vec::new();
        for a in edges {
            for b in edges {
                for c in edges {
                    for len in 1..=3 {
                        input.clear();
                        input.extend_from_slice(&[a, b, c][..len]);
                        check_kernel(&input);
                    }
                }
            }
        }
    }

    #[test]
    fn lead_classes() {
        for b in 0..=255u8 {
            let expected = match b {
                0x00..=0x7F => 1,
                0x80..=0xBF => 0,
                0xC0..=0xDF => 2,
                0xE0..=0xEF => 3,
                _ => 4,
            };
            assert_eq!(lead_class(b), expected, "{b:02X}");
        }
    }
}
