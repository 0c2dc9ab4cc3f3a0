//! The diagnosis's summaries of a table's last operations, kept as operations come and go.
//!
//! The rules look back over the last [`WINDOW`] writes and the last [`WINDOW`] operations of
//! either kind. Counting those again at every write (rows in hash maps, the writes at either
//! end of the keys, the key prefixes' runs) cost the hotspots view milliseconds a write at ten
//! million cells. A [`Recent`] follows a table's [`Activity`] by its operations' sequence
//! numbers instead: [`Recent::follow`] takes in the operations recorded since it last looked
//! and lets go of the ones that left the windows, so the work after one write is that write's
//! (and the one or two operations it pushes out). When it cannot follow (another history, or
//! more operations since than the activity still keeps) it counts again from scratch, as
//! [`Recent::of`] does; a test holds the two equal, field for field, over evictions and splits.

use std::cmp::Reverse;
use std::collections::VecDeque;

use super::key_shape::trailing_number;
use super::WINDOW;
use crate::engine::{Activity, Op, OpKind};
use crate::kit::hash::FastMap;
use crate::kit::sorted::SortedSet;

/// The summaries. See the module doc. Every map is one type, keyed by a row or a prefix,
/// counting in `u64` (one instance of the hash map's code in the download).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Recent {
    /// The sequence number of the next operation to take in.
    next: u64,
    /// The tick of the last operation taken in, to tell the same history from another (a tick
    /// is one command's, on one table).
    last_tick: Option<u64>,
    /// The first operation of the operations' window (`ops_from..next`).
    ops_from: u64,
    /// The writes' window, oldest first.
    writes: VecDeque<Write>,
    /// Writes per row in the writes' window.
    write_rows: Counts,
    /// Writes in the window at the last keys and at the first.
    at_last: usize,
    at_first: usize,
    /// Single-row operations per row in the operations' window, and the rows hit more than
    /// once ranked: most first, then by key (a row hit once is never the hot row's share of
    /// 200 operations or more, and a random workload's rows, each hit once, stay out).
    op_rows: Counts,
    op_rank: Rank,
    /// Operations in the operations' window, and of them the reads of a range.
    ops: usize,
    range_reads: usize,
    /// Per key prefix (a key without its trailing number): its writes in the writes' window,
    /// ranked (most first, then by key); how often the number rose and fell from one of its
    /// writes to the next; and the sequence number of its newest write.
    prefix_writes: Counts,
    prefix_rank: Rank,
    prefix_up: Counts,
    prefix_down: Counts,
    /// Per key prefix: how far its number rose in all, over the rising steps, and fell over
    /// the falling ones (each step counted up to [`STEP_CAP`]). A sawtooth (reversed ids:
    /// 002101, 102101, …, 902101, 012101) rises at nine steps in ten but falls as far as it
    /// rose: its writes do not gather at the prefix's end.
    prefix_rise: Counts,
    prefix_fall: Counts,
    prefix_newest: Counts,
}

/// The most one step of a prefix's number counts for in its rise or fall, so that the sums of
/// a window's steps stay far inside a `u64`.
const STEP_CAP: u64 = 1 << 40;

/// How far a prefix's number moved from `from` to `to`: up (`true`) or down, and by how much,
/// up to [`STEP_CAP`]; `None` when it did not move.
fn movement(from: u64, to: u64) -> Option<(bool, i64)> {
    let by = |d: u64| i64::try_from(d.min(STEP_CAP)).unwrap_or(i64::MAX);
    match to.cmp(&from) {
        std::cmp::Ordering::Greater => Some((true, by(to - from))),
        std::cmp::Ordering::Less => Some((false, by(from - to))),
        std::cmp::Ordering::Equal => None,
    }
}

type Counts = FastMap<Vec<u8>, u64>;
type Rank = SortedSet<(Reverse<u64>, Vec<u8>)>;

/// A write in the window.
#[derive(Clone, Debug, PartialEq)]
struct Write {
    seq: u64,
    row: Vec<u8>,
    /// Whether it went to the last (`Some(true)`) or the first (`Some(false)`) keys.
    end: Option<bool>,
    /// The row's trailing number, and the next write's under the same prefix (once there is
    /// one): the step between them leaves with this write.
    number: Option<u64>,
    next_number: Option<u64>,
}

/// One key prefix's writes in the window, and how often its number rose and fell from one
/// write to the next under it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PrefixRun {
    pub prefix: Vec<u8>,
    pub writes: usize,
    pub up: usize,
    pub down: usize,
    /// How far the number rose in all over the rising steps, and fell over the falling ones.
    pub rise: u64,
    pub fall: u64,
}

