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

use std::ops::Range;

use crate::cbt;
use crate::dialect::{cbt_command, cbt_writes, Dialect, HistoryLine};
use crate::engine::Engine;
use crate::shell::{commands, Continuation, Outcome, ReadTrace, Script, Shell};

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

/// One statement of an entry and what it printed.
#[derive(Clone, Debug)]
pub struct Item {
    /// 1-based line of the entry where the statement starts.
    pub line: usize,
    /// The command's name when it parsed and is known.
    pub name: Option<&'static str>,
    /// The statement's text.
    pub input: String,
    pub output: String,
    /// The offending span, relative to `input`, when the statement failed.
    pub error_span: Option<Range<usize>>,
    /// Where a paged scan or a generator goes on.
    pub more: Option<Continuation>,
}

impl Item {
    pub fn failed(&self) -> bool {
        self.error_span.is_some()
    }

    fn from_outcome(outcome: Outcome) -> Item {
        let error_span = outcome.error.as_ref().map(|e| {
            let len = outcome.input.len();
            let start = e.span.start.saturating_sub(outcome.span.start).min(len);
            let end = e
                .span
                .end
                .saturating_sub(outcome.span.start)
                .min(len)
                .max(start);
            start..end
        });
        Item {
            line: outcome.line,
            name: outcome.name,
            input: outcome.input,
            output: outcome.output,
            error_span,
            more: outcome.more,
        }
    }
}

/// How far an entry got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunState {
    /// Statements are still waiting to run.
    Running,
    /// Every statement ran.
    Done,
    /// Stopped by the person; the statements before the stop ran and are kept.
    Cancelled,
}

/// What kind of entry, for showing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// Typed or pasted commands.
    Commands,
    /// A line from the app itself (a design loaded, an import), not a command.
    Note { failed: bool },
}

/// One submission and everything it printed.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The running number HBase shows in its prompt (`hbase:007:0>`).
    pub number: usize,
    pub kind: EntryKind,
    /// The dialect its lines were read in.
    pub dialect: Dialect,
    /// The submitted text.
    pub input: String,
    /// How many lines it has.
    pub lines: usize,
    pub items: Vec<Item>,
    pub state: RunState,
    /// Bytes of `input` run so far.
    pub progress: usize,
    /// Milliseconds spent running (the clock of the shell's timer).
    pub elapsed_ms: f64,
    /// Whether a statement of this entry changed data.
    pub writes: bool,
    /// The save ticket covering its last change (0: nothing to save).
    pub save_ticket: u64,
    /// Bumped whenever the entry changes, so a view can tell.
    pub revision: u64,
    /// Counts over `items`, kept as they are added.
    tally: Tally,
}

/// Running counts over an entry's statements, kept as they run, so that its summary does not
/// walk fifty thousand statements on every render.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Tally {
    /// Statements per command name, in the order the names first appear.
    by_name: Vec<(&'static str, usize)>,
    errors: usize,
    /// The line of the first failed statement.
    first_error: Option<usize>,
}

impl Tally {
    /// Counts a statement that ran: under its command's name when it succeeded (so "299 puts,
    /// 1 error" says how many wrote), among the errors when it failed.
    fn add(&mut self, item: &Item) {
        if item.failed() {
            self.failure(item.line);
            return;
        }
        if let Some(name) = item.name {
            match self.by_name.iter_mut().find(|(n, _)| *n == name) {
                Some((_, c)) => *c += 1,
                None => self.by_name.push((name, 1)),
            }
        }
    }

    fn failure(&mut self, line: usize) {
        self.errors += 1;
        self.first_error = Some(self.first_error.map_or(line, |f| f.min(line)));
    }
}

impl Entry {
    /// A finished entry of one line holding `items` (callers set what differs).
    fn new(number: usize, kind: EntryKind, dialect: Dialect, items: Vec<Item>) -> Entry {
        Entry {
            number,
            kind,
            dialect,
            input: String::new(),
            lines: 1,
            items,
            state: RunState::Done,
            progress: 0,
            elapsed_ms: 0.0,
            writes: false,
            save_ticket: 0,
            revision: 0,
            tally: Tally::default(),
        }
    }

    /// Whether it shows as a batch (a summary over its statements) rather than one command.
    pub fn is_batch(&self) -> bool {
        self.items.len() > 1 || (self.state == RunState::Running && self.items.len() != 1)
    }

    pub fn errors(&self) -> impl Iterator<Item = &Item> {
        self.items.iter().filter(|i| i.failed())
    }

