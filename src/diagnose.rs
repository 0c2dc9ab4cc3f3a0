//! Diagnosis in words: what a table's traffic and keys say about its row-key design, with the
//! numbers that say it. One module for every table, the gallery's and the user's own alike:
//! [`Evidence`] is gathered once from the table's activity and key index, and each rule of
//! [`RULES`] is a plain function over it that either finds something or stays silent.
//!
//! ```
//! use rowkey::engine::{Engine, FamilyDescriptor, Mutation, TableDescriptor};
//! let mut e = Engine::new(Box::new(|| 1_700_000_000_000));
//! e.create_table(TableDescriptor::new("events", vec![FamilyDescriptor::new("d")]), vec![]).unwrap();
//! for i in 0..3000u64 {
//!     let put = Mutation::Put { family: b"d".to_vec(), qualifier: b"v".to_vec(),
//!         timestamp: None, value: b"some bytes".to_vec(), ttl_ms: None };
//!     e.mutate("events", (1_700_000_000_000u64 + i).to_string().as_bytes(), &[put]).unwrap();
//! }
//! let findings = rowkey::diagnose::diagnose(&e, "events");
//! assert_eq!(findings[0].rule, "growing-key");
//! assert!(findings[0].text.contains("went to the last region"));
//! ```

use std::collections::HashMap;

use crate::engine::{Engine, KeyEntry, Op, OpKind, Table};

/// Operations the rules look back over.
pub const WINDOW: usize = 10_000;
/// Operations the region heat and the skew figure count, against today's regions: few enough
/// that the regions they ran on are, mostly, still the regions there are (over a long window
/// a growing key's writes land in regions that have split since, and would look even).
pub const RECENT: usize = 200;
/// Fewest writes before the write rules speak.
const MIN_WRITES: usize = 200;
/// Rows sampled evenly from the key order for the shape of the keys.
const SAMPLE: usize = 4096;
/// Rows of the sample whose cells are read for their sizes.
const CELL_ROWS: usize = 32;

/// What one rule found.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// The rule's name (stable, for tests and styling).
    pub rule: &'static str,
    /// One or two sentences with the numbers.
    pub text: String,
}

/// A rule: a function over the evidence.
pub type Rule = fn(&Evidence) -> Option<Finding>;

/// Every rule, in the order findings are shown.
pub const RULES: &[(&str, Rule)] = &[
    ("growing-key", growing_key),
    ("decreasing-key", decreasing_key),
    ("low-cardinality-prefix", low_cardinality_prefix),
    ("hot-row", hot_row),
    ("wide-row", wide_row),
    ("growing-within-prefix", growing_within_prefix),
    ("salted-fan-out", salted_fan_out),
    ("cell-overhead", cell_overhead),
];

/// Everything the rules read about one table, gathered once.
#[derive(Clone, Debug, Default)]
pub struct Evidence {
    pub table: String,
    pub regions: usize,
    pub rows: usize,
    /// The last writes (up to [`WINDOW`]), newest first.
    pub writes: Vec<Op>,
    /// The last operations of either kind (up to [`WINDOW`]), newest first.
    pub ops: Vec<Op>,
    /// Of `writes`, how many fell in each region as the table is now.
    pub writes_per_region: Vec<u64>,
    /// Rows sampled evenly over the key order.
    pub sample: Vec<Vec<u8>>,
    /// The widest rows, widest first.
    pub widest: Vec<KeyEntry>,
    /// The median cells per row in the sample.
    pub median_cells: u32,
    /// `(row + family + qualifier bytes, value bytes)` of the cells of a few sampled rows.
    pub cell_sizes: Vec<(usize, usize)>,
    /// [`Evidence::many_rows`], worked out once: three rules ask it.
    many: std::cell::OnceCell<bool>,
}

