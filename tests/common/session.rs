//! A session as a newcomer's page opens it (a fixed clock, nothing saved), and its console read
//! as text.

use rowkey::session::{Clocks, Saved, Session};

/// A session on a fixed clock with nothing saved.
pub fn fresh() -> Session {
    Session::new(Clocks::fixed(1_700_000_000_000), Saved::default())
}

/// The console's entries as text: each entry's prompt, input and outputs.
pub fn transcript(s: &Session) -> Vec<String> {
    s.console
        .borrow()
        .entries
        .iter()
        .map(|e| e.transcript())
        .collect()
}

/// The console's last entry as text.
pub fn last_entry(s: &Session) -> String {
    s.console
        .borrow()
        .entries
        .last()
        .map(|e| e.transcript())
        .unwrap_or_default()
}

/// The tables of the console's engine, by name.
pub fn tables(s: &Session) -> Vec<String> {
    s.console
        .borrow()
        .shell
        .engine
        .tables()
        .map(|t| t.descriptor.name.clone())
        .collect()
}
