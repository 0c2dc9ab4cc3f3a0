//! The techniques the design documents teach beyond their example tables: salting, hashing
//! against reversing, how many column families, short names, per-cell overhead in wide rows,
//! an entity over several rows, and the few-domains hotspot. Sample data comes from the
//! seeded generator, so every load is the same.

use super::gen::{bursty_times, Gen};
use super::lesson::{on, scanned_is_returned, Measure};
use super::{md5_hex, pattern, Design, Script, Size, Verdict};

/// Salt buckets.
const BUCKETS: u64 = 8;
/// The sample's first event time (epoch ms).
const T0: u64 = 1_700_000_000_000;
/// Events in the sample.
const EVENTS: usize = 1_500;

/// The bucket of an event: a digit from the MD5 of its time, so a reader can compute it again.
fn bucket(ts: u64) -> u64 {
    u64::from_str_radix(&md5_hex(&ts.to_string(), 2), 16).unwrap_or(0) % BUCKETS
}

fn event_times() -> Vec<u64> {
    bursty_times(&mut Gen::new(10), T0, EVENTS, 200)
}

fn salting() -> String {
    let mut s = Script::default();
    s.line("create 'sg_salted', 'e', SPLITS => ['1', '2', '3', '4', '5', '6', '7']")
        .line("create 'sg_events', 'e', {MAX_FILESIZE => 16384}");
    for (i, ts) in event_times().into_iter().enumerate() {
        let url = format!("/p/{}", i % 40);
        s.put("sg_salted", &format!("{}-{ts}", bucket(ts)), "e:url", &url)
            .put("sg_events", &ts.to_string(), "e:url", &url);
    }
    s.done()
}

/// The first minute of the sample: `[from, to)`.
fn minute() -> (u64, u64) {
    (T0 + 60_000, T0 + 120_000)
}

