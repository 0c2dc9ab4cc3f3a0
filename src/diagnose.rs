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
/// Fewest writes before the write rules speak.
const MIN_WRITES: usize = 200;
/// Rows sampled evenly from the key order for the shape of the keys.
const SAMPLE: usize = 4096;

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
        let distinct: std::collections::HashSet<&[u8]> =
            self.writes.iter().map(|w| w.start.as_slice()).collect();
        distinct.len() * 2 >= self.writes.len()
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

/// The keys begin with one of a handful of values: at most that many places take writes.
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

/// One row takes a large share of the traffic.
fn hot_row(e: &Evidence) -> Option<Finding> {
    if e.ops.len() < MIN_WRITES {
        return None;
    }
    let mut counts: HashMap<&[u8], usize> = HashMap::new();
    for op in e.ops.iter().filter(|o| o.stop.is_none()) {
        *counts.entry(op.start.as_slice()).or_default() += 1;
    }
    let (row, hits) = counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))?;
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
/// reversed timestamp), 13 decimal digits of epoch milliseconds, or 8 big-endian bytes of
/// either.
pub fn key_time(key: &[u8]) -> Option<KeyTime> {
    let digits = key.iter().take_while(|b| b.is_ascii_digit()).count();
    let max = i64::MAX as u64;
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
    }
}
