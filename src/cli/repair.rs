//! `hexrune repair IN -o OUT [policies]`: writes a repaired copy of an input, and never the
//! input itself.
//!
//! The transformation is [`crate::repair`]'s, and so are the refusals, the atomic writes and
//! the interrupt guard ([`crate::repair::write`], which the viewer's `w` uses too); this
//! module puts them together for a command line:
//!
//! - refusals, before anything is written: OUT (or the log) is IN, by device and inode,
//!   through symlinks and hard links, also when OUT does not exist yet but its directory
//!   and name resolve to IN; an OUT or log that exists, unless `--force`; one that is a
//!   directory, device, fifo or socket, even with it (a symbolic link is judged by its
//!   target, and a copy is written through a link to a regular file); OUT on a terminal;
//! - the input: a regular file (or standard input redirected from one) is memory-mapped;
//!   a pipe or FIFO is read in chunks, so memory stays flat in the input's size (but
//!   under `--from auto`, where detection reads the whole input first);
//! - atomic writes: OUT and the log are written to temporary files beside them and renamed
//!   into place only when complete; an error drops the temporary files, and a signal that
//!   would end the process (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, ...:
//!   [`crate::repair::write::terminating_signals`]) removes them before the process ends
//!   (exit 2), so no half-written OUT is ever left;
//! - the summary on stderr (units changed by kind and how), the log (JSON Lines,
//!   [`crate::cli::wire::RepairRecord`] then one [`crate::cli::wire::ChangeRecord`] a
//!   change), and a progress bar for long runs when stderr is a terminal.
//!
//! Exit status: 0 when OUT (and the log, if asked) was written (even if the summary could
//! not be written to stderr), 2 on any error, with one line `hexrune: <file>: <cause>`. An
//! error means nothing was written, but for one: a log on stdout (`--log -`) is written
//! once OUT is in place, and where stdout fails then, OUT stays and the line says so.

use std::fs::{self, File};
use std::io::{self, IsTerminal, Read, Seek, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::{report_error, Input, EXIT_ERROR, EXIT_OK};
use crate::cli::report::hex_compact;
use crate::cli::wire::{
    to_line, C1Record, ChangeRecord, FromRecord, RegionRecord, RepairFile, RepairRecord,
};
use crate::decode::Dialect;
use crate::repair::write::{
    identity, parent, refuse_kind, refuse_output, resolves_to, Atomic, FileId, Guard, WriteError,
    EXISTS, INCOMPLETE, NOTHING_WRITTEN,
};
use crate::repair::{
    detected_regions, sniffed, Change, Engine, FromEncoding, Invalid, Output, Policy, Tally,
    SNIFF_LEN,
};
use crate::source::{Opening, Source, SourceError};

/// Inputs at least this large get a progress bar (when stderr is a terminal).
const PROGRESS_FROM: u64 = 64 << 20;

/// Where the repaired copy goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Standard output (`-o -`).
    Stdout,
    /// A path.
    Path(PathBuf),
}

impl Target {
    /// `-` is standard output; anything else a path.
    pub fn from_arg(arg: PathBuf) -> Target {
        if arg.as_os_str() == "-" {
            Target::Stdout
        } else {
            Target::Path(arg)
        }
    }

    /// The name the summary and errors give: as an input's name is given (a byte of a name
    /// that is not UTF-8 as `\xff`), so that both names of one line are spelled alike.
    fn display_name(&self) -> String {
        match self {
            Target::Stdout => "<stdout>".to_string(),
            Target::Path(p) => Input::Path(p.clone()).display_name(),
        }
    }
}

/// What `hexrune repair` was asked.
#[derive(Clone, Debug)]
pub struct RepairOptions {
    /// The input (never written).
    pub input: Input,
    /// Where the repaired copy goes.
    pub output: Target,
    /// Replace an existing OUT (and log).
    pub force: bool,
    /// Where the JSON Lines log of changes goes, if anywhere (`-`: standard output, which
    /// `-o -` must then leave free).
    pub log: Option<Target>,
    /// `--from`'s label as it was given (trimmed): the summary names it so.
    pub from_label: Option<String>,
    /// The policies.
    pub policy: Policy,
}

/// `--from` as given: the encoding, and the label as the user typed it, which the summary
/// names when a BOM overrides it (`--from utf-16` is UTF-16LE, and is said `utf-16`).
#[derive(Clone, Debug)]
pub struct FromArg {
    /// What the label names.
    pub encoding: FromEncoding,
    /// The label, without surrounding whitespace.
    pub label: String,
}

impl FromArg {
    /// [`FromEncoding::parse`], keeping the label.
    pub fn parse(text: &str) -> Result<FromArg, String> {
        Ok(FromArg {
            encoding: FromEncoding::parse(text)?,
            label: text.trim().to_string(),
        })
    }
}

/// Why a repair stopped: the file at fault and the cause.
type Failure = WriteError;

