//! Cyrillic text with box drawing: IBM866 (the DOS code page for Russian) and KOI8-R or
//! KOI8-U, whose box-drawing bytes turn chardetng's guess to windows-1252 (four `80` bytes,
//! KOI8's `────`, are enough) and made the DOS rule answer IBM437. Named by their letters
//! and their boxes; the bytes are made by Python's codecs (the oracle; encoding_rs's
//! encoders where python3 is missing), and what `repair --from auto` writes is Python's
//! decoding of them. Each case was `windows-1252` or `IBM437` before.

use hexrune::decode::Dialect;
use hexrune::detect::{detect, Detection};
use hexrune::scan::index::{Progress, Summary};

mod common;
use common::{file_with, python_encoded as encoded, repaired_auto, run};

fn detected(bytes: &[u8]) -> Detection {
    let summary = Summary::build(Dialect::Utf8, bytes, 1, &Progress::new()).unwrap();
    detect(bytes, &summary)
}

/// `bytes` decoded by Python's codec `codec`, as UTF-8; `fallback` without python3.
fn python_decoded(bytes: &[u8], codec: &str, fallback: &str) -> String {
    String::from_utf8(common::python_decoded(bytes, codec, fallback)).unwrap()
}

/// What `hexrune repair --from auto` writes for `bytes`, and what plain `repair` advises.
fn repaired(bytes: &[u8]) -> (String, String) {
    let written = String::from_utf8(repaired_auto(bytes)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let input = file_with(dir.path(), "in.txt", bytes);
    let plain = dir.path().join("plain.txt");
    let advice = run(["repair", &input, "-o", plain.to_str().unwrap()], 0).stderr;
    (written, String::from_utf8(advice).unwrap())
}

fn check(text: &str, codec: &str, label: &str, named: &str, evidence: &str) {
    let bytes = encoded(text, codec, label);
    let d = detected(&bytes);
    assert_eq!(
        (d.headline(), d.evidence.join("; ")),
        (named.to_string(), evidence.to_string()),
        "{text}"
    );
    let (written, advice) = repaired(&bytes);
    assert_eq!(written, python_decoded(&bytes, codec, text), "{text}");
    assert_eq!(written, text);
    let hint = format!("give --from {}", named.to_ascii_lowercase());
    assert!(advice.contains(&hint), "{advice}");
}

/// The review's KOI8-R file: a report with one line of `─` (`80` in KOI8-R); and a frame
/// of KOI8's single lines (`┌─┐│└┘` are 82 80 83 81 84 85) around a table.
#[test]
fn koi8_r_with_box_drawing_is_koi8_r() {
    check(
        "Отчёт за май\n────────────\nИтого: 500 рублей\n",
        "koi8_r",
        "koi8-r",
        "KOI8-R",
        "31 UTF-8 errors and few multi-byte characters; KOI8 text: 1 box-drawing line (a run of 80 or A0), 21 of 21 non-ASCII bytes outside them in words of Cyrillic letters (none of KOI8-U's own letters, A4 є, A6 і, A7 ї, AD ґ ...)",
    );
    check(
        "┌──────────┬───────┐\n│ Город    │ Погода │\n├──────────┼───────┤\n│ Москва   │ снег  │\n│ Сочи     │ солнце │\n└──────────┴───────┘\n",
        "koi8_r",
        "koi8-r",
        "KOI8-R",
        "100 UTF-8 errors and few multi-byte characters; KOI8 text: 6 box-drawing lines (runs of 80 or A0), 31 of 31 non-ASCII bytes outside them in words of Cyrillic letters (none of KOI8-U's own letters, A4 є, A6 і, A7 ї, AD ґ ...)",
    );
}

/// A longer text, for which chardetng already guesses KOI8-U (its letters outweigh the
/// box drawing): the line of `═` (`A0`) names KOI8-R, which reads the boxes of A0..BF, as
/// there is no byte that is a Ukrainian letter in KOI8-U in its words. It was `KOI8-U`.
#[test]
fn koi8_text_that_chardetng_names_is_koi8_r_by_its_boxes() {
    check(
        "Протокол собрания жильцов дома номер семь\n════════════════════════\nРешили покрасить забор во дворе и починить скамейку у подъезда.\nДеньги собирает Анна Петровна из третьей квартиры до конца месяца.\nСледующее собрание назначено на субботу, в десять часов утра.\n",
        "koi8_r",
        "koi8-r",
        "KOI8-R",
        "220 UTF-8 errors and few multi-byte characters; KOI8 text: 1 box-drawing line (a run of 80 or A0), 193 of 196 non-ASCII bytes outside them in words of Cyrillic letters (none of KOI8-U's own letters, A4 є, A6 і, A7 ї, AD ґ ...)",
    );
}

/// Ukrainian in KOI8-U (і ї є at A6 A7 A4, boxes in KOI8-R) under a line of `═` (`A0`).
#[test]
fn koi8_u_with_box_drawing_is_koi8_u() {
    check(
        "Звіт про роботу\n═══════════════\nЇжак їсть яблука. Все гаразд, дякуємо.\n",
        "koi8_u",
        "koi8-u",
        "KOI8-U",
        "54 UTF-8 errors and few multi-byte characters; KOI8 text: 1 box-drawing line (a run of 80 or A0), 43 of 43 non-ASCII bytes outside them in words of Cyrillic letters (4 of KOI8-U's own letters, A4 є, A6 і, A7 ї, AD ґ ..., which are boxes in KOI8-R)",
    );
}

/// The review's IBM866 file (a frame of `┌─┐│└┘`, which IBM866 has where IBM437 does),
/// and a double frame (`╔═╗║╚╝`) around two lines, and one line of `─` under a title.
#[test]
fn ibm866_with_box_drawing_is_ibm866() {
    check(
        "┌──────────────┐\n│ Отчёт за май │\n└──────────────┘\n",
        "cp866",
        "ibm866",
        "IBM866",
        "42 UTF-8 errors and few multi-byte characters; DOS code page text: 2 box-drawing lines (runs of C4 or CD), 10 of 10 non-ASCII bytes outside them in words of Cyrillic letters in IBM866",
    );
    check(
        "╔══════════════════════╗\n║ Главное меню         ║\n║ 1. Начать новую игру ║\n╚══════════════════════╝\n",
        "cp866",
        "ibm866",
        "IBM866",
        "73 UTF-8 errors and few multi-byte characters; DOS code page text: 2 box-drawing lines (runs of C4 or CD), 26 of 26 non-ASCII bytes outside them in words of Cyrillic letters in IBM866",
    );
    // A form in capitals under one line of a frame: chardetng's windows-1252 gives no
    // text, and of the Cyrillic pages IBM866 makes words of it (its `═` is no word).
    let form = "════════════════════\nФАМИЛИЯ: ИВАНОВ\nИМЯ: ПЁТР\nГОРОД: МОСКВА\n";
    let bytes = encoded(form, "cp866", "ibm866");
    let d = detected(&bytes);
    assert_eq!(
        (d.headline(), d.evidence.join("; ")),
        (
            "IBM866".to_string(),
            "49 UTF-8 errors and few multi-byte characters; chardetng reads it as windows-1252, which gives no text; as IBM866 it is words of Cyrillic letters".to_string()
        )
    );
    assert_eq!(repaired(&bytes).0, form);
    // A form in capitals in a frame of two lines.
    check(
        "╔═══════╦══════════╗\n║ИМЯ    ║ФАМИЛИЯ   ║\n║ИВАН   ║ПЕТРОВ    ║\n╚═══════╩══════════╝\n",
        "cp866",
        "ibm866",
        "IBM866",
        "62 UTF-8 errors and few multi-byte characters; DOS code page text: 4 box-drawing lines (runs of C4 or CD), 20 of 20 non-ASCII bytes outside them in words of Cyrillic letters in IBM866",
    );
    check(
        "Список покупок\n──────────────\nхлеб, молоко, сыр\n",
        "cp866",
        "ibm866",
        "IBM866",
        "31 UTF-8 errors and few multi-byte characters; DOS code page text: 1 box-drawing line (a run of C4 or CD), 26 of 26 non-ASCII bytes outside them in words of Cyrillic letters in IBM866",
    );
}
