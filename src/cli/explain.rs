//! `hexrune explain BYTES` and `hexrune explain --char C`: the anatomy of a few bytes, or the
//! encodings of one code point, for learners and quick checks.
//!
//! Bytes are explained one by one (hex, decimal, octal, the bit pattern split into marker
//! and payload, the role in each dialect) and then as the units every dialect cuts them
//! into. A code point is explained the other way round: its payload bits distributed into
//! the lead and continuation bytes of each dialect's form, and its UTF-16 code units.
//!
//! # The bit notation
//!
//! A byte's bits are written as its *marker* (the fixed high bits that give its role: `0`,
//! `10`, `110`, `1110`, ...) and its *payload* (the bits that carry the value), separated by
//! a space, with markers right-aligned so that payloads line up: `1110 0010` is the lead
//! `E2`, `10 000010` the continuation `82`. It is plain ASCII, the same notation as
//! `docs/decoding.md`.
//!
//! Nothing from the input reaches the terminal as-is: characters are shown between quotes
//! only where [`crate::view::unicode::glyph`] finds it safe, and arguments quoted in error
//! messages are escaped by [`crate::view::safe::sanitize`]. What a code point is comes from
//! [`crate::view::unicode::facts`], as it does for the detail pane and `hexrune at`.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::{report_error, EXIT_ERROR, EXIT_OK};
use crate::cli::report::{explain, hex_spaced, safe_name, unit_bytes};
use crate::cli::wire::{to_line, BytesRecord, ClustersRecord, CodePointRecord};
use crate::decode::{ByteRole, CodePoint, Dialect, Encoded, Unit, UnitKind, Utf16, MAX_LEGACY};
use crate::view::cluster::{self, Joint};
use crate::view::fallback::{Escape, Fallback};
use crate::view::unicode::{describe, facts, NOT_UNICODE};

/// What `hexrune explain` was asked, as the user wrote it; [`run`] parses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Query {
    /// Bytes in hex (`e2 82 ac`, `e282ac`, `\xe2\x82\xac`, `0xE2 0x82 0xAC`).
    Bytes(String),
    /// One character, or a code point written `U+XXXX`.
    Char(String),
    /// Bytes as the shell passed them, when the arguments are not UTF-8 (`$'\xe9'`):
    /// explained exactly as their hex spelling is.
    Raw(Vec<u8>),
    /// `--char` given bytes that are not UTF-8: no character, an error that says how to
    /// explain them.
    RawChar(Vec<u8>),
}

/// What `hexrune explain` was asked.
#[derive(Clone, Debug)]
pub struct ExplainOptions {
    /// The bytes or the character.
    pub query: Query,
    /// One JSON object instead of the human explanation.
    pub json: bool,
    /// The encoding UTF-8's error units are also read in (`--fallback`), if any.
    pub fallback: Option<Fallback>,
}

/// Explains the query; exit 0, or 2 (with one line on `err`) if it does not parse.
pub fn run(options: &ExplainOptions, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<u8> {
    let text = match &options.query {
        // Bytes are written in hex, which is ASCII: anything else is text, whose grapheme
        // clusters are explained.
        Query::Bytes(text) if !text.is_ascii() => Ok(if options.json {
            to_line(&ClustersRecord::new(text)) + "\n"
        } else {
            explain_text(text)
        }),
        Query::Bytes(text) => parse_bytes(text).map(|bytes| {
            let fallback = options.fallback.as_ref();
            if options.json {
                bytes_json(&bytes, fallback) + "\n"
            } else {
                explain_bytes(&bytes, fallback)
            }
        }),
        Query::Raw(bytes) => Ok(if options.json {
            bytes_json(bytes, options.fallback.as_ref()) + "\n"
        } else {
            explain_bytes(bytes, options.fallback.as_ref())
        }),
        Query::RawChar(bytes) => {
            let hex = hex_spaced(bytes);
            Err(format!(
                "the character given is not UTF-8 (bytes {hex}); to explain the bytes, \
                 leave out --char: hexrune explain {}",
                hex.replace(' ', "")
            ))
        }
        Query::Char(text) => parse_char(text).map(|cp| {
            if options.json {
                code_point_json(cp) + "\n"
            } else {
                explain_code_point(cp)
            }
        }),
    };
    match text {
        Ok(text) => {
            out.write_all(text.as_bytes())?;
            Ok(EXIT_OK)
        }
        Err(cause) => {
            report_error(err, "explain", &cause)?;
            Ok(EXIT_ERROR)
        }
    }
}

// ---------------------------------------------------------------------------------------
// Parsing

/// Parses bytes written in hex: pairs of hex digits, in any case, optionally prefixed by
/// `\x` or `0x`, separated (or not) by spaces or commas.
///
/// ```
/// use hexrune::cli::explain::parse_bytes;
/// for text in ["e2 82 ac", "E282AC", r"\xe2\x82\xac", "0xE2 0x82 0xAC", "e2,82,ac"] {
///     assert_eq!(parse_bytes(text), Ok(vec![0xE2, 0x82, 0xAC]));
/// }
/// assert!(parse_bytes("e2 8").is_err());
/// ```
pub fn parse_bytes(text: &str) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let tokens = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty());
    // One letter or digit alone is as likely the character itself (`explain A`).
    let alone = text.trim();
    let character = |e: String| {
        if alone.len() != 1 || !alone.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return e;
        }
        let hint = format!("for the character '{alone}' itself, explain --char {alone}");
        match e.strip_suffix(')') {
            Some(open) => format!("{open}; {hint})"),
            None => format!("{e}; {hint}"),
        }
    };
    for token in tokens {
        parse_token(token, &mut bytes).map_err(character)?;
    }
    if bytes.is_empty() && !text.trim_matches([' ', ',']).is_empty() {
        // Only line breaks, tabs and the like: the characters themselves, not hex.
        let hex: Vec<String> = text.bytes().map(|b| format!("{b:02x}")).collect();
        return Err(format!(
            "only whitespace given, which is read as the space between hex bytes; for \
             these characters write their bytes: {}",
            hex.join(" ")
        ));
    }
    if bytes.is_empty() {
        return Err("no bytes given (write them in hex: e2 82 ac)".to_string());
    }
    Ok(bytes)
}

