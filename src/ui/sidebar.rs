//! The tables, with their families and regions, and a few ways in for newcomers.

use yew::prelude::*;

use super::state::{use_app, Action};

const QUICK_START: &str = "create 'users', {NAME => 'info', VERSIONS => 3}, 'stats'\n\
put 'users', 'u001', 'info:name', 'Ada'\n\
put 'users', 'u002', 'info:name', 'Grace'\n\
put 'users', 'u001', 'info:name', 'Ada Lovelace'\n\
incr 'users', 'u001', 'stats:logins', 3\n\
scan 'users'\n\
get 'users', 'u001', {COLUMN => 'info:name', VERSIONS => 3}";

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
                Callback::from(move |_| app.dispatch(Action::SelectTable(name.clone())))
            };
            let cells: usize = t.regions.iter().flat_map(|r| r.stores.iter()).map(|s| s.cell_count()).sum();
            let families: Html = t
                .descriptor
                .families
                .iter()
                .map(|f| {
                    let mut label = f.name.clone();
                    if f.max_versions != 1 {
                        label.push_str(&format!(" ·v{}", f.max_versions));
                    }
                    if f.ttl_seconds.is_some() {
                        label.push_str(" ·ttl");
                    }
                    html! { <span class="chip">{label}</span> }
                })
                .collect();
            html! {
                <li class={classes!("table-item", selected.then_some("selected"))} {onclick} title={format!("{name}: {cells} cells")}>
                    <div class="table-name">
                        <span>{name.clone()}</span>
                        if !t.enabled { <span class="badge off">{"disabled"}</span> }
                    </div>
                    <div class="families">{families}</div>
                    <div class="meta">{format!("{} region{} · {} cells", t.regions.len(), if t.regions.len() == 1 { "" } else { "s" }, cells)}</div>
                </li>
            }
        })
        .collect();
    let empty = engine.tables().next().is_none();
    let quick = {
        let app = app.clone();
        Callback::from(move |_| app.dispatch(Action::Submit(QUICK_START.to_string())))
    };
    html! {
        <nav class="sidebar">
            <h2>{"Tables"}</h2>
            if empty {
                <p class="hint">{"No tables yet."}</p>
                <button class="quick" onclick={quick}>{"Run the quick start"}</button>
            }
            <ul class="tables">{tables}</ul>
            <super::gallery::Gallery />
        </nav>
    }
}
