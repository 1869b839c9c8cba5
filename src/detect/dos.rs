//! Code pages with box drawing: whether a region that UTF-8 does not explain is DOS text
//! (IBM437, IBM850, IBM866) or KOI8 text with its box drawing (KOI8-R, KOI8-U), which
//! chardetng (a detector of the web's encodings) does not answer: it knows no DOS Latin
//! code page, and it scores a run of box-drawing bytes in IBM866 or KOI8 as no text (four
//! `80` bytes in a row, KOI8's `────`, turn its guess for Russian text to windows-1252).
//!
//! Two shapes are evidence of DOS text, each one DOS text has and text in the web's
//! single-byte encodings does not:
//!
//! - **box drawing**: at least [`BOX_LINES`] runs of four or more of one horizontal line
//!   byte (`C4` ─ or `CD` ═), the top and bottom of a table or a frame. In windows-1252 they
//!   are Ä and Í, which no word repeats four times.
//! - **accented letters in words**: of the non-ASCII bytes that stand between ASCII letters
//!   (`caf\x82`, `gr\x94\xE1e`), at least nine in ten read as Latin letters in the DOS
//!   code page, and no more than half read as letters (or an apostrophe) in the encoding
//!   chardetng guessed. DOS puts é, à, ö, ü, ñ at 80..A5, where windows-1252 has
//!   punctuation; windows-1252's own letters at C0..FF are box drawing and Greek in IBM437.
//!
//! IBM850 is chosen over IBM437 when more of those bytes read as Latin letters in it (its
//! Á Â À Ê Ë È Í Î Ï Ó Ô Ò Õ õ ã Ã ø Ø sit where IBM437 has boxes and Greek).
//!
//! The box drawing is also weighed with the letters around it ([`cyrillic_words`]): where
//! the non-ASCII bytes outside the box-drawing block read as words of Cyrillic letters in
//! IBM866 (its letters are 80..AF and E0..F1; B0..DF are the same boxes as IBM437's),
//! eight in ten of them, and not as words in chardetng's guess, one line of `C4` or `CD`
//! is evidence enough and the page is IBM866. KOI8 draws its boxes at 80..9F (`80` is ─)
//! and A0..BF (`A0` is ═), and puts Cyrillic letters at C0..FF: one run of four or more
//! `80` or `A0` bytes with such words is KOI8, named KOI8-U where a byte that is a
//! Ukrainian letter in KOI8-U and a box in KOI8-R (A4 є, A6 і, A7 ї, AD ґ ...) stands in
//! a word, else KOI8-R (which reads all of 80..BF as boxes, but for ё and Ё).

use crate::decode::ByteTable;
use crate::encoding::table::{self, Label};

use super::judge::{is_letter, is_lower, is_upper, script, Script};

/// Runs of one horizontal line byte that make box-drawing evidence.
pub const BOX_LINES: usize = 2;

/// How long a run of one line byte must be.
const LINE_RUN: usize = 4;

/// How long a run of one line byte must be to outweigh a multi-byte reading with
/// malformed sequences ([`box_drawing_over_multibyte`]): eight bytes are one character four
/// times over in a double-byte encoding, and eight half-width katakana in Shift_JIS.
const LINE_RUN_OVER_MULTIBYTE: usize = 8;

/// The fewest bytes between ASCII letters that make letter evidence.
const MIN_IN_WORD: usize = 3;

/// The fewest non-ASCII bytes in words of Cyrillic letters ([`cyrillic_words`]) that make
/// evidence for IBM866 or KOI8: two short words.
const MIN_CYRILLIC: usize = 6;

