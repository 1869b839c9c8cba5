//! Named case tables: for every error kind of every dialect, inputs and their exact units,
//! each case expanded by machine with ASCII and multibyte padding before and after (so every
//! offset shifts and the neighbours are real units), plus `expected()` ranges and
//! `diagnose()` findings for representative errors.

mod support;

use hexrune::decode::{CodePoint, Dialect, ErrorKind, Finding};
use support::invariants::{check_all, possible_kinds};
use support::{triples, wide, Triple, Want};
use ErrorKind::*;
use Want::{Cp, Err as E};

/// A named input and its units, (start, len, code point or kind).
struct Case {
    name: &'static str,
    bytes: &'static [u8],
    units: &'static [Triple],
}

const UC: Want = E(UnexpectedContinuation);

macro_rules! cases {
    ($($name:literal : $bytes:literal => [$($unit:expr),* $(,)?]),* $(,)?) => {
        &[$(Case { name: $name, bytes: $bytes, units: &[$($unit),*] }),*]
    };
}

const UTF8: &[Case] = cases![
    // scalars of every class, at the edges of Table 3-7
    "ascii max": b"\x7F" => [(0, 1, Cp(0x7F))],
    "2-byte min": b"\xC2\x80" => [(0, 2, Cp(0x80))],
    "2-byte max": b"\xDF\xBF" => [(0, 2, Cp(0x7FF))],
    "3-byte min": b"\xE0\xA0\x80" => [(0, 3, Cp(0x800))],
    "before surrogates": b"\xED\x9F\xBF" => [(0, 3, Cp(0xD7FF))],
    "after surrogates": b"\xEE\x80\x80" => [(0, 3, Cp(0xE000))],
    "3-byte max": b"\xEF\xBF\xBF" => [(0, 3, Cp(0xFFFF))],
    "4-byte min": b"\xF0\x90\x80\x80" => [(0, 4, Cp(0x1_0000))],
    "4-byte max": b"\xF4\x8F\xBF\xBF" => [(0, 4, Cp(0x10_FFFF))],
    // invalid_byte
    "C0": b"\xC0" => [(0, 1, E(InvalidByte))],
    "C1 BF": b"\xC1\xBF" => [(0, 1, E(InvalidByte)), (1, 1, UC)],
    "F5 form": b"\xF5\x80\x80\x80" => [(0, 1, E(InvalidByte)), (1, 1, UC), (2, 1, UC), (3, 1, UC)],
    "FE FF": b"\xFE\xFF" => [(0, 1, E(InvalidByte)), (1, 1, E(InvalidByte))],
    "5-byte form": b"\xF8\x88\x80\x80\x80" => [(0, 1, E(InvalidByte)), (1, 1, UC), (2, 1, UC), (3, 1, UC), (4, 1, UC)],
    // unexpected_continuation
    "80": b"\x80" => [(0, 1, UC)],
    "run": b"\x80\xBF\x80" => [(0, 1, UC), (1, 1, UC), (2, 1, UC)],
    "after 2-byte": b"\xC2\x80\x80" => [(0, 2, Cp(0x80)), (2, 1, UC)],
    "after 4-byte": b"\xF0\x90\x80\x80\xBF" => [(0, 4, Cp(0x1_0000)), (4, 1, UC)],
    // truncated
    "C2 cut": b"\xC2A" => [(0, 1, E(Truncated)), (1, 1, Cp(0x41))],
    "E1 80 cut": b"\xE1\x80A" => [(0, 2, E(Truncated)), (2, 1, Cp(0x41))],
    "F1 80 80 cut": b"\xF1\x80\x80A" => [(0, 3, E(Truncated)), (3, 1, Cp(0x41))],
    "cut by a lead": b"\xE0\xA0\xC2\x80" => [(0, 2, E(Truncated)), (2, 2, Cp(0x80))],
    "F4 cut by 3-byte": b"\xF4\x8F\xBF\xE1\x80\x80" => [(0, 3, E(Truncated)), (3, 3, Cp(0x1000))],
    "restricted lead cut": b"\xE0A" => [(0, 1, E(Truncated)), (1, 1, Cp(0x41))],
    "ED cut by C0": b"\xED\xC0" => [(0, 1, E(Truncated)), (1, 1, E(InvalidByte))],
    // truncated_eof
    "C2 at end": b"\xC2" => [(0, 1, E(TruncatedEof))],
    "E0 at end": b"\xE0" => [(0, 1, E(TruncatedEof))],
    "E1 80 at end": b"\xE1\x80" => [(0, 2, E(TruncatedEof))],
    "F0 90 at end": b"\xF0\x90" => [(0, 2, E(TruncatedEof))],
    "F4 8F BF at end": b"\xF4\x8F\xBF" => [(0, 3, E(TruncatedEof))],
    "ED 9F at end": b"\xED\x9F" => [(0, 2, E(TruncatedEof))],
    // overlong
    "E0 80 80": b"\xE0\x80\x80" => [(0, 1, E(Overlong)), (1, 1, UC), (2, 1, UC)],
    "E0 9F BF": b"\xE0\x9F\xBF" => [(0, 1, E(Overlong)), (1, 1, UC), (2, 1, UC)],
    "F0 80 80 80": b"\xF0\x80\x80\x80" => [(0, 1, E(Overlong)), (1, 1, UC), (2, 1, UC), (3, 1, UC)],
    "F0 8F BF BF": b"\xF0\x8F\xBF\xBF" => [(0, 1, E(Overlong)), (1, 1, UC), (2, 1, UC), (3, 1, UC)],
    "E0 80 cut": b"\xE0\x80" => [(0, 1, E(Overlong)), (1, 1, UC)],
    // surrogate
    "lead surrogate": b"\xED\xA0\x80" => [(0, 1, E(Surrogate)), (1, 1, UC), (2, 1, UC)],
    "trail surrogate": b"\xED\xBF\xBF" => [(0, 1, E(Surrogate)), (1, 1, UC), (2, 1, UC)],
    "surrogate pair": b"\xED\xA0\x80\xED\xB0\x80" => [
        (0, 1, E(Surrogate)), (1, 1, UC), (2, 1, UC), (3, 1, E(Surrogate)), (4, 1, UC), (5, 1, UC),
    ],
    "ED A0 cut": b"\xED\xA0" => [(0, 1, E(Surrogate)), (1, 1, UC)],
    // out_of_range
    "U+110000": b"\xF4\x90\x80\x80" => [(0, 1, E(OutOfRange)), (1, 1, UC), (2, 1, UC), (3, 1, UC)],
    "F4 BF BF BF": b"\xF4\xBF\xBF\xBF" => [(0, 1, E(OutOfRange)), (1, 1, UC), (2, 1, UC), (3, 1, UC)],
    "F4 90 cut": b"\xF4\x90" => [(0, 1, E(OutOfRange)), (1, 1, UC)],
];

