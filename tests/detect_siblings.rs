//! The single-byte Latin code pages read most bytes alike: where chardetng names the wrong
//! sibling (Hungarian as windows-1252, `ő` as `õ`; Turkish as windows-1252, `ş` as `þ`;
//! Swedish in Mac OS Roman as windows-1250; Russian in Mac OS Cyrillic as windows-1251),
//! the sibling whose letters fit one language a line is named; and text chardetng names right keeps its name. Each sentence is the
//! test's own, encoded by encoding_rs; the criterion is exact: the named encoding decodes
//! the bytes to the sentence.

use hexrune::decode::Dialect;
use hexrune::detect::{detect, Detection};
use hexrune::scan::index::{Progress, Summary};

mod common;
use common::repaired_auto;

fn detected(bytes: &[u8]) -> Detection {
    let summary = Summary::build(Dialect::Utf8, bytes, 1, &Progress::new()).unwrap();
    detect(bytes, &summary)
}

/// The regions of a detection, as `(start, end, encoding)`.
fn regions(d: &Detection) -> Vec<(usize, usize, &'static str)> {
    d.regions
        .iter()
        .map(|r| (r.start, r.end, r.encoding))
        .collect()
}

fn encoded(text: &str, label: &str) -> Vec<u8> {
    let encoding = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
    let (bytes, _, unmappable) = encoding.encode(text);
    assert!(!unmappable, "{text} in {label}");
    bytes.into_owned()
}

/// What the detected encoding makes of `bytes`.
fn read_as_detected(bytes: &[u8]) -> (String, &'static str) {
    let d = detected(bytes);
    let encoding = encoding_rs::Encoding::for_label(d.encoding.as_bytes()).unwrap();
    let (text, _) = encoding.decode_without_bom_handling(bytes);
    (text.into_owned(), d.encoding)
}

const HUNGARIAN: &str = "A nagymamám főzött egy finom gulyáslevest. Jövő héten újra \
meglátogatjuk őt a faluban, és sok gyümölcsöt és zöldséget vettünk.\n";
const TURKISH: &str =
    "Şu köşedeki dükkânda çay içtik ve güzel bir sohbet ettik, ağabeyim de geldi.\n";
const SWEDISH: &str = "Vi åkte till sjön i söndags och åt jordgubbar med grädde på bryggan.\n";

#[test]
fn a_sibling_whose_letters_fit_one_language_is_named() {
    for (text, label) in [
        (HUNGARIAN, "windows-1250"),
        (HUNGARIAN, "ISO-8859-2"),
        (TURKISH, "windows-1254"),
        (SWEDISH, "macintosh"),
        // windows-1250 reads `ä` as `Š`: `hŠr`, a capital after a small letter.
        (
            "Hon sa: »Det här är min älsklingsbok», och gav den till mig.\n",
            "macintosh",
        ),
    ] {
        let bytes = encoded(text, label);
        let (read, name) = read_as_detected(&bytes);
        assert_eq!(read, text, "{label}: named {name}");
        assert_eq!(repaired_auto(&bytes), text.as_bytes(), "{label}");
    }
    let d = detected(&encoded(HUNGARIAN, "windows-1250"));
    assert_eq!(
        (d.encoding, d.evidence[0].as_str()),
        (
            "windows-1250",
            "18 UTF-8 errors and few multi-byte characters; chardetng reads it as \
             windows-1252, whose letters fit no one language a line (3 letters off: õ); as \
             windows-1250 they do"
        )
    );
}

#[test]
fn text_chardetng_names_right_keeps_its_name() {
    for (text, label) in [
        (
            "Le garçon a mangé une crème brûlée à côté de l'hôtel, près de la forêt.\n",
            "windows-1252",
        ),
        (
            "L’été à Paris — c’est magnifique, dit-elle à l’hôtesse.\n",
            "windows-1252",
        ),
        (
            "Die Straße führt über die Brücke zum Rathaus, wo Jürgen Müller wohnt. Der \
          Café-Besitzer heißt François Lefèvre.\n",
            "windows-1252",
        ),
        (
            "¿Dónde está el niño? Mañana iremos a la montaña con mi señora.\n",
            "windows-1252",
        ),
        (
            "A lição de português é às três horas, não se esqueça do caderno.\n",
            "windows-1252",
        ),
        (
            "Vi spiste rødgrød med fløde i haven, og børnene legede på græsset.\n",
            "windows-1252",
        ),
        (
            "Við fórum í gönguferð upp á fjallið og sáum þoku yfir dalnum.\n",
            "windows-1252",
        ),
        (
            "Lunedì andrò all'università con Niccolò, più tardi prenderemo un caffè.\n",
            "windows-1252",
        ),
        (
            "Zażółć gęślą jaźń, powiedział nauczyciel, i wszyscy się roześmiali.\n",
            "windows-1250",
        ),
        (
            "Příliš žluťoučký kůň úpěl ďábelské ódy a pak šel domů.\n",
            "windows-1250",
        ),
        (
            "Jučer smo išli u grad i kupili smo svježi kruh, čaj i šećer.\n",
            "windows-1250",
        ),
        (
            "Šodien mēs gājām uz tirgu un nopirkām svaigus ābolus un ķiršus.\n",
            "windows-1257",
        ),
    ] {
        let bytes = encoded(text, label);
        let (read, name) = read_as_detected(&bytes);
        assert_eq!(read, text, "{label}: named {name}");
    }
}

