//! Extended grapheme clusters (UAX #29) over decoded units, in byte offsets of the input:
//! what a reader sees as one character, however many code points and bytes it takes (a
//! flag is 2 code points and 8 bytes of UTF-8, a family emoji 7 and 25, a Zalgo cluster
//! has no bound).
//!
//! The boundaries come from the unicode-segmentation crate; this module feeds it the code
//! points the decoder found, in any dialect or encoding (UTF-8 and its dialects,
//! UTF-16/32, single-byte and multi-byte legacy encodings: a unit carries its code point,
//! a Big5 unit that decodes to two carries both), and maps its boundaries back to byte
//! offsets. It names no terminal type: the viewer's lane, its detail pane and `explain`
//! all read it, and a `dump` column can.
//!
//! # Units that are not characters
//!
//! An error unit, a surrogate (WTF-8, CESU-8, Modified UTF-8, UTF-16), a value above
//! U+10FFFF and an ISO-2022-JP escape sequence are clusters of their own: they break the
//! clusters around them as a control does (UAX #29 rules GB4 and GB5; a surrogate *is* a
//! control there). A combining mark after an error unit therefore starts a cluster of its
//! own, as it would after a line feed.
//!
//! # Windows of a large input
//!
//! [`window`] finds the clusters that meet a range of bytes without reading the whole
//! input: it decodes [`LOOK`] bytes before the range and [`LOOK`] bytes after it, and asks
//! the crate's cursor for the first boundary it can decide with that context only. From a
//! boundary on, segmentation is exact (no rule of UAX #29 joins across a boundary). What
//! lies before the first decidable boundary is one span whose start is unknown
//! ([`ClusterSpan::open_start`]): a Zalgo run of combining marks longer than [`LOOK`]
//! bytes. A run of regional indicators is the exception: its pairing (GB12, GB13) depends
//! on how many indicators precede the context, and they are counted back to the run's
//! start, 4 bytes at a time, however far that is, so a flag deep in a long run is found
//! whole (except in a multi-byte legacy encoding, which is not read backwards, and in a
//! run that starts after a prepended mark, GB9b). A span
//! cut by the end of the context after the range is [`ClusterSpan::open_end`]. The viewer
//! draws both as continuing (`…`).

use std::ops::Range;

use unicode_segmentation::{GraphemeCursor, UnicodeSegmentation};

use crate::decode::{Checkpoint, CodePoint, Dialect, Unit, UnitKind};
use crate::view::unicode::{self, GeneralCategory};

/// Bytes of context [`window`] decodes on each side of its range: 1 KiB, 256 code points
/// in UTF-32, far more than any cluster of real text (an emoji ZWJ sequence with skin tones
/// is about 35 bytes, a subdivision flag 28). Past it, a cluster's start is unknown.
pub const LOOK: u64 = 1024;

/// One extended grapheme cluster: a run of whole units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClusterSpan {
    /// Offset of its first byte (the first byte decoded, when [`ClusterSpan::open_start`]).
    pub start: u64,
    /// Its length in bytes.
    pub len: u64,
    /// Units in it.
    pub units: u32,
    /// Code points in it: 0 for an error unit or an escape sequence, 2 for a Big5 unit
    /// that decodes to two.
    pub cps: u32,
    /// The cluster may start before [`ClusterSpan::start`]: no boundary could be decided
    /// within [`LOOK`] bytes of context.
    pub open_start: bool,
    /// The cluster may go on after its end: the context decoded ended there, not the input.
    pub open_end: bool,
}

impl ClusterSpan {
    /// One past its last byte.
    pub const fn end(&self) -> u64 {
        self.start + self.len
    }

    /// Whether `offset` falls in it.
    pub const fn contains(&self, offset: u64) -> bool {
        self.start <= offset && offset < self.end()
    }

    /// Whether it joins several code points (or may: an open span), which the viewer's
    /// lane brackets; a cluster of one code point is just that character.
    pub const fn joins(&self) -> bool {
        self.cps > 1 || self.open_start || (self.open_end && self.cps > 0)
    }
}

