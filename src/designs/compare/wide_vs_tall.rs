//! Follows as columns of a wide row against a row per follow.

use super::{versus, Pair, Phase, Side, SPLIT_SMALL};
use crate::designs::gen::Gen;
use crate::designs::lesson::{on, scanned_is_returned, Measure, Rel};
use crate::designs::{md5_hex, Script};

/// Follows, most of them of a few celebrities; the questions are a celebrity's followers and
/// whether one user follows another.
pub(super) fn wide_vs_tall() -> Pair {
    const USERS: u64 = 300;
    const HISTORY: u64 = 1_800;
    const NEW: u64 = 200;
    let mut g = Gen::new(23);
    let follows: Vec<(u64, u64)> = (0..HISTORY + NEW)
        .map(|_| (g.skewed(USERS, 3.0), g.below(USERS)))
        .collect();
    let user = |i: u64| format!("u{i:03}");
    let side = |label, key: &'static str, table: &'static str, tall: bool| {
        let write = |s: &mut Script, (followed, follower): (u64, u64)| {
            let (f, r) = (user(followed), user(follower));
            if tall {
                let key = format!("{}{}", md5_hex(&f, 8), md5_hex(&r, 8));
                s.put(table, &key, "f:n", &r);
            } else {
                s.put(table, &f, &format!("f:{r}"), "1");
            }
        };
        let mut s = Script::default();
        s.line(format!("create '{table}', 'f', {SPLIT_SMALL}"));
        for f in &follows[..HISTORY as usize] {
            write(&mut s, *f);
        }
        let setup = s.done();
        for f in &follows[HISTORY as usize..] {
            write(&mut s, *f);
        }
        let writes = s.done();
        // The celebrity, and one of its followers.
        let fan = follows.iter().find(|f| f.0 == 0).map_or(1, |f| f.1);
        let (star, fan) = (user(0), user(fan));
        let reads = if tall {
            format!(
                "scan '{table}', {{ROWPREFIXFILTER => '{}', COLUMNS => ['f:n']}}\nget '{table}', '{}{}'",
                md5_hex(&star, 8),
                md5_hex(&star, 8),
                md5_hex(&fan, 8)
            )
        } else {
            format!("get '{table}', '{star}'\nget '{table}', '{star}', 'f:{fan}'")
        };
        Side::new(label, key, table, setup, writes, reads)
    };
    let mut a = side(
        "Wide: a row per user",
        "<followed>, column f:<follower>",
        "ab_wide",
        false,
    );
    a.claims = vec![
        (Phase::Reads, on(Measure::RowsScanned).eq(2.0)),
        (Phase::Reads, scanned_is_returned()),
    ];
    let mut b = side(
        "Tall: a row per follow",
        "md5(<followed>)[0..8] md5(<follower>)[0..8]",
        "ab_tall",
        true,
    );
    b.claims = vec![
        (Phase::Writes, on(Measure::BusiestWriteShare).lt(50.0)),
        (Phase::Reads, on(Measure::RowsScanned).gt(20.0)),
    ];
    Pair {
        id: "wide-vs-tall",
        title: "Wide rows against tall rows for follows",
        workload: "300 users and 1,800 follows, most of them of a few celebrities; 200 more follows; then the followers of the biggest celebrity, and whether one user follows it.",
        why: "Wide, a celebrity's followers are one row: one get reads them, but the row never splits, so its region takes the celebrity's share of every write. Tall, each follow is its own small row under a hash of the pair: the writes spread and 'does X follow Y' is one get, while the followers are a prefix scan over as many rows, and every follow pays for a longer key.",
        designs: &["schema.tall-vs-wide", "schema.wide-row-overhead", "follow.tall"],
        write_actions: NEW,
        read_actions: 2,
        a,
        b,
        versus: vec![
            versus(Phase::Writes, Measure::BusiestWriteShare, Rel::Gt, 1.0),
            versus(Phase::Writes, Measure::BytesPerRecord, Rel::Lt, 1.0),
            versus(Phase::Reads, Measure::RowsScanned, Rel::Lt, 0.2),
        ],
    }
}
