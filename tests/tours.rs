//! Every design's guided tour runs on the design as loaded, step after step, and each step's
//! number holds: the relation it states over the numbers its command produced.
mod common;
use common::*;
use rowkey::designs::catalogue;
use rowkey::designs::tour::{tour, View};

#[test]
fn every_tour_runs_and_each_steps_number_holds() -> Result<(), String> {
    let mut failures = Vec::new();
    for design in catalogue() {
        let mut sh = shell_with_design(&design)?;
        for (n, step) in tour(&design).iter().enumerate() {
            let run = step.run(&mut sh, design.tables)?;
            for (claim, held) in &run.checks {
                println!(
                    "{} step {}: {}",
                    design.id,
                    n + 1,
                    claim.explain(&run.measures)
                );
                if !held {
                    failures.push(format!(
                        "{} step {} ({}): {}",
                        design.id,
                        n + 1,
                        step.title,
                        claim.explain(&run.measures)
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
fn a_tour_opens_on_the_keyspace_and_shows_the_hotspot_where_writes_pile_up() -> Result<(), String> {
    let design = rowkey::designs::find("csdn.blog").ok_or("no csdn.blog")?;
    let steps = tour(&design);
    assert_eq!(steps[0].view, View::Keyspace);
    assert_eq!(steps[0].command, "count 'blog'");
    let last = steps.last().ok_or("empty tour")?;
    assert_eq!(last.view, View::Hotspots);
    assert_eq!(last.pattern, Some(3));
    Ok(())
}

#[test]
fn every_tour_runs_every_pattern_of_its_design_in_order() {
    for design in catalogue() {
        let steps = tour(&design);
        let patterns: Vec<usize> = steps.iter().filter_map(|s| s.pattern).collect();
        let all: Vec<usize> = (0..design.patterns.len()).collect();
        assert_eq!(patterns, all, "{}", design.id);
    }
}

#[test]
fn the_hash_against_reverse_tour_shows_reversing_loses_ranges_too() -> Result<(), String> {
    let design = rowkey::designs::find("schema.hash-vs-reverse").ok_or("missing")?;
    let steps = tour(&design);
    let last = steps.last().ok_or("empty tour")?;
    assert!(
        last.title.starts_with("Ids 300100–300199, reversed"),
        "{}",
        last.title
    );
    Ok(())
}
