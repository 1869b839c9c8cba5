//! The one finding type every machine-readable output of `check` is built from: JSON Lines
//! (`error` and `finding` records), CSV rows and SARIF results. A new kind of finding (a
//! storage target's refusal, a security lint) is one more [`Finding`] with its own `kind`,
//! `rule` and [`Level`]; the three formats carry it without a change of theirs.
//!
//! This module knows units and their explanations; it knows no output format.

use crate::cli::report::{explain, unit_bytes};
use crate::decode::{Dialect, ErrorKind, Unit};
use crate::view::fallback::Fallback;

/// The kind of finding `check` reports for a U+FFFD already in the input (the viewer's too).
pub const REPLACEMENT_CHARACTER: &str = crate::lint::REPLACEMENT_CHARACTER;

/// How much a finding matters, in SARIF's words (`error`, `warning`, `note`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// The input is not valid (an error unit), or its target refuses it.
    Error,
    /// Valid, but likely wrong for its use.
    Warning,
    /// Valid and worth a look.
    Note,
}

impl Level {
    /// `error`, `warning` or `note`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
        }
    }
}

/// Which JSON Lines record a finding is written as: `{"type":"error"}` for an error unit
/// (the input is invalid), `{"type":"finding"}` for everything else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Record {
    /// An error unit of the dialect.
    Error,
    /// Something valid worth reporting.
    Finding,
}

/// One thing `check` reports at a place in an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The JSON record it is written as.
    pub record: Record,
    /// Offset of its first byte in the input.
    pub offset: u64,
    /// Its bytes (at least one).
    pub bytes: Vec<u8>,
    /// Its kind: an error kind's name (`truncated`) or a finding's (`replacement-character`).
    pub kind: &'static str,
    /// What every finding of this kind is, in a few words (SARIF's rule description).
    pub rule: &'static str,
    /// How much it matters.
    pub level: Level,
    /// What this one is, in a sentence (its diagnosis included).
    pub message: String,
    /// The line it starts on, from 1.
    pub line: u64,
    /// The unit it starts at within its line, from 1.
    pub column: u64,
    /// The byte range allowed where an error's sequence stopped (`80..BF`).
    pub expected: Option<String>,
    /// What a lax reading says an error's bytes are.
    pub diagnosis: Option<String>,
    /// An error's bytes as the fallback encoding reads them (the decoder's own text).
    pub fallback: Option<String>,
    /// The encoding an error was read in, where it is not of the UTF-8 family (UTF-16,
    /// UTF-32, a legacy encoding); `None` in the UTF-8 family, whose dialect the command
    /// names once.
    pub encoding: Option<&'static str>,
}

impl Finding {
    /// The finding of error unit `unit` of `bytes` in `dialect`, starting at `line` and
    /// `column`, read in `fallback` too where there is one.
    pub fn error(
        dialect: Dialect,
        bytes: &[u8],
        unit: &Unit,
        (line, column): (u64, u64),
        fallback: Option<&Fallback>,
    ) -> Finding {
        let kind = unit.error_kind();
        Finding {
            record: Record::Error,
            offset: unit.start as u64,
            bytes: unit_bytes(bytes, unit).to_vec(),
            kind: kind.map(ErrorKind::name).unwrap_or("none"),
            rule: kind.map(|k| dialect.kind_summary(k)).unwrap_or_default(),
            level: Level::Error,
            message: explain(dialect, bytes, unit, fallback),
            line,
            column,
            expected: dialect.expected(bytes, unit).map(|r| r.to_string()),
            diagnosis: dialect.diagnose(bytes, unit).map(|d| d.to_string()),
            fallback: fallback.map(|f| f.read(unit_bytes(bytes, unit))),
            encoding: dialect.code_unit_width().map(|_| dialect.encoding_name()),
        }
    }

    /// The finding of a U+FFFD REPLACEMENT CHARACTER at `unit`.
    pub fn replacement(bytes: &[u8], unit: &Unit, (line, column): (u64, u64)) -> Finding {
        Finding {
            record: Record::Finding,
            offset: unit.start as u64,
            bytes: unit_bytes(bytes, unit).to_vec(),
            kind: REPLACEMENT_CHARACTER,
            rule: "U+FFFD REPLACEMENT CHARACTER in the input",
            level: Level::Warning,
            message: crate::lint::REPLACEMENT_MESSAGE.to_string(),
            line,
            column,
            expected: None,
            diagnosis: None,
            fallback: None,
            encoding: None,
        }
    }

    /// The finding of lint `lint` (`--target`, `--security`) of `bytes`, at `line` and
    /// `column`.
    pub fn lint(bytes: &[u8], lint: &crate::lint::Lint, (line, column): (u64, u64)) -> Finding {
        let end = (lint.offset + lint.len).min(bytes.len());
        Finding {
            record: Record::Finding,
            offset: lint.offset as u64,
            bytes: bytes[lint.offset..end].to_vec(),
            kind: lint.kind.name(),
            rule: lint.kind.rule(),
            level: match lint.level {
                crate::lint::Level::Error => Level::Error,
                crate::lint::Level::Warning => Level::Warning,
                crate::lint::Level::Note => Level::Note,
            },
            message: lint.message.clone(),
            line,
            column,
            expected: None,
            diagnosis: None,
            fallback: None,
            encoding: None,
        }
    }

    /// How many bytes it covers.
    pub fn len(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// Whether it covers no byte (never, for the findings `check` makes).
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_unit_carries_its_explanation() {
        let bytes = b"ab\xC0\xAF";
        let unit = Dialect::Utf8.unit_containing(bytes, 2);
        let f = Finding::error(Dialect::Utf8, bytes, &unit, (1, 3), None);
        assert_eq!(f.record, Record::Error);
        assert_eq!((f.offset, f.len(), f.kind), (2, 1, "invalid_byte"));
        assert_eq!(f.level, Level::Error);
        assert_eq!(f.diagnosis.as_deref(), Some("overlong form of U+002F '/'"));
        assert_eq!(f.message, explain(Dialect::Utf8, bytes, &unit, None));
        assert_eq!(f.rule, ErrorKind::InvalidByte.summary());
        let w = Fallback::windows_1252();
        let f = Finding::error(Dialect::Utf8, bytes, &unit, (1, 3), Some(&w));
        assert_eq!(f.fallback.as_deref(), Some("\u{C0}"));
    }

    #[test]
    fn a_replacement_character_is_a_warning() {
        let bytes = "x\u{FFFD}".as_bytes();
        let unit = Dialect::Utf8.unit_containing(bytes, 1);
        let f = Finding::replacement(bytes, &unit, (1, 2));
        assert_eq!(f.record, Record::Finding);
        assert_eq!((f.offset, f.bytes.as_slice()), (1, &b"\xEF\xBF\xBD"[..]));
        assert_eq!((f.kind, f.level.name()), (REPLACEMENT_CHARACTER, "warning"));
    }
}
