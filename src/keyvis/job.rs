//! A simulation run in steps: one table per step, so the page can paint, show progress and
//! take a cancel between them. The result is the same as [`crate::simulate::simulate`]'s: each
//! table's draws depend on the workload's seed and the table's index only.

use crate::simulate::{simulate_table, Options, SimulateError, Simulation, TableRun, Workload};

/// A run under way.
pub struct Job {
    workload: Workload,
    options: Options,
    tables: Vec<TableRun>,
    error: Option<SimulateError>,
    checked: bool,
}

impl Job {
    /// A run of `workload`, not started.
    pub fn new(workload: Workload, options: Options) -> Job {
        Job {
            workload,
            options,
            tables: Vec::new(),
            error: None,
            checked: false,
        }
    }

    /// Runs the next table (the first step checks the workload). Returns the fraction done, or
    /// `None` when nothing is left to do (finished or failed).
    pub fn step(&mut self) -> Option<f64> {
        if self.error.is_some() || self.tables.len() >= self.workload.tables.len() {
            return None;
        }
        if !self.checked {
            self.checked = true;
            // As `simulate` does: the keys' uniqueness was checked where the workload was read.
            if let Err(e) = self.workload.check_with(false) {
                self.error = Some(e);
                return None;
            }
        }
        match simulate_table(&self.workload, &self.options, self.tables.len()) {
            Some(Ok(run)) => self.tables.push(run),
            Some(Err(e)) => self.error = Some(e),
            None => return None,
        }
        Some(self.progress())
    }

    /// The fraction of the tables done.
    pub fn progress(&self) -> f64 {
        let total = self.workload.tables.len().max(1);
        self.tables.len() as f64 / total as f64
    }

    /// The name of the table the next step runs.
    pub fn next_table(&self) -> Option<&str> {
        self.workload
            .tables
            .get(self.tables.len())
            .map(|t| t.name.as_str())
    }

    /// The simulation, once every step ran; the first error otherwise.
    pub fn finish(self) -> Result<Simulation, SimulateError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if self.tables.len() < self.workload.tables.len() {
            return Err(SimulateError::TooLarge(format!(
                "the run stopped after {} of {} tables",
                self.tables.len(),
                self.workload.tables.len()
            )));
        }
        let step_ms = self.workload.step_ms();
        let steps = self.workload.duration_ms.div_ceil(step_ms) as usize;
        let ops: f64 = self.tables.iter().map(|t| t.totals.ops).sum();
        let samples: usize = self.tables.iter().map(|t| t.samples.len()).sum();
        Ok(Simulation {
            workload: self.workload,
            step_ms,
            steps,
            tables: self.tables,
            ops_per_sample: if samples == 0 {
                0.0
            } else {
                ops / samples as f64
            },
        })
    }
}
