//! Regular expressions as HBase's `RegexStringComparator`, the shell's `list 'pattern'` and
//! cbt's RE2 filters use them: is the pattern found anywhere in the text.
//!
//! The syntax, its limits and its error messages are regex-lite 0.1's (which Rowkey used
//! before, and which `tests/regex.rs` holds this module to): literals and escapes (`\n`,
//! `\x7F`, `\u{263A}`), `.`, classes (`[a-z]`, `[^...]`, `[[:alpha:]]`, `\d \w \s \D \W \S`,
//! ASCII only), anchors (`^ $ \A \z`, `\b \B \< \>`, `\b{start}` and its kin), groups
//! (capturing, named, non-capturing), alternation, greedy and lazy repetition
//! (`* + ? {n} {n,} {n,m}`) and the flags `i m s U R x` (and `u`, accepted and ignored), set
//! for the rest of a group (`(?i)`) or inside one (`(?i:...)`). Case folding is ASCII's.
//!
//! [`Regex::new`] reads the pattern ([`parse`]: recursion only per group, 50 deep at most),
//! compiles it into an automaton ([`compile`], refused past regex-lite's 10 MiB), and
//! [`Regex::is_match`] runs that automaton over the text once, all its threads in step (a
//! Pike VM without captures): time linear in the text times the automaton, whatever the
//! pattern (`(a*)*b` over 10,000 `a`s answers at once), and no allocation once the first
//! search has sized the thread lists the regex keeps.

mod compile;
mod parse;

use std::cell::Cell;
use std::fmt;
use std::rc::Rc;

use compile::{Program, State};
use parse::Look;

/// Why a pattern was refused: regex-lite's message for the same mistake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Error {
    message: &'static str,
}

impl Error {
    /// The message, as regex-lite words it ("found open group without closing ')'").
    pub fn message(&self) -> &'static str {
        self.message
    }
}

impl fmt::Display for Error {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message)
    }
}

impl std::error::Error for Error {}

/// A compiled regular expression.
pub struct Regex {
    /// Shared by the clones (a scan clones its filter for each region it reads).
    program: Rc<Program>,
    pattern: Box<str>,
    /// The thread lists, kept between searches (taken out while one runs).
    scratch: Cell<Threads>,
}

impl Clone for Regex {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn clone(&self) -> Regex {
        Regex {
            program: Rc::clone(&self.program),
            pattern: self.pattern.clone(),
            scratch: Cell::new(Threads::default()),
        }
    }
}

impl fmt::Debug for Regex {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Regex({})", self.pattern)
    }
}

impl Regex {
    /// Compiles `pattern`, where `.` matches anything but `\n`.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(pattern: &str) -> Result<Regex, Error> {
        Regex::build(pattern, false)
    }

    /// Compiles `pattern`, where `.` matches `\n` too (the `s` flag on from the start, as
    /// HBase's comparator compiles with `Pattern.DOTALL`).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn dot_matches_new_line(pattern: &str) -> Result<Regex, Error> {
        Regex::build(pattern, true)
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn build(pattern: &str, dot_all: bool) -> Result<Regex, Error> {
        let tree = parse::parse(pattern, dot_all)?;
        let program = compile::compile(&tree)?;
        Ok(Regex {
            program: Rc::new(program),
            pattern: pattern.into(),
            scratch: Cell::new(Threads::default()),
        })
    }

    /// True when the pattern matches somewhere in `text`.
    pub fn is_match(&self, text: &str) -> bool {
        self.search(text.as_bytes(), false)
    }

    /// True when the pattern matches somewhere in `bytes` read as ISO-8859-1, one character a
    /// byte (as HBase's comparator reads a value), without making the text.
    pub fn is_match_latin1(&self, bytes: &[u8]) -> bool {
        self.search(bytes, true)
    }

    /// The search: at each position the threads that reached it take its character, and one
    /// more thread starts there, until one reaches the end state.
    fn search(&self, text: &[u8], latin1: bool) -> bool {
        let mut threads = self.scratch.take();
        let n = self.program.states.len();
        threads.now.fit(n);
        threads.next.fit(n);
        let found = self.run(&mut threads, text, latin1);
        self.scratch.set(threads);
        found
    }

    fn run(&self, threads: &mut Threads, text: &[u8], latin1: bool) -> bool {
        let Threads { now, next, stack } = threads;
        now.len = 0;
        next.len = 0;
        let mut at = 0;
        loop {
            if now.len == 0 && self.program.anchored && at > 0 {
                return false;
            }
            self.follow(now, stack, text, at, self.program.start);
            let (ch, len) = if latin1 {
                text.get(at).map_or(('\0', 0), |&b| (char::from(b), 1))
            } else {
                decode(text, at)
            };
            for i in 0..now.len {
                let Some(&id) = now.dense.get(i) else { break };
                let (target, hit) = match self.program.states.get(id as usize) {
                    Some(State::Match) => return true,
                    Some(&State::Char { next, ch: c }) => (next, c == ch),
                    Some(&State::Ranges { next, from, to }) => {
                        let ranges = self
                            .program
                            .ranges
                            .get(from as usize..to as usize)
                            .unwrap_or(&[]);
                        (next, in_ranges(ranges, ch))
                    }
                    _ => (0, false),
                };
                if hit && len > 0 {
                    self.follow(next, stack, text, at + len, target);
                }
            }
            if len == 0 {
                return false;
            }
            std::mem::swap(now, next);
            next.len = 0;
            at += len;
        }
    }

    /// Adds `from` and every state reachable from it without consuming (splits, and the
    /// assertions that hold at `at`) to `set`.
    fn follow(&self, set: &mut Set, stack: &mut Vec<u32>, text: &[u8], at: usize, from: u32) {
        stack.push(from);
        while let Some(mut id) = stack.pop() {
            loop {
                if !set.insert(id) {
                    break;
                }
                match self.program.states.get(id as usize) {
                    Some(&State::Goto { next, look }) => {
                        if !holds(look, text, at) {
                            break;
                        }
                        id = next;
                    }
                    Some(State::Split(targets)) => {
                        let Some((&first, rest)) = targets.split_first() else {
                            break;
                        };
                        stack.extend(rest.iter().rev());
                        id = first;
                    }
                    _ => break,
                }
            }
        }
    }
}

