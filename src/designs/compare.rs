//! A/B compare: two key designs of one world run the same workload, side by side. A pair
//! defines its workload once, as logical events (users signing up, metric readings, follows)
//! drawn from a seeded generator with the world's skew; each side expresses the events in its
//! own key scheme. Both sides run on a shell of their own (a fresh engine), so the comparison
//! never touches the person's tables: the history is loaded, then the write stream is
//! measured, then the reads, with the measures of [`lesson`].

use super::gen::{bursty_times, Gen};
use super::lesson::{self, on, scanned_is_returned, Claim, Measure, Measures, Rel};
use super::{md5_hex, Script};
use crate::shell::Shell;

/// Which half of a run a figure comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Writes,
    Reads,
}

impl Phase {
    pub fn label(self) -> &'static str {
        match self {
            Phase::Writes => "write stream",
            Phase::Reads => "reads",
        }
    }
}

/// One side of a pair: a key scheme and the workload written in it.
#[derive(Clone, Debug)]
pub struct Side {
    pub label: &'static str,
    /// The row key, as a pattern: `<id>`, `md5(<id>)[0..8]:<id>`.
    pub key: &'static str,
    pub table: &'static str,
    /// Creates the table and loads the history (not measured).
    pub setup: String,
    /// The write stream: `write_actions` logical actions.
    pub writes: String,
    /// The reads: `read_actions` logical questions.
    pub reads: String,
    /// The side's lesson, as relations over its own figures.
    pub claims: Vec<(Phase, Claim)>,
}

impl Side {
    /// A side with its three scripts and no claims yet: the pair adds them once both sides
    /// exist, since a claim may compare the two.
    fn new(
        label: &'static str,
        key: &'static str,
        table: &'static str,
        setup: String,
        writes: String,
        reads: String,
    ) -> Side {
        Side {
            label,
            key,
            table,
            setup,
            writes,
            reads,
            claims: Vec::new(),
        }
    }
}

/// A relation between the two sides: A's measure `rel` `factor` × B's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Versus {
    pub phase: Phase,
    pub measure: Measure,
    pub rel: Rel,
    pub factor: f64,
}

impl Versus {
    pub fn holds(&self, a: &SideRun, b: &SideRun) -> bool {
        self.rel.holds(
            a.get(self.phase).get(self.measure),
            self.factor * b.get(self.phase).get(self.measure),
        )
    }

    /// `A's rows scanned (400) > 4 × B's rows scanned (20)`.
    pub fn explain(&self, a: &SideRun, b: &SideRun) -> String {
        // A factor keeps its exact digits (0.125, not 0.1): it is part of the relation.
        let factor = if self.factor == 1.0 {
            String::new()
        } else {
            let digits = format!("{:.3}", self.factor);
            format!("{} × ", digits.trim_end_matches('0').trim_end_matches('.'))
        };
        format!(
            "A's {m} ({}) {} {factor}B's {m} ({})",
            lesson::number(a.get(self.phase).get(self.measure)),
            self.rel.symbol(),
            lesson::number(b.get(self.phase).get(self.measure)),
            m = self.measure.label(),
        )
    }
}

/// Two designs of one world and the workload they share.
#[derive(Clone, Debug)]
pub struct Pair {
    pub id: &'static str,
    pub title: &'static str,
    /// The workload, in words: what is written and what is asked.
    pub workload: &'static str,
    /// What the comparison shows.
    pub why: &'static str,
    /// The gallery designs that teach the same lesson.
    pub designs: &'static [&'static str],
    pub write_actions: u64,
    pub read_actions: u64,
    pub a: Side,
    pub b: Side,
    pub versus: Vec<Versus>,
}

/// What one side's run produced.
#[derive(Clone, Debug)]
pub struct SideRun {
    pub writes: Measures,
    pub reads: Measures,
    /// Each claim of the side, with whether it held.
    pub checks: Vec<(Phase, Claim, bool)>,
    /// Regions of the table after the run.
    pub regions: u64,
    /// Rows in the table after the run.
    pub rows: u64,
}

