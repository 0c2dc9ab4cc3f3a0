//! Helpers for the cbt dialect's tests: a session on a fixed clock, and lines run through it.

use rowkey::cbt::Session;
use rowkey::engine::Engine;

/// 2033-05-18 03:33:20 UTC, in epoch milliseconds: the engine's clock in these tests.
pub const NOW_MS: u64 = 2_000_000_000_000;

/// A cbt session whose clock stands at [`NOW_MS`].
pub fn session() -> Session {
    Session::new(Engine::new(Box::new(|| NOW_MS)))
}

/// Runs lines; returns standard output, and fails on anything on standard error.
pub fn run(s: &mut Session, lines: &[&str]) -> Result<String, String> {
    let mut out = String::new();
    for line in lines {
        let o = s.run_line(line);
        if !o.stderr.is_empty() {
            return Err(format!("{line}: {}", o.stderr));
        }
        out.push_str(&String::from_utf8_lossy(&o.stdout));
    }
    Ok(out)
}
