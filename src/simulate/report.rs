//! The report of a simulation, as `rowkey simulate` prints it (text) and as `--json` writes it
//! (version 1, the same bytes for the same workload and seed).

use std::fmt::Write as _;

use serde::Serialize;

use super::findings::Finding;
use super::run::Simulation;
use super::timeline::HourFigures;
use crate::bytes::to_printable;

/// The report's version.
pub const REPORT_VERSION: u32 = 1;

/// The JSON report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub version: u32,
    pub tables: Vec<TableReport>,
}

/// One table's part of the report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableReport {
    pub name: String,
    pub hours: Vec<HourFigures>,
    pub splits: Vec<SplitReport>,
    pub findings: Vec<Finding>,
    pub totals: TotalsReport,
}

/// A split in the report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SplitReport {
    /// Simulated ms from the start.
    pub at_ms: u64,
    /// The split key as HBase's `Bytes.toStringBinary` prints it.
    pub key: String,
}

/// The totals at the end.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TotalsReport {
    /// Operations (estimated from the samples' weights; exact in full sampling).
    pub ops: u64,
    /// Rows held at the end.
    pub rows: u64,
    /// Bytes held at the end.
    pub bytes: u64,
}

impl Report {
    /// The report of a simulation.
    pub fn of(sim: &Simulation) -> Report {
        Report {
            version: REPORT_VERSION,
            tables: sim
                .tables
                .iter()
                .map(|t| TableReport {
                    name: t.name.clone(),
                    hours: t.hours.clone(),
                    splits: t
                        .timeline
                        .splits
                        .iter()
                        .map(|s| SplitReport {
                            at_ms: s.at_ms,
                            key: to_printable(&s.key),
                        })
                        .collect(),
                    findings: t.findings.clone(),
                    totals: TotalsReport {
                        ops: t.totals.ops.round() as u64,
                        rows: t.totals.rows,
                        bytes: t.totals.bytes,
                    },
                })
                .collect(),
        }
    }

    /// The JSON text (pretty, a newline at the end).
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }

    /// The text a person reads: per table and hour the regions, the busiest shares (by key at
    /// the hour's end) and the busiest region's live shares, then the splits' count and the
    /// findings.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let share = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{:.1}%", v * 100.0));
        for table in &self.tables {
            let _ = writeln!(out, "TABLE {}", table.name);
            let _ = writeln!(
                out,
                "{:>5} {:>8}  {:>13} {:>13} {:>13} {:>13}  {:>11} {:>10}",
                "HOUR",
                "REGIONS",
                "REGION WRITES",
                "REGION READS",
                "SERVER WRITES",
                "SERVER READS",
                "LIVE WRITES",
                "LIVE READS"
            );
            for h in &table.hours {
                let _ = writeln!(
                    out,
                    "{:>5} {:>8}  {:>13} {:>13} {:>13} {:>13}  {:>11} {:>10}",
                    h.hour,
                    h.regions,
                    share(h.busiest_region_write_share),
                    share(h.busiest_region_read_share),
                    share(h.busiest_server_write_share),
                    share(h.busiest_server_read_share),
                    share(h.busiest_region_write_share_live),
                    share(h.busiest_region_read_share_live)
                );
            }
            let _ = writeln!(
                out,
                "Shares of the hour's operations by key against the regions of its end;\n\
                 LIVE: the busiest region's share as each operation was taken, step by step."
            );
            let _ = writeln!(
                out,
                "{} splits; {} operations, {} rows, {} bytes at the end",
                table.splits.len(),
                table.totals.ops,
                table.totals.rows,
                table.totals.bytes
            );
            if table.findings.is_empty() {
                let _ = writeln!(out, "No findings.");
            }
            for f in &table.findings {
                let _ = writeln!(
                    out,
                    "{} {}: {} {} ({} {}). {}",
                    f.code.code(),
                    f.subject,
                    round(f.figure),
                    f.unit,
                    f.compare.symbol(),
                    round(f.threshold),
                    f.advice
                );
            }
            out.push('\n');
        }
        out
    }
}

fn round(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:.3}")
    }
}
