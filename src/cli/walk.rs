//! `hexrune check -r DIR...`: whole trees. The roots are walked by the ignore crate's
//! parallel walker (`.gitignore` and `.git/info/exclude` honoured, in a Git repository or
//! not, those above a root up to its repository's top only, unless `--no-ignore`; hidden files and directories only with `--hidden`; symbolic
//! links not followed into directories). The files found are sorted by path (name by
//! name, as `Path` compares), each kept once where roots overlap ([`once_each`]), then checked
//! by a pool of workers ([`crate::scan::pool`]), one per core, and handed to the format in
//! path order as each is done, so the output is the same however the work was shared.
//!
//! How the cores are shared ([`scan_threads`]): a file of at most [`INLINE_LIMIT`] bytes
//! (1 MiB) is hashed, scanned and linted on its worker's thread alone, starting no thread;
//! a larger one takes the "large file" lock and is scanned with every core, while the other
//! workers go on with small files, so at most one file at a time runs a pool of its own.
//! The printer lists a file's first finding from the survey its check made, starting no
//! thread and walking no file again. At most [`WINDOW`] files are ahead of the one being
//! printed, so memory and open files stay bounded when one file takes long.
//!
//! Special files (FIFOs, sockets, devices) are reported and skipped without being opened,
//! so a FIFO never blocks the walk; a file that cannot be read (a dangling link, no
//! permission) is reported and counted, and the rest is still checked.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};

use std::os::unix::fs::OpenOptionsExt;

use super::check::{examine, examine_source, plural, CheckOptions, Emit, Examined, Quiet};
use super::findings::Record;
use super::{report_error, Input, EXIT_ERROR, EXIT_INVALID, EXIT_OK};
use crate::decode::Dialect;
use crate::scan::index::INLINE_LIMIT;
use crate::scan::pool;
use crate::source::{read_to_bound, Source, SourceError, UNSIZED_BOUND};

/// How many files may be done ahead of the one being printed.
pub const WINDOW: usize = 256;

/// The rules of a walk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Walk {
    /// `--no-ignore`: check files that ignore files exclude.
    pub no_ignore: bool,
    /// `--hidden`: enter hidden directories and check hidden files.
    pub hidden: bool,
}

/// Something the walk found.
#[derive(Debug)]
enum Entry {
    /// A regular file (or a link to one).
    File(PathBuf),
    /// A special file, never opened: what it is.
    Special(PathBuf, &'static str),
    /// A path the walk could not read, and why.
    Unreadable(PathBuf, String),
}

impl Entry {
    fn path(&self) -> &PathBuf {
        match self {
            Entry::File(p) | Entry::Special(p, _) | Entry::Unreadable(p, _) => p,
        }
    }
}

/// What checking an entry gave.
enum Outcome {
    Checked(Box<Examined>),
    Skipped(&'static str),
    Unreadable(String),
}

/// Walks `options.inputs` as trees and checks every file; returns the exit status: 2 if
/// any file could not be read, else 1 if any file is invalid (has a finding at level
/// error), else 0. Skipped special files do not change it.
pub fn run(
    options: &CheckOptions,
    rules: &Walk,
    emit: &mut dyn Emit,
    out: &mut Quiet<'_>,
    err: &mut dyn Write,
) -> io::Result<u8> {
    let mut status = EXIT_OK;
    let mut roots = Vec::new();
    for input in &options.inputs {
        match input {
            Input::Path(p) => roots.push(p.clone()),
            Input::Stdin => {
                report_error(err, "<stdin>", &"-r walks directories, not standard input")?;
                status = EXIT_ERROR;
            }
        }
    }
    let entries = walk(&roots, rules, options.threads);
    let bar = progress_bar(entries.len() as u64);
    let results = checked_in_order(options, &entries, |i, outcome| {
        let path = entries[i].path();
        let input = Input::Path(path.clone());
        let name = input.display_name();
        let code = match outcome {
            Outcome::Checked(examined) => {
                out.then(|o| emit.input(o, &examined))?;
                let path = input.wire_path();
                let held = bar.suspend(|| {
                    super::check::report_held(&examined, &name, &path, emit, out, err)
                })?;
                if !held {
                    EXIT_ERROR
                } else if examined.is_clean() {
                    EXIT_OK
                } else {
                    EXIT_INVALID
                }
            }
            Outcome::Skipped(what) => {
                out.then(|o| emit.skipped(o, &name, &input.wire_path(), what))?;
                let why = format!("not a regular file ({what}), skipped");
                bar.suspend(|| report_error(err, &name, &why))?;
                EXIT_OK
            }
            Outcome::Unreadable(why) => {
                out.then(|o| emit.io_error(o, &name, &input.wire_path(), &why))?;
                bar.suspend(|| report_error(err, &name, &why))?;
                EXIT_ERROR
            }
        };
        bar.inc(1);
        status = status.max(code);
        Ok(())
    });
    bar.finish_and_clear();
    results?;
    Ok(status)
}

/// A bar on stderr when it is a terminal; hidden otherwise.
fn progress_bar(files: u64) -> indicatif::ProgressBar {
    if !io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(files);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} {pos}/{len} files  {rate}  {elapsed_precise}  {wide_bar}",
    ) {
        bar.set_style(style.with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0} files/s", state.per_sec());
            },
        ));
    }
    bar
}

