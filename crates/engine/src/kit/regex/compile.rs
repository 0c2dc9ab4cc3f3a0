//! The parsed pattern compiled into a Thompson automaton of [`State`]s, state for state as
//! regex-lite 0.1 compiles it, so that its size limit (10 MiB, counted as regex-lite counts
//! its program on a 64-bit machine) refuses the same patterns. Recursion follows the tree,
//! whose height the parser bounds.

use super::parse::{Kind, Look, Node, NONE};
use super::Error;

/// One state of the automaton; `next` is the state that follows.
pub(super) enum State {
    /// One character.
    Char { next: u32, ch: char },
    /// One character within `ranges[from..to]` of the program.
    Ranges { next: u32, from: u32, to: u32 },
    /// Any of the targets, without consuming.
    Split(Vec<u32>),
    /// On to `next` when the assertion holds (always for [`NONE`]), without consuming.
    Goto { next: u32, look: Look },
    /// Never matches (an empty class, an empty alternation).
    Fail,
    /// The pattern matched.
    Match,
}

/// The compiled automaton.
pub(super) struct Program {
    pub(super) states: Vec<State>,
    pub(super) ranges: Vec<(char, char)>,
    pub(super) start: u32,
    /// True when the pattern can only match at the start of the text.
    pub(super) anchored: bool,
}

/// regex-lite's default size limit, and what it counts: each state 32 bytes (its `State` on a
/// 64-bit machine), each class range 8, each split target 4, each capture group 16 and a
/// group's name its length and 4.
const SIZE_LIMIT: usize = 10 << 20;
const STATE_BYTES: usize = 32;
const RANGE_BYTES: usize = 8;
const TARGET_BYTES: usize = 4;
const GROUP_BYTES: usize = 16;

const ERR_SIZE_LIMIT: &str = "compiled regex exceeded size limit";

/// A compiled piece: where it starts and the state its end is patched from.
#[derive(Clone, Copy)]
struct Piece {
    start: u32,
    end: u32,
}

struct Compiler {
    program: Program,
    /// The program's size as regex-lite counts it.
    size: usize,
    /// Capture groups met so far (the whole pattern is group 0).
    groups: usize,
    /// Set once the program is over the size limit: nothing more is added, the loops stop,
    /// and the pattern is refused.
    over: bool,
}

/// Compiles `node`, refusing a program over the size limit.
#[cfg_attr(rowkey_cold, optimize(size))]
pub(super) fn compile(node: &Node) -> Result<Program, Error> {
    let mut c = Compiler {
        program: Program {
            states: Vec::new(),
            ranges: Vec::new(),
            start: 0,
            anchored: node.anchored,
        },
        size: 0,
        groups: 0,
        over: false,
    };
    let whole = c.capture(0, 0, node);
    let done = c.add(State::Match);
    c.patch(whole.end, done);
    if c.over {
        return Err(Error {
            message: ERR_SIZE_LIMIT,
        });
    }
    c.program.start = whole.start;
    Ok(c.program)
}

