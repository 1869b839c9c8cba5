//! `check --sarif`: one SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format),
//! the format code-scanning tools read. One run; `tool.driver` is hexrune with its version
//! and one rule per kind that occurred (rule id = the kind, in order of first appearance);
//! one result per [`Finding`], located by byte offset and length and by line and column
//! (`columnKind` is `unicodeCodePoints`: a column counts units, each error unit as one);
//! one artifact per input with its size, SHA-256 and modification time; one invocation with
//! the command line, whether every input could be read, and a notification per input that
//! could not.
//!
//! The log is written as it goes, so memory does not grow with the number of results: the
//! run's `results` come first, then `artifacts`, `invocations` and `tool` (a JSON object's
//! keys have no order). Every string goes through [`to_line`], which escapes DEL and the C1
//! controls as well as what JSON must.

use std::collections::HashMap;
use std::io::{self, Write};

use serde_json::{json, Map, Value};

use super::check::{CheckOptions, Emit, Examined};
use super::findings::Finding;
use super::report::hex_compact;
use super::wire::{to_line, Invocation, WirePath};

/// The schema a log names in its `$schema`.
pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The SARIF writer: what it has seen so far of the run.
pub struct Sarif<'a> {
    options: &'a CheckOptions,
    /// Whether a result has been written (the next one needs a comma).
    wrote_result: bool,
    artifacts: Vec<Value>,
    /// The URIs of the artifacts: a file named twice (`check --sarif a.txt a.txt`, or by
    /// two globs) is one artifact with its results once, as code-scanning tools require.
    uris: std::collections::HashSet<String>,
    /// Rules in order of first appearance, and each kind's index among them.
    rules: Vec<Value>,
    rule_index: HashMap<&'static str, usize>,
    notifications: Vec<Value>,
}

