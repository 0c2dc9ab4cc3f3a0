//! A large run is stored as a head and parts of whole blocks (`persist::run_parts`), opened
//! part by part as the parts arrive: it loads to the same run as one stored whole, a save cut
//! off between its parts leaves the state before it readable, and a damaged or missing part is
//! named.
mod common;
use common::*;
use rowkey::engine::{Engine, KeyEntry};
use rowkey::persist::{
    decode_stored_run, encode_stored_run_records, is_parts_head, load, RunPlace, SavePlan, Saver,
    StoredRecords, PART_RECORD_BYTES,
};

const NOW: u64 = 1_700_000_000_000;

fn index(e: &Engine, table: &str) -> Vec<KeyEntry> {
    e.table(table)
        .map(|t| t.keys.iter().cloned().collect())
        .unwrap_or_default()
}

/// Two regions, two families (one delta-encoded), versions, delete markers, several runs per
/// store and cells still in the memstores; saved as the app saves it (every run small enough
/// to be stored whole).
fn saved() -> Result<(rowkey::shell::Shell, StoredRecords), Box<dyn std::error::Error>> {
    saved_after(
        NOW,
        &[
            "create 't', {NAME => 'f', VERSIONS => 3}, {NAME => 'g', DATA_BLOCK_ENCODING => 'FAST_DIFF'}, SPLITS => ['r005000']",
            "generate 't', 'r%06d', 9000",
            "put 't', 'r000001', 'g:x', 'one'",
            "flush 't'",
            "delete 't', 'r000002', 'f:c0'",
            "deleteall 't', 'r006000'",
            "flush 't'",
            "put 't', 'zz', 'f:q', 'a row only the memstore holds'",
        ],
    )
}

/// The same records with every run stored in parts of `part_bytes` (a run whose blocks fit
/// one part stays whole): how many runs went into parts, and how many parts.
fn in_parts(
    stored: &StoredRecords,
    part_bytes: usize,
) -> Result<(StoredRecords, usize, usize), Box<dyn std::error::Error>> {
    let mut out = stored.clone();
    let (mut parted, mut parts) = (0, 0);
    for (id, bytes) in &stored.runs {
        let run = decode_stored_run(bytes)?;
        let place = run.place.ok_or("a run that says where it belongs")?;
        let (head, these) = encode_stored_run_records(&run.run, &place, part_bytes);
        parted += usize::from(!these.is_empty());
        parts += these.len();
        out.runs.insert(*id, head);
        for (k, part) in (1..).zip(these) {
            out.run_parts.insert((*id, k), part);
        }
    }
    Ok((out, parted, parts))
}

#[test]
fn runs_stored_in_parts_load_as_the_same_runs_stored_whole() -> TestResult {
    let (sh, stored) = saved()?;
    let (parted, parted_runs, parts) = in_parts(&stored, 2_048)?;
    assert_eq!(stored.runs.len(), 15);
    assert_eq!((parted_runs, parts), (9, 141));
    let stored_bytes = |s: &StoredRecords| -> usize {
        s.runs
            .values()
            .chain(s.run_parts.values())
            .map(Vec::len)
            .sum()
    };
    // The same bytes, but for each head's lengths and checksum (and its rows' file length).
    assert_eq!(stored_bytes(&parted) - stored_bytes(&stored), 417);
    let whole = load(Box::new(|| NOW), stored);
    let loaded = load(Box::new(|| NOW), parted);
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    assert_eq!(dump(&loaded.engine), dump(&sh.engine));
    assert_eq!(dump(&loaded.engine), dump(&whole.engine));
    assert_eq!(index(&loaded.engine, "t"), index(&whole.engine, "t"));
    // A run read back in parts is stored already: the next checkpoint writes no run.
    let mut engine = loaded.engine;
    let mut saver = loaded.saver;
    let plan = saver.checkpoint(&mut engine)?;
    assert!(plan.put_runs.is_empty() && plan.put_parts.is_empty());
    Ok(())
}

/// Table `big`: `rows` rows of one 1,000-byte value each, flushed and major-compacted into
/// one run.
fn big(e: &mut Engine, rows: usize) -> TestResult {
    let value = "v".repeat(1_000);
    for i in 0..rows {
        e.mutate(
            "big",
            format!("row{i:06}").as_bytes(),
            &[put("f", "q", None, &value)],
        )?;
    }
    e.flush("big")?;
    e.compact("big", true)?;
    Ok(())
}

