//! The selected table's row keys in stored order, with region boundaries, and which rows the
//! last read examined and returned.

use std::collections::HashSet;

use yew::prelude::*;

use super::state::{use_app, Action};
use crate::engine::Scan;

/// Most keys listed.
const SHOWN: usize = 400;

#[component]
pub fn RowkeysView() -> Html {
    let app = use_app();
    let key = app.as_ref().map(|a| {
        (
            a.selected_table.clone(),
            a.data_version,
            a.selected_row.clone(),
            a.prefs.keys,
        )
    });
    use_memo(key, move |_| app.map(|a| render(&a)).unwrap_or_default())
        .as_ref()
        .clone()
}

fn render(app: &super::state::AppHandle) -> Html {
    let shown = |k: &[u8]| super::show_key(k, app.prefs.keys);
    let console = app.console.borrow();
    let engine = &console.shell.engine;
    let Some(name) = app.selected_table.clone() else {
        return html! {};
    };
    let Ok(table) = engine.table(&name) else {
        return html! {};
    };
    let mut scan = Scan {
        limit: Some(SHOWN + 1),
        filter: crate::filter::parse_filter("KeyOnlyFilter()").ok(),
        ..Scan::default()
    };
    let rows: Vec<Vec<u8>> = engine
        .read(&name, &mut scan)
        .map(|o| o.rows.into_iter().map(|r| r.row).collect())
        .unwrap_or_default();
    let trace = console.last_trace.as_ref().filter(|t| t.table == name);
    let examined: HashSet<&[u8]> = trace
        .map(|t| t.examined.iter().map(Vec::as_slice).collect())
        .unwrap_or_default();
    let returned: HashSet<&[u8]> = trace
        .map(|t| t.returned.iter().map(Vec::as_slice).collect())
        .unwrap_or_default();
    let mut items = Vec::new();
    let mut region = 0usize;
    for row in rows.iter().take(SHOWN) {
        while table
            .regions
            .get(region + 1)
            .is_some_and(|r| r.start.as_slice() <= row.as_slice())
        {
            region += 1;
            let start = table
                .regions
                .get(region)
                .map(|r| shown(&r.start))
                .unwrap_or_default();
            items.push(html! { <li class="boundary">{format!("region {} starts at {start}", region + 1)}</li> });
        }
        let class = if returned.contains(row.as_slice()) {
            "returned"
        } else if examined.contains(row.as_slice()) {
            "examined"
        } else {
            ""
        };
        let selected = app.selected_row.as_deref() == Some(row.as_slice());
        let onclick = {
            let app = app.clone();
            let row = row.clone();
            Callback::from(move |_| app.dispatch(Action::SelectRow(Some(row.clone()))))
        };
        items.push(html! { <li><button class={classes!("key", class)} aria-pressed={selected.to_string()} {onclick}>{shown(row)}</button></li> });
    }
    let more = rows.len() > SHOWN;
    html! {
        <section class="view">
            <h3>{format!("Row keys in stored order{}", if more { format!(" (first {SHOWN})") } else { String::new() })}</h3>
            if trace.is_some() {
                <p class="legend"><span class="swatch returned"></span>{"returned by the last read "}<span class="swatch examined"></span>{"examined, not returned"}</p>
            }
            if rows.is_empty() { <p class="hint">{"No rows yet."}</p> }
            <ol class="keys" aria-label="Row keys">{items}</ol>
        </section>
    }
}
