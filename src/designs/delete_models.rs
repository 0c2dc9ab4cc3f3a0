//! Two delete models side by side, on the same story: a cell written at time 2, the row
//! deleted, then the cell written again at the older time 1.
//!
//! - HBase: a delete writes a marker that hides every older cell until a major compaction
//!   drops it (`ScanDeleteTracker`), so the rewrite at time 1 stays hidden; after
//!   `major_compact` the marker is gone and the same write shows.
//! - Bigtable: a delete takes away the cells that exist and leaves nothing behind, so the
//!   rewrite at time 1 is visible at once.
//!
//! Each side runs on an engine of its own (the person's tables are never touched), the HBase
//! side through the HBase shell and the Bigtable side through cbt, and after every step the
//! row's visible cells are counted: those counts are the lesson.

use crate::cbt;
use crate::dialect::Dialect;
use crate::engine::{Engine, Scan};
use crate::shell::{Shell, TimeFormat};

/// The gallery id of the comparison.
pub const ID: &str = "delete-models";

pub const TITLE: &str = "Delete models: HBase markers vs Bigtable";

/// The engine clock both sides run at (epoch milliseconds), so outputs are the same each run.
const CLOCK_MS: u64 = 1_700_000_000_000;

/// One step of a side: what it runs, and what the step shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub line: &'static str,
    pub note: &'static str,
}

/// One side: its dialect, its table, and its steps.
#[derive(Clone, Copy, Debug)]
pub struct Side {
    pub label: &'static str,
    pub dialect: Dialect,
    pub table: &'static str,
    pub steps: &'static [Step],
}

/// What a step printed and how many cells of the row a read returns after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepRun {
    pub output: String,
    pub failed: bool,
    pub visible: usize,
}

const fn step(line: &'static str, note: &'static str) -> Step {
    Step { line, note }
}

pub const HBASE: Side = Side {
    label: "HBase: a delete marker",
    dialect: Dialect::HBase,
    table: "hb",
    steps: &[
        step("create 'hb', 'cf'", "A table with one family."),
        step("put 'hb', 'r1', 'cf:a', 'new', 2000", "A cell written at time 2000."),
        step("deleteall 'hb', 'r1'", "The delete writes a marker at the current time; it hides every cell of the row older than it."),
        step("put 'hb', 'r1', 'cf:a', 'old', 1000", "The cell written again at the older time 1000: the marker hides it."),
        step("get 'hb', 'r1'", "Nothing comes back."),
        step("flush 'hb'", "The memstore goes to a file: the marker goes with it, and the cells it hides are left out (a flush keeps markers and drops what they mask)."),
        step("major_compact 'hb'", "A major compaction drops the marker itself (it compacts files, hence the flush)."),
        step("put 'hb', 'r1', 'cf:a', 'old', 1000", "The same write after the compaction: no marker left, so it shows."),
        step("get 'hb', 'r1'", "The cell at time 1000 comes back."),
    ],
};

pub const BIGTABLE: Side = Side {
    label: "Bigtable: no marker",
    dialect: Dialect::Cbt,
    table: "bt",
    steps: &[
        step("createtable bt families=cf", "A table with one family."),
        step(
            "set bt r1 cf:a=new@2000",
            "A cell written at time 2000 (µs).",
        ),
        step(
            "deleterow bt r1",
            "The delete takes away the cells that exist and leaves nothing behind.",
        ),
        step(
            "set bt r1 cf:a=old@1000",
            "The cell written again at the older time 1000.",
        ),
        step(
            "lookup bt r1",
            "It is visible at once: there is no marker to hide it.",
        ),
    ],
};

impl Side {
    /// Runs every step on a fresh engine; a step that fails stops the run with its error.
    pub fn run(&self) -> Result<Vec<StepRun>, String> {
        let engine = Engine::new(Box::new(|| CLOCK_MS));
        let mut runs = Vec::with_capacity(self.steps.len());
        match self.dialect {
            Dialect::HBase => {
                let mut shell = Shell::new(engine, Box::new(|| 0.0));
                shell.time_format = TimeFormat::Epoch;
                for s in self.steps {
                    let outcomes = shell.run(s.line);
                    let failed = outcomes.iter().any(|o| o.error.is_some());
                    let output: String = outcomes.iter().map(|o| o.output.as_str()).collect();
                    let visible = visible_cells(&shell.engine, self.table);
                    runs.push(checked(s, output, failed, visible)?);
                }
            }
            Dialect::Cbt => {
                let mut session = cbt::Session::new(engine);
                for s in self.steps {
                    let out = session.run_line(s.line);
                    let mut output = String::from_utf8_lossy(&out.stdout).into_owned();
                    output.push_str(&out.stderr);
                    let visible = visible_cells(&session.engine, self.table);
                    runs.push(checked(s, output, out.failed, visible)?);
                }
            }
        }
        Ok(runs)
    }
}

fn checked(s: &Step, output: String, failed: bool, visible: usize) -> Result<StepRun, String> {
    if failed {
        return Err(format!("{}: {}", s.line, output.trim_end()));
    }
    Ok(StepRun {
        output,
        failed,
        visible,
    })
}

/// Cells of the table a plain read returns (newest version of each column, deletes applied).
fn visible_cells(engine: &Engine, table: &str) -> usize {
    let mut scan = Scan::default();
    engine
        .read(table, &mut scan)
        .map(|o| o.rows.iter().map(|r| r.cells.len()).sum())
        .unwrap_or(0)
}
