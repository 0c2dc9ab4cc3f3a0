//! Concentration at the moment of each operation: per step, the operations each region and
//! each server took as they were played, and per hour the busiest one's share of them, step by
//! step.
//!
//! The hour's other shares ([`HourFigures::busiest_region_write_share`] and its siblings)
//! attribute the hour's operations by key to the regions of the hour's end; these attribute
//! each to the region (and server) that took it. Under a growing key the two differ: a split
//! late in an hour puts its split key among that hour's keys, so the hour's earlier writes
//! count, by key, for the lower daughter, although at every moment one region took them all.
//!
//! [`HourFigures::busiest_region_write_share`]: crate::simulate::HourFigures::busiest_region_write_share

use crate::simulate::findings::round6;

/// One kind of operation (reads, or writes): what each region and server took in the step
/// under way, and the hour's sums of the steps' busiest and totals.
#[derive(Clone, Debug, Default)]
pub(super) struct Taken {
    /// The step's operations by region id.
    by_region: Vec<f64>,
    /// The step's operations by server.
    by_server: Vec<f64>,
    /// The hour so far: the sum over its steps of the busiest region's operations, of the
    /// busiest server's, and of all.
    busiest_region: f64,
    busiest_server: f64,
    total: f64,
}

/// The busiest region's and server's shares of one hour's operations of one kind, each step
/// weighted by its operations (`None` when the hour had none).
pub(super) struct LiveShares {
    pub(super) region: Option<f64>,
    pub(super) server: Option<f64>,
}

impl Taken {
    /// `weight` operations taken by region `region` on server `server`.
    pub(super) fn add(&mut self, region: u32, server: u32, weight: f64) {
        bump(&mut self.by_region, region as usize, weight);
        bump(&mut self.by_server, server as usize, weight);
    }

    /// The step is over: its busiest and its total join the hour's.
    pub(super) fn end_step(&mut self) {
        let busiest = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
        self.busiest_region += busiest(&self.by_region);
        self.busiest_server += busiest(&self.by_server);
        self.total += self.by_region.iter().sum::<f64>();
        self.by_region.fill(0.0);
        self.by_server.fill(0.0);
    }

    /// The hour is over: its shares, rounded to six decimals; the next hour starts from none.
    pub(super) fn end_hour(&mut self) -> LiveShares {
        let share = |busiest: f64| (self.total > 0.0).then(|| round6(busiest / self.total));
        let shares = LiveShares {
            region: share(self.busiest_region),
            server: share(self.busiest_server),
        };
        self.busiest_region = 0.0;
        self.busiest_server = 0.0;
        self.total = 0.0;
        shares
    }
}

fn bump(counts: &mut Vec<f64>, at: usize, weight: f64) {
    if counts.len() <= at {
        counts.resize(at + 1, 0.0);
    }
    if let Some(c) = counts.get_mut(at) {
        *c += weight;
    }
}