/// Whether `root` is in a Git repository: it or a directory above it holds `.git` (a
/// directory, or the file of a worktree or submodule).
fn in_repository(root: &Path) -> bool {
    let Ok(path) = std::fs::canonicalize(root) else {
        return false;
    };
    path.ancestors().any(|dir| dir.join(".git").exists())
}

/// Every entry under `roots`, sorted by path.
fn walk(roots: &[PathBuf], rules: &Walk, threads: usize) -> Vec<Entry> {
    let found = Mutex::new(Vec::new());
    // The tree's own `.gitignore` and `.git/info/exclude`, and nothing of the machine or of
    // other tools: the same tree gives the same report whoever checks it, and a `.ignore`
    // file (ripgrep's) planted in it hides nothing. In a repository, those of the
    // directories above the root are read up to the repository's top, as Git reads them,
    // and a repository inside stops those of the directories around it (the walker does so
    // only where it is asked for a repository). Outside one, only those in the tree: a
    // `.gitignore` of `*` in a home directory hides no tree under it that Git would not; a
    // repository met in such a tree is walked apart, as a root in a repository.
    let (inside, outside): (Vec<PathBuf>, Vec<PathBuf>) = match rules.no_ignore {
        true => (Vec::new(), roots.to_vec()),
        false => roots.iter().cloned().partition(|root| in_repository(root)),
    };
    let nested = walk_with(&outside, false, rules, threads, &found);
    walk_with(&[inside, nested].concat(), true, rules, threads, &found);
    let mut entries = found.into_inner().unwrap_or_else(|e| e.into_inner());
    // Path order, name by name; two spellings of one path (`p` and `./p`, which compare
    // equal so) by their bytes, so that the same one is kept on every run.
    entries.sort_by(|a, b| {
        a.path()
            .cmp(b.path())
            .then_with(|| a.path().as_os_str().cmp(b.path().as_os_str()))
    });
    if roots.len() > 1 {
        once_each(&mut entries);
    }
    entries
}

