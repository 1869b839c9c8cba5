//! UTF-16 and UTF-32 bytes for the tests, built with Rust's own `encode_utf16` and `char`
//! values, never with hexrune's encoder: the decoder's tests compare against them.

use hexrune::decode::Dialect;

/// Code unit values in `d`'s width and byte order (UTF-16LE/BE, UTF-32LE/BE); a UTF-16
/// unit keeps the low 16 bits, so surrogates and any value can be written as they are.
pub fn units(d: Dialect, values: impl IntoIterator<Item = u32>) -> Vec<u8> {
    let mut out = Vec::new();
    for v in values {
        match d {
            Dialect::Utf16Le => out.extend_from_slice(&(v as u16).to_le_bytes()),
            Dialect::Utf16Be => out.extend_from_slice(&(v as u16).to_be_bytes()),
            Dialect::Utf32Le => out.extend_from_slice(&v.to_le_bytes()),
            Dialect::Utf32Be => out.extend_from_slice(&v.to_be_bytes()),
            _ => panic!("{d} is not UTF-16 or UTF-32"),
        }
    }
    out
}

/// `text` in `d` (UTF-16LE/BE with surrogate pairs, UTF-32LE/BE), without a BOM.
pub fn text(d: Dialect, text: &str) -> Vec<u8> {
    match d {
        Dialect::Utf16Le | Dialect::Utf16Be => units(d, text.encode_utf16().map(u32::from)),
        _ => units(d, text.chars().map(u32::from)),
    }
}
