//! The LSM of one region of the selected table, family by family: the memstore against its
//! flush threshold, the sorted runs with their key ranges, sizes and cell counts, and what the
//! recent flushes, compactions and splits did, read from the engine's event stream.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use super::prefs::KeyDisplay;
use super::state::use_app;
use super::view_kit::{dropped_notice, timed, use_shown, FigureExport};
use crate::engine::{
    flush_lower_bound, LsmEvent, LsmEventKind, Part, RunSummary, SplitCause, Table,
};

/// Most events listed for a region.
const EVENTS_SHOWN: usize = 12;

/// Width of the drawing in SVG units: about the views pane's width, so its text is drawn near
/// the page's size rather than scaled down.
const W: f64 = 440.0;
/// The narrowest run drawn: a run of a few bytes beside one of many kilobytes stays visible.
const MIN_RUN_W: f64 = 12.0;

#[component]
pub fn LsmView() -> Html {
    let app = use_app();
    // The region picked by the keyboard or the buttons, by id; `None` follows the last event.
    let picked = use_state(|| None::<u64>);
    // The table drawn last, to tell when it was dropped while on show.
    let last_shown = use_mut_ref(|| None::<String>);
    let key = app.as_ref().map(|a| {
        (
            a.selected_table.clone(),
            a.data_version,
            a.prefs.keys,
            *picked,
        )
    });
    let key = use_shown(key);
    let pick = {
        let picked = picked.clone();
        Callback::from(move |id: u64| picked.set(Some(id)))
    };
    use_memo(key, move |_| {
        timed("lsm", || {
            app.map(|a| render(&a, *picked, pick, &last_shown))
                .unwrap_or_default()
        })
    })
    .as_ref()
    .clone()
}

