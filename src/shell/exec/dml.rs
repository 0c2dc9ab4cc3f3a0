//! HBase's `dml` group: writes (put, delete, deleteall, incr, append, the atomic row
//! operations), reads (get, scan, count, get_counter) and emptying a table (truncate).

use std::fmt::Write as _;
use std::ops::Range;

use super::args::{
    bool_of, bytes_of, counter_column, fail, int_of, kind_name, qualified, split_column, uint_of,
    word_of, Args, Opts, Res,
};
use super::{echo, engine_error, format, Ctx, Reply, Step};
use crate::bytes::to_printable;
use crate::commands::{self, Dialect};
use crate::engine::{Condition, Engine, Mutation, RowView, Rules, Scan, ScanOutput};
use crate::filter::{parse_filter, parse_java_filter, CompareOp};
use crate::shell::ast::{Spanned, Value};
use crate::shell::convert::{Columns, Converters};
use crate::shell::{ReadTrace, RowKeys};

/// `truncate` and `truncate_preserve`.
pub(in crate::shell) fn truncate(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    let name = args.table(0)?;
    // admin.rb prints its first line before it asks whether the table is enabled, which
    // fails for a missing table.
    let first = format!("Truncating '{name}' table (it may take a while):\n");
    ctx.printed.clone_from(&first);
    // admin.rb `truncate`: disables the table first only if it is enabled.
    let enabled = ctx
        .engine
        .table(&name)
        .map_err(|e| engine_error(e, args.span(0)))?
        .enabled;
    ctx.engine
        .truncate(&name, args.cmd.name == "truncate_preserve")
        .map_err(|e| engine_error(e, args.span(0)))?;
    let disabling = if enabled { "Disabling table...\n" } else { "" };
    Ok(Some(format!("{first}{disabling}Truncating table...\n")))
}

/// The options hash of `incr` and `append` (`ATTRIBUTES`, `VISIBILITY`, `TTL`): table.rb sets
/// them on the operation; Rowkey has no use for attributes and labels, and takes no TTL here.
fn mutation_options(a: &Spanned) -> Res<()> {
    Opts::of(a)?.done(&["ATTRIBUTES", "VISIBILITY"], &["ATTRIBUTES", "VISIBILITY"])
}

pub(in crate::shell) fn incr(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    let engine = &mut *ctx.engine;
    let (name, row) = (args.table(0)?, args.bytes(1, "row key")?);
    let (family, qualifier) = counter_column(args, 2)?;
    // incr.rb: `incr 't1', 'r1', 'c1', {ATTRIBUTES => ...}` takes the hash for options and
    // the amount as 1 (`value = 1 if value.is_a?(Hash)`).
    let amount = match args.get(3) {
        Some(a) if matches!(a.value, Value::Hash(_)) => {
            mutation_options(a)?;
            if let Some(extra) = args.get(4) {
                return fail(
                    "wrong number of arguments (given 5, expected 3..4)",
                    extra.span.clone(),
                );
            }
            1
        }
        Some(a) => int_of(a, "increment")?,
        None => 1,
    };
    if let Some(opts) = args.get(4) {
        mutation_options(opts)?;
    }
    let value = engine
        .increment(&name, &row, &family, &qualifier, amount)
        .map_err(|e| engine_error(e, args.span(2)))?;
    Ok(Some(format!("COUNTER VALUE = {value}\n")))
}

pub(in crate::shell) fn get_counter(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    let engine = &mut *ctx.engine;
    let (name, row) = (args.table(0)?, args.bytes(1, "row key")?);
    let (family, qualifier) = counter_column(args, 2)?;
    let mut scan = Scan::get(&row);
    scan.columns = vec![(family, Some(qualifier))];
    let out = engine
        .scan(&name, &mut scan)
        .map_err(|e| engine_error(e, args.span(0)))?;
    match out.rows.first().and_then(|r| r.cells.first()) {
        None => Ok(Some("No counter found at specified coordinates\n".into())),
        Some(c) => match <[u8; 8]>::try_from(c.value) {
            Ok(b) => Ok(Some(format!("COUNTER VALUE = {}\n", i64::from_be_bytes(b)))),
            // table.rb `_get_counter_internal` reads the value on the client with
            // `Bytes.toLong(array, offset, length)`, which refuses any length but 8
            // (`explainWrongLengthOrOffset`); "Field is not a long" is the server's `incr`.
            Err(_) => fail(
                format!("Wrong length: {}, expected 8", c.value.len()),
                args.span(2),
            ),
        },
    }
}

pub(in crate::shell) fn append(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    let engine = &mut *ctx.engine;
    if let Some(opts) = args.get(4) {
        mutation_options(opts)?;
    }
    let (name, row) = (args.table(0)?, args.bytes(1, "row key")?);
    let (family, qualifier) = counter_column(args, 2)?;
    let suffix = args.value_text(3, "value")?;
    let value = engine
        .append(&name, &row, &family, &qualifier, &suffix)
        .map_err(|e| engine_error(e, args.span(2)))?;
    Ok(Some(format!("CURRENT VALUE = {}\n", to_printable(&value))))
}

