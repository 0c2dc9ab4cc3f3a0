//! Workloads for the gallery's designs, by design id: each design's own tables (the names its
//! setup script creates) under traffic true to the design, at a cluster's scale. The sizes and
//! rates are the design's world made large (a service's sign-ups, a monitoring system's
//! metrics, a social network's posts); the keys are the design's keys.

use super::workload::Workload;

/// The ids that have a workload.
pub fn ids() -> Vec<&'static str> {
    WORKLOADS.iter().map(|(id, _)| *id).collect()
}

/// The workload of design `id`.
pub fn workload(id: &str) -> Option<Workload> {
    WORKLOADS
        .iter()
        .find(|(i, _)| *i == id)
        .and_then(|(_, make)| Workload::from_json(&make()).ok())
}

/// The JSON of a workload of `hours` on `servers` region servers (20,000 reads and 10,000
/// writes a second each, HBase's default policy and sizes) with these tables.
fn workload_json(seed: u64, hours: u64, servers: u32, tables: &[String]) -> String {
    format!(
        r#"{{"version": 1, "seed": {seed}, "duration_ms": {},
 "cluster": {{"region_servers": {servers}, "server_reads_per_sec": 20000, "server_writes_per_sec": 10000}},
 "tables": [{}]}}"#,
        hours * 3_600_000,
        tables.join(",\n")
    )
}

/// A table: `family` with one column of `value_size` bytes, `key` and `operations` as JSON.
fn table(name: &str, family: &str, column: &str, value_size: u64, key: &str, ops: &str) -> String {
    table_with(name, family, column, value_size, false, key, ops, "")
}

#[allow(clippy::too_many_arguments)]
fn table_with(
    name: &str,
    family: &str,
    column: &str,
    value_size: u64,
    dynamic: bool,
    key: &str,
    ops: &str,
    extra: &str,
) -> String {
    format!(
        r#"{{"name": "{name}", "families": [{{"name": "{family}", "columns": [{{"qualifier": "{column}", "value_size": {value_size}, "dynamic": {dynamic}}}]}}],
  "key": {key}, "operations": {ops}{extra}}}"#
    )
}

/// A six-hour workload of one [`table`] on 8 region servers.
fn single(
    seed: u64,
    name: &str,
    family: &str,
    column: &str,
    value_size: u64,
    key: &str,
    ops: &str,
) -> String {
    workload_json(
        seed,
        6,
        8,
        &[table(name, family, column, value_size, key, ops)],
    )
}

type Make = fn() -> String;

/// Each design's workload.
const WORKLOADS: &[(&str, Make)] = &[
    ("schema.sequential-ids", sequential_ids),
    ("schema.metric-timestamp", metric_timestamp),
    ("schema.hashed-id", hashed_id),
    ("schema.salting", salting),
    ("schema.hash-vs-reverse", hash_vs_reverse),
    ("schema.frequent-updates", frequent_updates),
    ("schema.tall-vs-wide", tall_vs_wide),
    ("schema.mentions", mentions),
    ("schema.short-names", short_names),
    ("weibo.posts", weibo_posts),
    ("weibo.inbox", weibo_inbox),
    ("cases.user-action", user_action),
    ("cases.access-log", access_log),
    ("csdn.blog", csdn_blog),
];

/// 2,000 sign-ups a second of 1 KB rows into each table, 20,000 gets a second of users signed
/// up in the last hour, 8 region servers, the default policy and sizes, seed 1. Ids start at
/// 1,000,000,000, so a day's 172.8 million sign-ups keep ten digits (and sort as numbers).
fn sequential_ids() -> String {
    let ops = r#"[{"kind": "put_new", "name": "sign-up", "rate": {"per_sec": 2000}},
       {"kind": "get", "name": "look up a recent user", "rate": {"per_sec": 20000}, "choose": {"within_ms": {"ms": 3600000}}}]"#;
    let extra = r#", "unique": true"#;
    workload_json(
        1,
        24,
        8,
        &[
            table_with(
                "sg_seq",
                "u",
                "name",
                1024,
                false,
                r#"[{"kind": "sequence", "name": "id", "start": 1000000000}]"#,
                ops,
                extra,
            ),
            table_with(
                "sg_seq_rev",
                "u",
                "name",
                1024,
                false,
                r#"[{"kind": "sequence", "name": "id", "start": 1000000000, "format": {"reverse": true}}]"#,
                ops,
                extra,
            ),
        ],
    )
}

