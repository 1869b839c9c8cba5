//! The bytes of one input: a read-only memory map of a regular file, or an owned buffer for
//! stdin, pipes and the files of /proc; an empty file is no bytes, its file kept open so
//! that it is seen to grow ([`Source::grown`]), as a mapped one is.
//!
//! Most of hexrune's `unsafe` code is here (the map and the SIGBUS guard); the rest is SIMD
//! intrinsics (the scan, the lints' sieve) and single system calls elsewhere. It knows
//! nothing of decoding.
//!
//! # A file truncated while it is mapped
//!
//! Reading a mapped page that lies past a file's new end raises SIGBUS, which would kill the
//! process. [`Source::open`] registers every map in a small process-wide table and installs,
//! once, a SIGBUS handler: when the faulting address lies in a registered map, the handler
//! maps a page of zeros over the faulting page (so the read that faulted completes, seeing
//! zeros) and marks the map as damaged; a fault anywhere else is handed to the previous
//! handler (by default, the process dies as it would have). Callers ask
//! [`Source::check_intact`] after reading to learn whether what they read can be trusted.
//!
//! # Standard input and FIFOs
//!
//! What is not a regular file is read to its end. [`Source::open`] and [`Source::stdin`]
//! do so at once (the commands); the viewer asks [`Source::open_streaming`] and
//! [`Source::stdin_streaming`] instead, which hand such an input back as a [`Stream`], to
//! be read on a worker thread ([`Stream::start`]) while the screen says how far it got. A
//! stream is read up to a bound ([`stream_bound`]: the smaller of 4 GiB and a quarter of
//! the machine's memory), so that `yes | hexrune` stops there instead of growing until
//! the system ends it; the source then says it holds the input's start only
//! ([`Source::partial`]).
//!
//! # Files of /proc and /sys
//!
//! A regular file that says it is empty, or that cannot be mapped (most files of /proc
//! and /sys), is read into memory to its end, but never more than [`UNSIZED_BOUND`]
//! (64 MiB): past it the input is refused with [`SourceError::Unsized`]. Some such
//! files never end, or end only after gigabytes (`/proc/self/pagemap`, 8 bytes for each
//! page of the address space; `/proc/kcore`), and would be read until the system ran out
//! of memory; the text files among them (`/proc/self/status`, `/proc/cpuinfo`,
//! `/proc/kallsyms`) are far below the bound.
//!
//! hexrune never writes to an input: files are opened read-only (with `O_NOATIME` where the
//! kernel allows it, so not even the access time changes) and mapped `PROT_READ`.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, IsTerminal, Read};
use std::os::fd::AsFd;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Once;
use std::time::SystemTime;

use memmap2::{Advice, Mmap, UncheckedAdvice};

/// Why an input could not be opened or read. Messages are lowercase, without the OS error
/// number, ready to follow `hexrune: <file>: `.
#[derive(Debug)]
pub enum SourceError {
    /// The path does not exist.
    NotFound,
    /// The path is a symbolic link whose target does not exist.
    DanglingLink,
    /// The path exists but may not be read.
    PermissionDenied,
    /// The path is a directory.
    IsDirectory,
    /// The path is a device or socket, which hexrune does not read (it could block or never
    /// end); the string names what it is.
    NotRegular(&'static str),
    /// The file shrank while it was mapped: some bytes read as zeros.
    Changed,
    /// The file was written to while it was mapped: its size or its modification time is
    /// not what it was when it was opened ([`Source::check_unchanged`]).
    Rewritten,
    /// A regular file with no size to go by (a file of /proc or /sys, which says it is
    /// empty or cannot be mapped) gave more than this many bytes ([`UNSIZED_BOUND`]).
    Unsized(u64),
    /// Any other I/O error.
    Io(io::Error),
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SourceError::NotFound => f.write_str("no such file or directory"),
            SourceError::DanglingLink => f.write_str("symbolic link whose target is missing"),
            SourceError::PermissionDenied => f.write_str("permission denied"),
            SourceError::IsDirectory => f.write_str("is a directory"),
            SourceError::NotRegular(what) => write!(f, "not a regular file ({what})"),
            SourceError::Changed => {
                f.write_str("the file changed while it was being read (it was truncated)")
            }
            SourceError::Rewritten => f.write_str(
                "the file changed while it was being read (it was written to: its size or \
                 modification time moved)",
            ),
            SourceError::Unsized(bound) => write!(
                f,
                "gave more than {} MiB with no size to go by (a file of /proc or /sys that may \
                 never end), the most hexrune reads of such a file",
                bound >> 20
            ),
            SourceError::Io(e) => f.write_str(&io_message(e)),
        }
    }
}

impl std::error::Error for SourceError {}

impl SourceError {
    /// The error of asking for `path` what it is (following links): `e`, or, where the path
    /// is a symbolic link whose target is missing, [`SourceError::DanglingLink`], which
    /// says more than "no such file or directory" of a path that is there.
    pub fn of_path(path: &Path, e: io::Error) -> SourceError {
        match e.kind() == io::ErrorKind::NotFound && std::fs::read_link(path).is_ok() {
            true => SourceError::DanglingLink,
            false => SourceError::from(e),
        }
    }
}

impl From<io::Error> for SourceError {
    fn from(e: io::Error) -> SourceError {
        match e.kind() {
            io::ErrorKind::NotFound => SourceError::NotFound,
            io::ErrorKind::PermissionDenied => SourceError::PermissionDenied,
            io::ErrorKind::IsADirectory => SourceError::IsDirectory,
            _ => SourceError::Io(e),
        }
    }
}