/// Walks `roots` into `found`: as roots in a Git repository (`repository`: the ignore files
/// above a root count up to its repository's top) or in none (only the tree's own, and a
/// repository inside the tree is not walked but returned, to be walked as a root in one,
/// unless the ignore files are not read at all).
fn walk_with(
    roots: &[PathBuf],
    repository: bool,
    rules: &Walk,
    threads: usize,
    found: &Mutex<Vec<Entry>>,
) -> Vec<PathBuf> {
    let Some((first, rest)) = roots.split_first() else {
        return Vec::new();
    };
    let mut builder = ignore::WalkBuilder::new(first);
    for root in rest {
        builder.add(root);
    }
    builder
        .standard_filters(!rules.no_ignore)
        .ignore(false)
        .git_global(false)
        .hidden(!rules.hidden)
        .require_git(repository)
        .parents(repository)
        .follow_links(false)
        .threads(threads);
    let nested = std::sync::Arc::new(Mutex::new(Vec::new()));
    if !repository && !rules.no_ignore {
        let nested = std::sync::Arc::clone(&nested);
        builder.filter_entry(move |entry| {
            let repository = entry.depth() > 0
                && entry.file_type().is_some_and(|t| t.is_dir())
                && entry.path().join(".git").exists();
            if repository {
                let mut nested = nested.lock().unwrap_or_else(|e| e.into_inner());
                nested.push(entry.path().to_path_buf());
            }
            !repository
        });
    }
    builder.build_parallel().run(|| {
        Box::new(move |result| {
            if let Some(entry) = classify(result) {
                found.lock().unwrap_or_else(|e| e.into_inner()).push(entry);
            }
            ignore::WalkState::Continue
        })
    });
    let nested = std::mem::take(&mut *nested.lock().unwrap_or_else(|e| e.into_inner()));
    nested
}

/// Keeps the first (in path order) of the entries that are one directory entry reached
/// from two roots that overlap (`-r ord ord/a`, `-r a ./a`), so each file is checked and
/// counted once. An entry is known by its directory's canonical path and its own name:
/// a symbolic link and the file it names, or two hard links, stay two entries, as in one
/// tree. One walk cannot meet an entry twice (links to directories are not followed), so
/// this runs only for several roots, resolving each directory once.
fn once_each(entries: &mut Vec<Entry>) {
    let mut dirs: std::collections::HashMap<PathBuf, Option<PathBuf>> = Default::default();
    let mut seen = std::collections::HashSet::new();
    entries.retain(|entry| {
        let path = entry.path();
        if path.as_os_str().is_empty() {
            return true; // an error the walker could not place: nothing to compare
        }
        let key = match (path.parent(), path.file_name()) {
            (Some(parent), Some(name)) => {
                let parent = match parent.as_os_str().is_empty() {
                    true => std::path::Path::new("."),
                    false => parent,
                };
                let dir = dirs
                    .entry(parent.to_path_buf())
                    .or_insert_with(|| std::fs::canonicalize(parent).ok());
                dir.as_ref().map_or_else(|| path.clone(), |d| d.join(name))
            }
            _ => path.clone(),
        };
        seen.insert(key)
    });
}

/// What one result of the walker is; `None` for a directory (walked into, not checked).
fn classify(result: Result<ignore::DirEntry, ignore::Error>) -> Option<Entry> {
    let entry = match result {
        Ok(entry) => entry,
        Err(e) => {
            let path = error_path(&e).unwrap_or_default();
            return Some(Entry::Unreadable(path, error_cause(&e)));
        }
    };
    let path = entry.path().to_path_buf();
    let kind = entry.file_type()?;
    if kind.is_dir() {
        return None;
    }
    if kind.is_symlink() {
        // A link is checked as the file it names; a link to a directory is not followed.
        return Some(match std::fs::metadata(&path) {
            Err(e) => Entry::Unreadable(path.clone(), SourceError::of_path(&path, e).to_string()),
            Ok(m) if m.is_file() => Entry::File(path),
            Ok(m) if m.is_dir() => Entry::Special(path, "link to a directory, not followed"),
            Ok(m) => Entry::Special(path, special_kind(&m.file_type())),
        });
    }
    if !kind.is_file() {
        return Some(Entry::Special(path, special_kind(&kind)));
    }
    Some(Entry::File(path))
}

fn special_kind(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        "fifo"
    } else if kind.is_socket() {
        "socket"
    } else if kind.is_char_device() {
        "character device"
    } else if kind.is_block_device() {
        "block device"
    } else {
        "special file"
    }
}

fn error_path(e: &ignore::Error) -> Option<PathBuf> {
    match e {
        ignore::Error::WithPath { path, .. } => Some(path.clone()),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        ignore::Error::Loop { child, .. } => Some(child.clone()),
        _ => None,
    }
}

