//! The letters beyond ASCII that the languages written in Latin letters use, and how well
//! the letters of a line fit one such language.
//!
//! Mojibake search needs this to choose between two encodings that both undo a line
//! exactly: windows-1250 and ISO-8859-2 read most bytes alike, and so do windows-1252 and
//! windows-1257 where a line's bytes fall. Spanish `está` misread through ISO-8859-2 is
//! `estĂĄ`; encoding that back through windows-1250 gives valid UTF-8 too, `estå`. Both
//! repairs are plausible characters; only the second mixes letters that no one language
//! writes together (`å` with `ñ` and `ó`). The tables are hexrune's own, written from the
//! languages' alphabets (lower case; a capital counts as its small letter).
//!
//! This module knows letters, not encodings or files.

use super::judge::{is_letter, is_lower, is_upper, script, Script};

/// A language's letters beyond ASCII, in lower case.
struct Language {
    /// Every such letter it writes.
    letters: &'static str,
    /// Those of `letters` it writes only at the end of a word (Italian `più`, `città`;
    /// French `où`).
    word_final: &'static str,
    /// Letters of which a line of this language has at least one ("" for none): the
    /// languages that write almost every accented vowel of Latin-1 count only where their
    /// own letters show (`ư`, `ơ`, `đ` for Vietnamese; the macrons and carons of Pinyin).
    needs: &'static str,
}

const fn lang(letters: &'static str) -> Language {
    Language {
        letters,
        word_final: "",
        needs: "",
    }
}

const VIETNAMESE_OWN: &str = "ăđĩũơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ";

const LANGUAGES: [Language; 30] = [
    lang("áéíóúñü"),       // Spanish
    lang("áâãàçéêíóôõúü"), // Portuguese
    Language {
        letters: "àâæçéèêëîïôœùûüÿ",
        word_final: "ù",
        needs: "",
    }, // French
    Language {
        letters: "àèéìíîòóùú",
        word_final: "àèéìíîòóùú",
        needs: "",
    }, // Italian
    lang("àçèéíïòóúü"),    // Catalan
    lang("äöüß"),          // German
    lang("áéíóúàèëïöüĳ"),  // Dutch
    lang("æøåéòôà"),       // Danish, Norwegian
    lang("åäöé"),          // Swedish
    lang("åäöšž"),         // Finnish
    lang("áðéíóúýþæö"),    // Icelandic
    lang("áðíóúýæø"),      // Faroese
    lang("ąćęłńóśźż"),     // Polish
    lang("áčďéěíňóřšťúůýž"), // Czech
    lang("áäčďéíĺľňóôŕšťúýž"), // Slovak
    lang("čćđšžǆǉǌ"),      // Croatian, Bosnian, Serbian
    lang("čšžćđ"),         // Slovenian
    lang("áéíóöőúüű"),     // Hungarian
    lang("ăâîșțşţ"),       // Romanian
    lang("çë"),            // Albanian
    lang("çğıöşüâîû"),     // Turkish
    lang("çəğıöşü"),       // Azerbaijani
    lang("ąčęėįšųūž"),     // Lithuanian
    lang("āčēģīķļņšūž"),   // Latvian
    lang("äöõüšž"),        // Estonian
    Language {
        letters: "ċġħżàèìòù",
        word_final: "àèìòù",
        needs: "",
    }, // Maltese
    lang("ĉĝĥĵŝŭ"),        // Esperanto
    lang("áéíóú"),         // Irish
    Language {
        letters: "āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜü",
        word_final: "",
        needs: "āēīōūǎěǐǒǔǖǘǚǜ",
    }, // Hanyu Pinyin
    Language {
        letters: "àáâãèéêìíòóôõùúýăđĩũơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ",
        word_final: "",
        needs: VIETNAMESE_OWN,
    }, // Vietnamese
];

/// How badly the letters of `line` fit: the Latin letters beyond ASCII that the one
/// language that has most of them lacks (or has, but not where they stand), plus each capital that stands alone as a word
/// right after a word in small letters ("português Ê às": words of one capital letter
/// start sentences, not follow small letters). 0 for a line of one language.
///
/// ```
/// use hexrune::detect::alphabets::misfits;
/// assert_eq!(misfits("¿Dónde está el niño?"), 0);
/// assert_eq!(misfits("¿Dónde estå el niùo?"), 2);
/// assert_eq!(misfits("A lição de português Ê às três."), 1);
/// assert_eq!(misfits("Šećer i Ĩaj"), 1);
/// ```
pub fn misfits(line: &str) -> usize {
    let chars: Vec<char> = line.chars().collect();
    // Each Latin letter beyond ASCII, small, and whether it ends its word.
    let letters: Vec<(char, bool)> = chars
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.is_ascii() && script(**c) == Some(Script::Latin))
        .filter_map(|(i, c)| {
            let small = c.to_lowercase().next()?;
            let last = !chars.get(i + 1).is_some_and(|n| is_letter(*n));
            (!small.is_ascii()).then_some((small, last))
        })
        .collect();
    let fitting = LANGUAGES
        .iter()
        .filter(|l| l.needs.is_empty() || letters.iter().any(|(c, _)| l.needs.contains(*c)))
        .map(|l| {
            letters
                .iter()
                .filter(|(c, last)| l.letters.contains(*c) && (*last || !l.word_final.contains(*c)))
                .count()
        })
        .max()
        .unwrap_or(0);
    letters.len() - fitting + lone_capitals(&chars)
}

