//! The conventions every command follows: `--help` with examples, `--version`, shell
//! completions, man pages that match the command line, one-line errors.

use std::path::Path;

mod common;
use common::{hexrune, run, stdout_of};

/// The committed man pages are exactly what `hexrune man` generates now, and there is one
/// for every command and no other.
#[test]
fn man_pages_in_docs_are_up_to_date() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let mut pages = vec![("hexrune.1".to_string(), stdout_of(["man"], 0))];
    for command in hexrune::cli::page_commands() {
        pages.push((
            format!("hexrune-{command}.1"),
            stdout_of(["man", &command], 0),
        ));
    }
    let regenerate = format!(
        "regenerate with: cargo run -q -- man > docs/hexrune.1; for c in {}; do cargo run -q -- man $c > docs/hexrune-$c.1; done",
        hexrune::cli::page_commands().join(" ")
    );
    for (name, generated) in &pages {
        assert!(
            generated.starts_with(".ie \\n(.g .ds Aq"),
            "{name}: not roff"
        );
        let committed = std::fs::read_to_string(docs.join(name))
            .unwrap_or_else(|e| panic!("docs/{name}: {e}; {regenerate}"));
        assert!(
            &committed == generated,
            "docs/{name} is stale; {regenerate}"
        );
    }
    let mut expected: Vec<&str> = pages.iter().map(|(n, _)| n.as_str()).collect();
    expected.sort();
    let mut committed: Vec<String> = std::fs::read_dir(&docs)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".1"))
        .collect();
    committed.sort();
    assert_eq!(committed, expected);
}

