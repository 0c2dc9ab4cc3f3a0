//! The whole keyspace of a table in one strip: region bands with their split keys, the last
//! read's `[start, stop)` bracket (an arrow shows a reversed scan's direction) and, beside it,
//! where the rows it scanned lie, those it returned apart from those it filtered; the rows
//! written lately, and the rows the list shows. Clicking a place jumps the list there.

use std::rc::Rc;

use yew::prelude::*;

use super::prefs::KeyDisplay;
use super::view_kit::timed;
use crate::engine::{Activity, OpKind, Table};
use crate::kit::order;
use crate::kit::text::count_of;
use crate::kit::text::thousands as group;
use crate::shell::ReadTrace;

/// Pixel height of the strip.
const HEIGHT: f64 = 440.0;
const WIDTH: f64 = 76.0;
/// The least height of a region band on the strip: smaller regions are drawn together.
const MIN_BAND_PX: f64 = 1.0;
/// Where the columns of the last read's returned and filtered rows stand, and their width.
const RETURNED_X: f64 = 60.0;
const FILTERED_X: f64 = 68.0;
const ROWS_W: f64 = 6.0;
/// Writes whose rows are marked.
const WRITES_MARKED: usize = 32;

/// The pixels of the strip the trace's scanned rows fall on, in runs: the rows it returned, and
/// the stretch it read from its first examined row to its last (the rows there that it did not
/// return, the engine counted as filtered), drawn when it dropped any.
fn placed(t: &Table, trace: &ReadTrace) -> (Vec<Run>, Vec<Run>) {
    let rows = t.keys.row_count().max(1);
    let pixels = HEIGHT as usize;
    let pixel = |key: &[u8]| (t.keys.row_position(key).index * pixels / rows).min(pixels - 1);
    let keys = &trace.returned;
    let n = keys.len();
    // More keys than pixels in key order (a long scan or a `count`): a search a pixel.
    let pairs = || keys.iter().zip(keys.iter().skip(1));
    let ascending = n > pixels && pairs().all(|(a, b)| a < b);
    let descending = n > pixels && !ascending && pairs().all(|(a, b)| a > b);
    let returned = if ascending || descending {
        t.keys.pixels_holding(pixels, n, |j| {
            keys.get(if ascending { j } else { n - 1 - j })
                .unwrap_or_default()
        })
    } else {
        let mut marks = vec![false; pixels];
        for key in keys.iter() {
            if let Some(p) = marks.get_mut(pixel(key)) {
                *p = true;
            }
        }
        marks
    };
    let mut filtered = vec![false; pixels];
    let examined = &trace.examined;
    if examined.count > trace.returned.len() as u64 {
        if let (Some(first), Some(last)) = (examined.first(), examined.last()) {
            let (a, b) = (pixel(first), pixel(last));
            for p in filtered.iter_mut().take(a.max(b) + 1).skip(a.min(b)) {
                *p = true;
            }
        }
    }
    (runs(&returned), runs(&filtered))
}

/// Pixels `[start, end)` of the strip.
type Run = (usize, usize);

/// The runs of `true` in `marks`.
fn runs(marks: &[bool]) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    for (i, on) in marks.iter().enumerate() {
        if !on {
            continue;
        }
        match out.last_mut() {
            Some(run) if run.1 == i => run.1 = i + 1,
            _ => out.push((i, i + 1)),
        }
    }
    out
}

/// The last read, placed in the key order.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadMark {
    /// Offsets `[lo, hi)` of the rows in the read's range.
    pub lo: usize,
    pub hi: usize,
    pub reversed: bool,
    pub get: bool,
    /// The engine's counts: `ROWS_SCANNED`, the rows returned, `ROWS_FILTERED`.
    pub scanned: u64,
    pub returned: u64,
    pub filtered: u64,
    /// Where on the strip the scanned rows lie, as runs of pixels `[y0, y1)`: those returned
    /// and those filtered. Empty when the read's row keys are not at hand (after a reload, or
    /// when the console's last read was on another table).
    pub returned_at: Vec<Run>,
    pub filtered_at: Vec<Run>,
    /// Offsets `[from, to)` of the rows the read walked, first examined to last: less than
    /// the range when it stopped early (a `LIMIT`, a filter that ended the scan).
    pub walked: Option<(usize, usize)>,
    pub summary: String,
    /// The engine's tick of the read: a new read has a new one.
    pub tick: u64,
}

