//! The JSON wire format as typed records: `check --json` (error and summary records),
//! `at`, `explain --json` and `detect --json`. Each record is a struct that derives [`Serialize`]; the field
//! order of a struct is the key order of its JSON object, and serde_json writes numbers and
//! string escapes, so no record is assembled from strings by hand.
//!
//! The format itself (every key, when it appears, what it means) is documented in
//! [`crate::cli::report`] and in `docs/check.md`, `docs/at.md`, `docs/explain.md` and
//! `docs/detect.md`.

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use crate::cli::findings::{Finding, Record};
use crate::cli::report::{hex_compact, unit_bytes};
use crate::decode::{CodePoint, Dialect, ErrorKind, Unit, UnitKind, Utf16};
use crate::detect::Detection;
use crate::scan::index::summary_classes;
use crate::scan::Tally;
use crate::view::cluster;
use crate::view::fallback::Fallback;
use crate::view::safe::always_escaped;
use crate::view::second_code_point;
use crate::view::unicode::{facts, Facts};

/// A JSON object whose keys keep the order they were pushed in (a count per class or per
/// kind, say), where a struct cannot name the keys in advance.
#[derive(Debug, Default)]
pub struct Ordered<K, V>(pub Vec<(K, V)>);

impl<K: Serialize, V: Serialize> Serialize for Ordered<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// One line of JSON for `record` (no trailing newline). Strings get JSON's own escapes,
/// and every character the sanitiser always escapes is escaped too (`\u009b`, `\u202e`,
/// `\udb40\udc01`): DEL and the C1 controls, bidi controls, zero-width and other format
/// characters, the line and paragraph separators, tags, private-use and unassigned code
/// points. JSON allows them raw, but a terminal may act on them (U+009B is CSI), a bidi
/// override reorders the text of a report printed with `cat`, and a fallback reading of a
/// byte 80..9F is often one. The escapes are JSON's own: a parser reads the same string.
pub fn to_line<T: Serialize>(record: &T) -> String {
    let mut out = Vec::with_capacity(128);
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, ControlSafe);
    // Serialising these records cannot fail: every key is a string and no value is a float.
    if record.serialize(&mut serializer).is_err() {
        return String::new();
    }
    String::from_utf8(out).unwrap_or_default()
}

/// serde_json's compact format, with the characters [`to_line`] names escaped in strings.
struct ControlSafe;

impl serde_json::ser::Formatter for ControlSafe {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut rest = fragment;
        // (serde_json escapes the C0 controls itself.)
        while let Some(at) =
            rest.find(|c: char| c == '\u{7F}' || !c.is_ascii() && always_escaped(c))
        {
            writer.write_all(&rest.as_bytes()[..at])?;
            let c = rest[at..].chars().next().unwrap_or('\u{7F}');
            for unit in c.encode_utf16(&mut [0; 2]) {
                write!(writer, "\\u{:04x}", unit)?;
            }
            rest = &rest[at + c.len_utf8()..];
        }
        writer.write_all(rest.as_bytes())
    }
}

/// The name of an input as it goes on the wire: `path` is the name as a JSON string (the
/// name itself where it is UTF-8), and `path_bytes` (standard base64, padded) carries the
/// exact bytes of a name that is not UTF-8, where `path` could only approximate it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct WirePath {
    /// The name; for a name that is not UTF-8, with U+FFFD for each invalid sequence.
    pub path: String,
    /// The bytes of a name that is not UTF-8, in base64.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_bytes: Option<String>,
}

impl WirePath {
    /// The wire form of a name given as raw bytes.
    pub fn from_bytes(name: &[u8]) -> WirePath {
        use base64::Engine as _;
        match std::str::from_utf8(name) {
            Ok(text) => WirePath {
                path: text.to_string(),
                path_bytes: None,
            },
            Err(_) => WirePath {
                path: String::from_utf8_lossy(name).into_owned(),
                path_bytes: Some(base64::engine::general_purpose::STANDARD.encode(name)),
            },
        }
    }
}

/// `"expected"` and `"diagnosis"` of an error unit, where they apply.
#[derive(Debug, Default, Serialize)]
pub struct ErrorDetails {
    /// The byte range allowed where the sequence stopped, `80..BF`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// What a lax reading says the bytes are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnosis: Option<String>,
}

impl ErrorDetails {
    /// The details of `unit` (none for a scalar).
    pub fn of(dialect: Dialect, bytes: &[u8], unit: &Unit) -> ErrorDetails {
        ErrorDetails {
            expected: dialect.expected(bytes, unit).map(|r| r.to_string()),
            diagnosis: dialect.diagnose(bytes, unit).map(|d| d.to_string()),
        }
    }
}

/// Where a unit starts as an editor counts: line and column, both from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LineColumn {
    /// The line: 1 plus the number of line feeds before the unit.
    pub line: u64,
    /// The column: 1 plus the number of units between the line's start and the unit.
    pub column: u64,
}

