//! The files around a repair, shared by `hexrune repair` and the viewer's `w`: the refusals
//! that keep a repair from ever writing its input, the atomic write of a copy beside its
//! final name, and the removal of temporary files when the process is interrupted.
//!
//! - [`refuse_output`]: OUT is IN (by device and inode, through symlinks and hard links,
//!   also when OUT does not exist yet but its directory and name resolve to IN), OUT is a
//!   directory, a device, a fifo or a socket ([`refuse_kind`], even with `force`), or OUT
//!   exists and replacing it was not asked for; a symbolic link is judged by its target;
//! - [`Atomic`]: a temporary file beside the final path (beside a link's target: the copy
//!   is written through a link, which stays), renamed into place only when complete (over
//!   an existing file only when asked); dropped, it removes itself;
//! - [`Guard`]: a signal that would end the process ([`terminating_signals`]: SIGINT,
//!   SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGALRM, ...) removes every temporary file still
//!   registered and ends the process (exit 2) with one line on stderr; [`remove_temps`]
//!   does the removal alone, for a program that catches the signals itself (the viewer);
//! - [`write_copy`]: the whole of it for an input held in memory: refusals, the repair into
//!   an [`Atomic`], the rename.
//!
//! Errors are a [`WriteError`]: the (sanitised) name of the file at fault and the cause, which
//! the command line prints as `hexrune: <file>: <cause>` and the viewer in its status line.
//! This module knows files, not terminals or command lines.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use tempfile::NamedTempFile;

use super::{Engine, Output, Policy, Tally};
use crate::source::{io_message, SourceError};
use crate::view::safe::path_name;

/// Why a write stopped: the file at fault (sanitised) and the cause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteError {
    /// The file at fault, sanitised for a terminal.
    pub name: String,
    /// What went wrong, in lower case.
    pub cause: String,
}

impl WriteError {
    /// An error about `name`.
    pub fn new(name: &str, cause: impl std::fmt::Display) -> WriteError {
        WriteError {
            name: name.to_string(),
            cause: cause.to_string(),
        }
    }

    /// An I/O error about `name`, said as the source layer says them ("permission denied").
    pub fn io(name: &str, e: &io::Error) -> WriteError {
        WriteError::new(name, SourceError::from(clone_error(e)))
    }

    /// Whether the cause is "exists" (the viewer then asks whether to replace it).
    pub fn is_exists(&self) -> bool {
        self.cause == EXISTS
    }
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.name, self.cause)
    }
}

/// The cause of a refusal to replace an existing file.
pub const EXISTS: &str = "exists (--force replaces it)";

/// A copy of an I/O error (`io::Error` is not `Clone`).
pub fn clone_error(e: &io::Error) -> io::Error {
    match e.raw_os_error() {
        Some(code) => io::Error::from_raw_os_error(code),
        None => io::Error::new(e.kind(), io_message(e)),
    }
}

/// Device and inode of a file.
pub type FileId = (u64, u64);

