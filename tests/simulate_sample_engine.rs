//! A simulation's own engine: a bounded, deterministic sample of the rows it made, as real
//! rows that gets and scans read, with the ratio of rows simulated to rows sampled and what
//! the sample stands for per region and per key range.

use rowkey::engine::{CellKind, Scan};
use rowkey::simulate::{
    gallery, sample_engine, simulate, Options, SampleBuild, SampleLimits, Simulation, Workload,
};

type R = Result<(), Box<dyn std::error::Error>>;

/// The gallery's sequential-ids workload cut to `hours` in steps of a simulated minute, with
/// `samples` samples per operation per step.
fn sequential(hours: u64, samples: u32) -> Result<Simulation, Box<dyn std::error::Error>> {
    let mut w: Workload = gallery::workload("schema.sequential-ids").ok_or("no workload")?;
    w.duration_ms = hours * 3_600_000;
    w.step_ms = Some(60_000);
    w.samples_per_step = Some(samples);
    Ok(simulate(&w, &Options::default())?)
}

#[test]
fn the_sample_keeps_within_its_cells_and_says_what_it_stands_for() -> R {
    let sim = sequential(1, 64)?;
    // 60 steps × 64 put samples = 3,840 rows a table, one cell each: 7,680 cells over the
    // two tables; within 1,000 cells every 8th is kept.
    let limits = SampleLimits {
        cells: 1_000,
        value_bytes: 1 << 30,
    };
    let sample = sample_engine(&sim, limits)?;
    assert_eq!(sample.cells(), 960);
    for table in &sample.tables {
        assert_eq!(table.stride, 8);
        assert_eq!(table.rows_sampled, 480);
        assert_eq!(table.cells, 480);
        // 2,000 sign-ups a second for an hour.
        assert_eq!(table.rows_simulated, 7_200_000.0);
        assert_eq!(table.ratio(), 15_000.0);
        // What the sample stands for adds up to the rows simulated, per region and per range.
        let by_region: f64 = table.regions.iter().map(|r| r.3).sum();
        let by_range: f64 = table.ranges.iter().map(|r| r.1).sum();
        assert_eq!(by_region, 7_200_000.0);
        assert_eq!(by_range, 7_200_000.0);
        assert_eq!(table.regions.iter().map(|r| r.2).sum::<u64>(), 480);
        assert_eq!(table.ranges.iter().map(|r| r.0).sum::<u64>(), 480);
    }
    // The engine's regions are the simulation's at the end.
    let seq = &sim.tables[0];
    let open = seq
        .timeline
        .regions
        .iter()
        .filter(|r| r.to_ms.is_none())
        .count();
    assert_eq!(sample.engine.table("sg_seq")?.regions.len(), open);
    assert_eq!(sample.tables[0].regions.len(), open);
    Ok(())
}

#[test]
fn gets_and_scans_read_rows_of_the_templates_shape() -> R {
    let sim = sequential(1, 64)?;
    let mut sample = sample_engine(&sim, SampleLimits::default())?;
    // Within the default bounds every put sample is kept.
    assert_eq!(sample.tables[0].stride, 1);
    assert_eq!(sample.tables[0].rows_sampled, 3_840);
    assert_eq!(sample.tables[0].ratio(), 1_875.0);

    let mut scan = Scan {
        limit: Some(3),
        ..Scan::default()
    };
    let out = sample.engine.scan("sg_seq", &mut scan)?;
    assert_eq!(out.rows.len(), 3);
    for row in &out.rows {
        // Ten decimal digits from 1,000,000,000; one cell u:name of 1 KB.
        assert_eq!(row.row().len(), 10);
        assert!(row.row().iter().all(u8::is_ascii_digit));
        assert_eq!(row.row()[0], b'1');
        assert_eq!(row.cells.len(), 1);
        let cell = row.cells.first().ok_or("no cell")?;
        assert_eq!(cell.family, b"u");
        assert_eq!(cell.qualifier, b"name");
        assert_eq!(cell.value.len(), 1024);
        assert_eq!(cell.kind, CellKind::Put);
        assert!(cell.timestamp >= sim.workload.start_ms);
    }
    let first = out.rows[0].row().to_vec();
    let got = sample.engine.scan("sg_seq", &mut Scan::get(&first))?;
    assert_eq!(got.rows.len(), 1);
    assert_eq!(got.rows[0].row(), first);
    // The reversed ids' table: the same ids, digits reversed.
    let mut scan = Scan {
        limit: Some(1),
        ..Scan::default()
    };
    let rev = sample.engine.scan("sg_seq_rev", &mut scan)?;
    assert_eq!(rev.rows[0].row().len(), 10);
    assert_eq!(rev.rows[0].row()[9], b'1');
    Ok(())
}

