//! The app's state as two reducers. [`AppState`] holds the [`Session`] (the app's logic, with
//! the console and its engine inside) and what only the page has: storage, the input box, the
//! runner; it dispatches to the session and performs the effects the session returns (local
//! storage, the theme, the address). Its `data_version` tells the views when the engine's
//! contents changed, so they recompute once per data version, not per render. [`SaveStatus`]
//! changes as saves come and go (saving, saved) and re-renders only what shows it.

use std::cell::{Cell, RefCell};
use std::ops::Deref;
use std::rc::Rc;

use gloo::storage::Storage as _;
use yew::prelude::*;

use super::storage::{Mode, Storage};
use crate::persist::idb::Idb;
use crate::persist::Loaded;
use crate::session::{Clocks, Effect, Saved, Session};

const READ_ONLY: &str = "this tab is read-only: Rowkey is open for writing in another tab (close it and this tab takes over)";

/// Where the history is kept across reloads.
const HISTORY_KEY: &str = "rowkey.history";

/// Where the gallery's loads are kept across reloads.
const LOADS_KEY: &str = "rowkey.design-loads";

/// Where the Simulate view keeps its workload between visits (it reads it when it mounts): read
/// and written only through [`saved_workload`] and [`save_workload`].
const WORKLOAD_KEY: &str = "rowkey.simulate.workload";

/// The history as saved, of any format (format 1's lines read as HBase's).
fn saved_history() -> Vec<crate::dialect::HistoryLine> {
    super::saved_json(HISTORY_KEY, |n| {
        Ok(crate::dialect::decode_history(n.value()))
    })
    .unwrap_or_default()
}

/// The workload the Simulate view keeps (its last run), if it reads.
pub fn saved_workload() -> Option<crate::simulate::Workload> {
    gloo::storage::LocalStorage::raw()
        .get_item(WORKLOAD_KEY)
        .ok()
        .flatten()
        .and_then(|t| crate::simulate::Workload::from_json(&t).ok())
}

/// Keeps `workload` as the Simulate view's (what [`saved_workload`] reads back).
pub fn save_workload(workload: &crate::simulate::Workload) {
    let _ = gloo::storage::LocalStorage::raw().set_item(WORKLOAD_KEY, &workload.to_json());
}

/// How long a running batch goes between two refreshes of the views, in milliseconds.
const VIEW_REFRESH_MS: f64 = 400.0;

/// How long a running batch goes between two saves, in milliseconds. A save that follows a
/// flush is a checkpoint, which still walks every region and run of every table, so a batch
/// saves about once a second while it runs, and everything at its end.
const SAVE_EVERY_MS: f64 = 1000.0;

pub use crate::session::STEP_MS;

/// Everything the components read: the session's fields through `Deref`, and the page's own.
pub struct AppState {
    pub session: Session,
    pub storage: Rc<RefCell<Storage>>,
    /// Bumped on every change of the console or the selection.
    pub version: u64,
    /// The engine's contents as the views last took them: bumped after commands ran (during a
    /// long batch, a few times a second).
    pub data_version: u64,
    data_taken_at: f64,
    /// When a running batch's changes were last queued for saving.
    saved_at: f64,
    /// Text to put into the input (history navigation, examples).
    pub input: String,
    /// Bumped when `input` should replace what the input box holds.
    pub input_serial: u64,
    /// Bumped when a shared link's workload became the Simulate view's, which then reads it.
    pub workload_serial: u64,
    /// Whether the loop that steps a running batch is alive.
    pub runner: Rc<Cell<bool>>,
}

impl Deref for AppState {
    type Target = Session;

    fn deref(&self) -> &Session {
        &self.session
    }
}

