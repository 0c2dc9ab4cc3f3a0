//! HBase's `ddl` group: creating, altering, describing, listing, enabling and dropping tables.

use std::fmt::Write as _;
use std::ops::Range;

use super::args::{bool_of, bytes_of, fail, int_of, kind_name, uint_of, word_of, Args, Opts, Res};
use super::{echo, engine_error, format, Ctx, Reply};
use crate::bytes::{to_bytes_binary, to_printable};
use crate::commands;
use crate::engine::{
    split_keys, Engine, FamilyDescriptor, KeepDeletedCells, Rules, TableDescriptor, TableSettings,
};
use crate::kit::order;
use crate::shell::ast::{Spanned, Value};
use crate::shell::commands::FAMILY_OPTIONS;

pub(in crate::shell) fn alter_status(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    // admin.rb `alter_status`: regions updated of all regions; Rowkey reopens them all before
    // `alter` returns.
    let table = args.table(0)?;
    let Ok(t) = ctx.engine.table(&table) else {
        return fail(format!("Can't find a table: {table}"), args.span(0));
    };
    Ok(Some(format!("{}Done.\n", regions_updated(t))))
}

/// admin.rb `alter_status`'s line: regions updated of all regions, or, where the master counts
/// none, as for a disabled table (`AssignmentManager.getRegionStatesCount` counts a disabled
/// table's regions as 0), "All regions updated.".
fn regions_updated(t: &crate::engine::Table) -> String {
    match t.regions.len() {
        n if t.enabled && n > 0 => format!("{n}/{n} regions updated.\n"),
        _ => "All regions updated.\n".into(),
    }
}

pub(in crate::shell) fn get_table(_: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    // get_table.rb: `table(table)` builds the reference without asking whether the table
    // exists; the shell echoes it.
    let table = args.table(0)?;
    Ok(Some(echo(String::new(), format!("Hbase::Table - {table}"))))
}

/// admin.rb's `tableExists`, which `describe`, `enable`, `disable` and `drop` call first: an
/// `ArgumentError` the shell prints as it is, not the "Unknown table" of a
/// `TableNotFoundException`.
fn table_exists(ctx: &Ctx<'_>, args: &Args<'_>) -> Res<String> {
    let table = args.table(0)?;
    if !ctx.engine.exists(&table) {
        return fail(format!("Table {table} does not exist."), args.span(0));
    }
    Ok(table)
}

/// `describe` and `desc`.
pub(in crate::shell) fn describe(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    let table = table_exists(ctx, args)?;
    let t = ctx
        .engine
        .table(&table)
        .map_err(|e| engine_error(e, args.span(0)))?;
    Ok(Some(format::describe(t)))
}

pub(in crate::shell) fn disable(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    // admin.rb `disable`: `return if disabled?(table_name)`, before the Admin call that would
    // refuse a table disabled already.
    if enabled(ctx, args) == Some(false) {
        return Ok(Some(String::new()));
    }
    on_table(ctx, args, Engine::disable)
}

pub(in crate::shell) fn enable(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    // admin.rb `enable`: `return if enabled?(table_name)`.
    if enabled(ctx, args) == Some(true) {
        return Ok(Some(String::new()));
    }
    on_table(ctx, args, Engine::enable)
}

/// Whether the table the first argument names is enabled; `None` when there is no such table
/// (the command's own check says so).
pub(in crate::shell) fn enabled(ctx: &Ctx<'_>, args: &Args<'_>) -> Option<bool> {
    let table = args.table(0).ok()?;
    ctx.engine.table(&table).ok().map(|t| t.enabled)
}

pub(in crate::shell) fn drop(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    on_table(ctx, args, Engine::drop_table)
}

/// `clone_table_schema 'src', 'dst'[, preserve_splits]`: a new table with the source's
/// descriptor and, unless the third argument is false, its split keys; no cells are copied
/// (`RawAsyncHBaseAdmin.cloneTableSchema`: `TableNotFoundException` for a missing source,
/// which the shell prints as "Unknown table", `TableExistsException` for a taken name).
pub(in crate::shell) fn clone_table_schema(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    let source = args.table(0)?;
    let target = args.table(1)?;
    let preserve_splits = match args.get(2) {
        Some(a) => bool_of(a, "preserve_splits")?,
        None => true,
    };
    ctx.engine
        .clone_table_schema(&source, &target, preserve_splits)
        .map_err(|e| match e {
            // Not translated by the shell (`translate_hbase_exceptions`): printed as Java's
            // `toString`.
            crate::engine::Error::TableExists(t) => Box::new(crate::shell::ShellError {
                message: format!("org.apache.hadoop.hbase.TableExistsException: {t}"),
                span: args.span(1),
                command: None,
            }),
            e => engine_error(e, args.span(0)),
        })?;
    Ok(Some(String::new()))
}

