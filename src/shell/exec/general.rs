//! HBase's `general` group: `help` and `clear`.

use super::args::{fail, Args, Res};
use super::{help, unrouted, Reply};

pub(super) fn run(args: &Args<'_>) -> Res<Reply> {
    match args.cmd.name.as_str() {
        "help" => {
            args.count(0, 1)?;
            if args.get(0).is_none() {
                return Ok(Some(help::general()));
            }
            let name = args.text(0, "command name")?;
            match help::text(&name) {
                Some(t) => Ok(Some(t.to_string())),
                None => fail(
                    format!("no help for unknown command '{name}'"),
                    args.span(0),
                ),
            }
        }
        "show_filters" => {
            // show_filters.rb: one row per name `ParseFilter.getSupportedFilters` returns.
            args.count(0, 0)?;
            let mut names = crate::filter::FILTER_NAMES.to_vec();
            names.sort_unstable();
            Ok(Some(names.iter().map(|n| format!("{n}\n")).collect()))
        }
        "clear" => {
            args.count(0, 0)?;
            Ok(None)
        }
        _ => Err(unrouted(args)),
    }
}