/// `IBM437` or `IBM850` if `bytes` (a region UTF-8 does not explain, for which chardetng
/// guessed `guess`) shows DOS code page text, with the words of the evidence.
///
/// ```
/// use hexrune::detect::dos::dos_code_page;
/// // "Le café de la gare à côté" in IBM437.
/// let text = b"Le caf\x82 est pr\x8As de la gare \x85 c\x93t\x82, d\x82j\x85 ferm\x82.";
/// assert_eq!(dos_code_page(text, "windows-1252").map(|(n, _)| n), Some("IBM437"));
/// let latin1 = "Le café est près de la gare à côté, déjà fermé.";
/// let (w1252, _, _) = encoding_rs::WINDOWS_1252.encode(latin1);
/// assert_eq!(dos_code_page(&w1252, "windows-1252"), None);
/// ```
pub fn dos_code_page(bytes: &[u8], guess: &str) -> Option<(&'static str, String)> {
    let guessed = guessed_table(bytes, guess)?;
    // Where chardetng guessed the page itself (long text outweighs the boxes), its
    // reading is no rival: the boxes name the variant.
    let rival = |own: &[&str]| guessed.filter(|_| !own.contains(&guess));
    if let Some(found) = koi8(bytes, rival(&["KOI8-U", "KOI8-R"])) {
        return Some(found);
    }
    let boxes = line_runs(bytes, &[0xC4, 0xCD], LINE_RUN);
    let dos866 = |lines: usize| {
        let is_box = |b: u8| (0xB0..=0xDF).contains(&b);
        let words = cyrillic_words(bytes, ibm866(), rival(&["IBM866"]), is_box);
        // Text in capitals in a frame (`║ИМЯ    ║ФАМИЛИЯ ║`, a DOS form) is evidence where
        // there are two lines of the frame: KOI8's small letters and Hebrew's letters
        // read as KOI8's capitals, IBM866's capitals are the accented letters of IBM437,
        // which stand beside ASCII letters.
        let capitals = lines >= BOX_LINES;
        (lines >= 1 && words.is_evidence(capitals)).then(|| {
            format!(
                "{}, {} of {} non-ASCII bytes outside them in words of Cyrillic letters in IBM866",
                box_lines(lines, "C4 or CD"),
                words.cyrillic,
                words.all
            )
        })
    };
    if let Some(why) = dos866(boxes) {
        return Some(("IBM866", format!("DOS code page text: {why}")));
    }
    let (in_word, dos437, dos850, theirs) = in_word_letters(bytes, guessed);
    let letters =
        in_word >= MIN_IN_WORD && dos437.max(dos850) * 10 >= in_word * 9 && theirs * 2 <= in_word;
    // Where the guess reads the bytes between letters as letters, it explains them.
    let contrary = in_word >= MIN_IN_WORD && theirs * 2 > in_word;
    if contrary || !(letters || boxes >= BOX_LINES) {
        return None;
    }
    let name = if dos850 > dos437 { "IBM850" } else { "IBM437" };
    let mut why = Vec::new();
    if boxes >= BOX_LINES {
        why.push(format!("{boxes} box-drawing lines (runs of C4 or CD)"));
    }
    if letters {
        why.push(format!(
            "{} of {in_word} bytes inside words are {name}'s accented letters",
            dos437.max(dos850)
        ));
    }
    Some((name, format!("DOS code page text: {}", why.join(", "))))
}

/// Whether `bytes` hold box drawing that outweighs a multi-byte reading that chardetng
/// names only once its malformed sequences are left out ([`legacy::guess`]): at least
/// [`BOX_LINES`] runs of eight or more `C4` ─ or `CD` ═. In Shift_JIS those bytes are the
/// half-width katakana ﾄ and ﾍ, one character each, and in GBK, Big5, EUC-KR and EUC-JP
/// `C4 C4` and `CD CD` are one character (哪, 屯; 컴, 袴 ...): eight bytes read as one
/// character four or more times in a row, which no word writes (Korean `컴컴하다` has it
/// twice), while a DOS frame's line is as long as the frame.
///
/// [`legacy::guess`]: super::legacy::guess
pub fn box_drawing_over_multibyte(bytes: &[u8]) -> bool {
    line_runs(bytes, &[0xC4, 0xCD], LINE_RUN_OVER_MULTIBYTE) >= BOX_LINES
}

