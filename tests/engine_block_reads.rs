//! Sorted runs as block files inside the engine: what a get or scan reads, in HBase's words
//! (blocks read, blocks skipped by the index, runs skipped by bloom filter or key range); the
//! family's BLOCKSIZE, DATA_BLOCK_ENCODING and BLOOMFILTER taking effect at the next flush or
//! compaction; and a database saved before runs were block files loading.
mod common;
use common::*;

use rowkey::engine::{BloomType, Encoding, Engine, FamilyDescriptor, Scan, TableDescriptor};
use rowkey::persist::{encode_placed_run_v2, load, RunPlace, Saver, StoredRecords};

/// Table `t`, one family `f` with the given bloom, flushed by hand only: four runs, each
/// holding every fourth group of rows, so any one row is in one run.
fn four_runs(bloom: &str) -> Result<Engine, Box<dyn std::error::Error>> {
    let mut f = FamilyDescriptor::new("f");
    f.bloomfilter = bloom.into();
    let mut e = hand_flushed(f, vec![])?;
    for run in 0..4 {
        for i in 0..300 {
            let row = format!("row{:05}", i * 4 + run);
            e.mutate(
                "t",
                row.as_bytes(),
                &[
                    put("f", "a", None, "value a"),
                    put("f", "b", None, "value b"),
                ],
            )?;
        }
        e.flush("t")?;
    }
    Ok(e)
}

fn store_runs(e: &Engine) -> Result<usize, Box<dyn std::error::Error>> {
    Ok(e.table("t")?.regions[0].stores[0].runs.len())
}

/// A get on a `ROW` bloom table reads one block: the three runs that do not hold the row are
/// ruled out by their blooms (the key ranges all overlap) without reading a block.
#[test]
fn a_get_on_a_row_bloom_table_reads_one_block() -> TestResult {
    let mut e = four_runs("ROW")?;
    assert_eq!(store_runs(&e)?, 4);
    let blocks: usize = e.table("t")?.regions[0].stores[0]
        .runs
        .iter()
        .map(|r| r.file().block_count())
        .sum();
    assert!(blocks > 40, "each run holds many blocks: {blocks}");
    let mut one_block = 0;
    for i in [5usize, 123, 600, 1_111] {
        let row = format!("row{i:05}");
        let out = e.scan("t", &mut Scan::get(row.as_bytes()))?;
        assert_eq!(out.rows.len(), 1);
        assert_eq!(out.rows[0].cells.len(), 2);
        // A false positive (1%) would read a block of another run; allow none here.
        assert_eq!(
            out.stats.runs_skipped_bloom + out.stats.runs_skipped_range,
            3,
            "{row}: {:?}",
            out.stats
        );
        assert_eq!(out.stats.runs_touched, 1);
        one_block += usize::from(out.stats.blocks_read == 1);
        assert!(out.stats.blocks_skipped > 0 || i < 20, "{:?}", out.stats);
    }
    assert!(
        one_block >= 3,
        "a row sits in one block (rarely across two)"
    );
    // A row no run holds: no block read at all (barring a 1% false positive).
    let out = e.scan("t", &mut Scan::get(b"row00002x"))?;
    assert!(out.rows.is_empty());
    assert!(out.stats.blocks_read <= 1, "{:?}", out.stats);
    Ok(())
}

/// Without a bloom a get reads a block of every run whose key range holds the row.
#[test]
fn without_a_bloom_a_get_reads_every_run() -> TestResult {
    let mut e = four_runs("NONE")?;
    let out = e.scan("t", &mut Scan::get(b"row00123"))?;
    assert_eq!(out.rows.len(), 1);
    assert_eq!(out.stats.runs_skipped_bloom, 0);
    assert!(out.stats.blocks_read >= 4, "{:?}", out.stats);
    Ok(())
}

