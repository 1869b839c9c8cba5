//! The legacy guess: which of the web's legacy encodings a region that UTF-8 does not
//! explain is in, and which of its bytes that encoding does not explain.
//!
//! chardetng guesses first, but it drops an encoding at its first malformed sequence, so
//! that one bad spot (the last character cut short, a stray byte, a character outside the
//! WHATWG table such as Shift_JIS's missing `鷗`) turns Japanese or Chinese into a
//! single-byte encoding that gives no text. hexrune's own rule, [`guess`], gives such a
//! reading its chance back: an encoding whose reading has a few bad spots
//! ([`within_bound`]) is named where chardetng, fed the bytes with its malformed
//! sequences left out, names it over the guess that held before, which is fed the same
//! bytes ([`duel`]). Which reading is likelier is chardetng's judgment, not hexrune's; what
//! hexrune adds is the bound, so that bytes with many malformed sequences (binary data,
//! text in another encoding) never qualify.
//!
//! [`one_script_words`] is the other half: a short input whose UTF-8 reading is a few
//! accidental characters among errors, and whose legacy reading is words of one script.
//!
//! This module reads bytes only; [`super`] decides which regions are asked.

use std::ops::Range;

use encoding_rs::{DecoderResult, Encoding};
use unicode_script::{Script as Name, UnicodeScript};

use super::{judge, GUESS_BYTES, WEAK_GUESS_BYTES};

/// Bad spots allowed: one per this many non-ASCII characters that the reading decodes
/// cleanly, rounded up (so one in a short line cut short). The CPython test texts in JIS X
/// 0213 (9 characters outside the WHATWG tables among 337) are about as dense as that
/// gets.
pub const CHARS_PER_SPOT: usize = 32;

/// Malformed sequences closer than this many bytes are one bad spot: a stray byte inside
/// a two-byte character leaves its first byte malformed and may make the next pair
/// malformed too, before the reading is back in step.
pub const SPOT_GAP: usize = 8;

/// The encodings chardetng names, which a guess may come back to: the multi-byte ones
/// first, then the single-byte ones that leave bytes undefined (`FF` in windows-1253);
/// those that define every byte have no malformed sequence and were weighed by chardetng
/// already.
const CANDIDATES: [&Encoding; 14] = [
    encoding_rs::SHIFT_JIS,
    encoding_rs::EUC_JP,
    encoding_rs::EUC_KR,
    encoding_rs::GBK,
    encoding_rs::BIG5,
    encoding_rs::WINDOWS_1253,
    encoding_rs::ISO_8859_7,
    encoding_rs::WINDOWS_1255,
    encoding_rs::ISO_8859_8,
    encoding_rs::WINDOWS_1257,
    encoding_rs::WINDOWS_874,
    encoding_rs::ISO_8859_6,
    encoding_rs::ISO_8859_4,
    encoding_rs::ISO_8859_13,
];

/// The malformed sequences of a reading (offsets in the bytes read).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Malformed {
    /// How many.
    pub count: usize,
    /// The first one.
    pub first: Option<Range<usize>>,
}

/// A guess for a region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guess {
    /// The encoding, as encoding_rs names it.
    pub encoding: &'static str,
    /// The malformed sequences of its reading, where they are within [`within_bound`] (a
    /// guess of chardetng's beyond it is given without them, as chardetng gives it).
    pub malformed: Malformed,
}