/// Repairs one input; 0 when OUT was written, 2 on any error (reported on `err`).
pub fn run(options: &RepairOptions, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<u8> {
    match repair(options, out) {
        Ok(summary) => {
            // OUT is written: a summary that cannot be told (`2>/dev/full`) does not undo
            // that, and there is nowhere left to say so.
            let _ = err.write_all(summary.as_bytes()).and_then(|()| err.flush());
            Ok(EXIT_OK)
        }
        Err(failure) => {
            report_error(err, &failure.name, &failure.cause)?;
            Ok(EXIT_ERROR)
        }
    }
}

/// The input, mapped (or read whole) or streamed.
enum Opened {
    Mapped(Source),
    Stream(Box<dyn Read>),
}

/// An opened input: its identity (for the refusals), the bytes, the mode for OUT, and its
/// size if it is mapped (for the progress bar).
///
/// The size is taken here, from the source itself, and not later by a `match` on
/// [`Opened`]: built with Rust 1.95, such a match (`Mapped(s) => Some(s.len())`) was
/// compiled into a load of the length's place through an index read from the enum before
/// its variant was known (a stream's bytes there), and every repair of a pipe died of
/// SIGBUS (test `reads_stdin_and_writes_stdout`, in release). That is an LLVM miscompile
/// of niche-encoded enums (rust-lang/rust#159035, fixed in Rust 1.97.1), not undefined
/// behaviour here; CI runs the command-line tests on the release build as the guard.
type OpenedInput = (Option<FileId>, Opened, u32, Option<u64>);

/// Opens the input ([`OpenedInput`]): what is mapped and what is streamed, `source`
/// decides (as for every command); but a stream is read `whole` into memory where asked
/// (`--from auto`: detection reads the whole input).
fn open_input(input: &Input, name: &str, whole: bool) -> Result<OpenedInput, Failure> {
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};
    let fail = |e: SourceError| Failure::new(name, e);
    let (id, mode, opening) = match input {
        Input::Path(path) => {
            let meta = fs::metadata(path).map_err(|e| fail(SourceError::of_path(path, e)))?;
            let mode = match meta.file_type().is_fifo() {
                true => 0o644,
                false => meta.permissions().mode() & 0o777,
            };
            let opening = Source::open_streaming(path).map_err(fail)?;
            (Some(identity(&meta)), mode, opening)
        }
        Input::Stdin => {
            use std::os::fd::AsFd;
            let meta = io::stdin()
                .as_fd()
                .try_clone_to_owned()
                .map(File::from)
                .and_then(|file| file.metadata())
                .map_err(|e| fail(e.into()))?;
            let opening = Source::stdin_streaming().map_err(fail)?;
            (meta.is_file().then(|| identity(&meta)), 0o644, opening)
        }
    };
    let opening = match opening {
        Opening::Stream(_) if whole => Opening::Ready(opening.read_all().map_err(fail)?),
        opening => opening,
    };
    Ok(match opening {
        Opening::Ready(source) => {
            let total = Some(source.len());
            (id, Opened::Mapped(source), mode, total)
        }
        Opening::Stream(stream) => {
            let file = stream.into_file().map_err(fail)?;
            (id, Opened::Stream(Box::new(file)), mode, None)
        }
    })
}

/// What the repair writes into: OUT, and the changes into the log's records.
struct Sink<'a> {
    out: io::BufWriter<&'a mut dyn Write>,
    records: Option<io::BufWriter<&'a mut File>>,
    /// The input's and the output's hashes, when there is a log.
    hashes: Option<(Sha256, Sha256)>,
    read: u64,
    written: u64,
    /// Which file the last error concerned: the log (true) or OUT.
    log_failed: bool,
}

impl Output for Sink<'_> {
    fn copy(&mut self, bytes: &[u8]) -> io::Result<()> {
        if let Some((input, output)) = &mut self.hashes {
            input.update(bytes);
            output.update(bytes);
        }
        self.read += bytes.len() as u64;
        self.written += bytes.len() as u64;
        self.out.write_all(bytes)
    }

    fn change(&mut self, change: &Change<'_>) -> io::Result<()> {
        if let Some((input, output)) = &mut self.hashes {
            input.update(change.old);
            output.update(change.new);
        }
        self.read += change.old.len() as u64;
        self.written += change.new.len() as u64;
        if let Some(records) = &mut self.records {
            let record = ChangeRecord {
                record: "change",
                offset: change.offset,
                len: change.old.len(),
                kind: change.kind.name(),
                old: hex_compact(change.old),
                new: hex_compact(change.new),
                why: change.action.why(),
            };
            if let Err(e) = writeln!(records, "{}", to_line(&record)) {
                self.log_failed = true;
                return Err(e);
            }
        }
        self.out.write_all(change.new)
    }

    fn decoded(&mut self, old: &[u8], new: &[u8]) -> io::Result<()> {
        if let Some((input, output)) = &mut self.hashes {
            input.update(old);
            output.update(new);
        }
        self.read += old.len() as u64;
        self.written += new.len() as u64;
        self.out.write_all(new)
    }
}