/// A scan with a filter reads every block: filters run on cells, after the blocks are read.
#[test]
fn a_filtered_scan_still_reads_every_block() -> TestResult {
    let (mut sh, _) = shell_at(1_000_000);
    run(&mut sh, "create 't', {NAME => 'f', BLOCKSIZE => 1024}");
    for i in 0..400 {
        run(
            &mut sh,
            &format!("put 't', 'row{i:04}', 'f:q', 'value {i}'"),
        );
    }
    run(&mut sh, "flush 't'");
    let blocks: usize = sh
        .engine
        .table("t")?
        .regions
        .iter()
        .flat_map(|r| &r.stores[0].runs)
        .map(|r| r.file().block_count())
        .sum();
    let mut scan = Scan {
        filter: Some(rowkey::filter::parse_filter(
            "ValueFilter(=, 'binary:value 7')",
        )?),
        ..Scan::default()
    };
    let out = sh.engine.read("t", &mut scan)?;
    assert_eq!(out.rows.len(), 1);
    assert_eq!(out.stats.blocks_read as usize, blocks);
    assert!(out.stats.block_bytes_read > 0);
    // A scan of a key range seeks past the blocks before it.
    let mut range = Scan {
        start_row: b"row0300".to_vec(),
        stop_row: b"row0310".to_vec(),
        ..Scan::default()
    };
    let out = sh.engine.read("t", &mut range)?;
    assert_eq!(out.rows.len(), 10);
    assert!(out.stats.blocks_read < 4, "{:?}", out.stats);
    assert!(
        out.stats.blocks_skipped + out.stats.runs_skipped_range > 0,
        "{:?}",
        out.stats
    );
    Ok(())
}

