//! Comparison operators and comparators, with HBase's (sometimes surprising) direction.

use std::cmp::Ordering;

/// A comparison operator of the filter language and of check-and-mutate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareOp {
    Less,
    LessOrEqual,
    Equal,
    NotEqual,
    GreaterOrEqual,
    Greater,
}

impl CompareOp {
    /// The operator for its filter-language symbol or its Java name.
    pub fn parse(text: &str) -> Option<CompareOp> {
        Some(match text {
            "<" | "LESS" => CompareOp::Less,
            "<=" | "LESS_OR_EQUAL" => CompareOp::LessOrEqual,
            "=" | "EQUAL" => CompareOp::Equal,
            "!=" | "NOT_EQUAL" => CompareOp::NotEqual,
            ">=" | "GREATER_OR_EQUAL" => CompareOp::GreaterOrEqual,
            ">" | "GREATER" => CompareOp::Greater,
            _ => return None,
        })
    }

    pub fn java_name(self) -> &'static str {
        match self {
            CompareOp::Less => "LESS",
            CompareOp::LessOrEqual => "LESS_OR_EQUAL",
            CompareOp::Equal => "EQUAL",
            CompareOp::NotEqual => "NOT_EQUAL",
            CompareOp::GreaterOrEqual => "GREATER_OR_EQUAL",
            CompareOp::Greater => "GREATER",
        }
    }

    /// A compare filter's verdict: `ord` is the comparator compared with the cell's bytes, and
    /// the cell passes when `cell OP operand` holds. True means "filter the cell out".
    pub fn filters_out(self, ord: Ordering) -> bool {
        match self {
            CompareOp::Less => ord != Ordering::Greater,
            CompareOp::LessOrEqual => ord == Ordering::Less,
            CompareOp::Equal => ord != Ordering::Equal,
            CompareOp::NotEqual => ord == Ordering::Equal,
            CompareOp::GreaterOrEqual => ord == Ordering::Greater,
            CompareOp::Greater => ord != Ordering::Less,
        }
    }

    /// Check-and-mutate's verdict, which reads the other way round: it holds when
    /// `expected OP actual`, `ord` being the expected value compared with the actual one.
    pub fn matches(self, ord: Ordering) -> bool {
        match self {
            CompareOp::Less => ord == Ordering::Less,
            CompareOp::LessOrEqual => ord != Ordering::Greater,
            CompareOp::Equal => ord == Ordering::Equal,
            CompareOp::NotEqual => ord != Ordering::Equal,
            CompareOp::GreaterOrEqual => ord != Ordering::Less,
            CompareOp::Greater => ord == Ordering::Greater,
        }
    }
}

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