/// Runs `change` on the table the first argument names, printing nothing.
fn on_table(
    ctx: &mut Ctx<'_>,
    args: &Args<'_>,
    change: fn(&mut Engine, &str) -> Result<(), crate::engine::Error>,
) -> Res<Reply> {
    let table = table_exists(ctx, args)?;
    change(ctx.engine, &table).map_err(|e| engine_error(e, args.span(0)))?;
    Ok(Some(String::new()))
}

pub(in crate::shell) fn exists(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    let table = args.table(0)?;
    let exists = ctx.engine.exists(&table);
    let verb = if exists { "does" } else { "does not" };
    Ok(Some(echo(
        format!("Table {table} {verb} exist\n"),
        exists.to_string(),
    )))
}

pub(in crate::shell) fn is_enabled(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    enabled_is(ctx, args, true)
}

pub(in crate::shell) fn is_disabled(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    enabled_is(ctx, args, false)
}

/// Whether the table's being enabled is `wanted`, echoed.
fn enabled_is(ctx: &mut Ctx<'_>, args: &Args<'_>, wanted: bool) -> Res<Reply> {
    let table = args.table(0)?;
    let enabled = ctx
        .engine
        .table(&table)
        .map_err(|e| engine_error(e, args.span(0)))?
        .enabled;
    let answer = enabled == wanted;
    Ok(Some(echo(format!("{answer}\n"), answer.to_string())))
}

pub(in crate::shell) fn list(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    let names = match args.get(0) {
        Some(_) => {
            let pattern = args.text(0, "regular expression")?;
            super::sweep::matching(ctx.engine, &pattern).or_else(|e| fail(e, args.span(0)))?
        }
        None => ctx
            .engine
            .tables()
            .map(|t| t.descriptor.name.clone())
            .collect(),
    };
    let mut out = String::from("TABLE\n");
    for n in &names {
        out.push_str(n);
        out.push('\n');
    }
    let _ = writeln!(out, "{} row(s)", names.len());
    Ok(Some(echo(out, format::ruby_array(&names))))
}

/// Family options HBase's `cfd` accepts that Rowkey keeps no setting for (caching, MOB,
/// encryption, HDFS placement): accepted without effect, as a single engine in memory has
/// nothing they would change.
const FAMILY_ACCEPTED: &[&str] = &[
    "CACHE_DATA_ON_WRITE",
    "CACHE_INDEX_ON_WRITE",
    "CACHE_BLOOMS_ON_WRITE",
    "EVICT_BLOCKS_ON_CLOSE",
    "IN_MEMORY_COMPACTION",
    "COMPRESS_TAGS",
    "PREFETCH_BLOCKS_ON_OPEN",
    "IS_MOB",
    "MOB_THRESHOLD",
    "MOB_COMPACT_PARTITION_POLICY",
    "NEW_VERSION_BEHAVIOR",
    "ENCRYPTION",
    "ENCRYPTION_KEY",
    "COMPRESSION_COMPACT",
    "STORAGE_POLICY",
    "DFS_REPLICATION",
    "METADATA",
    "CONFIGURATION",
];

/// The options HBase's `cfd` has no use for: it prints "Unknown argument ignored for column
/// family NAME: KEY" for each and goes on (admin.rb). Rowkey adds the option it likely meant.
fn family_leftovers(opts: Opts<'_>, family: &str) -> String {
    let mut out = String::new();
    for (key, _, _) in opts.pairs {
        if matches!(key.as_str(), "METADATA" | "CONFIGURATION") {
            // HBase keeps them in the family's descriptor and `describe` shows them; Rowkey
            // does not keep them, and says so rather than taking them in silence.
            let _ = writeln!(
                out,
                "Argument ignored for column family {family}: {key} (Rowkey does not keep it; describe shows the family without it)"
            );
            continue;
        }
        if FAMILY_ACCEPTED.contains(&key.as_str()) {
            continue;
        }
        let _ = write!(
            out,
            "Unknown argument ignored for column family {family}: {key}\n"
        );
        if let Some(near) = commands::closest(&key, FAMILY_OPTIONS.iter().copied()) {
            let _ = writeln!(out, "Did you mean {near}?");
        }
    }
    out
}

