//! The regions of one moment, in the manner of `hbtop`'s region mode: per region its server,
//! its key range and, over the step holding the moment, requests, reads, filtered reads and
//! writes per second, its size and its store files; sortable by any column.

use crate::bytes::to_printable;
use crate::simulate::Timeline;

/// One line of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct RegionRow {
    pub region: u32,
    pub server: u32,
    pub start_key: String,
    pub end_key: String,
    pub requests_per_sec: f64,
    pub reads_per_sec: f64,
    pub filtered_reads_per_sec: f64,
    pub writes_per_sec: f64,
    pub size_bytes: u64,
    pub store_files: u32,
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
        rows.sort_by(|a, b| {
            let o = match self.column {
                RegionColumn::Region => a.region.cmp(&b.region),
                RegionColumn::Server => a.server.cmp(&b.server),
                RegionColumn::StartKey => a.start_key.cmp(&b.start_key),
                RegionColumn::Requests => a.requests_per_sec.total_cmp(&b.requests_per_sec),
                RegionColumn::Reads => a.reads_per_sec.total_cmp(&b.reads_per_sec),
                RegionColumn::FilteredReads => a
                    .filtered_reads_per_sec
                    .total_cmp(&b.filtered_reads_per_sec),
                RegionColumn::Writes => a.writes_per_sec.total_cmp(&b.writes_per_sec),
                RegionColumn::Size => a.size_bytes.cmp(&b.size_bytes),
                RegionColumn::StoreFiles => a.store_files.cmp(&b.store_files),
            };
            let o = if self.descending { o.reverse() } else { o };
            o.then(a.region.cmp(&b.region))
        });
    }
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
                region: f.region,
                server: f.server,
                start_key: span.map(|s| to_printable(&s.start_key)).unwrap_or_default(),
                end_key: span.map(|s| to_printable(&s.end_key)).unwrap_or_default(),
                requests_per_sec: f.requests_per_sec,
                reads_per_sec: f.reads_per_sec,
                filtered_reads_per_sec: f.filtered_reads_per_sec,
                writes_per_sec: f.writes_per_sec,
                size_bytes: f.size_bytes,
                store_files: f.store_files,
            }
        })
        .collect();
    sort.apply(&mut rows);
    rows
}
