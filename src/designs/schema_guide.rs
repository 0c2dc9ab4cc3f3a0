//! Lessons of the Bigtable schema guide (design document 002): one key, sorted; spread writes;
//! group what is read together.

use super::gen::Gen;
use super::lesson::{on, scanned_is_returned, Measure};
use super::{md5_hex, pattern, reverse_ts, Design, Script, Size, Verdict};
use crate::kit::order;

pub(super) const SITES: &[&str] = &[
    "products.example.com",
    "blog.example.com",
    "shop.example.com",
    "www.example.org",
    "docs.example.org",
    "news.example.net",
    "mail.example.net",
    "api.example.io",
];

fn reverse_domain(host: &str) -> String {
    host.split('.').rev().collect::<Vec<_>>().join(".")
}

fn domains() -> String {
    let mut s = Script::default();
    s.line("create 'sg_domain', 'page', SPLITS => ['com.example.p', 'io', 'net', 'org']")
        .line("create 'sg_domain_plain', 'page'");
    for host in SITES {
        for i in 0..25 {
            let path = format!("/item/{i:03}");
            s.put(
                "sg_domain",
                &format!("{}{path}", reverse_domain(host)),
                "page:title",
                &format!("{host}{path}"),
            );
            s.put(
                "sg_domain_plain",
                &format!("{host}{path}"),
                "page:title",
                &format!("{host}{path}"),
            );
        }
    }
    s.done()
}

const USERNAMES: &[&str] = &[
    "alice",
    "bob",
    "carol_the_long_named",
    "dan",
    "eve",
    "frank_o",
    "grace",
    "heidi",
    "ivan",
    "judy",
];

/// Generated users beyond the named ten at the medium size.
const MORE_USERNAMES: u64 = 1_000;

/// The generated usernames: syllables strung to names of two to twelve letters, so the keys'
/// lengths would vary if the names were the keys.
fn more_usernames(size: Size) -> Vec<String> {
    const SYLLABLES: &[&str] = &["ka", "lo", "mi", "ren", "su", "ta", "vy", "xe", "zo", "an"];
    let mut g = Gen::new(16);
    (0..size.of(MORE_USERNAMES))
        .map(|i| {
            let parts = 1 + g.below(6);
            let name: String = (0..parts)
                .map(|_| SYLLABLES[g.below(SYLLABLES.len() as u64) as usize])
                .collect();
            format!("{name}{i}")
        })
        .collect()
}

fn hashed_ids(size: Size) -> String {
    let mut s = Script::default();
    s.line("create 'sg_users', 'u', SPLITS => ['4', '8', 'c']");
    let more = more_usernames(size);
    for name in USERNAMES
        .iter()
        .copied()
        .chain(more.iter().map(String::as_str))
    {
        let key = md5_hex(name, 16);
        s.put("sg_users", &key, "u:name", name).put(
            "sg_users",
            &key,
            "u:email",
            &format!("{name}@example.com"),
        );
    }
    s.done()
}

const METRICS: &[&str] = &["cpu", "mem", "disk", "net"];
const T0: u64 = 1_425_330_757_685;

fn metrics() -> String {
    let mut s = Script::default();
    s.line("create 'sg_metric', 'm', {MAX_FILESIZE => 16384}")
        .line("create 'sg_metric_tsfirst', 'm', {MAX_FILESIZE => 16384}");
    for i in 0..300u64 {
        let ts = T0 + i * 1000;
        for m in METRICS {
            s.put(
                "sg_metric",
                &format!("{m}#{ts}"),
                "m:v",
                &format!("{}", (i * 7 + m.len() as u64) % 100),
            );
            s.put(
                "sg_metric_tsfirst",
                &format!("{ts}#{m}"),
                "m:v",
                &format!("{}", (i * 7 + m.len() as u64) % 100),
            );
        }
    }
    s.done()
}