const CESU8: &[Case] = cases![
    "NUL is ASCII": b"\x00" => [(0, 1, Cp(0))],
    "before surrogates": b"\xED\x9F\xBF" => [(0, 3, Cp(0xD7FF))],
    "pair U+10000": b"\xED\xA0\x80\xED\xB0\x80" => [(0, 6, Cp(0x1_0000))],
    "pair U+1F600": b"\xED\xA0\xBD\xED\xB8\x80" => [(0, 6, Cp(0x1_F600))],
    "pair U+10FFFF": b"\xED\xAF\xBF\xED\xBF\xBF" => [(0, 6, Cp(0x10_FFFF))],
    // invalid_byte
    "4-byte form": b"\xF0\x90\x80\x80" => [(0, 1, E(InvalidByte)), (1, 1, UC), (2, 1, UC), (3, 1, UC)],
    "F4 form": b"\xF4\x8F\xBF\xBF" => [(0, 1, E(InvalidByte)), (1, 1, UC), (2, 1, UC), (3, 1, UC)],
    "C0 80": b"\xC0\x80" => [(0, 1, E(InvalidByte)), (1, 1, UC)],
    "FF": b"\xFF" => [(0, 1, E(InvalidByte))],
    // unexpected_continuation
    "80": b"\x80" => [(0, 1, UC)],
    "after a pair": b"\xED\xA0\x80\xED\xB0\x80\x80" => [(0, 6, Cp(0x1_0000)), (6, 1, UC)],
    // truncated
    "ED A0 cut": b"\xED\xA0A" => [(0, 2, E(Truncated)), (2, 1, Cp(0x41))],
    "ED cut": b"\xEDA" => [(0, 1, E(Truncated)), (1, 1, Cp(0x41))],
    "E1 80 cut": b"\xE1\x80A" => [(0, 2, E(Truncated)), (2, 1, Cp(0x41))],
    "lead then cut trail": b"\xED\xA0\x80\xED\xB0A" => [
        (0, 3, E(UnpairedSurrogate)), (3, 2, E(Truncated)), (5, 1, Cp(0x41)),
    ],
    // truncated_eof
    "ED at end": b"\xED" => [(0, 1, E(TruncatedEof))],
    "ED A0 at end": b"\xED\xA0" => [(0, 2, E(TruncatedEof))],
    "lead then trail cut by end": b"\xED\xA0\x80\xED\xB0" => [(0, 3, E(UnpairedSurrogate)), (3, 2, E(TruncatedEof))],
    "C2 at end": b"\xC2" => [(0, 1, E(TruncatedEof))],
    // overlong
    "E0 80 80": b"\xE0\x80\x80" => [(0, 1, E(Overlong)), (1, 1, UC), (2, 1, UC)],
    "E0 9F BF": b"\xE0\x9F\xBF" => [(0, 1, E(Overlong)), (1, 1, UC), (2, 1, UC)],
    // unpaired_surrogate
    "lone lead": b"\xED\xA0\x80" => [(0, 3, E(UnpairedSurrogate))],
    "lone trail": b"\xED\xB0\x80" => [(0, 3, E(UnpairedSurrogate))],
    "trail then lead": b"\xED\xB0\x80\xED\xA0\x80" => [(0, 3, E(UnpairedSurrogate)), (3, 3, E(UnpairedSurrogate))],
    "lead, lead, trail": b"\xED\xA0\x80\xED\xA0\x80\xED\xB0\x80" => [(0, 3, E(UnpairedSurrogate)), (3, 6, Cp(0x1_0000))],
    "lead, trail, trail": b"\xED\xA0\x80\xED\xB0\x80\xED\xB0\x80" => [(0, 6, Cp(0x1_0000)), (6, 3, E(UnpairedSurrogate))],
    "split by ASCII": b"\xED\xAF\xBFA\xED\xB0\x80" => [
        (0, 3, E(UnpairedSurrogate)), (3, 1, Cp(0x41)), (4, 3, E(UnpairedSurrogate)),
    ],
];

const MUTF8: &[Case] = cases![
    "NUL": b"\xC0\x80" => [(0, 2, Cp(0))],
    "lone lead": b"\xED\xA0\x80" => [(0, 3, Cp(0xD800))],
    "lone trail": b"\xED\xB0\x80" => [(0, 3, Cp(0xDC00))],
    "trail then lead": b"\xED\xB0\x80\xED\xA0\x80" => [(0, 3, Cp(0xDC00)), (3, 3, Cp(0xD800))],
    "pair": b"\xED\xA0\x80\xED\xB0\x80" => [(0, 6, Cp(0x1_0000))],
    "lead, lead, trail": b"\xED\xA0\x80\xED\xA0\x80\xED\xB0\x80" => [(0, 3, Cp(0xD800)), (3, 6, Cp(0x1_0000))],
    // invalid_byte
    "raw NUL": b"\x00" => [(0, 1, E(InvalidByte))],
    "C1 80": b"\xC1\x80" => [(0, 1, E(InvalidByte)), (1, 1, UC)],
    "4-byte form": b"\xF0\x90\x80\x80" => [(0, 1, E(InvalidByte)), (1, 1, UC), (2, 1, UC), (3, 1, UC)],
    "FE": b"\xFE" => [(0, 1, E(InvalidByte))],
    // unexpected_continuation
    "80": b"\x80" => [(0, 1, UC)],
    "after NUL": b"\xC0\x80\x80" => [(0, 2, Cp(0)), (2, 1, UC)],
    // truncated
    "C0 cut": b"\xC0A" => [(0, 1, E(Truncated)), (1, 1, Cp(0x41))],
    "ED A0 cut": b"\xED\xA0A" => [(0, 2, E(Truncated)), (2, 1, Cp(0x41))],
    "cut by NUL": b"\xE1\x80\xC0\x80" => [(0, 2, E(Truncated)), (2, 2, Cp(0))],
    // truncated_eof
    "C0 at end": b"\xC0" => [(0, 1, E(TruncatedEof))],
    "ED A0 at end": b"\xED\xA0" => [(0, 2, E(TruncatedEof))],
    "E2 at end": b"\xE2" => [(0, 1, E(TruncatedEof))],
    // overlong
    "C0 81": b"\xC0\x81" => [(0, 1, E(Overlong)), (1, 1, UC)],
    "C0 AF": b"\xC0\xAF" => [(0, 1, E(Overlong)), (1, 1, UC)],
    "C0 BF": b"\xC0\xBF" => [(0, 1, E(Overlong)), (1, 1, UC)],
    "E0 80 80": b"\xE0\x80\x80" => [(0, 1, E(Overlong)), (1, 1, UC), (2, 1, UC)],
];

