//! The heat model: key ranges × simulated time, one grid per metric, as Key Visualizer draws
//! it. The key axis is up to 1,000 fixed ranges of about equal rows (cut at the end of the
//! run from the rows the samples stand for); the time axis is the simulation's steps.
//!
//! Every grid is rebuilt from the run's samples, so a view can recount any other ranges (a
//! drill-down into a prefix) with [`Heat::build`].

use serde::Serialize;

use super::key_order::{KeyOrder, KeySort};
use super::run::Sample;
use super::timeline::Timeline;
use crate::bytes::to_printable;

/// What a grid counts. Rates are per step unless the name says per second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// Operations of every kind (estimated from weighted samples).
    Operations,
    /// Gets and scans.
    Reads,
    /// Puts and deletes.
    Writes,
    /// Rows the reads read (scanned), filtered ones included.
    RowsRead,
    /// Rows the reads returned.
    RowsReturned,
    /// Bytes written (as HBase's KeyValue encodes them).
    BytesWritten,
    /// Bytes held in the range at the step's end (every byte written so far: no compaction).
    DataSize,
    /// The highest read pressure of the regions over the range: a region's reads per second
    /// over its server's `server_reads_per_sec`.
    ReadPressure,
    /// The highest write pressure of the regions over the range: a region's writes per second
    /// over its server's `server_writes_per_sec`.
    WritePressure,
}

impl Metric {
    /// Every metric, in the order of [`Heat::grids`].
    pub const ALL: [Metric; 9] = [
        Metric::Operations,
        Metric::Reads,
        Metric::Writes,
        Metric::RowsRead,
        Metric::RowsReturned,
        Metric::BytesWritten,
        Metric::DataSize,
        Metric::ReadPressure,
        Metric::WritePressure,
    ];

    /// A label for a legend.
    pub fn label(self) -> &'static str {
        match self {
            Metric::Operations => "operations",
            Metric::Reads => "reads",
            Metric::Writes => "writes",
            Metric::RowsRead => "rows read",
            Metric::RowsReturned => "rows returned",
            Metric::BytesWritten => "bytes written",
            Metric::DataSize => "data size",
            Metric::ReadPressure => "read pressure",
            Metric::WritePressure => "write pressure",
        }
    }

    /// The unit of a cell.
    pub fn unit(self) -> &'static str {
        match self {
            Metric::Operations | Metric::Reads | Metric::Writes => "operations per step",
            Metric::RowsRead | Metric::RowsReturned => "rows per step",
            Metric::BytesWritten => "bytes per step",
            Metric::DataSize => "bytes",
            Metric::ReadPressure | Metric::WritePressure => "fraction of a server's capacity",
        }
    }
}

/// One key range of the heat map's key axis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KeyRange {
    /// First key (empty: the table's start).
    pub start: Vec<u8>,
    /// End key, exclusive (empty: the table's end).
    pub end: Vec<u8>,
    /// Rows in the range at the end (estimated from the samples).
    pub rows: f64,
}

impl KeyRange {
    /// The start key as HBase prints it (`Bytes.toStringBinary`).
    pub fn label(&self) -> String {
        to_printable(&self.start)
    }
}

/// One metric over key ranges × steps.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeatGrid {
    pub metric: Metric,
    /// `values[range * steps + step]`.
    pub values: Vec<f64>,
}

/// The heat model of one table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Heat {
    pub ranges: Vec<KeyRange>,
    /// Steps on the time axis.
    pub steps: usize,
    /// The step length (ms).
    pub step_ms: u64,
    /// One grid per metric, in [`Metric::ALL`]'s order.
    pub grids: Vec<HeatGrid>,
}

impl Heat {
    /// The grid of `metric`.
    pub fn grid(&self, metric: Metric) -> Option<&HeatGrid> {
        self.grids.iter().find(|g| g.metric == metric)
    }

    /// The value of `metric` for range `range` at step `step` (0 outside the grid).
    pub fn value(&self, metric: Metric, range: usize, step: usize) -> f64 {
        self.grid(metric)
            .and_then(|g| g.values.get(range * self.steps + step))
            .copied()
            .unwrap_or(0.0)
    }

    /// The sum of `metric` over the steps, per range (for the data size: its last value).
    pub fn totals(&self, metric: Metric) -> Vec<f64> {
        (0..self.ranges.len())
            .map(|r| {
                let mut row = (0..self.steps).map(|s| self.value(metric, r, s));
                match metric {
                    Metric::DataSize => row.next_back().unwrap_or(0.0),
                    Metric::ReadPressure | Metric::WritePressure => row.fold(0.0, f64::max),
                    _ => row.sum(),
                }
            })
            .collect()
    }

