//! UTF-16 and UTF-32: guessed without a byte order mark from where the zero bytes are, and
//! checked by decoding.
//!
//! Text in a Latin script as UTF-16 has a zero in every other byte: at odd offsets for
//! little-endian, at even ones for big-endian. UTF-32 has three zeros out of four (two for
//! characters above U+FFFF). The guess needs [`MIN_BYTES`] bytes and a clear pattern, and
//! the units it gives must read as text ([`text_by_pattern`]): a table of integers has
//! the pattern too.
//!
//! Text in other scripts has few zero bytes (Cyrillic, Greek and CJK letters fill both bytes
//! of their unit), so an input whose zero bytes show no pattern is also decoded
//! ([`read_as_text`]): it is UTF-16 or UTF-32 where the decoding gives text, judged by the
//! characters alone (letters of few scripts, spaces or line ends, nothing unassigned,
//! private, unpaired or a control). UTF-16 with no zero byte at all has no space either: it
//! is decoded only where the high bytes of its units are controls
//! ([`read_unspaced_as_text`]), or where the low bytes are, as in a paragraph of Chinese,
//! Japanese or Korean on one line ([`read_cjk_as_text`]).

use unicode_general_category::{get_general_category, GeneralCategory as Gc};
use unicode_script::{Script, UnicodeScript};

/// A wide encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wide {
    /// UTF-16, little-endian.
    Utf16Le,
    /// UTF-16, big-endian.
    Utf16Be,
    /// UTF-32, little-endian.
    Utf32Le,
    /// UTF-32, big-endian.
    Utf32Be,
}

/// The fewest bytes a guess is made on.
pub const MIN_BYTES: usize = 16;

impl Wide {
    /// The name, as the JSON records give it.
    pub fn name(self) -> &'static str {
        match self {
            Wide::Utf16Le => "UTF-16LE",
            Wide::Utf16Be => "UTF-16BE",
            Wide::Utf32Le => "UTF-32LE",
            Wide::Utf32Be => "UTF-32BE",
        }
    }

    /// Bytes per code unit.
    pub fn unit(self) -> usize {
        match self {
            Wide::Utf16Le | Wide::Utf16Be => 2,
            Wide::Utf32Le | Wide::Utf32Be => 4,
        }
    }

    /// The code units of `bytes` (a trailing partial unit is left out).
    fn units(self, bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
        bytes.chunks_exact(self.unit()).map(move |u| match self {
            Wide::Utf16Le => u32::from(u16::from_le_bytes([u[0], u[1]])),
            Wide::Utf16Be => u32::from(u16::from_be_bytes([u[0], u[1]])),
            Wide::Utf32Le => u32::from_le_bytes([u[0], u[1], u[2], u[3]]),
            Wide::Utf32Be => u32::from_be_bytes([u[0], u[1], u[2], u[3]]),
        })
    }
}

/// The wide encoding that the zero bytes of `sample` (which starts at an offset divisible
/// by 4) show, if the pattern is clear: at least [`MIN_BYTES`] bytes, and zeros in at least
/// 90% of the positions the encoding puts them (UTF-32: the top byte, and the next one in
/// 60%; UTF-16: the high byte in 40% of the units) and in at most 5% of the others.
///
/// ```
/// use hexrune::detect::wide::{guess, Wide};
/// let le: Vec<u8> = "plain text, sixteen bytes or more".encode_utf16().flat_map(u16::to_le_bytes).collect();
/// assert_eq!(guess(&le), Some(Wide::Utf16Le));
/// assert_eq!(guess(b"plain text, sixteen bytes or more"), None);
/// ```
pub fn guess(sample: &[u8]) -> Option<Wide> {
    if sample.len() < MIN_BYTES {
        return None;
    }
    let mut zeros = [0usize; 4];
    let mut seen = [0usize; 4];
    for (i, b) in sample.iter().enumerate() {
        seen[i % 4] += 1;
        zeros[i % 4] += usize::from(*b == 0);
    }
    let share = |i: usize| zeros[i] as f64 / seen[i].max(1) as f64;
    if share(3) >= 0.9 && share(2) >= 0.6 && share(0) <= 0.05 {
        return Some(Wide::Utf32Le);
    }
    if share(0) >= 0.9 && share(1) >= 0.6 && share(3) <= 0.05 {
        return Some(Wide::Utf32Be);
    }
    let odd = (share(1) + share(3)) / 2.0;
    let even = (share(0) + share(2)) / 2.0;
    if odd >= 0.4 && even <= 0.05 {
        return Some(Wide::Utf16Le);
    }
    if even >= 0.4 && odd <= 0.05 {
        return Some(Wide::Utf16Be);
    }
    None
}

