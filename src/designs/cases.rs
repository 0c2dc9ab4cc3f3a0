//! The 2009 case studies (design document 003): de-normalize into rows and families.

use super::{pattern, reverse_ts, Design, Script, Verdict};

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

fn user_action() -> String {
    let mut s = Script::default();
    s.line("create 'cs_action', 'name'");
    let actions = ["login", "view", "search", "buy", "logout"];
    for i in 0..400u64 {
        let user = format!("user{:02}", i % 8);
        let ts = T0 + i * 37_000;
        let key = format!("{user}{}{:04}", reverse_ts(ts), i);
        s.put_at("cs_action", &key, "name:", actions[(i % 5) as usize], ts);
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

pub fn designs() -> Vec<Design> {
    let t = T0 / 1000;
    vec![
        Design {
            id: "cases.locations",
            title: "A location hierarchy with parent and child families",
            source: "003",
            verdict: Verdict::Recommended,
            why: "One row per location; parent:<id> and child:<id> columns hold the links with the level as value. Every parent is listed (Qingdao names China and Shandong), so ancestors and children are one get each, with no recursive queries.",
            tables: &["cs_location"],
            setup: locations,
            patterns: vec![
                pattern("China and its provinces", "get 'cs_location', '1'", "child:<id> lists them."),
                pattern("Qingdao and all its ancestors", "get 'cs_location', '8', 'parent'", "Both levels in one family."),
            ],
        },
        Design {
            id: "cases.student-course",
            title: "Students and courses, each listing the other",
            source: "003",
            verdict: Verdict::Recommended,
            why: "The relational join table disappears: a student row lists its courses as course:<id> = type and a course row lists its students. Each question is one get; enrolling writes both rows.",
            tables: &["cs_student", "cs_course"],
            setup: student_course,
            patterns: vec![
                pattern("Courses of student s1", "get 'cs_student', 's1', 'course'", "One family of one row."),
                pattern("Students of course c1", "get 'cs_course', 'c1', 'student'", "The mirrored list."),
            ],
        },
        Design {
            id: "cases.user-action",
            title: "Recent actions: user + reverse time + event id",
            source: "003",
            verdict: Verdict::Recommended,
            why: "<user><Long.MAX_VALUE - time><event id> keeps a user's actions together, newest first, with no index to maintain on insert. 'Ten most recent actions, skipping twenty' reads thirty rows from the start of the prefix and drops twenty.",
            tables: &["cs_action"],
            setup: user_action,
            patterns: vec![pattern(
                "Actions 21–30 of user03 (newest first)",
                "scan 'cs_action', {ROWPREFIXFILTER => 'user03', LIMIT => 30}",
                "30 rows read in key order; the last 10 are the page (skipping costs reads).",
            )],
        },
        Design {
            id: "cases.user-friends",
            title: "A friendship graph as a sparse matrix",
            source: "003",
            verdict: Verdict::Recommended,
            why: "friend:<user id> = type turns the friendship table into one sparse row per user: a user's friends are one get, and walking the graph (say, a shortest path from u1 to u4) is a get per visited user.",
            tables: &["cs_user"],
            setup: user_friends,
            patterns: vec![
                pattern("Friends of u1", "get 'cs_user', 'u1', 'friend'", "One row of the sparse matrix."),
                pattern("One step further: friends of u2 and u6", "get 'cs_user', 'u2', 'friend'\nget 'cs_user', 'u6', 'friend'", "Breadth-first, a get per user."),
            ],
        },
        Design {
            id: "cases.access-log",
            title: "An access log keyed by time and a counter",
            source: "003",
            verdict: Verdict::Tradeoff,
            why: "<time><counter> makes every 5-minute, hourly or daily analysis one range scan, and the counter keeps two lines of the same second apart. The cost: all writes go to the newest region, the same hotspot as any time-first key (watch the last region).",
            tables: &["cs_access"],
            setup: access_log,
            patterns: vec![
                pattern("One minute of traffic", format!("count 'cs_access', {{STARTROW => '{}', STOPROW => '{}'}}", t + 60, t + 120), "A contiguous range: examined equals returned."),
                pattern("Lines of one user (not what the key serves)", "count 'cs_access', {FILTER => \"SingleColumnValueFilter('user', 'login_id', =, 'binary:user03', true, true)\"}", "Every row is read."),
            ],
        },
    ]
}
