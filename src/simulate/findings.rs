//! Findings: what the simulation shows about a design, in Key Visualizer's terms (high read
//! or write pressure on a range or on single rows, large rows, a key space not to scale) and
//! Rowkey's own (a growing key, a low-cardinality prefix, a hot entity, a wide row growing
//! without bound). Each names its subject, its figure with its unit, the threshold it is
//! compared with (`>=` or `<=`), and what to try instead.
//!
//! Every threshold is a named constant below; a finding is only made once enough operations
//! were seen ([`MIN_OPERATIONS`]).

use serde::Serialize;

use super::run::TableRun;
use super::workload::{KeyField, TableLoad, Workload};
use super::OpKind;
use crate::bytes::to_printable;
use crate::kit::order;

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
    }
}

/// The findings of one table's run, in [`FindingCode`]'s order.
pub fn find(run: &TableRun, table: &TableLoad, workload: &Workload) -> Vec<Finding> {
    let mut out = Vec::new();
    for part in 0..FINDER_PARTS {
        find_part(run, table, workload, part, &mut out);
    }
    out
}

/// The parts [`find_part`] looks in, one after another.
pub const FINDER_PARTS: usize = 5;

/// Part `part` of [`find`]'s work, adding to `out` (so a page can look for findings a part
/// per call); the last part puts `out` in [`FindingCode`]'s order.
pub fn find_part(
    run: &TableRun,
    table: &TableLoad,
    workload: &Workload,
    part: usize,
    out: &mut Vec<Finding>,
) {
    if run.totals.ops < MIN_OPERATIONS {
        return;
    }
    match part {
        0 => pressure(run, out),
        1 => hot_rows(run, out),
        2 => {
            large_and_wide_rows(run, table, workload, out);
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
        3 => {
            growing_key(run, out);
            low_cardinality(run, table, workload, out);
        }
        _ => {
            hot_entity(run, table, out);
            order::sort_by_key(out, |f| f.code as u8);
        }
    }
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
        let mut series: std::collections::BTreeMap<u32, Vec<(u64, f64)>> =
            std::collections::BTreeMap::new();
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
                    Some(s) => format!(
                        "range ['{}', '{}') (region {region}) for 10 minutes from {} ms",
                        to_printable(&s.start_key),
                        to_printable(&s.end_key),
                        step * run.timeline.step_ms
                    ),
                    None => format!("region {region}"),
                };
                out.push(finding(
                    code,
                    subject,
                    v,
                    "of a server's capacity, held 10 minutes",
                    threshold,
                    Compare::AtLeast,
                    advice,
                ));
            }
        }
    }
}

/// Per key: samples hitting it, and the reads and writes they stand for.
fn per_row(run: &TableRun) -> std::collections::HashMap<&[u8], (u32, f64, f64)> {
    let mut rows: std::collections::HashMap<&[u8], (u32, f64, f64)> =
        std::collections::HashMap::new();
    for s in &run.samples {
        if s.is_initial() || s.is_scan() {
            continue;
        }
        let e = rows.entry(s.key(&run.keys)).or_default();
        e.0 += 1;
        if s.is_read() {
            e.1 += s.weight;
        } else {
            e.2 += s.weight;
        }
    }
    rows
}

