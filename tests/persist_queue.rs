//! The save queue's policy, against a fake store: a command is `saved` only once its plan
//! committed; after a failure nothing is marked saved until a checkpoint commits; retry and
//! Reset are explicit; and a crash at any moment loads a prefix of what was issued that holds
//! everything acknowledged as saved.
mod common;
use common::*;
use rowkey::engine::Engine;
use rowkey::persist::{load, EntrySave, SaveQueue, StorageError, StorageErrorKind, StoredRecords};
use rowkey::shell::Shell;

fn full() -> StorageError {
    StorageError::new(
        StorageErrorKind::Quota,
        "QuotaExceededError",
        "the quota has been exceeded",
    )
}

/// A shell, a queue, a fake store, and the console's tickets.
struct Rig {
    sh: Shell,
    queue: SaveQueue,
    store: StoredRecords,
    tickets: u64,
}

impl Rig {
    fn new() -> Rig {
        let (mut sh, _) = shell_at(1_700_000_000_000);
        sh.engine.record_changes(true);
        Rig {
            sh,
            queue: SaveQueue::default(),
            store: StoredRecords::default(),
            tickets: 0,
        }
    }

    /// Runs a command and queues its save; returns its ticket (0: nothing to save).
    fn run(&mut self, cmd: &str) -> u64 {
        let out = self.sh.run(cmd);
        assert!(out.iter().all(|o| o.error.is_none()), "{cmd}: {out:?}");
        let tickets = &mut self.tickets;
        self.queue
            .record_with(&mut self.sh.engine, || {
                *tickets += 1;
                *tickets
            })
            .unwrap_or(0)
    }

    /// Writes the next plan: commits it to the fake store, or fails it.
    fn step(&mut self, outcome: Result<(), StorageError>) -> bool {
        let Some(plan) = self.queue.next() else {
            return false;
        };
        if outcome.is_ok() {
            self.store.apply(&plan);
        }
        self.queue.finish(outcome);
        true
    }

    fn drain(&mut self) {
        while self.step(Ok(())) {}
    }

    fn retry(&mut self) -> bool {
        if !self.queue.can_retry() {
            return false;
        }
        self.tickets += 1;
        self.queue.retry(&mut self.sh.engine, self.tickets)
    }

    fn reloaded(&self) -> Engine {
        let loaded = load(Box::new(|| 1_700_000_000_000), self.store.clone());
        assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
        loaded.engine
    }
}

#[test]
fn a_failure_drops_what_queued_behind_it_and_nothing_is_saved_until_a_checkpoint() {
    let mut rig = Rig::new();
    let create = rig.run("create 't', 'f'");
    let first = rig.run("put 't', 'a', 'f:q', '1'");
    rig.drain();
    assert_eq!(rig.queue.status(create), EntrySave::Saved);
    assert_eq!(rig.queue.status(first), EntrySave::Saved);
    let saved_state = dump(&rig.sh.engine);

    // Three puts queue three log records; the first fails.
    let lost = rig.run("put 't', 'b', 'f:q', '2'");
    let behind = rig.run("put 't', 'c', 'f:q', '3'");
    let behind2 = rig.run("put 't', 'd', 'f:q', '4'");
    assert_eq!(rig.queue.status(lost), EntrySave::Saving);
    assert!(rig.step(Err(full())));
    assert!(
        !rig.step(Ok(())),
        "the plans behind the failure are dropped, not written after a hole"
    );
    for t in [lost, behind, behind2] {
        assert_eq!(rig.queue.status(t), EntrySave::NotSaved);
    }
    assert_eq!(
        rig.queue.status(first),
        EntrySave::Saved,
        "what committed stays saved"
    );

    // A later small command that would succeed is not queued, and is not saved either.
    let later = rig.run("put 't', 'e', 'f:q', '5'");
    assert!(!rig.step(Ok(())), "nothing is written until Retry");
    assert_eq!(rig.queue.status(later), EntrySave::NotSaved);
    assert!(rig.queue.failure().is_some(), "the failure stands");
    assert_eq!(
        dump(&rig.reloaded()),
        saved_state,
        "the store holds the last saved state"
    );
}

