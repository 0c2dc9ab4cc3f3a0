//! The console's state, free of the DOM so native tests can drive it: entries shown so far,
//! command history with Up/Down navigation, the batch running now, and the trace of the last
//! read for the views.
//!
//! Whatever is submitted at once (one command, several lines, a 5 MB paste) is one [`Entry`].
//! Its statements run in order, as the HBase shell runs pasted lines: an error is reported with
//! its line number and the rest still runs. A long entry runs in steps of a few milliseconds
//! ([`Console::step`]) so the page stays responsive; it can be cancelled between steps, and what
//! ran is kept. A scan that returns more than a page of rows stops at the page and continues on
//! demand ([`Console::more`]); Rowkey's generator continues by itself.

mod history;
mod runner;
mod transcript;

use runner::Job;
pub use transcript::{prompt, Entry, EntryKind, Item, RunState};

use std::cell::RefCell;
use std::rc::Rc;

use crate::cbt;
use crate::commands;
use crate::dialect::{cbt_command, cbt_writes, Dialect};
use crate::engine::Engine;
use crate::kit::sorted::SortedMap;
use crate::shell::{Outcome, ReadTrace, Script, Shell};

/// Most history lines kept.
pub const HISTORY_LIMIT: usize = 500;

/// Most entries kept on screen; older ones go (they stay in the history).
pub const ENTRY_LIMIT: usize = 400;

/// Rows a scan prints before it waits for "more".
pub const PAGE_ROWS: usize = 1_000;

/// Rows a generator writes per step.
pub const GENERATE_STEP: usize = 5_000;

/// Statements run between two looks at the clock.
const STATEMENTS_PER_LOOK: usize = 32;

/// The console: a shell, what it printed, and the history.
pub struct Console {
    pub shell: Shell,
    /// The cbt front end. It runs over the shell's engine: the engine moves into it for a
    /// line and back after, so both dialects see the same tables.
    pub cbt: cbt::Session,
    /// The files the person chose for cbt's `import`, by name, which its `read_file` reads:
    /// kept for this page only, and read only when an `import` line names one.
    pub cbt_files: CbtFiles,
    /// The dialect typed lines are read in.
    pub dialect: Dialect,
    pub entries: Vec<Entry>,
    pub history: Vec<String>,
    /// The dialect of each history line (the same length as `history`).
    history_dialects: Vec<Dialect>,
    /// The dialect of the line being edited before history navigation started.
    draft_dialect: Dialect,
    /// Position while walking the history with Up/Down; `None` when editing a new line.
    cursor: Option<usize>,
    /// The line being edited before history navigation started.
    draft: String,
    counter: usize,
    /// Entries dropped from the front since the start (so numbers stay stable).
    dropped: usize,
    revisions: u64,
    job: Option<Job>,
    /// The rest of a script while a generator in it runs to its end.
    pending_script: Option<Script>,
    /// Bumped whenever a statement ran against the engine (writes, reads, a design loaded).
    pub data_version: u64,
    /// Save tickets handed out; a ticket covers the changes taken with it.
    tickets: u64,
    pub last_trace: Option<ReadTrace>,
    /// While set, what the running entry's statements read and the first of them that failed
    /// (a gallery pattern or tour step measured on the runner).
    pub measured: Option<MeasuredReads>,
}

/// Files given to cbt's `import` in the page, by name (a name given again replaces its file).
#[derive(Clone, Default)]
pub struct CbtFiles(Rc<RefCell<SortedMap<String, Rc<[u8]>>>>);

impl CbtFiles {
    /// Keeps a file under its name; nothing is imported until an `import` line names it.
    pub fn give(&self, name: &str, bytes: Rc<[u8]>) {
        self.0.borrow_mut().insert(name.to_string(), bytes);
    }

    /// The names of the files given, in order.
    pub fn names(&self) -> Vec<String> {
        self.0.borrow().keys().cloned().collect()
    }

    /// What `import` reads a file with: a file given, or Go's error for one that is not.
    pub fn reader(&self) -> cbt::ReadFile {
        let files = self.0.clone();
        Box::new(move |name| {
            files
                .borrow()
                .get(name)
                .map(|b| b.to_vec())
                .ok_or_else(|| format!("open {name}: no such file or directory"))
        })
    }
}

/// What a measured entry's statements read, each with its table, and the first that failed.
#[derive(Clone, Debug, Default)]
pub struct MeasuredReads {
    pub reads: Vec<(String, crate::engine::OpStats)>,
    /// `input: message` of the first statement that failed.
    pub failed: Option<String>,
}

