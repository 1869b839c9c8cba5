//! The walk behind [`crate::lint::lint`]: one pass over a stretch of the input, unit by
//! unit, with a little state carried across units (the open bidi controls of the current
//! line, the current word, the run of non-starters, the run of tag characters, a pending
//! joiner). Every piece of that state ends at an ASCII line feed, so a walk that starts
//! just after one (or at the input's start) finds exactly what a walk from the start finds
//! there: this is what lets [`super::survey`] walk blocks on the scan's workers.
//!
//! The hot path is a letter that needs no lint: a two- or three-byte character whose
//! [`plain`] entry says so (one table load) extends the current word and is done.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::LazyLock;

use unicode_normalization::char::{canonical_combining_class, decompose_compatible};
use unicode_script::{Script, UnicodeScript};
use unicode_security::{skeleton, MixedScript};

use super::{lookalike, Kind, Level, Lint, Lints, Target};
use crate::decode::{CodePoint, Dialect, UnitKind};
use crate::detect::wide::HAN_SCRIPTS;
use crate::view::safe::sanitize;
use crate::view::unicode::{category, is_noncharacter, label, GeneralCategory};

/// The stream-safe text format's limit on a run of non-starters (UAX #15).
pub const MAX_NON_STARTERS: usize = 30;

/// The most bidi controls of a line judged together: a line of more is judged this many
/// at a time (paired within each batch), so that what the walk holds for a line does not
/// grow with it. No text writes this many on a line; a file that does is an attack or
/// noise, and each of its controls is still found at its offset.
pub const MAX_BIDI_HELD: usize = 1024;

/// What came before the current character, for the context of joiners and selectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Prev {
    /// Start of input, white space, punctuation or a control.
    Break,
    /// An ASCII digit, `#` or `*` (the bases of keycap sequences).
    Keycap,
    /// Another ASCII letter.
    Ascii,
    /// A visible non-ASCII character.
    Visible,
    /// A virama (canonical combining class 9) on a visible non-ASCII character: a joiner
    /// after it asks for a half form, a conjunct or a chillu (Malayalam's `ന്‍`, before
    /// Unicode 5.1), whatever follows.
    Virama,
    /// An invisible one.
    Hidden,
}

/// An open bidi control of the current line.
#[derive(Clone, Copy, Debug)]
struct Open {
    /// Its index in `line_bidi`.
    at: usize,
    isolate: bool,
}

/// A word that mixes scripts (UTS #39), kept to compare with the input's other words:
/// two different words with one skeleton are confusable identifiers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Candidate {
    /// Offset of its first byte.
    pub offset: usize,
    /// Its bytes in the input (more than `word`'s where invisible characters are in it).
    pub len: usize,
    /// The word, as it reads.
    pub word: String,
    /// Its UTS #39 skeleton.
    pub skeleton: String,
}

/// Lints counted by kind, and how many are of level error or warning.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Counts {
    pub by_kind: [u64; Kind::ALL.len()],
    pub failing: u64,
}

impl Counts {
    pub fn total(&self) -> u64 {
        self.by_kind.iter().sum()
    }

    pub fn add(&mut self, other: &Counts) {
        for (a, b) in self.by_kind.iter_mut().zip(other.by_kind) {
            *a += b;
        }
        self.failing += other.failing;
    }

    pub fn count(&mut self, kind: Kind, level: Level) {
        self.by_kind[kind as usize] += 1;
        self.failing += u64::from(level != Level::Note);
    }
}

/// One walk over a stretch of an input (see the module's doc).
pub(super) struct Walk<'a> {
    bytes: &'a [u8],
    dialect: Dialect,
    utf8: bool,
    /// Whether a well-formed four-byte sequence of UTF-8 is a scalar in the dialect (not in
    /// CESU-8 or Modified UTF-8, which write those as surrogate pairs).
    astral_scalars: bool,
    pos: usize,
    /// Whether lints are kept in `out` (listing), or only counted (surveying).
    keep: bool,
    /// Whether letters may take the hot path (false only for the tests' oracle).
    fast: bool,
    /// The lints found, in the order found (not yet by offset).
    pub out: Vec<Lint>,
    /// The lints found, counted.
    pub counts: Counts,
    /// The words that mix scripts.
    pub candidates: Vec<Candidate>,
    // Which checks run.
    mysql: bool,
    postgres: bool,
    xml10: bool,
    xml11: bool,
    json: bool,
    ijson: bool,
    security: bool,
    /// The offset of a trail surrogate the JSON lint of a pair already covers.
    paired_trail: usize,
    // Security state.
    prev: Prev,
    /// The last visible character, a combining mark (one whose decomposition begins with a
    /// non-starter) not counted: the letter a joiner or a selector after it is beside.
    /// Read only where `prev` is visible.
    base: u32,
    /// A joiner waiting for what follows: where, its length and value, and `prev` and
    /// `base` before it.
    joiner: Option<(usize, usize, u32, Prev, u32)>,
    tags: Option<TagRun>,
    /// Where the emoji tag sequence after the last black flag U+1F3F4 ends (0: none met):
    /// the tags before it are part of their flag ([`tag_sequence_len`]).
    flag_tags_end: usize,
    /// Where the last variation selector in place ends (0: none met): a selector right
    /// after it selects nothing (a base takes one), and can carry hidden bytes (`😀` and
    /// 64 selectors).
    selected_end: usize,
    /// Non-starters in the current run, counted after NFKD (UAX #15), and the bytes of the
    /// characters that gave them.
    marks: usize,
    marks_start: usize,
    marks_end: usize,
    word: Option<(usize, usize, bool)>,
    /// The coarse script group of the current word's first non-ASCII letter (0: none yet),
    /// and whether another group followed: only such a word is asked about its scripts.
    group: u32,
    mixed: bool,
    line_bidi: Vec<(usize, usize, u32, Option<usize>)>,
    open: Vec<Open>,
    /// A batch of [`MAX_BIDI_HELD`] controls of the current line was judged: the rest of
    /// the line's are judged apart from it too.
    bidi_batched: bool,
    /// The bidi controls of the line before this offset are found already
    /// ([`Walk::resolve_bidi_ahead`]): met again, they are passed over.
    bidi_done_until: usize,
    /// A look ahead ([`Walk::resolve_bidi_ahead`]): keep only the lints of this kind, and
    /// stop at the end of the line.
    ahead: Option<Kind>,
    /// The look ahead reached the end of its line.
    halted: bool,
    /// The words this walk asked about their scripts, and whether each is a confusable
    /// (mixes scripts and reads as a single-script word): a cache, emptied when it holds
    /// [`ASKED_HELD`] words (a line of millions of distinct words).
    asked: HashMap<Box<str>, bool>,
    /// More words that mix scripts were met than [`super::MAX_COMPARED_WORDS`]: the
    /// candidates are not all kept, and the confusable identifiers are not compared.
    pub candidates_dropped: bool,
}

/// The longest word (in bytes) asked about its scripts: a run of letters longer than this
/// is no word or identifier a reader takes in as one (a blob, a line of noise), and asking
/// it costs a pass of script look-ups and a message as long as it.
pub const MAX_WORD_BYTES: usize = 1024;

/// The most words a walk remembers having asked about their scripts.
const ASKED_HELD: usize = 1 << 16;

