//! Findings: what the simulation shows about a design, in Key Visualizer's terms (high read
//! or write pressure on a range or on single rows, large rows, a key space not to scale) and
//! Rowkey's own (a growing key, a low-cardinality prefix, a hot entity, a wide row growing
//! without bound). Each names its subject, its figure with its unit, the threshold it is
//! compared with (`>=` or `<=`), and what to try instead.
//!
//! Every threshold is a named constant below; a finding is only made once enough operations
//! were seen ([`MIN_OPERATIONS`]).

mod tally;

use serde::Serialize;

use super::run::TableRun;
use super::workload::{KeyField, TableLoad, Workload};
use super::OpKind;
use crate::bytes::to_printable;
use crate::kit::order;
use tally::{EntityTally, RowFigures, RowTally};

/// No finding is made on fewer operations than this.
pub const MIN_OPERATIONS: f64 = 1_000.0;
/// A region whose reads per second reach this fraction of its server's read capacity, in
/// some step, is under high read pressure.
pub const HIGH_READ_PRESSURE: f64 = 0.8;
/// The same for writes.
pub const HIGH_WRITE_PRESSURE: f64 = 0.8;
/// Pressure counts when held this long (simulated ms): the figure is the highest pressure a
/// region keeps over this many consecutive ms.
pub const PRESSURE_SUSTAINED_MS: u64 = 600_000;
/// A single row taking this share (or more) of its table's reads or writes is a hot row.
pub const HOT_ROW_SHARE: f64 = 0.01;
/// A single row's figures (its share, its bytes, its cells) are only trusted on this many
/// samples hitting it.
pub const HOT_ROW_MIN_SAMPLES: u32 = 10;
/// A row this large (bytes, as stored) is a large row (Bigtable's advice: rows under 100 MB).
pub const LARGE_ROW_BYTES: f64 = 100.0 * 1024.0 * 1024.0;
/// Fewer rows than this and the key axis cannot be drawn to scale (a range per row or less).
pub const KEY_SPACE_MIN_ROWS: f64 = 1_000.0;
/// New rows whose key is above every key before (or below every key before) in at least this
/// share: a growing (or shrinking) key.
pub const GROWING_KEY_SHARE: f64 = 0.9;
/// A key prefix (the fields before its first per-row field) with at most this many distinct
/// values per region server is a low-cardinality prefix: the threshold is the region servers ×
/// this factor, minus one, compared `<=`.
pub const LOW_CARDINALITY_PER_SERVER: f64 = 1.0;
/// An entity with this many times its fair share (1 / entities) of the operations, or more,
/// is a hot entity.
pub const HOT_ENTITY_FACTOR: f64 = 10.0;
/// An entity with at least this share of the table's operations can be hot.
pub const HOT_ENTITY_MIN_SHARE: f64 = 0.01;
/// A row that gains this many cells per simulated day, or more, through dynamic columns is a
/// wide row growing without bound.
pub const WIDE_ROW_CELLS_PER_DAY: f64 = 10_000.0;

/// The kinds of finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingCode {
    /// Key Visualizer: a key range whose region's reads reach [`HIGH_READ_PRESSURE`] of its
    /// server's capacity.
    HighReadPressure,
    /// Key Visualizer: the same for writes ([`HIGH_WRITE_PRESSURE`]).
    HighWritePressure,
    /// Key Visualizer: a single row with [`HOT_ROW_SHARE`] of the table's reads or more.
    HotRowReads,
    /// Key Visualizer: a single row with [`HOT_ROW_SHARE`] of the table's writes or more.
    HotRowWrites,
    /// Key Visualizer: a row of [`LARGE_ROW_BYTES`] or more.
    LargeRows,
    /// Key Visualizer: fewer rows than [`KEY_SPACE_MIN_ROWS`].
    KeySpaceNotToScale,
    /// Rowkey: new keys above (or below) every earlier key: every write lands in one region.
    GrowingKey,
    /// Rowkey: the key's leading fields take few values, so writes gather under few prefixes.
    LowCardinalityPrefix,
    /// Rowkey: one entity far above its fair share; its rows are named.
    HotEntity,
    /// Rowkey: a row widening with every write (dynamic columns), without bound.
    WideRowGrowing,
}

