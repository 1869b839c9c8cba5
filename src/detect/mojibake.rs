//! Mojibake: UTF-8 text that was decoded as a single-byte legacy encoding and encoded as
//! UTF-8 again, once or several times ("Ã©" for "é", "ÃƒÂ©" for "é" twice, "â€™" for "’").
//!
//! The search is right by construction where it matters: a stretch of text is only called
//! mojibake for encoding E when encoding it back with E gives bytes that are valid UTF-8,
//! made of multi-byte sequences, so the repair is exact and reversible. Whether it *should*
//! be repaired is a judgment ([`super::judge`]), made on three questions:
//!
//! 1. Is every repaired character plausible, does the repair keep each word in one
//!    script ("JГіzef" becomes "Józef", but "Îşi" must not become "κi", nor "sécurité »"
//!    "sécurit頻"), and an all-caps word in capitals ("PĂŞUNE" must not become "PêUNE")?
//! 2. Is the original odd, as misread bytes are and real words are not: a sign right after
//!    a letter ("Ã©"), a capital inside a lower-case word ("lidÃ©"), a C1 control, box
//!    drawing glued to letters ("├⌐")? Such a stretch is *confident*. Two signs of
//!    mathematics ("√π", "√∑", "≈π": `ù`, `÷`, `Ź` through macintosh) are what formulas
//!    write, and confident only right before a word ("√∫ltimo").
//! 3. For the Cyrillic and Greek code pages, is the original a word of that script with
//!    ordinary casing ("Ні", "Ві"), on a line with other words of its script, with no
//!    letters of another ("Рівне" alone), or of three letters or more ("Рівне (Rivne)")?
//!    Then it is the writer's, never repaired.
//!
//! A stretch that passes 1 and 3 but not 2 (a *weak* one, "Ãœ" for "Ü") is repaired only
//! when a confident stretch through the same encoding lies on the same line nearby.
//! Stretches are non-ASCII runs, or the valid parts of one; repairs of one line through the
//! same chain that only ASCII separates are merged into one region.
//!
//! This module knows text, not files: offsets are byte offsets into the `&str` it is given.

use super::alphabets::{cyrillic_misfits, misfits};
use super::judge::{
    is_attached, is_box, is_cp1252_row8_letter, is_foreign_mark, is_letter, is_lower, is_mark_of,
    is_math_pair, is_odd_after_letter, is_plausible, is_upper, script, Script,
};
use super::table::Legacy;

/// How many times text may have gone through a wrong decoding that is undone.
pub const MAX_CHAIN: usize = 4;

/// How far (bytes) a weak stretch may be from a confident one of the same line.
const WEAK_REACH: usize = 256;

/// How much ASCII (bytes, no line feed) may separate two repairs merged into one region.
const MERGE_GAP: usize = 64;

/// The longest stretch of a line judged at once (bytes): a longer line is judged in windows
/// of about this size ([`find_in_line`]).
const LINE_WINDOW: usize = 1 << 16;

/// One region of mojibake: bytes `start..end` of the text, the encodings that undo it
/// (outermost first: the last wrong decoding comes first), and the text it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mojibake {
    /// First byte, relative to the text searched.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// The encodings to encode back with, in order, each followed by decoding as UTF-8.
    pub chain: Vec<Legacy>,
    /// The repaired text of the region.
    pub text: String,
}

impl Mojibake {
    /// The chain's names, outermost first.
    pub fn chain_names(&self) -> Vec<&'static str> {
        self.chain.iter().map(|e| e.name()).collect()
    }
}

/// The encodings (bits as in [`byte_masks`]) whose pairs of lead and continuation bytes
/// include two Cyrillic letters of a word ([`judge_line`]). Not KOI8-U, whose Ukrainian
/// letters at continuation bytes are also what Latin letters misread through it give
/// (`цє` for `ä`): it is searched but for pairs inside a Cyrillic word that give no
/// Cyrillic letter back ([`OWN_WORDS`]).
const WORD_PAIRS: u32 = 1 << Legacy::Ibm866.index() | 1 << Legacy::Koi8R.index();

/// `pairs` (the encodings that write `first` as a lead byte and `second` as a continuation
/// byte) but for those of [`WORD_PAIRS`] where the two are Cyrillic letters of a word in
/// ordinary casing: IBM866 writes `р`..`я` as lead bytes and `а`..`п` as continuation
/// bytes, so most Russian words are a UTF-8 sequence through it; only a small letter
/// before a capital (`тАЩ`, `’` misread) or a letter beside a sign (`╨Р`) starts a
/// misreading there.
fn not_in_a_word(first: char, second: char, pairs: u32) -> u32 {
    let word = pairs & WORD_PAIRS != 0
        && script(first) == Some(Script::Cyrillic)
        && script(second) == Some(Script::Cyrillic)
        && !(is_lower(first) && is_upper(second));
    match word {
        true => pairs & !WORD_PAIRS,
        false => pairs,
    }
}

/// The encodings of a script whose own letters make UTF-8 sequences of each other
/// ([`starts_a_piece`]; the block of that script is [`native_block`]'s): windows-874 writes most Thai
/// consonants as lead bytes (C0..DF) and the others as continuation bytes (A1..BF), so
/// `รถ` is `C3 B6`, `ö`; windows-1256 does so with Arabic letters and the Persian and Urdu
/// ones; windows-1255 with Hebrew points; KOI8-U with Ukrainian's `є і ї ґ` and `ё`
/// after any Cyrillic letter (`Чує`: `у` is D5, `є` A4), which [`WORD_PAIRS`] leaves to
/// it for the Latin letters misread through it (`Mцєrz` for `März`: after a Latin
/// letter).
const OWN_WORDS: [Legacy; 4] = [
    Legacy::Windows874,
    Legacy::Windows1256,
    Legacy::Windows1255,
    Legacy::Koi8U,
];

/// For a character, the encodings (bit k for `Legacy::ALL[k]`) that write it as a UTF-8
/// lead byte (C2..F4), and those that write it as a continuation byte (80..BF).
fn byte_masks(c: char) -> (u32, u32) {
    static TABLE: std::sync::OnceLock<Vec<(u32, u32)>> = std::sync::OnceLock::new();
    const DIRECT: usize = 0x2600;
    let cp = c as usize;
    if cp >= DIRECT {
        // Above the table only macintosh's ligatures and Apple logo and nothing else.
        return if matches!(cp, 0xF8FF | 0xFB01 | 0xFB02) {
            masks_of(c)
        } else {
            (0, 0)
        };
    }
    TABLE.get_or_init(|| {
        (0..DIRECT)
            .map(|cp| char::from_u32(cp as u32).map_or((0, 0), masks_of))
            .collect()
    })[cp]
}

fn masks_of(c: char) -> (u32, u32) {
    let (mut lead, mut cont) = (0u32, 0u32);
    for (k, e) in Legacy::ALL.iter().enumerate() {
        match e.encode_char(c) {
            Some(0xC2..=0xF4) => lead |= 1 << k,
            Some(0x80..=0xBF) => cont |= 1 << k,
            _ => {}
        }
    }
    (lead, cont)
}

/// Letters on a line (or on a line outside one run): those of the scripts with a code page
/// of their own, and all the others (ASCII letters included).
#[derive(Clone, Copy, Debug, Default)]
struct Around {
    cyrillic: usize,
    greek: usize,
    other: usize,
    /// The line's Latin letters beyond ASCII are those of one language ([`misfits`] is 0):
    /// Danish `ÅÆØ` is three letters of its alphabet, where `Ãœber` mixes Portuguese `ã`
    /// with French `œ`.
    one_language: bool,
}

impl Around {
    fn count(chars: impl Iterator<Item = char>) -> Around {
        let mut a = Around::default();
        for c in chars {
            if c.is_ascii() {
                a.other += usize::from(c.is_ascii_alphabetic());
                continue;
            }
            match script(c) {
                Some(Script::Cyrillic) => a.cyrillic += 1,
                Some(Script::Greek) => a.greek += 1,
                Some(_) => a.other += 1,
                None => {}
            }
        }
        a
    }

    /// The letters of `self` that are not in `run`.
    fn outside(&self, run: &Around) -> Around {
        Around {
            cyrillic: self.cyrillic - run.cyrillic,
            greek: self.greek - run.greek,
            other: self.other - run.other,
            one_language: self.one_language,
        }
    }
}

