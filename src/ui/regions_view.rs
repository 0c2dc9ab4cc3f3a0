//! The regions of the selected table as a strip: key ranges, size, memstore and runs, and how
//! hot each one ran; a Bigtable table's in Bigtable's words ([`crate::dialect::Terms`]:
//! tablets). A table of more regions than a few lines of tiles hold scrolls its strip in a
//! box of its own and draws only the lines in view: fifteen thousand tiles took two seconds
//! to appear.

use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;

use super::state::use_app;
use super::view_kit::use_shown;
use crate::engine::Table;

/// A tile's least width and its height, each with the gap after it (static/style.css:
/// `.region` and `.region-strip`): a line of the strip holds as many tiles as fit at their
/// least width, as the browser wraps them.
const TILE_PX: f64 = 55.0;
const LINE_PX: f64 = 75.0;
/// The gap between tiles.
const GAP_PX: f64 = 3.0;
/// Lines of tiles the strip shows before it scrolls.
const LINES_SHOWN: usize = 8;
/// Lines drawn beyond those in view, above and below, so a scroll shows drawn tiles.
const LINES_SPARE: usize = 2;

/// Where the strip stands: how many tiles make a line, and the first line in view.
#[derive(Clone, Copy, PartialEq)]
struct Window {
    per_line: usize,
    first_line: usize,
}

impl Window {
    /// The window of a strip `width` pixels wide scrolled `top` pixels down.
    fn at(width: f64, top: f64) -> Window {
        Window {
            per_line: (((width + GAP_PX) / TILE_PX).floor() as usize).max(1),
            first_line: (top.max(0.0) / LINE_PX) as usize,
        }
    }
}

#[component]
pub fn RegionsView() -> Html {
    let app = use_app();
    let strip = use_node_ref();
    let window = use_state(|| Window::at(0.0, 0.0));
    {
        // The strip's width is known once drawn (and while shown): the tiles a line holds.
        let strip = strip.clone();
        let window = window.clone();
        use_effect(move || {
            if let Some(el) = strip.cast::<Element>() {
                let width = f64::from(el.client_width());
                let now = Window::at(width, f64::from(el.scroll_top()));
                if width > 0.0 && now != *window {
                    window.set(now);
                }
            }
        });
    }
    let onscroll = {
        let window = window.clone();
        Callback::from(move |e: Event| {
            if let Some(el) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) {
                let now = Window::at(f64::from(el.client_width()), f64::from(el.scroll_top()));
                if now != *window {
                    window.set(now);
                }
            }
        })
    };
    let key = app.as_ref().map(|a| {
        (
            a.selected_table.clone(),
            a.data_version,
            a.prefs.keys,
            *window,
        )
    });
    let key = use_shown(key);
    use_memo(key, move |key| {
        let window = key.as_ref().map_or(*window, |k| k.3);
        app.map(|a| render(&a, window, strip, onscroll))
            .unwrap_or_default()
    })
    .as_ref()
    .clone()
}

fn render(
    app: &super::state::AppHandle,
    window: Window,
    strip: NodeRef,
    onscroll: Callback<Event>,
) -> Html {
    let console = app.console.borrow();
    let Some(table) = app
        .selected_table
        .as_ref()
        .and_then(|n| console.shell.engine.table(n).ok())
    else {
        return html! {
            {leaf!("section", "view", list![
                leaf!("h3", "Regions"),
                leaf!("p", "hint", "Create a table to see its regions."),
            ])}
        };
    };
    let settings = table.descriptor.settings;
    let terms = crate::dialect::Terms::of(&table.descriptor.rules);
    // Heat is recent activity: the last operations show where traffic goes now.
    let activity: Vec<u64> = console
        .shell
        .engine
        .activity(&table.descriptor.name)
        .map(|a| a.per_region(table, None, crate::diagnose::RECENT).0)
        .unwrap_or_else(|| vec![0; table.regions.len()]);
    let heat = Heat {
        total: activity.iter().sum(),
        max: activity.iter().copied().max().unwrap_or(0),
        regions: table.regions.len(),
    };
    let tile = |i: usize| {
        tile(
            app,
            table,
            &terms,
            heat,
            activity.get(i).copied().unwrap_or(0),
            i,
        )
    };
    let n = table.regions.len();
    let lines = n.div_ceil(window.per_line);
    // Tiles `from..to`, pushed one by one: a list collected from each kind of iterator costs
    // the download a copy of the collecting code.
    let tiles = |from: usize, to: usize| -> Html {
        let mut out: Vec<Html> = Vec::with_capacity(to.saturating_sub(from));
        for i in from..to {
            out.push(tile(i));
        }
        out.into_iter().collect()
    };
    let strip = if lines <= LINES_SHOWN {
        html! { <div class="region-strip" role="list" aria-label={terms.parts} ref={strip}>{tiles(0, n)}</div> }
    } else {
        // Only the lines in view (and a few beyond) are drawn, each a row of `per_line`.
        let first = window
            .first_line
            .min(lines.saturating_sub(LINES_SHOWN))
            .saturating_sub(LINES_SPARE);
        let last = (window.first_line + LINES_SHOWN + LINES_SPARE).min(lines);
        let mut drawn: Vec<Html> = Vec::new();
        for line in first..last {
            let from = line * window.per_line;
            drawn.push(html! {
                {leaf!(@dyn "div", [("style", format!("top:{}px", line as f64 * LINE_PX)), ("class", "region-line")], tiles(from, (from + window.per_line).min(n)))}
            });
        }
        let drawn: Html = drawn.into_iter().collect();
        html! {
            <div class="region-scroll" ref={strip} {onscroll} tabindex="0" role="region" style={format!("height:{}px", LINES_SHOWN as f64 * LINE_PX)}
                aria-label={format!("{}, {} in {} lines of {}; the lines in view are drawn", terms.parts, n, lines, window.per_line)}>
                {leaf!(@dyn "div", [("role", "list"), ("aria-label", terms.parts), ("style", format!("height:{}px", lines as f64 * LINE_PX - GAP_PX)), ("class", "region-space")], drawn)}
            </div>
        }
    };
    html! {
        {leaf!("section", "view", html! {<>
            {leaf!("h3", format!("{} of {} ({})", terms.parts, table.descriptor.name, table.regions.len()))}
            {strip}
            if settings.split_bytes == 0 {
                // A simulation's sample keeps the regions the simulation ended with.
                {leaf!("p", "legend", format!("Width: data size, compared within a line of tiles. Colour: share of the last {} operations. Bar: {} filling towards a flush. No {} splits by size here.", crate::diagnose::RECENT, terms.buffer, terms.part))}
            } else {
                {leaf!("p", "legend", html! {<>{format!("Width: data size, compared within a line of tiles. Colour: share of the last {} operations. Bar: {} filling towards a flush. A {} over ", crate::diagnose::RECENT, terms.buffer, terms.part)}{format!("{} KB", settings.split_bytes / 1024)}{format!(" splits at its middle key{}.", terms.split_rule)}</>})}
            }
        </>})}
    }
}