impl Evidence {
    /// The evidence of a table (`None` when it does not exist).
    pub fn gather(engine: &Engine, table: &str) -> Option<Evidence> {
        let t = engine.table(table).ok()?;
        let mut e = Evidence {
            table: table.to_string(),
            regions: t.regions.len(),
            rows: t.keys.row_count(),
            ..Evidence::default()
        };
        if let Some(act) = engine.activity(table) {
            e.writes = act.last(OpKind::Write, WINDOW).cloned().collect();
            e.ops = act.ops().rev().take(WINDOW).cloned().collect();
            e.writes_per_region = act.per_region(t, Some(OpKind::Write), WINDOW).0;
        }
        e.sample_keys(t);
        e.sample_cells(engine);
        Some(e)
    }

    fn sample_keys(&mut self, t: &Table) {
        let n = t.keys.row_count();
        let step = n.div_ceil(SAMPLE).max(1);
        let mut cells = Vec::new();
        for i in (0..n).step_by(step) {
            if let Some(k) = t.keys.get(i) {
                self.sample.push(k.key.to_vec());
                cells.push(k.cells);
            }
        }
        cells.sort_unstable();
        self.median_cells = cells.get(cells.len() / 2).copied().unwrap_or(0);
        self.widest = t.keys.widest(3).into_iter().cloned().collect();
    }

    /// The cells of up to [`CELL_ROWS`] rows spread over the sample, read without touching the
    /// table's statistics.
    fn sample_cells(&mut self, engine: &Engine) {
        let step = self.sample.len().div_ceil(CELL_ROWS).max(1);
        for key in self.sample.iter().step_by(step) {
            let Ok(out) = engine.read(&self.table, &mut crate::engine::Scan::get(key)) else {
                return;
            };
            for cell in out.rows.iter().flat_map(|r| &r.cells) {
                let key_bytes = cell.row.len() + cell.family.len() + cell.qualifier.len();
                self.cell_sizes.push((key_bytes, cell.value.len()));
            }
        }
    }

    /// Share of the recent writes that went to region `i` (0 without writes).
    pub fn region_share(&self, i: usize) -> f64 {
        let n = self.writes.len();
        if n == 0 {
            return 0.0;
        }
        self.writes_per_region.get(i).copied().unwrap_or(0) as f64 / n as f64
    }

    /// Whether the recent writes went mostly to different rows (not one row again and again).
    fn many_rows(&self) -> bool {
        *self.many.get_or_init(|| {
            let distinct = row_counts(self.writes.iter()).len();
            distinct * 2 >= self.writes.len()
        })
    }

    /// Share of the recent writes whose row was, when written, at the given end of the keys.
    fn end_share(&self, last: bool) -> f64 {
        let n = self.writes.len();
        if n == 0 {
            return 0.0;
        }
        let at_end = self
            .writes
            .iter()
            .filter(|w| {
                if last {
                    w.place >= 0.999
                } else {
                    w.place <= 0.001
                }
            })
            .count();
        at_end as f64 / n as f64
    }
}

/// The rows of single-row operations with how many there were, in key order (sorting beats
/// hashing ten thousand keys in WebAssembly).
fn row_counts<'a>(ops: impl Iterator<Item = &'a Op>) -> Vec<(&'a [u8], usize)> {
    let mut rows: Vec<&[u8]> = ops.map(|o| o.start.as_slice()).collect();
    rows.sort_unstable();
    let mut out: Vec<(&[u8], usize)> = Vec::new();
    for row in rows {
        match out.last_mut() {
            Some((last, n)) if *last == row => *n += 1,
            _ => out.push((row, 1)),
        }
    }
    out
}

/// Runs every rule over a table's evidence.
pub fn diagnose(engine: &Engine, table: &str) -> Vec<Finding> {
    match Evidence::gather(engine, table) {
        Some(e) => run(&e),
        None => Vec::new(),
    }
}

/// Runs every rule over gathered evidence.
pub fn run(evidence: &Evidence) -> Vec<Finding> {
    RULES
        .iter()
        .filter_map(|(_, rule)| rule(evidence))
        .collect()
}

// ---- the rules -------------------------------------------------------------------------

