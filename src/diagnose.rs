//! Diagnosis in words: what a table's traffic and keys say about its row-key design, with the
//! numbers that say it. One module for every table, the gallery's and the user's own alike:
//! [`Evidence`] is gathered once from the table's activity and key index, and each rule of
//! [`RULES`] is a plain function over it that either finds something or stays silent. The
//! counts over the last operations are a [`Recent`]'s, which follows the activity operation
//! by operation.
//!
//! ```
//! use rowkey::engine::{Engine, FamilyDescriptor, Mutation, TableDescriptor};
//! let mut e = Engine::new(Box::new(|| 1_700_000_000_000));
//! e.create_table(TableDescriptor::new("events", vec![FamilyDescriptor::new("d")]), vec![]).unwrap();
//! for i in 0..3000u64 {
//!     let put = Mutation::Put { family: b"d".to_vec(), qualifier: b"v".to_vec(),
//!         timestamp: None, value: b"some bytes".to_vec(), ttl_ms: None };
//!     e.mutate("events", (1_700_000_000_000u64 + i).to_string().as_bytes(), &[put]).unwrap();
//! }
//! let findings = rowkey::diagnose::diagnose(&e, "events");
//! assert_eq!(findings[0].rule, "growing-key");
//! assert!(findings[0].text.contains("went to the end of the key order"));
//! ```

mod evidence;
mod key_shape;
mod recent;
mod rules;

pub use evidence::Evidence;
pub use key_shape::{key_time, key_time_in, KeyTime};
pub use recent::{PrefixRun, Recent, Window};
use rules::*;

use crate::engine::Engine;

/// Operations the rules look back over.
pub const WINDOW: usize = 10_000;
/// Operations the region heat and the skew figure count, against today's regions: few enough
/// that the regions they ran on are, mostly, still the regions there are (over a long window
/// a growing key's writes land in regions that have split since, and would look even).
pub const RECENT: usize = 200;
/// Fewest writes before the write rules speak.
pub const MIN_WRITES: usize = 200;
/// Rows sampled evenly from the key order for the shape of the keys.
const SAMPLE: usize = 4096;
/// Rows of the sample whose cells are read for their sizes.
const CELL_ROWS: usize = 32;

/// What one rule found.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// The rule's name (stable, for tests and styling).
    pub rule: &'static str,
    /// One or two sentences with the numbers.
    pub text: String,
}

/// A rule: a function over the evidence.
pub type Rule = fn(&Evidence) -> Option<Finding>;

/// Every rule, in the order findings are shown.
pub const RULES: &[(&str, Rule)] = &[
    ("growing-key", growing_key),
    ("decreasing-key", decreasing_key),
    ("hot-region", hot_region),
    ("low-cardinality-prefix", low_cardinality_prefix),
    ("hot-row", hot_row),
    ("wide-row", wide_row),
    ("growing-within-prefix", growing_within_prefix),
    ("salted-fan-out", salted_fan_out),
    ("cell-overhead", cell_overhead),
];

/// Runs every rule over a table's evidence.
pub fn diagnose(engine: &Engine, table: &str) -> Vec<Finding> {
    match Evidence::gather(engine, table) {
        Some(e) => run(&e),
        None => Vec::new(),
    }
}

/// Runs every rule over gathered evidence. A hot region that a growing or a decreasing key
/// already explains (named before it) is not named again.
pub fn run(evidence: &Evidence) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for (name, rule) in RULES {
        let explained = *name == "hot-region"
            && out
                .iter()
                .any(|f| matches!(f.rule, "growing-key" | "decreasing-key"));
        if let Some(f) = rule(evidence).filter(|_| !explained) {
            out.push(f);
        }
    }
    out
}

/// The share of the recent writes (or of a few prefixes' writes) above which they are said to
/// pile up in one place: 80 %.
pub const HOT_SHARE: f64 = 0.8;
