//! `hexrune dump` as a user runs it: exact rows and marker lines, windows, widths, ASCII,
//! colour, hostile input, pipes and standard input; and the property that a window's dump
//! is the whole input's dump restricted to it.

use hexrune::cli::dump::{dump_bytes, dump_stream, Format, BATCH_ROWS, CHUNK};
use hexrune::decode::Dialect;
use hexrune::view::fallback::{Escape, Fallback};
use hexrune::view::CONTEXT;
use proptest::prelude::*;
use std::io::{Read, Write};

mod common;
mod support;
use common::{file_with, hexrune, output_with_stdin, quiet_stdout, stdout_with_stdin};

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
                I^ C^    T^~~~     I invalid_byte, C unexpected_continuation, T truncated; windows-1252: À € â‚
00000010  e0 80 af ed a0 80 f4 90  ✗✗✗✗✗✗✗✗  ��������
          O^ C^ C^ S^ C^ C^ R^ C^  O overlong, C unexpected_continuation, S surrogate, R out_of_range; windows-1252: à € ¯ í \\u{a0} € ô <90?>
00000018  80 80 e2 82              ✗✗✗✗      ���ˑ
          C^ C^ E^~~~              C unexpected_continuation, E truncated_eof; windows-1252: € € â‚
";
    assert_eq!(quiet_stdout(["dump", "--width", "8", &f]), expected);
    // Without a fallback, the marker lines end with the names of the kinds.
    let without: String = expected
        .lines()
        .map(|l| l.split("; windows-1252:").next().unwrap().to_string() + "\n")
        .collect();
    assert_eq!(
        quiet_stdout(["dump", "--width", "8", "--fallback", "none", &f]),
        without
    );
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
        quiet_stdout(["dump", "-d", "cesu8", &f]),
        "00000000  ed a0 80 78 ed a0 bd ed b8 80                    ✗✗✗16₂₃₄₅₆        �ˑˑx😀ˑˑˑˑ\n          U^~~~~~~                                         U unpaired_surrogate; windows-1252: í\\u{a0}€\n"
    );
    assert_eq!(
        quiet_stdout(["dump", "-d", "wtf8", &f]),
        "00000000  ed a0 80 78 ed a0 bd ed b8 80                    3₂₃1✗✗✗✗✗✗        ˢˑˑx�ˑˑ�ˑˑ\n                      P^~~~~~~ P^~~~~~~                    P surrogate_pair; windows-1252: í\\u{a0}½ í¸€\n"
    );
}

#[test]
fn offset_inside_a_sequence_and_length() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "fx.bin", FIXTURE);
    // Offset 8 is the second byte of the euro sign: continuation bytes, not errors, and
    // the euro sign on the first of them, since the window the reader asked for cuts it.
    let expected = "00000008  82 ac c0 80 63                                   ₂₃✗✗1             €ˑ��c\n\
         \x20               I^ C^                                      I invalid_byte, C unexpected_continuation; windows-1252: À €\n";
    assert_eq!(
        quiet_stdout(["dump", "--offset", "8", "--length", "5", &f]),
        expected
    );
    let piped = output_with_stdin(["dump", "-o", "8", "-n", "5", "-"], FIXTURE);
    assert_eq!(String::from_utf8(piped.stdout).unwrap(), expected);
    // Cut at its last byte, in rows of 8: the glyph fits the one column it has.
    assert_eq!(
        quiet_stdout(["dump", "-w", "8", "-o", "9", "-n", "3", &f]),
        "00000009  ac c0 80                 ₃✗✗       €��\n             I^ C^                 I invalid_byte, C unexpected_continuation; windows-1252: À €\n"
    );
    // An error unit cut by the window shows its mark on its first byte in view, without the
    // head's `^` (it started before).
    assert_eq!(
        quiet_stdout(["dump", "-o", "0x1b", &f]),
        "0000001b  82                                               ✗                 �\n          ~~                                               E truncated_eof\n"
    );
    assert_eq!(
        quiet_stdout(["dump", "-o", "0x1a", &f]),
        "0000001a  e2 82                                            ✗✗                �ˑ\n          E^~~~                                            E truncated_eof; windows-1252: â‚\n"
    );
    assert_eq!(quiet_stdout(["dump", "-n", "0", &f]), "");
}

