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
    Regex(regex_lite::Regex),
    /// `substring:` equal when the text contains the substring, ignoring case.
    Substring(String),
}

impl Comparator {
    /// The comparator's operand compared with `value` (HBase's `compareTo`).
    pub fn compare_to(&self, value: &[u8]) -> Ordering {
        match self {
            Comparator::Binary(v) => v.as_slice().cmp(value),
            Comparator::BinaryPrefix(p) => p
                .as_slice()
                .cmp(value.get(..p.len().min(value.len())).unwrap_or(value)),
            Comparator::Regex(re) => {
                if re.is_match(&latin1(value)) {
                    Ordering::Equal
                } else {
                    Ordering::Greater
                }
            }
            Comparator::Substring(s) => {
                if latin1(value).to_lowercase().contains(s.as_str()) {
                    Ordering::Equal
                } else {
                    Ordering::Greater
                }
            }
        }
    }

    /// True for the comparators that only answer equal or not.
    pub fn equality_only(&self) -> bool {
        matches!(self, Comparator::Regex(_) | Comparator::Substring(_))
    }
}

/// Bytes read as ISO-8859-1, as HBase's regex and substring comparators read them.
fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}
