//! The lookalike search (`/~/text`): the text and every byte form a lax UTF-8 decoder
//! reads as the same text.
//!
//! For each character of the needle the forms are its shortest UTF-8 form, its overlong
//! forms up to 4 bytes (6 in the legacy dialect, RFC 2279), and for a supplementary
//! character its CESU-8 form (a surrogate pair, 3 bytes each). `/` has the forms `2F`,
//! `C0 AF`, `E0 80 AF`, `F0 80 80 AF` (and `F8 80 80 80 AF`, `FC 80 80 80 80 AF` in
//! legacy): the shapes behind path-traversal advisories (CVE-2000-0884, CVE-2008-2938).
//!
//! The forms of one character never share a first byte (the lead byte says the length,
//! and a CESU-8 pair starts with `ED`, which no 4-byte form does), so a match is decided
//! at each start byte by one walk through the needle, never by trying combinations: a
//! needle of 10 characters with 4 forms each is 40 alternatives, not 4^10 patterns.
//! Candidate starts are found with `memchr3` over the first character's first bytes (one
//! search per three of them, merged).
//!
//! Writing overlong forms is hexrune's own code (no crate writes them); the shortest forms
//! are checked against Rust's own encoder, the overlong ones against `lint`'s
//! `overlong-ascii` finding, in the tests below.

use super::search::{Cancelled, Control, CHUNK};
use crate::decode::Dialect;

/// Which way a search goes through the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Way {
    Forward,
    Backward,
}

/// How a form writes its character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormKind {
    /// The shortest form: the character as UTF-8 writes it.
    Shortest,
    /// An overlong form of this many bytes.
    Overlong(u8),
    /// A supplementary character as a CESU-8 surrogate pair (6 bytes).
    Cesu8,
}

impl FormKind {
    /// What the detail pane says of it.
    pub fn describe(self) -> String {
        match self {
            FormKind::Shortest => "as written".to_string(),
            FormKind::Overlong(n) => format!("overlong, {n} bytes"),
            FormKind::Cesu8 => "CESU-8 surrogate pair".to_string(),
        }
    }
}

/// One byte form of a character.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    /// Its bytes (1 to 6).
    pub bytes: Vec<u8>,
    /// What kind of form it is.
    pub kind: FormKind,
}

/// A character of the needle and its forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alternatives {
    /// The character.
    pub ch: char,
    /// Its forms, shortest first.
    pub forms: Vec<Form>,
}

/// A lookalike needle: the forms of each of its characters, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lookalike {
    /// The characters and their forms.
    pub chars: Vec<Alternatives>,
    /// The bytes that can start a match (the first bytes of the first character's forms),
    /// in groups of three for `memchr3`.
    first: Vec<[u8; 3]>,
}

/// A match: where, and which form of each character.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    /// Offset of its first byte.
    pub start: usize,
    /// Offset past its last byte.
    pub end: usize,
    /// The index of the form each character matched, in [`Alternatives::forms`].
    pub forms: Vec<usize>,
}

/// The bytes of `cp` in an `n`-byte UTF-8 form (1 to 6), if `cp` fits in its payload.
///
/// ```
/// use hexrune::tui::lookalike::form;
/// assert_eq!(form(0x2F, 1), Some(vec![0x2F]));
/// assert_eq!(form(0x2F, 3), Some(vec![0xE0, 0x80, 0xAF]));
/// assert_eq!(form(0x2F, 6), Some(vec![0xFC, 0x80, 0x80, 0x80, 0x80, 0xAF]));
/// assert_eq!(form(0x20AC, 2), None);
/// ```
pub fn form(cp: u32, n: usize) -> Option<Vec<u8>> {
    // Payload bits of a form of n bytes: 7, then 11, 16, 21, 26, 31.
    const BITS: [u32; 7] = [0, 7, 11, 16, 21, 26, 31];
    if !(1..=6).contains(&n) || cp >> BITS[n] != 0 {
        return None;
    }
    if n == 1 {
        return Some(vec![cp as u8]);
    }
    let mut out = vec![0u8; n];
    for (k, byte) in out.iter_mut().enumerate().skip(1) {
        *byte = 0x80 | ((cp >> (6 * (n - 1 - k))) & 0x3F) as u8;
    }
    let marker = (0xFF00u16 >> n) as u8; // n leading one bits
    out[0] = marker | (cp >> (6 * (n - 1))) as u8;
    Some(out)
}

