//! The pattern's syntax read into a tree ([`Node`]), accepting and refusing what regex-lite
//! 0.1 accepts and refuses, with its messages (each used in one place), so that a pattern a
//! person wrote before reads the same. Recursion follows groups only and stops at
//! [`NEST_LIMIT`] levels, as does the tree's height (a hostile `a**…*` is refused, not nested).

mod class;

use super::Error;
use class::{canonical, fold, negate, posix};

/// How deep groups may nest and how tall the tree may grow (regex-lite's `nest_limit`).
pub(super) const NEST_LIMIT: u32 = 50;

/// An assertion at a position; `NONE` asserts nothing.
pub(super) type Look = u8;
pub(super) const NONE: Look = 0;
pub(super) const START: Look = 1;
pub(super) const END: Look = 2;
pub(super) const START_LF: Look = 3;
pub(super) const END_LF: Look = 4;
pub(super) const START_CRLF: Look = 5;
pub(super) const END_CRLF: Look = 6;
pub(super) const WORD: Look = 7;
pub(super) const NOT_WORD: Look = 8;
pub(super) const WORD_START: Look = 9;
pub(super) const WORD_END: Look = 10;
pub(super) const WORD_START_HALF: Look = 11;
pub(super) const WORD_END_HALF: Look = 12;

/// A node of the parsed pattern, shaped as regex-lite shapes its own (a concatenation or
/// alternation of one is that one, `x{1}` is `x`, `x{0}` is empty), since the compiled
/// program's size, which the size limit counts, follows that shape.
pub(super) struct Node {
    pub(super) kind: Kind,
    /// Levels below this node (0 for a leaf).
    height: u32,
    /// True when the node can match the empty string.
    pub(super) empty: bool,
    /// True when the node can only match at the start of the text.
    pub(super) anchored: bool,
}

pub(super) enum Kind {
    Empty,
    Char(char),
    /// Sorted, disjoint ranges; none at all never matches.
    Class(Vec<(char, char)>),
    Look(Look),
    Repeat {
        min: u32,
        max: Option<u32>,
        sub: Box<Node>,
    },
    /// A capture group: its index and its name's length (0 when unnamed).
    Capture {
        index: u32,
        name_len: usize,
        sub: Box<Node>,
    },
    Concat(Vec<Node>),
    Alternation(Vec<Node>),
}

#[derive(Clone, Copy, Default)]
struct Flags {
    case_insensitive: bool,
    multi_line: bool,
    dot_all: bool,
    crlf: bool,
    whitespace: bool,
}

const ERR_TOO_MUCH_NESTING: &str = "pattern has too much nesting";
const ERR_TOO_MANY_CAPTURES: &str = "too many capture groups";
const ERR_DUPLICATE_CAPTURE_NAME: &str = "duplicate capture group name";
const ERR_UNCLOSED_GROUP: &str = "found open group without closing ')'";
const ERR_UNCLOSED_GROUP_QUESTION: &str = "expected closing ')', but got end of pattern";
const ERR_UNOPENED_GROUP: &str = "found closing ')' without matching '('";
const ERR_LOOK_UNSUPPORTED: &str = "look-around is not supported";
const ERR_EMPTY_FLAGS: &str = "empty flag directive '(?)' is not allowed";
const ERR_MISSING_GROUP_NAME: &str = "expected capture group name, but got end of pattern";
const ERR_INVALID_GROUP_NAME: &str = "invalid group name";
const ERR_UNCLOSED_GROUP_NAME: &str = "expected end of capture group name, but got end of pattern";
const ERR_EMPTY_GROUP_NAME: &str = "empty capture group names are not allowed";
const ERR_FLAG_UNRECOGNIZED: &str = "unrecognized inline flag";
const ERR_FLAG_REPEATED_NEGATION: &str = "inline flag negation cannot be repeated";
const ERR_FLAG_DUPLICATE: &str = "duplicate inline flag is not allowed";
const ERR_FLAG_UNEXPECTED_EOF: &str =
    "expected ':' or ')' to end inline flags, but got end of pattern";
