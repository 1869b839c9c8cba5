//! Exact spans of real sequences; the proptests of windows against the whole text's
//! segmentation are in `tests/cluster_oracle.rs`, beside the second implementation.

use super::*;

/// `(start, len, cps)` of each cluster of `text` read whole in UTF-8.
fn whole(bytes: &[u8], dialect: Dialect) -> Vec<(u64, u64, u32)> {
    let units: Vec<Unit> = dialect.units(bytes).collect();
    spans(&units)
        .iter()
        .map(|c| (c.start, c.len, c.cps))
        .collect()
}

fn utf8(text: &str) -> Vec<(u64, u64, u32)> {
    whole(text.as_bytes(), Dialect::Utf8)
}

#[test]
fn flags_are_eight_bytes_and_two_code_points() {
    assert_eq!(utf8("\u{1F1EB}\u{1F1F7}"), [(0, 8, 2)]);
    // Three regional indicators: a flag, then one alone.
    assert_eq!(utf8("\u{1F1EB}\u{1F1F7}\u{1F1E9}"), [(0, 8, 2), (8, 4, 1)]);
}

#[test]
fn a_family_is_twenty_five_bytes_and_seven_code_points() {
    let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}";
    assert_eq!(
        utf8(&format!("a{family}b")),
        [(0, 1, 1), (1, 25, 7), (26, 1, 1)]
    );
    let c = at(family.as_bytes(), Dialect::Utf8, 24, None).unwrap();
    assert_eq!(c.units.len(), 7);
    assert_eq!(c.units[1].0.start, 4);
    assert_eq!(c.parts().nth(1).unwrap().1, [CodePoint::new(0x200D)]);
    assert_eq!(c.code_points[6], CodePoint::new(0x1F466));
    assert_eq!(c.width, Some(2));
}

#[test]
fn a_keycap_is_one_cluster() {
    let keycap = b"\x31\xEF\xB8\x8F\xE2\x83\xA3";
    assert_eq!(whole(keycap, Dialect::Utf8), [(0, 7, 3)]);
    let c = at(keycap, Dialect::Utf8, 0, None).unwrap();
    assert_eq!(
        c.code_points,
        [0x31, 0xFE0F, 0x20E3].map(CodePoint::new).to_vec()
    );
}

#[test]
fn hangul_jamo_build_one_syllable() {
    // ᄒ ᅡ ᆫ (L V T), then 한 precomposed (LVT), then 하 (LV) and ᆫ (T).
    assert_eq!(
        utf8("\u{1112}\u{1161}\u{11AB}\u{D55C}\u{D558}\u{11AB}"),
        [(0, 9, 3), (9, 3, 1), (12, 6, 2)]
    );
    assert_eq!(hangul(0xD55C), Some("LVT"));
    assert_eq!(hangul(0xD558), Some("LV"));
}

#[test]
fn devanagari_conjuncts_and_vowel_signs() {
    // क्ष (KA VIRAMA SSA) is one conjunct (GB9c); नि (NA, vowel sign I) one cluster (GB9a).
    assert_eq!(
        utf8("\u{915}\u{94D}\u{937}\u{928}\u{93F}"),
        [(0, 9, 3), (9, 6, 2)]
    );
    let cp = CodePoint::new;
    assert_eq!(joint(&[cp(0x928)], cp(0x93F)), Joint::SpacingMark);
    // กำ, ຄຳ: SARA AM and LAO AM are spacing marks by their break property, letters by
    // their category.
    assert_eq!(joint(&[cp(0xE01)], cp(0xE33)), Joint::SpacingMark);
    assert_eq!(joint(&[cp(0xE84)], cp(0xEB3)), Joint::SpacingMark);
    assert_eq!(joint(&[cp(0x915)], cp(0x94D)), Joint::Mark);
}

#[test]
fn crlf_is_one_cluster_and_lf_cr_two() {
    assert_eq!(
        utf8("a\r\nb\n\r"),
        [(0, 1, 1), (1, 2, 2), (3, 1, 1), (4, 1, 1), (5, 1, 1)]
    );
    let cp = CodePoint::new;
    assert_eq!(joint(&[cp(0x0D)], cp(0x0A)), Joint::CrLf);
}

#[test]
fn an_error_unit_breaks_a_cluster() {
    // e, FF, COMBINING ACUTE ACCENT: the mark cannot reach across the error.
    assert_eq!(
        whole(b"e\xFF\xCC\x81", Dialect::Utf8),
        [(0, 1, 1), (1, 1, 0), (2, 2, 1)]
    );
    // A truncated sequence inside a ZWJ sequence: three clusters.
    let bytes = b"\xF0\x9F\x91\xA8\xE2\x80\xF0\x9F\x91\xA9";
    assert_eq!(
        whole(bytes, Dialect::Utf8),
        [(0, 4, 1), (4, 2, 0), (6, 4, 1)]
    );
    // A lone surrogate in WTF-8 is a control to UAX #29, and one cluster.
    assert_eq!(
        whole(b"e\xED\xA0\x80\xCC\x81", Dialect::Wtf8),
        [(0, 1, 1), (1, 3, 0), (4, 2, 1)]
    );
}