impl<'a> Walk<'a> {
    /// A walk of `bytes` from `start`, which is 0 or just after an ASCII line feed (in
    /// the UTF-8 family; 0 in other dialects).
    pub fn new(
        bytes: &'a [u8],
        dialect: Dialect,
        lints: &Lints,
        start: usize,
        keep: bool,
    ) -> Walk<'a> {
        Walk {
            bytes,
            dialect,
            utf8: Dialect::UTF8_FAMILY.contains(&dialect),
            astral_scalars: matches!(dialect, Dialect::Utf8 | Dialect::Wtf8),
            pos: start,
            keep,
            fast: true,
            out: Vec::new(),
            counts: Counts::default(),
            candidates: Vec::new(),
            mysql: lints.has(Target::MysqlUtf8mb3),
            postgres: lints.has(Target::Postgres),
            xml10: lints.has(Target::Xml10),
            xml11: lints.has(Target::Xml11),
            json: lints.has(Target::Json) || lints.has(Target::IJson),
            ijson: lints.has(Target::IJson),
            security: lints.security,
            paired_trail: usize::MAX,
            prev: Prev::Break,
            base: 0,
            joiner: None,
            tags: None,
            flag_tags_end: 0,
            selected_end: 0,
            marks: 0,
            marks_start: 0,
            marks_end: 0,
            word: None,
            group: 0,
            mixed: false,
            line_bidi: Vec::new(),
            bidi_batched: false,
            open: Vec::new(),
            bidi_done_until: 0,
            ahead: None,
            halted: false,
            asked: HashMap::new(),
            candidates_dropped: false,
        }
    }

    /// Gives every character the full look: the tests' oracle.
    pub fn full_look_only(&mut self) {
        self.fast = false;
    }

    /// Walks to `end` (which must be the input's end or just after a line feed) and ends
    /// what is open there; `out` then holds the lints of the stretch.
    pub fn walk_to(&mut self, end: usize) {
        self.run(end);
        self.finish();
    }

    /// Walks on to `end` (at most the end the walk is to reach, any byte before it) without
    /// ending what is open there: [`Walk::walk_to`] in pieces, with [`Walk::finish`] last.
    pub fn walk_on(&mut self, end: usize) {
        self.run(end);
    }

    /// Ends what is open at the end of the walk (see [`Walk::walk_on`]).
    pub fn finish(&mut self) {
        self.boundary();
        self.line_end(None);
    }

    /// Where the walk is.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Whether the line's bidi controls are still to be judged (at its end), holding the
    /// lints found after the first of them (see [`Walk::settled`]).
    pub fn bidi_pending(&self) -> bool {
        !self.line_bidi.is_empty()
    }

    /// Judges the bidi controls of the line now, by looking ahead to its end with a walk of
    /// their own that starts with this one's controls and keeps only its bidi lints; the
    /// controls met later on the line are then passed over. The lints this walk holds
    /// after the first control are no longer held for it: a line that opens an override
    /// and holds millions of findings after it is listed in memory that does not grow.
    pub fn resolve_bidi_ahead(&mut self) {
        if self.line_bidi.is_empty() {
            return;
        }
        let lints = Lints {
            targets: Vec::new(),
            security: true,
        };
        let mut ahead = Walk::new(self.bytes, self.dialect, &lints, self.pos, true);
        ahead.ahead = Some(Kind::Bidi);
        ahead.line_bidi = std::mem::take(&mut self.line_bidi);
        ahead.open = std::mem::take(&mut self.open);
        ahead.bidi_batched = self.bidi_batched;
        ahead.run(self.bytes.len());
        if !ahead.halted {
            ahead.line_end(None);
        }
        self.bidi_done_until = ahead.pos;
        // Where the look ahead stopped after a full batch, the rest of the line is judged
        // apart from it.
        self.bidi_batched = ahead.bidi_batched;
        self.out.append(&mut ahead.out);
    }

    /// The offset before which the walk finds no more lints: where it is, or the start of
    /// what is still open and will be judged later (a word, a run of marks, a joiner
    /// waiting for what follows, a tag run, the bidi controls of the line), whose lints
    /// are given its start.
    pub fn settled(&self) -> usize {
        let mut at = self.pos;
        if let Some(&(p, ..)) = self.line_bidi.first() {
            at = at.min(p);
        }
        if let Some((start, ..)) = self.word {
            at = at.min(start);
        }
        if self.marks > 0 {
            at = at.min(self.marks_start);
        }
        if let Some((p, ..)) = self.joiner {
            at = at.min(p);
        }
        if let Some(tags) = &self.tags {
            at = at.min(tags.start);
        }
        at
    }

    /// Lints units from `pos` up to `end` (the last may run past it).
    fn run(&mut self, end: usize) {
        let bytes = self.bytes;
        let mut pos = self.pos;
        let table = plain();
        while pos < end && !self.halted {
            let b = bytes[pos];
            if self.utf8 && b < 0x80 {
                self.ascii(pos, 1, b);
                pos += 1;
                if (0x20..0x7F).contains(&b) {
                    pos = self.printable_run(pos, end);
                }
                continue;
            }
            // The hot path: a well-formed two- or three-byte character, read the same in
            // every dialect of the UTF-8 family (none is overlong, none a surrogate).
            if self.fast && self.utf8 && (0xC2..=0xEF).contains(&b) {
                if let Some((n, v)) = bmp_at(bytes, pos) {
                    let entry = table[v as usize];
                    if entry != NEEDS_LOOK && self.joiner.is_none() && self.tags.is_none() {
                        pos = self.plain_letters(pos, n, entry, end, table);
                    } else {
                        self.scalar(pos, n, v);
                        pos += n;
                    }
                    continue;
                }
            }
            // Emoji and the other characters above the BMP: well formed, they are scalars
            // in UTF-8 and WTF-8 (none is overlong), and the decoder need not be asked.
            if self.fast && self.astral_scalars && (0xF0..=0xF4).contains(&b) {
                if let Some(v) = astral_at(bytes, pos) {
                    if is_pictograph(v) {
                        self.pictograph(pos, v);
                    } else {
                        self.scalar(pos, 4, v);
                    }
                    pos += 4;
                    continue;
                }
            }
            if self.security && self.utf8 {
                if let Some((n, value)) = overlong(bytes, pos, self.dialect) {
                    self.boundary();
                    self.prev = Prev::Hidden;
                    self.push(Kind::OverlongAscii, pos, n, Level::Error, || {
                        overlong_message(n, value)
                    });
                    pos += n;
                    continue;
                }
            }
            let unit = self.dialect.decode_at(bytes, pos);
            let n = (unit.len as usize).max(1);
            match unit.kind {
                UnitKind::Scalar(cp) => self.scalar(pos, n, cp.value()),
                UnitKind::Error(_) => {
                    self.boundary();
                    self.prev = Prev::Break;
                    if self.refuses_surrogates() && self.utf8 {
                        if let Some(v) = surrogate_at(bytes, pos) {
                            pos += self.surrogate(pos, 3, v);
                            continue;
                        }
                    }
                }
            }
            pos += n;
        }
        self.pos = pos;
    }

    /// A letter of `n` bytes at `pos` whose [`plain`] entry is `entry`, with no joiner or
    /// tag run pending, and the plain letters that follow it before `end`: what
    /// [`Walk::scalar`] does with each, less every question whose answer the table already
    /// gave. Returns where the letters stop.
    #[inline]
    fn plain_letters(
        &mut self,
        pos: usize,
        n: usize,
        entry: u16,
        end: usize,
        table: &[u16; 0x1_0000],
    ) -> usize {
        if !self.security {
            return pos + n;
        }
        let bytes = self.bytes;
        let (mut pos, mut n, mut entry) = (pos, n, entry);
        loop {
            if self.marks > 0 {
                self.end_marks();
            }
            let trailing = (entry >> TRAILING_SHIFT) as usize;
            if trailing > 0 {
                self.marks = trailing;
                self.marks_start = pos;
                self.marks_end = pos + n;
            }
            self.letter_of(pos, n, (entry & GROUP_MASK) as u32);
            pos += n;
            if pos >= end || !(0xC2..=0xEF).contains(&bytes[pos]) {
                break;
            }
            let Some((next_n, v)) = bmp_at(bytes, pos) else {
                break;
            };
            let next = table[v as usize];
            if next == NEEDS_LOOK {
                break;
            }
            (n, entry) = (next_n, next);
        }
        // Every plain letter is a starter: the last is the base.
        if let Some((_, v)) = bmp_at(bytes, pos - n) {
            self.base = v;
        }
        self.prev = Prev::Visible;
        pos
    }

    /// A pictograph or a regional indicator ([`PICTOGRAPHS`]) of four bytes at `pos`: what
    /// [`Walk::scalar`] does with it, less every question whose answer the test
    /// `pictographs_are_starters` holds (a visible starter with no decomposition, not part
    /// of a word, nothing XML, JSON or PostgreSQL refuses). It ends a run of marks or tags
    /// and a word, settles a joiner before it as joined, and (the black flag U+1F3F4)
    /// may have a tag sequence after it.
    #[inline]
    fn pictograph(&mut self, pos: usize, v: u32) {
        if self.mysql {
            self.four_byte(pos, 4, v);
        }
        if !self.security {
            return;
        }
        if self.marks > 0 {
            self.end_marks();
        }
        if self.tags.is_some() {
            self.settle(None);
        }
        if self.joiner.is_some() {
            self.settle(Some(v));
        }
        if v == 0x1_F3F4 {
            self.black_flag(pos + 4);
        }
        if self.word.is_some() {
            self.end_word();
        }
        self.prev = Prev::Visible;
        self.base = v;
    }

    /// A character that belongs to a word: its script group, the word's end.
    #[inline]
    fn letter(&mut self, pos: usize, n: usize, v: u32) {
        self.letter_of(pos, n, group(v));
    }

    /// A character of script group `g` (0: none) that belongs to a word.
    #[inline]
    fn letter_of(&mut self, pos: usize, n: usize, g: u32) {
        if g != 0 {
            if self.group == 0 {
                self.group = g;
            } else if self.group != g {
                self.mixed = true;
            }
        }
        match &mut self.word {
            Some((_, end, non_ascii)) => {
                *end = pos + n;
                *non_ascii = true;
            }
            None => self.word = Some((pos, pos + n, true)),
        }
    }

    /// Passes over the printable ASCII bytes from `pos` (before `end`) at once: none is
    /// refused by a target, and for the security lints only the word they end or start
    /// matters. Returns where the run stops.
    fn printable_run(&mut self, pos: usize, end: usize) -> usize {
        let run = &self.bytes[pos..end];
        let n = printable_len(run);
        if n == 0 || !self.security {
            return pos + n;
        }
        let run = &run[..n];
        let word = |c: &u8| c.is_ascii_alphanumeric() || *c == b'_';
        match run.iter().position(|c| !word(c)) {
            None => match &mut self.word {
                Some((_, e, _)) => *e = pos + n,
                None => self.word = Some((pos, pos + n, false)),
            },
            Some(first) => {
                if let Some((_, e, _)) = &mut self.word {
                    *e = pos + first;
                    self.end_word();
                }
                let last = run.iter().rposition(|c| !word(c)).unwrap_or(first);
                self.word = (last + 1 < n).then_some((pos + last + 1, pos + n, false));
            }
        }
        let b = run[n - 1];
        self.base = u32::from(b);
        self.prev = if b.is_ascii_digit() || b == b'#' || b == b'*' {
            Prev::Keycap
        } else if word(&b) {
            Prev::Ascii
        } else {
            Prev::Break
        };
        pos + n
    }

    /// Counts a lint; keeps it too when listing, only then writing its `message`.
    fn push(
        &mut self,
        kind: Kind,
        offset: usize,
        len: usize,
        level: Level,
        message: impl FnOnce() -> String,
    ) {
        self.counts.count(kind, level);
        if !self.keep || self.ahead.is_some_and(|only| only != kind) {
            return;
        }
        self.out.push(Lint {
            kind,
            offset,
            len,
            level,
            message: message(),
        });
    }

    /// Whether a target refuses a surrogate's 3-byte form, whatever the dialect reads it
    /// as: JSON, XML and PostgreSQL read UTF-8, which cannot hold a surrogate.
    fn refuses_surrogates(&self) -> bool {
        self.json || self.xml10 || self.xml11 || self.postgres
    }

    /// The targets' lints of surrogate `v`, written in the `n` bytes at `pos`: a lone
    /// surrogate, or a lead followed by the 3-byte form of a trail, one lint for the pair
    /// that names the character they stand for. Returns the bytes it covers (`n`, or 6 for
    /// a pair).
    fn surrogate(&mut self, pos: usize, n: usize, v: u32) -> usize {
        let trail =
            surrogate_at(self.bytes, pos + n).filter(|&t| n == 3 && v < 0xDC00 && t >= 0xDC00);
        match trail {
            Some(t) => {
                self.surrogates(pos, 6, Surrogates::Pair(v, t));
                6
            }
            None => {
                self.surrogates(pos, n, Surrogates::Lone(v));
                n
            }
        }
    }

    /// Each target's lint of the surrogates `s` in the `n` bytes at `pos` (a pair: two
    /// 3-byte forms, or one 6-byte unit of CESU-8): JSON's, XML's and PostgreSQL's, their
    /// messages made only where the lints are listed.
    fn surrogates(&mut self, pos: usize, n: usize, s: Surrogates) {
        let form = surrogate_form(self.dialect);
        if self.json {
            let ijson = self.ijson;
            let message = || match s {
                // I-JSON forbids the escape too.
                Surrogates::Lone(_) if ijson => format!(
                    "{}: JSON text must be UTF-8, which cannot encode it (RFC 8259 §8.1), and \
                     I-JSON forbids a lone surrogate even as a \\u escape (RFC 7493 §2.1)",
                    s.what(form)
                ),
                Surrogates::Lone(v) => format!(
                    "{}: JSON text must be UTF-8, which cannot encode it (RFC 8259 §8.1; a \
                     \\u{v:04x} escape is what JSON allows)",
                    s.what(form)
                ),
                Surrogates::Pair(..) => format!(
                    "{}: JSON text must be UTF-8, which {} (RFC 8259 §8.1)",
                    s.what(form),
                    s.utf8()
                ),
            };
            self.push(Kind::LoneSurrogate, pos, n, Level::Error, message);
        }
        // After the reason, how UTF-8 writes a pair's character.
        let then = || match s {
            Surrogates::Lone(_) => String::new(),
            Surrogates::Pair(..) => format!("; UTF-8 {}", s.utf8()),
        };
        for (on, version) in [(self.xml10, "XML 1.0"), (self.xml11, "XML 1.1")] {
            if on {
                let message = || {
                    format!(
                        "{version}: {}: a surrogate is not an XML character{}",
                        s.what(form),
                        then()
                    )
                };
                self.push(Kind::XmlForbidden, pos, n, Level::Error, message);
            }
        }
        if self.postgres {
            let message = || {
                format!(
                    "{}: PostgreSQL refuses it (invalid byte sequence for encoding \
                     \"UTF8\"){}",
                    s.what(form),
                    then()
                )
            };
            self.push(Kind::LoneSurrogate, pos, n, Level::Error, message);
        }
    }

    /// One scalar of `n` bytes at `pos`.
    #[inline]
    fn scalar(&mut self, pos: usize, n: usize, v: u32) {
        if v < 0x80 {
            self.ascii(pos, n, v as u8);
            return;
        }
        self.targets(pos, n, v);
        if self.security {
            self.security_scalar(pos, n, v);
        }
    }

    #[inline]
    fn ascii(&mut self, pos: usize, n: usize, b: u8) {
        if b < 0x20 || b == 0x7F {
            self.targets(pos, n, b as u32);
            if b == b'\n' {
                self.line_end(None);
            } else if b == b'\r' {
                // A CR of CR LF ends the line the line feed ends: nothing to tell. The
                // next unit, in UTF-16 and UTF-32 too (where its bytes are `0A 00` ...).
                let alone = if self.utf8 {
                    self.bytes.get(pos + 1) != Some(&b'\n')
                } else {
                    pos + n >= self.bytes.len()
                        || (self.dialect.decode_at(self.bytes, pos + n).code_point())
                            .map(|c| c.value())
                            != Some(0x0A)
                };
                self.line_end(alone.then_some((pos, b'\r' as u32)));
            }
        }
        if self.security {
            if self.marks > 0 {
                self.end_marks();
            }
            if self.joiner.is_some() || self.tags.is_some() {
                self.settle(None);
            }
            self.base = u32::from(b);
            if b.is_ascii_alphanumeric() || b == b'_' {
                match &mut self.word {
                    Some((_, end, _)) => *end = pos + n,
                    None => self.word = Some((pos, pos + n, false)),
                }
                self.prev = if b.is_ascii_digit() {
                    Prev::Keycap
                } else {
                    Prev::Ascii
                };
            } else {
                if self.word.is_some() {
                    self.end_word();
                }
                self.prev = if b == b'#' || b == b'*' {
                    Prev::Keycap
                } else {
                    Prev::Break
                };
            }
        }
    }

    /// The storage targets' lints of code point `v`.
    fn targets(&mut self, pos: usize, n: usize, v: u32) {
        let cp = CodePoint::new(v);
        if self.mysql && v >= 0x1_0000 {
            self.four_byte(pos, n, v);
        }
        // CESU-8 and Modified UTF-8 write a supplementary character as a pair of surrogates,
        // one 6-byte unit.
        if self.refuses_surrogates()
            && n == 6
            && matches!(self.dialect, Dialect::Cesu8 | Dialect::Mutf8)
        {
            if let (Some(lead), Some(trail)) = (
                surrogate_at(self.bytes, pos),
                surrogate_at(self.bytes, pos + 3),
            ) {
                self.surrogates(pos, n, Surrogates::Pair(lead, trail));
            }
        }
        // What the other targets refuse (NUL, controls, surrogates, noncharacters, what XML
        // refuses) is all [`looked_at`], so in its few pages.
        if !may_be_looked_at(v) {
            return;
        }
        if self.postgres && v == 0 {
            let message = || "U+0000 NUL: PostgreSQL text cannot store it".to_string();
            self.push(Kind::Nul, pos, n, Level::Error, message);
        }
        // A surrogate is each target's, below.
        for (on, v11) in [(self.xml10, false), (self.xml11, true)] {
            if on && !cp.is_surrogate() {
                if let Some((kind, level, why)) = xml(v, v11) {
                    let version = if v11 { "XML 1.1" } else { "XML 1.0" };
                    let message = || format!("{version}: {} {why}", named(cp));
                    self.push(kind, pos, n, level, message);
                }
            }
        }
        // A trail a pair's lint already covers has none of its own.
        if self.refuses_surrogates()
            && cp.is_surrogate()
            && pos != self.paired_trail
            && self.surrogate(pos, n, v) > n
        {
            self.paired_trail = pos + n;
        }
        // A value past Unicode (legacy UTF-8's): no Unicode text carries it. One lint
        // for the targets that read their text as Unicode (MySQL's is `four-byte`, XML's
        // `xml-forbidden`).
        if v > 0x10_FFFF && (self.postgres || self.json) {
            let refuse: Vec<&str> = [
                (
                    self.postgres,
                    "PostgreSQL (invalid byte sequence for encoding \"UTF8\")",
                ),
                (self.json && !self.ijson, "JSON (RFC 8259: Unicode text)"),
                (self.ijson, "I-JSON (RFC 7493: Unicode text)"),
            ]
            .into_iter()
            .filter_map(|(on, name)| on.then_some(name))
            .collect();
            let message = || {
                format!(
                    "{} is above U+10FFFF: not Unicode, and {} {} it",
                    named(cp),
                    refuse.join(" and "),
                    if refuse.len() == 1 {
                        "refuses"
                    } else {
                        "refuse"
                    }
                )
            };
            self.push(Kind::AboveUnicode, pos, n, Level::Error, message);
        }
        if self.ijson && is_noncharacter(cp) {
            let message = || {
                format!(
                    "{}: I-JSON forbids noncharacters (RFC 7493 §2.1)",
                    named(cp)
                )
            };
            self.push(Kind::Noncharacter, pos, n, Level::Error, message);
        }
    }

    /// MySQL utf8mb3's lint of `v`, above U+FFFF.
    fn four_byte(&mut self, pos: usize, n: usize, v: u32) {
        let message = || match v {
            0x1_0000..=0x10_FFFF => format!(
                "{} is above U+FFFF: MySQL utf8mb3 stores at most 3 bytes a character \
                 (utf8mb4 stores it)",
                named(CodePoint::new(v))
            ),
            _ => format!(
                "{} is above U+10FFFF: not Unicode, and neither MySQL utf8mb3 nor utf8mb4 \
                 stores it",
                named(CodePoint::new(v))
            ),
        };
        self.push(Kind::FourByte, pos, n, Level::Error, message);
    }

    /// The security lints of a non-ASCII code point `v`.
    fn security_scalar(&mut self, pos: usize, n: usize, v: u32) {
        let c = char::from_u32(v);
        // Zalgo: runs of non-starters, counted in the character's compatibility
        // decomposition (UAX #15 §13): its leading non-starters extend the run before it,
        // a starter in it ends the run, its trailing non-starters begin the next.
        let (ccc, (leading, trailing, starter)) = match c {
            Some(c) if !is_pictograph(v) && !in_emoji_sequence(v) => {
                (canonical_combining_class(c), non_starters(c))
            }
            _ => (0, (0, 0, true)),
        };
        if leading > 0 {
            if self.marks == 0 {
                self.marks_start = pos;
            }
            self.marks += leading;
            self.marks_end = pos + n;
        }
        if starter {
            if self.marks > 0 {
                self.end_marks();
            }
            if trailing > 0 {
                self.marks = trailing;
                self.marks_start = pos;
                self.marks_end = pos + n;
            }
        }
        // Bidi controls.
        if is_bidi(v) {
            self.bidi(pos, n, v);
        }
        if matches!(v, 0x85 | 0x2028 | 0x2029) {
            self.line_end(Some((pos, v)));
        }
        // Tag characters: fine in the emoji tag sequence of a black flag (found at the
        // flag), hidden text anywhere else (a lint when the run ends).
        if is_tag(v) {
            if self.joiner.is_some() {
                self.settle(None);
            }
            // A tag of a flag's sequence is part of the flag, which is visible.
            if pos < self.flag_tags_end {
                self.prev = Prev::Visible;
                return;
            }
            let mut run = match self.tags.take() {
                Some(run) if run.end == pos => run,
                other => {
                    self.tags = other;
                    self.settle(None);
                    TagRun {
                        start: pos,
                        ..TagRun::default()
                    }
                }
            };
            run.push(pos + n, v);
            self.prev = Prev::Hidden;
            self.tags = Some(run);
            return;
        }
        if self.tags.is_some() {
            self.settle(None);
        }
        if v == 0x1_F3F4 {
            self.black_flag(pos + n);
        }
        // Joiners wait for what follows.
        if v == 0x200C || v == 0x200D {
            if self.joiner.is_some() {
                self.settle(None);
            }
            if self.word.is_some() {
                self.end_word();
            }
            self.joiner = Some((pos, n, v, self.prev, self.base));
            self.prev = Prev::Hidden;
            return;
        }
        let visible = c.is_some_and(|c| !c.is_whitespace()) && !is_bidi(v) && !always_invisible(v);
        if self.joiner.is_some() {
            self.settle((visible && !is_selector(v)).then_some(v));
        }
        if is_selector(v) {
            let (prev, base) = (self.prev, self.base);
            let after_visible = matches!(
                prev,
                Prev::Visible | Prev::Virama | Prev::Ascii | Prev::Keycap
            );
            let again = self.selected_end == pos && pos > 0;
            if again || !(after_visible && has_variants(base, v)) {
                let message = || {
                    let ascii =
                        base < 0x80 && !has_variants(base, 0xFE00) && !has_variants(base, 0xFE0F);
                    let after = match prev {
                        _ if again => {
                            "another variation selector (a character takes one)".to_string()
                        }
                        Prev::Break => "a space, a mark of punctuation or the start".to_string(),
                        Prev::Hidden => "another invisible character".to_string(),
                        _ if ascii => "an ASCII character with no variants".to_string(),
                        _ => format!(
                            "{}, which has no variation sequence with it",
                            named(CodePoint::new(base))
                        ),
                    };
                    format!(
                        "{} after {after}: a variation selector selects nothing there",
                        named(CodePoint::new(v)),
                    )
                };
                self.push(Kind::Invisible, pos, n, Level::Warning, message);
                self.prev = Prev::Hidden;
            } else {
                self.selected_end = pos + n;
            }
            return;
        }
        let in_place = (v == 0xFEFF && pos == 0)
            || (v == 0x180E && self.utf8 && vowel_separator_in_place(self.bytes, pos))
            || (v == ZERO_WIDTH_SPACE
                && self.utf8
                && space_in_place(self.bytes, pos, self.astral_scalars));
        if always_invisible(v) && !in_place {
            // No word's end: `p\u{34F}аypal` reads as one word, and is asked as one
            // (without it, [`Walk::end_word`]).
            let message = || {
                let why = match v {
                    // Its one place, said: it is not there.
                    0x180E => "not between a Mongolian letter and the final a or e it sets apart",
                    _ => "nothing here needs it",
                };
                format!(
                    "{}: invisible, and {why} (it can hide a difference between two strings \
                     that look the same)",
                    named(CodePoint::new(v))
                )
            };
            self.push(Kind::Invisible, pos, n, Level::Warning, message);
            self.prev = Prev::Hidden;
            return;
        }
        // Words, for mixed scripts.
        let wordy = ccc != 0 || (visible && is_wordy(v));
        if wordy {
            self.letter(pos, n, v);
        } else if self.word.is_some() {
            self.end_word();
        }
        // A mark on nothing visible (at a line's start, after a space or a joiner) is its
        // own base.
        if visible && (leading == 0 || matches!(self.prev, Prev::Break | Prev::Hidden)) {
            self.base = v;
        }
        self.prev = match (visible, ccc) {
            // On a letter (a virama after ASCII or a space joins nothing).
            (true, 9) if self.prev == Prev::Visible => Prev::Virama,
            (true, _) => Prev::Visible,
            (false, _) => Prev::Break,
        };
    }

    /// A black flag U+1F3F4 that ends at `end`: the emoji tag sequence right after it, if
    /// there is one ([`tag_sequence_len`], read in the input's dialect), is part of it.
    /// Any other run of tags after it is hidden text, as anywhere.
    fn black_flag(&mut self, end: usize) {
        let (bytes, dialect) = (self.bytes, self.dialect);
        let unit = |at: usize| {
            bytes.get(at)?;
            let unit = dialect.decode_at(bytes, at);
            match unit.kind {
                UnitKind::Scalar(cp) => Some((unit.len as usize, cp.value())),
                UnitKind::Error(_) => None,
            }
        };
        if let Some(len) = tag_sequence_len(end, unit) {
            self.flag_tags_end = end + len;
        }
    }

    /// Decides a pending joiner, `next` the visible character after it (`None`: none is)
    /// and ends a run of tag characters (a lint: the tags of a flag's sequence make none).
    /// A joiner is in place after a virama, whatever follows (a half form, a conjunct, a
    /// chillu: the CONTEXTJ rules of RFC 5892, Appendix A.1 and A.2, allow the same);
    /// after a letter of a cursive-joining script ([`joins_cursively`]), whatever follows
    /// (Persian `ه‍.ش`); before a letter of a script that uses joiners ([`joins`]: the
    /// cursive ones and those with a virama, Bengali's `র‍্য`), after anything but another
    /// invisible character (`URL‌ها`); and between two characters of an emoji sequence
    /// ([`is_emoji_like`]).
    fn settle(&mut self, next: Option<u32>) {
        if let Some((pos, n, v, before, base)) = self.joiner.take() {
            // An emoji sequence first: the commonest place, and the cheapest to tell.
            let emoji =
                before == Prev::Visible && is_emoji_like(base) && next.is_some_and(is_emoji_like);
            let in_place = emoji
                || before == Prev::Virama
                || (before == Prev::Visible && joins_cursively(base))
                || (before != Prev::Hidden && next.is_some_and(joins));
            if !in_place {
                let message = || {
                    format!(
                        "{}: invisible, and not between two characters that join (an emoji \
                     sequence, or letters of a script that uses it)",
                        named(CodePoint::new(v))
                    )
                };
                self.push(Kind::Invisible, pos, n, Level::Warning, message);
            }
        }
        if let Some(run) = self.tags.take() {
            let message = || {
                format!(
                    "{} tag character{} outside an emoji tag sequence, hiding the text \"{}\"{}{}",
                    run.count,
                    if run.count == 1 { "" } else { "s" },
                    sanitize(&run.text),
                    match run.shown < run.count {
                        true => format!(" (its first {} shown)", run.shown),
                        false => String::new(),
                    },
                    tag_names(run.language, run.cancel)
                )
            };
            let (pos, len) = (run.start, run.end - run.start);
            self.push(Kind::Invisible, pos, len, Level::Warning, message);
        }
    }

    fn end_marks(&mut self) {
        if self.marks > MAX_NON_STARTERS {
            let marks = self.marks;
            let message = || {
                format!(
                    "{} combining marks in a row (non-starters, counted after compatibility \
                 decomposition as UAX #15 does; the stream-safe limit is {MAX_NON_STARTERS}): \
                 Zalgo text, slow to normalise and render",
                    marks
                )
            };
            let (s, e) = (self.marks_start, self.marks_end);
            self.push(Kind::Zalgo, s, e - s, Level::Warning, message);
        }
        self.marks = 0;
    }

    fn end_word(&mut self) {
        let Some((start, end, non_ascii)) = self.word.take() else {
            return;
        };
        let (group, mixed) = (self.group, self.mixed);
        (self.group, self.mixed) = (0, false);
        // A word of ASCII and one group of letters: Latin letters are a group of their own,
        // so "pаypal" (Cyrillic а) is asked, "Straße" and "Москва" are not.
        let ascii_letters = self.bytes[start..end]
            .iter()
            .any(|b| b.is_ascii_alphabetic());
        let asked = mixed || (ascii_letters && group != 0 && group != LATIN);
        if !non_ascii || !self.utf8 || !asked || end - start > MAX_WORD_BYTES {
            return;
        }
        let bytes = self.bytes;
        let Ok(word) = std::str::from_utf8(&bytes[start..end]) else {
            return;
        };
        // The word as it reads: the invisible characters inside it are found apart (or are
        // in place: a soft hyphen, a selector after a letter).
        let seen: String;
        let word = match word.chars().any(|c| unseen_in_word(c as u32)) {
            true => {
                seen = word
                    .chars()
                    .filter(|&c| !unseen_in_word(c as u32))
                    .collect();
                seen.as_str()
            }
            false => word,
        };
        // A word met before in this walk was a candidate then; only its lint, if any, is
        // wanted again.
        let confusable = match self.asked.get(word) {
            Some(&confusable) => confusable,
            None => {
                let confusable = !word.is_single_script() && {
                    let reads: String = skeleton(word).collect();
                    let single = reads.as_str().is_single_script();
                    if self.candidates.len() < super::MAX_COMPARED_WORDS {
                        self.candidates.push(Candidate {
                            offset: start,
                            len: end - start,
                            word: word.to_string(),
                            skeleton: reads,
                        });
                    } else {
                        self.candidates_dropped = true;
                    }
                    // An identifier whose parts between `_` are each of one script joins
                    // names, it does not disguise one (`σ_x`, `α_max` in code that
                    // follows a paper's notation, `user_имя`): still compared with the
                    // input's other words as a candidate, not a lint of its own.
                    // Phonetic notation (`[ˈlaβa]`, with the IPA's Greek β) spells sounds,
                    // it does not disguise a word; nor does a single small Greek letter
                    // among Latin capitals (`TNFα`, `NFκB`), a symbol, or an acronym's
                    // case ending that reads as no ASCII word (`QAшник`, `SMSка`).
                    (single || lookalike::reads_in_one_script(word).is_some())
                        && !word.split('_').all(|part| part.is_single_script())
                        && !lookalike::is_phonetic(word)
                        && !lookalike::is_cased_notation(word)
                        && !lookalike::is_acronym_with_ending(word)
                };
                if self.asked.len() >= ASKED_HELD {
                    self.asked.clear();
                }
                self.asked.insert(word.into(), confusable);
                confusable
            }
        };
        if !confusable {
            return;
        }
        let message = || {
            // Each script a letter is of; and a character of no one script (Common or
            // Inherited) that only some scripts use (its Script_Extensions, which the
            // mixing is judged by: U+0640 ARABIC TATWEEL), named with them.
            let mut scripts: Vec<String> = Vec::new();
            for c in word.chars() {
                let s = c.script();
                let name = if !matches!(s, Script::Common | Script::Inherited | Script::Unknown) {
                    s.full_name().to_string()
                } else {
                    let ext = c.script_extension();
                    if ext.is_common() || ext.is_inherited() || ext.is_empty() {
                        continue;
                    }
                    let names: Vec<&str> = ext.iter().map(|s| s.full_name()).collect();
                    let of = match names.as_slice() {
                        [one] => one.to_string(),
                        [a, b] => format!("{a} and {b}"),
                        [a, b, c] => format!("{a}, {b} and {c}"),
                        [a, b, rest @ ..] => format!("{a}, {b} and {} more", rest.len()),
                        [] => continue,
                    };
                    format!("{} (of {of})", named(CodePoint::new(c as u32)))
                };
                if !scripts.contains(&name) {
                    scripts.push(name);
                }
            }
            let key: String = skeleton(word).collect();
            // The word as it reads in the script of most of its letters, where that is not
            // Latin (`Pоссия` reads as the Cyrillic `Россия`, which says more than the
            // half-Latin "Poccия"), or where the skeleton is of two scripts.
            if let Some(r) = lookalike::reads_in_one_script(word) {
                if r.script != Script::Latin || !key.as_str().is_single_script() {
                    return one_script_message(word, &scripts, &r);
                }
            }
            let reads = reading(word);
            match reads == word {
                false => format!(
                    "\"{}\" mixes {} and reads as \"{}\" (UTS #39 skeleton \"{}\")",
                    sanitize(word),
                    scripts.join(" and "),
                    sanitize(&reads),
                    sanitize(&key)
                ),
                true => format!(
                    "\"{}\" mixes {} and its UTS #39 skeleton \"{}\" is of one script",
                    sanitize(word),
                    scripts.join(" and "),
                    sanitize(&key)
                ),
            }
        };
        self.push(
            Kind::Confusable,
            start,
            end - start,
            Level::Warning,
            message,
        );
    }

    /// Ends everything a non-letter ends (an error, an overlong form, the input's end).
    fn boundary(&mut self) {
        if self.security {
            if self.marks > 0 {
                self.end_marks();
            }
            self.settle(None);
            self.end_word();
        }
    }

    fn bidi(&mut self, pos: usize, n: usize, v: u32) {
        if pos < self.bidi_done_until {
            return;
        }
        let at = self.line_bidi.len();
        self.line_bidi.push((pos, n, v, None));
        match v {
            0x202A | 0x202B | 0x202D | 0x202E => self.open.push(Open { at, isolate: false }),
            0x2066..=0x2068 => self.open.push(Open { at, isolate: true }),
            0x202C => {
                if let Some(top) = self.open.last().copied().filter(|o| !o.isolate) {
                    self.open.pop();
                    self.pair(top.at, at);
                }
            }
            0x2069 => {
                if let Some(i) = self.open.iter().rposition(|o| o.isolate) {
                    for o in self.open.split_off(i) {
                        self.pair(o.at, at);
                    }
                }
            }
            _ => {}
        }
        if self.line_bidi.len() >= MAX_BIDI_HELD {
            // Judged now, as at the line's end; a look ahead has done its work.
            self.judge_bidi(Batch::Full);
            self.halted |= self.ahead.is_some();
        }
    }

    fn pair(&mut self, opener: usize, closer: usize) {
        let (o, c) = (self.line_bidi[opener].0, self.line_bidi[closer].0);
        self.line_bidi[opener].3 = Some(c);
        if self.line_bidi[closer].3.is_none() {
            self.line_bidi[closer].3 = Some(o);
        }
    }

    /// The end of a line: its bidi controls become lints, paired or not. `ending` is the
    /// character that ends it at its offset, where that is not a line feed (or the end of
    /// the input): CR alone, NEL, LINE SEPARATOR or PARAGRAPH SEPARATOR, which the messages
    /// name, since a finding's line number counts line feeds only.
    fn line_end(&mut self, ending: Option<(usize, u32)>) {
        self.halted |= self.ahead.is_some();
        let batched = std::mem::take(&mut self.bidi_batched);
        if self.line_bidi.is_empty() {
            return;
        }
        let ended = match ending {
            Some((at, v)) => {
                let what = match v {
                    0x0D => "a CR (U+000D) alone",
                    0x85 => "a NEL (U+0085)",
                    0x2028 => "U+2028 LINE SEPARATOR",
                    _ => "U+2029 PARAGRAPH SEPARATOR",
                };
                format!(", which ends at {what} at offset {at}")
            }
            None => String::new(),
        };
        self.judge_bidi(Batch::LineEnd(ended, batched));
    }

    /// The held bidi controls become lints, paired or not: at the end of their line
    /// (`ended` names what ends it, where that is no line feed), or as a batch of
    /// [`MAX_BIDI_HELD`] of a longer line.
    fn judge_bidi(&mut self, batch: Batch) {
        let (ended, full, apart) = match batch {
            Batch::LineEnd(ended, apart) => (ended, false, apart),
            Batch::Full => (String::new(), true, true),
        };
        self.bidi_batched |= full;
        let batched = match apart {
            true => format!(
                " (a line of more than {MAX_BIDI_HELD} bidi controls is judged {MAX_BIDI_HELD} \
                 at a time: a control of another batch pairs with none of these)"
            ),
            false => String::new(),
        };
        let before_end = match full {
            true => format!("among the {MAX_BIDI_HELD} bidi controls of its line judged with it"),
            false => "before the end of its line".to_string(),
        };
        self.open.clear();
        for (pos, n, v, other) in std::mem::take(&mut self.line_bidi) {
            let level = match (v, other) {
                (0x200E | 0x200F | 0x061C, _) | (_, Some(_)) => Level::Note,
                (_, None) => Level::Warning,
            };
            let message = || {
                let name = named(CodePoint::new(v));
                match (v, other) {
                    (0x200E | 0x200F | 0x061C, _) => {
                        format!("{name}: a bidi mark (invisible; it pairs with nothing)")
                    }
                    (0x202C | 0x2069, Some(o)) => {
                        format!("{name}, closing the control at offset {o}")
                    }
                    (0x202C | 0x2069, None) => {
                        format!("{name} closes nothing on its line{ended} (unpaired){batched}")
                    }
                    (_, Some(c)) => format!("{name}, closed on its line at offset {c}"),
                    (_, None) => format!(
                        "{name} is not closed {before_end}{ended}: the text after it is \
                         shown reordered (unpaired, as in Trojan Source, \
                         CVE-2021-42574){batched}"
                    ),
                }
            };
            self.push(Kind::Bidi, pos, n, level, message);
        }
    }
}

