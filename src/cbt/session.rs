//! A cbt session over Rowkey's engine: one line in, what cbt prints out. The commands are one
//! table ([`COMMANDS`]) that the dispatcher and `help` both read.

use std::collections::BTreeMap;

use super::filter::{ColumnMatch, ReadFilter};
use super::gcpolicy::GcPolicy;
use super::print::{self, ReadStats, Zone};
use super::regex::FullMatch;
use super::{words, Error};
use crate::engine::{self, Engine, FamilyDescriptor, Mutation, Scan, TableDescriptor};

/// What one line printed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    pub stdout: Vec<u8>,
    pub stderr: String,
    /// Whether the command failed (standard error then ends with cbt's error text; without a
    /// failure it may still hold warnings and `import`'s log).
    pub failed: bool,
}

impl Output {
    fn error(message: impl Into<String>) -> Output {
        let mut stderr = message.into();
        stderr.push('\n');
        Output {
            stdout: Vec::new(),
            stderr,
            failed: true,
        }
    }
}

/// What runs a command: the session and the arguments after the command's name, to what it
/// prints on standard output or cbt's error text.
type Handler = fn(&mut Session, &[Vec<u8>]) -> Result<Vec<u8>, String>;

/// Reads a file `import` names: its bytes, or the error as Go words it.
pub type ReadFile = Box<dyn Fn(&str) -> Result<Vec<u8>, String>>;

/// One `family:column=value[@timestamp]` of `set` or `addtocell`.
struct CellArg {
    family: Vec<u8>,
    qualifier: Vec<u8>,
    timestamp: Option<u64>,
    value: Vec<u8>,
}

/// A cbt command: its name, one-line description, handler and `cbt help NAME` text.
pub struct Command {
    pub name: &'static str,
    pub desc: &'static str,
    run: Handler,
    pub help: &'static str,
}

/// The cbt commands Rowkey runs, in cbt's order. `compact` is Rowkey's own: Bigtable compacts
/// in the background, Rowkey when asked.
pub const COMMANDS: &[Command] = &[
    cmd("addtocell", "Add a value to an aggregate cell (write)", Session::addtocell, include_str!("help/addtocell.txt")),
    cmd("count", "Count rows in a table", Session::count, include_str!("help/count.txt")),
    cmd("createfamily", "Create a column family", Session::createfamily, include_str!("help/createfamily.txt")),
    cmd("createtable", "Create a table", Session::createtable, include_str!("help/createtable.txt")),
    cmd("deleteallrows", "Delete all rows", Session::deleteallrows, include_str!("help/deleteallrows.txt")),
    cmd("deletecolumn", "Delete all cells in a column", Session::deletecolumn, include_str!("help/deletecolumn.txt")),
    cmd("deletefamily", "Delete a column family", Session::deletefamily, include_str!("help/deletefamily.txt")),
    cmd("deleterow", "Delete a row", Session::deleterow, include_str!("help/deleterow.txt")),
    cmd("deletetable", "Delete a table", Session::deletetable, include_str!("help/deletetable.txt")),
    cmd("help", "Print help text", Session::help, include_str!("help/help.txt")),
    cmd("import", "Batch write many rows based on the input file", Session::import, include_str!("help/import.txt")),
    cmd("lookup", "Read from a single row", Session::lookup, include_str!("help/lookup.txt")),
    cmd("ls", "List tables and column families", Session::ls, include_str!("help/ls.txt")),
    cmd("read", "Read rows", Session::read, include_str!("help/read.txt")),
    cmd("set", "Set value of a cell (write)", Session::set, include_str!("help/set.txt")),
    cmd("setgcpolicy", "Set the garbage-collection policy (age, versions) for a column family", Session::setgcpolicy, include_str!("help/setgcpolicy.txt")),
    cmd("version", "Print the current cbt version", Session::version, include_str!("help/version.txt")),
    cmd("export", "Print a table as a cbt script or a CSV for cbt import (Rowkey)", Session::export, "cbt export <table-id> [format=script|csv]\n\n    Rowkey's own: prints the table as a cbt script (createtable with families, policies and\n    splits, then one set per row) or as a CSV for `cbt import <table-id> FILE timestamp=value-encoded`.\n"),
    cmd("compact", "Run a compaction now, applying garbage-collection policies (Rowkey)", Session::compact, "cbt compact <table-id>\n\n    Rowkey's own: Bigtable compacts in the background; Rowkey compacts when asked.\n"),
];

const fn cmd(name: &'static str, desc: &'static str, run: Handler, help: &'static str) -> Command {
    Command {
        name,
        desc,
        run,
        help,
    }
}

/// The version cbt 1.23.2 prints, which Rowkey's dialect follows.
pub const CBT_VERSION: &str = "1.23.2 9eeb4a7 2025-04-22 20:49:45";

/// Bigtable's rules for the engine: no delete markers, garbage collection at compaction,
/// microseconds at millisecond granularity.
pub const BIGTABLE_RULES: engine::Rules = engine::Rules {
    deletes: engine::DeleteMasking::NoMarkers,
    retention: engine::Retention::AtCompaction,
    timestamps: engine::TimestampUnit::MicrosAtMillis,
};

/// Attribute keys under which a Bigtable table keeps what cbt shows of a family.
const GC_ATTRIBUTE: &str = "bigtable.gc.";
const TYPE_ATTRIBUTE: &str = "bigtable.type.";

/// A cbt session: the engine, the project and instance cbt's error texts name, the time zone,
/// the working directory `import` reads from, and the lines of standard error the lint wrote.
pub struct Session {
    pub engine: Engine,
    pub project: String,
    pub instance: String,
    pub zone: Zone,
    /// Reads a file for `import` (natively the file system; in the page, files the person gave).
    pub read_file: ReadFile,
    /// Milliseconds since some start, for `frontend_server_latency`.
    pub timer: Box<dyn Fn() -> f64>,
    warnings: Vec<String>,
}

impl Session {
    pub fn new(engine: Engine) -> Session {
        Session {
            engine,
            project: "p".into(),
            instance: "i".into(),
            zone: Zone::UTC,
            read_file: Box::new(|name| Err(format!("open {name}: no such file or directory"))),
            timer: Box::new(|| 0.0),
            warnings: Vec::new(),
        }
    }

