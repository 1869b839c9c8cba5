//! Fuzz target: the whole-input scan equals decoding unit by unit, in every dialect.
//!
//! - a sink that sees every unit gets the error units in order, and scalars (one by one or
//!   counted in bulk) that add up to the decoder's, class by class;
//! - [`Tally`] gets the same counts and the same first and last error, and so does the
//!   block index, whose sink only counts (so the scan may count dense errors in bulk), and
//!   the errors it lists are the decoder's;
//! - cut into two ranges anywhere, the two scans add up to the same.
//!
//! The UTF-8 kernel the scan uses is the best the CPU has; run the target again with
//! `HEXRUNE_SCAN_KERNEL=avx2` or `=scalar` to fuzz the others.
#![no_main]

use hexrune::decode::{Dialect, Unit, UnitKind};
use hexrune::scan::index::{Progress, Summary};
use hexrune::scan::{scan_range, ClassCounts, Sink, Tally};
use libfuzzer_sys::fuzz_target;

#[derive(Default)]
struct Collect {
    errors: Vec<Unit>,
    classes: ClassCounts,
}

impl Sink for Collect {
    fn unit(&mut self, _bytes: &[u8], unit: &Unit) {
        match unit.kind {
            UnitKind::Error(_) => self.errors.push(*unit),
            UnitKind::Scalar(_) => self.classes[unit.len as usize] += 1,
        }
    }
    fn scalars(&mut self, classes: &ClassCounts) {
        for (total, n) in self.classes.iter_mut().zip(classes) {
            *total += n;
        }
    }
}

fuzz_target!(|data: &[u8]| {
    // The first byte picks where to cut; the rest is the input.
    let Some((&cut, data)) = data.split_first() else {
        return;
    };
    let cut = (cut as usize * data.len()) / 255;
    for d in Dialect::ALL {
        let units: Vec<Unit> = d.units(data).collect();
        let errors: Vec<Unit> = units.iter().copied().filter(Unit::is_error).collect();
        let mut classes = ClassCounts::default();
        let mut want = Tally::default();
        for u in &units {
            if !u.is_error() {
                classes[u.len as usize] += 1;
            }
            want.unit(data, u);
        }
        let mut all = Collect::default();
        scan_range(d, data, 0..cut, &mut all);
        scan_range(d, data, cut..data.len(), &mut all);
        assert_eq!(all.errors, errors, "{d}: error units, cut at {cut}");
        assert_eq!(all.classes, classes, "{d}: scalars per class, cut at {cut}");
        let mut tally = Tally::default();
        scan_range(d, data, 0..cut, &mut tally);
        scan_range(d, data, cut..data.len(), &mut tally);
        assert_eq!(tally, want, "{d}: counts, cut at {cut}");
        let summary = Summary::build(d, data, 1, &Progress::new()).expect("not cancelled");
        assert_eq!(summary.tally, want, "{d}: the index's counts");
        let listed: Vec<Unit> = summary.errors(data).collect();
        assert_eq!(listed, errors, "{d}: the index's errors");
    }
});
