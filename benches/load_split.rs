//! What the load rule costs (prints figures, asserts nothing). The same operations run on two
//! tables that differ only in their split rule: Bigtable's rules (`SplitRule::SizeAndLoad`,
//! which looks at every window of 1,000 operations) and the same rules splitting by size alone.
//! The workload: `ROWKEY_BENCH_ROWS` (default 200,000) single-cell writes of a growing key (the
//! load rule's busiest case: the last tablet splits every window), then as many gets spread
//! over the written keys.
//!
//!     cargo bench --bench load_split

use std::time::Instant;

use rowkey::cbt::BIGTABLE_RULES;
use rowkey::engine::{
    Engine, FamilyDescriptor, Mutation, Rules, Scan, SplitRule, TableDescriptor, TableSettings,
};

fn run(rules: Rules, rows: u64) -> Result<(f64, f64, usize), String> {
    let mut engine = Engine::new(Box::new(|| 1_700_000_000_000));
    let mut desc = TableDescriptor::new("t", vec![FamilyDescriptor::new("cf")]);
    desc.rules = rules;
    desc.settings = TableSettings {
        flush_bytes: 1 << 20,
        compaction_threshold: 4,
        // Size splits off by size in effect (1 GB), so the load rule alone splits.
        split_bytes: 1 << 30,
    };
    engine
        .create_table(desc, Vec::new())
        .map_err(|e| e.to_string())?;
    let key = |i: u64| format!("k{i:010}");
    let started = Instant::now();
    for i in 0..rows {
        let put = Mutation::Put {
            family: b"cf".to_vec(),
            qualifier: b"a".to_vec(),
            timestamp: Some(1_000_000),
            value: b"value-of-sixteen".to_vec(),
            ttl_ms: None,
        };
        engine
            .mutate("t", key(i).as_bytes(), &[put])
            .map_err(|e| e.to_string())?;
    }
    let writes = started.elapsed().as_secs_f64();
    let started = Instant::now();
    for i in 0..rows {
        let k = key(i.wrapping_mul(7_919) % rows);
        let mut get = Scan::get(k.as_bytes());
        engine.scan("t", &mut get).map_err(|e| e.to_string())?;
    }
    let gets = started.elapsed().as_secs_f64();
    let tablets = engine.table("t").map_err(|e| e.to_string())?.regions.len();
    Ok((writes, gets, tablets))
}

fn main() {
    let rows: u64 = std::env::var("ROWKEY_BENCH_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200_000);
    let size_only = Rules {
        splits: SplitRule::Size,
        ..BIGTABLE_RULES
    };
    for (label, rules) in [("size and load", BIGTABLE_RULES), ("size only", size_only)] {
        match run(rules, rows) {
            Ok((writes, gets, tablets)) => println!(
                "load_split {label}: {rows} writes {:.0} ns/op, {rows} gets {:.0} ns/op, {tablets} tablets",
                writes * 1e9 / rows as f64,
                gets * 1e9 / rows as f64,
            ),
            Err(e) => eprintln!("load_split {label}: {e}"),
        }
    }
}
