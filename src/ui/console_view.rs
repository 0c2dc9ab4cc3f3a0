//! The console: what ran, what HBase printed, and the input line with history.

use web_sys::{HtmlElement, HtmlTextAreaElement, KeyboardEvent};
use yew::prelude::*;

use super::state::{use_app, Action};
use super::storage::Mode;
use crate::console::Entry;
use crate::shell::{is_incomplete, WRITE_COMMANDS};

/// Inputs longer than this many bytes show shortened.
const LONG_INPUT: usize = 400;

/// The input of an entry, with the span of an error marked.
fn input_line(entry: &Entry) -> Html {
    let text = &entry.input;
    // A pasted megabyte stays in the history, not on the screen.
    if text.len() > LONG_INPUT && entry.error_span.is_none() {
        let mut cut = LONG_INPUT;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        return html! { <>{&text[..cut]}<span class="elided">{format!(" … {} more characters", text.len() - cut)}</span></> };
    }
    match &entry.error_span {
        Some(span)
            if span.end <= text.len()
                && text.is_char_boundary(span.start)
                && text.is_char_boundary(span.end) =>
        {
            let (before, rest) = text.split_at(span.start);
            let (bad, after) = rest.split_at(span.end - span.start);
            let bad = if bad.is_empty() {
                " ".to_string()
            } else {
                bad.to_string()
            };
            html! { <>{before}<mark class="error-span">{bad}</mark>{after}</> }
        }
        _ => html! { {text.clone()} },
    }
}

/// Splits text at a caret position given in UTF-16 units, as the DOM reports it.
fn split_utf16(text: &str, units: u32) -> (&str, &str) {
    let mut seen = 0u32;
    for (i, c) in text.char_indices() {
        if seen >= units {
            return text.split_at(i);
        }
        seen += c.len_utf16() as u32;
    }
    (text, "")
}

/// How far saving got, for marking entries.
#[derive(Clone, Copy, PartialEq)]
struct SaveState {
    saved_upto: usize,
    idle: bool,
    failed: bool,
    saving: bool,
}

/// The acknowledgment shown beside a command that changed data.
fn save_mark(entry: &Entry, save: SaveState) -> Html {
    let word = entry
        .input
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .next()
        .unwrap_or("");
    if entry.error_span.is_some() || !WRITE_COMMANDS.contains(&word) || !save.saving {
        return html! {};
    }
    if entry.number <= save.saved_upto || (save.idle && !save.failed) {
        html! { <span class="ack saved" title="committed to IndexedDB">{"saved"}</span> }
    } else if save.failed {
        html! { <span class="ack failed">{"not saved"}</span> }
    } else {
        html! { <span class="ack saving">{"saving…"}</span> }
    }
}

fn entry_view(entry: &Entry, save: SaveState) -> Html {
    let failed = entry.error_span.is_some();
    if entry.input.is_empty() {
        // A note from the app (a design loaded, an import), not a command.
        return html! { <div class={classes!("entry", "note", failed.then_some("failed"))}><pre class="output">{entry.output.clone()}</pre></div> };
    }
    html! {
        <div class={classes!("entry", failed.then_some("failed"))}>
            <div class="prompt-line">
                <span class="prompt">{format!("hbase:{:03}:0> ", entry.number)}</span>
                <span class="typed">{input_line(entry)}</span>
                {save_mark(entry, save)}
            </div>
            <pre class="output">{entry.output.clone()}</pre>
        </div>
    }
}

#[component]
pub fn ConsoleView() -> Html {
    let app = use_app();
    let input_ref = use_node_ref();
    let scroll_ref = use_node_ref();
    let version = app.as_ref().map(|a| a.version).unwrap_or(0);
    let serial = app.as_ref().map(|a| a.input_serial).unwrap_or(0);
    {
        let scroll_ref = scroll_ref.clone();
        use_effect_with(version, move |_| {
            if let Some(el) = scroll_ref.cast::<HtmlElement>() {
                el.set_scroll_top(el.scroll_height());
            }
        });
    }
    {
        let input_ref = input_ref.clone();
        let text = app.as_ref().map(|a| a.input.clone()).unwrap_or_default();
        use_effect_with(serial, move |_| {
            if let Some(el) = input_ref.cast::<HtmlTextAreaElement>() {
                el.set_value(&text);
                let _ = el.focus();
            }
        });
    }
    let Some(app) = app else { return html! {} };
    let onkeydown = {
        let app = app.clone();
        let input_ref = input_ref.clone();
        Callback::from(move |e: KeyboardEvent| {
            let Some(el) = input_ref.cast::<HtmlTextAreaElement>() else {
                return;
            };
            let value = el.value();
            match e.key().as_str() {
                "Enter" if !e.shift_key() && !is_incomplete(&value) => {
                    e.prevent_default();
                    app.dispatch(Action::Submit(value));
                }
                "l" | "L" if e.ctrl_key() => {
                    e.prevent_default();
                    app.dispatch(Action::ClearScreen);
                }
                "ArrowUp"
                    if !split_utf16(&value, el.selection_start().ok().flatten().unwrap_or(0))
                        .0
                        .contains('\n') =>
                {
                    e.prevent_default();
                    app.dispatch(Action::HistoryUp(value));
                }
                "ArrowDown"
                    if !split_utf16(&value, el.selection_end().ok().flatten().unwrap_or(0))
                        .1
                        .contains('\n') =>
                {
                    e.prevent_default();
                    app.dispatch(Action::HistoryDown);
                }
                _ => {}
            }
        })
    };
    let (save, loading) = {
        let s = app.storage.borrow();
        let save = SaveState {
            saved_upto: s.saved_upto,
            idle: s.queue.is_empty() && !s.busy,
            failed: s.error.is_some(),
            saving: s.mode == Mode::Writer,
        };
        (save, s.mode == Mode::Loading)
    };
    let console = app.console.borrow();
    let entries: Html = console
        .entries
        .iter()
        .map(|e| entry_view(e, save))
        .collect();
    let empty = console.entries.is_empty();
    let next = console.next_number();
    html! {
        <section class="console">
            <div class="scrollback" ref={scroll_ref}>
                if empty {
                    <div class="welcome">
                        <p>{"Type HBase shell commands. "}<code>{"help"}</code>{" lists them; "}<code>{"help 'scan'"}</code>{" explains one."}</p>
                        <p>{"Enter runs, Shift+Enter adds a line, Up/Down walk the history, Ctrl+L clears."}</p>
                    </div>
                }
                {entries}
            </div>
            <div class="input-row">
                <span class="prompt">{format!("hbase:{next:03}:0>")}</span>
                <textarea ref={input_ref} class="input" rows="2" spellcheck="false" autocomplete="off"
                    placeholder={if loading { "Loading your tables…" } else { "create 't', 'f'" }} disabled={loading}
                    aria-label="HBase shell command" {onkeydown} />
            </div>
        </section>
    }
}
