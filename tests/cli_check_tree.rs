//! `hexrune check -r`: whole trees as a user walks them: ignore files and hidden files,
//! special files skipped without blocking, unreadable files reported, the output in path
//! order whatever the threads did, and the formats over a tree.

use std::path::Path;
use std::time::Duration;

use serde_json::Value;

mod common;
use common::{python_bytes, Command};

fn hexrune() -> Command {
    let mut cmd = common::hexrune();
    // A walk that hangs fails the test instead of stalling it.
    cmd.timeout(Duration::from_secs(60));
    cmd
}

struct Ran {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run_in(dir: &Path, args: &[&str]) -> Ran {
    let out = hexrune().current_dir(dir).args(args).output().unwrap();
    Ran {
        code: out.status.code().expect("exited, not killed"),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn put(root: &Path, name: &str, bytes: &[u8]) {
    let path = root.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// A tree with something of every sort: valid and invalid files, a U+FFFD, an ignored
/// directory, a hidden one, a FIFO and a dangling link.
fn sample_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("t");
    put(&root, "a.txt", "fine é\n".as_bytes());
    put(&root, "b/bad.txt", b"x\xc0\xafy\n");
    put(&root, "b/lost.txt", "lost \u{FFFD}\n".as_bytes());
    put(&root, "build/out.bin", b"\xff\xfe");
    put(&root, ".cache/c.bin", b"\xff");
    put(&root, ".gitignore", b"build/\n");
    let fifo = std::ffi::CString::new(root.join("pipe").to_str().unwrap()).unwrap();
    // SAFETY: mkfifo reads a NUL-terminated path that lives across the call.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    std::os::unix::fs::symlink("nowhere", root.join("z-dangling")).unwrap();
    dir
}

#[test]
fn a_tree_in_path_order_with_a_total() {
    let dir = sample_tree();
    let ran = run_in(dir.path(), &["check", "-r", "t"]);
    assert_eq!(
        ran.stdout,
        "t/b/bad.txt: invalid utf8: 2 errors; first error at offset 1 (1:2) invalid_byte\n\
         t/b/lost.txt: valid utf8, 1 finding; first finding at offset 5 (1:6) replacement-character\n\
         3 files checked: 2 with findings, 1 unreadable, 1 skipped\n"
    );
    assert_eq!(
        ran.stderr,
        "hexrune: t/pipe: not a regular file (fifo), skipped\n\
         hexrune: t/z-dangling: symbolic link whose target is missing\n"
    );
    // Unreadable wins over invalid.
    assert_eq!(ran.code, 2);
}

#[test]
fn ignore_files_and_hidden_files_unless_asked() {
    let dir = sample_tree();
    std::fs::remove_file(dir.path().join("t/pipe")).unwrap();
    std::fs::remove_file(dir.path().join("t/z-dangling")).unwrap();
    let ran = run_in(dir.path(), &["check", "-r", "t"]);
    assert!(!ran.stdout.contains("build/") && !ran.stdout.contains(".cache"));
    assert_eq!(ran.code, 1);
    let ran = run_in(dir.path(), &["check", "-r", "--no-ignore", "t"]);
    assert!(ran
        .stdout
        .contains("t/build/out.bin: invalid utf8: 2 errors"));
    assert!(!ran.stdout.contains(".cache"));
    let ran = run_in(dir.path(), &["check", "-r", "--hidden", "t"]);
    assert!(ran.stdout.contains("t/.cache/c.bin: invalid utf8: 1 error"));
    assert!(!ran.stdout.contains("build/"));
    let ran = run_in(dir.path(), &["check", "-r", "--hidden", "--no-ignore", "t"]);
    assert!(ran
        .stdout
        .ends_with("6 files checked: 4 with findings, 0 unreadable, 0 skipped\n"));
    // Only valid files, and a U+FFFD: exit 0.
    std::fs::remove_file(dir.path().join("t/b/bad.txt")).unwrap();
    let ran = run_in(dir.path(), &["check", "-r", "t"]);
    assert_eq!(ran.code, 0, "{}", ran.stdout);
    // The flags need -r.
    let ran = run_in(dir.path(), &["check", "--hidden", "t"]);
    assert_eq!(ran.code, 2);
}

/// Only the tree's `.gitignore` rules leave files out: a `.ignore` file in the tree and the
/// user's global Git excludes hide nothing (the same tree, the same report, whoever checks
/// it).
#[test]
fn only_the_trees_gitignore_leaves_files_out() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("t");
    put(&root, "logs/.ignore", b"*\n");
    put(&root, "logs/payload.txt", "evil \u{202E} x\n".as_bytes());
    put(&root, "a.log", b"\xff\n");
    put(&root, "readme.txt", b"ok\n");
    let home = dir.path().join("home");
    put(&home, ".config/git/ignore", b"*.log\n");
    put(
        &home,
        ".gitconfig",
        b"[core]\n\texcludesFile = ~/.config/git/ignore\n",
    );
    let out = hexrune()
        .current_dir(dir.path())
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .args(["check", "-r", "--security", "t"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout,
        "t/a.log: invalid utf8: 1 error; first error at offset 0 (1:1) invalid_byte\n\
         t/logs/payload.txt: valid utf8, 1 finding; first finding at offset 5 (1:6) bidi\n\
         3 files checked: 2 with findings, 0 unreadable, 0 skipped\n"
    );
    assert_eq!(out.status.code(), Some(1));
}

/// The `.gitignore` files of the directories above a root are read as Git reads them: up to
/// the top of the repository the root is in, not above it (a home directory's `*` hid
/// every repository under it: 0 files checked, exit 0), and not across a repository inside
/// another; outside any repository, only the tree's own.
#[test]
fn gitignore_files_above_the_repository_hide_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("h");
    put(&home, ".gitignore", b"*\n");
    std::fs::create_dir_all(home.join("code/proj/.git")).unwrap();
    put(&home, "code/proj/main.c", b"bad\xff\n");
    put(&home, "notes/n.txt", b"bad\xff\n");
    let proj_total = "1 file checked: 1 with findings, 0 unreadable, 0 skipped\n";
    let ran = run_in(dir.path(), &["check", "-r", "h/code/proj"]);
    assert_eq!(
        ran.stdout,
        format!("h/code/proj/main.c: invalid utf8: 1 error; first error at offset 3 (1:4) invalid_byte\n{proj_total}")
    );
    assert_eq!(ran.code, 1);
    let ran = run_in(&home.join("code/proj"), &["check", "-r", "."]);
    assert!(ran.stdout.ends_with(proj_total), "{}", ran.stdout);
    // No repository around `h/notes`: the `*` above it is no rule of its tree.
    let ran = run_in(dir.path(), &["check", "-r", "h/notes"]);
    assert!(ran.stdout.ends_with(proj_total), "{}", ran.stdout);

    // In a repository, the rules of the directories above the root up to its top hold; a
    // repository inside it is its own.
    let repo = dir.path().join("r");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    put(&repo, ".gitignore", b"*.log\n*.c\n");
    put(&repo, "sub/a.log", b"\xff\n");
    put(&repo, "sub/b.txt", b"\xff\n");
    std::fs::create_dir_all(repo.join("vendor/lib/.git")).unwrap();
    put(&repo, "vendor/lib/evil.c", "x \u{202E} y\n".as_bytes());
    let ran = run_in(dir.path(), &["check", "-r", "r/sub"]);
    assert_eq!(
        ran.stdout,
        format!("r/sub/b.txt: invalid utf8: 1 error; first error at offset 0 (1:1) invalid_byte\n{proj_total}")
    );
    for root in ["r/vendor/lib", "r"] {
        let ran = run_in(dir.path(), &["check", "-r", "--security", root]);
        assert!(
            ran.stdout
                .contains("r/vendor/lib/evil.c: valid utf8, 1 finding"),
            "{root}: {}",
            ran.stdout
        );
        assert!(!ran.stdout.contains("a.log"), "{root}: {}", ran.stdout);
    }

    // A tree in no repository is ruled by its own files, but not a repository inside it.
    let tree = dir.path().join("n");
    put(&tree, ".gitignore", b"*.c\n");
    put(&tree, "b.c", b"\xff\n");
    put(&tree, "ok.txt", b"\xff\n");
    std::fs::create_dir_all(tree.join("lib/.git")).unwrap();
    put(&tree, "lib/a.c", b"\xff\n");
    let ran = run_in(dir.path(), &["check", "-r", "n"]);
    assert_eq!(
        ran.stdout,
        "n/lib/a.c: invalid utf8: 1 error; first error at offset 0 (1:1) invalid_byte\n\
         n/ok.txt: invalid utf8: 1 error; first error at offset 0 (1:1) invalid_byte\n\
         2 files checked: 2 with findings, 0 unreadable, 0 skipped\n"
    );
    let ran = run_in(dir.path(), &["check", "-r", "--no-ignore", "n"]);
    assert!(
        ran.stdout
            .ends_with("3 files checked: 3 with findings, 0 unreadable, 0 skipped\n"),
        "{}",
        ran.stdout
    );
}

/// A root named on the command line is walked even where the `.gitignore` above it leaves
/// it out (naming it asks for it, as ripgrep takes a path it is given); the patterns above
/// still rule what is under it.
#[test]
fn a_root_the_gitignore_above_leaves_out_is_walked_when_named() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("r");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    put(&repo, ".gitignore", b"build/\n*.tmp\n");
    put(&repo, "build/a.txt", b"\xff\n");
    put(&repo, "build/b.tmp", b"\xff\n");
    let want = "build/a.txt: invalid utf8: 1 error; first error at offset 0 (1:1) invalid_byte\n\
                1 file checked: 1 with findings, 0 unreadable, 0 skipped\n";
    assert_eq!(run_in(&repo, &["check", "-r", "build"]).stdout, want);
    let ran = run_in(&repo.join("build"), &["check", "-r", "."]);
    assert_eq!(
        ran.stdout,
        "./a.txt: invalid utf8: 1 error; first error at offset 0 (1:1) invalid_byte\n\
         1 file checked: 1 with findings, 0 unreadable, 0 skipped\n"
    );
    // From the top, the ignored directory is left out.
    let ran = run_in(&repo, &["check", "-r", "."]);
    assert_eq!(
        ran.stdout,
        "0 files checked: 0 with findings, 0 unreadable, 0 skipped\n"
    );
}

/// A file the user may not read is reported, counted and skipped (not as root, whom
/// permissions do not stop).
#[test]
fn an_unreadable_file_is_reported() {
    use std::os::unix::fs::PermissionsExt;
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        eprintln!("skipped: root reads files whatever their mode");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    put(dir.path(), "t/secret.txt", b"ok");
    put(dir.path(), "t/open.txt", b"ok");
    let secret = dir.path().join("t/secret.txt");
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o000)).unwrap();
    let ran = run_in(dir.path(), &["check", "-r", "t"]);
    assert_eq!(ran.code, 2);
    assert_eq!(ran.stderr, "hexrune: t/secret.txt: permission denied\n");
    assert_eq!(
        ran.stdout,
        "1 file checked: 0 with findings, 1 unreadable, 0 skipped\n"
    );
}

