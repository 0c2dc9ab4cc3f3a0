//! What the simulator's page shows, driven natively: the run in steps, the heatmap drilled
//! into a prefix and zoomed in time, the regions of a moment sorted as `hbtop` sorts them, the
//! compare sentence and the workload form's edits.

use rowkey::keyvis::{
    apply, busiest_shares, grid_pixels, pair_workload, prefixes, rows_at, side_by_side,
    split_marks, starter, summary_rows, verdict, Attribution, FieldKind, FormAction, Job,
    RegionColumn, RegionSort, Scope, Window,
};
use rowkey::simulate::{gallery, simulate, Metric, Options, Simulation, Workload};

type R = Result<(), Box<dyn std::error::Error>>;

/// The gallery's sequential-ids workload, cut to `hours`.
fn sequential(hours: u64) -> Result<Workload, Box<dyn std::error::Error>> {
    let mut w = gallery::workload("schema.sequential-ids").ok_or("no workload")?;
    w.duration_ms = hours * 3_600_000;
    Ok(w)
}

fn run(w: Workload) -> Result<Simulation, Box<dyn std::error::Error>> {
    let mut job = Job::new(w, Options::default());
    let mut progress = Vec::new();
    while let Some(p) = job.step() {
        progress.push(p);
    }
    // Slices of 4,096 samples: 32 steps of 128; 1,440 steps a table (45 slices), then its
    // figures in 84: the key ranges, 9 grids allocated, 23 counting 8,192 of its 184,320
    // samples each, its data size and two pressures, the heat model, then the findings (the
    // pressures, 45 tallying 4,096 samples per row each, the keys).
    assert_eq!(progress.len(), 258);
    assert_eq!(progress[45], 0.5);
    assert_eq!(progress.last(), Some(&1.0));
    Ok(job.finish()?)
}

#[test]
fn the_stepped_run_is_the_one_shot_run() -> R {
    let w = sequential(2)?;
    let stepped = run(w.clone())?;
    let once = simulate(&w, &Options::default())?;
    assert_eq!(stepped, once);
    Ok(())
}

#[test]
fn a_broken_workload_stops_the_job_at_its_first_step() -> R {
    let mut w = sequential(1)?;
    w.cluster.region_servers = 0;
    let mut job = Job::new(w, Options::default());
    assert_eq!(job.step(), None);
    let e = job.finish().err().ok_or("no error")?;
    assert_eq!(
        e.to_string(),
        "$.cluster.region_servers: at least one region server"
    );
    Ok(())
}

#[test]
fn a_drill_down_counts_only_the_prefix_and_keeps_its_writes() -> R {
    let sim = run(sequential(2)?)?;
    let t = &sim.tables[0];
    let whole = Scope::whole(t);
    let level = prefixes(t, &whole, 20);
    assert!(!level.is_empty());
    let (prefix, ops) = level[0].clone();
    let scope = whole.into_prefix(&prefix);
    let heat = scope.heat(t, 100);
    // Every range inside the prefix.
    assert_eq!(heat.ranges[0].start, prefix);
    for r in &heat.ranges {
        assert!(r.start.starts_with(&prefix) || r.start == prefix);
    }
    // The writes under the prefix, sample by sample, are the grid's.
    let expected: f64 = t
        .samples
        .iter()
        .filter(|s| s.key(&t.keys).starts_with(&prefix) && !s.is_read() && !s.is_initial())
        .map(|s| s.weight)
        .sum();
    let grid: f64 = heat.totals(Metric::Writes).iter().sum();
    assert!((grid - expected).abs() < 1e-6, "{grid} against {expected}");
    let all: f64 = t
        .samples
        .iter()
        .filter(|s| s.key(&t.keys).starts_with(&prefix))
        .map(|s| s.weight)
        .sum();
    assert!((ops - all).abs() < 1e-6);
    assert_eq!(scope.up(), whole);
    Ok(())
}

/// The page recounts a drilled scope for the metric on show only (one grid, not nine); each
/// metric's grid is exactly the one the full model of the scope has, and the whole table's
/// model is read in place, never recounted.
#[test]
fn a_drilled_scope_recounts_the_metric_on_show_as_the_full_model_counts_it() -> R {
    let sim = run(sequential(2)?)?;
    let t = &sim.tables[0];
    let whole = Scope::whole(t);
    assert!(whole.covers_model(t, 1_000));
    let (prefix, _) = prefixes(t, &whole, 20)
        .first()
        .cloned()
        .ok_or("no prefix")?;
    let scope = whole.into_prefix(&prefix);
    assert!(!scope.covers_model(t, 1_000));
    let full = scope.heat(t, 100);
    assert_eq!(full.grids.len(), 9);
    for metric in Metric::ALL {
        let one = scope.heat_of(t, 100, &[metric]);
        assert_eq!(one.grids.len(), 1, "{metric:?}");
        assert_eq!(one.ranges, full.ranges, "{metric:?}");
        assert_eq!(one.grid(metric), full.grid(metric), "{metric:?}");
    }
    Ok(())
}

