//! The app's state as a reducer: the console (with the engine inside), the selected table and
//! row, and a version counter that tells components something changed.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::storage::Storage as _;
use yew::prelude::*;

use super::storage::{Mode, Storage};
use crate::console::Console;
use crate::engine::Engine;
use crate::persist::idb::Idb;
use crate::persist::Loaded;
use crate::shell::{parse_command, Shell, Value};

const READ_ONLY: &str = "this tab is read-only: Rowkey is open for writing in another tab (close it and this tab takes over)";

const HISTORY_KEY: &str = "rowkey.history";

/// Everything the components read.
pub struct AppState {
    pub console: Rc<RefCell<Console>>,
    pub storage: Rc<RefCell<Storage>>,
    /// Bumped on every change of the console or engine.
    pub version: u64,
    pub selected_table: Option<String>,
    pub selected_row: Option<Vec<u8>>,
    /// The gallery design on show.
    pub selected_design: Option<&'static str>,
    /// Text to put into the input (history navigation, examples).
    pub input: String,
    /// Bumped when `input` should replace what the input box holds.
    pub input_serial: u64,
}

/// What components can ask for.
pub enum Action {
    /// Run the text as one entry.
    Submit(String),
    /// Ctrl+L.
    ClearScreen,
    HistoryUp(String),
    HistoryDown,
    SelectTable(String),
    SelectRow(Option<Vec<u8>>),
    /// Stored tables were read; the flag says whether this tab writes.
    Loaded(Box<Loaded>, Rc<Idb>, bool),
    StorageUnavailable(String),
    /// Plans up to this entry number committed.
    Saved(usize),
    SaveFailed(String),
    /// Write everything again (after a failure).
    RetrySave,
    Usage(f64, f64),
    Persistent(bool),
    /// Another tab changed the database version.
    Outdated,
    DismissProblems,
    /// An import succeeded: the engine with the imported tables, and what to tell.
    Imported(Box<Engine>, String),
    /// A note for the console (import errors, exports).
    Note(String),
    /// Empty every table and the history.
    Reset,
    /// Show a gallery design, loading its tables the first time.
    OpenDesign(&'static str),
    CloseDesign,
}

impl PartialEq for AppState {
    fn eq(&self, other: &Self) -> bool {
        self.version == other.version
            && self.selected_table == other.selected_table
            && self.selected_row == other.selected_row
            && self.input_serial == other.input_serial
    }
}

impl Default for AppState {
    fn default() -> Self {
        let mut engine = Engine::new(Box::new(super::now_ms));
        engine.record_changes(true);
        let shell = Shell::new(engine, Box::new(super::perf_ms));
        let history: Vec<String> =
            gloo::storage::LocalStorage::get(HISTORY_KEY).unwrap_or_default();
        AppState {
            console: Rc::new(RefCell::new(Console::new(shell, history))),
            storage: Rc::new(RefCell::new(Storage::default())),
            version: 0,
            selected_table: None,
            selected_row: None,
            selected_design: None,
            input: String::new(),
            input_serial: 0,
        }
    }
}

impl AppState {
    /// The same state, one version on; `input` replaces the input box when given.
    fn next(&self, input: Option<String>) -> AppState {
        let serial = self.input_serial + u64::from(input.is_some());
        AppState {
            console: self.console.clone(),
            storage: self.storage.clone(),
            version: self.version + 1,
            selected_table: self.selected_table.clone(),
            selected_row: self.selected_row.clone(),
            selected_design: self.selected_design,
            input: input.unwrap_or_default(),
            input_serial: serial,
        }
    }

    /// The table a command names first, if it exists.
    fn table_of(&self, text: &str) -> Option<String> {
        let console = self.console.borrow();
        text.lines().rev().find_map(|line| {
            let cmd = parse_command(line).ok()?;
            match &cmd.args.first()?.value {
                Value::Str(b) => {
                    let name = String::from_utf8(b.clone()).ok()?;
                    console.shell.engine.exists(&name).then_some(name)
                }
                _ => None,
            }
        })
    }

