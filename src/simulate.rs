//! The workload simulator: a design under its traffic, at a real cluster's sizes, in seconds.
//!
//! A [`Workload`] (a versioned JSON document with a seed) names tables, their key templates and
//! their operations with rates over simulated time, and the cluster (region servers, flush size,
//! `MAX_FILESIZE`, split policy, each server's capacity). [`simulate`] plays it out in steps of
//! simulated time with weighted samples (its work grows with the samples, not the operations),
//! splitting regions as HBase 2.x's split policies do and moving them as a balancer would, and
//! returns a [`Simulation`]: per table a [`Heat`] model (key ranges × time, one grid per
//! [`Metric`]), a [`Timeline`] of regions, splits and moves, per-hour figures and
//! [`Finding`]s. [`Report`] is its JSON form (`rowkey simulate --json`).
//!
//! The same workload and seed give the same simulation, byte for byte.
//!
//! ```
//! use rowkey::simulate::{simulate, Options, Workload};
//! let workload = Workload::from_json(r#"{
//!   "version": 1, "seed": 1, "duration_ms": 600000,
//!   "cluster": {"region_servers": 2, "flush_size": 1048576, "max_filesize": 4194304,
//!               "server_reads_per_sec": 1000, "server_writes_per_sec": 1000},
//!   "tables": [{"name": "t", "families": [{"name": "f", "columns": [{"qualifier": "q", "value_size": 100}]}],
//!               "key": [{"kind": "sequence", "format": {"width": 8}}],
//!               "operations": [{"kind": "put_new", "rate": {"per_sec": 100}}]}]
//! }"#).unwrap();
//! let sim = simulate(&workload, &Options::default()).unwrap();
//! assert_eq!(sim.tables[0].totals.rows, 60_000);
//! ```

pub mod cli;
pub mod findings;
pub mod gallery;
pub mod heat;
pub mod key;
pub mod key_order;
mod op_kind;
pub mod policy;
pub mod report;
mod run;
pub mod sample_engine;
pub mod timeline;
pub mod workload;

pub use findings::{Compare, Finding, FindingCode};
pub use heat::{Heat, HeatCount, HeatGrid, KeyRange, Metric};
pub use key_order::{KeyOrder, KeySort};
pub use op_kind::OpKind;
pub use report::Report;
pub use run::{
    simulate, Options, Run, Sample, Sampling, Simulation, TableRun, Totals, SLICE_SAMPLES,
};
pub use sample_engine::{sample_engine, SampleBuild, SampleEngine, SampleLimits, SampledTable};
pub use timeline::{HourFigures, Move, RegionSpan, RegionStep, Split, Timeline};
pub use workload::Workload;

/// What can go wrong reading a workload or running it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SimulateError {
    /// The text is not JSON, or the JSON is not a valid workload: the line and column of a
    /// syntax error, or the path of what is wrong (`$.tables[0].key[2].kind`).
    #[error(transparent)]
    Document(#[from] crate::json::Error),
    /// No gallery design has a workload by this id.
    #[error("no workload for design '{0}'")]
    UnknownDesign(String),
    /// The run was asked to do more than it can (too many samples in full sampling).
    #[error("{0}")]
    TooLarge(String),
}

impl SimulateError {
    /// A workload that is JSON but not valid: `path` says where.
    pub fn invalid(path: impl Into<String>, message: impl Into<String>) -> SimulateError {
        SimulateError::Document(crate::json::Error::Invalid(Box::new(
            crate::json::Invalid {
                path: path.into(),
                message: message.into(),
            },
        )))
    }
}
