//! One console entry: a command with what HBase printed, or a batch as one summary line
//! ("50,000 puts in 0.3 s, 2 errors, first on line 17") that opens onto its whole transcript.
//! It re-renders only when its entry changed (its revision) or its save mark did.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use super::state::AppState;
use super::virtual_text::VirtualText;
use crate::console::{Console, Entry, EntryKind, Item, RunState};
use crate::kit::text::thousands;
use crate::session::Action;

/// Outputs longer than this many lines show in a virtualized box.
const VIRTUAL_LINES: usize = 200;
/// Characters of a long input shown before it is elided.
const LONG_INPUT: usize = 400;
/// Errors of a batch listed under its summary.
const ERRORS_LISTED: usize = 5;
/// Batches of at most this many statements show their output without asking.
const SHORT_BATCH: usize = 10;

/// The console, compared by identity, so that props can carry it.
#[derive(Clone)]
pub struct ConsoleRef(pub Rc<RefCell<Console>>);

impl PartialEq for ConsoleRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// What the acknowledgment beside an entry says.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mark {
    None,
    Saving,
    Saved,
    NotSaved,
}

#[derive(Properties, PartialEq)]
pub struct EntryProps {
    pub console: ConsoleRef,
    /// Index in the console's entries.
    pub index: usize,
    pub revision: u64,
    pub mark: Mark,
    pub dispatch: UseReducerDispatcher<AppState>,
}

/// The input with the span of an error marked; long inputs shortened.
fn input_text(entry: &Entry, error: Option<&std::ops::Range<usize>>) -> Html {
    let text = entry.input.as_str();
    match error {
        Some(span)
            if span.end <= text.len()
                && text.is_char_boundary(span.start)
                && text.is_char_boundary(span.end)
                && (text.len() <= LONG_INPUT || span.end <= LONG_INPUT) =>
        {
            let shown = shorten(text);
            let (before, rest) = shown.split_at(span.start.min(shown.len()));
            let cut = (span.end - span.start).min(rest.len());
            let (bad, after) = rest.split_at(cut);
            let bad = if bad.is_empty() { " " } else { bad };
            html! { <>{before}{leaf!("mark", "error-span", bad)}{after}{elision(entry)}</> }
        }
        _ => html! { <>{shorten(text)}{elision(entry)}</> },
    }
}

fn shorten(text: &str) -> &str {
    if text.len() <= LONG_INPUT {
        return text;
    }
    let mut cut = LONG_INPUT;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let head = &text[..cut];
    // At most three lines of a paste.
    match head.match_indices('\n').nth(2) {
        Some((i, _)) => &text[..i],
        None => head,
    }
}

/// What a shortened input leaves out, counted from the entry's line count (not by walking a
/// multi-megabyte paste on every render).
fn elision(entry: &Entry) -> Html {
    let text = entry.input.as_str();
    let shown = shorten(text);
    if shown.len() >= text.len() {
        return html! {};
    }
    let lines = entry.lines.saturating_sub(shown.lines().count()).max(1);
    html! { {leaf!("span", "elided", format!(" … {} more line{} ({} characters)", thousands(lines as u64), if lines == 1 { "" } else { "s" }, thousands((text.len() - shown.len()) as u64)))} }
}

fn ack(mark: Mark) -> Html {
    let (class, label, title) = match mark {
        Mark::None => return html! {},
        Mark::Saving => ("saving", "saving…", "being written to IndexedDB"),
        Mark::Saved => (
            "saved",
            "saved",
            "committed to IndexedDB: survives a reload",
        ),
        Mark::NotSaved => (
            "failed",
            "not saved",
            "the save failed: see the notice above",
        ),
    };
    // The label is drawn by CSS, so copying the output does not copy it.
    html! { {leaf!(@dyn "span", [("data-label", label), ("title", title), ("role", "img"), ("aria-label", label), ("class", crate::ui::view_kit::classes(&["ack", class]))], html! {})} }
}

/// Copies the entry's whole text as the shell printed it, built when asked (a batch's
/// transcript can be megabytes; building it on every step of a running batch would cost more
/// than the batch).
fn copy_text(console: Rc<RefCell<Console>>, index: usize) -> Callback<MouseEvent> {
    Callback::from(move |_| {
        let text = console
            .borrow()
            .entries
            .get(index)
            .map(shell_text)
            .unwrap_or_default();
        let clipboard = gloo::utils::window().navigator().clipboard();
        let _ = clipboard.write_text(&text);
    })
}

