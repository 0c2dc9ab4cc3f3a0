//! The app's logic, native and tested: what a person does in the page (types lines, opens a
//! gallery design, runs its access patterns and tour steps, answers the question asked when
//! something would land on a table of theirs, opens a shared link, imports a table, resets,
//! sets preferences and the dialect) as one plain type. [`Session::apply`] changes the session
//! and returns the [`Effect`]s to perform (save the history, save the loads, forget the link in
//! the address, apply the theme); it performs none itself, so the page performs them and the
//! tests read them.
//!
//! ```
//! use rowkey::session::{Action, Clocks, Effect, Session};
//!
//! let mut session = Session::new(Clocks::fixed(1_700_000_000_000), Default::default());
//! let effects = session.apply(Action::Submit("create 't', 'f'".into()));
//! assert!(effects.contains(&Effect::SaveChanges));
//! assert_eq!(session.selected_table.as_deref(), Some("t"));
//! ```
//!
//! Cloning a session is cheap: its console and the gallery's loads are shared between the
//! snapshots the page keeps (one per render).

mod arrivals;
pub mod prefs;
mod runs;
mod sample;

use std::cell::RefCell;
use std::rc::Rc;

pub use arrivals::{Choice, Incoming, Pending};
use prefs::{CbtZone, Prefs, Timestamps};
pub use sample::{ratio_line, SampleOnShow};

use crate::console::Console;
use crate::designs::loads::Loads;
use crate::designs::{Design, PatternRun, Size};
use crate::dialect::{encode_history, Dialect, HistoryLine};
use crate::engine::Engine;
use crate::import::ImportedTable;
use crate::kit::civil::Zone;
use crate::share::Shared;
use crate::shell::{Shell, TimeFormat};
use crate::simulate::{SampleEngine, Workload};

/// Largest submission, in bytes, kept in the saved history (it stays for Up until a reload).
pub const HISTORY_SAVED_MAX: usize = 64 * 1024;

/// One step of a running batch, in milliseconds, before the page gets the thread back.
pub const STEP_MS: f64 = 12.0;

/// What the session reads the time with: the page gives the browser's clocks, tests fixed ones.
#[derive(Clone)]
pub struct Clocks {
    /// Epoch milliseconds, for the engine's timestamps.
    pub now_ms: Rc<dyn Fn() -> u64>,
    /// A monotonic timer in milliseconds, for the runner's steps and the timings shown.
    pub perf_ms: Rc<dyn Fn() -> f64>,
    /// The local zone's offset from UTC in minutes at an epoch millisecond.
    pub offset_minutes: Rc<dyn Fn(i64) -> i32>,
}

impl Clocks {
    /// Clocks that always read `now_ms`, with the timer at 0 and the local zone UTC.
    pub fn fixed(now_ms: u64) -> Clocks {
        Clocks {
            now_ms: Rc::new(move || now_ms),
            perf_ms: Rc::new(|| 0.0),
            offset_minutes: Rc::new(|_| 0),
        }
    }

    fn now(&self) -> Box<dyn Fn() -> u64> {
        let now = self.now_ms.clone();
        Box::new(move || now())
    }

    fn timer(&self) -> Box<dyn Fn() -> f64> {
        let perf = self.perf_ms.clone();
        Box::new(move || perf())
    }
}

/// What the session starts from: what the page kept from earlier visits.
#[derive(Clone, Debug, Default)]
pub struct Saved {
    pub prefs: Prefs,
    pub history: Vec<HistoryLine>,
    pub loads: Loads,
}

