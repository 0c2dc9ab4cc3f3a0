//! The 2009 case studies (design document 003): de-normalize into rows and families.

use super::gen::{bursty_times, Gen};
use super::lesson::{on, scanned_is_returned, Measure};
use super::{pattern, reverse_ts, Design, Script, Size, Verdict};
use crate::kit::order;

/// (id, name, parents with their level, level of this location)
const LOCATIONS: &[(&str, &str, &[(&str, &str)], &str)] = &[
    ("1", "China", &[], "nation"),
    ("2", "Beijing", &[("1", "nation")], "state"),
    ("3", "Shanghai", &[("1", "nation")], "state"),
    ("4", "Guangzhou", &[("1", "nation")], "state"),
    ("5", "Shandong", &[("1", "nation")], "state"),
    ("6", "Sichuan", &[("1", "nation")], "state"),
    ("7", "Jinan", &[("1", "nation"), ("5", "state")], "city"),
    ("8", "Qingdao", &[("1", "nation"), ("5", "state")], "city"),
    ("9", "Chengdu", &[("1", "nation"), ("6", "state")], "city"),
];

/// Locations under `id` (of one level, or of any), as the sample lists them.
fn descendants(id: &str, level: Option<&str>) -> usize {
    LOCATIONS
        .iter()
        .filter(|l| l.2.iter().any(|p| p.0 == id) && level.is_none_or(|v| l.3 == v))
        .count()
}

/// Locations above `id`.
fn ancestors(id: &str) -> usize {
    LOCATIONS
        .iter()
        .find(|l| l.0 == id)
        .map_or(0, |l| l.2.len())
}

fn locations() -> String {
    let mut s = Script::default();
    s.line("create 'cs_location', 'name', 'parent', 'child'");
    for (id, name, parents, level) in LOCATIONS {
        s.put("cs_location", id, "name:", name);
        for (p, plevel) in *parents {
            s.put("cs_location", id, &format!("parent:{p}"), plevel);
            s.put("cs_location", p, &format!("child:{id}"), level);
        }
    }
    s.done()
}

fn student_course() -> String {
    let mut s = Script::default();
    s.line("create 'cs_student', 'info', 'course'")
        .line("create 'cs_course', 'info', 'student'");
    let students = [
        ("s1", "Li", "F", "20"),
        ("s2", "Wang", "M", "21"),
        ("s3", "Zhao", "F", "19"),
    ];
    let courses = [
        ("c1", "Databases", "t7"),
        ("c2", "Networks", "t3"),
        ("c3", "Compilers", "t7"),
    ];
    let takes = [
        ("s1", "c1", "required"),
        ("s1", "c2", "elective"),
        ("s2", "c1", "required"),
        ("s3", "c3", "elective"),
        ("s3", "c1", "required"),
    ];
    for (id, name, sex, age) in students {
        s.put("cs_student", id, "info:name", name)
            .put("cs_student", id, "info:sex", sex)
            .put("cs_student", id, "info:age", age);
    }
    for (id, title, teacher) in courses {
        s.put("cs_course", id, "info:title", title)
            .put(
                "cs_course",
                id,
                "info:introduction",
                &format!("An introduction to {title}"),
            )
            .put("cs_course", id, "info:teacher_id", teacher);
    }
    for (st, c, kind) in takes {
        s.put("cs_student", st, &format!("course:{c}"), kind).put(
            "cs_course",
            c,
            &format!("student:{st}"),
            kind,
        );
    }
    s.done()
}

const T0: u64 = 1_246_000_000_000;

/// Actions in the sample at the medium size, and users they are spread over.
const ACTIONS: u64 = 4_000;
const ACTION_USERS: u64 = 40;

/// `(user, time)` of each action: a few users act far more than the rest, and actions come in
/// bursts.
fn action_sample(size: Size) -> Vec<(u64, u64)> {
    let mut g = Gen::new(2009);
    let times = bursty_times(&mut g, T0, size.of_usize(ACTIONS as usize), 9_000);
    let users = size.of(ACTION_USERS);
    times
        .into_iter()
        .map(|ts| (g.skewed(users, 2.0), ts))
        .collect()
}

/// The key of action `i` of `user` at `ts`: `user<nnn><Long.MAX_VALUE - ts><event id>`.
fn action_key_of(user: u64, ts: u64, i: usize) -> String {
    format!("user{user:03}{}{i:05}", reverse_ts(ts))
}

/// The key of `user`'s action at position `skip` (0-based) in key order, newest first.
pub fn action_key(size: Size, user: u64, skip: u64) -> String {
    let mut mine: Vec<String> = action_sample(size)
        .into_iter()
        .enumerate()
        .filter(|(_, a)| a.0 == user)
        .map(|(i, (u, ts))| action_key_of(u, ts, i))
        .collect();
    order::sort(&mut mine);
    mine.get(skip as usize).cloned().unwrap_or_default()
}

