//! A follow feature, single-row and tall (design document 004).

use super::gen::Gen;
use super::lesson::{on, scanned_is_returned, Measure};
use super::{md5_hex, pattern, reverse_ts, Design, Script, Size, Verdict};

const USERS: &[(&str, &str)] = &[
    ("1001", "zhang"),
    ("1002", "li"),
    ("1003", "wang"),
    ("1004", "zhao"),
    ("1005", "qian"),
];
/// (follower, followed)
const FOLLOWS: &[(&str, &str)] = &[
    ("1001", "1002"),
    ("1001", "1003"),
    ("1002", "1001"),
    ("1003", "1001"),
    ("1004", "1001"),
    ("1004", "1003"),
    ("1005", "1002"),
];
const T0: u64 = 1_700_000_000_000;

fn name(id: &str) -> &'static str {
    USERS.iter().find(|u| u.0 == id).map(|u| u.1).unwrap_or("?")
}

fn single_row() -> String {
    let mut s = Script::default();
    s.line("create 'fl_user', {NAME => 'info', VERSIONS => 3}, {NAME => 'follows', VERSIONS => 3}, {NAME => 'fans', VERSIONS => 3}");
    for (id, n) in USERS {
        s.put("fl_user", id, "info:username", n)
            .put("fl_user", id, "info:pwd", "secret");
    }
    for (i, (a, b)) in FOLLOWS.iter().enumerate() {
        let ts = T0 + i as u64 * 1000;
        s.put("fl_user", a, &format!("follows:{b}-{ts}"), name(b))
            .put("fl_user", b, &format!("fans:{a}-{ts}"), name(a));
    }
    s.done()
}

/// Users of the tall design beyond the five named ones, and how many each follows.
const MORE_USERS: u64 = 400;
const FOLLOWS_EACH: usize = 6;

/// `(follower, followed)` of the tall design: the named five's follows, then each further user
/// (ids 1006 on) following six users picked with a skew towards the first ids.
fn tall_follows() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = FOLLOWS
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let mut g = Gen::new(1004);
    let total = USERS.len() as u64 + MORE_USERS;
    for fan in USERS.len() as u64..total {
        let mut mine: Vec<u64> = Vec::new();
        while mine.len() < FOLLOWS_EACH {
            let star = g.skewed(total, 3.0);
            if star != fan && !mine.contains(&star) {
                mine.push(star);
            }
        }
        out.extend(mine.into_iter().map(|s| (user_id(fan), user_id(s))));
    }
    out
}

fn user_id(index: u64) -> String {
    (1001 + index).to_string()
}

fn user_name(id: &str) -> String {
    USERS
        .iter()
        .find(|u| u.0 == id)
        .map_or_else(|| format!("user{id}"), |u| u.1.to_string())
}

fn fans_of(id: &str) -> usize {
    tall_follows().iter().filter(|f| f.1 == id).count()
}

fn tall() -> String {
    let mut s = Script::default();
    s.line("create 'fl_follows', 'f'")
        .line("create 'fl_fans', 'f'")
        .line("create 'fl_pair', 'f'");
    for (i, (a, b)) in tall_follows().iter().enumerate() {
        let (a, b) = (a.as_str(), b.as_str());
        let (name_a, name_b) = (user_name(a), user_name(b));
        let (name_a, name_b) = (name_a.as_str(), name_b.as_str());
        let ts = T0 + i as u64 * 1000;
        s.put(
            "fl_follows",
            &format!("{a}{}", reverse_ts(ts)),
            &format!("f:{b}"),
            name_b,
        );
        s.put(
            "fl_fans",
            &format!("{b}{}", reverse_ts(ts)),
            &format!("f:{a}"),
            name_a,
        );
        s.put(
            "fl_pair",
            &format!("{}{}", md5_hex(a, 8), md5_hex(b, 8)),
            "f:name",
            name_b,
        );
    }
    s.done()
}

/// The qualifier timestamp of a sample follow.
fn follow_ts(a: &str, b: &str) -> Option<u64> {
    FOLLOWS
        .iter()
        .position(|f| *f == (a, b))
        .map(|i| T0 + i as u64 * 1000)
}

/// `a` unfollows `b` in the single-row design.
fn unfollow(a: &str, b: &str) -> String {
    unfollow_in("fl_user", a, b, follow_ts(a, b).unwrap_or(T0))
}

/// `a` unfollows `b` in a single-row table whose qualifiers are `<id>-<ts>`: find the
/// qualifier in both rows with a ColumnPrefixFilter on `<id>-` (the dash keeps `100` from
/// matching `1001-`), then delete it in both. The deletes name the qualifiers the lookups
/// return (the follow was made at `ts`).
pub(super) fn unfollow_in(table: &str, a: &str, b: &str, ts: u64) -> String {
    format!(
        "get '{table}', '{a}', {{COLUMN => 'follows', FILTER => \"ColumnPrefixFilter('{b}-')\"}}\n\
         get '{table}', '{b}', {{COLUMN => 'fans', FILTER => \"ColumnPrefixFilter('{a}-')\"}}\n\
         delete '{table}', '{a}', 'follows:{b}-{ts}'\n\
         delete '{table}', '{b}', 'fans:{a}-{ts}'"
    )
}

