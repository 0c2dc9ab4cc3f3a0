//! `rowkey simulate WORKLOAD.json [--json]` and `rowkey simulate --design ID [--hours H]
//! [--json]`: plays a workload out and prints its report.

use std::io::Write;

use super::report::Report;
use super::run::{simulate, Options};
use super::workload::Workload;
use super::{gallery, SimulateError};

/// The usage line.
pub const USAGE: &str = "usage: rowkey simulate WORKLOAD.json [--json]\n       rowkey simulate --design ID [--hours H] [--json]\n  ID is a gallery design's id or a compare pair's (both tables of the pair).\n  Plays a workload out on a simulated cluster and prints, per table and simulated hour, the regions, the busiest region's and server's shares of writes and reads, the splits and the findings.\n";

/// What the arguments ask for.
#[derive(Clone, Debug, PartialEq)]
struct Args {
    file: Option<String>,
    design: Option<String>,
    hours: Option<f64>,
    json: bool,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut parsed = Args {
        file: None,
        design: None,
        hours: None,
        json: false,
    };
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--json" => parsed.json = true,
            "--design" => {
                i += 1;
                parsed.design = Some(args.get(i).ok_or("--design needs a design id")?.clone());
            }
            "--hours" => {
                i += 1;
                let text = args.get(i).ok_or("--hours needs a number of hours")?;
                let hours: f64 = text
                    .parse()
                    .map_err(|_| format!("--hours: '{text}' is not a number"))?;
                if !(hours.is_finite() && hours > 0.0) {
                    return Err(format!("--hours must be above 0, found {text}"));
                }
                parsed.hours = Some(hours);
            }
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            file => {
                if parsed.file.is_some() {
                    return Err(format!("one workload file at a time, found also '{file}'"));
                }
                parsed.file = Some(file.to_string());
            }
        }
        i += 1;
    }
    match (&parsed.file, &parsed.design) {
        (None, None) => Err("name a workload file or --design ID".into()),
        (Some(_), Some(_)) => Err("a workload file or --design, not both".into()),
        _ => Ok(parsed),
    }
}

/// Runs `rowkey simulate` with `args` (those after `simulate`), writing the report to `out`
/// and errors to `err`. Returns the exit code: 0, 1 (a bad workload or file), 2 (bad usage).
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let args = match parse(args) {
        Ok(args) => args,
        Err(message) => {
            let _ = write!(err, "rowkey simulate: {message}\n{USAGE}");
            return 2;
        }
    };
    let workload = match load(&args) {
        Ok(w) => w,
        Err(message) => {
            let _ = writeln!(err, "rowkey simulate: {message}");
            return 1;
        }
    };
    match simulate(&workload, &Options::default()) {
        Ok(sim) => {
            let report = Report::of(&sim);
            let text = if args.json {
                report.to_json()
            } else {
                report.to_text()
            };
            let _ = out.write_all(text.as_bytes());
            0
        }
        Err(e) => {
            let _ = writeln!(err, "rowkey simulate: {e}");
            1
        }
    }
}

fn load(args: &Args) -> Result<Workload, String> {
    let mut workload = if let Some(path) = &args.file {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        Workload::from_json(&text).map_err(|e| format!("{path}: {e}"))?
    } else {
        let id = args.design.as_deref().unwrap_or_default();
        gallery::workload(id)
            .or_else(|| gallery::pair_workload(id))
            .ok_or_else(|| SimulateError::UnknownDesign(id.into()).to_string())?
    };
    if let Some(hours) = args.hours {
        workload.duration_ms = (hours * 3_600_000.0).round() as u64;
        workload.step_ms = None;
        workload.check().map_err(|e| e.to_string())?;
    }
    Ok(workload)
}