/// Many files, more than the workers may keep ahead of the printer, with errors here and
/// there: the output is every invalid file in path order, the same on every run.
#[test]
fn many_files_come_out_sorted_and_the_same_each_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut expected = String::new();
    let mut names = Vec::new();
    for i in 0..600u32 {
        let name = format!("t/d{}/f{:03}.txt", i % 7, (i * 37) % 600);
        let bad = i % 5 == 0;
        let body: Vec<u8> = if bad {
            b"ok\n\xe9\n".to_vec()
        } else {
            b"ok\n".to_vec()
        };
        put(dir.path(), &name, &body);
        if bad {
            names.push(name);
        }
    }
    names.sort();
    for name in &names {
        expected.push_str(&format!(
            "{name}: invalid utf8: 1 error; first error at offset 3 (2:1) truncated\n"
        ));
    }
    expected.push_str("600 files checked: 120 with findings, 0 unreadable, 0 skipped\n");
    for _ in 0..2 {
        let ran = run_in(dir.path(), &["check", "--recursive", "t"]);
        assert_eq!(ran.code, 1);
        assert_eq!(ran.stdout, expected);
    }
}

/// The human line of a file with lints, large (over 1 MiB: scanned with every core) and
/// small: the first finding comes from the file's own survey, at its exact offset; an
/// invalid file's line names its first error, also where a lint comes before it (it
/// named the lint, beside "invalid").
#[test]
fn the_first_finding_of_large_and_small_files_with_lints() {
    let dir = tempfile::tempdir().unwrap();
    let line = b"plain ascii line of text here, nothing to see.\n".repeat(30_000);
    let mut lint_first = line.clone();
    lint_first.extend_from_slice("id = \"a\u{202E}b\"\n".as_bytes());
    lint_first.extend_from_slice(b"bad \xff byte\n");
    lint_first.extend_from_slice("x\u{200B}y\n".as_bytes());
    put(dir.path(), "t/a-lint-first.txt", &lint_first);
    let mut error_first = line.clone();
    error_first.extend_from_slice(b"bad \xc0 byte\n");
    error_first.extend_from_slice("id = \"a\u{202E}b\"\n".as_bytes());
    put(dir.path(), "t/b-error-first.txt", &error_first);
    let mut lint_only = line;
    lint_only.extend_from_slice("id = \"a\u{202E}b\"\n".as_bytes());
    put(dir.path(), "t/c-lint-only.txt", &lint_only);
    put(
        dir.path(),
        "t/d-small.txt",
        "x\nwhat\u{200B}ever\n".as_bytes(),
    );
    put(dir.path(), "t/e-clean.txt", b"fine\n");
    let ran = run_in(dir.path(), &["check", "-r", "--security", "t"]);
    assert_eq!(
        ran.stdout,
        "t/a-lint-first.txt: invalid utf8: 1 error, 2 findings; first error at offset 1410017 (30002:5) invalid_byte\n\
         t/b-error-first.txt: invalid utf8: 1 error, 1 finding; first error at offset 1410004 (30001:5) invalid_byte\n\
         t/c-lint-only.txt: valid utf8, 1 finding; first finding at offset 1410007 (30001:8) bidi\n\
         t/d-small.txt: valid utf8, 1 finding; first finding at offset 6 (2:5) invisible\n\
         5 files checked: 4 with findings, 0 unreadable, 0 skipped\n"
    );
    assert_eq!(ran.code, 1);
}

