//! "Import a table": paste the output of an HBase shell `scan`, or a CSV, or choose a file; see
//! what it reads as (or the line that is wrong), name the table, import. The text is data: it is
//! shown only as text, and it reaches the engine as quoted shell commands.

use std::fmt::Write as _;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::modal::Modal;
use super::state::use_app;
use crate::import::{parse, Format, ImportedTable};
use crate::kit::text::count_of;
use crate::session::Action;

/// Reads the text: ISO timestamps in this browser's time zone, CSV cells at the current time.
fn read(text: &str) -> Result<ImportedTable, String> {
    parse(text, &super::prefs::utc_offset_minutes, super::now_ms()).map_err(|e| e.to_string())
}

/// What the text reads as, in a sentence.
fn summary(t: &ImportedTable) -> String {
    let versions = t.versions();
    let families: Vec<String> = t
        .families
        .iter()
        .map(|f| match versions.get(f.as_str()) {
            Some(v) if *v > 1 => format!("{f} (up to {v} versions)"),
            _ => f.clone(),
        })
        .collect();
    let what = match t.format {
        Format::Scan => "scan output",
        Format::Csv => "CSV",
    };
    let mut out = format!(
        "Read as {what}: {}, {}; families {}.",
        count_of(t.rows() as u64, "row"),
        count_of(t.cells.len() as u64, "cell"),
        families.join(", ")
    );
    if t.markers_skipped > 0 {
        let hidden = match t.masked_skipped {
            0 => String::new(),
            n => format!(", with the {} they hide", count_of(n as u64, "cell")),
        };
        let _ = write!(
            out,
            " {}{hidden} left out.",
            count_of(t.markers_skipped as u64, "delete marker")
        );
    }
    out
}

#[component]
pub fn ImportTable() -> Html {
    let app = use_app();
    let open = use_state(|| false);
    let text = use_state(String::new);
    let name = use_state(String::new);
    // The name as the person typed it, so that a later paste does not replace it.
    let name_typed = use_state(|| false);
    let Some(app) = app else {
        return html! {};
    };
    let parsed: Option<Result<ImportedTable, String>> =
        (!text.trim().is_empty()).then(|| read(&text));
    let set_text = {
        let text = text.clone();
        let name = name.clone();
        let name_typed = name_typed.clone();
        Rc::new(move |value: String| {
            if !*name_typed {
                if let Ok(t) = read(&value) {
                    name.set(t.name.unwrap_or_else(|| "imported".into()));
                }
            }
            text.set(value);
        })
    };
    let on_text = {
        let set_text = set_text.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(t) = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlTextAreaElement>().ok())
            {
                set_text(t.value());
            }
        })
    };
    let on_file = {
        let set_text = set_text.clone();
        Callback::from(move |e: Event| {
            let Some(file) = super::chosen_file(&e) else {
                return;
            };
            let set_text = set_text.clone();
            wasm_bindgen_futures::spawn_local(async move {
                if let Some(t) = wasm_bindgen_futures::JsFuture::from(file.text())
                    .await
                    .ok()
                    .and_then(|v| v.as_string())
                {
                    set_text(t);
                }
            });
        })
    };
    let on_name = {
        let name = name.clone();
        let name_typed = name_typed.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(i) = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
            {
                name.set(i.value());
                name_typed.set(true);
            }
        })
    };
    let close = {
        let open = open.clone();
        let text = text.clone();
        let name_typed = name_typed.clone();
        Callback::from(move |_: ()| {
            open.set(false);
            text.set(String::new());
            name_typed.set(false);
        })
    };
    let table_name = name.trim().to_string();
    let ready = matches!(parsed, Some(Ok(_))) && !table_name.is_empty() && app.can_run();
    let on_import = {
        let app = app.clone();
        let text = text.clone();
        let close = close.clone();
        let table_name = table_name.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            if table_name.is_empty() {
                return;
            }
            if let Ok(t) = read(&text) {
                close.emit(());
                app.dispatch(Action::ImportTable(Rc::new(t), table_name.clone()).into());
            }
        })
    };
    let opener = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(true))
    };
    let cancel = {
        let close = close.clone();
        Callback::from(move |_: MouseEvent| close.emit(()))
    };
    let status = match &parsed {
        None => {
            html! { {leaf!("p", [("id", "import-status"), ("class", "hint")], "Nothing pasted yet.")} }
        }
        Some(Ok(t)) => {
            html! { {leaf!("p", [("id", "import-status"), ("role", "status"), ("class", "import-ok")], summary(t))} }
        }
        Some(Err(e)) => {
            html! { {leaf!("p", [("id", "import-status"), ("role", "alert"), ("class", "import-error")], format!("Cannot import: {e}"))} }
        }
    };
    html! {
        <>
            {leaf!(@on @dyn "button", [("disabled", crate::ui::view_kit::flag(!app.can_run(), "disabled")), ("class", "action import-open")], [onclick(opener)], "Import a table…")}
            if *open {
                <Modal labelled_by="import-title" on_cancel={close.clone()} testid="import-dialog">
                    {leaf!(@on "form", [("class", "import-form")], [onsubmit(on_import)], html! {<>
                        {leaf!("h2", [("id", "import-title")], "Import a table")}
                        {leaf!("p", list![
                            crate::ui::view_kit::text("Paste the output of an HBase shell "),
                            leaf!("code", "scan"),
                            crate::ui::view_kit::text(" (epoch or ISO timestamps, every version it shows; ISO times are read in this browser's time zone), or a CSV whose header names the key column "),
                            leaf!("code", "row"),
                            crate::ui::view_kit::text(" and the others "),
                            leaf!("code", "family:qualifier"),
                            crate::ui::view_kit::text("."),
                        ])}
                        {leaf!("label", [("for", "import-text")], "Scan output or CSV")}
                        <textarea id="import-text" class="import-text" rows="9" spellcheck="false" autofocus=true
                            value={(*text).clone()} oninput={on_text} aria-describedby="import-status"
                            placeholder={"ROW  COLUMN+CELL\n u001  column=info:name, timestamp=1700000000000, value=Ada\n1 row(s)"} />
                        {leaf!("div", "import-row", html! {<>
                            {leaf!("label", [("for", "import-file")], "…or a file")}
                            <input id="import-file" type="file" accept=".txt,.csv,.log,text/plain,text/csv" onchange={on_file} />
                        </>})}
                        {status}
                        {leaf!("div", "import-row", html! {<>
                            {leaf!("label", [("for", "import-name")], "Table name")}
                            <input id="import-name" class="import-name" type="text" value={(*name).clone()} oninput={on_name} spellcheck="false" />
                        </>})}
                        {leaf!("div", "modal-choices", list![
                            leaf!(@dyn "button", [("type", "submit"), ("data-choice", "import"), ("disabled", crate::ui::view_kit::flag(!ready, "disabled")), ("class", "action primary")], "Import"),
                            leaf!(@on "button", [("type", "button"), ("class", "action")], [onclick(cancel)], "Cancel"),
                        ])}
                        {leaf!("p", "hint", "The import runs as a create and one put per cell, with each cell's timestamp, in the console: saved like anything you type. A table of the same name is never overwritten without asking.")}
                    </>})}
                </Modal>
            }
        </>
    }
}
