//! The single-byte encodings of languages written in Latin letters read most bytes alike
//! and differ where the accented letters stand: Hungarian `ő` is `F5` in windows-1250 and
//! ISO-8859-2, where windows-1252 has `õ`; Lithuanian `ų` is `F8` in windows-1257, where
//! windows-1252 has `ø`. chardetng names one of them from byte statistics, and on a line or
//! a paragraph it may name the wrong sibling: every reading is letters, so nothing breaks,
//! but the wrong one puts letters side by side that no one language writes
//! (`főzött` and `újra` as windows-1252 are `fõzött` and `újra`, and Hungarian has no `õ`).
//!
//! The Cyrillic code pages are siblings too, of another kind: Mac OS Cyrillic writes the
//! small letters where windows-1251 does but `я`, and the capitals where windows-1251 has
//! punctuation and Serbian and Macedonian letters, so Russian in one read as the other is
//! `‚чера` and `гулЯли` for `Вчера` and `гуляли`.
//!
//! [`refit`] reads a region through each sibling and counts, line by line, the letters
//! that do not fit the one language the line's letters fit best ([`super::alphabets`]),
//! and a capital beyond ASCII right after a small letter of its script in a word (`hŠr`
//! for Swedish `här` in Mac OS Roman read as windows-1250); a
//! sibling whose reading fits where chardetng's does not replaces chardetng's guess. It
//! asks for a clear margin (chardetng's reading at least two letters off, and four times
//! as many as the sibling's), so a foreign name in a line of text changes nothing.
//!
//! This module reads bytes through encodings; [`super`] says why in the evidence.

use encoding_rs::Encoding;
use unicode_general_category::{get_general_category, GeneralCategory as Gc};

use super::alphabets::{cyrillic_misfits, misfits};
use super::judge::{is_letter, is_lower, is_upper, script, Script};
use super::GUESS_BYTES;

/// The families of siblings compared, each in the order a tie is settled in: the web's
/// Western, Central European, Baltic and Turkish code pages, their ISO counterparts where
/// they differ, and Mac OS Roman; and the Cyrillic code pages that write the small
/// letters alike (windows-1251 and Mac OS Cyrillic) or the capitals (Mac OS Cyrillic and
/// IBM866).
const FAMILIES: [&[&str]; 2] = [
    &[
        "windows-1252",
        "windows-1250",
        "windows-1257",
        "windows-1254",
        "ISO-8859-2",
        "ISO-8859-13",
        "ISO-8859-4",
        "ISO-8859-16",
        "macintosh",
    ],
    // KOI8-R and ISO-8859-5 put the letters elsewhere (one read as another is letters
    // still, in the wrong case and order), and chardetng tells them apart. IBM866 writes
    // the capitals where Mac OS Cyrillic does, and so text in capitals reads alike in both
    // but for `Ё` and the letters of Ukrainian, Belarusian and Serbian, which IBM866 reads as
    // blocks and lines of a frame (`ИД▌Т`).
    &["windows-1251", "x-mac-cyrillic", "IBM866"],
];

/// A sibling whose reading fits the letters of one language a line where chardetng's
/// guess does not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refit {
    /// The sibling, as encoding_rs names it.
    pub encoding: &'static str,
    /// The guess it replaces.
    pub guess: &'static str,
    /// What is off in the guess's reading: letters that fit no line's language, and signs
    /// between letters.
    pub guess_misfits: usize,
    /// The same count for the sibling's reading.
    pub misfits: usize,
    /// The first few letters of the guess's reading that no sibling reading has where
    /// it stands: what a reader of the guess would see wrong (`õ`, `û`).
    pub shown: Vec<char>,
}

