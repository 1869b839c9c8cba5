//! The layers of `src/` import only what they may (docs/ARCHITECTURE.md):
//!
//! ```text
//! decode <- source <- scan <- detect <- view <- {repair, lint} <- {tui, cli}   (main.rs wires tui and cli)
//! decode <- encoding <- {detect, view, repair, tui, cli}
//! ```
//!
//! `decode` imports nothing of the crate; each later layer only the ones before it; `tui`
//! and `cli` not each other. Only `tui` names ratatui or crossterm, only `cli` names clap,
//! only `source` names memmap2. The check reads the sources: every `crate::x` path (also
//! inside `use crate::{..}` groups), every `super::` path resolved to the module it names,
//! and every path through a third-party crate. Comments are skipped; test modules are not
//! (a test that needs another layer says something about the design too).

use std::fs;
use std::path::{Path, PathBuf};

/// The layers in the order data flows, each with the crate layers it may import.
const LAYERS: &[(&str, &[&str])] = &[
    ("decode", &[]),
    ("encoding", &["decode"]),
    ("source", &["decode"]),
    ("scan", &["decode", "source"]),
    ("detect", &["decode", "encoding", "source", "scan"]),
    ("view", &["decode", "encoding", "source", "scan", "detect"]),
    (
        "repair",
        &["decode", "encoding", "source", "scan", "detect", "view"],
    ),
    ("lint", &["decode", "source", "scan", "detect", "view"]),
    (
        "tui",
        &[
            "decode", "encoding", "source", "scan", "detect", "view", "repair", "lint",
        ],
    ),
    (
        "cli",
        &[
            "decode", "encoding", "source", "scan", "detect", "view", "repair", "lint",
        ],
    ),
];

/// Third-party crates that belong to one layer.
const OWNED_CRATES: &[(&str, &str)] = &[
    ("ratatui", "tui"),
    ("crossterm", "tui"),
    ("clap", "cli"),
    ("clap_complete", "cli"),
    ("clap_mangen", "cli"),
    ("csv", "cli"),
    ("ignore", "cli"),
    ("memmap2", "source"),
];

/// The module path of a source file under `src/`: `src/cli/dump/fast.rs` is
/// `["cli", "dump", "fast"]`, `src/view/mod.rs` is `["view"]`.
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let file = parts.pop().unwrap_or_default();
    let stem = file.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" && stem != "main" {
        parts.push(stem.to_string());
    }
    parts
}

/// The source without comments: `//` to the end of a line, outside string literals.
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let mut in_string = false;
        let mut prev = '\0';
        let mut cut = line.len();
        for (i, c) in line.char_indices() {
            if c == '"' && prev != '\\' {
                in_string = !in_string;
            }
            if !in_string && c == '/' && prev == '/' {
                cut = i - 1;
                break;
            }
            prev = c;
        }
        out.push_str(&line[..cut]);
        out.push('\n');
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The identifier at the start of `text`.
fn ident(text: &str) -> &str {
    let end = text.find(|c: char| !is_ident(c)).unwrap_or(text.len());
    &text[..end]
}

/// The top-level names of a `{a, b::c, d::{e}}` group at the start of `text`.
fn group_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut depth = 0;
    let mut at_name = true;
    for (i, c) in text.char_indices() {
        match c {
            '{' => {
                depth += 1;
                at_name = depth == 1;
            }
            '}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            ',' if depth == 1 => at_name = true,
            c if at_name && depth == 1 && is_ident(c) => {
                names.push(ident(&text[i..]).to_string());
                at_name = false;
            }
            _ => {}
        }
    }
    names
}

/// Every crate-level module a file refers to: `crate::x`, `crate::{x, y}`, and `super::`
/// chains resolved from the file's own module path.
fn referenced_layers(module: &[String], code: &str) -> Vec<String> {
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    for (at, _) in code.match_indices("crate::") {
        if at > 0 && (is_ident(bytes[at - 1] as char) || bytes[at - 1] == b'$') {
            continue; // `hexrune_crate::`, `$crate::`
        }
        let rest = &code[at + "crate::".len()..];
        if rest.starts_with('{') {
            found.extend(group_names(rest));
        } else {
            found.push(ident(rest).to_string());
        }
    }
    for (at, _) in code.match_indices("super::") {
        if at > 0 && (is_ident(bytes[at - 1] as char) || code[..at].ends_with("super::")) {
            continue; // counted from the first `super::` of a chain
        }
        let mut rest = &code[at..];
        let mut up = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            up += 1;
            rest = r;
        }
        if up > module.len() {
            continue;
        }
        let base = &module[..module.len() - up];
        match base.first() {
            Some(first) => found.push(first.clone()),
            None if rest.starts_with('{') => found.extend(group_names(rest)),
            None => found.push(ident(rest).to_string()),
        }
    }
    found
}

/// Third-party crates named by a path (`ratatui::x`, `use clap;`) in the code.
fn referenced_crates<'a>(code: &str, crates: &[&'a str]) -> Vec<&'a str> {
    let bytes = code.as_bytes();
    crates
        .iter()
        .copied()
        .filter(|name| {
            code.match_indices(name).any(|(at, _)| {
                let before_ok =
                    at == 0 || !(is_ident(bytes[at - 1] as char) || bytes[at - 1] == b':');
                let after = &code[at + name.len()..];
                let whole = !after.starts_with(is_ident);
                let before_path = at >= 2 && &code[at - 2..at] == "::" && {
                    // `ratatui::crossterm::x` names crossterm through ratatui: still a
                    // terminal crate.
                    let head = &code[..at - 2];
                    let start = head.rfind(|c: char| !is_ident(c)).map_or(0, |i| i + 1);
                    crates.contains(&&head[start..])
                };
                whole
                    && (before_ok || before_path)
                    && (after.starts_with("::")
                        || after.starts_with(';')
                        || after.starts_with(" as"))
            })
        })
        .collect()
}