/// Device and inode.
pub fn identity(meta: &fs::Metadata) -> FileId {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

/// The directory a path's file is in (`.` for a bare name).
pub fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Whether `path` is the file `id`: itself, through links, or (when it does not exist)
/// its directory resolved plus its name.
pub fn resolves_to(path: &Path, id: FileId) -> bool {
    if let Ok(meta) = fs::metadata(path) {
        if identity(&meta) == id {
            return true;
        }
    }
    match (fs::canonicalize(parent(path)), path.file_name()) {
        (Ok(dir), Some(name)) => fs::metadata(dir.join(name)).is_ok_and(|m| identity(&m) == id),
        _ => false,
    }
}

/// The refusals for an output path: it is the input (`input`, when the input is a file),
/// or it exists and `force` is not given. `name` is how errors call it.
pub fn refuse_output(
    path: &Path,
    name: &str,
    input: Option<FileId>,
    force: bool,
) -> Result<(), WriteError> {
    if input.is_some_and(|id| resolves_to(path, id)) {
        return Err(WriteError::new(
            name,
            "is the input; repair never writes its input (choose another path)",
        ));
    }
    refuse_kind(path, name)?;
    if !force && fs::symlink_metadata(path).is_ok() {
        return Err(WriteError::new(name, EXISTS));
    }
    Ok(())
}

/// The cause of a refusal to write where a device, fifo or socket is.
pub const NOT_REGULAR: &str =
    "is not a regular file (a device, fifo or socket); repair writes only regular files";

/// The cause of a refusal to write through a symbolic link whose target does not exist.
pub const DANGLING: &str =
    "is a symbolic link to nothing; repair writes through a link only to an existing file";

/// The refusal of a path that is not, or does not lead to, a regular file: a directory, or
/// a device, fifo or socket, which the rename of a finished copy would replace with a
/// regular file (as root, `-o /dev/null --force` would replace the device). A symbolic
/// link is judged by its target (followed to the end), since the copy is written through
/// it ([`Atomic::create`]): one to a directory, device, fifo or socket is refused as they
/// are, and one to nothing ([`DANGLING`]) too. `--force` lifts none of these.
pub fn refuse_kind(path: &Path, name: &str) -> Result<(), WriteError> {
    let linked = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    match fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Err(WriteError::new(name, "is a directory")),
        Ok(meta) if !meta.is_file() => Err(WriteError::new(name, NOT_REGULAR)),
        Err(e) if linked && e.kind() == io::ErrorKind::NotFound => {
            Err(WriteError::new(name, DANGLING))
        }
        Err(e) if linked => Err(WriteError::io(name, &e)),
        _ => Ok(()),
    }
}

/// Where a copy meant for `path` is written: `path` itself, or, when it is a symbolic
/// link, the file it leads to (every link in the way followed), so that the rename
/// replaces that file and leaves the link in place, as `sed -i --follow-symlinks` does.
/// The temporary file then goes beside the target, and the rename stays within one
/// directory (atomic). A link to nothing is [`refuse_kind`]'s refusal.
pub fn written_path(path: &Path) -> Result<PathBuf, WriteError> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            fs::canonicalize(path).map_err(|e| match e.kind() {
                io::ErrorKind::NotFound => WriteError::new(&path_name(path), DANGLING),
                _ => WriteError::io(&path_name(path), &e),
            })
        }
        _ => Ok(path.to_path_buf()),
    }
}

/// The temporary files of this process that an interrupt must remove.
fn temps() -> MutexGuard<'static, Vec<PathBuf>> {
    static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    TEMPS.lock().unwrap_or_else(|p| p.into_inner())
}

/// Removes every temporary file of an unfinished [`Atomic`]: for a program that handles
/// SIGTERM itself, or ends while a copy is still being written (the viewer calls it before
/// it ends). Holds the registry until it returns, so a rename in progress finishes first.
/// How many there were.
pub fn remove_temps() -> usize {
    let paths = temps();
    for path in paths.iter() {
        let _ = fs::remove_file(path);
    }
    paths.len()
}

/// What an interrupt says of a file written atomically: its temporary file is removed.
pub const NOTHING_WRITTEN: &str = "nothing was written";

/// What an interrupt says of standard output: what went there is the copy's start only.
pub const INCOMPLETE: &str = "what was written there is incomplete";

/// The signals whose default action ends the process and that a handler can catch: those
/// [`Guard`] catches so that no temporary file is left behind. SIGHUP, SIGINT, SIGQUIT,
/// SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO (SIGPOLL),
/// SIGABRT, SIGTRAP, SIGSYS and, on Linux, SIGPWR, SIGSTKFLT and the real-time signals
/// SIGRTMIN to SIGRTMAX (those the C library leaves to programs).
///
/// Not among them: SIGKILL and SIGSTOP, which no handler can catch; SIGSEGV, SIGBUS, SIGILL
/// and SIGFPE, faults of the process itself, after which it cannot go on (signal-hook
/// refuses them, and SIGBUS is [`crate::source`]'s guard of a mapped file); SIGPIPE, which
/// Rust's runtime ignores before `main`, so that it never ends the process (a closed pipe
/// is an `EPIPE` error instead, which a command reports, or ends on quietly when the
/// reader of standard output left); and those whose default is to stop the process or
/// nothing (SIGTSTP, SIGCHLD, SIGWINCH, ...). Nor those that were ignored when hexrune
/// started, which stay ignored, as the program that started it asked: `nohup`'s SIGHUP, a
/// background job's SIGINT and SIGQUIT, `trap '' USR1` (read once, before any is caught).
pub fn terminating_signals() -> Vec<libc::c_int> {
    static CAUGHT: std::sync::LazyLock<Vec<libc::c_int>> = std::sync::LazyLock::new(|| {
        terminating_by_default()
            .into_iter()
            .filter(|&signal| !is_ignored(signal))
            .collect()
    });
    CAUGHT.clone()
}