fn salted_minute() -> String {
    let (from, to) = minute();
    (0..BUCKETS)
        .map(|b| format!("count 'sg_salted', {{STARTROW => '{b}-{from}', STOPROW => '{b}-{to}'}}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `n` events after the sample, into the salted or the plain table.
fn new_events(n: u64, salted: bool) -> String {
    let last = event_times().last().copied().unwrap_or(T0);
    let mut s = Script::default();
    for i in 1..=n {
        let ts = last + i * 37;
        if salted {
            s.put(
                "sg_salted",
                &format!("{}-{ts}", bucket(ts)),
                "e:url",
                "/new",
            );
        } else {
            s.put("sg_events", &ts.to_string(), "e:url", "/new");
        }
    }
    s.done().trim_end().to_string()
}

/// The ids of the hash-against-reverse workload.
const FIRST_ID: u64 = 300_000;
const IDS: u64 = 1_500;

fn reversed(id: u64) -> String {
    id.to_string().chars().rev().collect()
}

fn hash_vs_reverse() -> String {
    let mut s = Script::default();
    s.line("create 'sg_hashed', 'u', SPLITS => ['4', '8', 'c']")
        .line("create 'sg_reversed', 'u', SPLITS => ['3', '5', '8']");
    for id in FIRST_ID..FIRST_ID + IDS {
        s.put(
            "sg_hashed",
            &md5_hex(&id.to_string(), 8),
            "u:id",
            &id.to_string(),
        )
        .put("sg_reversed", &reversed(id), "u:id", &id.to_string());
    }
    s.done()
}

fn new_ids(n: u64, hashed: bool) -> String {
    let mut s = Script::default();
    for id in FIRST_ID + IDS..FIRST_ID + IDS + n {
        if hashed {
            s.put(
                "sg_hashed",
                &md5_hex(&id.to_string(), 8),
                "u:id",
                &id.to_string(),
            );
        } else {
            s.put("sg_reversed", &reversed(id), "u:id", &id.to_string());
        }
    }
    s.done().trim_end().to_string()
}

fn ending_in_42() -> u64 {
    (FIRST_ID..FIRST_ID + IDS).filter(|i| i % 100 == 42).count() as u64
}

fn families() -> String {
    let mut s = Script::default();
    s.line("create 'sg_fam1', 'd'")
        .line("create 'sg_fam4', 'a', 'b', 'c', 'd'")
        .line("create 'sg_fam4_skewed', 'a', 'b', 'c', 'd'");
    s.done()
}

/// `n` records of four columns: into one family, four even ones, or four where `a` holds
/// nearly all the bytes.
fn records(table: &str, n: u64, layout: Layout) -> String {
    let mut g = Gen::new(4);
    let mut s = Script::default();
    for i in 0..n {
        let row = format!("r{:05}", g.below(100_000));
        let cols: [(&str, usize); 4] = match layout {
            Layout::OneFamily => [("d:w", 100), ("d:x", 100), ("d:y", 100), ("d:z", 100)],
            Layout::Even => [("a:w", 100), ("b:x", 100), ("c:y", 100), ("d:z", 100)],
            Layout::Skewed => [("a:w", 400), ("b:x", 2), ("c:y", 2), ("d:z", 2)],
        };
        for (col, len) in cols {
            let value: String = format!("{i:06}").chars().cycle().take(len).collect();
            s.put(table, &row, col, &value);
        }
    }
    s.done().trim_end().to_string()
}

#[derive(Clone, Copy)]
enum Layout {
    OneFamily,
    Even,
    Skewed,
}

fn short_names() -> String {
    let mut s = Script::default();
    s.line("create 'sg_longnames', 'customer_profile_information'")
        .line("create 'sg_shortnames', 'p'");
    for i in 0..50 {
        s.line(long_record(i)).line(short_record(i));
    }
    s.done()
}

fn long_record(i: u64) -> String {
    let row = format!("customer_account_{i:06}");
    let mut s = Script::default();
    s.put(
        "sg_longnames",
        &row,
        "customer_profile_information:email_address",
        &format!("c{i}@example.com"),
    )
    .put(
        "sg_longnames",
        &row,
        "customer_profile_information:display_name",
        &format!("Customer {i}"),
    )
    .put(
        "sg_longnames",
        &row,
        "customer_profile_information:country_code",
        "CN",
    );
    s.done().trim_end().to_string()
}

fn short_record(i: u64) -> String {
    let row = format!("c{i:06}");
    let mut s = Script::default();
    s.put("sg_shortnames", &row, "p:e", &format!("c{i}@example.com"))
        .put("sg_shortnames", &row, "p:n", &format!("Customer {i}"))
        .put("sg_shortnames", &row, "p:c", "CN");
    s.done().trim_end().to_string()
}

fn wide_row() -> String {
    let mut s = Script::default();
    s.line("create 'sg_widerow', 'f'");
    for i in 0..500 {
        s.put(
            "sg_widerow",
            "celebrity_0001",
            &format!("f:user_{i:06}"),
            "1",
        );
    }
    s.done()
}

fn more_followers(n: u64, one_cell: bool) -> String {
    let ids: Vec<String> = (500..500 + n).map(|i| format!("user_{i:06}")).collect();
    if one_cell {
        let mut s = Script::default();
        s.put("sg_widerow", "celebrity_0002", "f:list", &ids.join(","));
        return s.done().trim_end().to_string();
    }
    let mut s = Script::default();
    for id in ids {
        s.put("sg_widerow", "celebrity_0001", &format!("f:{id}"), "1");
    }
    s.done().trim_end().to_string()
}

/// Events of the large entity, and rows it is split over.
const ENTITY_EVENTS: u64 = 3_000;
const ENTITY_ROWS: u64 = 30;

fn entity_rows() -> String {
    let mut s = Script::default();
    s.line("create 'sg_entity_one', 'e'")
        .line("create 'sg_entity_rows', 'e'");
    for i in 0..ENTITY_EVENTS {
        let value = format!("event {i} of the account's history");
        s.put("sg_entity_one", "u1", &format!("e:{i:05}"), &value)
            .put(
                "sg_entity_rows",
                &format!("u1#{:02}", i * ENTITY_ROWS / ENTITY_EVENTS),
                &format!("e:{i:05}"),
                &value,
            );
    }
    s.done()
}

/// Big sites hold most pages; the rest are small.
const BIG_SITES: &[&str] = &["com.bigshop", "com.bigblog"];
/// Pages in the few-domains sample, and pages added by its patterns.
const SITE_PAGES: u64 = 3_000;
const NEW_PAGES: u64 = 100;

fn small_site(i: u64) -> String {
    format!("org.site{i:02}")
}

/// How a site numbers its pages: upwards (each new page after every older one) or at random.
#[derive(Clone, Copy)]
enum Numbering {
    Growing,
    Random,
}

impl Numbering {
    fn table(self) -> &'static str {
        match self {
            Numbering::Growing => "sg_fewdomains",
            Numbering::Random => "sg_fewdomains_random",
        }
    }
}

/// The sample's page keys, then `NEW_PAGES` more on the two big sites: nine pages in ten are
/// the big sites', and both tables get the same sites and the same number of pages per site;
/// only the numbers after `/item/` differ.
fn site_pages(numbering: Numbering) -> (Vec<String>, Vec<String>) {
    let mut g = Gen::new(22);
    let mut numbers = Gen::new(2200);
    let mut next = [0u64; 2];
    let mut item = |b: usize| -> String {
        next[b] += 1;
        let n = match numbering {
            Numbering::Growing => next[b],
            Numbering::Random => numbers.below(100_000),
        };
        format!("{}/item/{n:05}", BIG_SITES[b])
    };
    let mut pages = Vec::new();
    for i in 0..SITE_PAGES {
        if g.below(10) < 9 {
            let b = g.below(2) as usize;
            pages.push(item(b));
        } else {
            pages.push(format!("{}/page/{i:05}", small_site(g.below(20))));
        }
    }
    let new = (0..NEW_PAGES).map(|i| item((i % 2) as usize)).collect();
    (pages, new)
}

fn few_domains() -> String {
    let mut s = Script::default();
    for numbering in [Numbering::Growing, Numbering::Random] {
        let table = numbering.table();
        s.line(format!(
            "create '{table}', 'page', {{MAX_FILESIZE => 16384}}"
        ));
        for (i, key) in site_pages(numbering).0.iter().enumerate() {
            s.put(table, key, "page:title", &format!("page {i}"));
        }
    }
    s.done()
}

/// The new pages of the big sites, written to one of the tables.
fn new_pages(numbering: Numbering) -> String {
    let mut s = Script::default();
    for key in site_pages(numbering).1 {
        s.put(numbering.table(), &key, "page:title", "new");
    }
    s.done().trim_end().to_string()
}

/// Pages of com.bigshop in the sample.
fn bigshop_pages() -> u64 {
    site_pages(Numbering::Growing)
        .0
        .iter()
        .filter(|k| k.starts_with("com.bigshop/"))
        .count() as u64
}

pub fn designs_001(size: Size) -> Vec<Design> {
    let (from, to) = minute();
    vec![
        Design {
            id: "schema.salting",
            title: "Salting: N buckets spread the writes",
            source: "001",
            verdict: Verdict::Tradeoff,
            why: "A salt prefix (here one of 8 buckets, a digit from a hash of the event time) in front of a time key sends consecutive events to 8 different regions instead of the last one. The price is on the read side: a time range lives in 8 places, so one range read becomes 8 scans, one per bucket, merged by the client. The plain time key (sg_events) reads a range in one scan and writes everything to its newest region.",
            tables: &["sg_salted", "sg_events"],
            setup: |_| salting(),
            size,
            scales: false,
            patterns: vec![
                pattern("One minute of events, salted: a scan per bucket", salted_minute(), "Eight scans, each exact: the range is in every bucket.").shows([on(Measure::Reads).eq(BUCKETS as f64), scanned_is_returned()]),
                pattern("The same minute, plain time keys: one scan", format!("count 'sg_events', {{STARTROW => '{from}', STOPROW => '{to}'}}"), "One contiguous range.").shows([on(Measure::Reads).eq(1.0), scanned_is_returned()]),
                pattern("100 new events, salted: where they go", new_events(100, true), "Every bucket's region takes a share.").actions(100).shows([on(Measure::RegionsTouched).eq(BUCKETS as f64), on(Measure::BusiestWriteShare).lt(25.0)]),
                pattern("100 new events, plain time keys: where they go", new_events(100, false), "The newest region takes them all.").actions(100).shows([on(Measure::BusiestWriteShare).gt(90.0)]),
            ],
        },
        Design {
            id: "schema.hash-vs-reverse",
            title: "Hashing against reversing a sequential id",
            source: "001",
            verdict: Verdict::Tradeoff,
            why: "The same 1,500 sequential ids, keyed by an 8-digit MD5 prefix (sg_hashed) and by their digits reversed (sg_reversed). Both spread new ids over the regions. Neither keeps the ids' natural order, so a range of consecutive ids is a full scan either way; what reversing keeps is the id itself in the key, and with it one kind of range: ids sharing their last digits share a prefix (every id ending in 42 starts with 24).",
            tables: &["sg_hashed", "sg_reversed"],
            setup: |_| hash_vs_reverse(),
            size,
            scales: false,
            patterns: vec![
                pattern("40 new ids, hashed: where they go", new_ids(40, true), "Spread over the four regions.").actions(40).shows([on(Measure::BusiestWriteShare).lt(50.0), on(Measure::RegionsTouched).eq(4.0)]),
                pattern("40 new ids, reversed: where they go", new_ids(40, false), "Spread as well: consecutive ids differ in their first key byte.").actions(40).shows([on(Measure::BusiestWriteShare).lt(50.0), on(Measure::RegionsTouched).eq(4.0)]),
                pattern("Ids ending in 42, reversed: one prefix scan", "count 'sg_reversed', {ROWPREFIXFILTER => '24'}", "The reversed key keeps this range.").shows([scanned_is_returned(), on(Measure::RowsReturned).eq(ending_in_42() as f64)]),
                pattern("Ids ending in 42, hashed: every row read", "count 'sg_hashed', {FILTER => \"SingleColumnValueFilter('u', 'id', =, 'regexstring:42$')\"}", "The hash keeps no range at all.").shows([on(Measure::RowsScanned).gt_times(50.0, Measure::RowsReturned)]),
                pattern("Ids 300100–300199, reversed: every row read", "count 'sg_reversed', {FILTER => \"SingleColumnValueFilter('u', 'id', =, 'regexstring:^3001[0-9][0-9]$')\"}", "Consecutive ids are scattered by reversing too.").shows([on(Measure::RowsScanned).gt_times(10.0, Measure::RowsReturned)]),
            ],
        },
        Design {
            id: "schema.family-count",
            title: "How many column families: flushes and runs",
            source: "001",
            verdict: Verdict::Tradeoff,
            why: "A region flushes when its memstores together pass the threshold. HBase 2.x's default FlushAllLargeStoresPolicy then flushes only the families above a per-family lower bound (the threshold over the number of families, at least an eighth of it), or all of them when none is. The same records in one family make few, large runs; spread evenly over four families they make four times as many runs, each a quarter of the size, and every read of a record merges four stores. When one family holds nearly all bytes, it flushes on its own and the small families flush rarely.",
            tables: &["sg_fam1", "sg_fam4", "sg_fam4_skewed"],
            setup: |_| families(),
            size,
            scales: false,
            patterns: vec![
                pattern("300 records into one family", records("sg_fam1", 300, Layout::OneFamily), "Runs and bytes per family below.").actions(300).shows([on(Measure::FamiliesFlushed).eq(1.0), on(Measure::BytesPerRun).gt(12_000.0)]),
                pattern("The same into four even families", records("sg_fam4", 300, Layout::Even), "Each flush writes four small runs.").actions(300).shows([on(Measure::FamiliesFlushed).eq(4.0), on(Measure::BytesPerRun).lt(6_000.0)]),
                pattern("Four families, one holding nearly all bytes", records("sg_fam4_skewed", 300, Layout::Skewed), "The large family flushes alone; the small ones wait.").actions(300).shows([on(Measure::SmallestFamilyRuns).lt_times(0.5, Measure::RunsFlushed)]),
            ],
        },
    ]
}

pub fn designs_002(size: Size) -> Vec<Design> {
    vec![
        Design {
            id: "schema.short-names",
            title: "Short family, qualifier and key names",
            source: "002",
            verdict: Verdict::Recommended,
            why: "Every cell stores its row key, family and qualifier again next to the value (a KeyValue adds 20 bytes more). The same customer record under customer_account_000001 / customer_profile_information:email_address takes more than twice the bytes it takes under c000001 / p:e, in the memstore, in every run and in every block read.",
            tables: &["sg_longnames", "sg_shortnames"],
            setup: |_| short_names(),
            size,
            scales: false,
            patterns: vec![
                pattern("One customer, long names", long_record(50), "Three cells, each repeating the long names.").shows([on(Measure::BytesPerRecord).gt(250.0)]),
                pattern("One customer, short names", short_record(50), "The same values, short names.").shows([on(Measure::BytesPerRecord).lt(130.0)]),
            ],
        },
        Design {
            id: "schema.entity-rows",
            title: "One large entity over several rows",
            source: "002",
            verdict: Verdict::Tradeoff,
            why: "HBase never splits a row: an entity kept in one row (sg_entity_one, 3,000 events of account u1) stays in one region however large it grows, and that region serves all its traffic. Split over rows u1#00 … u1#29 (sg_entity_rows), the entity can spread over regions and is read back with one prefix scan; what it loses is row atomicity across the parts.",
            tables: &["sg_entity_one", "sg_entity_rows"],
            setup: |_| entity_rows(),
            size,
            scales: false,
            patterns: vec![
                pattern("The entity in one row", "count 'sg_entity_one'", "One row, in one region, however large.").shows([on(Measure::RowsScanned).eq(1.0), on(Measure::RegionsTouched).eq(1.0)]),
                pattern("The entity over thirty rows", "count 'sg_entity_rows', {ROWPREFIXFILTER => 'u1#'}", "One prefix scan over the regions the parts landed in.").shows([scanned_is_returned(), on(Measure::RowsReturned).eq(ENTITY_ROWS as f64), on(Measure::RegionsTouched).ge(2.0)]),
            ],
        },
        Design {
            id: "schema.few-domains",
            title: "A few sites, pages numbered upwards: two hot regions",
            source: "002",
            verdict: Verdict::AntiPattern,
            why: "Keyed by site then page (com.bigshop/item/00042), each site is one contiguous key range: one prefix scan reads it, which plain host names (bigshop.com/…) would give as well, since the site is the key's first part either way. When two sites hold nine pages in ten, the table has only two busy ranges, and a range takes its new pages wherever their keys fall. Numbered upwards (sg_fewdomains), every new page sorts after all of its site's earlier pages, so it lands in the last region of that site's range: however many regions the sites have split into, two take every new page. The same sites and pages numbered at random (sg_fewdomains_random) put new pages all along each range, and the writes spread over its regions. The few sites set how many ranges there are; the growing number keeps each range's writes on one region.",
            tables: &["sg_fewdomains", "sg_fewdomains_random"],
            setup: |_| few_domains(),
            size,
            scales: false,
            patterns: vec![
                pattern("100 new pages of the two big sites, numbered upwards", new_pages(Numbering::Growing), "Each site's newest page sorts last in its range: two regions take all of them.").actions(NEW_PAGES).shows([on(Measure::RegionsTouched).eq(BIG_SITES.len() as f64), on(Measure::BusiestWriteShare).ge(40.0)]),
                pattern("The same 100 pages numbered at random", new_pages(Numbering::Random), "The same two sites, but new pages fall all along their ranges: many regions share them.").actions(NEW_PAGES).shows([on(Measure::RegionsTouched).ge(2.0 * BIG_SITES.len() as f64 + 1.0), on(Measure::BusiestWriteShare).lt(40.0)]),
                pattern("All pages of com.bigshop", "count 'sg_fewdomains', {ROWPREFIXFILTER => 'com.bigshop/'}", "A site is one range: the scan reads only its rows (the site first in the key does this, reversed or not).").shows([scanned_is_returned(), on(Measure::RowsReturned).ge(bigshop_pages() as f64), on(Measure::RowsReturned).le((bigshop_pages() + NEW_PAGES / 2) as f64)]),
            ],
        },
    ]
}

pub fn designs_004(size: Size) -> Vec<Design> {
    vec![Design {
        id: "schema.wide-row-overhead",
        title: "The per-cell cost of a very wide row",
        source: "004",
        verdict: Verdict::Tradeoff,
        why: "A wide row stores one cell per entry, and each cell carries the row key, family, qualifier, timestamp and type again: a follower entry of one byte (\"1\") costs over forty bytes as a KeyValue. Packing the same entries into one cell's value costs a dozen bytes each, but every change rewrites the whole list.",
        tables: &["sg_widerow"],
        setup: |_| wide_row(),
        size,
        scales: false,
        patterns: vec![
            pattern("100 more followers, a cell each", more_followers(100, false), "Each entry repeats the key, family and qualifier.").actions(100).shows([on(Measure::BytesPerRecord).gt(40.0)]),
            pattern("100 followers as one cell's value", more_followers(100, true), "One cell's overhead, shared by 100 entries.").actions(100).shows([on(Measure::BytesPerRecord).lt(15.0)]),
        ],
    }]
}
