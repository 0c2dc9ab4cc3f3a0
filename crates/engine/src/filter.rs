//! HBase's filters, grouped by what they look at (their language's parser is Rowkey's
//! `filter::parse`, outside the engine's crate, built for size: it runs once a command).
//! They implement the engine's [`Filter`] protocol (`crate::engine::Filter`); the engine never
//! depends on this module.

mod column;
pub mod compare;
mod list;
mod row;
mod value;

pub use column::*;
pub use list::*;
pub use row::*;
pub use value::*;

pub use compare::Comparator;

pub use crate::engine::{CompareOp, Filter, FilterClone, ReturnCode};
