//! A blogging site: follow and fan lists, and a year of posts keyed by reverse time
//! (design document 001).

use super::gen::Gen;
use super::lesson::{on, scanned_is_returned, Measure};
use super::{epoch_ms, pattern, reverse_ts, Design, Script, Size, Verdict};

/// The document's five bloggers: `(id, name)`.
const BLOGGERS: &[(&str, &str)] = &[
    ("CSDN_1", "jakson"),
    ("CSDN_2", "elite"),
    ("CSDN_3", "bob"),
    ("CSDN_4", "Eric"),
    ("CSDN_5", "tom"),
];

/// The document's follows, `(follower, followed)`: every follow its follow lists name and
/// every one its fan lists name, so that each follow appears on both sides. Its listing of
/// CSDN_2 as a fan of itself is left out.
const FOLLOWS: &[(&str, &str)] = &[
    ("CSDN_1", "CSDN_3"),
    ("CSDN_1", "CSDN_4"),
    ("CSDN_2", "CSDN_1"),
    ("CSDN_2", "CSDN_3"),
    ("CSDN_2", "CSDN_4"),
    ("CSDN_3", "CSDN_1"),
    ("CSDN_3", "CSDN_2"),
    ("CSDN_3", "CSDN_4"),
    ("CSDN_4", "CSDN_3"),
    ("CSDN_4", "CSDN_5"),
];

/// Bloggers beyond the document's five at the medium size, and how many others each follows.
const MORE_BLOGGERS: u64 = 600;
const FOLLOWS_EACH: u64 = 10;

fn blogger(i: u64) -> String {
    format!("CSDN_{}", i + 1)
}

fn blogger_name(i: u64) -> String {
    BLOGGERS
        .get(i as usize)
        .map_or_else(|| format!("blogger{}", i + 1), |b| b.1.to_string())
}

/// Every follow of the sample at `size`, `(follower, followed)` by id: the document's, then
/// the further bloggers'.
fn all_follows(size: Size) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = FOLLOWS
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    out.extend(
        more_follows(size)
            .into_iter()
            .map(|(fan, star)| (blogger(fan), blogger(star))),
    );
    out
}

/// `(follows, fans)` of a blogger at `size`.
fn lists_of(size: Size, id: &str) -> (usize, usize) {
    let all = all_follows(size);
    (
        all.iter().filter(|f| f.0 == id).count(),
        all.iter().filter(|f| f.1 == id).count(),
    )
}

/// The ids a blogger follows, in the order of the sample.
fn followed_by(size: Size, id: &str) -> Vec<String> {
    all_follows(size)
        .into_iter()
        .filter(|f| f.0 == id)
        .map(|f| f.1)
        .collect()
}

