//! The sieve sixty-four bytes at a time over text of any script, on an x86-64 with
//! AVX-512 VBMI and VBMI2: every character of a block is classified at once, and a line is
//! handed to the sieve a character at a time ([`super::lines`], which then decides as it
//! always does) only where a block finds something in it that may be a lint. Every other
//! line is passed over; on clean text of any language, that is nearly all of them.
//!
//! Each character of a block becomes a byte ([`Trie`]): its *word code* (not part of a
//! word, a letter of one script group, a mark that is part of a word but of no group),
//! whether it may be a non-starter, or [`DELEGATE`] for a character some lint looks at (or
//! one the tables do not tell apart). The byte is found from the character's first byte
//! (one `vpermb` over the block), then, where that byte's characters differ, from its
//! second byte, then its third (a `vpermb` for each distinct row or cell met in the block:
//! none to two on most text, where a row or cell whose characters would each ask no less
//! as one byte is that byte, see [`summary`]); the punctuation of most scripts (`C2`,
//! `E2 80` to `E2 AF`, `E3`) by comparing bytes ([`Shortcuts`]). A line is handed on when it
//! holds
//!
//! - a [`DELEGATE`]: a character some lint looks at, a four-byte one for MySQL, an ASCII
//!   control;
//! - a word whose letters are of two script groups, or ASCII letters and letters of a
//!   group other than Latin: each letter is compared with the letter before it in its word
//!   (the bytes that are not [`NONE`] packed side by side with `vpcompressb`), which holds
//!   for a word as a whole exactly when `super::Word` finds it does not ask about the
//!   word's scripts;
//! - a run of characters that may be non-starters that could pass the stream-safe limit:
//!   each counts one, a starter sets the run to three (its trailing non-starters, at most),
//!   ASCII to none; past the limit, the block's characters are counted again one by one.
//!
//! A line whose first such character is of an emoji sequence ([`SEQ`]) is read again with
//! the walk's rules for them (`super::sequences_are_quiet`, exact for any line that is well
//! formed), and walked only where that finds something.
//!
//! Each test asks no less than the sieve a character at a time does, so a line passed over
//! here holds nothing the walk finds: the proptests of `super` hold the lines the blocks
//! pass over to a full walk, and the tests below every code point's byte to its entry.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::LazyLock;

use super::{tables, BREAK, GROUP, LEADING_SHIFT, LOOK, SEQUENCE, STARTER, TRAILING_SHIFT};
use crate::lint::checks::{HAN, LATIN, MAX_NON_STARTERS};

/// A character or ASCII byte that is part of a word but no letter (a digit, `_`, a mark of
/// no script), or a continuation byte: it leaves its word as it was.
const NONE: u8 = 0;
/// A character or ASCII byte that is not part of a word: it ends the word before it.
const BRK: u8 = 1;
/// An ASCII letter.
const ASCII_LETTER: u8 = 2;
/// A Latin letter that is not ASCII (ASCII letters go with it in a word).
const LATIN_LETTER: u8 = 3;
/// The bits of a byte that hold its word code; codes from [`LATIN_LETTER`] + 1 up are the
/// other script groups, as the table met them.
const CODE: u8 = 0x3F;
/// A character that may be a non-starter (a leading non-starter after NFKD, or no
/// starter at all).
const MARK: u8 = 0x40;
/// A byte with this bit (and not [`DELEGATE`]) is no character's yet: the rest is the
/// index of the table to read with the next byte of the character.
const NEXT: u8 = 0x80;
/// The line goes to the sieve a character at a time.
const DELEGATE: u8 = 0xFF;
/// A character of an emoji sequence or the zero-width space (`super::SEQUENCE`: a joiner,
/// a variation selector, a tag, the black flag, U+200B): a line where these are all the blocks find is read again with
/// the walk's rules for them ([`super::sequences_are_quiet`]), and goes to the walk only
/// where one is out of place.
const SEQ: u8 = 0xFE;

/// The bytes of every character from its first byte on, as tables of 64 that `vpermb`
/// reads: `lead` by the first byte (`C0` to `FF`), a table reached from it by the second
/// byte, a table reached from that by the third.
struct Trie {
    lead: [u8; 64],
    /// [`Trie::lead`] where every four-byte character is looked at (MySQL utf8mb3, and
    /// the dialects that do not read four bytes as UTF-8 does).
    lead_four_byte: [u8; 64],
    tables: Vec<[u8; 64]>,
    /// By ASCII byte: [`NONE`], [`BRK`], [`ASCII_LETTER`], or [`DELEGATE`] for a control
    /// other than tab, line feed and carriage return.
    ascii: [u8; 128],
    /// The rows read by a few comparisons instead of tables ([`Shortcut`]), each where
    /// the Unicode data make it ask no less than the tables.
    shortcuts: Shortcuts,
}

