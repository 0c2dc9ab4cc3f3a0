//! A simulation run from the page: a [`Job`] played in slices of about 25 ms of work, the page
//! getting the thread back between slices, with its progress and a cancel. [`use_sim_run`] returns the
//! handle both the Simulate view and the compare card use.

use std::cell::Cell;
use std::rc::Rc;

use yew::prelude::*;

use crate::keyvis::{next_slice, Job};
use crate::simulate::{Options, Simulation, Workload};

/// A shared value that props compare by identity: one run's results are never compared field
/// by field at every render.
pub struct Shared<T>(pub Rc<T>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// Where a run is.
#[derive(Clone, PartialEq)]
pub enum RunState {
    Idle,
    /// Running: the fraction done and the table under way.
    Running(f64, String),
    /// Done: the simulation, the wall time it took and its longest slice, in ms.
    Done(Shared<Simulation>, f64, f64),
    Failed(String),
    Cancelled,
}

/// The run of a view, and how to start or stop it.
#[derive(Clone, PartialEq)]
pub struct SimRun {
    pub state: UseStateHandle<RunState>,
    cancel: Rc<Cell<u64>>,
}

impl SimRun {
    /// Runs `workload`, replacing a run under way.
    pub fn start(&self, workload: Workload) {
        let serial = self.cancel.get() + 1;
        self.cancel.set(serial);
        let state = self.state.clone();
        let cancel = self.cancel.clone();
        let mut job = Job::new(workload, Options::default());
        state.set(RunState::Running(
            0.0,
            job.next_table().unwrap_or_default().to_string(),
        ));
        wasm_bindgen_futures::spawn_local(async move {
            let began = super::perf_ms();
            let mut samples = 1_024;
            let mut longest = 0.0f64;
            loop {
                // The page paints and takes clicks (a cancel) between two slices, each of
                // about SLICE_MS of work.
                yew::platform::time::sleep(std::time::Duration::from_millis(1)).await;
                if cancel.get() != serial {
                    return;
                }
                let slice = super::perf_ms();
                let before = job.progress();
                let step = job.step_for(samples);
                let took = super::perf_ms() - slice;
                longest = longest.max(took);
                // The budget follows the slices that play simulated time. A call making a
                // table's figures does not teach it: some cost the same whatever the budget
                // (the heat model's ranges, a grid allocated), and a budget doubled after each
                // of those made the next call, which counts and sorts `samples` samples, run
                // for hundreds of ms; those calls cost less a sample than playing one does.
                if step.is_some_and(|p| p > before) {
                    samples = next_slice(samples, took);
                }
                // `None` once the last table has its figures (or the run failed).
                match step {
                    Some(p) => state.set(RunState::Running(
                        p,
                        job.next_table().unwrap_or_default().to_string(),
                    )),
                    None => break,
                }
            }
            let finish = super::perf_ms();
            let result = job.finish();
            let now = super::perf_ms();
            longest = longest.max(now - finish);
            state.set(match result {
                Ok(sim) => RunState::Done(Shared(Rc::new(sim)), now - began, longest),
                Err(e) => RunState::Failed(e.to_string()),
            });
        });
    }

    /// Stops the run under way.
    pub fn cancel(&self) {
        self.cancel.set(self.cancel.get() + 1);
        self.state.set(RunState::Cancelled);
    }

    pub fn running(&self) -> bool {
        matches!(*self.state, RunState::Running(..))
    }
}

#[hook]
pub fn use_sim_run() -> SimRun {
    let state = use_state(|| RunState::Idle);
    let cancel = (*use_memo((), |_| Rc::new(Cell::new(0u64)))).clone();
    SimRun { state, cancel }
}

/// The run's progress or outcome as a line for the page (a live region reads it out).
pub fn status_line(state: &RunState) -> String {
    match state {
        RunState::Idle => String::new(),
        RunState::Running(p, table) => {
            format!("Simulating {table}… {} % done", (p * 100.0).round())
        }
        RunState::Done(sim, took, _) => format!(
            "Simulated {} of traffic on {} in {} s.",
            hours(sim.workload.duration_ms),
            crate::kit::text::count_of(sim.tables.len() as u64, "table"),
            crate::designs::lesson::number((took / 100.0).round() / 10.0)
        ),
        RunState::Failed(e) => format!("The simulation did not run: {e}"),
        RunState::Cancelled => "Cancelled.".into(),
    }
}

/// A duration as hours (`6 hours`, `30 minutes`).
pub fn hours(ms: u64) -> String {
    let (n, unit) = if ms < 3_600_000 {
        ((ms / 60_000).to_string(), "minute")
    } else {
        let h = ms as f64 / 3_600_000.0;
        (
            crate::designs::lesson::number((h * 10.0).round() / 10.0),
            "hour",
        )
    };
    let s = if n == "1" { "" } else { "s" };
    format!("{n} {unit}{s}")
}