#[test]
fn the_man_page_lists_every_command_and_its_examples() {
    let page = stdout_of(["man"], 0);
    for line in [
        ".TH hexrune 1  \"hexrune 0.1.0\" ",
        "hexrune\\-explain(1)",
        "hexrune\\-completions(1)",
        "  hexrune explain e2 82 ac         the bits, roles and units of three bytes in every dialect",
    ] {
        assert!(page.lines().any(|l| l == line), "missing {line:?}");
    }
    assert!(!page.contains("hexrune\\-help(1)"));
    assert!(!page.contains("hexrune\\-man(1)"));
    hexrune()
        .args(["man", "nope"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!(
            "hexrune: man: no command 'nope' (commands: {})\n",
            hexrune::cli::page_commands().join(", ")
        ));
    let commands = hexrune::cli::page_commands();
    for command in ["check", "at", "explain", "completions"] {
        assert!(commands.iter().any(|c| c == command), "{commands:?}");
    }
}

#[test]
fn completions_for_every_shell() {
    let cases = [
        (
            "bash",
            "complete -F _hexrune -o nosort -o bashdefault -o default hexrune",
        ),
        ("zsh", "#compdef hexrune"),
        (
            "fish",
            "complete -c hexrune -n \"__fish_hexrune_needs_command\" -a \"explain\"",
        ),
        (
            "elvish",
            "set edit:completion:arg-completer[hexrune] = {|@words|",
        ),
        (
            "powershell",
            "Register-ArgumentCompleter -Native -CommandName 'hexrune' -ScriptBlock {",
        ),
    ];
    for (shell, marker) in cases {
        let script = stdout_of(["completions", shell], 0);
        assert!(script.contains(marker), "{shell}: no {marker:?}");
        assert!(script.contains("char"), "{shell}: explain's --char missing");
    }
    hexrune()
        .args(["completions", "tcsh"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "invalid value 'tcsh' for '<SHELL>'",
        ));
}

#[test]
fn version() {
    hexrune()
        .arg("--version")
        .assert()
        .code(0)
        .stdout(format!("hexrune {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn every_command_has_help_with_examples() {
    let top = stdout_of(["--help"], 0);
    assert!(
        top.contains("\nExamples:\n  hexrune check notes.txt"),
        "{top}"
    );
    assert!(top.contains("\n  hexrune explain --char U+1F600 "), "{top}");
    for command in hexrune::cli::page_commands() {
        let help = stdout_of([&command, "--help"], 0);
        assert!(
            help.contains("\nExamples:\n  hexrune "),
            "{command} --help has no examples:\n{help}"
        );
    }
}

/// Usage errors from clap name the usage line of the command at fault.
#[test]
fn usage_errors_show_the_usage_line() {
    let cases = [
        (vec!["explain"], "Usage: hexrune explain <BYTES|--char <C>>"),
        (
            vec!["explain", "e2", "--char", "x"],
            "Usage: hexrune explain <BYTES|--char <C>>",
        ),
        (
            vec!["explain", "--bogus"],
            "Usage: hexrune explain [OPTIONS] <BYTES|--char <C>>",
        ),
        (vec!["at", "f"], "Usage: hexrune at <FILE> <OFFSET>"),
        (vec!["completions"], "Usage: hexrune completions <SHELL>"),
        // Values clap does not accept: its own message has no usage line.
        (
            vec!["dump", "--width", "7", "f"],
            "Usage: hexrune dump [OPTIONS] [FILE]",
        ),
        (
            vec!["dump", "--offset", "zz", "f"],
            "Usage: hexrune dump [OPTIONS] [FILE]",
        ),
        (
            vec!["check", "-d", "x", "f"],
            "Usage: hexrune check [OPTIONS] [FILES]...",
        ),
        (
            vec!["at", "f", "zz"],
            "Usage: hexrune at [OPTIONS] <FILE> <OFFSET>",
        ),
        (vec!["--color", "bad"], "Usage: hexrune [OPTIONS] [FILE]"),
        (vec!["-d", "dump"], "Usage: hexrune [OPTIONS] [FILE]"),
    ];
    for (args, usage) in cases {
        let out = run(&args, 2);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(stderr.lines().any(|l| l == usage), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty());
    }
}

/// A value or argument clap refuses is quoted through the sanitiser: an escape sequence or a
/// bidi control on the command line reaches standard error as visible text, not as bytes a
/// terminal acts on (nor stripped out of the quote).
#[test]
fn refused_words_are_quoted_safely() {
    let cases = [
        (
            vec!["check", "--target", "\u{1b}[2J\u{1b}]0;t\u{7}X", "f"],
            "error: invalid value '\\u{1b}[2J\\u{1b}]0;t\\u{7}X' for '--target <T>'",
        ),
        (
            vec!["check", "--b\u{1b}[1mx", "f"],
            "error: unexpected argument '--b\\u{1b}[1mx' found",
        ),
        (
            vec!["dump", "--width", "7\u{202e}", "f"],
            "error: invalid value '7\\u{202e}' for '--width <N>'",
        ),
        // The dialect's and the encoding's own messages quote the word too (they printed
        // it raw, and what clap then stripped of it was missing from the quote).
        (
            vec!["check", "-d", "utf8\u{1b}[2J", "f"],
            "error: invalid value 'utf8\\u{1b}[2J' for '--dialect <D>': unknown dialect 'utf8\\u{1b}[2J' (expected one of",
        ),
        (
            vec!["check", "-e", "x\u{202e}y\t\u{1b}[1mz\u{7f}\u{9b}", "f"],
            "error: invalid value 'x\\u{202e}y\\u{9}\\u{1b}[1mz\\u{7f}\\u{9b}' for '--encoding <LABEL>': unknown encoding 'x\\u{202e}y\\u{9}\\u{1b}[1mz\\u{7f}\\u{9b}' (a dialect name",
        ),
        (
            vec!["repair", "--dialect", "a\nb", "f"],
            "error: invalid value 'a\\u{a}b' for '--dialect <D>': unknown dialect 'a\\u{a}b' (expected one of",
        ),
    ];
    for (args, first) in cases {
        let out = run(&args, 2);
        let stderr = String::from_utf8(out.stderr).unwrap();
        let line = stderr.lines().next().unwrap_or_default();
        assert!(line.starts_with(first), "{args:?}: {stderr}");
        assert!(
            !stderr.contains(['\u{1b}', '\u{7}', '\u{202e}', '\u{9b}', '\t', '\u{7f}']),
            "{stderr:?}"
        );
    }
}

/// Every shell's completions offer the values of `--dialect` and `--color`.
#[test]
fn completions_offer_dialects_and_colours() {
    let cases = [
        (
            "bash",
            r#"compgen -W "utf8 cesu8 mutf8 wtf8 legacy utf16le utf16be utf32le utf32be""#,
        ),
        ("bash", r#"compgen -W "auto always never""#),
        (
            "zsh",
            ":D:(utf8 cesu8 mutf8 wtf8 legacy utf16le utf16be utf32le utf32be)",
        ),
        ("zsh", ":WHEN:(auto always never)"),
        ("fish", "-l dialect"),
        ("fish", "legacy\\t''"),
        ("fish", "never\\t''"),
    ];
    for (shell, marker) in cases {
        let script = stdout_of(["completions", shell], 0);
        assert!(script.contains(marker), "{shell}: no {marker:?}");
    }
}

/// The viewer takes one file: a second one is named as such, not as an unknown command.
#[test]
fn the_viewer_takes_one_file() {
    hexrune()
        .args(["a.txt", "b.txt"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::starts_with(
            "error: the viewer takes one file ('b.txt' is a second one); to check several: hexrune check FILE...\n",
        ));
}

/// The viewer with standard output not a terminal (`hexrune f | less`) names what is
/// wrong as every error does, and what to run instead.
#[test]
fn the_viewer_on_a_pipe_says_what_to_run_instead() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("f.txt");
    std::fs::write(&f, "ab\n").unwrap();
    let said = "hexrune: <stdout>: not a terminal: the viewer needs one (hexrune dump FILE \
                prints the bytes, hexrune check FILE the errors)\n";
    hexrune().arg(&f).assert().code(2).stdout("").stderr(said);
    hexrune()
        .arg("-")
        .write_stdin("ab\n")
        .assert()
        .code(2)
        .stdout("")
        .stderr(said);
}

/// A word that is no file and close to a command's name is taken for a mistyped command.
#[test]
fn a_mistyped_command_gets_a_suggestion() {
    let dir = tempfile::tempdir().unwrap();
    hexrune()
        .current_dir(dir.path())
        .arg("chek")
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::starts_with(
            "error: unrecognized subcommand 'chek'\n\n  tip: a similar subcommand exists: 'check'\n",
        ));
}

/// Runs `hexrune ARGS` with `stdin` as standard input and its output to nowhere; returns
/// the exit code and stderr, or None if it was still running after 10 seconds (it is then
/// killed).
fn ended_within(args: &[&str], stdin: std::process::Stdio) -> Option<(i32, String)> {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = std::process::Command::new(common::binary())
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(10) {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            return Some((status.code().unwrap_or(-1), err));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    None
}

#[test]
fn a_device_on_standard_input_is_refused_as_a_named_one_is() {
    // `hexrune check < /dev/zero` read forever, growing by gigabytes (the viewer too).
    let zero = || std::fs::File::open("/dev/zero").unwrap().into();
    for args in [
        vec![],
        vec!["-"],
        vec!["check"],
        vec!["check", "-"],
        vec!["check", "--json"],
        vec!["detect"],
        vec!["at", "-", "0"],
        vec!["dump", "-"],
        vec!["repair", "-", "-o", "-"],
    ] {
        assert_eq!(
            ended_within(&args, zero()),
            Some((
                2,
                "hexrune: <stdin>: not a regular file (character device)\n".to_string()
            )),
            "{args:?}"
        );
    }
    // The null device stays the empty input it always reads as.
    let null = || std::fs::File::open("/dev/null").unwrap().into();
    assert_eq!(ended_within(&["check"], null()), Some((0, String::new())));
    let out = std::process::Command::new(common::binary())
        .args(["check", "--json"])
        .stdin(std::fs::File::open("/dev/null").unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let first = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        first.lines().next(),
        Some(
            r#"{"type":"input","path":"<stdin>","size":0,"sha256":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","mtime":null}"#
        )
    );
}

#[test]
fn standard_input_named_twice_is_a_usage_error() {
    // `check - -` reported a second, empty `<stdin>` that was never examined.
    for command in ["check", "detect"] {
        let out = hexrune()
            .args([command, "-", "-"])
            .write_stdin(b"ok\n".to_vec())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert_eq!(out.stdout, b"", "{command}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(
            err,
            format!(
                "error: standard input ('-') is named more than once; it can be read only once\n\n\
                 Usage: hexrune {command} [OPTIONS] [FILES]...\n\n\
                 For more information, try '--help'.\n"
            ),
            "{command}"
        );
    }
    // Once is fine, beside files.
    let out = hexrune()
        .args(["check", "-", "/dev/null"])
        .write_stdin(b"ok\n".to_vec())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn standard_input_by_two_names_is_a_usage_error() {
    // `cat f | hexrune check /dev/stdin -` read the pipe twice: the second `<stdin>` was
    // reported empty (valid, exit 0), never examined. Names are compared as files are, by
    // device and inode.
    let cases = [
        ("check", ["/dev/stdin", "-"]),
        ("detect", ["-", "/dev/fd/0"]),
        ("check", ["/dev/fd/0", "/proc/self/fd/0"]),
    ];
    for (command, [first, second]) in cases {
        let out = hexrune()
            .args([command, first, "/dev/null", second])
            .write_stdin(b"ok\n".to_vec())
            .output()
            .unwrap();
        assert_eq!(
            (
                out.status.code(),
                String::from_utf8(out.stdout).unwrap(),
                String::from_utf8(out.stderr).unwrap()
            ),
            (
                Some(2),
                String::new(),
                format!(
                    "error: standard input is named more than once ('{first}' and '{second}'); \
                     it can be read only once\n\n\
                     Usage: hexrune {command} [OPTIONS] [FILES]...\n\n\
                     For more information, try '--help'.\n"
                )
            ),
            "{command} {first} {second}"
        );
    }
    // A regular file on standard input is mapped, as often as it is named.
    let dir = tempfile::tempdir().unwrap();
    let ok = dir.path().join("ok.txt");
    std::fs::write(&ok, b"ok\n").unwrap();
    let out = std::process::Command::new(common::binary())
        .args(["check", "-", "/dev/stdin"])
        .stdin(std::fs::File::open(&ok).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "<stdin>: valid utf8, ASCII only: 3 bytes, 3 characters\n  \
         units    1-byte 3, 2-byte 0, 3-byte 0, 4-byte 0\n\
         /dev/stdin: valid utf8, ASCII only: 3 bytes, 3 characters\n  \
         units    1-byte 3, 2-byte 0, 3-byte 0, 4-byte 0\n"
    );
}

#[test]
fn a_fifo_by_two_names_is_a_usage_error() {
    // `check p ./p` read the FIFO to its end, then opened it again and waited for a second
    // writer, for ever.
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("p");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let first = fifo.to_str().unwrap().to_string();
    let second = dir.path().join(".").join("p").to_str().unwrap().to_string();
    let null = std::process::Stdio::null;
    assert_eq!(
        ended_within(&["detect", &first, &second], null()),
        Some((
            2,
            format!(
                "error: '{first}' and '{second}' are the same pipe or fifo; it can be read only once\n\n\
                 Usage: hexrune detect [OPTIONS] [FILES]...\n\n\
                 For more information, try '--help'.\n"
            )
        ))
    );
    // A walk reads no FIFO, so naming one twice is no error: it is skipped, once, by the
    // same name on every run (`…/./p` sorts before `…/p` by its bytes; which one came first
    // was the walk's threads' choice).
    for _ in 0..8 {
        assert_eq!(
            ended_within(&["check", "-r", &first, &second], null()),
            Some((
                0,
                format!("hexrune: {second}: not a regular file (fifo), skipped\n")
            ))
        );
    }
}

#[test]
fn a_closed_standard_output_is_an_error() {
    // `hexrune dump ok.txt >&-` ended with 0 and said nothing: Rust's standard output
    // takes EBADF for success. Only a reader that left (a broken pipe) ends quietly.
    let dir = tempfile::tempdir().unwrap();
    let ok = dir.path().join("ok.txt");
    std::fs::write(&ok, b"ok\n").unwrap();
    let ok = ok.to_str().unwrap();
    for args in [
        vec!["dump", ok],
        vec!["check", ok],
        vec!["check", "--json", ok],
        vec!["detect", ok],
        vec!["at", ok, "0"],
        vec!["explain", "é"],
        vec!["repair", ok, "-o", "-"],
        vec!["--help"],
        vec!["check", "--help"],
        vec!["--version"],
    ] {
        for redirect in [">&-", "1<&0"] {
            let out = std::process::Command::new("sh")
                .arg("-c")
                .arg(format!("exec \"$0\" \"$@\" {redirect}"))
                .arg(common::binary())
                .args(&args)
                .stdin(std::fs::File::open(ok).unwrap())
                .output()
                .unwrap();
            assert_eq!(
                (
                    out.status.code(),
                    String::from_utf8_lossy(&out.stderr).into_owned()
                ),
                (
                    Some(2),
                    "hexrune: <stdout>: bad file descriptor\n".to_string()
                ),
                "{args:?} {redirect}"
            );
        }
    }
    // A repair whose copy goes to a file prints nothing on standard output.
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" \"$@\" >&-")
        .arg(common::binary())
        .args(["repair", ok, "-o"])
        .arg(dir.path().join("out.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(std::fs::read(dir.path().join("out.txt")).unwrap(), b"ok\n");
}

/// A file name a shell glob made an unknown option: the tip quotes it as the error line
/// does (it printed it raw on a terminal, and stripped of its sequences elsewhere); and
/// `repair --from`'s own message quotes the label through the sanitiser too.
#[test]
fn tips_and_labels_are_quoted_safely() {
    let out = run(["check", "--\u{1b}]0;T\u{7}\u{202e}", "f"], 2);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stderr.lines().take(3).collect::<Vec<_>>(),
        [
            "error: unexpected argument '--\\u{1b}]0;T\\u{7}\\u{202e}' found",
            "",
            "  tip: to pass '--\\u{1b}]0;T\\u{7}\\u{202e}' as a value, use '-- \
             --\\u{1b}]0;T\\u{7}\\u{202e}'",
        ]
    );
    // A mistyped command's word is quoted whole (it was cut at the escape).
    let out = run(["chec\u{1b}]0;x\u{7}"], 2);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stderr.lines().next().unwrap(),
        "error: unrecognized subcommand 'chec\\u{1b}]0;x\\u{7}'"
    );
    let out = run(
        [
            "repair",
            "--from",
            "\u{1b}]0;T\u{7}\u{202e}",
            "f",
            "-o",
            "g",
        ],
        2,
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with(
            "error: invalid value '\\u{1b}]0;T\\u{7}\\u{202e}' for '--from <LABEL>': unknown \
             encoding '\\u{1b}]0;T\\u{7}\\u{202e}' (a dialect name"
        ),
        "{stderr}"
    );
    assert!(
        !stderr.contains(['\u{1b}', '\u{7}', '\u{202e}']),
        "{stderr:?}"
    );
}

/// `--help` and `--version` on a full disk say so, as every command does.
#[test]
fn help_and_version_on_a_full_disk_are_an_error() {
    for args in [vec!["--help"], vec!["dump", "--help"], vec!["--version"]] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = std::process::Command::new(common::binary())
            .args(&args)
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).into_owned()
            ),
            (
                Some(2),
                "hexrune: <stdout>: no space left on device\n".to_string()
            ),
            "{args:?}"
        );
    }
}

/// An argument that is not UTF-8 where text is wanted gets a message that says what must
/// be UTF-8, with the usage line of the command at fault (clap's own says neither).
#[test]
fn an_argument_that_is_not_utf8_says_what_must_be() {
    use std::os::unix::ffi::OsStrExt;
    let bad = std::ffi::OsStr::from_bytes(b"\xff");
    let out = std::process::Command::new(common::binary())
        .args([
            std::ffi::OsStr::new("at"),
            std::ffi::OsStr::new("f.txt"),
            bad,
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stderr.lines().take(3).collect::<Vec<_>>(),
        [
            "error: an argument is not UTF-8: offsets, labels and option values are text; a \
             file name may be any bytes, and explain takes bytes as hex or as the shell passes \
             them",
            "",
            "Usage: hexrune at [OPTIONS] <FILE> <OFFSET>",
        ]
    );
}