const RUSSIAN: &str = "Вчера мы гуляли в парке, и погода была прекрасной.\n\
Я думаю, что завтра будет дождь, поэтому возьми зонт.\n\
Москва - столица России, а Киев - столица Украины.\n";
const UKRAINIAN: &str = "Учора ми гуляли в парку, і погода була чудова.\n\
Я думаю, що завтра піде дощ, тому візьми парасольку.\n";
const BULGARIAN: &str = "Вчера се разходихме в парка в София и времето беше прекрасно.\n\
Утре ще вали, затова си вземи чадъра, моля.\n";
const SERBIAN: &str = "Јуче смо шетали у парку, а ђаци су се играли поред цркве.\n\
Сутра ће падати киша, зато понеси кишобран, џемпер и шал.\n";

/// The Cyrillic code pages are siblings too: Russian, Ukrainian and Bulgarian in Mac OS
/// Cyrillic (which chardetng names windows-1251: `‚чера`, `гулЯли`) are named so, and
/// text in the other Cyrillic code pages is read as it was written.
#[test]
fn cyrillic_siblings_are_told_apart() {
    for text in [RUSSIAN, UKRAINIAN, BULGARIAN] {
        let bytes = encoded(text, "x-mac-cyrillic");
        let (read, name) = read_as_detected(&bytes);
        assert_eq!((read.as_str(), name), (text, "x-mac-cyrillic"));
        assert_eq!(repaired_auto(&bytes), text.as_bytes());
    }
    let d = detected(&encoded(RUSSIAN, "x-mac-cyrillic"));
    assert_eq!(
        d.evidence[0],
        "120 UTF-8 errors and few multi-byte characters; chardetng reads it as windows-1251, \
         whose letters fit no one language a line (3 letters off: Я џ Њ ђ); as \
         x-mac-cyrillic they do"
    );
    for (text, label) in [
        (RUSSIAN, "windows-1251"),
        (RUSSIAN, "KOI8-R"),
        (RUSSIAN, "IBM866"),
        (RUSSIAN, "ISO-8859-5"),
        (UKRAINIAN, "windows-1251"),
        (UKRAINIAN, "KOI8-U"),
        (BULGARIAN, "windows-1251"),
        // Serbian's own letters are where Mac OS Cyrillic has capitals.
        (SERBIAN, "windows-1251"),
        // Brands in two capitals (`МегаФон`, `КамАЗ`) are one letter off a line: too few.
        ("ВКонтакте и МегаФон\n", "windows-1251"),
        ("КамАЗ\n", "windows-1251"),
    ] {
        let bytes = encoded(text, label);
        let (read, name) = read_as_detected(&bytes);
        assert_eq!(read, text, "{label}: named {name}");
    }
}