impl Compiler {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn check(&mut self) {
        if self.size > SIZE_LIMIT {
            self.over = true;
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn add(&mut self, state: State) -> u32 {
        if self.over {
            return 0;
        }
        // Under the limit, the ids fit (10 MiB holds 327,680 states).
        let id = self.program.states.len() as u32;
        self.size += STATE_BYTES;
        if let State::Ranges { from, to, .. } = state {
            self.size += (to - from) as usize * RANGE_BYTES;
        }
        self.program.states.push(state);
        self.check();
        id
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn patch(&mut self, from: u32, to: u32) {
        match self.program.states.get_mut(from as usize) {
            Some(
                State::Char { next, .. } | State::Ranges { next, .. } | State::Goto { next, .. },
            ) => *next = to,
            Some(State::Split(targets)) => {
                targets.push(to);
                self.size += TARGET_BYTES;
                self.check();
            }
            _ => {}
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn single(&mut self, state: State) -> Piece {
        let id = self.add(state);
        Piece { start: id, end: id }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn empty(&mut self) -> u32 {
        self.add(State::Goto {
            next: 0,
            look: NONE,
        })
    }

    /// An empty piece: one state that consumes nothing.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn nothing(&mut self) -> Piece {
        let id = self.empty();
        Piece { start: id, end: id }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn split(&mut self) -> u32 {
        self.add(State::Split(Vec::new()))
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn node(&mut self, node: &Node) -> Piece {
        match &node.kind {
            Kind::Empty => self.nothing(),
            Kind::Char(ch) => self.single(State::Char { next: 0, ch: *ch }),
            Kind::Class(ranges) if ranges.is_empty() => self.single(State::Fail),
            Kind::Class(ranges) => {
                let from = self.program.ranges.len() as u32;
                self.program.ranges.extend_from_slice(ranges);
                let to = self.program.ranges.len() as u32;
                self.single(State::Ranges { next: 0, from, to })
            }
            Kind::Look(look) => self.single(State::Goto {
                next: 0,
                look: *look,
            }),
            Kind::Repeat { min, max, sub } => match (*min, *max) {
                (0, Some(1)) => self.zero_or_one(sub),
                (min, None) => self.at_least(sub, min),
                (min, Some(max)) if min == max => self.exactly(sub, min),
                (min, Some(max)) => self.bounded(sub, min, max),
            },
            Kind::Capture {
                index,
                name_len,
                sub,
            } => self.capture(*index, *name_len, sub),
            Kind::Concat(subs) => {
                let mut whole: Option<Piece> = None;
                for sub in subs {
                    let piece = self.node(sub);
                    whole = Some(self.join(whole, piece));
                }
                match whole {
                    Some(whole) => whole,
                    None => self.nothing(),
                }
            }
            Kind::Alternation(subs) => self.alternation(subs),
        }
    }

    /// `first` followed by `then`.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn join(&mut self, first: Option<Piece>, then: Piece) -> Piece {
        let Some(first) = first else { return then };
        self.patch(first.end, then.start);
        Piece {
            start: first.start,
            end: then.end,
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn alternation(&mut self, subs: &[Node]) -> Piece {
        let (Some(a), Some(b)) = (subs.first(), subs.get(1)) else {
            return match subs.first() {
                Some(only) => self.node(only),
                None => self.single(State::Fail),
            };
        };
        let first = self.node(a);
        let second = self.node(b);
        let split = self.split();
        let end = self.empty();
        for piece in [first, second] {
            self.patch(split, piece.start);
            self.patch(piece.end, end);
        }
        for sub in subs.iter().skip(2) {
            let piece = self.node(sub);
            self.patch(split, piece.start);
            self.patch(piece.end, end);
        }
        Piece { start: split, end }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn exactly(&mut self, sub: &Node, n: u32) -> Piece {
        let mut whole: Option<Piece> = None;
        for _ in 0..n {
            if self.over {
                break;
            }
            let piece = self.node(sub);
            whole = Some(self.join(whole, piece));
        }
        match whole {
            Some(whole) => whole,
            None => self.nothing(),
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn bounded(&mut self, sub: &Node, min: u32, max: u32) -> Piece {
        let prefix = self.exactly(sub, min);
        let empty = self.empty();
        let mut end = prefix.end;
        for _ in min..max {
            if self.over {
                break;
            }
            let split = self.split();
            let piece = self.node(sub);
            self.patch(end, split);
            self.patch(split, piece.start);
            self.patch(split, empty);
            end = piece.end;
        }
        self.patch(end, empty);
        Piece {
            start: prefix.start,
            end: empty,
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn at_least(&mut self, sub: &Node, n: u32) -> Piece {
        if n == 0 && !sub.empty {
            let split = self.split();
            let piece = self.node(sub);
            self.patch(split, piece.start);
            self.patch(piece.end, split);
            return Piece {
                start: split,
                end: split,
            };
        }
        if n == 0 {
            let piece = self.node(sub);
            let plus = self.split();
            self.patch(piece.end, plus);
            self.patch(plus, piece.start);
            let question = self.split();
            let empty = self.empty();
            self.patch(question, piece.start);
            self.patch(question, empty);
            self.patch(plus, empty);
            return Piece {
                start: question,
                end: empty,
            };
        }
        let prefix = if n > 1 {
            Some(self.exactly(sub, n - 1))
        } else {
            None
        };
        let last = self.node(sub);
        let split = self.split();
        if let Some(prefix) = prefix {
            self.patch(prefix.end, last.start);
        }
        self.patch(last.end, split);
        self.patch(split, last.start);
        Piece {
            start: prefix.map_or(last.start, |p| p.start),
            end: split,
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn zero_or_one(&mut self, sub: &Node) -> Piece {
        let split = self.split();
        let piece = self.node(sub);
        let empty = self.empty();
        self.patch(split, piece.start);
        self.patch(split, empty);
        self.patch(piece.end, empty);
        Piece {
            start: split,
            end: empty,
        }
    }

    /// A capture group: two empty states around its inside (nothing is captured; they are
    /// there because regex-lite's size limit counts them).
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn capture(&mut self, index: u32, name_len: usize, sub: &Node) -> Piece {
        let index = index as usize;
        if index >= self.groups {
            self.size += (index + 1 - self.groups) * GROUP_BYTES;
            self.groups = index + 1;
            if name_len > 0 {
                self.size += name_len + 4;
            }
        }
        let start = self.empty();
        let inner = self.node(sub);
        let end = self.empty();
        self.patch(start, inner.start);
        self.patch(inner.end, end);
        Piece { start, end }
    }
}