/// An I/O error's message, lowercase at the start and without " (os error N)".
pub fn io_message(e: &io::Error) -> String {
    let text = e.to_string();
    let text = match text.find(" (os error") {
        Some(i) => &text[..i],
        None => &text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// How a reader is about to walk a mapped source; passed to the kernel as advice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Front to back, once (a whole-file scan): read ahead aggressively.
    Sequential,
    /// Jumps (a viewer): read only what is touched.
    Random,
}

/// The bytes of one input.
pub struct Source {
    name: String,
    bytes: Bytes,
    /// What a mapped (or empty) file was when it was opened, from the open file.
    stamp: Option<Stamp>,
    /// The standing advice: [`Access::Random`] once [`Source::advise`] said so.
    random: AtomicBool,
    /// Why a stream's bytes are its start only, if they are.
    partial: Option<Partial>,
}

/// What an open regular file says of itself, from one `fstat`: what [`Source::written`],
/// [`Source::replaced_at`] and [`Source::check_unchanged`] compare with later.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    /// Device and inode: which file it is, whatever path names it now.
    id: (u64, u64),
}

impl Stamp {
    fn of(meta: &std::fs::Metadata) -> Stamp {
        use std::os::unix::fs::MetadataExt;
        Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
            id: (meta.dev(), meta.ino()),
        }
    }
}

/// Why a source read from a stream holds only the stream's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Partial {
    /// Reading stopped at the bound, this many bytes ([`stream_bound`]).
    Bound(u64),
    /// The user asked to see what had been read before the stream ended.
    Stopped,
}

/// An input that is not a regular file, not yet read ([`Source::open_streaming`]).
pub struct Stream {
    name: String,
    from: StreamFrom,
}

/// Where a stream's bytes come from.
enum StreamFrom {
    /// An open file (standard input).
    File(File),
    /// A FIFO not yet opened: opening one waits for a writer, so it is opened where the
    /// reading is done ([`Stream::start`] does so on its worker).
    Fifo(std::path::PathBuf),
}

impl StreamFrom {
    /// The file to read, opened if need be (which may wait for a FIFO's writer).
    fn open(self) -> Result<File, SourceError> {
        match self {
            StreamFrom::File(file) => Ok(file),
            StreamFrom::Fifo(path) => Ok(open_read_only(&path)?),
        }
    }
}

/// How an opened input gives its bytes.
pub enum Opening {
    /// At once: a mapped file, or an input already read.
    Ready(Source),
    /// A pipe or FIFO, to be read to its end ([`Stream::start`]).
    Stream(Stream),
}

impl Opening {
    /// The source, a stream read to its end on this thread (no bound: the commands' way).
    pub fn read_all(self) -> Result<Source, SourceError> {
        match self {
            Opening::Ready(source) => Ok(source),
            Opening::Stream(stream) => Source::read_all(stream.name, stream.from.open()?),
        }
    }
}

/// The most bytes read of a regular file that gives no size to go by: one that says it
/// is empty, or cannot be mapped (the files of /proc and /sys). 64 MiB: the kernel's text
/// files are far smaller (`/proc/kallsyms`, among the largest, is a few MiB), and
/// `/proc/self/pagemap`, which goes on for gigabytes, is refused after 64 MiB read, in a
/// fraction of a second.
pub const UNSIZED_BOUND: u64 = 64 << 20;

/// The bytes of `file` from where it is to its end, if that is at most `bound` bytes
/// away; [`SourceError::Unsized`] once more come (at most `bound` plus 64 KiB are read).
/// `expected` is room to make at once (the size the file says it has).
///
/// Every read asks for 64 KiB: `/proc/self/pagemap` refuses (`EINVAL`) a read whose
/// length is not a multiple of 8, so the read is never cut to the byte at the bound.
pub fn read_to_bound(
    mut file: impl Read,
    bound: u64,
    expected: usize,
) -> Result<Vec<u8>, SourceError> {
    const CHUNK: usize = 64 << 10;
    let mut bytes = Vec::with_capacity(expected);
    let mut chunk = vec![0; CHUNK];
    loop {
        match file.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(n) => append(&mut bytes, &chunk[..n])?,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        }
        if bytes.len() as u64 > bound {
            return Err(SourceError::Unsized(bound));
        }
    }
}

/// Appends `more` to `bytes`, room made with `try_reserve` (which grows the buffer
/// geometrically, as `extend_from_slice` does): an allocation that fails is
/// "out of memory" ([`io::ErrorKind::OutOfMemory`]), as `read_to_end` reports it for the
/// commands, never an abort of the process (which would leave the viewer's terminal in
/// raw mode, on the alternate screen).
pub fn append(bytes: &mut Vec<u8>, more: &[u8]) -> Result<(), SourceError> {
    bytes
        .try_reserve(more.len())
        .map_err(|_| SourceError::Io(io::ErrorKind::OutOfMemory.into()))?;
    bytes.extend_from_slice(more);
    Ok(())
}

/// The most bytes the viewer reads of a stream: the smaller of 4 GiB and a quarter of the
/// machine's physical memory, and at least 64 MiB.
pub fn stream_bound() -> u64 {
    const MAX: u64 = 4 << 30;
    const MIN: u64 = 64 << 20;
    // SAFETY: sysconf has no preconditions.
    let pages = unsafe { libc::sysconf(libc::_SC_PHYS_PAGES) };
    if pages <= 0 {
        return MAX;
    }
    (pages as u64 * page_size() as u64 / 4).clamp(MIN, MAX)
}

/// Where a stream being read is, shared between its reader thread and the viewer.
#[derive(Default)]
struct Fill {
    bytes: std::sync::Mutex<Vec<u8>>,
    read: std::sync::atomic::AtomicU64,
    /// Set by the reader when it ends: at the end of the stream, at the bound, or on error.
    ended: std::sync::OnceLock<Result<bool, String>>,
    stop: AtomicBool,
}

/// A stream being read on a worker thread ([`Stream::start`]).
pub struct Reading {
    name: String,
    bound: u64,
    fill: std::sync::Arc<Fill>,
}

/// How a [`Reading`] ended, as far as it has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadState {
    /// Still reading.
    Reading,
    /// The stream ended: every byte is read.
    Ended,
    /// The bound was reached.
    Bound,
    /// Reading failed; the message is lowercase.
    Failed(String),
}

