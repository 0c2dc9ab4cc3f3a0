//! Long family, qualifier and key names against short ones: bytes per record.

use super::{versus, Pair, Phase, Side, SPLIT_SMALL};
use crate::designs::gen::Gen;
use crate::designs::lesson::{on, Measure, Rel};
use crate::designs::Script;

/// Customer records of three fields; the questions are a few customers by id.
pub(super) fn long_vs_short_names() -> Pair {
    const HISTORY: u64 = 400;
    const NEW: u64 = 100;
    const LOOKUPS: u64 = 10;
    const COUNTRIES: [&str; 6] = ["CN", "US", "DE", "BR", "IN", "JP"];
    let mut g = Gen::new(31);
    let countries: Vec<&str> = (0..HISTORY + NEW)
        .map(|_| COUNTRIES[g.skewed(COUNTRIES.len() as u64, 2.0) as usize])
        .collect();
    let looked_up: Vec<u64> = (0..LOOKUPS).map(|_| g.recent(HISTORY + NEW, 3.0)).collect();
    let side = |label, key: &'static str, table: &'static str, long: bool| {
        let (family, email, name, country) = if long {
            (
                "customer_profile_information",
                "email_address",
                "display_name",
                "country_code",
            )
        } else {
            ("p", "e", "n", "c")
        };
        let row = |i: u64| {
            if long {
                format!("customer_account_{i:06}")
            } else {
                format!("c{i:06}")
            }
        };
        let record = |s: &mut Script, i: u64| {
            let r = row(i);
            s.put(
                table,
                &r,
                &format!("{family}:{email}"),
                &format!("c{i}@example.com"),
            )
            .put(
                table,
                &r,
                &format!("{family}:{name}"),
                &format!("Customer {i}"),
            )
            .put(
                table,
                &r,
                &format!("{family}:{country}"),
                countries[i as usize],
            );
        };
        let mut s = Script::default();
        s.line(format!("create '{table}', '{family}', {SPLIT_SMALL}"));
        for i in 0..HISTORY {
            record(&mut s, i);
        }
        let setup = s.done();
        for i in HISTORY..HISTORY + NEW {
            record(&mut s, i);
        }
        let writes = s.done();
        for i in &looked_up {
            s.line(format!("get '{table}', '{}'", row(*i)));
        }
        Side::new(label, key, table, setup, writes, s.done())
    };
    let mut a = side(
        "Long names",
        "customer_account_<id>, customer_profile_information:email_address …",
        "ab_longnames",
        true,
    );
    a.claims = vec![(Phase::Writes, on(Measure::BytesPerRecord).gt(250.0))];
    let mut b = side("Short names", "c<id>, p:e …", "ab_shortnames", false);
    b.claims = vec![(Phase::Writes, on(Measure::BytesPerRecord).lt(130.0))];
    Pair {
        id: "long-vs-short-names",
        title: "Long names against short names: bytes per record",
        workload: "400 customers exist, each an email, a display name and a country; 100 more sign up; then 10 customers are looked up by id, recent ones likelier.",
        why: "Every cell repeats its row key, family and qualifier next to the value. The same three fields under long names take more than twice the bytes they take under short ones, so the long-named table fills its regions sooner and splits into more of them, for the same customers and the same answers.",
        designs: &["schema.short-names", "schema.columns-as-data", "schema.wide-row-overhead"],
        write_actions: NEW,
        read_actions: LOOKUPS,
        a,
        b,
        versus: vec![
            versus(Phase::Writes, Measure::BytesPerRecord, Rel::Gt, 2.0),
            versus(Phase::Reads, Measure::RowsReturned, Rel::Eq, 1.0),
        ],
    }
}