/// The app's state below the page.
#[derive(Clone)]
pub struct Session {
    pub console: Rc<RefCell<Console>>,
    /// Which tables the gallery loaded, for which design.
    pub loads: Rc<RefCell<Loads>>,
    pub selected_table: Option<String>,
    pub selected_row: Option<Vec<u8>>,
    /// The gallery design on show.
    pub selected_design: Option<&'static str>,
    /// The last access pattern run from the design card: design, pattern index, and its
    /// numbers (without the outputs, which went to the console).
    pub pattern_run: Option<(&'static str, usize, Rc<PatternRun>)>,
    /// The A/B comparison on show (a pair's id).
    pub selected_compare: Option<&'static str>,
    /// The last tour step run: design, step index, and its numbers.
    pub tour_run: Option<(&'static str, usize, Rc<PatternRun>)>,
    /// A view tab the views pane should show, and a serial bumped at every request (a tour
    /// step asks for the view that answers it).
    pub view_request: (usize, u64),
    pub prefs: Prefs,
    /// A question for the person: something would land on a table of theirs.
    pub pending: Option<Rc<Pending>>,
    /// A shared link opened with the page, read or not, waiting for "Run" or "Cancel".
    pub link: Option<Rc<Result<Shared, String>>>,
    /// A link's entries, waiting for the answer about its design's tables.
    pub queued: Option<Rc<Vec<HistoryLine>>>,
    /// What waits for the console, each started when the one before it ends: a link's lines
    /// of another dialect than the one running, the quick start's notes and commands.
    pub backlog: Rc<Vec<Queued>>,
    /// A pattern or tour step running on the runner, measured when it ends.
    measuring: Rc<RefCell<Option<runs::Measuring>>>,
    /// The stored tables are still being read: nothing runs until they are.
    pub loading: bool,
    /// A simulation's sample in the console in place of the person's tables.
    pub sample: Option<Rc<SampleOnShow>>,
    /// The person's tables while the sample is on show.
    aside: Rc<RefCell<Option<sample::Aside>>>,
    clocks: Clocks,
}

/// Something waiting for the console.
#[derive(Clone, Debug, PartialEq)]
pub enum Queued {
    /// A note shown before what comes next.
    Note(String),
    /// A line (or lines) run as one entry in its dialect.
    Line(HistoryLine),
}

/// What the page can ask of the session.
pub enum Action {
    /// Run the text as one entry, in the console's dialect.
    Submit(String),
    /// Run the quick start: each step after a note on what it shows.
    QuickStart,
    /// The runner stepped the running entry: follow what it did.
    Ran,
    /// Stop the running entry; what ran stays.
    Cancel,
    /// The next page of a paged scan (the entry's place, `Console::place`; statement index;
    /// all pages).
    More(usize, usize, bool),
    /// Ctrl+L.
    ClearScreen,
    HistoryUp(String),
    HistoryDown,
    SelectTable(String),
    SelectRow(Option<Vec<u8>>),
    /// The stored tables were read: this engine, and why nothing may be written (another tab
    /// writes), if so.
    Restored(Box<Engine>, Option<String>),
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
    ResizeDesign(Size),
    /// Create a table read from a pasted scan or a CSV under this name (asking first when the
    /// name is taken).
    ImportTable(Rc<ImportedTable>, String),
    /// The page was opened with a share link: what it holds, or why it cannot be read.
    LinkOpened(Result<Shared, String>),
    /// Run the shared link's design, entries and workload here (or drop the link: false).
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
    /// Run the console on a simulation's sample (what was simulated, in a few words) instead
    /// of the person's tables, which wait aside, untouched and unsaved-over.
    OpenSample(Box<SampleEngine>, String),
    /// Back to the person's tables.
    LeaveSample,
    /// The person chose a file for cbt's `import` (its name and bytes): it is kept for the
    /// page, and an `import` line naming it is put in the input, not run.
    GiveCbtFile(String, Rc<[u8]>),
}

/// What the page must do after an action: the session does no input or output itself.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Carry what the statements changed to storage (when this tab saves).
    SaveChanges,
    /// Empty storage: every table went.
    ClearStorage,
    /// Keep this history across reloads (the saved format, [`crate::dialect::encode_history`]).
    SaveHistory(crate::json::Value),
    /// Forget the saved history.
    ForgetHistory,
    /// Keep the gallery's loads across reloads (forget them when empty).
    SaveLoads(Loads),
    SavePrefs(Prefs),
    /// Set the page's theme.
    ApplyTheme(prefs::Theme),
    /// Remove the share link from the address, so that a reload does not offer it again.
    ForgetFragment,
    /// Keep this workload as the simulator's (a shared link's, after the person said Run).
    SaveWorkload(Workload),
    /// Put this text into the input box.
    ShowInput(String),
}

/// The shell's timestamp format for a preference.
fn time_format(prefs: &Prefs, clocks: &Clocks) -> TimeFormat {
    match prefs.timestamps {
        Timestamps::Epoch => TimeFormat::Epoch,
        Timestamps::Local => {
            let offset = clocks.offset_minutes.clone();
            TimeFormat::Local(Box::new(move |ms| offset(ms)))
        }
    }
}

impl Session {
    /// A session over an empty engine, with what the page kept.
    pub fn new(clocks: Clocks, saved: Saved) -> Session {
        let mut engine = Engine::new(clocks.now());
        engine.record_changes(true);
        let mut shell = Shell::new(engine, clocks.timer());
        shell.time_format = time_format(&saved.prefs, &clocks);
        let mut console = Console::new(shell, Vec::new());
        console.set_history(saved.history);
        // The dialect the person left the console in.
        console.dialect = saved.prefs.dialect;
        let session = Session {
            console: Rc::new(RefCell::new(console)),
            loads: Rc::new(RefCell::new(saved.loads)),
            selected_table: None,
            selected_row: None,
            selected_design: None,
            pattern_run: None,
            selected_compare: None,
            tour_run: None,
            view_request: (0, 0),
            prefs: saved.prefs,
            pending: None,
            link: None,
            queued: None,
            backlog: Rc::new(Vec::new()),
            measuring: Rc::new(RefCell::new(None)),
            loading: false,
            sample: None,
            aside: Rc::new(RefCell::new(None)),
            clocks,
        };
        session.set_zone();
        session
    }