impl FindingCode {
    /// The code as the report writes it.
    pub fn code(self) -> &'static str {
        match self {
            FindingCode::HighReadPressure => "high_read_pressure",
            FindingCode::HighWritePressure => "high_write_pressure",
            FindingCode::HotRowReads => "hot_row_reads",
            FindingCode::HotRowWrites => "hot_row_writes",
            FindingCode::LargeRows => "large_rows",
            FindingCode::KeySpaceNotToScale => "key_space_not_to_scale",
            FindingCode::GrowingKey => "growing_key",
            FindingCode::LowCardinalityPrefix => "low_cardinality_prefix",
            FindingCode::HotEntity => "hot_entity",
            FindingCode::WideRowGrowing => "wide_row_growing",
        }
    }

    /// The finding in words, as the page heads it (the code stays the report's).
    pub fn words(self) -> &'static str {
        match self {
            FindingCode::HighReadPressure => "High read pressure",
            FindingCode::HighWritePressure => "High write pressure",
            FindingCode::HotRowReads => "A hot row of reads",
            FindingCode::HotRowWrites => "A hot row of writes",
            FindingCode::LargeRows => "Large rows",
            FindingCode::KeySpaceNotToScale => "Key space not to scale",
            FindingCode::GrowingKey => "A growing key",
            FindingCode::LowCardinalityPrefix => "A prefix of few values",
            FindingCode::HotEntity => "A hot entity",
            FindingCode::WideRowGrowing => "A wide row growing",
        }
    }
}

/// How a figure is compared with its threshold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Compare {
    #[serde(rename = ">=")]
    AtLeast,
    #[serde(rename = "<=")]
    AtMost,
}

impl Compare {
    pub fn symbol(self) -> &'static str {
        match self {
            Compare::AtLeast => ">=",
            Compare::AtMost => "<=",
        }
    }
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    pub code: FindingCode,
    /// What it is about: a key range, a row, an entity with its rows, a prefix.
    pub subject: String,
    /// The measured (or estimated) figure.
    pub figure: f64,
    pub unit: String,
    pub threshold: f64,
    pub compare: Compare,
    /// What to try instead.
    #[serde(skip)]
    pub advice: String,
    /// The moment and region a finding about a stretch of time names: the page can show that
    /// moment's regions with this one marked.
    #[serde(skip)]
    pub moment: Option<Moment>,
}

/// A step of a run's timeline and a region open at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moment {
    pub step: usize,
    pub region: u32,
}

/// Rounds a figure to six decimals, so reports read (and compare) cleanly.
pub fn round6(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

fn finding(
    code: FindingCode,
    subject: String,
    figure: f64,
    unit: &str,
    threshold: f64,
    compare: Compare,
    advice: &str,
) -> Finding {
    Finding {
        code,
        subject,
        figure: round6(figure),
        unit: unit.to_string(),
        threshold: round6(threshold),
        compare,
        advice: advice.to_string(),
        moment: None,
    }
}

/// The findings of one table's run, in [`FindingCode`]'s order.
pub fn find(run: &TableRun, table: &TableLoad, workload: &Workload) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut finder = Finder::default();
    while !finder.step(run, table, workload, usize::MAX, &mut out) {}
    out
}

/// Where a [`Finder`] is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Stage {
    /// The regions' pressures.
    #[default]
    Pressure,
    /// Tallying the samples per row, then the hot, large and wide rows and the key space.
    Rows,
    /// A growing key and a low-cardinality prefix.
    Keys,
    /// Tallying the samples per entity, then the hot entity.
    Entities,
    Done,
}

/// The findings of a table looked for a part per call, so a page can paint between two: the
/// regions' pressures, the samples tallied per row a bounded number per call, the keys'
/// growth and prefixes, the samples tallied per entity the same way. Its tallies wait here
/// between calls; the findings are [`find`]'s however the calls are cut.
#[derive(Debug, Default)]
pub struct Finder {
    stage: Stage,
    /// The next sample to tally.
    next: usize,
    rows: RowTally,
    entities: EntityTally,
}

impl Finder {
    /// Whether every finding was looked for.
    pub fn is_done(&self) -> bool {
        self.stage == Stage::Done
    }

