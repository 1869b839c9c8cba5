//! `check`'s evidence and its machine-readable formats as a user runs them: the `input`
//! record (size, SHA-256 against Python's hashlib, mtime) and where it comes; `--csv` read
//! back by Python's csv module; `--sarif` validated against the official SARIF 2.1.0 schema
//! (vendored, `tests/data/sarif/`), and each format carrying the same findings as JSON.

use std::path::Path;

use serde_json::Value;

mod common;
use common::{
    file_with, output, output_with_stdin, python_bytes, stdout_of, stdout_with_stdin, NO_ARGS,
};

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// Python's answer to a script given `args`, one line.
fn python(script: &str, args: &[&str]) -> String {
    String::from_utf8(python_bytes(script, args, b"").expect("python3 runs")).unwrap()
}

fn sha256_by_python(path: &str) -> String {
    python(
        "import sys, hashlib; print(hashlib.sha256(open(sys.argv[1], 'rb').read()).hexdigest())",
        &[path],
    )
    .trim()
    .to_string()
}

/// Text with a pseudo-random byte (xorshift) every 997 bytes, so inputs of each size differ
/// and hold a few errors.
fn mixed_bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if i % 997 == 0 {
                x as u8
            } else {
                b'a' + (x % 26) as u8
            }
        })
        .collect()
}

/// The hash is of the bytes the scan read, in the same pass: it equals hashlib's for inputs
/// scanned on one thread (up to 1 MiB), in parallel (above), across the 1 MiB pieces the
/// hash is fed in, and from standard input.
#[test]
fn input_records_carry_the_hash_of_what_was_read() {
    let dir = tempfile::tempdir().unwrap();
    let sizes = [0, 1, 1 << 20, (1 << 20) + 1, (3 << 20) + 17];
    for (i, size) in sizes.into_iter().enumerate() {
        let f = file_with(
            dir.path(),
            &format!("f{i}"),
            &mixed_bytes(size, i as u64 + 7),
        );
        let out = output(["check", "--json", &f]);
        let out = String::from_utf8(out.stdout).unwrap();
        let first = json_lines(out.lines().next().unwrap()).remove(0);
        assert_eq!(first["type"], "input");
        assert_eq!(first["size"], size);
        assert_eq!(first["sha256"], sha256_by_python(&f), "size {size}");
        // stdin: the same hash, no name or time.
        let piped = output_with_stdin(["check", "--json"], std::fs::read(&f).unwrap());
        let text = String::from_utf8(piped.stdout).unwrap();
        let first = json_lines(text.lines().next().unwrap()).remove(0);
        assert_eq!(first["sha256"], sha256_by_python(&f), "stdin, size {size}");
        assert_eq!(first["mtime"], Value::Null);
        assert_eq!(first["path"], "<stdin>");
    }
}

/// Each input's records come together, the input record first (it is printed once the scan
/// and its hash are done), the summary last; inputs in the order given.
#[test]
fn each_input_is_input_then_findings_then_summary() {
    let dir = tempfile::tempdir().unwrap();
    let a = file_with(dir.path(), "a.txt", b"\xff ok \xef\xbf\xbd");
    let b = file_with(dir.path(), "b.txt", b"fine");
    let c = file_with(dir.path(), "c.txt", b"\xc0\xaf");
    let out = stdout_of(["check", "--json", &c, &a, &b], 1);
    let shape: Vec<(String, String)> = json_lines(&out)
        .iter()
        .map(|r| {
            let path = r["path"].as_str().unwrap();
            let name = Path::new(path).file_name().unwrap().to_str().unwrap();
            (r["type"].as_str().unwrap().to_string(), name.to_string())
        })
        .collect();
    let expected: Vec<(String, String)> = [
        ("input", "c.txt"),
        ("error", "c.txt"),
        ("error", "c.txt"),
        ("summary", "c.txt"),
        ("input", "a.txt"),
        ("error", "a.txt"),
        ("finding", "a.txt"),
        ("summary", "a.txt"),
        ("input", "b.txt"),
        ("summary", "b.txt"),
    ]
    .iter()
    .map(|(t, n)| (t.to_string(), n.to_string()))
    .collect();
    assert_eq!(shape, expected);
}

