//! `hexrune dump [FILE]`: the viewer's panes printed as text, for pipes, logs and diffs;
//! the format (row line, marker line, readings, `--ascii` stand-ins) is docs/dump.md's.
//! Every cell comes from [`crate::view::visit`] and every colour from the viewer's theme, so
//! the dump and the viewer cannot disagree; nothing from the input is printed as it is,
//! only hex digits and the safe glyphs of [`crate::view::glyph`] (or [`ascii_glyph`]).
//!
//! # One renderer
//!
//! The [`Printer`] is the reference: it takes the cells of [`view::visit`] (its
//! `CellSink`) and at each row's end writes the row line, the marker line with its
//! fallback readings ([`readings`]) and the cluster lane ([`Printer::end_row`]). It prints
//! every dialect and any row the fast path does not take. The one fast path ([`fast`])
//! prints whole rows of 8, 16 or 32 bytes of UTF-8 from tables the reference renders at
//! start-up; property tests hold the two equal byte for byte.
//!
//! A mapped input is printed a batch of rows at a time, on a thread per core (at most
//! [`MAX_PRINTERS`]) when it has more batches than threads (batches start on row
//! boundaries; one thread writes them all, in order). Any other
//! input is read in chunks into a buffer of the rows being printed and [`view::CONTEXT`]
//! bytes each side ([`dump_stream`]): it never grows with the input, and units that cross
//! a chunk edge decode as in the whole input.

pub use crate::view::theme::ColorChoice;
use std::fmt::Write as _;
use std::io::{self, IsTerminal, Read, Write};
use std::ops::Range;

use super::{report_error, Input, EXIT_ERROR, EXIT_OK};
use crate::decode::{Checkpoint, Dialect, ErrorKind};
use crate::source::{Access, Opening, Source, SourceError};
use crate::view::cluster::ClusterSpan;
use crate::view::fallback::{Escape, Fallback};
use crate::view::glyph::{GlyphClass, InlineGlyph, FILLER};
use crate::view::theme::{Paint, Theme, Tone};
use crate::view::{self, ByteCell, CellSink, Class, ErrorSpan, Options, Role, TextRun};

mod fast;
mod readings;
mod row_bits;

use readings::Readings;

/// The widths `--width` accepts, in bytes per row.
pub const WIDTHS: [usize; 3] = [8, 16, 32];

/// Rows printed per batch: one `write` of output, and the unit of the streaming buffer.
pub const BATCH_ROWS: usize = 2048;

/// Bytes read from a stream at a time.
pub const CHUNK: usize = 64 * 1024;

/// What `hexrune dump` was asked.
#[derive(Clone, Debug)]
pub struct DumpOptions {
    /// The input.
    pub input: Input,
    /// The first byte to print.
    pub offset: u64,
    /// How many bytes to print (`None`: to the end).
    pub length: Option<u64>,
    /// Whether to colour: decides `format.color` when run.
    pub color: ColorChoice,
    /// How the rows look (`width` one of [`WIDTHS`]).
    pub format: Format,
}

/// How the rows look, whatever the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// The dialect to decode in.
    pub dialect: Dialect,
    /// Bytes per row (at least 1).
    pub width: usize,
    /// Colour with ANSI SGR sequences.
    pub color: bool,
    /// Print only ASCII.
    pub ascii: bool,
    /// The encoding each error unit is also read in, at the end of its marker line.
    pub fallback: Option<Fallback>,
    /// Show each invalid byte as the code point this scheme writes for it.
    pub escape: Option<Escape>,
    /// Under a row where a grapheme cluster of several code points lies, a lane line that
    /// brackets it ([`crate::view::cluster`]).
    pub clusters: bool,
}

impl Format {
    /// Rows of `width` bytes in `dialect`, with or without colour and `--ascii`, and
    /// nothing more: no fallback readings, no escapes, no cluster lane.
    pub fn plain(dialect: Dialect, width: usize, color: bool, ascii: bool) -> Format {
        Format {
            dialect,
            width,
            color,
            ascii,
            fallback: None,
            escape: None,
            clusters: false,
        }
    }
}

