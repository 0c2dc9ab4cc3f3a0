//! HBase's filters, grouped by what they look at, and the parser of HBase's filter language.
//! They implement the engine's [`Filter`] protocol (`crate::engine::Filter`); the engine never
//! depends on this module.

mod column;
mod compare;
mod list;
mod parse;
mod row;
mod value;

pub use column::*;
pub use list::*;
pub use parse::{filter_names, is_filter, FilterSpec, FILTERS};
pub use row::*;
pub use value::*;

pub use compare::Comparator;
pub use parse::{parse_filter, parse_java_filter, FilterError};

pub use crate::engine::{CompareOp, Filter, FilterClone, ReturnCode};