#[test]
fn the_default_caps_are_250000_cells_and_64_mib_of_values() -> R {
    assert_eq!(SampleLimits::default().cells, 250_000);
    assert_eq!(SampleLimits::default().value_bytes, 64 << 20);
    // 180 steps × 1,024 put samples = 184,320 rows a table, 368,640 cells of 1 KB.
    let sim = sequential(3, 1_024)?;
    // The cells alone: every 2nd row is kept.
    let cells_only = SampleLimits {
        value_bytes: u64::MAX,
        ..SampleLimits::default()
    };
    let sample = sample_engine(&sim, cells_only)?;
    assert_eq!(sample.cells(), 184_320);
    assert_eq!(sample.tables[0].stride, 2);
    assert_eq!(sample.tables[0].rows_sampled, 92_160);
    assert_eq!(sample.tables[0].rows_simulated, 21_600_000.0);
    assert_eq!(sample.tables[0].ratio(), 234.375);
    // Both: 368,640 KB of values is 5.6 × 64 MiB, so every 6th row is kept (60 MiB).
    let sample = sample_engine(&sim, SampleLimits::default())?;
    assert_eq!(sample.tables[0].stride, 6);
    assert_eq!(sample.cells(), 61_440);
    assert_eq!(sample.tables[0].ratio(), 21_600_000.0 / 30_720.0);
    // The same simulation gives the same sample.
    let again = sample_engine(&sim, SampleLimits::default())?;
    assert_eq!(again.tables, sample.tables);
    Ok(())
}

/// A gallery workload cut to an hour in steps of a simulated minute, 64 samples per operation
/// per step.
fn gallery_hour(id: &str) -> Result<Simulation, Box<dyn std::error::Error>> {
    let mut w: Workload = gallery::workload(id).ok_or("no workload")?;
    w.duration_ms = 3_600_000;
    w.step_ms = Some(60_000);
    w.samples_per_step = Some(64);
    Ok(simulate(&w, &Options::default())?)
}

#[test]
fn updates_put_a_sampled_row_again_as_often_as_the_rows_it_stands_for_are_updated() -> R {
    // One gauge row there from the start, rewritten once a second: 3,840 update samples of
    // 0.9375 updates each are 3,600 updates of the one row it stands for.
    let sim = gallery_hour("schema.frequent-updates")?;
    let mut sample = sample_engine(&sim, SampleLimits::default())?;
    let gauge = &sample.tables[0];
    assert_eq!(gauge.name, "sg_memusage_one");
    assert_eq!(
        (
            gauge.stride,
            gauge.rows_sampled,
            gauge.updates,
            gauge.deletes,
            gauge.cells
        ),
        (1, 1, 3_600, 0, 3_601)
    );
    // The get reads the newest version, at the last update's simulated time.
    let got = sample
        .engine
        .scan("sg_memusage_one", &mut Scan::get(b"memusage"))?;
    assert_eq!(got.rows.len(), 1);
    assert_eq!(got.rows[0].cells.len(), 1);
    let last = sim.tables[0]
        .samples
        .iter()
        .filter(|s| s.kind == Some(rowkey::simulate::OpKind::Update))
        .map(|s| s.at_ms)
        .max()
        .ok_or("no update")?;
    let newest = got.rows[0].cells.first().ok_or("no cell")?;
    assert_eq!(newest.timestamp, sim.workload.start_ms + last);
    // A raw scan of every version: the initial put and its 3,600 updates.
    let mut raw = Scan {
        raw: true,
        max_versions: u32::MAX,
        ..Scan::get(b"memusage")
    };
    let out = sample.engine.scan("sg_memusage_one", &mut raw)?;
    assert_eq!(out.rows[0].cells.len(), 3_601);
    Ok(())
}

