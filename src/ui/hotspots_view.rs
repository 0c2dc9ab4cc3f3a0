//! Hotspots over time: where in the key order the selected table's writes and reads went, and
//! when (a heatmap of key range × logical time, one for writes and one for reads, splits marked
//! where they happened); the skew of the recent traffic across regions; the widest rows; and the
//! diagnosis in words above it all. The heatmaps' time axis is in seconds when their operations
//! carry wall-clock times that differ, in ticks (operations) otherwise. Computed once per data
//! version.

use std::cell::RefCell;
use std::fmt::Write as _;
use std::rc::Rc;

use yew::prelude::*;

use super::state::use_app;
use super::view_kit::{timed, use_shown, FigureExport};
use crate::diagnose::{Evidence, Finding, Recent, RECENT};
use crate::engine::{Activity, KeyEntry, OpKind, Table, KEY_BUCKETS};
use crate::kit::order;
use crate::kit::text::thousands as group;

/// Columns drawn: time buckets are merged down to this many.
const COLUMNS: usize = 128;
const CELL_W: f64 = 3.0;
const CELL_H: f64 = 3.0;
/// A cell's side in whole pixels (`CELL_W` and `CELL_H`), for the cells' path.
const CELL_PX: usize = 3;
/// Shades of a cell, from a single operation to the busiest cell's count.
const SHADES: usize = 12;

#[component]
pub fn HotspotsView() -> Html {
    let app = use_app();
    let key = use_shown(
        app.as_ref()
            .map(|a| (a.selected_table.clone(), a.data_version)),
    );
    let diagnosed = use_mut_ref(|| None::<(DiagnosisKey, Rc<Diagnosed>)>);
    let recent = use_mut_ref(Recent::new);
    use_memo(key, move |_| {
        timed("hotspots", || {
            app.map(|a| render(&a, &diagnosed, &mut recent.borrow_mut()))
                .unwrap_or_default()
        })
    })
    .as_ref()
    .clone()
}

/// What the diagnosis depends on: the table, its writes, its reads (in steps of
/// [`READS_PER_DIAGNOSIS`]: only the hot-row rule counts them), its regions and rows. A get or
/// a scan redraws the skew and the heatmaps; the words follow every write and every few reads.
type DiagnosisKey = (String, u64, u64, usize, usize);
const READS_PER_DIAGNOSIS: u64 = 50;

/// What the view keeps of a diagnosis: its findings, and the widest rows with the median
/// row's cells (the evidence itself borrows the table's activity).
struct Diagnosed {
    findings: Vec<Finding>,
    /// Writes in the rules' window.
    writes: usize,
    widest: Vec<KeyEntry>,
    median_cells: u32,
}

