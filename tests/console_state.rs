//! The console state behind the browser UI: history navigation, a submission as one entry (a
//! batch with a summary when it holds several statements), errors with their line numbers,
//! stepping and cancelling a long batch, paged scans, clear, the entry limit.
mod common;
use common::*;
use rowkey::console::{Console, RunState, ENTRY_LIMIT, PAGE_ROWS};

fn console() -> Console {
    let (sh, _) = shell_at(1_000);
    Console::new(sh, vec!["list".into()])
}

/// A clock that moves one millisecond each time it is read.
fn ticking() -> impl FnMut() -> f64 {
    let mut t = 0.0;
    move || {
        t += 1.0;
        t
    }
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
fn pasted_lines_are_one_entry_with_a_summary() {
    let mut c = console();
    c.submit("create 't', 'f'\nput 't', 'r', 'f:q', 'v'\nput 't', 's', 'f:q', 'w'\nscan 't'");
    assert_eq!(c.entries.len(), 1, "one entry for the whole paste");
    let e = &c.entries[0];
    assert!(e.is_batch());
    assert_eq!(e.items.len(), 4);
    assert_eq!(
        e.items.iter().map(|i| i.line).collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
    assert!(e.items[3].output.contains("value=w"));
    assert!(e.writes);
    assert!(
        e.summary().starts_with("2 puts, 1 create, 1 scan in "),
        "{}",
        e.summary()
    );
    assert_eq!(c.last_trace.as_ref().map(|t| t.returned.len()), Some(2));
    // The prompt counts lines, as the HBase shell's does.
    assert_eq!(c.next_number(), 5);
    // A note of the app's own (an import, a design loaded) is no line typed: the next
    // command's prompt goes on from the last (the quick start's skipped a number per note).
    c.note("Loaded a design.", false);
    c.submit("list");
    let prompts: Vec<String> = c.entries.iter().skip(1).map(|e| e.prompt(1)).collect();
    assert_eq!(prompts.last().map(String::as_str), Some("hbase:005:0> "));
    assert_eq!(c.next_number(), 6);
}

#[test]
fn an_error_names_its_line_and_the_rest_still_runs() {
    let mut c = console();
    let mut text = String::from("create 't', 'f'\n");
    for i in 2..=40 {
        if i == 17 {
            text.push_str("put 't', 'r17' 'f:q', 'v'\n");
        } else if i == 30 {
            text.push_str("get 'nope', 'r'\n");
        } else {
            text.push_str(&format!("put 't', 'r{i:02}', 'f:q', 'v'\n"));
        }
    }
    c.submit(&text);
    let e = &c.entries[0];
    assert_eq!(e.items.len(), 40);
    let errors: Vec<usize> = e.errors().map(|i| i.line).collect();
    assert_eq!(errors, [17, 30]);
    let summary = e.summary();
    assert!(
        summary.starts_with("37 puts, 1 create in "),
        "the failed get counts among the errors, not as a get: {summary}"
    );
    assert!(summary.ends_with("2 errors, first on line 17"), "{summary}");
    // The error span is relative to the statement's own text.
    let bad = &e.items[29];
    assert_eq!(bad.input, "get 'nope', 'r'");
    assert_eq!(bad.error_span, Some(4..10));
    // The list of errors under the summary shows each one's message, not the empty line
    // the shell prints before it.
    assert_eq!(bad.headline(), "ERROR: Unknown table nope!");
    assert!(
        e.items[16].headline().starts_with("ERROR: "),
        "{}",
        e.items[16].output
    );
    c.submit("count 't'");
    let count = &c.entries[1].items[0].output;
    assert!(count.contains("37 row(s)"), "{count}");
}

#[test]
fn a_long_batch_runs_in_steps_and_a_cancel_keeps_what_ran() {
    let mut c = console();
    c.submit("create 't', 'f'");
    let text: String = (0..2_000)
        .map(|i| format!("put 't', 'r{i:05}', 'f:q', 'v'\n"))
        .collect();
    c.start(&text);
    assert!(c.is_running());
    let mut clock = ticking();
    c.step(&mut clock, 5.0);
    let after_one = c.entries[1].items.len();
    assert!(
        after_one > 0 && after_one < 2_000,
        "a step runs some, not all: {after_one}"
    );
    assert!(c.entries[1].progress > 0 && c.entries[1].progress < text.trim().len());
    assert!(!c.start("list"), "a second entry waits for the first");
    assert!(c.cancel());
    assert!(!c.is_running());
    let e = &c.entries[1];
    assert_eq!(e.state, RunState::Cancelled);
    assert_eq!(e.items.len(), after_one);
    assert!(
        e.summary().starts_with("cancelled after "),
        "{}",
        e.summary()
    );
    assert_eq!(
        c.next_number(),
        e.number + after_one,
        "the prompt goes on from the last line that ran"
    );
    c.submit("count 't'");
    let count = &c.entries[2].items[0].output;
    assert!(
        count.contains(&format!("{after_one} row(s)")),
        "what ran before the cancel is kept: {count}"
    );
}

#[test]
fn a_big_scan_stops_at_a_page_and_goes_on_when_asked() {
    let mut c = console();
    let rows = PAGE_ROWS * 2 + 500;
    let text: String = std::iter::once("create 't', 'f'\n".to_string())
        .chain((0..rows).map(|i| format!("put 't', 'r{i:05}', 'f:q', 'v'\n")))
        .collect();
    c.submit(&text);
    c.submit("scan 't'");
    let place = c.place(1);
    let first = c.entries[1].items[0].clone();
    assert!(first.more.is_some());
    assert_eq!(
        first.output.lines().filter(|l| l.starts_with(" r")).count(),
        PAGE_ROWS
    );
    assert!(!first.output.contains("row(s)"));
    assert!(c.more(place, 0, false));
    let second = &c.entries[1].items[0];
    assert_eq!(
        second
            .output
            .lines()
            .filter(|l| l.starts_with(" r"))
            .count(),
        PAGE_ROWS * 2
    );
    assert!(c.more(place, 0, true));
    while c.is_running() {
        c.step(&mut ticking(), 1.0);
    }
    let all = &c.entries[1].items[0];
    assert!(all.more.is_none());
    assert!(
        all.output.contains(&format!("\n{rows} row(s)\n")),
        "{}",
        all.output.len()
    );
    assert_eq!(c.entries[1].state, RunState::Done);
}

#[test]
fn clear_keeps_the_running_entry_and_spans_stay_relative() {
    let mut c = console();
    c.submit("create 't', 'f'");
    c.submit("put 't', 'r', 'f:q', 'v'\nclear\nget 'nope', 'r'");
    assert_eq!(
        c.entries.len(),
        1,
        "clear empties the screen above its own entry"
    );
    let e = &c.entries[0];
    assert_eq!(e.items.len(), 2);
    assert_eq!(e.items[1].line, 3);
    assert_eq!(e.items[1].error_span, Some(4..10));
    assert!(c.dropped() >= 1);
}

#[test]
fn the_screen_keeps_a_bounded_number_of_entries_and_history_is_bounded() {
    let mut c = console();
    c.submit("list");
    c.submit("list");
    assert_eq!(c.history.len(), 1);
    for i in 0..600 {
        c.submit(&format!("exists 't{i}'"));
    }
    assert_eq!(c.history.len(), rowkey::console::HISTORY_LIMIT);
    assert_eq!(c.entries.len(), ENTRY_LIMIT);
    assert_eq!(c.dropped(), 602 - ENTRY_LIMIT);
    assert_eq!(
        c.entries.last().map(|e| e.input.as_str()),
        Some("exists 't599'")
    );
}

#[test]
fn save_tickets_mark_the_entry_that_made_the_change() {
    let mut c = console();
    c.submit("create 't', 'f'");
    let t1 = c.take_ticket();
    c.submit("put 't', 'r', 'f:q', 'v'");
    let t2 = c.take_ticket();
    assert!(t2 > t1);
    assert_eq!(c.entries[0].save_ticket, t1);
    assert_eq!(c.entries[1].save_ticket, t2);
    assert!(c.entries[1].writes);
    c.submit("scan 't'");
    assert!(!c.entries[2].writes, "a read changes nothing to save");
}

#[test]
fn a_cancelled_generate_says_how_far_it_got_and_keeps_those_rows() {
    let mut c = console();
    c.submit("create 't', 'f'");
    c.start("generate 't', 'row%07d', 1000000");
    c.step(&mut ticking(), 1.0);
    c.step(&mut ticking(), 1.0);
    assert!(c.is_running());
    let (done, total) = c
        .running()
        .and_then(|e| e.items.first())
        .and_then(|i| i.more.as_ref())
        .and_then(|m| m.generated())
        .expect("a generate that goes on tells its progress");
    assert!(done > 0 && done < total, "{done} of {total}");
    assert_eq!(total, 1_000_000);
    assert!(c.cancel());
    let e = c.entries.last().expect("the generate's entry");
    assert_eq!(e.state, RunState::Cancelled);
    let out = &e.items[0].output;
    assert_eq!(
        out,
        &format!(
            "Stopped after {done} of 1000000 rows: {done} rows, {done} cells written to 't'\n"
        )
    );
    c.submit("count 't'");
    assert!(
        c.entries.last().unwrap().items[0]
            .output
            .contains(&format!("\n{done} row(s)\n")),
        "{}",
        c.entries.last().unwrap().items[0].output
    );
}