/// Who mentions whom: `(author, mentioned)`. Six named users, then 80 more; mentions favour
/// the first users, as attention does.
fn mention_sample() -> Vec<(String, String)> {
    let named = ["alice", "bob", "carol", "dan", "eve", "frank"];
    let user = |i: u64| {
        named
            .get(i as usize)
            .map_or_else(|| format!("user{i:02}"), |n| n.to_string())
    };
    let mut out: Vec<(String, String)> = [
        ("alice", "bob"),
        ("carol", "bob"),
        ("dan", "bob"),
        ("bob", "alice"),
        ("eve", "alice"),
        ("alice", "dan"),
        ("frank", "carol"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    let mut g = Gen::new(42);
    for _ in 0..1_500 {
        let from = g.below(86);
        let to = g.skewed(86, 2.0);
        if from != to {
            out.push((user(from), user(to)));
        }
    }
    out
}

/// Distinct authors who mentioned `who`: one row each (a repeat rewrites the row).
fn mentioners_of(who: &str) -> usize {
    let mut authors: Vec<String> = mention_sample()
        .into_iter()
        .filter(|m| m.1 == who)
        .map(|m| m.0)
        .collect();
    order::sort(&mut authors);
    authors.dedup();
    authors.len()
}

fn mentions() -> String {
    let mut s = Script::default();
    s.line("create 'sg_mentions', 'm'");
    for (i, (from, to)) in mention_sample().iter().enumerate() {
        let key = format!("{}{}", md5_hex(to, 8), md5_hex(from, 8));
        s.put("sg_mentions", &key, "m:mentioned", to)
            .put("sg_mentions", &key, "m:by", from)
            .put(
                "sg_mentions",
                &key,
                "m:text",
                &format!("hey @{to}, message {i}"),
            );
    }
    s.done()
}

fn sequential_ids() -> String {
    let mut s = Script::default();
    s.line("create 'sg_seq', 'u', {MAX_FILESIZE => 16384}")
        .line("create 'sg_seq_rev', 'u', {MAX_FILESIZE => 16384}");
    for id in 100_000u64..101_200 {
        let reversed: String = id.to_string().chars().rev().collect();
        s.put("sg_seq", &id.to_string(), "u:name", &format!("user {id}"));
        s.put("sg_seq_rev", &reversed, "u:name", &format!("user {id}"));
    }
    s.done()
}

fn frequent_updates() -> String {
    let mut s = Script::default();
    s.line("create 'sg_memusage_one', {NAME => 'm', VERSIONS => 1}")
        .line("create 'sg_memusage', 'm', {MAX_FILESIZE => 16384}");
    for i in 0..600u64 {
        let ts = T0 + i * 1000;
        let v = format!("{}", 40 + (i * 13) % 50);
        s.put_at("sg_memusage_one", "memusage", "m:v", &v, ts);
        s.put_at(
            "sg_memusage",
            &format!("memusage#{}", reverse_ts(ts)),
            "m:v",
            &v,
            ts,
        );
    }
    s.done()
}

/// Readers beyond u01–u03 at the medium size, and the articles there are.
const READERS: u64 = 600;
const ARTICLES: u64 = 3_000;

fn columns_as_data(size: Size) -> String {
    let mut s = Script::default();
    s.line("create 'sg_reads', 'a'");
    for (u, user) in ["u01", "u02", "u03"].iter().enumerate() {
        for art in 0..(5 + u * 3) {
            s.put(
                "sg_reads",
                user,
                &format!("a:{}", 1000 + art * 7),
                &format!("article {}", 1000 + art * 7),
            );
        }
    }
    // Further readers: a few read a great deal, most a little, and the newest articles (the
    // largest ids) are read most.
    let mut g = Gen::new(1007);
    for r in 4..4 + size.of(READERS) {
        let user = format!("u{r:02}");
        for _ in 0..1 + g.skewed(60, 3.0) {
            let art = 1000 + g.recent(ARTICLES, 3.0);
            s.put(
                "sg_reads",
                &user,
                &format!("a:{art}"),
                &format!("article {art}"),
            );
        }
    }
    s.done()
}

const PEOPLE: &[&str] = &["ann", "ben", "cat", "dov", "eli", "fay"];

/// Users of the follower graph beyond the six named ones.
const GRAPH_USERS: u64 = 300;
const FOLLOWS_EACH: u64 = 8;

fn person(i: u64) -> String {
    PEOPLE
        .get(i as usize)
        .map_or_else(|| format!("user{i:03}"), |p| p.to_string())
}

/// `(followed, follower)` pairs: the six named people follow each other as a small circle,
/// and every other user follows eight users picked with a skew towards the first ids, so the
/// named six are the celebrities with most of the followers.
fn follower_graph() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, who) in PEOPLE.iter().enumerate() {
        for (j, follower) in PEOPLE.iter().enumerate() {
            if i != j && (i + j) % 3 != 0 {
                out.push((who.to_string(), follower.to_string()));
            }
        }
    }
    let mut g = Gen::new(6);
    for fan in PEOPLE.len() as u64..GRAPH_USERS {
        let mut mine: Vec<u64> = Vec::new();
        while (mine.len() as u64) < FOLLOWS_EACH {
            let star = g.skewed(GRAPH_USERS, 3.0);
            if star != fan && !mine.contains(&star) {
                mine.push(star);
            }
        }
        out.extend(mine.into_iter().map(|s| (person(s), person(fan))));
    }
    out
}