/// How a cluster's bracket looks on one row of `row_start..row_end`: the columns of its
/// first and last byte there, and its ends: `╰` `╯` where it starts or ends on the row, `─`
/// where it goes on into the row before or after, `…` where its start or end lies past the
/// context decoded ([`LOOK`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneMark {
    /// Column (byte index in the row) of its first byte on the row.
    pub first: u64,
    /// Column of its last byte on the row.
    pub last: u64,
    /// `╰`, `─` or `…`.
    pub left: char,
    /// `╯`, `─` or `…`.
    pub right: char,
}

impl LaneMark {
    /// The bracket, `width` columns wide: `left`, `─` to fill, `right` (one column shows
    /// the end that is one: a cluster's last byte alone on a row shows `╯`).
    pub fn bracket(&self, width: usize) -> String {
        match width {
            0 => String::new(),
            1 if self.left != '\u{2500}' => self.left.to_string(),
            1 => self.right.to_string(),
            _ => {
                let mut s = String::from(self.left);
                s.extend(std::iter::repeat_n('\u{2500}', width - 2));
                s.push(self.right);
                s
            }
        }
    }
}

impl ClusterSpan {
    /// Cut to `shown`, the bytes of the rows shown, where its start or its end lies past the
    /// context decoded ([`ClusterSpan::open_start`], [`ClusterSpan::open_end`]): the rows
    /// outside belong to it, but where it starts or ends is not known, so its `…` is drawn
    /// on the first or last row shown, not off the screen.
    ///
    /// ```
    /// use hexrune::view::cluster::ClusterSpan;
    /// let zalgo = ClusterSpan { start: 0, len: 9000, units: 4500, cps: 4500, open_start: true, open_end: true };
    /// let shown = zalgo.cut_to(4096..4160);
    /// assert_eq!((shown.start, shown.end()), (4096, 4160));
    /// assert_eq!(shown.lane_mark(4096, 4112).map(|m| m.left), Some('…'));
    /// assert_eq!(zalgo.cut_to(0..16_000).end(), 9000);
    /// ```
    pub fn cut_to(mut self, shown: Range<u64>) -> ClusterSpan {
        let end = self.end();
        if self.open_start && self.start < shown.start {
            self.start = shown.start;
        }
        self.len = match self.open_end && end > shown.end {
            true => shown.end.saturating_sub(self.start),
            false => end - self.start,
        };
        self
    }

    /// Its bracket on the row of bytes `row_start..row_end`, if it meets the row.
    ///
    /// ```
    /// use hexrune::view::cluster::window;
    /// // A flag (8 bytes from offset 1) on rows of 4 bytes: it starts on row 0, ends on 2.
    /// let text = "a\u{1F1EB}\u{1F1F7}b".as_bytes();
    /// let flag = window(text, hexrune::decode::Dialect::Utf8, 0..10, None)[1];
    /// let on = |r: u64| flag.lane_mark(r, r + 4).map(|m| m.bracket(3 * (m.last - m.first) as usize + 2));
    /// assert_eq!(on(0).as_deref(), Some("╰───────"));
    /// assert_eq!(on(4).as_deref(), Some("───────────"));
    /// assert_eq!(on(8).as_deref(), Some("─╯"));
    /// ```
    pub fn lane_mark(&self, row_start: u64, row_end: u64) -> Option<LaneMark> {
        if self.end() <= row_start || self.start >= row_end {
            return None;
        }
        Some(LaneMark {
            first: self.start.max(row_start) - row_start,
            last: self.end().min(row_end) - 1 - row_start,
            left: match (self.start < row_start, self.open_start) {
                (true, _) => '\u{2500}',
                (false, true) => '\u{2026}',
                (false, false) => '\u{2570}',
            },
            right: match (self.end() > row_end, self.open_end) {
                (true, _) => '\u{2500}',
                (false, true) => '\u{2026}',
                (false, false) => '\u{256F}',
            },
        })
    }
}

/// One unit as the segmentation sees it.
#[derive(Clone, Copy, Debug)]
struct Piece {
    unit: Unit,
    start: u64,
    len: u8,
    chars: [char; 2],
    /// Code points: 1, 2 (a Big5 pair), or 0 for a breaker (an error unit, a surrogate, a
    /// value above U+10FFFF, an escape sequence), segmented as a control.
    n: u8,
}

