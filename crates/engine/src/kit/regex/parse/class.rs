//! Bracketed classes (`[a-z]`, `[^...]`, `[[:alpha:]]`) and the ranges every class is made
//! of: sorted, merged, folded to ASCII's other case, negated, as regex-lite makes them.

use super::*;
use crate::kit::order;

impl Parser<'_> {
    /// A bracketed class, the parser at the `[`.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub(super) fn parse_class(&mut self) -> Result<Node, Error> {
        let mut union: Vec<(char, char)> = Vec::new();
        if !self.bump_and_bump_space() {
            return fail(ERR_CLASS_UNCLOSED);
        }
        let negated = self.c() == '^';
        if negated && !self.bump_and_bump_space() {
            return fail(ERR_CLASS_UNCLOSED_AFTER_NEGATION);
        }
        while self.c() == '-' {
            union.push(('-', '-'));
            if !self.bump_and_bump_space() {
                return fail(ERR_CLASS_UNCLOSED_AFTER_DASH);
            }
        }
        if union.is_empty() && self.c() == ']' {
            union.push((']', ']'));
            if !self.bump_and_bump_space() {
                return fail(ERR_CLASS_UNCLOSED_AFTER_CLOSING);
            }
        }
        loop {
            self.bump_space();
            let Some(c) = self.char() else {
                return fail(ERR_CLASS_UNCLOSED);
            };
            match c {
                '[' => match self.parse_posix_class() {
                    Some(ranges) => union.extend_from_slice(&ranges),
                    None => return fail(ERR_CLASS_NEST_UNSUPPORTED),
                },
                ']' => {
                    self.bump();
                    let mut ranges = canonical(union);
                    if self.flags.case_insensitive {
                        ranges = fold_class(ranges);
                    }
                    if negated {
                        ranges = negate(ranges);
                    }
                    return Ok(Node::class(ranges));
                }
                '&' if self.peek() == Some('&') => return fail(ERR_CLASS_INTERSECTION_UNSUPPORTED),
                '-' if self.peek() == Some('-') => return fail(ERR_CLASS_DIFFERENCE_UNSUPPORTED),
                '~' if self.peek() == Some('~') => {
                    return fail(ERR_CLASS_SYMDIFFERENCE_UNSUPPORTED)
                }
                _ => self.parse_class_range(&mut union)?,
            }
        }
    }

    /// One item of a class (a character, an escape, a Perl class) or a range of two.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn parse_class_range(&mut self, union: &mut Vec<(char, char)>) -> Result<(), Error> {
        let first = self.parse_class_item()?;
        self.bump_space();
        if self.done() {
            return fail(ERR_CLASS_UNCLOSED_AFTER_ITEM);
        }
        if self.c() != '-' || self.peek_space() == Some(']') || self.peek_space() == Some('-') {
            match first.kind {
                Kind::Char(c) => union.push((c, c)),
                Kind::Class(ref ranges) => union.extend_from_slice(ranges),
                _ => return fail(ERR_CLASS_INVALID_ITEM),
            }
            return Ok(());
        }
        if !self.bump_and_bump_space() {
            return fail(ERR_CLASS_UNCLOSED_AFTER_DASH);
        }
        let second = self.parse_class_item()?;
        let (Kind::Char(start), Kind::Char(end)) = (&first.kind, &second.kind) else {
            return fail(ERR_CLASS_INVALID_RANGE_ITEM);
        };
        if start > end {
            return fail(ERR_CLASS_INVALID_RANGE);
        }
        union.push((*start, *end));
        Ok(())
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn parse_class_item(&mut self) -> Result<Node, Error> {
        let c = self.c();
        self.bump();
        if c == '\\' {
            self.parse_escape()
        } else {
            Ok(Node::char(c))
        }
    }

    /// `[:name:]` or `[:^name:]` inside a class; `None` (the parser back at the `[`) when
    /// what follows is not one.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn parse_posix_class(&mut self) -> Option<Vec<(char, char)>> {
        let start = self.pos;
        let found = self.posix_class_at();
        if found.is_none() {
            self.pos = start;
        }
        found
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn posix_class_at(&mut self) -> Option<Vec<(char, char)>> {
        if !self.bump() || self.c() != ':' || !self.bump() {
            return None;
        }
        let negated = self.c() == '^';
        if negated && !self.bump() {
            return None;
        }
        let name_start = self.pos;
        while self.c() != ':' && self.bump() {}
        if self.done() {
            return None;
        }
        let name = self.pattern.get(name_start..self.pos).unwrap_or("");
        if !self.bump_if(":]") {
            return None;
        }
        let ranges = posix(name);
        if ranges.is_empty() {
            return None;
        }
        let ranges = canonical(ranges);
        Some(if negated { negate(ranges) } else { ranges })
    }
}

