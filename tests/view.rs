//! The view model's invariant: the cells built for any window equal the full decode of the
//! input restricted to that window (a unit cut by a window or row edge is never an error).

use hexrune::decode::{Dialect, Unit};
use hexrune::view::fallback::Escape;
use hexrune::view::glyph::{GlyphClass, InlineGlyph};
use hexrune::view::{rows, Class, Options, TextCell};
use proptest::prelude::*;

mod support;

fn dialect() -> impl Strategy<Value = Dialect> {
    prop::sample::select(Dialect::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_window_equals_the_full_decode(
        bytes in support::unit_soup(200),
        d in dialect(),
        a in 0usize..220,
        b in 0usize..220,
        width in prop::sample::select(vec![1usize, 3, 8, 16, 32]),
        escape in prop::sample::select(vec![None, Some(Escape::Pep383), Some(Escape::Optu8)]),
    ) {
        let (start, end) = (a.min(b) as u64, a.max(b) as u64);
        let units: Vec<Unit> = d.units(&bytes).collect();
        let unit_at = |o: u64| *units.iter().find(|u| u.contains(o as usize)).unwrap();
        let built = rows(&bytes, d, start..end, width, Options { cursor: Some(start), escape, ..Options::default() });
        let shown = end.min(bytes.len() as u64).saturating_sub(start);
        prop_assert_eq!(built.iter().map(|r| r.cells.len() as u64).sum::<u64>(), shown);
        for (i, row) in built.iter().enumerate() {
            prop_assert_eq!(row.offset, start + (i * width) as u64);
            prop_assert_eq!(row.text.len(), row.cells.len());
            for (col, cell) in row.cells.iter().enumerate() {
                let offset = row.offset + col as u64;
                let unit = unit_at(offset);
                prop_assert_eq!(cell.offset, offset);
                prop_assert_eq!(cell.byte, bytes[offset as usize]);
                prop_assert_eq!((cell.unit_start, cell.unit_len), (unit.start as u64, unit.len));
                prop_assert_eq!(cell.selected, unit.contains(start as usize));
                let k = (offset - unit.start as u64) as u8;
                let class = match unit.error_kind() {
                    Some(kind) => Class::Error(kind),
                    None if k == 0 => Class::Lead(unit.len),
                    None => Class::Continuation { k: k + 1, n: unit.len },
                };
                prop_assert_eq!(cell.class, class);
                // A glyph exactly where a unit's lead is in the window; under an escape,
                // on every byte of an error unit, the code point the scheme writes.
                let is_glyph = matches!(row.text[col], TextCell::Glyph(_));
                match (escape, unit.is_error()) {
                    (Some(e), true) => {
                        let byte = bytes[offset as usize];
                        let want = InlineGlyph::escaped(e, byte).fit(1);
                        prop_assert_eq!(&row.text[col], &TextCell::Glyph(want.into()));
                        prop_assert_eq!(want.class == GlyphClass::Escaped, byte >= 0x80);
                    }
                    _ => prop_assert_eq!(is_glyph, k == 0),
                }
                if let TextCell::Glyph(g) = &row.text[col] {
                    let room = (unit.len as usize).min(row.cells.len() - col);
                    prop_assert!((g.width as usize) <= room);
                }
            }
            // One error span per error unit touching the row, head where the unit starts.
            let mut expected = Vec::new();
            for cell in &row.cells {
                let unit = unit_at(cell.offset);
                if unit.is_error() && (cell.offset == row.offset || cell.offset == unit.start as u64) {
                    expected.push((unit.start as u64).max(row.offset));
                }
            }
            let spans: Vec<u64> = row.errors.iter().map(|s| row.offset + s.col as u64).collect();
            prop_assert_eq!(spans, expected);
        }
    }
}
