//! Generated inputs shared by the benchmarks: the same bytes in every run, so figures from
//! different runs and different benchmarks compare; and [`run`], how the benchmarks that
//! compare commands time one of them. Each benchmark uses some of these, so each declares
//! this module `#[allow(dead_code)]`.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A small deterministic generator (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    /// The seed every benchmark starts from.
    pub fn seeded() -> Rng {
        Rng(0x9E37_79B9_7F4A_7C15)
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// `size` bytes of valid multilingual text: words from several scripts, so 1- to 4-byte
/// sequences mix as in real text, with line breaks; cut at a character boundary.
pub fn multilingual(size: usize, rng: &mut Rng) -> Vec<u8> {
    const WORDS: &[&str] = &[
        "the ",
        "data ",
        "error ",
        "naïve ",
        "café ",
        "Ελληνικά ",
        "русский ",
        "עברית ",
        "العربية ",
        "हिन्दी ",
        "中文字符 ",
        "日本語の ",
        "한국어 ",
        "😀 ",
        "𝄞 ",
        "ok.\n",
    ];
    let mut out = Vec::with_capacity(size + 64);
    while out.len() < size {
        out.extend_from_slice(WORDS[(rng.next() % WORDS.len() as u64) as usize].as_bytes());
    }
    out.truncate(size);
    while std::str::from_utf8(&out).is_err() {
        out.pop();
    }
    out
}

/// `size` random bytes.
pub fn random(size: usize, rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::with_capacity(size + 8);
    while out.len() < size {
        out.extend_from_slice(&rng.next().to_le_bytes());
    }
    out.truncate(size);
    out
}

/// `size` bytes of valid text where 3-byte units dominate: words of Chinese, Japanese,
/// Hindi, Tamil and Thai (with their combining vowel signs and viramas), built from
/// syllables drawn at random so that words rarely repeat, separated by spaces and now and
/// then the script's own punctuation and a line break; cut at a character boundary.
pub fn cjk_indic(size: usize, rng: &mut Rng) -> Vec<u8> {
    const SYLLABLES: [&[&str]; 5] = [
        // Chinese
        &[
            "中", "文", "字", "符", "数", "据", "错", "误", "语", "言", "世", "界", "编", "码",
            "检", "查", "文", "件", "内", "容", "读", "取", "写", "入", "显", "示", "行", "列",
        ],
        // Japanese
        &[
            "日", "本", "語", "の", "を", "は", "が", "に", "で", "す", "ま", "し", "た", "デ",
            "ー", "タ", "ファ", "イル", "文", "字", "化", "け", "確", "認", "カ", "ナ", "ひ", "ら",
        ],
        // Hindi
        &[
            "क", "का", "कि", "के", "ग", "गा", "त", "ता", "ती", "न", "ना", "नी", "म", "मा", "र",
            "रा", "री", "स", "सा", "ह", "हि", "ष", "ंद", "्र", "्य", "ों", "ें", "ल",
        ],
        // Tamil
        &[
            "த", "மி", "ழ்", "க", "ல்", "வி", "ன", "ம்", "ப", "டி", "ர", "ா", "ச", "ெ", "ய", "ு", "ற",
            "ை", "ந", "ொ", "ட்", "ண", "கு", "ளி", "வ", "ந்", "தி", "ழ",
        ],
        // Thai
        &[
            "ภา", "ษา", "ไ", "ท", "ย", "ข้", "อ", "มู", "ล", "ผิ", "ด", "พ", "ลา", "ด", "ตั", "ว", "อั",
            "ก", "ษ", "ร", "ห", "นั", "ง", "สื", "อ", "เ", "รี", "ย",
        ],
    ];
    // Each script's own punctuation: the ideographic comma and full stop for Chinese and
    // Japanese, the danda for Hindi, the full stop elsewhere.
    const BREAKS: [[&str; 8]; 5] = [
        [" ", " ", " ", " ", "、", "、", "。\n", "。\n"],
        [" ", " ", " ", " ", "、", "、", "。\n", "。\n"],
        [" ", " ", " ", " ", " ", "। ", "।\n", ".\n"],
        [" ", " ", " ", " ", " ", " ", ".\n", ".\n"],
        [" ", " ", " ", " ", " ", " ", ".\n", ".\n"],
    ];
    let mut out = Vec::with_capacity(size + 64);
    while out.len() < size {
        let which = (rng.next() % 5) as usize;
        let (script, breaks) = (SYLLABLES[which], BREAKS[which]);
        for _ in 0..4 {
            let words = 1 + rng.next() % 4;
            for _ in 0..words {
                let len = 2 + rng.next() % 4;
                for _ in 0..len {
                    let syllable = script[(rng.next() % script.len() as u64) as usize];
                    out.extend_from_slice(syllable.as_bytes());
                }
                out.extend_from_slice(breaks[(rng.next() % 8) as usize].as_bytes());
            }
        }
    }
    out.truncate(size);
    while std::str::from_utf8(&out).is_err() {
        out.pop();
    }
    out
}

/// How long one run of `program args` takes with stdin empty and its output sent to
/// /dev/null; `None` if it cannot be started or exits with a code not in `answers` (`check`
/// exits 1 on invalid data or lints, which is an answer, not a failure).
pub fn run(program: &str, args: &[&str], answers: &[i32]) -> Option<Duration> {
    let start = Instant::now();
    let status = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .ok()?;
    let took = start.elapsed();
    status
        .code()
        .is_some_and(|c| answers.contains(&c))
        .then_some(took)
}