/// A repair candidate inside one non-ASCII run.
#[derive(Clone, Debug)]
struct Piece {
    start: usize,
    end: usize,
    chain: Vec<Legacy>,
    text: String,
    confident: bool,
    /// A word of the code page's own script: repaired only on a line of mojibake.
    genuine: bool,
    /// How odd the repaired text looks where it stands.
    repair_oddness: u32,
}

/// Every mojibake region of `text`, in order.
///
/// ```
/// use hexrune::detect::mojibake::find;
/// let found = find("Il a dit : Lâ€™Ã©tÃ© Ã©tait chaud.\nC’est tout.");
/// assert_eq!(found.len(), 1);
/// assert_eq!((found[0].start, found[0].end), (12, 34));
/// assert_eq!(found[0].text, "’été é");
/// assert_eq!(found[0].chain_names(), ["windows-1252"]);
/// ```
pub fn find(text: &str) -> Vec<Mojibake> {
    let mut found = Vec::new();
    let bytes = text.as_bytes();
    let mut pos = 0;
    // Only lines with a candidate pair are judged; finding them skips ASCII eight bytes at
    // a time and looks at the lead byte of each other character.
    while let Some(at) = next_candidate(bytes, pos) {
        let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i + 1);
        find_in_line(text, start, end, &mut found);
        pos = end;
    }
    found
}

/// [`find`] on `text`, looking only where a candidate pair can be: `marked` (offsets into
/// `text`, in order) must hold the first byte of the second character of every candidate
/// pair of `text` (as [`candidate_in`] finds them). The result equals `find(text)`: the
/// same lines are judged, in the same order, with the same line around each.
pub fn find_marked(text: &str, marked: &[std::ops::Range<usize>]) -> Vec<Mojibake> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut pos = 0;
    for range in marked {
        let end = range.end.min(bytes.len());
        if end <= pos {
            continue;
        }
        // From the start of the line that holds the range's first byte (a line start is
        // where `find` starts looking too: after a line feed nothing is pending).
        let from = range.start.max(pos);
        let mut at_line = memchr::memrchr(b'\n', &bytes[pos..from]).map_or(pos, |i| pos + i + 1);
        // A character that starts before `end` ends at most three bytes after it.
        let window = &bytes[..(end + 3).min(bytes.len())];
        while at_line < end {
            let Some(at) = next_candidate(window, at_line) else {
                break;
            };
            let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
            let stop = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i + 1);
            find_in_line(text, start, stop, &mut found);
            at_line = stop;
        }
        pos = pos.max(at_line);
    }
    found
}

/// The byte order mark U+FEFF misread at the start of `text` (the start of an input, after
/// a byte order mark it has): `ï»¿` (`C3 AF C2 BB C2 BF`) is `EF BB BF` read as
/// windows-1252 and written as UTF-8 again, the mark of a UTF-8 CSV that went through a
/// pipeline that decoded it as Latin-1. The region's text is U+FEFF, so that `repair
/// --mojibake` writes the mark back (and `--bom` then deals with it). Any chain of wrong
/// decodings through the encodings of [`Legacy::ALL`] is found ([`misread_boms`]).
///
/// Only at the start: there a byte order mark is what a writer put, and nothing else in
/// text is `ï»¿`. Elsewhere the search above judges it as any other stretch, and a U+FEFF
/// inside text is no character a writer means ([`is_plausible`]): `ï»¿` in the middle of
/// a line is left as it is.
///
/// ```
/// use hexrune::detect::mojibake::bom_at_start;
/// let found = bom_at_start("\u{EF}\u{BB}\u{BF}Name;Stadt\r\n").unwrap();
/// assert_eq!((found.start, found.end, found.text.as_str()), (0, 6, "\u{FEFF}"));
/// assert_eq!(found.chain_names(), ["windows-1252"]);
/// assert_eq!(bom_at_start("Name;Stadt \u{EF}\u{BB}\u{BF}\r\n"), None);
/// ```
pub fn bom_at_start(text: &str) -> Option<Mojibake> {
    // Most inputs start with no character a misread mark starts with: the texts are not
    // built for them.
    let first = text.chars().next()?;
    if !misread_bom_starts().contains(&first) {
        return None;
    }
    let (misread, chain) = misread_boms()
        .iter()
        .find(|(misread, _)| text.starts_with(misread.as_str()))?;
    Some(Mojibake {
        start: 0,
        end: misread.len(),
        chain: chain.clone(),
        text: "\u{FEFF}".to_string(),
    })
}

/// The first characters of the texts of [`misread_boms`]: a misreading's first character
/// is its first byte decoded, and that byte is the lead byte of the first character misread
/// (`EF` of the mark itself, then `C3` of `ï` ...); a handful of characters, found
/// without building the texts.
fn misread_bom_starts() -> &'static [char] {
    static STARTS: std::sync::OnceLock<Vec<char>> = std::sync::OnceLock::new();
    STARTS.get_or_init(|| {
        let (mut all, mut layer): (Vec<char>, Vec<char>) = (Vec::new(), vec!['\u{FEFF}']);
        for _ in 0..MAX_CHAIN {
            let mut next: Vec<char> = Vec::new();
            for c in &layer {
                let lead = c.to_string().as_bytes()[0];
                for e in Legacy::ALL {
                    if let Some(m) = e.decode_byte(lead).filter(|m| !next.contains(m)) {
                        next.push(m);
                    }
                }
            }
            for c in &next {
                if !all.contains(c) {
                    all.push(*c);
                }
            }
            layer = next;
        }
        all
    })
}

/// U+FEFF through every chain of up to [`MAX_CHAIN`] wrong decodings, each with its chain
/// (outermost first), shortest chains first, then in the order of [`Legacy::ALL`]; each
/// text once (windows-1252 and ISO-8859-1 read `EF BB BF` alike: windows-1252 names it).
/// Built forward from the mark's bytes, so it is the tables' own answer (at most 11,110
/// texts, built once).
fn misread_boms() -> &'static [(String, Vec<Legacy>)] {
    static BOMS: std::sync::OnceLock<Vec<(String, Vec<Legacy>)>> = std::sync::OnceLock::new();
    BOMS.get_or_init(|| {
        let mut all: Vec<(String, Vec<Legacy>)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut layer = vec![("\u{FEFF}".to_string(), Vec::new())];
        for _ in 0..MAX_CHAIN {
            let mut next = Vec::new();
            for (text, chain) in &layer {
                for e in Legacy::ALL {
                    let Some(misread) = e.decode(text.as_bytes()) else {
                        continue;
                    };
                    let mut outer = vec![e];
                    outer.extend(chain.iter().copied());
                    next.push((misread, outer));
                }
            }
            for (text, chain) in &next {
                if seen.insert(text.clone()) {
                    all.push((text.clone(), chain.clone()));
                }
            }
            layer = next;
        }
        all
    })
}

/// Whether the second character of a candidate pair (a character that follows one some
/// encoding writes as a lead byte while it writes this one as a continuation byte) starts
/// in `bytes[range]`. Made for raw input, which may hold errors: on every stretch of valid
/// UTF-8 it agrees with [`find`]'s own search, and elsewhere it may say yes where `find`
/// would not look, never the reverse.
///
/// The pair's second character starts with one of C2..DB, E0, E2, EF (the lead bytes of
/// the characters the encodings have: [`is_table_lead`]) right after a continuation byte
/// 80..BF (the end of the first, a multi-byte character); 32 bytes at a time are tested
/// for that before any character is decoded, so CJK, emoji and most alphabetic text pass
/// at memory speed.
///
/// ```
/// use hexrune::detect::mojibake::candidate_in;
/// let text = "Le caf\u{C3}\u{A9} est bon".as_bytes(); // "cafÃ©": Ã then ©
/// assert!(candidate_in(text, 0..text.len()));
/// let clean = "Le café est bon, русский, 中文".as_bytes();
/// assert!(!candidate_in(clean, 0..clean.len()));
/// ```
pub fn candidate_in(bytes: &[u8], range: std::ops::Range<usize>) -> bool {
    const CHUNK: usize = 32;
    let end = range.end.min(bytes.len());
    let mut p = range.start.max(1);
    // Second byte of a pair: a lead of a character in the tables.
    let second =
        |b: u8| (b.wrapping_sub(0xC2) < LEADS_OF_TWO) | (b == 0xE0) | (b == 0xE2) | (b == 0xEF);
    // The byte before it: a continuation byte.
    let after_cont = |b: u8| b.wrapping_sub(0x80) < 0x40;
    let conts = two_byte_conts();
    while p < end {
        // Most chunks have no pair shape at all: tested branch-free on whole chunks, which
        // the compiler turns into vector compares.
        let whole = bytes
            .get(p - 1..p + CHUNK)
            .and_then(|w| <&[u8; CHUNK + 1]>::try_from(w).ok())
            .filter(|_| p + CHUNK <= end);
        if let Some(w) = whole {
            let mut any = 0u8;
            for i in 0..CHUNK {
                any |= u8::from(second(w[i + 1]) & after_cont(w[i]));
            }
            if any == 0 {
                p += CHUNK;
                continue;
            }
        }
        let stop = (p + CHUNK).min(end);
        for q in p..stop {
            if !(second(bytes[q]) && after_cont(bytes[q - 1])) {
                continue;
            }
            // A 2-byte character no encoding writes as a continuation byte (most letters
            // of Cyrillic and Greek text) ends the question at once.
            let lead = bytes[q];
            // Of the characters whose lead is E0, only Thai's (E0 B8, E0 B9) are in a table.
            if lead == 0xE0 && !matches!(bytes.get(q + 1), Some(0xB8 | 0xB9)) {
                continue;
            }
            if lead <= 0xDB {
                let Some(&tail) = bytes.get(q + 1) else {
                    continue;
                };
                if conts[usize::from(lead - 0xC2)] >> (tail & 0x3F) & 1 == 0 {
                    continue;
                }
            }
            if is_pair_at(bytes, q) {
                return true;
            }
        }
        p = stop;
    }
    false
}