/// `recent` follows the shown table's activity from one diagnosis to the next (another table's
/// activity makes it count again from scratch).
fn render(
    app: &super::state::AppHandle,
    diagnosed: &RefCell<Option<(DiagnosisKey, Rc<Diagnosed>)>>,
    recent: &mut Recent,
) -> Html {
    let console = app.console.borrow();
    let engine = &console.shell.engine;
    let Some(name) = app.selected_table.clone() else {
        return html! { {leaf!("section", "view", list![
            leaf!("h3", "Hotspots"),
            leaf!("p", "hint", "Select or create a table to see where its traffic goes."),
        ])} };
    };
    let Ok(table) = engine.table(&name) else {
        return html! { {leaf!("section", "view", list![
            leaf!("h3", "Hotspots"),
            leaf!("p", [("role", "status"), ("class", "hint")], format!("Table {name} no longer exists.")),
        ])} };
    };
    let Some(activity) = engine.activity(&name) else {
        return html! { {leaf!("section", "view", list![
            leaf!("h3", format!("Hotspots of {name}")),
            leaf!("p", "hint", "Nothing has read or written this table yet."),
        ])} };
    };
    let key: DiagnosisKey = (
        name.clone(),
        activity.writes,
        activity.reads / READS_PER_DIAGNOSIS,
        table.regions.len(),
        table.keys.row_count(),
    );
    let cached = diagnosed
        .borrow()
        .as_ref()
        .filter(|(k, _)| *k == key)
        .map(|(_, d)| d.clone());
    let both = cached.unwrap_or_else(|| {
        let evidence = Evidence::following(engine, &name, recent).unwrap_or_default();
        let d = Rc::new(Diagnosed {
            findings: crate::diagnose::run(&evidence),
            writes: evidence.window.writes,
            widest: evidence.widest,
            median_cells: evidence.median_cells,
        });
        *diagnosed.borrow_mut() = Some((key, d.clone()));
        d
    });
    let findings = &both.findings;
    let now = engine.tick();
    let terms = crate::dialect::Terms::of(&table.descriptor.rules);
    let bigtable = table.descriptor.rules == crate::cbt::BIGTABLE_RULES;
    html! {
        {leaf!("section", [("aria-label", "Hotspots"), ("class", "view hotspots")], html! {<>
            {leaf!("h3", format!("Hotspots of {name}"))}
            if bigtable {
                {leaf!("p", "hint keyvis-words", format!("Key Visualizer's heatmap of a Bigtable table: operations by key range over time, {} splits marked.", terms.part))}
            }
            {diagnosis(findings, both.writes)}
            {skew(table, activity)}
            {leaf!("div", "heatmaps", list![
                heatmap(&name, activity, OpKind::Write, now),
                heatmap(&name, activity, OpKind::Read, now),
            ])}
            {leaf!("p", "legend heatmap-legend", list!(@mixed 3;
                crate::ui::view_kit::text("How to read the heatmaps: time runs left to right (a tick is one operation); the key order runs top to bottom, the first key at the top, in 64 bands; the stronger a cell, the more operations fell there. "),
                leaf!("span", "swatch split-sw", html! {}),
                @seq(format!(" a dashed line and a dot: a {} split, when it happened and at which key. A line of cells along the bottom edge is every write going to the last keys: a growing key; along the top edge, a key that only shrinks.", terms.part)),
            ))}
            {wide_rows(&both)}
        </>})}
    }
}

/// The findings, or that there are none; or, under the writes the rules need, that it is too
/// soon to say (a table of 40 sequential writes read "No hotspot" above a skew line of one
/// region taking them all).
fn diagnosis(findings: &[Finding], writes: usize) -> Html {
    if findings.is_empty() && writes < crate::diagnose::MIN_WRITES {
        return html! { {leaf!("p", [("data-rules", ""), ("class", "diagnosis")], format!(
            "Too few writes yet to judge the key design: the rules look at {} or more, and this table has had {}. The skew and the heatmaps below show what there is.",
            crate::diagnose::MIN_WRITES,
            writes
        ))} };
    }
    if findings.is_empty() {
        return html! { {leaf!("p", [("data-rules", ""), ("class", "diagnosis ok")], "No hotspot or key-design problem in the recent traffic.")} };
    }
    let rules: Vec<&str> = findings.iter().map(|f| f.rule).collect();
    html! {
        {leaf!(@dyn "ul", [("aria-label", "Diagnosis"), ("data-rules", rules.join(" ")), ("class", "diagnosis")], html! {<>
            { for findings.iter().map(|f| html! { {leaf!(@dyn "li", [("class", crate::ui::view_kit::classes(&[f.rule]))], f.text.clone())} }) }
        </>})}
    }
}