    /// Runs one line: an optional leading `cbt` and its flags, then a command.
    pub fn run_line(&mut self, line: &str) -> Output {
        let args = match words::split(line) {
            Ok(args) => args,
            Err(e) => return Output::error(e.to_string()),
        };
        let mut args = args.as_slice();
        if args.is_empty() {
            return Output::default();
        }
        if args.first().is_some_and(|a| a == b"cbt") {
            args = &args[1..];
        }
        // cbt's flags (Go's `flag` package: `-name value`, `-name=value`, `--name`).
        while let Some(first) = args.first() {
            let text = String::from_utf8_lossy(first).into_owned();
            let Some(flag) = text.strip_prefix("--").or_else(|| text.strip_prefix('-')) else {
                break;
            };
            let (name, inline) = match flag.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (flag.to_string(), None),
            };
            const FLAGS: &[&str] = &[
                "project",
                "instance",
                "creds",
                "timeout",
                "o",
                "access-token",
                "admin-endpoint",
                "auth-token",
                "cert-file",
                "data-endpoint",
                "user-agent",
            ];
            if !FLAGS.contains(&name.as_str()) {
                return Output::error(format!("flag provided but not defined: -{name}"));
            }
            let (value, used) = match inline {
                Some(v) => (v, 1),
                None => match args.get(1) {
                    Some(v) => (String::from_utf8_lossy(v).into_owned(), 2),
                    None => return Output::error(format!("flag needs an argument: -{name}")),
                },
            };
            match name.as_str() {
                "project" => self.project = value,
                "instance" => self.instance = value,
                _ => {}
            }
            args = &args[used..];
        }
        let Some(name) = args.first() else {
            return Output::error(usage());
        };
        let name = String::from_utf8_lossy(name).into_owned();
        let Some(command) = COMMANDS.iter().find(|c| c.name == name) else {
            return Output::error(format!(
                "Unknown command {}",
                print::go_quote(name.as_bytes())
            ));
        };
        self.warnings.clear();
        let result = (command.run)(self, &args[1..]);
        let mut stderr: String = self.warnings.drain(..).map(|w| w + "\n").collect();
        match result {
            Ok(stdout) => Output {
                stdout,
                stderr,
                failed: false,
            },
            Err(message) => {
                stderr.push_str(&message);
                stderr.push('\n');
                Output {
                    stdout: Vec::new(),
                    stderr,
                    failed: true,
                }
            }
        }
    }

    fn table_path(&self, table: &str) -> String {
        format!(
            "projects/{}/instances/{}/tables/{table}",
            self.project, self.instance
        )
    }

    fn not_found(&self, action: &str, table: &str) -> String {
        format!(
            "{action}: rpc error: code = NotFound desc = table {} not found",
            print::go_quote(self.table_path(table).as_bytes())
        )
    }

    fn bigtable(&self, action: &str, table: &str) -> Result<&engine::Table, String> {
        self.engine
            .table(table)
            .map_err(|_| self.not_found(action, table))
    }

    // ---- admin -------------------------------------------------------------------------

    fn createtable(&mut self, args: &[Vec<u8>]) -> Result<Vec<u8>, String> {
        let Some(table) = args.first() else {
            return Err("usage: cbt createtable <table> [families=family[:gcpolicy[:type]],...] [splits=split,...]".into());
        };
        let table = text(table);
        let parsed = parse_args(&args[1..], &["families", "splits"])?;
        let mut families: Vec<(String, GcPolicy, Option<String>)> = Vec::new();
        if let Some(spec) = parsed.get("families") {
            for entry in
                csv_record(&spec).map_err(|e| format!("Invalid families arg format: {e}"))?
            {
                let mut parts = entry.splitn(3, ':');
                let name = parts.next().unwrap_or_default().to_string();
                let policy = match parts.next() {
                    Some(p) => {
                        GcPolicy::parse(p).map_err(|e| format!("invalid GC policy: {}", e.0))?
                    }
                    None => GcPolicy::Never,
                };
                let value_type = match parts.next() {
                    Some(t @ ("intsum" | "intmin" | "intmax" | "inthll")) => Some(t.to_string()),
                    Some(other) => return Err(format!("unknown type {other}")),
                    None => None,
                };
                if !families.iter().any(|f| f.0 == name) {
                    families.push((name, policy, value_type));
                }
            }
        }
        let splits: Vec<Vec<u8>> = match parsed.get("splits") {
            Some(spec) => csv_record(&spec)
                .map_err(|e| format!("Invalid splits arg format: {e}"))?
                .into_iter()
                .map(String::into_bytes)
                .collect(),
            None => Vec::new(),
        };
        if self.engine.exists(&table) {
            return Err(format!(
                "Creating table: rpc error: code = AlreadyExists desc = table {} already exists",
                print::go_quote(self.table_path(&table).as_bytes())
            ));
        }
        let mut desc = TableDescriptor::new(&table, Vec::new());
        desc.rules = BIGTABLE_RULES;
        for (name, policy, value_type) in &families {
            desc.families.push(family(name, policy));
            if !matches!(policy, GcPolicy::Never) {
                desc.attributes
                    .insert(format!("{GC_ATTRIBUTE}{name}"), policy.to_cbt());
            }
            if let Some(t) = value_type {
                desc.attributes
                    .insert(format!("{TYPE_ATTRIBUTE}{name}"), t.clone());
            }
        }
        self.engine
            .create_table(desc, splits)
            .map_err(|e| format!("Creating table: rpc error: code = InvalidArgument desc = {e}"))?;
        Ok(Vec::new())
    }

    fn createfamily(&mut self, args: &[Vec<u8>]) -> Result<Vec<u8>, String> {
        let [table, fam] = args else {
            return Err("usage: cbt createfamily <table> <family>".into());
        };
        let (table, fam) = (text(table), text(fam));
        let t = self.bigtable("Creating column family", &table)?;
        if t.descriptor.family(fam.as_bytes()).is_some() {
            return Err(format!(
                "Creating column family: rpc error: code = AlreadyExists desc = family {} already exists",
                print::go_quote(fam.as_bytes())
            ));
        }
        self.engine
            .alter_family(&table, family(&fam, &GcPolicy::Never))
            .map_err(|e| {
                format!("Creating column family: rpc error: code = InvalidArgument desc = {e}")
            })?;
        Ok(Vec::new())
    }

    fn deletefamily(&mut self, args: &[Vec<u8>]) -> Result<Vec<u8>, String> {
        let [table, fam] = args else {
            return Err("usage: cbt deletefamily <table> <family>".into());
        };
        let (table, fam) = (text(table), text(fam));
        let t = self.bigtable("Deleting column family", &table)?;
        if t.descriptor.family(fam.as_bytes()).is_none() {
            return Err(format!(
                "Deleting column family: rpc error: code = Unknown desc = can't delete unknown family {}",
                print::go_quote(fam.as_bytes())
            ));
        }
        let mut attributes = t.descriptor.attributes.clone();
        let settings = t.descriptor.settings;
        attributes.remove(&format!("{GC_ATTRIBUTE}{fam}"));
        attributes.remove(&format!("{TYPE_ATTRIBUTE}{fam}"));
        self.engine
            .delete_family(&table, &fam)
            .and_then(|()| {
                self.engine
                    .set_table_attributes(&table, settings, attributes)
            })
            .map_err(|e| format!("Deleting column family: rpc error: code = Unknown desc = {e}"))?;
        Ok(Vec::new())
    }

    fn deletetable(&mut self, args: &[Vec<u8>]) -> Result<Vec<u8>, String> {
        let [table] = args else {
            return Err(format!("Can't do `cbt deletetable {}`", go_slice(args)));
        };
        let table = text(table);
        self.bigtable("Deleting table", &table)?;
        self.engine
            .disable(&table)
            .and_then(|()| self.engine.drop_table(&table))
            .map_err(|e| format!("Deleting table: {e}"))?;
        Ok(Vec::new())
    }

    fn deleteallrows(&mut self, args: &[Vec<u8>]) -> Result<Vec<u8>, String> {
        let [table] = args else {
            return Err(format!("Can't do `cbt deleteallrows {}`", go_slice(args)));
        };
        let table = text(table);
        self.bigtable("Deleting all rows", &table)?;
        self.engine
            .truncate(&table, true)
            .map_err(|e| format!("Deleting all rows: {e}"))?;
        Ok(Vec::new())
    }

    fn setgcpolicy(&mut self, args: &[Vec<u8>]) -> Result<Vec<u8>, String> {
        if args.len() < 3 {
            return Err("usage: cbt setgcpolicy <table> <family> ((maxage=<d> | maxversions=<n>) [(and|or) (maxage=<d> | maxversions=<n>),...] | never) [force]".into());
        }
        let (table, fam) = (text(&args[0]), text(&args[1]));
        let mut rest: Vec<String> = args[2..].iter().map(|a| text(a)).collect();
        if rest.last().is_some_and(|l| l == "force") {
            rest.pop();
        }
        let policy =
            GcPolicy::parse(&rest.join(" ")).map_err(|e| format!("invalid GC policy: {}", e.0))?;
        let t = self.bigtable("Setting GC policy", &table)?;
        let Some(existing) = t.descriptor.family(fam.as_bytes()) else {
            return Err(format!(
                "Setting GC policy: rpc error: code = Unknown desc = no such family {}",
                print::go_quote(fam.as_bytes())
            ));
        };
        let mut descriptor = existing.clone();
        policy.apply_to(&mut descriptor);
        let mut attributes = t.descriptor.attributes.clone();
        let settings = t.descriptor.settings;
        let key = format!("{GC_ATTRIBUTE}{fam}");
        match policy {
            GcPolicy::Never => attributes.remove(&key),
            _ => attributes.insert(key, policy.to_cbt()),
        };
        self.engine
            .alter_family(&table, descriptor)
            .and_then(|()| {
                self.engine
                    .set_table_attributes(&table, settings, attributes)
            })
            .map_err(|e| format!("Setting GC policy: {e}"))?;
        Ok(Vec::new())
    }

    fn ls(&mut self, args: &[Vec<u8>]) -> Result<Vec<u8>, String> {
        match args {
            [] => {
                let mut out = String::new();
                for t in self.engine.tables() {
                    if t.descriptor.rules == BIGTABLE_RULES {
                        out.push_str(&t.descriptor.name);
                        out.push('\n');
                    }
                }
                Ok(out.into_bytes())
            }
            [table] => {
                let table = text(table);
                let t = self.bigtable("Getting table info", &table)?;
                let mut lines = vec![
                    vec![
                        "Family Name".to_string(),
                        "GC Policy".into(),
                        "Value Type".into(),
                    ],
                    vec![
                        "-----------".to_string(),
                        "---------".into(),
                        "----------".into(),
                    ],
                ];
                let attrs = &t.descriptor.attributes;
                for f in &t.descriptor.families {
                    let gc = attrs
                        .get(&format!("{GC_ATTRIBUTE}{}", f.name))
                        .and_then(|p| GcPolicy::parse(p).ok())
                        .map(|p| p.display())
                        .unwrap_or_default();
                    let value_type = match attrs.get(&format!("{TYPE_ATTRIBUTE}{}", f.name)) {
                        Some(t) => value_type_json(t),
                        None => "{}".to_string(),
                    };
                    lines.push(vec![f.name.clone(), gc, value_type]);
                }
                Ok(print::tabwriter(&lines).into_bytes())
            }
            _ => Err(format!("Can't do `cbt ls {}`", go_slice(args))),
        }
    }

    fn compact(&mut self, args: &[Vec<u8>]) -> Result<Vec<u8>, String> {
        let [table] = args else {
            return Err("usage: cbt compact <table>".into());
        };
        let table = text(table);
        self.bigtable("Compacting", &table)?;
        self.engine
            .flush(&table)
            .and_then(|()| self.engine.compact(&table, true))
            .map_err(|e| format!("Compacting: {e}"))?;
        Ok(Vec::new())
    }

    // ---- writes ------------------------------------------------------------------------

    fn set(&mut self, args: &[Vec<u8>]) -> Result<Vec<u8>, String> {
        self.write(args, false)
    }

    fn addtocell(&mut self, args: &[Vec<u8>]) -> Result<Vec<u8>, String> {
        self.write(args, true)
    }

    /// `set` and `addtocell`: `family:column=value[@timestamp]` arguments, one mutation.
    fn write(&mut self, args: &[Vec<u8>], add: bool) -> Result<Vec<u8>, String> {
        if args.len() < 3 {
            return Err(if add {
                "usage: cbt addtocell <table> <row> [app-profile=<app profile id>] family:[column]=val[@ts] ...".into()
            } else {
                "usage: cbt set <table> <row> [authorized-view=<authorized-view-id>] [app-profile=<app profile id>] family:[column]=val[@ts] ...".into()
            });
        }
        let table = text(&args[0]);
        let row = args[1].clone();
        let mut cells: Vec<CellArg> = Vec::new();
        for arg in &args[2..] {
            if arg.starts_with(b"app-profile=") || (!add && arg.starts_with(b"authorized-view=")) {
                continue;
            }
            // `([^:]+):([^=]*)=(.*)`: the family up to the first colon, the column up to the
            // next `=`.
            let parsed = arg
                .iter()
                .position(|&c| c == b':')
                .filter(|&c| c > 0)
                .and_then(|colon| {
                    let rest = &arg[colon + 1..];
                    let eq = rest.iter().position(|&c| c == b'=')?;
                    Some((
                        arg[..colon].to_vec(),
                        rest[..eq].to_vec(),
                        rest[eq + 1..].to_vec(),
                    ))
                });
            let Some((fam, qual, mut value)) = parsed.map(|(f, q, mut v)| {
                // Go's `(.*)` stops at a line break: the value ends there.
                if let Some(nl) = v.iter().position(|&c| c == b'\n') {
                    v.truncate(nl);
                }
                (f, q, v)
            }) else {
                let word = if add {
                    "Bad addtocell arg"
                } else {
                    "Bad set arg"
                };
                return Err(format!("{word} {}", print::go_quote(arg)));
            };
            let ts = take_timestamp(&mut value);
            if add {
                let n = go_parse_int(&value)
                    .ok_or_else(|| "Only int values are supported by addtocell.".to_string())?;
                value = n.to_be_bytes().to_vec();
            }
            let ts = match ts {
                Some(n) if n < 0 => {
                    return Err("Applying mutation: rpc error: code = InvalidArgument desc = Error in field 'timestamp_micros' : negative timestamp".into())
                }
                Some(n) => Some(n as u64),
                None => None,
            };
            cells.push(CellArg {
                family: fam,
                qualifier: qual,
                timestamp: ts,
                value,
            });
        }
        let action = "Applying mutation";
        let t = self.bigtable(action, &table)?;
        if row.is_empty() {
            return Err(format!(
                "{action}: rpc error: code = InvalidArgument desc = Row keys must be non-empty"
            ));
        }
        for (i, cell) in cells.iter().enumerate() {
            let (fam, ts) = (&cell.family, cell.timestamp);
            if t.descriptor.family(fam).is_none() {
                return Err(format!(
                    "{action}: rpc error: code = Unknown desc = unknown family {}",
                    print::go_quote(fam)
                ));
            }
            let aggregate = t
                .descriptor
                .attributes
                .contains_key(&format!("{TYPE_ATTRIBUTE}{}", String::from_utf8_lossy(fam)));
            if add && !aggregate {
                return Err(format!(
                    "{action}: rpc error: code = Unknown desc = illegal attempt to use AddToCell on non-aggregate cell"
                ));
            }
            // Bigtable's tables count microseconds at millisecond granularity
            // (https://cloud.google.com/bigtable/docs/garbage-collection).
            if let Some(ts) = ts {
                if ts % 1_000 != 0 {
                    return Err(format!(
                        "{action}: rpc error: code = InvalidArgument desc = Error in Mutation list : Error in element #{i} : Timestamp granularity mismatch. Expected a multiple of 1000 (millisecond granularity), but got {ts}."
                    ));
                }
            }
        }
        let mut mutations = Vec::with_capacity(cells.len());
        for CellArg {
            family: fam,
            qualifier: qual,
            timestamp: ts,
            value,
        } in cells
        {
            if let Some(ts) = ts {
                if let Some(line) = super::lint::epoch_millis_warning(ts) {
                    self.warnings.push(line);
                }
            }
            let value = if add {
                self.aggregate(&table, &row, &fam, &qual, ts, &value)
            } else {
                value
            };
            mutations.push(Mutation::Put {
                family: fam,
                qualifier: qual,
                timestamp: ts,
                value,
                ttl_ms: None,
            });
        }
        self.engine
            .mutate(&table, &row, &mutations)
            .map_err(|e| format!("{action}: rpc error: code = InvalidArgument desc = {e}"))?;
        Ok(Vec::new())
    }

    /// The new value of an aggregate cell: the input combined with the cell already at that
    /// timestamp by the family's aggregator (sum, min or max of 64-bit big-endian integers).
    fn aggregate(
        &mut self,
        table: &str,
        row: &[u8],
        fam: &[u8],
        qual: &[u8],
        ts: Option<u64>,
        input: &[u8],
    ) -> Vec<u8> {
        let kind = self
            .engine
            .table(table)
            .ok()
            .and_then(|t| {
                t.descriptor
                    .attributes
                    .get(&format!("{TYPE_ATTRIBUTE}{}", String::from_utf8_lossy(fam)))
                    .cloned()
            })
            .unwrap_or_default();
        let Some(ts) = ts else {
            return input.to_vec();
        };
        let mut scan = Scan::get(row);
        scan.columns = vec![(fam.to_vec(), Some(qual.to_vec()))];
        scan.max_versions = u32::MAX;
        scan.time_range = (ts, ts.saturating_add(1));
        let old = self
            .engine
            .read(table, &mut scan)
            .ok()
            .and_then(|out| out.rows.into_iter().next())
            .and_then(|r| r.cells.into_iter().next())
            .and_then(|c| <[u8; 8]>::try_from(c.value.as_slice()).ok())
            .map(i64::from_be_bytes);
        let new = <[u8; 8]>::try_from(input)
            .map(i64::from_be_bytes)
            .unwrap_or(0);
        let combined = match (old, kind.as_str()) {
            (None, _) => new,
            (Some(o), "intmin") => o.min(new),
            (Some(o), "intmax") => o.max(new),
            (Some(o), _) => o.wrapping_add(new),
        };
        combined.to_be_bytes().to_vec()
    }

    fn deleterow(&mut self, args: &[Vec<u8>]) -> Result<Vec<u8>, String> {
        if args.len() < 2 {
            return Err("usage: cbt deleterow <table> <row> [app-profile=<app profile id>]".into());
        }
        parse_args(&args[2..], &["app-profile"])?;
        let table = text(&args[0]);
        self.bigtable("Deleting row", &table)?;
        if args[1].is_empty() {
            return Err(
                "Deleting row: rpc error: code = InvalidArgument desc = Row keys must be non-empty"
                    .into(),
            );
        }
        self.engine
            .mutate(&table, &args[1], &[Mutation::DeleteRow { timestamp: None }])
            .map_err(|e| format!("Deleting row: {e}"))?;
        Ok(Vec::new())
    }

    fn deletecolumn(&mut self, args: &[Vec<u8>]) -> Result<Vec<u8>, String> {
        if args.len() < 4 {
            return Err("usage: cbt deletecolumn <table> <row> <family> <column> [app-profile=<app profile id>]".into());
        }
        parse_args(&args[4..], &["app-profile"])?;
        let table = text(&args[0]);
        let t = self.bigtable("Deleting cells in column", &table)?;
        if args[1].is_empty() {
            return Err("Deleting cells in column: rpc error: code = InvalidArgument desc = Row keys must be non-empty".into());
        }
        if t.descriptor.family(&args[2]).is_none() {
            return Err(format!(
                "Deleting cells in column: rpc error: code = Unknown desc = unknown family {}",
                print::go_quote(&args[2])
            ));
        }
        self.engine
            .mutate(
                &table,
                &args[1],
                &[Mutation::Delete {
                    family: args[2].clone(),
                    qualifier: Some(args[3].clone()),
                    timestamp: None,
                    all_versions: true,
                }],
            )
            .map_err(|e| format!("Deleting cells in column: {e}"))?;
        Ok(Vec::new())
    }

    /// `import TABLE FILE`: a CSV whose first rows name families (unless `column-family=`
    /// names the one family) and columns; each later row is a key and its cells.
    fn import(&mut self, args: &[Vec<u8>]) -> Result<Vec<u8>, String> {
        if args.len() < 2 {
            return Err("usage: cbt import <table> <input-file> [app-profile=<app-profile-id>] [column-family=<family-name>] [batch-size=<500>] [workers=<1>] [timestamp=<now|value-encoded>]".into());
        }
        let parsed = parse_args(
            &args[2..],
            &[
                "app-profile",
                "column-family",
                "batch-size",
                "workers",
                "timestamp",
            ],
        )?;
        let value_encoded = match parsed.get("timestamp").as_deref() {
            None | Some("now") => false,
            Some("value-encoded") => true,
            Some(_) => return Err(
                "error parsing importer args: timestamp must be one of 'now' or 'value-encoded'"
                    .into(),
            ),
        };
        let mut batch_size = 500;
        for (key, slot) in [("batch-size", Some(&mut batch_size)), ("workers", None)] {
            if let Some(v) = parsed.get(key) {
                match v.parse::<i64>() {
                    Ok(n) if n > 0 => {
                        if let Some(slot) = slot {
                            *slot = n as usize;
                        }
                    }
                    Ok(_) => return Err(format!("error parsing importer args: {key} must be > 0, err:<nil>")),
                    Err(_) => {
                        return Err(format!(
                            "error parsing importer args: {key} must be > 0, err:strconv.Atoi: parsing {}: invalid syntax",
                            print::go_quote(v.as_bytes())
                        ))
                    }
                }
            }
        }
        let table = text(&args[0]);
        let file = text(&args[1]);
        let data =
            (self.read_file)(&file).map_err(|e| format!("couldn't open the csv file: {e}"))?;
        let records = super::csv::read_lines(&data)?;
        let mut records = records.into_iter();
        let width = records
            .as_slice()
            .first()
            .map(|(_, r)| r.len())
            .unwrap_or(0);
        let mut header = |name: &str| -> Result<Vec<String>, String> {
            let (line, record) = records
                .next()
                .ok_or_else(|| format!("error parsing headers: {name} header reader error:EOF"))?;
            if record.len() != width {
                return Err(format!(
                    "error parsing headers: {name} header reader error:record on line {line}: wrong number of fields"
                ));
            }
            if record.first().is_some_and(|f| !f.is_empty()) {
                return Err("error parsing headers: the first column must be empty for column-family and column name rows".into());
            }
            Ok(record)
        };
        let families: Vec<String> = match parsed.get("column-family") {
            Some(f) => {
                let columns = header("columns")?;
                let families = vec![f; columns.len()];
                return self.import_rows(
                    &table,
                    &families,
                    &columns,
                    records,
                    width,
                    value_encoded,
                    batch_size,
                );
            }
            None => {
                let first = header("family")?;
                let mut current = String::new();
                first
                    .iter()
                    .map(|name| {
                        if !name.is_empty() {
                            current = name.clone();
                        }
                        current.clone()
                    })
                    .collect()
            }
        };
        let columns = header("columns")?;
        self.import_rows(
            &table,
            &families,
            &columns,
            records,
            width,
            value_encoded,
            batch_size,
        )
    }

    /// Writes the data rows of an import in batches, as cbt logs them.
    #[allow(clippy::too_many_arguments)]
    fn import_rows(
        &mut self,
        table: &str,
        families: &[String],
        columns: &[String],
        records: impl Iterator<Item = (usize, Vec<String>)>,
        width: usize,
        value_encoded: bool,
        batch_size: usize,
    ) -> Result<Vec<u8>, String> {
        let mut rows: Vec<(Vec<u8>, Vec<Mutation>)> = Vec::new();
        for (line, record) in records {
            if record.len() != width {
                return Err(format!("record on line {line}: wrong number of fields"));
            }
            let key = record.first().cloned().unwrap_or_default().into_bytes();
            let mut mutations = Vec::new();
            for (i, value) in record.iter().enumerate().skip(1) {
                if value.is_empty() {
                    continue;
                }
                let mut value = value.as_bytes().to_vec();
                let ts = if value_encoded {
                    take_timestamp(&mut value)
                        .filter(|n| *n >= 0)
                        .map(|n| n as u64)
                } else {
                    None
                };
                if let Some(line) = ts.and_then(super::lint::epoch_millis_warning) {
                    if !self.warnings.contains(&line) {
                        self.warnings.push(line);
                    }
                }
                mutations.push(Mutation::Put {
                    family: families.get(i).cloned().unwrap_or_default().into_bytes(),
                    qualifier: columns.get(i).cloned().unwrap_or_default().into_bytes(),
                    timestamp: ts,
                    value,
                    ttl_ms: None,
                });
            }
            rows.push((key, mutations));
        }
        let exists = self.engine.exists(table);
        let mut log = String::new();
        let mut errors = 0;
        let mut first_error = None;
        for batch in rows.chunks(batch_size.max(1)) {
            let (Some(first), Some(last)) = (batch.first(), batch.last()) else {
                continue;
            };
            log.push_str(&format!(
                "[0] Writing batch:: size: {}, firstRowKey: {}, lastRowKey: {}\n",
                batch.len(),
                text(&first.0),
                text(&last.0)
            ));
            for (key, mutations) in batch {
                let unknown = self.engine.table(table).ok().and_then(|t| {
                    mutations.iter().find_map(|m| match m {
                        Mutation::Put { family, .. } if t.descriptor.family(family).is_none() => {
                            Some(family.clone())
                        }
                        _ => None,
                    })
                });
                let failure = if !exists {
                    Some(format!(
                        "rpc error: code = NotFound desc = table {} not found",
                        print::go_quote(self.table_path(table).as_bytes())
                    ))
                } else if let Some(f) = unknown {
                    Some(format!(
                        "rpc error: code = Internal desc = unknown family {}",
                        print::go_quote(&f)
                    ))
                } else if key.is_empty() {
                    Some(
                        "rpc error: code = InvalidArgument desc = Row keys must be non-empty"
                            .into(),
                    )
                } else {
                    self.engine
                        .mutate(table, key, mutations)
                        .err()
                        .map(|e| e.to_string())
                };
                if let Some(f) = failure {
                    errors += 1;
                    first_error.get_or_insert(f);
                }
            }
        }
        if let Some(first) = first_error {
            self.warnings.push(log.trim_end().to_string());
            return Err(format!(
                "error: applying bulk mutations had {errors} errors, first:{first}"
            ));
        }
        log.push_str(&format!("Done importing {} rows.", rows.len()));
        self.warnings.push(log);
        Ok(Vec::new())
    }

    // ---- reads -------------------------------------------------------------------------

    fn lookup(&mut self, args: &[Vec<u8>]) -> Result<Vec<u8>, String> {
        if args.len() < 2 {
            return Err("usage: cbt lookup <table> <row> [columns=<family:qualifier>...] [cells-per-column=<n>] [app-profile=<app profile id>]".into());
        }
        let parsed = parse_args(
            &args[2..],
            &[
                "columns",
                "cells-per-column",
                "app-profile",
                "format-file",
                "keys-only",
                "include-stats",
                "authorized-view",
            ],
        )?;
        let table = text(&args[0]);
        let (filter, deferred) = read_filter(&parsed)?;
        let include_stats = include_stats(&parsed)?;
        let mut scan = Scan::get(&args[1]);
        scan.max_versions = u32::MAX;
        let stats = std::rc::Rc::clone(&filter.stats);
        scan.filter = Some(Box::new(filter));
        let started = (self.timer)();
        self.bigtable("Reading row", &table)?;
        if let Some(e) = deferred {
            if self.any_row(&table, Scan::get(&args[1])) {
                return Err(format!("Reading row: {e}"));
            }
        }
        let result = self
            .engine
            .scan(&table, &mut scan)
            .map_err(|e| format!("Reading row: {e}"))?;
        let mut out = Vec::new();
        let (key, cells) = match result.rows.first() {
            Some(r) => (r.row.as_slice(), r.cells.as_slice()),
            None => (&[][..], &[][..]),
        };
        print::row(&mut out, key, cells, &self.zone);
        if include_stats {
            let mut s = *stats.borrow();
            s.rows_returned = result.rows.len() as u64;
            s.cells_returned = cells.len() as u64;
            print::stats(&mut out, &s, ((self.timer)() - started) as u64);
        }
        Ok(out)
    }

    fn read(&mut self, args: &[Vec<u8>]) -> Result<Vec<u8>, String> {
        if args.is_empty() {
            return Err("usage: cbt read <table> [args ...]".into());
        }
        let parsed = parse_args(
            &args[1..],
            &[
                "start",
                "end",
                "prefix",
                "columns",
                "count",
                "cells-per-column",
                "regex",
                "app-profile",
                "limit",
                "reversed",
                "format-file",
                "keys-only",
                "include-stats",
                "authorized-view",
            ],
        )?;
        if parsed.contains_key("limit") {
            return Err("Unknown arg key 'limit'; did you mean 'end'?".into());
        }
        let get = |k: &str| parsed.bytes(k);
        if (!get("start").is_empty() || !get("end").is_empty()) && !get("prefix").is_empty() {
            return Err("\"start\"/\"end\" may not be mixed with \"prefix\"".into());
        }
        let reversed = match parsed.get("reversed") {
            Some(v) => go_parse_bool(&v)?,
            None => false,
        };
        let mut limit = None;
        if let Some(count) = parsed.get("count").filter(|c| !c.is_empty()) {
            let n = go_parse_int(count.as_bytes()).ok_or_else(|| {
                format!(
                    "Bad count {}: strconv.ParseInt: parsing {}: invalid syntax",
                    print::go_quote(count.as_bytes()),
                    print::go_quote(count.as_bytes())
                )
            })?;
            // `count=0` (or less) reads no row at all.
            limit = Some(n.max(0) as usize);
        }
        let (mut filter, deferred) = read_filter(&parsed)?;
        let include_stats = include_stats(&parsed)?;
        let table = text(&args[0]);
        let (start, end) = if !get("prefix").is_empty() {
            let p = get("prefix");
            let stop = crate::bytes::prefix_stop(&p);
            (p, stop)
        } else {
            (get("start"), get("end"))
        };
        let mut scan = Scan {
            max_versions: u32::MAX,
            limit,
            reversed,
            ..Scan::default()
        };
        if reversed {
            // The engine's reversed scan starts at its highest row, inclusive; the end stays
            // exclusive through the filter.
            scan.start_row = end.clone();
            scan.stop_row = start;
            scan.stop_inclusive = !scan.stop_row.is_empty();
            if !end.is_empty() {
                filter.end_exclusive = Some(end);
            }
        } else {
            scan.start_row = start;
            scan.stop_row = end;
        }
        let stats = std::rc::Rc::clone(&filter.stats);
        scan.filter = Some(Box::new(filter));
        let started = (self.timer)();
        self.bigtable("Reading rows", &table)?;
        if let Some(e) = deferred {
            let probe = Scan {
                start_row: scan.start_row.clone(),
                stop_row: scan.stop_row.clone(),
                stop_inclusive: scan.stop_inclusive,
                reversed: scan.reversed,
                ..Scan::default()
            };
            if self.any_row(&table, probe) {
                return Err(format!("Reading rows: {e}"));
            }
            return Ok(Vec::new());
        }
        if scan.limit == Some(0) {
            return Ok(Vec::new());
        }
        let result = self
            .engine
            .scan(&table, &mut scan)
            .map_err(|e| format!("Reading rows: {e}"))?;
        let mut out = Vec::new();
        let mut s: ReadStats = *stats.borrow();
        for r in &result.rows {
            print::row(&mut out, &r.row, &r.cells, &self.zone);
            s.rows_returned += 1;
            s.cells_returned += r.cells.len() as u64;
        }
        if include_stats {
            print::stats(&mut out, &s, ((self.timer)() - started) as u64);
        }
        Ok(out)
    }

    /// Whether the scan's range holds a row.
    fn any_row(&mut self, table: &str, mut scan: Scan) -> bool {
        scan.limit = Some(1);
        self.engine
            .read(table, &mut scan)
            .is_ok_and(|out| !out.rows.is_empty())
    }

    fn count(&mut self, args: &[Vec<u8>]) -> Result<Vec<u8>, String> {
        if args.is_empty() {
            return Err("usage: cbt count <table> [prefix=<row-key-prefix>]".into());
        }
        let parsed = parse_args(&args[1..], &["prefix"])?;
        let table = text(&args[0]);
        self.bigtable("Reading rows", &table)?;
        let mut scan = match Some(parsed.bytes("prefix")).filter(|p| !p.is_empty()) {
            Some(p) => Scan::prefix(&p),
            None => Scan::default(),
        };
        let rows = self
            .engine
            .read(&table, &mut scan)
            .map_err(|e| format!("Reading rows: {e}"))?
            .rows
            .len();
        Ok(format!("{rows}\n").into_bytes())
    }

    fn export(&mut self, args: &[Vec<u8>]) -> Result<Vec<u8>, String> {
        let Some(table) = args.first() else {
            return Err("usage: cbt export <table> [format=script|csv]".into());
        };
        let parsed = parse_args(&args[1..], &["format"])?;
        let table = text(table);
        self.bigtable("Exporting", &table)?;
        let exported = match parsed.get("format").as_deref() {
            None | Some("script") => super::export::script(self, &table).map(String::into_bytes),
            Some("csv") => super::export::csv(self, &table),
            Some(other) => {
                return Err(format!(
                    "unknown export format {}",
                    print::go_quote(other.as_bytes())
                ))
            }
        };
        exported.map_err(|e| format!("Exporting: {e}"))
    }

    // ---- help --------------------------------------------------------------------------

    fn help(&mut self, args: &[Vec<u8>]) -> Result<Vec<u8>, String> {
        match args.first() {
            None => Ok(usage().into_bytes()),
            Some(name) => {
                let name = text(name);
                match COMMANDS.iter().find(|c| c.name == name) {
                    Some(c) => Ok(c.help.as_bytes().to_vec()),
                    None => Err(format!(
                        "Don't know command {}",
                        print::go_quote(name.as_bytes())
                    )),
                }
            }
        }
    }

    fn version(&mut self, _args: &[Vec<u8>]) -> Result<Vec<u8>, String> {
        Ok(format!("{CBT_VERSION}\n").into_bytes())
    }

    /// A family's garbage-collection policy in cbt's syntax (`None`: keep every version).
    pub fn gc_policy(&self, table: &str, family: &str) -> Option<String> {
        self.engine
            .table(table)
            .ok()?
            .descriptor
            .attributes
            .get(&format!("{GC_ATTRIBUTE}{family}"))
            .cloned()
    }
}