/// `{"type":"error",...}`: one error unit of `check --json`.
#[derive(Debug, Serialize)]
pub struct ErrorRecord<'a> {
    #[serde(rename = "type")]
    record: &'static str,
    #[serde(flatten)]
    path: &'a WirePath,
    offset: u64,
    len: u64,
    bytes: String,
    kind: &'static str,
    #[serde(flatten)]
    details: ErrorDetails,
    #[serde(flatten)]
    position: LineColumn,
    /// The unit's bytes as the fallback encoding reads them; absent without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    fallback: Option<String>,
    /// The encoding the input was read as, where it is not of the UTF-8 family (last, so
    /// that records of the UTF-8 family keep their bytes).
    #[serde(skip_serializing_if = "Option::is_none")]
    encoding: Option<&'static str>,
}

impl<'a> ErrorRecord<'a> {
    /// The record of error unit `unit` of `bytes`, which starts at `position`, with its
    /// reading in `fallback` where there is one.
    pub fn new(
        path: &'a WirePath,
        dialect: Dialect,
        bytes: &[u8],
        unit: &Unit,
        position: LineColumn,
        fallback: Option<&Fallback>,
    ) -> ErrorRecord<'a> {
        let at = (position.line, position.column);
        ErrorRecord::of(path, &Finding::error(dialect, bytes, unit, at, fallback))
    }

    /// The record of an error `finding`.
    pub fn of(path: &'a WirePath, finding: &Finding) -> ErrorRecord<'a> {
        ErrorRecord {
            record: "error",
            path,
            offset: finding.offset,
            len: finding.len(),
            bytes: hex_compact(&finding.bytes),
            kind: finding.kind,
            details: ErrorDetails {
                expected: finding.expected.clone(),
                diagnosis: finding.diagnosis.clone(),
            },
            position: LineColumn {
                line: finding.line,
                column: finding.column,
            },
            fallback: finding.fallback.clone(),
            encoding: finding.encoding,
        }
    }
}

/// `{"type":"finding",...}`: something valid that is worth a look, of `check --json`.
#[derive(Debug, Serialize)]
pub struct FindingRecord<'a> {
    #[serde(rename = "type")]
    record: &'static str,
    #[serde(flatten)]
    path: &'a WirePath,
    offset: u64,
    len: u64,
    bytes: String,
    kind: &'static str,
    #[serde(flatten)]
    position: LineColumn,
    /// `error`, `warning` or `note`, as CSV's and SARIF's `level`.
    level: &'static str,
    /// What this one is, in a sentence.
    message: String,
}

impl<'a> FindingRecord<'a> {
    /// The record of a `finding` that is not an error unit.
    pub fn of(path: &'a WirePath, finding: &Finding) -> FindingRecord<'a> {
        FindingRecord {
            record: "finding",
            path,
            offset: finding.offset,
            len: finding.len(),
            bytes: hex_compact(&finding.bytes),
            kind: finding.kind,
            position: LineColumn {
                line: finding.line,
                column: finding.column,
            },
            level: finding.level.name(),
            message: finding.message.clone(),
        }
    }
}

/// The record of `finding` as `check --json` writes it: an `error` record for an error
/// unit, a `finding` record for anything else.
pub fn finding_line(path: &WirePath, finding: &Finding) -> String {
    match finding.record {
        Record::Error => to_line(&ErrorRecord::of(path, finding)),
        Record::Finding => to_line(&FindingRecord::of(path, finding)),
    }
}

/// `{"type":"input",...}`: the first record of each input of `check --json`, the evidence
/// of what was examined: its name, size in bytes, SHA-256 (64 lower-case hex digits, of the
/// bytes the scan read, hashed in the same pass) and last modification time (RFC 3339, UTC,
/// `null` for the standard input or where the system does not say).
#[derive(Debug, Serialize)]
pub struct InputRecord<'a> {
    #[serde(rename = "type")]
    record: &'static str,
    #[serde(flatten)]
    path: &'a WirePath,
    size: u64,
    sha256: &'a str,
    mtime: Option<&'a str>,
}

impl<'a> InputRecord<'a> {
    /// The record of an input of `size` bytes with hash `sha256` and time `mtime`.
    pub fn new(
        path: &'a WirePath,
        size: u64,
        sha256: &'a str,
        mtime: Option<&'a str>,
    ) -> InputRecord<'a> {
        InputRecord {
            record: "input",
            path,
            size,
            sha256,
            mtime,
        }
    }
}

/// What a `check` run was: the version of hexrune and the command line, carried by every
/// summary record (and SARIF's invocation), so a report says what made it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Invocation {
    /// The command line, each argument as text (an argument that is not UTF-8 with U+FFFD
    /// for each invalid sequence; JSON escapes the controls).
    pub argv: Vec<String>,
    /// The same arguments as the bytes the process was given (SARIF's `commandLine` quotes
    /// them so that a shell reads back these bytes).
    pub words: Vec<Vec<u8>>,
}

impl Invocation {
    /// The version of hexrune that ran.
    pub const VERSION: &'static str = env!("CARGO_PKG_VERSION");

    /// The invocation of this process.
    pub fn of_process() -> Invocation {
        use std::os::unix::ffi::OsStrExt;
        Invocation::from_words(std::env::args_os().map(|a| a.as_bytes().to_vec()).collect())
    }

    /// The invocation of a command line given as its arguments' bytes.
    pub fn from_words(words: Vec<Vec<u8>>) -> Invocation {
        Invocation {
            argv: words
                .iter()
                .map(|w| String::from_utf8_lossy(w).into_owned())
                .collect(),
            words,
        }
    }
}