/// What ends a batch of held bidi controls ([`Walk::judge_bidi`]).
enum Batch {
    /// The end of their line, what ends it where that is no line feed (`, which ends at
    /// ...`, or empty), and whether a full batch of the line came before.
    LineEnd(String, bool),
    /// [`MAX_BIDI_HELD`] controls held on one line.
    Full,
}

/// A surrogate's 3-byte form alone, or a lead's and a trail's one after the other, as the
/// targets' lints name them.
#[derive(Clone, Copy)]
enum Surrogates {
    Lone(u32),
    Pair(u32, u32),
}

impl Surrogates {
    /// `lone lead surrogate U+D800 (read as WTF-8)`, or `surrogate pair U+D83D U+DE00
    /// (...) for U+1F600 GRINNING FACE`.
    fn what(self, form: &str) -> String {
        match self {
            Surrogates::Lone(v) => {
                let which = if v < 0xDC00 { "lead" } else { "trail" };
                format!("lone {which} surrogate U+{v:04X} ({form})")
            }
            Surrogates::Pair(lead, trail) => format!(
                "surrogate pair U+{lead:04X} U+{trail:04X} ({form}) for {}",
                named(CodePoint::new(self.value()))
            ),
        }
    }

    /// The character a pair stands for (a lone surrogate's own value).
    fn value(self) -> u32 {
        match self {
            Surrogates::Lone(v) => v,
            Surrogates::Pair(lead, trail) => 0x1_0000 + ((lead - 0xD800) << 10) + (trail - 0xDC00),
        }
    }

