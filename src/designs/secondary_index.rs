//! A secondary index table (design document 003): the access log keyed by time answers "every
//! line of one user" only by reading everything, so a second table keyed by the user's login id
//! points back at the log's rows. HBase keeps no index itself: every write is two row
//! mutations, and a write cut short between them leaves a line the index cannot find.

use super::gen::Gen;
use super::lesson::{on, scanned_is_returned, Measure};
use super::{pattern, Design, Script, Size, Verdict};

/// Log lines at the medium size, and the login ids they come from.
const LINES: u64 = 1_200;
const LOGINS: u64 = 40;
/// The log's first second (epoch seconds).
const T0: u64 = 1_246_000_000;
/// The user the reads ask about, and the user the writes add a line for.
const ASKED: &str = "user03";
const WRITER: &str = "user05";

/// `(log row key, login id, url)` of every line: two lines may share a second, and the
/// counter after the time keeps them apart (`<time><counter>`).
fn lines(size: Size) -> Vec<(String, String, String)> {
    let mut g = Gen::new(303);
    (0..size.of(LINES))
        .map(|i| {
            let key = format!("{}{:04}", T0 + i / 2, i % 2);
            let login = format!("user{:02}", g.below(LOGINS));
            (key, login, format!("/page/{}", g.below(30)))
        })
        .collect()
}

fn index_key(login: &str, log_key: &str) -> String {
    format!("{login}#{log_key}")
}

fn setup(size: Size) -> String {
    let mut s = Script::default();
    s.line("create 'ix_access', 'http', 'user', {MAX_FILESIZE => 16384}")
        .line("create 'ix_login', 'r', {MAX_FILESIZE => 16384}");
    for (key, login, url) in lines(size) {
        s.line(write_line(&key, login.as_str(), &url));
        s.put("ix_login", &index_key(&login, &key), "r:url", &url);
    }
    s.done()
}

/// The log line as one row mutation.
fn write_line(key: &str, login: &str, url: &str) -> String {
    format!(
        "mutate_row 'ix_access', '{key}', [['put', 'http:url', '{url}'], ['put', 'user:login_id', '{login}']]"
    )
}

/// The log keys of one user's lines.
fn lines_of(size: Size, login: &str) -> Vec<String> {
    lines(size)
        .into_iter()
        .filter(|l| l.1 == login)
        .map(|l| l.0)
        .collect()
}

/// The user's index rows, then a get of each line they point at.
fn through_the_index(size: Size) -> String {
    let mut s = Script::default();
    s.line(format!(
        "scan 'ix_login', {{ROWPREFIXFILTER => '{ASKED}#'}}"
    ));
    for key in lines_of(size, ASKED) {
        s.line(format!("get 'ix_access', '{key}'"));
    }
    s.done().trim_end().to_string()
}

/// A log key after the sample's last second: the new lines the write patterns add.
fn new_key(size: Size, n: u64) -> String {
    format!("{}{:04}", T0 + size.of(LINES) / 2 + 1 + n, 0)
}

pub fn designs(size: Size) -> Vec<Design> {
    let asked = lines_of(size, ASKED).len() as u64;
    let total = size.of(LINES);
    let whole = new_key(size, 0);
    let cut = new_key(size, 1);
    vec![Design {
        id: "cases.secondary-index",
        title: "A secondary index table for the access log",
        source: "003",
        verdict: Verdict::Tradeoff,
        why: "The access log's key is <time><counter>, so 'every line of user03' is not a range of it: without help it is a scan of the whole log through a filter. A second table (ix_login) keyed <login_id>#<log key> makes it one prefix scan of the index and then one get per line it names. HBase keeps no index of its own: the application writes the log row and the index row, two row mutations that are each atomic but not together. A write cut short after the log row leaves a line the index does not know, which no read through the index will ever find until something repairs it.",
        tables: &["ix_access", "ix_login"],
        setup,
        size,
        scales: true,
        patterns: vec![
            pattern("Lines of user03 through the index", through_the_index(size), "One prefix scan of the index, then one get per line: the reads return exactly the user's rows.").shows([on(Measure::Reads).eq((1 + asked) as f64), scanned_is_returned(), on(Measure::RowsReturned).eq((2 * asked) as f64)]),
            pattern("Lines of user03 without the index", format!("scan 'ix_access', {{COLUMNS => ['user:login_id'], FILTER => \"SingleColumnValueFilter('user', 'login_id', =, 'binary:{ASKED}', true, true)\"}}"), "One scan, but of every line of the log.").shows([on(Measure::Reads).eq(1.0), on(Measure::RowsReturned).eq(asked as f64), on(Measure::RowsScanned).ge(total as f64), on(Measure::RowsScanned).le((total + 2) as f64)]),
            pattern("A new line and its index row", format!("{}\nput 'ix_login', '{}', 'r:url', '/new'", write_line(&whole, WRITER, "/new"), index_key(WRITER, &whole)), "Two row mutations in two tables, each atomic on its own.").shows([on(Measure::RowsWritten).eq(2.0), on(Measure::RegionsTouched).eq(2.0)]),
            pattern("A write cut short: the line without its index row", format!("{}\nget 'ix_login', '{}'\nget 'ix_access', '{cut}'", write_line(&cut, WRITER, "/lost"), index_key(WRITER, &cut)), "The client stopped after the log row: the log has the line, the index does not, so a read through the index misses it.").shows([on(Measure::RowsWritten).eq(1.0), on(Measure::Reads).eq(2.0), on(Measure::RowsReturned).eq(1.0)]),
        ],
    }]
}