    /// Puts the console in `dialect`, kept in the preferences for the next visit.
    fn set_dialect(&mut self, dialect: Dialect, fx: &mut Effects) {
        self.console.borrow_mut().dialect = dialect;
        if self.prefs.dialect != dialect {
            self.prefs.dialect = dialect;
            fx.push(Effect::SavePrefs(self.prefs));
        }
    }

    /// Keeps a file for cbt's `import` and puts the line that imports it in the input, in cbt
    /// mode, for the person to run or not: a file never changes a table by itself.
    fn give_cbt_file(&mut self, name: &str, bytes: Rc<[u8]>, fx: &mut Effects) {
        self.set_dialect(Dialect::Cbt, fx);
        let mut console = self.console.borrow_mut();
        let size = bytes.len() as u64;
        console.cbt_files.give(name, bytes);
        let table = self
            .selected_table
            .as_deref()
            .filter(|t| {
                console
                    .shell
                    .engine
                    .table(t)
                    .is_ok_and(|t| t.descriptor.rules == crate::cbt::BIGTABLE_RULES)
            })
            .unwrap_or("TABLE")
            .to_string();
        console.note(
            &format!(
                "{name} ({}) is ready for cbt's import; nothing is imported until an import line naming it runs.",
                crate::kit::text::human_bytes(size)
            ),
            false,
        );
        fx.push(Effect::ShowInput(format!(
            "import {} {}",
            crate::cbt::export::quote(table.as_bytes()),
            crate::cbt::export::quote(name.as_bytes())
        )));
    }

    /// Whether a submission would run now: not while loading, nor while a batch runs.
    pub fn can_run(&self) -> bool {
        !self.loading && !self.console.borrow().is_running()
    }

    /// Does what the person asked; returns what the page must do.
    pub fn apply(&mut self, action: Action) -> Vec<Effect> {
        let mut fx = Effects::default();
        if self.on_sample() && self.leaves_sample(&action) {
            self.leave_sample(&mut fx);
        }
        self.act(action, &mut fx);
        self.keep_sample_unsaved(&mut fx);
        fx.0
    }

