//! The app's state as two reducers. [`AppState`] holds the console (with the engine inside),
//! the selection and the preferences; its `data_version` tells the views when the engine's
//! contents changed, so they recompute once per data version, not per render. [`SaveStatus`]
//! changes as saves come and go (saving, saved) and re-renders only what shows it.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo::storage::Storage as _;
use yew::prelude::*;

use super::arrivals::{Choice, Pending};
use super::prefs::{Prefs, Timestamps};
use super::storage::{Mode, Storage};
use crate::analysis::{analyze, Dialect};
use crate::console::Console;
use crate::designs::loads::{pattern_as, run_pattern_as, Loads};
use crate::engine::Engine;
use crate::persist::idb::Idb;
use crate::persist::Loaded;
use crate::shell::{Shell, TimeFormat};

const READ_ONLY: &str = "this tab is read-only: Rowkey is open for writing in another tab (close it and this tab takes over)";

const HISTORY_KEY: &str = "rowkey.history";

/// Largest submission, in bytes, kept in the history across reloads (it stays for Up until then).
const HISTORY_SAVED_MAX: usize = 64 * 1024;

/// How long a running batch goes between two refreshes of the views, in milliseconds.
const VIEW_REFRESH_MS: f64 = 400.0;

/// One step of a running batch, in milliseconds, before the page gets the thread back.
pub const STEP_MS: f64 = 12.0;

