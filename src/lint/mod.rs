//! Lints on text that decodes: what a storage target refuses (`--target`) and the shapes
//! behind security advisories (`--security`), as plain data in input order.
//!
//! The lints run where the scan already has the input in cache: a [`Survey`] is handed
//! every block on the scan's workers ([`crate::scan::index::Summary::build_alongside_hooked`])
//! and counts what each block's stretch of lines holds; listing them walks again only the
//! stretches that hold some (see `survey.rs`). Before any walk, a sieve (`sieve/`) reads
//! the stretch once, sixty-four bytes at a time where they are ASCII or letters of one
//! or two scripts, and hands on only the lines where a lint could be (a character some lint
//! looks at, a word that mixes scripts, a long run of marks); in valid text most lines are
//! never walked. [`lint`] does the same after a scan, block by block on every core.
//!
//! The facts come from the specifications named in `docs/lint.md`: XML 1.0 (Fifth Edition)
//! and XML 1.1 (Second Edition) §2.2, RFC 8259 and RFC 7493 (I-JSON), UTS #39 (mixed
//! scripts and skeletons, through the `unicode-security` crate), UAX #9 (bidi controls),
//! UAX #15 (the stream-safe limit of 30 non-starters) and CVE-2021-42574 (Trojan Source).

mod checks;
mod lookalike;
mod runs;
mod sieve;
mod survey;
mod tables;

pub use checks::MAX_NON_STARTERS;
pub use survey::{reference, Linter, Survey, MAX_COMPARED_WORDS};

use crate::decode::Dialect;
use crate::scan::index::Summary;

/// A storage target: where the text is headed, and so what it must not contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    /// MySQL's `utf8` / `utf8mb3`: at most 3 bytes per character.
    MysqlUtf8mb3,
    /// PostgreSQL `text`: no NUL.
    Postgres,
    /// XML 1.0 (Fifth Edition) character data.
    Xml10,
    /// XML 1.1 (Second Edition) character data.
    Xml11,
    /// JSON (RFC 8259): no lone surrogate.
    Json,
    /// I-JSON (RFC 7493): no surrogate, no noncharacter.
    IJson,
}

impl Target {
    /// Every target, in the order `--help` lists them.
    pub const ALL: [Target; 6] = [
        Target::MysqlUtf8mb3,
        Target::Postgres,
        Target::Xml10,
        Target::Xml11,
        Target::Json,
        Target::IJson,
    ];

    /// The name `--target` takes.
    pub fn name(self) -> &'static str {
        match self {
            Target::MysqlUtf8mb3 => "mysql-utf8mb3",
            Target::Postgres => "postgres",
            Target::Xml10 => "xml-1.0",
            Target::Xml11 => "xml-1.1",
            Target::Json => "json",
            Target::IJson => "i-json",
        }
    }

    /// The target called `name`, one of the six names of [`Target::name`] in any case
    /// (`postgres`, `MySQL-utf8mb3`), and nothing else: no alias, no space around it. A
    /// loose name would mislead (`mysql` for utf8mb3, where MySQL 8's default utf8mb4 stores
    /// every character), so a word that is not a name is refused and the names listed.
    ///
    /// ```
    /// use hexrune::lint::Target;
    /// assert_eq!(Target::from_name("MySQL-utf8mb3"), Some(Target::MysqlUtf8mb3));
    /// assert_eq!(Target::from_name("mysql"), None);
    /// assert_eq!(Target::from_name(" postgres"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(name))
    }
}

/// What to look for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lints {
    /// The storage targets (each refusal is a finding).
    pub targets: Vec<Target>,
    /// The security shapes: overlong ASCII, bidi controls, invisible characters,
    /// confusables, Zalgo.
    pub security: bool,
}

impl Lints {
    /// Whether anything is asked.
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty() && !self.security
    }

    /// Whether `target` is asked.
    pub fn has(&self, target: Target) -> bool {
        self.targets.contains(&target)
    }
}

/// The finding kind of a U+FFFD REPLACEMENT CHARACTER already in the input: no lint (it
/// is reported whatever lints are asked, by `check` and the viewer alike), but a sign that
/// data was lost before the input was written. Its level is a warning.
pub const REPLACEMENT_CHARACTER: &str = "replacement-character";

/// What every [`REPLACEMENT_CHARACTER`] finding says.
pub const REPLACEMENT_MESSAGE: &str =
    "U+FFFD REPLACEMENT CHARACTER already in the input: something lost data before it was \
     written";

/// How much a lint matters, in SARIF's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// The target refuses it.
    Error,
    /// Likely wrong, or a known attack shape.
    Warning,
    /// Worth a look.
    Note,
}