/// The busiest region's share of the recent operations, and max / mean over the regions.
fn skew(table: &Table, activity: &Activity) -> Html {
    let (counts, seen) = activity.per_region(table, None, RECENT);
    if seen == 0 {
        return html! {};
    }
    let (busiest, max) = counts
        .iter()
        .enumerate()
        .max_by_key(|(_, c)| **c)
        .map(|(i, c)| (i, *c))
        .unwrap_or((0, 0));
    let total: u64 = counts.iter().sum();
    let mean = total as f64 / counts.len().max(1) as f64;
    let ratio = if mean > 0.0 { max as f64 / mean } else { 0.0 };
    let share = max as f64 / seen as f64;
    let terms = crate::dialect::Terms::of(&table.descriptor.rules);
    html! {
        {leaf!(@dyn "p", [("data-share", format!("{share:.3}")), ("data-ratio", format!("{ratio:.2}")), ("data-busiest", busiest.to_string()), ("class", "skew")], format!(
                "Skew over the last {} operations: {} {} of {} took {:.0} % of them; busiest / mean = {:.1}{}",
                group(seen),
                terms.part,
                busiest + 1,
                counts.len(),
                share * 100.0,
                ratio,
                if counts.len() > 1 && ratio < 1.5 { " (even)".to_string() } else if counts.len() > 1 { String::new() } else { format!(" (one {}: nothing to compare)", terms.part) }
            ))}
    }
}

fn heatmap(table: &str, activity: &Activity, kind: OpKind, now: u64) -> Html {
    let grid = &activity.grid;
    let used = grid.used(now).max(1);
    let per_col = used.div_ceil(COLUMNS).max(1);
    let cols = used.div_ceil(per_col);
    let mut counts = vec![0u64; cols * KEY_BUCKETS];
    for t in 0..used {
        for k in 0..KEY_BUCKETS {
            if let Some(c) = counts.get_mut(t / per_col * KEY_BUCKETS + k) {
                *c += u64::from(grid.at(kind, t, k));
            }
        }
    }
    let total: u64 = counts.iter().sum();
    let last_bucket: u64 = (0..cols)
        .map(|c| {
            counts
                .get(c * KEY_BUCKETS + KEY_BUCKETS - 1)
                .copied()
                .unwrap_or(0)
        })
        .sum();
    let (w, h) = (cols as f64 * CELL_W, KEY_BUCKETS as f64 * CELL_H);
    let origin = grid.origin.unwrap_or(0);
    let ticks_per_col = grid.width * per_col as u64;
    let splits: Vec<(f64, f64)> = activity
        .splits()
        .filter(|s| s.tick >= origin)
        .map(|s| {
            let x = (s.tick - origin) as f64 / ticks_per_col as f64 * CELL_W;
            (x, s.position * h)
        })
        .collect();
    // The wall-clock time each column starts at: its first operation's (0 when it has none).
    let column_ms: Vec<u64> = (0..cols)
        .map(|c| {
            (c * per_col..((c + 1) * per_col).min(used))
                .filter_map(|t| grid.wall_ms.get(t).copied())
                .find(|w| *w > 0)
                .unwrap_or(0)
        })
        .collect();
    let axis = time_axis(&column_ms, origin, ticks_per_col);
    let seconds = match axis.seconds {
        Some(s) => format!(", {} of wall-clock time", seconds_label(s, s)),
        None => String::new(),
    };
    let label = match kind {
        OpKind::Write => "Writes",
        OpKind::Read => "Reads",
    };
    let caption = format!(
        "{label}: {} over ticks {}–{} ({} per column{seconds}); top is the first key, bottom the last",
        group(total),
        group(origin),
        group(now),
        group(ticks_per_col)
    );
    let width = w.max(60.0);
    let axis_y = h + AXIS_H - 4.0;
    let ticks: Html = axis
        .labels
        .iter()
        .map(|(col, text)| {
            let x = *col as f64 * CELL_W;
            let anchor = if x < 12.0 { "start" } else if x > width - 24.0 { "end" } else { "middle" };
            html! {
                {leaf!("g", "tick", list![
                    leaf!(@dyn "line", [("x1", format!("{x:.1}")), ("x2", format!("{x:.1}")), ("y1", h.to_string()), ("y2", (h + 3.0).to_string())], html! {}),
                    leaf!(@dyn "text", [("x", format!("{x:.1}")), ("y", axis_y.to_string()), ("text-anchor", anchor)], text.clone()),
                ])}
            }
        })
        .collect();
    let (what, view) = match kind {
        OpKind::Write => ("the write heatmap", "write-heatmap"),
        OpKind::Read => ("the read heatmap", "read-heatmap"),
    };
    html! {
        {leaf!(@dyn "figure", [("data-total", total.to_string()), ("data-last-bucket", last_bucket.to_string()), ("data-axis", if axis.seconds.is_some() { "seconds" } else { "ticks" }), ("class", if kind == OpKind::Write { "heatmap writes" } else { "heatmap reads" })], html! {<>
            {leaf!("figcaption", caption.clone())}
            {leaf!(@dyn "svg", [("width", width.to_string()), ("height", (h + AXIS_H).to_string()), ("viewBox", format!("0 0 {width} {}", h + AXIS_H)), ("role", "img"), ("aria-label", caption.clone())], html! {<>
                {leaf!(@dyn "rect", [("x", "0"), ("y", "0"), ("width", width.to_string()), ("height", h.to_string()), ("class", "bg")], html! {})}
                <HeatCells counts={counts} />
                <SplitMarks marks={splits} {width} {h} clip={format!("split-dashes-{view}")} />
                {leaf!("g", [("aria-hidden", "true"), ("class", "axis")], ticks)}
            </>})}
            <FigureExport {what} table={table.to_string()} {view} {caption} />
        </>})}
    }
}

