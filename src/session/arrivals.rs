//! What arrives in the session from outside the console (a gallery design, an imported table,
//! a shared link) and the question asked when it would land on a table of the person's:
//! replace it, load under other names, or cancel. The decisions are
//! [`crate::designs::loads`]'s; this file carries them out on the session.

use std::rc::Rc;

use super::{Effect, Effects, Queued, Session};
use crate::designs::loads::{
    cbt_setup_as, decide, decide_import, drop_script, setup_as, Clash, Decision, Placement,
};
use crate::designs::{Design, Size};
use crate::dialect::{Dialect, HistoryLine};
use crate::import::ImportedTable;

/// What is waiting for the person's answer.
#[derive(Debug, PartialEq)]
pub struct Pending {
    pub incoming: Incoming,
    pub clash: Clash,
}

/// What would land on the person's tables.
#[derive(Debug, PartialEq)]
pub enum Incoming {
    /// A gallery design, by id.
    Design(&'static str),
    /// A table read from a pasted scan or a CSV, to be created as `name`.
    Table {
        table: Rc<ImportedTable>,
        name: String,
    },
}

/// The person's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Drop the tables in the way, then load.
    Replace,
    /// Load under the free names.
    Rename,
    Cancel,
}

impl Session {
    /// Where design `id`'s tables are: as the gallery loaded them, or under their own names.
    pub fn placement(&self, design: &Design) -> Placement {
        self.loads
            .borrow()
            .get(design.id)
            .cloned()
            .unwrap_or_else(|| Placement::own(design.tables))
    }

    /// The size control: design `id` is kept at `size` from now on, and its tables are loaded
    /// again at that size where the gallery loaded them (its own tables only, never the
    /// person's), or loaded for the first time, asking first when a name is taken.
    pub(super) fn resize_design(&mut self, id: &'static str, size: Size, fx: &mut Effects) {
        self.loads.borrow_mut().set_size(id, size);
        self.save_loads(fx);
        let Some(design) = self.design(id) else {
            return;
        };
        if self.is_loaded(id) {
            self.selected_design = Some(id);
            self.reset_design(fx);
        } else {
            self.open_design(&design, fx);
        }
    }

    /// Opens a design: shows its tables, loads them, or asks first.
    pub(super) fn open_design(&mut self, design: &Design, fx: &mut Effects) {
        let decision = {
            let console = self.console.borrow();
            let engine = &console.shell.engine;
            let mut loads = self.loads.borrow_mut();
            loads.prune(|t| engine.exists(t));
            decide(
                design.id,
                design.tables,
                &design.setup_script(),
                &loads,
                |t| engine.exists(t),
            )
        };
        self.save_loads(fx);
        match decision {
            Decision::Show(p) => self.showing(design, &p),
            Decision::Load { placement, drop } => {
                self.load_design(design, &placement, &drop, fx);
                self.showing(design, &placement);
            }
            Decision::Ask(clash) => {
                self.pending = Some(Rc::new(Pending {
                    incoming: Incoming::Design(design.id),
                    clash,
                }));
            }
        }
    }

    /// Imports a table as `name`: its commands run, or a question is asked when a table of
    /// that name exists.
    pub(super) fn import_table(
        &mut self,
        table: Rc<ImportedTable>,
        name: String,
        fx: &mut Effects,
    ) {
        let script = table.script(&name);
        let clash = {
            let console = self.console.borrow();
            decide_import(&name, &script, |t| console.shell.engine.exists(t))
        };
        match clash {
            None => self.submit(&script, Dialect::HBase, fx),
            Some(clash) => {
                self.pending = Some(Rc::new(Pending {
                    incoming: Incoming::Table { table, name },
                    clash,
                }))
            }
        }
    }

