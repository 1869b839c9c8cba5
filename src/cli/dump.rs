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
use crate::decode::{Dialect, ErrorKind};
use crate::source::{Access, Source, SourceError};
use crate::view::fallback::{Escape, Fallback};
use crate::view::glyph::{GlyphClass, InlineGlyph, FILLER};
use crate::view::theme::{Paint, Theme, Tone};
use crate::view::{self, ByteCell, CellSink, Class, ErrorSpan, Options, Role, TextRun};

mod fast;
mod readings;

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
        let keep = (next.saturating_sub(context) & align).clamp(base, base + buf.len() as u64);
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

/// A style, as an index into [`Palette::sgr`].
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
/// The style of a pane that has written nothing yet: its first cell always switches.
const UNSET: StyleId = StyleId::MAX;

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

/// The viewer's styles as SGR sequences, and the symbols of the class lane, made once.
struct Palette {
    /// The first id of an equal style, so equal styles never cause a switch.
    alias: [StyleId; STYLES],
    /// The SGR sequence of every style, padded for [`Buf::put`].
    sgr: Vec<([u8; 24], usize)>,
    lead: [Symbol; 10],
    continuation: [Symbol; 7],
    error: Symbol,
    filler: Symbol,
    /// Error kinds as `letter name`, as in the viewer's legend, by [`ErrorKind::index`].
    names: Vec<Vec<u8>>,
    /// The marks of an error span, at `2 * kind + head`: its kind's letter and `^` (or `~~`
    /// if it is continued from the row above), then tildes; a span of `n` bytes keeps the
    /// first `3 * n - 1`.
    marks: [[u8; 32]; 2 * KINDS],
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
        Palette {
            alias: std::array::from_fn(|i| {
                styles.iter().position(|s| *s == styles[i]).unwrap_or(i) as StyleId
            }),
            sgr: styles.into_iter().map(|s| fixed(&sgr(s))).collect(),
            lead: std::array::from_fn(|n| Symbol::of(Class::Lead(n as u8).symbol())),
            continuation: std::array::from_fn(|k| {
                lane(Class::Continuation { k: k as u8, n: 6 }, '-')
            }),
            error: lane(Class::Error(ErrorKind::InvalidByte), 'x'),
            filler: Symbol::of(if ascii {
                '.'
            } else {
                FILLER.chars().next().unwrap_or('.')
            }),
            names: ErrorKind::ALL
                .iter()
                .map(|kind| format!("{} {}", view::error_letter(*kind), kind.name()).into_bytes())
                .collect(),
            marks: std::array::from_fn(|i| {
                let mut marks = [b'~'; 32];
                if i % 2 == 1 {
                    marks[0] = view::error_letter(ErrorKind::ALL[i / 2]) as u8;
                    marks[1] = b'^';
                }
                marks
            }),
        }
    }

    /// The style `id` stands for (the first equal one).
    fn style(&self, id: StyleId) -> StyleId {
        self.alias[id as usize]
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
    let digits = b"0123456789abcdef";
    let mut table = [[0u8; 4]; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = [digits[i >> 4], digits[i & 15], b' ', 0];
        i += 1;
    }
    table
};

/// The most a single [`Buf::put`] writes beyond what it keeps.
const PUT_SLACK: usize = 256;

