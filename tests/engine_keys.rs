//! The key index: the rows with stored cells, kept current by writes, deletes, flushes,
//! compactions and splits, agrees with a recount of the stores after every step.
mod common;
use common::*;
use rowkey::engine::{Engine, KeyEntry, KeyIndex, Mutation};

/// The index as the engine keeps it, and as a recount from the stores says it should be.
fn index_and_recount(e: &Engine) -> Result<(Vec<KeyEntry>, Vec<KeyEntry>), rowkey::engine::Error> {
    let t = e.table("t")?;
    let kept: Vec<KeyEntry> = t.keys.iter().cloned().collect();
    let recount: Vec<KeyEntry> = t.regions.iter().flat_map(|r| r.rows()).collect();
    Ok((kept, recount))
}

fn delete_row() -> Mutation {
    Mutation::DeleteRow { timestamp: None }
}

#[test]
fn writes_flushes_compactions_and_splits_keep_the_index_current() -> TestResult {
    let (mut e, clock) = engine_with(&[("f", 2), ("g", 1)])?;
    for i in 0..3000u32 {
        clock.advance(1);
        let row = format!("row{:05}", (i * 7919) % 2000);
        e.mutate("t", row.as_bytes(), &[put("f", "q", None, "value")])?;
        if i % 5 == 0 {
            e.mutate("t", row.as_bytes(), &[put("g", "q", None, "v")])?;
        }
        if i % 500 == 0 {
            let (kept, recount) = index_and_recount(&e)?;
            assert_eq!(kept, recount, "after write {i}");
        }
    }
    assert!(e.counters().flushes > 0 && e.counters().splits > 0 && e.counters().compactions > 0);
    assert_eq!(e.table("t")?.keys.row_count(), 2000);
    // Deleted rows keep their markers until a major compaction.
    for i in 0..100u32 {
        e.mutate("t", format!("row{i:05}").as_bytes(), &[delete_row()])?;
    }
    e.flush("t")?;
    let (kept, recount) = index_and_recount(&e)?;
    assert_eq!(kept, recount, "after deletes and flush");
    assert_eq!(e.table("t")?.keys.row_count(), 2000);
    e.compact("t", true)?;
    let (kept, recount) = index_and_recount(&e)?;
    assert_eq!(kept, recount, "after major compaction");
    assert_eq!(
        e.table("t")?.keys.row_count(),
        1900,
        "deleted rows are gone"
    );
    let first = e.table("t")?.keys.get(0).map(|k| k.key.to_vec());
    assert_eq!(first, Some(b"row00100".to_vec()));
    // Versions above VERSIONS go at the major compaction: two of f and one of g per row at most.
    let widest = e.table("t")?.keys.widest(1).first().map(|k| k.cells);
    assert_eq!(widest, Some(3));
    e.split("t", Some(b"row01000"))?;
    let (kept, recount) = index_and_recount(&e)?;
    assert_eq!(kept, recount, "after a split");
    Ok(())
}

#[test]
fn truncate_and_family_removal_recount() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1), ("g", 1)])?;
    for i in 0..50u32 {
        e.mutate(
            "t",
            format!("a{i:03}").as_bytes(),
            &[put("f", "q", None, "x")],
        )?;
        e.mutate(
            "t",
            format!("b{i:03}").as_bytes(),
            &[put("g", "q", None, "x")],
        )?;
    }
    assert_eq!(e.table("t")?.keys.row_count(), 100);
    e.delete_family("t", "g")?;
    assert_eq!(e.table("t")?.keys.row_count(), 50);
    assert_eq!(e.table("t")?.keys.prefix_range(b"b").len(), 0);
    e.disable("t")?;
    e.truncate("t", false)?;
    assert_eq!(e.table("t")?.keys.row_count(), 0);
    Ok(())
}

#[test]
fn a_restored_engine_has_the_same_index() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    for i in 0..1500u32 {
        e.mutate(
            "t",
            format!("k{i:05}").as_bytes(),
            &[put("f", "q", None, "some value")],
        )?;
    }
    let runs = e
        .all_runs()
        .map(|r| (r.id, r.clone()))
        .collect::<std::collections::HashMap<_, _>>();
    let memstore = e.memstore_cells();
    let (mut restored, problems) = Engine::restore(Box::new(|| 2_000_000), e.catalog(), &runs);
    assert!(problems.is_empty(), "{problems:?}");
    for (table, cells) in memstore {
        restored.replay(&table, cells);
    }
    let a: Vec<KeyEntry> = e.table("t")?.keys.iter().cloned().collect();
    let b: Vec<KeyEntry> = restored.table("t")?.keys.iter().cloned().collect();
    assert_eq!(a.len(), 1500);
    assert_eq!(a, b);
    Ok(())
}