/// `{"type":"summary",...}`: the last record of each input of `check --json`.
#[derive(Debug, Serialize)]
pub struct SummaryRecord<'a> {
    #[serde(rename = "type")]
    record: &'static str,
    #[serde(flatten)]
    path: &'a WirePath,
    size: u64,
    valid: bool,
    units: Ordered<String, u64>,
    errors: Ordered<&'static str, u64>,
    findings: Ordered<&'static str, u64>,
    /// The encoding the input was read as, where it is not of the UTF-8 family.
    #[serde(skip_serializing_if = "Option::is_none")]
    encoding: Option<&'static str>,
    /// What the report could not look at, where there is something (`check`'s `note`
    /// line).
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    hexrune_version: &'static str,
    dialect: &'static str,
    argv: &'a [String],
}

impl SummaryRecord<'_> {
    /// The record with `note` (what the report could not look at), if any.
    pub fn with_note(mut self, note: Option<String>) -> Self {
        self.note = note;
        self
    }
}

/// The name of the encoding a record says it read, for UTF-16, UTF-32 and single-byte
/// encodings (records of the UTF-8 family keep their format: the dialect is the command's).
fn encoding_field(dialect: Dialect) -> Option<&'static str> {
    dialect.code_unit_width().map(|_| dialect.encoding_name())
}

impl<'a> SummaryRecord<'a> {
    /// The summary of an input of `size` bytes whose scan counted `tally`, with the counts
    /// of findings by kind (only the kinds that occurred are listed).
    pub fn new(
        path: &'a WirePath,
        dialect: Dialect,
        size: u64,
        tally: &Tally,
        findings: &[(&'static str, u64)],
        invocation: &'a Invocation,
    ) -> SummaryRecord<'a> {
        SummaryRecord {
            record: "summary",
            path,
            size,
            valid: tally.error_count() == 0,
            units: Ordered(
                summary_classes(dialect)
                    .iter()
                    .map(|c| (c.to_string(), tally.classes[*c as usize]))
                    .collect(),
            ),
            errors: Ordered(
                ErrorKind::ALL
                    .iter()
                    .filter(|k| tally.errors_of(**k) > 0)
                    .map(|k| (k.name(), tally.errors_of(*k)))
                    .collect(),
            ),
            findings: Ordered(findings.iter().copied().filter(|(_, n)| *n > 0).collect()),
            encoding: encoding_field(dialect),
            note: None,
            hexrune_version: Invocation::VERSION,
            dialect: dialect.name(),
            argv: &invocation.argv,
        }
    }
}

/// `{"type":"io_error",...}`: an input `check --json` could not read.
#[derive(Debug, Serialize)]
pub struct IoErrorRecord<'a> {
    #[serde(rename = "type")]
    record: &'static str,
    #[serde(flatten)]
    path: &'a WirePath,
    message: String,
}

impl<'a> IoErrorRecord<'a> {
    /// The record of an input that could not be read, and why.
    pub fn new(path: &'a WirePath, message: String) -> IoErrorRecord<'a> {
        IoErrorRecord {
            record: "io_error",
            path,
            message,
        }
    }
}

/// `{"type":"skipped",...}`: a special file `check -r` passed over, and what it is (`fifo`,
/// `socket`, `character device`, `link to a directory`, ...), so that an archived report
/// says what it left out.
#[derive(Debug, Serialize)]
pub struct SkippedRecord<'a> {
    #[serde(rename = "type")]
    record: &'static str,
    #[serde(flatten)]
    path: &'a WirePath,
    what: &'a str,
}

impl<'a> SkippedRecord<'a> {
    /// The record of a file passed over, and what it is.
    pub fn new(path: &'a WirePath, what: &'a str) -> SkippedRecord<'a> {
        SkippedRecord {
            record: "skipped",
            path,
            what,
        }
    }
}

/// One unit: the object `at` prints, and an element of `explain --json`'s `units`.
#[derive(Debug, Serialize)]
pub struct UnitRecord {
    offset: u64,
    len: u8,
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    cp: Option<u32>,
    /// The second code point of a sequence that decodes to two (Big5's `88 62` is U+00CA
    /// U+0304); absent everywhere else.
    #[serde(skip_serializing_if = "Option::is_none")]
    cp2: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    class: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'static str>,
    #[serde(flatten)]
    details: ErrorDetails,
    /// A scalar's facts.
    #[serde(flatten)]
    facts: Option<FactsFields>,
    /// An error unit's bytes as the fallback encoding reads them; absent without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    fallback: Option<String>,
    /// The encoding the input was read as, where it is not of the UTF-8 family.
    #[serde(skip_serializing_if = "Option::is_none")]
    encoding: Option<&'static str>,
}

/// The facts of a code point every record of one carries, from the one Unicode truth
/// ([`facts`]): `"name"` (the name or code point label), `"alias"` (a C0 control's, else
/// `null`), `"category"` (the abbreviation, `null` above U+10FFFF), `"width"`, `"plane"` and
/// `"block"` (`null` where there is none).
///
/// ```
/// use hexrune::cli::wire::{to_line, FactsFields};
/// use hexrune::decode::CodePoint;
/// use hexrune::view::unicode::facts;
/// assert_eq!(
///     to_line(&FactsFields::from(&facts(CodePoint::new(0x4E00)))),
///     r#"{"name":"CJK UNIFIED IDEOGRAPH-4E00","alias":null,"category":"Lo","width":2,"plane":0,"block":"CJK Unified Ideographs"}"#
/// );
/// ```
#[derive(Debug, Serialize)]
pub struct FactsFields {
    name: String,
    alias: Option<&'static str>,
    category: Option<&'static str>,
    width: Option<u8>,
    plane: Option<u8>,
    block: Option<&'static str>,
}

