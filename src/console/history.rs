//! The command history with Up/Down navigation, keeping the line being edited.

use super::Console;

impl Console {
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
}