impl<'a> Sarif<'a> {
    /// A writer for a run of `check` with `options`.
    pub fn new(options: &'a CheckOptions) -> Sarif<'a> {
        Sarif {
            options,
            wrote_result: false,
            artifacts: Vec::new(),
            uris: std::collections::HashSet::new(),
            rules: Vec::new(),
            rule_index: HashMap::new(),
            notifications: Vec::new(),
        }
    }

    fn rule(&mut self, finding: &Finding) -> usize {
        if let Some(i) = self.rule_index.get(finding.kind) {
            return *i;
        }
        let i = self.rules.len();
        self.rules.push(json!({
            "id": finding.kind,
            "name": finding.kind,
            "shortDescription": {"text": finding.rule},
            "defaultConfiguration": {"level": finding.level.name()},
        }));
        self.rule_index.insert(finding.kind, i);
        i
    }

    fn result(&mut self, finding: &Finding, location: &Value) -> Value {
        let rule = self.rule(finding);
        let mut properties = Map::new();
        properties.insert("bytes".into(), hex_compact(&finding.bytes).into());
        for (key, value) in [
            ("expected", &finding.expected),
            ("diagnosis", &finding.diagnosis),
            ("fallback", &finding.fallback),
        ] {
            if let Some(v) = value {
                properties.insert(key.into(), v.clone().into());
            }
        }
        json!({
            "ruleId": finding.kind,
            "ruleIndex": rule,
            "level": finding.level.name(),
            "message": {"text": finding.message},
            "locations": [{
                "physicalLocation": {
                    "artifactLocation": location,
                    "region": {
                        "byteOffset": finding.offset,
                        "byteLength": finding.len(),
                        "startLine": finding.line,
                        "startColumn": finding.column,
                    }
                }
            }],
            "properties": properties,
        })
    }

    /// Where an artifact is: its URI (a relative reference for a relative path, `file://`
    /// for an absolute one, every byte outside the unreserved set and `/` percent-encoded,
    /// so a name that is not UTF-8 is exact), and its index among the artifacts.
    fn location(&self, path: &WirePath, stdin: bool) -> Value {
        let index = self.artifacts.len();
        if stdin {
            return json!({"index": index, "description": {"text": "standard input"}});
        }
        json!({"uri": uri(&path_bytes(path)), "index": index})
    }
}

/// The bytes of a wire path: `path_bytes` decoded where there is one.
fn path_bytes(path: &WirePath) -> Vec<u8> {
    use base64::Engine as _;
    path.path_bytes
        .as_deref()
        .and_then(|b| base64::engine::general_purpose::STANDARD.decode(b).ok())
        .unwrap_or_else(|| path.path.as_bytes().to_vec())
}

/// A path as a URI reference (RFC 3986): `dir/a%20b.txt`, `file:///tmp/x`.
pub fn uri(path: &[u8]) -> String {
    let mut out = String::with_capacity(path.len() + 8);
    if path.first() == Some(&b'/') {
        out.push_str("file://");
    }
    for &b in path {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

impl Emit for Sarif<'_> {
    fn begin(&mut self, out: &mut dyn Write) -> io::Result<()> {
        write!(
            out,
            "{{\"$schema\":\"{SCHEMA_URI}\",\"version\":\"2.1.0\",\"runs\":[{{\"columnKind\":\"unicodeCodePoints\",\"results\":["
        )
    }

    fn input(&mut self, out: &mut dyn Write, examined: &Examined) -> io::Result<()> {
        let facts = &examined.facts;
        let location = self.location(&facts.path, facts.stdin);
        if let Some(uri) = location["uri"].as_str() {
            if !self.uris.insert(uri.to_string()) {
                return Ok(()); // the same file, named again
            }
        }
        let options = self.options;
        for finding in examined.findings(options) {
            let result = self.result(&finding, &location);
            let comma = if self.wrote_result { "," } else { "" };
            write!(out, "{comma}\n{}", to_line(&result))?;
            self.wrote_result = true;
        }
        let mut artifact = json!({
            "location": location,
            "length": facts.size,
            "encoding": options.dialect.encoding_name(),
        });
        if let Some(hash) = &facts.sha256 {
            artifact["hashes"] = json!({"sha-256": hash});
        }
        if let Some(mtime) = &facts.mtime {
            artifact["lastModifiedTimeUtc"] = json!(mtime);
        }
        self.artifacts.push(artifact);
        Ok(())
    }

    fn io_error(
        &mut self,
        _out: &mut dyn Write,
        name: &str,
        path: &WirePath,
        message: &str,
    ) -> io::Result<()> {
        self.notifications.push(json!({
            "level": "error",
            "message": {"text": format!("{name}: {message}")},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri(&path_bytes(path))}}}],
        }));
        Ok(())
    }

    fn skipped(
        &mut self,
        _out: &mut dyn Write,
        name: &str,
        path: &WirePath,
        what: &str,
    ) -> io::Result<()> {
        self.notifications.push(json!({
            "level": "note",
            "message": {"text": format!("{name}: skipped: {what}")},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri(&path_bytes(path))}}}],
        }));
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn Write, _status: u8) -> io::Result<()> {
        let Invocation { argv, words } = &self.options.invocation;
        let invocation = json!({
            "arguments": argv.get(1..).unwrap_or_default(),
            "commandLine": shell_words(words),
            "executionSuccessful": self.notifications.iter().all(|n| n["level"] != "error"),
            "toolExecutionNotifications": self.notifications,
        });
        let driver = json!({
            "name": "hexrune",
            "version": Invocation::VERSION,
            "semanticVersion": Invocation::VERSION,
            "rules": self.rules,
        });
        writeln!(
            out,
            "\n],\"artifacts\":{},\"invocations\":[{}],\"tool\":{}}}]}}",
            to_line(&self.artifacts),
            to_line(&invocation),
            to_line(&json!({ "driver": driver })),
        )
    }
}

/// The command line as a POSIX shell reads it back into the same `argv` bytes: a word of
/// plain characters as it is, an empty one as `''`, any other UTF-8 word in single quotes
/// (a `'` in it as `'\''`), and a word that is not UTF-8 in POSIX.1-2024's dollar-single
/// quotes, each byte that is not UTF-8 (and each control) as `\xHH`: `$'lat\xff.txt'`
/// (bash, zsh, ksh, busybox sh and dash 0.5.12 on read them).
fn shell_words(words: &[Vec<u8>]) -> String {
    let plain = |b: &u8| b.is_ascii_alphanumeric() || b"@%+=:,./_-".contains(b);
    // zsh reads a word that starts with `=` as the path of a command (`=ls`).
    let word = |w: &Vec<u8>| match std::str::from_utf8(w) {
        Ok(text) if !text.is_empty() && w.iter().all(plain) && w[0] != b'=' => text.to_string(),
        // A word with a character a viewer would act on or hide (a bidi control, a C1
        // control) is written as bytes, as one that is not UTF-8.
        Ok(text) if !text.chars().any(crate::view::safe::always_escaped) => {
            format!("'{}'", text.replace('\'', r"'\''"))
        }
        _ => dollar_quoted(w),
    };
    words.iter().map(word).collect::<Vec<_>>().join(" ")
}