const WTF8: &[Case] = cases![
    "lone lead": b"\xED\xA0\x80" => [(0, 3, Cp(0xD800))],
    "lone trail": b"\xED\xB0\x80" => [(0, 3, Cp(0xDC00))],
    "trail then lead": b"\xED\xB0\x80\xED\xA0\x80" => [(0, 3, Cp(0xDC00)), (3, 3, Cp(0xD800))],
    "split by ASCII": b"\xED\xA0\x80A\xED\xB0\x80" => [(0, 3, Cp(0xD800)), (3, 1, Cp(0x41)), (4, 3, Cp(0xDC00))],
    "4-byte": b"\xF0\x9F\x98\x80" => [(0, 4, Cp(0x1_F600))],
    // invalid_byte
    "C0 80": b"\xC0\x80" => [(0, 1, E(InvalidByte)), (1, 1, UC)],
    "F5": b"\xF5" => [(0, 1, E(InvalidByte))],
    "FF": b"\xFF" => [(0, 1, E(InvalidByte))],
    // unexpected_continuation
    "80": b"\x80" => [(0, 1, UC)],
    "after a surrogate": b"\xED\xA0\x80\x80" => [(0, 3, Cp(0xD800)), (3, 1, UC)],
    // truncated
    "ED A0 cut": b"\xED\xA0A" => [(0, 2, E(Truncated)), (2, 1, Cp(0x41))],
    "F0 90 80 cut": b"\xF0\x90\x80A" => [(0, 3, E(Truncated)), (3, 1, Cp(0x41))],
    // truncated_eof
    "ED at end": b"\xED" => [(0, 1, E(TruncatedEof))],
    "ED A0 at end": b"\xED\xA0" => [(0, 2, E(TruncatedEof))],
    "lead then trail cut by end": b"\xED\xA0\x80\xED\xB0" => [(0, 3, Cp(0xD800)), (3, 2, E(TruncatedEof))],
    "F4 8F BF at end": b"\xF4\x8F\xBF" => [(0, 3, E(TruncatedEof))],
    // overlong
    "E0 80 80": b"\xE0\x80\x80" => [(0, 1, E(Overlong)), (1, 1, UC), (2, 1, UC)],
    "F0 80 80 80": b"\xF0\x80\x80\x80" => [(0, 1, E(Overlong)), (1, 1, UC), (2, 1, UC), (3, 1, UC)],
    "F0 8F BF BF": b"\xF0\x8F\xBF\xBF" => [(0, 1, E(Overlong)), (1, 1, UC), (2, 1, UC), (3, 1, UC)],
    // out_of_range
    "U+110000": b"\xF4\x90\x80\x80" => [(0, 1, E(OutOfRange)), (1, 1, UC), (2, 1, UC), (3, 1, UC)],
    "F4 A0 cut": b"\xF4\xA0" => [(0, 1, E(OutOfRange)), (1, 1, UC)],
    // surrogate_pair
    "pair as two 3-byte": b"\xED\xA0\x80\xED\xB0\x80" => [(0, 3, E(SurrogatePair)), (3, 3, E(SurrogatePair))],
    "max pair": b"\xED\xAF\xBF\xED\xBF\xBF" => [(0, 3, E(SurrogatePair)), (3, 3, E(SurrogatePair))],
    "lead, lead, trail": b"\xED\xA0\x80\xED\xA0\x80\xED\xB0\x80" => [
        (0, 3, Cp(0xD800)), (3, 3, E(SurrogatePair)), (6, 3, E(SurrogatePair)),
    ],
    "lead, trail, trail": b"\xED\xA0\x80\xED\xB0\x80\xED\xB0\x80" => [
        (0, 3, E(SurrogatePair)), (3, 3, E(SurrogatePair)), (6, 3, Cp(0xDC00)),
    ],
];

