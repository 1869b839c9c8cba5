//! `hexrune check` and `hexrune at` as a user runs them: exit codes, output, error lines.

use serde_json::Value;

mod common;
use common::{file_with, hexrune, python_bytes, run, stdout_of, stdout_with_stdin, NO_ARGS};

/// The `input` record `check --json` prints first for file `f`: its size, SHA-256 (by
/// Python's hashlib, the oracle) and modification time (by Python's `os.stat`, in UTC).
fn input_record(f: &str) -> String {
    let script = r#"
import sys, os, hashlib, json, datetime
p = sys.argv[1]
st = os.stat(p)
t = datetime.datetime.fromtimestamp(st.st_mtime_ns // 10**9, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
ns = st.st_mtime_ns % 10**9
t += ("." + "%09d" % ns if ns else "") + "Z"
h = hashlib.sha256(open(p, "rb").read()).hexdigest()
print(json.dumps({"type": "input", "path": p, "size": st.st_size, "sha256": h, "mtime": t}, separators=(",", ":"), ensure_ascii=False))
"#;
    let out = python_bytes(script, [f], b"").expect("python3 runs");
    String::from_utf8(out).unwrap().trim_end().to_string()
}

fn json_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8(stdout.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

#[test]
fn valid_file_exits_0_with_a_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "ok.txt", "héllo €😀".as_bytes());
    let text = stdout_of(["check", &f], 0);
    assert_eq!(
        text,
        format!("{f}: valid utf8: 14 bytes, 8 characters\n  units    1-byte 5, 2-byte 1, 3-byte 1, 4-byte 1\n")
    );
}

#[test]
fn invalid_file_exits_1_and_lists_errors() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "bad.txt", b"a/\xC0\xAFb\xE1\x80");
    let text = stdout_of(["check", &f], 1);
    assert_eq!(
        text,
        format!(
            "{f}: invalid utf8: 3 errors in 7 bytes
  verdict  UTF-8 (RFC 3629) with 3 errors
  units    1-byte 3, 2-byte 0, 3-byte 0, 4-byte 0
  errors   invalid_byte 1, unexpected_continuation 1, truncated_eof 1
  offset 2 (0x2)  1:3  c0  invalid_byte: byte that never occurs in this dialect; overlong form of U+002F '/' (c0 af); fallback À (windows-1252)
  offset 3 (0x3)  1:4  af  unexpected_continuation: continuation byte after the broken sequence at 0x2 (lead C0); fallback ¯ (windows-1252)
  offset 5 (0x5)  1:6  e1 80  truncated_eof: sequence cut short by the end of the input; expected 80..BF after e1 80; fallback á€ (windows-1252)
"
        )
    );
}

#[test]
fn json_lines_are_errors_then_a_summary() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(
        dir.path(),
        "bad.txt",
        b"\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64",
    );
    let out = run(["check", "--json", &f], 1).stdout;
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 8);
    // First the evidence: what was read, its size, hash and time.
    assert_eq!(lines[0]["type"], "input");
    assert_eq!(lines[0]["path"], f.as_str());
    assert_eq!(lines[0]["size"], 13);
    assert_eq!(
        lines[0]["sha256"],
        "60cf3daf7a5b18084e7aa4949bde5118d872c5c3fa0d3af9db78966ce684a9bf"
    );
    assert!(lines[0]["mtime"].as_str().unwrap().ends_with('Z'));
    let lines = &lines[1..];
    let errors: Vec<(u64, u64, &str, &str)> = lines[..6]
        .iter()
        .map(|v| {
            assert_eq!(v["type"], "error");
            assert_eq!(v["path"], f.as_str());
            (
                v["offset"].as_u64().unwrap(),
                v["len"].as_u64().unwrap(),
                v["bytes"].as_str().unwrap(),
                v["kind"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        errors,
        [
            (1, 3, "f18080", "truncated"),
            (4, 2, "e180", "truncated"),
            (6, 1, "c2", "truncated"),
            (8, 1, "80", "unexpected_continuation"),
            (10, 1, "80", "unexpected_continuation"),
            (11, 1, "bf", "unexpected_continuation"),
        ]
    );
    assert_eq!(lines[0]["expected"], "80..BF");
    assert!(lines[3].get("expected").is_none());
    let summary = &lines[6];
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["size"], 13);
    assert_eq!(summary["valid"], false);
    assert_eq!(
        summary["units"],
        serde_json::json!({"1": 4, "2": 0, "3": 0, "4": 0})
    );
    assert_eq!(
        summary["errors"],
        serde_json::json!({"truncated": 3, "unexpected_continuation": 3})
    );
    // Last, what made the report: hexrune's version, the dialect, the command line.
    assert_eq!(summary["hexrune_version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(summary["dialect"], "utf8");
    let argv: Vec<&str> = summary["argv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(argv[1..], ["check", "--json", f.as_str()]);
    // At the end of the record, so a reader of the older keys keeps working.
    let last = String::from_utf8(out)
        .unwrap()
        .lines()
        .last()
        .unwrap()
        .to_string();
    let tail = format!(
        r#""findings":{{}},"hexrune_version":"{}","dialect":"utf8","argv":["#,
        env!("CARGO_PKG_VERSION")
    );
    assert!(last.contains(&tail), "{last}");
}

#[test]
fn json_in_dialects_with_long_units() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(
        dir.path(),
        "cesu.txt",
        b"a\xED\xA0\xBD\xED\xB8\x80\xF0\x9F\x98\x80",
    );
    let out = run(["check", "--json", "--dialect", "cesu8", &f], 1).stdout;
    let lines = json_lines(&out);
    assert_eq!(lines[1]["kind"], "invalid_byte");
    assert_eq!(
        lines[1]["diagnosis"],
        "4-byte UTF-8 form of U+1F600 (F0 9F 98 80); this dialect writes it as the surrogate pair ED A0 BD ED B8 80"
    );
    let summary = lines.last().unwrap();
    assert_eq!(
        summary["units"],
        serde_json::json!({"1": 1, "2": 0, "3": 0, "4": 0, "6": 1})
    );
    assert_eq!(
        summary["errors"],
        serde_json::json!({"invalid_byte": 1, "unexpected_continuation": 3})
    );
    let out = run(["check", "--json", "-d", "legacy", &f], 0).stdout;
    let summary = json_lines(&out).pop().unwrap();
    assert_eq!(
        summary["units"],
        serde_json::json!({"1": 1, "2": 0, "3": 2, "4": 1, "5": 0, "6": 0})
    );
}

#[test]
fn stdin_is_read_when_no_file_or_dash() {
    for args in [vec!["check"], vec!["check", "-"]] {
        hexrune()
            .args(&args)
            .write_stdin(b"ok \xE2\x82\xAC".as_slice())
            .assert()
            .code(0)
            .stdout("<stdin>: valid utf8: 6 bytes, 4 characters\n  units    1-byte 3, 2-byte 0, 3-byte 1, 4-byte 0\n");
    }
    hexrune()
        .args(["check", "--json"])
        .write_stdin(b"\xFF".as_slice())
        .assert()
        .code(1)
        .stdout(predicates::str::starts_with(concat!(
            r#"{"type":"input","path":"<stdin>","size":1,"sha256":"a8100ae6aa1940d0b663bb31cd466142ebbdbd5187131b92d93818987832eb89","mtime":null}"#,
            "\n",
            r#"{"type":"error","path":"<stdin>","offset":0,"len":1,"bytes":"ff","kind":"invalid_byte","diagnosis":"lone byte FF: 'ÿ' in Latin-1/Windows-1252?","line":1,"column":1,"fallback":"ÿ"}"#,
        )));
}

#[test]
fn io_errors_exit_2_and_other_files_are_still_checked() {
    let dir = tempfile::tempdir().unwrap();
    let good = file_with(dir.path(), "good.txt", b"fine");
    let missing = dir.path().join("missing.txt");
    let missing = missing.to_str().unwrap();
    let output = run(
        [
            "check",
            missing,
            dir.path().to_str().unwrap(),
            "/dev/zero",
            &good,
        ],
        2,
    );
    let stderr = String::from_utf8(output.stderr.clone()).unwrap();
    assert_eq!(
        stderr,
        format!(
            "hexrune: {missing}: no such file or directory\nhexrune: {}: is a directory\nhexrune: /dev/zero: not a regular file (character device)\n",
            dir.path().display()
        )
    );
    let stdout = String::from_utf8(output.stdout.clone()).unwrap();
    assert!(
        stdout.starts_with(&format!("{good}: valid utf8, ASCII only: 4 bytes")),
        "{stdout}"
    );
}

#[test]
fn empty_file_is_valid() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "empty", b"");
    let out = run(["check", "--json", &f], 0).stdout;
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    assert_eq!(
        lines[0]["sha256"],
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(lines[1]["size"], 0);
    assert_eq!(lines[1]["valid"], true);
    assert_eq!(lines[1]["errors"], serde_json::json!({}));
}

#[test]
fn long_error_lists_are_summarised_unless_all() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "many.bin", &[0xFF; 25]);
    let text = stdout_of(["check", &f], 1);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("  offset")).count(),
        20
    );
    assert!(
        text.ends_with("  ... and 5 more errors (--all lists every one)\n"),
        "{text}"
    );
    let text = stdout_of(["check", "--all", &f], 1);
    let offsets: Vec<&str> = text.lines().filter(|l| l.starts_with("  offset")).collect();
    assert_eq!(offsets.len(), 25);
    assert!(offsets[24].starts_with("  offset 24 (0x18)  1:25  ff  invalid_byte"));
}

