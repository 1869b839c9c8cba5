//! Detection: what an input most likely is (UTF-8, UTF-16/32, a legacy encoding, binary),
//! which parts of it are in which encoding, and where UTF-8 text went through a wrong
//! decoding (mojibake).
//!
//! [`detect`] builds on the whole-input [`Summary`] the scan made, so that the common case,
//! an input that is valid UTF-8, costs no second full reading: what the summary cannot
//! tell is looked at in samples (the first 64 KiB and fifteen 4 KiB windows spread over the
//! input, for zero bytes and controls), in the blocks that hold non-ASCII characters (for
//! mojibake and U+FEFF), and in the blocks that hold errors (for regions in other
//! encodings). chardetng guesses the legacy encoding of a region only where UTF-8 failed.
//!
//! Precision comes before recall: an input that is valid UTF-8, has no wide-text zero
//! pattern and no more than 1% control bytes in its samples is UTF-8, always; so is one
//! whose NUL bytes, however many, each end a record of text (`find -print0`).
//!
//! This layer reads `decode` and `scan`; it knows nothing of files, terminals or the
//! command line. The single-byte tables come from encoding_rs and oem_cp ([`table`]).

pub mod alphabets;
pub mod bom;
pub mod declared;
pub mod dos;
pub mod judge;
pub mod latin9;
pub mod legacy;
pub mod mojibake;
pub mod siblings;
pub mod table;
pub mod wide;

use std::ops::Range;

use crate::decode::{Dialect, Finding};
use crate::scan::index::{Summary, Verdict};
use crate::scan::pool;
use bom::Bom;
use mojibake::Mojibake;
use wide::Wide;

/// The name given to data that no text encoding explains.
pub const BINARY: &str = "binary";

/// Controls (bytes 00..08, 0B, 0E..1A, 1C..1F, 7F) above this share of the sampled bytes
/// make an input binary.
pub const CONTROL_SHARE: f64 = 0.01;

/// Fewer non-ASCII bytes than this in the regions of a legacy guess make it a weak one,
/// and the evidence says so.
pub const WEAK_GUESS_BYTES: usize = 8;

/// Mac OS Roman, as encoding_rs names it: tried where chardetng, which does not know it,
/// guesses a single-byte encoding that gives no text.
const MACINTOSH: &str = "macintosh";

/// The doubt on a legacy guess whose reading does not look like text.
const NO_TEXT: &str = "but read so it does not look like text";

/// The most bytes chardetng is fed for one region.
pub const GUESS_BYTES: usize = 1 << 20;

/// The most regions listed; an input that breaks into more is one region of the
/// encoding that covers the most of it.
pub const MAX_REGIONS: usize = 64;

/// The mark [`mark_block`] gives a block where a mojibake candidate pair starts.
pub const MARK_MOJIBAKE: u8 = 1;

/// The mark [`mark_block`] gives a block where `EF BB BF` (U+FEFF) starts.
pub const MARK_FEFF: u8 = 2;

/// What detection needs to know of a block, asked by the scan while the block is in cache
/// ([`Summary::build_marked`]): [`MARK_MOJIBAKE`] if the second character of a mojibake
/// candidate pair starts in it ([`mojibake::candidate_in`]), [`MARK_FEFF`] if `EF BB BF`
/// does. With these marks [`detect`] rereads only the marked blocks; without them (a
/// summary built by [`Summary::build`]) every block with non-ASCII bytes, with the same
/// result.
///
/// [`Summary::build_marked`]: crate::scan::index::Summary::build_marked
/// [`Summary::build`]: crate::scan::index::Summary::build
pub fn mark_block(bytes: &[u8], range: Range<usize>) -> u8 {
    let mut mark = 0;
    if mojibake::candidate_in(bytes, range.clone()) {
        mark |= MARK_MOJIBAKE;
    }
    let tail = (range.end + 2).min(bytes.len());
    let feff = memchr::memmem::find_iter(&bytes[range.start..tail], &[0xEF, 0xBB, 0xBF])
        .any(|i| i < range.len());
    if feff {
        mark |= MARK_FEFF;
    }
    mark
}

/// A stretch of an input in one encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// The encoding, as [`Detection::encoding`] names it.
    pub encoding: &'static str,
}

/// What [`detect`] concludes about one input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Detection {
    /// The encoding: `UTF-8`, `UTF-16LE`, `UTF-16BE`, `UTF-32LE`, `UTF-32BE`, `UTF-7`, a
    /// name as encoding_rs gives it (`windows-1252`, `Shift_JIS`, `gb18030` ...), or
    /// [`BINARY`]. For an input that mixes encodings, the one that covers the most bytes,
    /// except that UTF-8 wins whenever a region of it holds non-ASCII characters or is
    /// lines of ASCII text beside UTF-16 or UTF-32.
    pub encoding: &'static str,
    /// The signature at the start, if any.
    pub bom: Option<Bom>,
    /// Errors in the encoding named: for UTF-8, the UTF-8 errors in its UTF-8 regions (not
    /// the bytes of a region named as another encoding, a UTF-16 or windows-1252 region,
    /// which the evidence counts apart); unpaired surrogates and the like for UTF-16/32;
    /// for a legacy encoding, the malformed sequences of its reading (a last character cut
    /// short, a stray byte: [`legacy::guess`]), mostly 0.
    pub errors: u64,
    /// Only bytes 00..7F (so also valid in every ASCII-compatible encoding); false for
    /// ISO-2022-JP, which is 7-bit but not ASCII text, and for an input with a region of
    /// another encoding (UTF-16 of Latin letters is bytes 00..7F too).
    pub ascii: bool,
    /// The regions, in order, covering the input; one region for an input in one encoding.
    pub regions: Vec<Region>,
    /// U+FEFF after the start (`EF BB BF` in UTF-8, the code unit in UTF-16/32): offsets.
    pub inner_boms: Vec<usize>,
    /// Mojibake regions, in order (offsets into the input).
    pub mojibake: Vec<Mojibake>,
    /// Where a UTF-8 input was cut inside a character (its UTF-8 errors that say nothing
    /// against the rest); empty for any other encoding.
    pub cut: Cut,
    /// Why, in words: one short sentence each.
    pub evidence: Vec<String>,
    /// Where a legacy encoding was guessed on little evidence or reads as no text: why the
    /// guess may be wrong, in words (also in [`Detection::evidence`]). `repair --from auto`
    /// says it beside what it wrote.
    pub doubt: Option<String>,
}

impl Detection {
    /// Adds `why` to [`Detection::doubt`], after the encoding's name where it is the first.
    fn add_doubt(&mut self, why: &str) {
        self.doubt = Some(match self.doubt.take() {
            Some(before) => format!("{before}; {why}"),
            None => format!("{}: {why}", self.encoding),
        });
    }

    /// The one-line verdict: `UTF-8`, `UTF-8 with 3 errors`, `ASCII (also valid UTF-8)`
    /// (only where [`Detection::ascii`], so never with a region of another encoding),
    /// `UTF-16LE`, `windows-1252`, `binary` ...
    pub fn headline(&self) -> String {
        if self.encoding == "UTF-8" && self.ascii && self.errors == 0 {
            return "ASCII (also valid UTF-8)".to_string();
        }
        if self.encoding == "UTF-8" && self.errors > 0 && self.errors == self.cut.units() {
            let ends = match (self.cut.start > 0, self.cut.end.is_some()) {
                (true, true) => "both ends",
                (true, false) => "the start",
                (false, _) => "the end",
            };
            return format!("UTF-8, cut short at {ends}");
        }
        match self.errors {
            0 => self.encoding.to_string(),
            1 => format!("{} with 1 error", self.encoding),
            n => format!("{} with {n} errors", self.encoding),
        }
    }
}

/// Where an input was cut inside a UTF-8 character: at its start, which is then the last
/// bytes of a character, or at its end, which cuts the last character short (the scan's
/// `truncated_eof`). Each is a UTF-8 error that says nothing against the rest: a file cut
/// by a size limit, a split, a network read.
///
/// ```
/// use hexrune::decode::Dialect;
/// use hexrune::detect::Cut;
/// use hexrune::scan::index::Summary;
/// let bytes = b"\x98\x80 smile \xF0\x9F\x98";
/// let summary = Summary::build_parallel(Dialect::Utf8, bytes);
/// assert_eq!(Cut::of(bytes, &summary), Cut { start: 2, end: Some(9) });
/// // A lone lead byte after ASCII alone is no cut.
/// let bytes = b"caf\xE9";
/// let summary = Summary::build_parallel(Dialect::Utf8, bytes);
/// assert_eq!(Cut::of(bytes, &summary), Cut { start: 0, end: None });
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cut {
    /// The continuation bytes the input starts with (1 to 3, one error unit each), when
    /// more bytes follow them; 0 when it starts at a character.
    pub start: usize,
    /// The offset of the last character, when the end of the input cuts it short.
    pub end: Option<usize>,
}

impl Cut {
    /// The cuts of `bytes`, from `summary`, its UTF-8 scan.
    pub fn of(bytes: &[u8], summary: &Summary) -> Cut {
        let start = bytes
            .iter()
            .take(4)
            .take_while(|b| (0x80..=0xBF).contains(*b))
            .count();
        // Four continuation bytes end no character; nothing after them is no text; and
        // the cut excuses them only where the rest of their line reads as UTF-8 (up to a
        // character cut by the line's end): the second byte of a character of Shift_JIS
        // or EUC-KR is often a continuation byte too (`ありがとう` is `82 A0 82 E8 ..`).
        let start = if start <= 3 && start < bytes.len() && utf8_line_at(bytes, start) {
            start
        } else {
            0
        };
        // As the scan's verdict takes it (a lone lead byte after ASCII alone, `caf` E9, is
        // as much a byte of a single-byte encoding).
        let end = summary.cut_at_end(bytes).filter(|at| *at >= start);
        Cut { start, end }
    }

    /// The error units of the cuts.
    pub fn units(&self) -> u64 {
        self.start as u64 + u64::from(self.end.is_some())
    }

    /// Whether the error unit at `at` is one of the cuts.
    fn covers(&self, at: usize) -> bool {
        at < self.start || self.end == Some(at)
    }

    /// The cuts in words, one sentence each.
    fn evidence(&self, bytes: &[u8]) -> Vec<String> {
        let mut out = Vec::new();
        if self.start > 0 {
            out.push(format!(
                "it starts inside a character: {} at 0 {} the end of one",
                hex(&bytes[..self.start]),
                if self.start == 1 { "is" } else { "are" }
            ));
        }
        if let Some(at) = self.end {
            out.push(format!(
                "the last character is cut short by the end of the input: {} at {at}",
                hex(&bytes[at..])
            ));
        }
        out
    }
}

/// Whether the line of `bytes` from `at` (up to its line feed, at most [`LINE_MAX`] bytes)
/// is valid UTF-8 but perhaps for a character cut short by its end.
fn utf8_line_at(bytes: &[u8], at: usize) -> bool {
    let end = bytes.len().min(at + LINE_MAX);
    let end = memchr::memchr(b'\n', &bytes[at..end]).map_or(end, |i| at + i);
    match std::str::from_utf8(&bytes[at..end]) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none(),
    }
}

/// Bytes as upper-case hex pairs: `F0 9F 98` (a cut's bytes, a BOM's).
fn hex(bytes: &[u8]) -> String {
    let pairs: Vec<String> = bytes.iter().map(|b| format!("{b:02X}")).collect();
    pairs.join(" ")
}

/// Detects what `bytes` is, from `summary`, the UTF-8 scan of the same bytes: from the
/// bytes alone, then weighed against what the input declares of itself (an XML
/// declaration, a `<meta>` charset, a coding cookie, a CSS `@charset`: [`declared`]).
pub fn detect(bytes: &[u8], summary: &Summary) -> Detection {
    declared::weigh(detect_bytes(bytes, summary), bytes, summary)
}

/// What `bytes` is by its bytes alone ([`detect`] before any declaration is weighed).
fn detect_bytes(bytes: &[u8], summary: &Summary) -> Detection {
    let bom = Bom::at_start(bytes);
    let mut d = Detection {
        encoding: "UTF-8",
        bom,
        errors: 0,
        ascii: summary.len > 0 && summary.tally.classes[1] == summary.len,
        regions: Vec::new(),
        inner_boms: Vec::new(),
        mojibake: Vec::new(),
        cut: Cut::default(),
        evidence: Vec::new(),
        doubt: None,
    };
    if let Some(b) = bom {
        d.evidence.push(format!(
            "starts with the {} signature {}",
            b.encoding(),
            b.hex()
        ));
        let wide = match b {
            Bom::Utf16Le => Some(Wide::Utf16Le),
            Bom::Utf16Be => Some(Wide::Utf16Be),
            Bom::Utf32Le => Some(Wide::Utf32Le),
            Bom::Utf32Be => Some(Wide::Utf32Be),
            _ => None,
        };
        if let Some(w) = wide {
            if let Some(d) = utf8_behind_utf16_bom(d.clone(), b, bytes, summary) {
                return d;
            }
            return wide_input(d, w, bytes, b.len());
        }
        if matches!(b, Bom::Utf7 | Bom::Gb18030) {
            d.encoding = b.encoding();
            d.ascii = false;
            d.regions.push(Region {
                start: 0,
                end: bytes.len(),
                encoding: d.encoding,
            });
            return d;
        }
    }
    if bytes.is_empty() {
        // No byte outside ASCII, and one region, as for any input in one encoding.
        d.ascii = true;
        d.regions.push(Region {
            start: 0,
            end: 0,
            encoding: d.encoding,
        });
        d.evidence.push("empty".to_string());
        return d;
    }
    let sample = Sample::of(bytes);
    // Runs of NUL bytes a crash or a preallocation left in a log of UTF-8 text (valid but
    // for a cut at its end) are no evidence of another encoding.
    let padding = (sample.zeros > 0 && sample.controls == 0 && sample.pattern.is_none())
        .then(|| NulPadding::of(bytes))
        .flatten()
        .filter(|p| {
            summary.tally.error_count() == Cut::of(bytes, summary).units() + p.cut_before as u64
        });
    // A line of ASCII text is no UTF-16 or UTF-32 (their text has zero bytes or controls
    // in every line): an input with one, or that starts or ends with a shorter one, is
    // named wide only where its regions say so (below), and is otherwise UTF-8 with a
    // wide region.
    let ascii = std::cell::OnceCell::new();
    let ascii_lines = || {
        *ascii.get_or_init(|| {
            let n = bytes.len();
            ascii_line_in(bytes, 0..n.min(64 << 10))
                || ascii_line_in(bytes, n.saturating_sub(4096)..n)
                || ascii_edge_line(bytes)
        })
    };
    if let Some(w) = sample.wide.filter(|_| !ascii_lines()) {
        d.evidence.push(format!(
            "no byte order mark; zero bytes where {} puts them",
            w.name()
        ));
        return wide_input(d, w, bytes, 0);
    }
    // Wide text whose zero bytes show no pattern (Cyrillic, Greek, CJK ... fill both bytes
    // of their units): UTF-8 has errors in it, or it is controls or NUL bytes to UTF-8
    // (not NUL bytes that end records of valid UTF-8, which wide text does not make: its
    // units give controls or errors to UTF-8).
    let doubtful = summary.tally.error_count() > 0
        || sample.control_share() > CONTROL_SHARE
        || (sample.zero_share() > CONTROL_SHARE && !sample.nul_records() && padding.is_none());
    let head = &bytes[..bytes.len().min(64 << 10)];
    if sample.zeros > 0 && doubtful && !ascii_lines() {
        if let Some((w, reading)) = wide::read_as_text(head) {
            d.evidence
                .push(read_as_evidence(w, &reading, head.len(), bytes.len()));
            return wide_input(d, w, bytes, 0);
        }
        // A line of CJK too short for that, whose line feed holds its only zero bytes and
        // whose controls are halves of its units.
        if let Some((w, reading)) = wide::read_line_as_text(head) {
            d.evidence.push(format!(
                "{}; one line ending in {}'s line feed{}",
                read_as_evidence(w, &reading, head.len(), bytes.len()),
                w.name(),
                match sample.controls {
                    0 => String::new(),
                    1 => ", its 1 byte that is a control alone is half of one of its units"
                        .to_string(),
                    n => format!(", its {n} bytes that are controls alone are halves of its units"),
                }
            ));
            return wide_input(d, w, bytes, 0);
        }
    }
    // UTF-16 without a zero byte has no space or line end: one word, or a line of a
    // script without spaces. Asked only of bytes with controls, which no legacy text has.
    if sample.zeros == 0 && sample.control_share() > CONTROL_SHARE {
        if let Some((w, reading)) = wide::read_unspaced_as_text(head) {
            d.evidence
                .push(read_as_evidence(w, &reading, head.len(), bytes.len()));
            return wide_input(d, w, bytes, 0);
        }
    }
    // A block of wide text inside other text (Cyrillic's units are 04 after an ASCII
    // letter in UTF-16LE) puts controls there; its region explains them.
    let mut read = None;
    if sample.control_share() > CONTROL_SHARE && sample.zeros > 0 && wide_lines_in_head(bytes) {
        let found = utf8_input(d.clone(), bytes, summary, true);
        if wide_regions_explain_controls(&found.regions, bytes) {
            read = Some(found);
        }
    }
    // A paragraph of Chinese, Japanese or Korean in UTF-16 on one line, without a space:
    // its controls are all low bytes of its units.
    if sample.control_share() > CONTROL_SHARE && read.is_none() && !ascii_lines() {
        if let Some((w, reading)) = wide::read_cjk_as_text(head) {
            d.evidence.push(format!(
                "{}; {}",
                read_as_evidence(w, &reading, head.len(), bytes.len()),
                match sample.controls {
                    1 => "its 1 byte that is a control alone is the low half of one of its units"
                        .to_string(),
                    n => format!(
                        "its {n} bytes that are controls alone are all low halves of its units"
                    ),
                }
            ));
            return wide_input(d, w, bytes, 0);
        }
    }
    if sample.control_share() > CONTROL_SHARE && read.is_none() {
        let why = format!(
            "{} no text encoding explains",
            share(
                sample.controls,
                sample.bytes,
                ("sampled byte", "sampled bytes"),
                ("is a control", "are controls")
            )
        );
        return binary(d, bytes, why + &sample.not_text());
    }
    if d.ascii && d.bom.is_none() {
        if let Some(d) = iso_2022_jp(d.clone(), bytes) {
            return d;
        }
    }
    let fresh = d.clone();
    let mut d = match read {
        Some(found) => found,
        None => utf8_input(d, bytes, summary, sample.zeros > 0 && padding.is_none()),
    };
    if let [only] = d.regions.as_slice() {
        // Wide text throughout, which the samples did not show clearly enough alone.
        let w = [Wide::Utf16Le, Wide::Utf16Be, Wide::Utf32Le, Wide::Utf32Be]
            .into_iter()
            .find(|w| w.name() == only.encoding);
        if let Some(w) = w {
            let mut d = fresh;
            d.evidence.push(format!(
                "no byte order mark; zero bytes where {} puts them",
                w.name()
            ));
            return wide_input(d, w, bytes, 0);
        }
    }
    let wide_found = d
        .regions
        .iter()
        .any(|r| r.encoding.starts_with("UTF-16") || r.encoding.starts_with("UTF-32"));
    // `find -print0`, `xargs -0`, `/proc/PID/environ`: UTF-8 text in records that NUL
    // bytes end, however many of them there are; or a NUL in a field of a CSV, a string of
    // CESU-8, inside a line of text.
    let text = matches!(d.encoding, "UTF-8" | "CESU-8") && d.errors == d.cut.units();
    if !wide_found && sample.nul_records() && text {
        d.evidence.push(sample.nul_evidence(bytes));
        return d;
    }
    // A log a crash or a preallocation left NUL bytes in: runs of them between (or after)
    // lines of text that is otherwise valid UTF-8, but for the characters a crash cut
    // short before the padding.
    let padded_text = padding.as_ref().is_some_and(|p| {
        matches!(d.encoding, "UTF-8" | "CESU-8") && d.errors == d.cut.units() + p.cut_before as u64
    });
    if let Some(padding) = padding.filter(|_| !wide_found && padded_text) {
        d.evidence.push(padding.evidence());
        return d;
    }
    if !wide_found && sample.zero_share() > CONTROL_SHARE {
        // Below wide::MIN_BYTES no pattern is looked for at all: say so, not that there
        // is none.
        let why = if sample.bytes < wide::MIN_BYTES {
            format!(
                "{}, too short to tell UTF-16 or UTF-32 by its zero bytes ({} needed)",
                share(
                    sample.zeros,
                    sample.bytes,
                    ("byte", "bytes"),
                    ("is NUL", "are NUL")
                ),
                counted(wide::MIN_BYTES as u64, "byte", "bytes")
            )
        } else {
            format!(
                "{}, and neither UTF-16 nor UTF-32 decodes the input as text",
                share(
                    sample.zeros,
                    sample.bytes,
                    ("sampled byte", "sampled bytes"),
                    ("is NUL", "are NUL")
                )
            )
        };
        return binary(d, bytes, why + &sample.not_text());
    }
    d
}