const LEGACY: &[Case] = cases![
    "surrogate": b"\xED\xA0\x80" => [(0, 3, Cp(0xD800))],
    "two surrogates": b"\xED\xA0\x80\xED\xB0\x80" => [(0, 3, Cp(0xD800)), (3, 3, Cp(0xDC00))],
    "U+110000": b"\xF4\x90\x80\x80" => [(0, 4, Cp(0x11_0000))],
    "4-byte max": b"\xF7\xBF\xBF\xBF" => [(0, 4, Cp(0x1F_FFFF))],
    "5-byte min": b"\xF8\x88\x80\x80\x80" => [(0, 5, Cp(0x20_0000))],
    "5-byte max": b"\xFB\xBF\xBF\xBF\xBF" => [(0, 5, Cp(0x3FF_FFFF))],
    "6-byte min": b"\xFC\x84\x80\x80\x80\x80" => [(0, 6, Cp(0x400_0000))],
    "6-byte max": b"\xFD\xBF\xBF\xBF\xBF\xBF" => [(0, 6, Cp(0x7FFF_FFFF))],
    // invalid_byte
    "C0 80": b"\xC0\x80" => [(0, 1, E(InvalidByte)), (1, 1, UC)],
    "C1 BF": b"\xC1\xBF" => [(0, 1, E(InvalidByte)), (1, 1, UC)],
    "FE": b"\xFE" => [(0, 1, E(InvalidByte))],
    "FF": b"\xFF" => [(0, 1, E(InvalidByte))],
    // unexpected_continuation
    "80": b"\x80" => [(0, 1, UC)],
    "after 6-byte": b"\xFD\xBF\xBF\xBF\xBF\xBF\xBF" => [(0, 6, Cp(0x7FFF_FFFF)), (6, 1, UC)],
    // truncated
    "5-byte cut": b"\xF8\x88\x80\x80A" => [(0, 4, E(Truncated)), (4, 1, Cp(0x41))],
    "6-byte cut": b"\xFC\x84\x80\x80\x80A" => [(0, 5, E(Truncated)), (5, 1, Cp(0x41))],
    "F5 cut": b"\xF5A" => [(0, 1, E(Truncated)), (1, 1, Cp(0x41))],
    // truncated_eof
    "FD at end": b"\xFD\xBF\xBF\xBF\xBF" => [(0, 5, E(TruncatedEof))],
    "F8 at end": b"\xF8" => [(0, 1, E(TruncatedEof))],
    "F7 BF BF at end": b"\xF7\xBF\xBF" => [(0, 3, E(TruncatedEof))],
    // overlong
    "E0 80 80": b"\xE0\x80\x80" => [(0, 1, E(Overlong)), (1, 1, UC), (2, 1, UC)],
    "F0 80 80 80": b"\xF0\x80\x80\x80" => [(0, 1, E(Overlong)), (1, 1, UC), (2, 1, UC), (3, 1, UC)],
    "F8 80": b"\xF8\x80\x80\x80\x80" => [(0, 1, E(Overlong)), (1, 1, UC), (2, 1, UC), (3, 1, UC), (4, 1, UC)],
    "F8 87": b"\xF8\x87\xBF\xBF\xBF" => [(0, 1, E(Overlong)), (1, 1, UC), (2, 1, UC), (3, 1, UC), (4, 1, UC)],
    "FC 80": b"\xFC\x80\x80\x80\x80\x80" => [
        (0, 1, E(Overlong)), (1, 1, UC), (2, 1, UC), (3, 1, UC), (4, 1, UC), (5, 1, UC),
    ],
    "FC 83": b"\xFC\x83\xBF\xBF\xBF\xBF" => [
        (0, 1, E(Overlong)), (1, 1, UC), (2, 1, UC), (3, 1, UC), (4, 1, UC), (5, 1, UC),
    ],
];

fn table(d: Dialect) -> &'static [Case] {
    match d {
        Dialect::Utf8 => UTF8,
        Dialect::Cesu8 => CESU8,
        Dialect::Mutf8 => MUTF8,
        Dialect::Wtf8 => WTF8,
        Dialect::Legacy => LEGACY,
        // UTF-16 and UTF-32: `WIDE16`, `WIDE32` below, in code units.
        _ => &[],
    }
}

/// Padding: bytes and their units in the dialect.
struct Pad {
    bytes: &'static [u8],
    units: &'static [Triple],
}

const fn pad(bytes: &'static [u8], units: &'static [Triple]) -> Pad {
    Pad { bytes, units }
}

const EMPTY: Pad = pad(b"", &[]);
const A: Pad = pad(b"a", &[(0, 1, Cp(0x61))]);
const ABC: Pad = pad(
    b"ab c",
    &[
        (0, 1, Cp(0x61)),
        (1, 1, Cp(0x62)),
        (2, 1, Cp(0x20)),
        (3, 1, Cp(0x63)),
    ],
);
const E_ACUTE: Pad = pad(b"\xC3\xA9", &[(0, 2, Cp(0xE9))]);
const EURO: Pad = pad(b"\xE2\x82\xAC", &[(0, 3, Cp(0x20AC))]);
const A_EURO: Pad = pad(b"a\xE2\x82\xAC", &[(0, 1, Cp(0x61)), (1, 3, Cp(0x20AC))]);
const EMOJI_4: Pad = pad(b"\xF0\x9F\x98\x80", &[(0, 4, Cp(0x1_F600))]);
const EMOJI_6: Pad = pad(b"\xED\xA0\xBD\xED\xB8\x80", &[(0, 6, Cp(0x1_F600))]);
const NUL_2: Pad = pad(b"\xC0\x80", &[(0, 2, Cp(0))]);
const LONE_TRAIL: Pad = pad(b"\xED\xB8\x80", &[(0, 3, Cp(0xDE00))]);
const FIVE: Pad = pad(b"\xF8\x88\x80\x80\x80", &[(0, 5, Cp(0x20_0000))]);
const SIX: Pad = pad(b"\xFD\xBF\xBF\xBF\xBF\xBF", &[(0, 6, Cp(0x7FFF_FFFF))]);
const Z: Pad = pad(b"z", &[(0, 1, Cp(0x7A))]);
const EURO_Z: Pad = pad(b"\xE2\x82\xAC\x7A", &[(0, 3, Cp(0x20AC)), (3, 1, Cp(0x7A))]);

/// What may come before a case: ASCII, and valid multibyte units of every class the dialect
/// has. None ends with a lead surrogate (which could pair with a case's trail).
fn prefixes(d: Dialect) -> Vec<&'static Pad> {
    let mut v = vec![&EMPTY, &A, &ABC, &E_ACUTE, &EURO, &A_EURO];
    match d {
        Dialect::Utf8 => v.push(&EMOJI_4),
        Dialect::Cesu8 => v.push(&EMOJI_6),
        Dialect::Mutf8 => v.extend([&EMOJI_6, &NUL_2, &LONE_TRAIL]),
        Dialect::Wtf8 => v.extend([&EMOJI_4, &LONE_TRAIL]),
        Dialect::Legacy => v.extend([&EMOJI_4, &LONE_TRAIL, &FIVE, &SIX]),
        _ => {}
    }
    v
}

/// What may come after a case: nothing, ASCII, multibyte. None starts with a continuation
/// byte or a trail surrogate.
fn suffixes() -> [&'static Pad; 4] {
    [&EMPTY, &Z, &E_ACUTE, &EURO_Z]
}

