//! Sizes and counts read as `u64` in a 32-bit browser, with the same inputs and results as the
//! native `settings_numbers.rs`.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;

#[path = "common/numbers.rs"]
mod numbers;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn sizes_and_counts_are_whole_u64s() {
    assert_eq!(numbers::observed(), numbers::expected());
}
