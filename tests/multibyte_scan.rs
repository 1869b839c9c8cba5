//! The scan and the block index in the multi-byte legacy encodings, which are not
//! self-synchronizing: whatever the number of threads, and however the input is cut into
//! ranges, every unit is counted once and every offset finds the unit decoding from the
//! start gives, including deep in runs of bytes that are both leads and trails (hiragana
//! in Shift_JIS: `82 A0 82 A2 ...`), where starting one byte off pairs every byte wrongly.

use hexrune::decode::{Dialect, Unit};
use hexrune::encoding::resolve;
use hexrune::scan::index::{Progress, Summary};
use hexrune::scan::{scan_range, ClassCounts, Sink};
use proptest::prelude::*;

#[derive(Default)]
struct Collect {
    errors: Vec<Unit>,
    classes: ClassCounts,
}

impl Sink for Collect {
    fn unit(&mut self, _bytes: &[u8], unit: &Unit) {
        match unit.class() {
            Some(c) => self.classes[c as usize] += 1,
            None => self.errors.push(*unit),
        }
    }
    fn scalars(&mut self, classes: &ClassCounts) {
        for (a, b) in self.classes.iter_mut().zip(classes) {
            *a += b;
        }
    }
}

/// Shift_JIS with long stretches of hiragana and kanji and no sync byte at all (no ASCII:
/// full-width space and punctuation), then lines with newlines, then a planted error, with
/// a single stray lead byte in the middle of a run, which shifts the pairing after it.
fn shift_jis_without_sync() -> Vec<u8> {
    let text = "あいうえおかきくけこ、漢字とひらがな。　".repeat(9_000);
    let (run, _, _) = encoding_rs::SHIFT_JIS.encode(&text);
    let lines = "東京 2024\n".repeat(5_000);
    let (lines, _, _) = encoding_rs::SHIFT_JIS.encode(&lines);
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&run);
    bytes.push(0x82); // a stray lead: the pairing after it changes
    bytes.extend_from_slice(&run);
    bytes.extend_from_slice(&lines);
    bytes.extend_from_slice(b"\x85\x40\xFF");
    bytes.extend_from_slice(&run);
    bytes
}

fn check_summary(d: Dialect, bytes: &[u8]) {
    let units: Vec<Unit> = d.units(bytes).collect();
    let one = Summary::build(d, bytes, 1, &Progress::new()).unwrap();
    for threads in [2, 3, 4] {
        let many = Summary::build(d, bytes, threads, &Progress::new()).unwrap();
        assert_eq!(many.blocks, one.blocks, "{threads} threads");
        assert_eq!(many.tally, one.tally, "{threads} threads");
    }
    assert_eq!(one.unit_count(), units.len() as u64);
    let errors: Vec<Unit> = units.iter().filter(|u| u.is_error()).copied().collect();
    assert_eq!(one.errors(bytes).collect::<Vec<_>>(), errors);
    let mut classes = ClassCounts::default();
    for u in &units {
        if let Some(c) = u.class() {
            classes[c as usize] += 1;
        }
    }
    assert_eq!(one.tally.classes, classes);
    // Offsets all over: the index's checkpoints, and resync without them, give the unit
    // decoding from the start gives; unit numbers agree both ways.
    let step = (bytes.len() / 997).max(1);
    for offset in (0..bytes.len()).step_by(step).chain([bytes.len() - 1]) {
        let i = units.partition_point(|u| u.end() <= offset);
        let want = units[i];
        let found = one.resync(bytes, offset);
        assert_eq!(found.unit, want, "@{offset}");
        assert!(offset - found.from <= one.block_size * 2 || found.from == 0);
        assert_eq!(d.unit_containing(bytes, offset), want, "@{offset}");
        assert_eq!(one.unit_number(bytes, offset), i as u64, "@{offset}");
        assert_eq!(one.unit_offset(bytes, i as u64), Some(want.start));
        if let Some(next) = one.next_error(bytes, offset) {
            assert_eq!(
                Some(next),
                errors.iter().find(|e| e.start >= offset).copied()
            );
        }
    }
}