/// The lead bytes of the punctuation of most scripts, read by comparing bytes rather than
/// by a table for each row and cell met (a round each, in every block of Latin, Cyrillic
/// or Greek text with a dash or a quotation mark): `C2` (U+0080 to U+00BF: the C1 controls
/// looked at, the rest signs and spaces, no part of a word but the soft hyphen), `E2 80` to `E2 AF` (U+2000
/// to U+2BFF: punctuation and symbols, no part of a word, but the zero-width space, the
/// joiners, marks and controls looked at in `E2 80` and `E2 81` and the combining marks for symbols in `E2
/// 83`) and `E3` (CJK punctuation, kana and the rest of U+3000 to U+3FFF: Han's group, as
/// if each may be a non-starter, but the spaces and brackets of `E3 80` and the Hangul
/// filler U+3164).
#[derive(Clone, Copy, Debug, Default)]
struct Shortcuts {
    c2: bool,
    e2: bool,
    /// Han's word code, where `E3` is read so.
    e3: Option<u8>,
}

/// Whether `got`, a byte the block pass gives a character, asks no less than `own`, the
/// byte of its own entry ([`leaf`]): see [`summary`].
fn asks_no_less(got: u8, own: u8) -> bool {
    if got == DELEGATE || (got == SEQ && own == SEQ) {
        return true;
    }
    if own == SEQ || got == SEQ {
        return false;
    }
    if own == DELEGATE || got & NEXT != 0 || (own & MARK != 0 && got & MARK == 0) {
        return false;
    }
    let (own, got) = (own & CODE, got & CODE);
    own == got || (matches!(own, NONE | BRK) && got > ASCII_LETTER) || (own == BRK && got == NONE)
}

impl Shortcuts {
    /// The byte of the character of `b1` and `b2` (continuation bytes, or what follows)
    /// after `b0`, if a shortcut reads it.
    fn read(&self, b0: u8, b1: u8, b2: u8) -> Option<u8> {
        let within = |b: u8, lo: u8, hi: u8| (lo..=hi).contains(&b);
        match b0 {
            0xC2 if self.c2 => Some(match b1 {
                ..0xA0 => DELEGATE,
                // The soft hyphen, part of a word.
                0xAD => NONE,
                _ => BRK,
            }),
            0xE2 if self.e2 && b1 < 0xB0 => Some(match (b1, b2) {
                (0x80, 0x8B..=0x8D) => SEQ,
                (0x80, b) if within(b, 0x8B, 0x8F) || within(b, 0xA8, 0xAE) => DELEGATE,
                (0x81, b) if within(b, 0xA0, 0xAF) => DELEGATE,
                (0x83, b) if within(b, 0x90, 0xB0) => NONE | MARK,
                _ => BRK,
            }),
            0xE3 => self.e3.map(|han| match (b1, b2) {
                (0x85, 0xA4) => DELEGATE,
                (0x80, b) if within(b, 0x80, 0x83) || within(b, 0x88, 0xA0) => BRK,
                _ => han | MARK,
            }),
            _ => None,
        }
    }

    /// Those of the shortcuts that ask no less than `entries` of every character they
    /// read.
    fn checked(entries: &[u16], codes: &[u8]) -> Shortcuts {
        let all = Shortcuts {
            c2: true,
            e2: true,
            e3: codes.get(HAN as usize).copied().filter(|&c| c != 0),
        };
        let holds = |range: std::ops::Range<u32>| {
            range.filter_map(char::from_u32).all(|c| {
                let mut buf = [0; 4];
                let b = c.encode_utf8(&mut buf).as_bytes();
                let got = all.read(b[0], b[1], *b.get(2).unwrap_or(&0));
                got.is_some_and(|g| asks_no_less(g, leaf(entries[c as usize], codes)))
            })
        };
        Shortcuts {
            c2: holds(0x80..0xC0),
            e2: holds(0x2000..0x2C00),
            e3: all.e3.filter(|_| holds(0x3000..0x4000)),
        }
    }
}

/// The byte of the character whose sieve entry is `e` (see `super::entry`), with `codes`
/// the code of each script group that has one.
fn leaf(e: u16, codes: &[u8]) -> u8 {
    if e == SEQUENCE {
        return SEQ;
    }
    if e & LOOK != 0 {
        return DELEGATE;
    }
    let leading = (e >> LEADING_SHIFT) & 3;
    if leading > 1 {
        return DELEGATE;
    }
    let mark = if leading == 1 || e & STARTER == 0 {
        MARK
    } else {
        0
    };
    let code = match (e & GROUP) as u32 {
        0 => NONE,
        BREAK => BRK,
        LATIN => LATIN_LETTER,
        // More groups than codes: their letters go to the sieve a character at a time.
        g => match codes[g as usize] {
            0 => return DELEGATE,
            c => c,
        },
    };
    code | mark
}