/// How many two-byte leads the tables' characters have: C2..DB (U+0080 to U+06FF).
const LEADS_OF_TWO: u8 = 0xDC - 0xC2;

/// Whether `b` is the lead byte of a character some encoding's table has: C2..DB (Latin,
/// Greek, Cyrillic, Hebrew, Arabic), E0 (Thai, at E0 B8 and E0 B9), E2 (punctuation,
/// signs, box drawing), EF (macintosh's ligatures and Apple logo). The test below holds
/// every table to it.
fn is_table_lead(b: u8) -> bool {
    matches!(b, 0xC2..=0xDB | 0xE0 | 0xE2 | 0xEF)
}

/// For each lead C2..DB, the second bytes (by their low six bits) of the characters some
/// encoding writes as a continuation byte.
fn two_byte_conts() -> &'static [u64; LEADS_OF_TWO as usize] {
    static TABLE: std::sync::OnceLock<[u64; LEADS_OF_TWO as usize]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|i| {
            let mut bits = 0u64;
            for low in 0..64u32 {
                let cp = ((0xC2 + i as u32) & 0x1F) << 6 | low;
                if char::from_u32(cp).is_some_and(|c| byte_masks(c).1 != 0) {
                    bits |= 1 << low;
                }
            }
            bits
        })
    })
}

/// Whether the character starting at `at` and the one ending just before it begin a
/// sequence that some encoding writes as one whole UTF-8 character: the first as a lead
/// byte, it and the characters right after it as the continuation bytes that lead needs.
/// A stretch is only ever repaired where that holds (a piece is a valid UTF-8 sequence of
/// at least two bytes, each byte one character), so where it does not, [`find`] finds
/// nothing, although [`next_candidate`] may stop there.
fn is_pair_at(bytes: &[u8], at: usize) -> bool {
    let Some(second) = table_char_at(bytes, at) else {
        return false;
    };
    let (_, cont) = byte_masks(second);
    if cont == 0 {
        return false;
    }
    let first = match (at.checked_sub(2), at.checked_sub(3)) {
        (Some(i), _) if matches!(bytes[i], 0xC2..=0xDB) => table_char_at(bytes, i),
        (_, Some(i)) if matches!(bytes[i], 0xE0 | 0xE2 | 0xEF) => table_char_at(bytes, i),
        _ => None,
    };
    let Some(first) = first else {
        return false;
    };
    let both = not_in_a_word(first, second, byte_masks(first).0 & cont);
    if both == 0 {
        return false;
    }
    // The character before `first` (a space where the bytes before it are none or no
    // character).
    let before = (at - first.len_utf8())
        .checked_sub(1)
        .map(|i| crate::decode::Dialect::Utf8.unit_containing(bytes, i))
        .and_then(|u| match u.kind {
            crate::decode::UnitKind::Scalar(cp) => cp.to_char(),
            _ => None,
        })
        .unwrap_or(' ');
    // The characters after `second`, as far as a 4-byte sequence could need them.
    let mut after = [None; 2];
    let mut next = at + utf8_len(bytes[at]);
    for slot in &mut after {
        let Some(c) = bytes.get(next).and_then(|_| table_char_at(bytes, next)) else {
            break;
        };
        *slot = Some(c);
        next += c.len_utf8();
    }
    starts_a_piece(both, before, first, second, &after).1 != 0
}

/// The encodings of `pairs` through which `first`, `second` and as many of `after` as
/// the lead needs are one whole UTF-8 sequence (valid, the second byte's range after `E0`,
/// `ED`, `F0` and `F4` as the Unicode Standard's table 3-7 has it) of a character
/// a piece can hold: one a writer may mean ([`is_plausible`]), or one of a table, which a
/// chain may undo further. Any other character makes a stretch that holds it no piece, so
/// a run whose pairs all give one is no candidate (an Arabic comma after a letter, `ب،`,
/// is `C8 A1` through windows-1256, U+0221; Thai `เน` before a tone mark is no whole
/// sequence).
///
/// The second mask leaves out the pairs through a code page of one script
/// ([`OWN_WORDS`]) where `first` and `second` are
/// of that script, and so is `before` or the character after the sequence, and the
/// character is not: a pair inside a word of the script is the script's own (clean Thai
/// `รถไฟ` holds `รถ`, `C3 B6`, `ö`), so
/// a line of clean Thai, Arabic, Hebrew or Ukrainian text is not judged at all; Thai
/// misread through windows-874 gives Thai back (`เธช` is `ส`) wherever it stands. A line
/// judged for another pair judges every run with a pair of the first mask (Russian
/// misread through windows-874 is `ะดะพะปะณะพ`, Thai letters all, beside `ั€`).
fn starts_a_piece(
    pairs: u32,
    before: char,
    first: char,
    second: char,
    after: &[Option<char>; 2],
) -> (u32, u32) {
    let (mut out, mut strict) = (0, 0);
    let mut rest = pairs;
    while rest != 0 {
        let k = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let e = Legacy::ALL[k];
        let (Some(lead), Some(b2)) = (e.encode_char(first), e.encode_char(second)) else {
            continue;
        };
        // The sequence's bytes, as many as its lead says; valid UTF-8 or no start (the
        // second byte's range after E0, ED, F0 and F4 included).
        let n = utf8_len(lead);
        let mut bytes = [lead, b2, 0, 0];
        let whole = (2..n).all(|i| match after[i - 2].and_then(|c| e.encode_char(c)) {
            Some(b) => {
                bytes[i] = b;
                true
            }
            None => false,
        });
        let Some(c) = whole
            .then(|| std::str::from_utf8(&bytes[..n]).ok())
            .flatten()
            .and_then(|s| s.chars().next())
        else {
            continue;
        };
        let own = OWN_WORDS.contains(&e)
            && native_block(e).is_some_and(|block| {
                let of = |c: Option<char>| c.is_some_and(|c| block.contains(&(c as u32)));
                // The character after the sequence (of two bytes or three).
                let next = after.get(n.saturating_sub(2)).copied().flatten();
                of(Some(first))
                    && of(Some(second))
                    && !of(Some(c))
                    && (of(Some(before)) || of(next))
            });
        if is_plausible(c) || byte_masks(c) != (0, 0) {
            out |= 1 << k;
            if !own {
                strict |= 1 << k;
            }
        }
    }
    (out, strict)
}

