//! A microblog: users with follow and fan lists, posts newest first, and a fan-out inbox
//! kept as versions (design document 000).

use super::gen::Gen;
use super::lesson::{on, scanned_is_returned, Measure};
use super::{pattern, reverse_ts, Design, Script, Size, Verdict};
use crate::kit::order;

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

/// Users of the user and inbox tables at the medium size (the document's three among them),
/// and how many others each further user follows.
const WORLD_USERS: u64 = 500;
const WORLD_FOLLOWS_EACH: u64 = 8;

fn pid(i: u64) -> String {
    format!("{:03}", i + 1)
}

/// `(follower, followed)`: the document's follows among 001–003, then each further user
/// following eight others picked with a strong skew towards the first ids, so 001, 002 and
/// 003 are the celebrities with most of the fans.
fn world_follows(size: Size) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = FOLLOWS
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let users = size.of(WORLD_USERS).max(USERS.len() as u64 + 1);
    let mut g = Gen::new(1000);
    for fan in USERS.len() as u64..users {
        let mut mine: Vec<u64> = Vec::new();
        while (mine.len() as u64) < WORLD_FOLLOWS_EACH {
            let star = g.skewed(users, 4.0);
            if star != fan && !mine.contains(&star) {
                mine.push(star);
            }
        }
        out.extend(mine.into_iter().map(|star| (pid(fan), pid(star))));
    }
    out
}

fn users(size: Size) -> String {
    let mut s = Script::default();
    s.line("create 'wb_user', 'cf1', 'cf2', 'cf3'");
    for i in 0..size.of(WORLD_USERS).max(USERS.len() as u64) {
        s.put("wb_user", &pid(i), "cf1:name", &author_name(&pid(i)));
    }
    for (a, b) in world_follows(size) {
        s.put("wb_user", &a, &format!("cf2:{b}"), &author_name(&b))
            .put("wb_user", &b, &format!("cf3:{a}"), &author_name(&a));
    }
    s.done()
}

/// Post ids: `<pid>_<Long.MAX_VALUE - timestamp>`.
fn post_key(pid: &str, ts: u64) -> String {
    format!("{pid}_{}", reverse_ts(ts))
}

/// Authors of the post sample, and posts.
const AUTHORS: u64 = 40;
const POSTS: usize = 2_000;

/// `(author, time)` of every post: a few authors write most posts (001 the most), and posts
/// come in bursts.
fn post_sample() -> Vec<(String, u64)> {
    let mut g = Gen::new(77);
    let times = super::gen::bursty_times(&mut g, BASE_TS, POSTS, 30_000);
    times
        .into_iter()
        .map(|ts| (format!("{:03}", g.skewed(AUTHORS, 2.0) + 1), ts))
        .collect()
}

fn author_name(pid: &str) -> String {
    USERS
        .iter()
        .find(|u| u.0 == pid)
        .map_or_else(|| format!("user {pid}"), |u| u.1.to_string())
}

fn posts() -> String {
    let mut s = Script::default();
    s.line("create 'wb_post', 'cf'");
    for (i, (pid, ts)) in post_sample().into_iter().enumerate() {
        let pid = pid.as_str();
        let key = post_key(pid, ts);
        s.put_at("wb_post", &key, "cf:title", &format!("post {i}"), ts)
            .put_at(
                "wb_post",
                &key,
                "cf:content",
                &format!("{} says hello #{i}", author_name(pid)),
                ts,
            );
    }
    s.done()
}

/// Posts delivered into the inboxes at the medium size: the first sixty by 001–003 in turn,
/// the rest by authors picked with a skew towards the celebrities.
const INBOX_POSTS: u64 = 240;

