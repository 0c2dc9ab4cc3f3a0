//! Runs parsed commands against the engine and formats what HBase would print.

use std::ops::Range;

use super::ast::{Command, Spanned, Value};
use super::commands::{self, FAMILY_OPTIONS};
use super::format;
use super::help;
use super::{Outcome, ReadTrace, ShellError};
use crate::bytes::to_printable;
use crate::engine::{
    split_keys, Condition, Engine, FamilyDescriptor, KeepDeletedCells, Mutation, Scan, ScanOutput,
    TableDescriptor, TableSettings,
};
use crate::filter::{parse_filter, CompareOp};

type Res<T> = Result<T, ShellError>;

fn fail<T>(message: impl Into<String>, span: Range<usize>) -> Res<T> {
    Err(ShellError {
        message: message.into(),
        span,
        command: None,
    })
}

/// Appends the `Took` line and the usage hint for errors.
pub(super) fn finish(out: &mut Outcome, seconds: f64) {
    if let Some(err) = &out.error {
        let mut text = format!("ERROR: {}\n", err.message);
        if let Some(cmd) = &err.command {
            text.push_str(&format!("\nFor usage try 'help \"{cmd}\"'\n\n"));
        }
        out.output = text;
    }
    if out.clear {
        return;
    }
    let (body, echo) = match out.output.split_once("\u{0}=> ") {
        Some((body, echo)) => (body.to_string(), Some(echo.to_string())),
        None => (std::mem::take(&mut out.output), None),
    };
    out.output = body;
    out.output.push_str(&format::took(seconds));
    if let Some(echo) = echo {
        out.output.push_str(&format!("=> {echo}\n"));
    }
}

/// Runs one command.
pub(super) fn execute(engine: &mut Engine, cmd: &Command) -> Outcome {
    let mut trace = None;
    let result = dispatch(engine, cmd, &mut trace);
    match result {
        Ok(Some(output)) => Outcome {
            output,
            trace,
            ..Outcome::default()
        },
        Ok(None) => Outcome {
            clear: true,
            ..Outcome::default()
        },
        Err(mut e) => {
            if e.span.is_empty() && e.span.start == 0 {
                e.span = cmd.span.clone();
            }
            if help::text(&cmd.name).is_some() {
                e.command = Some(cmd.name.clone());
            }
            Outcome {
                error: Some(e),
                trace,
                ..Outcome::default()
            }
        }
    }
}

/// The `=> value` line the shell echoes after some commands.
fn echo(body: String, value: String) -> String {
    format!("{body}\u{0}=> {value}")
}

/// The arguments of one command, read by position with checks.
struct Args<'a> {
    cmd: &'a Command,
}

impl<'a> Args<'a> {
    fn count(&self, min: usize, max: usize) -> Res<()> {
        let n = self.cmd.args.len();
        if n >= min && n <= max {
            return Ok(());
        }
        let expected = if min == max {
            min.to_string()
        } else if max == usize::MAX {
            format!("{min}+")
        } else {
            format!("{min}..{max}")
        };
        let span = if n > max {
            self.cmd.args.get(max).map(|a| a.span.start).unwrap_or(0)..self.cmd.span.end
        } else {
            self.cmd.span.clone()
        };
        fail(
            format!("wrong number of arguments (given {n}, expected {expected})"),
            span,
        )
    }

    fn get(&self, i: usize) -> Option<&'a Spanned> {
        self.cmd.args.get(i)
    }

    fn bytes(&self, i: usize, what: &str) -> Res<Vec<u8>> {
        match self.get(i) {
            Some(a) => bytes_of(a, what),
            None => fail(
                format!("missing {what}"),
                self.cmd.span.end..self.cmd.span.end,
            ),
        }
    }

    fn text(&self, i: usize, what: &str) -> Res<String> {
        let b = self.bytes(i, what)?;
        String::from_utf8(b).or_else(|_| fail(format!("{what} must be text"), self.span(i)))
    }

    fn span(&self, i: usize) -> Range<usize> {
        self.get(i)
            .map(|a| a.span.clone())
            .unwrap_or(self.cmd.span.clone())
    }

    /// The trailing options hash, if the last argument is one.
    fn trailing_hash(&self) -> Option<&'a Spanned> {
        self.cmd
            .args
            .last()
            .filter(|a| matches!(a.value, Value::Hash(_)))
    }

    fn positional(&self) -> usize {
        self.cmd.args.len() - usize::from(self.trailing_hash().is_some())
    }
}

fn bytes_of(a: &Spanned, what: &str) -> Res<Vec<u8>> {
    match &a.value {
        Value::Str(b) => Ok(b.clone()),
        Value::Int(i) => Ok(i.to_string().into_bytes()),
        other => fail(
            format!("expected {what} as a string, found {}", kind_name(other)),
            a.span.clone(),
        ),
    }
}

fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Str(_) => "a string",
        Value::Int(_) => "a number",
        Value::Ident(_) => "a constant",
        Value::Array(_) => "an array",
        Value::Hash(_) => "a hash",
    }
}

fn int_of(a: &Spanned, what: &str) -> Res<i64> {
    match &a.value {
        Value::Int(i) => Ok(*i),
        Value::Str(b) => match std::str::from_utf8(b)
            .ok()
            .and_then(|s| s.trim().parse().ok())
        {
            Some(v) => Ok(v),
            None => fail(format!("{what} must be a number"), a.span.clone()),
        },
        other => fail(
            format!("{what} must be a number, found {}", kind_name(other)),
            a.span.clone(),
        ),
    }
}