/// Writes pile up at the end of the key order: a growing key (a timestamp, a sequence).
fn growing_key(e: &Evidence) -> Option<Finding> {
    if e.writes.len() < MIN_WRITES || !e.many_rows() {
        return None;
    }
    let what = match e.writes.first().and_then(|w| key_time_in(&w.start)) {
        Some((0, kt)) if !kt.reversed => "the key starts with a timestamp, which only grows",
        _ => "the key starts with a growing value",
    };
    let n = group(e.writes.len() as u64);
    // A row written after every other row lies in the last region, whatever splits came since.
    let share = e.end_share(true);
    if e.regions >= 2 {
        (share >= 0.8).then(|| Finding {
            rule: "growing-key",
            text: format!(
                "{} % of the last {n} writes went to the last region: {what}. Each split leaves the old rows behind and the new last region takes every write again.",
                percent(share)
            ),
        })
    } else {
        (share >= 0.8).then(|| Finding {
            rule: "growing-key",
            text: format!(
                "{} % of the last {n} writes added a row after every other row: {what}. Once the table splits, only its last region will take writes.",
                percent(share)
            ),
        })
    }
}

/// Writes pile up at the start: a decreasing key (a reversed timestamp under one prefix).
fn decreasing_key(e: &Evidence) -> Option<Finding> {
    if e.writes.len() < MIN_WRITES || !e.many_rows() {
        return None;
    }
    let n = group(e.writes.len() as u64);
    let prefix = common_prefix(e.writes.iter().map(|w| w.start.as_slice()));
    let under = if prefix.is_empty() {
        String::new()
    } else {
        format!(
            " under the one prefix '{}'",
            crate::bytes::to_printable(&prefix)
        )
    };
    let what = match e.writes.first().and_then(|w| key_time_in(&w.start)) {
        Some((_, kt)) if kt.reversed => {
            "the key starts with a reversed timestamp, which only shrinks"
        }
        _ => "the key starts with a decreasing value",
    };
    let share = e.end_share(false);
    let place = if e.regions >= 2 {
        "went to the first region"
    } else {
        "added a row before every other row"
    };
    if share < 0.8 {
        // A reversed timestamp after a prefix writes at the start of that prefix's rows.
        return None;
    }
    Some(Finding {
        rule: "decreasing-key",
        text: format!(
            "{} % of the last {n} writes {place}{under}: {what}, so the newest rows always land at the front.",
            percent(share)
        ),
    })
}

/// The keys begin with one of a handful of values and, under each, the newest row is always
/// the largest (or the smallest): at most that many places take writes.
fn low_cardinality_prefix(e: &Evidence) -> Option<Finding> {
    if e.rows < 1000 || e.sample.len() < 100 {
        return None;
    }
    let mut counts: HashMap<&[u8], usize> = HashMap::new();
    for key in &e.sample {
        *counts.entry(leading_field(key)?).or_default() += 1;
    }
    // Every key must have a leading field before a separator.
    if counts.values().sum::<usize>() != e.sample.len() || counts.len() > 8 || counts.len() < 1 {
        return None;
    }
    let mut prefixes: Vec<(&[u8], usize)> = counts.into_iter().collect();
    prefixes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let names: Vec<String> = prefixes
        .iter()
        .take(4)
        .map(|(p, _)| format!("'{}'", crate::bytes::to_printable(p)))
        .collect();
    let top = prefixes.first().map(|p| p.1).unwrap_or(0) as f64 / e.sample.len() as f64;
    // Few prefixes cap the regions that take writes only when each prefix's newest row sits
    // at one end of its range: what follows the prefix must always grow, or always shrink.
    // Random suffixes spread a prefix's writes over all of its regions.
    let prefix_set: Vec<&[u8]> = prefixes.iter().map(|p| p.0).collect();
    if !suffixes_move_one_way(&e.writes, &prefix_set) {
        return None;
    }
    Some(Finding {
        rule: "low-cardinality-prefix",
        text: format!(
            "All {} rows start with one of only {} values ({}{}), the largest holding {} % of them: rows with one prefix sit together, so at most {} regions share the writes however large the table grows.",
            group(e.rows as u64),
            prefixes.len(),
            names.join(", "),
            if prefixes.len() > 4 { ", …" } else { "" },
            percent(top),
            prefixes.len()
        ),
    })
}

