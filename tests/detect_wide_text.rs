//! UTF-16 without a byte order mark in any script: the corpus (28 languages, symbols and
//! emoji), each file and each line, encoded by Python's `utf-16-le` and `utf-16-be` codecs
//! (the oracle; Rust's `encode_utf16` where python3 is missing) is named UTF-16LE or
//! UTF-16BE, also where its zero bytes show no pattern (Cyrillic, Greek, CJK fill both
//! bytes of their units). The false positives are counted: binary data (random bytes, an
//! executable, gzip data, PNG images), the corpus in UTF-8 and in the legacy encodings of
//! its scripts are never UTF-16 or UTF-32.

use std::path::Path;

use hexrune::decode::Dialect;
use hexrune::detect::detect;
use hexrune::scan::index::{Progress, Summary};

mod common;
mod support;
use common::{python_bytes, NO_ARGS};

fn detected(bytes: &[u8]) -> &'static str {
    let summary = Summary::build(Dialect::Utf8, bytes, 1, &Progress::new()).unwrap();
    detect(bytes, &summary).encoding
}

/// The corpus files, by name, in order.
fn corpus() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// Each of `texts` in UTF-16 of `order` (`le` or `be`), without a BOM, as Python's codec
/// encodes it (one python3 run for all).
fn utf16(texts: &[&str], order: &str) -> Vec<Vec<u8>> {
    let dialect = if order == "le" {
        Dialect::Utf16Le
    } else {
        Dialect::Utf16Be
    };
    let ours: Vec<Vec<u8>> = texts
        .iter()
        .map(|t| support::wide::text(dialect, t))
        .collect();
    let code = format!(
        "import sys, json; sys.stdout.write(json.dumps([t.encode('utf-16-{order}').hex() for t in json.load(sys.stdin)]))"
    );
    let input = serde_json::to_vec(texts).unwrap();
    if let Some(python) = python_bytes(&code, NO_ARGS, &input) {
        let hex: Vec<String> = serde_json::from_slice(&python).unwrap();
        let ours_hex: Vec<String> = ours
            .iter()
            .map(|b| b.iter().map(|x| format!("{x:02x}")).collect())
            .collect();
        assert_eq!(hex, ours_hex, "{order}");
    }
    ours
}

#[test]
fn utf16_without_a_bom_in_every_script_of_the_corpus() {
    let corpus = corpus();
    let mut pieces: Vec<(&str, &str)> = Vec::new();
    for (name, text) in &corpus {
        pieces.push((name, text));
        pieces.extend(text.split_inclusive('\n').map(|line| (name.as_str(), line)));
    }
    let texts: Vec<&str> = pieces.iter().map(|(_, t)| *t).collect();
    let (mut tried, mut missed) = (0, Vec::new());
    for (order, want) in [("le", "UTF-16LE"), ("be", "UTF-16BE")] {
        for ((name, piece), bytes) in pieces.iter().zip(utf16(&texts, order)) {
            tried += 1;
            let got = detected(&bytes);
            if got != want {
                missed.push(format!("{name} {order}: {got} {piece:?}"));
            }
        }
    }
    // 30 files and their 147 lines, in both byte orders.
    assert_eq!((tried, missed.len()), (354, 0), "{missed:#?}");
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// gzip data of the corpus's files and PNG images of random pixels, made by Python's gzip
/// and zlib modules; empty where python3 is missing.
fn compressed_samples() -> Vec<(String, Vec<u8>)> {
    const CODE: &str = r#"
import gzip, random, struct, sys, zlib
def chunk(kind, data):
    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
def png(w, h, seed):
    r = random.Random(seed)
    raw = b''.join(b'\0' + bytes(r.getrandbits(8) for _ in range(3 * w)) for _ in range(h))
    head = struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', head) + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')
out = [gzip.compress(open(p, 'rb').read(), mtime=0) for p in sys.argv[1:]]
out += [png(40 + 10 * k, 30, k) for k in range(5)]
for b in out:
    sys.stdout.buffer.write(struct.pack('>I', len(b)) + b)
"#;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
    let mut paths: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path().to_string_lossy().into_owned())
        .collect();
    paths.sort();
    let Some(mut stream) = python_bytes(CODE, &paths, b"") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut k = 0;
    while !stream.is_empty() {
        let len = u32::from_be_bytes(stream[..4].try_into().unwrap()) as usize;
        let name = if k < paths.len() { "gzip" } else { "png" };
        out.push((name.to_string(), stream[4..4 + len].to_vec()));
        stream.drain(..4 + len);
        k += 1;
    }
    out
}