    /// The person answered the question. An import runs through the console, saved and
    /// replayable like anything typed; a link's entries waiting for the answer run after it.
    pub(super) fn resolve(&mut self, choice: Choice, fx: &mut Effects) {
        let Some(pending) = self.pending.take() else {
            return;
        };
        match &pending.incoming {
            Incoming::Table { table, name } => {
                let script = match choice {
                    Choice::Cancel => None,
                    Choice::Replace => {
                        let console = self.console.borrow();
                        let engine = &console.shell.engine;
                        let dropping = drop_script(&pending.clash.taken, |t| {
                            engine.table(t).map(|t| t.enabled).unwrap_or(false)
                        });
                        Some(format!("{dropping}{}", table.script(name)))
                    }
                    Choice::Rename => pending
                        .clash
                        .renamed
                        .tables()
                        .first()
                        .map(|n| table.script(n)),
                };
                // The replaced table is no design's any more.
                if choice == Choice::Replace && self.loads.borrow_mut().forget_table(name) {
                    self.save_loads(fx);
                }
                if let Some(script) = script {
                    self.submit(&script, Dialect::HBase, fx);
                }
            }
            Incoming::Design(id) => {
                match (choice, self.design(id)) {
                    (Choice::Cancel, _) | (_, None) => {}
                    (Choice::Replace, Some(d)) => {
                        let own = Placement::own(d.tables);
                        self.load_design(&d, &own, &pending.clash.taken, fx);
                        self.showing(&d, &own);
                    }
                    (Choice::Rename, Some(d)) => {
                        self.load_design(&d, &pending.clash.renamed, &[], fx);
                        self.showing(&d, &pending.clash.renamed);
                    }
                }
                self.after_link_question(choice, fx);
            }
        }
    }

    /// "Reset this design": its tables dropped and loaded again as they were first loaded.
    pub(super) fn reset_design(&mut self, fx: &mut Effects) {
        let Some(design) = self.selected_design.and_then(|id| self.design(id)) else {
            return;
        };
        let Some(placement) = self.loads.borrow().get(design.id).cloned() else {
            return;
        };
        let present: Vec<String> = {
            let console = self.console.borrow();
            placement
                .tables()
                .into_iter()
                .filter(|t| console.shell.engine.exists(t))
                .map(str::to_string)
                .collect()
        };
        self.load_design(&design, &placement, &present, fx);
        self.showing(&design, &placement);
    }

    /// Shows a design whose tables are at `placement`.
    fn showing(&mut self, design: &Design, placement: &Placement) {
        self.selected_design = Some(design.id);
        self.pattern_run = None;
        self.tour_run = None;
        self.selected_table = placement
            .tables()
            .first()
            .map(|t| t.to_string())
            .filter(|t| self.console.borrow().shell.engine.exists(t));
        self.selected_row = None;
        self.fix_selection();
    }

    /// Drops `replacing`, then runs the design's script under `placement`, and records the load.
    /// In the console's cbt mode the design's tables load as Bigtable tables holding the same
    /// cells ([`crate::designs::in_cbt`]), through cbt's lines.
    fn load_design(
        &mut self,
        design: &Design,
        placement: &Placement,
        replacing: &[String],
        fx: &mut Effects,
    ) {
        let in_cbt = self.console.borrow().dialect == Dialect::Cbt;
        let prepared = if in_cbt {
            cbt_setup_as(design, placement)
                .map_err(|e| format!("could not be written as Bigtable tables: {e}"))
        } else {
            setup_as(design, placement).map_err(|e| format!("could not be renamed: {e}"))
        };
        let setup = match prepared {
            Ok(s) => s,
            Err(e) => {
                let text = format!("ERROR: the design “{}” {e}", design.title);
                self.console.borrow_mut().note(&text, true);
                return;
            }
        };
        let mut console = self.console.borrow_mut();
        let dropping = drop_script(replacing, |t| {
            console
                .shell
                .engine
                .table(t)
                .map(|t| t.enabled)
                .unwrap_or(false)
        });
        let outcomes = if in_cbt {
            console.shell.run(&dropping)
        } else {
            console.shell.run(&format!("{dropping}{setup}"))
        };
        let mut failed = outcomes.iter().find_map(|o| {
            o.error
                .as_ref()
                .map(|e| format!("{}: {}", o.input, e.message))
        });
        let mut commands = outcomes.len();
        if in_cbt && failed.is_none() {
            for line in setup.lines() {
                commands += 1;
                let out = console.run_cbt_line(line);
                if out.failed {
                    failed = Some(format!("{line}: {}", out.stderr.trim_end()));
                    break;
                }
            }
        }
        console.data_version += 1;
        let sample = if design.scales {
            format!("the {} sample", design.size.label())
        } else {
            "sample data".to_string()
        };
        let tables = placement.tables().join(", ");
        let renamed = if placement.is_renamed() {
            " (renamed: its commands and access patterns use these names)"
        } else {
            ""
        };
        let as_bigtable = if in_cbt { " as Bigtable tables" } else { "" };
        let replaced = if replacing.is_empty() {
            String::new()
        } else {
            format!(" First it dropped the tables {}.", replacing.join(", "))
        };
        match &failed {
            Some(e) => console.note(
                &format!("ERROR: the design “{}” did not load: {e}", design.title),
                true,
            ),
            None => console.note(
                &format!(
                    "Loaded the design “{}”: tables {tables}{renamed}{as_bigtable}, with {sample} ({commands} commands).{replaced} Its access patterns are buttons on the design’s card.",
                    design.title
                ),
                false,
            ),
        }
        drop(console);
        if failed.is_none() {
            self.loads.borrow_mut().record(design.id, placement.clone());
            self.save_loads(fx);
        }
        // What ran is saved, whole or not, so that storage holds what the tables show.
        fx.push(Effect::SaveChanges);
    }

