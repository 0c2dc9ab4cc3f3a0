//! Sizes and counts read as `u64` natively, with the same inputs and results as the browser's
//! `web_settings_numbers.rs`: a 10 GiB `MAX_FILESIZE` survives export and import, and a
//! `COMPACTION_THRESHOLD` or `MAXLENGTH` above `u32::MAX` is not cut to its low bits.

#[path = "common/numbers.rs"]
mod numbers;

#[test]
fn sizes_and_counts_are_whole_u64s() {
    assert_eq!(numbers::observed(), numbers::expected());
}