    /// `writes U+1F600 as F0 9F 98 80`: how UTF-8 writes a pair's character.
    fn utf8(self) -> String {
        let v = self.value();
        let mut utf8 = [0u8; 4];
        let written = char::from_u32(v).map_or(String::new(), |c| {
            let hex: Vec<String> = c
                .encode_utf8(&mut utf8)
                .bytes()
                .map(|b| format!("{b:02X}"))
                .collect();
            hex.join(" ")
        });
        format!("writes U+{v:04X} as {written}")
    }
}

/// The value of a surrogate's 3-byte form at `pos` (`ED A0 80` to `ED BF BF`: U+D800 to
/// U+DFFF), whether the dialect reads it as one or as error bytes.
fn surrogate_at(bytes: &[u8], pos: usize) -> Option<u32> {
    match *bytes.get(pos..pos.checked_add(3)?)? {
        [0xED, b1 @ 0xA0..=0xBF, b2 @ 0x80..=0xBF] => {
            Some(0xD000 | ((b1 as u32 & 0x3F) << 6) | (b2 as u32 & 0x3F))
        }
        _ => None,
    }
}

/// How the input's dialect takes a surrogate's 3-byte form, for the JSON lint's message.
fn surrogate_form(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Wtf8 => "read as WTF-8",
        Dialect::Cesu8 => "read as CESU-8",
        Dialect::Mutf8 => "read as Modified UTF-8",
        Dialect::Legacy => "read as legacy UTF-8",
        _ => "invalid in UTF-8",
    }
}

