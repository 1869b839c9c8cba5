//! `repair --mojibake`: exactly the regions `detect` finds change, into the text they stand
//! for; clean text (the corpus of `tests/data/corpus/`) passes through byte for byte; a
//! stream cut anywhere, even inside a region, gives what the mapped input gives.

use std::fs;
use std::path::Path;

use hexrune::repair::{Action, Collected, Engine, Kind, Policy};
use proptest::prelude::*;

mod common;

fn policy() -> Policy {
    Policy {
        mojibake: true,
        ..Policy::default()
    }
}

fn repair(input: &[u8]) -> Collected {
    let mut out = Collected::default();
    Engine::new(policy())
        .unwrap()
        .repair_slice(input, &mut out, |_| Ok(()))
        .unwrap();
    out
}

fn streamed(input: &[u8], chunk: usize) -> Collected {
    let mut out = Collected::default();
    Engine::new(policy())
        .unwrap()
        .repair_chunks(&mut &input[..], chunk, &mut out, |_| Ok(()))
        .unwrap();
    out
}

fn out(input: &str) -> String {
    String::from_utf8(repair(input.as_bytes()).bytes).unwrap()
}

#[test]
fn hand_cases_exact_bytes() {
    // é once through windows-1252 (C3 83 C2 A9), and twice.
    assert_eq!(
        repair("caf\u{C3}\u{A9} au lait\n".as_bytes()).bytes,
        b"caf\xC3\xA9 au lait\n"
    );
    assert_eq!(
        out("Le caf\u{C3}\u{192}\u{C2}\u{A9} est froid.\n"),
        "Le café est froid.\n"
    );
    assert_eq!(out("It\u{E2}\u{20AC}\u{2122}s here.\n"), "It’s here.\n");
    assert_eq!(out("smile \u{F0}\u{178}\u{2DC}\u{20AC}!\n"), "smile 😀!\n");
    assert_eq!(out("Ã°Å¸Ëœâ‚¬"), "😀");
    // A line that mixes clean text and mojibake: only the region changes.
    let mixed = "Clean: élan, naïve. Broken: Lâ€™Ã©tÃ© Ã©tait chaud. Clean again: ÿ.\n";
    assert_eq!(
        out(mixed),
        "Clean: élan, naïve. Broken: L’été était chaud. Clean again: ÿ.\n"
    );
}

/// UTF-8 misread through ISO-8859-15 (Latin-9, the `@euro` locales), IBM866 and KOI8-R
/// (the DOS and Unix Cyrillic code pages), each misreading made by Python's codec: undone
/// through that page, not through a sibling that reads some bytes alike (windows-1252
/// makes Latin-9's `Œ` of `ü` a `Ì`: `JÌrgen`; IBM437 reads IBM866's box drawing alike and
/// its letters not: `╨Рлек╤Банд╤А`).
#[test]
fn cyrillic_and_latin_9_misreadings_are_undone_through_their_page() {
    for (clean, codec, label, undone) in [
        (
            "Jürgen Müller;Grüße aus München\nFrançoise;Client très fidèle, préfère le matin\n",
            "iso-8859-15",
            "ISO-8859-15",
            "ISO-8859-15",
        ),
        (
            "Александр Смирнов,Москва,Покупатель просит позвонить\n",
            "cp866",
            "IBM866",
            "IBM866",
        ),
        (
            "Сегодня хорошая погода, и мы идём гулять в парк.\n",
            "koi8-r",
            "KOI8-R",
            "KOI8-R",
        ),
        // `’` misread through IBM866 is `тАЩ`, a small letter before capitals.
        (
            "Это «лучший» выбор — it’s true…\n",
            "cp866",
            "IBM866",
            "IBM866",
        ),
    ] {
        let misread = {
            let e = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
            let (text, malformed) = e.decode_without_bom_handling(clean.as_bytes());
            assert!(!malformed);
            text.into_owned()
        };
        let python = common::python_decoded(clean.as_bytes(), codec, &misread);
        assert_eq!(python, misread.as_bytes(), "{codec}: {clean}");
        let r = repair(misread.as_bytes());
        assert_eq!(String::from_utf8(r.bytes).unwrap(), clean, "{codec}");
        let why: Vec<String> = r.changes.iter().map(|c| c.action.why()).collect();
        assert!(!why.is_empty(), "{codec}");
        for w in why {
            assert_eq!(w, format!("--mojibake: UTF-8 read as {undone}"));
        }
    }
    // UTF-8 misread by a Unix KOI8-U locale (RFC 2319, Python's `koi8_u`: KOI8-R with
    // Ukrainian's letters at A4 A6 A7 AD B4 B6 B7 BD, so `д` is `пЄ`), undone whole through
    // KOI8-U, not half through KOI8-R (`пЄолго`).
    for clean in [
        "Вчера вечером мы долго гуляли по набережной и говорили о будущем.\n",
        "Чуєш їх, доцю, га? Ці люди живуть у Києві вже багато років.\n",
    ] {
        let misread = hexrune::detect::table::Legacy::Koi8U
            .decode(clean.as_bytes())
            .unwrap();
        let python = common::python_decoded(clean.as_bytes(), "koi8_u", &misread);
        assert_eq!(python, misread.as_bytes());
        let r = repair(misread.as_bytes());
        assert_eq!(String::from_utf8(r.bytes).unwrap(), clean);
        for c in &r.changes {
            assert_eq!(c.action.why(), "--mojibake: UTF-8 read as KOI8-U");
        }
    }
    // Russian, Ukrainian and Bulgarian text is words of those pages' letters: unchanged.
    for clean in [
        "Сегодня хорошая погода, и мы идём гулять в парк. Всё её устраивает.\n",
        "Привіт! Як справи? Ми їдемо до Львова в п'ятницю.\n",
        "ТАСС: ПРЕЗИДЕНТ ПОДПИСАЛ УКАЗ. Рад, тепло, разговор.\n",
    ] {
        let r = repair(clean.as_bytes());
        assert!(r.changes.is_empty(), "{clean}");
    }
}