/// Whether lines of wide text in the first 64 KiB of `bytes` explain its controls: some
/// line with a zero byte and a control reads as UTF-16 or UTF-32 text (from either
/// alignment), and the other lines are at most [`CONTROL_SHARE`] controls. A quick look
/// before the regions of the whole input are found: an executable or other binary has
/// no such lines, and is not read line by line.
fn wide_lines_in_head(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(64 << 10)];
    let (mut pos, mut outside, mut controls, mut wide) = (0, 0usize, 0usize, false);
    while pos < head.len() {
        let stop = line_end(head, pos, head.len(), true);
        let whole = if head.get(stop) == Some(&0) {
            stop + 1
        } else {
            stop
        };
        let line = &head[pos..stop];
        let n = line.iter().filter(|b| wide::is_control(**b)).count();
        let reads = |from: usize| wide::text_in(&head[from..whole], None).is_some();
        if n > 0
            && line.len() > wide::MIN_BYTES
            && head[pos..whole].contains(&0)
            && (reads(pos) || reads(pos + 1))
        {
            wide = true;
        } else {
            outside += line.len();
            controls += n;
        }
        pos = stop;
    }
    wide && controls as f64 <= outside as f64 * CONTROL_SHARE
}

/// Whether `regions` hold UTF-16 or UTF-32 and, outside them, the first 64 KiB of `bytes`
/// are at most [`CONTROL_SHARE`] controls.
fn wide_regions_explain_controls(regions: &[Region], bytes: &[u8]) -> bool {
    let head = bytes.len().min(64 << 10);
    let is_wide = |r: &Region| r.encoding.starts_with("UTF-16") || r.encoding.starts_with("UTF-32");
    if !regions.iter().any(is_wide) {
        return false;
    }
    let (mut outside, mut controls) = (0usize, 0usize);
    for r in regions.iter().filter(|r| !is_wide(r) && r.start < head) {
        let part = &bytes[r.start..r.end.min(head)];
        outside += part.len();
        controls += part.iter().filter(|b| wide::is_control(**b)).count();
    }
    controls as f64 <= outside as f64 * CONTROL_SHARE
}

/// The evidence of wide text found by decoding ([`wide::read_as_text`]): `read` of `len`
/// bytes read as `w` gave `reading`.
fn read_as_evidence(w: Wide, reading: &wide::Reading, read: usize, len: usize) -> String {
    format!(
        "no byte order mark; read as {}, {} {} text: {} of {} are letters{}, {}{}",
        w.name(),
        if read == len {
            "the input".to_string()
        } else {
            format!("its first {} bytes", read)
        },
        if read == len { "is" } else { "are" },
        reading.letters,
        counted(reading.chars as u64, "character", "characters"),
        match reading.scripts_named().as_str() {
            "" => String::new(),
            named => format!(" ({named})"),
        },
        counted(
            reading.spaces as u64,
            "is a space or line end",
            "are spaces or line ends"
        ),
        match reading.odd {
            0 => String::new(),
            n => format!(
                ", {} unassigned, private or a control",
                counted(n as u64, "is", "are")
            ),
        }
    )
}

/// The UTF-16 or UTF-32 that the zero bytes of `bytes` show, in the samples [`detect`]
/// reads (the first 64 KiB and fifteen 4 KiB windows over the rest): what it names an
/// input with no byte order mark before anything else. `None` when they show no clear
/// pattern (or there are fewer than [`wide::MIN_BYTES`] bytes).
///
/// ```
/// use hexrune::detect::{wide::Wide, zero_pattern};
/// let le: Vec<u8> = "hello world, this is some text\n".encode_utf16().flat_map(u16::to_le_bytes).collect();
/// assert_eq!(zero_pattern(&le), Some(Wide::Utf16Le));
/// assert_eq!(zero_pattern(b"hello world, this is some text\n"), None);
/// ```
pub fn zero_pattern(bytes: &[u8]) -> Option<Wide> {
    Sample::of(bytes).wide
}

/// UTF-16 or UTF-32 without a byte order mark (asked of an input whose mark, if any, was
/// looked at first), as `check`'s hint and the viewer say it: nothing without a zero byte
/// in the first 64 KiB (a text file costs one `memchr`); what the zero bytes show
/// ([`zero_pattern`]); in an input of [`SHORT_WIDE`] bytes or less whose zero bytes show no
/// pattern alone (`😀` is `3D D8 00 DE` in UTF-16LE, a zero where a high byte stands), what
/// detection names it whole. `summary` is the input's scan in the UTF-8 family, scanned
/// here where there is none yet (the viewer's, at the start).
pub fn wide_without_mark(bytes: &[u8], summary: Option<&Summary>) -> Option<Wide> {
    memchr::memchr(0, &bytes[..bytes.len().min(64 << 10)])?;
    zero_pattern(bytes).or_else(|| {
        if bytes.len() > SHORT_WIDE {
            return None;
        }
        let scanned;
        let summary = match summary {
            Some(s) => s,
            None => {
                let progress = crate::scan::index::Progress::new();
                scanned = Summary::build(Dialect::Utf8, bytes, 1, &progress)?;
                &scanned
            }
        };
        let named = detect(bytes, summary).encoding;
        [Wide::Utf16Le, Wide::Utf16Be, Wide::Utf32Le, Wide::Utf32Be]
            .into_iter()
            .find(|w| w.name() == named)
    })
}

/// The longest input whose UTF-16 or UTF-32 reading [`wide_without_mark`] asks detection
/// about where its zero bytes alone show no pattern.
const SHORT_WIDE: usize = 64 << 10;

/// A 7-bit input with ISO-2022-JP's escapes to JIS X 0208 (`ESC $ B`, `ESC $ @`) that
/// chardetng confirms: ASCII bytes, but Japanese text. Plain ASCII has no ESC `$`.
fn iso_2022_jp(mut d: Detection, bytes: &[u8]) -> Option<Detection> {
    let head = &bytes[..bytes.len().min(GUESS_BYTES)];
    let escapes =
        memchr::memmem::find(head, b"\x1B$B").or_else(|| memchr::memmem::find(head, b"\x1B$@"));
    escapes?;
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
    detector.feed(head, head.len() == bytes.len());
    let guess = detector.guess(None, chardetng::Utf8Detection::Deny);
    if guess != encoding_rs::ISO_2022_JP {
        return None;
    }
    d.encoding = guess.name();
    d.ascii = false;
    d.evidence
        .push("7-bit text with ISO-2022-JP escapes to JIS X 0208 (ESC $ B)".to_string());
    d.regions = vec![Region {
        start: 0,
        end: bytes.len(),
        encoding: d.encoding,
    }];
    Some(d)
}

/// Whether the bytes after a UTF-16 signature of `bom_len` bytes at the start of `bytes`
/// are valid UTF-8 with no zero byte (and not none), no more than [`CONTROL_SHARE`] of
/// them control bytes, and no more than half of them units whose high byte is below 20:
/// UTF-8 text the mark contradicts. Cyrillic in UTF-16LE is valid UTF-8 with no zero byte
/// too, half of it the control `04`; Devanagari half the tab `09`.
///
/// ```
/// use hexrune::detect::utf8_after_utf16_bom;
/// assert!(utf8_after_utf16_bom(b"\xFF\xFEh\xC3\xA9llo\n", 2));
/// assert!(!utf8_after_utf16_bom(b"\xFF\xFEh\x00i\x00", 2));
/// // "мир" in UTF-16LE.
/// assert!(!utf8_after_utf16_bom(b"\xFF\xFE\x3C\x04\x38\x04\x40\x04", 2));
/// ```
pub fn utf8_after_utf16_bom(bytes: &[u8], bom_len: usize) -> bool {
    let rest = &bytes[bom_len.min(bytes.len())..];
    let controls = rest.iter().filter(|b| wide::is_control(**b)).count();
    // The high byte of each code unit in the mark's byte order: UTF-16 text of a script
    // between U+0100 and U+1FFF has one from 01 to 1F in most units.
    let high = match bytes.first() {
        Some(0xFE) => 0,
        _ => 1,
    };
    let low_rows = rest
        .chunks_exact(2)
        .filter(|unit| (0x01..0x20).contains(&unit[high]))
        .count();
    !rest.is_empty()
        && memchr::memchr(0, rest).is_none()
        && controls as f64 <= rest.len() as f64 * CONTROL_SHARE
        && low_rows * 2 <= rest.len() / 2
        && simdutf8::basic::from_utf8(rest).is_ok()
}

/// An input that starts with a UTF-16 signature but whose bytes after it are valid UTF-8
/// with no zero byte: UTF-8 text behind a mark that contradicts it (a UTF-16 reading gives
/// CJK characters of ASCII pairs). Its UTF-8 errors are the mark's bytes.
fn utf8_behind_utf16_bom(
    mut d: Detection,
    bom: Bom,
    bytes: &[u8],
    summary: &Summary,
) -> Option<Detection> {
    if !utf8_after_utf16_bom(bytes, bom.len()) {
        return None;
    }
    let multibyte: u64 = summary.tally.classes[2..].iter().sum();
    d.encoding = "UTF-8";
    d.ascii = false;
    d.errors = summary.tally.error_count();
    d.regions = vec![Region {
        start: 0,
        end: bytes.len(),
        encoding: "UTF-8",
    }];
    d.evidence.push(format!(
        "but the bytes after it are valid UTF-8 ({}) with no zero byte: the signature contradicts them",
        match multibyte {
            0 => "ASCII only".to_string(),
            n => counted(n, "multi-byte character", "multi-byte characters"),
        }
    ));
    Some(d)
}

