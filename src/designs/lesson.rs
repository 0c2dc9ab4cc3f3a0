//! What a design teaches, as numbers. Running an access pattern measures it with the engine's
//! own statistics (the reads' [`OpStats`], the engine's [`Counters`], each region's
//! [`RegionStats`](crate::engine::RegionStats) and the LSM event stream), and each pattern
//! states its lesson as relations over those numbers ([`Claim`]), which a test asserts for every
//! design and the design card shows ticked or crossed.

use std::fmt;

use crate::engine::{Counters, Engine, LsmEventKind, OpStats};
use crate::kit::sorted::{SortedMap, SortedSet};
use crate::shell::{Outcome, Shell};

/// The numbers one run of an access pattern produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Measures {
    /// Gets and scans run (a salted range read is one per bucket).
    pub reads: u64,
    /// Rows the reads examined.
    pub rows_scanned: u64,
    /// Rows the reads returned.
    pub rows_returned: u64,
    /// Cells the reads returned (every version of a column counts).
    pub cells_returned: u64,
    /// Distinct regions read, or written (as they were when the pattern started).
    pub regions_touched: u64,
    /// Row mutations (a `put` of one row is one, a `mutate_row` of one row is one): four puts
    /// to one row are four, each atomic on its own, as HBase applies them.
    pub rows_written: u64,
    /// Cells written (puts and delete markers).
    pub cells_written: u64,
    /// The logical actions the pattern performs (a follow, a post, a rename).
    pub actions: u64,
    /// Percent of the pattern's writes taken by the region that took most of them, regions
    /// counted as they were when the pattern started (a region that split during the pattern
    /// counts with its daughters).
    pub busiest_write_share: f64,
    /// Bytes written, counted as HBase KeyValue bytes.
    pub kv_bytes_written: u64,
    /// Sorted runs written by flushes.
    pub runs_flushed: u64,
    /// `(family, runs flushed, bytes flushed)` per family that flushed, by family name.
    pub flushed_by_family: Vec<(String, u64, u64)>,
}

impl Measures {
    /// Rows written per logical action.
    pub fn rows_per_action(&self) -> f64 {
        self.rows_written as f64 / self.actions.max(1) as f64
    }

    /// KeyValue bytes written per logical record (per action).
    pub fn bytes_per_record(&self) -> f64 {
        self.kv_bytes_written as f64 / self.actions.max(1) as f64
    }

    /// The mean size of a flushed run, in bytes (0 when nothing flushed).
    pub fn bytes_per_run(&self) -> f64 {
        let bytes: u64 = self.flushed_by_family.iter().map(|f| f.2).sum();
        if self.runs_flushed == 0 {
            0.0
        } else {
            bytes as f64 / self.runs_flushed as f64
        }
    }

    /// The value of one measure.
    pub fn get(&self, m: Measure) -> f64 {
        match m {
            Measure::Reads => self.reads as f64,
            Measure::RowsScanned => self.rows_scanned as f64,
            Measure::RowsReturned => self.rows_returned as f64,
            Measure::CellsReturned => self.cells_returned as f64,
            Measure::RegionsTouched => self.regions_touched as f64,
            Measure::RowsWritten => self.rows_written as f64,
            Measure::BusiestWriteShare => self.busiest_write_share,
            Measure::RowsPerAction => self.rows_per_action(),
            Measure::BytesPerRecord => self.bytes_per_record(),
            Measure::RunsFlushed => self.runs_flushed as f64,
            Measure::BytesPerRun => self.bytes_per_run(),
            Measure::FamiliesFlushed => self.flushed_by_family.len() as f64,
            Measure::SmallestFamilyRuns => self
                .flushed_by_family
                .iter()
                .map(|f| f.1)
                .min()
                .unwrap_or(0) as f64,
        }
    }
}

/// One of the numbers a pattern run yields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    Reads,
    RowsScanned,
    RowsReturned,
    /// Cells the reads returned: the entries of a wide row, the versions of a cell.
    CellsReturned,
    RegionsTouched,
    RowsWritten,
    BusiestWriteShare,
    RowsPerAction,
    BytesPerRecord,
    RunsFlushed,
    BytesPerRun,
    FamiliesFlushed,
    /// Runs flushed by the family that flushed least (among those that flushed).
    SmallestFamilyRuns,
}

impl Measure {
    pub fn label(self) -> &'static str {
        match self {
            Measure::Reads => "reads (gets and scans)",
            Measure::RowsScanned => "rows scanned",
            Measure::RowsReturned => "rows returned",
            Measure::CellsReturned => "cells returned",
            Measure::RegionsTouched => "regions touched",
            Measure::RowsWritten => "row mutations",
            Measure::BusiestWriteShare => "busiest region's share of writes (%)",
            Measure::RowsPerAction => "row mutations per action",
            Measure::BytesPerRecord => "KeyValue bytes per record",
            Measure::RunsFlushed => "runs flushed",
            Measure::BytesPerRun => "bytes per flushed run",
            Measure::FamiliesFlushed => "families flushed",
            Measure::SmallestFamilyRuns => "runs of the family that flushed least",
        }
    }
}