    /// Up to `count` ranges of about equal rows from the row-making samples (the rows at the
    /// end), then every metric counted over them.
    pub fn build(
        samples: &[Sample],
        keys: &[u8],
        timeline: &Timeline,
        steps: usize,
        count: usize,
    ) -> Heat {
        let ranges = equal_row_ranges(samples, keys, count);
        Heat::over(ranges, samples, keys, timeline, steps)
    }

    /// Every metric counted over the given ranges (sorted, covering the key space).
    pub fn over(
        ranges: Vec<KeyRange>,
        samples: &[Sample],
        keys: &[u8],
        timeline: &Timeline,
        steps: usize,
    ) -> Heat {
        Heat::over_only(ranges, samples, keys, timeline, steps, &Metric::ALL)
    }

    /// The grids of `metrics` only, counted over the given ranges (sorted, covering the key
    /// space): a view showing one metric pays for one grid (a grid of 1,000 ranges × 1,440
    /// steps is 11.5 MB). [`Heat::grid`] has no grid for a metric left out.
    pub fn over_only<'s>(
        ranges: Vec<KeyRange>,
        samples: impl IntoIterator<Item = &'s Sample>,
        keys: &[u8],
        timeline: &Timeline,
        steps: usize,
        metrics: &[Metric],
    ) -> Heat {
        let mut count = HeatCount::only(ranges, steps, metrics);
        count.add(samples, keys);
        count.finish(timeline)
    }
}

/// A heat model being counted: its samples can be added a part at a time (in their order, so
/// the sums are the same however they are cut), then [`HeatCount::finish`] adds the data size
/// and the pressures.
pub struct HeatCount {
    ranges: Vec<KeyRange>,
    steps: usize,
    /// The metrics asked for, in [`Metric::ALL`]'s order.
    wanted: Vec<Metric>,
    /// Per metric of [`Metric::ALL`], its grid while it is counted.
    grids: Vec<Option<Vec<f64>>>,
    rows: Vec<f64>,
    /// The parts of [`HeatCount::finish`] done: the data size, the read, the write pressure.
    finished: usize,
}

fn metric_index(m: Metric) -> usize {
    Metric::ALL.iter().position(|&x| x == m).unwrap_or(0)
}

impl HeatCount {
    /// Nothing counted yet over `ranges` × `steps`, every metric.
    pub fn new(ranges: Vec<KeyRange>, steps: usize) -> HeatCount {
        HeatCount::only(ranges, steps, &Metric::ALL)
    }

    /// Nothing counted yet over `ranges` × `steps`, for `metrics` only.
    pub fn only(ranges: Vec<KeyRange>, steps: usize, metrics: &[Metric]) -> HeatCount {
        let n = ranges.len();
        let wanted: Vec<Metric> = Metric::ALL
            .iter()
            .copied()
            .filter(|m| metrics.contains(m))
            .collect();
        // Data size sums the bytes written, so it needs their grid while it is counted.
        let counted = |m: Metric| {
            wanted.contains(&m) || (m == Metric::BytesWritten && wanted.contains(&Metric::DataSize))
        };
        // Allocated when the first samples are counted (a call of its own in a page's run).
        let grids = Metric::ALL
            .iter()
            .map(|&m| counted(m).then(Vec::new))
            .collect();
        HeatCount {
            ranges,
            steps,
            wanted,
            grids,
            rows: vec![0.0; n],
            finished: 0,
        }
    }

    /// Gives each grid counted its cells (zeros), once.
    fn allocate(&mut self) {
        let cells = self.ranges.len() * self.steps;
        for grid in self.grids.iter_mut().flatten() {
            if grid.len() != cells {
                // Zeroed by the allocator (fresh pages need no writing).
                *grid = vec![0.0; cells];
            }
        }
    }

    /// Gives the next grid counted its cells, zeros written (so its memory is the process's
    /// now, not page by page as samples are counted into it); returns whether a grid was
    /// left to allocate. A page allocates one grid a call (a grid of 1,000 ranges × 1,440
    /// steps is 11.5 MB).
    pub fn allocate_next(&mut self) -> bool {
        let cells = self.ranges.len() * self.steps;
        let Some(grid) = self.grids.iter_mut().flatten().find(|g| g.len() != cells) else {
            return false;
        };
        let mut cells = vec![0.0; cells];
        // Written, not left to the allocator's zero pages.
        std::hint::black_box(&mut cells);
        cells.fill(0.0);
        *grid = cells;
        true
    }