/// A short region of UTF-8 with errors beside a legacy region, whose bytes that region's
/// guess reads whole as words of one script that is not Latin, is part of it: a short line
/// of GBK, EUC-KR or Shift_JIS often has as many valid UTF-8 characters as errors by
/// accident (`好的。` is `BA C3 B5 C4 A1 A3`: `õ`, `ġ` and two errors), which made a region
/// of "UTF-8" of it, and of the whole file UTF-8 with errors.
fn absorb_accidental_utf8(
    bytes: &[u8],
    regions: &mut [(Range<usize>, Kind)],
    guesses: &mut Vec<(usize, &'static str)>,
) {
    for i in 0..regions.len() {
        let (range, kind) = &regions[i];
        if *kind != Kind::Utf8 || range.len() > LINE_MAX {
            continue;
        }
        let piece = &bytes[range.clone()];
        if simdutf8::basic::from_utf8(piece).is_ok() {
            continue;
        }
        let guess_of = |j: usize| match regions.get(j)? {
            (r, Kind::Legacy) => guesses
                .iter()
                .find(|(at, _)| *at == r.start)
                .map(|(_, g)| *g),
            _ => None,
        };
        let neighbours = [i.checked_sub(1).and_then(guess_of), guess_of(i + 1)];
        let Some(guess) = neighbours.into_iter().flatten().find(|g| {
            encoding_rs::Encoding::for_label(g.as_bytes()).is_some_and(|e| {
                e.decode_without_bom_handling_and_without_replacement(piece)
                    .is_some()
            }) && legacy::one_script_words(piece, g)
        }) else {
            continue;
        };
        guesses.push((range.start, guess));
        regions[i].1 = Kind::Legacy;
    }
}

/// The region `range` named `guess`, cut where its lines are of two legacy encodings: a
/// line whose reading through `guess` has a word of ASCII letters and letters of another
/// script (`arrivйs`, French read as windows-1251) is read through the encoding chardetng
/// names for it alone, where that reading has no such word and is text. A line of ASCII
/// goes with the line before it. A line that is no text through `guess` but has no such
/// word is not asked (a line of box drawing in KOI8-R, a cell of a CSV alone): on one
/// line, chardetng names an encoding with little to go on. One piece, `guess`'s, where every
/// line reads so; `guess` as it is where encoding_rs does not know it (the DOS code pages).
///
/// Two single-byte encodings of one script give words of that script either way; but
/// where one puts the small letters the other puts the capitals (KOI8-R and windows-1251),
/// a line of one read through the other is in capitals but for the first letter of a
/// sentence (`Вчера мы` in KOI8-R is `чЮЕТА ЬЩ` to windows-1251): such a line
/// ([`case_inverted`]) is read through an encoding whose reading is not, as above. Two
/// multi-byte encodings of one script (Shift_JIS and GBK) are not told apart line by line.
fn lines_of_another_encoding(
    bytes: &[u8],
    range: Range<usize>,
    guess: &'static str,
) -> Vec<(Range<usize>, &'static str)> {
    let whole = vec![(range.clone(), guess)];
    let Some(encoding) = encoding_rs::Encoding::for_label(guess.as_bytes()) else {
        return whole;
    };
    // A single-byte encoding whose letters are all Latin gives no word of another script;
    // one of another script gives such a word only where an ASCII letter stands beside a
    // byte above 7F. A multi-byte one's second bytes may be ASCII letters: its lines are
    // asked up to the bytes its guess rests on.
    // By byte of a single-byte encoding: 1 where it is a capital (`upper`), a small
    // letter (`lower`).
    let (mut upper, mut lower) = ([0u32; 256], [0u32; 256]);
    let (end, single_byte) = match encoding.is_single_byte() {
        true => {
            let high: Vec<u8> = (0x80..=0xFF).collect();
            let (letters, _) = encoding.decode_without_bom_handling(&high);
            if !letters.chars().any(judge::is_letter_of_another_script) {
                return whole;
            }
            for (k, c) in letters.chars().enumerate().take(128) {
                upper[0x80 + k] = u32::from(judge::is_upper(c));
                lower[0x80 + k] = u32::from(judge::is_lower(c));
            }
            (range.end, true)
        }
        false => (range.end.min(range.start + GUESS_BYTES), false),
    };
    // Capitals more than twice as many as small letters, by the bytes: a line that may be
    // of a code page with the cases the other way round (decoded only then).
    let mostly_capitals = |line: &[u8]| {
        let (mut capitals, mut small) = (0u32, 0u32);
        for &b in line {
            capitals += upper[usize::from(b)];
            small += lower[usize::from(b)];
        }
        capitals >= 8 && capitals > 2 * small
    };
    let beside_ascii_letter = |line: &[u8]| {
        line.windows(2).any(|w| {
            (w[0].is_ascii_alphabetic() && w[1] >= 0x80)
                || (w[0] >= 0x80 && w[1].is_ascii_alphabetic())
        })
    };
    // The lines' own guesses that were no better, as many as are asked for.
    const MAX_ASKED: usize = 16;
    let mut asked = 0;
    // The encodings lines were found in.
    let mut found: Vec<&'static str> = Vec::new();
    let mut out: Vec<(Range<usize>, &'static str)> = Vec::new();
    let mut pos = range.start;
    while pos < end {
        let stop = memchr::memchr(b'\n', &bytes[pos..end]).map_or(end, |i| pos + i + 1);
        let line = &bytes[pos..stop];
        let own = match line.is_ascii() {
            true => None,
            false if single_byte && !beside_ascii_letter(line) && !mostly_capitals(line) => {
                Some(guess)
            }
            false => {
                let (text, _) = encoding.decode_without_bom_handling(line);
                match words_mix_ascii_and_another_script(&text) || case_inverted(&text) {
                    false => Some(guess),
                    true => {
                        // An encoding met before in the region first (the German lines
                        // between Greek ones are one encoding, whichever chardetng names
                        // for a line alone); then chardetng's guess for the line, until it
                        // has named none that fits a number of times (words like `QAшник`
                        // are the text's own, on every line).
                        let reads = |other: &'static str| {
                            other != guess
                                && encoding_rs::Encoding::for_label(other.as_bytes()).is_some_and(
                                    |e| {
                                        let (text, _) = e.decode_without_bom_handling(line);
                                        !words_mix_ascii_and_another_script(&text)
                                            && !case_inverted(&text)
                                            && siblings::fits_one_language(&text)
                                    },
                                )
                                && reads_as_text(line, other)
                        };
                        let met = found.iter().copied().find(|e| reads(e));
                        let other = met.or_else(|| {
                            (asked < MAX_ASKED)
                                .then(|| legacy::guess(line).encoding)
                                .filter(|e| {
                                    let fits = reads(e);
                                    if fits {
                                        found.push(e);
                                    } else {
                                        asked += 1;
                                    }
                                    fits
                                })
                        });
                        Some(other.unwrap_or(guess))
                    }
                }
            }
        };
        match (out.last_mut(), own) {
            (Some((r, e)), Some(own)) if *e == own => r.end = stop,
            (Some((r, _)), None) => r.end = stop,
            (_, own) => out.push((pos..stop, own.unwrap_or(guess))),
        }
        pos = stop;
    }
    if let Some((r, _)) = out.last_mut() {
        // The rest of a multi-byte region past the lines asked.
        r.end = range.end;
    }
    match out.iter().all(|(_, e)| *e == guess) {
        true => whole,
        false => out,
    }
}

/// Whether `text` is letters in the wrong case, as a code page with the cases the other
/// way round reads a line (`чЮЕТА ЬЩ ЗХМСМЙ` for `Вчера мы гуляли` in KOI8-R read as
/// windows-1251): of its letters beyond ASCII, at least 8 capitals and more than twice as
/// many as small letters, and a small letter first or a word that goes on in capitals
/// after a small letter, which a heading in capitals has neither of.
///
/// ```
/// use hexrune::detect::case_inverted;
/// assert!(case_inverted("чЮЕТА ЬЩ ЗХМСМЙ Ч РБТЛЕ"));
/// assert!(case_inverted("ъ ДСЛЮЧ, ВРН ГЮБРПЮ"));
/// assert!(!case_inverted("ВВЕДЕНИЕ В ТЕОРИЮ ЧИСЕЛ"));
/// assert!(!case_inverted("Вчера мы гуляли в парке"));
/// ```
pub fn case_inverted(text: &str) -> bool {
    let (mut upper, mut lower) = (0usize, 0usize);
    let mut inside = false;
    let mut first_small = None;
    let mut prev: Option<char> = None;
    for c in text.chars() {
        if !c.is_ascii() {
            upper += usize::from(judge::is_upper(c));
            lower += usize::from(judge::is_lower(c));
        }
        if judge::is_letter(c) && first_small.is_none() {
            first_small = Some(judge::is_lower(c));
        }
        if let Some(p) = prev {
            inside |= !c.is_ascii() && judge::is_upper(c) && judge::is_lower(p) && !p.is_ascii();
        }
        prev = Some(c);
    }
    upper >= 8 && upper > 2 * lower && (inside || first_small == Some(true))
}

/// Whether a word of `text` (a run of letters and marks) has an ASCII letter and a letter
/// of a script other than Latin.
fn words_mix_ascii_and_another_script(text: &str) -> bool {
    let (mut ascii, mut other) = (false, false);
    for c in text.chars() {
        if c.is_ascii_alphabetic() {
            ascii = true;
        } else if judge::is_letter(c) {
            other |= judge::is_letter_of_another_script(c);
        } else if !c.is_alphanumeric() && !judge::is_attached(c) {
            // The word ends.
            if ascii && other {
                return true;
            }
            (ascii, other) = (false, false);
        }
    }
    ascii && other
}

/// Why a sibling replaced chardetng's guess: `chardetng reads it as windows-1252, whose
/// letters fit no one language a line (3 letters off: õ); as windows-1250 they do`.
fn refit_evidence(r: &siblings::Refit) -> String {
    let shown: Vec<String> = r.shown.iter().map(char::to_string).collect();
    let off = match shown.is_empty() {
        true => counted(r.guess_misfits as u64, "letter off", "letters off"),
        false => format!(
            "{}: {}",
            counted(r.guess_misfits as u64, "letter off", "letters off"),
            shown.join(" ")
        ),
    };
    format!(
        "chardetng reads it as {}, whose letters fit no one language a line ({off}); as {} {}",
        r.guess,
        r.encoding,
        match r.misfits {
            0 => "they do".to_string(),
            n => format!("all but {}", counted(n as u64, "letter", "letters")),
        }
    )
}

/// NUL bytes that pad text rather than belong to it: every run of them at least
/// [`NulPadding::MIN_RUN`] bytes long (or ending the input) and a line of text between
/// each two, as a crash leaves in a log whose blocks were allocated but not yet written,
/// or a log file preallocated and written up to some point; with at least
/// [`wide::MIN_BYTES`] bytes of text besides. Judged on the whole input (it stops at the
/// first run that is not so): UTF-16 and UTF-32 put their zero bytes in runs of one to
/// three, a NUL that ends a record is one, a binary format's fields leave short runs
/// between its numbers, and records padded to a fixed width have no line feed between
/// their runs.
#[derive(Clone, Debug, PartialEq, Eq)]
struct NulPadding {
    runs: usize,
    zeros: usize,
    /// Runs right after a character cut short: the text a crash stopped inside a
    /// character (each an error of UTF-8 that is no evidence of another encoding).
    cut_before: usize,
    /// The first run.
    first: std::ops::Range<usize>,
}

impl NulPadding {
    const MIN_RUN: usize = 16;
    /// More runs than this are a format's fields or records, not a log's crashes.
    const MAX_RUNS: usize = 16;

    fn of(bytes: &[u8]) -> Option<NulPadding> {
        let mut found: Option<NulPadding> = None;
        let mut pos = 0;
        while let Some(i) = memchr::memchr(0, &bytes[pos..]) {
            let start = pos + i;
            let end = bytes[start..]
                .iter()
                .position(|&b| b != 0)
                .map_or(bytes.len(), |k| start + k);
            let short = end - start < Self::MIN_RUN && end < bytes.len();
            // Records padded to a fixed width have no line between their runs.
            let no_line = found.is_some() && memchr::memchr(b'\n', &bytes[pos..start]).is_none();
            if short || no_line {
                return None;
            }
            let p = found.get_or_insert(NulPadding {
                runs: 0,
                zeros: 0,
                cut_before: 0,
                first: start..end,
            });
            p.runs += 1;
            p.zeros += end - start;
            p.cut_before += usize::from(cut_before(&bytes[..start]));
            if p.runs > Self::MAX_RUNS {
                return None;
            }
            pos = end;
        }
        found.filter(|p| bytes.len() - p.zeros >= wide::MIN_BYTES)
    }

    /// `4096 NUL bytes in 1 run at 12000, in text: padding, as a crash or a
    /// preallocation leaves in a log; no other control`.
    fn evidence(&self) -> String {
        let cut = match self.cut_before {
            0 => String::new(),
            1 => "; the character before one run is cut short there (the 1 error)".to_string(),
            n => format!("; the characters before {n} runs are cut short there (the {n} errors)"),
        };
        format!(
            "{} in {}, in text: padding, as a crash or a preallocation leaves in a log; no other control{cut}",
            counted(self.zeros as u64, "NUL byte", "NUL bytes"),
            match self.runs {
                1 => format!("1 run at {}", self.first.start),
                n => format!(
                    "{n} runs (the first at {}, {} long)",
                    self.first.start,
                    counted(self.first.len() as u64, "byte", "bytes")
                ),
            },
        )
    }
}

/// Whether `text` ends inside a character: a lead byte with fewer continuation bytes
/// after it than it needs (what a crash leaves where a write stopped mid-character), as
/// the decoder reads its last unit.
fn cut_before(text: &[u8]) -> bool {
    text.len().checked_sub(1).is_some_and(|last| {
        Dialect::Utf8.unit_containing(text, last).error_kind()
            == Some(crate::decode::ErrorKind::TruncatedEof)
    })
}

/// An input no text encoding explains.
fn binary(mut d: Detection, bytes: &[u8], why: String) -> Detection {
    d.encoding = BINARY;
    d.ascii = false;
    d.errors = 0;
    d.mojibake.clear();
    d.inner_boms.clear();
    d.cut = Cut::default();
    d.evidence = vec![why];
    d.regions = vec![Region {
        start: 0,
        end: bytes.len(),
        encoding: BINARY,
    }];
    d
}

/// An input in UTF-16 or UTF-32 (after a signature of `skip` bytes, or none).
fn wide_input(mut d: Detection, w: Wide, bytes: &[u8], skip: usize) -> Detection {
    let checked = wide::check(w, &bytes[skip..], skip);
    d.encoding = w.name();
    d.ascii = false;
    d.errors = checked.errors;
    d.inner_boms = checked.inner_boms;
    d.regions.push(Region {
        start: 0,
        end: bytes.len(),
        encoding: w.name(),
    });
    d.evidence.push(format!(
        "{} as {}{}",
        counted(checked.units, "code unit decodes", "code units decode"),
        w.name(),
        match checked.errors {
            0 => String::new(),
            1 => " with 1 error".to_string(),
            n => format!(" with {n} errors"),
        }
    ));
    d
}

/// The zero bytes and controls of samples of an input.
struct Sample {
    bytes: usize,
    /// Controls other than NUL.
    controls: usize,
    /// NUL bytes.
    zeros: usize,
    /// Whether a NUL byte starts the input or follows another (an empty record).
    empty_records: bool,
    /// Line feeds (0A).
    feeds: usize,
    /// The wide encoding whose pattern the zero bytes show and that reads the first
    /// window as text ([`wide::text_by_pattern`]).
    wide: Option<Wide>,
    /// The one whose pattern they show, read as text or not.
    pattern: Option<Wide>,
}

impl Sample {
    /// The first 64 KiB, and fifteen 4 KiB windows spread evenly over the rest (each at an
    /// offset divisible by 4).
    fn of(bytes: &[u8]) -> Sample {
        let first = &bytes[..bytes.len().min(64 << 10)];
        let mut windows = vec![first];
        if bytes.len() > 128 << 10 {
            let step = bytes.len() / 16;
            for k in 1..16 {
                let at = (k * step) & !3;
                windows.push(&bytes[at..(at + 4096).min(bytes.len())]);
            }
        }
        // The whole input is wide text only if every quarter of the first window and every
        // other window shows the same pattern (a UTF-16 block inside UTF-8 does not).
        let quarter = (first.len() / 4) & !3;
        let quarters: Vec<&[u8]> = if quarter >= wide::MIN_BYTES {
            first.chunks(quarter).collect()
        } else {
            vec![first]
        };
        let pattern = wide::guess(first).filter(|w| {
            quarters
                .iter()
                .chain(&windows[1..])
                .all(|win| win.len() < wide::MIN_BYTES || wide::guess(win) == Some(*w))
        });
        // A table of numbers has the pattern too: the units must be text.
        let wide = pattern.filter(|w| wide::text_by_pattern(*w, first));
        Sample {
            bytes: windows.iter().map(|w| w.len()).sum(),
            controls: windows
                .iter()
                .map(|w| w.iter().filter(|b| wide::is_control(**b)).count())
                .sum(),
            zeros: windows
                .iter()
                .map(|w| memchr::memchr_iter(0, w).count())
                .sum(),
            feeds: windows
                .iter()
                .map(|w| memchr::memchr_iter(b'\n', w).count())
                .sum(),
            empty_records: first.first() == Some(&0)
                || windows
                    .iter()
                    .any(|w| memchr::memmem::find(w, b"\0\0").is_some()),
            wide,
            pattern,
        }
    }

    /// The evidence of zero bytes in a wide encoding's pattern whose units are no text
    /// (a table of numbers): `; zero bytes where UTF-32LE puts them, but read as UTF-32LE
    /// it is no text`; empty otherwise.
    fn not_text(&self) -> String {
        match (self.pattern, self.wide) {
            (Some(w), None) => format!(
                "; zero bytes where {0} puts them, but read as {0} it is no text",
                w.name()
            ),
            _ => String::new(),
        }
    }

    /// Whether the NUL bytes separate records of text: there is one, each follows a
    /// record of at least one byte (none starts the input or follows another NUL), and no
    /// sampled byte is a control; judged on [`wide::MIN_BYTES`] bytes or more.
    fn nul_records(&self) -> bool {
        self.zeros > 0 && self.controls == 0 && !self.empty_records && self.bytes >= wide::MIN_BYTES
    }

    /// The evidence of NUL bytes in text ([`Sample::nul_records`]): records that they end,
    /// where they outnumber the line feeds (`find -print0` writes none), or else NUL bytes
    /// inside lines of text (a field of a CSV export, a string), with the offset of the
    /// first in `bytes`.
    fn nul_evidence(&self, bytes: &[u8]) -> String {
        let nuls = share(
            self.zeros,
            self.bytes,
            ("sampled byte", "sampled bytes"),
            ("is NUL", "are NUL"),
        );
        if self.zeros > self.feeds {
            return format!(
                "NUL-separated records: {nuls}, each after a record of text (as find -print0 and xargs -0 use them)"
            );
        }
        format!(
            "{nuls} (the first at {}), inside {}: no more NUL bytes than line feeds, so no NUL-separated records",
            memchr::memchr(0, bytes).unwrap_or(0),
            if self.zeros == 1 {
                "a line of text"
            } else {
                "lines of text"
            }
        )
    }

    fn control_share(&self) -> f64 {
        self.controls as f64 / self.bytes.max(1) as f64
    }

    fn zero_share(&self) -> f64 {
        self.zeros as f64 / self.bytes.max(1) as f64
    }
}

/// What a stretch of a UTF-8 reading looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Only ASCII: belongs to whatever surrounds it.
    Neutral,
    /// UTF-8 (multi-byte characters, and errors no more than them).
    Utf8,
    /// Errors and few multi-byte characters: a legacy encoding.
    Legacy,
    /// Zero bytes in the pattern of UTF-16 or UTF-32 (which one is settled on the merged
    /// region, whose start is the start of a code unit).
    Zeros,
    /// A settled wide encoding.
    Wide(Wide),
}