/// What components can ask for: the session's actions, and what storage tells the page.
pub enum Action {
    /// Something for the app's logic.
    Session(crate::session::Action),
    /// Stored tables were read; the flag says whether this tab writes.
    Loaded(Box<Loaded>, Rc<Idb>, bool),
    StorageUnavailable(String),
    /// Something about the write lock or the takeover the person must know, with what to do.
    StorageNotice(String),
    /// Write everything again (after a failure).
    RetrySave,
    /// Save the activity history that reads recorded (see `HISTORY_SAVE_DELAY_MS`).
    SaveHistory,
    /// Delete the sorted runs kept aside (the person confirmed).
    DiscardKeptAside,
    /// Another tab changed the database version.
    Outdated,
    DismissProblems,
}

impl From<crate::session::Action> for Action {
    fn from(action: crate::session::Action) -> Action {
        Action::Session(action)
    }
}

impl PartialEq for AppState {
    fn eq(&self, other: &Self) -> bool {
        self.version == other.version
            && self.data_version == other.data_version
            && self.input_serial == other.input_serial
    }
}

/// The browser's clocks.
fn clocks() -> Clocks {
    Clocks {
        now_ms: Rc::new(super::now_ms),
        perf_ms: Rc::new(super::perf_ms),
        offset_minutes: Rc::new(super::prefs::utc_offset_minutes),
    }
}

impl Default for AppState {
    fn default() -> Self {
        let saved = Saved {
            prefs: super::prefs::load(),
            history: saved_history(),
            loads: super::saved_json(LOADS_KEY, crate::designs::loads::Loads::from_json)
                .unwrap_or_default(),
        };
        let mut session = Session::new(clocks(), saved);
        session.loading = true;
        AppState {
            session,
            storage: Rc::new(RefCell::new(Storage::default())),
            version: 0,
            data_version: 0,
            data_taken_at: 0.0,
            saved_at: 0.0,
            input: String::new(),
            input_serial: 0,
            workload_serial: 0,
            runner: Rc::new(Cell::new(false)),
        }
    }
}

impl AppState {
    /// The same state, one version on, with this session. The views' data version follows the
    /// console's, at most every [`VIEW_REFRESH_MS`] while a batch runs.
    fn with(&self, session: Session) -> AppState {
        let (data, running) = {
            let c = session.console.borrow();
            (c.data_version, c.is_running())
        };
        let now = super::perf_ms();
        let take =
            data != self.data_version && (!running || now - self.data_taken_at >= VIEW_REFRESH_MS);
        AppState {
            session,
            storage: self.storage.clone(),
            version: self.version + 1,
            data_version: if take { data } else { self.data_version },
            data_taken_at: if take { now } else { self.data_taken_at },
            saved_at: self.saved_at,
            input: String::new(),
            input_serial: self.input_serial,
            workload_serial: self.workload_serial,
            runner: self.runner.clone(),
        }
    }

    /// Performs what the session asked for.
    fn perform(&mut self, effects: Vec<Effect>) {
        use gloo::storage::LocalStorage;
        for effect in effects {
            match effect {
                Effect::SaveChanges => {
                    // While a batch runs, what it changed waits in the engine's record of
                    // changes until the next save; its end always saves.
                    let now = super::perf_ms();
                    let running = self.session.console.borrow().is_running();
                    let tables_changed =
                        self.session.console.borrow().shell.engine.tables_changed();
                    if !running && !tables_changed {
                        // Reads alone: their history is saved a moment later (see
                        // `HISTORY_SAVE_DELAY_MS`), with whatever comes before then.
                        self.storage.borrow_mut().history_pending = true;
                    } else if !running || now - self.saved_at >= SAVE_EVERY_MS {
                        self.saved_at = now;
                        self.queue_save();
                    }
                }
                Effect::ClearStorage => {
                    let mut storage = self.storage.borrow_mut();
                    if storage.mode == Mode::Writer {
                        // A checkpoint of nothing that clears the store first: every run, every
                        // catalog generation and the log go, whatever was being saved.
                        let mut console = self.session.console.borrow_mut();
                        let ticket = console.take_ticket();
                        storage.queue.reset(&mut console.shell.engine, ticket);
                        storage.kept_aside.clear();
                    }
                }
                Effect::SaveHistory(history) => {
                    super::save_text(HISTORY_KEY, &history.to_compact());
                }
                Effect::ForgetHistory => LocalStorage::delete(HISTORY_KEY),
                Effect::SaveLoads(loads) if loads.is_empty() => LocalStorage::delete(LOADS_KEY),
                Effect::SaveLoads(loads) => {
                    super::save_text(LOADS_KEY, &loads.to_json());
                }
                Effect::SavePrefs(prefs) => super::prefs::save(&prefs),
                Effect::ApplyTheme(theme) => super::prefs::apply_theme(theme),
                Effect::ForgetFragment => super::address::forget_fragment(),
                Effect::SaveWorkload(workload) => {
                    save_workload(&workload);
                    self.workload_serial += 1;
                }
                Effect::ShowInput(text) => {
                    self.input = text;
                    self.input_serial += 1;
                }
            }
        }
    }

