//! A/B compare: two key designs of one world run the same workload, side by side. A pair
//! defines its workload once, as logical events (users signing up, metric readings, follows)
//! drawn from a seeded generator with the world's skew; each side expresses the events in its
//! own key scheme. Both sides run on a shell of their own (a fresh engine), so the comparison
//! never touches the person's tables: the history is loaded, then the write stream is
//! measured, then the reads, with the measures of [`lesson`].
//!
//! This file is the framework (sides, runs, relations between the sides); each pair lives in a
//! file of its own under `compare/`.

mod long_vs_short_names;
mod plain_vs_reversed_domains;
mod plain_vs_salted;
mod sequential_vs_hashed;
mod timestamp_vs_metric_first;
mod wide_vs_tall;

use super::lesson::{self, Claim, Measure, Measures, Rel};
use crate::shell::Shell;

/// Which half of a run a figure comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Writes,
    Reads,
}

impl Phase {
    pub fn label(self) -> &'static str {
        match self {
            Phase::Writes => "write stream",
            Phase::Reads => "reads",
        }
    }
}

/// One side of a pair: a key scheme and the workload written in it.
#[derive(Clone, Debug)]
pub struct Side {
    pub label: &'static str,
    /// The row key, as a pattern: `<id>`, `md5(<id>)[0..8]:<id>`.
    pub key: &'static str,
    pub table: &'static str,
    /// Creates the table and loads the history (not measured).
    pub setup: String,
    /// The write stream: `write_actions` logical actions.
    pub writes: String,
    /// The reads: `read_actions` logical questions.
    pub reads: String,
    /// The side's lesson, as relations over its own figures.
    pub claims: Vec<(Phase, Claim)>,
}

impl Side {
    /// A side with its three scripts and no claims yet: the pair adds them once both sides
    /// exist, since a claim may compare the two.
    pub(super) fn new(
        label: &'static str,
        key: &'static str,
        table: &'static str,
        setup: String,
        writes: String,
        reads: String,
    ) -> Side {
        Side {
            label,
            key,
            table,
            setup,
            writes,
            reads,
            claims: Vec::new(),
        }
    }
}

/// A relation between the two sides: A's measure `rel` `factor` × B's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Versus {
    pub phase: Phase,
    pub measure: Measure,
    pub rel: Rel,
    pub factor: f64,
}

impl Versus {
    pub fn holds(&self, a: &SideRun, b: &SideRun) -> bool {
        self.rel.holds(
            a.get(self.phase).get(self.measure),
            self.factor * b.get(self.phase).get(self.measure),
        )
    }

    /// `A's rows scanned (400) > 4 × B's rows scanned (20)`.
    pub fn explain(&self, a: &SideRun, b: &SideRun) -> String {
        // A factor keeps its exact digits (0.125, not 0.1): it is part of the relation.
        let factor = if self.factor == 1.0 {
            String::new()
        } else {
            let digits = format!("{:.3}", self.factor);
            format!("{} × ", digits.trim_end_matches('0').trim_end_matches('.'))
        };
        format!(
            "A's {m} ({}) {} {factor}B's {m} ({})",
            lesson::number(a.get(self.phase).get(self.measure)),
            self.rel.symbol(),
            lesson::number(b.get(self.phase).get(self.measure)),
            m = self.measure.label(),
        )
    }
}

/// Two designs of one world and the workload they share.
#[derive(Clone, Debug)]
pub struct Pair {
    pub id: &'static str,
    pub title: &'static str,
    /// The workload, in words: what is written and what is asked.
    pub workload: &'static str,
    /// What the comparison shows.
    pub why: &'static str,
    /// The gallery designs that teach the same lesson.
    pub designs: &'static [&'static str],
    pub write_actions: u64,
    pub read_actions: u64,
    pub a: Side,
    pub b: Side,
    pub versus: Vec<Versus>,
}

/// What one side's run produced.
#[derive(Clone, Debug)]
pub struct SideRun {
    pub writes: Measures,
    pub reads: Measures,
    /// Each claim of the side, with whether it held.
    pub checks: Vec<(Phase, Claim, bool)>,
    /// Regions of the table after the run.
    pub regions: u64,
    /// Rows in the table after the run.
    pub rows: u64,
}

impl SideRun {
    pub fn get(&self, phase: Phase) -> &Measures {
        match phase {
            Phase::Writes => &self.writes,
            Phase::Reads => &self.reads,
        }
    }

    pub fn all_hold(&self) -> bool {
        self.checks.iter().all(|c| c.2)
    }
}

impl Side {
    /// Runs the side on `shell` (which should hold nothing of its own): setup, then the
    /// measured writes and reads. The error names the failed command.
    pub fn run(
        &self,
        shell: &mut Shell,
        write_actions: u64,
        read_actions: u64,
    ) -> Result<SideRun, String> {
        if let Some((o, e)) = shell
            .run(&self.setup)
            .into_iter()
            .find_map(|o| o.error.clone().map(|e| (o, e)))
        {
            return Err(format!("{}: {}", o.input, e.message));
        }
        let tables = [self.table];
        let (writes, _) = lesson::run_measured(shell, &tables, &self.writes, write_actions)?;
        let (reads, _) = lesson::run_measured(shell, &tables, &self.reads, read_actions)?;
        let (regions, rows) = shell
            .engine
            .table(self.table)
            .map(|t| (t.regions.len() as u64, t.keys.row_count() as u64))
            .unwrap_or((0, 0));
        let checks = self
            .claims
            .iter()
            .map(|(phase, c)| {
                let m = if *phase == Phase::Writes {
                    &writes
                } else {
                    &reads
                };
                (*phase, *c, c.holds(m))
            })
            .collect();
        Ok(SideRun {
            writes,
            reads,
            checks,
            regions,
            rows,
        })
    }
}

impl Pair {
    /// Runs both sides, each on the shell `fresh` makes.
    pub fn run(&self, mut fresh: impl FnMut() -> Shell) -> Result<(SideRun, SideRun), String> {
        let a = self
            .a
            .run(&mut fresh(), self.write_actions, self.read_actions)?;
        let b = self
            .b
            .run(&mut fresh(), self.write_actions, self.read_actions)?;
        Ok((a, b))
    }
}

/// Every pair.
pub fn pairs() -> Vec<Pair> {
    vec![
        sequential_vs_hashed::sequential_vs_hashed(),
        timestamp_vs_metric_first::timestamp_vs_metric_first(),
        wide_vs_tall::wide_vs_tall(),
        plain_vs_salted::plain_vs_salted(),
        long_vs_short_names::long_vs_short_names(),
        plain_vs_reversed_domains::plain_vs_reversed_domains(),
    ]
}

/// The pairs, built once per thread and shared: building one writes out its whole workload,
/// and the gallery lists the pairs on every render.
pub fn shared() -> std::rc::Rc<[Pair]> {
    thread_local! {
        static SHARED: std::rc::Rc<[Pair]> = pairs().into();
    }
    SHARED.with(std::rc::Rc::clone)
}

/// The pair with this id.
pub fn find(id: &str) -> Option<Pair> {
    shared().iter().find(|p| p.id == id).cloned()
}

pub(super) fn versus(phase: Phase, measure: Measure, rel: Rel, factor: f64) -> Versus {
    Versus {
        phase,
        measure,
        rel,
        factor,
    }
}

/// A region size small enough that the pairs' tables split at their sample sizes.
pub(super) const SPLIT_SMALL: &str = "{MAX_FILESIZE => 16384}";
