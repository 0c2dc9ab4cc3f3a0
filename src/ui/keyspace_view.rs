//! Every row key of the selected table in stored (byte) order, as a virtualized list: only the
//! rows in view are in the page, read from the engine's key index by offset. Beside it the
//! [`Minimap`] of the whole keyspace. One Tab stop for the list; arrow keys, Page Up/Down,
//! Home and End move inside it, Enter shows the row's versions. A jump box goes to a key or
//! to the first row of a prefix.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement, KeyboardEvent};
use yew::prelude::*;

use super::minimap::{Minimap, MinimapData, RegionStarts};
use super::state::use_app;
use super::view_kit::{use_shown, FigureExport, ViewClock};
use crate::diagnose::key_time_in;
use crate::kit::text::thousands as group;
use crate::session::Action;
use crate::shell::TimeFormat;

/// Pixel height of one row of the list.
const ROW_PX: f64 = 22.0;
/// Rows the list shows.
const VIEW_ROWS: usize = 20;
/// The tallest scroll area a browser lays out reliably; past it, scrolling is scaled.
const MAX_SCROLL_PX: f64 = 4_000_000.0;

/// Where the scroll box of a list of `rows` must stand for the list to start at `top`.
fn scroll_top(rows: usize, top: usize) -> f64 {
    let max_first = rows.saturating_sub(VIEW_ROWS);
    if max_first == 0 {
        return 0.0;
    }
    let total_px = (rows as f64 * ROW_PX).min(MAX_SCROLL_PX);
    let range = (total_px - VIEW_ROWS as f64 * ROW_PX).max(1.0);
    top.min(max_first) as f64 / max_first as f64 * range
}