fn repair(options: &RepairOptions, stdout: &mut dyn Write) -> Result<String, Failure> {
    let in_name = options.input.display_name();
    let out_name = options.output.display_name();
    let policy = options.policy;
    Engine::new(Policy {
        from: None,
        ..policy
    })
    .map_err(|e| Failure::new(&in_name, e))?;
    // Caught from before the input is read: a signal while a stream's first bytes are
    // awaited ends the run as any other does (it ended with the signal's default).
    let what = match options.output {
        Target::Path(_) => NOTHING_WRITTEN,
        Target::Stdout => INCOMPLETE,
    };
    let guard = Guard::watch(out_name.clone(), what).map_err(|e| Failure::io(&out_name, &e))?;
    let whole = policy.from == Some(FromEncoding::Auto);
    let (id, opened, mode, total) = open_input(&options.input, &in_name, whole)?;
    let log_name = options.log.as_ref().map(Target::display_name);
    refuse(options, id, &out_name, log_name.as_deref())?;
    // Every label is overridden by a BOM that names another encoding ([`sniffed`]).
    let (opened, head) = peek(opened, &in_name)?;
    let label = options.from_label.as_deref();
    let Settled {
        policy,
        mut notes,
        overridden,
        mut reading,
    } = settle(policy, label, &opened, &head).map_err(|e| Failure::new(&in_name, e))?;
    let from = policy.from;
    let mut engine = Engine::new(policy).map_err(|e| match &overridden {
        // A refusal of the BOM's encoding (--mojibake, --invalid keep) says why it is read.
        Some(note) => Failure::new(&in_name, format!("{note}: {e}")),
        None => Failure::new(&in_name, e),
    })?;

    let out_file = match &options.output {
        Target::Path(p) => Some(Atomic::create(p)?),
        Target::Stdout => None,
    };
    let mut log = match &options.log {
        Some(Target::Path(p)) => {
            // The log's own file first: a directory that takes no new files is said so.
            let atomic = Atomic::create(p)?;
            let records = tempfile::tempfile_in(parent(p))
                .map_err(|e| Failure::io(log_name.as_deref().unwrap_or_default(), &e))?;
            Some((Some(atomic), records))
        }
        Some(Target::Stdout) => {
            let records = tempfile::tempfile()
                .map_err(|e| Failure::io(log_name.as_deref().unwrap_or_default(), &e))?;
            Some((None, records))
        }
        None => None,
    };

    let (read, written, hashes) = {
        let mut out_handle;
        let out: &mut dyn Write = match &out_file {
            Some(atomic) => {
                out_handle = atomic.file();
                &mut out_handle
            }
            None => stdout,
        };
        let mut sink = Sink {
            out: io::BufWriter::with_capacity(1 << 20, out),
            records: log.as_mut().map(|(_, r)| io::BufWriter::new(r)),
            hashes: options.log.as_ref().map(|_| (Sha256::new(), Sha256::new())),
            read: 0,
            written: 0,
            log_failed: false,
        };
        let bar = progress_bar(total);
        let tick = |done: u64| {
            if let Some(bar) = &bar {
                bar.set_position(done);
            }
            Ok(())
        };
        let result = match opened {
            Opened::Mapped(ref source) => {
                source.advise(crate::source::Access::Sequential);
                // The pages behind the repair are let go of: resident memory stays flat.
                let mut released = 0;
                let tick = |done: u64| {
                    let done = done as usize;
                    if done - released >= 16 << 20 {
                        source.release(released..done);
                        released = done;
                    }
                    tick(done as u64)
                };
                engine
                    .repair_slice(source.bytes(), &mut sink, tick)
                    .and_then(|()| source.check_intact().map_err(io::Error::other))
            }
            Opened::Stream(reader) => engine.repair_reader(&mut Reading(reader), &mut sink, tick),
        };
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        let flushed = result.and_then(|()| sink.out.flush());
        let flushed = flushed.and_then(|()| match &mut sink.records {
            Some(r) => r.flush().inspect_err(|_| sink.log_failed = true),
            None => Ok(()),
        });
        if let Err(e) = flushed {
            let name = if sink.log_failed {
                log_name.clone().unwrap_or_default()
            } else if is_write_error(&e) {
                out_name.clone()
            } else {
                in_name.clone()
            };
            return Err(failure_of(&name, &e));
        }
        (sink.read, sink.written, sink.hashes)
    };

    // Everything is written: only renames are left; an interrupt waits for a rename in
    // progress (`Atomic::persist` holds the registry of temporary files across it).
    let mut log_to_stdout = None;
    if let (Some((atomic, mut records)), Some((input, output))) = (log, hashes) {
        let header = RepairRecord {
            record: "repair",
            input: RepairFile {
                path: options.input.wire_path(),
                size: read,
                sha256: hex_compact(&input.finalize()),
            },
            output: RepairFile {
                path: match &options.output {
                    Target::Stdout => super::wire::WirePath::from_bytes(b"<stdout>"),
                    Target::Path(p) => Input::Path(p.clone()).wire_path(),
                },
                size: written,
                sha256: hex_compact(&output.finalize()),
            },
            from: reading.take().map(|mut from| {
                from.c1 = engine
                    .tally()
                    .filled_holes()
                    .iter()
                    .map(|&(b, count)| C1Record {
                        byte: format!("{b:02x}"),
                        read_as: format!("U+{b:04X}"),
                        count,
                    })
                    .collect();
                from
            }),
        };
        match atomic {
            Some(atomic) => {
                let name = atomic.name().to_string();
                let mut file = atomic.file();
                write_log(&mut file, &header, &mut records).map_err(|e| Failure::io(&name, &e))?;
                atomic.persist(options.force, 0o644)?;
            }
            // Written once OUT is in place: a log on stdout tells of an OUT that exists.
            None => log_to_stdout = Some((header, records)),
        }
    }
    if let Some(atomic) = out_file {
        atomic.persist(options.force, mode)?;
    }
    if let Some((header, mut records)) = log_to_stdout {
        // OUT is in place, whole, and stays: the one line says so, and exit 2 says that
        // the log asked for is missing (or cut short).
        write_log(stdout, &header, &mut records)
            .and_then(|()| stdout.flush())
            .map_err(|e| {
                let failure = Failure::io(log_name.as_deref().unwrap_or_default(), &e);
                Failure::new(
                    &failure.name,
                    format!(
                        "{}; {out_name} was written whole, its log was not",
                        failure.cause
                    ),
                )
            })?;
    }
    drop(guard);
    notes.extend(filled_holes(from, engine.tally()));
    let mut text = summary(&in_name, &out_name, read, written, engine.tally());
    if let Some(end) = text.find('\n') {
        let lines: String = notes.iter().map(|n| format!("{:13}{n}\n", "")).collect();
        text.insert_str(end + 1, &lines);
    }
    Ok(text)
}