/// The kinds of lint, each a finding kind of `check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// A character of U+10000 and above, for MySQL utf8mb3.
    FourByte,
    /// U+0000, for PostgreSQL.
    Nul,
    /// A character XML refuses as literal text.
    XmlForbidden,
    /// A character XML discourages (a warning).
    XmlDiscouraged,
    /// A lone surrogate (WTF-8, CESU-8, legacy UTF-8) headed for JSON.
    LoneSurrogate,
    /// A value above U+10FFFF (legacy UTF-8) headed for PostgreSQL or JSON.
    AboveUnicode,
    /// A noncharacter, for I-JSON.
    Noncharacter,
    /// An overlong form of an ASCII character.
    OverlongAscii,
    /// A bidirectional control.
    Bidi,
    /// A default-ignorable character where nothing needs one.
    Invisible,
    /// A word that mixes scripts and reads as a single-script one, or a word that reads as
    /// another of the input (the same UTS #39 skeleton).
    Confusable,
    /// More than 30 non-starters in a row (after NFKD, as UAX #15 counts).
    Zalgo,
}

impl Kind {
    /// Every kind, in the order the docs list them.
    pub const ALL: [Kind; 12] = [
        Kind::FourByte,
        Kind::Nul,
        Kind::XmlForbidden,
        Kind::XmlDiscouraged,
        Kind::LoneSurrogate,
        Kind::AboveUnicode,
        Kind::Noncharacter,
        Kind::OverlongAscii,
        Kind::Bidi,
        Kind::Invisible,
        Kind::Confusable,
        Kind::Zalgo,
    ];

    /// Its name in every output (`four-byte`, `overlong-ascii`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Kind::FourByte => "four-byte",
            Kind::Nul => "nul",
            Kind::XmlForbidden => "xml-forbidden",
            Kind::XmlDiscouraged => "xml-discouraged",
            Kind::LoneSurrogate => "lone-surrogate",
            Kind::AboveUnicode => "above-unicode",
            Kind::Noncharacter => "noncharacter",
            Kind::OverlongAscii => "overlong-ascii",
            Kind::Bidi => "bidi",
            Kind::Invisible => "invisible",
            Kind::Confusable => "confusable",
            Kind::Zalgo => "zalgo",
        }
    }

    /// What every lint of the kind is, in a few words (SARIF's rule description).
    pub fn rule(self) -> &'static str {
        match self {
            Kind::FourByte => "character above U+FFFF, which MySQL utf8mb3 cannot store",
            Kind::Nul => "U+0000 NUL, which PostgreSQL text cannot store",
            Kind::XmlForbidden => "character XML does not allow as literal text",
            Kind::XmlDiscouraged => "character XML discourages (§2.2)",
            Kind::LoneSurrogate => {
                "surrogate written in 3 bytes, which UTF-8 text (JSON, PostgreSQL) cannot carry"
            }
            Kind::AboveUnicode => {
                "value above U+10FFFF (legacy UTF-8), which Unicode text (PostgreSQL, JSON) cannot carry"
            }
            Kind::Noncharacter => "noncharacter, which I-JSON (RFC 7493) forbids",
            Kind::OverlongAscii => "overlong form of an ASCII character",
            Kind::Bidi => "bidirectional control character",
            Kind::Invisible => "invisible (default-ignorable) character out of context",
            Kind::Confusable => {
                "word mixing scripts that reads as a single-script word, or as another word"
            }
            Kind::Zalgo => "more than 30 combining marks on one base (UAX #15)",
        }
    }
}

/// One lint at a place in an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lint {
    /// Its kind.
    pub kind: Kind,
    /// Offset of its first byte.
    pub offset: usize,
    /// Number of bytes it covers (at least 1).
    pub len: usize,
    /// How much it matters.
    pub level: Level,
    /// What this one is, in a sentence (names and code points only: no byte of the input).
    pub message: String,
}

/// Every lint of `lints` in `bytes`, decoded in `dialect` and scanned into `summary`, in
/// input order (by offset), surveyed first (on every core). A caller that scans
/// anyway hands a [`Survey`] to the scan instead ([`Survey::look`]) and lists with
/// [`Survey::lints`].
pub fn lint<'a>(
    bytes: &'a [u8],
    dialect: Dialect,
    summary: &'a Summary,
    lints: &'a Lints,
) -> Linter<'a> {
    Linter::new(bytes, dialect, summary, lints)
}

/// Whether `b` is an ASCII byte of a word as the lints' words run: a letter, a digit or
/// `_`. Without branches, so that loops over bytes become vector code.
#[inline(always)]
fn is_word_byte(b: u8) -> bool {
    (b | 0x20).wrapping_sub(b'a') < 26 || b.wrapping_sub(b'0') < 10 || b == b'_'
}