/// A code for each script group (by group; 0: none), as many as there is room for:
/// those of the BMP first (about fifty), but for the private use area's (a group a
/// page), then the others in code point order (the historic scripts of plane 1).
fn codes(entries: &[u16]) -> Vec<u8> {
    let private = 0xE000..0xF900;
    let bmp = (0x80..0x1_0000).filter(|v| !private.contains(v));
    let rest = private.clone().chain(0x1_0000..entries.len());
    let mut codes = vec![0; GROUP as usize + 1];
    let mut next = LATIN_LETTER + 1;
    for v in bmp.chain(rest) {
        let e = entries[v];
        let g = (e & GROUP) as u32;
        if e & LOOK != 0 || matches!(g, 0 | BREAK | LATIN) || codes[g as usize] != 0 {
            continue;
        }
        if next > CODE {
            break;
        }
        codes[g as usize] = next;
        next += 1;
    }
    codes
}

/// One byte for characters of `values` (their bytes, in a cell or a row) where that byte
/// asks no less of each than its own: none is [`DELEGATE`] and their letters are of one
/// script group at most. A word code that is a letter in place of [`NONE`] or [`BRK`]
/// only joins words or adds a letter to compare (each letter is compared with the one
/// before: a letter put between two that differ differs from one of them), and [`MARK`]
/// only lengthens a run; so the byte is the group of the letters (or [`NONE`] where
/// there are none; [`NONE`] joins where [`BRK`] ends), with [`MARK`] if any has it.
fn summary(values: &[u8]) -> Option<u8> {
    let mut code = None;
    let mut mark = 0;
    let mut all_break = true;
    for &v in values {
        if v & NEXT != 0 {
            return None;
        }
        mark |= v & MARK;
        match v & CODE {
            BRK => {}
            NONE => all_break = false,
            c => match code {
                Some(k) if k != c => return None,
                _ => code = Some(c),
            },
        }
    }
    let code = code.unwrap_or(if all_break { BRK } else { NONE });
    Some(code | mark)
}

impl Trie {
    fn build() -> Trie {
        let entries = &tables().entries;
        let codes = codes(entries);
        let mut tables: Vec<[u8; 64]> = Vec::new();
        let mut known: HashMap<[u8; 64], u8> = HashMap::new();
        // The byte for 64 characters or cells told apart by the next byte: their
        // summary, else a table's index.
        let mut node = |values: [u8; 64]| -> u8 {
            if let Some(one) = summary(&values) {
                return one;
            }
            if values.iter().all(|&v| v == DELEGATE) {
                return DELEGATE;
            }
            if let Some(&k) = known.get(&values) {
                return NEXT | k;
            }
            let k = tables.len();
            // Indexes up to 0x7D: 0xFE is SEQ, 0xFF DELEGATE.
            if k >= 0x7E {
                return DELEGATE;
            }
            tables.push(values);
            known.insert(values, k as u8);
            NEXT | k as u8
        };
        let leaf_of = |v: usize| leaf(entries[v], &codes);
        let mut lead = [DELEGATE; 64];
        for b0 in 0xC2usize..=0xF0 {
            lead[b0 - 0xC0] = match b0 {
                0xC2..=0xDF => node(std::array::from_fn(|k| leaf_of(((b0 & 0x1F) << 6) | k))),
                0xE0..=0xEF => {
                    let row = std::array::from_fn(|k| {
                        // Overlong forms and surrogates: the sieve a character at a time.
                        if (b0 == 0xE0 && k < 0x20) || (b0 == 0xED && k >= 0x20) {
                            return DELEGATE;
                        }
                        let base = ((b0 & 0x0F) << 12) | (k << 6);
                        node(std::array::from_fn(|j| leaf_of(base | j)))
                    });
                    node(row)
                }
                // Plane 1 (emoji, historic scripts); the planes above are rare in text.
                0xF0 => {
                    let row = std::array::from_fn(|k| {
                        if !(0x10..0x20).contains(&k) {
                            return DELEGATE;
                        }
                        let base = 0x1_0000 + ((k - 0x10) << 12);
                        let cell = std::array::from_fn(|j| {
                            let run: [u8; 64] = std::array::from_fn(|c| leaf_of(base | j << 6 | c));
                            summary(&run).unwrap_or(DELEGATE)
                        });
                        node(cell)
                    });
                    node(row)
                }
                _ => DELEGATE,
            };
        }
        let shortcuts = Shortcuts::checked(entries, &codes);
        // A shortcut's lead byte: a byte the comparisons then change where they must.
        if shortcuts.c2 {
            lead[0x02] = BRK;
        }
        if let Some(han) = shortcuts.e3 {
            lead[0x23] = han | MARK;
        }
        let mut lead_four_byte = lead;
        lead_four_byte[0x30..].fill(DELEGATE);
        let ascii = std::array::from_fn(|b| match b as u8 {
            b'\t' | b'\n' | b'\r' => BRK,
            0..0x20 | 0x7F => DELEGATE,
            b'0'..=b'9' | b'_' => NONE,
            b if b.is_ascii_alphabetic() => ASCII_LETTER,
            _ => BRK,
        });
        Trie {
            lead,
            lead_four_byte,
            tables,
            ascii,
            shortcuts,
        }
    }
}