#[test]
fn zalgo_past_the_bound_is_open() {
    // a, 600 combining marks (1200 bytes), b.
    let mut text = String::from("a");
    text.extend(std::iter::repeat_n('\u{301}', 600));
    text.push('b');
    let bytes = text.as_bytes();
    assert_eq!(utf8(&text), [(0, 1201, 601), (1201, 1, 1)]);
    // Within the bound of its start: its start is known, its end is past the context
    // after the window.
    let near = window(bytes, Dialect::Utf8, 10..11, None);
    assert_eq!(near.len(), 1);
    assert_eq!((near[0].start, near[0].end()), (0, 11 + LOOK));
    assert!(!near[0].open_start && near[0].open_end);
    // Within the bound of both ends: the whole cluster.
    let whole = window(bytes, Dialect::Utf8, 600..601, None);
    assert_eq!((whole[0].start, whole[0].len, whole[0].cps), (0, 1201, 601));
    assert!(!whole[0].open_start && !whole[0].open_end);
    // Past it: its start is unknown; it is seen from the first unit decoded, the mark
    // whose second byte is at 1100 - LOOK = 76.
    let far = window(bytes, Dialect::Utf8, 1100..1101, None);
    assert_eq!(far.len(), 1);
    assert_eq!((far[0].start, far[0].end()), (75, 1201));
    assert!(far[0].open_start && !far[0].open_end && far[0].joins());
    let c = at(bytes, Dialect::Utf8, 1100, None).unwrap();
    assert!(c.span.open_start);
    assert_eq!(c.code_points.len(), (1201 - 75) / 2);
    // Without its letter, its width is not known (the marks alone would measure 0).
    assert_eq!(c.width, None);
    // With its letter but cut at its end: the width of the part decoded.
    assert_eq!(at(bytes, Dialect::Utf8, 10, None).unwrap().width, Some(1));
}

#[test]
fn regional_indicators_past_the_bound_still_pair() {
    // x, then 20 flags: with 16 bytes of context, the indicators before the context are
    // counted back to the run's start, so every window pairs them as the whole text does.
    let text = format!("x{}", "\u{1F1EB}\u{1F1F7}".repeat(20));
    let bytes = text.as_bytes();
    let pairs = |s: &[ClusterSpan]| {
        s.iter()
            .map(|c| (c.start, c.len, c.cps, c.open_start))
            .collect::<Vec<_>>()
    };
    // The context starts at 65, on an even indicator (16 before it): pairs from there.
    let s = window_with(bytes, Dialect::Utf8, 81..82, None, 16);
    assert_eq!(pairs(&s), [(81, 8, 2, false)]);
    // The context starts at 69, on an odd one: its pair's first half is taken in.
    let s = window_with(bytes, Dialect::Utf8, 85..86, None, 16);
    assert_eq!(pairs(&s), [(81, 8, 2, false)]);
    let s = window_with(bytes, Dialect::Utf8, 80..90, None, 16);
    assert_eq!(
        pairs(&s),
        [(73, 8, 2, false), (81, 8, 2, false), (89, 8, 2, false)]
    );
    // As `at` reads it: 2 code points, width 2.
    let c = at(bytes, Dialect::Utf8, 88, None).unwrap();
    assert_eq!(
        (c.span.start, c.span.len, c.code_points.len(), c.width),
        (81, 8, 2, Some(2))
    );
    // The same in UTF-16LE (x is 2 bytes, the indicators 4 from 2) and UTF-32BE (4, from
    // 4): the 21st indicator is the second of a pair that starts at the 20th.
    let utf16: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let utf32: Vec<u8> = text
        .chars()
        .flat_map(|c| (c as u32).to_be_bytes())
        .collect();
    for (dialect, wide, first) in [(Dialect::Utf16Le, utf16, 2), (Dialect::Utf32Be, utf32, 4)] {
        let at21 = first + 4 * 21;
        let s = window_with(&wide, dialect, at21..at21 + 1, None, 16);
        assert_eq!(pairs(&s), [(at21 - 4, 8, 2, false)], "{dialect:?}");
    }
    // A flag after a prepended mark (U+0600, GB9b) at the run's start is still one cluster
    // with the mark; the context that starts after the mark does not claim a start.
    let text = format!("\u{600}{}", "\u{1F1EB}\u{1F1F7}".repeat(20));
    let s = window_with(text.as_bytes(), Dialect::Utf8, 5..6, None, 3);
    assert!(s[0].open_start);
}

