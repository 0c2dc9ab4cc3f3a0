//! Departments and sub-departments in one table (design document 000).

use super::lesson::{on, scanned_is_returned, Measure};
use super::{pattern, Design, Script, Size, Verdict};

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

/// Making a department top level: its row under the new key (name and child list), the old
/// row deleted, the former parent's list updated, and every child pointed at the new key.
fn promote(id: &str) -> String {
    let Some((_, name, parent)) = DEPARTMENTS.iter().find(|d| d.0 == id) else {
        return String::new();
    };
    let children: Vec<&(&str, &str, Option<&str>)> =
        DEPARTMENTS.iter().filter(|d| d.2 == Some(id)).collect();
    let new_key = format!("0_{id}");
    let mut row = vec![format!("['put', 'cf1:name', '{name}']")];
    row.extend(
        children
            .iter()
            .map(|c| format!("['put', 'cf2:{}', '{}']", c.0, c.1)),
    );
    let mut s = Script::default();
    s.line(format!(
        "mutate_row 'org_dept', '{new_key}', [{}]",
        row.join(", ")
    ))
    .line(format!("deleteall 'org_dept', '{}'", key(id)));
    if let Some(p) = parent {
        s.line(format!("delete 'org_dept', '{}', 'cf2:{id}'", key(p)));
    }
    for c in children {
        s.put("org_dept", &key(c.0), "cf1:pid", &new_key);
    }
    s.done().trim_end().to_string()
}

pub fn designs(size: Size) -> Vec<Design> {
    vec![Design {
        id: "org.departments",
        title: "An organisation chart in one table",
        source: "000",
        verdict: Verdict::Recommended,
        why: "The key is <0|1>_<id>: 0 marks a top-level department, so all of them sit together at the start of the table and one prefix scan lists them. A department's row holds its parent's key (cf1:pid) and its children as columns of cf2, so children are one get. Moving a department touches three rows: its own cf1:pid, the old parent's cf2 and the new parent's cf2. Changing whether a department is top level changes its row key (0_ against 1_): the row is written anew under the new key, deleted under the old one, and every child's cf1:pid is rewritten. The design document also says data this small and relational is better kept in a relational database.",
        tables: &["org_dept"],
        setup: |_| setup(),
        size,
        scales: false,
        patterns: vec![
            pattern("Top-level departments", "scan 'org_dept', {ROWPREFIXFILTER => '0_'}", "The 0_ prefix groups them: no other row is read. The CEO and 董事会 are there from the start; a promoted department joins them.").shows([scanned_is_returned(), on(Measure::RowsReturned).ge(2.0), on(Measure::RowsReturned).le(3.0)]),
            pattern("Direct children of 开发部", "get 'org_dept', '1_002', 'cf2'", "One row, one family.").shows([on(Measure::RowsScanned).eq(1.0)]),
            pattern("Add 开发3 under 开发部 (child and parent list together)", "mutate_row 'org_dept', '1_009', [['put', 'cf1:name', '开发3'], ['put', 'cf1:pid', '1_002']]\nput 'org_dept', '1_002', 'cf2:009', '开发3'", "The new row and the parent's list: two rows to keep in step.").shows([on(Measure::RowsPerAction).eq(2.0)]),
            pattern("Move 开发1 from 开发部 to 董事会", "put 'org_dept', '1_003', 'cf1:pid', '0_008'\ndelete 'org_dept', '1_002', 'cf2:003'\nput 'org_dept', '0_008', 'cf2:003', '开发1'", "The department's parent reference and both parents' child lists: three rows.").shows([on(Measure::RowsPerAction).eq(3.0)]),
            pattern("Make 市场部 top level (its key changes)", promote("005"), "The row moves from 1_005 to 0_005, the CEO's list loses it, and each child's cf1:pid is rewritten.").shows([on(Measure::RowsPerAction).eq(5.0)]),
            pattern("Remove 开发2", "deleteall 'org_dept', '1_004'\ndelete 'org_dept', '1_002', 'cf2:004'", "cf1:pid says which parent list to fix.").shows([on(Measure::RowsPerAction).eq(2.0)]),
        ],
    }]
}