/// A run of tag characters that is not the emoji tag sequence of a black flag
/// ([`tag_sequence_len`]): hidden text, a lint.
#[derive(Clone, Debug, Default)]
struct TagRun {
    start: usize,
    end: usize,
    count: usize,
    /// The hidden text, plain printable ASCII that says which tags the run holds: a tag of
    /// a printable ASCII character as that character (`\"` and `\\` for those of `"` and
    /// `\`), any other (U+E0000 to U+E001F, U+E007F) as a `\u{..}` escape, as [`sanitize`]
    /// writes one. No tag becomes a control character (the tag of ESC is `\u{e001b}`).
    text: String,
    /// How many tags `text` shows: the first [`TAG_TEXT_SHOWN`], so that a run of
    /// thousands gives a message of a line.
    shown: usize,
    /// Whether it holds LANGUAGE TAG, CANCEL TAG.
    language: bool,
    cancel: bool,
}

/// The most tags of a run whose hidden text a message shows.
const TAG_TEXT_SHOWN: usize = 200;

impl TagRun {
    /// Adds tag character `v` (U+E0000 to U+E007F), which ends at `end`.
    fn push(&mut self, end: usize, v: u32) {
        self.end = end;
        self.count += 1;
        self.language |= v == 0xE_0001;
        self.cancel |= v == CANCEL_TAG;
        if self.shown == TAG_TEXT_SHOWN {
            return;
        }
        self.shown += 1;
        match v {
            0xE_0022 => self.text.push_str("\\\""),
            0xE_005C => self.text.push_str("\\\\"),
            0xE_0020..=0xE_007E => self.text.push(char::from((v - 0xE_0000) as u8)),
            _ => {
                let _ = write!(self.text, "\\u{{{v:x}}}");
            }
        }
    }
}

/// U+E007F CANCEL TAG, which ends an emoji tag sequence.
const CANCEL_TAG: u32 = 0xE_007F;

/// Whether `v` is a tag character (U+E0000 to U+E007F).
fn is_tag(v: u32) -> bool {
    (0xE_0000..=CANCEL_TAG).contains(&v)
}

/// Whether tag character `v` may be part of the tag_spec of an emoji tag sequence: the tag
/// of `0`-`9` or `a`-`z` (UTS #51, ED-14b).
fn is_tag_spec(v: u32) -> bool {
    matches!(v, 0xE_0030..=0xE_0039 | 0xE_0061..=0xE_007A)
}

/// The length in bytes of the emoji tag sequence that begins at `at`, right after a black
/// flag U+1F3F4, as UTS #51 (ED-14a, ED-14b) writes one and CLDR's subdivision flags use
/// it: a tag_spec of 3 to 6 tags of `0`-`9` and `a`-`z` (a subdivision id: a region of 2
/// letters, then 1 to 4 letters or digits; `gbsct` for Scotland), then one CANCEL TAG, and
/// no tag after it. `None` where no tag begins, and for any other run of tags (a capital,
/// a space, punctuation, LANGUAGE TAG, a tag_spec of 7, a CANCEL TAG missing, alone, twice
/// or inside the run), which is hidden text like any run of tags.
///
/// `unit` is the character at an offset as the input's dialect reads it, its length and
/// value (`None` for an error or past the end). The walk asks this at each black flag and
/// the sieve at each black flag of a line it reads again, so the two cannot disagree.
/// At most 8 tags are read.
pub(super) fn tag_sequence_len(
    at: usize,
    unit: impl Fn(usize) -> Option<(usize, u32)>,
) -> Option<usize> {
    let tag = |p: usize| unit(p).filter(|&(_, v)| is_tag(v));
    let (mut end, mut spec) = (at, 0);
    while let Some((n, v)) = tag(end) {
        end += n;
        if !is_tag_spec(v) {
            let ended = v == CANCEL_TAG && tag(end).is_none();
            return (ended && (3..=6).contains(&spec)).then_some(end - at);
        }
        spec += 1;
        if spec > 6 {
            return None;
        }
    }
    None
}

/// The names of LANGUAGE TAG and CANCEL TAG where a run of tags holds them (`language`,
/// `cancel`), after its hidden text: ` (\u{e007f} is CANCEL TAG)`, or nothing.
fn tag_names(language: bool, cancel: bool) -> String {
    let named: Vec<String> = [(language, 0xE_0001), (cancel, 0xE_007F)]
        .into_iter()
        .filter(|&(held, _)| held)
        .map(|(_, v)| format!("\\u{{{v:x}}} is {}", label(CodePoint::new(v))))
        .collect();
    match named.is_empty() {
        true => String::new(),
        false => format!(" ({})", named.join(", ")),
    }
}

/// `U+202E RIGHT-TO-LEFT OVERRIDE`.
fn named(cp: CodePoint) -> String {
    format!("U+{:04X} {}", cp.value(), label(cp))
}

fn is_bidi(v: u32) -> bool {
    matches!(v, 0x061C | 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069)
}

/// The characters of emoji sequences (and Mongolian's free variation selectors) that a
/// lint looks at but finds fine in their place: the joiners (U+200C, U+200D), the
/// variation selectors, the tag characters and the black flag U+1F3F4 that begins a tag
/// sequence. Each is a starter with no decomposition (the
/// test `sequence_characters_are_starters` asks), so none counts in a run of marks.
pub(super) fn in_emoji_sequence(v: u32) -> bool {
    matches!(v, 0x200C | 0x200D | 0x1_F3F4 | 0xE_0000..=0xE_007F) || is_selector(v)
}

/// The variation selectors ([`crate::view::unicode::is_variation_selector`]).
pub(super) fn is_selector(v: u32) -> bool {
    crate::view::unicode::is_variation_selector(CodePoint::new(v))
}

/// The cursive-joining scripts (ArabicShaping.txt: Arabic, Syriac, Mongolian, N'Ko,
/// Mandaic, Adlam, Hanifi Rohingya, Sogdian, Manichaean, Psalter Pahlavi, Phags-pa, Old
/// Uyghur, Chorasmian): a joiner beside a letter asks for its joining form or breaks one,
/// whatever is on its other side (Persian `ه‍.ش`, `URL‌ها`).
const CURSIVE: [Script; 13] = [
    Script::Arabic,
    Script::Syriac,
    Script::Mongolian,
    Script::Nko,
    Script::Mandaic,
    Script::Adlam,
    Script::Hanifi_Rohingya,
    Script::Sogdian,
    Script::Manichaean,
    Script::Psalter_Pahlavi,
    Script::Phags_Pa,
    Script::Old_Uyghur,
    Script::Chorasmian,
];

/// The scripts with a virama, a character of canonical combining class 9 (read off the
/// normalization data once, in the two planes that hold scripts): Devanagari, Bengali, Sinhala, Malayalam, Khmer, Tibetan and
/// the rest of the Brahmic family, with Thai, Lao and Tifinagh, which have one too. A
/// joiner in them asks for or keeps apart a half form, a conjunct or a chillu.
static VIRAMA_SCRIPTS: LazyLock<Vec<Script>> = LazyLock::new(|| {
    let mut scripts = Vec::new();
    for c in (0..0x2_0000).filter_map(char::from_u32) {
        if canonical_combining_class(c) == 9 && !scripts.contains(&c.script()) {
            scripts.push(c.script());
        }
    }
    scripts
});

/// Whether `v` is a character of one of `scripts`, by its Script property, or for a
/// Common or Inherited one (the tatweel, the Arabic harakat) by the scripts its
/// Script_Extensions names (none when it names none: U+0301 is not Arabic).
fn of_scripts(v: u32, scripts: &[Script]) -> bool {
    // The pictographs and their modifiers (U+1F000..U+1FAFF), asked at every joiner of
    // an emoji sequence, are of no script that joins (a test holds it).
    if (0x1_F000..=0x1_FAFF).contains(&v) {
        return false;
    }
    let Some(c) = char::from_u32(v).filter(|_| v >= 0x80) else {
        return false;
    };
    match c.script() {
        Script::Common | Script::Inherited | Script::Unknown => {
            let ext = c.script_extension();
            !(ext.is_common() || ext.is_inherited())
                && scripts.iter().any(|&s| ext.contains_script(s))
        }
        script => scripts.contains(&script),
    }
}

/// Whether `v` is a letter (or mark) of a cursive-joining script ([`CURSIVE`]).
pub(super) fn joins_cursively(v: u32) -> bool {
    of_scripts(v, &CURSIVE)
}

/// Whether `v` is a character of a script that uses joiners: a cursive-joining one or
/// one with a virama ([`VIRAMA_SCRIPTS`]).
pub(super) fn joins(v: u32) -> bool {
    v >= 0x80 && (of_scripts(v, &CURSIVE) || of_scripts(v, &VIRAMA_SCRIPTS))
}

/// The characters that take VS15 (U+FE0E) or VS16 (U+FE0F), text or emoji presentation:
/// those whose width `unicode-width` changes with one of them, which it reads from
/// Unicode's emoji-variation-sequences.txt (the keycap bases `0`-`9`, `#`, `*`, `©`,
/// `❤`, `♀`, `⌚`, ...). All of them lie below U+3300 or in U+1F000 to U+1FAFF.
static EMOJI_VARIATION_BASES: LazyLock<Vec<u32>> = LazyLock::new(|| {
    use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};
    let mut bases = Vec::new();
    let mut buf = [0u8; 8];
    for v in (0..0x3300).chain(0x1_F000..0x1_FB00) {
        let Some(c) = char::from_u32(v) else {
            continue;
        };
        let width = c.width().unwrap_or(0);
        let len = c.encode_utf8(&mut buf).len();
        let changed = ['\u{FE0E}', '\u{FE0F}'].into_iter().any(|s| {
            let n = len + s.encode_utf8(&mut buf[len..]).len();
            std::str::from_utf8(&buf[..n]).is_ok_and(|t| t.width() != width)
        });
        if changed {
            bases.push(v);
        }
    }
    bases
});

/// Whether `v` is an emoji variation base ([`EMOJI_VARIATION_BASES`]).
pub(super) fn is_emoji_base(v: u32) -> bool {
    EMOJI_VARIATION_BASES.binary_search(&v).is_ok()
}

/// Whether `v` can be a part of an emoji ZWJ sequence: a character of the emoji and
/// symbol blocks U+1F000 to U+1FAFF (the pictographs, the skin tones), or an emoji
/// variation base (`❤`, `♀`, `➡`, `⬛`).
pub(super) fn is_emoji_like(v: u32) -> bool {
    (0x1_F000..=0x1_FAFF).contains(&v) || is_emoji_base(v)
}

