//! `hexrune repair` as a user runs it: exact output files, the summary, the log (replayed
//! onto the input, its hashes checked), every refusal (the input itself, through a symlink
//! and a hard link, an existing OUT or log, an unwritable directory, a full disk), the
//! guarantee that `hexrune check OUT` passes, Python's decoder as an oracle, and an
//! interrupted run that leaves nothing behind.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use hexrune::decode::Dialect;
use proptest::prelude::*;
use sha2::{Digest, Sha256};

mod common;
mod support;
use common::{hexrune, output_with_stdin, python};
use support::wide;

fn dir_with(input: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.txt");
    std::fs::write(&path, input).unwrap();
    (dir, path)
}

/// Runs `repair` in `dir`; returns the exit code and stderr.
fn repair_in(dir: &Path, args: &[&str]) -> (i32, String) {
    let output = hexrune()
        .current_dir(dir)
        .arg("repair")
        .args(args)
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// No file of `dir` but `expected` (the temporary files are gone).
fn assert_files(dir: &Path, expected: &[&str]) {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut expected: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    expected.sort();
    assert_eq!(names, expected);
}

#[test]
fn writes_the_repaired_copy_and_a_summary() {
    let (dir, _) = dir_with(b"a\xE9b\xC0\xAFc");
    let (code, stderr) = repair_in(dir.path(), &["in.txt", "-o", "out.txt"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        std::fs::read(dir.path().join("out.txt")).unwrap(),
        "a\u{FFFD}b\u{FFFD}\u{FFFD}c".as_bytes()
    );
    assert_eq!(
        stderr,
        [
            "repair: in.txt (6 bytes) -> out.txt (12 bytes): 3 units changed",
            "           1 invalid_byte             replaced with U+FFFD",
            "           1 truncated                replaced with U+FFFD",
            "           1 unexpected_continuation  replaced with U+FFFD\n",
        ]
        .join("\n")
    );
    assert_files(dir.path(), &["in.txt", "out.txt"]);
    // The input is untouched.
    assert_eq!(
        std::fs::read(dir.path().join("in.txt")).unwrap(),
        b"a\xE9b\xC0\xAFc"
    );
}

#[test]
fn reads_stdin_and_writes_stdout() {
    hexrune()
        .args(["repair", "--invalid", "fallback", "-", "-o", "-"])
        .write_stdin(b"caf\xE9 \x81".as_slice())
        .assert()
        .code(0)
        .stdout("café \u{FFFD}");
}

#[test]
fn refuses_to_write_the_input() {
    let (dir, input) = dir_with(b"a\xE9");
    std::os::unix::fs::symlink("in.txt", dir.path().join("link")).unwrap();
    std::fs::hard_link(&input, dir.path().join("hard")).unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::os::unix::fs::symlink("..", dir.path().join("sub/up")).unwrap();
    for (out, shown) in [
        ("in.txt", "in.txt"),
        ("./in.txt", "./in.txt"),
        ("link", "link"),
        ("hard", "hard"),
        ("sub/up/in.txt", "sub/up/in.txt"),
        ("sub/../in.txt", "sub/../in.txt"),
    ] {
        for force in [false, true] {
            let mut args = vec!["in.txt", "-o", out];
            if force {
                args.push("--force");
            }
            let (code, stderr) = repair_in(dir.path(), &args);
            assert_eq!(code, 2, "{out}");
            assert_eq!(
                stderr,
                format!(
                    "hexrune: {shown}: is the input; repair never writes its input (choose another path)\n"
                )
            );
        }
    }
    // The input read as stdin is recognised too.
    let output = std::process::Command::new(common::binary())
        .current_dir(dir.path())
        .args(["repair", "-", "-o", "hard", "--force"])
        .stdin(std::fs::File::open(&input).unwrap())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(std::fs::read(&input).unwrap(), b"a\xE9");
    // The log may be neither the input nor the output.
    let (code, stderr) = repair_in(dir.path(), &["in.txt", "-o", "o.txt", "--log", "link"]);
    assert_eq!(
        (code, stderr.as_str()),
        (
            2,
            "hexrune: link: is the input; the log must be another file\n"
        )
    );
    // `--log -` where the shell made standard output the input (`>> in.txt`).
    let output = std::process::Command::new(common::binary())
        .current_dir(dir.path())
        .args(["repair", "in.txt", "-o", "o.txt", "--log", "-"])
        .stdout(
            std::fs::OpenOptions::new()
                .append(true)
                .open(&input)
                .unwrap(),
        )
        .output()
        .unwrap();
    assert_eq!(
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr)
        ),
        (
            Some(2),
            "hexrune: <stdout>: is the input; the log must be another file\n".into()
        )
    );
    assert_eq!(std::fs::read(&input).unwrap(), b"a\xE9");
    let (code, stderr) = repair_in(dir.path(), &["in.txt", "-o", "o.txt", "--log", "./o.txt"]);
    assert_eq!(
        (code, stderr.as_str()),
        (
            2,
            "hexrune: ./o.txt: is the output; the log must be another file\n"
        )
    );
    assert_files(dir.path(), &["in.txt", "link", "hard", "sub"]);
}

#[test]
fn refuses_an_existing_output_unless_forced() {
    let (dir, _) = dir_with(b"a\xE9");
    std::fs::write(dir.path().join("out.txt"), b"old").unwrap();
    let (code, stderr) = repair_in(dir.path(), &["in.txt", "-o", "out.txt"]);
    assert_eq!(
        (code, stderr.as_str()),
        (2, "hexrune: out.txt: exists (--force replaces it)\n")
    );
    assert_eq!(std::fs::read(dir.path().join("out.txt")).unwrap(), b"old");
    let (code, _) = repair_in(dir.path(), &["in.txt", "-o", "out.txt", "--force"]);
    assert_eq!(code, 0);
    assert_eq!(
        std::fs::read(dir.path().join("out.txt")).unwrap(),
        "a\u{FFFD}".as_bytes()
    );
    assert_files(dir.path(), &["in.txt", "out.txt"]);
}

#[test]
fn never_replaces_a_device_a_fifo_a_socket_or_a_directory() {
    // `-o /dev/null --force` once renamed a regular file over the device. A socket (made
    // with std alone) and a directory stand in for every file that is not a regular one;
    // --force does not change the answer, and neither does the log.
    let (dir, _) = dir_with(b"a\xE9");
    let socket = std::os::unix::net::UnixListener::bind(dir.path().join("sock")).unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let not_regular =
        "is not a regular file (a device, fifo or socket); repair writes only regular files";
    for (args, expected) in [
        (
            vec!["in.txt", "-o", "sock"],
            format!("hexrune: sock: {not_regular}\n"),
        ),
        (
            vec!["in.txt", "-o", "sock", "--force"],
            format!("hexrune: sock: {not_regular}\n"),
        ),
        (
            vec!["in.txt", "-o", "sub"],
            "hexrune: sub: is a directory\n".to_string(),
        ),
        (
            vec!["in.txt", "-o", "sub", "--force"],
            "hexrune: sub: is a directory\n".to_string(),
        ),
        (
            vec!["in.txt", "-o", "out.txt", "--log", "sock", "--force"],
            format!("hexrune: sock: {not_regular}\n"),
        ),
        (
            vec!["in.txt", "-o", "out.txt", "--log", "sub", "--force"],
            "hexrune: sub: is a directory\n".to_string(),
        ),
    ] {
        let (code, stderr) = repair_in(dir.path(), &args);
        assert_eq!((code, stderr.as_str()), (2, expected.as_str()), "{args:?}");
    }
    use std::os::unix::fs::FileTypeExt;
    let kind = std::fs::symlink_metadata(dir.path().join("sock"))
        .unwrap()
        .file_type();
    assert!(kind.is_socket());
    assert!(std::fs::read_dir(dir.path().join("sub"))
        .unwrap()
        .next()
        .is_none());
    assert_files(dir.path(), &["in.txt", "sock", "sub"]);
    drop(socket);
}

#[test]
fn a_symlink_is_judged_by_its_target() {
    // A link to a fifo, a device or a directory was replaced by a regular file under
    // --force (as root, `-o /dev/stdout --force` replaced /dev/stdout); a link to nothing
    // as well. They are refused as their targets are, OUT and log alike.
    let (dir, _) = dir_with(b"caf\xE9\n");
    let path = |name: &str| dir.path().join(name);
    let status = std::process::Command::new("mkfifo")
        .arg(path("p"))
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::create_dir(path("d")).unwrap();
    let symlink =
        |target: &str, link: &str| std::os::unix::fs::symlink(target, path(link)).unwrap();
    symlink("p", "pl");
    symlink("/dev/null", "nl");
    symlink("d", "dl");
    symlink("missing.txt", "ml");
    symlink("pl", "pll");
    let not_regular =
        "is not a regular file (a device, fifo or socket); repair writes only regular files";
    let dangling =
        "is a symbolic link to nothing; repair writes through a link only to an existing file";
    for (args, expected) in [
        (
            vec!["-o", "pl", "--force"],
            format!("hexrune: pl: {not_regular}\n"),
        ),
        (
            vec!["-o", "pll", "--force"],
            format!("hexrune: pll: {not_regular}\n"),
        ),
        (
            vec!["-o", "nl", "--force"],
            format!("hexrune: nl: {not_regular}\n"),
        ),
        (
            vec!["-o", "dl", "--force"],
            "hexrune: dl: is a directory\n".to_string(),
        ),
        (
            vec!["-o", "dl"],
            "hexrune: dl: is a directory\n".to_string(),
        ),
        (
            vec!["-o", "ml", "--force"],
            format!("hexrune: ml: {dangling}\n"),
        ),
        (vec!["-o", "ml"], format!("hexrune: ml: {dangling}\n")),
        (
            vec!["-o", "out.txt", "--log", "pl", "--force"],
            format!("hexrune: pl: {not_regular}\n"),
        ),
        (
            vec!["-o", "out.txt", "--log", "nl", "--force"],
            format!("hexrune: nl: {not_regular}\n"),
        ),
        (
            vec!["-o", "out.txt", "--log", "dl", "--force"],
            "hexrune: dl: is a directory\n".to_string(),
        ),
    ] {
        let mut all = vec!["in.txt"];
        all.extend(&args);
        let (code, stderr) = repair_in(dir.path(), &all);
        assert_eq!((code, stderr.as_str()), (2, expected.as_str()), "{args:?}");
    }
    for link in ["pl", "nl", "dl", "ml", "pll"] {
        let meta = std::fs::symlink_metadata(path(link)).unwrap();
        assert!(meta.file_type().is_symlink(), "{link}");
    }
    assert!(std::fs::read_dir(path("d")).unwrap().next().is_none());
    assert_files(
        dir.path(),
        &["in.txt", "p", "d", "pl", "nl", "dl", "ml", "pll"],
    );
}

