//! Export to a JSON document people can read or to an HBase shell script that rebuilds the
//! tables on a real cluster; import of either, all or nothing.

use crate::bytes::{from_printable, to_printable};
use crate::designs::loads::Placement;
use crate::engine::{
    CellKind, Engine, FamilyDescriptor, Mutation, Rules, Scan, TableDescriptor, TableSettings,
};
use crate::json::{self, Node, Value};
use crate::shell::{parse_script, quote, Shell};
use std::fmt::Write as _;

use super::catalog::{
    families_from_json, families_to_json, rules_from_json, rules_to_json, settings_from_json,
    settings_to_json,
};

const FORMAT: &str = "rowkey-export";

/// The export's document: its members are all known ones (an unknown member is refused), in
/// the order written.
struct Document {
    format: String,
    version: u32,
    tables: Vec<TableDoc>,
}

struct TableDoc {
    name: String,
    enabled: bool,
    families: Vec<FamilyDescriptor>,
    settings: Option<TableSettings>,
    /// Region start keys after the first, as HBase prints bytes.
    splits: Vec<String>,
    cells: Vec<CellDoc>,
    /// The table's rules: written for a table whose rules are not HBase's (a Bigtable table,
    /// whose timestamps count microseconds), so that an import keeps them; HBase's when absent.
    rules: Rules,
}

struct CellDoc {
    row: String,
    column: String,
    timestamp: u64,
    /// `Put` unless written.
    kind: String,
    /// Written unless empty.
    value: String,
    /// Written unless 0.
    ttl_ms: u64,
}

impl Document {
    fn to_json(&self) -> Value {
        Value::object(vec![
            ("format", Value::from(self.format.as_str())),
            ("version", Value::from(self.version)),
            (
                "tables",
                Value::Array(self.tables.iter().map(TableDoc::to_json).collect()),
            ),
        ])
    }

    fn from_json(node: &Node) -> Result<Document, json::Error> {
        let f = node.object(&["format", "version", "tables"])?;
        Ok(Document {
            format: f.read("format", Node::string)?,
            version: f.read("version", Node::u32)?,
            tables: f.list("tables", TableDoc::from_json)?,
        })
    }
}

impl TableDoc {
    fn to_json(&self) -> Value {
        let mut table = Value::object(vec![
            ("name", Value::from(self.name.as_str())),
            ("enabled", Value::from(self.enabled)),
            ("families", families_to_json(&self.families)),
            (
                "settings",
                self.settings.as_ref().map_or(Value::Null, settings_to_json),
            ),
            (
                "splits",
                Value::Array(
                    self.splits
                        .iter()
                        .map(|s| Value::from(s.as_str()))
                        .collect(),
                ),
            ),
            (
                "cells",
                Value::Array(self.cells.iter().map(CellDoc::to_json).collect()),
            ),
        ]);
        if let (Value::Object(members), true) = (&mut table, self.rules != Rules::HBASE) {
            members.push(("rules".to_string(), rules_to_json(&self.rules)));
        }
        table
    }

    fn from_json(node: &Node) -> Result<TableDoc, json::Error> {
        let f = node.object(&[
            "name", "enabled", "families", "settings", "splits", "cells", "rules",
        ])?;
        Ok(TableDoc {
            name: f.read("name", Node::string)?,
            enabled: f.or("enabled", true, Node::bool)?,
            families: f.read("families", families_from_json)?,
            settings: f.optional("settings", settings_from_json)?,
            splits: f.or("splits", Vec::new(), |n| n.list(Node::string))?,
            cells: f.list("cells", CellDoc::from_json)?,
            rules: f.or("rules", Rules::HBASE, rules_from_json)?,
        })
    }
}