impl SideRun {
    pub fn get(&self, phase: Phase) -> &Measures {
        match phase {
            Phase::Writes => &self.writes,
            Phase::Reads => &self.reads,
        }
    }

    pub fn all_hold(&self) -> bool {
        self.checks.iter().all(|c| c.2)
    }
}

impl Side {
    /// Runs the side on `shell` (which should hold nothing of its own): setup, then the
    /// measured writes and reads. The error names the failed command.
    pub fn run(
        &self,
        shell: &mut Shell,
        write_actions: u64,
        read_actions: u64,
    ) -> Result<SideRun, String> {
        if let Some((o, e)) = shell
            .run(&self.setup)
            .into_iter()
            .find_map(|o| o.error.clone().map(|e| (o, e)))
        {
            return Err(format!("{}: {}", o.input, e.message));
        }
        let tables = [self.table];
        let (writes, _) = lesson::run_measured(shell, &tables, &self.writes, write_actions)?;
        let (reads, _) = lesson::run_measured(shell, &tables, &self.reads, read_actions)?;
        let (regions, rows) = shell
            .engine
            .table(self.table)
            .map(|t| (t.regions.len() as u64, t.keys.row_count() as u64))
            .unwrap_or((0, 0));
        let checks = self
            .claims
            .iter()
            .map(|(phase, c)| {
                let m = if *phase == Phase::Writes {
                    &writes
                } else {
                    &reads
                };
                (*phase, *c, c.holds(m))
            })
            .collect();
        Ok(SideRun {
            writes,
            reads,
            checks,
            regions,
            rows,
        })
    }
}

impl Pair {
    /// Runs both sides, each on the shell `fresh` makes.
    pub fn run(&self, mut fresh: impl FnMut() -> Shell) -> Result<(SideRun, SideRun), String> {
        let a = self
            .a
            .run(&mut fresh(), self.write_actions, self.read_actions)?;
        let b = self
            .b
            .run(&mut fresh(), self.write_actions, self.read_actions)?;
        Ok((a, b))
    }
}

/// Every pair.
pub fn pairs() -> Vec<Pair> {
    vec![
        sequential_vs_hashed(),
        timestamp_vs_metric_first(),
        wide_vs_tall(),
        plain_vs_salted(),
        long_vs_short_names(),
        plain_vs_reversed_domains(),
    ]
}

/// The pairs, built once per thread and shared: building one writes out its whole workload,
/// and the gallery lists the pairs on every render.
pub fn shared() -> std::rc::Rc<[Pair]> {
    thread_local! {
        static SHARED: std::rc::Rc<[Pair]> = pairs().into();
    }
    SHARED.with(std::rc::Rc::clone)
}

/// The pair with this id.
pub fn find(id: &str) -> Option<Pair> {
    shared().iter().find(|p| p.id == id).cloned()
}

fn versus(phase: Phase, measure: Measure, rel: Rel, factor: f64) -> Versus {
    Versus {
        phase,
        measure,
        rel,
        factor,
    }
}

const SPLIT_SMALL: &str = "{MAX_FILESIZE => 16384}";