#[test]
fn deletes_remove_sampled_rows_in_proportion_to_the_rows_they_stand_for() -> R {
    // fu_follows: 1,000 follows and 100 unfollows a second. Each put sample stands for 937.5
    // rows, each delete sample for 93.75 deletes: one sampled row goes every ten.
    let sim = gallery_hour("follow.unfollow")?;
    let mut sample = sample_engine(&sim, SampleLimits::default())?;
    let follows = sample
        .tables
        .iter()
        .find(|t| t.name == "fu_follows")
        .ok_or("no fu_follows")?
        .clone();
    assert_eq!(
        (
            follows.stride,
            follows.rows_sampled,
            follows.updates,
            follows.deletes
        ),
        (1, 3_840, 0, 384)
    );
    // A row's put cell, and one DeleteFamily marker per deleted row.
    assert_eq!(follows.cells, 3_840 + 384);
    let live = follows.rows_sampled - follows.deletes;
    assert_eq!(follows.regions.iter().map(|r| r.2).sum::<u64>(), live);
    assert_eq!(follows.ranges.iter().map(|r| r.0).sum::<u64>(), live);
    // The engine reads the deleted rows as gone (HBase's Delete of a whole row: a
    // DeleteFamily marker masks the cells at or before its timestamp) ...
    let out = sample.engine.scan("fu_follows", &mut Scan::default())?;
    assert_eq!(out.rows.len() as u64, live);
    // ... while a raw scan still shows every cell and the markers over them.
    let mut raw = Scan {
        raw: true,
        max_versions: u32::MAX,
        ..Scan::default()
    };
    let out = sample.engine.scan("fu_follows", &mut raw)?;
    let cells: Vec<_> = out.rows.iter().flat_map(|r| &r.cells).collect();
    assert_eq!(cells.len(), 3_840 + 384);
    assert_eq!(
        cells
            .iter()
            .filter(|c| c.kind == CellKind::DeleteFamily)
            .count(),
        384
    );
    // The same simulation deletes the same rows.
    let again = sample_engine(&sim, SampleLimits::default())?;
    assert_eq!(again.tables, sample.tables);
    Ok(())
}

/// Every cell of every table of a sample, raw (delete markers and every version included).
fn cells(
    sample: &mut rowkey::simulate::SampleEngine,
) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let names: Vec<String> = sample.tables.iter().map(|t| t.name.clone()).collect();
    let mut out = Vec::new();
    for name in names {
        let mut raw = Scan {
            raw: true,
            max_versions: u32::MAX,
            ..Scan::default()
        };
        for row in sample.engine.scan(&name, &mut raw)?.rows {
            let key = row.row().to_vec();
            for c in row.cells {
                out.push(format!(
                    "{name} {:?} {:?} {:?} {} {:?} {}",
                    key,
                    c.family,
                    c.qualifier,
                    c.timestamp,
                    c.kind,
                    c.value.len()
                ));
            }
        }
    }
    Ok(out)
}

/// The page builds the sample in slices (`SampleBuild::advance`, a bounded number of writes a
/// call): however the calls are cut, the engine and what it stands for are the one-shot
/// build's, the progress rising to 1.
#[test]
fn a_sample_built_in_slices_is_the_one_shot_sample() -> R {
    let sim = gallery_hour("follow.unfollow")?;
    let mut once = sample_engine(&sim, SampleLimits::default())?;
    let expected = cells(&mut once)?;
    // The cells a raw scan reads (the versions the families keep, the delete markers).
    assert_eq!((expected.len(), once.cells()), (27_459, 32_256));
    for writes in [1, 97, 4_096] {
        let mut build = SampleBuild::new(&sim, SampleLimits::default());
        let mut progress = vec![build.progress()];
        while !build.advance(&sim, writes)? {
            progress.push(build.progress());
        }
        progress.push(build.progress());
        assert!(progress.windows(2).all(|p| p[0] <= p[1]), "{writes}");
        assert_eq!((progress[0], progress.last().copied()), (0.0, Some(1.0)));
        assert!(progress.len() > 2, "{writes}");
        let mut sliced = build.finish(&sim)?;
        assert_eq!(sliced.tables, once.tables, "slices of {writes} writes");
        assert_eq!(cells(&mut sliced)?, expected, "slices of {writes} writes");
    }
    Ok(())
}