impl Piece {
    fn is_regional_indicator(&self) -> bool {
        self.n == 1 && is_regional_indicator(CodePoint::new(self.chars[0] as u32))
    }

    fn of(unit: &Unit) -> Piece {
        let chars = match unit.kind {
            UnitKind::Scalar(cp) => cp.to_char(),
            UnitKind::Error(_) => None,
        };
        Piece {
            unit: *unit,
            start: unit.start as u64,
            len: unit.len,
            chars: [chars.unwrap_or('\0'), '\0'],
            n: u8::from(chars.is_some()),
        }
    }
}

/// The clusters of `units`, taken as a whole text (the first unit at the start of a text,
/// the last at its end), in the offsets the units carry. Each unit contributes its code
/// point; for a Big5 unit that decodes to two code points use [`window`], which asks the
/// encoding.
///
/// ```
/// use hexrune::decode::Dialect;
/// use hexrune::view::cluster::spans;
/// // e, COMBINING ACUTE ACCENT, then x: two clusters, of 3 and 1 bytes.
/// let units: Vec<_> = Dialect::Utf8.units("e\u{301}x".as_bytes()).collect();
/// let s = spans(&units);
/// assert_eq!(s.iter().map(|c| (c.start, c.len, c.cps)).collect::<Vec<_>>(), [(0, 3, 2), (3, 1, 1)]);
/// ```
pub fn spans(units: &[Unit]) -> Vec<ClusterSpan> {
    let pieces: Vec<Piece> = units.iter().map(Piece::of).collect();
    segment(&pieces, true, true)
}

/// The clusters that meet `bytes[range]` decoded in `dialect`, in order, found with
/// [`LOOK`] bytes of context on each side (see the module docs); `checkpoint` is a
/// checkpoint at or before `range.start - LOOK` for a multi-byte legacy encoding (from the
/// scan's block index), as [`Dialect::resync`] takes it. Empty for an empty range.
///
/// ```
/// use hexrune::decode::Dialect;
/// use hexrune::view::cluster::window;
/// // "a🇫🇷b": the flag is two regional indicators, 8 bytes from offset 1.
/// let text = "a\u{1F1EB}\u{1F1F7}b".as_bytes();
/// let s = window(text, Dialect::Utf8, 3..4, None);
/// assert_eq!((s[0].start, s[0].len, s[0].cps), (1, 8, 2));
/// ```
pub fn window(
    bytes: &[u8],
    dialect: Dialect,
    range: Range<u64>,
    checkpoint: Option<Checkpoint>,
) -> Vec<ClusterSpan> {
    window_with(bytes, dialect, range, checkpoint, LOOK)
}

/// [`window`] over `bytes` that hold only a part of the input, as a stream is read:
/// `starts` says whether `bytes[0]` is the input's first byte, `ends` whether the input
/// ends with `bytes`, and `indicators` how many regional indicators, one after another,
/// end right before `bytes[0]` (the reader counts them as it lets bytes go, so that a
/// flag deep in a long run is paired as in the whole input). A cluster that reaches an
/// end of `bytes` that is not the input's is open there ([`ClusterSpan::open_start`],
/// [`ClusterSpan::open_end`]).
pub fn window_of_part(
    bytes: &[u8],
    dialect: Dialect,
    range: Range<u64>,
    checkpoint: Option<Checkpoint>,
    (starts, ends, indicators): (bool, bool, u64),
) -> Vec<ClusterSpan> {
    window_in(
        bytes,
        dialect,
        range,
        checkpoint,
        LOOK,
        (starts, ends),
        Some(indicators),
    )
}

/// How many regional indicators, one after another, end at `bytes.len()` (whole 4-byte
/// units of UTF-8, WTF-8 or the legacy dialect; 0 in other dialects), and whether they
/// reach back to `bytes[0]`: what a stream reader carries from the bytes it lets go (see
/// [`window_of_part`]).
pub fn indicators_at_end(bytes: &[u8], dialect: Dialect) -> (u64, bool) {
    if !matches!(dialect, Dialect::Utf8 | Dialect::Wtf8 | Dialect::Legacy) {
        return (0, false);
    }
    let (n, at) = regional_indicators_before(bytes, dialect, bytes.len() as u64);
    (n, at == 0)
}

