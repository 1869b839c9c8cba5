//! Properties of detection over random inputs: a valid UTF-8 input without controls is
//! always UTF-8; regions always tile the input; every mojibake repair is exact (misreading
//! the repaired text through the chain again gives back the very bytes of the region).

use hexrune::decode::Dialect;
use hexrune::detect::detect;
use hexrune::detect::mojibake::find;
use hexrune::scan::index::{Progress, Summary};
use proptest::prelude::*;

fn detect_bytes(bytes: &[u8]) -> hexrune::detect::Detection {
    let summary = Summary::build(Dialect::Utf8, bytes, 2, &Progress::new()).unwrap();
    detect(bytes, &summary)
}

/// Text from a pool that mixes scripts and the characters mojibake is made of.
fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            "a", "Z", " ", "\n", ".", "é", "Ã", "©", "â", "€", "™", "ž", "Å", "¡", "Р", "С", "ё",
            "і", "Ξ", "±", "中", "😀", "’", "”", "–", "Â", "»", "├", "⌐", "√", "ƒ", "ç",
        ]),
        0..80,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #[test]
    fn valid_utf8_without_controls_is_utf8(s in "[^\\x00-\\x08\\x0b\\x0e-\\x1f\\x7f]{0,200}") {
        let d = detect_bytes(s.as_bytes());
        prop_assert_eq!(d.encoding, "UTF-8");
        prop_assert_eq!(d.errors, 0);
        prop_assert!(d.regions.len() <= 1);
    }

    #[test]
    fn regions_tile_any_input(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let d = detect_bytes(&bytes);
        if !bytes.is_empty() {
            prop_assert_eq!(d.regions.first().map(|r| r.start), Some(0));
            prop_assert_eq!(d.regions.last().map(|r| r.end), Some(bytes.len()));
            for w in d.regions.windows(2) {
                prop_assert_eq!(w[0].end, w[1].start);
                prop_assert!(w[0].start < w[0].end);
            }
        }
    }

    #[test]
    fn every_repair_is_exact(s in text()) {
        for m in find(&s) {
            let mut again = m.text.clone();
            for e in m.chain.iter().rev() {
                again = e.decode(again.as_bytes()).expect("the chain's encodings read these bytes");
            }
            prop_assert_eq!(&again, &s[m.start..m.end], "{:?}", m);
        }
    }
}

/// Over 4 MiB the search is cut into pieces for the workers: what it finds equals one
/// search of the whole text.
#[test]
fn pieces_find_what_one_search_finds() {
    let lines = [
        "Всё хорошо, спасибо.\n",
        "Le garÃ§on a mangÃ©.\n",
        "plain ASCII line\n",
        "Itâ€™s ÃƒÂ©.\n",
        "中文字符 한국어 😀\n",
    ];
    // Mostly ASCII, which the search skips fast even unoptimised; a line of another kind
    // every 64 KiB or so, on both sides of every 4 MiB cut.
    let filler = "plain ASCII line, nothing to see here, a little longer than the others\n";
    let mut text = String::new();
    let mut i = 0usize;
    while text.len() < 9 << 20 {
        if i.is_multiple_of(900) {
            text.push_str(lines[(i / 900) % lines.len()]);
        } else {
            text.push_str(filler);
        }
        i += 1;
    }
    let whole = find(&text);
    assert!(whole.len() > 60, "{}", whole.len());
    let d = detect_bytes(text.as_bytes());
    assert_eq!(d.mojibake, whole);
}

proptest! {
    /// Valid UTF-8 cut anywhere at both ends (a split file, a read cut short) is still
    /// UTF-8: its only errors are the cuts, and the headline says where it was cut. Two
    /// exceptions: a short input with no more multi-byte characters than cut bytes,
    /// whose legacy reading gives words of one script (`대구` in EUC-KR is `B4` and `뱸` to
    /// UTF-8), is named as that reading; and a lone lead byte at the end of text with no
    /// other multi-byte character is no cut.
    #[test]
    fn utf8_cut_inside_characters_is_utf8(
        s in "[^\\x00-\\x08\\x0b\\x0e-\\x1f\\x7f]{1,200}",
        head in 0usize..4,
        tail in 0usize..4,
    ) {
        let bytes = s.as_bytes();
        let from = head.min(bytes.len());
        let to = bytes.len().saturating_sub(tail).max(from);
        let cut = &bytes[from..to];
        // The oracle: std's decoder, past the continuation bytes the cut starts with.
        let lead = cut.iter().take_while(|b| (0x80..0xC0).contains(*b)).count();
        let (valid, end) = match std::str::from_utf8(&cut[lead..]) {
            Ok(text) => (text.len(), None),
            Err(e) => (e.valid_up_to(), Some(lead + e.valid_up_to())),
        };
        prop_assume!(valid > 0);
        let d = detect_bytes(cut);
        // The multi-byte characters of the valid part (a U+FFFD of the input's own too).
        let multibyte = std::str::from_utf8(&cut[lead..lead + valid])
            .map_or(0, |t| t.chars().filter(|c| c.len_utf8() > 1).count());
        let units = lead + usize::from(end.is_some());
        let guess = hexrune::detect::legacy::guess(cut);
        if (1..=units).contains(&multibyte)
            && cut.len() <= 4096
            && guess.malformed.count == 0
            && hexrune::detect::legacy::one_script_words(cut, guess.encoding)
        {
            prop_assert!(d.encoding == guess.encoding || d.encoding == "UTF-8", "{:?}", d);
            return Ok(());
        }
        // A lone lead byte at the end with no character of two bytes or more before it
        // (`A` `C2`) is no cut: as much a byte of a single-byte encoding (check.md).
        if multibyte == 0 && end.is_some_and(|at| at + 1 == cut.len()) {
            prop_assert_eq!(d.cut.end, None, "{:?}", d);
            return Ok(());
        }
        prop_assert_eq!(d.encoding, "UTF-8");
        prop_assert_eq!(d.cut.start, lead);
        prop_assert_eq!(d.cut.end, end);
        prop_assert_eq!(d.errors, d.cut.units());
        prop_assert!(d.regions.len() <= 1);
    }
}