/// The mtime is the file's, in RFC 3339 UTC, to the nanosecond where it has any (Python's
/// `os.stat` the oracle), and a time before 1970 is written too.
#[test]
fn mtimes_are_rfc3339_utc() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "t.txt", b"x");
    let times = [
        (951_868_799, 0, "2000-02-29T23:59:59Z"),
        (1_700_000_000, 123_456_789, "2023-11-14T22:13:20.123456789Z"),
        (0, 0, "1970-01-01T00:00:00Z"),
    ];
    for (secs, nanos, text) in times {
        let time = std::time::UNIX_EPOCH + std::time::Duration::new(secs, nanos);
        let file = std::fs::File::options().write(true).open(&f).unwrap();
        file.set_modified(time).unwrap();
        drop(file);
        let out = stdout_of(["check", "--json", &f], 0);
        assert_eq!(json_lines(&out)[0]["mtime"], text);
    }
    let before = std::time::UNIX_EPOCH - std::time::Duration::from_secs(86_400 + 1);
    let file = std::fs::File::options().write(true).open(&f).unwrap();
    if file.set_modified(before).is_ok() {
        drop(file);
        let out = stdout_of(["check", "--json", &f], 0);
        assert_eq!(json_lines(&out)[0]["mtime"], "1969-12-30T23:59:59Z");
    }
}

/// The file every format is tried on: an overlong `/`, a stray continuation, a U+FFFD, a
/// Latin-1 `é` and a `€` cut by the end.
const SAMPLE: &[u8] = b"a/\xc0\xafb\n\xef\xbf\xbd caf\xe9,\"x\"\n\xe2\x82";

/// `--csv`: the header, then one row per finding with the JSON records' facts; Python's csv
/// module reads it back.
#[test]
fn csv_rows_are_the_json_findings() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "s,\"q\".txt", SAMPLE);
    let csv = stdout_of(["check", "--csv", &f], 1);
    assert_eq!(
        csv.lines().next().unwrap(),
        "path,offset,len,line,column,kind,level,bytes,message,fallback"
    );
    let parsed = python_bytes(
        "import sys, csv, json\nfor row in csv.reader(sys.stdin): print(json.dumps(row))",
        NO_ARGS,
        csv.as_bytes(),
    )
    .unwrap();
    let rows: Vec<Vec<String>> = String::from_utf8(parsed)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let records: Vec<Value> = json_lines(&stdout_of(["check", "--json", &f], 1))
        .into_iter()
        .filter(|r| r["type"] == "error" || r["type"] == "finding")
        .collect();
    assert_eq!(rows.len(), records.len() + 1);
    for (row, record) in rows[1..].iter().zip(&records) {
        assert_eq!(row[0], f);
        assert_eq!(row[1], record["offset"].to_string());
        assert_eq!(row[2], record["len"].to_string());
        assert_eq!(row[3], record["line"].to_string());
        assert_eq!(row[4], record["column"].to_string());
        assert_eq!(row[5], record["kind"].as_str().unwrap());
        let level = if record["type"] == "error" {
            "error"
        } else {
            "warning"
        };
        assert_eq!(row[6], level);
        assert_eq!(row[7], record["bytes"].as_str().unwrap());
        // The exact text where it is printable (see csv_fallback_cells_are_the_human_lines).
        assert_eq!(row[9], record["fallback"].as_str().unwrap_or(""));
    }
    assert_eq!(
        rows[1],
        [
            f.as_str(),
            "2",
            "1",
            "1",
            "3",
            "invalid_byte",
            "error",
            "c0",
            "byte that never occurs in this dialect; overlong form of U+002F '/' (c0 af)",
            "À"
        ]
    );
    assert_eq!(
        rows[3][5..8],
        ["replacement-character", "warning", "efbfbd"]
    );
    assert_eq!(rows[3][9], "");
    // A valid file gives the header alone, and exit 0.
    let ok = file_with(dir.path(), "ok.txt", b"ok");
    assert_eq!(
        stdout_of(["check", "--csv", &ok], 0),
        "path,offset,len,line,column,kind,level,bytes,message,fallback\n"
    );
}

/// A CSV cell is text for a terminal too: a control in a name or a fallback reading is
/// written as the sanitiser's escape, never raw.
#[test]
fn csv_cells_are_sanitised() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "esc\x1b[2J.txt", b"\x9b");
    let csv = stdout_of(["check", "--csv", "--fallback", "iso-8859-2", &f], 1);
    assert!(
        !csv.contains('\u{1b}') && !csv.contains('\u{9b}'),
        "{csv:?}"
    );
    assert!(csv.contains("esc\\u{1b}[2J.txt"), "{csv}");
    assert!(csv.trim_end().ends_with(",\\u{9b}"), "{csv}");
}

