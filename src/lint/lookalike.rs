//! Two questions the `confusable` lint asks of a word that mixes scripts, beyond whether
//! its UTS #39 skeleton is of one script (a skeleton maps most lookalikes to Latin, so
//! that test finds `pаypal` but not a Latin letter put into a Cyrillic or Greek word):
//!
//! - [`reads_in_one_script`]: whether each letter of the word's other scripts looks like a
//!   letter of one of its scripts, by UTS #39 skeleton (`Яндeкс` with a Latin `e` reads as
//!   the Cyrillic `Яндекс`; `Ελλaδα` with a Latin `a` as the Greek `Ελλαδα`);
//! - [`is_phonetic`]: whether the word is phonetic notation, Latin letters with the three
//!   Greek letters the International Phonetic Alphabet takes as they are (β, θ, χ: The
//!   Unicode Standard, §7.1, "IPA"), marked as IPA by one of its own letters or signs
//!   (`[ˈlaβa]`, `[θɪŋk]`): not a word disguised as another;
//! - [`is_cased_notation`]: whether the word is scientific notation, Latin capitals with
//!   single small Greek letters (`TNFα`, `NFκB`, `γH2AX`, `Aβ42`): a symbol among capitals,
//!   no word disguised.

use std::collections::HashMap;
use std::sync::LazyLock;

use unicode_script::{Script, UnicodeScript};
use unicode_security::skeleton;

/// The Greek letters of the International Phonetic Alphabet: β, θ, χ.
const IPA_GREEK: [char; 3] = ['\u{3B2}', '\u{3B8}', '\u{3C7}'];

/// Whether `c` is a letter or sign phonetic notation writes: IPA Extensions (U+0250..U+02AF:
/// `ɪ`, `ɑ`, `ɣ`), the Spacing Modifier Letters (U+02B0..U+02FF: `ˈ`, `ː`, `ʰ`), the
/// Phonetic Extensions (U+1D00..U+1DBF), and the IPA letters taken from Latin-1 and
/// Latin Extended-A that no word with a Greek letter would have otherwise (`æ`, `ð`, `ŋ`,
/// `ħ`: `θæŋk`).
fn is_phonetic_sign(c: char) -> bool {
    matches!(c as u32, 0x250..=0x2FF | 0x1D00..=0x1DBF) || matches!(c, 'æ' | 'ð' | 'ŋ' | 'ħ')
}

/// Whether `word` is phonetic notation: its letters are Latin but for β, θ and χ, at least
/// one of those is there, and so is a letter or sign of phonetic notation.
pub(super) fn is_phonetic(word: &str) -> bool {
    let mut greek = false;
    let mut sign = false;
    for c in word.chars() {
        sign |= is_phonetic_sign(c);
        match c.script() {
            Script::Greek if IPA_GREEK.contains(&c) => greek = true,
            Script::Latin | Script::Common | Script::Inherited => {}
            _ => return false,
        }
    }
    greek && sign
}

/// Whether `word` is the notation of biochemistry and physics: Latin capitals with small
/// Greek letters, no two Greek letters side by side (`TNFα`, `NFκB`, `IκBα`, `γH2AX`,
/// `Aβ42`, `Kα`); or one small Greek letter with a digit or two Latin capitals right
/// beside it, among Latin letters whose small ones stand alone, no two side by side
/// (`RORγt`, `p38α`, `eIF2α`, `CaMKIIδ`, `α7nAChR`), or that a number sets off
/// ([`set_off_by_a_number`]: `Hsp90α`). One small Greek letter among
/// capitals or beside a number stands out as a symbol; a run of them may spell a
/// lowercase word (`CNNραγ` reads as `CNNpay`), as may small Cyrillic letters after
/// capitals (`CNNрау`), a Greek letter beside two small Latin letters (`pαypal`, `apoε4`)
/// or beside one capital or small letter only (`Mαc`, `eBαy`, `ChαtGPT`; so `Gαq` and
/// `Lyα` are asked), two Greek letters among small ones (`PαyPαl`), and a Greek word with
/// a Latin capital at its start (`Aθήνα`): those are asked. Omicron, the one Greek
/// letter no notation writes (it is an `o`), never is notation (`cοm`, `Nο`).
pub(super) fn is_cased_notation(word: &str) -> bool {
    let chars: Vec<char> = word.chars().collect();
    if set_off_by_a_number(&chars) {
        return true;
    }
    let mut capitals = false;
    let mut greek = 0;
    let mut small = false;
    // The letter before, where it is a small Latin or a Greek one.
    let mut after_greek = false;
    let mut after_small = false;
    // Whether each Greek letter has a digit or two Latin capitals right beside it.
    let mut anchored = true;
    for (i, &c) in chars.iter().enumerate() {
        // A digit or a sign ends a run of letters.
        if !c.is_alphabetic() {
            (after_greek, after_small) = (false, false);
            continue;
        }
        match c.script() {
            Script::Latin if c.is_uppercase() => capitals = true,
            Script::Latin if c.is_lowercase() && !after_small => small = true,
            Script::Greek if c.is_lowercase() && !after_greek && c != 'ο' => {
                greek += 1;
                let capital = |j: Option<usize>| {
                    j.and_then(|j| chars.get(j))
                        .is_some_and(|c| c.script() == Script::Latin && c.is_uppercase())
                };
                let digit = |j: Option<usize>| {
                    j.and_then(|j| chars.get(j))
                        .is_some_and(|c| c.is_ascii_digit())
                };
                let before = i.checked_sub(1);
                let before2 = i.checked_sub(2);
                anchored &= digit(before)
                    || digit(Some(i + 1))
                    || (capital(before) && capital(before2))
                    || (capital(Some(i + 1)) && capital(Some(i + 2)));
            }
            Script::Common | Script::Inherited | Script::Unknown => {
                (after_greek, after_small) = (false, false);
                continue;
            }
            _ => return false,
        }
        after_greek = c.script() == Script::Greek;
        after_small = c.script() == Script::Latin && c.is_lowercase();
    }
    match small {
        false => capitals && greek > 0,
        true => greek == 1 && anchored,
    }
}