/// One whitespace-separated token: groups of hex digit pairs, each optionally after a
/// `\x` or `0x` prefix.
fn parse_token(token: &str, bytes: &mut Vec<u8>) -> Result<(), String> {
    if token.contains('%') {
        return percent_token(token, bytes);
    }
    let mut rest = token;
    while !rest.is_empty() {
        if let Some(after_prefix) = strip_prefix(rest) {
            rest = after_prefix;
        }
        let digits_end = rest
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(rest.len());
        let (digits, after) = rest.split_at(digits_end);
        if rest.is_empty() {
            return Err(format!(
                "no hex digits after the prefix in '{}'",
                safe_name(token)
            ));
        }
        if digits.is_empty() {
            return Err(not_hex(token, rest));
        }
        if !after.is_empty() && strip_prefix(after).is_none() {
            return Err(not_hex(token, after));
        }
        if digits.len() % 2 == 1 {
            return Err(format!(
                "odd number of hex digits in '{}' (write every byte as two digits: 0e, not e)",
                safe_name(token)
            ));
        }
        for pair in digits.as_bytes().chunks(2) {
            let pair = std::str::from_utf8(pair).unwrap_or_default();
            bytes.push(u8::from_str_radix(pair, 16).map_err(|_| not_hex(token, pair))?);
        }
        rest = after;
    }
    Ok(())
}

/// A token as a URL writes bytes: `%` and two hex digits for a byte, any other character
/// for its own bytes (`caf%C3%A9` is `63 61 66 c3 a9`).
fn percent_token(token: &str, bytes: &mut Vec<u8>) -> Result<(), String> {
    let raw = token.as_bytes();
    let mut i = 0;
    while i < raw.len() {
        if raw[i] != b'%' {
            bytes.push(raw[i]);
            i += 1;
            continue;
        }
        let pair = raw
            .get(i + 1..i + 3)
            .and_then(|p| std::str::from_utf8(p).ok());
        match pair.and_then(|p| {
            u8::from_str_radix(p, 16)
                .ok()
                .filter(|_| !p.starts_with('+'))
        }) {
            Some(b) => bytes.push(b),
            None => {
                return Err(format!(
                "'%' at {} in '{}' is not followed by two hex digits (a URL writes a byte as %C3)",
                i + 1,
                safe_name(token)
            ))
            }
        }
        i += 3;
    }
    Ok(())
}

fn strip_prefix(text: &str) -> Option<&str> {
    ["\\x", "\\X", "0x", "0X"]
        .iter()
        .find_map(|p| text.strip_prefix(p))
}

/// The error for a token whose tail `at` does not start with a hex digit.
fn not_hex(token: &str, at: &str) -> String {
    let c = at.chars().next().unwrap_or(' ');
    let before = token[..token.len() - at.len()].chars().next_back();
    let mut message = format!(
        "'{}' in '{}' is not a hex digit",
        safe_name(&c.to_string()),
        safe_name(token)
    );
    if !token.is_ascii() {
        // Not reached from the command line, which explains such text as clusters.
        message.push_str("; to explain a character, use --char");
    } else if let Some(cp) = code_point_spelling(token) {
        // A code point written as Unicode, JSON, Java or Rust write one: not bytes.
        message.push_str(&format!(
            "; {} is a code point, not bytes: explain it with --char U+{cp:04X}",
            safe_name(token)
        ));
    } else if (c == 'x' || c == 'X') && before == Some('0') {
        message.push_str("; separate 0x-prefixed bytes with spaces: 0xE2 0x82");
    } else if c == 'x' || c == 'X' {
        message.push_str(r"; quote \x escapes so the shell keeps the backslash: '\xe2\x82\xac'");
    }
    message
}

/// The code point `token` names, where it is written as a code point is (`U+00E9`,
/// `\u00e9`, `\u{e9}`, `\U000000E9`) and not as bytes.
fn code_point_spelling(token: &str) -> Option<u32> {
    let digits = ["U+", "u+", "\\u{", "\\u", "\\U"]
        .iter()
        .find_map(|p| token.strip_prefix(p))?;
    let digits = match token.starts_with("\\u{") {
        true => digits.strip_suffix('}')?,
        false => digits,
    };
    let hex = (1..=8).contains(&digits.len()) && digits.chars().all(|c| c.is_ascii_hexdigit());
    hex.then(|| u32::from_str_radix(digits, 16).ok()).flatten()
}

/// Parses a code point: one character, or `U+` and 1 to 8 hex digits up to U+7FFFFFFF
/// (surrogates and values above U+10FFFF included: some dialects encode them).
///
/// ```
/// use hexrune::cli::explain::parse_char;
/// use hexrune::decode::CodePoint;
/// assert_eq!(parse_char("€"), Ok(CodePoint::new(0x20AC)));
/// assert_eq!(parse_char("U+1F600"), Ok(CodePoint::new(0x1F600)));
/// assert_eq!(parse_char("u+d800"), Ok(CodePoint::new(0xD800)));
/// assert!(parse_char("e\u{301}").is_err()); // two code points
/// ```
pub fn parse_char(text: &str) -> Result<CodePoint, String> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (None, _) => return Err("no character given (give one, or U+XXXX)".to_string()),
        (Some(c), None) => return Ok(CodePoint::new(c as u32)),
        _ => {}
    }
    if let Some(hex) = text.strip_prefix("U+").or_else(|| text.strip_prefix("u+")) {
        let valid = !hex.is_empty() && hex.len() <= 8 && hex.chars().all(|c| c.is_ascii_hexdigit());
        let value = u32::from_str_radix(hex, 16).ok().filter(|_| valid);
        return match value {
            Some(v) if CodePoint::new(v) <= MAX_LEGACY => Ok(CodePoint::new(v)),
            Some(_) => Err(format!(
                "{} is above U+7FFFFFFF, the largest value any form of UTF-8 can write",
                safe_name(text)
            )),
            None => Err(format!(
                "'{}' is not a code point (U+ and 1 to 8 hex digits: U+20AC)",
                safe_name(text)
            )),
        };
    }
    let count = text.chars().count();
    let listed: Vec<String> = text
        .chars()
        .take(8)
        .map(|c| CodePoint::new(c as u32).to_string())
        .collect();
    let more = if count > 8 { " ..." } else { "" };
    // What was likely meant: text's clusters, or a number as a code point.
    let hint = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        _ if !text.is_ascii() => {
            "; or leave out --char to see the text's grapheme clusters and their code points"
                .to_string()
        }
        Some(hex) if (1..=8).contains(&hex.len()) && hex.chars().all(|c| c.is_ascii_hexdigit()) => {
            let value = u32::from_str_radix(hex, 16).unwrap_or_default();
            format!(" (this one: U+{value:04X})")
        }
        _ => match code_point_spelling(text) {
            Some(cp) => format!(" (this one: U+{cp:04X})"),
            // Bytes written as escapes (`%C3%A9`, `\xc3\xa9`): explained without --char.
            None if text.contains(['%', '\\']) => match parse_bytes(text) {
                Ok(bytes) => format!(
                    "; or, for these bytes, leave out --char: hexrune explain {}",
                    hex_spaced(&bytes).replace(' ', "")
                ),
                Err(_) => String::new(),
            },
            None => String::new(),
        },
    };
    Err(format!(
        "'{}' is {count} code points ({}{more}); give one character, or one code point as U+XXXX{hint}",
        safe_name(text),
        listed.join(" ")
    ))
}