fn user_action(size: Size) -> String {
    let mut s = Script::default();
    s.line("create 'cs_action', 'name', {MAX_FILESIZE => 16384}");
    let actions = ["login", "view", "search", "buy", "logout"];
    for (i, (user, ts)) in action_sample(size).into_iter().enumerate() {
        s.put_at(
            "cs_action",
            &action_key_of(user, ts, i),
            "name:",
            actions[i % 5],
            ts,
        );
    }
    s.done()
}

fn user_friends() -> String {
    let mut s = Script::default();
    s.line("create 'cs_user', 'info', 'friend'");
    let users = ["u1", "u2", "u3", "u4", "u5", "u6"];
    let friends = [
        ("u1", "u2", "classmate"),
        ("u2", "u3", "colleague"),
        ("u3", "u4", "family"),
        ("u4", "u5", "classmate"),
        ("u1", "u6", "colleague"),
        ("u6", "u5", "family"),
    ];
    for (i, u) in users.iter().enumerate() {
        s.put("cs_user", u, "info:name", &format!("Name{i}")).put(
            "cs_user",
            u,
            "info:age",
            &format!("{}", 20 + i),
        );
    }
    for (a, b, kind) in friends {
        s.put("cs_user", a, &format!("friend:{b}"), kind).put(
            "cs_user",
            b,
            &format!("friend:{a}"),
            kind,
        );
    }
    s.done()
}

fn access_log() -> String {
    let mut s = Script::default();
    s.line("create 'cs_access', 'http', 'user', {MAX_FILESIZE => 16384}");
    for i in 0..600u64 {
        // Two lines may share a second: the counter keeps them apart.
        let time = T0 / 1000 + i / 2;
        let key = format!("{time}{:04}", i % 2);
        s.put(
            "cs_access",
            &key,
            "http:ip",
            &format!("10.0.{}.{}", i % 7, i % 200),
        )
        .put("cs_access", &key, "http:url", &format!("/page/{}", i % 30))
        .put(
            "cs_access",
            &key,
            "user:login_id",
            &format!("user{:02}", i % 8),
        );
    }
    s.done()
}

/// `n` more log lines after the sample's last second.
fn next_lines(n: u64) -> String {
    let mut s = Script::default();
    for i in 600..600 + n {
        let key = format!("{}{:04}", T0 / 1000 + i / 2, i % 2);
        s.put("cs_access", &key, "http:url", &format!("/page/{}", i % 30));
    }
    s.done().trim_end().to_string()
}

