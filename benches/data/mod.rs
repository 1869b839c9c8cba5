//! Generated inputs shared by the benchmarks: the same bytes in every run, so figures from
//! different runs and different benchmarks compare.

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
