//! The whole keyspace of a table in one strip: region bands with their split keys, the last
//! read's `[start, stop)` bracket (an arrow shows a reversed scan's direction), the rows
//! written lately, and the rows the list shows. Clicking a place jumps the list there.

use std::rc::Rc;

use yew::prelude::*;

use super::prefs::KeyDisplay;
use crate::diagnose::group;
use crate::engine::{Activity, OpKind, Table};

/// Pixel height of the strip.
const HEIGHT: f64 = 440.0;
const WIDTH: f64 = 64.0;
/// Writes whose rows are marked.
const WRITES_MARKED: usize = 32;

/// The last read, placed in the key order.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadMark {
    /// Offsets `[lo, hi)` of the rows in the read's range.
    pub lo: usize,
    pub hi: usize,
    pub reversed: bool,
    pub get: bool,
    pub summary: String,
}

/// What the keyspace view and its minimap draw, computed once per data version.
#[derive(Clone, Debug, PartialEq)]
pub struct MinimapData {
    pub rows: usize,
    /// Per region: the offset of its first row, its start key.
    pub regions: Vec<(usize, Vec<u8>)>,
    /// The offsets of the regions' first rows, sorted.
    pub region_starts: Vec<usize>,
    pub read: Option<ReadMark>,
    /// Offsets of the rows the last writes touched, sorted.
    pub written: Vec<usize>,
}

impl MinimapData {
    pub fn of(t: &Table, activity: Option<&Activity>) -> MinimapData {
        let rows = t.keys.row_count();
        let regions: Vec<(usize, Vec<u8>)> = t
            .regions
            .iter()
            .map(|r| (t.keys.row_position(&r.start).index, r.start.clone()))
            .collect();
        let region_starts = regions.iter().skip(1).map(|r| r.0).collect();
        let read = activity.and_then(|a| a.last_read()).map(|r| {
            let (lo, hi) = r.key_range();
            let range = t.keys.range(&lo, &hi);
            let s = &r.stats;
            let what = if r.get {
                "The last get".to_string()
            } else if r.reversed {
                "The last scan (reversed)".to_string()
            } else {
                "The last scan".to_string()
            };
            let summary = format!(
                "{what} covered rows {} to {} of {}: it examined {} rows and returned {} ({} cells) from {} region{}.",
                group(range.start as u64 + 1),
                group(range.end as u64),
                group(rows as u64),
                group(s.rows_examined),
                group(s.rows_returned),
                group(s.cells_returned),
                s.regions.len(),
                if s.regions.len() == 1 { "" } else { "s" }
            );
            ReadMark {
                lo: range.start,
                hi: range.end,
                reversed: r.reversed,
                get: r.get,
                summary,
            }
        });
        let mut written: Vec<usize> = activity
            .map(|a| {
                a.last(OpKind::Write, WRITES_MARKED)
                    .map(|o| t.keys.row_position(&o.start).index)
                    .collect()
            })
            .unwrap_or_default();
        written.sort_unstable();
        written.dedup();
        MinimapData {
            rows,
            regions,
            region_starts,
            read,
            written,
        }
    }

    /// Whether the row at `offset` lies in the last read's range.
    pub fn in_read(&self, offset: usize) -> bool {
        self.read
            .as_ref()
            .is_some_and(|r| offset >= r.lo && offset < r.hi)
    }

    /// The y of an offset on the strip.
    fn y(&self, offset: usize) -> f64 {
        if self.rows == 0 {
            0.0
        } else {
            offset as f64 / self.rows as f64 * HEIGHT
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct MinimapProps {
    pub data: Rc<MinimapData>,
    pub first: usize,
    pub shown: usize,
    pub keys: KeyDisplay,
    pub on_pick: Callback<usize>,
}

#[component]
pub fn Minimap(props: &MinimapProps) -> Html {
    let d = &props.data;
    let bands: Html = d
        .regions
        .iter()
        .enumerate()
        .map(|(i, (start, key))| {
            let end = d.regions.get(i + 1).map(|r| r.0).unwrap_or(d.rows);
            let (y0, y1) = (d.y(*start), d.y(end));
            let label = if key.is_empty() { "−∞".to_string() } else { super::show_key(key, props.keys) };
            html! {
                <g>
                    <rect class={if i % 2 == 0 { "band" } else { "band alt" }} x="0" y={format!("{y0:.1}")} width="22" height={format!("{:.1}", (y1 - y0).max(0.5))}>
                        <title>{format!("Region {} starts at {label}: rows {} to {}", i + 1, group(*start as u64 + 1), group(end as u64))}</title>
                    </rect>
                    if i > 0 { <line class="split" x1="0" x2={WIDTH.to_string()} y1={format!("{y0:.1}")} y2={format!("{y0:.1}")} /> }
                </g>
            }
        })
        .collect();
    let written: Html = d
        .written
        .iter()
        .map(|o| {
            let y = d.y(*o);
            html! { <rect class="wmark" x="24" y={format!("{:.1}", y - 1.0)} width="10" height="2" /> }
        })
        .collect();
    let read = d.read.as_ref().map(|r| {
        let (y0, y1) = (d.y(r.lo), d.y(r.hi).max(d.y(r.lo) + 2.0));
        let mid = (y0 + y1) / 2.0;
        // The arrow points the way the read went: down in key order, up when reversed.
        let arrow = if r.reversed {
            format!("M52,{:.1} l-4,6 h8 z", y0)
        } else {
            format!("M52,{:.1} l-4,-6 h8 z", y1)
        };
        html! {
            <g class={classes!("bracket", r.reversed.then_some("reversed"))}>
                <path d={format!("M44,{y0:.1} h-6 V{y1:.1} h6")} />
                <line x1="52" x2="52" y1={format!("{y0:.1}")} y2={format!("{y1:.1}")} />
                <path class="arrow" d={arrow} />
                <title>{r.summary.clone()}</title>
                <circle cx="38" cy={format!("{mid:.1}")} r="0" />
            </g>
        }
    });
    let (v0, v1) = (
        d.y(props.first),
        d.y(props.first + props.shown).max(d.y(props.first) + 3.0),
    );
    let onclick = {
        let on_pick = props.on_pick.clone();
        let rows = d.rows;
        Callback::from(move |e: MouseEvent| {
            let y = f64::from(e.offset_y());
            on_pick.emit(((y / HEIGHT) * rows as f64) as usize);
        })
    };
    let (read_lo, read_hi, reversed) = d
        .read
        .as_ref()
        .map(|r| (r.lo.to_string(), r.hi.to_string(), r.reversed.to_string()))
        .unwrap_or_default();
    html! {
        <svg class="minimap" width={WIDTH.to_string()} height={HEIGHT.to_string()} viewBox={format!("0 0 {WIDTH} {HEIGHT}")}
            role="img" aria-label={format!("Keyspace map: {} regions over {} rows{}", d.regions.len(), group(d.rows as u64), d.read.as_ref().map(|r| format!("; {}", r.summary)).unwrap_or_default())}
            data-regions={d.regions.len().to_string()} data-read-lo={read_lo} data-read-hi={read_hi} data-read-reversed={reversed}
            data-written={d.written.len().to_string()} {onclick}>
            {bands}
            {written}
            {read}
            <rect class="viewport" x="1" y={format!("{v0:.1}")} width={(WIDTH - 2.0).to_string()} height={format!("{:.1}", v1 - v0)} />
        </svg>
    }
}