fn trie() -> &'static Trie {
    static TRIE: LazyLock<Trie> = LazyLock::new(Trie::build);
    &TRIE
}

/// Whether this CPU runs [`lines_by_blocks`].
pub(super) fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static AVAILABLE: LazyLock<bool> = LazyLock::new(|| {
            std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512vbmi")
                && std::is_x86_feature_detected!("avx512vbmi2")
                && std::is_x86_feature_detected!("bmi2")
                && std::is_x86_feature_detected!("popcnt")
                && std::is_x86_feature_detected!("lzcnt")
                && std::is_x86_feature_detected!("bmi1")
        });
        *AVAILABLE
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// A table no lane reads.
static NOTHING: [u8; 64] = [DELEGATE; 64];

/// Ranges handed on, neighbours joined.
struct Joined<F: FnMut(Range<usize>)> {
    pending: Option<Range<usize>>,
    walk: F,
}

impl<F: FnMut(Range<usize>)> Joined<F> {
    fn push(&mut self, r: Range<usize>) {
        if let Some(p) = super::join(&mut self.pending, r) {
            (self.walk)(p);
        }
    }
}

/// What a block leaves to the next in its line: the word code of the last byte that is
/// not [`NONE`], and the run of characters that may be non-starters.
#[derive(Clone, Copy)]
struct Carry {
    /// In every lane.
    #[cfg(target_arch = "x86_64")]
    word: std::arch::x86_64::__m512i,
    run: u32,
}

impl Carry {
    /// At the start of a line.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    fn line_start() -> Carry {
        Carry {
            word: std::arch::x86_64::_mm512_set1_epi8(BRK as i8),
            run: 0,
        }
    }
}

/// [`super::lines_to_walk`] where [`available`] says so: blocks of 64 bytes up to
/// `well_formed_end`, lines with something in them (and the rest) through
/// [`super::lines`].
///
/// # Safety
///
/// The CPU must have what [`available`] asks for.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,avx2,popcnt,lzcnt,bmi1,bmi2")]
pub(super) unsafe fn lines_by_blocks(
    bytes: &[u8],
    range: Range<usize>,
    four_byte: bool,
    well_formed_end: usize,
    walk: impl FnMut(Range<usize>),
) {
    let trie = trie();
    let end = range.end;
    let mut out = Joined {
        pending: None,
        walk,
    };
    // Lines for the sieve a character at a time, in a row.
    let mut delegated: Option<Range<usize>> = None;
    let sieve = |d: Range<usize>, out: &mut Joined<_>| {
        super::lines(bytes, d, four_byte, well_formed_end, true, |r| out.push(r))
    };
    // A block reads two bytes past its end (the rest of a character begun in it).
    let limit = end.min(well_formed_end).min(bytes.len().saturating_sub(2));
    let entries = &tables().entries;
    let mut line_start = range.start;
    let mut at = range.start;
    let mut carry = Carry::line_start();
    while at + 64 <= limit {
        // SAFETY: bytes at..at + 66 are in `bytes` (`limit`); the CPU has what
        // `available` asks.
        let b = unsafe { block(trie, bytes.as_ptr().add(at), four_byte, &mut carry) };
        if b.bad == 0 {
            if b.feeds != 0 {
                line_start = at + 64 - b.feeds.leading_zeros() as usize;
            }
            at += 64;
            continue;
        }
        let first = b.bad.trailing_zeros() as usize;
        let before = b.feeds & ((1u64 << first) - 1);
        let start = match before {
            0 => line_start,
            f => at + 64 - f.leading_zeros() as usize,
        };
        let from = at + first;
        let stop = memchr::memchr(b'\n', &bytes[from..end]).map_or(end, |k| from + k + 1);
        // A character of an emoji sequence first: the line is read again with the walk's
        // rules for them (and for everything else: anything it does not pass over, the
        // walk decides), not first a character at a time.
        let sequence = super::character_at(bytes, from)
            .is_some_and(|(_, v)| entries.get(v as usize) == Some(&SEQUENCE));
        if sequence {
            if !quiet_sequences(&bytes[start..stop], entries, four_byte) {
                if let Some(d) = delegated.take() {
                    sieve(d, &mut out);
                }
                out.push(start..stop);
            }
        } else if let Some(d) = super::join(&mut delegated, start..stop) {
            sieve(d, &mut out);
        }
        at = stop;
        line_start = stop;
        carry = Carry::line_start();
    }
    if line_start < end {
        if let Some(d) = super::join(&mut delegated, line_start..end) {
            sieve(d, &mut out);
        }
    }
    if let Some(d) = delegated {
        sieve(d, &mut out);
    }
    if let Some(p) = out.pending {
        (out.walk)(p);
    }
}