/// Prints the rows of the input; 0, or 2 if it cannot be read or `--offset` lies past its end.
pub fn run(options: &DumpOptions, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<u8> {
    let name = options.input.display_name();
    let format = Format {
        width: options.format.width.max(1),
        color: options.color.enabled_here(io::stdout().is_terminal()),
        ..options.format
    };
    let opening = match &options.input {
        Input::Stdin => Source::stdin_streaming(),
        Input::Path(path) => Source::open_streaming(path),
    };
    let failure = match opening {
        Ok(Opening::Ready(source)) => dump_source(options, &format, &source, out),
        Ok(Opening::Stream(stream)) => match stream.into_file() {
            Ok(file) => {
                match dump_stream(file, options.offset, options.length, &format, CHUNK, out) {
                    Ok(stats) => past_end(options.offset, stats.len).map_or(Ok(()), Err),
                    Err(e) => Err(e),
                }
            }
            Err(e) => Err(Failure::Input(e)),
        },
        Err(e) => Err(Failure::Input(e)),
    };
    match failure {
        Ok(()) => Ok(EXIT_OK),
        Err(Failure::Output(e)) => Err(e),
        Err(Failure::Input(e)) => {
            out.flush()?;
            report_error(err, &name, &e)?;
            Ok(EXIT_ERROR)
        }
        Err(Failure::Usage(cause)) => {
            report_error(err, &name, &cause)?;
            Ok(EXIT_ERROR)
        }
    }
}

/// Why a dump stopped early.
#[derive(Debug)]
pub enum Failure {
    /// The input could not be read.
    Input(SourceError),
    /// `--offset` lies past the end of the input (the message says so).
    Usage(String),
    /// Writing failed (a closed pipe, a full disk).
    Output(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Output(e)
    }
}

/// `--offset` past the end is an error; offset 0 of an empty input is not.
fn past_end(offset: u64, len: u64) -> Option<Failure> {
    (offset > 0 && offset >= len).then(|| Failure::Usage(super::input::no_byte_at(offset, len)))
}

fn dump_source(
    options: &DumpOptions,
    format: &Format,
    source: &Source,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    if let Some(failure) = past_end(options.offset, source.len()) {
        return Err(failure);
    }
    source.advise(Access::Sequential);
    let end = match options.length {
        Some(length) => options.offset.saturating_add(length).min(source.len()),
        None => source.len(),
    };
    // Asked before each batch of rows is written: the rows of a file truncated meanwhile
    // stop where the damage was seen, before the zeros that stand for its lost bytes.
    let intact = || source.check_intact().map_err(Failure::Input);
    dump_bytes_checked(source.bytes(), options.offset..end, format, out, &intact)?;
    intact()
}

/// Prints the rows of `bytes[window]` (the first row starts at `window.start`), decoding
/// against the whole slice, a batch of rows at a time: on one thread per core (at most
/// [`MAX_PRINTERS`]) when there are two cores or more and more batches than threads.
pub fn dump_bytes(
    bytes: &[u8],
    window: Range<u64>,
    format: &Format,
    out: &mut dyn Write,
) -> io::Result<()> {
    dump_bytes_checked(bytes, window, format, out, &|| Ok(())).map_err(|e| match e {
        Failure::Output(e) => e,
        other => io::Error::other(format!("{other:?}")),
    })
}

/// [`dump_bytes`], asking `intact` before each batch of rows (at most [`BATCH_ROWS`]) is
/// written whether the bytes it was formatted from are still the input's; its error
/// stops the dump there.
fn dump_bytes_checked(
    bytes: &[u8],
    window: Range<u64>,
    format: &Format,
    out: &mut dyn Write,
    intact: &dyn Fn() -> Result<(), Failure>,
) -> Result<(), Failure> {
    let batch = (BATCH_ROWS * format.width) as u64;
    let end = window.end.min(bytes.len() as u64);
    let batches = batches(window.start..end, batch);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let printers = cores.min(MAX_PRINTERS);
    if printers > 1 && end.saturating_sub(window.start) > printers as u64 * batch {
        return dump_batches_in_parallel(bytes, batches, format, out, printers, intact);
    }
    let mut printer = Printer::new(format, true, Some(window.start), end);
    for range in batches {
        printer.print(bytes, 0, range);
        intact()?;
        out.write_all(printer.out.as_slice())?;
        printer.out.clear();
    }
    Ok(())
}

/// `window` cut into ranges of `batch` bytes (the last one shorter).
fn batches(window: Range<u64>, batch: u64) -> impl Iterator<Item = Range<u64>> {
    let (start, end) = (window.start, window.end.max(window.start));
    let count = (end - start).div_ceil(batch.max(1));
    (0..count).map(move |i| start + i * batch..end.min(start + (i + 1) * batch))
}

/// The most threads that format batches: past them, the one thread that writes every
/// batch in order is the bound.
const MAX_PRINTERS: usize = 8;

/// Formatted batches each helper thread may hold before this one writes them.
const AHEAD_BATCHES: usize = 3;

/// Prints the batches in order, formatted by `printers` threads: helper `h` (from 1) takes
/// the batches `h`, `h + printers`, ..., this thread takes the batches `0`, `printers`,
/// ... and writes them all in order. Batches start on row boundaries and rows do not
/// depend on each other, so each is printed as the single-threaded loop prints it.
/// Buffers go back to their helper once written, so memory stays constant. If writing
/// fails (a closed pipe), the channels are dropped, each helper finds its next send or
/// receive failing and ends, and the error is returned once they have.
fn dump_batches_in_parallel(
    bytes: &[u8],
    batches: impl Iterator<Item = Range<u64>>,
    format: &Format,
    out: &mut dyn Write,
    printers: usize,
    intact: &dyn Fn() -> Result<(), Failure>,
) -> Result<(), Failure> {
    use std::sync::mpsc::sync_channel;
    let printers = printers.max(2);
    let batches: Vec<Range<u64>> = batches.collect();
    let first = batches.first().map(|range| range.start);
    let last = batches.last().map_or(u64::MAX, |range| range.end);
    std::thread::scope(|scope| {
        // Per helper: where its formatted batches arrive, and where its buffers go back.
        let mut helpers = Vec::with_capacity(printers - 1);
        for h in 1..printers {
            let (done, formatted) = sync_channel::<Buf>(AHEAD_BATCHES);
            let (give_back, spare) = sync_channel::<Buf>(AHEAD_BATCHES);
            for _ in 0..AHEAD_BATCHES {
                give_back.send(Buf::new()).ok();
            }
            let theirs = batches.iter().skip(h).step_by(printers);
            scope.spawn(move || {
                let mut printer = Printer::new(format, true, first, last);
                for range in theirs {
                    printer.print(bytes, 0, range.clone());
                    // A buffer comes back once written: at most `AHEAD_BATCHES` wait.
                    let Ok(buffer) = spare.recv() else {
                        break;
                    };
                    if done
                        .send(std::mem::replace(&mut printer.out, buffer))
                        .is_err()
                    {
                        break;
                    }
                }
            });
            helpers.push((formatted, give_back));
        }
        let mut printer = Printer::new(format, true, first, last);
        for (i, range) in batches.iter().enumerate() {
            let Some((formatted, give_back)) = (i % printers).checked_sub(1).map(|h| &helpers[h])
            else {
                printer.print(bytes, 0, range.clone());
                intact()?;
                out.write_all(printer.out.as_slice())?;
                printer.out.clear();
                continue;
            };
            let Ok(mut buffer) = formatted.recv() else {
                break; // the helper panicked; the scope reports it
            };
            intact()?;
            out.write_all(buffer.as_slice())?;
            buffer.clear();
            give_back.send(buffer).ok();
        }
        Ok(())
    })
}

/// The start of the character that `keep` falls inside (`keep` if it falls between two),
/// in `buf`, whose first byte is the input's byte `base`, read by `dialect`'s own decoder:
/// the unit at `keep` where it began before it, or a unit cut short by the end of what is
/// read so far (its bytes after `keep` are not read yet). What a stream lets go of under
/// `--clusters` ends there, at a whole character.
fn character_start(dialect: Dialect, buf: &[u8], base: u64, keep: u64) -> u64 {
    let at = (keep - base) as usize;
    let unit = match at {
        0 => return keep,
        at if at < buf.len() => dialect.unit_containing(buf, at),
        at => dialect.unit_containing(buf, at - 1),
    };
    let cut = unit.end() == buf.len() && unit.error_kind() == Some(ErrorKind::TruncatedEof);
    match unit.start < at && (unit.end() > at || cut) {
        true => base + unit.start as u64,
        false => keep,
    }
}

/// What [`dump_stream`] saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamStats {
    /// Bytes read: the input's length if it was read to its end.
    pub len: u64,
    /// The most input bytes the buffer ever held.
    pub peak: usize,
}