/// A monitoring system: 20 metric types from 5,000 hosts' agents, 5,000 points a second; its
/// dashboards read a metric's last ten minutes 200 times a second. `sg_metric` keys
/// `<metric>#<ts>`, `sg_metric_tsfirst` `<ts>#<metric>`.
fn metric_timestamp() -> String {
    let metrics = r#"{"kind": "choice", "options": [{"text": "cpu", "weight": 4}, {"text": "mem", "weight": 3}, {"text": "disk", "weight": 2}, {"text": "net", "weight": 2}, {"text": "load", "weight": 1}, {"text": "swap", "weight": 1}, {"text": "io", "weight": 1}, {"text": "temp", "weight": 1}]}"#;
    let ts = r#"{"kind": "timestamp"}"#;
    let sep = r##"{"kind": "constant", "text": "#"}"##;
    let host = r#"{"kind": "entity", "count": 5000, "format": {"width": 4}}"#;
    workload_json(
        2,
        6,
        8,
        &[
            table(
                "sg_metric",
                "m",
                "v",
                16,
                &format!("[{metrics}, {sep}, {ts}, {sep}, {host}]"),
                r#"[{"kind": "put_new", "rate": {"per_sec": 5000}},
                    {"kind": "window_scan", "rate": {"per_sec": 200}, "choose": "fresh", "fields": 2, "window_ms": 600000, "limit": 1000}]"#,
            ),
            table(
                "sg_metric_tsfirst",
                "m",
                "v",
                16,
                &format!("[{ts}, {sep}, {metrics}, {sep}, {host}]"),
                r#"[{"kind": "put_new", "rate": {"per_sec": 5000}},
                    {"kind": "window_scan", "rate": {"per_sec": 200}, "choose": "fresh", "fields": 0, "window_ms": 600000, "limit": 1000}]"#,
            ),
        ],
    )
}

/// User profiles keyed by the MD5 of the user id: 1,000 sign-ups and 10,000 profile reads a
/// second.
fn hashed_id() -> String {
    single(
        3,
        "sg_users",
        "u",
        "profile",
        512,
        r#"[{"kind": "md5", "of": "id", "digits": 32}, {"kind": "sequence", "name": "id", "format": {"width": 10}}]"#,
        r#"[{"kind": "put_new", "rate": {"per_sec": 1000}}, {"kind": "get", "rate": {"per_sec": 10000}, "choose": "uniform"}]"#,
    )
}

/// Events at 8,000 a second: `sg_salted` leads with a salt bucket (8, the design's pre-split
/// 1–7), `sg_events` with the time.
fn salting() -> String {
    let ops = r#"[{"kind": "put_new", "rate": {"per_sec": 8000}}, {"kind": "window_scan", "rate": {"per_sec": 50}, "choose": "fresh", "fields": 0, "window_ms": 60000, "limit": 500}]"#;
    workload_json(
        4,
        6,
        8,
        &[
            table_with(
                "sg_salted",
                "e",
                "v",
                100,
                false,
                r#"[{"kind": "salt", "buckets": 8, "of": "id"}, {"kind": "constant", "text": "_"}, {"kind": "timestamp"}, {"kind": "sequence", "name": "id", "format": {"width": 8}}]"#,
                ops,
                r#", "pre_split": ["1", "2", "3", "4", "5", "6", "7"]"#,
            ),
            table(
                "sg_events",
                "e",
                "v",
                100,
                r#"[{"kind": "timestamp"}, {"kind": "sequence", "name": "id", "format": {"width": 8}}]"#,
                ops,
            ),
        ],
    )
}

/// Sequential user ids written two ways: led by 4 hex digits of their MD5, or reversed.
fn hash_vs_reverse() -> String {
    let ops = r#"[{"kind": "put_new", "rate": {"per_sec": 3000}}, {"kind": "get", "rate": {"per_sec": 6000}, "choose": "uniform"}]"#;
    workload_json(
        5,
        6,
        8,
        &[
            table(
                "sg_hashed",
                "u",
                "name",
                256,
                r#"[{"kind": "md5", "of": "id", "digits": 4}, {"kind": "sequence", "name": "id", "start": 1000000000}]"#,
                ops,
            ),
            table(
                "sg_reversed",
                "u",
                "name",
                256,
                r#"[{"kind": "sequence", "name": "id", "start": 1000000000, "format": {"reverse": true}}]"#,
                ops,
            ),
        ],
    )
}

