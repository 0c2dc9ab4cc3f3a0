//! HBase's `tools` group: flushes, compactions, splits and the split points.

use super::args::{bytes_of, fail, Args, Res};
use super::{echo, engine_error, format, unrouted, Ctx, Reply};
use crate::bytes::to_printable;
use crate::shell::ast::Value;
use md5::Digest;

pub(super) fn run(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    let engine = &mut *ctx.engine;
    match args.cmd.name.as_str() {
        "flush" => {
            // flush.rb: `flush 'TABLENAME'` or `flush 'TABLENAME', 'FAMILYNAME'`.
            args.count(1, 2)?;
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
        "locate_region" => {
            // locate_region.rb: a HOST/REGION table of the region holding the row, with the
            // region as `RegionInfo.toString` prints it.
            args.count(2, 2)?;
            let name = args.table(0)?;
            let row = args.bytes(1, "row key")?;
            let t = engine
                .table(&name)
                .map_err(|e| engine_error(e, args.span(0)))?;
            let Some(region) = t.regions.get(t.region_index(&row)) else {
                return fail(format!("Unknown table {name}!"), args.span(0));
            };
            let region_name = format!("{}.", region.name(&name));
            let encoded: String = md5::Md5::digest(region_name.as_bytes())
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            Ok(Some(format!(
                "HOST  REGION\n in this page {{ENCODED => {encoded}, NAME => '{region_name}{encoded}.', STARTKEY => '{}', ENDKEY => '{}'}}\n1 row(s)\n",
                to_printable(&region.start),
                to_printable(&region.end)
            )))
        }
        "get_splits" => {
            args.count(1, 1)?;
            let name = args.table(0)?;
            let splits = engine
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
        "compact" | "major_compact" => {
            args.count(1, 3)?;
            let name = args.table(0)?;
            // compact.rb's third argument is the compaction type, "NORMAL" (the default) or
            // "MOB"; Rowkey keeps no MOB files, so a MOB compaction has nothing to do.
            if let Some(t) = args.get(2) {
                let kind =
                    String::from_utf8_lossy(&bytes_of(t, "compaction type")?).to_ascii_uppercase();
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
            let family_given = args
                .get(1)
                .is_some_and(|a| !matches!(&a.value, Value::Ident(w) if w == "nil"));
            if family_given {
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
            }
            engine
                .compact(&name, args.cmd.name == "major_compact")
                .map_err(|e| engine_error(e, args.span(0)))?;
            Ok(Some(String::new()))
        }
        "split" => {
            args.count(1, 2)?;
            let name = args.table(0)?;
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
        _ => Err(unrouted(args)),
    }
}
