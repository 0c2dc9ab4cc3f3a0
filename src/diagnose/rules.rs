//! The rules: each a plain function over the [`Evidence`] that finds something or stays
//! silent, with the numbers that say it.

use crate::kit::hash::FastMap;

use super::key_shape::{key_time_in, leading_field};
use super::{Evidence, Finding, HOT_SHARE, MIN_WRITES};
use crate::engine::Op;
use crate::kit::order;
use crate::kit::text::{human_bytes, thousands};

/// Writes pile up at the end of the key order: a growing key (a timestamp, a sequence).
pub(super) fn growing_key(e: &Evidence) -> Option<Finding> {
    if e.window.writes < MIN_WRITES || !e.many_rows() {
        return None;
    }
    let what = match e.window.newest_write.as_deref().and_then(key_time_in) {
        Some((0, kt)) if !kt.reversed => "the key starts with a timestamp, which only grows",
        _ => "the key starts with a growing value",
    };
    let n = thousands(e.window.writes as u64);
    // A row written after every other row lies in the last region, whatever splits came since.
    let share = e.end_share(true);
    if e.regions >= 2 {
        (share >= HOT_SHARE).then(|| Finding {
            rule: "growing-key",
            text: format!(
                "{} % of the last {n} writes went to the end of the key order, into the one region holding the last keys: {what}. Each split leaves the old rows behind and the region with the new last keys takes every write again.",
                percent(share)
            ),
        })
    } else {
        (share >= HOT_SHARE).then(|| Finding {
            rule: "growing-key",
            text: format!(
                "{} % of the last {n} writes added a row after every other row: {what}. Once the table splits, only its last region will take writes.",
                percent(share)
            ),
        })
    }
}

/// One region takes most of the recent operations, reads or writes: keys that cluster without
/// growing (a timestamp followed by a few metric names), reads that all fall in one key range.
/// ([`super::run`] leaves it out where a growing or decreasing key already says why.)
pub(super) fn hot_region(e: &Evidence) -> Option<Finding> {
    if e.regions < 2 {
        return None;
    }
    let (counts, seen, table) = e.ops_per_region()?;
    if seen < MIN_WRITES as u64 {
        return None;
    }
    let (busiest, top) = counts
        .iter()
        .enumerate()
        .max_by_key(|(i, c)| (**c, std::cmp::Reverse(*i)))?;
    let share = *top as f64 / seen as f64;
    if share < HOT_SHARE {
        return None;
    }
    let region = table.regions.get(busiest)?;
    let bound = |key: &[u8], open: &str| {
        if key.is_empty() {
            open.to_string()
        } else {
            format!("'{}'", crate::bytes::to_printable(key))
        }
    };
    Some(Finding {
        rule: "hot-region",
        text: format!(
            "{} % of the last {} operations went to region {} of {} (keys from {} to {}): one server serves them while the others wait. Spread the rows these operations touch over the key order: a hashed or salted prefix, a field that varies before the one they share, or split points inside that range.",
            percent(share),
            thousands(seen),
            busiest + 1,
            counts.len(),
            bound(&region.start, "the first key"),
            bound(&region.end, "the last key"),
        ),
    })
}

