//! HBase's `tools` group: flushes, compactions, splits and the split points.

use super::args::{bytes_of, fail, Args, Opts, Res};
use super::{echo, engine_error, format, Ctx, Reply};
use crate::bytes::to_printable;
use crate::engine::Region;
use crate::shell::ast::{Spanned, Value};
use md5::Digest;
use std::fmt::Write as _;

/// Whether the table the first argument names exists and is disabled: its regions are
/// closed, on no server, and the Admin's flush, compaction and split leave it as it is
/// (`HBaseAdmin.flush`: "Table is disabled", and returns; `compact` and `split` skip each
/// region whose location has no server). The shell prints nothing more than for a table that
/// was flushed.
fn disabled(ctx: &Ctx<'_>, args: &Args<'_>) -> bool {
    super::ddl::enabled(ctx, args) == Some(false)
}

pub(in crate::shell) fn flush(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    if disabled(ctx, args) {
        return Ok(Some(String::new()));
    }
    let engine = &mut *ctx.engine;
    // flush.rb: `flush 'TABLENAME'` or `flush 'TABLENAME', 'FAMILYNAME'`.
    let name = args.table(0)?;
    match args.get(1) {
        Some(_) => {
            let family = args.bytes(1, "family")?;
            engine
                .flush_family(&name, &family)
                .map_err(|e| engine_error(e, args.span(1)))?;
        }
        None => engine
            .flush(&name)
            .map_err(|e| engine_error(e, args.span(0)))?,
    }
    Ok(Some(String::new()))
}

pub(in crate::shell) fn locate_region(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    // locate_region.rb: a HOST/REGION table of the region holding the row, with the region as
    // `RegionInfo.toString` prints it.
    let name = args.table(0)?;
    let row = args.bytes(1, "row key")?;
    let t = ctx
        .engine
        .table(&name)
        .map_err(|e| engine_error(e, args.span(0)))?;
    let Some(region) = t.regions.get(t.region_index(&row)) else {
        return fail(format!("Unknown table {name}!"), args.span(0));
    };
    let (region_name, encoded) = region_name_as_string(region, &name);
    Ok(Some(format!(
        "HOST  REGION\n {SERVER} {{ENCODED => {encoded}, NAME => '{region_name}', STARTKEY => '{}', ENDKEY => '{}'}}\n1 row(s)\n",
        to_printable(&region.start),
        to_printable(&region.end)
    )))
}

pub(in crate::shell) fn get_splits(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    let name = args.table(0)?;
    let splits = ctx
        .engine
        .splits(&name)
        .map_err(|e| engine_error(e, args.span(0)))?;
    let shown: Vec<String> = splits.iter().map(|s| to_printable(s)).collect();
    let mut out = format!("Total number of splits = {}\n", splits.len() + 1);
    for s in &shown {
        out.push_str(s);
        out.push('\n');
    }
    Ok(Some(echo(out, format::ruby_array(&shown))))
}

/// `compact` and `major_compact`.
pub(in crate::shell) fn compact(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    let engine = &mut *ctx.engine;
    let name = args.table(0)?;
    // compact.rb's third argument is the compaction type, "NORMAL" (the default) or
    // "MOB"; Rowkey keeps no MOB files, so a MOB compaction has nothing to do.
    if let Some(t) = args.get(2) {
        let kind = String::from_utf8_lossy(&bytes_of(t, "compaction type")?).to_ascii_uppercase();
        match kind.as_str() {
            "NORMAL" => {}
            "MOB" => {
                engine
                    .table(&name)
                    .map_err(|e| engine_error(e, args.span(0)))?;
                return Ok(Some(
                    "Rowkey keeps no MOB files (IS_MOB is accepted and has no effect): \
                     a MOB compaction has nothing to merge.\n"
                        .into(),
                ));
            }
            _ => {
                return fail(
                    format!("compaction type must be NORMAL or MOB, found {kind}"),
                    t.span.clone(),
                )
            }
        }
    }
    // A disabled table's regions are on no server: nothing to ask, not even whether the
    // family exists (a region server would).
    if engine.table(&name).is_ok_and(|t| !t.enabled) {
        return Ok(Some(String::new()));
    }
    let family_given = args
        .get(1)
        .is_some_and(|a| !matches!(&a.value, Value::Ident(w) if w == "nil"));
    let family = if family_given {
        let fam = args.bytes(1, "family")?;
        let t = engine
            .table(&name)
            .map_err(|e| engine_error(e, args.span(0)))?;
        if t.descriptor.family(&fam).is_none() {
            return fail(
                format!(
                    "Column family {} does not exist in table {name}",
                    to_printable(&fam)
                ),
                args.span(1),
            );
        }
        Some(fam)
    } else {
        None
    };
    // A minor compaction merges what the exploring policy selects in each store
    // (possibly nothing); a major one merges every run (`Admin.majorCompact`).
    let major = args.cmd.name == "major_compact";
    let compacted = engine
        .compact_requested(&name, family.as_deref(), major)
        .map_err(|e| engine_error(e, args.span(0)))?;
    if compacted > 0 || major {
        return Ok(Some(String::new()));
    }
    let t = engine
        .table(&name)
        .map_err(|e| engine_error(e, args.span(0)))?;
    Ok(Some(nothing_chosen(t, family.as_deref())))
}

