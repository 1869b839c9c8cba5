//! Counting UTF-8 errors where they are dense (random or binary data), 32 bytes at a time,
//! with no branch and no chain from one byte to the next.
//!
//! Decoding unit after unit is a chain: each step waits for the length of the unit before,
//! and on random bytes every step's branches are coin tosses. Two facts of UTF-8 break the
//! chain. Every byte that is not a continuation byte starts a unit, whose length depends
//! only on it and the three bytes after it. A continuation byte starts a unit (a lone
//! `unexpected_continuation`) exactly when no unit that started 1, 2 or 3 bytes before it
//! reaches it. So every position of a window is worked out on its own from a 4-byte view,
//! in fixed-size arrays the compiler turns into vector code, and each kind of error becomes
//! a 32-bit mask counted with `count_ones`.
//!
//! The kinds that can occur here are those of UTF-8 with four readable bytes:
//! `invalid_byte`, `unexpected_continuation`, `truncated`, `overlong`, `surrogate` and
//! `out_of_range` (`truncated_eof` needs the end of the input, which the caller keeps out of
//! the window). The tests hold every window equal to [`crate::decode::Dialect::units`].

use crate::decode::ErrorKind;

/// Bytes per window.
pub const WINDOW: usize = 32;

/// Lanes computed per window: the 3 positions before it (whose units may reach into it),
/// the window, and padding to a multiple of 16 so the loops vectorise without remainders.
const LANES: usize = 48;

/// Bytes a window is computed from: its lanes and 3 bytes after the last one.
pub const VIEW: usize = LANES + 3;

/// The error units that start in one window, and the lead class of their first bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WindowErrors {
    /// Error units per kind, by [`ErrorKind::index`].
    pub kinds: [u32; ErrorKind::ALL.len()],
    /// Error units whose first byte is a lead of class 2, 3 or 4 (C0..DF, E0..EF, F0..FF),
    /// at index 2, 3, 4: what a count of lead bytes counted as scalars.
    pub leads: [u32; 5],
    /// Window position of the first error unit, if any.
    pub first: Option<usize>,
    /// Window position of the last error unit, if any.
    pub last: Option<usize>,
    /// The first unit boundary at or after the window's limit, as an offset from the
    /// window's start: the limit, or the end of a unit that starts before it and reaches
    /// past it.
    pub spill: usize,
}

/// Error codes per lane (0: no error starts here).
const INVALID: u8 = 1;
const TRUNCATED: u8 = 2;
const OVERLONG: u8 = 3;
const SURROGATE: u8 = 4;
const OUT_OF_RANGE: u8 = 5;
const LONE_CONTINUATION: u8 = 6;

const CODE_KINDS: [ErrorKind; 6] = [
    ErrorKind::InvalidByte,
    ErrorKind::Truncated,
    ErrorKind::Overlong,
    ErrorKind::Surrogate,
    ErrorKind::OutOfRange,
    ErrorKind::UnexpectedContinuation,
];

/// 0xFF where `condition` holds, else 0: a vector-style mask.
#[inline(always)]
fn m(condition: bool) -> u8 {
    0u8.wrapping_sub(condition as u8)
}

/// How many lanes equal `wanted`; summed in u8 (at most 32), which stays in vector
/// registers.
#[inline(always)]
fn count_equal(lanes: &[u8; WINDOW], wanted: u8) -> u32 {
    lanes.iter().fold(0u8, |n, x| n + (*x == wanted) as u8) as u32
}