/// What a copy of the entry gives: a batch's transcript, or a command's output.
fn shell_text(e: &Entry) -> String {
    if e.is_batch() || e.kind != EntryKind::Commands {
        e.transcript()
    } else {
        e.items
            .first()
            .map(|i| i.output.clone())
            .unwrap_or_default()
    }
}

/// An output: plain text, or a virtualized box when long.
fn output_block(text: &Rc<String>, label: &str) -> Html {
    let lines = text.as_bytes().iter().filter(|b| **b == b'\n').count();
    if lines > VIRTUAL_LINES {
        html! { <VirtualText text={text.clone()} label={AttrValue::from(label.to_string())} /> }
    } else {
        html! { {leaf!("pre", "output", text.as_str())} }
    }
}

/// The bar under a paged scan's statement `index` of the entry at `place`
/// (`Console::place`).
fn more_bar(
    entry: &Entry,
    place: usize,
    index: usize,
    item: &Item,
    dispatch: &UseReducerDispatcher<AppState>,
) -> Html {
    let Some(more) = &item.more else {
        return html! {};
    };
    if let Some((done, total)) = more.generated() {
        return generate_bar(entry, done, total, dispatch);
    }
    let next = {
        let d = dispatch.clone();
        Callback::from(move |_| d.dispatch(Action::More(place, index, false).into()))
    };
    let all = {
        let d = dispatch.clone();
        Callback::from(move |_| d.dispatch(Action::More(place, index, true).into()))
    };
    let page = thousands(crate::console::PAGE_ROWS as u64);
    html! {
        {leaf!("div", "more-bar", list![
            leaf!("span", format!("{} rows shown; the scan goes on.", thousands(more.rows_so_far()))),
            leaf!(@on @dyn "button", [("disabled", crate::ui::view_kit::flag(entry.state == RunState::Running, "disabled")), ("class", "tool")], [onclick(next)], format!("Next {page} rows")),
            leaf!(@on @dyn "button", [("disabled", crate::ui::view_kit::flag(entry.state == RunState::Running, "disabled")), ("class", "tool")], [onclick(all)], "All rows"),
        ])}
    }
}

/// A running `generate`: rows written of rows to write, and a way to stop.
fn generate_bar(
    entry: &Entry,
    done: u64,
    total: u64,
    dispatch: &UseReducerDispatcher<AppState>,
) -> Html {
    if entry.state != RunState::Running {
        return html! {};
    }
    let pct = if total == 0 {
        100.0
    } else {
        done as f64 / total as f64 * 100.0
    };
    let cancel = {
        let d = dispatch.clone();
        Callback::from(move |_| d.dispatch(Action::Cancel.into()))
    };
    html! {
        {leaf!("div", [("role", "status"), ("class", "more-bar")], list![
            leaf!("span", format!("{} of {} rows written", thousands(done), thousands(total))),
            leaf!(@dyn "span", [("role", "progressbar"), ("aria-label", "Rows written"), ("aria-valuemin", "0"), ("aria-valuemax", "100"), ("aria-valuenow", format!("{pct:.0}")), ("class", "progress")], leaf!(@dyn "span", [("style", format!("width:{pct:.1}%"))], html! {})),
            leaf!(@on "button", [("class", "tool")], [onclick(cancel)], "Cancel (Ctrl+C)"),
        ])}
    }
}