/// Prints the rows of `offset .. offset + length` of a stream, reading `chunk` bytes at a
/// time and holding at most `2 * view::CONTEXT + chunk + BATCH_ROWS * width` bytes of it: rows are
/// printed once [`view::CONTEXT`] bytes after them have arrived (or the stream has ended),
/// and the buffer keeps only `view::CONTEXT` bytes before the next row.
pub fn dump_stream(
    mut reader: impl Read,
    offset: u64,
    length: Option<u64>,
    format: &Format,
    chunk: usize,
    out: &mut dyn Write,
) -> Result<StreamStats, Failure> {
    let chunk = chunk.max(1);
    let width = format.width as u64;
    let batch = BATCH_ROWS as u64 * width;
    let end = length.map_or(u64::MAX, |l| offset.saturating_add(l));
    // Clusters are found with LOOK bytes of context on each side of the rows.
    let context = match format.clusters {
        true => view::cluster::LOOK.max(view::CONTEXT as u64),
        false => view::CONTEXT as u64,
    };
    let mut printer = Printer::new(format, true, Some(offset), end);
    let mut buf: Vec<u8> = Vec::with_capacity(2 * view::CONTEXT + chunk + batch as usize);
    let mut base = 0u64; // the offset of buf[0]
    let mut next = offset; // the offset of the next row to print
    let mut eof = false;
    let mut peak = 0;
    while next < end {
        // Keep CONTEXT bytes before the next row, and nothing before that; in UTF-16 and
        // UTF-32, from a multiple of 4, since code units count from the buffer's start.
        let align = match format.dialect.code_unit_width() {
            Some(w) if w > 1 => !3,
            _ => !0,
        };
        let mut keep = (next.saturating_sub(context) & align).clamp(base, base + buf.len() as u64);
        if let Some(table) = format.dialect.multi_byte() {
            // Not self-synchronizing: keep the bytes from a checkpoint at or before the
            // next row, moved forward as the stream is read.
            let c = printer.checkpoint.get_or_insert_with(Checkpoint::default);
            let rel = Checkpoint {
                at: (c.at as u64 - base) as usize,
                state: c.state,
            };
            // (Short of the last 4 bytes read, where a unit may still be cut.)
            let target = ((keep - base) as usize).min(buf.len().saturating_sub(4));
            let moved = crate::scan::multibyte::start_of(table, &buf, rel, target.max(rel.at));
            if moved.at as u64 + base <= next {
                *c = Checkpoint {
                    at: moved.at + base as usize,
                    state: moved.state,
                };
            }
            keep = keep.min(c.at as u64);
            if let Some(behind) = printer.behind {
                keep = keep.min(behind.at as u64);
            }
        }
        if format.clusters {
            // Let go of whole characters only, and count the regional indicators that end
            // where the bytes held will start: a flag deep in a long run is paired as in
            // the file.
            if format.dialect.code_unit_width().is_none() && format.dialect.multi_byte().is_none() {
                keep = character_start(format.dialect, &buf, base, keep);
            }
            let (n, whole) =
                view::cluster::indicators_at_end(&buf[..(keep - base) as usize], format.dialect);
            printer.indicators = if whole { printer.indicators + n } else { n };
        }
        buf.drain(..(keep - base) as usize);
        base = keep;
        let want = (next + batch + context - base) as usize;
        if !eof && buf.len() < want {
            let old = buf.len();
            buf.resize(old + chunk.min(want - old), 0);
            let n = loop {
                match reader.read(&mut buf[old..]) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(Failure::Input(SourceError::from(e))),
                }
            };
            buf.truncate(old + n);
            peak = peak.max(buf.len());
            eof = n == 0;
            if !eof && buf.len() < want {
                continue;
            }
        }
        let have = base + buf.len() as u64;
        if next >= have {
            break; // the end, at or before the offset
        }
        let ready = if eof { have } else { have - context };
        let mut to = ready.min(end);
        if to < have.min(end) {
            // Not the last row: print whole rows only.
            to = next + (to.saturating_sub(next)) / width * width;
        }
        if to > next {
            printer.ends_input = eof;
            printer.print_to(&buf, base, (next - base)..(to - base), out)?;
            next = to;
        } else if eof {
            break;
        }
    }
    // Count what is left, for the offset-past-the-end check; the bytes are not kept.
    let mut len = base + buf.len() as u64;
    if next < end && !eof {
        let mut scratch = [0u8; 4096];
        loop {
            match reader.read(&mut scratch) {
                Ok(0) => break,
                Ok(n) => len += n as u64,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(Failure::Input(SourceError::from(e))),
            }
        }
    }
    Ok(StreamStats { len, peak })
}

/// The stand-in `--ascii` prints for a glyph: printable ASCII and the space as themselves;
/// `*` another character (or a wide one cut by the row edge), `_` a space or separator,
/// `^` a control, `%` a format character or variation selector, `'` a combining mark, `#`
/// an unassigned, private-use, surrogate or non-Unicode value, `?` an error, `\` a byte
/// escaped by `--escape`.
pub fn ascii_glyph(glyph: &InlineGlyph) -> u8 {
    match (glyph.as_bytes(), glyph.class) {
        ([b @ 0x20..=0x7E], GlyphClass::Plain) => *b,
        (_, GlyphClass::Plain | GlyphClass::Cut | GlyphClass::Replacement) => b'*',
        (_, GlyphClass::Space) => b'_',
        (_, GlyphClass::Control) => b'^',
        (_, GlyphClass::Format | GlyphClass::Selector) => b'%',
        (_, GlyphClass::Mark) => b'\'',
        (
            _,
            GlyphClass::Unassigned
            | GlyphClass::PrivateUse
            | GlyphClass::Surrogate
            | GlyphClass::NonUnicode,
        ) => b'#',
        (_, GlyphClass::Error) => b'?',
        (_, GlyphClass::Escaped) => b'\\',
    }
}

/// A style, as an index into [`Switches`]: equal paints share one, so they never
/// cause a switch.
type StyleId = u8;

const PLAIN: StyleId = 0;
const DIM: StyleId = 1;
/// The number of error kinds, each with a style in the class lane and one as a marker.
const KINDS: usize = ErrorKind::ALL.len();
/// Room for every kind in the marker line's tables: a kind's index masked to it needs no
/// bounds check.
const KIND_SLOTS: usize = KINDS.next_power_of_two();
/// At most this many styles: plain, dim, the roles, two a kind, the glyph classes.
const STYLES: usize = 2 + 7 + 2 * KINDS + GLYPH_CLASSES.len();

const ROLES: [Role; 7] = [
    Role::Null,
    Role::AsciiPrintable,
    Role::AsciiWhitespace,
    Role::AsciiControl,
    Role::Lead,
    Role::Continuation,
    Role::Error,
];

const GLYPH_CLASSES: [GlyphClass; 14] = [
    GlyphClass::Plain,
    GlyphClass::Space,
    GlyphClass::Control,
    GlyphClass::Format,
    GlyphClass::Selector,
    GlyphClass::Mark,
    GlyphClass::Unassigned,
    GlyphClass::PrivateUse,
    GlyphClass::Surrogate,
    GlyphClass::NonUnicode,
    GlyphClass::Error,
    GlyphClass::Replacement,
    GlyphClass::Cut,
    GlyphClass::Escaped,
];

/// The viewer's styles as SGR sequences, the symbols of the class lane and the words of
/// the marker line, computed once.
struct Palette {
    /// The style of each [`Role`] by `role as usize`, of the class lane's error mark and
    /// of the markers by [`ErrorKind::index`], of each [`GlyphClass`] by `class as usize`.
    role_style: [StyleId; 7],
    error_style: [StyleId; KINDS],
    marker_style: [StyleId; KIND_SLOTS],
    glyph_style: [StyleId; GLYPH_CLASSES.len()],
    /// The class lane's symbols: a lead of `n` bytes, continuation `k`, an error byte.
    lead: [Vec<u8>; 10],
    continuation: [Vec<u8>; 7],
    error: Vec<u8>,
    filler: &'static str,
    /// Each kind as the viewer's legend names it (`T truncated`), by [`ErrorKind::index`].
    names: [([u8; 32], usize); KIND_SLOTS],
    /// The marks of a span of `n` bytes (1 to 4), at `4 * (2 * kind + head) + n - 1`: the
    /// kind's letter and `^` (or `~~` if it is continued from the row above), tildes to
    /// `3 * n - 1` columns, then spaces.
    marks: [[u8; 32]; 8 * KIND_SLOTS],
    switches: Switches,
}