/// Whether `signal` is ignored now (`SIG_IGN`), as the programs this one starts then are.
pub fn is_ignored(signal: libc::c_int) -> bool {
    // SAFETY: sigaction with a null new action only reads the current one into `old`, a
    // zeroed struct sigaction that lives across the call.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut old) == 0
            && old.sa_sigaction == libc::SIG_IGN
    }
}

/// Every signal [`terminating_signals`] may catch.
fn terminating_by_default() -> Vec<libc::c_int> {
    #[allow(unused_mut)]
    let mut signals = vec![
        libc::SIGHUP,
        libc::SIGINT,
        libc::SIGQUIT,
        libc::SIGTERM,
        libc::SIGUSR1,
        libc::SIGUSR2,
        libc::SIGALRM,
        libc::SIGVTALRM,
        libc::SIGPROF,
        libc::SIGXCPU,
        libc::SIGXFSZ,
        libc::SIGIO,
        libc::SIGABRT,
        libc::SIGTRAP,
        libc::SIGSYS,
    ];
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        signals.extend([libc::SIGPWR, libc::SIGSTKFLT]);
        signals.extend(libc::SIGRTMIN()..=libc::SIGRTMAX());
    }
    signals
}

/// Catches every signal of [`terminating_signals`] while alive: the temporary files are removed, one line
/// `hexrune: <out>: interrupted; <what>` goes to stderr ([`NOTHING_WRITTEN`] for a file,
/// [`INCOMPLETE`] for standard output, where bytes went), and the process ends with
/// status 2.
pub struct Guard {
    handle: signal_hook::iterator::Handle,
}

impl Guard {
    /// Starts catching the signals; `out_name` is the name the line on stderr gives, and
    /// `what` what it says became of the output.
    pub fn watch(out_name: String, what: &'static str) -> io::Result<Guard> {
        let mut signals = signal_hook::iterator::Signals::new(terminating_signals())?;
        let handle = signals.handle();
        std::thread::spawn(move || {
            if signals.forever().next().is_some() {
                // Held until the process ends: a rename in progress finishes first, and
                // none starts after.
                let paths = temps();
                for path in paths.iter() {
                    let _ = fs::remove_file(path);
                }
                let _ = writeln!(io::stderr(), "hexrune: {out_name}: interrupted; {what}");
                std::process::exit(2);
            }
        });
        Ok(Guard { handle })
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        self.handle.close();
    }
}

/// A file written atomically: a temporary file beside `path`, renamed into place by
/// [`Atomic::persist`]. Dropped unpersisted, the temporary file is removed.
pub struct Atomic {
    path: PathBuf,
    name: String,
    temp: Option<NamedTempFile>,
}

impl Atomic {
    /// Creates the temporary file beside `path` (in its directory, `.hexrune-repair-*`);
    /// beside its target where `path` is a symbolic link ([`written_path`]), which the
    /// rename then replaces, and errors still name `path`.
    pub fn create(path: &Path) -> Result<Atomic, WriteError> {
        let name = path_name(path);
        let path = &written_path(path)?;
        let temp = tempfile::Builder::new()
            .prefix(".hexrune-repair-")
            .tempfile_in(parent(path))
            .map_err(|e| {
                // A directory that exists and yet has "no such file" (/proc), or one of a
                // kernel's file system, which says "permission denied" even to root (/sys):
                // it takes no new files, whoever asks.
                let dir = parent(path);
                let pseudo = matches!(e.kind(), io::ErrorKind::NotFound) && dir.is_dir();
                if pseudo || takes_no_new_files(dir) {
                    WriteError::new(
                        &name,
                        format!("cannot be created: {} takes no new files", path_name(dir)),
                    )
                } else {
                    WriteError::io(&name, &e)
                }
            })?;
        temps().push(temp.path().to_path_buf());
        Ok(Atomic {
            path: path.to_path_buf(),
            name,
            temp: Some(temp),
        })
    }