/// The table of chardetng's guess `guess` for `bytes`, where it is a single-byte
/// encoding (`Some(None)` for one with no table); `None` where the guess is a multi-byte
/// encoding that reads every byte, and so explains them all: in Shift_JIS, GBK or Big5 the
/// second byte of a character is often an ASCII letter (テ is 83 65, "e"), which would put
/// the first between letters, as a DOS accented letter stands.
fn guessed_table(bytes: &[u8], guess: &str) -> Option<Option<&'static ByteTable>> {
    Some(match table::lookup(guess) {
        Some(Label::Web(e)) if e.is_single_byte() => Some(table::single_byte_table(e)),
        Some(Label::Oem(t)) => Some(t),
        Some(Label::Web(e)) if decodes_whole(e, bytes) => return None,
        _ => None,
    })
}

/// `1 box-drawing line (a run of C4 or CD)`, `2 box-drawing lines (runs of 80 or A0)`.
fn box_lines(n: usize, bytes: &str) -> String {
    match n {
        1 => format!("1 box-drawing line (a run of {bytes})"),
        n => format!("{n} box-drawing lines (runs of {bytes})"),
    }
}

/// `KOI8-R` or `KOI8-U` where `bytes` hold a line of KOI8 box drawing (a run of `80` ─ or
/// `A0` ═) and the non-ASCII bytes outside the box drawing are words of Cyrillic letters
/// in KOI8 ([`cyrillic_words`]) and not words in chardetng's guess (its table `guessed`).
fn koi8(bytes: &[u8], guessed: Option<&ByteTable>) -> Option<(&'static str, String)> {
    let lines = line_runs(bytes, &[0x80, 0xA0], LINE_RUN);
    if lines == 0 {
        return None;
    }
    let koi8u = table::single_byte_table(encoding_rs::KOI8_U);
    let letter = |b: u8| {
        koi8u
            .value(b)
            .and_then(|c| c.to_char())
            .is_some_and(is_letter)
    };
    // KOI8-U's box drawing: 80..BF but its letters (ё Ё є і ї ґ ў and their capitals).
    let is_box = |b: u8| (0x80..=0xBF).contains(&b) && !letter(b);
    let words = cyrillic_words(bytes, koi8u, guessed, is_box);
    if !words.is_evidence(false) {
        return None;
    }
    // Bytes that are letters in KOI8-U but boxes in KOI8-R, inside words.
    let name = match words.koi8u_letters {
        0 => "KOI8-R",
        _ => "KOI8-U",
    };
    let mut why = format!(
        "KOI8 text: {}, {} of {} non-ASCII bytes outside them in words of Cyrillic letters",
        box_lines(lines, "80 or A0"),
        words.cyrillic,
        words.all
    );
    match words.koi8u_letters {
        0 => why.push_str(" (none of KOI8-U's own letters, A4 є, A6 і, A7 ї, AD ґ ...)"),
        n => why.push_str(&format!(
            " ({n} of KOI8-U's own letters, A4 є, A6 і, A7 ї, AD ґ ..., which are boxes in KOI8-R)"
        )),
    }
    Some((name, why))
}

/// IBM866, the DOS code page for Russian, as encoding_rs has it.
fn ibm866() -> &'static ByteTable {
    table::single_byte_table(encoding_rs::IBM866)
}

/// What [`cyrillic_words`] counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Words {
    /// Non-ASCII bytes outside the box drawing.
    all: usize,
    /// Those in words of Cyrillic letters.
    cyrillic: usize,
    /// Those in words of Cyrillic letters with small letters (small, or capitalised).
    small: usize,
    /// Those in words with small letters of one script other than Latin in chardetng's
    /// guess.
    theirs: usize,
    /// Those in Cyrillic words that are KOI8-U's own letters (boxes in KOI8-R).
    koi8u_letters: usize,
}

impl Words {
    /// Whether the words are evidence for the Cyrillic page: at least [`MIN_CYRILLIC`]
    /// bytes in Cyrillic words, eight in ten of the non-ASCII bytes outside the box
    /// drawing, half in words with small letters (text is not all capitals, unless
    /// `capitals`; Hebrew in windows-1255 reads as Cyrillic capitals in KOI8), and fewer
    /// than half in words with small letters of chardetng's guess.
    fn is_evidence(&self, capitals: bool) -> bool {
        self.cyrillic >= MIN_CYRILLIC
            && self.cyrillic * 10 >= self.all * 8
            && (capitals || self.small * 2 >= self.all)
            && self.theirs * 2 < self.all
    }
}

