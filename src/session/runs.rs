//! Measured runs from the design card: an access pattern, or a step of the design's tour. Each
//! runs as a console entry on the console's runner (in steps, so a long one never freezes the
//! page), on the design's tables wherever the gallery loaded them, its reads measured whole
//! (no paging); when it ends, its numbers go to the card.

use std::rc::Rc;

use super::{Effects, Session};
use crate::console::MeasuredReads;
use crate::designs::lesson::Probe;
use crate::designs::loads::pattern_as;
use crate::designs::tour::{tour, Step};
use crate::designs::{Claim, Design, PatternRun};
use crate::dialect::Dialect;

/// A measured run on the runner, waiting for its entry to end.
pub struct Measuring {
    /// "the access pattern “…”", for the error note.
    what: String,
    target: Target,
    /// The engine before the run.
    probe: Probe,
    actions: u64,
    claims: Vec<Claim>,
    /// The console's paging, put back when the run ends.
    page_rows: Option<usize>,
}

/// Where a run's numbers go.
#[derive(Clone, Copy)]
enum Target {
    /// Design, pattern index.
    Pattern(&'static str, usize),
    /// Design, tour step index.
    Tour(&'static str, usize),
}

impl Session {
    /// Runs and measures access pattern `index` of the design on show.
    pub(super) fn run_pattern(&mut self, index: usize, fx: &mut Effects) {
        let Some(design) = self.selected_design.and_then(|id| self.design(id)) else {
            return;
        };
        let Some(pattern) = design.patterns.get(index) else {
            return;
        };
        if !self.can_run() {
            return;
        }
        let placement = self.placement(&design);
        let dialect = self.console.borrow().dialect;
        let command = match dialect {
            Dialect::HBase => {
                pattern_as(&design, index, &placement).unwrap_or_else(|_| pattern.command.clone())
            }
            Dialect::Cbt => match self.pattern_in_cbt(&design, index) {
                Ok(lines) => lines,
                Err(e) => {
                    self.console.borrow_mut().note(
                        &format!(
                            "ERROR: the access pattern “{}” has no cbt line: {e}",
                            pattern.name
                        ),
                        true,
                    );
                    return;
                }
            },
        };
        let run = Run {
            command: &command,
            dialect,
            tables: &placement.tables(),
            what: format!("the access pattern “{}”", pattern.name),
            actions: pattern.actions,
            claims: pattern.claims.clone(),
            target: Target::Pattern(design.id, index),
        };
        // The card's numbers are the pattern's now, shown with the view they point at.
        self.pattern_run = None;
        self.tour_run = None;
        let view = crate::designs::tour::View::for_pattern(&pattern.command, &pattern.claims);
        self.view_request = (view.tab(), self.view_request.1 + 1);
        self.start_measured(run, fx);
    }

    /// Access pattern `index` of a design as cbt lines, which the pattern runs in cbt mode
    /// ([`crate::cbt::from_hbase`]), or why it has none: a table of it that is an HBase table
    /// (the design was loaded in HBase mode), or a form cbt cannot say (a filter, a time
    /// range...).
    pub fn pattern_in_cbt(&self, design: &Design, index: usize) -> Result<String, String> {
        let placement = self.placement(design);
        let command = pattern_as(design, index, &placement)?;
        let console = self.console.borrow();
        for table in placement.tables() {
            if let Ok(t) = console.shell.engine.table(table) {
                if t.descriptor.rules != crate::cbt::BIGTABLE_RULES {
                    return Err(format!(
                        "{table} is an HBase table (the design was loaded in HBase mode)"
                    ));
                }
            }
        }
        crate::cbt::from_hbase::cbt_lines(&command)
    }

    /// Runs and measures step `index` of the tour of the design on show, and asks for the
    /// view that answers it.
    pub(super) fn run_tour_step(&mut self, index: usize, fx: &mut Effects) {
        let Some(design) = self.selected_design.and_then(|id| self.design(id)) else {
            return;
        };
        let Some(step) = tour(&design).into_iter().nth(index) else {
            return;
        };
        if !self.can_run() {
            return;
        }
        // A design loaded under other names runs its steps on those tables.
        let placement = self.placement(&design);
        let what = format!("the tour step “{}”", step.title);
        let step = match placement.rewrite(&step.command) {
            Ok(command) => Step { command, ..step },
            Err(e) => {
                self.console
                    .borrow_mut()
                    .note(&format!("ERROR: {what} failed: {e}"), true);
                self.after_run(None, fx);
                return;
            }
        };
        // The card's numbers are the step's now, not an earlier pattern's or step's.
        self.pattern_run = None;
        self.tour_run = None;
        self.view_request = (step.view.tab(), self.view_request.1 + 1);
        let run = Run {
            command: &step.command,
            dialect: Dialect::HBase,
            tables: &placement.tables(),
            what,
            actions: step.actions,
            claims: step.claims.clone(),
            target: Target::Tour(design.id, index),
        };
        self.start_measured(run, fx);
    }

    /// Starts a measured run as a console entry and runs its first step.
    fn start_measured(&mut self, run: Run<'_>, fx: &mut Effects) {
        {
            let mut console = self.console.borrow_mut();
            let probe = Probe::take(&console.shell.engine, run.tables);
            let page_rows = console.shell.page_rows.take();
            console.measured = Some(MeasuredReads::default());
            console.start_in(run.command, run.dialect);
            let perf = self.clocks.perf_ms.clone();
            console.step(&mut || perf(), super::STEP_MS);
            *self.measuring.borrow_mut() = Some(Measuring {
                what: run.what,
                target: run.target,
                probe,
                actions: run.actions,
                claims: run.claims,
                page_rows,
            });
        }
        self.save_history(fx);
        self.after_run(Some((run.command, run.dialect)), fx);
        self.finish_measured();
    }

    /// When the measured entry has ended: its numbers to the card, or why it failed to the
    /// console; the console pages again.
    pub(super) fn finish_measured(&mut self) {
        if self.console.borrow().is_running() {
            return;
        }
        let Some(m) = self.measuring.borrow_mut().take() else {
            return;
        };
        let ran = {
            let mut console = self.console.borrow_mut();
            console.shell.page_rows = m.page_rows;
            let reads = console.measured.take().unwrap_or_default();
            match reads.failed {
                // The table was changed by hand so that a command of it fails.
                Some(e) => {
                    console.note(&format!("ERROR: {} failed: {e}", m.what), true);
                    None
                }
                None => {
                    let measures = m
                        .probe
                        .measure(&console.shell.engine, &reads.reads, m.actions);
                    let checks = m.claims.iter().map(|c| (*c, c.holds(&measures))).collect();
                    Some(Rc::new(PatternRun {
                        measures,
                        checks,
                        outcomes: Vec::new(),
                    }))
                }
            }
        };
        match m.target {
            Target::Pattern(id, index) => self.pattern_run = ran.map(|r| (id, index, r)),
            Target::Tour(id, index) => self.tour_run = ran.map(|r| (id, index, r)),
        }
    }

    /// A measured run cancelled or reset: no numbers, and the console pages again.
    pub(super) fn abandon_measured(&mut self) {
        if let Some(m) = self.measuring.borrow_mut().take() {
            let mut console = self.console.borrow_mut();
            console.shell.page_rows = m.page_rows;
            console.measured = None;
        }
    }
}

/// What a measured run needs.
struct Run<'a> {
    command: &'a str,
    /// The dialect the command is in: a pattern runs as cbt lines in cbt mode.
    dialect: Dialect,
    tables: &'a [&'a str],
    what: String,
    actions: u64,
    claims: Vec<Claim>,
    target: Target,
}