#[test]
fn widths() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "fx.bin", FIXTURE);
    let w8 = quiet_stdout(["dump", "-w", "8", &f]);
    let w32 = quiet_stdout(["dump", "-w", "32", &f]);
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
    let out = quiet_stdout(["dump", "--ascii", &f]);
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
    let always = quiet_stdout(["dump", "--color", "always", &f]);
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
    assert_eq!(strip_sgr(&always), quiet_stdout(["dump", &f]));
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
            let out = quiet_stdout(&args);
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
    let from_file = quiet_stdout(["dump", "-o", "3", "-n", "50000", &f]);
    for args in [
        &["dump", "-o", "3", "-n", "50000"][..],
        &["dump", "-o", "3", "-n", "50000", "-"],
    ] {
        assert!(stdout_with_stdin(args, bytes.clone(), 0) == from_file);
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
            "hexrune: {f}: offset 28 is the end of the input (28 bytes, the last at offset 27)\n"
        ));
    hexrune()
        .args(["dump", "-o", "99"])
        .write_stdin(b"abc".as_slice())
        .assert()
        .code(2)
        .stderr("hexrune: <stdin>: offset 99 is past the end of the input (3 bytes, the last at offset 2)\n");
    hexrune().args(["dump", "-o", "zz", &f]).assert().code(2);
    hexrune()
        .args(["dump", dir.path().to_str().unwrap()])
        .assert()
        .code(2);
    // An empty input prints nothing.
    let empty = file_with(dir.path(), "empty", b"");
    assert_eq!(quiet_stdout(["dump", &empty]), "");
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "many.bin", &vec![0xFF; 4 << 20]);
    for stdin_too in [false, true] {
        let mut cmd = std::process::Command::new(common::binary());
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
        fallback in prop::sample::select(vec!["none", "windows-1252", "iso-8859-2", "shift_jis"]),
        escape in prop::sample::select(vec![None, Some(Escape::Pep383), Some(Escape::Optu8)]),
    ) {
        let fallback = Fallback::from_label(fallback).unwrap();
        let f = Format { fallback, escape, ..Format::plain(d, width, color, false) };
        let whole = rows_of(&dump(&bytes, 0..bytes.len() as u64, &f));
        let first = a.min(whole.len());
        let last = (first + n).min(whole.len());
        let start = ((first * width) as u64).min(bytes.len() as u64);
        let end = ((last * width) as u64).min(bytes.len() as u64);
        let expected = &whole[first..last];
        let mut streamed = Vec::new();
        dump_stream(&bytes[..], start, Some(end - start), &f, chunk, &mut streamed).unwrap();
        let streamed = String::from_utf8(streamed).unwrap();
        let cut = start < bytes.len() as u64
            && d.unit_containing(&bytes, start as usize).start < start as usize;
        for got in [dump(&bytes, start..end, &f), streamed] {
            let got = rows_of(&got);
            prop_assert_eq!(got.len(), expected.len());
            if !cut || got.is_empty() {
                prop_assert_eq!(&got[..], expected);
                continue;
            }
            // A window that starts inside a unit shows that unit's glyph on its first byte
            // in view, where the whole dump has fillers; the rest is the same.
            prop_assert_eq!(&got[1..], &expected[1..]);
            if !color {
                let text_pane = 10 + 3 * width + 1 + width + 2;
                let before = |row: &str| row.chars().take(text_pane).collect::<String>();
                let marks = |row: &str| row.split_once('\n').map(|(_, m)| m.to_string());
                prop_assert_eq!(before(&got[0]), before(&expected[0]));
                prop_assert_eq!(marks(&got[0]), marks(&expected[0]));
            }
        }
    }
}

