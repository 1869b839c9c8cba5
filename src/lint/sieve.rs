//! The lines a walk must look at: a pass over a segment that reads each character once,
//! with one table load, and hands on only the lines where the walk could find something.
//!
//! A line (up to and including its line feed, where every piece of the walk's state ends)
//! goes to the walk when it holds
//!
//! - a byte that does not begin a well-formed character of UTF-8 (an error, an overlong
//!   form, a surrogate, a legacy form: the walk decodes those in the input's dialect),
//! - an ASCII control other than tab, line feed and carriage return (XML, PostgreSQL),
//! - a character some lint looks at ([`super::checks::quiet`] says `None`: bidi controls,
//!   joiners, selectors, tags, invisible characters, line separators, C1 controls,
//!   noncharacters, what XML refuses), or any character above U+FFFF for MySQL utf8mb3,
//! - a run of non-starters (counted after NFKD, as the walk counts them) longer than the
//!   stream-safe limit, or
//! - a *word* with letters of two script groups, or with ASCII letters and letters of a
//!   group other than Latin: every word the walk asks about its scripts. A line with
//!   letters of two groups, or with ASCII letters and another group's, is read again word
//!   by word ([`asks_about_words`]), its words ending where the walk's do, so that a
//!   Russian sentence naming "USB" in Latin letters is not walked.
//!
//! Every other line holds no lint and no word that mixes scripts, so the survey finds what
//! a walk of the whole segment finds (this module's proptest holds each line passed over
//! to a walk with the full look; tests/lint.rs holds the survey to one walk over random
//! cuts).
//!
//! Sixteen bytes at a time (SSE2), the sieve passes over printable ASCII and, where the
//! scan found the input well formed, the characters of the line's last [`KEPT`] (two)
//! [`Family`]s met (kana and Han, Han and CJK punctuation): a family is the characters whose
//! first two bytes fall in one rectangle of lead and second bytes, all quiet letters of one
//! script group (Latin `C3`–`C8`, Cyrillic `D0`–`D3`, Devanagari `E0 A4`–`E0 A5`, kana, Han
//! `E4`–`E9`, Hangul `EB`–`EC`, ..., found from the table, not listed by hand), counting the
//! run of marks they may add from above. Anything else is read one character at a time.
//! On an x86-64 with AVX2, popcnt, lzcnt and BMI1 (asked at run time) the same code runs
//! compiled for them: the masks are counted and scanned in one instruction each.

use std::ops::Range;
use std::sync::LazyLock;

use super::checks::{quiet, LATIN, MAX_NON_STARTERS};

/// A table entry for a character some lint looks at.
const LOOK: u16 = 0x8000;
/// The bits of an entry that hold the script group (0: not a letter, but part of a word).
const GROUP: u16 = 0x3FF;
/// The group of a character that is not part of a word (no script group is this high).
const BREAK: u32 = GROUP as u32;
const LEADING_SHIFT: u32 = 10;
const TRAILING_SHIFT: u32 = 12;
const STARTER: u16 = 1 << 14;

/// What the walk needs to know of a character: [`LOOK`], or its group ([`BREAK`] if it is
/// not part of a word), its leading and trailing non-starters (0 to 3; more is [`LOOK`])
/// and whether it holds a starter.
fn entry(v: u32) -> u16 {
    match quiet(v) {
        Some(q) if q.group < BREAK && q.leading <= 3 && q.trailing <= 3 => {
            let group = if q.word { q.group as u16 } else { GROUP };
            group
                | (q.leading as u16) << LEADING_SHIFT
                | (q.trailing as u16) << TRAILING_SHIFT
                | if q.starter { STARTER } else { 0 }
        }
        _ => LOOK,
    }
}

/// [`entry`] of `v`, from `table` (the entries below U+20000) where it holds it.
#[inline(always)]
fn entry_in(table: &[u16], v: u32) -> u16 {
    match table.get(v as usize) {
        Some(&e) => e,
        None => entry(v),
    }
}

/// A *family*: the characters whose lead byte is in `lead..=lead + lead_span` and whose
/// second byte is in `second..=second + second_span`, all of them quiet (no lint looks at
/// them) and letters of one script `group` (or of none), with at most `leading` leading
/// non-starters each. Sixteen bytes of one family and printable ASCII are passed over at
/// once. The families are found from the table of entries, not listed by hand: Latin
/// `C3`–`C8`, Greek `CE`–`CF`, Cyrillic `D0`–`D1`, Hebrew and Arabic letters, Devanagari,
/// the other Indic scripts and Thai by their second byte, kana `E3 81`–`E3 83`, Han
/// `E4`–`E9`, Hangul `EB`–`EC`, ...
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Family {
    lead: u8,
    lead_span: u8,
    second: u8,
    second_span: u8,
    group: u32,
    leading: usize,
}

/// The sieve's tables, built once.
struct Tables {
    /// [`entry`] of every code point below U+20000 (the BMP and the plane of emoji and
    /// historic scripts: 256 KiB); above, [`entry`] is asked each time.
    entries: Vec<u16>,
    /// Every family, the first an empty one (no lead byte is in it).
    families: Vec<Family>,
    /// For a lead byte from `C0` to `EF` and a second byte, the index in `families` of
    /// theirs (0: none), at `(lead - 0xC0) * 64 + (second - 0x80)`.
    family_of: Vec<u16>,
}