/// A comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rel {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Rel {
    pub fn holds(self, a: f64, b: f64) -> bool {
        match self {
            Rel::Eq => (a - b).abs() < 1e-9,
            Rel::Lt => a < b,
            Rel::Le => a <= b,
            Rel::Gt => a > b,
            Rel::Ge => a >= b,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            Rel::Eq => "=",
            Rel::Lt => "<",
            Rel::Le => "≤",
            Rel::Gt => ">",
            Rel::Ge => "≥",
        }
    }
}

/// The right-hand side of a claim: a number, or another measure of the same run times a factor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rhs {
    Value(f64),
    Measure(Measure, f64),
}

/// A relation the numbers of a pattern run must satisfy: the design's lesson.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Claim {
    pub measure: Measure,
    pub rel: Rel,
    pub rhs: Rhs,
}

impl Claim {
    pub fn holds(&self, m: &Measures) -> bool {
        self.rel.holds(m.get(self.measure), self.rhs_value(m))
    }

    fn rhs_value(&self, m: &Measures) -> f64 {
        match self.rhs {
            Rhs::Value(v) => v,
            Rhs::Measure(other, factor) => m.get(other) * factor,
        }
    }

    /// The claim with the figures of a run: `rows scanned = rows returned (30 = 30)`.
    pub fn explain(&self, m: &Measures) -> String {
        format!(
            "{self} ({} {} {})",
            number(m.get(self.measure)),
            self.rel.symbol(),
            number(self.rhs_value(m))
        )
    }
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} ", self.measure.label(), self.rel.symbol())?;
        match self.rhs {
            Rhs::Value(v) => write!(f, "{}", number(v)),
            Rhs::Measure(other, factor) if factor == 1.0 => write!(f, "{}", other.label()),
            Rhs::Measure(other, factor) => write!(f, "{} × {}", number(factor), other.label()),
        }
    }
}

/// A figure as people read it: whole numbers plain, others with one decimal, or two below one
/// (one put of 100 cells for 100 actions is 0.01 per action, not 0.0).
pub fn number(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else if v.abs() < 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.1}")
    }
}

/// Starts a claim on a measure: `on(Measure::RowsScanned).eq_to(Measure::RowsReturned)`.
pub fn on(measure: Measure) -> ClaimOn {
    ClaimOn(measure)
}

/// A claim missing its relation.
pub struct ClaimOn(Measure);

impl ClaimOn {
    fn with(self, rel: Rel, rhs: Rhs) -> Claim {
        Claim {
            measure: self.0,
            rel,
            rhs,
        }
    }
    pub fn eq(self, v: f64) -> Claim {
        self.with(Rel::Eq, Rhs::Value(v))
    }
    pub fn lt(self, v: f64) -> Claim {
        self.with(Rel::Lt, Rhs::Value(v))
    }
    pub fn le(self, v: f64) -> Claim {
        self.with(Rel::Le, Rhs::Value(v))
    }
    pub fn gt(self, v: f64) -> Claim {
        self.with(Rel::Gt, Rhs::Value(v))
    }
    pub fn ge(self, v: f64) -> Claim {
        self.with(Rel::Ge, Rhs::Value(v))
    }
    pub fn eq_to(self, m: Measure) -> Claim {
        self.with(Rel::Eq, Rhs::Measure(m, 1.0))
    }
    /// The measure is `factor` times another.
    pub fn eq_times(self, factor: f64, m: Measure) -> Claim {
        self.with(Rel::Eq, Rhs::Measure(m, factor))
    }
    /// The measure is more than `factor` times another.
    pub fn gt_times(self, factor: f64, m: Measure) -> Claim {
        self.with(Rel::Gt, Rhs::Measure(m, factor))
    }
    /// The measure is less than `factor` times another.
    pub fn lt_times(self, factor: f64, m: Measure) -> Claim {
        self.with(Rel::Lt, Rhs::Measure(m, factor))
    }
}

/// `rows scanned = rows returned`: the read touched nothing it did not return.
pub fn scanned_is_returned() -> Claim {
    on(Measure::RowsScanned).eq_to(Measure::RowsReturned)
}

/// A pattern run: its numbers, each claim with whether it held, and the commands' outcomes.
#[derive(Clone, Debug)]
pub struct PatternRun {
    pub measures: Measures,
    pub checks: Vec<(Claim, bool)>,
    pub outcomes: Vec<Outcome>,
}

impl PatternRun {
    pub fn all_hold(&self) -> bool {
        self.checks.iter().all(|c| c.1)
    }
}

/// What the engine looked like before a pattern ran, to tell what the pattern did.
pub struct Probe {
    counters: Counters,
    /// Writes so far per `(table, region id)`.
    writes: SortedMap<(String, u64), u64>,
    /// The newest LSM event serial per table.
    serials: SortedMap<String, u64>,
}

