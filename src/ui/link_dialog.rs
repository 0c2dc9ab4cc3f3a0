//! A page opened with a share link (`#s=2....`): what the link holds (its design, its lines as
//! text with the dialect of each, its workload) and which of the person's tables its lines
//! would change, and that its workload would take the Simulate view's place, then "Run in this
//! session" or "Cancel". A damaged link says so and points to the file export instead.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::modal::Modal;
use super::state::{use_app, AppHandle};
use crate::designs::find;
use crate::kit::text::count_of;
use crate::session::Action;
use crate::share::{decode, is_link, tables_changed};

/// Reads the address's fragment when it is a share link.
fn offer(app: &AppHandle) {
    let hash = super::address::fragment();
    if is_link(&hash) {
        app.dispatch(Action::LinkOpened(decode(&hash).map_err(|e| e.to_string())).into());
    }
}

/// Offers the link the page was opened with, and any link pasted into the address later.
#[hook]
pub fn use_shared_links(app: AppHandle) {
    use_effect_with((), move |_| {
        offer(&app);
        let listener = {
            let app = app.clone();
            Closure::<dyn Fn()>::new(move || offer(&app))
        };
        let window = web_sys::window();
        if let Some(w) = &window {
            let _ =
                w.add_event_listener_with_callback("hashchange", listener.as_ref().unchecked_ref());
        }
        move || {
            if let Some(w) = window {
                let _ = w.remove_event_listener_with_callback(
                    "hashchange",
                    listener.as_ref().unchecked_ref(),
                );
            }
        }
    });
}

#[component]
pub fn LinkDialog() -> Html {
    let Some(app) = use_app() else {
        return html! {};
    };
    let Some(link) = app.link.clone() else {
        return html! {};
    };
    if app.pending.is_some() {
        return html! {};
    }
    let answer = |run: bool| {
        let app = app.clone();
        Callback::from(move |_: MouseEvent| app.dispatch(Action::RunLink(run).into()))
    };
    let on_cancel = {
        let app = app.clone();
        Callback::from(move |_| app.dispatch(Action::RunLink(false).into()))
    };
    let shared = match &*link {
        Ok(s) => s,
        Err(e) => {
            return html! {
                <Modal labelled_by="link-title" {on_cancel} testid="link-dialog">
                    {leaf!("h2", [("id", "link-title")], "This link cannot be opened")}
                    {leaf!("p", [("role", "alert"), ("class", "import-error")], format!("{}{}.", e.chars().next().map(|c| c.to_ascii_uppercase().to_string()).unwrap_or_default(), e.chars().skip(1).collect::<String>()))}
                    {leaf!("p", "Nothing was changed. Ask whoever sent it for a file export instead (Export… → All tables · HBase shell script), and load it with Import… at the top of the page.")}
                    {leaf!("div", "modal-choices", leaf!(@on "button", [("autofocus", "autofocus"), ("class", "action primary")], [onclick(answer(false))], "Close"))}
                </Modal>
            };
        }
    };
    let changed = {
        let console = app.console.borrow();
        tables_changed(&shared.entries, |t| console.shell.engine.exists(t))
    };
    let design = shared.design.as_deref().and_then(find);
    let can_run = app.can_run();
    let mut holds: Vec<String> = Vec::new();
    if let Some(d) = &design {
        holds.push(format!("the design “{}”", d.title));
    }
    holds.push(count_of(shared.entries.len() as u64, "command"));
    if let Some(w) = &shared.workload {
        holds.push(format!(
            "a workload for the simulator ({}, {} of simulated time)",
            count_of(w.tables.len() as u64, "table"),
            super::sim_run::hours(w.duration_ms)
        ));
    }
    // Each line as its dialect's prompt shows it: cbt lines after `cbt>`.
    let listing = shared
        .entries
        .iter()
        .map(|e| match e.dialect {
            crate::dialect::Dialect::HBase => e.text.clone(),
            crate::dialect::Dialect::Cbt => e
                .text
                .lines()
                .map(|l| format!("cbt> {l}"))
                .collect::<Vec<_>>()
                .join("\n"),
        })
        .collect::<Vec<_>>()
        .join("\n");
    html! {
        <Modal labelled_by="link-title" {on_cancel} testid="link-dialog">
            {leaf!("h2", [("id", "link-title")], "A shared session")}
            {leaf!("p", format!("This link holds {}:", holds.join(" and ")))}
            if !listing.is_empty() {
                {leaf!("pre", [("tabindex", "0"), ("aria-label", "The link's commands"), ("class", "link-commands")], listing)}
            }
            if changed.is_empty() {
                {leaf!("p", "hint", "Running it here adds to your tables; it changes none of the tables you have. A design whose tables have the names of yours asks first.")}
            } else {
                {leaf!("p", [("role", "alert"), ("class", "import-error")], format!("Its commands change tables you have: {}. Run it only if that is what you want.", changed.join(", ")))}
            }
            if shared.workload.is_some() {
                {leaf!("p", "hint", "Its workload takes the place of the one in the Simulate view (yours stays only if you export it first).")}
            }
            if !can_run {
                {leaf!("p", [("role", "status"), ("class", "hint")], "Waiting for your saved tables to load…")}
            }
            {leaf!("div", "modal-choices", list![
                leaf!(@on @dyn "button", [("data-choice", "run"), ("autofocus", crate::ui::view_kit::flag(changed.is_empty(), "autofocus")), ("disabled", crate::ui::view_kit::flag(!can_run, "disabled")), ("class", "action primary")], [onclick(answer(true))], "Run in this session"),
                leaf!(@on @dyn "button", [("data-choice", "cancel"), ("autofocus", crate::ui::view_kit::flag(!changed.is_empty(), "autofocus")), ("class", "action")], [onclick(answer(false))], "Cancel"),
            ])}
        </Modal>
    }
}
