//! The command history with Up/Down navigation, keeping the line being edited. Each line
//! keeps the dialect it was typed in; a line taken back runs in its dialect.

use super::Console;
use crate::dialect::{Dialect, HistoryLine};

impl Console {
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

    fn follow_history(&mut self, index: usize) {
        if let Some(d) = self.history_dialects.get(index) {
            self.dialect = *d;
        }
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
        (self.history, self.history_dialects) = lines
            .into_iter()
            .map(|l| (l.text, l.dialect))
            .unzip::<_, _, Vec<String>, Vec<Dialect>>();
    }
}
