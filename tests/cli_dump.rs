//! `hexrune dump` as a user runs it: exact rows and marker lines, windows, widths, ASCII,
//! colour, hostile input, pipes and standard input; and the property that a window's dump
//! is the whole input's dump restricted to it.

use std::io::{Read, Write};
use std::path::Path;

use assert_cmd::Command;
use hexrune::cli::dump::{dump_bytes, dump_stream, Format};
use hexrune::decode::Dialect;
use proptest::prelude::*;

mod support;

fn hexrune() -> Command {
    Command::cargo_bin("hexrune").unwrap()
}

fn file_with(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

fn stdout_of(args: &[&str]) -> String {
    let out = hexrune().args(args).assert().code(0).get_output().clone();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    String::from_utf8(out.stdout).unwrap()
}

/// `abcdefg€` (the euro sign crossing the edge of 8-byte rows), then one of each UTF-8
/// error kind: C0 (invalid), 80 (stray continuation), E2 82 + 'd' (truncated), E0 80 AF
/// (overlong), ED A0 80 (surrogate), F4 90 80 80 (out of range), E2 82 at the end.
const FIXTURE: &[u8] =
    b"abcdefg\xe2\x82\xac\xc0\x80c\xe2\x82d\xe0\x80\xaf\xed\xa0\x80\xf4\x90\x80\x80\xe2\x82";

#[test]
fn rows_and_marker_lines_for_every_utf8_error_kind() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "fx.bin", FIXTURE);
    let expected = "\
00000000  61 62 63 64 65 66 67 e2  11111113  abcdefg€
00000008  82 ac c0 80 63 e2 82 64  ₂₃✗✗1✗✗1  ˑˑ��c�ˑd
                I^ C^    T^~~~     I invalid_byte, C unexpected_continuation, T truncated
00000010  e0 80 af ed a0 80 f4 90  ✗✗✗✗✗✗✗✗  ��������
          O^ C^ C^ S^ C^ C^ R^ C^  O overlong, C unexpected_continuation, S surrogate, R out_of_range
00000018  80 80 e2 82              ✗✗✗✗      ���ˑ
          C^ C^ E^~~~              C unexpected_continuation, E truncated_eof
";
    assert_eq!(stdout_of(&["dump", "--width", "8", &f]), expected);
    // The euro sign crossing the row edge is drawn once and is no error.
    assert!(!expected
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("00000008  82 ac  ✗"));
}

#[test]
fn error_kinds_of_the_other_dialects() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(
        dir.path(),
        "sur.bin",
        b"\xed\xa0\x80x\xed\xa0\xbd\xed\xb8\x80",
    );
    assert_eq!(
        stdout_of(&["dump", "-d", "cesu8", &f]),
        "00000000  ed a0 80 78 ed a0 bd ed b8 80                    ✗✗✗16₂₃₄₅₆        �ˑˑx😀ˑˑˑˑ\n          U^~~~~~~                                         U unpaired_surrogate\n"
    );
    assert_eq!(
        stdout_of(&["dump", "-d", "wtf8", &f]),
        "00000000  ed a0 80 78 ed a0 bd ed b8 80                    3₂₃1✗✗✗✗✗✗        ˢˑˑx�ˑˑ�ˑˑ\n                      P^~~~~~~ P^~~~~~~                    P surrogate_pair\n"
    );
}

#[test]
fn offset_inside_a_sequence_and_length() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "fx.bin", FIXTURE);
    // Offset 8 is the second byte of the euro sign: continuation bytes, not errors.
    assert_eq!(
        stdout_of(&["dump", "--offset", "8", "--length", "5", &f]),
        "00000008  82 ac c0 80 63                                   ₂₃✗✗1             ˑˑ��c\n\
         \x20               I^ C^                                      I invalid_byte, C unexpected_continuation\n"
    );
    assert_eq!(
        stdout_of(&["dump", "-o", "0x1a", &f]),
        "0000001a  e2 82                                            ✗✗                �ˑ\n          E^~~~                                            E truncated_eof\n"
    );
    assert_eq!(stdout_of(&["dump", "-n", "0", &f]), "");
}

#[test]
fn widths() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "fx.bin", FIXTURE);
    let w8 = stdout_of(&["dump", "-w", "8", &f]);
    let w32 = stdout_of(&["dump", "-w", "32", &f]);
    assert_eq!(w8.lines().filter(|l| l.starts_with('0')).count(), 4);
    assert_eq!(w32.lines().count(), 2);
    assert!(w32.starts_with(
        "00000000  61 62 63 64 65 66 67 e2 82 ac c0 80 63 e2 82 64 e0 80 af ed a0 80 f4 90 80 80 e2 82              11111113₂₃✗✗1✗"
    ));
    hexrune().args(["dump", "-w", "12", &f]).assert().code(2);
}

