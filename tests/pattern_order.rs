//! A design's claims hold whatever order its patterns are clicked in: each pattern either
//! holds after anything the others did, or runs first what it assumes. Every design's
//! patterns run in three orders (as listed, reversed, shuffled with a fixed seed), each on a
//! freshly loaded design, and every claim is asserted each time.
mod common;
use common::*;
use rowkey::designs::gen::Gen;
use rowkey::designs::{catalogue, Design};

/// The three orders of `n` patterns.
fn orders(n: usize) -> Vec<(&'static str, Vec<usize>)> {
    let listed: Vec<usize> = (0..n).collect();
    let reversed: Vec<usize> = (0..n).rev().collect();
    let mut shuffled = listed.clone();
    let mut g = Gen::new(26);
    for i in (1..n).rev() {
        shuffled.swap(i, g.below(i as u64 + 1) as usize);
    }
    vec![
        ("as listed", listed),
        ("reversed", reversed),
        ("shuffled", shuffled),
    ]
}

fn failures_in(design: &Design, label: &str, order: &[usize]) -> Result<Vec<String>, String> {
    let mut sh = shell_with_design(design)?;
    let mut out = Vec::new();
    for &i in order {
        let run = design.run_pattern(&mut sh, i)?;
        for (claim, held) in &run.checks {
            if !held {
                out.push(format!(
                    "{} ({label}: {order:?}) / {}: {}",
                    design.id,
                    design.patterns[i].name,
                    claim.explain(&run.measures)
                ));
            }
        }
    }
    Ok(out)
}

#[test]
fn every_claim_holds_in_any_order_of_the_patterns() -> Result<(), String> {
    let mut failures = Vec::new();
    for design in catalogue() {
        for (label, order) in orders(design.patterns.len()) {
            failures.extend(failures_in(&design, label, &order)?);
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}

#[test]
fn the_three_orders_differ() {
    let o = orders(5);
    assert_eq!(o[0].1, [0, 1, 2, 3, 4]);
    assert_eq!(o[1].1, [4, 3, 2, 1, 0]);
    assert_ne!(o[2].1, o[0].1);
    assert_ne!(o[2].1, o[1].1);
}