/// The fallback reading at the end of a marker line is sanitised (ISO-8859-2 reads 9B as
/// the C1 control CSI), ASCII-only under `--ascii`; `--escape` draws a glyph a byte of an
/// error unit, the same for both schemes, and a byte below 80 (a raw NUL in Modified
/// UTF-8) as the code point it is.
#[test]
fn fallback_readings_and_escaped_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "h.bin", b"caf\xe9 \x9b[2J \xe2\x82");
    let row = "00000000  63 61 66 e9 20 9b 5b 32 4a 20 e2 82              111✗1✗1111✗✗      ";
    let marks = "                   T^    C^             E^~~~              T truncated, C unexpected_continuation, E truncated_eof";
    let latin2 = quiet_stdout(["dump", "--fallback", "iso-8859-2", &f]);
    assert_eq!(
        latin2,
        format!("{row}caf� �[2J �ˑ\n{marks}; ISO-8859-2: é \\u{{9b}} â\\u{{82}}\n")
    );
    assert!(!latin2.contains('\u{9B}'));
    for scheme in ["pep383", "optu8"] {
        assert_eq!(
            quiet_stdout(["dump", "--escape", scheme, &f]),
            format!("{row}cafˣ ˣ[2J ˣˣ\n{marks}; windows-1252: é › â‚\n")
        );
    }
    let ascii_row = row.replace('✗', "x");
    assert_eq!(
        quiet_stdout(["dump", "--escape", "optu8", "--ascii", &f]),
        format!("{ascii_row}caf\\ \\[2J \\\\\n{marks}; windows-1252: \\u{{e9}} \\u{{203a}} \\u{{e2}}\\u{{201a}}\n")
    );
    let g = file_with(dir.path(), "m.bin", b"a\x00b\xff");
    assert_eq!(
        quiet_stdout(["dump", "-d", "mutf8", "--escape", "pep383", "--fallback", "none", &g]),
        "00000000  61 00 62 ff                                      1✗1✗              a␀bˣ\n             I^    I^                                      I invalid_byte\n"
    );
    // With colour, an escaped byte has its own style: red and underlined, not bold.
    let colored = quiet_stdout(["dump", "--escape", "pep383", "--color", "always", &g]);
    assert!(colored.contains("b\x1b[0;4;91mˣ\x1b[0m\n"), "{colored:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The readings at the end of each marker line are those of the error units that start
    /// on its row, found by the view (not by the marks they are read off), in order, with
    /// and without colour, in every dialect and width.
    #[test]
    fn readings_are_those_of_the_rows_error_units(
        bytes in support::unit_soup(300),
        d in prop::sample::select(Dialect::ALL.to_vec()),
        width in prop::sample::select(vec![8usize, 16, 32]),
        color in any::<bool>(),
        label in prop::sample::select(vec!["windows-1252", "iso-8859-2", "shift_jis"]),
    ) {
        let fallback = Fallback::from_label(label).unwrap().unwrap();
        let f = Format { fallback: Some(fallback), ..Format::plain(d, width, color, false) };
        let text = dump(&bytes, 0..bytes.len() as u64, &f);
        let plain = strip_sgr(&text);
        let marker_lines: Vec<&str> = plain.lines().filter(|l| l.starts_with(' ')).collect();
        let rows = hexrune::view::rows(&bytes, d, 0..bytes.len() as u64, width, Default::default());
        let mut expected = Vec::new();
        for row in rows.iter().filter(|r| !r.errors.is_empty()) {
            let readings: Vec<String> = row
                .errors
                .iter()
                .filter(|e| e.head)
                .map(|e| {
                    let cell = &row.cells[e.col];
                    let start = cell.unit_start as usize;
                    fallback.show(&bytes[start..start + cell.unit_len as usize])
                })
                .collect();
            expected.push(if readings.is_empty() {
                String::new()
            } else {
                format!("; {}: {}", fallback.name(), readings.join(" "))
            });
        }
        prop_assert_eq!(marker_lines.len(), expected.len());
        for (line, want) in marker_lines.iter().zip(&expected) {
            let got = line.find(&format!("; {}:", fallback.name())).map_or("", |i| &line[i..]);
            prop_assert_eq!(got, want.as_str());
        }
    }
}