impl From<&Facts> for FactsFields {
    fn from(facts: &Facts) -> FactsFields {
        FactsFields {
            name: facts.label.clone(),
            alias: facts.alias,
            category: facts.category.map(|c| c.abbreviation()),
            width: facts.width,
            plane: facts.plane,
            block: facts.block,
        }
    }
}

impl UnitRecord {
    /// `at`'s object for `unit` of `bytes`, with an error unit's reading in `fallback`
    /// where there is one.
    pub fn new(
        dialect: Dialect,
        bytes: &[u8],
        unit: &Unit,
        fallback: Option<&Fallback>,
    ) -> UnitRecord {
        let mut record = UnitRecord {
            offset: unit.start as u64,
            len: unit.len,
            kind: "scalar",
            cp: None,
            cp2: None,
            class: None,
            error: None,
            details: ErrorDetails::default(),
            facts: None,
            fallback: None,
            encoding: encoding_field(dialect),
        };
        match unit.kind {
            // An ISO-2022-JP escape sequence: a mode switch, no character.
            UnitKind::Scalar(cp) if cp == crate::decode::CodePoint::ESCAPE_SEQUENCE => {
                record.kind = "escape";
            }
            UnitKind::Scalar(cp) => {
                record.cp = Some(cp.value());
                record.cp2 = second_code_point(bytes, dialect, unit).map(|c| c.value());
                record.class = Some(unit.len);
                record.facts = Some(FactsFields::from(&facts(cp)));
            }
            UnitKind::Error(kind) => {
                record.kind = "error";
                record.error = Some(kind.name());
                record.details = ErrorDetails::of(dialect, bytes, unit);
                record.fallback = fallback.map(|f| f.read(unit_bytes(bytes, unit)));
            }
        }
        record
    }
}

/// `explain --json BYTES`: the bytes, and per dialect whether they are valid and their units.
#[derive(Debug, Serialize)]
pub struct BytesRecord {
    bytes: String,
    dialects: Vec<DialectUnits>,
    /// The grapheme clusters of the UTF-8 reading, when some join several code points.
    #[serde(skip_serializing_if = "Option::is_none")]
    clusters: Option<Vec<ClusterRecord>>,
}

/// One dialect's reading of the bytes in a [`BytesRecord`].
#[derive(Debug, Serialize)]
struct DialectUnits {
    dialect: &'static str,
    valid: bool,
    units: Vec<UnitRecord>,
}

impl BytesRecord {
    /// The record of `bytes` in every dialect, error units read in `fallback` too.
    pub fn new(bytes: &[u8], fallback: Option<&Fallback>) -> BytesRecord {
        BytesRecord {
            bytes: hex_compact(bytes),
            dialects: Dialect::UTF8_FAMILY
                .iter()
                .map(|d| DialectUnits {
                    dialect: d.name(),
                    valid: d.units(bytes).all(|u| !u.is_error()),
                    units: d
                        .units(bytes)
                        .map(|u| UnitRecord::new(*d, bytes, &u, fallback))
                        .collect(),
                })
                .collect(),
            clusters: ClusterRecord::all(bytes).filter(|all| all.iter().any(|c| c.code_points > 1)),
        }
    }
}

/// `explain --json TEXT`: the text's UTF-8 bytes and its grapheme clusters.
#[derive(Debug, Serialize)]
pub struct ClustersRecord {
    bytes: String,
    clusters: Vec<ClusterRecord>,
}

impl ClustersRecord {
    /// The record of `text`.
    pub fn new(text: &str) -> ClustersRecord {
        ClustersRecord {
            bytes: hex_compact(text.as_bytes()),
            clusters: ClusterRecord::all(text.as_bytes()).unwrap_or_default(),
        }
    }
}

/// One grapheme cluster of a UTF-8 reading: where it is, its code points and width, and
/// its units as `at` writes them, each after the first with the rule that joins it
/// (`"joins"`: [`crate::view::cluster::Joint::key`]; `null` for the first).
#[derive(Debug, Serialize)]
pub struct ClusterRecord {
    offset: u64,
    len: u64,
    code_points: u32,
    width: Option<usize>,
    units: Vec<ClusterUnit>,
}

/// A unit of a [`ClusterRecord`].
#[derive(Debug, Serialize)]
struct ClusterUnit {
    #[serde(flatten)]
    unit: UnitRecord,
    joins: Option<&'static str>,
}

impl ClusterRecord {
    /// The clusters of `bytes` read as UTF-8; `None` for no bytes.
    fn all(bytes: &[u8]) -> Option<Vec<ClusterRecord>> {
        let units: Vec<Unit> = Dialect::Utf8.units(bytes).collect();
        let spans = cluster::spans(&units);
        let mut out = Vec::new();
        for span in spans {
            let c = cluster::at(bytes, Dialect::Utf8, span.start, None)?;
            let mut seen: Vec<CodePoint> = Vec::new();
            let units = c
                .parts()
                .map(|(unit, cps)| {
                    let joins = match (seen.last(), cps.first()) {
                        (Some(_), Some(&next)) => Some(cluster::joint(&seen, next).key()),
                        _ => None,
                    };
                    seen.extend_from_slice(cps);
                    ClusterUnit {
                        unit: UnitRecord::new(Dialect::Utf8, bytes, &unit, None),
                        joins,
                    }
                })
                .collect();
            out.push(ClusterRecord {
                offset: span.start,
                len: span.len,
                code_points: span.cps,
                width: c.width,
                units,
            });
        }
        (!out.is_empty()).then_some(out)
    }
}