/// Table attributes whose values are booleans (`JBoolean.valueOf` in admin.rb's
/// `update_htd_from_arg`).
const BOOLEAN_ATTRIBUTES: &[&str] = &[
    "READONLY",
    "COMPACTION_ENABLED",
    "SPLIT_ENABLED",
    "MERGE_ENABLED",
    "NORMALIZATION_ENABLED",
    "REGION_MEMSTORE_REPLICATION",
];

/// Table attributes whose values are numbers.
const NUMBER_ATTRIBUTES: &[&str] = &[
    "PRIORITY",
    "REGION_REPLICATION",
    "NORMALIZER_TARGET_REGION_COUNT",
    "NORMALIZER_TARGET_REGION_SIZE",
    "NORMALIZER_TARGET_REGION_SIZE_MB",
];

/// Table attributes whose values are names (class names, the owner).
const TEXT_ATTRIBUTES: &[&str] = &["OWNER", "FLUSH_POLICY", "SPLIT_POLICY"];

/// `Durability`'s constants, which `DURABILITY => '...'` must name.
const DURABILITIES: &[&str] = &[
    "USE_DEFAULT",
    "SKIP_WAL",
    "ASYNC_WAL",
    "SYNC_WAL",
    "FSYNC_WAL",
];

/// Reads the table attributes of a `create` or `alter` hash into the descriptor, as admin.rb's
/// `update_htd_from_arg` sets them: each into the descriptor's values (what `describe`
/// prints), MAX_FILESIZE and MEMSTORE_FLUSHSIZE also into the thresholds Rowkey splits and
/// flushes by, METADATA and CONFIGURATION entries as user values. COMPACTION_THRESHOLD is
/// Rowkey's own (HBase sets it as the configuration `hbase.hstore.compactionThreshold`).
fn table_attributes(opts: &mut Opts<'_>, desc: &mut TableDescriptor) -> Res<()> {
    let attrs = &mut desc.attributes;
    if let Some(v) = opts.take("MAX_FILESIZE") {
        let n = uint_of(v, "MAX_FILESIZE")?;
        desc.settings.split_bytes = n;
        attrs.insert("MAX_FILESIZE".into(), n.to_string());
    }
    if let Some(v) = opts.take("MEMSTORE_FLUSHSIZE") {
        let n = uint_of(v, "MEMSTORE_FLUSHSIZE")?;
        if n == 0 {
            return fail("MEMSTORE_FLUSHSIZE must be positive", v.span.clone());
        }
        desc.settings.flush_bytes = n;
        attrs.insert("MEMSTORE_FLUSHSIZE".into(), n.to_string());
    }
    if let Some(v) = opts.take("COMPACTION_THRESHOLD") {
        let n = uint_of(v, "COMPACTION_THRESHOLD")?;
        if n < 2 {
            return fail("COMPACTION_THRESHOLD must be at least 2", v.span.clone());
        }
        desc.settings.compaction_threshold = n;
    }
    for key in BOOLEAN_ATTRIBUTES {
        if let Some(v) = opts.take(key) {
            attrs.insert((*key).into(), bool_of(v, key)?.to_string());
        }
    }
    for key in NUMBER_ATTRIBUTES {
        if let Some(v) = opts.take(key) {
            attrs.insert((*key).into(), int_of(v, key)?.to_string());
        }
    }
    for key in TEXT_ATTRIBUTES {
        if let Some(v) = opts.take(key) {
            let text = String::from_utf8_lossy(&bytes_of(v, key)?).into_owned();
            attrs.insert((*key).into(), text);
        }
    }
    if let Some(v) = opts.take("DURABILITY") {
        let text = String::from_utf8_lossy(&bytes_of(v, "DURABILITY")?).into_owned();
        if !DURABILITIES.contains(&text.as_str()) {
            return fail(
                format!("No enum constant org.apache.hadoop.hbase.client.Durability.{text}"),
                v.span.clone(),
            );
        }
        attrs.insert("DURABILITY".into(), text);
    }
    for key in ["METADATA", "CONFIGURATION"] {
        let Some(v) = opts.take(key) else {
            continue;
        };
        let Value::Hash(pairs) = &v.value else {
            return fail(format!("{key} must be a Hash type"), v.span.clone());
        };
        for (k, val) in pairs {
            let name = word_of(&k.value).map_or_else(
                || fail(format!("{key} keys are strings"), k.span.clone()),
                Ok,
            )?;
            let value = match &val.value {
                Value::Ident(w) => w.clone(),
                _ => String::from_utf8_lossy(&bytes_of(val, key)?).into_owned(),
            };
            attrs.insert(name, value);
        }
    }
    Ok(())
}