/// Whether variation selector `selector` after `base` (the last visible character, marks
/// not counted) makes a variation sequence Unicode has, or may register: VS15 and VS16
/// after an emoji ([`is_emoji_like`]: an emoji variation base, or a pictograph, which
/// keyboards often send with VS16 although it has no text form); VS1 to VS14 after a character of
/// a script or kind that StandardizedVariants.txt gives variants (Han, whose CJK
/// compatibility ideographs are unified ideographs with a selector; Myanmar, Phags-pa,
/// Manichaean, Egyptian hieroglyphs; the mathematical symbols, general category Sm, not
/// ASCII; the Chinese punctuation `、` `。` `！` `，` `．` `：` `；` `？`), and VS1 after `0`
/// (the slashed zero); the ideographic variation selectors (U+E0100 to U+E01EF) after
/// a Han ideograph, the only script the Ideographic Variation Database registers; and
/// Mongolian's free variation selectors after a Mongolian letter.
pub(super) fn has_variants(base: u32, selector: u32) -> bool {
    let Some(c) = char::from_u32(base) else {
        return false;
    };
    match selector {
        0xFE0E | 0xFE0F => is_emoji_like(base),
        // The slashed zero, U+0030 U+FE00 (Unicode 15.1): the only ASCII one.
        0xFE00 if base == u32::from(b'0') => true,
        0xFE00..=0xFE0D => {
            let kind = matches!(
                c.script(),
                Script::Han
                    | Script::Myanmar
                    | Script::Phags_Pa
                    | Script::Manichaean
                    | Script::Egyptian_Hieroglyphs
            ) || category(CodePoint::new(base)) == Some(GeneralCategory::MathSymbol);
            let punctuation = matches!(
                base,
                0x3001 | 0x3002 | 0xFF01 | 0xFF0C | 0xFF0E | 0xFF1A | 0xFF1B | 0xFF1F
            );
            base >= 0x80 && (kind || punctuation)
        }
        0xE_0100..=0xE_01EF => c.script() == Script::Han,
        _ => c.script() == Script::Mongolian,
    }
}

pub(super) const LATIN: u32 = 1;
/// The group of the CJK ideographs, kana and their punctuation ([`group`]).
pub(super) const HAN: u32 = 4;

/// A coarse script group of a non-ASCII letter, for a cheap first look at a word: Latin,
/// Greek and Cyrillic (the scripts most confusables are drawn from) each one group, the
/// CJK ideographs, kana and their punctuation one, Hangul one, every other letter the
/// 256-code-point block it is in; 0 for marks (script Inherited). A word whose letters are
/// all of one group is of one script but for the rare block shared by two scripts, and is
/// not asked further; the others are asked with UTS #39's augmented script sets.
fn group(v: u32) -> u32 {
    match v {
        0xAD
        | 0x300..=0x36F
        | 0x1AB0..=0x1AFF
        | 0x1DC0..=0x1DFF
        | 0x20D0..=0x20FF
        | 0xFE20..=0xFE2F => 0,
        0x80..=0x24F | 0x1E00..=0x1EFF | 0x2C60..=0x2C7F | 0xA720..=0xA7FF | 0xAB30..=0xAB6F => {
            LATIN
        }
        0x370..=0x3FF | 0x1F00..=0x1FFF => 2,
        0x400..=0x52F | 0x1C80..=0x1C8F | 0x2DE0..=0x2DFF | 0xA640..=0xA69F => 3,
        0x2E80..=0x9FFF | 0xF900..=0xFAFF | 0xFF00..=0xFFEF | 0x2_0000..=0x3_FFFF => HAN,
        0x1100..=0x11FF | 0xAC00..=0xD7AF => 5,
        _ => 0x100 + (v >> 8),
    }
}

/// Whether a visible non-ASCII character can be part of a word: anything but the
/// punctuation, symbols and spaces of the blocks that hold them (Latin-1's signs, General
/// Punctuation to the Supplemental Arrows, CJK punctuation, fullwidth signs, the emoji and
/// symbol planes' blocks). Cheap on purpose: a word boundary missed only makes a word
/// longer, and its scripts are then asked about with Common characters in it.
fn is_wordy(v: u32) -> bool {
    use GeneralCategory::*;
    // Punctuation, symbols and spaces of a script (the Devanagari danda `।`, the Armenian
    // full stop `։`, Hebrew's sof pasuq `׃`, Myanmar's `၊`, the Arabic comma) end a word
    // as ASCII's do: `Windows।` is no word that mixes scripts.
    let not_of_words = matches!(
        category(CodePoint::new(v)),
        Some(
            ConnectorPunctuation
                | DashPunctuation
                | OpenPunctuation
                | ClosePunctuation
                | InitialPunctuation
                | FinalPunctuation
                | OtherPunctuation
                | MathSymbol
                | CurrencySymbol
                | ModifierSymbol
                | OtherSymbol
                | SpaceSeparator
                | LineSeparator
                | ParagraphSeparator
        )
    );
    !not_of_words
        && !matches!(
            v,
            // The soft hyphen (U+00AD) is part of the word it may break.
            0x80..=0xAC
                | 0xAE..=0xBF
                | 0xD7
                | 0xF7
                | 0x2000..=0x2BFF
                | 0x3000..=0x3003
                | 0x3008..=0x3020
                | 0x30FB
                | 0xFE10..=0xFE1F
                | 0xFE30..=0xFE6F
                | 0xFF00..=0xFF0F
                | 0xFF1A..=0xFF20
                | 0xFF3B..=0xFF40
                | 0xFF5B..=0xFF65
                | 0x1_F000..=0x1_FBFF
        )
}

/// Whether the Mongolian vowel separator (U+180E, three bytes in the UTF-8 family) at
/// `pos` stands where Mongolian writes it: after a letter of the script (U+1820 to U+1878,
/// U+1880 to U+18AA) and before the final vowel it sets apart, a (U+1820) or e (U+1821).
/// The vowel is final when no letter of the script follows it: in the Unicode encoding
/// model the separator and its vowel end a word (or a stem before a suffix written after
/// U+202F NARROW NO-BREAK SPACE), and only a free variation selector choosing the
/// vowel's shape may stand between it and the word's end, so those are passed over.
fn vowel_separator_in_place(bytes: &[u8], pos: usize) -> bool {
    // Each of them is three bytes: no four-byte character need be read.
    let letter = |c| matches!(c, '\u{1820}'..='\u{1878}' | '\u{1880}'..='\u{18AA}');
    let vowel = |c| matches!(c, '\u{1820}' | '\u{1821}');
    let free_selector = |c| matches!(c, '\u{180B}'..='\u{180D}' | '\u{180F}');
    if !(character_before(bytes, pos, false).is_some_and(|(_, c)| letter(c))
        && character_from(bytes, pos + 3, false).is_some_and(vowel))
    {
        return false;
    }
    let mut after = pos + 6;
    while character_from(bytes, after, false).is_some_and(free_selector) {
        after += 3;
    }
    !character_from(bytes, after, false).is_some_and(letter)
}

/// U+200B ZERO WIDTH SPACE: where a line may break in the scripts written without spaces
/// between words ([`space_in_place`]), invisible anywhere else.
pub(super) const ZERO_WIDTH_SPACE: u32 = 0x200B;

/// The scripts written without spaces between words, where a zero-width space marks a
/// word's end, a place where a line may break (the Unicode Standard, chapter 23; UAX #14,
/// class ZW): Thai, Lao, Khmer, Myanmar, Tibetan, and the CJK group, one because a
/// Japanese sentence mixes Han, Hiragana and Katakana (and Bopomofo annotates Han): the
/// group [`HAN_SCRIPTS`] that `detect` counts as one too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unspaced {
    Thai,
    Lao,
    Khmer,
    Myanmar,
    Tibetan,
    Cjk,
}

impl Unspaced {
    fn of(script: Script) -> Option<Unspaced> {
        match script {
            Script::Thai => Some(Unspaced::Thai),
            Script::Lao => Some(Unspaced::Lao),
            Script::Khmer => Some(Unspaced::Khmer),
            Script::Myanmar => Some(Unspaced::Myanmar),
            Script::Tibetan => Some(Unspaced::Tibetan),
            s if HAN_SCRIPTS.contains(&s) => Some(Unspaced::Cjk),
            _ => None,
        }
    }
}

/// What a character beside a zero-width space is to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Beside {
    /// A letter or a mark of a script written without spaces (by its Script property, or,
    /// for the marks the kana share, `ー` and `゙`, by its Script_Extensions, all of one
    /// group).
    Unspaced(Unspaced),
    /// A combining mark of the Inherited script (an accent, a variation selector), not
    /// one group's: the letter it is on decides.
    Mark,
    /// Anything else: a space, punctuation, a digit, a letter of another script.
    Other,
}

/// [`beside_by_properties`] of `c`, each answer below U+10000 kept once asked: the Script
/// property is a binary search over some 2,000 ranges, and Thai or Khmer text asks it of
/// the characters around every word's zero-width space.
fn beside(c: char) -> Beside {
    /// Each character's index in [`KEPT`]: 0 (`None`) until it is asked about.
    static CODES: [AtomicU8; 0x1_0000] = [const { AtomicU8::new(0) }; 0x1_0000];
    let Some(code) = CODES.get(c as usize) else {
        return beside_by_properties(c);
    };
    if let Some(kept) = KEPT[code.load(Ordering::Relaxed) as usize] {
        return kept;
    }
    let b = beside_by_properties(c);
    let k = KEPT
        .iter()
        .position(|&kept| kept == Some(b))
        .expect("every answer is listed");
    code.store(k as u8, Ordering::Relaxed);
    b
}

/// What each code [`beside`] keeps for a character stands for: nothing yet (0, so that
/// the codes start zeroed), or the answer.
const KEPT: [Option<Beside>; 9] = [
    None,
    Some(Beside::Other),
    Some(Beside::Mark),
    Some(Beside::Unspaced(Unspaced::Thai)),
    Some(Beside::Unspaced(Unspaced::Lao)),
    Some(Beside::Unspaced(Unspaced::Khmer)),
    Some(Beside::Unspaced(Unspaced::Myanmar)),
    Some(Beside::Unspaced(Unspaced::Tibetan)),
    Some(Beside::Unspaced(Unspaced::Cjk)),
];

/// What `c` is beside a zero-width space, by its general category, Script and
/// Script_Extensions.
fn beside_by_properties(c: char) -> Beside {
    use GeneralCategory::*;
    let mark = match category(CodePoint::new(c as u32)) {
        Some(NonspacingMark | SpacingMark | EnclosingMark) => true,
        // A digit of the script itself (Khmer `១២`, Thai `๑๒`) too: a number is a word
        // there. A digit of no script (ASCII, fullwidth) is Common, so no such place.
        Some(
            UppercaseLetter | LowercaseLetter | TitlecaseLetter | ModifierLetter | OtherLetter
            | DecimalNumber,
        ) => false,
        _ => return Beside::Other,
    };
    if let Some(u) = Unspaced::of(c.script()) {
        return Beside::Unspaced(u);
    }
    // Common and Inherited characters used by one group only: `ー`, `゙`.
    let extensions = c.script_extension();
    if !extensions.is_common() && !extensions.is_inherited() {
        let mut groups = extensions.iter().map(Unspaced::of);
        if let Some(u) = groups.next().flatten() {
            if groups.all(|g| g == Some(u)) {
                return Beside::Unspaced(u);
            }
        }
    }
    match mark && c.script() == Script::Inherited {
        true => Beside::Mark,
        false => Beside::Other,
    }
}

/// Whether the zero-width space (U+200B, three bytes in the UTF-8 family) at `pos` stands
/// where a script written without spaces puts it: right after a letter or mark of such a
/// script (a combining mark of no script counts as its letter's) and right before one of
/// the same script, or of the CJK group ([`Unspaced`]), nothing between; `ภาษา\u{200B}ไทย`,
/// `これは\u{200B}テスト`. Never at a line's start or end, beside a space or another
/// invisible character, or between letters of other scripts (`admin\u{200B}istrator`).
/// Only well-formed characters count, and a four-byte one only where `astral` (the dialect
/// reads four bytes as UTF-8 does). The sieve asks the same of a line
/// (`sieve::sequences_are_quiet`), so the two cannot disagree.
pub(super) fn space_in_place(bytes: &[u8], pos: usize, astral: bool) -> bool {
    let Some(Beside::Unspaced(script)) = character_from(bytes, pos + 3, astral).map(beside) else {
        return false;
    };
    // Back over the marks of no script to the letter they are on.
    let mut end = pos;
    while let Some((start, c)) = character_before(bytes, end, astral) {
        match beside(c) {
            Beside::Mark => end = start,
            Beside::Unspaced(u) => return u == script,
            Beside::Other => return false,
        }
    }
    false
}

