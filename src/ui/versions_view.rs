//! Every cell of the selected row as stored (a raw read): versions, delete markers, and which
//! of them a normal read shows.

use std::collections::HashSet;

use yew::prelude::*;

use super::state::use_app;
use crate::bytes::to_printable;
use crate::engine::Scan;

#[component]
pub fn VersionsView() -> Html {
    let app = use_app();
    let key = app.as_ref().map(|a| {
        (
            a.selected_table.clone(),
            a.selected_row.clone(),
            a.data_version,
            a.prefs.keys,
            a.prefs.timestamps,
        )
    });
    use_memo(key, move |_| app.map(|a| render(&a)).unwrap_or_default())
        .as_ref()
        .clone()
}

fn render(app: &super::state::AppHandle) -> Html {
    let (Some(name), Some(row)) = (app.selected_table.clone(), app.selected_row.clone()) else {
        return html! { <section class="view"><h3>{"Versions"}</h3><p class="hint">{"Click a row key to see every version and delete marker it holds."}</p></section> };
    };
    let console = app.console.borrow();
    let engine = &console.shell.engine;
    let mut raw = Scan {
        raw: true,
        max_versions: u32::MAX,
        ..Scan::get(&row)
    };
    let mut visible = Scan {
        max_versions: u32::MAX,
        ..Scan::get(&row)
    };
    let stored = engine
        .read(&name, &mut raw)
        .map(|o| o.rows.into_iter().flat_map(|r| r.cells).collect::<Vec<_>>())
        .unwrap_or_default();
    let shown: HashSet<u64> = engine
        .read(&name, &mut visible)
        .map(|o| {
            o.rows
                .into_iter()
                .flat_map(|r| r.cells)
                .map(|c| c.seq)
                .collect()
        })
        .unwrap_or_default();
    let lines: Html = stored
        .iter()
        .map(|c| {
            let column = format!("{}:{}", to_printable(&c.family), to_printable(&c.qualifier));
            let (class, what) = if c.kind.is_delete() {
                ("marker", format!("{} marker", c.kind.name()))
            } else if shown.contains(&c.seq) {
                ("visible", to_printable(&c.value))
            } else {
                ("masked", to_printable(&c.value))
            };
            html! {
                <tr class={class}>
                    <td>{column}</td><td class="ts">{c.timestamp}</td><td>{what}</td>
                    <td class="state">{match class { "visible" => "read sees it", "masked" => "masked or past VERSIONS", _ => "masks older cells" }}</td>
                </tr>
            }
        })
        .collect();
    html! {
        <section class="view">
            <h3>{format!("Versions in row {}", super::show_key(&row, app.prefs.keys))}</h3>
            <table class="versions">
                <thead><tr><th>{"column"}</th><th>{"timestamp"}</th><th>{"value"}</th><th></th></tr></thead>
                <tbody>{lines}</tbody>
            </table>
        </section>
    }
}
