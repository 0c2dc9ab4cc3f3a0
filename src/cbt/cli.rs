//! `rowkey cbt`: cbt commands on standard input, one per line, each answered as cbt answers
//! it; an error is printed and the next line still runs.

use std::io::{BufRead, Write};

use super::session::Session;
use crate::engine::Engine;
use crate::kit::civil::Zone;

/// What the command line and the environment give a session.
pub struct Env {
    /// The arguments after `rowkey cbt` (cbt's `-project` and `-instance`).
    pub args: Vec<String>,
    /// The value of `TZ`.
    pub tz: Option<String>,
    /// The clock, epoch milliseconds.
    pub clock: Box<dyn Fn() -> u64>,
    /// Milliseconds since start, for latencies.
    pub timer: Box<dyn Fn() -> f64>,
    /// Reads a file `import` names.
    pub read_file: super::session::ReadFile,
}

/// Runs every line of `input`; returns the exit status (0, or 2 for bad arguments).
pub fn run(input: &mut dyn BufRead, out: &mut dyn Write, err: &mut dyn Write, env: Env) -> i32 {
    let mut session = Session::new(Engine::new(env.clock));
    session.timer = env.timer;
    session.read_file = env.read_file;
    session.zone = go_local(env.tz.as_deref());
    // Flags given after `rowkey cbt` apply to every line, as a `.cbtrc` would; Rowkey's own
    // `-design ID` loads a gallery design's tables as Bigtable tables first.
    let mut flags = env.args.iter();
    while let Some(flag) = flags.next() {
        let name = flag.trim_start_matches('-');
        let (name, value) = match name.split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (name.to_string(), flags.next().cloned()),
        };
        match (name.as_str(), value) {
            ("project", Some(v)) => session.project = v,
            ("instance", Some(v)) => session.instance = v,
            ("design", Some(id)) => {
                if let Err(e) = load_design(&mut session, &id) {
                    let _ = writeln!(err, "rowkey: {e}");
                    return 2;
                }
            }
            _ => {
                let _ = writeln!(
                    err,
                    "usage: rowkey cbt [-project P] [-instance I] [-design ID] < commands"
                );
                return 2;
            }
        }
    }
    for (number, line) in input.split(b'\n').enumerate() {
        let mut line = match line {
            Ok(line) => line,
            Err(e) => {
                let _ = writeln!(err, "rowkey: cannot read line {}: {e}", number + 1);
                return 1;
            }
        };
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        let line = String::from_utf8_lossy(&line);
        let output = session.run_line(&line);
        let _ = out.write_all(&output.stdout);
        let _ = out.flush();
        let _ = err.write_all(output.stderr.as_bytes());
    }
    0
}

/// The zone Go's `time.Local` is for a `TZ` value, as cbt's process reads it (Go's `initLocal`
/// in `time/zoneinfo_unix.go`): unset, the system's `/etc/localtime`; empty or `UTC`, UTC;
/// otherwise, after an optional `:`, a tzfile at that absolute path or under
/// `/usr/share/zoneinfo`. Go reads no POSIX rule from `TZ` itself (`TZ=XXX-2` names no file),
/// and a `TZ` that names no readable tzfile is UTC, silently, as in cbt.
pub fn go_local(tz: Option<&str>) -> Zone {
    let read = |path: &str| std::fs::read(path).ok().and_then(|b| Zone::tzif(&b).ok());
    let name = match tz {
        None => return read("/etc/localtime").unwrap_or(Zone::Utc),
        Some(tz) => tz.strip_prefix(':').unwrap_or(tz),
    };
    let file = if name.is_empty() || name == "UTC" {
        None
    } else if name.starts_with('/') {
        read(name)
    } else if name.split('/').any(|part| part == "..") {
        None
    } else {
        read(&format!("/usr/share/zoneinfo/{name}"))
    };
    file.unwrap_or(Zone::Utc)
}

/// Runs the cbt script of the gallery design `id` ([`crate::designs::in_cbt`]) in the session.
fn load_design(session: &mut Session, id: &str) -> Result<(), String> {
    let design = crate::designs::find(id).ok_or_else(|| {
        let ids: Vec<&str> = crate::designs::shared().iter().map(|d| d.id).collect();
        format!("no design {id:?}; the designs are {}", ids.join(", "))
    })?;
    for line in crate::designs::in_cbt::script(&design)?.lines() {
        let out = session.run_line(line);
        if out.failed {
            return Err(format!("{id}: {}", out.stderr.trim_end()));
        }
    }
    Ok(())
}
