//! HBase's `general` group: `help`, `table_help`, `show_filters` and `clear`.

use super::args::{Args, Res};
use super::{help, Ctx, Reply};
use crate::kit::order;

pub(in crate::shell) fn help(_: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    if args.get(0).is_none() {
        return Ok(Some(help::general()));
    }
    // help.rb: a command's help, else a group's (each of its commands, sorted, under
    // "Command: NAME"), else an error.
    let name = args.text(0, "command name")?;
    if let Some(t) = help::full(&name) {
        return Ok(Some(t));
    }
    // An unknown name: shell.rb's `help` says so and lists the groups, as a bare `help` does.
    Ok(Some(help::group(&name).unwrap_or_else(|| {
        format!(
            "ERROR: Invalid command or command group name: {name}\n\n{}",
            help::general()
        )
    })))
}

pub(in crate::shell) fn table_help(_: &mut Ctx<'_>, _: &Args<'_>) -> Res<Reply> {
    // table_help.rb prints the help of table references (`Hbase::Table.help`).
    Ok(help::text("table_help").map(str::to_string))
}

pub(in crate::shell) fn show_filters(_: &mut Ctx<'_>, _: &Args<'_>) -> Res<Reply> {
    // show_filters.rb: one row per name `ParseFilter.getSupportedFilters` returns, the key set
    // of a `java.util.HashMap` filled in registration order: its iteration order.
    let names: Vec<&str> = crate::filter::filter_names().collect();
    Ok(Some(
        java_hash_map_order(&names)
            .iter()
            .map(|n| format!("{n}\n"))
            .collect(),
    ))
}

/// The order a `java.util.HashMap<String, _>` filled with `keys` in this order iterates them:
/// by bucket (`String.hashCode`, its high half folded into the low, masked by the table's size,
/// which doubles from 16 whenever the map is three quarters full), each bucket in insertion
/// order (a resize keeps it); no bucket here is long enough to become a tree.
fn java_hash_map_order<'a>(keys: &[&'a str]) -> Vec<&'a str> {
    let mut buckets = 16usize;
    while keys.len() > buckets / 4 * 3 {
        buckets *= 2;
    }
    let bucket = |key: &str| {
        let h = key.encode_utf16().fold(0i32, |h, unit| {
            h.wrapping_mul(31).wrapping_add(i32::from(unit))
        }) as u32;
        ((h ^ (h >> 16)) as usize) & (buckets - 1)
    };
    let mut ordered: Vec<(usize, usize, &str)> = keys
        .iter()
        .enumerate()
        .map(|(i, k)| (bucket(k), i, *k))
        .collect();
    order::sort_by_key(&mut ordered, |(b, i, _)| (*b, *i));
    ordered.into_iter().map(|(_, _, k)| k).collect()
}

pub(in crate::shell) fn clear(_: &mut Ctx<'_>, _: &Args<'_>) -> Res<Reply> {
    Ok(None)
}