/// The log: its first record, then the change records gathered in `records`.
fn write_log(out: &mut dyn Write, header: &RepairRecord, records: &mut File) -> io::Result<()> {
    writeln!(out, "{}", to_line(header))?;
    records.rewind()?;
    io::copy(records, out).map(drop)
}

/// The first bytes of the input (up to [`SNIFF_LEN`], fewer at its end), for the BOM
/// that may override `--from` or show that the input is no UTF-8: of a stream, read and
/// put back in front.
fn peek(opened: Opened, in_name: &str) -> Result<(Opened, Vec<u8>), Failure> {
    match opened {
        Opened::Mapped(source) => {
            let head = source.bytes()[..source.bytes().len().min(SNIFF_LEN)].to_vec();
            Ok((Opened::Mapped(source), head))
        }
        Opened::Stream(mut reader) => {
            let mut head = Vec::with_capacity(SNIFF_LEN);
            (&mut reader)
                .take(SNIFF_LEN as u64)
                .read_to_end(&mut head)
                .map_err(|e| failure_of(in_name, &io::Error::other(SourceError::from(e))))?;
            let again = io::Cursor::new(head.clone()).chain(reader);
            Ok((Opened::Stream(Box::new(again)), head))
        }
    }
}

/// How much of a file repaired without `--from` [`other_encoding`] reads.
const HINT_BYTES: usize = 64 << 10;

/// For a file repaired as UTF-8 (no `--from`) with `--invalid fallback=ENC`, the lines
/// that say what the fallback leaves, from detection over the whole input (as `--from
/// auto` reads it): the characters of the regions of ENC that are also UTF-8 (`Ці` in
/// windows-1251 is `D6 B3`, UTF-8's U+05B3) stay as UTF-8 reads them, and regions of
/// another encoding are not converted ([`unconverted`]). `None` where `invalid` is no
/// fallback, or detection names neither UTF-8 nor ENC for the input (then
/// [`other_encoding`] speaks).
fn fallback_note(bytes: &[u8], policy: &Policy) -> Option<Vec<String>> {
    let Invalid::Fallback(fallback) = policy.invalid else {
        return None;
    };
    if policy.dialect != Dialect::Utf8 || policy.mojibake {
        return None;
    }
    let crate::repair::Detected { found, others, .. } =
        crate::repair::detected_regions(bytes).ok()?;
    let utf8 = FromEncoding::Dialect(Dialect::Utf8);
    if found == utf8 {
        let mut lines = unconverted(&others, utf8, policy.invalid, bytes);
        lines.extend(mojibake_note_of(bytes, policy));
        return Some(lines);
    }
    // The whole input is of the fallback's encoding: so are its characters that read as
    // UTF-8.
    if found.name() != fallback.name() {
        return None;
    }
    Some(also_utf8_note(bytes, fallback.name()).into_iter().collect())
}

/// `detect finds windows-1251 in the whole input: 3 characters in it are also UTF-8 and
/// stay so: give --from windows-1251 (or --from auto) to convert it whole`, for an input
/// of `encoding` read as UTF-8 with a fallback; `None` where no character is.
fn also_utf8_note(bytes: &[u8], encoding: &str) -> Option<String> {
    let (are, stay) = match also_utf8(bytes) {
        0 => return None,
        1 => ("1 character in it is".to_string(), "stays"),
        n => (format!("{n} characters in it are"), "stay"),
    };
    Some(format!(
        "detect finds {encoding} in the whole input: {are} also UTF-8 and {stay} so: give \
         --from {} (or --from auto) to convert it whole",
        encoding.to_ascii_lowercase()
    ))
}