/// The current and the next position's threads, and the stack that follows empty steps.
#[derive(Default)]
struct Threads {
    now: Set,
    next: Set,
    stack: Vec<u32>,
}

/// A set of state ids that is emptied at no cost (Briggs and Torczon's sparse set): `dense`
/// holds the members in the order added, `sparse[id]` a member's place in `dense`.
#[derive(Default)]
struct Set {
    dense: Vec<u32>,
    sparse: Vec<u32>,
    len: usize,
}

impl Set {
    fn fit(&mut self, n: usize) {
        if self.dense.len() < n {
            self.dense.resize(n, 0);
            self.sparse.resize(n, 0);
        }
    }

    fn insert(&mut self, id: u32) -> bool {
        let Some(&place) = self.sparse.get(id as usize) else {
            return false;
        };
        if (place as usize) < self.len && self.dense.get(place as usize) == Some(&id) {
            return false;
        }
        let (Some(slot), Some(back)) = (
            self.dense.get_mut(self.len),
            self.sparse.get_mut(id as usize),
        ) else {
            return false;
        };
        *slot = id;
        *back = self.len as u32;
        self.len += 1;
        true
    }
}

fn in_ranges(ranges: &[(char, char)], ch: char) -> bool {
    for &(lo, hi) in ranges {
        if lo > ch {
            return false;
        }
        if ch <= hi {
            return true;
        }
    }
    false
}

/// The character at `at` of UTF-8 text and its length (0 at the end).
fn decode(text: &[u8], at: usize) -> (char, usize) {
    let Some(&b) = text.get(at) else {
        return ('\0', 0);
    };
    if b < 0x80 {
        return (char::from(b), 1);
    }
    let len = match b {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    };
    let mut cp = u32::from(b) & (0x7F >> len);
    for &c in text.get(at + 1..at + len).unwrap_or(&[]) {
        cp = (cp << 6) | u32::from(c & 0x3F);
    }
    (char::from_u32(cp).unwrap_or('\u{FFFD}'), len)
}

fn is_word(b: Option<&u8>) -> bool {
    b.is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Whether the assertion `look` holds at `at` (the bytes around it decide: a byte of a
/// character past ASCII is neither a word character nor a line end, in UTF-8 as in Latin-1).
fn holds(look: Look, text: &[u8], at: usize) -> bool {
    let before = at.checked_sub(1).and_then(|i| text.get(i));
    let after = text.get(at);
    let (word_before, word_after) = (is_word(before), is_word(after));
    match look {
        parse::START => at == 0,
        parse::END => at == text.len(),
        parse::START_LF => before.is_none_or(|&b| b == b'\n'),
        parse::END_LF => after.is_none_or(|&b| b == b'\n'),
        parse::START_CRLF => match before {
            None | Some(b'\n') => true,
            Some(b'\r') => after != Some(&b'\n'),
            _ => false,
        },
        parse::END_CRLF => match after {
            None | Some(b'\r') => true,
            Some(b'\n') => before != Some(&b'\r'),
            _ => false,
        },
        parse::WORD => word_before != word_after,
        parse::NOT_WORD => word_before == word_after,
        parse::WORD_START => !word_before && word_after,
        parse::WORD_END => word_before && !word_after,
        parse::WORD_START_HALF => !word_before,
        parse::WORD_END_HALF => !word_after,
        _ => true,
    }
}