const ERR_FLAG_DANGLING_NEGATION: &str = "inline flags cannot end with negation directive";
const ERR_DECIMAL_NO_DIGITS: &str = "expected decimal number, but found no digits";
const ERR_DECIMAL_INVALID: &str = "got invalid decimal number";
const ERR_HEX_BRACE_INVALID_DIGIT: &str =
    "expected hexadecimal number in braces, but got non-hex digit";
const ERR_HEX_BRACE_UNEXPECTED_EOF: &str =
    "expected hexadecimal number, but saw end of pattern before closing brace";
const ERR_HEX_BRACE_EMPTY: &str = "expected hexadecimal number in braces, but got no digits";
const ERR_HEX_BRACE_INVALID: &str = "got invalid hexadecimal number in braces";
const ERR_HEX_FIXED_UNEXPECTED_EOF: &str =
    "expected fixed length hexadecimal number, but saw end of pattern first";
const ERR_HEX_FIXED_INVALID_DIGIT: &str =
    "expected fixed length hexadecimal number, but got non-hex digit";
const ERR_HEX_FIXED_INVALID: &str = "got invalid fixed length hexadecimal number";
const ERR_HEX_UNEXPECTED_EOF: &str = "expected hexadecimal number, but saw end of pattern first";
const ERR_ESCAPE_UNEXPECTED_EOF: &str =
    "saw start of escape sequence, but saw end of pattern before it finished";
const ERR_BACKREF_UNSUPPORTED: &str = "backreferences are not supported";
const ERR_UNICODE_CLASS_UNSUPPORTED: &str = "Unicode character classes are not supported";
const ERR_ESCAPE_UNRECOGNIZED: &str = "unrecognized escape sequence";
const ERR_UNCOUNTED_REP_SUB_MISSING: &str =
    "uncounted repetition operator must be applied to a sub-expression";
const ERR_COUNTED_REP_SUB_MISSING: &str =
    "counted repetition operator must be applied to a sub-expression";
const ERR_COUNTED_REP_UNCLOSED: &str = "found unclosed counted repetition operator";
const ERR_COUNTED_REP_MIN_UNCLOSED: &str =
    "found incomplete and unclosed counted repetition operator";
const ERR_COUNTED_REP_COMMA_UNCLOSED: &str =
    "found counted repetition operator with a comma that is unclosed";
const ERR_COUNTED_REP_MIN_MAX_UNCLOSED: &str =
    "found counted repetition with min and max that is unclosed";
const ERR_COUNTED_REP_INVALID: &str =
    "expected closing brace for counted repetition, but got something else";
const ERR_COUNTED_REP_INVALID_RANGE: &str =
    "found counted repetition with a min bigger than its max";
const ERR_CLASS_UNCLOSED_AFTER_ITEM: &str = "non-empty character class has no closing bracket";
const ERR_CLASS_INVALID_RANGE_ITEM: &str =
    "character class ranges must start and end with a single character";
const ERR_CLASS_INVALID_ITEM: &str = "invalid escape sequence in character class";
const ERR_CLASS_UNCLOSED_AFTER_DASH: &str =
    "non-empty character class has no closing bracket after dash";
const ERR_CLASS_UNCLOSED_AFTER_NEGATION: &str = "negated character class has no closing bracket";
const ERR_CLASS_UNCLOSED_AFTER_CLOSING: &str =
    "character class begins with literal ']' but has no closing bracket";
const ERR_CLASS_INVALID_RANGE: &str = "invalid range in character class";
const ERR_CLASS_UNCLOSED: &str = "found unclosed character class";
const ERR_CLASS_NEST_UNSUPPORTED: &str = "nested character classes are not supported";
const ERR_CLASS_INTERSECTION_UNSUPPORTED: &str = "character class intersection is not supported";
const ERR_CLASS_DIFFERENCE_UNSUPPORTED: &str = "character class difference is not supported";
const ERR_CLASS_SYMDIFFERENCE_UNSUPPORTED: &str =
    "character class symmetric difference is not supported";
const ERR_SPECIAL_WORD_BOUNDARY_UNCLOSED: &str =
    "special word boundary assertion is unclosed or has an invalid character";
const ERR_SPECIAL_WORD_BOUNDARY_UNRECOGNIZED: &str =
    "special word boundary assertion is unrecognized";
