//! The gallery: every design of the catalogue loads and serves its access patterns, and the
//! designs show what they teach (rows examined against returned, where writes went).
mod common;
use common::*;
use rowkey::designs::lesson::on;
use rowkey::designs::{catalogue, find, Measure};
use rowkey::shell::Shell;

/// The ids of the design catalogue (shared/seeds/README.md).
const IDS: &[&str] = &[
    "person-role.one-table",
    "person-role.two-tables",
    "person-role.three-tables",
    "org.departments",
    "weibo.users",
    "weibo.posts",
    "weibo.inbox",
    "weibo.fanout",
    "csdn.follows",
    "csdn.blog",
    "csdn.range-boundaries",
    "schema.salting",
    "schema.hash-vs-reverse",
    "schema.family-count",
    "schema.random-salt",
    "schema.colliding-keys",
    "schema.reversed-domain",
    "schema.hashed-id",
    "schema.metric-timestamp",
    "schema.mentions",
    "schema.sequential-ids",
    "schema.frequent-updates",
    "schema.columns-as-data",
    "schema.tall-vs-wide",
    "schema.short-names",
    "schema.entity-rows",
    "schema.few-domains",
    "schema.one-to-many",
    "cases.locations",
    "cases.student-course",
    "cases.user-action",
    "cases.user-friends",
    "cases.access-log",
    "cases.secondary-index",
    "follow.single-row",
    "follow.tall",
    "follow.atomicity",
    "follow.unfollow",
    "schema.wide-row-overhead",
];

fn loaded(id: &str) -> Result<Shell, String> {
    let design = find(id).ok_or(format!("no design {id}"))?;
    let (mut sh, _) = shell_at(1_700_000_000_000);
    for o in sh.run(&design.setup_script()) {
        if let Some(e) = o.error {
            return Err(format!(
                "{id}: setup failed at {:?}: {}",
                o.input, e.message
            ));
        }
    }
    Ok(sh)
}

/// (rows examined, rows returned) of the last read of a command.
fn read(sh: &mut Shell, command: &str) -> Result<(u64, u64), String> {
    let outcomes = sh.run(command);
    if let Some(e) = outcomes.iter().find_map(|o| o.error.clone()) {
        return Err(format!("{command}: {}", e.message));
    }
    let trace = outcomes
        .iter()
        .rev()
        .find_map(|o| o.trace.clone())
        .ok_or(format!("{command} read nothing"))?;
    Ok((trace.stats.rows_examined, trace.stats.rows_returned))
}

#[test]
fn the_gallery_holds_every_catalogued_design_once() {
    let ids: Vec<&str> = catalogue().iter().map(|d| d.id).collect();
    assert_eq!(ids, IDS);
}

#[test]
fn every_design_loads_and_every_pattern_runs() -> Result<(), String> {
    for design in catalogue() {
        let mut sh = loaded(design.id)?;
        for t in design.tables {
            assert!(sh.engine.exists(t), "{}: table {t} missing", design.id);
        }
        assert!(!design.patterns.is_empty() && !design.why.is_empty());
        for p in &design.patterns {
            let outcomes = sh.run(&p.command);
            let mut reads = 0;
            let mut returned = 0;
            for o in outcomes {
                if let Some(e) = o.error {
                    return Err(format!("{} / {}: {}", design.id, p.name, e.message));
                }
                if let Some(t) = o.trace {
                    reads += 1;
                    returned += t.stats.rows_returned;
                }
            }
            // A read that finds nothing says so in its claims (a pair that does not exist).
            let finds_nothing = p.claims.contains(&on(Measure::RowsReturned).eq(0.0));
            assert!(
                reads == 0 || returned > 0 || finds_nothing,
                "{} / {} returned nothing",
                design.id,
                p.name
            );
        }
    }
    Ok(())
}

#[test]
fn reversed_domains_read_only_the_site() -> Result<(), String> {
    let d = find("schema.reversed-domain").ok_or("missing")?;
    let mut sh = loaded(d.id)?;
    assert_eq!(read(&mut sh, &d.patterns[0].command)?, (75, 75));
    assert_eq!(read(&mut sh, &d.patterns[1].command)?, (200, 75));
    Ok(())
}