/// The non-ASCII bytes of `bytes` outside the box drawing (`is_box`), and those in words
/// of Cyrillic letters in `page`: runs of two or more bytes that read as letters in it,
/// all Cyrillic, small, capital or capitalised, with no ASCII letter right before or
/// after (and those of them in words with small letters); and, of the same bytes, those
/// that make such words with small letters of one script other than Latin in `guessed`,
/// chardetng's guess (Greek in windows-1253 reads as Cyrillic words in KOI8 too).
fn cyrillic_words(
    bytes: &[u8],
    page: &ByteTable,
    guessed: Option<&ByteTable>,
    is_box: impl Fn(u8) -> bool,
) -> Words {
    let mut words = Words::default();
    let candidate = |b: u8| b >= 0x80 && !is_box(b);
    words.all = bytes.iter().filter(|b| candidate(**b)).count();
    let koi8r = table::single_byte_table(encoding_rs::KOI8_R);
    let koi8r_box = |b: u8| {
        koi8r
            .value(b)
            .and_then(|c| c.to_char())
            .is_some_and(|c| !is_letter(c))
    };
    let in_word = |t: &ByteTable, start: usize, scripts: &dyn Fn(Script) -> bool| {
        let chars: Vec<char> = bytes[start..]
            .iter()
            .take_while(|b| candidate(**b))
            .map_while(|b| t.value(*b).and_then(|c| c.to_char()))
            .take_while(|c| is_letter(*c))
            .collect();
        let end = start + chars.len();
        let ascii_beside = (start > 0 && bytes[start - 1].is_ascii_alphabetic())
            || bytes.get(end).is_some_and(|b| b.is_ascii_alphabetic());
        let one_script = chars
            .first()
            .and_then(|c| script(*c))
            .is_some_and(|s| scripts(s) && chars.iter().all(|c| script(*c) == Some(s)));
        // Small, capitalised or all capitals; and whether it has small letters.
        let small = chars.iter().skip(1).all(|c| is_lower(*c));
        let cased = small || chars.iter().all(|c| is_upper(*c));
        let good = chars.len() >= 2 && !ascii_beside && one_script && cased;
        (end.max(start + 1), good.then_some((chars.len(), small)))
    };
    for (t, theirs) in [(Some(page), false), (guessed, true)] {
        let Some(t) = t else { continue };
        let mut i = 0;
        while i < bytes.len() {
            if !candidate(bytes[i]) {
                i += 1;
                continue;
            }
            let scripts: &dyn Fn(Script) -> bool = match theirs {
                // A word of Latin letters without an ASCII one is what a Latin
                // reading makes of Cyrillic (KOI8's small letters are windows-1252's
                // capitals: `за` is `ÚÁ`); Latin words have ASCII letters. A word of
                // capitals, or of a script without case (Arabic in windows-1256), is what
                // another page makes of Cyrillic too: only words with small letters count.
                true => &|s| s != Script::Latin,
                false => &|s| s == Script::Cyrillic,
            };
            let (end, good) = in_word(t, i, scripts);
            if let Some((n, small)) = good {
                match theirs {
                    true => words.theirs += if small { n } else { 0 },
                    false => {
                        words.cyrillic += n;
                        words.small += if small { n } else { 0 };
                        words.koi8u_letters +=
                            bytes[i..end].iter().filter(|b| koi8r_box(**b)).count();
                    }
                }
            }
            i = end;
        }
    }
    words
}

/// The Cyrillic code pages [`cyrillic_page`] reads a region through, in the order a tie is
/// settled in.
const CYRILLIC_PAGES: [&str; 4] = ["windows-1251", "KOI8-R", "x-mac-cyrillic", "IBM866"];