#[test]
fn a_file_replaced_keeps_its_mode_directly_and_through_a_link() {
    use std::os::unix::fs::PermissionsExt;
    let (dir, _) = dir_with(b"caf\xE9\n");
    let path = |name: &str| dir.path().join(name);
    let mode = |name: &str| std::fs::metadata(path(name)).unwrap().permissions().mode() & 0o7777;
    for (target, out) in [("private.txt", "private.txt"), ("shared.txt", "link.txt")] {
        std::fs::write(path(target), b"old").unwrap();
        std::fs::set_permissions(path(target), std::fs::Permissions::from_mode(0o600)).unwrap();
        if target != out {
            std::os::unix::fs::symlink(target, path(out)).unwrap();
        }
        let (code, stderr) = repair_in(dir.path(), &["in.txt", "-o", out, "--force"]);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(
            std::fs::read(path(target)).unwrap(),
            "caf\u{FFFD}\n".as_bytes()
        );
        assert_eq!(mode(target), 0o600, "{target} stays private");
    }
    // A new file gets the usual mode.
    let (code, stderr) = repair_in(dir.path(), &["in.txt", "-o", "new.txt"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(mode("new.txt"), mode("in.txt") & 0o666);
}

#[test]
fn a_symlink_to_a_regular_file_is_written_through() {
    // The copy replaces the link's target, atomically (its temporary file beside the
    // target, in the target's directory), and the link stays; the log likewise.
    let (dir, _) = dir_with(b"caf\xE9\n");
    let path = |name: &str| dir.path().join(name);
    std::fs::create_dir(path("elsewhere")).unwrap();
    std::fs::write(path("elsewhere/target.txt"), b"old").unwrap();
    std::fs::write(path("elsewhere/log.jsonl"), b"old").unwrap();
    std::os::unix::fs::symlink("elsewhere/target.txt", path("out.txt")).unwrap();
    std::os::unix::fs::symlink("elsewhere/log.jsonl", path("log.jsonl")).unwrap();
    let (code, stderr) = repair_in(dir.path(), &["in.txt", "-o", "out.txt"]);
    assert_eq!(
        (code, stderr.as_str()),
        (2, "hexrune: out.txt: exists (--force replaces it)\n")
    );
    let (code, stderr) = repair_in(
        dir.path(),
        &["in.txt", "-o", "out.txt", "--log", "log.jsonl", "--force"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.starts_with("repair: in.txt (5 bytes) -> out.txt (7 bytes): 1 unit changed\n"),
        "{stderr}"
    );
    for link in ["out.txt", "log.jsonl"] {
        let meta = std::fs::symlink_metadata(path(link)).unwrap();
        assert!(meta.file_type().is_symlink(), "{link}");
    }
    assert_eq!(
        std::fs::read(path("elsewhere/target.txt")).unwrap(),
        "caf\u{FFFD}\n".as_bytes()
    );
    let log = std::fs::read_to_string(path("elsewhere/log.jsonl")).unwrap();
    assert_eq!(log.lines().count(), 2, "{log}");
    assert!(log.starts_with(r#"{"type":"repair""#), "{log}");
    assert_files(&path("elsewhere"), &["target.txt", "log.jsonl"]);
    assert_files(dir.path(), &["in.txt", "elsewhere", "out.txt", "log.jsonl"]);
    // A link to the input is still the input.
    std::os::unix::fs::symlink("../in.txt", path("elsewhere/in-link")).unwrap();
    std::os::unix::fs::symlink("elsewhere/in-link", path("chain")).unwrap();
    let (code, stderr) = repair_in(dir.path(), &["in.txt", "-o", "chain", "--force"]);
    assert_eq!(
        (code, stderr.as_str()),
        (
            2,
            "hexrune: chain: is the input; repair never writes its input (choose another path)\n"
        )
    );
    assert_eq!(std::fs::read(path("in.txt")).unwrap(), b"caf\xE9\n");
}

#[test]
fn a_summary_that_cannot_be_told_does_not_undo_the_copy() {
    let (dir, _) = dir_with(b"caf\xE9\n");
    let output = std::process::Command::new(common::binary())
        .current_dir(dir.path())
        .args(["repair", "in.txt", "-o", "out.txt"])
        .stderr(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        std::fs::read(dir.path().join("out.txt")).unwrap(),
        "caf\u{FFFD}\n".as_bytes()
    );
}

#[test]
fn unwritable_places_and_missing_inputs_are_one_line_errors() {
    let (dir, _) = dir_with(b"a");
    // /proc takes no new files, whoever runs the test (root too).
    let (code, stderr) = repair_in(dir.path(), &["in.txt", "-o", "/proc/hexrune-out.txt"]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("hexrune: /proc/hexrune-out.txt: "),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1);
    let (code, stderr) = repair_in(dir.path(), &["in.txt", "-o", "in.txt/out.txt"]);
    assert_eq!(
        (code, stderr.as_str()),
        (2, "hexrune: in.txt/out.txt: not a directory\n")
    );
    let (code, stderr) = repair_in(dir.path(), &["nope.txt", "-o", "out.txt"]);
    assert_eq!(
        (code, stderr.as_str()),
        (2, "hexrune: nope.txt: no such file or directory\n")
    );
    let (code, stderr) = repair_in(
        dir.path(),
        &[
            "in.txt",
            "-o",
            "o",
            "--invalid",
            "escape=optu8",
            "--unescape",
            "optu8",
        ],
    );
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "hexrune: in.txt: --unescape and --invalid escape=... undo each other; give one\n"
    );
    assert_files(dir.path(), &["in.txt"]);
}

/// Runs `hexrune ARGS` in `dir` with standard output on /dev/full: exit code and stderr.
fn to_dev_full(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let output = std::process::Command::new(common::binary())
        .current_dir(dir)
        .args(args)
        .stdout(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// A stdout that fails is said once: a large copy fails while it is written, a small one
/// in the buffers at the end (it was said twice, once by repair, once by the last flush).
#[test]
fn a_full_disk_is_an_error() {
    for input in [
        b"a\xE9".repeat(100_000),
        b"caf\xE9, 5 \xE2\x82 \xC0\xAF\n".to_vec(),
    ] {
        let (dir, _) = dir_with(&input);
        assert_eq!(
            to_dev_full(dir.path(), &["repair", "in.txt", "-o", "-"]),
            (
                Some(2),
                "hexrune: <stdout>: no space left on device\n".to_string()
            ),
            "{} bytes",
            input.len()
        );
        // Other commands say it once too, at the last flush.
        assert_eq!(
            to_dev_full(dir.path(), &["check", "in.txt"]),
            (
                Some(2),
                "hexrune: <stdout>: no space left on device\n".to_string()
            )
        );
    }
}

/// `--log -` is written once OUT is in place: where stdout then fails, OUT stays, whole,
/// and the one line says so (it said only the stdout error, twice), with exit 2 (the log
/// asked for is missing). A small log fails at the last flush, a large one while written.
#[test]
fn a_log_that_stdout_refuses_leaves_out_written_and_says_so() {
    for (input, output) in [
        (
            b"caf\xE9, 5 \xE2\x82 \xC0\xAF\n".to_vec(),
            "caf\u{FFFD}, 5 \u{FFFD} \u{FFFD}\u{FFFD}\n".to_string(),
        ),
        (b"a\xE9".repeat(50_000), "a\u{FFFD}".repeat(50_000)),
    ] {
        let (dir, _) = dir_with(&input);
        assert_eq!(
            to_dev_full(dir.path(), &["repair", "in.txt", "-o", "out.txt", "--log", "-"]),
            (
                Some(2),
                "hexrune: <stdout>: no space left on device; out.txt was written whole, its log was not\n"
                    .to_string()
            ),
            "{} bytes",
            input.len()
        );
        assert!(std::fs::read(dir.path().join("out.txt")).unwrap() == output.as_bytes());
        assert_files(dir.path(), &["in.txt", "out.txt"]);
    }
}

#[test]
fn the_log_replayed_on_the_input_gives_the_output() {
    let input = b"\xEF\xBB\xBFa\xE9b\xF0\x9F\x98\n\xEF\xBB\xBFc\xC0\x80";
    let (dir, _) = dir_with(input);
    let (code, stderr) = repair_in(
        dir.path(),
        &[
            "in.txt",
            "-o",
            "out.txt",
            "--bom",
            "strip",
            "--invalid",
            "fallback",
            "--log",
            "log.jsonl",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let output = std::fs::read(dir.path().join("out.txt")).unwrap();
    assert_eq!(
        output,
        "aéb\u{F0}\u{178}\u{2DC}\nc\u{C0}\u{20AC}".as_bytes()
    );
    let log = std::fs::read_to_string(dir.path().join("log.jsonl")).unwrap();
    let mut lines = log.lines();
    let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    let sha = |b: &[u8]| format!("{:x}", Sha256::digest(b));
    assert_eq!(
        header,
        serde_json::json!({"type": "repair",
            "input": {"path": "in.txt", "size": input.len(), "sha256": sha(input)},
            "output": {"path": "out.txt", "size": output.len(), "sha256": sha(&output)}})
    );
    let changes: Vec<serde_json::Value> = lines.map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(
        changes[0],
        serde_json::json!({"type": "change", "offset": 0, "len": 3, "kind": "bom", "old": "efbbbf", "new": "", "why": "--bom strip"})
    );
    assert_eq!(
        changes[1],
        serde_json::json!({"type": "change", "offset": 4, "len": 1, "kind": "truncated", "old": "e9", "new": "c3a9", "why": "--invalid fallback=windows-1252"})
    );
    assert_eq!(replay_log(input, &changes), output);
    assert_files(dir.path(), &["in.txt", "out.txt", "log.jsonl"]);
}

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

/// The change records applied to `input`.
fn replay_log(input: &[u8], changes: &[serde_json::Value]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut at = 0;
    for c in changes {
        let offset = c["offset"].as_u64().unwrap() as usize;
        let len = c["len"].as_u64().unwrap() as usize;
        let old = unhex(c["old"].as_str().unwrap());
        assert_eq!(&input[offset..offset + len], old.as_slice());
        out.extend_from_slice(&input[at..offset]);
        out.extend_from_slice(&unhex(c["new"].as_str().unwrap()));
        at = offset + len;
    }
    out.extend_from_slice(&input[at..]);
    out
}

/// What Python's `bytes.decode('utf-8', 'replace').encode()` writes.
fn python_replace(input: &[u8]) -> Option<Vec<u8>> {
    let code = "import sys; sys.stdout.buffer.write(sys.stdin.buffer.read().decode('utf-8','replace').encode())";
    Some(python(code, common::NO_ARGS, input)?.stdout)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// The output of every policy that promises UTF-8 passes `hexrune check`; `replace`
    /// writes what Python writes; the log replays to the output.
    #[test]
    fn outputs_pass_check_and_agree_with_python(input in proptest::collection::vec(any::<u8>(), 0..200)) {
        let (dir, _) = dir_with(&input);
        for (i, policy) in ["replace", "drop", "fallback", "fallback=koi8-r", "escape=optu8"].iter().enumerate() {
            let out = format!("out{i}.txt");
            let log = format!("log{i}.jsonl");
            let (code, stderr) = repair_in(dir.path(), &["in.txt", "-o", &out, "--invalid", policy, "--log", &log]);
            prop_assert_eq!(code, 0, "{}", stderr);
            hexrune().current_dir(dir.path()).args(["check", &out]).assert().code(0);
            let written = std::fs::read(dir.path().join(&out)).unwrap();
            let log = std::fs::read_to_string(dir.path().join(&log)).unwrap();
            let changes: Vec<serde_json::Value> = log.lines().skip(1).map(|l| serde_json::from_str(l).unwrap()).collect();
            prop_assert_eq!(replay_log(&input, &changes), written.clone());
            if *policy == "replace" {
                if let Some(python) = python_replace(&input) {
                    prop_assert_eq!(written, python);
                }
            }
        }
    }
}

/// Killed in the middle of writing, by any signal whose default action ends the process
/// and that can be caught: no OUT and no temporary file, exit 2. SIGUSR1, SIGUSR2, SIGALRM
/// and the others after SIGQUIT ended the process and left the temporary file beside OUT.
#[test]
fn an_interrupted_run_leaves_nothing() {
    let signals = [
        libc::SIGTERM,
        libc::SIGINT,
        libc::SIGQUIT,
        libc::SIGHUP,
        libc::SIGUSR1,
        libc::SIGUSR2,
        libc::SIGALRM,
        libc::SIGVTALRM,
        libc::SIGPROF,
        libc::SIGXCPU,
        libc::SIGXFSZ,
        libc::SIGIO,
        libc::SIGPWR,
        libc::SIGSTKFLT,
        libc::SIGABRT,
        libc::SIGTRAP,
        libc::SIGSYS,
        libc::SIGRTMIN(),
        libc::SIGRTMAX(),
    ];
    for signal in signals {
        an_interrupted_run_leaves_nothing_after(signal, None);
    }
    // An OUT that was there (--force) is left as it was.
    an_interrupted_run_leaves_nothing_after(libc::SIGUSR1, Some(b"old\n"));
}

/// `command` with `signal`'s default action in the child, whatever the tests were started
/// with: a signal ignored at the start stays ignored (`nohup cargo test` ignores SIGHUP, a
/// shell's background job SIGINT and SIGQUIT), and the tests below ask what a caught one
/// does.
fn with_default(
    command: &mut std::process::Command,
    signal: libc::c_int,
) -> &mut std::process::Command {
    use std::os::unix::process::CommandExt;
    // SAFETY: between fork and exec the child only sets one signal's disposition, which is
    // async-signal-safe.
    unsafe {
        command.pre_exec(move || {
            libc::signal(signal, libc::SIG_DFL);
            Ok(())
        })
    }
}

/// A signal that comes while the input's first bytes are awaited (a FIFO whose writer has
/// written a line and waits) ends the run as any other does: exit 2, the one line, no
/// file. It ended the process with the signal's default action (exit 140 for SIGUSR2),
/// saying nothing.
#[test]
fn a_signal_before_the_input_is_read_ends_the_run_as_any_other() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("in.fifo");
    let c_path = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: mkfifo with a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    let mut command = std::process::Command::new(common::binary());
    command
        .current_dir(dir.path())
        .args(["repair", "in.fifo", "-o", "out.txt"])
        .stderr(Stdio::piped());
    let child = with_default(&mut command, libc::SIGUSR2).spawn().unwrap();
    // Opened once the child opens it to read.
    let mut writer = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    writer.write_all(b"abc\xFF\n").unwrap();
    std::thread::sleep(Duration::from_millis(400));
    let killed = std::process::Command::new("kill")
        .args(["-s", "USR2", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let output = child.wait_with_output().unwrap();
    drop(writer);
    assert_eq!(
        (
            output.status.code(),
            String::from_utf8(output.stderr).unwrap()
        ),
        (
            Some(2),
            "hexrune: out.txt: interrupted; nothing was written\n".to_string()
        )
    );
    assert_files(dir.path(), &["in.fifo"]);
}

/// A signal ignored when `repair` started (as `nohup` leaves SIGHUP, a shell a background
/// job's SIGINT, `trap '' USR1`) stays ignored: the run goes on and writes OUT whole. They
/// were caught and ended it (`interrupted`, exit 2), so that `nohup hexrune repair` died
/// with its terminal.
#[test]
fn a_signal_ignored_at_the_start_stays_ignored() {
    use std::io::Write;
    use std::os::unix::process::CommandExt;
    for signal in [libc::SIGHUP, libc::SIGUSR1, libc::SIGINT] {
        let dir = tempfile::tempdir().unwrap();
        let mut command = std::process::Command::new(common::binary());
        command
            .current_dir(dir.path())
            .args(["repair", "-", "-o", "out.txt"])
            .stdin(Stdio::piped())
            .stderr(Stdio::piped());
        // SAFETY: between fork and exec the child only sets one signal's disposition, which
        // is async-signal-safe.
        unsafe {
            command.pre_exec(move || {
                libc::signal(signal, libc::SIG_IGN);
                Ok(())
            });
        }
        let mut child = command.spawn().unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let block = "caf\u{E9}\n".as_bytes().repeat(1 << 20);
        stdin.write_all(&block).unwrap();
        // Mid-read: the signal comes, and more input after it.
        std::thread::sleep(Duration::from_millis(300));
        let killed = std::process::Command::new("kill")
            .args(["-s", &signal.to_string(), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        std::thread::sleep(Duration::from_millis(200));
        stdin.write_all(&block).unwrap();
        drop(stdin);
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{signal}: {output:?}");
        assert_eq!(
            std::fs::read(dir.path().join("out.txt")).unwrap().len(),
            2 * block.len(),
            "{signal}"
        );
        assert_files(dir.path(), &["out.txt"]);
    }
}

/// Runs `repair - -o out.txt` (with `--force` over `old`, if given) on a pipe, sends
/// `signal` once the temporary file holds bytes, and asserts exit 2, the one line on
/// stderr, and that the directory holds what it held.
fn an_interrupted_run_leaves_nothing_after(signal: i32, old: Option<&[u8]>) {
    {
        let dir = tempfile::tempdir().unwrap();
        if let Some(old) = old {
            std::fs::write(dir.path().join("out.txt"), old).unwrap();
        }
        let force: &[&str] = match old {
            Some(_) => &["--force"],
            None => &[],
        };
        let mut command = std::process::Command::new(common::binary());
        command
            .current_dir(dir.path())
            .args(["repair", "-", "-o", "out.txt"])
            .args(force)
            .stdin(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = with_default(&mut command, signal).spawn().unwrap();
        let mut stdin = child.stdin.take().unwrap();
        // Feed 8 MiB (more than a chunk, so writing has begun), keep the pipe open.
        use std::io::Write;
        let block = "text with errors \u{E9}\u{20AC}\n"
            .as_bytes()
            .repeat(1 << 12);
        let mut fed = 0;
        while fed < 8 << 20 {
            stdin.write_all(&block).unwrap();
            stdin.write_all(b"\xE9").unwrap();
            fed += block.len() + 1;
        }
        // Wait until the temporary file holds bytes: the run is mid-write.
        let started = Instant::now();
        loop {
            let temp_size: u64 = std::fs::read_dir(dir.path())
                .unwrap()
                .filter_map(|e| e.ok())
                .filter(|e| {
                    e.file_name()
                        .to_string_lossy()
                        .starts_with(".hexrune-repair-")
                })
                .map(|e| e.metadata().map_or(0, |m| m.len()))
                .sum();
            if temp_size > 0 {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "no temporary file appeared"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        let killed = std::process::Command::new("kill")
            .args(["-s", &signal.to_string(), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success(), "kill -s {signal}");
        let output = child.wait_with_output().unwrap();
        drop(stdin);
        assert_eq!(
            (
                output.status.code(),
                String::from_utf8(output.stderr).unwrap()
            ),
            (
                Some(2),
                "hexrune: out.txt: interrupted; nothing was written\n".to_string()
            ),
            "{signal}: {:?}",
            output.status
        );
        match old {
            Some(old) => {
                assert_files(dir.path(), &["out.txt"]);
                assert_eq!(std::fs::read(dir.path().join("out.txt")).unwrap(), old);
            }
            None => assert_files(dir.path(), &[]),
        }
    }
}

/// Interrupted while its copy goes to standard output, repair says what is true: bytes
/// went there, and they are not the whole copy. It said "nothing was written".
#[test]
fn an_interrupted_run_to_stdout_says_the_output_is_incomplete() {
    use std::io::{Read, Write};
    let mut command = std::process::Command::new(common::binary());
    command
        .args(["repair", "-", "-o", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // A run started in the background without job control ignores SIGINT, and a signal
    // ignored at the start stays ignored: the child gets its default action.
    let mut child = with_default(&mut command, libc::SIGINT).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let block = "text \u{E9}\n".as_bytes().repeat(1 << 12);
        while stdin.write_all(&block).is_ok() {}
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut got = vec![0; 1 << 16];
    let mut read = 0;
    while read < 2 << 20 {
        read += stdout.read(&mut got).unwrap();
    }
    let drain = std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let output = child.wait_with_output().unwrap();
    drain.join().unwrap().unwrap();
    feeder.join().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "hexrune: <stdout>: interrupted; what was written there is incomplete\n"
    );
}

#[test]
fn dialect_and_unescape_from_the_command_line() {
    let (dir, _) = dir_with(b"\xED\xA0\xBD\xED\xB8\x80 \xC0\x80");
    let (code, _) = repair_in(dir.path(), &["-d", "mutf8", "in.txt", "-o", "out.txt"]);
    assert_eq!(code, 0);
    assert_eq!(
        std::fs::read(dir.path().join("out.txt")).unwrap(),
        "😀 \0".as_bytes()
    );
    std::fs::write(dir.path().join("e.txt"), b"a\xED\xB3\xA9\xEE\xBF\xA9").unwrap();
    let (code, stderr) = repair_in(
        dir.path(),
        &["--unescape", "pep383", "e.txt", "-o", "p.txt"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        std::fs::read(dir.path().join("p.txt")).unwrap(),
        b"a\xE9\xEE\xBF\xA9"
    );
}

#[test]
fn from_an_encoding_writes_utf8_and_logs_source_offsets() {
    // UTF-16LE with a BOM, "é", an unpaired high surrogate, "!".
    let (dir, _) = dir_with(b"\xFF\xFE\xE9\x00\x00\xD8!\x00");
    let (code, stderr) = repair_in(
        dir.path(),
        &[
            "in.txt",
            "-o",
            "out.txt",
            "--from",
            "utf-16le",
            "--log",
            "log.jsonl",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        std::fs::read(dir.path().join("out.txt")).unwrap(),
        "\u{FEFF}é\u{FFFD}!".as_bytes()
    );
    assert_eq!(
        stderr,
        [
            "repair: in.txt (8 bytes) -> out.txt (9 bytes): 1 unit changed",
            "             read as UTF-16LE",
            "           1 unpaired_high_surrogate  replaced with U+FFFD\n",
        ]
        .join("\n")
    );
    let log = std::fs::read_to_string(dir.path().join("log.jsonl")).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 2);
    let input_sha = format!("{:x}", Sha256::digest(b"\xFF\xFE\xE9\x00\x00\xD8!\x00"));
    assert!(
        lines[0].contains(&format!("\"size\":8,\"sha256\":\"{input_sha}\"")),
        "{}",
        lines[0]
    );
    assert_eq!(
        lines[1],
        r#"{"type":"change","offset":4,"len":2,"kind":"unpaired_high_surrogate","old":"00d8","new":"efbfbd","why":"--invalid replace"}"#
    );
    // hexrune check agrees the output is UTF-8.
    hexrune()
        .current_dir(dir.path())
        .args(["check", "out.txt"])
        .assert()
        .code(0);
}

#[test]
fn from_refusals_are_one_line() {
    let (dir, _) = dir_with(b"\x82\xA0");
    let (code, stderr) = repair_in(
        dir.path(),
        &[
            "in.txt",
            "-o",
            "out.txt",
            "--from",
            "shift_jis",
            "--invalid",
            "keep",
        ],
    );
    assert_eq!((code, stderr.lines().count()), (2, 1), "{stderr}");
    assert!(stderr.starts_with("hexrune: in.txt: --invalid keep would write Shift_JIS bytes"));
    let (code, stderr) = repair_in(dir.path(), &["in.txt", "-o", "out.txt", "--from", "nope"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown encoding 'nope'"), "{stderr}");
    assert_files(dir.path(), &["in.txt"]);
}

#[test]
fn from_shift_jis_and_auto() {
    let (dir, _) = dir_with(b"\x93\xFA\x96\x7B\x8C\xEA\n");
    let (code, stderr) = repair_in(dir.path(), &["in.txt", "-o", "out.txt", "--from", "sjis"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        std::fs::read(dir.path().join("out.txt")).unwrap(),
        "日本語\n".as_bytes()
    );
    let utf16 = wide::text(Dialect::Utf16Be, &"Grüße aus Köln!\n".repeat(6));
    let (dir, _) = dir_with(&[b"\xFE\xFF".as_slice(), &utf16].concat());
    let (code, stderr) = repair_in(
        dir.path(),
        &[
            "in.txt", "-o", "out.txt", "--from", "auto", "--bom", "strip",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        std::fs::read(dir.path().join("out.txt")).unwrap(),
        "Grüße aus Köln!\n".repeat(6).as_bytes()
    );
    // The summary says what auto took the input to be (it once said nothing of it).
    assert_eq!(
        stderr,
        "repair: in.txt (194 bytes) -> out.txt (114 bytes): 1 unit changed\n\
         \x20            read as UTF-16BE (--from auto: what detect finds)\n\
         \x20          1 bom                      removed\n"
    );
}

#[test]
fn mojibake_from_a_file_and_from_a_pipe() {
    let input = "Il a dit : Lâ€™Ã©tÃ© Ã©tait chaud.\nC’est tout.\n";
    let (dir, _) = dir_with(input.as_bytes());
    let (code, stderr) = repair_in(
        dir.path(),
        &[
            "in.txt",
            "-o",
            "out.txt",
            "--mojibake",
            "--log",
            "log.jsonl",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let expected = "Il a dit : L’été était chaud.\nC’est tout.\n";
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out.txt")).unwrap(),
        expected
    );
    assert_eq!(
        stderr,
        format!(
            "repair: in.txt ({} bytes) -> out.txt ({} bytes): 1 unit changed\n           1 mojibake                 undone (UTF-8 read as windows-1252)\n",
            input.len(),
            expected.len()
        )
    );
    let log = std::fs::read_to_string(dir.path().join("log.jsonl")).unwrap();
    let change = log.lines().nth(1).unwrap();
    assert_eq!(
        change,
        format!(
            r#"{{"type":"change","offset":12,"len":22,"kind":"mojibake","old":"{}","new":"{}","why":"--mojibake: UTF-8 read as windows-1252"}}"#,
            to_hex(&input.as_bytes()[12..34]),
            to_hex("’été é".as_bytes())
        )
    );
    let output = output_with_stdin(["repair", "-", "-o", "-", "--mojibake"], input);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8(output.stdout).unwrap(), expected);
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Runs `repair` in `dir`; returns the exit code, stdout and stderr.
fn repair_out(dir: &Path, args: &[&str]) -> (i32, Vec<u8>, String) {
    let output = hexrune()
        .current_dir(dir)
        .arg("repair")
        .args(args)
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        output.stdout,
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn a_utf16_bom_overrides_the_labels_byte_order() {
    // UTF-16BE with its BOM, read with a UTF-16LE label (utf-16 is UTF-16LE), and the
    // other way round; Python's utf-16 codec follows the BOM too.
    let be = [
        b"\xFE\xFF".as_slice(),
        &wide::text(Dialect::Utf16Be, "héllo\n"),
    ]
    .concat();
    let le = [
        b"\xFF\xFE".as_slice(),
        &wide::text(Dialect::Utf16Le, "héllo\n"),
    ]
    .concat();
    // The summary names the label as it was given (utf-16, not UTF-16LE).
    for (input, label, read) in [
        (&be, "utf-16", "UTF-16BE"),
        (&be, "utf-16le", "UTF-16BE"),
        (&le, "UTF-16be", "UTF-16LE"),
    ] {
        let code = "import sys; sys.stdout.buffer.write(sys.stdin.buffer.read().decode('utf-16').encode())";
        let expected = "\u{FEFF}héllo\n".as_bytes();
        if let Some(python) = common::python_bytes(code, common::NO_ARGS, input) {
            assert_eq!(python.as_slice(), &expected[3..], "{label}");
        }
        let summary = format!(
            "repair: {{}} (14 bytes) -> <stdout> (10 bytes): 0 units changed\n\
             \x20            read as {read} (its BOM overrides --from {label})\n"
        );
        let (dir, _) = dir_with(input);
        let (code, stdout, stderr) =
            repair_out(dir.path(), &["--from", label, "in.txt", "-o", "-"]);
        assert_eq!(
            (code, stdout.as_slice()),
            (0, expected),
            "{label}: {stderr}"
        );
        assert_eq!(stderr, summary.replace("{}", "in.txt"));
        // From a pipe, the BOM is read first too.
        let output = output_with_stdin(["repair", "--from", label, "-", "-o", "-"], input.clone());
        assert_eq!(output.status.code(), Some(0));
        assert_eq!(output.stdout, expected);
        assert_eq!(
            String::from_utf8(output.stderr).unwrap(),
            summary.replace("{}", "<stdin>")
        );
    }
    // UTF-32: the UTF-32 BOM chooses the byte order.
    let (dir, _) = dir_with(b"\xFF\xFE\x00\x00h\x00\x00\x00");
    let (code, stdout, stderr) = repair_out(
        dir.path(),
        &["--from", "utf-32be", "--bom", "strip", "in.txt", "-o", "-"],
    );
    assert_eq!((code, stdout.as_slice()), (0, b"h".as_slice()), "{stderr}");
    assert!(
        stderr.contains("read as UTF-32LE (its BOM overrides --from utf-32be)\n"),
        "{stderr}"
    );
}

/// `--from LABEL --bom strip` on `input`, from a file and from a pipe: both must write
/// `expected` (which Python's reading, `input` then `decoding`, must give where python3
/// runs) and say `summary` (with `{}` for the input's name).
fn assert_read_as(input: &[u8], label: &str, decoding: &str, expected: &str, summary: &str) {
    let code =
        format!("import sys; sys.stdout.buffer.write(sys.stdin.buffer.read(){decoding}.encode())");
    if let Some(python) = common::python_bytes(&code, common::NO_ARGS, input) {
        assert_eq!(python, expected.as_bytes(), "{label}: the oracle");
    }
    let (dir, _) = dir_with(input);
    let args = ["--from", label, "--bom", "strip"];
    let (code, stdout, stderr) =
        repair_out(dir.path(), &[&args[..], &["in.txt", "-o", "-"]].concat());
    assert_eq!(
        (code, stdout.as_slice()),
        (0, expected.as_bytes()),
        "{label}: {stderr}"
    );
    assert_eq!(stderr, summary.replace("{}", "in.txt"), "{label}");
    let output = output_with_stdin(
        ["repair"].iter().chain(&args).chain(&["-", "-o", "-"]),
        input,
    );
    assert_eq!(output.status.code(), Some(0), "{label} from a pipe");
    assert_eq!(output.stdout, expected.as_bytes(), "{label} from a pipe");
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        summary.replace("{}", "<stdin>"),
        "{label} from a pipe"
    );
}

#[test]
fn a_bom_overrides_every_label_that_names_another_encoding() {
    let text = "Привет мир\n".repeat(3);
    // A UTF-16LE BOM overrides a label of the UTF-8 family and a UTF-32 label too: UTF-8
    // had written the text's UTF-16 code units as control bytes, UTF-32BE 17 U+FFFD.
    let le = [b"\xFF\xFE".as_slice(), &wide::text(Dialect::Utf16Le, &text)].concat();
    for label in [
        "utf-8",
        "cesu8",
        "utf-32be",
        "UTF-32LE",
        "windows-1252",
        "shift_jis",
    ] {
        let summary = format!(
            "repair: {{}} (68 bytes) -> <stdout> (60 bytes): 1 unit changed\n\
             \x20            read as UTF-16LE (its BOM overrides --from {label})\n\
             \x20          1 bom                      removed\n"
        );
        assert_read_as(&le, label, ".decode('utf-16')", &text, &summary);
    }
    // A UTF-32 BOM is read before UTF-16's, which it starts with: UTF-16LE had written a
    // NUL after each character.
    let text = "Привет мир\n";
    let le32 = [
        b"\xFF\xFE\x00\x00".as_slice(),
        &wide::text(Dialect::Utf32Le, text),
    ]
    .concat();
    let be32 = [
        b"\x00\x00\xFE\xFF".as_slice(),
        &wide::text(Dialect::Utf32Be, text),
    ]
    .concat();
    for (input, label, read) in [
        (&le32, "utf-16le", "UTF-32LE"),
        (&le32, "utf-16", "UTF-32LE"),
        (&le32, "utf-8", "UTF-32LE"),
        (&le32, "latin1", "UTF-32LE"),
        (&be32, "utf-16be", "UTF-32BE"),
        (&be32, "utf-32le", "UTF-32BE"),
        (&be32, "windows-1251", "UTF-32BE"),
    ] {
        let summary = format!(
            "repair: {{}} (48 bytes) -> <stdout> (20 bytes): 1 unit changed\n\
             \x20            read as {read} (its BOM overrides --from {label})\n\
             \x20          1 bom                      removed\n"
        );
        assert_read_as(input, label, ".decode('utf-32')", text, &summary);
    }
    // A UTF-8 BOM is the same bytes in every dialect of the UTF-8 family: --from cesu8
    // stays CESU-8 (😀 as a surrogate pair).
    let cesu = b"\xEF\xBB\xBFgrin \xED\xA0\xBD\xED\xB8\x80\n";
    assert_read_as(
        cesu,
        "cesu8",
        ".decode('utf-8-sig', 'surrogatepass').encode('utf-16-le', 'surrogatepass').decode('utf-16-le')",
        "grin \u{1F600}\n",
        "repair: {} (15 bytes) -> <stdout> (10 bytes): 2 units changed\n\
         \x20          1 bom                      removed\n\
         \x20          1 dialect_form             written in UTF-8's form (from cesu8)\n",
    );
}

#[test]
fn a_refusal_of_the_boms_encoding_says_the_bom_chose_it() {
    let input = [
        b"\xFF\xFE".as_slice(),
        &wide::text(Dialect::Utf16Le, "hé\n"),
    ]
    .concat();
    let (dir, _) = dir_with(&input);
    for (options, cause) in [
        (
            &["--mojibake"][..],
            "--mojibake reads UTF-8, not UTF-16LE; convert with --from alone first, then run --mojibake on the copy",
        ),
        (
            &["--invalid", "keep"][..],
            "--invalid keep would write UTF-16LE bytes, and --from writes UTF-8 only; choose replace, drop or escape",
        ),
        (
            &["--invalid", "fallback"][..],
            "--invalid fallback=windows-1252: an error of UTF-16LE is a code unit (a lone surrogate, a unit cut short), whose bytes no single-byte encoding reads as text; choose replace, drop or escape",
        ),
    ] {
        let args = [&["--from", "utf-8"][..], options, &["in.txt", "-o", "out.txt"]].concat();
        let (code, stderr) = repair_in(dir.path(), &args);
        assert_eq!(
            (code, stderr),
            (
                2,
                format!("hexrune: in.txt: read as UTF-16LE (its BOM overrides --from utf-8): {cause}\n")
            )
        );
    }
    assert_files(dir.path(), &["in.txt"]);
}

#[test]
fn fallback_refuses_multi_byte_encodings_and_counts_what_it_read() {
    let (dir, _) = dir_with(b"ok \xE2\x9C\x93 \x93\xFA\x96\x7B\x8C\xEA\n");
    for (label, name) in [("shift_jis", "Shift_JIS"), ("gbk", "GBK")] {
        let (code, stderr) = repair_in(
            dir.path(),
            &[
                "--invalid",
                &format!("fallback={label}"),
                "in.txt",
                "-o",
                "-",
            ],
        );
        assert_eq!(code, 2);
        assert_eq!(
            stderr,
            format!(
                "error: invalid value 'fallback={label}' for '--invalid <POLICY>': {name} reads several bytes as one character, and an error unit is read alone; give a single-byte encoding, or --from {name} to read the whole input in it\n\nUsage: hexrune repair [OPTIONS] --output <OUT> <IN>\n\nFor more information, try '--help'.\n"
            )
        );
    }
    assert_files(dir.path(), &["in.txt"]);
    // x-user-defined reads every byte as a private-use character: no text.
    for label in ["x-user-defined", " X-User-Defined"] {
        let (code, stderr) = repair_in(
            dir.path(),
            &[
                "--invalid",
                &format!("fallback={label}"),
                "in.txt",
                "-o",
                "out.txt",
            ],
        );
        assert_eq!(
            (code, stderr.as_str()),
            (2, format!("error: invalid value 'fallback={label}' for '--invalid <POLICY>': x-user-defined reads each byte 80..FF as a private-use character (U+F780..U+F7FF), not as text; give the encoding the bytes were written in (windows-1252, latin2, ...), or escape=optu8 to keep them reversibly\n\nUsage: hexrune repair [OPTIONS] --output <OUT> <IN>\n\nFor more information, try '--help'.\n").as_str())
        );
        // And so is reading the whole input in it.
        let (code, stderr) = repair_in(dir.path(), &["--from", label, "in.txt", "-o", "out.txt"]);
        assert_eq!(
            (code, stderr.as_str()),
            (2, format!("error: invalid value '{label}' for '--from <LABEL>': x-user-defined reads each byte 80..FF as a private-use character (U+F780..U+F7FF), not as text; give the encoding the bytes were written in (windows-1252, latin2, ...), or leave out --from and escape them with --invalid escape=optu8\n\nUsage: hexrune repair [OPTIONS] --output <OUT> <IN>\n\nFor more information, try '--help'.\n").as_str())
        );
    }
    assert_files(dir.path(), &["in.txt"]);
    // E9: é; 81: undefined in windows-1252; E2 81: â and an undefined byte.
    let (dir, _) = dir_with(b"a\xE9b\x81\xE2\x81x");
    let (code, stdout, stderr) =
        repair_out(dir.path(), &["--invalid", "fallback", "in.txt", "-o", "-"]);
    assert_eq!(code, 0);
    assert_eq!(stdout, "aéb\u{FFFD}â\u{FFFD}x".as_bytes());
    assert_eq!(
        stderr,
        "repair: in.txt (7 bytes) -> <stdout> (13 bytes): 3 units changed\n\
         \x20          1 truncated                read in windows-1252\n\
         \x20          1 truncated                read in windows-1252, U+FFFD for the bytes it leaves undefined\n\
         \x20          1 unexpected_continuation  replaced with U+FFFD (undefined in windows-1252)\n"
    );
}

#[test]
fn from_and_dialect_are_refused_together_for_every_label() {
    let (dir, _) = dir_with(b"grin \xED\xA0\xBD\xED\xB8\x80 nul \xC0\x80\n");
    for (from, dialect) in [
        ("utf-8", "cesu8"),
        ("cesu8", "mutf8"),
        ("latin1", "cesu8"),
        ("auto", "mutf8"),
    ] {
        let (code, stderr) = repair_in(
            dir.path(),
            &[
                "--from",
                from,
                "--dialect",
                dialect,
                "in.txt",
                "-o",
                "out.txt",
            ],
        );
        assert_eq!(
            (code, stderr.as_str()),
            (
                2,
                "hexrune: in.txt: --from and --dialect both say how to read the input; give one\n"
            ),
            "--from {from} --dialect {dialect}"
        );
    }
    assert_files(dir.path(), &["in.txt"]);
}

#[test]
fn refusals_name_the_options_given() {
    let (dir, _) = dir_with(b"caf\xE9\n");
    let cases: [(&[&str], &str); 5] = [
        (
            &["--from", "latin1", "--unescape", "optu8"],
            "--unescape reads UTF-8, not windows-1252; convert with --from alone first, then run --unescape on the copy",
        ),
        (
            &["--mojibake", "--from", "latin1"],
            "--mojibake reads UTF-8, not windows-1252; convert with --from alone first, then run --mojibake on the copy",
        ),
        (
            &["--from", "cesu8", "--mojibake"],
            "--mojibake reads UTF-8, not CESU-8 (--from cesu8); repair with --from alone first, then run --mojibake on the copy",
        ),
        (
            &["--dialect", "wtf8", "--mojibake"],
            "--mojibake reads UTF-8, not --dialect wtf8; repair with --dialect alone first, then run --mojibake on the copy",
        ),
        (
            &["--from", "latin1", "--invalid", "keep"],
            "--invalid keep would write windows-1252 bytes, and --from writes UTF-8 only; choose replace, drop, fallback or escape",
        ),
    ];
    for (options, cause) in cases {
        let mut args = options.to_vec();
        args.extend(["in.txt", "-o", "out.txt"]);
        let (code, stderr) = repair_in(dir.path(), &args);
        assert_eq!(
            (code, stderr),
            (2, format!("hexrune: in.txt: {cause}\n")),
            "{options:?}"
        );
    }
    // The dialect of another encoding form points to --from.
    let (code, stderr) = repair_in(
        dir.path(),
        &["--dialect", "utf16le", "in.txt", "-o", "out.txt"],
    );
    assert_eq!(code, 2);
    assert!(
        stderr.contains(
            "--dialect is for the UTF-8 family (utf8, cesu8, mutf8, wtf8, legacy); utf16le is another encoding: give --from UTF-16LE to convert it to UTF-8"
        ),
        "{stderr}"
    );
    assert_files(dir.path(), &["in.txt"]);
}

#[test]
fn a_mojibake_chain_is_said_in_the_order_the_text_went_through_it() {
    // UTF-8 read as windows-1250 and written again, then read as windows-1252.
    let text = "Le garçon a mangé une crème brûlée.";
    let read = |bytes: &[u8], encoding: &'static encoding_rs::Encoding| {
        encoding.decode_without_bom_handling(bytes).0.into_owned()
    };
    let first = read(text.as_bytes(), encoding_rs::WINDOWS_1250);
    let once = read(first.as_bytes(), encoding_rs::WINDOWS_1252);
    let (dir, _) = dir_with(format!("{once}\n").as_bytes());
    let (code, stdout, stderr) = repair_out(
        dir.path(),
        &["--mojibake", "in.txt", "-o", "-", "--log", "log.jsonl"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(String::from_utf8(stdout).unwrap(), format!("{text}\n"));
    assert!(
        stderr.ends_with(
            "  1 mojibake                 undone (UTF-8 read as windows-1250, then windows-1252)\n"
        ),
        "{stderr}"
    );
    let log = std::fs::read_to_string(dir.path().join("log.jsonl")).unwrap();
    assert!(
        log.lines()
            .nth(1)
            .unwrap()
            .ends_with(r#""why":"--mojibake: UTF-8 read as windows-1250, then windows-1252"}"#),
        "{log}"
    );
    let detect = hexrune()
        .current_dir(dir.path())
        .args(["detect", "in.txt"])
        .output()
        .unwrap();
    let detect = String::from_utf8(detect.stdout).unwrap();
    assert_eq!(
        detect.lines().nth(1).unwrap(),
        "  mojibake 6..73 (0x6..0x49): windows-1250, then windows-1252 -> \"çon a mangé une crème brûlé\""
    );
}

#[test]
fn a_line_longer_than_16_mib_is_cut_alike_from_a_file_and_a_pipe() {
    // No line feed in the first 16 MiB: the line is searched in pieces of 16 MiB from its
    // start, wherever the bytes come from; "cafÃ© crÃ¨me" starts at the cut, which a
    // pipe's reads once put elsewhere (inside "Ã©"; at the end of input, nowhere).
    let mojibake = "cafÃ© crÃ¨me";
    for tail in [" tail", "", " tail\nmore cafÃ©\n"] {
        let mut input = vec![b'a'; 16 << 20];
        input.extend_from_slice(mojibake.as_bytes());
        input.extend_from_slice(tail.as_bytes());
        let (dir, _) = dir_with(&input);
        let (code, from_file, stderr) = repair_out(
            dir.path(),
            &["--mojibake", "in.txt", "-o", "-", "--log", "file.jsonl"],
        );
        assert_eq!(code, 0, "{stderr}");
        let piped = hexrune()
            .current_dir(dir.path())
            .args([
                "repair",
                "--mojibake",
                "-",
                "-o",
                "-",
                "--log",
                "pipe.jsonl",
            ])
            .write_stdin(input.clone())
            .output()
            .unwrap();
        assert_eq!(piped.status.code(), Some(0));
        assert!(from_file == piped.stdout, "file and pipe differ ({tail:?})");
        // Both cut at 16 MiB: the second piece starts "cafÃ©", whose "Ã©" is found whole.
        let mut expected = vec![b'a'; 16 << 20];
        expected.extend_from_slice("café crème".as_bytes());
        expected.extend_from_slice(tail.replace("cafÃ©", "café").as_bytes());
        assert!(from_file == expected, "{tail:?}");
        let changes = |name: &str| -> Vec<String> {
            std::fs::read_to_string(dir.path().join(name))
                .unwrap()
                .lines()
                .skip(1)
                .map(str::to_string)
                .collect()
        };
        let file_log = changes("file.jsonl");
        assert_eq!(file_log, changes("pipe.jsonl"), "{tail:?}");
        let offsets: Vec<&str> = file_log
            .iter()
            .map(|c| c.split(',').nth(1).unwrap())
            .collect();
        let moved = (16 << 20) + 3;
        assert_eq!(offsets[0], format!("\"offset\":{moved}"), "{tail:?}");
    }
}

#[test]
fn a_log_on_stdout_when_out_is_a_file() {
    let (dir, _) = dir_with(b"a\xE9b");
    let (code, stdout, stderr) = repair_out(dir.path(), &["in.txt", "-o", "out.txt", "--log", "-"]);
    assert_eq!(code, 0, "{stderr}");
    let log = String::from_utf8(stdout).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 2, "{log}");
    assert!(lines[0].starts_with(r#"{"type":"repair","input":{"path":"in.txt","size":3,"#));
    assert_eq!(
        lines[1],
        r#"{"type":"change","offset":1,"len":1,"kind":"truncated","old":"e9","new":"efbfbd","why":"--invalid replace"}"#
    );
    assert_files(dir.path(), &["in.txt", "out.txt"]);
    // With -o -, stdout is taken: refused, and nothing is written.
    let (code, stdout, stderr) = repair_out(dir.path(), &["in.txt", "-o", "-", "--log", "-"]);
    assert_eq!((code, stdout.len()), (2, 0));
    assert_eq!(
        stderr,
        "hexrune: <stdout>: is the output (-o -); give --log a file, or -o a file to have the log on stdout\n"
    );
    assert_files(dir.path(), &["in.txt", "out.txt"]);
}

#[test]
fn the_summary_says_sizes_and_names_as_they_are() {
    use std::os::unix::ffi::OsStrExt;
    let (dir, _) = dir_with(b"\xEF\xBB\xBF\xEF\xBB\xBFx");
    let (code, _, stderr) = repair_out(dir.path(), &["--bom", "strip", "in.txt", "-o", "-"]);
    assert_eq!(code, 0);
    assert_eq!(
        stderr.lines().next().unwrap(),
        "repair: in.txt (7 bytes) -> <stdout> (1 byte): 2 units changed"
    );
    // A name that is not UTF-8 is spelled the same way on both sides.
    let input = std::ffi::OsStr::from_bytes(b"n\xFF.txt");
    let out = std::ffi::OsStr::from_bytes(b"n\xFF.out");
    std::fs::write(dir.path().join(input), b"x").unwrap();
    let output = hexrune()
        .current_dir(dir.path())
        .arg("repair")
        .arg(input)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "repair: n\\xff.txt (1 byte) -> n\\xff.out (1 byte): 0 units changed\n"
    );
    // A directory that exists but takes no new files.
    if Path::new("/proc/self").exists() {
        let (code, stderr) = repair_in(dir.path(), &["in.txt", "-o", "/proc/newfile"]);
        assert_eq!(
            (code, stderr.as_str()),
            (
                2,
                "hexrune: /proc/newfile: cannot be created: /proc takes no new files\n"
            )
        );
    }
    // Nor does /sys, where root too is told "permission denied".
    if Path::new("/sys/kernel").is_dir() {
        let (code, stderr) = repair_in(dir.path(), &["in.txt", "-o", "/sys/hexrune.out"]);
        assert_eq!(
            (code, stderr.as_str()),
            (
                2,
                "hexrune: /sys/hexrune.out: cannot be created: /sys takes no new files\n"
            )
        );
        let args = ["in.txt", "-o", "out.txt", "--log", "/sys/hexrune.log"];
        let (code, stderr) = repair_in(dir.path(), &args);
        assert_eq!(
            (code, stderr.as_str()),
            (
                2,
                "hexrune: /sys/hexrune.log: cannot be created: /sys takes no new files\n"
            )
        );
        assert!(!dir.path().join("out.txt").exists());
    }
}

#[test]
fn the_summary_says_what_from_read_the_input_as() {
    // "Привет" in windows-1251.
    let (dir, _) = dir_with(b"\xCF\xF0\xE8\xE2\xE5\xF2\n");
    let (code, stdout, stderr) =
        repair_out(dir.path(), &["--from", "windows-1251", "in.txt", "-o", "-"]);
    assert_eq!((code, stdout.as_slice()), (0, "Привет\n".as_bytes()));
    assert_eq!(
        stderr,
        "repair: in.txt (7 bytes) -> <stdout> (13 bytes): 0 units changed\n\
         \x20            read as windows-1251\n"
    );
}

/// `--from auto` on windows-1252 text after a UTF-8 BOM (detect: `windows-1252, BOM UTF-8`):
/// the mark is the BOM it is, kept or stripped by `--bom`, and the text is read in
/// windows-1252; the mark's bytes were written as `ï»¿`.
#[test]
fn auto_reads_a_utf8_bom_before_legacy_text_as_a_bom() {
    let input = b"\xEF\xBB\xBFCaf\xE9 cr\xE8me br\xFBl\xE9e, na\xEFve fa\xE7ade, d\xE9j\xE0 vu, \xE9t\xE9\n";
    let (dir, _) = dir_with(input);
    let text = "Café crème brûlée, naïve façade, déjà vu, été\n";
    for (bom, expected, changed) in [
        ("keep", format!("\u{FEFF}{text}"), "0 units changed"),
        ("strip", text.to_string(), "1 unit changed"),
    ] {
        let args = ["--from", "auto", "--bom", bom, "in.txt", "-o", "-"];
        let (code, stdout, stderr) = repair_out(dir.path(), &args);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(String::from_utf8(stdout).unwrap(), expected);
        let lines: Vec<&str> = stderr.lines().take(3).collect();
        assert_eq!(
            lines,
            [
                format!("repair: in.txt (49 bytes) -> <stdout> ({} bytes): {changed}", expected.len()).as_str(),
                "             read as windows-1252 (--from auto: what detect finds)",
                "             its first bytes EF BB BF are UTF-8's BOM, read as U+FEFF (not as windows-1252 text)",
            ]
        );
    }
}

/// A fallback reads only a region's error units: where some of its characters are also
/// UTF-8 (`Её` in windows-1251 is `C5 B8`, UTF-8's `Ÿ`), the summary says how many stay as
/// UTF-8 reads them, and how to read the part whole.
#[test]
fn auto_says_which_characters_of_a_region_a_fallback_leaves() {
    let head = "2024-05-01 10:00 запуск службы ✓\n2024-05-01 10:01 готово\n";
    let tail = "2024-05-01 10:02 Её файл не найден, всё плохо\n2024-05-01 10:03 Ещё раз: ошибка\n";
    let (tail_1251, _, _) = encoding_rs::WINDOWS_1251.encode(tail);
    let input = [head.as_bytes(), &tail_1251].concat();
    let (dir, _) = dir_with(&input);
    let (code, _, stderr) = repair_out(dir.path(), &["--from", "auto", "in.txt", "-o", "-"]);
    assert_eq!(code, 0);
    assert_eq!(
        stderr.lines().nth(2),
        Some("             not converted: detect also found windows-1251 at 77..156, read here as UTF-8; give --invalid fallback=windows-1251 to read its error units in windows-1251 (1 character in it is also UTF-8 and stays so), or repair that part alone with --from windows-1251 to read it whole"),
        "{stderr}"
    );
    let args = [
        "--from",
        "auto",
        "--invalid",
        "fallback=windows-1251",
        "in.txt",
        "-o",
        "-",
    ];
    let (code, stdout, stderr) = repair_out(dir.path(), &args);
    assert_eq!(code, 0);
    assert_eq!(
        stderr.lines().nth(2),
        Some("             read by --invalid fallback: detect also found windows-1251 at 77..156, read here as UTF-8; 1 character in it is also UTF-8 and stays so: repair that part alone with --from windows-1251 to read it whole"),
        "{stderr}"
    );
    // What it says: the pair stays U+0178, the rest of the part is read in windows-1251.
    let expected = [head, &tail.replacen("Её", "Ÿ", 1)].concat();
    assert_eq!(String::from_utf8(stdout).unwrap(), expected);
    // The same without --from auto (README's second step): the fallback alone says it too.
    let args = ["--invalid", "fallback=windows-1251", "in.txt", "-o", "-"];
    let (code, plain, stderr) = repair_out(dir.path(), &args);
    assert_eq!(code, 0);
    assert_eq!(plain, expected.as_bytes());
    assert_eq!(
        stderr.lines().nth(1),
        Some("             read by --invalid fallback: detect also found windows-1251 at 77..156, read here as UTF-8; 1 character in it is also UTF-8 and stays so: repair that part alone with --from windows-1251 to read it whole"),
        "{stderr}"
    );
    // A whole input of windows-1251 with a fallback: its pairs that are UTF-8 (`Ці` is
    // `D6 B3`, U+05B3) stay so, and the summary says how to convert it whole.
    let text = "Ціна зросла. Её нет.\nПривет, мир!\n";
    let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(text);
    let (dir, _) = dir_with(&bytes);
    let (code, stdout, stderr) = repair_out(dir.path(), &args);
    assert_eq!(code, 0);
    assert_eq!(
        String::from_utf8(stdout).unwrap(),
        "\u{5B3}на зросла. Ÿ нет.\nПривет, мир!\n"
    );
    assert_eq!(
        stderr.lines().nth(1),
        Some("             detect finds windows-1251 in the whole input: 2 characters in it are also UTF-8 and stay so: give --from windows-1251 (or --from auto) to convert it whole"),
        "{stderr}"
    );
}

/// ASCII lines with a UTF-16 block between them: `--from auto` reads the input as UTF-8
/// and says that it does not convert the UTF-16LE region, with the `--from` that does. It
/// refused the input while detect called it binary.
#[test]
fn auto_names_the_utf16_region_between_ascii_lines_it_does_not_convert() {
    let ascii = "This is an English log line number one.\nAnother line of plain ASCII text here.\n";
    let block: Vec<u8> =
        "Καλημέρα κόσμε, αυτή είναι μια γραμμή.\nПривет, мир! Это строка текста.\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
    let input = [ascii.as_bytes(), &block, ascii.as_bytes()].concat();
    let (dir, _) = dir_with(&input);
    let (code, _, stderr) = repair_out(dir.path(), &["--from", "auto", "in.txt", "-o", "-"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr,
        "repair: in.txt (300 bytes) -> <stdout> (362 bytes): 31 units changed\n\
         \x20            read as UTF-8 (--from auto: what detect finds)\n\
         \x20            not converted: detect also found UTF-16LE at 79..221, read here as UTF-8; repair that part alone with --from UTF-16LE\n\
         \x20          2 invalid_byte             replaced with U+FFFD\n\
         \x20          4 truncated                replaced with U+FFFD\n\
         \x20         25 unexpected_continuation  replaced with U+FFFD\n"
    );
}

#[test]
fn auto_says_which_regions_of_another_encoding_it_does_not_convert() {
    let mut input = "Première ligne ✓\n".repeat(3).into_bytes();
    for _ in 0..3 {
        input.extend_from_slice(b"Deuxi\xE8me partie, d\xE9j\xE0.\n");
    }
    input.extend_from_slice("Retour ✓\n".as_bytes());
    let (dir, _) = dir_with(&input);
    let (code, _, stderr) = repair_out(dir.path(), &["--from", "auto", "in.txt", "-o", "-"]);
    assert_eq!(code, 0);
    assert_eq!(
        stderr,
        "repair: in.txt (140 bytes) -> <stdout> (158 bytes): 9 units changed\n\
         \x20            read as UTF-8 (--from auto: what detect finds)\n\
         \x20            not converted: detect also found windows-1252 at 60..129, read here as UTF-8; give --invalid fallback=windows-1252 to read its error units in windows-1252\n\
         \x20          9 truncated                replaced with U+FFFD\n"
    );
    // Given that, the region reads as windows-1252, and the note is gone.
    let (code, stdout, stderr) = repair_out(
        dir.path(),
        &[
            "--from",
            "auto",
            "--invalid",
            "fallback=windows-1252",
            "in.txt",
            "-o",
            "-",
        ],
    );
    assert_eq!(code, 0);
    assert!(String::from_utf8(stdout)
        .unwrap()
        .contains("Deuxième partie, déjà.\n"));
    assert_eq!(
        stderr,
        "repair: in.txt (140 bytes) -> <stdout> (149 bytes): 9 units changed\n\
         \x20            read as UTF-8 (--from auto: what detect finds)\n\
         \x20          9 truncated                read in windows-1252\n"
    );
}

/// `--from auto` reads a pipe or a FIFO whole, then detects on it as on a file.
#[test]
fn from_auto_reads_a_pipe_or_a_fifo_whole() {
    // Eight non-ASCII bytes: no weak guess.
    let latin1 = b"caf\xe9 cr\xe8me br\xfbl\xe9e, na\xefve fa\xe7ade, d\xe9j\xe0 vu\n";
    let repaired = "café crème brûlée, naïve façade, déjà vu\n";
    // assert_cmd's stdin is a pipe.
    let output = output_with_stdin(
        ["repair", "-", "-o", "-", "--from", "auto"],
        latin1.to_vec(),
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8(output.stdout).unwrap(), repaired);
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "repair: <stdin> (41 bytes) -> <stdout> (49 bytes): 0 units changed\n             read as windows-1252 (--from auto: what detect finds)\n"
    );

    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("in.fifo");
    let c_path = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: mkfifo with a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(fifo, latin1).unwrap())
    };
    let (code, stderr) = repair_in(dir.path(), &["in.fifo", "-o", "out.txt", "--from", "auto"]);
    writer.join().unwrap();
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr,
        "repair: in.fifo (41 bytes) -> out.txt (49 bytes): 0 units changed\n             read as windows-1252 (--from auto: what detect finds)\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out.txt")).unwrap(),
        repaired
    );
}

/// Without `--from`, an input is repaired as UTF-8, as asked; one that starts with a
/// UTF-16 or UTF-32 mark is said not to be UTF-8, with the label that converts it.
#[test]
fn a_wide_bom_without_from_is_said_to_be_no_utf8() {
    let input = [
        b"\xFF\xFE\x00\x00".as_slice(),
        &wide::text(Dialect::Utf32Le, "ok\n"),
    ]
    .concat();
    let (dir, _) = dir_with(&input);
    let (code, stderr) = repair_in(dir.path(), &["in.txt", "-o", "out.txt"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr.lines().nth(1),
        Some(
            "             it starts with a UTF-32LE byte order mark (FF FE 00 00), so it is not UTF-8: give --from utf-32le (or --from auto) to convert it"
        ),
        "{stderr}"
    );
    let output = output_with_stdin(["repair", "-", "-o", "-"], input);
    assert_eq!(
        String::from_utf8_lossy(&output.stderr).lines().nth(1),
        Some(
            "             it starts with a UTF-32LE byte order mark (FF FE 00 00), so it is not UTF-8: give --from utf-32le (or --from auto) to convert it"
        )
    );
}

/// Without `--from` and without a BOM, a file that detection reads in another encoding
/// `--from` can read is said not to be UTF-8, with the label that converts it; a UTF-8
/// file with a stray byte is not.
#[test]
fn a_file_in_another_encoding_without_from_is_said_to_be_no_utf8() {
    let cases: [(&[u8], Option<&str>); 7] = [
        (
            &wide::text(Dialect::Utf16Le, "Hello w\u{F6}rld, with some more words here\n"),
            Some("detect finds UTF-16LE, not UTF-8: give --from utf-16le (or --from auto) to convert it"),
        ),
        // Dialects of the UTF-8 family are named as --dialect takes them.
        (
            b"a\xED\xA0\x80b\xED\xB0\x80c\xED\xA0\xBD\n",
            Some("detect finds WTF-8, not UTF-8: give --dialect wtf8 (or --from auto) to convert it"),
        ),
        (
            b"a \xF8\x88\x80\x80\x80 b \xFC\x84\x80\x80\x80\x80\n",
            Some("detect finds RFC 2279, not UTF-8: give --dialect legacy (or --from auto) to convert it"),
        ),
        (
            b"Le caf\xE9 est tr\xE8s bon, \xE0 c\xF4t\xE9 de la gare. L'\xE9t\xE9 fut chaud, \xE7a va.\n",
            Some("detect finds windows-1252, not UTF-8: give --from windows-1252 (or --from auto) to convert it"),
        ),
        (b"Le caf\xC3\xA9 est tr\xC3\xA8s bon \xE9 ok\n", None),
        // detect's weak guess (windows-1257, from 5 non-ASCII bytes): no note.
        (b"caf\xe9, 5 \xe2\x82 \xc0\xaf\n", None),
        (b"plain ASCII\n", None),
    ];
    for (input, note) in cases {
        let (dir, _) = dir_with(input);
        let (code, stderr) = repair_in(dir.path(), &["in.txt", "-o", "out.txt"]);
        assert_eq!(code, 0, "{stderr}");
        let second = stderr.lines().nth(1).map(str::trim_start);
        match note {
            Some(note) => assert_eq!(second, Some(note), "{stderr}"),
            None => assert!(!stderr.contains("detect finds"), "{stderr}"),
        }
    }
    // --invalid fallback in the encoding found reads its bytes so already: no note.
    let (dir, _) = dir_with(cases[3].0);
    let args = [
        "--invalid",
        "fallback=windows-1252",
        "in.txt",
        "-o",
        "out.txt",
    ];
    let (code, stderr) = repair_in(dir.path(), &args);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("detect finds"), "{stderr}");
}

/// A symbolic link whose target is missing is said so, as `check` says it.
#[test]
fn a_dangling_link_is_said_so() {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("missing.txt", dir.path().join("in.txt")).unwrap();
    let (code, stderr) = repair_in(dir.path(), &["in.txt", "-o", "out.txt"]);
    assert_eq!(
        (code, stderr.as_str()),
        (
            2,
            "hexrune: in.txt: symbolic link whose target is missing\n"
        )
    );
}

/// `--from auto` on a guess detect itself doubts (a legacy encoding named on two non-ASCII
/// bytes: Czech in windows-1250 reads as windows-1254, `ý` as `ı`) converts as asked and
/// says the doubt beside what it read, which it once left to `detect` alone.
#[test]
fn auto_says_when_detect_doubts_its_guess() {
    let (dir, _) = dir_with(b"Dobr\xFD den, jak se m\xE1te?\n");
    let (code, stdout, stderr) = repair_out(dir.path(), &["--from", "auto", "in.txt", "-o", "-"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        String::from_utf8(stdout).unwrap(),
        "Dobrı den, jak se máte?\n"
    );
    assert_eq!(
        stderr,
        "repair: in.txt (24 bytes) -> <stdout> (26 bytes): 0 units changed\n\
         \x20            read as windows-1254 (--from auto: what detect finds)\n\
         \x20            detect doubts it (windows-1254: a weak guess on 2 non-ASCII bytes): look over OUT, or give --from LABEL\n"
    );
    // A guess on enough bytes is no doubt.
    let (dir, _) =
        dir_with(b"Caf\xE9 cr\xE8me br\xFBl\xE9e, na\xEFve fa\xE7ade, d\xE9j\xE0 vu, \xE9t\xE9\n");
    let (code, _, stderr) = repair_out(dir.path(), &["--from", "auto", "in.txt", "-o", "-"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("doubts"), "{stderr}");
}

/// The log's first record under `--from`, read back from a log on stdout: the record of
/// `a_log_on_stdout_when_out_is_a_file` and `--from`'s keys.
fn from_header(dir: &Path, args: &[&str]) -> serde_json::Value {
    let args: Vec<&str> = args
        .iter()
        .copied()
        .chain(["in.txt", "-o", "out.txt", "--force", "--log", "-"])
        .collect();
    let (code, stdout, stderr) = repair_out(dir, &args);
    assert_eq!(code, 0, "{stderr}");
    let log = String::from_utf8(stdout).unwrap();
    let mut header: serde_json::Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    let output = std::fs::read(dir.join("out.txt")).unwrap();
    let sha = |b: &[u8]| format!("{:x}", Sha256::digest(b));
    assert_eq!(header["output"]["sha256"], sha(&output), "{log}");
    let record = header.as_object_mut().unwrap();
    for key in ["type", "input", "output"] {
        assert!(record.remove(key).is_some(), "{key}: {log}");
    }
    header
}

#[test]
fn the_log_says_how_the_input_was_read() {
    use serde_json::json;
    let french = "Le garçon a mangé une crème brûlée.\n";
    let cp1252: Vec<u8> = french
        .chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap())
        .collect();
    let (dir, _) = dir_with(&cp1252);
    // As the label said; the label as it was given.
    assert_eq!(
        from_header(dir.path(), &["--from", "latin1"]),
        json!({"from": "windows-1252", "from_source": "label", "from_label": "latin1"})
    );
    // Detection, with its doubt (5 non-ASCII bytes are a weak guess).
    assert_eq!(
        from_header(dir.path(), &["--from", "auto"]),
        json!({"from": "windows-1252", "from_source": "auto", "from_label": "auto",
               "from_doubt": "windows-1252: a weak guess on 5 non-ASCII bytes"})
    );
    // Without --from, no key of its own: the record is as it always was.
    assert_eq!(from_header(dir.path(), &[]), json!({}));
    // A BOM that overrides the label: read as the BOM says, and said so.
    let be = [
        b"\xFE\xFF".as_slice(),
        &wide::text(Dialect::Utf16Be, "héllo\n"),
    ]
    .concat();
    std::fs::write(dir.path().join("in.txt"), &be).unwrap();
    assert_eq!(
        from_header(dir.path(), &["--from", "utf-16le"]),
        json!({"from": "UTF-16BE", "from_source": "bom", "from_label": "utf-16le"})
    );
    // A UTF-8 BOM before windows-1252 text: read as U+FEFF, not as "ï»¿".
    let marked = [b"\xEF\xBB\xBF".as_slice(), &cp1252.repeat(3)].concat();
    std::fs::write(dir.path().join("in.txt"), &marked).unwrap();
    assert_eq!(
        from_header(dir.path(), &["--from", "auto"]),
        json!({"from": "windows-1252", "from_source": "auto", "from_label": "auto",
               "from_bom": "UTF-8"})
    );
    // UTF-8 with a windows-1252 part detection found and the reading did not convert.
    let mut mixed = "Première ligne ✓\n".repeat(3).into_bytes();
    for _ in 0..3 {
        mixed.extend_from_slice(b"Deuxi\xE8me partie, d\xE9j\xE0.\n");
    }
    mixed.extend_from_slice("Retour ✓\n".as_bytes());
    std::fs::write(dir.path().join("in.txt"), &mixed).unwrap();
    assert_eq!(
        from_header(dir.path(), &["--from", "AUTO"]),
        json!({"from": "UTF-8", "from_source": "auto", "from_label": "AUTO",
               "from_others": [{"start": 60, "end": 129, "encoding": "windows-1252"}]})
    );
    // A dialect of the UTF-8 family that detection names: WTF-8's lone surrogates.
    std::fs::write(dir.path().join("in.txt"), b"a\xED\xA0\x80b\n").unwrap();
    assert_eq!(
        from_header(dir.path(), &["--from", "auto"]),
        json!({"from": "WTF-8", "from_source": "auto", "from_label": "auto"})
    );
    // In a log file too, the keys after the files, in this order.
    std::fs::write(dir.path().join("in.txt"), &cp1252).unwrap();
    let (code, stderr) = repair_in(
        dir.path(),
        &[
            "--from",
            "cp1252",
            "in.txt",
            "-o",
            "o.txt",
            "--log",
            "log.jsonl",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let log = std::fs::read_to_string(dir.path().join("log.jsonl")).unwrap();
    assert!(
        log.lines().next().unwrap().ends_with(
            r#""size":41,"sha256":"231a31fde087a44a9fc765cb2596df8156b5f27c46a0c0a55e60800a18a0cdc7"},"from":"windows-1252","from_source":"label","from_label":"cp1252"}"#
        ),
        "{log}"
    );
}

/// A byte a Windows code page leaves undefined is read as WHATWG reads it, the C1 control
/// of the same number (`81` is U+0081 in windows-1252), and the summary says so: in text
/// really in that code page such a byte does not occur. The bytes each code page leaves
/// undefined in 80..9F are those Python 3.11's codecs refuse (`cp1250`, `cp1252`, `cp874`);
/// in ISO-8859-2 every byte of 80..9F is a C1 control, and nothing is said.
#[test]
fn a_byte_a_code_page_leaves_undefined_is_read_as_a_c1_control_and_noted() {
    let (dir, _) = dir_with(b"caf\xe9 \x81\x9d\x81\n");
    let (code, stderr) = repair_in(
        dir.path(),
        &["in.txt", "-o", "out.txt", "--from", "windows-1252"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        std::fs::read(dir.path().join("out.txt")).unwrap(),
        "café \u{81}\u{9d}\u{81}\n".as_bytes()
    );
    assert_eq!(
        stderr,
        "repair: in.txt (9 bytes) -> out.txt (13 bytes): 0 units changed\n             \
         read as windows-1252\n             \
         3 bytes windows-1252 leaves undefined (81 9D) were read as C1 controls (U+0081 \
         U+009D), as WHATWG decoders read them; other decoders refuse them: look over OUT\n"
    );
    // The log's first record says it too, for a pipeline that keeps only the log.
    let (code, stderr) = repair_in(
        dir.path(),
        &[
            "in.txt",
            "-o",
            "o2.txt",
            "--from",
            "windows-1252",
            "--log",
            "log.jsonl",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let log = std::fs::read_to_string(dir.path().join("log.jsonl")).unwrap();
    let header: serde_json::Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!(
        header["from_c1"],
        serde_json::json!([
            {"byte": "81", "read_as": "U+0081", "count": 2},
            {"byte": "9d", "read_as": "U+009D", "count": 1}
        ])
    );

    let all: Vec<u8> = (0x80..=0x9F).collect();
    for (label, undefined) in [
        ("windows-1252", "81 8D 8F 90 9D"),
        ("windows-1250", "81 83 88 90 98"),
        (
            "windows-874",
            "81 82 83 84 86 87 88 89 8A 8B 8C 8D 8E 8F 90 98 99 9A 9B 9C 9D 9E 9F",
        ),
    ] {
        let (dir, _) = dir_with(&all);
        let (code, stderr) = repair_in(dir.path(), &["in.txt", "-o", "out.txt", "--from", label]);
        assert_eq!(code, 0, "{stderr}");
        let count = undefined.split(' ').count();
        let controls: Vec<String> = undefined.split(' ').map(|b| format!("U+00{b}")).collect();
        let note = format!(
            "{count} bytes {label} leaves undefined ({undefined}) were read as C1 controls ({}), \
             as WHATWG decoders read them; other decoders refuse them: look over OUT",
            controls.join(" ")
        );
        assert_eq!(
            stderr.lines().nth(2).map(str::trim_start),
            Some(note.as_str()),
            "{label}: {stderr}"
        );
    }

    let (dir, _) = dir_with(&all);
    let (code, stderr) = repair_in(
        dir.path(),
        &["in.txt", "-o", "out.txt", "--from", "iso-8859-2"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr,
        "repair: in.txt (32 bytes) -> out.txt (64 bytes): 0 units changed\n             read as ISO-8859-2\n"
    );
}

/// Under `--from` and `--invalid escape=optu8`, a genuine U+EF80..U+EFFF decoded from the
/// input is escaped byte by byte, as on the way from UTF-8: OUT's escapes are only ever
/// escapes, so `--unescape optu8` gives the input's UTF-8 with the error units' bytes raw
/// (it turned the genuine U+EFA9 of UTF-16LE `A9 EF` into a raw byte A9).
#[test]
fn a_genuine_escape_code_point_is_escaped_under_from_too() {
    // U+EFA9 in UTF-8, and its escape: three escapes, one per byte.
    let genuine = b"\xee\xbe\xa9";
    let escaped = b"\xee\xbf\xae\xee\xbe\xbe\xee\xbe\xa9";
    for (label, input, out, back) in [
        // U+EFA9, an unpaired high surrogate D8A9 (its bytes escaped), 'A'.
        (
            "utf-16le",
            &b"\xa9\xef\xa9\xd8\x41\x00"[..],
            [&escaped[..], b"\xee\xbe\xa9\xee\xbf\x98A"].concat(),
            [&genuine[..], b"\xa9\xd8A"].concat(),
        ),
        (
            "utf-32le",
            b"\xa9\xef\x00\x00",
            escaped.to_vec(),
            genuine.to_vec(),
        ),
        // gb18030's four bytes for U+EFA9.
        (
            "gb18030",
            b"a\x83\x38\x8e\x30b",
            [&b"a"[..], escaped, b"b"].concat(),
            [&b"a"[..], genuine, b"b"].concat(),
        ),
    ] {
        let (dir, _) = dir_with(input);
        let args = [
            "in.txt",
            "-o",
            "out.txt",
            "--from",
            label,
            "--invalid",
            "escape=optu8",
        ];
        let (code, stderr) = repair_in(dir.path(), &args);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(
            std::fs::read(dir.path().join("out.txt")).unwrap(),
            out,
            "{label}"
        );
        assert!(
            stderr.contains(
                "\n           1 genuine_optu8            escaped byte by byte (OPTU-8)\n"
            ),
            "{label}: {stderr}"
        );
        let args = ["out.txt", "-o", "back.txt", "--unescape", "optu8"];
        let (code, stderr) = repair_in(dir.path(), &args);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(
            std::fs::read(dir.path().join("back.txt")).unwrap(),
            back,
            "{label}"
        );
    }
}

/// A unit a policy writes as it was is kept, not a change: Modified UTF-8's raw NUL reads
/// as U+0000 in windows-1252 and has no escape, and was logged `"old":"00","new":"00"` and
/// counted as escaped.
#[test]
fn a_unit_written_as_it_was_is_kept_not_changed() {
    for policy in ["fallback", "escape=optu8", "escape=pep383"] {
        let (dir, _) = dir_with(b"a\x00b");
        let args = [
            "in.txt",
            "-o",
            "out.txt",
            "-d",
            "mutf8",
            "--invalid",
            policy,
            "--log",
            "log.jsonl",
        ];
        let (code, stderr) = repair_in(dir.path(), &args);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(
            std::fs::read(dir.path().join("out.txt")).unwrap(),
            b"a\x00b"
        );
        assert_eq!(
            stderr,
            "repair: in.txt (3 bytes) -> out.txt (3 bytes): 0 units changed\n           1 invalid_byte             kept unchanged\n",
            "{policy}"
        );
        let log = std::fs::read_to_string(dir.path().join("log.jsonl")).unwrap();
        assert_eq!(log.lines().count(), 1, "{policy}: {log}");
    }
}

/// RFC 2279 reads each half of a CESU-8 pair as a code point: `--dialect legacy` writes a
/// lead followed at once by a trail as the one character they stand for, beside a 4-byte
/// character, and a surrogate alone as a lone surrogate.
#[test]
fn legacy_joins_a_cesu8_pair_beside_a_four_byte_character() {
    let input = b"x \xed\xa0\xbd\xed\xb8\x80 y \xf0\x9f\x91\x8d \xed\xa0\xbd z\n".to_vec();
    let out = common::run_with_stdin(["repair", "--dialect", "legacy", "-", "-o", "-"], input, 0);
    assert_eq!(
        out.stdout,
        "x \u{1F600} y \u{1F44D} \u{FFFD} z\n".as_bytes()
    );
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "repair: <stdin> (22 bytes) -> <stdout> (20 bytes): 2 units changed\n\
         \x20          1 dialect_form             written in UTF-8's form (from legacy)\n\
         \x20          1 lone_surrogate           replaced with U+FFFD\n"
    );
}

/// A valid UTF-8 file read as UTF-8 (plainly, or because `--from auto` finds UTF-8) whose
/// text went through a wrong decoding: the summary says what detect finds and to give
/// `--mojibake` (it said only "0 units changed").
#[test]
fn mojibake_in_a_file_read_as_utf8_is_pointed_to() {
    let sql = "(1,'Ren\u{C3}\u{A9}e'),(4,'Fran\u{C3}\u{A7}ois')\n";
    let note = "             detect finds 1 mojibake region (the first at 7: windows-1252 -> \
                \"ée'),(4,'Franç\"): give --mojibake to undo them\n";
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("moji.sql"), sql).unwrap();
    for (args, read) in [
        (vec!["moji.sql", "-o", "-"], ""),
        (
            vec!["--from", "auto", "moji.sql", "-o", "-"],
            "             read as UTF-8 (--from auto: what detect finds)\n",
        ),
    ] {
        let out = common::hexrune()
            .current_dir(dir.path())
            .arg("repair")
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.stdout, sql.as_bytes());
        assert_eq!(
            String::from_utf8(out.stderr).unwrap(),
            format!(
                "repair: moji.sql (33 bytes) -> <stdout> (33 bytes): 0 units changed\n{read}{note}"
            ),
            "{args:?}"
        );
    }
}

/// `--from utf-16` (UTF-16LE, as WHATWG reads it) on big-endian text with no byte order
/// mark: the summary says where its zero bytes are, and what converts it.
#[test]
fn a_byte_order_its_zero_bytes_contradict_is_said() {
    let text = "Hello world, this is big-endian text\n";
    let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    let out = common::run_with_stdin(
        ["repair", "--from", "utf-16", "-", "-o", "-"],
        be.clone(),
        0,
    );
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "repair: <stdin> (74 bytes) -> <stdout> (111 bytes): 0 units changed\n\
         \x20            read as UTF-16LE (what the WHATWG Encoding Standard reads the label \
         utf-16 as)\n\
         \x20            its zero bytes are where UTF-16BE puts them, not UTF-16LE: give --from \
         utf-16be (or --from auto) to convert it\n"
    );
    let out = common::run_with_stdin(["repair", "--from", "utf-16be", "-", "-o", "-"], be, 0);
    assert_eq!(out.stdout, text.as_bytes());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "repair: <stdin> (74 bytes) -> <stdout> (37 bytes): 0 units changed\n\
         \x20            read as UTF-16BE\n"
    );
}

/// A CSV template saved as "UTF-8 with BOM" (an ASCII header) with rows appended by a
/// windows-1252 exporter: the mark is no evidence of UTF-8, so detection names
/// windows-1252 after it and `--from auto` reads the rows whole; `--from windows-1252`,
/// which the BOM overrides as the Encoding Standard says, says what to give instead.
#[test]
fn a_utf8_bom_and_an_ascii_header_before_windows_1252_rows_is_windows_1252() {
    let rows = "id,name,city\n1,Françoise Léger,Lyon\n2,Jürgen Großmann,München\n";
    let (body, _, _) = encoding_rs::WINDOWS_1252.encode(rows);
    let input = [b"\xEF\xBB\xBF".as_slice(), &body].concat();
    let (dir, _) = dir_with(&input);
    let (code, stdout, stderr) = repair_out(
        dir.path(),
        &["--from", "auto", "--bom", "strip", "in.txt", "-o", "-"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(String::from_utf8(stdout).unwrap(), rows);
    assert_eq!(
        stderr.lines().nth(1),
        Some("             read as windows-1252 (--from auto: what detect finds)"),
        "{stderr}"
    );
    // Rows of windows-1251 after the same header: one region, the mark no text of either.
    let rows1251 = "id;name;city\n1;Иван Петров;Москва\n2;Ольга Смирнова;Санкт-Петербург\n";
    let (body1251, _, _) = encoding_rs::WINDOWS_1251.encode(rows1251);
    let (dir1251, _) = dir_with(&[b"\xEF\xBB\xBF".as_slice(), &body1251].concat());
    let (code, stdout, stderr) = repair_out(
        dir1251.path(),
        &["--from", "auto", "--bom", "strip", "in.txt", "-o", "-"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(String::from_utf8(stdout).unwrap(), rows1251);
    assert!(!stderr.contains("not converted"), "{stderr}");
    // Plain `repair` says to give --from auto, which alone reads the mark apart.
    let (_, _, stderr) = repair_out(dir1251.path(), &["in.txt", "-o", "-"]);
    assert_eq!(
        stderr.lines().nth(1),
        Some("             detect finds windows-1251 after its UTF-8 BOM, not UTF-8: give --from auto to convert it (the BOM overrides --from windows-1251)"),
        "{stderr}"
    );
    let (code, _, stderr) =
        repair_out(dir.path(), &["--from", "windows-1252", "in.txt", "-o", "-"]);
    assert_eq!(code, 0);
    let notes: Vec<&str> = stderr.lines().skip(1).take(2).collect();
    assert_eq!(
        notes,
        [
            "             read as UTF-8 (its BOM overrides --from windows-1252)",
            "             after its BOM the input is not UTF-8: give --from auto to read the BOM as U+FEFF and the rest as detect finds it (it finds windows-1252)",
        ],
        "{stderr}"
    );
}

/// An export sorted by id whose accented rows come after 200 KB of ASCII: plain `repair`
/// and `--from auto` judge their hints on the 64 KiB from the line of the first byte that
/// is not ASCII, not on the ASCII start, and say where.
#[test]
fn hints_are_judged_where_the_first_byte_that_is_not_ascii_is() {
    let mut ascii = String::new();
    let mut n = 0;
    while ascii.len() < 200_000 {
        ascii.push_str(&format!(
            "{n},customer {n},c{n}@example.com,ordered {} items\n",
            n % 7
        ));
        n += 1;
    }
    let rows = "7000,Александр Смирнов,Москва,Покупатель просит позвонить\n".repeat(20);
    let (cyrillic, _, _) = encoding_rs::WINDOWS_1251.encode(&rows);
    let input = [ascii.as_bytes(), &cyrillic].concat();
    let (dir, _) = dir_with(&input);
    let (code, _, stderr) = repair_out(dir.path(), &["in.txt", "-o", "-"]);
    assert_eq!(code, 0);
    assert_eq!(
        stderr.lines().nth(1),
        Some(
            format!(
                "             detect finds windows-1251 in the 64 KiB from offset {}, not UTF-8: give --from windows-1251 (or --from auto) to convert it",
                ascii.len()
            )
            .as_str()
        ),
        "{stderr}"
    );
    // Mojibake after the ASCII start is named at its offset.
    let moji = "7001,FranÃ§oise LÃ©ger,Lyon\n";
    let input = [ascii.as_bytes(), moji.as_bytes()].concat();
    let (dir, _) = dir_with(&input);
    let (code, _, stderr) = repair_out(dir.path(), &["--from", "auto", "in.txt", "-o", "-"]);
    assert_eq!(code, 0);
    let at = ascii.len() + "7001,Fran".len();
    assert_eq!(
        stderr.lines().nth(2),
        Some(
            format!(
                "             detect finds 1 mojibake region in the 64 KiB from offset {} (the first at {at}: windows-1252 -> \"çoise Lé\"): give --mojibake to undo them",
                ascii.len()
            )
            .as_str()
        ),
        "{stderr}"
    );
}
