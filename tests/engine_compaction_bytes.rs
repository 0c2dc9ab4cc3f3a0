//! The runs that flushes and compactions write, byte for byte: a seeded mix of puts (several
//! versions of a column, some with a TTL of their own) and deletes of every kind, in three
//! families written with each block encoding and bloom type and different retention rules
//! (VERSIONS, KEEP_DELETED_CELLS, TTL), loaded with small flushes and minor compactions picked
//! by the exploring policy, then compacted minor and major. Each stage's run files are summed
//! up by their bytes' CRC-32 and length: the figures are those the writer and the merge wrote
//! before the merge streamed cells from its inputs' blocks without staging them, and a change
//! in what a rewrite keeps, in what order, or how it encodes it changes them. Every run's rows
//! as its writer counted them are the ones a walk of its cells counts.
//! (HBase's `StoreFlusher` and `Compactor` write what `StoreScanner` hands them, in order.)
mod common;

use common::*;
use rowkey::engine::{
    Decoded, Engine, FamilyDescriptor, KeepDeletedCells, Mutation, TableDescriptor,
};
use rowkey::kit::crc32;
use rowkey::kit::seeded::Gen;

/// Every run file of table `t`, region by region, store by store, newest run first: the
/// number of runs, their bytes and the CRC-32 of those bytes one after another.
fn digest(e: &Engine) -> Result<(usize, usize, u32), rowkey::engine::Error> {
    let mut all = Vec::new();
    let mut runs = 0;
    for region in &e.table("t")?.regions {
        for store in &region.stores {
            for run in &store.runs {
                runs += 1;
                all.extend_from_slice(&run.file().to_bytes());
            }
        }
    }
    Ok((runs, all.len(), crc32::hash(&all)))
}

/// Whether every run's rows as its writer counted them are the stretches a walk of its cells
/// counts (what a save stores behind the run); how many rows that is in all.
fn counted_rows_agree(e: &Engine) -> Result<usize, rowkey::engine::Error> {
    let mut rows = 0;
    for region in &e.table("t")?.regions {
        for store in &region.stores {
            for run in &store.runs {
                let keys = Decoded::default();
                let mut walked: Vec<(Vec<u8>, u32, u64)> = Vec::new();
                run.for_each_row_stretch(&keys, |r, c, b| walked.push((r.to_vec(), c, b)));
                let mut counted: Vec<(Vec<u8>, u32, u64)> = Vec::new();
                if let Some(rows) = run.counted_rows() {
                    rows.for_each(|r, c, b| counted.push((r.to_vec(), c, b)));
                    assert_eq!(rows.len(), counted.len());
                }
                assert_eq!(counted, walked, "run {}", run.id);
                rows += counted.len();
            }
        }
    }
    Ok(rows)
}

fn families() -> Vec<FamilyDescriptor> {
    let mut a = FamilyDescriptor::new("a");
    a.blocksize = 1024;
    let mut b = FamilyDescriptor::new("b");
    b.max_versions = 3;
    b.keep_deleted_cells = KeepDeletedCells::True;
    b.data_block_encoding = "PREFIX".into();
    b.bloomfilter = "ROWCOL".into();
    b.blocksize = 2048;
    let mut c = FamilyDescriptor::new("c");
    c.max_versions = 2;
    c.min_versions = 1;
    c.ttl_seconds = Some(40);
    c.keep_deleted_cells = KeepDeletedCells::Ttl;
    c.data_block_encoding = "FAST_DIFF".into();
    c.bloomfilter = "NONE".into();
    vec![a, b, c]
}

/// One seeded mutation on a random row: most are puts, one in eight a delete of some kind.
fn mutation(g: &mut Gen) -> Mutation {
    let family = ["a", "b", "c"][g.below(3) as usize];
    let qualifier = format!("q{}", g.below(4));
    let timestamp = match g.below(3) {
        0 => None,
        _ => Some(1_000 + g.below(60) * 1_000),
    };
    match g.below(16) {
        0 => Mutation::Delete {
            family: family.into(),
            qualifier: Some(qualifier.into_bytes()),
            timestamp,
            all_versions: false,
        },
        1 => Mutation::Delete {
            family: family.into(),
            qualifier: Some(qualifier.into_bytes()),
            timestamp,
            all_versions: true,
        },
        2 if g.below(2) == 0 => Mutation::Delete {
            family: family.into(),
            qualifier: None,
            timestamp,
            all_versions: g.below(2) == 0,
        },
        2 => Mutation::DeleteRow { timestamp },
        _ => Mutation::Put {
            family: family.into(),
            qualifier: qualifier.into_bytes(),
            timestamp,
            value: vec![b'v'; g.below(48) as usize],
            ttl_ms: (g.below(10) == 0).then_some(20_000),
        },
    }
}

#[test]
fn flushes_and_compactions_write_the_same_bytes() -> TestResult {
    let clock = Clock::at(1_000);
    let mut e = clock.engine();
    let mut desc = TableDescriptor::new("t", families());
    desc.settings.flush_bytes = 8 * 1024;
    desc.settings.compaction_threshold = 3;
    desc.settings.split_bytes = 0;
    e.create_table(desc, vec![])?;
    let mut g = Gen::new(24);
    for _ in 0..6_000 {
        let row = format!("row-{:04}", g.below(500));
        let muts: Vec<Mutation> = (0..1 + g.below(3)).map(|_| mutation(&mut g)).collect();
        e.mutate("t", row.as_bytes(), &muts)?;
        clock.advance(10);
    }
    let c = e.counters();
    assert_eq!((c.flushes, c.compactions), (113, 62));
    assert_eq!(digest(&e)?, (9, 352_615, 99_810_202));
    assert_eq!(counted_rows_agree(&e)?, 3_056);
    e.flush("t")?;
    assert_eq!(digest(&e)?, (12, 358_419, 272_248_930));
    assert_eq!(counted_rows_agree(&e)?, 3_158);
    clock.advance(5_000);
    e.compact("t", false)?;
    assert_eq!(digest(&e)?, (3, 274_247, 3_669_653_226));
    assert_eq!(counted_rows_agree(&e)?, 1_498);
    clock.advance(5_000);
    e.compact("t", true)?;
    assert_eq!(digest(&e)?, (3, 239_629, 690_402_305));
    assert_eq!(counted_rows_agree(&e)?, 1_426);
    Ok(())
}
