//! The tables of the multi-byte legacy encodings (Shift_JIS, EUC-JP, ISO-2022-JP, EUC-KR,
//! GBK, gb18030, Big5), built once from encoding_rs: the decoder's structure is hexrune's
//! own (`crate::decode`, `multibyte.rs`), and for every sequence it calls well-formed the
//! code point is what encoding_rs decodes that sequence alone to. Building one takes some
//! 33 000 small decodes (73 000 for gb18030, whose 4-byte pointers below 39420 are asked
//! one by one), a few milliseconds, and keeps 256 KiB (plus 154 KiB for gb18030) for the
//! life of the process.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use crate::decode::{Family, MultiByteTable};

/// The decoder family of a multi-byte encoding of encoding_rs, or `None` for the others.
pub fn family(encoding: &'static encoding_rs::Encoding) -> Option<Family> {
    let family = match encoding.name() {
        "Shift_JIS" => Family::ShiftJis,
        "EUC-JP" => Family::EucJp,
        "ISO-2022-JP" => Family::Iso2022Jp,
        "EUC-KR" => Family::EucKr,
        "GBK" | "gb18030" => Family::Gb18030,
        "Big5" => Family::Big5,
        _ => return None,
    };
    Some(family)
}

/// The table of `encoding` (one of [`family`]'s), built the first time it is asked for.
pub fn table(encoding: &'static encoding_rs::Encoding) -> Option<&'static MultiByteTable> {
    static TABLES: OnceLock<Mutex<HashMap<&'static str, &'static MultiByteTable>>> =
        OnceLock::new();
    let family = family(encoding)?;
    let mut tables = TABLES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    Some(tables.entry(encoding.name()).or_insert_with(|| {
        let mut lookup = |bytes: &[u8]| decode_alone(encoding, bytes);
        Box::leak(Box::new(MultiByteTable::build(
            encoding.name(),
            family,
            &mut lookup,
        )))
    }))
}

/// What encoding_rs decodes `bytes` to, alone and without replacement: one character, or
/// two (Big5's four two-code-point sequences); `None` if malformed or anything else.
fn decode_alone(
    encoding: &'static encoding_rs::Encoding,
    bytes: &[u8],
) -> Option<(u32, Option<u32>)> {
    let text = encoding.decode_without_bom_handling_and_without_replacement(bytes)?;
    let mut chars = text.chars();
    match (chars.next(), chars.next(), chars.next()) {
        (Some(a), None, _) => Some((a as u32, None)),
        (Some(a), Some(b), None) => Some((a as u32, Some(b as u32))),
        _ => None,
    }
}