/// `bytes` in dollar-single quotes: UTF-8 characters as they are but for `\\` and `\'`; a
/// control, a character the sanitiser always escapes (a bidi control, a C1 control) or a
/// byte that is not UTF-8 as `\xHH` (each byte of the character); and a hex digit right
/// after such an escape as one too (POSIX leaves `\x` followed by more than two digits
/// unspecified).
fn dollar_quoted(bytes: &[u8]) -> String {
    let mut out = String::from("$'");
    let mut after_hex = false;
    let hex = |out: &mut String, b: u8| out.push_str(&format!("\\x{b:02x}"));
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if (c.is_ascii() && c.is_control()) || (after_hex && c.is_ascii_hexdigit()) {
                hex(&mut out, c as u8);
                after_hex = true;
                continue;
            }
            if crate::view::safe::always_escaped(c) {
                let mut buf = [0; 4];
                for &b in c.encode_utf8(&mut buf).as_bytes() {
                    hex(&mut out, b);
                }
                after_hex = true;
                continue;
            }
            match c {
                '\\' => out.push_str("\\\\"),
                '\'' => out.push_str("\\'"),
                c => out.push(c),
            }
            after_hex = false;
        }
        for &b in chunk.invalid() {
            hex(&mut out, b);
            after_hex = true;
        }
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_keep_every_byte() {
        assert_eq!(uri(b"dir/a b.txt"), "dir/a%20b.txt");
        assert_eq!(uri(b"/tmp/x%y"), "file:///tmp/x%25y");
        assert_eq!(uri(b"caf\xC3\xA9\xFF"), "caf%C3%A9%FF");
    }

    #[test]
    fn the_command_line_reads_back_as_its_words() {
        let argv: Vec<Vec<u8>> = [
            "hexrune", "check", "a b.txt", "it's", "", "pct%41", "x;rm", "é", "=x.txt", "a=b",
        ]
        .map(|w| w.as_bytes().to_vec())
        .to_vec();
        assert_eq!(
            shell_words(&argv),
            r"hexrune check 'a b.txt' 'it'\''s' '' pct%41 'x;rm' 'é' '=x.txt' a=b"
        );
    }

    #[test]
    fn a_word_that_is_not_utf8_is_dollar_quoted() {
        let words: Vec<Vec<u8>> = vec![
            b"lat\xff\xfe.txt".to_vec(),
            b"caf\xc3\xa9\xe9".to_vec(),
            b"it's\\\xff".to_vec(),
            b"\xffab\x1bz".to_vec(),
        ];
        assert_eq!(
            shell_words(&words),
            r"$'lat\xff\xfe.txt' $'café\xe9' $'it\'s\\\xff' $'\xff\x61\x62\x1bz'"
        );
    }

    /// A word in UTF-8 with a character a viewer of the JSON would act on or hide is
    /// written as bytes: a bidi override, a C1 control, an escape (it was in single quotes,
    /// and JSON decoding gave it back live).
    #[test]
    fn a_word_with_a_control_or_a_bidi_character_is_dollar_quoted() {
        let words: Vec<Vec<u8>> = vec![
            "e\u{202E}Z.txt".as_bytes().to_vec(),
            "a\u{1b}[31mb".as_bytes().to_vec(),
            "c\u{9b}d".as_bytes().to_vec(),
            "ok é".as_bytes().to_vec(),
        ];
        assert_eq!(
            shell_words(&words),
            r"$'e\xe2\x80\xaeZ.txt' $'a\x1b[31mb' $'c\xc2\x9b\x64' 'ok é'"
        );
    }
}
