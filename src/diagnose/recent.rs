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
use std::collections::{BTreeSet, VecDeque};

use super::key_shape::trailing_number;
use super::WINDOW;
use crate::engine::{Activity, Op, OpKind};
use crate::kit::hash::FastMap;

/// The summaries. See the module doc.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Recent {
    /// The sequence number of the next operation to take in.
    next: u64,
    /// The last operation taken in, to tell the same history from another.
    last: Option<Op>,
    /// The first operation of the operations' window (`ops_from..next`).
    ops_from: u64,
    /// The writes' window, oldest first: each write's sequence number, row, and whether it
    /// went to the last (`Some(true)`) or the first (`Some(false)`) keys.
    writes: VecDeque<(u64, Vec<u8>, Option<bool>)>,
    /// Writes per row in the writes' window.
    write_rows: FastMap<Vec<u8>, usize>,
    /// Writes in the window at the last keys and at the first.
    at_last: usize,
    at_first: usize,
    /// Single-row operations per row in the operations' window, and the same ranked: most
    /// first, then by key.
    op_rows: FastMap<Vec<u8>, usize>,
    op_rank: BTreeSet<(Reverse<usize>, Vec<u8>)>,
    /// Operations in the operations' window, and of them the reads of a range.
    ops: usize,
    range_reads: usize,
    /// Per key prefix (a key without its trailing number), its writes' numbers in the writes'
    /// window, oldest first, and how often the number rose and fell from one to the next.
    prefixes: FastMap<Vec<u8>, Run>,
    /// The prefixes ranked: most writes first, then by key.
    prefix_rank: BTreeSet<(Reverse<usize>, Vec<u8>)>,
}

#[derive(Clone, Debug, Default, PartialEq)]
struct Run {
    numbers: VecDeque<u64>,
    up: usize,
    down: usize,
}

/// One key prefix's writes in the window, and how often its number rose and fell from one
/// write to the next under it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PrefixRun {
    pub prefix: Vec<u8>,
    pub writes: usize,
    pub up: usize,
    pub down: usize,
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
    /// The row most single-row operations hit (of rows hit as often, the first in key order),
    /// and how many.
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
        self.last = end.checked_sub(1).and_then(|s| activity.op(s)).cloned();
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
            Some(seq) => activity.op(seq) == self.last.as_ref(),
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
        self.last = end.checked_sub(1).and_then(|s| activity.op(s)).cloned();
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
        rank_step(&mut self.op_rows, &mut self.op_rank, &op.start, 1);
    }

    fn let_go_of_op(&mut self, op: &Op) {
        self.ops = self.ops.saturating_sub(1);
        if op.stop.is_some() {
            if op.kind == OpKind::Read {
                self.range_reads = self.range_reads.saturating_sub(1);
            }
            return;
        }
        rank_step(&mut self.op_rows, &mut self.op_rank, &op.start, -1);
    }

    fn take_in_write(&mut self, seq: u64, op: &Op) {
        let end = end_of(op.place);
        match end {
            Some(true) => self.at_last += 1,
            Some(false) => self.at_first += 1,
            None => {}
        }
        *self.write_rows.entry(op.start.clone()).or_default() += 1;
        if let Some((prefix, n)) = trailing_number(&op.start) {
            let run = self.prefixes.entry(prefix.to_vec()).or_default();
            match run.numbers.back() {
                Some(prev) if n > *prev => run.up += 1,
                Some(prev) if n < *prev => run.down += 1,
                _ => {}
            }
            run.numbers.push_back(n);
            let writes = run.numbers.len();
            if writes > 1 {
                self.prefix_rank
                    .remove(&(Reverse(writes - 1), prefix.to_vec()));
            }
            self.prefix_rank.insert((Reverse(writes), prefix.to_vec()));
        }
        self.writes.push_back((seq, op.start.clone(), end));
    }

    /// Lets go of the oldest writes while the window holds more than [`WINDOW`] or they are
    /// older than the activity's oldest operation kept.
    fn trim_writes(&mut self, first_kept: u64) {
        while let Some((seq, _, _)) = self.writes.front() {
            if self.writes.len() <= WINDOW && *seq >= first_kept {
                break;
            }
            let Some((_, row, end)) = self.writes.pop_front() else {
                break;
            };
            match end {
                Some(true) => self.at_last = self.at_last.saturating_sub(1),
                Some(false) => self.at_first = self.at_first.saturating_sub(1),
                None => {}
            }
            if let Some(c) = self.write_rows.get_mut(&row) {
                *c -= 1;
                if *c == 0 {
                    self.write_rows.remove(&row);
                }
            }
            if let Some((prefix, _)) = trailing_number(&row) {
                self.let_go_of_prefix_write(prefix);
            }
        }
    }

    /// The oldest write under `prefix` leaves the window, and with it the step to the next.
    fn let_go_of_prefix_write(&mut self, prefix: &[u8]) {
        let Some(run) = self.prefixes.get_mut(prefix) else {
            return;
        };
        let writes = run.numbers.len();
        let gone = run.numbers.pop_front();
        match (gone, run.numbers.front()) {
            (Some(a), Some(b)) if *b > a => run.up -= 1,
            (Some(a), Some(b)) if *b < a => run.down -= 1,
            _ => {}
        }
        self.prefix_rank.remove(&(Reverse(writes), prefix.to_vec()));
        if run.numbers.is_empty() {
            self.prefixes.remove(prefix);
        } else {
            self.prefix_rank
                .insert((Reverse(writes - 1), prefix.to_vec()));
        }
    }

    /// What the rules read, in figures.
    pub fn window(&self) -> Window {
        Window {
            writes: self.writes.len(),
            write_rows: self.write_rows.len(),
            newest_write: self.writes.back().map(|(_, row, _)| row.clone()),
            writes_at_last: self.at_last,
            writes_at_first: self.at_first,
            ops: self.ops,
            range_reads: self.range_reads,
            hot_row: self
                .op_rank
                .first()
                .map(|(Reverse(n), row)| (row.clone(), *n)),
            top_prefixes: self
                .prefix_rank
                .iter()
                .take(TOP_PREFIXES)
                .filter_map(|(Reverse(writes), prefix)| {
                    let run = self.prefixes.get(prefix)?;
                    Some(PrefixRun {
                        prefix: prefix.clone(),
                        writes: *writes,
                        up: run.up,
                        down: run.down,
                    })
                })
                .collect(),
        }
    }

    /// Writes to `row` in the writes' window.
    pub fn writes_to(&self, row: &[u8]) -> usize {
        self.write_rows.get(row).copied().unwrap_or(0)
    }
}

/// Counts one more (`1`) or one fewer (`-1`) operation on `row`, keeping its rank.
fn rank_step(
    counts: &mut FastMap<Vec<u8>, usize>,
    rank: &mut BTreeSet<(Reverse<usize>, Vec<u8>)>,
    row: &[u8],
    step: isize,
) {
    let before = counts.get(row).copied().unwrap_or(0);
    let after = before.saturating_add_signed(step);
    if before == after {
        return;
    }
    let mut key = (Reverse(before), row.to_vec());
    if before > 0 {
        rank.remove(&key);
    }
    match counts.get_mut(row) {
        Some(c) if after > 0 => *c = after,
        Some(_) => {
            counts.remove(row);
        }
        None => {
            counts.insert(row.to_vec(), after);
        }
    }
    if after > 0 {
        key.0 = Reverse(after);
        rank.insert(key);
    }
}