/// A small table saved; then, with `big` filled and flushed, the checkpoint that stores its
/// run in parts.
fn before_and_big_checkpoint(
) -> Result<(Engine, StoredRecords, Vec<String>, SavePlan), Box<dyn std::error::Error>> {
    let (mut sh, _) = shell_at(NOW);
    sh.engine.record_changes(true);
    let mut saver = Saver::new();
    let mut stored = StoredRecords::default();
    for cmd in [
        "create 't', 'f'",
        "put 't', 'a', 'f:q', 'one'",
        "flush 't'",
        // Never split: the major compaction leaves one run.
        "create 'big', 'f', MAX_FILESIZE => 0",
    ] {
        let out = sh.run(cmd);
        if let Some(e) = out.iter().find_map(|o| o.error.clone()) {
            return Err(format!("{cmd}: {e:?}").into());
        }
        stored.apply(&saver.plan(&mut sh.engine)?);
    }
    let before = dump(&sh.engine);
    big(&mut sh.engine, 6_000)?;
    let plan = saver.plan(&mut sh.engine)?;
    Ok((sh.engine, stored, before, plan))
}

#[test]
fn a_run_over_the_part_size_is_saved_in_parts_of_whole_blocks() -> TestResult {
    let (engine, mut stored, _, plan) = before_and_big_checkpoint()?;
    assert!(plan.is_checkpoint());
    assert_eq!(plan.put_runs.len(), 1);
    let (id, head) = &plan.put_runs[0];
    assert!(is_parts_head(head));
    let lens: Vec<usize> = plan.put_parts.iter().map(|p| p.1.len()).collect();
    assert_eq!(
        plan.put_parts.iter().map(|p| p.0).collect::<Vec<_>>(),
        (1..=6).map(|k| (*id, k)).collect::<Vec<_>>()
    );
    assert!(lens[..5]
        .iter()
        .all(|&l| l >= PART_RECORD_BYTES && l < PART_RECORD_BYTES + 2_048));
    assert_eq!(
        lens,
        vec![1_049_417, 1_049_544, 1_049_544, 1_049_544, 1_049_544, 944_280]
    );
    // The head holds the file's header and index, and the rows.
    assert_eq!(head.len(), 233_807);
    stored.apply(&plan);
    let loaded = load(Box::new(|| NOW), stored);
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    assert_eq!(dump(&loaded.engine), dump(&engine));
    assert_eq!(index(&loaded.engine, "big"), index(&engine, "big"));
    Ok(())
}

/// `plan` cut off: only its parts in `parts`, and its run records when `heads`; no catalog.
fn cut(plan: &SavePlan, parts: std::ops::Range<usize>, heads: bool) -> SavePlan {
    SavePlan {
        put_runs: if heads {
            plan.put_runs.clone()
        } else {
            Vec::new()
        },
        put_parts: plan.put_parts[parts].to_vec(),
        ..SavePlan::default()
    }
}

#[test]
fn a_save_cut_off_between_parts_leaves_the_state_before_readable() -> TestResult {
    // IndexedDB commits a plan whole or not at all; were a save cut off between the parts of
    // a run anyway, the catalog before it still names what it named, and what was written of
    // the run is set aside, never loaded half.
    let (_, stored, before, plan) = before_and_big_checkpoint()?;
    let id = plan.put_runs[0].0;
    let cases = [
        (
            cut(&plan, 0..1, false),
            format!("sorted run {id}: 1 part(s) are stored without the record that heads them; kept aside"),
        ),
        (
            cut(&plan, 0..1, true),
            format!("sorted run {id} is damaged (part 2 of 6 is missing); kept aside"),
        ),
        (
            cut(&plan, 1..6, true),
            format!("sorted run {id} is damaged (part 1 of 6 is missing); kept aside"),
        ),
        (
            cut(&plan, 0..5, true),
            format!("sorted run {id} is damaged (part 6 of 6 is missing); kept aside"),
        ),
    ];
    for (partial, problem) in cases {
        let mut s = stored.clone();
        s.apply(&partial);
        let loaded = load(Box::new(|| NOW), s);
        assert_eq!(dump(&loaded.engine), before);
        assert_eq!(loaded.problems[0], problem);
        assert_eq!(
            loaded.kept_aside.iter().map(|k| k.id).collect::<Vec<_>>(),
            vec![id]
        );
        // The person can discard what was set aside: the run and its parts go.
        let mut saver = loaded.saver;
        let discard = saver.discard_kept_aside();
        assert_eq!(discard.delete_runs, vec![id]);
        let mut s = stored.clone();
        s.apply(&partial);
        s.apply(&discard);
        assert!(s.run_parts.is_empty() && !s.runs.contains_key(&id));
    }
    Ok(())
}