/// A memory gauge sampled every second: rewriting one `memusage` row, or writing
/// `memusage#<ts>` rows.
fn frequent_updates() -> String {
    workload_json(
        6,
        6,
        8,
        &[
            table_with(
                "sg_memusage_one",
                "m",
                "used",
                8,
                false,
                r#"[{"kind": "constant", "text": "memusage"}]"#,
                r#"[{"kind": "update", "rate": {"per_sec": 1}, "choose": "uniform"}, {"kind": "get", "rate": {"per_sec": 5}, "choose": "uniform"}]"#,
                r#", "initial_rows": 1"#,
            ),
            table(
                "sg_memusage",
                "m",
                "used",
                8,
                r##"[{"kind": "constant", "text": "memusage#"}, {"kind": "timestamp"}]"##,
                r#"[{"kind": "put_new", "rate": {"per_sec": 1}}, {"kind": "window_scan", "rate": {"per_sec": 5}, "choose": "fresh", "fields": 1, "window_ms": 60000, "limit": 60}]"#,
            ),
        ],
    )
}

/// Follows, 2,000 a second among a million users, a few of them celebrities (Zipf): `sg_wide`
/// adds a column per follower to the followed user's row; `sg_tall` writes a row per pair keyed
/// `md5(followed)[0..8] + md5(follower)[0..8]`.
fn tall_vs_wide() -> String {
    let followed = r#"{"kind": "entity", "name": "followed", "count": 1000000, "distribution": {"zipf": {"s": 1.1}}, "format": {"width": 7}}"#;
    let follower =
        r#"{"kind": "entity", "name": "follower", "count": 1000000, "format": {"width": 7}}"#;
    workload_json(
        7,
        6,
        8,
        &[
            table_with(
                "sg_wide",
                "f",
                "follower",
                16,
                true,
                &format!("[{followed}]"),
                r#"[{"kind": "put_new", "rate": {"per_sec": 2000}}, {"kind": "get", "rate": {"per_sec": 2000}, "choose": "fresh"}]"#,
                "",
            ),
            table(
                "sg_tall",
                "f",
                "name",
                16,
                &format!(
                    r#"[{{"kind": "md5", "of": "followed", "digits": 8}}, {{"kind": "md5", "of": "follower", "digits": 8}}, {followed}, {follower}]"#
                ),
                r#"[{"kind": "put_new", "rate": {"per_sec": 2000}}, {"kind": "get", "rate": {"per_sec": 2000}, "choose": "fresh"}]"#,
            ),
        ],
    )
}

/// Mentions keyed `hash(mentioned) + hash(mentioning)`; "who mentioned X" is a prefix scan of
/// the first hash.
fn mentions() -> String {
    single(
        8,
        "sg_mentions",
        "m",
        "message",
        140,
        r#"[{"kind": "md5", "of": "mentioned", "digits": 8}, {"kind": "md5", "of": "by", "digits": 8},
                {"kind": "entity", "name": "mentioned", "count": 1000000, "distribution": {"zipf": {"s": 1.0}}, "format": {"width": 7}},
                {"kind": "entity", "name": "by", "count": 1000000, "format": {"width": 7}}, {"kind": "timestamp"}]"#,
        r#"[{"kind": "put_new", "rate": {"per_sec": 3000}}, {"kind": "prefix_scan", "rate": {"per_sec": 1000}, "choose": "fresh", "fields": 1, "limit": 50}]"#,
    )
}