/// For a file repaired as UTF-8 (no `--from`), the summary's note where detection finds
/// its [`HINT_BYTES`] ([`head_detection`]) in another encoding that `--from` can read (UTF-16 without a
/// BOM, windows-1252, Shift_JIS ...): repaired as UTF-8, its text would be lost to U+FFFD
/// and NUL bytes. Not where `invalid` already reads the error units in that encoding
/// (`--invalid fallback=windows-1252`), nor for a legacy encoding guessed from fewer than
/// [`crate::detect::WEAK_GUESS_BYTES`] non-ASCII bytes.
fn other_encoding(bytes: &[u8], policy: &Policy) -> Option<String> {
    let (window, detection) = head_detection(bytes);
    if detection.encoding == "UTF-8" {
        return mojibake_note(&detection, &window, policy);
    }
    let head = window.bytes;
    let found = detection.encoding;
    let Ok(FromEncoding::Dialect(read)) = FromEncoding::parse(found) else {
        return None; // binary, or nothing `--from` reads
    };
    // A dialect of the UTF-8 family is a note only where none was given.
    if Dialect::UTF8_FAMILY.contains(&read)
        && (read == Dialect::Utf8 || policy.dialect != Dialect::Utf8)
    {
        return None;
    }
    if matches!(policy.invalid, Invalid::Fallback(f) if f.name() == found) {
        return None;
    }
    // A legacy encoding guessed from a few bytes is a weak guess (detect says so): a short
    // UTF-8 text with errors reads as one as well.
    let non_ascii = head.iter().filter(|b| !b.is_ascii()).count();
    if !found.starts_with("UTF-") && non_ascii < crate::detect::WEAK_GUESS_BYTES {
        return None;
    }
    let within = window.within();
    // A dialect of the UTF-8 family is named as `--dialect` takes it (`RFC 2279` is
    // `legacy`), as detect's evidence names it.
    let give = match Dialect::UTF8_FAMILY.contains(&read) {
        true => format!("--dialect {}", read.name()),
        false => format!("--from {}", found.to_ascii_lowercase()),
    };
    // A UTF-8 mark overrides any `--from`: only `auto` reads the mark apart.
    if crate::decode::Bom::starts_utf8(bytes) && !Dialect::UTF8_FAMILY.contains(&read) {
        return Some(format!(
            "detect finds {found}{within} after its UTF-8 BOM, not UTF-8: give --from auto \
             to convert it (the BOM overrides --from {})",
            found.to_ascii_lowercase()
        ));
    }
    Some(format!(
        "detect finds {found}{within}, not UTF-8: give {give} (or --from auto) to convert it"
    ))
}

/// For a file read as UTF-8 without `--mojibake`, the summary's note where detection finds
/// mojibake in its [`HINT_BYTES`] (`detection`, of the bytes of `window`): read as
/// UTF-8 it is valid, and repaired so it changes nothing, though `detect` shows text that
/// went through a wrong decoding. The first region is named with its repair.
fn mojibake_note(
    detection: &crate::detect::Detection,
    window: &Window<'_>,
    policy: &Policy,
) -> Option<String> {
    if policy.mojibake || policy.dialect != Dialect::Utf8 {
        return None;
    }
    let first = detection.mojibake.first()?;
    let n = detection.mojibake.len();
    let within = window.within();
    let text: String = first.text.chars().take(40).collect();
    let more = match first.text.chars().count() > 40 {
        true => "...",
        false => "",
    };
    Some(format!(
        "detect finds {n} mojibake {}{within} (the first at {}: {} -> \"{}{more}\"): give \
         --mojibake to undo them",
        if n == 1 { "region" } else { "regions" },
        window.start + first.start,
        crate::repair::history(first.chain_names().into_iter()),
        crate::view::safe::sanitize(&text)
    ))
}

/// [`mojibake_note`] for an input `--from auto` reads as UTF-8.
fn mojibake_note_of(bytes: &[u8], policy: &Policy) -> Option<String> {
    let (window, detection) = head_detection(bytes);
    mojibake_note(&detection, &window, policy)
}

/// The [`HINT_BYTES`] of `bytes` a hint is judged on, and what `detect` finds in them: from
/// the start of the line of the first byte that is not ASCII (an export sorted by id puts
/// its accented rows anywhere; its ASCII start says nothing), or from the input's start.
fn head_detection(bytes: &[u8]) -> (Window<'_>, crate::detect::Detection) {
    let range = crate::detect::hint_window(bytes, HINT_BYTES);
    let head = &bytes[range.clone()];
    let summary = crate::scan::index::Summary::build_parallel(Dialect::Utf8, head);
    let window = Window {
        start: range.start,
        bytes: head,
        whole: head.len() == bytes.len(),
    };
    (window, crate::detect::detect(head, &summary))
}

/// The bytes a hint is judged on ([`head_detection`]).
struct Window<'a> {
    /// Where they start in the input.
    start: usize,
    bytes: &'a [u8],
    /// Whether they are the whole input.
    whole: bool,
}

impl Window<'_> {
    /// ` in its first 64 KiB`, ` in the 64 KiB from offset 190000`, or nothing for the
    /// whole input.
    fn within(&self) -> String {
        match (self.whole, self.start) {
            (true, _) => String::new(),
            (false, 0) => " in its first 64 KiB".to_string(),
            (false, at) => format!(" in the 64 KiB from offset {at}"),
        }
    }
}

/// For `--from` UTF-16 or UTF-32 in one byte order (`utf-16` is UTF-16LE, as WHATWG reads
/// it) on an input with no byte order mark whose zero bytes are where the other order puts
/// them: the note that says so, and what converts it (it would be read as CJK nonsense,
/// with nothing changed).
fn other_byte_order(named: Dialect, head: &[u8]) -> Option<String> {
    if crate::decode::Bom::detect(head).is_some() {
        return None;
    }
    let wide = crate::detect::zero_pattern(head)?;
    let (asked, other) = (named.encoding_name(), wide.name());
    let same_width = named.code_unit_width() == Some(wide.unit());
    (same_width && asked != other).then(|| {
        format!(
            "its zero bytes are where {other} puts them, not {asked}: give --from {} (or \
             --from auto) to convert it",
            other.to_ascii_lowercase()
        )
    })
}

/// What [`settle`] made of `--from`.
struct Settled {
    /// The policy with `--from` as the input is read.
    policy: Policy,
    /// The lines the summary gives under its first.
    notes: Vec<String>,
    /// The note that says a BOM overrode the label, if one did.
    overridden: Option<String>,
    /// How the input is read, for the log's first record (under `--from`).
    reading: Option<FromRecord>,
}

