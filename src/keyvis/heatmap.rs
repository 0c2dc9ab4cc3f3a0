//! The heatmap as the page draws it: a scope of the key space (the whole table, or a key
//! prefix drilled into), a window of simulated time, the grid recounted over the scope's own
//! ranges of about equal rows, its pixels, the splits inside it, a lane per region server and
//! the same figures as text.

use crate::bytes::to_printable;
use crate::kit::order;
use crate::simulate::heat::{equal_row_ranges_by_key, range_of};
use crate::simulate::{Heat, Metric, Sample, TableRun, Timeline};

/// A part of the key space: `[start, end)` (`end` empty: the table's end), with the path of
/// prefixes that led there. The default is the whole table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scope {
    pub start: Vec<u8>,
    pub end: Vec<u8>,
    /// The prefixes drilled into, outermost first (empty: the whole table).
    pub path: Vec<Vec<u8>>,
}

impl Scope {
    /// The whole table.
    pub fn whole(_run: &TableRun) -> Scope {
        Scope {
            start: Vec::new(),
            end: Vec::new(),
            path: Vec::new(),
        }
    }

    /// The keys that start with `prefix`, one level deeper than `self`.
    pub fn into_prefix(&self, prefix: &[u8]) -> Scope {
        let mut path = self.path.clone();
        path.push(prefix.to_vec());
        Scope {
            start: prefix.to_vec(),
            end: successor(prefix),
            path,
        }
    }

    /// One level up (the whole table from the first level).
    pub fn up(&self) -> Scope {
        let mut path = self.path.clone();
        path.pop();
        match path.last() {
            Some(p) => Scope {
                start: p.clone(),
                end: successor(p),
                path,
            },
            None => Scope {
                start: Vec::new(),
                end: Vec::new(),
                path,
            },
        }
    }

    /// Whether `key` is inside.
    pub fn holds(&self, key: &[u8]) -> bool {
        key >= self.start.as_slice() && (self.end.is_empty() || key < self.end.as_slice())
    }

    /// The scope as HBase prints keys: `[start, end)`.
    pub fn label(&self) -> String {
        if self.path.is_empty() {
            "the whole table".into()
        } else {
            format!("keys starting {}", to_printable(&self.start))
        }
    }

    /// The heat model of the scope: up to `count` ranges of about equal rows inside it, every
    /// metric recounted from the run's samples there; the read and write pressure from the
    /// regions that overlap it.
    pub fn heat(&self, run: &TableRun, count: usize) -> Heat {
        if self.covers_model(run, count) {
            return run.heat.clone();
        }
        self.heat_of(run, count, &Metric::ALL)
    }

    /// Whether the run's own heat model is this scope's at `count` ranges (the whole table, the
    /// model no finer than asked): a view then reads it in place rather than recounting it.
    pub fn covers_model(&self, run: &TableRun, count: usize) -> bool {
        self.path.is_empty() && count >= run.heat.ranges.len()
    }

    /// The scope's heat model with the grids of `metrics` only: the ranges of about equal rows
    /// inside the scope and those metrics recounted from the run's samples there (see
    /// [`Scope::heat`]).
    pub fn heat_of(&self, run: &TableRun, count: usize, metrics: &[Metric]) -> Heat {
        self.heat_among(run, &self.inside(run), count, metrics)
    }

    /// The run's samples whose keys are inside the scope, found once for the heat model and
    /// the drill-down prefixes of a scope: a span of the run's key order, found by binary
    /// search, and the same samples in the run's order.
    pub fn inside(&self, run: &TableRun) -> Inside {
        let span = run
            .key_order
            .span(&run.samples, &run.keys, &self.start, &self.end);
        Inside {
            by_time: run
                .key_order
                .in_sample_order(span.clone(), run.samples.len()),
            by_key: span,
        }
    }

    /// [`Scope::heat_of`] over the samples `inside` the scope (as [`Scope::inside`] found them).
    pub fn heat_among(
        &self,
        run: &TableRun,
        inside: &Inside,
        count: usize,
        metrics: &[Metric],
    ) -> Heat {
        let steps = run.heat.steps;
        let mut ranges = equal_row_ranges_by_key(inside.samples_by_key(run), &run.keys, count);
        if let Some(first) = ranges.first_mut() {
            first.start = self.start.clone();
        }
        if let Some(last) = ranges.last_mut() {
            last.end = self.end.clone();
        }
        // The regions over the scope matter to the pressures only.
        let timeline = if metrics
            .iter()
            .any(|m| matches!(m, Metric::ReadPressure | Metric::WritePressure))
        {
            self.timeline(&run.timeline)
        } else {
            Timeline {
                step_ms: run.timeline.step_ms,
                ..Timeline::default()
            }
        };
        Heat::over_only(
            ranges,
            inside.samples(run),
            &run.keys,
            &timeline,
            steps,
            metrics,
        )
    }