fn uint_of(a: &Spanned, what: &str) -> Res<u64> {
    let v = int_of(a, what)?;
    u64::try_from(v).or_else(|_| fail(format!("{what} must not be negative"), a.span.clone()))
}

/// The text of a word-like argument: a constant (`TRUE`, `FOREVER`) or a string.
fn word_of(v: &Value) -> Option<String> {
    match v {
        Value::Ident(w) => Some(w.clone()),
        Value::Str(b) => Some(String::from_utf8_lossy(b).into_owned()),
        _ => None,
    }
}

fn bool_of(a: &Spanned, what: &str) -> Res<bool> {
    let Some(text) = word_of(&a.value) else {
        return fail(
            format!(
                "{what} must be true or false, found {}",
                kind_name(&a.value)
            ),
            a.span.clone(),
        );
    };
    match text.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => fail(format!("{what} must be true or false"), a.span.clone()),
    }
}

/// A `{KEY => value}` hash whose keys are checked off as they are read.
struct Opts<'a> {
    pairs: Vec<(String, &'a Spanned, Range<usize>)>,
}

impl<'a> Opts<'a> {
    fn of(a: &'a Spanned) -> Res<Opts<'a>> {
        let Value::Hash(pairs) = &a.value else {
            return fail(
                format!("expected a hash of options, found {}", kind_name(&a.value)),
                a.span.clone(),
            );
        };
        let mut out = Vec::new();
        for (k, v) in pairs {
            let Some(key) = word_of(&k.value) else {
                return fail(
                    format!(
                        "option names are constants or strings, found {}",
                        kind_name(&k.value)
                    ),
                    k.span.clone(),
                );
            };
            out.push((key, v, k.span.clone()));
        }
        Ok(Opts { pairs: out })
    }

    fn empty() -> Opts<'a> {
        Opts { pairs: Vec::new() }
    }

    fn take(&mut self, key: &str) -> Option<&'a Spanned> {
        let i = self.pairs.iter().position(|p| p.0 == key)?;
        Some(self.pairs.remove(i).1)
    }

    /// Refuses any option nobody read, naming the ones that exist.
    fn done(self, known: &[&str], ignored: &[&str]) -> Res<()> {
        for (key, _, span) in self.pairs {
            if !ignored.contains(&key.as_str()) {
                return fail(
                    format!("unknown option {key}; expected one of {}", known.join(", ")),
                    span,
                );
            }
        }
        Ok(())
    }
}

/// `family:qualifier` (a bare `family` means the whole family).
fn split_column(col: &[u8]) -> (Vec<u8>, Option<Vec<u8>>) {
    match col.iter().position(|b| *b == b':') {
        Some(i) => (
            col.get(..i).unwrap_or(&[]).to_vec(),
            Some(col.get(i + 1..).unwrap_or(&[]).to_vec()),
        ),
        None => (col.to_vec(), None),
    }
}

fn columns_of(a: &Spanned) -> Res<Vec<(Vec<u8>, Option<Vec<u8>>)>> {
    match &a.value {
        Value::Array(items) => items
            .iter()
            .map(|i| bytes_of(i, "column").map(|c| split_column(&c)))
            .collect(),
        _ => Ok(vec![split_column(&bytes_of(a, "column")?)]),
    }
}

