//! A stored chunk of a history's operations read straight from its text, without a value tree.
//!
//! A history holds up to 100,000 operations in chunks of 4,096, and a reload reads them all:
//! building a [`crate::json::Value`] for each (a string per number and key, a vector per
//! object) and dropping it again cost more than everything else the reload does. The chunks
//! Rowkey writes (`OpsChunk::encode`, through [`super::catalog::ops_to_json`]) have one
//! shape, byte for byte:
//!
//! ```text
//! {"first":0,"ops":[{"kind":"Write","start":"cm93MQ==","stop":null,"region":1,"tick":7,"wall_ms":1700000000000,"place":0.5},...]}
//! ```
//!
//! [`read_chunk`] reads exactly that shape and answers `None` for anything else: whitespace,
//! another member order, an escape in a string, a key as an array of bytes (as histories once
//! held), a number out of range, text that is not JSON. The caller then reads the record
//! through the value tree, which accepts every form a saved chunk may take and gives the error
//! at its JSON path. Whatever this reader accepts, the tree's reader accepts too and reads to
//! the same operations (`tests/json_fuzz.rs` and `tests/persist_codec.rs` compare the two).

use crate::engine::{Op, OpKind};
use crate::kit::base64::{self, Alphabet};

/// The chunk's first operation number and its operations, when the text has the writer's
/// shape exactly (see the module doc); `None` otherwise.
pub fn read_chunk(text: &str) -> Option<(u64, Vec<Op>)> {
    let mut t = Text { text, at: 0 };
    t.eat(br#"{"first":"#)?;
    let first = t.u64()?;
    t.eat(br#","ops":["#)?;
    // An operation takes a hundred bytes or more of text.
    let mut ops = Vec::with_capacity(text.len() / 100 + 1);
    if t.eat(b"]").is_none() {
        loop {
            ops.push(t.op()?);
            if t.eat(b",").is_none() {
                t.eat(b"]")?;
                break;
            }
        }
    }
    t.eat(b"}")?;
    t.at_end().then_some((first, ops))
}

/// A position in the text; every reader moves past what it read, or answers `None`.
struct Text<'t> {
    text: &'t str,
    at: usize,
}

impl<'t> Text<'t> {
    fn bytes(&self) -> &'t [u8] {
        self.text.as_bytes()
    }

    fn peek(&self) -> Option<u8> {
        self.bytes().get(self.at).copied()
    }

    fn at_end(&self) -> bool {
        self.at == self.text.len()
    }

    /// Exactly `literal`.
    fn eat(&mut self, literal: &[u8]) -> Option<()> {
        let end = self.at.checked_add(literal.len())?;
        (self.bytes().get(self.at..end)? == literal).then(|| self.at = end)
    }

    /// A JSON integer of 0 or above that fits a `u64`: what [`crate::json::Node::u64`] reads.
    /// A leading zero ends the number there (`01` is not JSON: the caller's next literal then
    /// fails).
    fn u64(&mut self) -> Option<u64> {
        let start = self.at;
        let mut n: u64 = 0;
        while let Some(d @ b'0'..=b'9') = self.peek() {
            n = n.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
            self.at += 1;
            if self.at - start == 1 && d == b'0' {
                break;
            }
        }
        (self.at > start).then_some(n)
    }

    /// A JSON number's text, by JSON's grammar: `-`? int frac? exp?.
    fn number(&mut self) -> Option<&'t str> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek()? {
            b'0' => self.at += 1,
            b'1'..=b'9' => self.digits(),
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            self.peek().filter(u8::is_ascii_digit)?;
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            self.peek().filter(u8::is_ascii_digit)?;
            self.digits();
        }
        self.text.get(start..self.at)
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
    }

    /// A string without escapes or control characters, its text between the quotes.
    fn plain_string(&mut self) -> Option<&'t str> {
        self.eat(b"\"")?;
        let start = self.at;
        let rest = self.bytes().get(start..)?;
        let len = rest
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        if rest.get(len) != Some(&b'"') {
            return None;
        }
        self.at = start + len + 1;
        // The string ends at an ASCII byte, so it is whole characters.
        self.text.get(start..start + len)
    }

    /// A key as base64 text.
    fn key(&mut self) -> Option<Vec<u8>> {
        base64::decode(self.plain_string()?, Alphabet::Standard).ok()
    }

    /// One operation, its members in the writer's order.
    fn op(&mut self) -> Option<Op> {
        self.eat(br#"{"kind":"#)?;
        let kind = if self.eat(br#""Read""#).is_some() {
            OpKind::Read
        } else {
            self.eat(br#""Write""#)?;
            OpKind::Write
        };
        self.eat(br#","start":"#)?;
        let start = self.key()?;
        self.eat(br#","stop":"#)?;
        let stop = if self.eat(b"null").is_some() {
            None
        } else {
            Some(self.key()?)
        };
        self.eat(br#","region":"#)?;
        let region = self.u64()?;
        self.eat(br#","tick":"#)?;
        let tick = self.u64()?;
        self.eat(br#","wall_ms":"#)?;
        let wall_ms = self.u64()?;
        self.eat(br#","place":"#)?;
        // As `Node::f64` reads it: a finite float.
        let place = crate::decimal::parse_f64(self.number()?).filter(|x| x.is_finite())?;
        self.eat(b"}")?;
        Some(Op {
            kind,
            start,
            stop,
            region,
            tick,
            wall_ms,
            place: place as f32,
        })
    }
}