/// Whether `chars` (a word of Latin letters) have one small Greek letter, not omicron,
/// that a number sets off: a digit on one side and no letter on the other (`Hsp90α`,
/// `HIF1α`, `α7nAChR`): a symbol after or before a number, whatever the letters before it
/// (`2αdmin` is no such word: a letter follows).
fn set_off_by_a_number(chars: &[char]) -> bool {
    let mut greek = chars
        .iter()
        .enumerate()
        .filter(|(_, c)| c.script() == Script::Greek);
    let (Some((at, &g)), None) = (greek.next(), greek.next()) else {
        return false;
    };
    let latin_else = chars
        .iter()
        .all(|c| !c.is_alphabetic() || c.script() == Script::Latin || c.script() == Script::Greek);
    let beside = |j: Option<usize>| j.and_then(|j| chars.get(j)).copied();
    let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
    let letter = |c: Option<char>| c.is_some_and(char::is_alphabetic);
    let (before, after) = (beside(at.checked_sub(1)), beside(Some(at + 1)));
    g.is_lowercase()
        && g != 'ο'
        && latin_else
        && ((digit(before) && !letter(after)) || (digit(after) && !letter(before)))
}

/// Whether `word` is an acronym with a case ending or suffix of a cased script, as Russian
/// writes them (`QAшник`, `SMSка`, `VIPов`, `HRку`): two or more Latin capitals, then two
/// or more small letters of one other script, at least one of which has no ASCII
/// lookalike, so the word reads as no ASCII word. `CNNрау`, whose `рау` reads as `pay`,
/// and `BANк`, one letter, are asked.
pub(super) fn is_acronym_with_ending(word: &str) -> bool {
    let letters: Vec<char> = word.chars().filter(|c| c.is_alphabetic()).collect();
    let capitals = letters
        .iter()
        .take_while(|c| c.script() == Script::Latin && c.is_uppercase())
        .count();
    let ending = &letters[capitals..];
    let Some(script) = ending.first().map(|c| c.script()) else {
        return false;
    };
    let ascii_lookalike = |c: char| {
        let mut one = [0; 4];
        let key: String = skeleton(c.encode_utf8(&mut one)).collect();
        key.is_ascii()
    };
    capitals >= 2
        && ending.len() >= 2
        && !matches!(
            script,
            Script::Latin | Script::Common | Script::Inherited | Script::Unknown
        )
        && ending
            .iter()
            .all(|c| c.script() == script && c.is_lowercase() && !c.to_uppercase().eq([*c]))
        && !ending.iter().all(|c| ascii_lookalike(*c))
}

/// A word as it reads in one of its scripts.
pub(super) struct Reading {
    /// The script it reads in.
    pub script: Script,
    /// The word with each letter of another script replaced by its lookalike.
    pub word: String,
    /// Each letter replaced and its lookalike (a letter, or a letter and its accents),
    /// in the order met, each pair once.
    pub swapped: Vec<(char, String)>,
}

