//! Judgments on single characters that the mojibake search needs: is a character likely in
//! real text, which script its letters belong to, and what kind of sign it is.
//!
//! These are hexrune's own rules, written for one question: could this character be what
//! somebody meant to write? Rare blocks (IPA, archaic Greek, Cyrillic extensions beyond
//! Ukrainian, Syriac, presentation forms, private use, unassigned code points) count as
//! implausible, because misread bytes land in them far more often than writers do.

use unicode_general_category::{get_general_category, GeneralCategory as Gc};
use unicode_script::{Script as UnicodeScriptName, UnicodeScript};

/// The script of a letter, as far as the mixed-script rule needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Script {
    /// Latin letters (ASCII, Latin-1, the Latin extensions).
    Latin,
    /// Greek.
    Greek,
    /// Cyrillic.
    Cyrillic,
    /// Armenian, Hebrew or Arabic: alphabets that never share a word with the ones above.
    OtherAlphabet,
    /// Anything else (CJK, Hangul, kana, Indic, Thai ...): may sit beside any script.
    Free,
}

/// Whether `c` is a letter ([`is_letter`]) whose Unicode Script is one other than Latin
/// (not Common, Inherited or Unknown either): `й`, `α`, `漢`, not `é`, `ª` or a digit.
pub fn is_letter_of_another_script(c: char) -> bool {
    is_letter(c)
        && !matches!(
            c.script(),
            UnicodeScriptName::Latin
                | UnicodeScriptName::Common
                | UnicodeScriptName::Inherited
                | UnicodeScriptName::Unknown
        )
}

/// The script of `c`, for a letter; `None` for anything that is not a letter.
pub fn script(c: char) -> Option<Script> {
    if !is_letter(c) {
        return None;
    }
    let cp = c as u32;
    Some(match cp {
        0..=0x24F | 0x1E00..=0x1EFF | 0x2C60..=0x2C7F | 0xA720..=0xA7FF => Script::Latin,
        0x370..=0x3FF | 0x1F00..=0x1FFF => Script::Greek,
        0x400..=0x52F | 0x1C80..=0x1C8F | 0x2DE0..=0x2DFF | 0xA640..=0xA69F => Script::Cyrillic,
        0x530..=0x8FF => Script::OtherAlphabet,
        // Phonetic Extensions: small capitals, sub- and superscript letters ("aᵢ", "ᵝ"),
        // each of the script Unicode gives it.
        0x1D00..=0x1DBF => match c.script() {
            UnicodeScriptName::Latin => Script::Latin,
            UnicodeScriptName::Greek => Script::Greek,
            UnicodeScriptName::Cyrillic => Script::Cyrillic,
            _ => Script::Free,
        },
        _ => Script::Free,
    })
}

/// Whether `c` is a letter (general category L*), with the ordinal indicators ª º and the
/// micro sign µ counted as signs: in text they follow digits, not letters.
pub fn is_letter(c: char) -> bool {
    if matches!(c, 'ª' | 'º' | 'µ') {
        return false;
    }
    matches!(
        get_general_category(c),
        Gc::UppercaseLetter
            | Gc::LowercaseLetter
            | Gc::TitlecaseLetter
            | Gc::ModifierLetter
            | Gc::OtherLetter
    )
}

/// Whether `c` is punctuation, a symbol or a space (general category P*, S* or Zs):
/// `—`, `‘`, `€`, `©`, no-break space.
pub fn is_sign(c: char) -> bool {
    matches!(
        get_general_category(c),
        Gc::ConnectorPunctuation
            | Gc::DashPunctuation
            | Gc::OpenPunctuation
            | Gc::ClosePunctuation
            | Gc::InitialPunctuation
            | Gc::FinalPunctuation
            | Gc::OtherPunctuation
            | Gc::MathSymbol
            | Gc::CurrencySymbol
            | Gc::ModifierSymbol
            | Gc::OtherSymbol
            | Gc::SpaceSeparator
    )
}

/// Whether `c` is an upper-case letter.
pub fn is_upper(c: char) -> bool {
    matches!(
        get_general_category(c),
        Gc::UppercaseLetter | Gc::TitlecaseLetter
    )
}

/// Whether `c` is a lower-case letter.
pub fn is_lower(c: char) -> bool {
    get_general_category(c) == Gc::LowercaseLetter && !matches!(c, 'ª' | 'º' | 'µ')
}