/// [`window`] with another bound of context (the tests use small ones).
pub fn window_with(
    bytes: &[u8],
    dialect: Dialect,
    range: Range<u64>,
    checkpoint: Option<Checkpoint>,
    look: u64,
) -> Vec<ClusterSpan> {
    window_in(bytes, dialect, range, checkpoint, look, (true, true), None)
}

/// [`window_with`], where `bytes` may be a part of the input ([`window_of_part`]).
fn window_in(
    bytes: &[u8],
    dialect: Dialect,
    range: Range<u64>,
    checkpoint: Option<Checkpoint>,
    look: u64,
    (starts, ends): (bool, bool),
    carried: Option<u64>,
) -> Vec<ClusterSpan> {
    let len = bytes.len() as u64;
    let (s, e) = (range.start.min(len), range.end.min(len));
    if s >= e {
        return Vec::new();
    }
    let from = s.saturating_sub(look);
    let to = e.saturating_add(look).min(len);
    let mut pieces = decode(bytes, dialect, from..to, checkpoint);
    let mut sot = starts && pieces.first().is_some_and(|p| p.start == 0);
    let eot = ends && pieces.last().is_some_and(|p| p.start + p.len as u64 == len);
    if !sot && pieces.first().is_some_and(Piece::is_regional_indicator) {
        sot = pair_regional_indicators(bytes, dialect, &mut pieces, starts, carried);
    }
    segment(&pieces, sot, eot)
        .into_iter()
        .filter(|c| c.end() > s && c.start < e)
        .collect()
}

/// The units from the one containing `range.start` to the one containing `range.end - 1`.
fn decode(
    bytes: &[u8],
    dialect: Dialect,
    range: Range<u64>,
    checkpoint: Option<Checkpoint>,
) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let end = range.end as usize;
    if let Some(table) = dialect.multi_byte() {
        let found = dialect.resync(bytes, range.start as usize, checkpoint);
        let from = Checkpoint {
            at: found.unit.start,
            state: found.state,
        };
        for unit in dialect.units_from_checkpoint(bytes, from) {
            if unit.start >= end {
                break;
            }
            let mut piece = Piece::of(&unit);
            if unit.code_point() == Some(CodePoint::ESCAPE_SEQUENCE) {
                piece.n = 0;
            } else if piece.n == 1 {
                let (chars, n) = table.text(bytes, &unit);
                piece.chars = chars;
                piece.n = n as u8;
            }
            pieces.push(piece);
        }
        return pieces;
    }
    let mut at = dialect.unit_containing(bytes, range.start as usize).start;
    while at < end {
        let unit = dialect.decode_at(bytes, at);
        pieces.push(Piece::of(&unit));
        at = unit.end();
    }
    pieces
}

/// The context starts inside a run of regional indicators, whose pairing (GB12, GB13)
/// depends on how many precede it however far back the run goes: count them (a
/// regional indicator is 4 bytes in every dialect that has them as one unit, so a run of
/// any length is counted quickly), and when the count is odd put the one before the
/// context in front of `pieces`, so that the first piece starts a pair. Returns whether
/// the first piece now starts a cluster: always after another regional indicator (an
/// even number of them precede it), and at the run's start unless a prepended mark
/// (GB9b) comes before it. Not in a multi-byte legacy encoding, which cannot be read
/// backwards, nor where the run goes back to the start of `bytes` and that is not the
/// input's (`starts`): the context's start stays unknown there.
fn pair_regional_indicators(
    bytes: &[u8],
    dialect: Dialect,
    pieces: &mut Vec<Piece>,
    starts: bool,
    carried: Option<u64>,
) -> bool {
    if dialect.multi_byte().is_some() {
        return false;
    }
    let start = pieces[0].start;
    let (mut before, run) = regional_indicators_before(bytes, dialect, start);
    if run == 0 && !starts {
        // The run reaches back past the bytes held: their count, where the reader carried
        // it. Paired with one before the bytes held, the first is the end of a flag that
        // begins there: left out, the next starts a pair.
        let Some(carried) = carried else {
            return false;
        };
        before += carried;
        if before % 2 == 1 {
            pieces.remove(0);
            return pieces.first().is_some_and(Piece::is_regional_indicator);
        }
        return true;
    }
    if before % 2 == 1 {
        let unit = dialect.unit_containing(bytes, start as usize - 1);
        pieces.insert(0, Piece::of(&unit));
    }
    if before >= 2 {
        return true;
    }
    // The run starts at the first piece: a boundary, unless a prepended mark is before it.
    let run = pieces[0].start;
    run == 0
        || !dialect
            .unit_containing(bytes, run as usize - 1)
            .code_point()
            .is_some_and(|cp| PREPEND.contains(&cp.value()))
}