    /// Looks on: one part, or up to `samples` samples (at least 1,024) tallied, adding to
    /// `out`; the last call puts `out` in [`FindingCode`]'s order. Returns whether every
    /// finding was looked for.
    pub fn step(
        &mut self,
        run: &TableRun,
        table: &TableLoad,
        workload: &Workload,
        samples: usize,
        out: &mut Vec<Finding>,
    ) -> bool {
        if run.totals.ops < MIN_OPERATIONS {
            self.stage = Stage::Done;
        }
        let budget = samples.max(1_024);
        let n = run.samples.len();
        match self.stage {
            Stage::Pressure => {
                pressure(run, out);
                self.stage = Stage::Rows;
            }
            Stage::Rows => {
                let end = self.next.saturating_add(budget).min(n);
                self.rows.add(
                    &run.samples,
                    self.next,
                    end,
                    &run.keys,
                    dynamic_cells(table),
                );
                self.next = end;
                if end >= n {
                    let rows = std::mem::take(&mut self.rows);
                    hot_rows(run, &rows, out);
                    large_and_wide_rows(run, &rows, table, workload, out);
                    key_space(run, out);
                    self.stage = Stage::Keys;
                    self.next = 0;
                }
            }
            Stage::Keys => {
                growing_key(run, out);
                low_cardinality(run, table, workload, out);
                self.stage = Stage::Entities;
                if entity_count(table).is_none() {
                    self.stage = Stage::Done;
                }
            }
            Stage::Entities => {
                let end = self.next.saturating_add(budget).min(n);
                self.entities.add(&run.samples, self.next, end, &run.keys);
                self.next = end;
                if end >= n {
                    hot_entity(run, table, &std::mem::take(&mut self.entities), out);
                    self.stage = Stage::Done;
                }
            }
            Stage::Done => {}
        }
        if self.stage == Stage::Done {
            order::sort_by_key(out, |f| f.code as u8);
        }
        self.is_done()
    }
}

fn key_space(run: &TableRun, out: &mut Vec<Finding>) {
    if (run.totals.rows as f64) < KEY_SPACE_MIN_ROWS {
        out.push(finding(
            FindingCode::KeySpaceNotToScale,
            format!("table {}", run.name),
            run.totals.rows as f64,
            "rows",
            KEY_SPACE_MIN_ROWS,
            Compare::AtMost,
            "Too few rows for the key axis to be to scale: simulate longer or with more rows.",
        ));
    }
}

/// The table's dynamic columns.
fn dynamic_cells(table: &TableLoad) -> f64 {
    table
        .families
        .iter()
        .flat_map(|f| &f.columns)
        .filter(|c| c.dynamic)
        .count() as f64
}

/// The entities of the key's first entity field.
fn entity_count(table: &TableLoad) -> Option<u64> {
    table.key.iter().find_map(|f| match f {
        KeyField::Entity { count, .. } => Some(*count),
        _ => None,
    })
}

fn pressure(run: &TableRun, out: &mut Vec<Finding>) {
    for (code, threshold, advice) in [
        (
            FindingCode::HighReadPressure,
            HIGH_READ_PRESSURE,
            "Spread the reads: a key whose hot rows are not adjacent, a cache in front, or read replicas.",
        ),
        (
            FindingCode::HighWritePressure,
            HIGH_WRITE_PRESSURE,
            "Spread the writes: salt or hash the key's lead, or pre-split the table.",
        ),
    ] {
        // Per region, its pressure per step, in step order.
        let mut series: crate::kit::sorted::SortedMap<u32, Vec<(u64, f64)>> =
            crate::kit::sorted::SortedMap::new();
        for (step, regions) in run.timeline.steps.iter().enumerate() {
            for r in regions {
                let v = if code == FindingCode::HighReadPressure {
                    r.read_pressure
                } else {
                    r.write_pressure
                };
                series.entry(r.region).or_default().push((step as u64, v));
            }
        }
        let window = (PRESSURE_SUSTAINED_MS.div_ceil(run.timeline.step_ms.max(1))).max(1) as usize;
        let mut worst: Option<(f64, u32, u64)> = None;
        for (region, values) in &series {
            for w in values.windows(window) {
                let held = w.iter().map(|x| x.1).fold(f64::INFINITY, f64::min);
                if worst.is_none_or(|x| held > x.0) {
                    worst = Some((held, *region, w[0].0));
                }
            }
        }
        if let Some((v, region, step)) = worst {
            if v >= threshold {
                let span = run.timeline.regions.get(region as usize);
                let subject = match span {
                    Some(s) => {
                        let minute = step * run.timeline.step_ms / 60_000;
                        format!(
                            "range ['{}', '{}') (region {region}) for 10 minutes from {}:{:02} into the run",
                            to_printable(&s.start_key),
                            to_printable(&s.end_key),
                            minute / 60,
                            minute % 60
                        )
                    }
                    None => format!("region {region}"),
                };
                out.push(Finding {
                    moment: Some(Moment {
                        step: step as usize,
                        region,
                    }),
                    ..finding(
                        code,
                        subject,
                        v,
                        "of a server's capacity, held 10 minutes",
                        threshold,
                        Compare::AtLeast,
                        advice,
                    )
                });
            }
        }
    }
}