// ---------------------------------------------------------------------------------------
// Bits

/// The marker and payload bits of a byte, as strings of `0` and `1`: the marker is the run
/// of leading one bits and the zero that ends it (all eight bits for `FF`), the payload the
/// bits after it.
///
/// ```
/// use hexrune::cli::explain::marker_and_payload;
/// assert_eq!(marker_and_payload(0xE2), ("1110".to_string(), "0010".to_string()));
/// assert_eq!(marker_and_payload(0x41), ("0".to_string(), "1000001".to_string()));
/// assert_eq!(marker_and_payload(0xFF), ("11111111".to_string(), String::new()));
/// ```
pub fn marker_and_payload(byte: u8) -> (String, String) {
    let marker_len = (byte.leading_ones() as usize + 1).min(8);
    let all = format!("{byte:08b}");
    let (marker, payload) = all.split_at(marker_len);
    (marker.to_string(), payload.to_string())
}

/// The payload slot sizes of a sequence of `len` bytes (1 to 6), lead first: `[7]`,
/// `[5, 6]`, `[4, 6, 6]`, ... `[1, 6, 6, 6, 6, 6]`.
///
/// ```
/// use hexrune::cli::explain::payload_slots;
/// assert_eq!(payload_slots(1), [7]);
/// assert_eq!(payload_slots(3), [4, 6, 6]);
/// assert_eq!(payload_slots(6).iter().sum::<u32>(), 31);
/// ```
pub fn payload_slots(len: u8) -> Vec<u32> {
    if len <= 1 {
        return vec![7];
    }
    let mut slots = vec![7 - len as u32];
    slots.extend(std::iter::repeat_n(6, len as usize - 1));
    slots
}

/// `value` in binary, `width` digits, grouped by four from the right: `0010 0000 1010 1100`.
pub fn grouped_bits(value: u32, width: u32) -> String {
    let digits = bits(value, width);
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(4) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// `value` in binary, zero-padded to `width` digits, split into slots of the given sizes:
/// `split_bits(0x20AC, &[4, 6, 6])` is `0010 000010 101100`.
pub fn split_bits(value: u32, slots: &[u32]) -> String {
    let width: u32 = slots.iter().sum();
    let digits = bits(value, width);
    let mut parts = Vec::new();
    let mut at = 0;
    for &n in slots {
        parts.push(&digits[at..at + n as usize]);
        at += n as usize;
    }
    parts.join(" ")
}

fn bits(value: u32, width: u32) -> String {
    format!("{value:0width$b}", width = width as usize)
}

// ---------------------------------------------------------------------------------------
// Bytes -> anatomy and units

/// Inputs up to this long are repeated in hex on the first line of the explanation.
const HEADER_BYTES: usize = 32;

/// The human explanation of `bytes` (at least one): a table of the bytes, the units of
/// every dialect, the escaped bytes among them, UTF-8's error units read in `fallback`,
/// and in which dialects the bytes are valid.
pub fn explain_bytes(bytes: &[u8], fallback: Option<&Fallback>) -> String {
    let mut out = String::new();
    let plural = if bytes.len() == 1 { "byte" } else { "bytes" };
    if bytes.len() <= HEADER_BYTES {
        let _ = writeln!(out, "{}: {} {plural}\n", hex_spaced(bytes), bytes.len());
    } else {
        let _ = writeln!(out, "{} {plural}\n", bytes.len());
    }
    byte_table(&mut out, bytes);
    out.push('\n');
    unit_table(&mut out, bytes);
    out.push('\n');
    joined_bits(&mut out, bytes);
    // Clusters only where code points join: otherwise each is its own, as the units say.
    let units: Vec<Unit> = Dialect::Utf8.units(bytes).collect();
    if cluster::spans(&units).iter().any(|c| c.cps > 1) {
        let _ = writeln!(out, "grapheme clusters (utf8)\n");
        clusters(&mut out, bytes);
    }
    escaped_bytes(&mut out, bytes);
    if let Some(f) = fallback {
        fallback_readings(&mut out, bytes, f);
    }
    verdict(&mut out, bytes);
    out
}

/// Every 3-byte sequence that is an escape of a byte: `ED B2 80`..`ED B3 BF` (U+DC80..U+DCFF,
/// PEP 383) and `EE BE 80`..`EE BF BF` (U+EF80..U+EFFF, OPTU-8), one line each.
fn escaped_bytes(out: &mut String, bytes: &[u8]) {
    let found = escapes_in(bytes);
    if found.is_empty() {
        return;
    }
    let _ = writeln!(out, "escaped bytes");
    for (at, scheme, byte) in found {
        let what = match scheme {
            Escape::Pep383 => "an error in utf8, a lone surrogate in wtf8",
            Escape::Optu8 => "valid UTF-8, private use",
        };
        let _ = writeln!(
            out,
            "  {}  at {at}: {} ({what})",
            hex_spaced(&bytes[at..at + 3]),
            scheme.sentence(byte),
        );
    }
    out.push('\n');
}

/// The escapes of [`escaped_bytes`]: offset, scheme and the byte each stands for.
pub fn escapes_in(bytes: &[u8]) -> Vec<(usize, Escape, u8)> {
    let mut found = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        match Escape::at(bytes, at) {
            Some((scheme, byte)) => {
                found.push((at, scheme, byte));
                at += 3;
            }
            None => at += 1,
        }
    }
    found
}