/// The length of the UTF-8 sequence a lead byte starts (1 for anything else).
fn utf8_len(b: u8) -> usize {
    match b {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

/// The character (of the tables' leads: [`is_table_lead`]) whose bytes start at `at`,
/// decoded from its bits as [`next_candidate`] does.
fn table_char_at(bytes: &[u8], at: usize) -> Option<char> {
    let b = bytes[at];
    let len = match b {
        0xC2..=0xDB => 2,
        0xE0 | 0xE2 | 0xEF => 3,
        _ => return None,
    };
    let tail = bytes.get(at + 1..at + len)?;
    let cp = if len == 2 {
        (u32::from(b & 0x1F) << 6) | u32::from(tail[0] & 0x3F)
    } else {
        (u32::from(b & 0x0F) << 12) | (u32::from(tail[0] & 0x3F) << 6) | u32::from(tail[1] & 0x3F)
    };
    char::from_u32(cp)
}

/// The offset of the first character at or after `pos` that follows, in the same
/// non-ASCII run, a character some encoding writes as a lead byte while it writes this one
/// as a continuation byte.
fn next_candidate(bytes: &[u8], mut pos: usize) -> Option<usize> {
    let mut prev_lead = 0u32;
    while pos < bytes.len() {
        let b = bytes[pos];
        if b < 0x80 {
            prev_lead = 0;
            // Skip ASCII a word at a time.
            while pos + 8 <= bytes.len() {
                let word = u64::from_le_bytes(bytes[pos..pos + 8].try_into().unwrap_or([0; 8]));
                if word & 0x8080_8080_8080_8080 != 0 {
                    break;
                }
                pos += 8;
            }
            while pos < bytes.len() && bytes[pos] < 0x80 {
                pos += 1;
            }
            continue;
        }
        let len = match b {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            _ => 4,
        };
        let end = (pos + len).min(bytes.len());
        let (lead, cont) = if is_table_lead(b) && end - pos == len {
            // The text is valid UTF-8: the value comes straight from the bits.
            let tail = |i: usize| u32::from(bytes[pos + i] & 0x3F);
            let cp = if len == 2 {
                (u32::from(b & 0x1F) << 6) | tail(1)
            } else {
                (u32::from(b & 0x0F) << 12) | (tail(1) << 6) | tail(2)
            };
            char::from_u32(cp).map_or((0, 0), byte_masks)
        } else {
            (0, 0)
        };
        if prev_lead & cont != 0 {
            return Some(pos);
        }
        prev_lead = lead;
        pos = end;
    }
    None
}

/// The regions of the line `text[start..end]`, pushed to `found`.
///
/// Each non-ASCII run gets its pieces through every encoding; the encoding that covers
/// most of the line is used for every run it covers as well as any other does (so that
/// windows-1250 and ISO-8859-2, or windows-1252 and ISO-8859-1, which read most bytes
/// alike, are told apart by the bytes where they differ). Where two cover the same bytes,
/// the one whose repaired line has letters that one language writes together wins
/// ([`misfits`]: `está` misread through ISO-8859-2 is `estå` through windows-1250), then
/// the one whose repairs look least odd, then the order of [`Legacy::ALL`].
fn find_in_line(text: &str, start: usize, end: usize, found: &mut Vec<Mojibake>) {
    // Windows are counted from the line's first character after a byte order mark at the
    // input's start, so that the text after the mark, searched alone, is cut at the same
    // bytes.
    let origin = match start == 0 && text.starts_with('\u{FEFF}') {
        true => '\u{FEFF}'.len_utf8(),
        false => start,
    };
    if end - origin <= LINE_WINDOW {
        return judge_line(text, start, end, found);
    }
    // A long line (a file of one line, a CR-only file) is judged a window at a time, so
    // that memory does not grow with it: windows of about LINE_WINDOW bytes, each cut at
    // an ASCII byte where one comes within as many bytes again (a non-ASCII run ends
    // there anyway), else at a character boundary; a region that runs across the cut is
    // joined again as `merge` joins pieces.
    let bytes = text.as_bytes();
    let mut from = start;
    let mut mark = origin;
    while from < end {
        let mut to = (mark + LINE_WINDOW).min(end);
        if to < end {
            let reach = (to + LINE_WINDOW).min(end);
            to = match bytes[to..reach].iter().position(u8::is_ascii) {
                Some(i) => to + i,
                None => (to..reach)
                    .find(|&i| text.is_char_boundary(i))
                    .unwrap_or(reach),
            };
        }
        let seam = found.len();
        judge_line(text, from, to, found);
        if seam > 0 && found.len() > seam {
            let (last, next) = (&found[seam - 1], &found[seam]);
            let gap = &bytes[last.end..next.start];
            if last.end >= start
                && last.chain == next.chain
                && gap.len() <= MERGE_GAP
                && gap.iter().all(|b| b.is_ascii() && *b != b'\n')
            {
                let next = found.remove(seam);
                let last = &mut found[seam - 1];
                last.text.push_str(&text[last.end..next.start]);
                last.text.push_str(&next.text);
                last.end = next.end;
            }
        }
        from = to;
        mark = to;
    }
}

/// [`find_in_line`] on a line of at most about [`LINE_WINDOW`] bytes, or a window of one.
fn judge_line(text: &str, start: usize, end: usize, found: &mut Vec<Mojibake>) {
    let line = &text[start..end];
    // First the runs, and whether any could be mojibake at all: a character that some
    // encoding writes as a lead byte followed by one it writes as a continuation byte.
    // Most lines of any language have none, and cost one table look-up a character.
    // Each run: where it is, whether it is a candidate, and the encodings with a pair in
    // it (only those can make a piece of it: a piece begins with such a pair).
    let mut spans: Vec<(usize, usize, bool, u32)> = Vec::new();
    // Whether a pair starts a misreading outside a word of a code page's own script
    // ([`starts_a_piece`]'s second mask): only then is the line judged.
    let mut strict_pair = false;
    let mut run: Option<(usize, bool, u32)> = None;
    let mut prev_lead = 0u32;
    let (mut before, mut prev) = (' ', ' ');
    for (i, c) in line.char_indices() {
        if c.is_ascii() {
            (before, prev) = (' ', ' ');
            if let Some((from, candidate, through)) = run.take() {
                spans.push((start + from, start + i, candidate, through));
            }
            prev_lead = 0;
            continue;
        }
        let (lead, cont) = byte_masks(c);
        let mut pairs = not_in_a_word(prev, c, prev_lead & cont);
        if pairs != 0 {
            let mut rest = line[i + c.len_utf8()..].chars().map(Some);
            let after = [rest.next().flatten(), rest.next().flatten()];
            let (all, strict) = starts_a_piece(pairs, before, prev, c, &after);
            pairs = all;
            strict_pair |= strict != 0;
        }
        run = Some(match run {
            Some((from, candidate, through)) => {
                (from, candidate || pairs != 0, through | (prev_lead & cont))
            }
            None => (i, false, 0),
        });
        prev_lead = lead;
        (before, prev) = (prev, c);
    }
    if let Some((from, candidate, through)) = run {
        spans.push((start + from, end, candidate, through));
    }
    if !strict_pair {
        return;
    }
    let around = Around {
        one_language: misfits(line) == 0,
        ..Around::count(line.chars())
    };
    let all_runs = spans.len();
    let runs: Vec<Vec<Vec<Piece>>> = spans
        .iter()
        .filter(|s| s.2)
        .filter_map(|(from, to, _, through)| run_pieces(&around, text, *from, *to, *through))
        .collect();
    if runs.is_empty() {
        return;
    }
    let covered = |pieces: &[Piece]| -> (usize, usize) {
        (
            pieces.iter().map(|p| p.end - p.start).sum(),
            pieces.iter().filter(|p| p.confident).count(),
        )
    };
    // Per encoding: bytes covered, confident pieces, and (reversed) how odd the repairs
    // look, which tells apart encodings that read most bytes alike.
    let mut line_score = [(0usize, 0usize, std::cmp::Reverse(0u32)); Legacy::ALL.len()];
    for run in &runs {
        for (k, pieces) in run.iter().enumerate() {
            let (c, n) = covered(pieces);
            line_score[k].0 += c;
            line_score[k].1 += n;
            line_score[k].2 .0 += pieces.iter().map(|p| p.repair_oddness).sum::<u32>();
        }
    }
    // Of the encodings that explain as much of the line, the one whose repaired line has
    // letters one language writes together.
    let most = line_score.iter().map(|s| s.0).max().unwrap_or(0);
    let misfit = |k: usize| {
        if line_score[k].0 < most || most == 0 {
            return usize::MAX;
        }
        misfits(&repaired_line(
            text,
            start,
            end,
            runs.iter().map(|run| &run[k]),
        ))
    };
    let line_best = (0..Legacy::ALL.len())
        .max_by_key(|k| {
            let (c, _, odd) = line_score[*k];
            (c, std::cmp::Reverse(misfit(*k)), odd, std::cmp::Reverse(*k))
        })
        .unwrap_or(0);
    let mut pieces: Vec<Piece> = Vec::new();
    let mut runs_repaired = 0usize;
    for run in runs {
        let best = (0..Legacy::ALL.len())
            .max_by_key(|k| (covered(&run[*k]), std::cmp::Reverse(*k)))
            .unwrap_or(0);
        let chosen = if covered(&run[line_best]).0 >= covered(&run[best]).0 {
            line_best
        } else {
            best
        };
        let chosen = run.into_iter().nth(chosen).unwrap_or_default();
        runs_repaired += usize::from(!chosen.is_empty());
        pieces.extend(chosen);
    }
    follow_line_chain(text, &mut pieces);
    // Words of a code page's own script are repaired only on a line that is mostly
    // mojibake: four runs in five or more.
    let mostly = runs_repaired * 5 >= all_runs * 4 && pieces.iter().any(|p| p.confident);
    pieces.retain(|p| !p.genuine || mostly);
    let accepted: Vec<&Piece> = (0..pieces.len())
        .filter(|i| pieces[*i].confident || has_confident_neighbour(text, &pieces, *i))
        .map(|i| &pieces[i])
        .collect();
    found.extend(merge(text, &accepted));
}

/// Pieces undone through fewer layers than the line's confident ones (most of their bytes),
/// undone further through the rest of the line's chain where that gives valid UTF-8 and a
/// plausible repair. A word misread twice can look like a word of the code page's script
/// after one undoing ("Я" through windows-1251 twice is "Р\u{A0}Р‡", once undone "РЇ",
/// Ukrainian-looking): on a line whose other words went through the same two misreadings,
/// it went through them too.
fn follow_line_chain(text: &str, pieces: &mut [Piece]) {
    let mut chains: Vec<(&[Legacy], usize)> = Vec::new();
    for p in pieces.iter().filter(|p| p.confident) {
        match chains.iter_mut().find(|(c, _)| *c == p.chain.as_slice()) {
            Some((_, n)) => *n += p.end - p.start,
            None => chains.push((&p.chain, p.end - p.start)),
        }
    }
    let Some(line_chain) = chains
        .iter()
        .max_by_key(|(c, n)| (*n, c.len()))
        .map(|(c, _)| c.to_vec())
    else {
        return;
    };
    for p in pieces.iter_mut() {
        if p.chain.len() >= line_chain.len() || !line_chain.starts_with(&p.chain) {
            continue;
        }
        let further = line_chain[p.chain.len()..]
            .iter()
            .try_fold(p.text.clone(), |t, e| String::from_utf8(e.encode(&t)?).ok());
        let prev = text[..p.start].chars().next_back();
        let next = text[p.end..].chars().next();
        if let Some(t) = further.filter(|t| repair_is_plausible(t, prev, next)) {
            p.text = t;
            p.chain = line_chain.clone();
        }
    }
}

/// The line `text[start..end]` with `pieces` (in order, each run's) repaired.
fn repaired_line<'a>(
    text: &str,
    start: usize,
    end: usize,
    pieces: impl Iterator<Item = &'a Vec<Piece>>,
) -> String {
    let mut out = String::with_capacity(end - start);
    let mut at = start;
    for p in pieces.flatten() {
        out.push_str(&text[at..p.start]);
        out.push_str(&p.text);
        at = p.end;
    }
    out.push_str(&text[at..end]);
    out
}

/// Whether a confident piece with the same outermost encoding lies within [`WEAK_REACH`]
/// bytes of piece `i` (all pieces are on one line, in order).
fn has_confident_neighbour(text: &str, pieces: &[Piece], i: usize) -> bool {
    let weak = &pieces[i];
    let near = |p: &Piece| {
        let gap = if p.start < weak.start {
            weak.start.saturating_sub(p.end)
        } else {
            p.start.saturating_sub(weak.end)
        };
        gap <= WEAK_REACH
    };
    let same = |p: &Piece| p.confident && p.chain[0] == weak.chain[0];
    if weak.genuine {
        // Kept only on a line that is mostly mojibake (see `find_in_line`).
        return pieces.iter().any(same);
    }
    let _ = text;
    pieces[..i].iter().rev().take_while(|p| near(p)).any(same)
        || pieces[i + 1..].iter().take_while(|p| near(p)).any(same)
}

/// Merges pieces of one chain separated only by ASCII without a line feed.
fn merge(text: &str, pieces: &[&Piece]) -> Vec<Mojibake> {
    let mut out: Vec<Mojibake> = Vec::new();
    for p in pieces {
        if let Some(last) = out.last_mut() {
            let gap = &text.as_bytes()[last.end..p.start];
            if last.chain == p.chain
                && gap.len() <= MERGE_GAP
                && gap.iter().all(|b| b.is_ascii() && *b != b'\n')
            {
                last.text.push_str(&text[last.end..p.start]);
                last.text.push_str(&p.text);
                last.end = p.end;
                continue;
            }
        }
        out.push(Mojibake {
            start: p.start,
            end: p.end,
            chain: p.chain.clone(),
            text: p.text.clone(),
        });
    }
    out
}

/// The acceptable pieces of the non-ASCII run `text[start..end]` through each encoding, in
/// the order of [`Legacy::ALL`]; `None` for a run of one character. Only the encodings of
/// `through` (bit k for `Legacy::ALL[k]`) can have any: a piece is a valid UTF-8 sequence
/// of two bytes or more, each byte a character of the run, so it begins with a character
/// written as a lead byte followed by one written as a continuation byte.
fn run_pieces(
    line: &Around,
    text: &str,
    start: usize,
    end: usize,
    through: u32,
) -> Option<Vec<Vec<Piece>>> {
    let run: Vec<(usize, char)> = text[start..end]
        .char_indices()
        .map(|(i, c)| (start + i, c))
        .collect();
    if run.len() < 2 {
        return None;
    }
    let before = text[..start].chars().next_back();
    let mut rest = text[end..].chars();
    let after = [rest.next(), rest.next()];
    let own = Around::count(run.iter().map(|(_, c)| *c));
    let ctx = line.outside(&own);
    Some(
        Legacy::ALL
            .iter()
            .enumerate()
            .map(|(k, e)| match through >> k & 1 {
                1 => pieces_through(&ctx, &run, end, *e, before, after),
                _ => Vec::new(),
            })
            .collect(),
    )
}

/// The acceptable pieces of `run` (characters with their offsets; the run ends at `end`)
/// through `e`; `after` holds the two characters after the run.
fn pieces_through(
    ctx: &Around,
    run: &[(usize, char)],
    end: usize,
    e: Legacy,
    before: Option<char>,
    after: [Option<char>; 2],
) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < run.len() {
        // A segment of characters `e` has.
        let seg_start = i;
        let mut bytes = Vec::new();
        while i < run.len() {
            match e.encode_char(run[i].1) {
                Some(b) => bytes.push(b),
                None => break,
            }
            i += 1;
        }
        let mut at = 0;
        let mut chunks = bytes.utf8_chunks().peekable();
        while let Some(chunk) = chunks.next() {
            let valid = chunk.valid();
            if valid.len() >= 2 {
                let from = seg_start + at;
                let to = from + valid.len();
                // A character cut short by the segment's end, where a character `e` lacks
                // stands (a U+FFFD: the byte after it was lost, as a decoder loses a byte
                // windows-1252 leaves undefined, `Ñ�` for `я`): what follows the piece is
                // that lost character, of no script known, not the lead byte's misreading.
                let lost = chunks.peek().is_none()
                    && !chunk.invalid().is_empty()
                    && i < run.len()
                    && run[i].1 == '\u{FFFD}';
                let after = match lost {
                    true => [None, None],
                    false => after,
                };
                let (run_to, end_to) = match lost {
                    true => (&run[..to], run[to].0),
                    false => (run, end),
                };
                let mut piece = judge_piece(ctx, run_to, end_to, from, to, e, valid, before, after);
                if piece.is_none() {
                    if let Some(block) = own_block(e) {
                        piece = trimmed_piece(
                            ctx, &block, run_to, end_to, from, to, e, valid, before, after,
                        );
                    }
                }
                if let Some(mut piece) = piece {
                    // A lead byte's misreading right before the U+FFFD of its lost byte is
                    // what a decoder that dropped the byte leaves: the piece before it was
                    // misread too (Thai through windows-874 by Python's `'replace'`,
                    // `เธ�` for `ก`, has no sign in it otherwise).
                    piece.confident |= lost && !piece.genuine;
                    out.push(piece);
                }
            }
            at += valid.len() + chunk.invalid().len();
        }
        i += 1; // the character `e` lacks, or the end
    }
    out
}