fn error_cause(e: &ignore::Error) -> String {
    match e {
        ignore::Error::WithPath { err, .. } | ignore::Error::WithDepth { err, .. } => {
            error_cause(err)
        }
        ignore::Error::Io(io) if io.raw_os_error() == Some(libc::ENAMETOOLONG) => {
            // The walk names entries by their path from where it began, which the system
            // refuses past PATH_MAX: what lies below is not reached.
            "path longer than the system allows (PATH_MAX): not walked; run check -r from \
             inside it to check what it holds"
                .to_string()
        }
        ignore::Error::Io(io) => crate::source::io_message(io),
        other => other.to_string(),
    }
}

/// What the workers share: results not yet printed, how far printing got, and how many
/// workers wait for room.
struct Shelf {
    done: BTreeMap<usize, Outcome>,
    printed: usize,
    waiting: usize,
}

/// Checks every entry on a pool of workers (the scan's [`pool`], run from one more thread)
/// and calls `print` with each outcome in entry order, on this thread, as soon as it and
/// every entry before it are done.
fn checked_in_order(
    options: &CheckOptions,
    entries: &[Entry],
    mut print: impl FnMut(usize, Outcome) -> io::Result<()>,
) -> io::Result<()> {
    let shelf = Mutex::new(Shelf {
        done: BTreeMap::new(),
        printed: 0,
        waiting: 0,
    });
    // `ready`: the entry the printer waits for is done; `room`: the printer moved on.
    let (ready, room) = (Condvar::new(), Condvar::new());
    let lock = || shelf.lock().unwrap_or_else(|e| e.into_inner());
    let work = |i: usize| {
        {
            let mut s = lock();
            while i >= s.printed + WINDOW {
                s.waiting += 1;
                s = room.wait(s).unwrap_or_else(|e| e.into_inner());
                s.waiting -= 1;
            }
        }
        let outcome = check_entry(options, &entries[i], large_lock());
        let mut s = lock();
        s.done.insert(i, outcome);
        if i == s.printed {
            ready.notify_one();
        }
    };
    std::thread::scope(|scope| {
        // The workers run beside the printer, which keeps this thread.
        scope.spawn(|| pool::for_each(entries.len(), options.threads, work));
        let mut result = Ok(());
        let mut at = 0;
        while at < entries.len() {
            // Every outcome ready from `at` on, taken at once.
            let batch: Vec<Outcome> = {
                let mut s = lock();
                while !s.done.contains_key(&at) {
                    s = ready.wait(s).unwrap_or_else(|e| e.into_inner());
                }
                let mut batch = Vec::new();
                while let Some(o) = s.done.remove(&(at + batch.len())) {
                    batch.push(o);
                }
                batch
            };
            for outcome in batch {
                // After a failed write the rest is still checked (and dropped), so the
                // workers end; the first error is returned.
                if result.is_ok() {
                    result = print(at, outcome);
                }
                at += 1;
            }
            let mut s = lock();
            s.printed = at;
            if s.waiting > 0 {
                room.notify_all();
            }
        }
        result
    })
}

/// The lock a large file is scanned under, with every core: one large file at a time.
fn large_lock() -> &'static Mutex<()> {
    static LARGE: Mutex<()> = Mutex::new(());
    &LARGE
}