    pub fn failed(&self) -> bool {
        match self.kind {
            EntryKind::Note { failed } => failed,
            EntryKind::Commands => self.tally.errors > 0,
        }
    }

    /// Adds a statement that ran.
    fn add(&mut self, item: Item) {
        self.tally.add(&item);
        self.items.push(item);
    }

    /// "50,000 puts in 0.3 s, 2 errors, first on line 17".
    pub fn summary(&self) -> String {
        // Failed statements count among the errors, not under their command.
        let mut counts = self.tally.by_name.clone();
        counts.sort_by(|a, b| b.1.cmp(&a.1));
        let mut parts: Vec<String> = counts
            .iter()
            .take(3)
            .map(|(n, c)| format!("{} {}", thousands(*c as u64), plural(n, *c)))
            .collect();
        if counts.len() > 3 {
            let rest: usize = counts.iter().skip(3).map(|(_, c)| c).sum();
            parts.push(format!("{} other", thousands(rest as u64)));
        }
        let what = if parts.is_empty() {
            "no commands".to_string()
        } else {
            parts.join(", ")
        };
        let mut out = match self.state {
            RunState::Running => format!("{what} so far"),
            RunState::Done => format!("{what} in {}", seconds(self.elapsed_ms)),
            RunState::Cancelled => {
                format!("cancelled after {what} in {}", seconds(self.elapsed_ms))
            }
        };
        let errors = self.tally.errors;
        if let Some(first) = self.tally.first_error {
            out.push_str(&format!(
                ", {} error{}, first on line {first}",
                thousands(errors as u64),
                if errors == 1 { "" } else { "s" },
            ));
        }
        out
    }

    /// The prompt before the entry's line `line` (1-based), in its dialect.
    pub fn prompt(&self, line: usize) -> String {
        self.dialect.prompt(self.number + line.saturating_sub(1))
    }

    /// The whole entry as the shell prints it: each statement after its prompt, then its output.
    pub fn transcript(&self) -> String {
        match self.kind {
            EntryKind::Note { .. } => self.items.iter().map(|i| i.output.as_str()).collect(),
            EntryKind::Commands => {
                let mut out = String::new();
                for item in &self.items {
                    out.push_str(&self.prompt(item.line));
                    out.push_str(&item.input);
                    out.push('\n');
                    out.push_str(&item.output);
                }
                out
            }
        }
    }
}

/// `hbase:007:0> `.
pub fn prompt(number: usize) -> String {
    Dialect::HBase.prompt(number)
}

/// 50000 → "50,000".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count and its noun for a person to read: `1 cell`, `1,024 cells`.
pub fn count_of(n: u64, noun: &str) -> String {
    format!("{} {}", thousands(n), plural(noun, n as usize))
}

fn plural(name: &str, n: usize) -> String {
    if n == 1 {
        name.to_string()
    } else if name.ends_with('s') || name.ends_with("sh") {
        format!("{name}es")
    } else {
        format!("{name}s")
    }
}

fn seconds(ms: f64) -> String {
    if ms < 100.0 {
        format!("{:.2} s", ms / 1000.0)
    } else {
        format!("{:.1} s", ms / 1000.0)
    }
}

/// What runs between steps.
enum Job {
    /// The statements of an entry not yet run.
    Script { entry: usize, script: Script },
    /// A continuation being carried to its end (a generator, or "show all" of a scan).
    Resume { entry: usize, item: usize },
    /// The lines of a cbt entry not yet run: the entry's text and the byte where the next
    /// line starts.
    Cbt { entry: usize, at: usize },
}

/// The console: a shell, what it printed, and the history.
pub struct Console {
    pub shell: Shell,
    /// The cbt front end. It runs over the shell's engine: the engine moves into it for a
    /// line and back after, so both dialects see the same tables.
    pub cbt: cbt::Session,
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
}