#[test]
fn at_prints_the_unit_containing_an_offset() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "t.txt", "a€\u{1F600}".as_bytes());
    let at = |offset: &str| stdout_of(["at", &f, offset], 0);
    assert_eq!(
        at("0"),
        "{\"offset\":0,\"len\":1,\"kind\":\"scalar\",\"cp\":97,\"class\":1,\"name\":\"LATIN SMALL LETTER A\",\"alias\":null,\"category\":\"Ll\",\"width\":1,\"plane\":0,\"block\":\"Basic Latin\"}\n"
    );
    assert_eq!(
        at("3"),
        "{\"offset\":1,\"len\":3,\"kind\":\"scalar\",\"cp\":8364,\"class\":3,\"name\":\"EURO SIGN\",\"alias\":null,\"category\":\"Sc\",\"width\":1,\"plane\":0,\"block\":\"Currency Symbols\"}\n"
    );
    assert_eq!(
        at("0x7"),
        "{\"offset\":4,\"len\":4,\"kind\":\"scalar\",\"cp\":128512,\"class\":4,\"name\":\"GRINNING FACE\",\"alias\":null,\"category\":\"So\",\"width\":2,\"plane\":1,\"block\":\"Emoticons\"}\n"
    );
}

#[test]
fn at_reports_errors_with_expected_and_diagnosis() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "t.bin", b"x\xF4\x90\x80\x80");
    let out = run(["at", &f, "1"], 0).stdout;
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"offset":1,"len":1,"kind":"error","error":"out_of_range","expected":"80..8F","diagnosis":"U+110000, above U+10FFFF: not a Unicode code point","fallback":"ô"})
    );
    let out = run(["at", "-d", "legacy", &f, "3"], 0).stdout;
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"offset":1,"len":4,"kind":"scalar","cp":0x110000,"class":4,"name":"<not-unicode-110000>","alias":null,"category":null,"width":null,"plane":null,"block":null})
    );
}

#[test]
fn at_rejects_offsets_past_the_end_and_bad_offsets() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "t.txt", b"abc");
    hexrune()
        .args(["at", &f, "3"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!(
            "hexrune: {f}: offset 3 is the end of the input (3 bytes, the last at offset 2)\n"
        ));
    hexrune()
        .args(["at", &f, "0xZZ"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("'0xZZ' is not a byte offset"));
    hexrune()
        .args(["at", &f, "99999999999999999999"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains(
            "'99999999999999999999' is too large for a byte offset (the largest is 18446744073709551615)",
        ));
    // A sign is refused by the offset's own message, not taken for an option.
    for args in [
        vec!["at", &f, "-1"],
        vec!["at", &f, "+3"],
        vec!["dump", "--offset", "-1", &f],
    ] {
        let out = hexrune().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        let sign = args[args.len() - 1 - usize::from(args[0] == "dump")];
        assert_eq!(
            stderr.lines().next(),
            Some(
                format!(
                    "error: invalid value '{sign}' for '{}': '{sign}' is not a byte offset (decimal, or hex with 0x, counted from the start: no sign)",
                    if args[0] == "at" { "<OFFSET>" } else { "--offset <N>" }
                )
                .as_str()
            ),
            "{args:?}"
        );
    }
    hexrune()
        .args(["at", "/nonexistent/x", "0"])
        .assert()
        .code(2)
        .stderr("hexrune: /nonexistent/x: no such file or directory\n");
}

#[test]
fn usage_errors_exit_2() {
    hexrune()
        .args(["check", "--dialect", "latin1", "x"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "unknown dialect 'latin1' (expected one of utf8, cesu8, mutf8, wtf8, legacy, utf16le, utf16be, utf32le, utf32be)",
        ));
    hexrune().args(["check", "--bogus"]).assert().code(2);
}

#[test]
fn a_closed_pipe_ends_quietly_and_still_answers() {
    // 200k errors, read by a consumer that takes one line and leaves: no message, and the
    // exit code still says the input is invalid (`set -o pipefail; ... | head -1`).
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "many.bin", &vec![0xFF; 200_000]);
    let good = file_with(dir.path(), "good.txt", b"fine");
    for (args, code) in [
        (vec!["check", "--json", &f], 1),
        (vec!["check", &f, "--all"], 1),
        (vec!["check", "--json", &f, &good], 1),
        (vec!["check", "--csv", "--all", &f], 1),
        (vec!["check", "--csv", &f, &good], 1),
        (vec!["check", "--sarif", &f], 1),
    ] {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("hexrune"))
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert!(line.ends_with('\n'), "{args:?}: {line}");
        drop(reader);
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(code), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&output.stderr), "", "{args:?}");
    }
}