impl Palette {
    fn new(ascii: bool) -> Palette {
        let theme = Theme::COLOR;
        let mut paints = vec![Paint::PLAIN, theme.dim()];
        let mut id = |paint: Paint| match paints.iter().position(|p| *p == paint) {
            Some(i) => i as StyleId,
            None => {
                paints.push(paint);
                (paints.len() - 1) as StyleId
            }
        };
        let role_style = ROLES.map(|role| id(theme.role(role)));
        let error_style = ErrorKind::ALL.map(|kind| id(theme.error(Some(kind))));
        let marker_style: [StyleId; KIND_SLOTS] = std::array::from_fn(|i| {
            ErrorKind::ALL
                .get(i)
                .map_or(PLAIN, |&kind| id(theme.marker(kind)))
        });
        let mut glyph_style = [PLAIN; GLYPH_CLASSES.len()];
        for class in GLYPH_CLASSES {
            glyph_style[class as usize] = id(theme.glyph(class));
        }
        let symbol = |class: Class, stand_in: char| {
            let c = if ascii { stand_in } else { class.symbol() };
            c.to_string().into_bytes()
        };
        let sgrs: Vec<[u8; 32]> = paints
            .into_iter()
            .map(|paint| {
                let (mut switch, len) = fixed::<32>(&sgr(paint));
                switch[31] = len as u8;
                switch
            })
            .collect();
        let switches = Switches::new(&sgrs);
        Palette {
            switches,
            role_style,
            error_style,
            marker_style,
            glyph_style,
            lead: std::array::from_fn(|n| Class::Lead(n as u8).symbol().to_string().into_bytes()),
            continuation: std::array::from_fn(|k| {
                symbol(Class::Continuation { k: k as u8, n: 6 }, '-')
            }),
            error: symbol(Class::Error(ErrorKind::InvalidByte), 'x'),
            filler: if ascii { "." } else { FILLER },
            names: std::array::from_fn(|i| {
                let name =
                    |&kind: &ErrorKind| format!("{} {}", view::error_letter(kind), kind.name());
                fixed(
                    ErrorKind::ALL
                        .get(i)
                        .map(name)
                        .unwrap_or_default()
                        .as_bytes(),
                )
            }),
            marks: std::array::from_fn(|i| {
                let (kind, head, len) = (i / 8, i / 4 % 2 == 1, i % 4 + 1);
                let mut marks = [b' '; 32];
                marks[..3 * len - 1].fill(b'~');
                if let (true, Some(&kind)) = (head, ErrorKind::ALL.get(kind)) {
                    marks[0] = view::error_letter(kind) as u8;
                    marks[1] = b'^';
                }
                marks
            }),
        }
    }

    fn class_symbol(&self, class: Class) -> &[u8] {
        match class {
            Class::Lead(n) => &self.lead[(n as usize).min(9)],
            Class::Continuation { k, .. } => &self.continuation[(k as usize).min(6)],
            Class::Error(_) => &self.error,
        }
    }

    /// The style of a byte's cell in the class lane.
    fn class_style(&self, role: Role, class: Class) -> StyleId {
        match class {
            Class::Error(kind) => self.error_style[kind.index()],
            Class::Lead(_) => self.role_style[role as usize],
            Class::Continuation { .. } => self.role_style[Role::Continuation as usize],
        }
    }
}

/// `bytes` at the start of `N` zeros, and its length (cut to `N`).
fn fixed<const N: usize>(bytes: &[u8]) -> ([u8; N], usize) {
    let mut out = [0; N];
    let len = bytes.len().min(N);
    out[..len].copy_from_slice(&bytes[..len]);
    (out, len)
}

/// What switching a pane to a style writes, at `2 * style + changed`: each SGR sequence
/// (or nothing) in 32 bytes with its length in the last, so that one copy of 32 bytes
/// writes it and no branch chooses (on random data a switch is a coin toss). (A table by
/// the pair of styles, with no compare, takes fewer instructions but 64 times the room,
/// and measured slower.)
#[derive(Clone)]
struct Switches([[u8; 32]; SWITCHES]);

const SWITCHES: usize = 128;
const _: () = assert!(2 * STYLES <= SWITCHES);

impl Switches {
    /// The switches to the styles whose SGR sequences (in 32 bytes, the length in the
    /// last) are `sgrs`, by style.
    fn new(sgrs: &[[u8; 32]]) -> Switches {
        let mut switches = Switches([[0; 32]; SWITCHES]);
        for (style, sgr) in sgrs.iter().enumerate() {
            switches.0[2 * style + 1] = *sgr;
        }
        switches
    }

    /// The SGR sequence of `style` (it resets first, so styles never mix).
    fn sgr(&self, style: StyleId) -> &[u8] {
        let switch = &self.0[(2 * style as usize + 1) & (SWITCHES - 1)];
        &switch[..switch[31] as usize]
    }

    /// Switches a pane in `*style` to `to` at `*at` of `buf`, without a branch.
    #[inline(always)]
    fn switch<const R: usize>(
        &self,
        buf: &mut [u8; R],
        at: &mut usize,
        style: &mut StyleId,
        to: StyleId,
    ) {
        let changed = (*style != to) as usize;
        let switch = &self.0[(2 * to as usize + changed) & (SWITCHES - 1)];
        put(buf, *at, switch);
        *at += switch[31] as usize;
        *style = to;
    }
}

/// The copies into a fixed-size buffer are at offsets masked to its size less [`SLACK`]
/// (a power of two), and take at most `SLACK` bytes: none needs a bounds check.
const SLACK: usize = 128;

/// A row of 32 bytes with colour and its marker line take less than 16 KiB (per byte at
/// most a switch and a run of 32 in each pane and marker line, and a reading of 16; a
/// multi-byte fallback's reading of a unit of at most 4 bytes is far shorter than that).
const ROW_ROOM: usize = (1 << 14) + SLACK;

/// Copies `chunk` into `buf` at `at`, masked to the buffer's size less [`SLACK`] (which
/// it always is within).
#[inline(always)]
fn put<const N: usize, const R: usize>(buf: &mut [u8; R], at: usize, chunk: &[u8; N]) {
    const { assert!(N <= SLACK && (R - SLACK).is_power_of_two()) };
    debug_assert!(at < R - SLACK, "{at} in {R}");
    buf[at & (R - SLACK - 1)..][..N].copy_from_slice(chunk);
}

/// `N` bytes of `bytes` from `at` as an array (zeros if they are not there, which they
/// always are).
#[inline(always)]
fn chunk<const N: usize>(bytes: &[u8], at: usize) -> [u8; N] {
    bytes
        .get(at..at + N)
        .and_then(|b| b.try_into().ok())
        .unwrap_or([0; N])
}

/// An error unit's part on a row, as [`ErrorSpan`] says it, in 4 bytes.
#[derive(Clone, Copy)]
struct Span {
    col: u8,
    len: u8,
    kind: u8,
    head: bool,
}