/// The recent operations over the table's regions, to which each region's heat compares.
#[derive(Clone, Copy)]
struct Heat {
    total: u64,
    max: u64,
    regions: usize,
}

/// The tile of region `i`, which `act` of the recent operations fell in.
fn tile(
    app: &super::state::AppHandle,
    table: &Table,
    terms: &crate::dialect::Terms,
    h: Heat,
    act: u64,
    i: usize,
) -> Html {
    let Some(r) = table.regions.get(i) else {
        return html! {};
    };
    let settings = table.descriptor.settings;
    // Heat compares regions with each other; a lone region has nothing to be hotter than.
    let heat = if h.max == 0 || h.regions == 1 {
        0.0
    } else {
        act as f64 / h.max as f64
    };
    let share = if h.total == 0 {
        0.0
    } else {
        act as f64 / h.total as f64
    };
    let hot = h.regions > 1 && share > 0.5;
    let bytes = r.bytes();
    let fill = (r.memstore_bytes() as f64 / settings.flush_bytes.max(1) as f64 * 100.0).min(100.0);
    let start = if r.start.is_empty() {
        "−∞".to_string()
    } else {
        super::show_key(&r.start, app.prefs.keys)
    };
    let end = if r.end.is_empty() {
        "+∞".to_string()
    } else {
        super::show_key(&r.end, app.prefs.keys)
    };
    // Neighbouring start keys often share a long prefix: the tile shows what tells its key
    // from the one before, the title the whole key.
    let label = match i.checked_sub(1).and_then(|p| table.regions.get(p)) {
        Some(before) if !before.start.is_empty() => {
            crate::kit::text::distinct_tail(&start, &super::show_key(&before.start, app.prefs.keys))
        }
        _ => start.clone(),
    };
    let runs = r.run_count();
    let title = format!(
        "[{start}, {end})\n{bytes} bytes, {} cells\n{} {} bytes, {runs} sorted runs\nreads {} · writes {}",
        r.stores.iter().map(|s| s.cell_count()).sum::<usize>(),
        terms.buffer,
        r.memstore_bytes(),
        r.stats.reads,
        r.stats.writes
    );
    let style = format!("--heat:{heat:.3}; flex-grow:{}", 1 + bytes / 1024);
    html! {
        {leaf!(@dyn "div", [("style", style), ("title", title), ("role", "listitem"), ("class", if hot { "region hot" } else { "region" })], html! {<>
            {leaf!("div", "region-key", label)}
            {leaf!("div", "region-size", crate::kit::text::human_bytes(bytes as u64))}
            {leaf!("div", "region-lsm", leaf!(@dyn "span", [("style", format!("width:{fill:.0}%")), ("class", "memfill")], html! {}))}
            {leaf!("div", "region-runs", format!("{runs} run{}", if runs == 1 { "" } else { "s" }))}
            if hot { {leaf!("div", "hot-badge", format!("HOT {:.0}%", share * 100.0))} }
        </>})}
    }
}
