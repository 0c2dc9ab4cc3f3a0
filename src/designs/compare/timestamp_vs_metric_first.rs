//! A timestamp-first key against the metric promoted into the key.

use super::{versus, Pair, Phase, Side};
use crate::designs::gen::Gen;
use crate::designs::lesson::{on, scanned_is_returned, Measure, Rel};
use crate::designs::Script;

/// Four metrics read every second; the question is one metric over a minute.
pub(super) fn timestamp_vs_metric_first() -> Pair {
    const METRICS: [&str; 4] = ["cpu", "disk", "mem", "net"];
    const T0: u64 = 1_700_000_000_000;
    const HISTORY: u64 = 300;
    const NEW: u64 = 25;
    let side = |label, key: &'static str, table: &'static str, ts_first: bool| {
        let row = |m: &str, ts: u64| {
            if ts_first {
                format!("{ts}#{m}")
            } else {
                format!("{m}#{ts}")
            }
        };
        let mut g = Gen::new(5);
        // Both tables start in four regions: split at the quarters of the history's time
        // range, or at the metrics' names.
        let splits: Vec<String> = if ts_first {
            (1..4)
                .map(|q| format!("'{}'", T0 + q * HISTORY / 4 * 1000))
                .collect()
        } else {
            METRICS[1..].iter().map(|m| format!("'{m}'")).collect()
        };
        let mut s = Script::default();
        s.line(format!(
            "create '{table}', 'm', {{MAX_FILESIZE => 16384}}, SPLITS => [{}]",
            splits.join(", ")
        ));
        let mut reading = |s: &mut Script, i: u64| {
            let ts = T0 + i * 1000;
            for m in METRICS {
                s.put(table, &row(m, ts), "m:v", &g.below(100).to_string());
            }
        };
        for i in 0..HISTORY {
            reading(&mut s, i);
        }
        let setup = s.done();
        for i in HISTORY..HISTORY + NEW {
            reading(&mut s, i);
        }
        let writes = s.done();
        let (from, to) = (T0 + 200_000, T0 + 260_000);
        let reads = if ts_first {
            format!("count '{table}', {{STARTROW => '{from}', STOPROW => '{to}', FILTER => \"RowFilter(=, 'substring:#cpu')\"}}")
        } else {
            format!("count '{table}', {{STARTROW => 'cpu#{from}', STOPROW => 'cpu#{to}'}}")
        };
        Side::new(label, key, table, setup, writes, reads)
    };
    let mut a = side("Timestamp first", "<ts>#<metric>", "ab_tsfirst", true);
    a.claims = vec![
        (Phase::Writes, on(Measure::BusiestWriteShare).gt(90.0)),
        (
            Phase::Reads,
            on(Measure::RowsScanned).eq_times(4.0, Measure::RowsReturned),
        ),
    ];
    let mut b = side("Metric first", "<metric>#<ts>", "ab_metric", false);
    b.claims = vec![
        (Phase::Writes, on(Measure::BusiestWriteShare).lt(50.0)),
        (Phase::Reads, scanned_is_returned()),
    ];
    Pair {
        id: "timestamp-vs-metric-first",
        title: "Timestamp first against the metric promoted into the key",
        workload: "cpu, disk, mem and net are read every second: 300 seconds exist, 25 more are written; then cpu over one minute. Each table starts in four regions.",
        why: "With the time first, the newest second is always the largest key: one region takes every reading, and a minute of cpu is read along with the other three metrics. Both tables start in four regions. With the metric first, each metric's newest readings go to the end of its own range; pre-split at the metrics' names, those ends lie in four regions and share the writes (without such splits nothing guarantees it), and the minute of cpu is exactly the rows it returns.",
        designs: &["schema.metric-timestamp"],
        write_actions: NEW * METRICS.len() as u64,
        read_actions: 1,
        a,
        b,
        versus: vec![
            versus(Phase::Writes, Measure::BusiestWriteShare, Rel::Gt, 1.8),
            versus(Phase::Reads, Measure::RowsScanned, Rel::Eq, 4.0),
        ],
    }
}