    /// Queues what the statements run so far changed, when this tab saves.
    fn queue_save(&self) {
        // A simulation's sample is never saved: its engine is not the person's.
        if self.session.on_sample() {
            return;
        }
        let mut storage = self.storage.borrow_mut();
        let mut console = self.session.console.borrow_mut();
        if storage.mode != Mode::Writer {
            let _ = console.shell.engine.take_changes();
            return;
        }
        storage.history_pending = false;
        if let Some(staged) = storage.queue.record(&mut console.shell.engine) {
            let ticket = console.take_ticket();
            storage.queue.stage(staged, ticket);
        }
    }

    /// The person pressed Retry after a failed save: a checkpoint of everything in memory.
    fn retry_save(&self) {
        let mut storage = self.storage.borrow_mut();
        if storage.mode != Mode::Writer || !storage.queue.can_retry() || self.session.on_sample() {
            return;
        }
        let mut console = self.session.console.borrow_mut();
        let ticket = console.take_ticket();
        storage.queue.retry(&mut console.shell.engine, ticket);
    }

    /// The next state after a session action.
    fn apply(&self, action: crate::session::Action) -> AppState {
        let mut session = self.session.clone();
        let effects = session.apply(action);
        let mut next = self.with(session);
        next.perform(effects);
        next
    }
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        use crate::session::Action as S;
        match action {
            Action::Session(action) => Rc::new(self.apply(action)),
            Action::Loaded(loaded, idb, writer) => {
                let Loaded {
                    engine,
                    problems,
                    saver,
                    kept_aside,
                    ..
                } = *loaded;
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
                let read_only = (!writer).then(|| READ_ONLY.to_string());
                Rc::new(self.apply(S::Restored(Box::new(engine), read_only)))
            }
            Action::StorageUnavailable(reason) => {
                self.storage.borrow_mut().mode = Mode::Unavailable(reason);
                let mut session = self.session.clone();
                session.loading = false;
                Rc::new(self.with(session))
            }
            Action::StorageNotice(text) => {
                self.storage.borrow_mut().notice = Some(text);
                Rc::new(self.with(self.session.clone()))
            }
            Action::RetrySave => {
                self.retry_save();
                Rc::new(self.with(self.session.clone()))
            }
            Action::SaveHistory => {
                let pending = {
                    let mut storage = self.storage.borrow_mut();
                    storage.history_timer = false;
                    storage.history_pending
                };
                if !pending {
                    return self;
                }
                self.queue_save();
                Rc::new(self.with(self.session.clone()))
            }
            Action::DiscardKeptAside => {
                {
                    let mut storage = self.storage.borrow_mut();
                    if storage.mode == Mode::Writer && storage.queue.can_discard() {
                        let ticket = self.session.console.borrow_mut().take_ticket();
                        storage.queue.discard_kept_aside(ticket);
                        storage.kept_aside.clear();
                    }
                }
                Rc::new(self.with(self.session.clone()))
            }
            Action::Outdated => {
                self.storage.borrow_mut().outdated = true;
                Rc::new(self.with(self.session.clone()))
            }
            Action::DismissProblems => {
                self.storage.borrow_mut().problems.clear();
                Rc::new(self.with(self.session.clone()))
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
