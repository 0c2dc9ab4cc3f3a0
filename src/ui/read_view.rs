//! What the last get or scan cost: rows and cells examined against returned.

use yew::prelude::*;

use super::state::use_app;
use super::views_pane::use_shown;

fn meter(label: &str, returned: u64, examined: u64) -> Html {
    let pct = if examined == 0 {
        0.0
    } else {
        returned as f64 / examined as f64 * 100.0
    };
    html! {
        <div class="meter">
            <div class="meter-label">{label}<span>{format!("{returned} returned of {examined} examined")}</span></div>
            <div class="meter-bar"><span style={format!("width:{pct:.1}%")}></span></div>
        </div>
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
        return html! { <section class="view"><h3>{"Last read"}</h3><p class="hint">{"Run a get, scan or count to see what it touched."}</p></section> };
    };
    let s = &trace.stats;
    html! {
        <section class="view">
            <h3>{format!("Last read on {}", trace.table)}</h3>
            {meter("Rows", s.rows_returned, s.rows_examined)}
            {meter("Cells", s.cells_returned, s.cells_examined)}
            <div class="facts">
                <span>{format!("{} region{}", s.regions.len(), if s.regions.len() == 1 { "" } else { "s" })}</span>
                <span>{format!("{} memstore{}", s.memstores_touched, if s.memstores_touched == 1 { "" } else { "s" })}</span>
                <span>{format!("{} sorted run{}", s.runs_touched, if s.runs_touched == 1 { "" } else { "s" })}</span>
                <span>{format!("{} read", super::human_bytes(s.bytes_read))}</span>
            </div>
            <div class="facts" aria-label="Blocks">
                <span title="Data blocks of sorted runs the read decoded">{format!("{} block{} read ({})", s.blocks_read, plural(s.blocks_read), super::human_bytes(s.block_bytes_read))}</span>
                <span title="Blocks a seek jumped over by the block index, never read">{format!("{} skipped by the index", s.blocks_skipped)}</span>
                <span title="Sorted runs a get left unread because their bloom filter says the row is not there">{format!("{} run{} skipped by bloom filter", s.runs_skipped_bloom, plural(s.runs_skipped_bloom))}</span>
                <span title="Sorted runs left unread because the rows asked for are outside their key range">{format!("{} by key range", s.runs_skipped_range)}</span>
            </div>
            <p class="hint">{"A get asks each run's key range and bloom filter first and reads one block of the runs that may hold the row; a scan seeks with the block index and reads every block of its range, filter or not: filters run on cells after their blocks are read."}</p>
        </section>
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
