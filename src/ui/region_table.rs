//! The regions of the moment picked on the timeline, in the manner of `hbtop`: a sortable table
//! (a column heading is a button; its `aria-sort` says the order).

use yew::prelude::*;

use crate::designs::lesson::number;
use crate::keyvis::{busiest_shares, percent, rows_at, RegionColumn, RegionSort};
use crate::kit::text::count_of;
use crate::simulate::Timeline;

#[derive(Properties, PartialEq)]
pub struct RegionTableProps {
    pub timeline: super::sim_run::Shared<Timeline>,
    pub step: usize,
    /// The moment, as the page words it.
    pub when: AttrValue,
    /// A region to mark (the one a finding names, at its moment).
    #[prop_or_default]
    pub marked: Option<u32>,
}

#[component]
pub fn RegionTable(props: &RegionTableProps) -> Html {
    let sort = use_state(RegionSort::default);
    let rows = rows_at(&props.timeline, props.step, *sort);
    let head: Html = RegionColumn::ALL
        .iter()
        .map(|&c| {
            let order = if sort.column != c {
                "none"
            } else if sort.descending {
                "descending"
            } else {
                "ascending"
            };
            let onclick = {
                let sort = sort.clone();
                Callback::from(move |_| sort.set(sort.toggle(c)))
            };
            html! {
                {leaf!(@dyn "th", [("scope", "col"), ("aria-sort", order)], leaf!(@on "button", [("class", "link sort")], [onclick(onclick)], html! {<>{c.label()}{match order { "descending" => " ▼", "ascending" => " ▲", _ => "" }}</>}))}
            }
        })
        .collect();
    let rate = |v: f64| number((v * 10.0).round() / 10.0);
    let body: Html = rows
        .iter()
        .map(|r| {
            let marked = props.marked == Some(r.figures.region);
            html! {
                {leaf!(@dyn "tr", [("class", crate::ui::view_kit::flag(marked, "marked")), ("aria-current", crate::ui::view_kit::flag(marked, "true"))], list![
                    leaf!("td", r.figures.region),
                    leaf!("td", format!("rs{}", r.figures.server)),
                    leaf!("td", "key", leaf!(@dyn "code", [("title", r.start_key.clone())], if r.start_key.is_empty() { "(start)".to_string() } else { r.start_key.clone() })),
                    leaf!("td", rate(r.figures.requests_per_sec)),
                    leaf!("td", rate(r.figures.reads_per_sec)),
                    leaf!("td", rate(r.figures.filtered_reads_per_sec)),
                    leaf!("td", rate(r.figures.writes_per_sec)),
                    leaf!("td", crate::kit::text::human_bytes(r.figures.size_bytes)),
                    leaf!("td", r.figures.store_files),
                ])}
            }
        })
        .collect();
    let share = |v: Option<f64>| v.map(percent);
    let live = match busiest_shares(&rows) {
        (None, None) => "No operations at this moment.".to_string(),
        (writes, reads) => format!(
            "At this moment the busiest region takes {} of the writes and {} of the reads.",
            share(writes).unwrap_or_else(|| "none".into()),
            share(reads).unwrap_or_else(|| "none".into())
        ),
    };
    // Said when a finding's region is marked (a status, so it is read out too).
    let marked_note = props
        .marked
        .filter(|m| rows.iter().any(|r| r.figures.region == *m))
        .map(|m| {
            format!(
                "Region {m}, the one the finding names, is marked in the table: its figures at {}.",
                props.when
            )
        })
        .unwrap_or_default();
    html! {
        {leaf!("div", "sim-regions", list![
            leaf!("p", "hint live-shares", live),
            leaf!("p", [("role", "status"), ("class", "hint marked-note")], marked_note),
            leaf!("div", [("role", "region"), ("tabindex", "0"), ("aria-label", "The regions, one a row (scrolls sideways on a narrow screen)"), ("class", "table-wrap")], leaf!("table", "figures region-table", list![leaf!("caption", format!("{} at {}", count_of(rows.len() as u64, "region"), props.when)), leaf!("thead", leaf!("tr", head)), leaf!("tbody", body)])),
        ])}
    }
}