/// cbt's usage text (`cbt help` and a line without a command).
pub fn usage() -> String {
    include_str!("help/usage.txt").to_string()
}

fn family(name: &str, policy: &GcPolicy) -> FamilyDescriptor {
    let mut f = FamilyDescriptor::new(name);
    policy.apply_to(&mut f);
    f
}

fn text(arg: &[u8]) -> String {
    String::from_utf8_lossy(arg).into_owned()
}

/// A slice of arguments as Go's `%v` prints a `[]string`: `[a b]`.
fn go_slice(args: &[Vec<u8>]) -> String {
    let items: Vec<String> = args.iter().map(|a| text(a)).collect();
    format!("[{}]", items.join(" "))
}

/// cbt's `parseArgs`: `key=value` arguments, each key one of `valid`; values stay bytes
/// (row keys and prefixes may be any bytes).
fn parse_args(args: &[Vec<u8>], valid: &[&str]) -> Result<Args, String> {
    let mut parsed = BTreeMap::new();
    for arg in args {
        let Some(eq) = arg.iter().position(|&c| c == b'=') else {
            return Err(format!("bad arg {}", print::go_quote(arg)));
        };
        let key = text(&arg[..eq]);
        if !valid.contains(&key.as_str()) {
            return Err(format!(
                "unknown arg key {}",
                print::go_quote(key.as_bytes())
            ));
        }
        parsed.insert(key, arg[eq + 1..].to_vec());
    }
    Ok(Args(parsed))
}