/// The Cyrillic code page that reads `bytes` as words of Cyrillic letters (eight in ten of
/// the non-ASCII bytes in words of one case, or capitalised, with no ASCII letter
/// beside, and at least [`MIN_CYRILLIC`]; capitals too), the one with least off in it by
/// `off` (a count of what is off in a reading, `None` for a reading with bytes the page
/// leaves undefined), where chardetng's guess is no text: a line or two in capitals of
/// Mac OS Cyrillic (`ВІДДІЛ КАДРІВ`), which chardetng names windows-1252.
pub fn cyrillic_page(
    bytes: &[u8],
    off: impl Fn(&'static encoding_rs::Encoding) -> Option<usize>,
) -> Option<&'static str> {
    CYRILLIC_PAGES
        .iter()
        .filter_map(|&name| {
            let encoding = encoding_rs::Encoding::for_label(name.as_bytes())?;
            let page = table::single_byte_table(encoding);
            // IBM866's frame (`B0`..`DF`) is no word of it: a form's lines of `═` are
            // `ЌЌЌЌ` to Mac OS Cyrillic, and are counted against it.
            let ibm866 = name == "IBM866";
            let words = cyrillic_words(bytes, page, None, |b| ibm866 && (0xB0..=0xDF).contains(&b));
            words.is_evidence(true).then_some(())?;
            Some((off(encoding)?, name))
        })
        .min_by_key(|(off, _)| *off)
        .map(|(_, name)| name)
}

/// Whether `encoding` reads `bytes` (perhaps cut at its end, inside a character) without
/// one malformed sequence.
fn decodes_whole(encoding: &'static encoding_rs::Encoding, bytes: &[u8]) -> bool {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let Some(room) = decoder.max_utf8_buffer_length_without_replacement(bytes.len()) else {
        return false;
    };
    let mut text = String::with_capacity(room);
    let (result, read) = decoder.decode_to_string_without_replacement(bytes, &mut text, false);
    matches!(result, encoding_rs::DecoderResult::InputEmpty) && read == bytes.len()
}

/// Runs of [`LINE_RUN`] or more of one byte of `line` (`C4` or `CD` in DOS, `80` or `A0`
/// in KOI8).
fn line_runs(bytes: &[u8], line: &[u8], min: usize) -> usize {
    let mut runs = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        while i < bytes.len() && bytes[i] == b {
            i += 1;
        }
        if line.contains(&b) && i - start >= min {
            runs += 1;
        }
    }
    runs
}

/// The non-ASCII bytes in runs with an ASCII letter right before and right after, and how
/// many of them read as Latin letters in IBM437, in IBM850, and as letters or an
/// apostrophe in `guessed` (a capital between small letters counts as no letter).
fn in_word_letters(bytes: &[u8], guessed: Option<&ByteTable>) -> (usize, usize, usize, usize) {
    // A capital inside a word of small letters ("nÆo") fits no reading.
    let capital_inside = |c: char, lower: bool| lower && is_upper(c);
    let latin = |t: &ByteTable, b: u8, lower: bool| {
        t.value(b)
            .and_then(|c| c.to_char())
            .is_some_and(|c| script(c) == Some(Script::Latin) && !capital_inside(c, lower))
    };
    let letter_or_apostrophe = |t: &ByteTable, b: u8, lower: bool| {
        t.value(b).and_then(|c| c.to_char()).is_some_and(|c| {
            (is_letter(c) && !capital_inside(c, lower)) || matches!(c, '’' | '‘' | 'ʼ' | '\'')
        })
    };
    let (ibm437, ibm850) = (table::ibm437(), table::ibm850());
    let (mut n, mut a, mut b, mut g) = (0, 0, 0, 0);
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] < 0x80 {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i] >= 0x80 {
            i += 1;
        }
        let before = start > 0 && bytes[start - 1].is_ascii_alphabetic();
        let after = i < bytes.len() && bytes[i].is_ascii_alphabetic();
        if !(before && after) || i - start > 3 {
            continue;
        }
        let lower = bytes[start - 1].is_ascii_lowercase() && bytes[i].is_ascii_lowercase();
        for &x in &bytes[start..i] {
            n += 1;
            a += usize::from(latin(ibm437, x, lower));
            b += usize::from(latin(ibm850, x, lower));
            g += usize::from(guessed.is_some_and(|t| letter_or_apostrophe(t, x, lower)));
        }
    }
    (n, a, b, g)
}
