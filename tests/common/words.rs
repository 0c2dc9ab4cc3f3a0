//! Seeded text for the compression tests and benchmark: words of shell lines, with line
//! breaks.

use rowkey::kit::seeded::Gen;

/// About `n` bytes of text: seeded words from a small vocabulary, with line breaks.
pub fn text(seed: u64, n: usize) -> Vec<u8> {
    const WORDS: [&str; 16] = [
        "put",
        "'users',",
        "'info:name',",
        "scan",
        "row",
        "family",
        "the",
        "region",
        "of",
        "a",
        "value",
        "timestamp",
        "=>",
        "{NAME",
        "VERSIONS",
        "3}",
    ];
    let mut g = Gen::new(seed);
    let mut out = Vec::with_capacity(n + 16);
    while out.len() < n {
        out.extend_from_slice(WORDS[g.below(16) as usize].as_bytes());
        out.push(if g.below(9) == 0 { b'\n' } else { b' ' });
    }
    out
}