/// `--from` settled on the input: `auto` by detection (on a mapped input), a label
/// overridden by a BOM that names another encoding ([`sniffed`]); and the lines the
/// summary gives under its first: what the input was read as, and why (the label named
/// as it was given, `label`), and the regions of another encoding detection found that
/// the reading does not convert.
fn settle(
    policy: Policy,
    label: Option<&str>,
    opened: &Opened,
    head: &[u8],
) -> Result<Settled, String> {
    let mut notes = Vec::new();
    let mut overridden = None;
    let mut reading = None;
    let label_given = |named: &str| label.unwrap_or(named).to_string();
    let from = match (opened, policy.from) {
        (Opened::Mapped(source), Some(FromEncoding::Auto)) => {
            let crate::repair::Detected {
                found,
                others,
                doubt,
            } = detected_regions(source.bytes())?;
            notes.push(format!(
                "read as {} (--from auto: what detect finds)",
                found.name()
            ));
            if let Some(doubt) = &doubt {
                notes.push(format!(
                    "detect doubts it ({doubt}): look over OUT, or give --from LABEL"
                ));
            }
            let legacy = matches!(
                found,
                FromEncoding::Dialect(Dialect::SingleByte(_) | Dialect::MultiByte(_))
            );
            let bom = legacy
                && crate::decode::Bom::detect(source.bytes()) == Some(crate::decode::Bom::Utf8);
            if bom {
                notes.push(format!(
                    "its first bytes EF BB BF are UTF-8's BOM, read as U+FEFF (not as {} text)",
                    found.name()
                ));
            }
            notes.extend(unconverted(&others, found, policy.invalid, source.bytes()));
            if found == FromEncoding::Dialect(Dialect::Utf8) {
                notes.extend(mojibake_note_of(source.bytes(), &policy));
            }
            reading = Some(FromRecord {
                encoding: found.name(),
                source: "auto",
                label: label_given("auto"),
                doubt,
                bom: bom.then_some("UTF-8"),
                c1: Vec::new(),
                others: others
                    .iter()
                    .flat_map(|(encoding, ranges)| {
                        ranges.iter().map(|&(start, end)| RegionRecord {
                            start: start as u64,
                            end: end as u64,
                            encoding,
                        })
                    })
                    .collect(),
            });
            Some(found)
        }
        (_, Some(FromEncoding::Dialect(named))) => {
            let read = sniffed(named, head);
            reading = Some(FromRecord {
                encoding: read.encoding_name(),
                source: if read != named { "bom" } else { "label" },
                label: label_given(named.encoding_name()),
                doubt: None,
                bom: None,
                others: Vec::new(),
                c1: Vec::new(),
            });
            if read != named {
                let note = format!(
                    "read as {} (its BOM overrides --from {})",
                    read.encoding_name(),
                    label.unwrap_or(named.encoding_name())
                );
                notes.push(note.clone());
                overridden = Some(note);
                // A UTF-8 mark before text that is not UTF-8 (a CSV template saved "with
                // BOM", rows appended by a legacy exporter): the label was right for the
                // text, and `auto` reads the mark apart.
                if let (Dialect::Utf8, Opened::Mapped(source)) = (read, opened) {
                    let mark = '\u{FEFF}'.len_utf8();
                    let rest = source.bytes().get(mark..).unwrap_or_default();
                    if simdutf8::basic::from_utf8(rest).is_err() {
                        notes.push(format!(
                            "after its BOM the input is not UTF-8: give --from auto to read \
                             the BOM as U+FEFF and the rest as detect finds it (it finds {})",
                            crate::repair::detected_regions(source.bytes())
                                .map_or("no text".to_string(), |d| d.found.name().to_string())
                        ));
                    }
                }
            } else if !Dialect::UTF8_FAMILY.contains(&named) {
                // A label that is another name of the encoding says whose name it is
                // (`iso-8859-1` is windows-1252 to WHATWG, `utf-16` UTF-16LE).
                let name = named.encoding_name();
                let alias = label.filter(|l| !l.trim().eq_ignore_ascii_case(name));
                notes.push(match alias {
                    Some(l) => format!(
                        "read as {name} (what the WHATWG Encoding Standard reads the label {} as)",
                        crate::view::safe::sanitize(l.trim())
                    ),
                    None => format!("read as {name}"),
                });
                notes.extend(other_byte_order(named, head));
            }
            Some(FromEncoding::Dialect(read))
        }
        (_, None) => {
            // Read as UTF-8 as asked; but a UTF-16 or UTF-32 mark says that is not what it is.
            use crate::decode::Bom;
            if let Some(bom @ (Bom::Utf16Le | Bom::Utf16Be | Bom::Utf32Le | Bom::Utf32Be)) =
                Bom::detect(head)
            {
                let read = sniffed(policy.dialect, head);
                notes.push(format!(
                    "it starts with a {}, so it is not UTF-8: give --from {} (or --from auto) to convert it",
                    bom.describe(),
                    read.encoding_name().to_ascii_lowercase()
                ));
            } else if let Opened::Mapped(source) = opened {
                match fallback_note(source.bytes(), &policy) {
                    Some(lines) => notes.extend(lines),
                    None => notes.extend(other_encoding(source.bytes(), &policy)),
                }
            }
            None
        }
        // `open_input` reads a stream whole for `--from auto`, so this is not met.
        (Opened::Stream(_), Some(FromEncoding::Auto)) => {
            return Err("--from auto reads its input whole, and this one was not".into())
        }
    };
    if let (true, Opened::Mapped(source)) = (policy.mojibake, opened) {
        notes.extend(lost_mojibake_note(source.bytes()));
    }
    Ok(Settled {
        policy: Policy { from, ..policy },
        notes,
        overridden,
        reading,
    })
}

