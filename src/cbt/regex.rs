//! Bigtable's regular expressions: RE2 syntax, and a row, family or qualifier regex must match
//! the whole value (`bttest` wraps each as `^(?:...)$`). Keys are bytes; a key that is UTF-8
//! is matched as text, and a byte that is not UTF-8 matches as U+FFFD, as Go's `regexp` reads
//! it in the emulator.

use regex_lite::Regex;

/// A compiled full-match expression.
#[derive(Clone, Debug)]
pub struct FullMatch {
    re: Regex,
}

impl FullMatch {
    /// Compiles `pattern`; the error is Go's `regexp` message as the emulator returns it.
    pub fn new(pattern: &[u8]) -> Result<FullMatch, String> {
        let pattern = String::from_utf8_lossy(pattern);
        let wrapped = format!("^(?:{pattern})$");
        if let Some(message) = go_error(&pattern, &wrapped) {
            return Err(message);
        }
        Regex::new(&wrapped)
            .map(|re| FullMatch { re })
            .map_err(|e| format!("error parsing regexp: {e}"))
    }

    pub fn matches(&self, value: &[u8]) -> bool {
        match std::str::from_utf8(value) {
            Ok(text) => self.re.is_match(text),
            Err(_) => self.re.is_match(&lossy_per_byte(value)),
        }
    }
}

/// Each byte that is not part of valid UTF-8 becomes one U+FFFD (Go's decoding).
fn lossy_per_byte(mut bytes: &[u8]) -> String {
    let mut out = String::new();
    while !bytes.is_empty() {
        match std::str::from_utf8(bytes) {
            Ok(s) => {
                out.push_str(s);
                break;
            }
            Err(e) => {
                let (valid, rest) = bytes.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                out.push('\u{FFFD}');
                bytes = rest.get(1..).unwrap_or_default();
            }
        }
    }
    out
}

/// Go's message for the mistakes people make most: unbalanced parentheses or brackets and a
/// repetition with nothing to repeat.
fn go_error(pattern: &str, wrapped: &str) -> Option<String> {
    let mut depth = 0i32;
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    let mut previous_repeatable = false;
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                i += 2;
                previous_repeatable = true;
                continue;
            }
            '[' => {
                let start = i;
                i += 1;
                if chars.get(i) == Some(&'^') {
                    i += 1;
                }
                if chars.get(i) == Some(&']') {
                    i += 1;
                }
                while i < chars.len() && chars[i] != ']' {
                    if chars[i] == '\\' {
                        i += 1;
                    }
                    i += 1;
                }
                if i >= chars.len() {
                    let tail: String = chars[start..].iter().collect();
                    return Some(format!(
                        "error parsing regexp: missing closing ]: `{tail})$`"
                    ));
                }
                previous_repeatable = true;
            }
            '(' => {
                depth += 1;
                previous_repeatable = false;
                if chars.get(i + 1) == Some(&'?') {
                    i += 1;
                }
            }
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return Some(format!("error parsing regexp: unexpected ): `{wrapped}`"));
                }
                previous_repeatable = true;
            }
            '|' => previous_repeatable = false,
            c @ ('*' | '+' | '?') => {
                if !previous_repeatable {
                    return Some(format!(
                        "error parsing regexp: missing argument to repetition operator: `{c}`"
                    ));
                }
                previous_repeatable = false;
                if chars.get(i + 1) == Some(&'?') {
                    i += 1;
                }
            }
            _ => previous_repeatable = true,
        }
        i += 1;
    }
    if depth > 0 {
        return Some(format!(
            "error parsing regexp: missing closing ): `{wrapped}`"
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_key_only() -> Result<(), String> {
        let re = FullMatch::new(b"r.")?;
        assert!(re.matches(b"r1"));
        assert!(!re.matches(b"r12"));
        assert!(!FullMatch::new(b"r")?.matches(b"r1"));
        assert!(FullMatch::new(b"a.b")?.matches(b"a\xffb"));
        assert_eq!(
            FullMatch::new(b"(").err(),
            Some("error parsing regexp: missing closing ): `^(?:()$`".into())
        );
        Ok(())
    }
}