/// The letters a word can be read as, by their UTS #39 skeleton (each one character's), in
/// code point order: the alphabetic characters of a script (not Common, Inherited or
/// Unknown) in the blocks of the alphabets words are written in, U+0041 to U+1CFF and the
/// Latin and Greek Extended Additional blocks (U+1E00 to U+1FFF), but the IPA Extensions
/// and Spacing Modifier Letters: a word with a Greek `χ` does not read as a Latin word
/// through U+AB53 LATIN SMALL LETTER CHI, which no word is written with. Built on first
/// use, when a word that mixes scripts is met whose skeleton does not settle it.
static BY_SKELETON: LazyLock<HashMap<String, Vec<char>>> = LazyLock::new(|| {
    let mut map: HashMap<String, Vec<char>> = HashMap::new();
    let alphabets = (0x41..0x250).chain(0x300..0x1D00).chain(0x1E00..0x2000);
    for v in alphabets {
        let Some(c) = char::from_u32(v) else { continue };
        if !c.is_alphabetic()
            || matches!(
                c.script(),
                Script::Common | Script::Inherited | Script::Unknown
            )
        {
            continue;
        }
        let mut one = [0; 4];
        let key: String = skeleton(c.encode_utf8(&mut one)).collect();
        map.entry(key).or_default().push(c);
    }
    map
});

/// Whether character `c` belongs in a word of `script`: of it, or of no one script, or used
/// by it (its Script_Extensions).
fn fits(c: char, script: Script) -> bool {
    let ext = c.script_extension();
    ext.is_common() || ext.is_inherited() || ext.contains_script(script)
}

/// The letter of `script` that looks like `c` (has its skeleton), of `c`'s case where one
/// is; for a letter with an accent that `script` has no letter for (Latin `á` in Cyrillic,
/// which writes `а́`), the lookalike of its base letter with the accent after it.
fn lookalike_in(c: char, script: Script) -> Option<String> {
    let mut one = [0; 4];
    let key: String = skeleton(c.encode_utf8(&mut one)).collect();
    let found = BY_SKELETON.get(&key).and_then(|all| {
        let mut of_script = all.iter().copied().filter(|&d| d.script() == script);
        let first = of_script.next()?;
        let same_case = |d: char| d.is_lowercase() == c.is_lowercase();
        match same_case(first) {
            true => Some(first),
            false => Some(of_script.find(|&d| same_case(d)).unwrap_or(first)),
        }
    });
    if let Some(d) = found {
        return Some(d.to_string());
    }
    let mut parts = Vec::new();
    unicode_normalization::char::decompose_canonical(c, |p| parts.push(p));
    // Accents only: a Hangul syllable decomposes into letters (`에` is `ᄋ` and `ᅦ`), the
    // second of which is no accent of the first.
    let accent = |m: &char| unicode_normalization::char::canonical_combining_class(*m) != 0;
    match parts.as_slice() {
        [base, marks @ ..] if !marks.is_empty() && marks.iter().all(accent) => {
            let mut out = lookalike_in(*base, script)?;
            out.extend(marks);
            Some(out)
        }
        _ => None,
    }
}