/// Whether, write after write (oldest first), the row written under each of `prefixes` was
/// past every earlier one under that prefix, on the same side nine times in ten over at least
/// 50 writes: the newest row is always the largest (or always the smallest). A sawtooth or a
/// shuffle that lands inside the prefix's range does not count, however its steps run.
fn suffixes_move_one_way(writes: &[Op], prefixes: &[&[u8]]) -> bool {
    let mut seen: HashMap<&[u8], (&[u8], &[u8])> = HashMap::new();
    let (mut past_end, mut before_front, mut moves) = (0usize, 0usize, 0usize);
    for w in writes.iter().rev() {
        let row = w.start.as_slice();
        let Some(prefix) = leading_field(row).filter(|p| prefixes.contains(p)) else {
            continue;
        };
        match seen.get_mut(prefix) {
            None => {
                seen.insert(prefix, (row, row));
            }
            Some((low, high)) => {
                moves += 1;
                if row > *high {
                    past_end += 1;
                    *high = row;
                } else if row < *low {
                    before_front += 1;
                    *low = row;
                }
            }
        }
    }
    moves >= 50 && (past_end.max(before_front) as f64) >= 0.9 * moves as f64
}

/// One row takes a large share of the traffic.
fn hot_row(e: &Evidence) -> Option<Finding> {
    if e.ops.len() < MIN_WRITES {
        return None;
    }
    // The most hit row; of rows hit as often, the first in key order.
    let (row, hits) = row_counts(e.ops.iter().filter(|o| o.stop.is_none()))
        .into_iter()
        .fold(None::<(&[u8], usize)>, |best, (row, n)| match best {
            Some((_, most)) if most >= n => best,
            _ => Some((row, n)),
        })?;
    let share = hits as f64 / e.ops.len() as f64;
    if share < 0.2 || e.rows < 2 {
        return None;
    }
    Some(Finding {
        rule: "hot-row",
        text: format!(
            "{} % of the last {} operations hit the one row '{}': a row is never split, so one region serves all of them.",
            percent(share),
            group(e.ops.len() as u64),
            crate::bytes::to_printable(row)
        ),
    })
}

/// A row with far more cells than its neighbours that is still being written.
fn wide_row(e: &Evidence) -> Option<Finding> {
    let widest = e.widest.first()?;
    let median = e.median_cells.max(1);
    if widest.cells < 1000 || widest.cells < median.saturating_mul(50) {
        return None;
    }
    let into = e
        .writes
        .iter()
        .filter(|w| w.start.as_slice() == &*widest.key)
        .count();
    let growing = if into > 0 {
        format!(
            ", and {} % of the last {} writes added to it: it grows without bound, and a row is never split, so its region cannot shed it",
            percent(into as f64 / e.writes.len().max(1) as f64),
            group(e.writes.len() as u64)
        )
    } else {
        ": a row is never split, so its region cannot shed it".to_string()
    };
    Some(Finding {
        rule: "wide-row",
        text: format!(
            "Row '{}' holds {} cells ({}) where the median row holds {}{growing}.",
            crate::bytes::to_printable(&widest.key),
            group(u64::from(widest.cells)),
            human_bytes(widest.bytes),
            group(u64::from(e.median_cells))
        ),
    })
}