fn hot_rows(run: &TableRun, out: &mut Vec<Finding>) {
    let rows = per_row(run);
    let (reads, writes) = run
        .samples
        .iter()
        .fold((0.0, 0.0), |(r, w), s| match s.kind {
            None => (r, w),
            Some(k) if k.is_read() => (r + s.weight, w),
            _ => (r, w + s.weight),
        });
    for (code, total, pick) in [
        (FindingCode::HotRowReads, reads, 1usize),
        (FindingCode::HotRowWrites, writes, 2usize),
    ] {
        if total <= 0.0 {
            continue;
        }
        let best = rows
            .iter()
            .filter(|(_, v)| v.0 >= HOT_ROW_MIN_SAMPLES)
            .map(|(k, v)| (*k, if pick == 1 { v.1 } else { v.2 }))
            .max_by(|a, b| a.1.total_cmp(&b.1).then_with(|| b.0.cmp(a.0)));
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

fn large_and_wide_rows(
    run: &TableRun,
    table: &TableLoad,
    workload: &Workload,
    out: &mut Vec<Finding>,
) {
    // Bytes per row from the writes that hit it (estimated: samples × weight).
    let mut bytes: std::collections::HashMap<&[u8], (f64, f64, u32)> =
        std::collections::HashMap::new();
    let dynamic_cells: f64 = table
        .families
        .iter()
        .flat_map(|f| &f.columns)
        .filter(|c| c.dynamic)
        .count() as f64;
    for s in &run.samples {
        if matches!(s.kind, Some(OpKind::PutNew | OpKind::Update) | None) {
            let e = bytes.entry(s.key(&run.keys)).or_default();
            e.0 += s.bytes;
            e.1 += s.weight * dynamic_cells;
            e.2 += 1;
        }
    }
    // A row's figures are only trusted on enough samples hitting it.
    bytes.retain(|_, v| v.2 >= HOT_ROW_MIN_SAMPLES);
    if let Some((key, (b, _, _))) = bytes
        .iter()
        .max_by(|a, b| a.1 .0.total_cmp(&b.1 .0).then_with(|| b.0.cmp(a.0)))
    {
        if *b >= LARGE_ROW_BYTES {
            out.push(finding(
                FindingCode::LargeRows,
                format!("row '{}'", to_printable(key)),
                *b,
                "bytes",
                LARGE_ROW_BYTES,
                Compare::AtLeast,
                "Keep rows small: move what grows into rows of their own (a tall table) and keep versions few.",
            ));
        }
    }
    if dynamic_cells > 0.0 {
        let days = workload.duration_ms as f64 / 86_400_000.0;
        if let Some((key, (_, cells, _))) = bytes
            .iter()
            .max_by(|a, b| a.1 .1.total_cmp(&b.1 .1).then_with(|| b.0.cmp(a.0)))
        {
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
    let mut prefixes = std::collections::BTreeSet::new();
    let mut puts = 0.0;
    for s in run
        .samples
        .iter()
        .filter(|s| s.kind == Some(OpKind::PutNew))
    {
        let key = s.key(&run.keys);
        prefixes.insert(&key[..(s.prefix_end as usize).min(key.len())]);
        puts += s.weight;
    }
    if puts < MIN_OPERATIONS {
        return;
    }
    let threshold = workload.cluster.region_servers as f64 * LOW_CARDINALITY_PER_SERVER - 1.0;
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

fn hot_entity(run: &TableRun, table: &TableLoad, out: &mut Vec<Finding>) {
    let Some(count) = table.key.iter().find_map(|f| match f {
        KeyField::Entity { count, .. } => Some(*count),
        _ => None,
    }) else {
        return;
    };
    // A hash map: the busiest entity is picked by its operations, then its id, whatever the
    // map's order.
    let mut per: std::collections::HashMap<u64, (f64, std::collections::BTreeSet<&[u8]>)> =
        std::collections::HashMap::new();
    let mut total = 0.0;
    for s in &run.samples {
        if s.is_initial() {
            continue;
        }
        let Some(e) = s.entity else { continue };
        let key = s.key(&run.keys);
        let entry = per.entry(e).or_default();
        entry.0 += s.weight;
        if entry.1.len() < 2 {
            entry
                .1
                .insert(&key[..(s.entity_end as usize).min(key.len())]);
        }
        total += s.weight;
    }
    if total < MIN_OPERATIONS || count < 2 {
        return;
    }
    let Some((entity, (ops, prefixes))) = per
        .iter()
        .max_by(|a, b| a.1 .0.total_cmp(&b.1 .0).then_with(|| b.0.cmp(a.0)))
    else {
        return;
    };
    let share = ops / total;
    let factor = share * count as f64;
    if factor >= HOT_ENTITY_FACTOR && share >= HOT_ENTITY_MIN_SHARE {
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
