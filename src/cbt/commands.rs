//! The one table of cbt commands: name, description, what it does to the table it names, the
//! words and `key=value` arguments it takes, what it says when they do not fit, the handler and
//! `cbt help NAME`'s text. The dispatcher, `help`, the console's read-only check
//! ([`crate::dialect::cbt_writes`]) and the script analysis ([`crate::analysis`]) all read it.

use super::args::{Call, Shape, Usage};
use super::session::Session;
use crate::analysis::Effect;

/// What runs a command: the session and its checked arguments, to what it prints on standard
/// output or cbt's error text.
pub type Handler = fn(&mut Session, &Call) -> Result<Vec<u8>, String>;

/// A cbt command.
pub struct Command {
    pub name: &'static str,
    pub desc: &'static str,
    /// What it does to the table its first word names (`None`: it names no table).
    pub effect: Option<Effect>,
    /// The words and `key=value` arguments it takes.
    pub shape: Shape,
    /// What it says when its words do not fit its shape.
    pub usage: Usage,
    pub(super) run: Handler,
    pub help: &'static str,
}

impl Command {
    /// Whether it changes data or schema (refused in a read-only tab, saved after it runs).
    pub fn writes(&self) -> bool {
        matches!(self.effect, Some(Effect::Changes | Effect::Creates))
    }
}

const READS: Option<Effect> = Some(Effect::Reads);
const CHANGES: Option<Effect> = Some(Effect::Changes);

const fn keyed(words: usize, keys: &'static [&'static str]) -> Shape {
    Shape::Keyed {
        words,
        at_least: words,
        keys,
    }
}

const fn text(usage: &'static str) -> Usage {
    Usage::Text(usage)
}

/// The keys `lookup` takes.
const LOOKUP_KEYS: &[&str] = &[
    "columns",
    "cells-per-column",
    "app-profile",
    "format-file",
    "keys-only",
    "include-stats",
    "authorized-view",
];

/// The keys `read` takes (`limit` only to say it is not one).
const READ_KEYS: &[&str] = &[
    "start",
    "end",
    "prefix",
    "columns",
    "count",
    "cells-per-column",
    "regex",
    "app-profile",
    "limit",
    "reversed",
    "format-file",
    "keys-only",
    "include-stats",
    "authorized-view",
];

const IMPORT_KEYS: &[&str] = &[
    "app-profile",
    "column-family",
    "batch-size",
    "workers",
    "timestamp",
];

