#![cfg(not(target_arch = "wasm32"))]
//! Rowkey's float reader (`rowkey::decimal::parse_f64`) reads every text as `f64::from_str`
//! does: the same float, bit for bit, or the same refusal. Natively its fallback for numbers
//! outside the fast path is Rust's own parse, so these cases check the fast path and the
//! grammar; the browser's fallback (`parseFloat`) is checked in `tests/web_decimal.rs`.

use proptest::prelude::*;
use rowkey::decimal::parse_f64;

fn same(text: &str) -> Result<(), TestCaseError> {
    let ours = parse_f64(text);
    let std = text.parse::<f64>().ok();
    match (ours, std) {
        (Some(a), Some(b)) if a.is_nan() && b.is_nan() => {}
        (Some(a), Some(b)) => prop_assert_eq!(a.to_bits(), b.to_bits(), "{:?}", text),
        (a, b) => prop_assert_eq!(a.is_some(), b.is_some(), "{:?}: {:?} {:?}", text, a, b),
    }
    Ok(())
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 4000,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_float_as_rust_writes_it(x in any::<f64>(), precision in 0usize..20) {
        same(&x.to_string())?;
        same(&format!("{x:e}"))?;
        same(&format!("{x:.precision$}"))?;
        same(&(x as f32).to_string())?;
    }

    #[test]
    fn number_like_text(text in "[+-]?[0-9]{0,22}(\\.[0-9]{0,22})?([eE][+-]?[0-9]{0,4})?") {
        same(&text)?;
    }

    #[test]
    fn any_text_of_a_numbers_characters(text in "[-+0-9.eEinfatyINFATY]{0,12}") {
        same(&text)?;
    }
}

#[test]
fn the_edges_of_the_fast_path_and_of_the_grammar() {
    for text in [
        "0",
        "-0",
        "+0",
        "0.1",
        "0.3",
        "1e22",
        "1e23",
        "-1e-22",
        "1e-23",
        "9007199254740992",
        "9007199254740993",
        "1234567890123456789",
        "12345678901234567890",
        "0.000001",
        "1.7976931348623157e308",
        "1.8e308",
        "5e-324",
        "2e-324",
        ".5",
        "5.",
        "00012",
        "1E+5",
        "1e",
        "1e+",
        ".",
        "",
        "+",
        "-",
        "e5",
        "1.2.3",
        "1e5.0",
        " 1",
        "1 ",
        "inf",
        "-Infinity",
        "NaN",
        "nan1",
        "0x10",
        "1_0",
    ] {
        if let Err(e) = same(text) {
            panic!("{e}");
        }
    }
}