    /// Counts `samples` (whose keys are in `keys`).
    pub fn add<'s>(&mut self, samples: impl IntoIterator<Item = &'s Sample>, keys: &[u8]) {
        self.allocate();
        let steps = self.steps;
        let starts: Vec<&[u8]> = self.ranges.iter().map(|r| r.start.as_slice()).collect();
        let counts_samples = self.grids[..6].iter().any(Option::is_some);
        let grids = &mut self.grids;
        let rows = &mut self.rows;
        for s in samples {
            let key = s.key(keys);
            let r = range_of(&starts, key);
            if let Some(x) = rows.get_mut(r) {
                *x += s.rows_made;
            }
            if !counts_samples {
                continue;
            }
            let step = (s.step as usize).min(steps.saturating_sub(1));
            let cell = r * steps + step;
            let mut add = |m: Metric, v: f64| {
                if let Some(x) = grids[metric_index(m)]
                    .as_mut()
                    .and_then(|g| g.get_mut(cell))
                {
                    *x += v;
                }
            };
            match s.kind {
                None => {}
                Some(kind) => {
                    add(Metric::Operations, s.weight);
                    if kind.is_read() {
                        add(Metric::Reads, s.weight);
                    } else {
                        add(Metric::Writes, s.weight);
                    }
                }
            }
            add(Metric::RowsRead, s.rows_read);
            add(Metric::RowsReturned, s.rows_returned);
            add(Metric::BytesWritten, s.bytes);
        }
    }

    /// The next part of [`HeatCount::finish`]'s work, a call of its own in a page: the data
    /// size, the read pressure, then the write pressure. Returns whether a part was left.
    pub fn finish_next(&mut self, timeline: &Timeline) -> bool {
        let part = self.finished;
        if part >= 3 {
            return false;
        }
        self.finished += 1;
        self.allocate();
        let (n, steps) = (self.ranges.len(), self.steps);
        if part == 0 {
            // Data size: bytes written so far.
            let (bw, ds) = (
                metric_index(Metric::BytesWritten),
                metric_index(Metric::DataSize),
            );
            if !self.wanted.contains(&Metric::DataSize) {
                return true;
            }
            // Every cell is written: the grid allocated for the data size serves.
            let allocated = self.grids[ds].take().filter(|g| g.len() == n * steps);
            if let Some(Some(bytes)) = self.grids.get(bw) {
                let mut size = allocated.unwrap_or_else(|| vec![0.0; n * steps]);
                for r in 0..n {
                    let mut total = 0.0;
                    for step in 0..steps {
                        total += bytes[r * steps + step];
                        size[r * steps + step] = total;
                    }
                }
                self.grids[ds] = Some(size);
            }
            return true;
        }
        // Pressure: the highest of the regions over the range during the step.
        let metric = if part == 1 {
            Metric::ReadPressure
        } else {
            Metric::WritePressure
        };
        let starts: Vec<&[u8]> = self.ranges.iter().map(|r| r.start.as_slice()).collect();
        let Some(grid) = self.grids[metric_index(metric)].as_mut() else {
            return true;
        };
        for (step, regions) in timeline.steps.iter().enumerate().take(steps) {
            for figures in regions {
                let Some(span) = timeline.regions.get(figures.region as usize) else {
                    continue;
                };
                let first = range_of(&starts, &span.start_key);
                let last = if span.end_key.is_empty() {
                    n.saturating_sub(1)
                } else {
                    // The last range starting before the region's end.
                    starts
                        .partition_point(|s| *s < span.end_key.as_slice())
                        .saturating_sub(1)
                };
                let p = if part == 1 {
                    figures.read_pressure
                } else {
                    figures.write_pressure
                };
                for r in first..=last.max(first).min(n.saturating_sub(1)) {
                    if let Some(x) = grid.get_mut(r * steps + step) {
                        *x = x.max(p);
                    }
                }
            }
        }
        true
    }

    /// The heat model: the data size (bytes written so far) and each step's pressures (the
    /// highest of the regions over a range) from `timeline`.
    pub fn finish(mut self, timeline: &Timeline) -> Heat {
        while self.finish_next(timeline) {}
        let HeatCount {
            ranges,
            steps,
            wanted,
            grids,
            rows,
            ..
        } = self;
        let wanted = |m: Metric| wanted.contains(&m);
        let ranges = ranges
            .into_iter()
            .zip(rows)
            .map(|(mut range, rows)| {
                range.rows = rows;
                range
            })
            .collect();
        let grids = Metric::ALL
            .iter()
            .zip(grids)
            .filter(|(m, _)| wanted(**m))
            .filter_map(|(&metric, values)| {
                Some(HeatGrid {
                    metric,
                    values: values?,
                })
            })
            .collect();
        Heat {
            ranges,
            steps,
            step_ms: timeline.step_ms,
            grids,
        }
    }
}

