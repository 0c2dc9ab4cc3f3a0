//! Server timestamps come from the engine's clock (injected here). An increment or append
//! over a future-dated cell writes at `max(current + 1, now)` (`HRegion.reckonDelta`), and
//! that lifts only its own write: the next put is stamped from the clock again.
mod common;
use common::*;

use rowkey::engine::Mutation;

#[test]
fn a_future_dated_cell_does_not_drag_later_server_timestamps() -> TestResult {
    let (mut e, clock) = engine_with(&[("f", 5)])?;
    let future = 9_000_000_000_000;
    e.mutate("t", b"r", &[put("f", "a", Some(future), "x")])?;
    let value = e.append("t", b"r", b"f", b"a", b"y")?;
    assert_eq!(value, b"xy".to_vec());
    assert_eq!(
        versions(&mut e, "r", "f", "a", 1)?,
        vec![(future + 1, "xy".into())]
    );
    clock.set(2_000_000);
    e.mutate("t", b"r", &[put("f", "b", None, "now")])?;
    assert_eq!(
        versions(&mut e, "r", "f", "b", 1)?,
        vec![(2_000_000, "now".into())]
    );
    Ok(())
}

#[test]
fn server_timestamps_follow_the_clock() -> TestResult {
    let (mut e, clock) = engine_with(&[("f", 5)])?;
    clock.set(5_000_000);
    e.mutate("t", b"r", &[put("f", "q", None, "1")])?;
    clock.set(7_000_000);
    e.mutate(
        "t",
        b"r",
        &[Mutation::Put {
            family: "f".into(),
            qualifier: "q".into(),
            timestamp: None,
            value: "2".into(),
            ttl_ms: None,
        }],
    )?;
    assert_eq!(
        versions(&mut e, "r", "f", "q", 5)?,
        vec![(7_000_000, "2".into()), (5_000_000, "1".into())]
    );
    Ok(())
}
