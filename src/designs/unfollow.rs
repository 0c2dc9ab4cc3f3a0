//! Unfollow in both follow designs (design document 004): in the single-row design the
//! qualifier `<id>-<timestamp>` must be found before it can be deleted, in both users' rows;
//! in the tall design the row key `<id><Long.MAX_VALUE - ts>` must be found in both tables.
//! Ids of different lengths make the lookups' prefixes ambiguous: `100` is also the start of
//! `1001`.

use super::lesson::{on, Measure};
use super::{pattern, reverse_ts, Design, Script, Size, Verdict};

/// Users: 100 and 1001–1006, so one id is the start of the others.
const USERS: &[&str] = &["100", "1001", "1002", "1003", "1004", "1005", "1006"];
/// `(follower, followed)`.
const FOLLOWS: &[(&str, &str)] = &[
    ("1002", "100"),
    ("1002", "1001"),
    ("1003", "100"),
    ("1003", "1001"),
    ("1004", "1001"),
    ("1005", "100"),
    ("1006", "1001"),
    ("100", "1004"),
    ("1001", "1005"),
];
const T0: u64 = 1_700_000_000_000;

fn follow_ts(i: usize) -> u64 {
    T0 + i as u64 * 1000
}

fn setup() -> String {
    let mut s = Script::default();
    s.line("create 'fu_user', 'info', 'follows', 'fans'")
        .line("create 'fu_follows', 'f'")
        .line("create 'fu_fans', 'f'");
    for id in USERS {
        s.put("fu_user", id, "info:username", &format!("user {id}"));
    }
    for (i, (a, b)) in FOLLOWS.iter().enumerate() {
        let ts = follow_ts(i);
        s.put("fu_user", a, &format!("follows:{b}-{ts}"), b)
            .put("fu_user", b, &format!("fans:{a}-{ts}"), a)
            .put(
                "fu_follows",
                &format!("{a}{}", reverse_ts(ts)),
                &format!("f:{b}"),
                b,
            )
            .put(
                "fu_fans",
                &format!("{b}{}", reverse_ts(ts)),
                &format!("f:{a}"),
                a,
            );
    }
    s.done()
}

fn ts_of(a: &str, b: &str) -> u64 {
    FOLLOWS
        .iter()
        .position(|f| *f == (a, b))
        .map_or(T0, follow_ts)
}

/// Rows of `fu_fans` whose key starts with `prefix`.
fn fan_rows_starting(prefix: &str) -> usize {
    FOLLOWS.iter().filter(|f| f.1.starts_with(prefix)).count()
}

pub fn designs(size: Size) -> Vec<Design> {
    let single = super::follow::unfollow_in("fu_user", "1002", "100", ts_of("1002", "100"));
    let ts = ts_of("1003", "100");
    let tall = format!(
        "scan 'fu_follows', {{ROWPREFIXFILTER => '1003', FILTER => \"QualifierFilter(=, 'binary:100')\"}}\n\
         scan 'fu_fans', {{ROWPREFIXFILTER => '100', FILTER => \"QualifierFilter(=, 'binary:1003')\"}}\n\
         deleteall 'fu_follows', '1003{r}'\n\
         deleteall 'fu_fans', '100{r}'",
        r = reverse_ts(ts)
    );
    let follows_of_1003 = FOLLOWS.iter().filter(|f| f.0 == "1003").count();
    // The fans scan for 100 returns every fan row of 1003 under a key starting with 100.
    let fan_rows_of_1003 = FOLLOWS
        .iter()
        .filter(|f| f.0 == "1003" && f.1.starts_with("100"))
        .count();
    vec![Design {
        id: "follow.unfollow",
        title: "Unfollow in the single-row and the tall follow designs",
        source: "004",
        verdict: Verdict::Tradeoff,
        why: "Neither follow design can delete an unfollow by name alone. In one row per user (fu_user) the qualifier is <id>-<timestamp>: a get with a ColumnPrefixFilter finds it in the follower's follows and another in the followed user's fans, then two deletes, one per row: two lookups and two deletes, not atomic together. In the tall design (fu_follows, fu_fans) the row key holds the time, so each table is scanned for the row, then each row deleted. Ids of different lengths make the prefixes ambiguous: the prefix 100 also matches 1001-… and every row of users 1001 to 1006, so a lookup for user 100 reads (or, filtered carelessly, deletes) other users' entries. Keep the separator in the prefix (100-), or give ids a fixed width.",
        tables: &["fu_user", "fu_follows", "fu_fans"],
        setup: |_| setup(),
        size,
        scales: false,
        patterns: vec![
            pattern("1002 unfollows 100, one row per user", single, "Two lookups, one per row, then two deletes.").shows([on(Measure::Reads).eq(2.0), on(Measure::CellsReturned).eq(2.0), on(Measure::RowsWritten).eq(2.0)]),
            pattern("Whom 1003 follows under the prefix 100, without the dash", "get 'fu_user', '1003', {COLUMN => 'follows', FILTER => \"ColumnPrefixFilter('100')\"}", "1003 follows 100 and 1001: the prefix 100 matches both qualifiers.").shows([on(Measure::CellsReturned).eq(follows_of_1003 as f64)]),
            pattern("The same with the dash: 100-", "get 'fu_user', '1003', {COLUMN => 'follows', FILTER => \"ColumnPrefixFilter('100-')\"}", "Only the follow of 100.").shows([on(Measure::CellsReturned).eq(1.0)]),
            pattern("1003 unfollows 100, tall: two lookups and two deletes", tall, "The fans scan for 100 reads the fan rows of 1001 to 1006 too, since their keys start with 100 as well, and returns 1001's row of 1003 beside 100's: only the key's length tells them apart, and a delete of both would unfollow 1001 as well.").shows([on(Measure::Reads).eq(2.0), on(Measure::RowsReturned).eq((1 + fan_rows_of_1003) as f64), on(Measure::RowsScanned).eq((follows_of_1003 + fan_rows_starting("100")) as f64), on(Measure::RowsWritten).eq(2.0)]),
        ],
    }]
}
