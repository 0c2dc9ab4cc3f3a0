//! The version stack of a row (the selected one, else the last get's): every stored cell of
//! every column over time, puts and delete markers, what each marker masks, versions waiting
//! for a compaction, expired cells, where each cell lives; and the same stack as it was
//! before the last flush or major compaction. Fates come from the engine's own resolution.

use crate::kit::sorted::SortedMap;

use yew::prelude::*;

use super::state::use_app;
use super::view_kit::{dropped_notice, timed, use_shown, FigureExport};
use crate::bytes::to_printable;
use crate::engine::{CellKind, Fate, Part, RowStack, StackCell};
use crate::kit::order;
use crate::kit::text::clipped;

/// Most cells drawn and listed for one row.
const CELLS_SHOWN: usize = 200;

#[component]
pub fn VersionsView() -> Html {
    let app = use_app();
    let last_shown = use_mut_ref(|| None::<String>);
    let target = app.as_ref().and_then(|a| row_of(a));
    {
        // Keep the row's stack from before each flush and major compaction from now on.
        let app = app.clone();
        use_effect_with(target.clone(), move |target| {
            if let (Some(a), Some((t, r))) = (app, target) {
                if let Ok(mut console) = a.console.try_borrow_mut() {
                    console.shell.engine.watch_row(t, r);
                }
            }
        });
    }
    let key = app.as_ref().map(|a| {
        (
            a.selected_table.clone(),
            target.clone(),
            a.data_version,
            a.prefs.keys,
        )
    });
    let key = use_shown(key);
    use_memo(key, move |_| {
        timed("stacks", || {
            app.map(|a| render(&a, target, &last_shown))
                .unwrap_or_default()
        })
    })
    .as_ref()
    .clone()
}

/// The row on show: the selected row, else the row of the last read of one row (a get).
fn row_of(app: &super::state::AppHandle) -> Option<(String, Vec<u8>)> {
    let table = app.selected_table.clone()?;
    if let Some(row) = app.selected_row.clone() {
        return Some((table, row));
    }
    let console = app.console.borrow();
    let trace = console.last_trace.as_ref().filter(|t| t.table == table)?;
    match (trace.examined.first(), trace.examined.count) {
        (Some(row), 1) => Some((table, row.to_vec())),
        _ => None,
    }
}

fn render(
    app: &super::state::AppHandle,
    target: Option<(String, Vec<u8>)>,
    last_shown: &std::rc::Rc<std::cell::RefCell<Option<String>>>,
) -> Html {
    let console = app.console.borrow();
    let engine = &console.shell.engine;
    let shown_table = app.selected_table.as_deref().filter(|t| engine.exists(t));
    let notice = dropped_notice(last_shown, shown_table, |t| engine.exists(t));
    let Some((name, row)) = target.filter(|(t, _)| engine.exists(t)) else {
        return html! {
            {leaf!("section", [("aria-label", "Version stacks"), ("class", "view stacks")], list!(@mixed 3;
                leaf!("h3", "Version stack"),
                notice,
                leaf!("p", "hint", "Click a row key or run a get to see every version and delete marker the row holds."),
            ))}
        };
    };
    let keys = app.prefs.keys;
    let now = match engine.row_stack(&name, &row) {
        Ok(s) => s,
        Err(e) => {
            return html! { {leaf!("section", "view stacks", list![
                leaf!("h3", "Version stack"),
                leaf!("p", [("role", "status"), ("class", "notice")], e.to_string()),
            ])} }
        }
    };
    let versions: SortedMap<String, u32> = engine
        .table(&name)
        .map(|t| {
            t.descriptor
                .families
                .iter()
                .map(|f| (f.name.clone(), f.max_versions))
                .collect()
        })
        .unwrap_or_default();
    let last_rewrite = engine.lsm_events(&name).and_then(|l| {
        l.iter().rev().find(|e| {
            matches!(
                e.kind,
                crate::engine::LsmEventKind::Flush | crate::engine::LsmEventKind::MajorCompaction
            )
        })
    });
    let before = engine
        .row_before(&name, &row)
        .filter(|b| last_rewrite.is_some_and(|e| e.serial >= b.serial));
    let row_text = super::show_key(&row, keys);
    // Timestamps in the table as the console prints them (local time or epoch milliseconds, by
    // the header's setting; a Bigtable table's microseconds as milliseconds, as HBase's shell
    // reads them).
    let per_ms = engine
        .table(&name)
        .map_or(1, |t| t.descriptor.rules.timestamps.per_millisecond());
    let time = &console.shell.time_format;
    let shown_ts = |ts: u64| time.timestamp(ts / per_ms);
    html! {
        {leaf!("section", [("aria-label", "Version stacks"), ("class", "view stacks")], html! {<>
            {leaf!(@dyn "h3", [("title", row_text.clone())], format!("Version stack of row {}", clipped(&row_text, KEY_SHOWN)))}
            {notice}
            {stack_figure(&now, &versions, &name, "now", &format!("Row {} of {name} now", clipped(&row_text, KEY_SHOWN)), &shown_ts)}
            if let Some(b) = before {
                {stack_figure(&b.stack, &versions, &name, "before", &format!("The same row just before the last {}", b.kind.name()), &shown_ts)}
            }
        </>})}
    }
}