    fn act(&mut self, action: Action, fx: &mut Effects) {
        match action {
            Action::Submit(text) => {
                let dialect = self.console.borrow().dialect;
                self.submit(&text, dialect, fx);
            }
            Action::QuickStart => self.quick_start(fx),
            Action::Ran => {
                self.finish_measured();
                self.run_backlog(fx);
                self.after_run(None, fx);
            }
            Action::Cancel => {
                if self.console.borrow_mut().cancel() {
                    self.abandon_measured();
                    self.backlog = Rc::new(Vec::new());
                    self.after_run(None, fx);
                }
            }
            Action::More(place, index, all) => {
                if self.console.borrow_mut().more(place, index, all) {
                    self.after_run(None, fx);
                }
            }
            Action::ClearScreen => self.console.borrow_mut().clear(),
            Action::HistoryUp(current) => {
                if let Some(line) = self.console.borrow_mut().history_up(&current) {
                    fx.push(Effect::ShowInput(line));
                }
            }
            Action::HistoryDown => {
                if let Some(line) = self.console.borrow_mut().history_down() {
                    fx.push(Effect::ShowInput(line));
                }
            }
            Action::SelectTable(name) => {
                self.selected_table = Some(name);
                self.selected_row = None;
            }
            Action::SelectRow(row) => self.selected_row = row,
            Action::Restored(engine, read_only) => {
                self.install(*engine);
                self.console.borrow_mut().shell.read_only = read_only;
                self.loading = false;
                // Recovery problems make the saver checkpoint at once what was recovered.
                fx.push(Effect::SaveChanges);
                self.fix_selection();
            }
            Action::Imported(engine, summary) => {
                if self.on_sample() {
                    // Built over the sample's engine: it would put the sample in place of
                    // the person's tables.
                    self.console.borrow_mut().note("ERROR: nothing was imported while the simulation's sample is on show: go back to your tables, then import.", true);
                    return;
                }
                self.install(*engine);
                // The imported tables are the person's, whatever their names.
                *self.loads.borrow_mut() = Loads::default();
                self.save_loads(fx);
                self.console.borrow_mut().note(&summary, false);
                self.after_run(None, fx);
            }
            Action::Note(text) => self
                .console
                .borrow_mut()
                .note(&text, text.starts_with("ERROR")),
            Action::Reset => self.reset(fx),
            Action::OpenDesign(id) => {
                let Some(design) = self.design(id) else {
                    return;
                };
                if self.console.borrow().is_running() || self.pending.is_some() {
                    return;
                }
                self.open_design(&design, fx);
            }
            Action::Resolve(choice) => {
                if !self.console.borrow().is_running() {
                    self.resolve(choice, fx);
                }
            }
            Action::LinkOpened(link) => self.link = Some(Rc::new(link)),
            Action::RunLink(run) => {
                if !run || self.can_run() {
                    self.run_link(run, fx);
                }
            }
            Action::ImportTable(table, name) => {
                if self.can_run() && self.pending.is_none() {
                    self.import_table(table, name, fx);
                }
            }
            Action::ResetDesign => {
                if self.can_run() {
                    self.reset_design(fx);
                }
            }
            Action::ResizeDesign(size) => {
                let Some(id) = self.selected_design else {
                    return;
                };
                if self.can_run() && self.pending.is_none() {
                    self.resize_design(id, size, fx);
                }
            }
            Action::RunPattern(index) => self.run_pattern(index, fx),
            Action::RunTourStep(index) => self.run_tour_step(index, fx),
            Action::OpenCompare(id) => {
                let id = if id == crate::designs::delete_models::ID {
                    Some(crate::designs::delete_models::ID)
                } else {
                    crate::designs::compare::find(id).map(|pair| pair.id)
                };
                if id.is_some() {
                    self.selected_compare = id;
                }
            }
            Action::CloseCompare => self.selected_compare = None,
            Action::CloseDesign => {
                self.selected_design = None;
                self.pattern_run = None;
                self.tour_run = None;
            }
            Action::SetDialect(dialect) => self.set_dialect(dialect, fx),
            Action::OpenSample(sample, title) => self.open_sample(*sample, title, fx),
            Action::LeaveSample => self.leave_sample(fx),
            Action::GiveCbtFile(name, bytes) => self.give_cbt_file(&name, bytes, fx),
            Action::SetPrefs(prefs) => {
                fx.push(Effect::SavePrefs(prefs));
                fx.push(Effect::ApplyTheme(prefs.theme));
                self.prefs = prefs;
                self.console.borrow_mut().shell.time_format = time_format(&prefs, &self.clocks);
                self.set_zone();
            }
        }
    }