#[test]
fn failure_then_retry_saves_everything_in_one_checkpoint() -> TestResult {
    let mut rig = Rig::new();
    rig.run("create 't', 'f'");
    rig.run("put 't', 'a', 'f:q', '1'");
    rig.run("flush 't'");
    rig.drain();
    let lost = rig.run("put 't', 'b', 'f:q', '2'");
    rig.step(Err(full()));
    let during = rig.run("put 't', 'c', 'f:q', '3'");
    assert!(rig.retry());
    assert!(!rig.retry(), "one retry at a time");
    assert_eq!(rig.queue.status(lost), EntrySave::Saving);
    assert_eq!(rig.queue.status(during), EntrySave::Saving);
    // A command run while the retry is queued goes behind it.
    let after = rig.run("put 't', 'd', 'f:q', '4'");
    let plan = rig.queue.next().ok_or("the retry's plan")?;
    assert!(plan.is_checkpoint());
    assert!(
        plan.put_runs.is_empty(),
        "the flushed run is stored already: a checkpoint writes only runs not yet stored"
    );
    rig.store.apply(&plan);
    rig.queue.finish(Ok(()));
    assert!(rig.queue.failure().is_none());
    assert_eq!(rig.queue.status(lost), EntrySave::Saved);
    assert_eq!(rig.queue.status(during), EntrySave::Saved);
    assert_eq!(rig.queue.status(after), EntrySave::Saving);
    rig.drain();
    assert_eq!(rig.queue.status(after), EntrySave::Saved);
    assert_eq!(dump(&rig.reloaded()), dump(&rig.sh.engine));
    Ok(())
}

#[test]
fn a_failure_during_a_checkpoint_keeps_the_last_good_state_and_the_retry_writes_its_runs(
) -> TestResult {
    let mut rig = Rig::new();
    rig.run("create 't', 'f'");
    rig.run("put 't', 'a', 'f:q', '1'");
    rig.drain();
    let saved_state = dump(&rig.sh.engine);
    rig.run("put 't', 'b', 'f:q', '2'");
    let flush = rig.run("flush 't'");
    rig.step(Ok(()));
    // The flush's checkpoint (with the new run) fails.
    let plan = rig.queue.next().ok_or("the flush's plan")?;
    assert!(plan.is_checkpoint() && plan.put_runs.len() == 1);
    rig.queue.finish(Err(full()));
    assert_eq!(rig.queue.status(flush), EntrySave::NotSaved);
    let loaded = rig.reloaded();
    assert_eq!(
        dump(&loaded).len(),
        saved_state.len() + 1,
        "a, then b from the log"
    );
    // The retry fails too; then it commits, and holds the run that never got stored.
    assert!(rig.retry());
    rig.step(Err(full()));
    assert_eq!(rig.queue.status(flush), EntrySave::NotSaved);
    assert!(rig.retry());
    let plan = rig.queue.next().ok_or("the retry")?;
    assert_eq!(plan.put_runs.len(), 1, "the run the failed checkpoint held");
    rig.store.apply(&plan);
    rig.queue.finish(Ok(()));
    assert_eq!(rig.queue.status(flush), EntrySave::Saved);
    assert_eq!(dump(&rig.reloaded()), dump(&rig.sh.engine));
    Ok(())
}

#[test]
fn reset_during_a_save_clears_the_store_whatever_the_save_in_flight_did() -> TestResult {
    for in_flight_ok in [true, false] {
        let mut rig = Rig::new();
        rig.run("create 't', 'f'");
        rig.run("put 't', 'a', 'f:q', '1'\nflush 't'");
        rig.drain();
        rig.run("put 't', 'b', 'f:q', '2'");
        rig.run("put 't', 'c', 'f:q', '3'");
        let plan = rig.queue.next().ok_or("a plan in flight")?;
        // Reset while that plan is being written.
        let mut fresh = Engine::new(Box::new(|| 1_700_000_000_000));
        fresh.record_changes(true);
        rig.sh.engine = fresh;
        rig.tickets += 1;
        rig.queue.reset(&mut rig.sh.engine, rig.tickets);
        let reset_ticket = rig.tickets;
        if in_flight_ok {
            rig.store.apply(&plan);
            rig.queue.finish(Ok(()));
        } else {
            rig.queue.finish(Err(full()));
            assert!(
                rig.queue.failure().is_none(),
                "a failure of the discarded tables does not stand after Reset"
            );
        }
        let clear = rig.queue.next().ok_or("the reset's plan")?;
        assert!(clear.clear_all && clear.is_checkpoint());
        assert!(
            rig.queue.next().is_none(),
            "the put queued before Reset was dropped"
        );
        rig.store.apply(&clear);
        rig.queue.finish(Ok(()));
        assert_eq!(rig.queue.status(reset_ticket), EntrySave::Saved);
        assert!(rig.store.runs.is_empty() && rig.store.wal.is_empty());
        assert_eq!(rig.reloaded().tables().count(), 0);
        let after = rig.run("create 'n', 'f'");
        rig.drain();
        assert_eq!(rig.queue.status(after), EntrySave::Saved);
        assert_eq!(dump(&rig.reloaded()), dump(&rig.sh.engine));
    }
    Ok(())
}

