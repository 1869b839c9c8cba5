//! Running the hexrune binary and the python3 oracle, as the integration tests that run
//! them all do: each such file includes this with `mod common;` and uses part of it.
//!
//! What a test asserts stays in the test; only the exit code, which every run states, is
//! asserted here (through assert_cmd, whose failure message shows the command, its exit
//! code, stdout and stderr).
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};

pub use assert_cmd::Command;

/// The hexrune binary cargo built for this test run, ready for arguments.
pub fn hexrune() -> Command {
    Command::cargo_bin("hexrune").unwrap()
}

/// The path of the hexrune binary, for a test that spawns it and talks to it as it runs.
pub fn binary() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("hexrune")
}

/// What `hexrune ARGS` wrote, whatever its exit code (a test that looks at the code reads
/// it from the output's status).
pub fn output<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    hexrune().args(args).output().unwrap()
}

/// What `hexrune ARGS` fed `stdin` wrote, whatever its exit code.
pub fn output_with_stdin<I, S>(args: I, stdin: impl Into<Vec<u8>>) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    hexrune().args(args).write_stdin(stdin).output().unwrap()
}

/// Runs `hexrune ARGS` with nothing on standard input, asserts that it exits with `code`,
/// and returns what it wrote.
pub fn run<I, S>(args: I, code: i32) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    hexrune()
        .args(args)
        .assert()
        .code(code)
        .get_output()
        .clone()
}

/// Runs `hexrune ARGS` with `stdin` as its standard input, asserts that it exits with
/// `code`, and returns what it wrote.
pub fn run_with_stdin<I, S>(args: I, stdin: impl Into<Vec<u8>>, code: i32) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    hexrune()
        .args(args)
        .write_stdin(stdin)
        .assert()
        .code(code)
        .get_output()
        .clone()
}

/// The standard output of `hexrune ARGS`, which must exit with `code` and print UTF-8.
pub fn stdout_of<I, S>(args: I, code: i32) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    text(run(args, code).stdout)
}

/// The standard output of `hexrune ARGS` fed `stdin`, which must exit with `code` and
/// print UTF-8.
pub fn stdout_with_stdin<I, S>(args: I, stdin: impl Into<Vec<u8>>, code: i32) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    text(run_with_stdin(args, stdin, code).stdout)
}

/// The standard output of `hexrune ARGS`, which must exit 0, print UTF-8 and write
/// nothing to standard error.
pub fn quiet_stdout<I, S>(args: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let out = run(args, 0);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    text(out.stdout)
}

/// The standard error of `hexrune ARGS`, which must exit with `code` and print UTF-8.
pub fn stderr_of<I, S>(args: I, code: i32) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    text(run(args, code).stderr)
}

/// `bytes` as text; a test that reads text fails on bytes that are not UTF-8.
pub fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap()
}

/// Writes `bytes` to the file `name` in `dir` and returns its path as text.
pub fn file_with(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

/// No arguments for a script (`python_bytes(code, NO_ARGS, b"")`).
pub const NO_ARGS: [&str; 0] = [];

/// Runs `python3 -c CODE ARGS` with `stdin` as its standard input (written from another
/// thread, so a script that answers as it reads cannot block on a full pipe) and returns
/// what it wrote, whatever its exit: `None` where python3 cannot be started.
pub fn python<I, S>(code: &str, args: I, stdin: &[u8]) -> Option<Output>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut child = std::process::Command::new("python3")
        .arg("-c")
        .arg(code)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || pipe.write_all(&input));
    let output = child.wait_with_output().unwrap();
    // A script that exits before reading all of its input closes the pipe: not an error of
    // the test's.
    let _ = writer.join().unwrap();
    Some(output)
}

/// The standard output of `python3 -c CODE ARGS` fed `stdin`, the oracle's answer: `None`
/// where python3 cannot be started; a script that fails fails the test, with Python's
/// message.
pub fn python_bytes<I, S>(code: &str, args: I, stdin: &[u8]) -> Option<Vec<u8>>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let output = python(code, args, stdin)?;
    assert!(
        output.status.success(),
        "python3 failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(output.stdout)
}

/// The clean corpus (`tests/data/corpus/`, real sentences in many languages): each file's
/// name without `.txt` and its text, in name order.
pub fn corpus_files() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the corpus directory")
        .map(|e| e.expect("a corpus entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let name = f.file_stem().unwrap().to_string_lossy().into_owned();
            (
                name,
                std::fs::read_to_string(&f).expect("a UTF-8 corpus file"),
            )
        })
        .collect()
}

/// A small deterministic generator (xorshift64*), so what a test draws never changes.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// `text` in Python's codec `codec`, checked against encoding_rs's encoder for `label`
/// where python3 runs (the two must agree); encoding_rs's bytes where it does not.
pub fn python_encoded(text: &str, codec: &str, label: &str) -> Vec<u8> {
    let e = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
    let (ours, _, unmappable) = e.encode(text);
    assert!(!unmappable, "{label}: {text}");
    let code = format!(
        "import sys; sys.stdout.buffer.write(sys.stdin.buffer.read().decode().encode('{codec}'))"
    );
    match python_bytes(&code, NO_ARGS, text.as_bytes()) {
        Some(python) => {
            assert_eq!(python, ours.as_ref(), "{codec} and {label}: {text}");
            python
        }
        None => ours.into_owned(),
    }
}

/// `bytes` decoded by Python's codec `codec` and written as UTF-8; `fallback` where
/// python3 is missing.
pub fn python_decoded(bytes: &[u8], codec: &str, fallback: &str) -> Vec<u8> {
    let code = format!(
        "import sys; sys.stdout.buffer.write(sys.stdin.buffer.read().decode('{codec}').encode())"
    );
    python_bytes(&code, NO_ARGS, bytes).unwrap_or_else(|| fallback.as_bytes().to_vec())
}

/// What `hexrune repair --from auto` writes for `bytes` (a file in a temporary directory),
/// which must end with 0.
pub fn repaired_auto(bytes: &[u8]) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let input = file_with(dir.path(), "in.txt", bytes);
    let out = dir.path().join("out.txt");
    run(
        [
            "repair",
            &input,
            "-o",
            out.to_str().unwrap(),
            "--from",
            "auto",
        ],
        0,
    );
    std::fs::read(out).unwrap()
}