    /// Whether `action` is about the person's own tables, so that the sample makes way for
    /// them first: stored tables read, a design, a link, an import, a reset. Not while an
    /// entry runs on the sample (the action waits, as it would for any running entry), except
    /// the stored tables, which always come back.
    fn leaves_sample(&self, action: &Action) -> bool {
        let own = matches!(
            action,
            Action::QuickStart
                | Action::Reset
                | Action::OpenDesign(_)
                | Action::Resolve(_)
                | Action::ResetDesign
                | Action::ResizeDesign(_)
                | Action::RunPattern(_)
                | Action::RunTourStep(_)
                | Action::ImportTable(..)
                | Action::RunLink(true)
        );
        matches!(action, Action::Restored(..)) || (own && self.can_run())
    }

    /// Starts `text` as one entry in `dialect` and runs its first step; the page's runner
    /// steps the rest ([`Action::Ran`]).
    fn submit(&mut self, text: &str, dialect: Dialect, fx: &mut Effects) {
        if !self.can_run() {
            return;
        }
        {
            let mut console = self.console.borrow_mut();
            console.start_in(text, dialect);
            let perf = self.clocks.perf_ms.clone();
            console.step(&mut || perf(), STEP_MS);
        }
        self.save_history(fx);
        // A table created by hand is the person's, whatever design used its name.
        if self.loads.borrow_mut().forget_created(text) {
            self.save_loads(fx);
        }
        // The typed text ran: the input is empty again, ready for the next line.
        fx.push(Effect::ShowInput(String::new()));
        self.after_run(Some((text, dialect)), fx);
    }

    /// Runs what waits, while the console is free: notes at once, a line as an entry whose
    /// later steps the runner carries ([`Action::Ran`] comes back here).
    fn run_backlog(&mut self, fx: &mut Effects) {
        while !self.console.borrow().is_running() && !self.backlog.is_empty() {
            let mut rest = (*self.backlog).clone();
            let next = rest.remove(0);
            self.backlog = Rc::new(rest);
            match next {
                Queued::Note(text) => self.console.borrow_mut().note(&text, false),
                Queued::Line(line) => self.submit(&line.text, line.dialect, fx),
            }
        }
    }

    /// The quick start: each command after a note on what it shows, on the console's runner.
    fn quick_start(&mut self, fx: &mut Effects) {
        if !self.can_run() {
            return;
        }
        // Each command gets a millisecond of its own (`Engine::begin_command`), so the second
        // put of u001 adds a version, as the note says.
        self.backlog = Rc::new(
            QUICK_START
                .iter()
                .flat_map(|(what, command)| {
                    [
                        Queued::Note(what.to_string()),
                        Queued::Line(HistoryLine::hbase(*command)),
                    ]
                })
                .collect(),
        );
        self.run_backlog(fx);
    }

    /// Empties every table, the history and the gallery's loads.
    fn reset(&mut self, fx: &mut Effects) {
        self.abandon_measured();
        let mut engine = Engine::new(self.clocks.now());
        engine.record_changes(true);
        {
            let mut console = self.console.borrow_mut();
            console.cancel();
            console.shell.engine = engine;
            console.start_over();
            console.set_history(Vec::new());
            console.last_trace = None;
            console.data_version += 1;
        }
        self.backlog = Rc::new(Vec::new());
        fx.push(Effect::ForgetHistory);
        *self.loads.borrow_mut() = Loads::default();
        self.save_loads(fx);
        fx.push(Effect::ClearStorage);
        fx.push(Effect::ShowInput(String::new()));
        self.selected_table = None;
        self.selected_row = None;
        self.selected_design = None;
        self.pattern_run = None;
        self.tour_run = None;
        self.pending = None;
    }

    /// Puts a loaded or imported engine in place.
    fn install(&mut self, mut engine: Engine) {
        engine.record_changes(true);
        let mut console = self.console.borrow_mut();
        console.shell.engine = engine;
        console.last_trace = None;
        console.data_version += 1;
    }