/// What is off in `line`: the letters that fit no one language ([`misfits`],
/// [`cyrillic_misfits`]), each symbol or mark of punctuation beyond ASCII (but an
/// apostrophe, a hyphen, a middle dot) that stands between two letters
/// (`f¸hrt`, German's `führt` read as Mac OS Roman: a reading with fewer letters has fewer
/// to misfit; punctuation stands there in text, `L’été`, Catalan `col·legi`), and each
/// capital beyond ASCII right after a small letter of its script (`гулЯли`, `hŠr`).
fn off(line: &str) -> usize {
    let chars: Vec<char> = line.chars().collect();
    let symbol = |c: char| {
        !c.is_ascii()
            && matches!(
                get_general_category(c),
                Gc::MathSymbol | Gc::CurrencySymbol | Gc::ModifierSymbol | Gc::OtherSymbol
            )
    };
    // Punctuation between letters but an apostrophe, a hyphen or a middle dot (`ега‘он`,
    // windows-1251's `МегаФон` read as Mac OS Cyrillic).
    let inner = |c: char| {
        symbol(c)
            || (!c.is_ascii()
                && matches!(
                    get_general_category(c),
                    Gc::InitialPunctuation
                        | Gc::FinalPunctuation
                        | Gc::OpenPunctuation
                        | Gc::ClosePunctuation
                        | Gc::OtherPunctuation
                        | Gc::DashPunctuation
                )
                && !matches!(c, '’' | 'ʼ' | '‐' | '‑' | '·' | '׳' | '״'))
    };
    // A block or a shade between letters (IBM866's `ИД▌Т` for `ИДЁТ`) counts twice: no
    // text draws them inside a word.
    let block = |c: char| ('\u{2580}'..='\u{259F}').contains(&c);
    let signs: usize = chars
        .windows(3)
        .filter(|w| inner(w[1]) && is_letter(w[0]) && is_letter(w[2]))
        .map(|w| if block(w[1]) { 2 } else { 1 })
        .sum();
    // A block right after a word's letters (IBM866's `ЕЩ▌` for `ЕЩЁ`) counts twice too.
    let blocks_after = 2 * chars
        .windows(2)
        .enumerate()
        .filter(|(i, w)| {
            block(w[1]) && is_letter(w[0]) && !chars.get(i + 2).is_some_and(|c| is_letter(*c))
        })
        .count();
    let inner_capitals = chars
        .windows(2)
        .filter(|w| {
            !w[1].is_ascii()
                && is_lower(w[0])
                && is_upper(w[1])
                && script(w[0]).is_some_and(|s| s != Script::Free && Some(s) == script(w[1]))
        })
        .count();
    misfits(line) + signs + blocks_after + cyrillic_misfits(&chars) + inner_capitals
}

/// Whether each line of `text` has nothing off ([`off`]): its letters beyond ASCII fit one
/// language, no symbol or punctuation stands between two letters, and no capital follows a
/// small letter of its script. French read as windows-1252 does; Russian read so does not
/// (`ß çàëèë`).
pub fn fits_one_language(text: &str) -> bool {
    text.lines().all(|line| off(line) == 0)
}

/// What is off ([`off`]), summed over the lines of `bytes` read through `encoding`, and
/// the reading; `None` where the reading needs a byte the encoding leaves undefined (a C1
/// control).
fn misfits_of(bytes: &[u8], encoding: &'static Encoding) -> Option<(usize, String)> {
    let (text, _) = encoding.decode_without_bom_handling(bytes);
    if text.chars().any(|c| ('\u{80}'..='\u{9F}').contains(&c)) {
        return None;
    }
    Some((text.lines().map(off).sum(), text.into_owned()))
}

/// What is off ([`off`]) in `bytes` (their first [`GUESS_BYTES`]) read through `encoding`,
/// summed over its lines; `None` where the reading needs a byte the encoding leaves
/// undefined.
pub fn off_in(bytes: &[u8], encoding: &'static Encoding) -> Option<usize> {
    misfits_of(&bytes[..bytes.len().min(GUESS_BYTES)], encoding).map(|(n, _)| n)
}

/// A sibling of `guess` that reads `bytes` (their first [`GUESS_BYTES`]) as the letters
/// of one language a line, where `guess` does not.
///
/// ```
/// use hexrune::detect::siblings::refit;
/// // Hungarian in windows-1250: "Jövő héten újra meglátogatjuk őt, és sok gyümölcsöt
/// // főzünk." As windows-1252, `ő` is `õ`, which Hungarian lacks (and Portuguese, which
/// // has it, lacks `ö`).
/// let bytes = b"J\xF6v\xF5 h\xE9ten \xFAjra megl\xE1togatjuk \xF5t, \xE9s sok \
///     gy\xFCm\xF6lcs\xF6t f\xF5z\xFCnk.\n";
/// let r = refit(bytes, "windows-1252").unwrap();
/// assert_eq!((r.encoding, r.guess_misfits, r.misfits), ("windows-1250", 3, 0));
/// assert_eq!(r.shown, vec!['õ']);
/// // French in windows-1252 stays so.
/// assert_eq!(refit(b"Le gar\xE7on a mang\xE9 une cr\xE8me br\xFBl\xE9e.\n", "windows-1252"), None);
/// ```
pub fn refit(bytes: &[u8], guess: &str) -> Option<Refit> {
    let (family, guess) = FAMILIES.iter().find_map(|f| {
        let named = f.iter().find(|s| s.eq_ignore_ascii_case(guess))?;
        Some((f, *named))
    })?;
    let head = &bytes[..bytes.len().min(GUESS_BYTES)];
    let encoding = |name: &str| Encoding::for_label(name.as_bytes());
    let (own, own_text) = misfits_of(head, encoding(guess)?)?;
    // A foreign name in a line of text is one letter off, and so is a brand written in
    // two capitals (`МегаФон`): too few to change a guess.
    if own < 2 {
        return None;
    }
    // A reading with fewer letters has fewer to misfit: a sibling that makes signs of
    // half the guess's letters or more is no rival (windows-1251's capitals are lines of a
    // frame in IBM866, `╨└═└╤` for `ДАНАС`, and no line of them fits a language badly).
    let letters = |text: &str| {
        text.chars()
            .filter(|c| !c.is_ascii() && is_letter(*c))
            .count()
    };
    let own_letters = letters(&own_text);
    let (best, best_text, name) = family
        .iter()
        .filter(|s| **s != guess)
        .filter_map(|s| {
            let (n, text) = misfits_of(head, encoding(s)?)?;
            (letters(&text) * 2 >= own_letters).then_some((n, text, *s))
        })
        .min_by_key(|(n, ..)| *n)?;
    if best * 4 > own {
        return None;
    }
    // The letters of the guess's reading that the sibling's reads otherwise, and that do
    // not fit their line.
    let mut shown: Vec<char> = Vec::new();
    for (a, b) in own_text.lines().zip(best_text.lines()) {
        if off(a) == 0 {
            continue;
        }
        for (x, y) in a.chars().zip(b.chars()) {
            if x != y && x.is_alphabetic() && !shown.contains(&x) && shown.len() < 4 {
                shown.push(x);
            }
        }
    }
    Some(Refit {
        encoding: name,
        guess,
        guess_misfits: own,
        misfits: best,
        shown,
    })
}

