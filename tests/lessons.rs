//! Every design states its lesson as relations over the numbers its access patterns yield
//! (rows scanned and returned, regions touched, the busiest region's share of writes, rows
//! written per action, KeyValue bytes per record, runs flushed), and every relation holds.
mod common;
use common::*;
use rowkey::designs::{catalogue, Design};
use rowkey::shell::Shell;

fn loaded(design: &Design) -> Result<Shell, String> {
    let (mut sh, _) = shell_at(1_700_000_000_000);
    for o in sh.run(&(design.setup)()) {
        if let Some(e) = o.error {
            return Err(format!(
                "{}: setup failed at {:?}: {}",
                design.id, o.input, e.message
            ));
        }
    }
    Ok(sh)
}

#[test]
fn every_design_shows_its_lesson_in_numbers() -> Result<(), String> {
    let mut failures = Vec::new();
    for design in catalogue() {
        let claims: usize = design.patterns.iter().map(|p| p.claims.len()).sum();
        if claims == 0 {
            failures.push(format!("{}: no lesson in numbers", design.id));
        }
        let mut sh = loaded(&design)?;
        for (i, p) in design.patterns.iter().enumerate() {
            let run = design.run_pattern(&mut sh, i)?;
            let m = &run.measures;
            println!(
                "{} / {}: reads {} scanned {} returned {} regions {} rows written {} share {:.1}% rows/action {:.2} bytes/record {:.1} runs {} {:?}",
                design.id, p.name, m.reads, m.rows_scanned, m.rows_returned, m.regions_touched,
                m.rows_written, m.busiest_write_share, m.rows_per_action(), m.bytes_per_record(),
                m.runs_flushed, m.flushed_by_family
            );
            for (claim, held) in &run.checks {
                if !held {
                    failures.push(format!("{} / {}: {}", design.id, p.name, claim.explain(m)));
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
fn a_pattern_index_past_the_end_is_an_error() -> Result<(), String> {
    let design = catalogue().into_iter().next().ok_or("empty catalogue")?;
    let mut sh = loaded(&design)?;
    let err = design.run_pattern(&mut sh, 99).err().ok_or("no error")?;
    assert!(err.contains("no access pattern 99"), "{err}");
    Ok(())
}