/// Characters of a row key the heading shows; the whole key is its tooltip.
const KEY_SHOWN: usize = 80;

fn column_of(c: &StackCell) -> String {
    format!(
        "{}:{}",
        to_printable(&c.cell.family),
        to_printable(&c.cell.qualifier)
    )
}

fn family_of(c: &StackCell) -> String {
    String::from_utf8_lossy(&c.cell.family).into_owned()
}

/// What happens to the cell, in words.
fn fate_text(c: &StackCell, versions: &SortedMap<String, u32>) -> String {
    let ts = c.cell.timestamp;
    let fam = family_of(c);
    match c.fate {
        Fate::Visible => "a read sees it".into(),
        Fate::Marker => match c.cell.kind {
            CellKind::Delete => format!("masks {} at {ts} only", column_of(c)),
            CellKind::DeleteColumn => format!("masks every version of {} up to {ts}", column_of(c)),
            CellKind::DeleteFamily => format!("masks every column of {fam} up to {ts}"),
            CellKind::DeleteFamilyVersion => format!("masks every column of {fam} at {ts}"),
            CellKind::Put => "a read sees it".into(),
        },
        Fate::Masked { by, kept } => format!(
            "masked by the {} at {}{}",
            by.kind.name(),
            by.timestamp,
            if kept {
                "; kept by KEEP_DELETED_CELLS".to_string()
            } else {
                format!("; goes {}", rewritten(c.part))
            }
        ),
        Fate::BeyondVersions => format!(
            "beyond VERSIONS => {}: hidden, dropped {}",
            versions.get(&fam).copied().unwrap_or(1),
            rewritten(c.part)
        ),
        Fate::Expired => "expired (TTL): hidden, dropped at the next compaction".into(),
        Fate::Replaced => "replaced by a later write at the same timestamp".into(),
        Fate::MarkerPurged => "purged at major compaction".into(),
    }
}

fn fate_class(f: Fate) -> &'static str {
    match f {
        Fate::Visible => "visible",
        Fate::Marker => "marker",
        Fate::Masked { .. } => "masked",
        Fate::BeyondVersions => "beyond",
        Fate::Expired => "expired",
        Fate::Replaced => "replaced",
        Fate::MarkerPurged => "purged",
    }
}

/// When a cell a rewrite leaves out goes: a memstore's cell at its flush, a run's when a
/// compaction rewrites the run (a flush writes a new run and leaves the old ones as they are).
fn rewritten(p: Part) -> &'static str {
    match p {
        Part::Memstore => "at the next flush",
        Part::Run(_) => "when a compaction rewrites its run",
    }
}

fn place(p: Part) -> String {
    match p {
        Part::Memstore => "memstore".into(),
        Part::Run(id) => format!("run #{id}"),
    }
}

fn fmt(v: f64) -> String {
    format!("{v:.1}")
}