/// Through a code page of one script (`block` its script's), the piece of `run[from..to]`
/// (which `e` encodes to `fixed`) less the characters at an end glued to a word of that
/// script, one decoded character at a time, until it is acceptable: misread Thai glued
/// to clean Thai (`มีรถ` + `เธ•เธด`) makes one valid stretch with the clean letters
/// (`รถ` is `C3 B6`, `ö`), which [`glued_to_own_word`] refuses whole.
#[allow(clippy::too_many_arguments)]
fn trimmed_piece(
    ctx: &Around,
    block: &std::ops::RangeInclusive<u32>,
    run: &[(usize, char)],
    end: usize,
    mut from: usize,
    mut to: usize,
    e: Legacy,
    mut fixed: &str,
    before: Option<char>,
    after: [Option<char>; 2],
) -> Option<Piece> {
    let of = |c: Option<char>| c.is_some_and(|c| block.contains(&(c as u32)));
    loop {
        let prev = if from == 0 {
            before
        } else {
            Some(run[from - 1].1)
        };
        let next = run.get(to).map(|(_, c)| *c).or(after[0]);
        if of(prev) && of(Some(run[from].1)) {
            let n = fixed.chars().next()?.len_utf8();
            from += n;
            fixed = &fixed[n..];
        } else if of(next) && of(Some(run[to - 1].1)) {
            let n = fixed.chars().next_back()?.len_utf8();
            to -= n;
            fixed = &fixed[..fixed.len() - n];
        } else {
            return None;
        }
        if fixed.len() < 2 {
            return None;
        }
        if let Some(piece) = judge_piece(ctx, run, end, from, to, e, fixed, before, after) {
            return Some(piece);
        }
    }
}