impl Stream {
    /// The name to show for it (`<stdin>`, or the FIFO's path).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The file to read the stream from, on this thread (a FIFO is opened now, which
    /// waits for a writer): for a command that reads it in chunks as it goes.
    pub fn into_file(self) -> Result<File, SourceError> {
        self.from.open()
    }

    /// Starts reading the stream on a thread of its own, up to `bound` bytes (a FIFO is
    /// opened there, as opening one waits for a writer). Returns at once; a read that blocks (a producer that writes nothing for a while) blocks only
    /// that thread, and is left behind if the viewer ends meanwhile.
    pub fn start(self, bound: u64) -> Reading {
        let fill = std::sync::Arc::new(Fill::default());
        let shared = std::sync::Arc::clone(&fill);
        let from = self.from;
        std::thread::spawn(move || {
            let mut file = match from.open() {
                Ok(file) => file,
                Err(e) => {
                    let _ = shared.ended.set(Err(e.to_string()));
                    return;
                }
            };
            let mut chunk = vec![0; 256 << 10];
            let outcome = loop {
                if shared.stop.load(Ordering::Relaxed) {
                    break Ok(false);
                }
                let have = shared.read.load(Ordering::Relaxed);
                if have >= bound {
                    break Ok(true);
                }
                let want = chunk.len().min((bound - have) as usize);
                match file.read(&mut chunk[..want]) {
                    Ok(0) => break Ok(false),
                    Ok(n) => {
                        let mut bytes = shared.bytes.lock().unwrap_or_else(|e| e.into_inner());
                        if let Err(e) = append(&mut bytes, &chunk[..n]) {
                            break Err(e.to_string());
                        }
                        shared.read.store(bytes.len() as u64, Ordering::Relaxed);
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => break Err(SourceError::from(e).to_string()),
                }
            };
            let _ = shared.ended.set(outcome);
        });
        Reading {
            name: self.name,
            bound,
            fill,
        }
    }
}

impl Reading {
    /// The name of the stream.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Bytes read so far.
    pub fn read_so_far(&self) -> u64 {
        self.fill.read.load(Ordering::Relaxed)
    }

    /// The bound it stops at.
    pub fn bound(&self) -> u64 {
        self.bound
    }

    /// Whether it is still reading, and how it ended if not.
    pub fn state(&self) -> ReadState {
        match self.fill.ended.get() {
            None => ReadState::Reading,
            Some(Ok(false)) => ReadState::Ended,
            Some(Ok(true)) => ReadState::Bound,
            Some(Err(e)) => ReadState::Failed(e.clone()),
        }
    }

    /// The source of what has been read. Before the stream has ended, reading stops and
    /// what came so far is the source ([`Partial::Stopped`]); at the bound, the source
    /// says so ([`Partial::Bound`]). A read that failed is `Err`.
    pub fn finish(self) -> Result<Source, SourceError> {
        self.fill.stop.store(true, Ordering::Relaxed);
        let partial = match self.state() {
            ReadState::Reading => Some(Partial::Stopped),
            ReadState::Ended => None,
            ReadState::Bound => Some(Partial::Bound(self.bound)),
            ReadState::Failed(e) => return Err(SourceError::Io(io::Error::other(e))),
        };
        let bytes = std::mem::take(&mut *self.fill.bytes.lock().unwrap_or_else(|e| e.into_inner()));
        let mut source = Source::from_bytes(self.name, bytes);
        source.partial = partial;
        Ok(source)
    }
}

enum Bytes {
    Mapped {
        map: Mmap,
        file: File,
        slot: usize,
    },
    /// A regular file that was empty when it was read: nothing to map (a map of 0 bytes
    /// is refused), but the open file, asked what size it has now.
    Empty {
        file: File,
    },
    Owned(Vec<u8>),
}

impl Source {
    /// Opens a path read-only. A regular file is memory-mapped (any size; one that says it
    /// is empty, or cannot be mapped, as the files of /proc and /sys, is read to its end,
    /// if that comes within [`UNSIZED_BOUND`] bytes, else [`SourceError::Unsized`]);
    /// a FIFO is read to its end; the null device is the empty
    /// input it always reads as; directories, other devices and sockets are refused with an
    /// error.
    pub fn open(path: &Path) -> Result<Source, SourceError> {
        Source::open_streaming(path)?.read_all()
    }

    /// [`Source::open`], a FIFO handed back unread, as a [`Stream`].
    pub fn open_streaming(path: &Path) -> Result<Opening, SourceError> {
        let name = path.display().to_string();
        // stat before open: opening a FIFO or a device can block or have effects.
        let meta = std::fs::metadata(path).map_err(|e| SourceError::of_path(path, e))?;
        let kind = meta.file_type();
        if kind.is_dir() {
            return Err(SourceError::IsDirectory);
        }
        if is_null_device(&meta) {
            return Ok(Opening::Ready(Source::from_bytes(name, Vec::new())));
        }
        if !(kind.is_file() || kind.is_fifo()) {
            return Err(SourceError::NotRegular(describe_file_type(&kind)));
        }
        if kind.is_fifo() {
            let from = StreamFrom::Fifo(path.to_path_buf());
            return Ok(Opening::Stream(Stream { name, from }));
        }
        let file = open_read_only(path)?;
        Source::from_file(name, file).map(Opening::Ready)
    }

    /// The standard input: mapped when it is a regular file, read to its end otherwise;
    /// the null device is the empty input, and another device is refused (as a named one
    /// is), but a terminal.
    pub fn stdin() -> Result<Source, SourceError> {
        Source::stdin_streaming()?.read_all()
    }