/// Writes go to the end (or the front) of only a few key prefixes: `com.bigshop/item/<n>`,
/// `cpu#<ts>`. However the table splits, each prefix's newest rows sit in one region, so no
/// more regions than prefixes take the writes (the few-domains hotspot). Writes at the end of
/// the whole table are [`growing_key`]'s, at its start [`decreasing_key`]'s.
fn growing_within_prefix(e: &Evidence) -> Option<Finding> {
    if e.writes.len() < MIN_WRITES
        || !e.many_rows()
        || e.end_share(true) >= 0.8
        || e.end_share(false) >= 0.8
    {
        return None;
    }
    // Per prefix (the key without its trailing number): writes, and how the number moved
    // from one write to the next, oldest first.
    #[derive(Default)]
    struct Run {
        writes: usize,
        last: Option<u64>,
        up: usize,
        down: usize,
    }
    let mut runs: HashMap<&[u8], Run> = HashMap::new();
    for w in e.writes.iter().rev() {
        let Some((prefix, n)) = trailing_number(&w.start) else {
            continue;
        };
        let run = runs.entry(prefix).or_default();
        run.writes += 1;
        match run.last {
            Some(prev) if n > prev => run.up += 1,
            Some(prev) if n < prev => run.down += 1,
            _ => {}
        }
        run.last = Some(n);
    }
    let mut top: Vec<(&[u8], Run)> = runs.into_iter().collect();
    top.sort_by(|a, b| b.1.writes.cmp(&a.1.writes).then(a.0.cmp(b.0)));
    top.truncate(4);
    let n = e.writes.len();
    let in_top: usize = top.iter().map(|t| t.1.writes).sum();
    let (up, down): (usize, usize) = top
        .iter()
        .fold((0, 0), |a, t| (a.0 + t.1.up, a.1 + t.1.down));
    let moves = in_top.saturating_sub(top.len());
    if (in_top as f64) < 0.8 * n as f64 || moves < 50 {
        return None;
    }
    let rising = up as f64 >= 0.9 * moves as f64;
    if !rising && (down as f64) < 0.9 * moves as f64 {
        return None;
    }
    // Only the prefixes whose number moves that way.
    top.retain(|(_, r)| {
        if rising {
            r.up >= r.down
        } else {
            r.down >= r.up
        }
    });
    let in_top: usize = top.iter().map(|t| t.1.writes).sum();
    if (in_top as f64) < 0.8 * n as f64 {
        return None;
    }
    let names: Vec<String> = top
        .iter()
        .map(|(p, _)| format!("'{}'", crate::bytes::to_printable(p)))
        .collect();
    let busiest = top.first().map_or(0, |t| t.1.writes) as f64 / n as f64;
    let (place, how) = if rising {
        ("the end", "the number after it grows")
    } else {
        (
            "the front",
            "the number after it shrinks (a reversed time or id)",
        )
    };
    let k = top.len();
    Some(Finding {
        rule: "growing-within-prefix",
        text: format!(
            "{} % of the last {} writes went to {place} of only {k} key prefix{} ({}), the busiest taking {} %: under each prefix {how}, so each prefix's newest rows sit in one region, and at most {k} region{} take the writes however the table splits.",
            percent(in_top as f64 / n as f64),
            group(n as u64),
            if k == 1 { "" } else { "es" },
            names.join(", "),
            percent(busiest),
            if k == 1 { "" } else { "s" },
        ),
    })
}

/// Keys start with a short salt bucket, then a number or a time (`3-1700000000123`): the
/// writes spread over the buckets, and a range of the number is one scan per bucket.
fn salted_fan_out(e: &Evidence) -> Option<Finding> {
    if e.sample.len() < 100 {
        return None;
    }
    let mut buckets: std::collections::BTreeSet<&[u8]> = std::collections::BTreeSet::new();
    for key in &e.sample {
        let field = leading_field(key).filter(|f| f.len() <= 3)?;
        let rest = key.get(field.len() + 1..)?;
        if rest.iter().take_while(|b| b.is_ascii_digit()).count() < 6 {
            return None;
        }
        buckets.insert(field);
    }
    let n = buckets.len();
    if !(2..=64).contains(&n) {
        return None;
    }
    let show = |b: &&[u8]| format!("'{}'", crate::bytes::to_printable(b));
    let (first, last) = (buckets.first().map(show)?, buckets.last().map(show)?);
    // Range reads lately: a salted range read is a scan per bucket.
    let ranges = e
        .ops
        .iter()
        .filter(|o| o.kind == OpKind::Read && o.stop.is_some())
        .count();
    let lately = if ranges > 0 {
        format!(
            " Of the last operations, {} were range reads.",
            group(ranges as u64)
        )
    } else {
        String::new()
    };
    Some(Finding {
        rule: "salted-fan-out",
        text: format!(
            "Every row starts with one of {n} salt buckets ({first} to {last}) before a number or time: writes of consecutive numbers spread over {n} places, but reading a range of them takes {n} scans, one per bucket, whose rows the client merges.{lately}"
        ),
    })
}