/// Users signing up with sequential ids; lookups of recent users (recent ids are read most)
/// and one range of ids.
fn sequential_vs_hashed() -> Pair {
    const FIRST: u64 = 100_000;
    const HISTORY: u64 = 1_200;
    const NEW: u64 = 100;
    const LOOKUPS: u64 = 20;
    let mut g = Gen::new(11);
    let looked_up: Vec<u64> = (0..LOOKUPS)
        .map(|_| FIRST + g.recent(HISTORY + NEW, 3.0))
        .collect();
    let side = |label, key: &'static str, table: &'static str, hashed: bool| {
        let row = |id: u64| {
            if hashed {
                format!("{}:{id}", md5_hex(&id.to_string(), 8))
            } else {
                id.to_string()
            }
        };
        let mut s = Script::default();
        s.line(format!("create '{table}', 'u', {SPLIT_SMALL}"));
        for id in FIRST..FIRST + HISTORY {
            s.put(table, &row(id), "u:name", &format!("user {id}"));
        }
        let setup = s.done();
        for id in FIRST + HISTORY..FIRST + HISTORY + NEW {
            s.put(table, &row(id), "u:name", &format!("user {id}"));
        }
        let writes = s.done();
        for id in &looked_up {
            s.line(format!("get '{table}', '{}'", row(*id)));
        }
        if hashed {
            s.line(format!(
                "count '{table}', {{FILTER => \"RowFilter(=, 'regexstring::1001[0-9][0-9]$')\"}}"
            ));
        } else {
            s.line(format!(
                "count '{table}', {{STARTROW => '100100', STOPROW => '100200'}}"
            ));
        }
        Side::new(label, key, table, setup, writes, s.done())
    };
    let mut a = side("Sequential ids", "<id>", "ab_seq", false);
    a.claims = vec![
        (Phase::Writes, on(Measure::BusiestWriteShare).gt(90.0)),
        (Phase::Reads, scanned_is_returned()),
    ];
    let mut b = side("Hashed ids", "md5(<id>)[0..8]:<id>", "ab_hashed", true);
    b.claims = vec![
        (Phase::Writes, on(Measure::BusiestWriteShare).lt(50.0)),
        (
            Phase::Reads,
            on(Measure::RowsScanned).gt_times(2.0, Measure::RowsReturned),
        ),
    ];
    Pair {
        id: "sequential-vs-hashed",
        title: "Sequential ids against hashed ids",
        workload: "1,200 users exist; 100 more sign up with the next ids; then 20 lookups of users, recent ones likelier, and the ids 100100–100199 as a range.",
        why: "Every new sequential id is the largest key, so the region at the end of the table takes all the sign-ups. A hash prefix spreads them over every region, and a lookup by id is still one get, but the ids' order is gone: the range of ids becomes a read of the whole table.",
        designs: &["schema.sequential-ids", "schema.hashed-id", "schema.hash-vs-reverse", "schema.salting"],
        write_actions: NEW,
        read_actions: LOOKUPS + 1,
        a,
        b,
        versus: vec![
            versus(Phase::Writes, Measure::BusiestWriteShare, Rel::Gt, 2.0),
            versus(Phase::Reads, Measure::RowsScanned, Rel::Lt, 0.5),
        ],
    }
}