pub(in crate::shell) fn put(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    let engine = &mut *ctx.engine;
    let name = args.table(0)?;
    let row = args.bytes(1, "row key")?;
    let (family, qualifier) = split_column(&args.bytes(2, "column")?);
    let value = args.value_text(3, "value")?;
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
                opts.done(
                    commands::options(Dialect::HBase, "put"),
                    &["ATTRIBUTES", "VISIBILITY"],
                )?;
            }
            _ => timestamp = timestamp_of(a)?,
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
        .mutate(&name, &row, &in_table_units(engine, &name, vec![m]))
        .or_else(|e| fail(e.to_string(), mutation_span(&e, args)))?;
    Ok(Some(String::new()))
}

/// Where an engine error from a mutation belongs: the row, the column, or the table.
/// A write's timestamp; `None` (the server's time) for `HConstants.LATEST_TIMESTAMP`
/// (`Long.MAX_VALUE`), which the region server replaces with its time for a put
/// (`HRegion.updateCellTimestamps`) and a delete reads as "the latest version".
fn timestamp_of(a: &Spanned) -> Res<Option<u64>> {
    let ts = uint_of(a, "timestamp")?;
    Ok((ts != i64::MAX as u64).then_some(ts))
}

fn mutation_span(e: &crate::engine::Error, args: &Args<'_>) -> Range<usize> {
    use crate::engine::Error as E;
    match e {
        E::EmptyRow | E::IllegalArgument(_) => args.span(1),
        E::NoSuchColumnFamily(missing) => args.family_span(2, &missing.family),
        E::NotALong(_) => args.span(2),
        _ => args.span(0),
    }
}

/// Where an engine error from a read belongs: the column naming a missing family (among the
/// arguments from the `columns`-th on), else the table.
fn read_error_span(e: &crate::engine::Error, args: &Args<'_>, columns: usize) -> Range<usize> {
    match e {
        crate::engine::Error::NoSuchColumnFamily(missing) => {
            args.family_span(columns, &missing.family)
        }
        _ => args.span(0),
    }
}

/// Options shared by get and scan.
struct ReadOpts {
    maxlength: Option<usize>,
    converters: Converters,
    /// `ALL_METRICS => true` or `METRICS => [...]`: print the scan metrics after the rows,
    /// only those named (all when the list is empty or absent).
    metrics: Option<Vec<String>>,
}

/// The columns of a `COLUMNS`/`COLUMN` value (one name or an array of names), added in
/// order as `table.rb` adds them with `Get`/`Scan.addFamily` and `addColumn`.
fn add_columns(columns: &mut Columns, v: &Spanned, not_a_list: &str) -> Res<()> {
    match &v.value {
        Value::Array(items) => {
            for item in items {
                columns.add(&bytes_of(item, "column")?);
            }
            Ok(())
        }
        Value::Str(_) => {
            columns.add(&bytes_of(v, "column")?);
            Ok(())
        }
        _ => fail(not_a_list, v.span.clone()),
    }
}

/// Units of `table`'s timestamps in a millisecond: 1 for an HBase table, 1,000 for a Bigtable
/// one, whose cells count microseconds. The shell speaks milliseconds to both, as Bigtable's
/// HBase client does (`TimestampConverter`: `hbase2bigtable` multiplies a timestamp by 1,000,
/// `bigtable2hbase` divides it); 1 for a table that does not exist (the command's own error
/// says so).
fn units_per_ms(engine: &crate::engine::Engine, table: &str) -> u64 {
    table_rules(engine, table).timestamps.per_millisecond()
}

/// `table`'s rules; HBase's for a table that does not exist (the command's own error says so).
fn table_rules(engine: &crate::engine::Engine, table: &str) -> Rules {
    engine
        .table(table)
        .map_or(Rules::HBASE, |t| t.descriptor.rules)
}

/// `mutations` with their timestamps, given in milliseconds, in `table`'s units.
fn in_table_units(
    engine: &crate::engine::Engine,
    table: &str,
    mut mutations: Vec<Mutation>,
) -> Vec<Mutation> {
    let per_ms = units_per_ms(engine, table);
    for m in &mut mutations {
        let (Mutation::Put { timestamp, .. }
        | Mutation::Delete { timestamp, .. }
        | Mutation::DeleteRow { timestamp }) = m;
        *timestamp = timestamp.map(|t| t.saturating_mul(per_ms));
    }
    mutations
}

/// Refuses a delete bounded by the timestamp `at` on a table without delete markers (a
/// Bigtable table): Rowkey's Bigtable deletes take what a column, family or row holds when they
/// are written, as cbt's `deletecolumn`, `deletefamily` and `deleterow` do, and model no time
/// range (Bigtable's `DeleteFromColumn` has one). Taken as a whole-column delete, such a delete
/// took away newer cells than its timestamp.
fn no_bounded_delete(engine: &crate::engine::Engine, table: &str, at: &Spanned) -> Res<()> {
    if engine
        .table(table)
        .is_ok_and(|t| !t.descriptor.rules.masks_deletes())
    {
        return fail(
            format!(
                "{table} is a Bigtable table, whose deletes Rowkey models whole (a column, a \
                 family or a row, as cbt's deletecolumn, deletefamily and deleterow take them): \
                 a delete bounded by a timestamp is not modeled. Leave the timestamp out."
            ),
            at.span.clone(),
        );
    }
    Ok(())
}