fn dispatch(
    engine: &mut Engine,
    cmd: &Command,
    trace: &mut Option<ReadTrace>,
) -> Res<Option<String>> {
    let args = Args { cmd };
    let ok = |s: String| Ok(Some(s));
    let table_err = |e: crate::engine::Error, span: Range<usize>| ShellError {
        message: e.to_string(),
        span,
        command: None,
    };
    let Some(spec) = commands::find(&cmd.name) else {
        return fail(undefined(cmd), cmd.name_span.clone());
    };
    match spec.name {
        "help" => {
            args.count(0, 1)?;
            match args.get(0) {
                None => ok(help::general()),
                Some(_) => {
                    let name = args.text(0, "command name")?;
                    match help::text(&name) {
                        Some(t) => ok(t.to_string()),
                        None => fail(
                            format!("no help for unknown command '{name}'"),
                            args.span(0),
                        ),
                    }
                }
            }
        }
        "clear" => {
            args.count(0, 0)?;
            Ok(None)
        }
        "create" => create(engine, &args),
        "alter" => alter(engine, &args),
        "list" => {
            args.count(0, 1)?;
            let names: Vec<String> = engine.tables().map(|t| t.descriptor.name.clone()).collect();
            let names = match args.get(0) {
                Some(_) => {
                    let pattern = args.text(0, "regular expression")?;
                    let re = regex_lite::Regex::new(&format!("^(?:{pattern})$")).or_else(|e| {
                        fail(format!("invalid regular expression: {e}"), args.span(0))
                    })?;
                    names.into_iter().filter(|n| re.is_match(n)).collect()
                }
                None => names,
            };
            let mut out = String::from("TABLE\n");
            for n in &names {
                out.push_str(n);
                out.push('\n');
            }
            out.push_str(&format!("{} row(s)\n", names.len()));
            ok(echo(out, format::ruby_array(&names)))
        }
        "describe" | "desc" => {
            args.count(1, 1)?;
            let name = args.text(0, "table name")?;
            let t = engine
                .table(&name)
                .map_err(|e| table_err(e, args.span(0)))?;
            ok(format::describe(t))
        }
        "disable" | "enable" | "drop" | "truncate" | "truncate_preserve" | "flush"
        | "is_enabled" | "is_disabled" | "exists" | "get_splits" => {
            args.count(1, 1)?;
            let name = args.text(0, "table name")?;
            let span = args.span(0);
            let e = |err| table_err(err, span.clone());
            match cmd.name.as_str() {
                "disable" => engine
                    .disable(&name)
                    .map_err(e)
                    .map(|_| Some(String::new())),
                "enable" => engine.enable(&name).map_err(e).map(|_| Some(String::new())),
                "drop" => engine
                    .drop_table(&name)
                    .map_err(e)
                    .map(|_| Some(String::new())),
                "flush" => engine.flush(&name).map_err(e).map(|_| Some(String::new())),
                "truncate" | "truncate_preserve" => {
                    engine
                        .truncate(&name, cmd.name == "truncate_preserve")
                        .map_err(e)?;
                    ok(format!("Truncating '{name}' table (it may take a while):\nDisabling table...\nTruncating table...\n"))
                }
                "exists" => {
                    let exists = engine.exists(&name);
                    ok(echo(
                        format!(
                            "Table {name} {} exist\n",
                            if exists { "does" } else { "does not" }
                        ),
                        exists.to_string(),
                    ))
                }
                "get_splits" => {
                    let splits = engine.splits(&name).map_err(e)?;
                    let shown: Vec<String> = splits.iter().map(|s| to_printable(s)).collect();
                    let mut out = format!("Total number of splits = {}\n", splits.len() + 1);
                    for s in &shown {
                        out.push_str(s);
                        out.push('\n');
                    }
                    ok(echo(out, format::ruby_array(&shown)))
                }
                _ => {
                    let enabled = engine.table(&name).map_err(e)?.enabled;
                    let answer = if cmd.name == "is_enabled" {
                        enabled
                    } else {
                        !enabled
                    };
                    ok(echo(format!("{answer}\n"), answer.to_string()))
                }
            }
        }
        "compact" | "major_compact" => {
            args.count(1, 2)?;
            let name = args.text(0, "table name")?;
            if args.get(1).is_some() {
                let fam = args.bytes(1, "family")?;
                let t = engine
                    .table(&name)
                    .map_err(|e| table_err(e, args.span(0)))?;
                if t.descriptor.family(&fam).is_none() {
                    return fail(
                        format!(
                            "Column family {} does not exist in table {name}",
                            to_printable(&fam)
                        ),
                        args.span(1),
                    );
                }
            }
            engine
                .compact(&name, cmd.name == "major_compact")
                .map_err(|e| table_err(e, args.span(0)))?;
            ok(String::new())
        }
        "split" => {
            args.count(1, 2)?;
            let name = args.text(0, "table name")?;
            let key = if args.get(1).is_some() {
                Some(args.bytes(1, "split key")?)
            } else {
                None
            };
            engine
                .split(&name, key.as_deref())
                .map_err(|e| table_err(e, args.span(args.cmd.args.len().saturating_sub(1))))?;
            ok(String::new())
        }
        "put" => put(engine, &args),
        "get" => get(engine, &args, trace),
        "scan" => scan(engine, &args, trace),
        "count" => count(engine, &args, trace),
        "delete" | "deleteall" => delete(engine, &args),
        "incr" => {
            args.count(3, 4)?;
            let (name, row) = (args.text(0, "table name")?, args.bytes(1, "row key")?);
            let (family, qualifier) = qualified(&args, 2)?;
            let amount = match args.get(3) {
                Some(a) => int_of(a, "increment")?,
                None => 1,
            };
            let value = engine
                .increment(&name, &row, &family, &qualifier, amount)
                .map_err(|e| table_err(e, args.span(2)))?;
            ok(format!("COUNTER VALUE = {value}\n"))
        }
        "get_counter" => {
            args.count(3, 3)?;
            let (name, row) = (args.text(0, "table name")?, args.bytes(1, "row key")?);
            let (family, qualifier) = qualified(&args, 2)?;
            let mut scan = Scan::get(&row);
            scan.columns = vec![(family, Some(qualifier))];
            let out = engine
                .scan(&name, &mut scan)
                .map_err(|e| table_err(e, args.span(0)))?;
            match out.rows.first().and_then(|r| r.cells.first()) {
                None => ok("No counter found at specified coordinates\n".into()),
                Some(c) => match <[u8; 8]>::try_from(c.value.as_slice()) {
                    Ok(b) => ok(format!("COUNTER VALUE = {}\n", i64::from_be_bytes(b))),
                    Err(_) => fail(
                        format!("Field is not a long, it's {} bytes wide", c.value.len()),
                        args.span(2),
                    ),
                },
            }
        }
        "append" => {
            args.count(4, 4)?;
            let (name, row) = (args.text(0, "table name")?, args.bytes(1, "row key")?);
            let (family, qualifier) = qualified(&args, 2)?;
            let suffix = args.bytes(3, "value")?;
            let value = engine
                .append(&name, &row, &family, &qualifier, &suffix)
                .map_err(|e| table_err(e, args.span(2)))?;
            ok(format!("CURRENT VALUE = {}\n", to_printable(&value)))
        }
        "check_and_put" | "check_and_delete" => check_and_mutate(engine, &args),
        "mutate_row" => mutate_row(engine, &args),
        other => fail(
            format!("command '{other}' has no executor"),
            cmd.name_span.clone(),
        ),
    }
}

/// What JRuby says of a name the shell does not define: a bare word is a `NameError`, a call
/// with arguments a `NoMethodError` (the HBase shell is an IRB session; see hbase-shell's
/// `shell.rb`, which defines each command as a method of the session's receiver).
fn undefined(cmd: &Command) -> String {
    let name = &cmd.name;
    if cmd.args.is_empty() {
        format!("NameError: undefined local variable or method `{name}' for main:Object")
    } else {
        format!("NoMethodError: undefined method `{name}' for main:Object")
    }
}