/// The row of `figures` with the highest `value`, the lowest key among equals.
fn highest<'r>(
    run: &'r TableRun,
    rows: impl Iterator<Item = &'r RowFigures>,
    value: impl Fn(&RowFigures) -> f64,
) -> Option<(&'r [u8], f64)> {
    rows.map(|r| {
        let key = run
            .samples
            .get(r.sample as usize)
            .map_or(&[][..], |s| s.key(&run.keys));
        (key, value(r))
    })
    .max_by(|a, b| a.1.total_cmp(&b.1).then_with(|| b.0.cmp(a.0)))
}

fn hot_rows(run: &TableRun, tally: &RowTally, out: &mut Vec<Finding>) {
    for (code, total, reads) in [
        (FindingCode::HotRowReads, tally.reads, true),
        (FindingCode::HotRowWrites, tally.writes, false),
    ] {
        if total <= 0.0 {
            continue;
        }
        let hit = tally.rows.iter().filter(|r| r.hits >= HOT_ROW_MIN_SAMPLES);
        let best = highest(run, hit, |r| if reads { r.reads } else { r.writes });
        if let Some((key, v)) = best {
            let share = v / total;
            if share >= HOT_ROW_SHARE {
                out.push(finding(
                    code,
                    format!("row '{}'", to_printable(key)),
                    share,
                    "share of the table's operations of its kind",
                    HOT_ROW_SHARE,
                    Compare::AtLeast,
                    "Spread one row's traffic: write each event as a row of its own (name#<ts>) instead of rewriting one, cache its reads, or buffer a hot counter in memory and write it periodically.",
                ));
            }
        }
    }
}

/// Bytes and dynamic cells per row from the writes that hit it (estimated: samples × weight),
/// only on rows enough samples wrote.
fn large_and_wide_rows(
    run: &TableRun,
    tally: &RowTally,
    table: &TableLoad,
    workload: &Workload,
    out: &mut Vec<Finding>,
) {
    let written = || tally.rows.iter().filter(|r| r.puts >= HOT_ROW_MIN_SAMPLES);
    if let Some((key, b)) = highest(run, written(), |r| r.bytes) {
        if b >= LARGE_ROW_BYTES {
            out.push(finding(
                FindingCode::LargeRows,
                format!("row '{}'", to_printable(key)),
                b,
                "bytes",
                LARGE_ROW_BYTES,
                Compare::AtLeast,
                "Keep rows small: move what grows into rows of their own (a tall table) and keep versions few.",
            ));
        }
    }
    if dynamic_cells(table) > 0.0 {
        let days = workload.duration_ms as f64 / 86_400_000.0;
        if let Some((key, cells)) = highest(run, written(), |r| r.cells) {
            let per_day = cells / days.max(1e-9);
            if per_day >= WIDE_ROW_CELLS_PER_DAY {
                out.push(finding(
                    FindingCode::WideRowGrowing,
                    format!("row '{}'", to_printable(key)),
                    per_day,
                    "cells per day",
                    WIDE_ROW_CELLS_PER_DAY,
                    Compare::AtLeast,
                    "A row that gains a column per event grows without bound: make each event a row of its own (key = entity + event), a tall table.",
                ));
            }
        }
    }
}