/// A CSV `fallback` cell reads as the human line's `fallback ...`: an undefined byte as
/// `<81?>` and a no-break space as `\u{a0}`, where JSON keeps the decoder's exact text.
#[test]
fn csv_fallback_cells_are_the_human_lines() {
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "fb.txt", b"a\xa0b\x81c\xadd\xe9\n");
    let csv = stdout_of(["check", "--csv", &f], 1);
    let cells: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap())
        .collect();
    assert_eq!(cells, [r"\u{a0}", "<81?>", r"\u{ad}", "é"]);
    let human = stdout_of(["check", &f], 1);
    for cell in &cells {
        assert!(
            human.contains(&format!("; fallback {cell} ")),
            "{cell}\n{human}"
        );
    }
    let json: Vec<String> = json_lines(&stdout_of(["check", "--json", &f], 1))
        .iter()
        .filter(|r| r["type"] == "error")
        .map(|r| r["fallback"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(json, ["\u{a0}", "\u{81}", "\u{ad}", "é"]);
}

/// A name a spreadsheet would take for a formula, or that begins with `'`, gets a `'`
/// before it in its cell.
#[test]
fn csv_cells_are_never_formulas() {
    let dir = tempfile::tempdir().unwrap();
    for (name, cell) in [
        ("=2+5+cmd|x.txt", "'=2+5+cmd|x.txt"),
        ("@SUM(1).txt", "'@SUM(1).txt"),
        ("-x.txt", "'-x.txt"),
        ("+x.txt", "'+x.txt"),
        ("a=b.txt", "a=b.txt"),
        // A name that begins with `'` gets one more: one stripped gives every name back.
        ("'=x.txt", "''=x.txt"),
        ("'plain.txt", "''plain.txt"),
    ] {
        std::fs::write(dir.path().join(name), b"x\xff\n").unwrap();
        let out = common::hexrune()
            .current_dir(dir.path())
            .args(["check", "--csv", "--", name])
            .output()
            .unwrap();
        let csv = String::from_utf8(out.stdout).unwrap();
        let row = csv.lines().nth(1).unwrap_or_default();
        assert!(row.starts_with(&format!("{cell},1,1,1,2,")), "{csv}");
    }
}

fn sarif_validator() -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sarif/sarif-schema-2.1.0.json"),
        )
        .unwrap(),
    )
    .unwrap();
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the schema compiles")
}

fn assert_valid_sarif(validator: &jsonschema::Validator, log: &Value) {
    let errors: Vec<String> = validator
        .iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{log:#}");
}

/// `--sarif` validates against the SARIF 2.1.0 schema, and says what JSON says: one result
/// per finding with its byte offset and length, line and column, rule and level; each input
/// an artifact with its SHA-256 (hashlib's), size and time; an unreadable input a
/// notification, and the run then not successful.
#[test]
fn sarif_is_valid_and_carries_every_finding() {
    let validator = sarif_validator();
    // The validator can fail: a log without its version is refused.
    let broken = serde_json::json!({"runs": []});
    assert!(!validator.is_valid(&broken));

    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "sample.txt", SAMPLE);
    let ok = file_with(dir.path(), "ok.txt", b"fine");
    let odd = {
        use std::os::unix::ffi::OsStrExt;
        let path = dir
            .path()
            .join(std::ffi::OsStr::from_bytes(b"odd \xff.txt"));
        std::fs::write(&path, b"\xfe").unwrap();
        path
    };
    let missing = dir.path().join("missing.txt");
    let out = common::hexrune()
        .arg("check")
        .arg("--sarif")
        .args([&f, &ok])
        .arg(&odd)
        .arg(&missing)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid_sarif(&validator, &log);
    assert_eq!(log["version"], "2.1.0");
    let run_ = &log["runs"][0];
    assert_eq!(run_["tool"]["driver"]["name"], "hexrune");
    assert_eq!(run_["tool"]["driver"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(run_["columnKind"], "unicodeCodePoints");

    let records: Vec<Value> = json_lines(&stdout_of(["check", "--json", &f], 1))
        .into_iter()
        .filter(|r| r["type"] == "error" || r["type"] == "finding")
        .collect();
    let results = run_["results"].as_array().unwrap();
    // The sample's findings, then the odd file's one error.
    assert_eq!(results.len(), records.len() + 1);
    let rules = run_["tool"]["driver"]["rules"].as_array().unwrap();
    for (result, record) in results.iter().zip(&records) {
        let location = &result["locations"][0]["physicalLocation"];
        let region = &location["region"];
        assert_eq!(region["byteOffset"], record["offset"]);
        assert_eq!(region["byteLength"], record["len"]);
        assert_eq!(region["startLine"], record["line"]);
        assert_eq!(region["startColumn"], record["column"]);
        assert_eq!(result["ruleId"], record["kind"]);
        let rule = &rules[result["ruleIndex"].as_u64().unwrap() as usize];
        assert_eq!(rule["id"], record["kind"]);
        assert!(!rule["shortDescription"]["text"]
            .as_str()
            .unwrap()
            .is_empty());
        assert_eq!(location["artifactLocation"]["index"], 0);
        assert_eq!(location["artifactLocation"]["uri"], format!("file://{f}"));
        assert_eq!(result["properties"]["bytes"], record["bytes"]);
    }
    assert_eq!(results[0]["level"], "error");
    assert_eq!(results[0]["ruleId"], "invalid_byte");
    assert_eq!(
        results[0]["message"]["text"],
        "byte that never occurs in this dialect; overlong form of U+002F '/' (c0 af)"
    );
    assert_eq!(results[2]["ruleId"], "replacement-character");
    assert_eq!(results[2]["level"], "warning");
    // The rules: one per kind, in order of first appearance.
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "invalid_byte",
            "unexpected_continuation",
            "replacement-character",
            "truncated",
            "truncated_eof"
        ]
    );

    let artifacts = run_["artifacts"].as_array().unwrap();
    assert_eq!(artifacts.len(), 3);
    assert_eq!(artifacts[0]["hashes"]["sha-256"], sha256_by_python(&f));
    assert_eq!(artifacts[0]["length"], SAMPLE.len());
    assert_eq!(artifacts[1]["hashes"]["sha-256"], sha256_by_python(&ok));
    assert!(artifacts[1]["lastModifiedTimeUtc"]
        .as_str()
        .unwrap()
        .ends_with('Z'));
    // A name that is not UTF-8 is exact in its URI.
    let odd_uri = artifacts[2]["location"]["uri"].as_str().unwrap();
    assert!(odd_uri.ends_with("/odd%20%FF.txt"), "{odd_uri}");
    assert_eq!(
        results.last().unwrap()["locations"][0]["physicalLocation"]["artifactLocation"]["index"],
        2
    );

    let invocation = &run_["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    let notes = invocation["toolExecutionNotifications"].as_array().unwrap();
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0]["level"], "error");
    assert_eq!(
        notes[0]["message"]["text"],
        format!("{}: no such file or directory", missing.display())
    );
    assert_eq!(invocation["arguments"][0], "check");
    assert_eq!(invocation["arguments"][1], "--sarif");
}