/// `alter` changes how the next flush and compaction write; runs already written keep their
/// format until a compaction rewrites them.
#[test]
fn alter_changes_the_format_of_the_next_flush_and_compaction() -> TestResult {
    let (mut sh, _) = shell_at(1_000_000);
    run(&mut sh, "create 't', 'f'");
    run(&mut sh, "put 't', 'r1', 'f:a', 'one'");
    run(&mut sh, "flush 't'");
    let out = run(
        &mut sh,
        "alter 't', {NAME => 'f', DATA_BLOCK_ENCODING => 'FAST_DIFF', BLOOMFILTER => 'ROWCOL', BLOCKSIZE => 4096}",
    );
    assert!(!out.contains("ERROR"), "{out}");
    run(&mut sh, "put 't', 'r2', 'f:a', 'two'");
    run(&mut sh, "flush 't'");
    let formats = |sh: &rowkey::shell::Shell| -> Vec<(Encoding, BloomType, u64)> {
        sh.engine
            .table("t")
            .map(|t| {
                t.regions[0].stores[0]
                    .runs
                    .iter()
                    .map(|r| {
                        let o = r.file().header().options;
                        (o.encoding, o.bloom, o.block_size)
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    // Newest first.
    assert_eq!(
        formats(&sh),
        vec![
            (Encoding::FastDiff, BloomType::RowCol, 4096),
            (Encoding::None, BloomType::Row, 1024)
        ]
    );
    run(&mut sh, "major_compact 't'");
    assert_eq!(
        formats(&sh),
        vec![(Encoding::FastDiff, BloomType::RowCol, 4096)]
    );
    let out = run(&mut sh, "get 't', 'r1'");
    assert!(out.contains("value=one"), "{out}");
    let out = run(&mut sh, "describe 't'");
    assert!(
        out.contains("DATA_BLOCK_ENCODING => 'FAST_DIFF'")
            && out.contains("BLOOMFILTER => 'ROWCOL'")
            && out.contains("BLOCKSIZE => '4096 B (4KB)'"),
        "{out}"
    );
    Ok(())
}

/// The options HBase rejects are rejected with HBase's messages, and nothing changes.
#[test]
fn block_options_hbase_rejects_are_rejected() -> TestResult {
    let (mut sh, _) = shell_at(1_000_000);
    let out = run(&mut sh, "create 't', {NAME => 'f', BLOOMFILTER => 'ROWS'}");
    assert!(
        out.contains("No enum constant org.apache.hadoop.hbase.regionserver.BloomType.ROWS"),
        "{out}"
    );
    let out = run(
        &mut sh,
        "create 't', {NAME => 'f', DATA_BLOCK_ENCODING => 'SNAPPY'}",
    );
    assert!(
        out.contains(
            "No enum constant org.apache.hadoop.hbase.io.encoding.DataBlockEncoding.SNAPPY"
        ),
        "{out}"
    );
    let out = run(&mut sh, "create 't', {NAME => 'f', BLOCKSIZE => 100}");
    assert!(
        out.contains("Block size for column family f  must be between 1K and 16MB."),
        "{out}"
    );
    assert!(!sh.engine.exists("t"));
    run(&mut sh, "create 't', 'f'");
    let out = run(&mut sh, "alter 't', {NAME => 'f', BLOCKSIZE => 33554432}");
    assert!(out.contains("must be between 1K and 16MB"), "{out}");
    // The refused change leaves HBase's default, which `describe` shows as HBase does.
    let out = run(&mut sh, "describe 't'");
    assert!(out.contains("BLOCKSIZE => '65536 B (64KB)'"), "{out}");
    assert_eq!(
        sh.engine.table("t")?.descriptor.families[0].working_blocksize(),
        1024
    );
    Ok(())
}

/// A database whose runs were saved in the record layout before block files (version 2 run
/// records) loads with every cell, and the next checkpoint writes those runs as block files.
#[test]
fn a_database_saved_before_block_files_loads() -> TestResult {
    let (mut sh, _) = shell_at(1_700_000_000_000);
    sh.engine.record_changes(true);
    run(&mut sh, "create 't', {NAME => 'f', VERSIONS => 3}, 'g'");
    for i in 0..600 {
        run(
            &mut sh,
            &format!("put 't', 'row{:04}', 'f:q', 'value {i}'", (i * 37) % 500),
        );
    }
    run(&mut sh, "deleteall 't', 'row0037'");
    run(&mut sh, "flush 't'");
    run(&mut sh, "put 't', 'late', 'g:x', 'in the memstore'");
    let mut saver = Saver::new();
    let plan = saver.checkpoint(&mut sh.engine)?;
    let mut stored = StoredRecords::default();
    stored.apply(&plan);
    assert!(!stored.runs.is_empty());
    // Rewrite every run record as the earlier layout wrote it.
    let runs: Vec<(u64, RunPlace, rowkey::engine::Run)> = sh
        .engine
        .tables()
        .flat_map(|t| {
            let name = t.descriptor.name.clone();
            t.regions.iter().flat_map(move |r| {
                let name = name.clone();
                r.stores.iter().flat_map(move |s| {
                    let name = name.clone();
                    s.runs.iter().map(move |run| {
                        (
                            run.id,
                            RunPlace {
                                table: name.clone(),
                                family: s.family.to_vec(),
                                start: r.start.clone(),
                                end: r.end.clone(),
                            },
                            rowkey::engine::Run::new(run.id, run.cells()),
                        )
                    })
                })
            })
        })
        .collect();
    for (id, place, run) in &runs {
        let old = encode_placed_run_v2(run, place);
        assert_eq!(&old[..4], b"RKEY");
        stored.runs.insert(*id, old);
    }
    let before = visible(&mut sh.engine)?;
    let loaded = load(Box::new(|| 1_700_000_000_000), stored.clone());
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    let mut engine = loaded.engine;
    assert_eq!(visible(&mut engine)?, before);
    // The next checkpoint stores the migrated runs as block files.
    let mut saver = loaded.saver;
    let plan = saver.plan(&mut engine)?;
    let rewritten: Vec<u64> = plan.put_runs.iter().map(|r| r.0).collect();
    for (id, _, _) in &runs {
        assert!(rewritten.contains(id), "run {id} was not written again");
    }
    assert!(plan.put_runs.iter().all(|(_, b)| &b[..4] == b"RKHF"));
    stored.apply(&plan);
    let again = load(Box::new(|| 1_700_000_000_000), stored);
    assert!(again.problems.is_empty(), "{:?}", again.problems);
    let mut engine = again.engine;
    assert_eq!(visible(&mut engine)?, before);
    Ok(())
}

/// A flipped byte in one data block of a stored run costs that block: the load reports it and
/// every other cell loads.
#[test]
fn a_damaged_block_in_a_stored_run_costs_that_block_only() -> TestResult {
    let (mut sh, _) = shell_at(1_700_000_000_000);
    sh.engine.record_changes(true);
    run(&mut sh, "create 't', {NAME => 'f', BLOCKSIZE => 1024}");
    for i in 0..300 {
        run(
            &mut sh,
            &format!("put 't', 'row{i:04}', 'f:q', 'value {i}'"),
        );
    }
    run(&mut sh, "flush 't'");
    let mut saver = Saver::new();
    let plan = saver.checkpoint(&mut sh.engine)?;
    let mut stored = StoredRecords::default();
    stored.apply(&plan);
    let before = visible(&mut sh.engine)?.len();
    let (id, bytes) = stored
        .runs
        .iter_mut()
        .max_by_key(|(_, b)| b.len())
        .ok_or("no run stored")?;
    let id = *id;
    // A byte in the middle of the data blocks.
    let at = bytes.len() / 2;
    bytes[at] ^= 0x20;
    let loaded = load(Box::new(|| 1_700_000_000_000), stored);
    assert_eq!(loaded.problems.len(), 1, "{:?}", loaded.problems);
    assert!(
        loaded.problems[0].contains(&format!("sorted run {id}"))
            && loaded.problems[0].contains("damaged"),
        "{:?}",
        loaded.problems
    );
    let mut engine = loaded.engine;
    let after = visible(&mut engine)?.len();
    assert!(after < before && after > before - 40, "{after} of {before}");
    Ok(())
}

/// Every visible cell of table `t`, as text.
fn visible(e: &mut Engine) -> Result<Vec<String>, rowkey::engine::Error> {
    let mut all = Scan {
        max_versions: u32::MAX,
        ..Scan::default()
    };
    Ok(e.read("t", &mut all)?
        .rows
        .into_iter()
        .flat_map(|r| r.cells)
        .map(|c| {
            format!(
                "{:?} {:?}:{:?} {} {:?}",
                c.row, c.family, c.qualifier, c.timestamp, c.value
            )
        })
        .collect())
}

/// Rows of 0 to 12 cells (row i holds i % 13) at even numbers, major-compacted into one run
/// of 1 KB blocks written with `encoding`: blocks holding from part of one row to more rows
/// than a block's row index lists (eight).
fn rows_of_many_sizes(encoding: &str) -> Result<Engine, Box<dyn std::error::Error>> {
    let clock = Clock::at(1_000_000);
    let mut e = clock.engine();
    let mut f = FamilyDescriptor::new("f");
    f.data_block_encoding = encoding.into();
    e.create_table(TableDescriptor::new("t", vec![f]), vec![])?;
    for i in 0..400u32 {
        let puts: Vec<_> = (0..i % 13)
            .map(|c| put("f", &format!("q{c:02}"), None, &format!("v{i}-{c}")))
            .collect();
        if !puts.is_empty() {
            e.mutate("t", format!("r{:04}", i * 2).as_bytes(), &puts)?;
        }
    }
    e.flush("t")?;
    e.compact("t", true)?;
    Ok(e)
}

/// A get finds its row through the block's row index (`RowIndexSeekerV1.seekToKeyInBlock`'s
/// binary search over the rows' offsets, built in memory the first time a get seeks in the
/// block): every row's cells, the first time and again once the index is built, the same as a
/// full scan gives; a row between two stored rows, before the first or after the last, none.
/// Delta-encoded blocks, which have no index, answer the same.
#[test]
fn gets_through_a_blocks_row_index_find_every_row() -> TestResult {
    for encoding in ["NONE", "PREFIX", "FAST_DIFF"] {
        let e = rows_of_many_sizes(encoding)?;
        let runs = &e.table("t")?.regions[0].stores[0].runs;
        assert_eq!(runs.len(), 1, "{encoding}");
        assert!(runs[0].file().block_count() > 5, "{encoding}");
        let all = e.read("t", &mut Scan::default())?;
        // 30 whole cycles of 0..13 cells (78 each) and then 0..10 (45).
        let cells: usize = all.rows.iter().map(|r| r.cells.len()).sum();
        assert_eq!(cells, 30 * 78 + 45, "{encoding}");
        for round in 0..2 {
            for row in &all.rows {
                let got = e.read("t", &mut Scan::get(row.row()))?;
                assert_eq!(got.rows, vec![row.clone()], "{encoding}, round {round}");
            }
            for i in 0..400u32 {
                let absent = format!("r{:04}", i * 2 + 1);
                let got = e.read("t", &mut Scan::get(absent.as_bytes()))?;
                assert!(got.rows.is_empty(), "{encoding}: {absent}");
            }
            // Before the first row, row 0 (no cells), past the last row.
            for absent in ["a", "r", "r0000", "r9999", "s"] {
                let got = e.read("t", &mut Scan::get(absent.as_bytes()))?;
                assert!(got.rows.is_empty(), "{encoding}: {absent}");
            }
        }
        // A scan from each row (its start sought the same way) starts there.
        for row in all.rows.iter().step_by(7) {
            let got = e.read(
                "t",
                &mut Scan {
                    start_row: row.row().to_vec(),
                    limit: Some(2),
                    ..Scan::default()
                },
            )?;
            assert_eq!(got.rows.first(), Some(row), "{encoding}");
        }
    }
    Ok(())
}

/// A reversed scan reads whole rows backwards from any start row, over runs written in every
/// encoding and two shapes of 1 KB blocks: about three rows of long values, and twenty-odd
/// one-cell rows (more rows than a block's row index lists). Three runs share the rows, so a
/// scan merges them. Each scan's rows are the full forward scan's, reversed, from the start
/// row down, as many as its limit, each cell examined once; the same with a stop row.
#[test]
fn reversed_scans_read_whole_rows_backwards_from_any_start() -> TestResult {
    for encoding in ["NONE", "PREFIX", "FAST_DIFF"] {
        for (columns, pad) in [(3usize, 80usize), (1, 0)] {
            let blocksize = 1024;
            let mut f = FamilyDescriptor::new("f");
            f.data_block_encoding = encoding.into();
            f.blocksize = blocksize;
            let mut e = hand_flushed(f, vec![])?;
            for run in 0..3 {
                for i in 0..120 {
                    // Rows of one to `columns` cells, each row in one run.
                    let n = if columns == 1 {
                        1
                    } else {
                        1 + (i * 7 + run) % columns
                    };
                    let cells: Vec<_> = (0..n)
                        .map(|c| {
                            let value = format!("v{run}-{i}-{c}-{}", "x".repeat(pad));
                            put("f", &format!("q{c}"), None, &value)
                        })
                        .collect();
                    e.mutate("t", format!("row{:04}", i * 3 + run).as_bytes(), &cells)?;
                }
                e.flush("t")?;
            }
            let all: Vec<Vec<u8>> = e
                .read("t", &mut Scan::default())?
                .rows
                .iter()
                .map(|r| r.row().to_vec())
                .collect();
            assert_eq!(all.len(), 360);
            let cells_of = |rows: &[rowkey::engine::Row]| -> Vec<String> {
                rows.iter()
                    .flat_map(|r| {
                        r.cells
                            .iter()
                            .map(|c| String::from_utf8_lossy(c.value).into_owned())
                    })
                    .collect()
            };
            let forward = e.read("t", &mut Scan::default())?;
            for start in (0..360).step_by(7) {
                for limit in [1usize, 4, 13] {
                    let mut scan = Scan {
                        reversed: true,
                        start_row: all[start].clone(),
                        limit: Some(limit),
                        ..Scan::default()
                    };
                    let got = e.read("t", &mut scan)?;
                    let first = start.saturating_sub(limit - 1);
                    let want_rows: Vec<&[u8]> =
                        all[first..=start].iter().rev().map(Vec::as_slice).collect();
                    let got_rows: Vec<&[u8]> = got.rows.iter().map(|r| r.row()).collect();
                    assert_eq!(
                        got_rows, want_rows,
                        "{encoding} {blocksize}: from row {start}, limit {limit}"
                    );
                    // Each row's cells are the forward scan's cells of that row, in cell order.
                    let want_cells: Vec<String> = (first..=start)
                        .rev()
                        .flat_map(|i| cells_of(std::slice::from_ref(&forward.rows[i])))
                        .collect();
                    assert_eq!(
                        cells_of(&got.rows),
                        want_cells,
                        "{encoding} {blocksize}: cells from row {start}"
                    );
                    // Each cell read once: none read twice where two stretches of a block meet.
                    assert_eq!(
                        got.stats.cells_examined,
                        want_cells.len() as u64,
                        "{encoding} {blocksize}: cells examined from row {start}"
                    );
                }
                // Down to a stop row (exclusive), no limit.
                let stop = start.saturating_sub(5);
                let mut scan = Scan {
                    reversed: true,
                    start_row: all[start].clone(),
                    stop_row: all[stop].clone(),
                    ..Scan::default()
                };
                let got = e.read("t", &mut scan)?;
                assert_eq!(
                    got.rows.len(),
                    start - stop,
                    "{encoding} {blocksize}: from {start} to {stop}"
                );
                // The stop row costs no other block than the limit that ends at the same row:
                // both read up to the first cell past the last row returned (the row that ends
                // the scan is not read whole, nor any block below it).
                if start > stop {
                    let limited = e.read(
                        "t",
                        &mut Scan {
                            reversed: true,
                            start_row: all[start].clone(),
                            limit: Some(start - stop),
                            ..Scan::default()
                        },
                    )?;
                    assert_eq!(got.rows, limited.rows, "{encoding}: from {start} to {stop}");
                    let blocks = |s: &rowkey::engine::OpStats| (s.blocks_read, s.block_bytes_read);
                    assert_eq!(
                        blocks(&got.stats),
                        blocks(&limited.stats),
                        "{encoding} {blocksize}: blocks read from {start} to {stop}"
                    );
                }
            }
        }
    }
    Ok(())
}

/// A scan leaves out a run (or the memstore) that has nothing between its start and its stop
/// row: reversed, one whose greatest row below the start is under the stop row (the block the
/// start falls in says so by its row index); forwards, one whose first cell from the start on
/// is at or past the stop row (`StoreFileReader.passesKeyRangeFilter` leaves out a file
/// outside a scan's rows). Three runs and the memstore each hold every fourth group of five
/// rows, so a scan over one group finds it in one of them: every group's rows come back both
/// ways, with the cells, the cells examined and the blocks read of the same scan ended by a
/// limit instead.
#[test]
fn a_scan_leaves_out_the_runs_with_nothing_before_its_stop_row() -> TestResult {
    for encoding in ["NONE", "FAST_DIFF"] {
        let mut f = FamilyDescriptor::new("f");
        f.data_block_encoding = encoding.into();
        let mut e = hand_flushed(f, vec![])?;
        let group_row = |g: usize, r: usize| format!("g{g:03}-r{r}");
        for holder in 0..4 {
            for g in (holder..120).step_by(4) {
                for r in 0..5 {
                    let cells = [
                        put("f", "a", None, &format!("{g}-{r}-a")),
                        put("f", "b", None, &format!("{g}-{r}-b")),
                    ];
                    e.mutate("t", group_row(g, r).as_bytes(), &cells)?;
                }
            }
            // The fourth holder stays in the memstore.
            if holder < 3 {
                e.flush("t")?;
            }
        }
        for (g, reversed) in (0..120).flat_map(|g| [(g, true), (g, false)]) {
            let (start, stop) = if reversed {
                (format!("g{g:03}-~"), format!("g{g:03}-"))
            } else {
                (format!("g{g:03}-"), format!("g{g:03}-~"))
            };
            let scan = |limit: Option<usize>, stop: &str| Scan {
                reversed,
                start_row: start.clone().into_bytes(),
                stop_row: stop.as_bytes().to_vec(),
                limit,
                ..Scan::default()
            };
            let stopped = e.read("t", &mut scan(None, &stop))?;
            let limited = e.read("t", &mut scan(Some(5), ""))?;
            let rows: Vec<String> = stopped
                .rows
                .iter()
                .map(|r| String::from_utf8_lossy(r.row()).into_owned())
                .collect();
            let mut want: Vec<String> = (0..5).map(|r| group_row(g, r)).collect();
            if reversed {
                want.reverse();
            }
            let what = format!("{encoding}: group {g}, reversed {reversed}");
            assert_eq!(rows, want, "{what}");
            assert_eq!(stopped.rows, limited.rows, "{what}");
            let counts = |s: &rowkey::engine::OpStats| {
                (
                    s.cells_examined,
                    s.blocks_read,
                    s.block_bytes_read,
                    s.rows_examined,
                )
            };
            assert_eq!(counts(&stopped.stats), counts(&limited.stats), "{what}");
        }
    }
    Ok(())
}
