//! Sample sizes: a design that scales loads more at each larger size, the same at every load of
//! one size, and at the default size every table splits into several regions unless its
//! lesson needs no regions (each exception below says why). Load times are printed, never
//! asserted: run with `-- --nocapture` to see them.
mod common;
use common::*;
use rowkey::designs::{catalogue, catalogue_at, Size};

/// Tables that stay in one region at the default size, and why that is right for each.
const ONE_REGION: &[(&str, &str)] = &[
    ("pr_one", "person-role: the document's five persons and three roles; the lesson is rows written per rename"),
    ("pr_person", "person-role: the document's example; the lesson is one get per direction"),
    ("pr_role", "person-role: the document's example; the lesson is one get per direction"),
    ("pr3_person", "person-role: the document's example; the lesson is the scan of every link"),
    ("pr3_role", "person-role: the document's example; the lesson is a get per role"),
    ("pr3_link", "person-role: seven links are enough to scan them all for two"),
    ("org_dept", "the document's eight departments; the lesson is rows written per change"),
    ("blog_edges", "six posts at the edges of December; the lesson is which bound keeps which millisecond"),
    ("sg_fam1", "created empty: the pattern writes the records, and the lesson is flushes, not regions"),
    ("sg_fam4", "created empty: the pattern writes the records, and the lesson is flushes, not regions"),
    ("sg_fam4_skewed", "created empty: the pattern writes the records, and the lesson is flushes, not regions"),
    ("sg_longnames", "the lesson is bytes per record, the same in any region"),
    ("sg_shortnames", "the lesson is bytes per record, the same in any region"),
    ("sg_widerow", "one wide row: a row never splits, which is the lesson"),
    ("sg_memusage_one", "one hot row: a row never splits, which is the lesson"),
    ("sg_entity_one", "one large entity in one row: a row never splits, which is the lesson"),
    ("wb_fan_inbox", "created empty: the posts of the patterns fill it; the lesson is rows written per post"),
    ("sg_domain_plain", "the plain-domain anti-pattern: a site's rows are filtered out of a full scan, in one region or many"),
    ("cs_location", "the document's hierarchy: ancestors and descendants are one get each at any size"),
    ("cs_student", "the document's three students: each question is one get and an enrolment two rows"),
    ("cs_course", "the document's three courses: each question is one get and an enrolment two rows"),
    ("cs_user", "the document's six users: a friend list is one get, a walk a get per user"),
    ("fl_user", "the document's five users; the lesson is two rows per follow, not atomic"),
    ("fl_at_follows", "two follows; the lesson is a write cut short between two rows"),
    ("fl_at_fans", "two follows; the lesson is a write cut short between two rows"),
    ("fu_user", "seven users whose ids share a prefix; the lesson is the lookups and deletes of one unfollow"),
    ("fu_follows", "seven users whose ids share a prefix; the lesson is the rows a prefix of 100 reads"),
    ("fu_fans", "seven users whose ids share a prefix; the lesson is the rows a prefix of 100 reads"),
];

#[test]
fn at_the_default_size_only_the_listed_tables_stay_in_one_region() -> Result<(), String> {
    let mut one_region = Vec::new();
    for design in catalogue() {
        let (mut sh, _) = shell_at(1_700_000_000_000);
        let start = std::time::Instant::now();
        if let Some(e) = sh
            .run(&design.setup_script())
            .into_iter()
            .find_map(|o| o.error)
        {
            return Err(format!("{}: {}", design.id, e.message));
        }
        let took = start.elapsed();
        let mut tables = Vec::new();
        for t in design.tables {
            let table = sh.engine.table(t).map_err(|e| e.to_string())?;
            tables.push(format!(
                "{t} {} rows / {} regions",
                table.keys.row_count(),
                table.regions.len()
            ));
            if table.regions.len() == 1 {
                one_region.push(*t);
            }
        }
        println!(
            "{:<28} loads in {:>4} ms: {}",
            design.id,
            took.as_millis(),
            tables.join(", ")
        );
    }
    let listed: Vec<&str> = ONE_REGION.iter().map(|t| t.0).collect();
    let unexplained: Vec<&&str> = one_region.iter().filter(|t| !listed.contains(t)).collect();
    let split: Vec<&&str> = listed.iter().filter(|t| !one_region.contains(t)).collect();
    assert!(
        unexplained.is_empty(),
        "in one region without a reason: {unexplained:?}"
    );
    assert!(
        split.is_empty(),
        "listed as one region but split: {split:?}"
    );
    Ok(())
}

#[test]
fn a_design_that_scales_loads_more_at_each_size_and_the_same_at_every_load() {
    let at = |size| catalogue_at(size);
    let (small, medium, large) = (at(Size::Small), at(Size::Medium), at(Size::Large));
    for ((s, m), l) in small.iter().zip(&medium).zip(&large) {
        let lines = |d: &rowkey::designs::Design| d.setup_script().lines().count();
        if m.scales {
            assert!(
                lines(s) < lines(m) && lines(m) < lines(l),
                "{}: {} {} {}",
                m.id,
                lines(s),
                lines(m),
                lines(l)
            );
        } else {
            assert_eq!(s.setup_script(), l.setup_script(), "{}", m.id);
        }
        assert_eq!(
            m.setup_script(),
            m.setup_script(),
            "{}: one size, one sample",
            m.id
        );
    }
}