#[derive(Properties, PartialEq)]
struct HeatCellsProps {
    /// Operations per cell, column by column, [`KEY_BUCKETS`] to a column.
    counts: Vec<u64>,
}

/// A heatmap's cells: a component of its own, drawn again only when its counts change (a read
/// leaves the write heatmap's as they were).
#[component]
fn HeatCells(props: &HeatCellsProps) -> Html {
    timed("hotspots", || heat_cells(&props.counts))
}

fn heat_cells(counts: &[u64]) -> Html {
    let max = counts.iter().copied().max().unwrap_or(0);
    let scale = (max as f64 + 1.0).ln().max(1e-9);
    // One path per shade, not one rect per cell: a map of 64 × 128 cells redrawn after every
    // operation would otherwise be thousands of elements to build and compare.
    let mut shades = vec![(String::new(), 0usize); SHADES];
    for (i, c) in counts.iter().enumerate().filter(|(_, c)| **c > 0) {
        let (col, k) = (i / KEY_BUCKETS, i % KEY_BUCKETS);
        let heat = (*c as f64 + 1.0).ln() / scale;
        let shade = ((heat * SHADES as f64).ceil() as usize).clamp(1, SHADES) - 1;
        if let Some((d, n)) = shades.get_mut(shade) {
            // Whole pixels, written as integers (as a float prints them, without its cost).
            let _ = write!(
                d,
                "M{} {}h{CELL_PX}v{CELL_PX}h-{CELL_PX}z",
                col * CELL_PX,
                k * CELL_PX
            );
            *n += 1;
        }
    }
    let drawn: usize = shades.iter().map(|(_, n)| n).sum();
    let cells: Html = shades
        .into_iter()
        .enumerate()
        .filter(|(_, (_, n))| *n > 0)
        .map(|(shade, (d, n))| {
            let opacity = 0.15 + 0.85 * (shade + 1) as f64 / SHADES as f64;
            html! { <path {d} data-cells={n.to_string()} style={format!("opacity:{opacity:.2}")} /> }
        })
        .collect();
    html! { {leaf!(@dyn "g", [("data-cells", drawn.to_string()), ("class", "cells")], cells)} }
}

#[derive(Properties, PartialEq)]
struct SplitMarksProps {
    /// Where each split is drawn: its x (time) and y (key).
    marks: Vec<(f64, f64)>,
    /// The map's width and height.
    width: f64,
    h: f64,
    /// The id of the dashes' clip, unique in the page.
    clip: AttrValue,
}