    /// The timeline with, per step, only the regions that overlap the scope.
    fn timeline(&self, timeline: &Timeline) -> Timeline {
        let overlaps = |id: u32| {
            timeline.regions.get(id as usize).is_some_and(|r| {
                (r.end_key.is_empty() || r.end_key.as_slice() > self.start.as_slice())
                    && (self.end.is_empty() || r.start_key.as_slice() < self.end.as_slice())
            })
        };
        Timeline {
            regions: timeline.regions.clone(),
            splits: Vec::new(),
            moves: Vec::new(),
            steps: timeline
                .steps
                .iter()
                .map(|regions| {
                    regions
                        .iter()
                        .filter(|f| overlaps(f.region))
                        .cloned()
                        .collect()
                })
                .collect(),
            step_ms: timeline.step_ms,
        }
    }
}

/// The samples of a run inside a scope.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inside {
    /// Their positions, in the run's order.
    by_time: Vec<u32>,
    /// Where they are in the run's key order.
    by_key: std::ops::Range<usize>,
}

impl Inside {
    /// The samples, in the run's order.
    pub fn samples<'a, 'r: 'a>(
        &'a self,
        run: &'r TableRun,
    ) -> impl Iterator<Item = &'r Sample> + 'a {
        self.by_time
            .iter()
            .filter_map(|&i| run.samples.get(i as usize))
    }

    /// The samples in key order, equal keys in the run's order.
    pub fn samples_by_key<'r>(&self, run: &'r TableRun) -> impl Iterator<Item = &'r Sample> + 'r {
        run.key_order
            .positions()
            .get(self.by_key.clone())
            .unwrap_or(&[])
            .iter()
            .filter_map(|&i| run.samples.get(i as usize))
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.by_time.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_time.is_empty()
    }
}

/// The smallest key after every key starting with `prefix` (empty: none, the table's end).
fn successor(prefix: &[u8]) -> Vec<u8> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < 0xff {
            end.push(last + 1);
            return end;
        }
    }
    Vec::new()
}

/// The steps on show: `[first, end)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub first: usize,
    pub end: usize,
}

impl Window {
    /// Every step.
    pub fn all(steps: usize) -> Window {
        Window {
            first: 0,
            end: steps.max(1),
        }
    }

    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.first).max(1)
    }

    pub fn is_empty(&self) -> bool {
        self.end <= self.first
    }

    /// Half as long, centred on `at` (at least 8 steps).
    pub fn zoom_in(&self, at: usize) -> Window {
        let len = (self.len() / 2).max(8).min(self.len());
        let first = at.saturating_sub(len / 2).max(self.first);
        let first = first.min(self.end.saturating_sub(len));
        Window {
            first,
            end: first + len,
        }
    }

    /// As long, moved to be centred on `at`, within `steps`.
    pub fn around(&self, at: usize, steps: usize) -> Window {
        let len = self.len().min(steps.max(1));
        let first = at.saturating_sub(len / 2).min(steps.saturating_sub(len));
        Window {
            first,
            end: first + len,
        }
    }

    /// Twice as long, centred as before, within `steps`.
    pub fn zoom_out(&self, steps: usize) -> Window {
        let len = (self.len() * 2).min(steps.max(1));
        let mid = self.first + self.len() / 2;
        let first = mid.saturating_sub(len / 2).min(steps.saturating_sub(len));
        Window {
            first,
            end: first + len,
        }
    }
}

/// Which figures are counted and which estimated, for the page to say.
pub struct Provenance;

impl Provenance {
    /// One sentence per kind of figure.
    pub fn sentences(ops_per_sample: f64) -> [String; 2] {
        [
            "Counted: each operation's total in each step (its rate integrated over the step) and the bytes each write adds.".to_string(),
            format!(
                "Estimated from weighted samples (one per {} operations): where in the key space the operations fell (every cell of the heatmap), the regions' figures and sizes, the split points, the pressures and the findings.",
                crate::designs::lesson::number(ops_per_sample.max(1.0).round())
            ),
        ]
    }

