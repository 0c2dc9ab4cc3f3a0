//! Rowkey: an HBase schema-design playground.
pub mod bytes;
pub mod engine;
pub mod filter;
pub mod shell;