/// Parsed `key=value` arguments.
struct Args(BTreeMap<String, Vec<u8>>);

impl Args {
    /// The value as text.
    fn get(&self, key: &str) -> Option<String> {
        self.0.get(key).map(|v| text(v))
    }

    /// The value as bytes (empty when absent).
    fn bytes(&self, key: &str) -> Vec<u8> {
        self.0.get(key).cloned().unwrap_or_default()
    }

    fn contains_key(&self, key: &str) -> bool {
        self.0.contains_key(key)
    }
}

/// The filter of `cells-per-column`, `regex`, `columns` and `keys-only`, and the server's
/// error for a regular expression that does not compile: the server reports it only once it
/// has a row to match, so a read that finds no row succeeds.
fn read_filter(parsed: &Args) -> Result<(ReadFilter, Option<String>), String> {
    let mut filter = ReadFilter::default();
    let mut deferred = None;
    if let Some(n) = parsed.get("cells-per-column").filter(|c| !c.is_empty()) {
        let v: i64 = n.parse().map_err(|_| {
            format!(
                "Bad number of cells per column {}: strconv.Atoi: parsing {}: invalid syntax",
                print::go_quote(n.as_bytes()),
                print::go_quote(n.as_bytes())
            )
        })?;
        if v <= 0 {
            deferred = Some(
                "rpc error: code = InvalidArgument desc = Error in field 'cells_per_column_limit_filter' : argument must be > 0"
                    .into(),
            );
        }
        filter.cells_per_column = Some(v.max(0) as usize);
    }
    let re = parsed.bytes("regex");
    if !re.is_empty() {
        match FullMatch::new(&re) {
            Ok(compiled) => filter.row_regex = Some(compiled),
            Err(e) => {
                deferred = Some(format!(
                    "rpc error: code = InvalidArgument desc = Error in field 'row_key_regex_filter' : {e}"
                ))
            }
        }
    }
    if let Some(columns) = parsed.get("columns").filter(|c| !c.is_empty()) {
        for entry in columns.split(',').filter(|e| !e.is_empty()) {
            let parts: Vec<&str> = entry.split(':').collect();
            let mut compile = |p: &str, field: &str| match FullMatch::new(p.as_bytes()) {
                Ok(m) => Some(m),
                Err(e) => {
                    deferred.get_or_insert(format!(
                        "rpc error: code = InvalidArgument desc = Error in field '{field}' : {e}"
                    ));
                    None
                }
            };
            let m = match parts.as_slice() {
                [q] => ColumnMatch {
                    family: None,
                    qualifier: compile(q, "column_qualifier_regex_filter"),
                },
                [f, ""] => ColumnMatch {
                    family: compile(f, "family_name_regex_filter"),
                    qualifier: None,
                },
                ["", q] => ColumnMatch {
                    family: None,
                    qualifier: compile(q, "column_qualifier_regex_filter"),
                },
                [f, q] => ColumnMatch {
                    family: compile(f, "family_name_regex_filter"),
                    qualifier: compile(q, "column_qualifier_regex_filter"),
                },
                _ => {
                    return Err(format!(
                        "bad format for column {}",
                        print::go_quote(entry.as_bytes())
                    ))
                }
            };
            filter.columns.push(m);
        }
    }
    if let Some(v) = parsed.get("keys-only") {
        filter.keys_only = go_parse_bool(&v)?;
    }
    Ok((filter, deferred))
}