/// What a decoding of a sample as a wide encoding gives, counted by the kind of character
/// ([`reading`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    /// Characters decoded (a surrogate pair is one).
    pub chars: usize,
    /// Letters and combining marks.
    pub letters: usize,
    /// Tab, line feed, carriage return, form feed, space, no-break space, ideographic
    /// space U+3000, U+2028, U+2029.
    pub spaces: usize,
    /// What no text holds: controls other than the spaces above (NUL included),
    /// unassigned code points, private use, noncharacters, unpaired surrogates, values
    /// above U+10FFFF, format characters other than text's own (U+00AD, U+200B..U+200F,
    /// U+FEFF, the tags of emoji flags).
    pub odd: usize,
    /// NUL characters (U+0000), also counted in `odd`.
    pub nuls: usize,
    /// Letters by group of scripts, most first: Han, kana and Bopomofo are one group,
    /// [`HAN_GROUP`] (they write one language together); every other script is its own.
    pub scripts: Vec<(&'static str, usize)>,
    /// The scripts of [`HAN_GROUP`] seen, in the order Han, Hiragana, Katakana, Bopomofo.
    pub han_scripts: Vec<&'static str>,
    /// Letters in runs (a line, or [`RUN`] characters of a longer one) whose own letters,
    /// nine in ten, are in at most two groups of scripts: a file of translations has
    /// lines in many scripts, each line in one or two.
    pub letters_in_fitting_runs: usize,
}

/// The most characters of one run of [`Reading::letters_in_fitting_runs`]; a line end
/// (line feed, carriage return, U+2028, U+2029) ends one sooner.
pub const RUN: usize = 64;

/// From this many characters on, [`Reading::is_text_by_pattern`] asks for spaces or line
/// ends.
pub const SPACED_FROM: usize = 64;

/// The group of Han, Hiragana, Katakana and Bopomofo in [`Reading::scripts`].
pub const HAN_GROUP: &str = "Han and kana";

/// The scripts of [`HAN_GROUP`], in the order they are named: one group because they
/// write one language together (a Japanese sentence mixes Han, Hiragana and Katakana, and
/// Bopomofo annotates Han). The lints' zero-width space takes them as one group too.
pub const HAN_SCRIPTS: [Script; 4] = [
    Script::Han,
    Script::Hiragana,
    Script::Katakana,
    Script::Bopomofo,
];

impl Reading {
    /// Whether the characters are text: at least 8 of them, odd ones in at most 1 in 200
    /// (none in fewer than 200), at least one space or line end, and letters in few
    /// scripts ([`Reading::scripts_fit`]). The rest are letters, marks, digits,
    /// punctuation and symbols (a list of signs or emoji is text too).
    ///
    /// A text file in any script has spaces or line ends (each a unit with a zero byte in
    /// UTF-16), so bytes without a zero byte (a legacy CJK encoding, which UTF-16BE reads as
    /// Hangul) are never text here; ASCII words read as UTF-16 give Han characters, but
    /// also the format characters and unassigned code points of U+2060..206F at the spaces
    /// after them.
    pub fn is_text(&self) -> bool {
        self.chars >= 8 && self.odd * 200 <= self.chars && self.spaces > 0 && self.scripts_fit()
    }

    /// Whether the letters are in few scripts: nine in ten (if any) in at most two groups
    /// of scripts, or nine in ten in lines (runs of up to [`RUN`] characters) that are so,
    /// as in a file of translations into many languages, a line each. Binary data read as
    /// characters spreads its letters over many scripts in every run.
    pub fn scripts_fit(&self) -> bool {
        let top_two: usize = self.scripts.iter().take(2).map(|(_, n)| n).sum();
        top_two * 10 >= self.letters * 9 || self.letters_in_fitting_runs * 10 >= self.letters * 9
    }