/// Works out the errors that start in a window. Compiled for AVX2 too and chosen at run
/// time, like the lead count: its byte comparisons are native there, not on baseline SSE2.
///
/// `view` holds the window's bytes with 3 bytes of context before and enough after:
/// `view[3]` is the window's first byte; lane `j` is the window position `j - 3`. Lanes
/// before `first_lane` are not units of this scan (3 for the window that starts at the
/// scan's first boundary, 0 after), and window positions from `limit` on are not counted.
#[multiversion::multiversion(targets("x86_64+avx2"))]
pub fn window_errors(view: &[u8; VIEW], first_lane: usize, limit: usize) -> WindowErrors {
    // Pass 1, every lane on its own: the length of the unit a lead starts (0 for a
    // continuation byte or a lane that is not ours), the error code of that unit, and the
    // lead class of its first byte.
    let mut lead_len = [0u8; LANES];
    let mut code = [0u8; LANES];
    let mut class = [0u8; LANES];
    for j in 0..LANES {
        let (b0, b1, b2, b3) = (view[j], view[j + 1], view[j + 2], view[j + 3]);
        let ours = m(j >= first_lane);
        let lead = m((b0 as i8) >= -64) & ours;
        // Sequence length of a valid lead C2..F4, 1 otherwise.
        let valid_lead = m(b0.wrapping_sub(0xC2) <= 0xF4 - 0xC2);
        let n = 1
            + (valid_lead & 1)
            + (valid_lead & m(b0 >= 0xE0) & 1)
            + (valid_lead & m(b0 >= 0xF0) & 1);
        // The second byte's range (Unicode Table 3-7).
        let lo = 0x80 + (m(b0 == 0xE0) & 0x20) + (m(b0 == 0xF0) & 0x10);
        let span = 0x3F
            - (m(b0 == 0xE0) & 0x20)
            - (m(b0 == 0xF0) & 0x10)
            - (m(b0 == 0xED) & 0x20)
            - (m(b0 == 0xF4) & 0x30);
        let in_range = m(b1.wrapping_sub(lo) <= span);
        let c1 = m((b1 as i8) < -64);
        let c2 = m((b2 as i8) < -64);
        let c3 = m((b3 as i8) < -64);
        let ok1 = m(n >= 2) & in_range;
        let ok2 = ok1 & m(n >= 3) & c2;
        let ok3 = ok2 & m(n >= 4) & c3;
        let consumed = 1 + (ok1 & 1) + (ok2 & 1) + (ok3 & 1);
        let scalar = m(consumed == n) & (m(n >= 2) | m(b0 < 0x80));
        let cut_by_range = m(n >= 2) & !ok1 & c1;
        // The restricted leads: ED excludes the surrogates, F4 what lies above U+10FFFF,
        // E0 and F0 the overlong forms.
        let restricted = (m(b0 == 0xED) & SURROGATE)
            | (m(b0 == 0xF4) & OUT_OF_RANGE)
            | (m(b0 == 0xE0 || b0 == 0xF0) & OVERLONG);
        let multi = m(n >= 2);
        let err = !scalar & lead;
        let this_code = (m(n == 1) & INVALID)
            | (multi & cut_by_range & restricted)
            | (multi & !cut_by_range & TRUNCATED);
        lead_len[j] = lead & consumed;
        code[j] = err & this_code;
        class[j] = err & ((m(b0 >= 0xC0) & 2) + (m(b0 >= 0xE0) & 1) + (m(b0 >= 0xF0) & 1));
    }
    // Pass 2, the window's positions: a continuation byte that no unit from the 3 lanes
    // before reaches is a lone `unexpected_continuation`.
    let mut final_code = [0u8; WINDOW];
    let mut final_class = [0u8; WINDOW];
    for i in 0..WINDOW {
        let j = i + 3;
        let covered = m(lead_len[j - 1] >= 2) | m(lead_len[j - 2] >= 3) | m(lead_len[j - 3] >= 4);
        let counted = m(i < limit);
        let lone = m((view[j] as i8) < -64) & !covered & m(j >= first_lane);
        final_code[i] = counted & (code[j] | (lone & LONE_CONTINUATION));
        final_class[i] = counted & class[j];
    }
    let mut out = WindowErrors::default();
    for (c, kind) in CODE_KINDS.iter().enumerate() {
        let wanted = c as u8 + 1;
        out.kinds[kind.index()] = count_equal(&final_code, wanted);
    }
    for (c, slot) in out.leads.iter_mut().enumerate().skip(2) {
        *slot = count_equal(&final_class, c as u8);
    }
    if out.kinds.iter().any(|n| *n > 0) {
        out.first = final_code.iter().position(|x| *x != 0);
        out.last = final_code.iter().rposition(|x| *x != 0);
    }
    // The first unit boundary at or after `limit`: `limit` itself, unless a unit that
    // starts in the 3 positions before it reaches further.
    let limit = limit.min(WINDOW);
    let mut spill = limit;
    for k in 1..=3.min(limit) {
        spill = spill.max(limit - k + lead_len[limit + 3 - k] as usize);
    }
    out.spill = spill;
    out
}