#[test]
fn each_region_is_one_change_with_its_chain() {
    let input = "x Lâ€™Ã©tÃ© y\nok\nz ÃƒÂ© w\n";
    let r = repair(input.as_bytes());
    let changes: Vec<(u64, String, &str, String)> = r
        .changes
        .iter()
        .map(|c| {
            (
                c.offset,
                String::from_utf8(c.new.clone()).unwrap(),
                c.kind.name(),
                c.action.why(),
            )
        })
        .collect();
    assert_eq!(
        changes,
        [
            (
                3,
                "’été".to_string(),
                "mojibake",
                "--mojibake: UTF-8 read as windows-1252".to_string()
            ),
            (
                28,
                "é".to_string(),
                "mojibake",
                "--mojibake: UTF-8 read as windows-1252, then windows-1252".to_string()
            ),
        ]
    );
    assert_eq!(r.changes[0].kind, Kind::Mojibake);
    assert!(matches!(r.changes[0].action, Action::Mojibake(_)));
    // The regions are detect's.
    let found = hexrune::detect::mojibake::find(input);
    assert_eq!(
        found.iter().map(|m| m.start as u64).collect::<Vec<_>>(),
        [3, 28]
    );
}

#[test]
fn errors_and_mojibake_together() {
    let r = repair(b"a\xFF \xC3\x83\xC2\xA9 b\n");
    assert_eq!(r.bytes, "a\u{FFFD} é b\n".as_bytes());
    assert_eq!(r.changes.len(), 2);
}

#[test]
fn a_region_cut_by_a_stream_read_is_found_whole() {
    let input = "first line\nLâ€™Ã©tÃ© Ã©tait chaud\nlast\n".as_bytes();
    let mapped = repair(input);
    assert_eq!(
        mapped.bytes,
        "first line\nL’été était chaud\nlast\n".as_bytes()
    );
    for chunk in 1..input.len() + 2 {
        assert_eq!(streamed(input, chunk), mapped, "reads of {chunk}");
    }
}

#[test]
fn review_clean_texts_are_unchanged_byte_for_byte() {
    // French spacing before `»`, Cyrillic words alone on their lines, Romanian capitals:
    // once "repaired" into "sécurit頻", "гвне" and "PêUNE".
    for text in [
        "Le ministre a déclaré qu’il « n’y avait pas de problème de sécurité\u{A0}». Il a ajouté que la « période d’été\u{A0}» serait calme.\n",
        "«\u{A0}été\u{A0}»\n",
        "Рівень\nРік\nРізне\nРіст\nРішення\n— Рік?\nРёбра\nРјечник\nРђа\nРѓа\nРІК\n",
        "PĂŞUNE ŞI ŢARĂ\nÎNVĂŢĂMÂNT\n",
    ] {
        let r = repair(text.as_bytes());
        assert!(r.changes.is_empty(), "{text:?}: {:?}", r.changes.first());
        assert_eq!(r.bytes, text.as_bytes());
    }
}

fn corpus() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
    let mut files: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| fs::read_to_string(f).unwrap())
        .collect()
}

#[test]
fn the_clean_corpus_is_unchanged_byte_for_byte() {
    for text in corpus() {
        let r = repair(text.as_bytes());
        assert!(r.changes.is_empty(), "{:?}", r.changes.first());
        assert_eq!(r.bytes, text.as_bytes());
    }
}

fn corpus_lines() -> Vec<String> {
    corpus()
        .iter()
        .flat_map(|t| t.lines().map(|l| format!("{l}\n")).collect::<Vec<_>>())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn clean_corpus_lines_pass_through(picks in proptest::collection::vec(any::<prop::sample::Index>(), 1..12), chunk in 1usize..64) {
        let lines = corpus_lines();
        let text: String = picks.iter().map(|i| lines[i.index(lines.len())].as_str()).collect();
        let r = repair(text.as_bytes());
        prop_assert!(r.changes.is_empty());
        prop_assert_eq!(&r.bytes, text.as_bytes());
        prop_assert_eq!(streamed(text.as_bytes(), chunk), r);
    }

    #[test]
    fn planted_mojibake_is_undone_mapped_and_streamed(picks in proptest::collection::vec(any::<prop::sample::Index>(), 1..6), chunk in 1usize..64) {
        let lines = corpus_lines();
        let clean: String = picks.iter().map(|i| lines[i.index(lines.len())].as_str()).collect();
        let Some(bad) = hexrune::detect::table::Legacy::Windows1252.decode(clean.as_bytes()) else {
            return Ok(());
        };
        let mapped = repair(bad.as_bytes());
        let found = hexrune::detect::mojibake::find(&bad);
        // Exactly detect's regions changed, each into its text.
        prop_assert_eq!(mapped.changes.len(), found.len());
        for (c, m) in mapped.changes.iter().zip(&found) {
            prop_assert_eq!(c.offset as usize, m.start);
            prop_assert_eq!(&c.new, m.text.as_bytes());
        }
        prop_assert!(std::str::from_utf8(&mapped.bytes).is_ok());
        prop_assert_eq!(streamed(bad.as_bytes(), chunk), mapped);
    }
}