/// The Cyrillic letters of `letters` that the one of Russian, Ukrainian, Belarusian,
/// Bulgarian, Serbian and Macedonian that has most of them lacks (letters of other
/// scripts are ignored): 0 for `ВІДДІЛ` (Ukrainian) or `гуляли`, 1 for `ЩЃ` (`Щ` is not
/// Macedonian, `Ѓ` only Macedonian).
///
/// ```
/// use hexrune::detect::alphabets::cyrillic_misfits;
/// let letters = |s: &str| s.chars().collect::<Vec<char>>();
/// assert_eq!(cyrillic_misfits(&letters("Вчера мы гуляли")), 0);
/// assert_eq!(cyrillic_misfits(&letters("Ђчера мы гуляли")), 1);
/// assert_eq!(cyrillic_misfits(&letters("ЩЃЩЉ")), 2);
/// ```
pub fn cyrillic_misfits(letters: &[char]) -> usize {
    const SERBIAN_LACKS: &str = "щъыьэюяйё";
    const LANGUAGES: [(&str, &str); 6] = [
        // (letters beyond а..я it adds, letters of а..я it lacks)
        ("ё", ""),
        ("іїєґ", "ёъыэ"),
        ("іўё", "ищъ"),
        ("", "ёыэ"),
        ("ђјљњћџ", SERBIAN_LACKS),
        ("ѓѕјљњќџ", SERBIAN_LACKS),
    ];
    let lower: Vec<char> = letters
        .iter()
        .filter(|c| script(**c) == Some(Script::Cyrillic))
        .flat_map(|c| c.to_lowercase())
        .collect();
    LANGUAGES
        .iter()
        .map(|(adds, lacks)| {
            lower
                .iter()
                .filter(|c| {
                    let basic = ('а'..='я').contains(*c);
                    !((basic && !lacks.contains(**c)) || adds.contains(**c))
                })
                .count()
        })
        .min()
        .unwrap_or(0)
}

/// Capitals beyond ASCII that are a word by themselves, after a word in small letters with
/// only spaces between.
fn lone_capitals(chars: &[char]) -> usize {
    (0..chars.len())
        .filter(|&i| {
            let c = chars[i];
            if c.is_ascii() || !is_upper(c) || chars.get(i + 1).is_some_and(|n| is_letter(*n)) {
                return false;
            }
            let before = &chars[..i];
            let spaces = before.iter().rev().take_while(|b| **b == ' ').count();
            spaces > 0
                && before
                    .len()
                    .checked_sub(spaces + 1)
                    .is_some_and(|j| is_lower(before[j]))
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_language_lines_fit() {
        for line in [
            "Le garçon a mangé une crème brûlée à côté de l'hôtel.",
            "Zażółć gęślą jaźń, powiedział nauczyciel.",
            "Příliš žluťoučký kůň úpěl ďábelské ódy.",
            "Şu köşedeki dükkânda çay içtik.",
            "SÃO PAULO É A MAIOR CIDADE DO BRASIL",
            "È vero? Sì, è vero.",
            "Tiếng Việt có nhiều dấu thanh điệu khác nhau.",
            "Москва — столица России",
        ] {
            assert_eq!(misfits(line), 0, "{line}");
        }
    }

    #[test]
    fn mixed_letters_and_lone_capitals_do_not() {
        assert_eq!(misfits("La canción mås bonita del aùo"), 2);
        // Italian writes ù, and ó in dictionaries, but only at a word's end.
        assert_eq!(misfits("El señor Muñoz compró una caña"), 0);
        assert_eq!(misfits("El seùor Muùoz compró una caùa"), 3);
        assert_eq!(
            misfits("Lunedì andrò all'università con Niccolò, più tardi."),
            0
        );
        assert_eq!(misfits("A lição de português Ê às três."), 1);
        assert_eq!(misfits("Šećer i Ĩaj su na stolu"), 1);
    }
}