impl Console {
    pub fn new(mut shell: Shell, history: Vec<String>) -> Console {
        shell.page_rows = Some(PAGE_ROWS);
        shell.gen_budget = Some(GENERATE_STEP);
        let history_dialects = vec![Dialect::HBase; history.len()];
        Console {
            shell,
            cbt: cbt::Session::new(Engine::new(Box::new(|| 0))),
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

    /// Starts an entry; nothing runs until [`Console::step`]. Returns false for blank text.
    /// Refused (false) while another entry runs.
    pub fn start(&mut self, text: &str) -> bool {
        self.start_in(text, Dialect::HBase)
    }

    /// Starts an entry read in `dialect` (what the person typed runs in the console's mode).
    pub fn start_in(&mut self, text: &str, dialect: Dialect) -> bool {
        let trimmed = text.trim();
        self.cursor = None;
        self.draft.clear();
        if trimmed.is_empty() || self.is_running() {
            return false;
        }
        let index = self.open_entry(trimmed, dialect);
        self.job = Some(match dialect {
            Dialect::HBase => Job::Script {
                entry: index,
                script: Script::new(trimmed.to_string()),
            },
            Dialect::Cbt => Job::Cbt {
                entry: index,
                at: 0,
            },
        });
        false
    }

    /// Runs the text in `dialect` as one entry to its end.
    pub fn submit_in(&mut self, text: &str, dialect: Dialect) -> bool {
        self.start_in(text, dialect);
        let mut cleared = false;
        while self.is_running() {
            cleared |= self.step(&mut || 0.0, f64::INFINITY);
        }
        cleared
    }

    /// The history with each line's dialect, as it is saved.
    pub fn history_lines(&self) -> Vec<HistoryLine> {
        self.history
            .iter()
            .zip(&self.history_dialects)
            .map(|(text, dialect)| HistoryLine {
                dialect: *dialect,
                text: text.clone(),
            })
            .collect()
    }

    /// Puts a saved history in place.
    pub fn set_history(&mut self, lines: Vec<HistoryLine>) {
        self.cursor = None;
        (self.history, self.history_dialects) =
            lines.into_iter().map(|l| (l.text, l.dialect)).unzip();
    }

    /// Runs one line of cbt over the shell's engine.
    pub fn run_cbt_line(&mut self, line: &str) -> cbt::Output {
        std::mem::swap(&mut self.shell.engine, &mut self.cbt.engine);
        let out = match &self.shell.read_only {
            Some(why) if cbt_command(line).is_some_and(cbt_writes) => cbt::Output {
                stdout: Vec::new(),
                stderr: format!("{why}\n"),
                failed: true,
            },
            _ => self.cbt.run_line(line),
        };
        std::mem::swap(&mut self.shell.engine, &mut self.cbt.engine);
        out
    }

    /// Shows commands the app ran itself to their end (a gallery pattern it measured) as one
    /// entry, as if typed and run: their outputs, and the last read's trace for the views.
    /// Refused (false) while another entry runs.
    pub fn record(&mut self, text: &str, outcomes: Vec<Outcome>) -> bool {
        let trimmed = text.trim();
        if trimmed.is_empty() || self.is_running() {
            return false;
        }
        let index = self.open_entry(trimmed, Dialect::HBase);
        for outcome in outcomes {
            if outcome.trace.is_some() {
                self.last_trace = outcome.trace.clone();
            }
            let item = Item::from_outcome(outcome);
            let writes = !item.failed() && item.name.is_some_and(commands::writes);
            if let Some(e) = self.entries.get_mut(index) {
                e.writes |= writes;
                e.add(item);
            }
        }
        if let Some(e) = self.entries.get_mut(index) {
            e.progress = trimmed.len();
            e.state = RunState::Done;
        }
        self.touch(index);
        self.data_version += 1;
        true
    }

    /// Remembers the text in the history and adds a running entry for it.
    fn open_entry(&mut self, trimmed: &str, dialect: Dialect) -> usize {
        let same = self.history.last().map(String::as_str) == Some(trimmed)
            && self.history_dialects.last() == Some(&dialect);
        if !same {
            self.history.push(trimmed.to_string());
            self.history_dialects.push(dialect);
            if self.history.len() > HISTORY_LIMIT {
                let extra = self.history.len() - HISTORY_LIMIT;
                self.history.drain(..extra);
                self.history_dialects.drain(..extra);
            }
        }
        let number = self.counter + 1;
        let lines = trimmed.lines().count().max(1);
        self.counter += lines;
        let mut entry = Entry::new(number, EntryKind::Commands, dialect, Vec::new());
        entry.input = trimmed.to_string();
        entry.lines = lines;
        entry.state = RunState::Running;
        self.push(entry)
    }

    /// Whether an entry or a continuation is still running.
    pub fn is_running(&self) -> bool {
        self.job.is_some()
    }

    /// The index of the entry the running job belongs to.
    fn job_entry(&self) -> Option<usize> {
        match &self.job {
            Some(
                Job::Script { entry, .. } | Job::Resume { entry, .. } | Job::Cbt { entry, .. },
            ) => Some(*entry),
            None => None,
        }
    }

    /// The entry being run, if any.
    pub fn running(&self) -> Option<&Entry> {
        self.job_entry().and_then(|i| self.entries.get(i))
    }

    /// Runs statements until `budget_ms` has passed on `clock` (at least one statement); returns
    /// true if a statement asked for the screen to be cleared.
    pub fn step(&mut self, clock: &mut dyn FnMut() -> f64, budget_ms: f64) -> bool {
        let started = clock();
        let mut cleared = false;
        loop {
            let Some(job) = self.job.take() else {
                break;
            };
            let (next, clear) = match job {
                Job::Script { entry, script } => self.step_script(entry, script),
                Job::Resume { entry, item } => (self.step_resume(entry, item), false),
                Job::Cbt { entry, at } => (self.step_cbt(entry, at), false),
            };
            cleared |= clear;
            self.job = next;
            if clock() - started >= budget_ms {
                break;
            }
        }
        let elapsed = clock() - started;
        if let Some(e) = self.current_entry_mut() {
            e.elapsed_ms += elapsed;
        } else if let Some(e) = self.entries.last_mut() {
            e.elapsed_ms += elapsed;
        }
        self.data_version += 1;
        cleared
    }

    fn current_entry_mut(&mut self) -> Option<&mut Entry> {
        let i = self.job_entry()?;
        self.entries.get_mut(i)
    }

    fn step_script(&mut self, mut entry: usize, mut script: Script) -> (Option<Job>, bool) {
        let outcomes = self.shell.run_some(&mut script, STATEMENTS_PER_LOOK);
        let mut cleared = false;
        for outcome in outcomes {
            if outcome.clear {
                // `clear` empties the screen above this entry; the entry itself stays.
                let keep = self.entries.split_off(entry);
                self.dropped += self.entries.len();
                self.entries = keep;
                entry = 0;
                cleared = true;
                continue;
            }
            if outcome.trace.is_some() {
                self.last_trace = outcome.trace.clone();
            }
            let item = Item::from_outcome(outcome);
            let writes = !item.failed() && item.name.is_some_and(commands::writes);
            let follow = item.more.is_some() && item.name == Some("generate");
            let Some(e) = self.entries.get_mut(entry) else {
                return (None, cleared);
            };
            e.writes |= writes;
            e.add(item);
            if follow {
                // The generator goes on by itself; the rest of the script waits for it.
                let index = e.items.len() - 1;
                e.progress = script.progress().0;
                self.touch(entry);
                self.pending_script = Some(script);
                return (Some(Job::Resume { entry, item: index }), cleared);
            }
        }
        let done = script.is_done();
        if let Some(e) = self.entries.get_mut(entry) {
            e.progress = script.progress().0;
            if done {
                e.state = RunState::Done;
            }
        }
        self.touch(entry);
        if done {
            (None, cleared)
        } else {
            (Some(Job::Script { entry, script }), cleared)
        }
    }

    /// Runs the next line of a cbt entry.
    fn step_cbt(&mut self, entry: usize, at: usize) -> Option<Job> {
        let (input, number) = {
            let e = self.entries.get(entry)?;
            (
                e.input.get(at..)?.to_string(),
                e.input[..at].matches('\n').count() + 1,
            )
        };
        let (line, rest) = match input.split_once('\n') {
            Some((line, _)) => (line, at + line.len() + 1),
            None => (input.as_str(), at + input.len()),
        };
        let line = line.trim_end_matches('\r');
        if !line.trim().is_empty() {
            let out = self.run_cbt_line(line);
            let name = cbt_command(line);
            let mut output = String::from_utf8_lossy(&out.stdout).into_owned();
            output.push_str(&out.stderr);
            let item = Item {
                line: number,
                name,
                input: line.to_string(),
                output,
                error_span: out.failed.then_some(0..line.len()),
                more: None,
            };
            let e = self.entries.get_mut(entry)?;
            e.writes |= !out.failed && name.is_some_and(cbt_writes);
            e.add(item);
        }
        let done = rest >= input.len() + at;
        if let Some(e) = self.entries.get_mut(entry) {
            e.progress = rest;
            if done {
                e.state = RunState::Done;
            }
        }
        self.touch(entry);
        (!done).then_some(Job::Cbt { entry, at: rest })
    }

    fn step_resume(&mut self, entry: usize, index: usize) -> Option<Job> {
        let cont = self
            .entries
            .get_mut(entry)?
            .items
            .get_mut(index)?
            .more
            .take()?;
        let outcome = self.shell.resume(cont, PAGE_ROWS);
        let e = self.entries.get_mut(entry)?;
        let item = e.items.get_mut(index)?;
        let was_failed = item.failed();
        item.output.push_str(&outcome.output);
        item.more = outcome.more;
        if outcome.error.is_some() && item.error_span.is_none() {
            item.error_span = Some(0..0);
        }
        let failed_now = (!was_failed && item.failed()).then_some(item.line);
        if item.name.is_some_and(commands::writes) {
            e.writes = true;
        }
        let more = item.more.is_some();
        if let Some(line) = failed_now {
            e.tally.failure(line);
        }
        self.touch(entry);
        if more {
            return Some(Job::Resume { entry, item: index });
        }
        // A generator finished: the statements after it run now.
        match self.pending_script.take() {
            Some(script) => Some(Job::Script { entry, script }),
            None => {
                if let Some(e) = self.entries.get_mut(entry) {
                    e.state = RunState::Done;
                }
                None
            }
        }
    }

    /// Stops the running entry between two statements; what ran stays.
    pub fn cancel(&mut self) -> bool {
        let Some(job) = self.job.take() else {
            return false;
        };
        self.pending_script = None;
        let (Job::Script { entry, .. } | Job::Resume { entry, .. } | Job::Cbt { entry, .. }) = job;
        let last = self.entries.len().saturating_sub(1);
        if let Some(e) = self.entries.get_mut(entry) {
            e.state = RunState::Cancelled;
            if entry == last {
                // The prompt goes on from the last line that ran, not from the end of the paste.
                let ran = e.items.last().map_or(1, |i| i.line.max(1));
                self.counter = e.number + ran - 1;
            }
            for item in &mut e.items {
                if item.name != Some("generate") {
                    continue;
                }
                if let Some(text) = item.more.take().and_then(|m| m.stopped_text()) {
                    item.output.push_str(&text);
                }
            }
        }
        self.touch(entry);
        true
    }

    /// The next page of a paged scan in entry `number`'s statement `index`; with `all`, every
    /// page, in steps. Returns false when there is nothing more or another entry runs.
    pub fn more(&mut self, number: usize, index: usize, all: bool) -> bool {
        if self.is_running() {
            return false;
        }
        let Some(entry) = self.entries.iter().position(|e| e.number == number) else {
            return false;
        };
        let has_more = self
            .entries
            .get(entry)
            .and_then(|e| e.items.get(index))
            .is_some_and(|i| i.more.is_some());
        if !has_more {
            return false;
        }
        if let Some(e) = self.entries.get_mut(entry) {
            e.state = RunState::Running;
        }
        let next = self.step_resume(entry, index);
        match next {
            Some(job) if all => self.job = Some(job),
            _ => {
                if let Some(e) = self.entries.get_mut(entry) {
                    e.state = RunState::Done;
                }
            }
        }
        self.data_version += 1;
        true
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

    /// Adds a line from the app itself (imports, exports, designs), not from a command.
    pub fn note(&mut self, text: &str, failed: bool) {
        self.counter += 1;
        let number = self.counter;
        let item = Item {
            line: 1,
            name: None,
            input: String::new(),
            output: format!("{text}\n"),
            error_span: failed.then_some(0..0),
            more: None,
        };
        let entry = Entry::new(
            number,
            EntryKind::Note { failed },
            Dialect::HBase,
            vec![item],
        );
        let index = self.push(entry);
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

    /// Up: the previous history line, remembering the line being edited.
    pub fn history_up(&mut self, current: &str) -> Option<String> {
        if self.history.is_empty() {
            return None;
        }
        let next = match self.cursor {
            None => {
                self.draft = current.to_string();
                self.draft_dialect = self.dialect;
                self.history.len() - 1
            }
            Some(0) => 0,
            Some(i) => i - 1,
        };
        self.cursor = Some(next);
        self.follow_history(next);
        self.history.get(next).cloned()
    }

    /// Down: the next history line, or back to the line being edited.
    pub fn history_down(&mut self) -> Option<String> {
        let i = self.cursor?;
        if i + 1 < self.history.len() {
            self.cursor = Some(i + 1);
            self.follow_history(i + 1);
            self.history.get(i + 1).cloned()
        } else {
            self.cursor = None;
            self.dialect = self.draft_dialect;
            Some(std::mem::take(&mut self.draft))
        }
    }

    /// A line taken back from the history runs in the dialect it was typed in.
    fn follow_history(&mut self, index: usize) {
        if let Some(d) = self.history_dialects.get(index) {
            self.dialect = *d;
        }
    }

    /// The number the next prompt shows.
    pub fn next_number(&self) -> usize {
        self.counter + 1
    }
}
