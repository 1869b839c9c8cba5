//! `repair` on the vendored conformance data (`tests/data/ATTRIBUTION.md`): `--invalid
//! replace` writes exactly what the Unicode Standard's tables 3-8 to 3-11, Rust's
//! `from_utf8_lossy` and CPython's `decode('utf-8', 'replace')` write; each dialect's
//! decode vectors become the code points' UTF-8 (a lone surrogate or a value above
//! U+10FFFF one U+FFFD, as `--invalid replace` says); Markus Kuhn's stress test repairs to
//! valid UTF-8 under every policy that promises it, and its escapes round-trip.

use std::path::Path;

use hexrune::decode::Dialect;
use hexrune::repair::{Collected, Invalid, Policy, Repairer};
use hexrune::view::fallback::{Escape, Fallback};
use serde_json::Value;

fn data(path: &str) -> Value {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(path);
    serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap()
}

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

fn repair(policy: Policy, input: &[u8]) -> Vec<u8> {
    let mut out = Collected::default();
    Repairer::new(policy)
        .repair_slice(input, &mut out, |_| Ok(()))
        .unwrap();
    out.bytes
}

/// The UTF-8 of code points, U+FFFD for any that is not a scalar value.
fn utf8_of(code_points: &[Value]) -> Vec<u8> {
    code_points
        .iter()
        .map(|v| char::from_u32(v.as_u64().unwrap() as u32).unwrap_or('\u{FFFD}'))
        .collect::<String>()
        .into_bytes()
}

fn replace_cases(path: &str, output_key: &str) -> usize {
    let cases = data(path)["cases"].as_array().unwrap().clone();
    for case in &cases {
        let input = unhex(case["input_hex"].as_str().unwrap());
        let expected = utf8_of(case[output_key].as_array().unwrap());
        assert_eq!(
            repair(Policy::default(), &input),
            expected,
            "{path}: {case}"
        );
    }
    cases.len()
}

#[test]
fn replace_matches_the_standard_rust_and_cpython() {
    assert_eq!(
        replace_cases("unicode/ch03_fffd_tables.json", "expected_output"),
        5
    );
    assert_eq!(
        replace_cases("rust/from_utf8_lossy_vectors.json", "lossy_output"),
        9
    );
    assert_eq!(
        replace_cases("cpython/issue8271_vectors.json", "replace_output"),
        63
    );
}

#[test]
fn dialect_vectors_become_utf8() {
    let mut checked = 0;
    let files = [
        ("dialects/cesu8_vectors.json", None),
        ("dialects/mutf8_vectors.json", Some(Dialect::Mutf8)),
        ("dialects/wtf8_vectors.json", Some(Dialect::Wtf8)),
        (
            "dialects/legacy_rfc2279_vectors.json",
            Some(Dialect::Legacy),
        ),
    ];
    for (path, dialect) in files {
        for case in data(path)["cases"].as_array().unwrap() {
            let kind = case["kind"].as_str().unwrap_or("decode");
            let dialect = dialect.unwrap_or(match case["variant"].as_str() {
                Some("java") => Dialect::Mutf8,
                _ => Dialect::Cesu8,
            });
            let (input, code_points) = match kind {
                "decode" | "roundtrip" | "lossy_to_utf8" => (
                    case["input_hex"].as_str(),
                    case["codepoints"]
                        .as_array()
                        .cloned()
                        .or_else(|| case.get("codepoint").map(|c| vec![c.clone()])),
                ),
                "encode" => (
                    case["bytes_hex"].as_str(),
                    case["codepoints"].as_array().cloned(),
                ),
                _ => continue,
            };
            let (Some(input), Some(code_points)) = (input, code_points) else {
                continue;
            };
            let policy = Policy {
                dialect,
                ..Policy::default()
            };
            assert_eq!(
                repair(policy, &unhex(input)),
                utf8_of(&code_points),
                "{path} ({dialect:?}): {case}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 100, "{checked} vectors");
}

#[test]
fn kuhns_stress_test_repairs_to_utf8_and_round_trips() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kuhn/UTF-8-test.txt");
    let input = std::fs::read(file).unwrap();
    assert_eq!(
        repair(Policy::default(), &input),
        String::from_utf8_lossy(&input).as_bytes()
    );
    let policies = [
        Invalid::Replace,
        Invalid::Drop,
        Invalid::Fallback(Fallback::windows_1252()),
        Invalid::Escape(Escape::Optu8),
    ];
    for invalid in policies {
        for dialect in Dialect::UTF8_FAMILY {
            let policy = Policy {
                invalid,
                dialect,
                ..Policy::default()
            };
            let out = repair(policy, &input);
            assert!(std::str::from_utf8(&out).is_ok(), "{invalid} {dialect:?}");
        }
    }
    for scheme in Escape::ALL {
        let escaped = repair(
            Policy {
                invalid: Invalid::Escape(scheme),
                ..Policy::default()
            },
            &input,
        );
        let back = Policy {
            unescape: Some(scheme),
            invalid: Invalid::Keep,
            ..Policy::default()
        };
        assert!(repair(back, &escaped) == input, "{scheme:?}");
    }
}
