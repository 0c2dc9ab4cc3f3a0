//! Plain domain names against reversed ones: reading one company's sites.

use super::{versus, Pair, Phase, Side, SPLIT_SMALL};
use crate::designs::gen::Gen;
use crate::designs::lesson::{on, scanned_is_returned, Measure, Rel};
use crate::designs::Script;

/// Pages of a few sites, most of them of one company's sites; the question is every page of
/// example.com.
pub(super) fn plain_vs_reversed_domains() -> Pair {
    // The few-domains design's sites: most of them one company's.
    const HOSTS: &[&str] = crate::designs::schema_guide::SITES;
    const HISTORY: u64 = 1_000;
    const NEW: u64 = 100;
    let mut g = Gen::new(41);
    let pages: Vec<(usize, u64)> = (0..HISTORY + NEW)
        .map(|i| (g.skewed(HOSTS.len() as u64, 1.5) as usize, i))
        .collect();
    let of_example_com = pages.iter().filter(|p| p.0 < 3).count() as f64;
    let side = |label, key: &'static str, table: &'static str, reversed: bool| {
        let row = |(host, i): (usize, u64)| {
            let host = if reversed {
                HOSTS[host].split('.').rev().collect::<Vec<_>>().join(".")
            } else {
                HOSTS[host].to_string()
            };
            format!("{host}/item/{i:05}")
        };
        let mut s = Script::default();
        s.line(format!("create '{table}', 'page', {SPLIT_SMALL}"));
        for p in &pages[..HISTORY as usize] {
            s.put(table, &row(*p), "page:title", &format!("page {}", p.1));
        }
        let setup = s.done();
        for p in &pages[HISTORY as usize..] {
            s.put(table, &row(*p), "page:title", &format!("page {}", p.1));
        }
        let writes = s.done();
        if reversed {
            s.line(format!(
                "count '{table}', {{ROWPREFIXFILTER => 'com.example.'}}"
            ));
        } else {
            s.line(format!(
                "count '{table}', {{FILTER => \"RowFilter(=, 'regexstring:^[a-z]+\\.example\\.com/')\"}}"
            ));
        }
        Side::new(label, key, table, setup, writes, s.done())
    };
    let mut a = side("Plain domains", "<host>/<path>", "ab_domains_plain", false);
    a.claims = vec![(
        Phase::Reads,
        on(Measure::RowsScanned).gt_times(1.5, Measure::RowsReturned),
    )];
    let mut b = side(
        "Reversed domains",
        "<host reversed>/<path>",
        "ab_domains_reversed",
        true,
    );
    b.claims = vec![
        (Phase::Reads, scanned_is_returned()),
        (Phase::Reads, on(Measure::RowsReturned).eq(of_example_com)),
    ];
    Pair {
        id: "plain-vs-reversed-domains",
        title: "Plain domain names against reversed ones",
        workload: "1,000 pages of eight sites exist, three of them example.com's and the busiest; 100 more pages are added; then every page of example.com.",
        why: "Reversed (com.example.products), a company's sites sort next to each other, so all of example.com is one prefix scan that reads only what it returns. Plain (products.example.com), its sites scatter between the others' by their first label, and finding them means reading the whole table through a filter.",
        designs: &["schema.reversed-domain"],
        write_actions: NEW,
        read_actions: 1,
        a,
        b,
        versus: vec![
            versus(Phase::Reads, Measure::RowsScanned, Rel::Gt, 1.5),
            versus(Phase::Reads, Measure::RowsReturned, Rel::Eq, 1.0),
        ],
    }
}
