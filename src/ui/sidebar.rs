//! The tables, with their families and regions, and a few ways in for newcomers.

use std::fmt::Write as _;
use yew::prelude::*;

use super::state::use_app;
use crate::kit::text::count_of;
use crate::session::Action;

#[component]
pub fn Sidebar() -> Html {
    let Some(app) = use_app() else {
        return html! {};
    };
    let console = app.console.borrow();
    let engine = &console.shell.engine;
    let tables: Html = engine
        .tables()
        .map(|t| {
            let name = t.descriptor.name.clone();
            let selected = app.selected_table.as_deref() == Some(name.as_str());
            let onclick = {
                let app = app.clone();
                let name = name.clone();
                Callback::from(move |_| app.dispatch(Action::SelectTable(name.clone()).into()))
            };
            let cells: usize = t.regions.iter().flat_map(|r| r.stores.iter()).map(|s| s.cell_count()).sum();
            let families: Html = t
                .descriptor
                .families
                .iter()
                .map(|f| {
                    let mut label = f.name.clone();
                    match f.max_versions {
                        1 => {}
                        // A Bigtable family with no GC policy keeps every version.
                        u32::MAX => label.push_str(" ·v∞"),
                        n => {
                            let _ = write!(label, " ·v{n}");
                        }
                    }
                    if f.ttl_seconds.is_some() {
                        label.push_str(" ·ttl");
                    }
                    html! { {leaf!("span", "chip", label)} }
                })
                .collect();
            html! {
                {leaf!("li", leaf!(@on @dyn "button", [("aria-pressed", selected.to_string()), ("class", "table-item")], [onclick(onclick)], list![leaf!("span", "table-name", html! {<>
                            {leaf!("span", name.clone())}
                            if !t.enabled { {leaf!("span", "badge off", "disabled")} }
                        </>}), leaf!("span", "families", families), leaf!("span", "meta", format!("{} · {}", count_of(t.regions.len() as u64, "region"), count_of(cells as u64, "cell")))]))}
            }
        })
        .collect();
    let empty = engine.tables().next().is_none();
    // The quick start creates `users`: offered as long as there is no such table.
    let can_quick = engine.table("users").is_err();
    let quick = {
        let app = app.clone();
        Callback::from(move |_| app.dispatch(Action::QuickStart.into()))
    };
    html! {
        {leaf!("nav", [("id", "tables-pane"), ("tabindex", "-1"), ("aria-label", "Tables and gallery"), ("class", "sidebar")], html! {<>
            {leaf!("h2", "Tables")}
            if empty {
                {leaf!("p", "hint", "No tables yet.")}
            }
            if can_quick {
                {leaf!(@on "button", [("class", "quick")], [onclick(quick)], "Run the quick start")}
                {leaf!("p", "hint", "Six steps, each with a note on what it shows.")}
            }
            {leaf!("ul", [("aria-label", "Tables"), ("class", "tables")], tables)}
            {leaf!("div", "side-actions", html! {<>
                <super::import_dialog::ImportTable />
                <super::share_dialog::ShareLink />
            </>})}
            <super::gallery::Gallery />
        </>})}
    }
}