    /// Whether the characters are text, asked of a reading whose zero bytes already show
    /// the encoding's pattern ([`guess`]): odd ones other than NUL (a terminator or a
    /// separator of strings) in at most 1 in 20, letters in few scripts
    /// ([`Reading::scripts_fit`]), and from [`SPACED_FROM`] characters on, a space or line end
    /// in every 1000 (at least one). No least number of characters: the pattern needs
    /// [`MIN_BYTES`] bytes, four characters of UTF-32.
    ///
    /// The pattern alone is also that of a table of numbers (32-bit integers below 2^16
    /// are UTF-32 by their zero bytes); read as characters, those spread over the code
    /// space: unassigned, private use, surrogates, controls and letters of many scripts,
    /// or, in a narrow range, letters of one script without a space.
    pub fn is_text_by_pattern(&self) -> bool {
        let spaced =
            self.chars < SPACED_FROM || (self.spaces > 0 && self.spaces * 1000 >= self.chars);
        (self.odd - self.nuls) * 20 <= self.chars && self.scripts_fit() && spaced
    }

    /// The groups of scripts, most first (the first three), in words, the scripts of
    /// [`HAN_GROUP`] that were seen joined by `+`: `Cyrillic`, `Han+Hiragana+Katakana,
    /// Latin`, `Han`.
    pub fn scripts_named(&self) -> String {
        let names: Vec<String> = self
            .scripts
            .iter()
            .take(3)
            .map(|(s, _)| match *s {
                HAN_GROUP => self.han_scripts.join("+"),
                other => other.to_string(),
            })
            .collect();
        names.join(", ")
    }
}

/// The group of scripts `script` belongs to, for [`Reading::scripts`], named by its first
/// script (Han for [`HAN_GROUP`]); `None` for a character of no one script (a mark, a
/// digit, punctuation).
fn script_group(script: Script) -> Option<Script> {
    match script {
        Script::Common | Script::Inherited | Script::Unknown => None,
        s if HAN_SCRIPTS.contains(&s) => Some(Script::Han),
        s => Some(s),
    }
}

/// The script of `c`, or for a character of no one script (Common or Inherited) whose
/// Script_Extensions are all of one group of [`script_group`], the first of them: the
/// prolonged sound mark ー (U+30FC) and the kana voicing marks are Hiragana and Katakana's,
/// and a Japanese word such as コーヒー is then letters of one group, not three in four.
/// Others (a combining accent, used by many scripts) stay of no script.
fn own_script(c: char) -> Script {
    let script = c.script();
    if !matches!(script, Script::Common | Script::Inherited) {
        return script;
    }
    let ext = c.script_extension();
    if ext.is_common() || ext.is_inherited() || ext.is_empty() {
        return script;
    }
    let mut scripts = ext.iter();
    let Some(first) = scripts.next() else {
        return script;
    };
    let group = script_group(first);
    match group.is_some() && scripts.all(|s| script_group(s) == group) {
        true => first,
        false => script,
    }
}

/// The name of a group of [`script_group`], as [`Reading::scripts`] gives it.
fn group_name(group: Script) -> &'static str {
    match group {
        Script::Han => HAN_GROUP,
        s => s.full_name(),
    }
}