/// `explain --json --char C`: a code point, its name and category, its encodings (`null`
/// where a dialect cannot write it) and, for those, why not.
#[derive(Debug, Serialize)]
pub struct CodePointRecord {
    cp: u32,
    #[serde(flatten)]
    facts: FactsFields,
    encodings: Ordered<&'static str, Option<Encoding>>,
    unencodable: Ordered<&'static str, String>,
}

/// One encoding in a [`CodePointRecord`]: hex bytes, or a list of UTF-16 code units.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Encoding {
    Bytes(String),
    Utf16(Vec<String>),
}

impl CodePointRecord {
    /// The record of `cp`; `above_unicode` is why UTF-16 cannot write it, where it cannot.
    pub fn new(cp: CodePoint, above_unicode: &str) -> CodePointRecord {
        let mut encodings = Vec::new();
        let mut unencodable = Vec::new();
        for d in Dialect::UTF8_FAMILY {
            match d.encode(cp) {
                Ok(e) => {
                    encodings.push((d.name(), Some(Encoding::Bytes(hex_compact(e.as_bytes())))))
                }
                Err(why) => {
                    encodings.push((d.name(), None));
                    unencodable.push((d.name(), why.to_string()));
                }
            }
        }
        match Utf16::of(cp) {
            Some(utf16) => {
                let units = utf16.units().iter().map(|u| format!("{u:04x}")).collect();
                encodings.push(("utf16", Some(Encoding::Utf16(units))));
            }
            None => {
                encodings.push(("utf16", None));
                unencodable.push(("utf16", above_unicode.to_string()));
            }
        }
        CodePointRecord {
            cp: cp.value(),
            facts: FactsFields::from(&facts(cp)),
            encodings: Ordered(encodings),
            unencodable: Ordered(unencodable),
        }
    }
}

/// One object of `detect --json`: what an input most likely is.
#[derive(Debug, Serialize)]
pub struct DetectRecord<'a> {
    #[serde(flatten)]
    path: &'a WirePath,
    encoding: &'static str,
    bom: Option<&'static str>,
    errors: u64,
    regions: Vec<RegionRecord>,
    mojibake: Vec<MojibakeRecord>,
    ascii: bool,
    inner_boms: &'a [usize],
    evidence: &'a [String],
    /// Only for UTF-8 cut inside a character, so a record of any other input keeps its
    /// bytes as they were before the key.
    #[serde(skip_serializing_if = "Option::is_none")]
    cut: Option<CutRecord>,
    /// Only where a legacy guess rests on little evidence or reads as no text: why it may
    /// be wrong (a key added later, so absent, not `null`, where there is none).
    #[serde(skip_serializing_if = "Option::is_none")]
    doubt: Option<&'a str>,
}

/// `cut` of `detect --json`: where a UTF-8 input was cut inside a character, at each end
/// (`null` for an end that is not cut).
#[derive(Debug, Serialize)]
pub struct CutRecord {
    start: Option<CutEnd>,
    end: Option<CutEnd>,
}

/// One cut end of `detect --json`'s `cut`: the bytes of the partial character, at
/// `offset`, `len` bytes long, as lower-case hex.
#[derive(Debug, Serialize)]
pub struct CutEnd {
    offset: u64,
    len: u64,
    bytes: String,
}

impl CutEnd {
    fn of(bytes: &[u8], range: std::ops::Range<usize>) -> CutEnd {
        CutEnd {
            offset: range.start as u64,
            len: range.len() as u64,
            bytes: hex_compact(&bytes[range]),
        }
    }
}

/// A region of `detect --json`: bytes `start..end` in one encoding.
#[derive(Debug, Serialize)]
pub struct RegionRecord {
    /// The region's first byte.
    pub start: u64,
    /// Just past its last byte.
    pub end: u64,
    /// Its encoding, as encoding_rs names it.
    pub encoding: &'static str,
}

/// A mojibake region of `detect --json`: bytes `start..end`, the encodings that undo it
/// (outermost first) and the text it stands for.
#[derive(Debug, Serialize)]
pub struct MojibakeRecord {
    start: u64,
    end: u64,
    chain: Vec<&'static str>,
    text: String,
}