/// Mac OS Cyrillic and IBM866 write the capitals alike: text in capitals reads the same in
/// both but for `Ё` (Mac OS Cyrillic's `DD`, a half block in IBM866) and the letters of
/// Ukrainian, which IBM866 reads as lines of a frame; chardetng names windows-1252 for a
/// line of Ukrainian capitals, which reads as no text. Capitals of windows-1251 are lines
/// of a frame in IBM866, which no letter misfits: no rival.
#[test]
fn cyrillic_capitals_are_read_through_the_page_that_makes_words_of_them() {
    const RUSSIAN_CAPITALS: &str =
        "ВЧЕРА МЫ ГУЛЯЛИ ПО ПАРКУ И ВИДЕЛИ МНОГО ЛЮДЕЙ.\nСЕГОДНЯ ИДЁТ ДОЖДЬ.\n";
    const UKRAINIAN_CAPITALS: &str = "ВІДДІЛ КАДРІВ ПРАЦЮЄ ДО П'ЯТНИЦІ. ЇЖАК ЇСТЬ ЯБЛУКА.\n";
    for text in [RUSSIAN_CAPITALS, UKRAINIAN_CAPITALS] {
        let bytes = encoded(text, "x-mac-cyrillic");
        let (read, name) = read_as_detected(&bytes);
        assert_eq!((read.as_str(), name), (text, "x-mac-cyrillic"));
        assert_eq!(repaired_auto(&bytes), text.as_bytes());
    }
    assert_eq!(
        detected(&encoded(RUSSIAN_CAPITALS, "x-mac-cyrillic")).evidence[0],
        "51 UTF-8 errors and few multi-byte characters; chardetng reads it as IBM866, whose \
         letters fit no one language a line (2 letters off); as x-mac-cyrillic they do"
    );
    assert_eq!(
        detected(&encoded(UKRAINIAN_CAPITALS, "x-mac-cyrillic")).evidence[0],
        "41 UTF-8 errors and few multi-byte characters; chardetng reads it as windows-1252, \
         which gives no text; as x-mac-cyrillic it is words of Cyrillic letters"
    );
    // `Ё` at a word's end (`ЕЩЁ`, `ВСЁ`): a block right after letters.
    let yo = "СЪЕШЬ ЖЕ ЕЩЁ ЭТИХ МЯГКИХ ФРАНЦУЗСКИХ БУЛОК, ДА ВЫПЕЙ ЧАЮ.\n";
    let (read, name) = read_as_detected(&encoded(yo, "x-mac-cyrillic"));
    assert_eq!((read.as_str(), name), (yo, "x-mac-cyrillic"));
    for (text, label) in [
        (RUSSIAN_CAPITALS, "IBM866"),
        ("СЕГОДНЯ ИДЁТ ДОЖДЬ, А ЗАВТРА БУДЕТ СОЛНЦЕ.\n", "IBM866"),
        (RUSSIAN_CAPITALS, "windows-1251"),
        // Words of four languages in capitals: each letter fits one of them.
        ("ДАНАС БЕЛАРУСКІМ ПРИЈАТЕЉИМА ЖОЎТАЕ\n", "windows-1251"),
        (
            "СЬОГОДНІ РАСКАЗАЎ УНІВЕРСИТЕТІ ХЛІБА У НОЌЕ\n",
            "windows-1251",
        ),
    ] {
        let bytes = encoded(text, label);
        let (read, name) = read_as_detected(&bytes);
        assert_eq!(read, text, "{label}: named {name}");
    }
}

/// Lines of two Cyrillic code pages with the cases the other way round (KOI8-R and
/// windows-1251) in one file: a line of one read through the other is in capitals but for
/// its first letter (`чЮЕТА ЬЩ`), and is a region of the code page chardetng names for it
/// alone; a heading in capitals is no such line.
#[test]
fn lines_of_two_cyrillic_code_pages_are_regions_of_each() {
    let lines = [
        "Вчера мы гуляли в парке, и погода была прекрасной.\n",
        "Москва - столица России, а Киев - столица Украины.\n",
        "Я думаю, что завтра будет дождь, поэтому возьми зонт.\n",
        "Бабушка испекла пирожки с капустой, и все были сыты.\n",
    ];
    let labels = ["windows-1251", "KOI8-R", "windows-1251", "KOI8-R"];
    let bytes: Vec<u8> = lines
        .iter()
        .zip(labels)
        .flat_map(|(l, e)| encoded(l, e))
        .collect();
    let d = detected(&bytes);
    let decoded: Vec<String> = d
        .regions
        .iter()
        .map(|r| {
            let e = encoding_rs::Encoding::for_label(r.encoding.as_bytes()).unwrap();
            e.decode_without_bom_handling(&bytes[r.start..r.end])
                .0
                .into_owned()
        })
        .collect();
    assert_eq!(decoded, lines, "{:?}", regions(&d));
    // A heading in capitals, and text, in windows-1251 alone: one region.
    let text = "ВВЕДЕНИЕ В ТЕОРИЮ ЧИСЕЛ\nЭта книга написана для студентов первого курса.\n";
    let bytes = encoded(text, "windows-1251");
    assert_eq!(
        regions(&detected(&bytes)),
        [(0, bytes.len(), "windows-1251")]
    );
}