/// `--clusters`: a lane line under each row where a grapheme cluster of several code
/// points lies, bracketing it under the hex and the text panes, as the viewer's `c` lane.
#[test]
fn cluster_lane_lines() {
    let dir = tempfile::tempdir().unwrap();
    let text = b"flag \xf0\x9f\x87\xab\xf0\x9f\x87\xb7 family \xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7 e\xcc\x81 bad e\xff\xcc\x81\n";
    let f = file_with(dir.path(), "clusters.txt", text);
    assert_eq!(
        quiet_stdout(["dump", "--clusters", &f]),
        "\
00000000  66 6c 61 67 20 f0 9f 87 ab f0 9f 87 b7 20 66 61  111114₂₃₄4₂₃₄111  flag 🇫ˑˑˑ🇷ˑˑˑ fa
                         ╰─────────────────────╯                                  ╰──────╯
00000010  6d 69 6c 79 20 f0 9f 91 a8 e2 80 8d f0 9f 91 a9  111114₂₃₄3₂₃4₂₃₄  mily 👨ˑˑᶻˑˑ👩ˑˑ
                         ╰───────────────────────────────                         ╰──────────
00000020  e2 80 8d f0 9f 91 a7 20 65 cc 81 20 62 61 64 20  3₂₃4₂₃₄112₂11111  ᶻˑˑ👧ˑˑ e◌́ˑ bad 
          ───────────────────╯    ╰──────╯                                   ──────╯ ╰─╯
00000030  65 ff cc 81 0a                                   1✗2₂1             e�◌́ˑ␊
             I^                                            I invalid_byte; windows-1252: ÿ
"
    );
    // --ascii draws the brackets in ASCII; a cluster crossing two row ends goes on with -.
    assert_eq!(
        quiet_stdout(["dump", "--clusters", "--ascii", "-w", "8", "-n", "24", &f]),
        "\
00000000  66 6c 61 67 20 f0 9f 87  111114--  flag *..
                         \\-------                 \\--
00000008  ab f0 9f 87 b7 20 66 61  -4---111  .*... fa
          -------------/                     ----/
00000010  6d 69 6c 79 20 f0 9f 91  111114--  mily *..
                         \\-------                 \\--
"
    );
    // Without the option, no lane.
    assert!(!quiet_stdout(["dump", &f]).contains('╰'));
}

/// The lane of a stream equals the file's, with clusters across batches and reads, and a
/// Zalgo run longer than the context marked open (…) the same way.
#[test]
fn cluster_lanes_of_a_stream_equal_the_files() {
    let mut bytes = format!("e{}", "\u{301}".repeat(40)).into_bytes();
    for i in 0..3000u32 {
        bytes.extend_from_slice(
            format!("{i} \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} e\u{301} \u{1F1EB}\u{1F1F7}")
                .as_bytes(),
        );
        if i % 500 == 0 {
            bytes.extend_from_slice(&"\u{301}".repeat(700).into_bytes());
        }
    }
    // An accented letter across the second batch's start (`BATCH_ROWS` rows of 16 bytes), from 41
    // bytes before it.
    let mut bytes = {
        let mut head = vec![b'x'; 2 * BATCH_ROWS * 16 - 41];
        head.extend_from_slice(&bytes);
        head
    };
    bytes.truncate(bytes.len() - 3);
    let f = Format {
        clusters: true,
        ..Format::plain(Dialect::Utf8, 16, false, false)
    };
    let mapped = dump(&bytes, 0..bytes.len() as u64, &f);
    assert!(mapped.contains('…'), "a Zalgo run past the context is open");
    for chunk in [1000, 4096, 65536] {
        let mut streamed = Vec::new();
        dump_stream(&bytes[..], 0, None, &f, chunk, &mut streamed).unwrap();
        assert!(
            String::from_utf8(streamed).unwrap() == mapped,
            "chunk {chunk}"
        );
    }
}