/// Under `--mojibake`, the characters of mojibake that lost a byte before the input was
/// written (`Ñ` and U+FFFD, where `я`'s `8F` was dropped; `â€` and U+FFFD, where `”`'s
/// `9D` was): no repair gives them back, and they are left as they are.
fn lost_mojibake_note(bytes: &[u8]) -> Option<String> {
    let replacements = memchr::memmem::find_iter(bytes, "\u{FFFD}".as_bytes());
    let (count, first, name) = crate::detect::lost_characters(bytes, replacements)?;
    Some(format!(
        "{count} {} of mojibake lost a byte before this input was written (U+FFFD right \
         after a UTF-8 lead byte read as {name}, or a lead and too few continuation \
         bytes, the first at {}): left as {}",
        if count == 1 {
            "character"
        } else {
            "characters"
        },
        first.start,
        if count == 1 { "it is" } else { "they are" },
    ))
}

/// The characters beyond ASCII of `bytes` that are well-formed UTF-8: what a fallback,
/// which reads error units only, leaves as UTF-8 reads them.
fn also_utf8(bytes: &[u8]) -> usize {
    bytes
        .utf8_chunks()
        .map(|chunk| chunk.valid().chars().filter(|c| !c.is_ascii()).count())
        .sum()
}

/// A line for each encoding of `others` (detection's regions of an encoding other than
/// the one read, with their offsets, in `bytes`): where they are, and what to give to
/// convert them. A fallback reads only a region's error units: its characters that are
/// also well-formed UTF-8 (`Её` in windows-1251 is `C5 B8`, UTF-8's `Ÿ`) stay as UTF-8
/// reads them, and the line says how many.
fn unconverted(
    others: &[(&'static str, Vec<(usize, usize)>)],
    read: FromEncoding,
    invalid: Invalid,
    bytes: &[u8],
) -> Vec<String> {
    const SHOWN: usize = 3;
    let mut lines = Vec::new();
    for (encoding, ranges) in others {
        let single_byte = matches!(
            FromEncoding::parse(encoding),
            Ok(FromEncoding::Dialect(Dialect::SingleByte(_)))
        );
        let by_fallback = single_byte && read == FromEncoding::Dialect(Dialect::Utf8);
        // The region's pieces that UTF-8 reads as characters: a fallback leaves them.
        let as_utf8: usize = match by_fallback {
            true => ranges
                .iter()
                .map(|&(start, end)| also_utf8(&bytes[start..end.min(bytes.len())]))
                .sum(),
            false => 0,
        };
        let asked = matches!(invalid, Invalid::Fallback(f) if f.name() == *encoding);
        if asked && as_utf8 == 0 {
            continue; // what was asked reads the region's error units in it, and all else is ASCII
        }
        let mut at: Vec<String> = ranges
            .iter()
            .take(SHOWN)
            .map(|(start, end)| format!("{start}..{end}"))
            .collect();
        if ranges.len() > SHOWN {
            at.push(format!("{} more", ranges.len() - SHOWN));
        }
        let stay = match as_utf8 {
            1 => "1 character in it is also UTF-8 and stays so".to_string(),
            n => format!("{n} characters in it are also UTF-8 and stay so"),
        };
        let whole = format!("repair that part alone with --from {encoding} to read it whole");
        let (head, what) = match (by_fallback, asked, as_utf8) {
            (true, true, _) => ("read by --invalid fallback", format!("{stay}: {whole}")),
            (true, false, 0) => (
                "not converted",
                format!("give --invalid fallback={encoding} to read its error units in {encoding}"),
            ),
            (true, false, _) => (
                "not converted",
                format!("give --invalid fallback={encoding} to read its error units in {encoding} ({stay}), or {whole}"),
            ),
            (false, ..) => ("not converted", format!("repair that part alone with --from {encoding}")),
        };
        lines.push(format!(
            "{head}: detect also found {encoding} at {}, read here as {}; {what}",
            at.join(", "),
            read.name()
        ));
    }
    lines
}

/// A streamed input whose errors say they are the input's (a write error carries none).
struct Reading(Box<dyn Read>);

impl Read for Reading {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        self.0.read(buffer).map_err(|e| match e.kind() {
            io::ErrorKind::Interrupted => e,
            _ => io::Error::other(SourceError::from(e)),
        })
    }
}

/// Whether an error came from writing (the input's errors are read errors or SIGBUS).
fn is_write_error(e: &io::Error) -> bool {
    e.get_ref().is_none()
}

fn failure_of(name: &str, e: &io::Error) -> Failure {
    match e.get_ref() {
        Some(inner) => Failure::new(name, inner),
        None => Failure::io(name, e),
    }
}

/// The refusals: OUT or the log is IN, the log is OUT, or one of them exists without
/// `--force`.
fn refuse(
    options: &RepairOptions,
    input: Option<FileId>,
    out_name: &str,
    log_name: Option<&str>,
) -> Result<(), Failure> {
    let same_as_input = |path: &Path| input.is_some_and(|id| resolves_to(path, id));
    match &options.output {
        Target::Path(path) => refuse_output(path, out_name, input, options.force)?,
        Target::Stdout if io::stdout().is_terminal() => {
            return Err(Failure::new(
                out_name,
                "is a terminal; repair writes bytes, not a view (pipe them, or use -o FILE)",
            ));
        }
        Target::Stdout if stdout_is(input) => {
            return Err(Failure::new(
                out_name,
                "is the input; repair never writes its input",
            ));
        }
        Target::Stdout => {}
    }
    // `--log - >> IN`: the shell made standard output the input.
    if options.log == Some(Target::Stdout) && stdout_is(input) {
        return Err(Failure::new(
            "<stdout>",
            "is the input; the log must be another file",
        ));
    }
    if let (Some(Target::Stdout), Target::Stdout) = (&options.log, &options.output) {
        return Err(Failure::new(
            "<stdout>",
            "is the output (-o -); give --log a file, or -o a file to have the log on stdout",
        ));
    }
    if let (Some(Target::Path(path)), Some(name)) = (&options.log, log_name) {
        if same_as_input(path) {
            return Err(Failure::new(
                name,
                "is the input; the log must be another file",
            ));
        }
        if let Target::Path(out) = &options.output {
            let out_id = fs::metadata(out).ok().map(|m| identity(&m));
            let same = out_id.is_some_and(|id| resolves_to(path, id))
                || fs::canonicalize(parent(out))
                    .ok()
                    .map(|d| d.join(out.file_name().unwrap_or_default()))
                    == fs::canonicalize(parent(path))
                        .ok()
                        .map(|d| d.join(path.file_name().unwrap_or_default()));
            if same {
                return Err(Failure::new(
                    name,
                    "is the output; the log must be another file",
                ));
            }
        }
        refuse_kind(path, name)?;
        if !options.force && fs::symlink_metadata(path).is_ok() {
            return Err(Failure::new(name, EXISTS));
        }
    }
    Ok(())
}

/// Whether standard output is the file `input` names (a redirection to the input, `>> IN`).
fn stdout_is(input: Option<FileId>) -> bool {
    use std::os::fd::AsFd;
    let stdout = io::stdout().as_fd().try_clone_to_owned().map(File::from);
    match (input, stdout.and_then(|f| f.metadata())) {
        (Some(id), Ok(meta)) => meta.is_file() && identity(&meta) == id,
        _ => false,
    }
}

fn progress_bar(total: Option<u64>) -> Option<indicatif::ProgressBar> {
    if !io::stderr().is_terminal() || total.is_some_and(|t| t < PROGRESS_FROM) {
        return None;
    }
    let target = indicatif::ProgressDrawTarget::stderr();
    let bar = match total {
        Some(len) => {
            let bar = indicatif::ProgressBar::with_draw_target(Some(len), target);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "repair {bar:40} {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} eta {eta}",
            ) {
                bar.set_style(style);
            }
            bar
        }
        None => {
            let bar = indicatif::ProgressBar::with_draw_target(None, target);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "repair {spinner} {binary_bytes} {binary_bytes_per_sec}",
            ) {
                bar.set_style(style);
            }
            bar
        }
    };
    Some(bar)
}