/// The cells carry more key than value: each cell stores its row key, family and qualifier
/// again (plus 20 bytes of KeyValue framing), so long names multiply the table's size.
fn cell_overhead(e: &Evidence) -> Option<Finding> {
    if e.cell_sizes.len() < 20 {
        return None;
    }
    let cells = e.cell_sizes.len() as f64;
    let key: f64 = e.cell_sizes.iter().map(|c| c.0 as f64).sum::<f64>() / cells
        + crate::designs::lesson::KEYVALUE_OVERHEAD as f64;
    let value: f64 = e.cell_sizes.iter().map(|c| c.1 as f64).sum::<f64>() / cells;
    if key < 40.0 || key < 3.0 * value.max(1.0) {
        return None;
    }
    Some(Finding {
        rule: "cell-overhead",
        text: format!(
            "A cell here stores {:.0} bytes of row key, family, qualifier and KeyValue framing for {:.0} bytes of value ({:.1}× the value, over {} sampled cells): every cell repeats them. Shorter family and qualifier names, shorter keys, or several values packed into one cell shrink every cell.",
            key,
            value,
            key / value.max(1.0),
            group(e.cell_sizes.len() as u64)
        ),
    })
}

/// A key split into the bytes before its trailing decimal number and that number (1 to 19
/// digits), when it ends in one.
fn trailing_number(key: &[u8]) -> Option<(&[u8], u64)> {
    let digits = key.iter().rev().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 19 {
        return None;
    }
    let at = key.len() - digits;
    let n = std::str::from_utf8(key.get(at..)?).ok()?.parse().ok()?;
    Some((key.get(..at)?, n))
}

// ---- key shapes ----------------------------------------------------------------------

/// A time a key starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyTime {
    /// Epoch milliseconds.
    pub ms: u64,
    /// Stored as `Long.MAX_VALUE - ms`, so newer rows sort first.
    pub reversed: bool,
    /// Bytes of the key it takes.
    pub len: usize,
}

/// Plausible epoch milliseconds: from 1990 to 2100.
fn plausible(ms: u64) -> bool {
    (631_152_000_000..4_102_444_800_000).contains(&ms)
}

/// The time a key starts with, if it does: a 19-digit decimal near `Long.MAX_VALUE` (a
/// reversed timestamp), 13 decimal digits of epoch milliseconds, 14 digits of a UTC date and
/// time written `yyyyMMddHHmmss`, or 8 big-endian bytes of epoch milliseconds or a reversed
/// timestamp.
pub fn key_time(key: &[u8]) -> Option<KeyTime> {
    let digits = key.iter().take_while(|b| b.is_ascii_digit()).count();
    let max = i64::MAX as u64;
    if digits == 14 {
        let ms = civil_ms(std::str::from_utf8(key.get(..14)?).ok()?)?;
        return plausible(ms).then_some(KeyTime {
            ms,
            reversed: false,
            len: 14,
        });
    }
    if digits == 19 {
        let v: u64 = std::str::from_utf8(key.get(..19)?).ok()?.parse().ok()?;
        let ms = max.checked_sub(v)?;
        return plausible(ms).then_some(KeyTime {
            ms,
            reversed: true,
            len: 19,
        });
    }
    if digits == 13 {
        let ms: u64 = std::str::from_utf8(key.get(..13)?).ok()?.parse().ok()?;
        return plausible(ms).then_some(KeyTime {
            ms,
            reversed: false,
            len: 13,
        });
    }
    let bytes: [u8; 8] = key.get(..8)?.try_into().ok()?;
    let v = u64::from_be_bytes(bytes);
    if plausible(v) {
        return Some(KeyTime {
            ms: v,
            reversed: false,
            len: 8,
        });
    }
    let ms = max.checked_sub(v)?;
    plausible(ms).then_some(KeyTime {
        ms,
        reversed: true,
        len: 8,
    })
}