/// A dump that starts or ends inside a cluster that goes on past the context read (a Zalgo
/// run of 20,000 marks) draws `…` on its first and last rows, as the viewer does: from a
/// file and from a stream, at any read size.
#[test]
fn a_cluster_past_the_context_shows_its_dots_on_the_rows_printed() {
    let bytes = format!("xe{} y\n", "\u{301}".repeat(20_000)).into_bytes();
    let f = Format {
        clusters: true,
        ..Format::plain(Dialect::Utf8, 16, false, false)
    };
    let row = "cc 81 cc 81 cc 81 cc 81 cc 81 cc 81 cc 81 cc 81  2₂2₂2₂2₂2₂2₂2₂2₂  ◌́ˑ◌́ˑ◌́ˑ◌́ˑ◌́ˑ◌́ˑ◌́ˑ◌́ˑ";
    let expected = format!(
        "\
00004000  {row}
          …──────────────────────────────────────────────                    …───────────────
00004010  {row}
          ──────────────────────────────────────────────…                    ───────────────…
"
    );
    assert_eq!(dump(&bytes, 0x4000..0x4020, &f), expected);
    for chunk in [1000, 4096, 65536] {
        let out = streamed(&bytes, 0x4000, Some(32), &f, chunk);
        assert_eq!(String::from_utf8(out).unwrap(), expected, "chunk {chunk}");
    }
    // To the end: the cluster's end is known, and drawn.
    let tail = format!(
        "\
00009c30  {row}
          …──────────────────────────────────────────────                    …───────────────
00009c40  cc 81 20 79 0a                                   2₂111             ◌́ˑ y␊
          ────╯                                                              ─╯
"
    );
    assert_eq!(dump(&bytes, 0x9c30..bytes.len() as u64, &f), tail);
    let out = streamed(&bytes, 0x9c30, None, &f, 4096);
    assert_eq!(String::from_utf8(out).unwrap(), tail);
}

fn dump_all(bytes: &[u8], f: &Format) -> Vec<u8> {
    let mut out = Vec::new();
    dump_bytes(bytes, 0..bytes.len() as u64, f, &mut out).unwrap();
    out
}

fn streamed(bytes: &[u8], offset: u64, length: Option<u64>, f: &Format, chunk: usize) -> Vec<u8> {
    let mut out = Vec::new();
    dump_stream(bytes, offset, length, f, chunk, &mut out).unwrap();
    out
}

/// A small deterministic generator (xorshift64).
fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

#[test]
fn rows_markers_and_panes() {
    let f = Format::plain(Dialect::Utf8, 8, false, false);
    let out = String::from_utf8(dump_all(b"a\xe2\x82\xacb\xc0\xe2\x82zz\xe2\x82", &f)).unwrap();
    assert_eq!(
        out,
        "00000000  61 e2 82 ac 62 c0 e2 82  13₂₃1✗✗✗  a€ˑˑb��ˑ\n\
         \x20                        I^ T^~~~  I invalid_byte, T truncated\n\
         00000008  7a 7a e2 82              11✗✗      zz�ˑ\n\
         \x20               E^~~~              E truncated_eof\n"
    );
}

#[test]
fn a_unit_cut_by_a_row_edge_is_drawn_once_and_is_no_error() {
    let f = Format::plain(Dialect::Utf8, 8, false, false);
    let out = String::from_utf8(dump_all("abcdefg€!".as_bytes(), &f)).unwrap();
    assert_eq!(
        out,
        "00000000  61 62 63 64 65 66 67 e2  11111113  abcdefg€\n\
         00000008  82 ac 21                 ₂₃1       ˑˑ!\n"
    );
}

#[test]
fn ascii_stand_ins() {
    let f = Format::plain(Dialect::Utf8, 8, false, true);
    let out = dump_all("a\u{1b}é中\u{202e}\u{301}".as_bytes(), &f);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "00000000  61 1b c3 a9 e4 b8 ad e2  112-3--3  a^*.*..%\n\
         00000008  80 ae cc 81              --2-      ..'.\n"
    );
}