/// The cbt commands Rowkey runs: cbt 1.23.2's in its order, then `checkandmutate`,
/// `readmodifywrite` and `samplerowkeys` as later cbt releases have them (cbt.go of
/// googleapis/cloud-bigtable-cbt-cli at 7fb42c4, lines 768-800 and 865-870), then Rowkey's own
/// `export` and `compact` (Bigtable compacts in the background, Rowkey when asked).
#[rustfmt::skip]
pub const COMMANDS: &[Command] = &[
    Command { name: "addtocell", desc: "Add a value to an aggregate cell (write)", effect: CHANGES, shape: Shape::AtLeast(3),
        usage: text("usage: cbt addtocell <table> <row> [app-profile=<app profile id>] family:[column]=val[@ts] ..."),
        run: Session::addtocell, help: include_str!("help/addtocell.txt") },
    Command { name: "count", desc: "Count rows in a table", effect: READS, shape: keyed(1, &["prefix"]),
        usage: text("usage: cbt count <table> [prefix=<row-key-prefix>]"),
        run: Session::count, help: include_str!("help/count.txt") },
    Command { name: "createfamily", desc: "Create a column family", effect: CHANGES, shape: Shape::Exactly(2),
        usage: text("usage: cbt createfamily <table> <family>"),
        run: Session::createfamily, help: include_str!("help/createfamily.txt") },
    Command { name: "createtable", desc: "Create a table", effect: Some(Effect::Creates), shape: keyed(1, &["families", "splits"]),
        usage: text("usage: cbt createtable <table> [families=family[:gcpolicy[:type]],...] [splits=split,...]"),
        run: Session::createtable, help: include_str!("help/createtable.txt") },
    Command { name: "deleteallrows", desc: "Delete all rows", effect: CHANGES, shape: Shape::Exactly(1), usage: Usage::CantDo,
        run: Session::deleteallrows, help: include_str!("help/deleteallrows.txt") },
    Command { name: "deletecolumn", desc: "Delete all cells in a column", effect: CHANGES, shape: keyed(4, &["app-profile"]),
        usage: text("usage: cbt deletecolumn <table> <row> <family> <column> [app-profile=<app profile id>]"),
        run: Session::deletecolumn, help: include_str!("help/deletecolumn.txt") },
    Command { name: "deletefamily", desc: "Delete a column family", effect: CHANGES, shape: Shape::Exactly(2),
        usage: text("usage: cbt deletefamily <table> <family>"),
        run: Session::deletefamily, help: include_str!("help/deletefamily.txt") },
    Command { name: "deleterow", desc: "Delete a row", effect: CHANGES, shape: keyed(2, &["app-profile"]),
        usage: text("usage: cbt deleterow <table> <row> [app-profile=<app profile id>]"),
        run: Session::deleterow, help: include_str!("help/deleterow.txt") },
    Command { name: "deletetable", desc: "Delete a table", effect: CHANGES, shape: Shape::Exactly(1), usage: Usage::CantDo,
        run: Session::deletetable, help: include_str!("help/deletetable.txt") },
    Command { name: "help", desc: "Print help text", effect: None, shape: Shape::AtLeast(0), usage: Usage::CantDo,
        run: Session::help, help: include_str!("help/help.txt") },
    Command { name: "import", desc: "Batch write many rows based on the input file", effect: CHANGES, shape: keyed(2, IMPORT_KEYS),
        usage: text("usage: cbt import <table> <input-file> [app-profile=<app-profile-id>] [column-family=<family-name>] [batch-size=<500>] [workers=<1>] [timestamp=<now|value-encoded>]"),
        run: Session::import, help: include_str!("help/import.txt") },
    Command { name: "lookup", desc: "Read from a single row", effect: READS, shape: keyed(2, LOOKUP_KEYS),
        usage: text("usage: cbt lookup <table> <row> [columns=<family:qualifier>...] [cells-per-column=<n>] [app-profile=<app profile id>]"),
        run: Session::lookup, help: include_str!("help/lookup.txt") },
    Command { name: "ls", desc: "List tables and column families", effect: READS, shape: Shape::AtMost(1), usage: Usage::CantDo,
        run: Session::ls, help: include_str!("help/ls.txt") },
    Command { name: "read", desc: "Read rows", effect: READS, shape: keyed(1, READ_KEYS),
        usage: text("usage: cbt read <table> [args ...]"),
        run: Session::read, help: include_str!("help/read.txt") },
    Command { name: "set", desc: "Set value of a cell (write)", effect: CHANGES, shape: Shape::AtLeast(3),
        usage: text("usage: cbt set <table> <row> [authorized-view=<authorized-view-id>] [app-profile=<app profile id>] family:[column]=val[@ts] ..."),
        run: Session::set, help: include_str!("help/set.txt") },
    Command { name: "setgcpolicy", desc: "Set the garbage-collection policy (age, versions) for a column family", effect: CHANGES, shape: Shape::AtLeast(3),
        usage: text("usage: cbt setgcpolicy <table> <family> ((maxage=<d> | maxversions=<n>) [(and|or) (maxage=<d> | maxversions=<n>),...] | never) [force]"),
        run: Session::setgcpolicy, help: include_str!("help/setgcpolicy.txt") },
    Command { name: "version", desc: "Print the current cbt version", effect: None, shape: Shape::AtLeast(0), usage: Usage::CantDo,
        run: Session::version, help: include_str!("help/version.txt") },
    Command { name: "checkandmutate", desc: "Set a value based on the presence of any cell that matches the constraints", effect: CHANGES,
        shape: Shape::Keyed { words: 2, at_least: 3, keys: &["columns", "true", "false"] },
        usage: text("cbt checkandmutate <table-id> <rowkey> [columns=<family:qualifier>] [true=<family>:<column>=<val>[@<timestamp>]] [false=<family>:<column>=<val>[@<timestamp>]]"),
        run: Session::checkandmutate, help: include_str!("help/checkandmutate.txt") },
    Command { name: "readmodifywrite", desc: "Update a cell with incremental operations based on the latest value of the cell", effect: CHANGES,
        shape: Shape::Keyed { words: 4, at_least: 5, keys: &["append", "increment"] },
        usage: text("cbt readmodifywrite <table-id> <rowkey> <family> <qualifier> [append=<val>] [increment=<delta>]"),
        run: Session::readmodifywrite, help: include_str!("help/readmodifywrite.txt") },
    Command { name: "samplerowkeys", desc: "Sample the row keys in a table", effect: READS, shape: Shape::Exactly(1),
        usage: text("usage: cbt samplerowkeys <table>"),
        run: Session::samplerowkeys, help: include_str!("help/samplerowkeys.txt") },
    Command { name: "export", desc: "Print a table as a cbt script or a CSV for cbt import (Rowkey)", effect: READS, shape: keyed(1, &["format"]),
        usage: text("usage: cbt export <table> [format=script|csv]"),
        run: Session::export,
        help: "cbt export <table-id> [format=script|csv]\n\n    Rowkey's own: prints the table as a cbt script (createtable with families, policies and\n    splits, then one set per row) or as a CSV for `cbt import <table-id> FILE timestamp=value-encoded`.\n" },
    Command { name: "compact", desc: "Run a compaction now, applying garbage-collection policies (Rowkey)", effect: CHANGES, shape: Shape::Exactly(1),
        usage: text("usage: cbt compact <table>"),
        run: Session::compact,
        help: "cbt compact <table-id>\n\n    Rowkey's own: Bigtable compacts in the background; Rowkey compacts when asked.\n" },
];

/// The command of that name.
pub fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// The version cbt 1.23.2 prints, which Rowkey's dialect follows.
pub const CBT_VERSION: &str = "1.23.2 9eeb4a7 2025-04-22 20:49:45";

/// cbt's usage text (`cbt help` and a line without a command), listing every command the
/// dialect runs ([`super::listing`]).
pub fn usage() -> String {
    super::listing::usage()
}

impl Session {
    pub(super) fn help(&mut self, call: &Call) -> Result<Vec<u8>, String> {
        match call.words.first() {
            None => Ok(usage().into_bytes()),
            Some(name) => {
                let name = super::args::text(name);
                match find(&name) {
                    Some(c) => Ok(c.help.as_bytes().to_vec()),
                    None => Err(format!(
                        "Don't know command {}",
                        super::print::go_quote(name.as_bytes())
                    )),
                }
            }
        }
    }

    pub(super) fn version(&mut self, _call: &Call) -> Result<Vec<u8>, String> {
        Ok(format!("{CBT_VERSION}\n").into_bytes())
    }
}