/// A run with nothing to report is a valid log too, with its artifact and a successful
/// invocation; standard input is an artifact with no URI.
#[test]
fn sarif_without_findings_and_from_stdin() {
    let validator = sarif_validator();
    let out = stdout_with_stdin(["check", "--sarif"], "all fine €", 0);
    let log: Value = serde_json::from_str(&out).unwrap();
    assert_valid_sarif(&validator, &log);
    let run_ = &log["runs"][0];
    assert_eq!(run_["results"], serde_json::json!([]));
    assert_eq!(run_["tool"]["driver"]["rules"], serde_json::json!([]));
    assert_eq!(
        run_["artifacts"][0]["location"],
        serde_json::json!({"index": 0, "description": {"text": "standard input"}})
    );
    assert_eq!(run_["invocations"][0]["executionSuccessful"], true);
}

/// Other dialects and encodings: the same log shape, valid against the schema, with the
/// encoding named on the artifact.
#[test]
fn sarif_in_other_encodings() {
    let validator = sarif_validator();
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "w.txt", b"a\x00\x00\xd8\x00\x00");
    let out = stdout_of(["check", "--sarif", "-e", "utf-16le", &f], 1);
    let log: Value = serde_json::from_str(&out).unwrap();
    assert_valid_sarif(&validator, &log);
    assert_eq!(log["runs"][0]["artifacts"][0]["encoding"], "UTF-16LE");
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert!(!results.is_empty());
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["region"]["byteOffset"],
        2
    );
}

/// One format at a time: two of `--json`, `--csv` and `--sarif` are a usage error.
#[test]
fn formats_exclude_each_other() {
    for pair in [
        ["--json", "--csv"],
        ["--csv", "--sarif"],
        ["--json", "--sarif"],
    ] {
        let out = output([&["check"], &pair[..], &["/dev/null"]].concat());
        assert_eq!(out.status.code(), Some(2), "{pair:?}");
        assert!(out.stdout.is_empty());
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains("cannot be used with"), "{stderr}");
    }
}