impl CellDoc {
    fn to_json(&self) -> Value {
        let mut members = vec![
            ("row".to_string(), Value::from(self.row.as_str())),
            ("column".to_string(), Value::from(self.column.as_str())),
            ("timestamp".to_string(), Value::from(self.timestamp)),
            ("type".to_string(), Value::from(self.kind.as_str())),
        ];
        if !self.value.is_empty() {
            members.push(("value".to_string(), Value::from(self.value.as_str())));
        }
        if self.ttl_ms != 0 {
            members.push(("ttl_ms".to_string(), Value::from(self.ttl_ms)));
        }
        Value::Object(members)
    }

    fn from_json(node: &Node) -> Result<CellDoc, json::Error> {
        let f = node.object(&["row", "column", "timestamp", "type", "value", "ttl_ms"])?;
        Ok(CellDoc {
            row: f.read("row", Node::string)?,
            column: f.read("column", Node::string)?,
            timestamp: f.read("timestamp", Node::u64)?,
            kind: f.or("type", "Put".to_string(), Node::string)?,
            value: f.or("value", String::new(), Node::string)?,
            ttl_ms: f.or("ttl_ms", 0, Node::u64)?,
        })
    }
}

/// Why an import was refused; nothing was changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{position}: {message}")]
pub struct ImportError {
    /// `line L, column C` or a path such as `tables[0].cells[3].timestamp`.
    pub position: String,
    pub message: String,
}

fn import_err<T>(
    position: impl Into<String>,
    message: impl Into<String>,
) -> Result<T, ImportError> {
    Err(ImportError {
        position: position.into(),
        message: message.into(),
    })
}

/// The tables to export: one, or all.
fn selected<'a>(engine: &'a Engine, table: Option<&str>) -> Vec<&'a crate::engine::Table> {
    engine
        .tables()
        .filter(|t| table.is_none_or(|n| t.descriptor.name == n))
        .collect()
}

/// The cells an export writes of a table: of an HBase table every stored cell, markers and
/// hidden versions included (a raw read); of a table without delete markers (Bigtable), which
/// keeps its deletes as cells only until its next major compaction, what a read sees, every
/// version (its deletes, replayed after the cells they took, a file's order, would take
/// nothing).
fn stored_cells(engine: &Engine, name: &str) -> Vec<crate::engine::Cell> {
    let markers = engine
        .table(name)
        .map_or(true, |t| t.descriptor.rules.masks_deletes());
    let mut raw = Scan {
        raw: markers,
        max_versions: u32::MAX,
        ..Scan::default()
    };
    // A disabled table's cells too: disabling refuses reads, it keeps the cells.
    engine
        .read_stored(name, &mut raw)
        .map(|o| o.rows.into_iter().flat_map(|r| r.cells).collect())
        .unwrap_or_default()
}

/// The tables (or one) as a JSON document.
pub fn export_json(engine: &Engine, table: Option<&str>) -> String {
    let tables = selected(engine, table)
        .into_iter()
        .map(|t| {
            let name = t.descriptor.name.clone();
            let cells = stored_cells(engine, &name)
                .into_iter()
                .map(|c| CellDoc {
                    row: to_printable(&c.row),
                    column: format!("{}:{}", to_printable(&c.family), to_printable(&c.qualifier)),
                    timestamp: c.timestamp,
                    kind: c.kind.name().to_string(),
                    value: to_printable(&c.value),
                    ttl_ms: c.ttl_ms,
                })
                .collect();
            TableDoc {
                name,
                enabled: t.enabled,
                families: t.descriptor.families.clone(),
                settings: Some(t.descriptor.settings),
                splits: t
                    .regions
                    .iter()
                    .skip(1)
                    .map(|r| to_printable(&r.start))
                    .collect(),
                cells,
                rules: t.descriptor.rules,
            }
        })
        .collect();
    let doc = Document {
        format: FORMAT.into(),
        version: 1,
        tables,
    };
    doc.to_json().to_pretty()
}

