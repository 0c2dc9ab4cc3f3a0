//! A simulation's sample in the console: its own engine takes the place of the person's tables,
//! so `scan`, `get`, `count` and the views read the sampled rows and the simulation's regions;
//! the person's engine waits aside, untouched, and comes back when they leave the sample.
//! Nothing typed while the sample is on show is saved: the session gives the page no save
//! effect then, and an action about the person's own tables (a design, an import, a link, a
//! reset, stored tables read again) returns to them first.

use std::rc::Rc;

use super::{Effect, Effects, Session};
use crate::designs::lesson::number;
use crate::engine::Engine;
use crate::kit::text::thousands;
use crate::simulate::{SampleEngine, SampledTable};

/// The sample on show in the console: what it samples and what each table's rows stand for.
#[derive(Debug, PartialEq)]
pub struct SampleOnShow {
    /// What was simulated, in a few words ("sensor readings, seed 7").
    pub title: String,
    pub tables: Vec<SampledTable>,
}

impl SampleOnShow {
    /// One line per table: its rows sampled and the ratio to the rows simulated.
    pub fn ratios(&self) -> Vec<String> {
        self.tables.iter().map(ratio_line).collect()
    }
}

/// `sg_seq: 3,840 rows sampled of 7,200,000 simulated (1 in 1,875)`.
pub fn ratio_line(t: &SampledTable) -> String {
    let ratio = t.ratio();
    let ratio = if ratio >= 100.0 {
        thousands(ratio.round() as u64)
    } else {
        number((ratio * 10.0).round() / 10.0)
    };
    format!(
        "{}: {} rows sampled of {} simulated (1 in {ratio})",
        t.name,
        thousands(t.rows_sampled),
        thousands(t.rows_simulated.round() as u64),
    )
}

/// The person's tables and selection, kept while a sample is on show.
pub(super) struct Aside {
    engine: Engine,
    selected_table: Option<String>,
    selected_row: Option<Vec<u8>>,
}

impl Session {
    /// Whether the console runs on a simulation's sample rather than the person's tables.
    pub fn on_sample(&self) -> bool {
        self.sample.is_some()
    }

    /// Runs `f` on the person's own tables and table selection: the console's, or those set
    /// aside while a sample is on show. An export, and the rescue offered when saving fails,
    /// are of their data, never of the sample (which its workload makes again).
    pub fn with_own_tables<R>(&self, f: impl FnOnce(&Engine, Option<&str>) -> R) -> R {
        if let Some(aside) = self.aside.borrow().as_ref() {
            return f(&aside.engine, aside.selected_table.as_deref());
        }
        f(
            &self.console.borrow().shell.engine,
            self.selected_table.as_deref(),
        )
    }

    /// Puts `sample`'s engine in the console in place of the person's tables (or of the
    /// sample on show), keeping theirs aside.
    pub(super) fn open_sample(&mut self, sample: SampleEngine, title: String, _fx: &mut Effects) {
        if !self.can_run() {
            return;
        }
        let SampleEngine { engine, tables } = sample;
        let own = {
            let mut console = self.console.borrow_mut();
            let own = std::mem::replace(&mut console.shell.engine, engine);
            console.last_trace = None;
            console.data_version += 1;
            own
        };
        {
            let mut aside = self.aside.borrow_mut();
            // A sample replacing another: the person's tables stay where they were put.
            if aside.is_none() {
                *aside = Some(Aside {
                    engine: own,
                    selected_table: self.selected_table.take(),
                    selected_row: self.selected_row.take(),
                });
            }
        }
        let on_show = SampleOnShow { title, tables };
        let note = format!(
            "The sample of the simulation ({}) is in the console now: scan, get, count and the views read its rows and the regions of the simulation's end.\n{}\nEach sampled row stands for the rows of its ratio; what is written here is not saved. Your own tables are kept aside, unchanged: \"Back to your tables\" returns to them.",
            on_show.title,
            on_show.ratios().join("\n")
        );
        self.console.borrow_mut().note(&note, false);
        self.selected_table = on_show.tables.first().map(|t| t.name.clone());
        self.selected_row = None;
        self.sample = Some(Rc::new(on_show));
        // Its rows in sight: the Keyspace view.
        self.view_request = (0, self.view_request.1 + 1);
    }

    /// Puts the person's tables back in the console (stopping what runs on the sample).
    pub(super) fn leave_sample(&mut self, _fx: &mut Effects) {
        let Some(aside) = self.aside.borrow_mut().take() else {
            self.sample = None;
            return;
        };
        let mut console = self.console.borrow_mut();
        if console.cancel() {
            self.backlog = Rc::new(Vec::new());
        }
        console.shell.engine = aside.engine;
        console.last_trace = None;
        console.data_version += 1;
        console.note(
            "Back to your tables; the sample is gone (open it again from the Simulate view).",
            false,
        );
        self.selected_table = aside.selected_table;
        self.selected_row = aside.selected_row;
        self.sample = None;
    }

    /// While the sample is on show, nothing is saved: its engine is not the person's.
    pub(super) fn keep_sample_unsaved(&self, fx: &mut Effects) {
        if self.on_sample() {
            fx.0.retain(|e| *e != Effect::SaveChanges && *e != Effect::ClearStorage);
        }
    }
}