/// The same 500-byte customer records under a 28-character family and a long qualifier, or
/// `p:n`: every cell repeats the names, so the stores grow with them.
fn short_names() -> String {
    let key = r#"[{"kind": "md5", "of": "id", "digits": 8}, {"kind": "sequence", "name": "id", "format": {"width": 10}}]"#;
    let ops = r#"[{"kind": "put_new", "rate": {"per_sec": 2000}}, {"kind": "get", "rate": {"per_sec": 2000}, "choose": "uniform"}]"#;
    workload_json(
        9,
        6,
        8,
        &[
            table(
                "sg_longnames",
                "customer_profile_information",
                "customer_registration_timestamp",
                20,
                key,
                ops,
            ),
            table("sg_shortnames", "p", "t", 20, key, ops),
        ],
    )
}

/// Posts keyed `<user>_<Long.MAX_VALUE - ts>`: 3,000 posts a second from a million users (a
/// few prolific, Zipf), and 20,000 reads a second of a user's 20 newest posts.
fn weibo_posts() -> String {
    single(
        10,
        "wb_post",
        "cf",
        "content",
        300,
        r#"[{"kind": "entity", "count": 1000000, "distribution": {"zipf": {"s": 1.05}}, "format": {"width": 7}}, {"kind": "constant", "text": "_"}, {"kind": "timestamp", "encoding": "reverse_decimal"}]"#,
        r#"[{"kind": "put_new", "rate": {"per_sec": 3000}}, {"kind": "prefix_scan", "rate": {"per_sec": 20000}, "choose": "fresh", "fields": 2, "limit": 20}]"#,
    )
}

/// Inboxes: a row per user (a million, made before the start), one `cf:sq` cell whose versions
/// (up to 10,000) are the post ids fanned out to it: 30,000 fan-out writes a second, each a new
/// version, and 10,000 home-timeline reads.
fn weibo_inbox() -> String {
    workload_json(
        11,
        6,
        8,
        &[table_with(
            "wb_inbox",
            "cf",
            "sq",
            20,
            true,
            r#"[{"kind": "sequence", "format": {"width": 7}}]"#,
            r#"[{"kind": "update", "rate": {"per_sec": 30000}, "choose": "uniform"}, {"kind": "get", "rate": {"per_sec": 10000}, "choose": "uniform"}]"#,
            r#", "initial_rows": 1000000"#,
        )],
    )
}

/// Actions keyed `<user><Long.MAX_VALUE - ts><event id>`: 5,000 a second from 100,000 users;
/// "the 10 most recent actions of user X, skipping 20" reads 30 rows under the user.
fn user_action() -> String {
    single(
        12,
        "cs_action",
        "name",
        "action",
        50,
        r#"[{"kind": "entity", "count": 100000, "distribution": {"zipf": {"s": 0.9}}, "format": {"width": 6}}, {"kind": "timestamp", "encoding": "reverse_decimal"}, {"kind": "sequence", "format": {"width": 6}}]"#,
        r#"[{"kind": "put_new", "rate": {"per_sec": 5000}}, {"kind": "prefix_scan", "rate": {"per_sec": 1000}, "choose": "fresh", "fields": 1, "limit": 30}]"#,
    )
}

/// An access log keyed `<time><inc_counter>`: 10,000 requests a second, analysed by five-minute
/// windows.
fn access_log() -> String {
    single(
        13,
        "cs_access",
        "http",
        "url",
        200,
        r#"[{"kind": "timestamp"}, {"kind": "sequence", "format": {"width": 6}}]"#,
        r#"[{"kind": "put_new", "rate": {"per_sec": 10000}}, {"kind": "window_scan", "rate": {"per_sec": 1}, "choose": "fresh", "fields": 0, "window_ms": 300000, "limit": 3000000}]"#,
    )
}

/// Blog posts keyed `<blogger>_<Long.MAX_VALUE - ts>`: 500 posts a second from 100,000
/// bloggers, and "a blogger's posts of the last month" as a time-window scan.
fn csdn_blog() -> String {
    single(
        14,
        "blog",
        "cf",
        "content",
        4000,
        r#"[{"kind": "entity", "count": 100000, "distribution": {"zipf": {"s": 1.0}}, "format": {"width": 6}}, {"kind": "constant", "text": "_"}, {"kind": "timestamp", "encoding": "reverse_decimal"}]"#,
        r#"[{"kind": "put_new", "rate": {"per_sec": 500}}, {"kind": "window_scan", "rate": {"per_sec": 2000}, "choose": "fresh", "fields": 2, "window_ms": 2592000000, "limit": 100}]"#,
    )
}
