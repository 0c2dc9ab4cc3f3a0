//! The app's state as a reducer: the console (with the engine inside), the selected table and
//! row, and a version counter that tells components something changed.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::storage::Storage;
use yew::prelude::*;

use crate::console::Console;
use crate::engine::Engine;
use crate::shell::{parse_command, Shell, Value};

const HISTORY_KEY: &str = "rowkey.history";

/// Everything the components read.
pub struct AppState {
    pub console: Rc<RefCell<Console>>,
    /// Bumped on every change of the console or engine.
    pub version: u64,
    pub selected_table: Option<String>,
    pub selected_row: Option<Vec<u8>>,
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
            version: 0,
            selected_table: None,
            selected_row: None,
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
            version: self.version + 1,
            selected_table: self.selected_table.clone(),
            selected_row: self.selected_row.clone(),
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
                self.console.borrow_mut().submit(&text);
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
