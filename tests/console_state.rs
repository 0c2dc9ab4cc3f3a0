//! The console state behind the browser UI: history navigation, multi-command entries, clear,
//! error spans relative to the entry.
mod common;
use common::*;
use rowkey::console::Console;

fn console() -> Console {
    let (sh, _) = shell_at(1_000);
    Console::new(sh, vec!["list".into()])
}

#[test]
fn history_walks_up_and_back_down_to_the_draft() {
    let mut c = console();
    c.submit("create 't', 'f'");
    c.submit("scan 't'");
    assert_eq!(c.history_up("half typed").as_deref(), Some("scan 't'"));
    assert_eq!(c.history_up("").as_deref(), Some("create 't', 'f'"));
    assert_eq!(c.history_up("").as_deref(), Some("list"));
    assert_eq!(
        c.history_up("").as_deref(),
        Some("list"),
        "stays at the oldest"
    );
    assert_eq!(c.history_down().as_deref(), Some("create 't', 'f'"));
    assert_eq!(c.history_down().as_deref(), Some("scan 't'"));
    assert_eq!(c.history_down().as_deref(), Some("half typed"));
    assert_eq!(c.history_down(), None);
}

#[test]
fn pasted_lines_run_as_one_entry_of_several_commands() {
    let mut c = console();
    c.submit("create 't', 'f'\nput 't', 'r', 'f:q', 'v'\nscan 't'");
    assert_eq!(
        c.history.last().map(String::as_str),
        Some("create 't', 'f'\nput 't', 'r', 'f:q', 'v'\nscan 't'")
    );
    assert_eq!(c.entries.len(), 3);
    assert!(c.entries[2].output.contains("value=v"));
    assert_eq!(c.last_trace.as_ref().map(|t| t.returned.len()), Some(1));
}

#[test]
fn clear_command_and_error_spans() {
    let mut c = console();
    c.submit("create 't', 'f'");
    assert!(c.submit("clear"));
    assert!(c.entries.is_empty());
    c.submit("put 't', 'r', 'f:q', 'v'\nget 'nope', 'r'");
    let err = &c.entries[1];
    assert_eq!(err.input, "get 'nope', 'r'");
    assert_eq!(err.error_span, Some(4..10));
    assert_eq!(&err.input[4..10], "'nope'");
    assert_eq!(err.number, 4);
}

#[test]
fn repeated_commands_are_kept_once_and_history_is_bounded() {
    let mut c = console();
    c.submit("list");
    c.submit("list");
    assert_eq!(c.history.len(), 1);
    for i in 0..600 {
        c.submit(&format!("exists 't{i}'"));
    }
    assert_eq!(c.history.len(), rowkey::console::HISTORY_LIMIT);
}