/// What the rules read of the windows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Window {
    /// Writes in the writes' window, rows among them, and the newest's row.
    pub writes: usize,
    pub write_rows: usize,
    pub newest_write: Option<Vec<u8>>,
    /// Writes whose row was, when written, among the last keys (place at least 0.999) and
    /// among the first (at most 0.001).
    pub writes_at_last: usize,
    pub writes_at_first: usize,
    /// Operations in the operations' window, and the reads of a range among them.
    pub ops: usize,
    pub range_reads: usize,
    /// The row most single-row operations hit, when more than once (of rows hit as often, the
    /// first in key order), and how many.
    pub hot_row: Option<(Vec<u8>, usize)>,
    /// The four key prefixes with the most writes, most first (then by key).
    pub top_prefixes: Vec<PrefixRun>,
}

/// Key prefixes the rules look at.
const TOP_PREFIXES: usize = 4;

/// Which end of the keys a place lies at, if either.
fn end_of(place: f32) -> Option<bool> {
    if place >= 0.999 {
        Some(true)
    } else if place <= 0.001 {
        Some(false)
    } else {
        None
    }
}

impl Recent {
    pub fn new() -> Recent {
        Recent::default()
    }

    /// The summaries of `activity` counted from scratch.
    pub fn of(activity: &Activity) -> Recent {
        let mut r = Recent::new();
        r.rebuild(activity);
        r
    }

    /// Brings the summaries up to `activity`'s newest operation: see the module doc.
    pub fn follow(&mut self, activity: &Activity) {
        if !self.can_follow(activity) {
            self.rebuild(activity);
            return;
        }
        let end = activity.recorded();
        for seq in self.next..end {
            if let Some(op) = activity.op(seq) {
                self.take_in(seq, op);
            }
        }
        self.next = end;
        self.last_tick = Recent::tick_of(activity, end);
        let ops_from = activity.first_seq().max(end.saturating_sub(WINDOW as u64));
        for seq in self.ops_from..ops_from {
            if let Some(op) = activity.op(seq) {
                self.let_go_of_op(op);
            }
        }
        self.ops_from = self.ops_from.max(ops_from);
        self.trim_writes(activity.first_seq());
    }

    /// Whether `activity` is the history followed so far, with every operation to take in or
    /// let go of still kept.
    fn can_follow(&self, activity: &Activity) -> bool {
        let first = activity.first_seq();
        let same = match self.next.checked_sub(1) {
            None => true,
            Some(seq) => activity.op(seq).map(|o| o.tick) == self.last_tick,
        };
        same && self.next <= activity.recorded() && self.ops_from >= first
    }

    fn rebuild(&mut self, activity: &Activity) {
        *self = Recent::new();
        let end = activity.recorded();
        // The writes' window reaches back to the last WINDOW writes however many reads lie
        // between; the operations' window over the last WINDOW operations.
        let mut write_seqs: Vec<u64> = Vec::with_capacity(WINDOW);
        for (back, op) in activity.ops().rev().enumerate() {
            if write_seqs.len() == WINDOW {
                break;
            }
            if op.kind == OpKind::Write {
                write_seqs.push(end - 1 - back as u64);
            }
        }
        for seq in write_seqs.into_iter().rev() {
            if let Some(op) = activity.op(seq) {
                self.take_in_write(seq, op);
            }
        }
        self.ops_from = activity.first_seq().max(end.saturating_sub(WINDOW as u64));
        for seq in self.ops_from..end {
            if let Some(op) = activity.op(seq) {
                self.take_in_op(op);
            }
        }
        self.next = end;
        self.last_tick = Recent::tick_of(activity, end);
    }

    /// The tick of the operation before `seq`.
    fn tick_of(activity: &Activity, seq: u64) -> Option<u64> {
        activity.op(seq.checked_sub(1)?).map(|o| o.tick)
    }

    fn take_in(&mut self, seq: u64, op: &Op) {
        self.take_in_op(op);
        if op.kind == OpKind::Write {
            self.take_in_write(seq, op);
        }
    }

    fn take_in_op(&mut self, op: &Op) {
        self.ops += 1;
        if op.stop.is_some() {
            if op.kind == OpKind::Read {
                self.range_reads += 1;
            }
            return;
        }
        step(&mut self.op_rows, Some(&mut self.op_rank), &op.start, 1, 2);
    }

    fn let_go_of_op(&mut self, op: &Op) {
        self.ops = self.ops.saturating_sub(1);
        if op.stop.is_some() {
            if op.kind == OpKind::Read {
                self.range_reads = self.range_reads.saturating_sub(1);
            }
            return;
        }
        step(&mut self.op_rows, Some(&mut self.op_rank), &op.start, -1, 2);
    }