/// The line under a row of `width` bytes with these error spans, at `o` of `line` (after
/// an offset of `digits` digits), for both printers: markers under the hex pane, the
/// kinds on the row after them, each named once, then the readings of the units that
/// start on the row (`unit` gives a span's unit as it is read). Returns the end of the
/// line. A row holds at most 32 spans, each of at most 32 bytes.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn marker_line<'a, const COLOR: bool>(
    palette: &Palette,
    switches: &Switches,
    readings: Option<&Readings>,
    line: &mut [u8; ROW_ROOM],
    mut o: usize,
    digits: usize,
    width: usize,
    spans: &[Span],
    unit: impl Fn(&Span) -> &'a [u8],
) -> usize {
    // A gap of spaces: at most the hex pane, `3 * width + 1` columns.
    let gap = |line: &mut [u8; ROW_ROOM], o: usize| {
        put(line, o, &[b' '; 64]);
        if width > 16 {
            put(line, o + 64, &[b' '; 64]);
        }
    };
    // An offset takes at most 16 digits.
    put(line, o, &[b' '; 32]);
    o += digits + 2;
    let hex = o;
    if !COLOR {
        gap(line, o);
    }
    let (mut column, mut style) = (0, PLAIN);
    let (mut named, mut order, mut kinds) = (0u32, [0u8; 32], 0);
    for span in spans {
        let (col, len) = (3 * span.col as usize, span.len as usize);
        let kind = span.kind as usize & (KIND_SLOTS - 1);
        let marks = &palette.marks[4 * (2 * kind + span.head as usize) + (len - 1).min(3)];
        let at = match COLOR {
            true => {
                gap(line, o);
                o += col - column;
                switches.switch(line, &mut o, &mut style, palette.marker_style[kind]);
                o
            }
            // Marks and spaces after them at the span's own column: no span waits on the
            // one before it.
            false => hex + col,
        };
        put(line, at, marks);
        if len > 4 {
            long_marks(line, at, len);
        }
        if COLOR {
            o += 3 * len - 1;
            column = col + 3 * len - 1;
        }
        let bit = 1 << kind;
        order[kinds & 31] = kind as u8;
        kinds += (named & bit == 0) as usize;
        named |= bit;
    }
    if COLOR {
        switches.switch(line, &mut o, &mut style, PLAIN);
        gap(line, o);
        o += 3 * width + 1 - column;
    } else {
        o = hex + 3 * width + 1;
    }
    for (k, &kind) in order[..kinds.min(32)].iter().enumerate() {
        let kind = kind as usize & (KIND_SLOTS - 1);
        if k > 0 {
            if COLOR {
                switches.switch(line, &mut o, &mut style, PLAIN);
            }
            put(line, o, b", ");
            o += 2;
        }
        if COLOR {
            switches.switch(line, &mut o, &mut style, palette.marker_style[kind]);
        }
        let (name, len) = &palette.names[kind];
        put(line, o, name);
        o += len;
    }
    if COLOR {
        switches.switch(line, &mut o, &mut style, PLAIN);
    }
    if let Some(readings) = readings {
        let mut first = true;
        for span in spans.iter().filter(|span| span.head) {
            if std::mem::take(&mut first) {
                let (label, len) = readings.label();
                put(line, o, label);
                o += len;
            }
            put(line, o, b" ");
            o += 1;
            let unit = unit(span);
            match readings.by_byte() {
                Some((by_byte, lens)) => {
                    for &b in unit {
                        put(line, o, &by_byte[b as usize]);
                        o += lens[b as usize] as usize;
                    }
                }
                None => {
                    let text = readings.shown(unit);
                    for at in (0..text.len()).step_by(16) {
                        put(line, o + at, &fixed::<16>(&text.as_bytes()[at..]).0);
                    }
                    o += text.len();
                }
            }
        }
    }
    put(line, o, b"\n");
    o + 1
}

/// The tildes of a span of more than 4 bytes past the marks of 4, and spaces after them.
#[cold]
fn long_marks(line: &mut [u8; ROW_ROOM], at: usize, len: usize) {
    for more in (11..3 * len - 1).step_by(32) {
        put(line, at + more, &[b'~'; 32]);
    }
    put(line, at + 3 * len - 1, &[b' '; 32]);
}

/// An SGR sequence that sets exactly `paint` (it resets first, so paints never mix): the
/// sixteen colours as 30-37 and 90-97 (40-47, 100-107 behind), the others `38;5;n`.
fn sgr(paint: Paint) -> Vec<u8> {
    let mut codes = String::from("\x1b[0");
    let codes_of = [
        (paint.bold, 1),
        (paint.italic, 3),
        (paint.underlined, 4),
        (paint.reversed, 7),
    ];
    for (on, code) in codes_of {
        if on {
            let _ = write!(codes, ";{code}");
        }
    }
    for (tone, base) in [(paint.fg, 30), (paint.bg, 40)] {
        let _ = match tone.map(|t| (t, t.index())) {
            Some((Tone::Indexed(i), _)) => write!(codes, ";{};5;{i}", base + 8),
            Some((_, i)) if i < 8 => write!(codes, ";{}", base + i),
            Some((_, i)) => write!(codes, ";{}", base + 60 + i - 8),
            None => Ok(()),
        };
    }
    codes.push('m');
    codes.into_bytes()
}

/// `00 `..`ff `: two ASCII digits and a space per byte, padded to 4 bytes.
const HEX_SPACE: [[u8; 4]; 256] = {
    let digits = b"0123456789abcdef";
    let mut table = [[0u8; 4]; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = [digits[i >> 4], digits[i & 15], b' ', 0];
        i += 1;
    }
    table
};

/// The output of a printer: bytes and a length, with zeroed room after them that is kept
/// from row to row (the fast path writes a row into a fixed-size stretch of it at once).
struct Buf {
    bytes: Vec<u8>,
    len: usize,
}

impl Buf {
    fn new() -> Buf {
        Buf {
            bytes: Vec::new(),
            len: 0,
        }
    }

    /// Makes room for `n` more bytes, at least doubling the room when it grows.
    #[inline]
    fn reserve(&mut self, n: usize) {
        if self.bytes.len() < self.len + n {
            let room = (self.len + n).max(2 * self.bytes.len());
            self.bytes.resize(room, 0);
        }
    }