/// A read's time range `[min, max)` in milliseconds, in a table's units (`per_ms` of them a
/// millisecond); an open end stays open.
fn range_in_units((min, max): (u64, u64), per_ms: u64) -> (u64, u64) {
    let end = if max == u64::MAX {
        max
    } else {
        max.saturating_mul(per_ms)
    };
    (min.saturating_mul(per_ms), end)
}

/// The options of a get (`get`) or scan after its columns: versions, time (in milliseconds,
/// set in the table's units, `per_ms` of them a millisecond), filter and MAXLENGTH.
fn read_opts(opts: &mut Opts<'_>, scan: &mut Scan, per_ms: u64, get: bool) -> Res<Option<usize>> {
    if let Some(v) = opts.take("VERSIONS") {
        let n = int_of(v, "VERSIONS")?;
        scan.max_versions = match u32::try_from(n) {
            Ok(n) if n > 0 => n,
            // A get's `Get.readVersions` refuses it; a scan sets its versions only above one
            // (table.rb: `scan.setMaxVersions(versions) if versions > 1`), and reads one.
            _ if get => return fail("versions must be positive", v.span.clone()),
            Ok(_) | Err(_) if n <= 0 => 1,
            Ok(_) | Err(_) => return fail("VERSIONS must be a 32-bit number", v.span.clone()),
        };
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
            return fail("maxStamp is smaller than minStamp", v.span.clone());
        }
        scan.time_range = (min, max);
    }
    scan.time_range = range_in_units(scan.time_range, per_ms);
    if let Some(v) = opts.take("FILTER") {
        let Value::Str(text) = &v.value else {
            // `table.rb`: a FILTER that is not a String is the filter object itself.
            let text = super::jruby::filter_text(v)?;
            // The object's constructor throws what the filter's own check says (JRuby prints
            // a Java exception by its message).
            let f = parse_java_filter(&text).or_else(|e| {
                fail(
                    format!("{} (in {text})", e.cause.unwrap_or(e.message)),
                    v.span.clone(),
                )
            })?;
            scan.filter = Some(f);
            return match opts.take("MAXLENGTH") {
                Some(v) => Ok(Some(maxlength(uint_of(v, "MAXLENGTH")?))),
                None => Ok(None),
            };
        };
        let text = String::from_utf8_lossy(text).into_owned();
        match parse_filter(&text) {
            Ok(f) => scan.filter = Some(f),
            Err(e) => {
                // Map the span inside the filter string onto the literal (after its quote).
                let base = v.span.start + 1;
                let span = (base + e.span.start).min(v.span.end)
                    ..(base + e.span.end.max(e.span.start + 1)).min(v.span.end);
                // ParseFilter's IllegalArgumentException, which the shell prints by its
                // message alone; a filter's own refusal, which HBase only logs, follows.
                let message = match e.cause {
                    Some(cause) => format!(
                        "{}\n(Rowkey: the filter's createFilterFromArguments refused it: {cause})",
                        e.message
                    ),
                    None => e.message,
                };
                return fail(message, span);
            }
        }
    }
    match opts.take("MAXLENGTH") {
        Some(v) => Ok(Some(maxlength(uint_of(v, "MAXLENGTH")?))),
        None => Ok(None),
    }
}

/// Keys `_get_internal` takes out of the hash before it decides whether the rest names
/// columns or a time.
const GET_SIDE_KEYS: &[&str] = &[
    "MAXLENGTH",
    "FILTER",
    "CONSISTENCY",
    "REGION_REPLICA_ID",
    "FORMATTER",
    "FORMATTER_CLASS",
];

/// A read's `FORMATTER` and `FORMATTER_CLASS` (`table.rb`: a `Bytes` method that prints the
/// row key, the column names and the values of columns without a converter of their own).
fn formatter(opts: &mut Opts<'_>, columns: &mut Columns) -> Res<()> {
    let class = match opts.take("FORMATTER_CLASS") {
        Some(v) => Some(String::from_utf8_lossy(&bytes_of(v, "FORMATTER_CLASS")?).into_owned()),
        None => None,
    };
    if let Some(v) = opts.take("FORMATTER") {
        let method = String::from_utf8_lossy(&bytes_of(v, "FORMATTER")?).into_owned();
        columns.converters.set_formatter(method, class);
    }
    Ok(())
}

