//! The gallery in Bigtable's terms: a design's tables and sample data as a cbt script. The
//! design's HBase script runs on a fresh engine, and each of its tables is written out as the
//! Bigtable table that holds the same cells ([`crate::cbt::export::script`]): the same families,
//! row keys, splits (tablets for regions) and cells, timestamps in microseconds, and each
//! family's retention as a garbage-collection policy (`VERSIONS` as `maxversions`, `TTL` as
//! `maxage`). A design's lesson about its row key (order, prefixes, hot spots) then reads the
//! same in cbt: `read TABLE prefix=...` walks the keys an HBase prefix scan walks.
//!
//! What does not carry over is HBase's own: delete markers (the script holds the cells a read
//! sees), `KEEP_DELETED_CELLS`, and the access patterns, which are HBase shell commands.

use super::Design;
use crate::cbt::{self, export};
use crate::engine::Engine;
use crate::shell::Shell;

/// The clock the design's script runs at: 2023-11-14 22:13:20 UTC, in epoch milliseconds, as the
/// gallery's own runs use.
pub const CLOCK_MS: u64 = 1_700_000_000_000;

/// A design's tables and sample data as cbt lines, or the first error of its setup script.
pub fn script(design: &Design) -> Result<String, String> {
    script_of(&design.setup_script(), design.tables).map_err(|e| format!("{}: {e}", design.id))
}

/// The tables `tables` that the HBase script `setup` makes, as cbt lines (a design's script
/// under a placement's names: [`super::loads::cbt_setup_as`]).
pub fn script_of(setup: &str, tables: &[&str]) -> Result<String, String> {
    let mut shell = Shell::new(Engine::new(Box::new(|| CLOCK_MS)), Box::new(|| 0.0));
    if let Some(e) = shell.run(setup).into_iter().find_map(|o| o.error) {
        return Err(format!("setup failed: {}", e.message));
    }
    let mut session = cbt::Session::new(shell.engine);
    let mut out = String::new();
    for table in tables {
        out.push_str(&export::script(&mut session, table).map_err(|e| format!("{table}: {e}"))?);
    }
    Ok(out)
}

/// A cbt session holding a design's tables as Bigtable tables, its clock at [`CLOCK_MS`].
pub fn session(design: &Design) -> Result<cbt::Session, String> {
    let text = script(design)?;
    let mut session = cbt::Session::new(Engine::new(Box::new(|| CLOCK_MS)));
    for (n, line) in text.lines().enumerate() {
        let out = session.run_line(line);
        if out.failed {
            return Err(format!(
                "{}: line {} of its cbt script: {}",
                design.id,
                n + 1,
                out.stderr.trim_end()
            ));
        }
    }
    Ok(session)
}