fn render(
    app: &super::state::AppHandle,
    picked: Option<u64>,
    pick: Callback<u64>,
    last_shown: &Rc<RefCell<Option<String>>>,
) -> Html {
    let console = app.console.borrow();
    let engine = &console.shell.engine;
    let table = app
        .selected_table
        .as_deref()
        .and_then(|n| engine.table(n).ok());
    let notice = dropped_notice(last_shown, table.map(|t| t.descriptor.name.as_str()), |t| {
        engine.exists(t)
    });
    let Some(table) = table else {
        return html! {
            {leaf!("section", [("aria-label", "LSM"), ("class", "view lsm")], list!(@mixed 3;
                leaf!("h3", "LSM"),
                notice,
                leaf!("p", "hint", "Create a table to see its memstores, sorted runs, flushes and compactions."),
            ))}
        };
    };
    let name = &table.descriptor.name;
    let events: Vec<&LsmEvent> = engine
        .lsm_events(name)
        .map(|l| l.iter().collect())
        .unwrap_or_default();
    let idx = region_on_show(table, &events, picked);
    let Some(region) = table.regions.get(idx) else {
        return html! {};
    };
    let keys = app.prefs.keys;
    let count = table.regions.len();
    // A Bigtable table's parts are tablets, its memstore a write buffer.
    let terms = crate::dialect::Terms::of(&table.descriptor.rules);
    let (part, buffer) = (terms.part, terms.buffer);
    let go = |to: usize| {
        let id = table.regions.get(to).map(|r| r.id);
        let pick = pick.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(id) = id {
                pick.emit(id);
            }
        })
    };
    let ids: Vec<u64> = table.regions.iter().map(|r| r.id).collect();
    let onkeydown = {
        let pick = pick.clone();
        Callback::from(move |e: KeyboardEvent| {
            let to = match e.key().as_str() {
                "ArrowLeft" | "ArrowUp" => idx.checked_sub(1),
                "ArrowRight" | "ArrowDown" => Some(idx + 1),
                "Home" => Some(0),
                "End" => ids.len().checked_sub(1),
                _ => None,
            };
            if let Some(id) = to.and_then(|i| ids.get(i)) {
                e.prevent_default();
                pick.emit(*id);
            }
        })
    };
    let settings = table.descriptor.settings;
    let families = region.stores.len();
    let bound = flush_lower_bound(settings.flush_bytes, families);
    let range = format!(
        "[{}, {})",
        if region.start.is_empty() {
            "−∞".into()
        } else {
            super::show_key(&region.start, keys)
        },
        if region.end.is_empty() {
            "+∞".into()
        } else {
            super::show_key(&region.end, keys)
        }
    );
    // Runs are drawn to one scale across the region's families.
    let widest = region
        .stores
        .iter()
        .map(|s| s.runs.iter().map(|r| r.bytes).sum::<usize>())
        .max()
        .unwrap_or(0)
        .max(1);
    let band = 62.0;
    let mut y = 0.0;
    let mut bands: Vec<Html> = Vec::new();
    let mut run_total = 0;
    for store in &region.stores {
        let family = store.family_name();
        let fill = store.memstore_bytes as f64 / settings.flush_bytes.max(1) as f64;
        let mem_w = (W - 120.0) * fill.min(1.0);
        let bound_x =
            110.0 + (W - 120.0) * (bound as f64 / settings.flush_bytes.max(1) as f64).min(1.0);
        let mut x = 110.0;
        let runs: Html = store
            .runs
            .iter()
            .map(|run| {
                let s = store.summary(run, region.id);
                let w = ((W - 120.0) * run.bytes as f64 / widest as f64).max(MIN_RUN_W);
                let label = run_label(&s, keys);
                let at = x;
                x += w + 2.0;
                html! {
                    {leaf!(@dyn "g", [("tabindex", "0"), ("role", "img"), ("aria-label", label.clone()), ("data-run-id", run.id.to_string()), ("data-cells", s.cells.to_string()), ("data-bytes", s.bytes.to_string()), ("data-first", super::show_key(&s.first_row, keys)), ("data-last", super::show_key(&s.last_row, keys)), ("class", "run")], html! {<>
                        {leaf!("title", label)}
                        {leaf!(@dyn "rect", [("x", fmt(at)), ("y", fmt(y + 34.0)), ("width", fmt(w)), ("height", "20"), ("rx", "2")], html! {})}
                        if w > 46.0 {
                            {leaf!(@dyn "text", [("x", fmt(at + 4.0)), ("y", fmt(y + 48.0))], format!("#{}", run.id))}
                        }
                    </>})}
                }
            })
            .collect();
        run_total += store.runs.len();
        let mem_label = format!(
            "{family}: {buffer} {} of the {part}'s {} flush threshold ({} cells); {} sorted runs",
            crate::kit::text::human_bytes(store.memstore_bytes as u64),
            crate::kit::text::human_bytes(settings.flush_bytes as u64),
            store.memstore.len(),
            store.runs.len()
        );
        bands.push(html! {
            {leaf!(@dyn "g", [("data-family", family.clone()), ("data-memstore-bytes", store.memstore_bytes.to_string()), ("data-memstore-cells", store.memstore.len().to_string()), ("data-runs", store.runs.len().to_string()), ("class", "family")], html! {<>
                {leaf!("title", mem_label)}
                {leaf!(@dyn "text", [("x", "0"), ("y", fmt(y + 14.0)), ("class", "fam")], family)}
                {leaf!(@dyn "text", [("x", "0"), ("y", fmt(y + 48.0)), ("class", "small")], crate::kit::text::count_of(store.runs.len() as u64, "run"))}
                {leaf!(@dyn "rect", [("x", "110"), ("y", fmt(y + 4.0)), ("width", fmt(W - 120.0)), ("height", "14"), ("rx", "2"), ("class", "mem-track")], html! {})}
                {leaf!(@dyn "rect", [("x", "110"), ("y", fmt(y + 4.0)), ("width", fmt(mem_w)), ("height", "14"), ("rx", "2"), ("class", "mem-fill")], html! {})}
                if families > 1 {
                    {leaf!(@dyn "line", [("x1", fmt(bound_x)), ("x2", fmt(bound_x)), ("y1", fmt(y + 1.0)), ("y2", fmt(y + 21.0)), ("class", "mem-bound")], html! {})}
                }
                {leaf!(@dyn "text", [("x", "114"), ("y", fmt(y + 29.0)), ("class", "small")], format!("{buffer} {} / {}", crate::kit::text::human_bytes(store.memstore_bytes as u64), crate::kit::text::human_bytes(settings.flush_bytes as u64)))}
                {runs}
            </>})}
        });
        y += band;
    }
    let height = y.max(band);
    let caption = format!(
        "{} {} of {count} of {name}, {range}: {families} famil{}, {run_total} sorted run{}, {buffer}s {} of a {} flush threshold.",
        terms.parts.trim_end_matches('s'),
        idx + 1,
        if families == 1 { "y" } else { "ies" },
        if run_total == 1 { "" } else { "s" },
        crate::kit::text::human_bytes(region.memstore_bytes() as u64),
        crate::kit::text::human_bytes(settings.flush_bytes as u64),
    );
    let mine: Vec<&&LsmEvent> = events
        .iter()
        .rev()
        .filter(|e| {
            e.region == region.id
                || e.daughters.iter().any(|d| d.0 == region.id)
                || e.outputs.iter().any(|o| o.region == region.id)
        })
        .take(EVENTS_SHOWN)
        .collect();
    let items: Html = mine.iter().map(|e| event_item(e, keys, part)).collect();
    html! {
        {leaf!("section", [("aria-label", "LSM"), ("class", "view lsm")], html! {<>
            {leaf!("h3", format!("LSM of {name}"))}
            {notice}
            {leaf!("div", "lsm-nav", list![
                leaf!(@on @dyn "button", [("aria-label", format!("Previous {part}")), ("disabled", crate::ui::view_kit::flag(idx == 0, "disabled")), ("class", "link")], [onclick(go(idx.saturating_sub(1)))], "◀"),
                leaf!("span", format!("{part} {} of {count} · id {} · {range}", idx + 1, region.id)),
                leaf!(@on @dyn "button", [("aria-label", format!("Next {part}")), ("disabled", crate::ui::view_kit::flag(idx + 1 >= count, "disabled")), ("class", "link")], [onclick(go(idx + 1))], "▶"),
            ])}
            {leaf!(@on @dyn "figure", [("tabindex", "0"), ("data-region-id", region.id.to_string()), ("data-regions", count.to_string()), ("data-runs", run_total.to_string()), ("aria-label", format!("{caption} Left and right arrows move between {part}s.")), ("class", "lsm-figure")], [onkeydown(onkeydown)], html! {<>
                {leaf!(@dyn "svg", [("viewBox", format!("0 0 {W} {height}")), ("width", "100%"), ("role", "group"), ("aria-label", caption.clone())], bands)}
                <FigureExport what="the LSM picture" table={name.clone()} view={format!("lsm-region-{}", idx + 1)} caption={caption.clone()} />
                {leaf!("figcaption", html! {<>{caption}
                    if families > 1 { {format!(" The mark on each {buffer} is the {} per-family bound: when the {part} flushes, only families above it flush (all when none is).", crate::kit::text::human_bytes(bound as u64))} }
                </>})}
            </>})}
            if mine.is_empty() {
                if table.descriptor.rules == crate::cbt::BIGTABLE_RULES {
                    {leaf!("p", "hint", list!(@mixed 3;
                        @seq(format!("No flush, compaction or split in this {part} yet. Try ")),
                        leaf!("code", format!("compact {name}")),
                        crate::ui::view_kit::text(" in cbt mode."),
                    ))}
                } else {
                    {leaf!("p", "hint", list!(@mixed 5;
                        @seq(format!("No flush, compaction or split in this {part} yet. Try ")),
                        leaf!("code", format!("flush '{name}'")),
                        crate::ui::view_kit::text(" or "),
                        leaf!("code", format!("major_compact '{name}'")),
                        crate::ui::view_kit::text("."),
                    ))}
                }
            } else {
                {leaf!("ol", [("aria-label", "What the last flushes, compactions and splits did, newest first"), ("class", "lsm-events")], items)}
            }
        </>})}
    }
}

