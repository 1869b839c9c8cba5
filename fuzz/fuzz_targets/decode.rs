//! Fuzz target: every invariant of the decoder on arbitrary bytes, in every dialect.
//!
//! - UTF-8 units equal `core::str::Utf8Chunks` (boundaries and values);
//! - resync (`unit_containing`) from every offset equals decoding from the start, also when
//!   given only the documented window of bytes around the offset;
//! - units tile the input, scalars re-encode to their bytes, errors match their kind's
//!   byte pattern; navigation, `expected()` and `diagnose()` agree with the units;
//! - every dialect equals the independent reference model of `tests/support/reference.rs`.
//!
//! The checks live in `tests/support/`, shared with the property tests.
#![no_main]

use hexrune::decode::{Dialect, Unit};
use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "../../tests/support/invariants.rs"]
mod invariants;

#[allow(dead_code)]
#[path = "../../tests/support/reference.rs"]
mod reference;

fuzz_target!(|data: &[u8]| {
    for d in Dialect::ALL {
        let units: Vec<Unit> = invariants::check_all(d, data);
        let want = reference::Reference::new(d).units(data);
        assert_eq!(
            units, want,
            "{d} differs from the reference model on {data:02X?}"
        );
    }
});
