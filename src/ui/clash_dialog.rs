//! The question asked when a design would land on a table of the person's: replace it, load
//! the design under other names, or cancel. Keyboard first: the safe choice (other names) has
//! the focus, Escape cancels, the focus stays in the dialog until it closes.

use yew::prelude::*;

use super::modal::Modal;
use super::state::use_app;
use crate::designs::find;
use crate::kit::text::count_of;
use crate::session::Action;
use crate::session::{Choice, Incoming};

#[component]
pub fn ClashDialog() -> Html {
    let Some(app) = use_app() else {
        return html! {};
    };
    let Some(pending) = app.pending.clone() else {
        return html! {};
    };
    let what = match &pending.incoming {
        Incoming::Design(id) => match find(id) {
            Some(d) => format!(
                "The design “{}” creates the table{} {}. ",
                d.title,
                if d.tables.len() == 1 { "" } else { "s" },
                d.tables.join(", ")
            ),
            None => return html! {},
        },
        Incoming::Table { table, name } => format!(
            "The import creates the table {name} ({}, {}). ",
            count_of(table.rows() as u64, "row"),
            count_of(table.cells.len() as u64, "cell")
        ),
    };
    let by = match &pending.incoming {
        Incoming::Design(_) => "The gallery has no record of loading",
        Incoming::Table { .. } => "It would overwrite",
    };
    let what_runs = match &pending.incoming {
        Incoming::Design(_) => "the design's script and its access patterns",
        Incoming::Table { .. } => "the import",
    };
    let choose = |c: Choice| {
        let app = app.clone();
        Callback::from(move |_: MouseEvent| app.dispatch(Action::Resolve(c).into()))
    };
    let on_cancel = {
        let app = app.clone();
        Callback::from(move |_| app.dispatch(Action::Resolve(Choice::Cancel).into()))
    };
    let taken = &pending.clash.taken;
    let sizes: Html = {
        let console = app.console.borrow();
        taken
            .iter()
            .map(|t| {
                let rows = console
                    .shell
                    .engine
                    .table(t)
                    .map(|t| t.keys.row_count() as u64)
                    .unwrap_or(0);
                html! { {leaf!("li", list!(@mixed 2;
                    leaf!("code", t.clone()),
                    @seq(format!(" — {}", count_of(rows, "row"))),
                ))} }
            })
            .collect()
    };
    let renamed = pending.clash.renamed.tables().join(", ");
    let names = taken.join(", ");
    let one = taken.len() == 1;
    html! {
        <Modal labelled_by="clash-title" {on_cancel} testid="clash-dialog">
            {leaf!("h2", [("id", "clash-title")], if one { "A table of yours has this name" } else { "Tables of yours have these names" })}
            {leaf!("p", html! {<>{what}{format!("{by} {} you have:", if one { "the one" } else { "these" })}</>})}
            {leaf!("ul", "clash-tables", sizes)}
            {leaf!("div", "modal-choices", list![
                leaf!(@on "button", [("data-choice", "rename"), ("autofocus", "autofocus"), ("class", "action primary")], [onclick(choose(Choice::Rename))], format!("Load as {renamed}")),
                leaf!(@on "button", [("data-choice", "replace"), ("class", "action danger")], [onclick(choose(Choice::Replace))], format!("Replace: drop {names}")),
                leaf!(@on "button", [("data-choice", "cancel"), ("class", "action")], [onclick(choose(Choice::Cancel))], "Cancel"),
            ])}
            {leaf!("p", "hint", format!("“Load as” runs {what_runs} on {renamed}, and leaves yours as they are. “Replace” deletes yours first; that cannot be undone."))}
        </Modal>
    }
}
