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
//!   letters of two groups, or with ASCII letters and another group's where an ASCII
//!   letter, digit or `_` stands next to a byte that is not ASCII ([`ascii_meets_other`]),
//!   is read again word by word ([`asks_about_words`]), its words ending where the walk's
//!   do, so that a Russian sentence naming "USB" in Latin letters is not walked. Reading
//!   again, a character is not decoded where every character that begins with its two
//!   bytes has the same entry ([`pair_words`]: all of two bytes, and Han, kana, Hangul,
//!   most rows of the other scripts).
//!
//! Once a character of a line is looked at, the rest of the line is not read (the line goes
//! to the walk whatever it holds): the sieve goes on from its line feed.
//!
//! Every other line holds no lint and no word that mixes scripts, so the survey finds what
//! a walk of the whole segment finds (this module's proptest holds each line passed over
//! to a walk with the full look; tests/lint.rs holds the survey to one walk over random
//! cuts).
//!
//! Sixty-four bytes at a time ([`WIDE`]; four SSE2 loads, one bit a byte), the sieve passes
//! over printable ASCII, tabs, carriage returns and line feeds (closing each line it ends)
//! and, where the scan found the input well formed, the characters of the last [`KEPT`]
//! (two) [`Family`]s met (kana and Han, Han and CJK punctuation): a family is the
//! characters whose first two bytes fall in one rectangle of lead and second bytes, all
//! quiet, letters of one script group and the non-letters among them (Latin `C3`–`C8` with
//! `×` and `÷`, Cyrillic `D0`–`D3`, Devanagari `E0 A4`–`E0 A5`, kana, Han `E4`–`E9`, Hangul
//! `EB`–`EC`, ..., found from the table, not listed by hand), counting the run of marks
//! they may add from above (where that count passes the stream-safe limit, the line's runs
//! are counted again a character at a time before it is handed on:
//! [`marks_pass_the_limit`]). The families are kept from line to line; a line joins the
//! group of each family whose characters a chunk passes over in it. Anything else is read
//! one character at a time. On an x86-64 with AVX2, popcnt, lzcnt and BMI1 (asked at run
//! time) the same code runs compiled for them: the masks are counted and scanned in one
//! instruction each, and the chunks of plain ASCII that follow one are read in two 32-byte
//! vectors ([`quiet_ascii`]). [`Chunk::of_ascii_portable`] and
//! [`Chunk::of_families_portable`] are the masks a byte at a time, for other CPUs, and the
//! property the vector code is tested against.
//!
//! On an x86-64 with AVX-512 VBMI and VBMI2, [`blocks`] reads every 64 bytes of any script
//! at once first, and hands this sieve only the lines where it finds something.

use std::ops::Range;
use std::sync::LazyLock;

use super::checks::{
    has_variants, in_emoji_sequence, is_emoji_like, is_selector, is_virama, joins, joins_cursively,
    quiet, space_in_place, tag_sequence_len, LATIN, MAX_NON_STARTERS, ZERO_WIDTH_SPACE,
};

mod blocks;