/// The ranges of a POSIX class by name; none for an unknown name.
#[cfg_attr(rowkey_cold, optimize(size))]
pub(super) fn posix(name: &str) -> Vec<(char, char)> {
    let ranges: &[(u8, u8)] = match name {
        "alnum" => &[(b'0', b'9'), (b'A', b'Z'), (b'a', b'z')],
        "alpha" => &[(b'A', b'Z'), (b'a', b'z')],
        "ascii" => &[(0, 0x7F)],
        "blank" => &[(b'\t', b'\t'), (b' ', b' ')],
        "cntrl" => &[(0, 0x1F), (0x7F, 0x7F)],
        "digit" => &[(b'0', b'9')],
        "graph" => &[(b'!', b'~')],
        "lower" => &[(b'a', b'z')],
        "print" => &[(b' ', b'~')],
        "punct" => &[(b'!', b'/'), (b':', b'@'), (b'[', b'`'), (b'{', b'~')],
        "space" => &[(b'\t', b'\r'), (b' ', b' ')],
        "upper" => &[(b'A', b'Z')],
        "word" => &[(b'0', b'9'), (b'A', b'Z'), (b'_', b'_'), (b'a', b'z')],
        "xdigit" => &[(b'0', b'9'), (b'A', b'F'), (b'a', b'f')],
        _ => &[],
    };
    ranges
        .iter()
        .map(|&(a, b)| (char::from(a), char::from(b)))
        .collect()
}

#[cfg_attr(rowkey_cold, optimize(size))]
fn next_char(c: char) -> char {
    if c == '\u{D7FF}' {
        return '\u{E000}';
    }
    char::from_u32(u32::from(c) + 1).unwrap_or(char::MAX)
}

#[cfg_attr(rowkey_cold, optimize(size))]
fn prev_char(c: char) -> char {
    if c == '\u{E000}' {
        return '\u{D7FF}';
    }
    char::from_u32(u32::from(c).saturating_sub(1)).unwrap_or('\0')
}

/// True when two ranges overlap or touch (as numbers: U+D7FF and U+E000 do not touch).
#[cfg_attr(rowkey_cold, optimize(size))]
fn contiguous(a: (char, char), b: (char, char)) -> bool {
    let (s1, e1, s2, e2) = (
        u32::from(a.0),
        u32::from(a.1),
        u32::from(b.0),
        u32::from(b.1),
    );
    s1.max(s2) <= e1.min(e2).saturating_add(1)
}

/// Ranges sorted and merged where they overlap or touch.
#[cfg_attr(rowkey_cold, optimize(size))]
pub(super) fn canonical(mut ranges: Vec<(char, char)>) -> Vec<(char, char)> {
    order::sort(&mut ranges);
    let mut out: Vec<(char, char)> = Vec::with_capacity(ranges.len());
    for r in ranges {
        match out.last_mut() {
            Some(last) if contiguous(*last, r) => *last = (last.0.min(r.0), last.1.max(r.1)),
            _ => out.push(r),
        }
    }
    out
}

/// The other case of a range's ASCII letters: its lower-case part if it has one, else its
/// upper-case part.
#[cfg_attr(rowkey_cold, optimize(size))]
pub(super) fn fold(r: (char, char)) -> Option<(char, char)> {
    let shift = |(a, b): (char, char), up: bool| {
        let f = |c: char| {
            let c = u32::from(c);
            char::from_u32(if up { c - 32 } else { c + 32 }).unwrap_or('\0')
        };
        (f(a), f(b))
    };
    if r.0.max('a') <= r.1.min('z') {
        return Some(shift((r.0.max('a'), r.1.min('z')), true));
    }
    if r.0.max('A') <= r.1.min('Z') {
        return Some(shift((r.0.max('A'), r.1.min('Z')), false));
    }
    None
}

#[cfg_attr(rowkey_cold, optimize(size))]
fn fold_class(mut ranges: Vec<(char, char)>) -> Vec<(char, char)> {
    for i in 0..ranges.len() {
        if let Some(folded) = ranges.get(i).copied().and_then(fold) {
            ranges.push(folded);
        }
    }
    canonical(ranges)
}

/// Every character not in `ranges` (sorted and disjoint), as regex-lite computes it.
#[cfg_attr(rowkey_cold, optimize(size))]
pub(super) fn negate(ranges: Vec<(char, char)>) -> Vec<(char, char)> {
    let (Some(first), Some(last)) = (ranges.first(), ranges.last()) else {
        return vec![('\0', char::MAX)];
    };
    let mut out = Vec::with_capacity(ranges.len() + 1);
    if first.0 > '\0' {
        out.push(('\0', prev_char(first.0)));
    }
    for pair in ranges.windows(2) {
        if let [a, b] = pair {
            out.push((next_char(a.1), prev_char(b.0)));
        }
    }
    if last.1 < char::MAX {
        out.push((next_char(last.1), char::MAX));
    }
    out
}