/// UTF-8's error units as the fallback encoding reads them, one line each.
fn fallback_readings(out: &mut String, bytes: &[u8], fallback: &Fallback) {
    let errors: Vec<Unit> = Dialect::Utf8
        .units(bytes)
        .filter(|u| u.is_error())
        .collect();
    if errors.is_empty() {
        return;
    }
    let _ = writeln!(out, "utf8 errors read as {} (--fallback)", fallback.name());
    for unit in errors {
        let unit_bytes = unit_bytes(bytes, &unit);
        let _ = writeln!(
            out,
            "  {:>6}  {:<8}  {}",
            unit.start,
            hex_spaced(unit_bytes),
            fallback.describe(unit_bytes)
        );
    }
    out.push('\n');
}

/// For each multi-byte character the dialects decode, its payload bits joined into its
/// code point, as `--char` derives them (one block per distinct unit, naming the dialects
/// that read it).
fn joined_bits(out: &mut String, bytes: &[u8]) {
    let mut found: Vec<(Unit, CodePoint, Vec<&str>)> = Vec::new();
    for d in Dialect::UTF8_FAMILY {
        for unit in d.units(bytes).filter(|u| u.len > 1) {
            let Some(cp) = unit.code_point() else {
                continue;
            };
            match found
                .iter_mut()
                .find(|(u, ..)| (u.start, u.len) == (unit.start, unit.len))
            {
                Some((.., names)) => names.push(d.name()),
                None => found.push((unit, cp, vec![d.name()])),
            }
        }
    }
    // A longer unit first where two start together: a unit inside one already derived
    // (a surrogate of RFC 2279, a half of the CESU-8 pair derived as a whole) has its bits
    // there, and is named on one line with the others of its dialects inside it.
    found.sort_by_key(|(u, ..)| (u.start, std::cmp::Reverse(u.len)));
    let mut derived: Vec<std::ops::Range<usize>> = Vec::new();
    // By the dialects' names and the unit they lie in: the units inside it.
    type Inside = (String, std::ops::Range<usize>, Vec<(Unit, CodePoint)>);
    let mut inside: Vec<Inside> = Vec::new();
    for (unit, cp, names) in found {
        let names = names.join(", ");
        let range = unit.start..unit.end();
        let within = derived
            .iter()
            .find(|r| r.start <= range.start && range.end <= r.end && **r != range);
        match within {
            Some(outer) => match inside
                .iter_mut()
                .find(|(n, o, _)| *n == names && o == outer)
            {
                Some((.., units)) => units.push((unit, cp)),
                None => inside.push((names, outer.clone(), vec![(unit, cp)])),
            },
            None => {
                encoding_block(out, &names, cp, unit_bytes(bytes, &unit));
                out.push('\n');
                derived.push(range);
            }
        }
    }
    for (names, _, units) in inside {
        let each = |f: &dyn Fn(&(Unit, CodePoint)) -> String| {
            units.iter().map(f).collect::<Vec<_>>().join(", ")
        };
        let _ = writeln!(
            out,
            "{names}: {}: {}, {} (bits above)\n",
            each(&|(u, _)| hex_spaced(unit_bytes(bytes, u))),
            each(&|(_, cp)| format!("U+{:04X}", cp.value())),
            if units.len() == 1 {
                "a code point of its own"
            } else {
                "each a code point of its own"
            }
        );
    }
}

fn byte_table(out: &mut String, bytes: &[u8]) {
    let _ = writeln!(out, "offset  hex  dec  oct    marker payload  role (utf8)");
    for (offset, &b) in bytes.iter().enumerate() {
        let (marker, payload) = marker_and_payload(b);
        let _ = writeln!(
            out,
            "{offset:>6}   {b:02x}  {b:>3}  {b:03o}  {marker:>8} {payload:<7}  {}",
            roles(b)
        );
    }
}

/// The role of `b` in UTF-8, then the other dialects where it differs, grouped:
/// `never valid; mutf8: lead of a 2-byte sequence, second byte 80`.
pub fn roles(b: u8) -> String {
    let utf8 = Dialect::Utf8.role(b);
    let mut out = role_text(utf8);
    let mut done: Vec<ByteRole> = vec![utf8];
    for d in Dialect::UTF8_FAMILY {
        let role = d.role(b);
        if done.contains(&role) {
            continue;
        }
        done.push(role);
        let names: Vec<&str> = Dialect::UTF8_FAMILY
            .iter()
            .filter(|other| other.role(b) == role)
            .map(|other| other.name())
            .collect();
        let _ = write!(out, "; {}: {}", names.join(", "), role_text(role));
    }
    out
}

fn role_text(role: ByteRole) -> String {
    match role {
        ByteRole::Ascii => "ASCII".to_string(),
        ByteRole::Continuation => "continuation".to_string(),
        ByteRole::Lead { len, second } if role.is_restricted() => {
            format!("lead of a {len}-byte sequence, second byte {second}")
        }
        ByteRole::Lead { len, .. } => format!("lead of a {len}-byte sequence"),
        ByteRole::Never => "never valid".to_string(),
        ByteRole::InCodeUnit => "part of a code unit".to_string(),
    }
}

/// One row of the unit table: offset, length, bytes, what the unit is.
fn unit_rows(dialect: Dialect, bytes: &[u8]) -> Vec<[String; 4]> {
    dialect
        .units(bytes)
        .map(|u| {
            [
                u.start.to_string(),
                u.len.to_string(),
                hex_spaced(unit_bytes(bytes, &u)),
                unit_text(dialect, bytes, &u),
            ]
        })
        .collect()
}