impl<'a> DetectRecord<'a> {
    /// The record of `detection` of `bytes`, the input called `path`.
    pub fn new(path: &'a WirePath, bytes: &[u8], detection: &'a Detection) -> DetectRecord<'a> {
        let cut = detection.cut;
        let cut = (cut.units() > 0).then(|| CutRecord {
            start: (cut.start > 0).then(|| CutEnd::of(bytes, 0..cut.start)),
            end: cut.end.map(|at| CutEnd::of(bytes, at..bytes.len())),
        });
        DetectRecord {
            path,
            encoding: detection.encoding,
            bom: detection.bom.map(|b| b.encoding()),
            errors: detection.errors,
            regions: detection
                .regions
                .iter()
                .map(|r| RegionRecord {
                    start: r.start as u64,
                    end: r.end as u64,
                    encoding: r.encoding,
                })
                .collect(),
            mojibake: detection
                .mojibake
                .iter()
                .map(|m| MojibakeRecord {
                    start: m.start as u64,
                    end: m.end as u64,
                    chain: m.chain_names(),
                    text: m.text.clone(),
                })
                .collect(),
            ascii: detection.ascii,
            inner_boms: &detection.inner_boms,
            evidence: &detection.evidence,
            cut,
            doubt: detection.doubt.as_deref(),
        }
    }
}

/// `{"type":"repair",...}`: the first record of `repair --log`: the input and the output,
/// each with its name, size in bytes and SHA-256 (lower-case hex); under `--from`, how the
/// input was read ([`FromRecord`]'s keys, after them).
#[derive(Debug, Serialize)]
pub struct RepairRecord {
    /// Always `"repair"`.
    #[serde(rename = "type")]
    pub record: &'static str,
    /// The input as read.
    pub input: RepairFile,
    /// The output as written.
    pub output: RepairFile,
    /// How the input was read, under `--from` (no key without it).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub from: Option<FromRecord>,
}

/// The keys of a [`RepairRecord`] under `--from`: the encoding the input was read as, who
/// chose it, and, under `--from auto`, what detection said beside it. Keys that would be
/// empty are left out.
#[derive(Debug, Serialize)]
pub struct FromRecord {
    /// The encoding the input was read as (`windows-1252`, `UTF-16BE`, `WTF-8`).
    #[serde(rename = "from")]
    pub encoding: &'static str,
    /// Who chose it: `label` (`--from LABEL`), `bom` (a byte order mark that names another
    /// encoding than the label) or `auto` (detection).
    #[serde(rename = "from_source")]
    pub source: &'static str,
    /// `--from`'s argument as it was given (`utf-16`, `latin1`, `auto`).
    #[serde(rename = "from_label")]
    pub label: String,
    /// Under `auto`: why detection doubts its guess, as `detect` says it.
    #[serde(rename = "from_doubt", skip_serializing_if = "Option::is_none")]
    pub doubt: Option<String>,
    /// Under `auto`: `UTF-8` where the input starts with UTF-8's BOM before text of a legacy
    /// encoding: those 3 bytes were read as U+FEFF, not as text of `from`.
    #[serde(rename = "from_bom", skip_serializing_if = "Option::is_none")]
    pub bom: Option<&'static str>,
    /// Under `auto`: the regions detection found in other encodings, which the reading in
    /// `from` did not convert (offsets in the input).
    #[serde(rename = "from_others", skip_serializing_if = "Vec::is_empty")]
    pub others: Vec<RegionRecord>,
    /// The bytes the encoding leaves undefined that were read as C1 controls, as WHATWG
    /// decoders read them (`81` in windows-1252 as U+0081), each with how many times: the
    /// summary's "look over OUT" line, for a pipeline that keeps only the log.
    #[serde(rename = "from_c1", skip_serializing_if = "Vec::is_empty")]
    pub c1: Vec<C1Record>,
}

/// A byte a legacy encoding leaves undefined, read as the C1 control of its value.
#[derive(Debug, Serialize)]
pub struct C1Record {
    /// The byte, in hex (`81`).
    pub byte: String,
    /// The control it was read as (`U+0081`).
    pub read_as: String,
    /// How many times it was met.
    pub count: u64,
}

/// One file of a [`RepairRecord`].
#[derive(Debug, Serialize)]
pub struct RepairFile {
    /// Its name.
    #[serde(flatten)]
    pub path: WirePath,
    /// Its size in bytes.
    pub size: u64,
    /// Its SHA-256, 64 lower-case hex digits.
    pub sha256: String,
}

/// `{"type":"change",...}`: one change of `repair --log`: at input offset `offset`, the
/// `len` bytes `old` (hex) were written as `new` (hex; empty for a removal); `kind` is what
/// the unit was (an error kind's name, `lone_surrogate`, `dialect_form`, `bom`, ...), `why`
/// the policy that changed it (`--invalid replace`).
#[derive(Debug, Serialize)]
pub struct ChangeRecord {
    /// Always `"change"`.
    #[serde(rename = "type")]
    pub record: &'static str,
    /// Offset of the old bytes in the input.
    pub offset: u64,
    /// How many bytes of the input were replaced (0 for an insertion).
    pub len: usize,
    /// What the unit was.
    pub kind: &'static str,
    /// The old bytes, lower-case hex.
    pub old: String,
    /// The new bytes, lower-case hex.
    pub new: String,
    /// The policy that made the change.
    pub why: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::scan;

    fn error_json(path: &WirePath, dialect: Dialect, bytes: &[u8], unit: &Unit) -> String {
        let position = LineColumn {
            line: 1,
            column: unit.start as u64 + 1,
        };
        to_line(&ErrorRecord::new(
            path, dialect, bytes, unit, position, None,
        ))
    }

    fn summary_json(path: &WirePath, dialect: Dialect, size: u64, tally: &Tally) -> String {
        let run = Invocation {
            argv: vec![
                "hexrune".into(),
                "check".into(),
                "--json".into(),
                "x".into(),
            ],
            ..Invocation::default()
        };
        to_line(&SummaryRecord::new(path, dialect, size, tally, &[], &run))
    }