/// A byte buffer written with fixed-size copies: [`Buf::put`] stores `N` bytes and keeps
/// the first `used`, which compiles to a few moves where `extend_from_slice` of a short
/// slice of unknown length calls memcpy. The writer reserves the room first.
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

    /// Makes room for `n` more bytes and [`PUT_SLACK`], at least doubling the room when it
    /// grows: the output grows row by row through a batch, each byte zeroed once.
    #[inline]
    fn reserve(&mut self, n: usize) {
        if self.bytes.len() < self.len + n + PUT_SLACK {
            let room = (self.len + n + PUT_SLACK).max(2 * self.bytes.len());
            self.bytes.resize(room, 0);
        }
    }

    #[inline(always)]
    fn put<const N: usize>(&mut self, chunk: &[u8; N], used: usize) {
        self.bytes[self.len..self.len + N].copy_from_slice(chunk);
        self.len += used;
    }

    /// Appends `bytes`, making room for them.
    #[inline]
    fn extend(&mut self, bytes: &[u8]) {
        self.reserve(bytes.len());
        self.bytes[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }

    /// `n` copies of `B`, 32 at a time.
    #[inline]
    fn repeat<const B: u8>(&mut self, mut n: usize) {
        while n > 0 {
            let k = n.min(32);
            self.put(&[B; 32], k);
            n -= k;
        }
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
    bytes: Buf,
    style: StyleId,
}

impl Pane {
    /// Switches to `style` (an alias) if the pane is not in it already.
    #[inline]
    fn switch(&mut self, palette: &Palette, style: StyleId) {
        if self.style != style {
            let (sgr, len) = &palette.sgr[style as usize];
            self.bytes.put(sgr, *len);
            self.style = style;
        }
    }
}

/// An error span of a row ([`ErrorSpan`]'s columns and kind), with the bytes whose
/// fallback reading the marker line ends with: the unit, if it starts on the row.
#[derive(Clone, Copy, Debug)]
struct Mark {
    col: usize,
    len: usize,
    kind: ErrorKind,
    head: bool,
    unit: (usize, usize),
}

/// Turns the cells of [`view::visit`] into lines of text in `out`: the reference printer,
/// which prints every dialect and option. With the fast path ([`Printer::new_fast`]),
/// whole rows of UTF-8 are printed by [`fast::print`] from renderings this printer makes.
struct Printer {
    format: Format,
    palette: Palette,
    /// Output not yet written.
    out: Buf,
    /// Added to the offsets of the cells (the offset of the slice's first byte).
    base: u64,
    /// The current row: its start in the slice (`None` before the first), bytes so far.
    row: Option<usize>,
    cells: usize,
    /// The hex pane, the class lane and the text pane of the current row.
    panes: [Pane; 3],
    /// The error spans of the current row.
    spans: Vec<ErrorSpan>,
    /// The offset where the window the reader asked for starts (`-o N`): a unit cut there
    /// shows its glyph on its first byte in view (see [`view::Options::glyph_at`]).
    first: Option<u64>,
    /// The fallback readings of the marker lines, if `--fallback` names an encoding.
    readings: Option<Readings>,
    /// The tables of the UTF-8 fast path, or `None` to print every row through
    /// [`view::visit`] (other dialects, and the reference the fast path is tested against).
    fast: Option<Box<fast::Tables>>,
}

impl Printer {
    fn new(format: &Format) -> Printer {
        let pane = || Pane {
            bytes: Buf::new(),
            style: PLAIN,
        };
        Printer {
            format: *format,
            palette: Palette::new(format.ascii),
            out: Buf::new(),
            base: 0,
            row: None,
            cells: 0,
            panes: [pane(), pane(), pane()],
            spans: Vec::new(),
            first: None,
            readings: format.fallback.map(|f| Readings::new(&f, format.ascii)),
            fast: None,
        }
    }

    /// A printer that takes the fast path where it can: UTF-8 rows of 4 to 32 bytes, not
    /// under `--escape` (whose text is a glyph a byte of an error unit).
    fn new_fast(format: &Format) -> Printer {
        let mut printer = Printer::new(format);
        if format.dialect == Dialect::Utf8
            && format.escape.is_none()
            && (4..=32).contains(&format.width)
        {
            printer.fast = Some(Box::new(fast::Tables::new(format)));
        }
        printer
    }

    /// Prints the rows of `bytes[window]`, where `bytes[0]` is the input's byte `base`.
    fn print(&mut self, bytes: &[u8], base: u64, window: Range<u64>) {
        self.base = base;
        match self.fast.take() {
            Some(mut tables) => {
                fast::print(self, &mut tables, bytes, window);
                self.fast = Some(tables);
            }
            None => self.visit(bytes, window),
        }
    }

    /// Prints the rows of `bytes[window]` from the cells of [`view::visit`].
    fn visit(&mut self, bytes: &[u8], window: Range<u64>) {
        let options = Options {
            cursor: None,
            glyph_at: self.first.and_then(|first| first.checked_sub(self.base)),
            escape: self.format.escape,
        };
        let (dialect, width) = (self.format.dialect, self.format.width);
        let mut sink = Sink {
            printer: self,
            bytes,
        };
        view::visit(bytes, dialect, window, width, options, &mut sink);
        self.end_row(bytes);
    }

    /// Prints the row the cells so far make, and its marker line.
    fn end_row(&mut self, bytes: &[u8]) {
        let Some(row) = self.row.take() else {
            return;
        };
        let panes = self.panes.each_ref().map(|p| (p.bytes.as_slice(), p.style));
        let missing = self.format.width - self.cells;
        let offset = self.base + row as u64;
        let digits = row_line(
            &self.format,
            &self.palette,
            &mut self.out,
            offset,
            panes,
            missing,
        );
        for pane in &mut self.panes {
            pane.bytes.clear();
            pane.style = PLAIN;
        }
        self.cells = 0;
        if self.spans.is_empty() {
            return;
        }
        // A unit's reading, where its marker's head is: its whole length if it may go on
        // past the row, else the columns it takes.
        let width = self.format.width.min(bytes.len() - row);
        let marks: Vec<Mark> = self
            .spans
            .drain(..)
            .map(|span| {
                let start = row + span.col;
                let end = if span.col + span.len >= width {
                    self.format.dialect.decode_at(bytes, start).end()
                } else {
                    start + span.len
                };
                Mark {
                    col: span.col,
                    len: span.len,
                    kind: span.kind,
                    head: span.head,
                    unit: (start, end.min(bytes.len())),
                }
            })
            .collect();
        self.marker_line(digits, &marks, bytes);
    }

    /// The line under a row with errors: markers under the hex pane (the kind's letter and
    /// `^` at a unit's first byte, `~` on the rest), the kinds on the row each named once,
    /// and the fallback readings of the units that start on it.
    fn marker_line(&mut self, digits: usize, marks: &[Mark], bytes: &[u8]) {
        let (color, palette, out) = (self.format.color, &self.palette, &mut self.out);
        let width = self.format.width;
        out.reserve(digits + 3 * width + 64 * marks.len() + 512);
        let mut style = PLAIN;
        let mut switch = |out: &mut Buf, to: StyleId| {
            let to = palette.style(to);
            if color && style != to {
                let (sgr, len) = &palette.sgr[to as usize];
                out.put(sgr, *len);
                style = to;
            }
        };
        out.repeat::<b' '>(digits + 2);
        let mut column = 0;
        for mark in marks {
            let at = 3 * mark.col;
            out.repeat::<b' '>(at - column);
            let kind = mark.kind.index();
            switch(out, MARKER + kind as StyleId);
            let n = 3 * mark.len - 1;
            out.put(&palette.marks[2 * kind + mark.head as usize], n.min(32));
            out.repeat::<b'~'>(n.saturating_sub(32));
            column = at + n;
        }
        switch(out, PLAIN);
        out.repeat::<b' '>(3 * width + 1 - column);
        let mut named = 0u32;
        for mark in marks {
            let kind = mark.kind.index();
            if named & (1 << kind) != 0 {
                continue;
            }
            if named != 0 {
                switch(out, PLAIN);
                out.put(b", ", 2);
            }
            named |= 1 << kind;
            switch(out, MARKER + kind as StyleId);
            out.extend(&palette.names[kind]);
        }
        switch(out, PLAIN);
        if let Some(readings) = &self.readings {
            readings.write(out, marks, bytes);
        }
        out.put(b"\n", 1);
    }

    fn byte(&mut self, cell: ByteCell) {
        let palette = &self.palette;
        let [hex, class, _] = &mut self.panes;
        if self.format.color {
            let role = palette.style(role_id(cell.role));
            hex.switch(palette, role);
            class.switch(
                palette,
                match cell.class {
                    Class::Error(kind) => palette.style(CLASS_ERROR + kind.index() as StyleId),
                    Class::Lead(_) => role,
                    Class::Continuation { .. } => palette.style(role_id(Role::Continuation)),
                },
            );
        }
        hex.bytes.put(&HEX_SPACE[cell.byte as usize], 3);
        let symbol = palette.class_symbol(cell.class);
        class.bytes.put(&symbol.bytes, symbol.len as usize);
        self.cells += 1;
    }

    fn text(&mut self, run: TextRun) {
        let (color, palette, text) = (self.format.color, &self.palette, &mut self.panes[2]);
        let mut rest = run.fillers();
        if let Some(glyph) = &run.glyph {
            if color {
                text.switch(palette, palette.style(glyph_id(glyph.class)));
            }
            if self.format.ascii {
                text.bytes.put(&[ascii_glyph(glyph)], 1);
                rest += run.covered();
            } else {
                text.bytes.put(glyph.padded(), glyph.len());
            }
        }
        if rest > 0 && color {
            text.switch(palette, palette.style(DIM));
        }
        for _ in 0..rest {
            text.bytes
                .put(&palette.filler.bytes, palette.filler.len as usize);
        }
    }
}

/// The cells of [`view::visit`] for [`Printer::visit`], with the slice they come from.
struct Sink<'a, 'b> {
    printer: &'a mut Printer,
    bytes: &'b [u8],
}

impl CellSink for Sink<'_, '_> {
    fn row(&mut self, offset: u64, _len: usize) {
        let p = &mut *self.printer;
        p.end_row(self.bytes);
        p.row = Some(offset as usize);
        let room = 64 * p.format.width;
        for pane in &mut p.panes {
            pane.bytes.reserve(room);
        }
    }

    fn error(&mut self, span: ErrorSpan) {
        self.printer.spans.push(span);
    }

    fn byte(&mut self, cell: ByteCell) {
        self.printer.byte(cell);
    }

    fn text(&mut self, run: TextRun) {
        self.printer.text(run);
    }
}

/// The line of a row: its offset and its three panes (each with the style it was left
/// in), `missing` columns short of the width; returns the offset's digits.
#[inline]
fn row_line(
    format: &Format,
    palette: &Palette,
    out: &mut Buf,
    offset: u64,
    panes: [(&[u8], StyleId); 3],
    missing: usize,
) -> usize {
    let len: usize = panes.iter().map(|(p, _)| p.len()).sum();
    out.reserve(len + 4 * format.width + 128);
    let reset = &palette.sgr[PLAIN as usize];
    if format.color {
        let (sgr, len) = &palette.sgr[DIM as usize];
        out.put(sgr, *len);
    }
    let digits = write_offset(out, offset);
    if format.color {
        out.put(&reset.0, reset.1);
    }
    out.put(b"  ", 2);
    for ((pane, style), gap) in panes.into_iter().zip([3 * missing + 1, missing + 2, 0]) {
        out.bytes[out.len..out.len + pane.len()].copy_from_slice(pane);
        out.len += pane.len();
        if format.color && style != PLAIN {
            out.put(&reset.0, reset.1);
        }
        out.repeat::<b' '>(gap);
    }
    out.put(b"\n", 1);
    digits
}
/// Writes `offset` in lowercase hex, at least 8 digits; returns how many.
#[inline]
fn write_offset(out: &mut Buf, offset: u64) -> usize {
    if let Ok(low) = u32::try_from(offset) {
        // The common case, four table lookups.
        let [a, b, c, d] = low.to_be_bytes().map(|byte| HEX_SPACE[byte as usize]);
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
            buf.reserve(16);
            assert_eq!(write_offset(&mut buf, offset), text.len());
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

    /// The fast path (whole rows printed from renderings of units) equals the cells printed
    /// one by one, in every dialect, width, colour and `--ascii`, on random bytes and on
    /// mixed text.
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
            printer.print(&bytes, 0, 0..bytes.len() as u64);
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
