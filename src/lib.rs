//! Rowkey: an HBase schema-design playground.
pub mod analysis;
// The engine, its filters and their shared pieces: a crate of their own, optimized for speed.
pub use rowkey_engine::{bytes, engine, kit};
pub mod cbt;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod commands;
pub mod console;
pub mod decimal;
pub mod designs;
pub mod diagnose;
pub mod dialect;
pub mod filter;
pub mod import;
pub mod json;
pub mod keyvis;
pub mod persist;
pub mod session;
pub mod share;
pub mod shell;
pub mod simulate;
#[cfg(target_arch = "wasm32")]
pub mod ui;