    fn unit_json(dialect: Dialect, bytes: &[u8], unit: &Unit) -> String {
        to_line(&UnitRecord::new(dialect, bytes, unit, None))
    }

    #[test]
    fn error_objects() {
        let bytes = b"a\xC0\xAF\xE1\x80";
        let units: Vec<Unit> = Dialect::Utf8.units(bytes).collect();
        let path = WirePath::from_bytes(b"f.txt");
        assert_eq!(
            error_json(&path, Dialect::Utf8, bytes, &units[1]),
            r#"{"type":"error","path":"f.txt","offset":1,"len":1,"bytes":"c0","kind":"invalid_byte","diagnosis":"overlong form of U+002F '/'","line":1,"column":2}"#
        );
        assert_eq!(
            error_json(&path, Dialect::Utf8, bytes, &units[2]),
            r#"{"type":"error","path":"f.txt","offset":2,"len":1,"bytes":"af","kind":"unexpected_continuation","line":1,"column":3}"#
        );
        assert_eq!(
            error_json(&path, Dialect::Utf8, bytes, &units[3]),
            r#"{"type":"error","path":"f.txt","offset":3,"len":2,"bytes":"e180","kind":"truncated_eof","expected":"80..BF","line":1,"column":4}"#
        );
    }

    #[test]
    fn summaries() {
        let x = WirePath::from_bytes(b"x");
        let bytes = "a\u{E9}\u{20AC}".as_bytes();
        let mut tally = Tally::default();
        scan(Dialect::Utf8, bytes, &mut tally);
        assert_eq!(
            summary_json(&x, Dialect::Utf8, 6, &tally),
            concat!(
                r#"{"type":"summary","path":"x","size":6,"valid":true,"units":{"1":1,"2":1,"3":1,"4":0},"errors":{},"findings":{},"#,
                r#""hexrune_version":""#,
                env!("CARGO_PKG_VERSION"),
                r#"","dialect":"utf8","argv":["hexrune","check","--json","x"]}"#
            )
        );
        let mut tally = Tally::default();
        scan(Dialect::Legacy, b"\xF8\x88\x80\x80\x80\xFE", &mut tally);
        assert_eq!(
            summary_json(&x, Dialect::Legacy, 6, &tally),
            concat!(
                r#"{"type":"summary","path":"x","size":6,"valid":false,"units":{"1":0,"2":0,"3":0,"4":0,"5":1,"6":0},"errors":{"invalid_byte":1},"findings":{},"#,
                r#""hexrune_version":""#,
                env!("CARGO_PKG_VERSION"),
                r#"","dialect":"legacy","argv":["hexrune","check","--json","x"]}"#
            )
        );
        assert_eq!(summary_classes(Dialect::Cesu8), [1, 2, 3, 4, 6]);
    }

    #[test]
    fn at_objects() {
        let bytes = "\u{20AC}".as_bytes();
        let u = Dialect::Utf8.unit_containing(bytes, 2);
        assert_eq!(
            unit_json(Dialect::Utf8, bytes, &u),
            r#"{"offset":0,"len":3,"kind":"scalar","cp":8364,"class":3,"name":"EURO SIGN","alias":null,"category":"Sc","width":1,"plane":0,"block":"Currency Symbols"}"#
        );
        let bytes = b"\xED\xA0\x80";
        let u = Dialect::Utf8.unit_containing(bytes, 0);
        assert_eq!(
            unit_json(Dialect::Utf8, bytes, &u),
            r#"{"offset":0,"len":1,"kind":"error","error":"surrogate","expected":"80..9F","diagnosis":"UTF-16 surrogate U+D800 (lead half, not a character)"}"#
        );
    }

    /// Outside the UTF-8 family an error record ends with the encoding it was read in.
    #[test]
    fn encoding_is_the_last_key_outside_the_utf8_family() {
        let path = WirePath::from_bytes(b"g.txt");
        let greek = crate::encoding::resolve("windows-1253").unwrap();
        let bytes = b"a\xAA";
        let unit = greek.units(bytes).nth(1).unwrap();
        let position = LineColumn { line: 1, column: 2 };
        assert_eq!(
            to_line(&ErrorRecord::new(
                &path, greek, bytes, &unit, position, None
            )),
            r#"{"type":"error","path":"g.txt","offset":1,"len":1,"bytes":"aa","kind":"undefined_byte","diagnosis":"byte AA has no character in windows-1253; windows-1252 reads it as 'ª'","line":1,"column":2,"encoding":"windows-1253"}"#
        );
    }