/// The tables (or one) as an HBase shell script: `create` with families and splits, then a
/// `put`, `delete` or `deleteall` with its timestamp for every stored cell.
pub fn export_script(engine: &Engine, table: Option<&str>) -> String {
    let mut out = String::from(
        "# Written by Rowkey: replays these tables on an HBase 2.x cluster (hbase shell FILE).\n",
    );
    for t in selected(engine, table) {
        let name = quote(t.descriptor.name.as_bytes());
        let families: Vec<String> = t
            .descriptor
            .families
            .iter()
            .map(|f| {
                let ttl = f.ttl_seconds.map(|s| format!(", TTL => {s}")).unwrap_or_default();
                format!(
                    "{{NAME => {}, VERSIONS => {}, MIN_VERSIONS => {}{ttl}, KEEP_DELETED_CELLS => '{}', BLOOMFILTER => '{}', COMPRESSION => '{}', BLOCKSIZE => {}, IN_MEMORY => {}, BLOCKCACHE => {}}}",
                    quote(f.name.as_bytes()),
                    // HBase's VERSIONS is an int: a Bigtable family's "no limit" is its largest.
                    f.max_versions.min(i32::MAX as u32),
                    f.min_versions,
                    f.keep_deleted_cells.name(),
                    f.bloomfilter,
                    f.compression,
                    f.blocksize,
                    f.in_memory,
                    f.blockcache
                )
            })
            .collect();
        let splits: Vec<String> = t.regions.iter().skip(1).map(|r| quote(&r.start)).collect();
        let splits = if splits.is_empty() {
            String::new()
        } else {
            format!(", SPLITS => [{}]", splits.join(", "))
        };
        // A Bigtable table's microseconds, as Bigtable's HBase client gives them: milliseconds.
        let per_ms = t.descriptor.rules.timestamps.per_millisecond();
        if per_ms != 1 {
            let _ = writeln!(
                out,
                "# {name} is a Bigtable table: its cells as a read sees them (Bigtable keeps no delete markers), their microsecond timestamps as milliseconds, as Bigtable's HBase client gives them."
            );
        }
        let _ = writeln!(out, "create {name}, {}{splits}", families.join(", "));
        for mut c in stored_cells(engine, &t.descriptor.name) {
            c.timestamp /= per_ms;
            let line = cell_line(&name, &c);
            out.push_str(&line);
            out.push('\n');
        }
        if !t.enabled {
            let _ = writeln!(out, "disable {name}");
        }
    }
    out
}

/// One stored cell as the shell command that writes it again (`name` already quoted).
fn cell_line(name: &str, c: &crate::engine::Cell) -> String {
    let row = quote(&c.row);
    let column = {
        let mut col = c.family.to_vec();
        if c.kind != CellKind::DeleteFamily && c.kind != CellKind::DeleteFamilyVersion {
            col.push(b':');
            col.extend_from_slice(&c.qualifier);
        }
        quote(&col)
    };
    match c.kind {
        CellKind::Put if c.ttl_ms > 0 => format!(
            "put {name}, {row}, {column}, {}, {}, {{TTL => {}}}",
            quote(&c.value),
            c.timestamp,
            c.ttl_ms
        ),
        CellKind::Put => format!(
            "put {name}, {row}, {column}, {}, {}",
            quote(&c.value),
            c.timestamp
        ),
        CellKind::Delete | CellKind::DeleteFamilyVersion => {
            format!("delete {name}, {row}, {column}, {}", c.timestamp)
        }
        CellKind::DeleteColumn | CellKind::DeleteFamily => {
            format!("deleteall {name}, {row}, {column}, {}", c.timestamp)
        }
    }
}