impl Tables {
    /// The family of the character whose first two bytes are `lead` and `second` (the
    /// empty one if none).
    #[inline]
    fn family(&self, lead: u8, second: u8) -> Family {
        let at = (lead.wrapping_sub(0xC0) as usize) << 6 | (second & 0x3F) as usize;
        let i = self.family_of.get(at).copied().unwrap_or(0);
        self.families[i as usize]
    }
}

fn tables() -> &'static Tables {
    static TABLES: LazyLock<Tables> = LazyLock::new(|| {
        let entries: Vec<u16> = (0..0x2_0000).map(entry).collect();
        // The group and the most leading non-starters of the characters that begin with
        // `lead` and `second`, if all are quiet and of one group (or of none).
        let pure = |lead: u32, second: u32| -> Option<(u32, usize)> {
            let (first, count) = match lead {
                0xC2..=0xDF => (((lead & 0x1F) << 6) | (second & 0x3F), 1),
                0xE0..=0xEF => (((lead & 0x0F) << 12) | ((second & 0x3F) << 6), 64),
                _ => return None,
            };
            let valid = |v: &u32| {
                *v >= 0x80 && (lead != 0xE0 || *v >= 0x800) && !(0xD800..0xE000).contains(v)
            };
            let (mut group, mut leading, mut any) = (0, 0, false);
            for v in (first..first + count).filter(valid) {
                any = true;
                let e = entries[v as usize];
                if e & LOOK != 0 {
                    return None;
                }
                leading = leading.max(((e >> LEADING_SHIFT) & 3) as usize);
                match (e & GROUP) as u32 {
                    0 | BREAK => {}
                    g if group == 0 || group == g => group = g,
                    _ => return None,
                }
            }
            any.then_some((group, leading))
        };
        // Runs of second bytes under each lead byte, then runs of whole lead bytes.
        let mut families = vec![Family::default()];
        let mut family_of = vec![0u16; 48 * 64];
        let mut whole: Vec<Option<(u32, usize)>> = vec![None; 256];
        let mut runs: Vec<(u8, u8, u8, u32, usize)> = Vec::new();
        for lead in 0xC2u32..=0xEF {
            let mut second = 0x80u32;
            while second <= 0xBF {
                let Some((group, mut leading)) = pure(lead, second) else {
                    second += 1;
                    continue;
                };
                let mut last = second;
                while last < 0xBF {
                    match pure(lead, last + 1) {
                        Some((g, l)) if g == group => {
                            leading = leading.max(l);
                            last += 1;
                        }
                        _ => break,
                    }
                }
                if second == 0x80 && last == 0xBF {
                    whole[lead as usize] = Some((group, leading));
                }
                runs.push((lead as u8, second as u8, last as u8, group, leading));
                second = last + 1;
            }
        }
        let mut lead = 0xC2usize;
        while lead <= 0xEF {
            if let Some((group, mut leading)) = whole[lead] {
                let mut last = lead;
                while last < 0xEF && (last + 1 >= 0xE0) == (lead >= 0xE0) {
                    match whole[last + 1] {
                        Some((g, l)) if g == group => {
                            leading = leading.max(l);
                            last += 1;
                        }
                        _ => break,
                    }
                }
                families.push(Family {
                    lead: lead as u8,
                    lead_span: (last - lead) as u8,
                    second: 0x80,
                    second_span: 0x3F,
                    group,
                    leading,
                });
                let i = (families.len() - 1) as u16;
                for at in &mut family_of[(lead - 0xC0) * 64..(last + 1 - 0xC0) * 64] {
                    *at = i;
                }
                lead = last + 1;
            } else {
                for &(l, first, last, group, leading) in
                    runs.iter().filter(|r| r.0 as usize == lead)
                {
                    families.push(Family {
                        lead: l,
                        lead_span: 0,
                        second: first,
                        second_span: last - first,
                        group,
                        leading,
                    });
                    let i = (families.len() - 1) as u16;
                    let base = (lead - 0xC0) * 64;
                    for at in &mut family_of
                        [base + (first - 0x80) as usize..=base + (last - 0x80) as usize]
                    {
                        *at = i;
                    }
                }
                lead += 1;
            }
        }
        Tables {
            entries,
            families,
            family_of,
        }
    });
    &TABLES
}

/// Families a line's chunks are read against at once: the latest met.
const KEPT: usize = 2;

/// What a chunk of 16 bytes holds, one bit a byte (the first byte lowest).
struct Chunk {
    /// Printable ASCII (20 to 7E).
    printable: u32,
    /// Printable bytes from `A` (0x41) up: letters, or may be.
    high: u32,
    /// Lead bytes of the family's characters.
    leads: u32,
    /// Bytes that are neither printable ASCII, nor continuation bytes, nor lead bytes of
    /// the family's characters.
    strangers: u32,
}

