//! What every command shares: an input named on the command line, the exit codes, and the
//! one-line error report `hexrune: <file>: <cause>`.

use std::io::{self, Write};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

use super::wire::WirePath;
use crate::repair::write::{identity, FileId};
use crate::source::{is_null_device, Source, SourceError};
use crate::view::safe::{path_name, sanitize};

/// The cause of a refusal of `offset` in an input of `len` bytes, where no byte is: at its
/// end, or past it, with where its last byte is (`offset 16 is the end of the input (16
/// bytes, the last at offset 15)`).
pub fn no_byte_at(offset: u64, len: u64) -> String {
    match len {
        0 => format!("the input is empty: there is no byte at offset {offset}"),
        _ if offset == len => {
            format!(
                "offset {offset} is the end of the input ({len} bytes, the last at offset {})",
                len - 1
            )
        }
        _ => format!(
            "offset {offset} is past the end of the input ({len} bytes, the last at offset {})",
            len - 1
        ),
    }
}

/// Exit code: everything asked about is fine.
pub const EXIT_OK: u8 = 0;
/// Exit code: an input holds invalid data.
pub const EXIT_INVALID: u8 = 1;
/// Exit code: a usage or I/O error.
pub const EXIT_ERROR: u8 = 2;

/// An input named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// The standard input (`-`, or no file at all).
    Stdin,
    /// A path.
    Path(PathBuf),
}

impl Input {
    /// `-` is the standard input; anything else a path.
    pub fn from_arg(arg: PathBuf) -> Input {
        if arg.as_os_str() == "-" {
            Input::Stdin
        } else {
            Input::Path(arg)
        }
    }

    /// Opens the input.
    pub fn open(&self) -> Result<Source, SourceError> {
        match self {
            Input::Stdin => Source::stdin(),
            Input::Path(p) => Source::open(p),
        }
    }

    /// Opens the input, a pipe or FIFO left unread (the viewer reads it while it shows
    /// how far it got).
    pub fn open_streaming(&self) -> Result<crate::source::Opening, SourceError> {
        match self {
            Input::Stdin => Source::stdin_streaming(),
            Input::Path(p) => Source::open_streaming(p),
        }
    }

    /// The name to print for this input, made safe for a terminal: a byte of a name that
    /// is not UTF-8 as `\xff`, so that it cannot be taken for a U+FFFD in the name, and a
    /// backslash as `\\`, so that it cannot be taken for another name. A file
    /// named `<stdin>` is printed `./<stdin>`, so that it cannot be taken for standard input.
    pub fn display_name(&self) -> String {
        match self {
            Input::Stdin => "<stdin>".to_string(),
            Input::Path(p) if p.as_os_str() == "<stdin>" => "./<stdin>".to_string(),
            Input::Path(p) => crate::view::safe::path_name(p),
        }
    }

    /// The name of this input as JSON records carry it: the exact name, with its bytes in
    /// base64 as well where it is not UTF-8.
    pub fn wire_path(&self) -> WirePath {
        match self {
            Input::Stdin => WirePath::from_bytes(b"<stdin>"),
            Input::Path(p) => WirePath::from_bytes(&path_bytes(p)),
        }
    }
}