/// chardetng's guess for `bytes` (their first [`GUESS_BYTES`]), or an encoding whose
/// reading has a few bad spots ([`within_bound`]) and that chardetng names over it once
/// the malformed sequences are left out ([`duel`]); the candidates ([`CANDIDATES`]) are
/// tried in order, each against the one that held before. chardetng's guess may have a
/// few malformed sequences itself (it passes over pairs its tables leave undefined).
///
/// ```
/// use hexrune::detect::legacy::guess;
/// // "我忘记密码了。" in GBK, cut inside its last character.
/// let cut = b"\xCE\xD2\xCD\xFC\xBC\xC7\xC3\xDC\xC2\xEB\xC1\xCB\xA1";
/// let g = guess(cut);
/// assert_eq!((g.encoding, g.malformed.count, g.malformed.first), ("GBK", 1, Some(12..13)));
/// ```
pub fn guess(bytes: &[u8]) -> Guess {
    let fed = &bytes[..bytes.len().min(GUESS_BYTES)];
    let last = fed.len() == bytes.len();
    let plain = chardetng_guess(fed, last);
    let mut held = Reading::of(plain, fed, last).filter(Reading::within_bound);
    for encoding in CANDIDATES.into_iter().filter(|e| *e != plain) {
        // Without malformed sequences chardetng weighed it already.
        let Some(reading) = Reading::of(encoding, fed, last)
            .filter(|r| !r.spans.is_empty() && r.within_bound())
            .filter(|_| encoding.is_single_byte() || in_long_runs(fed, encoding))
        else {
            continue;
        };
        let wins = match &held {
            // A single-byte reading of every byte that gives words holds against any
            // reading with a malformed sequence: on a few bytes (a word of Greek read as
            // GBK) chardetng may well prefer the other.
            Some(holder) if holder.spans.is_empty() && holder.encoding.is_single_byte() => {
                !gives_words(fed, holder.encoding) && duel(fed, holder, &reading, last) == encoding
            }
            Some(holder) => duel(fed, holder, &reading, last) == encoding,
            None => chardetng_guess(&left_out(fed, &reading.spans), last) == encoding,
        };
        if wins {
            held = Some(reading);
        }
    }
    match held {
        Some(r) => Guess {
            encoding: r.encoding.name(),
            malformed: Malformed {
                count: r.spans.len(),
                first: r.spans.first().cloned(),
            },
        },
        None => Guess {
            encoding: plain.name(),
            malformed: Malformed::default(),
        },
    }
}

/// Which of the readings `a` and `b` of `bytes` chardetng names, fed `bytes` without the
/// malformed sequences of either, where both read the rest cleanly (chardetng weighs only
/// readings without one); `a` holds where it names neither, or where leaving out the
/// malformed sequences of one breaks a character of the other (a byte undefined in
/// windows-874 is half of a character in EUC-JP).
fn duel(bytes: &[u8], a: &Reading, b: &Reading, last: bool) -> &'static Encoding {
    let rest = left_out(bytes, &union(&a.spans, &b.spans));
    let clean =
        |e: &'static Encoding| Reading::of(e, &rest, last).is_some_and(|r| r.spans.is_empty());
    if clean(a.encoding) && clean(b.encoding) && chardetng_guess(&rest, last) == b.encoding {
        return b.encoding;
    }
    a.encoding
}

/// Whether `bytes` read as `encoding` (a multi-byte one) put at least half of their
/// non-ASCII characters in runs of three or more, as text in Japanese, Chinese or Korean
/// does; Latin text read so gives one character for each accented letter, glued to the
/// ASCII letters around it (`caff` and a Han character).
fn in_long_runs(bytes: &[u8], encoding: &'static Encoding) -> bool {
    let (text, _) = encoding.decode_without_bom_handling(bytes);
    let (mut all, mut long, mut run) = (0usize, 0usize, 0usize);
    for c in text.chars().chain(std::iter::once('\n')) {
        if c.is_ascii() {
            if run >= 3 {
                long += run;
            }
            all += run;
            run = 0;
        } else {
            run += 1;
        }
    }
    long * 2 >= all
}

/// chardetng's guess (never UTF-8) for `bytes`, which end the input if `last`.
fn chardetng_guess(bytes: &[u8], last: bool) -> &'static Encoding {
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
    detector.feed(bytes, last);
    detector.guess(None, chardetng::Utf8Detection::Deny)
}

/// `bytes` without the byte ranges `spans` (in order, not overlapping).
fn left_out(bytes: &[u8], spans: &[Range<usize>]) -> Vec<u8> {
    let mut rest = Vec::with_capacity(bytes.len());
    let mut at = 0;
    for span in spans {
        rest.extend_from_slice(&bytes[at..span.start]);
        at = span.end;
    }
    rest.extend_from_slice(&bytes[at..]);
    rest
}

