//! Keys that collide (design documents 001 and 003): a post keyed `<user>_<Long.MAX_VALUE - ts>`
//! with the time in whole seconds is one row per second, so two posts in one second are one
//! row and the second overwrites the first. A counter after the time, as the access log's
//! `<time><inc_counter>` has, keeps every post.

use super::gen::Gen;
use super::lesson::{on, scanned_is_returned, Measure};
use super::{pattern, reverse_ts, Design, Script, Size, Verdict};
use crate::kit::order;

/// Posts of user 042 at the medium size, and the hour (in seconds) they fall in at random.
const POSTS: u64 = 600;
const WINDOW_S: u64 = 3_600;
/// The hour's first second (epoch seconds).
const T0_S: u64 = 1_700_000_000;

/// The second of each post, in the order they were written.
fn post_seconds(size: Size) -> Vec<u64> {
    let mut g = Gen::new(4242);
    (0..size.of(POSTS))
        .map(|_| T0_S + g.below(WINDOW_S))
        .collect()
}

/// The key by time alone: `<user>_<Long.MAX_VALUE - ts>`, the time in whole seconds.
fn time_key(user: &str, second: u64) -> String {
    format!("{user}_{}", reverse_ts(second * 1000))
}

/// The key with a counter: the post's sequence number after the time.
fn counted_key(user: &str, second: u64, seq: u64) -> String {
    format!("{}_{seq:06}", time_key(user, second))
}

fn setup(size: Size) -> String {
    let mut s = Script::default();
    s.line("create 'ck_posts', 'p', {MAX_FILESIZE => 16384}")
        .line("create 'ck_posts_counted', 'p', {MAX_FILESIZE => 16384}");
    for (seq, second) in post_seconds(size).into_iter().enumerate() {
        let text = format!("post {seq}");
        s.put("ck_posts", &time_key("042", second), "p:text", &text)
            .put(
                "ck_posts_counted",
                &counted_key("042", second, seq as u64),
                "p:text",
                &text,
            );
    }
    s.done()
}

/// Distinct seconds among the posts: the rows keying by time alone leaves.
fn distinct_seconds(size: Size) -> u64 {
    let mut seconds = post_seconds(size);
    order::sort(&mut seconds);
    seconds.dedup();
    seconds.len() as u64
}

pub fn designs(size: Size) -> Vec<Design> {
    let posts = size.of(POSTS);
    let rows = distinct_seconds(size);
    // Two posts of another user (043) in one second, so that the counts of 042 hold
    // whether or not they were written.
    let second = T0_S + WINDOW_S + 10;
    vec![Design {
        id: "schema.colliding-keys",
        title: "Keys that collide: two posts in one second",
        source: "001",
        verdict: Verdict::AntiPattern,
        why: "User 042 posts at random moments of one hour, and each post is keyed 042_<Long.MAX_VALUE - ts> with the time in whole seconds (ck_posts). Two posts in the same second get the same key: the second put writes a newer version of the same cell, and with one version kept the first post is gone. The table ends with fewer rows than posts, silently. A counter after the time (ck_posts_counted: 042_<reverse ts>_<sequence>), like the access log's <time><inc_counter>, gives every post its own row and keeps the newest-first order of the seconds.",
        tables: &["ck_posts", "ck_posts_counted"],
        setup,
        size,
        scales: true,
        patterns: vec![
            pattern("Every post of 042, keyed by time alone", "count 'ck_posts', {ROWPREFIXFILTER => '042_'}", "Fewer rows than posts: every post that shared a second with a later one is gone.").shows([scanned_is_returned(), on(Measure::RowsReturned).eq(rows as f64), on(Measure::RowsReturned).lt(posts as f64)]),
            pattern("Every post of 042, with a counter", "count 'ck_posts_counted', {ROWPREFIXFILTER => '042_'}", "One row per post.").shows([scanned_is_returned(), on(Measure::RowsReturned).eq(posts as f64)]),
            pattern("Two posts in one second, keyed by time alone", format!("put 'ck_posts', '{k}', 'p:text', 'first'\nput 'ck_posts', '{k}', 'p:text', 'second'\nscan 'ck_posts', {{ROWPREFIXFILTER => '{k}'}}", k = time_key("043", second)), "User 043 posts twice in one second. Two writes, one row: the first post is overwritten.").actions(2).shows([on(Measure::RowsWritten).eq(2.0), on(Measure::RowsReturned).eq(1.0)]),
            pattern("Two posts in one second, with a counter", format!("put 'ck_posts_counted', '{a}', 'p:text', 'first'\nput 'ck_posts_counted', '{b}', 'p:text', 'second'\nscan 'ck_posts_counted', {{ROWPREFIXFILTER => '{p}'}}", a = counted_key("043", second, 0), b = counted_key("043", second, 1), p = time_key("043", second)), "Two writes, two rows.").actions(2).shows([on(Measure::RowsWritten).eq(2.0), on(Measure::RowsReturned).eq(2.0)]),
        ],
    }]
}
