//! The Key Visualizer of a simulated table: a canvas heatmap of simulated time × key ranges
//! for the metric chosen, the splits drawn where and when they happened, a lane per region
//! server, zoom in time, drill-down into key prefixes, a moment picked on the timeline (and
//! there the regions, as `hbtop` lists them), and the same figures as a table for screen
//! readers. Every redraw is timed and the time shown.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};
use yew::prelude::*;

use super::region_table::RegionTable;
use super::sim_run::Shared;
use crate::bytes::to_printable;
use crate::designs::lesson::number;
use crate::keyvis::{
    grid_pixels, lanes, prefixes, split_marks, summary_rows, Provenance, Scope, Window,
};
use crate::simulate::findings::Moment;
use crate::simulate::{Metric, Simulation};

/// Key ranges of the heatmap.
const RANGES: usize = 1_000;

#[derive(Properties, PartialEq)]
pub struct KeyVisualizerProps {
    pub sim: Shared<Simulation>,
    pub table: usize,
    /// A prefix for element ids (two visualizers side by side).
    #[prop_or(AttrValue::Static("kv"))]
    pub id: AttrValue,
    /// A moment asked for from outside (a finding's), with the number of the ask, so that
    /// asking for the same moment again, after the slider moved, shows it again; its region
    /// is marked in the regions table.
    #[prop_or_default]
    pub shown: Option<(Moment, u32)>,
}

/// Puts `px` (RGBA, `w` × `h`) on the canvas, sized to it.
fn paint(canvas: &NodeRef, px: &[u8], w: usize, h: usize) -> Option<()> {
    let canvas: HtmlCanvasElement = canvas.cast()?;
    canvas.set_width(w as u32);
    canvas.set_height(h as u32);
    let ctx: CanvasRenderingContext2d = canvas.get_context("2d").ok()??.dyn_into().ok()?;
    let image =
        ImageData::new_with_u8_clamped_array_and_sh(Clamped(px), w as u32, h as u32).ok()?;
    ctx.put_image_data(&image, 0.0, 0.0).ok()
}

/// Simulated time as `h:mm` from the start.
pub fn clock(ms: u64) -> String {
    let minutes = ms / 60_000;
    format!("{}:{:02}", minutes / 60, minutes % 60)
}

/// A moment of a run as the page words it: `0:20 (step 481 of 1440)`.
pub fn moment_words(step: usize, steps: usize, step_ms: u64) -> String {
    format!(
        "{} (step {} of {steps})",
        clock(step as u64 * step_ms),
        step + 1
    )
}

fn value_text(metric: Metric, v: f64) -> String {
    match metric {
        Metric::ReadPressure | Metric::WritePressure => {
            format!("{} %", number((v * 1000.0).round() / 10.0))
        }
        Metric::BytesWritten | Metric::DataSize => crate::kit::text::human_bytes(v as u64),
        _ => number(v.round()),
    }
}