fn check_entry(options: &CheckOptions, entry: &Entry, large: &Mutex<()>) -> Outcome {
    let path = match entry {
        Entry::File(path) => path,
        Entry::Special(_, what) => return Outcome::Skipped(what),
        Entry::Unreadable(_, why) => return Outcome::Unreadable(why.clone()),
    };
    let input = Input::Path(path.clone());
    // Opened without blocking, and asked what it is now: a FIFO put in the file's place
    // since the walk saw it can neither block the open nor be read.
    let file = match open_without_atime(path) {
        Ok(file) => file,
        Err(e) => return Outcome::Unreadable(crate::source::io_message(&e)),
    };
    let meta = match file.metadata() {
        Ok(meta) => meta,
        Err(e) => return Outcome::Unreadable(crate::source::io_message(&e)),
    };
    if !meta.is_file() {
        return Outcome::Skipped(special_kind(&meta.file_type()));
    }
    let threads = scan_threads(meta.len(), options.threads);
    let examined = if meta.len() <= INLINE_LIMIT as u64 {
        // A small file is read into memory: cheaper than mapping it, and no other thread
        // has to hear of an unmapping.
        match read_small(file, &meta) {
            Ok(bytes) => {
                let source = Source::from_bytes(input.display_name(), bytes);
                examine_source(options, &input, source, meta.modified().ok(), threads)
            }
            Err(e) => return Outcome::Unreadable(e.to_string()),
        }
    } else {
        drop(file);
        let _only_one = large.lock().unwrap_or_else(|e| e.into_inner());
        examine(options, &input, threads)
    };
    match examined {
        Ok(e) => Outcome::Checked(Box::new(e)),
        Err(e) => Outcome::Unreadable(e.to_string()),
    }
}

/// The scan's workers for a file of `len` bytes in a walk with `walkers` workers (1 or
/// more). A file of at most [`INLINE_LIMIT`] bytes gets one, its walker's own thread (the
/// scan then starts no thread, nor does the lints' survey, which the scan's hook walks
/// whole), as the other walkers have the other cores; a larger one gets every core, under
/// [`large_lock`], so at most one file at a time runs a pool of its own.
fn scan_threads(len: u64, walkers: usize) -> usize {
    if len <= INLINE_LIMIT as u64 {
        1
    } else {
        walkers.max(1)
    }
}

/// Opens `path` read-only and without blocking, with `O_NOATIME` where the kernel allows it
/// (not on a file of another user: `EPERM`, and then a plain open), as [`Source::open`]
/// does, so that checking a file does not change its access time.
fn open_without_atime(path: &Path) -> io::Result<std::fs::File> {
    let open = |flags| {
        std::fs::File::options()
            .read(true)
            .custom_flags(flags)
            .open(path)
    };
    match open(libc::O_NONBLOCK | libc::O_NOATIME) {
        Err(e) if e.raw_os_error() == Some(libc::EPERM) => open(libc::O_NONBLOCK),
        other => other,
    }
}

/// The bytes of a small regular file, to its end; `Err(Rewritten)` if it was written to
/// while it was read: its size or modification time then differ from `before`'s (taken
/// from the open file before the read), as [`Source::check_unchanged`] finds of a mapped
/// file after its scan. A file that says it is empty (of /proc or /sys) is read within
/// [`UNSIZED_BOUND`], as [`Source::open`] reads it (`/proc/self/pagemap` never ends).
fn read_small(file: std::fs::File, before: &std::fs::Metadata) -> Result<Vec<u8>, SourceError> {
    let bytes = read_to_bound(
        &file,
        UNSIZED_BOUND.max(before.len()),
        before.len() as usize + 1,
    )?;
    let after = file.metadata()?;
    if after.len() != before.len() || after.modified().ok() != before.modified().ok() {
        return Err(SourceError::Rewritten);
    }
    Ok(bytes)
}

/// Human output of a walk: one line per file with findings, in path order, and a total.
pub struct HumanTree {
    dialect: Dialect,
    checked: u64,
    with_findings: u64,
    unreadable: u64,
    skipped: u64,
}

impl HumanTree {
    /// Human output for a walk checking in `dialect`.
    pub fn new(dialect: Dialect) -> HumanTree {
        HumanTree {
            dialect,
            checked: 0,
            with_findings: 0,
            unreadable: 0,
            skipped: 0,
        }
    }
}

