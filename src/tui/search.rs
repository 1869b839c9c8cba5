//! Searches that may cross a whole input: the next or previous error unit, and byte
//! patterns. They run on a worker thread in chunks, report progress between chunks and
//! stop when asked to (an `AtomicBool`), so the screen never freezes, even when the
//! answer is gigabytes away.
//!
//! Error search uses the one scan loop ([`crate::scan::scan_range`]) chunk by chunk: it
//! reports exactly the units that start in a range, decoded against the whole input, so
//! chunks stitch with no special care at their edges. Once the whole-input index exists,
//! the viewer asks it instead (see [`crate::scan::index::Summary::next_error`]).

use std::sync::atomic::{AtomicBool, Ordering};

use memchr::memmem;

use std::ops::Range;

use crate::decode::{Checkpoint, Dialect, Family, MultiByteTable, Unit};
use crate::scan::{scan_range, ClassCounts, Sink};

/// Bytes handed to one scan or one pattern search between progress reports.
#[cfg(not(test))]
pub const CHUNK: usize = 4 << 20;
/// Small chunks in unit tests, so that random inputs cross many chunk edges.
#[cfg(test)]
pub const CHUNK: usize = 4096;

/// How a search ended early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cancelled;

/// What a search is told and tells back while it runs.
pub struct Control<'a> {
    /// Set by the app to stop the search.
    pub cancel: &'a AtomicBool,
    /// Called between chunks with the offset reached.
    pub progress: &'a mut dyn FnMut(u64),
}

impl Control<'_> {
    /// Between chunks: stops if asked to, else reports `at` as the offset reached.
    pub fn step(&mut self, at: usize) -> Result<(), Cancelled> {
        if self.cancel.load(Ordering::Relaxed) {
            return Err(Cancelled);
        }
        (self.progress)(at as u64);
        Ok(())
    }
}

/// The first and last error units a scan reported.
#[derive(Default)]
struct Errors {
    first: Option<Unit>,
    last: Option<Unit>,
}

impl Sink for Errors {
    fn unit(&mut self, _bytes: &[u8], unit: &Unit) {
        if unit.is_error() {
            self.first.get_or_insert(*unit);
            self.last = Some(*unit);
        }
    }

    fn scalars(&mut self, _classes: &ClassCounts) {}
}

fn errors_in(bytes: &[u8], dialect: Dialect, range: std::ops::Range<usize>) -> Errors {
    let mut errors = Errors::default();
    scan_range(dialect, bytes, range, &mut errors);
    errors
}

/// The first error unit that starts in `from..limit`.
pub fn next_error(
    bytes: &[u8],
    dialect: Dialect,
    from: usize,
    limit: usize,
    control: &mut Control,
) -> Result<Option<Unit>, Cancelled> {
    let limit = limit.min(bytes.len());
    let mut pos = from;
    while pos < limit {
        control.step(pos)?;
        let end = (pos + CHUNK).min(limit);
        if let Some(unit) = errors_in(bytes, dialect, pos..end).first {
            return Ok(Some(unit));
        }
        pos = end;
    }
    Ok(None)
}

/// The last error unit that starts before `before`.
pub fn prev_error(
    bytes: &[u8],
    dialect: Dialect,
    before: usize,
    control: &mut Control,
) -> Result<Option<Unit>, Cancelled> {
    let mut hi = before.min(bytes.len());
    while hi > 0 {
        control.step(hi)?;
        let lo = hi.saturating_sub(CHUNK);
        if let Some(unit) = errors_in(bytes, dialect, lo..hi).last {
            return Ok(Some(unit));
        }
        hi = lo;
    }
    Ok(None)
}

/// The first occurrence of `pattern` starting in `from..`.
pub fn find_forward(
    bytes: &[u8],
    pattern: &[u8],
    from: usize,
    control: &mut Control,
) -> Result<Option<usize>, Cancelled> {
    if pattern.is_empty() {
        return Ok(None);
    }
    let finder = memmem::Finder::new(pattern);
    let mut pos = from;
    while pos < bytes.len() {
        control.step(pos)?;
        let end = (pos + CHUNK + pattern.len() - 1).min(bytes.len());
        if let Some(i) = finder.find(&bytes[pos..end]) {
            return Ok(Some(pos + i));
        }
        pos += CHUNK;
    }
    Ok(None)
}

