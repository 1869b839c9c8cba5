//! The examples in the pages of `PAGES` (`README.md`, `docs/check.md`, `docs/dump.md`, ...)
//! are real: every ```` ```console ```` block there is a command (`$ hexrune ...`) and its
//! exact output, and this test runs each one and compares. A block whose last line is `...`
//! shows the output's first lines exactly, and the output goes on after them. The sample
//! files are made from the `printf` lines the pages themselves show.
//!
//! After a deliberate change of output, `HEXRUNE_BLESS_DOCS=1 cargo test --test
//! docs_examples` rewrites the blocks with what the binary prints now; review the diff.

use std::path::Path;

use std::os::unix::process::CommandExt;

mod common;

/// Paths from `docs/`.
const PAGES: [&str; 13] = [
    "../README.md",
    "check.md",
    "lint.md",
    "forensics.md",
    "csv.md",
    "sarif.md",
    "at.md",
    "explain.md",
    "dump.md",
    "escapes.md",
    "encodings.md",
    "detect.md",
    "repair.md",
];

fn docs() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs")
}

/// The `(command, expected output)` pairs of a page's console blocks.
fn examples(page: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(docs().join(page)).unwrap();
    let mut found = Vec::new();
    let mut rest = text.as_str();
    while let Some(start) = rest.find("```console\n$ ") {
        let block = &rest[start + "```console\n$ ".len()..];
        let end = block
            .find("```")
            .unwrap_or_else(|| panic!("{page}: unclosed block"));
        let (command, output) = block[..end].split_once('\n').unwrap();
        found.push((command.to_string(), output.to_string()));
        rest = &block[end..];
    }
    found
}

/// Splits a command line as a POSIX shell would for the simple forms the pages use:
/// words separated by spaces, single quotes keeping everything literal.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut in_word = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                in_word = true;
            }
            ' ' if !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            _ => {
                word.push(c);
                in_word = true;
            }
        }
    }
    assert!(!quoted, "unbalanced quote in {line}");
    if in_word {
        words.push(word);
    }
    words
}

/// The bytes of a `printf` format with `\xHH` and `\n` escapes.
fn printf_bytes(format: &str) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut rest = format.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        match (b, tail) {
            (b'\\', [b'x', h, l, more @ ..]) => {
                let hex = std::str::from_utf8(&[*h, *l]).unwrap().to_string();
                bytes.push(u8::from_str_radix(&hex, 16).unwrap());
                rest = more;
            }
            (b'\\', [b'n', more @ ..]) => {
                bytes.push(b'\n');
                rest = more;
            }
            _ => {
                bytes.push(b);
                rest = tail;
            }
        }
    }
    bytes
}

/// The modification time of every sample file: 2025-01-01T00:00:00Z.
const SAMPLE_MTIME: u64 = 1_735_689_600;

/// Creates the sample files from the `printf 'FORMAT' > NAME` lines of the pages (a file
/// that several pages show is the same on each); returns how many files it made.
fn make_samples(dir: &Path) -> usize {
    let mut made: Vec<(String, Vec<u8>)> = Vec::new();
    for page in PAGES {
        let text = std::fs::read_to_string(docs().join(page)).unwrap();
        for line in text.lines().filter(|l| l.starts_with("printf '")) {
            let (format, name) = line["printf '".len()..].rsplit_once("' > ").unwrap();
            let bytes = printf_bytes(format);
            match made.iter().find(|(n, _)| n == name) {
                Some((_, same)) => assert_eq!(same, &bytes, "{page}: {name} differs"),
                None => made.push((name.to_string(), bytes)),
            }
        }
    }
    // Every sample has the same modification time, so the pages can show `check --json`'s
    // input records as they are.
    let time = std::time::UNIX_EPOCH + std::time::Duration::from_secs(SAMPLE_MTIME);
    for (name, bytes) in &made {
        std::fs::write(dir.join(name), bytes).unwrap();
        let file = std::fs::File::options()
            .write(true)
            .open(dir.join(name))
            .unwrap();
        file.set_modified(time).unwrap();
    }
    made.len()
}

#[test]
fn every_console_example_is_the_real_output() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(make_samples(dir.path()), 39);
    assert_eq!(
        std::fs::read(dir.path().join("notes.txt")).unwrap().len(),
        40
    );
    let mut count = 0;
    let bless = std::env::var_os("HEXRUNE_BLESS_DOCS").is_some();
    for page in PAGES {
        let examples = examples(page);
        let mut text = std::fs::read_to_string(docs().join(page)).unwrap();
        assert!(
            examples.len() >= 3,
            "{page}: only {} examples",
            examples.len()
        );
        for (command, expected) in examples {
            let words = shell_words(&command);
            assert_eq!(words[0], "hexrune", "{page}: {command}");
            // The program is called `hexrune`, as a shell that finds it on the PATH calls it
            // (the summary records show the command line).
            let output = std::process::Command::new(common::binary())
                .arg0("hexrune")
                .args(&words[1..])
                .current_dir(dir.path())
                .output()
                .unwrap();
            let mut actual = String::from_utf8(output.stdout).unwrap();
            actual.push_str(&String::from_utf8(output.stderr).unwrap());
            count += 1;
            // `...`: the first lines, and more after them.
            if let Some(shown) = expected.strip_suffix("...\n") {
                let lines = shown.lines().count();
                let first: String = actual.split_inclusive('\n').take(lines).collect();
                assert!(
                    first.len() < actual.len(),
                    "docs/{page}: `{command}` printed no more than its first {lines} lines"
                );
                actual = first + "...\n";
            }
            if bless {
                let old = format!("```console\n$ {command}\n{expected}```");
                let new = format!("```console\n$ {command}\n{actual}```");
                text = text.replacen(&old, &new, 1);
                continue;
            }
            assert!(
                actual == expected,
                "docs/{page}: `{command}` printed\n{actual}\ninstead of\n{expected}\n\
                 (after a deliberate change: HEXRUNE_BLESS_DOCS=1 cargo test --test docs_examples)"
            );
        }
        if bless {
            std::fs::write(docs().join(page), text).unwrap();
        }
    }
    assert!(count >= 25, "{count} examples");
}

#[test]
fn shell_words_and_printf_escapes() {
    assert_eq!(
        shell_words(r"hexrune explain '\xe2\x82' 'a b' c"),
        [r"hexrune", "explain", r"\xe2\x82", "a b", "c"]
    );
    assert_eq!(printf_bytes(r"a\xe9\n"), [b'a', 0xE9, b'\n']);
}
