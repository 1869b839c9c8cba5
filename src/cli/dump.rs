//! `hexrune dump [FILE]`: the viewer's panes printed as text, for pipes, logs and diffs.
//!
//! Each row is `offset  hex  class  text`, laid out as the viewer lays them out (the hex
//! pane three columns a byte, the class lane and the text pane one), and a row that holds
//! an error is followed by a marker line naming every error on it. Every cell comes from
//! [`crate::view::visit`], the function the viewer's rows come from, and every colour from
//! the viewer's theme, so the dump and the viewer cannot disagree.
//!
//! # The fast path
//!
//! `view::visit` and the printer's `CellSink` methods are the reference: they print every
//! dialect, and any unit the fast path does not take. In UTF-8, rows are printed by the
//! `fast` module from tables that the reference printer renders at start-up (and, for the
//! text of a character, on its first use) from the view's own cells: the class lane, text
//! and colours of every ASCII byte and of every shape of unit, looked up by a table of
//! shapes filled from the decoding step. The fast path replays those renderings and writes
//! the hex digits; what its tables cannot index (the last bytes of the input, and with
//! colour a unit cut by the edge of a row that is not printed whole) goes through the
//! reference cell methods. A property test holds its output equal to the reference's, byte
//! for byte, for random inputs (edge bytes, valid text of every length, errors at row
//! edges), all widths, `--ascii`, colour, windows and stream chunk edges. The marker
//! lines of a fast printer come from `Printer::fast_marker_line` (without colour, each
//! span's marks are copied to their place as the span comes, see `Marks`, and the line
//! is the indent, one copy of them and the names; with colour, a span is a gap, a style
//! switch by index and a copy of its marks); the same tests hold them equal to the
//! reference `Printer::marker_line`. Whole rows of 8, 16 or 32 bytes of UTF-8 skip the
//! panes and are printed straight into the output (see the `fast` module).
//!
//! A mapped input of more than two batches is formatted on two threads, each taking the
//! next batch as soon as it is free; batches start on row boundaries, rows do not depend
//! on each other, and the batches are written in order by the main thread.
//!
//! # Streaming
//!
//! A regular file is memory-mapped and printed a batch of rows at a time. Any other input
//! (a pipe, a terminal, a FIFO) is read in chunks into a buffer that holds the rows being
//! printed plus [`view::CONTEXT`] bytes on each side, the most decoding ever reads around a
//! window; the buffer never grows with the input ([`dump_stream`] reports its peak), and
//! units that cross a chunk edge decode exactly as in the whole input.
//!
//! # Text only
//!
//! Nothing from the input is printed as it is, except as hex digits and the safe glyphs of
//! [`crate::view::glyph`]. `--ascii` replaces every non-ASCII symbol by an ASCII stand-in
//! ([`ascii_glyph`]; the class lane's continuation positions become `-`, its error mark `x`;
//! fillers `.`), for terminals without UTF-8 and for logs.
//!
//! # The marker line
//!
//! Under the hex pane, the kind's letter and `^` (`T^`) mark the first byte of an error unit
//! and `~` the rest of it (an error unit continued from the row above starts with `~`); the
//! letters are the viewer's ([`view::error_letter`]). After the markers, where the class
//! lane starts, each kind on the row is named once, as the viewer's legend names it
//! (`T truncated`), in the order of its first marker: a row of random bytes with a dozen
//! errors gets a short line.

pub use crate::view::theme::ColorChoice;
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::ops::Range;
use std::os::fd::AsFd;
use std::os::unix::fs::FileTypeExt;

use super::{report_error, Input, EXIT_ERROR, EXIT_OK};
use crate::decode::{Checkpoint, Dialect, ErrorKind, Unit, UnitKind};
use crate::source::{Access, Source, SourceError};
use crate::view::fallback::{Escape, Fallback};
use crate::view::glyph::{GlyphClass, InlineGlyph, FILLER};
use crate::view::theme::{Paint, Theme, Tone};
use crate::view::{self, ByteCell, CellSink, Class, ErrorSpan, Options, Role, TextRun, WholeUnit};

mod fast;
mod readings;
mod row_bits;

use readings::Readings;

/// The widths `--width` accepts, in bytes per row.
pub const WIDTHS: [usize; 3] = [8, 16, 32];

/// Rows printed per batch: one `write` of output, and the unit of the streaming buffer.
const BATCH_ROWS: usize = 2048;

/// Bytes read from a stream at a time.
pub const CHUNK: usize = 64 * 1024;

/// What `hexrune dump` was asked.
#[derive(Clone, Debug)]
pub struct DumpOptions {
    /// The input.
    pub input: Input,
    /// The dialect to decode in.
    pub dialect: Dialect,
    /// The first byte to print.
    pub offset: u64,
    /// How many bytes to print (`None`: to the end).
    pub length: Option<u64>,
    /// Bytes per row: one of [`WIDTHS`].
    pub width: usize,
    /// Whether to colour.
    pub color: ColorChoice,
    /// Print only ASCII.
    pub ascii: bool,
    /// The encoding each error unit is also read in (`--fallback`), if any.
    pub fallback: Option<Fallback>,
    /// Show each invalid byte as the code point this scheme writes (`--escape`), if any.
    pub escape: Option<Escape>,
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
}