/// A `family:qualifier` argument that must name a column.
fn qualified(args: &Args<'_>, i: usize) -> Res<(Vec<u8>, Vec<u8>)> {
    let col = args.bytes(i, "column")?;
    match split_column(&col) {
        (f, Some(q)) => Ok((f, q)),
        (_, None) => fail(
            "Failed to provide both column family and column qualifier",
            args.span(i),
        ),
    }
}

fn table_settings(opts: &mut Opts<'_>, settings: &mut TableSettings) -> Res<()> {
    if let Some(v) = opts.take("MAX_FILESIZE") {
        settings.split_bytes = uint_of(v, "MAX_FILESIZE")? as usize;
    }
    if let Some(v) = opts.take("MEMSTORE_FLUSHSIZE") {
        let n = uint_of(v, "MEMSTORE_FLUSHSIZE")? as usize;
        if n == 0 {
            return fail("MEMSTORE_FLUSHSIZE must be positive", v.span.clone());
        }
        settings.flush_bytes = n;
    }
    if let Some(v) = opts.take("COMPACTION_THRESHOLD") {
        let n = uint_of(v, "COMPACTION_THRESHOLD")? as usize;
        if n < 2 {
            return fail("COMPACTION_THRESHOLD must be at least 2", v.span.clone());
        }
        settings.compaction_threshold = n;
    }
    Ok(())
}

/// The keys of a table-level hash of `create` or `alter`: the command's options less the
/// family options (a `NAME` makes the hash a family's).
fn table_keys(command: &str) -> Vec<&'static str> {
    commands::options(command)
        .iter()
        .copied()
        .filter(|k| *k == "NAME" || !FAMILY_OPTIONS.contains(k))
        .collect()
}

/// Reads a family hash onto `f`.
fn family_from(opts: &mut Opts<'_>, f: &mut FamilyDescriptor) -> Res<()> {
    if let Some(v) = opts.take("VERSIONS") {
        f.max_versions = u32::try_from(int_of(v, "VERSIONS")?)
            .or_else(|_| fail("VERSIONS out of range", v.span.clone()))?;
    }
    if let Some(v) = opts.take("MIN_VERSIONS") {
        f.min_versions = u32::try_from(int_of(v, "MIN_VERSIONS")?)
            .or_else(|_| fail("MIN_VERSIONS out of range", v.span.clone()))?;
    }
    if let Some(v) = opts.take("TTL") {
        let forever = word_of(&v.value).as_deref() == Some("FOREVER");
        f.ttl_seconds = if forever {
            None
        } else {
            Some(uint_of(v, "TTL")?)
        };
        if f.ttl_seconds == Some(i32::MAX as u64) {
            f.ttl_seconds = None;
        }
    }
    if let Some(v) = opts.take("KEEP_DELETED_CELLS") {
        let Some(text) = word_of(&v.value).map(|w| w.to_ascii_uppercase()) else {
            return fail(
                format!(
                    "KEEP_DELETED_CELLS must be true, false or 'TTL', found {}",
                    kind_name(&v.value)
                ),
                v.span.clone(),
            );
        };
        f.keep_deleted_cells = match text.as_str() {
            "TRUE" => KeepDeletedCells::True,
            "FALSE" => KeepDeletedCells::False,
            "TTL" => KeepDeletedCells::Ttl,
            _ => {
                return fail(
                    "KEEP_DELETED_CELLS must be true, false or 'TTL'",
                    v.span.clone(),
                )
            }
        };
    }
    let choice = |opts: &mut Opts<'_>, key: &str, allowed: &[&str]| -> Res<Option<String>> {
        let Some(v) = opts.take(key) else {
            return Ok(None);
        };
        let text = String::from_utf8_lossy(&bytes_of(v, key)?).to_ascii_uppercase();
        if !allowed.contains(&text.as_str()) {
            return fail(
                format!("{key} must be one of {}", allowed.join(", ")),
                v.span.clone(),
            );
        }
        Ok(Some(text))
    };
    if let Some(b) = choice(
        opts,
        "BLOOMFILTER",
        &["NONE", "ROW", "ROWCOL", "ROWPREFIX_FIXED_LENGTH"],
    )? {
        f.bloomfilter = b;
    }
    if let Some(c) = choice(
        opts,
        "COMPRESSION",
        &["NONE", "GZ", "SNAPPY", "LZO", "LZ4", "ZSTD", "BZIP2"],
    )? {
        f.compression = c;
    }
    if let Some(d) = choice(
        opts,
        "DATA_BLOCK_ENCODING",
        &["NONE", "PREFIX", "DIFF", "FAST_DIFF", "ROW_INDEX_V1"],
    )? {
        f.data_block_encoding = d;
    }
    if let Some(v) = opts.take("BLOCKSIZE") {
        f.blocksize = uint_of(v, "BLOCKSIZE")?;
    }
    if let Some(v) = opts.take("IN_MEMORY") {
        f.in_memory = bool_of(v, "IN_MEMORY")?;
    }
    if let Some(v) = opts.take("BLOCKCACHE") {
        f.blockcache = bool_of(v, "BLOCKCACHE")?;
    }
    if let Some(v) = opts.take("REPLICATION_SCOPE") {
        f.replication_scope = u32::try_from(int_of(v, "REPLICATION_SCOPE")?).unwrap_or(0);
    }
    Ok(())
}