    /// [`Source::stdin`], a pipe handed back unread, as a [`Stream`].
    pub fn stdin_streaming() -> Result<Opening, SourceError> {
        let name = String::from("<stdin>");
        let file = File::from(io::stdin().as_fd().try_clone_to_owned()?);
        let meta = file.metadata()?;
        let kind = meta.file_type();
        if kind.is_file() {
            return Source::from_file(name, file).map(Opening::Ready);
        }
        if kind.is_dir() {
            return Err(SourceError::IsDirectory);
        }
        // A device is judged as a named one is (`< /dev/zero` would be read forever): the
        // null device is the empty input; any other is refused, but a terminal, which the
        // user ends with Ctrl-D.
        if is_null_device(&meta) {
            return Ok(Opening::Ready(Source::from_bytes(name, Vec::new())));
        }
        if (kind.is_char_device() || kind.is_block_device()) && !io::stdin().is_terminal() {
            return Err(SourceError::NotRegular(describe_file_type(&kind)));
        }
        let from = StreamFrom::File(file);
        Ok(Opening::Stream(Stream { name, from }))
    }

    /// A source over bytes already in memory (tests, the embedded demo).
    pub fn from_bytes(name: impl Into<String>, bytes: Vec<u8>) -> Source {
        Source {
            name: name.into(),
            bytes: Bytes::Owned(bytes),
            stamp: None,
            random: AtomicBool::new(false),
            partial: None,
        }
    }

    /// Why this source holds only the start of its stream, if it does.
    pub fn partial(&self) -> Option<Partial> {
        self.partial
    }

    /// This source marked as the start of its stream only (tests).
    pub fn with_partial(mut self, partial: Option<Partial>) -> Source {
        self.partial = partial;
        self
    }

    fn read_all(name: String, mut file: File) -> Result<Source, SourceError> {
        let mut buffer = Vec::new();
        file.read_to_end(&mut buffer)?;
        Ok(Source::from_bytes(name, buffer))
    }

    /// A regular file with no size to go by, read to its end within [`UNSIZED_BOUND`].
    fn read_unsized(name: String, file: File) -> Result<Source, SourceError> {
        Ok(Source::from_bytes(
            name,
            read_to_bound(file, UNSIZED_BOUND, 0)?,
        ))
    }

    fn from_file(name: String, file: File) -> Result<Source, SourceError> {
        let meta = file.metadata()?;
        if meta.len() == 0 {
            // An empty file reads as nothing at once; a file of /proc says 0 bytes and
            // has text, which only reading finds, or never ends (/proc/self/pagemap).
            let buffer = read_to_bound(&file, UNSIZED_BOUND, 0)?;
            if !buffer.is_empty() {
                return Ok(Source::from_bytes(name, buffer));
            }
            // Kept open, as a map keeps its file: a log not yet written to is seen to
            // grow, and a record of it (W, check) to have changed.
            return Ok(Source {
                name,
                bytes: Bytes::Empty { file },
                stamp: Some(Stamp::of(&meta)),
                random: AtomicBool::new(false),
                partial: None,
            });
        }
        install_sigbus_handler();
        // SAFETY: memmap2 requires that the mapped file is not modified or truncated while the
        // map lives, which hexrune cannot promise for a file someone else owns. What remains
        // true: the map is read-only (PROT_READ, never written through), and its bytes are
        // only ever read as plain `u8`, which every bit pattern is, so a concurrent change of
        // the contents shows up as different bytes, never as undefined values. A truncation
        // would raise SIGBUS on the pages past the new end; the handler installed above
        // replaces such a page with zeros and records the damage, which `check_intact`
        // reports. The slice handed out lives no longer than `self`, and the map is
        // unregistered before it is unmapped (see `Drop`).
        let map = match unsafe { Mmap::map(&file) } {
            Ok(map) => map,
            // A file of /sys says 4096 bytes and cannot be mapped: read it.
            Err(e) if e.raw_os_error() == Some(libc::ENODEV) => {
                return Source::read_unsized(name, file)
            }
            Err(e) => return Err(e.into()),
        };
        let slot = register(map.as_ptr() as usize, map.len());
        Ok(Source {
            name,
            bytes: Bytes::Mapped { map, file, slot },
            stamp: Some(Stamp::of(&meta)),
            random: AtomicBool::new(false),
            partial: None,
        })
    }

    /// The name to show for this input (the path as given, or `<stdin>`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// All the bytes of the input.
    pub fn bytes(&self) -> &[u8] {
        match &self.bytes {
            Bytes::Mapped { map, .. } => map,
            Bytes::Empty { .. } => &[],
            Bytes::Owned(v) => v,
        }
    }

    /// The length in bytes.
    pub fn len(&self) -> u64 {
        self.bytes().len() as u64
    }

    /// Whether the input is empty.
    pub fn is_empty(&self) -> bool {
        self.bytes().is_empty()
    }

    /// The file's size on disk now, where it is more than the source holds: a mapped file,
    /// or a file that was empty, that grew while it was shown (a log written to). `None`
    /// otherwise, and for bytes read into memory. One `fstat`.
    pub fn grown(&self) -> Option<u64> {
        let now = self.file()?.metadata().ok()?.len();
        (now > self.len()).then_some(now)
    }

    /// The open regular file the bytes are of (mapped, or empty), if they are.
    fn file(&self) -> Option<&File> {
        match &self.bytes {
            Bytes::Mapped { file, .. } | Bytes::Empty { file } => Some(file),
            Bytes::Owned(_) => None,
        }
    }

    /// Whether the input is a memory map (rather than a buffer in memory).
    pub fn is_mapped(&self) -> bool {
        matches!(self.bytes, Bytes::Mapped { .. })
    }

    /// Tells the kernel how the bytes are about to be read. Advice only: errors are ignored.
    pub fn advise(&self, access: Access) {
        self.random
            .store(access == Access::Random, Ordering::Relaxed);
        if let Bytes::Mapped { map, .. } = &self.bytes {
            let advice = match access {
                Access::Sequential => Advice::Sequential,
                Access::Random => Advice::Random,
            };
            let _ = map.advise(advice);
        }
    }

