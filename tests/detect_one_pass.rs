//! Detection in one pass: the scan marks the blocks where mojibake or U+FEFF can be
//! ([`hexrune::detect::mark_block`]), and detection rereads only those. The marks are a
//! necessary condition, so the result is the same as detection that rereads every block
//! with non-ASCII bytes (a summary without marks); and on clean text in any language almost
//! no block is marked.

use hexrune::decode::Dialect;
use hexrune::detect::mojibake::{candidate_in, find, find_marked};
use hexrune::detect::table::Legacy;
use hexrune::detect::{detect, mark_block, Detection, MARK_FEFF, MARK_MOJIBAKE};
use hexrune::scan::index::{Progress, Summary};
use proptest::prelude::*;

mod common;
use common::corpus_files as corpus;

fn both_ways(bytes: &[u8]) -> (Detection, Detection, Summary) {
    let plain = Summary::build(Dialect::Utf8, bytes, 2, &Progress::new()).unwrap();
    let marked =
        Summary::build_marked(Dialect::Utf8, bytes, 2, &Progress::new(), Some(&mark_block))
            .unwrap();
    assert!(plain.marks.is_none());
    assert_eq!(
        marked.marks.as_ref().map(Vec::len),
        Some(marked.blocks.len())
    );
    (detect(bytes, &plain), detect(bytes, &marked), marked)
}

/// Every line of planted mojibake (each corpus line through every encoding, once and
/// twice) that `find` finds anything in is marked; `find_marked` with the marks equals
/// `find`.
#[test]
fn marks_hold_every_line_find_finds_something_in() {
    let mut lines_with_mojibake = 0;
    for (_, text) in corpus() {
        for line in text.lines() {
            for e in Legacy::ALL {
                let Some(once) = e.decode(line.as_bytes()) else {
                    continue;
                };
                let twice = e.decode(once.as_bytes());
                for misread in [Some(once), twice].into_iter().flatten() {
                    let found = find(&misread);
                    let marked = candidate_in(misread.as_bytes(), 0..misread.len());
                    if !found.is_empty() {
                        lines_with_mojibake += 1;
                        assert!(marked, "{:?} {misread:?}", e.name());
                    }
                    let ranges: Vec<std::ops::Range<usize>> = std::iter::once(0..misread.len())
                        .filter(|_| marked)
                        .collect();
                    assert_eq!(find_marked(&misread, &ranges), found, "{misread:?}");
                }
            }
        }
    }
    assert!(lines_with_mojibake > 1000, "{lines_with_mojibake}");
}

/// On the clean corpus (28 languages, symbols, emoji) 8 lines of 147 hold a candidate
/// pair, each a real pair of some encoding (’ then é is D5 8E in macintosh, Ukrainian і
/// after a letter is B3 in windows-1251, ─┤ is C4 B4 in IBM437) that `find` judges and
/// rejects; every other line is never reread. Ukrainian `і`, `є` and Russian `ё` after two
/// Cyrillic letters (A6, A4, A3 in KOI8-U, which writes every Cyrillic letter as a lead
/// byte) are pairs inside a word of KOI8-U's own script, which give no Cyrillic letter
/// back, and no start (there were 12 lines before that rule).
#[test]
fn clean_text_is_rarely_marked() {
    let mut total = 0;
    let mut marked = Vec::new();
    for (name, text) in corpus() {
        for line in text.lines() {
            total += 1;
            if candidate_in(line.as_bytes(), 0..line.len()) {
                assert_eq!(find(line), [], "{line}");
                marked.push(name.clone());
            }
        }
    }
    assert_eq!(total, 147);
    assert_eq!(
        marked,
        ["fr", "fr", "it", "ro", "symbols", "symbols", "uk", "uk"]
    );
}