/// The well-formed character of two to four bytes (four only where `astral`) that starts
/// at `start`, if one does.
fn character_from(bytes: &[u8], start: usize, astral: bool) -> Option<char> {
    let v = match bytes.get(start) {
        Some(0xC2..=0xEF) => bmp_at(bytes, start).map(|(_, v)| v),
        Some(0xF0..=0xF4) if astral => astral_at(bytes, start),
        _ => None,
    };
    v.and_then(char::from_u32)
}

/// The well-formed character of two to four bytes (four only where `astral`) that ends
/// just before `end`: where it starts, and the character.
fn character_before(bytes: &[u8], end: usize, astral: bool) -> Option<(usize, char)> {
    for n in 2..=if astral { 4 } else { 3 } {
        let start = end.checked_sub(n)?;
        let v = match (n, bytes[start]) {
            (_, 0x80..=0xBF) => continue,
            (2, 0xC2..=0xDF) | (3, 0xE0..=0xEF) => bmp_at(bytes, start)
                .filter(|&(len, _)| len == n)
                .map(|(_, v)| v),
            (4, 0xF0..=0xF4) => astral_at(bytes, start),
            _ => None,
        };
        return v.and_then(char::from_u32).map(|c| (start, c));
    }
    None
}

/// The characters a word is read without, for its scripts and skeleton: those not seen in
/// it ([`always_invisible`], the variation selectors, the tags, the joiners, the soft
/// hyphen). `p\u{AD}аypal` reads as `pаypal`.
fn unseen_in_word(v: u32) -> bool {
    always_invisible(v) || is_selector(v) || is_tag(v) || matches!(v, 0xAD | 0x200C | 0x200D)
}

/// Default-ignorable characters (DerivedCoreProperties.txt) that no context needs: the
/// soft hyphen, the bidi marks and controls, the joiners, the selectors and the tags are
/// judged apart, and U+FEFF at the start, the Mongolian vowel separator and the zero-width
/// space in their places are let be. What is left: zero-width space, word joiner and
/// invisible operators, the Hangul fillers, the Mongolian vowel separator, the combining
/// grapheme joiner, the Khmer inherent vowels, the deprecated format characters, U+FEFF
/// past the start, the shorthand format controls, the musical formatting characters, and
/// the default-ignorable code points not yet assigned (U+2065, U+FFF0 to U+FFF8, U+E0080
/// to U+E00FF and U+E01F0 to U+E0FFF), which a renderer that follows the standard draws as
/// nothing already.
fn always_invisible(v: u32) -> bool {
    let judged_apart =
        matches!(v, 0xAD | 0x200C | 0x200D) || is_bidi(v) || is_selector(v) || is_tag(v);
    crate::view::unicode::is_default_ignorable(CodePoint::new(v)) && !judged_apart
}

/// What XML says of code point `v` as literal text, if anything: XML 1.0 (Fifth Edition)
/// §2.2 production [2] and its note on discouraged characters; XML 1.1 (Second Edition)
/// productions [2] and [2a] (restricted characters only as character references).
fn xml(v: u32, v11: bool) -> Option<(Kind, Level, &'static str)> {
    let forbidden = |why| Some((Kind::XmlForbidden, Level::Error, why));
    let discouraged = |why| Some((Kind::XmlDiscouraged, Level::Warning, why));
    match v {
        0 => forbidden("is not an XML character, not even as a character reference"),
        0x09 | 0x0A | 0x0D => None,
        0x01..=0x1F if v11 => {
            forbidden("is a restricted character: XML 1.1 allows it only as a character reference")
        }
        0x01..=0x1F => forbidden("is not an XML 1.0 character"),
        0x7F..=0x84 | 0x86..=0x9F if v11 => {
            forbidden("is a restricted character: XML 1.1 allows it only as a character reference")
        }
        0x7F..=0x84 | 0x86..=0x9F => {
            discouraged("is a control character XML 1.0 discourages (§2.2)")
        }
        0xD800..=0xDFFF => forbidden("is a surrogate, not an XML character"),
        0xFFFE | 0xFFFF => forbidden("is not an XML character"),
        0x11_0000.. => forbidden("is not an XML character"),
        // XML 1.1's note lists U+FDD0..U+FDDF of the 32 (XML 1.0's Fifth Edition all).
        0xFDE0..=0xFDEF if v11 => discouraged(
            "is a noncharacter, which Unicode reserves for internal use (XML 1.1's note on discouraged characters, §2.2, lists U+FDD0..U+FDDF only)",
        ),
        _ if is_noncharacter(CodePoint::new(v)) => {
            discouraged("is a noncharacter, which XML discourages (§2.2)")
        }
        _ => None,
    }
}

/// The overlong form of an ASCII character at `pos`: its length and value. Forms of 2 to
/// 4 bytes in every dialect of the UTF-8 family (but `C0 80`, Modified UTF-8's NUL), and of
/// 5 and 6 in legacy UTF-8 (RFC 2279).
pub fn overlong(bytes: &[u8], pos: usize, dialect: Dialect) -> Option<(usize, u8)> {
    let b0 = bytes[pos];
    let (n, init) = match b0 {
        0xC0 | 0xC1 => (2, (b0 & 1) as u32),
        0xE0 => (3, 0),
        0xF0 => (4, 0),
        0xF8 | 0xFC if dialect == Dialect::Legacy => (if b0 == 0xF8 { 5 } else { 6 }, 0),
        _ => return None,
    };
    let tail = bytes.get(pos + 1..pos + n)?;
    if !tail.iter().all(|&t| t & 0xC0 == 0x80) {
        return None;
    }
    if dialect == Dialect::Mutf8 && tail == [0x80] && b0 == 0xC0 {
        return None;
    }
    let v = tail.iter().fold(init, |v, &t| (v << 6) | (t & 0x3F) as u32);
    (v < 0x80).then_some((n, v as u8))
}

/// The message of a confusable `word`, mixing `scripts`, that reads as `r`: a word of one
/// of them whose skeleton is not (each letter of the others has a lookalike in it).
fn one_script_message(word: &str, scripts: &[String], r: &lookalike::Reading) -> String {
    let mut swaps: Vec<String> = r
        .swapped
        .iter()
        .take(3)
        .map(|(c, d)| {
            let like: Vec<String> = d.chars().map(|d| named(CodePoint::new(d as u32))).collect();
            format!(
                "{} looks like {}",
                named(CodePoint::new(*c as u32)),
                like.join(" and ")
            )
        })
        .collect();
    if r.swapped.len() > 3 {
        swaps.push(format!("{} more", r.swapped.len() - 3));
    }
    format!(
        "\"{}\" mixes {} and reads as the {} word \"{}\" ({})",
        sanitize(word),
        scripts.join(" and "),
        r.script.full_name(),
        sanitize(&r.word),
        swaps.join(", ")
    )
}

/// What a reader sees in a confusable `word`: each character that is not ASCII replaced by
/// its UTS #39 skeleton where that is ASCII (`pаypal` with a Cyrillic `а` is `paypal`), the
/// rest kept. Unlike the skeleton of the whole word, a comparison key, it changes no ASCII
/// letter: `m` stays `m`, where the skeleton has `rn`.
fn reading(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for c in word.chars() {
        if c.is_ascii() {
            out.push(c);
            continue;
        }
        let mut one = [0; 4];
        let key: String = skeleton(c.encode_utf8(&mut one)).collect();
        match key.is_ascii() && !key.is_empty() {
            true => out.push_str(&key),
            false => out.push(c),
        }
    }
    out
}

/// The message of an overlong form of ASCII `value` in `n` bytes. The character is shown in
/// single quotes, as a diagnosis shows it (`'/'`, `'"'`, `' '`), but for the apostrophe,
/// which its name says, and the controls, which have none to show.
fn overlong_message(n: usize, value: u8) -> String {
    let cp = CodePoint::new(value as u32);
    let shown = if (value.is_ascii_graphic() || value == b' ') && value != b'\'' {
        format!(" '{}'", value as char)
    } else {
        String::new()
    };
    format!(
        "overlong {n}-byte form of U+{:04X}{shown} ({}): a decoder that accepts it sees \
         that character where a filter saw none",
        value,
        label(cp)
    )
}

/// What the walk does with a character that no lint looks at: it adds `group` (0: none; a
/// character that is not part of a `word` has none, and ends the word before it) to its word, and `leading` and `trailing`
/// non-starters (after NFKD) to the run of marks, which a `starter` ends. `None` for a
/// character some lint or target looks at (a bidi control, a joiner, a selector, a tag or
/// the black flag that begins a tag sequence, anything invisible, a line separator, a C1
/// control, a noncharacter, whatever XML refuses or discourages): [`super::sieve`] sends its
/// line to the walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Quiet {
    /// Part of a word: a character that is not ends the word before it.
    pub word: bool,
    pub group: u32,
    pub leading: usize,
    pub trailing: usize,
    pub starter: bool,
}

/// Whether some lint looks at code point `v` whatever its neighbours: what [`quiet`] says
/// `None` for.
fn looked_at(v: u32) -> bool {
    is_bidi(v)
        || matches!(v, 0x85 | 0x2028 | 0x2029 | 0x200C | 0x200D | 0x1_F3F4)
        || is_tag(v)
        || is_selector(v)
        || always_invisible(v)
        || is_noncharacter(CodePoint::new(v))
        || xml(v, false).is_some()
        || xml(v, true).is_some()
}

/// Whether `v` is in one of the few 256-code-point pages that hold a character
/// [`looked_at`] (or is a noncharacter at a plane's end, or past U+10FFFF): a cheap first
/// question for the tables built from [`quiet`], which ask it of every code point below
/// U+20000. The test `looked_at_only_in_its_pages` asks it of every code point.
fn may_be_looked_at(v: u32) -> bool {
    matches!(
        v >> 8,
        0x00 | 0x03
            | 0x06
            | 0x11
            | 0x17
            | 0x18
            | 0x20
            | 0x31
            | 0xD8..=0xDF
            | 0xFD..=0xFF
            | 0x1BC
            | 0x1D1
            | 0x1F3
            | 0xE00..=0xE0F
    ) || v & 0xFFFE == 0xFFFE
        || v > 0x10_FFFF
}

/// The [`Quiet`] facts of code point `v` (not ASCII), from the predicates the walk asks.
pub(super) fn quiet(v: u32) -> Option<Quiet> {
    let c = char::from_u32(v)?;
    if may_be_looked_at(v) && looked_at(v) {
        return None;
    }
    let (leading, trailing, starter) = non_starters(c);
    let wordy = canonical_combining_class(c) != 0 || (!c.is_whitespace() && is_wordy(v));
    Some(Quiet {
        word: wordy,
        group: if wordy { group(v) } else { 0 },
        leading,
        trailing,
        starter,
    })
}

/// What [`plain`] holds for a character that needs the full look.
const NEEDS_LOOK: u16 = u16::MAX;

/// Where a [`plain`] entry keeps the trailing non-starters (below: the script group).
const TRAILING_SHIFT: u32 = 10;

/// The bits of a [`plain`] entry that hold the script group ([`group`], below 0x200).
const GROUP_MASK: u16 = (1 << TRAILING_SHIFT) - 1;