/// An input that is not valid UTF-8 but valid in `form`, another dialect of the UTF-8
/// family, as `check`'s verdict says: every UTF-8 error of it is a form the dialect reads.
/// CESU-8 and Modified UTF-8 (Java's) write characters above U+FFFF as surrogate pairs of
/// 3-byte forms, and Modified UTF-8 NUL as `C0 80`; WTF-8 holds lone surrogates (a Windows
/// file name, a JavaScript string cut inside a pair); legacy UTF-8 (RFC 2279) forms of 5
/// and 6 bytes and values above U+10FFFF.
///
/// `None` for legacy UTF-8 without one of its own forms: RFC 2279 also reads surrogates,
/// but an encoder of it wrote no pairs of them, so CESU-8 pairs beside 4-byte characters
/// (a mix no dialect reads) are not its; nor are lone surrogates, which are WTF-8's.
fn other_utf8_form(d: &Detection, form: Dialect, bytes: &[u8]) -> Option<Detection> {
    let (mut pairs, mut lone, mut nuls, mut above, mut long) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut form_end = 0;
    for unit in Dialect::Utf8.units(bytes).filter(|u| u.is_error()) {
        if unit.start < form_end {
            continue;
        }
        let Some(diagnosis) = Dialect::Utf8.diagnose(bytes, &unit) else {
            continue;
        };
        form_end = unit.start + diagnosis.span as usize;
        match diagnosis.finding {
            Finding::SurrogatePair { .. } => pairs += 1,
            Finding::Surrogate { .. } => lone += 1,
            Finding::Overlong { .. } => nuls += 1,
            Finding::AboveUnicode { .. } => above += 1,
            Finding::LegacyForm { .. } => long += 1,
            _ => {}
        }
    }
    let mut shapes = Vec::new();
    if pairs > 0 {
        shapes.push(counted(
            pairs,
            "surrogate pair in 3-byte forms (a character above U+FFFF)",
            "surrogate pairs in 3-byte forms (characters above U+FFFF)",
        ));
    }
    if lone > 0 {
        shapes.push(counted(lone, "lone surrogate", "lone surrogates"));
    }
    if nuls > 0 {
        shapes.push(format!("{} for NUL", counted(nuls, "C0 80", "C0 80s")));
    }
    if long > 0 {
        shapes.push(counted(
            long,
            "form of 5 or 6 bytes",
            "forms of 5 or 6 bytes",
        ));
    }
    if above > 0 {
        shapes.push(counted(
            above,
            "value above U+10FFFF in a 4-byte form",
            "values above U+10FFFF in 4-byte forms",
        ));
    }
    // Legacy UTF-8 is named for what only it reads (forms of 5 or 6 bytes, values above
    // U+10FFFF), and for surrogate pairs in 3-byte forms beside 4-byte UTF-8 (a MySQL
    // utf8mb3 export joined to a utf8mb4 one: neither CESU-8 nor UTF-8 reads both).
    let joined = long + above == 0 && pairs > 0 && lone + nuls == 0;
    if form == Dialect::Legacy && long + above == 0 && !joined {
        return None;
    }
    if let (Dialect::Legacy, true, Some(pair)) = (form, joined, shapes.first_mut()) {
        pair.push_str(
            " beside characters in 4-byte forms (CESU-8 and UTF-8 joined: a MySQL utf8mb3 \
             export and a utf8mb4 one)",
        );
    }
    let mut d = d.clone();
    d.encoding = form.encoding_name();
    d.errors = 0;
    d.ascii = false;
    d.regions = vec![Region {
        start: 0,
        end: bytes.len(),
        encoding: d.encoding,
    }];
    d.evidence.push(format!(
        "not valid UTF-8, but valid {}: its UTF-8 errors are {}; read it with --dialect {}",
        form.title(),
        shapes.join(" and "),
        form.name()
    ));
    Some(d)
}