/// Four metrics read every second; the question is one metric over a minute.
fn timestamp_vs_metric_first() -> Pair {
    const METRICS: [&str; 4] = ["cpu", "disk", "mem", "net"];
    const T0: u64 = 1_700_000_000_000;
    const HISTORY: u64 = 300;
    const NEW: u64 = 25;
    let side = |label, key: &'static str, table: &'static str, ts_first: bool| {
        let row = |m: &str, ts: u64| {
            if ts_first {
                format!("{ts}#{m}")
            } else {
                format!("{m}#{ts}")
            }
        };
        let mut g = Gen::new(5);
        // Both tables start in four regions: split at the quarters of the history's time
        // range, or at the metrics' names.
        let splits: Vec<String> = if ts_first {
            (1..4)
                .map(|q| format!("'{}'", T0 + q * HISTORY / 4 * 1000))
                .collect()
        } else {
            METRICS[1..].iter().map(|m| format!("'{m}'")).collect()
        };
        let mut s = Script::default();
        s.line(format!(
            "create '{table}', 'm', {{MAX_FILESIZE => 16384}}, SPLITS => [{}]",
            splits.join(", ")
        ));
        let mut reading = |s: &mut Script, i: u64| {
            let ts = T0 + i * 1000;
            for m in METRICS {
                s.put(table, &row(m, ts), "m:v", &g.below(100).to_string());
            }
        };
        for i in 0..HISTORY {
            reading(&mut s, i);
        }
        let setup = s.done();
        for i in HISTORY..HISTORY + NEW {
            reading(&mut s, i);
        }
        let writes = s.done();
        let (from, to) = (T0 + 200_000, T0 + 260_000);
        let reads = if ts_first {
            format!("count '{table}', {{STARTROW => '{from}', STOPROW => '{to}', FILTER => \"RowFilter(=, 'substring:#cpu')\"}}")
        } else {
            format!("count '{table}', {{STARTROW => 'cpu#{from}', STOPROW => 'cpu#{to}'}}")
        };
        Side::new(label, key, table, setup, writes, reads)
    };
    let mut a = side("Timestamp first", "<ts>#<metric>", "ab_tsfirst", true);
    a.claims = vec![
        (Phase::Writes, on(Measure::BusiestWriteShare).gt(90.0)),
        (
            Phase::Reads,
            on(Measure::RowsScanned).eq_times(4.0, Measure::RowsReturned),
        ),
    ];
    let mut b = side("Metric first", "<metric>#<ts>", "ab_metric", false);
    b.claims = vec![
        (Phase::Writes, on(Measure::BusiestWriteShare).lt(50.0)),
        (Phase::Reads, scanned_is_returned()),
    ];
    Pair {
        id: "timestamp-vs-metric-first",
        title: "Timestamp first against the metric promoted into the key",
        workload: "cpu, disk, mem and net are read every second: 300 seconds exist, 25 more are written; then cpu over one minute. Each table starts in four regions.",
        why: "With the time first, the newest second is always the largest key: one region takes every reading, and a minute of cpu is read along with the other three metrics. Both tables start in four regions. With the metric first, each metric's newest readings go to the end of its own range; pre-split at the metrics' names, those ends lie in four regions and share the writes (without such splits nothing guarantees it), and the minute of cpu is exactly the rows it returns.",
        designs: &["schema.metric-timestamp"],
        write_actions: NEW * METRICS.len() as u64,
        read_actions: 1,
        a,
        b,
        versus: vec![
            versus(Phase::Writes, Measure::BusiestWriteShare, Rel::Gt, 1.8),
            versus(Phase::Reads, Measure::RowsScanned, Rel::Eq, 4.0),
        ],
    }
}

/// Follows, most of them of a few celebrities; the questions are a celebrity's followers and
/// whether one user follows another.
fn wide_vs_tall() -> Pair {
    const USERS: u64 = 300;
    const HISTORY: u64 = 1_800;
    const NEW: u64 = 200;
    let mut g = Gen::new(23);
    let follows: Vec<(u64, u64)> = (0..HISTORY + NEW)
        .map(|_| (g.skewed(USERS, 3.0), g.below(USERS)))
        .collect();
    let user = |i: u64| format!("u{i:03}");
    let side = |label, key: &'static str, table: &'static str, tall: bool| {
        let write = |s: &mut Script, (followed, follower): (u64, u64)| {
            let (f, r) = (user(followed), user(follower));
            if tall {
                let key = format!("{}{}", md5_hex(&f, 8), md5_hex(&r, 8));
                s.put(table, &key, "f:n", &r);
            } else {
                s.put(table, &f, &format!("f:{r}"), "1");
            }
        };
        let mut s = Script::default();
        s.line(format!("create '{table}', 'f', {SPLIT_SMALL}"));
        for f in &follows[..HISTORY as usize] {
            write(&mut s, *f);
        }
        let setup = s.done();
        for f in &follows[HISTORY as usize..] {
            write(&mut s, *f);
        }
        let writes = s.done();
        // The celebrity, and one of its followers.
        let fan = follows.iter().find(|f| f.0 == 0).map_or(1, |f| f.1);
        let (star, fan) = (user(0), user(fan));
        let reads = if tall {
            format!(
                "scan '{table}', {{ROWPREFIXFILTER => '{}', COLUMNS => ['f:n']}}\nget '{table}', '{}{}'",
                md5_hex(&star, 8),
                md5_hex(&star, 8),
                md5_hex(&fan, 8)
            )
        } else {
            format!("get '{table}', '{star}'\nget '{table}', '{star}', 'f:{fan}'")
        };
        Side::new(label, key, table, setup, writes, reads)
    };
    let mut a = side(
        "Wide: a row per user",
        "<followed>, column f:<follower>",
        "ab_wide",
        false,
    );
    a.claims = vec![
        (Phase::Reads, on(Measure::RowsScanned).eq(2.0)),
        (Phase::Reads, scanned_is_returned()),
    ];
    let mut b = side(
        "Tall: a row per follow",
        "md5(<followed>)[0..8] md5(<follower>)[0..8]",
        "ab_tall",
        true,
    );
    b.claims = vec![
        (Phase::Writes, on(Measure::BusiestWriteShare).lt(50.0)),
        (Phase::Reads, on(Measure::RowsScanned).gt(20.0)),
    ];
    Pair {
        id: "wide-vs-tall",
        title: "Wide rows against tall rows for follows",
        workload: "300 users and 1,800 follows, most of them of a few celebrities; 200 more follows; then the followers of the biggest celebrity, and whether one user follows it.",
        why: "Wide, a celebrity's followers are one row: one get reads them, but the row never splits, so its region takes the celebrity's share of every write. Tall, each follow is its own small row under a hash of the pair: the writes spread and 'does X follow Y' is one get, while the followers are a prefix scan over as many rows, and every follow pays for a longer key.",
        designs: &["schema.tall-vs-wide", "schema.wide-row-overhead", "follow.tall"],
        write_actions: NEW,
        read_actions: 2,
        a,
        b,
        versus: vec![
            versus(Phase::Writes, Measure::BusiestWriteShare, Rel::Gt, 1.0),
            versus(Phase::Writes, Measure::BytesPerRecord, Rel::Lt, 1.0),
            versus(Phase::Reads, Measure::RowsScanned, Rel::Lt, 0.2),
        ],
    }
}

