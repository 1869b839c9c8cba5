//! Mojibake: UTF-8 text that was decoded as a single-byte legacy encoding and encoded as
//! UTF-8 again, once or several times ("Ã©" for "é", "ÃƒÂ©" for "é" twice, "â€™" for "’").
//!
//! The search is right by construction where it matters: a stretch of text is only called
//! mojibake for encoding E when encoding it back with E gives bytes that are valid UTF-8,
//! made of multi-byte sequences, so the repair is exact and reversible. Whether it *should*
//! be repaired is a judgment ([`super::judge`]), made on three questions:
//!
//! 1. Is every repaired character plausible, and does the repair keep each word in one
//!    script ("JВіzef" becomes "Józef", but "Îşi" must not become "κi")?
//! 2. Is the original odd, as misread bytes are and real words are not: a sign right after
//!    a letter ("Ã©"), a capital inside a lower-case word ("lidÃ©"), a C1 control, box
//!    drawing glued to letters ("├⌐")? Such a stretch is *confident*.
//! 3. For the Cyrillic and Greek code pages, is the original a word of that script with
//!    ordinary casing ("Ні", "Ві")? Then it is the writer's, never repaired.
//!
//! A stretch that passes 1 and 3 but not 2 (a *weak* one, "Ãœ" for "Ü") is repaired only
//! when a confident stretch through the same encoding lies on the same line nearby.
//! Stretches are non-ASCII runs, or the valid parts of one; repairs of one line through the
//! same chain that only ASCII separates are merged into one region.
//!
//! This module knows text, not files: offsets are byte offsets into the `&str` it is given.

use super::judge::{
    is_attached, is_box, is_cp1252_row8_letter, is_letter, is_lower, is_odd_after_letter,
    is_plausible, is_upper, script, Script,
};
use super::table::Legacy;

/// How many times text may have gone through a wrong decoding that is undone.
pub const MAX_CHAIN: usize = 4;

/// How far (bytes) a weak stretch may be from a confident one of the same line.
const WEAK_REACH: usize = 256;

/// How much ASCII (bytes, no line feed) may separate two repairs merged into one region.
const MERGE_GAP: usize = 64;

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

/// A repair candidate inside one non-ASCII run.
#[derive(Clone, Debug)]
struct Piece {
    start: usize,
    end: usize,
    chain: Vec<Legacy>,
    text: String,
    confident: bool,
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
    let mut pieces = Vec::new();
    let mut run_start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), '\0')))
    {
        match (c.is_ascii(), run_start) {
            (false, None) => run_start = Some(i),
            (true, Some(start)) => {
                run_start = None;
                pieces.extend(run_pieces(text, start, i));
            }
            _ => {}
        }
    }
    let accepted: Vec<&Piece> = pieces
        .iter()
        .filter(|p| p.confident || has_confident_neighbour(text, &pieces, p))
        .collect();
    merge(text, &accepted)
}

/// Whether a confident piece with the same outermost encoding is on `weak`'s line within
/// [`WEAK_REACH`] bytes.
fn has_confident_neighbour(text: &str, pieces: &[Piece], weak: &Piece) -> bool {
    pieces.iter().any(|p| {
        if !p.confident || p.chain[0] != weak.chain[0] {
            return false;
        }
        let (a, b) = if p.start < weak.start {
            (p.end, weak.start)
        } else {
            (weak.end, p.start)
        };
        b.saturating_sub(a) <= WEAK_REACH && !text.as_bytes()[a.min(b)..b.max(a)].contains(&b'\n')
    })
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

/// The accepted pieces of the non-ASCII run `text[start..end]`, through the encoding that
/// repairs most of it.
fn run_pieces(text: &str, start: usize, end: usize) -> Vec<Piece> {
    let run: Vec<(usize, char)> = text[start..end]
        .char_indices()
        .map(|(i, c)| (start + i, c))
        .collect();
    if run.len() < 2 {
        return Vec::new();
    }
    let before = text[..start].chars().next_back();
    let after = text[end..].chars().next();
    let mut best: Vec<Piece> = Vec::new();
    let mut best_score = (0usize, 0usize);
    for e in Legacy::ALL {
        let pieces = pieces_through(&run, end, e, before, after);
        let covered: usize = pieces.iter().map(|p| p.end - p.start).sum();
        let confident = pieces.iter().filter(|p| p.confident).count();
        if (covered, confident) > best_score {
            best_score = (covered, confident);
            best = pieces;
        }
    }
    best
}

/// The acceptable pieces of `run` (characters with their offsets; the run ends at `end`)
/// through `e`.
fn pieces_through(
    run: &[(usize, char)],
    end: usize,
    e: Legacy,
    before: Option<char>,
    after: Option<char>,
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
        for chunk in bytes.utf8_chunks() {
            let valid = chunk.valid();
            if valid.len() >= 2 {
                let from = seg_start + at;
                let to = from + valid.len();
                if let Some(piece) = judge_piece(run, end, from, to, e, valid, before, after) {
                    out.push(piece);
                }
            }
            at += valid.len() + chunk.invalid().len();
        }
        i += 1; // the character `e` lacks, or the end
    }
    out
}