const ERR_SPECIAL_WORD_OR_REP_UNEXPECTED_EOF: &str =
    "found start of special word boundary or repetition without an end";

#[cfg_attr(rowkey_cold, optimize(size))]
fn fail<T>(message: &'static str) -> Result<T, Error> {
    Err(Error { message })
}

impl Node {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn leaf(kind: Kind, empty: bool, anchored: bool) -> Node {
        Node {
            kind,
            height: 0,
            empty,
            anchored,
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn empty() -> Node {
        Node::leaf(Kind::Empty, true, false)
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn char(c: char) -> Node {
        Node::leaf(Kind::Char(c), false, false)
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn class(ranges: Vec<(char, char)>) -> Node {
        Node::leaf(Kind::Class(ranges), false, false)
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn look(look: Look) -> Node {
        Node::leaf(Kind::Look(look), true, look == START)
    }
}

/// Reads `pattern`; `dot_all` is the `s` flag's starting value.
#[cfg_attr(rowkey_cold, optimize(size))]
pub(super) fn parse(pattern: &str, dot_all: bool) -> Result<Node, Error> {
    let mut p = Parser {
        pattern,
        pos: 0,
        depth: 0,
        captures: 0,
        names: Vec::new(),
        flags: Flags {
            dot_all,
            ..Flags::default()
        },
        too_tall: false,
    };
    let node = p.parse_inner()?;
    if p.too_tall {
        return fail(ERR_TOO_MUCH_NESTING);
    }
    Ok(node)
}

struct Parser<'a> {
    pattern: &'a str,
    pos: usize,
    depth: u32,
    captures: u32,
    names: Vec<&'a str>,
    flags: Flags,
    /// Set when a node would be taller than the limit (refused once the syntax is read, as
    /// regex-lite refuses it after parsing; the node is not built).
    too_tall: bool,
}

impl<'a> Parser<'a> {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn char(&self) -> Option<char> {
        self.pattern.get(self.pos..).and_then(|s| s.chars().next())
    }

    /// The current character, or NUL at the end (callers check the end first, as regex-lite's
    /// do where its `char()` would panic).
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn c(&self) -> char {
        self.char().unwrap_or('\0')
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn done(&self) -> bool {
        self.pos >= self.pattern.len()
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn bump(&mut self) -> bool {
        match self.char() {
            Some(c) => {
                self.pos += c.len_utf8();
                !self.done()
            }
            None => false,
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn bump_if(&mut self, prefix: &str) -> bool {
        if self
            .pattern
            .get(self.pos..)
            .is_some_and(|s| s.starts_with(prefix))
        {
            self.pos += prefix.len();
            true
        } else {
            false
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn bump_and_bump_space(&mut self) -> bool {
        if !self.bump() {
            return false;
        }
        self.bump_space();
        !self.done()
    }

    /// Skips whitespace and `#` comments when the `x` flag is on.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn bump_space(&mut self) {
        if !self.flags.whitespace {
            return;
        }
        while let Some(c) = self.char() {
            if c.is_whitespace() {
                self.bump();
            } else if c == '#' {
                self.bump();
                while let Some(c) = self.char() {
                    self.bump();
                    if c == '\n' {
                        break;
                    }
                }
            } else {
                break;
            }
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn peek(&self) -> Option<char> {
        let c = self.char()?;
        self.pattern
            .get(self.pos + c.len_utf8()..)
            .and_then(|s| s.chars().next())
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn peek_space(&self) -> Option<char> {
        if !self.flags.whitespace {
            return self.peek();
        }
        let c = self.char()?;
        let rest = self.pattern.get(self.pos + c.len_utf8()..).unwrap_or("");
        // As regex-lite reads ahead: whitespace skipped, a first `#` too, the next character
        // whatever it is (a comment is not skipped past), or the one right after the current
        // when nothing else follows.
        let mut in_comment = false;
        for ch in rest.chars() {
            if ch.is_whitespace() {
                continue;
            } else if !in_comment && ch == '#' {
                in_comment = true;
            } else {
                return Some(ch);
            }
        }
        rest.chars().next()
    }

    /// A node over `subs`, its height checked against the limit.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn parent(&mut self, kind: Kind, height: u32, empty: bool, anchored: bool) -> Node {
        if height > NEST_LIMIT {
            self.too_tall = true;
            return Node::empty();
        }
        Node {
            kind,
            height,
            empty,
            anchored,
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn concat(&mut self, mut subs: Vec<Node>) -> Node {
        if subs.len() <= 1 {
            return subs.pop().unwrap_or_else(Node::empty);
        }
        let height = 1 + subs.iter().map(|s| s.height).max().unwrap_or(0);
        let empty = subs.iter().all(|s| s.empty);
        let anchored = subs.first().is_some_and(|s| s.anchored);
        self.parent(Kind::Concat(subs), height, empty, anchored)
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn alternation(&mut self, mut subs: Vec<Node>) -> Node {
        if subs.len() <= 1 {
            return subs.pop().unwrap_or_else(|| Node::class(Vec::new()));
        }
        let height = 1 + subs.iter().map(|s| s.height).max().unwrap_or(0);
        let empty = subs.iter().any(|s| s.empty);
        let anchored = subs.iter().all(|s| s.anchored);
        self.parent(Kind::Alternation(subs), height, empty, anchored)
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn repeat(&mut self, min: u32, max: Option<u32>, sub: Node) -> Node {
        if min == 0 && max == Some(0) {
            return Node::empty();
        }
        if min == 1 && max == Some(1) {
            return sub;
        }
        let (height, empty, anchored) = (
            sub.height + 1,
            min == 0 || sub.empty,
            min > 0 && sub.anchored,
        );
        let sub = Box::new(sub);
        self.parent(Kind::Repeat { min, max, sub }, height, empty, anchored)
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn capture(&mut self, index: u32, name_len: usize, sub: Node) -> Node {
        let (height, empty, anchored) = (sub.height + 1, sub.empty, sub.anchored);
        let sub = Box::new(sub);
        self.parent(
            Kind::Capture {
                index,
                name_len,
                sub,
            },
            height,
            empty,
            anchored,
        )
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn parse_inner(&mut self) -> Result<Node, Error> {
        let depth = self.depth;
        if depth > NEST_LIMIT {
            return fail(ERR_TOO_MUCH_NESTING);
        }
        self.depth += 1;
        let mut alternates = Vec::new();
        let mut concat: Vec<Node> = Vec::new();
        loop {
            self.bump_space();
            let Some(c) = self.char() else { break };
            match c {
                '(' => {
                    let old = self.flags;
                    if let Some(sub) = self.parse_group()? {
                        concat.push(sub);
                        self.flags = old;
                    }
                    if self.char() != Some(')') {
                        return fail(ERR_UNCLOSED_GROUP);
                    }
                    self.bump();
                }
                ')' => {
                    if depth == 0 {
                        return fail(ERR_UNOPENED_GROUP);
                    }
                    break;
                }
                '|' => {
                    let branch = self.concat(std::mem::take(&mut concat));
                    alternates.push(branch);
                    self.bump();
                }
                '[' => {
                    let class = self.parse_class()?;
                    concat.push(class);
                }
                '?' | '*' | '+' => {
                    let Some(sub) = concat.pop() else {
                        return fail(ERR_UNCOUNTED_REP_SUB_MISSING);
                    };
                    let (min, max) = match c {
                        '?' => (0, Some(1)),
                        '*' => (0, None),
                        _ => (1, None),
                    };
                    if self.bump() && self.c() == '?' {
                        self.bump();
                    }
                    let node = self.repeat(min, max, sub);
                    concat.push(node);
                }
                '{' => {
                    let Some(sub) = concat.pop() else {
                        return fail(ERR_COUNTED_REP_SUB_MISSING);
                    };
                    let (min, max) = self.parse_counts()?;
                    let node = self.repeat(min, max, sub);
                    concat.push(node);
                }
                _ => {
                    let node = self.parse_primitive()?;
                    concat.push(node);
                }
            }
        }
        self.depth -= 1;
        let last = self.concat(concat);
        alternates.push(last);
        Ok(self.alternation(alternates))
    }

    /// `{n}`, `{n,}` or `{n,m}` (and a lazy `?`), the parser at the `{`.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn parse_counts(&mut self) -> Result<(u32, Option<u32>), Error> {
        if !self.bump_and_bump_space() {
            return fail(ERR_COUNTED_REP_UNCLOSED);
        }
        let min = self.parse_decimal()?;
        let mut max = Some(min);
        if self.done() {
            return fail(ERR_COUNTED_REP_MIN_UNCLOSED);
        }
        if self.c() == ',' {
            if !self.bump_and_bump_space() {
                return fail(ERR_COUNTED_REP_COMMA_UNCLOSED);
            }
            max = if self.c() != '}' {
                Some(self.parse_decimal()?)
            } else {
                None
            };
            if self.done() {
                return fail(ERR_COUNTED_REP_MIN_MAX_UNCLOSED);
            }
        }
        if self.c() != '}' {
            return fail(ERR_COUNTED_REP_INVALID);
        }
        if self.bump_and_bump_space() && self.c() == '?' {
            self.bump();
        }
        if max.is_some_and(|max| min > max) {
            return fail(ERR_COUNTED_REP_INVALID_RANGE);
        }
        Ok((min, max))
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn parse_decimal(&mut self) -> Result<u32, Error> {
        while self.char().is_some_and(char::is_whitespace) {
            self.bump();
        }
        let (mut value, mut digits, mut overflow) = (0u32, 0, false);
        while let Some(d) = self.char().and_then(|c| c.to_digit(10)) {
            match value.checked_mul(10).and_then(|v| v.checked_add(d)) {
                Some(v) => value = v,
                None => overflow = true,
            }
            digits += 1;
            self.bump_and_bump_space();
        }
        while self.char().is_some_and(char::is_whitespace) {
            self.bump_and_bump_space();
        }
        if digits == 0 {
            return fail(ERR_DECIMAL_NO_DIGITS);
        }
        if overflow {
            return fail(ERR_DECIMAL_INVALID);
        }
        Ok(value)
    }

    /// A group or a flag directive, the parser at the `(`; `None` for a directive (`(?i)`),
    /// whose flags stay set.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn parse_group(&mut self) -> Result<Option<Node>, Error> {
        self.bump_and_bump_space();
        if self.bump_if("?=") || self.bump_if("?!") || self.bump_if("?<=") || self.bump_if("?<!") {
            return fail(ERR_LOOK_UNSUPPORTED);
        }
        if self.bump_if("?P<") || self.bump_if("?<") {
            let index = self.next_capture()?;
            let name_len = self.parse_capture_name()?;
            let sub = self.parse_inner()?;
            return Ok(Some(self.capture(index, name_len, sub)));
        }
        if self.bump_if("?") {
            if self.done() {
                return fail(ERR_UNCLOSED_GROUP_QUESTION);
            }
            let start = self.pos;
            self.flags = self.parse_flags()?;
            if self.c() == ')' {
                if self.pos == start {
                    return fail(ERR_EMPTY_FLAGS);
                }
                return Ok(None);
            }
            self.bump();
            return self.parse_inner().map(Some);
        }
        let index = self.next_capture()?;
        let sub = self.parse_inner()?;
        Ok(Some(self.capture(index, 0, sub)))
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn next_capture(&mut self) -> Result<u32, Error> {
        match self.captures.checked_add(1) {
            Some(next) => {
                self.captures = next;
                Ok(next)
            }
            None => fail(ERR_TOO_MANY_CAPTURES),
        }
    }

    /// A group's name up to its `>`; its length.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn parse_capture_name(&mut self) -> Result<usize, Error> {
        if self.done() {
            return fail(ERR_MISSING_GROUP_NAME);
        }
        let start = self.pos;
        while let Some(c) = self.char() {
            if c == '>' {
                break;
            }
            let ok = if self.pos == start {
                c == '_' || c.is_alphabetic()
            } else {
                c == '_' || c == '.' || c == '[' || c == ']' || c.is_alphanumeric()
            };
            if !ok {
                return fail(ERR_INVALID_GROUP_NAME);
            }
            self.bump();
        }
        let end = self.pos;
        if self.done() {
            return fail(ERR_UNCLOSED_GROUP_NAME);
        }
        self.bump();
        let name = self.pattern.get(start..end).unwrap_or("");
        if name.is_empty() {
            return fail(ERR_EMPTY_GROUP_NAME);
        }
        match self.names.binary_search(&name) {
            Ok(_) => fail(ERR_DUPLICATE_CAPTURE_NAME),
            Err(i) => {
                self.names.insert(i, name);
                Ok(name.len())
            }
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn parse_flags(&mut self) -> Result<Flags, Error> {
        let mut flags = self.flags;
        let (mut negate, mut last_was_negation) = (false, false);
        let mut seen = 0u64;
        while self.c() != ':' && self.c() != ')' {
            let c = self.c();
            if c == '-' {
                last_was_negation = true;
                if negate {
                    return fail(ERR_FLAG_REPEATED_NEGATION);
                }
                negate = true;
            } else {
                last_was_negation = false;
                let on = !negate;
                let bit = match c {
                    'i' => {
                        flags.case_insensitive = on;
                        0
                    }
                    'm' => {
                        flags.multi_line = on;
                        1
                    }
                    's' => {
                        flags.dot_all = on;
                        2
                    }
                    // Lazy and greedy repetitions match the same texts.
                    'U' => 3,
                    'R' => {
                        flags.crlf = on;
                        4
                    }
                    'x' => {
                        flags.whitespace = on;
                        5
                    }
                    // Accepted and ignored, as regex-lite does (`(?-u:\b)`).
                    'u' => 6,
                    _ => return fail(ERR_FLAG_UNRECOGNIZED),
                };
                if seen & (1 << bit) != 0 {
                    return fail(ERR_FLAG_DUPLICATE);
                }
                seen |= 1 << bit;
            }
            if !self.bump() {
                return fail(ERR_FLAG_UNEXPECTED_EOF);
            }
        }
        if last_was_negation {
            return fail(ERR_FLAG_DANGLING_NEGATION);
        }
        Ok(flags)
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn parse_primitive(&mut self) -> Result<Node, Error> {
        let c = self.c();
        self.bump();
        Ok(match c {
            '\\' => return self.parse_escape(),
            '.' => {
                let ranges = if self.flags.dot_all {
                    vec![('\0', char::MAX)]
                } else if self.flags.crlf {
                    vec![('\0', '\x09'), ('\x0B', '\x0C'), ('\x0E', char::MAX)]
                } else {
                    vec![('\0', '\x09'), ('\x0B', char::MAX)]
                };
                Node::class(ranges)
            }
            '^' => Node::look(match (self.flags.multi_line, self.flags.crlf) {
                (false, _) => START,
                (true, false) => START_LF,
                (true, true) => START_CRLF,
            }),
            '$' => Node::look(match (self.flags.multi_line, self.flags.crlf) {
                (false, _) => END,
                (true, false) => END_LF,
                (true, true) => END_CRLF,
            }),
            c => self.literal(c),
        })
    }

    /// A literal character, both cases of an ASCII letter under the `i` flag.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn literal(&self, c: char) -> Node {
        if self.flags.case_insensitive {
            if let Some(folded) = fold((c, c)) {
                return Node::class(canonical(vec![(c, c), folded]));
            }
        }
        Node::char(c)
    }

    /// What follows a `\`, the parser after it.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn parse_escape(&mut self) -> Result<Node, Error> {
        let Some(c) = self.char() else {
            return fail(ERR_ESCAPE_UNEXPECTED_EOF);
        };
        match c {
            '0'..='9' => return fail(ERR_BACKREF_UNSUPPORTED),
            'p' | 'P' => return fail(ERR_UNICODE_CLASS_UNSUPPORTED),
            'x' | 'u' | 'U' => return self.parse_hex(),
            'd' | 's' | 'w' | 'D' | 'S' | 'W' => {
                self.bump();
                let mut ranges = canonical(posix(match c {
                    'd' | 'D' => "digit",
                    's' | 'S' => "space",
                    _ => "word",
                }));
                if c.is_ascii_uppercase() {
                    ranges = negate(ranges);
                }
                return Ok(Node::class(ranges));
            }
            _ => {}
        }
        self.bump();
        if escapable(c) {
            return Ok(self.literal(c));
        }
        Ok(match c {
            'a' => self.literal('\x07'),
            'f' => self.literal('\x0C'),
            't' => self.literal('\t'),
            'n' => self.literal('\n'),
            'r' => self.literal('\r'),
            'v' => self.literal('\x0B'),
            'A' => Node::look(START),
            'z' => Node::look(END),
            'b' => {
                if self.c() == '{' && !self.done() {
                    if let Some(look) = self.parse_special_word_boundary()? {
                        return Ok(Node::look(look));
                    }
                }
                Node::look(WORD)
            }
            'B' => Node::look(NOT_WORD),
            '<' => Node::look(WORD_START),
            '>' => Node::look(WORD_END),
            _ => return fail(ERR_ESCAPE_UNRECOGNIZED),
        })
    }

    /// `\b{start}`, `\b{end}`, `\b{start-half}`, `\b{end-half}`; `None` (the parser back at
    /// the `{`) when what follows is a counted repetition instead.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn parse_special_word_boundary(&mut self) -> Result<Option<Look>, Error> {
        let valid = |c: char| c.is_ascii_alphabetic() || c == '-';
        let start = self.pos;
        if !self.bump_and_bump_space() {
            return fail(ERR_SPECIAL_WORD_OR_REP_UNEXPECTED_EOF);
        }
        if !valid(self.c()) {
            self.pos = start;
            return Ok(None);
        }
        let mut name = String::new();
        while let Some(c) = self.char().filter(|&c| valid(c)) {
            name.push(c);
            self.bump_and_bump_space();
        }
        if self.c() != '}' || self.done() {
            return fail(ERR_SPECIAL_WORD_BOUNDARY_UNCLOSED);
        }
        self.bump();
        Ok(Some(match name.as_str() {
            "start" => WORD_START,
            "end" => WORD_END,
            "start-half" => WORD_START_HALF,
            "end-half" => WORD_END_HALF,
            _ => return fail(ERR_SPECIAL_WORD_BOUNDARY_UNRECOGNIZED),
        }))
    }

    /// `\xNN`, `\uNNNN`, `\UNNNNNNNN` or any of them with braces, the parser at the letter.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn parse_hex(&mut self) -> Result<Node, Error> {
        let digits = match self.c() {
            'x' => 2,
            'u' => 4,
            _ => 8,
        };
        if !self.bump_and_bump_space() {
            return fail(ERR_HEX_UNEXPECTED_EOF);
        }
        let mut value: Option<u32> = Some(0);
        if self.c() == '{' {
            let mut any = false;
            while self.bump_and_bump_space() && self.c() != '}' {
                let Some(d) = self.c().to_digit(16) else {
                    return fail(ERR_HEX_BRACE_INVALID_DIGIT);
                };
                value = value.and_then(|v| v.checked_mul(16)?.checked_add(d));
                any = true;
            }
            if self.done() {
                return fail(ERR_HEX_BRACE_UNEXPECTED_EOF);
            }
            self.bump_and_bump_space();
            if !any {
                return fail(ERR_HEX_BRACE_EMPTY);
            }
            return match value.and_then(char::from_u32) {
                Some(c) => Ok(self.literal(c)),
                None => fail(ERR_HEX_BRACE_INVALID),
            };
        }
        for i in 0..digits {
            if i > 0 && !self.bump_and_bump_space() {
                return fail(ERR_HEX_FIXED_UNEXPECTED_EOF);
            }
            let Some(d) = self.c().to_digit(16) else {
                return fail(ERR_HEX_FIXED_INVALID_DIGIT);
            };
            value = value.and_then(|v| v.checked_mul(16)?.checked_add(d));
        }
        self.bump_and_bump_space();
        match value.and_then(char::from_u32) {
            Some(c) => Ok(self.literal(c)),
            None => fail(ERR_HEX_FIXED_INVALID),
        }
    }
}

/// True for the characters a `\` may precede to stand for themselves: the meta characters and
/// every other ASCII character but letters, digits, `<` and `>`.
#[cfg_attr(rowkey_cold, optimize(size))]
fn escapable(c: char) -> bool {
    c.is_ascii() && !c.is_ascii_alphanumeric() && c != '<' && c != '>'
}