#[test]
fn colour_switches_only_when_the_style_changes() {
    let f = Format::plain(Dialect::Utf8, 8, true, false);
    let out = String::from_utf8(dump_all(b"abcd", &f)).unwrap();
    // One switch to the printable style per pane for the four bytes, then a reset; plain
    // text needs none.
    assert_eq!(
        out,
        "\x1b[0;90m00000000\x1b[0m  \x1b[0;36m61 62 63 64 \x1b[0m             \
         \x1b[0;36m1111\x1b[0m      abcd\n"
    );
}

/// The key property of streaming: however the input is cut into chunks, the output is
/// the whole input's, in every dialect, for any offset and length.
#[test]
fn tiny_chunks_equal_the_whole_input() {
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    let pieces: [&[u8]; 10] = [
        b"a",
        "€".as_bytes(),
        "😀".as_bytes(),
        b"\xed\xa0\xbd\xed\xb8\x80",
        b"\xed\xa0\xbd",
        b"\xc0\x80",
        b"\xf8\x88\x80\x80\x80",
        b"\xe2\x82",
        b"\x80",
        b"\xff",
    ];
    for round in 0..60 {
        let mut bytes = Vec::new();
        while bytes.len() < 90 {
            bytes.extend_from_slice(pieces[(next() % 10) as usize]);
        }
        let dialect = Dialect::ALL[round % 5];
        let f = Format::plain(dialect, [8, 16, 32][round % 3], round % 2 == 0, false);
        let offset = next() % 20;
        let length = (round % 4 == 0).then(|| next() % 70);
        let end = length.map_or(bytes.len() as u64, |l| (offset + l).min(bytes.len() as u64));
        let mut expected = Vec::new();
        dump_bytes(&bytes, offset..end, &f, &mut expected).unwrap();
        for chunk in [1, 2, 3, 5, 7, 64] {
            assert_eq!(
                String::from_utf8_lossy(&streamed(&bytes, offset, length, &f, chunk)),
                String::from_utf8_lossy(&expected),
                "{dialect} chunk {chunk} offset {offset} length {length:?}"
            );
        }
    }
}

/// A reader that makes `len` bytes of text on the fly, so nothing holds the input.
struct Generated {
    left: u64,
}

impl Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        const TEXT: &[u8] = b"Gr\xc3\xbc\xc3\x9fe, \xe4\xb8\x96\xe7\x95\x8c! \xff\n";
        let n = (buf.len() as u64).min(self.left) as usize;
        for (i, b) in buf[..n].iter_mut().enumerate() {
            *b = TEXT[(self.left as usize + i) % TEXT.len()];
        }
        self.left -= n as u64;
        Ok(n)
    }
}

#[test]
fn streaming_memory_does_not_grow_with_the_input() {
    let f = Format::plain(Dialect::Utf8, 16, false, false);
    let len = 8 << 20;
    let stats = dump_stream(
        Generated { left: len },
        0,
        None,
        &f,
        CHUNK,
        &mut std::io::sink(),
    )
    .unwrap();
    assert_eq!(stats.len, len);
    let bound = 2 * CONTEXT + CHUNK + BATCH_ROWS * 16;
    assert!(stats.peak <= bound, "{} > {bound}", stats.peak);
    // Skipping to a far offset holds no more than a chunk.
    let stats = dump_stream(
        Generated { left: len },
        len - 10,
        None,
        &f,
        4096,
        &mut std::io::sink(),
    )
    .unwrap();
    assert!(stats.peak <= 4096 + 2 * CONTEXT + BATCH_ROWS * 16);
    assert_eq!(stats.len, len);
}