    /// The temporary file, to write into.
    pub fn file(&self) -> &File {
        match &self.temp {
            Some(temp) => temp.as_file(),
            None => unreachable!("an Atomic holds its file until persisted"),
        }
    }

    /// The final path's name, sanitised.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Syncs the file, gives it `mode` (or, replacing a file, that file's mode, owner and
    /// group), and renames it into place (over an existing file only if `force`; otherwise
    /// an existing one is [`EXISTS`]).
    pub fn persist(self, force: bool, mode: u32) -> Result<(), WriteError> {
        self.persist_unless(force, mode, || Ok(()))
    }

    /// [`Atomic::persist`], where `stop`, asked once the file is synced and just before
    /// the rename, may still keep the path as it was (its error is the write's): a write
    /// the user cancels while the file is synced leaves no file.
    pub fn persist_unless(
        mut self,
        force: bool,
        mode: u32,
        stop: impl FnOnce() -> io::Result<()>,
    ) -> Result<(), WriteError> {
        use std::os::unix::fs::PermissionsExt;
        let name = self.name.clone();
        let Some(temp) = self.temp.take() else {
            return Ok(());
        };
        let temp_path = temp.path().to_path_buf();
        let file = temp.as_file();
        file.sync_all().map_err(|e| WriteError::io(&name, &e))?;
        // A file replaced keeps its mode, and its owner and group where the process may
        // give them (as root): a private file stays private.
        let mode = match fs::metadata(&self.path) {
            Ok(old) if force && old.is_file() => {
                use std::os::unix::fs::MetadataExt;
                let _ = std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid()));
                old.mode() & 0o777
            }
            _ => mode,
        };
        file.set_permissions(fs::Permissions::from_mode(mode))
            .map_err(|e| WriteError::io(&name, &e))?;
        stop().map_err(|e| WriteError::io(&name, &e))?;
        // The registry is held across the rename: an interrupt waits for it to finish, and
        // then finds the file no longer listed.
        let mut listed = temps();
        let persisted = if force {
            temp.persist(&self.path)
        } else {
            temp.persist_noclobber(&self.path)
        };
        listed.retain(|p| p != &temp_path);
        drop(listed);
        persisted.map(drop).map_err(|e| {
            let cause = if e.error.kind() == io::ErrorKind::AlreadyExists {
                EXISTS.to_string()
            } else {
                SourceError::from(clone_error(&e.error)).to_string()
            };
            WriteError::new(&name, cause)
        })
    }
}

impl Drop for Atomic {
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            let path = temp.path().to_path_buf();
            drop(temp);
            unregister(&path);
        }
    }
}

/// Whether `dir` is on a file system of the kernel's own (procfs, sysfs), where no one
/// creates a regular file: its error (`EACCES` in /sys, even for root) would mislead.
fn takes_no_new_files(dir: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c_path) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else {
        return false;
    };
    let mut stat = std::mem::MaybeUninit::<libc::statfs>::uninit();
    // SAFETY: `c_path` is a NUL-terminated string that outlives the call, and `stat` is
    // writable memory of the size statfs(2) fills; it is read only when the call succeeded.
    let stat = unsafe {
        if libc::statfs(c_path.as_ptr(), stat.as_mut_ptr()) != 0 {
            return false;
        }
        stat.assume_init()
    };
    // The field's and the constants' types differ between targets (c_long, c_uint, ...).
    #[allow(clippy::unnecessary_cast)]
    let kind = stat.f_type as i64;
    #[allow(clippy::unnecessary_cast)]
    let kernel = [libc::PROC_SUPER_MAGIC as i64, libc::SYSFS_MAGIC as i64];
    kernel.contains(&kind)
}