/// Clean corpus lines without a candidate pair, to fill blocks that must stay unmarked.
fn unmarked_corpus() -> String {
    let mut out = String::new();
    for (_, text) in corpus() {
        for line in text.lines() {
            if !candidate_in(line.as_bytes(), 0..line.len()) {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// The whole corpus, repeated past several blocks, with mojibake, U+FEFF and an error
/// planted in chosen blocks: the same detection with and without marks, and only the
/// planted blocks marked.
#[test]
fn one_pass_equals_rereading_every_block() {
    let clean = unmarked_corpus();
    let mut bytes = Vec::new();
    while bytes.len() < 600 << 10 {
        bytes.extend_from_slice(clean.as_bytes());
    }
    let (plain, marked, summary) = both_ways(&bytes);
    assert_eq!(plain, marked);
    assert_eq!(marked.mojibake, []);
    let marks = summary.marks.unwrap();
    assert!(marks.iter().all(|m| *m == 0), "{marks:?}");

    // Planted: mojibake in block 2, U+FEFF in block 5, a stray byte in block 7.
    let block = summary.block_size;
    let plant = |bytes: &mut Vec<u8>, at: usize, what: &[u8]| {
        let at = at + bytes[at..].iter().position(|b| *b == b'\n').unwrap() + 1;
        bytes.splice(at..at, what.iter().copied());
    };
    plant(&mut bytes, 7 * block + 100, b"\xE9t\xE9 ");
    plant(&mut bytes, 5 * block + 100, "\u{FEFF}".as_bytes());
    plant(
        &mut bytes,
        2 * block + 100,
        "Il a dit : Lâ€™Ã©tÃ© Ã©tait chaud.\n".as_bytes(),
    );
    let (plain, marked, summary) = both_ways(&bytes);
    assert_eq!(plain, marked);
    assert_eq!(marked.mojibake.len(), 1);
    assert_eq!(marked.mojibake[0].text, "’été é");
    assert_eq!(marked.inner_boms.len(), 1);
    let marks = summary.marks.unwrap();
    let at: Vec<(usize, u8)> = marks
        .iter()
        .enumerate()
        .filter(|(_, m)| **m != 0)
        .map(|(b, m)| (b, *m))
        .collect();
    assert_eq!(at, [(2, MARK_MOJIBAKE), (5, MARK_FEFF)]);
}

/// Pieces of text: ASCII, letters of the encodings, mojibake of them, U+FEFF, line feeds,
/// CJK and emoji, and stray bytes.
fn piece() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(b"word ".to_vec()),
        Just(b"\n".to_vec()),
        Just("é".as_bytes().to_vec()),
        Just("Ã©".as_bytes().to_vec()),
        Just("â€™".as_bytes().to_vec()),
        Just("ÃƒÂ©".as_bytes().to_vec()),
        Just("├⌐".as_bytes().to_vec()),
        Just("Ð¿Ñ€Ð¸".as_bytes().to_vec()),
        Just("привет ".as_bytes().to_vec()),
        Just("всё ".as_bytes().to_vec()),
        Just("Ελληνικά ".as_bytes().to_vec()),
        Just("中文 😀 ".as_bytes().to_vec()),
        Just("\u{FEFF}".as_bytes().to_vec()),
        Just(b"\xE9".to_vec()),
        Just(b"\xC3".to_vec()),
        (0x80u8..=0xFF).prop_map(|b| vec![b]),
        proptest::char::range('\u{80}', '\u{2600}').prop_map(|c| c.to_string().into_bytes()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Inputs past one block made of the pieces: the same detection either way.
    #[test]
    fn marked_equals_unmarked(pieces in proptest::collection::vec(piece(), 1..400), reps in 1usize..4) {
        let one: Vec<u8> = pieces.concat();
        let mut bytes = Vec::new();
        // Filler of clean text between repetitions, so blocks differ in what they hold.
        while bytes.len() < reps * (70 << 10) {
            bytes.extend_from_slice(&one);
            bytes.extend_from_slice("Le garçon est là. ".repeat(500).as_bytes());
        }
        let (plain, marked, _) = both_ways(&bytes);
        prop_assert_eq!(plain, marked);
    }

    /// On valid text, `find_marked` given the ranges `candidate_in` marks (cut anywhere)
    /// equals `find`.
    #[test]
    fn find_marked_equals_find(pieces in proptest::collection::vec(piece(), 1..200), cut in 1usize..64) {
        let bytes: Vec<u8> = pieces.concat();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let b = text.as_bytes();
        let ranges: Vec<std::ops::Range<usize>> = (0..b.len())
            .step_by(cut)
            .map(|s| s..(s + cut).min(b.len()))
            .filter(|r| candidate_in(b, r.clone()))
            .collect();
        prop_assert_eq!(find_marked(&text, &ranges), find(&text));
    }
}

/// The detection of `bytes` (marked, as `hexrune detect` reads a file).
fn detected(bytes: &[u8]) -> Detection {
    let marked =
        Summary::build_marked(Dialect::Utf8, bytes, 2, &Progress::new(), Some(&mark_block))
            .unwrap();
    detect(bytes, &marked)
}

/// Mojibake at the very start of a region is found whole: at offset 0, after a BOM, and
/// right after a block of ASCII (a block's first byte), as after a space.
#[test]
fn mojibake_at_the_start_of_a_region_or_block_is_found_whole() {
    let misread = |s: &str| {
        s.as_bytes()
            .iter()
            .map(|&b| Legacy::Windows1252.decode(&[b]).unwrap())
            .collect::<String>()
    };
    let ete = misread("été ok\n");
    assert_eq!(ete, "Ã©tÃ© ok\n");
    let block = hexrune::scan::index::block_size_for(3 << 16);
    let cases: Vec<(Vec<u8>, usize)> = vec![
        (ete.as_bytes().to_vec(), 0),
        ([&b"\xEF\xBB\xBF"[..], ete.as_bytes()].concat(), 3),
        ([&b"x "[..], ete.as_bytes()].concat(), 2),
        (
            [
                vec![b'a'; block - 1],
                b"\n".to_vec(),
                ete.as_bytes().to_vec(),
            ]
            .concat(),
            block,
        ),
        (
            [vec![b'a'; 2 * block], ete.as_bytes().to_vec()].concat(),
            2 * block,
        ),
    ];
    for (bytes, at) in cases {
        let found = detected(&bytes).mojibake;
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].start, found[0].end), (at, at + 9), "{found:?}");
        assert_eq!(found[0].text, "été");
        assert_eq!(found[0].chain_names(), ["windows-1252"]);
    }
    let uber = misread("Über alles\n");
    let found = detected(uber.as_bytes()).mojibake;
    assert_eq!(
        found
            .iter()
            .map(|m| (m.start, m.end, m.text.as_str()))
            .collect::<Vec<_>>(),
        [(0, 4, "Ü")]
    );
}

/// Valid text only (no stray bytes): the pieces above but the last two.
fn valid_piece() -> impl Strategy<Value = Vec<u8>> {
    piece().prop_filter("valid UTF-8", |p| std::str::from_utf8(p).is_ok())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// On valid text, whatever stands at a block's start (ASCII filler of any length
    /// before the pieces), detection finds the mojibake `find` finds in the whole text.
    #[test]
    fn detection_finds_what_find_finds(
        pieces in proptest::collection::vec(valid_piece(), 1..60),
        filler in prop_oneof![Just(0usize), 1usize..200, 65_400usize..65_536],
        bom in any::<bool>(),
    ) {
        let mut bytes = Vec::new();
        if bom {
            bytes.extend_from_slice(b"\xEF\xBB\xBF");
        }
        bytes.extend(std::iter::repeat_n(b'a', filler));
        let body = pieces.concat();
        bytes.extend_from_slice(&body);
        let text = std::str::from_utf8(&bytes).unwrap();
        let skip = if bom { 3 } else { 0 };
        // `find` over the text after the BOM, its offsets moved to the input's.
        let want: Vec<_> = find(&text[skip..])
            .into_iter()
            .map(|mut m| {
                m.start += skip;
                m.end += skip;
                m
            })
            .collect();
        prop_assert_eq!(detected(&bytes).mojibake, want);
    }
}

/// A line longer than detection's window of 64 KiB, after a byte order mark: the text
/// after the mark, searched alone, is cut at the same bytes, so detection finds what
/// `find` finds there (a case the proptest above met).
#[test]
fn a_long_line_after_a_bom_is_cut_where_the_text_alone_is() {
    let pieces: [&[u8]; 6] = [
        &[228, 184, 173, 230, 150, 135, 32, 240, 159, 152, 128, 32],
        &[195, 131, 194, 169],
        &[
            195, 144, 194, 191, 195, 145, 226, 130, 172, 195, 144, 194, 184,
        ],
        &[228, 184, 173, 230, 150, 135, 32, 240, 159, 152, 128, 32],
        &[195, 131, 194, 169],
        &[119, 111, 114, 100, 32],
    ];
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend(std::iter::repeat_n(b'a', 65_493));
    bytes.extend(pieces.concat());
    let text = std::str::from_utf8(&bytes).unwrap();
    let want: Vec<_> = find(&text[3..])
        .into_iter()
        .map(|mut m| {
            m.start += 3;
            m.end += 3;
            m
        })
        .collect();
    assert!(!want.is_empty());
    assert_eq!(detected(&bytes).mojibake, want);
}