    /// Tells the kernel that `range` is about to be read front to back, and to start
    /// reading it now (`MADV_SEQUENTIAL` then `MADV_WILLNEED`): a scan calls it ahead of
    /// itself, so that a cold file arrives in large reads even in a viewer whose standing
    /// advice is [`Access::Random`] (under which the kernel reads one page per fault:
    /// 135 MB/s against 830 MB/s measured on a cold 256 MiB file). [`Source::release`]
    /// puts the standing advice back. Advice only: errors are ignored, and an owned buffer
    /// is left as it is.
    pub fn prefetch(&self, range: std::ops::Range<usize>) {
        let Bytes::Mapped { map, .. } = &self.bytes else {
            return;
        };
        let end = range.end.min(map.len());
        if range.start < end {
            let _ = map.advise_range(Advice::Sequential, range.start, end - range.start);
            let _ = map.advise_range(Advice::WillNeed, range.start, end - range.start);
        }
    }

    /// Lets go of this process's mappings of the pages of `range` (widened to whole pages):
    /// they stop counting in its resident memory and are read again (from the page cache,
    /// or the file) when next touched. A whole-file scan calls it behind itself, so that
    /// scanning a 16 GiB file does not leave 16 GiB resident. Advice only: errors are
    /// ignored, and an owned buffer is left as it is.
    pub fn release(&self, range: std::ops::Range<usize>) {
        let Bytes::Mapped { map, .. } = &self.bytes else {
            return;
        };
        let end = range.end.min(map.len());
        if range.start >= end {
            return;
        }
        // SAFETY: MADV_DONTNEED on a shared, read-only file mapping only drops page-table
        // entries: the next read of those pages faults them in again from the page cache
        // or the file, with the same contents (the contract stated in `from_file` about a
        // file changed by someone else is unchanged). No memory is freed that a slice
        // could still point into: the mapping itself stays, and nothing was ever written
        // through it. A page the SIGBUS handler replaced with zeros (a private anonymous
        // page) reads as zeros again after it, so the damage record stays true.
        let _ = unsafe {
            map.unchecked_advise_range(UncheckedAdvice::DontNeed, range.start, end - range.start)
        };
        if self.random.load(Ordering::Relaxed) {
            let _ = map.advise_range(Advice::Random, range.start, end - range.start);
        }
    }

    /// Whether everything read so far is what the file held: `Err(Changed)` if the file
    /// shrank while mapped (a page past its new end was touched, or its size is now smaller
    /// than the map).
    pub fn check_intact(&self) -> Result<(), SourceError> {
        let Bytes::Mapped { map, file, slot } = &self.bytes else {
            return Ok(());
        };
        let faulted = region(*slot).faulted.load(Ordering::SeqCst);
        let shrunk = file.metadata().map(|m| m.len() < map.len() as u64)?;
        if faulted || shrunk {
            return Err(SourceError::Changed);
        }
        Ok(())
    }
}

impl Source {
    /// When a mapped (or empty) file was last modified, as it said when it was opened
    /// (`None` for bytes read into memory, or where the file system keeps no time).
    pub fn modified(&self) -> Option<SystemTime> {
        self.stamp.and_then(|stamp| stamp.modified)
    }

    /// [`Source::check_intact`], and that a mapped file (or an empty one) was not written
    /// to since it was opened: its size and modification time are still those it had
    /// then, else `Err(Rewritten)`. What a record of the bytes read (a hash, a verdict)
    /// asks before it is given: in place, a write shows through the map, so the bytes read
    /// may mix old and new.
    pub fn check_unchanged(&self) -> Result<(), SourceError> {
        self.check_intact()?;
        let (Some(file), Some(stamp)) = (self.file(), self.stamp) else {
            return Ok(());
        };
        let now = file.metadata()?;
        if now.len() != stamp.len || now.modified().ok() != stamp.modified {
            return Err(SourceError::Rewritten);
        }
        Ok(())
    }

    /// Whether a mapped (or empty) file was written to in place since it was opened: its
    /// size is the one it had then, but its modification time moved (`touch` moves it
    /// too). A write shows through the map, so the bytes shown are then the new ones
    /// where it wrote. One `fstat`; `false` for bytes read into memory. The status change
    /// time is not asked: a rename or an unlink of the file (a log rotated) moves it with
    /// no byte changed, and so would be said to be a write; a writer that sets the
    /// modification time back is not seen, as by [`Source::check_unchanged`]. A file that
    /// grew or shrank is [`Source::grown`]'s and [`Source::check_intact`]'s to tell.
    pub fn written(&self) -> bool {
        let (Some(file), Some(stamp)) = (self.file(), self.stamp) else {
            return false;
        };
        let Ok(now) = file.metadata() else {
            return false;
        };
        now.len() == stamp.len && now.modified().ok() != stamp.modified
    }

    /// What `path` names now, against the file this source opened (one `stat`): the same
    /// file, another (replaced by a rename, `mv new file`, as editors and `logrotate` do:
    /// its device or inode differs), or nothing (removed, or renamed away with nothing in
    /// its place yet, as between a rotation's two steps). The source still holds the file
    /// it opened, unchanged. `None` for bytes read into memory, and where the path cannot
    /// be asked (no permission).
    pub fn path_now(&self, path: &Path) -> Option<PathNow> {
        let stamp = self.stamp.filter(|_| self.file().is_some())?;
        match std::fs::metadata(path) {
            Ok(now) if Stamp::of(&now).id != stamp.id => Some(PathNow::Replaced),
            Ok(_) => Some(PathNow::Same),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Some(PathNow::Removed),
            Err(_) => None,
        }
    }

    /// Whether `path` now names another file than the one this source opened
    /// ([`Source::path_now`]).
    pub fn replaced_at(&self, path: &Path) -> bool {
        self.path_now(path) == Some(PathNow::Replaced)
    }
}

/// What a source's path names now ([`Source::path_now`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathNow {
    /// The file the source opened.
    Same,
    /// Another file.
    Replaced,
    /// Nothing.
    Removed,
}

impl Drop for Source {
    fn drop(&mut self) {
        if let Bytes::Mapped { slot, .. } = &self.bytes {
            unregister(*slot);
        }
    }
}

