//! Sequential ids against hashed ids: where sign-ups land, and what a range of ids costs.

use super::{versus, Pair, Phase, Side, SPLIT_SMALL};
use crate::designs::gen::Gen;
use crate::designs::lesson::{on, scanned_is_returned, Measure, Rel};
use crate::designs::{md5_hex, Script};

/// Users signing up with sequential ids; lookups of recent users (recent ids are read most)
/// and one range of ids.
pub(super) fn sequential_vs_hashed() -> Pair {
    const FIRST: u64 = 100_000;
    const HISTORY: u64 = 1_200;
    const NEW: u64 = 100;
    const LOOKUPS: u64 = 20;
    let mut g = Gen::new(11);
    let looked_up: Vec<u64> = (0..LOOKUPS)
        .map(|_| FIRST + g.recent(HISTORY + NEW, 3.0))
        .collect();
    let side = |label, key: &'static str, table: &'static str, hashed: bool| {
        let row = |id: u64| {
            if hashed {
                format!("{}:{id}", md5_hex(&id.to_string(), 8))
            } else {
                id.to_string()
            }
        };
        let mut s = Script::default();
        s.line(format!("create '{table}', 'u', {SPLIT_SMALL}"));
        for id in FIRST..FIRST + HISTORY {
            s.put(table, &row(id), "u:name", &format!("user {id}"));
        }
        let setup = s.done();
        for id in FIRST + HISTORY..FIRST + HISTORY + NEW {
            s.put(table, &row(id), "u:name", &format!("user {id}"));
        }
        let writes = s.done();
        for id in &looked_up {
            s.line(format!("get '{table}', '{}'", row(*id)));
        }
        if hashed {
            s.line(format!(
                "count '{table}', {{FILTER => \"RowFilter(=, 'regexstring::1001[0-9][0-9]$')\"}}"
            ));
        } else {
            s.line(format!(
                "count '{table}', {{STARTROW => '100100', STOPROW => '100200'}}"
            ));
        }
        Side::new(label, key, table, setup, writes, s.done())
    };
    let mut a = side("Sequential ids", "<id>", "ab_seq", false);
    a.claims = vec![
        (Phase::Writes, on(Measure::BusiestWriteShare).gt(90.0)),
        (Phase::Reads, scanned_is_returned()),
    ];
    let mut b = side("Hashed ids", "md5(<id>)[0..8]:<id>", "ab_hashed", true);
    b.claims = vec![
        (Phase::Writes, on(Measure::BusiestWriteShare).lt(50.0)),
        (
            Phase::Reads,
            on(Measure::RowsScanned).gt_times(2.0, Measure::RowsReturned),
        ),
    ];
    Pair {
        id: "sequential-vs-hashed",
        title: "Sequential ids against hashed ids",
        workload: "1,200 users exist; 100 more sign up with the next ids; then 20 lookups of users, recent ones likelier, and the ids 100100–100199 as a range.",
        why: "Every new sequential id is the largest key, so the region at the end of the table takes all the sign-ups. A hash prefix spreads them over every region, and a lookup by id is still one get, but the ids' order is gone: the range of ids becomes a read of the whole table.",
        designs: &["schema.sequential-ids", "schema.hashed-id", "schema.hash-vs-reverse", "schema.salting"],
        write_actions: NEW,
        read_actions: LOOKUPS + 1,
        a,
        b,
        versus: vec![
            versus(Phase::Writes, Measure::BusiestWriteShare, Rel::Gt, 2.0),
            versus(Phase::Reads, Measure::RowsScanned, Rel::Lt, 0.5),
        ],
    }
}
