//! Measured runs from the design card: an access pattern, or a step of the design's tour. Both
//! run whole on the design's tables (wherever the gallery loaded them), show their outputs in
//! the console as one entry, and keep their numbers for the card.

use std::rc::Rc;

use super::{Effects, Session};
use crate::designs::loads::{pattern_as, run_pattern_as};
use crate::designs::tour::{tour, Step};
use crate::designs::PatternRun;
use crate::dialect::Dialect;
use crate::shell::Shell;

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
        let command =
            pattern_as(&design, index, &placement).unwrap_or_else(|_| pattern.command.clone());
        let what = format!("the access pattern “{}”", pattern.name);
        let run = self.measured(&command, &what, fx, |shell| {
            run_pattern_as(&design, shell, index, &placement)
        });
        self.pattern_run = run.map(|r| (design.id, index, r));
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
        let tables = placement.tables();
        let run = self.measured(&step.command, &what, fx, |shell| step.run(shell, &tables));
        self.tour_run = run.map(|r| (design.id, index, r));
        // The card's numbers are the step's now, not an earlier pattern's.
        self.pattern_run = None;
        self.view_request = (step.view.tab(), self.view_request.1 + 1);
    }

    /// Runs `command` whole with `run` (its reads measured whole: no paging), shows its
    /// outputs as one console entry, or `what` failed as a note.
    fn measured(
        &mut self,
        command: &str,
        what: &str,
        fx: &mut Effects,
        run: impl FnOnce(&mut Shell) -> Result<PatternRun, String>,
    ) -> Option<Rc<PatternRun>> {
        let result = {
            let mut console = self.console.borrow_mut();
            let page = console.shell.page_rows.take();
            let result = run(&mut console.shell);
            console.shell.page_rows = page;
            result
        };
        let ran = match result {
            Ok(mut run) => {
                let outcomes = std::mem::take(&mut run.outcomes);
                self.console.borrow_mut().record(command, outcomes);
                Some(Rc::new(run))
            }
            Err(e) => {
                // The table was changed by hand so that a command of it fails.
                self.console
                    .borrow_mut()
                    .note(&format!("ERROR: {what} failed: {e}"), true);
                None
            }
        };
        self.save_history(fx);
        self.after_run(Some((command, Dialect::HBase)), fx);
        ran
    }
}