/// A table attribute reset by `table_att_unset`: its threshold goes back to the default too.
fn unset_attribute(desc: &mut TableDescriptor, key: &str) {
    desc.attributes.remove(key);
    let defaults = TableSettings::default();
    match key {
        "MAX_FILESIZE" => desc.settings.split_bytes = defaults.split_bytes,
        "MEMSTORE_FLUSHSIZE" => desc.settings.flush_bytes = defaults.flush_bytes,
        _ => {}
    }
}

/// Whether the descriptor has a value for `key`, as `htd.getValue(key)` finds it (MAX_FILESIZE
/// and MEMSTORE_FLUSHSIZE set before Rowkey kept attributes count by their thresholds).
fn has_attribute(desc: &TableDescriptor, key: &str) -> bool {
    let defaults = TableSettings::default();
    desc.attributes.contains_key(key)
        || (key == "MAX_FILESIZE" && desc.settings.split_bytes != defaults.split_bytes)
        || (key == "MEMSTORE_FLUSHSIZE" && desc.settings.flush_bytes != defaults.flush_bytes)
}

/// The keys admin.rb leaves unread in a table hash: `create` prints "An argument ignored
/// (unknown or overridden): KEY", `alter` "Unknown argument ignored: KEY".
fn table_leftovers(opts: Opts<'_>, line: &str) -> String {
    opts.pairs
        .into_iter()
        .map(|(key, _, _)| format!("{line}: {key}\n"))
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
            // admin.rb passes the value to the enum's `valueOf`, whose refusal the shell prints.
            let message = match key {
                "BLOOMFILTER" => {
                    format!(
                        "No enum constant org.apache.hadoop.hbase.regionserver.BloomType.{text}"
                    )
                }
                "DATA_BLOCK_ENCODING" => format!(
                    "No enum constant org.apache.hadoop.hbase.io.encoding.DataBlockEncoding.{text}"
                ),
                _ => format!("{key} must be one of {}", allowed.join(", ")),
            };
            return fail(message, v.span.clone());
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

/// The admin client's checks of split keys before it asks the master to create the table
/// (`RawAsyncHBaseAdmin.createTable`): sorted with `Bytes.BYTES_COMPARATOR`, then an empty
/// key or two equal keys refuse the whole create.
fn check_splits(splits: &mut [Vec<u8>]) -> Result<(), String> {
    order::sort(splits);
    let mut last: Option<&Vec<u8>> = None;
    for key in splits.iter() {
        if key.is_empty() {
            return Err("Empty split key must not be passed in the split keys.".into());
        }
        if last == Some(key) {
            let shown = to_printable(key);
            return Err(format!(
                "All split keys must be unique, found duplicate: {shown}, {shown}"
            ));
        }
        last = Some(key);
    }
    Ok(())
}

pub(in crate::shell) fn create(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    let engine = &mut *ctx.engine;
    let name = args.table(0)?;
    // A namespace other than `default` must exist; Rowkey has no others (the master's
    // NamespaceNotFoundException, which the shell's `translate_hbase_exceptions` words so).
    let legal_namespace =
        |ns: &str| !ns.is_empty() && ns.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if let Some((ns, _)) = name.split_once(':').filter(|(ns, _)| legal_namespace(ns)) {
        return fail(format!("Unknown namespace {ns}!"), args.span(0));
    }
    let mut families = Vec::new();
    let mut splits: Vec<Vec<u8>> = Vec::new();
    let mut desc = TableDescriptor::new(&name, Vec::new());
    let mut notes = String::new();
    for a in args.cmd.args.iter().skip(1) {
        match &a.value {
            Value::Hash(_) => {
                let mut opts = Opts::of(a)?;
                if let Some(n) = opts.take("NAME") {
                    let mut f = FamilyDescriptor::new(&family_name(n)?);
                    family_from(&mut opts, &mut f)?;
                    notes.push_str(&family_leftovers(opts, &f.name));
                    add_family(&mut families, f, &mut notes);
                    continue;
                }
                if let Some(v) = opts.take("SPLITS_FILE") {
                    // admin.rb reads the file on the shell's machine (one key a line) and
                    // refuses a path it cannot find; a browser page has no such files.
                    let path = String::from_utf8_lossy(&bytes_of(v, "SPLITS_FILE")?).into_owned();
                    return fail(
                        format!(
                            "Splits file {path} doesn't exist (Rowkey runs in a browser and reads \
                             no local files: give the keys as SPLITS => ['k1', 'k2'])"
                        ),
                        v.span.clone(),
                    );
                }
                if let Some(v) = opts.take("SPLITS") {
                    // admin.rb: each split through `Bytes.toBytesBinary`; SPLITS wins over
                    // NUMREGIONS/SPLITALGO (an `elsif`), which are then left unread.
                    let Value::Array(items) = &v.value else {
                        return fail("SPLITS must be an array of keys", v.span.clone());
                    };
                    for item in items {
                        splits.push(to_bytes_binary(&bytes_of(item, "split key")?));
                    }
                    check_splits(&mut splits).or_else(|m| fail(m, v.span.clone()))?;
                    opts.take("NUMREGIONS");
                    opts.take("SPLITALGO");
                }
                let numregions = opts.take("NUMREGIONS");
                let splitalgo = opts.take("SPLITALGO");
                if numregions.is_some() || splitalgo.is_some() {
                    let span = numregions
                        .or(splitalgo)
                        .map(|v| v.span.clone())
                        .unwrap_or_default();
                    let (Some(n), Some(algo_arg)) = (numregions, splitalgo) else {
                        let missing = if numregions.is_none() {
                            "Number of regions must be specified"
                        } else {
                            "Split algorithm must be specified"
                        };
                        return fail(missing, span);
                    };
                    let count = int_of(n, "NUMREGIONS")?;
                    if count <= 1 {
                        return fail("Number of regions must be greater than 1", n.span.clone());
                    }
                    if count > 10_000 {
                        return fail(
                            "Rowkey pre-splits into at most 10000 regions",
                            n.span.clone(),
                        );
                    }
                    let algo =
                        String::from_utf8_lossy(&bytes_of(algo_arg, "SPLITALGO")?).into_owned();
                    let short = algo.rsplit('.').next().unwrap_or(&algo).to_string();
                    match split_keys(&short, count as u32) {
                        Some(keys) => splits.extend(keys),
                        None => return fail(format!("unknown split algorithm {algo}; expected HexStringSplit, DecimalStringSplit or UniformSplit"), algo_arg.span.clone()),
                    }
                }
                table_attributes(&mut opts, &mut desc)?;
                notes.push_str(&table_leftovers(
                    opts,
                    "An argument ignored (unknown or overridden)",
                ));
            }
            _ => add_family(
                &mut families,
                FamilyDescriptor::new(&family_name(a)?),
                &mut notes,
            ),
        }
    }
    // admin.rb's create, before it asks the master.
    if families.is_empty() {
        return fail("Table must have at least one column family", args.span(0));
    }
    desc.families = families;
    engine
        .create_table(desc, splits)
        .or_else(|e| fail(e.to_string(), args.span(0)))?;
    Ok(Some(echo(
        format!("{notes}Created table {name}\n"),
        format!("Hbase::Table - {name}"),
    )))
}

/// Adds a family to a table being created, as admin.rb's `create` does: a family named again
/// replaces the earlier one, with a warning (`htd.modifyFamily`).
fn add_family(families: &mut Vec<FamilyDescriptor>, f: FamilyDescriptor, notes: &mut String) {
    match families.iter_mut().find(|g| g.name == f.name) {
        Some(old) => {
            let _ = writeln!(
                notes,
                "Family '{}' already exists, the old one will be replaced",
                f.name
            );
            *old = f;
        }
        None => families.push(f),
    }
}

/// `alter` (with `wait`) or `alter_async`: admin.rb's `alter(table, wait, *args)`, which
/// prints the region update only when it waits.
pub(in crate::shell) fn alter(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    alter_table(ctx.engine, args, true)
}

pub(in crate::shell) fn alter_async(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    alter_table(ctx.engine, args, false)
}

/// What admin.rb (2.5) prints after a change with `REOPEN_REGIONS => 'false'`, its source's
/// line breaks and indents included.
const REOPEN_WARNING: &str =
    "WARNING: You are using REOPEN_REGIONS => 'false' to modify a table, which will
          result in inconsistencies in the configuration of online regions and other risks. If you
          encounter any issues, use the original 'alter' command to make the modification again!
";

/// `REOPEN_REGIONS`: admin.rb reads it with `downcase`, so it is a string, `'true'` or
/// `'false'` in any case; Ruby's `true` and `false` have no `downcase`.
fn reopen_regions(v: &Spanned) -> Res<bool> {
    let no_downcase = |receiver: String| {
        fail(
            format!("NoMethodError: undefined method `downcase' for {receiver}"),
            v.span.clone(),
        )
    };
    match &v.value {
        Value::Str(s) => match String::from_utf8_lossy(s).to_ascii_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => fail(
                "Invalid 'REOPEN_REGIONS' for non-boolean value.",
                v.span.clone(),
            ),
        },
        Value::Ident(w) if w == "true" => no_downcase("true:TrueClass".into()),
        Value::Ident(w) if w == "false" => no_downcase("false:FalseClass".into()),
        Value::Ident(w) if w == "nil" => no_downcase("nil:NilClass".into()),
        Value::Int(n) => no_downcase(format!("{n}:Integer")),
        _ => fail(
            "Invalid 'REOPEN_REGIONS' for non-boolean value.",
            v.span.clone(),
        ),
    }
}

