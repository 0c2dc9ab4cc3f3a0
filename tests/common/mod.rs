//! Helpers shared by the integration tests: an engine on a clock the test moves, and a shell
//! whose output has the timing lines removed.
#![allow(dead_code)]

pub mod cbt;
pub mod session;

use std::cell::Cell as StdCell;
use std::rc::Rc;

use rowkey::engine::{Engine, FamilyDescriptor, Mutation, Scan, TableDescriptor};
use rowkey::shell::Shell;

pub type TestResult = Result<(), Box<dyn std::error::Error>>;

/// A clock the test sets by hand.
#[derive(Clone)]
pub struct Clock(pub Rc<StdCell<u64>>);

impl Clock {
    pub fn at(ms: u64) -> Clock {
        Clock(Rc::new(StdCell::new(ms)))
    }
    pub fn set(&self, ms: u64) {
        self.0.set(ms);
    }
    pub fn advance(&self, ms: u64) {
        self.0.set(self.0.get() + ms);
    }
    pub fn engine(&self) -> Engine {
        let c = self.0.clone();
        Engine::new(Box::new(move || c.get()))
    }
}

/// The start keys of `table`'s regions, in order.
pub fn region_starts(e: &Engine, table: &str) -> Result<Vec<Vec<u8>>, rowkey::engine::Error> {
    Ok(e.table(table)?
        .regions
        .iter()
        .map(|r| r.start.clone())
        .collect())
}

/// An engine at time 1_000_000 holding table `t` of the one family `f`, split at `splits`,
/// flushed by hand only: never flushed, compacted or split on its own.
pub fn hand_flushed(
    f: FamilyDescriptor,
    splits: Vec<Vec<u8>>,
) -> Result<Engine, rowkey::engine::Error> {
    let mut e = Clock::at(1_000_000).engine();
    let mut desc = TableDescriptor::new("t", vec![f]);
    desc.settings = rowkey::engine::TableSettings {
        flush_bytes: 1 << 30,
        compaction_threshold: 100,
        split_bytes: 0,
    };
    e.create_table(desc, splits)?;
    Ok(e)
}

/// An engine at time 1_000_000 with table `t`, families as given (name, versions).
pub fn engine_with(families: &[(&str, u32)]) -> Result<(Engine, Clock), rowkey::engine::Error> {
    let clock = Clock::at(1_000_000);
    let mut e = clock.engine();
    let fams = families
        .iter()
        .map(|(n, v)| {
            let mut f = FamilyDescriptor::new(n);
            f.max_versions = *v;
            f
        })
        .collect();
    e.create_table(TableDescriptor::new("t", fams), vec![])?;
    Ok((e, clock))
}

pub fn put(family: &str, q: &str, ts: Option<u64>, v: &str) -> Mutation {
    Mutation::Put {
        family: family.into(),
        qualifier: q.into(),
        timestamp: ts,
        value: v.into(),
        ttl_ms: None,
    }
}

/// `(ts, value)` of the versions a get of one column returns.
pub fn versions(
    e: &mut Engine,
    row: &str,
    family: &str,
    q: &str,
    max: u32,
) -> Result<Vec<(u64, String)>, rowkey::engine::Error> {
    let mut scan = Scan::get(row.as_bytes());
    scan.columns = vec![(family.into(), Some(q.into()))];
    scan.max_versions = max;
    let out = e.scan("t", &mut scan)?;
    Ok(out
        .rows
        .iter()
        .flat_map(|r| r.cells.iter())
        .map(|c| (c.timestamp, String::from_utf8_lossy(&c.value).into_owned()))
        .collect())
}

/// The row keys a scan returns.
pub fn rows(e: &mut Engine, scan: &mut Scan) -> Result<Vec<String>, rowkey::engine::Error> {
    Ok(e.scan("t", scan)?
        .rows
        .iter()
        .map(|r| String::from_utf8_lossy(r.row()).into_owned())
        .collect())
}