/// The recount reads only a cell's row and size (`Run::for_each_row_size`); it agrees with the
/// rows and sizes of the cells read whole, in every block encoding, across runs, versions,
/// delete markers and the memstore.
#[test]
fn the_recount_agrees_with_the_cells_in_every_encoding() -> TestResult {
    use rowkey::engine::{Encoding, FamilyDescriptor, TableDescriptor};
    use std::collections::BTreeMap;
    for (name, encoding) in [
        ("NONE", Encoding::None),
        ("PREFIX", Encoding::Prefix),
        ("FAST_DIFF", Encoding::FastDiff),
    ] {
        let clock = Clock::at(1_000_000);
        let mut e = clock.engine();
        let mut f = FamilyDescriptor::new("f");
        f.max_versions = 3;
        f.data_block_encoding = name.into();
        e.create_table(TableDescriptor::new("t", vec![f]), vec![b"r0350".to_vec()])?;
        for i in 0..3000u32 {
            clock.advance(1);
            let row = format!("r{:04}", (i * 7919) % 700);
            let value = "v".repeat((i % 37) as usize);
            e.mutate(
                "t",
                row.as_bytes(),
                &[put("f", &format!("q{}", i % 3), None, &value)],
            )?;
            if i % 11 == 0 {
                e.mutate("t", row.as_bytes(), &[delete_row()])?;
            }
            if i % 700 == 0 {
                e.flush("t")?;
            }
        }
        let t = e.table("t")?;
        let mut runs = 0;
        for region in &t.regions {
            let mut want: BTreeMap<Vec<u8>, (u32, u64)> = BTreeMap::new();
            for store in &region.stores {
                let cells = store.memstore_cells().map(|c| c.to_cell(&store.family));
                let in_runs = store.runs.iter().flat_map(|r| r.cells());
                for c in cells.chain(in_runs) {
                    let entry = want.entry(c.row.clone()).or_default();
                    entry.0 += 1;
                    entry.1 += c.size() as u64;
                }
                for run in &store.runs {
                    assert_eq!(run.file().header().options.encoding, encoding);
                    runs += 1;
                }
            }
            let got: Vec<(Vec<u8>, u32, u64)> = region
                .rows()
                .into_iter()
                .map(|k| (k.key.to_vec(), k.cells, k.bytes))
                .collect();
            let want: Vec<(Vec<u8>, u32, u64)> =
                want.into_iter().map(|(k, (c, b))| (k, c, b)).collect();
            assert_eq!(got, want, "{name}, region {}", region.id);
        }
        assert!(runs >= 4, "{name}: {runs} runs");
        assert_eq!(t.keys.row_count(), 700, "{name}");
    }
    Ok(())
}

/// The pixel a key falls on as the keyspace strip places one key at a time.
fn pixel_of(index: &KeyIndex, key: &[u8], pixels: usize) -> usize {
    (index.row_position(key).index * pixels / index.row_count().max(1)).min(pixels - 1)
}

/// The strip's pixels found a stretch at a time are those its keys fall on one by one: rows
/// fewer and more than the pixels, keys that are rows and keys between, before and after them,
/// an empty index.
#[test]
fn the_pixels_holding_a_reads_keys_are_those_each_key_falls_on() {
    let mut g = rowkey::kit::seeded::Gen::new(0x2545_F491_4F6C_DD1D);
    let mut cases = 0;
    for rows in [0u64, 1, 3, 439, 440, 441, 2_000, 20_000] {
        let index = KeyIndex::from_sorted((0..rows).map(|r| KeyEntry {
            key: format!("row{:06}", r * 2).into_bytes().into_boxed_slice(),
            cells: 1,
            bytes: 10,
        }));
        for pixels in [1usize, 7, 440] {
            for picked in [0u64, 1, 5, 500, 5_000] {
                // Rows (even numbers) and keys between them (odd), before the first and
                // after the last.
                let mut keys: Vec<Vec<u8>> = (0..picked)
                    .map(|_| format!("row{:06}", g.below(rows * 2 + 4)).into_bytes())
                    .collect();
                keys.push(b"a".to_vec());
                keys.push(b"z".to_vec());
                keys.sort();
                keys.dedup();
                let mut one_by_one = vec![false; pixels];
                for k in &keys {
                    one_by_one[pixel_of(&index, k, pixels)] = true;
                }
                let held = index.pixels_holding(pixels, keys.len(), |j| &keys[j]);
                assert_eq!(
                    held, one_by_one,
                    "{rows} rows, {pixels} pixels, {picked} keys"
                );
                cases += 1;
            }
        }
    }
    assert_eq!(cases, 120);
}