/// The byte ranges of `a` and `b` (each in order, not overlapping) together, in order, with
/// those that overlap or touch joined.
fn union(a: &[Range<usize>], b: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut all: Vec<Range<usize>> = a.iter().chain(b).cloned().collect();
    all.sort_by_key(|r| r.start);
    let mut out: Vec<Range<usize>> = Vec::with_capacity(all.len());
    for r in all {
        match out.last_mut() {
            Some(prev) if r.start <= prev.end => prev.end = prev.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

/// Bytes read as one encoding: its malformed sequences and what it read cleanly.
struct Reading {
    encoding: &'static Encoding,
    /// The malformed sequences, in order.
    spans: Vec<Range<usize>>,
    /// Non-ASCII characters read cleanly.
    chars: usize,
    /// The bytes of the non-ASCII characters read cleanly.
    clean_bytes: usize,
}

impl Reading {
    /// `bytes` read as `encoding` (a sequence cut by their end is malformed only if
    /// `last`); `None` as soon as there are more bad spots than [`within_bound`] could
    /// allow for so many bytes.
    fn of(encoding: &'static Encoding, bytes: &[u8], last: bool) -> Option<Reading> {
        // A non-ASCII character takes a byte at least.
        let most = bytes.len().div_ceil(CHARS_PER_SPOT);
        let mut decoder = encoding.new_decoder_without_bom_handling();
        let mut out = [0u8; 16 << 10];
        let (mut pos, mut spans, mut chars, mut ascii) = (0, Vec::new(), 0, 0);
        let mut spots = 0;
        loop {
            let (result, read, written) =
                decoder.decode_to_utf8_without_replacement(&bytes[pos..], &mut out, last);
            pos += read;
            // Each non-ASCII character has one lead byte in UTF-8.
            chars += out[..written].iter().filter(|b| **b >= 0xC0).count();
            ascii += out[..written].iter().filter(|b| b.is_ascii()).count();
            match result {
                DecoderResult::InputEmpty => break,
                DecoderResult::OutputFull => {}
                DecoderResult::Malformed(bad, after) => {
                    let end = pos - usize::from(after);
                    let start = end.saturating_sub(usize::from(bad));
                    if spans
                        .last()
                        .is_none_or(|l: &Range<usize>| start >= l.end + SPOT_GAP)
                    {
                        spots += 1;
                        if spots > most {
                            return None;
                        }
                    }
                    spans.push(start..end);
                }
            }
        }
        // The bytes of non-ASCII characters: all but the malformed ones and those read as
        // ASCII (the second byte of a character of Shift_JIS, GBK or Big5 may be ASCII).
        let bad: usize = spans.iter().map(|s| s.len()).sum();
        Some(Reading {
            encoding,
            spans,
            chars,
            clean_bytes: bytes.len().saturating_sub(bad + ascii),
        })
    }

    fn within_bound(&self) -> bool {
        within_bound(
            spots(&self.spans),
            self.spans.len(),
            self.chars,
            self.clean_bytes,
        )
    }
}

/// The bad spots of the malformed sequences `spans` (in order): sequences less than
/// [`SPOT_GAP`] bytes apart are one.
fn spots(spans: &[Range<usize>]) -> usize {
    let apart = spans
        .windows(2)
        .filter(|w| w[1].start >= w[0].end + SPOT_GAP)
        .count();
    apart + usize::from(!spans.is_empty())
}

/// Whether `malformed` sequences in `spots` bad spots are few enough beside `chars`
/// non-ASCII characters read cleanly from `clean_bytes` bytes: at most one spot
/// per [`CHARS_PER_SPOT`] characters (rounded up), and at least [`WEAK_GUESS_BYTES`] bytes
/// read cleanly per malformed sequence (fewer make a weak guess even without one).
///
/// ```
/// use hexrune::detect::legacy::within_bound;
/// assert!(within_bound(0, 0, 0, 0));
/// assert!(within_bound(1, 1, 6, 12)); // a line of six Han characters, cut in the seventh
/// assert!(!within_bound(1, 1, 3, 6)); // three characters are no evidence
/// assert!(!within_bound(1, 5, 7, 14)); // nor are seven among five malformed sequences
/// assert!(within_bound(9, 9, 337, 674));
/// assert!(!within_bound(12, 12, 337, 674));
/// ```
pub fn within_bound(spots: usize, malformed: usize, chars: usize, clean_bytes: usize) -> bool {
    spots <= chars.div_ceil(CHARS_PER_SPOT) && clean_bytes >= malformed * WEAK_GUESS_BYTES
}

/// Whether `bytes` read as `encoding` (a single-byte one) give words: of the words with a
/// non-ASCII character (cut at spaces, with punctuation and symbols at their edges left
/// off), at least nine in ten are letters (and combining marks, apostrophes, hyphens) of
/// one script, all small, all capitals, or a capital and small ones. Japanese or Chinese
/// read so gives capitals inside words and signs between letters (`ÎÒÍü¼ÇÃÜÂëÁË`), Greek
/// read as KOI8-U capitals and small letters mixed (`ЙАКОЙАъЯИ`).
///
/// ```
/// use hexrune::detect::legacy::gives_words;
/// let greek = b"\xC8\xE5\xF3\xF3\xE1\xEB\xEF\xED\xDF\xEA\xE7\n"; // Θεσσαλονίκη
/// assert!(gives_words(greek, encoding_rs::WINDOWS_1253));
/// assert!(!gives_words(greek, encoding_rs::KOI8_U));
/// ```
pub fn gives_words(bytes: &[u8], encoding: &'static Encoding) -> bool {
    let (text, _) = encoding.decode_without_bom_handling(&bytes[..bytes.len().min(GUESS_BYTES)]);
    let (mut words, mut good) = (0usize, 0usize);
    for word in text.split(|c: char| c.is_whitespace()) {
        let word = word.trim_matches(|c: char| !(judge::is_letter(c) || c.is_ascii_digit()));
        if word.is_ascii() {
            continue;
        }
        words += 1;
        good += usize::from(is_word(word));
    }
    words > 0 && good * 10 >= words * 9
}

/// Whether `word` is letters (and combining marks, apostrophes, hyphens) of one script
/// with the case of a word: all small, all capitals, or a capital and small ones.
fn is_word(word: &str) -> bool {
    let mut script = None;
    let (mut upper, mut lower, mut first_upper) = (0, 0, false);
    for (i, c) in word.chars().enumerate() {
        if matches!(c, '\'' | '’' | '-') || judge::is_attached(c) {
            continue;
        }
        if !judge::is_letter(c) {
            return false;
        }
        let s = judge::script(c);
        if *script.get_or_insert(s) != s {
            return false;
        }
        if judge::is_upper(c) {
            upper += 1;
            first_upper |= i == 0;
        } else if judge::is_lower(c) {
            lower += 1;
        }
    }
    upper == 0 || lower == 0 || (upper == 1 && first_upper)
}

/// Whether `bytes` read as `label` are words of one script: no malformed sequence, at
/// least two letters, every letter of one script that is not Latin (so no ASCII letter;
/// kana and Han count as one, as do Hangul and Han), and outside ASCII besides letters
/// only combining marks (Thai vowels) and CJK punctuation. UTF-8 read as a legacy encoding
/// gives signs and letters of several scripts (`Ã©`, `РїСЂ`, `ðŸ`).
///
/// ```
/// use hexrune::detect::legacy::one_script_words;
/// assert!(one_script_words(b"\xB4\xEB\xB1\xB8\n", "EUC-KR")); // 대구
/// assert!(!one_script_words("caf\u{e9}\n".as_bytes(), "windows-1252")); // cafÃ©
/// ```
pub fn one_script_words(bytes: &[u8], label: &str) -> bool {
    let Some(encoding) = Encoding::for_label(label.as_bytes()) else {
        return false;
    };
    let Some(text) = encoding.decode_without_bom_handling_and_without_replacement(bytes) else {
        return false;
    };
    // An ASCII letter is Latin: the script of the words around bytes misread.
    if text.chars().any(|c| c.is_ascii_alphabetic()) {
        return false;
    }
    let mut group = None;
    let mut letters = 0;
    for c in text.chars().filter(|c| !c.is_ascii()) {
        if judge::is_letter(c) {
            let Some(g) = writing_system(c) else {
                return false;
            };
            if *group.get_or_insert(g) != g {
                return false;
            }
            letters += 1;
        } else if !(judge::is_attached(c) || cjk_punctuation(c)) || !judge::is_plausible(c) {
            return false;
        }
    }
    letters >= 2
}

/// encoding_rs's name of Shift_JIS.
pub const SHIFT_JIS: &str = "Shift_JIS";

/// Whether `bytes` read as Shift_JIS are Japanese: words of one script
/// ([`one_script_words`]) with at least one kana of the full-width blocks and no half-width
/// katakana. GBK, Big5 or EUC-KR read as Shift_JIS puts half-width katakana where their
/// lead bytes `A1` to `DF` stand, and gives no hiragana.
///
/// ```
/// use hexrune::detect::legacy::japanese_in_shift_jis;
/// // 今日はとても良い天気ですね。 in Shift_JIS.
/// let bytes = b"\x8D\xA1\x93\xFA\x82\xCD\x82\xC6\x82\xC4\x82\xE0\x97\xC7\x82\xA2\
///     \x93\x56\x8B\x43\x82\xC5\x82\xB7\x82\xCB\x81\x42\n";
/// assert!(japanese_in_shift_jis(bytes));
/// // 我们明天去北京 in GBK.
/// assert!(!japanese_in_shift_jis(b"\xCE\xD2\xC3\xC7\xC3\xF7\xCC\xEC\xC8\xA5\xB1\xB1\xBE\xA9\n"));
/// ```
pub fn japanese_in_shift_jis(bytes: &[u8]) -> bool {
    let Some(text) =
        encoding_rs::SHIFT_JIS.decode_without_bom_handling_and_without_replacement(bytes)
    else {
        return false;
    };
    let kana = text.chars().any(|c| ('\u{3041}'..='\u{30FF}').contains(&c));
    let half_width = text.chars().any(|c| ('\u{FF61}'..='\u{FF9F}').contains(&c));
    kana && !half_width && one_script_words(bytes, SHIFT_JIS)
}

/// The writing systems [`one_script_words`] tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum System {
    /// Han, with kana or Hangul beside it as Japanese and Korean write.
    Cjk,
    /// One alphabet or abugida (Greek, Cyrillic, Thai, Hebrew, Arabic ...).
    Other(Name),
}

/// The writing system of the letter `c`; `None` for a Latin letter, which text in a
/// Latin-script legacy encoding and UTF-8 read as one both give, or one not plausible in
/// text ([`judge::is_plausible`]).
fn writing_system(c: char) -> Option<System> {
    if !judge::is_plausible(c) {
        return None;
    }
    // The prolonged sound mark ー and the iteration marks are Common letters of kana text.
    if matches!(c as u32, 0x3000..=0x30FF | 0xFF66..=0xFF9F) {
        return Some(System::Cjk);
    }
    match c.script() {
        Name::Latin | Name::Common | Name::Inherited | Name::Unknown => None,
        Name::Han | Name::Hiragana | Name::Katakana | Name::Hangul | Name::Bopomofo => {
            Some(System::Cjk)
        }
        other => Some(System::Other(other)),
    }
}

/// Whether `c` is CJK punctuation or a full-width form (`。`, `、`, `「`, `！`).
pub(super) fn cjk_punctuation(c: char) -> bool {
    matches!(c as u32, 0x3000..=0x303F | 0xFF01..=0xFF65 | 0x30FB..=0x30FC)
}