/// A file named twice is one artifact, its results once (code scanning refuses duplicate
/// artifacts); another file keeps its own.
#[test]
fn a_file_named_twice_is_one_artifact() {
    let validator = sarif_validator();
    let dir = tempfile::tempdir().unwrap();
    let f = file_with(dir.path(), "case.txt", b"a\xff b\xfe\n");
    let g = file_with(dir.path(), "other.txt", b"\xc0\xaf\n");
    let out = stdout_of(["check", "--sarif", &f, &f, &g, &f], 1);
    let log: Value = serde_json::from_str(&out).unwrap();
    assert_valid_sarif(&validator, &log);
    let run_ = &log["runs"][0];
    let uris: Vec<&str> = run_["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["location"]["uri"].as_str().unwrap())
        .collect();
    assert_eq!(uris.len(), 2, "{uris:?}");
    assert!(uris[0].ends_with("/case.txt") && uris[1].ends_with("/other.txt"));
    let indexes: Vec<u64> = run_["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["index"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(indexes, [0, 0, 1, 1]);
}

/// SARIF's `commandLine` reads back, in a POSIX shell, as the bytes the process was given:
/// a word that is not UTF-8 is in dollar-single quotes, each invalid byte `\xHH`.
#[test]
fn the_command_line_reads_back_as_the_same_bytes() {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let dir = tempfile::tempdir().unwrap();
    let name = std::ffi::OsStr::from_bytes(b"lat\xff\xfe.txt");
    std::fs::write(dir.path().join(name), b"ok\n").unwrap();
    let out = common::hexrune()
        .current_dir(dir.path())
        .args(["check", "--sarif", "--"])
        .arg(name)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    let invocation = &log["runs"][0]["invocations"][0];
    let line = invocation["commandLine"].as_str().unwrap();
    let (program, rest) = line.split_once(' ').unwrap();
    assert!(program.ends_with("hexrune"), "{program}");
    assert_eq!(rest, r"check --sarif -- $'lat\xff\xfe.txt'");
    // `arguments` stays text, with U+FFFD, as documented.
    assert_eq!(invocation["arguments"][3], "lat\u{FFFD}\u{FFFD}.txt");
    // bash reads the words back as the bytes given.
    let Ok(back) = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!(r#"for w in {rest}; do printf '%s\0' "$w"; done"#))
        .output()
    else {
        eprintln!("no bash: read-back not checked");
        return;
    };
    let words: Vec<Vec<u8>> = back
        .stdout
        .split(|b| *b == 0)
        .filter(|w| !w.is_empty())
        .map(<[u8]>::to_vec)
        .collect();
    let given: Vec<Vec<u8>> = ["check", "--sarif", "--"]
        .map(|w| w.as_bytes().to_vec())
        .into_iter()
        .chain([name.to_os_string().into_vec()])
        .collect();
    assert_eq!(words, given);
}

/// A word that starts with `=` is quoted in `commandLine`: zsh reads `=x.txt` as the path
/// of a command named `x.txt`.
#[test]
fn the_command_line_reads_back_in_zsh() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("=x.txt"), b"ok\n").unwrap();
    let out = common::hexrune()
        .current_dir(dir.path())
        .args(["check", "--sarif", "=x.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    let line = log["runs"][0]["invocations"][0]["commandLine"]
        .as_str()
        .unwrap()
        .to_string();
    let (_, rest) = line.split_once(' ').unwrap();
    assert_eq!(rest, "check --sarif '=x.txt'");
    let Ok(back) = std::process::Command::new("zsh")
        .arg("-c")
        .arg(format!(r#"for w in {rest}; do printf '%s\0' "$w"; done"#))
        .output()
    else {
        eprintln!("no zsh: read-back not checked");
        return;
    };
    assert_eq!(back.stdout, b"check\0--sarif\0=x.txt\0");
}

/// Every error unit is a record and a result, with no cap, as check.md and sarif.md say
/// (with what to do about code scanning's limit of 25,000 results).
#[test]
fn every_error_is_written_and_the_pages_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ff.bin");
    std::fs::write(&path, vec![0xFF; 30_000]).unwrap();
    let out = common::hexrune()
        .args(["check", "--json"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.stdout.split(|b| *b == b'\n').count() - 1, 30_002);
    let out = common::hexrune()
        .args(["check", "--sarif"])
        .arg(&path)
        .output()
        .unwrap();
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(log["runs"][0]["results"].as_array().unwrap().len(), 30_000);
    let page = |name: &str| {
        let text = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("docs")
                .join(name),
        )
        .unwrap();
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let sarif = page("sarif.md");
    assert!(sarif.contains("## How many results There is no cap"));
    assert!(sarif.contains("refuses a run of more than 25,000 results"));
    let check = page("check.md");
    assert!(check.contains("There is no cap on the records"));
    assert!(check.contains("1 MB of `FF` bytes gives 1,000,002 records"));
    assert!(check.contains("sarif.md#how-many-results"));
}