/// How many regional indicators, each a whole unit, end one after another at `end` (a
/// unit boundary), and the offset of the first.
fn regional_indicators_before(bytes: &[u8], dialect: Dialect, end: u64) -> (u64, u64) {
    let head = &bytes[..end as usize];
    if matches!(dialect, Dialect::Utf8 | Dialect::Wtf8 | Dialect::Legacy) {
        // F0 9F 87 A6..BF: U+1F1E6..U+1F1FF. A lead byte starts a unit whatever precedes
        // it, so four such bytes that end at a boundary are one regional indicator.
        let n = head
            .rchunks_exact(4)
            .take_while(|c| c[..3] == [0xF0, 0x9F, 0x87] && (0xA6..=0xBF).contains(&c[3]))
            .count() as u64;
        return (n, end - 4 * n);
    }
    let mut at = end as usize;
    let mut n = 0;
    while at > 0 {
        let unit = dialect.unit_containing(bytes, at - 1);
        let ri = unit.end() == at && unit.code_point().is_some_and(is_regional_indicator);
        if !ri {
            break;
        }
        n += 1;
        at = unit.start;
    }
    (n, at as u64)
}

fn is_regional_indicator(cp: CodePoint) -> bool {
    (0x1F1E6..=0x1F1FF).contains(&cp.value())
}

/// The clusters of `pieces`; `sot`: the first piece starts a text; `eot`: the last ends it.
fn segment(pieces: &[Piece], sot: bool, eot: bool) -> Vec<ClusterSpan> {
    if pieces.is_empty() {
        return Vec::new();
    }
    // The text the crate segments: a breaker is U+0000, which UAX #29 segments as a
    // control, alone. `at[i]` is where piece i starts in it.
    let mut text = String::new();
    let mut at = Vec::with_capacity(pieces.len() + 1);
    for p in pieces {
        at.push(text.len());
        match p.n {
            0 => text.push('\0'),
            n => text.extend(&p.chars[..n as usize]),
        }
    }
    at.push(text.len());
    // The first piece whose start is a boundary the context decides.
    let first = if sot {
        Some(0)
    } else {
        (1..pieces.len()).find(|&i| decided_boundary(&text, at[i]))
    };
    let mut out = Vec::new();
    let Some(first) = first else {
        out.push(span(pieces, 0..pieces.len(), true, !eot));
        return out;
    };
    if first > 0 {
        out.push(span(pieces, 0..first, true, false));
    }
    let base = at[first];
    let mut begin = first;
    for (offset, _) in text[base..].grapheme_indices(true).skip(1) {
        // A boundary inside a unit (between the two code points of a Big5 unit) is none.
        if let Ok(i) = at.binary_search(&(base + offset)) {
            if i > begin {
                out.push(span(pieces, begin..i, false, false));
                begin = i;
            }
        }
    }
    out.push(span(pieces, begin..pieces.len(), false, !eot));
    out
}

/// Whether offset `t` of `text`, which follows text not given, is a boundary the crate
/// decides from `text` alone.
fn decided_boundary(text: &str, t: usize) -> bool {
    // The cursor's coordinates put one unknown byte before `text`: a rule that needs to
    // look further back asks for it, and gets no answer.
    let mut cursor = GraphemeCursor::new(t + 1, text.len() + 1, true);
    matches!(cursor.is_boundary(text, 1), Ok(true))
}

fn span(pieces: &[Piece], range: Range<usize>, open_start: bool, open_end: bool) -> ClusterSpan {
    let run = &pieces[range];
    let (first, last) = (run[0], run[run.len() - 1]);
    ClusterSpan {
        start: first.start,
        len: last.start + last.len as u64 - first.start,
        units: run.len() as u32,
        cps: run.iter().map(|p| p.n as u32).sum(),
        open_start,
        open_end,
    }
}