fn shifted(units: &[Triple], by: usize) -> impl Iterator<Item = Triple> + '_ {
    units.iter().map(move |(s, l, w)| (s + by, *l, *w))
}

/// Every case of a dialect's table, with every prefix and suffix: the exact units, and every
/// invariant of `tests/support/invariants.rs`. A case that ends in `truncated_eof` becomes
/// `truncated` when a suffix follows.
fn run_table(d: Dialect) -> usize {
    let mut runs = 0;
    for case in table(d) {
        for pre in prefixes(d) {
            for suf in suffixes() {
                let bytes = [pre.bytes, case.bytes, suf.bytes].concat();
                let mut want: Vec<Triple> = pre.units.to_vec();
                let at = pre.bytes.len();
                want.extend(shifted(case.units, at).map(|(s, l, w)| match w {
                    E(TruncatedEof) if !suf.bytes.is_empty() => (s, l, E(Truncated)),
                    w => (s, l, w),
                }));
                want.extend(shifted(suf.units, at + case.bytes.len()));
                assert_eq!(
                    triples(d, &bytes),
                    want,
                    "{d} case {:?} with prefix {:02X?} and suffix {:02X?}",
                    case.name,
                    pre.bytes,
                    suf.bytes
                );
                check_all(d, &bytes);
                runs += 1;
            }
        }
    }
    runs
}

/// Each table holds a case of every kind the dialect can produce, and only those.
fn assert_table_covers_kinds(d: Dialect) {
    let mut kinds: Vec<ErrorKind> = table(d)
        .iter()
        .flat_map(|c| c.units.iter())
        .filter_map(|(_, _, w)| match w {
            E(k) => Some(*k),
            Cp(_) => None,
        })
        .collect();
    kinds.sort();
    kinds.dedup();
    let mut want = possible_kinds(d).to_vec();
    want.sort();
    assert_eq!(kinds, want, "{d}");
    // The library's own list (used for reports) says the same as the rules restated here.
    let mut listed = d.error_kinds().to_vec();
    listed.sort();
    assert_eq!(listed, want, "{d}: Dialect::error_kinds");
    // And every case's units tile the case's bytes.
    for case in table(d) {
        let mut pos = 0;
        for (s, l, _) in case.units {
            assert_eq!(*s, pos, "{d} {}", case.name);
            pos += *l as usize;
        }
        assert_eq!(pos, case.bytes.len(), "{d} {}", case.name);
    }
}

#[test]
fn utf8_cases() {
    assert_table_covers_kinds(Dialect::Utf8);
    assert_eq!(run_table(Dialect::Utf8), UTF8.len() * 7 * 4);
}

#[test]
fn cesu8_cases() {
    assert_table_covers_kinds(Dialect::Cesu8);
    assert_eq!(run_table(Dialect::Cesu8), CESU8.len() * 7 * 4);
}

#[test]
fn mutf8_cases() {
    assert_table_covers_kinds(Dialect::Mutf8);
    assert_eq!(run_table(Dialect::Mutf8), MUTF8.len() * 9 * 4);
}

#[test]
fn wtf8_cases() {
    assert_table_covers_kinds(Dialect::Wtf8);
    assert_eq!(run_table(Dialect::Wtf8), WTF8.len() * 8 * 4);
}

#[test]
fn legacy_cases() {
    assert_table_covers_kinds(Dialect::Legacy);
    assert_eq!(run_table(Dialect::Legacy), LEGACY.len() * 10 * 4);
}

/// A UTF-16 or UTF-32 case: code units (written in each byte order by the test), raw bytes
/// after them, and the units in bytes (the same in both byte orders).
struct WideCase {
    name: &'static str,
    code_units: &'static [u32],
    tail: &'static [u8],
    units: &'static [Triple],
}

macro_rules! wide_cases {
    ($($name:literal : $cu:expr, $tail:expr => [$($unit:expr),* $(,)?]),* $(,)?) => {
        &[$(WideCase { name: $name, code_units: &$cu, tail: &$tail, units: &[$($unit),*] }),*]
    };
}

const H: Want = E(UnpairedHighSurrogate);
const L: Want = E(UnpairedLowSurrogate);
const LEFT: Want = E(TruncatedUnit);

const WIDE16: &[WideCase] = wide_cases![
    "U+0000": [0x0000], [] => [(0, 2, Cp(0))],
    "before surrogates": [0xD7FF], [] => [(0, 2, Cp(0xD7FF))],
    "after surrogates": [0xE000], [] => [(0, 2, Cp(0xE000))],
    "BMP max": [0xFFFF], [] => [(0, 2, Cp(0xFFFF))],
    "pair min": [0xD800, 0xDC00], [] => [(0, 4, Cp(0x1_0000))],
    "pair max": [0xDBFF, 0xDFFF], [] => [(0, 4, Cp(0x10_FFFF))],
    "lone high": [0xD800], [] => [(0, 2, H)],
    "high before a pair": [0xD83D, 0xD83D, 0xDE00], [] => [(0, 2, H), (2, 4, Cp(0x1_F600))],
    "high before BMP": [0xDBFF, 0x0041], [] => [(0, 2, H), (2, 2, Cp(0x41))],
    "lone low": [0xDC00], [] => [(0, 2, L)],
    "low then high": [0xDFFF, 0xDBFF], [] => [(0, 2, L), (2, 2, H)],
    "pair then low": [0xD83D, 0xDE00, 0xDE00], [] => [(0, 4, Cp(0x1_F600)), (4, 2, L)],
    "odd byte": [], [0x41] => [(0, 1, LEFT)],
    "high then odd byte": [0xD83D], [0xDE] => [(0, 2, H), (2, 1, LEFT)],
];

const WIDE32: &[WideCase] = wide_cases![
    "U+0000": [0], [] => [(0, 4, Cp(0))],
    "before surrogates": [0xD7FF], [] => [(0, 4, Cp(0xD7FF))],
    "after surrogates": [0xE000], [] => [(0, 4, Cp(0xE000))],
    "max": [0x10_FFFF], [] => [(0, 4, Cp(0x10_FFFF))],
    "surrogate min": [0xD800], [] => [(0, 4, E(SurrogateUnit))],
    "surrogate max": [0xDFFF], [] => [(0, 4, E(SurrogateUnit))],
    "pair as two units": [0xD83D, 0xDE00], [] => [(0, 4, E(SurrogateUnit)), (4, 4, E(SurrogateUnit))],
    "above max": [0x11_0000], [] => [(0, 4, E(OutOfRange))],
    "u32 max": [0xFFFF_FFFF], [] => [(0, 4, E(OutOfRange))],
    "1 byte left": [], [0x41] => [(0, 1, LEFT)],
    "3 bytes left": [0x41], [0, 0, 0] => [(0, 4, Cp(0x41)), (4, 3, LEFT)],
];