/// Where each region of a table starts in the row order: the offset of its first row and its
/// start key. Kept from one data version to the next ([`RegionStarts::of`]): placing fifteen
/// thousand regions in the key index took about 30 ms, at every command.
#[derive(Debug, PartialEq)]
pub struct RegionStarts {
    /// The regions' ids: a split gives both halves new ones, so the same ids in the same
    /// order are the same bounds.
    ids: Rc<[u64]>,
    /// The key index's version the offsets are placed at.
    version: u64,
    /// Per region, in key order.
    pub offsets: Vec<usize>,
    pub keys: Rc<[Vec<u8>]>,
}

impl RegionStarts {
    /// The starts of `t`'s regions. With `last`, the starts as an earlier data version had
    /// them: the same when no region split and no row came or went; moved by the rows that
    /// came and went (the key index remembers the last of them) when no region split;
    /// otherwise every region placed anew.
    pub fn of(t: &Table, last: Option<&Rc<RegionStarts>>) -> Rc<RegionStarts> {
        let version = t.keys.version();
        let same_regions = last.filter(|l| {
            l.ids.len() == t.regions.len()
                && l.ids.iter().zip(&t.regions).all(|(id, r)| *id == r.id)
        });
        if let Some(l) = same_regions {
            if l.version == version {
                return l.clone();
            }
            if t.keys.changes_since(l.version).is_some() {
                let mut offsets = l.offsets.clone();
                t.keys.follow(l.version, &l.keys, &mut offsets);
                return Rc::new(RegionStarts {
                    ids: l.ids.clone(),
                    version,
                    offsets,
                    keys: l.keys.clone(),
                });
            }
        }
        let keys: Rc<[Vec<u8>]> = t.regions.iter().map(|r| r.start.clone()).collect();
        let mut offsets = Vec::new();
        t.keys.follow(version, &keys, &mut offsets);
        Rc::new(RegionStarts {
            ids: t.regions.iter().map(|r| r.id).collect(),
            version,
            offsets,
            keys,
        })
    }

    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    /// Whether the row at `offset` is the first of a region other than the first.
    pub fn starts_at(&self, offset: usize) -> bool {
        self.offsets
            .get(1..)
            .is_some_and(|o| o.binary_search(&offset).is_ok())
    }
}

/// What the keyspace view and its minimap draw, computed once per data version.
#[derive(Clone, Debug, PartialEq)]
pub struct MinimapData {
    pub rows: usize,
    /// Where each region starts.
    pub regions: Rc<RegionStarts>,
    pub read: Option<ReadMark>,
    /// Offsets of the rows the last writes touched, sorted.
    pub written: Vec<usize>,
}

impl MinimapData {
    /// `trace` is the console's last read, whatever its table: its row keys place the rows
    /// scanned when it is this table's last read.
    pub fn of(t: &Table, activity: Option<&Activity>, trace: Option<&ReadTrace>) -> MinimapData {
        MinimapData::with_starts(t, RegionStarts::of(t, None), activity, trace)
    }

    /// [`MinimapData::of`] with the regions' starts already placed ([`RegionStarts::of`]).
    pub fn with_starts(
        t: &Table,
        regions: Rc<RegionStarts>,
        activity: Option<&Activity>,
        trace: Option<&ReadTrace>,
    ) -> MinimapData {
        let rows = t.keys.row_count();
        // A table emptied since its last read (a family dropped, a truncate) shows no read:
        // the rows it covered are gone.
        let read = activity.and_then(|a| a.last_read()).filter(|_| rows > 0).map(|r| {
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
            let walked = match (&r.first_examined, &r.last_examined) {
                (Some(a), Some(b)) => {
                    let (a, b) = (t.keys.row_position(a).index, t.keys.row_position(b).index);
                    Some((a.min(b), a.max(b) + 1))
                }
                _ => None,
            };
            let stopped = walked
                .filter(|w| w.1 - w.0 < range.end.saturating_sub(range.start))
                .map(|(from, to)| {
                    format!(
                        " and read only rows {} to {}",
                        group(from as u64 + 1),
                        group(to as u64)
                    )
                })
                .unwrap_or_default();
            let covered = if range.is_empty() {
                format!("none of the {} rows", group(rows as u64))
            } else {
                format!(
                    "rows {} to {} of {}",
                    group(range.start as u64 + 1),
                    group(range.end as u64),
                    group(rows as u64)
                )
            };
            let summary = format!(
                "{what} covered {covered}{stopped}: it examined {}, returned {} ({}) and filtered {}, from {}.",
                count_of(s.rows_examined, "row"),
                group(s.rows_returned),
                count_of(s.cells_returned, "cell"),
                group(s.rows_filtered),
                count_of(s.regions.len() as u64, "region"),
            );
            let trace = trace.filter(|tr| tr.table == t.descriptor.name && tr.stats == r.stats);
            let (returned_at, filtered_at) = trace.map(|tr| placed(t, tr)).unwrap_or_default();
            ReadMark {
                lo: range.start,
                hi: range.end,
                reversed: r.reversed,
                get: r.get,
                scanned: s.rows_examined,
                returned: s.rows_returned,
                filtered: s.rows_filtered,
                returned_at,
                filtered_at,
                walked,
                summary,
                tick: r.tick,
            }
        });
        let mut written: Vec<usize> = activity
            .map(|a| {
                a.last(OpKind::Write, WRITES_MARKED)
                    .map(|o| t.keys.row_position(&o.start).index)
                    .collect()
            })
            .unwrap_or_default();
        order::sort(&mut written);
        written.dedup();
        MinimapData {
            rows,
            regions,
            read,
            written,
        }
    }