fn followers_of(who: &str) -> usize {
    follower_graph().iter().filter(|f| f.0 == who).count()
}

fn tall_vs_wide() -> String {
    let mut s = Script::default();
    s.line("create 'sg_wide', 'f'")
        .line("create 'sg_tall', 'f'");
    for (who, follower) in follower_graph() {
        s.put("sg_wide", &who, &format!("f:{follower}"), "1");
        s.put(
            "sg_tall",
            &format!("{}{}", md5_hex(&who, 8), md5_hex(&follower, 8)),
            "f:follower",
            &follower,
        );
    }
    s.done()
}

/// `n` users more, keyed by the MD5 prefix of their name.
fn new_users(n: usize) -> String {
    let mut s = Script::default();
    for i in 0..n {
        let name = format!("newcomer{i:02}");
        s.put("sg_users", &md5_hex(&name, 16), "u:name", &name);
    }
    s.done().trim_end().to_string()
}

/// `seconds` more readings of every metric after the sample's last second.
fn next_readings(table: &str, seconds: u64, ts_first: bool) -> String {
    let mut s = Script::default();
    for i in 300..300 + seconds {
        let ts = T0 + i * 1000;
        for m in METRICS {
            let key = if ts_first {
                format!("{ts}#{m}")
            } else {
                format!("{m}#{ts}")
            };
            s.put(table, &key, "m:v", "50");
        }
    }
    s.done().trim_end().to_string()
}

/// `n` users after the sample's last id, their ids reversed or not.
fn new_ids(table: &str, n: u64, reversed: bool) -> String {
    let mut s = Script::default();
    for id in 101_200..101_200 + n {
        let key = if reversed {
            id.to_string().chars().rev().collect()
        } else {
            id.to_string()
        };
        s.put(table, &key, "u:name", &format!("user {id}"));
    }
    s.done().trim_end().to_string()
}

/// `n` more readings rewriting the one hot row, after the sample's last.
fn next_hot_readings(n: u64) -> String {
    let mut s = Script::default();
    for i in 600..600 + n {
        s.put_at("sg_memusage_one", "memusage", "m:v", "55", T0 + i * 1000);
    }
    s.done().trim_end().to_string()
}

/// `n` more memusage readings, one row each, after the sample's last.
fn next_memusage(n: u64) -> String {
    let mut s = Script::default();
    for i in 600..600 + n {
        let ts = T0 + i * 1000;
        s.put_at(
            "sg_memusage",
            &format!("memusage#{}", reverse_ts(ts)),
            "m:v",
            "55",
            ts,
        );
    }
    s.done().trim_end().to_string()
}