    /// "Run in this session" (or "Cancel") on a shared link: its workload becomes the
    /// simulator's, its design opens (asking first when tables of the person's have its
    /// names), then its entries run, on the design's tables wherever they were loaded.
    pub(super) fn run_link(&mut self, run: bool, fx: &mut Effects) {
        fx.push(Effect::ForgetFragment);
        let link = self.link.take();
        let shared = match link.as_deref() {
            Some(Ok(shared)) if run => shared.clone(),
            _ => return,
        };
        if let Some(workload) = shared.workload {
            fx.push(Effect::SaveWorkload(workload));
            self.view_request = (SIMULATE_TAB, self.view_request.1 + 1);
        }
        let design = shared.design.as_deref().and_then(|id| self.design(id));
        if let Some(d) = &design {
            if self.pending.is_none() {
                self.open_design(d, fx);
            }
        }
        if self.pending.is_some() {
            self.queued = Some(Rc::new(shared.entries));
            return;
        }
        self.submit_link(design.as_ref(), &shared.entries, fx);
    }

    /// After the answer about a design's tables: the link's entries waiting for it run (or,
    /// on Cancel, are dropped with a note).
    fn after_link_question(&mut self, choice: Choice, fx: &mut Effects) {
        let Some(entries) = self.queued.take() else {
            return;
        };
        if choice == Choice::Cancel {
            self.console.borrow_mut().note(
                "The shared link's commands did not run: its design was not loaded.",
                false,
            );
            return;
        }
        let design = self.selected_design.and_then(|id| self.design(id));
        self.submit_link(design.as_ref(), &entries, fx);
    }

    /// Runs a link's entries, consecutive ones of one dialect as one console entry, each
    /// after the one before it ends; HBase lines renamed to where the design's tables are.
    fn submit_link(&mut self, design: Option<&Design>, entries: &[HistoryLine], fx: &mut Effects) {
        let placement = design.map(|d| self.placement(d));
        let mut groups: Vec<HistoryLine> = Vec::new();
        for e in entries.iter().filter(|e| !e.text.trim().is_empty()) {
            match groups.last_mut() {
                Some(g) if g.dialect == e.dialect => {
                    g.text.push('\n');
                    g.text.push_str(&e.text);
                }
                _ => groups.push(e.clone()),
            }
        }
        for g in &mut groups {
            if let (Dialect::HBase, Some(p)) = (g.dialect, &placement) {
                if let Ok(text) = p.rewrite(&g.text) {
                    g.text = text;
                }
            }
        }
        self.backlog = Rc::new(groups.into_iter().map(Queued::Line).collect());
        self.run_backlog(fx);
    }
}

/// The views pane's Simulate tab, where a link's workload shows.
pub const SIMULATE_TAB: usize = 5;