/// How `word` (which mixes scripts) reads in the script most of its letters are of, if it
/// does: each letter not of that script has a lookalike in it. A word with no script of
/// more than half its letters reads in none: a unit's symbol (`MΩ`, `μA`: a Latin prefix
/// or unit beside a Greek one) disguises no word.
pub(super) fn reads_in_one_script(word: &str) -> Option<Reading> {
    let mut counts: Vec<(Script, usize)> = Vec::new();
    for c in word.chars() {
        let s = c.script();
        if matches!(s, Script::Common | Script::Inherited | Script::Unknown) {
            continue;
        }
        match counts.iter_mut().find(|(t, _)| *t == s) {
            Some((_, n)) => *n += 1,
            None => counts.push((s, 1)),
        }
    }
    let total: usize = counts.iter().map(|&(_, n)| n).sum();
    let &(script, most) = counts.iter().max_by_key(|&&(_, n)| n)?;
    if most * 2 <= total {
        return None;
    }
    let mut out = String::with_capacity(word.len());
    let mut swapped: Vec<(char, String)> = Vec::new();
    for c in word.chars() {
        if fits(c, script) {
            out.push(c);
            continue;
        }
        let d = lookalike_in(c, script)?;
        out.push_str(&d);
        if !swapped.iter().any(|(was, _)| *was == c) {
            swapped.push((c, d));
        }
    }
    Some(Reading {
        script,
        word: out,
        swapped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_latin_letter_in_a_cyrillic_or_greek_word_reads_in_that_script() {
        let r = reads_in_one_script("Яндeкс").expect("reads as Cyrillic");
        assert_eq!(r.script, Script::Cyrillic);
        assert_eq!(r.word, "Яндекс");
        assert_eq!(r.swapped, vec![('e', "\u{435}".to_string())]);
        let r = reads_in_one_script("Ελλaδα").expect("reads as Greek");
        assert_eq!(r.script, Script::Greek);
        assert_eq!(r.word, "Ελλαδα");
        assert_eq!(r.swapped, vec![('a', "\u{3B1}".to_string())]);
        // One letter twice: the pair named once.
        let r = reads_in_one_script("Пaпaша").expect("reads as Cyrillic");
        assert_eq!(r.word, "Папаша");
        assert_eq!(r.swapped, vec![('a', "\u{430}".to_string())]);
        // A precomposed Latin `á`, which Cyrillic writes as `а` and the accent.
        let r = reads_in_one_script("П\u{E1}вел").expect("reads as Cyrillic");
        assert_eq!(r.word, "Па\u{301}вел");
        // Half the letters are no majority.
        assert!(reads_in_one_script("Пaпa").is_none());
        assert!(reads_in_one_script("MΩ").is_none());
        assert!(reads_in_one_script("μA").is_none());
    }

    #[test]
    fn a_letter_with_no_lookalike_in_the_other_script_does_not_read_in_it() {
        // `t` has no Greek lookalike of its skeleton, `Δ` no Latin one.
        assert!(reads_in_one_script("Δt").is_none());
        // Katakana has no `T`.
        assert!(reads_in_one_script("Tシャツ").is_none());
        // `U` has no Cyrillic lookalike.
        assert!(reads_in_one_script("USBкабель").is_none());
        // `χ`'s Latin lookalike, U+AB53, is no letter of the Latin alphabet words use.
        assert!(reads_in_one_script("baχ").is_none());
        // A Hangul syllable is no letter and an accent (`에` is `ᄋ` and the vowel `ᅦ`).
        assert!(reads_in_one_script("iPhone에").is_none());
        assert!(reads_in_one_script("Google의").is_none());
    }

    #[test]
    fn latin_capitals_with_single_small_greek_letters_are_notation() {
        for word in [
            "TNFα", "NFκB", "IFNγ", "TGFβ", "PKCδ", "ERα", "PPARγ", "γH2AX", "κB", "PI3Kγ",
            "HIF1α", "αKG", "IκBα", "Aβ", "Aβ42", "Kα",
            // One Greek letter beside a digit or two capitals, small Latin letters alone.
            "RORγt", "p38α", "eIF2α", "CaMKIIδ", "α7nAChR",
            // One Greek letter a number sets off, whatever the letters.
            "Hsp90α", "apoE4ε",
        ] {
            assert!(is_cased_notation(word), "{word}");
        }
        for word in [
            // A run of Greek letters, which may spell a word.
            "CNNραγ",
            "Aθήνα",
            "Pοσσια",
            // Small Cyrillic letters after capitals read as Latin ones.
            "CNNрау",
            "SMSка",
            "Pоссия",
            "BANк",
            // Two small Latin letters side by side, two Greek letters among small Latin
            // ones, a capital of the other script.
            "pаypal",
            "Pаypal",
            "pαypal",
            "θmax",
            "apoε4",
            "2αdmin",
            "PαyPαl",
            // Beside one capital or small letter only; omicron.
            "Gαq",
            "Mαc",
            "eBαy",
            "ChαtGPT",
            "σx",
            "cοm",
            "Nο",
            "ΑPPLE",
            "PAYPАL",
            "Яндeкс",
            // No case.
            "וGoogle",
            "PDFها",
            // One script.
            "TNF",
            "αβ",
        ] {
            assert!(!is_cased_notation(word), "{word}");
        }
    }

    #[test]
    fn acronyms_with_a_case_ending_are_no_disguise() {
        for word in [
            "QAшник",
            "ITшник",
            "CEOшник",
            "SMSка",
            "VIPов",
            "HRку",
            "PDFку",
            "USBшка",
        ] {
            assert!(is_acronym_with_ending(word), "{word}");
        }
        for word in [
            "CNNрау",
            "APPLEрау",
            "BANк",
            "MICROSOFт",
            "Pоссия",
            "pаypal",
            "CNNραγ",
            "TNF",
        ] {
            assert!(!is_acronym_with_ending(word), "{word}");
        }
    }

    #[test]
    fn phonetic_notation_is_latin_with_the_ipa_greek_letters_and_a_sign_of_ipa() {
        for word in [
            "ˈlaβa",
            "aβoˈɣaðo",
            "ˈxoβen",
            "θɪŋk",
            "bɑːθ",
            "baχː",
            "θæŋk",
        ] {
            assert!(is_phonetic(word), "{word}");
        }
        // No sign of IPA; another Greek letter; another script.
        for word in ["laβa", "ˈlaπa", "ˈlaβaд", "ˈlaba"] {
            assert!(!is_phonetic(word), "{word}");
        }
    }
}
