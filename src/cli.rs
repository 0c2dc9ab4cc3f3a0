//! The native command line: `rowkey <subcommand> [ARGS]`. Each subcommand is one entry of
//! [`SUBCOMMANDS`] (name, one-line summary, usage, and the function that runs it), which the
//! dispatcher, the usage text and "did you mean" all read.
//!
//! ```text
//! rowkey shell [FILE] [-D key=value | -Dkey=value]...
//! rowkey cbt [-project P] [-instance I] [-design ID]
//! rowkey simulate WORKLOAD.json [--json] | --design ID [--hours H] [--json]
//! ```

use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use thiserror::Error;

use crate::engine::Engine;
use crate::kit::civil::Zone;
use crate::kit::sorted::SortedMap;
use crate::shell::{is_incomplete, render_caret, Shell, TimeFormat};

/// Exit status for a usage error (a bad argument), as sysexits' `EX_USAGE` family and most
/// command-line tools use.
pub const EXIT_USAGE: i32 = 2;

/// One subcommand of `rowkey`.
pub struct Subcommand {
    pub name: &'static str,
    /// One line for the usage list.
    pub summary: &'static str,
    /// Its arguments, after `rowkey <name>`.
    pub usage: &'static str,
    /// Runs it on the arguments after its name; returns the exit status.
    pub run: fn(&[String]) -> i32,
}

const SHELL_USAGE: &str = "[FILE] [-D key=value | -Dkey=value]...";

/// Every subcommand: adding one is one entry.
pub const SUBCOMMANDS: &[Subcommand] = &[
    Subcommand {
        name: "shell",
        summary: "the HBase shell over standard input or a script",
        usage: SHELL_USAGE,
        run: run_shell,
    },
    Subcommand {
        name: "cbt",
        summary: "Bigtable's cbt commands from standard input, answered as cbt answers them",
        usage: "[-project P] [-instance I] [-design ID]",
        run: run_cbt,
    },
    Subcommand {
        name: "simulate",
        summary: "a workload played out on a simulated HBase cluster, with its report",
        usage: "WORKLOAD.json [--json] | --design ID [--hours H] [--json]",
        run: run_simulate,
    },
];

/// What is wrong with the command line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CliError {
    /// No subcommand at all.
    #[error("a subcommand is needed")]
    NoSubcommand,
    /// A subcommand that is not in [`SUBCOMMANDS`], with the nearest name when one is close.
    #[error("unknown subcommand '{name}'{}", suggestion.map(|s| format!("; did you mean '{s}'?")).unwrap_or_default())]
    UnknownSubcommand {
        name: String,
        suggestion: Option<&'static str>,
    },
    /// `-D` as the last argument.
    #[error("-D needs key=value after it")]
    MissingProperty,
    /// A property without `=` or with an empty key.
    #[error("'{0}' is not key=value")]
    BadProperty(String),
    /// An option the subcommand does not know.
    #[error("unknown option '{0}'")]
    UnknownOption(String),
    /// A second script file.
    #[error("one script at most ('{first}' and '{second}' given)")]
    TwoFiles { first: String, second: String },
}

/// The usage text: every subcommand with its arguments and summary.
pub fn usage() -> String {
    let mut out = String::from("usage: rowkey <subcommand> [ARGS]\n");
    for s in SUBCOMMANDS {
        let _ = write!(
            out,
            "  rowkey {} {}\n      {}\n",
            s.name, s.usage, s.summary
        );
    }
    out
}

/// Finds the subcommand `args[0]` names; `help`, `-h` and `--help` are not subcommands.
pub fn subcommand(args: &[String]) -> Result<&'static Subcommand, CliError> {
    let name = args.first().ok_or(CliError::NoSubcommand)?;
    SUBCOMMANDS
        .iter()
        .find(|s| s.name == name)
        .ok_or_else(|| CliError::UnknownSubcommand {
            name: name.clone(),
            suggestion: SUBCOMMANDS
                .iter()
                .map(|s| (crate::commands::edit_distance(s.name, name), s.name))
                .filter(|(d, _)| *d <= 2)
                .min()
                .map(|(_, s)| s),
        })
}

/// Runs `rowkey` on its arguments (without the program name); returns the exit status.
pub fn main(args: &[String]) -> i32 {
    if matches!(
        args.first().map(String::as_str),
        Some("help" | "-h" | "--help")
    ) {
        print!("{}", usage());
        return 0;
    }
    match subcommand(args) {
        Ok(s) => (s.run)(args.get(1..).unwrap_or_default()),
        Err(e) => {
            eprint!("rowkey: {e}\n{}", usage());
            EXIT_USAGE
        }
    }
}

/// `rowkey simulate`: a workload played out on a simulated cluster, its report on standard output.
fn run_simulate(args: &[String]) -> i32 {
    crate::simulate::cli::run(
        args,
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    )
}

/// Milliseconds since 1970 by the system clock.
fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

/// `rowkey cbt`: Bigtable's cbt commands on standard input.
fn run_cbt(args: &[String]) -> i32 {
    let started = Instant::now();
    let env = crate::cbt::cli::Env {
        args: args.to_vec(),
        tz: std::env::var("TZ").ok(),
        clock: Box::new(now_ms),
        timer: Box::new(move || started.elapsed().as_secs_f64() * 1000.0),
        read_file: Box::new(|name| {
            // Go's wording, as cbt prints it.
            std::fs::read(name).map_err(|e| {
                let why = match e.kind() {
                    std::io::ErrorKind::NotFound => "no such file or directory".to_string(),
                    std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
                    std::io::ErrorKind::IsADirectory => "is a directory".to_string(),
                    _ => e.to_string(),
                };
                format!("open {name}: {why}")
            })
        }),
    };
    let stdin = std::io::stdin();
    crate::cbt::cli::run(
        &mut stdin.lock(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
        env,
    )
}

/// `rowkey shell`'s arguments.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShellArgs {
    /// The script to run; standard input when `None`.
    pub file: Option<String>,
    /// `-D key=value` properties in order of keys (a later one for the same key wins), as
    /// `hbase shell -D` takes them.
    pub properties: SortedMap<String, String>,
}

