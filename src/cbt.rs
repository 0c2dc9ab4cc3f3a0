//! The cbt dialect: Bigtable's `cbt` command-line tool over Rowkey's engine. A Bigtable table
//! is an engine table that carries Bigtable's rules (no delete markers, garbage collection when
//! a compaction runs, microsecond timestamps at millisecond granularity); the read path is the
//! engine's, and this module is the front end: cbt's words, commands, errors and printer.
//!
//! ```
//! use rowkey::cbt::Session;
//! use rowkey::engine::Engine;
//!
//! let mut cbt = Session::new(Engine::new(Box::new(|| 0)));
//! cbt.run_line("createtable t families=cf");
//! cbt.run_line("set t r1 cf:a=hello@1000");
//! let out = cbt.run_line("lookup t r1");
//! assert_eq!(
//!     String::from_utf8_lossy(&out.stdout),
//!     "----------------------------------------\nr1\n  cf:a                                     @ 1970/01/01-00:00:00.001000\n    \"hello\"\n\n"
//! );
//! ```

mod admin;
mod args;
mod atomic;
pub mod cli;
mod commands;
mod csv;
pub mod export;
mod filter;
pub mod from_hbase;
mod gcpolicy;
mod import;
pub mod lint;
pub mod listing;
mod print;
mod read;
mod regex;
mod sample;
mod session;
mod words;
mod write;

pub(crate) use args::{Shape, Usage};
pub use commands::{command_words, complete, usage, CBT_VERSION};
pub(crate) use commands::{Handler, CBT_COMMANDS};
pub use gcpolicy::{GcPolicy, PolicyError};
pub use print::go_quote;
pub use sample::Sample;
pub use session::{Output, ReadFile, Session, BIGTABLE_RULES};
pub use words::split;

/// What goes wrong before a command runs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A quote opened on the line is never closed (bash's wording).
    #[error("unexpected EOF while looking for matching `{0}'")]
    Unterminated(char),
    /// An unquoted shell operator: a shell would end the cbt command before it (and run what
    /// follows as another command), so the line does not mean what it seems to.
    #[error("`{0}` is a shell operator: a shell ends the cbt command before it and runs the rest as another command; put it in quotes to give it to cbt")]
    Operator(String),
}