impl fmt::Debug for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Source")
            .field("name", &self.name)
            .field("len", &self.len())
            .field("mapped", &self.is_mapped())
            .finish()
    }
}

fn open_read_only(path: &Path) -> io::Result<File> {
    // O_NOATIME is refused (EPERM) on files the user does not own; fall back to a plain open.
    match OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOATIME)
        .open(path)
    {
        Err(e) if e.raw_os_error() == Some(libc::EPERM) => File::open(path),
        other => other,
    }
}

/// Whether `meta` is the null device (`/dev/null`, or another node for the same device):
/// reading it gives nothing, at once, with no effect, so it is safe to take as empty.
pub fn is_null_device(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    meta.file_type().is_char_device()
        && std::fs::metadata("/dev/null")
            .is_ok_and(|null| null.file_type().is_char_device() && null.rdev() == meta.rdev())
}

fn describe_file_type(kind: &std::fs::FileType) -> &'static str {
    if kind.is_char_device() {
        "character device"
    } else if kind.is_block_device() {
        "block device"
    } else if kind.is_socket() {
        "socket"
    } else {
        "special file"
    }
}

// ---------------------------------------------------------------------------------------
// The SIGBUS guard.

const SLOTS: usize = 64;

struct Region {
    start: AtomicUsize,
    len: AtomicUsize,
    faulted: AtomicBool,
}

#[allow(clippy::declare_interior_mutable_const)]
const EMPTY_REGION: Region = Region {
    start: AtomicUsize::new(0),
    len: AtomicUsize::new(0),
    faulted: AtomicBool::new(false),
};

/// Maps registered for the SIGBUS handler; a slot with `len == 0` is free. Atomics only, so
/// the handler can read it without locks.
static REGIONS: [Region; SLOTS] = [EMPTY_REGION; SLOTS];

static OVERFLOW: Region = EMPTY_REGION;

fn register(start: usize, len: usize) -> usize {
    for (i, region) in REGIONS.iter().enumerate() {
        if region
            .len
            .compare_exchange(0, usize::MAX, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            region.faulted.store(false, Ordering::SeqCst);
            region.start.store(start, Ordering::SeqCst);
            region.len.store(len, Ordering::SeqCst);
            return i;
        }
    }
    // More than 64 maps at once: the extra ones are not guarded, so a truncation under one
    // of them ends the process as it would without hexrune's guard. Slot index SLOTS means
    // "unguarded" and reads the OVERFLOW region, which never faults.
    SLOTS
}

fn unregister(slot: usize) {
    if let Some(region) = REGIONS.get(slot) {
        region.len.store(0, Ordering::SeqCst);
    }
}

/// The region of a slot; the unguarded slot reads a region that never faults.
fn region(slot: usize) -> &'static Region {
    REGIONS.get(slot).unwrap_or(&OVERFLOW)
}

static PREVIOUS_ACTION: AtomicUsize = AtomicUsize::new(0);
static mut PREVIOUS: std::mem::MaybeUninit<libc::sigaction> = std::mem::MaybeUninit::uninit();

fn install_sigbus_handler() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: sigaction with a zeroed, then filled, struct is the documented way to
        // install a handler; PREVIOUS is written once here, before the handler can run
        // (PREVIOUS_ACTION is set after it), and only read by the handler afterwards.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_sigbus as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_NODEFER;
            libc::sigemptyset(&mut action.sa_mask);
            let previous = &raw mut PREVIOUS;
            if libc::sigaction(libc::SIGBUS, &action, (*previous).as_mut_ptr()) == 0 {
                PREVIOUS_ACTION.store(1, Ordering::SeqCst);
            }
        }
    });
}

extern "C" fn on_sigbus(
    signal: libc::c_int,
    info: *mut libc::siginfo_t,
    context: *mut libc::c_void,
) {
    // SAFETY: the kernel passes a valid siginfo_t for a SA_SIGINFO handler.
    let address = unsafe { (*info).si_addr() } as usize;
    for region in REGIONS.iter() {
        let len = region.len.load(Ordering::SeqCst);
        let start = region.start.load(Ordering::SeqCst);
        if len == 0 || len == usize::MAX || address < start || address - start >= len {
            continue;
        }
        let page = page_size();
        let page_start = address & !(page - 1);
        // SAFETY: the page lies inside a live read-only map that hexrune owns (registered
        // and not yet unregistered), so replacing it with an anonymous zero page changes
        // nothing but the bytes a reader sees there. mmap is a plain system call on Linux.
        let replaced = unsafe {
            libc::mmap(
                page_start as *mut libc::c_void,
                page,
                libc::PROT_READ,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                -1,
                0,
            )
        };
        if replaced != libc::MAP_FAILED {
            region.faulted.store(true, Ordering::SeqCst);
            return;
        }
    }
    forward_to_previous(signal, info, context);
}

/// Not one of ours: restore what was installed before and let the fault happen again.
fn forward_to_previous(
    signal: libc::c_int,
    _info: *mut libc::siginfo_t,
    _context: *mut libc::c_void,
) {
    // SAFETY: PREVIOUS was fully written before PREVIOUS_ACTION was set to 1; restoring a
    // saved action is async-signal-safe. When the handler returns, the faulting instruction
    // runs again and raises SIGBUS under the restored action (by default: the process ends).
    unsafe {
        if PREVIOUS_ACTION.load(Ordering::SeqCst) == 1 {
            let previous = &raw const PREVIOUS;
            libc::sigaction(signal, (*previous).as_ptr(), std::ptr::null_mut());
        } else {
            libc::signal(signal, libc::SIG_DFL);
        }
    }
}

