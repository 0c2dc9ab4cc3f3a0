//! Bigtable's regular expressions: RE2 syntax, and a row, family or qualifier regex must match
//! the whole value (`bttest` wraps each as `^(?:...)$`). Keys are bytes; a key that is UTF-8
//! is matched as text, and a byte that is not UTF-8 matches as U+FFFD, as Go's `regexp` reads
//! it in the emulator.

use crate::kit::regex::Regex;

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
        Regex::new(&format!("^(?:{})$", any_byte(&pattern)))
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

/// RE2's `\C` (any byte; Go reads it as any character) written as regex-lite reads it.
fn any_byte(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('C') => out.push_str("(?s:.)"),
            Some(n) => {
                out.push('\\');
                out.push(n);
            }
            None => out.push('\\'),
        }
    }
    out
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
    // The repetition operator just read (`*`, `+?`, `{2,3}`), which another may not follow.
    let mut last_repeat: Option<String> = None;
    while i < chars.len() {
        if !matches!(chars[i], '*' | '+' | '?' | '{') {
            last_repeat = None;
        }
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
                        i += 2;
                        continue;
                    }
                    if let (Some('-'), Some(&hi)) = (chars.get(i + 1), chars.get(i + 2)) {
                        if hi != ']' && hi < chars[i] {
                            return Some(format!(
                                "error parsing regexp: invalid character class range: `{}-{hi}`",
                                chars[i]
                            ));
                        }
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
                if let Some(op) = last_repeat.take() {
                    return Some(format!(
                        "error parsing regexp: invalid nested repetition operator: `{op}{c}`"
                    ));
                }
                if !previous_repeatable {
                    return Some(format!(
                        "error parsing regexp: missing argument to repetition operator: `{c}`"
                    ));
                }
                previous_repeatable = false;
                let mut op = c.to_string();
                if chars.get(i + 1) == Some(&'?') {
                    i += 1;
                    op.push('?');
                }
                last_repeat = Some(op);
                i += 1;
                continue;
            }
            '{' if previous_repeatable || last_repeat.is_some() => {
                let close = chars[i..].iter().position(|&c| c == '}').map(|p| p + i);
                let body: Option<String> = close.map(|e| chars[i + 1..e].iter().collect());
                let counts = body.as_deref().and_then(|b| {
                    let (lo, hi) = match b.split_once(',') {
                        Some((lo, "")) => (lo, None),
                        Some((lo, hi)) => (lo, Some(hi)),
                        None => (b, Some(b)),
                    };
                    let lo: u32 = lo.parse().ok()?;
                    let hi: Option<u32> = match hi {
                        Some(h) => Some(h.parse().ok()?),
                        None => None,
                    };
                    Some((lo, hi))
                });
                if let (Some(e), Some((lo, hi))) = (close, counts) {
                    let text: String = chars[i..=e].iter().collect();
                    if let Some(op) = last_repeat.take() {
                        return Some(format!(
                            "error parsing regexp: invalid nested repetition operator: `{op}{text}`"
                        ));
                    }
                    if lo > 1000 || hi.is_some_and(|h| h > 1000 || h < lo) {
                        return Some(format!(
                            "error parsing regexp: invalid repeat count: `{text}`"
                        ));
                    }
                    previous_repeatable = false;
                    last_repeat = Some(text);
                    i = e + 1;
                    continue;
                }
                previous_repeatable = true;
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
