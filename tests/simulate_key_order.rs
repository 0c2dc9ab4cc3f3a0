//! The samples of a run in key order (`KeyOrder`): built in the run's counting calls, the same
//! however the calls are cut, equal to a stable sort of every sample by key; a drill-down's
//! scope is a span of it found by binary search, holding exactly the samples a pass over every
//! sample finds.

use rowkey::keyvis::{prefixes, Scope};
use rowkey::simulate::heat::{equal_row_ranges, equal_row_ranges_of};
use rowkey::simulate::{
    gallery, simulate, Heat, KeyOrder, KeySort, Metric, Options, Run, TableRun, Timeline, Workload,
};

type R = Result<(), Box<dyn std::error::Error>>;

/// A gallery workload cut to `hours`.
fn workload(id: &str, hours: u64) -> Result<Workload, Box<dyn std::error::Error>> {
    let mut w = gallery::workload(id).ok_or("no workload")?;
    w.duration_ms = hours * 3_600_000;
    Ok(w)
}

/// The reference: every sample's position, stably sorted by key.
fn stable_sort(t: &TableRun) -> Vec<u32> {
    let mut order: Vec<u32> = (0..t.samples.len() as u32).collect();
    order.sort_by(|&a, &b| {
        t.samples[a as usize]
            .key(&t.keys)
            .cmp(t.samples[b as usize].key(&t.keys))
    });
    order
}

/// Salted keys of 23 bytes (their order read from the keys past the sort's 16-byte heads), and
/// sequential ids of 10 digits and their reversals (ordered by the heads and lengths alone).
#[test]
fn the_runs_key_order_is_a_stable_sort_of_its_samples_however_the_calls_are_cut() -> R {
    for (id, longest) in [("schema.salting", 23), ("schema.sequential-ids", 10)] {
        let w = workload(id, 2)?;
        let once = simulate(&w, &Options::default())?;
        for t in &once.tables {
            assert_eq!(
                t.key_order.positions(),
                stable_sort(t).as_slice(),
                "{}",
                t.name
            );
            assert_eq!(t.key_order, KeyOrder::of(&t.samples, &t.keys));
        }
        let t = &once.tables[0];
        let lengths = t.samples.iter().map(|s| s.key(&t.keys).len());
        assert_eq!(lengths.max(), Some(longest), "{id}");
        for samples in [64, 4_096] {
            let mut run = Run::new(w.clone(), Options::default())?;
            while !run.advance(samples)? {}
            assert_eq!(run.finish()?, once, "{id}: slices of {samples} samples");
        }
    }
    Ok(())
}

#[test]
fn a_sort_cut_into_any_budget_is_the_one_shot_sort() -> R {
    let sim = simulate(&workload("schema.salting", 1)?, &Options::default())?;
    let t = &sim.tables[0];
    let whole = KeyOrder::of(&t.samples, &t.keys);
    for budget in [1, 7, 300, 5_000] {
        let mut sort = KeySort::new(t.samples.len());
        let mut calls = 0;
        while !sort.advance(&t.samples, &t.keys, budget) {
            calls += 1;
        }
        assert!(calls > 0, "budget {budget}");
        assert_eq!(sort.finish(&t.samples, &t.keys), whole, "budget {budget}");
    }
    // No samples, one, and fewer than a run.
    assert!(KeyOrder::of(&[], &[]).positions().is_empty());
    let few = &t.samples[..3];
    let order = KeyOrder::of(few, &t.keys);
    let mut expected = vec![0u32, 1, 2];
    expected.sort_by(|&a, &b| {
        few[a as usize]
            .key(&t.keys)
            .cmp(few[b as usize].key(&t.keys))
    });
    assert_eq!(order.positions(), expected.as_slice());
    Ok(())
}