/// The region on show: the one picked, else the one the last event left, else the first.
fn region_on_show(table: &Table, events: &[&LsmEvent], picked: Option<u64>) -> usize {
    let by_id = |id: u64| table.regions.iter().position(|r| r.id == id);
    picked
        .and_then(by_id)
        .or_else(|| {
            events.last().and_then(|e| {
                by_id(e.region).or_else(|| e.daughters.first().and_then(|d| by_id(d.0)))
            })
        })
        .unwrap_or(0)
}

fn fmt(v: f64) -> String {
    format!("{v:.1}")
}

fn part_name(p: Part) -> String {
    match p {
        Part::Memstore => "memstore".into(),
        Part::Run(id) => format!("run #{id}"),
    }
}

fn run_label(s: &RunSummary, keys: KeyDisplay) -> String {
    format!(
        "{} of {}: [{}, {}], {}, {}",
        part_name(s.part),
        s.family,
        super::show_key(&s.first_row, keys),
        super::show_key(&s.last_row, keys),
        crate::kit::text::count_of(s.cells as u64, "cell"),
        crate::kit::text::human_bytes(s.bytes as u64)
    )
}

fn brief(s: &RunSummary) -> String {
    format!(
        "{} ({}, {})",
        part_name(s.part),
        crate::kit::text::count_of(s.cells as u64, "cell"),
        crate::kit::text::human_bytes(s.bytes as u64)
    )
}

