//! The policies of `hexrune repair`: what an error unit becomes (`--invalid`), which escapes
//! are restored (`--unescape`), the dialect the input is read in (`--dialect`) and what
//! happens to byte order marks (`--bom`); and the names of what a change was and how it was
//! made, which the summary and the log print.

use core::fmt;

use crate::decode::{Dialect, ErrorKind};
use crate::detect::mojibake::MAX_CHAIN;
use crate::detect::table::Legacy;
use crate::view::fallback::{Escape, Fallback};

/// What an error unit (or a unit the output cannot hold: a lone surrogate, a value above
/// U+10FFFF) becomes: `--invalid`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Invalid {
    /// One U+FFFD (EF BF BD) per unit: per maximal subpart, as hexrune shows them.
    #[default]
    Replace,
    /// Nothing.
    Drop,
    /// The unit's bytes read in a legacy encoding; a byte it leaves undefined becomes U+FFFD.
    Fallback(Fallback),
    /// Each byte b written as the escape's code point (U+EF00+b, or U+DC00+b in WTF-8).
    Escape(Escape),
    /// The bytes as they are.
    Keep,
}

impl Invalid {
    /// Parses `replace`, `drop`, `keep`, `fallback`, `fallback=LABEL`, `escape=optu8`,
    /// `escape=pep383`.
    ///
    /// ```
    /// use hexrune::repair::Invalid;
    /// use hexrune::view::fallback::Escape;
    /// assert_eq!(Invalid::parse("escape=optu8"), Ok(Invalid::Escape(Escape::Optu8)));
    /// assert_eq!(Invalid::parse("fallback").unwrap().to_string(), "fallback=windows-1252");
    /// assert!(Invalid::parse("fallback=none").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Invalid, String> {
        let (name, value) = match text.split_once('=') {
            Some((name, value)) => (name.trim(), Some(value.trim())),
            None => (text.trim(), None),
        };
        match (name.to_ascii_lowercase().as_str(), value) {
            ("replace", None) => Ok(Invalid::Replace),
            ("drop", None) => Ok(Invalid::Drop),
            ("keep", None) => Ok(Invalid::Keep),
            ("fallback", None) => Ok(Invalid::Fallback(Fallback::windows_1252())),
            ("fallback", Some(label)) => match Fallback::from_label(label) {
                Ok(Some(f)) => fallback_reads_units(f).map(|()| Invalid::Fallback(f)),
                Ok(None) => Err("fallback=none reads nothing; use replace or drop".to_string()),
                Err(e) => Err(e.to_string()),
            },
            ("escape", Some(scheme)) => Escape::from_name(scheme)
                .map(Invalid::Escape)
                .ok_or_else(|| "unknown escape (expected escape=optu8 or escape=pep383)".into()),
            _ => Err(format!(
                "unknown policy '{}' (expected replace, drop, fallback[=LABEL], escape=optu8, escape=pep383 or keep)",
                crate::view::safe::sanitize(text)
            )),
        }
    }

    /// Whether every unit this policy writes is valid UTF-8.
    pub fn writes_utf8(self) -> bool {
        !matches!(self, Invalid::Escape(Escape::Pep383) | Invalid::Keep)
    }
}

/// Whether `--from` can read an input in `dialect`: not in x-user-defined, whose every
/// byte 80..FF is a private-use character (as for the fallback: no text). Why not, in a
/// sentence.
pub(crate) fn from_reads_text(dialect: Dialect) -> Result<(), String> {
    let name = dialect.encoding_name();
    if name == encoding_rs::X_USER_DEFINED.name() {
        return Err(format!(
            "{name} reads each byte 80..FF as a private-use character (U+F780..U+F7FF), not as text; give the encoding the bytes were written in (windows-1252, latin2, ...), or leave out --from and escape them with --invalid escape=optu8"
        ));
    }
    Ok(())
}

/// Whether `fallback` can read an error unit on its own, as `--invalid fallback` reads
/// each: a single-byte encoding that reads bytes as text. Why not, in a sentence.
pub(crate) fn fallback_reads_units(fallback: Fallback) -> Result<(), String> {
    let name = fallback.name();
    if !fallback.is_single_byte() {
        return Err(format!(
            "{name} reads several bytes as one character, and an error unit is read alone; give a single-byte encoding, or --from {name} to read the whole input in it"
        ));
    }
    // Its every byte 80..FF is a private-use character: it would write no text, and count
    // each unit as read.
    if name == encoding_rs::X_USER_DEFINED.name() {
        return Err(format!(
            "{name} reads each byte 80..FF as a private-use character (U+F780..U+F7FF), not as text; give the encoding the bytes were written in (windows-1252, latin2, ...), or escape=optu8 to keep them reversibly"
        ));
    }
    Ok(())
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invalid::Replace => f.write_str("replace"),
            Invalid::Drop => f.write_str("drop"),
            Invalid::Fallback(fb) => write!(f, "fallback={}", fb.name()),
            Invalid::Escape(e) => write!(f, "escape={}", e.name()),
            Invalid::Keep => f.write_str("keep"),
        }
    }
}