/// Epoch milliseconds of a UTC `yyyyMMddHHmmss`, when every field is in range.
fn civil_ms(text: &str) -> Option<u64> {
    let field = |at: std::ops::Range<usize>| -> Option<i64> { text.get(at)?.parse().ok() };
    let (y, m, d) = (field(0..4)?, field(4..6)?, field(6..8)?);
    let (hh, mm, ss) = (field(8..10)?, field(10..12)?, field(12..14)?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || hh > 23 || mm > 59 || ss > 59 {
        return None;
    }
    // Days since 1970-01-01 of a proleptic Gregorian date (the era arithmetic of
    // `days_from_civil`: years start in March, so the leap day ends one).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let secs = days * 86_400 + hh * 3_600 + mm * 60 + ss;
    u64::try_from(secs).ok().map(|s| s * 1000)
}

/// The time a key holds at its start or right after its first field (`dev7|<time>`).
pub fn key_time_in(key: &[u8]) -> Option<(usize, KeyTime)> {
    if let Some(t) = key_time(key) {
        return Some((0, t));
    }
    let field = leading_field(key)?.len() + 1;
    key_time(key.get(field..)?).map(|t| (field, t))
}

/// The key's first field: the bytes before the first separator (`|`, `#`, `:`, `-`, `_`,
/// `/`, `,`, `.` or a zero byte), when there is one within the first 16 bytes.
fn leading_field(key: &[u8]) -> Option<&[u8]> {
    let at = key
        .iter()
        .take(16)
        .position(|b| b"|#:-_/,.\0".contains(b))?;
    key.get(..at).filter(|f| !f.is_empty())
}

fn common_prefix<'a>(mut keys: impl Iterator<Item = &'a [u8]>) -> Vec<u8> {
    let Some(first) = keys.next() else {
        return Vec::new();
    };
    let mut len = first.len();
    for k in keys {
        len = first
            .iter()
            .zip(k)
            .take(len)
            .take_while(|(a, b)| a == b)
            .count();
        if len == 0 {
            break;
        }
    }
    first.get(..len).unwrap_or(&[]).to_vec()
}

/// A share as a whole percentage.
fn percent(share: f64) -> String {
    format!("{:.0}", share * 100.0)
}

/// A count with thousands separated: 10,000.
pub fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn human_bytes(n: u64) -> String {
    match n {
        n if n >= 1 << 20 => format!("{:.1} MB", n as f64 / (1 << 20) as f64),
        n if n >= 1 << 10 => format!("{:.1} KB", n as f64 / 1024.0),
        n => format!("{n} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_thousands() {
        assert_eq!(group(0), "0");
        assert_eq!(group(999), "999");
        assert_eq!(group(10_000), "10,000");
        assert_eq!(group(1_234_567), "1,234,567");
    }

    #[test]
    fn times_in_keys() {
        let now = 1_700_000_000_000u64;
        let rev = (i64::MAX as u64 - now).to_string();
        assert_eq!(rev.len(), 19);
        assert_eq!(
            key_time(format!("{rev}|x").as_bytes()),
            Some(KeyTime {
                ms: now,
                reversed: true,
                len: 19
            })
        );
        assert_eq!(
            key_time(b"1700000000000-a").map(|k| k.reversed),
            Some(false)
        );
        assert_eq!(key_time(&now.to_be_bytes()).map(|k| k.ms), Some(now));
        assert_eq!(
            key_time(&(i64::MAX as u64 - now).to_be_bytes()).map(|k| (k.ms, k.reversed)),
            Some((now, true))
        );
        assert_eq!(key_time(b"user0001"), None);
        assert_eq!(
            key_time_in(format!("dev7|{rev}").as_bytes()).map(|t| t.0),
            Some(5)
        );
        assert_eq!(key_time(b"9999999999999"), None);
        // A UTC date and time as 14 digits: 2026-11-24 12:00:00 is 1795521600000.
        assert_eq!(
            key_time(b"20261124120000-sensor1"),
            Some(KeyTime {
                ms: 1_795_521_600_000,
                reversed: false,
                len: 14
            })
        );
        assert_eq!(
            key_time(b"19700101000000").map(|k| k.ms),
            None,
            "1970 is before the plausible years"
        );
        assert_eq!(
            key_time(b"20240229235959").map(|k| k.ms),
            Some(1_709_251_199_000)
        );
        assert_eq!(key_time(b"20261324120000"), None, "month 13");
    }
}