fn family_name(v: &Spanned) -> Res<String> {
    let b = bytes_of(v, "family name")?;
    String::from_utf8(b).or_else(|_| fail("family names must be text", v.span.clone()))
}

fn create(engine: &mut Engine, args: &Args<'_>) -> Res<Option<String>> {
    args.count(1, usize::MAX)?;
    let name = args.text(0, "table name")?;
    let mut families = Vec::new();
    let mut splits: Vec<Vec<u8>> = Vec::new();
    let mut settings = TableSettings::default();
    for a in args.cmd.args.iter().skip(1) {
        match &a.value {
            Value::Hash(_) => {
                let mut opts = Opts::of(a)?;
                if let Some(n) = opts.take("NAME") {
                    let mut f = FamilyDescriptor::new(&family_name(n)?);
                    family_from(&mut opts, &mut f)?;
                    opts.done(FAMILY_OPTIONS, &["METADATA", "CONFIGURATION"])?;
                    families.push(f);
                    continue;
                }
                if let Some(v) = opts.take("SPLITS") {
                    let Value::Array(items) = &v.value else {
                        return fail("SPLITS must be an array of keys", v.span.clone());
                    };
                    for item in items {
                        splits.push(bytes_of(item, "split key")?);
                    }
                }
                if let Some(n) = opts.take("NUMREGIONS") {
                    let count = uint_of(n, "NUMREGIONS")?;
                    let Some(algo_arg) = opts.take("SPLITALGO") else {
                        return fail(
                            "Number of regions specified without SPLITALGO",
                            n.span.clone(),
                        );
                    };
                    let algo =
                        String::from_utf8_lossy(&bytes_of(algo_arg, "SPLITALGO")?).into_owned();
                    let short = algo.rsplit('.').next().unwrap_or(&algo).to_string();
                    if count < 2 || count > 10_000 {
                        return fail(
                            "Number of regions must be between 2 and 10000",
                            n.span.clone(),
                        );
                    }
                    match split_keys(&short, count as u32) {
                        Some(keys) => splits.extend(keys),
                        None => return fail(format!("unknown split algorithm {algo}; expected HexStringSplit, DecimalStringSplit or UniformSplit"), algo_arg.span.clone()),
                    }
                }
                table_settings(&mut opts, &mut settings)?;
                opts.done(
                    &table_keys("create"),
                    &[
                        "REGION_REPLICATION",
                        "DURABILITY",
                        "OWNER",
                        "METADATA",
                        "CONFIGURATION",
                    ],
                )?;
            }
            _ => families.push(FamilyDescriptor::new(&family_name(a)?)),
        }
    }
    let mut desc = TableDescriptor::new(&name, families);
    desc.settings = settings;
    engine
        .create_table(desc, splits)
        .or_else(|e| fail(e.to_string(), args.span(0)))?;
    Ok(Some(echo(
        format!("Created table {name}\n"),
        format!("Hbase::Table - {name}"),
    )))
}

fn alter(engine: &mut Engine, args: &Args<'_>) -> Res<Option<String>> {
    args.count(2, usize::MAX)?;
    let name = args.text(0, "table name")?;
    let table = engine
        .table(&name)
        .or_else(|e| fail(e.to_string(), args.span(0)))?;
    let mut settings = table.descriptor.settings;
    let existing: Vec<FamilyDescriptor> = table.descriptor.families.clone();
    let regions = table.regions.len();
    enum Change {
        Put(FamilyDescriptor),
        Delete(String, Range<usize>),
    }
    let mut changes = Vec::new();
    for a in args.cmd.args.iter().skip(1) {
        if !matches!(a.value, Value::Hash(_)) {
            changes.push(Change::Put(FamilyDescriptor::new(&family_name(a)?)));
            continue;
        }
        let mut opts = Opts::of(a)?;
        if let Some(v) = opts.take("delete") {
            changes.push(Change::Delete(family_name(v)?, v.span.clone()));
            opts.done(&["NAME", "METHOD", "delete"], &[])?;
            continue;
        }
        if let Some(n) = opts.take("NAME") {
            let fname = family_name(n)?;
            if let Some(m) = opts.take("METHOD") {
                if bytes_of(m, "METHOD")? != b"delete" {
                    return fail("METHOD must be 'delete'", m.span.clone());
                }
                changes.push(Change::Delete(fname, n.span.clone()));
                opts.done(&["NAME", "METHOD"], &[])?;
                continue;
            }
            let mut f = existing
                .iter()
                .find(|f| f.name == fname)
                .cloned()
                .unwrap_or_else(|| FamilyDescriptor::new(&fname));
            family_from(&mut opts, &mut f)?;
            opts.done(FAMILY_OPTIONS, &["METADATA", "CONFIGURATION"])?;
            changes.push(Change::Put(f));
            continue;
        }
        table_settings(&mut opts, &mut settings)?;
        opts.done(
            &table_keys("alter"),
            &[
                "DURABILITY",
                "REGION_REPLICATION",
                "OWNER",
                "METADATA",
                "CONFIGURATION",
            ],
        )?;
    }
    for change in changes {
        match change {
            Change::Put(f) => engine
                .alter_family(&name, f)
                .or_else(|e| fail(e.to_string(), args.span(1)))?,
            Change::Delete(f, span) => engine
                .delete_family(&name, &f)
                .or_else(|e| fail(e.to_string(), span))?,
        }
    }
    engine
        .set_settings(&name, settings)
        .or_else(|e| fail(e.to_string(), args.span(0)))?;
    Ok(Some(format!("Updating all regions with the new schema...\n{regions}/{regions} regions updated.\nDone.\n")))
}