/// The forms of `c` in `dialect`'s family: shortest, overlong up to 4 bytes (6 in
/// legacy), and the CESU-8 pair of a supplementary character.
pub fn forms(c: char, dialect: Dialect) -> Vec<Form> {
    let cp = c as u32;
    let longest = if dialect == Dialect::Legacy { 6 } else { 4 };
    let shortest = c.len_utf8();
    let mut out: Vec<Form> = (shortest..=longest.max(shortest))
        .filter_map(|n| {
            form(cp, n).map(|bytes| Form {
                bytes,
                kind: if n == shortest {
                    FormKind::Shortest
                } else {
                    FormKind::Overlong(n as u8)
                },
            })
        })
        .collect();
    if cp > 0xFFFF {
        let v = cp - 0x10000;
        let (high, low) = (0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF));
        let mut bytes = form(high, 3).expect("a surrogate fits 3 bytes");
        bytes.extend(form(low, 3).expect("a surrogate fits 3 bytes"));
        out.push(Form {
            bytes,
            kind: FormKind::Cesu8,
        });
    }
    out
}

impl Lookalike {
    /// The lookalike needle of `text` in `dialect`, which must be of the UTF-8 family.
    pub fn new(text: &str, dialect: Dialect) -> Result<Lookalike, String> {
        if !Dialect::UTF8_FAMILY.contains(&dialect) {
            return Err(format!(
                "lookalike search reads the UTF-8 family (utf8, cesu8, mutf8, wtf8, legacy), not {}",
                dialect.encoding_name()
            ));
        }
        if text.is_empty() {
            return Err("nothing to search for".to_string());
        }
        let chars: Vec<Alternatives> = text
            .chars()
            .map(|ch| Alternatives {
                ch,
                forms: forms(ch, dialect),
            })
            .collect();
        let mut leads: Vec<u8> = chars[0].forms.iter().map(|f| f.bytes[0]).collect();
        leads.sort_unstable();
        leads.dedup();
        let first = leads
            .chunks(3)
            .map(|c| [c[0], c[c.len().min(2) - 1], c[c.len() - 1]])
            .collect();
        Ok(Lookalike { chars, first })
    }

    /// Where a match starting at `start` ends, if one does.
    pub fn end_at(&self, bytes: &[u8], start: usize) -> Option<usize> {
        let mut pos = start;
        for alternatives in &self.chars {
            let rest = bytes.get(pos..)?;
            let form = alternatives
                .forms
                .iter()
                .find(|f| rest.starts_with(&f.bytes))?;
            pos += form.bytes.len();
        }
        Some(pos)
    }

    /// The match starting at `start`, with the form each character matched, if any.
    pub fn match_at(&self, bytes: &[u8], start: usize) -> Option<Match> {
        let mut pos = start;
        let mut forms = Vec::with_capacity(self.chars.len());
        for alternatives in &self.chars {
            let rest = bytes.get(pos..)?;
            let i = alternatives
                .forms
                .iter()
                .position(|f| rest.starts_with(&f.bytes))?;
            forms.push(i);
            pos += alternatives.forms[i].bytes.len();
        }
        Some(Match {
            start,
            end: pos,
            forms,
        })
    }

    /// The match that starts at or before `offset` and covers it, looking back at most
    /// as far as the longest match can reach.
    pub fn match_covering(&self, bytes: &[u8], offset: usize) -> Option<Match> {
        let reach: usize = self
            .chars
            .iter()
            .map(|a| a.forms.iter().map(|f| f.bytes.len()).max().unwrap_or(1))
            .sum();
        let lo = offset.saturating_sub(reach.saturating_sub(1));
        (lo..=offset.min(bytes.len().saturating_sub(1)))
            .rev()
            .filter_map(|s| self.match_at(bytes, s))
            .find(|m| m.end > offset)
    }

    /// The first match that starts in `from..until` (it may end past `until`).
    pub fn find_forward(
        &self,
        bytes: &[u8],
        from: usize,
        until: usize,
        control: &mut Control,
    ) -> Result<Option<usize>, Cancelled> {
        let until = until.min(bytes.len());
        let mut pos = from;
        while pos < until {
            control.step(pos)?;
            let end = (pos + CHUNK).min(until);
            if let Some(start) = self.nearest_in(bytes, pos, end, Way::Forward) {
                return Ok(Some(start));
            }
            pos = end;
        }
        Ok(None)
    }