fn growing_key(run: &TableRun, out: &mut Vec<Finding>) {
    let mut max: Option<&[u8]> = None;
    let mut min: Option<&[u8]> = None;
    let (mut up, mut down, mut total) = (0.0, 0.0, 0.0);
    for s in run
        .samples
        .iter()
        .filter(|s| s.kind == Some(OpKind::PutNew))
    {
        let key = s.key(&run.keys);
        if let (Some(hi), Some(lo)) = (max, min) {
            total += s.weight;
            if key > hi {
                up += s.weight;
            }
            if key < lo {
                down += s.weight;
            }
        }
        if max.is_none_or(|m| key > m) {
            max = Some(key);
        }
        if min.is_none_or(|m| key < m) {
            min = Some(key);
        }
    }
    if total < MIN_OPERATIONS {
        return;
    }
    let (share, direction) = if up >= down {
        (up / total, "above every earlier key")
    } else {
        (down / total, "below every earlier key")
    };
    if share >= GROWING_KEY_SHARE {
        out.push(finding(
            FindingCode::GrowingKey,
            format!("new rows of {}: keys {direction}", run.name),
            share,
            "share of new rows",
            GROWING_KEY_SHARE,
            Compare::AtLeast,
            "Every new row lands in one region: lead the key with a hash or salt of it, or reverse the growing field's digits.",
        ));
    }
}

/// The fields before the key's first per-row field.
fn prefix_fields(table: &TableLoad) -> usize {
    table
        .key
        .iter()
        .position(KeyField::is_per_row)
        .unwrap_or(table.key.len())
}

fn low_cardinality(run: &TableRun, table: &TableLoad, workload: &Workload, out: &mut Vec<Finding>) {
    let fields = prefix_fields(table);
    let varying = table.key[..fields]
        .iter()
        .any(|f| !matches!(f, KeyField::Constant { .. }));
    if fields == 0 || fields == table.key.len() || !varying {
        return;
    }
    let threshold = workload.cluster.region_servers as f64 * LOW_CARDINALITY_PER_SERVER - 1.0;
    let mut prefixes = crate::kit::sorted::SortedSet::new();
    let mut puts = 0.0;
    for s in run
        .samples
        .iter()
        .filter(|s| s.kind == Some(OpKind::PutNew))
    {
        let key = s.key(&run.keys);
        prefixes.insert(&key[..(s.prefix_end as usize).min(key.len())]);
        puts += s.weight;
        // Past the threshold the prefixes only grow: no finding.
        if prefixes.len() as f64 > threshold {
            return;
        }
    }
    if puts < MIN_OPERATIONS {
        return;
    }
    let distinct = prefixes.len() as f64;
    if distinct <= threshold {
        let names: Vec<String> = prefixes
            .iter()
            .take(3)
            .map(|p| format!("'{}'", to_printable(p)))
            .collect();
        out.push(finding(
            FindingCode::LowCardinalityPrefix,
            format!(
                "prefix of {} field(s) of {}: {}",
                fields,
                run.name,
                names.join(", ")
            ),
            distinct,
            "distinct prefixes",
            threshold,
            Compare::AtMost,
            "New rows gather under a few prefixes, so at most that many regions take the writes: lead with a field of many values (a salt bucket per server, a hash).",
        ));
    }
}

fn hot_entity(run: &TableRun, table: &TableLoad, tally: &EntityTally, out: &mut Vec<Finding>) {
    let Some(count) = entity_count(table) else {
        return;
    };
    let total = tally.total;
    if total < MIN_OPERATIONS || count < 2 {
        return;
    }
    // The busiest entity is picked by its operations, then its id, whatever the map's order.
    let Some((entity, (ops, prefixes))) = tally
        .entities
        .iter()
        .max_by(|a, b| a.1 .0.total_cmp(&b.1 .0).then_with(|| b.0.cmp(a.0)))
    else {
        return;
    };
    let share = ops / total;
    let factor = share * count as f64;
    if factor >= HOT_ENTITY_FACTOR && share >= HOT_ENTITY_MIN_SHARE {
        let mut prefixes: Vec<&[u8]> = prefixes
            .iter()
            .map(|&(i, len)| tally::prefix(&run.samples, &run.keys, i, len))
            .collect();
        order::sort(&mut prefixes);
        let rows: Vec<String> = prefixes
            .iter()
            .map(|p| format!("rows starting '{}'", to_printable(p)))
            .collect();
        out.push(finding(
            FindingCode::HotEntity,
            format!("entity {entity} ({}), {:.1}% of operations", rows.join(", "), share * 100.0),
            factor,
            "times its fair share",
            HOT_ENTITY_FACTOR,
            Compare::AtLeast,
            "One entity's rows sit together and take its traffic: salt that entity's rows over buckets, or cache its reads.",
        ));
    }
}