/// An input read as UTF-8.
fn utf8_input(mut d: Detection, bytes: &[u8], summary: &Summary, has_zeros: bool) -> Detection {
    let errors = summary.tally.error_count();
    let multibyte: u64 = summary.tally.classes[2..].iter().sum();
    let cut = Cut::of(bytes, summary);
    let content = d.bom.map_or(0, Bom::len);
    // `check`'s verdict, which detection must not contradict: an input valid in CESU-8,
    // Modified UTF-8, WTF-8 or legacy UTF-8 (each of its UTF-8 errors a form the dialect
    // reads, and no other error) is that, and one with errors but no multi-byte character,
    // or that check calls probably not UTF-8, is not UTF-8 with errors. But lone surrogates
    // that are mostly PEP 383 escapes (`ED B3 A9`, valid WTF-8) are bytes Python escaped:
    // UTF-8 with errors, whose evidence says how to turn them back into bytes.
    let verdict = (errors > cut.units()).then(|| summary.verdict(bytes));
    if let Some(Verdict::ValidOnlyIn(
        form @ (Dialect::Cesu8 | Dialect::Mutf8 | Dialect::Wtf8 | Dialect::Legacy),
    )) = verdict
    {
        let whole = [Region {
            start: 0,
            end: bytes.len(),
            encoding: "UTF-8",
        }];
        let escapes = matches!(form, Dialect::Wtf8 | Dialect::Legacy)
            && pep383_evidence(bytes, summary, &whole, errors).is_some();
        if let Some(named) = other_utf8_form(&d, form, bytes).filter(|_| !escapes) {
            return named;
        }
    }
    let not_utf8 =
        verdict.is_some() && (multibyte == 0 || matches!(verdict, Some(Verdict::ProbablyNot(_))));
    // A short input whose UTF-8 reading is a few characters among as many errors or more
    // (a cut included), and whose legacy reading is words of one script that is not Latin:
    // those characters are accidents of the legacy bytes (`대구` in EUC-KR, `B4 EB B1 B8`,
    // is a cut and `뱸` to UTF-8).
    let few = (1..=errors).contains(&multibyte);
    // Asked of the bytes a guess rests on (cut after a line feed).
    let accidents = || {
        let head = match bytes.len() > GUESS_BYTES {
            true => {
                let cut = &bytes[..GUESS_BYTES];
                memchr::memrchr(b'\n', cut).map_or(cut, |i| &cut[..i + 1])
            }
            false => bytes,
        };
        let guess = legacy::guess(head);
        guess.malformed.count == 0 && legacy::one_script_words(head, guess.encoding)
    };
    let accidental = few && bytes.len() <= LINE_MAX && !has_zeros && accidents();
    let kinds = if accidental {
        vec![(0..bytes.len(), Kind::Legacy)]
    } else if errors == cut.units() && !has_zeros {
        vec![(
            0..bytes.len(),
            if multibyte == 0 {
                Kind::Neutral
            } else {
                Kind::Utf8
            },
        )]
    } else {
        let lines = stretches(bytes, summary, has_zeros, cut);
        // A longer input of the same kind: a file of short lines (subtitles of GBK, `好的。`)
        // may have no line whose UTF-8 reading is not an accident, and so no legacy region
        // beside them. Where no stretch of UTF-8 is free of errors (real UTF-8 text has such
        // lines; a line of GBK has as many errors as characters at best), the input is
        // legacy whole.
        let accidental = few
            && !has_zeros
            && lines.iter().all(|(r, k)| {
                *k != Kind::Utf8 || simdutf8::basic::from_utf8(&bytes[r.clone()]).is_err()
            })
            && accidents();
        match accidental {
            true => vec![(0..bytes.len(), Kind::Legacy)],
            false => lines,
        }
    };
    let mut regions = settle_wide(bytes, merge_stretches(bytes, kinds));
    if regions.len() > MAX_REGIONS {
        let (kind, _) = regions
            .iter()
            .fold(Vec::<(Kind, usize)>::new(), |mut acc, (r, k)| {
                match acc.iter_mut().find(|(k2, _)| k2 == k) {
                    Some(slot) => slot.1 += r.len(),
                    None => acc.push((*k, r.len())),
                }
                acc
            })
            .into_iter()
            .max_by_key(|(_, n)| *n)
            .unwrap_or((Kind::Utf8, 0));
        regions = vec![(0..bytes.len(), kind)];
    }
    // Guess the legacy regions; one whose guess does not read as text stays UTF-8 (with
    // errors), unless the input is not UTF-8 (`not_utf8`), and equal neighbours merge
    // again.
    let mut guesses = Vec::new();
    // Encodings named by hexrune's own rules rather than chardetng (DOS code pages,
    // Japanese in Shift_JIS), and why.
    let mut rule_evidence = Vec::new();
    let mut doubts = Vec::new();
    // The legacy guesses read with a few malformed sequences ([`legacy::guess`]): where the
    // region starts, the encoding, how many, and the first.
    let mut malformed: Vec<(usize, &str, usize, Range<usize>)> = Vec::new();
    // The regions whose guess gave way to a sibling ([`siblings::refit`]).
    let mut refits: Vec<(usize, siblings::Refit)> = Vec::new();
    for (whole, kind) in regions.iter_mut() {
        // A region at the start is judged after a UTF-8 byte order mark: the mark is no
        // text (chardetng read `EF BB BF` as `ď»ż` and counted it against windows-1252).
        let range = &after_bom(bytes, whole.clone());
        // Judged on the region's head, as its guess is.
        let head = &bytes[range.start..range.end.min(range.start + GUESS_BYTES)];
        if *kind == Kind::Legacy && errors_of_utf8_shapes(head) {
            // `..C0 AF` in a request log is a path-traversal shape, not a word of EUC-KR.
            *kind = Kind::Utf8;
        }
        if *kind == Kind::Legacy {
            let found = legacy::guess(&bytes[range.clone()]);
            let guess = found.encoding;
            // chardetng knows the web's encodings only: DOS text has shapes of its own, and
            // box drawing turns its guess for IBM866 and KOI8 text; but a multi-byte
            // reading chardetng confirms once its few malformed sequences are left out
            // explains the bytes (their second bytes are often ASCII letters, which would
            // put the first between letters, as DOS accented letters stand), unless the
            // box drawing is longer than any text of it writes.
            // So does one with no malformed sequence whose reading is words of one script
            // that is not Latin (`今日はとても良い天気ですね。` in Shift_JIS, three times, is
            // no IBM437 for the `82` and `8A` between its bytes).
            let multi_byte = encoding_rs::Encoding::for_label(guess.as_bytes())
                .is_some_and(|e| !e.is_single_byte());
            // chardetng may name a single-byte code page for a line or two of Japanese in
            // Shift_JIS (windows-1251 for `今日はとても良い天気ですね。`): a reading with
            // no malformed sequence that is kana and kanji is Japanese.
            if !multi_byte && legacy::japanese_in_shift_jis(head) {
                guesses.push((whole.start, legacy::SHIFT_JIS));
                rule_evidence.push((
                    legacy::SHIFT_JIS,
                    format!(
                        "chardetng reads it as {guess}; as {} it is words of kana and kanji, with no malformed sequence",
                        legacy::SHIFT_JIS
                    ),
                ));
                continue;
            }
            let confirmed = multi_byte
                && !dos::box_drawing_over_multibyte(head)
                && (found.malformed.count > 0 || legacy::one_script_words(head, guess));
            if let Some((dos, why)) = dos::dos_code_page(head, guess).filter(|_| !confirmed) {
                guesses.push((whole.start, dos));
                rule_evidence.push((dos, why));
                continue;
            }
            // Each reading decodes up to a megabyte of the region: asked once each.
            let region = &bytes[range.clone()];
            let as_text = reads_as_text(region, guess);
            // A sibling of a single-byte guess that reads as text, whose letters fit one
            // language a line where the guess's do not (Hungarian read as windows-1252 has
            // `õ` for `ő`), and that reads as text too.
            let refit = as_text
                .then(|| siblings::refit(region, guess))
                .flatten()
                .filter(|r| reads_as_text(region, r.encoding));
            let guess = match &refit {
                Some(r) => {
                    refits.push((whole.start, r.clone()));
                    r.encoding
                }
                None => guess,
            };
            if let Some(first) = found.malformed.first.as_ref().filter(|_| refit.is_none()) {
                malformed.push((
                    whole.start,
                    guess,
                    found.malformed.count,
                    range.start + first.start..range.start + first.end,
                ));
            }
            // Text in the guess's encoding never needs bytes it leaves undefined.
            let undefined = as_text && not_utf8 && undefined_in(region, guess);
            if as_text && !undefined {
                guesses.push((whole.start, guess));
            } else if not_utf8 {
                // chardetng does not know Mac OS Roman: hexrune tries it where chardetng's
                // single-byte guess gives no text, or needs bytes the guess leaves
                // undefined (Mac OS Roman's è is 8F, which windows-1252 does not have).
                let single_byte = encoding_rs::Encoding::for_label(guess.as_bytes())
                    .is_some_and(|e| e.is_single_byte());
                if single_byte
                    && reads_as_text(region, MACINTOSH)
                    && letters_in_words(region, MACINTOSH)
                {
                    guesses.push((whole.start, MACINTOSH));
                    doubts.push(match as_text {
                        true => format!(
                            "read as chardetng's guess, {guess}, it needs bytes {guess} leaves undefined; as {MACINTOSH}, which chardetng does not know, it is text"
                        ),
                        false => format!(
                            "read as chardetng's guess, {guess}, it is no text; as {MACINTOSH}, which chardetng does not know, it is"
                        ),
                    });
                } else if let Some(page) = dos::cyrillic_page(head, |e| siblings::off_in(head, e))
                    .filter(|page| single_byte && *page != guess && reads_as_text(region, page))
                {
                    // chardetng names windows-1252 for a line or two of Cyrillic capitals
                    // in Mac OS Cyrillic or IBM866 (`ВІДДІЛ`): the Cyrillic code page that
                    // reads them as Cyrillic words.
                    guesses.push((whole.start, page));
                    rule_evidence.push((
                        page,
                        format!(
                            "chardetng reads it as {guess}, which gives no text; as {page} it is words of Cyrillic letters"
                        ),
                    ));
                } else {
                    guesses.push((whole.start, guess));
                    doubts.push(NO_TEXT.to_string());
                }
            } else {
                *kind = Kind::Utf8;
            }
        }
    }
    absorb_accidental_utf8(bytes, &mut regions, &mut guesses);
    let regions = merge_stretches(bytes, regions);
    let mut named = Vec::new();
    // Lines of another encoding in a legacy region, past the regions there is room for:
    // where the first starts, its encoding, and the region's.
    let mut too_many: Option<(usize, &'static str, &'static str)> = None;
    for (range, kind) in &regions {
        let encoding = match kind {
            Kind::Neutral | Kind::Utf8 => "UTF-8",
            Kind::Wide(w) => w.name(),
            Kind::Zeros => BINARY,
            Kind::Legacy => guesses
                .iter()
                .find(|(at, _)| *at == range.start)
                .map_or("UTF-8", |(_, g)| *g),
        };
        if *kind == Kind::Legacy && encoding != "UTF-8" {
            let mut lines =
                lines_of_another_encoding(bytes, after_bom(bytes, range.clone()), encoding);
            // The mark goes with the first line.
            if let Some(first) = lines.first_mut() {
                first.0.start = range.start;
            }
            if named.len() + lines.len() <= MAX_REGIONS {
                named.extend(lines.into_iter().map(|(r, encoding)| Region {
                    start: r.start,
                    end: r.end,
                    encoding,
                }));
                continue;
            }
            if let Some((r, other)) = lines.iter().find(|(_, e)| *e != encoding) {
                too_many.get_or_insert((r.start, *other, encoding));
            }
        }
        named.push(Region {
            start: range.start,
            end: range.end,
            encoding,
        });
    }
    let utf8_bytes: usize = regions
        .iter()
        .filter(|(_, k)| *k == Kind::Utf8)
        .map(|(r, _)| r.len())
        .sum();
    // An ASCII-only region stands apart only beside wide text (`merge_stretches`): ASCII
    // lines with a UTF-16 block are UTF-8 with a region, as they are with UTF-8 lines.
    d.encoding = if utf8_bytes > 0 || regions.iter().any(|(_, k)| *k == Kind::Neutral) {
        "UTF-8"
    } else {
        // The encoding of the most bytes, over all its regions (of the first region where
        // two have as many).
        let mut totals: Vec<(&'static str, usize)> = Vec::new();
        for r in &named {
            match totals.iter_mut().find(|(e, _)| *e == r.encoding) {
                Some((_, n)) => *n += r.end - r.start,
                None => totals.push((r.encoding, r.end - r.start)),
            }
        }
        totals
            .iter()
            .rev()
            .max_by_key(|(_, n)| *n)
            .map_or("UTF-8", |(e, _)| *e)
    };
    // The UTF-8 errors in the regions of other encodings are their characters.
    let in_utf8_regions = match d.encoding {
        "UTF-8" => errors_in_utf8_regions(bytes, summary, &named, errors),
        _ => 0,
    };
    if d.encoding == "UTF-8" {
        d.errors = in_utf8_regions;
        // A cut counts where UTF-8 explains the bytes around it (the last byte of a
        // windows-1252 region is a character of its own, cut from nothing).
        let in_utf8 = |at: usize| {
            named
                .iter()
                .any(|r| r.start <= at && at < r.end && r.encoding == "UTF-8")
        };
        d.cut = Cut {
            start: if in_utf8(0) { cut.start } else { 0 },
            end: cut.end.filter(|at| in_utf8(*at)),
        };
    }
    // The malformed sequences of the legacy readings kept (a region's guess may have given
    // way to Mac OS Roman or to UTF-8): errors of the encoding named, where it is legacy.
    malformed.retain(|(start, encoding, ..)| {
        named
            .iter()
            .any(|r| r.start <= *start && *start < r.end && r.encoding == *encoding)
    });
    if d.encoding != "UTF-8" {
        d.errors = malformed
            .iter()
            .filter(|m| m.1 == d.encoding)
            .map(|m| m.2 as u64)
            .sum();
    }
    // The bytes the legacy guesses rest on: few are little evidence (counted up to the
    // threshold only).
    let legacy_bytes: usize = named
        .iter()
        .filter(|r| !matches!(r.encoding, "UTF-8" | BINARY) && !r.encoding.starts_with("UTF-"))
        .flat_map(|r| {
            bytes[after_bom(bytes, r.start..r.end)]
                .iter()
                .filter(|b| !b.is_ascii())
        })
        .take(WEAK_GUESS_BYTES)
        .count();
    let weak = match legacy_bytes {
        1..WEAK_GUESS_BYTES => format!(
            "; a weak guess on {}",
            counted(legacy_bytes as u64, "non-ASCII byte", "non-ASCII bytes")
        ),
        _ => String::new(),
    };
    // Doubts of code pages chardetng does not know (ISO-8859-15, ISO-8859-16).
    let unknown_pages =
        if !matches!(d.encoding, "UTF-8" | BINARY) && !d.encoding.starts_with("UTF-") {
            // Mac OS Roman's reasons say why it is text: no doubt.
            let no_text = doubts.iter().any(|doubt| doubt == NO_TEXT);
            d.doubt = match (no_text, weak.is_empty()) {
                (true, _) => Some(format!("{}, {NO_TEXT}", d.encoding)),
                (false, false) => Some(format!("{}: {}", d.encoding, &weak[2..])),
                (false, true) => None,
            };
            // chardetng does not know ISO-8859-15, which it reads as windows-1252: where the
            // bytes the two read apart stand as Latin-9's euro sign and letters would, say so.
            let latin9 = named
                .iter()
                .filter(|r| r.encoding == "windows-1252")
                .find_map(|r| {
                    let end = r.end.min(r.start + GUESS_BYTES);
                    latin9::tells(&bytes[r.start..end]).map(|t| latin9::doubt(&t, r.start))
                });
            // Nor does it know ISO-8859-16, Romanian's code page with the comma below, which
            // windows-1250 and ISO-8859-2 read alike but for `ș` and `ț`.
            let comma_below = named.iter().find_map(|r| {
                siblings::comma_below_doubt(&bytes[r.start..r.end], r.encoding, r.start)
            });
            let doubts: Vec<String> = latin9.into_iter().chain(comma_below).collect();
            for doubt in &doubts {
                d.add_doubt(doubt);
            }
            doubts
        } else {
            Vec::new()
        };
    if named.len() > 1 {
        let mut names: Vec<&str> = named.iter().map(|r| r.encoding).collect();
        names.sort_unstable();
        names.dedup();
        let mut why = format!(
            "mixed: {} regions in {} encodings",
            named.len(),
            names.len()
        );
        if d.encoding == "UTF-8" && errors > in_utf8_regions {
            why.push_str(&errors_by_region(errors, in_utf8_regions, &named));
        }
        d.evidence.push(why);
        let mut read: Vec<&str> = malformed.iter().map(|m| m.1).collect();
        read.dedup();
        for encoding in read {
            d.evidence.push(format!(
                "the {encoding} text reads as {encoding}{}",
                but_for_malformed(bytes, &malformed, encoding)
            ));
        }
    } else if errors > 0 && errors == d.cut.units() {
        d.evidence.push(format!(
            "valid UTF-8 but for {}: {}",
            if d.cut.start > 0 && d.cut.end.is_some() {
                "2 cut characters"
            } else {
                "a cut character"
            },
            counted(multibyte, "multi-byte character", "multi-byte characters")
        ));
    } else if errors == 0 {
        d.evidence.push(if d.ascii {
            "every byte is ASCII".to_string()
        } else {
            format!(
                "valid UTF-8: {}, no errors",
                counted(multibyte, "multi-byte character", "multi-byte characters")
            )
        });
    } else if rule_evidence.iter().any(|(name, _)| *name == d.encoding) {
        let why: Vec<&str> = rule_evidence.iter().map(|(_, why)| why.as_str()).collect();
        d.evidence.push(format!(
            "{} and few multi-byte characters; {}",
            counted(errors, "UTF-8 error", "UTF-8 errors"),
            why.join("; ")
        ));
    } else if d.encoding == MACINTOSH && !doubts.is_empty() {
        d.evidence.push(format!(
            "{} and few multi-byte characters; {}{weak}",
            counted(errors, "UTF-8 error", "UTF-8 errors"),
            doubts.join("; ")
        ));
    } else if let Some((_, r)) = refits.iter().find(|(_, r)| r.encoding == d.encoding) {
        d.evidence.push(format!(
            "{} and few multi-byte characters; {}{weak}",
            counted(errors, "UTF-8 error", "UTF-8 errors"),
            refit_evidence(r)
        ));
    } else if d.encoding != "UTF-8" {
        d.evidence.push(format!(
            "{} and few multi-byte characters; chardetng reads it as {}{}{}{weak}",
            counted(errors, "UTF-8 error", "UTF-8 errors"),
            d.encoding,
            but_for_malformed(bytes, &malformed, d.encoding),
            match doubts.first() {
                Some(doubt) => format!(", {doubt}"),
                None => String::new(),
            }
        ));
    } else {
        d.evidence.push(format!(
            "UTF-8 with {} among {}",
            counted(errors, "error", "errors"),
            counted(multibyte, "multi-byte character", "multi-byte characters")
        ));
    }
    if let Some((at, other, encoding)) = too_many {
        let more = format!(
            "lines of {other} among the {encoding} text (the first at {at}), more regions than \
             the {MAX_REGIONS} listed: all read as {encoding}"
        );
        d.add_doubt(&more);
        d.evidence.push(more);
    }
    d.evidence.extend(unknown_pages);
    d.evidence.extend(d.cut.evidence(bytes));
    if d.encoding == "UTF-8" && d.errors > 0 {
        d.evidence
            .extend(pep383_evidence(bytes, summary, &named, d.errors));
    }
    // U+FEFF and mojibake live in the UTF-8 regions' blocks that hold non-ASCII bytes.
    let utf8_regions: Vec<Range<usize>> = regions
        .iter()
        .filter(|(_, k)| *k == Kind::Utf8)
        .map(|(r, _)| r.clone())
        .collect();
    let stretches = non_ascii_stretches(summary, bytes, &utf8_regions);
    for range in &stretches {
        for part in marked_parts(summary, range.clone(), MARK_FEFF) {
            d.inner_boms.extend(
                bom::inner_utf8_boms(bytes, part)
                    .into_iter()
                    .filter(|at| *at >= content),
            );
        }
    }
    d.mojibake = mojibake_in(bytes, summary, &stretches);
    let utf8_at_start = named
        .iter()
        .any(|r| r.start <= content && content < r.end && r.encoding == "UTF-8");
    if let Some(misread) = utf8_at_start
        .then(|| misread_bom_at(bytes, content))
        .flatten()
    {
        d.mojibake.retain(|m| m.start >= misread.end);
        d.mojibake.insert(0, misread);
    }
    if !d.inner_boms.is_empty() {
        d.evidence.push(format!(
            "U+FEFF after the start at {} (files joined?)",
            offsets_list(&d.inner_boms)
        ));
    }
    if !d.mojibake.is_empty() {
        d.evidence.push(format!(
            "{} {} of UTF-8 read as a legacy encoding (mojibake)",
            d.mojibake.len(),
            if d.mojibake.len() == 1 {
                "region"
            } else {
                "regions"
            }
        ));
    }
    // Characters of mojibake that lost a byte: beside other mojibake, any; alone, those
    // with a continuation byte read too (`â€` and U+FFFD), which no text writes, where a
    // letter and U+FFFD (`é` and U+FFFD) may be a letter and a replaced byte of its own.
    if d.encoding == "UTF-8" {
        let replacements = summary.replacements(bytes).map(|u| u.start);
        let least = usize::from(d.mojibake.is_empty());
        if let Some((count, first, name)) = lost_after(bytes, replacements, least) {
            d.evidence.push(format!(
                "{} of the mojibake lost a byte before it was written: U+FFFD right after \
                 a UTF-8 lead byte read as {name}, or a lead and too few continuation \
                 bytes (`{}` at {}), where a decoder dropped a byte {name} leaves \
                 undefined; no repair gives {} back",
                counted(count as u64, "character", "characters"),
                String::from_utf8_lossy(&bytes[first.clone()]),
                first.start,
                if count == 1 { "it" } else { "them" },
            ));
        }
    }
    // Bytes 00..7F in a UTF-16 region (Latin letters) are no ASCII text.
    d.ascii &= named.iter().all(|r| r.encoding == "UTF-8");
    d.regions = named;
    d
}

/// Of the U+FFFD at `replacements` (offsets in increasing order), those that cut short a
/// UTF-8 character read as windows-1252: right after a lead byte so read (`Â` to `ô`,
/// U+00C2..U+00F4), or after a lead and fewer continuation bytes than it needs (`â€` of
/// `E2 80`, then U+FFFD: `”` is `E2 80 9D`). That is a byte of a character of mojibake
/// (`8F` of `я`, `9D` of `”`) lost to a decoder's replacement, as windows-1252 leaves
/// `81`, `8D`, `8F`, `90` and `9D` undefined. How many, and the bytes of the first (from
/// its lead to the end of its U+FFFD).
///
/// ```
/// use hexrune::detect::lost_characters;
/// let text = "Ñ\u{FFFD}ö\u{FFFD} â€\u{FFFD} ’\u{FFFD}".as_bytes();
/// // `ö` is `F6` in windows-1252, no lead byte of UTF-8; `’` is `92`, a continuation byte
/// // with no lead before it.
/// assert_eq!(
///     lost_characters(text, [2, 7, 16, 23].into_iter()),
///     Some((2, 0..5, "windows-1252"))
/// );
/// assert_eq!(lost_characters(text, [16].into_iter()), Some((1, 11..19, "windows-1252")));
/// assert_eq!(lost_characters(text, [7, 23].into_iter()), None);
/// // `ก` (`E0 B8 81`) through windows-874, whose `81` Python's decoder replaces.
/// let thai = "เธ\u{FFFD}".as_bytes();
/// assert_eq!(lost_characters(thai, [6].into_iter()), Some((1, 0..9, "windows-874")));
/// ```
///
/// The encoding named is the one that reads the first such character so (windows-1252,
/// windows-1255 or windows-874: the pages of mojibake that leave bytes undefined).
pub fn lost_characters(
    bytes: &[u8],
    replacements: impl Iterator<Item = usize>,
) -> Option<(usize, Range<usize>, &'static str)> {
    lost_after(bytes, replacements, 0)
}

/// The encodings of mojibake that leave bytes undefined, which a decoder replaces.
const LOSSY: [table::Legacy; 3] = [
    table::Legacy::Windows1252,
    table::Legacy::Windows1255,
    table::Legacy::Windows874,
];

/// [`lost_characters`] with at least `least` continuation bytes read before each U+FFFD.
fn lost_after(
    bytes: &[u8],
    replacements: impl Iterator<Item = usize>,
    least: usize,
) -> Option<(usize, Range<usize>, &'static str)> {
    let mut lost = replacements.filter_map(|at| {
        LOSSY.iter().find_map(|e| {
            cut_short_before(bytes, at, *e)
                .filter(|(_, continuations)| *continuations >= least)
                .map(|(s, _)| (s..at + 3, e.name()))
        })
    });
    let (first, name) = lost.next()?;
    Some((1 + lost.count(), first, name))
}

/// Where the character of mojibake that a U+FFFD at `at` cut short starts (a UTF-8 lead
/// byte read as `e`, then fewer continuation bytes so read than it needs, right before
/// `at`), and how many continuation bytes it has.
fn cut_short_before(bytes: &[u8], at: usize, e: table::Legacy) -> Option<(usize, usize)> {
    let mut pos = at;
    let mut continuations = 0;
    while continuations <= 3 {
        // The character that ends at `pos`.
        let unit = Dialect::Utf8.unit_containing(bytes, pos.checked_sub(1)?);
        let crate::decode::UnitKind::Scalar(cp) = unit.kind else {
            return None;
        };
        let byte = e.encode_char(cp.to_char()?)?;
        let needs = match byte {
            0x80..=0xBF => {
                continuations += 1;
                pos = unit.start;
                continue;
            }
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => return None,
        };
        return (continuations + 1 < needs).then_some((unit.start, continuations));
    }
    None
}

/// The UTF-8 errors (`total` of the input's, as `summary` counts them) that start in a
/// region of `regions` named UTF-8: those in a region of another encoding are its
/// characters, not damage to the UTF-8 around it. A block with errors inside one region
/// is counted from its summary; only a block that regions share is decoded again.
fn errors_in_utf8_regions(bytes: &[u8], summary: &Summary, regions: &[Region], total: u64) -> u64 {
    if regions.iter().all(|r| r.encoding == "UTF-8") {
        return total;
    }
    let in_utf8 = |at: usize| {
        regions
            .iter()
            .any(|r| r.start <= at && at < r.end && r.encoding == "UTF-8")
    };
    let mut n = 0;
    for (b, s) in summary.blocks.iter().enumerate() {
        if s.errors == 0 {
            continue;
        }
        let block = summary.block_range(b);
        let mut touching = regions
            .iter()
            .filter(|r| r.start < block.end && block.start < r.end);
        match (touching.next(), touching.next()) {
            (Some(one), None) => {
                if one.encoding == "UTF-8" {
                    n += u64::from(s.errors);
                }
            }
            _ => {
                n += crate::scan::index::errors_in(Dialect::Utf8, bytes, block)
                    .filter(|u| in_utf8(u.start))
                    .count() as u64;
            }
        }
    }
    n
}

/// Whether `bytes` hold a PEP 383 escape at `at`: a byte 80..FF that Python's
/// surrogateescape held as U+DC80..U+DCFF, written in 3-byte form (`surrogatepass`), `ED
/// B2 80`..`ED B3 BF`, and not the low half of a surrogate pair (CESU-8 writes U+10080 as
/// `ED A0 80 ED B2 80`): Python never writes a high surrogate for a byte.
fn pep383_escape_at(bytes: &[u8], at: usize) -> bool {
    let escape = matches!(
        bytes.get(at..at + 3),
        Some([0xED, 0xB2..=0xB3, 0x80..=0xBF])
    );
    let after_high = at >= 3 && matches!(bytes[at - 3..at], [0xED, 0xA0..=0xAF, 0x80..=0xBF]);
    escape && !after_high
}

/// The evidence of PEP 383 escapes ([`pep383_escape_at`]) in the UTF-8 regions of
/// `regions`, where their error units (3 each) are more than half of `errors`, the UTF-8
/// errors there, with the command that turns them back into bytes; `None` otherwise. Only
/// blocks with errors are looked at: an escape is one.
fn pep383_evidence(
    bytes: &[u8],
    summary: &Summary,
    regions: &[Region],
    errors: u64,
) -> Option<String> {
    let in_utf8 = |at: usize| {
        regions
            .iter()
            .any(|r| r.start <= at && at < r.end && r.encoding == "UTF-8")
    };
    let (mut escapes, mut first) = (0u64, None);
    for (b, _) in summary
        .blocks
        .iter()
        .enumerate()
        .filter(|(_, s)| s.errors > 0)
    {
        let block = summary.block_range(b);
        for at in memchr::memchr_iter(0xED, &bytes[block.clone()]).map(|i| block.start + i) {
            if pep383_escape_at(bytes, at) && in_utf8(at) {
                escapes += 1;
                first.get_or_insert(at);
            }
        }
    }
    let units = 3 * escapes;
    let at = first?;
    if units * 2 <= errors {
        return None;
    }
    let byte = ((bytes[at + 1] & 0x03) << 6) | (bytes[at + 2] & 0x3F);
    let (what, undo) = match escapes {
        1 => ("a byte 80..FF", "turn it back into its byte"),
        _ => ("bytes 80..FF", "turn them back into bytes"),
    };
    Some(format!(
        "{} are {}, {what} that Python's surrogateescape wrote as U+DC80..U+DCFF ({} at {at} is the byte {byte:02X}); {undo} with hexrune repair --unescape pep383 IN -o OUT",
        match units == errors {
            true => format!("its {errors} UTF-8 errors"),
            false => format!("{units} of its {errors} UTF-8 errors"),
        },
        counted(escapes, "PEP 383 escape", "PEP 383 escapes"),
        hex(&bytes[at..at + 3]),
    ))
}

/// How the `total` UTF-8 errors of a mixed input fall, `in_utf8` of them in its UTF-8
/// regions: `; 32 UTF-8 errors, all in the UTF-16LE region` or `; 35 UTF-8 errors, 3 of
/// them in UTF-8 and 32 in the windows-1252 and UTF-16LE regions`.
fn errors_by_region(total: u64, in_utf8: u64, regions: &[Region]) -> String {
    let mut others: Vec<&str> = Vec::new();
    for r in regions.iter().filter(|r| r.encoding != "UTF-8") {
        if !others.contains(&r.encoding) {
            others.push(r.encoding);
        }
    }
    let plural = regions.iter().filter(|r| r.encoding != "UTF-8").count() > 1;
    let names = match others.as_slice() {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    };
    let place = format!("the {names} {}", if plural { "regions" } else { "region" });
    let errors = counted(total, "UTF-8 error", "UTF-8 errors");
    match in_utf8 {
        0 => format!("; {errors}, all in {place}"),
        n => format!(
            "; {errors}, {n} of them in UTF-8 and {} in {place}",
            total - n
        ),
    }
}

/// `n` of `total` and the verb that goes with `n`: `1 of 14 sampled bytes is a control`,
/// `2 of 2 sampled bytes are controls`, `1 of 1 sampled byte is a control`.
fn share(n: usize, total: usize, noun: (&str, &str), verb: (&str, &str)) -> String {
    format!(
        "{n} of {total} {} {}",
        if total == 1 { noun.0 } else { noun.1 },
        if n == 1 { verb.0 } else { verb.1 }
    )
}

/// `n` and the noun that goes with it: `1 error`, `2 errors`, `0 errors`.
fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn offsets_list(offsets: &[usize]) -> String {
    let shown: Vec<String> = offsets.iter().take(8).map(|o| o.to_string()).collect();
    let more = offsets.len().saturating_sub(8);
    if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// The parts of `regions` in blocks that hold non-ASCII characters, cut at ASCII bytes so
/// that no character and no non-ASCII run is split.
fn non_ascii_stretches(
    summary: &Summary,
    bytes: &[u8],
    regions: &[Range<usize>],
) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    for region in regions {
        let first = region.start / summary.block_size;
        let last = region
            .end
            .div_ceil(summary.block_size)
            .min(summary.blocks.len());
        for b in first..last {
            let s = &summary.blocks[b];
            if s.classes[0] == s.units {
                continue;
            }
            let block = summary.block_range(b);
            // A block inside the stretch before (a run of non-ASCII bytes longer than a
            // block, a line of CJK without a space) is in it already: looking for its end
            // again from each block would read the run once a block.
            if out
                .last()
                .is_some_and(|prev| prev.end >= block.end.min(region.end))
            {
                continue;
            }
            // A run of non-ASCII bytes across the block's start belongs to the stretch of
            // the block before, where that one holds non-ASCII characters too; else the
            // run starts here (after ASCII, or at the region's start).
            let before_too = b > first && {
                let p = &summary.blocks[b - 1];
                p.classes[0] != p.units
            };
            let start = block.start.max(region.start);
            let from = match before_too {
                true => ascii_at_or_after(bytes, start, region.end),
                false => start,
            };
            let to = ascii_at_or_after(bytes, block.end.min(region.end), region.end);
            match out.last_mut() {
                Some(prev) if prev.end >= from => prev.end = prev.end.max(to),
                _ if from < to => out.push(from..to),
                _ => {}
            }
        }
    }
    out
}

/// The parts of `range` in blocks that carry `mark` (all of it, in one part, when the
/// summary has no marks), in order.
fn marked_parts(summary: &Summary, range: Range<usize>, mark: u8) -> Vec<Range<usize>> {
    let Some(marks) = summary.marks.as_ref() else {
        return vec![range];
    };
    let mut out: Vec<Range<usize>> = Vec::new();
    if range.is_empty() {
        return out;
    }
    let first = range.start / summary.block_size;
    let last = (range.end - 1) / summary.block_size;
    let listed = marks.iter().enumerate().take(last + 1).skip(first);
    for (b, _) in listed.filter(|(_, m)| **m & mark != 0) {
        let block = summary.block_range(b);
        let part = block.start.max(range.start)..block.end.min(range.end);
        match out.last_mut() {
            Some(prev) if prev.end == part.start => prev.end = part.end,
            _ => out.push(part),
        }
    }
    out
}

/// The byte order mark misread as mojibake at `at`, the start of the input's content (after
/// a byte order mark it has): `ï»¿` ([`mojibake::bom_at_start`]).
pub fn misread_bom_at(bytes: &[u8], at: usize) -> Option<Mojibake> {
    let head = &bytes[at.min(bytes.len())..bytes.len().min(at + 4096)];
    let text = head.utf8_chunks().next()?.valid();
    let mut found = mojibake::bom_at_start(text)?;
    found.start += at;
    found.end += at;
    Some(found)
}

/// How much text one worker searches for mojibake at a time.
const MOJIBAKE_PIECE: usize = 4 << 20;

/// The mojibake of `stretches` (in order), searched by one worker per core (the scan's
/// [`pool`]; one piece is searched on the calling thread) in pieces of about
/// [`MOJIBAKE_PIECE`] bytes cut after a line feed.
fn mojibake_in(bytes: &[u8], summary: &Summary, stretches: &[Range<usize>]) -> Vec<Mojibake> {
    let mut pieces = Vec::new();
    for range in stretches {
        let mut start = range.start;
        while start < range.end {
            let cut = (start + MOJIBAKE_PIECE).min(range.end);
            let end =
                memchr::memchr(b'\n', &bytes[cut..range.end]).map_or(range.end, |i| cut + i + 1);
            // A piece without a candidate pair has no mojibake: only marked ones are read.
            let marked = marked_parts(summary, start..end, MARK_MOJIBAKE);
            if !marked.is_empty() {
                pieces.push((start..end, marked));
            }
            start = end;
        }
    }
    let found = pool::map(pieces.len(), pool::cores(), |i| {
        let (range, marked) = &pieces[i];
        mojibake_of(bytes, range.clone(), marked)
    });
    found.into_iter().flatten().collect()
}

/// The mojibake of `bytes[range]`, in the valid parts of it; `marked` (input offsets, in
/// order, inside `range`) holds every candidate pair's second character.
fn mojibake_of(bytes: &[u8], range: Range<usize>, marked: &[Range<usize>]) -> Vec<Mojibake> {
    let mut out = Vec::new();
    // Blocks without errors are valid: one fast validation gives the text.
    if let Ok(text) = simdutf8::basic::from_utf8(&bytes[range.clone()]) {
        let marked: Vec<Range<usize>> = marked
            .iter()
            .map(|m| m.start - range.start..m.end - range.start)
            .collect();
        for mut m in mojibake::find_marked(text, &marked) {
            m.start += range.start;
            m.end += range.start;
            out.push(m);
        }
        return out;
    }
    let mut at = range.start;
    for chunk in bytes[range].utf8_chunks() {
        let valid = chunk.valid();
        for mut m in mojibake::find(valid) {
            m.start += at;
            m.end += at;
            out.push(m);
        }
        at += valid.len() + chunk.invalid().len();
    }
    out
}

/// The `len` bytes of `bytes` a hint of what they are is judged on (`repair`'s summary,
/// `check`'s hint): from the start, or where the first byte UTF-8 does not explain (in
/// valid UTF-8, the first that is not ASCII) comes later than `len / 2`, from the start of
/// its line (at most `len / 2` before it). An export
/// sorted by id puts its accented rows anywhere; its ASCII start says nothing.
///
/// ```
/// use hexrune::detect::hint_window;
/// let mut bytes = b"ascii line\n".repeat(10_000);
/// let at = bytes.len();
/// bytes.extend_from_slice(b"caf\xE9\n");
/// assert_eq!(hint_window(&bytes, 1024), at..bytes.len());
/// assert_eq!(hint_window(b"caf\xE9", 1024), 0..4);
/// ```
pub fn hint_window(bytes: &[u8], len: usize) -> Range<usize> {
    const PIECE: usize = 4096;
    // The first byte UTF-8 does not explain, or else the first that is not ASCII (where
    // mojibake would be): an early `Café` in UTF-8 says nothing of rows of windows-1251
    // after it.
    let first = match simdutf8::compat::from_utf8(bytes) {
        Err(e) => e.valid_up_to(),
        Ok(_) => bytes
            .chunks(PIECE)
            .position(|c| !c.is_ascii())
            .and_then(|k| {
                let from = k * PIECE;
                let i = bytes[from..].iter().position(|b| !b.is_ascii())?;
                Some(from + i)
            })
            .unwrap_or(0),
    };
    let start = match first > len / 2 {
        true => {
            let floor = first - len / 2;
            memchr::memrchr(b'\n', &bytes[floor..first]).map_or(floor, |i| floor + i + 1)
        }
        false => 0,
    };
    start..bytes.len().min(start + len)
}

/// `range` without a UTF-8 byte order mark at the input's start, where it holds one and
/// more: what region finding judges a region at the start on.
fn after_bom(bytes: &[u8], range: Range<usize>) -> Range<usize> {
    match range.start == 0 && range.end > 3 && crate::decode::Bom::starts_utf8(bytes) {
        true => 3..range.end,
        false => range,
    }
}

/// The first offset at or after `at` (and at most `end`) that holds an ASCII byte.
fn ascii_at_or_after(bytes: &[u8], at: usize, end: usize) -> usize {
    let at = at.min(end);
    bytes[at..end]
        .iter()
        .position(u8::is_ascii)
        .map_or(end, |i| at + i)
}

/// The stretches of an input with UTF-8 errors: blocks without errors whole, blocks with
/// errors line by line.
///
/// A line is judged whole where a block's edge cuts it (but one longer than [`LINE_MAX`]):
/// a block with errors starts at the line the edge is in, taking its start from the
/// stretch before, and ends at the end of its last line, the block after starting there.
/// A piece of a line of GBK cut off by a block's edge may well read as a character of
/// UTF-8 or two and a stray byte (`DC BE C3 A1 A3 0A`), which the whole line does not.
///
/// The error units of `cut` are not counted: they say nothing against the line.
fn stretches(
    bytes: &[u8],
    summary: &Summary,
    has_zeros: bool,
    cut: Cut,
) -> Vec<(Range<usize>, Kind)> {
    let mut out: Vec<(Range<usize>, Kind)> = Vec::new();
    // Where the stretches so far end: past a block's end where its last line goes on.
    let mut done = 0;
    for (b, s) in summary.blocks.iter().enumerate() {
        let range = summary.block_range(b);
        if done >= range.end {
            continue;
        }
        let zeros = has_zeros && memchr::memchr(0, &bytes[range.clone()]).is_some();
        if s.errors == 0 && !zeros {
            let start = range.start.max(done);
            let ascii = match start == range.start {
                true => s.classes[0] == s.units,
                false => bytes[start..range.end].is_ascii(),
            };
            out.push((
                start..range.end,
                if ascii { Kind::Neutral } else { Kind::Utf8 },
            ));
            done = range.end;
            continue;
        }
        let mut start = crate::scan::first_boundary(Dialect::Utf8, bytes, range.start).max(done);
        // The start of the line the block's edge cuts, taken from the stretch before (a
        // whole block's, which ends at this block's start).
        if start == range.start && start > 0 && bytes[start - 1] != b'\n' {
            let floor = out.last().map_or(0, |(r, _)| r.start);
            let from = start.saturating_sub(LINE_MAX).max(floor);
            if let Some(i) = memchr::memrchr(b'\n', &bytes[from..start]) {
                let line_start = from + i + 1;
                if let Some((r, kind)) = out.last_mut().filter(|(r, _)| r.end == start) {
                    r.end = line_start;
                    if r.start == r.end {
                        out.pop();
                    } else if *kind == Kind::Utf8 && bytes[r.clone()].is_ascii() {
                        *kind = Kind::Neutral;
                    }
                }
                start = line_start;
            }
        }
        // The end of the line the block's end cuts.
        let mut end = crate::scan::first_boundary(Dialect::Utf8, bytes, range.end);
        if end < bytes.len() && bytes[end - 1] != b'\n' {
            let limit = bytes.len().min(end + LINE_MAX);
            if let Some(i) = memchr::memchr(b'\n', &bytes[end..limit]) {
                end += i + 1;
            }
        }
        done = end;
        // Line by line (at most LINE_MAX bytes), counted from std's chunks of valid UTF-8 and
        // maximal invalid subparts, which are the scan's error units.
        let mut pos = start;
        while pos < end {
            let stop = line_end(bytes, pos, end, zeros);
            let stop = crate::scan::first_boundary(Dialect::Utf8, bytes, stop).min(end);
            let mut line = Line::new(pos);
            let mut at = pos;
            // Where the last of UTF-8's own broken shapes ends (its bytes after the first
            // are error units of their own).
            let mut form_end = 0;
            for chunk in bytes[pos..stop].utf8_chunks() {
                let valid = chunk.valid().as_bytes();
                let bad = at + valid.len();
                if !chunk.invalid().is_empty() && !cut.covers(bad) && bad >= form_end {
                    // A form only a lax UTF-8 encoder writes (`C0 AF`, a surrogate) is a
                    // character of UTF-8's, as `check`'s verdict counts it.
                    match utf8_shape_at(bytes, bad) {
                        Some(end) => {
                            form_end = end;
                            line.multibyte += 1;
                        }
                        None => line.errors += 1,
                    }
                }
                at = bad + chunk.invalid().len();
                line.multibyte += valid.iter().filter(|b| **b >= 0xC0).count();
                line.zeros += memchr::memchr_iter(0, valid).count();
                line.controls += valid.iter().filter(|b| wide::is_control(**b)).count();
            }
            // A byte order mark at the input's start is a mark, not a character of text:
            // a CSV saved as "UTF-8 with BOM" whose header is ASCII and whose rows were
            // written in windows-1252 is that code page after its mark.
            if pos == 0 && crate::decode::Bom::starts_utf8(bytes) {
                line.multibyte -= 1;
            }
            out.push(line.finish(bytes, stop));
            pos = stop;
        }
    }
    out
}

/// The most bytes of one line that region finding reads at once.
const LINE_MAX: usize = 4096;

/// Where the line that starts at `pos` ends: one past its line feed, or [`LINE_MAX`]
/// bytes on, or `end`, whichever comes first.
///
/// To UTF-8 every byte 0A is a line feed; to UTF-16 it may be half of a code unit (`上`,
/// U+4E0A, is `0A 4E` in UTF-16LE and `4E 0A` in UTF-16BE), whose line feed is `0A 00`
/// in UTF-16LE with the 0A at an even offset from the first unit, `00 0A` in UTF-16BE
/// with it at an odd one. Where `utf16` asks for that reading too (the bytes around have
/// zero bytes), a 0A that is a line feed in neither byte order, on a line UTF-8 does not
/// explain (an error or a control), ends the line only if the line up to the next line
/// feed of UTF-16LE or UTF-16BE does not read as text in that byte order. A line UTF-8
/// explains (ASCII) ends at its 0A, unless the 0A is half of the line's first unit in a
/// byte order whose units read as text ([`half_of_first_unit`]): `上` that starts a block.
/// A line of UTF-16LE that starts with the 00 of the line feed before it (the line before was cut
/// after its 0A) has its first unit one byte on.
///
/// ```text
/// 30 0A 00 | 65 0A 4E ... 30 0A 00 | ...      UTF-16LE: 0A 4E is 上, not a line end
/// ```
fn line_end(bytes: &[u8], pos: usize, end: usize, utf16: bool) -> usize {
    let limit = end.min(pos + LINE_MAX);
    let Some(p) = memchr::memchr(b'\n', &bytes[pos..limit]).map(|i| pos + i) else {
        return limit;
    };
    if !utf16 {
        return p + 1;
    }
    // Where the units of each reading start.
    let after_le_feed = pos > 0 && bytes[pos] == 0 && bytes[pos - 1] == b'\n';
    let le = (Wide::Utf16Le, if after_le_feed { pos + 1 } else { pos });
    let be = (Wide::Utf16Be, pos);
    let feed = |(w, first): (Wide, usize), at: usize| match w {
        Wide::Utf16Le => {
            at >= first && (at - first).is_multiple_of(2) && bytes.get(at + 1) == Some(&0)
        }
        _ => at > first && !(at - first).is_multiple_of(2) && bytes[at - 1] == 0,
    };
    // A piece UTF-8 explains ends here, unless the 0A is half of the first unit of text.
    let utf8 = explained_by_utf8(&bytes[pos..p + 1]);
    let half = |(w, first): (Wide, usize)| half_of_first_unit(bytes, w, first, p, limit);
    if feed(le, p) || feed(be, p) || (utf8 && !half(le) && !half(be)) {
        return p + 1;
    }
    for (w, first) in [le, be] {
        if utf8 && !half((w, first)) {
            continue;
        }
        let next = memchr::memchr_iter(b'\n', &bytes[p + 1..limit])
            .map(|i| p + 1 + i)
            .find(|at| feed((w, first), *at));
        let Some(q) = next else { continue };
        // UTF-16LE's line feed whole, with its 00.
        let line = &bytes[first..(q + 1 + usize::from(w == Wide::Utf16Le)).min(bytes.len())];
        if wide::text_in(line, Some(w)).is_some() {
            return q + 1;
        }
    }
    p + 1
}

/// Whether the byte `0A` at `p` is half of the first code unit of UTF-16 `w` whose units
/// start at `first` (`上`, U+4E0A, is `0A 4E` in UTF-16LE; Gurmukhi and Gujarati are
/// U+0A00..0AFF) that reads as text: that unit is nothing that no text holds, and a letter
/// (if it is one) of a script that the units after it, up to `end`, give.
fn half_of_first_unit(bytes: &[u8], w: Wide, first: usize, p: usize, end: usize) -> bool {
    let unit = first..first + w.unit();
    if !unit.contains(&p) || unit.end >= end {
        return false;
    }
    fits_among(w, &bytes[unit.clone()], &bytes[unit.end..end])
}

/// Whether `piece`, read as `w`, is of the text `around` it, read so too: nothing in it
/// that no text holds (a control, an unassigned or private-use code point), and letters
/// only of scripts `around` gives, not bytes that merely decode.
fn fits_among(w: Wide, piece: &[u8], around: &[u8]) -> bool {
    let own = wide::reading(w, piece);
    let near = wide::reading(w, around);
    own.odd == 0
        && own
            .scripts
            .iter()
            .all(|(g, _)| near.scripts.iter().any(|(n, _)| n == g))
}

/// Whether `line` is valid UTF-8 without a control byte (as [`wide::is_control`] counts them).
fn explained_by_utf8(line: &[u8]) -> bool {
    !line.iter().any(|b| wide::is_control(*b)) && simdutf8::basic::from_utf8(line).is_ok()
}

/// Counts of one line (or 4 KiB) of a block with errors.
struct Line {
    start: usize,
    errors: usize,
    multibyte: usize,
    zeros: usize,
    /// Controls other than NUL (as [`Sample`] counts them).
    controls: usize,
}

impl Line {
    fn new(start: usize) -> Line {
        Line {
            start,
            errors: 0,
            multibyte: 0,
            zeros: 0,
            controls: 0,
        }
    }

    fn finish(self, bytes: &[u8], end: usize) -> (Range<usize>, Kind) {
        let len = end - self.start;
        let kind = if self.zeros * 4 >= len && len >= wide::MIN_BYTES {
            // A line of wide text starts in the middle of a code unit as often as not
            // (UTF-16LE's line feed is 0A 00): either alignment will do here. UTF-16BE's
            // line feed (00 0A) puts its zero where ASCII's go, against the pattern of a
            // line of units whose low byte is 00 (box drawing, U+2500 is 25 00): the
            // pattern is also looked for without it.
            let body = match bytes[self.start..end] {
                [.., 0, b'\n'] => end - 2,
                _ => end,
            };
            let wide = wide::guess(&bytes[self.start..end])
                .or_else(|| wide::guess(&bytes[self.start + 1..end]))
                .or_else(|| wide::guess(&bytes[self.start..body]));
            if wide.is_some() {
                Kind::Zeros
            } else {
                Kind::Legacy
            }
        } else if (self.zeros > 0 || bytes.get(end) == Some(&0))
            && len > wide::MIN_BYTES
            && self.errors + self.controls > 0
            && {
                // With UTF-16LE's line feed whole (0A 00), from either alignment: a line
                // of CJK may have no other zero byte.
                let whole = if bytes.get(end) == Some(&0) {
                    end + 1
                } else {
                    end
                };
                wide::read_as_text(&bytes[self.start..whole]).is_some()
                    || wide::read_as_text(&bytes[self.start + 1..whole]).is_some()
            }
        {
            // Wide text of a script that fills both bytes of its units (Cyrillic, CJK):
            // its zeros are its spaces and line ends only. A line UTF-8 explains (no
            // error, no control) is not asked: Cyrillic in UTF-16LE is valid UTF-8, but
            // 04 after ASCII letters, a control.
            Kind::Zeros
        } else if self.errors == 0 {
            if self.multibyte > 0 {
                Kind::Utf8
            } else {
                Kind::Neutral
            }
        } else if self.multibyte >= self.errors {
            Kind::Utf8
        } else {
            Kind::Legacy
        };
        (self.start..end, kind)
    }
}

/// Adjacent stretches of one kind merged; ASCII-only stretches join the region before
/// them (the first ones, the region after), but not wide text ([`Kind::Zeros`],
/// [`Kind::Wide`]) where together they are ASCII text of [`wide::MIN_BYTES`] bytes or
/// more ([`ascii_text`]): UTF-16 text has no such stretch, so they stay a region of their
/// own, UTF-8 (an ASCII log with UTF-16 appended), and do not spoil the reading of the
/// wide region. Shorter ones are the pieces of a UTF-16 line cut at a `0A` byte
/// (`0A 00 0A 4E` is UTF-16LE's line feed and `上`) as often as a line of ASCII: they join
/// it, and [`settle_wide`] cuts the lines of ASCII text off its edges, which then stay
/// apart from the settled region ([`Kind::Wide`]) when regions are merged again.
fn merge_stretches(
    bytes: &[u8],
    stretches: Vec<(Range<usize>, Kind)>,
) -> Vec<(Range<usize>, Kind)> {
    // ASCII-only stretches beside wide text that stay apart: ASCII text of 16 bytes or
    // more, and once the wide region is settled (the second merge), the lines
    // `settle_wide` cut off its edges.
    let apart = |k: Kind, neutral: &Range<usize>| match k {
        Kind::Wide(_) => true,
        Kind::Zeros => ascii_text(bytes, neutral),
        _ => false,
    };
    // Runs of ASCII-only stretches first, judged whole.
    let mut runs: Vec<(Range<usize>, Kind)> = Vec::new();
    for (range, kind) in stretches {
        match runs.last_mut() {
            Some((prev, Kind::Neutral)) if kind == Kind::Neutral => prev.end = range.end,
            _ => runs.push((range, kind)),
        }
    }
    let mut out: Vec<(Range<usize>, Kind)> = Vec::new();
    for (range, kind) in runs {
        match out.last_mut() {
            Some((prev, k)) if *k == kind || (kind == Kind::Neutral && !apart(*k, &range)) => {
                prev.end = range.end
            }
            Some((prev, k)) if *k == Kind::Neutral && !apart(kind, prev) => {
                prev.end = range.end;
                *k = kind;
            }
            _ => out.push((range, kind)),
        }
    }
    // A neutral start merged into what follows already; merge again equal neighbours.
    let mut merged: Vec<(Range<usize>, Kind)> = Vec::new();
    for (range, kind) in out {
        match merged.last_mut() {
            Some((prev, k)) if *k == kind => prev.end = range.end,
            _ => merged.push((range, kind)),
        }
    }
    merged
}

/// Whether the ASCII-only stretch `range` of `bytes` is ASCII text: [`wide::MIN_BYTES`]
/// bytes or more, no zero byte and no control (the `00` that completes a UTF-16LE line
/// feed, `0A 00`, cut after its `0A`, does not count). An ASCII-only stretch inside UTF-16 text has one or the other: the
/// zero bytes of its spaces and of UTF-16BE's line feed (`00 0A`), the high bytes of
/// Greek (`03`), Cyrillic (`04`), Hebrew (`05`) or Arabic (`06`) letters.
fn ascii_text(bytes: &[u8], range: &Range<usize>) -> bool {
    let after_le_feed =
        range.start > 0 && bytes.get(range.start) == Some(&0) && bytes[range.start - 1] == b'\n';
    let text = &bytes[range.start + usize::from(after_le_feed)..range.end];
    text.len() >= wide::MIN_BYTES
        && memchr::memchr(0, text).is_none()
        && !text.iter().any(|b| wide::is_control(*b))
}

/// Whether a whole line of `bytes[range]` (cut after each `0A`; the first one only where
/// `range` starts the input or a line, the last one only where it ends the input or a
/// line) is ASCII text ([`ascii_text`]).
fn ascii_line_in(bytes: &[u8], range: Range<usize>) -> bool {
    let mut pos = range.start;
    if pos > 0 && bytes[pos - 1] != b'\n' {
        pos = memchr::memchr(b'\n', &bytes[pos..range.end]).map_or(range.end, |i| pos + i + 1);
    }
    while pos < range.end {
        let end = memchr::memchr(b'\n', &bytes[pos..range.end]).map_or(range.end, |i| pos + i + 1);
        let whole = bytes[end - 1] == b'\n' || end == bytes.len();
        if whole && bytes[pos..end].is_ascii() && ascii_text(bytes, &(pos..end)) {
            return true;
        }
        pos = end;
    }
    false
}

/// Whether `bytes` starts or ends with a whole line of ASCII text ([`ascii_line`]) of any
/// length, with its line feed: the first line cut at its `0A` where that `0A` is no part of
/// wide text's first line ([`wide_first_line`]), the last one a `0A` after a byte other
/// than `00` (not UTF-16BE's line feed) and after the `0A` before it (with the `00` of
/// UTF-16LE's line feed after that one).
fn ascii_edge_line(bytes: &[u8]) -> bool {
    let first = memchr::memchr(b'\n', bytes)
        .is_some_and(|p| ascii_line(&bytes[..p]) && !wide_first_line(bytes, p));
    let last = match bytes {
        [.., before, b'\n'] if *before != 0 => {
            let p = bytes.len() - 1;
            let before = memchr::memrchr(b'\n', &bytes[..p]);
            let start = match before {
                Some(q) if bytes[q + 1] == 0 => q + 2,
                Some(q) => q + 1,
                None => 0,
            };
            // Between two 0A bytes that are halves of code units (Gurmukhi in UTF-16LE,
            // `ਦਾ` is `26 0A 3E 0A`), the end of wide text and no line.
            let halves = before.is_some_and(|q| {
                let feed = if q.is_multiple_of(2) {
                    bytes[q + 1] == 0
                } else {
                    q > 0 && bytes[q - 1] == 0
                };
                !feed && wide_last_unit(bytes)
            });
            ascii_line(&bytes[start..p]) && !halves
        }
        _ => false,
    };
    first || last
}

/// Whether the first `0A` of `bytes`, at `p` after bytes that make a line of ASCII, is
/// part of the first line of wide text rather than the end of a line of ASCII before it:
/// UTF-16LE's line feed at the start (`0A 00`, an empty first line), or half of a code
/// unit (`上`, U+4E0A, is `0A 4E` in UTF-16LE and `4E 0A` in UTF-16BE; Gurmukhi and
/// Gujarati are U+0A00..0AFF) of a wide encoding in which the input's first
/// [`wide::TEXT_HEAD`] bytes read as text from its start ([`wide::text_in`]) and in which
/// the units up to and with that one give nothing that no text holds and letters only of
/// scripts that the next 4 KiB give. A line of ASCII before a block of wide text misaligns
/// it, or read as its units gives letters of other scripts (`[build] start` and its `0A`
/// are Han and a Gurmukhi letter in UTF-16LE, before Latin or Chinese text); where it
/// gives the block's own script (an even number of ASCII bytes read as UTF-16BE are Han,
/// before Chinese), the bytes alone cannot tell, and the line is read as the text's.
fn wide_first_line(bytes: &[u8], p: usize) -> bool {
    if p == 0 && bytes.get(1) == Some(&0) {
        return true;
    }
    let head = &bytes[..bytes.len().min(wide::TEXT_HEAD)];
    [Wide::Utf16Le, Wide::Utf16Be, Wide::Utf32Le, Wide::Utf32Be]
        .into_iter()
        .any(|w| {
            let end = (p / w.unit() + 1) * w.unit();
            end < head.len()
                && wide::text_in(head, Some(w)).is_some()
                && fits_among(w, &head[..end], &head[end..head.len().min(end + 4096)])
        })
}

/// Whether `bytes`, which end in a byte `0A`, end in wide text whose last code unit holds
/// that `0A`: in UTF-16LE or UTF-16BE from the start of the input, the last 4 KiB read as
/// text ([`wide::text_in`]), and the last unit is nothing that no text holds and a letter
/// (if it is one) of a script the units before it give.
fn wide_last_unit(bytes: &[u8]) -> bool {
    let n = bytes.len();
    n.is_multiple_of(2)
        && n >= 4
        && [Wide::Utf16Le, Wide::Utf16Be].into_iter().any(|w| {
            let from = n.saturating_sub(4096) & !1;
            fits_among(w, &bytes[n - 2..], &bytes[from..n - 2])
                && wide::text_in(&bytes[from..], Some(w)).is_some()
        })
}

/// Regions of wide text get their encoding: a region that ends in the middle of a code
/// unit takes the zero bytes that complete it from the next region (UTF-16LE's last line
/// feed, 0A 00, was cut after 0A), and the zero pattern is then read from the region's own
/// start. Lines of ASCII text at the region's edges, however short, are cut off it
/// ([`ascii_head`], [`ascii_tail`]) and become ASCII-only regions of their own, where the
/// rest still reads as wide text: an ASCII header of the input misaligns every unit after
/// it, a trailing ASCII line makes the region end off its units.
fn settle_wide(bytes: &[u8], mut regions: Vec<(Range<usize>, Kind)>) -> Vec<(Range<usize>, Kind)> {
    let mut out = Vec::with_capacity(regions.len());
    for i in 0..regions.len() {
        let (range, kind) = regions[i].clone();
        if kind != Kind::Zeros {
            out.push((range, kind));
            continue;
        }
        let unit_end = |start: usize| {
            let mut end = range.end;
            while (end - start) % 2 == 1 && end < bytes.len() && bytes[end] == 0 {
                end += 1;
            }
            end
        };
        let head = ascii_head(bytes, range.clone());
        let end = unit_end(head);
        let mut tail = ascii_tail(bytes, head..end);
        // An open last line of ASCII text whose bytes read as no text in the region's
        // encoding (`all good`: `l ` is U+206C in UTF-16LE, a format control) would keep
        // the whole region from reading as wide text: it is cut first where the rest
        // reads so ([`open_ascii_tail`] cuts it where the whole reads as text).
        if let Some(open) = open_tail(bytes, head..tail) {
            let wide = |to: usize| matches!(wide_kind(bytes, head..to), Kind::Wide(_));
            if !wide(tail) && wide(open) {
                tail = open;
            }
        }
        let cut = (head, tail) != (range.start, end);
        let trimmed = match cut.then(|| wide_kind(bytes, head..tail)) {
            Some(wide @ Kind::Wide(_)) => Some((wide, end)),
            _ => None,
        };
        let end = match trimmed {
            Some((wide, end)) => {
                out.push((range.start..head, Kind::Neutral));
                push_wide(&mut out, bytes, head..tail, wide);
                out.push((tail..end, Kind::Neutral));
                end
            }
            None => {
                let end = unit_end(range.start);
                push_wide(
                    &mut out,
                    bytes,
                    range.start..end,
                    wide_kind(bytes, range.start..end),
                );
                end
            }
        };
        if let Some(next) = regions.get_mut(i + 1) {
            next.0.start = end;
        }
    }
    out.retain(|(r, _)| !r.is_empty());
    out
}

/// Pushes the settled region `bytes[range]` of `kind` onto `out`; a region of wide text at
/// the end of the input without the last line ([`open_ascii_tail`]), which follows it as an
/// ASCII-only region of its own.
fn push_wide(out: &mut Vec<(Range<usize>, Kind)>, bytes: &[u8], range: Range<usize>, kind: Kind) {
    let end = match kind {
        Kind::Wide(w) => open_ascii_tail(bytes, range.clone(), w),
        _ => range.end,
    };
    out.push((range.start..end, kind));
    out.push((end..range.end, Kind::Neutral));
}

/// What the region `bytes[range]` of zero bytes is, read from its start: UTF-16 or UTF-32
/// text ([`Kind::Wide`], [`wide::text_in`]), or else [`Kind::Legacy`].
fn wide_kind(bytes: &[u8], range: Range<usize>) -> Kind {
    wide::text_in(&bytes[range], None).map_or(Kind::Legacy, Kind::Wide)
}

/// Whether `line` (without its line feed) is a line of ASCII text: bytes 00..7F with no
/// zero byte and no control (a tab, CR, FF and ESC are text's). UTF-16 text of Latin
/// letters has zero bytes, of Greek, Cyrillic, Hebrew or Arabic letters controls.
fn ascii_line(line: &[u8]) -> bool {
    line.iter()
        .all(|b| b.is_ascii() && *b != 0 && !wide::is_control(*b))
}

/// Where the wide text of the region `bytes[range]` starts: after the lines of ASCII text
/// ([`ascii_line`], each ending in a byte `0A`) it starts with, or at its start; a `0A`
/// that is half of the first unit of UTF-16 text ([`half_of_first_unit`]) whose line reads
/// as text ends no such line. Only the
/// first region of an input starts so: the ASCII-only lines before any other join the
/// region before them ([`merge_stretches`]).
fn ascii_head(bytes: &[u8], range: Range<usize>) -> usize {
    let mut pos = range.start;
    while let Some(p) = memchr::memchr(b'\n', &bytes[pos..range.end]).map(|i| pos + i) {
        if !ascii_line(&bytes[pos..p]) {
            break;
        }
        // `上` at the start of the wide text, not an empty line before it: its line, up to
        // the next line feed of `w`, reads as text in `w`.
        let end = range.end.min(pos + LINE_MAX);
        let wide_text = |w: Wide| {
            let le = usize::from(w == Wide::Utf16Le);
            let stop = memchr::memchr_iter(b'\n', &bytes[p + 1..end])
                .map(|i| p + 1 + i)
                .find(|q| (q - pos) % 2 != le && utf16_feed(bytes, pos, *q))
                .map_or(end, |q| (q + 1 + le).min(bytes.len()));
            half_of_first_unit(bytes, w, pos, p, stop)
                && wide::text_in(&bytes[pos..stop], Some(w)).is_some()
        };
        if wide_text(Wide::Utf16Le) || wide_text(Wide::Utf16Be) {
            break;
        }
        pos = p + 1;
    }
    pos
}

/// Where the wide text of the region `bytes[range]`, whose first code unit starts at
/// `range.start`, ends: before the lines of ASCII text ([`ascii_line`]) it ends with, each
/// ending in a byte `0A` that is no UTF-16 line feed at the region's alignment (`0A 00`
/// with the `0A` at an even offset from the start, `00 0A` with it at an odd one), the
/// first of them right after such a line feed, so that the region keeps whole code units;
/// or at its end. Of a UTF-16 line cut at a `0A` inside a character (`上`, U+4E0A, is
/// `0A 4E` in UTF-16LE), the piece after the cut starts off the units and is no line of its
/// own here.
fn ascii_tail(bytes: &[u8], range: Range<usize>) -> usize {
    let start = range.start;
    let (mut cut, mut end) = (range.end, range.end);
    while cut > start && bytes[cut - 1] == b'\n' && !utf16_feed(bytes, start, cut - 1) {
        let p = cut - 1;
        let Some(q) = memchr::memrchr(b'\n', &bytes[start..p]).map(|i| start + i) else {
            break;
        };
        let line_start = line_after(bytes, start, q);
        if line_start > p || !ascii_line(&bytes[line_start..p]) {
            break;
        }
        cut = line_start;
        if utf16_feed(bytes, start, q) {
            end = cut;
        }
    }
    end
}

/// Where the lines of ASCII text ([`ascii_line`]) that end the region `bytes[range]` start,
/// if the last of them is the input's last, with no line feed after it, and the first
/// follows a UTF-16 line feed at the region's alignment (units from `range.start`).
fn open_tail(bytes: &[u8], range: Range<usize>) -> Option<usize> {
    let (start, end) = (range.start, range.end);
    if end != bytes.len() || end == start || bytes[end - 1] == b'\n' {
        return None;
    }
    // The end of the line looked at, without its line feed.
    let mut p = end;
    loop {
        let q = memchr::memrchr(b'\n', &bytes[start..p]).map(|i| start + i)?;
        if utf16_feed(bytes, start, q) {
            let line_start = line_after(bytes, start, q);
            return (line_start <= p && ascii_line(&bytes[line_start..p])).then_some(line_start);
        }
        if !ascii_line(&bytes[q + 1..p]) {
            return None;
        }
        p = q;
    }
}

/// Where the region `bytes[range]` of `w`, whose first code unit starts at `range.start`,
/// ends when its last line is the input's, with no line feed after it, and is ASCII text
/// ([`ascii_line`]) rather than the region's: before that line (and the lines of ASCII
/// text before it, [`ascii_tail`]), right after a UTF-16 line feed at the region's
/// alignment, so that the region keeps whole code units; or at its end. A line of whole
/// units is the region's where, read as `w`, it gives a letter of a script the region's
/// last 4 KiB give: ASCII bytes read as UTF-16 are Han and other CJK characters, which a
/// line of Chinese or Japanese (`田中` is `30 75 2D 4E` in UTF-16LE) also is.
fn open_ascii_tail(bytes: &[u8], range: Range<usize>, w: Wide) -> usize {
    let (start, end) = (range.start, range.end);
    if end != bytes.len() || end == start || bytes[end - 1] == b'\n' {
        return end;
    }
    let Some(q) = memchr::memrchr(b'\n', &bytes[start..end]).map(|i| start + i) else {
        return end;
    };
    let line_start = line_after(bytes, start, q);
    if line_start >= end || !ascii_line(&bytes[line_start..end]) {
        return end;
    }
    let unit = w.unit();
    if (end - line_start).is_multiple_of(unit) && (line_start - start).is_multiple_of(unit) {
        let from = start + (line_start - start).saturating_sub(4096).div_ceil(unit) * unit;
        let region = wide::reading(w, &bytes[from..line_start]);
        let line = wide::reading(w, &bytes[line_start..end]);
        let shared = line
            .scripts
            .iter()
            .any(|(g, _)| region.scripts.iter().any(|(r, _)| r == g));
        if shared {
            return end;
        }
    }
    if utf16_feed(bytes, start, q) {
        return line_start;
    }
    // The line before is ASCII text too, ending in a 0A that is no line feed of the region.
    match ascii_tail(bytes, start..line_start) {
        before if before < line_start => before,
        _ => end,
    }
}

/// Whether the byte `0A` at `p` is a UTF-16 line feed at the alignment of units that
/// start at `first`: `0A 00` with the `0A` at an even offset from it, `00 0A` at an odd one.
fn utf16_feed(bytes: &[u8], first: usize, p: usize) -> bool {
    match (p - first).is_multiple_of(2) {
        true => bytes.get(p + 1) == Some(&0),
        false => bytes[p - 1] == 0,
    }
}

/// Where the line after the `0A` at `q` starts, in units that start at `first`: after the
/// `00` of a UTF-16LE line feed (`0A 00`, [`utf16_feed`]), else right after the `0A`.
fn line_after(bytes: &[u8], first: usize, q: usize) -> usize {
    let le_feed = (q - first).is_multiple_of(2) && bytes.get(q + 1) == Some(&0);
    q + 1 + usize::from(le_feed)
}

/// Whether every error of `bytes` read as UTF-8 is one of UTF-8's own broken shapes, at
/// least one: an overlong form (`C0 AF` for `/`, the path-traversal shape), a surrogate
/// or a pair of them in 3-byte forms (CESU-8), a 4-byte form above U+10FFFF, a 5- or
/// 6-byte form of RFC 2279. A UTF-8 encoder, lax or hostile, wrote these; a legacy
/// encoding may read one as a character or two (`C0 AF` is a Hangul syllable in EUC-KR),
/// but its text would have errors of other shapes too.
fn errors_of_utf8_shapes(bytes: &[u8]) -> bool {
    // Where the last such form ends: the bytes after its first are error units of their
    // own.
    let mut form_end = None;
    for unit in Dialect::Utf8.units(bytes) {
        if !unit.is_error() || form_end.is_some_and(|end| unit.start < end) {
            continue;
        }
        match utf8_shape_at(bytes, unit.start) {
            Some(end) => form_end = Some(end),
            None => return false,
        }
    }
    form_end.is_some()
}

/// Where the UTF-8 error unit at `at` ends as one of UTF-8's own broken shapes (see
/// [`errors_of_utf8_shapes`]), with the error units after it that belong to the form;
/// `None` for any other error.
fn utf8_shape_at(bytes: &[u8], at: usize) -> Option<usize> {
    // Each shape is a lead that strict UTF-8 refuses or limits (C0 C1 E0 ED F0 F4..FD)
    // followed by a continuation byte: the other errors (a windows-1252 letter before
    // ASCII) are passed without a diagnosis.
    let lead = matches!(
        bytes.get(at),
        Some(0xC0 | 0xC1 | 0xE0 | 0xED | 0xF0 | 0xF4..=0xFD)
    );
    if !lead || !matches!(bytes.get(at + 1), Some(0x80..=0xBF)) {
        return None;
    }
    let unit = Dialect::Utf8.decode_at(bytes, at);
    match Dialect::Utf8
        .diagnose(bytes, &unit)
        .map(|d| (d.finding, d.span))
    {
        Some((
            Finding::Overlong { .. }
            | Finding::Surrogate { .. }
            | Finding::SurrogatePair { .. }
            | Finding::AboveUnicode { .. }
            | Finding::LegacyForm { .. },
            span,
        )) => Some(unit.start + span as usize),
        _ => None,
    }
}

/// The characters of the head of `bytes` (up to [`GUESS_BYTES`], as a guess reads it)
/// read through the encoding `label` names; `None` for a label encoding_rs does not know.
fn read_through(bytes: &[u8], label: &str) -> Option<Vec<char>> {
    let encoding = encoding_rs::Encoding::for_label(label.as_bytes())?;
    let sample = &bytes[..bytes.len().min(GUESS_BYTES)];
    let (text, _) = encoding.decode_without_bom_handling(sample);
    Some(text.chars().collect())
}

/// Whether `bytes` read through `label` look like text: of the runs of non-ASCII
/// characters the reading gives, at least 70% hold a letter and either are three
/// characters or longer, touch a letter, or stand as a word between spaces. Letters with
/// diacritics sit inside words, and CJK text comes in long runs; the bytes of UTF-8 errors
/// shown one by one between brackets (a test file, a demo) do neither. A run of
/// punctuation, symbols and spaces only (`—`, `‘quoted’`, `€5`) counts neither way where
/// text of any encoding puts signs ([`signs_in_place`]), and a reading of such runs alone
/// is text; elsewhere it counts against. So
/// does a run with a capital letter of a single-byte encoding's row 80..9F inside a word,
/// after a letter and before a small letter (`MŸller`, `BŠckerei`: Mac OS Roman's ü and ä
/// read as windows-1252), which no text writes.
fn reads_as_text(bytes: &[u8], label: &str) -> bool {
    let Some(chars) = read_through(bytes, label) else {
        return false;
    };
    // A single-byte encoding gives one character per byte: the capitals of its row 80..9F
    // (windows-1252's Š Œ Ž Ÿ, windows-1250's Ś Ť Ź, windows-1251's Ђ Ѓ Љ Њ ...) are
    // known by their bytes.
    let single_byte = encoding_rs::Encoding::for_label(label.as_bytes())
        .is_some_and(|e| e.is_single_byte())
        && chars.len() == bytes.len().min(GUESS_BYTES);
    let row8_capital_inside = |at: usize| {
        single_byte
            && (0x80..=0x9F).contains(&bytes[at])
            && judge::is_upper(chars[at])
            && at > 0
            && judge::is_letter(chars[at - 1])
            && chars.get(at + 1).is_some_and(|c| judge::is_lower(*c))
    };
    let (mut runs, mut good, mut in_place) = (0usize, 0usize, 0usize);
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii() {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && !chars[i].is_ascii() {
            i += 1;
        }
        let run = &chars[start..i];
        if run.iter().all(|c| judge::is_sign(*c)) && signs_in_place(&chars, start..i) {
            in_place += 1;
            continue;
        }
        // A word's edge: a letter, a space, the start or the end beside the run; for a run
        // of two characters or more, also a separator of a table's cells (a comma, a
        // semicolon or a bar between the cells of a CSV: `张伟,北京`; one character after a
        // comma is as often a stray byte of UTF-8 read as a letter).
        let separator = |c: char| run.len() >= 2 && matches!(c, ',' | ';' | '|');
        // A run of letters (and CJK punctuation) stands as a word does beside a number
        // (`第0行`, `3月`, `100元。`) and before a colon (`이름: 김철수`); a run with a sign
        // does not (`2Â°C` is UTF-8's `2°C` misread).
        let letters = run
            .iter()
            .all(|c| judge::is_letter(*c) || legacy::cjk_punctuation(*c))
            && run.iter().any(|c| judge::is_letter(*c));
        let wordlike = |c: Option<&char>| {
            c.is_none_or(|c| {
                judge::is_letter(*c)
                    || c.is_whitespace()
                    || separator(*c)
                    || (letters && (c.is_ascii_digit() || *c == ':'))
            })
        };
        let touches = wordlike(start.checked_sub(1).map(|j| &chars[j])) && wordlike(chars.get(i))
            || (start > 0 && judge::is_letter(chars[start - 1]))
            || chars.get(i).is_some_and(|c| judge::is_letter(*c));
        runs += 1;
        // A capital of row 80..9F inside a word (after a letter, before a small one) is no
        // text: windows-1252's Ÿ stands in French words in capitals, its Š and Ž start
        // Czech and Croatian names (`MŸller` and `fŸr` are Mac OS Roman's `Müller`, `für`).
        if (start..i).any(row8_capital_inside) {
            continue;
        }
        if run.iter().any(|c| judge::is_letter(*c)) && (run.len() >= 3 || touches) {
            good += 1;
        }
    }
    // Signs in place alone (a line of Dutch between `“` and `”`) are text too.
    match runs {
        0 => in_place > 0,
        _ => good * 10 >= runs * 7,
    }
}

/// Whether `bytes` read through `label` give a C1 control (U+0080..U+009F), which is what
/// the web's tables make of a byte a single-byte encoding leaves undefined (windows-1252's
/// 81, 8D, 8F, 90 and 9D): text in that encoding has none.
fn undefined_in(bytes: &[u8], label: &str) -> bool {
    read_through(bytes, label)
        .is_some_and(|chars| chars.iter().any(|c| ('\u{80}'..='\u{9F}').contains(c)))
}

/// Whether `bytes` read through `label` (a single-byte encoding) put their non-ASCII
/// characters inside words: at least half of them (but signs in place, the apostrophe of
/// `l’aube`) are letters beside an ASCII letter of the same case (`garçon`, `mangé`; not
/// `cittÖ`), or a capital starting a word before small ones (`Über`). The stronger evidence hexrune asks of a guess of its own, beyond
/// chardetng's ([`MACINTOSH`]).
fn letters_in_words(bytes: &[u8], label: &str) -> bool {
    let Some(chars) = read_through(bytes, label) else {
        return false;
    };
    // An ASCII letter beside the character at `i`, of the same case (a capital inside a
    // lower-case word is a misread byte).
    let beside = |i: usize, c: char| {
        let same = |j: Option<usize>| {
            j.and_then(|j| chars.get(j)).is_some_and(|n| {
                n.is_ascii_alphabetic() && n.is_ascii_uppercase() == judge::is_upper(c)
            })
        };
        // A capital starting a word before its small letters (`Über`).
        let starts_word = judge::is_upper(c)
            && !i.checked_sub(1).is_some_and(|j| judge::is_letter(chars[j]))
            && chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
        same(i.checked_sub(1)) || same(Some(i + 1)) || starts_word
    };
    let (mut outside, mut inside) = (0usize, 0usize);
    for (i, c) in chars.iter().enumerate().filter(|(_, c)| !c.is_ascii()) {
        // A sign where text puts it (the apostrophe of `l’aube`) is neither.
        if judge::is_sign(*c) && signs_in_place(&chars, i..i + 1) {
            continue;
        }
        outside += 1;
        if judge::is_letter(*c) && beside(i, *c) {
            inside += 1;
        }
    }
    outside > 0 && inside * 2 >= outside
}

/// Whether the run of signs `chars[run]` stands where text puts signs: between spaces or
/// digits (`—` between spaces, `€5`), or a quotation mark at the edge of a word on the side
/// it belongs to (`‘quoted’`, `«mot»`) or after a sentence's punctuation (`today.”`), or
/// the apostrophe inside one (`l’odeur`). A misread byte glued to a word (`komad¦ kruha`)
/// does not.
fn signs_in_place(chars: &[char], run: Range<usize>) -> bool {
    let before = run.start > 0 && judge::is_letter(chars[run.start - 1]);
    let after = chars.get(run.end).is_some_and(|c| judge::is_letter(*c));
    let signs = &chars[run.clone()];
    // Beside no letter: between spaces or digits (`—`, `€5`, `20 °`), not between
    // brackets, where a test file or a demo shows misread bytes one by one.
    let free = |c: Option<&char>| c.is_none_or(|c| c.is_whitespace() || c.is_ascii_digit());
    // A closing mark after a sentence's punctuation (`today.”`, `yes,’`).
    let closes_sentence = matches!(signs, ['’' | '”' | '»' | '›'])
        && run.start > 0
        && matches!(chars[run.start - 1], '.' | ',' | '!' | '?' | ';' | ':')
        && free(chars.get(run.end));
    match (before, after) {
        // A few signs between spaces; a word's length of them is a word misread (Russian
        // capitals in windows-1251 read as IBM866 are lines of a frame: `╨└═└╤`).
        (false, false) => {
            closes_sentence
                || signs.len() <= 3
                    && free(run.start.checked_sub(1).map(|j| &chars[j]))
                    && free(chars.get(run.end))
        }
        (false, true) => matches!(signs, ['‘' | '“' | '„' | '‚' | '«' | '‹']),
        (true, false) => matches!(signs, ['’' | '”' | '»' | '›']),
        (true, true) => signs == ['’'],
    }
}

/// ` but for 1 malformed sequence at 12 (A1)`, ` but for 9 malformed sequences, the first at
/// 120 (F0 40)`: the malformed sequences of `malformed` (where a region starts, its
/// encoding, how many, the first) read as `encoding`, which [`legacy::guess`] named once
/// they were left out; empty for none.
fn but_for_malformed(
    bytes: &[u8],
    malformed: &[(usize, &str, usize, Range<usize>)],
    encoding: &str,
) -> String {
    let of: Vec<_> = malformed.iter().filter(|m| m.1 == encoding).collect();
    let Some((_, _, _, first)) = of.first() else {
        return String::new();
    };
    let n: usize = of.iter().map(|m| m.2).sum();
    format!(
        " but for {}{} {} ({})",
        counted(n as u64, "malformed sequence", "malformed sequences"),
        if n == 1 { " at" } else { ", the first at" },
        first.start,
        hex(&bytes[first.clone()])
    )
}