impl Console {
    pub fn new(mut shell: Shell, history: Vec<String>) -> Console {
        shell.page_rows = Some(PAGE_ROWS);
        shell.gen_budget = Some(GENERATE_STEP);
        let history_dialects = vec![Dialect::HBase; history.len()];
        let cbt_files = CbtFiles::default();
        let mut cbt = cbt::Session::new(Engine::new(Box::new(|| 0)));
        cbt.read_file = cbt_files.reader();
        Console {
            shell,
            cbt,
            cbt_files,
            dialect: Dialect::HBase,
            entries: Vec::new(),
            history,
            history_dialects,
            draft_dialect: Dialect::HBase,
            cursor: None,
            draft: String::new(),
            counter: 0,
            dropped: 0,
            revisions: 0,
            job: None,
            pending_script: None,
            data_version: 0,
            tickets: 0,
            last_trace: None,
            measured: None,
        }
    }

    /// Runs the text as one entry to its end, however long; returns true if it asked for the
    /// console to be cleared. The browser uses [`Console::start`] and [`Console::step`].
    pub fn submit(&mut self, text: &str) -> bool {
        let cleared = self.start(text);
        let mut cleared_later = false;
        while self.is_running() {
            cleared_later |= self.step(&mut || 0.0, f64::INFINITY);
        }
        cleared || cleared_later
    }
    /// Hands out the next save ticket and marks the running (or last) entry as covered by it.
    pub fn take_ticket(&mut self) -> u64 {
        self.tickets += 1;
        let ticket = self.tickets;
        let index = self
            .job_entry()
            .or_else(|| self.entries.len().checked_sub(1));
        if let Some(e) = index.and_then(|i| self.entries.get_mut(i)) {
            e.save_ticket = ticket;
        }
        ticket
    }

    /// Adds a line from the app itself (imports, exports, designs), not from a command: it
    /// shows no prompt and takes no prompt number, so the commands' numbers run on unbroken
    /// (the quick start's went 002, 004, 005, 007 around its notes).
    pub fn note(&mut self, text: &str, failed: bool) {
        let number = self.counter;
        let item = Item {
            line: 1,
            name: None,
            input: String::new(),
            output: format!("{text}\n"),
            error_span: failed.then_some(0..0),
            more: None,
        };
        let index = self.push(Entry::new(
            number,
            EntryKind::Note { failed },
            Dialect::HBase,
            String::new(),
            1,
            vec![item],
            RunState::Done,
        ));
        self.touch(index);
    }

    fn push(&mut self, entry: Entry) -> usize {
        if self.entries.len() >= ENTRY_LIMIT && !self.is_running() {
            let extra = self.entries.len() + 1 - ENTRY_LIMIT;
            self.entries.drain(..extra);
            self.dropped += extra;
        }
        self.entries.push(entry);
        self.entries.len() - 1
    }

    fn touch(&mut self, index: usize) {
        self.revisions += 1;
        let r = self.revisions;
        if let Some(e) = self.entries.get_mut(index) {
            e.revision = r;
        }
    }

    /// Entries dropped from the screen since the start (by `clear` or the entry limit).
    pub fn dropped(&self) -> usize {
        self.dropped
    }

    /// The place since the start of the entry now at `index`: an entry's for as long as it is
    /// shown (entries leave from the front, and `dropped` counts them), which its prompt
    /// number is not (a note shares the number of the command before it).
    pub fn place(&self, index: usize) -> usize {
        self.dropped + index
    }

    /// Ctrl+L: empties the screen, keeps history and tables (and a running entry).
    pub fn clear(&mut self) {
        let keep = self.job_entry().unwrap_or(self.entries.len());
        let rest = self.entries.split_off(keep);
        self.dropped += self.entries.len();
        self.entries = rest;
        if let Some(job) = &mut self.job {
            let (Job::Script { entry, .. } | Job::Resume { entry, .. } | Job::Cbt { entry, .. }) =
                job;
            *entry = 0;
        }
    }

    /// After a reset: no entries, and the prompt's number starts again at 1, as a new HBase
    /// shell's does (the entries' keys keep counting, so that no view mistakes a new entry for
    /// an old one).
    pub fn start_over(&mut self) {
        self.dropped += self.entries.len();
        self.entries.clear();
        self.counter = 0;
    }

    /// The number the next prompt shows.
    pub fn next_number(&self) -> usize {
        self.counter + 1
    }
}
