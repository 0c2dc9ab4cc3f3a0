//! The regions of one moment, in the manner of `hbtop`'s region mode: per region its server,
//! its key range and, over the step holding the moment, requests, reads, filtered reads and
//! writes per second, its size and its store files; sortable by any column.

use crate::bytes::to_printable;
use crate::kit::order;
use crate::simulate::{RegionStep, Timeline};

/// One line of the table: a region's figures over the step, and its keys as HBase prints them.
#[derive(Clone, Debug, PartialEq)]
pub struct RegionRow {
    pub figures: RegionStep,
    pub start_key: String,
    pub end_key: String,
}

/// A column to sort by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionColumn {
    Region,
    Server,
    StartKey,
    Requests,
    Reads,
    FilteredReads,
    Writes,
    Size,
    StoreFiles,
}

impl RegionColumn {
    /// Every column, in the table's order.
    pub const ALL: [RegionColumn; 9] = [
        RegionColumn::Region,
        RegionColumn::Server,
        RegionColumn::StartKey,
        RegionColumn::Requests,
        RegionColumn::Reads,
        RegionColumn::FilteredReads,
        RegionColumn::Writes,
        RegionColumn::Size,
        RegionColumn::StoreFiles,
    ];

    /// The heading, as `hbtop` names it where it has one.
    pub fn label(self) -> &'static str {
        match self {
            RegionColumn::Region => "region",
            RegionColumn::Server => "server",
            RegionColumn::StartKey => "start key",
            RegionColumn::Requests => "requests/s",
            RegionColumn::Reads => "reads/s",
            RegionColumn::FilteredReads => "filtered reads/s",
            RegionColumn::Writes => "writes/s",
            RegionColumn::Size => "size",
            RegionColumn::StoreFiles => "store files",
        }
    }
}

/// A sort order: a column, and whether the largest comes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegionSort {
    pub column: RegionColumn,
    pub descending: bool,
}

impl Default for RegionSort {
    /// `hbtop`'s default: the busiest first.
    fn default() -> RegionSort {
        RegionSort {
            column: RegionColumn::Requests,
            descending: true,
        }
    }
}

impl RegionSort {
    /// The order after a click on `column`: the same column flips, another starts descending
    /// (ascending for the key and the ids).
    pub fn toggle(self, column: RegionColumn) -> RegionSort {
        if column == self.column {
            RegionSort {
                column,
                descending: !self.descending,
            }
        } else {
            RegionSort {
                column,
                descending: !matches!(
                    column,
                    RegionColumn::Region | RegionColumn::Server | RegionColumn::StartKey
                ),
            }
        }
    }

    /// Sorts `rows` in place (ties by region id).
    pub fn apply(self, rows: &mut [RegionRow]) {
        order::sort_by(rows, |a, b| {
            let (x, y) = (&a.figures, &b.figures);
            let o = match self.column {
                RegionColumn::Region => x.region.cmp(&y.region),
                RegionColumn::Server => x.server.cmp(&y.server),
                RegionColumn::StartKey => a.start_key.cmp(&b.start_key),
                RegionColumn::Requests => x.requests_per_sec.total_cmp(&y.requests_per_sec),
                RegionColumn::Reads => x.reads_per_sec.total_cmp(&y.reads_per_sec),
                RegionColumn::FilteredReads => x
                    .filtered_reads_per_sec
                    .total_cmp(&y.filtered_reads_per_sec),
                RegionColumn::Writes => x.writes_per_sec.total_cmp(&y.writes_per_sec),
                RegionColumn::Size => x.size_bytes.cmp(&y.size_bytes),
                RegionColumn::StoreFiles => x.store_files.cmp(&y.store_files),
            };
            let o = if self.descending { o.reverse() } else { o };
            o.then(x.region.cmp(&y.region))
        });
    }
}

/// The busiest region's shares of a moment's writes and of its reads: its rate against the
/// regions' sum, the live figure of that moment (`None` when the moment had none of that kind).
pub fn busiest_shares(rows: &[RegionRow]) -> (Option<f64>, Option<f64>) {
    let share = |rate: fn(&RegionStep) -> f64| {
        let total: f64 = rows.iter().map(|r| rate(&r.figures)).sum();
        let busiest = rows.iter().map(|r| rate(&r.figures)).fold(0.0, f64::max);
        (total > 0.0).then(|| busiest / total)
    };
    (share(|f| f.writes_per_sec), share(|f| f.reads_per_sec))
}

/// The regions open at the end of `step`, with their figures over it, sorted by `sort`.
pub fn rows_at(timeline: &Timeline, step: usize, sort: RegionSort) -> Vec<RegionRow> {
    let Some(figures) = timeline.steps.get(step) else {
        return Vec::new();
    };
    let mut rows: Vec<RegionRow> = figures
        .iter()
        .map(|f| {
            let span = timeline.regions.get(f.region as usize);
            RegionRow {
                figures: f.clone(),
                start_key: span.map(|s| to_printable(&s.start_key)).unwrap_or_default(),
                end_key: span.map(|s| to_printable(&s.end_key)).unwrap_or_default(),
            }
        })
        .collect();
    sort.apply(&mut rows);
    rows
}