/// Every wide case with padding of whole code units before (none ends with a high
/// surrogate) and after (none starts with a low one; none after a case with bytes left
/// over, which must end the input): the exact units and every invariant.
fn run_wide_table(d: Dialect) -> usize {
    let (cases, supplementary): (&[WideCase], &[u32]) = match d.code_unit_width() {
        Some(2) => (WIDE16, &[0xD83D, 0xDE00]),
        _ => (WIDE32, &[0x1_F600]),
    };
    let step = d.code_unit_width().unwrap_or(2) as u8;
    let pads: [(&[u32], Vec<Triple>); 4] = [
        (&[], vec![]),
        (&[0x61], vec![(0, step, Cp(0x61))]),
        (
            &[0xFEFF, 0xE9],
            vec![(0, step, Cp(0xFEFF)), (step as usize, step, Cp(0xE9))],
        ),
        (supplementary, vec![(0, 4, Cp(0x1_F600))]),
    ];
    let mut runs = 0;
    for case in cases {
        let body = [
            wide::units(d, case.code_units.iter().copied()),
            case.tail.to_vec(),
        ]
        .concat();
        for (pre, pre_units) in &pads {
            for (suf, suf_units) in &pads {
                if !case.tail.is_empty() && !suf.is_empty() {
                    continue;
                }
                let pre_bytes = wide::units(d, pre.iter().copied());
                let bytes = [
                    pre_bytes.clone(),
                    body.clone(),
                    wide::units(d, suf.iter().copied()),
                ]
                .concat();
                let mut want = pre_units.clone();
                want.extend(shifted(case.units, pre_bytes.len()));
                want.extend(shifted(suf_units, pre_bytes.len() + body.len()));
                assert_eq!(
                    triples(d, &bytes),
                    want,
                    "{d} case {:?} on {bytes:02X?}",
                    case.name
                );
                check_all(d, &bytes);
                runs += 1;
            }
        }
    }
    // Each table holds a case of every kind the dialect can produce, and only those.
    let mut kinds: Vec<ErrorKind> = cases
        .iter()
        .flat_map(|c| c.units.iter())
        .filter_map(|(_, _, w)| match w {
            E(k) => Some(*k),
            Cp(_) => None,
        })
        .collect();
    kinds.sort();
    kinds.dedup();
    let mut want = possible_kinds(d).to_vec();
    want.sort();
    assert_eq!(kinds, want, "{d}");
    let mut listed = d.error_kinds().to_vec();
    listed.sort();
    assert_eq!(listed, want, "{d}: Dialect::error_kinds");
    runs
}

#[test]
fn utf16_and_utf32_cases() {
    for d in Dialect::WIDE {
        let cases = if d.code_unit_width() == Some(2) {
            WIDE16
        } else {
            WIDE32
        };
        let with_tail = cases.iter().filter(|c| !c.tail.is_empty()).count();
        assert_eq!(
            run_wide_table(d),
            (cases.len() - with_tail) * 16 + with_tail * 4,
            "{d}"
        );
    }
}

/// The same UTF-8 cases in a dialect where the rules agree give the same units: WTF-8 reads
/// every UTF-8 case that has no ED A0..BF the same way.
#[test]
fn wtf8_agrees_with_utf8_outside_surrogates() {
    for case in UTF8 {
        if case.bytes.windows(2).any(|w| w[0] == 0xED && w[1] >= 0xA0) {
            continue;
        }
        assert_eq!(
            triples(Dialect::Wtf8, case.bytes),
            case.units,
            "{}",
            case.name
        );
    }
}

// ---------------------------------------------------------------------------------------------
// expected() and diagnose()
// ---------------------------------------------------------------------------------------------