#[component]
pub fn KeyspaceView() -> Html {
    let clock = ViewClock::start();
    let app = use_app();
    let first = use_state(|| 0usize);
    let focus = use_state(|| 0usize);
    let dates = use_state(|| false);
    let message = use_state(|| None::<(bool, String)>);
    let list = use_node_ref();
    let jump_input = use_node_ref();
    let Some(app) = app else {
        return html! {};
    };
    let table = app.selected_table.clone();
    let data_key = use_shown((table.clone(), app.data_version));
    // The regions' starts as the last data version had them, which the next one moves.
    let starts = use_mut_ref(|| None::<(String, Rc<RegionStarts>)>);
    // What depends on the data only: once per data version.
    let data = {
        let app = app.clone();
        use_memo(data_key, move |(table, _)| -> Option<Rc<MinimapData>> {
            let console = app.console.borrow();
            let name = table.as_ref()?;
            let engine = &console.shell.engine;
            let t = engine.table(name).ok()?;
            let last = starts.borrow_mut().take().filter(|(n, _)| n == name);
            let regions = RegionStarts::of(t, last.as_ref().map(|(_, s)| s));
            *starts.borrow_mut() = Some((name.clone(), regions.clone()));
            Some(Rc::new(MinimapData::with_starts(
                t,
                regions,
                engine.activity(name),
                console.last_trace.as_ref(),
            )))
        })
    };
    {
        // A new table starts at its top.
        let first = first.clone();
        let focus = focus.clone();
        let message = message.clone();
        use_effect_with(table.clone(), move |_| {
            first.set(0);
            focus.set(0);
            message.set(None);
        });
    }
    {
        // A read brings the rows it walked into view, once per read (its tick): scrolling the
        // list afterwards is left alone until the next read.
        let target = data
            .as_ref()
            .as_ref()
            .and_then(|d| Some((d.read.as_ref()?.tick, d.read_from()?, d.rows)));
        let first = first.clone();
        let focus = focus.clone();
        let list = list.clone();
        use_effect_with((table.clone(), target.map(|t| t.0)), move |_| {
            if let Some((_, row, rows)) = target.filter(|t| t.2 > 0) {
                let row = row.min(rows - 1);
                let top = row
                    .saturating_sub(VIEW_ROWS / 4)
                    .min(rows.saturating_sub(VIEW_ROWS));
                first.set(top);
                focus.set(row);
                if let Some(el) = list.cast::<Element>() {
                    el.set_scroll_top(scroll_top(rows, top) as i32);
                }
            }
        });
    }
    let Some(name) = table else {
        return html! { {leaf!("section", "view", list![
            leaf!("h3", "Keyspace"),
            leaf!("p", "hint", "Select or create a table to see its row keys."),
        ])} };
    };
    let Some(data) = data.as_ref().clone() else {
        return html! { {leaf!("section", "view", list![
            leaf!("h3", "Keyspace"),
            leaf!("p", [("role", "status"), ("class", "hint")], format!("Table {name} no longer exists.")),
        ])} };
    };
    let rows = data.rows;
    let max_first = rows.saturating_sub(VIEW_ROWS);
    let total_px = (rows as f64 * ROW_PX).min(MAX_SCROLL_PX);
    let scroll_range = (total_px - VIEW_ROWS as f64 * ROW_PX).max(1.0);
    let top_for = move |row: usize| -> f64 { scroll_top(rows, row) };
    let go_to = {
        let first = first.clone();
        let focus = focus.clone();
        let list = list.clone();
        Callback::from(move |row: usize| {
            let row = row.min(rows.saturating_sub(1));
            let top = row.saturating_sub(VIEW_ROWS / 2).min(max_first);
            first.set(top);
            focus.set(row);
            if let Some(el) = list.cast::<Element>() {
                el.set_scroll_top(top_for(top) as i32);
            }
        })
    };
    let onscroll = {
        let first = first.clone();
        Callback::from(move |e: Event| {
            if let Some(el) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) {
                let at = f64::from(el.scroll_top()) / scroll_range;
                first.set(((at * max_first as f64).round() as usize).min(max_first));
            }
        })
    };
    let onkeydown = {
        let focus = focus.clone();
        let first = first.clone();
        let app = app.clone();
        let name = name.clone();
        let list = list.clone();
        Callback::from(move |e: KeyboardEvent| {
            let at = *focus;
            let next = match e.key().as_str() {
                "ArrowDown" => at + 1,
                "ArrowUp" => at.saturating_sub(1),
                "PageDown" => at + VIEW_ROWS,
                "PageUp" => at.saturating_sub(VIEW_ROWS),
                "Home" => 0,
                "End" => rows.saturating_sub(1),
                "Enter" | " " => {
                    e.prevent_default();
                    let console = app.console.borrow();
                    let key = console
                        .shell
                        .engine
                        .table(&name)
                        .ok()
                        .and_then(|t| t.keys.get(at).map(|k| k.key.to_vec()));
                    drop(console);
                    if let Some(key) = key {
                        app.dispatch(Action::SelectRow(Some(key)).into());
                    }
                    return;
                }
                _ => return,
            };
            e.prevent_default();
            let next = next.min(rows.saturating_sub(1));
            focus.set(next);
            let top = *first;
            let new_top = if next < top {
                next
            } else if next >= top + VIEW_ROWS {
                next + 1 - VIEW_ROWS
            } else {
                top
            };
            if new_top != top {
                first.set(new_top);
                if let Some(el) = list.cast::<Element>() {
                    el.set_scroll_top(top_for(new_top) as i32);
                }
            }
        })
    };
    let onjump = {
        let app = app.clone();
        let name = name.clone();
        let input = jump_input.clone();
        let message = message.clone();
        let go_to = go_to.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let Some(text) = input.cast::<HtmlInputElement>().map(|i| i.value()) else {
                return;
            };
            let console = app.console.borrow();
            let Ok(t) = console.shell.engine.table(&name) else {
                message.set(Some((true, format!("Table {name} no longer exists."))));
                return;
            };
            let key = crate::bytes::from_printable(&text);
            let shown = super::show_key(&key, app.prefs.keys);
            let pos = t.keys.row_position(&key);
            let prefix = t.keys.prefix_range(&key);
            let (row, note) = if key.is_empty() {
                (0, (false, "The first row.".to_string()))
            } else if pos.exact {
                (
                    pos.index,
                    (
                        false,
                        format!(
                            "Row {} of {}: '{shown}'.",
                            group(pos.index as u64 + 1),
                            group(rows as u64)
                        ),
                    ),
                )
            } else if !prefix.is_empty() {
                (
                    prefix.start,
                    (
                        false,
                        format!(
                            "{} {} with '{shown}', from row {}.",
                            group(prefix.len() as u64),
                            if prefix.len() == 1 {
                                "row starts"
                            } else {
                                "rows start"
                            },
                            group(prefix.start as u64 + 1)
                        ),
                    ),
                )
            } else if pos.index < rows {
                let next = t
                    .keys
                    .get(pos.index)
                    .map(|k| crate::bytes::to_printable(&k.key))
                    .unwrap_or_default();
                (pos.index, (true, format!("No row is '{shown}' and none starts with it; the next row is '{next}' (row {}).", group(pos.index as u64 + 1))))
            } else {
                (
                    rows.saturating_sub(1),
                    (
                        true,
                        format!("No row is '{shown}' or after it; the last row is shown."),
                    ),
                )
            };
            drop(console);
            message.set(Some(note));
            go_to.emit(row);
        })
    };
    let toggle_dates = {
        let dates = dates.clone();
        Callback::from(move |_| dates.set(!*dates))
    };
    // The rows in view, straight from the key index (O(log n) to find, then the rows shown).
    let top = (*first).min(max_first);
    let shown: Vec<(usize, Vec<u8>, u32)> = {
        let console = app.console.borrow();
        console
            .shell
            .engine
            .table(&name)
            .map(|t| {
                t.keys
                    .rows_at(top, VIEW_ROWS)
                    .into_iter()
                    .enumerate()
                    .map(|(i, k)| (top + i, k.key.to_vec(), k.cells))
                    .collect()
            })
            .unwrap_or_default()
    };
    let time = TimeFormat::Local(Box::new(super::prefs::utc_offset_minutes));
    let items: Html = shown
        .iter()
        .map(|(i, key, cells)| {
            let mut class = vec!["krow"];
            if data.in_read(*i) {
                class.push("read");
            }
            if data.written.binary_search(i).is_ok() {
                class.push("written");
            }
            if data.regions.starts_at(*i) {
                class.push("region-start");
            }
            if *i == *focus {
                class.push("focused");
            }
            if app.selected_row.as_deref() == Some(key.as_slice()) {
                class.push("selected");
            }
            let date = (*dates)
                .then(|| key_time_in(key))
                .flatten()
                .map(|(_, kt)| format!("{}{}", time.timestamp(kt.ms), if kt.reversed { " (reversed)" } else { "" }));
            let onclick = {
                let app = app.clone();
                let focus = focus.clone();
                let key = key.clone();
                let i = *i;
                Callback::from(move |_| {
                    focus.set(i);
                    app.dispatch(Action::SelectRow(Some(key.clone())).into());
                })
            };
            html! {
                {leaf!(@on @dyn "div", [("role", "option"), ("id", format!("krow-{i}")), ("aria-selected", (*i == *focus).to_string()), ("class", crate::ui::view_kit::classes(&class))], [onclick(onclick)], html! {<>
                    {leaf!("span", "kn", group(*i as u64 + 1))}
                    {leaf!("span", "kk", super::show_key(key, app.prefs.keys))}
                    if let Some(d) = date { {leaf!("span", "kd", d)} }
                    {leaf!("span", "kc", format!("{cells} cell{}", if *cells == 1 { "" } else { "s" }))}
                </>})}
            }
        })
        .collect();
    let offset = top_for(top);
    let read_note = data.read.as_ref().map(|r| r.summary.clone());
    // Every row key stored, a row of delete markers alone included.
    let stored_rows = crate::kit::text::count_of(rows as u64, "stored row");
    let caption = format!(
        "Keyspace of {name}: {} over {} in byte order.{}",
        crate::dialect::Terms::of_table(&app.console.borrow().shell.engine, &name)
            .count(data.regions.len()),
        stored_rows,
        read_note
            .as_ref()
            .map(|n| format!(" {n}"))
            .unwrap_or_default()
    );
    let on_pick = go_to.clone();
    clock.stop("keyspace");
    html! {
        {leaf!("section", [("aria-label", "Keyspace"), ("class", "view keyspace")], html! {<>
            {leaf!("h3", format!("Keyspace of {name}: {stored_rows} in byte order"))}
            {leaf!(@on "form", [("class", "jump")], [onsubmit(onjump)], html! {<>
                {leaf!("label", [("for", "jump-key")], "Jump to a key or prefix")}
                <input id="jump-key" ref={jump_input} type="text" spellcheck="false" placeholder="user0042 or \\x00\\x01" autocomplete="off" />
                {leaf!("button", [("type", "submit")], "Jump")}
                {leaf!("label", [("title", "Epoch milliseconds (13 digits), a reversed timestamp (Long.MAX_VALUE minus the time: 19 digits), a UTC yyyyMMddHHmmss (14 digits), or 8 big-endian bytes of either, at the key's start or after its first field"), ("class", "check")], html! {<><input type="checkbox" checked={*dates} onchange={toggle_dates} aria-describedby="key-dates-help" />{" times in keys as dates"}</>})}
                {leaf!("span", [("id", "key-dates-help"), ("class", "visually-hidden")], "Recognises epoch milliseconds, reversed timestamps, yyyyMMddHHmmss and 8-byte times at the key's start or after its first field.")}
            </>})}
            if let Some((bad, text)) = (*message).clone() {
                {leaf!(@dyn "p", [("role", "status"), ("class", crate::ui::view_kit::classes(&["jump-note", if bad { "bad" } else { "" }]))], text)}
            }
            if let Some(note) = read_note { {leaf!("p", "legend", note)} }
            if rows == 0 {
                {leaf!("p", "hint", "No rows yet: put a row or run generate.")}
            } else {
                {leaf!("div", "keyspace-body", html! {<>
                    <div class="klist" ref={list} tabindex="0" role="listbox" aria-label={format!("Row keys of {name}, {} rows", group(rows as u64))}
                        aria-activedescendant={format!("krow-{}", *focus)} {onscroll} {onkeydown} data-rows={rows.to_string()} data-first={top.to_string()}>
                        {leaf!(@dyn "div", [("style", format!("height:{total_px}px")), ("class", "kspace")], leaf!(@dyn "div", [("style", format!("transform:translateY({offset}px)")), ("class", "kwindow")], items))}
                    </div>
                    {leaf!("figure", "minimap-figure", html! {<>
                        <Minimap data={data.clone()} first={top} shown={VIEW_ROWS} keys={app.prefs.keys} on_pick={on_pick} />
                        <FigureExport what="the keyspace map" table={name.clone()} view="keyspace" caption={caption} />
                    </>})}
                </>})}
                {leaf!("p", "legend", list![
                    leaf!("span", "swatch read-sw", html! {}),
                    crate::ui::view_kit::text("walked by the last read "),
                    leaf!("span", "swatch written-sw", html! {}),
                    crate::ui::view_kit::text("written lately "),
                    leaf!("span", "swatch start-sw", html! {}),
                    crate::ui::view_kit::text("first row of a region"),
                ])}
                if let Some(r) = data.read.as_ref() {
                    {leaf!(@dyn "p", [("data-rows-scanned", r.scanned.to_string()), ("data-rows-returned", r.returned.to_string()), ("data-rows-filtered", r.filtered.to_string()), ("class", "legend rows-legend")], html! {<>
                        {"On the map, beside the last read's bracket: "}
                        {leaf!("span", "swatch returned-sw", html! {})}{format!("{} row{} returned ", group(r.returned), if r.returned == 1 { "" } else { "s" })}
                        {leaf!("span", "swatch filtered-sw", html! {})}{format!("{} row{} filtered (ROWS_FILTERED) ", group(r.filtered), if r.filtered == 1 { "" } else { "s" })}
                        {format!("of {} scanned (ROWS_SCANNED)", group(r.scanned))}
                        if r.returned_at.is_empty() && r.filtered_at.is_empty() && r.scanned > 0 { {"; where they lie is known only right after the read"} }
                        {"."}
                    </>})}
                }
            }
        </>})}
    }
}