fn inbox(size: Size) -> String {
    let follows = world_follows(size);
    let users = size.of(WORLD_USERS).max(USERS.len() as u64 + 1);
    let mut g = Gen::new(61);
    let mut s = Script::default();
    s.line(format!(
        "create 'wb_inbox', {{NAME => 'cf', VERSIONS => {INBOX_CAP}}}"
    ));
    // Each post is delivered to every fan of its author: one new version of the fan's cf:sq.
    for i in 0..size.of(INBOX_POSTS).max(60) {
        let author = if i < 60 {
            USERS[(i % 3) as usize].0.to_string()
        } else {
            pid(g.skewed(users, 2.0))
        };
        let ts = BASE_TS + i * 60_000;
        for (fan, followed) in &follows {
            if *followed == author {
                s.put_at("wb_inbox", fan, "cf:sq", &post_key(&author, ts), ts);
            }
        }
    }
    s.done()
}

/// The inbox family's VERSIONS.
const INBOX_CAP: u64 = 10_000;
/// A millisecond no sample delivery uses, for two deliveries that share it.
const SAME_MS: u64 = BASE_TS - 7_000;

/// 10,005 deliveries to one reader (row `000`, no sample user), a millisecond apart, then a
/// read of every version the family keeps.
fn busy_reader() -> String {
    let mut s = Script::default();
    let t0 = BASE_TS - 3_600_000;
    for i in 0..INBOX_CAP + 5 {
        let ts = t0 + i;
        s.put_at("wb_inbox", "000", "cf:sq", &post_key("001", ts), ts);
    }
    s.line("get 'wb_inbox', '000', {COLUMN => 'cf:sq', VERSIONS => 20000}");
    s.done().trim_end().to_string()
}

/// Users of the fan-out world, and how many users each follows.
const FANOUT_USERS: u64 = 400;
const FOLLOWS_EACH: u64 = 12;

/// Who follows whom in the fan-out world: each user follows a dozen others, chosen with a
/// strong skew towards the first ids, so a few celebrities collect most of the follows.
/// Computed once per thread: the graph is deterministic and the designs read it many times.
fn fanout_follows() -> std::rc::Rc<[(u64, u64)]> {
    thread_local! {
        static FOLLOWS_GRAPH: std::rc::Rc<[(u64, u64)]> = follow_graph().into();
    }
    FOLLOWS_GRAPH.with(std::rc::Rc::clone)
}

fn follow_graph() -> Vec<(u64, u64)> {
    let mut g = Gen::new(2024);
    let mut out = Vec::new();
    for fan in 0..FANOUT_USERS {
        let mut mine: Vec<u64> = Vec::new();
        while (mine.len() as u64) < FOLLOWS_EACH {
            let star = g.skewed(FANOUT_USERS, 4.0);
            if star != fan && !mine.contains(&star) {
                mine.push(star);
            }
        }
        out.extend(mine.into_iter().map(|s| (fan, s)));
    }
    out
}

fn fanout_fans(star: u64) -> Vec<u64> {
    fanout_follows()
        .iter()
        .filter(|f| f.1 == star)
        .map(|f| f.0)
        .collect()
}

fn uid(i: u64) -> String {
    format!("u{i:03}")
}

fn fanout() -> String {
    let mut s = Script::default();
    s.line("create 'wb_fan_user', 'cf3'")
        .line("create 'wb_fan_inbox', {NAME => 'cf', VERSIONS => 1000}");
    for &(fan, star) in fanout_follows().iter() {
        s.put("wb_fan_user", &uid(star), &format!("cf3:{}", uid(fan)), "");
    }
    s.done()
}

/// A post of `author` delivered to each fan's inbox row.
fn fanout_post(author: u64, ts: u64) -> String {
    let mut s = Script::default();
    for fan in fanout_fans(author) {
        s.put_at(
            "wb_fan_inbox",
            &uid(fan),
            "cf:sq",
            &post_key(&uid(author), ts),
            ts,
        );
    }
    s.done().trim_end().to_string()
}

/// An ordinary user: the one with the median number of fans among those with any.
fn ordinary_user() -> u64 {
    let mut counts: Vec<(usize, u64)> = (0..FANOUT_USERS)
        .map(|u| (fanout_fans(u).len(), u))
        .filter(|c| c.0 > 0)
        .collect();
    order::sort(&mut counts);
    counts.get(counts.len() / 2).map_or(0, |c| c.1)
}

/// How many users follow `pid`.
fn fans(size: Size, pid: &str) -> usize {
    world_follows(size).iter().filter(|f| f.1 == pid).count()
}

