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

/// The measures of the pattern named `name` of design `id` at `size`, the patterns before it
/// run first in their order.
fn measures_at(id: &str, size: Size, name: &str) -> Result<rowkey::designs::Measures, String> {
    let design = rowkey::designs::find_at(id, size).ok_or(format!("no design {id}"))?;
    let mut sh = loaded(&design)?;
    for (i, p) in design.patterns.iter().enumerate() {
        let run = design.run_pattern(&mut sh, i)?;
        if p.name.starts_with(name) {
            return Ok(run.measures);
        }
    }
    Err(format!("{id}: no pattern {name}"))
}

#[test]
fn the_secondary_index_is_one_scan_and_a_get_per_line_at_every_size() -> Result<(), String> {
    // (lines of user03, lines in the log) at each size.
    for (size, lines, log) in [
        (Size::Small, 7, 300),
        (Size::Medium, 28, 1_200),
        (Size::Large, 87, 3_600),
    ] {
        let id = "cases.secondary-index";
        let via = measures_at(id, size, "Lines of user03 through the index")?;
        assert_eq!((via.reads, via.rows_scanned), (1 + lines, 2 * lines));
        let full = measures_at(id, size, "Lines of user03 without the index")?;
        assert_eq!(
            (full.reads, full.rows_scanned, full.rows_returned),
            (1, log, lines)
        );
        let write = measures_at(id, size, "A new line and its index row")?;
        assert_eq!(write.rows_written, 2);
        let cut = measures_at(id, size, "A write cut short")?;
        assert_eq!((cut.rows_written, cut.rows_returned), (1, 1));
    }
    Ok(())
}

#[test]
fn a_random_salt_costs_a_get_per_bucket_where_a_hash_costs_one() -> Result<(), String> {
    for size in Size::ALL {
        let id = "schema.random-salt";
        let hashed = measures_at(id, size, "A known event, hash prefix")?;
        let random = measures_at(id, size, "The same event, random salt")?;
        assert_eq!((hashed.reads, hashed.rows_returned), (1, 1));
        assert_eq!((random.reads, random.rows_returned), (8, 1));
    }
    Ok(())
}

#[test]
fn posts_keyed_by_the_second_collide_and_a_counter_keeps_them() -> Result<(), String> {
    for (size, rows, posts) in [
        (Size::Small, 148, 150),
        (Size::Medium, 553, 600),
        (Size::Large, 1_448, 1_800),
    ] {
        let id = "schema.colliding-keys";
        let by_time = measures_at(id, size, "Every post of 042, keyed by time alone")?;
        let counted = measures_at(id, size, "Every post of 042, with a counter")?;
        assert_eq!(by_time.rows_returned, rows, "{size:?}");
        assert_eq!(counted.rows_returned, posts, "{size:?}");
    }
    Ok(())
}

#[test]
fn an_orders_items_are_one_row_mutation_as_columns_and_one_per_row_as_rows() -> Result<(), String> {
    for size in Size::ALL {
        let id = "schema.one-to-many";
        let wide = measures_at(id, size, "Order 00042 with its items, as columns")?;
        assert_eq!((wide.rows_scanned, wide.cells_returned), (1, 10));
        let tall = measures_at(id, size, "Order 00042 with its items, a row each")?;
        assert_eq!((tall.rows_scanned, tall.rows_returned), (10, 10));
        let cancel = measures_at(id, size, "Cancel order 00007, as columns")?;
        assert_eq!(cancel.rows_written, 1);
        let cancel = measures_at(id, size, "Cancel order 00007, a row each")?;
        assert_eq!(cancel.rows_written, 9);
    }
    Ok(())
}

#[test]
fn an_unfollow_is_two_lookups_and_two_deletes_and_100_matches_1001() -> Result<(), String> {
    let id = "follow.unfollow";
    let single = measures_at(id, Size::default(), "1002 unfollows 100")?;
    assert_eq!(
        (single.reads, single.cells_returned, single.rows_written),
        (2, 2, 2)
    );
    let loose = measures_at(
        id,
        Size::default(),
        "Whom 1003 follows under the prefix 100",
    )?;
    assert_eq!(loose.cells_returned, 2, "100 and 1001");
    let exact = measures_at(id, Size::default(), "The same with the dash")?;
    assert_eq!(exact.cells_returned, 1);
    let tall = measures_at(id, Size::default(), "1003 unfollows 100, tall")?;
    // Two rows of 1003's follows, and all nine fan rows (every id starts with 100); 1003's
    // fan row under 1001 comes back beside 100's.
    assert_eq!(
        (tall.rows_scanned, tall.rows_returned, tall.rows_written),
        (11, 3, 2)
    );
    Ok(())
}

#[test]
fn a_few_sites_numbered_upwards_write_to_two_regions_and_at_random_to_many() -> Result<(), String> {
    let id = "schema.few-domains";
    let growing = measures_at(id, Size::default(), "100 new pages of the two big sites")?;
    let random = measures_at(id, Size::default(), "The same 100 pages numbered at random")?;
    assert_eq!(growing.regions_touched, 2);
    assert_eq!(random.regions_touched, 8);
    Ok(())
}
