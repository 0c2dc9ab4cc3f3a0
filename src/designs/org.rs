//! Departments and sub-departments in one table (design document 000).

use super::{pattern, Design, Script, Verdict};

/// (id, name, parent id); no parent means top level.
const DEPARTMENTS: &[(&str, &str, Option<&str>)] = &[
    ("001", "CEO", None),
    ("002", "开发部", Some("001")),
    ("003", "开发1", Some("002")),
    ("004", "开发2", Some("002")),
    ("005", "市场部", Some("001")),
    ("006", "市场1", Some("005")),
    ("007", "市场2", Some("005")),
    ("008", "董事会", None),
];

fn key(id: &str) -> String {
    match DEPARTMENTS.iter().find(|d| d.0 == id) {
        Some((_, _, None)) => format!("0_{id}"),
        _ => format!("1_{id}"),
    }
}

fn setup() -> String {
    let mut s = Script::default();
    s.line("create 'org_dept', 'cf1', 'cf2'");
    for (id, name, parent) in DEPARTMENTS {
        let row = key(id);
        s.put("org_dept", &row, "cf1:name", name);
        if let Some(p) = parent {
            s.put("org_dept", &row, "cf1:pid", &key(p));
            s.put("org_dept", &key(p), &format!("cf2:{id}"), name);
        }
    }
    s.done()
}

pub fn designs() -> Vec<Design> {
    vec![Design {
        id: "org.departments",
        title: "An organisation chart in one table",
        source: "000",
        verdict: Verdict::Recommended,
        why: "The key is <0|1>_<id>: 0 marks a top-level department, so all of them sit together at the start of the table and one prefix scan lists them. A department's row holds its parent's key (cf1:pid) and its children as columns of cf2, so children are one get and a move updates two known rows.",
        tables: &["org_dept"],
        setup,
        patterns: vec![
            pattern("Top-level departments", "scan 'org_dept', {ROWPREFIXFILTER => '0_'}", "The 0_ prefix groups them: no other row is read."),
            pattern("Direct children of 开发部", "get 'org_dept', '1_002', 'cf2'", "One row, one family."),
            pattern("Add 开发3 under 开发部 (child and parent list together)", "mutate_row 'org_dept', '1_009', [['put', 'cf1:name', '开发3'], ['put', 'cf1:pid', '1_002']]\nput 'org_dept', '1_002', 'cf2:009', '开发3'", "The new row and the parent's list: two rows to keep in step."),
            pattern("Remove 开发2", "deleteall 'org_dept', '1_004'\ndelete 'org_dept', '1_002', 'cf2:004'", "cf1:pid says which parent list to fix."),
        ],
    }]
}