fn unregister(path: &Path) {
    temps().retain(|p| p != path);
}

/// What [`write_copy`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// Bytes of the input read.
    pub read: u64,
    /// Bytes written.
    pub written: u64,
    /// What was changed, by kind and how.
    pub tally: Tally,
}

/// An [`Output`] into a buffered file that counts what goes through it.
struct Counting<W: Write> {
    out: W,
    read: u64,
    written: u64,
}

impl<W: Write> Output for Counting<W> {
    fn copy(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.read += bytes.len() as u64;
        self.written += bytes.len() as u64;
        self.out.write_all(bytes)
    }
    fn decoded(&mut self, old: &[u8], new: &[u8]) -> io::Result<()> {
        self.read += old.len() as u64;
        self.written += new.len() as u64;
        self.out.write_all(new)
    }
    fn change(&mut self, change: &super::Change<'_>) -> io::Result<()> {
        self.read += change.old.len() as u64;
        self.written += change.new.len() as u64;
        self.out.write_all(change.new)
    }
}

/// Writes the repair of `bytes` (the input, whose identity is `input` when it is a file)
/// to `path` atomically, after the refusals of [`refuse_output`]; `progress` hears the
/// input bytes done after each window and once more just before the copy takes the path
/// (and may stop the work with an error, leaving no file). The file gets
/// `mode`. Without [`Guard`]: the caller decides what an interrupt does ([`remove_temps`]).
pub fn write_copy(
    bytes: &[u8],
    input: Option<FileId>,
    path: &Path,
    force: bool,
    mode: u32,
    policy: Policy,
    mut progress: impl FnMut(u64) -> io::Result<()>,
) -> Result<Written, WriteError> {
    let name = path_name(path);
    refuse_output(path, &name, input, force)?;
    let mut engine = Engine::for_slice(policy, bytes).map_err(|e| WriteError::new(&name, e))?;
    let atomic = Atomic::create(path)?;
    let mut sink = Counting {
        out: io::BufWriter::with_capacity(1 << 20, atomic.file()),
        read: 0,
        written: 0,
    };
    engine
        .repair_slice(bytes, &mut sink, &mut progress)
        .and_then(|()| sink.out.flush())
        .map_err(|e| match e.get_ref() {
            Some(inner) => WriteError::new(&name, inner),
            None => WriteError::io(&name, &e),
        })?;
    let (read, written) = (sink.read, sink.written);
    drop(sink);
    atomic.persist_unless(force, mode, || progress(read))?;
    Ok(Written {
        read,
        written,
        tally: engine.tally().clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cancel that comes after the last window, while the copy is synced, still keeps
    /// the path as it was: the check just before the rename sees it.
    #[test]
    fn a_cancel_after_the_last_window_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let bytes = b"caf\xE9 au lait\n".repeat(1000);
        for existed in [false, true] {
            let path = dir.path().join(format!("out-{existed}.txt"));
            if existed {
                fs::write(&path, b"OLD CONTENT\n").unwrap();
            }
            let mut calls = Vec::new();
            let mut cancelled = false;
            let progress = |done: u64| {
                calls.push(done);
                if cancelled {
                    return Err(io::Error::new(io::ErrorKind::Interrupted, "cancelled"));
                }
                // Esc, pressed once the last window is done.
                cancelled = done == bytes.len() as u64;
                Ok(())
            };
            let result = write_copy(
                &bytes,
                None,
                &path,
                existed,
                0o644,
                Policy::default(),
                progress,
            );
            let Err(e) = result else {
                panic!("the write is cancelled")
            };
            assert_eq!(e.to_string(), format!("{}: cancelled", path_name(&path)));
            assert_eq!(calls, [bytes.len() as u64, bytes.len() as u64]);
            match existed {
                true => assert_eq!(fs::read(&path).unwrap(), b"OLD CONTENT\n"),
                false => assert!(!path.exists()),
            }
            assert_eq!(
                fs::read_dir(dir.path()).unwrap().count(),
                usize::from(existed)
            );
            if existed {
                fs::remove_file(&path).unwrap();
            }
        }
    }
}
