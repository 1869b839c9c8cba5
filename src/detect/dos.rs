//! DOS code pages: whether a region that UTF-8 does not explain is IBM437 or IBM850 text,
//! which chardetng (a detector of the web's encodings) never answers.
//!
//! Two shapes are evidence, each one DOS text has and text in the web's single-byte
//! encodings does not:
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

use crate::decode::ByteTable;
use crate::encoding::table::{self, Label};

use super::judge::{is_letter, is_upper, script, Script};

/// Runs of one horizontal line byte that make box-drawing evidence.
pub const BOX_LINES: usize = 2;

/// How long a run of one line byte must be.
const LINE_RUN: usize = 4;

/// The fewest bytes between ASCII letters that make letter evidence.
const MIN_IN_WORD: usize = 3;

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
    let guessed = match table::lookup(guess) {
        Some(Label::Web(e)) if e.is_single_byte() => Some(table::single_byte_table(e)),
        Some(Label::Oem(t)) => Some(t),
        // A multi-byte guess that reads every byte explains them all: in Shift_JIS, GBK or
        // Big5 the second byte of a character is often an ASCII letter (テ is 83 65, "e"),
        // which would put the first between letters, as a DOS accented letter stands.
        Some(Label::Web(e)) if decodes_whole(e, bytes) => return None,
        _ => None,
    };
    let boxes = line_runs(bytes);
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
    Some((name, why.join(", ")))
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

/// Runs of [`LINE_RUN`] or more of one byte `C4` or `CD`.
fn line_runs(bytes: &[u8]) -> usize {
    let mut runs = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        while i < bytes.len() && bytes[i] == b {
            i += 1;
        }
        if matches!(b, 0xC4 | 0xCD) && i - start >= LINE_RUN {
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