/// The piece made of `run[from..to]`, which `e` encodes to `fixed`, if it is acceptable.
#[allow(clippy::too_many_arguments)]
fn judge_piece(
    ctx: &Around,
    run: &[(usize, char)],
    end: usize,
    from: usize,
    to: usize,
    e: Legacy,
    fixed: &str,
    before: Option<char>,
    after: [Option<char>; 2],
) -> Option<Piece> {
    let original: Vec<char> = run[from..to].iter().map(|(_, c)| *c).collect();
    let prev = if from == 0 {
        before
    } else {
        Some(run[from - 1].1)
    };
    // The two characters after the piece.
    let mut following = run[to..].iter().map(|(_, c)| Some(*c)).chain(after);
    let next = following.next().flatten();
    let next2 = following.next().flatten();
    let genuine = is_genuine_word(ctx, &original, e, prev, next);
    // Two letters do not stand for the sign `ª` or `º` (Romanian's `ÂŞ` in "RÂŞNIŢĂ" is
    // `ª` through windows-1250); a letter and a sign may (`Âº` is `º`, "NÂºABC").
    if matches!(fixed, "ª" | "º") && original.iter().all(|c| is_letter(*c)) {
        return None;
    }
    let (deeper, text) = undo_further(ctx, e, fixed, prev, next, 1)?;
    let own = own_block(e);
    if let Some(block) = &own {
        if glued_to_own_word(block, &original, &text, prev, next) {
            return None;
        }
    }
    let mut chain = vec![e];
    chain.extend(deeper);
    // A word of the code page's own script is never evidence by itself; it is repaired
    // only beside confident neighbours.
    let confident = !genuine
        && native_block(e).is_none_or(|block| {
            !letter_before_nbsp(&block, own.is_some(), &original, prev, fixed.chars().next())
        })
        && (chain.len() > 1
            || own
                .as_ref()
                .is_some_and(|block| repairs_to_own_letters(block, &original, &text))
            || oddness(&original, prev) > 0
            || is_capital_pair(ctx, &original, next)
            || is_glued_to_other_script(&original, prev, next)
            || is_box_glued_to_letter(&original, prev, next)
            || is_signs_before_word(&original, next, next2));
    let start = run[from].0;
    let stop = if to == run.len() { end } else { run[to].0 };
    let repaired: Vec<char> = text.chars().chain(next).collect();
    Some(Piece {
        start,
        end: stop,
        chain,
        repair_oddness: oddness(&repaired, prev),
        text,
        confident,
        genuine,
    })
}

/// `text`, the repair of a misread stretch, undone further while that gives valid UTF-8
/// (through `prefer` if that leads to a plausible end, else the first encoding in
/// [`Legacy::ALL`] order that does), or as it is
/// if it is plausible itself; `None` if neither. The chain returned is in undo order.
fn undo_further(
    ctx: &Around,
    prefer: Legacy,
    text: &str,
    prev: Option<char>,
    next: Option<char>,
    depth: usize,
) -> Option<(Vec<Legacy>, String)> {
    let chars: Vec<char> = text.chars().collect();
    if depth < MAX_CHAIN && chars.len() >= 2 {
        // The same mistake twice is the likeliest: `prefer` (the encoding of the level
        // above) first.
        let order = std::iter::once(prefer).chain(Legacy::ALL.into_iter().filter(|e| *e != prefer));
        for e in order {
            let Some(bytes) = e.encode(text) else {
                continue;
            };
            let Ok(again) = String::from_utf8(bytes) else {
                continue;
            };
            if is_genuine_word(ctx, &chars, e, prev, next) {
                continue;
            }
            if let Some((mut chain, end)) = undo_further(ctx, e, &again, prev, next, depth + 1) {
                chain.insert(0, e);
                return Some((chain, end));
            }
        }
    }
    repair_is_plausible(text, prev, next).then(|| (Vec::new(), text.to_string()))
}

/// Question 1: every character plausible, none attached to a character before the
/// repair (unless it is a mark of the script of the letter there: a Thai or Hindi word
/// whose second half was misread starts that half with a vowel sign), one script per word
/// with the letters around it, and the casing of an all-caps word kept.
fn repair_is_plausible(fixed: &str, prev: Option<char>, next: Option<char>) -> bool {
    let mut chars = fixed.chars();
    let Some(first) = chars.clone().next() else {
        return false;
    };
    if is_attached(first) && !prev.is_some_and(|p| is_mark_of(first, p)) {
        return false;
    }
    if !chars.all(is_plausible) {
        return false;
    }
    let mut seen: Option<Script> = None;
    let around = prev.into_iter().chain(fixed.chars()).chain(next);
    for s in around.clone().filter_map(script) {
        if s == Script::Free {
            continue;
        }
        match seen {
            Some(t) if t != s => return false,
            _ => seen = Some(s),
        }
    }
    !changes_script_at_edge(fixed, prev, next) && !breaks_capitals(around)
}

/// Whether the repair puts one letter of a script without an alphabet's words (Han, kana,
/// Hangul ...) into an alphabetic word: its first letter right after a letter of Latin,
/// Greek, Cyrillic or another alphabet, or its last right before one, and no letter of its
/// own script beside it in the repair. "sécurit頻" (`é`, a no-break space and `»` read as
/// one character) ends a Latin word with a Han ideograph. Text in those scripts glued to a
/// Latin word goes on in its own script ("Tシャツ", "iPhone用の", "iPhoneรุ่น", a mark of its
/// script on it), and that is left alone.
fn changes_script_at_edge(fixed: &str, prev: Option<char>, next: Option<char>) -> bool {
    let alphabet = |c: char| script(c).is_some_and(|s| s != Script::Free);
    let free = |c: Option<char>| c.and_then(script) == Some(Script::Free);
    let chars: Vec<char> = fixed.chars().collect();
    // A mark of the edge letter's script beside it (Thai `ุ` on `ร`) goes on in its script.
    let goes_on = |edge: Option<char>, beside: Option<char>| {
        free(beside) || edge.zip(beside).is_some_and(|(e, b)| is_mark_of(b, e))
    };
    let lone = |outer: Option<char>, edge: Option<char>, beside: Option<char>| {
        outer.is_some_and(alphabet) && free(edge) && !goes_on(edge, beside)
    };
    lone(prev, chars.first().copied(), chars.get(1).copied())
        || lone(
            next,
            chars.last().copied(),
            chars.len().checked_sub(2).map(|i| chars[i]),
        )
}

