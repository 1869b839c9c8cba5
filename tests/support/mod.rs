//! Helpers shared by the integration tests (each test file includes this with `mod support;`
//! and uses only part of it).
#![allow(dead_code)]

pub mod invariants;
pub mod reference;
pub mod wide;

use hexrune::decode::{CodePoint, Dialect, ErrorKind, Unit, UnitKind};
use proptest::prelude::*;

/// Up to `max_len` bytes that make every kind of unit likely: ASCII, leads, continuation
/// bytes, and the bytes of surrogate encodings (`ED A0..`, `ED B0..`) more often than chance.
pub fn unit_soup(max_len: usize) -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![
            0x00u8..0x80,
            0x80u8..0xC0,
            0xC0u8..=0xFF,
            Just(0xED),
            Just(0xA0),
            Just(0xB0),
        ],
        0..max_len,
    )
}

/// What a unit is expected to be: a code point or an error kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    /// A scalar with this value.
    Cp(u32),
    /// An error of this kind.
    Err(ErrorKind),
}

impl Want {
    pub fn of(u: &Unit) -> Want {
        match u.kind {
            UnitKind::Scalar(cp) => Want::Cp(cp.value()),
            UnitKind::Error(k) => Want::Err(k),
        }
    }

    pub fn kind(self) -> UnitKind {
        match self {
            Want::Cp(v) => UnitKind::Scalar(CodePoint::new(v)),
            Want::Err(k) => UnitKind::Error(k),
        }
    }
}

/// A unit as a comparable triple: (start, len, what).
pub type Triple = (usize, u8, Want);

/// The units of `bytes` in `d` as triples.
pub fn triples(d: Dialect, bytes: &[u8]) -> Vec<Triple> {
    d.units(bytes)
        .map(|u| (u.start, u.len, Want::of(&u)))
        .collect()
}

/// Parses a hex string (`"C0AF"`, `"c0 af"`); spaces are ignored.
pub fn hex(s: &str) -> Vec<u8> {
    let digits: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    assert!(digits.len().is_multiple_of(2), "odd hex string {s:?}");
    digits
        .chunks(2)
        .map(|p| u8::from_str_radix(std::str::from_utf8(p).unwrap(), 16).unwrap())
        .collect()
}

/// The replacement output of a decoding: each scalar's value, U+FFFD for each error unit.
pub fn lossy(d: Dialect, bytes: &[u8]) -> Vec<u32> {
    d.units(bytes)
        .map(|u| match u.kind {
            UnitKind::Scalar(cp) => cp.value(),
            UnitKind::Error(_) => 0xFFFD,
        })
        .collect()
}

/// Code points of a `&str`, as numbers.
pub fn cps(s: &str) -> Vec<u32> {
    s.chars().map(|c| c as u32).collect()
}

/// Whether every unit is a scalar.
pub fn is_valid(d: Dialect, bytes: &[u8]) -> bool {
    d.units(bytes).all(|u| !u.is_error())
}

/// A JSON array of numbers as `u32`s.
pub fn u32s(v: &serde_json::Value) -> Vec<u32> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|n| n.as_u64().expect("not a number") as u32)
        .collect()
}

/// Reads a vendored file under `tests/data/`.
pub fn data(path: &str) -> Vec<u8> {
    let full = format!("{}/tests/data/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// Reads and parses a vendored JSON file under `tests/data/`.
pub fn json(path: &str) -> serde_json::Value {
    serde_json::from_slice(&data(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}