#[test]
fn shift_jis_index_is_exact_with_any_number_of_threads() {
    let d = resolve("Shift_JIS").unwrap();
    let bytes = shift_jis_without_sync();
    assert!(bytes.len() > 1 << 20, "several tasks of blocks");
    check_summary(d, &bytes);
    // The stray lead shifts the pairing: a naive start one byte off would see other units.
    let half = bytes.len() / 4;
    let unit = d.unit_containing(&bytes, half);
    let naive = d.units(&bytes[half..]).next().unwrap();
    assert!(unit.start != half || naive.len != unit.len || unit.is_error());
    // The whole file reads as encoding_rs reads it: the stray lead pairs with the byte
    // after it, and every pair after that is shifted by one byte until a sync byte.
    let table = d.multi_byte().unwrap();
    let mut ours = String::new();
    for u in d.units(&bytes) {
        let (chars, n) = table.text(&bytes, &u);
        ours.extend(&chars[..n]);
    }
    assert_eq!(
        ours,
        encoding_rs::SHIFT_JIS.decode_without_bom_handling(&bytes).0
    );
    let errors: Vec<(usize, u8, &str)> = d
        .units(&bytes)
        .filter_map(|u| u.error_kind().map(|k| (u.start, u.len, k.name())))
        .collect();
    assert_eq!(errors.last().unwrap().2, "invalid_byte");
}

#[test]
fn every_encoding_index_is_exact() {
    for (label, text) in [
        ("EUC-JP", "ひらがなとカタカナ、漢字。"),
        ("ISO-2022-JP", "ひらがな abc カタカナ\n漢字"),
        ("EUC-KR", "대한민국 헌법"),
        ("GBK", "中华人民共和国"),
        ("gb18030", "中文𠀀ཀ😀"),
        ("Big5", "中華民國臺北"),
    ] {
        let d = resolve(label).unwrap();
        let encoding = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
        let text = text.repeat(40_000);
        let mut bytes = encoding.encode(&text).0.into_owned();
        bytes.insert(bytes.len() / 2, 0x8F);
        check_summary(d, &bytes);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Scanning consecutive ranges counts every unit once, as decoding from the start does.
    #[test]
    fn ranges_scan_like_one_decode(
        pieces in prop::collection::vec(prop_oneof![
            3 => (0x81u8..=0xFE, 0x40u8..=0xFE).prop_map(|(a, b)| vec![a, b]),
            1 => (0x81u8..=0x84, 0x30u8..=0x39, 0x81u8..=0xFE, 0x30u8..=0x39)
                .prop_map(|(a, b, c, e)| vec![a, b, c, e]),
            1 => prop::sample::select(vec![b"\x1b$B".to_vec(), b"\x1b(B".to_vec(), b"\x1b(I".to_vec()]),
            1 => (0u8..0x80).prop_map(|b| vec![b]),
        ], 0..200),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..6),
        which in 0..7usize,
    ) {
        let label = ["Shift_JIS", "EUC-JP", "ISO-2022-JP", "EUC-KR", "GBK", "gb18030", "Big5"][which];
        let d = resolve(label).unwrap();
        let bytes = pieces.concat();
        let mut edges: Vec<usize> = cuts.iter().map(|i| i.index(bytes.len() + 1)).collect();
        edges.extend([0, bytes.len()]);
        edges.sort();
        let mut got = Collect::default();
        for w in edges.windows(2) {
            scan_range(d, &bytes, w[0]..w[1], &mut got);
        }
        let mut want = Collect::default();
        for u in d.units(&bytes) {
            want.unit(&bytes, &u);
        }
        prop_assert_eq!(got.errors, want.errors);
        prop_assert_eq!(got.classes, want.classes);
    }
}