/// Binary data with many zero bytes: zeros with a little ASCII, string tables inside zero
/// padding and padded to 4 bytes.
fn nul_heavy_samples() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut zeros = vec![0u8; 4096];
    for k in 0..40 {
        let at = (rng.next() % 4000) as usize;
        zeros[at..at + 5].copy_from_slice(format!("v{k:04}").as_bytes());
    }
    out.push(("zeros with some ASCII".to_string(), zeros));
    let names = [
        "main",
        "printf",
        "__libc_start_main",
        "données",
        "имя",
        "名前",
    ];
    let table: Vec<u8> = names
        .iter()
        .flat_map(|n| [n.as_bytes(), b"\0"].concat())
        .collect();
    out.push((
        "a string table in zero padding".to_string(),
        [&[0u8; 256][..], &table, &[0u8; 512]].concat(),
    ));
    let padded: Vec<u8> = names
        .iter()
        .cycle()
        .take(60)
        .flat_map(|n| {
            let mut b = n.as_bytes().to_vec();
            b.resize((b.len() / 4 + 1) * 4, 0);
            b
        })
        .collect();
    out.push(("a string table padded to 4 bytes".to_string(), padded));
    out
}

#[test]
fn binary_data_and_other_text_are_never_utf16_or_utf32() {
    let mut samples: Vec<(String, Vec<u8>)> = Vec::new();
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for (k, len) in [64usize, 300, 4096, 70_000]
        .into_iter()
        .cycle()
        .take(40)
        .enumerate()
    {
        let bytes = (0..len).map(|_| rng.next() as u8).collect();
        samples.push((format!("random {k}"), bytes));
    }
    // An executable: this test itself, and ls where there is one.
    let me = std::env::current_exe().unwrap();
    samples.push(("this test".to_string(), std::fs::read(me).unwrap()));
    if let Ok(ls) = std::fs::read("/bin/ls") {
        samples.push(("/bin/ls".to_string(), ls));
    }
    let compressed = compressed_samples();
    let python = !compressed.is_empty();
    samples.extend(compressed);
    samples.extend(nul_heavy_samples());
    let wrong: Vec<String> = samples
        .iter()
        .map(|(name, bytes)| (name, detected(bytes)))
        .filter(|(_, got)| *got != "binary")
        .map(|(name, got)| format!("{name}: {got}"))
        .collect();
    assert_eq!(wrong, Vec::<String>::new());
    if python {
        // 40 random, 1 or 2 executables, 30 gzip files, 5 images, zeros with ASCII and 2
        // string tables.
        assert!(matches!(samples.len(), 79 | 80), "{}", samples.len());
    }
    // The corpus in UTF-8 (each file) and its lines in the legacy encodings that have
    // them (no zero byte, which the spaces and line ends of UTF-16 text have): never wide.
    let (mut tried, mut wide) = (0, Vec::new());
    for (name, text) in corpus() {
        tried += 1;
        assert_eq!(detected(text.as_bytes()), "UTF-8", "{name}");
        for line in text.split_inclusive('\n') {
            for label in [
                "GBK",
                "EUC-KR",
                "Shift_JIS",
                "Big5",
                "windows-1251",
                "windows-1253",
            ] {
                let e = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
                let (bytes, _, unmappable) = e.encode(line);
                if unmappable {
                    continue;
                }
                tried += 1;
                let got = detected(&bytes);
                if got.starts_with("UTF-16") || got.starts_with("UTF-32") {
                    wide.push(format!("{name} in {label}: {got} {line:?}"));
                }
            }
        }
    }
    println!("{tried} texts, {} wide", wide.len());
    assert_eq!((tried, wide.len()), (119, 0), "{wide:#?}");
}

/// The words of the corpus (and, shorter, of each of its lines) as records that NUL bytes
/// end, as `find -print0`, `xargs -0` and `/proc/PID/environ` write them: UTF-8, not binary
/// (each was binary while more than 1% NUL bytes made any input binary).
#[test]
fn nul_separated_records_of_utf8_text_are_utf8() {
    let (mut tried, mut wrong) = (0, Vec::new());
    for (name, text) in corpus() {
        let mut pieces: Vec<&str> = vec![&text];
        pieces.extend(text.lines().filter(|l| l.split_whitespace().count() >= 2));
        for piece in pieces {
            let records: Vec<u8> = piece
                .split_whitespace()
                .flat_map(|w| [w.as_bytes(), b"\0"].concat())
                .collect();
            if records.len() < 16 {
                continue;
            }
            tried += 1;
            let got = detected(&records);
            if got != "UTF-8" {
                wrong.push(format!("{name}: {got} {piece:?}"));
            }
        }
    }
    assert_eq!((tried, wrong.len()), (166, 0), "{wrong:#?}");
}