    fn take_in_write(&mut self, seq: u64, op: &Op) {
        let end = end_of(op.place);
        match end {
            Some(true) => self.at_last += 1,
            Some(false) => self.at_first += 1,
            None => {}
        }
        step(&mut self.write_rows, None, &op.start, 1, 0);
        let number = trailing_number(&op.start).map(|(prefix, n)| {
            // The step from the prefix's newest write to this one.
            let before = self.prefix_newest.get(prefix).copied();
            let at = before.and_then(|s| self.writes.binary_search_by_key(&s, |w| w.seq).ok());
            if let Some(prev) = at.and_then(|i| self.writes.get_mut(i)) {
                prev.next_number = Some(n);
                if let Some(moved) = prev.number.and_then(|p| movement(p, n)) {
                    self.count_step(prefix, moved, 1);
                }
            }
            self.prefix_newest.insert(prefix.to_vec(), seq);
            step(
                &mut self.prefix_writes,
                Some(&mut self.prefix_rank),
                prefix,
                1,
                1,
            );
            n
        });
        self.writes.push_back(Write {
            seq,
            row: op.start.clone(),
            end,
            number,
            next_number: None,
        });
    }

    /// Lets go of the oldest writes while the window holds more than [`WINDOW`] or they are
    /// older than the activity's oldest operation kept.
    fn trim_writes(&mut self, first_kept: u64) {
        while let Some(w) = self.writes.front() {
            if self.writes.len() <= WINDOW && w.seq >= first_kept {
                break;
            }
            let Some(w) = self.writes.pop_front() else {
                break;
            };
            match w.end {
                Some(true) => self.at_last = self.at_last.saturating_sub(1),
                Some(false) => self.at_first = self.at_first.saturating_sub(1),
                None => {}
            }
            step(&mut self.write_rows, None, &w.row, -1, 0);
            let (Some((prefix, _)), Some(n)) = (trailing_number(&w.row), w.number) else {
                continue;
            };
            // The oldest write under its prefix: the step to the next leaves with it.
            match w.next_number {
                Some(next) => {
                    if let Some(moved) = movement(n, next) {
                        self.count_step(prefix, moved, -1);
                    }
                }
                None => {
                    self.prefix_newest.remove(prefix);
                }
            }
            step(
                &mut self.prefix_writes,
                Some(&mut self.prefix_rank),
                prefix,
                -1,
                1,
            );
        }
    }

    /// Counts (`sign` 1) or lets go of (-1) one step of `prefix`'s number: up or down, and
    /// how far.
    fn count_step(&mut self, prefix: &[u8], (up, by): (bool, i64), sign: i64) {
        let (steps, sum) = if up {
            (&mut self.prefix_up, &mut self.prefix_rise)
        } else {
            (&mut self.prefix_down, &mut self.prefix_fall)
        };
        step(steps, None, prefix, sign, 0);
        step(sum, None, prefix, sign.saturating_mul(by), 0);
    }

    /// What the rules read, in figures.
    pub fn window(&self) -> Window {
        let sum = |map: &Counts, key: &[u8]| map.get(key).copied().unwrap_or(0);
        let count = |map: &Counts, key: &[u8]| sum(map, key) as usize;
        Window {
            writes: self.writes.len(),
            write_rows: self.write_rows.len(),
            newest_write: self.writes.back().map(|w| w.row.clone()),
            writes_at_last: self.at_last,
            writes_at_first: self.at_first,
            ops: self.ops,
            range_reads: self.range_reads,
            hot_row: self
                .op_rank
                .first()
                .map(|(Reverse(n), row)| (row.clone(), *n as usize)),
            top_prefixes: self
                .prefix_rank
                .iter()
                .take(TOP_PREFIXES)
                .map(|(Reverse(writes), prefix)| PrefixRun {
                    prefix: prefix.clone(),
                    writes: *writes as usize,
                    up: count(&self.prefix_up, prefix),
                    down: count(&self.prefix_down, prefix),
                    rise: sum(&self.prefix_rise, prefix),
                    fall: sum(&self.prefix_fall, prefix),
                })
                .collect(),
        }
    }

    /// Writes to `row` in the writes' window.
    pub fn writes_to(&self, row: &[u8]) -> usize {
        self.write_rows.get(row).copied().unwrap_or(0) as usize
    }
}

/// Counts one more (`1`) or one fewer (`-1`) of `key` (a count of 0 is no entry), keeping its
/// place in `rank`, if given, while the count is at least `ranked_from`.
fn step(counts: &mut Counts, rank: Option<&mut Rank>, key: &[u8], by: i64, ranked_from: u64) {
    let before = counts.get(key).copied().unwrap_or(0);
    let after = before.saturating_add_signed(by);
    if before == after {
        return;
    }
    match counts.get_mut(key) {
        Some(c) if after > 0 => *c = after,
        Some(_) => {
            counts.remove(key);
        }
        None => {
            counts.insert(key.to_vec(), after);
        }
    }
    if let Some(rank) = rank {
        let mut entry = (Reverse(before), key.to_vec());
        if before >= ranked_from.max(1) {
            rank.remove(&entry);
        }
        if after >= ranked_from.max(1) {
            entry.0 = Reverse(after);
            rank.insert(entry);
        }
    }
}