/// One stack drawn (lanes per column, time to the right) and listed.
fn stack_figure(
    stack: &RowStack,
    versions: &SortedMap<String, u32>,
    table: &str,
    which: &'static str,
    title: &str,
    shown_ts: &dyn Fn(u64) -> String,
) -> Html {
    let cells: Vec<&StackCell> = stack.cells.iter().take(CELLS_SHOWN).collect();
    let total = stack.cells.len();
    let count = |f: fn(&Fate) -> bool| stack.cells.iter().filter(|c| f(&c.fate)).count();
    let visible = count(|f| *f == Fate::Visible);
    let markers = count(|f| *f == Fate::Marker);
    let masked = count(|f| matches!(f, Fate::Masked { .. }));
    let waiting = count(|f| matches!(f, Fate::BeyondVersions | Fate::Expired | Fate::Replaced));
    let caption = format!(
        "{title}: {total} stored cell{}: {visible} visible, {markers} delete marker{}, {masked} masked, {waiting} beyond VERSIONS or expired.",
        if total == 1 { "" } else { "s" },
        if markers == 1 { "" } else { "s" },
    );
    if cells.is_empty() {
        return html! {
            {leaf!(@dyn "figure", [("data-stack", which), ("data-cells", "0"), ("class", "stack-figure")], leaf!("figcaption", caption))}
        };
    }
    // Lanes: one per family for its family markers (when it has any), one per column.
    let mut lanes: Vec<(String, String)> = Vec::new(); // (family, column or "")
    for c in &cells {
        let fam = family_of(c);
        let lane = if c.cell.kind == CellKind::DeleteFamily
            || c.cell.kind == CellKind::DeleteFamilyVersion
        {
            (fam, String::new())
        } else {
            (fam, column_of(c))
        };
        if !lanes.contains(&lane) {
            lanes.push(lane);
        }
    }
    order::sort(&mut lanes);
    let mut stamps: Vec<u64> = cells.iter().map(|c| c.cell.timestamp).collect();
    order::sort(&mut stamps);
    stamps.dedup();
    let left = 130.0;
    let width = 600.0;
    let step = (width - left - 20.0) / stamps.len().max(1) as f64;
    let x_of = |ts: u64| left + 10.0 + step * (stamps.partition_point(|s| *s < ts) as f64 + 0.5);
    let lane_h = 22.0;
    let y_of = |lane: &(String, String)| {
        lanes.iter().position(|l| l == lane).unwrap_or(0) as f64 * lane_h + 18.0
    };
    let family_span = |fam: &str| {
        let ys: Vec<f64> = lanes
            .iter()
            .filter(|l| l.0 == fam)
            .map(|l| y_of(l))
            .collect();
        let lo = ys.iter().copied().fold(f64::MAX, f64::min);
        let hi = ys.iter().copied().fold(f64::MIN, f64::max);
        (lo - lane_h / 2.0 + 2.0, hi + lane_h / 2.0 - 2.0)
    };
    let height = lanes.len() as f64 * lane_h + 30.0;
    let lane_labels: Html = lanes
        .iter()
        .map(|l| {
            let label = if l.1.is_empty() {
                format!("{}: (family)", l.0)
            } else {
                l.1.clone()
            };
            html! { {leaf!(@dyn "text", [("x", "0"), ("y", fmt(y_of(l) + 4.0)), ("class", "lane")], label)} }
        })
        .collect();
    let marks: Html = cells
        .iter()
        .map(|c| {
            let fam = family_of(c);
            let ts = c.cell.timestamp;
            let x = x_of(ts);
            let label = format!(
                "{} {} at {ts} in {}: {}",
                column_of(c),
                c.cell.kind.name(),
                place(c.part),
                fate_text(c, versions)
            );
            let shape = match c.cell.kind {
                CellKind::Put => {
                    let y = y_of(&(fam, column_of(c)));
                    html! { {leaf!(@dyn "circle", [("cx", fmt(x)), ("cy", fmt(y)), ("r", "6")], html! {})} }
                }
                CellKind::Delete => {
                    let y = y_of(&(fam, column_of(c)));
                    html! { {leaf!(@dyn "path", [("d", format!("M{} {} l10 10 m0 -10 l-10 10", fmt(x - 5.0), fmt(y - 5.0)))], html! {})} }
                }
                CellKind::DeleteColumn => {
                    let y = y_of(&(fam, column_of(c)));
                    list![
                        leaf!(@dyn "rect", [("x", fmt(left)), ("y", fmt(y - 8.0)), ("width", fmt((x - left).max(2.0))), ("height", "16"), ("rx", "3"), ("class", "span")], html! {}),
                        leaf!(@dyn "path", [("d", format!("M{} {} l10 10 m0 -10 l-10 10", fmt(x - 5.0), fmt(y - 5.0)))], html! {}),
                    ]
                }
                CellKind::DeleteFamily => {
                    let (lo, hi) = family_span(&fam);
                    html! { {leaf!(@dyn "rect", [("x", fmt(left)), ("y", fmt(lo)), ("width", fmt((x - left).max(2.0))), ("height", fmt(hi - lo)), ("rx", "3"), ("class", "span")], html! {})} }
                }
                CellKind::DeleteFamilyVersion => {
                    let (lo, hi) = family_span(&fam);
                    html! { {leaf!(@dyn "rect", [("x", fmt(x - 4.0)), ("y", fmt(lo)), ("width", "8"), ("height", fmt(hi - lo)), ("rx", "3"), ("class", "span")], html! {})} }
                }
            };
            html! {
                {leaf!(@dyn "g", [("data-column", column_of(c)), ("data-ts", ts.to_string()), ("data-kind", c.cell.kind.name()), ("data-fate", fate_class(c.fate)), ("data-part", place(c.part)), ("class", crate::ui::view_kit::classes(&["mark", fate_class(c.fate), c.cell.kind.name()]))], list![
                    leaf!("title", label),
                    shape,
                ])}
            }
        })
        .collect();
    let axis: Html = stamps
        .iter()
        .enumerate()
        .filter(|(i, _)| stamps.len() <= 8 || i % (stamps.len() / 8 + 1) == 0)
        .map(|(_, ts)| html! { {leaf!(@dyn "text", [("x", fmt(x_of(*ts))), ("y", fmt(height - 4.0)), ("text-anchor", "middle"), ("class", "tick")], ts % 100_000)} })
        .collect();
    let rows: Html = cells
        .iter()
        .map(|c| {
            let value = if c.cell.kind.is_delete() {
                c.cell.kind.name().to_string()
            } else {
                clipped(&to_printable(&c.cell.value), 40)
            };
            html! {
                {leaf!(@dyn "tr", [("data-column", column_of(c)), ("data-ts", c.cell.timestamp.to_string()), ("data-kind", c.cell.kind.name()), ("data-fate", fate_class(c.fate)), ("data-part", place(c.part)), ("class", crate::ui::view_kit::classes(&[fate_class(c.fate)]))], list![
                    leaf!("td", column_of(c)),
                    leaf!(@dyn "td", [("title", c.cell.timestamp.to_string()), ("class", "ts")], shown_ts(c.cell.timestamp)),
                    leaf!(@dyn "td", [("class", if c.cell.kind.is_delete() { "val kind" } else { "val" })], value),
                    leaf!("td", "place", place(c.part)),
                    leaf!("td", "state", fate_text(c, versions)),
                ])}
            }
        })
        .collect();
    html! {
        {leaf!(@dyn "figure", [("data-stack", which), ("data-cells", total.to_string()), ("data-visible", visible.to_string()), ("data-markers", markers.to_string()), ("data-masked", masked.to_string()), ("class", "stack-figure")], html! {<>
            {leaf!(@dyn "svg", [("viewBox", format!("0 0 {width} {}", fmt(height))), ("width", "100%"), ("role", "img"), ("aria-label", caption.clone())], list!(@mixed 4;
                lane_labels,
                leaf!(@dyn "line", [("x1", fmt(left)), ("x2", fmt(width - 10.0)), ("y1", fmt(height - 16.0)), ("y2", fmt(height - 16.0)), ("class", "axis")], html! {}),
                marks,
                axis,
            ))}
            <FigureExport what={if which == "now" { "the version stack" } else { "the version stack before the last rewrite" }}
                table={table.to_string()} view={format!("versions-{which}")} caption={caption.clone()} />
            {leaf!("figcaption", html! {<>{caption}{" Time runs to the right (the last five digits of each timestamp); a bar is what a marker masks."}
                if total > CELLS_SHOWN { {format!(" The first {CELLS_SHOWN} cells are shown.")} }
            </>})}
            {leaf!(@dyn "table", [("tabindex", "0"), ("aria-label", format!("{title}: every stored cell")), ("class", "versions")], list![
                leaf!("thead", leaf!("tr", list![leaf!("th", "column"), leaf!("th", "timestamp"), leaf!("th", "value"), leaf!("th", "where"), leaf!("th", "fate")])),
                leaf!("tbody", rows),
            ])}
        </>})}
    }
}