/// What happens to U+FEFF: `--bom`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bom {
    /// As it is, at the start and in mid-file (a mid-file one is counted in the summary).
    #[default]
    Keep,
    /// Removed at the start and in mid-file.
    Strip,
    /// Written at the start unless one is there.
    Add,
}

impl Bom {
    /// `keep`, `strip` or `add`.
    pub fn from_name(name: &str) -> Option<Bom> {
        match name {
            "keep" => Some(Bom::Keep),
            "strip" => Some(Bom::Strip),
            "add" => Some(Bom::Add),
            _ => None,
        }
    }

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Bom::Keep => "keep",
            Bom::Strip => "strip",
            Bom::Add => "add",
        }
    }
}

/// Everything `repair` was asked to do.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Policy {
    /// What an error unit becomes.
    pub invalid: Invalid,
    /// The escape whose sequences are turned back into their bytes, if any.
    pub unescape: Option<Escape>,
    /// The dialect the input is read in; the output is standard UTF-8.
    pub dialect: Dialect,
    /// What happens to byte order marks.
    pub bom: Bom,
    /// The encoding the input is in, when it is not the UTF-8 family (`--from`).
    pub from: Option<FromEncoding>,
    /// Undo the mojibake detection finds (`--mojibake`).
    pub mojibake: bool,
}

/// The encoding of an input given with `--from`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FromEncoding {
    /// Whatever `hexrune detect` says the input is (needs the whole input: a file).
    Auto,
    /// A dialect of the decoder: UTF-16/32, a single-byte or multi-byte legacy encoding,
    /// or the UTF-8 family.
    Dialect(Dialect),
}

impl FromEncoding {
    /// `auto`, or any label [`crate::encoding::resolve`] knows, or the label of a
    /// multi-byte legacy encoding of encoding_rs (Shift_JIS, EUC-JP, ISO-2022-JP, EUC-KR,
    /// GBK, GB18030, Big5).
    ///
    /// ```
    /// use hexrune::repair::FromEncoding;
    /// assert_eq!(FromEncoding::parse("auto"), Ok(FromEncoding::Auto));
    /// assert_eq!(FromEncoding::parse("sjis").unwrap().name(), "Shift_JIS");
    /// assert_eq!(FromEncoding::parse("latin1").unwrap().name(), "windows-1252");
    /// assert_eq!(FromEncoding::parse("utf-16le").unwrap().name(), "UTF-16LE");
    /// assert!(FromEncoding::parse("iso-2022-kr").is_err());
    /// ```
    pub fn parse(label: &str) -> Result<FromEncoding, String> {
        let label = label.trim();
        if label.eq_ignore_ascii_case("auto") {
            return Ok(FromEncoding::Auto);
        }
        let dialect = crate::encoding::resolve(label).map_err(crate::view::safe::encoding_error)?;
        from_reads_text(dialect).map(|()| FromEncoding::Dialect(dialect))
    }

    /// The encoding's name (`auto` for [`FromEncoding::Auto`]).
    pub fn name(self) -> &'static str {
        match self {
            FromEncoding::Auto => "auto",
            FromEncoding::Dialect(d) => d.encoding_name(),
        }
    }
}

/// The encodings a mojibake region went through, outermost first (at most
/// [`MAX_CHAIN`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chain {
    len: u8,
    links: [Legacy; MAX_CHAIN],
}

impl Chain {
    /// The chain of `links` (the first [`MAX_CHAIN`]).
    pub fn new(links: &[Legacy]) -> Chain {
        let mut chain = Chain {
            len: 0,
            links: [Legacy::Windows1252; MAX_CHAIN],
        };
        for (slot, link) in chain.links.iter_mut().zip(links) {
            *slot = *link;
            chain.len += 1;
        }
        chain
    }

    /// The encodings, outermost first.
    pub fn links(&self) -> &[Legacy] {
        &self.links[..usize::from(self.len)]
    }

    /// The names in the order the text went through them, innermost (the first wrong
    /// reading) first, joined by ", then ": the history, as the summary, the log and
    /// `hexrune detect` say it.
    ///
    /// ```
    /// use hexrune::detect::table::Legacy;
    /// use hexrune::repair::Chain;
    /// let chain = Chain::new(&[Legacy::Windows1252, Legacy::Windows1250]);
    /// assert_eq!(chain.history(), "windows-1250, then windows-1252");
    /// ```
    pub fn history(&self) -> String {
        history(self.links().iter().map(|l| l.name()))
    }
}

