//! The comparators of the filter language, with HBase's (sometimes surprising) direction.

use std::cmp::Ordering;

/// The comparators of the filter language.
#[derive(Clone, Debug)]
pub enum Comparator {
    /// `binary:` bytewise comparison.
    Binary(Vec<u8>),
    /// `binaryprefix:` bytewise comparison of the cell's first bytes.
    BinaryPrefix(Vec<u8>),
    /// `regexstring:` equal when the pattern is found anywhere (unanchored).
    Regex(crate::kit::regex::Regex),
    /// `substring:` equal when the text contains the substring, ignoring case.
    Substring(String),
}

impl Comparator {
    /// The comparator's operand compared with `value` (HBase's `compareTo`).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn compare_to(&self, value: &[u8]) -> Ordering {
        match self {
            Comparator::Binary(v) => v.as_slice().cmp(value),
            Comparator::BinaryPrefix(p) => p
                .as_slice()
                .cmp(value.get(..p.len().min(value.len())).unwrap_or(value)),
            Comparator::Regex(re) => {
                if re.is_match_latin1(value) {
                    Ordering::Equal
                } else {
                    Ordering::Greater
                }
            }
            Comparator::Substring(s) => {
                let lower: String = value
                    .iter()
                    .map(|&b| latin1_lowercase(char::from(b)))
                    .collect();
                if lower.contains(s.as_str()) {
                    Ordering::Equal
                } else {
                    Ordering::Greater
                }
            }
        }
    }

    /// True for the comparators that only answer equal or not.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn equality_only(&self) -> bool {
        matches!(self, Comparator::Regex(_) | Comparator::Substring(_))
    }
}

/// `c` in lower case as `toLowerCase(Locale.ROOT)` gives it wherever that can matter to a
/// substring comparator, whose values are read as ISO-8859-1: Latin-1's own capitals, and the
/// four capitals outside it whose lower case is inside it (Ÿ, ẞ, the Kelvin and the Ångström
/// signs). Any other character stays: outside Latin-1 it matches nothing either way. (The
/// standard library's full `to_lowercase` brings Unicode's case tables, 26 KB of the download,
/// for no other difference.)
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn latin1_lowercase(c: char) -> char {
    match c {
        'A'..='Z' | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{DE}' => {
            char::from_u32(u32::from(c) + 0x20).unwrap_or(c)
        }
        '\u{178}' => '\u{FF}',
        '\u{1E9E}' => '\u{DF}',
        '\u{212A}' => 'k',
        '\u{212B}' => '\u{E5}',
        _ => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against the standard library's full lower case, every character: where that lower case
    /// could be found in ISO-8859-1 text, `latin1_lowercase` gives it; elsewhere both stay out
    /// of Latin-1, so neither can match.
    #[test]
    fn latin1_lowercase_agrees_with_unicode_where_it_can_match() {
        let mut changed = 0;
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let full: String = c.to_lowercase().collect();
            let ours = latin1_lowercase(c);
            if full.chars().all(|x| x <= '\u{FF}') {
                assert_eq!(ours.to_string(), full, "U+{:04X}", u32::from(c));
            } else {
                assert!(ours > '\u{FF}', "U+{:04X}", u32::from(c));
            }
            changed += usize::from(ours != c);
        }
        // A to Z, the 30 capitals of Latin-1 (À to Þ but ×), and the four outside it.
        assert_eq!(changed, 26 + 30 + 4);
    }
}