/// Why a minor compaction merged nothing where a store holds runs it might have merged:
/// HBase's shell says nothing (the request is queued, and the store's policy declines it in
/// `SortedCompactionPolicy.selectCompaction`), and the LSM view would show no change. Empty
/// where no store has two runs.
fn nothing_chosen(t: &crate::engine::Table, family: Option<&[u8]>) -> String {
    let most = t
        .regions
        .iter()
        .flat_map(|r| &r.stores)
        .filter(|s| family.is_none_or(|f| *s.family == *f))
        .map(|s| s.runs.len())
        .max()
        .unwrap_or(0);
    if most < 2 {
        return String::new();
    }
    let least = t.descriptor.settings.compaction_threshold.max(2);
    let why = if (most as u64) < least {
        format!(
            "a minor compaction merges at least {least} runs of a store (the table's \
             COMPACTION_THRESHOLD, HBase's hbase.hstore.compaction.min), and the most a store \
             of {} holds is {most}",
            t.descriptor.name
        )
    } else {
        format!(
            "the exploring policy found no {least} or more runs of a store in ratio (each at \
             most 1.2 times the others together)"
        )
    };
    format!("Nothing compacted: {why}. major_compact merges every run.\n")
}

pub(in crate::shell) fn split(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    if disabled(ctx, args) {
        return Ok(Some(String::new()));
    }
    let engine = &mut *ctx.engine;
    let name = args.table(0)?;
    // An unknown table is the table argument's fault, whatever else was given.
    engine
        .table(&name)
        .map_err(|e| engine_error(e, args.span(0)))?;
    let key = if args.get(1).is_some() {
        Some(args.bytes(1, "split key")?)
    } else {
        None
    };
    let last = args.cmd.args.len().saturating_sub(1);
    engine
        .split(&name, key.as_deref())
        .map_err(|e| engine_error(e, args.span(last)))?;
    Ok(Some(String::new()))
}

/// Where every region is served: the one engine in this page (HBase names a region server
/// `host,port,startcode`).
const SERVER: &str = "in this page";