/// Names of a chain given outermost first, said in the order the text went through them:
/// `windows-1250, then windows-1252`.
pub fn history<'a>(outermost_first: impl DoubleEndedIterator<Item = &'a str>) -> String {
    let names: Vec<&str> = outermost_first.rev().collect();
    names.join(", then ")
}

/// What a changed (or counted) unit was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// An error unit of the dialect.
    Error(ErrorKind),
    /// A surrogate code point the dialect allows alone (MUTF-8, WTF-8, legacy).
    LoneSurrogate,
    /// A value above U+10FFFF (legacy UTF-8).
    AboveUnicode,
    /// A character written in the dialect's own form, not UTF-8's (a CESU-8 or MUTF-8
    /// surrogate pair, MUTF-8's C0 80).
    DialectForm,
    /// U+FEFF at the start.
    Bom,
    /// U+FEFF after the start.
    MidFileBom,
    /// A genuine U+EF80..U+EFFF, which OPTU-8 escapes byte by byte to stay reversible.
    GenuineOptu8,
    /// An escape sequence of an escaping codec.
    Escaped(Escape),
    /// A region of UTF-8 text that went through a wrong decoding (`--mojibake`).
    Mojibake,
}

impl Kind {
    /// The stable machine name, as the log writes it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Error(k) => k.name(),
            Kind::LoneSurrogate => "lone_surrogate",
            Kind::AboveUnicode => "above_unicode",
            Kind::DialectForm => "dialect_form",
            Kind::Bom => "bom",
            Kind::MidFileBom => "mid_file_bom",
            Kind::GenuineOptu8 => "genuine_optu8",
            Kind::Escaped(Escape::Optu8) => "optu8_escape",
            Kind::Escaped(Escape::Pep383) => "pep383_escape",
            Kind::Mojibake => "mojibake",
        }
    }
}

/// How a unit was changed (or that it was kept).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// U+FFFD written.
    Replace,
    /// Removed.
    Drop,
    /// Read in the named legacy encoding, which has a character for every byte.
    Fallback(&'static str),
    /// Under `--invalid fallback`, a unit the named encoding has a character for in part:
    /// those read, U+FFFD for each byte it leaves undefined.
    FallbackPart(&'static str),
    /// Under `--invalid fallback`, a unit the named encoding has no character for: U+FFFD
    /// for each byte.
    FallbackNone(&'static str),
    /// Each byte escaped.
    Escape(Escape),
    /// An escape turned back into its byte.
    Unescape(Escape),
    /// The character written in UTF-8's form.
    Reencode(Dialect),
    /// A BOM removed.
    Strip,
    /// A BOM written.
    Add,
    /// Left as it was (counted, not changed).
    Keep,
    /// Mojibake undone: encoded back through the chain, decoded as UTF-8.
    Mojibake(Chain),
}

impl Action {
    /// The policy that asked for the change, as the log's `why` says it.
    pub fn why(self) -> String {
        match self {
            Action::Replace => "--invalid replace".into(),
            Action::Drop => "--invalid drop".into(),
            Action::Fallback(name) | Action::FallbackPart(name) | Action::FallbackNone(name) => {
                format!("--invalid fallback={name}")
            }
            Action::Escape(e) => format!("--invalid escape={}", e.name()),
            Action::Unescape(e) => format!("--unescape {}", e.name()),
            Action::Reencode(d) => format!("--dialect {}", d.name()),
            Action::Strip => "--bom strip".into(),
            Action::Add => "--bom add".into(),
            Action::Keep => "--invalid keep".into(),
            Action::Mojibake(chain) => format!("--mojibake: UTF-8 read as {}", chain.history()),
        }
    }

    /// What was done, for the summary: "replaced with U+FFFD".
    pub fn done(self) -> String {
        match self {
            Action::Replace => "replaced with U+FFFD".into(),
            Action::Drop => "dropped".into(),
            Action::Fallback(name) => format!("read in {name}"),
            Action::FallbackPart(name) => {
                format!("read in {name}, U+FFFD for the bytes it leaves undefined")
            }
            Action::FallbackNone(name) => format!("replaced with U+FFFD (undefined in {name})"),
            Action::Escape(e) => format!("escaped byte by byte ({})", e.codec()),
            Action::Unescape(e) => format!("turned back into bytes ({})", e.codec()),
            Action::Reencode(d) => format!("written in UTF-8's form (from {})", d.name()),
            Action::Strip => "removed".into(),
            Action::Add => "added".into(),
            Action::Keep => "kept unchanged".into(),
            Action::Mojibake(chain) => format!("undone (UTF-8 read as {})", chain.history()),
        }
    }
}