    /// Whether the metric's per-range values are estimated (all are: the key of each operation
    /// is drawn by sample); its total over the key space is counted for the operation metrics.
    pub fn of(metric: Metric) -> &'static str {
        match metric {
            Metric::Operations | Metric::Reads | Metric::Writes | Metric::BytesWritten => {
                "total per step counted, spread over the key ranges by sample"
            }
            Metric::RowsRead | Metric::RowsReturned | Metric::DataSize => "estimated from samples",
            Metric::ReadPressure | Metric::WritePressure => {
                "estimated: a region's sampled rate over its server's capacity"
            }
        }
    }
}

/// A colour ramp for a heat value in 0..=1: dark blue (none), through red, to pale yellow (the
/// largest in view), as Key Visualizer draws it.
fn ramp(t: f64) -> [u8; 4] {
    if t <= 0.0 {
        return [18, 22, 48, 255];
    }
    let t = t.clamp(0.0, 1.0).sqrt();
    const STOPS: [(f64, [f64; 3]); 4] = [
        (0.0, [40.0, 30.0, 110.0]),
        (0.4, [190.0, 40.0, 70.0]),
        (0.75, [245.0, 150.0, 40.0]),
        (1.0, [255.0, 250.0, 200.0]),
    ];
    let mut i = 0;
    while i + 2 < STOPS.len() && t > STOPS[i + 1].0 {
        i += 1;
    }
    let (a, ca) = STOPS[i];
    let (b, cb) = STOPS[i + 1];
    let f = ((t - a) / (b - a)).clamp(0.0, 1.0);
    let c = |k: usize| (ca[k] + (cb[k] - ca[k]) * f).round() as u8;
    [c(0), c(1), c(2), 255]
}

/// The RGBA pixels of `rows` × `cols` values (`values[row * stride + first + col]`), one pixel
/// per value, brightness relative to the largest in view. Returns the pixels and that largest
/// value.
pub fn grid_pixels(values: &[f64], rows: usize, stride: usize, window: Window) -> (Vec<u8>, f64) {
    let cols = window.len();
    // Row `r`'s values in the window (shorter, or empty, where the grid ends: those are 0).
    let row = |r: usize| -> &[f64] {
        let from = (r * stride + window.first).min(values.len());
        let to = (from + cols).min(values.len()).min((r + 1) * stride);
        values.get(from..to.max(from)).unwrap_or(&[])
    };
    let max = (0..rows)
        .flat_map(|r| row(r).iter().copied())
        .fold(0.0f64, f64::max);
    // The ramp at RAMP_LEVELS shares of the largest value, worked out once per redraw: a pixel
    // then costs a division and a lookup rather than a square root and a blend. A value above
    // 0 takes level 1 at least, so it never looks like none.
    let lut: Vec<[u8; 4]> = (0..=RAMP_LEVELS)
        .map(|i| ramp(i as f64 / RAMP_LEVELS as f64))
        .collect();
    let none = ramp(0.0);
    let mut out = vec![0u8; rows * cols * 4];
    for (r, line) in out.chunks_exact_mut((cols * 4).max(1)).enumerate() {
        let values = row(r);
        for (c, px) in line.chunks_exact_mut(4).enumerate() {
            let v = values.get(c).copied().unwrap_or(0.0);
            let colour = if max > 0.0 && v > 0.0 {
                let level = ((v / max) * RAMP_LEVELS as f64).round() as usize;
                lut.get(level.clamp(1, RAMP_LEVELS))
                    .copied()
                    .unwrap_or(none)
            } else {
                none
            };
            px.copy_from_slice(&colour);
        }
    }
    (out, max)
}

/// Shades of the heatmap's ramp: a value is drawn at the nearest 1/1,024 of the largest in view.
const RAMP_LEVELS: usize = 1024;

/// Per region server, per step: the sum of its regions' `metric` pressure (reads or writes
/// per second over one server's capacity), read from the timeline.
pub fn lanes(timeline: &Timeline, servers: u32, metric: Metric) -> Vec<Vec<f64>> {
    let mut out = vec![vec![0.0; timeline.steps.len()]; servers as usize];
    for (step, regions) in timeline.steps.iter().enumerate() {
        for f in regions {
            let v = match metric {
                Metric::ReadPressure | Metric::Reads | Metric::RowsRead | Metric::RowsReturned => {
                    f.read_pressure
                }
                Metric::Operations => f.read_pressure + f.write_pressure,
                _ => f.write_pressure,
            };
            if let Some(lane) = out.get_mut(f.server as usize) {
                lane[step] += v;
            }
        }
    }
    out
}

