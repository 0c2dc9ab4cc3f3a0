//! Many-to-many: persons and roles (design document 000).

use super::lesson::{on, scanned_is_returned, Measure};
use super::{pattern, Design, Script, Size, Verdict};

const PERSONS: &[(&str, &str, u32)] = &[
    ("001", "小黑", 18),
    ("002", "小黄", 19),
    ("003", "小白", 20),
    ("004", "小红", 21),
    ("005", "小蓝", 22),
];
const ROLES: &[(&str, &str)] = &[("100", "班长"), ("200", "小兵"), ("300", "队长")];
/// Who holds which role.
const LINKS: &[(&str, &str)] = &[
    ("001", "100"),
    ("001", "200"),
    ("002", "200"),
    ("003", "200"),
    ("003", "300"),
    ("004", "100"),
    ("005", "300"),
];

fn person(pid: &str) -> (&'static str, u32) {
    PERSONS
        .iter()
        .find(|p| p.0 == pid)
        .map(|p| (p.1, p.2))
        .unwrap_or(("?", 0))
}

fn role(rid: &str) -> &'static str {
    ROLES
        .iter()
        .find(|r| r.0 == rid)
        .map(|r| r.1)
        .unwrap_or("?")
}

fn one_table() -> String {
    let mut s = Script::default();
    s.line("create 'pr_one', 'cf'");
    for (pid, rid) in LINKS {
        let (name, age) = person(pid);
        // Both directions, each row repeating both sides' details; the type prefix tells
        // a person-first key from a role-first one.
        for row in [format!("p_{pid}_{rid}"), format!("r_{rid}_{pid}")] {
            s.put("pr_one", &row, "cf:person", name)
                .put("pr_one", &row, "cf:age", &age.to_string())
                .put("pr_one", &row, "cf:role", role(rid));
        }
    }
    s.done()
}

fn two_tables() -> String {
    let mut s = Script::default();
    s.line("create 'pr_person', 'cf1', 'cf2'")
        .line("create 'pr_role', 'cf1', 'cf2'");
    for (pid, name, age) in PERSONS {
        s.put("pr_person", pid, "cf1:name", name).put(
            "pr_person",
            pid,
            "cf1:age",
            &age.to_string(),
        );
    }
    for (rid, name) in ROLES {
        s.put("pr_role", rid, "cf1:name", name);
    }
    for (pid, rid) in LINKS {
        s.put("pr_person", pid, &format!("cf2:{rid}"), role(rid));
        s.put("pr_role", rid, &format!("cf2:{pid}"), person(pid).0);
    }
    s.done()
}

fn three_tables() -> String {
    let mut s = Script::default();
    s.line("create 'pr3_person', 'cf'")
        .line("create 'pr3_role', 'cf'")
        .line("create 'pr3_link', 'cf1', 'cf2'");
    for (pid, name, age) in PERSONS {
        s.put("pr3_person", pid, "cf:name", name).put(
            "pr3_person",
            pid,
            "cf:age",
            &age.to_string(),
        );
    }
    for (rid, name) in ROLES {
        s.put("pr3_role", rid, "cf:name", name);
    }
    for (i, (pid, rid)) in LINKS.iter().enumerate() {
        // A random id as the key: nothing about the row says whose link it is.
        let id = super::md5_hex(&format!("link{i}"), 12);
        s.put("pr3_link", &id, "cf1:rid", rid)
            .put("pr3_link", &id, "cf2:pid", pid);
    }
    s.done()
}

/// How many persons hold the role.
fn holders(rid: &str) -> u64 {
    LINKS.iter().filter(|l| l.1 == rid).count() as u64
}

/// Renaming a role: find its holders by the r_<rid>_ prefix, then rewrite both copies of
/// each link.
fn rename_role(rid: &str, name: &str) -> String {
    let mut s = Script::default();
    s.line(format!("scan 'pr_one', {{ROWPREFIXFILTER => 'r_{rid}_'}}"));
    for (pid, _) in LINKS.iter().filter(|l| l.1 == rid) {
        s.put("pr_one", &format!("p_{pid}_{rid}"), "cf:role", name)
            .put("pr_one", &format!("r_{rid}_{pid}"), "cf:role", name);
    }
    s.done().trim_end().to_string()
}

