//! "Share a link": the design on show, the console's lines (each with its dialect) and, when
//! asked, the Simulate view's workload, compressed into the link's fragment
//! ([`crate::share`]); copy it, or, when the session is too long for a link, export the tables
//! as a file instead.

use yew::prelude::*;

use super::modal::Modal;
use super::state::use_app;
use crate::designs::find;
use crate::kit::text::count_of;
use crate::share::{encode, Shared, MAX_FRAGMENT};

#[component]
pub fn ShareLink() -> Html {
    let app = use_app();
    let open = use_state(|| false);
    let copied = use_state(|| false);
    let with_workload = use_state(|| false);
    let Some(app) = app else {
        return html! {};
    };
    let opener = {
        let open = open.clone();
        let copied = copied.clone();
        Callback::from(move |_: MouseEvent| {
            copied.set(false);
            open.set(true);
        })
    };
    let close = {
        let open = open.clone();
        Callback::from(move |_: ()| open.set(false))
    };
    let button = html! { {leaf!(@on "button", [("class", "action share-open")], [onclick(opener)], "Share a link…")} };
    if !*open {
        // Two children, as when open (the button, then the dialog): the button stays the same
        // element, which the dialog gives the focus back to when it closes.
        return html! { <>{button}{Html::default()}</> };
    }
    let include_workload = *with_workload;
    let has_workload = super::state::saved_workload().is_some();
    let toggle = {
        let with_workload = with_workload.clone();
        Callback::from(move |_: Event| with_workload.set(!*with_workload))
    };
    // Every line of the history, each with its dialect; and, when asked, the Simulate view's
    // workload as last run.
    let workload = include_workload
        .then(super::state::saved_workload)
        .flatten();
    let shared = Shared {
        design: app.selected_design.map(str::to_string),
        entries: app.console.borrow().history_lines(),
        workload,
    };
    let mut holds: Vec<String> = Vec::new();
    if let Some(d) = app.selected_design.and_then(find) {
        holds.push(format!("the design “{}”", d.title));
    }
    holds.push(format!(
        "{} from the console's history",
        count_of(shared.entries.len() as u64, "command")
    ));
    if shared.workload.is_some() {
        holds.push("the Simulate view's workload".to_string());
    }
    let missing = left_out(&app, &shared.entries);
    let left_out_note = (!missing.is_empty()).then(|| {
        let (noun, them) = if missing.len() == 1 {
            ("table", "it")
        } else {
            ("tables", "them")
        };
        format!(
            "Not in the link: {noun} {}, which no command of the history creates (imported from a file, or made before the history began). To pass {them} on, export {them} (Export… in the top bar).",
            missing.join(", ")
        )
    });
    let body = match encode(&shared) {
        Ok(fragment) => {
            let base = web_sys::window()
                .and_then(|w| w.location().href().ok())
                .map(|h| h.split('#').next().unwrap_or_default().to_string())
                .unwrap_or_default();
            let link = format!("{base}#{fragment}");
            let size = format!(
                "{:.1} KB of the {} KB a link carries",
                link.len() as f64 / 1024.0,
                MAX_FRAGMENT / 1024
            );
            let copy = {
                let link = link.clone();
                let copied = copied.clone();
                Callback::from(move |_: MouseEvent| {
                    if let Some(w) = web_sys::window() {
                        let _ = w.navigator().clipboard().write_text(&link);
                        copied.set(true);
                    }
                })
            };
            html! {
                <>
                    {leaf!("p", format!("The link holds {}. Whoever opens it sees what it holds and chooses to run it; nothing of theirs changes without asking.", holds.join(" and ")))}
                    if let Some(note) = left_out_note { {leaf!("p", [("role", "note"), ("class", "share-left-out")], note)} }
                    {leaf!("label", [("for", "share-link"), ("class", "share-label")], "Link")}
                    <input id="share-link" class="share-link" type="text" readonly=true value={link} onfocus={Callback::from(|e: FocusEvent| {
                        use wasm_bindgen::JsCast;
                        if let Some(i) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) { i.select(); }
                    })} />
                    {leaf!("p", "hint", size)}
                    {leaf!("div", "modal-choices", list![
                        leaf!(@on "button", [("data-choice", "copy"), ("autofocus", "autofocus"), ("class", "action primary")], [onclick(copy)], if *copied { "Copied" } else { "Copy link" }),
                        leaf!(@on "button", [("class", "action")], [onclick({ let close = close.clone(); Callback::from(move |_: MouseEvent| close.emit(())) })], "Close"),
                    ])}
                    {leaf!("p", [("role", "status"), ("class", "visually-hidden")], if *copied { "The link is on the clipboard." } else { "" })}
                </>
            }
        }
        Err(e) => {
            let export = {
                let app = app.clone();
                Callback::from(move |_: MouseEvent| super::status_bar::export_all(&app))
            };
            list![
                leaf!("p", [("role", "alert"), ("class", "import-error")], format!("This session is too long for a link: {e}.")),
                leaf!("p", format!("It holds {}. Export the tables as an HBase shell script instead; whoever gets the file loads it with Import….", holds.join(" and "))),
                leaf!("div", "modal-choices", list![
                        leaf!(@on "button", [("autofocus", "autofocus"), ("class", "action primary")], [onclick(export)], "Export all tables · HBase shell script"),
                        leaf!(@on "button", [("class", "action")], [onclick({ let close = close.clone(); Callback::from(move |_: MouseEvent| close.emit(())) })], "Close"),
                    ]),
            ]
        }
    };
    html! {
        <>
            {button}
            <Modal labelled_by="share-title" on_cancel={close} testid="share-dialog">
                {leaf!("h2", [("id", "share-title")], "Share a link")}
                if has_workload {
                    {leaf!("label", "share-workload", html! {<>
                        <input type="checkbox" checked={include_workload} onchange={toggle} data-testid="share-workload" />
                        {" Include the Simulate view's workload (as last run)"}
                    </>})}
                }
                {body}
            </Modal>
        </>
    }
}

/// The person's tables that opening the link would not make again: those no line of the
/// history creates and that are not the tables of the design the link names.
fn left_out(app: &super::state::AppHandle, history: &[crate::dialect::HistoryLine]) -> Vec<String> {
    let created: Vec<String> = history
        .iter()
        .flat_map(|line| {
            crate::analysis::created(
                &crate::analysis::Analyzer::new(line.dialect).script(&line.text),
            )
        })
        .collect();
    let design: Vec<String> = app
        .selected_design
        .and_then(|id| app.design(id))
        .map(|d| {
            app.placement(&d)
                .tables()
                .into_iter()
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    app.console
        .borrow()
        .shell
        .engine
        .tables()
        .map(|t| t.descriptor.name.clone())
        .filter(|name| !created.contains(name) && !design.contains(name))
        .collect()
}