/// Lines of two code pages of two scripts in one file: a line whose reading through the
/// file's guess has words of ASCII letters and letters of another script (`arrivйs`) is a
/// region of the code page chardetng names for it alone.
#[test]
fn lines_of_two_code_pages_are_regions_of_each() {
    let russian = encoded("Моя сестра учится в университете.\n", "windows-1251");
    let french = encoded("Nous sommes arrivés très tôt à la gare.\n", "windows-1252");
    let bytes = [russian, french].concat();
    let d = detected(&bytes);
    let got = regions(&d);
    assert_eq!(got, [(0, 34, "windows-1251"), (34, 74, "windows-1252")]);
    assert_eq!(d.evidence[0], "mixed: 2 regions in 2 encodings");

    let greek = encoded("Η Αθήνα είναι η πρωτεύουσα της Ελλάδας.\n", "windows-1253");
    let german = encoded(
        "Wir sind früh am Bahnhof angekommen, später gab es Kaffee.\n",
        "windows-1252",
    );
    let sea = encoded("Η θάλασσα ήταν ήρεμη σήμερα το πρωί.\n", "windows-1253");
    let bytes = [greek, german, b"OK\n".to_vec(), sea].concat();
    let d = detected(&bytes);
    let got = regions(&d);
    // The ASCII line goes with the German line before it.
    assert_eq!(
        got,
        [
            (0, 40, "windows-1253"),
            (40, 102, "windows-1252"),
            (102, 139, "windows-1253")
        ]
    );
}

/// A file of one code page whose words mix ASCII letters and the script's own (`QAшник`,
/// `masterе`) is one region; German lines between Greek ones are all windows-1252 (the
/// encoding met first, which reads them the same as windows-1250), and the headline is
/// the encoding of the most bytes; lines of another code page past the regions listed are
/// said, not passed over in silence.
#[test]
fn splitting_by_lines_keeps_to_what_lines_show() {
    let russian = encoded(
        "Я залил фикс в masterе.\nЗавтра релиз, не забудь.\nЭто наш CEOшник, а QAшник в отпуске.\n",
        "windows-1251",
    );
    let d = detected(&russian);
    assert_eq!(
        (d.encoding, d.regions.len()),
        ("windows-1251", 1),
        "{:?}",
        d.regions
    );

    let german = [
        "Die Straße ist heute gesperrt.\n",
        "Wir müssen früh aufstehen.\n",
        "Das Gebäude ist schön.\n",
        "Können Sie mir bitte helfen? Ich verstehe es nicht.\n",
    ];
    let greek = [
        "Η Αθήνα είναι η πρωτεύουσα.\n",
        "Σήμερα ο καιρός είναι καλός.\n",
        "Πού είναι ο σταθμός;\n",
        "Ευχαριστώ πολύ.\n",
    ];
    let bytes: Vec<u8> = (0..4)
        .flat_map(|i| {
            [
                encoded(german[i], "windows-1252"),
                encoded(greek[i], "windows-1253"),
            ]
            .concat()
        })
        .collect();
    let d = detected(&bytes);
    let named: Vec<&str> = d.regions.iter().map(|r| r.encoding).collect();
    assert_eq!(d.encoding, "windows-1252");
    assert_eq!(
        named,
        ["windows-1252", "windows-1253"].repeat(4),
        "{:?}",
        d.regions
    );

    let (ru, fr) = (
        ["Вчера мы ходили в кино.\n", "Москва является столицей.\n"],
        [
            "Nous sommes arrivés très tard.\n",
            "Le café était délicieux.\n",
        ],
    );
    let bytes: Vec<u8> = (0..40)
        .flat_map(|i| {
            [
                encoded(ru[i % 2], "windows-1251"),
                encoded(fr[i % 2], "windows-1252"),
            ]
            .concat()
        })
        .collect();
    let d = detected(&bytes);
    assert_eq!(d.regions.len(), 1);
    assert_eq!(
        d.doubt.as_deref(),
        Some(
            "windows-1251: lines of windows-1252 among the windows-1251 text (the first at \
             24), more regions than the 64 listed: all read as windows-1251"
        )
    );
}

/// Romanian in ISO-8859-16 (`ș`, `ț` with a comma below) reads as windows-1250 but for
/// those letters, which windows-1250 writes with a cedilla: both readings are Romanian, so
/// the doubt says which bytes differ and how to ask for the other; Polish in windows-1250
/// has no such byte and no doubt.
#[test]
fn romanian_with_a_comma_below_is_a_doubt() {
    let comma = "Ștefan și Țiți au mâncat în grădină, apoi s-au întors acasă.\n";
    let bytes = encoded(comma, "ISO-8859-16");
    let d = detected(&bytes);
    assert_eq!(d.encoding, "windows-1250");
    assert_eq!(
        d.doubt.as_deref(),
        Some(
            "windows-1250: 4 bytes read as ISO-8859-16 give Romanian's letters with a comma \
             below where windows-1250 gives them with a cedilla (the first at 0: AA Ș not Ş, \
             BA ș not ş, DE Ț not Ţ, FE ț not ţ); if it is ISO-8859-16, give --from \
             iso-8859-16"
        )
    );
    let polish = encoded(
        "Zażółć gęślą jaźń, powiedział nauczyciel, i wszyscy się roześmiali.\n",
        "windows-1250",
    );
    assert_eq!(detected(&polish).doubt, None);
}