fn put(engine: &mut Engine, args: &Args<'_>) -> Res<Option<String>> {
    args.count(4, 6)?;
    let name = args.text(0, "table name")?;
    let row = args.bytes(1, "row key")?;
    let (family, qualifier) = split_column(&args.bytes(2, "column")?);
    let value = args.bytes(3, "value")?;
    let mut timestamp = None;
    let mut ttl_ms = None;
    for i in 4..args.cmd.args.len() {
        let Some(a) = args.get(i) else { continue };
        match &a.value {
            Value::Hash(_) => {
                let mut opts = Opts::of(a)?;
                if let Some(t) = opts.take("TTL") {
                    ttl_ms = Some(uint_of(t, "TTL")?);
                }
                opts.done(commands::options("put"), &["ATTRIBUTES", "VISIBILITY"])?;
            }
            _ => timestamp = Some(uint_of(a, "timestamp")?),
        }
    }
    let m = Mutation::Put {
        family,
        qualifier: qualifier.unwrap_or_default(),
        timestamp,
        value,
        ttl_ms,
    };
    engine
        .mutate(&name, &row, &[m])
        .or_else(|e| fail(e.to_string(), mutation_span(&e, args)))?;
    Ok(Some(String::new()))
}

/// Where an engine error from a mutation belongs: the row, the column, or the table.
fn mutation_span(e: &crate::engine::Error, args: &Args<'_>) -> Range<usize> {
    use crate::engine::Error as E;
    match e {
        E::EmptyRow | E::IllegalArgument(_) => args.span(1),
        E::NoSuchColumnFamily { .. } | E::NotALong(_) => args.span(2),
        _ => args.span(0),
    }
}

/// Options shared by get and scan.
struct ReadOpts {
    maxlength: Option<usize>,
}

fn read_opts(opts: &mut Opts<'_>, scan: &mut Scan) -> Res<ReadOpts> {
    if let Some(v) = opts.take("COLUMNS").or_else(|| opts.take("COLUMN")) {
        scan.columns = columns_of(v)?;
    }
    if let Some(v) = opts.take("VERSIONS") {
        let n = int_of(v, "VERSIONS")?;
        scan.max_versions = u32::try_from(n)
            .ok()
            .filter(|n| *n > 0)
            .map_or_else(|| fail("VERSIONS must be positive", v.span.clone()), Ok)?;
    }
    if let Some(v) = opts.take("TIMESTAMP") {
        let ts = uint_of(v, "TIMESTAMP")?;
        scan.time_range = (ts, ts.saturating_add(1));
    }
    if let Some(v) = opts.take("TIMERANGE") {
        let Value::Array(items) = &v.value else {
            return fail("TIMERANGE must be [min, max)", v.span.clone());
        };
        let (Some(a), Some(b), 2) = (items.first(), items.get(1), items.len()) else {
            return fail("TIMERANGE must be [min, max)", v.span.clone());
        };
        let (min, max) = (uint_of(a, "TIMERANGE start")?, uint_of(b, "TIMERANGE end")?);
        if max < min {
            return fail(format!("maxStamp is smaller than minStamp"), v.span.clone());
        }
        scan.time_range = (min, max);
    }
    if let Some(v) = opts.take("FILTER") {
        let Value::Str(text) = &v.value else {
            return fail("FILTER must be a filter string", v.span.clone());
        };
        let text = String::from_utf8_lossy(text).into_owned();
        match parse_filter(&text) {
            Ok(f) => scan.filter = Some(f),
            Err(e) => {
                // Map the span inside the filter string onto the literal (after its quote).
                let base = v.span.start + 1;
                let span = (base + e.span.start).min(v.span.end)
                    ..(base + e.span.end.max(e.span.start + 1)).min(v.span.end);
                return fail(
                    format!("java.lang.IllegalArgumentException: {}", e.message),
                    span,
                );
            }
        }
    }
    let maxlength = match opts.take("MAXLENGTH") {
        Some(v) => Some(uint_of(v, "MAXLENGTH")? as usize),
        None => None,
    };
    Ok(ReadOpts { maxlength })
}

fn get(engine: &mut Engine, args: &Args<'_>, trace: &mut Option<ReadTrace>) -> Res<Option<String>> {
    args.count(2, usize::MAX)?;
    let name = args.text(0, "table name")?;
    let row = args.bytes(1, "row key")?;
    let mut scan = Scan::get(&row);
    let mut columns = Vec::new();
    for i in 2..args.positional() {
        if let Some(a) = args.get(i) {
            columns.extend(columns_of(a)?);
        }
    }
    scan.columns = columns;
    let mut opts = match args.trailing_hash() {
        Some(h) if args.cmd.args.len() > 2 => Opts::of(h)?,
        _ => Opts::empty(),
    };
    let ro = read_opts(&mut opts, &mut scan)?;
    opts.done(
        commands::options("get"),
        &[
            "ATTRIBUTES",
            "AUTHORIZATIONS",
            "CONSISTENCY",
            "REGION_REPLICA_ID",
            "FORMATTER",
            "FORMATTER_CLASS",
        ],
    )?;
    let out = engine
        .scan(&name, &mut scan)
        .or_else(|e| fail(e.to_string(), args.span(0)))?;
    let cells: Vec<_> = out
        .rows
        .iter()
        .flat_map(|r| r.cells.iter().cloned())
        .collect();
    *trace = Some(trace_of(name, &out));
    Ok(Some(format::get_cells(&cells, ro.maxlength)))
}