    /// Whether the last read walked the row at `offset` (its range, up to where it stopped).
    pub fn in_read(&self, offset: usize) -> bool {
        self.read.as_ref().is_some_and(|r| {
            let (lo, hi) = r.walked.unwrap_or((r.lo, r.hi));
            offset >= lo.max(r.lo) && offset < hi.min(r.hi)
        })
    }

    /// The first row the last read walked (its range's first when the walk is not known).
    pub fn read_from(&self) -> Option<usize> {
        self.read
            .as_ref()
            .map(|r| r.walked.map_or(r.lo, |(from, _)| from.max(r.lo)))
    }

    /// The y of an offset on the strip.
    fn y(&self, offset: usize) -> f64 {
        y_of(offset, self.rows)
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

/// What the strip draws of the data (writes, the last read), apart from the viewport and the
/// regions: a component of its own, so scrolling the list redraws only the viewport's
/// rectangle.
#[derive(Properties)]
struct MarksProps {
    data: Rc<MinimapData>,
}

impl PartialEq for MarksProps {
    /// The data is made once per data version, so the same data is the same pointer.
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.data, &other.data)
    }
}

/// The region bands: a component of their own, drawn again only when the regions' starts or
/// the row count change, not after every read or write of a row already there.
#[derive(Properties)]
struct BandsProps {
    regions: Rc<RegionStarts>,
    rows: usize,
    keys: KeyDisplay,
}

impl PartialEq for BandsProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.regions, &other.regions)
            && self.rows == other.rows
            && self.keys == other.keys
    }
}

/// The y of an offset on the strip of `rows` rows.
fn y_of(offset: usize, rows: usize) -> f64 {
    if rows == 0 {
        0.0
    } else {
        offset as f64 / rows as f64 * HEIGHT
    }
}

/// The regions the strip draws as one band each, as (first, last) region indexes: a region of
/// at least a pixel on its own, smaller neighbours together until they make one. Fifteen
/// thousand regions on a strip of 440 pixels drew fifteen thousand bands every command.
fn band_groups(regions: &RegionStarts, rows: usize) -> Vec<(usize, usize)> {
    let mut groups: Vec<(usize, usize)> = Vec::new();
    let mut first = 0;
    let n = regions.len();
    for i in 0..n {
        let end = regions.offsets.get(i + 1).copied().unwrap_or(rows);
        let start = regions.offsets.get(first).copied().unwrap_or(0);
        if y_of(end, rows) - y_of(start, rows) >= MIN_BAND_PX || i + 1 == n {
            groups.push((first, i));
            first = i + 1;
        }
    }
    groups
}

/// The keyspace view's clock counts the strip's drawing too.
const CLOCK: &str = "keyspace";

#[component]
fn Bands(props: &BandsProps) -> Html {
    timed(CLOCK, || bands(&props.regions, props.rows, props.keys))
}

