//! What the page shows of a simulation, as plain data: the Key Visualizer's heatmap (key
//! ranges × simulated time, drilled into key prefixes and zoomed in time), the regions of a
//! moment in the manner of `hbtop`, two tables side by side, the workload form's edits, and
//! the run in steps that the page interleaves with its frames. Nothing here touches the DOM,
//! so native tests drive all of it; the components in `ui/` only draw it.
//!
//! ```
//! use rowkey::keyvis::{Job, Scope};
//! use rowkey::simulate::{gallery, Metric, Options};
//! let workload = gallery::workload("schema.sequential-ids").unwrap();
//! let mut job = Job::new(workload, Options::default());
//! while job.step().is_some() {}
//! let sim = job.finish().unwrap();
//! let view = Scope::whole(&sim.tables[0]).heat(&sim.tables[0], 64);
//! assert_eq!(view.steps, sim.steps);
//! assert!(view.ranges.len() <= 64);
//! # let _ = Metric::Writes;
//! ```

mod compare;
mod form;
mod heatmap;
mod job;
mod regions;

pub use crate::simulate::gallery::pair_workload;
pub use crate::simulate::OpKind;
pub use compare::{percent, side_by_side, verdict, Attribution, HourPair, Share};
pub use form::{apply, starter, FieldKind, FormAction};
pub use heatmap::{
    grid_pixels, lanes, prefixes, split_marks, summary_rows, Inside, Provenance, Scope, SplitMark,
    Window,
};
pub use job::{next_slice, Job, SLICE_MS};
pub use regions::{busiest_shares, rows_at, RegionColumn, RegionRow, RegionSort};