/// Events keyed by their time, in bursts; the question is one minute of them.
fn plain_vs_salted() -> Pair {
    const BUCKETS: u64 = 8;
    const T0: u64 = 1_700_000_000_000;
    const HISTORY: usize = 1_500;
    const NEW: usize = 100;
    let times = bursty_times(&mut Gen::new(10), T0, HISTORY + NEW, 200);
    // The bucket is computed from the time itself, so a reader can compute it again.
    let bucket =
        |ts: u64| u64::from_str_radix(&md5_hex(&ts.to_string(), 2), 16).unwrap_or(0) % BUCKETS;
    let (from, to) = (T0 + 60_000, T0 + 120_000);
    let side = |label, key: &'static str, table: &'static str, salted: bool| {
        let row = |ts: u64| {
            if salted {
                format!("{}-{ts}", bucket(ts))
            } else {
                ts.to_string()
            }
        };
        let mut s = Script::default();
        if salted {
            s.line(format!(
                "create '{table}', 'e', {SPLIT_SMALL}, SPLITS => ['1', '2', '3', '4', '5', '6', '7']"
            ));
        } else {
            s.line(format!("create '{table}', 'e', {SPLIT_SMALL}"));
        }
        for (i, ts) in times[..HISTORY].iter().enumerate() {
            s.put(table, &row(*ts), "e:url", &format!("/p/{}", i % 40));
        }
        let setup = s.done();
        for ts in &times[HISTORY..] {
            s.put(table, &row(*ts), "e:url", "/new");
        }
        let writes = s.done();
        if salted {
            for b in 0..BUCKETS {
                s.line(format!(
                    "count '{table}', {{STARTROW => '{b}-{from}', STOPROW => '{b}-{to}'}}"
                ));
            }
        } else {
            s.line(format!(
                "count '{table}', {{STARTROW => '{from}', STOPROW => '{to}'}}"
            ));
        }
        Side::new(label, key, table, setup, writes, s.done())
    };
    let mut a = side("Plain time keys", "<ts>", "ab_events", false);
    a.claims = vec![
        (Phase::Writes, on(Measure::BusiestWriteShare).gt(90.0)),
        (Phase::Reads, on(Measure::Reads).eq(1.0)),
        (Phase::Reads, scanned_is_returned()),
    ];
    let mut b = side(
        "Salted: 8 buckets",
        "<md5(ts) mod 8>-<ts>",
        "ab_salted",
        true,
    );
    b.claims = vec![
        (Phase::Writes, on(Measure::BusiestWriteShare).lt(25.0)),
        (
            Phase::Writes,
            on(Measure::RegionsTouched).ge(BUCKETS as f64),
        ),
        (Phase::Reads, on(Measure::Reads).eq(BUCKETS as f64)),
        (Phase::Reads, scanned_is_returned()),
    ];
    Pair {
        id: "plain-vs-salted",
        title: "Plain time keys against salted time keys",
        workload: "1,500 events exist, arriving in bursts; 100 more arrive; then every event of one minute.",
        why: "A plain time key sends every new event to the region at the end of the table. A salt of eight buckets in front of the time spreads them over eight regions, and the minute is still exact reads, but it lives in eight places: one scan becomes eight, merged by the client.",
        designs: &["schema.salting", "cases.access-log"],
        write_actions: NEW as u64,
        read_actions: 1,
        a,
        b,
        versus: vec![
            versus(Phase::Writes, Measure::BusiestWriteShare, Rel::Gt, 3.0),
            versus(Phase::Reads, Measure::Reads, Rel::Eq, 1.0 / BUCKETS as f64),
            versus(Phase::Reads, Measure::RowsReturned, Rel::Eq, 1.0),
        ],
    }
}