fn page_size() -> usize {
    static PAGE: AtomicUsize = AtomicUsize::new(0);
    match PAGE.load(Ordering::Relaxed) {
        0 => {
            // SAFETY: sysconf has no preconditions.
            let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
            let size = if size > 0 { size as usize } else { 4096 };
            PAGE.store(size, Ordering::Relaxed);
            size
        }
        size => size,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_failed_allocation_reads_as_out_of_memory() {
        // What `append` gives when `try_reserve` fails: the commands' words for it.
        let e = SourceError::Io(io::ErrorKind::OutOfMemory.into());
        assert_eq!(e.to_string(), "out of memory");
        let mut bytes = b"ab".to_vec();
        append(&mut bytes, b"cd").unwrap();
        assert_eq!(bytes, b"abcd");
    }

    #[test]
    fn maps_a_file_and_reads_it() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(b"caf\xC3\xA9").unwrap();
        let source = Source::open(file.path()).unwrap();
        assert!(source.is_mapped());
        assert_eq!(source.bytes(), b"caf\xC3\xA9");
        assert_eq!(source.len(), 5);
        source.check_intact().unwrap();
    }

    #[test]
    fn empty_file_is_an_empty_buffer() {
        let file = tempfile::NamedTempFile::new().unwrap();
        let source = Source::open(file.path()).unwrap();
        assert!(source.is_empty());
        assert!(!source.is_mapped());
    }

    #[test]
    fn a_read_without_a_size_stops_past_its_bound() {
        let read = |bytes: &[u8]| read_to_bound(bytes, 16, 0).map_err(|e| e.to_string());
        assert_eq!(read(&[b'a'; 16]), Ok(vec![b'a'; 16]));
        assert_eq!(read(b""), Ok(Vec::new()));
        // 16 bytes is the bound, so this says "more than 0 MiB": the bound is always
        // whole MiB outside tests.
        assert_eq!(
            read(&[b'a'; 17]),
            Err(
                "gave more than 0 MiB with no size to go by (a file of /proc or /sys that \
                 may never end), the most hexrune reads of such a file"
                    .to_string()
            )
        );
        assert_eq!(UNSIZED_BOUND, 64 << 20);
    }

    #[test]
    fn an_empty_file_that_grows_is_seen_to() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        let source = Source::open(file.path()).unwrap();
        assert_eq!(source.grown(), None);
        source.check_unchanged().unwrap();
        file.write_all(b"caf\xC3\xA9\n").unwrap();
        file.flush().unwrap();
        assert_eq!(source.grown(), Some(6));
        assert!(source.is_empty(), "the bytes shown stay what they were");
        source.check_intact().unwrap();
        assert!(matches!(
            source.check_unchanged(),
            Err(SourceError::Rewritten)
        ));
        // A file of /proc says 0 bytes and has text: read whole, and never "grown".
        let proc = Source::open(Path::new("/proc/self/status")).unwrap();
        assert_eq!(proc.grown(), None);
        proc.check_unchanged().unwrap();
    }

    #[test]
    fn refuses_what_is_not_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let message = |p: &Path| Source::open(p).unwrap_err().to_string();
        assert_eq!(message(dir.path()), "is a directory");
        assert_eq!(
            message(&dir.path().join("nope")),
            "no such file or directory"
        );
        assert_eq!(
            message(Path::new("/dev/zero")),
            "not a regular file (character device)"
        );
    }

    #[test]
    fn files_of_proc_and_sys_are_read() {
        // /proc says 0 bytes and /sys 4096, and neither can be mapped: both once read as
        // "valid utf8: 0 bytes" and "no such device".
        let source = Source::open(Path::new("/proc/self/status")).unwrap();
        assert!(
            source.bytes().starts_with(b"Name:\t"),
            "{:?}",
            source.bytes()
        );
        assert!(!source.is_mapped());
        let sys = Path::new("/sys/kernel/mm/transparent_hugepage/enabled");
        if sys.exists() {
            let source = Source::open(sys).unwrap();
            assert!(source.bytes().ends_with(b"]\n") || source.bytes().ends_with(b"never\n"));
        }
    }

    #[test]
    fn the_null_device_is_empty() {
        let source = Source::open(Path::new("/dev/null")).unwrap();
        assert!(source.is_empty());
    }

    #[test]
    fn survives_truncation_while_mapped() {
        let page = page_size();
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(&vec![b'x'; page * 4]).unwrap();
        file.flush().unwrap();
        let source = Source::open(file.path()).unwrap();
        assert_eq!(source.bytes()[page * 3], b'x');
        source.check_intact().unwrap();

        file.as_file().set_len(page as u64).unwrap();
        // Reading past the new end would raise SIGBUS; the guard turns the page into zeros.
        let tail: u64 = source.bytes()[page * 2..].iter().map(|b| *b as u64).sum();
        assert_eq!(tail, 0);
        assert_eq!(source.bytes()[0], b'x');
        assert!(matches!(source.check_intact(), Err(SourceError::Changed)));
        assert_eq!(
            source.check_intact().unwrap_err().to_string(),
            "the file changed while it was being read (it was truncated)"
        );
    }

    #[test]
    fn a_write_while_mapped_is_found() {
        use std::os::unix::fs::FileExt;
        let page = page_size();
        let start = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
        for write in ["in place", "appended", "touched"] {
            let mut file = tempfile::NamedTempFile::new().unwrap();
            file.write_all(&vec![b'x'; page * 2]).unwrap();
            file.as_file().set_modified(start).unwrap();
            let source = Source::open(file.path()).unwrap();
            assert_eq!(source.modified(), Some(start));
            source.check_unchanged().unwrap();
            let later = start + std::time::Duration::from_nanos(1);
            match write {
                "in place" => {
                    file.as_file().write_at(b"\xFF", 10).unwrap();
                    file.as_file().set_modified(later).unwrap();
                    assert_eq!(source.bytes()[10], 0xFF, "a write shows through the map");
                }
                "appended" => {
                    file.as_file().write_at(b"\xFF", (page * 2) as u64).unwrap();
                    file.as_file().set_modified(start).unwrap();
                }
                _ => file.as_file().set_modified(later).unwrap(),
            }
            source.check_intact().unwrap();
            let e = source.check_unchanged().unwrap_err();
            assert!(matches!(e, SourceError::Rewritten), "{write}");
            assert_eq!(
                e.to_string(),
                "the file changed while it was being read (it was written to: its size or \
                 modification time moved)"
            );
        }
        // Bytes read into memory stay what they were.
        let source = Source::from_bytes("b", b"abc".to_vec());
        assert_eq!(source.modified(), None);
        source.check_unchanged().unwrap();
    }

    #[test]
    fn a_write_in_place_and_a_replacement_are_told() {
        use std::os::unix::fs::FileExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.txt");
        std::fs::write(&path, b"hello world\n").unwrap();
        // In the past, so that the write below moves the modification time, however
        // coarse the file system's clock.
        let past = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
        File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(past)
            .unwrap();
        let source = Source::open(&path).unwrap();
        assert!(!source.written());
        assert!(!source.replaced_at(&path));
        // Renamed away and back (a rotation's first step): no byte changed, nothing said.
        let aside = dir.path().join("f.txt.1");
        std::fs::rename(&path, &aside).unwrap();
        assert!(!source.written());
        assert!(!source.replaced_at(&path), "nothing at the path");
        std::fs::rename(&aside, &path).unwrap();
        assert!(!source.replaced_at(&path));
        // The same size, one byte changed: seen through the map, and told.
        let writer = File::options().write(true).open(&path).unwrap();
        writer.write_at(b"\xFF", 6).unwrap();
        assert_eq!(&source.bytes()[..8], b"hello \xFFo");
        assert!(source.written());
        assert_eq!(source.grown(), None);
        source.check_intact().unwrap();
        assert!(!source.replaced_at(&path), "the same file");
        // A new file renamed over the path: the source keeps the one it opened.
        let new = dir.path().join("new.txt");
        std::fs::write(&new, b"another file, longer\n").unwrap();
        std::fs::rename(&new, &path).unwrap();
        assert!(source.replaced_at(&path));
        assert_eq!(source.len(), 12);
        assert_eq!(&source.bytes()[..8], b"hello \xFFo", "the file opened");
        // Removed: nothing names another file (yet).
        std::fs::remove_file(&path).unwrap();
        assert!(!source.replaced_at(&path));
        // Bytes read into memory are neither.
        let owned = Source::from_bytes("b", b"abc".to_vec());
        assert!(!owned.written());
        assert!(!owned.replaced_at(&dir.path().join("anything")));
    }

    /// A pipe: its read end as a [`Stream`], its write end.
    fn pipe() -> (Stream, File) {
        use std::os::fd::FromRawFd;
        let mut fds = [0; 2];
        // SAFETY: pipe writes two new descriptors into the array, which are owned here.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        let (read, write) = unsafe { (File::from_raw_fd(fds[0]), File::from_raw_fd(fds[1])) };
        let stream = Stream {
            name: "<stdin>".to_string(),
            from: StreamFrom::File(read),
        };
        (stream, write)
    }

    fn wait_for(reading: &Reading, until: impl Fn(&Reading) -> bool) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !until(reading) {
            assert!(
                std::time::Instant::now() < deadline,
                "{:?}",
                reading.state()
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    #[test]
    fn a_stream_is_read_to_its_end() {
        let (stream, mut writer) = pipe();
        let reading = stream.start(1 << 20);
        writer.write_all(b"slow \xFF start\n").unwrap();
        wait_for(&reading, |r| r.read_so_far() == 13);
        assert_eq!(reading.state(), ReadState::Reading);
        drop(writer);
        wait_for(&reading, |r| r.state() != ReadState::Reading);
        assert_eq!(reading.state(), ReadState::Ended);
        let source = reading.finish().unwrap();
        assert_eq!(source.bytes(), b"slow \xFF start\n");
        assert_eq!(source.partial(), None);
        assert_eq!(source.name(), "<stdin>");
    }

    #[test]
    fn a_stream_stops_at_the_bound() {
        let (stream, mut writer) = pipe();
        let reading = stream.start(1000);
        // More than the bound, from a producer that never ends (`yes`).
        std::thread::spawn(move || while writer.write_all(b"y\n").is_ok() {});
        wait_for(&reading, |r| r.state() != ReadState::Reading);
        assert_eq!(reading.state(), ReadState::Bound);
        assert_eq!(reading.read_so_far(), 1000);
        let source = reading.finish().unwrap();
        assert_eq!(source.len(), 1000);
        assert_eq!(&source.bytes()[..4], b"y\ny\n");
        assert_eq!(source.partial(), Some(Partial::Bound(1000)));
    }

    #[test]
    fn a_stream_still_open_gives_what_came_so_far() {
        let (stream, mut writer) = pipe();
        let reading = stream.start(1 << 20);
        writer.write_all(b"tail -f").unwrap();
        wait_for(&reading, |r| r.read_so_far() == 7);
        let source = reading.finish().unwrap();
        assert_eq!(source.bytes(), b"tail -f");
        assert_eq!(source.partial(), Some(Partial::Stopped));
        drop(writer);
    }

    #[test]
    fn a_fifo_is_opened_where_it_is_read() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fifo");
        let c_path = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
        // SAFETY: mkfifo reads a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
        // No writer yet: opening it would wait, so opening the input does not.
        let Opening::Stream(stream) = Source::open_streaming(&path).unwrap() else {
            panic!("a FIFO is a stream");
        };
        let reading = stream.start(1 << 20);
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert_eq!(reading.state(), ReadState::Reading);
        std::fs::write(&path, b"fifo \xC0\xAF\n").unwrap();
        wait_for(&reading, |r| r.state() != ReadState::Reading);
        assert_eq!(reading.finish().unwrap().bytes(), b"fifo \xC0\xAF\n");
    }

    #[test]
    fn the_stream_bound_is_within_its_limits() {
        let bound = stream_bound();
        assert!((64 << 20..=4 << 30).contains(&bound), "{bound}");
    }

    #[test]
    fn io_messages_lose_the_os_error_number() {
        let e = io::Error::from_raw_os_error(libc::EIO);
        assert_eq!(io_message(&e), "input/output error");
    }
}