#[test]
fn every_encoding_reads_its_code_points() {
    let flag = "\u{1F1EB}\u{1F1F7}x";
    // UTF-16LE: two surrogate pairs, 4 bytes each.
    let utf16: Vec<u8> = flag.encode_utf16().flat_map(u16::to_le_bytes).collect();
    assert_eq!(whole(&utf16, Dialect::Utf16Le), [(0, 8, 2), (8, 2, 1)]);
    // UTF-32BE.
    let utf32: Vec<u8> = flag
        .chars()
        .flat_map(|c| (c as u32).to_be_bytes())
        .collect();
    assert_eq!(whole(&utf32, Dialect::Utf32Be), [(0, 8, 2), (8, 4, 1)]);
    // windows-1252: CR LF is one cluster of two bytes.
    let cp1252 = crate::encoding::resolve("windows-1252").unwrap();
    let s = window(b"a\r\nb", cp1252, 0..4, None);
    assert_eq!(
        s.iter().map(|c| (c.start, c.len)).collect::<Vec<_>>(),
        [(0, 1), (1, 2), (3, 1)]
    );
    // Shift_JIS: halfwidth KA and the halfwidth voiced sound mark (an extender): one cluster.
    let sjis = crate::encoding::resolve("shift_jis").unwrap();
    let s = window(b"\xB6\xDEa", sjis, 0..3, None);
    assert_eq!(
        s.iter()
            .map(|c| (c.start, c.len, c.cps))
            .collect::<Vec<_>>(),
        [(0, 2, 2), (2, 1, 1)]
    );
    // Big5 88 62 decodes to two code points, Ê and COMBINING MACRON: one unit, one cluster.
    let big5 = crate::encoding::resolve("big5").unwrap();
    let s = window(b"\x88\x62a", big5, 0..3, None);
    assert_eq!(
        s.iter()
            .map(|c| (c.start, c.len, c.units, c.cps))
            .collect::<Vec<_>>(),
        [(0, 2, 1, 2), (2, 1, 1, 1)]
    );
    let c = at(b"\x88\x62a", big5, 1, None).unwrap();
    assert_eq!(c.code_points, [CodePoint::new(0xCA), CodePoint::new(0x304)]);
    // ISO-2022-JP: an escape sequence is a cluster of its own, with no code point.
    let jis = crate::encoding::resolve("iso-2022-jp").unwrap();
    let s = window(b"\x1B$B$\"\x1B(Ba", jis, 0..9, None);
    assert_eq!(
        s.iter()
            .map(|c| (c.start, c.len, c.cps))
            .collect::<Vec<_>>(),
        [(0, 3, 0), (3, 2, 1), (5, 3, 0), (8, 1, 1)]
    );
}

#[test]
fn joints_name_their_rule() {
    let cp = CodePoint::new;
    assert_eq!(joint(&[cp(0x31)], cp(0xFE0F)), Joint::VariationSelector);
    assert_eq!(joint(&[cp(0x31), cp(0xFE0F)], cp(0x20E3)), Joint::Mark);
    assert_eq!(joint(&[cp(0x1F44B)], cp(0x1F3FD)), Joint::SkinTone);
    assert_eq!(joint(&[cp(0x1F3F4)], cp(0xE0067)), Joint::Tag);
    assert_eq!(joint(&[cp(0x1F468)], cp(0x200D)), Joint::Joiner);
    assert_eq!(joint(&[cp(0x1112)], cp(0x1161)), Joint::Hangul);
    assert_eq!(joint(&[cp(0x0600)], cp(0x0661)), Joint::Prepend);
    assert_eq!(joint(&[cp(0x61)], cp(0x62)), Joint::Other);
    let names: std::collections::HashSet<_> = Joint::ALL.iter().map(|j| j.key()).collect();
    assert_eq!(names.len(), Joint::ALL.len());
}

#[test]
fn brackets() {
    let mark = |left, right| LaneMark {
        first: 0,
        last: 0,
        left,
        right,
    };
    assert_eq!(mark('\u{2570}', '\u{256F}').bracket(5), "╰───╯");
    assert_eq!(mark('\u{2570}', '\u{256F}').bracket(2), "╰╯");
    assert_eq!(mark('\u{2500}', '\u{256F}').bracket(1), "╯");
    assert_eq!(mark('\u{2570}', '\u{2500}').bracket(1), "╰");
    assert_eq!(mark('\u{2026}', '\u{2500}').bracket(3), "…──");
}