/// Customer records of three fields; the questions are a few customers by id.
fn long_vs_short_names() -> Pair {
    const HISTORY: u64 = 400;
    const NEW: u64 = 100;
    const LOOKUPS: u64 = 10;
    const COUNTRIES: [&str; 6] = ["CN", "US", "DE", "BR", "IN", "JP"];
    let mut g = Gen::new(31);
    let countries: Vec<&str> = (0..HISTORY + NEW)
        .map(|_| COUNTRIES[g.skewed(COUNTRIES.len() as u64, 2.0) as usize])
        .collect();
    let looked_up: Vec<u64> = (0..LOOKUPS).map(|_| g.recent(HISTORY + NEW, 3.0)).collect();
    let side = |label, key: &'static str, table: &'static str, long: bool| {
        let (family, email, name, country) = if long {
            (
                "customer_profile_information",
                "email_address",
                "display_name",
                "country_code",
            )
        } else {
            ("p", "e", "n", "c")
        };
        let row = |i: u64| {
            if long {
                format!("customer_account_{i:06}")
            } else {
                format!("c{i:06}")
            }
        };
        let record = |s: &mut Script, i: u64| {
            let r = row(i);
            s.put(
                table,
                &r,
                &format!("{family}:{email}"),
                &format!("c{i}@example.com"),
            )
            .put(
                table,
                &r,
                &format!("{family}:{name}"),
                &format!("Customer {i}"),
            )
            .put(
                table,
                &r,
                &format!("{family}:{country}"),
                countries[i as usize],
            );
        };
        let mut s = Script::default();
        s.line(format!("create '{table}', '{family}', {SPLIT_SMALL}"));
        for i in 0..HISTORY {
            record(&mut s, i);
        }
        let setup = s.done();
        for i in HISTORY..HISTORY + NEW {
            record(&mut s, i);
        }
        let writes = s.done();
        for i in &looked_up {
            s.line(format!("get '{table}', '{}'", row(*i)));
        }
        Side::new(label, key, table, setup, writes, s.done())
    };
    let mut a = side(
        "Long names",
        "customer_account_<id>, customer_profile_information:email_address …",
        "ab_longnames",
        true,
    );
    a.claims = vec![(Phase::Writes, on(Measure::BytesPerRecord).gt(250.0))];
    let mut b = side("Short names", "c<id>, p:e …", "ab_shortnames", false);
    b.claims = vec![(Phase::Writes, on(Measure::BytesPerRecord).lt(130.0))];
    Pair {
        id: "long-vs-short-names",
        title: "Long names against short names: bytes per record",
        workload: "400 customers exist, each an email, a display name and a country; 100 more sign up; then 10 customers are looked up by id, recent ones likelier.",
        why: "Every cell repeats its row key, family and qualifier next to the value. The same three fields under long names take more than twice the bytes they take under short ones, so the long-named table fills its regions sooner and splits into more of them, for the same customers and the same answers.",
        designs: &["schema.short-names", "schema.columns-as-data", "schema.wide-row-overhead"],
        write_actions: NEW,
        read_actions: LOOKUPS,
        a,
        b,
        versus: vec![
            versus(Phase::Writes, Measure::BytesPerRecord, Rel::Gt, 2.0),
            versus(Phase::Reads, Measure::RowsReturned, Rel::Eq, 1.0),
        ],
    }
}