#[test]
fn under_json_an_unreadable_input_is_a_record_too() {
    let dir = tempfile::tempdir().unwrap();
    let good = file_with(dir.path(), "good.txt", b"fine");
    let missing = dir.path().join("missing.txt");
    let missing = missing.to_str().unwrap();
    let output = run(["check", "--json", missing, &good], 2);
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        format!("hexrune: {missing}: no such file or directory\n")
    );
    let lines = json_lines(&output.stdout);
    assert_eq!(lines.len(), 3);
    assert_eq!(
        lines[0],
        serde_json::json!({"type": "io_error", "path": missing, "message": "no such file or directory"})
    );
    assert_eq!(lines[1]["type"], "input");
    assert_eq!(lines[2]["type"], "summary");
    assert_eq!(lines[2]["path"], good.as_str());
}

#[test]
fn the_null_device_is_an_empty_valid_input() {
    let out = run(["check", "--json", "/dev/null"], 0).stdout;
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    // A device has no modification time of its contents to give.
    assert_eq!(
        lines[0],
        serde_json::json!({"type": "input", "path": "/dev/null", "size": 0, "sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "mtime": null})
    );
    assert_eq!(lines[1]["size"], 0);
    assert_eq!(lines[1]["valid"], true);
    hexrune().args(["check", "/dev/null"]).assert().code(0);
}

#[test]
fn names_are_escaped_before_reaching_the_terminal() {
    hexrune()
        .args(["check", "/nonexistent/\u{1b}]0;pwned\u{7}\u{202E}txt"])
        .assert()
        .code(2)
        .stderr(
            "hexrune: /nonexistent/\\u{1b}]0;pwned\\u{7}\\u{202e}txt: no such file or directory\n",
        );
}

/// `"path"` is the name with JSON's own escapes, and a name that is not UTF-8 also has its
/// exact bytes in `"path_bytes"` (standard base64): Python's `json.loads` gets every hostile
/// name back byte for byte.
#[test]
fn json_paths_round_trip_to_the_exact_bytes() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let names: [&[u8]; 5] = [
        b"esc\x1b]0;TITLE\x07.txt",
        b"bel\x07.txt",
        b"new\nline.txt",
        "bidi\u{202E}txt.exe".as_bytes(),
        b"latin1-\xff.txt",
    ];
    let mut paths = Vec::new();
    for name in names {
        let path = dir.path().join(std::ffi::OsStr::from_bytes(name));
        std::fs::write(&path, b"ok\xff").unwrap();
        paths.push(path);
    }
    let mut args = vec![
        std::ffi::OsStr::new("check"),
        std::ffi::OsStr::new("--json"),
    ];
    args.extend(paths.iter().map(|p| p.as_os_str()));
    let out = run(args, 1).stdout;
    // Python decodes each record and prints the bytes of its name in hex, one per line.
    let script = r#"
import sys, json, base64
for line in sys.stdin:
    r = json.loads(line)
    b = base64.b64decode(r["path_bytes"], validate=True) if "path_bytes" in r else r["path"].encode("utf-8")
    print(r["type"], b.hex())
"#;
    let decoded = python_bytes(script, NO_ARGS, &out).expect("python3 runs");
    let hex = |b: &[u8]| b.iter().map(|b| format!("{b:02x}")).collect::<String>();
    let mut expected = String::new();
    for path in &paths {
        let bytes = hex(path.as_os_str().as_bytes());
        expected += &format!("input {bytes}\nerror {bytes}\nsummary {bytes}\n");
    }
    assert_eq!(String::from_utf8(decoded).unwrap(), expected);
    // Only the name that is not UTF-8 carries path_bytes.
    let text = String::from_utf8_lossy(&out);
    assert_eq!(text.matches("\"path_bytes\":").count(), 3, "{text}");
    assert!(!text.contains("\\\\u{"), "{text}");
}

/// The verdict names what it sees: a file cut inside its last character, a few stray
/// windows-1252 bytes in UTF-8 text, and text that is not UTF-8 at all.
#[test]
fn verdicts_name_what_they_see() {
    let verdict = |bytes: &[u8]| {
        let text = stdout_with_stdin(["check", "-"], bytes, 1);
        text.lines()
            .find_map(|l| l.strip_prefix("  verdict  "))
            .unwrap_or_else(|| panic!("{text}"))
            .to_string()
    };
    assert_eq!(
        verdict(b"Gr\xc3\xbc\xc3\x9fe aus K\xc3\xb6ln. \xf0\x9f\x98"),
        "UTF-8 (RFC 3629), cut short at the end"
    );
    assert_eq!(
        verdict(b"Gr\xc3\xbc\xc3\x9fe \x93aus\x94 K\xc3\xb6ln \x96 Stra\xc3\x9fe"),
        "UTF-8 (RFC 3629) with 3 stray bytes (windows-1252?)"
    );
    assert_eq!(
        verdict(b"caf\xe9 cr\xe8me br\xfbl\xe9e \xe0 la fran\xe7aise"),
        "probably not UTF-8 (RFC 3629): 6 errors"
    );
}

/// A lone byte with a neighbour missing is said to be at the input's start or end, not
/// "between ASCII bytes".
#[test]
fn a_lone_byte_at_an_end_of_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let listed = |name: &str, bytes: &[u8]| -> Vec<String> {
        let f = file_with(dir.path(), name, bytes);
        stdout_of(["check", &f], 1)
            .lines()
            .filter(|l| l.starts_with("  offset "))
            .map(String::from)
            .collect()
    };
    assert_eq!(
        listed("end.txt", b"x\xff"),
        ["  offset 1 (0x1)  1:2  ff  invalid_byte: byte that never occurs in this dialect; lone \
          byte FF after an ASCII byte, at the end of the input; fallback \u{ff} (windows-1252)"]
    );
    assert_eq!(
        listed("start.txt", b"\xffx"),
        ["  offset 0 (0x0)  1:1  ff  invalid_byte: byte that never occurs in this dialect; lone \
          byte FF at the start of the input, before an ASCII byte; fallback \u{ff} (windows-1252)"]
    );
    assert_eq!(
        listed("both.txt", b"x\xffy"),
        ["  offset 1 (0x1)  1:2  ff  invalid_byte: byte that never occurs in this dialect; lone \
          byte FF between ASCII bytes; fallback \u{ff} (windows-1252)"]
    );
}