/// The last occurrence of `pattern` starting before `before`.
pub fn find_backward(
    bytes: &[u8],
    pattern: &[u8],
    before: usize,
    control: &mut Control,
) -> Result<Option<usize>, Cancelled> {
    if pattern.is_empty() {
        return Ok(None);
    }
    let finder = memmem::FinderRev::new(pattern);
    let mut hi = before.min(bytes.len());
    while hi > 0 {
        control.step(hi)?;
        let lo = hi.saturating_sub(CHUNK);
        let end = (hi + pattern.len() - 1).min(bytes.len());
        if let Some(i) = finder.rfind(&bytes[lo..end]) {
            return Ok(Some(lo + i));
        }
        hi = lo;
    }
    Ok(None)
}

/// Whether a byte range holds whole units of the view's decoding: a text match must start
/// where a unit starts and end where one ends, so that it is the characters searched for,
/// never the tail of one and the head of the next (in Shift_JIS `82 A2 20 A2` holds
/// `A2 20`, the bytes of nothing the text holds; in UTF-16LE `00 41` may straddle two
/// code units).
///
/// UTF-8, UTF-16 and UTF-32 find a unit from the bytes around an offset. The multi-byte
/// legacy encodings are not self-synchronizing: their units are found as the viewer finds
/// them, by decoding from a checkpoint ([`Dialect::resync`]) — the nearest sync byte, the
/// scan's block index (`hint`), or the last boundary this value found, whichever is
/// nearest. A forward search asks about ever later ranges, so it decodes each byte once.
pub struct UnitEdges<'a> {
    /// `None`: every offset is an edge (a hex search looks for bytes, not characters).
    dialect: Option<Dialect>,
    /// A checkpoint at or before an offset, from the scan's block index, once it exists.
    hint: &'a dyn Fn(usize) -> Option<Checkpoint>,
    /// The last unit boundary decoding reached, and the decoder state there.
    known: Checkpoint,
    /// In ISO-2022-JP, the code points a match must decode to: its bytes mean other
    /// characters in another mode (`24 22` is あ after `ESC $ B`, `$"` in ASCII).
    text: Option<Vec<u32>>,
}

impl<'a> UnitEdges<'a> {
    /// The unit edges of `dialect`, with `hint` giving checkpoints in a multi-byte legacy
    /// encoding (it may always say `None`: decoding then starts at a sync byte or at 0).
    pub fn new(dialect: Dialect, hint: &'a dyn Fn(usize) -> Option<Checkpoint>) -> Self {
        UnitEdges {
            dialect: Some(dialect),
            hint,
            known: Checkpoint::default(),
            text: None,
        }
    }

    /// These edges, where a match must also decode to `text` in a stateful encoding
    /// (ISO-2022-JP); in the others the same bytes on the same edges always do.
    pub fn decoding_to(mut self, text: &str) -> Self {
        self.text = Some(text.chars().map(u32::from).collect());
        self
    }

    /// Edges at every offset: what a hex search accepts.
    pub fn any_byte() -> Self {
        UnitEdges {
            dialect: None,
            hint: &|_| None,
            known: Checkpoint::default(),
            text: None,
        }
    }

    /// Whether `range` (not empty, inside `bytes`) starts on a unit's first byte and ends
    /// on a unit's last.
    ///
    /// ```
    /// use hexrune::tui::search::UnitEdges;
    /// let sjis = hexrune::encoding::resolve("shift_jis").unwrap();
    /// let bytes = b"\x82\xA2 \xA2"; // い, a space, ｢
    /// let mut edges = UnitEdges::new(sjis, &|_| None);
    /// assert!(!edges.spans_units(bytes, 1..3)); // A2 20: the trail of い and the space
    /// assert!(edges.spans_units(bytes, 3..4));
    /// assert!(edges.spans_units(bytes, 0..3));
    /// ```
    pub fn spans_units(&mut self, bytes: &[u8], range: Range<usize>) -> bool {
        if range.is_empty() || range.end > bytes.len() {
            return false;
        }
        match self.dialect {
            None | Some(Dialect::SingleByte(_)) => true,
            Some(Dialect::MultiByte(table)) => self.spans_decoded(table, bytes, range),
            Some(d) => {
                d.unit_containing(bytes, range.start).start == range.start
                    && d.unit_containing(bytes, range.end - 1).end() == range.end
            }
        }
    }