/// The piece made of `run[from..to]`, which `e` encodes to `fixed`, if it is acceptable.
#[allow(clippy::too_many_arguments)]
fn judge_piece(
    run: &[(usize, char)],
    end: usize,
    from: usize,
    to: usize,
    e: Legacy,
    fixed: &str,
    before: Option<char>,
    after: Option<char>,
) -> Option<Piece> {
    let original: Vec<char> = run[from..to].iter().map(|(_, c)| *c).collect();
    let prev = if from == 0 {
        before
    } else {
        Some(run[from - 1].1)
    };
    let next = if to == run.len() {
        after
    } else {
        Some(run[to].1)
    };
    if !repair_is_plausible(fixed, prev, next) || is_genuine_word(&original, e, prev, next) {
        return None;
    }
    let mut chain = vec![e];
    let mut text = fixed.to_string();
    let mut confident = oddness(&original, prev) > 0;
    // Undo further wrong decodings while the text keeps looking misread.
    while chain.len() < MAX_CHAIN {
        let chars: Vec<char> = text.chars().collect();
        if chars.len() < 2 || oddness(&chars, prev) == 0 {
            break;
        }
        let deeper = Legacy::ALL.into_iter().find_map(|e2| {
            let bytes = e2.encode(&text)?;
            let again = String::from_utf8(bytes).ok()?;
            let ok = again.chars().count() < chars.len()
                && repair_is_plausible(&again, prev, next)
                && !is_genuine_word(&chars, e2, prev, next);
            ok.then_some((e2, again))
        });
        match deeper {
            Some((e2, again)) => {
                chain.push(e2);
                text = again;
                confident = true;
            }
            None => break,
        }
    }
    chain.reverse();
    let start = run[from].0;
    let stop = if to == run.len() { end } else { run[to].0 };
    Some(Piece {
        start,
        end: stop,
        chain,
        text,
        confident,
    })
}

/// Question 1: every character plausible, none attached to a character before the
/// repair, and one script per word with the letters around it.
fn repair_is_plausible(fixed: &str, prev: Option<char>, next: Option<char>) -> bool {
    let mut chars = fixed.chars();
    if chars.clone().next().is_none_or(is_attached) {
        return false;
    }
    if !chars.all(is_plausible) {
        return false;
    }
    let mut seen: Option<Script> = None;
    let around = prev.into_iter().chain(fixed.chars()).chain(next);
    for s in around.filter_map(script) {
        if s == Script::Free {
            continue;
        }
        match seen {
            Some(t) if t != s => return false,
            _ => seen = Some(s),
        }
    }
    true
}

/// Question 3: `original` (with the letters around it) is a word of `e`'s own non-Latin
/// script, in ordinary casing.
fn is_genuine_word(original: &[char], e: Legacy, prev: Option<char>, next: Option<char>) -> bool {
    let native = match e {
        Legacy::Windows1251 => Script::Cyrillic,
        Legacy::Windows1253 | Legacy::Ibm437 => Script::Greek,
        _ => return false,
    };
    let letters_of = |c: &char| *c == '’' || *c == '\'' || script(*c) == Some(native);
    if !original.iter().all(letters_of) {
        return false;
    }
    let word: Vec<char> = prev
        .filter(letters_of)
        .into_iter()
        .chain(original.iter().copied())
        .chain(next.filter(letters_of))
        .filter(|c| is_letter(*c))
        .collect();
    // No lower-case letter followed by a capital.
    !word.windows(2).any(|w| is_lower(w[0]) && is_upper(w[1]))
}

/// Question 2: how odd `chars` (after `prev`) look as text; 0 for text that looks written.
fn oddness(chars: &[char], prev: Option<char>) -> u32 {
    let mut odd = 0;
    let seq: Vec<char> = prev.into_iter().chain(chars.iter().copied()).collect();
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
        if !x.is_ascii() && is_letter(x) && is_cp1252_row8_letter(y) {
            odd += 1;
        }
        if is_box(x) != is_box(y) && !x.is_whitespace() && !y.is_whitespace() && !x.is_ascii() {
            odd += 1;
        }
        if matches!(
            x,
            '√' | '∂' | '∆' | '∑' | '∏' | '∫' | '≈' | '≠' | '≤' | '≥' | '÷' | '◊'
        ) {
            odd += 1;
        }
    }
    odd
}

#[cfg(test)]
mod tests {
    use super::*;

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
        ] {
            assert_eq!(find(text), [], "{text:?}");
        }
    }
}
