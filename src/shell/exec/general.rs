//! HBase's `general` group: `help`, `table_help`, `show_filters` and `clear`.

use super::args::{fail, Args, Res};
use super::{help, unrouted, Reply};
use crate::kit::order;

pub(super) fn run(args: &Args<'_>) -> Res<Reply> {
    match args.cmd.name.as_str() {
        "help" => {
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
        "table_help" => {
            // table_help.rb prints the help of table references (`Hbase::Table.help`).
            Ok(help::text("table_help").map(str::to_string))
        }
        "show_filters" => {
            // show_filters.rb: one row per name `ParseFilter.getSupportedFilters` returns.
            let mut names: Vec<&str> = crate::filter::filter_names().collect();
            order::sort(&mut names);
            Ok(Some(names.iter().map(|n| format!("{n}\n")).collect()))
        }
        "clear" => Ok(None),
        _ => Err(unrouted(args)),
    }
}