#[test]
fn the_pixels_are_one_per_cell_brightest_at_the_largest() -> R {
    let values = [0.0, 1.0, 4.0, 2.0, 0.0, 0.0];
    let (px, max) = grid_pixels(&values, 2, 3, Window { first: 1, end: 3 });
    assert_eq!(max, 4.0);
    assert_eq!(px.len(), 2 * 2 * 4);
    assert_eq!(&px[4..8], &[255, 250, 200, 255]); // the largest: pale yellow
    assert_eq!(&px[8..12], &[18, 22, 48, 255]); // none
    let zoomed = Window::all(1440).zoom_in(700);
    assert_eq!(
        zoomed,
        Window {
            first: 340,
            end: 1060
        }
    );
    assert_eq!(zoomed.zoom_out(1440), Window::all(1440));
    Ok(())
}

#[test]
fn the_region_table_sorts_as_hbtop_does() -> R {
    let sim = run(sequential(2)?)?;
    let t = &sim.tables[0];
    let last = sim.steps - 1;
    let rows = rows_at(&t.timeline, last, RegionSort::default());
    assert!(rows.len() >= 2, "{} regions", rows.len());
    // Busiest first: the sequential table's last region takes every sign-up.
    assert!(rows[0].figures.requests_per_sec >= rows[1].figures.requests_per_sec);
    assert_eq!(rows[0].end_key, "");
    let by_key = RegionSort::default().toggle(RegionColumn::StartKey);
    assert!(!by_key.descending);
    let rows = rows_at(&t.timeline, last, by_key);
    assert_eq!(rows[0].start_key, "");
    let flipped = by_key.toggle(RegionColumn::StartKey);
    assert!(flipped.descending);
    let rows = rows_at(&t.timeline, last, flipped);
    assert_eq!(rows[rows.len() - 1].start_key, "");
    Ok(())
}

#[test]
fn splits_and_figures_as_text() -> R {
    let sim = run(sequential(2)?)?;
    let t = &sim.tables[0];
    let whole = Scope::whole(t);
    let marks = split_marks(&t.timeline, &t.heat, &whole);
    assert_eq!(marks.len(), t.timeline.splits.len());
    let rows = summary_rows(&t.heat, Metric::Writes, Window::all(sim.steps), 5);
    assert!(rows.len() <= 5);
    assert!(rows.windows(2).all(|w| w[0].1 >= w[1].1));
    Ok(())
}

#[test]
fn the_compare_sentence_names_the_side_that_holds_up() -> R {
    let sim = run(sequential(3)?)?;
    let (a, b) = (&sim.tables[0], &sim.tables[1]);
    assert_eq!(side_by_side(a, b).len(), 3);
    let sentence = verdict("sg_seq", a, "sg_seq_rev", b);
    println!("{sentence}");
    assert!(
        sentence.starts_with("sg_seq_rev holds up better"),
        "{sentence}"
    );
    Ok(())
}

#[test]
fn the_pairs_have_workloads_of_their_two_tables() -> R {
    let w = pair_workload("sequential-vs-hashed").ok_or("no workload")?;
    assert_eq!(
        w.tables.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
        ["ab_seq", "ab_hashed"]
    );
    let w = pair_workload("plain-vs-salted").ok_or("no workload")?;
    assert_eq!(
        w.tables.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
        ["ab_events", "ab_salted"]
    );
    Ok(())
}