#[test]
fn a_damaged_part_costs_its_block_and_a_part_that_does_not_fit_sets_the_run_aside() -> TestResult {
    let (engine, mut stored, _, plan) = before_and_big_checkpoint()?;
    stored.apply(&plan);
    let id = plan.put_runs[0].0;
    let rows = |e: &Engine| e.table("big").map_or(0, |t| t.keys.row_count());
    assert_eq!(rows(&engine), 6_000);

    // A byte in the middle of the second part: one block's cells are lost, the rest loads.
    let mut damaged = stored.clone();
    if let Some(p) = damaged.run_parts.get_mut(&(id, 2)) {
        let at = p.len() / 2;
        p[at] ^= 0x5a;
    }
    let loaded = load(Box::new(|| NOW), damaged);
    assert_eq!(
        loaded.problems,
        vec![format!(
            "sorted run {id} is damaged (data block 1525 at byte 1573722 is damaged (checksum \
             mismatch)); the cells of that block are lost, the rest of the run loads"
        )]
    );
    assert_eq!(rows(&loaded.engine), 5_999);

    // A part shorter than its head says, a part beyond the head's, a damaged head.
    let mut short = stored.clone();
    if let Some(p) = short.run_parts.get_mut(&(id, 1)) {
        p.pop();
    }
    let mut beyond = stored.clone();
    beyond.run_parts.insert((id, 7), vec![0; 10]);
    let mut head = stored.clone();
    if let Some(h) = head.runs.get_mut(&id) {
        h[6] ^= 0x01;
    }
    for (s, why) in [
        (
            short,
            "part 1 holds 1049416 bytes where its head says 1049417",
        ),
        (beyond, "part 7 is stored beyond its 6 parts"),
        (head, "checksum mismatch: stored"),
    ] {
        let loaded = load(Box::new(|| NOW), s);
        assert!(
            loaded.problems[0].starts_with(&format!("sorted run {id} is damaged ({why}")),
            "{:?}",
            loaded.problems
        );
        assert_eq!(rows(&loaded.engine), 0);
    }
    Ok(())
}

fn fixture_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/saved/run-parts")
}

/// The run of the fixture: table `p`, 200 rows of three columns, flushed once.
fn fixture_run(
) -> Result<(std::sync::Arc<rowkey::engine::Run>, RunPlace), Box<dyn std::error::Error>> {
    let (mut sh, _) = shell_at(NOW);
    for cmd in [
        "create 'p', {NAME => 'f', VERSIONS => 2}",
        "generate 'p', 'k%04d', 200",
        "put 'p', 'k0007', 'f:c1', 'a second version'",
        "delete 'p', 'k0008', 'f:c0'",
        "flush 'p'",
    ] {
        let out = sh.run(cmd);
        if let Some(e) = out.iter().find_map(|o| o.error.clone()) {
            return Err(format!("{cmd}: {e:?}").into());
        }
    }
    let run = sh.engine.all_runs().last().ok_or("a run")?.clone();
    let place = RunPlace {
        table: "p".into(),
        family: b"f".to_vec(),
        start: Vec::new(),
        end: Vec::new(),
    };
    Ok((run, place))
}

#[test]
fn a_run_stored_in_parts_is_written_and_read_as_kept() -> TestResult {
    // tests/fixtures/saved/run-parts/ holds a run stored in parts of 1,024 bytes as this
    // Rowkey first wrote it (27 November 2026): a head (`head.record`) and its parts
    // (`part-K.record`).
    let (run, place) = fixture_run()?;
    let (head, parts) = encode_stored_run_records(&run, &place, 1_024);
    let dir = fixture_dir();
    if std::env::var_os("ROWKEY_WRITE_FIXTURES").is_some() {
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join("head.record"), &head)?;
        for (k, p) in (1..).zip(&parts) {
            std::fs::write(dir.join(format!("part-{k}.record")), p)?;
        }
    }
    let kept_head = std::fs::read(dir.join("head.record"))?;
    let mut kept_parts = Vec::new();
    for k in 1.. {
        match std::fs::read(dir.join(format!("part-{k}.record"))) {
            Ok(p) => kept_parts.push(p),
            Err(_) => break,
        }
    }
    assert_eq!(kept_parts.len(), 6);
    assert!(head == kept_head, "the head is written as kept");
    assert!(parts == kept_parts, "the parts are written as kept");
    // Read back beside a catalog that names it: the cells the run holds.
    let (mut sh, _) = shell_at(NOW);
    sh.engine.record_changes(true);
    sh.run("create 'p', {NAME => 'f', VERSIONS => 2}");
    let mut stored = StoredRecords::default();
    stored.apply(&Saver::new().plan(&mut sh.engine)?);
    let id = run.id;
    stored.runs.insert(id, kept_head);
    for (k, p) in (1..).zip(kept_parts) {
        stored.run_parts.insert((id, k), p);
    }
    let loaded = load(Box::new(|| NOW), stored);
    let aside = loaded
        .kept_aside
        .iter()
        .find(|k| k.id == id)
        .ok_or("the run")?;
    let back = aside.run.as_ref().ok_or("the run read")?;
    assert_eq!(back.len(), run.len());
    assert_eq!(back.cells(), run.cells());
    Ok(())
}
