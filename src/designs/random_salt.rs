//! Random salting against a hash prefix (design document 001 names salting and hashing): both
//! put one of eight buckets in front of a time key and spread the writes, but only the hash can
//! be computed again from the event, so only the hash keeps a point read one get.

use super::gen::{bursty_times, Gen};
use super::lesson::{on, Measure};
use super::{md5_hex, pattern, Design, Script, Size, Verdict};

const BUCKETS: u64 = 8;
/// Events at the medium size, and the first event's time (epoch ms).
const EVENTS: u64 = 1_500;
const T0: u64 = 1_700_000_000_000;

/// The hash prefix: a bucket computed from the time, again at read time.
fn hashed_bucket(ts: u64) -> u64 {
    u64::from_str_radix(&md5_hex(&ts.to_string(), 2), 16).unwrap_or(0) % BUCKETS
}

/// `(time, random bucket)` of every event: the random salt is drawn at write time and kept
/// nowhere else.
fn events(size: Size) -> Vec<(u64, u64)> {
    let times = bursty_times(&mut Gen::new(12), T0, size.of_usize(EVENTS as usize), 200);
    let mut salt = Gen::new(13);
    times
        .into_iter()
        .map(|ts| (ts, salt.below(BUCKETS)))
        .collect()
}

fn setup(size: Size) -> String {
    let mut s = Script::default();
    let splits = "SPLITS => ['1', '2', '3', '4', '5', '6', '7']";
    s.line(format!("create 'rs_random', 'e', {splits}"))
        .line(format!("create 'rs_hashed', 'e', {splits}"));
    for (i, (ts, salt)) in events(size).into_iter().enumerate() {
        let url = format!("/p/{}", i % 40);
        s.put("rs_random", &format!("{salt}-{ts}"), "e:url", &url)
            .put(
                "rs_hashed",
                &format!("{}-{ts}", hashed_bucket(ts)),
                "e:url",
                &url,
            );
    }
    s.done()
}

/// The event the point reads look for: the middle one of the sample.
fn known_event(size: Size) -> u64 {
    let all = events(size);
    all.get(all.len() / 2).map_or(T0, |e| e.0)
}

/// `n` new events after the sample, salted at random or by their hash.
fn new_events(size: Size, n: u64, random: bool) -> String {
    let last = events(size).last().map_or(T0, |e| e.0);
    let mut salt = Gen::new(14);
    let mut s = Script::default();
    for i in 1..=n {
        let ts = last + i * 37;
        if random {
            s.put(
                "rs_random",
                &format!("{}-{ts}", salt.below(BUCKETS)),
                "e:url",
                "/new",
            );
        } else {
            s.put(
                "rs_hashed",
                &format!("{}-{ts}", hashed_bucket(ts)),
                "e:url",
                "/new",
            );
        }
    }
    s.done().trim_end().to_string()
}

pub fn designs(size: Size) -> Vec<Design> {
    let ts = known_event(size);
    let every_bucket = (0..BUCKETS)
        .map(|b| format!("get 'rs_random', '{b}-{ts}'"))
        .collect::<Vec<_>>()
        .join("\n");
    vec![Design {
        id: "schema.random-salt",
        title: "Random salt against a hash prefix: the cost of a point read",
        source: "001",
        verdict: Verdict::Tradeoff,
        why: "Both tables put one of eight buckets in front of the event's time, and both spread new events over the eight pre-split regions. The hash prefix (rs_hashed) is computed from the time itself, so a reader who knows the event computes the bucket again and reads it with one get. A random salt (rs_random) is drawn when the event is written and stored nowhere else: to read a known event, the reader must try every bucket, eight gets of which seven find nothing. Range reads cost eight scans either way.",
        tables: &["rs_random", "rs_hashed"],
        setup,
        size,
        scales: true,
        patterns: vec![
            pattern("A known event, hash prefix: one get", format!("get 'rs_hashed', '{}-{ts}'", hashed_bucket(ts)), "The bucket is computed from the time again.").shows([on(Measure::Reads).eq(1.0), on(Measure::RowsReturned).eq(1.0)]),
            pattern("The same event, random salt: a get per bucket", every_bucket, "The salt was not kept: every bucket is tried, and one of eight finds it.").shows([on(Measure::Reads).eq(BUCKETS as f64), on(Measure::RowsReturned).eq(1.0)]),
            pattern("100 new events, random salt: where they go", new_events(size, 100, true), "The writes spread over every bucket's region.").actions(100).shows([on(Measure::RegionsTouched).eq(BUCKETS as f64), on(Measure::BusiestWriteShare).lt(25.0)]),
            pattern("100 new events, hash prefix: where they go", new_events(size, 100, false), "They spread just as well.").actions(100).shows([on(Measure::RegionsTouched).eq(BUCKETS as f64), on(Measure::BusiestWriteShare).lt(25.0)]),
        ],
    }]
}