fn atomicity() -> String {
    let mut s = Script::default();
    s.line("create 'fl_at_follows', 'f'")
        .line("create 'fl_at_fans', 'f'");
    for (a, b) in [("2001", "2002"), ("2003", "2001"), ("2004", "2005")] {
        s.put("fl_at_follows", &format!("{a}{b}"), "f:name", b).put(
            "fl_at_fans",
            &format!("{b}{a}"),
            "f:name",
            a,
        );
    }
    s.done()
}

pub fn designs(size: Size) -> Vec<Design> {
    let pair = format!("{}{}", md5_hex("1004", 8), md5_hex("1003", 8));
    vec![
        Design {
            id: "follow.single-row",
            title: "Follows and fans as columns of the user's row",
            source: "004",
            verdict: Verdict::Tradeoff,
            why: "One row per user with families info, follows and fans; the qualifier is <other id>-<timestamp>. Everything about a user is one get and each row changes atomically, but a follow changes two users' rows (the follower's follows, the followed user's fans), so the follow as a whole is not atomic. To unfollow, the qualifier must first be found with a ColumnPrefixFilter on the id in both rows: two lookups and two deletes, four round trips for one unfollow. Very popular users grow very wide rows.",
            tables: &["fl_user"],
            setup: |_| single_row(),
            size,
            scales: false,
            patterns: vec![
                pattern("Everything about 1001", "get 'fl_user', '1001'", "Profile, follows and fans in one row.").shows([on(Measure::RowsScanned).eq(1.0)]),
                pattern("1005 follows 1003 (two rows)", format!("put 'fl_user', '1005', 'follows:1003-{t}', 'wang'\nput 'fl_user', '1003', 'fans:1005-{t}', 'qian'", t = T0 + 60_000), "Two separate row mutations: between them, one list says yes and the other no.").shows([on(Measure::RowsPerAction).eq(2.0)]),
                pattern("Unfollow, step 1: find the qualifier", "get 'fl_user', '1004', {COLUMN => 'follows', FILTER => \"ColumnPrefixFilter('1003-')\"}", "The timestamp in the qualifier must be looked up first.").shows([on(Measure::RowsScanned).eq(1.0), on(Measure::CellsReturned).eq(1.0)]),
                pattern("1001 unfollows 1002: the whole cost", unfollow("1001", "1002"), "Two lookups (each row's qualifier carries the follow's time) and two deletes, one per row: four round trips, and no atomicity across the two rows.").shows([on(Measure::Reads).eq(2.0), on(Measure::CellsReturned).eq(2.0), on(Measure::RowsWritten).eq(2.0)]),
            ],
        },
        Design {
            id: "follow.tall",
            title: "Follows as rows: user id + reverse time",
            source: "004",
            verdict: Verdict::Recommended,
            why: "Each follow is a row <user id><Long.MAX_VALUE - ts> with the other user as qualifier, in a follows table and a fans table, so both lists are prefix scans, newest first (405 users here, a few of them followed by most). Keyed hash(a)+hash(b) instead (fl_pair), the ids get a fixed length and 'does 1004 follow 1003' or an unfollow is one get or delete, at the price of the natural order.",
            tables: &["fl_follows", "fl_fans", "fl_pair"],
            setup: |_| tall(),
            size,
            scales: false,
            patterns: vec![
                pattern("Whom 1004 follows, newest first", "scan 'fl_follows', {ROWPREFIXFILTER => '1004'}", "A prefix scan of small rows.").shows([scanned_is_returned(), on(Measure::RowsReturned).eq(2.0)]),
                pattern("Fans of 1001", "scan 'fl_fans', {ROWPREFIXFILTER => '1001'}", "The mirrored table.").shows([scanned_is_returned(), on(Measure::RowsReturned).eq(fans_of("1001") as f64)]),
                pattern("Every follow, newest first", "count 'fl_follows'", "Small rows: the table splits and the follows spread over regions.").shows([scanned_is_returned(), on(Measure::RegionsTouched).ge(2.0)]),
                pattern("Does 1004 follow 1003? (hashed pair key)", format!("get 'fl_pair', '{pair}'"), "One get; deleting the row unfollows.").shows([on(Measure::RowsScanned).eq(1.0)]),
            ],
        },
        Design {
            id: "follow.atomicity",
            title: "A follow in a tall design is not one transaction",
            source: "004",
            verdict: Verdict::Tradeoff,
            why: "In the tall design a follow is a row in the follows table and a row in the fans table. HBase makes each row's change atomic, never two rows together: when the client stops between the two writes (a crash, a timeout), the tables disagree, one saying 2002 follows 2005 and the other not, until something repairs it. Wide single-row designs keep each user's row atomic but still change two rows per follow.",
            tables: &["fl_at_follows", "fl_at_fans"],
            setup: |_| atomicity(),
            size,
            scales: false,
            patterns: vec![
                pattern("2001 follows 2005: two rows, two tables", "put 'fl_at_follows', '20012005', 'f:name', 'e'\nput 'fl_at_fans', '20052001', 'f:name', 'a'", "Two separate row mutations.").shows([on(Measure::RowsPerAction).eq(2.0), on(Measure::RegionsTouched).eq(2.0)]),
                pattern("2002 follows 2005, cut short after the first write; then ask both tables", "put 'fl_at_follows', '20022005', 'f:name', 'e'\nget 'fl_at_follows', '20022005'\nget 'fl_at_fans', '20052002'", "The client stopped after the follows row: the fans row was never written, so one table says yes and the other no.").shows([on(Measure::RowsWritten).eq(1.0), on(Measure::Reads).eq(2.0), on(Measure::RowsReturned).eq(1.0)]),
            ],
        },
    ]
}