/// The bytes where ISO-8859-16 writes Romanian's letters with a comma below and
/// windows-1250 and ISO-8859-2 the older ones with a cedilla: (byte, comma, cedilla).
const COMMA_BELOW: [(u8, char, char); 4] = [
    (0xAA, 'Ș', 'Ş'),
    (0xBA, 'ș', 'ş'),
    (0xDE, 'Ț', 'Ţ'),
    (0xFE, 'ț', 'ţ'),
];

/// Where `bytes`, read as `guess` (windows-1250 or ISO-8859-2), hold Romanian's `ş` and
/// `ţ` with a cedilla as letters of words, and ISO-8859-16 reads them (and every other
/// byte) as text of one language a line, with the comma below Romanian writes today: a
/// doubt to say (the two readings are both Romanian; only the file's writer knows which
/// code page it used). `None` otherwise.
///
/// ```
/// use hexrune::detect::siblings::comma_below_doubt;
/// // "Ştefan şi Ţiţi au mâncat în grădină." in ISO-8859-16 (or windows-1250).
/// let bytes = b"\xAAtefan \xBAi \xDEi\xFEi au m\xE2ncat \xEEn gr\xE3din\xE3.\n";
/// assert_eq!(
///     comma_below_doubt(bytes, "windows-1250", 100).unwrap(),
///     "4 bytes read as ISO-8859-16 give Romanian's letters with a comma below where \
///      windows-1250 gives them with a cedilla (the first at 100: AA Ș not Ş, BA ș not ş, \
///      DE Ț not Ţ, FE ț not ţ); if it is ISO-8859-16, give --from iso-8859-16"
/// );
/// assert_eq!(comma_below_doubt(b"Zeszyt \xBA\n", "windows-1250", 0), None);
/// ```
pub fn comma_below_doubt(bytes: &[u8], guess: &str, offset: usize) -> Option<String> {
    if !matches!(guess, "windows-1250" | "ISO-8859-2") {
        return None;
    }
    let head = &bytes[..bytes.len().min(GUESS_BYTES)];
    let letter = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_alphabetic() || *b >= 0xC0);
    let found: Vec<usize> = (0..head.len())
        .filter(|&i| COMMA_BELOW.iter().any(|(b, ..)| *b == head[i]))
        .filter(|&i| letter(i.checked_sub(1).and_then(|j| head.get(j))) || letter(head.get(i + 1)))
        .collect();
    let first = *found.first()?;
    let (text, malformed) = encoding_rs::ISO_8859_16.decode_without_bom_handling(head);
    if malformed || !fits_one_language(&text) {
        return None;
    }
    let pairs: Vec<String> = COMMA_BELOW
        .iter()
        .filter(|(b, ..)| found.iter().any(|&i| head[i] == *b))
        .map(|(b, comma, cedilla)| format!("{b:02X} {comma} not {cedilla}"))
        .collect();
    Some(format!(
        "{} read as ISO-8859-16 {} Romanian's letters with a comma below where {guess} gives \
         them with a cedilla (the first at {}: {}); if it is ISO-8859-16, give --from iso-8859-16",
        super::counted(found.len() as u64, "byte", "bytes"),
        if found.len() == 1 { "gives" } else { "give" },
        offset + first,
        pairs.join(", ")
    ))
}
