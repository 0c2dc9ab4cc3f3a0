//! A cbt session over Rowkey's engine: one line in, what cbt prints out. A line's command is
//! found in the command table ([`crate::commands::COMMANDS`]), its arguments checked against
//! the shape the table declares, and its handler (in `admin`, `write`, `import`, `read`,
//! `atomic`, `sample`, and `help`/`version` in `commands`) run.

use super::admin::GC_ATTRIBUTE;
use super::args::Call;
use super::commands::usage;
use super::print;
use super::{words, Error};
use crate::commands::{Dialect, Executor};
use crate::engine::{self, Engine};
use crate::kit::civil::Zone;

/// What one line printed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    pub stdout: Vec<u8>,
    pub stderr: String,
    /// Whether the command failed (standard error then ends with cbt's error text; without a
    /// failure it may still hold warnings and `import`'s log).
    pub failed: bool,
}

impl Output {
    fn error(message: impl Into<String>) -> Output {
        let mut stderr = message.into();
        stderr.push('\n');
        Output {
            stdout: Vec::new(),
            stderr,
            failed: true,
        }
    }
}

/// Reads a file `import` names: its bytes, or the error as Go words it.
pub type ReadFile = Box<dyn Fn(&str) -> Result<Vec<u8>, String>>;

/// Bigtable's rules for the engine: no delete markers, garbage collection at compaction,
/// microseconds at millisecond granularity, tablets split by size and by load.
pub const BIGTABLE_RULES: engine::Rules = engine::Rules {
    deletes: engine::DeleteMasking::NoMarkers,
    retention: engine::Retention::AtCompaction,
    timestamps: engine::TimestampUnit::MicrosAtMillis,
    splits: engine::SplitRule::SizeAndLoad,
};

/// A cbt session: the engine, the project and instance cbt's error texts name, the time zone,
/// the working directory `import` reads from, and the lines of standard error the lint wrote.
pub struct Session {
    pub engine: Engine,
    pub project: String,
    pub instance: String,
    pub zone: Zone,
    /// Reads a file for `import` (natively the file system; in the page, files the person gave).
    pub read_file: ReadFile,
    /// Milliseconds since some start, for `frontend_server_latency`.
    pub timer: Box<dyn Fn() -> f64>,
    pub(super) warnings: Vec<String>,
}

impl Session {
    pub fn new(engine: Engine) -> Session {
        Session {
            engine,
            project: "p".into(),
            instance: "i".into(),
            zone: Zone::Utc,
            read_file: Box::new(|name| Err(format!("open {name}: no such file or directory"))),
            timer: Box::new(|| 0.0),
            warnings: Vec::new(),
        }
    }

    /// Runs one line: an optional leading `cbt` and its flags, then a command.
    pub fn run_line(&mut self, line: &str) -> Output {
        let args = match words::split(line) {
            Ok(args) => args,
            Err(e) => return Output::error(e.to_string()),
        };
        let mut args = args.as_slice();
        if args.is_empty() {
            return Output::default();
        }
        if args.first().is_some_and(|a| a == b"cbt") {
            args = &args[1..];
        }
        // cbt's flags (Go's `flag` package: `-name value`, `-name=value`, `--name`).
        while let Some(first) = args.first() {
            let text = String::from_utf8_lossy(first).into_owned();
            let Some(flag) = text.strip_prefix("--").or_else(|| text.strip_prefix('-')) else {
                break;
            };
            let (name, inline) = match flag.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (flag.to_string(), None),
            };
            const FLAGS: &[&str] = &[
                "project",
                "instance",
                "creds",
                "timeout",
                "o",
                "access-token",
                "admin-endpoint",
                "auth-token",
                "cert-file",
                "data-endpoint",
                "user-agent",
            ];
            if !FLAGS.contains(&name.as_str()) {
                return Output::error(format!("flag provided but not defined: -{name}"));
            }
            let (value, used) = match inline {
                Some(v) => (v, 1),
                None => match args.get(1) {
                    Some(v) => (String::from_utf8_lossy(v).into_owned(), 2),
                    None => return Output::error(format!("flag needs an argument: -{name}")),
                },
            };
            match name.as_str() {
                "project" => self.project = value,
                "instance" => self.instance = value,
                _ => {}
            }
            args = &args[used..];
        }
        let Some(name) = args.first() else {
            return Output::error(usage());
        };
        let name = String::from_utf8_lossy(name).into_owned();
        let command = crate::commands::find(Dialect::Cbt, &name);
        let Some(Executor::Cbt { shape, usage, run }) = command.map(|c| c.run) else {
            return Output::error(format!(
                "Unknown command {}",
                print::go_quote(name.as_bytes())
            ));
        };
        self.warnings.clear();
        let result = Call::parse(&name, shape, usage, &args[1..]).and_then(|call| run(self, &call));
        let mut stderr: String = self.warnings.drain(..).map(|w| w + "\n").collect();
        match result {
            Ok(stdout) => Output {
                stdout,
                stderr,
                failed: false,
            },
            Err(message) => {
                stderr.push_str(&message);
                stderr.push('\n');
                Output {
                    stdout: Vec::new(),
                    stderr,
                    failed: true,
                }
            }
        }
    }

    pub(super) fn table_path(&self, table: &str) -> String {
        format!(
            "projects/{}/instances/{}/tables/{table}",
            self.project, self.instance
        )
    }

    pub(super) fn not_found(&self, action: &str, table: &str) -> String {
        format!(
            "{action}: rpc error: code = NotFound desc = table {} not found",
            print::go_quote(self.table_path(table).as_bytes())
        )
    }

    /// What a timestamp of `table` is multiplied by to count microseconds, as Bigtable counts
    /// them: 1,000 for an HBase table's milliseconds, 1 for a Bigtable table's.
    pub(super) fn micros_per_unit(&self, table: &str) -> u64 {
        self.engine.table(table).map_or(1, |t| {
            1_000 / t.descriptor.rules.timestamps.per_millisecond().max(1)
        })
    }

    pub(super) fn bigtable(&self, action: &str, table: &str) -> Result<&engine::Table, String> {
        self.engine
            .table(table)
            .map_err(|_| self.not_found(action, table))
    }

    /// A family's garbage-collection policy in cbt's syntax (`None`: keep every version).
    pub fn gc_policy(&self, table: &str, family: &str) -> Option<String> {
        self.engine
            .table(table)
            .ok()?
            .descriptor
            .attributes
            .get(&format!("{GC_ATTRIBUTE}{family}"))
            .cloned()
    }
}

impl From<Error> for Output {
    fn from(e: Error) -> Output {
        Output::error(e.to_string())
    }
}