/// A post of `author` at `ts` delivered to every fan's inbox.
fn deliver(size: Size, author: &str, ts: u64) -> String {
    let mut s = Script::default();
    for (fan, _) in world_follows(size).iter().filter(|f| f.1 == author) {
        s.put_at("wb_inbox", fan, "cf:sq", &post_key(author, ts), ts);
    }
    s.done().trim_end().to_string()
}

pub fn designs(size: Size) -> Vec<Design> {
    let newest_001 = post_sample()
        .into_iter()
        .filter(|p| p.0 == "001")
        .map(|p| post_key("001", p.1))
        .min()
        .unwrap_or_default();
    let star_fans = fanout_fans(0).len() as f64;
    let ordinary = ordinary_user();
    let ordinary_fans = fanout_fans(ordinary).len() as f64;
    vec![
        Design {
            id: "weibo.users",
            title: "Users with follow and fan lists",
            source: "000",
            verdict: Verdict::Recommended,
            why: "One row per user: cf1 for the profile, cf2 for whom they follow, cf3 for their fans, one column per other user. Besides the document's three, hundreds of users follow eight others each, most of them the same few celebrities (001, 002, 003). A user's lists are one get however long; following someone writes the follower's cf2 and the followed user's cf3, two rows to keep in step.",
            tables: &["wb_user"],
            setup: users,
            size,
            scales: true,
            patterns: vec![
                pattern("Whom 002 follows and who follows 002", "get 'wb_user', '002'", "Both lists in one row.").shows([on(Measure::RowsScanned).eq(1.0)]),
                pattern("001 follows 003 (two rows)", "put 'wb_user', '001', 'cf2:003', '小白'\nput 'wb_user', '003', 'cf3:001', '小红'", "Each side's list gets a column: two rows per follow, not atomic together.").shows([on(Measure::RowsPerAction).eq(2.0)]),
                pattern("001 unfollows 002", "delete 'wb_user', '001', 'cf2:002'\ndelete 'wb_user', '002', 'cf3:001'", "And back again.").shows([on(Measure::RowsPerAction).eq(2.0)]),
                pattern("The celebrity 001's fans", "get 'wb_user', '001', 'cf3'", "Hundreds of fans, still one row.").shows([on(Measure::RowsScanned).eq(1.0), on(Measure::RegionsTouched).eq(1.0)]),
                pattern("Every user", "count 'wb_user'", "The rows spread over the regions as the table splits.").shows([scanned_is_returned(), on(Measure::RowsReturned).eq(size.of(WORLD_USERS).max(USERS.len() as u64) as f64), on(Measure::RegionsTouched).ge(2.0)]),
            ],
        },
        Design {
            id: "weibo.posts",
            title: "Posts keyed by author and reverse time",
            source: "000",
            verdict: Verdict::Recommended,
            why: "2,000 posts by 40 authors, a few of them prolific, arriving in bursts. The key <pid>_<Long.MAX_VALUE - timestamp> puts each author's posts together and, because a later time gives a smaller number, newest first. A prefix scan with a limit returns the latest posts without reading the rest.",
            tables: &["wb_post"],
            setup: |_| posts(),
            size,
            scales: false,
            patterns: vec![
                pattern("The 5 newest posts of 001", "scan 'wb_post', {ROWPREFIXFILTER => '001_', LIMIT => 5}", "Stops after five rows: examined equals returned.").shows([scanned_is_returned(), on(Measure::RowsReturned).eq(5.0)]),
                pattern("The newest post of 001 is the first row", format!("get 'wb_post', '{newest_001}'"), "The first key of the prefix is the latest post.").shows([on(Measure::RowsScanned).eq(1.0)]),
                pattern("Every post of 001, newest first", "count 'wb_post', {ROWPREFIXFILTER => '001_'}", "One author's posts are one range, however many others write.").shows([scanned_is_returned()]),
            ],
        },
        Design {
            id: "weibo.inbox",
            title: "A home timeline as versions of one cell",
            source: "000",
            verdict: Verdict::Tradeoff,
            why: "Posting writes the post id into each fan's row as a new version of cf:sq (VERSIONS => 10000); the celebrities post most and have most fans, so most deliveries come from a few authors. Reading the newest N versions of one cell gives the timeline in time order. It leans on versions as a list: HBase orders versions by timestamp only, and a flush or compaction drops anything past 10000: a reader with more than 10,000 deliveries reads only the newest 10,000. A version is its timestamp, so two deliveries in the same millisecond are one version, and the timeline silently loses a post.",
            tables: &["wb_inbox"],
            setup: inbox,
            size,
            scales: true,
            patterns: vec![
                pattern("Home timeline of 003: newest 10 posts", "get 'wb_inbox', '003', {COLUMN => 'cf:sq', VERSIONS => 10}", "Ten versions of one cell, newest first.").shows([on(Measure::RowsScanned).eq(1.0), on(Measure::CellsReturned).eq(10.0)]),
                pattern("Two posts delivered to 003 in one millisecond", format!("put 'wb_inbox', '003', 'cf:sq', '{a}', {SAME_MS}\nput 'wb_inbox', '003', 'cf:sq', '{b}', {SAME_MS}\nget 'wb_inbox', '003', {{COLUMN => 'cf:sq', TIMERANGE => [{SAME_MS}, {}], VERSIONS => 10}}", SAME_MS + 1, a = post_key("001", SAME_MS), b = post_key("002", SAME_MS)), "A version is a timestamp: the second delivery replaces the first, and the timeline loses a post.").actions(2).shows([on(Measure::RowsWritten).eq(2.0), on(Measure::CellsReturned).eq(1.0)]),
                pattern("A reader past the 10,000-version cap", busy_reader(), "10,005 deliveries to one reader: a read returns the newest 10,000, and a flush or compaction drops the five oldest for good.").actions(INBOX_CAP + 5).shows([on(Measure::RowsWritten).eq((INBOX_CAP + 5) as f64), on(Measure::CellsReturned).eq(INBOX_CAP as f64)]),
                pattern("002 posts: one new version per fan", deliver(size, "002", BASE_TS + 100_000 * 60_000), "Every fan's row gets the post id: rows written per post = the author's fans.").shows([on(Measure::RowsPerAction).eq(fans(size, "002") as f64)]),
                pattern("Every delivered version, as stored", "scan 'wb_inbox', {RAW => true, VERSIONS => 10000, LIMIT => 1}", "Click a row key to see all versions in the Versions view.").shows([scanned_is_returned()]),
                pattern("Every inbox", "count 'wb_inbox'", "One row per reader with anything delivered: the rows spread over the regions.").shows([scanned_is_returned(), on(Measure::RegionsTouched).ge(2.0)]),
            ],
        },
        Design {
            id: "weibo.fanout",
            title: "Fan-out on posting: rows written grow with the fans",
            source: "000",
            verdict: Verdict::Tradeoff,
            why: "400 users each follow a dozen others, picked with the skew real networks have: a few celebrities collect most follows (wb_fan_user lists each user's fans). Posting copies the post id into every fan's inbox row, so the cost of one post is its author's fan count: a handful of rows for most users, a large share of the whole user base for a celebrity. Reading a timeline stays one get; the write side pays.",
            tables: &["wb_fan_user", "wb_fan_inbox"],
            setup: |_| fanout(),
            size,
            scales: false,
            patterns: vec![
                pattern("The celebrity u000's fans", "get 'wb_fan_user', 'u000'", "One row, one column per fan.").shows([on(Measure::RowsScanned).eq(1.0)]),
                pattern("An ordinary user posts", fanout_post(ordinary, BASE_TS), "A few inbox rows.").shows([on(Measure::RowsPerAction).eq(ordinary_fans)]),
                pattern("The celebrity u000 posts", fanout_post(0, BASE_TS + 1000), "One post, an inbox row per fan.").shows([on(Measure::RowsPerAction).eq(star_fans), on(Measure::RowsPerAction).gt(FANOUT_USERS as f64 / 4.0)]),
            ],
        },
    ]
}