/// The splits on a heatmap, a dashed line down the map and a dot at the split key each:
/// drawn again only when they move (a split, the time axis rescaled), not after every
/// operation. A table that split thousands of times has thousands of them, and the browser
/// paints a heatmap again after every operation (its cells change): dashing thousands of lines
/// again then took it 10 to 80 ms a tile. So the lines are drawn as the stretches of the map
/// they cover (lines that overlap merged into one, at most one stretch per half pixel of the
/// map's width), cut into dashes by one clip of stripes; and a dot drawn where another is is
/// drawn once.
#[component]
fn SplitMarks(props: &SplitMarksProps) -> Html {
    timed("hotspots", || {
        split_marks(&props.marks, props.width, props.h, &props.clip)
    })
}

/// A split line's width, and its dashes' length and gap (a line is `M x 0 V h` stroked that
/// wide with a dash array of `DASH DASH`, drawn here as the shape that stroke covers).
const SPLIT_LINE_W: f64 = 0.5;
const DASH: f64 = 2.0;

fn split_marks(marks: &[(f64, f64)], width: f64, h: f64, clip: &str) -> Html {
    if marks.is_empty() {
        return html! {};
    }
    // Positions to a tenth of a pixel, as the marks were always written; the lines' edges,
    // a quarter pixel either side, in twentieths.
    let tenths = |v: f64| (v * 10.0).round() as i64;
    // The marks come in the order the splits happened, so their x never decreases.
    let xs: Vec<i64> = marks.iter().map(|(x, _)| 2 * tenths(*x)).collect();
    let mut lines = String::new();
    for (from, to) in covered(&xs, (SPLIT_LINE_W * 20.0 / 2.0) as i64) {
        let (a, b) = (from as f64 / 20.0, to as f64 / 20.0);
        let _ = write!(lines, "M{a} 0H{b}V{h}H{a}z");
    }
    let mut stripes = String::new();
    let mut y = 0.0;
    while y < h {
        let _ = write!(stripes, "M0 {y}H{width}V{}H0z", (y + DASH).min(h));
        y += 2.0 * DASH;
    }
    let mut dots: Vec<(i64, i64)> = marks
        .iter()
        .map(|(x, y)| (tenths(*x), tenths(*y)))
        .collect();
    order::sort(&mut dots);
    dots.dedup();
    let mut dot_path = String::new();
    for (x, y) in dots {
        let _ = write!(
            dot_path,
            "M{} {}a2 2 0 1 0 4 0a2 2 0 1 0 -4 0z",
            (x - 20) as f64 / 10.0,
            y as f64 / 10.0
        );
    }
    html! {
        {leaf!(@dyn "g", [("data-splits", marks.len().to_string()), ("class", "splitmark")], list![
            leaf!(@dyn "clipPath", [("id", clip.to_string())], leaf!(@dyn "path", [("d", stripes)], html! {})),
            leaf!(@dyn "path", [("d", lines), ("clip-path", format!("url(#{clip})")), ("class", "split-line")], html! {}),
            leaf!(@dyn "path", [("d", dot_path), ("class", "split-dot")], html! {}),
        ])}
    }
}

/// The stretches that lines at `xs` (in order), each `half` either side of its x, cover: lines
/// that overlap or touch make one stretch.
fn covered(xs: &[i64], half: i64) -> Vec<(i64, i64)> {
    let mut out: Vec<(i64, i64)> = Vec::new();
    for x in xs {
        let (from, to) = (x - half, x + half);
        match out.last_mut() {
            Some(last) if from <= last.1 => last.1 = last.1.max(to),
            _ => out.push((from, to)),
        }
    }
    out
}

/// Height of the time axis under a heatmap.
const AXIS_H: f64 = 14.0;
/// Most labels on the time axis.
const AXIS_LABELS: usize = 5;

/// The labels of a heatmap's time axis, by column.
struct TimeAxis {
    /// `(column, label)`, left to right.
    labels: Vec<(usize, String)>,
    /// The seconds from the first column to the last that has operations, when the columns
    /// carry wall-clock time that moved; then the labels are seconds since the first column.
    seconds: Option<f64>,
}