/// What a read touched, for the views.
fn trace_of(table: String, out: &ScanOutput) -> ReadTrace {
    ReadTrace {
        table,
        examined: out.examined.clone(),
        returned: out.rows.iter().map(|r| r.row.clone()).collect(),
        stats: out.stats.clone(),
    }
}

fn scan_from(args: &Args<'_>, hash_at: usize) -> Res<(Scan, ReadOpts)> {
    let mut scan = Scan::default();
    let mut opts = match args.get(hash_at) {
        Some(h) => Opts::of(h)?,
        None => Opts::empty(),
    };
    if let Some(v) = opts.take("ROWPREFIXFILTER") {
        let p = bytes_of(v, "ROWPREFIXFILTER")?;
        scan.start_row = p.clone();
        scan.stop_row = crate::bytes::prefix_stop(&p);
    }
    if let Some(v) = opts.take("STARTROW") {
        scan.start_row = bytes_of(v, "STARTROW")?;
    }
    if let Some(v) = opts.take("STOPROW") {
        scan.stop_row = bytes_of(v, "STOPROW")?;
    }
    if let Some(v) = opts.take("REVERSED") {
        scan.reversed = bool_of(v, "REVERSED")?;
    }
    if let Some(v) = opts.take("RAW") {
        scan.raw = bool_of(v, "RAW")?;
    }
    if let Some(v) = opts.take("LIMIT") {
        let n = int_of(v, "LIMIT")?;
        scan.limit = Some(
            usize::try_from(n)
                .ok()
                .filter(|n| *n > 0)
                .map_or_else(|| fail("LIMIT must be positive", v.span.clone()), Ok)?,
        );
    }
    let ro = read_opts(&mut opts, &mut scan)?;
    opts.done(
        commands::options("scan"),
        &[
            "CACHE",
            "CACHE_BLOCKS",
            "BATCH",
            "INTERVAL",
            "ATTRIBUTES",
            "AUTHORIZATIONS",
            "CONSISTENCY",
            "ALL_METRICS",
            "METRICS",
            "FORMATTER",
            "FORMATTER_CLASS",
            "REGION_REPLICA_ID",
            "ISOLATION_LEVEL",
        ],
    )?;
    Ok((scan, ro))
}

fn scan(
    engine: &mut Engine,
    args: &Args<'_>,
    trace: &mut Option<ReadTrace>,
) -> Res<Option<String>> {
    args.count(1, 2)?;
    let name = args.text(0, "table name")?;
    let (mut scan, ro) = scan_from(args, 1)?;
    let out = engine
        .scan(&name, &mut scan)
        .or_else(|e| fail(e.to_string(), args.span(0)))?;
    *trace = Some(trace_of(name, &out));
    Ok(Some(format::scan_rows(&out.rows, ro.maxlength)))
}

fn count(
    engine: &mut Engine,
    args: &Args<'_>,
    trace: &mut Option<ReadTrace>,
) -> Res<Option<String>> {
    args.count(1, 2)?;
    let name = args.text(0, "table name")?;
    let interval = match args.get(1) {
        Some(h) => {
            let opts = Opts::of(h)?;
            match opts.pairs.iter().find(|p| p.0 == "INTERVAL") {
                Some((_, v, _)) => uint_of(v, "INTERVAL")?.max(1),
                None => 1000,
            }
        }
        None => 1000,
    };
    let (mut scan, _) = scan_from(args, 1)?;
    let out = engine
        .scan(&name, &mut scan)
        .or_else(|e| fail(e.to_string(), args.span(0)))?;
    let mut text = String::new();
    for (i, row) in out.rows.iter().enumerate() {
        if (i as u64 + 1) % interval == 0 {
            text.push_str(&format!(
                "Current count: {}, row: {}\n",
                i + 1,
                to_printable(&row.row)
            ));
        }
    }
    let n = out.rows.len();
    text.push_str(&format!("{n} row(s)\n"));
    *trace = Some(trace_of(name, &out));
    Ok(Some(echo(text, n.to_string())))
}

fn delete(engine: &mut Engine, args: &Args<'_>) -> Res<Option<String>> {
    let all = args.cmd.name == "deleteall";
    if all {
        args.count(2, 5)?;
    } else {
        args.count(3, 5)?;
    }
    let name = args.text(0, "table name")?;
    // deleteall 't', {ROWPREFIXFILTER => 'p'}: every row with the prefix.
    if all && matches!(args.get(1).map(|a| &a.value), Some(Value::Hash(_))) {
        let Some(h) = args.get(1) else {
            return Ok(Some(String::new()));
        };
        let mut opts = Opts::of(h)?;
        let Some(p) = opts.take("ROWPREFIXFILTER") else {
            return fail("expected {ROWPREFIXFILTER => 'prefix'}", h.span.clone());
        };
        let prefix = bytes_of(p, "ROWPREFIXFILTER")?;
        opts.done(commands::options("deleteall"), &["CACHE"])?;
        let mut scan = Scan::prefix(&prefix);
        let rows = engine
            .scan(&name, &mut scan)
            .or_else(|e| fail(e.to_string(), args.span(0)))?
            .rows;
        for r in rows {
            engine
                .mutate(&name, &r.row, &[Mutation::DeleteRow { timestamp: None }])
                .or_else(|e| fail(e.to_string(), args.span(0)))?;
        }
        return Ok(Some(String::new()));
    }
    let row = args.bytes(1, "row key")?;
    let mut column = None;
    let mut timestamp = None;
    for i in 2..args.cmd.args.len() {
        let Some(a) = args.get(i) else { continue };
        match &a.value {
            Value::Hash(_) => Opts::of(a)?.done(&["VISIBILITY"], &["VISIBILITY", "ATTRIBUTES"])?,
            Value::Int(_) if column.is_some() || (i == 2 && all) => {
                timestamp = Some(uint_of(a, "timestamp")?)
            }
            _ if column.is_none() => column = Some(bytes_of(a, "column")?),
            _ => timestamp = Some(uint_of(a, "timestamp")?),
        }
    }
    let m = match column.filter(|c| !c.is_empty()) {
        None => Mutation::DeleteRow { timestamp },
        Some(col) => {
            let (family, qualifier) = split_column(&col);
            Mutation::Delete {
                family,
                qualifier,
                timestamp,
                all_versions: all,
            }
        }
    };
    engine
        .mutate(&name, &row, &[m])
        .or_else(|e| fail(e.to_string(), mutation_span(&e, args)))?;
    Ok(Some(String::new()))
}