/// JSON over a tree: each file's records together, files in path order, every readable
/// file with its input record (valid ones too: the evidence of what was examined), and a
/// large file (scanned in parallel) hashed right.
#[test]
fn json_sarif_and_csv_over_a_tree() {
    let dir = sample_tree();
    let big: Vec<u8> = (0..(3 << 20) + 5)
        .map(|i: u32| {
            if i % 100_000 == 7 {
                0xFF
            } else {
                b'a' + (i % 26) as u8
            }
        })
        .collect();
    put(&dir.path().join("t"), "big.txt", &big);
    let ran = run_in(dir.path(), &["check", "-r", "--json", "t"]);
    assert_eq!(ran.code, 2);
    let records: Vec<Value> = ran
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let shape: Vec<String> = records
        .iter()
        .filter(|r| r["type"] != "error" && r["type"] != "finding")
        .map(|r| {
            format!(
                "{} {}",
                r["type"].as_str().unwrap(),
                r["path"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        shape,
        [
            "input t/a.txt",
            "summary t/a.txt",
            "input t/b/bad.txt",
            "summary t/b/bad.txt",
            "input t/b/lost.txt",
            "summary t/b/lost.txt",
            "input t/big.txt",
            "summary t/big.txt",
            "skipped t/pipe",
            "io_error t/z-dangling",
        ]
    );
    assert!(ran.stdout.lines().any(|l| l
        == r#"{"type":"io_error","path":"t/z-dangling","message":"symbolic link whose target is missing"}"#));
    // A special file passed over has a record, so an archived report says what it left out.
    assert!(ran
        .stdout
        .lines()
        .any(|l| l == r#"{"type":"skipped","path":"t/pipe","what":"fifo"}"#));
    let big_input = records
        .iter()
        .find(|r| r["type"] == "input" && r["path"] == "t/big.txt")
        .unwrap();
    let hash = python_bytes(
        "import sys, hashlib; print(hashlib.sha256(open(sys.argv[1], 'rb').read()).hexdigest())",
        [dir.path().join("t/big.txt")],
        b"",
    )
    .unwrap();
    assert_eq!(big_input["sha256"], String::from_utf8(hash).unwrap().trim());
    let big_errors = records
        .iter()
        .filter(|r| r["type"] == "error" && r["path"] == "t/big.txt")
        .count();
    assert_eq!(big_errors, big.iter().filter(|b| **b == 0xFF).count());

    let ran = run_in(dir.path(), &["check", "-r", "--sarif", "t"]);
    let log: Value = serde_json::from_str(&ran.stdout).unwrap();
    let run_ = &log["runs"][0];
    let uris: Vec<&str> = run_["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["location"]["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        uris,
        ["t/a.txt", "t/b/bad.txt", "t/b/lost.txt", "t/big.txt"]
    );
    let notes = run_["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .unwrap();
    assert_eq!(notes.len(), 2);
    assert_eq!(notes[0]["level"], "note");
    assert_eq!(notes[0]["message"]["text"], "t/pipe: skipped: fifo");
    assert_eq!(
        notes[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "t/pipe"
    );
    assert_eq!(notes[1]["level"], "error");
    // An unreadable file names itself in the message, as a skipped one does.
    assert_eq!(
        notes[1]["message"]["text"],
        "t/z-dangling: symbolic link whose target is missing"
    );
    assert_eq!(
        notes[1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "t/z-dangling"
    );

    let ran = run_in(dir.path(), &["check", "-r", "--csv", "t"]);
    let paths: Vec<&str> = ran
        .stdout
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted);
    assert_eq!(paths.first(), Some(&"t/b/bad.txt"));
    assert_eq!(
        paths.iter().filter(|p| **p == "t/big.txt").count(),
        big_errors
    );
}

/// `-r` with no directory walks the current one; `-` is refused.
#[test]
fn the_default_root_and_stdin() {
    let dir = tempfile::tempdir().unwrap();
    put(dir.path(), "x.txt", b"\xe9");
    let ran = run_in(dir.path(), &["check", "-r"]);
    assert_eq!(
        ran.stdout,
        "./x.txt: invalid utf8: 1 error; first error at offset 0 (1:1) truncated_eof\n\
         1 file checked: 1 with findings, 0 unreadable, 0 skipped\n"
    );
    let ran = run_in(dir.path(), &["check", "-r", "-"]);
    assert_eq!(ran.code, 2);
    assert_eq!(
        ran.stderr,
        "hexrune: <stdin>: -r walks directories, not standard input\n"
    );
}

/// A tree deeper than the system's longest path: the directory the walk cannot name is
/// reported once, with what to do, the exit status is 2, and checking from inside it
/// reaches the rest.
#[test]
fn a_directory_past_path_max_is_reported_with_the_way_round() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("t")).unwrap();
    // 25 levels of 200-byte names, a file with an error in each, made relative to open
    // directories (no path of it is ever named whole).
    let name = std::ffi::CString::new("d".repeat(200)).unwrap();
    let file = std::ffi::CString::new("f.txt").unwrap();
    let root = std::ffi::CString::new(dir.path().join("t").to_str().unwrap()).unwrap();
    // SAFETY: plain system calls on descriptors this test opens and closes, and
    // NUL-terminated names.
    unsafe {
        let mut fd = libc::open(root.as_ptr(), libc::O_DIRECTORY | libc::O_RDONLY);
        assert!(fd >= 0);
        for _ in 0..25 {
            assert_eq!(libc::mkdirat(fd, name.as_ptr(), 0o755), 0);
            let next = libc::openat(fd, name.as_ptr(), libc::O_DIRECTORY | libc::O_RDONLY);
            assert!(next >= 0);
            libc::close(fd);
            fd = next;
            let f = libc::openat(fd, file.as_ptr(), libc::O_CREAT | libc::O_WRONLY, 0o644);
            assert!(f >= 0);
            assert_eq!(libc::write(f, b"ok\xff\n".as_ptr().cast(), 4), 4);
            libc::close(f);
        }
        libc::close(fd);
    }
    // From the top, "t/" and 21 names of 201 bytes pass 4096 bytes: 20 files are checked.
    let ran = run_in(dir.path(), &["check", "-r", "t"]);
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    let level = |n: usize| vec!["d".repeat(200); n].join("/");
    assert_eq!(
        ran.stderr,
        format!(
            "hexrune: t/{}: path longer than the system allows (PATH_MAX): not walked; run \
             check -r from inside it to check what it holds\n",
            level(21)
        )
    );
    assert!(
        ran.stdout
            .ends_with("20 files checked: 20 with findings, 1 unreadable, 0 skipped\n"),
        "{}",
        ran.stdout
    );
    // From inside the 19th level, the last 7 levels are reached.
    let inside = dir.path().join("t").join(level(19));
    let ran = run_in(&inside, &["check", "-r", "."]);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert!(
        ran.stdout
            .ends_with("7 files checked: 7 with findings, 0 unreadable, 0 skipped\n"),
        "{}",
        ran.stdout
    );
}

/// A lint finding of level warning makes `check -r --security` exit 1, a U+FFFD alone does
/// not; check.md's exit-status sections say both (they once said findings never count).
#[test]
fn lint_findings_set_the_exit_status_as_check_md_says() {
    let dir = tempfile::tempdir().unwrap();
    put(dir.path(), "zw/zw.txt", b"a\xe2\x80\x8bb\n");
    put(dir.path(), "lost/lost.txt", "lost \u{FFFD}\n".as_bytes());
    let ran = run_in(dir.path(), &["check", "-r", "--security", "zw"]);
    assert_eq!(
        ran.stdout,
        "zw/zw.txt: valid utf8, 1 finding; first finding at offset 1 (1:2) invisible\n\
         1 file checked: 1 with findings, 0 unreadable, 0 skipped\n"
    );
    assert_eq!(ran.code, 1);
    let ran = run_in(dir.path(), &["check", "-r", "--security", "lost"]);
    assert_eq!(ran.code, 0);
    let page = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/check.md"))
        .unwrap();
    let section = |title: &str| {
        let start = page.find(title).unwrap();
        let rest = &page[start + title.len()..];
        rest[..rest.find("\n## ").unwrap_or(rest.len())].to_string()
    };
    for title in ["## Whole trees: `-r`", "## Errors and exit status"] {
        let text = section(title)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(!text.contains("Findings do not change it"), "{title}");
        assert!(!text.contains("do not change the exit status"), "{title}");
        assert!(
            text.contains("a lint finding of level `error` or `warning`"),
            "{title}: {text}"
        );
    }
}

/// Two names that differ, one holding the bytes FF FE and one the characters `\xff\xfe`
/// (or U+202E and `\u{202e}`), are shown apart in the human lines of `-r`, in human
/// output, on stderr and in CSV: the name's own backslash is written `\\`.
#[test]
fn names_that_differ_are_shown_apart() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("t");
    std::fs::create_dir(&t).unwrap();
    let raw = std::ffi::OsStr::from_bytes(b"lat\xff\xfe.txt");
    std::fs::write(t.join(raw), b"\xc0\xaf\n").unwrap();
    std::fs::write(t.join(r"lat\xff\xfe.txt"), b"\xc0\xaf\n").unwrap();
    std::fs::write(t.join("bidi\u{202E}.txt"), b"\xc0\xaf\n").unwrap();
    std::fs::write(t.join(r"bidi\u{202e}.txt"), b"\xc0\xaf\n").unwrap();
    let ran = run_in(dir.path(), &["check", "-r", "t"]);
    assert_eq!(
        ran.stdout,
        "t/bidi\\\\u{202e}.txt: invalid utf8: 2 errors; first error at offset 0 (1:1) invalid_byte\n\
         t/bidi\\u{202e}.txt: invalid utf8: 2 errors; first error at offset 0 (1:1) invalid_byte\n\
         t/lat\\\\xff\\\\xfe.txt: invalid utf8: 2 errors; first error at offset 0 (1:1) invalid_byte\n\
         t/lat\\xff\\xfe.txt: invalid utf8: 2 errors; first error at offset 0 (1:1) invalid_byte\n\
         4 files checked: 4 with findings, 0 unreadable, 0 skipped\n"
    );
    let ran = run_in(&t, &["check", "--csv", "--", r"lat\xff\xfe.txt"]);
    assert_eq!(
        ran.stdout.lines().nth(1).unwrap(),
        "lat\\\\xff\\\\xfe.txt,0,1,1,1,invalid_byte,error,c0,byte that never occurs in this dialect; overlong form of U+002F '/' (c0 af),À"
    );
    let ran = run_in(&t, &["check", r"bidi\u{202e}.txt", r"no\such"]);
    assert_eq!(
        ran.stdout.lines().next().unwrap(),
        "bidi\\\\u{202e}.txt: invalid utf8: 2 errors in 3 bytes"
    );
    assert_eq!(
        ran.stderr,
        "hexrune: no\\\\such: no such file or directory\n"
    );
}

/// Roots that overlap check and count each file once; files come in path order compared
/// name by name (`a/x` before `a-b/x` and `a.b/x`, unlike `sort` of the whole lines).
#[test]
fn overlapping_roots_check_each_file_once_in_path_order() {
    let dir = tempfile::tempdir().unwrap();
    for d in ["a", "a-b", "a.b", "B"] {
        put(dir.path(), &format!("ord/{d}/x"), b"\xff");
    }
    std::os::unix::fs::symlink("x", dir.path().join("ord/a/link")).unwrap();
    let line = |p: &str| {
        format!("{p}: invalid utf8: 1 error; first error at offset 0 (1:1) invalid_byte\n")
    };
    let ran = run_in(dir.path(), &["check", "-r", "ord", "ord/a"]);
    assert_eq!(
        ran.stdout,
        [
            line("ord/B/x"),
            line("ord/a/link"),
            line("ord/a/x"),
            line("ord/a-b/x"),
            line("ord/a.b/x"),
            "5 files checked: 5 with findings, 0 unreadable, 0 skipped\n".to_string(),
        ]
        .concat()
    );
    assert_eq!(ran.code, 1);
    let ran = run_in(dir.path(), &["check", "-r", "ord/a", "ord/a/x", "./ord/a"]);
    assert_eq!(
        ran.stdout,
        [
            line("./ord/a/link"),
            line("./ord/a/x"),
            "2 files checked: 2 with findings, 0 unreadable, 0 skipped\n".to_string(),
        ]
        .concat()
    );
    let ran = run_in(dir.path(), &["check", "-r", "--json", "ord/a/x", "ord/a/x"]);
    assert_eq!(ran.stdout.matches(r#""type":"input""#).count(), 1);
}

#[test]
fn a_walk_leaves_access_times_alone() {
    // Files of 1 MiB or less were read without O_NOATIME, which a named file gets: their
    // access time moved. Set far in the past (before their modification time), it moves
    // on a read under relatime too, unless the open asks the kernel not to.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("atd");
    put(&root, "small.txt", b"small \xc3\xa9\n");
    put(&root, "bad.txt", b"x\xff\n");
    put(&root, "large.txt", &vec![b'a'; (1 << 20) + 1]);
    let past = std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(978_307_200); // 2001
    let names = ["small.txt", "bad.txt", "large.txt"];
    for name in names {
        let file = std::fs::File::options()
            .write(true)
            .open(root.join(name))
            .unwrap();
        file.set_times(std::fs::FileTimes::new().set_accessed(past))
            .unwrap();
    }
    let ran = run_in(dir.path(), &["check", "-r", "atd"]);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    for name in names {
        let accessed = std::fs::metadata(root.join(name))
            .unwrap()
            .accessed()
            .unwrap();
        assert_eq!(accessed, past, "{name}");
    }
}

/// A UTF-16 or UTF-32 file in a tree checked as UTF-8 says what it looks like, by its byte
/// order mark or its zero bytes, so that it is not taken for broken UTF-8; a UTF-8 mark and
/// a file read as UTF-16 say nothing more.
#[test]
fn a_wide_file_in_a_tree_says_what_it_looks_like() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let mut marked = vec![0xFF, 0xFE];
    marked.extend(
        "Write-Host \"h\u{e9}llo\"\r\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes),
    );
    put(root, "a.ps1", &marked);
    let bare: Vec<u8> = "caf\u{e9} \u{fc}ber na\u{ef}ve d\u{e9}j\u{e0} vu, \u{c0} bient\u{f4}t\n"
        .encode_utf16()
        .flat_map(u16::to_be_bytes)
        .collect();
    put(root, "b.txt", &bare);
    put(root, "c.txt", b"\xef\xbb\xbfbad \xff\n");
    let ran = run_in(root, &["check", "-r", "."]);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert_eq!(
        ran.stdout,
        "./a.ps1: invalid utf8: 3 errors; first error at offset 0 (1:1) invalid_byte; byte \
         order mark FF FE says UTF-16LE; try -e utf-16le\n\
         ./b.txt: invalid utf8: 7 errors; first error at offset 7 (1:8) truncated; looks like \
         UTF-16BE; try -e utf-16be\n\
         ./c.txt: invalid utf8: 1 error; first error at offset 7 (1:5) invalid_byte\n\
         3 files checked: 3 with findings, 0 unreadable, 0 skipped\n"
    );
    let ran = run_in(root, &["check", "-r", "-e", "utf-16le", "a.ps1"]);
    assert_eq!(
        (ran.code, ran.stdout.as_str()),
        (
            0,
            "1 file checked: 0 with findings, 0 unreadable, 0 skipped\n"
        )
    );
}
