//! What arrives in the session from outside the console (a gallery design, and later an
//! imported table or a shared link) and the question asked when it would land on a table of the
//! person's: replace it, load under other names, or cancel. The decisions are
//! [`crate::designs::loads`]'s, tested natively; this file carries them out on the app state.

use std::rc::Rc;

use gloo::storage::Storage as _;

use super::state::AppState;
use crate::designs::loads::{
    cbt_setup_as, decide, decide_import, drop_script, setup_as, Clash, Decision, Loads, Placement,
};
use crate::designs::{find_at, Design, Size};
use crate::import::ImportedTable;

/// Where the gallery's loads are kept across reloads.
const LOADS_KEY: &str = "rowkey.design-loads";

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

/// The gallery's loads as saved, or none.
pub fn saved_loads() -> Loads {
    gloo::storage::LocalStorage::get(LOADS_KEY).unwrap_or_default()
}

impl AppState {
    pub(super) fn save_loads(&self) {
        let loads = self.loads.borrow();
        if loads.is_empty() {
            gloo::storage::LocalStorage::delete(LOADS_KEY);
        } else {
            let _ = gloo::storage::LocalStorage::set(LOADS_KEY, &*loads);
        }
    }

    /// Where design `id`'s tables are: as the gallery loaded them, or under their own names.
    pub fn placement(&self, design: &Design) -> Placement {
        self.loads
            .borrow()
            .get(design.id)
            .cloned()
            .unwrap_or_else(|| Placement::own(design.tables))
    }

    /// The sample size picked for design `id`.
    pub fn size_of(&self, id: &str) -> Size {
        self.loads.borrow().size(id)
    }

    /// Design `id` at the sample size picked for it.
    pub fn design(&self, id: &str) -> Option<Design> {
        find_at(id, self.size_of(id))
    }

    /// The size control: design `id` is kept at `size` from now on, and its tables are loaded
    /// again at that size where the gallery loaded them (its own tables only, never the
    /// person's), or loaded for the first time, asking first when a name is taken.
    pub(super) fn resize_design(&self, id: &'static str, size: Size) -> AppState {
        self.loads.borrow_mut().set_size(id, size);
        self.save_loads();
        let Some(design) = self.design(id) else {
            return self.next(None);
        };
        if self.is_loaded(id) {
            let mut next = self.next(None);
            next.selected_design = Some(id);
            next.reset_design()
        } else {
            self.open_design(&design)
        }
    }

    /// Whether the gallery loaded design `id` (so that it can be reset).
    pub fn is_loaded(&self, id: &str) -> bool {
        self.loads.borrow().get(id).is_some()
    }

    /// Opens a design: shows its tables, loads them, or asks first.
    pub(super) fn open_design(&self, design: &Design) -> AppState {
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
        self.save_loads();
        match decision {
            Decision::Show(p) => self.showing(design, &p),
            Decision::Load { placement, drop } => {
                self.load_design(design, &placement, &drop);
                self.showing(design, &placement)
            }
            Decision::Ask(clash) => {
                let mut next = self.next(None);
                next.pending = Some(Rc::new(Pending {
                    incoming: Incoming::Design(design.id),
                    clash,
                }));
                next
            }
        }
    }

    /// Imports a table as `name`: the commands to submit, or a question when a table of that
    /// name exists.
    pub(super) fn import_table(
        &self,
        table: Rc<ImportedTable>,
        name: String,
    ) -> (AppState, Option<String>) {
        let exists = |t: &str| self.console.borrow().shell.engine.exists(t);
        let script = table.script(&name);
        let Some(clash) = decide_import(&name, &script, exists) else {
            return (self.next(None), Some(script));
        };
        let mut next = self.next(None);
        next.pending = Some(Rc::new(Pending {
            incoming: Incoming::Table { table, name },
            clash,
        }));
        (next, None)
    }

    /// The person answered the question: the next state, and commands to submit (an import
    /// runs through the console, saved and replayable like anything typed).
    pub(super) fn resolve(&self, choice: Choice) -> (AppState, Option<String>) {
        let Some(pending) = self.pending.clone() else {
            return (self.next(None), None);
        };
        let design = match &pending.incoming {
            Incoming::Design(id) => self.design(id),
            Incoming::Table { table, name } => {
                let mut next = self.next(None);
                next.pending = None;
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
                if choice == Choice::Replace {
                    // The replaced table is no design's any more.
                    if self.loads.borrow_mut().forget_table(name) {
                        self.save_loads();
                    }
                }
                return (next, script);
            }
        };
        let mut next = match (choice, &design) {
            (Choice::Cancel, _) | (_, None) => {
                let mut next = self.next(None);
                next.pending = None;
                return (next, None);
            }
            (Choice::Replace, Some(d)) => {
                let own = Placement::own(d.tables);
                self.load_design(d, &own, &pending.clash.taken);
                self.showing(d, &own)
            }
            (Choice::Rename, Some(d)) => {
                self.load_design(d, &pending.clash.renamed, &[]);
                self.showing(d, &pending.clash.renamed)
            }
        };
        next.pending = None;
        (next, None)
    }