/// Every error and finding gives its line and column (1-based; the column counts units:
/// characters, and each error unit as one), in the text and in JSON, as the last keys.
#[test]
fn errors_and_findings_give_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(
        dir.path(),
        "lines.txt",
        b"ab\n\xef\xbf\xbdc\xff\n\xc3\xa9\xe2\x82x\xc0\n\n\xf0\x9f\x98\x80\xff",
    );
    let text = stdout_of(["check", &f], 1);
    let listed: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("  offset "))
        .collect();
    assert_eq!(
        listed,
        [
            "  offset 3 (0x3)  2:1  ef bf bd  replacement-character: U+FFFD REPLACEMENT CHARACTER already in the input: something lost data before it was written",
            "  offset 7 (0x7)  2:3  ff  invalid_byte: byte that never occurs in this dialect; lone byte FF between ASCII bytes; fallback ÿ (windows-1252)",
            "  offset 11 (0xb)  3:2  e2 82  truncated: sequence cut short by a byte that is not a continuation; expected 80..BF after e2 82; fallback â‚ (windows-1252)",
            "  offset 14 (0xe)  3:4  c0  invalid_byte: byte that never occurs in this dialect; lone byte C0 between ASCII bytes; fallback À (windows-1252)",
            "  offset 21 (0x15)  5:2  ff  invalid_byte: byte that never occurs in this dialect; fallback ÿ (windows-1252)",
        ],
        "{text}"
    );
    let out = run(["check", "--json", &f], 1).stdout;
    let lines: Vec<String> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines[0], input_record(&f));
    assert_eq!(
        lines[1],
        format!(
            r#"{{"type":"finding","path":{f:?},"offset":3,"len":3,"bytes":"efbfbd","kind":"replacement-character","line":2,"column":1,"level":"warning","message":"U+FFFD REPLACEMENT CHARACTER already in the input: something lost data before it was written"}}"#
        )
    );
    assert_eq!(
        lines[3],
        format!(
            r#"{{"type":"error","path":{f:?},"offset":11,"len":2,"bytes":"e282","kind":"truncated","expected":"80..BF","line":3,"column":2,"fallback":"â‚"}}"#
        )
    );
    let positions: Vec<(u64, u64)> = json_lines(lines.join("\n").as_bytes())
        .iter()
        .filter(|v| v["type"] != "summary" && v["type"] != "input")
        .map(|v| (v["line"].as_u64().unwrap(), v["column"].as_u64().unwrap()))
        .collect();
    assert_eq!(positions, [(2, 1), (2, 3), (3, 2), (3, 4), (5, 2)]);
}

/// A U+FFFD in the input is a finding: listed and counted, and the exit code stays 0 for a
/// file that is otherwise valid.
#[test]
fn replacement_characters_are_findings() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "lost.txt", "caf\u{FFFD} \u{FFFD}\n".as_bytes());
    assert_eq!(
        stdout_of(["check", &f], 0),
        format!(
            "{f}: valid utf8: 11 bytes, 7 characters
  units    1-byte 5, 2-byte 0, 3-byte 2, 4-byte 0
  findings replacement-character 2
  offset 3 (0x3)  1:4  ef bf bd  replacement-character: U+FFFD REPLACEMENT CHARACTER already in the input: something lost data before it was written
  offset 7 (0x7)  1:6  ef bf bd  replacement-character: U+FFFD REPLACEMENT CHARACTER already in the input: something lost data before it was written
"
        )
    );
    let out = run(["check", "--json", &f], 0).stdout;
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["type"], "input");
    assert_eq!(lines[1]["type"], "finding");
    assert_eq!(lines[2]["offset"], 7);
    assert_eq!(lines[3]["valid"], true);
    assert_eq!(lines[3]["errors"], serde_json::json!({}));
    assert_eq!(
        lines[3]["findings"],
        serde_json::json!({"replacement-character": 2})
    );
}