    /// The last match that starts in `from..before`.
    pub fn find_backward(
        &self,
        bytes: &[u8],
        from: usize,
        before: usize,
        control: &mut Control,
    ) -> Result<Option<usize>, Cancelled> {
        let mut hi = before.min(bytes.len());
        while hi > from {
            control.step(hi)?;
            let lo = hi.saturating_sub(CHUNK).max(from);
            if let Some(start) = self.nearest_in(bytes, lo, hi, Way::Backward) {
                return Ok(Some(start));
            }
            hi = lo;
        }
        Ok(None)
    }

    /// The match starting in `lo..hi` nearest the side `way` starts from: the lowest
    /// start forward, the highest backward. The candidate starts come from one `memchr3`
    /// per group of lead bytes, merged in order.
    fn nearest_in(&self, bytes: &[u8], lo: usize, hi: usize, way: Way) -> Option<usize> {
        let step = |hits: &mut memchr::Memchr3<'_>| match way {
            Way::Forward => hits.next(),
            Way::Backward => hits.next_back(),
        };
        let mut hits: Vec<_> = self
            .first
            .iter()
            .map(|[a, b, c]| memchr::memchr3_iter(*a, *b, *c, &bytes[lo..hi]))
            .collect();
        let mut heads: Vec<Option<usize>> = hits.iter_mut().map(step).collect();
        loop {
            let (k, at) = heads
                .iter()
                .enumerate()
                .filter_map(|(k, h)| h.map(|at| (k, at)))
                .min_by_key(|&(_, at)| match way {
                    Way::Forward => at,
                    Way::Backward => usize::MAX - at,
                })?;
            heads[k] = step(&mut hits[k]);
            if self.end_at(bytes, lo + at).is_some() {
                return Some(lo + at);
            }
        }
    }

    /// What matched, for the detail pane: the characters written in a form other than
    /// their shortest, with their bytes (`"/" as C0 AF (overlong, 2 bytes)`), or that the
    /// text is as written.
    pub fn describe(&self, m: &Match, bytes: &[u8]) -> String {
        let mut parts = Vec::new();
        let mut pos = m.start;
        for (alternatives, &i) in self.chars.iter().zip(&m.forms) {
            let form = &alternatives.forms[i];
            if form.kind != FormKind::Shortest {
                let hex: Vec<String> = bytes[pos..pos + form.bytes.len()]
                    .iter()
                    .map(|b| format!("{b:02X}"))
                    .collect();
                parts.push(format!(
                    "\u{201C}{}\u{201D} as {} ({})",
                    crate::view::safe::sanitize(&alternatives.ch.to_string()),
                    hex.join(" "),
                    form.kind.describe()
                ));
            }
            pos += form.bytes.len();
        }
        if parts.is_empty() {
            "the text as written".to_string()
        } else {
            parts.join(", ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::{lint, Kind, Lints};
    use crate::scan::index::{Progress, Summary};
    use proptest::prelude::*;
    use std::sync::atomic::AtomicBool;

    fn all(needle: &Lookalike, bytes: &[u8]) -> Vec<(usize, usize)> {
        let cancel = AtomicBool::new(false);
        let mut control = Control {
            cancel: &cancel,
            progress: &mut |_| {},
        };
        let mut out = Vec::new();
        let mut from = 0;
        while let Some(s) = needle
            .find_forward(bytes, from, bytes.len(), &mut control)
            .unwrap()
        {
            out.push((s, needle.end_at(bytes, s).unwrap()));
            from = s + 1;
        }
        out
    }

    fn backward(needle: &Lookalike, bytes: &[u8]) -> Vec<usize> {
        let cancel = AtomicBool::new(false);
        let mut control = Control {
            cancel: &cancel,
            progress: &mut |_| {},
        };
        let mut out = Vec::new();
        let mut before = bytes.len();
        while let Some(s) = needle
            .find_backward(bytes, 0, before, &mut control)
            .unwrap()
        {
            out.push(s);
            before = s;
        }
        out.reverse();
        out
    }

    #[test]
    fn slash_in_every_dialect_family() {
        let utf8 = Lookalike::new("/", Dialect::Utf8).unwrap();
        let bytes: Vec<Vec<u8>> = utf8.chars[0]
            .forms
            .iter()
            .map(|f| f.bytes.clone())
            .collect();
        assert_eq!(
            bytes,
            [
                vec![0x2F],
                vec![0xC0, 0xAF],
                vec![0xE0, 0x80, 0xAF],
                vec![0xF0, 0x80, 0x80, 0xAF]
            ]
        );
        let legacy = Lookalike::new("/", Dialect::Legacy).unwrap();
        assert_eq!(legacy.chars[0].forms.len(), 6);
        assert_eq!(
            legacy.chars[0].forms[5].bytes,
            [0xFC, 0x80, 0x80, 0x80, 0x80, 0xAF]
        );
        let file = b"a/b\xC0\xAFc\xE0\x80\xAFd\xF0\x80\x80\xAFe\xF8\x80\x80\x80\xAFf";
        assert_eq!(
            all(&utf8, file),
            [(1, 2), (3, 5), (6, 9), (10, 14)],
            "no 5-byte form outside legacy"
        );
        assert_eq!(
            all(&legacy, file),
            [(1, 2), (3, 5), (6, 9), (10, 14), (15, 20)]
        );
        assert!(Lookalike::new("/", Dialect::Utf16Le).is_err());
        assert!(Lookalike::new("", Dialect::Utf8).is_err());
    }

    /// The planted traversal shapes of `..%2F`: `2E 2E 2F`, `C0 AE C0 AE C0 AF` and
    /// `E0 80 AE 2E F0 80 80 AF`, at exact offsets, forward and backward.
    #[test]
    fn dot_dot_slash_at_exact_offsets() {
        let mut file = b"GET /a/../".to_vec(); // 2E 2E 2F at 7
        file.extend(b" x=\xC0\xAE\xC0\xAE\xC0\xAF"); // at 13, 6 bytes
        file.extend(b" y=\xE0\x80\xAE.\xF0\x80\x80\xAF"); // at 22, 8 bytes
        file.extend(b" ./. ..\\ \xC0\xAE\xC0\xAE"); // near misses
        let needle = Lookalike::new("../", Dialect::Utf8).unwrap();
        assert_eq!(all(&needle, &file), [(7, 10), (13, 19), (22, 30)]);
        assert_eq!(backward(&needle, &file), [7, 13, 22]);
        let m = needle.match_at(&file, 22).unwrap();
        assert_eq!(m.forms, [2, 0, 3]);
        assert_eq!(
            needle.describe(&m, &file),
            "“.” as E0 80 AE (overlong, 3 bytes), “/” as F0 80 80 AF (overlong, 4 bytes)"
        );
        assert_eq!(
            needle.describe(&needle.match_at(&file, 7).unwrap(), &file),
            "the text as written"
        );
        // Any byte of a match finds it.
        assert_eq!(needle.match_covering(&file, 29).map(|m| m.start), Some(22));
        assert_eq!(needle.match_covering(&file, 30), None);
        assert_eq!(needle.match_covering(&file, 13).map(|m| m.end), Some(19));
    }

    #[test]
    fn supplementary_characters_and_cesu8() {
        let needle = Lookalike::new("a😀", Dialect::Utf8).unwrap();
        let grin = &needle.chars[1].forms;
        assert_eq!(grin.len(), 2);
        assert_eq!(grin[0].bytes, "😀".as_bytes());
        // The CESU-8 form is what the CESU-8 dialect writes.
        assert_eq!(
            grin[1].bytes,
            Dialect::Cesu8
                .encode(crate::decode::CodePoint::new(0x1F600))
                .unwrap()
                .as_bytes()
        );
        let file = b"a\xF0\x9F\x98\x80 a\xED\xA0\xBD\xED\xB8\x80 \xC1\xA1\xF0\x9F\x98\x80";
        assert_eq!(all(&needle, file), [(0, 5), (6, 13), (14, 20)]);
        let m = needle.match_at(file, 6).unwrap();
        assert_eq!(
            needle.describe(&m, file),
            "“😀” as ED A0 BD ED B8 80 (CESU-8 surrogate pair)"
        );
    }

    #[test]
    fn cancel_stops_and_progress_is_reported() {
        let bytes = vec![b'x'; CHUNK * 3];
        let needle = Lookalike::new("/", Dialect::Utf8).unwrap();
        let mut reached = Vec::new();
        let cancel = AtomicBool::new(false);
        let mut control = Control {
            cancel: &cancel,
            progress: &mut |at| reached.push(at),
        };
        assert_eq!(
            needle.find_forward(&bytes, 0, bytes.len(), &mut control),
            Ok(None)
        );
        assert_eq!(reached, [0, CHUNK as u64, 2 * CHUNK as u64]);
        let cancel = AtomicBool::new(true);
        let mut control = Control {
            cancel: &cancel,
            progress: &mut |_| {},
        };
        assert_eq!(
            needle.find_backward(&bytes, 0, bytes.len(), &mut control),
            Err(Cancelled)
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The shortest form of every character is Rust's UTF-8; every form of every
        /// length decodes back to the character (bit by bit).
        #[test]
        fn forms_round_trip(c in any::<char>()) {
            let fs = forms(c, Dialect::Legacy);
            prop_assert_eq!(&fs[0].bytes, &c.to_string().into_bytes());
            for f in &fs {
                if f.kind == FormKind::Cesu8 {
                    continue;
                }
                let n = f.bytes.len();
                let mask = if n == 1 { 0x7F } else { 0xFFu8 >> (n + 1) };
                let mut v = (f.bytes[0] & mask) as u32;
                for b in &f.bytes[1..] {
                    prop_assert_eq!(b & 0xC0, 0x80);
                    v = (v << 6) | (b & 0x3F) as u32;
                }
                prop_assert_eq!(v, c as u32);
            }
        }

        /// Any needle over a few characters, in text of their forms across chunk edges:
        /// the forward and backward searches find exactly the starts a naive walk does.
        #[test]
        fn search_equals_a_naive_walk(
            needle in proptest::collection::vec(0usize..5, 1..4),
            pieces in proptest::collection::vec((0usize..5, 0usize..7), 0..60),
            pad in 0usize..(2 * CHUNK),
            legacy in any::<bool>(),
        ) {
            const ALPHABET: [char; 5] = ['a', '/', '\u{e9}', '\u{20AC}', '\u{1F600}'];
            let dialect = if legacy { Dialect::Legacy } else { Dialect::Utf8 };
            let text: String = needle.iter().map(|&i| ALPHABET[i]).collect();
            let lookalike = Lookalike::new(&text, dialect).unwrap();
            let mut file = vec![b'x'; pad];
            for (c, n) in &pieces {
                let fs = forms(ALPHABET[*c], dialect);
                file.extend(&fs[n % fs.len()].bytes);
            }
            let naive: Vec<usize> = (0..file.len())
                .filter(|&s| lookalike.end_at(&file, s).is_some())
                .collect();
            let found: Vec<usize> = all(&lookalike, &file).into_iter().map(|(s, _)| s).collect();
            prop_assert_eq!(&found, &naive);
            prop_assert_eq!(backward(&lookalike, &file), naive);
        }

        /// Every overlong form of an ASCII character the search finds is an
        /// `overlong-ascii` finding of `lint` at the same offset and length (the lint is the
        /// oracle), and the forward and backward searches agree with a naive scan.
        #[test]
        fn overlong_forms_agree_with_the_lint(
            pieces in proptest::collection::vec((0u8..0x80, 0usize..6, any::<bool>()), 1..40),
            legacy in any::<bool>(),
        ) {
            let dialect = if legacy { Dialect::Legacy } else { Dialect::Utf8 };
            let mut file = Vec::new();
            for (b, n, filler) in &pieces {
                let fs = forms(*b as char, dialect);
                file.extend(&fs[n % fs.len()].bytes);
                if *filler {
                    file.extend(b" ");
                }
            }
            let needle = Lookalike::new("/", dialect).unwrap();
            let naive: Vec<usize> = (0..file.len()).filter(|&s| needle.end_at(&file, s).is_some()).collect();
            let found: Vec<usize> = all(&needle, &file).into_iter().map(|(s, _)| s).collect();
            prop_assert_eq!(&found, &naive);
            prop_assert_eq!(backward(&needle, &file), naive);
            let summary = Summary::build(dialect, &file, 1, &Progress::new()).unwrap();
            let lints = Lints { targets: vec![], security: true };
            let overlong: Vec<(usize, usize)> = lint(&file, dialect, &summary, &lints)
                .filter(|l| l.kind == Kind::OverlongAscii)
                .map(|l| (l.offset, l.len))
                .collect();
            let mut expected = Vec::new();
            let mut pos = 0;
            for (b, n, filler) in &pieces {
                let fs = forms(*b as char, dialect);
                let len = fs[n % fs.len()].bytes.len();
                // In MUTF-8 only C0 80 is NUL itself; elsewhere every longer form is overlong.
                if len > 1 {
                    expected.push((pos, len));
                }
                pos += len + usize::from(*filler);
            }
            prop_assert_eq!(overlong, expected);
        }
    }
}
