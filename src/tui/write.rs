//! The viewer's `W`: a repaired copy of the input, written through the same
//! [`crate::repair::write`] as `hexrune repair` (the same refusals, the same atomic write),
//! while the file on screen stays as it is.
//!
//! This module holds the pure parts: the form (policy and toggles), the default output
//! path, the policy the form stands for, and the preview of the unit under the cursor
//! before → after. The app opens the form, asks before replacing a file and runs the write
//! on a worker ([`super::app::App`]); `draw/write.rs` shows the form.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::decode::{Dialect, UnitKind};
use crate::repair::{Bom, Collected, Engine, FromEncoding, Invalid, Policy};
use crate::view::glyph::{glyph, GlyphClass, ERROR_GLYPH};

/// The policies the form offers for error units, in the order Tab cycles them (`keep`
/// is left out: a repaired copy that keeps the errors is no repair).
pub const POLICIES: [&str; 5] = [
    "replace",
    "drop",
    "fallback",
    "escape=optu8",
    "escape=pep383",
];

/// The form of `W`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteForm {
    /// Index into [`POLICIES`].
    pub policy: usize,
    /// `--mojibake`.
    pub mojibake: bool,
    /// `--bom strip` (else `keep`).
    pub strip_bom: bool,
    /// The path typed exists: Enter replaces it, Esc goes back to the form.
    pub confirm: bool,
    /// The encoding `fallback` reads error units in: the viewer's `--fallback` where it
    /// is a single-byte encoding (`None`: windows-1252, as `--invalid fallback` reads).
    pub fallback: Option<&'static str>,
}

impl WriteForm {
    /// The form for a viewer whose error units are also read in `fallback` (its
    /// `--fallback`): the policy `fallback` reads them in it where it is a single-byte
    /// encoding, as the detail pane does, else in windows-1252.
    pub fn new(fallback: Option<crate::view::fallback::Fallback>) -> WriteForm {
        let fallback = fallback
            .filter(|f| crate::repair::fallback_reads_units(*f).is_ok())
            .map(|f| f.name());
        WriteForm {
            fallback,
            ..WriteForm::default()
        }
    }

    /// The policy, as `--invalid` takes it: `fallback=windows-1252` names its encoding.
    pub fn policy_name(&self) -> String {
        match POLICIES[self.policy % POLICIES.len()] {
            "fallback" => format!("fallback={}", self.fallback.unwrap_or("windows-1252")),
            other => other.to_string(),
        }
    }

    /// The repair policy for an input viewed in `dialect`: the UTF-8 family is read in
    /// its dialect; any other encoding is read with `--from` it (the copy is UTF-8).
    pub fn policy(&self, dialect: Dialect) -> Policy {
        let invalid = Invalid::parse(&self.policy_name()).unwrap_or_default();
        let (dialect, from) = if Dialect::UTF8_FAMILY.contains(&dialect) {
            (dialect, None)
        } else {
            (Dialect::Utf8, Some(FromEncoding::Dialect(dialect)))
        };
        Policy {
            invalid,
            dialect,
            from,
            mojibake: self.mojibake,
            bom: if self.strip_bom {
                Bom::Strip
            } else {
                Bom::Keep
            },
            unescape: None,
        }
    }
}

/// Where the copy goes unless the user types another path: the input's path with
/// `.repaired` before its extension (`notes.txt` → `notes.repaired.txt`, `README` →
/// `README.repaired`), in the same directory; empty when the input has no path (stdin).
///
/// Built from the path as the system holds it, never through a lossy string: a name that
/// is not UTF-8 (`ev\xFF.txt`, or a directory `d\xE9j\xE0/`) keeps its own bytes, and the
/// copy lands next to the input.
///
/// ```
/// use std::path::Path;
/// use hexrune::tui::write::default_path;
/// assert_eq!(default_path(Some(Path::new("dir/notes.txt"))), Path::new("dir/notes.repaired.txt"));
/// assert_eq!(default_path(Some(Path::new("README"))), Path::new("README.repaired"));
/// assert_eq!(default_path(Some(Path::new(".bashrc"))), Path::new(".bashrc.repaired"));
/// assert_eq!(default_path(None), Path::new(""));
/// ```
pub fn default_path(input: Option<&Path>) -> PathBuf {
    let Some(path) = input else {
        return PathBuf::new();
    };
    let mut name = OsString::from(path.file_stem().unwrap_or_default());
    name.push(".repaired");
    if let Some(ext) = path.extension() {
        name.push(".");
        name.push(ext);
    }
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.join(name),
        _ => PathBuf::from(name),
    }
}

/// The bytes of a path as the system holds them (on Unix, exactly; elsewhere as UTF-8,
/// exact wherever the name is valid Unicode): what the `W` prompt edits.
pub fn path_bytes(path: &Path) -> Vec<u8> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    }
    #[cfg(not(unix))]
    {
        path.to_string_lossy().into_owned().into_bytes()
    }
}

/// The path of `bytes` ([`path_bytes`] the other way round).
pub fn path_of(bytes: &[u8]) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
    }
}

/// One side of the preview: the bytes in hex (the first 12), and their glyphs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    /// `E9 41`, or `(nothing)`.
    pub hex: String,
    /// The glyphs the text pane would show, sanitised.
    pub glyphs: String,
}