/// Under `--clusters`, a row's cluster lane sits right under its bytes, as in the viewer,
/// and its marker line under the lane.
#[test]
fn the_cluster_lane_sits_under_its_row_above_the_markers() {
    let input = "e\u{301} \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}".as_bytes();
    let mut bytes = input.to_vec();
    bytes.extend_from_slice(b"\xf0\x9f\x91");
    let out = stdout_with_stdin(["dump", "--clusters", "--color", "never", "-"], bytes, 0);
    assert_eq!(
        out,
        "00000000  65 cc 81 20 f0 9f 91 a8 e2 80 8d f0 9f 91 a9 e2  12₂14₂₃₄3₂₃4₂₃₄3  e◌́ˑ 👨ˑˑᶻˑˑ👩ˑˑᶻ\n\
         \x20         ╰──────╯    ╰──────────────────────────────────                    ╰─╯ ╰───────────\n\
         00000010  80 8d f0 9f 91 a7 e2 80 8d f0 9f 91              ₂₃4₂₃₄3₂₃✗✗✗      ˑˑ👧ˑˑᶻˑˑ�ˑˑ\n\
         \x20         ─────────────────────────╯                                         ────────╯\n\
         \x20                                    E^~~~~~~              E truncated_eof; windows-1252: ðŸ‘\n"
    );
}

#[test]
fn a_file_truncated_while_dumped_stops_at_the_truncation() {
    // The pages past a truncated file's new end read as zeros (the SIGBUS guard): dump
    // printed them all as rows of `00`, then the error. It stops before the first row of
    // bytes that are no longer the file's, then says why.
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tr.txt");
    std::fs::write(&path, vec![b'A'; 32 << 20]).unwrap();
    let mut child = std::process::Command::new(common::binary())
        .arg("dump")
        .arg(&path)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    // A first row read; the rest waits on the pipe while the file is cut to 16 bytes.
    reader.read_line(&mut line).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(16)
        .unwrap();
    let mut rows = 1u64;
    loop {
        line.clear();
        if reader.read_line(&mut line).unwrap() == 0 {
            break;
        }
        assert!(!line.contains(" 00 00 "), "row {rows}: {line}");
        rows += 1;
    }
    let output = child.wait_with_output().unwrap();
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        format!(
            "hexrune: {}: the file changed while it was being read (it was truncated)\n",
            path.display()
        )
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(rows < (32 << 20) / 16, "{rows} rows");
}

/// From a stream, `--offset` deep inside a run longer than the context held gives the
/// file's brackets: a flag in a run of 3001 regional indicators is paired from the run's
/// first (the stream counts the indicators it lets go; it paired them from the first it
/// held), and a Zalgo run whose context starts inside a character shows its `…` (the cut
/// character's continuation bytes were errors to the stream, a boundary). Random offsets,
/// lengths and read sizes, both runs at both alignments.
#[test]
fn a_stream_deep_inside_a_long_run_draws_the_files_brackets() {
    let f = Format {
        clusters: true,
        ..Format::plain(Dialect::Utf8, 16, false, false)
    };
    let inputs = [
        [
            b"x".as_slice(),
            &"\u{1F1EB}".repeat(3001).into_bytes(),
            b"y",
        ]
        .concat(),
        [
            b"xy".as_slice(),
            &"\u{1F1EB}".repeat(3001).into_bytes(),
            b"\xcc\x81z",
        ]
        .concat(),
        [
            b"abe".as_slice(),
            &"\u{301}".repeat(1500).into_bytes(),
            b"z",
        ]
        .concat(),
        [b"be".as_slice(), &"\u{301}".repeat(1500).into_bytes(), b"z"].concat(),
    ];
    let mut next = xorshift(0x5EED_CAFE);
    let mut differ = Vec::new();
    for (k, bytes) in inputs.iter().enumerate() {
        for _ in 0..400 {
            let offset = next() % bytes.len() as u64;
            let len = 1 + next() % 64;
            let chunk = [1000, 4096, 65536, 1 + (next() % 3000) as usize][(next() % 4) as usize];
            let end = (offset + len).min(bytes.len() as u64);
            let file = dump(bytes, offset..end, &f);
            let stream = String::from_utf8(streamed(bytes, offset, Some(len), &f, chunk)).unwrap();
            if file != stream {
                differ.push(format!("input {k} -o {offset} -n {len} chunk {chunk}"));
            }
        }
    }
    assert_eq!(differ, Vec::<String>::new());
    // The review's case: two flags at 8001, from the file and the stream alike.
    let flags = &inputs[0];
    let expected = dump(flags, 8001..8017, &f);
    assert!(
        expected.contains("╰─────────────────────╯ ╰─────────────────────╯"),
        "{expected}"
    );
    assert_eq!(
        String::from_utf8(streamed(flags, 8001, Some(16), &f, 4096)).unwrap(),
        expected
    );
}

