//! Every design states its lesson as relations over the numbers its access patterns yield
//! (rows scanned and returned, regions touched, the busiest region's share of writes, rows
//! written per action, KeyValue bytes per record, runs flushed), and every relation holds.
mod common;
use common::*;
use rowkey::designs::{catalogue, catalogue_at, Design, Size};
use rowkey::shell::Shell;

fn loaded(design: &Design) -> Result<Shell, String> {
    let (mut sh, _) = shell_at(1_700_000_000_000);
    for o in sh.run(&design.setup_script()) {
        if let Some(e) = o.error {
            return Err(format!(
                "{}: setup failed at {:?}: {}",
                design.id, o.input, e.message
            ));
        }
    }
    Ok(sh)
}

/// Loads every design at `size` and runs its access patterns in order: every claim holds.
fn every_design_shows_its_lesson_at(size: Size) -> Result<(), String> {
    let mut failures = Vec::new();
    for design in catalogue_at(size) {
        let claims: usize = design.patterns.iter().map(|p| p.claims.len()).sum();
        if claims == 0 {
            failures.push(format!("{}: no lesson in numbers", design.id));
        }
        let mut sh = loaded(&design)?;
        for (i, p) in design.patterns.iter().enumerate() {
            let run = design.run_pattern(&mut sh, i)?;
            let m = &run.measures;
            println!(
                "{} {} / {}: reads {} scanned {} returned {} cells {} regions {} rows written {} share {:.1}% rows/action {:.2} bytes/record {:.1} runs {} {:?}",
                size.label(), design.id, p.name, m.reads, m.rows_scanned, m.rows_returned, m.cells_returned, m.regions_touched,
                m.rows_written, m.busiest_write_share, m.rows_per_action(), m.bytes_per_record(),
                m.runs_flushed, m.flushed_by_family
            );
            for (claim, held) in &run.checks {
                if !held {
                    failures.push(format!(
                        "{} {} / {}: {}",
                        size.label(),
                        design.id,
                        p.name,
                        claim.explain(m)
                    ));
                }
            }
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}

#[test]
fn every_design_shows_its_lesson_in_numbers() -> Result<(), String> {
    every_design_shows_its_lesson_at(Size::default())
}

#[test]
fn every_design_shows_its_lesson_at_the_small_size() -> Result<(), String> {
    every_design_shows_its_lesson_at(Size::Small)
}

#[test]
fn every_design_shows_its_lesson_at_the_large_size() -> Result<(), String> {
    every_design_shows_its_lesson_at(Size::Large)
}

#[test]
fn a_pattern_index_past_the_end_is_an_error() -> Result<(), String> {
    let design = catalogue().into_iter().next().ok_or("empty catalogue")?;
    let mut sh = loaded(&design)?;
    let err = design.run_pattern(&mut sh, 99).err().ok_or("no error")?;
    assert!(err.contains("no access pattern 99"), "{err}");
    Ok(())
}

fn pattern_run(id: &str, name: &str) -> Result<(Shell, rowkey::designs::PatternRun), String> {
    let design = rowkey::designs::find(id).ok_or(format!("no design {id}"))?;
    let mut sh = loaded(&design)?;
    let mut last = None;
    // Run the patterns in order up to the one named, as the test of every pattern does.
    for (i, p) in design.patterns.iter().enumerate() {
        let run = design.run_pattern(&mut sh, i)?;
        if p.name.starts_with(name) {
            last = Some(run);
            break;
        }
    }
    let run = last.ok_or(format!("{id}: no pattern {name}"))?;
    Ok((sh, run))
}

#[test]
fn the_blog_querys_bounds_lose_both_edges_of_december() -> Result<(), String> {
    let (mut sh, run) = pattern_run(
        "csdn.range-boundaries",
        "December with the blog query's bounds",
    )?;
    let out = run_titles(&run);
    assert_eq!(out, ["December 31, 23:59:59.000", "mid-December"]);
    let design = rowkey::designs::find("csdn.range-boundaries").ok_or("missing")?;
    let exact = design.run_pattern(&mut sh, 1)?;
    assert_eq!(
        run_titles(&exact),
        [
            "December 31, 23:59:59.500",
            "December 31, 23:59:59.000",
            "mid-December",
            "first millisecond of December"
        ]
    );
    Ok(())
}

/// The `cf:title` values a scan printed, in order.
fn run_titles(run: &rowkey::designs::PatternRun) -> Vec<String> {
    run.outcomes
        .iter()
        .flat_map(|o| o.output.lines())
        .filter_map(|l| l.split("value=").nth(1))
        .map(str::to_string)
        .collect()
}

#[test]
fn four_even_families_flush_four_times_the_runs_at_a_quarter_of_the_size() -> Result<(), String> {
    let (_, one) = pattern_run("schema.family-count", "300 records into one family")?;
    let (_, four) = pattern_run("schema.family-count", "The same into four even families")?;
    let (_, skewed) = pattern_run("schema.family-count", "Four families, one holding")?;
    assert_eq!(four.measures.runs_flushed, 4 * one.measures.runs_flushed);
    assert!(four.measures.bytes_per_run() * 3.0 < one.measures.bytes_per_run());
    // FlushAllLargeStoresPolicy: the large family flushes on its own, the small ones rarely.
    let runs: Vec<u64> = skewed
        .measures
        .flushed_by_family
        .iter()
        .map(|f| f.1)
        .collect();
    assert!(runs[0] > 3 * runs[1], "{runs:?}");
    Ok(())
}

#[test]
fn salting_turns_one_range_read_into_a_scan_per_bucket() -> Result<(), String> {
    let (_, salted) = pattern_run("schema.salting", "One minute of events, salted")?;
    let (_, plain) = pattern_run("schema.salting", "The same minute, plain time keys")?;
    assert_eq!(salted.measures.reads, 8);
    assert_eq!(plain.measures.reads, 1);
    assert_eq!(salted.measures.rows_returned, plain.measures.rows_returned);
    Ok(())
}

#[test]
fn a_celebritys_post_writes_far_more_rows_than_an_ordinary_users() -> Result<(), String> {
    let (_, ordinary) = pattern_run("weibo.fanout", "An ordinary user posts")?;
    let (_, star) = pattern_run("weibo.fanout", "The celebrity u000 posts")?;
    assert!(star.measures.rows_written > 20 * ordinary.measures.rows_written);
    Ok(())
}