/// Seconds since the first operation where the columns carry wall-clock times that differ;
/// else (every operation in one millisecond, or a history kept without wall-clock times) the
/// ticks (operations) each labelled column starts at.
fn time_axis(column_ms: &[u64], origin: u64, ticks_per_col: u64) -> TimeAxis {
    let cols = column_ms.len();
    // As many labels as the axis has room for, a label (`0.02 s`, `12,000`) about 44 px wide:
    // a heatmap of a few columns drew five of them over one another.
    let room = ((cols as f64 * CELL_W) / 44.0) as usize;
    let step = cols.div_ceil(room.clamp(1, AXIS_LABELS)).max(1);
    let first = column_ms.first().copied().filter(|w| *w > 0);
    let last = column_ms.iter().rev().copied().find(|w| *w > 0);
    match (first, last) {
        (Some(a), Some(b)) if b > a => {
            let span = (b - a) as f64 / 1000.0;
            // Each label stands at a column that has a time, near an even step, and the last
            // column that has one is labelled too; a label that says what the one before it
            // says (operations run in a burst) is left out.
            let timed = |c: &usize| column_ms.get(*c).is_some_and(|w| *w > 0);
            let end = (0..cols).rev().find(timed).unwrap_or(0);
            let mut at: Vec<usize> = (0..cols)
                .step_by(step)
                .filter_map(|target| (target..(target + step).min(cols)).find(timed))
                .filter(|c| *c + step / 2 < end)
                .collect();
            // The last column's label, where it has room after the one before it.
            if at.last().is_none_or(|c| (end - c) as f64 * CELL_W >= 44.0) {
                at.push(end);
            }
            let mut labels: Vec<(usize, String)> = Vec::new();
            for col in at {
                let ms = column_ms.get(col).copied().unwrap_or(a);
                let text = seconds_label(ms.saturating_sub(a) as f64 / 1000.0, span);
                if labels.last().is_none_or(|(_, last)| *last != text) {
                    labels.push((col, text));
                }
            }
            TimeAxis {
                labels,
                seconds: Some(span),
            }
        }
        _ => TimeAxis {
            labels: (0..cols)
                .step_by(step)
                .map(|c| {
                    let tick = group(origin + c as u64 * ticks_per_col);
                    (c, if c == 0 { format!("tick {tick}") } else { tick })
                })
                .collect(),
            seconds: None,
        },
    }
}

/// Seconds as a person reads them, to a precision that suits `span` (the axis's whole length):
/// `0.25 s` within a second, `1.5 s` within ten, `42 s` within two minutes, `3.5 min` beyond.
fn seconds_label(s: f64, span: f64) -> String {
    let text = if span < 1.0 {
        format!("{s:.2} s")
    } else if span < 10.0 {
        format!("{s:.1} s")
    } else if span < 120.0 {
        format!("{s:.0} s")
    } else {
        format!("{:.1} min", s / 60.0)
    };
    // Whatever rounds to nothing is the start.
    if text.trim_start_matches(['0', '.']).starts_with(' ') {
        "0 s".into()
    } else {
        text
    }
}

fn wide_rows(e: &Diagnosed) -> Html {
    let median = e.median_cells.max(1);
    let large: Vec<_> = e
        .widest
        .iter()
        .filter(|r| r.cells >= median.saturating_mul(10) && r.cells >= 100)
        .collect();
    if large.is_empty() {
        return html! {};
    }
    html! {
        {leaf!("div", "large-rows", html! {<>
            {leaf!("strong", "Large rows: ")}
            { for large.iter().map(|r| html! { {leaf!("span", "chip", format!("{} — {} cells, {}", crate::bytes::to_printable(&r.key), group(u64::from(r.cells)), crate::kit::text::human_bytes(r.bytes)))} }) }
            {leaf!("span", "hint", format!(" (the median row holds {})", group(u64::from(e.median_cells))))}
        </>})}
    }
}