    fn extend(&mut self, bytes: &[u8]) {
        self.reserve(bytes.len());
        self.bytes[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }

    fn repeat(&mut self, byte: u8, n: usize) {
        self.reserve(n);
        self.bytes[self.len..self.len + n].fill(byte);
        self.len += n;
    }

    /// The next [`ROW_ROOM`] bytes after the output, for a row or a marker line.
    #[inline(always)]
    fn room(&mut self) -> &mut [u8; ROW_ROOM] {
        self.reserve(ROW_ROOM);
        let Some(Ok(room)) =
            (self.bytes.get_mut(self.len..self.len + ROW_ROOM)).map(TryFrom::try_from)
        else {
            unreachable!("reserved")
        };
        room
    }

    fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    fn clear(&mut self) {
        self.len = 0;
    }
}

/// One pane's text for the current row, with the style last switched to.
struct Pane {
    bytes: Vec<u8>,
    style: StyleId,
}

impl Pane {
    /// Switches to `style`, if colour is on and the pane is not in it already.
    fn switch(&mut self, palette: &Palette, color: bool, style: StyleId) {
        if color && self.style != style {
            self.bytes.extend_from_slice(palette.switches.sgr(style));
            self.style = style;
        }
    }
}

/// The reference printer: turns the cells of [`view::visit`] into lines of text in `out`.
struct Printer {
    format: Format,
    palette: Palette,
    /// Output not yet written.
    out: Buf,
    /// Added to the offsets of the cells (the offset of the slice's first byte).
    base: u64,
    /// The current row: its offset in the slice (`None` before the first) and bytes so far.
    row: Option<usize>,
    cells: usize,
    hex: Pane,
    class: Pane,
    text: Pane,
    /// The error spans of the current row.
    errors: Vec<Span>,
    /// In a multi-byte legacy encoding, a checkpoint at or before the next window (offsets
    /// of the input): see [`advance`].
    checkpoint: Option<Checkpoint>,
    /// Under `--clusters` in a multi-byte legacy encoding, a checkpoint at or before
    /// [`view::cluster::LOOK`] bytes before the window, where its clusters are decoded from.
    behind: Option<Checkpoint>,
    /// The offset where the window the reader asked for starts (`-o N`): a unit cut there
    /// shows its glyph on its first byte in view (see [`view::Options::glyph_at`]).
    first: Option<u64>,
    /// The offset where that window ends (`u64::MAX` while unknown): under `--clusters`, a
    /// cluster that goes on past the context is cut there and at `first`, to show its `…`
    /// on the first and last rows printed, as the viewer does.
    last: u64,
    /// Whether the bytes printed from end where the input does: false while a stream is
    /// still being read ([`dump_stream`] says so before each print; true for an input
    /// read whole).
    ends_input: bool,
    /// The fallback readings at the end of the marker lines, if asked.
    readings: Option<Readings>,
    /// The tables of the UTF-8 fast path ([`fast`]), or `None` to print every row through
    /// [`view::visit`] (other dialects, `--escape`, `--clusters`, and the reference in the
    /// tests).
    fast: Option<Box<fast::Tables>>,
    /// Under `--clusters`, the clusters of several code points that meet the window being
    /// printed, in `bytes` offsets.
    clusters: Vec<ClusterSpan>,
    /// Under `--clusters` from a stream, the regional indicators, one after another, that
    /// end right before the bytes held ([`view::cluster::window_of_part`]).
    indicators: u64,
    /// The hex digits of every row's offset: those of the last byte of the window, at
    /// least 8, so that the panes stay in their columns where a window crosses 4 GiB (a
    /// stream of unknown length: 8, and more from where an offset needs them).
    digits: usize,
}

impl Printer {
    /// A printer of the window the reader asked for, from `first` to `last` (`u64::MAX`
    /// while unknown); with `fast`, one that takes the fast path where it can: whole rows
    /// of UTF-8, not under `--escape` (whose text is a glyph a byte of an error unit), with
    /// a fallback that reads a byte at a time if any.
    fn new(format: &Format, fast: bool, first: Option<u64>, last: u64) -> Printer {
        let pane = || Pane {
            bytes: Vec::new(),
            style: PLAIN,
        };
        let readings = format.fallback.map(|f| Readings::new(&f, format.ascii));
        let fast = fast
            && format.dialect == Dialect::Utf8
            && format.escape.is_none()
            && !format.clusters
            && readings.as_ref().is_none_or(|r| r.by_byte().is_some());
        Printer {
            format: *format,
            palette: Palette::new(format.ascii),
            out: Buf::new(),
            base: 0,
            row: None,
            cells: 0,
            hex: pane(),
            class: pane(),
            text: pane(),
            errors: Vec::new(),
            checkpoint: None,
            behind: None,
            first,
            last,
            ends_input: true,
            readings,
            fast: fast.then(|| Box::new(fast::Tables::new(format))),
            clusters: Vec::new(),
            indicators: 0,
            digits: match last {
                u64::MAX => 8,
                last => offset_digits(last.saturating_sub(1)),
            },
        }
    }

    /// Prints the rows of `bytes[window]`, where `bytes[0]` is the input's byte `base`.
    fn print(&mut self, bytes: &[u8], base: u64, window: Range<u64>) {
        self.base = base;
        match self.fast.take() {
            Some(mut tables) => {
                if self.format.color {
                    fast::print::<true>(self, &mut tables, bytes, window);
                } else {
                    fast::print::<false>(self, &mut tables, bytes, window);
                }
                self.fast = Some(tables);
            }
            None => self.reference(bytes, window),
        }
    }

    /// [`Printer::print`], then writes the output to `out`.
    fn print_to(
        &mut self,
        bytes: &[u8],
        base: u64,
        window: Range<u64>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        self.print(bytes, base, window);
        out.write_all(self.out.as_slice())?;
        self.out.clear();
        Ok(())
    }

    /// Prints the rows of `bytes[window]` from the cells of [`view::visit`].
    fn reference(&mut self, bytes: &[u8], window: Range<u64>) {
        let (dialect, width, base) = (self.format.dialect, self.format.width, self.base);
        let checkpoint = advance(&mut self.checkpoint, dialect, bytes, base, window.start);
        let options = Options {
            cursor: None,
            glyph_at: self.first.and_then(|first| first.checked_sub(self.base)),
            escape: self.format.escape,
            checkpoint,
        };
        if self.format.clusters {
            let from = window.start.saturating_sub(view::cluster::LOOK);
            let behind = advance(&mut self.behind, dialect, bytes, base, from);
            let first = self.first.map_or(0, |first| first.saturating_sub(base));
            let shown = first..self.last.saturating_sub(base);
            let part = (base == 0, self.ends_input, self.indicators);
            self.clusters =
                view::cluster::window_of_part(bytes, dialect, window.clone(), behind, part)
                    .into_iter()
                    .filter(ClusterSpan::joins)
                    .map(|span| span.cut_to(shown.clone()))
                    .collect();
        }
        view::visit(
            bytes,
            dialect,
            window,
            width,
            options,
            &mut Rows(self, bytes),
        );
        self.end_row(bytes);
    }

    /// Writes the current row, if there is one: its row line, and under it, if it holds an
    /// error, its marker line.
    fn end_row(&mut self, bytes: &[u8]) {
        let Some(row) = self.row.take() else {
            return;
        };
        let (color, palette, out) = (self.format.color, &self.palette, &mut self.out);
        let missing = self.format.width - self.cells;
        let offset = self.base + row as u64;
        if color {
            out.extend(palette.switches.sgr(DIM));
        }
        let digits = write_offset(out, offset, self.digits);
        if color {
            out.extend(palette.switches.sgr(PLAIN));
        }
        out.extend(b"  ");
        let panes = [
            (&mut self.hex, 3 * missing + 1),
            (&mut self.class, missing + 2),
            (&mut self.text, 0),
        ];
        for (pane, gap) in panes {
            pane.switch(palette, color, PLAIN);
            out.extend(&pane.bytes);
            pane.bytes.clear();
            out.repeat(b' ', gap);
        }
        out.extend(b"\n");
        // The cluster lane sits right under its row's bytes, as in the viewer; the marker
        // line (if any) under it.
        if self.format.clusters {
            self.cluster_line(digits, row);
        }
        if !self.errors.is_empty() {
            self.marker_line(digits, bytes, row);
        }
        self.cells = 0;
    }