pub fn designs(size: Size) -> Vec<Design> {
    vec![
        Design {
            id: "person-role.one-table",
            title: "Persons and roles in one table",
            source: "000",
            verdict: Verdict::Tradeoff,
            why: "Each link is stored twice, as p_<pid>_<rid> and r_<rid>_<pid>, so both directions are a prefix scan. Every row repeats the person's and the role's details, so renaming a role rewrites two rows per holder (the p_ and the r_ copy), found by a prefix scan of r_<rid>_. Without the p_/r_ type prefix, '001_' could be a person or a role. The design document itself adds that small relational data like this (users, roles) belongs in a relational database, not in HBase.",
            tables: &["pr_one"],
            setup: |_| one_table(),
            size,
            scales: false,
            patterns: vec![
                pattern("Roles of person 001", "scan 'pr_one', {ROWPREFIXFILTER => 'p_001_'}", "A prefix scan reads only the person's rows.").shows([scanned_is_returned(), on(Measure::RowsReturned).eq(2.0)]),
                pattern("Holders of role 200", "scan 'pr_one', {ROWPREFIXFILTER => 'r_200_'}", "The second copy of each link serves the other direction.").shows([scanned_is_returned(), on(Measure::RowsReturned).eq(3.0)]),
                pattern("Rename role 100 (the cost of redundancy)", rename_role("100", "组长"), "The r_100_ prefix scan finds the holders; each holder's p_ and r_ rows are rewritten: two rows per holder.")
                    .actions(holders("100"))
                    .shows([scanned_is_returned(), on(Measure::RowsPerAction).eq(2.0)]),
            ],
        },
        Design {
            id: "person-role.two-tables",
            title: "Persons and roles in two tables",
            source: "000",
            verdict: Verdict::Recommended,
            why: "A person row keeps its attributes in cf1 and its roles as columns of cf2 (cf2:<rid> = role name); a role row mirrors it. Either direction is one get. The price: adding or removing a link writes two rows, which HBase does not make atomic together. As the design document says, small relational data like persons and roles is better kept in a relational database; this is how to do it if it must live in HBase.",
            tables: &["pr_person", "pr_role"],
            setup: |_| two_tables(),
            size,
            scales: false,
            patterns: vec![
                pattern("Person 001 and all their roles", "get 'pr_person', '001'", "One get: attributes and the role list in one row.").shows([on(Measure::RowsScanned).eq(1.0)]),
                pattern("Role 200 and all its holders", "get 'pr_role', '200'", "The mirrored list answers the other direction.").shows([on(Measure::RowsScanned).eq(1.0)]),
                pattern("Give person 002 role 300 (two rows)", "put 'pr_person', '002', 'cf2:300', '队长'\nput 'pr_role', '300', 'cf2:002', '小黄'", "Both lists must change together: two separate row mutations.").shows([on(Measure::RowsPerAction).eq(2.0)]),
            ],
        },
        Design {
            id: "person-role.three-tables",
            title: "Persons, roles and a link table (relational)",
            source: "000",
            verdict: Verdict::AntiPattern,
            why: "The relational layout: a link table keyed by a random id. HBase has no joins and no secondary index, so finding a person's roles scans the whole link table and then gets each role: the work grows with all links, not with the answer. The design document's advice for data this small and this relational: keep it in a relational database.",
            tables: &["pr3_person", "pr3_role", "pr3_link"],
            setup: |_| three_tables(),
            size,
            scales: false,
            patterns: vec![
                pattern("Roles of person 001: scan every link", "scan 'pr3_link', {FILTER => \"SingleColumnValueFilter('cf2', 'pid', =, 'binary:001', true, true)\"}", "Every row is examined to return two: compare the last read's bars.").shows([on(Measure::RowsScanned).gt_times(3.0, Measure::RowsReturned)]),
                pattern("…then one get per role found", "get 'pr3_role', '100'\nget 'pr3_role', '200'", "A join done by hand, one round trip per role.").shows([on(Measure::Reads).eq(2.0)]),
            ],
        },
    ]
}