/// A table entry for a character some lint looks at.
const LOOK: u16 = 0x8000;
/// The entry of a character of an emoji sequence ([`in_emoji_sequence`]: a joiner, a
/// variation selector, a tag character, the black flag) and of the zero-width space:
/// looked at, but only its neighbours say whether it is a lint, so a line where nothing else is looked at is read
/// again ([`sequences_are_quiet`]) before it is handed on.
const SEQUENCE: u16 = LOOK | 1;
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
pub(super) fn entry(v: u32) -> u16 {
    if in_emoji_sequence(v) || v == ZERO_WIDTH_SPACE {
        return SEQUENCE;
    }
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

/// For a code point of the BMP, its script group and the non-starters its decomposition
/// ends with (at most 3), if it is a letter no lint looks at: part of a word and visible,
/// a starter whose decomposition begins with one (so not a mark), quiet
/// ([`quiet`]); what the walk's table of plain letters holds (`checks::plain`).
pub(super) fn plain_letter(v: u32) -> Option<(u32, usize)> {
    let e = *tables().entries.get(v as usize)?;
    let g = (e & GROUP) as u32;
    let letter = e & (LOOK | STARTER | 3 << LEADING_SHIFT) == STARTER && g != BREAK;
    letter.then_some((g, ((e >> TRAILING_SHIFT) & 3) as usize))
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
/// them) and letters of one script `group` (or of none) and non-letters among them (a chunk
/// that passes over one joins the line to `group`: at worst the line is read again word by
/// word), with at most `leading` leading non-starters each. A chunk of characters of two
/// families and printable ASCII is passed over at once. The families are found from the
/// table of entries, not listed by hand: Latin `C3`–`C8`, Greek `CE`–`CF`, Cyrillic
/// `D0`–`D1`, Hebrew and Arabic letters, Devanagari, the other Indic scripts and Thai by
/// their second byte, kana `E3 81`–`E3 83`, Han `E4`–`E9`, Hangul `EB`–`EC`, ...
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Family {
    lead: u8,
    lead_span: u8,
    second: u8,
    second_span: u8,
    group: u32,
    leading: usize,
}

impl Family {
    /// Its lead bytes `lead..=lead + lead_span` and second bytes: for no family, the lead
    /// byte 0xFF alone, which no well-formed input holds.
    #[inline(always)]
    fn rectangle(&self) -> (u8, u8, u8, u8) {
        match self.group == 0 && self.lead == 0 {
            true => (0xFF, 0, self.second, self.second_span),
            false => (self.lead, self.lead_span, self.second, self.second_span),
        }
    }
}

/// The sieve's tables, made once: the entries expanded from their runs (`tables.rs`), the
/// families found from them.
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
        let entries = super::tables::entries();
        // The group and the most leading non-starters of the characters that begin with
        // `lead` and `second`, if all are quiet and of one group (or of none).
        let pure = |lead: u32, second: u32| -> Option<(u32, usize)> {
            let (mut group, mut leading) = (0, 0);
            for &e in &entries[cell(lead, second)?] {
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
            Some((group, leading))
        };
        // Each cell asked once: a run may look at a cell more than once.
        let cells: Vec<Option<(u32, usize)>> = (0xC2..=0xEF)
            .flat_map(|lead| (0x80..=0xBF).map(move |second| pure(lead, second)))
            .collect();
        let pure = |lead: u32, second: u32| cells[((lead - 0xC2) * 64 + second - 0x80) as usize];
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
                // The run goes on over cells of its group, and over cells of non-letters
                // between two of them (`×` and `÷` among the Latin letters of `C3`): a line
                // where a chunk passes over one of those joins the group, and is read again
                // word by word if that mixes it ([`asks_about_words`]).
                let mut last = second;
                while last < 0xBF {
                    let (mut next, mut between) = (last + 1, leading);
                    while let (true, Some((0, l))) = (group != 0 && next < 0xBF, pure(lead, next)) {
                        between = between.max(l);
                        next += 1;
                    }
                    match pure(lead, next) {
                        Some((g, l)) if g == group => {
                            leading = between.max(l);
                            last = next;
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

/// The code points of the characters whose first two bytes are `lead` and `second` (one
/// for a lead byte of two, 64 for one of three), as indices of the sieve's table; `None`
/// where no character begins so (a lead byte of four or none, `E0` before `A0`: overlong
/// forms, `ED` from `A0`: surrogates). The cells the families and [`pair_words`] are made of.
fn cell(lead: u32, second: u32) -> Option<Range<usize>> {
    let (first, count) = match lead {
        0xC2..=0xDF => (((lead & 0x1F) << 6) | (second & 0x3F), 1),
        0xE0..=0xEF => (((lead & 0x0F) << 12) | ((second & 0x3F) << 6), 64),
        _ => return None,
    };
    if (lead == 0xE0 && second < 0xA0) || (lead == 0xED && second >= 0xA0) {
        return None;
    }
    Some(first as usize..(first + count) as usize)
}

/// For each lead byte from `C0` to `EF` and second byte (at the place `family_of` keeps
/// theirs): the [`LOOK`] and [`GROUP`] bits of the entry of every character that begins
/// with them, where all have the same ([`MIXED_PAIR`] where not, or where none is well
/// formed), so that [`asks_about_words`] finds a word's scripts without decoding its
/// characters. Made when first asked (for a line that may mix scripts), not at every start.
fn pair_words() -> &'static [u16] {
    static PAIRS: LazyLock<Vec<u16>> = LazyLock::new(|| {
        let entries = &tables().entries;
        let mut pair_words = vec![MIXED_PAIR; 48 * 64];
        for lead in 0xC2u32..=0xEF {
            for second in 0x80u32..=0xBF {
                let Some(cell) = cell(lead, second) else {
                    continue;
                };
                let mut words = entries[cell].iter().map(|&e| e & (LOOK | GROUP));
                let shared = words.next().filter(|&w| words.all(|o| o == w));
                pair_words[((lead - 0xC0) * 64 + second - 0x80) as usize] =
                    shared.unwrap_or(MIXED_PAIR);
            }
        }
        pair_words
    });
    &PAIRS
}

/// [`pair_words`] of the first two bytes of characters whose entries differ.
const MIXED_PAIR: u16 = u16::MAX;

/// The mask of the bytes `0..WIDE` of a chunk for which `p` holds, one bit a byte.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn bits(p: impl Fn(usize) -> bool) -> u64 {
    (0..WIDE).fold(0, |m, i| m | (p(i) as u64) << i)
}

/// Families the chunks are read against at once: the latest met.
const KEPT: usize = 2;

/// Bytes read at once.
const WIDE: usize = 64;

/// What a chunk of [`WIDE`] bytes holds, one bit a byte (the first byte lowest).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Chunk {
    /// Printable ASCII (20 to 7E).
    printable: u64,
    /// Printable bytes from `A` (0x41) up: letters, or may be.
    high: u64,
    /// Line feeds.
    feeds: u64,
    /// Tabs and carriage returns: the ASCII controls no lint looks at, besides line feeds.
    blanks: u64,
    /// Continuation bytes (80 to BF); only filled in by [`Chunk::of_families`].
    cont: u64,
    /// Lead bytes of the characters of each family; only filled in by
    /// [`Chunk::of_families`].
    leads: [u64; KEPT],
}

impl Chunk {
    /// The ASCII masks of the first [`WIDE`] of `bytes`.
    #[inline(always)]
    fn of_ascii(bytes: &[u8; WIDE + 1]) -> Chunk {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::*;
            let mut c = Chunk::default();
            for q in 0..WIDE / 16 {
                // SSE2 is part of x86_64. As signed bytes, every byte from 80 up is below
                // 0x20. SAFETY: the load reads bytes 16q..16q + 16 of `bytes`.
                unsafe {
                    let v = _mm_loadu_si128(bytes.as_ptr().add(16 * q).cast());
                    let is = |b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
                    let printable = _mm_and_si128(
                        _mm_cmpgt_epi8(v, _mm_set1_epi8(0x1F)),
                        _mm_cmplt_epi8(v, _mm_set1_epi8(0x7F)),
                    );
                    let high = _mm_and_si128(printable, _mm_cmpgt_epi8(v, _mm_set1_epi8(0x40)));
                    let blanks = _mm_or_si128(is(b'\t'), is(b'\r'));
                    let mask = |x: __m128i| (_mm_movemask_epi8(x) as u32 as u64) << (16 * q);
                    c.printable |= mask(printable);
                    c.high |= mask(high);
                    c.feeds |= mask(is(b'\n'));
                    c.blanks |= mask(blanks);
                }
            }
            c
        }
        #[cfg(not(target_arch = "x86_64"))]
        Chunk::of_ascii_portable(bytes)
    }

    /// Fills in the continuation bytes and the lead bytes of the characters of each of
    /// `families` (a lead byte's second byte is the next of `bytes`).
    #[inline(always)]
    fn of_families(&mut self, bytes: &[u8; WIDE + 1], families: &[Family; KEPT]) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::*;
            for q in 0..WIDE / 16 {
                // As signed bytes, 80 to BF (continuation bytes) are the ones below -64.
                // SAFETY: the loads read bytes 16q..16q + 17 of `bytes`.
                unsafe {
                    let v = _mm_loadu_si128(bytes.as_ptr().add(16 * q).cast());
                    let next = _mm_loadu_si128(bytes.as_ptr().add(16 * q + 1).cast());
                    let within = |x: __m128i, lo: u8, span: u8| {
                        let past = _mm_subs_epu8(
                            _mm_sub_epi8(x, _mm_set1_epi8(lo as i8)),
                            _mm_set1_epi8(span as i8),
                        );
                        _mm_cmpeq_epi8(past, _mm_setzero_si128())
                    };
                    let mask = |x: __m128i| (_mm_movemask_epi8(x) as u32 as u64) << (16 * q);
                    self.cont |= mask(_mm_cmplt_epi8(v, _mm_set1_epi8(-64)));
                    for (leads, f) in self.leads.iter_mut().zip(families) {
                        let (lead, lead_span, second, second_span) = f.rectangle();
                        *leads |= mask(_mm_and_si128(
                            within(v, lead, lead_span),
                            within(next, second, second_span),
                        ));
                    }
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        self.of_families_portable(bytes, families);
    }

    /// The bytes the chunk passes over, as far as it was filled in: ASCII a line may hold
    /// without a look (line feeds among it), continuation bytes, the families' lead bytes.
    fn known(&self) -> u64 {
        let ascii = self.printable | self.blanks | self.feeds;
        self.leads
            .iter()
            .fold(ascii | self.cont, |known, leads| known | leads)
    }

    /// [`Chunk::of_ascii`] a byte at a time, for any CPU.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    fn of_ascii_portable(bytes: &[u8; WIDE + 1]) -> Chunk {
        let mask = |p: fn(u8) -> bool| bits(|i| p(bytes[i]));
        Chunk {
            printable: mask(|b| (0x20..0x7F).contains(&b)),
            high: mask(|b| (0x41..0x7F).contains(&b)),
            feeds: mask(|b| b == b'\n'),
            blanks: mask(|b| b == b'\t' || b == b'\r'),
            ..Chunk::default()
        }
    }

    /// [`Chunk::of_families`] a byte at a time, for any CPU.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    fn of_families_portable(&mut self, bytes: &[u8; WIDE + 1], families: &[Family; KEPT]) {
        self.cont = bits(|i| (0x80..0xC0).contains(&bytes[i]));
        for (leads, f) in self.leads.iter_mut().zip(families) {
            let (lead, lead_span, second, second_span) = f.rectangle();
            *leads = bits(|i| {
                bytes[i].wrapping_sub(lead) <= lead_span
                    && bytes[i + 1].wrapping_sub(second) <= second_span
            });
        }
    }
}
/// What one line holds so far.
#[derive(Clone, Copy, Default)]
struct Line {
    /// The walk must see it.
    look: bool,
    /// A chunk's count of its marks from above passed the stream-safe limit: the line's
    /// runs of marks are counted again one character at a time ([`marks_pass_the_limit`]).
    many_marks: bool,
    /// It holds a character of an emoji sequence ([`SEQUENCE`]), and so is read again
    /// ([`sequences_are_quiet`]) unless something else is looked at.
    sequence: bool,
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
    /// Whether the line, however much ASCII that needs no look follows, is passed over
    /// when it ends (nothing sends it on, no character of an emoji sequence waits to be
    /// read again, and its letters are Latin or none).
    #[inline(always)]
    fn stays_quiet_in_ascii(&self) -> bool {
        !(self.look || self.many_marks || self.mixed || self.sequence)
            && (self.group == 0 || self.group == LATIN)
    }

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

    /// Passes over the bytes `piece` of a [`Chunk`] (bits in a row, no line feed among
    /// them): printable ASCII, tabs and carriage returns, and characters of `families`.
    #[inline(always)]
    fn pass(&mut self, piece: u64, c: &Chunk, families: &[Family; KEPT]) {
        self.ascii_letter |= c.high & piece != 0;
        let ascii = (c.printable | c.blanks) & piece;
        if ascii == piece {
            self.marks = 0;
            return;
        }
        // Characters of the families: the line joins the group of each met. The run of
        // marks since the last ASCII byte grows by at most `leading` with each. A starter
        // among them begins the run again with at most 3 trailing non-starters; so a run
        // is at most the larger of that and the run before, plus every leading
        // non-starter.
        let (mut leads, mut leading) = (0, 0);
        for (f, l) in families.iter().zip(c.leads) {
            if l & piece != 0 {
                leads |= l & piece;
                leading = leading.max(f.leading);
                if f.group != 0 {
                    self.join(f.group);
                }
            }
        }
        let count = |m: u64| m.count_ones() as usize * leading;
        self.marks = match ascii {
            0 => self.marks.max(3) + count(leads),
            a => {
                // The run before the first ASCII byte, those between two, the one after the
                // last.
                let ahead = (1 << a.trailing_zeros()) - 1;
                let after = u64::MAX << (63 - a.leading_zeros()) << 1;
                let run = self.marks.max(3) + count(leads & ahead);
                let between = leads & !ahead & !after;
                self.many_marks |= run > MAX_NON_STARTERS
                    || 3 + count(between) > MAX_NON_STARTERS && longest_between(a, between, count);
                3 + count(leads & after)
            }
        };
        self.many_marks |= self.marks > MAX_NON_STARTERS;
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
            // A character of an emoji sequence is a starter with no decomposition: it ends
            // a run of marks.
            if e == SEQUENCE {
                self.sequence = true;
                self.marks = 0;
            } else {
                self.look = true;
            }
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

/// If the [`WIDE`] `bytes` are all ASCII a line may hold without a look (printable, tabs,
/// carriage returns, line feeds): their line feeds and printable bytes from `A` up, one
/// bit a byte, as [`Chunk::of_ascii`] finds them; read with AVX2 where `modern` says the
/// CPU has it (the caller is compiled for it), else as [`Chunk::of_ascii`] reads.
#[inline(always)]
fn quiet_ascii(bytes: &[u8; WIDE], modern: bool) -> Option<(u64, u64)> {
    #[cfg(target_arch = "x86_64")]
    if modern {
        // SAFETY: `modern` only where the CPU has AVX2.
        return unsafe { quiet_ascii_avx2(bytes) };
    }
    let _ = modern;
    let mut ahead = [0; WIDE + 1];
    ahead[..WIDE].copy_from_slice(bytes);
    let c = Chunk::of_ascii(&ahead);
    (c.printable | c.blanks | c.feeds == u64::MAX).then_some((c.feeds, c.high))
}

/// [`quiet_ascii`] in 32-byte vectors: whether all are quiet first, the masks then.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn quiet_ascii_avx2(bytes: &[u8; WIDE]) -> Option<(u64, u64)> {
    use std::arch::x86_64::*;
    // SAFETY: the loads read bytes 0..32 and 32..64 of `bytes`.
    let (lo, hi) = unsafe {
        (
            _mm256_loadu_si256(bytes.as_ptr().cast()),
            _mm256_loadu_si256(bytes.as_ptr().add(32).cast()),
        )
    };
    let is = |v: __m256i, b: u8| _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b as i8));
    // As signed bytes, every byte from 80 up is below 0x20.
    let printable =
        |v: __m256i| _mm256_andnot_si256(is(v, 0x7F), _mm256_cmpgt_epi8(v, _mm256_set1_epi8(0x1F)));
    let quiet = |v: __m256i| {
        _mm256_or_si256(
            _mm256_or_si256(printable(v), is(v, b'\n')),
            _mm256_or_si256(is(v, b'\t'), is(v, b'\r')),
        )
    };
    let mask = |lo: __m256i, hi: __m256i| {
        (_mm256_movemask_epi8(lo) as u32 as u64) | (_mm256_movemask_epi8(hi) as u32 as u64) << 32
    };
    if mask(quiet(lo), quiet(hi)) != u64::MAX {
        return None;
    }
    let high =
        |v: __m256i| _mm256_andnot_si256(is(v, 0x7F), _mm256_cmpgt_epi8(v, _mm256_set1_epi8(0x40)));
    Some((mask(is(lo, b'\n'), is(hi, b'\n')), mask(high(lo), high(hi))))
}