#[test]
fn a_scope_is_the_span_of_its_prefix_with_the_samples_a_full_pass_finds() -> R {
    let sim = simulate(&workload("schema.salting", 2)?, &Options::default())?;
    let t = &sim.tables[0];
    let whole = Scope::whole(t);
    let level = prefixes(t, &whole, 20);
    assert!(level.len() > 1);
    let mut spans = 0;
    for (prefix, _) in &level {
        let scope = whole.into_prefix(prefix);
        let inside = scope.inside(t);
        let expected: Vec<&_> = t
            .samples
            .iter()
            .filter(|s| scope.holds(s.key(&t.keys)))
            .collect();
        let found: Vec<&_> = inside.samples(t).collect();
        assert_eq!(found, expected);
        let by_key: Vec<&[u8]> = inside.samples_by_key(t).map(|s| s.key(&t.keys)).collect();
        assert!(by_key.windows(2).all(|k| k[0] <= k[1]));
        assert_eq!(by_key.len(), expected.len());
        spans += inside.len();
    }
    // Every sample is under one of the eight salt buckets but the window scans (64 a step,
    // 1,440 steps), whose start row is the table's start: they sort first.
    let unkeyed: Vec<&_> = t
        .samples
        .iter()
        .filter(|s| s.key(&t.keys).is_empty())
        .collect();
    assert!(unkeyed.iter().all(|s| s.is_scan()));
    assert_eq!((spans, unkeyed.len(), level.len()), (92_160, 92_160, 8));
    let first = t.key_order.positions()[..unkeyed.len()].iter();
    assert!(first
        .map(|&p| &t.samples[p as usize])
        .eq(unkeyed.iter().copied()));
    assert_eq!(whole.inside(t).len(), t.samples.len());
    Ok(())
}

/// The heat of a drilled scope, its ranges read in key order, is the one a pass over every
/// sample counts (the ranges cut after a sort of the scope's row-making samples), bit for bit.
#[test]
fn a_drilled_scopes_heat_is_the_full_pass_heat_bit_for_bit() -> R {
    let sim = simulate(&workload("schema.salting", 2)?, &Options::default())?;
    let t = &sim.tables[0];
    let whole = Scope::whole(t);
    let metrics = [Metric::Operations, Metric::Writes, Metric::DataSize];
    for (prefix, _) in prefixes(t, &whole, 20) {
        let scope = whole.into_prefix(&prefix);
        let heat = scope.heat_of(t, 100, &metrics);
        let inside: Vec<&_> = t
            .samples
            .iter()
            .filter(|s| scope.holds(s.key(&t.keys)))
            .collect();
        let mut ranges = equal_row_ranges(inside.iter().copied(), &t.keys, 100);
        ranges[0].start = scope.start.clone();
        if let Some(last) = ranges.last_mut() {
            last.end = scope.end.clone();
        }
        let timeline = Timeline {
            step_ms: t.timeline.step_ms,
            ..Timeline::default()
        };
        let full = Heat::over_only(ranges, inside, &t.keys, &timeline, t.heat.steps, &metrics);
        assert_eq!(heat.ranges.len(), 100);
        assert_eq!(heat, full);
    }
    Ok(())
}

/// The run cuts its heat model's ranges after sorting its row-making samples as the key order
/// does; the ranges are those of a sort of the keys themselves.
#[test]
fn the_ranges_cut_after_the_compact_sort_are_the_key_sorts() -> R {
    for id in ["schema.salting", "schema.sequential-ids"] {
        let sim = simulate(&workload(id, 2)?, &Options::default())?;
        for t in &sim.tables {
            for count in [1, 7, 1_000] {
                let compact = equal_row_ranges_of(&t.samples, &t.keys, count);
                assert_eq!(
                    compact,
                    equal_row_ranges(&t.samples, &t.keys, count),
                    "{id}"
                );
            }
            let ranges = equal_row_ranges_of(&t.samples, &t.keys, 1_000);
            assert_eq!(ranges.len(), t.heat.ranges.len());
            assert!(ranges.len() > 100, "{id}: {}", ranges.len());
        }
    }
    Ok(())
}