/// [`super::sequences_are_quiet`] of a line, its words asked too; out of the block pass's
/// loop.
#[inline(never)]
fn quiet_sequences(line: &[u8], entries: &[u16], four_byte: bool) -> bool {
    super::sequences_are_quiet(line, entries, four_byte, true)
}

/// What a block holds: its line feeds, and the bytes whose line goes to the sieve a
/// character at a time or is read again for its emoji sequences (one bit a byte, the
/// first byte lowest).
struct Block {
    feeds: u64,
    bad: u64,
}

/// Classifies the 64 bytes at `p`, `carry` coming in from the bytes before in the line
/// and going out to the next block.
///
/// # Safety
///
/// `p..p + 66` must be readable; the CPU must have what [`available`] asks, and the
/// caller be compiled for it (it is inlined into [`lines_by_blocks`], where the
/// intrinsics are then inlined too: a function of its own with the same features is not
/// inlined, and passes its vectors through memory).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn block(trie: &Trie, p: *const u8, four_byte: bool, carry: &mut Carry) -> Block {
    use std::arch::x86_64::*;
    // SAFETY: inlined only into `lines_by_blocks`, compiled for what `available` asks
    // (so every intrinsic below runs on a CPU that has it); and the caller's promise.
    unsafe {
        // The caller's promise: `p..p + 66` readable.
        let v = _mm512_loadu_si512(p.cast());
        let table = |t: &[u8; 64]| _mm512_loadu_si512(t.as_ptr().cast());
        let nonascii = _mm512_movepi8_mask(v);
        let ascii = !nonascii;
        let feeds = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'\n' as i8));
        let (lo, hi) = trie.ascii.split_at(64);
        let mut w = _mm512_maskz_permutex2var_epi8(
            ascii,
            table(lo.try_into().expect("64")),
            v,
            table(hi.try_into().expect("64")),
        );
        if nonascii == 0 {
            // ASCII alone: only a word of letters of another script that it goes on asks
            // more.
            let foreign = _mm512_cmpgt_epu8_mask(carry.word, _mm512_set1_epi8(LATIN_LETTER as i8));
            if foreign & 1 == 0 {
                let named = _mm512_test_epi8_mask(w, w);
                if named != 0 {
                    let last = _mm512_set1_epi8((63 - named.leading_zeros()) as i8);
                    carry.word = _mm512_permutexvar_epi8(last, w);
                }
                carry.run = 0;
                let bad = _mm512_cmpeq_epi8_mask(w, _mm512_set1_epi8(DELEGATE as i8));
                return Block { feeds, bad };
            }
        }
        let lead = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(0xC0u8 as i8));
        if lead != 0 {
            // The caller's promise, passed on.
            w = _mm512_or_si512(w, characters(trie, p, v, lead, four_byte));
        }
        // A character of an emoji sequence, too: its line is read again.
        let mut bad = _mm512_cmpge_epu8_mask(w, _mm512_set1_epi8(SEQ as i8));
        let words = _mm512_and_si512(w, _mm512_set1_epi8(CODE as i8));

        // Words: every letter against the letter before it in its word. At once where all
        // the block's letters and the one before the block are alike.
        let letters = _mm512_cmpge_epu8_mask(words, _mm512_set1_epi8(ASCII_LETTER as i8));
        let named = _mm512_test_epi8_mask(words, words);
        let latin = |x: __m512i| {
            _mm512_cmpeq_epi8_mask(
                _mm512_and_si512(x, _mm512_set1_epi8(!1)),
                _mm512_set1_epi8(ASCII_LETTER as i8),
            )
        };
        let alike = |x: __m512i, y: __m512i| _mm512_cmpeq_epi8_mask(x, y) | (latin(x) & latin(y));
        if letters != 0 {
            // The bytes that are not NONE, side by side: each then stands next to the one
            // before it in its line (the first, after the block before).
            let dense = _mm512_maskz_compress_epi8(named, words);
            let before = _mm512_permutex2var_epi8(carry.word, table(&ONE_BACK), dense);
            let letter =
                |x: __m512i| _mm512_cmpge_epu8_mask(x, _mm512_set1_epi8(ASCII_LETTER as i8));
            let differ = letter(dense) & letter(before) & !alike(before, dense);
            bad |= _pdep_u64(differ, named);
        }
        if named != 0 {
            let last = _mm512_set1_epi8((63 - named.leading_zeros()) as i8);
            carry.word = _mm512_permutexvar_epi8(last, words);
        }

        // Runs of what may be non-starters.
        let marks = lead & _mm512_test_epi8_mask(w, _mm512_set1_epi8(MARK as i8));
        let starters = ascii | (lead & !marks);
        let limit = MAX_NON_STARTERS as u32;
        let count = marks.count_ones();
        // No run in the block is longer than what came in, or what a starter in it sets
        // (three at most), with every mark of the block after it.
        if carry.run.max(3) + count <= limit {
            carry.run = match starters {
                0 => carry.run + count,
                s => {
                    let last = 63 - s.leading_zeros();
                    let base = if ascii >> last & 1 == 1 { 0 } else { 3 };
                    base + (marks >> last).count_ones()
                }
            };
        } else {
            // Counted again a character at a time, as the sieve does (the bytes above may
            // stand for a whole row or cell of characters).
            let entries = &tables().entries;
            let mut run = carry.run;
            let mut rest = lead | ascii;
            while rest != 0 {
                let k = rest.trailing_zeros() as usize;
                let bit = 1u64 << k;
                rest &= rest - 1;
                if ascii & bit != 0 {
                    run = 0;
                    continue;
                }
                // A lead byte in the block, its character whole within the bytes that may be
                // read (`p..p + 66`, and the input well formed); one of four bytes counts as
                // looked at.
                let window = std::slice::from_raw_parts(p, 66);
                let e = super::character_at(window, k)
                    .filter(|&(n, _)| n < 4)
                    .and_then(|(_, v)| entries.get(v as usize))
                    .copied()
                    .unwrap_or(LOOK);
                if e & LOOK != 0 {
                    bad |= bit;
                    run = 0;
                    continue;
                }
                run += ((e >> LEADING_SHIFT) & 3) as u32;
                if run > limit {
                    bad |= bit;
                }
                if e & STARTER != 0 {
                    run = ((e >> TRAILING_SHIFT) & 3) as u32;
                }
            }
            carry.run = run;
        }
        Block { feeds, bad }
    }
}