    /// Under a row (at `row` of `bytes`) where a cluster of several code points lies, its
    /// bracket under its bytes in the hex pane and again in the text pane, as the viewer's
    /// lane draws it (`╰──╯`; `--ascii`: `\--/`).
    fn cluster_line(&mut self, digits: usize, row: usize) {
        let (start, end) = (row as u64, (row + self.cells) as u64);
        // The clusters are in order and do not overlap: those that meet the row follow the
        // last one that ends before it.
        let from = self.clusters.partition_point(|c| c.end() <= start);
        let meet = self.clusters[from..].iter().take_while(|c| c.start < end);
        let marks: Vec<_> = meet.filter_map(|c| c.lane_mark(start, end)).collect();
        if marks.is_empty() {
            return;
        }
        let ascii = self.format.ascii;
        let mut line: Vec<char> = Vec::new();
        // Columns a byte and more of a bracket, in the hex pane and in the text pane (after
        // the class lane).
        let text_at = 4 * self.format.width + 3;
        for (at, per, more) in [(0, 3, 2), (text_at, 1, 1)] {
            for m in &marks {
                let (first, last) = (m.first as usize, m.last as usize);
                line.resize(line.len().max(at + per * first), ' ');
                line.extend(m.bracket(per * (last - first) + more).chars().map(|c| {
                    match (ascii, c) {
                        (true, '\u{2570}') => '\\',
                        (true, '\u{256F}') => '/',
                        (true, '\u{2500}') => '-',
                        (true, '\u{2026}') => '.',
                        _ => c,
                    }
                }));
            }
        }
        let (color, out) = (self.format.color, &mut self.out);
        out.repeat(b' ', digits + 2);
        if color {
            out.extend(self.palette.switches.sgr(DIM));
        }
        out.extend(line.into_iter().collect::<String>().as_bytes());
        if color {
            out.extend(self.palette.switches.sgr(PLAIN));
        }
        out.extend(b"\n");
    }

    /// The line under a row with errors (the row at `row` of `bytes`): see [`marker_line`].
    fn marker_line(&mut self, digits: usize, bytes: &[u8], row: usize) {
        // The units that start on the row; one that reaches the row's end, which may go on
        // into the next row, read for its whole length.
        let (width, dialect) = (
            self.format.width.min(bytes.len() - row),
            self.format.dialect,
        );
        let unit = |span: &Span| {
            let (col, len) = (span.col as usize, span.len as usize);
            let end = match col + len >= width {
                true => dialect.decode_at(bytes, row + col).end(),
                false => row + col + len,
            };
            &bytes[row + col..end.min(bytes.len())]
        };
        let line = self.out.room();
        let (palette, readings) = (&self.palette, self.readings.as_ref());
        let (switches, spans, width) = (&palette.switches, &self.errors[..], self.format.width);
        self.out.len += match self.format.color {
            true => marker_line::<true>(
                palette, switches, readings, line, 0, digits, width, spans, unit,
            ),
            false => marker_line::<false>(
                palette, switches, readings, line, 0, digits, width, spans, unit,
            ),
        };
        self.errors.clear();
    }

    /// An error unit's part on the current row.
    fn error(&mut self, span: ErrorSpan) {
        self.errors.push(Span {
            col: span.col as u8,
            len: span.len as u8,
            kind: span.kind.index() as u8,
            head: span.head,
        });
    }

    /// A byte: its hex digits and its class lane symbol.
    fn byte(&mut self, cell: ByteCell) {
        let (color, palette) = (self.format.color, &self.palette);
        self.hex
            .switch(palette, color, palette.role_style[cell.role as usize]);
        self.hex
            .bytes
            .extend_from_slice(&HEX_SPACE[cell.byte as usize][..3]);
        let style = palette.class_style(cell.role, cell.class);
        self.class.switch(palette, color, style);
        self.class
            .bytes
            .extend_from_slice(palette.class_symbol(cell.class));
        self.cells += 1;
    }