#[test]
fn december_is_one_contiguous_range_of_the_blog() -> Result<(), String> {
    let d = find("csdn.blog").ok_or("missing")?;
    let mut sh = loaded(d.id)?;
    let december = (0..10_000u64)
        .filter(|j| rowkey_post_in_december(*j))
        .count() as u64;
    assert!(december > 800 && december < 900, "{december}");
    assert_eq!(read(&mut sh, &d.patterns[0].command)?, (december, december));
    assert!(
        sh.engine
            .table("blog")
            .map(|t| t.regions.len())
            .unwrap_or(0)
            > 3,
        "30,000 cells split the table"
    );
    Ok(())
}

fn rowkey_post_in_december(j: u64) -> bool {
    let start = 1_669_852_800_000; // 2022-12-01 UTC
    let end = 1_672_531_200_000; // 2023-01-01 UTC
    let year_start = 1_640_995_200_000; // 2022-01-01 UTC
    let t = year_start + (j * (end - year_start) / 10_000) / 1000 * 1000;
    t >= start && t < end
}

#[test]
fn timestamp_first_keys_read_every_metric() -> Result<(), String> {
    let d = find("schema.metric-timestamp").ok_or("missing")?;
    let mut sh = loaded(d.id)?;
    assert_eq!(read(&mut sh, &d.patterns[0].command)?, (30, 30));
    assert_eq!(read(&mut sh, &d.patterns[1].command)?, (120, 30));
    Ok(())
}

#[test]
fn sequential_ids_hotspot_and_reversed_ids_spread() -> Result<(), String> {
    let sh = loaded("schema.sequential-ids")?;
    let seq = sh
        .engine
        .table("sg_seq")
        .map_err(|e| e.to_string())?
        .regions
        .len();
    let rev = sh
        .engine
        .table("sg_seq_rev")
        .map_err(|e| e.to_string())?
        .regions
        .len();
    assert!(seq >= 3 && rev >= 3, "both split: {seq} and {rev} regions");
    // Twenty more users of each kind: which regions take them?
    let mut sh = sh;
    let writes = |sh: &Shell, table: &str| -> Vec<(u64, u64)> {
        sh.engine
            .table(table)
            .map(|t| t.regions.iter().map(|r| (r.id, r.stats.writes)).collect())
            .unwrap_or_default()
    };
    let (seq_before, rev_before) = (writes(&sh, "sg_seq"), writes(&sh, "sg_seq_rev"));
    for id in 101_200u64..101_220 {
        let reversed: String = id.to_string().chars().rev().collect();
        run(&mut sh, &format!("put 'sg_seq', '{id}', 'u:name', 'new'\nput 'sg_seq_rev', '{reversed}', 'u:name', 'new'"));
    }
    let changed = |before: &[(u64, u64)], after: &[(u64, u64)]| {
        before
            .iter()
            .filter(|(id, w)| after.iter().find(|a| a.0 == *id).is_none_or(|a| a.1 != *w))
            .count()
    };
    assert_eq!(
        changed(&seq_before, &writes(&sh, "sg_seq")),
        1,
        "sequential ids: one region took every new write"
    );
    assert!(
        changed(&rev_before, &writes(&sh, "sg_seq_rev")) >= 3,
        "reversed ids: the new writes spread"
    );
    Ok(())
}

#[test]
fn one_hot_row_keeps_only_its_last_version() -> Result<(), String> {
    let d = find("schema.frequent-updates").ok_or("missing")?;
    let mut sh = loaded(d.id)?;
    let out = run(&mut sh, &d.patterns[0].command);
    assert!(out.ends_with("1 row(s)\n"), "{out}");
    assert_eq!(
        sh.engine
            .table("sg_memusage_one")
            .map(|t| t.regions.len())
            .unwrap_or(0),
        1,
        "a single row never splits"
    );
    let last_five = pattern_index(&d, "The last 5 readings")?;
    assert_eq!(read(&mut sh, &d.patterns[last_five].command)?, (5, 5));
    Ok(())
}

#[test]
fn the_relational_layout_scans_every_link() -> Result<(), String> {
    let d = find("person-role.three-tables").ok_or("missing")?;
    let mut sh = loaded(d.id)?;
    assert_eq!(read(&mut sh, &d.patterns[0].command)?, (7, 2));
    let two = find("person-role.two-tables").ok_or("missing")?;
    let mut sh = loaded(two.id)?;
    assert_eq!(read(&mut sh, &two.patterns[0].command)?, (1, 1));
    Ok(())
}

/// The index of the pattern whose name starts with `name`.
fn pattern_index(d: &rowkey::designs::Design, name: &str) -> Result<usize, String> {
    d.patterns
        .iter()
        .position(|p| p.name.starts_with(name))
        .ok_or(format!("{}: no pattern {name}", d.id))
}