/// Whether a lower-case letter stands between two capitals ("PêUNE", `ĂŞ` read through
/// windows-1250 in "PĂŞUNE"): the misreading of an all-caps word gives capitals back
/// ("ÃœBER" is "ÜBER"), and words do not put one small letter between capitals.
fn breaks_capitals(chars: impl Iterator<Item = char>) -> bool {
    let seq: Vec<char> = chars.collect();
    seq.windows(3)
        .any(|w| is_upper(w[0]) && is_lower(w[1]) && is_upper(w[2]))
}

/// Question 3: `original` is a word of `e`'s own non-Latin script, in ordinary casing,
/// not glued to letters of another script, and (for Cyrillic) using only letters that one
/// language has: "Ні" and "ВІДДІЛ" are words, "ЩЃЩЉ" (Щ is not Macedonian, Ѓ is only
/// Macedonian) is Arabic misread through windows-1251.
fn is_genuine_word(
    ctx: &Around,
    original: &[char],
    e: Legacy,
    prev: Option<char>,
    next: Option<char>,
) -> bool {
    let native = match e {
        Legacy::Windows1251 | Legacy::Ibm866 | Legacy::Koi8R | Legacy::Koi8U => Script::Cyrillic,
        Legacy::Windows1253 | Legacy::Ibm437 => Script::Greek,
        _ => return false,
    };
    let letters: Vec<char> = prev
        .into_iter()
        .chain(original.iter().copied())
        .chain(next)
        .filter(|c| is_letter(*c))
        .collect();
    // A pair alone in its script on a line of another is no evidence for itself ("JГіzef",
    // a pair inside Latin text; "uno Гі dos", Spanish "ó" misread). A line whose only
    // letters are the word's own (a heading, one word of a list, "— Рік?") is a line of
    // its script, not of another; and so is a word of three letters or more, beside its
    // transliteration or a name in Latin letters ("Рівне (Rivne)"): a letter of a Latin
    // word misread is one letter of this script and a sign, or is glued to Latin letters.
    let elsewhere = match native {
        Script::Cyrillic => ctx.cyrillic,
        _ => ctx.greek,
    };
    if elsewhere == 0 && ctx.other > 0 && letters.len() < 3 {
        return false;
    }
    let is_apostrophe = |c: char| c == '’' || c == '\'' || c == 'ʼ';
    let of_script = |c: char| is_apostrophe(c) || script(c) == Some(native);
    if !original.iter().all(|c| of_script(*c)) {
        return false;
    }
    // Glued to letters of another script: not a word of this one.
    if [prev, next]
        .into_iter()
        .flatten()
        .any(|c| is_letter(c) && !of_script(c))
    {
        return false;
    }
    if letters.windows(2).any(|w| is_lower(w[0]) && is_upper(w[1])) {
        return false;
    }
    native != Script::Cyrillic || cyrillic_misfits(&letters) == 0
}

/// The block of the script `e` is the code page of, if it is a code page of one script
/// (Thai, Arabic, Hebrew).
fn own_block(e: Legacy) -> Option<std::ops::RangeInclusive<u32>> {
    match e {
        Legacy::Windows874 | Legacy::Windows1256 | Legacy::Windows1255 => native_block(e),
        _ => None,
    }
}

/// Whether a piece through a code page of one script ([`own_block`]) stands glued to a
/// word of that script, its own end there a character of it, where its repair there is a
/// character of another: clean Thai `มีป` holds `ีป`, which windows-874 makes `ջ`; a
/// misread stretch glued to a word of the page's script is the script's own (`เม` +
/// `เธทเธญเธ‡`, `ือง`).
fn glued_to_own_word(
    block: &std::ops::RangeInclusive<u32>,
    original: &[char],
    repair: &str,
    prev: Option<char>,
    next: Option<char>,
) -> bool {
    let of = |c: Option<char>| c.is_some_and(|c| block.contains(&(c as u32)));
    (of(prev) && of(original.first().copied()) && !of(repair.chars().next()))
        || (of(next) && of(original.last().copied()) && !of(repair.chars().next_back()))
}

/// The block of the script whose letters `e` writes as lead bytes (so that a letter of it
/// before a no-break space is a sequence of `e`, [`letter_before_nbsp`], and a pair of its
/// letters one too, [`OWN_WORDS`]): Cyrillic for windows-1251, IBM866, KOI8-R and KOI8-U,
/// Greek for windows-1253, Thai, Arabic and Hebrew for their code pages.
fn native_block(e: Legacy) -> Option<std::ops::RangeInclusive<u32>> {
    Some(match e {
        Legacy::Windows1251 | Legacy::Ibm866 | Legacy::Koi8R | Legacy::Koi8U => 0x0400..=0x04FF,
        Legacy::Windows1253 => 0x0370..=0x03FF,
        Legacy::Windows874 => 0x0E00..=0x0E7F,
        Legacy::Windows1256 => 0x0600..=0x06FF,
        Legacy::Windows1255 => 0x0590..=0x05FF,
        _ => return None,
    })
}

/// Whether the piece starts with a letter of the page's script and a no-break space as
/// typography and web text put them, which is no sign of a misreading there:
///
/// - after a word of the script or a one-letter word (no other letter before it), where
///   the sequence gives no letter of the script back and the letter is a small one:
///   Russian `в`, `с`, `и` (`в` and a no-break space and `—` is `E2 A0 97` through
///   windows-1251, the Braille `⠗`), where a capital and a no-break space is a capital
///   misread (`Р` is `D0 A0`; `Г` and a no-break space is `à`);
/// - through a code page of one script (`own`), after a word of it or a one-letter word,
///   whatever it gives (`ไทย`, `مع`: `ع` is `DA`, the no-break space `A0`, U+06A0; a lone
///   `ظ` and a no-break space is `٠` misread, which the signs around a misread number
///   show); or a piece that starts with the no-break space right after such a word.
///
/// `first` is the first character of the repair.
fn letter_before_nbsp(
    block: &std::ops::RangeInclusive<u32>,
    own: bool,
    original: &[char],
    prev: Option<char>,
    first: Option<char>,
) -> bool {
    let of = |c: Option<char>| c.is_some_and(|c| block.contains(&(c as u32)));
    let word_before = prev.is_none_or(|c| !is_letter(c) || of(Some(c)));
    match original {
        [x, '\u{A0}', ..] if of(Some(*x)) => {
            (own && word_before) || (word_before && !of(first) && is_lower(*x))
        }
        ['\u{A0}', ..] => own && of(prev),
        _ => false,
    }
}

/// Whether a piece through a code page of one script is two characters or more of it
/// misread (each of two bytes or more) that repair to letters and marks of that script
/// alone: `เธชเธงเธฑเธชเธ”เธต` for `สวัสดี`, `׳×׳•׳“׳”` for `תודה`, whose misreadings are
/// letters and signs of the page that no word of the script writes in such a row.
fn repairs_to_own_letters(
    block: &std::ops::RangeInclusive<u32>,
    original: &[char],
    repair: &str,
) -> bool {
    let of = |c: char| block.contains(&(c as u32)) && (is_letter(c) || is_attached(c));
    let n = repair.chars().count();
    n >= 2 && original.len() >= 2 * n && repair.chars().all(of)
}

/// A capital with a diacritic, then a letter or closing punctuation, then a letter: the
/// shape of one misread character at the start of a word ("Ãœber", "Ã…rhus", "ĂŤslenska"),
/// which words of the languages these encodings serve do not have. Two letters on a line
/// whose letters are one language's are that language's (Danish "ÅÆØ", the end of its
/// alphabet; through windows-1257 it would be `ů` and `Ø`).
fn is_capital_pair(ctx: &Around, original: &[char], next: Option<char>) -> bool {
    let [first, second] = original else {
        return false;
    };
    let closing = matches!(second, '’' | '”' | '›' | '»' | '…' | '–' | '—');
    is_upper(*first)
        && !first.is_ascii()
        && (closing || (is_letter(*second) && !ctx.one_language))
        && next.is_some_and(is_letter)
}

/// Letters of one script glued to a letter of another ("ГЋЕџi", "JГіzef"): words do not
/// change script in their middle.
fn is_glued_to_other_script(original: &[char], prev: Option<char>, next: Option<char>) -> bool {
    let Some(own) = original.iter().find_map(|c| script(*c)) else {
        return false;
    };
    own != Script::Free
        && [prev, next]
            .into_iter()
            .flatten()
            .filter_map(script)
            .any(|s| s != own && s != Script::Free)
}