/// The whole cluster containing an offset, for the detail pane and `explain`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cluster {
    /// Where it is.
    pub span: ClusterSpan,
    /// Its units, with offsets in the input, each with the number of code points it
    /// gives (0 for an error unit or an escape sequence, 2 for a Big5 unit with two).
    pub units: Vec<(Unit, u8)>,
    /// Its code points, in order (both of a Big5 unit that has two; none for an error unit
    /// or an escape sequence).
    pub code_points: Vec<CodePoint>,
    /// Its display width as unicode-width measures the whole cluster; `None` for an error
    /// unit, an escape sequence, a cluster with a control or a surrogate in it, or one whose
    /// start lies past the context ([`ClusterSpan::open_start`]: its first code point, which
    /// the width is mostly of, is not known). For a cluster whose end lies past the context
    /// ([`ClusterSpan::open_end`]), the width of the part decoded.
    pub width: Option<usize>,
}

impl Cluster {
    /// Each unit with its code points, in order.
    pub fn parts(&self) -> impl Iterator<Item = (Unit, &[CodePoint])> + '_ {
        let mut at = 0;
        self.units.iter().map(move |&(unit, n)| {
            let cps = &self.code_points[at..at + n as usize];
            at += n as usize;
            (unit, cps)
        })
    }
}

/// The cluster of `bytes` decoded in `dialect` that contains `offset`; `None` past the end.
/// `checkpoint` as for [`window`].
///
/// ```
/// use hexrune::decode::Dialect;
/// use hexrune::view::cluster::at;
/// // 1️⃣: DIGIT ONE, VARIATION SELECTOR-16, COMBINING ENCLOSING KEYCAP.
/// let c = at(b"\x31\xEF\xB8\x8F\xE2\x83\xA3", Dialect::Utf8, 5, None).unwrap();
/// assert_eq!((c.span.start, c.span.len, c.code_points.len()), (0, 7, 3));
/// assert_eq!(c.width, Some(2));
/// ```
pub fn at(
    bytes: &[u8],
    dialect: Dialect,
    offset: u64,
    checkpoint: Option<Checkpoint>,
) -> Option<Cluster> {
    let span = *window(bytes, dialect, offset..offset + 1, checkpoint).first()?;
    Some(of_span(bytes, dialect, span, checkpoint))
}

/// The cluster of `bytes` decoded in `dialect` whose extent is `span` (as [`spans`] or
/// [`window`] found it), read whole: its units, code points and width. `checkpoint` as for
/// [`window`]. Where the span is known whole (`explain`, which segments all its argument),
/// this reads past the context [`at`] is bounded by.
pub fn of_span(
    bytes: &[u8],
    dialect: Dialect,
    span: ClusterSpan,
    checkpoint: Option<Checkpoint>,
) -> Cluster {
    let mut units = Vec::new();
    let mut code_points = Vec::new();
    let mut text = String::new();
    let mut plain = true;
    for piece in decode(bytes, dialect, span.start..span.end(), checkpoint) {
        let unit = piece.unit;
        let before = code_points.len();
        if piece.n == 0 {
            plain = false;
            if let Some(cp) = unit
                .code_point()
                .filter(|&c| c != CodePoint::ESCAPE_SEQUENCE)
            {
                code_points.push(cp); // a surrogate or a value above U+10FFFF
            }
        }
        for &c in &piece.chars[..piece.n as usize] {
            code_points.push(CodePoint::new(c as u32));
            text.push(c);
            plain &= unicode::category(CodePoint::new(c as u32)) != Some(GeneralCategory::Control);
        }
        units.push((unit, (code_points.len() - before) as u8));
    }
    Cluster {
        span,
        units,
        code_points,
        width: (plain && !span.open_start).then(|| unicode::text_width(&text)),
    }
}