/// The index of the range holding `key`, given the ranges' sorted start keys.
pub fn range_of(starts: &[&[u8]], key: &[u8]) -> usize {
    starts.partition_point(|s| *s <= key).saturating_sub(1)
}

/// Up to `count` ranges of about equal rows: the row-making samples sorted by key, cut where
/// their cumulative rows pass each 1/count. Ranges start at distinct keys; the first starts at
/// the table's start. Without any row-making sample, one range.
pub fn equal_row_ranges<'s>(
    samples: impl IntoIterator<Item = &'s Sample>,
    keys: &[u8],
    count: usize,
) -> Vec<KeyRange> {
    let mut made: Vec<(&[u8], u32, f64)> = samples
        .into_iter()
        .filter(|s| s.rows_made > 0.0)
        .enumerate()
        .map(|(i, s)| (s.key(keys), i as u32, s.rows_made))
        .collect();
    // By key, then by sample order: a stable sort's order, without its buffer.
    made.sort_unstable_by(|a, b| a.0.cmp(b.0).then(a.1.cmp(&b.1)));
    let made: Vec<(&[u8], f64)> = made.into_iter().map(|(key, _, rows)| (key, rows)).collect();
    cut_equal_rows(&made, count)
}

/// [`equal_row_ranges`] of a run's samples, sorted as a [`KeyOrder`] sorts (compact entries
/// of the keys' heads rather than the keys themselves: about a third of the time on the
/// benchmark's workload); the same ranges.
pub fn equal_row_ranges_of(samples: &[Sample], keys: &[u8], count: usize) -> Vec<KeyRange> {
    let made: Vec<u32> = (0..samples.len() as u32)
        .filter(|&p| samples.get(p as usize).is_some_and(|s| s.rows_made > 0.0))
        .collect();
    let order: KeyOrder = KeySort::of_positions(made).finish(samples, keys);
    equal_row_ranges_by_key(
        order
            .positions()
            .iter()
            .filter_map(|&p| samples.get(p as usize)),
        keys,
        count,
    )
}

/// [`equal_row_ranges`] of samples already in key order, equal keys in sample order (a
/// [`super::KeyOrder`]'s): the same ranges, without the sort.
pub fn equal_row_ranges_by_key<'s>(
    samples: impl IntoIterator<Item = &'s Sample>,
    keys: &[u8],
    count: usize,
) -> Vec<KeyRange> {
    let made: Vec<(&[u8], f64)> = samples
        .into_iter()
        .filter(|s| s.rows_made > 0.0)
        .map(|s| (s.key(keys), s.rows_made))
        .collect();
    cut_equal_rows(&made, count)
}

/// The ranges cut from row-making keys in key order: where their cumulative rows pass each
/// 1/count of their total.
fn cut_equal_rows(made: &[(&[u8], f64)], count: usize) -> Vec<KeyRange> {
    let total: f64 = made.iter().map(|m| m.1).sum();
    let count = count.max(1);
    let mut starts: Vec<Vec<u8>> = vec![Vec::new()];
    let mut cumulative = 0.0;
    for &(key, rows) in made {
        let next = starts.len() as f64 * total / count as f64;
        if starts.len() < count
            && cumulative >= next
            && starts.last().map(Vec::as_slice) < Some(key)
        {
            starts.push(key.to_vec());
        }
        cumulative += rows;
    }
    let mut ranges: Vec<KeyRange> = Vec::with_capacity(starts.len());
    for (i, start) in starts.iter().enumerate() {
        ranges.push(KeyRange {
            start: start.clone(),
            end: starts.get(i + 1).cloned().unwrap_or_default(),
            rows: 0.0,
        });
    }
    ranges
}