pub fn designs(size: Size) -> Vec<Design> {
    let bob = md5_hex("bob", 8);
    let follows = format!("{}{}", md5_hex("ann", 8), md5_hex("ben", 8));
    vec![
        Design {
            id: "schema.reversed-domain",
            title: "Reversed domain names group a site's rows",
            source: "002",
            verdict: Verdict::Recommended,
            why: "com.example.products sorts next to com.example.blog, so everything of example.com is one contiguous range: one prefix scan, and similar keys that compress well. Keyed as products.example.com, the same site's rows scatter between other sites' and must be filtered out of a full scan (sg_domain_plain).",
            tables: &["sg_domain", "sg_domain_plain"],
            setup: |_| domains(),
            size,
            scales: false,
            patterns: vec![
                pattern("All pages of example.com (reversed keys)", "count 'sg_domain', {ROWPREFIXFILTER => 'com.example.'}", "75 rows examined, 75 returned.").shows([scanned_is_returned(), on(Measure::RowsReturned).eq(75.0)]),
                pattern("The same with plain domain keys", "count 'sg_domain_plain', {FILTER => \"RowFilter(=, 'regexstring:^[a-z]+\\.example\\.com/')\"}", "All 200 rows examined to return 75.").shows([on(Measure::RowsScanned).gt_times(2.0, Measure::RowsReturned)]),
            ],
        },
        Design {
            id: "schema.hashed-id",
            title: "Hashed string ids: fixed length, evenly spread",
            source: "002",
            verdict: Verdict::Tradeoff,
            why: "Usernames of any length (ten named ones and a thousand generated at the medium size) become a 16-hex-digit MD5 prefix, so every key has the same length and the keys spread evenly over the key space. The natural order is gone: no range scan over names, only gets by hashing the name again.",
            tables: &["sg_users"],
            setup: hashed_ids,
            size,
            scales: true,
            patterns: vec![
                pattern("Look up carol_the_long_named", format!("get 'sg_users', '{}'", md5_hex("carol_the_long_named", 16)), "Hash the name, then one get.").shows([on(Measure::RowsScanned).eq(1.0)]),
                pattern("The first 20 keys in stored order", "scan 'sg_users', {COLUMNS => ['u:name'], LIMIT => 20}", "Alphabetical order of names is lost.").shows([scanned_is_returned(), on(Measure::RowsReturned).eq(20.0)]),
                pattern("Twenty new users: where the writes go", new_users(20), "Hashed keys fall evenly over the four pre-split regions and those they split into.").actions(20).shows([on(Measure::RegionsTouched).ge(4.0), on(Measure::BusiestWriteShare).lt(50.0)]),
                pattern("Every user, the twenty newcomers included", format!("{}\ncount 'sg_users'", new_users(20)), "The newcomers are written first (again, if they were already: a put of the same row changes no count), then every region holds a share of the users.").actions(20).shows([scanned_is_returned(), on(Measure::RowsReturned).eq((USERNAMES.len() as u64 + size.of(MORE_USERNAMES) + 20) as f64), on(Measure::RegionsTouched).ge(4.0)]),
            ],
        },
        Design {
            id: "schema.metric-timestamp",
            title: "Metric type first, then the timestamp",
            source: "002",
            verdict: Verdict::Recommended,
            why: "cpu#1425330757685 keeps each metric's readings together and in time order, so 'cpu over the last minutes' is one short range. The writes of one second go to the end of each metric's range, which may or may not sit in different regions: the split points decide, nothing guarantees it. With the timestamp first (sg_metric_tsfirst), every write goes to the last region (watch it run hot) and a per-metric query reads all metrics.",
            tables: &["sg_metric", "sg_metric_tsfirst"],
            setup: |_| metrics(),
            size,
            scales: false,
            patterns: vec![
                pattern("cpu for 30 seconds (type first)", format!("scan 'sg_metric', {{STARTROW => 'cpu#{}', STOPROW => 'cpu#{}'}}", T0 + 100_000, T0 + 130_000), "30 rows examined, 30 returned.").shows([scanned_is_returned(), on(Measure::RowsReturned).eq(30.0)]),
                pattern("The same with the timestamp first", format!("scan 'sg_metric_tsfirst', {{STARTROW => '{}', STOPROW => '{}', FILTER => \"RowFilter(=, 'regexstring:#cpu$')\"}}", T0 + 100_000, T0 + 130_000), "Four metrics examined per cpu reading returned.").shows([on(Measure::RowsScanned).eq_times(4.0, Measure::RowsReturned)]),
                pattern("Ten more seconds, timestamp first: where the writes go", next_readings("sg_metric_tsfirst", 10, true), "Every new key is the largest: one region takes them all.").actions(10).shows([on(Measure::BusiestWriteShare).gt(90.0)]),
                pattern("Ten more seconds, type first: where the writes go", next_readings("sg_metric", 10, false), "Each metric's newest key is at the end of its own range.").actions(10).shows([on(Measure::BusiestWriteShare).lt(90.0)]),
            ],
        },
        Design {
            id: "schema.mentions",
            title: "Multi-value keys: hash(mentioned) + hash(mentioning)",
            source: "002",
            verdict: Verdict::Recommended,
            why: "Each mention is a row keyed by the MD5 prefix of the mentioned user followed by that of the author: fixed length, spread out, and 'who mentioned bob' is a prefix scan on bob's hash. The readable names and the message live in the row, since the key can no longer be read.",
            tables: &["sg_mentions"],
            setup: |_| mentions(),
            size,
            scales: false,
            patterns: vec![
                pattern("Who mentioned bob", format!("scan 'sg_mentions', {{ROWPREFIXFILTER => '{bob}'}}"), "One row per author, each with the names in plain text.").shows([scanned_is_returned(), on(Measure::RowsReturned).eq(mentioners_of("bob") as f64)]),
                pattern("Every mention", "count 'sg_mentions'", "Hashed keys spread the rows over the regions.").shows([scanned_is_returned(), on(Measure::RegionsTouched).ge(2.0)]),
            ],
        },
        Design {
            id: "schema.sequential-ids",
            title: "Sequential ids hotspot; reversed ids spread",
            source: "002",
            verdict: Verdict::AntiPattern,
            why: "Ids 100000, 100001, … are written in key order, so every insert lands in the region holding the largest key: one hot region while the others idle, split after split. Reversing the digits (sg_seq_rev) makes consecutive ids differ in the first byte, spreading writes over all regions.",
            tables: &["sg_seq", "sg_seq_rev"],
            setup: |_| sequential_ids(),
            size,
            scales: false,
            patterns: vec![
                pattern("Forty new users, sequential ids", new_ids("sg_seq", 40, false), "Every new id is the largest key: one region takes every write (HOT).").actions(40).shows([on(Measure::BusiestWriteShare).gt(90.0)]),
                pattern("Forty new users, reversed ids", new_ids("sg_seq_rev", 40, true), "Reversed ids differ in their first digit: the writes spread.").actions(40).shows([on(Measure::BusiestWriteShare).lt(50.0), on(Measure::RegionsTouched).ge(3.0)]),
                pattern("Look up user 100123 by reversed id", "get 'sg_seq_rev', '321001'", "Point reads still work: reverse the id first.").shows([on(Measure::RowsScanned).eq(1.0)]),
            ],
        },
        Design {
            id: "schema.frequent-updates",
            title: "Don't rewrite one row every second",
            source: "002",
            verdict: Verdict::AntiPattern,
            why: "Rewriting the single row memusage every second makes one row the whole table's traffic: a row never splits, so one region serves it all, and history survives only as versions that VERSIONS and compaction throw away. One row per reading (memusage#<reverse ts>) keeps the history and reads newest first, but it does not spread the writes: each new key is smaller than every earlier one under the same prefix, so every write lands in the first region, the same hotspot as a timestamp-first key. Very hot counters are better kept in memory and written periodically.",
            tables: &["sg_memusage_one", "sg_memusage"],
            setup: |_| frequent_updates(),
            size,
            scales: false,
            patterns: vec![
                pattern("The one hot row (history gone)", "get 'sg_memusage_one', 'memusage', {COLUMN => 'm', VERSIONS => 100}", "VERSIONS => 1: of 600 readings written, one is readable.").shows([on(Measure::RowsReturned).eq(1.0), on(Measure::CellsReturned).eq(1.0)]),
                pattern("What a compaction leaves of the history", "flush 'sg_memusage_one'\nmajor_compact 'sg_memusage_one'\nscan 'sg_memusage_one', {RAW => true, VERSIONS => 1000}", "Once flushed and compacted, even a raw read finds one version: the others are gone for good.").shows([on(Measure::RowsScanned).eq(1.0), on(Measure::CellsReturned).eq(1.0)]),
                pattern("Ten more readings, one hot row: where they go", next_hot_readings(10), "One row is one region's: every write goes there, however large the table.").actions(10).shows([on(Measure::RegionsTouched).eq(1.0), on(Measure::BusiestWriteShare).eq(100.0), on(Measure::RowsWritten).eq(10.0)]),
                pattern("The last 5 readings, one row each", "scan 'sg_memusage', {ROWPREFIXFILTER => 'memusage#', LIMIT => 5}", "Newest first, full history kept.").shows([scanned_is_returned(), on(Measure::RowsReturned).eq(5.0)]),
                pattern("Ten more readings, one row each: where they go", next_memusage(10), "Decreasing keys under one prefix: the first region takes every write.").actions(10).shows([on(Measure::BusiestWriteShare).gt(90.0)]),
            ],
        },
        Design {
            id: "schema.columns-as-data",
            title: "Article ids as column qualifiers",
            source: "002",
            verdict: Verdict::Recommended,
            why: "A user's row has one column per article read, the qualifier being the article id (hundreds of generated readers besides u01–u03, a few reading a great deal and the newest articles read most), so 'what did u02 read' is one get and 'did u02 read 1007' is a get of one column. Family and qualifier names are stored in every cell, so they are kept short (a, 1007).",
            tables: &["sg_reads"],
            setup: columns_as_data,
            size,
            scales: true,
            patterns: vec![
                pattern("Everything u02 read", "get 'sg_reads', 'u02'", "One row, one column per article.").shows([on(Measure::RowsScanned).eq(1.0)]),
                pattern("Did u02 read article 1007?", "get 'sg_reads', 'u02', 'a:1007'", "One column of one row.").shows([on(Measure::RowsScanned).eq(1.0)]),
                pattern("Articles 1000–1019 read by u03", "get 'sg_reads', 'u03', {FILTER => \"ColumnRangeFilter('1000', true, '1020', false)\"}", "Qualifiers are sorted too.").shows([on(Measure::RowsScanned).eq(1.0)]),
                pattern("Who read article 3990, a recent one (not what the key serves)", "scan 'sg_reads', {FILTER => \"QualifierFilter(=, 'binary:3990')\"}", "Readers are rows, articles are columns: asking by article reads every row, in every region.").shows([on(Measure::RowsScanned).gt_times(5.0, Measure::RowsReturned), on(Measure::RegionsTouched).ge(2.0)]),
            ],
        },
        Design {
            id: "schema.tall-vs-wide",
            title: "Tall or wide: followers as rows or columns",
            source: "002",
            verdict: Verdict::Tradeoff,
            why: "300 users, a few of them (ann, ben, cat …) followed by most of the rest. Wide (sg_wide): one row per user, a column per follower, atomic per user, but a celebrity's row grows without bound and never splits. Tall (sg_tall): one row per pair keyed hash(followed)+hash(follower), e.g. df887e44b0452e5c style, so 'does ben follow ann' is a single get and a user's followers are a prefix scan; the readable name is kept in the row.",
            tables: &["sg_wide", "sg_tall"],
            setup: |_| tall_vs_wide(),
            size,
            scales: false,
            patterns: vec![
                pattern("Does ben follow ann? (tall: one get)", format!("get 'sg_tall', '{follows}'"), "The pair is the key: the row is there, so ben does.").shows([on(Measure::RowsScanned).eq(1.0), on(Measure::RowsReturned).eq(1.0)]),
                pattern("Does ann follow dov? (tall: one get)", format!("get 'sg_tall', '{}{}'", md5_hex("dov", 8), md5_hex("ann", 8)), "No such row: ann does not follow dov, and the get says so without reading dov's followers.").shows([on(Measure::RowsScanned).eq(0.0), on(Measure::RowsReturned).eq(0.0)]),
                pattern("Followers of ann (tall: prefix scan)", format!("scan 'sg_tall', {{ROWPREFIXFILTER => '{}'}}", md5_hex("ann", 8)), "One row per follower.").shows([scanned_is_returned(), on(Measure::RowsReturned).eq(followers_of("ann") as f64)]),
                pattern("Followers of ann (wide: one row)", "get 'sg_wide', 'ann'", "One row, one column per follower.").shows([on(Measure::RowsScanned).eq(1.0), on(Measure::CellsReturned).eq(followers_of("ann") as f64)]),
                pattern("Every follow pair, tall", "count 'sg_tall'", "Small rows, hashed keys: the table splits and spreads.").shows([scanned_is_returned(), on(Measure::RowsReturned).eq(follower_graph().len() as f64), on(Measure::RegionsTouched).ge(2.0)]),
            ],
        },
    ]
}
