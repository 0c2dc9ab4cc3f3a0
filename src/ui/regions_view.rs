//! The regions of the selected table as a strip: key ranges, size, memstore and runs, and how
//! hot each one ran; a Bigtable table's in Bigtable's words ([`crate::dialect::Terms`]:
//! tablets).

use yew::prelude::*;

use super::state::use_app;
use super::view_kit::use_shown;

/// How many recent operations the heat covers.

#[component]
pub fn RegionsView() -> Html {
    let app = use_app();
    let key = app
        .as_ref()
        .map(|a| (a.selected_table.clone(), a.data_version, a.prefs.keys));
    let key = use_shown(key);
    use_memo(key, move |_| app.map(|a| render(&a)).unwrap_or_default())
        .as_ref()
        .clone()
}

fn render(app: &super::state::AppHandle) -> Html {
    let console = app.console.borrow();
    let Some(table) = app
        .selected_table
        .as_ref()
        .and_then(|n| console.shell.engine.table(n).ok())
    else {
        return html! {
            <section class="view"><h3>{"Regions"}</h3><p class="hint">{"Create a table to see its regions."}</p></section>
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
    let total: u64 = activity.iter().sum();
    let max = activity.iter().copied().max().unwrap_or(0);
    let regions: Html = table
        .regions
        .iter()
        .zip(&activity)
        .map(|(r, act)| {
            // Heat compares regions with each other; a lone region has nothing to be hotter than.
            let heat = if max == 0 || table.regions.len() == 1 { 0.0 } else { *act as f64 / max as f64 };
            let share = if total == 0 { 0.0 } else { *act as f64 / total as f64 };
            let hot = table.regions.len() > 1 && share > 0.5;
            let bytes = r.bytes();
            let fill = (r.memstore_bytes() as f64 / settings.flush_bytes.max(1) as f64 * 100.0).min(100.0);
            let start = if r.start.is_empty() { "−∞".to_string() } else { super::show_key(&r.start, app.prefs.keys) };
            let end = if r.end.is_empty() { "+∞".to_string() } else { super::show_key(&r.end, app.prefs.keys) };
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
                <div class={classes!("region", hot.then_some("hot"))} {style} {title} role="listitem">
                    <div class="region-key">{start}</div>
                    <div class="region-size">{crate::kit::text::human_bytes(bytes as u64)}</div>
                    <div class="region-lsm">
                        <span class="memfill" style={format!("width:{fill:.0}%")}></span>
                    </div>
                    <div class="region-runs">{format!("{runs} run{}", if runs == 1 { "" } else { "s" })}</div>
                    if hot { <div class="hot-badge">{format!("HOT {:.0}%", share * 100.0)}</div> }
                </div>
            }
        })
        .collect();
    html! {
        <section class="view">
            <h3>{format!("{} of {} ({})", terms.parts, table.descriptor.name, table.regions.len())}</h3>
            <div class="region-strip" role="list" aria-label={terms.parts}>{regions}</div>
            if settings.split_bytes == 0 {
                // A simulation's sample keeps the regions the simulation ended with.
                <p class="legend">{format!("Width: data size. Colour: share of the last {} operations. Bar: {} filling towards a flush. No {} splits by size here.", crate::diagnose::RECENT, terms.buffer, terms.part)}</p>
            } else {
                <p class="legend">{format!("Width: data size. Colour: share of the last {} operations. Bar: {} filling towards a flush. A {} over ", crate::diagnose::RECENT, terms.buffer, terms.part)}{format!("{} KB", settings.split_bytes / 1024)}{format!(" splits at its middle key{}.", terms.split_rule)}</p>
            }
        </section>
    }
}