#[test]
fn ascii_output_is_pure_ascii() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = FIXTURE.to_vec();
    bytes.extend_from_slice(
        "Grüße 世界 \u{202e}\u{301}\u{feff}\u{e000}\u{85}\x1b\x07\x00".as_bytes(),
    );
    let f = file_with(dir.path(), "mix.bin", &bytes);
    let out = stdout_of(&["dump", "--ascii", &f]);
    for b in out.bytes() {
        assert!(
            b == b'\n' || (0x20..0x7F).contains(&b),
            "byte {b:#x} in {out}"
        );
    }
    assert!(out.contains("abcdefg*..??c?.d"), "{out}");
    assert!(out.contains("  ???????????.Gr*.\n"), "{out}");
    assert!(out.contains("  *.e *..*.. %..'.\n"), "{out}");
    assert!(out.contains("  3--3--2-111       %..#..^.^^^\n"), "{out}");
}

#[test]
fn colour_only_when_asked_or_on_a_terminal_without_no_color() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "fx.bin", FIXTURE);
    let always = stdout_of(&["dump", "--color", "always", &f]);
    assert!(
        always.contains("\x1b[0;1;93me2 \x1b[0;33m82 ac "),
        "{always:?}"
    );
    assert!(always.contains("\x1b[0;1;91m"), "{always:?}");
    let auto = hexrune()
        .args(["dump", "--color", "auto", &f])
        .env("NO_COLOR", "1")
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert!(!auto.contains(&0x1b));
    // Not a terminal: auto is off even without NO_COLOR.
    let piped = hexrune()
        .args(["dump", &f])
        .env_remove("NO_COLOR")
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert!(!piped.contains(&0x1b));
    // Stripping the escapes gives the plain output.
    assert_eq!(strip_sgr(&always), stdout_of(&["dump", &f]));
}

fn strip_sgr(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("\x1b[") {
        out.push_str(&rest[..i]);
        let end = rest[i..].find('m').unwrap();
        assert!(rest[i + 2..i + end]
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b';'));
        rest = &rest[i + end + 1..];
    }
    out.push_str(rest);
    out
}

#[test]
fn hostile_input_never_reaches_the_terminal_raw() {
    let dir = tempfile::tempdir().unwrap();
    let hostile = "title\x1b]0;pwned\x07 red\x1b[31m csi\u{9b}2J bidi\u{202e}txt.exe\u{2066} bell\x07\x08\r\n\u{200b}\u{85}";
    let f = file_with(dir.path(), "hostile.txt", hostile.as_bytes());
    for color in ["never", "always"] {
        for extra in [None, Some("--ascii")] {
            let mut args = vec!["dump", "--color", color];
            args.extend(extra);
            args.push(&f);
            let out = stdout_of(&args);
            let plain = if color == "always" {
                strip_sgr(&out)
            } else {
                out.clone()
            };
            assert!(!plain.contains('\x1b'), "{out:?}");
            for bad in [
                '\x07', '\u{9b}', '\u{202e}', '\u{2066}', '\x08', '\r', '\u{200b}', '\u{85}',
            ] {
                assert!(!out.contains(bad), "{bad:?} in {out:?}");
            }
            assert!(!out.bytes().any(|b| b == 0x07));
            // 0x9B (the 8-bit CSI) appears only inside the UTF-8 of a safe glyph (␛ is
            // E2 90 9B), never alone; with --ascii, never at all.
            assert!(out.chars().all(|c| !('\u{80}'..='\u{9f}').contains(&c)));
            if extra.is_some() {
                assert!(out.bytes().all(|b| b < 0x80), "{out:?}");
            }
        }
    }
}