/// Writes per region of a table, keyed by the region's start row.
fn writes_by_start(sh: &Shell, table: &str) -> Vec<(Vec<u8>, u64)> {
    sh.engine
        .table(table)
        .map(|t| {
            t.regions
                .iter()
                .map(|r| (r.start.clone(), r.stats.writes))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn decreasing_keys_under_one_prefix_all_land_in_the_first_region() -> Result<(), String> {
    let d = find("schema.frequent-updates").ok_or("missing")?;
    let mut sh = loaded(d.id)?;
    let before = writes_by_start(&sh, "sg_memusage");
    assert!(before.len() >= 2, "sg_memusage splits: {}", before.len());
    let run = d.run_pattern(
        &mut sh,
        pattern_index(&d, "Ten more readings, one row each")?,
    )?;
    assert_eq!(run.measures.rows_written, 10);
    let after = writes_by_start(&sh, "sg_memusage");
    let first_gained = after[0].1 - before[0].1;
    assert!(after[0].0.is_empty(), "the first region starts the table");
    assert_eq!(
        first_gained, 10,
        "every new reading went to the first region"
    );
    assert!(!d.why.contains("spreads over regions"), "{}", d.why);
    Ok(())
}

#[test]
fn renaming_a_role_rewrites_two_rows_per_holder_found_by_prefix() -> Result<(), String> {
    let d = find("person-role.one-table").ok_or("missing")?;
    let mut sh = loaded(d.id)?;
    let i = pattern_index(&d, "Rename role 100")?;
    assert!(d.patterns[i]
        .command
        .starts_with("scan 'pr_one', {ROWPREFIXFILTER => 'r_100_'}"));
    let run = d.run_pattern(&mut sh, i)?;
    // Role 100 has two holders (001 and 004): the prefix scan reads exactly them.
    assert_eq!(
        (run.measures.rows_scanned, run.measures.rows_returned),
        (2, 2)
    );
    assert_eq!(
        run.measures.rows_written, 4,
        "p_ and r_ copy of each holder"
    );
    let out = run_cmd(
        &mut sh,
        "scan 'pr_one', {FILTER => \"ValueFilter(=, 'binary:班长')\"}",
    );
    assert!(
        out.contains("0 row(s)"),
        "no copy keeps the old name: {out}"
    );
    Ok(())
}

fn run_cmd(sh: &mut Shell, cmd: &str) -> String {
    run(sh, cmd)
}

#[test]
fn moving_a_department_touches_three_rows_and_promoting_one_changes_its_key() -> Result<(), String>
{
    let d = find("org.departments").ok_or("missing")?;
    let mut sh = loaded(d.id)?;
    let run = d.run_pattern(&mut sh, pattern_index(&d, "Move 开发1")?)?;
    assert_eq!(run.measures.rows_written, 3);
    let run = d.run_pattern(&mut sh, pattern_index(&d, "Make 市场部 top level")?)?;
    assert_eq!(run.measures.rows_written, 5);
    assert!(run_cmd(&mut sh, "get 'org_dept', '1_005'").contains("0 row(s)"));
    let promoted = run_cmd(&mut sh, "get 'org_dept', '0_005'");
    assert!(
        promoted.contains("cf2:006") && promoted.contains("cf2:007"),
        "{promoted}"
    );
    for child in ["1_006", "1_007"] {
        let out = run_cmd(&mut sh, &format!("get 'org_dept', '{child}', 'cf1:pid'"));
        assert!(out.contains("value=0_005"), "{child}: {out}");
    }
    assert!(!run_cmd(&mut sh, "get 'org_dept', '0_001'").contains("cf2:005"));
    assert!(d.why.contains("three rows") && d.why.contains("row key"));
    Ok(())
}

#[test]
fn metric_pattern_names_say_what_they_run() -> Result<(), String> {
    let d = find("schema.metric-timestamp").ok_or("missing")?;
    for p in &d.patterns {
        assert!(
            !(p.name.contains("reverse") || p.name.contains("Newest"))
                || !p.command.starts_with("get_splits"),
            "{}: {}",
            p.name,
            p.command
        );
    }
    assert!(!d.why.contains("land in different regions"), "{}", d.why);
    let mut sh = loaded(d.id)?;
    let run = d.run_pattern(
        &mut sh,
        pattern_index(&d, "Ten more seconds, timestamp first")?,
    )?;
    assert!(run.measures.busiest_write_share > 99.0);
    Ok(())
}

#[test]
fn actions_21_to_30_are_exactly_rows_21_to_30() -> Result<(), String> {
    let d = find("cases.user-action").ok_or("missing")?;
    let mut sh = loaded(d.id)?;
    let all = sh.run("scan 'cs_action', {ROWPREFIXFILTER => 'user003'}");
    let keys = all
        .iter()
        .find_map(|o| o.trace.clone())
        .ok_or("no trace")?
        .returned;
    let run = d.run_pattern(&mut sh, pattern_index(&d, "Actions 21–30")?)?;
    let page = run
        .outcomes
        .iter()
        .find_map(|o| o.trace.clone())
        .ok_or("no trace")?
        .returned;
    assert!(page.iter().eq(keys.iter().skip(20).take(10)));
    assert_eq!(page.len(), 10);
    Ok(())
}

#[test]
fn china_and_its_provinces_lists_direct_children_only() -> Result<(), String> {
    let d = find("cases.locations").ok_or("missing")?;
    let mut sh = loaded(d.id)?;
    let out = run_cmd(
        &mut sh,
        &d.patterns[pattern_index(&d, "China and its provinces")?].command,
    );
    for p in 2..=6 {
        assert!(out.contains(&format!("child:{p}")), "province {p}: {out}");
    }
    for c in 7..=9 {
        assert!(!out.contains(&format!("child:{c}")), "city {c}: {out}");
    }
    Ok(())
}

#[test]
fn a_single_row_follow_writes_two_rows_and_is_not_atomic() -> Result<(), String> {
    let d = find("follow.single-row").ok_or("missing")?;
    assert!(d.why.contains("not atomic"), "{}", d.why);
    let mut sh = loaded(d.id)?;
    let run = d.run_pattern(&mut sh, pattern_index(&d, "1005 follows 1003")?)?;
    assert_eq!(run.measures.rows_written, 2);
    Ok(())
}

#[test]
fn new_blog_posts_go_to_the_first_region_and_the_design_says_so() -> Result<(), String> {
    let d = find("csdn.blog").ok_or("missing")?;
    assert!(d.why.contains("first region"), "{}", d.why);
    let mut sh = loaded(d.id)?;
    let before = writes_by_start(&sh, "blog");
    let run = d.run_pattern(&mut sh, pattern_index(&d, "Twenty posts of January 2023")?)?;
    assert_eq!(run.measures.rows_written, 20);
    let after = writes_by_start(&sh, "blog");
    assert!(after[0].0.is_empty());
    assert_eq!(
        after[0].1 - before[0].1,
        20,
        "the first region took every post"
    );
    Ok(())
}

#[test]
fn the_relational_designs_say_small_relational_data_does_not_belong_in_hbase() {
    for id in [
        "person-role.one-table",
        "person-role.two-tables",
        "person-role.three-tables",
        "org.departments",
    ] {
        let d = find(id);
        assert!(
            d.as_ref()
                .is_some_and(|d| d.why.contains("relational database")),
            "{id}"
        );
    }
}

#[test]
fn csdn_follow_and_fan_lists_mirror_and_no_blogger_is_their_own_fan() -> Result<(), String> {
    use std::collections::BTreeSet;
    let mut sh = loaded("csdn.follows")?;
    let outcomes = sh.run("scan 'csdn_rel'");
    if let Some(e) = outcomes.iter().find_map(|o| o.error.clone()) {
        return Err(e.message);
    }
    // (row, family, qualifier) of every cell the scan printed.
    let mut follows = BTreeSet::new();
    let mut fans = BTreeSet::new();
    for line in outcomes.iter().flat_map(|o| o.output.lines()) {
        let Some((row, rest)) = line.trim_start().split_once(" column=") else {
            continue;
        };
        let column = rest.split(',').next().unwrap_or("");
        match column.split_once(':') {
            Some(("follows", other)) => follows.insert((row.to_string(), other.to_string())),
            Some(("fans", other)) => fans.insert((other.to_string(), row.to_string())),
            _ => false,
        };
    }
    assert!(follows.len() > 100, "{} follows", follows.len());
    let own: Vec<_> = fans.iter().filter(|(a, b)| a == b).collect();
    assert!(own.is_empty(), "their own fan: {own:?}");
    let one_sided: Vec<_> = follows.symmetric_difference(&fans).collect();
    assert!(one_sided.is_empty(), "on one side only: {one_sided:?}");
    Ok(())
}
