//! Rowkey's float reader in the browser, where numbers outside the fast path are read by
//! JavaScript's `parseFloat`: the same floats as Rust's literals (which the compiler reads
//! correctly rounded), the same refusals as natively (`tests/decimal.rs`).
#![cfg(target_arch = "wasm32")]

use rowkey::decimal::parse_f64;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn numbers_past_the_fast_path_read_correctly_rounded() {
    let cases: [(&str, f64); 12] = [
        ("1e23", 1e23),
        ("9007199254740993", 9007199254740993.0),
        ("12345678901234567890", 12345678901234567890.0),
        ("0.1234567890123456789012", 0.1234567890123456789012),
        ("1.7976931348623157e308", 1.7976931348623157e308),
        ("2.2250738585072011e-308", 2.2250738585072011e-308),
        ("5e-324", 5e-324),
        ("1e-400", 0.0),
        ("-1e23", -1e23),
        ("4.9406564584124654e-324", 4.9406564584124654e-324),
        ("123456.789e-30", 123456.789e-30),
        ("0.3", 0.3),
    ];
    for (text, expected) in cases {
        assert_eq!(
            parse_f64(text).map(f64::to_bits),
            Some(expected.to_bits()),
            "{text}"
        );
    }
    assert_eq!(parse_f64("1.8e308"), Some(f64::INFINITY));
    for bad in ["", ".", "1e", "e5", "1.2.3", " 1", "0x10", "1_0"] {
        assert_eq!(parse_f64(bad), None, "{bad:?}");
    }
}