/// Why two code points are in one cluster: the rule of UAX #29 that joins them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Joint {
    /// GB3: a carriage return and the line feed after it.
    CrLf,
    /// GB6, GB7, GB8: Hangul jamo (leading consonant, vowel, trailing consonant) and
    /// syllables forming one syllable block.
    Hangul,
    /// GB9: a combining mark (nonspacing or enclosing) extends what precedes it.
    Mark,
    /// GB9: a variation selector selects how what precedes it is drawn.
    VariationSelector,
    /// GB9: an emoji modifier (skin tone) extends the emoji before it.
    SkinTone,
    /// GB9: a tag character extends a tag sequence (subdivision flags).
    Tag,
    /// GB9: a zero width joiner (or non-joiner) attaches to what precedes it.
    Joiner,
    /// GB9a: a spacing mark attaches to what precedes it.
    SpacingMark,
    /// GB9b: a prepended concatenation mark attaches to what follows it.
    Prepend,
    /// GB9c: a consonant after a virama (a linker) forms an Indic conjunct.
    Conjunct,
    /// GB11: a pictograph after a pictograph and a zero width joiner: an emoji ZWJ sequence.
    EmojiZwj,
    /// GB12, GB13: the second regional indicator of a pair: a flag.
    RegionalPair,
    /// No other rule: the crate found no boundary here.
    Other,
}

impl Joint {
    /// Every joint, in rule order.
    pub const ALL: [Joint; 13] = [
        Joint::CrLf,
        Joint::Hangul,
        Joint::Mark,
        Joint::VariationSelector,
        Joint::SkinTone,
        Joint::Tag,
        Joint::Joiner,
        Joint::SpacingMark,
        Joint::Prepend,
        Joint::Conjunct,
        Joint::EmojiZwj,
        Joint::RegionalPair,
        Joint::Other,
    ];

    /// A short name with the rule: `regional indicator pair (GB12/13)`.
    pub const fn name(self) -> &'static str {
        match self {
            Joint::CrLf => "CR LF (GB3)",
            Joint::Hangul => "Hangul L V T (GB6-8)",
            Joint::Mark => "combining mark (GB9)",
            Joint::VariationSelector => "variation selector (GB9)",
            Joint::SkinTone => "emoji modifier (GB9)",
            Joint::Tag => "tag (GB9)",
            Joint::Joiner => "joiner (GB9)",
            Joint::SpacingMark => "spacing mark (GB9a)",
            Joint::Prepend => "prepend (GB9b)",
            Joint::Conjunct => "virama conjunct (GB9c)",
            Joint::EmojiZwj => "emoji ZWJ sequence (GB11)",
            Joint::RegionalPair => "regional indicator pair (GB12/13)",
            Joint::Other => "no break (UAX #29)",
        }
    }

    /// The machine name: `regional_indicator_pair`.
    pub const fn key(self) -> &'static str {
        match self {
            Joint::CrLf => "cr_lf",
            Joint::Hangul => "hangul",
            Joint::Mark => "combining_mark",
            Joint::VariationSelector => "variation_selector",
            Joint::SkinTone => "emoji_modifier",
            Joint::Tag => "tag",
            Joint::Joiner => "joiner",
            Joint::SpacingMark => "spacing_mark",
            Joint::Prepend => "prepend",
            Joint::Conjunct => "conjunct",
            Joint::EmojiZwj => "emoji_zwj_sequence",
            Joint::RegionalPair => "regional_indicator_pair",
            Joint::Other => "no_break",
        }
    }

    /// Why, in a learner's words.
    pub const fn why(self) -> &'static str {
        match self {
            Joint::CrLf => "a carriage return and the line feed after it are one line break",
            Joint::Hangul => {
                "Hangul jamo (leading consonant, vowel, trailing consonant) build one syllable"
            }
            Joint::Mark => "a combining mark is drawn on the character before it",
            Joint::VariationSelector => {
                "a variation selector picks how the character before it is drawn (FE0F: as emoji)"
            }
            Joint::SkinTone => "a skin tone modifier colours the emoji before it",
            Joint::Tag => "tag characters spell a region after a black flag (subdivision flags)",
            Joint::Joiner => "a zero width joiner or non-joiner stays with the character before it",
            Joint::SpacingMark => {
                "a spacing mark (a vowel sign that takes room) belongs to the consonant before it"
            }
            Joint::Prepend => "a prepended mark belongs to the character after it",
            Joint::Conjunct => "a virama joins the consonants around it into one conjunct",
            Joint::EmojiZwj => {
                "after an emoji and a zero width joiner, another emoji continues the sequence"
            }
            Joint::RegionalPair => "two regional indicators spell a country code: one flag",
            Joint::Other => "unicode-segmentation finds no boundary between these code points",
        }
    }
}