pub fn designs(size: Size) -> Vec<Design> {
    let t = T0 / 1000;
    vec![
        Design {
            id: "cases.locations",
            title: "A location hierarchy with parent and child families",
            source: "003",
            verdict: Verdict::Recommended,
            why: "One row per location; parent:<id> and child:<id> columns hold the links with the level as value. Every ancestor is listed (Qingdao names China and Shandong) and every descendant too (China lists its provinces and their cities), so ancestors and descendants are one get each, with no recursive queries; the level in the value tells direct children from the rest.",
            tables: &["cs_location"],
            setup: |_| locations(),
            size,
            scales: false,
            patterns: vec![
                pattern("China and its provinces", "get 'cs_location', '1', {COLUMN => 'child', FILTER => \"ValueFilter(=, 'binary:state')\"}", "child: lists every descendant with its level; the provinces are the children whose level is state.").shows([on(Measure::RowsScanned).eq(1.0), on(Measure::CellsReturned).eq(descendants("1", Some("state")) as f64)]),
                pattern("China and every place under it", "get 'cs_location', '1', 'child'", "Provinces and their cities, one get: no recursion.").shows([on(Measure::RowsScanned).eq(1.0), on(Measure::CellsReturned).eq(descendants("1", None) as f64)]),
                pattern("Qingdao and all its ancestors", "get 'cs_location', '8', 'parent'", "Both levels in one family.").shows([on(Measure::RowsScanned).eq(1.0), on(Measure::CellsReturned).eq(ancestors("8") as f64)]),
            ],
        },
        Design {
            id: "cases.student-course",
            title: "Students and courses, each listing the other",
            source: "003",
            verdict: Verdict::Recommended,
            why: "The relational join table disappears: a student row lists its courses as course:<id> = type and a course row lists its students. Each question is one get; enrolling writes both rows.",
            tables: &["cs_student", "cs_course"],
            setup: |_| student_course(),
            size,
            scales: false,
            patterns: vec![
                pattern("Courses of student s1", "get 'cs_student', 's1', 'course'", "One family of one row.").shows([on(Measure::RowsScanned).eq(1.0)]),
                pattern("Students of course c1", "get 'cs_course', 'c1', 'student'", "The mirrored list.").shows([on(Measure::RowsScanned).eq(1.0)]),
                pattern("Enrol s2 in c3 (two rows)", "put 'cs_student', 's2', 'course:c3', 'elective'\nput 'cs_course', 'c3', 'student:s2', 'elective'", "Both lists change: two rows per enrolment, not atomic together.").shows([on(Measure::RowsPerAction).eq(2.0)]),
            ],
        },
        Design {
            id: "cases.user-action",
            title: "Recent actions: user + reverse time + event id",
            source: "003",
            verdict: Verdict::Recommended,
            why: "<user><Long.MAX_VALUE - time><event id> keeps a user's actions together, newest first, with no index to maintain on insert (4,000 actions of 40 users at the medium size, in bursts, a few users acting far more than the rest). 'Ten most recent actions, skipping twenty' has no offset to lean on: either read thirty rows from the start of the prefix and drop twenty, or, as a pager does, start the next page just after the last key of the previous one and read exactly ten.",
            tables: &["cs_action"],
            setup: user_action,
            size,
            scales: true,
            patterns: vec![
                pattern(
                    "Actions 1–30 of user003 (skipping by reading)",
                    "scan 'cs_action', {ROWPREFIXFILTER => 'user003', LIMIT => 30}",
                    "30 rows read in key order; a client wanting 21–30 throws the first 20 away.",
                )
                .shows([scanned_is_returned(), on(Measure::RowsReturned).eq(30.0)]),
                pattern(
                    "Actions 21–30 of user003 (from the 20th key on)",
                    format!("scan 'cs_action', {{STARTROW => '{}', STOPROW => 'user004', LIMIT => 10}}", action_key(size, 3, 20)),
                    "Starting at the 21st key reads exactly the page: rows 21–30.",
                )
                .shows([scanned_is_returned(), on(Measure::RowsReturned).eq(10.0)]),
                pattern(
                    "Every action of the busiest user, user000",
                    "count 'cs_action', {ROWPREFIXFILTER => 'user000'}",
                    "A few users act most: their prefix is long, and still one range.",
                )
                .shows([scanned_is_returned(), on(Measure::RowsReturned).gt(30.0)]),
                pattern(
                    "Actions of every user (a full scan)",
                    "count 'cs_action'",
                    "The table has split: a full read touches every region.",
                )
                .shows([scanned_is_returned(), on(Measure::RegionsTouched).ge(2.0)]),
            ],
        },
        Design {
            id: "cases.user-friends",
            title: "A friendship graph as a sparse matrix",
            source: "003",
            verdict: Verdict::Recommended,
            why: "friend:<user id> = type turns the friendship table into one sparse row per user: a user's friends are one get, and walking the graph (say, a shortest path from u1 to u4) is a get per visited user.",
            tables: &["cs_user"],
            setup: |_| user_friends(),
            size,
            scales: false,
            patterns: vec![
                pattern("Friends of u1", "get 'cs_user', 'u1', 'friend'", "One row of the sparse matrix.").shows([on(Measure::RowsScanned).eq(1.0)]),
                pattern("One step further: friends of u2 and u6", "get 'cs_user', 'u2', 'friend'\nget 'cs_user', 'u6', 'friend'", "Breadth-first, a get per user.").shows([on(Measure::Reads).eq(2.0), scanned_is_returned()]),
            ],
        },
        Design {
            id: "cases.access-log",
            title: "An access log keyed by time and a counter",
            source: "003",
            verdict: Verdict::Tradeoff,
            why: "<time><counter> makes every 5-minute, hourly or daily analysis one range scan, and the counter keeps two lines of the same second apart. The cost: all writes go to the newest region, the same hotspot as any time-first key (watch the last region).",
            tables: &["cs_access"],
            setup: |_| access_log(),
            size,
            scales: false,
            patterns: vec![
                pattern("One minute of traffic", format!("count 'cs_access', {{STARTROW => '{}', STOPROW => '{}'}}", t + 60, t + 120), "A contiguous range: examined equals returned.").shows([scanned_is_returned(), on(Measure::RowsReturned).eq(120.0)]),
                pattern("Lines of one user (not what the key serves)", "count 'cs_access', {FILTER => \"SingleColumnValueFilter('user', 'login_id', =, 'binary:user03', true, true)\"}", "Every row is read to count the user's 75 lines. The count is right only because user:login_id is the first cell of its own family: HBase's shell counts with a FirstKeyOnlyFilter after the scan's filter, whose NEXT_ROW ends a row in one family's store only, so the filter sees the first cells of each family and never a family's third.").shows([on(Measure::RowsScanned).gt_times(5.0, Measure::RowsReturned), on(Measure::RowsReturned).eq(75.0)]),
                pattern("Thirty more lines: where they go", next_lines(30), "The newest time is the largest key: the last region takes every write.").actions(30).shows([on(Measure::BusiestWriteShare).gt(90.0)]),
            ],
        },
    ]
}