/// A U+FFFD in UTF-16, UTF-32 and gb18030 is a finding too, where its bytes start a unit.
#[test]
fn replacement_characters_in_encodings_of_code_units_are_findings() {
    let dir = tempfile::tempdir().unwrap();
    for (label, bytes, want) in [
        ("utf-16le", &b"a\0\xFD\xFFb\0"[..], vec![(2, "fdff")]),
        (
            "utf-16be",
            &b"\0a\xFF\xFD\xFF\xFD"[..],
            vec![(2, "fffd"), (4, "fffd")],
        ),
        (
            "utf-32le",
            &b"a\0\0\0\xFD\xFF\0\0"[..],
            vec![(4, "fdff0000")],
        ),
        ("utf-32be", &b"\0\0\xFF\xFD"[..], vec![(0, "0000fffd")]),
        (
            "gb18030",
            &b"\xD6\xD0\x84\x31\xA4\x37"[..],
            vec![(2, "8431a437")],
        ),
        // GBK is read by gb18030's decoder (WHATWG).
        ("gbk", &b"\x84\x31\xA4\x37\n"[..], vec![(0, "8431a437")]),
        // Where a unit starts: not inside `81 84`, a two-byte character.
        (
            "gb18030",
            &b"\x84\x31\xA4\x37a\x81\x84\x31\xA4\x37\x81\x30"[..],
            vec![(0, "8431a437")],
        ),
        // `FD FF` across two units is no U+FFFD.
        ("utf-16le", &b"a\xFD\xFFb"[..], vec![]),
    ] {
        let f = file_with(dir.path(), "in.txt", bytes);
        let out = run(["check", "-e", label, "--json", &f], 0).stdout;
        let found: Vec<(u64, String)> = json_lines(&out)
            .iter()
            .filter(|r| r["kind"] == "replacement-character")
            .map(|r| {
                (
                    r["offset"].as_u64().unwrap(),
                    r["bytes"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let want: Vec<(u64, String)> = want.iter().map(|(o, b)| (*o, b.to_string())).collect();
        assert_eq!(found, want, "{label}");
    }
}

/// `--fallback`: each error unit read in a legacy encoding, as the last key of its JSON
/// record (JSON escapes only, C1 controls included) and at the end of its human line
/// (sanitised); `--fallback none` gives the records as they were, byte for byte.
#[test]
fn fallback_readings_in_check_and_at() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "log.txt", b"caf\xE9\n\x9B[2J\x81\n");
    let json = |args: &[&str]| {
        let mut all = vec!["check", "--json"];
        all.extend_from_slice(args);
        all.push(&f);
        stdout_of(all, 1)
    };
    let head = |offset: u64, bytes: &str, kind: &str| {
        format!(
            r#"{{"type":"error","path":{f:?},"offset":{offset},"len":1,"bytes":"{bytes}","kind":"{kind}""#
        )
    };
    let default = json(&[]);
    let lines: Vec<&str> = default.lines().skip(1).collect();
    assert_eq!(
        lines[0],
        head(3, "e9", "truncated")
            + r#","expected":"80..BF","diagnosis":"lone byte E9: 'é' in Latin-1/Windows-1252?","line":1,"column":4,"fallback":"é"}"#
    );
    // 9B is '›' in windows-1252; 81 is a hole there, which encoding_rs reads as U+0081.
    assert_eq!(
        lines[1],
        head(5, "9b", "unexpected_continuation")
            + r#","diagnosis":"lone byte 9B: '›' in Latin-1/Windows-1252?","line":2,"column":1,"fallback":"›"}"#
    );
    assert_eq!(
        lines[2],
        head(9, "81", "unexpected_continuation")
            + r#","diagnosis":"lone byte 81 between ASCII bytes","line":2,"column":5,"fallback":"\u0081"}"#
    );
    // ISO-8859-2 reads 9B as the C1 control CSI: escaped by JSON, never raw.
    let latin2 = json(&["--fallback", "ISO-8859-2"]);
    assert!(latin2
        .lines()
        .nth(2)
        .unwrap()
        .ends_with(r#","fallback":"\u009b"}"#));
    assert!(!latin2.contains('\u{9B}'));
    // none: no key, the records as before this option existed.
    let none = json(&["--fallback", "none"]);
    assert_eq!(
        none.lines().nth(1).unwrap(),
        head(3, "e9", "truncated")
            + r#","expected":"80..BF","diagnosis":"lone byte E9: 'é' in Latin-1/Windows-1252?","line":1,"column":4}"#
    );
    assert!(!none.contains("\"fallback\":"));
    // Human output: sanitised, and an undefined byte said as such.
    let human = stdout_of(["check", "--fallback", "iso-8859-2", &f], 1);
    assert!(
        human.contains("; fallback \\u{9b} (ISO-8859-2)\n"),
        "{human}"
    );
    assert!(!human.contains('\u{9B}'));
    let human = stdout_of(["check", &f], 1);
    assert!(
        human.contains("; fallback <81?> (81 undefined in windows-1252)\n"),
        "{human}"
    );
    let human = stdout_of(["check", "--fallback", "cp437", &f], 1);
    assert!(human.contains("; fallback Θ (IBM437)\n"), "{human}");
    // at: the same key at the end of the unit.
    assert_eq!(
        stdout_of(["at", "--fallback", "koi8-r", &f, "3"], 0),
        "{\"offset\":3,\"len\":1,\"kind\":\"error\",\"error\":\"truncated\",\"expected\":\"80..BF\",\"diagnosis\":\"lone byte E9: 'é' in Latin-1/Windows-1252?\",\"fallback\":\"И\"}\n"
    );
    assert_eq!(
        stdout_of(["at", "--fallback", "none", &f, "3"], 0),
        "{\"offset\":3,\"len\":1,\"kind\":\"error\",\"error\":\"truncated\",\"expected\":\"80..BF\",\"diagnosis\":\"lone byte E9: 'é' in Latin-1/Windows-1252?\"}\n"
    );
}

/// A label that names no encoding, or one that cannot be a fallback, is a usage error.
#[test]
fn fallback_labels_that_are_refused() {
    for (label, why) in [
        ("klingon", "unknown encoding 'klingon'"),
        ("utf-8", "UTF-8 cannot be a fallback"),
        ("utf-16le", "UTF-16LE cannot be a fallback"),
    ] {
        hexrune()
            .args(["check", "--fallback", label, "x"])
            .assert()
            .code(2)
            .stderr(predicates::str::contains(why));
    }
}

/// `hexrune check ARGS -` of `bytes` on standard input, as the user reads it, with its
/// exit code.
fn check_stdin(args: &[&str], bytes: &[u8], code: i32) -> String {
    stdout_with_stdin([&["check"], args, &["-"]].concat(), bytes, code)
}

fn utf16(text: &str, le: bool) -> Vec<u8> {
    text.encode_utf16()
        .flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() })
        .collect()
}

/// A byte order mark that names another encoding than the one asked with `-e`: the input
/// is read as asked, and a note says what the mark says and what it was read as.
#[test]
fn a_byte_order_mark_against_the_encoding_asked_is_said() {
    let le = [&b"\xFF\xFE"[..], &utf16("hello\n", true)].concat();
    let be = [&b"\xFE\xFF"[..], &utf16("hello\n", false)].concat();
    assert_eq!(
        check_stdin(&["-e", "utf-16be"], &le, 0),
        "<stdin>: valid utf16be: 14 bytes, 7 characters\n  \
         bom      UTF-16LE byte order mark (FF FE)\n  \
         note     the byte order mark FF FE says UTF-16LE, but UTF-16BE was asked: the input \
         was read as UTF-16BE, FF FE as U+FFFE (a noncharacter); try -e utf-16le\n  \
         units    2-byte 7, 4-byte 0\n"
    );
    assert_eq!(
        check_stdin(&["-e", "utf-16le"], &be, 0),
        "<stdin>: valid utf16le: 14 bytes, 7 characters\n  \
         bom      UTF-16BE byte order mark (FE FF)\n  \
         note     the byte order mark FE FF says UTF-16BE, but UTF-16LE was asked: the input \
         was read as UTF-16LE, FE FF as U+FFFE (a noncharacter); try -e utf-16be\n  \
         units    2-byte 7, 4-byte 0\n"
    );
    // The mark that agrees: no note.
    assert!(!check_stdin(&["-e", "utf-16le"], &le, 0).contains("note"));
    assert!(!check_stdin(&["-e", "utf-16be"], &be, 0).contains("note"));
    // UTF-8's mark is no whole number of UTF-16 code units: it is read with what follows.
    let utf8 = "\u{FEFF}hello\n".as_bytes();
    assert_eq!(
        check_stdin(&["-e", "utf-16le"], utf8, 1),
        "<stdin>: invalid utf16le: 1 error in 9 bytes\n  \
         verdict  UTF-16, little-endian, cut short at the end\n  \
         bom      UTF-8 byte order mark (EF BB BF)\n  \
         note     the byte order mark EF BB BF says UTF-8, but UTF-16LE was asked: the input \
         was read as UTF-16LE, the code units over EF BB BF as U+BBEF and U+68BF; try -e utf-8\n  \
         units    2-byte 4, 4-byte 0\n  \
         errors   truncated_unit 1\n  \
         offset 8 (0x8)  1:5  0a  truncated_unit: code unit cut short by the end of the input; \
         1 byte left after the last 2-byte code unit: the input is cut, or does not start on a \
         code unit\n"
    );
    // UTF-32LE's mark starts with UTF-16LE's: read longest first, it says UTF-32LE.
    let utf32 = b"\xFF\xFE\x00\x00h\x00\x00\x00i\x00\x00\x00";
    let note = |text: String| {
        text.lines()
            .find_map(|l| l.strip_prefix("  note     "))
            .map(str::to_string)
    };
    assert_eq!(
        note(check_stdin(&["-e", "utf-16le"], utf32, 0)).unwrap(),
        "the byte order mark FF FE 00 00 says UTF-32LE, but UTF-16LE was asked: the input was \
         read as UTF-16LE, FF FE 00 00 as U+FEFF and U+0000; try -e utf-32le"
    );
    assert_eq!(note(check_stdin(&["-e", "utf-32le"], utf32, 0)), None);
    // A legacy encoding reads every byte of the mark as a character.
    assert_eq!(
        note(check_stdin(&["-e", "windows-1252"], utf8, 0)).unwrap(),
        "the byte order mark EF BB BF says UTF-8, but windows-1252 was asked: the input was \
         read as windows-1252, EF BB BF as U+00EF, U+00BB and U+00BF; try -e utf-8"
    );
    // In UTF-8 the UTF-16 marks are errors, whose diagnosis says what they are: no note.
    let text = check_stdin(&[], &le, 1);
    assert_eq!(note(text.clone()), None, "{text}");
    assert!(
        text.contains("UTF-16LE byte order mark: the input looks like UTF-16 (ff fe)"),
        "{text}"
    );
    let text = check_stdin(&[], &be, 1);
    assert!(
        text.contains("UTF-16BE byte order mark: the input looks like UTF-16 (fe ff)"),
        "{text}"
    );
}

/// UTF-32's marks are read longest first, as detection reads them: `FF FE 00 00` is
/// UTF-32LE's mark (not UTF-16LE's `FF FE` and a U+0000), and `00 00 FE FF` UTF-32BE's,
/// in the `bom` line whatever `-e` asks, in the diagnosis of the mark's first error in
/// UTF-8, and in `detect`.
#[test]
fn utf32_marks_are_named_longest_first() {
    let le = b"\xFF\xFE\x00\x00a\x00\x00\x00";
    let be = b"\x00\x00\xFE\xFF\x00\x00\x00a";
    // Python's `utf-32` codec, which reads a mark to choose the byte order, takes both for
    // marks: each input is the mark and `a`.
    let script = "import sys; d = sys.stdin.buffer.read(); \
                  print(d[:8].decode('utf-32'), d[8:].decode('utf-32'))";
    if let Some(out) = python_bytes(script, NO_ARGS, &[&le[..], be].concat()) {
        assert_eq!(out, b"a a\n");
    }
    assert_eq!(
        check_stdin(&["-e", "utf-32le"], le, 0),
        "<stdin>: valid utf32le: 8 bytes, 2 characters\n  \
         bom      UTF-32LE byte order mark (FF FE 00 00)\n  \
         units    4-byte 2\n"
    );
    assert_eq!(
        check_stdin(&["-e", "utf-32be"], be, 0),
        "<stdin>: valid utf32be: 8 bytes, 2 characters\n  \
         bom      UTF-32BE byte order mark (00 00 FE FF)\n  \
         units    4-byte 2\n"
    );
    // Read in the other byte order, the mark is still named for what it is, and the note
    // says so.
    let text = check_stdin(&["-e", "utf-32be"], le, 1);
    let lines: Vec<&str> = text.lines().skip(2).take(2).collect();
    assert_eq!(
        lines,
        [
            "  bom      UTF-32LE byte order mark (FF FE 00 00)",
            "  note     the byte order mark FF FE 00 00 says UTF-32LE, but UTF-32BE was asked: \
             the input was read as UTF-32BE, FF FE 00 00 as an error (out_of_range); try -e \
             utf-32le",
        ],
        "{text}"
    );
    let text = check_stdin(&["-e", "utf-16le"], be, 0);
    assert_eq!(
        text,
        "<stdin>: valid utf16le: 8 bytes, 4 characters\n  \
         bom      UTF-32BE byte order mark (00 00 FE FF)\n  \
         note     the byte order mark 00 00 FE FF says UTF-32BE, but UTF-16LE was asked: the \
         input was read as UTF-16LE, 00 00 FE FF as U+0000 and U+FFFE (a noncharacter); try -e \
         utf-32be\n  \
         units    2-byte 4, 4-byte 0\n"
    );
    // Checked as UTF-8, the mark's first invalid byte is diagnosed as the whole mark.
    assert_eq!(
        check_stdin(&[], le, 1),
        "<stdin>: invalid utf8: 2 errors in 8 bytes\n  \
         verdict  probably not UTF-8 (RFC 3629): 2 errors\n  \
         bom      UTF-32LE byte order mark (FF FE 00 00)\n  \
         units    1-byte 6, 2-byte 0, 3-byte 0, 4-byte 0\n  \
         errors   invalid_byte 2\n  \
         offset 0 (0x0)  1:1  ff  invalid_byte: byte that never occurs in this dialect; UTF-32LE \
         byte order mark: the input looks like UTF-32 (ff fe 00 00); fallback ÿ (windows-1252)\n  \
         offset 1 (0x1)  1:2  fe  invalid_byte: byte that never occurs in this dialect; fallback \
         þ (windows-1252)\n"
    );
    assert_eq!(
        check_stdin(&[], be, 1),
        "<stdin>: invalid utf8: 2 errors in 8 bytes\n  \
         verdict  probably not UTF-8 (RFC 3629): 2 errors\n  \
         bom      UTF-32BE byte order mark (00 00 FE FF)\n  \
         units    1-byte 6, 2-byte 0, 3-byte 0, 4-byte 0\n  \
         errors   invalid_byte 2\n  \
         offset 2 (0x2)  1:3  fe  invalid_byte: byte that never occurs in this dialect; end of the \
         UTF-32BE byte order mark 00 00 FE FF: the input looks like UTF-32 (fe ff); fallback þ \
         (windows-1252)\n  \
         offset 3 (0x3)  1:4  ff  invalid_byte: byte that never occurs in this dialect; fallback \
         ÿ (windows-1252)\n"
    );
    // The JSON error record carries the same diagnosis; the records are otherwise as they
    // were.
    let json = check_stdin(&["--json"], le, 1);
    assert_eq!(
        json.lines().nth(1).unwrap(),
        r#"{"type":"error","path":"<stdin>","offset":0,"len":1,"bytes":"ff","kind":"invalid_byte","diagnosis":"UTF-32LE byte order mark: the input looks like UTF-32","line":1,"column":1,"fallback":"ÿ"}"#
    );
    let json = check_stdin(&["--json"], be, 1);
    assert_eq!(
        json.lines().nth(1).unwrap(),
        r#"{"type":"error","path":"<stdin>","offset":2,"len":1,"bytes":"fe","kind":"invalid_byte","diagnosis":"end of the UTF-32BE byte order mark 00 00 FE FF: the input looks like UTF-32","line":1,"column":3,"fallback":"þ"}"#
    );
    // Detection names the same marks.
    assert_eq!(
        stdout_with_stdin(["detect"], le, 0),
        "<stdin>: UTF-32LE, BOM UTF-32LE (FF FE 00 00)\n  why: starts with the UTF-32LE \
         signature FF FE 00 00; 1 code unit decodes as UTF-32LE\n"
    );
    assert_eq!(
        stdout_with_stdin(["detect"], be, 0),
        "<stdin>: UTF-32BE, BOM UTF-32BE (00 00 FE FF)\n  why: starts with the UTF-32BE \
         signature 00 00 FE FF; 1 code unit decodes as UTF-32BE\n"
    );
    // UTF-16LE's mark alone, or cut before UTF-32LE's fourth byte, is still UTF-16LE's.
    for (bytes, code) in [(&b"\xFF\xFEa\x00"[..], 0), (b"\xFF\xFE\x00", 1)] {
        let text = check_stdin(&["-e", "utf-16le"], bytes, code);
        assert!(
            text.contains("\n  bom      UTF-16LE byte order mark (FF FE)\n"),
            "{text}"
        );
    }
}

/// UTF-16 or UTF-32 without a byte order mark, checked as UTF-8: a hint says what
/// detection reads in its zero bytes, and which `-e` reads it.
#[test]
fn wide_text_without_a_mark_gets_a_hint() {
    let hint = "  hint     zero bytes where UTF-16LE puts them: this looks like UTF-16LE; try -e \
                utf-16le\n";
    // ASCII in UTF-16LE is ASCII and NUL bytes to UTF-8: valid, and said so.
    let ascii = utf16("hello world, this is some text\n", true);
    assert_eq!(
        check_stdin(&[], &ascii, 0),
        format!(
            "<stdin>: valid utf8, ASCII only: 62 bytes, 62 characters\n{hint}  \
             units    1-byte 62, 2-byte 0, 3-byte 0, 4-byte 0\n"
        )
    );
    // Latin letters beyond ASCII are stray bytes to UTF-8.
    let latin = utf16("héllo wörld, this is some text\n", true);
    let text = check_stdin(&[], &latin, 1);
    assert!(
        text.starts_with(&format!(
            "<stdin>: invalid utf8: 2 errors in 62 bytes\n  \
             verdict  UTF-8 (RFC 3629) with 2 stray bytes (windows-1252?)\n{hint}  units"
        )),
        "{text}"
    );
    let hint_of = |bytes: &[u8], code: i32| {
        check_stdin(&[], bytes, code)
            .lines()
            .find_map(|l| l.strip_prefix("  hint     "))
            .map(str::to_string)
    };
    assert_eq!(
        hint_of(&utf16("héllo wörld, this is some text\n", false), 1).unwrap(),
        "zero bytes where UTF-16BE puts them: this looks like UTF-16BE; try -e utf-16be"
    );
    let utf32: Vec<u8> = "hello world, this is some text\n"
        .chars()
        .flat_map(|c| (c as u32).to_le_bytes())
        .collect();
    assert_eq!(
        hint_of(&utf32, 0).unwrap(),
        "zero bytes where UTF-32LE puts them: this looks like UTF-32LE; try -e utf-32le"
    );
    // What it suggests reads it.
    assert_eq!(
        check_stdin(&["-e", "utf-16le"], &ascii, 0),
        "<stdin>: valid utf16le: 62 bytes, 31 characters\n  units    2-byte 31, 4-byte 0\n"
    );
    // No hint: text, NUL bytes in no pattern, valid UTF-8 with multi-byte characters, a
    // mark, too few bytes.
    assert_eq!(hint_of(b"hello world, this is some text\n", 0), None);
    assert_eq!(hint_of(b"\0\0\0abcdefghijklmnopqrstuvwxyz\0", 0), None);
    let mut valid = ascii.clone();
    valid.extend("é".as_bytes());
    assert_eq!(hint_of(&valid, 0), None);
    assert_eq!(hint_of(&[&b"\xFF\xFE"[..], &ascii].concat(), 1), None);
    assert_eq!(hint_of(&utf16("hi", true), 0), None);
    // A short input whose zero bytes show no pattern alone (a zero where `😀`'s high byte
    // stands, `3D D8 00 DE`; `Ā` is `00 01`) gets the hint where detection reads it so.
    for (text, le, code) in [
        ("Hello wörld 😀\n", true, 1),
        ("Hello wörld \u{100} \u{2000} x\n", true, 1),
        ("Hello wörld 😀 中文\n", false, 1),
    ] {
        let name = if le { "UTF-16LE" } else { "UTF-16BE" };
        assert_eq!(
            hint_of(&utf16(text, le), code).as_deref(),
            Some(
                format!(
                    "zero bytes where {name} puts them: this looks like {name}; try -e {}",
                    name.to_ascii_lowercase()
                )
                .as_str()
            ),
            "{text}"
        );
    }
}

/// A byte of a file name that is not UTF-8 is shown as `\xff`, never as U+FFFD (which a
/// name may hold itself); the rest of the name goes through the sanitiser.
#[test]
fn names_that_are_not_utf8_show_their_bytes() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    for (name, shown) in [
        (&b"lat\xff.txt"[..], r"lat\xff.txt"),
        ("real\u{FFFD}.txt".as_bytes(), "real\u{FFFD}.txt"),
        (b"esc\x1b\xc3.txt", r"esc\u{1b}\xc3.txt"),
    ] {
        let name = std::ffi::OsStr::from_bytes(name);
        std::fs::write(dir.path().join(name), b"x\xff").unwrap();
        let out = common::hexrune()
            .current_dir(dir.path())
            .arg("check")
            .arg(name)
            .output()
            .unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(
            stdout.starts_with(&format!("{shown}: invalid utf8: 1 error in 2 bytes\n")),
            "{stdout}"
        );
    }
}

/// A file named `<stdin>` is printed `./<stdin>`, so that it cannot be taken for standard
/// input; its JSON record keeps the exact name and has its time, where standard input's
/// has none.
#[test]
fn a_file_named_stdin_is_not_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("<stdin>"), b"ab\xff\n").unwrap();
    let in_dir = |args: &[&str], code: i32| {
        let out = hexrune()
            .current_dir(dir.path())
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "{out:?}");
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (text, _) = in_dir(&["check", "<stdin>"], 1);
    assert!(
        text.starts_with("./<stdin>: invalid utf8: 1 error in 4 bytes\n"),
        "{text}"
    );
    let piped = stdout_with_stdin(["check", "-"], b"ab\xff\n".to_vec(), 1);
    assert!(
        piped.starts_with("<stdin>: invalid utf8: 1 error in 4 bytes\n"),
        "{piped}"
    );
    let (csv, _) = in_dir(&["check", "--csv", "<stdin>"], 1);
    assert_eq!(
        csv.lines().nth(1).unwrap().split(',').next(),
        Some("./<stdin>")
    );
    let (json, _) = in_dir(&["check", "--json", "<stdin>"], 1);
    let records = json_lines(json.as_bytes());
    assert_eq!(records[0]["path"], "<stdin>");
    assert!(records[0]["mtime"].is_string(), "{}", records[0]);
    let piped = stdout_with_stdin(["check", "--json", "-"], b"ab\xff\n".to_vec(), 1);
    let records = json_lines(piped.as_bytes());
    assert_eq!(records[0]["path"], "<stdin>");
    assert!(records[0]["mtime"].is_null(), "{}", records[0]);
    std::fs::remove_file(dir.path().join("<stdin>")).unwrap();
    let (_, err) = in_dir(&["check", "<stdin>"], 2);
    assert_eq!(err, "hexrune: ./<stdin>: no such file or directory\n");
}