impl Probe {
    /// Notes the engine's counters and the regions of `tables`.
    pub fn take(engine: &Engine, tables: &[&str]) -> Probe {
        let mut writes = SortedMap::new();
        let mut serials = SortedMap::new();
        for name in tables {
            if let Ok(t) = engine.table(name) {
                for r in &t.regions {
                    writes.insert((name.to_string(), r.id), r.stats.writes);
                }
            }
            let serial = engine
                .lsm_events(name)
                .and_then(|log| log.last())
                .map_or(0, |e| e.serial);
            serials.insert(name.to_string(), serial);
        }
        Probe {
            counters: engine.counters(),
            writes,
            serials,
        }
    }

    /// The numbers of what ran since the probe was taken: `reads` are the read statistics of
    /// the gets and scans that ran, with the table each read.
    pub fn measure(self, engine: &Engine, reads: &[(String, OpStats)], actions: u64) -> Measures {
        let done = engine.counters().since(&self.counters);
        let mut touched: SortedSet<(String, u64)> = SortedSet::new();
        let mut m = Measures {
            actions,
            rows_written: done.mutations,
            cells_written: done.cells_written,
            kv_bytes_written: done.logical_bytes,
            ..Measures::default()
        };
        for (table, stats) in reads {
            m.reads += 1;
            m.rows_scanned += stats.rows_examined;
            m.rows_returned += stats.rows_returned;
            m.cells_returned += stats.cells_returned;
            touched.extend(stats.regions.iter().map(|r| (table.clone(), *r)));
        }
        let before = self.writes;
        let mut by_family: SortedMap<String, (u64, u64)> = SortedMap::new();
        // Writes since the probe per region as the probe found it.
        let mut region_writes: SortedMap<(String, u64), u64> = SortedMap::new();
        for (table, serial) in &self.serials {
            // Each region that exists now, mapped to the region it descends from.
            let mut ancestor: SortedMap<u64, u64> = SortedMap::new();
            if let Some(log) = engine.lsm_events(table) {
                for e in log.iter().filter(|e| e.serial > *serial) {
                    match e.kind {
                        LsmEventKind::Flush => {
                            for out in &e.outputs {
                                let f = by_family.entry(out.family.clone()).or_default();
                                f.0 += 1;
                                f.1 += out.bytes as u64;
                            }
                        }
                        LsmEventKind::Split => {
                            let root = ancestor.get(&e.region).copied().unwrap_or(e.region);
                            for d in &e.daughters {
                                ancestor.insert(d.0, root);
                            }
                            // The parent's writes, which its daughters do not carry.
                            *region_writes.entry((table.clone(), root)).or_default() +=
                                e.parent_stats.writes;
                        }
                        _ => {}
                    }
                }
            }
            if let Ok(t) = engine.table(table) {
                // Each daughter counts from nothing and its split's event holds the parent's
                // totals: together they add up to the ancestor's.
                for r in &t.regions {
                    let root = ancestor.get(&r.id).copied().unwrap_or(r.id);
                    *region_writes.entry((table.clone(), root)).or_default() += r.stats.writes;
                }
            }
        }
        for (key, after) in region_writes.iter_mut() {
            *after = after.saturating_sub(before.get(key).copied().unwrap_or(0));
        }
        region_writes.retain(|_, n| *n > 0);
        touched.extend(region_writes.keys().cloned());
        let total: u64 = region_writes.values().sum();
        if total > 0 {
            let busiest = region_writes.values().copied().max().unwrap_or(0);
            m.busiest_write_share = busiest as f64 * 100.0 / total as f64;
        }
        m.runs_flushed = by_family.values().map(|f| f.0).sum();
        m.flushed_by_family = by_family
            .into_iter()
            .map(|(name, (runs, bytes))| (name, runs, bytes))
            .collect();
        m.regions_touched = touched.len() as u64;
        m
    }
}

/// Runs `commands` on the shell and measures them; the error names the first failed command.
pub fn run_measured(
    shell: &mut Shell,
    tables: &[&str],
    commands: &str,
    actions: u64,
) -> Result<(Measures, Vec<Outcome>), String> {
    let probe = Probe::take(&shell.engine, tables);
    let outcomes = shell.run(commands);
    if let Some((o, e)) = outcomes
        .iter()
        .find_map(|o| o.error.as_ref().map(|e| (o, e)))
    {
        return Err(format!("{}: {}", o.input, e.message));
    }
    let reads: Vec<(String, OpStats)> = outcomes
        .iter()
        .filter_map(|o| o.trace.as_ref())
        .map(|t| (t.table.clone(), t.stats.clone()))
        .collect();
    Ok((probe.measure(&shell.engine, &reads, actions), outcomes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_compare_and_explain() {
        let m = Measures {
            rows_scanned: 30,
            rows_returned: 10,
            busiest_write_share: 95.0,
            ..Measures::default()
        };
        assert!(!scanned_is_returned().holds(&m));
        assert!(on(Measure::BusiestWriteShare).gt(90.0).holds(&m));
        assert_eq!(
            on(Measure::RowsScanned)
                .gt_times(2.0, Measure::RowsReturned)
                .explain(&m),
            "rows scanned > 2 × rows returned (30 > 20)"
        );
    }
}