/// Runs kept aside (named by no readable catalog) as an HBase shell script: per run, a comment
/// with where the run says it belongs, then a command per cell. The tables are not created:
/// their settings were in the catalog that could not be read.
pub fn export_kept_runs(runs: &[super::KeptRun]) -> String {
    let mut out = String::from(
        "# Written by Rowkey: sorted runs that no readable catalog names, as stored.\n# Create each table first, then replay this file (hbase shell FILE).\n",
    );
    for k in runs {
        let Some(run) = &k.run else {
            let _ = writeln!(out, "# run {}: {}; nothing could be read", k.id, k.why);
            continue;
        };
        let (name, said) = match &k.place {
            Some(p) => (
                quote(p.table.as_bytes()),
                format!(
                    "table {}, family {}, rows from {} to {}",
                    quote(p.table.as_bytes()),
                    quote(&p.family),
                    if p.start.is_empty() {
                        "the first".to_string()
                    } else {
                        quote(&p.start)
                    },
                    if p.end.is_empty() {
                        "the last".to_string()
                    } else {
                        quote(&p.end)
                    }
                ),
            ),
            None => (
                "'unknown_table'".to_string(),
                "its table is not recorded (written by an older Rowkey)".to_string(),
            ),
        };
        let _ = write!(
            out,
            "# run {}: {said}; {} cells; {}\n",
            k.id,
            run.len(),
            k.why
        );
        for c in &run.cells() {
            out.push_str(&cell_line(&name, c));
            out.push('\n');
        }
    }
    out
}

/// An export read once for an import: a JSON document, or a script whose commands all parse.
/// What the import asks first (the tables the file makes that exist here already,
/// [`ExportFile::clashes`]) and what it then runs ([`ExportFile::import`]) come from this one
/// reading, and a file that does not read is refused before anything is asked.
pub struct ExportFile {
    /// The file's text, kept for a script's import (a copy, so the reading can wait for the
    /// person's answer).
    text: std::rc::Rc<str>,
    kind: ExportKind,
}

enum ExportKind {
    Json(Document),
    /// The tables the script's `create` commands name, in order.
    Script(Vec<String>),
}

/// Reads `text` as an export: JSON when it starts with `{`, else a shell script. A syntax
/// error is reported with its line and column, a document's with its JSON path.
pub fn read_export(text: &str) -> Result<ExportFile, ImportError> {
    let kind = if text.trim_start().starts_with('{') {
        ExportKind::Json(read_document(text)?)
    } else {
        ExportKind::Script(read_script(text)?)
    };
    Ok(ExportFile {
        text: text.into(),
        kind,
    })
}

impl ExportFile {
    /// The tables the file would make that `engine` has already, in the file's order: what an
    /// import asks before it replaces them.
    pub fn clashes(&self, engine: &Engine) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for name in self.tables() {
            if engine.exists(name) && !out.iter().any(|o| o == name) {
                out.push(name.to_string());
            }
        }
        out
    }

    /// Imports the file into a copy of `engine`, the tables named in `replace` (see
    /// [`ExportFile::clashes`]) dropped first and made again from the file, and returns the
    /// copy: `engine` is untouched, and on error nothing changes. Another table that exists
    /// already is refused.
    pub fn import(
        &self,
        engine: &Engine,
        clock: Box<dyn Fn() -> u64>,
        replace: &[String],
    ) -> Result<Engine, ImportError> {
        let copy = import_copy(engine, clock, replace);
        match &self.kind {
            ExportKind::Json(doc) => import_document(doc, copy, &Placement::default()),
            ExportKind::Script(_) => run_script(&self.text, copy),
        }
    }

    /// The file's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The tables the file makes, in its order.
    fn tables(&self) -> Vec<&str> {
        match &self.kind {
            ExportKind::Json(doc) => doc.tables.iter().map(|t| t.name.as_str()).collect(),
            ExportKind::Script(creates) => creates.iter().map(String::as_str).collect(),
        }
    }

    /// Other names for the tables the file would make that `engine` has already (see
    /// [`ExportFile::clashes`]): each with the suffix `_n`, for the smallest `n` from 2 at which
    /// no new name is a table here or one the file makes. The file's other tables keep theirs.
    pub fn free_names(&self, engine: &Engine) -> Placement {
        let clashing = self.clashes(engine);
        let clashing: Vec<&str> = clashing.iter().map(String::as_str).collect();
        let made = self.tables();
        Placement::free(&clashing, |t| engine.exists(t) || made.contains(&t))
    }

    /// Imports the file into a copy of `engine` with its tables named as `names` says (see
    /// [`ExportFile::free_names`]; a table it does not name keeps the file's name), and returns
    /// the copy: `engine` is untouched, and on error nothing changes. A script's commands are
    /// renamed as a design's are (`Placement::rewrite`).
    pub fn import_as(
        &self,
        engine: &Engine,
        clock: Box<dyn Fn() -> u64>,
        names: &Placement,
    ) -> Result<Engine, ImportError> {
        let copy = import_copy(engine, clock, &[]);
        match &self.kind {
            ExportKind::Json(doc) => import_document(doc, copy, names),
            ExportKind::Script(_) => match names.rewrite(&self.text) {
                Ok(text) => run_script(&text, copy),
                Err(e) => import_err("script", e),
            },
        }
    }
}