/// Whether a run of marks between two of the ASCII bytes `ascii` may pass the stream-safe
/// limit: it starts from at most 3 (a starter's trailing non-starters) and grows by
/// `count` of the lead bytes `leads` between the two. Asked only when all of `leads`
/// together could pass it.
#[cold]
fn longest_between(ascii: u64, leads: u64, count: impl Fn(u64) -> usize) -> bool {
    let mut rest = ascii;
    while rest != 0 {
        let from = rest.trailing_zeros();
        rest &= rest - 1;
        if rest == 0 {
            break;
        }
        let to = rest.trailing_zeros();
        let between = leads & (u64::MAX << from) & !(u64::MAX << to);
        if 3 + count(between) > MAX_NON_STARTERS {
            return true;
        }
    }
    false
}

/// Calls `walk` with each stretch of whole lines of `range` (which starts at a line start
/// and ends at one or at the input's end) that the walk must see, in order, neighbouring
/// lines joined. `four_byte`: every character above U+FFFF is looked at (MySQL utf8mb3, and
/// the dialects that do not read a four-byte sequence as UTF-8 does).
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
    if blocks::available() {
        // SAFETY: the CPU has what `blocks::available` asks for.
        unsafe { blocks::lines_by_blocks(bytes, range, four_byte, well_formed_end, walk) };
        return;
    }
    lines_a_character_at_a_time(bytes, range, four_byte, well_formed_end, walk);
}

/// [`lines_to_walk`] without the blocks of [`blocks`]: compiled for AVX2, popcnt, lzcnt
/// and BMI1 where the CPU has them.
fn lines_a_character_at_a_time(
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
    lines(bytes, range, four_byte, well_formed_end, false, walk);
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
    lines(bytes, range, four_byte, well_formed_end, true, walk);
}