    /// Queues what the last command changed, when this tab saves.
    fn queue_save(&self) {
        let mut storage = self.storage.borrow_mut();
        if storage.mode != Mode::Writer {
            let _ = self.console.borrow_mut().shell.engine.take_changes();
            return;
        }
        let mut console = self.console.borrow_mut();
        let plan = storage.saver.plan(&mut console.shell.engine);
        if !plan.is_empty() {
            let upto = console.next_number() - 1;
            storage.queue.push_back((upto, plan));
        }
    }

    /// Puts a loaded or imported engine in place.
    fn install(&self, mut engine: Engine) {
        engine.record_changes(true);
        let mut console = self.console.borrow_mut();
        console.shell.engine = engine;
        console.last_trace = None;
    }

    /// Keeps the selection on an existing table.
    fn fix_selection(&mut self) {
        let console = self.console.borrow();
        let exists = |n: &String| console.shell.engine.exists(n);
        if !self.selected_table.as_ref().is_some_and(exists) {
            self.selected_table = console
                .shell
                .engine
                .tables()
                .next()
                .map(|t| t.descriptor.name.clone());
            self.selected_row = None;
        }
    }
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match action {
            Action::Submit(text) => {
                if self.storage.borrow().mode == Mode::Loading {
                    return self;
                }
                self.console.borrow_mut().submit(&text);
                self.queue_save();
                let history = self.console.borrow().history.clone();
                let _ = gloo::storage::LocalStorage::set(HISTORY_KEY, history);
                let mut next = self.next(Some(String::new()));
                if let Some(t) = next.table_of(&text) {
                    if next.selected_table.as_ref() != Some(&t) {
                        next.selected_row = None;
                    }
                    next.selected_table = Some(t);
                }
                next.fix_selection();
                Rc::new(next)
            }
            Action::ClearScreen => {
                self.console.borrow_mut().clear();
                Rc::new(self.next(None))
            }
            Action::HistoryUp(current) => {
                let line = self.console.borrow_mut().history_up(&current);
                match line {
                    Some(l) => Rc::new(self.next(Some(l))),
                    None => self,
                }
            }
            Action::HistoryDown => {
                let line = self.console.borrow_mut().history_down();
                match line {
                    Some(l) => Rc::new(self.next(Some(l))),
                    None => self,
                }
            }
            Action::SelectTable(name) => {
                let mut next = self.next(None);
                next.selected_table = Some(name);
                next.selected_row = None;
                Rc::new(next)
            }
            Action::SelectRow(row) => {
                let mut next = self.next(None);
                next.selected_row = row;
                Rc::new(next)
            }
            Action::Loaded(loaded, idb, writer) => {
                let Loaded {
                    engine,
                    problems,
                    saver,
                    ..
                } = *loaded;
                self.install(engine);
                {
                    let mut storage = self.storage.borrow_mut();
                    storage.idb = Some(idb);
                    storage.saver = saver;
                    storage.problems.extend(problems);
                    storage.mode = if writer { Mode::Writer } else { Mode::ReadOnly };
                }
                self.console.borrow_mut().shell.read_only =
                    (!writer).then(|| READ_ONLY.to_string());
                // Recovery problems make the saver checkpoint at once what was recovered.
                self.queue_save();
                let mut next = self.next(None);
                next.fix_selection();
                Rc::new(next)
            }
            Action::StorageUnavailable(reason) => {
                let mut storage = self.storage.borrow_mut();
                storage.mode = Mode::Unavailable(reason);
                drop(storage);
                Rc::new(self.next(None))
            }
            Action::Saved(upto) => {
                let mut storage = self.storage.borrow_mut();
                storage.saved_upto = storage.saved_upto.max(upto);
                if storage.queue.is_empty() {
                    storage.error = None;
                }
                drop(storage);
                Rc::new(self.next(None))
            }
            Action::SaveFailed(message) => {
                self.storage.borrow_mut().error = Some(message);
                Rc::new(self.next(None))
            }
            Action::RetrySave => {
                {
                    let mut storage = self.storage.borrow_mut();
                    let mut console = self.console.borrow_mut();
                    storage.saver.failed();
                    let plan = storage.saver.checkpoint(&mut console.shell.engine);
                    let upto = console.next_number() - 1;
                    storage.queue.push_back((upto, plan));
                }
                Rc::new(self.next(None))
            }
            Action::Usage(usage, quota) => {
                self.storage.borrow_mut().usage = Some((usage, quota));
                Rc::new(self.next(None))
            }
            Action::Persistent(p) => {
                self.storage.borrow_mut().persistent = p;
                Rc::new(self.next(None))
            }
            Action::Outdated => {
                self.storage.borrow_mut().outdated = true;
                Rc::new(self.next(None))
            }
            Action::DismissProblems => {
                self.storage.borrow_mut().problems.clear();
                Rc::new(self.next(None))
            }
            Action::Imported(engine, summary) => {
                self.install(*engine);
                self.console.borrow_mut().note(&summary, false);
                self.queue_save();
                let mut next = self.next(None);
                next.fix_selection();
                Rc::new(next)
            }
            Action::Note(text) => {
                self.console
                    .borrow_mut()
                    .note(&text, text.starts_with("ERROR"));
                Rc::new(self.next(None))
            }
            Action::OpenDesign(id) => {
                let Some(design) = crate::designs::find(id) else {
                    return self;
                };
                let mut next = self.next(None);
                next.selected_design = Some(design.id);
                let present: Vec<bool> = {
                    let console = self.console.borrow();
                    design
                        .tables
                        .iter()
                        .map(|t| console.shell.engine.exists(t))
                        .collect()
                };
                if present.iter().all(|p| !p) {
                    let script = (design.setup)();
                    let failure = {
                        let mut console = self.console.borrow_mut();
                        let outcomes = console.shell.run(&script);
                        let failed = outcomes
                            .iter()
                            .find_map(|o| o.error.as_ref().map(|e| e.message.clone()));
                        let cells = outcomes.len();
                        console.note(
                            &match &failed {
                                Some(e) => format!("ERROR: design {} did not load: {e}", design.id),
                                None => format!(
                                    "Loaded design {}: tables {} ({cells} commands).",
                                    design.id,
                                    design.tables.join(", ")
                                ),
                            },
                            failed.is_some(),
                        );
                        failed
                    };
                    if failure.is_none() {
                        self.queue_save();
                    }
                } else if present.iter().any(|p| !p) {
                    let missing: Vec<&str> = design
                        .tables
                        .iter()
                        .zip(&present)
                        .filter(|(_, p)| !**p)
                        .map(|(t, _)| *t)
                        .collect();
                    self.console.borrow_mut().note(&format!("ERROR: design {} needs tables {}; drop its other tables to load it afresh", design.id, missing.join(", ")), true);
                }
                next.selected_table = design
                    .tables
                    .first()
                    .map(|t| t.to_string())
                    .filter(|t| self.console.borrow().shell.engine.exists(t));
                next.selected_row = None;
                next.fix_selection();
                Rc::new(next)
            }
            Action::CloseDesign => {
                let mut next = self.next(None);
                next.selected_design = None;
                Rc::new(next)
            }
            Action::Reset => {
                let mut engine = Engine::new(Box::new(super::now_ms));
                engine.record_changes(true);
                {
                    let mut console = self.console.borrow_mut();
                    console.shell.engine = engine;
                    console.entries.clear();
                    console.history.clear();
                    console.last_trace = None;
                }
                gloo::storage::LocalStorage::delete(HISTORY_KEY);
                if self.storage.borrow().mode == Mode::Writer {
                    // A full checkpoint of nothing: every stored run, the catalog and the log go.
                    let mut storage = self.storage.borrow_mut();
                    let mut console = self.console.borrow_mut();
                    storage.saver.failed();
                    let plan = storage.saver.checkpoint(&mut console.shell.engine);
                    storage.queue.push_back((console.next_number() - 1, plan));
                }
                let mut next = self.next(Some(String::new()));
                next.selected_table = None;
                next.selected_row = None;
                Rc::new(next)
            }
        }
    }
}

/// The app's state handle, shared through context.
pub type AppHandle = UseReducerHandle<AppState>;

/// The state handle from the nearest provider (the [`super::App`] provides it).
#[hook]
pub fn use_app() -> Option<AppHandle> {
    use_context::<AppHandle>()
}