fn include_stats(parsed: &Args) -> Result<bool, String> {
    match parsed.get("include-stats").as_deref() {
        None | Some("") => Ok(false),
        Some("full") => Ok(true),
        Some(other) => Err(format!(
            "Bad include-stats value: {} is not one of the supported stats views.",
            print::go_quote(other.as_bytes())
        )),
    }
}

/// cbt's `value@timestamp`: when what follows the last `@` parses as an integer, it is the
/// timestamp and the value ends before the `@`; otherwise the `@` is part of the value.
fn take_timestamp(value: &mut Vec<u8>) -> Option<i64> {
    let at = value.iter().rposition(|&c| c == b'@')?;
    let n = go_parse_int(&value[at + 1..])?;
    value.truncate(at);
    Some(n)
}

/// Go's `strconv.ParseBool`.
fn go_parse_bool(v: &str) -> Result<bool, String> {
    match v {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Ok(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Ok(false),
        other => Err(format!(
            "strconv.ParseBool: parsing {}: invalid syntax",
            print::go_quote(other.as_bytes())
        )),
    }
}

/// Go's `strconv.ParseInt(s, 0, 64)`: a sign, then decimal, `0x` hex, `0o`/`0` octal or `0b`
/// binary digits, with `_` between digits.
fn go_parse_int(s: &[u8]) -> Option<i64> {
    let s = std::str::from_utf8(s).ok()?;
    let (negative, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let lower = body.to_ascii_lowercase();
    let (radix, digits) = if let Some(d) = lower.strip_prefix("0x") {
        (16, d.to_string())
    } else if let Some(d) = lower.strip_prefix("0b") {
        (2, d.to_string())
    } else if let Some(d) = lower.strip_prefix("0o") {
        (8, d.to_string())
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, lower[1..].to_string())
    } else {
        (10, lower.clone())
    };
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
    {
        return None;
    }
    let clean: String = digits.chars().filter(|&c| c != '_').collect();
    let magnitude = u64::from_str_radix(&clean, radix).ok()?;
    if negative {
        if magnitude > i64::MAX as u64 + 1 {
            None
        } else {
            Some((magnitude as i64).wrapping_neg())
        }
    } else {
        i64::try_from(magnitude).ok()
    }
}

/// One CSV record (Go's `encoding/csv` reading `families=` and `splits=`).
fn csv_record(spec: &str) -> Result<Vec<String>, String> {
    super::csv::read_all(spec.as_bytes())?
        .into_iter()
        .next()
        .ok_or_else(|| "EOF".to_string())
}

/// The value type an aggregate family shows in `cbt ls TABLE`.
fn value_type_json(t: &str) -> String {
    let inner = match t {
        "intsum" => "\"sum\":{}",
        "intmin" => "\"min\":{}",
        "intmax" => "\"max\":{}",
        _ => "\"hllppUniqueCount\":{}",
    };
    format!(
        "{{\"aggregateType\":{{\"inputType\":{{\"int64Type\":{{\"encoding\":{{\"bigEndianBytes\":{{}}}}}}}}, {inner}}}}}"
    )
}

impl From<Error> for Output {
    fn from(e: Error) -> Output {
        Output::error(e.to_string())
    }
}