/// A copy of `engine` for an import, without the tables in `replace` (which the file makes
/// again).
fn import_copy(engine: &Engine, clock: Box<dyn Fn() -> u64>, replace: &[String]) -> Engine {
    let mut copy = rebuild_with_clock(engine, clock);
    for name in replace {
        let _ = copy.disable(name);
        let _ = copy.drop_table(name);
    }
    copy
}

/// Imports a JSON export into a copy of `engine` and returns the copy; `engine` is untouched
/// and on error nothing changes. Tables that exist already are refused.
pub fn import_json(
    engine: &Engine,
    text: &str,
    clock: Box<dyn Fn() -> u64>,
) -> Result<Engine, ImportError> {
    import_document(
        &read_document(text)?,
        import_copy(engine, clock, &[]),
        &Placement::default(),
    )
}

/// A JSON export's document, checked for its format and version.
fn read_document(text: &str) -> Result<Document, ImportError> {
    let read = json::parse(text).and_then(|value| Document::from_json(&Node::root(&value)));
    let doc = match read {
        Ok(d) => d,
        Err(json::Error::Syntax(e)) => {
            return import_err(format!("line {}, column {}", e.line, e.column), e.message)
        }
        Err(json::Error::Invalid(e)) => {
            let path = e.path.strip_prefix("$.").unwrap_or(&e.path).to_string();
            return import_err(path, e.message);
        }
    };
    if doc.format != FORMAT {
        return import_err(
            "format",
            format!("expected \"{FORMAT}\", found \"{}\"", doc.format),
        );
    }
    if doc.version != 1 {
        return import_err(
            "version",
            format!("version {} is not supported (expected 1)", doc.version),
        );
    }
    Ok(doc)
}