fn alter_table(engine: &mut Engine, args: &Args<'_>, wait: bool) -> Res<Reply> {
    let name = args.table(0)?;
    // admin.rb's alter: "Table should exist".
    let Ok(table) = engine.table(&name) else {
        return fail(format!("Can't find a table: {name}"), args.span(0));
    };
    // admin.rb's alter, after the table is found.
    if args.cmd.args.len() < 2 {
        return fail(
            "There should be at least one argument but the table name",
            args.cmd.span.clone(),
        );
    }
    let mut desc = table.descriptor.clone();
    enum Change {
        Put(FamilyDescriptor),
        Delete(String, Range<usize>),
    }
    let mut changes = Vec::new();
    let mut notes = String::new();
    let mut reopen = true;
    for a in args.cmd.args.iter().skip(1) {
        if !matches!(a.value, Value::Hash(_)) {
            changes.push(Change::Put(FamilyDescriptor::new(&family_name(a)?)));
            continue;
        }
        let mut opts = Opts::of(a)?;
        if let Some(v) = opts.take("REOPEN_REGIONS") {
            // alter.rb (2.5): `REOPEN_REGIONS => 'false'` changes the descriptor without
            // reopening the regions; they take it when they next open.
            reopen = reopen_regions(v)?;
        }
        if let Some(v) = opts.take("delete") {
            changes.push(Change::Delete(family_name(v)?, v.span.clone()));
            opts.take("NAME");
            opts.take("METHOD");
            notes.push_str(&table_leftovers(opts, "Unknown argument ignored"));
            continue;
        }
        let method = match opts.take("METHOD") {
            Some(m) => Some((
                String::from_utf8_lossy(&bytes_of(m, "METHOD")?).into_owned(),
                m.span.clone(),
            )),
            None => None,
        };
        // admin.rb `alter`: 1) a family spec has a NAME and no METHOD.
        if method.is_none() {
            if let Some(n) = opts.take("NAME") {
                let fname = family_name(n)?;
                let mut f = desc
                    .families
                    .iter()
                    .find(|f| f.name == fname)
                    .cloned()
                    .unwrap_or_else(|| FamilyDescriptor::new(&fname));
                family_from(&mut opts, &mut f)?;
                notes.push_str(&family_leftovers(opts, &f.name));
                changes.push(Change::Put(f));
                continue;
            }
        }
        // 2) A method other than table_att.
        let name_arg = opts.take("NAME");
        match method.as_ref().map(|(m, span)| (m.as_str(), span)) {
            Some(("delete", span)) => {
                let Some(n) = name_arg else {
                    return fail("NAME parameter missing for delete method", span.clone());
                };
                changes.push(Change::Delete(family_name(n)?, n.span.clone()));
                notes.push_str(&table_leftovers(opts, "Unknown argument ignored"));
                continue;
            }
            Some(("table_att_unset", span)) => {
                let Some(n) = name_arg else {
                    return fail(
                        "NAME parameter missing for table_att_unset method",
                        span.clone(),
                    );
                };
                let keys: Vec<&Spanned> = match &n.value {
                    Value::Array(items) => items.iter().collect(),
                    _ => vec![n],
                };
                for k in keys {
                    let key = String::from_utf8_lossy(&bytes_of(k, "attribute name")?).into_owned();
                    if !has_attribute(&desc, &key) {
                        return fail(format!("Could not find attribute: {key}"), k.span.clone());
                    }
                    unset_attribute(&mut desc, &key);
                }
                notes.push_str(&table_leftovers(opts, "Unknown argument ignored"));
                continue;
            }
            Some(("table_conf_unset", span)) => {
                // Table configuration lives among the descriptor's values in 2.x
                // (`HTableDescriptor.setConfiguration` sets a value).
                let Some(n) = name_arg else {
                    return fail(
                        "NAME parameter missing for table_conf_unset method",
                        span.clone(),
                    );
                };
                let keys: Vec<&Spanned> = match &n.value {
                    Value::Array(items) => items.iter().collect(),
                    _ => vec![n],
                };
                for k in keys {
                    let key =
                        String::from_utf8_lossy(&bytes_of(k, "configuration name")?).into_owned();
                    if desc.attributes.remove(&key).is_none() {
                        return fail(
                            format!("Could not find configuration: {key}"),
                            k.span.clone(),
                        );
                    }
                }
                notes.push_str(&table_leftovers(opts, "Unknown argument ignored"));
                continue;
            }
            Some(("table_att", _)) | None => {}
            Some((other, span)) => {
                return fail(format!("Unknown method: {other}"), span.clone());
            }
        }
        // 3) Table attributes, optionally with METHOD => 'table_att'.
        if let Some(n) = name_arg {
            return fail("NAME argument in an unexpected place", n.span.clone());
        }
        table_attributes(&mut opts, &mut desc)?;
        notes.push_str(&table_leftovers(opts, "Unknown argument ignored"));
    }
    // admin.rb removes a family from the descriptor it sends (`removeColumnFamily`, nothing
    // for a family the table lacks); the master's sanity check refuses a descriptor left with
    // none before anything changes (`TableDescriptorChecker`).
    let existing: Vec<String> = engine
        .table(&name)
        .map(|t| {
            t.descriptor
                .families
                .iter()
                .map(|f| f.name.clone())
                .collect()
        })
        .unwrap_or_default();
    changes.retain(|c| !matches!(c, Change::Delete(f, _) if !existing.contains(f)));
    let mut left = existing;
    for change in &changes {
        match change {
            Change::Put(f) if !left.contains(&f.name) => left.push(f.name.clone()),
            Change::Put(_) => {}
            Change::Delete(f, _) => left.retain(|n| n != f),
        }
    }
    if left.is_empty()
        && engine
            .table(&name)
            .is_ok_and(|t| t.descriptor.rules == Rules::HBASE)
    {
        return Err(engine_error(
            crate::engine::Error::sanity_check("Table should have at least one column family."),
            args.span(1),
        ));
    }
    // modifyTable reopens every region: closing one flushes its memstore under the
    // descriptor it was written with, and the reopened region reads with the new one
    // (ReopenTableRegionsProcedure; HRegion.close flushes). So VERSIONS lowered and raised
    // again finds the versions the flush kept.
    if reopen {
        engine
            .flush(&name)
            .or_else(|e| fail(e.to_string(), args.span(0)))?;
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
        .set_table_attributes(&name, desc.settings, desc.attributes)
        .or_else(|e| fail(e.to_string(), args.span(0)))?;
    if !reopen {
        notes.push_str(REOPEN_WARNING);
    }
    if !wait || !reopen {
        return Ok(Some(notes));
    }
    let t = engine
        .table(&name)
        .or_else(|e| fail(e.to_string(), args.span(0)))?;
    Ok(Some(format!(
        "{notes}Updating all regions with the new schema...\n{}Done.\n",
        regions_updated(t)
    )))
}