    #[test]
    fn fallback_is_the_last_key_and_carries_the_real_text() {
        let path = WirePath::from_bytes(b"f.txt");
        let position = |unit: &Unit| LineColumn {
            line: 1,
            column: unit.start as u64 + 1,
        };
        let w = Fallback::windows_1252();
        let bytes = b"caf\xE9 \x81\x9B";
        let units: Vec<Unit> = Dialect::Utf8.units(bytes).collect();
        let record = |unit: &Unit, f: Option<&Fallback>| {
            to_line(&ErrorRecord::new(
                &path,
                Dialect::Utf8,
                bytes,
                unit,
                position(unit),
                f,
            ))
        };
        assert_eq!(
            record(&units[3], Some(&w)),
            r#"{"type":"error","path":"f.txt","offset":3,"len":1,"bytes":"e9","kind":"truncated","expected":"80..BF","diagnosis":"lone byte E9: 'é' in Latin-1/Windows-1252?","line":1,"column":4,"fallback":"é"}"#
        );
        // Without a fallback, the record is what it was, byte for byte.
        assert_eq!(
            record(&units[3], None),
            r#"{"type":"error","path":"f.txt","offset":3,"len":1,"bytes":"e9","kind":"truncated","expected":"80..BF","diagnosis":"lone byte E9: 'é' in Latin-1/Windows-1252?","line":1,"column":4}"#
        );
        // JSON carries the decoder's own text: windows-1252's hole 81 is U+0081, and
        // ISO-8859-2's 9B the C1 control CSI, escaped by JSON, not by the sanitiser.
        assert_eq!(
            record(&units[5], Some(&w)),
            r#"{"type":"error","path":"f.txt","offset":5,"len":1,"bytes":"81","kind":"unexpected_continuation","line":1,"column":6,"fallback":"\u0081"}"#
        );
        let latin2 = Fallback::from_label("iso-8859-2").unwrap().unwrap();
        assert!(record(&units[6], Some(&latin2)).ends_with(r#""column":7,"fallback":"\u009b"}"#));
        let at = |unit: &Unit| to_line(&UnitRecord::new(Dialect::Utf8, bytes, unit, Some(&w)));
        assert_eq!(
            at(&units[3]),
            r#"{"offset":3,"len":1,"kind":"error","error":"truncated","expected":"80..BF","diagnosis":"lone byte E9: 'é' in Latin-1/Windows-1252?","fallback":"é"}"#
        );
        // A scalar has no fallback.
        assert!(!at(&units[0]).contains("fallback"));
    }

    #[test]
    fn input_records() {
        let hash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        let path = WirePath::from_bytes(b"a\xffb");
        assert_eq!(
            to_line(&InputRecord::new(
                &path,
                0,
                hash,
                Some("2024-02-29T23:59:59Z")
            )),
            format!(
                r#"{{"type":"input","path":"a{}b","path_bytes":"Yf9i","size":0,"sha256":"{hash}","mtime":"2024-02-29T23:59:59Z"}}"#,
                '\u{FFFD}'
            )
        );
        let stdin = WirePath::from_bytes(b"<stdin>");
        assert_eq!(
            to_line(&InputRecord::new(&stdin, 3, hash, None)),
            format!(
                r#"{{"type":"input","path":"<stdin>","size":3,"sha256":"{hash}","mtime":null}}"#
            )
        );
    }

    #[test]
    fn arguments_are_escaped_like_any_string() {
        let run = Invocation {
            argv: vec!["hexrune".into(), "a\u{1b}[2J\u{9b}\u{FFFD}".into()],
            ..Invocation::default()
        };
        let tally = Tally::default();
        let path = WirePath::from_bytes(b"x");
        let line = to_line(&SummaryRecord::new(
            &path,
            Dialect::Utf8,
            0,
            &tally,
            &[],
            &run,
        ));
        assert!(
            line.ends_with("\"argv\":[\"hexrune\",\"a\\u001b[2J\\u009b\u{FFFD}\"]}"),
            "{line}"
        );
    }

    #[test]
    fn paths_are_lossless() {
        // A bidi override in a name is escaped as the controls are: `cat` of a report
        // cannot reorder it. JSON reads the escapes back as the same string.
        let line = to_line(&WirePath::from_bytes(b"a\x1b]0;T\x07\n\xe2\x80\xae.txt"));
        assert_eq!(line, "{\"path\":\"a\\u001b]0;T\\u0007\\n\\u202e.txt\"}");
        let back: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(back["path"], "a\u{1b}]0;T\u{7}\n\u{202E}.txt");
        assert_eq!(
            to_line(&WirePath::from_bytes(b"a\xffb")),
            r#"{"path":"a�b","path_bytes":"Yf9i"}"#
        );
    }

    #[test]
    fn strings_escape_what_the_sanitiser_always_escapes() {
        // DEL and C1, bidi controls and marks, zero-width characters, the BOM, separators,
        // the soft hyphen, a tag (as a surrogate pair), a noncharacter; letters, marks on
        // a base, emoji and their joiner's neighbours stay as they are.
        let text = "\u{7F}\u{9B}\u{61C}\u{200E}\u{202A}\u{2066}\u{200B}\u{FEFF}\u{2028}\u{AD}\u{E0041}\u{FFFE}é\u{301}中😀";
        let line = to_line(&text);
        assert_eq!(
            line,
            "\"\\u007f\\u009b\\u061c\\u200e\\u202a\\u2066\\u200b\\ufeff\\u2028\\u00ad\\udb40\\udc41\\ufffeé\u{301}中😀\""
        );
        assert_eq!(serde_json::from_str::<String>(&line).unwrap(), text);
    }

    #[test]
    fn ordered_objects_keep_their_order() {
        let counts = Ordered(vec![("b", 1), ("a", 2)]);
        assert_eq!(to_line(&counts), r#"{"b":1,"a":2}"#);
        assert_eq!(to_line(&Ordered::<&str, u8>::default()), "{}");
    }
}
