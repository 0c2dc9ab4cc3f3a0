//! `disable_all`, `enable_all` and `drop_all`: every table whose name a regular expression
//! matches, listed, then changed once the next line of input says yes. HBase's shell asks
//! with `gets`, so the answer is whatever line comes next: the next line of a pasted script,
//! or the next line typed (`disable_all.rb`, `enable_all.rb`, `drop_all.rb`).

use std::fmt::Write as _;

use super::args::{fail, Args, Res};
use super::{Ctx, Reply};
use crate::engine::Engine;

/// What a sweep does to each table it matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sweep {
    Disable,
    Enable,
    Drop,
}

impl Sweep {
    /// The command's name.
    pub fn command(self) -> &'static str {
        match self {
            Sweep::Disable => "disable_all",
            Sweep::Enable => "enable_all",
            Sweep::Drop => "drop_all",
        }
    }

    /// The verb of its question and its report.
    fn verb(self) -> (&'static str, &'static str) {
        match self {
            Sweep::Disable => ("Disable", "disabled"),
            Sweep::Enable => ("Enable", "enabled"),
            Sweep::Drop => ("Drop", "dropped"),
        }
    }

    /// The change to one table, or the text of the exception HBase's master answers it with
    /// (`e.toString`, which admin.rb prints): `DisableTableProcedure.prepareDisable` and
    /// `EnableTableProcedure.prepareEnable` refuse a table already in the state with its
    /// `TableState` (`tableName=t, state=DISABLED`), `HMaster.checkTableModifiable` a drop of
    /// an enabled table with `Not DISABLED; ` before it.
    fn apply(self, engine: &mut Engine, table: &str) -> Result<(), String> {
        let enabled = engine.table(table).map_err(|e| e.to_string())?.enabled;
        let refused = |class: &str, lead: &str, state: &str| {
            Err(format!(
                "org.apache.hadoop.hbase.{class}: {lead}tableName={table}, state={state}"
            ))
        };
        match (self, enabled) {
            (Sweep::Disable, false) => refused("TableNotEnabledException", "", "DISABLED"),
            (Sweep::Enable, true) => refused("TableNotDisabledException", "", "ENABLED"),
            (Sweep::Drop, true) => {
                refused("TableNotDisabledException", "Not DISABLED; ", "ENABLED")
            }
            (Sweep::Disable, _) => engine.disable(table).map_err(|e| e.to_string()),
            (Sweep::Enable, _) => engine.enable(table).map_err(|e| e.to_string()),
            (Sweep::Drop, _) => engine.drop_table(table).map_err(|e| e.to_string()),
        }
    }
}

/// A sweep waiting for its answer: what it does, its pattern, and how many tables it listed
/// (the report counts from these, as admin.rb's `count` was taken before the question).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    pub sweep: Sweep,
    pattern: String,
    listed: usize,
}

pub(in crate::shell) fn disable_all(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    ask(ctx, args, Sweep::Disable)
}

pub(in crate::shell) fn enable_all(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    ask(ctx, args, Sweep::Enable)
}

pub(in crate::shell) fn drop_all(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    ask(ctx, args, Sweep::Drop)
}

/// The tables whose whole name `pattern` matches (`Admin.listTableNames(Pattern)`, which
/// `list` and the sweeps call), in name order.
pub(super) fn matching(engine: &Engine, pattern: &str) -> Result<Vec<String>, String> {
    let re = crate::kit::regex::Regex::new(&format!("^(?:{pattern})$"))
        .map_err(|e| format!("invalid regular expression: {e}"))?;
    Ok(engine
        .tables()
        .map(|t| t.descriptor.name.clone())
        .filter(|n| re.is_match(n))
        .collect())
}

/// Lists the tables the pattern matches and asks; with none, says so and asks nothing.
fn ask(ctx: &mut Ctx<'_>, args: &Args<'_>, sweep: Sweep) -> Res<Reply> {
    let pattern = args.text(0, "regular expression")?;
    let tables = matching(ctx.engine, &pattern).or_else(|e| fail(e, args.span(0)))?;
    if tables.is_empty() {
        return Ok(Some(format!("No tables matched the regex {pattern}\n")));
    }
    let mut out = String::new();
    for t in &tables {
        let _ = writeln!(out, "{t}");
    }
    let _ = writeln!(
        out,
        "\n{} the above {} tables (y/n)?",
        sweep.verb().0,
        tables.len()
    );
    ctx.question = Some(Question {
        sweep,
        pattern,
        listed: tables.len(),
    });
    Ok(Some(out))
}

/// Carries out a sweep's answer: a line with a `y` in it (Ruby's `answer =~ /y.*/i`) changes
/// the tables the pattern matches now, each on its own; anything else changes nothing.
pub(in crate::shell) fn answer(engine: &mut Engine, question: &Question, line: &str) -> String {
    let mut out = String::new();
    if !line.contains(['y', 'Y']) {
        return out;
    }
    let sweep = question.sweep;
    let mut failed = Vec::new();
    for table in matching(engine, &question.pattern).unwrap_or_default() {
        if let Err(e) = sweep.apply(engine, &table) {
            let _ = writeln!(out, "table:{table}, error:{e}");
            if sweep == Sweep::Drop {
                // drop_all's `puts puts "table:..."`: the inner `puts` returns nil, which
                // the outer one prints as an empty line.
                out.push('\n');
            }
            failed.push(table);
        }
    }
    let done = sweep.verb().1;
    let _ = writeln!(
        out,
        "{} tables successfully {done}",
        question.listed as i64 - failed.len() as i64
    );
    if !failed.is_empty() {
        let _ = writeln!(
            out,
            "{} tables not {done} due to an exception: {}",
            failed.len(),
            failed.join(",")
        );
    }
    out
}