/// Whether `c` attaches to the character before it (a combining mark, a variation
/// selector, a zero-width joiner, an emoji modifier or tag): it cannot begin a repair.
pub fn is_attached(c: char) -> bool {
    matches!(
        get_general_category(c),
        Gc::NonspacingMark | Gc::SpacingMark | Gc::EnclosingMark
    ) || matches!(c as u32, 0x200C..=0x200D | 0xFE00..=0xFE0F | 0x1F3FB..=0x1F3FF | 0xE0020..=0xE007F)
}

/// Whether the mark `c` belongs to the letter `base` before it: a vowel sign or tone mark
/// of the letter's own script (Thai `ื` after `ม`, Devanagari `ी` after `क`). Marks of
/// no script of their own (the combining diacritics U+0300.., joiners, variation
/// selectors) do not: they attach to anything, so nothing says they were written there.
pub fn is_mark_of(c: char, base: char) -> bool {
    let s = c.script();
    is_attached(c)
        && is_letter(base)
        && !matches!(
            s,
            UnicodeScriptName::Inherited | UnicodeScriptName::Common | UnicodeScriptName::Unknown
        )
        && s == base.script()
}

/// Whether `c` is a mark of a script of its own (a Hebrew point, an Arabic vowel sign, a
/// Thai vowel) attached to `base`, a letter of another script: what no writer puts, and
/// what a misread lead byte is in windows-1255 (`C3` is the point U+05B3, so `é` misread
/// is `ֳ©`, glued to the Latin letter before it).
pub fn is_foreign_mark(c: char, base: char) -> bool {
    is_attached(c)
        && is_letter(base)
        && !matches!(
            c.script(),
            UnicodeScriptName::Inherited | UnicodeScriptName::Common | UnicodeScriptName::Unknown
        )
        && c.script() != base.script()
}

/// Whether `c` is a character a writer plausibly meant: assigned, not a control, not
/// private use, and not in a block that misread bytes fall into far more often than
/// writers use it.
pub fn is_plausible(c: char) -> bool {
    let cp = c as u32;
    if matches!(
        get_general_category(c),
        Gc::Unassigned | Gc::PrivateUse | Gc::Surrogate | Gc::Control
    ) {
        return matches!(c, '\t' | '\n' | '\r');
    }
    match cp {
        0..=0x7F | 0xA0..=0x17F => true,
        // Latin Extended-B: only Vietnamese ơ ư, the Croatian digraphs and pinyin, and
        // Romanian ș ț.
        0x180..=0x24F => {
            matches!(cp, 0x1A0 | 0x1A1 | 0x1AF | 0x1B0 | 0x1C4..=0x1DC | 0x218..=0x21B)
        }
        // Spacing modifiers that text uses: ʼ ˆ ˇ ˘ ˙ ˚ ˛ ˜ ˝.
        0x250..=0x2FF => matches!(cp, 0x2BC | 0x2C6 | 0x2C7 | 0x2D8..=0x2DD),
        0x300..=0x36F => true,
        // Greek: the modern letters and tonos.
        0x370..=0x3FF => {
            matches!(cp, 0x384..=0x386 | 0x388..=0x38A | 0x38C | 0x38E..=0x3A1 | 0x3A3..=0x3CE)
        }
        // Cyrillic: the basic block and Ukrainian Ґ ґ.
        0x400..=0x52F => matches!(cp, 0x400..=0x45F | 0x490 | 0x491),
        0x531..=0x556 | 0x561..=0x587 => true,
        // Hebrew letters and points; Arabic letters, marks, digits and punctuation.
        // Yiddish's ligatures (װ ױ ײ) too.
        0x5B0..=0x5C7 | 0x5D0..=0x5EA | 0x5F0..=0x5F4 => true,
        0x60C | 0x61B | 0x61F | 0x621..=0x63A | 0x640..=0x655 | 0x660..=0x669 => true,
        // Persian, Urdu and the other languages of the script: their letters, the Urdu
        // full stop (۔) and the extended digits (۰ to ۹).
        0x66A..=0x6D5 | 0x6F0..=0x6F9 => true,
        // Indic, Sinhala, Thai, Lao, Tibetan, Myanmar, Georgian.
        0x900..=0x10FF => true,
        // Ethiopic, Khmer.
        0x1200..=0x137F | 0x1780..=0x17FF => true,
        0x1D00..=0x1DBF | 0x1E00..=0x1EFF | 0x1F00..=0x1FFF => true,
        // Punctuation (no line/paragraph separators, no bidi or invisible controls),
        // super- and subscripts, currency, letterlike, number forms, arrows, maths,
        // technical, control pictures, enclosed alphanumerics, box drawing, shapes,
        // symbols, dingbats, arrows, braille.
        0x2000..=0x206F => !matches!(cp, 0x2028..=0x202E | 0x2060..=0x206F),
        0x2070..=0x2BFF => true,
        // CJK, kana, Hangul.
        0x2E80..=0x9FFF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF => true,
        0xFE10..=0xFE1F | 0xFE30..=0xFE4F | 0xFF01..=0xFFEF => true,
        0xFE00..=0xFE0F => true,
        // Emoji and pictographs, CJK extensions, emoji tags.
        0x1F000..=0x1FAFF | 0x20000..=0x3FFFF | 0xE0020..=0xE007F => true,
        _ => false,
    }
}