/// Why `next` is in the same cluster as the code points `before` it (the cluster's code
/// points up to and including the one before `next`, at least one). Only for code points
/// that are in one cluster: it names a rule, it does not decide one.
///
/// ```
/// use hexrune::decode::CodePoint;
/// use hexrune::view::cluster::{joint, Joint};
/// let cp = CodePoint::new;
/// assert_eq!(joint(&[cp(0x1F1EB)], cp(0x1F1F7)), Joint::RegionalPair);
/// assert_eq!(joint(&[cp(0x1F468), cp(0x200D)], cp(0x1F469)), Joint::EmojiZwj);
/// assert_eq!(joint(&[cp(0x915), cp(0x94D)], cp(0x937)), Joint::Conjunct);
/// ```
pub fn joint(before: &[CodePoint], next: CodePoint) -> Joint {
    use GeneralCategory::*;
    let Some(&prev) = before.last() else {
        return Joint::Other;
    };
    let (p, n) = (prev.value(), next.value());
    let is_ri = |v: u32| (0x1F1E6..=0x1F1FF).contains(&v);
    let category = unicode::category(next);
    match (p, n) {
        (0x0D, 0x0A) => return Joint::CrLf,
        _ if is_ri(p) && is_ri(n) => return Joint::RegionalPair,
        (_, 0x200C | 0x200D) => return Joint::Joiner,
        (_, 0xFE00..=0xFE0F | 0xE0100..=0xE01EF) => return Joint::VariationSelector,
        (_, 0x1F3FB..=0x1F3FF) => return Joint::SkinTone,
        (_, 0xE0020..=0xE007F) => return Joint::Tag,
        _ => {}
    }
    if hangul(p).is_some() && hangul(n).is_some() {
        return Joint::Hangul;
    }
    match category {
        Some(NonspacingMark | EnclosingMark) => return Joint::Mark,
        Some(SpacingMark) => return Joint::SpacingMark,
        // Grapheme_Cluster_Break=SpacingMark, though letters (Lo): THAI CHARACTER SARA AM
        // and LAO VOWEL SIGN AM (UAX #29, table 2).
        _ if matches!(n, 0x0E33 | 0x0EB3) => return Joint::SpacingMark,
        _ => {}
    }
    if PREPEND.contains(&p) {
        return Joint::Prepend;
    }
    // GB9c: a consonant after a linker, with marks or joiners between.
    let linked = before
        .iter()
        .rev()
        .take_while(|c| {
            LINKERS.contains(&c.value())
                || c.value() == 0x200D
                || matches!(unicode::category(**c), Some(NonspacingMark))
        })
        .any(|c| LINKERS.contains(&c.value()));
    if linked && category == Some(OtherLetter) {
        return Joint::Conjunct;
    }
    if p == 0x200D {
        return Joint::EmojiZwj;
    }
    Joint::Other
}

/// The viramas that link consonants into conjuncts (Indic_Conjunct_Break=Linker).
const LINKERS: [u32; 6] = [0x094D, 0x09CD, 0x0ACD, 0x0B4D, 0x0C4D, 0x0D4D];

/// Grapheme_Cluster_Break=Prepend (Unicode 16).
const PREPEND: &[u32] = &[
    0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x0D4E,
    0x110BD, 0x110CD, 0x111C2, 0x111C3, 0x113D1, 0x1193F, 0x11941, 0x11A3A, 0x11A84, 0x11A85,
    0x11A86, 0x11A87, 0x11A88, 0x11A89, 0x11D46, 0x11F02,
];

/// The Hangul syllable type of `v`: `L`, `V`, `T`, `LV` or `LVT`.
pub fn hangul(v: u32) -> Option<&'static str> {
    match v {
        0x1100..=0x115F | 0xA960..=0xA97C => Some("L"),
        0x1160..=0x11A7 | 0xD7B0..=0xD7C6 => Some("V"),
        0x11A8..=0x11FF | 0xD7CB..=0xD7FB => Some("T"),
        0xAC00..=0xD7A3 if (v - 0xAC00).is_multiple_of(28) => Some("LV"),
        0xAC00..=0xD7A3 => Some("LVT"),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
