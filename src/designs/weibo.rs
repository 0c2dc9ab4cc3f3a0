//! A microblog: users with follow and fan lists, posts newest first, and a fan-out inbox
//! kept as versions (design document 000).

use super::lesson::{on, scanned_is_returned, Measure};
use super::{pattern, reverse_ts, Design, Script, Verdict};

const USERS: &[(&str, &str)] = &[("001", "小红"), ("002", "小黑"), ("003", "小白")];
/// (follower, followed)
const FOLLOWS: &[(&str, &str)] = &[
    ("001", "002"),
    ("002", "001"),
    ("002", "003"),
    ("003", "001"),
    ("003", "002"),
];
const BASE_TS: u64 = 1_700_000_000_000;

fn name(pid: &str) -> &'static str {
    USERS
        .iter()
        .find(|u| u.0 == pid)
        .map(|u| u.1)
        .unwrap_or("?")
}

fn users() -> String {
    let mut s = Script::default();
    s.line("create 'wb_user', 'cf1', 'cf2', 'cf3'");
    for (pid, n) in USERS {
        s.put("wb_user", pid, "cf1:name", n);
    }
    for (a, b) in FOLLOWS {
        s.put("wb_user", a, &format!("cf2:{b}"), name(b)).put(
            "wb_user",
            b,
            &format!("cf3:{a}"),
            name(a),
        );
    }
    s.done()
}

/// Post ids: `<pid>_<Long.MAX_VALUE - timestamp>`.
fn post_key(pid: &str, ts: u64) -> String {
    format!("{pid}_{}", reverse_ts(ts))
}

fn posts() -> String {
    let mut s = Script::default();
    s.line("create 'wb_post', 'cf'");
    for i in 0..60u64 {
        let pid = USERS[(i % 3) as usize].0;
        let ts = BASE_TS + i * 60_000;
        let key = post_key(pid, ts);
        s.put_at("wb_post", &key, "cf:title", &format!("post {i}"), ts)
            .put_at(
                "wb_post",
                &key,
                "cf:content",
                &format!("{} says hello #{i}", name(pid)),
                ts,
            );
    }
    s.done()
}

fn inbox() -> String {
    let mut s = Script::default();
    s.line("create 'wb_inbox', {NAME => 'cf', VERSIONS => 10000}");
    // Each post is delivered to every fan of its author: one new version of the fan's cf:sq.
    for i in 0..60u64 {
        let author = USERS[(i % 3) as usize].0;
        let ts = BASE_TS + i * 60_000;
        for (fan, followed) in FOLLOWS {
            if *followed == author {
                s.put_at("wb_inbox", fan, "cf:sq", &post_key(author, ts), ts);
            }
        }
    }
    s.done()
}

/// How many users follow `pid`.
fn fans(pid: &str) -> usize {
    FOLLOWS.iter().filter(|f| f.1 == pid).count()
}

/// A post of `author` at `ts` delivered to every fan's inbox.
fn deliver(author: &str, ts: u64) -> String {
    let mut s = Script::default();
    for (fan, _) in FOLLOWS.iter().filter(|f| f.1 == author) {
        s.put_at("wb_inbox", fan, "cf:sq", &post_key(author, ts), ts);
    }
    s.done().trim_end().to_string()
}

pub fn designs() -> Vec<Design> {
    let newest_001 = post_key("001", BASE_TS + 57 * 60_000);
    vec![
        Design {
            id: "weibo.users",
            title: "Users with follow and fan lists",
            source: "000",
            verdict: Verdict::Recommended,
            why: "One row per user: cf1 for the profile, cf2 for whom they follow, cf3 for their fans, one column per other user. A user's lists are one get; following someone writes the follower's cf2 and the followed user's cf3, two rows to keep in step.",
            tables: &["wb_user"],
            setup: users,
            patterns: vec![
                pattern("Whom 002 follows and who follows 002", "get 'wb_user', '002'", "Both lists in one row.").shows([on(Measure::RowsScanned).eq(1.0)]),
                pattern("001 follows 003 (two rows)", "put 'wb_user', '001', 'cf2:003', '小白'\nput 'wb_user', '003', 'cf3:001', '小红'", "Each side's list gets a column: two rows per follow, not atomic together.").shows([on(Measure::RowsPerAction).eq(2.0)]),
                pattern("001 unfollows 002", "delete 'wb_user', '001', 'cf2:002'\ndelete 'wb_user', '002', 'cf3:001'", "And back again.").shows([on(Measure::RowsPerAction).eq(2.0)]),
            ],
        },
        Design {
            id: "weibo.posts",
            title: "Posts keyed by author and reverse time",
            source: "000",
            verdict: Verdict::Recommended,
            why: "The key <pid>_<Long.MAX_VALUE - timestamp> puts each author's posts together and, because a later time gives a smaller number, newest first. A prefix scan with a limit returns the latest posts without reading the rest.",
            tables: &["wb_post"],
            setup: posts,
            patterns: vec![
                pattern("The 5 newest posts of 001", "scan 'wb_post', {ROWPREFIXFILTER => '001_', LIMIT => 5}", "Stops after five rows: examined equals returned.").shows([scanned_is_returned(), on(Measure::RowsReturned).eq(5.0)]),
                pattern("The newest post of 001 is the first row", format!("get 'wb_post', '{newest_001}'"), "The first key of the prefix is the latest post.").shows([on(Measure::RowsScanned).eq(1.0)]),
            ],
        },
        Design {
            id: "weibo.inbox",
            title: "A home timeline as versions of one cell",
            source: "000",
            verdict: Verdict::Tradeoff,
            why: "Posting writes the post id into each fan's row as a new version of cf:sq (VERSIONS => 10000). Reading the newest N versions of one cell gives the timeline in time order. It leans on versions as a list: HBase orders versions by timestamp only, and a flush or compaction drops anything past 10000.",
            tables: &["wb_inbox"],
            setup: inbox,
            patterns: vec![
                pattern("Home timeline of 003: newest 10 posts", "get 'wb_inbox', '003', {COLUMN => 'cf:sq', VERSIONS => 10}", "Ten versions of one cell, newest first.").shows([on(Measure::RowsScanned).eq(1.0)]),
                pattern("002 posts: one new version per fan", deliver("002", BASE_TS + 61 * 60_000), "Every fan's row gets the post id: rows written per post = the author's fans.").shows([on(Measure::RowsPerAction).eq(fans("002") as f64)]),
                pattern("Every delivered version, as stored", "scan 'wb_inbox', {RAW => true, VERSIONS => 10000, LIMIT => 1}", "Click a row key to see all versions in the Versions view.").shows([scanned_is_returned()]),
            ],
        },
    ]
}