/// Whether `c` is a sign that rarely follows a letter directly in real text: symbols,
/// numbers other than digits, opening punctuation, the Spanish inverted marks, section and
/// pilcrow signs, ª º µ, controls, a no-break space or a soft hyphen. Closing quotes,
/// dashes and the ellipsis are not odd after a letter.
pub fn is_odd_after_letter(c: char) -> bool {
    if c.is_ascii() {
        return false;
    }
    if matches!(
        c,
        'ª' | 'º'
            | 'µ'
            | '\u{A0}'
            | '\u{AD}'
            | '¡'
            | '¿'
            | '§'
            | '¶'
            | '·'
            | '‰'
            | '†'
            | '‡'
            | '•'
    ) {
        return true;
    }
    matches!(
        get_general_category(c),
        Gc::MathSymbol
            | Gc::CurrencySymbol
            | Gc::ModifierSymbol
            | Gc::OtherSymbol
            | Gc::OtherNumber
            | Gc::InitialPunctuation
            | Gc::OpenPunctuation
            | Gc::Control
            | Gc::Format
    ) && !matches!(c, '’' | '”' | '›' | '»')
}

/// Whether `x` then `y` read as mathematics: a math symbol (`√`, `≈`, `∑`, `¬`), then a
/// math symbol, a Greek letter or the micro sign (`√π`, `√∑`, `≈π`, `√Ω`).
pub fn is_math_pair(x: char, y: char) -> bool {
    get_general_category(x) == Gc::MathSymbol
        && (get_general_category(y) == Gc::MathSymbol
            || script(y) == Some(Script::Greek)
            || y == 'µ')
}

/// The letters of windows-1252's 80..9F row (and its modifier signs): in genuine text they
/// follow ASCII letters (cœur, Šibenik); after another accented letter they are what the
/// second byte of a misread UTF-8 sequence looks like.
pub fn is_cp1252_row8_letter(c: char) -> bool {
    matches!(c, 'ƒ' | 'Š' | 'Œ' | 'Ž' | 'š' | 'œ' | 'ž' | 'Ÿ' | 'ˆ' | '˜')
}

/// Whether `c` is a box-drawing or block element (U+2500..U+259F).
pub fn is_box(c: char) -> bool {
    matches!(c as u32, 0x2500..=0x259F)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts() {
        assert_eq!(script('é'), Some(Script::Latin));
        assert_eq!(script('ж'), Some(Script::Cyrillic));
        assert_eq!(script('λ'), Some(Script::Greek));
        assert_eq!(script('中'), Some(Script::Free));
        assert_eq!(script('ᵢ'), Some(Script::Latin));
        assert_eq!(script('ᵝ'), Some(Script::Greek));
        assert_eq!(script('©'), None);
        assert_eq!(script('º'), None);
    }

    #[test]
    fn marks_of_their_letters_script() {
        assert!(is_mark_of('\u{E37}', 'ม'));
        assert!(is_mark_of('\u{940}', 'क'));
        assert!(!is_mark_of('\u{E37}', 'a'));
        assert!(!is_mark_of('\u{301}', 'e'));
        assert!(!is_mark_of('\u{E37}', ' '));
        assert!(!is_mark_of('ม', 'ม'));
    }

    #[test]
    fn plausibility() {
        for c in [
            'é', 'ș', 'ơ', 'ж', 'ґ', 'λ', '’', '€', '😀', '中', '한', '─', 'ǎ',
        ] {
            assert!(is_plausible(c), "{c:?}");
        }
        for c in [
            '\u{81}', '\u{4A8}', '\u{27B}', '\u{63B}', '\u{E000}', '\u{373}', '\u{FEFF}',
        ] {
            assert!(!is_plausible(c), "{c:?}");
        }
    }
}