/// Everything the components read.
pub struct AppState {
    pub console: Rc<RefCell<Console>>,
    pub storage: Rc<RefCell<Storage>>,
    /// Bumped on every change of the console or the selection.
    pub version: u64,
    /// The engine's contents as the views last took them: bumped after commands ran (during a
    /// long batch, a few times a second).
    pub data_version: u64,
    data_taken_at: f64,
    pub selected_table: Option<String>,
    pub selected_row: Option<Vec<u8>>,
    /// The gallery design on show.
    pub selected_design: Option<&'static str>,
    /// The last access pattern run from the design card: design, pattern index, and its
    /// numbers (without the outputs, which went to the console).
    pub pattern_run: Option<(&'static str, usize, Rc<crate::designs::PatternRun>)>,
    /// The A/B comparison on show (a pair's id).
    pub selected_compare: Option<&'static str>,
    /// The last tour step run: design, step index, and its numbers.
    pub tour_run: Option<(&'static str, usize, Rc<crate::designs::PatternRun>)>,
    /// A view tab the views pane should show, and a serial bumped at every request (a tour
    /// step asks for the view that answers it).
    pub view_request: (usize, u64),
    /// Text to put into the input (history navigation, examples).
    pub input: String,
    /// Bumped when `input` should replace what the input box holds.
    pub input_serial: u64,
    pub prefs: Prefs,
    /// Whether the loop that steps a running batch is alive.
    pub runner: Rc<Cell<bool>>,
    /// Which tables the gallery loaded, for which design ([`super::arrivals`]).
    pub loads: Rc<RefCell<Loads>>,
    /// A question for the person: something would land on a table of theirs.
    pub pending: Option<Rc<Pending>>,
    /// A shared link opened with the page, read or not, waiting for "Run" or "Cancel".
    pub link: Option<Rc<Result<crate::share::Shared, String>>>,
    /// A link's commands, waiting for the answer about its design's tables.
    pub queued: Option<Rc<Vec<String>>>,
}

/// What components can ask for.
pub enum Action {
    /// Run the text as one entry.
    Submit(String),
    /// Run the quick start: each step after a note on what it shows.
    QuickStart,
    /// Show and save what the running entry's last steps did (the runner steps it).
    Ran,
    /// Stop the running entry; what ran stays.
    Cancel,
    /// The next page of a paged scan (entry number, statement index, all pages).
    More(usize, usize, bool),
    /// Ctrl+L.
    ClearScreen,
    HistoryUp(String),
    HistoryDown,
    SelectTable(String),
    SelectRow(Option<Vec<u8>>),
    /// Stored tables were read; the flag says whether this tab writes.
    Loaded(Box<Loaded>, Rc<Idb>, bool),
    StorageUnavailable(String),
    /// Something about the write lock or the takeover the person must know, with what to do.
    StorageNotice(String),
    /// Write everything again (after a failure).
    RetrySave,
    /// Delete the sorted runs kept aside (the person confirmed).
    DiscardKeptAside,
    /// Another tab changed the database version.
    Outdated,
    DismissProblems,
    /// An import succeeded: the engine with the imported tables, and what to tell.
    Imported(Box<Engine>, String),
    /// A note for the console (import errors, exports).
    Note(String),
    /// Empty every table and the history.
    Reset,
    /// Show a gallery design, loading its tables the first time (or asking first, when a
    /// table of the person's has one of its names).
    OpenDesign(&'static str),
    /// The person answered the pending question.
    Resolve(Choice),
    /// Drop the design's tables and load them again as they were first loaded.
    ResetDesign,
    /// Keep the design on show at this sample size and load its tables again at it.
    ResizeDesign(crate::designs::Size),
    /// Create a table read from a pasted scan or a CSV under this name (asking first when the
    /// name is taken).
    ImportTable(Rc<crate::import::ImportedTable>, String),
    /// The page was opened with a share link: what it holds, or why it cannot be read.
    LinkOpened(Result<crate::share::Shared, String>),
    /// Run the shared link's design and commands here (or drop the link: false).
    RunLink(bool),
    /// Run and measure an access pattern (by index) of the design on show.
    RunPattern(usize),
    /// Run and measure a step (by index) of the tour of the design on show, and show its view.
    RunTourStep(usize),
    CloseDesign,
    /// Show an A/B comparison (by pair id); it runs on engines of its own.
    OpenCompare(&'static str),
    CloseCompare,
    SetPrefs(Prefs),
    /// Read typed lines as HBase's shell or as cbt.
    SetDialect(Dialect),
}

impl PartialEq for AppState {
    fn eq(&self, other: &Self) -> bool {
        self.version == other.version
            && self.data_version == other.data_version
            && self.selected_table == other.selected_table
            && self.selected_row == other.selected_row
            && self.selected_design == other.selected_design
            && self.selected_compare == other.selected_compare
            && self.input_serial == other.input_serial
            && self.prefs == other.prefs
            && self.pending == other.pending
            && self.link == other.link
    }
}

/// The shell's timestamp format for a preference.
fn time_format(prefs: &Prefs) -> TimeFormat {
    match prefs.timestamps {
        Timestamps::Epoch => TimeFormat::Epoch,
        Timestamps::Local => TimeFormat::Local(Box::new(super::prefs::utc_offset_minutes)),
    }
}

impl Default for AppState {
    fn default() -> Self {
        let mut engine = Engine::new(Box::new(super::now_ms));
        engine.record_changes(true);
        let prefs = Prefs::load();
        let mut shell = Shell::new(engine, Box::new(super::perf_ms));
        shell.time_format = time_format(&prefs);
        let mut console = Console::new(shell, Vec::new());
        console.set_history(super::dialect_switch::saved_history(HISTORY_KEY));
        super::dialect_switch::set_zone(&mut console, &prefs);
        AppState {
            console: Rc::new(RefCell::new(console)),
            storage: Rc::new(RefCell::new(Storage::default())),
            version: 0,
            data_version: 0,
            data_taken_at: 0.0,
            selected_table: None,
            selected_row: None,
            selected_design: None,
            pattern_run: None,
            selected_compare: None,
            tour_run: None,
            view_request: (0, 0),
            input: String::new(),
            input_serial: 0,
            prefs,
            runner: Rc::new(Cell::new(false)),
            loads: Rc::new(RefCell::new(super::arrivals::saved_loads())),
            pending: None,
            link: None,
            queued: None,
        }
    }
}

impl AppState {
    /// The same state, one version on; `input` replaces the input box when given. The views'
    /// data version follows the console's, at most every [`VIEW_REFRESH_MS`] while a batch runs.
    pub(super) fn next(&self, input: Option<String>) -> AppState {
        let serial = self.input_serial + u64::from(input.is_some());
        let (data, running) = {
            let c = self.console.borrow();
            (c.data_version, c.is_running())
        };
        let now = super::perf_ms();
        let take =
            data != self.data_version && (!running || now - self.data_taken_at >= VIEW_REFRESH_MS);
        AppState {
            console: self.console.clone(),
            storage: self.storage.clone(),
            version: self.version + 1,
            data_version: if take { data } else { self.data_version },
            data_taken_at: if take { now } else { self.data_taken_at },
            selected_table: self.selected_table.clone(),
            selected_row: self.selected_row.clone(),
            selected_design: self.selected_design,
            pattern_run: self.pattern_run.clone(),
            selected_compare: self.selected_compare,
            tour_run: self.tour_run.clone(),
            view_request: self.view_request,
            input: input.unwrap_or_default(),
            input_serial: serial,
            prefs: self.prefs,
            runner: self.runner.clone(),
            loads: self.loads.clone(),
            pending: self.pending.clone(),
            link: self.link.clone(),
            queued: self.queued.clone(),
        }
    }

    /// The table the last lines of a submission name first, if it exists.
    fn table_of(&self, text: &str) -> Option<String> {
        let console = self.console.borrow();
        // A cbt line is analysed as cbt: the views follow the Bigtable table it names.
        let accesses = analyze(&[text.to_string()], console.dialect);
        accesses.iter().rev().find_map(|a| {
            let name = a.table()?;
            console.shell.engine.exists(name).then(|| name.to_string())
        })
    }

    /// Whether a submission would run now: not while loading, nor while a batch runs.
    pub fn can_run(&self) -> bool {
        self.storage.borrow().mode != Mode::Loading && !self.console.borrow().is_running()
    }

    /// Queues what the statements run so far changed, when this tab saves.
    pub(super) fn queue_save(&self) {
        let mut storage = self.storage.borrow_mut();
        let mut console = self.console.borrow_mut();
        if storage.mode != Mode::Writer {
            let _ = console.shell.engine.take_changes();
            return;
        }
        if let Some(staged) = storage.queue.record(&mut console.shell.engine) {
            let ticket = console.take_ticket();
            storage.queue.stage(staged, ticket);
        }
    }

    /// The person pressed Retry after a failed save: a checkpoint of everything in memory.
    fn retry_save(&self) {
        let mut storage = self.storage.borrow_mut();
        if storage.mode != Mode::Writer || !storage.queue.can_retry() {
            return;
        }
        let mut console = self.console.borrow_mut();
        let ticket = console.take_ticket();
        storage.queue.retry(&mut console.shell.engine, ticket);
    }

    /// Puts a loaded or imported engine in place.
    fn install(&self, mut engine: Engine) {
        engine.record_changes(true);
        let mut console = self.console.borrow_mut();
        console.shell.engine = engine;
        console.last_trace = None;
        console.data_version += 1;
    }

    /// Keeps the selection on an existing table.
    pub(super) fn fix_selection(&mut self) {
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

    /// After statements ran: save what they changed, follow the table they named.
    fn after_run(&self, text: Option<&str>) -> Rc<AppState> {
        Rc::new(self.after_run_state(text))
    }

    fn after_run_state(&self, text: Option<&str>) -> AppState {
        self.queue_save();
        let mut next = self.next(text.map(|_| String::new()));
        if let Some(t) = text.and_then(|t| next.table_of(t)) {
            if next.selected_table.as_ref() != Some(&t) {
                next.selected_row = None;
            }
            next.selected_table = Some(t);
        }
        next.fix_selection();
        next
    }

    /// Keeps the history across reloads, without the submissions too large for local storage
    /// (a 5 MB paste would make every later save of the history fail).
    fn save_history(&self) {
        let console = self.console.borrow();
        let mut kept = console.history_lines();
        kept.retain(|h| h.text.len() <= HISTORY_SAVED_MAX);
        let _ =
            gloo::storage::LocalStorage::set(HISTORY_KEY, crate::dialect::encode_history(&kept));
    }
}

/// The quick start: what each step shows, then the command.
pub const QUICK_START: &[(&str, &str)] = &[
    ("A table with two column families; `info` keeps three versions of each cell.", "create 'users', {NAME => 'info', VERSIONS => 3}, 'stats'"),
    ("Two rows. Each put writes one cell, stamped with the time in epoch milliseconds.", "put 'users', 'u001', 'info:name', 'Ada'\nput 'users', 'u002', 'info:name', 'Grace'"),
    ("A second put on the same cell does not overwrite it: it adds a newer version.", "put 'users', 'u001', 'info:name', 'Ada Lovelace'"),
    ("A counter: 8 bytes, added to atomically.", "incr 'users', 'u001', 'stats:logins', 3"),
    ("A scan returns rows in row-key order, and only the newest version of each cell. The views on the right show which rows it examined.", "scan 'users'"),
    ("Asking for versions shows the older value still stored. Pick u001 in the Keyspace view to see every version.", "get 'users', 'u001', {COLUMN => 'info:name', VERSIONS => 3}"),
];

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match action {
            Action::Submit(text) => {
                if !self.can_run() {
                    return self;
                }
                {
                    let mut console = self.console.borrow_mut();
                    let dialect = console.dialect;
                    console.start_in(&text, dialect);
                    console.step(&mut super::perf_ms, STEP_MS);
                }
                self.save_history();
                // A table created by hand is the person's, whatever design used its name.
                if self.loads.borrow_mut().forget_created(&text) {
                    self.save_loads();
                }
                self.after_run(Some(&text))
            }
            Action::QuickStart => {
                if !self.can_run() {
                    return self;
                }
                {
                    let mut console = self.console.borrow_mut();
                    // Each command gets a millisecond of its own (`Engine::begin_command`),
                    // so the second put of u001 adds a version, as the note says.
                    for (what, command) in QUICK_START {
                        console.note(what, false);
                        console.submit(command);
                    }
                }
                self.save_history();
                self.after_run(Some("scan 'users'"))
            }
            Action::Ran => self.after_run(None),
            Action::Cancel => {
                if !self.console.borrow_mut().cancel() {
                    return self;
                }
                self.after_run(None)
            }
            Action::More(number, index, all) => {
                if !self.console.borrow_mut().more(number, index, all) {
                    return self;
                }
                self.after_run(None)
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
                    kept_aside,
                    ..
                } = *loaded;
                self.install(engine);
                {
                    let mut storage = self.storage.borrow_mut();
                    storage.idb = Some(idb);
                    storage.queue.replace_saver(saver);
                    storage.kept_aside = kept_aside;
                    if writer {
                        storage.notice = None;
                    }
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
                self.storage.borrow_mut().mode = Mode::Unavailable(reason);
                Rc::new(self.next(None))
            }
            Action::StorageNotice(text) => {
                self.storage.borrow_mut().notice = Some(text);
                Rc::new(self.next(None))
            }
            Action::RetrySave => {
                self.retry_save();
                Rc::new(self.next(None))
            }
            Action::DiscardKeptAside => {
                {
                    let mut storage = self.storage.borrow_mut();
                    if storage.mode == Mode::Writer && storage.queue.can_discard() {
                        let ticket = self.console.borrow_mut().take_ticket();
                        storage.queue.discard_kept_aside(ticket);
                        storage.kept_aside.clear();
                    }
                }
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
                // The imported tables are the person's, whatever their names.
                *self.loads.borrow_mut() = Loads::default();
                self.save_loads();
                self.console.borrow_mut().note(&summary, false);
                self.after_run(None)
            }
            Action::Note(text) => {
                self.console
                    .borrow_mut()
                    .note(&text, text.starts_with("ERROR"));
                Rc::new(self.next(None))
            }
            Action::OpenDesign(id) => {
                let Some(design) = self.design(id) else {
                    return self;
                };
                if self.console.borrow().is_running() || self.pending.is_some() {
                    return self;
                }
                Rc::new(self.open_design(&design))
            }
            Action::Resolve(choice) => {
                if self.console.borrow().is_running() {
                    return self;
                }
                match self.resolve(choice) {
                    (next, Some(script)) => Rc::new(next).reduce(Action::Submit(script)),
                    (next, None) => next.after_link_question(choice),
                }
            }
            Action::LinkOpened(link) => {
                let mut next = self.next(None);
                next.link = Some(Rc::new(link));
                Rc::new(next)
            }
            Action::RunLink(run) => {
                if run && !self.can_run() {
                    return self;
                }
                self.run_link(run)
            }
            Action::ImportTable(table, name) => {
                if !self.can_run() || self.pending.is_some() {
                    return self;
                }
                match self.import_table(table, name) {
                    (next, Some(script)) => Rc::new(next).reduce(Action::Submit(script)),
                    (next, None) => Rc::new(next),
                }
            }
            Action::ResetDesign => {
                if !self.can_run() {
                    return self;
                }
                Rc::new(self.reset_design())
            }
            Action::ResizeDesign(size) => {
                let Some(id) = self.selected_design else {
                    return self;
                };
                if !self.can_run() || self.pending.is_some() {
                    return self;
                }
                Rc::new(self.resize_design(id, size))
            }
            Action::RunPattern(index) => {
                let Some(design) = self.selected_design.and_then(|id| self.design(id)) else {
                    return self;
                };
                let Some(pattern) = design.patterns.get(index) else {
                    return self;
                };
                if !self.can_run() {
                    return self;
                }
                let placement = self.placement(&design);
                let command = pattern_as(&design, index, &placement)
                    .unwrap_or_else(|_| pattern.command.clone());
                let result = {
                    let mut console = self.console.borrow_mut();
                    // A pattern runs whole, so its reads are measured whole: no paging.
                    let page = console.shell.page_rows.take();
                    let result = run_pattern_as(&design, &mut console.shell, index, &placement);
                    console.shell.page_rows = page;
                    result
                };
                let run = match result {
                    Ok(mut run) => {
                        let outcomes = std::mem::take(&mut run.outcomes);
                        self.console.borrow_mut().record(&command, outcomes);
                        Some(Rc::new(run))
                    }
                    Err(e) => {
                        // The table was changed by hand so that a command of the pattern fails.
                        let text =
                            format!("ERROR: the access pattern “{}” failed: {e}", pattern.name);
                        self.console.borrow_mut().note(&text, true);
                        None
                    }
                };
                self.save_history();
                let mut next = self.after_run_state(Some(&command));
                if run.is_some() {
                    // The pattern's numbers are the card's now, shown with the view they
                    // point at.
                    next.tour_run = None;
                    let view =
                        crate::designs::tour::View::for_pattern(&pattern.command, &pattern.claims);
                    next.view_request = (view.tab(), self.view_request.1 + 1);
                }
                next.pattern_run = run.map(|r| (design.id, index, r));
                Rc::new(next)
            }
            Action::RunTourStep(index) => {
                let Some(design) = self.selected_design.and_then(|id| self.design(id)) else {
                    return self;
                };
                let Some(step) = crate::designs::tour::tour(&design).into_iter().nth(index) else {
                    return self;
                };
                if !self.can_run() {
                    return self;
                }
                // A design loaded under other names runs its steps on those tables.
                let placement = self.placement(&design);
                let step = match placement.rewrite(&step.command) {
                    Ok(command) => crate::designs::tour::Step { command, ..step },
                    Err(e) => {
                        let text = format!("ERROR: the tour step “{}” failed: {e}", step.title);
                        self.console.borrow_mut().note(&text, true);
                        return Rc::new(self.after_run_state(None));
                    }
                };
                let tables = placement.tables();
                let result = {
                    let mut console = self.console.borrow_mut();
                    // A step runs whole, so its reads are measured whole: no paging.
                    let page = console.shell.page_rows.take();
                    let result = step.run(&mut console.shell, &tables);
                    console.shell.page_rows = page;
                    result
                };
                let run = match result {
                    Ok(mut run) => {
                        let outcomes = std::mem::take(&mut run.outcomes);
                        self.console.borrow_mut().record(&step.command, outcomes);
                        Some(Rc::new(run))
                    }
                    Err(e) => {
                        let text = format!("ERROR: the tour step “{}” failed: {e}", step.title);
                        self.console.borrow_mut().note(&text, true);
                        None
                    }
                };
                self.save_history();
                let mut next = self.after_run_state(Some(&step.command));
                next.tour_run = run.map(|r| (design.id, index, r));
                // The card's numbers are the step's now, not an earlier pattern's.
                next.pattern_run = None;
                next.view_request = (step.view.tab(), self.view_request.1 + 1);
                Rc::new(next)
            }
            Action::OpenCompare(id) => {
                let id = if id == crate::designs::delete_models::ID {
                    crate::designs::delete_models::ID
                } else {
                    let Some(pair) = crate::designs::compare::find(id) else {
                        return self;
                    };
                    pair.id
                };
                let mut next = self.next(None);
                next.selected_compare = Some(id);
                Rc::new(next)
            }
            Action::CloseCompare => {
                let mut next = self.next(None);
                next.selected_compare = None;
                Rc::new(next)
            }
            Action::CloseDesign => {
                let mut next = self.next(None);
                next.selected_design = None;
                next.pattern_run = None;
                next.tour_run = None;
                Rc::new(next)
            }
            Action::SetDialect(dialect) => {
                self.console.borrow_mut().dialect = dialect;
                Rc::new(self.next(None))
            }
            Action::SetPrefs(prefs) => {
                prefs.save();
                prefs.apply_theme();
                {
                    let mut console = self.console.borrow_mut();
                    console.shell.time_format = time_format(&prefs);
                    super::dialect_switch::set_zone(&mut console, &prefs);
                }
                let mut next = self.next(None);
                next.prefs = prefs;
                Rc::new(next)
            }
            Action::Reset => {
                let mut engine = Engine::new(Box::new(super::now_ms));
                engine.record_changes(true);
                {
                    let mut console = self.console.borrow_mut();
                    console.cancel();
                    console.shell.engine = engine;
                    console.entries.clear();
                    console.set_history(Vec::new());
                    console.last_trace = None;
                    console.data_version += 1;
                }
                gloo::storage::LocalStorage::delete(HISTORY_KEY);
                *self.loads.borrow_mut() = Loads::default();
                self.save_loads();
                {
                    let mut storage = self.storage.borrow_mut();
                    if storage.mode == Mode::Writer {
                        // A checkpoint of nothing that clears the store first: every run, every
                        // catalog generation and the log go, whatever was being saved.
                        let mut console = self.console.borrow_mut();
                        let ticket = console.take_ticket();
                        storage.queue.reset(&mut console.shell.engine, ticket);
                        storage.kept_aside.clear();
                    }
                }
                let mut next = self.next(Some(String::new()));
                next.selected_table = None;
                next.selected_row = None;
                next.selected_design = None;
                next.pending = None;
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

/// Save status: a counter bumped whenever the storage state changed (a save began, committed
/// or failed, usage was measured). What it counts lives in [`Storage`].
#[derive(Default, PartialEq)]
pub struct SaveStatus {
    pub tick: u64,
}

impl Reducible for SaveStatus {
    type Action = ();

    fn reduce(self: Rc<Self>, _: ()) -> Rc<Self> {
        Rc::new(SaveStatus {
            tick: self.tick + 1,
        })
    }
}

pub type StatusHandle = UseReducerHandle<SaveStatus>;

/// The save status from the nearest provider.
#[hook]
pub fn use_status() -> Option<StatusHandle> {
    use_context::<StatusHandle>()
}
