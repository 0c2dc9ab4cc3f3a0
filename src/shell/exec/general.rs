//! HBase's `general` group: `help`, `table_help`, `show_filters` and `clear`.

use super::args::{fail, Args, Res};
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
    match help::group(&name) {
        Some(t) => Ok(Some(t)),
        None => fail(
            format!("Invalid command or command group name: {name}"),
            args.span(0),
        ),
    }
}

pub(in crate::shell) fn table_help(_: &mut Ctx<'_>, _: &Args<'_>) -> Res<Reply> {
    // table_help.rb prints the help of table references (`Hbase::Table.help`).
    Ok(help::text("table_help").map(str::to_string))
}

pub(in crate::shell) fn show_filters(_: &mut Ctx<'_>, _: &Args<'_>) -> Res<Reply> {
    // show_filters.rb: one row per name `ParseFilter.getSupportedFilters` returns.
    let mut names: Vec<&str> = crate::filter::filter_names().collect();
    order::sort(&mut names);
    Ok(Some(names.iter().map(|n| format!("{n}\n")).collect()))
}

pub(in crate::shell) fn clear(_: &mut Ctx<'_>, _: &Args<'_>) -> Res<Reply> {
    Ok(None)
}