/// A shell on a fixed clock, printing timestamps as epoch milliseconds as
/// `rowkey shell -D hbase.shell.timestamp.format.epoch=true` does.
pub fn shell_at(ms: u64) -> (Shell, Clock) {
    let clock = Clock::at(ms);
    let mut shell = Shell::new(clock.engine(), Box::new(|| 0.0));
    shell.set_property(rowkey::shell::TIMESTAMP_FORMAT_EPOCH, "true");
    (shell, clock)
}

/// Runs commands and returns their output without the `Took` lines.
pub fn run(shell: &mut Shell, input: &str) -> String {
    shell
        .run(input)
        .iter()
        .map(|o| {
            o.output
                .lines()
                .filter(|l| !l.starts_with("Took "))
                .map(|l| format!("{l}\n"))
                .collect::<String>()
        })
        .collect()
}

/// The message of the first error `input` gave, if any.
pub fn error_of(shell: &mut Shell, input: &str) -> Option<String> {
    shell
        .run(input)
        .into_iter()
        .find_map(|o| o.error)
        .map(|e| e.message)
}

/// A fresh shell (epoch timestamps, the clock at 1,700,000,000,000 ms) with `design`'s tables
/// loaded, or the first error its setup script gave.
#[allow(dead_code)]
pub fn shell_with_design(design: &rowkey::designs::Design) -> Result<Shell, String> {
    let (mut sh, _) = shell_at(1_700_000_000_000);
    match sh
        .run(&design.setup_script())
        .into_iter()
        .find_map(|o| o.error)
    {
        Some(e) => Err(format!("{}: setup failed: {}", design.id, e.message)),
        None => Ok(sh),
    }
}

/// `workload` played for one simulated hour in 2-minute steps of 16 samples per operation:
/// any gallery workload in well under a second of a debug build.
pub fn one_simulated_hour(
    mut workload: rowkey::simulate::Workload,
) -> Result<rowkey::simulate::Simulation, rowkey::simulate::SimulateError> {
    workload.duration_ms = 3_600_000;
    workload.step_ms = Some(120_000);
    workload.samples_per_step = Some(16);
    rowkey::simulate::simulate(&workload, &rowkey::simulate::Options::default())
}

/// Every table of an engine as text, for comparing two states: each table's name, whether it
/// is enabled and its regions' start keys, then every cell raw (every version, delete markers
/// included).
pub fn dump(e: &Engine) -> Vec<String> {
    let names: Vec<String> = e.tables().map(|t| t.descriptor.name.clone()).collect();
    let mut out = Vec::new();
    for n in names {
        let t = match e.table(&n) {
            Ok(t) => t,
            Err(_) => continue,
        };
        out.push(format!(
            "table {n} enabled={} regions={:?}",
            t.enabled,
            t.regions
                .iter()
                .map(|r| r.start.clone())
                .collect::<Vec<_>>()
        ));
        if !t.enabled {
            continue;
        }
        let mut raw = Scan {
            raw: true,
            max_versions: u32::MAX,
            ..Scan::default()
        };
        for row in e.read(&n, &mut raw).map(|o| o.rows).unwrap_or_default() {
            for c in row.cells {
                out.push(format!(
                    "{:?} {:?}:{:?} {} {:?} {:?}",
                    c.row, c.family, c.qualifier, c.timestamp, c.kind, c.value
                ));
            }
        }
    }
    out
}

/// A shell at `ms` that runs `commands`, each saved as the app saves it (a checkpoint's plan
/// after every command, applied to the stored records); the first command that fails is the
/// error.
pub fn saved_after(
    ms: u64,
    commands: &[&str],
) -> Result<(Shell, rowkey::persist::StoredRecords), Box<dyn std::error::Error>> {
    let (mut sh, _) = shell_at(ms);
    sh.engine.record_changes(true);
    let mut saver = rowkey::persist::Saver::new();
    let mut stored = rowkey::persist::StoredRecords::default();
    for cmd in commands {
        let out = sh.run(cmd);
        if let Some(e) = out.iter().find_map(|o| o.error.clone()) {
            return Err(format!("{cmd}: {e:?}").into());
        }
        stored.apply(&saver.plan(&mut sh.engine)?);
    }
    Ok((sh, stored))
}