/// The characters of `sample` (which starts at the start of a code unit) decoded as
/// `wide`, counted by kind. A surrogate cut by the end of the sample is not counted.
pub fn reading(wide: Wide, sample: &[u8]) -> Reading {
    let mut out = Reading::default();
    // Counted by script, each looked up once a letter; named at the end.
    let mut scripts: Vec<(Script, usize)> = Vec::new();
    let mut han_seen: Vec<Script> = Vec::new();
    let mut run = Run::default();
    let units: Vec<u32> = wide.units(sample).collect();
    let mut i = 0;
    while i < units.len() {
        if run.chars == RUN {
            out.letters_in_fitting_runs += run.fitting_letters();
        }
        let v = units[i];
        i += 1;
        let value = match v {
            0xD800..=0xDBFF if wide.unit() == 2 => match units.get(i) {
                Some(low @ 0xDC00..=0xDFFF) => {
                    i += 1;
                    Some(0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00))
                }
                None => break,
                Some(_) => None,
            },
            _ => Some(v),
        };
        out.chars += 1;
        run.chars += 1;
        let Some(c) = value.and_then(char::from_u32) else {
            out.odd += 1;
            continue;
        };
        if matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}') {
            out.letters_in_fitting_runs += run.fitting_letters();
        }
        // The spaces of text (U+2000 and the other typographic ones are also what UTF-16BE
        // makes of Latin UTF-16LE's letters and spaces: not counted).
        if matches!(
            c,
            '\t' | '\n' | '\x0C' | '\r' | ' ' | '\u{A0}' | '\u{3000}' | '\u{2028}' | '\u{2029}'
        ) {
            out.spaces += 1;
            continue;
        }
        out.nuls += usize::from(c == '\0');
        match get_general_category(c) {
            // Noncharacters are unassigned too.
            Gc::Control | Gc::Unassigned | Gc::PrivateUse | Gc::Surrogate => out.odd += 1,
            // Text's own format characters: soft hyphen, zero-width space and joiners, the
            // marks of direction, U+FEFF, and the tags of an emoji flag.
            Gc::Format if !matches!(c, '\u{AD}' | '\u{200B}'..='\u{200F}' | '\u{FEFF}' | '\u{E0001}' | '\u{E0020}'..='\u{E007F}') => {
                out.odd += 1
            }
            Gc::UppercaseLetter
            | Gc::LowercaseLetter
            | Gc::TitlecaseLetter
            | Gc::ModifierLetter
            | Gc::OtherLetter
            | Gc::NonspacingMark
            | Gc::SpacingMark
            | Gc::EnclosingMark => {
                out.letters += 1;
                run.letters += 1;
                let script = own_script(c);
                if let Some(group) = script_group(script) {
                    if group == Script::Han && !han_seen.contains(&script) {
                        han_seen.push(script);
                    }
                    match scripts.iter_mut().find(|(g, _)| *g == group) {
                        Some(slot) => slot.1 += 1,
                        None => scripts.push((group, 1)),
                    }
                    match run.scripts.iter_mut().find(|(g, _)| *g == group) {
                        Some(slot) => slot.1 += 1,
                        None => run.scripts.push((group, 1)),
                    }
                }
            }
            _ => {}
        }
    }
    out.letters_in_fitting_runs += run.fitting_letters();
    let mut scripts: Vec<(&'static str, usize)> = scripts
        .into_iter()
        .map(|(g, n)| (group_name(g), n))
        .collect();
    scripts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    out.han_scripts = HAN_SCRIPTS
        .iter()
        .filter(|s| han_seen.contains(s))
        .map(|s| s.full_name())
        .collect();
    out.scripts = scripts;
    out
}

/// The letters of one run of [`reading`] (a line, or [`RUN`] characters), by group of
/// scripts.
#[derive(Default)]
struct Run {
    chars: usize,
    letters: usize,
    scripts: Vec<(Script, usize)>,
}

impl Run {
    /// The run's letters if nine in ten of them are in at most two groups of scripts, else
    /// 0; and the run is begun again.
    fn fitting_letters(&mut self) -> usize {
        self.scripts
            .sort_unstable_by_key(|(_, n)| std::cmp::Reverse(*n));
        let top_two: usize = self.scripts.iter().take(2).map(|(_, n)| n).sum();
        let fitting = if top_two * 10 >= self.letters * 9 {
            self.letters
        } else {
            0
        };
        self.chars = 0;
        self.letters = 0;
        self.scripts.clear();
        fitting
    }
}