/// The unit under the cursor (or the mojibake region, under `--mojibake`) before and after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preview {
    /// Offset of the first byte.
    pub offset: u64,
    /// What it is: `error: invalid_byte`, `U+00E9`, `mojibake`.
    pub what: String,
    /// The input's bytes.
    pub before: Side,
    /// What the copy gets.
    pub after: Side,
}

/// The preview for the unit containing `cursor` of `bytes` (read in `dialect`), under
/// `form`; `mojibake` is the detection region there, if any (start, end, repaired text).
pub fn preview(
    bytes: &[u8],
    dialect: Dialect,
    cursor: u64,
    form: &WriteForm,
    mojibake: Option<(usize, usize, &str)>,
) -> Option<Preview> {
    if bytes.is_empty() {
        return None;
    }
    let at = (cursor as usize).min(bytes.len() - 1);
    if let (true, Some((start, end, text))) = (form.mojibake, mojibake) {
        return Some(Preview {
            offset: start as u64,
            what: "mojibake".to_string(),
            before: side(&bytes[start..end], Dialect::Utf8),
            after: side(text.as_bytes(), Dialect::Utf8),
        });
    }
    let mut policy = Policy {
        mojibake: false,
        ..form.policy(dialect)
    };
    // The write reads the input as `repair --from` does: a BOM that names another
    // encoding overrides the view's ([`crate::repair::sniffed`]), and so does the preview.
    let mut read = dialect;
    if let Some(FromEncoding::Dialect(view)) = policy.from {
        read = crate::repair::sniffed(view, bytes);
        policy.from = Some(FromEncoding::Dialect(read));
    }
    let unit = read.unit_containing(bytes, at);
    let old = &bytes[unit.start..unit.end()];
    let mut what = match unit.kind {
        UnitKind::Error(kind) => format!("error: {}", kind.name()),
        UnitKind::Scalar(cp) => cp.to_string(),
    };
    if read != dialect {
        what.push_str(&format!("  (read as {}: its BOM)", read.encoding_name()));
    }
    // The unit alone: a U+FEFF is then at the start, and --bom strip removes it there
    // as it does in mid-file; keep keeps it in both places.
    let mut out = Collected::default();
    let mut engine = Engine::new(policy).ok()?;
    engine.repair_slice(old, &mut out, |_| Ok(())).ok()?;
    let new = out.bytes;
    Some(Preview {
        offset: unit.start as u64,
        what,
        before: side(old, read),
        after: side(&new, Dialect::Wtf8),
    })
}

/// Hex and glyphs of `bytes` read in `dialect` (WTF-8 for an output: PEP 383's escapes
/// show as surrogates). Where a glyph is a placeholder (`ˢ`, `ᵖ`, `�`), the code points
/// follow in parentheses, as docs/repair.md's table gives them: `ˢ (U+DCE9)`.
fn side(bytes: &[u8], dialect: Dialect) -> Side {
    if bytes.is_empty() {
        return Side {
            hex: "(nothing)".to_string(),
            glyphs: String::new(),
        };
    }
    const SHOWN: usize = 12;
    let mut hex: Vec<String> = bytes
        .iter()
        .take(SHOWN)
        .map(|b| format!("{b:02X}"))
        .collect();
    if bytes.len() > SHOWN {
        hex.push(format!("… ({} bytes)", bytes.len()));
    }
    let mut glyphs = String::new();
    let mut named = Vec::new();
    for unit in dialect.units(bytes).take(SHOWN) {
        match unit.kind {
            UnitKind::Scalar(cp) => {
                let shown = glyph(cp);
                if shown.class != GlyphClass::Plain {
                    named.push(cp.to_string());
                }
                glyphs.push_str(&shown.text);
            }
            UnitKind::Error(_) => glyphs.push_str(ERROR_GLYPH),
        }
    }
    if dialect.units(bytes).nth(SHOWN).is_some() {
        glyphs.push('…');
    }
    if !named.is_empty() {
        glyphs.push_str(&format!(" ({})", named.join(" ")));
    }
    Side {
        hex: hex.join(" "),
        glyphs,
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    /// The default path's bytes, for an input path given as bytes.
    fn default_bytes(input: &[u8]) -> Vec<u8> {
        let got = default_path(Some(Path::new(OsStr::from_bytes(input))));
        Path::new(&got).as_os_str().as_bytes().to_vec()
    }

    #[test]
    fn the_default_path_keeps_the_inputs_own_bytes() {
        let cases: [(&[u8], &[u8]); 6] = [
            (b"ev\xFF.txt", b"ev\xFF.repaired.txt"),
            (b"d\xE9j\xE0/notes.txt", b"d\xE9j\xE0/notes.repaired.txt"),
            (
                b"/tmp/\xC0\xAF/ev\xFF.t\xFEt",
                b"/tmp/\xC0\xAF/ev\xFF.repaired.t\xFEt",
            ),
            (
                b"\xED\xA0\xBD\xED\xB8\x80",
                b"\xED\xA0\xBD\xED\xB8\x80.repaired",
            ),
            (b"./caf\xC3\xA9.csv", b"./caf\xC3\xA9.repaired.csv"),
            (b".\xFFrc", b".\xFFrc.repaired"),
        ];
        for (input, want) in cases {
            assert_eq!(
                default_bytes(input),
                want,
                "{}",
                String::from_utf8_lossy(input)
            );
        }
    }
}