#[test]
fn standard_input_is_streamed_and_equals_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = Vec::new();
    for i in 0..5000u32 {
        bytes.extend_from_slice(format!("{i} é€😀 ").as_bytes());
        if i % 7 == 0 {
            bytes.push(0xE2);
        }
    }
    let f = file_with(dir.path(), "big.txt", &bytes);
    let from_file = stdout_of(&["dump", "-o", "3", "-n", "50000", &f]);
    for args in [
        &["dump", "-o", "3", "-n", "50000"][..],
        &["dump", "-o", "3", "-n", "50000", "-"],
    ] {
        let out = hexrune()
            .args(args)
            .write_stdin(bytes.clone())
            .assert()
            .code(0)
            .get_output()
            .stdout
            .clone();
        assert!(String::from_utf8(out).unwrap() == from_file);
    }
    // Standard input that is a regular file is mapped, with the same output.
    let out = hexrune()
        .args(["dump", "-o", "3", "-n", "50000"])
        .pipe_stdin(&f)
        .unwrap()
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8(out).unwrap() == from_file);
}

#[test]
fn errors_exit_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "fx.bin", FIXTURE);
    hexrune()
        .args(["dump", "/nonexistent/x"])
        .assert()
        .code(2)
        .stdout("")
        .stderr("hexrune: /nonexistent/x: no such file or directory\n");
    hexrune()
        .args(["dump", "-o", "28", &f])
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!(
            "hexrune: {f}: offset 28 is past the end of the input (28 bytes)\n"
        ));
    hexrune()
        .args(["dump", "-o", "99"])
        .write_stdin(b"abc".as_slice())
        .assert()
        .code(2)
        .stderr("hexrune: <stdin>: offset 99 is past the end of the input (3 bytes)\n");
    hexrune().args(["dump", "-o", "zz", &f]).assert().code(2);
    hexrune()
        .args(["dump", dir.path().to_str().unwrap()])
        .assert()
        .code(2);
    // An empty input prints nothing.
    let empty = file_with(dir.path(), "empty", b"");
    assert_eq!(stdout_of(&["dump", &empty]), "");
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "many.bin", &vec![0xFF; 4 << 20]);
    for stdin_too in [false, true] {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("hexrune"));
        cmd.arg("dump")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        if stdin_too {
            cmd.stdin(std::process::Stdio::piped());
        } else {
            cmd.arg(&f);
        }
        let mut child = cmd.spawn().unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 100];
        if stdin_too {
            let mut stdin = child.stdin.take().unwrap();
            let data = std::fs::read(&f).unwrap();
            std::thread::spawn(move || {
                let _ = stdin.write_all(&data);
            });
        }
        stdout.read_exact(&mut first).unwrap();
        assert!(first.starts_with(b"00000000  ff ff"));
        drop(stdout);
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(0));
        assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    }
}

fn dump(bytes: &[u8], window: std::ops::Range<u64>, f: &Format) -> String {
    let mut out = Vec::new();
    dump_bytes(bytes, window, f, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// The lines of a dump grouped by row: a row line and its marker line, if any.
fn rows_of(text: &str) -> Vec<String> {
    let mut rows: Vec<String> = Vec::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with(' ') {
            rows.last_mut().unwrap().push_str(line);
        } else {
            rows.push(line.to_string());
        }
    }
    rows
}

/// Every dialect, and single-byte encodings with and without undefined bytes.
fn every_dialect() -> Vec<Dialect> {
    let mut all = Dialect::ALL.to_vec();
    for label in ["windows-1252", "iso-8859-3", "IBM437"] {
        all.push(hexrune::encoding::resolve(label).unwrap());
    }
    all
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The dump of rows `a..b` of any input, from a file or a stream cut into chunks of any
    /// size, is exactly rows `a..b` of the whole input's dump: no unit is drawn as an error
    /// because of a window, row or chunk edge.
    #[test]
    fn a_window_is_the_whole_dump_restricted(
        bytes in support::unit_soup(300),
        d in prop::sample::select(every_dialect()),
        width in prop::sample::select(vec![8usize, 16, 32]),
        a in 0usize..40,
        n in 0usize..40,
        chunk in 1usize..20,
        color in any::<bool>(),
    ) {
        let f = Format { dialect: d, width, color, ascii: false };
        let whole = rows_of(&dump(&bytes, 0..bytes.len() as u64, &f));
        let first = a.min(whole.len());
        let last = (first + n).min(whole.len());
        let start = ((first * width) as u64).min(bytes.len() as u64);
        let end = ((last * width) as u64).min(bytes.len() as u64);
        let expected = whole[first..last].concat();
        prop_assert_eq!(&dump(&bytes, start..end, &f), &expected);
        let mut streamed = Vec::new();
        dump_stream(&bytes[..], start, Some(end - start), &f, chunk, &mut streamed).unwrap();
        prop_assert_eq!(String::from_utf8(streamed).unwrap(), expected);
    }
}
