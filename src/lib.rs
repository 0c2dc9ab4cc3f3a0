//! Rowkey: an HBase schema-design playground.
pub mod bytes;
pub mod cbt;
pub mod console;
pub mod designs;
pub mod diagnose;
pub mod dialect;
pub mod engine;
pub mod filter;
pub mod import;
pub mod persist;
pub mod share;
pub mod shell;
#[cfg(target_arch = "wasm32")]
pub mod ui;
