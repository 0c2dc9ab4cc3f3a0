//! The console: what ran and what HBase printed, scrolling inside its pane and following the
//! newest output, with the input at its foot.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

use super::entry_view::{ConsoleRef, EntryView, Mark};
use super::input_box::InputBox;
use super::state::{use_app, use_status};
use super::storage::{Mode, Storage};
use crate::console::{Entry, EntryKind, RunState};
use crate::persist::EntrySave;

/// How close to the bottom (pixels) still counts as following the newest output.
const FOLLOW_SLACK: i32 = 48;

fn mark_of(entry: &Entry, storage: &Storage) -> Mark {
    if !entry.writes || storage.mode != Mode::Writer {
        return Mark::None;
    }
    if entry.state == RunState::Running {
        return Mark::Saving;
    }
    // The save queue says where the entry's save stands (0: it changed nothing to save).
    match (entry.save_ticket, storage.queue.status(entry.save_ticket)) {
        (0, _) | (_, EntrySave::Saved) => Mark::Saved,
        (_, EntrySave::NotSaved) => Mark::NotSaved,
        (_, EntrySave::Saving) => Mark::Saving,
    }
}

/// What the live region announces for the newest entry: a summary, never a whole output.
fn announcement(entry: &Entry) -> String {
    let first = |s: &str| s.lines().next().unwrap_or("").to_string();
    match entry.kind {
        EntryKind::Note { .. } => entry
            .items
            .first()
            .map(|i| first(&i.output))
            .unwrap_or_default(),
        EntryKind::Commands if entry.is_batch() => entry.summary(),
        EntryKind::Commands => match entry.items.first() {
            Some(i) if i.failed() => i.headline().to_string(),
            Some(i) => {
                let lines: Vec<&str> = i.output.lines().collect();
                // The line before `Took …` carries the result ("2 row(s)", "Created table t").
                let took = lines.iter().rposition(|l| l.starts_with("Took "));
                match took {
                    Some(t) if t > 0 => lines.get(t - 1).map(|l| l.to_string()).unwrap_or_default(),
                    _ => lines.first().map(|l| l.to_string()).unwrap_or_default(),
                }
            }
            None => String::new(),
        },
    }
}

#[component]
pub fn ConsoleView() -> Html {
    let app = use_app();
    let status = use_status();
    let scroll_ref = use_node_ref();
    let follow = use_memo((), |_| Rc::new(Cell::new(true)));
    let version = app.as_ref().map(|a| a.version).unwrap_or(0);
    {
        let scroll_ref = scroll_ref.clone();
        let follow = follow.clone();
        use_effect_with(version, move |_| {
            if let Some(el) = scroll_ref.cast::<HtmlElement>() {
                if follow.get() {
                    el.set_scroll_top(el.scroll_height());
                }
            }
        });
    }
    let Some(app) = app else { return html! {} };
    let _ = status;
    let onscroll = {
        let follow = follow.clone();
        Callback::from(move |e: Event| {
            if let Some(el) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) {
                follow
                    .set(el.scroll_height() - el.scroll_top() - el.client_height() <= FOLLOW_SLACK);
            }
        })
    };
    let storage = app.storage.borrow();
    let console = app.console.borrow();
    let console_ref = ConsoleRef(app.console.clone());
    let dispatch = app.dispatcher();
    let entries: Html = console
        .entries
        .iter()
        .enumerate()
        .map(|(index, e)| {
            html! {
                <EntryView key={console.place(index)} console={console_ref.clone()} {index} revision={e.revision}
                    mark={mark_of(e, &storage)} dispatch={dispatch.clone()} />
            }
        })
        .collect();
    let empty = console.entries.is_empty();
    let dropped = console.dropped();
    let live = console.entries.last().map(announcement).unwrap_or_default();
    html! {
        {leaf!("section", "console", html! {<>
            <div class="scrollback" ref={scroll_ref} {onscroll} role="region" aria-label="Console output" tabindex="0">
                if empty {
                    {leaf!("div", "welcome", list![
                        leaf!("p", list![crate::ui::view_kit::text("Type HBase shell commands. "), leaf!("code", "help"), crate::ui::view_kit::text(" lists them; "), leaf!("code", "help 'scan'"), crate::ui::view_kit::text(" explains one; "), leaf!("code", "generate"), crate::ui::view_kit::text(" fills a table with a million cells in seconds.")]),
                        leaf!("p", list![leaf!("kbd", "Enter"), crate::ui::view_kit::text(" runs, "), leaf!("kbd", "Shift+Enter"), crate::ui::view_kit::text(" adds a line, "), leaf!("kbd", "Tab"), crate::ui::view_kit::text(" completes, "), leaf!("kbd", "Up"), crate::ui::view_kit::text("/"), leaf!("kbd", "Down"), crate::ui::view_kit::text(" walk the history, "), leaf!("kbd", "Ctrl+C"), crate::ui::view_kit::text(" stops a running batch, "), leaf!("kbd", "Ctrl+L"), crate::ui::view_kit::text(" clears, "), leaf!("kbd", "Alt+M"), crate::ui::view_kit::text(" switches between the HBase shell and Bigtable's cbt.")]),
                        // Where the panes stack (a phone), the tables and the gallery come last.
                        leaf!("p", "stacked-only", list![
                            crate::ui::view_kit::text("Your tables, the quick start and the design gallery are at the foot of the page: "),
                            leaf!(@on "a", [("href", "#tables-pane")], [onclick(Callback::from(|e: MouseEvent| {
                                e.prevent_default();
                                super::focus_id("tables-pane");
                                super::bring_into_view("#tables-pane");
                            }))], "go to them"),
                            crate::ui::view_kit::text("."),
                        ]),
                    ])}
                }
                if dropped > 0 && !empty {
                    {leaf!("p", "hint", format!("{dropped} earlier entr{} cleared from the screen (Up walks the history).", if dropped == 1 { "y" } else { "ies" }))}
                }
                {entries}
            </div>
            {leaf!("div", [("aria-live", "polite"), ("aria-atomic", "true"), ("class", "visually-hidden")], live)}
            <InputBox />
        </>})}
    }
}