/// The wide encoding that reads `sample` (the first bytes of an input, which starts at a
/// code unit) as text ([`Reading::is_text`]), and that reading; `None` if none does, or
/// more than one. UTF-16 is tried in both byte orders, then UTF-32.
///
/// ```
/// use hexrune::detect::wide::{read_as_text, Wide};
/// let ru: Vec<u8> = "Привет, мир\n".repeat(3).encode_utf16().flat_map(u16::to_le_bytes).collect();
/// assert_eq!(read_as_text(&ru).map(|(w, _)| w), Some(Wide::Utf16Le));
/// assert_eq!(read_as_text("Привет, мир\n".as_bytes()), None);
/// ```
pub fn read_as_text(sample: &[u8]) -> Option<(Wide, Reading)> {
    if sample.len() < MIN_BYTES {
        return None;
    }
    let mut found = [Wide::Utf16Le, Wide::Utf16Be, Wide::Utf32Le, Wide::Utf32Be]
        .into_iter()
        .map(|w| (w, reading(w, sample)))
        .filter(|(_, r)| r.is_text());
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

/// The UTF-16 that reads `sample` (the first bytes of an input that has no zero byte) as
/// text but for spaces, and that reading; `None` if there is none. The byte order is the
/// one whose high bytes are controls, nine in ten of them, while fewer than half of the
/// low bytes are.
///
/// Without a zero byte, UTF-16 text has no space or line end (each has one), so
/// [`Reading::is_text`] would never hold: a single line of one word, or of a script
/// without spaces. Only an input with controls is asked, which text in a legacy encoding
/// (legacy CJK included, which UTF-16BE reads as Hangul) never has: Cyrillic puts 04 in
/// the high byte of each unit, Greek 03, Hebrew 05, Arabic 06, Thai 0E, and in the other
/// byte order the same units read as letters of another script (Canadian syllabics for
/// Cyrillic).
///
/// ```
/// use hexrune::detect::wide::{read_unspaced_as_text, Wide};
/// let ru: Vec<u8> = "Достопримечательности".encode_utf16().flat_map(u16::to_le_bytes).collect();
/// assert_eq!(read_unspaced_as_text(&ru).map(|(w, _)| w), Some(Wide::Utf16Le));
/// ```
pub fn read_unspaced_as_text(sample: &[u8]) -> Option<(Wide, Reading)> {
    if sample.len() < MIN_BYTES || memchr::memchr(0, sample).is_some() {
        return None;
    }
    let at = |parity: usize| {
        sample
            .iter()
            .skip(parity)
            .step_by(2)
            .filter(|b| is_control(**b))
            .count()
    };
    let half = sample.len() / 2;
    let high = |n: usize| n * 10 >= half * 9;
    let low = |n: usize| n * 2 < half;
    let w = match (at(0), at(1)) {
        (even, odd) if high(odd) && low(even) => Wide::Utf16Le,
        (even, odd) if high(even) && low(odd) => Wide::Utf16Be,
        _ => return None,
    };
    let r = reading(w, sample);
    let top_two: usize = r.scripts.iter().take(2).map(|(_, n)| n).sum();
    let text = r.chars >= 8 && r.odd * 200 <= r.chars && top_two * 10 >= r.letters * 9;
    text.then_some((w, r))
}

/// The UTF-16 that reads `sample` (the first bytes of an input) as Chinese, Japanese or
/// Korean text that has no space and no line end, and that reading; `None` if there is
/// none. Neither [`read_as_text`] (which asks for a space) nor [`read_unspaced_as_text`]
/// (which asks for controls in the high bytes, as Cyrillic or Greek put there) reads a
/// paragraph of Han and kana or Hangul on one line: the high bytes of its units are `30`,
/// `4E`..`9F`, `AC`..`D7` or `FF`, never controls, while one low byte in eight is one
/// (`気`, U+6C17, is `17 6C` in UTF-16LE).
///
/// So the bytes that are controls must all stand at one parity (the low byte of each unit:
/// even offsets for UTF-16LE, odd for UTF-16BE; but `7F`, which `美` U+7F8E puts in the
/// high byte), at least one of them, and read in that
/// byte order the input must be at least [`CJK_UNITS`] units: at least [`CJK_LETTERS`] letters,
/// all of the Han and kana group or all Hangul, and otherwise only the spaces,
/// punctuation and digits of such text (ASCII's, general punctuation, CJK punctuation
/// U+3000..U+303F and the fullwidth forms U+FF01..U+FF65). Legacy CJK text never gets
/// here (it has no control byte), and binary data puts controls at both parities, or
/// characters of other scripts, within a few units.
///
/// ```
/// use hexrune::detect::wide::{read_cjk_as_text, Wide};
/// let ja: Vec<u8> = "東京都の天気は晴れです".encode_utf16().flat_map(u16::to_le_bytes).collect();
/// assert_eq!(read_cjk_as_text(&ja).map(|(w, _)| w), Some(Wide::Utf16Le));
/// let be: Vec<u8> = "東京都の天気は晴れです".encode_utf16().flat_map(u16::to_be_bytes).collect();
/// assert_eq!(read_cjk_as_text(&be).map(|(w, _)| w), Some(Wide::Utf16Be));
/// ```
pub fn read_cjk_as_text(sample: &[u8]) -> Option<(Wide, Reading)> {
    if sample.len() < 2 * CJK_UNITS {
        return None;
    }
    let sample = &sample[..sample.len() & !1];
    // The controls at each parity; those of a high byte 01..1F only (`美`, U+7F8E, puts 7F
    // there).
    let controls = |parity: usize, low: bool| {
        sample
            .iter()
            .skip(parity)
            .step_by(2)
            .filter(|b| is_control(**b) && (low || **b != 0x7F))
            .count()
    };
    let w = match (
        controls(0, true),
        controls(1, false),
        controls(0, false),
        controls(1, true),
    ) {
        (low, 0, _, _) if low > 0 => Wide::Utf16Le,
        (_, _, 0, low) if low > 0 => Wide::Utf16Be,
        _ => return None,
    };
    // Letters of one group, Han and kana or Hangul; the rest the punctuation, digits and
    // spaces of such text: ASCII's, general punctuation, CJK's and the fullwidth forms.
    let mut group = None;
    let mut letters = 0;
    let mut rare = 0;
    for u in w.units(sample) {
        if matches!(u, 0x09 | 0x0A | 0x0D | 0x20..=0x7E | 0x2010..=0x2027 | 0x2030..=0x205E | 0x3000..=0x303F | 0xFF01..=0xFF65)
        {
            continue;
        }
        let c = char::from_u32(u).filter(|c| c.is_alphabetic())?;
        let g =
            script_group(own_script(c)).filter(|g| matches!(g, Script::Han | Script::Hangul))?;
        if *group.get_or_insert(g) != g {
            return None;
        }
        letters += 1;
        // Beyond the unified ideographs, kana and the Hangul syllables: the extension A
        // and compatibility ideographs, Bopomofo, the jamo. Text seldom has them, binary
        // data read as UTF-16 often (they are a third of the letters it gives).
        rare += usize::from(!matches!(u, 0x3040..=0x30FF | 0x4E00..=0x9FFF | 0xAC00..=0xD7A3));
    }
    let r = reading(w, sample);
    let text = letters >= CJK_LETTERS && rare * 10 <= letters && r.odd == 0;
    text.then_some((w, r))
}

/// The fewest letters of [`read_cjk_as_text`].
pub const CJK_LETTERS: usize = 6;

/// The fewest code units of [`read_cjk_as_text`]: eight would read one input of random
/// bytes in about 700 as CJK text, ten one in about 20,000.
pub const CJK_UNITS: usize = 10;

/// The fewest letters of [`read_line_as_text`].
pub const LINE_LETTERS: usize = 3;

/// The UTF-16 that reads `sample`, a whole input too short for [`read_as_text`] (fewer
/// than 8 characters), as one line of text: the input is whole units that end in a line
/// feed (`0A 00` in UTF-16LE, `00 0A` in UTF-16BE, after a carriage return or not) and
/// hold no other; read so, it gives at least [`LINE_LETTERS`] letters, all of one group of
/// scripts, and nothing that no text holds. Exactly one byte order must read so.
///
/// A short line of CJK or Hangul fills both bytes of its units: its only zero bytes are
/// its line feed's, and some of its bytes are controls alone (`。`, U+3002, is `02 30` in
/// UTF-16LE, `감`, U+AC10, is `10 AC`): halves of its units, no controls. A line without a
/// line feed is not read so: nothing in its bytes then says UTF-16.
///
/// ```
/// use hexrune::detect::wide::{read_line_as_text, Wide};
/// let zh: Vec<u8> = "请把门关上。\n".encode_utf16().flat_map(u16::to_le_bytes).collect();
/// assert_eq!(read_line_as_text(&zh).map(|(w, _)| w), Some(Wide::Utf16Le));
/// assert_eq!(read_line_as_text(&zh[..zh.len() - 2]), None);
/// ```
pub fn read_line_as_text(sample: &[u8]) -> Option<(Wide, Reading)> {
    if sample.len() >= 2 * 8 || !sample.len().is_multiple_of(2) {
        return None;
    }
    let mut found = [Wide::Utf16Le, Wide::Utf16Be].into_iter().filter_map(|w| {
        let units: Vec<u32> = w.units(sample).collect();
        let feeds = units.iter().filter(|u| **u == 0x0A).count();
        if units.last() != Some(&0x0A) || feeds != 1 {
            return None;
        }
        let r = reading(w, sample);
        let text = r.odd == 0
            && r.letters >= LINE_LETTERS
            && r.scripts.len() == 1
            && r.scripts[0].1 * 10 >= r.letters * 9;
        text.then_some((w, r))
    });
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

/// Whether `bytes` (which start at a code unit), whose zero bytes show the pattern of
/// `wide`, read as text in it ([`Reading::is_text_by_pattern`]), judged on their first
/// 64 KiB.
///
/// ```
/// use hexrune::detect::wide::{text_by_pattern, Wide};
/// let text: Vec<u8> = "hello\n".chars().flat_map(|c| u32::from(c).to_le_bytes()).collect();
/// assert!(text_by_pattern(Wide::Utf32Le, &text));
/// // Integers below 70000, little-endian: zero bytes where UTF-32LE puts them.
/// let ints: Vec<u8> = (0..500u32).flat_map(|k| (k * 137 % 70_000).to_le_bytes()).collect();
/// assert!(!text_by_pattern(Wide::Utf32Le, &ints));
/// ```
pub fn text_by_pattern(wide: Wide, bytes: &[u8]) -> bool {
    reading(wide, &bytes[..bytes.len().min(TEXT_HEAD)]).is_text_by_pattern()
}

/// The most bytes of a region or a line that [`text_in`] decodes: as [`text_by_pattern`]
/// and an input's own reading ([`read_as_text`] of its first 64 KiB), a region is judged on
/// its head.
pub const TEXT_HEAD: usize = 64 << 10;

/// The wide encoding (`only` that one, where given) in which `bytes`, which start at a
/// code unit, read as text: the one whose zero pattern they show ([`guess`]) where its
/// units read as text ([`text_by_pattern`]), else the one decoding finds ([`read_as_text`]),
/// judged on the first [`TEXT_HEAD`] bytes. The one question region finding asks of a line
/// or a region: does it read as UTF-16 or UTF-32 text?
///
/// ```
/// use hexrune::detect::wide::{text_in, Wide};
/// let le: Vec<u8> = "plain text, in lines\n".encode_utf16().flat_map(u16::to_le_bytes).collect();
/// assert_eq!(text_in(&le, None), Some(Wide::Utf16Le));
/// assert_eq!(text_in(&le, Some(Wide::Utf16Be)), None);
/// assert_eq!(text_in(b"plain text, in lines\n", None), None);
/// ```
pub fn text_in(bytes: &[u8], only: Option<Wide>) -> Option<Wide> {
    let wanted = |w: &Wide| only.is_none_or(|o| o == *w);
    guess(bytes)
        .filter(|w| wanted(w) && text_by_pattern(*w, bytes))
        .or_else(|| {
            read_as_text(&bytes[..bytes.len().min(TEXT_HEAD)])
                .map(|(w, _)| w)
                .filter(wanted)
        })
}

/// What decoding `bytes` as a wide encoding found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Unpaired surrogates, values above U+10FFFF, and a partial unit at the end.
    pub errors: u64,
    /// Offsets of U+FEFF after the first character (concatenated files).
    pub inner_boms: Vec<usize>,
    /// Code units that are controls other than tab, line feed, form feed and carriage
    /// return (NUL included).
    pub controls: u64,
    /// Code units.
    pub units: u64,
}

/// Decodes all of `bytes` (offsets relative to `base` in the reports) as `wide`.
pub fn check(wide: Wide, bytes: &[u8], base: usize) -> Checked {
    let mut out = Checked::default();
    let size = wide.unit();
    let mut pending_high: Option<usize> = None;
    for (i, v) in wide.units(bytes).enumerate() {
        let at = base + i * size;
        out.units += 1;
        let is_high = size == 2 && (0xD800..=0xDBFF).contains(&v);
        let is_low = size == 2 && (0xDC00..=0xDFFF).contains(&v);
        if pending_high.take().is_some() && !is_low {
            out.errors += 1;
        }
        if is_high {
            pending_high = Some(at);
        } else if is_low {
            // A low surrogate right after a high one completes a pair.
            if i == 0
                || !matches!(
                    wide.units(&bytes[(i - 1) * 2..i * 2]).next(),
                    Some(0xD800..=0xDBFF)
                )
            {
                out.errors += 1;
            }
        } else if v > 0x10FFFF || (size == 4 && (0xD800..=0xDFFF).contains(&v)) {
            out.errors += 1;
        } else if v == 0xFEFF && at > 0 && i > 0 {
            out.inner_boms.push(at);
        } else if v < 0x20 && !matches!(v, 0x09 | 0x0A | 0x0C | 0x0D) || v == 0x7F {
            out.controls += 1;
        }
    }
    out.errors += u64::from(pending_high.is_some());
    out.errors += u64::from(!bytes.len().is_multiple_of(size));
    out
}

/// A control byte as `CONTROL_SHARE` counts them: 01..08, 0B, 0E..1A, 1C..1F, 7F.
pub(super) fn is_control(b: u8) -> bool {
    matches!(b, 0x01..=0x08 | 0x0B | 0x0E..=0x1A | 0x1C..=0x1F | 0x7F)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::{text_bytes, Dialect};

    #[test]
    fn guesses() {
        let text = "Grüße aus Köln, line two\n";
        for (d, wide) in [
            (Dialect::Utf16Le, Wide::Utf16Le),
            (Dialect::Utf16Be, Wide::Utf16Be),
            (Dialect::Utf32Le, Wide::Utf32Le),
            (Dialect::Utf32Be, Wide::Utf32Be),
        ] {
            assert_eq!(guess(&text_bytes(d, text)), Some(wide), "{d}");
        }
        assert_eq!(guess(text.as_bytes()), None);
        assert_eq!(guess(&[0u8; 64]), None);
    }

    /// Random bytes, as a small binary file: read as CJK text in UTF-16 about once in
    /// 20,000 inputs of 20 to 24 bytes, never from 26 bytes on.
    #[test]
    fn random_bytes_are_seldom_cjk_text() {
        let mut next = crate::xorshift(0x9E37_79B9_7F4A_7C15);
        for (len, most) in [
            (18, 0),
            (20, 5),
            (22, 5),
            (24, 5),
            (26, 0),
            (32, 0),
            (48, 0),
            (256, 0),
        ] {
            let read = (0..50_000)
                .filter(|_| {
                    let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
                    read_cjk_as_text(&bytes).is_some()
                })
                .count();
            assert!(read <= most, "{read} of 50000 random inputs of {len} bytes");
        }
    }

    #[test]
    fn cjk_lines_without_spaces() {
        let texts = [
            "東京都の天気は晴れです。明日は雨が降るでしょう。",
            "我们明天去北京开会，请准时到达。",
            "這是一個測試，請不要擔心。",
            "대한민국의수도는서울입니다",
            "2024年3月15日に東京で会議があります。",
        ];
        for t in texts {
            let le: Vec<u8> = t.encode_utf16().flat_map(u16::to_le_bytes).collect();
            let be: Vec<u8> = t.encode_utf16().flat_map(u16::to_be_bytes).collect();
            assert_eq!(
                read_cjk_as_text(&le).map(|(w, _)| w),
                Some(Wide::Utf16Le),
                "{t}"
            );
            assert_eq!(
                read_cjk_as_text(&be).map(|(w, _)| w),
                Some(Wide::Utf16Be),
                "{t}"
            );
            // Not in UTF-8, nor in the legacy encodings, which have no control byte.
            assert_eq!(read_cjk_as_text(t.as_bytes()), None, "{t}");
        }
        // Cyrillic puts its controls in the high bytes: read_unspaced_as_text's.
        let ru: Vec<u8> = "Достопримечательности"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert_eq!(read_cjk_as_text(&ru), None);
    }

    #[test]
    fn checks() {
        let mut bytes = text_bytes(Dialect::Utf16Le, "a😀b\u{FEFF}c");
        assert_eq!(
            check(Wide::Utf16Le, &bytes, 0),
            Checked {
                errors: 0,
                inner_boms: vec![8],
                controls: 0,
                units: 6
            }
        );
        bytes.extend([0x00, 0xD8, 0x41, 0x00, 0x00, 0xDC, 0x7A]);
        let c = check(Wide::Utf16Le, &bytes, 0);
        assert_eq!(c.errors, 3, "{c:?}");
        let c = check(Wide::Utf32Be, &[0, 0x11, 0, 0, 0, 0, 0, 0x41], 0);
        assert_eq!(c.errors, 1);
    }
}