    /// A unit's text on the current row: its glyph, then fillers.
    fn text(&mut self, run: TextRun) {
        let (color, palette) = (self.format.color, &self.palette);
        let text = &mut self.text;
        let mut fillers = run.fillers();
        if let Some(glyph) = &run.glyph {
            text.switch(palette, color, palette.glyph_style[glyph.class as usize]);
            if self.format.ascii {
                text.bytes.push(ascii_glyph(glyph));
                fillers += run.covered();
            } else {
                text.bytes.extend_from_slice(&glyph.padded()[..glyph.len()]);
            }
        }
        if fillers > 0 {
            text.switch(palette, color, DIM);
            for _ in 0..fillers {
                text.bytes.extend_from_slice(palette.filler.as_bytes());
            }
        }
    }
}

/// In a multi-byte legacy encoding, the checkpoint (in `bytes`, which start at the input's
/// byte `base`) of the unit containing `bytes[at]`, found from `kept` (one kept from the
/// window before, in input offsets, so that a dump decodes each byte about once even where
/// no sync byte is near), which it then replaces. `None` in other dialects.
fn advance(
    kept: &mut Option<Checkpoint>,
    dialect: Dialect,
    bytes: &[u8],
    base: u64,
    at: u64,
) -> Option<Checkpoint> {
    dialect.multi_byte()?;
    let hint = kept.and_then(|c| {
        Some(Checkpoint {
            at: (c.at as u64).checked_sub(base)? as usize,
            ..c
        })
    });
    let found = dialect.resync(bytes, at as usize, hint);
    let state = found.state;
    *kept = Some(Checkpoint {
        at: found.unit.start + base as usize,
        state,
    });
    Some(Checkpoint {
        at: found.unit.start,
        state,
    })
}

/// The printer as [`view::visit`]'s sink, with the slice it prints (for the readings).
struct Rows<'a, 'b>(&'a mut Printer, &'b [u8]);

impl CellSink for Rows<'_, '_> {
    fn row(&mut self, offset: u64, _len: usize) {
        self.0.end_row(self.1);
        self.0.row = Some(offset as usize);
    }
    fn error(&mut self, span: ErrorSpan) {
        self.0.error(span);
    }
    fn byte(&mut self, cell: ByteCell) {
        self.0.byte(cell);
    }
    fn text(&mut self, run: TextRun) {
        self.0.text(run);
    }
}

/// Writes `offset` in lowercase hex, at least 8 digits; returns how many.
fn write_offset(out: &mut Buf, offset: u64, at_least: usize) -> usize {
    let digits = offset_digits(offset).max(at_least);
    for i in (0..digits).rev() {
        out.extend(&[b"0123456789abcdef"[(offset >> (4 * i)) as usize & 15]]);
    }
    digits
}
/// The hex digits `offset` takes, at least 8.
fn offset_digits(offset: u64) -> usize {
    (16 - offset.leading_zeros() as usize / 4).max(8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whole(bytes: &[u8], f: &Format) -> Vec<u8> {
        let mut out = Vec::new();
        dump_bytes(bytes, 0..bytes.len() as u64, f, &mut out).unwrap();
        out
    }

    fn streamed(
        bytes: &[u8],
        offset: u64,
        length: Option<u64>,
        f: &Format,
        chunk: usize,
    ) -> Vec<u8> {
        let mut out = Vec::new();
        dump_stream(bytes, offset, length, f, chunk, &mut out).unwrap();
        out
    }

    #[test]
    fn offsets_have_at_least_eight_digits() {
        for (offset, text) in [
            (0, "00000000"),
            (0x1f3a, "00001f3a"),
            (0xffff_ffff, "ffffffff"),
            (0x1_0000_0000, "100000000"),
            (u64::MAX, "ffffffffffffffff"),
        ] {
            let mut buf = Buf::new();
            assert_eq!(write_offset(&mut buf, offset, 8), text.len());
            assert_eq!(buf.as_slice(), text.as_bytes());
        }
        let mut buf = Buf::new();
        assert_eq!(write_offset(&mut buf, 0xfff0, 9), 9);
        assert_eq!(buf.as_slice(), b"00000fff0");
    }

    /// `--clusters` in Shift_JIS over a run of several batches with no sync byte: each
    /// batch's clusters are decoded from a checkpoint the printer keeps near it, and the
    /// output, batched, on several threads or streamed, is the whole input's printed at once.
    #[test]
    fn clusters_in_a_long_run_without_sync_bytes() {
        let dialect = crate::encoding::resolve("shift_jis").unwrap();
        // 日 ｶﾞ 本 A: the half-width voiced mark joins ｶ; no byte is a sync byte.
        let piece = b"\x93\xfa\xb6\xde\x96\x7bA";
        let bytes: Vec<u8> = piece
            .iter()
            .cycle()
            .take(5 * BATCH_ROWS * 16 + 5)
            .copied()
            .collect();
        let f = Format {
            clusters: true,
            ..Format::plain(dialect, 16, false, false)
        };
        let mut printer = Printer::new(&f, true, Some(0), u64::MAX);
        printer.print(&bytes, 0, 0..bytes.len() as u64);
        let at_once = String::from_utf8(printer.out.as_slice().to_vec()).unwrap();
        let lane = "╰───╯                ╰───╯";
        assert!(at_once.starts_with(&format!(
            "00000000  93 fa b6 de 96 7b 41 93 fa b6 de 96 7b 41 93 fa  2₂112₂12₂112₂12₂  日ｶﾞ本A日ｶﾞ本A日\n\
             {:16}{lane}{:37}╰╯     ╰╯\n\
             00000010  b6 de 96 7b 41 93 fa b6 de 96 7b 41 93 fa b6 de  112₂12₂112₂12₂11  ｶﾞ本A日ｶﾞ本A日ｶﾞ\n",
            "", ""
        )));
        let len = bytes.len() as u64;
        let batch = (BATCH_ROWS * 16) as u64;
        let mut batched = Printer::new(&f, true, Some(0), u64::MAX);
        let mut out = Vec::new();
        for range in batches(0..len, batch) {
            batched.print_to(&bytes, 0, range, &mut out).unwrap();
        }
        assert!(out == at_once.as_bytes());
        // The checkpoint kept is the unit's at LOOK bytes before the last batch.
        let last = (len - 1) / batch * batch - view::cluster::LOOK;
        let behind = batched.behind.unwrap().at as u64;
        assert!((last - 1..=last).contains(&behind), "{behind} {last}");
        assert!(whole(&bytes, &f) == at_once.as_bytes());
        assert_eq!(streamed(&bytes, 0, None, &f, 4096), at_once.as_bytes());
    }

    /// Batches formatted on several threads come out in order, as one thread prints them:
    /// an input of 7.5 batches (so each thread of 2, 3 or 5 may print the last, or none),
    /// every width.
    #[test]
    fn threads_print_what_one_prints() {
        let text = "a €😀\té中\u{1b}\u{301}ok\n".as_bytes();
        let mut bytes: Vec<u8> = text
            .iter()
            .cycle()
            .take(BATCH_ROWS * 32 * 7)
            .copied()
            .collect();
        bytes.extend((0..=255u8).cycle().take(BATCH_ROWS * 16));
        for (width, color) in [(8, false), (16, true), (32, false)] {
            let f = Format::plain(Dialect::Utf8, width, color, false);
            let window = 3..bytes.len() as u64 - 1;
            let mut one = Vec::new();
            // From 3: inside the euro sign.
            let mut printer = Printer::new(&f, true, Some(window.start), u64::MAX);
            for range in batches(window.clone(), (BATCH_ROWS * width) as u64) {
                printer.print_to(&bytes, 0, range, &mut one).unwrap();
            }
            for printers in [2, 3, 5, 8] {
                let mut threaded = Vec::new();
                dump_batches_in_parallel(
                    &bytes,
                    batches(window.clone(), (BATCH_ROWS * width) as u64),
                    &f,
                    &mut threaded,
                    printers,
                    &|| Ok(()),
                )
                .unwrap();
                assert!(threaded == one, "width {width}, {printers} threads");
            }
        }
    }

    /// A writer that fails after `left` writes, like a pipe closed by `head`.
    struct Closing {
        left: usize,
    }

    impl Write for Closing {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.left == 0 {
                return Err(io::ErrorKind::BrokenPipe.into());
            }
            self.left -= 1;
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// A write failing part way ends every thread and returns the error.
    #[test]
    fn threads_stop_on_a_closed_output() {
        let bytes: Vec<u8> = (0..=255u8).cycle().take(BATCH_ROWS * 16 * 9).collect();
        let f = Format::plain(Dialect::Utf8, 16, true, false);
        for (left, printers) in [(0, 2), (1, 2), (2, 3), (5, 2), (8, 4), (3, 8)] {
            let window = 0..bytes.len() as u64;
            let result = dump_batches_in_parallel(
                &bytes,
                batches(window, (BATCH_ROWS * 16) as u64),
                &f,
                &mut Closing { left },
                printers,
                &|| Ok(()),
            );
            assert_eq!(
                result.map_err(|e| match e {
                    Failure::Output(e) => e.kind(),
                    other => panic!("{other:?}"),
                }),
                Err(io::ErrorKind::BrokenPipe),
                "{left} writes, {printers} threads"
            );
        }
    }

    /// Damage found before a batch is written stops the dump there, on one thread or
    /// more: the batches before it are written whole, and none after.
    #[test]
    fn damage_stops_before_the_batch_it_is_found_at() {
        use std::cell::Cell;
        let bytes: Vec<u8> = (0..=255u8).cycle().take(BATCH_ROWS * 16 * 9).collect();
        let f = Format::plain(Dialect::Utf8, 16, true, false);
        let window = 0..bytes.len() as u64;
        let mut whole = Vec::new();
        dump_bytes(&bytes, window.clone(), &f, &mut whole).unwrap();
        // Every batch prints alike (256 rows of the cycle, 8 times over), but its offsets.
        let batch = whole.len() / 9;
        for (intact_batches, printers) in [(0, 1), (1, 1), (4, 1), (0, 2), (3, 2), (5, 4)] {
            let asked = Cell::new(0);
            let intact = || {
                asked.set(asked.get() + 1);
                match asked.get() > intact_batches {
                    true => Err(Failure::Input(SourceError::Changed)),
                    false => Ok(()),
                }
            };
            let mut out = Vec::new();
            let batches = batches(window.clone(), (BATCH_ROWS * 16) as u64);
            let result = match printers {
                1 => dump_bytes_checked(&bytes, window.clone(), &f, &mut out, &intact),
                n => dump_batches_in_parallel(&bytes, batches, &f, &mut out, n, &intact),
            };
            assert!(
                matches!(result, Err(Failure::Input(SourceError::Changed))),
                "{intact_batches} batches, {printers} threads"
            );
            assert_eq!(out.len(), intact_batches * batch);
            assert!(out == whole[..out.len()], "{intact_batches}, {printers}");
        }
    }

    #[test]
    fn offset_past_the_end() {
        assert!(past_end(0, 0).is_none());
        assert!(past_end(3, 4).is_none());
        assert!(
            matches!(past_end(4, 4), Some(Failure::Usage(m)) if m == "offset 4 is the end of the input (4 bytes, the last at offset 3)")
        );
        let f = Format::plain(Dialect::Utf8, 16, false, false);
        let stats = dump_stream(&b"abc"[..], 10, None, &f, 2, &mut io::sink()).unwrap();
        assert_eq!(stats.len, 3);
    }
}