/// A region's name as `RegionInfo.getRegionNameAsString` prints it (`table,startkey,id.` and
/// the encoded name, the MD5 of what precedes it, then a dot), and the encoded name alone.
fn region_name_as_string(region: &Region, table: &str) -> (String, String) {
    let head = format!("{}.", region.name(table));
    let encoded: String = md5::Md5::digest(head.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    (format!("{head}{encoded}."), encoded)
}

/// The columns `list_regions` can show, with the width each starts at.
const REGION_COLUMNS: &[(&str, usize)] = &[
    ("SERVER_NAME", 12),
    ("REGION_NAME", 12),
    ("START_KEY", 10),
    ("END_KEY", 10),
    ("SIZE", 5),
    ("REQ", 5),
    ("LOCALITY", 10),
];

const REGION_COLUMN_NAMES: &str =
    "Possible values are SERVER_NAME, REGION_NAME, START_KEY, END_KEY, SIZE, REQ, LOCALITY.";

/// `list_regions 't1'`, `list_regions 't1', 'server'`, `list_regions 't1', {SERVER_NAME =>
/// 'server', LOCALITY_THRESHOLD => 0.8}, ['SERVER_NAME', 'start_key']`, read and printed as
/// hbase-shell 2.x's `list_regions.rb` does: a table of right-aligned columns, each as wide as
/// its widest value (at least its starting width), then ` N rows`. One engine serves every
/// region here, so the server is this page, every region's data is local (LOCALITY 1.0), and
/// SIZE is the bytes of the region's sorted runs (HBase: its store files in MB, which for
/// Rowkey's kilobyte-sized runs would always read 0).
pub(in crate::shell) fn list_regions(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    let engine = &*ctx.engine;
    let name = args.table(0)?;
    // Options: nil or a hash; anything else is the server name (`{SERVER_NAME => options}`).
    let mut server: Option<Vec<u8>> = None;
    let mut threshold_arg = None;
    match args.get(1) {
        None => {}
        Some(a) if matches!(&a.value, Value::Ident(w) if w == "nil") => {}
        Some(
            a @ Spanned {
                value: Value::Hash(_),
                ..
            },
        ) => {
            let mut opts = Opts::of(a)?;
            if let Some(s) = opts.take("SERVER_NAME") {
                server = Some(bytes_of(s, "server name")?);
            }
            threshold_arg = opts.take("LOCALITY_THRESHOLD");
        }
        Some(a) => server = Some(bytes_of(a, "server name")?),
    }
    // The checks in list_regions.rb's order: the table, the columns, the threshold.
    let t = engine
        .table(&name)
        .map_err(|e| engine_error(e, args.span(0)))?;
    if !t.enabled {
        return fail(format!("Table {name} must be enabled."), args.span(0));
    }
    // Columns: all of them, or those named (in any case), in the order first named.
    let mut columns: Vec<(&str, usize)> = Vec::new();
    match args.get(2) {
        None => columns = REGION_COLUMNS.to_vec(),
        Some(a) if matches!(&a.value, Value::Ident(w) if w == "nil") => {
            columns = REGION_COLUMNS.to_vec()
        }
        Some(Spanned {
            value: Value::Array(items),
            ..
        }) => {
            for item in items {
                let text = String::from_utf8_lossy(&bytes_of(item, "column")?).into_owned();
                let Some(col) = REGION_COLUMNS
                    .iter()
                    .find(|(c, _)| c.eq_ignore_ascii_case(&text))
                else {
                    return fail(
                        format!("{text} is not a valid column. {REGION_COLUMN_NAMES}"),
                        item.span.clone(),
                    );
                };
                if !columns.iter().any(|(c, _)| c == &col.0) {
                    columns.push(*col);
                }
            }
        }
        Some(a) => {
            // Ruby interpolates the value as `to_s` prints it: a string without quotes.
            let shown = match &a.value {
                Value::Str(b) => String::from_utf8_lossy(b).into_owned(),
                other => other.to_string(),
            };
            return fail(
                format!("{shown} must be an array of strings. {REGION_COLUMN_NAMES}"),
                a.span.clone(),
            );
        }
    }
    let mut threshold = 1.0f64;
    if let Some(t) = threshold_arg {
        let Value::Float(x) = t.value else {
            return fail("LOCALITY_THRESHOLD must be a float value", t.span.clone());
        };
        if !(0.0..=1.0).contains(&x) {
            return fail(
                "LOCALITY_THRESHOLD must be between 0 and 1.0, inclusive",
                t.span.clone(),
            );
        }
        threshold = x;
    }
    let locality = 1.0f64;
    let accepted = server
        .as_ref()
        .is_none_or(|prefix| SERVER.as_bytes().starts_with(prefix))
        && locality <= threshold;
    let mut rows: Vec<Vec<String>> = Vec::new();
    if accepted {
        for region in &t.regions {
            let row = columns
                .iter()
                .map(|(c, _)| match *c {
                    "SERVER_NAME" => SERVER.to_string(),
                    "REGION_NAME" => region_name_as_string(region, &name).0,
                    "START_KEY" => to_printable(&region.start),
                    "END_KEY" => to_printable(&region.end),
                    "SIZE" => region
                        .stores
                        .iter()
                        .map(|s| s.runs.iter().map(|r| r.bytes as u64).sum::<u64>())
                        .sum::<u64>()
                        .to_string(),
                    "REQ" => (region.stats.reads + region.stats.writes).to_string(),
                    _ => crate::shell::convert::ruby_float(locality),
                })
                .collect();
            rows.push(row);
        }
    }
    let widths: Vec<usize> = columns
        .iter()
        .enumerate()
        .map(|(i, (_, start))| {
            rows.iter()
                .filter_map(|r| r.get(i).map(String::len))
                .fold(*start, usize::max)
        })
        .collect();
    let line = |cells: &mut dyn Iterator<Item = String>| -> String {
        let mut out: String = cells
            .zip(&widths)
            .map(|(c, w)| format!(" {c:>w$} |"))
            .collect();
        out.push('\n');
        out
    };
    let mut out = line(&mut columns.iter().map(|(c, _)| c.to_string()));
    out.push_str(&line(&mut widths.iter().map(|w| "-".repeat(*w))));
    for r in rows.iter() {
        out.push_str(&line(&mut r.iter().cloned()));
    }
    let _ = writeln!(out, " {} rows", rows.len());
    Ok(Some(out))
}