/// `check_and_put 't', 'r', 'f:q', expected, 'f:c', 'value' [, {OP => '>'}]` and
/// `check_and_delete 't', 'r', 'f:q', expected, 'f:c'`; `nil` as expected means "if absent".
fn check_and_mutate(engine: &mut Engine, args: &Args<'_>) -> Res<Option<String>> {
    let is_put = args.cmd.name == "check_and_put";
    if is_put {
        args.count(6, 7)?;
    } else {
        args.count(5, 6)?;
    }
    let name = args.text(0, "table name")?;
    let row = args.bytes(1, "row key")?;
    let (family, qualifier) = qualified(args, 2)?;
    let mut op = CompareOp::Equal;
    if let Some(h) = args.trailing_hash() {
        let mut opts = Opts::of(h)?;
        if let Some(v) = opts.take("OP") {
            let text = String::from_utf8_lossy(&bytes_of(v, "OP")?).into_owned();
            op = CompareOp::parse(&text).map_or_else(
                || fail("OP must be one of <, <=, =, !=, >=, >", v.span.clone()),
                Ok,
            )?;
        }
        opts.done(commands::options(&args.cmd.name), &[])?;
    }
    let condition = match args.get(3).map(|a| &a.value) {
        Some(Value::Ident(w)) if w == "nil" => Condition::NotExists,
        _ => Condition::Compare(op, args.bytes(3, "expected value")?),
    };
    let (tf, tq) = split_column(&args.bytes(4, "column")?);
    let m = if is_put {
        Mutation::Put {
            family: tf,
            qualifier: tq.unwrap_or_default(),
            timestamp: None,
            value: args.bytes(5, "value")?,
            ttl_ms: None,
        }
    } else {
        Mutation::Delete {
            family: tf,
            qualifier: tq,
            timestamp: None,
            all_versions: true,
        }
    };
    let done = engine
        .check_and_mutate(&name, &row, &family, &qualifier, &condition, &[m])
        .or_else(|e| fail(e.to_string(), args.span(0)))?;
    Ok(Some(echo(String::new(), done.to_string())))
}

/// `mutate_row 't', 'r', [['put', 'f:q', 'v'], ['delete', 'f:q'], ['deleteall', 'f']]`: one atomic row mutation.
fn mutate_row(engine: &mut Engine, args: &Args<'_>) -> Res<Option<String>> {
    args.count(3, 3)?;
    let name = args.text(0, "table name")?;
    let row = args.bytes(1, "row key")?;
    let Some(list) = args.get(2) else {
        return fail("missing mutations", args.cmd.span.clone());
    };
    let Value::Array(items) = &list.value else {
        return fail(
            "mutations must be an array of ['put'|'delete'|'deleteall', column, ...]",
            list.span.clone(),
        );
    };
    let mut mutations = Vec::new();
    for item in items {
        let Value::Array(parts) = &item.value else {
            return fail("each mutation is an array", item.span.clone());
        };
        let word = parts
            .first()
            .map(|p| bytes_of(p, "operation"))
            .transpose()?
            .unwrap_or_default();
        let col = parts
            .get(1)
            .map(|p| bytes_of(p, "column"))
            .transpose()?
            .map(|c| split_column(&c));
        let rest = parts.get(2);
        let m =
            match (word.as_slice(), col) {
                (b"put", Some((family, q))) => {
                    let Some(v) = rest else {
                        return fail("put needs a value", item.span.clone());
                    };
                    let timestamp = parts.get(3).map(|t| uint_of(t, "timestamp")).transpose()?;
                    Mutation::Put {
                        family,
                        qualifier: q.unwrap_or_default(),
                        timestamp,
                        value: bytes_of(v, "value")?,
                        ttl_ms: None,
                    }
                }
                (b"delete", Some((family, qualifier))) => Mutation::Delete {
                    family,
                    qualifier,
                    timestamp: rest.map(|t| uint_of(t, "timestamp")).transpose()?,
                    all_versions: false,
                },
                (b"deleteall", Some((family, qualifier))) => Mutation::Delete {
                    family,
                    qualifier,
                    timestamp: rest.map(|t| uint_of(t, "timestamp")).transpose()?,
                    all_versions: true,
                },
                _ => return fail(
                    "expected ['put', column, value], ['delete', column] or ['deleteall', column]",
                    item.span.clone(),
                ),
            };
        mutations.push(m);
    }
    engine
        .mutate(&name, &row, &mutations)
        .or_else(|e| fail(e.to_string(), list.span.clone()))?;
    Ok(Some(String::new()))
}
