//! What the last get or scan cost: rows scanned split into returned and filtered (the engine's
//! `ROWS_SCANNED` and `ROWS_FILTERED`), cells examined against returned, and what was read.

use yew::prelude::*;

use super::state::use_app;
use super::view_kit::use_shown;
use crate::engine::OpStats;
use crate::kit::text::{count_of, thousands as group};

fn meter(label: &str, returned: u64, examined: u64) -> Html {
    let pct = if examined == 0 {
        0.0
    } else {
        returned as f64 / examined as f64 * 100.0
    };
    html! {
        {leaf!("div", "meter", list![
            leaf!("div", "meter-label", list!(@mixed 2;
                @seq(label),
                leaf!("span", format!("{returned} returned of {examined} examined")),
            )),
            leaf!("div", "meter-bar", leaf!(@dyn "span", [("style", format!("width:{pct:.1}%"))], html! {})),
        ])}
    }
}

/// Rows scanned as one bar: those returned, those filtered, and whatever the engine counted as
/// neither (nothing, unless the two do not add up).
fn rows_meter(s: &OpStats) -> Html {
    let share = |n: u64| {
        if s.rows_examined == 0 {
            0.0
        } else {
            (n as f64 / s.rows_examined as f64 * 100.0).min(100.0)
        }
    };
    let (returned, filtered) = (share(s.rows_returned), share(s.rows_filtered));
    html! {
        {leaf!(@dyn "div", [("data-rows-scanned", s.rows_examined.to_string()), ("data-rows-returned", s.rows_returned.to_string()), ("data-rows-filtered", s.rows_filtered.to_string()), ("class", "meter rows")], list![
            leaf!("div", "meter-label", list![crate::ui::view_kit::text("Rows"), leaf!("span", format!("{} returned of {} examined, {} filtered", group(s.rows_returned), group(s.rows_examined), group(s.rows_filtered)))]),
            leaf!(@dyn "div", [("role", "img"), ("aria-label", format!("Of {} rows scanned, {} returned and {} filtered", group(s.rows_examined), group(s.rows_returned), group(s.rows_filtered))), ("class", "meter-bar")], list![leaf!(@dyn "span", [("style", format!("width:{returned:.1}%")), ("class", "returned")], html! {}), leaf!(@dyn "span", [("style", format!("width:{filtered:.1}%")), ("class", "filtered")], html! {})]),
            leaf!("div", "legend", list![leaf!("span", "swatch returned-sw", html! {}), crate::ui::view_kit::text("returned "), leaf!("span", "swatch filtered-sw", html! {}), crate::ui::view_kit::text("filtered: read, then dropped by a filter or left with no cells (ROWS_FILTERED)")]),
        ])}
    }
}

#[component]
pub fn ReadView() -> Html {
    let app = use_app();
    let key = use_shown(app.as_ref().map(|a| a.data_version));
    use_memo(key, move |_| app.map(|a| render(&a)).unwrap_or_default())
        .as_ref()
        .clone()
}

fn render(app: &super::state::AppHandle) -> Html {
    let console = app.console.borrow();
    let Some(trace) = console.last_trace.as_ref() else {
        return html! { {leaf!("section", "view", list![
            leaf!("h3", "Last read"),
            leaf!("p", "hint", "Run a get, scan or count to see what it touched."),
        ])} };
    };
    let s = &trace.stats;
    html! {
        {leaf!("section", "view", list!(@mixed 6;
            leaf!("h3", format!("Last read on {}", trace.table)),
            rows_meter(s),
            meter("Cells", s.cells_returned, s.cells_examined),
            leaf!("div", "facts", list![
                leaf!("span", crate::dialect::Terms::of_table(&console.shell.engine, &trace.table).count(s.regions.len())),
                leaf!("span", format!("{} memstore{}", s.memstores_touched, if s.memstores_touched == 1 { "" } else { "s" })),
                leaf!("span", format!("{} sorted run{}", s.runs_touched, if s.runs_touched == 1 { "" } else { "s" })),
                leaf!("span", format!("{} read", crate::kit::text::human_bytes(s.bytes_read))),
            ]),
            leaf!("div", [("aria-label", "Blocks"), ("class", "facts")], list![
                leaf!("span", [("title", "Data blocks of sorted runs the read decoded")], format!("{} read ({})", count_of(s.blocks_read, "block"), crate::kit::text::human_bytes(s.block_bytes_read))),
                leaf!("span", [("title", "Blocks a seek jumped over by the block index, never read")], format!("{} skipped by the index", s.blocks_skipped)),
                leaf!("span", [("title", "Sorted runs a get left unread because their bloom filter says the row is not there")], format!("{} skipped by bloom filter", count_of(s.runs_skipped_bloom, "run"))),
                leaf!("span", [("title", "Sorted runs left unread because the rows asked for are outside their key range")], format!("{} by key range", s.runs_skipped_range)),
            ]),
            leaf!("p", "hint", "A get asks each run's key range and bloom filter first and reads one block of the runs that may hold the row; a scan seeks with the block index and reads every block of its range, filter or not: filters run on cells after their blocks are read."),
        ))}
    }
}