/// The note on the bytes of 80..9F that the code page IN was read in leaves undefined,
/// read as C1 controls as WHATWG decoders read them: in text that is really in that code
/// page they do not occur, so they say that part of IN is something else (or damaged).
///
/// ```text
/// 3 bytes windows-1252 leaves undefined (81 9D) were read as C1 controls (U+0081 U+009D),
/// as WHATWG decoders read them; other decoders refuse them: look over OUT
/// ```
fn filled_holes(from: Option<FromEncoding>, tally: &Tally) -> Option<String> {
    let holes = tally.filled_holes();
    let Some(FromEncoding::Dialect(read)) = from else {
        return None;
    };
    if holes.is_empty() {
        return None;
    }
    let count: u64 = holes.iter().map(|&(_, n)| n).sum();
    let bytes: Vec<String> = holes.iter().map(|(b, _)| format!("{b:02X}")).collect();
    let controls: Vec<String> = holes.iter().map(|(b, _)| format!("U+{b:04X}")).collect();
    Some(format!(
        "{count} {} {} leaves undefined ({}) {} ({}), as WHATWG decoders read them; other \
         decoders refuse them: look over OUT",
        if count == 1 { "byte" } else { "bytes" },
        read.encoding_name(),
        bytes.join(" "),
        if count == 1 {
            "was read as a C1 control"
        } else {
            "were read as C1 controls"
        },
        controls.join(" ")
    ))
}

/// The summary on stderr: what was written, then a line per kind of unit and how it was
/// changed (or counted and kept).
fn summary(input: &str, output: &str, read: u64, written: u64, tally: &Tally) -> String {
    let changed = tally.changed();
    let bytes = |n: u64| format!("{n} {}", if n == 1 { "byte" } else { "bytes" });
    let mut text = format!(
        "repair: {input} ({}) -> {output} ({}): {changed} {} changed\n",
        bytes(read),
        bytes(written),
        if changed == 1 { "unit" } else { "units" }
    );
    for (kind, action, count) in tally.rows() {
        text.push_str(&format!(
            "  {count:>10} {:<24} {}\n",
            kind.name(),
            action.done()
        ));
    }
    text
}