fn event_item(e: &LsmEvent, keys: KeyDisplay, part: &str) -> Html {
    let list = |parts: &[RunSummary]| -> String {
        if parts.is_empty() {
            "nothing".into()
        } else {
            parts.iter().map(brief).collect::<Vec<_>>().join(", ")
        }
    };
    let ids = |parts: &[RunSummary]| -> String {
        parts
            .iter()
            .map(|p| match p.part {
                Part::Memstore => "memstore".to_string(),
                Part::Run(id) => id.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let what = match e.kind {
        LsmEventKind::Split => {
            let at = e
                .daughters
                .get(1)
                .map(|d| super::show_key(&d.1, keys))
                .unwrap_or_default();
            // A load split is Rowkey's model of Bigtable's (`engine::load`): said so.
            let cause = match e.cause {
                Some(SplitCause::Load) => " (by load, Rowkey's model)".to_string(),
                Some(c) => format!(" ({})", c.words()),
                None => String::new(),
            };
            format!(
                "split{cause} at {at} into {part}s {}: {} → {}",
                e.daughters
                    .iter()
                    .map(|d| d.0.to_string())
                    .collect::<Vec<_>>()
                    .join(" and "),
                list(&e.inputs),
                list(&e.outputs)
            )
        }
        kind => format!(
            "{} of {}: {} → {}",
            kind.name(),
            e.family.as_deref().unwrap_or(""),
            list(&e.inputs),
            list(&e.outputs)
        ),
    };
    let dropped = e.dropped.describe();
    let kept = e.dropped.kept_deleted;
    html! {
        {leaf!(@dyn "li", [("data-kind", e.kind.name()), ("data-inputs", ids(&e.inputs)), ("data-outputs", ids(&e.outputs)), ("data-dropped", e.dropped.total().to_string()), ("class", crate::ui::view_kit::classes(&["lsm-event", &e.kind.name().replace(' ', "-")]))], html! {<>
            {leaf!("span", "ev-no", format!("event {}:", e.serial))}{" "}{what}
            if !dropped.is_empty() {
                {leaf!("div", "ev-dropped", format!("dropped {}: {dropped}", e.dropped.total()))}
            }
            if kept > 0 {
                {leaf!("div", "ev-dropped", format!("kept {kept} deleted cells (KEEP_DELETED_CELLS)"))}
            }
        </>})}
    }
}
