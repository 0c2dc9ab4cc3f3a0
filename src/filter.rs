//! HBase's filters, from the engine's crate, and the parser of their language (`parse`), here:
//! it runs once a command, so it is built for size with the rest of the page, while the
//! filters themselves run for every cell a read examines and are built for speed.

mod parse;

pub use parse::{
    filter_names, is_filter, parse_filter, parse_java_filter, FilterError, FilterSpec, FILTERS,
};
pub use rowkey_engine::filter::*;