/// `get 't', 'r'`, `get 't', 'r', 'c1', 'c2'`, `get 't', 'r', ['c1', 'c2']` or
/// `get 't', 'r', {COLUMN => ..., ...}`, read as hbase-shell's `table.rb` `_get_internal`
/// reads them.
pub(in crate::shell) fn get(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    let name = args.table(0)?;
    // get.rb prints the header before `_get_internal` reads anything (a missing table, a bad
    // column or filter fails after it).
    ctx.printed = format::GET_HEADER.into();
    let row = args.bytes(1, "row key")?;
    let mut scan = Scan::get(&row);
    let mut columns = Columns::default();
    let hash = args.trailing_hash().filter(|_| args.cmd.args.len() > 2);
    let positional = args.positional();
    if let (Some(h), true) = (hash, positional > 2) {
        // `args.first` is then a column, so `_get_internal` flattens the hash in among the
        // columns and asks HBase for a family named after its text.
        return fail(
            "a column list and an options hash do not mix: HBase's shell would read the hash \
             as one more column name. Put the columns in the hash: {COLUMNS => [...], ...}",
            h.span.clone(),
        );
    }
    for i in 2..positional {
        if let Some(a) = args.get(i) {
            add_columns(
                &mut columns,
                a,
                "expected a column name or an array of them",
            )?;
        }
    }
    let mut opts = match hash {
        Some(h) => Opts::of(h)?,
        None => Opts::empty(),
    };
    const GET_IGNORED: &[&str] = &[
        "COLUMNS",
        "ATTRIBUTES",
        "AUTHORIZATIONS",
        "CONSISTENCY",
        "REGION_REPLICA_ID",
    ];
    // A key nobody knows is a slip: say so before judging what the hash asks for.
    let known: Vec<&str> = commands::options(Dialect::HBase, "get")
        .iter()
        .chain(GET_IGNORED)
        .copied()
        .collect();
    Opts {
        pairs: opts.pairs.clone(),
    }
    .done(commands::options(Dialect::HBase, "get"), &known)?;
    if let Some(h) = hash {
        // What is left once the side options are out must name columns, or a time (or carry
        // attributes or authorizations); `_get_internal` raises this otherwise.
        let rest: Vec<_> = opts
            .pairs
            .iter()
            .filter(|p| !GET_SIDE_KEYS.contains(&p.0.as_str()))
            .map(|p| p.0.as_str())
            .collect();
        let has = |k: &str| rest.contains(&k);
        let names_columns = has("COLUMN") || has("COLUMNS");
        let names_time = has("TIMESTAMP") || has("TIMERANGE");
        let other = has("ATTRIBUTES") || has("AUTHORIZATIONS");
        if !rest.is_empty() && !names_columns && !names_time && !other {
            return fail(
                format!(
                    "Failed parse of {}, Hash",
                    ruby_hash_without(h, GET_SIDE_KEYS)
                ),
                h.span.clone(),
            );
        }
    }
    if let Some(v) = opts.take("COLUMN").or_else(|| opts.take("COLUMNS")) {
        add_columns(
            &mut columns,
            v,
            "Failed parse column argument type: COLUMN must be a column name or an array of them",
        )?;
    }
    scan.columns = columns.scan_columns();
    formatter(&mut opts, &mut columns)?;
    let per_ms = units_per_ms(ctx.engine, &name);
    let maxlength = read_opts(&mut opts, &mut scan, per_ms, true)?;
    opts.done(commands::options(Dialect::HBase, "get"), GET_IGNORED)?;
    columns.converters.set_per_ms(per_ms);
    // A get reads one row.
    let time = ctx.time_format;
    let mut text = String::from(format::GET_HEADER);
    let read = read_formatting(ctx.engine, &name, &mut scan, &mut text, &mut |text, row| {
        format::get_lines(
            text,
            row.cells.iter().copied(),
            maxlength,
            time,
            &columns.converters,
        )
    })
    .or_else(|e| fail(e.to_string(), read_error_span(&e, args, 2)))?;
    finish_formatted(ctx, name, read, args, text)
}

/// A read whose rows were formatted as they were handed over ([`read_formatting`]).
struct Formatted {
    out: ScanOutput,
    returned: RowKeys,
    /// The first row the formatter failed on: its converter's exception.
    failed: Option<String>,
}