/// For each code point of the BMP, [`NEEDS_LOOK`], or, for a letter no lint looks at
/// (visible, part of a word, a starter whose compatibility decomposition starts with a
/// starter, no bidi control, joiner, selector, default-ignorable, space, line separator,
/// C1 control, noncharacter, nothing XML 1.0 or 1.1 refuses or discourages), its script
/// [`group`] and, above [`TRAILING_SHIFT`], the number of non-starters its decomposition
/// ends with (`é`: 1; at most 3). Made once (128 KiB), from the sieve's table of the
/// same predicates ([`super::sieve::plain_letter`], expanded from its runs); the test
/// `plain_letters_are_those_of_the_predicates` holds it to them.
pub(super) fn plain() -> &'static [u16; 0x1_0000] {
    static PLAIN: LazyLock<Box<[u16; 0x1_0000]>> = LazyLock::new(|| {
        let mut table = Box::new([NEEDS_LOOK; 0x1_0000]);
        for (v, entry) in table.iter_mut().enumerate().skip(0xA0) {
            if let Some((g, trailing)) = super::sieve::plain_letter(v as u32) {
                *entry = ((trailing as u16) << TRAILING_SHIFT) | g as u16;
            }
        }
        table
    });
    &PLAIN
}

/// The [`plain`] entry of `v` by the walk's predicates, asked one by one: what the table
/// must hold (no plain letter's decomposition ends with more than 3 non-starters, which
/// the sieve's table leaves to the full look).
#[cfg(test)]
fn plain_by_predicates(v: u32) -> u16 {
    let Some(c) = char::from_u32(v).filter(|_| v >= 0xA0) else {
        return NEEDS_LOOK;
    };
    let (leading, trailing, starter) = non_starters(c);
    let looked_at = canonical_combining_class(c) != 0
        || leading > 0
        || !starter
        || trailing > 7
        || c.is_whitespace()
        || is_bidi(v)
        || matches!(v, 0x85 | 0x2028 | 0x2029 | 0x200C | 0x200D)
        || is_selector(v)
        || always_invisible(v)
        || !is_wordy(v)
        || is_noncharacter(CodePoint::new(v))
        || xml(v, false).is_some()
        || xml(v, true).is_some();
    let g = group(v);
    match !looked_at && g <= GROUP_MASK as u32 {
        true => ((trailing as u16) << TRAILING_SHIFT) | g as u16,
        false => NEEDS_LOOK,
    }
}

/// The regional indicators (flags) and the pictographs of U+1F300 to U+1FAFF (most emoji):
/// each is a starter, and so is every character of its compatibility decomposition (the
/// test `pictographs_are_starters` asks [`non_starters`] of each; U+1F213, a squared katakana
/// DE, just below them, ends with U+3099), so the walk need not ask.
const PICTOGRAPHS: [std::ops::Range<u32>; 2] = [0x1_F1E6..0x1_F200, 0x1_F300..0x1_FB00];

fn is_pictograph(v: u32) -> bool {
    PICTOGRAPHS.iter().any(|r| r.contains(&v))
}

/// The non-starters (canonical combining class other than 0) that `c`'s compatibility
/// decomposition (NFKD) begins and ends with, and whether it holds a starter at all (if
/// not, both counts are its length). UAX #15 §13 counts these.
pub(super) fn non_starters(c: char) -> (usize, usize, bool) {
    let (mut leading, mut trailing, mut starter) = (0, 0, false);
    decompose_compatible(c, |d| {
        if canonical_combining_class(d) == 0 {
            starter = true;
            trailing = 0;
        } else {
            trailing += 1;
            if !starter {
                leading += 1;
            }
        }
    });
    (leading, trailing, starter)
}

/// Whether `v` is a virama (canonical combining class 9): on a visible letter, it lets a
/// joiner after it be (`Prev::Virama`).
pub(super) fn is_virama(v: u32) -> bool {
    char::from_u32(v).is_some_and(|c| canonical_combining_class(c) == 9)
}

/// A well-formed four-byte sequence at `pos` (lead F0 to F4): its scalar value, from
/// U+10000 to U+10FFFF.
#[inline]
fn astral_at(bytes: &[u8], pos: usize) -> Option<u32> {
    let quad: [u8; 4] = bytes.get(pos..pos + 4)?.try_into().ok()?;
    if quad[1..].iter().any(|&b| b & 0xC0 != 0x80) {
        return None;
    }
    let v = (quad[0] as u32 & 0x07) << 18
        | (quad[1] as u32 & 0x3F) << 12
        | (quad[2] as u32 & 0x3F) << 6
        | (quad[3] as u32 & 0x3F);
    (0x1_0000..=0x10_FFFF).contains(&v).then_some(v)
}

/// A well-formed two- or three-byte sequence at `pos` (lead C2 to EF), not a surrogate: its
/// length and scalar value.
#[inline]
fn bmp_at(bytes: &[u8], pos: usize) -> Option<(usize, u32)> {
    let b0 = bytes[pos] as u32;
    let b1 = *bytes.get(pos + 1)? as u32;
    if b1 & 0xC0 != 0x80 {
        return None;
    }
    if b0 < 0xE0 {
        return Some((2, ((b0 & 0x1F) << 6) | (b1 & 0x3F)));
    }
    let b2 = *bytes.get(pos + 2)? as u32;
    if b2 & 0xC0 != 0x80 {
        return None;
    }
    let v = ((b0 & 0x0F) << 12) | ((b1 & 0x3F) << 6) | (b2 & 0x3F);
    (v >= 0x800 && !(0xD800..=0xDFFF).contains(&v)).then_some((3, v))
}

/// How many bytes `run` begins with that are printable ASCII (20 to 7E), sixteen at a time.
#[inline]
fn printable_len(run: &[u8]) -> usize {
    let printable = |c: u8| (0x20..0x7F).contains(&c);
    let mut n = 0;
    for chunk in run.chunks_exact(16) {
        if !chunk.iter().fold(true, |all, &c| all & printable(c)) {
            break;
        }
        n += 16;
    }
    n + run[n..]
        .iter()
        .position(|&c| !printable(c))
        .unwrap_or(run.len() - n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `of_scripts`' shortcut: no character of U+1F000..U+1FAFF is of a script that uses
    /// joiners, by its script or its extensions (a few are Hiragana or Han, `🈀`).
    #[test]
    fn no_pictograph_is_of_a_script_that_joins() {
        use unicode_script::UnicodeScript;
        let joining: Vec<Script> = CURSIVE
            .iter()
            .chain(VIRAMA_SCRIPTS.iter())
            .copied()
            .collect();
        for c in (0x1_F000..=0x1_FAFF).filter_map(char::from_u32) {
            assert!(!joining.contains(&c.script()), "{c:?}");
            let ext = c.script_extension();
            let common = ext.is_common() || ext.is_inherited();
            assert!(
                common || !joining.iter().any(|&s| ext.contains_script(s)),
                "{c:?}"
            );
        }
    }

    #[test]
    fn plain_letters_are_those_of_the_predicates() {
        let table = plain();
        for v in 0..0x1_0000u32 {
            assert_eq!(table[v as usize], plain_by_predicates(v), "U+{v:04X}");
        }
        // A letter, a letter with a mark after it, a mark, a symbol, a space.
        assert_eq!(table[0x436], 3);
        assert_eq!(table[0x1D6], 2 << TRAILING_SHIFT | LATIN as u16);
        assert_eq!(
            [table[0x301], table[0x2014], table[0xA0], table[0x200D]],
            [NEEDS_LOOK; 4]
        );
    }

    #[test]
    fn looked_at_only_in_its_pages() {
        // `Walk::targets` asks nothing else of a character outside these pages either: what
        // the targets refuse is all looked at (the surrogates by XML).
        let seen: Vec<u32> = (0..0x11_0100).filter(|&v| looked_at(v)).collect();
        for &v in &seen {
            assert!(may_be_looked_at(v), "U+{v:04X}");
        }
        // Each page named holds one (the surrogates and the end of the planes aside).
        assert!(seen.contains(&0x3164) && seen.contains(&0x1_D173) && seen.contains(&0x034F));
        assert!(!may_be_looked_at(0x4E00) && !may_be_looked_at(0x1_F600));
    }

    #[test]
    fn sequence_characters_are_starters() {
        let mut count = 0;
        for v in (0..0x11_0000).filter(|&v| in_emoji_sequence(v)) {
            let c = char::from_u32(v).expect("a scalar");
            assert_eq!(canonical_combining_class(c), 0, "U+{v:X}");
            assert_eq!(non_starters(c), (0, 0, true), "U+{v:X}");
            assert!(
                !c.is_whitespace() && !is_bidi(v) && !always_invisible(v),
                "U+{v:X}"
            );
            assert!(xml(v, false).is_none() && xml(v, true).is_none(), "U+{v:X}");
            count += 1;
        }
        // Two joiners, 4 + 16 + 240 selectors (Mongolian's free ones too), 128 tags, the
        // black flag.
        assert_eq!(count, 2 + 4 + 16 + 240 + 128 + 1);
    }

    #[test]
    fn pictographs_are_starters() {
        for v in PICTOGRAPHS.into_iter().flatten() {
            let Some(c) = char::from_u32(v) else {
                continue;
            };
            assert_eq!(canonical_combining_class(c), 0, "U+{v:X}");
            assert_eq!(non_starters(c), (0, 0, true), "U+{v:X}");
            // What `Walk::pictograph` need not ask.
            assert!(!c.is_whitespace() && !is_wordy(v), "U+{v:X}");
            assert!(!looked_at(v) || v == 0x1_F3F4, "U+{v:X}");
        }
        // What the walk would be told wrong: a squared katakana DE ends with a non-starter.
        assert!(!is_pictograph(0x1_F213));
        assert_eq!(non_starters('\u{1F213}'), (0, 1, true));
        assert!(is_pictograph(0x1_F600) && is_pictograph(0x1_F1E6) && !is_pictograph(0x1_F200));
    }

    /// What a character is beside a zero-width space: the kept answers are the properties'
    /// (asked twice, the second time from what was kept), and the properties give the
    /// scripts written without spaces, their marks (Thai's THANTHAKHAT, a Khmer sign), the
    /// marks the kana share by Script_Extensions, and nothing to digits, punctuation or
    /// letters of other scripts.
    #[test]
    fn what_stands_beside_a_zero_width_space() {
        for c in (0..0x1_0000).filter_map(char::from_u32) {
            assert_eq!(beside(c), beside_by_properties(c), "U+{:04X}", c as u32);
            assert_eq!(beside(c), beside_by_properties(c), "U+{:04X}", c as u32);
        }
        let cases = [
            ('ก', Beside::Unspaced(Unspaced::Thai)),
            ('\u{E4C}', Beside::Unspaced(Unspaced::Thai)),
            ('ລ', Beside::Unspaced(Unspaced::Lao)),
            ('\u{17C6}', Beside::Unspaced(Unspaced::Khmer)),
            ('မ', Beside::Unspaced(Unspaced::Myanmar)),
            ('ཀ', Beside::Unspaced(Unspaced::Tibetan)),
            ('中', Beside::Unspaced(Unspaced::Cjk)),
            ('\u{3005}', Beside::Unspaced(Unspaced::Cjk)),
            ('か', Beside::Unspaced(Unspaced::Cjk)),
            ('カ', Beside::Unspaced(Unspaced::Cjk)),
            ('ー', Beside::Unspaced(Unspaced::Cjk)),
            ('\u{3099}', Beside::Unspaced(Unspaced::Cjk)),
            ('ㄅ', Beside::Unspaced(Unspaced::Cjk)),
            ('\u{20000}', Beside::Unspaced(Unspaced::Cjk)),
            ('\u{301}', Beside::Mark),
            ('\u{FE0F}', Beside::Mark),
            ('๑', Beside::Unspaced(Unspaced::Thai)),
            ('1', Beside::Other),
            ('\u{FF11}', Beside::Other),
            ('\u{E2F}', Beside::Unspaced(Unspaced::Thai)),
            ('\u{E5A}', Beside::Other),
            ('\u{F0B}', Beside::Other),
            ('。', Beside::Other),
            ('\u{30FB}', Beside::Other),
            ('a', Beside::Other),
            ('я', Beside::Other),
            ('한', Beside::Other),
            ('\u{200B}', Beside::Other),
        ];
        for (c, want) in cases {
            assert_eq!(beside(c), want, "U+{:04X}", c as u32);
        }
    }
}
