//! Plain time keys against time keys salted over eight buckets.

use super::{versus, Pair, Phase, Side, SPLIT_SMALL};
use crate::designs::gen::{bursty_times, Gen};
use crate::designs::lesson::{on, scanned_is_returned, Measure, Rel};
use crate::designs::{md5_hex, Script};

/// Events keyed by their time, in bursts; the question is one minute of them.
pub(super) fn plain_vs_salted() -> Pair {
    const BUCKETS: u64 = 8;
    const T0: u64 = 1_700_000_000_000;
    const HISTORY: usize = 1_500;
    const NEW: usize = 100;
    let times = bursty_times(&mut Gen::new(10), T0, HISTORY + NEW, 200);
    // The bucket is computed from the time itself, so a reader can compute it again.
    let bucket =
        |ts: u64| u64::from_str_radix(&md5_hex(&ts.to_string(), 2), 16).unwrap_or(0) % BUCKETS;
    let (from, to) = (T0 + 60_000, T0 + 120_000);
    let side = |label, key: &'static str, table: &'static str, salted: bool| {
        let row = |ts: u64| {
            if salted {
                format!("{}-{ts}", bucket(ts))
            } else {
                ts.to_string()
            }
        };
        let mut s = Script::default();
        if salted {
            s.line(format!(
                "create '{table}', 'e', {SPLIT_SMALL}, SPLITS => ['1', '2', '3', '4', '5', '6', '7']"
            ));
        } else {
            s.line(format!("create '{table}', 'e', {SPLIT_SMALL}"));
        }
        for (i, ts) in times[..HISTORY].iter().enumerate() {
            s.put(table, &row(*ts), "e:url", &format!("/p/{}", i % 40));
        }
        let setup = s.done();
        for ts in &times[HISTORY..] {
            s.put(table, &row(*ts), "e:url", "/new");
        }
        let writes = s.done();
        if salted {
            for b in 0..BUCKETS {
                s.line(format!(
                    "count '{table}', {{STARTROW => '{b}-{from}', STOPROW => '{b}-{to}'}}"
                ));
            }
        } else {
            s.line(format!(
                "count '{table}', {{STARTROW => '{from}', STOPROW => '{to}'}}"
            ));
        }
        Side::new(label, key, table, setup, writes, s.done())
    };
    let mut a = side("Plain time keys", "<ts>", "ab_events", false);
    a.claims = vec![
        (Phase::Writes, on(Measure::BusiestWriteShare).gt(90.0)),
        (Phase::Reads, on(Measure::Reads).eq(1.0)),
        (Phase::Reads, scanned_is_returned()),
    ];
    let mut b = side(
        "Salted: 8 buckets",
        "<md5(ts) mod 8>-<ts>",
        "ab_salted",
        true,
    );
    b.claims = vec![
        (Phase::Writes, on(Measure::BusiestWriteShare).lt(25.0)),
        (
            Phase::Writes,
            on(Measure::RegionsTouched).ge(BUCKETS as f64),
        ),
        (Phase::Reads, on(Measure::Reads).eq(BUCKETS as f64)),
        (Phase::Reads, scanned_is_returned()),
    ];
    Pair {
        id: "plain-vs-salted",
        title: "Plain time keys against salted time keys",
        workload: "1,500 events exist, arriving in bursts; 100 more arrive; then every event of one minute.",
        why: "A plain time key sends every new event to the region at the end of the table. A salt of eight buckets in front of the time spreads them over eight regions, and the minute is still exact reads, but it lives in eight places: one scan becomes eight, merged by the client.",
        designs: &["schema.salting", "cases.access-log"],
        write_actions: NEW as u64,
        read_actions: 1,
        a,
        b,
        versus: vec![
            versus(Phase::Writes, Measure::BusiestWriteShare, Rel::Gt, 3.0),
            versus(Phase::Reads, Measure::Reads, Rel::Eq, 1.0 / BUCKETS as f64),
            versus(Phase::Reads, Measure::RowsReturned, Rel::Eq, 1.0),
        ],
    }
}