    /// [`UnitEdges::spans_units`] in a multi-byte legacy encoding: decodes from the
    /// nearest checkpoint at or before the range's start through its end.
    fn spans_decoded(
        &mut self,
        table: &'static MultiByteTable,
        bytes: &[u8],
        range: Range<usize>,
    ) -> bool {
        let known = Some(self.known).filter(|k| k.at <= range.start);
        let from = match ((self.hint)(range.start), known) {
            (Some(h), Some(k)) => Some(if h.at > k.at { h } else { k }),
            (h, k) => h.or(k),
        };
        let found = Dialect::MultiByte(table).resync(bytes, range.start, from);
        let (mut at, mut state) = (found.unit.start, found.state);
        let stateful = table.family() == Family::Iso2022Jp;
        let mut expected = self.text.as_deref().filter(|_| stateful).map(|t| t.iter());
        let mut same = true;
        if at == range.start {
            while at < range.end {
                let (unit, next) = table.decode(bytes, at, state);
                if let Some(expected) = expected.as_mut() {
                    let cp = unit.code_point().map(|cp| cp.value());
                    same &= cp.is_some() && cp.as_ref() == expected.next();
                }
                (at, state) = (unit.end(), next);
            }
        }
        self.known = Checkpoint { at, state };
        at == range.end && same
    }
}

/// The occurrences of `pattern` that start in `lo..hi` and span whole units, each judged
/// in the whole input, first to last: one chunk of a search, until `found` says stop.
/// Occurrences may overlap (`aa` in `aaa` starts at 0 and 1); asking about them in order
/// means a multi-byte legacy encoding decodes the chunk once, not once per occurrence.
fn on_units_in(
    bytes: &[u8],
    finder: &memmem::Finder,
    (lo, hi): (usize, usize),
    edges: &mut UnitEdges,
    mut found: impl FnMut(usize) -> bool,
) {
    let len = finder.needle().len();
    let hay = &bytes[lo..(hi + len - 1).min(bytes.len())];
    let mut next = 0;
    while let Some(i) = hay.get(next..).and_then(|rest| finder.find(rest)) {
        let at = lo + next + i;
        if edges.spans_units(bytes, at..at + len) && found(at) {
            return;
        }
        next += i + 1;
    }
}

/// The first occurrence of `pattern` that starts in `from..until` and spans whole units
/// ([`UnitEdges`]): what a text search finds going forward.
pub fn find_units_forward(
    bytes: &[u8],
    pattern: &[u8],
    (from, until): (usize, usize),
    edges: &mut UnitEdges,
    control: &mut Control,
) -> Result<Option<usize>, Cancelled> {
    if pattern.is_empty() {
        return Ok(None);
    }
    let finder = memmem::Finder::new(pattern);
    let until = until.min(bytes.len());
    let mut pos = from;
    while pos < until {
        control.step(pos)?;
        let hi = (pos + CHUNK).min(until);
        let mut first = None;
        on_units_in(bytes, &finder, (pos, hi), edges, |at| {
            first = Some(at);
            true
        });
        if first.is_some() {
            return Ok(first);
        }
        pos = hi;
    }
    Ok(None)
}

/// The last occurrence of `pattern` that starts in `floor..before` and spans whole units
/// ([`UnitEdges`]): what a text search finds going backward. Each chunk, from the last, is
/// searched forward, so that a multi-byte legacy encoding decodes it once.
pub fn find_units_backward(
    bytes: &[u8],
    pattern: &[u8],
    (floor, before): (usize, usize),
    edges: &mut UnitEdges,
    control: &mut Control,
) -> Result<Option<usize>, Cancelled> {
    if pattern.is_empty() {
        return Ok(None);
    }
    let finder = memmem::Finder::new(pattern);
    let mut hi = before.min(bytes.len());
    while hi > floor {
        control.step(hi)?;
        let lo = hi.saturating_sub(CHUNK).max(floor);
        let mut last = None;
        on_units_in(bytes, &finder, (lo, hi), edges, |at| {
            last = Some(at);
            false
        });
        if last.is_some() {
            return Ok(last);
        }
        hi = lo;
    }
    Ok(None)
}