    /// Points cbt's printer at the zone the preferences name: the local offset now, or UTC.
    fn set_zone(&self) {
        let mut console = self.console.borrow_mut();
        console.cbt.zone = match self.prefs.cbt_zone {
            CbtZone::Utc => Zone::Utc,
            // The local zone at each instant printed, so a time across a daylight-saving
            // change prints in the offset it had then.
            CbtZone::Local => {
                let offset = self.clocks.offset_minutes.clone();
                Zone::from_fn(move |ms| offset(ms))
            }
        };
        console.cbt.timer = self.clocks.timer();
    }

    /// The table the last lines of a submission name first, if it exists.
    fn table_of(&self, text: &str, dialect: Dialect) -> Option<String> {
        let console = self.console.borrow();
        // A cbt line is analysed as cbt: the views follow the Bigtable table it names.
        let accesses = crate::analysis::analyze(&[text.to_string()], dialect);
        accesses.iter().rev().find_map(|a| {
            let name = a.table()?;
            console.shell.engine.exists(name).then(|| name.to_string())
        })
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

    /// After statements ran: save what they changed, follow the table they named.
    fn after_run(&mut self, ran: Option<(&str, Dialect)>, fx: &mut Effects) {
        fx.push(Effect::SaveChanges);
        if let Some((text, dialect)) = ran {
            if let Some(t) = self.table_of(text, dialect) {
                if self.selected_table.as_ref() != Some(&t) {
                    self.selected_row = None;
                }
                self.selected_table = Some(t);
            }
        }
        self.fix_selection();
    }

    /// Keeps the history across reloads, without the submissions too large for local storage
    /// (a 5 MB paste would make every later save of the history fail).
    fn save_history(&self, fx: &mut Effects) {
        let mut kept = self.console.borrow().history_lines();
        kept.retain(|h| h.text.len() <= HISTORY_SAVED_MAX);
        fx.push(Effect::SaveHistory(encode_history(&kept)));
    }

    fn save_loads(&self, fx: &mut Effects) {
        fx.push(Effect::SaveLoads(self.loads.borrow().clone()));
    }

    /// The sample size picked for design `id`.
    pub fn size_of(&self, id: &str) -> Size {
        self.loads.borrow().size(id)
    }

    /// Design `id` at the sample size picked for it.
    pub fn design(&self, id: &str) -> Option<Design> {
        crate::designs::find_at(id, self.size_of(id))
    }

    /// Whether the gallery loaded design `id` (so that it can be reset).
    pub fn is_loaded(&self, id: &str) -> bool {
        self.loads.borrow().get(id).is_some()
    }
}

/// The effects of one action, in order; one of a kind where only the last counts.
#[derive(Default)]
struct Effects(Vec<Effect>);

impl Effects {
    fn push(&mut self, effect: Effect) {
        let same_kind = |e: &Effect| std::mem::discriminant(e) == std::mem::discriminant(&effect);
        self.0.retain(|e| !same_kind(e));
        self.0.push(effect);
    }
}

/// The quick start: what each step shows, then the command.
pub const QUICK_START: &[(&str, &str)] = &[
    ("A table with two column families; `info` keeps three versions of each cell.", "create 'users', {NAME => 'info', VERSIONS => 3}, 'stats'"),
    ("Two rows. Each put writes one cell, stamped with the time in epoch milliseconds.", "put 'users', 'u001', 'info:name', 'Ada'\nput 'users', 'u002', 'info:name', 'Grace'"),
    ("A second put on the same cell does not overwrite it: it adds a newer version.", "put 'users', 'u001', 'info:name', 'Ada Lovelace'"),
    ("A counter: 8 bytes, added to atomically.", "incr 'users', 'u001', 'stats:logins', 3"),
    ("A scan returns rows in row-key order, and only the newest version of each cell. The views show which rows it examined.", "scan 'users'"),
    ("Asking for versions shows the older value still stored. Pick u001 in the Keyspace view to see every version.", "get 'users', 'u001', {COLUMN => 'info:name', VERSIONS => 3}"),
];