/// Runs `scan`, formatting each row into `text` as the read hands it over, from the cells
/// where the table keeps them: a `get` or `scan` copies the text it prints, not the cells.
fn read_formatting(
    engine: &mut Engine,
    table: &str,
    scan: &mut Scan,
    text: &mut String,
    format_row: &mut dyn FnMut(&mut String, RowView<'_>) -> Result<(), String>,
) -> crate::engine::Result<Formatted> {
    let mut returned = RowKeys::default();
    let mut failed = None;
    let out = engine.scan_each(table, scan, &mut |row| {
        returned.push(row.row());
        if failed.is_none() {
            failed = format_row(text, row).err();
        }
    })?;
    Ok(Formatted {
        out,
        returned,
        failed,
    })
}

/// Ends a formatted read's text with its count of rows (`formatter.footer`), or fails with
/// its formatter's error; either way the views see what it read.
fn finish_formatted(
    ctx: &mut Ctx<'_>,
    table: String,
    read: Formatted,
    args: &Args<'_>,
    mut text: String,
) -> Res<Reply> {
    let _ = writeln!(text, "{} row(s)", read.returned.len());
    ctx.trace = Some(trace_returning(table, &read.out, read.returned));
    match read.failed {
        Some(e) => fail(e, args.cmd.span.clone()),
        None => Ok(Some(text)),
    }
}

/// A hash as Ruby's `Hash#inspect` prints it (`{"VERSIONS"=>3}`), leaving out `skip` keys;
/// the shell's constants (`VERSIONS`) are strings.
fn ruby_hash_without(h: &Spanned, skip: &[&str]) -> String {
    let Value::Hash(pairs) = &h.value else {
        return ruby_inspect(&h.value, true);
    };
    let shown: Vec<String> = pairs
        .iter()
        .filter(|(k, _)| word_of(&k.value).is_none_or(|w| !skip.contains(&w.as_str())))
        .map(|(k, v)| {
            format!(
                "{}=>{}",
                ruby_inspect(&k.value, true),
                ruby_inspect(&v.value, false)
            )
        })
        .collect();
    format!("{{{}}}", shown.join(", "))
}

/// A value as Ruby's `inspect` prints it; with `constants_are_strings` a bare word is one of
/// the shell's string constants.
pub(super) fn ruby_inspect(v: &Value, constants_are_strings: bool) -> String {
    match v {
        Value::Str(b) => {
            let mut out = String::from("\"");
            for &c in b {
                match c {
                    b'"' => out.push_str("\\\""),
                    b'\\' => out.push_str("\\\\"),
                    b' '..=b'~' => out.push(char::from(c)),
                    _ => {
                        let _ = write!(out, "\\x{c:02X}");
                    }
                }
            }
            out.push('"');
            out
        }
        Value::Int(i) => i.to_string(),
        Value::Float(_) => v.to_string(),
        Value::Ident(w)
            if constants_are_strings && !matches!(w.as_str(), "true" | "false" | "nil") =>
        {
            format!("\"{w}\"")
        }
        Value::Ident(w) => w.clone(),
        Value::Array(items) => format!(
            "[{}]",
            items
                .iter()
                .map(|i| ruby_inspect(&i.value, constants_are_strings))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        // A Java object inspects as `#<Java::...>`; its source text says more.
        Value::Call { .. } => format!("#<Java::{v}>"),
        Value::Hash(_) => ruby_hash_without(
            &Spanned {
                value: v.clone(),
                span: 0..0,
            },
            &[],
        ),
    }
}

/// What a read touched, for the views.
fn trace_of(table: String, out: &ScanOutput) -> ReadTrace {
    trace_returning(table, out, out.rows.iter().map(|r| r.row()).collect())
}

/// What a read that handed its rows over one by one touched: `returned` are their keys.
fn trace_returning(table: String, out: &ScanOutput, returned: RowKeys) -> ReadTrace {
    ReadTrace {
        table,
        examined: out.examined.clone(),
        returned,
        stats: out.stats.clone(),
    }
}

/// The scan of a `scan` or `count` hash, as hbase-shell's `table.rb` `_hash_to_scan` builds it.
fn scan_from(args: &Args<'_>, hash_at: usize, rules: Rules) -> Res<(Scan, ReadOpts)> {
    let per_ms = rules.timestamps.per_millisecond();
    let mut scan = Scan::default();
    let mut opts = match args.get(hash_at) {
        Some(h) => Opts::of(h)?,
        None => Opts::empty(),
    };
    if let Some(v) = opts.take("STARTROW") {
        scan.start_row = bytes_of(v, "STARTROW")?;
    }
    if let Some(v) = opts.take("STOPROW") {
        scan.stop_row = bytes_of(v, "STOPROW")?;
        // `Scan.new(startrow, stoprow)`: the deprecated constructor's `setStopRow` makes the
        // stop row inclusive when it equals a non-empty start row, the old "get scan".
        scan.stop_inclusive = !scan.start_row.is_empty() && scan.start_row == scan.stop_row;
    }
    if let Some(v) = opts.take("ROWPREFIXFILTER") {
        // `setRowPrefixFilter` comes after the constructor and overwrites both bounds
        // (`withStartRow`, then `withStopRow`, which is exclusive).
        let p = bytes_of(v, "ROWPREFIXFILTER")?;
        scan.start_row = p.clone();
        scan.stop_row = crate::bytes::prefix_stop(&p);
        scan.stop_inclusive = false;
    }
    let mut columns = Columns::default();
    if let Some(v) = opts.take("COLUMNS").or_else(|| opts.take("COLUMN")) {
        add_columns(
            &mut columns,
            v,
            "COLUMNS must be specified as a String or an Array",
        )?;
    }
    scan.columns = columns.scan_columns();
    formatter(&mut opts, &mut columns)?;
    if let Some(v) = opts.take("REVERSED") {
        scan.reversed = bool_of(v, "REVERSED")?;
    }
    if let Some(v) = opts.take("RAW") {
        // A raw read shows delete markers and what they hide, which a Bigtable table does not
        // keep: its deletes take cells away. Rowkey holds them hidden until the next major
        // compaction (a cell of the highest timestamp, which a raw read printed in the year
        // 294247); a raw read of such a table is every version a read sees, as it stores them.
        scan.raw = bool_of(v, "RAW")? && rules.masks_deletes();
    }
    if let Some(v) = opts.take("LIMIT") {
        // table.rb `_hash_to_scan`: `scan.setLimit(limit) if limit > 0`: a LIMIT of 0 or
        // below reads the whole range.
        let n = int_of(v, "LIMIT")?;
        scan.limit = usize::try_from(n).ok().filter(|n| *n > 0);
    }
    // `_hash_to_scan`: `enablemetrics = ALL_METRICS || !METRICS.nil?`; the formatter prints
    // the names METRICS lists, or all of them.
    let all_metrics = match opts.take("ALL_METRICS") {
        Some(v) => bool_of(v, "ALL_METRICS")?,
        None => false,
    };
    let named_metrics = match opts.take("METRICS") {
        Some(v) => Some(metric_names(v)?),
        None => None,
    };
    let metrics = match named_metrics {
        Some(names) => Some(names),
        None if all_metrics => Some(Vec::new()),
        None => None,
    };
    let maxlength = read_opts(&mut opts, &mut scan, per_ms, false)?;
    columns.converters.set_per_ms(per_ms);
    opts.done(
        commands::options(Dialect::HBase, "scan"),
        &[
            "COLUMN",
            "CACHE",
            "CACHE_BLOCKS",
            "BATCH",
            "INTERVAL",
            "ATTRIBUTES",
            "AUTHORIZATIONS",
            "CONSISTENCY",
            "MAX_RESULT_SIZE",
            "READ_TYPE",
            "ALLOW_PARTIAL_RESULTS",
            "MAX_RESULTS_PER_COLUMN_FAMILY",
            "REGION_REPLICA_ID",
            "ISOLATION_LEVEL",
        ],
    )?;
    Ok((
        scan,
        ReadOpts {
            maxlength,
            converters: columns.converters,
            metrics,
        },
    ))
}

/// The names of `METRICS => ['ROWS_SCANNED', ...]` (one name alone is taken as a list of one).
fn metric_names(v: &Spanned) -> Res<Vec<String>> {
    let items: Vec<&Spanned> = match &v.value {
        Value::Array(items) => items.iter().collect(),
        _ => vec![v],
    };
    items
        .into_iter()
        .map(|i| match word_of(&i.value) {
            Some(w) if !matches!(i.value, Value::Ident(_)) => Ok(w),
            _ => fail(
                format!(
                    "METRICS must be an array of metric names, found {}",
                    kind_name(&i.value)
                ),
                i.span.clone(),
            ),
        })
        .collect()
}

pub(in crate::shell) fn scan(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    let name = args.table(0)?;
    // scan.rb prints the header before `_hash_to_scan` reads the options.
    ctx.printed = format::SCAN_HEADER.into();
    let (mut scan, ro) = scan_from(args, 1, table_rules(ctx.engine, &name))?;
    // A scan printing its metrics runs whole: the metrics are those of one scanner.
    if let (Some(page), None) = (ctx.page_rows, &ro.metrics) {
        return scan_page(ctx, args, scan, &ro, None, page);
    }
    let time = ctx.time_format;
    let mut text = String::from(format::SCAN_HEADER);
    let read = read_formatting(ctx.engine, &name, &mut scan, &mut text, &mut |text, row| {
        format::row_lines(
            text,
            row.cells.iter().copied(),
            ro.maxlength,
            time,
            &ro.converters,
        )
    })
    .or_else(|e| fail(e.to_string(), read_error_span(&e, args, 1)))?;
    let metrics = ro
        .metrics
        .as_ref()
        .map(|names| format::scan_metrics(&read.out.stats, names));
    let mut text = finish_formatted(ctx, name, read, args, text)?;
    if let (Some(t), Some(m)) = (text.as_mut(), metrics) {
        t.push_str(&m);
    }
    Ok(text)
}

/// The next page of a paged scan: the same command read again, starting after the last row
/// shown.
pub(super) fn resume_scan(
    ctx: &mut Ctx<'_>,
    args: &Args<'_>,
    after: Progress,
    page: usize,
) -> Res<Reply> {
    let rules = table_rules(ctx.engine, &args.table(0)?);
    let (scan, ro) = scan_from(args, 1, rules)?;
    scan_page(ctx, args, scan, &ro, Some(after), page)
}

/// Where a paged scan stands: the last row shown and how many rows were shown.
#[derive(Clone, Debug)]
pub(super) struct Progress {
    pub(super) last_row: Vec<u8>,
    pub(super) rows: u64,
}

/// Up to `page` rows of `scan` after `after` (from the start when `None`). The first page
/// carries the header, the last the `N row(s)` line with the total over every page; any page
/// but the last leaves a continuation in `ctx.more`.
///
/// Each page is a new scanner that starts just after the last row shown (in a reversed scan
/// at that row, which is then skipped), with LIMIT reduced by the rows shown, STOPROW and
/// filters as given. A filter that counts (PageFilter, ColumnCountGetFilter's row count)
/// counts again from zero on each page, as it would for each region scanner in HBase.
fn scan_page(
    ctx: &mut Ctx<'_>,
    args: &Args<'_>,
    mut scan: Scan,
    ro: &ReadOpts,
    after: Option<Progress>,
    page: usize,
) -> Res<Reply> {
    let name = args.table(0)?;
    let page = page.max(1);
    let shown = after.as_ref().map_or(0, |a| a.rows);
    let left = scan
        .limit
        .map(|l| l.saturating_sub(usize::try_from(shown).unwrap_or(usize::MAX)));
    let want = left.map_or(page, |l| l.min(page));
    // Read one row past the page to know whether another page follows, and in a reversed
    // scan one more for the row it starts at.
    let mut skip = None;
    if let Some(a) = &after {
        if scan.reversed {
            scan.start_row = a.last_row.clone();
            skip = Some(a.last_row.clone());
        } else {
            scan.start_row = a.last_row.iter().copied().chain([0]).collect();
        }
    }
    let peek = usize::from(left != Some(want));
    scan.limit = Some(want + peek + usize::from(skip.is_some()));
    let mut out = ctx
        .engine
        .scan(&name, &mut scan)
        .or_else(|e| fail(e.to_string(), args.span(0)))?;
    if let Some(skip) = skip {
        if out.rows.first().is_some_and(|r| r.row() == skip) {
            out.rows.remove(0);
        }
    }
    let more = out.rows.len() > want;
    out.rows.truncate(want);
    ctx.trace = Some(trace_of(name, &out));
    let mut text = String::new();
    if after.is_none() {
        text.push_str(format::SCAN_HEADER);
    }
    let lines = format::scan_row_lines(&out.rows, ro.maxlength, ctx.time_format, &ro.converters)
        .or_else(|e| fail(e, args.cmd.span.clone()))?;
    text.push_str(&lines);
    let rows = shown + out.rows.len() as u64;
    match out.rows.last() {
        Some(last) if more => {
            ctx.more = Some(Step::Scan(Progress {
                last_row: last.row().to_vec(),
                rows,
            }));
        }
        _ => {
            let _ = writeln!(text, "{rows} row(s)");
        }
    }
    Ok(Some(text))
}

pub(in crate::shell) fn count(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    let name = args.table(0)?;
    // count.rb: a number in place of the hash is the old form, the interval.
    let old_form = matches!(args.get(1).map(|a| &a.value), Some(Value::Int(_)));
    let interval = match args.get(1) {
        Some(n) if old_form => int_of(n, "INTERVAL")?,
        Some(h) => {
            let opts = Opts::of(h)?;
            let find = |key: &str| opts.pairs.iter().find(|p| p.0 == key).map(|p| p.1);
            if let Some(v) = find("CACHE_BLOCKS") {
                let word = word_of(&v.value).unwrap_or_default().to_ascii_lowercase();
                if matches!(v.value, Value::Str(_)) && word != "true" && word != "false" {
                    return fail(
                        "Expected CACHE_BLOCKS value to be a boolean or the string 'true' or 'false'",
                        v.span.clone(),
                    );
                }
            }
            match find("INTERVAL") {
                Some(v) => int_of(v, "INTERVAL")?,
                None => 1000,
            }
        }
        None => 1000,
    };
    let hash_at = if old_form { 2 } else { 1 };
    let (mut scan, _) = scan_from(args, hash_at, table_rules(ctx.engine, &name))?;
    // `table.rb` `_count_internal`: the scan reads only each row's first cell, with a
    // `FirstKeyOnlyFilter` alone or after the scan's own filter in a MUST_PASS_ALL list
    // (`FilterList.new(filter, firstKeyOnlyFilter)`). `FilterListWithAND.filterCell` offers a
    // cell to the next filter only while the merged code includes it (HBASE-20565), and the
    // NEXT_ROW ends the row in one family's store only: the scan's filter sees the first two
    // cells of a row's first family and the first of each other. A `SingleColumnValueFilter`
    // whose column comes later never sees it, and the row counts as `filterIfMissing` says.
    let first_key: Box<dyn crate::filter::Filter> =
        Box::new(crate::filter::FirstKeyOnlyFilter::default());
    scan.filter = Some(match scan.filter.take() {
        None => first_key,
        Some(filter) => Box::new(crate::filter::FilterList::new(
            true,
            vec![filter, first_key],
        )),
    });
    // The rows are counted as the scanner hands them over (`_count_internal` loops over the
    // scanner), not kept.
    let mut text = String::new();
    let mut returned = RowKeys::default();
    // table.rb's `count % interval == 0` at each row: Ruby's modulo by zero raises at the
    // first row (an empty table never divides); a negative interval divides as its size does.
    let every = interval.unsigned_abs();
    let mut divided_by_zero = false;
    let out = ctx
        .engine
        .scan_each(&name, &mut scan, &mut |row| {
            if every == 0 {
                divided_by_zero = true;
                return;
            }
            returned.push(row.row());
            let n = returned.len() as u64;
            if n.is_multiple_of(every) {
                let _ = write!(
                    text,
                    "Current count: {n}, row: {}\n",
                    to_printable(row.row())
                );
            }
        })
        .or_else(|e| fail(e.to_string(), args.span(0)))?;
    if divided_by_zero {
        return fail("divided by 0", args.span(1));
    }
    let n = returned.len();
    let _ = writeln!(text, "{n} row(s)");
    ctx.trace = Some(trace_returning(name, &out, returned));
    Ok(Some(echo(text, n.to_string())))
}

pub(in crate::shell) fn delete(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    let engine = &mut *ctx.engine;
    let all = args.cmd.name == "deleteall";
    let name = args.table(0)?;
    // deleteall 't', {ROWPREFIXFILTER => 'p'} [, column [, timestamp]]: every row with the
    // prefix, each deleted as a row named on its own would be (table.rb's
    // `_deleterows_internal` builds each row's delete with `_createdelete_internal`).
    let prefix = match args.get(1) {
        Some(h) if all && matches!(h.value, Value::Hash(_)) => {
            let mut opts = Opts::of(h)?;
            let Some(p) = opts.take("ROWPREFIXFILTER") else {
                return fail("expected {ROWPREFIXFILTER => 'prefix'}", h.span.clone());
            };
            let prefix = bytes_of(p, "ROWPREFIXFILTER")?;
            opts.done(commands::options(Dialect::HBase, "deleteall"), &["CACHE"])?;
            Some(prefix)
        }
        _ => None,
    };
    let mut column = None;
    let mut timestamp = None;
    for i in 2..args.cmd.args.len() {
        let Some(a) = args.get(i) else { continue };
        match &a.value {
            Value::Hash(_) => Opts::of(a)?.done(&["VISIBILITY"], &["VISIBILITY", "ATTRIBUTES"])?,
            _ if column.is_some() || (i == 2 && all && matches!(a.value, Value::Int(_))) => {
                timestamp = timestamp_of(a)?;
                no_bounded_delete(engine, &name, a)?;
            }
            _ => column = Some(bytes_of(a, "column")?),
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
    let mut note = String::new();
    let rows = match prefix {
        None => vec![args.bytes(1, "row key")?],
        Some(prefix) => {
            let found = engine
                .scan(&name, &mut Scan::prefix(&prefix))
                .or_else(|e| fail(e.to_string(), args.span(0)))?
                .rows;
            // The shell names each row found by `Bytes.toStringBinary` and deletes the row
            // that text spells: a key with bytes outside printable ASCII (or a backslash)
            // keeps its cells, and the delete lands on a row of the escaped name.
            let rows: Vec<Vec<u8>> = found
                .iter()
                .map(|r| to_printable(r.row()).into_bytes())
                .collect();
            let missed: Vec<String> = found
                .iter()
                .zip(&rows)
                .filter(|(r, named)| r.row() != named.as_slice())
                .map(|(_, named)| to_printable(named))
                .collect();
            if !missed.is_empty() {
                note = format!(
                    "Rowkey: HBase's shell names each row by Bytes.toStringBinary before deleting \
                     it, so {} row(s) whose keys hold other bytes kept their cells; the deletes \
                     went to the rows their escaped text names, which scan prints as {}\n",
                    missed.len(),
                    missed.join(", ")
                );
            }
            rows
        }
    };
    let mutations = in_table_units(engine, &name, vec![m]);
    for row in rows {
        engine
            .mutate(&name, &row, &mutations)
            .or_else(|e| fail(e.to_string(), mutation_span(&e, args)))?;
    }
    Ok(Some(note))
}

/// `check_and_put 't', 'r', 'f:q', expected, 'f:c', 'value' [, {OP => '>'}]` and
/// `check_and_delete 't', 'r', 'f:q', expected, 'f:c'`; `nil` as expected means "if absent".
pub(in crate::shell) fn check_and_mutate(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    let engine = &mut *ctx.engine;
    let is_put = args.cmd.name == "check_and_put";
    let name = args.table(0)?;
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
        opts.done(commands::options(Dialect::HBase, &args.cmd.name), &[])?;
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
pub(in crate::shell) fn mutate_row(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    let engine = &mut *ctx.engine;
    let name = args.table(0)?;
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
                    let timestamp = parts.get(3).map(timestamp_of).transpose()?.flatten();
                    Mutation::Put {
                        family,
                        qualifier: q.unwrap_or_default(),
                        timestamp,
                        value: bytes_of(v, "value")?,
                        ttl_ms: None,
                    }
                }
                (kind @ (b"delete" | b"deleteall"), Some((family, qualifier))) => {
                    if let Some(t) = rest {
                        no_bounded_delete(engine, &name, t)?;
                    }
                    Mutation::Delete {
                        family,
                        qualifier,
                        timestamp: rest.map(timestamp_of).transpose()?.flatten(),
                        all_versions: kind == b"deleteall",
                    }
                }
                _ => return fail(
                    "expected ['put', column, value], ['delete', column] or ['deleteall', column]",
                    item.span.clone(),
                ),
            };
        mutations.push(m);
    }
    let mutations = in_table_units(engine, &name, mutations);
    engine
        .mutate(&name, &row, &mutations)
        .or_else(|e| fail(e.to_string(), list.span.clone()))?;
    Ok(Some(String::new()))
}

/// A `MAXLENGTH` as a cut in characters: one past what memory can hold cuts nothing, on every
/// target (a 32-bit browser does not read 4294967298 as 2).
fn maxlength(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}