/// Pages of a few sites, most of them of one company's sites; the question is every page of
/// example.com.
fn plain_vs_reversed_domains() -> Pair {
    // The few-domains design's sites: most of them one company's.
    const HOSTS: &[&str] = super::schema_guide::SITES;
    const HISTORY: u64 = 1_000;
    const NEW: u64 = 100;
    let mut g = Gen::new(41);
    let pages: Vec<(usize, u64)> = (0..HISTORY + NEW)
        .map(|i| (g.skewed(HOSTS.len() as u64, 1.5) as usize, i))
        .collect();
    let of_example_com = pages.iter().filter(|p| p.0 < 3).count() as f64;
    let side = |label, key: &'static str, table: &'static str, reversed: bool| {
        let row = |(host, i): (usize, u64)| {
            let host = if reversed {
                HOSTS[host].split('.').rev().collect::<Vec<_>>().join(".")
            } else {
                HOSTS[host].to_string()
            };
            format!("{host}/item/{i:05}")
        };
        let mut s = Script::default();
        s.line(format!("create '{table}', 'page', {SPLIT_SMALL}"));
        for p in &pages[..HISTORY as usize] {
            s.put(table, &row(*p), "page:title", &format!("page {}", p.1));
        }
        let setup = s.done();
        for p in &pages[HISTORY as usize..] {
            s.put(table, &row(*p), "page:title", &format!("page {}", p.1));
        }
        let writes = s.done();
        if reversed {
            s.line(format!(
                "count '{table}', {{ROWPREFIXFILTER => 'com.example.'}}"
            ));
        } else {
            s.line(format!(
                "count '{table}', {{FILTER => \"RowFilter(=, 'regexstring:^[a-z]+\\.example\\.com/')\"}}"
            ));
        }
        Side::new(label, key, table, setup, writes, s.done())
    };
    let mut a = side("Plain domains", "<host>/<path>", "ab_domains_plain", false);
    a.claims = vec![(
        Phase::Reads,
        on(Measure::RowsScanned).gt_times(1.5, Measure::RowsReturned),
    )];
    let mut b = side(
        "Reversed domains",
        "<host reversed>/<path>",
        "ab_domains_reversed",
        true,
    );
    b.claims = vec![
        (Phase::Reads, scanned_is_returned()),
        (Phase::Reads, on(Measure::RowsReturned).eq(of_example_com)),
    ];
    Pair {
        id: "plain-vs-reversed-domains",
        title: "Plain domain names against reversed ones",
        workload: "1,000 pages of eight sites exist, three of them example.com's and the busiest; 100 more pages are added; then every page of example.com.",
        why: "Reversed (com.example.products), a company's sites sort next to each other, so all of example.com is one prefix scan that reads only what it returns. Plain (products.example.com), its sites scatter between the others' by their first label, and finding them means reading the whole table through a filter.",
        designs: &["schema.reversed-domain", "schema.few-domains"],
        write_actions: NEW,
        read_actions: 1,
        a,
        b,
        versus: vec![
            versus(Phase::Reads, Measure::RowsScanned, Rel::Gt, 1.5),
            versus(Phase::Reads, Measure::RowsReturned, Rel::Eq, 1.0),
        ],
    }
}