#[component]
pub fn EntryView(props: &EntryProps) -> Html {
    // Whether the batch's output is shown: `None` until the person chooses (short ones are).
    let chosen = use_state(|| None::<bool>);
    let console = props.console.0.clone();
    let revision = props.revision;
    let index = props.index;
    // Whether the entry's text is on screen: a command's output always, a batch's transcript
    // once it has ended and is open.
    let shown = {
        let c = console.borrow();
        c.entries.get(index).is_some_and(|e| {
            !e.is_batch()
                || (e.state != RunState::Running && chosen.unwrap_or(e.items.len() <= SHORT_BATCH))
        })
    };
    // The text on screen, built once per revision of the entry, and only when shown.
    let text = {
        let console = console.clone();
        use_memo((revision, index, shown), move |_| {
            let c = console.borrow();
            Rc::new(match c.entries.get(index) {
                Some(e) if shown => shell_text(e),
                _ => String::new(),
            })
        })
    };
    let c = console.borrow();
    let Some(entry) = c.entries.get(index) else {
        return html! {};
    };
    let failed = entry.failed();
    if let EntryKind::Note { .. } = entry.kind {
        return html! { {leaf!(@dyn "div", [("class", if failed { "entry note failed" } else { "entry note" })], leaf!("pre", "output", text.as_str()))} };
    }
    let copy = html! { {leaf!(@on "button", [("title", "Copy exactly what the shell printed"), ("class", "tool")], [onclick(copy_text(console.clone(), index))], "copy")} };
    if !entry.is_batch() {
        let item = entry.items.first();
        let out = (*text).clone();
        return html! {
            {leaf!(@dyn "div", [("class", if failed { "entry failed" } else { "entry" })], list!(@mixed 3;
                leaf!("div", "prompt-line", list![
                    leaf!("span", "prompt", entry.prompt(1)),
                    leaf!("span", "typed", input_text(entry, item.and_then(|i| i.error_span.as_ref()))),
                    leaf!("span", "entry-tools", html! {<>{ack(props.mark)}{copy}</>}),
                ]),
                output_block(&out, "Output"),
                item.map(|i| more_bar(entry, c.place(index), 0, i, &props.dispatch)).unwrap_or_default(),
            ))}
        };
    }
    let running = entry.state == RunState::Running;
    let pct = if entry.input.is_empty() {
        100.0
    } else {
        entry.progress as f64 / entry.input.len() as f64 * 100.0
    };
    let cancel = {
        let d = props.dispatch.clone();
        Callback::from(move |_| d.dispatch(Action::Cancel.into()))
    };
    let open = chosen.unwrap_or(entry.items.len() <= SHORT_BATCH);
    let toggle = {
        let chosen = chosen.clone();
        Callback::from(move |_| chosen.set(Some(!open)))
    };
    let errors: Html = entry
        .errors()
        .take(ERRORS_LISTED)
        .map(|i| {
            let first = i.headline().to_string();
            html! { {leaf!("li", list!(@mixed 4;
                @seq(format!("line {}: ", i.line)),
                leaf!("code", shorten(&i.input).to_string()),
                crate::ui::view_kit::text(" — "),
                @seq(first),
            ))} }
        })
        .collect();
    let paged: Html = entry
        .items
        .iter()
        .enumerate()
        .filter(|(_, i)| i.more.is_some())
        .map(|(n, i)| more_bar(entry, c.place(index), n, i, &props.dispatch))
        .collect();
    html! {
        {leaf!(@dyn "div", [("class", if failed { "entry batch has-errors" } else { "entry batch" })], html! {<>
            {leaf!("div", "prompt-line", list![
                leaf!("span", "prompt", entry.prompt(1)),
                leaf!("span", "typed", input_text(entry, None)),
                leaf!("span", "entry-tools", html! {<>{ack(props.mark)}{copy}</>}),
            ])}
            {leaf!("div", [("role", "status"), ("class", "summary")], html! {<>
                {leaf!("span", "figure", entry.summary())}
                if running {
                    {leaf!(@dyn "span", [("role", "progressbar"), ("aria-label", "Batch progress"), ("aria-valuemin", "0"), ("aria-valuemax", "100"), ("aria-valuenow", format!("{pct:.0}")), ("class", "progress")], leaf!(@dyn "span", [("style", format!("width:{pct:.1}%"))], html! {}))}
                    {leaf!(@on "button", [("class", "tool")], [onclick(cancel)], "Cancel (Ctrl+C)")}
                } else {
                    {leaf!(@on @dyn "button", [("aria-expanded", open.to_string()), ("class", "tool")], [onclick(toggle)], if open { "hide output" } else { "show output" })}
                }
            </>})}
            if failed {
                {leaf!("ul", "output errors-list", errors)}
            }
            {paged}
            if shown {
                {output_block(&text, "Batch output")}
            }
        </>})}
    }
}