/// Where the rows printed cross 4 GiB, every offset has the digits of the last one, so the
/// panes stay in their columns (the row at 0x100000000 stood one column right of the one
/// before, and its marker line with it); the rows of a window below stay at 8 digits.
#[test]
fn offsets_past_4_gib_keep_the_panes_in_their_columns() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sparse.bin");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len((1 << 32) + 16).unwrap();
    use std::os::unix::fs::FileExt;
    file.write_all_at(b"ab\xff", (1 << 32) + 4).unwrap();
    drop(file);
    let dump = |args: &[&str]| {
        let output = hexrune()
            .args(["dump", "--color", "never"])
            .args(args)
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0));
        String::from_utf8(output.stdout).unwrap()
    };
    let nul16 = "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  1111111111111111  ";
    let nuls = "␀".repeat(16);
    assert_eq!(
        dump(&["--offset", "0xfffffff0"]),
        format!(
            "0fffffff0  {nul16}{nuls}\n\
             100000000  00 00 00 00 61 62 ff 00 00 00 00 00 00 00 00 00  111111✗111111111  ␀␀␀␀ab�{}\n\
             \x20                            I^                             I invalid_byte; windows-1252: ÿ\n",
            "␀".repeat(9)
        )
    );
    assert_eq!(
        dump(&["--offset", "0xffffffe0", "--length", "16"]),
        format!("ffffffe0  {nul16}{nuls}\n")
    );
}

/// `hexrune ARGS` with a pseudo-terminal as its standard output and `TERM` set to `term`
/// (`NO_COLOR` unset): what it printed there, and its exit code.
fn on_a_terminal(args: &[&str], term: &str) -> (Vec<u8>, u32) {
    use portable_pty::{native_pty_system, CommandBuilder, PtySize};
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: 30,
            cols: 100,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("a pseudo-terminal");
    let mut command = CommandBuilder::new(common::binary());
    command.args(args);
    command.env("TERM", term);
    command.env_remove("NO_COLOR");
    let mut child = pty.slave.spawn_command(command).expect("hexrune starts");
    drop(pty.slave);
    let mut reader = pty.master.try_clone_reader().unwrap();
    let reading = std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut buf = [0u8; 8192];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            seen.extend_from_slice(&buf[..n]);
        }
        seen
    });
    let status = child.wait().unwrap();
    drop(pty.master);
    (reading.join().unwrap(), status.exit_code())
}

/// `--color auto` on a terminal colours, but on one whose `TERM` is `dumb`, which shows
/// escape sequences as they are (as the viewer and `check` leave it plain).
#[test]
fn no_colour_on_a_dumb_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "fx.bin", FIXTURE);
    let plain = quiet_stdout(["dump", &f]).replace('\n', "\r\n");
    let (coloured, code) = on_a_terminal(&["dump", &f], "xterm-256color");
    assert_eq!(code, 0);
    assert!(
        coloured.contains(&0x1b),
        "{:?}",
        String::from_utf8_lossy(&coloured)
    );
    for args in [&["dump", &f][..], &["dump", "--color", "auto", &f]] {
        let (out, code) = on_a_terminal(args, "dumb");
        assert_eq!(code, 0);
        assert_eq!(String::from_utf8(out).unwrap(), plain, "{args:?}");
    }
    let (forced, _) = on_a_terminal(&["dump", "--color", "always", &f], "dumb");
    assert!(forced.contains(&0x1b), "--color always beats TERM=dumb");
}