/// What is wrong with one file's imports, as lines `file: layer imports what`.
fn violations(relative: &Path, text: &str) -> Vec<String> {
    let module = module_path(relative);
    let Some(layer) = module.first().cloned() else {
        return Vec::new(); // lib.rs and main.rs wire the layers together
    };
    let Some((_, allowed)) = LAYERS.iter().find(|(name, _)| *name == layer) else {
        return vec![format!(
            "{}: `{layer}` is not a layer (see LAYERS in tests/layers.rs)",
            relative.display()
        )];
    };
    let code = strip_comments(text);
    let mut problems = Vec::new();
    for target in referenced_layers(&module, &code) {
        let is_layer = LAYERS.iter().any(|(name, _)| *name == target);
        if is_layer && target != layer && !allowed.contains(&target.as_str()) {
            problems.push(format!("{}: {layer} imports {target}", relative.display()));
        }
    }
    let names: Vec<&str> = OWNED_CRATES.iter().map(|(name, _)| *name).collect();
    for name in referenced_crates(&code, &names) {
        let owner = OWNED_CRATES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, o)| *o);
        if owner != Some(layer.as_str()) {
            problems.push(format!(
                "{}: {layer} names {name} (only {} may)",
                relative.display(),
                owner.unwrap_or("?")
            ));
        }
    }
    problems.sort();
    problems.dedup();
    problems
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_layer_imports_only_what_it_may() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 30, "found only {} files", files.len());
    let mut seen_layers: Vec<String> = Vec::new();
    let mut problems = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).expect("under src/");
        if let Some(layer) = module_path(relative).first() {
            seen_layers.push(layer.clone());
        }
        let text = fs::read_to_string(file).expect("a readable source file");
        problems.extend(violations(relative, &text));
    }
    assert!(
        problems.is_empty(),
        "layer violations:\n{}",
        problems.join("\n")
    );
    seen_layers.sort();
    seen_layers.dedup();
    assert_eq!(
        seen_layers,
        [
            "cli", "decode", "detect", "encoding", "lint", "repair", "scan", "source", "tui",
            "view"
        ],
        "src/ holds the layers and nothing else beside lib.rs and main.rs"
    );
}

/// The check fails on planted imports of every shape it reads.
#[test]
fn planted_imports_are_caught() {
    let check = |path: &str, code: &str| violations(Path::new(path), code);
    // Allowed: the layers before, the layer itself, comments.
    assert_eq!(
        check("view/map.rs", "use crate::scan::index::Summary;"),
        Vec::<String>::new()
    );
    assert_eq!(
        check("cli/dump/fast.rs", "use super::super::report;"),
        Vec::<String>::new()
    );
    assert_eq!(
        check("view/mod.rs", "// use crate::tui::draw;\n"),
        Vec::<String>::new()
    );
    assert_eq!(
        check("tui/draw.rs", "use ratatui::style::Style;"),
        Vec::<String>::new()
    );
    // Planted.
    assert_eq!(
        check("decode/unit.rs", "use crate::view::Role;"),
        ["decode/unit.rs: decode imports view"]
    );
    assert_eq!(
        check("view/glyph.rs", "let x = crate::tui::draw::render;"),
        ["view/glyph.rs: view imports tui"]
    );
    assert_eq!(
        check("scan/mod.rs", "use crate::{decode::Unit, view::Row};"),
        ["scan/mod.rs: scan imports view"]
    );
    assert_eq!(
        check("view/mod.rs", "use super::cli::report;"),
        ["view/mod.rs: view imports cli"]
    );
    assert_eq!(
        check("view/detail.rs", "use super::super::tui::App;"),
        ["view/detail.rs: view imports tui"]
    );
    assert_eq!(
        check("cli/dump.rs", "use crate::tui::draw::Theme;"),
        ["cli/dump.rs: cli imports tui"]
    );
    assert_eq!(
        check("tui/app.rs", "use crate::cli::demo;"),
        ["tui/app.rs: tui imports cli"]
    );
    assert_eq!(
        check("cli/dump.rs", "use ratatui::style::{Color, Style};"),
        ["cli/dump.rs: cli names ratatui (only tui may)"]
    );
    assert_eq!(
        check("view/theme.rs", "fn f(s: ratatui::style::Style) {}"),
        ["view/theme.rs: view names ratatui (only tui may)"]
    );
    assert_eq!(
        check("tui/keymap.rs", "use clap::ValueEnum;"),
        ["tui/keymap.rs: tui names clap (only cli may)"]
    );
    assert_eq!(
        check("scan/mod.rs", "let m = memmap2::Mmap::map(&f);"),
        ["scan/mod.rs: scan names memmap2 (only source may)"]
    );
    assert_eq!(
        check("widgets/x.rs", ""),
        ["widgets/x.rs: `widgets` is not a layer (see LAYERS in tests/layers.rs)"]
    );
    // A name that merely contains a crate's name is not that crate.
    assert_eq!(
        check("view/mod.rs", "let my_clap::x = 1; let clapper = 2;"),
        Vec::<String>::new()
    );
}