/// Writes pile up at the start: a decreasing key (a reversed timestamp under one prefix).
pub(super) fn decreasing_key(e: &Evidence) -> Option<Finding> {
    if e.window.writes < MIN_WRITES || !e.many_rows() {
        return None;
    }
    let n = thousands(e.window.writes as u64);
    let share = e.end_share(false);
    if share < HOT_SHARE {
        // A reversed timestamp after a prefix writes at the start of that prefix's rows.
        return None;
    }
    let prefix = common_prefix(e.writes().iter().map(|w| w.start.as_slice()));
    let under = if prefix.is_empty() {
        String::new()
    } else {
        format!(
            " under the one prefix '{}'",
            crate::bytes::to_printable(&prefix)
        )
    };
    let what = match e.window.newest_write.as_deref().and_then(key_time_in) {
        Some((_, kt)) if kt.reversed => {
            "the key starts with a reversed timestamp, which only shrinks"
        }
        _ => "the key starts with a decreasing value",
    };
    let place = if e.regions >= 2 {
        "went to the first region"
    } else {
        "added a row before every other row"
    };
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
pub(super) fn low_cardinality_prefix(e: &Evidence) -> Option<Finding> {
    if e.rows < 1000 || e.sample.len() < 100 {
        return None;
    }
    let mut counts: FastMap<&[u8], usize> = FastMap::default();
    for key in &e.sample {
        *counts.entry(leading_field(key)?).or_default() += 1;
    }
    // Every key must have a leading field before a separator.
    if counts.values().sum::<usize>() != e.sample.len() || counts.len() > 8 || counts.len() < 1 {
        return None;
    }
    let mut prefixes: Vec<(&[u8], usize)> = counts.into_iter().collect();
    order::sort_by(&mut prefixes, |a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
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
    if !suffixes_move_one_way(e.writes(), &prefix_set) {
        return None;
    }
    Some(Finding {
        rule: "low-cardinality-prefix",
        text: format!(
            "All {} rows start with one of only {} values ({}{}), the largest holding {} % of them: rows with one prefix sit together, so at most {} regions share the writes however large the table grows.",
            thousands(e.rows as u64),
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
fn suffixes_move_one_way(writes: &[&Op], prefixes: &[&[u8]]) -> bool {
    let mut seen: FastMap<&[u8], (&[u8], &[u8])> = FastMap::default();
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
pub(super) fn hot_row(e: &Evidence) -> Option<Finding> {
    if e.window.ops < MIN_WRITES {
        return None;
    }
    // The most hit row; of rows hit as often, the first in key order.
    let (row, hits) = e.window.hot_row.as_ref()?;
    let share = *hits as f64 / e.window.ops as f64;
    if share < 0.2 || e.rows < 2 {
        return None;
    }
    Some(Finding {
        rule: "hot-row",
        text: format!(
            "{} % of the last {} operations hit the one row '{}': a row is never split, so one region serves all of them.",
            percent(share),
            thousands(e.window.ops as u64),
            crate::bytes::to_printable(row)
        ),
    })
}

/// A row with far more cells than its neighbours that is still being written.
pub(super) fn wide_row(e: &Evidence) -> Option<Finding> {
    let widest = e.widest.first()?;
    let median = e.median_cells.max(1);
    if widest.cells < 1000 || widest.cells < median.saturating_mul(50) {
        return None;
    }
    let into = e.widest_writes;
    let growing = if into > 0 {
        format!(
            ", and {} % of the last {} writes added to it: it grows without bound, and a row is never split, so its region cannot shed it",
            percent(into as f64 / e.window.writes.max(1) as f64),
            thousands(e.window.writes as u64)
        )
    } else {
        ": a row is never split, so its region cannot shed it".to_string()
    };
    Some(Finding {
        rule: "wide-row",
        text: format!(
            "Row '{}' holds {} cells ({}) where the median row holds {}{growing}.",
            crate::bytes::to_printable(&widest.key),
            thousands(u64::from(widest.cells)),
            human_bytes(widest.bytes),
            thousands(u64::from(e.median_cells))
        ),
    })
}

/// Writes go to the end (or the front) of only a few key prefixes: `com.bigshop/item/<n>`,
/// `cpu#<ts>`. However the table splits, each prefix's newest rows sit in one region, so no
/// more regions than prefixes take the writes (the few-domains hotspot). Writes at the end of
/// the whole table are [`growing_key`]'s, at its start [`decreasing_key`]'s.
pub(super) fn growing_within_prefix(e: &Evidence) -> Option<Finding> {
    if e.window.writes < MIN_WRITES
        || !e.many_rows()
        || e.end_share(true) >= HOT_SHARE
        || e.end_share(false) >= HOT_SHARE
    {
        return None;
    }
    // The busiest prefixes (a key without its trailing number): their writes, and how the
    // number moved from one write to the next under each, oldest first.
    let mut top = e.window.top_prefixes.clone();
    let n = e.window.writes;
    let in_top: usize = top.iter().map(|t| t.writes).sum();
    let (up, down): (usize, usize) = top.iter().fold((0, 0), |a, t| (a.0 + t.up, a.1 + t.down));
    let moves = in_top.saturating_sub(top.len());
    if (in_top as f64) < HOT_SHARE * n as f64 || moves < 50 {
        return None;
    }
    let rising = up as f64 >= 0.9 * moves as f64;
    if !rising && (down as f64) < 0.9 * moves as f64 {
        return None;
    }
    // Only the prefixes whose number moves that way, and gets somewhere: one whose falls give
    // back a quarter of its rises or more (a sawtooth, reversed ids: 002101, 102101, …,
    // 902101, 012101) rises from most writes to the next but spreads its writes over the
    // prefix's keys instead of gathering them at its end.
    top.retain(|r| {
        if rising {
            r.up >= r.down && r.fall.saturating_mul(4) < r.rise
        } else {
            r.down >= r.up && r.rise.saturating_mul(4) < r.fall
        }
    });
    let in_top: usize = top.iter().map(|t| t.writes).sum();
    if (in_top as f64) < HOT_SHARE * n as f64 {
        return None;
    }
    let names: Vec<String> = top
        .iter()
        .map(|t| format!("'{}'", crate::bytes::to_printable(&t.prefix)))
        .collect();
    let busiest = top.first().map_or(0, |t| t.writes) as f64 / n as f64;
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
            "{} % of the last {} writes went to {place} of only {k} key prefix{} ({}), the busiest taking {} %: under each prefix {how}, so each prefix's newest rows sit in one region, and at most {k} {} the writes however the table splits.",
            percent(in_top as f64 / n as f64),
            thousands(n as u64),
            if k == 1 { "" } else { "es" },
            names.join(", "),
            percent(busiest),
            if k == 1 { "region takes" } else { "regions take" },
        ),
    })
}

/// Keys start with a short salt bucket, then a number or a time (`3-1700000000123`): the
/// writes spread over the buckets, and a range of the number is one scan per bucket.
pub(super) fn salted_fan_out(e: &Evidence) -> Option<Finding> {
    if e.sample.len() < 100 {
        return None;
    }
    let mut buckets: crate::kit::sorted::SortedSet<&[u8]> = crate::kit::sorted::SortedSet::new();
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
    let ranges = e.window.range_reads;
    let lately = if ranges > 0 {
        format!(
            " Of the last operations, {} were range reads.",
            thousands(ranges as u64)
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
pub(super) fn cell_overhead(e: &Evidence) -> Option<Finding> {
    if e.cell_sizes.len() < 20 {
        return None;
    }
    let cells = e.cell_sizes.len() as f64;
    let key: f64 = e.cell_sizes.iter().map(|c| c.0 as f64).sum::<f64>() / cells
        + crate::engine::KEYVALUE_FRAMING as f64;
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
            thousands(e.cell_sizes.len() as u64)
        ),
    })
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