fn unit_text(dialect: Dialect, bytes: &[u8], unit: &Unit) -> String {
    match unit.kind {
        UnitKind::Scalar(cp) => describe(cp),
        UnitKind::Error(kind) => format!("{kind}: {}", explain(dialect, bytes, unit, None)),
    }
}

fn unit_table(out: &mut String, bytes: &[u8]) {
    let tables: Vec<(Dialect, Vec<[String; 4]>)> = Dialect::UTF8_FAMILY
        .iter()
        .map(|d| (*d, unit_rows(*d, bytes)))
        .collect();
    let width = tables
        .iter()
        .flat_map(|(_, rows)| rows.iter().map(|r| r[2].len()))
        .max()
        .unwrap_or(0)
        .max(5);
    let _ = writeln!(out, "dialect  offset  len  {:<width$}  unit", "bytes");
    for (i, (dialect, rows)) in tables.iter().enumerate() {
        if let Some((same, _)) = tables[..i].iter().find(|(_, earlier)| earlier == rows) {
            let _ = writeln!(out, "{:<7}  same as {same}", dialect.name());
            continue;
        }
        for (j, [offset, len, hex, what]) in rows.iter().enumerate() {
            let name = if j == 0 { dialect.name() } else { "" };
            let _ = writeln!(
                out,
                "{name:<7}  {offset:>6}  {len:>3}  {hex:<width$}  {what}"
            );
        }
    }
}

fn verdict(out: &mut String, bytes: &[u8]) {
    let (valid, invalid): (Vec<Dialect>, Vec<Dialect>) = Dialect::UTF8_FAMILY
        .iter()
        .partition(|d| d.units(bytes).all(|u| !u.is_error()));
    let names = |ds: &[Dialect]| ds.iter().map(|d| d.name()).collect::<Vec<_>>().join(", ");
    let line = match (valid.is_empty(), invalid.is_empty()) {
        (false, true) => "valid in every dialect".to_string(),
        (true, false) => "invalid in every dialect".to_string(),
        _ => format!("valid in {}; invalid in {}", names(&valid), names(&invalid)),
    };
    let _ = writeln!(out, "{line}");
}

/// The JSON form of [`explain_bytes`], one line: the bytes, and per dialect whether they
/// are valid and their units, as `hexrune at` writes them.
///
/// ```text
/// {"bytes":"c0af","dialects":[{"dialect":"utf8","valid":false,"units":[{"offset":0,"len":1,"kind":"error","error":"invalid_byte","diagnosis":"overlong form of U+002F '/'"},...]},...]}
/// ```
pub fn bytes_json(bytes: &[u8], fallback: Option<&Fallback>) -> String {
    to_line(&BytesRecord::new(bytes, fallback))
}

// ---------------------------------------------------------------------------------------
// Text -> grapheme clusters

/// The human explanation of `text` (an argument that is not hex): its extended grapheme
/// clusters (UAX #29), each broken into its code points with their UTF-8 bytes and names,
/// and the rule that joins each to the one before it.
///
/// ```
/// use hexrune::cli::explain::explain_text;
/// let out = explain_text("\u{1F1EB}\u{1F1F7}");
/// assert!(out.starts_with("8 bytes of UTF-8, 2 code points, 1 grapheme cluster\n"));
/// assert!(out.contains("regional indicator pair (GB12/13)"));
/// ```
pub fn explain_text(text: &str) -> String {
    let bytes = text.as_bytes();
    let units: Vec<Unit> = Dialect::Utf8.units(bytes).collect();
    let n = cluster::spans(&units).len();
    let mut out = format!(
        "{} of UTF-8, {}, {}\n\n",
        count(bytes.len(), "byte", "bytes"),
        count(text.chars().count(), "code point", "code points"),
        count(n, "grapheme cluster", "grapheme clusters"),
    );
    clusters(&mut out, bytes);
    out
}

fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Each cluster of `bytes` read as UTF-8: a heading, then a line per unit (offset, bytes,
/// the rule that joins it, what it is); then the rules used, in words.
fn clusters(out: &mut String, bytes: &[u8]) {
    let units: Vec<Unit> = Dialect::Utf8.units(bytes).collect();
    let spans = cluster::spans(&units);
    let mut used: Vec<Joint> = Vec::new();
    let hex_width = units
        .iter()
        .map(|u| hex_spaced(unit_bytes(bytes, u)).len())
        .max()
        .unwrap_or(0)
        .max(5);
    for (i, span) in spans.iter().enumerate() {
        // The whole argument was segmented: each cluster is read whole, however long.
        let c = cluster::of_span(bytes, Dialect::Utf8, *span, None);
        let _ = writeln!(
            out,
            "cluster {} of {}: offsets {}..{}, {}, {}, width {}",
            i + 1,
            spans.len(),
            span.start,
            span.end(),
            count(span.len as usize, "byte", "bytes"),
            count(c.code_points.len(), "code point", "code points"),
            c.width.map_or("none".to_string(), |w| w.to_string()),
        );
        let _ = writeln!(
            out,
            "  offset  {:<hex_width$}  {:<33}  unit",
            "bytes", "joins by"
        );
        let mut seen: Vec<CodePoint> = Vec::new();
        for (unit, cps) in c.parts() {
            let why = match (seen.is_empty(), cps.first()) {
                (_, None) => "(error: a cluster of its own)".to_string(),
                (true, _) => "(starts the cluster)".to_string(),
                (false, Some(&next)) => {
                    let j = cluster::joint(&seen, next);
                    if !used.contains(&j) {
                        used.push(j);
                    }
                    j.name().to_string()
                }
            };
            seen.extend_from_slice(cps);
            let _ = writeln!(
                out,
                "  {:>6}  {:<hex_width$}  {why:<33}  {}",
                unit.start,
                hex_spaced(unit_bytes(bytes, &unit)),
                unit_text(Dialect::Utf8, bytes, &unit),
            );
        }
        out.push('\n');
    }
    if used.is_empty() {
        return;
    }
    let _ = writeln!(out, "why they join (UAX #29)");
    for j in Joint::ALL.iter().filter(|j| used.contains(j)) {
        let _ = writeln!(out, "  {}: {}", j.name(), j.why());
    }
    out.push('\n');
}

// ---------------------------------------------------------------------------------------
// Code point -> encodings

/// The human explanation of a code point: its description (name, category, block, plane,
/// width, from [`facts`]), its form in every dialect with
/// the payload bits distributed into bytes, and its UTF-16 code units.
pub fn explain_code_point(cp: CodePoint) -> String {
    let mut out = describe(cp);
    let facts = facts(cp);
    let _ = writeln!(
        out,
        "\nblock {}   plane {}   width {}",
        facts.block_text(),
        facts.plane_text(),
        facts.width_text()
    );
    for (dialects, encoding) in encodings_by_dialect(cp) {
        let names: Vec<&str> = dialects.iter().map(|d| d.name()).collect();
        out.push('\n');
        match encoding {
            Ok(e) => encoding_block(&mut out, &names.join(", "), cp, e.as_bytes()),
            Err(why) => {
                let _ = writeln!(out, "{}: not encodable: {why}", names.join(", "));
            }
        }
    }
    out.push('\n');
    utf16_block(&mut out, cp);
    out
}

type Encoding = Result<Encoded, crate::decode::Unencodable>;

/// The dialects grouped by identical result, in [`Dialect::UTF8_FAMILY`] order of first appearance.
fn encodings_by_dialect(cp: CodePoint) -> Vec<(Vec<Dialect>, Encoding)> {
    let mut groups: Vec<(Vec<Dialect>, Encoding)> = Vec::new();
    for d in Dialect::UTF8_FAMILY {
        let e = d.encode(cp);
        match groups.iter_mut().find(|(_, other)| *other == e) {
            Some((ds, _)) => ds.push(d),
            None => groups.push((vec![d], e)),
        }
    }
    groups
}

fn encoding_block(out: &mut String, names: &str, cp: CodePoint, bytes: &[u8]) {
    let _ = write!(out, "{names}: {}", hex_spaced(bytes));
    let value = cp.value();
    if value > 0xFFFF && bytes.len() == 6 && bytes[0] == 0xED {
        let [lead, trail] = crate::decode::surrogate_pair(cp);
        let _ = writeln!(
            out,
            " (the UTF-16 surrogate pair U+{lead:04X} U+{trail:04X}, each half as 3 bytes)"
        );
        sequence_rows(out, CodePoint::new(lead as u32), &bytes[..3]);
        sequence_rows(out, CodePoint::new(trail as u32), &bytes[3..]);
        return;
    }
    if value == 0 && bytes.len() == 2 {
        let _ = writeln!(
            out,
            " (a 2-byte form on purpose, so that no 00 byte occurs)"
        );
    } else {
        out.push('\n');
    }
    sequence_rows(out, cp, bytes);
}

/// The bit-by-bit derivation of one sequence: the value's payload bits, their split into
/// slots, and each byte as marker + payload.
fn sequence_rows(out: &mut String, cp: CodePoint, bytes: &[u8]) {
    let slots = payload_slots(bytes.len() as u8);
    let width: u32 = slots.iter().sum();
    let mut rows: Vec<(String, String)> = vec![(
        cp.to_string(),
        format!("{} ({width} bits)", grouped_bits(cp.value(), width)),
    )];
    if slots.len() > 1 {
        let sizes: Vec<String> = slots.iter().map(|s| s.to_string()).collect();
        rows.push((
            format!("split {}", sizes.join("+")),
            split_bits(cp.value(), &slots),
        ));
    }
    let splits: Vec<(String, String)> = bytes.iter().map(|b| marker_and_payload(*b)).collect();
    let marker_width = splits.iter().map(|(m, _)| m.len()).max().unwrap_or(0);
    for (i, (b, (marker, payload))) in bytes.iter().zip(&splits).enumerate() {
        let role = match (bytes.len(), i) {
            (1, _) => "ASCII",
            (_, 0) => "lead",
            _ => "continuation",
        };
        rows.push((
            role.to_string(),
            format!("{marker:>marker_width$} {payload:<6}  {b:02x}"),
        ));
    }
    let label_width = rows.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
    for (label, content) in rows {
        let _ = writeln!(out, "  {label:<label_width$}  {}", content.trim_end());
    }
}

fn utf16_block(out: &mut String, cp: CodePoint) {
    let Some(utf16) = Utf16::of(cp) else {
        let _ = writeln!(out, "utf16: not encodable: {NOT_UNICODE}");
        return;
    };
    let units: Vec<String> = utf16.units().iter().map(|u| format!("{u:04x}")).collect();
    let be: Vec<u8> = utf16.units().iter().flat_map(|u| u.to_be_bytes()).collect();
    let le: Vec<u8> = utf16.units().iter().flat_map(|u| u.to_le_bytes()).collect();
    let _ = write!(
        out,
        "utf16: {} (UTF-16BE {}, UTF-16LE {})",
        units.join(" "),
        hex_spaced(&be),
        hex_spaced(&le)
    );
    match utf16 {
        Utf16::Single(_) => out.push('\n'),
        Utf16::LoneSurrogate(_) => {
            let _ = writeln!(
                out,
                "\n  a lone surrogate: ill-formed UTF-16, as found in JavaScript strings and Windows file names"
            );
        }
        Utf16::Pair([lead, trail]) => {
            let offset = cp.value() - 0x1_0000;
            out.push('\n');
            let rows = [
                (
                    format!("{cp} - 0x10000"),
                    format!("0x{offset:04X} = {} (20 bits)", grouped_bits(offset, 20)),
                ),
                ("split 10+10".to_string(), split_bits(offset, &[10, 10])),
                (
                    "lead surrogate".to_string(),
                    format!("0xD800 + 0x{:03X} = 0x{lead:04X}", offset >> 10),
                ),
                (
                    "trail surrogate".to_string(),
                    format!("0xDC00 + 0x{:03X} = 0x{trail:04X}", offset & 0x3FF),
                ),
            ];
            let width = rows.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
            for (label, content) in rows {
                let _ = writeln!(out, "  {label:<width$}  {content}");
            }
        }
    }
}

/// The JSON form of [`explain_code_point`], one line: the code point, its facts as
/// [`crate::cli::wire::FactsFields`] writes them, and its encodings as hex, `null` where
/// a dialect cannot write it, with the reason under `unencodable`.
///
/// ```text
/// {"cp":55296,"name":"<surrogate-D800>","alias":null,"category":"Cs","width":null,"plane":0,"block":"High Surrogates","encodings":{"utf8":null,...,"utf16":["d800"]},"unencodable":{"utf8":"..."}}
/// ```
pub fn code_point_json(cp: CodePoint) -> String {
    to_line(&CodePointRecord::new(cp, NOT_UNICODE))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_forms() {
        let ok = |t: &str| parse_bytes(t).unwrap();
        assert_eq!(ok("e2 82 ac"), [0xE2, 0x82, 0xAC]);
        assert_eq!(ok("  E2\t82\nAc  "), [0xE2, 0x82, 0xAC]);
        assert_eq!(ok(r"\xe2\x82\xac"), [0xE2, 0x82, 0xAC]);
        assert_eq!(ok(r"\XE2\X82"), [0xE2, 0x82]);
        assert_eq!(ok("0xE2 0x82 0xAC"), [0xE2, 0x82, 0xAC]);
        assert_eq!(ok("0xe282ac"), [0xE2, 0x82, 0xAC]);
        assert_eq!(ok("00 0a"), [0x00, 0x0A]);
        assert_eq!(ok("c0,af"), [0xC0, 0xAF]);
        // As a URL writes them.
        assert_eq!(ok("%C3%A9"), [0xC3, 0xA9]);
        assert_eq!(ok("%e2%82%ac"), [0xE2, 0x82, 0xAC]);
        assert_eq!(ok("%e2 %82 %ac"), [0xE2, 0x82, 0xAC]);
        // The other characters of a URL's text are their own bytes.
        assert_eq!(ok("caf%C3%A9"), *b"caf\xC3\xA9");
        assert_eq!(ok("face%C3%A9"), *b"face\xC3\xA9");
        assert_eq!(ok("%C3+%A9"), *b"\xC3+\xA9");
    }

    #[test]
    fn byte_errors() {
        let err = |t: &str| parse_bytes(t).unwrap_err();
        assert_eq!(
            err("e2 8"),
            "odd number of hex digits in '8' (write every byte as two digits: 0e, not e)"
        );
        assert_eq!(
            err("A"),
            "odd number of hex digits in 'A' (write every byte as two digits: 0e, not e; for \
             the character 'A' itself, explain --char A)"
        );
        assert_eq!(
            err("g"),
            "'g' in 'g' is not a hex digit; for the character 'g' itself, explain --char g"
        );
        assert_eq!(err("e2 8g"), "'g' in '8g' is not a hex digit");
        assert_eq!(err(""), "no bytes given (write them in hex: e2 82 ac)");
        assert_eq!(err(" , "), "no bytes given (write them in hex: e2 82 ac)");
        assert_eq!(
            err("\r\n"),
            "only whitespace given, which is read as the space between hex bytes; for these \
             characters write their bytes: 0d 0a"
        );
        assert_eq!(err("0x"), "no hex digits after the prefix in '0x'");
        assert_eq!(err(r"e2 \x"), r"no hex digits after the prefix in '\x'");
        assert_eq!(
            err("xe2x82xac"),
            r"'x' in 'xe2x82xac' is not a hex digit; quote \x escapes so the shell keeps the backslash: '\xe2\x82\xac'"
        );
        assert_eq!(
            err("€"),
            "'€' in '€' is not a hex digit; to explain a character, use --char"
        );
        assert_eq!(
            err("e2\u{1b}[31m"),
            "'\\u{1b}' in 'e2\\u{1b}[31m' is not a hex digit"
        );
        assert_eq!(
            err("e20x82"),
            "'x' in 'e20x82' is not a hex digit; separate 0x-prefixed bytes with spaces: 0xE2 0x82"
        );
        assert_eq!(err("e2-82"), "'-' in 'e2-82' is not a hex digit");
        assert_eq!(
            err("U+00E9"),
            "'U' in 'U+00E9' is not a hex digit; U+00E9 is a code point, not bytes: explain it with --char U+00E9"
        );
        assert_eq!(
            err("u+1f600"),
            "'u' in 'u+1f600' is not a hex digit; u+1f600 is a code point, not bytes: explain it with --char U+1F600"
        );
        assert_eq!(
            err(r"\u00e9"),
            r"'\' in '\u00e9' is not a hex digit; \u00e9 is a code point, not bytes: explain it with --char U+00E9"
        );
        assert_eq!(
            err(r"\u{1F600}"),
            r"'\' in '\u{1F600}' is not a hex digit; \u{1F600} is a code point, not bytes: explain it with --char U+1F600"
        );
        assert_eq!(
            err(r"\U0001F600"),
            r"'\' in '\U0001F600' is not a hex digit; \U0001F600 is a code point, not bytes: explain it with --char U+1F600"
        );
        assert_eq!(
            err("caf%C3%A"),
            "'%' at 7 in 'caf%C3%A' is not followed by two hex digits (a URL writes a byte as %C3)"
        );
        assert_eq!(
            err("%+1"),
            "'%' at 1 in '%+1' is not followed by two hex digits (a URL writes a byte as %C3)"
        );
        // Not a code point's spelling: no hint.
        assert_eq!(err("U+00G9"), "'U' in 'U+00G9' is not a hex digit");
    }

    #[test]
    fn char_forms_and_errors() {
        assert_eq!(parse_char("A"), Ok(CodePoint::new(0x41)));
        assert_eq!(parse_char("\u{0}"), Ok(CodePoint::new(0)));
        assert_eq!(parse_char("U+0"), Ok(CodePoint::new(0)));
        assert_eq!(parse_char("U+7FFFFFFF"), Ok(CodePoint::new(0x7FFF_FFFF)));
        assert_eq!(
            parse_char("U+80000000"),
            Err(
                "U+80000000 is above U+7FFFFFFF, the largest value any form of UTF-8 can write"
                    .into()
            )
        );
        assert_eq!(
            parse_char("U+"),
            Err("'U+' is not a code point (U+ and 1 to 8 hex digits: U+20AC)".into())
        );
        assert_eq!(
            parse_char("U+12345678A"),
            Err("'U+12345678A' is not a code point (U+ and 1 to 8 hex digits: U+20AC)".into())
        );
        assert_eq!(
            parse_char("0x20AC"),
            Err("'0x20AC' is 6 code points (U+0030 U+0078 U+0032 U+0030 U+0041 U+0043); give one character, or one code point as U+XXXX (this one: U+20AC)".into())
        );
        assert_eq!(
            parse_char("\\u00e9"),
            Err("'\\u00e9' is 6 code points (U+005C U+0075 U+0030 U+0030 U+0065 U+0039); give one character, or one code point as U+XXXX (this one: U+00E9)".into())
        );
        assert_eq!(
            parse_char("%C3%A9"),
            Err("'%C3%A9' is 6 code points (U+0025 U+0043 U+0033 U+0025 U+0041 U+0039); give one character, or one code point as U+XXXX; or, for these bytes, leave out --char: hexrune explain c3a9".into())
        );
        assert_eq!(
            parse_char("\\xc3\\xa9"),
            Err("'\\xc3\\xa9' is 8 code points (U+005C U+0078 U+0063 U+0033 U+005C U+0078 U+0061 U+0039); give one character, or one code point as U+XXXX; or, for these bytes, leave out --char: hexrune explain c3a9".into())
        );
        assert_eq!(
            parse_char("0x41"),
            Err("'0x41' is 4 code points (U+0030 U+0078 U+0034 U+0031); give one character, or one code point as U+XXXX (this one: U+0041)".into())
        );
        assert_eq!(
            parse_char("\u{1F1EB}\u{1F1F7}"),
            Err("'\u{1F1EB}\u{1F1F7}' is 2 code points (U+1F1EB U+1F1F7); give one character, or one code point as U+XXXX; or leave out --char to see the text's grapheme clusters and their code points".into())
        );
        assert_eq!(
            parse_char("a\u{202E}b"),
            Err("'a\\u{202e}b' is 3 code points (U+0061 U+202E U+0062); give one character, or one code point as U+XXXX; or leave out --char to see the text's grapheme clusters and their code points".into())
        );
        assert_eq!(
            parse_char(""),
            Err("no character given (give one, or U+XXXX)".into())
        );
    }

    #[test]
    fn markers_and_payloads_of_every_pattern() {
        let split = |b: u8| {
            let (m, p) = marker_and_payload(b);
            format!("{m} {p}")
        };
        assert_eq!(split(0x00), "0 0000000");
        assert_eq!(split(0x7F), "0 1111111");
        assert_eq!(split(0x80), "10 000000");
        assert_eq!(split(0xBF), "10 111111");
        assert_eq!(split(0xC0), "110 00000");
        assert_eq!(split(0xE2), "1110 0010");
        assert_eq!(split(0xF0), "11110 000");
        assert_eq!(split(0xF8), "111110 00");
        assert_eq!(split(0xFD), "1111110 1");
        assert_eq!(split(0xFE), "11111110 ");
        assert_eq!(split(0xFF), "11111111 ");
    }

    #[test]
    fn payload_bits_are_split_into_slots() {
        assert_eq!(payload_slots(2), [5, 6]);
        assert_eq!(payload_slots(4), [3, 6, 6, 6]);
        assert_eq!(payload_slots(5), [2, 6, 6, 6, 6]);
        assert_eq!(split_bits(0x20AC, &payload_slots(3)), "0010 000010 101100");
        assert_eq!(
            split_bits(0x1F600, &payload_slots(4)),
            "000 011111 011000 000000"
        );
        assert_eq!(split_bits(0x2F, &payload_slots(2)), "00000 101111");
        assert_eq!(split_bits(0xF600, &[10, 10]), "0000111101 1000000000");
        assert_eq!(grouped_bits(0x20AC, 16), "0010 0000 1010 1100");
        assert_eq!(grouped_bits(0x1F600, 21), "0 0001 1111 0110 0000 0000");
        assert_eq!(grouped_bits(0x41, 7), "100 0001");
        assert_eq!(
            grouped_bits(0x7FFF_FFFF, 31),
            "111 1111 1111 1111 1111 1111 1111 1111"
        );
    }

    /// The payload slots of every byte of an encoding, joined, are the value's bits: the
    /// split shown to the user is the one the bytes really hold.
    #[test]
    fn byte_payloads_reassemble_the_value() {
        for v in [
            0x0,
            0x41,
            0xE9,
            0x7FF,
            0x800,
            0x20AC,
            0xFFFF,
            0x1F600,
            0x10_FFFF,
            0x20_0000,
            0x7FFF_FFFF,
        ] {
            let cp = CodePoint::new(v);
            let e = Dialect::Legacy.encode(cp).unwrap();
            let payload: String = e
                .as_bytes()
                .iter()
                .map(|b| marker_and_payload(*b).1)
                .collect();
            let slots = payload_slots(e.as_bytes().len() as u8);
            assert_eq!(payload, bits(v, slots.iter().sum()), "{cp}");
            assert_eq!(
                split_bits(v, &slots),
                e.as_bytes()
                    .iter()
                    .map(|b| marker_and_payload(*b).1)
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
    }

    #[test]
    fn roles_across_dialects() {
        assert_eq!(roles(0x41), "ASCII");
        assert_eq!(roles(0x00), "ASCII; mutf8: never valid");
        assert_eq!(roles(0x82), "continuation");
        assert_eq!(roles(0xE2), "lead of a 3-byte sequence");
        assert_eq!(roles(0xE0), "lead of a 3-byte sequence, second byte A0..BF");
        assert_eq!(
            roles(0xED),
            "lead of a 3-byte sequence, second byte 80..9F; cesu8, mutf8, wtf8, legacy: lead of a 3-byte sequence"
        );
        assert_eq!(
            roles(0xC0),
            "never valid; mutf8: lead of a 2-byte sequence, second byte 80"
        );
        assert_eq!(
            roles(0xF4),
            "lead of a 4-byte sequence, second byte 80..8F; cesu8, mutf8: never valid; legacy: lead of a 4-byte sequence"
        );
        assert_eq!(
            roles(0xF8),
            "never valid; legacy: lead of a 5-byte sequence, second byte 88..BF"
        );
        assert_eq!(roles(0xFF), "never valid");
    }
}