    /// "Reset this design": its tables dropped and loaded again as they were first loaded.
    pub(super) fn reset_design(&self) -> AppState {
        let Some(design) = self.selected_design.and_then(|id| self.design(id)) else {
            return self.next(None);
        };
        let Some(placement) = self.loads.borrow().get(design.id).cloned() else {
            return self.next(None);
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
        self.load_design(&design, &placement, &present);
        let mut next = self.showing(&design, &placement);
        next.pattern_run = None;
        next
    }

    /// The state showing a design whose tables are at `placement`.
    fn showing(&self, design: &Design, placement: &Placement) -> AppState {
        let mut next = self.next(None);
        next.selected_design = Some(design.id);
        next.pattern_run = None;
        next.tour_run = None;
        next.selected_table = placement
            .tables()
            .first()
            .map(|t| t.to_string())
            .filter(|t| self.console.borrow().shell.engine.exists(t));
        next.selected_row = None;
        next.fix_selection();
        next
    }

    /// Drops `replacing`, then runs the design's script under `placement`, and records the load.
    /// In the console's cbt mode the design's tables load as Bigtable tables holding the same
    /// cells ([`crate::designs::in_cbt`]), through cbt's lines.
    fn load_design(&self, design: &Design, placement: &Placement, replacing: &[String]) {
        let in_cbt = self.console.borrow().dialect == crate::dialect::Dialect::Cbt;
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
                    "Loaded the design “{}”: tables {tables}{renamed}{as_bigtable}, with {sample} ({commands} commands).{replaced} Its access patterns are buttons on the right.",
                    design.title
                ),
                false,
            ),
        }
        drop(console);
        if failed.is_none() {
            self.loads.borrow_mut().record(design.id, placement.clone());
            self.save_loads();
        }
        // What ran is saved, whole or not, so that storage holds what the tables show.
        self.queue_save();
    }

    /// "Run in this session" (or "Cancel") on a shared link: its design opens (asking first
    /// when tables of the person's have its names), then its commands run, on the design's
    /// tables wherever they were loaded.
    pub(super) fn run_link(&self, run: bool) -> Rc<AppState> {
        super::link_dialog::forget_fragment();
        let mut next = self.next(None);
        let link = next.link.take();
        let shared = match link.as_deref() {
            Some(Ok(shared)) if run => shared.clone(),
            _ => return Rc::new(next),
        };
        let design = shared.design.as_deref().and_then(|id| self.design(id));
        let mut next = match &design {
            Some(d) if self.pending.is_none() => next.open_design(d),
            _ => next,
        };
        next.link = None;
        if next.pending.is_some() {
            next.queued = Some(Rc::new(shared.commands));
            return Rc::new(next);
        }
        next.submit_link(design.as_ref(), &shared.commands)
    }

    /// After the answer about a design's tables: the link's commands waiting for it run (or,
    /// on Cancel, are dropped with a note).
    pub(super) fn after_link_question(mut self, choice: Choice) -> Rc<AppState> {
        let Some(commands) = self.queued.take() else {
            return Rc::new(self);
        };
        if choice == Choice::Cancel {
            self.console.borrow_mut().note(
                "The shared link's commands did not run: its design was not loaded.",
                false,
            );
            return Rc::new(self);
        }
        let design = self.selected_design.and_then(|id| self.design(id));
        self.submit_link(design.as_ref(), &commands)
    }

    /// Submits a link's commands as one entry, renamed to where its design's tables are.
    fn submit_link(&self, design: Option<&Design>, commands: &[String]) -> Rc<AppState> {
        use yew::Reducible as _;
        let text = commands.join("\n");
        let text = match design {
            Some(d) => self.placement(d).rewrite(&text).unwrap_or(text),
            None => text,
        };
        let next = Rc::new(self.next(None));
        if text.trim().is_empty() {
            return next;
        }
        next.reduce(super::state::Action::Submit(text))
    }
}