#[test]
fn standard_input_redirected_from_a_file_has_no_mtime() {
    // The input record of standard input names no file: its mtime is null, also when the
    // shell redirected a file to it (which is then mapped, and had its time given).
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "in.txt", b"ab\n");
    let out = std::process::Command::new(common::binary())
        .args(["check", "--json"])
        .stdin(std::fs::File::open(&f).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let records = json_lines(&out.stdout);
    assert_eq!(
        records[0],
        serde_json::json!({"type": "input", "path": "<stdin>", "size": 3, "sha256": "a63d8014dba891345b30174df2b2a57efbb65b4f9f09b98f245d1b3192277ece", "mtime": null})
    );
}

/// `hexrune ARGS` under a 2 GiB limit on its address space (so that a read without a
/// bound ends in "out of memory" rather than in the machine's memory), killed after 20 s:
/// the exit code, stdout and stderr, or None if it was still running.
fn limited(args: &[&str]) -> Option<(i32, String, String)> {
    use std::io::Read;
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 2097152 && exec \"$0\" \"$@\"")
        .arg(common::binary())
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(20) {
        if let Some(status) = child.try_wait().unwrap() {
            let (mut out, mut err) = (String::new(), String::new());
            child
                .stdout
                .take()
                .unwrap()
                .read_to_string(&mut out)
                .unwrap();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            return Some((status.code().unwrap_or(-1), out, err));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    None
}

#[test]
fn a_file_of_proc_that_never_ends_is_refused_at_64_mib() {
    // /proc/self/pagemap says it holds 0 bytes and gives 8 for each page of the address
    // space (256 GiB): it was read into memory until memory ran out.
    let pagemap = "/proc/self/pagemap";
    if std::fs::File::open(pagemap).is_err() {
        return; // not Linux, or no procfs here
    }
    let refused = format!(
        "hexrune: {pagemap}: gave more than 64 MiB with no size to go by (a file of /proc or \
         /sys that may never end), the most hexrune reads of such a file\n"
    );
    for args in [
        vec!["check", pagemap],
        vec!["detect", pagemap],
        vec!["dump", pagemap],
        vec!["at", pagemap, "0"],
    ] {
        assert_eq!(
            limited(&args),
            Some((2, String::new(), refused.clone())),
            "{args:?}"
        );
    }
    let record = format!(
        "{{\"type\":\"io_error\",\"path\":\"{pagemap}\",\"message\":\"{}\"}}\n",
        refused.trim_end().rsplit(": ").next().unwrap()
    );
    assert_eq!(
        limited(&["check", "--json", pagemap]),
        Some((2, record, refused.clone()))
    );
    // Under a tree too, where the file is one of many.
    let (code, _, err) = limited(&["check", "-r", "/proc/self/pagemap"]).unwrap();
    assert_eq!((code, err), (2, refused));
    // A small file of /proc, which also says it holds 0 bytes, is read whole.
    assert_eq!(
        limited(&["check", "/proc/sys/kernel/ostype"]),
        Some((
            0,
            "/proc/sys/kernel/ostype: valid utf8, ASCII only: 6 bytes, 6 characters\n  \
             units    1-byte 6, 2-byte 0, 3-byte 0, 4-byte 0\n"
                .to_string(),
            String::new()
        ))
    );
}

/// In an encoding, an error's sentence says "encoding", and a bad trail names the byte
/// that cannot follow and the one before it (the second byte of a pair; a later one after
/// EUC-JP's `8F` and in a gb18030 four-byte form).
#[test]
fn a_bad_trail_names_its_bytes_and_an_encoding_is_no_dialect() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "t.bin", b"ab\x82\n\xa0\x8f\xa1x\n");
    let g = file_with(dir.path(), "g.bin", b"\x81\x30\x20\x30");
    let errors = |encoding: &str, f: &str| -> Vec<String> {
        stdout_of(["check", "-e", encoding, f], 1)
            .lines()
            .filter(|l| l.starts_with("  offset "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        errors("shift_jis", &f),
        [
            "  offset 2 (0x2)  1:3  82  bad_trail: lead byte followed by a byte that cannot follow it: 0A cannot follow 82",
            "  offset 4 (0x4)  2:1  a0  invalid_byte: byte that never occurs in this encoding",
        ]
    );
    assert_eq!(
        errors("euc-jp", &f)[2],
        "  offset 5 (0x5)  2:2  8f a1  bad_trail: lead byte followed by a byte that cannot follow it: 78 cannot follow A1"
    );
    assert_eq!(
        errors("gb18030", &g),
        ["  offset 0 (0x0)  1:1  81  bad_trail: lead byte followed by a byte that cannot follow it: 20 cannot follow 30"]
    );
}

/// A file that is probably not UTF-8 gets a hint with what detection finds and the two
/// commands that read it so, judged where its first byte that is not ASCII is (after 100
/// KB of ASCII here); UTF-8 with a few stray bytes, and a guess on a few bytes, get none.
#[test]
fn probably_not_utf8_hints_at_the_encoding_detect_finds() {
    let dir = tempfile::tempdir().unwrap();
    let text = "Вчера мы гуляли по парку и видели много людей.\n".repeat(3);
    let (cp1251, _, _) = encoding_rs::WINDOWS_1251.encode(&text);
    let late = [b"id,name\n".repeat(12_500).as_slice(), &cp1251].concat();
    for (name, bytes) in [("ru.txt", cp1251.to_vec()), ("late.csv", late)] {
        let f = file_with(dir.path(), name, &bytes);
        let out = stdout_of(["check", &f], 1);
        let lines: Vec<&str> = out.lines().skip(1).take(2).collect();
        assert_eq!(
            lines[1],
            "  hint     detect finds windows-1251: read it with -e windows-1251, convert it \
             with hexrune repair --from windows-1251 FILE -o OUT",
            "{out}"
        );
    }
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("今日はとても良い天気ですね。\n");
    let f = file_with(dir.path(), "ja.txt", &sjis);
    let out = stdout_of(["check", &f], 1);
    assert!(
        out.contains("\n  hint     detect finds Shift_JIS: read it with -e shift_jis, convert it with hexrune repair --from shift_jis FILE -o OUT\n"),
        "{out}"
    );
    // An early character of UTF-8 (`Café`) does not move the window off the rows that are
    // not UTF-8.
    let early = [
        "0;Café Zoë;Paris\n".as_bytes(),
        &b"id,name\n".repeat(12_500),
        &cp1251,
    ]
    .concat();
    let f = file_with(dir.path(), "early.csv", &early);
    let out = stdout_of(["check", &f], 1);
    assert!(
        out.contains("\n  hint     detect finds windows-1251: "),
        "{out}"
    );
    // After a UTF-8 BOM, which -e and --from give way to: --from auto.
    let bom = [b"\xEF\xBB\xBFid;name\n".as_slice(), &cp1251].concat();
    let f = file_with(dir.path(), "bom.csv", &bom);
    let out = stdout_of(["check", &f], 1);
    assert!(
        out.contains("\n  hint     detect finds windows-1251 after its UTF-8 BOM, which -e and --from give way to: convert it with hexrune repair --from auto FILE -o OUT\n"),
        "{out}"
    );
    // UTF-8 with one stray byte, and a short guess: no such hint.
    for bytes in [
        [
            "Grüße aus Zürich, schöne Grüße, ça va très bien ".as_bytes(),
            b"\xE9\n",
        ]
        .concat(),
        b"caf\xE9\n".to_vec(),
    ] {
        let f = file_with(dir.path(), "few.txt", &bytes);
        let out = stdout_of(["check", &f], 1);
        assert!(!out.contains("detect finds"), "{out}");
    }
}