/// The byte of each character that begins in the 64 bytes `v` at `p` (the lanes of
/// `lead`), 0 in the other lanes: the trie's tables and the shortcuts.
///
/// # Safety
///
/// `p..p + 66` must be readable; the CPU must have what [`available`] asks, and the
/// caller be compiled for it (it is inlined into [`lines_by_blocks`], where the
/// intrinsics are then inlined too: a function of its own with the same features is not
/// inlined, and passes its vectors through memory).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn characters(
    trie: &Trie,
    p: *const u8,
    v: std::arch::x86_64::__m512i,
    lead: u64,
    four_byte: bool,
) -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::*;
    // SAFETY: inlined only into `lines_by_blocks`, compiled for what `available` asks
    // (so every intrinsic below runs on a CPU that has it); and the caller's promise.
    unsafe {
        let table = |t: &[u8; 64]| _mm512_loadu_si512(t.as_ptr().cast());
        // The caller's promise: `p..p + 66` readable.
        let (v1, v2) = (
            _mm512_loadu_si512(p.add(1).cast()),
            _mm512_loadu_si512(p.add(2).cast()),
        );
        let leads = match four_byte {
            true => &trie.lead_four_byte,
            false => &trie.lead,
        };
        let first = _mm512_maskz_permutexvar_epi8(lead, v, table(leads));
        let mut w = first;
        // Below SEQ and DELEGATE, from NEXT up: a table's index.
        let next_of = |x: __m512i, m: u64| {
            m & _mm512_test_epi8_mask(x, _mm512_set1_epi8(NEXT as i8))
                & _mm512_cmplt_epu8_mask(x, _mm512_set1_epi8(SEQ as i8))
        };
        // The shortcuts: what `Shortcuts::read` says, by comparisons.
        let is = |x: __m512i, b: u8| _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8(b as i8));
        let within = |x: __m512i, lo: u8, hi: u8| {
            _mm512_cmple_epu8_mask(
                _mm512_sub_epi8(x, _mm512_set1_epi8(lo as i8)),
                _mm512_set1_epi8((hi - lo) as i8),
            )
        };
        let set = |w: __m512i, m: u64, b: u8| _mm512_mask_mov_epi8(w, m, _mm512_set1_epi8(b as i8));
        let mut read = 0;
        let sc = trie.shortcuts;
        if sc.c2 {
            let c2 = lead & is(v, 0xC2);
            if c2 != 0 {
                w = set(
                    w,
                    c2 & _mm512_cmplt_epu8_mask(v1, _mm512_set1_epi8(0xA0u8 as i8)),
                    DELEGATE,
                );
                w = set(w, c2 & is(v1, 0xAD), NONE);
            }
        }
        if sc.e2 {
            let e2 =
                lead & is(v, 0xE2) & _mm512_cmplt_epu8_mask(v1, _mm512_set1_epi8(0xB0u8 as i8));
            if e2 != 0 {
                let looked = (is(v1, 0x80) & (within(v2, 0x8B, 0x8F) | within(v2, 0xA8, 0xAE)))
                    | (is(v1, 0x81) & within(v2, 0xA0, 0xAF));
                let marks = is(v1, 0x83) & within(v2, 0x90, 0xB0);
                w = set(w, e2, BRK);
                w = set(w, e2 & marks, NONE | MARK);
                w = set(w, e2 & looked, DELEGATE);
                w = set(w, e2 & is(v1, 0x80) & within(v2, 0x8B, 0x8D), SEQ);
                read |= e2;
            }
        }
        if sc.e3.is_some() {
            let e3 = lead & is(v, 0xE3);
            if e3 != 0 {
                let spaces = is(v1, 0x80) & (within(v2, 0x80, 0x83) | within(v2, 0x88, 0xA0));
                w = set(w, e3 & spaces, BRK);
                w = set(w, e3 & is(v1, 0x85) & is(v2, 0xA4), DELEGATE);
            }
        }
        // The second bytes, for each first byte met whose characters differ; then the
        // third bytes, for each cell met whose characters differ. The table of a lane is
        // read off the bytes, so each round waits only for the mask of the last.
        let second = next_of(first, lead & !read);
        // One round: the lanes of `rest` whose byte in `key` is `t` read table `t` by
        // `by`. Where `rest` is empty, it changes nothing: the first rounds are not
        // asked whether there is one (a branch that would often be guessed wrong).
        macro_rules! round {
            ($rest:ident, $key:expr, $pick:expr, $by:expr) => {{
                let t: u8 = $pick($rest.trailing_zeros());
                let same = $rest & _mm512_cmpeq_epi8_mask($key, _mm512_set1_epi8(t as i8));
                let t = trie.tables.get((t & !NEXT) as usize).unwrap_or(&NOTHING);
                w = _mm512_mask_mov_epi8(w, same, _mm512_permutexvar_epi8($by, table(t)));
                $rest &= !same;
            }};
        }
        let mut rest = second;
        // SAFETY: lane k is in the block, or k is 64 (no lane left), `p + 64` readable.
        let row = |k: u32| leads[(*p.add(k as usize) & 0x3F) as usize];
        while rest != 0 {
            round!(rest, first, row, v1);
        }
        let mut rest = next_of(w, second);
        let cells = w;
        let cell = |k: u32| {
            // SAFETY: as for `row`, and `p + 65` readable.
            let b1 = *p.add(k as usize + 1);
            let t = trie
                .tables
                .get((row(k) & !NEXT) as usize)
                .unwrap_or(&NOTHING);
            t[(b1 & 0x3F) as usize]
        };
        while rest != 0 {
            round!(rest, cells, cell, v2);
        }
        w
    }
}