/// What a text search's input (`/`, `\`, not hex) asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextSearch<'a> {
    /// `~/text`: the text and its lookalike byte forms.
    Lookalike(&'a str),
    /// The text as written.
    Text(&'a str),
}

impl<'a> TextSearch<'a> {
    /// Reads the typed input. `~/` first asks for a lookalike search; a `\` before it is
    /// dropped and the rest is searched as written: `\~/x` searches for `~/x`, and
    /// `\\~/x` for `\~/x` (whatever backslashes come before `~/`, one fewer). Any other
    /// `\` is itself.
    ///
    /// ```
    /// use hexrune::tui::search::TextSearch;
    /// assert_eq!(TextSearch::parse("~/x"), TextSearch::Lookalike("x"));
    /// assert_eq!(TextSearch::parse("\\~/x"), TextSearch::Text("~/x"));
    /// assert_eq!(TextSearch::parse("\\\\~/x"), TextSearch::Text("\\~/x"));
    /// assert_eq!(TextSearch::parse("\\x"), TextSearch::Text("\\x"));
    /// assert_eq!(TextSearch::parse("a~/x"), TextSearch::Text("a~/x"));
    /// ```
    pub fn parse(input: &'a str) -> TextSearch<'a> {
        if let Some(text) = input.strip_prefix("~/") {
            return TextSearch::Lookalike(text);
        }
        match input.strip_prefix('\\') {
            Some(rest) if rest.trim_start_matches('\\').starts_with("~/") => TextSearch::Text(rest),
            _ => TextSearch::Text(input),
        }
    }
}

/// The bytes `text` is stored as in `dialect`: what a text search looks for, so that a
/// UTF-16 view finds UTF-16 text and a windows-1252 view windows-1252 bytes. An error names
/// the first character the dialect cannot write.
///
/// ```
/// use hexrune::decode::Dialect;
/// use hexrune::tui::search::encode_text;
/// assert_eq!(encode_text(Dialect::Utf16Le, "hé"), Ok(b"h\x00\xE9\x00".to_vec()));
/// assert_eq!(encode_text(Dialect::Utf8, "hé"), Ok("hé".as_bytes().to_vec()));
/// ```
pub fn encode_text(dialect: Dialect, text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        match dialect.encode(crate::decode::CodePoint::new(c as u32)) {
            Ok(e) => out.extend_from_slice(e.as_bytes()),
            Err(why) => {
                return Err(format!(
                    "{} is not in {}: {why}",
                    crate::view::safe::sanitize(&c.to_string()),
                    dialect.encoding_name()
                ))
            }
        }
    }
    Ok(out)
}

/// Parses hex bytes typed in the search prompt: pairs of hex digits, spaces optional
/// (`e2 82 ac`, `E282AC`, `0xe2 0x82`).
pub fn parse_hex(text: &str) -> Result<Vec<u8>, String> {
    let digits: String = text
        .split_whitespace()
        .map(|w| w.trim_start_matches("0x").trim_start_matches("0X"))
        .collect();
    if digits.is_empty() {
        return Err("no bytes given".into());
    }
    if digits.len() % 2 == 1 {
        return Err("hex bytes need two digits each".into());
    }
    (0..digits.len())
        .step_by(2)
        .map(|i| {
            u8::from_str_radix(&digits[i..i + 2], 16)
                .map_err(|_| format!("not a hex byte: {}", &digits[i..i + 2]))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn quiet<T>(f: impl FnOnce(&mut Control) -> T) -> T {
        let cancel = AtomicBool::new(false);
        f(&mut Control {
            cancel: &cancel,
            progress: &mut |_| {},
        })
    }

    fn all_errors(bytes: &[u8], d: Dialect) -> Vec<Unit> {
        let mut out = Vec::new();
        let mut pos = 0;
        while let Some(u) = quiet(|c| next_error(bytes, d, pos, bytes.len(), c)).unwrap() {
            out.push(u);
            pos = u.end();
        }
        out
    }

    /// Inputs with errors near chunk edges: runs of valid text with error bytes at random
    /// places, long enough to span several chunks.
    fn spread(seed: &[(usize, u8)]) -> Vec<u8> {
        let mut bytes = "ä€😀 ".repeat(CHUNK / 10 * 3).into_bytes();
        for &(at, b) in seed {
            let at = at % bytes.len();
            bytes[at] = b;
        }
        bytes
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn error_search_equals_full_decode(
            seed in proptest::collection::vec((0..usize::MAX, prop_oneof![
                Just(0xEDu8), Just(0xA0), Just(0xB0), Just(0x80), Just(0xC0), Just(0xF4), Just(0x00)
            ]), 0..12),
            edge in 0usize..16,
        ) {
            let mut bytes = spread(&seed);
            // Put a surrogate pair right at a chunk edge.
            let at = CHUNK - 11 + edge;
            bytes[at..at + 6].copy_from_slice(b"\xED\xA0\xBD\xED\xB8\x80");
            for d in Dialect::ALL {
                let expected: Vec<Unit> = d.units(&bytes).filter(|u| u.is_error()).collect();
                prop_assert_eq!(&all_errors(&bytes, d), &expected, "{}", d);
                if let Some(last) = expected.last() {
                    let prev = quiet(|c| prev_error(&bytes, d, bytes.len(), c)).unwrap();
                    prop_assert_eq!(prev, Some(*last));
                    let prev = quiet(|c| prev_error(&bytes, d, last.start, c)).unwrap();
                    prop_assert_eq!(prev, expected.len().checked_sub(2).map(|i| expected[i]));
                }
            }
        }
    }

    #[test]
    fn small_inputs() {
        let bytes = b"ab\xC0\xAFcd\xE2\x82";
        let errors = all_errors(bytes, Dialect::Utf8);
        let starts: Vec<usize> = errors.iter().map(|u| u.start).collect();
        assert_eq!(starts, [2, 3, 6]);
        let prev = quiet(|c| prev_error(bytes, Dialect::Utf8, 6, c)).unwrap();
        assert_eq!(prev.map(|u| u.start), Some(3));
        assert_eq!(
            quiet(|c| prev_error(bytes, Dialect::Utf8, 2, c)).unwrap(),
            None
        );
    }

    #[test]
    fn pattern_search_across_chunks() {
        let mut bytes = vec![b'a'; CHUNK * 2 + 100];
        bytes[CHUNK - 1..CHUNK + 2].copy_from_slice(b"xyz");
        bytes[10..13].copy_from_slice(b"xyz");
        let fwd = |from| quiet(|c| find_forward(&bytes, b"xyz", from, c)).unwrap();
        let back = |before| quiet(|c| find_backward(&bytes, b"xyz", before, c)).unwrap();
        assert_eq!(fwd(0), Some(10));
        assert_eq!(fwd(11), Some(CHUNK - 1));
        assert_eq!(fwd(CHUNK), None);
        assert_eq!(back(bytes.len()), Some(CHUNK - 1));
        assert_eq!(back(CHUNK - 1), Some(10));
        assert_eq!(back(10), None);
    }

    #[test]
    fn cancel_stops() {
        let bytes = vec![0u8; CHUNK * 3];
        let cancel = AtomicBool::new(true);
        let mut control = Control {
            cancel: &cancel,
            progress: &mut |_| {},
        };
        assert_eq!(
            next_error(&bytes, Dialect::Utf8, 0, bytes.len(), &mut control),
            Err(Cancelled)
        );
    }

    #[test]
    fn text_in_the_view_encoding() {
        let cp1252 = crate::encoding::resolve("windows-1252").unwrap();
        assert_eq!(encode_text(cp1252, "café €"), Ok(b"caf\xE9 \x80".to_vec()));
        assert_eq!(
            encode_text(cp1252, "a😀"),
            Err("😀 is not in windows-1252: not a character of this encoding".to_string())
        );
        assert_eq!(
            encode_text(Dialect::Utf16Be, "a😀"),
            Ok(b"\x00a\xD8\x3D\xDE\x00".to_vec())
        );
        assert_eq!(
            encode_text(Dialect::Utf32Le, "é"),
            Ok(b"\xE9\x00\x00\x00".to_vec())
        );
        assert_eq!(
            encode_text(Dialect::Cesu8, "😀"),
            Ok(b"\xED\xA0\xBD\xED\xB8\x80".to_vec())
        );
        // A match must start on a code unit: in "ᄀaᄡ" (00 11 61 00 11 61 in UTF-16LE) the
        // bytes 11 61 first occur at offset 1, inside two code units.
        let file = crate::decode::text_bytes(Dialect::Utf16Le, "\u{1100}\u{61}\u{6111}");
        let needle = [0x11, 0x61];
        let whole = (0, file.len());
        assert_eq!(quiet(|c| find_forward(&file, &needle, 0, c)), Ok(Some(1)));
        assert_eq!(
            units_forward(Dialect::Utf16Le, &file, &needle, whole),
            Some(4)
        );
        assert_eq!(
            units_backward(Dialect::Utf16Le, &file, &needle, whole),
            Some(4)
        );
        assert_eq!(
            units_backward(Dialect::Utf16Le, &file, &needle, (0, 4)),
            None
        );
        assert_eq!(
            units_forward(Dialect::Utf16Le, &file, &needle, (0, 4)),
            None
        );
        let mut any = UnitEdges::any_byte();
        let found = quiet(|c| find_units_forward(&file, &needle, whole, &mut any, c));
        assert_eq!(found, Ok(Some(1)));
        // What the search finds in a UTF-16 file: the text, not its UTF-8 bytes.
        let file = crate::decode::text_bytes(Dialect::Utf16Le, "le café, la café");
        let needle = encode_text(Dialect::Utf16Le, "café").unwrap();
        assert_eq!(quiet(|c| find_forward(&file, &needle, 0, c)), Ok(Some(6)));
    }

    fn units_forward(
        d: Dialect,
        bytes: &[u8],
        needle: &[u8],
        range: (usize, usize),
    ) -> Option<usize> {
        let mut edges = UnitEdges::new(d, &|_| None);
        quiet(|c| find_units_forward(bytes, needle, range, &mut edges, c)).unwrap()
    }

    fn units_backward(
        d: Dialect,
        bytes: &[u8],
        needle: &[u8],
        range: (usize, usize),
    ) -> Option<usize> {
        let mut edges = UnitEdges::new(d, &|_| None);
        quiet(|c| find_units_backward(bytes, needle, range, &mut edges, c)).unwrap()
    }

    /// Every start of an occurrence of `needle` that spans whole units, from one decode of
    /// the whole input: the oracle of the searches.
    fn naive_matches(d: Dialect, bytes: &[u8], needle: &[u8]) -> Vec<usize> {
        let units: Vec<Unit> = d.units(bytes).collect();
        let starts: std::collections::HashSet<usize> = units.iter().map(|u| u.start).collect();
        let ends: std::collections::HashSet<usize> = units.iter().map(|u| u.end()).collect();
        (0..bytes.len())
            .filter(|&i| bytes[i..].starts_with(needle))
            .filter(|&i| starts.contains(&i) && ends.contains(&(i + needle.len())))
            .collect()
    }

    #[test]
    fn text_in_a_multi_byte_view_is_found_on_its_units() {
        let sjis = crate::encoding::resolve("shift_jis").unwrap();
        // "abあい ｢": ｢ (A2) is also the trail byte of い at 0x5.
        let file = b"ab\x82\xA0\x82\xA2 \xA2\n";
        let needle = encode_text(sjis, "｢").unwrap();
        assert_eq!(needle, [0xA2]);
        let whole = (0, file.len());
        assert_eq!(units_forward(sjis, file, &needle, whole), Some(7));
        assert_eq!(units_forward(sjis, file, &needle, (0, 7)), None);
        assert_eq!(units_backward(sjis, file, &needle, whole), Some(7));
        assert_eq!(units_backward(sjis, file, &needle, (0, 7)), None);
        assert_eq!(units_forward(sjis, file, b"\x82\xA2", whole), Some(4));
        assert_eq!(units_forward(sjis, file, b"\xA0\x82", whole), None);
        // EUC-KR "가나" (B0 A1 B3 AA): 〕 is A1 B3, the trail of one and the lead of the other.
        let euc_kr = crate::encoding::resolve("euc-kr").unwrap();
        let file = b"\xB0\xA1\xB3\xAA\n";
        let needle = encode_text(euc_kr, "〕").unwrap();
        assert_eq!(needle, [0xA1, 0xB3]);
        assert_eq!(units_forward(euc_kr, file, &needle, (0, 5)), None);
        assert_eq!(units_backward(euc_kr, file, &needle, (0, 5)), None);
        assert_eq!(units_forward(euc_kr, file, b"\xB3\xAA", (0, 5)), Some(2));
        // ISO-2022-JP: 24 22 is あ after ESC $ B only; in ASCII it is `$"`, two units too.
        let iso = crate::encoding::resolve("iso-2022-jp").unwrap();
        let jis = b"$\"\x1B$B$\"";
        let mut edges = UnitEdges::new(iso, &|_| None).decoding_to("あ");
        let found = quiet(|c| find_units_forward(jis, b"$\"", (0, 7), &mut edges, c));
        assert_eq!(found, Ok(Some(5)));
        assert_eq!(units_forward(iso, jis, b"$\"", (0, 7)), Some(0));
        // A single-byte view: every byte is a unit.
        let cp1252 = crate::encoding::resolve("windows-1252").unwrap();
        assert_eq!(units_forward(cp1252, file, &needle, (0, 5)), Some(1));
    }

    #[test]
    fn the_scan_checkpoints_give_the_same_matches() {
        // No sync byte at all: hiragana after one ASCII letter, so A0 82 occurs at every
        // even offset from 2 and spans units at none.
        let sjis = crate::encoding::resolve("shift_jis").unwrap();
        let mut file = b"A".to_vec();
        file.extend(b"\x82\xA0".repeat(3 * CHUNK));
        let summary = crate::scan::index::Summary::build(
            sjis,
            &file,
            1,
            &crate::scan::index::Progress::new(),
        )
        .unwrap();
        let hint = |offset| summary.checkpoint_before(offset);
        let mut edges = UnitEdges::new(sjis, &hint);
        let whole = (0, file.len());
        let found = quiet(|c| find_units_forward(&file, b"\xA0\x82", whole, &mut edges, c));
        assert_eq!(found, Ok(None));
        let found = quiet(|c| find_units_backward(&file, b"\x82\xA0", whole, &mut edges, c));
        assert_eq!(found, Ok(Some(file.len() - 2)));
        let found = quiet(|c| find_units_forward(&file, b"\x82\xA0", (2, 9), &mut edges, c));
        assert_eq!(found, Ok(Some(3)));
        // A match across a chunk's edge (a unit starts at every odd offset).
        let across = (CHUNK - 2, file.len());
        let found = quiet(|c| find_units_forward(&file, b"\x82\xA0", across, &mut edges, c));
        assert_eq!(found, Ok(Some(CHUNK - 1)));
        let below = (0, CHUNK);
        let found = quiet(|c| find_units_backward(&file, b"\x82\xA0", below, &mut edges, c));
        assert_eq!(found, Ok(Some(CHUNK - 1)));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn unit_searches_equal_a_naive_walk(
            bytes in proptest::collection::vec(prop_oneof![
                Just(0x82u8), Just(0xA0), Just(0xA2), Just(0xB0), Just(0xA1), Just(0x41),
                Just(0x20), Just(0x31), Just(0x1B), Just(0x24), Just(0x42), Just(0x28),
            ], 0..80),
            needle in proptest::collection::vec(prop_oneof![
                Just(0x82u8), Just(0xA0), Just(0xA2), Just(0xA1), Just(0x41), Just(0x31),
            ], 1..4),
            which in 0usize..8,
        ) {
            let labels = ["shift_jis", "euc-kr", "gbk", "gb18030", "big5", "euc-jp", "iso-2022-jp", "utf-16le"];
            let d = crate::encoding::resolve(labels[which]).unwrap();
            let expected = naive_matches(d, &bytes, &needle);
            let mut forward = Vec::new();
            let mut edges = UnitEdges::new(d, &|_| None);
            let mut from = 0;
            while let Some(i) = quiet(|c| find_units_forward(&bytes, &needle, (from, bytes.len()), &mut edges, c)).unwrap() {
                forward.push(i);
                from = i + 1;
            }
            prop_assert_eq!(&forward, &expected);
            let mut backward = Vec::new();
            let mut before = bytes.len();
            while let Some(i) = units_backward(d, &bytes, &needle, (0, before)) {
                backward.push(i);
                before = i;
            }
            backward.reverse();
            prop_assert_eq!(&backward, &expected);
        }
    }

    #[test]
    fn hex_patterns() {
        assert_eq!(parse_hex("e2 82 AC"), Ok(vec![0xE2, 0x82, 0xAC]));
        assert_eq!(parse_hex("0xe2 0x82"), Ok(vec![0xE2, 0x82]));
        assert!(parse_hex("e2 8").is_err());
        assert!(parse_hex("zz").is_err());
    }
}