/// Why two of the files named on a command line cannot both be read, if two cannot: they
/// are one input that can be read only once, so the second would be read empty (or, a
/// FIFO opened again, wait for a writer that may never come). Standard input is named
/// twice when `-` is given twice, or `-` and a path that is the same open file
/// (`/dev/stdin`, `/dev/fd/0`, `/proc/self/fd/0`, a FIFO it was redirected from), or two
/// such paths; any other pipe or FIFO when two paths are the same file (`/dev/fd/3` and
/// `/proc/self/fd/3`). Files are compared by device and inode (following links); a
/// regular file can be mapped again, and naming it twice is no error.
///
/// The cause reads `standard input ('-') is named more than once; it can be read only
/// once` for `- -`, `standard input is named more than once ('-' and '/dev/stdin'); it can
/// be read only once` where another name is standard input, and `'a' and 'b' are the same
/// pipe or fifo; it can be read only once` otherwise.
pub fn named_twice(files: &[PathBuf]) -> Option<String> {
    if files.iter().filter(|f| f.as_os_str() == "-").count() >= 2 {
        return Some(
            "standard input ('-') is named more than once; it can be read only once".to_string(),
        );
    }
    let stdin = stdin_stream_id();
    let mut seen: Vec<(&Path, Once)> = Vec::new();
    for file in files {
        let once = match file.as_os_str() == "-" {
            true => Some(Once::Stdin),
            false => std::fs::metadata(file).ok().and_then(|meta| {
                let id = identity(&meta);
                let is_stdin = Some(id) == stdin;
                read_once(&meta, is_stdin).then_some(match is_stdin {
                    true => Once::Stdin,
                    false => Once::File(id),
                })
            }),
        };
        let Some(once) = once else { continue };
        if let Some((first, _)) = seen.iter().find(|(_, other)| *other == once) {
            let (first, second) = (path_name(first), path_name(file));
            return Some(match once {
                Once::Stdin => format!(
                    "standard input is named more than once ('{first}' and '{second}'); it can be read only once"
                ),
                Once::File(_) => format!(
                    "'{first}' and '{second}' are the same pipe or fifo; it can be read only once"
                ),
            });
        }
        seen.push((file, once));
    }
    None
}

/// An input that can be read only once, as [`named_twice`] tells them apart.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Once {
    /// The standard input, by any name.
    Stdin,
    /// Another pipe or FIFO: its device and inode.
    File(FileId),
}

/// Whether a file is read to its end once, as a stream: a pipe, FIFO or socket, and, as
/// the standard input (`stdin`), a terminal or another device but the null device (a
/// named device is refused when it is opened, and the null device is always empty).
fn read_once(meta: &std::fs::Metadata, stdin: bool) -> bool {
    let kind = meta.file_type();
    let device = kind.is_char_device() || kind.is_block_device();
    kind.is_fifo() || kind.is_socket() || (stdin && device && !is_null_device(meta))
}

/// Device and inode of the standard input, where it is read once ([`read_once`]); `None`
/// where it is closed, a regular file (mapped, which may be done again) or a directory.
fn stdin_stream_id() -> Option<FileId> {
    use std::os::fd::AsFd;
    let file = std::fs::File::from(io::stdin().as_fd().try_clone_to_owned().ok()?);
    let meta = file.metadata().ok()?;
    read_once(&meta, true).then(|| identity(&meta))
}

/// Whether standard output can be written to: `Err(EBADF)` when it is open for reading
/// only (`1<&0`). Asked before a command runs: Rust's standard output takes `EBADF` for
/// success and drops every byte, and the command would end with 0 having said nothing.
/// (A standard output closed when the process started is the null device by then, put
/// there by Rust's runtime: `main` notes that case before the runtime starts.)
pub fn stdout_writable() -> io::Result<()> {
    // SAFETY: F_GETFL reads the flags of a descriptor, which may be closed (then -1 and
    // EBADF); it takes no pointer and changes nothing.
    let flags = unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFL) };
    if flags == -1 {
        return Err(io::Error::last_os_error());
    }
    if flags & libc::O_ACCMODE == libc::O_RDONLY {
        return Err(io::Error::from_raw_os_error(libc::EBADF));
    }
    Ok(())
}

/// Prints `hexrune: <name>: <cause>` on one line.
pub fn report_error(
    err: &mut dyn Write,
    name: &str,
    cause: &dyn std::fmt::Display,
) -> io::Result<()> {
    // Both are sanitised here, whoever built them: a cause may quote the input too.
    writeln!(
        err,
        "hexrune: {}: {}",
        sanitize(name),
        sanitize(&cause.to_string())
    )
}

/// The bytes of a path as the operating system holds them (on Unix, exactly; elsewhere the
/// path as UTF-8, which is then exact wherever the name is valid Unicode).
fn path_bytes(path: &std::path::Path) -> std::borrow::Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        std::borrow::Cow::Borrowed(path.as_os_str().as_bytes())
    }
    #[cfg(not(unix))]
    {
        match path.to_string_lossy() {
            std::borrow::Cow::Borrowed(s) => std::borrow::Cow::Borrowed(s.as_bytes()),
            std::borrow::Cow::Owned(s) => std::borrow::Cow::Owned(s.into_bytes()),
        }
    }
}