#[test]
fn the_form_writes_the_workload_and_refuses_what_does_not_read() -> R {
    let mut w = starter();
    apply(&mut w, FormAction::RegionServers("8".into()))?;
    apply(&mut w, FormAction::AddField(0, FieldKind::Md5))?;
    apply(&mut w, FormAction::OperationRate(0, 1, "2,500".into()))?;
    apply(&mut w, FormAction::OperationCurve(0, 0, "daily".into()))?;
    assert_eq!(w.cluster.region_servers, 8);
    assert_eq!(w.tables[0].key.len(), 4);
    assert_eq!(w.tables[0].operations[1].rate().per_sec, 2500.0);
    // The JSON the form shows reads back as the same workload.
    assert_eq!(Workload::from_json(&w.to_json())?, w);
    let before = w.clone();
    let e = apply(&mut w, FormAction::RegionServers("eight".into()))
        .err()
        .ok_or("no error")?;
    assert_eq!(e, "region servers: 'eight' is not a number");
    let e = apply(&mut w, FormAction::RegionServers("0".into()))
        .err()
        .ok_or("no error")?;
    assert_eq!(e, "at least one region server");
    // A number the field cannot take is not "not a number".
    for typed in ["-3", "2.5"] {
        let e = apply(&mut w, FormAction::RegionServers(typed.into()))
            .err()
            .ok_or("no error")?;
        assert_eq!(
            e,
            format!("region servers: '{typed}' is not a whole number of 0 or more")
        );
    }
    let e = apply(&mut w, FormAction::DurationHours("abc".into()))
        .err()
        .ok_or("no error")?;
    assert_eq!(e, "hours of traffic: 'abc' is not a number");
    for typed in ["0", "745"] {
        let e = apply(&mut w, FormAction::DurationHours(typed.into()))
            .err()
            .ok_or("no error")?;
        assert_eq!(
            e,
            format!("hours of traffic: {typed} must be above 0 and at most 744")
        );
    }
    assert_eq!(w, before);
    // The document holds the form's limit too: a month at most.
    let json = before.to_json().replacen(
        &format!("\"duration_ms\": {}", before.duration_ms),
        "\"duration_ms\": 2678400001",
        1,
    );
    assert_ne!(json, before.to_json());
    let e = rowkey::simulate::Workload::from_json(&json)
        .err()
        .ok_or("no error")?;
    assert_eq!(
        e.to_string(),
        "$.duration_ms: the duration must be above 0 and at most 2678400000 (744 hours), found 2678400001"
    );
    // A sequence's digits written reversed: the setting the sequential-ids lesson turns on.
    apply(&mut w, FormAction::AddField(0, FieldKind::Sequence))?;
    let f = w.tables[0].key.len() - 1;
    apply(&mut w, FormAction::FieldOrder(0, f, "reversed".into()))?;
    assert!(
        matches!(&w.tables[0].key[f], rowkey::simulate::workload::KeyField::Sequence { format, .. } if format.reverse)
    );
    let e = apply(&mut w, FormAction::FieldOrder(0, f, "sideways".into()))
        .err()
        .ok_or("no error")?;
    assert_eq!(e, "no digit order 'sideways'");
    Ok(())
}

#[test]
fn a_moment_shows_its_busiest_regions_live_shares() -> R {
    let sim = run(sequential(2)?)?;
    let t = &sim.tables[0];
    let at = |step: usize| busiest_shares(&rows_at(&t.timeline, step, RegionSort::default()));
    // A growing key: at every moment one region takes every sign-up, but for the moments a
    // region split in, when the step's writes went to the parent and then to its daughters.
    let split_steps: Vec<usize> = t
        .timeline
        .splits
        .iter()
        .map(|s| (s.at_ms / t.timeline.step_ms) as usize)
        .collect();
    assert_eq!(split_steps, [38, 63, 126, 190, 240, 304, 367, 430, 1343]);
    let below: Vec<usize> = (0..sim.steps).filter(|&s| at(s).0 != Some(1.0)).collect();
    assert_eq!(below, split_steps);
    assert_eq!(at(63).0, Some(0.8958219178082192));
    // Gets of the last hour's sign-ups spread over the regions that hold them (64 samples a
    // step: 50 of them in one region at step 100).
    assert_eq!(at(100).1, Some(0.78125));
    assert_eq!(at(700).1, Some(0.5625));
    Ok(())
}

#[test]
fn the_compare_table_offers_both_attributions() -> R {
    let sim = run(sequential(2)?)?;
    let hour = &sim.tables[0].hours[1];
    let by_key: Vec<Option<f64>> = Attribution::ByKey
        .shares()
        .iter()
        .map(|(_, f)| f(hour))
        .collect();
    let live: Vec<Option<f64>> = Attribution::Live
        .shares()
        .iter()
        .map(|(_, f)| f(hour))
        .collect();
    assert_eq!(
        by_key,
        [
            hour.busiest_server_write_share,
            hour.busiest_server_read_share,
            hour.busiest_region_write_share,
            hour.busiest_region_read_share
        ]
    );
    assert_eq!(
        live,
        [
            hour.busiest_server_write_share_live,
            hour.busiest_server_read_share_live,
            hour.busiest_region_write_share_live,
            hour.busiest_region_read_share_live
        ]
    );
    // The headings are the same under both: one table, its figures switched.
    let heads = |a: Attribution| a.shares().map(|(h, _)| h);
    assert_eq!(heads(Attribution::ByKey), heads(Attribution::Live));
    Ok(())
}
