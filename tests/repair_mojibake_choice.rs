//! `repair --mojibake` chooses the right encoding, and the right text, where several could
//! undo a line: windows-1250 and ISO-8859-2 read most bytes alike, and so do windows-1252
//! and windows-1257; a Thai or Hindi line half misread starts its misread half with a vowel
//! sign; and mathematics (`√π`, `√∑`, `≈π`) looks like macintosh mojibake of `ù`, `÷`,
//! `Ź`. Each is counted over real sentences (`tests/data/mojibake/`, written for these
//! questions, and the corpus of `tests/data/corpus/`), misread by Python's codecs where
//! python3 runs (and checked against hexrune's own tables), and repaired by the binary.

use std::path::Path;

use hexrune::detect::mojibake::find;
use hexrune::detect::table::Legacy;

mod common;
use common::{corpus_files, file_with, python_bytes, stdout_of};

/// The lines of `tests/data/mojibake/NAME.txt`.
fn sentences(name: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/mojibake")
        .join(format!("{name}.txt"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The lines of the corpus files `names`.
fn corpus(names: &[&str]) -> Vec<String> {
    corpus_files()
        .into_iter()
        .filter(|(n, _)| names.contains(&n.as_str()))
        .flat_map(|(_, text)| text.lines().map(str::to_string).collect::<Vec<_>>())
        .collect()
}

/// Python's name for a codec of `e`.
fn codec(e: Legacy) -> &'static str {
    match e {
        Legacy::Windows1252 => "cp1252",
        Legacy::Iso8859_1 => "latin-1",
        Legacy::Windows1250 => "cp1250",
        Legacy::Iso8859_2 => "iso8859_2",
        Legacy::Windows1251 => "cp1251",
        Legacy::Windows1253 => "cp1253",
        Legacy::Windows1254 => "cp1254",
        Legacy::Windows1257 => "cp1257",
        Legacy::Macintosh => "mac_roman",
        Legacy::Ibm437 => "cp437",
        Legacy::Ibm850 => "cp850",
        Legacy::Iso8859_15 => "iso8859_15",
        Legacy::Ibm866 => "cp866",
        Legacy::Koi8R => "koi8_r",
        Legacy::Koi8U => "koi8_u",
        Legacy::Windows1255 => "cp1255",
        Legacy::Windows1256 => "cp1256",
        Legacy::Windows874 => "cp874",
    }
}

/// Each line written as UTF-8 and decoded through `e`, `times` times, as Python does it
/// (a byte 80..9F its codec leaves undefined becomes the C1 control of that number, as
/// WHATWG decoders do); `None` for a line with a byte the encoding does not have.
/// Python's answer must equal hexrune's tables'; where python3 is missing, the tables'.
fn misread(lines: &[String], e: Legacy, times: usize) -> Vec<Option<String>> {
    let ours: Vec<Option<String>> = lines
        .iter()
        .map(|l| (0..times).try_fold(l.clone(), |s, _| e.decode(s.as_bytes())))
        .collect();
    let code = "import sys, codecs
def c1(e):
    b = e.object[e.start:e.end]
    if all(0x80 <= x <= 0x9f for x in b):
        return (''.join(chr(x) for x in b), e.end)
    raise e
codecs.register_error('c1', c1)
for line in sys.stdin.read().split('\\n'):
    try:
        for _ in range(int(sys.argv[2])):
            line = line.encode().decode(sys.argv[1], 'c1')
    except UnicodeDecodeError:
        line = '\\x00'
    sys.stdout.write(line + '\\n')
";
    let input = lines.join("\n");
    let times = times.to_string();
    let Some(out) = python_bytes(code, [codec(e), times.as_str()], input.as_bytes()) else {
        return ours;
    };
    let out = String::from_utf8(out).unwrap();
    let python: Vec<Option<String>> = out
        .strip_suffix('\n')
        .unwrap()
        .split('\n')
        .map(|l| (l != "\0").then(|| l.to_string()))
        .collect();
    assert_eq!(python, ours, "{} and hexrune's table", codec(e));
    python
}

/// What `hexrune repair --mojibake` writes for the lines `lines` (one file), line by line.
fn repaired(lines: &[String]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let mut text = lines.join("\n");
    text.push('\n');
    let input = file_with(dir.path(), "in.txt", text.as_bytes());
    let out = stdout_of(["repair", "--mojibake", &input, "-o", "-"], 0);
    out.lines().map(str::to_string).collect()
}

/// Of `lines` misread through `e` (`times` times), how many `repair --mojibake` gives back
/// exactly, of how many that could be misread; with the misses shown.
fn right_repairs(lines: &[String], e: Legacy, times: usize) -> (usize, usize, Vec<String>) {
    let pairs: Vec<(&String, String)> = lines
        .iter()
        .zip(misread(lines, e, times))
        .filter_map(|(l, m)| m.filter(|m| m != l).map(|m| (l, m)))
        .collect();
    let planted: Vec<String> = pairs.iter().map(|(_, m)| m.clone()).collect();
    let got = repaired(&planted);
    assert_eq!(got.len(), pairs.len());
    let misses: Vec<String> = pairs
        .iter()
        .zip(&got)
        .filter(|((l, _), g)| *l != *g)
        .map(|((l, m), g)| format!("{} x{times}: {m:?}\n  want {l:?}\n  got  {g:?}", e.name()))
        .collect();
    (pairs.len() - misses.len(), pairs.len(), misses)
}

/// The review's reproductions, byte for byte: Spanish through ISO-8859-2 came out with
/// `å` and `ù` (windows-1250's reading), Croatian through windows-1257 with `Ĩ`
/// (windows-1252's), Thai half misread through windows-1250 partly undone through
/// ISO-8859-2 (`หมว` for `หลว`).
#[test]
fn review_reproductions_exact_bytes() {
    let cases: [(&[u8], &[u8], &str); 4] = [
        (
            // "¿Dónde está el niño? Mañana" misread through ISO-8859-2.
            b"\xc3\x82\xc5\xbcD\xc4\x82\xc5\x82nde est\xc4\x82\xc4\x84 el ni\xc4\x82\xc4\x85o? Ma\xc4\x82\xc4\x85ana\n",
            "¿Dónde está el niño? Mañana\n".as_bytes(),
            "ISO-8859-2",
        ),
        (
            // "A lição de português é às três." misread through ISO-8859-2.
            "A li\u{102}\u{A7}\u{102}\u{141}o de portugu\u{102}\u{15E}s \u{102}\u{160} \u{102}\u{A0}s tr\u{102}\u{15E}s.\n".as_bytes(),
            "A lição de português é às três.\n".as_bytes(),
            "ISO-8859-2",
        ),
        (
            // "Šećer i čaj" misread through windows-1257: č is Ä¨.
            b"\xc3\x85\xc2\xa0e\xc3\x84\xe2\x80\xa1er i \xc3\x84\xc2\xa8aj\n",
            "Šećer i čaj\n".as_bytes(),
            "windows-1257",
        ),
        (
            // The second half of a Thai sentence misread through windows-1250.
            "กรุงเทพมหานครเป็นเม\u{155}\u{B8}\u{B7}\u{155}\u{B8}\u{AD}\u{155}\u{B8}\u{2021}\u{155}\u{B8}\u{AB}\u{155}\u{B8}\u{104}\u{155}\u{B8}\u{A7}\n".as_bytes(),
            "กรุงเทพมหานครเป็นเมืองหลว\n".as_bytes(),
            "windows-1250",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (i, (input, want, chain)) in cases.into_iter().enumerate() {
        let path = file_with(dir.path(), &format!("in{i}.txt"), input);
        let out = common::run(["repair", "--mojibake", &path, "-o", "-"], 0).stdout;
        assert_eq!(
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(want),
            "{}",
            String::from_utf8_lossy(input)
        );
        assert_eq!(out, want);
        let text = std::str::from_utf8(input).unwrap();
        let chains: Vec<Vec<&str>> = find(text).iter().map(|m| m.chain_names()).collect();
        assert!(!chains.is_empty(), "{text}");
        assert!(chains.iter().all(|c| c == &[chain]), "{text}: {chains:?}");
    }
}

/// Latin text misread through ISO-8859-2 and through windows-1250, once and twice: the
/// sentences written for this (Spanish, Portuguese, Croatian) all come back, and so does the
/// corpus's Latin text except one Dutch line, whose `ü` misread through ISO-8859-2 (`Ăź`) is
/// `ß` through windows-1250: both are letters of one language, and the line has no other
/// letter beyond ASCII to tell them apart.
#[test]
fn central_european_twins_choose_the_right_reading() {
    let mine: Vec<String> = ["es", "pt", "hr"]
        .iter()
        .flat_map(|n| sentences(n))
        .collect();
    let latin = corpus(&[
        "cs", "da", "de", "es", "fr", "hr", "hu", "is", "it", "nl", "pl", "pt", "ro", "sk", "sv",
        "tr", "vi",
    ]);
    let mut misses = Vec::new();
    let mut counts = Vec::new();
    for e in [Legacy::Iso8859_2, Legacy::Windows1250] {
        for times in [1, 2] {
            for (what, lines) in [("sentences", &mine), ("corpus", &latin)] {
                let (right, tried, m) = right_repairs(lines, e, times);
                counts.push(format!("{} x{times} {what}: {right}/{tried}", e.name()));
                misses.extend(m);
            }
        }
    }
    println!("{}", counts.join("\n"));
    assert_eq!(
        counts,
        [
            "ISO-8859-2 x1 sentences: 30/30",
            "ISO-8859-2 x1 corpus: 82/83",
            "ISO-8859-2 x2 sentences: 30/30",
            "ISO-8859-2 x2 corpus: 83/83",
            "windows-1250 x1 sentences: 30/30",
            "windows-1250 x1 corpus: 83/83",
            "windows-1250 x2 sentences: 30/30",
            "windows-1250 x2 corpus: 83/83",
        ],
        "{}",
        misses.join("\n")
    );
    assert_eq!(misses.len(), 1, "{}", misses.join("\n"));
    assert!(
        misses[0].contains("De reßnie van onze klas"),
        "{}",
        misses[0]
    );
}

/// Baltic and Croatian text misread through windows-1257, whose reading of `č` (`Ä¨`) is
/// `Ĩ` through windows-1252: all come back.
#[test]
fn windows_1257_is_not_read_as_windows_1252() {
    let mut lines = sentences("hr");
    lines.extend(corpus(&["hr", "lt", "lv", "pl", "de", "sv"]));
    let mut counts = Vec::new();
    let mut misses = Vec::new();
    for times in [1, 2] {
        let (right, tried, m) = right_repairs(&lines, Legacy::Windows1257, times);
        counts.push((right, tried));
        misses.extend(m);
    }
    assert!(misses.is_empty(), "{counts:?}\n{}", misses.join("\n"));
    assert_eq!(counts, [(20, 20), (15, 15)]);
}

/// Thai and Hindi lines whose second half alone was misread: the misread half starts with a
/// vowel sign of the clean half's last letter, and is repaired whole through the encoding
/// that misread it.
#[test]
fn a_half_misread_line_that_starts_with_a_vowel_sign() {
    let mut lines = sentences("th");
    lines.extend(corpus(&["hi"]));
    let mut counts = Vec::new();
    let mut misses = Vec::new();
    for e in [
        Legacy::Windows1250,
        Legacy::Windows1252,
        Legacy::Windows1251,
        Legacy::Iso8859_2,
    ] {
        let halves: Vec<(String, String)> = lines
            .iter()
            .map(|l| {
                let cut = l.char_indices().nth(l.chars().count() / 2).unwrap().0;
                (l[..cut].to_string(), l[cut..].to_string())
            })
            .collect();
        let seconds: Vec<String> = halves.iter().map(|(_, b)| b.clone()).collect();
        let planted: Vec<String> = halves
            .iter()
            .zip(misread(&seconds, e, 1))
            .map(|((a, _), b)| format!("{a}{}", b.unwrap()))
            .collect();
        let got = repaired(&planted);
        let right = lines.iter().zip(&got).filter(|(l, g)| l == g).count();
        counts.push((e.name(), right, lines.len()));
        for ((l, p), g) in lines.iter().zip(&planted).zip(&got) {
            if l != g {
                misses.push(format!("{}: {p}\n  want {l}\n  got  {g}", e.name()));
            }
        }
    }
    let n = lines.len();
    assert_eq!(
        counts,
        [
            ("windows-1250", n, n),
            ("windows-1252", n, n),
            ("windows-1251", n, n),
            ("ISO-8859-2", n, n),
        ],
        "{}",
        misses.join("\n")
    );
}

/// Formulas are not macintosh mojibake: `√π` would be `ù`, `√∑` `÷`, `√∫` `ú`, `√Ω` `ý`,
/// `≈π` `Ź`. Twelve lines of mathematics and the corpus's symbols stay as they are; the
/// same pairs at the start of a misread word, or after a letter, are still repaired.
#[test]
fn mathematics_is_not_macintosh_mojibake() {
    let mut clean = sentences("math");
    clean.extend(corpus(&["symbols"]));
    let mut false_positives = Vec::new();
    for line in &clean {
        for m in find(line) {
            false_positives.push(format!("{line:?}: {m:?}"));
        }
    }
    assert_eq!(false_positives, Vec::<String>::new());
    assert_eq!(repaired(&clean), clean);
    // Misread words alone on a clean line: "último", "où", "øjeblik" through macintosh (a
    // pair before one letter, Danish "√∏l", is left: "√∫f²" is mathematics).
    let misread_words = [
        (
            "El √∫ltimo tren sale a las diez.",
            "El último tren sale a las diez.",
        ),
        ("Je ne sais pas o√π il est.", "Je ne sais pas où il est."),
        ("Vent et √∏jeblik.", "Vent et øjeblik."),
    ];
    let planted: Vec<String> = misread_words.iter().map(|(m, _)| m.to_string()).collect();
    let want: Vec<String> = misread_words.iter().map(|(_, w)| w.to_string()).collect();
    assert_eq!(repaired(&planted), want);
    // And whole sentences through macintosh, once and twice.
    let mut lines: Vec<String> = ["es", "pt", "hr"]
        .iter()
        .flat_map(|n| sentences(n))
        .collect();
    lines.extend(corpus(&["es", "fr", "de", "it", "pt"]));
    for times in [1, 2] {
        let (right, tried, misses) = right_repairs(&lines, Legacy::Macintosh, times);
        assert_eq!((right, tried), (54, 54), "{}", misses.join("\n"));
    }
}

/// A word misread twice through windows-1251 or windows-1253 whose first undoing looks like
/// a word of that script ("Я" twice is "Р\u{A0}Р‡", once undone "РЇ") is undone as often as
/// the rest of its line: every line of the corpus comes back.
#[test]
fn a_word_misread_twice_is_undone_as_often_as_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let input = file_with(
        dir.path(),
        "ru2.txt",
        "\u{420}\u{A0}\u{420}\u{2021} \u{420}\u{A0}\u{420}\u{2026}\u{420}\u{A0}\u{412}\u{B5} \u{420}\u{A0}\u{412}\u{B7}\u{420}\u{A0}\u{420}\u{2026}\u{420}\u{A0}\u{412}\u{B0}\u{420}\u{40E}\u{420}\u{2039}\n"
            .as_bytes(),
    );
    let out = common::run(["repair", "--mojibake", &input, "-o", "-"], 0).stdout;
    assert_eq!(out, "Я не знаю\n".as_bytes());
    let all: Vec<String> = corpus_files()
        .into_iter()
        .flat_map(|(_, text)| text.lines().map(str::to_string).collect::<Vec<_>>())
        .collect();
    let mut counts = Vec::new();
    let mut misses = Vec::new();
    for e in [Legacy::Windows1251, Legacy::Windows1253] {
        let (right, tried, m) = right_repairs(&all, e, 2);
        counts.push((e.name(), right, tried));
        misses.extend(m);
    }
    assert_eq!(
        counts,
        [("windows-1251", 147, 147), ("windows-1253", 132, 132)],
        "{}",
        misses.join("\n")
    );
}

/// The sentences written for these tests are clean: nothing in them is found or changed.
#[test]
fn the_sentences_themselves_are_clean() {
    for name in ["es", "pt", "hr", "th", "math"] {
        let lines = sentences(name);
        let found: Vec<String> = lines
            .iter()
            .flat_map(|l| find(l).into_iter().map(move |m| format!("{l:?}: {m:?}")))
            .collect();
        assert!(found.is_empty(), "{name}: {found:#?}");
        assert_eq!(repaired(&lines), lines, "{name}");
    }
}
