//! Numbers and counts as a person reads them: `10,000`, `3.4 KB`, `2 cells`; and text a message
//! quotes, its invisible characters shown.

/// A count with its thousands separated by commas: `1234567` → `1,234,567`.
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Bytes in binary units as a person reads them: `62 B`, `3.4 KB`, `1.2 MB`, `10.0 GB`.
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn human_bytes(n: u64) -> String {
    const KB: u64 = 1 << 10;
    const MB: u64 = 1 << 20;
    const GB: u64 = 1 << 30;
    match n {
        n if n >= GB => format!("{:.1} GB", n as f64 / GB as f64),
        n if n >= MB => format!("{:.1} MB", n as f64 / MB as f64),
        n if n >= KB => format!("{:.1} KB", n as f64 / KB as f64),
        n => format!("{n} B"),
    }
}

/// The noun for `n` of it: `cell` for one, `cells` otherwise (`es` after `s`, `sh`, `ch` and
/// `x`: `batches`, `indexes`).
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        noun.to_string()
    } else if ["s", "sh", "ch", "x"].iter().any(|end| noun.ends_with(end)) {
        format!("{noun}es")
    } else {
        format!("{noun}s")
    }
}

/// A count and its noun: `1 cell`, `1,024 cells`.
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn count_of(n: u64, noun: &str) -> String {
    format!("{} {}", thousands(n), plural(n, noun))
}

/// `text` cut to its first `max` characters and an ellipsis, when longer.
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn clipped(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// `text` in double quotes as a message shows it: `"`, `\\` and every control character
/// escaped as a Rust string literal writes them (`\"`, `\\\\`, `\n`, `\t`, `\r`, `\0`, `\u{1b}`),
/// every other character as it is. Unlike `{:?}`, which also escapes Unicode's unassigned and
/// format characters by its tables, it needs none.
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        push_shown(&mut out, c, "\"");
    }
    out.push('"');
    out
}

/// One character as [`quoted`] shows it, escaped too when it is one of `quotes` (`"'\""` for
/// a character on its own, as `char::escape_debug` writes it).
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn push_shown(out: &mut String, c: char, quotes: &str) {
    use std::fmt::Write;
    match c {
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        '\r' => out.push_str("\\r"),
        '\0' => out.push_str("\\0"),
        '\\' => out.push_str("\\\\"),
        c if quotes.contains(c) => {
            out.push('\\');
            out.push(c);
        }
        c if c.is_control() => {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
        c => out.push(c),
    }
}

/// `key` as a label beside `before` (the key shown just before it, as sorted keys are): the
/// part that tells the two apart, after "…" and two characters of what they share, when they
/// share five or more (never starting inside a `\xHH` escape); else the whole key. Region
/// tiles starting at `user0000123` and `user0004567` read `user0000123` and `…004567`, not
/// `user0…` twice.
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn distinct_tail(key: &str, before: &str) -> String {
    let shared = key
        .chars()
        .zip(before.chars())
        .take_while(|(a, b)| a == b)
        .count();
    if shared < 5 {
        return key.to_string();
    }
    let chars: Vec<char> = key.chars().collect();
    let mut from = shared - 2;
    // Back to the backslash of an escape the cut would split.
    if let Some(back) = (1..=3).find(|b| {
        from >= *b && chars.get(from - b) == Some(&'\\') && chars.get(from - b + 1) == Some(&'x')
    }) {
        from -= back;
    }
    let mut out = String::from("…");
    out.extend(chars.get(from..).unwrap_or_default());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_thousands() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(10_000), "10,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn bytes_in_binary_units() {
        assert_eq!(human_bytes(0), "0 B");
        assert_eq!(human_bytes(1023), "1023 B");
        assert_eq!(human_bytes(1024), "1.0 KB");
        assert_eq!(human_bytes(3_482), "3.4 KB");
        assert_eq!(human_bytes(1_048_576), "1.0 MB");
        assert_eq!(human_bytes(10 << 30), "10.0 GB");
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1, "cell"), "cell");
        assert_eq!(plural(0, "cell"), "cells");
        assert_eq!(plural(2, "batch"), "batches");
        assert_eq!(plural(2, "flush"), "flushes");
        assert_eq!(plural(3, "pass"), "passes");
        assert_eq!(count_of(1, "row"), "1 row");
        assert_eq!(count_of(1_024, "cell"), "1,024 cells");
    }

    #[test]
    fn quotes_text_with_its_controls_escaped() {
        assert_eq!(quoted("runs/7"), "\"runs/7\"");
        assert_eq!(quoted("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(quoted("\n\t\r\0\u{1b}\u{85}"), r#""\n\t\r\0\u{1b}\u{85}""#);
        assert_eq!(quoted("董事会 é"), "\"董事会 é\"");
        // As `{:?}` writes each of them.
        for text in ["runs/7", "a\"b\\c", "\n\t\r\0\u{1b}\u{85}", "董事会 é"] {
            assert_eq!(quoted(text), format!("{text:?}"));
        }
        for c in ['\'', '"', '\\', '\n', '\u{7f}', 'a', 'é'] {
            let mut one = String::new();
            push_shown(&mut one, c, "'\"");
            assert_eq!(one, c.escape_debug().to_string());
        }
    }

    #[test]
    fn distinct_tail_keeps_what_tells_keys_apart() {
        assert_eq!(distinct_tail("user0004567", "user0000123"), "…004567");
        assert_eq!(distinct_tail("user0000123", "−∞"), "user0000123");
        assert_eq!(distinct_tail("userX", "userY"), "userX");
        assert_eq!(distinct_tail("abcde", "abcde"), "…de");
        assert_eq!(distinct_tail("ab\\xFF\\x01zz", "ab\\xFF\\x00"), "…\\x01zz");
    }
}