/// Two signs of mathematics ("√π", "√∑", "≈π": a sign, then a sign or a Greek letter, as
/// formulas write them) right before a word of two letters or more: a misread letter at the
/// start of a word (Spanish "√∫ltimo" is "último" through macintosh). Before anything else
/// the pair is what it says, and no evidence of misreading (see [`oddness`]).
fn is_signs_before_word(original: &[char], next: Option<char>, next2: Option<char>) -> bool {
    matches!(original, [x, y] if is_math_pair(*x, *y))
        && next.is_some_and(is_letter)
        && next2.is_some_and(is_letter)
}

/// Box drawing glued to a letter ("┬╗Jeg"): tables have spaces or more box drawing
/// around their lines.
fn is_box_glued_to_letter(original: &[char], prev: Option<char>, next: Option<char>) -> bool {
    original.iter().all(|c| is_box(*c)) && [prev, next].into_iter().flatten().any(is_letter)
}

/// Opening punctuation: « “ „ ‘ ‹ ¿ ¡ and brackets.
fn is_opening(c: char) -> bool {
    matches!(c, '«' | '“' | '„' | '‘' | '‹' | '¿' | '¡' | '(' | '[' | '{')
}

/// Question 2: how odd `chars` (after `prev`) look as text; 0 for text that looks written.
fn oddness(chars: &[char], prev: Option<char>) -> u32 {
    let mut odd = 0;
    let seq: Vec<char> = prev.into_iter().chain(chars.iter().copied()).collect();
    // A character between two dashes with no space: Cyrillic through macintosh ("–í—á").
    for w in seq.windows(3) {
        if matches!(w[0], '–' | '—') && !w[1].is_ascii() && matches!(w[2], '–' | '—') {
            odd += 1;
        }
    }
    for c in chars {
        if matches!(*c as u32, 0x80..=0x9F) {
            odd += 2;
        }
    }
    for w in seq.windows(2) {
        let (x, y) = (w[0], w[1]);
        if y.is_ascii() {
            continue;
        }
        if is_letter(x) && is_odd_after_letter(y) {
            odd += 1;
        }
        if is_lower(x) && is_upper(y) {
            odd += 1;
        }
        if is_foreign_mark(y, x) {
            odd += 1;
        }
        if !x.is_ascii() && is_letter(x) && is_cp1252_row8_letter(y) {
            odd += 1;
        }
        if matches!(x, '’' | '”' | '»' | '›')
            && !is_letter(y)
            && !y.is_whitespace()
            && !matches!(y, '’' | '”' | '»' | '›')
        {
            odd += 1;
        }
        if !x.is_ascii()
            && !x.is_whitespace()
            && is_cp1252_row8_letter(y)
            && !is_opening(x)
            && !is_letter(x)
        {
            odd += 1;
        }
        if is_box(x) != is_box(y) && !x.is_whitespace() && !y.is_whitespace() && !x.is_ascii() {
            odd += 1;
        }
        if let (Some(a), Some(b)) = (script(x), script(y)) {
            if a != b && a != Script::Free && b != Script::Free {
                odd += 1;
            }
        }
        if y == 'ƒ' && is_letter(x) {
            odd += 1;
        }
        if matches!(y, 'ª' | 'º') && !x.is_ascii() {
            odd += 1;
        }
        // Signs of the macintosh lead row: directly before another sign or a letter they
        // are a misread lead byte; but not before a sign of mathematics or a Greek letter,
        // which is how formulas write them ("√π", "√∑", "≈π").
        if matches!(
            x,
            '¬' | '√' | '∂' | '∆' | '∑' | '∏' | '∫' | '≈' | '≠' | '≤' | '≥' | '÷' | '◊'
        ) && !is_math_pair(x, y)
        {
            odd += 1;
        }
    }
    odd
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The searches look only at characters whose lead byte [`is_table_lead`] says is
    /// one of a table's (and of E0, Thai's `E0 B8`, `E0 B9`): every character of every
    /// table has one, and the misread marks start with what [`misread_bom_starts`] holds.
    #[test]
    fn every_table_character_has_a_lead_the_search_knows() {
        let mut leads = std::collections::BTreeSet::new();
        for e in Legacy::ALL {
            for b in 0x80..=0xFFu8 {
                let Some(c) = e.decode_byte(b) else { continue };
                let utf8 = c.to_string().into_bytes();
                assert!(is_table_lead(utf8[0]), "{} {b:02X} {c:?}", e.name());
                if utf8[0] == 0xE0 {
                    assert!(matches!(utf8[1], 0xB8 | 0xB9), "{} {b:02X}", e.name());
                }
                leads.insert(utf8[0]);
            }
        }
        // The leads in the range that no table's character has (Latin Extended-B, IPA,
        // combining marks, the end of Cyrillic, Armenian): the range is a superset.
        let expected: Vec<u8> = (0xC2..=0xDB).chain([0xE0, 0xE2, 0xEF]).collect();
        let missing: Vec<u8> = expected
            .iter()
            .copied()
            .filter(|b| !leads.contains(b))
            .collect();
        assert_eq!(
            missing,
            [0xC7, 0xC8, 0xC9, 0xCA, 0xCC, 0xCD, 0xD3, 0xD4, 0xD5]
        );
        for (text, _) in misread_boms() {
            let first = text.chars().next().unwrap();
            assert!(misread_bom_starts().contains(&first), "{text:?}");
        }
    }

    /// A line longer than a window (a file of one line) is judged a window at a time, and
    /// a region across the cuts is one region, as on a short line: its text is the whole
    /// line repaired.
    #[test]
    fn a_long_line_is_judged_in_windows_and_its_region_joined() {
        for words in [40, 20_000] {
            let text = "café crème déjà ".repeat(words);
            let misread: String = text.bytes().map(char::from).collect();
            let found = super::find(&misread);
            assert_eq!(found.len(), 1, "{words} words");
            // From the `é` of the first `café` to the `à` of the last `déjà`.
            let (start, end) = (3, misread.len() - 1);
            assert_eq!((found[0].start, found[0].end), (start, end));
            assert_eq!(found[0].text, text[3..text.len() - 1]);
            assert_eq!(found[0].chain_names(), ["windows-1252"]);
        }
    }

    fn one(text: &str) -> (usize, usize, Vec<&'static str>, String) {
        let found = find(text);
        assert_eq!(found.len(), 1, "{text:?}: {found:?}");
        let m = &found[0];
        (m.start, m.end, m.chain_names(), m.text.clone())
    }

    #[test]
    fn shapes_from_the_notes() {
        assert_eq!(
            one("caf\u{C3}\u{A9}"),
            (3, 7, vec!["windows-1252"], "é".into())
        );
        assert_eq!(
            one("café twice: cafÃƒÂ©"),
            (16, 24, vec!["windows-1252", "windows-1252"], "é".into())
        );
        assert_eq!(
            one("it’s: itâ€™s"),
            (10, 18, vec!["windows-1252"], "’".into())
        );
        assert_eq!(
            one("smile Ã°Å¸Ëœâ‚¬"),
            (6, 25, vec!["windows-1252", "windows-1252"], "😀".into())
        );
        // A capital pair at a word's start, its letters of no one language (`ã` and `œ`).
        assert_eq!(one("Ãœber alles"), (0, 4, vec!["windows-1252"], "Ü".into()));
    }

    #[test]
    fn clean_text_is_left_alone() {
        for text in [
            "Âmbito e Âncora",
            "În România îşi",
            "Åsa och Åke på Åland",
            "Ні, Ві, Ті, Ці",
            "«élève»",
            "ΑΘΗΝΑ",
            "з’їзд",
            "naïve café — “quoted”",
            "sécurité\u{A0}».",
            "«\u{A0}été\u{A0}»",
            "Рівне",
            "— Рік?",
            "PĂŞUNE ŞI ŢARĂ",
            "dx = √π; σ = √∑(x−μ)²/n",
            "≈π, √Ω, √∫f²",
            // The end of the Danish and Norwegian alphabet, not `ů` through windows-1257.
            "Kierunek: ÅÆØ",
            "The Nordic letters ÅÆØ and åæø.",
            "ÆØÅ æøå",
        ] {
            assert_eq!(find(text), [], "{text:?}");
        }
    }

    #[test]
    fn a_math_pair_before_a_word_is_a_misread_letter() {
        assert_eq!(
            one("El √∫ltimo tren"),
            (3, 9, vec!["macintosh"], "ú".into())
        );
    }
}
