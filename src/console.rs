//! The console's state, free of the DOM so native tests can drive it: entries shown so far,
//! command history with Up/Down navigation, and the trace of the last read for the views.

use std::ops::Range;

use crate::shell::{ReadTrace, Shell};

/// Most history lines kept.
pub const HISTORY_LIMIT: usize = 500;

/// One submitted command and what it printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The running number HBase shows in its prompt (`hbase:007:0>`).
    pub number: usize,
    pub input: String,
    pub output: String,
    /// The offending span, relative to `input`, when the command failed.
    pub error_span: Option<Range<usize>>,
}

/// The console: a shell, what it printed, and the history.
pub struct Console {
    pub shell: Shell,
    pub entries: Vec<Entry>,
    pub history: Vec<String>,
    /// Position while walking the history with Up/Down; `None` when editing a new line.
    cursor: Option<usize>,
    /// The line being edited before history navigation started.
    draft: String,
    counter: usize,
    pub last_trace: Option<ReadTrace>,
}

impl Console {
    pub fn new(shell: Shell, history: Vec<String>) -> Console {
        Console {
            shell,
            entries: Vec::new(),
            history,
            cursor: None,
            draft: String::new(),
            counter: 0,
            last_trace: None,
        }
    }

    /// Runs the text as one entry (several commands when pasted); returns true if it asked
    /// for the console to be cleared.
    pub fn submit(&mut self, text: &str) -> bool {
        let trimmed = text.trim();
        self.cursor = None;
        self.draft.clear();
        if trimmed.is_empty() {
            return false;
        }
        if self.history.last().map(String::as_str) != Some(trimmed) {
            self.history.push(trimmed.to_string());
            if self.history.len() > HISTORY_LIMIT {
                let extra = self.history.len() - HISTORY_LIMIT;
                self.history.drain(..extra);
            }
        }
        let mut cleared = false;
        for outcome in self.shell.run(trimmed) {
            self.counter += 1;
            if outcome.clear {
                self.entries.clear();
                cleared = true;
                continue;
            }
            if outcome.trace.is_some() {
                self.last_trace = outcome.trace.clone();
            }
            let error_span = outcome.error.as_ref().map(|e| {
                let start = e
                    .span
                    .start
                    .saturating_sub(outcome.span.start)
                    .min(outcome.input.len());
                let end = e
                    .span
                    .end
                    .saturating_sub(outcome.span.start)
                    .min(outcome.input.len())
                    .max(start);
                start..end
            });
            self.entries.push(Entry {
                number: self.counter,
                input: outcome.input,
                output: outcome.output,
                error_span,
            });
        }
        cleared
    }

    /// Adds a line from the app itself (imports, exports), not from a command.
    pub fn note(&mut self, text: &str, failed: bool) {
        self.counter += 1;
        self.entries.push(Entry {
            number: self.counter,
            input: String::new(),
            output: format!("{text}\n"),
            error_span: failed.then_some(0..0),
        });
    }

    /// Ctrl+L: empties the screen, keeps history and tables.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Up: the previous history line, remembering the line being edited.
    pub fn history_up(&mut self, current: &str) -> Option<String> {
        if self.history.is_empty() {
            return None;
        }
        let next = match self.cursor {
            None => {
                self.draft = current.to_string();
                self.history.len() - 1
            }
            Some(0) => 0,
            Some(i) => i - 1,
        };
        self.cursor = Some(next);
        self.history.get(next).cloned()
    }

    /// Down: the next history line, or back to the line being edited.
    pub fn history_down(&mut self) -> Option<String> {
        let i = self.cursor?;
        if i + 1 < self.history.len() {
            self.cursor = Some(i + 1);
            self.history.get(i + 1).cloned()
        } else {
            self.cursor = None;
            Some(std::mem::take(&mut self.draft))
        }
    }

    /// The number the next prompt shows.
    pub fn next_number(&self) -> usize {
        self.counter + 1
    }
}