/// Prints the rows of the input; 0, or 2 if it cannot be read or `--offset` lies past its end.
pub fn run(options: &DumpOptions, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<u8> {
    let name = options.input.display_name();
    let no_color = std::env::var_os("NO_COLOR");
    let format = Format {
        dialect: options.dialect,
        width: options.width.max(1),
        color: options
            .color
            .enabled(io::stdout().is_terminal(), no_color.as_deref()),
        ascii: options.ascii,
        fallback: options.fallback,
        escape: options.escape,
    };
    let failure = match open(&options.input) {
        Ok(Opened::Mapped(source)) => dump_source(options, &format, &source, out),
        Ok(Opened::Stream(reader)) => {
            match dump_stream(reader, options.offset, options.length, &format, CHUNK, out) {
                Ok(stats) => past_end(options.offset, stats.len).map_or(Ok(()), Err),
                Err(e) => Err(e),
            }
        }
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
    (offset > 0 && offset >= len).then(|| {
        Failure::Usage(format!(
            "offset {offset} is past the end of the input ({len} bytes)"
        ))
    })
}

enum Opened {
    Mapped(Source),
    Stream(Box<dyn Read>),
}

/// A regular file (named, or as standard input) is mapped; pipes and FIFOs are streamed.
fn open(input: &Input) -> Result<Opened, SourceError> {
    match input {
        Input::Stdin => {
            let fd = io::stdin().as_fd().try_clone_to_owned()?;
            if File::from(fd).metadata()?.file_type().is_file() {
                return Source::stdin().map(Opened::Mapped);
            }
            Ok(Opened::Stream(Box::new(io::stdin().lock())))
        }
        Input::Path(path) => {
            if std::fs::metadata(path)?.file_type().is_fifo() {
                return Ok(Opened::Stream(Box::new(File::open(path)?)));
            }
            Source::open(path).map(Opened::Mapped)
        }
    }
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
    dump_bytes(source.bytes(), options.offset..end, format, out)?;
    source.check_intact().map_err(Failure::Input)
}

/// Prints the rows of `bytes[window]` (the first row starts at `window.start`), decoding
/// against the whole slice, a batch of rows at a time: on two threads when there are two
/// cores and more than two batches.
pub fn dump_bytes(
    bytes: &[u8],
    window: Range<u64>,
    format: &Format,
    out: &mut dyn Write,
) -> io::Result<()> {
    let batch = (BATCH_ROWS * format.width) as u64;
    let end = window.end.min(bytes.len() as u64);
    let batches = batches(window.start..end, batch);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores > 1 && end.saturating_sub(window.start) > 2 * batch {
        return dump_batches_on_two_threads(bytes, batches, format, out);
    }
    let mut printer = Printer::new_fast(format);
    printer.first = Some(window.start);
    for range in batches {
        printer.print(bytes, 0, range);
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

/// Buffers that circulate between each formatting thread and the writer: the helper's
/// `HELPER_BUFS` and this thread's `OWN_BUFS`, so memory stays constant.
const HELPER_BUFS: usize = 3;
const OWN_BUFS: usize = 2;

/// Prints the batches in order, formatted by two threads that each take the next batch
/// not yet taken as soon as they are free: this one and a helper. Batches start on row
/// boundaries and rows do not depend on each other, so each is printed as the
/// single-threaded loop prints it. This thread also writes, in order, every formatted
/// batch whose turn has come; it formats only while the next one to write is not ready.
///
/// A thread takes a buffer before it takes a batch, so a taken batch is always formatted
/// and the one to write next always arrives: at most `HELPER_BUFS + OWN_BUFS` batches are
/// taken and not yet written, and they are the ones after the last written.
///
/// If writing fails (a closed pipe), the channels are dropped, the helper finds its next
/// send or receive failing and ends, and the error is returned once it has.
fn dump_batches_on_two_threads(
    bytes: &[u8],
    batches: impl Iterator<Item = Range<u64>>,
    format: &Format,
    out: &mut dyn Write,
) -> io::Result<()> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc::{channel, sync_channel};
    let batches: Vec<Range<u64>> = batches.collect();
    let count = batches.len();
    let first = batches.first().map(|range| range.start);
    let next = AtomicUsize::new(0);
    let take = || {
        let i = next.fetch_add(1, Ordering::Relaxed);
        batches.get(i).map(|range| (i, range.clone()))
    };
    std::thread::scope(|scope| {
        let (give_back, spare) = sync_channel::<Buf>(HELPER_BUFS);
        let (helper_done, done) = channel::<(usize, Buf)>();
        for _ in 0..HELPER_BUFS {
            give_back.send(Buf::new()).ok();
        }
        let take = &take;
        scope.spawn(move || {
            let mut printer = Printer::new_fast(format);
            printer.first = first;
            for buffer in spare {
                let Some((i, range)) = take() else {
                    break;
                };
                printer.out = buffer;
                printer.print(bytes, 0, range);
                let buffer = std::mem::replace(&mut printer.out, Buf::new());
                if helper_done.send((i, buffer)).is_err() {
                    break;
                }
            }
        });
        let mut printer = Printer::new_fast(format);
        printer.first = first;
        let mut own: Vec<Buf> = (0..OWN_BUFS).map(|_| Buf::new()).collect();
        let mut slots: Vec<Option<(Buf, bool)>> =
            (0..HELPER_BUFS + OWN_BUFS).map(|_| None).collect();
        let slot = |i: usize| i % (HELPER_BUFS + OWN_BUFS);
        let mut to_write = 0;
        while to_write < count {
            while let Ok((i, buffer)) = done.try_recv() {
                slots[slot(i)] = Some((buffer, true));
            }
            if let Some((mut buffer, theirs)) = slots[slot(to_write)].take() {
                out.write_all(buffer.as_slice())?;
                buffer.clear();
                if theirs {
                    // The helper has ended if this fails: it took the last batch.
                    give_back.send(buffer).ok();
                } else {
                    own.push(buffer);
                }
                to_write += 1;
                continue;
            }
            if let Some(buffer) = own.pop() {
                let Some((i, range)) = take() else {
                    own.push(buffer);
                    // Every batch is taken; the next to write is the helper's.
                    match done.recv() {
                        Ok((i, buffer)) => slots[slot(i)] = Some((buffer, true)),
                        Err(_) => break, // the helper panicked; the scope reports it
                    }
                    continue;
                };
                printer.out = buffer;
                printer.print(bytes, 0, range);
                slots[slot(i)] = Some((std::mem::replace(&mut printer.out, Buf::new()), false));
                continue;
            }
            match done.recv() {
                Ok((i, buffer)) => slots[slot(i)] = Some((buffer, true)),
                Err(_) => break, // the helper panicked; the scope reports it
            }
        }
        Ok(())
    })
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
/// time and holding at most `2 * view::CONTEXT + chunk + 2048 * width` bytes of it: rows are
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
    let context = view::CONTEXT as u64;
    let mut printer = Printer::new_fast(format);
    printer.first = Some(offset);
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
            printer.print(&buf, base, (next - base)..(to - base));
            out.write_all(printer.out.as_slice())?;
            printer.out.clear();
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

/// A style, as an index into [`Palette::sgr_fixed`].
type StyleId = u8;

const PLAIN: StyleId = 0;
const DIM: StyleId = 1;
const ROLE: StyleId = 2; // + 7 roles
/// The number of error kinds, each with a style in the class lane and one as a marker.
const KINDS: usize = ErrorKind::ALL.len();
const CLASS_ERROR: StyleId = ROLE + 7; // + KINDS kinds
const MARKER: StyleId = CLASS_ERROR + KINDS as StyleId; // + KINDS kinds
const GLYPH: StyleId = MARKER + KINDS as StyleId; // + one a glyph class
const STYLES: usize = GLYPH as usize + GLYPH_CLASSES.len();

fn role_id(role: Role) -> StyleId {
    ROLE + match role {
        Role::Null => 0,
        Role::AsciiPrintable => 1,
        Role::AsciiWhitespace => 2,
        Role::AsciiControl => 3,
        Role::Lead => 4,
        Role::Continuation => 5,
        Role::Error => 6,
    }
}

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
    GlyphClass::Cut,
    GlyphClass::Replacement,
    GlyphClass::Escaped,
];

fn glyph_id(class: GlyphClass) -> StyleId {
    GLYPH + GLYPH_CLASSES.iter().position(|c| *c == class).unwrap_or(0) as StyleId
}

/// The viewer's styles as SGR sequences, and the symbols of the class lane, computed once.
struct Palette {
    /// The first id of an equal style, so equal styles never cause a switch.
    alias: [StyleId; STYLES],
    /// The (aliased) style of each [`Role`], by `role as usize`, and of the class lane's
    /// error mark, by [`ErrorKind::index`].
    role_style: [StyleId; 7],
    error_style: [StyleId; KINDS],
    /// The (aliased) style of each [`GlyphClass`], by `class as usize`.
    glyph_style: [StyleId; GLYPH_CLASSES.len()],
    /// `n` fillers, by `n` (up to 6, the longest unit).
    filler_runs: [([u8; 16], usize); 7],
    /// The (aliased) style of each byte as a one-byte scalar.
    byte_style: [StyleId; 256],
    /// The class lane after the lead of an `n`-byte scalar, by `n`: its continuation marks.
    continuation_runs: [([u8; 24], usize); 7],
    /// The class lane of an `n`-byte error unit, by `n`.
    error_runs: [([u8; 24], usize); 7],
    lead: [Symbol; 10],
    continuation: [Symbol; 7],
    error: Symbol,
    /// The SGR sequence of every style, in fixed-size chunks for [`Buf::put`].
    sgr_fixed: Vec<([u8; 24], usize)>,
    /// What switching to a style writes, at `2 * style + changed`: nothing if the style
    /// does not change, its SGR sequence if it does. An index, not a choice between
    /// lengths: the compiler would turn the choice into a branch, and on random data that
    /// branch is a coin toss.
    sgr_switch: Vec<([u8; 24], usize)>,
    /// Error kinds as `letter name` ([`view::error_letter`], as in the viewer's legend) in
    /// fixed-size chunks, and their letters, by [`ErrorKind::index`].
    names: [([u8; 32], usize); KINDS],
    /// The names again as listed without colour: first, or after another with `, `, at
    /// `[kind][listed after another]`.
    listed_names: [[([u8; 32], usize); 2]; 32],
    letters: [u8; KINDS],
    /// The marks of an error span, at `2 * kind + head`: its kind's letter and `^` (or `~~`
    /// if it is continued from the row above), then tildes; a span of `n` bytes keeps the
    /// first `3 * n - 1`.
    marks: [[u8; 32]; 2 * KINDS],
    /// The (aliased) style of the markers of each kind, by [`ErrorKind::index`].
    marker_style: [StyleId; KINDS],
    /// [`Palette::marks`] for a span of `n` bytes, then spaces, at
    /// `(2 * kind + head) * MARKED_LENS + n`, for `n` up to `MARKED_LENS - 1`.
    plain_marks: Vec<[u8; 32]>,
    filler: ([u8; 4], usize),
}

#[derive(Clone, Copy)]
struct Symbol {
    bytes: [u8; 4],
    len: u8,
}

impl Symbol {
    fn of(c: char) -> Symbol {
        let mut bytes = [0; 4];
        let len = c.encode_utf8(&mut bytes).len() as u8;
        Symbol { bytes, len }
    }
}

impl Palette {
    fn new(ascii: bool) -> Palette {
        let theme = Theme::COLOR;
        let mut styles = vec![Paint::PLAIN; STYLES];
        styles[DIM as usize] = theme.dim();
        for role in ROLES {
            styles[role_id(role) as usize] = theme.role(role);
        }
        for kind in ErrorKind::ALL {
            styles[(CLASS_ERROR as usize) + kind.index()] = theme.error(Some(kind));
            styles[(MARKER as usize) + kind.index()] = theme.marker(kind);
        }
        for class in GLYPH_CLASSES {
            styles[glyph_id(class) as usize] = theme.glyph(class);
        }
        let lane = |class: Class, stand_in: char| {
            Symbol::of(if ascii { stand_in } else { class.symbol() })
        };
        let alias = std::array::from_fn(|i| {
            styles.iter().position(|s| *s == styles[i]).unwrap_or(i) as StyleId
        });
        let sgr: Vec<Vec<u8>> = styles.into_iter().map(sgr).collect();
        let continuation: [Symbol; 7] =
            std::array::from_fn(|k| lane(Class::Continuation { k: k as u8, n: 6 }, '-'));
        let error = lane(Class::Error(ErrorKind::InvalidByte), 'x');
        let run = |symbols: &mut dyn Iterator<Item = Symbol>| {
            let text: Vec<u8> = symbols
                .flat_map(|s| s.bytes[..s.len as usize].to_vec())
                .collect();
            fixed(&text)
        };
        let filler = if ascii { "." } else { FILLER };
        Palette {
            glyph_style: std::array::from_fn(|i| {
                let class = GLYPH_CLASSES.into_iter().find(|c| *c as usize == i);
                alias[glyph_id(class.unwrap_or(GlyphClass::Plain)) as usize]
            }),
            filler_runs: std::array::from_fn(|n| fixed(filler.repeat(n).as_bytes())),
            byte_style: std::array::from_fn(|b| {
                let unit = Unit::scalar(0, 1, b as u32);
                alias[role_id(view::role(&unit, 0, b as u8)) as usize]
            }),
            continuation_runs: std::array::from_fn(|n| run(&mut (2..=n).map(|k| continuation[k]))),
            error_runs: std::array::from_fn(|n| run(&mut (0..n).map(|_| error))),
            role_style: std::array::from_fn(|i| {
                let role = ROLES
                    .into_iter()
                    .find(|r| *r as usize == i)
                    .unwrap_or(Role::Error);
                alias[role_id(role) as usize]
            }),
            error_style: std::array::from_fn(|i| alias[CLASS_ERROR as usize + i]),
            alias,
            sgr_fixed: sgr.iter().map(|s| fixed(s)).collect(),
            sgr_switch: sgr.iter().flat_map(|s| [([0; 24], 0), fixed(s)]).collect(),
            lead: std::array::from_fn(|n| Symbol::of(Class::Lead(n as u8).symbol())),
            continuation,
            error,
            filler: fixed(if ascii { b"." } else { FILLER.as_bytes() }),
            names: std::array::from_fn(|i| {
                let kind = ErrorKind::ALL[i];
                fixed(format!("{} {}", view::error_letter(kind), kind.name()).as_bytes())
            }),
            listed_names: std::array::from_fn(|i| {
                let kind = ErrorKind::ALL[i.min(KINDS - 1)];
                let name = format!("{} {}", view::error_letter(kind), kind.name());
                [
                    fixed(name.as_bytes()),
                    fixed(format!(", {name}").as_bytes()),
                ]
            }),
            letters: std::array::from_fn(|i| view::error_letter(ErrorKind::ALL[i]) as u8),
            marks: std::array::from_fn(|i| {
                let mut marks = [b'~'; 32];
                if i % 2 == 1 {
                    marks[0] = view::error_letter(ErrorKind::ALL[i / 2]) as u8;
                    marks[1] = b'^';
                }
                marks
            }),
            marker_style: std::array::from_fn(|i| alias[MARKER as usize + i]),
            plain_marks: (0..2 * KINDS * MARKED_LENS)
                .map(|i| {
                    let (marks, n) = (i / MARKED_LENS, i % MARKED_LENS);
                    let mut chunk = [b' '; 32];
                    if n > 0 {
                        chunk[..3 * n - 1].fill(b'~');
                        if marks % 2 == 1 {
                            chunk[0] = view::error_letter(ErrorKind::ALL[marks / 2]) as u8;
                            chunk[1] = b'^';
                        }
                    }
                    chunk
                })
                .collect(),
        }
    }

    fn class_symbol(&self, class: Class) -> &Symbol {
        match class {
            Class::Lead(n) => &self.lead[(n as usize).min(9)],
            Class::Continuation { k, .. } => &self.continuation[(k as usize).min(6)],
            Class::Error(_) => &self.error,
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

/// An SGR sequence that sets exactly `paint` (it resets first, so paints never mix).
fn sgr(paint: Paint) -> Vec<u8> {
    let mut codes = vec!["0".to_string()];
    for (on, code) in [
        (paint.bold, "1"),
        (paint.underlined, "4"),
        (paint.reversed, "7"),
    ] {
        if on {
            codes.push(code.to_string());
        }
    }
    if let Some(tone) = paint.fg {
        codes.push(tone_code(tone, 30));
    }
    if let Some(tone) = paint.bg {
        codes.push(tone_code(tone, 40));
    }
    format!("\x1b[{}m", codes.join(";")).into_bytes()
}

/// The SGR code of `tone` as a foreground (`base` 30) or background (`base` 40): 30-37
/// and 90-97 for the sixteen colours, `38;5;n` for the others.
fn tone_code(tone: Tone, base: u8) -> String {
    match (tone, tone.index()) {
        (Tone::Indexed(i), _) => format!("{};5;{i}", base + 8),
        (_, i) if i < 8 => (base + i).to_string(),
        (_, i) => (base + 60 + i - 8).to_string(),
    }
}

/// `00 `..`ff `: two ASCII digits and a space per byte, padded to 4 bytes for [`Buf::put`].
const HEX_SPACE: [[u8; 4]; 256] = {
    let mut table = [[0u8; 4]; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = [HEX[i][0], HEX[i][1], b' ', 0];
        i += 1;
    }
    table
};

/// `00`..`ff`, two ASCII digits per byte.
const HEX: [[u8; 2]; 256] = {
    let digits = b"0123456789abcdef";
    let mut table = [[0u8; 2]; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = [digits[i >> 4], digits[i & 15]];
        i += 1;
    }
    table
};

/// A byte buffer written with fixed-size copies: [`Buf::put`] stores `N` bytes and keeps
/// the first `used`, which compiles to a few moves where `extend_from_slice` of a short
/// slice of unknown length calls memcpy. The owner reserves the slack first.
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

    /// Makes room for `n` more bytes, at least doubling the room when it grows: the output
    /// buffer grows row by row through a batch, and each byte is zeroed once, not once a row.
    #[inline]
    fn reserve(&mut self, n: usize) {
        if self.bytes.len() < self.len + n {
            let room = (self.len + n).max(2 * self.bytes.len());
            self.bytes.resize(room, 0);
        }
    }

    #[inline]
    fn put<const N: usize>(&mut self, chunk: &[u8; N], used: usize) {
        self.bytes[self.len..self.len + N].copy_from_slice(chunk);
        self.len += used;
    }

    fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// The first `N` bytes of the buffer's room (zeros after its text, at first).
    #[inline(always)]
    fn head<const N: usize>(&self) -> &[u8; N] {
        self.bytes[..N].try_into().expect("N bytes")
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    /// The buffer as a [`Writer`] with room for `n` more bytes; the caller stores the
    /// writer's `len` back.
    fn writer(&mut self, n: usize) -> Writer<'_> {
        self.reserve(n);
        Writer {
            bytes: &mut self.bytes[..],
            len: self.len,
        }
    }
}

/// A [`Buf`]'s bytes borrowed for a stretch of writes, with its length in a local: a
/// [`Writer::put`] is then a bounds check and a fixed-size copy, and nothing is reloaded
/// from memory in between.
struct Writer<'a> {
    bytes: &'a mut [u8],
    len: usize,
}

impl Writer<'_> {
    /// Stores `N` bytes and keeps the first `used`.
    #[inline(always)]
    fn put<const N: usize>(&mut self, chunk: &[u8; N], used: usize) {
        self.bytes[self.len..self.len + N].copy_from_slice(chunk);
        self.len += used;
    }

    /// Appends what `other` holds, copied in whole 32-byte blocks (one copy of a length
    /// the copy routine handles without a tail): `other` keeps [`PUT_SLACK`] bytes of room
    /// after its text (its owner reserves it).
    #[inline]
    fn put_all(&mut self, other: &Buf) {
        if other.len <= 64 {
            // Most panes of a row of 16: one copy of a size known when compiled.
            self.put::<64>(other.head(), other.len);
            return;
        }
        let blocks = other.len.next_multiple_of(32);
        self.bytes[self.len..self.len + blocks].copy_from_slice(&other.bytes[..blocks]);
        self.len += other.len;
    }
}

/// One pane's text for the current row, with the style last switched to.
struct Pane {
    bytes: Buf,
    style: StyleId,
}

impl Pane {
    fn new() -> Pane {
        Pane {
            bytes: Buf::new(),
            style: PLAIN,
        }
    }
}

/// What an unused slot of [`Printer::errors`] holds.
const NO_SPAN: ErrorSpan = ErrorSpan {
    col: 0,
    len: 0,
    kind: ErrorKind::InvalidByte,
    head: false,
};

/// The most a pane or the marker line can hold per byte of a row, escapes included, and
/// the most a single `put` writes beyond what it keeps.
const PANE_BYTES_PER_CELL: usize = 128;
const PUT_SLACK: usize = 256;

/// The least room a pane has at the start of a row: what a row of 32 bytes can take, so
/// that the fast path can index a pane as an array of this size ([`fast`]).
const PANE_ROOM: usize = 32 * PANE_BYTES_PER_CELL + PUT_SLACK;

/// Turns the cells of [`view::visit`] into lines of text in `out`.
struct Printer {
    format: Format,
    palette: Palette,
    /// Output not yet written.
    out: Buf,
    /// Added to the offsets of the cells (the offset of the buffer's first byte).
    base: u64,
    /// The current row: its offset (`None` before the first) and bytes so far.
    row: Option<u64>,
    cells: usize,
    hex: Pane,
    class: Pane,
    text: Pane,
    /// The error spans of the current row: the first `error_count` of `width + 1` slots
    /// (a row holds at most `width`), so that a span can be stored without a branch and
    /// kept or not by the count.
    errors: Vec<ErrorSpan>,
    error_count: usize,
    /// The tables of the UTF-8 fast path ([`fast`]), or `None` to print every row through
    /// [`view::visit`] (other dialects, and the reference the fast path is tested against).
    fast: Option<Box<fast::Tables>>,
    /// Whether marker lines are printed by [`Printer::fast_marker_line`] (with the fast
    /// path) or by the reference [`Printer::marker_line`].
    fast_markers: bool,
    /// In a multi-byte legacy encoding, a checkpoint at or before the next window (offsets
    /// of the input): see [`Printer::multi_byte_start`].
    checkpoint: Option<Checkpoint>,
    /// The offset where the window the reader asked for starts (`-o N`): a unit cut there
    /// shows its glyph on its first byte in view (see [`view::Options::glyph_at`]).
    first: Option<u64>,
    /// Without colour, with fast markers: the error spans of the current row are not kept
    /// but marked as they come, see [`Marks`].
    marks: Marks,
    /// With a fallback: where each marker line printed since [`Printer::print`] began
    /// starts in `out`, and the offset in the slice of the row above it.
    marked: Vec<(usize, usize)>,
    /// The fallback readings added to the marker lines, made on first use.
    readings: Option<Box<Readings>>,
}

/// The marker line of a row without colour, built as its error spans come: each span's
/// marks are copied to their place ([`Marks::mark`]) and its kind noted in the order of
/// first appearance. A line without escapes has every mark at a fixed column, so the
/// spans need not be kept and walked at the end of the row.
struct Marks {
    /// The columns under the hex pane (`3 * width + 1`), spaces where nothing is marked,
    /// with room for a 32-byte copy past the last.
    line: Buf,
    /// The kinds on the row, as bits by [`ErrorKind::index`].
    seen: u32,
    /// The kinds on the row in the order of their first span: the first `named`.
    order: [u8; 16],
    named: usize,
}

impl Marks {
    fn new(width: usize) -> Marks {
        let mut marks = Marks {
            line: Buf::new(),
            seen: 0,
            order: [0; 16],
            named: 0,
        };
        marks
            .line
            .reserve((3 * width + 1 + PUT_SLACK).max(MARKS_ROOM));
        marks.line.bytes.fill(b' ');
        marks
    }

    /// Marks `span`: its kind's letter and `^` (or `~~` if continued from the row above),
    /// then tildes, at its column; it must come after every span to its left.
    #[inline]
    fn mark(&mut self, palette: &Palette, span: &ErrorSpan) {
        let at = 3 * span.col;
        let len = span.len.min(MARKED_LENS - 1);
        let kind = span.kind.index();
        let marks = 2 * kind + span.head as usize;
        // Marks, then spaces: what lies to the right is marked later, if at all.
        self.line.bytes[at..at + 32]
            .copy_from_slice(&palette.plain_marks[marks * MARKED_LENS + len]);
        if span.len > len {
            self.line.bytes[at + 3 * len - 1..at + 3 * span.len - 1].fill(b'~');
        }
        self.note(kind);
    }

    /// Notes a span of the kind with index `kind` (branch-free: most rows of random bytes
    /// name a few kinds many times over).
    #[inline(always)]
    fn note(&mut self, kind: usize) {
        let bit = 1u32 << kind;
        self.order[self.named & 15] = kind as u8;
        self.named += (self.seen & bit == 0) as usize;
        self.seen |= bit;
    }

    /// Empties the line for the next row: spaces over all that a row can have marked.
    fn clear(&mut self, width: usize) {
        if width <= 32 {
            // The usual widths: five stores of 32 spaces.
            for chunk in self.line.bytes[..160].chunks_exact_mut(32) {
                chunk.copy_from_slice(&[b' '; 32]);
            }
        } else {
            self.line.bytes[..3 * width + 1 + 32].fill(b' ');
        }
        self.seen = 0;
        self.named = 0;
    }
}

impl Printer {
    fn new(format: &Format) -> Printer {
        let width = format.width;
        Printer {
            format: *format,
            palette: Palette::new(format.ascii),
            out: Buf::new(),
            base: 0,
            row: None,
            cells: 0,
            hex: Pane::new(),
            class: Pane::new(),
            text: Pane::new(),
            errors: vec![NO_SPAN; width + 1],
            error_count: 0,
            fast: None,
            fast_markers: false,
            checkpoint: None,
            first: None,
            marks: Marks::new(width),
            marked: Vec::new(),
            readings: None,
        }
    }

    /// A printer that takes the fast path where it can: rows of UTF-8 (not under
    /// `--escape`, whose text is a glyph a byte of an error unit: the reference prints it).
    fn new_fast(format: &Format) -> Printer {
        let mut printer = Printer::new(format);
        if format.dialect == Dialect::Utf8 && format.escape.is_none() {
            printer.fast = Some(Box::new(fast::Tables::new(format)));
        }
        printer.fast_markers = true;
        printer
    }

    /// In a multi-byte legacy encoding, the checkpoint (in `bytes`) of the first unit of
    /// the window starting at `start`, found from the one kept from the window before (so a
    /// dump decodes each byte about once, even where no sync byte is near), which it then
    /// keeps in place of it. `None` in other dialects.
    fn multi_byte_start(&mut self, bytes: &[u8], base: u64, start: u64) -> Option<Checkpoint> {
        self.format.dialect.multi_byte()?;
        let hint = self.checkpoint.and_then(|c| {
            let at = (c.at as u64).checked_sub(base)? as usize;
            Some(Checkpoint { at, ..c })
        });
        let found = self.format.dialect.resync(bytes, start as usize, hint);
        let here = Checkpoint {
            at: found.unit.start,
            state: found.state,
        };
        self.checkpoint = Some(Checkpoint {
            at: here.at + base as usize,
            ..here
        });
        Some(here)
    }

    /// Prints the rows of `bytes[window]`, where `bytes[0]` is the input's byte `base`.
    fn print(&mut self, bytes: &[u8], base: u64, window: Range<u64>) {
        self.base = base;
        let from = self.out.len;
        if let Some(mut tables) = self.fast.take() {
            if self.format.color {
                fast::print::<true>(self, &mut tables, bytes, window.clone());
            } else {
                fast::print::<false>(self, &mut tables, bytes, window.clone());
            }
            self.fast = Some(tables);
        } else {
            let (dialect, width) = (self.format.dialect, self.format.width);
            let checkpoint = self.multi_byte_start(bytes, base, window.start);
            let options = Options {
                cursor: None,
                glyph_at: self.first.and_then(|first| first.checked_sub(base)),
                escape: self.format.escape,
                checkpoint,
            };
            view::visit(bytes, dialect, window.clone(), width, options, self);
        }
        self.end_row();
        if let (Some(fallback), false) = (&self.format.fallback, self.marked.is_empty()) {
            let ascii = self.format.ascii;
            let readings = self
                .readings
                .get_or_insert_with(|| Readings::new(fallback, ascii));
            readings.append(&mut self.out, from, bytes, base, &self.format, &self.marked);
            self.marked.clear();
        }
    }

    fn end_row(&mut self) {
        let Some(offset) = self.row.take() else {
            return;
        };
        if self.fast_markers && !self.format.color && self.end_plain_row(offset) {
            return;
        }
        let (color, palette) = (self.format.color, &self.palette);
        let width = self.format.width;
        let missing = width - self.cells;
        // The row line: the panes, gaps of at most 4 columns a byte, an offset of at most
        // 16 digits, and five escapes of at most 24 bytes.
        let panes_len = self.hex.bytes.len + self.class.bytes.len + self.text.bytes.len;
        let mut out = self.out.writer(panes_len + 4 * width + 256 + PUT_SLACK);
        if color {
            put_sgr(&mut out, palette, DIM);
        }
        let digits = write_offset(&mut out, offset);
        if color {
            put_sgr(&mut out, palette, PLAIN);
        }
        out.put(b"  ", 2);
        let panes = [
            (&mut self.hex, 3 * missing + 1),
            (&mut self.class, missing + 2),
            (&mut self.text, 0),
        ];
        for (pane, gap) in panes {
            switch(color, palette, pane, PLAIN);
            out.put_all(&pane.bytes);
            pane.bytes.len = 0;
            put_spaces(&mut out, gap);
        }
        out.put(b"\n", 1);
        self.out.len = out.len;
        if self.error_count > 0 || self.marks.seen != 0 {
            self.note_marker_line(self.out.len, offset - self.base);
            if self.fast_markers {
                self.fast_marker_line(digits);
            } else {
                self.marker_line(digits);
            }
        }
        self.cells = 0;
    }

    /// [`Printer::end_row`] and [`Printer::plain_marker_line`] in fewer steps, for a full
    /// row without colour of at most 32 bytes (false, and nothing printed, for any other, for
    /// an offset of more than 8 hex digits, or panes of more than 128 bytes):
    /// every piece is a copy of a size known when compiled to an offset masked to
    /// [`ROW_MASK`] in an array of [`ROW_ROOM`] bytes, so no copy needs a bounds check.
    #[inline]
    fn end_plain_row(&mut self, offset: u64) -> bool {
        let width = self.format.width;
        let lens = [
            self.hex.bytes.len,
            self.class.bytes.len,
            self.text.bytes.len,
        ];
        let Ok(offset) = u32::try_from(offset) else {
            return false;
        };
        if width > 32 || self.cells != width || lens.iter().any(|&n| n > 128) {
            return false;
        }
        self.out.reserve(ROW_ROOM);
        let Some(line) = self
            .out
            .bytes
            .get_mut(self.out.len..self.out.len + ROW_ROOM)
        else {
            return false;
        };
        let Ok(line) = <&mut [u8; ROW_ROOM]>::try_from(line) else {
            return false;
        };
        let [a, b, c, d] = offset.to_be_bytes().map(|byte| HEX[byte as usize]);
        line[..16].copy_from_slice(&[
            a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1], b' ', b' ', 0, 0, 0, 0, 0, 0,
        ]);
        let mut at = 10;
        let short = width <= 16 && lens.iter().all(|&n| n <= 64);
        for (pane, gap) in [(&self.hex, 1), (&self.class, 2), (&self.text, 0)] {
            if short {
                put_at::<64>(line, at, pane.bytes.head());
            } else {
                put_at::<128>(line, at, pane.bytes.head());
            }
            at += pane.bytes.len;
            put_at::<2>(line, at, b"  ");
            at += gap;
        }
        put_at::<1>(line, at, b"\n");
        at += 1;
        for pane in [&mut self.hex, &mut self.class, &mut self.text] {
            pane.bytes.len = 0;
        }
        let marks = &mut self.marks;
        if marks.seen != 0 {
            if self.format.fallback.is_some() {
                let row = (offset as u64 - self.base) as usize;
                self.marked.push((self.out.len + at, row));
            }
            put_at::<16>(line, at, &[b' '; 16]);
            at += 10;
            if width <= 16 {
                put_at::<64>(line, at, marks.line.head());
            } else {
                put_at::<128>(line, at, marks.line.head());
            }
            at += 3 * width + 1;
            at = put_names_at(&self.palette, line, at, &marks.order, marks.named);
            marks.clear(width);
        }
        self.out.len += at;
        self.cells = 0;
        true
    }

    /// Notes, with a fallback, that a marker line starts at `at` in `out`, under the row at
    /// `row` of the slice being printed.
    #[inline(always)]
    fn note_marker_line(&mut self, at: usize, row: u64) {
        if self.format.fallback.is_some() {
            self.marked.push((at, row as usize));
        }
    }

    /// The line under a row with errors: markers under the hex pane, the kinds on the row
    /// after them, each named once.
    fn marker_line(&mut self, digits: usize) {
        let (color, palette) = (self.format.color, &self.palette);
        let width = self.format.width;
        let spans = &self.errors[..self.error_count];
        // The indent, 3 columns a byte, an escape before every span, and the names.
        let room = digits + 3 * width + 24 * spans.len() + NAMES_ROOM + PUT_SLACK;
        let mut line = self.out.writer(room);
        let mut style = PLAIN;
        put_spaces(&mut line, digits + 2);
        let mut column = 0;
        for span in spans {
            let at = 3 * span.col;
            put_spaces(&mut line, at - column);
            let kind = span.kind.index();
            switch_line(color, palette, &mut line, &mut style, MARKER + kind as u8);
            line.put(
                &if span.head {
                    [palette.letters[kind], b'^']
                } else {
                    *b"~~"
                },
                2,
            );
            put_tildes(&mut line, 3 * (span.len - 1));
            column = at + 3 * span.len - 1;
        }
        switch_line(color, palette, &mut line, &mut style, PLAIN);
        put_spaces(&mut line, 3 * width + 1 - column);
        let mut named = 0u32;
        for span in spans {
            let kind = span.kind.index();
            if named & (1 << kind) != 0 {
                continue;
            }
            if named != 0 {
                switch_line(color, palette, &mut line, &mut style, PLAIN);
                line.put(b", ", 2);
            }
            named |= 1 << kind;
            switch_line(color, palette, &mut line, &mut style, MARKER + kind as u8);
            let (name, len) = &palette.names[kind];
            line.put(name, *len);
        }
        switch_line(color, palette, &mut line, &mut style, PLAIN);
        line.put(b"\n", 1);
        self.out.len = line.len;
        self.error_count = 0;
    }
}

impl Printer {
    /// [`Printer::marker_line`] with fewer steps a span, for the fast path. Without colour,
    /// the line's marks are in place already ([`Marks`]): it is the indent, one copy of
    /// them and the kinds' names. With colour, each span is a gap of spaces, a style switch
    /// chosen by index ([`Palette::sgr_switch`]) and its marks as one fixed-size copy of
    /// its letter (or `~`) and tildes ([`Palette::marks`]). The tests hold it equal to the
    /// reference, byte for byte.
    fn fast_marker_line(&mut self, digits: usize) {
        if self.format.color {
            self.colored_marker_line(digits);
        } else {
            self.plain_marker_line(digits);
        }
    }

    fn plain_marker_line(&mut self, digits: usize) {
        let (palette, width) = (&self.palette, self.format.width);
        let marks = &mut self.marks;
        let mut line = self.out.writer(digits + 3 * width + NAMES_ROOM + PUT_SLACK);
        put_gap(&mut line, digits + 2);
        marks.line.len = 3 * width + 1;
        line.put_all(&marks.line);
        for (i, &kind) in marks.order[..marks.named].iter().enumerate() {
            let (name, len) = &palette.listed_names[kind as usize][(i > 0) as usize];
            line.put(name, *len);
        }
        line.put(b"\n", 1);
        self.out.len = line.len;
        marks.clear(width);
    }

    fn colored_marker_line(&mut self, digits: usize) {
        let palette = &self.palette;
        let width = self.format.width;
        let spans = &self.errors[..self.error_count];
        let room = digits + 3 * width + 24 * spans.len() + NAMES_ROOM + PUT_SLACK;
        let mut line = self.out.writer(room);
        let mut style = PLAIN;
        put_spaces(&mut line, digits + 2);
        let mut column = 0;
        for span in spans {
            let at = 3 * span.col;
            put_gap(&mut line, at - column);
            let kind = span.kind.index();
            switch_indexed(palette, &mut line, &mut style, palette.marker_style[kind]);
            let marks = 3 * span.len - 1;
            line.put(&palette.marks[2 * kind + span.head as usize], marks.min(32));
            if marks > 32 {
                put_tildes(&mut line, marks - 32);
            }
            column = at + marks;
        }
        switch_indexed(palette, &mut line, &mut style, PLAIN);
        put_gap(&mut line, 3 * width + 1 - column);
        let mut named = 0u32;
        for span in spans {
            let kind = span.kind.index();
            if named & (1 << kind) != 0 {
                continue;
            }
            if named != 0 {
                switch_indexed(palette, &mut line, &mut style, PLAIN);
                line.put(b", ", 2);
            }
            named |= 1 << kind;
            switch_indexed(palette, &mut line, &mut style, palette.marker_style[kind]);
            let (name, len) = &palette.names[kind];
            line.put(name, *len);
        }
        switch_indexed(palette, &mut line, &mut style, PLAIN);
        line.put(b"\n", 1);
        self.out.len = line.len;
        self.error_count = 0;
    }
}

/// Switches a line (or pane) written by `line`, now in `style`, to `to` (an alias), without
/// a branch (on random data a switch is a coin toss): see [`Palette::sgr_switch`].
#[inline(always)]
fn switch_indexed(palette: &Palette, line: &mut Writer, style: &mut StyleId, to: StyleId) {
    let changed = (*style != to) as usize;
    let (sgr, len) = &palette.sgr_switch[2 * to as usize + changed];
    line.put(sgr, *len);
    *style = to;
}

/// `n` spaces, up to 128 in one copy (a gap on a marker line is at most `3 * width + 1`).
#[inline(always)]
fn put_gap(w: &mut Writer, n: usize) {
    const SPACES: [u8; 128] = [b' '; 128];
    if n <= 128 {
        w.put(&SPACES, n);
    } else {
        put_spaces(w, n);
    }
}

/// What [`Printer::end_plain_row`] writes into: a row of 32 bytes and its marker line
/// take less than `ROW_MASK + 1` bytes (10 + 96 + 1 + 96 + 2 + 128 + 1, then 10 + 97, nine
/// names of at most 32 bytes and 1), and the last copy at most 128 more.
const ROW_MASK: usize = 1023;
const ROW_ROOM: usize = ROW_MASK + 1 + 128;

/// Writes the names of the first `named` kinds of `order` to `line` at `at`, as a marker
/// line without colour ends (`letter name`, joined by `, `), then the newline; returns where
/// it ended.
fn put_names_at(
    palette: &Palette,
    line: &mut [u8; ROW_ROOM],
    mut at: usize,
    order: &[u8; 16],
    named: usize,
) -> usize {
    for (i, &kind) in order[..named.min(16)].iter().enumerate() {
        let (name, len) = &palette.listed_names[kind as usize & 31][(i > 0) as usize];
        put_at::<32>(line, at, name);
        at += len;
    }
    put_at::<1>(line, at, b"\n");
    at + 1
}

/// Copies `chunk` to `line` at `at`, masked to [`ROW_MASK`] (which it always is within).
#[inline(always)]
fn put_at<const N: usize>(line: &mut [u8; ROW_ROOM], at: usize, chunk: &[u8; N]) {
    debug_assert!(at <= ROW_MASK);
    line[at & ROW_MASK..][..N].copy_from_slice(chunk);
}

/// The least room of [`Marks::line`]: what a row of 32 bytes can take.
const MARKS_ROOM: usize = 3 * 32 + 1 + PUT_SLACK;

/// Spans of up to 10 bytes have their marks in one 32-byte chunk of [`Palette::plain_marks`].
const MARKED_LENS: usize = 11;

/// The most the names on a marker line take: every kind, its name, two escapes, `, `.
const NAMES_ROOM: usize = 9 * (32 + 2 * 24 + 2);

/// Switches a line written by `line`, now in `style`, to `to`, if colour is on.
#[inline]
fn switch_line(
    color: bool,
    palette: &Palette,
    line: &mut Writer,
    style: &mut StyleId,
    to: StyleId,
) {
    let to = palette.alias[to as usize];
    if color && *style != to {
        put_sgr(line, palette, to);
        *style = to;
    }
}

/// Switches `pane` to `style`, if colour is on and it is not in that style already.
#[inline]
fn switch(color: bool, palette: &Palette, pane: &mut Pane, style: StyleId) {
    let style = palette.alias[style as usize];
    if color && pane.style != style {
        let (sgr, len) = &palette.sgr_fixed[style as usize];
        pane.bytes.put(sgr, *len);
        pane.style = style;
    }
}

/// Switches `pane` to `style` (already an alias), if it is not in that style already.
#[inline(always)]
fn switch_to(palette: &Palette, pane: &mut Pane, style: StyleId) {
    // Without a branch: on random data a switch is a coin toss. The sequence is always
    // stored and kept only when the style changes.
    let (sgr, len) = &palette.sgr_fixed[style as usize];
    let keep = *len & ((pane.style != style) as usize).wrapping_neg();
    pane.bytes.put(sgr, keep);
    pane.style = style;
}

/// `n` spaces, up to 32 at a time (gaps are mostly short).
#[inline]
fn put_spaces(w: &mut Writer, n: usize) {
    put_repeated::<b' '>(w, n);
}

/// `n` tildes, up to 32 at a time.
#[inline]
fn put_tildes(w: &mut Writer, n: usize) {
    put_repeated::<b'~'>(w, n);
}

/// `n` copies of `B`, up to 32 at a time.
#[inline]
fn put_repeated<const B: u8>(w: &mut Writer, mut n: usize) {
    let run = [B; 32];
    loop {
        let k = n.min(32);
        w.put(&run, k);
        n -= k;
        if n == 0 {
            break;
        }
    }
}

/// The SGR sequence of `style` (an alias).
#[inline]
fn put_sgr(w: &mut Writer, palette: &Palette, style: StyleId) {
    let (sgr, len) = &palette.sgr_fixed[style as usize];
    w.put(sgr, *len);
}

impl CellSink for Printer {
    fn row(&mut self, offset: u64, _len: usize) {
        self.end_row();
        self.row = Some(self.base + offset);
        let room = (self.format.width * PANE_BYTES_PER_CELL + PUT_SLACK).max(PANE_ROOM);
        for pane in [&mut self.hex, &mut self.class, &mut self.text] {
            pane.bytes.reserve(room);
        }
    }

    fn error(&mut self, span: ErrorSpan) {
        if self.fast_markers && !self.format.color {
            self.marks.mark(&self.palette, &span);
            return;
        }
        self.errors[self.error_count] = span;
        self.error_count += 1;
    }

    #[inline]
    fn byte(&mut self, cell: ByteCell) {
        let palette = &self.palette;
        if self.format.color {
            let role = palette.role_style[cell.role as usize];
            let class = match cell.class {
                Class::Error(kind) => palette.error_style[kind.index()],
                Class::Lead(_) => role,
                Class::Continuation { .. } => palette.role_style[Role::Continuation as usize],
            };
            switch_to(palette, &mut self.hex, role);
            switch_to(palette, &mut self.class, class);
        }
        self.hex.bytes.put(&HEX_SPACE[cell.byte as usize], 3);
        let symbol = palette.class_symbol(cell.class);
        self.class.bytes.put(&symbol.bytes, symbol.len as usize);
        self.cells += 1;
    }

    /// [`CellSink::unit`]'s calls fused: a handful of table lookups and fixed-size copies
    /// per unit (`tests::whole_units_print_as_their_cells` holds it equal to them).
    #[inline]
    fn unit(&mut self, whole: WholeUnit) {
        let n = whole.unit.len as usize;
        let bytes = whole.bytes;
        let color = self.format.color;
        let palette = &self.palette;
        let (hex, class) = (&mut self.hex, &mut self.class);
        match whole.unit.kind {
            UnitKind::Scalar(_) if n == 1 => {
                let b = bytes[0] as usize;
                if color {
                    let style = palette.byte_style[b];
                    switch_to(palette, hex, style);
                    switch_to(palette, class, style);
                }
                hex.bytes.put(&HEX_SPACE[b], 3);
                let one = &palette.lead[1];
                class.bytes.put(&one.bytes, one.len as usize);
            }
            UnitKind::Scalar(_) => {
                let lead = palette.role_style[Role::Lead as usize];
                let rest = palette.role_style[Role::Continuation as usize];
                if color {
                    switch_to(palette, hex, lead);
                }
                hex.bytes.put(&HEX_SPACE[bytes[0] as usize], 3);
                if color {
                    switch_to(palette, hex, rest);
                }
                for &b in &bytes[1..] {
                    hex.bytes.put(&HEX_SPACE[b as usize], 3);
                }
                if color {
                    switch_to(palette, class, lead);
                }
                let symbol = &palette.lead[n.min(9)];
                class.bytes.put(&symbol.bytes, symbol.len as usize);
                if color {
                    switch_to(palette, class, rest);
                }
                let (run, len) = &palette.continuation_runs[n.min(6)];
                class.bytes.put(run, *len);
            }
            UnitKind::Error(kind) => {
                self.error(ErrorSpan {
                    col: whole.col,
                    len: n,
                    kind,
                    head: true,
                });
                let (color, palette) = (self.format.color, &self.palette);
                let (hex, class) = (&mut self.hex, &mut self.class);
                if color {
                    switch_to(palette, hex, palette.role_style[Role::Error as usize]);
                }
                for &b in bytes {
                    hex.bytes.put(&HEX_SPACE[b as usize], 3);
                }
                if color {
                    switch_to(palette, class, palette.error_style[kind.index()]);
                }
                let (run, len) = &palette.error_runs[n.min(6)];
                class.bytes.put(run, *len);
            }
        }
        self.cells += n;
        self.text(TextRun {
            glyph: Some(whole.glyph),
            columns: n,
        });
    }

    #[inline(always)]
    fn text(&mut self, run: TextRun) {
        let color = self.format.color;
        let palette = &self.palette;
        let text = &mut self.text;
        let mut rest = run.fillers();
        if let Some(glyph) = &run.glyph {
            if color {
                switch_to(palette, text, palette.glyph_style[glyph.class as usize]);
            }
            if self.format.ascii {
                text.bytes.put(&[ascii_glyph(glyph)], 1);
                rest += run.covered();
            } else {
                text.bytes.put(glyph.padded(), glyph.len());
            }
        }
        if rest > 0 {
            if color {
                switch_to(palette, text, palette.alias[DIM as usize]);
            }
            if let Some((run, len)) = palette.filler_runs.get(rest) {
                text.bytes.put(run, *len);
            } else {
                let (filler, len) = &palette.filler;
                for _ in 0..rest {
                    text.bytes.put(filler, *len);
                }
            }
        }
    }
}

/// Writes `offset` in lowercase hex, at least 8 digits; returns how many.
#[inline]
fn write_offset(out: &mut Writer, offset: u64) -> usize {
    if let Ok(low) = u32::try_from(offset) {
        // The common case, four table lookups.
        let [a, b, c, d] = low.to_be_bytes().map(|byte| HEX[byte as usize]);
        out.put(&[a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1]], 8);
        return 8;
    }
    let digits = (16 - offset.leading_zeros() as usize / 4).max(8);
    for i in (0..digits).rev() {
        out.put(&[b"0123456789abcdef"[(offset >> (4 * i)) as usize & 15]], 1);
    }
    digits
}

#[cfg(test)]
mod tests {
    use super::*;

    fn format(dialect: Dialect, width: usize, color: bool, ascii: bool) -> Format {
        Format {
            dialect,
            width,
            color,
            ascii,
            fallback: None,
            escape: None,
        }
    }

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
            let mut out = buf.writer(PUT_SLACK);
            assert_eq!(write_offset(&mut out, offset), text.len());
            buf.len = out.len;
            assert_eq!(buf.as_slice(), text.as_bytes());
        }
    }

    #[test]
    fn rows_markers_and_panes() {
        let f = format(Dialect::Utf8, 8, false, false);
        let out = String::from_utf8(whole(b"a\xe2\x82\xacb\xc0\xe2\x82zz\xe2\x82", &f)).unwrap();
        assert_eq!(
            out,
            "00000000  61 e2 82 ac 62 c0 e2 82  13₂₃1✗✗✗  a€ˑˑb��ˑ\n\
             \x20                        I^ T^~~~  I invalid_byte, T truncated\n\
             00000008  7a 7a e2 82              11✗✗      zz�ˑ\n\
             \x20               E^~~~              E truncated_eof\n"
        );
    }

    #[test]
    fn a_unit_cut_by_a_row_edge_is_drawn_once_and_is_no_error() {
        let f = format(Dialect::Utf8, 8, false, false);
        let out = String::from_utf8(whole("abcdefg€!".as_bytes(), &f)).unwrap();
        assert_eq!(
            out,
            "00000000  61 62 63 64 65 66 67 e2  11111113  abcdefg€\n\
             00000008  82 ac 21                 ₂₃1       ˑˑ!\n"
        );
    }

    #[test]
    fn ascii_stand_ins() {
        let f = format(Dialect::Utf8, 8, false, true);
        let out = whole("a\u{1b}é中\u{202e}\u{301}".as_bytes(), &f);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "00000000  61 1b c3 a9 e4 b8 ad e2  112-3--3  a^*.*..%\n\
             00000008  80 ae cc 81              --2-      ..'.\n"
        );
    }

    #[test]
    fn colour_switches_only_when_the_style_changes() {
        let f = format(Dialect::Utf8, 8, true, false);
        let out = String::from_utf8(whole(b"abcd", &f)).unwrap();
        // One switch to the printable style per pane for the four bytes, then a reset; plain
        // text needs none.
        assert_eq!(
            out,
            "\x1b[0;90m00000000\x1b[0m  \x1b[0;36m61 62 63 64 \x1b[0m             \
             \x1b[0;36m1111\x1b[0m      abcd\n"
        );
    }

    /// The key property of streaming: however the input is cut into chunks, the output is
    /// the whole input's, in every dialect, for any offset and length.
    #[test]
    fn tiny_chunks_equal_the_whole_input() {
        let mut next = crate::xorshift(0x9E37_79B9_7F4A_7C15);
        let pieces: [&[u8]; 10] = [
            b"a",
            "€".as_bytes(),
            "😀".as_bytes(),
            b"\xed\xa0\xbd\xed\xb8\x80",
            b"\xed\xa0\xbd",
            b"\xc0\x80",
            b"\xf8\x88\x80\x80\x80",
            b"\xe2\x82",
            b"\x80",
            b"\xff",
        ];
        for round in 0..60 {
            let mut bytes = Vec::new();
            while bytes.len() < 90 {
                bytes.extend_from_slice(pieces[(next() % 10) as usize]);
            }
            let dialect = Dialect::ALL[round % 5];
            let f = format(dialect, [8, 16, 32][round % 3], round % 2 == 0, false);
            let offset = next() % 20;
            let length = (round % 4 == 0).then(|| next() % 70);
            let end = length.map_or(bytes.len() as u64, |l| (offset + l).min(bytes.len() as u64));
            let mut expected = Vec::new();
            dump_bytes(&bytes, offset..end, &f, &mut expected).unwrap();
            for chunk in [1, 2, 3, 5, 7, 64] {
                assert_eq!(
                    String::from_utf8_lossy(&streamed(&bytes, offset, length, &f, chunk)),
                    String::from_utf8_lossy(&expected),
                    "{dialect} chunk {chunk} offset {offset} length {length:?}"
                );
            }
        }
    }

    /// The fast path (whole units printed at once) equals the cells printed one by one, in
    /// every dialect, width, colour and `--ascii`, on random bytes and on mixed text.
    #[test]
    fn whole_units_print_as_their_cells() {
        let mut next = crate::xorshift(0x2545_F491_4F6C_DD1D);
        let text = "a €😀\té中\u{1b}\u{301}\u{202e}ok\n".as_bytes();
        for round in 0..400 {
            let len = (next() % 120) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|i| match round % 3 {
                    0 => next() as u8,
                    1 => text[(next() as usize + i) % text.len()],
                    _ => [
                        0x00, 0x41, 0x80, 0xBF, 0xC0, 0xE0, 0xED, 0xA0, 0xF0, 0xF4, 0xFF,
                    ][(next() % 11) as usize],
                })
                .collect();
            let f = format(
                Dialect::ALL[round % 5],
                [1, 3, 8, 16, 32][(round / 5) % 5],
                round % 2 == 0,
                round % 7 == 0,
            );
            let mut printer = Printer::new(&f);
            let window = 0..bytes.len() as u64;
            view::visit(
                &bytes,
                f.dialect,
                window,
                f.width,
                Options::default(),
                &mut super::fast::Cells(&mut printer),
            );
            printer.end_row();
            assert_eq!(
                String::from_utf8_lossy(&whole(&bytes, &f)),
                String::from_utf8_lossy(printer.out.as_slice()),
                "{f:?} {bytes:02x?}"
            );
        }
    }

    /// Batches formatted on two threads come out in order, as one thread prints them: an
    /// input of 7.5 batches (odd, so either thread prints the last), every width.
    #[test]
    fn two_threads_print_what_one_prints() {
        let text = "a €😀\té中\u{1b}\u{301}ok\n".as_bytes();
        let mut bytes: Vec<u8> = text
            .iter()
            .cycle()
            .take(BATCH_ROWS * 32 * 7)
            .copied()
            .collect();
        bytes.extend((0..=255u8).cycle().take(BATCH_ROWS * 16));
        for (width, color) in [(8, false), (16, true), (32, false)] {
            let f = format(Dialect::Utf8, width, color, false);
            let window = 3..bytes.len() as u64 - 1;
            let mut threaded = Vec::new();
            dump_batches_on_two_threads(
                &bytes,
                batches(window.clone(), (BATCH_ROWS * width) as u64),
                &f,
                &mut threaded,
            )
            .unwrap();
            let mut one = Vec::new();
            let mut printer = Printer::new_fast(&f);
            printer.first = Some(window.start); // 3: inside the euro sign
            for range in batches(window, (BATCH_ROWS * width) as u64) {
                printer.print(&bytes, 0, range);
                one.extend_from_slice(printer.out.as_slice());
                printer.out.clear();
            }
            assert!(threaded == one, "width {width}");
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

    /// A write failing part way ends both threads and returns the error.
    #[test]
    fn two_threads_stop_on_a_closed_output() {
        let bytes: Vec<u8> = (0..=255u8).cycle().take(BATCH_ROWS * 16 * 9).collect();
        let f = format(Dialect::Utf8, 16, true, false);
        for left in [0, 1, 2, 5, 8] {
            let window = 0..bytes.len() as u64;
            let result = dump_batches_on_two_threads(
                &bytes,
                batches(window, (BATCH_ROWS * 16) as u64),
                &f,
                &mut Closing { left },
            );
            assert_eq!(
                result.map_err(|e| e.kind()),
                Err(io::ErrorKind::BrokenPipe),
                "{left}"
            );
        }
    }

    /// A reader that makes `len` bytes of text on the fly, so nothing holds the input.
    struct Generated {
        left: u64,
    }

    impl Read for Generated {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            const TEXT: &[u8] = b"Gr\xc3\xbc\xc3\x9fe, \xe4\xb8\x96\xe7\x95\x8c! \xff\n";
            let n = (buf.len() as u64).min(self.left) as usize;
            for (i, b) in buf[..n].iter_mut().enumerate() {
                *b = TEXT[(self.left as usize + i) % TEXT.len()];
            }
            self.left -= n as u64;
            Ok(n)
        }
    }

    #[test]
    fn streaming_memory_does_not_grow_with_the_input() {
        let f = format(Dialect::Utf8, 16, false, false);
        let len = 8 << 20;
        let stats =
            dump_stream(Generated { left: len }, 0, None, &f, CHUNK, &mut io::sink()).unwrap();
        assert_eq!(stats.len, len);
        let bound = 2 * view::CONTEXT + CHUNK + BATCH_ROWS * 16;
        assert!(stats.peak <= bound, "{} > {bound}", stats.peak);
        // Skipping to a far offset holds no more than a chunk.
        let stats = dump_stream(
            Generated { left: len },
            len - 10,
            None,
            &f,
            4096,
            &mut io::sink(),
        )
        .unwrap();
        assert!(stats.peak <= 4096 + 2 * view::CONTEXT + BATCH_ROWS * 16);
        assert_eq!(stats.len, len);
    }

    #[test]
    fn offset_past_the_end() {
        assert!(past_end(0, 0).is_none());
        assert!(past_end(3, 4).is_none());
        assert!(
            matches!(past_end(4, 4), Some(Failure::Usage(m)) if m == "offset 4 is past the end of the input (4 bytes)")
        );
        let f = format(Dialect::Utf8, 16, false, false);
        let stats = dump_stream(&b"abc"[..], 10, None, &f, 2, &mut io::sink()).unwrap();
        assert_eq!(stats.len, 3);
    }
}