/// Makes `doc`'s tables in `copy` (an engine made for the import) and returns it.
fn import_document(
    doc: &Document,
    mut copy: Engine,
    names: &Placement,
) -> Result<Engine, ImportError> {
    for (ti, t) in doc.tables.iter().enumerate() {
        let at = format!("tables[{ti}]");
        let name = names.name_of(&t.name);
        if copy.exists(name) {
            return import_err(
                format!("{at}.name"),
                format!(
                    "table {name} already exists; drop it first or import into an empty profile"
                ),
            );
        }
        let mut desc = TableDescriptor::new(name, t.families.clone());
        if let Some(s) = t.settings {
            desc.settings = s;
        }
        desc.rules = t.rules;
        let splits = t.splits.iter().map(|s| from_printable(s)).collect();
        if let Err(e) = copy.create_table(desc, splits) {
            return import_err(at, e.to_string());
        }
        for (ci, c) in t.cells.iter().enumerate() {
            let at = format!("{at}.cells[{ci}]");
            let Some((family, qualifier)) = c
                .column
                .split_once(':')
                .map(|(f, q)| (from_printable(f), from_printable(q)))
            else {
                return import_err(
                    format!("{at}.column"),
                    format!("expected family:qualifier, found \"{}\"", c.column),
                );
            };
            let ts = Some(c.timestamp);
            let m = match c.kind.as_str() {
                "Put" => Mutation::Put {
                    family,
                    qualifier,
                    timestamp: ts,
                    value: from_printable(&c.value),
                    ttl_ms: (c.ttl_ms > 0).then_some(c.ttl_ms),
                },
                "Delete" => Mutation::Delete {
                    family,
                    qualifier: Some(qualifier),
                    timestamp: ts,
                    all_versions: false,
                },
                "DeleteColumn" => Mutation::Delete {
                    family,
                    qualifier: Some(qualifier),
                    timestamp: ts,
                    all_versions: true,
                },
                "DeleteFamily" => Mutation::Delete {
                    family,
                    qualifier: None,
                    timestamp: ts,
                    all_versions: true,
                },
                "DeleteFamilyVersion" => Mutation::Delete {
                    family,
                    qualifier: None,
                    timestamp: ts,
                    all_versions: false,
                },
                other => {
                    return import_err(
                        format!("{at}.type"),
                        format!("unknown cell type \"{other}\""),
                    )
                }
            };
            if let Err(e) = copy.mutate(name, &from_printable(&c.row), &[m]) {
                return import_err(at, e.to_string());
            }
        }
        if !t.enabled {
            let _ = copy.disable(name);
        }
    }
    Ok(copy)
}

/// An engine holding the same tables and cells, to try an import on first.
fn rebuild_with_clock(engine: &Engine, clock: Box<dyn Fn() -> u64>) -> Engine {
    let runs = engine.all_runs().map(|r| (r.id, r.clone())).collect();
    let (mut copy, _) = Engine::restore(clock, engine.catalog(), &runs);
    for (table, cells) in engine.memstore_cells() {
        copy.replay(&table, cells);
    }
    copy.record_changes(true);
    copy
}

/// Runs a shell script against a copy of `engine` and returns the copy if every command
/// succeeded; the first parse or command error is reported with its line and column.
pub fn import_script(
    engine: &Engine,
    text: &str,
    clock: Box<dyn Fn() -> u64>,
) -> Result<Engine, ImportError> {
    read_script(text)?;
    run_script(text, import_copy(engine, clock, &[]))
}

/// `line L, column C` of byte `offset` in `text`.
fn position(text: &str, offset: usize) -> String {
    let before = text.get(..offset.min(text.len())).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    let column = before
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count())
        .unwrap_or(0)
        + 1;
    format!("line {line}, column {column}")
}

/// Parses a script whole and returns the tables its `create` commands name; the first
/// command that does not parse is the error. A file of no commands (empty, or blank lines and
/// comments only) would import nothing and say it had: it is refused instead, as most likely
/// not the file meant.
fn read_script(text: &str) -> Result<Vec<String>, ImportError> {
    let mut creates = Vec::new();
    let mut commands = 0;
    for parsed in parse_script(text) {
        let c = match parsed {
            Ok(c) => c,
            Err(e) => return import_err(position(text, e.span.start), e.message),
        };
        commands += 1;
        if c.name == "create" {
            if let Some(crate::shell::Value::Str(name)) = c.args.first().map(|a| &a.value) {
                creates.push(String::from_utf8_lossy(name).into_owned());
            }
        }
    }
    if commands == 0 {
        return import_err(
            "line 1, column 1",
            "no commands: the file holds no tables to import",
        );
    }
    Ok(creates)
}

/// Runs a script that parsed ([`read_script`]) in `copy` (an engine made for the import) and
/// returns it; the first command that fails is the error.
fn run_script(text: &str, copy: Engine) -> Result<Engine, ImportError> {
    let mut shell = Shell::new(copy, Box::new(|| 0.0));
    for outcome in shell.run(text) {
        if let Some(e) = outcome.error {
            return import_err(position(text, e.span.start), e.message);
        }
    }
    Ok(shell.engine)
}