impl Emit for HumanTree {
    fn input(&mut self, out: &mut dyn Write, examined: &Examined) -> io::Result<()> {
        self.checked += 1;
        let summary = &examined.summary;
        let errors = summary.tally.error_count();
        let others = summary.replacement_count() + examined.lints.total;
        if errors + others == 0 {
            return Ok(());
        }
        self.with_findings += 1;
        // The lints from the file's own survey: a second survey here, on the printing
        // thread, would walk the whole file again on every core while the workers run.
        // An invalid file's line names its first error, what makes it invalid (a U+FFFD or a
        // lint before it is a finding that leaves the exit status alone).
        let first = examined
            .findings_in(self.dialect, None)
            .find(|f| errors == 0 || f.record == Record::Error);
        let mut line = format!("{}: ", examined.facts.name);
        if errors > 0 {
            line.push_str(&format!(
                "invalid {}: {errors} {}",
                self.dialect,
                plural(errors, "error", "errors")
            ));
        } else {
            line.push_str(&format!("valid {}", self.dialect));
        }
        if others > 0 {
            line.push_str(&format!(
                ", {others} {}",
                plural(others, "finding", "findings")
            ));
        }
        if let Some(f) = first {
            let what = if f.record == Record::Error {
                "first error"
            } else {
                "first finding"
            };
            line.push_str(&format!(
                "; {what} at offset {} ({}:{}) {}",
                f.offset, f.line, f.column, f.kind
            ));
        }
        let bytes = examined.source.bytes();
        if let Some(wide) = super::check::wide_reading(self.dialect, summary, bytes) {
            line.push_str(&format!("; {wide}"));
        }
        writeln!(out, "{line}")
    }

    fn io_error(
        &mut self,
        _out: &mut dyn Write,
        _name: &str,
        _path: &super::wire::WirePath,
        _message: &str,
    ) -> io::Result<()> {
        self.unreadable += 1;
        Ok(())
    }

    fn skipped(
        &mut self,
        _out: &mut dyn Write,
        _name: &str,
        _path: &super::wire::WirePath,
        _what: &str,
    ) -> io::Result<()> {
        self.skipped += 1;
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn Write, _status: u8) -> io::Result<()> {
        writeln!(
            out,
            "{} {} checked: {} with findings, {} unreadable, {} skipped",
            self.checked,
            plural(self.checked, "file", "files"),
            self.with_findings,
            self.unreadable,
            self.skipped
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_file_is_scanned_on_its_walkers_thread_alone() {
        assert_eq!(INLINE_LIMIT, 1 << 20);
        for walkers in [1, 2, 8, 64] {
            for len in [0, 1, 4096, (1 << 20) - 1, 1 << 20] {
                assert_eq!(
                    scan_threads(len, walkers),
                    1,
                    "{len} bytes, {walkers} walkers"
                );
            }
            for len in [(1 << 20) + 1, 1 << 30, u64::MAX] {
                assert_eq!(scan_threads(len, walkers), walkers, "{len} bytes");
            }
        }
        assert_eq!(scan_threads(1 << 30, 0), 1);
    }

    /// A small file written to between the look at it and the end of its read is said to
    /// have changed (its bytes may mix old and new), as a mapped file is after its scan.
    #[test]
    fn a_small_file_written_to_while_read_is_said_to_have_changed() {
        use std::io::Write as _;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.txt");
        std::fs::write(&path, b"first\n").unwrap();
        let read = |change: &dyn Fn(&std::fs::File)| {
            let file = open_without_atime(&path).unwrap();
            let before = file.metadata().unwrap();
            change(&std::fs::File::options().append(true).open(&path).unwrap());
            read_small(file, &before).map_err(|e| e.to_string())
        };
        assert_eq!(read(&|_| ()), Ok(b"first\n".to_vec()));
        let grown = read(&|mut f| f.write_all(b"more\n").unwrap());
        assert_eq!(grown, Err(SourceError::Rewritten.to_string()));
        // Same size, a later time: a rewrite in place.
        let later = std::fs::metadata(&path).unwrap().modified().unwrap()
            + std::time::Duration::from_secs(5);
        let touched = read(&|f| f.set_modified(later).unwrap());
        assert_eq!(touched, Err(SourceError::Rewritten.to_string()));
    }
}
