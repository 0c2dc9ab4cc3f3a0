//! A simulation run in slices: each [`Job::step`] plays a bounded number of samples (whole
//! steps of simulated time), so the page can paint, show progress and take a cancel between
//! two slices; dropping the job cancels it. The result is [`crate::simulate::simulate`]'s,
//! byte for byte, however the slices are cut.

use crate::simulate::{Options, Run, SimulateError, Simulation, Workload, SLICE_SAMPLES};

/// The wall time a page gives one slice, in ms: short enough that a frame is painted and a
/// click is taken between two slices.
pub const SLICE_MS: f64 = 25.0;

/// The samples of the next slice, from the last one's `samples` and the `took_ms` it took:
/// scaled toward [`SLICE_MS`], at most doubled or halved at a time, between 64 and 2^20.
pub fn next_slice(samples: u64, took_ms: f64) -> u64 {
    let scaled = if took_ms <= 0.0 {
        samples.saturating_mul(2)
    } else {
        (samples as f64 * SLICE_MS / took_ms) as u64
    };
    scaled
        .clamp(samples / 2, samples.saturating_mul(2))
        .clamp(64, 1 << 20)
}

/// A run under way.
pub struct Job {
    /// The run, once its workload was checked (at the first step).
    run: Option<Run>,
    /// The workload and options until then.
    pending: Option<(Workload, Options)>,
    error: Option<SimulateError>,
}

impl Job {
    /// A run of `workload`, not started.
    pub fn new(workload: Workload, options: Options) -> Job {
        Job {
            run: None,
            pending: Some((workload, options)),
            error: None,
        }
    }

    /// Plays one slice of [`SLICE_SAMPLES`] samples (the first step checks the workload).
    /// Returns the fraction done, or `None` when nothing is left to do (finished or failed).
    pub fn step(&mut self) -> Option<f64> {
        self.step_for(SLICE_SAMPLES)
    }

    /// Plays one slice of at least `samples` samples (whole steps of simulated time), or the
    /// figures of a table whose time is over. Returns the fraction of the simulated time
    /// played, or `None` when nothing is left to do (finished or failed).
    pub fn step_for(&mut self, samples: u64) -> Option<f64> {
        if self.error.is_some() {
            return None;
        }
        if let Some((workload, options)) = self.pending.take() {
            match Run::new(workload, options) {
                Ok(run) => self.run = Some(run),
                Err(e) => {
                    self.error = Some(e);
                    return None;
                }
            }
        }
        let run = self.run.as_mut()?;
        if run.is_over() {
            return None;
        }
        match run.advance(samples) {
            Ok(_) => Some(run.progress()),
            Err(e) => {
                self.error = Some(e);
                None
            }
        }
    }

    /// The fraction of the simulated time played, over all tables.
    pub fn progress(&self) -> f64 {
        self.run.as_ref().map_or(0.0, Run::progress)
    }

    /// The name of the table under way (or next).
    pub fn next_table(&self) -> Option<&str> {
        match (&self.run, &self.pending) {
            (Some(run), _) => run.table(),
            (None, Some((workload, _))) => workload.tables.first().map(|t| t.name.as_str()),
            (None, None) => None,
        }
    }

    /// The simulation, playing what is left; the first error otherwise.
    pub fn finish(self) -> Result<Simulation, SimulateError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        match (self.run, self.pending) {
            (Some(run), _) => run.finish(),
            (None, Some((workload, options))) => Run::new(workload, options)?.finish(),
            (None, None) => Err(SimulateError::TooLarge("the run was not started".into())),
        }
    }
}