/// Reads `rowkey shell`'s arguments: at most one file, and `-D key=value` or `-Dkey=value`
/// anywhere.
pub fn parse_shell_args(args: &[String]) -> Result<ShellArgs, CliError> {
    let mut out = ShellArgs::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let property = if arg == "-D" {
            Some(it.next().ok_or(CliError::MissingProperty)?.as_str())
        } else {
            arg.strip_prefix("-D")
        };
        if let Some(p) = property {
            match p.split_once('=') {
                Some((k, v)) if !k.is_empty() => {
                    out.properties.insert(k.to_string(), v.to_string());
                }
                _ => return Err(CliError::BadProperty(p.to_string())),
            }
        } else if arg.starts_with('-') && arg != "-" {
            return Err(CliError::UnknownOption(arg.clone()));
        } else if let Some(first) = &out.file {
            return Err(CliError::TwoFiles {
                first: first.clone(),
                second: arg.clone(),
            });
        } else {
            out.file = Some(arg.clone());
        }
    }
    Ok(out)
}

/// `rowkey shell`: HBase shell commands from a file or standard input, HBase's answers on
/// standard output; a bad command is reported and the rest still runs.
fn run_shell(args: &[String]) -> i32 {
    if matches!(args.first().map(String::as_str), Some("-h" | "--help")) {
        println!("usage: rowkey shell {SHELL_USAGE}");
        return 0;
    }
    let args = match parse_shell_args(args) {
        Ok(a) => a,
        Err(e) => {
            eprint!("rowkey shell: {e}\n{}", usage());
            return EXIT_USAGE;
        }
    };
    let clock = Box::new(now_ms);
    let started = Instant::now();
    let timer = Box::new(move || started.elapsed().as_secs_f64() * 1000.0);
    let mut shell = Shell::new(Engine::new(clock), timer);
    // Timestamps print in the system's zone, as HBase's shell prints them, unless
    // `-D hbase.shell.timestamp.format.epoch=true` asks for epoch milliseconds.
    let zone = Zone::system();
    shell.time_format = TimeFormat::Local(Box::new(move |ms| {
        zone.offset_seconds(ms.saturating_mul(1000)) / 60
    }));
    for (k, v) in &args.properties {
        shell.set_property(k, v);
    }
    let input: Box<dyn BufRead> = match args.file.as_deref() {
        Some(path) if path != "-" => match std::fs::File::open(path) {
            Ok(f) => Box::new(std::io::BufReader::new(f)),
            Err(e) => {
                eprintln!("rowkey: cannot open {path}: {e}");
                return 1;
            }
        },
        _ => Box::new(std::io::stdin().lock()),
    };
    let stdout = std::io::stdout();
    run_lines(&mut shell, input, &mut stdout.lock())
}

/// Runs shell input line by line (a command may span lines); returns the exit status.
fn run_lines(shell: &mut Shell, input: impl BufRead, out: &mut impl Write) -> i32 {
    let mut pending = String::new();
    for (number, line) in input.split(b'\n').enumerate() {
        let mut line = match line {
            Ok(line) => line,
            Err(e) => {
                eprintln!("rowkey: cannot read line {}: {e}", number + 1);
                return 1;
            }
        };
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        // Shell input is text: a line that is not UTF-8 is reported and skipped, and the
        // rest still runs, as with any other bad line.
        let line = match String::from_utf8(line) {
            Ok(line) => line,
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let byte = e.as_bytes().get(at).copied().unwrap_or_default();
                let _ = writeln!(
                    out,
                    "ERROR: line {} is not UTF-8 text (byte 0x{byte:02X} at column {}): write bytes as \"\\x{byte:02X}\" inside a double-quoted string",
                    number + 1,
                    at + 1
                );
                continue;
            }
        };
        pending.push_str(&line);
        pending.push('\n');
        if is_incomplete(&pending) {
            continue;
        }
        if let Some(at) = exit_at(&pending) {
            run_text(shell, pending.get(..at).unwrap_or_default(), out);
            return 0;
        }
        run_text(shell, &pending, out);
        pending.clear();
    }
    if let Some(at) = exit_at(&pending) {
        pending.truncate(at);
    }
    if !pending.trim().is_empty() {
        run_text(shell, &pending, out);
    }
    0
}

/// Where the first `exit` or `quit` of `text` starts: HBase's shell ends there, and so does
/// `rowkey shell`, the commands before it run and the input after it left unread (the page's
/// console, which the tab holds open, refuses both).
fn exit_at(text: &str) -> Option<usize> {
    crate::shell::parse_script(text)
        .into_iter()
        .flatten()
        .find(|c| c.target.is_none() && matches!(c.name.as_str(), "exit" | "quit"))
        .map(|c| c.span.start)
}

fn run_text(shell: &mut Shell, text: &str, out: &mut impl Write) {
    for outcome in shell.run(text) {
        let _ = out.write_all(outcome.output.as_bytes());
        if let Some(err) = &outcome.error {
            let _ = out.write_all(render_caret(text, &err.span).as_bytes());
        }
        let _ = out.flush();
    }
}