/// The indexes for `_mm512_permutex2var_epi8(came, ONE_BACK, x)`: lane `j` takes
/// `x[j - 1]`, lane 0 the first of `came`.
static ONE_BACK: [u8; 64] = {
    let mut at = [0; 64];
    let mut j = 1;
    while j < 64 {
        at[j] = 63 + j as u8;
        j += 1;
    }
    at
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte the trie gives the character `c`, read as [`block`] reads it.
    fn read(t: &Trie, c: char, four_byte: bool) -> u8 {
        let mut buf = [0; 4];
        let b = c.encode_utf8(&mut buf).as_bytes();
        let lead = if four_byte {
            &t.lead_four_byte
        } else {
            &t.lead
        };
        if let Some(x) = t.shortcuts.read(b[0], b[1], *b.get(2).unwrap_or(&0)) {
            return x;
        }
        let mut x = lead[(b[0] & 0x3F) as usize];
        for &next in &b[1..] {
            if x & NEXT == 0 || x >= SEQ {
                break;
            }
            x = t.tables[(x & !NEXT) as usize][(next & 0x3F) as usize];
        }
        x
    }

    /// Every character's byte asks no less than its own entry does (see [`summary`]): a
    /// character some lint looks at is [`DELEGATE`]; a mark is [`MARK`]; a letter keeps
    /// its group; a character of no group may stand as a letter, and one that ends a
    /// word as one that does not. And none of the BMP but the private use area's is
    /// handed on for want of room: only what a lint looks at.
    #[test]
    fn every_character_reads_as_its_entry_or_asks_more() {
        let t = trie();
        let entries = &tables().entries;
        let codes = codes(entries);
        let sc = t.shortcuts;
        assert!(sc.c2 && sc.e2 && sc.e3.is_some(), "{sc:?}");
        let mut delegated = 0;
        for c in (0x80..0x11_0000).filter_map(char::from_u32) {
            let v = c as usize;
            let got = read(t, c, false);
            if c.len_utf8() == 4 {
                assert_eq!(read(t, c, true), DELEGATE, "{v:X} for MySQL");
            }
            let Some(&e) = entries.get(v) else {
                assert_eq!(got, DELEGATE, "{v:X}");
                continue;
            };
            let own = leaf(e, &codes);
            if got == DELEGATE {
                delegated += 1;
                let private = (0xE000..0xF900).contains(&v) || v >= 0x1_0000;
                // Of the characters of emoji sequences, those of the BMP are read again
                // with their line (but the black flag's cell is handed on whole).
                let sequence = own == SEQ && v >= 0x1_0000;
                assert!(
                    own == DELEGATE || private || sequence,
                    "{v:X} handed on, entry {e:X}"
                );
                continue;
            }
            if own == SEQ || got == SEQ {
                assert_eq!((got, own), (SEQ, SEQ), "{v:X}");
                continue;
            }
            assert_ne!(own, DELEGATE, "{v:X} passed over, entry {e:X}");
            assert_eq!(got & NEXT, 0, "{v:X}");
            assert!(own & MARK == 0 || got & MARK != 0, "{v:X}: its mark lost");
            let (own, got) = (own & CODE, got & CODE);
            let asks_more = own == got
                || (matches!(own, NONE | BRK) && got > ASCII_LETTER)
                || (own == BRK && got == NONE);
            assert!(asks_more, "{v:X}: code {own} read as {got}");
        }
        // The characters looked at below U+10000, plane 1 but for its emoji, and the
        // planes above; but no more.
        assert!(delegated < 1_030_000, "{delegated}");
    }

    proptest::proptest! {
        /// The byte [`characters`] gives each character beginning in a block is the one
        /// the trie and the shortcuts give it read a byte at a time ([`read`]), for
        /// characters of every length, drawn mostly from the rows the shortcuts read and
        /// the cells the tables tell apart, at every place in the block.
        #[test]
        fn the_blocks_bytes_are_the_tries(
            chars in proptest::collection::vec(
                proptest::prop_oneof![
                    4 => proptest::char::range('\u{80}', '\u{7FF}'),
                    4 => proptest::char::range('\u{2000}', '\u{20FF}'),
                    4 => proptest::char::range('\u{3000}', '\u{31FF}'),
                    4 => proptest::char::range('\u{800}', '\u{FFFF}'),
                    2 => proptest::char::range('\u{10000}', '\u{10FFFF}'),
                    2 => proptest::char::range('\0', '\u{7F}'),
                ],
                22..80,
            ),
            four_byte in proptest::bool::ANY,
        ) {
            if !available() {
                return Ok(());
            }
            let text: String = chars.iter().collect();
            let bytes = text.as_bytes();
            let t = trie();
            let mut at = 0;
            while at + 66 <= bytes.len() {
                let block = &bytes[at..at + 64];
                // SAFETY: `available`; 66 bytes from `at`.
                let got = unsafe {
                    use std::arch::x86_64::*;
                    let p = bytes.as_ptr().add(at);
                    let v = _mm512_loadu_si512(p.cast());
                    let lead = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(0xC0u8 as i8));
                    let mut out = [0u8; 64];
                    _mm512_storeu_si512(out.as_mut_ptr().cast(), characters(t, p, v, lead, four_byte));
                    out
                };
                for (k, &b) in block.iter().enumerate() {
                    let want = match b {
                        0xC0.. => {
                            let c = std::str::from_utf8(&bytes[at + k..]).ok().and_then(|s| s.chars().next());
                            let c = c.unwrap_or_else(|| {
                                let n = bytes[at + k..].iter().skip(1).take_while(|&&x| x & 0xC0 == 0x80).count() + 1;
                                std::str::from_utf8(&bytes[at + k..at + k + n]).unwrap().chars().next().unwrap()
                            });
                            read(t, c, four_byte)
                        }
                        _ => 0,
                    };
                    proptest::prop_assert_eq!(got[k], want, "lane {} of the block at {}", k, at);
                }
                at += 1 + (at % 7);
            }
        }
    }

    /// The lines of the clean corpus that blocks hand on are those the sieve a character at
    /// a time does: the one with a word of ASCII and a modifier letter (`aᵢ`), which the
    /// walk asks about its scripts; for MySQL, every line with a character above U+FFFF
    /// too.
    #[test]
    fn blocks_hand_on_of_the_clean_corpus_what_the_sieve_does() {
        if !available() {
            return;
        }
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .expect("the corpus")
            .map(|e| e.expect("an entry").path())
            .collect();
        files.sort();
        let mut text = Vec::new();
        for f in files {
            text.extend(std::fs::read(f).expect("a corpus file"));
        }
        let text = text.repeat(3);
        let math = std::str::from_utf8(&text)
            .expect("UTF-8")
            .find("Math: ")
            .expect("the symbols line");
        for four_byte in [false, true] {
            let (mut blocks, mut sieve) = (Vec::new(), Vec::new());
            // SAFETY: `available`.
            unsafe {
                lines_by_blocks(&text, 0..text.len(), four_byte, text.len(), |r| {
                    blocks.push(r)
                })
            };
            super::super::lines_a_character_at_a_time(
                &text,
                0..text.len(),
                four_byte,
                text.len(),
                |r| sieve.push(r),
            );
            assert_eq!(blocks, sieve, "four_byte {four_byte}");
            if !four_byte {
                let end = math + text[math..].iter().position(|&b| b == b'\n').unwrap() + 1;
                assert_eq!(blocks[0], math..end);
                assert_eq!(blocks.len(), 3);
            }
        }
    }
}