/// The [`Chunk`] of the first 16 of `bytes` (which holds 17: a lead byte's second byte is
/// looked at too), for the characters of either of `families`.
#[inline(always)]
fn chunk(bytes: &[u8; 17], families: &[Family; KEPT]) -> Chunk {
    // With no family, the lead byte 0xFF alone: no well-formed input holds it.
    let rectangle = |f: &Family| match f.group == 0 && f.lead == 0 {
        true => (0xFF, 0, f.second, f.second_span),
        false => (f.lead, f.lead_span, f.second, f.second_span),
    };
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SSE2 is part of x86_64. As signed bytes, 80 to BF (continuation bytes) are the
        // ones below -64, and every byte from 80 up is below 0x20.
        // SAFETY: the loads read bytes 0..16 and 1..17 of `bytes`; the rest is arithmetic.
        unsafe {
            let v = _mm_loadu_si128(bytes.as_ptr().cast());
            let next = _mm_loadu_si128(bytes.as_ptr().add(1).cast());
            let printable = _mm_and_si128(
                _mm_cmpgt_epi8(v, _mm_set1_epi8(0x1F)),
                _mm_cmplt_epi8(v, _mm_set1_epi8(0x7F)),
            );
            let high = _mm_and_si128(printable, _mm_cmpgt_epi8(v, _mm_set1_epi8(0x40)));
            let cont = _mm_cmplt_epi8(v, _mm_set1_epi8(-64));
            let within = |x: __m128i, lo: u8, span: u8| {
                let past = _mm_subs_epu8(
                    _mm_sub_epi8(x, _mm_set1_epi8(lo as i8)),
                    _mm_set1_epi8(span as i8),
                );
                _mm_cmpeq_epi8(past, _mm_setzero_si128())
            };
            let leads = families.iter().fold(_mm_setzero_si128(), |leads, f| {
                let (lead, lead_span, second, second_span) = rectangle(f);
                let of = _mm_and_si128(
                    within(v, lead, lead_span),
                    within(next, second, second_span),
                );
                _mm_or_si128(leads, of)
            });
            let known = _mm_or_si128(_mm_or_si128(printable, cont), leads);
            Chunk {
                printable: _mm_movemask_epi8(printable) as u32,
                high: _mm_movemask_epi8(high) as u32,
                leads: _mm_movemask_epi8(leads) as u32,
                strangers: !(_mm_movemask_epi8(known) as u32) & 0xFFFF,
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mask = |p: &dyn Fn(usize) -> bool| (0..16).fold(0u32, |m, i| m | (p(i) as u32) << i);
        let printable = mask(&|i| (0x20..0x7F).contains(&bytes[i]));
        let leads = mask(&|i| {
            families
                .iter()
                .map(rectangle)
                .any(|(lead, lead_span, second, second_span)| {
                    bytes[i].wrapping_sub(lead) <= lead_span
                        && bytes[i + 1].wrapping_sub(second) <= second_span
                })
        });
        let cont = mask(&|i| (0x80..0xC0).contains(&bytes[i]));
        Chunk {
            printable,
            high: mask(&|i| (0x41..0x7F).contains(&bytes[i])),
            leads,
            strangers: !(printable | cont | leads) & 0xFFFF,
        }
    }
}

/// If the 16 `bytes` are all printable ASCII (20 to 7E), whether one is from `A` (0x41)
/// up: a letter, or may be.
#[inline(always)]
fn printable_ascii(bytes: &[u8; 16]) -> Option<bool> {
    const H: u64 = 0x8080_8080_8080_8080;
    const fn ones(b: u8) -> u64 {
        u64::from_ne_bytes([b; 8])
    }
    let mut high = 0;
    for half in bytes.chunks_exact(8) {
        let x = u64::from_ne_bytes(half.try_into().expect("8 bytes"));
        // Below 0x80, adding 0x60 sets the top bit from 0x20 up, adding 1 from 0x7F up,
        // adding 0x3F from 0x41 up, and no sum carries into the next byte.
        let printable = x & H == 0 && (x + ones(0x60)) & H == H && (x + ones(1)) & H == 0;
        if !printable {
            return None;
        }
        high |= (x + ones(0x3F)) & H;
    }
    Some(high != 0)
}

/// What one line holds so far.
#[derive(Clone, Copy, Default)]
struct Line {
    /// The walk must see it.
    look: bool,
    /// It has letters of two script groups.
    mixed: bool,
    /// It has an ASCII letter (or, in a run of printable bytes, a byte from `A` up).
    ascii_letter: bool,
    /// The script group of its first letter with one (0: none yet).
    group: u32,
    /// Non-starters in the current run.
    marks: usize,
}

impl Line {
    /// Whether a word of the line may be one the walk asks about its scripts (if nothing
    /// else sends the line to the walk, [`asks_about_words`] decides).
    fn may_mix(&self) -> bool {
        self.mixed || (self.ascii_letter && self.group != 0 && self.group != LATIN)
    }

    fn join(&mut self, g: u32) {
        if self.group == 0 {
            self.group = g;
        } else if self.group != g {
            self.mixed = true;
        }
    }

    #[inline]
    fn character(&mut self, e: u16) {
        // Most characters: a starter with no leading non-starter, of the line's group (or
        // of none).
        if e & (LOOK | 3 << LEADING_SHIFT | STARTER) == STARTER {
            self.marks = ((e >> TRAILING_SHIFT) & 3) as usize;
            let g = (e & GROUP) as u32;
            if g == self.group || g == 0 || g == BREAK {
                return;
            }
        }
        self.any_character(e);
    }

    fn any_character(&mut self, e: u16) {
        if e & LOOK != 0 {
            self.look = true;
            return;
        }
        self.marks += ((e >> LEADING_SHIFT) & 3) as usize;
        if self.marks > MAX_NON_STARTERS {
            self.look = true;
        }
        if e & STARTER != 0 {
            self.marks = ((e >> TRAILING_SHIFT) & 3) as usize;
        }
        let g = (e & GROUP) as u32;
        if g != 0 && g != BREAK {
            self.join(g);
        }
    }
}

/// Calls `walk` with each stretch of whole lines of `range` (which starts at a line start
/// and ends at one or at the input's end) that the walk must see, in order, neighbouring
/// lines joined. `four_byte`: every character above U+FFFF is looked at (MySQL utf8mb3).
/// Before `well_formed_end`, the scan found no error (in a dialect of the UTF-8 family), so
/// every lead byte there has its continuation bytes, and a chunk of letters of one family
/// is passed over without reading its characters one by one.
pub(super) fn lines_to_walk(
    bytes: &[u8],
    range: Range<usize>,
    four_byte: bool,
    well_formed_end: usize,
    walk: impl FnMut(Range<usize>),
) {
    #[cfg(target_arch = "x86_64")]
    {
        static MODERN: LazyLock<bool> = LazyLock::new(|| {
            std::is_x86_feature_detected!("avx2")
                && std::is_x86_feature_detected!("popcnt")
                && std::is_x86_feature_detected!("lzcnt")
                && std::is_x86_feature_detected!("bmi1")
        });
        if *MODERN {
            // SAFETY: the CPU has the features `lines_on_modern_x86` is compiled for.
            unsafe { lines_on_modern_x86(bytes, range, four_byte, well_formed_end, walk) };
            return;
        }
    }
    lines(bytes, range, four_byte, well_formed_end, walk);
}

/// [`lines_to_walk`] compiled for the x86-64 of the last decade: bit counts and scans in
/// one instruction each (the masks of every chunk are counted and scanned), SSE2 in VEX
/// form.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,lzcnt,bmi1")]
unsafe fn lines_on_modern_x86(
    bytes: &[u8],
    range: Range<usize>,
    four_byte: bool,
    well_formed_end: usize,
    walk: impl FnMut(Range<usize>),
) {
    lines(bytes, range, four_byte, well_formed_end, walk);
}

/// The body of [`lines_to_walk`].
#[inline(always)]
fn lines(
    bytes: &[u8],
    range: Range<usize>,
    four_byte: bool,
    well_formed_end: usize,
    mut walk: impl FnMut(Range<usize>),
) {
    let tables = tables();
    let table = &tables.entries;
    let end = range.end;
    let mut pending: Option<Range<usize>> = None;
    let mut close = |line: Range<usize>, state: &Line| {
        // A line whose only question is its words is read again, word by word: the walk
        // costs several times more.
        let looked_at =
            state.look || (state.may_mix() && asks_about_words(&bytes[line.clone()], table));
        if !looked_at {
            return;
        }
        match &mut pending {
            Some(p) if p.end == line.start => p.end = line.end,
            _ => {
                if let Some(p) = pending.replace(line) {
                    walk(p);
                }
            }
        }
    };
    let mut start = range.start;
    let mut state = Line::default();
    // The families of the line's last characters of one, the latest first.
    let mut families = [Family::default(); KEPT];
    let mut i = range.start;
    while i < end {
        if i + 17 <= end {
            // Sixteen printable ASCII bytes (most of a line of ASCII), at once.
            if let Some(high) = printable_ascii(bytes[i..i + 16].try_into().expect("16 bytes")) {
                state.ascii_letter |= high;
                state.marks = 0;
                i += 16;
                continue;
            }
            let c = chunk(bytes[i..i + 17].try_into().expect("17 bytes"), &families);
            // Up to the first byte that is not printable ASCII, or, where the input is well
            // formed, up to the first that is neither that nor a byte of a character of the
            // current family (that byte begins a character).
            let quiet = if i + 16 <= well_formed_end {
                c.strangers
            } else {
                !c.printable
            };
            let k = quiet.trailing_zeros().min(16) as usize;
            if k > 0 {
                let prefix = (1u32 << k) - 1;
                state.ascii_letter |= c.high & prefix != 0;
                let printable = c.printable & prefix;
                if printable == prefix {
                    state.marks = 0;
                } else {
                    // Characters of the family (whose group is the line's already): the run
                    // of marks since the last ASCII byte grows by at most `leading` each.
                    // A starter among them begins the run again with at most 3 trailing
                    // non-starters; so a run is at most the larger of that and the run
                    // before, plus every leading non-starter. The run before the first
                    // ASCII byte ends there (fewer than 31 fit between two in 16 bytes).
                    let leads = c.leads & prefix;
                    let leading = families.iter().map(|f| f.leading).max().unwrap_or(0);
                    let count = |m: u32| m.count_ones() as usize * leading;
                    state.marks = match printable {
                        0 => state.marks.max(3) + count(leads),
                        p => {
                            let ahead = (1 << p.trailing_zeros()) - 1;
                            let run = state.marks.max(3) + count(leads & ahead);
                            state.look |= run > MAX_NON_STARTERS;
                            3 + count(leads >> (32 - p.leading_zeros()))
                        }
                    };
                    state.look |= state.marks > MAX_NON_STARTERS;
                }
                i += k;
                if k == 16 {
                    continue;
                }
            }
        }
        let b0 = bytes[i];
        if b0 < 0x80 {
            state.marks = 0;
            if b0 == b'\n' {
                close(start..i + 1, &state);
                start = i + 1;
                state = Line::default();
                families = [Family::default(); KEPT];
            } else if b0 < 0x20 && b0 != b'\t' && b0 != b'\r' || b0 == 0x7F {
                state.look = true;
            } else {
                state.ascii_letter |= b0.is_ascii_alphabetic();
            }
            i += 1;
            continue;
        }
        if b0 < 0xC0 && i < well_formed_end {
            // The rest of a character a chunk began.
            i += 1;
            continue;
        }
        // A run of characters that are not ASCII.
        loop {
            let Some((n, v)) = character_at(bytes, i) else {
                state.look = true;
                i += 1;
                break;
            };
            let e = if n == 4 && four_byte {
                LOOK
            } else {
                entry_in(table, v)
            };
            state.character(e);
            // A character of a family: chunks are read against it from now on, its group
            // being the line's (or the line looked at).
            let f = tables.family(bytes[i], bytes[i + 1]);
            i += n;
            if f != Family::default() {
                match families.iter().position(|&kept| kept == f) {
                    Some(k) => families[..=k].rotate_right(1),
                    None => {
                        families.rotate_right(1);
                        families[0] = f;
                        if f.group != 0 {
                            state.join(f.group);
                        }
                    }
                }
                // What follows may be more of the family: back to chunks.
                break;
            }
            if i >= end || bytes[i] < 0x80 {
                break;
            }
        }
    }
    if start < end {
        close(start..end, &state);
    }
    if let Some(p) = pending {
        walk(p);
    }
}

/// Whether `line`, which holds no character a lint looks at (no control, no byte that
/// does not begin a well-formed character, nothing [`quiet`] says `None` for), has a word
/// the walk asks about its scripts: letters of two script groups, or ASCII letters and
/// letters of a group other than Latin. Its words end where the walk's do: at an ASCII
/// byte that is not a letter, a digit or `_`, and at a character that is not part of a
/// word ([`BREAK`]).
fn asks_about_words(line: &[u8], table: &[u16]) -> bool {
    let (mut ascii, mut group) = (false, 0u32);
    let mut i = 0;
    while i < line.len() {
        let b = line[i];
        if b < 0x80 {
            if b.is_ascii_alphabetic() {
                if group != 0 && group != LATIN {
                    return true;
                }
                ascii = true;
            } else if !(b.is_ascii_digit() || b == b'_') {
                (ascii, group) = (false, 0);
            }
            i += 1;
            continue;
        }
        let Some((n, v)) = character_at(line, i) else {
            return true;
        };
        let e = entry_in(table, v);
        match (e & GROUP) as u32 {
            _ if e & LOOK != 0 => return true,
            0 => {}
            BREAK => (ascii, group) = (false, 0),
            g => {
                if (group != 0 && group != g) || (ascii && g != LATIN) {
                    return true;
                }
                group = g;
            }
        }
        i += n;
    }
    false
}

/// The well-formed UTF-8 character (RFC 3629) at `pos`, not ASCII: its length and value.
#[inline(always)]
fn character_at(bytes: &[u8], pos: usize) -> Option<(usize, u32)> {
    let b0 = bytes[pos] as u32;
    let cont = |k: usize| {
        bytes
            .get(pos + k)
            .map(|&b| b as u32)
            .filter(|b| b & 0xC0 == 0x80)
    };
    match b0 {
        0xC2..=0xDF => Some((2, ((b0 & 0x1F) << 6) | (cont(1)? & 0x3F))),
        0xE0..=0xEF => {
            let v = ((b0 & 0x0F) << 12) | ((cont(1)? & 0x3F) << 6) | (cont(2)? & 0x3F);
            (v >= 0x800 && !(0xD800..=0xDFFF).contains(&v)).then_some((3, v))
        }
        0xF0..=0xF4 => {
            let v = ((b0 & 0x07) << 18)
                | ((cont(1)? & 0x3F) << 12)
                | ((cont(2)? & 0x3F) << 6)
                | (cont(3)? & 0x3F);
            (0x1_0000..=0x10_FFFF).contains(&v).then_some((4, v))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stretches handed on, read one character at a time (`false`) or, where the text
    /// is well formed, sixteen bytes at a time.
    /// The same from the build for any x86-64 as from the one for this CPU.
    fn walked_as(text: &[u8], four_byte: bool, chunks: bool) -> Vec<Range<usize>> {
        let (mut out, mut baseline) = (Vec::new(), Vec::new());
        let well_formed_end = if chunks { text.len() } else { 0 };
        lines_to_walk(text, 0..text.len(), four_byte, well_formed_end, |r| {
            out.push(r)
        });
        lines(text, 0..text.len(), four_byte, well_formed_end, |r| {
            baseline.push(r)
        });
        assert_eq!(out, baseline);
        out
    }

    fn walked(text: &[u8], four_byte: bool) -> Vec<Range<usize>> {
        let out = walked_as(text, four_byte, false);
        if std::str::from_utf8(text).is_ok() {
            assert_eq!(out, walked_as(text, four_byte, true));
        }
        out
    }

    #[test]
    fn quiet_lines_are_passed_over_and_neighbours_joined() {
        let text =
            "plain words\nМосква и Петербург\nUSB в Москве\np\u{430}ypal\nа\u{202E}b\nlast\n";
        let at = |s: &str| text.find(s).unwrap();
        // The line with a word of ASCII and Cyrillic letters and the bidi line are one
        // stretch; ASCII and Cyrillic words side by side are not looked at.
        assert_eq!(
            walked(text.as_bytes(), false),
            vec![at("p\u{430}")..at("last")]
        );
    }

    #[test]
    fn what_each_line_is_walked_for() {
        let cases: &[(&[u8], bool, bool)] = &[
            (
                b"ASCII only, long enough for eight at a time\n",
                false,
                false,
            ),
            ("naïve Straße café\n".as_bytes(), false, false),
            ("中文字符、ひらがな。カタカナ\n".as_bytes(), false, false),
            // Words, not lines, that mix scripts.
            ("Ελληνικά και Москва\n".as_bytes(), false, false),
            ("ΕλληνικάМосква\n".as_bytes(), false, true),
            ("USB в Москве\n".as_bytes(), false, false),
            ("USBв Москве\n".as_bytes(), false, true),
            ("в Москве USB\n".as_bytes(), false, false),
            ("в Москве_USB\n".as_bytes(), false, true),
            ("в Москве-USB\n".as_bytes(), false, false),
            ("в Москве\u{A0}USB\n".as_bytes(), false, false),
            ("в Москве\u{2014}USB\n".as_bytes(), false, false),
            ("в Москве2USB\n".as_bytes(), false, true),
            ("Straßeв\n".as_bytes(), false, true),
            ("中文。USB\n".as_bytes(), false, false),
            ("中文USB\n".as_bytes(), false, true),
            ("в Москве\u{301}USB\n".as_bytes(), false, true),
            ("2024 год\n".as_bytes(), false, false),
            ("emoji 😀 here\n".as_bytes(), false, false),
            ("emoji 😀 here\n".as_bytes(), true, true),
            ("a\u{200B}b\n".as_bytes(), false, true),
            ("\u{1F469}\u{200D}\u{1F4BB}\n".as_bytes(), false, true),
            (b"tab\tand CR\r\n", false, false),
            (b"bell \x07 here\n", false, true),
            (b"overlong \xC0\xAF slash\n", false, true),
            (b"surrogate \xED\xA0\x80\n", false, true),
            ("\u{FDD0}\n".as_bytes(), false, true),
            ("\u{85}\n".as_bytes(), false, true),
        ];
        for &(text, four_byte, want) in cases {
            let got = !walked(text, four_byte).is_empty();
            assert_eq!(got, want, "{:?}", String::from_utf8_lossy(text));
        }
    }

    #[test]
    fn words_are_read_again_only_where_a_line_may_mix() {
        let table = &tables().entries;
        let cases: &[(&str, bool)] = &[
            ("USB в Москве", false),
            ("USBв", true),
            ("вUSB", true),
            ("в_USB", true),
            ("в USB", false),
            ("ΕλληνικάМосква", true),
            ("Ελληνικά Москва", false),
            ("Straße", false),
            ("Straßeж", true),
            ("中文、USB", false),
            ("中文USB", true),
            ("ひらがな中文", false),
            ("한국어中文", true),
            ("2024год", false),
        ];
        for &(text, want) in cases {
            assert_eq!(asks_about_words(text.as_bytes(), table), want, "{text:?}");
        }
        // A long line of words side by side is walked only for the one word that mixes.
        let line = format!("{}pаypal\n", "Москва USB ".repeat(40));
        assert_eq!(walked(line.as_bytes(), false), vec![0..line.len()]);
        let clean = "Москва USB ".repeat(40) + "\n";
        assert!(walked(clean.as_bytes(), false).is_empty());
    }

    #[test]
    fn runs_of_marks_are_walked_past_the_stream_safe_limit() {
        // a + 30 marks is 30 non-starters; é (one trailing) + 30 is 31; U+0F73 is two.
        let thirty = format!("a{}\n", "\u{301}".repeat(30));
        let e_thirty = format!("\u{E9}{}\n", "\u{301}".repeat(30));
        let f73 = format!("x{}\u{301}\n", "\u{F73}".repeat(15));
        assert!(walked_as(thirty.as_bytes(), false, false).is_empty());
        for chunks in [false, true] {
            assert_eq!(walked_as(e_thirty.as_bytes(), false, chunks).len(), 1);
            assert_eq!(walked_as(f73.as_bytes(), false, chunks).len(), 1);
        }
        // Sixteen bytes at a time, a run of marks is counted from above (a chunk's starter
        // may leave up to 3): 30 marks after `a` are handed on, harmlessly; 24 are not.
        assert_eq!(walked_as(thirty.as_bytes(), false, true).len(), 1);
        let twenty_four = format!("a{}\n", "\u{301}".repeat(24));
        assert!(walked_as(twenty_four.as_bytes(), false, true).is_empty());
    }

    /// The first 17 bytes of `text`, padded with spaces.
    fn seventeen(text: &str) -> [u8; 17] {
        let mut out = [b' '; 17];
        for (o, b) in out.iter_mut().zip(text.bytes()) {
            *o = b;
        }
        out
    }

    #[test]
    fn sixteen_printable_ascii_bytes_at_once() {
        let sixteen = |text: &str| -> [u8; 16] { text.as_bytes().try_into().unwrap() };
        assert_eq!(printable_ascii(&sixteen(" !\"#0123456789@?")), Some(false));
        assert_eq!(printable_ascii(&sixteen(" !\"#0123456789A?")), Some(true));
        assert_eq!(printable_ascii(&sixteen("0123456789012345")), Some(false));
        assert_eq!(printable_ascii(&sixteen("01234567890123z5")), Some(true));
        // Each byte that is not printable ASCII, at each place, in either half.
        for bad in [0x00u8, 0x09, b'\n', 0x1F, 0x7F, 0x80, 0xC3, 0xFF] {
            for at in 0..16 {
                let mut w = sixteen("0123456789abcdef");
                w[at] = bad;
                assert_eq!(printable_ascii(&w), None, "{bad:#x} at {at}");
            }
        }
        // Every byte alone among spaces: as the definition says.
        for b in 0..=255u8 {
            let mut w = [b' '; 16];
            w[7] = b;
            let expected = (0x20..0x7F).contains(&b).then_some(b >= 0x41);
            assert_eq!(printable_ascii(&w), expected, "{b:#x}");
        }
    }

    #[test]
    fn a_chunk_of_sixteen_bytes() {
        let t = tables();
        let none = Family::default();
        let c = chunk(&seventeen(" ~azAZ09 !@#$%^&"), &[none, none]);
        assert_eq!((c.printable, c.high, c.strangers), (0xFFFF, 0x403E, 0));
        for bad in [0x00u8, 0x1F, 0x7F, 0xC0, 0xF8, b'\n'] {
            for at in 0..16 {
                let mut w = seventeen("0123456789abcdef");
                w[at] = bad;
                let c = chunk(&w, &[none, none]);
                assert_eq!(c.printable, 0xFFFF & !(1 << at), "{bad:#x} at {at}");
                assert_eq!(c.strangers, 1 << at, "{bad:#x} at {at}");
            }
        }
        // Cyrillic from D0 to D3 is one family, its combining marks (D2 83 to D2 89) with
        // it; D4 holds Armenian too.
        let cyrillic = t.family(0xD0, 0x90);
        assert_eq!(
            (
                cyrillic.lead,
                cyrillic.lead_span,
                cyrillic.group,
                cyrillic.leading
            ),
            (0xD0, 3, 3, 1)
        );
        assert_eq!(t.family(0xD2, 0x83), cyrillic);
        assert_ne!(t.family(0xD4, 0xB0), cyrillic);
        let c = chunk(&seventeen("Москва ж!"), &[cyrillic, none]);
        assert_eq!((c.strangers, c.leads.count_ones()), (0, 7));
        let mut w = seventeen("Москва ж!");
        w[15] = 0xD4;
        assert_eq!(chunk(&w, &[cyrillic, none]).strangers, 1 << 15);
        // Latin letters and Han characters are families of their own.
        let latin = t.family(0xC3, 0xA9);
        assert_eq!((latin.lead, latin.group), (0xC3, 1));
        assert_eq!(
            chunk(&seventeen("Straße, cafés "), &[latin, none]).strangers,
            0
        );
        assert_eq!(
            chunk(&seventeen("Straße, cafés "), &[cyrillic, none]).strangers,
            1 << 4 | 1 << 12
        );
        let han = t.family(0xE4, 0xB8);
        assert_eq!((han.lead, han.lead_span, han.group), (0xE4, 5, 4));
        assert_eq!(chunk(&seventeen("中文字符 abc"), &[han, none]).strangers, 0);
        // Devanagari by its second byte, with the virama (one leading non-starter).
        let deva = t.family(0xE0, 0xA4);
        assert_eq!(
            (deva.lead, deva.lead_span, deva.group, deva.leading),
            (0xE0, 0, 0x109, 1)
        );
        assert_eq!(chunk(&seventeen("हिन्दी है"), &[deva, none]).strangers, 0);
        // The line's last two families are read at once: kana (E3 81 to E3 83) and Han
        // in Japanese, either first; without the kana, its characters are strangers.
        let kana = t.family(0xE3, 0x81);
        assert_eq!((kana.lead, kana.group), (0xE3, 4));
        let japanese = seventeen("漢字とかな");
        assert_eq!(chunk(&japanese, &[kana, han]).strangers, 0);
        assert_eq!(chunk(&japanese, &[han, kana]).strangers, 0);
        assert_eq!(
            chunk(&japanese, &[han, none]).strangers,
            1 << 6 | 1 << 9 | 1 << 12
        );
        assert_eq!(chunk(&japanese, &[han, kana]).leads.count_ones(), 5);
        // The bidi controls and joiners are in no family.
        assert_eq!(t.family(0xE2, 0x80), Family::default());
        assert_eq!(t.family(0xD8, 0x9C), Family::default());
    }
}

#[cfg(test)]
mod properties {
    use proptest::prelude::*;

    use super::super::checks::Walk;
    use super::super::{Lints, Target};
    use super::lines_to_walk;
    use crate::decode::Dialect;

    /// Letters of the families and of other scripts, ASCII words, and what the lints
    /// look for, in pieces long and short (so that chunks of 16 bytes end anywhere).
    const PIECES: &[&str] = &[
        "word ",
        "data_1",
        "naïve Straße café",
        "Москва и ёж",
        "Ελληνικά",
        "עברית",
        "العربية",
        "हिन्दी",
        "中文字符",
        "、。",
        "ひらがなカタカナ",
        "한국어",
        "Tiếng Việt",
        "«»",
        "—",
        "…",
        " ",
        ", ",
        "\n",
        "\r\n",
        "\t",
        "x",
        "Ab",
        "\u{301}",
        "\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}\u{307}\u{308}",
        "\u{F73}",
        "\u{E9}",
        "\u{1D6}",
        "\u{202E}",
        "\u{200D}",
        "\u{200B}",
        "\u{FE0F}",
        "\u{1F600}",
        "\u{1F469}\u{200D}\u{1F4BB}",
        "\u{E0068}",
        "\u{FDD0}",
        "\u{85}",
        "\u{A0}",
        "\u{3000}",
        "\u{2028}",
        "\u{10400}",
        "\u{20000}",
        "\0",
        "\u{7}",
        "\u{7F}",
        "p\u{430}ypal",
        "\u{915}\u{951}\u{951}\u{951}\u{951}\u{951}\u{951}\u{951}\u{951}",
        "\u{952}\u{952}\u{952}",
        "\u{483}\u{483}\u{483}\u{483}",
        "\u{436}\u{483}",
        "\u{441}\u{43E}\u{440}",
        "\u{D7}",
        "ɐ",
        "ʼ",
    ];

    /// The lines of `bytes` (each with its line feed).
    fn lines(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
        let mut out = Vec::new();
        let mut start = 0;
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                out.push(start..i + 1);
                start = i + 1;
            }
        }
        if start < bytes.len() {
            out.push(start..bytes.len());
        }
        out
    }

    /// Pieces no lint looks at alone: letters of one script or of two, marks in runs.
    const QUIET: &[&str] = &[
        " ",
        "\n",
        "ab",
        "Москва",
        "中文",
        "ひらがな",
        "हिन्दी",
        "עברית",
        "العربية",
        "ไทย",
        "\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}\u{307}\u{308}",
        "\u{E9}",
        "\u{915}\u{951}\u{951}\u{951}\u{951}\u{951}\u{951}\u{951}\u{951}",
        "\u{436}\u{483}\u{483}\u{483}",
        "\u{5D0}\u{5B8}\u{5B8}\u{5B8}",
        "\u{628}\u{64E}\u{64E}\u{64E}\u{64E}",
        "\u{E01}\u{E48}\u{E48}",
        "\u{F73}",
    ];

    /// The first line of `bytes` the sieve passes over in which a walk with the full look
    /// finds a lint or a word that mixes scripts, with what it found.
    fn passed_over_but_found(
        bytes: &[u8],
        lints: &Lints,
        four_byte: bool,
        well_formed_end: usize,
    ) -> Option<(std::ops::Range<usize>, Vec<crate::lint::Lint>)> {
        let mut walked = vec![false; bytes.len() + 1];
        lines_to_walk(bytes, 0..bytes.len(), four_byte, well_formed_end, |r| {
            for w in &mut walked[r] {
                *w = true;
            }
        });
        // The build for any x86-64 hands on the same lines.
        let mut baseline = vec![false; bytes.len() + 1];
        super::lines(bytes, 0..bytes.len(), four_byte, well_formed_end, |r| {
            for w in &mut baseline[r] {
                *w = true;
            }
        });
        assert_eq!(walked, baseline);
        lines(bytes).into_iter().find_map(|line| {
            if walked[line.start] {
                return None;
            }
            let mut walk = Walk::new(bytes, Dialect::Utf8, lints, line.start, true);
            walk.full_look_only();
            walk.walk_to(line.end);
            (!walk.out.is_empty() || !walk.candidates.is_empty()).then_some((line, walk.out))
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(600))]
        /// Lines of quiet pieces (so that only runs of marks and mixed scripts can send them
        /// to the walk): what the sieve passes over, a full walk finds nothing in.
        #[test]
        fn a_quiet_line_passed_over_holds_nothing_the_walk_finds(
            picks in proptest::collection::vec((0usize..QUIET.len(), 1usize..7), 0..40),
        ) {
            let text: String = picks.iter().map(|&(i, n)| QUIET[i].repeat(n)).collect();
            let bytes = text.as_bytes();
            let lints = Lints { targets: vec![Target::Xml10], security: true };
            for well_formed_end in [0, bytes.len()] {
                let found = passed_over_but_found(bytes, &lints, false, well_formed_end);
                prop_assert!(found.is_none(), "passed over: {:?}", found);
            }
        }

        /// A line the sieve passes over is one where the walk, giving every character the
        /// full look, finds no lint and no word that mixes scripts; whether the input is
        /// known to be well formed or not.
        #[test]
        fn a_line_passed_over_holds_nothing_the_walk_finds(
            picks in proptest::collection::vec((0usize..PIECES.len(), 1usize..7), 0..100),
            bad in proptest::option::weighted(0.2, (0usize..400, proptest::sample::select(vec![0x80u8, 0xC0, 0xED, 0xF8, 0xFF]))),
            four_byte in any::<bool>(),
        ) {
            // Each piece repeated up to six times: runs of marks past the limit, long words.
            let mut bytes: Vec<u8> = picks
                .iter()
                .flat_map(|&(i, n)| PIECES[i].repeat(n).into_bytes())
                .collect();
            if let Some((at, b)) = bad {
                let at = at.min(bytes.len());
                bytes.insert(at, b);
            }
            let well_formed = std::str::from_utf8(&bytes).is_ok();
            let ends: Vec<usize> = if well_formed { vec![0, bytes.len()] } else { vec![0] };
            let lints = Lints { targets: if four_byte { Target::ALL.to_vec() } else { vec![Target::Xml10, Target::Json] }, security: true };
            for well_formed_end in ends {
                let found = passed_over_but_found(&bytes, &lints, four_byte, well_formed_end);
                prop_assert!(found.is_none(), "passed over: {:?}", found);
            }
        }
    }
}