/// Looks a blogger's follows up on the other side: a get of each followed blogger's
/// `fans:<id>`.
fn fan_side_of(size: Size, id: &str) -> String {
    followed_by(size, id)
        .iter()
        .map(|f| format!("get 'csdn_rel', '{f}', 'fans:{id}'"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `(follower, followed)` among the further bloggers (CSDN_6 on): each follows ten others,
/// picked with a strong skew towards the first ids, so the document's five and a few more are
/// the celebrities with most of the fans.
fn more_follows(size: Size) -> Vec<(u64, u64)> {
    let total = BLOGGERS.len() as u64 + size.of(MORE_BLOGGERS);
    let mut g = Gen::new(2022);
    let mut out = Vec::new();
    for fan in BLOGGERS.len() as u64..total {
        let mut mine: Vec<u64> = Vec::new();
        while (mine.len() as u64) < FOLLOWS_EACH {
            let star = g.skewed(total, 4.0);
            if star != fan && !mine.contains(&star) {
                mine.push(star);
            }
        }
        out.extend(mine.into_iter().map(|star| (fan, star)));
    }
    out
}

fn follows(size: Size) -> String {
    let mut s = Script::default();
    s.line("create 'csdn_rel', 'follows', 'fans'");
    let display = |id: &str| {
        id.strip_prefix("CSDN_")
            .and_then(|n| n.parse::<u64>().ok())
            .map_or_else(|| "?".to_string(), |n| blogger_name(n.saturating_sub(1)))
    };
    // Each follow writes both sides: the follower's follows list and the followed one's fans.
    for (fan, star) in all_follows(size) {
        s.put(
            "csdn_rel",
            &fan,
            &format!("follows:{star}"),
            &display(&star),
        )
        .put("csdn_rel", &star, &format!("fans:{fan}"), &display(&fan));
    }
    s.done()
}

/// Posts in the sample year at the medium size: the document's 10,000.
pub const POSTS: u64 = 10_000;

/// The publication time of post `j` of `posts`: spread evenly over 2022 (UTC).
pub fn post_time(j: u64, posts: u64) -> u64 {
    let start = epoch_ms(2022, 1, 1, 0, 0, 0);
    let year = epoch_ms(2023, 1, 1, 0, 0, 0) - start;
    start + (j * year / posts.max(1)) / 1000 * 1000
}

fn blog(size: Size) -> String {
    let mut s = Script::default();
    s.line("create 'blog', 'cf'");
    let posts = size.of(POSTS);
    for j in 0..posts {
        let key = format!("123_{}", reverse_ts(post_time(j, posts)));
        s.put("blog", &key, "cf:title", &format!("title_{j}"))
            .put("blog", &key, "cf:content", &format!("content_{j}"))
            .put("blog", &key, "cf:specification", &format!("bigdata_{j}"));
    }
    s.done()
}

/// `n` posts published after the sample year, an hour apart.
fn new_posts(n: u64) -> String {
    let start = epoch_ms(2023, 1, 1, 0, 0, 0);
    let mut s = Script::default();
    for j in 0..n {
        let key = format!("123_{}", reverse_ts(start + j * 3_600_000));
        s.put("blog", &key, "cf:title", &format!("title_2023_{j}"));
    }
    s.done().trim_end().to_string()
}

/// Posts at the edges of December 2022 (UTC): `(label, epoch ms)`.
fn edge_posts() -> Vec<(&'static str, u64)> {
    vec![
        (
            "last millisecond of November",
            epoch_ms(2022, 12, 1, 0, 0, 0) - 1,
        ),
        (
            "first millisecond of December",
            epoch_ms(2022, 12, 1, 0, 0, 0),
        ),
        ("mid-December", epoch_ms(2022, 12, 15, 12, 0, 0)),
        (
            "December 31, 23:59:59.000",
            epoch_ms(2022, 12, 31, 23, 59, 59),
        ),
        (
            "December 31, 23:59:59.500",
            epoch_ms(2022, 12, 31, 23, 59, 59) + 500,
        ),
        ("first millisecond of 2023", epoch_ms(2023, 1, 1, 0, 0, 0)),
    ]
}

fn boundaries() -> String {
    let mut s = Script::default();
    s.line("create 'blog_edges', 'cf'");
    for (label, ts) in edge_posts() {
        s.put(
            "blog_edges",
            &format!("123_{}", reverse_ts(ts)),
            "cf:title",
            label,
        );
    }
    s.done()
}

/// A scan of the posts published in `(after, upto]`: the reverse of the later time is the
/// inclusive start, the reverse of the earlier the exclusive stop.
fn between(after: u64, upto: u64) -> String {
    format!(
        "scan 'blog_edges', {{STARTROW => '123_{}', STOPROW => '123_{}'}}",
        reverse_ts(upto),
        reverse_ts(after)
    )
}

pub fn designs(size: Size) -> Vec<Design> {
    let csdn4 = lists_of(size, "CSDN_4");
    let csdn3_follows = lists_of(size, "CSDN_3").0;
    let csdn1_fans = lists_of(size, "CSDN_1").1;
    let december = edge_posts()
        .iter()
        .filter(|p| p.1 >= epoch_ms(2022, 12, 1, 0, 0, 0) && p.1 < epoch_ms(2023, 1, 1, 0, 0, 0))
        .count() as f64;
    let start = format!("123_{}", reverse_ts(epoch_ms(2022, 12, 31, 23, 59, 59)));
    let stop = format!("123_{}", reverse_ts(epoch_ms(2022, 12, 1, 0, 0, 0)));
    vec![
        Design {
            id: "csdn.follows",
            title: "Follow and fan lists, one row per blogger",
            source: "001",
            verdict: Verdict::Recommended,
            why: "One row per blogger with two families, follows and fans; the qualifier is the other blogger's id and the value their name. Beyond the document's five, hundreds of bloggers each follow ten others, most of them the same few celebrities. A blogger's lists are one get, however long (CSDN_1's fan list holds a large share of everyone), two families stay within the two or three a table should have, and the bloggers' rows spread over the regions as the table splits: a celebrity's row is large but still one row in one region.",
            tables: &["csdn_rel"],
            setup: follows,
            size,
            scales: true,
            patterns: vec![
                pattern("Everything about CSDN_4", "get 'csdn_rel', 'CSDN_4'", "Both lists, one row: a cell per blogger followed and per fan.").shows([on(Measure::RowsScanned).eq(1.0), on(Measure::CellsReturned).eq((csdn4.0 + csdn4.1) as f64)]),
                pattern("Only the fans of CSDN_4", "get 'csdn_rel', 'CSDN_4', 'fans'", "Reading one family touches one store.").shows([on(Measure::RowsScanned).eq(1.0), on(Measure::CellsReturned).eq(csdn4.1 as f64)]),
                pattern("CSDN_3's follows, found again in the fan lists", fan_side_of(size, "CSDN_3"), "Each follow was written to both rows: every blogger CSDN_3 follows lists CSDN_3 among its fans.").shows([on(Measure::Reads).eq(csdn3_follows as f64), on(Measure::RowsReturned).eq(csdn3_follows as f64)]),
                pattern("Every fan of the celebrity CSDN_1", "get 'csdn_rel', 'CSDN_1', 'fans'", "A long list, still one row in one region.").shows([on(Measure::RowsScanned).eq(1.0), on(Measure::RegionsTouched).eq(1.0), on(Measure::CellsReturned).eq(csdn1_fans as f64)]),
                pattern("Every blogger", "count 'csdn_rel'", "The rows spread over the regions as the table splits.").shows([scanned_is_returned(), on(Measure::RowsReturned).eq((BLOGGERS.len() as u64 + size.of(MORE_BLOGGERS)) as f64), on(Measure::RegionsTouched).ge(2.0)]),
            ],
        },
        Design {
            id: "csdn.blog",
            title: "A year of blog posts keyed by reverse time",
            source: "001",
            verdict: Verdict::Recommended,
            why: "10,000 posts of blogger 123 in 2022 (the medium size; a quarter or three times as many at the other sizes) under keys 123_<Long.MAX_VALUE - ts>. Newest sorts first, and a month is one contiguous range: start at the reverse of its last second, stop at the reverse of its first. The scan touches only December's rows and the regions holding them. The price: a newer post has a smaller key, so every new post goes to the first region of the table, which takes all the writes (the heat on the first region). (Times are UTC here.)",
            tables: &["blog"],
            setup: blog,
            size,
            scales: true,
            patterns: vec![
                pattern("Posts of December 2022", format!("count 'blog', {{STARTROW => '{start}', STOPROW => '{stop}'}}"), "Examined equals returned: the range holds exactly December.").shows([scanned_is_returned(), on(Measure::RowsReturned).gt(size.of(800) as f64)]),
                pattern("The newest 3 posts", "scan 'blog', {ROWPREFIXFILTER => '123_', LIMIT => 3, COLUMNS => ['cf:title']}", "Reverse timestamps put the latest first.").shows([scanned_is_returned(), on(Measure::RowsReturned).eq(3.0)]),
                pattern("Posts found by title instead of by key (full scan)", "count 'blog', {FILTER => \"SingleColumnValueFilter('cf', 'title', =, 'regexstring:^title_9[2-9][0-9]{2}$')\"}", "Without the key, every row is read, and the count is not what it seems: HBase's shell counts with a FirstKeyOnlyFilter after the scan's filter in an AND list, so the filter sees a row's first two cells only. cf:title is a post's third (after cf:content and cf:specification): the filter never sees it, and every post of the year is counted. (A January post written below holds only cf:title, its first cell, so the filter judges it.) A scan with the same filter shows the matches.").shows([on(Measure::RowsScanned).ge(size.of(POSTS) as f64), on(Measure::RowsReturned).eq(size.of(POSTS) as f64)]),
                pattern("Twenty posts of January 2023: where they go", new_posts(20), "Each new post sorts before every older one: all of them land in the first region.").actions(20).shows([on(Measure::BusiestWriteShare).gt(90.0)]),
            ],
        },
        Design {
            id: "csdn.range-boundaries",
            title: "Reverse-timestamp ranges: what each bound keeps",
            source: "001",
            verdict: Verdict::Tradeoff,
            why: "Reversing the time flips the bounds: the start row is the reverse of the month's last moment (inclusive) and the stop row the reverse of its first moment (exclusive). The blog query's bounds, last second of December 31 to 00:00:00 of December 1, therefore include December 31 23:59:59.000 but not the 999 milliseconds after it, and leave out a post at exactly 00:00:00.000 on December 1. Bounds of 'after the last millisecond of November, up to the last millisecond of December' keep the whole month.",
            tables: &["blog_edges"],
            setup: |_| boundaries(),
            size,
            scales: false,
            patterns: vec![
                pattern("December with the blog query's bounds", between(epoch_ms(2022, 12, 1, 0, 0, 0), epoch_ms(2022, 12, 31, 23, 59, 59)), "Two of December's four posts: both edges lost.").shows([on(Measure::RowsReturned).eq(december - 2.0)]),
                pattern("December with millisecond-exact bounds", between(epoch_ms(2022, 12, 1, 0, 0, 0) - 1, epoch_ms(2023, 1, 1, 0, 0, 0) - 1), "All four, and nothing of November or 2023.").shows([on(Measure::RowsReturned).eq(december), scanned_is_returned()]),
            ],
        },
    ]
}
