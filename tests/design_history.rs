//! A design loads into the same regions whatever the session did before it: its tables' files,
//! block index midkeys and split points depend only on their own writes. The page loads each
//! design into one long-lived engine, while the native tour test loads each into a fresh one;
//! both must see the same layout for a lesson's figures to agree.
mod common;
use common::*;
use rowkey::designs::catalogue;
use rowkey::designs::tour::tour;
use rowkey::shell::Shell;

/// Tables by name, each with the start keys of its regions.
type Layout = Vec<(String, Vec<Vec<u8>>)>;

/// Every table of the design with the start keys of its regions, as the engine holds them.
fn layout(sh: &Shell, tables: &[&str]) -> Result<Layout, String> {
    tables
        .iter()
        .map(|t| {
            let table = sh.engine.table(t).map_err(|e| format!("{t}: {e}"))?;
            Ok((
                t.to_string(),
                table.regions.iter().map(|r| r.start.clone()).collect(),
            ))
        })
        .collect()
}

/// Loads every design into one shell, after every earlier design and its whole tour, as a
/// person touring the gallery in one page does; each design's regions equal those of the
/// design loaded into a fresh shell. `schema.sequential-ids` is the case that diverged: after
/// other designs the sequence ids written into its files took a byte more, its blocks held
/// fewer cells, and its reversed ids split into three regions instead of four, so the forty
/// new users' busiest region took 50 % of the writes instead of 30 %.
#[test]
fn a_designs_regions_do_not_depend_on_the_designs_before_it() -> Result<(), String> {
    let (mut session, _clock) = shell_at(1_700_000_000_000);
    session.engine.record_changes(true);
    let mut differ = Vec::new();
    for design in catalogue() {
        let fresh = shell_with_design(&design)?;
        if let Some(e) = session
            .run(&design.setup_script())
            .into_iter()
            .find_map(|o| o.error)
        {
            return Err(format!("{}: setup failed: {}", design.id, e.message));
        }
        let (alone, after) = (
            layout(&fresh, design.tables)?,
            layout(&session, design.tables)?,
        );
        if alone != after {
            differ.push(design.id);
        }
        for step in tour(&design) {
            step.run(&mut session, design.tables)?;
        }
        // Its names free for a later design's tables, as the page's gallery frees them.
        for t in design.tables {
            session.run(&format!("disable '{t}'\ndrop '{t}'"));
        }
    }
    assert_eq!(differ, Vec::<&str>::new());
    Ok(())
}

/// The lesson that diverged, with its figures: after the whole gallery up to it, the forty
/// reversed ids go to four regions and the busiest takes 12 of the 40 writes (30 %).
#[test]
fn reversed_ids_spread_after_the_gallery_before_them() -> Result<(), String> {
    let (mut session, _clock) = shell_at(1_700_000_000_000);
    for design in catalogue() {
        session.run(&design.setup_script());
        let steps = tour(&design);
        for step in &steps {
            let run = step.run(&mut session, design.tables)?;
            if design.id == "schema.sequential-ids" && step.pattern == Some(1) {
                assert_eq!(run.measures.regions_touched, 4);
                assert_eq!(run.measures.busiest_write_share, 30.0);
                assert!(run.checks.iter().all(|(_, held)| *held));
                return Ok(());
            }
        }
        for t in design.tables {
            session.run(&format!("disable '{t}'\ndrop '{t}'"));
        }
    }
    Err("schema.sequential-ids has no step for its reversed ids".into())
}