/// (dialect, input, offset of the error, expected range, diagnosis and its span,
/// whether the diagnosis depends on the neighbours).
type Explained = (
    Dialect,
    &'static [u8],
    usize,
    Option<&'static str>,
    Option<(&'static str, u8)>,
    bool,
);

#[rustfmt::skip]
const EXPLAINED: &[Explained] = &[
    // The four the issue names.
    (Dialect::Utf8, b"\xC0\xAF", 0, None, Some(("overlong form of U+002F '/'", 2)), false),
    (Dialect::Utf8, b"\xED\xA0\x80", 0, Some("80..9F"), Some(("UTF-16 surrogate U+D800 (lead half, not a character)", 3)), false),
    (Dialect::Utf8, b"\xF4\x90\x80\x80", 0, Some("80..8F"), Some(("U+110000, above U+10FFFF: not a Unicode code point", 4)), false),
    (Dialect::Utf8, b"\xF8\x88\x80\x80\x80", 0, None, Some(("a 5-byte form from RFC 2279 (U+200000)", 5)), false),
    // More UTF-8.
    (Dialect::Utf8, b"\xE0\x80\xAF", 0, Some("A0..BF"), Some(("overlong form of U+002F '/'", 3)), false),
    (Dialect::Utf8, b"\xF0\x80\x80\xAF", 0, Some("90..BF"), Some(("overlong form of U+002F '/'", 4)), false),
    (Dialect::Utf8, b"\xC0\x80", 0, None, Some(("overlong form of U+0000 (Modified UTF-8's NUL)", 2)), false),
    (Dialect::Utf8, b"\xE0\x80\x80", 0, Some("A0..BF"), Some(("overlong form of U+0000", 3)), false),
    (Dialect::Utf8, b"\xC1\xA9", 0, None, Some(("overlong form of U+0069 'i'", 2)), false),
    (Dialect::Utf8, b"\xED\xBF\xBF", 0, Some("80..9F"), Some(("UTF-16 surrogate U+DFFF (trail half, not a character)", 3)), false),
    (Dialect::Utf8, b"\xED\xA0\xBD\xED\xB8\x80", 0, Some("80..9F"), Some(("surrogate pair U+D83D U+DE00 for U+1F600 written as two 3-byte sequences (CESU-8 style)", 6)), false),
    (Dialect::Utf8, b"\xED\xA0\xBD\xED\xB8\x80", 3, Some("80..9F"), Some(("surrogate pair U+D83D U+DE00 for U+1F600 written as two 3-byte sequences (CESU-8 style)", 3)), false),
    (Dialect::Utf8, b"\xF5\x80\x80\x80", 0, None, Some(("U+140000, above U+10FFFF: not a Unicode code point", 4)), false),
    (Dialect::Utf8, b"\xF7\xBF\xBF\xBF", 0, None, Some(("U+1FFFFF, above U+10FFFF: not a Unicode code point", 4)), false),
    (Dialect::Utf8, b"\xFC\x84\x80\x80\x80\x80", 0, None, Some(("a 6-byte form from RFC 2279 (U+4000000)", 6)), false),
    (Dialect::Utf8, b"\xE1\x80A", 0, Some("80..BF"), None, false),
    (Dialect::Utf8, b"\xF0\x9F\x98", 0, Some("80..BF"), None, false),
    (Dialect::Utf8, b"\xF0A", 0, Some("90..BF"), Some(("lone byte F0: 'ð' in Latin-1/Windows-1252?", 1)), true),
    (Dialect::Utf8, b"\x80\x80", 1, None, None, false),
    (Dialect::Utf8, b"caf\xE9 ok", 3, Some("80..BF"), Some(("lone byte E9: 'é' in Latin-1/Windows-1252?", 1)), true),
    (Dialect::Utf8, b"\x93q\x94", 0, None, Some(("lone byte 93: '“' in Latin-1/Windows-1252?", 1)), true),
    (Dialect::Utf8, b"a\x81b", 1, None, Some(("lone byte 81 between ASCII bytes", 1)), true),
    (Dialect::Utf8, b"a\x81", 1, None, Some(("lone byte 81 after an ASCII byte, at the end of the input", 1)), true),
    (Dialect::Utf8, b"\x81a", 0, None, Some(("lone byte 81 at the start of the input, before an ASCII byte", 1)), true),
    (Dialect::Utf8, b"\xFF\xFEa\x00", 0, None, Some(("UTF-16LE byte order mark: the input looks like UTF-16", 2)), true),
    (Dialect::Utf8, b"\xFE\xFF\x00a", 0, None, Some(("UTF-16BE byte order mark: the input looks like UTF-16", 2)), true),
    // CESU-8.
    (Dialect::Cesu8, b"\xF0\x9F\x98\x80", 0, None, Some(("4-byte UTF-8 form of U+1F600 (F0 9F 98 80); this dialect writes it as the surrogate pair ED A0 BD ED B8 80", 4)), false),
    (Dialect::Cesu8, b"\xED\xA0\xBD", 0, None, Some(("UTF-16 surrogate U+D83D (lead half, not a character)", 3)), false),
    (Dialect::Cesu8, b"\xED\xB8\x80", 0, None, Some(("UTF-16 surrogate U+DE00 (trail half, not a character)", 3)), false),
    (Dialect::Cesu8, b"\xE0\x9F\xBF", 0, Some("A0..BF"), Some(("overlong form of U+07FF", 3)), false),
    (Dialect::Cesu8, b"\xED\xA0\xBDA", 0, None, Some(("UTF-16 surrogate U+D83D (lead half, not a character)", 3)), false),
    // Modified UTF-8.
    (Dialect::Mutf8, b"\x00", 0, None, Some(("raw NUL byte; Modified UTF-8 writes U+0000 as C0 80", 1)), false),
    (Dialect::Mutf8, b"\xC0\xAF", 0, Some("80"), Some(("overlong form of U+002F '/'", 2)), false),
    (Dialect::Mutf8, b"\xC0\x81", 0, Some("80"), Some(("overlong form of U+0001", 2)), false),
    (Dialect::Mutf8, b"\xE0\x80\x80", 0, Some("A0..BF"), Some(("overlong form of U+0000", 3)), false),
    (Dialect::Mutf8, b"\xF0\x9F\x98\x80", 0, None, Some(("4-byte UTF-8 form of U+1F600 (F0 9F 98 80); this dialect writes it as the surrogate pair ED A0 BD ED B8 80", 4)), false),
    // WTF-8.
    (Dialect::Wtf8, b"\xED\xA0\xBD\xED\xB8\x80", 0, None, Some(("surrogate pair U+D83D U+DE00 for U+1F600 written as two 3-byte sequences (CESU-8 style)", 6)), false),
    (Dialect::Wtf8, b"\xED\xA0\xBD\xED\xB8\x80", 3, None, Some(("surrogate pair U+D83D U+DE00 for U+1F600 written as two 3-byte sequences (CESU-8 style)", 3)), false),
    (Dialect::Wtf8, b"\xF4\x90\x80\x80", 0, Some("80..8F"), Some(("U+110000, above U+10FFFF: not a Unicode code point", 4)), false),
    (Dialect::Wtf8, b"\xF0\x8F\xBF\xBF", 0, Some("90..BF"), Some(("overlong form of U+FFFF", 4)), false),
    // Legacy UTF-8.
    (Dialect::Legacy, b"\xF8\x87\xBF\xBF\xBF", 0, Some("88..BF"), Some(("overlong form of U+1FFFFF", 5)), false),
    (Dialect::Legacy, b"\xFC\x83\xBF\xBF\xBF\xBF", 0, Some("84..BF"), Some(("overlong form of U+3FFFFFF", 6)), false),
    (Dialect::Legacy, b"\xFC\x80\x80\x80\x80\xAF", 0, Some("84..BF"), Some(("overlong form of U+002F '/'", 6)), false),
    (Dialect::Legacy, b"\xFC\x84\x80\x80\x80", 0, Some("80..BF"), None, false),
    (Dialect::Legacy, b"\xF8A", 0, Some("88..BF"), Some(("lone byte F8: 'ø' in Latin-1/Windows-1252?", 1)), true),
    (Dialect::Legacy, b"\xC0\x80", 0, None, Some(("overlong form of U+0000 (Modified UTF-8's NUL)", 2)), false),
];

#[test]
fn expected_ranges_and_diagnoses() {
    for &(d, bytes, at, range, diag, _) in EXPLAINED {
        let u = d.unit_containing(bytes, at);
        assert!(u.is_error(), "{d} {bytes:02X?}: not an error at {at}");
        assert_eq!(u.start, at, "{d} {bytes:02X?}");
        assert_eq!(
            d.expected(bytes, &u).map(|r| r.to_string()).as_deref(),
            range,
            "{d} {bytes:02X?} expected"
        );
        let got = d.diagnose(bytes, &u).map(|x| (x.to_string(), x.span));
        assert_eq!(
            got.as_ref().map(|(s, n)| (s.as_str(), *n)),
            diag,
            "{d} {bytes:02X?} diagnose"
        );
    }
}

/// The context-free diagnoses and every expected range stay the same with padding around.
#[test]
fn expected_ranges_and_diagnoses_with_padding() {
    for &(d, bytes, at, range, diag, contextual) in EXPLAINED {
        if contextual {
            continue;
        }
        for pre in prefixes(d) {
            for suf in [&EMPTY, &Z, &EURO_Z] {
                let padded = [pre.bytes, bytes, suf.bytes].concat();
                let x = pre.bytes.len() + at;
                let u = d.unit_containing(&padded, x);
                assert_eq!(u.start, x);
                // A truncated_eof error cut by a suffix instead reports the same range.
                assert_eq!(
                    d.expected(&padded, &u).map(|r| r.to_string()).as_deref(),
                    range,
                    "{d} {padded:02X?}"
                );
                let got = d.diagnose(&padded, &u).map(|x| (x.to_string(), x.span));
                assert_eq!(
                    got.as_ref().map(|(s, n)| (s.as_str(), *n)),
                    diag,
                    "{d} {padded:02X?}"
                );
            }
        }
    }
}

/// The findings of the issue's four examples, as values.
#[test]
fn issue_findings_as_values() {
    let cases: [(&[u8], Finding, u8); 4] = [
        (
            b"\xC0\xAF",
            Finding::Overlong {
                value: CodePoint::new(0x2F),
                len: 2,
            },
            2,
        ),
        (
            b"\xED\xA0\x80",
            Finding::Surrogate {
                value: CodePoint::new(0xD800),
            },
            3,
        ),
        (
            b"\xF4\x90\x80\x80",
            Finding::AboveUnicode {
                value: CodePoint::new(0x11_0000),
            },
            4,
        ),
        (
            b"\xF8\x88\x80\x80\x80",
            Finding::LegacyForm {
                value: CodePoint::new(0x20_0000),
                len: 5,
            },
            5,
        ),
    ];
    for (bytes, finding, span) in cases {
        let u = Dialect::Utf8.decode_at(bytes, 0);
        let got = Dialect::Utf8.diagnose(bytes, &u).expect("a diagnosis");
        assert_eq!((got.finding, got.span), (finding, span), "{bytes:02X?}");
    }
    // Scalars have neither an expected range nor a diagnosis.
    let u = Dialect::Utf8.decode_at(b"\xC3\xA9", 0);
    assert_eq!(Dialect::Utf8.expected(b"\xC3\xA9", &u), None);
    assert_eq!(Dialect::Utf8.diagnose(b"\xC3\xA9", &u), None);
}

// ---------------------------------------------------------------------------------------------
// Resync windows
// ---------------------------------------------------------------------------------------------

/// Resync finds every unit's start within `max_lookback` bytes (3 in WTF-8). In WTF-8 the
/// *kind* of the trail half of a pair written as two 3-byte sequences depends on the lead
/// before it, which starts 5 bytes before the trail's last byte: with only 3 bytes of look-back
/// the same bytes read as a lone trail surrogate. The dialect rules ask for two
/// `surrogate_pair` errors, so classification needs the 5-byte window the decoder documents
/// ("no byte outside x-5 ..= x+5 is read"); the start and length need only 3.
#[test]
fn wtf8_pair_trail_needs_five_bytes_back_to_classify() {
    let w = Dialect::Wtf8;
    let bytes = b"a\xED\xA0\x80\xED\xB0\x80z";
    let x = 6; // last byte of the trail half
    let full = w.unit_containing(bytes, x);
    assert_eq!(
        (full.start, full.len, Want::of(&full)),
        (4, 3, E(SurrogatePair))
    );
    // x-5 .. : the lead is in view, same answer.
    let u = w.unit_containing(&bytes[x - 5..], 5);
    assert_eq!(
        (u.start + x - 5, u.len, Want::of(&u)),
        (4, 3, E(SurrogatePair))
    );
    // x-3 .. : start and length still right, but the lead is out of view.
    let u = w.unit_containing(&bytes[x - 3..], 3);
    assert_eq!((u.start + x - 3, u.len, Want::of(&u)), (4, 3, Cp(0xDC00)));
}

/// In CESU-8 and Modified UTF-8 a 6-byte pair is found from its last byte, 5 bytes back, and
/// from nowhere further.
#[test]
fn six_byte_units_resync_from_every_byte() {
    for d in [Dialect::Cesu8, Dialect::Mutf8] {
        let bytes = b"\xED\xA0\xBD\xED\xB8\x80";
        for x in 0..6 {
            let u = d.unit_containing(bytes, x);
            assert_eq!(
                (u.start, u.len, Want::of(&u)),
                (0, 6, Cp(0x1_F600)),
                "{d} {x}"
            );
            assert_eq!(d.prev_unit(bytes, x), None);
            assert_eq!(d.next_unit(bytes, x), None);
        }
    }
    let bytes = b"\xFD\xBF\xBF\xBF\xBF\xBFa";
    for x in 0..6 {
        let u = Dialect::Legacy.unit_containing(bytes, x);
        assert_eq!(
            (u.start, u.len, Want::of(&u)),
            (0, 6, Cp(0x7FFF_FFFF)),
            "{x}"
        );
        let next = Dialect::Legacy.next_unit(bytes, x).unwrap();
        assert_eq!((next.start, next.len, Want::of(&next)), (6, 1, Cp(0x61)));
    }
}