/// A split as the heatmap draws it: from its step on, a boundary below range `range`.
#[derive(Clone, Debug, PartialEq)]
pub struct SplitMark {
    pub step: usize,
    /// The range the split key falls in (the line is drawn at its top).
    pub range: usize,
    /// The key as HBase prints it.
    pub key: String,
    pub at_ms: u64,
}

/// The splits whose keys fall in the heat model's key space (its first range to its last).
pub fn split_marks(timeline: &Timeline, heat: &Heat, scope: &Scope) -> Vec<SplitMark> {
    let starts: Vec<&[u8]> = heat.ranges.iter().map(|r| r.start.as_slice()).collect();
    timeline
        .splits
        .iter()
        .filter(|s| scope.holds(&s.key))
        .map(|s| SplitMark {
            step: (s.at_ms / timeline.step_ms.max(1)) as usize,
            range: range_of(&starts, &s.key),
            key: to_printable(&s.key),
            at_ms: s.at_ms,
        })
        .collect()
}

/// The next level of key prefixes inside `scope`: where the samples' keys share the fields
/// before their first per-row field, those fields; otherwise one byte beyond what every key in
/// the scope shares. Each with the operations under it, busiest first, at most `count`.
pub fn prefixes(run: &TableRun, scope: &Scope, count: usize) -> Vec<(Vec<u8>, f64)> {
    prefixes_among(run, scope, &scope.inside(run), count)
}

/// [`prefixes`] over the samples `inside` the scope (as [`Scope::inside`] found them).
fn prefixes_among(
    run: &TableRun,
    scope: &Scope,
    inside: &Inside,
    count: usize,
) -> Vec<(Vec<u8>, f64)> {
    let inside: Vec<&Sample> = inside.samples(run).collect();
    let Some(first) = inside.first() else {
        return Vec::new();
    };
    let first_key = first.key(&run.keys);
    let common = inside.iter().fold(first_key.len(), |n, s| {
        let k = s.key(&run.keys);
        k.iter()
            .zip(first_key)
            .take(n)
            .take_while(|(a, b)| a == b)
            .count()
    });
    let depth = scope.start.len().max(common);
    let mut groups: crate::kit::sorted::SortedMap<&[u8], f64> =
        crate::kit::sorted::SortedMap::new();
    for s in &inside {
        let key = s.key(&run.keys);
        let field_end = [s.entity_end as usize, s.prefix_end as usize]
            .into_iter()
            .filter(|&e| e > depth)
            .min();
        let end = field_end.unwrap_or(depth + 1).min(key.len());
        if end <= scope.start.len() {
            continue;
        }
        *groups.entry(&key[..end]).or_insert(0.0) += if s.weight > 0.0 { s.weight } else { 0.0 };
    }
    let mut out: Vec<(Vec<u8>, f64)> = groups.into_iter().map(|(k, v)| (k.to_vec(), v)).collect();
    order::sort_by(&mut out, |a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    out.truncate(count);
    out
}

/// The figures of the heatmap as text, for screen readers and tests: per range (up to
/// `count`, the busiest first), its first key, its total over the window and its peak step.
pub fn summary_rows(
    heat: &Heat,
    metric: Metric,
    window: Window,
    count: usize,
) -> Vec<(String, f64, usize)> {
    let grid = heat
        .grid(metric)
        .map(|g| g.values.as_slice())
        .unwrap_or(&[]);
    let steps = window.first..window.end.min(heat.steps);
    let mut rows: Vec<(String, f64, usize)> = (0..heat.ranges.len())
        .map(|r| {
            // The range's row of the grid, read in place (a grid without the metric: zeros).
            let at = |s: usize| grid.get(r * heat.steps + s).copied().unwrap_or(0.0);
            let values = steps.clone().map(|s| (s, at(s)));
            let (mut total, mut peak, mut peak_at) = (0.0, f64::MIN, window.first);
            for (s, v) in values {
                if v > peak {
                    peak = v;
                    peak_at = s;
                }
                total = match metric {
                    Metric::DataSize | Metric::ReadPressure | Metric::WritePressure => {
                        f64::max(total, v)
                    }
                    _ => total + v,
                };
            }
            (heat.ranges[r].label(), total, peak_at)
        })
        .collect();
    order::sort_by(&mut rows, |a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    rows.truncate(count);
    rows
}