/// The body of [`lines_to_walk`]; `modern`: compiled into [`lines_on_modern_x86`], where
/// AVX2 may be used.
#[inline(always)]
fn lines(
    bytes: &[u8],
    range: Range<usize>,
    four_byte: bool,
    well_formed_end: usize,
    modern: bool,
    mut walk: impl FnMut(Range<usize>),
) {
    let tables = tables();
    let table = &tables.entries;
    let end = range.end;
    let mut pending: Option<Range<usize>> = None;
    let mut close = |line: Range<usize>, state: &Line| {
        // A line whose only question is its words is read again, word by word: the walk
        // costs several times more.
        // A line with letters of one group and ASCII letters has a word of both only where
        // the two meet: the bytes are looked over for that first.
        let text = &bytes[line.clone()];
        let words = || state.mixed || (state.may_mix() && ascii_meets_other(text));
        let looked_at = state.look
            || match state.sequence {
                true => !sequences_are_quiet(text, table, four_byte, words()),
                false => {
                    (state.many_marks && marks_pass_the_limit(text, table))
                        || (words() && asks_about_words(text, tables))
                }
            };
        if !looked_at {
            return;
        }
        if let Some(p) = join(&mut pending, line) {
            walk(p);
        }
    };
    let mut start = range.start;
    let mut state = Line::default();
    // The families of the last characters of one, the latest first.
    let mut families = [Family::default(); KEPT];
    let mut i = range.start;
    while i < end {
        if state.look {
            // The line goes to the walk whatever else it holds: on to its line feed.
            i += memchr::memchr(b'\n', &bytes[i..end]).unwrap_or(end - i);
            if i == end {
                break;
            }
        }
        if i + WIDE < end {
            let ahead: &[u8; WIDE + 1] = bytes[i..i + WIDE + 1].try_into().expect("65 bytes");
            let mut c = Chunk::of_ascii(ahead);
            if c.printable | c.blanks | c.feeds == u64::MAX && state.stays_quiet_in_ascii() {
                // ASCII a line may hold without a look, in a line that nothing sends on
                // yet, and as many chunks of it as follow: every line they end is passed
                // over, so only the last one's start and its ASCII letters are kept.
                let (mut feeds, mut high) = (c.feeds, c.high);
                loop {
                    let mut after = u64::MAX;
                    if feeds != 0 {
                        let last = 63 - feeds.leading_zeros() as usize;
                        start = i + last + 1;
                        state = Line::default();
                        after = u64::MAX << last << 1;
                    }
                    state.ascii_letter |= high & after != 0;
                    i += WIDE;
                    let next = bytes.get(i..i + WIDE).filter(|_| i + WIDE < end);
                    match next.and_then(|b| quiet_ascii(b.try_into().ok()?, modern)) {
                        Some(masks) => (feeds, high) = masks,
                        None => break,
                    }
                }
                state.marks = 0;
                continue;
            }
            // Up to the first byte that is not ASCII a line may hold without a look, or,
            // where the input is well formed, up to the first that is neither that nor a
            // byte of a character of the families (that byte begins a character).
            let mut known = c.known();
            if known != u64::MAX && i + WIDE <= well_formed_end {
                c.of_families(ahead, &families);
                known = c.known();
            }
            let k = (!known).trailing_zeros() as usize;
            if k > 0 {
                let mut rest = u64::MAX >> (WIDE - k);
                let mut feeds = c.feeds & rest;
                while feeds != 0 {
                    let at = feeds.trailing_zeros();
                    let piece = rest & !(u64::MAX << at);
                    if piece != 0 {
                        state.pass(piece, &c, &families);
                    }
                    let feed = i + at as usize;
                    close(start..feed + 1, &state);
                    start = feed + 1;
                    state = Line::default();
                    rest &= u64::MAX << at << 1;
                    feeds &= feeds - 1;
                }
                if rest != 0 {
                    state.pass(rest, &c, &families);
                }
                i += k;
                if k == WIDE {
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
            // A character of a family: chunks are read against it from now on (a chunk joins
            // a family's group to the line where it passes over its characters).
            let f = tables.family(bytes[i], bytes[i + 1]);
            i += n;
            if f != Family::default() {
                match families.iter().position(|&kept| kept == f) {
                    Some(k) => families[..=k].rotate_right(1),
                    None => {
                        families.rotate_right(1);
                        families[0] = f;
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

/// `r` added to `pending` where it goes on from it (neighbouring lines are walked as one
/// stretch); else `r` in its place, and the stretch it replaces, to be handed on.
fn join(pending: &mut Option<Range<usize>>, r: Range<usize>) -> Option<Range<usize>> {
    match pending {
        Some(p) if p.end == r.start => {
            p.end = r.end;
            None
        }
        _ => pending.replace(r),
    }
}

/// Whether a run of non-starters in `line` passes the stream-safe limit, counted one
/// character at a time as [`Line::character`] counts them: `line` holds no character a
/// lint looks at, but a chunk, which counts every character of a family as if it added
/// the family's most leading non-starters (kana: U+3099), found that it may.
fn marks_pass_the_limit(line: &[u8], table: &[u16]) -> bool {
    let mut state = Line::default();
    let mut i = 0;
    while i < line.len() {
        if line[i] < 0x80 {
            state.marks = 0;
            i += 1;
            continue;
        }
        let Some((n, v)) = character_at(line, i) else {
            return true;
        };
        state.character(entry_in(table, v));
        if state.look {
            return true;
        }
        i += n;
    }
    false
}

/// Whether `line`, which holds no character a lint looks at (no control, no byte that
/// does not begin a well-formed character, nothing [`quiet`] says `None` for), has a word
/// the walk asks about its scripts: letters of two script groups, or ASCII letters and
/// letters of a group other than Latin. Its words end where the walk's do: at an ASCII
/// byte that is not a letter, a digit or `_`, and at a character that is not part of a
/// word ([`BREAK`]).
fn asks_about_words(line: &[u8], tables: &Tables) -> bool {
    let pairs = pair_words();
    let mut word = Word::default();
    // The entry of the character before, if it was not ASCII: a character with the same
    // entry leaves the word as it was.
    let mut last = MIXED_PAIR;
    let mut i = 0;
    while i < line.len() {
        let b = line[i];
        if b < 0x80 {
            if word.ascii(b) {
                return true;
            }
            last = MIXED_PAIR;
            i += 1;
            continue;
        }
        // Most characters share their entry's group with all that begin with the same two
        // bytes (every one of two bytes, Han, kana, Hangul, most of the Indic scripts' and
        // Thai's 64-code-point rows): no decoding. (The line is well formed: each lead byte
        // has its continuation bytes; four are read at once where the line has them.)
        let shared = match line.get(i..i + 4) {
            Some(&[lead @ 0xC0..=0xEF, second, ..]) => {
                let e = pairs[((lead - 0xC0) as usize) << 6 | (second & 0x3F) as usize];
                (e != MIXED_PAIR).then_some((2 + (lead >= 0xE0) as usize, e))
            }
            _ => None,
        };
        let (n, e) = match shared {
            Some(found) => found,
            None => {
                let Some((n, v)) = character_at(line, i) else {
                    return true;
                };
                (n, entry_in(&tables.entries, v) & (LOOK | GROUP))
            }
        };
        if e != last {
            if e & LOOK != 0 || word.character((e & GROUP) as u32) {
                return true;
            }
            last = e;
        }
        i += n;
    }
    false
}

/// Whether an ASCII letter, digit or `_` in `line` stands next to a byte that is not
/// ASCII. A word with ASCII letters and letters of another script has one where the two
/// meet (between them, a word holds only letters, digits, `_` and other characters of
/// words), so a line without one has no such word. A byte at a time, without branches,
/// 32 pairs of neighbours at a time: the compiler makes it vector code.
fn ascii_meets_other(line: &[u8]) -> bool {
    let word = super::is_word_byte;
    let Some(rest) = line.get(1..) else {
        return false;
    };
    line.chunks(32).zip(rest.chunks(32)).any(|(this, next)| {
        this.iter().zip(next).fold(false, |meet, (&a, &b)| {
            meet | (word(a) & (b >= 0x80)) | ((a >= 0x80) & word(b))
        })
    })
}

/// The current word, as far as the walk's question about its scripts goes: whether it has
/// ASCII letters, and the script group of its first letter with one.
#[derive(Clone, Copy, Debug, Default)]
struct Word {
    ascii: bool,
    group: u32,
}

impl Word {
    /// ASCII byte `b`; whether the word is now one the walk asks about.
    #[inline]
    fn ascii(&mut self, b: u8) -> bool {
        if b.is_ascii_alphabetic() {
            if self.group != 0 && self.group != LATIN {
                return true;
            }
            self.ascii = true;
        } else if !(b.is_ascii_digit() || b == b'_') {
            *self = Word::default();
        }
        false
    }

    /// A run of ASCII bytes, as [`Word::ascii`] of each in turn, but reading each byte
    /// once without a branch: only the letters before the run's first byte that ends a
    /// word can meet the word it goes on, and after its last such byte a new word begins.
    #[inline]
    fn ascii_run(&mut self, run: &[u8]) -> bool {
        let part = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let letters = |bytes: &[u8]| {
            bytes
                .iter()
                .fold(false, |any, b| any | b.is_ascii_alphabetic())
        };
        let Some(first) = run.iter().position(|&b| !part(b)) else {
            if letters(run) {
                if self.group != 0 && self.group != LATIN {
                    return true;
                }
                self.ascii = true;
            }
            return false;
        };
        if letters(&run[..first]) && self.group != 0 && self.group != LATIN {
            return true;
        }
        let last = run.iter().rposition(|&b| !part(b)).unwrap_or(first);
        *self = Word {
            ascii: letters(&run[last + 1..]),
            group: 0,
        };
        false
    }

    /// A character of script group `g` (an entry's [`GROUP`] bits: 0 for none, [`BREAK`]
    /// for a character that ends the word); whether the word is now one the walk asks
    /// about.
    #[inline]
    fn character(&mut self, g: u32) -> bool {
        match g {
            0 => false,
            BREAK => {
                *self = Word::default();
                false
            }
            g if (self.group != 0 && self.group != g) || (self.ascii && g != LATIN) => true,
            g => {
                self.group = g;
                false
            }
        }
    }
}

/// Whether the walk finds nothing in `line` (no lint, no word that mixes scripts), which
/// holds characters of emoji sequences ([`SEQUENCE`]) and otherwise no character a lint
/// looks at, read one character at a time as the walk reads it (`checks.rs`,
/// `Walk::security_scalar`):
///
/// - a joiner (U+200C, U+200D) must come after a visible character that is not ASCII (and
///   not a selector that follows nothing) and before another, which a space, an ASCII byte
///   or the line's end is not; or after a virama on such a character, whatever follows
///   (what comes next is then read as after something invisible); it ends a word;
/// - a variation selector must follow a visible character that is not ASCII, or (VS15,
///   VS16) a keycap base `0`-`9`, `#`, `*`, with no joiner pending, and not right after
///   another selector; it leaves the character before it the one that counts;
/// - a tag character must be part of the emoji tag sequence right after a black flag
///   U+1F3F4 (`checks::tag_sequence_len`, the walk's own question: 3 to 6 tags of `0`-`9`,
///   `a`-`z`, then CANCEL TAG, and no tag after it); the sequence is visible, as its flag
///   is;
/// - a zero-width space must stand between two letters (or marks) of one script written
///   without spaces, as `checks::space_in_place` (the walk's own question) says; it ends a
///   word;
/// - the line's words are asked about their scripts as [`asks_about_words`] asks, a joiner
///   and the black flag ending a word (only if `words`: a line with letters of one script
///   group, or ASCII letters and Latin ones only, has no such word); its runs of marks are
///   counted as [`marks_pass_the_limit`] counts them (every character of a sequence is a
///   starter).
///
/// `false` for anything else: the walk then decides.
fn sequences_are_quiet(line: &[u8], table: &[u16], four_byte: bool, words: bool) -> bool {
    /// What came before, as far as a joiner or a selector asks.
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Before {
        /// Start, space, punctuation, a character that is not visible.
        Break,
        /// An ASCII digit, `#` or `*`.
        Keycap,
        /// Another ASCII letter, or `_`.
        Ascii,
        /// A visible character that is not ASCII.
        Visible,
        /// A joiner after one that does not decide it: the next character must be visible
        /// and of a script that uses joiners, or (`joiner_emoji`) of an emoji sequence.
        Joiner,
    }
    let mut before = Before::Break;
    // The last visible character, marks not counted, as the walk's `base`.
    let mut base = 0u32;
    // A pending joiner follows a character of an emoji sequence.
    let mut joiner_emoji = false;
    // The last character was a virama on a visible character that is not ASCII (nor a
    // virama itself), as the walk's `Prev::Virama` says: a joiner after it is in place.
    let mut virama = false;
    // Where the last selector in place ends: another right after it selects nothing.
    let mut selected_end = usize::MAX;
    let mut word = Word::default();
    let mut marks = Line::default();
    let mut i = 0;
    while i < line.len() {
        if line[i] < 0x80 {
            // A run of ASCII: only its last byte is what comes before the next character.
            let run = line[i..]
                .iter()
                .position(|&b| b >= 0x80)
                .unwrap_or(line.len() - i);
            let ascii = &line[i..i + run];
            let control = |b: u8| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b == 0x7F;
            if before == Before::Joiner
                || ascii.iter().fold(false, |any, &b| any | control(b))
                || (words && word.ascii_run(ascii))
            {
                return false;
            }
            marks.marks = 0;
            virama = false;
            base = u32::from(ascii[run - 1]);
            before = match ascii[run - 1] {
                b'0'..=b'9' | b'#' | b'*' => Before::Keycap,
                b if b.is_ascii_alphabetic() || b == b'_' => Before::Ascii,
                _ => Before::Break,
            };
            i += run;
            continue;
        }
        let Some((n, v)) = character_at(line, i) else {
            return false;
        };
        i += n;
        let e = if n == 4 && four_byte {
            LOOK
        } else {
            entry_in(table, v)
        };
        let after_virama = std::mem::take(&mut virama);
        if e == SEQUENCE {
            marks.marks = 0;
            // Only the black flag may settle a pending joiner (as part of an emoji sequence).
            if before == Before::Joiner && !(v == 0x1_F3F4 && joiner_emoji) {
                return false;
            }
            match v {
                // Decided by what is before it (the walk's `settle`).
                0x200C | 0x200D
                    if after_virama || (before == Before::Visible && joins_cursively(base)) =>
                {
                    before = Before::Break;
                    word = Word::default();
                }
                0x200C | 0x200D if before != Before::Break => {
                    joiner_emoji = before == Before::Visible && is_emoji_like(base);
                    before = Before::Joiner;
                    word = Word::default();
                }
                // Between two letters of a script written without spaces (so no joiner is
                // pending): a word's end, as a space is.
                ZERO_WIDTH_SPACE if space_in_place(line, i - n, !four_byte) => {
                    before = Before::Break;
                    word = Word::default();
                }
                0x1_F3F4 => {
                    // Visible: it settles a joiner before it. Its tag sequence, if it has
                    // one, goes with it; any other tag after it is found.
                    before = Before::Visible;
                    base = v;
                    word = Word::default();
                    let unit = |at: usize| line.get(at).and_then(|_| character_at(line, at));
                    i += tag_sequence_len(i, unit).unwrap_or(0);
                }
                v if is_selector(v)
                    && matches!(before, Before::Visible | Before::Keycap | Before::Ascii)
                    && selected_end != i - n
                    && has_variants(base, v) =>
                {
                    selected_end = i;
                }
                _ => return false,
            }
            continue;
        }
        if e & LOOK != 0 {
            return false;
        }
        marks.character(e);
        let g = (e & GROUP) as u32;
        // Part of a word, or a mark, or not white space: visible.
        let visible = g != BREAK || !char::from_u32(v).is_some_and(char::is_whitespace);
        // Asked only after a joiner: the script of every other character is not wanted.
        let joined = || visible && (joins(v) || (joiner_emoji && is_emoji_like(v)));
        if marks.look || (before == Before::Joiner && !joined()) || (words && word.character(g)) {
            return false;
        }
        // As the walk: a mark after a break or a joiner (the walk's hidden) is its own base.
        if visible
            && ((e >> LEADING_SHIFT) & 3 == 0 || matches!(before, Before::Break | Before::Joiner))
        {
            base = v;
        }
        // A virama is no starter: the table says so before the slower question.
        virama = visible
            && before == Before::Visible
            && !after_virama
            && e & STARTER == 0
            && is_virama(v);
        before = if visible {
            Before::Visible
        } else {
            Before::Break
        };
    }
    before != Before::Joiner
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
    /// is well formed, sixty-four bytes at a time.
    /// The same from the build for any x86-64 as from the one for this CPU, and (on these
    /// cases, each made so that the sieve a character at a time is exact) from the blocks
    /// where the CPU has them.
    fn walked_as(text: &[u8], four_byte: bool, chunks: bool) -> Vec<Range<usize>> {
        let (mut out, mut baseline, mut modern) = (Vec::new(), Vec::new(), Vec::new());
        let well_formed_end = if chunks { text.len() } else { 0 };
        lines_to_walk(text, 0..text.len(), four_byte, well_formed_end, |r| {
            out.push(r)
        });
        lines_a_character_at_a_time(text, 0..text.len(), four_byte, well_formed_end, |r| {
            modern.push(r)
        });
        lines(
            text,
            0..text.len(),
            four_byte,
            well_formed_end,
            false,
            |r| baseline.push(r),
        );
        assert_eq!(modern, baseline);
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

    /// A word of Cyrillic letters that ASCII letters go on (`Москваpal`) is handed on
    /// wherever a block of 64 bytes ends in it: at the Cyrillic, or just before the ASCII
    /// (the next block all ASCII), or inside the ASCII; one ended by a space before the
    /// ASCII is not, nor one of Latin letters that ASCII goes on.
    #[test]
    fn a_word_that_ascii_goes_on_is_handed_on_wherever_a_block_ends() {
        let tail = " and then a long run of plain ASCII words, more than a block of them.\n";
        for shift in 0..70 {
            let pad = "x".repeat(shift);
            for (word, asked) in [
                ("Москваpal", true),
                ("Москва pal", false),
                ("Straßepal", false),
                ("pal\u{430}", true),
            ] {
                // A long line after it, so that its end is read in blocks too.
                let text = format!("{pad} {word}{tail}next line{}\n", " of ASCII".repeat(30));
                let want = match asked {
                    true => std::iter::once(0..text.find("next").unwrap()).collect(),
                    false => vec![],
                };
                assert_eq!(walked(text.as_bytes(), false), want, "{shift} {word}");
            }
        }
    }

    /// A line that the walk must see is handed on when it ends in a run of ASCII that
    /// chunks pass over whole (its feed inside such a chunk, or the line going on for
    /// several): one mixing scripts in a word (the Cyrillic `а` in `pаypal`, a Cyrillic
    /// word the ASCII goes on), one with a control; a line of Latin letters and ASCII, or
    /// of a Cyrillic word and ASCII words, is not (the line after it, with a control, is,
    /// from its first byte).
    #[test]
    fn lines_ending_in_long_ascii_are_still_handed_on() {
        let tail = "the rest of this line is plain ASCII, long enough for a chunk or two";
        for (head, want) in [
            ("p\u{430}ypal ", true),
            ("Москва", true),
            ("Москва ", false),
            ("bell \u{7} ", true),
            ("naïve café ", false),
            // A joiner out of place, read again before the line is passed over; one in an
            // emoji sequence, in place.
            ("a\u{200D} ", true),
            ("\u{1F469}\u{200D}\u{1F4BB} ", false),
        ] {
            for pad in 0..70 {
                let text = format!("{head}{}{tail}\n{tail} and a bell \u{7}\n", "x".repeat(pad));
                let first = text.find('\n').unwrap() + 1;
                let got = walked(text.as_bytes(), false);
                // The next line is handed on from its first byte, and joins this one.
                let from = if want { 0 } else { first };
                let want: Vec<Range<usize>> = std::iter::once(from..text.len()).collect();
                assert_eq!(got, want, "{head:?} after {pad}");
            }
        }
    }

    #[test]
    fn words_that_long_ascii_runs_into_are_handed_on() {
        for pad in 1..200 {
            let x = "x".repeat(pad);
            // A word of ASCII letters, some in chunks of ASCII alone, and Cyrillic ones.
            let text = format!("{x}дом\n");
            assert_eq!(walked(text.as_bytes(), false), vec![0..text.len()], "{pad}");
            let text = format!("{x} дом\n");
            assert!(walked(text.as_bytes(), false).is_empty(), "{pad}");
            // The same on the line after a long one of ASCII.
            let text = format!("naïve {x}\ny{x}дом x\n");
            let second = text.find('\n').unwrap() + 1;
            assert_eq!(
                walked(text.as_bytes(), false),
                vec![second..text.len()],
                "{pad}"
            );
        }
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
            // A zero-width space between words of a script written without spaces holds
            // no lint: read again, not walked.
            ("ภาษาไทย\u{200B}เป็นภาษา\n".as_bytes(), false, false),
            (
                "これは\u{200B}テスト\u{200B}です。\n".as_bytes(),
                false,
                false,
            ),
            ("ภาษา\u{200B}中文\n".as_bytes(), false, true),
            ("ภาษา \u{200B}ไทย\n".as_bytes(), false, true),
            // An emoji sequence with a joiner between two pictographs holds no lint: read
            // again, not walked (but for MySQL, which refuses the pictographs).
            ("\u{1F469}\u{200D}\u{1F4BB}\n".as_bytes(), false, false),
            ("\u{1F469}\u{200D}\u{1F4BB}\n".as_bytes(), true, true),
            ("\u{1F469}\u{200D} \u{1F4BB}\n".as_bytes(), false, true),
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
    fn a_line_is_left_at_its_first_look() {
        // What follows the first character looked at is not read: the line is walked.
        let first = format!("a\u{2060}{}\n", "Москва 中文 ".repeat(20));
        let third = format!("\x07{}\n", "x".repeat(200));
        let text = format!("{first}plain\n{third}last\n");
        let at = first.len() + "plain\n".len();
        assert_eq!(
            walked(text.as_bytes(), false),
            vec![0..first.len(), at..at + third.len()]
        );
        let emoji = format!("\u{1F600} {}\nnext\n", "中文".repeat(50));
        assert_eq!(
            walked(emoji.as_bytes(), true),
            vec![0..emoji.len() - "next\n".len()]
        );
        // No line feed after it: to the end.
        assert_eq!(walked("x\u{202E}yz".as_bytes(), false), vec![0..6]);
    }

    #[test]
    fn emoji_sequences_are_read_again_and_walked_only_where_misplaced() {
        let table = &tables().entries;
        // Lines with no lint: joiners between pictographs or letters, selectors after a
        // pictograph or a keycap base, a tag sequence after the black flag, skin tones.
        let fine = [
            "Family: \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}, couple: \u{1F469}\u{200D}\u{2764}\u{FE0F}\u{200D}\u{1F468}.",
            "Work: \u{1F469}\u{1F3FD}\u{200D}\u{1F4BB} codes, \u{1F9D1}\u{200D}\u{1F373} cooks",
            "Weather \u{2600}\u{FE0F} then \u{1F327}\u{FE0F}",
            "flag \u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} done",
            "keys 1\u{FE0F}\u{20E3} #\u{FE0F}\u{20E3} *\u{FE0E}",
            "\u{1F3F4}\u{200D}\u{2620}\u{FE0F} and \u{1F469}\u{200D}\u{1F3F4}",
            "\u{0915}\u{094D}\u{200D}\u{0937} \u{0645}\u{200C}\u{0627}",
            "USB \u{0432} \u{041C}\u{043E}\u{0441}\u{043A}\u{0432}\u{0435} \u{1F600}\u{FE0F}",
            "ខ្ញុំ\u{200B}ស្រឡាញ់\u{200B}ប្រទេស\u{200B}កម្ពុជា។",
            "\u{1F600}\u{FE0F} ภาษา\u{200B}ไทย ศักดิ์\u{200B}สิทธิ์",
            "か\u{3099}\u{200B}コーヒー\u{200B}中",
            // A zero-width space ends a word, as the walk's words end.
            "USB ภาษา\u{200B}ไทย",
            // The black flag ends a word, as the walk's words end: no word mixes here.
            "USB\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}\u{436}",
            // Well-formed emoji tag sequences: a tag_spec of 3 to 6 tags of `0`-`9`, `a`-`z`,
            // then CANCEL TAG.
            "\u{1F3F4}\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F}\u{1F3F4}\u{E0075}\u{E0073}\u{E0063}\u{E0061}\u{E007F} x",
            "\u{1F3F4}\u{E0066}\u{E0072}\u{E0037}\u{E007F} \u{1F3F4}\u{E0061}\u{E0062}\u{E0031}\u{E0032}\u{E0063}\u{E0064}\u{E007F}",
        ];
        // Lines where the walk finds something, each for one reason.
        let found = [
            "a\u{200D}b",
            // A virama on a virama is on no letter: the joiner after it joins nothing.
            "\u{0915}\u{094D}\u{094D}\u{200D} x",
            "a\u{0915} x\u{094D}\u{200D} y",
            "\u{1F600}\u{200D}",
            "\u{1F600}\u{200D} \u{1F600}",
            "\u{1F600}\u{200D}\u{3000}\u{1F600}",
            "\u{1F600}\u{200D}\u{FE0F}\u{1F600}",
            "\u{1F600}\u{200D}\u{200D}\u{1F600}",
            " \u{200D}\u{1F600}",
            "\u{1F600}\u{200D}\u{E0067}",
            "x\u{FE0F}",
            "\u{1F600}\u{E0100}",
            "\u{438}\u{FE0F}\u{432}",
            "0\u{FE01}",
            "1\u{FE00}",
            " \u{FE0F}",
            "\u{3000}\u{FE0F}",
            "\u{E0067}\u{E0062}",
            "\u{1F3F4}\u{E0001}",
            "\u{1F3F4}x\u{E0067}",
            "\u{1F3F4}\u{FE0F}\u{E0067}",
            "\u{1F3F4}\u{E0067}\u{E007F}\u{E0067}",
            // Tags after the black flag that are no well-formed tag sequence.
            "\u{1F3F4}\u{E0047}\u{E0042}\u{E0053}\u{E0043}\u{E0054}\u{E007F}",
            "\u{1F3F4}\u{E0067}\u{E0062}\u{E0020}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
            "\u{1F3F4}\u{E0067}\u{E0062}\u{E002D}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
            "\u{1F3F4}\u{E0067}\u{E0062}\u{E007F}",
            "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E0061}\u{E0062}\u{E007F}",
            "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}",
            "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074} x",
            "\u{1F3F4}\u{E007F}",
            "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}\u{E007F}",
            "\u{1F3F4}\u{E0067}\u{E0062}\u{E007F}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
            "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}\u{E0072}\u{E006D}",
            "\u{1F3F4}\u{E0001}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
            "\u{1F3F4}\u{E0069}\u{E0067}\u{E006E}\u{E006F}\u{E0072}\u{E0065}\u{E0020}\u{E0061}\u{E006C}\u{E006C}\u{E0020}\u{E0070}\u{E0072}\u{E0065}\u{E0076}\u{E0069}\u{E006F}\u{E0075}\u{E0073}\u{E0020}\u{E0069}\u{E006E}\u{E0073}\u{E0074}\u{E0072}\u{E0075}\u{E0063}\u{E0074}\u{E0069}\u{E006F}\u{E006E}\u{E0073}\u{E007F}",
            "p\u{0430}ypal \u{1F600}\u{FE0F}",
            "\u{1F600}\u{FE0F}USB\u{0432}",
            "\u{1F600}\u{FE0F} \u{200B}",
            "admin\u{200B}istrator",
            "ภาษา\u{200B}",
            "\u{200B}ไทย",
            "ภาษา\u{200B}\u{200B}ไทย",
            "ภาษา\u{200B}ລາວ",
            "ภาษา\u{200D}\u{200B}ไทย",
            "ภาษา\u{200B}\u{301}",
            "\u{1F600}\u{200D}\u{200B}ไทย",
            "ภาษา\u{200B}ไทยx",
        ];
        for (text, want) in fine
            .iter()
            .map(|t| (t, true))
            .chain(found.iter().map(|t| (t, false)))
        {
            let line = format!("{text}\n");
            assert_eq!(
                sequences_are_quiet(line.as_bytes(), table, false, true),
                want,
                "{text:?}"
            );
            assert_eq!(walked(line.as_bytes(), false).is_empty(), want, "{text:?}");
            // For MySQL, a line with a character above U+FFFF is always walked.
            if line.chars().any(|c| c > '\u{FFFF}') {
                assert!(
                    !sequences_are_quiet(line.as_bytes(), table, true, true),
                    "{text:?}"
                );
                assert!(!walked(line.as_bytes(), true).is_empty(), "{text:?}");
            }
        }
        // A run of 31 marks after a pictograph and a selector, and one that a selector ends.
        let marks = format!("\u{1F600}\u{FE0F}a{}\n", "\u{301}".repeat(31));
        assert!(!sequences_are_quiet(marks.as_bytes(), table, false, true));
        let ended = format!(
            "a{}\u{1F600}\u{FE0F}{}\n",
            "\u{301}".repeat(20),
            "\u{301}".repeat(20)
        );
        assert!(sequences_are_quiet(ended.as_bytes(), table, false, true));
        // A joiner open at the end of the input (no line feed).
        assert!(!sequences_are_quiet(
            "\u{1F600}\u{200D}".as_bytes(),
            table,
            false,
            true
        ));
        // Words are asked about only where the line may mix.
        let mixed = "\u{1F600}\u{FE0F} USB\u{436}\n".as_bytes();
        assert!(!sequences_are_quiet(mixed, table, false, true));
        assert!(sequences_are_quiet(mixed, table, false, false));
    }

    #[test]
    fn words_are_read_again_only_where_a_line_may_mix() {
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
            // A character with the entry of the one before it, after a word's end.
            ("ж жA", true),
            ("жж жж A", false),
            ("中、中USB", true),
            ("中文 中文、文", false),
        ];
        for &(text, want) in cases {
            assert_eq!(
                asks_about_words(text.as_bytes(), tables()),
                want,
                "{text:?}"
            );
        }
        // A long line of words side by side is walked only for the one word that mixes.
        let line = format!("{}pаypal\n", "Москва USB ".repeat(40));
        assert_eq!(walked(line.as_bytes(), false), vec![0..line.len()]);
        let clean = "Москва USB ".repeat(40) + "\n";
        assert!(walked(clean.as_bytes(), false).is_empty());
    }

    #[test]
    fn pair_words_are_the_entries_of_every_character_of_the_pair() {
        let (pairs, entries) = (pair_words(), &tables().entries);
        let mut shared = 0;
        for v in (0x80..0x1_0000u32).filter(|v| !(0xD800..0xE000).contains(v)) {
            let mut utf8 = [0; 4];
            let b = char::from_u32(v).unwrap().encode_utf8(&mut utf8).as_bytes();
            let pair = pairs[(b[0] as usize - 0xC0) * 64 + (b[1] as usize - 0x80)];
            if pair != MIXED_PAIR {
                assert_eq!(pair, entries[v as usize] & (LOOK | GROUP), "U+{v:04X}");
                shared += 1;
            } else {
                assert!(
                    v >= 0x800,
                    "U+{v:04X}: a character of two bytes is a pair alone"
                );
            }
        }
        // Han, kana, Hangul and most rows of other scripts: most of the BMP.
        assert!(shared > 50_000, "{shared} characters");
    }

    /// A line with ASCII letters and letters of one other group is read again word by
    /// word only where an ASCII letter, digit or `_` stands next to a byte that is not
    /// ASCII; wherever that pair falls among the 32 pairs read at once.
    #[test]
    fn words_are_read_again_only_where_ascii_meets_other_letters() {
        for pad in 0..70 {
            let spaces = " ".repeat(pad);
            for (text, want) in [
                ("Aж", true),
                ("жA", true),
                ("ж2", true),
                ("_ж", true),
                ("zé", true),
                ("A ж", false),
                ("ж.A", false),
                ("ж\tz", false),
                ("~ж", false),
                ("ж@", false),
                ("", false),
            ] {
                let line = format!("{spaces}{text}{spaces}");
                assert_eq!(ascii_meets_other(line.as_bytes()), want, "{line:?}");
            }
        }
        // Lines of Cyrillic words and ASCII words side by side are not read again, nor
        // walked; the lines where they meet in a word are walked, either way round.
        let apart = "Москва и Петербург: USB, HTTP 2 и COVID-19 в одной строке\n";
        let meet = [
            "МоскваUSB и ещё слова\n",
            "и USBМосква ещё\n",
            "в Москве_x\n",
        ];
        let text = format!("{apart}{}{apart}{}{apart}{}", meet[0], meet[1], meet[2]);
        let at = |k: usize| (k + 1) * apart.len() + meet[..k].concat().len();
        assert_eq!(
            walked(text.as_bytes(), false),
            (0..3)
                .map(|k| at(k)..at(k) + meet[k].len())
                .collect::<Vec<_>>()
        );
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
        // Sixty-four bytes at a time (a line of ASCII after them, so that a chunk reaches
        // that far), a run of marks is counted from above (a chunk's starter may leave up
        // to 3); where that passes the limit, the line's runs are counted again a character
        // at a time: 30 marks after `a` are not handed on, 31 are.
        let more = "a line of ASCII long enough for a chunk to reach across the marks\n";
        assert!(walked_as(format!("{thirty}{more}").as_bytes(), false, true).is_empty());
        let thirty_one = format!("a{}\n", "\u{301}".repeat(31));
        assert_eq!(
            walked_as(format!("{thirty_one}{more}").as_bytes(), false, true),
            vec![0..thirty_one.len()]
        );
        // The kana family holds U+3099 (a non-starter), so a chunk counts every kana as a
        // mark: a long line of kana is counted again, and not handed on; 31 U+3099 after a
        // kana are.
        let kana = "ひらがなとカタカナ".repeat(5) + "\n";
        assert!(walked_as(format!("{kana}{more}").as_bytes(), false, true).is_empty());
        let voiced = format!("か{}\n", "\u{3099}".repeat(31));
        assert_eq!(
            walked_as(format!("{kana}{voiced}{more}").as_bytes(), false, true),
            vec![kana.len()..kana.len() + voiced.len()]
        );
        // A starter that brings non-starters of its own starts the run with them, inside a
        // block as at its start: ǖ (u, U+0308, U+0304) and 29 marks are 31, 28 are 30.
        let brings = |n: usize| format!("\u{1D6}{}\n", "\u{301}".repeat(n));
        assert_eq!(
            walked_as(format!("{}{more}", brings(29)).as_bytes(), false, true),
            vec![0..brings(29).len()]
        );
        assert!(walked_as(format!("{}{more}", brings(28)).as_bytes(), false, true).is_empty());
        let twenty_four = format!("a{}\n{more}", "\u{301}".repeat(24));
        assert!(walked_as(twenty_four.as_bytes(), false, true).is_empty());
        // A run between two ASCII bytes of one chunk: the mark before `x` is read alone
        // (its family met), the chunk from `x` holds 31 marks and `y`.
        let between = format!("\u{301}x{}y{more}", "\u{301}".repeat(31));
        assert_eq!(walked_as(between.as_bytes(), false, true).len(), 1);
        let thirty = format!("\u{301}x{}y{more}", "\u{301}".repeat(30));
        assert!(walked_as(thirty.as_bytes(), false, false).is_empty());
    }

    /// The first 65 bytes of `text`, padded with spaces.
    fn ahead(text: &str) -> [u8; WIDE + 1] {
        let mut out = [b' '; WIDE + 1];
        for (o, b) in out.iter_mut().zip(text.bytes()) {
            *o = b;
        }
        out
    }

    /// The masks of the chunk at the start of `bytes` for `families`.
    fn chunk(bytes: &[u8; WIDE + 1], families: &[Family; KEPT]) -> Chunk {
        let mut c = Chunk::of_ascii(bytes);
        c.of_families(bytes, families);
        c
    }

    /// The bytes of a chunk it does not pass over.
    fn strangers(bytes: &[u8; WIDE + 1], families: &[Family; KEPT]) -> u64 {
        !chunk(bytes, families).known()
    }

    #[test]
    fn the_ascii_of_a_chunk() {
        let c = Chunk::of_ascii(&ahead(" !\"#0123456789@?\t\n\rAz~"));
        assert_eq!(c.printable, !(0b111 << 16));
        assert_eq!(c.high, 0b111 << 19);
        assert_eq!((c.feeds, c.blanks), (1 << 17, 1 << 16 | 1 << 18));
        assert_eq!(c.known(), u64::MAX);
        // Each byte that is not ASCII a line may hold without a look, at each place.
        for bad in [0x00u8, 0x08, 0x0B, 0x1F, 0x7F, 0x80, 0xC3, 0xFF] {
            for at in 0..WIDE {
                let mut w = ahead(&"0123456789abcdef".repeat(4));
                w[at] = bad;
                let c = Chunk::of_ascii(&w);
                assert_eq!(c.known(), !(1 << at), "{bad:#x} at {at}");
            }
        }
        // Every byte alone among spaces, in each quarter: as the definitions say.
        for b in 0..=255u8 {
            for at in [7, 16, 40, 63] {
                let mut w = [b' '; WIDE + 1];
                w[at] = b;
                let c = Chunk::of_ascii(&w);
                let bit = |yes: bool| (yes as u64) << at;
                assert_eq!(
                    c.printable,
                    !(1 << at) | bit((0x20..0x7F).contains(&b)),
                    "{b:#x}"
                );
                assert_eq!(c.high, bit((0x41..0x7F).contains(&b)), "{b:#x}");
                assert_eq!(c.feeds, bit(b == b'\n'), "{b:#x}");
                assert_eq!(c.blanks, bit(b == b'\t' || b == b'\r'), "{b:#x}");
            }
        }
        // The byte after the chunk is not part of it.
        let mut w = [b' '; WIDE + 1];
        w[WIDE] = 0xFF;
        assert_eq!(Chunk::of_ascii(&w).known(), u64::MAX);
    }

    /// Non-letters between letters of one group under a lead byte (`×` and `÷` in `C3`)
    /// are in the family of those letters: Latin is one family from `C3` to `C8`, which a
    /// chunk passes over whole. A character a lint looks at between two runs of letters
    /// (U+061C, the Arabic letter mark, in `D8`) is not.
    #[test]
    fn non_letters_between_letters_join_their_family() {
        let t = tables();
        let none = Family::default();
        let latin = t.family(0xC3, 0xA9);
        assert_eq!(
            (latin.lead, latin.lead_span, latin.second, latin.second_span),
            (0xC3, 5, 0x80, 0x3F)
        );
        assert_eq!((latin.group, latin.leading), (LATIN, 0));
        for (lead, second) in [(0xC3, 0x97), (0xC3, 0xB7), (0xC3, 0xBC), (0xC5, 0xBE)] {
            assert_eq!(t.family(lead, second), latin, "{lead:X} {second:X}");
        }
        let text = ahead("3 × 4 ÷ 2, naïve Straße, žluťoučký kůň");
        assert_eq!(strangers(&text, &[latin, none]), 0);
        // The Arabic semicolon, end of text mark, triple dot and question mark around it
        // (D8 9B, 9D to 9F) are punctuation, no part of a word: the letters' families stop
        // at them.
        let (before, after) = (t.family(0xD8, 0x9A), t.family(0xD8, 0xA0));
        assert_eq!((before.group, after.group), (0x106, 0x106));
        assert_eq!(
            (before.second + before.second_span, after.second),
            (0x9A, 0xA0)
        );
        assert_eq!(t.family(0xD8, 0x9B).group, 0);
        assert_eq!(t.family(0xD8, 0x9C), none);
        // A Cyrillic line with `×` joins Latin where a chunk passes over it, and so is read
        // again word by word: not walked. An Arabic line with the letter mark is walked,
        // the lines of Latin and ASCII around it are not.
        let cyrillic = "Москва × 3 и ёж ÷ 2, в Москве 3×4 и ещё слова до конца строки\n";
        let latin_line = "Straße × 3, naïve ÷ café, žluťoučký kůň úpěl ďábelské ódy\n";
        let arabic = "العربية\u{61C}العربية كلمات أخرى حتى نهاية السطر\n";
        let text = format!("{latin_line}{cyrillic}{arabic}{latin_line}{cyrillic}");
        let at = latin_line.len() + cyrillic.len();
        assert_eq!(walked(text.as_bytes(), false), vec![at..at + arabic.len()]);
    }

    #[test]
    fn a_chunk_of_sixty_four_bytes() {
        let t = tables();
        let none = Family::default();
        assert_eq!(strangers(&ahead(" ~azAZ09 !@#$%^&\n\t"), &[none, none]), 0);
        for bad in [0x00u8, 0x1F, 0x7F, 0xC0, 0xF8, 0x80] {
            for at in 0..WIDE {
                let mut w = ahead(&"0123456789abcdef".repeat(4));
                w[at] = bad;
                let expected = if bad == 0x80 { 0 } else { 1 << at };
                assert_eq!(strangers(&w, &[none, none]), expected, "{bad:#x} at {at}");
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
        let moscow = ahead("Москва ж!");
        let c = chunk(&moscow, &[cyrillic, none]);
        assert_eq!(
            (
                strangers(&moscow, &[cyrillic, none]),
                c.leads[0].count_ones()
            ),
            (0, 7)
        );
        assert_eq!(c.leads[1], 0);
        let mut w = ahead("Москва ж!");
        w[15] = 0xD4;
        assert_eq!(strangers(&w, &[cyrillic, none]), 1 << 15);
        // A line of them, and the next.
        let lines = ahead("Москва\nМосква ж!\n");
        assert_eq!(strangers(&lines, &[none, cyrillic]), 0);
        assert_eq!(chunk(&lines, &[none, cyrillic]).feeds, 1 << 12 | 1 << 29);
        // Latin letters and Han characters are families of their own.
        let latin = t.family(0xC3, 0xA9);
        assert_eq!((latin.lead, latin.group), (0xC3, 1));
        assert_eq!(strangers(&ahead("Straße, cafés "), &[latin, none]), 0);
        assert_eq!(
            strangers(&ahead("Straße, cafés "), &[cyrillic, none]),
            1 << 4 | 1 << 12
        );
        let han = t.family(0xE4, 0xB8);
        assert_eq!((han.lead, han.lead_span, han.group), (0xE4, 5, 4));
        assert_eq!(strangers(&ahead("中文字符 abc"), &[han, none]), 0);
        // Devanagari by its second byte, with the virama (one leading non-starter).
        let deva = t.family(0xE0, 0xA4);
        assert_eq!(
            (deva.lead, deva.lead_span, deva.group, deva.leading),
            (0xE0, 0, 0x109, 1)
        );
        assert_eq!(strangers(&ahead("हिन्दी है"), &[deva, none]), 0);
        // The line's last two families are read at once: kana (E3 81 to E3 83) and Han
        // in Japanese, either first; without the kana, its characters are strangers.
        let kana = t.family(0xE3, 0x81);
        assert_eq!((kana.lead, kana.group), (0xE3, 4));
        let japanese = ahead("漢字とかな");
        assert_eq!(strangers(&japanese, &[kana, han]), 0);
        assert_eq!(strangers(&japanese, &[han, kana]), 0);
        assert_eq!(
            strangers(&japanese, &[han, none]),
            1 << 6 | 1 << 9 | 1 << 12
        );
        let c = chunk(&japanese, &[han, kana]);
        assert_eq!(
            (c.leads[0], c.leads[1]),
            (1 | 1 << 3, 1 << 6 | 1 << 9 | 1 << 12)
        );
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
    /// look for, in pieces long and short (so that chunks of 64 bytes end anywhere).
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
        "ภาษา\u{200B}ไทย",
        "ខ្ញុំ\u{200B}ស្រឡាញ់",
        "ພາສາ\u{200B}ລາວ",
        "မြန်မာ\u{200B}ဘာသာ",
        "བོད\u{200B}ཡིག",
        "これは\u{200B}テスト",
        "コーヒー\u{200B}か\u{3099}",
        "ก\u{200B}",
        "\u{200B}ข",
        "\u{E48}\u{200B}",
        "\u{200B}中",
        "\u{FE0F}",
        "\u{1F600}",
        "\u{1F469}\u{200D}\u{1F4BB}",
        "\u{D28}\u{D4D}\u{200D}",
        "\u{94D}\u{200C}",
        "\u{E0068}",
        "\u{1F3F4}\u{E0047}\u{E0042}\u{E0053}\u{E0043}\u{E0054}\u{E007F}",
        "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}",
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
        "ไทย\u{200B}ภาษา",
        "中文\u{200B}ひらがな",
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
    /// finds a lint or a word that mixes scripts, with what it found: the sieve a
    /// character at a time (the same from the build for any x86-64 as from the one for
    /// this CPU), or in blocks where the CPU has them.
    fn passed_over_but_found(
        bytes: &[u8],
        lints: &Lints,
        four_byte: bool,
        well_formed_end: usize,
    ) -> Option<(std::ops::Range<usize>, Vec<crate::lint::Lint>)> {
        type Hand<'a> = &'a mut dyn FnMut(std::ops::Range<usize>);
        let marked = |sieve: &dyn Fn(Hand)| {
            let mut walked = vec![false; bytes.len() + 1];
            sieve(&mut |r| {
                for w in &mut walked[r] {
                    *w = true;
                }
            });
            walked
        };
        let range = 0..bytes.len();
        let blocks =
            marked(&|walk| lines_to_walk(bytes, range.clone(), four_byte, well_formed_end, walk));
        let modern = marked(&|walk| {
            super::lines_a_character_at_a_time(
                bytes,
                range.clone(),
                four_byte,
                well_formed_end,
                walk,
            )
        });
        let baseline = marked(&|walk| {
            super::lines(
                bytes,
                range.clone(),
                four_byte,
                well_formed_end,
                false,
                walk,
            )
        });
        assert_eq!(modern, baseline);
        lines(bytes).into_iter().find_map(|line| {
            if blocks[line.start] && baseline[line.start] {
                return None;
            }
            let mut walk = Walk::new(bytes, Dialect::Utf8, lints, line.start, true);
            walk.full_look_only();
            walk.walk_to(line.end);
            (!walk.out.is_empty() || !walk.candidates.is_empty()).then_some((line, walk.out))
        })
    }

    /// Whole emoji sequences and the text around them, none a lint alone (but for MySQL,
    /// and next to [`MISPLACED`]): the lines the sieve reads again one character at a time
    /// ([`super::sequences_are_quiet`]).
    const SEQUENCES: &[&str] = &[
        "\u{1F469}\u{200D}\u{1F4BB}",
        "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}",
        "\u{1F469}\u{200D}\u{2764}\u{FE0F}\u{200D}\u{1F468}",
        "\u{1F44D}\u{1F3FD}",
        "\u{2600}\u{FE0F}",
        "\u{845B}\u{E0100}",
        "0\u{FE00}",
        "\u{2229}\u{FE00}",
        "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
        "\u{1F3F4}\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F}",
        "\u{1F3F4}\u{E0066}\u{E0072}\u{E0037}\u{E007F}",
        "\u{1F3F4}\u{E0061}\u{E0062}\u{E0031}\u{E0032}\u{E0063}\u{E0064}\u{E007F}",
        "\u{1F3F4}\u{200D}\u{2620}\u{FE0F}",
        "1\u{FE0F}\u{20E3}",
        "#\u{FE0E}",
        "\u{915}\u{94D}\u{200D}\u{937}",
        "\u{645}\u{200C}\u{627}",
        "URL\u{200C}\u{647}\u{627}",
        "\u{647}\u{200D}.\u{634}",
        "\u{9B0}\u{200D}\u{9CD}\u{9AF}",
        "\u{647}\u{200D}",
        "ภาษา\u{200B}ไทย",
        "ខ្ញុំ\u{200B}ស្រឡាញ់",
        "これは\u{200B}テスト",
        "ー\u{200B}中",
        "ไทย",
        "中文",
        "\u{2764}",
        "\u{2003}",
        "\u{205F}",
        "\u{1680}",
        "\u{202F}",
        "\u{1F600}",
        "\u{A9}",
        "\u{2014}",
        "\u{A0}",
        "\u{3000}",
        "\u{301}",
        "\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}\u{307}\u{308}",
        "\u{436}\u{43E}",
        "\u{3042}\u{4E2D}",
        "\u{E9}",
        "x",
        "USB",
        "_",
        "2",
        " ",
        ", ",
        "\t",
        "\r",
    ];

    /// Characters of emoji sequences alone, and what may stand next to one: each may make
    /// a line hold a lint, or not.
    const MISPLACED: &[&str] = &[
        "\u{0915}\u{094D}\u{094D}\u{200D}",
        "\u{438}\u{200C}\u{432}",
        "\u{1F600}\u{E0100}",
        "\u{438}\u{FE0F}",
        "\u{3BB}\u{FE00}",
        "\u{438}\u{E0100}",
        "0\u{FE01}",
        "\u{6771}\u{200D}\u{4EAC}",
        "\u{E9}\u{200D}\u{301}",
        "\u{3B5}\u{200D}\u{3B1}",
        "\u{200D}",
        "\u{200C}",
        "\u{FE0F}",
        "\u{FE0E}",
        "\u{FE00}",
        "\u{E0100}",
        "\u{1F3F4}",
        "\u{E0067}",
        "\u{E007F}",
        "\u{E0001}",
        "\u{E0000}",
        "\u{1F3F4}\u{E0067}\u{E0000}",
        "\u{1F3F4}\u{E0047}\u{E0042}\u{E0053}\u{E0043}\u{E0054}\u{E007F}",
        "\u{1F3F4}\u{E0067}\u{E0062}\u{E007F}",
        "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E0061}\u{E0062}\u{E007F}",
        "\u{1F3F4}\u{E0067}\u{E0062}\u{E0020}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
        "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}",
        "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}\u{E007F}",
        "\u{E0041}",
        "\u{E0030}",
        "\u{E0065}\u{E006E}\u{E0067}",
        "\u{200B}",
        "\u{202E}",
        "\u{3000}",
        "ก",
        "ກ",
        "\u{E48}",
        "๑",
        "か\u{3099}",
        "中",
        "ー",
        "1",
        "*",
        "\n",
    ];

    /// The sentences of the clean corpus, each with its line feed.
    fn corpus() -> Vec<String> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .expect("the corpus")
            .map(|e| e.expect("an entry").path())
            .collect();
        files.sort();
        files
            .iter()
            .flat_map(|f| {
                let text = std::fs::read_to_string(f).expect("a corpus file");
                text.lines().map(|l| format!("{l}\n")).collect::<Vec<_>>()
            })
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        /// Long lines of real text in every script of the corpus, each sentence with
        /// pieces put in at any character (what the lints look for, letters of other
        /// scripts, runs of marks, emoji sequences), several sentences joined into one line
        /// or not: what the sieve passes over (in blocks where the CPU has them, each
        /// block's bytes read at once), a full walk finds nothing in; wherever the text is
        /// said to be known well formed up to.
        #[test]
        fn long_lines_of_every_script_passed_over_hold_nothing_the_walk_finds(
            picks in proptest::collection::vec(
                (
                    0usize..1000,
                    proptest::collection::vec((0usize..1000, 0usize..PIECES.len() + SEQUENCES.len() + QUIET.len()), 0..3),
                    proptest::bool::weighted(0.6),
                ),
                1..10,
            ),
            cut in 0usize..10_000,
            four_byte in proptest::bool::weighted(0.3),
        ) {
            let sentences = corpus();
            let mut text = String::new();
            for (s, puts, feed) in picks {
                let mut line = sentences[s % sentences.len()].trim_end().to_string();
                for (at, piece) in puts {
                    let piece = PIECES.iter().chain(SEQUENCES).chain(QUIET).nth(piece).unwrap();
                    let mut at = at % (line.len() + 1);
                    while !line.is_char_boundary(at) {
                        at -= 1;
                    }
                    line.insert_str(at, piece);
                }
                text.push_str(&line);
                text.push(if feed { '\n' } else { ' ' });
            }
            let bytes = text.as_bytes();
            let lints = Lints { targets: if four_byte { Target::ALL.to_vec() } else { vec![Target::Xml10, Target::Json] }, security: true };
            for well_formed_end in [bytes.len(), cut % (bytes.len() + 1)] {
                let found = passed_over_but_found(bytes, &lints, four_byte, well_formed_end);
                prop_assert!(found.is_none(), "passed over: {:?}", found);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// Lines of emoji sequences among letters, marks, spaces and ASCII, with a few of
        /// their characters alone or out of place: what the sieve passes over, a full walk
        /// finds nothing in, for every target.
        #[test]
        fn a_line_of_emoji_sequences_passed_over_holds_nothing_the_walk_finds(
            pieces in proptest::collection::vec(
                prop_oneof![
                    12 => proptest::sample::select(SEQUENCES),
                    1 => proptest::sample::select(MISPLACED),
                ],
                0..60,
            ),
            four_byte in proptest::bool::weighted(0.2),
        ) {
            let text: String = pieces.concat();
            let bytes = text.as_bytes();
            let lints = Lints { targets: if four_byte { Target::ALL.to_vec() } else { vec![Target::Xml10, Target::Xml11, Target::IJson] }, security: true };
            for well_formed_end in [0, bytes.len()] {
                let found = passed_over_but_found(bytes, &lints, four_byte, well_formed_end);
                prop_assert!(found.is_none(), "passed over: {:?}", found);
            }
        }
    }

    proptest! {
        /// Chunks of ASCII a line may hold without a look, in AVX2 where the CPU has it and
        /// in SSE2, are found as a byte at a time finds them, with their line feeds and
        /// bytes from `A` up: printable ASCII, tabs, carriage returns and line feeds, at most
        /// one other byte put in at any place.
        #[test]
        fn quiet_ascii_in_vectors_is_each_bytes(
            quiet in proptest::collection::vec(
                prop_oneof![8 => 0x20u8..0x7F, 1 => proptest::sample::select(vec![b'\t', b'\n', b'\r'])],
                super::WIDE,
            ),
            other in proptest::option::of((0..super::WIDE, proptest::sample::select(vec![0x00u8, 0x08, 0x0B, 0x0C, 0x1F, 0x7F, 0x80, 0xC3, 0xE2, 0xFF]))),
        ) {
            let mut bytes = [0u8; super::WIDE + 1];
            bytes[..super::WIDE].copy_from_slice(&quiet);
            if let Some((at, b)) = other {
                bytes[at] = b;
            }
            let first: &[u8; super::WIDE] = bytes.first_chunk().unwrap();
            let each = super::Chunk::of_ascii_portable(&bytes);
            let want = (each.printable | each.blanks | each.feeds == u64::MAX).then_some((each.feeds, each.high));
            prop_assert_eq!(want.is_none(), other.is_some());
            prop_assert_eq!(super::quiet_ascii(first, false), want);
            if std::is_x86_feature_detected!("avx2") {
                prop_assert_eq!(super::quiet_ascii(first, true), want);
            }
        }
    }

    proptest! {
        /// The chunk's masks in vectors are the ones a byte at a time gives, for any bytes
        /// (biased to those the masks tell apart) and any two families of the table.
        #[test]
        fn chunk_masks_in_vectors_are_each_bytes(
            bytes in proptest::collection::vec(
                prop_oneof![
                    any::<u8>(),
                    proptest::sample::select(vec![b'\t', b'\n', b'\r', 0x1F, 0x20, 0x40, 0x41, 0x7E, 0x7F, 0x80, 0xBF, 0xC0, 0xD0, 0xE3, 0xE4, 0xFF]),
                ],
                super::WIDE + 1,
            ),
            picks in (0usize..1000, 0usize..1000),
        ) {
            let bytes: [u8; super::WIDE + 1] = bytes.try_into().unwrap();
            let t = super::tables();
            let families = [t.families[picks.0 % t.families.len()], t.families[picks.1 % t.families.len()]];
            let (mut simd, mut each) = (super::Chunk::of_ascii(&bytes), super::Chunk::of_ascii_portable(&bytes));
            prop_assert_eq!(simd, each);
            simd.of_families(&bytes, &families);
            each.of_families_portable(&bytes, &families);
            prop_assert_eq!(simd, each);
        }
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

    proptest! {
        /// A run of ASCII read at once leaves the word as each byte read in turn does, and
        /// asks about it exactly where one of them does.
        #[test]
        fn an_ascii_run_is_read_as_its_bytes_in_turn(
            run in proptest::collection::vec(proptest::sample::select(b"aZ09_ -.#\t".to_vec()), 1..24),
            ascii in any::<bool>(),
            group in proptest::sample::select(vec![0u32, super::LATIN, super::LATIN + 1, 7]),
        ) {
            use super::Word;
            let start = Word { ascii, group };
            let mut each = start;
            let mut asked = false;
            for &b in &run {
                if each.ascii(b) {
                    asked = true;
                    break;
                }
            }
            let mut at_once = start;
            prop_assert_eq!(at_once.ascii_run(&run), asked);
            if !asked {
                prop_assert_eq!((at_once.ascii, at_once.group), (each.ascii, each.group));
            }
        }
    }
}