fn bands(r: &RegionStarts, rows: usize, keys: KeyDisplay) -> Html {
    band_groups(r, rows)
        .into_iter()
        .enumerate()
        .map(|(n, (first, last))| {
            let start = r.offsets.get(first).copied().unwrap_or(0);
            let key = r.keys.get(first).map(Vec::as_slice).unwrap_or(&[]);
            let end = r.offsets.get(last + 1).copied().unwrap_or(rows);
            let (y0, y1) = (y_of(start, rows), y_of(end, rows));
            let label = if key.is_empty() { "−∞".to_string() } else { super::show_key(key, keys) };
            let rows = format!("rows {} to {}", group(start as u64 + 1), group(end as u64));
            let title = if first == last {
                format!("Region {} starts at {label}: {rows}", first + 1)
            } else {
                format!("Regions {} to {}, the first starting at {label}: {rows}", first + 1, last + 1)
            };
            html! {
                {leaf!("g", html! {<>
                    {leaf!(@dyn "rect", [("x", "0"), ("y", format!("{y0:.1}")), ("width", "22"), ("height", format!("{:.1}", (y1 - y0).max(0.5))), ("class", if n % 2 == 0 { "band" } else { "band alt" })], leaf!("title", title))}
                    if first > 0 { {leaf!(@dyn "line", [("x1", "0"), ("x2", WIDTH.to_string()), ("y1", format!("{y0:.1}")), ("y2", format!("{y0:.1}")), ("class", "split")], html! {})} }
                </>})}
            }
        })
        .collect()
}

#[component]
fn Marks(props: &MarksProps) -> Html {
    timed(CLOCK, || marks(&props.data))
}

fn marks(d: &MinimapData) -> Html {
    let written: Html = d
        .written
        .iter()
        .map(|o| {
            let y = d.y(*o);
            html! { {leaf!(@dyn "rect", [("x", "24"), ("y", format!("{:.1}", y - 1.0)), ("width", "10"), ("height", "2"), ("class", "wmark")], html! {})} }
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
        let column = |class: &'static str, x: f64, at: &[Run], what: String| -> Html {
            html! {
                {leaf!(@dyn "g", [("class", crate::ui::view_kit::classes(&[class]))], html! {<>
                    {leaf!("title", what)}
                    { for at.iter().map(|(y0, y1)| html! {
                        {leaf!(@dyn "rect", [("x", x.to_string()), ("y", y0.to_string()), ("width", ROWS_W.to_string()), ("height", (y1 - y0).max(2).to_string())], html! {})}
                    }) }
                </>})}
            }
        };
        html! {
            <>
            {column("rows-returned", RETURNED_X, &r.returned_at, format!("{} rows returned", group(r.returned)))}
            {column("rows-filtered", FILTERED_X, &r.filtered_at, format!("{} rows filtered (ROWS_FILTERED)", group(r.filtered)))}
            {leaf!(@dyn "g", [("class", if r.reversed { "bracket reversed" } else { "bracket" })], list![
                leaf!(@dyn "path", [("d", format!("M44,{y0:.1} h-6 V{y1:.1} h6"))], html! {}),
                leaf!(@dyn "line", [("x1", "52"), ("x2", "52"), ("y1", format!("{y0:.1}")), ("y2", format!("{y1:.1}"))], html! {}),
                leaf!(@dyn "path", [("d", arrow), ("class", "arrow")], html! {}),
                leaf!("title", r.summary.clone()),
                leaf!(@dyn "circle", [("cx", "38"), ("cy", format!("{mid:.1}")), ("r", "0")], html! {}),
            ])}
                </>
            }
    });
    html! { <>{written}{read}</> }
}

#[component]
pub fn Minimap(props: &MinimapProps) -> Html {
    let d = &props.data;
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
    let (scanned, returned, filtered) = d
        .read
        .as_ref()
        .map(|r| {
            (
                r.scanned.to_string(),
                r.returned.to_string(),
                r.filtered.to_string(),
            )
        })
        .unwrap_or_default();
    html! {
        {leaf!(@on @dyn "svg", [("width", WIDTH.to_string()), ("height", HEIGHT.to_string()), ("viewBox", format!("0 0 {WIDTH} {HEIGHT}")), ("role", "img"), ("aria-label", format!("Keyspace map: {} regions over {} rows{}", d.regions.len(), group(d.rows as u64), d.read.as_ref().map(|r| format!("; {}", r.summary)).unwrap_or_default())), ("data-regions", d.regions.len().to_string()), ("data-read-lo", read_lo), ("data-read-hi", read_hi), ("data-read-reversed", reversed), ("data-written", d.written.len().to_string()), ("data-rows-scanned", scanned), ("data-rows-returned", returned), ("data-rows-filtered", filtered), ("class", "minimap")], [onclick(onclick)], list![leaf!("g", "marks", html! {<>
                <Bands regions={d.regions.clone()} rows={d.rows} keys={props.keys} />
                <Marks data={d.clone()} />
            </>}), leaf!(@dyn "rect", [("x", "1"), ("y", format!("{v0:.1}")), ("width", (WIDTH - 2.0).to_string()), ("height", format!("{:.1}", v1 - v0)), ("class", "viewport")], html! {})])}
    }
}
