//! ISO-8859-15 (Latin-9) behind a windows-1252 guess: chardetng does not know Latin-9, and
//! reads it as windows-1252, which agrees with it on every byte but eight. Latin-9 puts the
//! euro sign and the letters Latin-1 lacked where Latin-1 (and so windows-1252) has signs:
//!
//! | byte | windows-1252 | ISO-8859-15 |
//! |---|---|---|
//! | A4 | ¤ | € |
//! | A6 | ¦ | Š |
//! | A8 | ¨ | š |
//! | B4 | ´ | Ž |
//! | B8 | ¸ | ž |
//! | BC | ¼ | Œ |
//! | BD | ½ | œ |
//! | BE | ¾ | Ÿ |
//!
//! [`tells`] finds the bytes that stand where the Latin-9 reading gives what text writes
//! and windows-1252's does not: A4 beside a number (a price, `12,50 ¤`), a small letter's
//! byte inside a word or at its start (`C½ur`), a capital's byte at a word's start
//! (`¦árka`: a capital inside a word is no text, and `it´s` is windows-1252's acute used
//! as an apostrophe). They make a doubt, not a verdict: the two readings agree on every
//! other byte, and only a reader knows whether `¼` was meant.
//!
//! This module reads bytes only; [`super`] says the doubt.

use super::{counted, judge};

/// The Latin-9 reading of each byte where it differs from windows-1252's.
const LATIN9: [(u8, char); 8] = [
    (0xA4, '€'),
    (0xA6, 'Š'),
    (0xA8, 'š'),
    (0xB4, 'Ž'),
    (0xB8, 'ž'),
    (0xBC, 'Œ'),
    (0xBD, 'œ'),
    (0xBE, 'Ÿ'),
];

/// What [`tells`] found: how many bytes, the offset of the first, and the bytes (each
/// once, in the order of [`LATIN9`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tells {
    /// Bytes read so.
    pub count: usize,
    /// The offset of the first, in the bytes asked.
    pub first: usize,
    /// The distinct bytes.
    pub bytes: Vec<u8>,
}

/// The bytes of `bytes` (read as windows-1252) that ISO-8859-15 reads as the euro sign
/// beside a number or as a letter where words put it; `None` where there is none.
///
/// ```
/// use hexrune::detect::latin9::tells;
/// // "Cœur, 12,50 €" in ISO-8859-15.
/// let found = tells(b"C\xBDur, 12,50 \xA4").unwrap();
/// assert_eq!((found.count, found.first, found.bytes), (2, 1, vec![0xA4, 0xBD]));
/// // "½ Liter", "it´s" and "¤" alone are windows-1252's signs.
/// assert_eq!(tells(b"\xBD Liter, it\xB4s, \xA4"), None);
/// ```
pub fn tells(bytes: &[u8]) -> Option<Tells> {
    let text = encoding_rs::WINDOWS_1252
        .decode_without_bom_handling(bytes)
        .0;
    // One character per byte: windows-1252 maps every byte.
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != bytes.len() {
        return None;
    }
    let at = |i: Option<usize>| i.and_then(|i| chars.get(i).copied());
    let digit = |i: Option<usize>| at(i).is_some_and(|c| c.is_ascii_digit());
    let letter = |i: Option<usize>| at(i).is_some_and(judge::is_letter);
    let (mut count, mut first, mut seen) = (0usize, None, Vec::new());
    for (i, &b) in bytes.iter().enumerate() {
        let Some(&(_, latin9)) = LATIN9.iter().find(|(x, _)| *x == b) else {
            continue;
        };
        let before = i.checked_sub(1);
        let told = if b == 0xA4 {
            // `12,50 €`, `€5`, `€ 5`.
            let space = |j: Option<usize>| at(j) == Some(' ');
            digit(before)
                || digit(Some(i + 1))
                || (space(before) && digit(before.and_then(|j| j.checked_sub(1))))
                || (space(Some(i + 1)) && digit(Some(i + 2)))
        } else {
            // A word goes on after it; a capital starts the word, a small letter may also
            // stand inside it.
            letter(Some(i + 1)) && (judge::is_lower(latin9) || !letter(before)) && !digit(before)
        };
        if told {
            count += 1;
            first.get_or_insert(i);
            if !seen.contains(&b) {
                seen.push(b);
            }
        }
    }
    let bytes = LATIN9
        .iter()
        .map(|(b, _)| *b)
        .filter(|b| seen.contains(b))
        .collect();
    first.map(|first| Tells {
        count,
        first,
        bytes,
    })
}

/// The doubt on a windows-1252 guess with such bytes (`offset` is where the bytes asked
/// start): `8 bytes read as ISO-8859-15 (Latin-9, which chardetng does not know) give the
/// euro sign beside a number or letters in words where windows-1252 gives signs (the first
/// at 22: A4 € not ¤, ...); if it is ISO-8859-15, give --from iso-8859-15`.
pub fn doubt(found: &Tells, offset: usize) -> String {
    let pairs: Vec<String> = found
        .bytes
        .iter()
        .filter_map(|b| {
            let (_, latin9) = LATIN9.iter().find(|(x, _)| x == b)?;
            let w1252 = encoding_rs::WINDOWS_1252
                .decode_without_bom_handling(&[*b])
                .0
                .chars()
                .next()?;
            Some(format!("{b:02X} {latin9} not {w1252}"))
        })
        .collect();
    format!(
        "{} read as ISO-8859-15 (Latin-9, which chardetng does not know) {} the euro sign beside a number or letters in words where windows-1252 gives signs (the first at {}: {}); if it is ISO-8859-15, give --from iso-8859-15",
        counted(found.count as u64, "byte", "bytes"),
        if found.count == 1 { "gives" } else { "give" },
        offset + found.first,
        pairs.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin9_text_tells() {
        let (bytes, _, _) = encoding_rs::ISO_8859_15.encode("Šárka Žáková, Cœur, 7 €, €5");
        let found = tells(&bytes).unwrap();
        assert_eq!(found.count, 5);
        assert_eq!(found.first, 0);
        assert_eq!(found.bytes, vec![0xA4, 0xA6, 0xB4, 0xBD]);
    }

    #[test]
    fn windows_1252_signs_do_not() {
        for text in [
            "½ Liter, ¼ inch, 3¾ miles",
            "it´s Peter´s, a ¸ b",
            "the sign ¤ alone, ¦ a bar",
            "Ärger über Größe, naïve café",
        ] {
            let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode(text);
            assert_eq!(tells(&bytes), None, "{text}");
        }
    }
}