#[component]
pub fn KeyVisualizer(props: &KeyVisualizerProps) -> Html {
    let metric = use_state(|| Metric::Writes);
    let scope = use_state(|| None::<Scope>);
    let window = use_state(|| None::<Window>);
    let moment = use_state(|| None::<usize>);
    // The last redraw's time and how many redraws were timed (so a test sees a new one).
    let drawn_ms = use_state(|| None::<(f64, u32)>);
    let asked_at = use_memo((), |_| Rc::new(Cell::new(0.0f64)));
    let heat_canvas = use_node_ref();
    let lane_canvas = use_node_ref();
    // A simulation has a table at least (its workload is checked).
    let table = props.table.min(props.sim.tables.len().saturating_sub(1));
    let steps = props.sim.steps.max(1);
    let scope_now = (*scope).clone().unwrap_or_default();
    let win = (*window).unwrap_or(Window::all(steps));
    let at = (*moment).unwrap_or(steps - 1).min(steps - 1);
    {
        let (moment, window) = (moment.clone(), window.clone());
        use_effect_with(props.shown, move |shown| {
            if let Some((shown, _)) = *shown {
                let step = shown.step.min(steps - 1);
                moment.set(Some(step));
                // A zoom that leaves the moment out moves to it, as long as it was.
                if let Some(w) = (*window).filter(|w| step < w.first || step >= w.end) {
                    window.set(Some(w.around(step, steps)));
                }
                // The table at the top of the pane, scrolled back to its first column (a
                // keyboard walk through its headings may have left it scrolled sideways).
                super::bring_into_view(".sim-regions");
                if let Ok(Some(table)) =
                    gloo::utils::document().query_selector(".sim-regions .table-wrap")
                {
                    table.set_scroll_left(0);
                }
            }
        });
    }
    // The heat model on show: for the whole table the run's own, read in place (its nine grids
    // are about 100 MB at 1,000 ranges × 1,440 steps: a copy alone took longer than a redraw
    // may); for a key prefix drilled into, the scope's ranges recounted once per scope and
    // metric, with the grid of the metric on show only.
    let scoped = use_memo(
        (props.sim.clone(), table, scope_now.clone(), *metric),
        |(sim, table, scope, metric)| {
            let run = sim.tables.get(*table)?;
            (!scope.covers_model(run, RANGES)).then(|| scope.heat_of(run, RANGES, &[*metric]))
        },
    );
    // The next level of prefixes to drill into depends on the scope alone: it is worked out once
    // per scope, not on every zoom or move of the slider, and after the heatmap is painted (a
    // pass over every sample, then the grouping), so a drill-down shows its heatmap first.
    let level = use_state(|| None::<(Scope, Vec<(Vec<u8>, f64)>)>);
    {
        let level = level.clone();
        use_effect_with(
            (props.sim.clone(), table, scope_now.clone()),
            move |(sim, table, scope)| {
                let (sim, table, scope) = (sim.clone(), *table, scope.clone());
                let later = gloo::timers::callback::Timeout::new(0, move || {
                    if let Some(run) = sim.tables.get(table) {
                        let next = prefixes(run, &scope, 12);
                        level.set(Some((scope, next)));
                    }
                });
                move || drop(later)
            },
        );
    }
    let timeline = use_memo((props.sim.clone(), table), |(sim, table)| {
        Shared(Rc::new(
            sim.tables
                .get(*table)
                .map(|r| r.timeline.clone())
                .unwrap_or_default(),
        ))
    });
    // Draw after every change of what is shown, and say how long it took since it was asked.
    {
        let (hc, lc) = (heat_canvas.clone(), lane_canvas.clone());
        let scoped = scoped.clone();
        let sim = props.sim.clone();
        let timeline = timeline.clone();
        let drawn_ms = drawn_ms.clone();
        let asked_at = asked_at.clone();
        let servers = props.sim.workload.cluster.region_servers;
        use_effect_with(
            // What is drawn, by value: an address of a freed model can come back.
            (props.sim.clone(), table, scope_now.clone(), *metric, win),
            move |(_, table, _, metric, win)| {
                let heat = scoped
                    .as_ref()
                    .as_ref()
                    .or_else(|| sim.tables.get(*table).map(|run| &run.heat));
                if let Some(grid) = heat.and_then(|h| h.grid(*metric).map(|g| (h, g))) {
                    let (heat, grid) = grid;
                    let (px, _) = grid_pixels(&grid.values, heat.ranges.len(), heat.steps, *win);
                    paint(&hc, &px, win.len(), heat.ranges.len());
                }
                let lanes = lanes(&timeline, servers, *metric);
                let flat: Vec<f64> = lanes.concat();
                let (px, _) = grid_pixels(&flat, lanes.len(), timeline.steps.len(), *win);
                paint(&lc, &px, win.len(), lanes.len());
                let asked = asked_at.get();
                if asked > 0.0 {
                    let n = drawn_ms.map_or(0, |(_, n)| n);
                    drawn_ms.set(Some((super::perf_ms() - asked, n + 1)));
                    asked_at.set(0.0);
                }
            },
        );
    }
    let Some(run) = props.sim.tables.get(table) else {
        return html! {};
    };
    let heat = scoped.as_ref().as_ref().unwrap_or(&run.heat);
    let ask = {
        let asked_at = asked_at.clone();
        move || asked_at.set(super::perf_ms())
    };
    let id = props.id.clone();
    let metric_select = {
        let metric = metric.clone();
        let ask = ask.clone();
        Callback::from(move |e: Event| {
            let value = super::event_value(&e);
            if let Some(m) = Metric::ALL.iter().find(|m| m.label() == value) {
                ask();
                metric.set(*m);
            }
        })
    };
    let zoom = |inward: bool| {
        let window = window.clone();
        let ask = ask.clone();
        Callback::from(move |_: MouseEvent| {
            ask();
            window.set(Some(if inward {
                win.zoom_in(at)
            } else {
                win.zoom_out(steps)
            }));
        })
    };
    let pick_step = {
        let moment = moment.clone();
        Callback::from(move |e: InputEvent| {
            let v = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                .and_then(|i| i.value().parse::<usize>().ok());
            if let Some(v) = v {
                moment.set(Some(v));
            }
        })
    };
    let heat_click = {
        let moment = moment.clone();
        let hc = heat_canvas.clone();
        Callback::from(move |e: MouseEvent| {
            let Some(canvas) = hc.cast::<HtmlCanvasElement>() else {
                return;
            };
            let rect = canvas.get_bounding_client_rect();
            let x = (e.client_x() as f64 - rect.left()) / rect.width().max(1.0);
            let step = win.first + ((x * win.len() as f64) as usize).min(win.len() - 1);
            moment.set(Some(step));
        })
    };
    let drill = |target: Scope| {
        let scope = scope.clone();
        let window = window.clone();
        let ask = ask.clone();
        Callback::from(move |_: MouseEvent| {
            ask();
            scope.set(Some(target.clone()));
            window.set(Some(win));
        })
    };
    // The level of the scope on show (none while it is worked out).
    let level: &[(Vec<u8>, f64)] = match &*level {
        Some((s, l)) if *s == scope_now => l,
        _ => &[],
    };
    let prefix_buttons: Html = level
        .iter()
        .map(|(p, ops)| {
            html! {
                {leaf!("li", leaf!(@on "button", [("class", "link drill")], [onclick(drill(scope_now.into_prefix(p)))], list!(@mixed 2;
                    leaf!("code", to_printable(p)),
                    @seq(format!(" · {} operations", crate::kit::text::thousands(ops.round() as u64))),
                )))}
            }
        })
        .collect();
    let crumbs: Html = {
        let mut out = vec![
            html! { {leaf!("li", leaf!(@on @dyn "button", [("disabled", crate::ui::view_kit::flag(scope_now.path.is_empty(), "disabled")), ("class", "link")], [onclick(drill(Scope::whole(run)))], "whole table"))} },
        ];
        let mut s = Scope::whole(run);
        for p in &scope_now.path {
            s = s.into_prefix(p);
            out.push(html! { {leaf!("li", leaf!(@on "button", [("class", "link")], [onclick(drill(s.clone()))], to_printable(p)))} });
        }
        out.into_iter().collect()
    };
    let rows = heat.ranges.len().max(1);
    let cols = win.len();
    let marks = split_marks(&timeline, heat, &scope_now);
    let shown_marks: Vec<_> = marks
        .iter()
        .filter(|m| m.step >= win.first && m.step < win.end)
        .collect();
    let lines: Html = shown_marks
        .iter()
        .map(|m| {
            let x = (m.step - win.first) as f64;
            let y = m.range as f64;
            html! {
                {leaf!("g", list![
                    leaf!(@dyn "line", [("x1", x.to_string()), ("x2", cols.to_string()), ("y1", y.to_string()), ("y2", y.to_string()), ("class", "split-line")], html! {}),
                    leaf!("title", format!("split at {} on {}", clock(m.at_ms), m.key)),
                ])}
            }
        })
        .collect();
    let moment_x = at.saturating_sub(win.first) as f64 + 0.5;
    let in_window = at >= win.first && at < win.end;
    let summary = summary_rows(heat, *metric, win, 10);
    let step_ms = props.sim.step_ms;
    let when = moment_words(at, steps, step_ms);
    let text_rows: Html = summary
        .iter()
        .map(|(key, total, peak)| {
            html! { {leaf!("tr", list![
                leaf!("td", leaf!("code", if key.is_empty() { "(start)".to_string() } else { key.clone() })),
                leaf!("td", value_text(*metric, *total)),
                leaf!("td", clock(*peak as u64 * step_ms)),
            ])} }
        })
        .collect();
    let busiest = summary
        .first()
        .map(|(k, v, _)| {
            format!(
                "the busiest range starts at {} with {}",
                if k.is_empty() { "the table's start" } else { k },
                value_text(*metric, *v)
            )
        })
        .unwrap_or_default();
    let aria = format!(
        "Heatmap of {} over {} key ranges of {} and {} steps from {} to {}; {} splits; {busiest}. The table below lists the figures.",
        metric.label(), rows, scope_now.label(), cols, clock(win.first as u64 * step_ms), clock(win.end as u64 * step_ms), shown_marks.len()
    );
    let options: Html = Metric::ALL
        .iter()
        .map(|m| {
            crate::ui::view_kit::option(
                AttrValue::Static(m.label()),
                *m == *metric,
                crate::ui::view_kit::text(m.label()),
            )
        })
        .collect();
    let servers = props.sim.workload.cluster.region_servers;
    let server_labels: Html = (0..servers)
        .map(|s| html! { {leaf!("span", format!("rs{s}"))} })
        .collect();
    html! {
        {leaf!(@dyn "div", [("id", format!("{id}-keyvis")), ("class", "keyvis")], html! {<>
            {leaf!("div", "keyvis-controls", list![
                leaf!("label", list![crate::ui::view_kit::text("Metric "), leaf!(@on "select", [("class", "keyvis-metric")], [onchange(metric_select)], options)]),
                leaf!(@on @dyn "button", [("aria-label", "Zoom in on the moment"), ("disabled", crate::ui::view_kit::flag(win.len() <= 8, "disabled"))], [onclick(zoom(true))], "Zoom in"),
                leaf!(@on @dyn "button", [("aria-label", "Zoom out"), ("disabled", crate::ui::view_kit::flag(win.len() >= steps, "disabled"))], [onclick(zoom(false))], "Zoom out"),
                leaf!(@dyn "span", [("role", "status"), ("data-redraws", drawn_ms.map_or(0, |(_, n)| n).to_string()), ("class", "hint keyvis-timing")], drawn_ms.map(|(ms, _)| format!("redrawn in {} ms", number(ms.round()))).unwrap_or_default()),
            ])}
            {leaf!("p", "hint", format!("{} — {}; {}. Brightness: share of the largest cell in view.", metric.label(), metric.unit(), Provenance::of(*metric)))}
            {leaf!("nav", [("aria-label", "Key prefixes drilled into")], leaf!("ol", "crumbs", crumbs))}
            {leaf!("div", "keyvis-frame", html! {<>
                <canvas ref={heat_canvas} class="keyvis-heat" role="img" aria-label={aria} onclick={heat_click}></canvas>
                {leaf!(@dyn "svg", [("viewBox", format!("0 0 {cols} {rows}")), ("preserveAspectRatio", "none"), ("aria-hidden", "true"), ("class", "keyvis-overlay")], html! {<>
                    {lines}
                    if in_window { {leaf!(@dyn "line", [("x1", moment_x.to_string()), ("x2", moment_x.to_string()), ("y1", "0"), ("y2", rows.to_string()), ("class", "moment-line")], html! {})} }
                </>})}
            </>})}
            {leaf!("div", "keyvis-lanes", html! {<>
                {leaf!("div", [("aria-hidden", "true"), ("class", "lane-labels")], server_labels)}
                <canvas ref={lane_canvas} class="keyvis-lane" role="img" style={format!("height: {}px", servers.min(32) * 12)}
                    aria-label={format!("A lane per region server ({servers}): its regions' pressure over the same time")}></canvas>
            </>})}
            {leaf!("label", "keyvis-moment", html! {<>{"Moment "}
                <input type="range" min={win.first.to_string()} max={(win.end - 1).to_string()} value={at.to_string()} oninput={pick_step} aria-valuetext={when.clone()} />
                {leaf!("output", when.clone())}
            </>})}
            if !level.is_empty() {
                {leaf!("div", "keyvis-drill", list![
                    leaf!("h4", "Drill into a key prefix"),
                    leaf!("ul", "prefixes", prefix_buttons),
                ])}
            }
            {leaf!("details", "keyvis-text", list![
                leaf!("summary", format!("The figures as text: the {} busiest ranges", summary.len())),
                leaf!("table", "figures", list![leaf!("thead", leaf!("tr", list![leaf!("th", [("scope", "col")], "range starts at"), leaf!("th", [("scope", "col")], metric.label()), leaf!("th", [("scope", "col")], "peak at")])), leaf!("tbody", text_rows)]),
            ])}
            <RegionTable timeline={(*timeline).clone()} step={at} when={AttrValue::from(when)}
                marked={props.shown.filter(|(m, _)| m.step.min(steps - 1) == at).map(|(m, _)| m.region)} />
        </>})}
    }
}
