//! What the console shows: entries of items, each a command's output or error, with the
//! summary of a batch and the transcript a person can copy.

use crate::dialect::Dialect;
use std::fmt::Write as _;
use std::ops::Range;

use crate::kit::order;
use crate::kit::text::{plural, thousands};
use crate::shell::{Continuation, Outcome};

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

    /// The line of the output that says most: a failed command's `ERROR:` line (after an
    /// empty line, and after whatever the command printed before it failed), else the first
    /// line that says something.
    pub fn headline(&self) -> &str {
        let mut said = self.output.lines().filter(|l| !l.trim().is_empty());
        let first = said.next().unwrap_or("");
        if self.failed() && !first.starts_with("ERROR: ") {
            if let Some(error) = said.find(|l| l.starts_with("ERROR: ")) {
                return error;
            }
        }
        first
    }

    pub(super) fn from_outcome(outcome: Outcome) -> Item {
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
    pub(super) tally: Tally,
}

/// Running counts over an entry's statements, kept as they run, so that its summary does not
/// walk fifty thousand statements on every render.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Tally {
    /// Statements per command name, in the order the names first appear.
    by_name: Vec<(&'static str, usize)>,
    errors: usize,
    /// The line of the first failed statement.
    first_error: Option<usize>,
}

impl Tally {
    /// Counts a statement that ran: under its command's name when it succeeded (so "299 puts,
    /// 1 error" says how many wrote), among the errors when it failed.
    pub(super) fn add(&mut self, item: &Item) {
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

    pub(super) fn failure(&mut self, line: usize) {
        self.errors += 1;
        self.first_error = Some(self.first_error.map_or(line, |f| f.min(line)));
    }
}

impl Entry {
    /// An entry numbered `number` of `lines` lines, nothing run or saved yet.
    pub(super) fn new(
        number: usize,
        kind: EntryKind,
        dialect: Dialect,
        input: String,
        lines: usize,
        items: Vec<Item>,
        state: RunState,
    ) -> Entry {
        Entry {
            number,
            kind,
            dialect,
            input,
            lines,
            items,
            state,
            progress: 0,
            elapsed_ms: 0.0,
            writes: false,
            save_ticket: 0,
            revision: 0,
            tally: Tally::default(),
        }
    }

    /// The prompt before the entry's line `line` (1-based), in its dialect.
    pub fn prompt(&self, line: usize) -> String {
        self.dialect.prompt(self.number + line.saturating_sub(1))
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
    pub(super) fn add(&mut self, item: Item) {
        self.tally.add(&item);
        self.items.push(item);
    }

    /// "50,000 puts in 0.3 s, 2 errors, first on line 17".
    pub fn summary(&self) -> String {
        // Failed statements count among the errors, not under their command.
        let mut counts = self.tally.by_name.clone();
        order::sort_by(&mut counts, |a, b| b.1.cmp(&a.1));
        let mut parts: Vec<String> = counts
            .iter()
            .take(3)
            .map(|(n, c)| format!("{} {}", thousands(*c as u64), plural(*c as u64, n)))
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
            let _ = write!(
                out,
                ", {} error{}, first on line {first}",
                thousands(errors as u64),
                if errors == 1 { "" } else { "s" },
            );
        }
        out
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

fn seconds(ms: f64) -> String {
    if ms < 100.0 {
        format!("{:.2} s", ms / 1000.0)
    } else {
        format!("{:.1} s", ms / 1000.0)
    }
}