#[test]
fn a_failed_reset_is_retried_as_a_reset() -> TestResult {
    let mut rig = Rig::new();
    rig.run("create 't', 'f'");
    rig.run("put 't', 'a', 'f:q', '1'\nflush 't'");
    rig.drain();
    let mut fresh = Engine::new(Box::new(|| 1_700_000_000_000));
    fresh.record_changes(true);
    rig.sh.engine = fresh;
    rig.tickets += 1;
    rig.queue.reset(&mut rig.sh.engine, rig.tickets);
    rig.step(Err(full()));
    assert!(rig.retry());
    let plan = rig.queue.next().ok_or("the retry")?;
    assert!(plan.clear_all, "the retry of a Reset clears the store too");
    rig.store.apply(&plan);
    rig.queue.finish(Ok(()));
    assert!(rig.store.runs.is_empty());
    Ok(())
}

#[test]
fn a_crash_at_any_moment_loads_a_prefix_that_holds_everything_acknowledged() {
    for seed in 1..=8u64 {
        let mut rng = rowkey::kit::seeded::Gen::new(seed);
        let mut rig = Rig::new();
        let mut commands: Vec<String> = vec!["create 't', {NAME => 'f', VERSIONS => 2}".into()];
        for i in 0..160 {
            let cmd = match rng.below(20) {
                0 => "flush 't'".to_string(),
                1 => "major_compact 't'".to_string(),
                2 => format!("deleteall 't', 'r{:02}'", rng.below(40)),
                3 => format!("create 'x{i}', 'g'"),
                4 => "alter 't', NAME => 'f', VERSIONS => 3".to_string(),
                _ => format!("put 't', 'r{:02}', 'f:q', 'v{i}'", rng.below(40)),
            };
            commands.push(cmd);
        }
        // states[i]: the tables after command i; tickets[i]: its save ticket (0: none).
        let mut states: Vec<Vec<String>> = vec![Vec::new()];
        let mut tickets: Vec<u64> = vec![0];
        for cmd in &commands {
            tickets.push(rig.run(cmd));
            states.push(dump(&rig.sh.engine));
            // Write a few plans; some fail; sometimes the person retries.
            for _ in 0..rng.below(3) {
                let outcome = if rng.below(6) == 0 {
                    Err(full())
                } else {
                    Ok(())
                };
                rig.step(outcome);
            }
            if rig.queue.failure().is_some() && rng.below(3) == 0 {
                rig.retry();
            }
            // A crash now: what loads is the state after some command, no earlier than the
            // last command acknowledged as saved.
            let acknowledged = (0..tickets.len())
                .rev()
                .find(|&i| tickets[i] != 0 && rig.queue.status(tickets[i]) == EntrySave::Saved)
                .unwrap_or(0);
            let loaded = dump(&rig.reloaded());
            let at = (acknowledged..states.len()).find(|&i| states[i] == loaded);
            assert!(
                at.is_some(),
                "seed {seed}: after {:?} the store loads a state that is not a prefix holding command {acknowledged}",
                cmd
            );
        }
        // Once the failures stop, a retry saves everything.
        if rig.queue.failure().is_some() {
            rig.drain();
            rig.retry();
        }
        rig.drain();
        assert!(rig.queue.failure().is_none());
        assert_eq!(dump(&rig.reloaded()), dump(&rig.sh.engine), "seed {seed}");
    }
}
