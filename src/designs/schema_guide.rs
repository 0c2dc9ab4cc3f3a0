//! Lessons of the Bigtable schema guide (design document 002): one key, sorted; spread writes;
//! group what is read together.

use super::{md5_hex, pattern, reverse_ts, Design, Script, Verdict};

const SITES: &[&str] = &[
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

fn hashed_ids() -> String {
    let mut s = Script::default();
    s.line("create 'sg_users', 'u'");
    for name in USERNAMES {
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

fn mentions() -> String {
    let mut s = Script::default();
    s.line("create 'sg_mentions', 'm'");
    let msgs = [
        ("alice", "bob"),
        ("carol", "bob"),
        ("dan", "bob"),
        ("bob", "alice"),
        ("eve", "alice"),
        ("alice", "dan"),
        ("frank", "carol"),
    ];
    for (i, (from, to)) in msgs.iter().enumerate() {
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
        .line("create 'sg_memusage', 'm'");
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

fn columns_as_data() -> String {
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
    s.done()
}

const PEOPLE: &[&str] = &["ann", "ben", "cat", "dov", "eli", "fay"];

fn tall_vs_wide() -> String {
    let mut s = Script::default();
    s.line("create 'sg_wide', 'f'")
        .line("create 'sg_tall', 'f'");
    for (i, who) in PEOPLE.iter().enumerate() {
        for (j, follower) in PEOPLE.iter().enumerate() {
            if i != j && (i + j) % 3 != 0 {
                s.put("sg_wide", who, &format!("f:{follower}"), "1");
                s.put(
                    "sg_tall",
                    &format!("{}{}", md5_hex(who, 8), md5_hex(follower, 8)),
                    "f:follower",
                    follower,
                );
            }
        }
    }
    s.done()
}

pub fn designs() -> Vec<Design> {
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
            setup: domains,
            patterns: vec![
                pattern("All pages of example.com (reversed keys)", "count 'sg_domain', {ROWPREFIXFILTER => 'com.example.'}", "75 rows examined, 75 returned."),
                pattern("The same with plain domain keys", "count 'sg_domain_plain', {FILTER => \"RowFilter(=, 'regexstring:^[a-z]+\\.example\\.com/')\"}", "All 200 rows examined to return 75."),
            ],
        },
        Design {
            id: "schema.hashed-id",
            title: "Hashed string ids: fixed length, evenly spread",
            source: "002",
            verdict: Verdict::Tradeoff,
            why: "Usernames of any length become a 16-hex-digit MD5 prefix, so every key has the same length and the keys spread evenly over the key space. The natural order is gone: no range scan over names, only gets by hashing the name again.",
            tables: &["sg_users"],
            setup: hashed_ids,
            patterns: vec![
                pattern("Look up carol_the_long_named", format!("get 'sg_users', '{}'", md5_hex("carol_the_long_named", 16)), "Hash the name, then one get."),
                pattern("Keys in stored order", "scan 'sg_users', {COLUMNS => ['u:name']}", "Alphabetical order of names is lost."),
            ],
        },
        Design {
            id: "schema.metric-timestamp",
            title: "Metric type first, then the timestamp",
            source: "002",
            verdict: Verdict::Recommended,
            why: "cpu#1425330757685 keeps each metric's readings together and in time order, so 'cpu over the last minutes' is one short range, and writes of different metrics land in different regions. With the timestamp first (sg_metric_tsfirst), every write goes to the last region (watch it run hot) and a per-metric query reads all metrics.",
            tables: &["sg_metric", "sg_metric_tsfirst"],
            setup: metrics,
            patterns: vec![
                pattern("cpu for 30 seconds (type first)", format!("scan 'sg_metric', {{STARTROW => 'cpu#{}', STOPROW => 'cpu#{}'}}", T0 + 100_000, T0 + 130_000), "30 rows examined, 30 returned."),
                pattern("The same with the timestamp first", format!("scan 'sg_metric_tsfirst', {{STARTROW => '{}', STOPROW => '{}', FILTER => \"RowFilter(=, 'regexstring:#cpu$')\"}}", T0 + 100_000, T0 + 130_000), "Four metrics examined per cpu reading returned."),
                pattern("Newest cpu readings first (reverse the timestamp)", "get_splits 'sg_metric_tsfirst'", "Every split of the timestamp-first table took the newest writes in turn: the hotspot."),
            ],
        },
        Design {
            id: "schema.mentions",
            title: "Multi-value keys: hash(mentioned) + hash(mentioning)",
            source: "002",
            verdict: Verdict::Recommended,
            why: "Each mention is a row keyed by the MD5 prefix of the mentioned user followed by that of the author: fixed length, spread out, and 'who mentioned bob' is a prefix scan on bob's hash. The readable names and the message live in the row, since the key can no longer be read.",
            tables: &["sg_mentions"],
            setup: mentions,
            patterns: vec![pattern("Who mentioned bob", format!("scan 'sg_mentions', {{ROWPREFIXFILTER => '{bob}'}}"), "Three rows, each with the names in plain text.")],
        },
        Design {
            id: "schema.sequential-ids",
            title: "Sequential ids hotspot; reversed ids spread",
            source: "002",
            verdict: Verdict::AntiPattern,
            why: "Ids 100000, 100001, … are written in key order, so every insert lands in the region holding the largest key: one hot region while the others idle, split after split. Reversing the digits (sg_seq_rev) makes consecutive ids differ in the first byte, spreading writes over all regions.",
            tables: &["sg_seq", "sg_seq_rev"],
            setup: sequential_ids,
            patterns: vec![
                pattern("Where sequential writes went", "get_splits 'sg_seq'", "Select sg_seq: one region took nearly every write (HOT)."),
                pattern("Where reversed-id writes went", "get_splits 'sg_seq_rev'", "Select sg_seq_rev: writes spread over the regions."),
                pattern("Look up user 100123 by reversed id", "get 'sg_seq_rev', '321001'", "Point reads still work: reverse the id first."),
            ],
        },
        Design {
            id: "schema.frequent-updates",
            title: "Don't rewrite one row every second",
            source: "002",
            verdict: Verdict::AntiPattern,
            why: "Rewriting the single row memusage every second makes one row the whole table's traffic: a row never splits, so one region serves it all, and history survives only as versions that VERSIONS and compaction throw away. One row per reading (memusage#<reverse ts>) keeps the history, spreads over regions, and reads newest first.",
            tables: &["sg_memusage_one", "sg_memusage"],
            setup: frequent_updates,
            patterns: vec![
                pattern("The one hot row (history gone)", "get 'sg_memusage_one', 'memusage', {COLUMN => 'm', VERSIONS => 100}", "VERSIONS => 1: only the last of 600 writes is readable."),
                pattern("What the memstore still holds", "scan 'sg_memusage_one', {RAW => true, VERSIONS => 1000}", "Raw reads show versions a flush will drop."),
                pattern("The last 5 readings, one row each", "scan 'sg_memusage', {ROWPREFIXFILTER => 'memusage#', LIMIT => 5}", "Newest first, full history kept."),
            ],
        },
        Design {
            id: "schema.columns-as-data",
            title: "Article ids as column qualifiers",
            source: "002",
            verdict: Verdict::Recommended,
            why: "A user's row has one column per article read, the qualifier being the article id, so 'what did u02 read' is one get and 'did u02 read 1007' is a get of one column. Family and qualifier names are stored in every cell, so they are kept short (a, 1007).",
            tables: &["sg_reads"],
            setup: columns_as_data,
            patterns: vec![
                pattern("Everything u02 read", "get 'sg_reads', 'u02'", "One row, one column per article."),
                pattern("Did u02 read article 1007?", "get 'sg_reads', 'u02', 'a:1007'", "One column of one row."),
                pattern("Articles 1000–1019 read by u03", "get 'sg_reads', 'u03', {FILTER => \"ColumnRangeFilter('1000', true, '1020', false)\"}", "Qualifiers are sorted too."),
            ],
        },
        Design {
            id: "schema.tall-vs-wide",
            title: "Tall or wide: followers as rows or columns",
            source: "002",
            verdict: Verdict::Tradeoff,
            why: "Wide (sg_wide): one row per user, a column per follower, atomic per user but rows grow without bound. Tall (sg_tall): one row per pair keyed hash(followed)+hash(follower), e.g. df887e44b0452e5c style, so 'does ben follow ann' is a single get and a user's followers are a prefix scan; the readable name is kept in the row.",
            tables: &["sg_wide", "sg_tall"],
            setup: tall_vs_wide,
            patterns: vec![
                pattern("Does ben follow ann? (tall: one get)", format!("get 'sg_tall', '{follows}'"), "The pair is the key."),
                pattern("Followers of ann (tall: prefix scan)", format!("scan 'sg_tall', {{ROWPREFIXFILTER => '{}'}}", md5_hex("ann", 8)), "One row per follower."),
                pattern("Followers of ann (wide: one row)", "get 'sg_wide', 'ann'", "One row, one column per follower."),
            ],
        },
    ]
}
