//! Runs parsed commands against the engine and formats what HBase would print.
//!
//! The command table ([`super::commands::COMMANDS`]) decides what exists; each of HBase's
//! command groups has its executor in a child module (`general`, `ddl`, `dml`, `tools`), and
//! Rowkey's own commands live in `rowkey`. `args` reads arguments and option hashes.

mod args;
mod ddl;
mod dml;
mod general;
mod tools;

use args::{fail, Args, Res};

use super::ast::Command;
use super::commands::{self, Group};
use super::format::{self, TimeFormat};
use super::help;
use super::{Outcome, ReadTrace, ShellError};
use crate::engine::Engine;

/// What a command's text is: `None` clears the console.
type Reply = Option<String>;

/// What a command runs with, and what it hands back besides its text.
pub(super) struct Ctx<'a> {
    pub(super) engine: &'a mut Engine,
    pub(super) time_format: &'a TimeFormat,
    /// What a read went through, for the views.
    pub(super) trace: Option<ReadTrace>,
}

/// Appends the `Took` line and the usage hint for errors.
pub(super) fn finish(out: &mut Outcome, seconds: f64) {
    if let Some(err) = &out.error {
        let mut text = format!("ERROR: {}\n", err.message);
        if let Some(cmd) = &err.command {
            text.push_str(&format!("\nFor usage try 'help \"{cmd}\"'\n\n"));
        }
        out.output = text;
    }
    if out.clear {
        return;
    }
    let (body, echo) = match out.output.split_once("\u{0}=> ") {
        Some((body, echo)) => (body.to_string(), Some(echo.to_string())),
        None => (std::mem::take(&mut out.output), None),
    };
    out.output = body;
    out.output.push_str(&format::took(seconds));
    if let Some(echo) = echo {
        out.output.push_str(&format!("=> {echo}\n"));
    }
}

/// Runs one command.
pub(super) fn execute(ctx: &mut Ctx<'_>, cmd: &Command) -> Outcome {
    let result = dispatch(ctx, cmd);
    let trace = ctx.trace.take();
    match result {
        Ok(Some(output)) => Outcome {
            output,
            trace,
            ..Outcome::default()
        },
        Ok(None) => Outcome {
            clear: true,
            ..Outcome::default()
        },
        Err(mut e) => {
            if e.span.is_empty() && e.span.start == 0 {
                e.span = cmd.span.clone();
            }
            if help::text(&cmd.name).is_some() {
                e.command = Some(cmd.name.clone());
            }
            Outcome {
                error: Some(e),
                trace,
                ..Outcome::default()
            }
        }
    }
}

/// Finds the command in the table and hands it to its group's executor.
fn dispatch(ctx: &mut Ctx<'_>, cmd: &Command) -> Res<Reply> {
    let Some(spec) = commands::find(&cmd.name) else {
        return fail(undefined(cmd), cmd.name_span.clone());
    };
    let args = Args { cmd };
    match spec.group {
        Group::General => general::run(&args),
        Group::Ddl => ddl::run(ctx, &args),
        Group::Dml => dml::run(ctx, &args),
        Group::Tools => tools::run(ctx, &args),
        Group::Rowkey => Err(unrouted(&args)),
    }
}

/// A command of the table that its group's executor does not know: a bug, said plainly.
fn unrouted(args: &Args<'_>) -> ShellError {
    ShellError {
        message: format!("command '{}' has no executor", args.cmd.name),
        span: args.cmd.name_span.clone(),
        command: None,
    }
}

/// What JRuby says of a name the shell does not define: a bare word is a `NameError`, a call
/// with arguments a `NoMethodError` (the HBase shell is an IRB session; see hbase-shell's
/// `shell.rb`, which defines each command as a method of the session's receiver), and the
/// closest command of the table when the name looks like a slip.
fn undefined(cmd: &Command) -> String {
    let name = &cmd.name;
    let mut message = if cmd.args.is_empty() {
        format!("NameError: undefined local variable or method `{name}' for main:Object")
    } else {
        format!("NoMethodError: undefined method `{name}' for main:Object")
    };
    if let Some(near) = commands::closest(name, commands::COMMANDS.iter().map(|c| c.name)) {
        message.push_str(&format!("\nDid you mean '{near}'?"));
    }
    message
}

/// The `=> value` line the shell echoes after some commands.
fn echo(body: String, value: String) -> String {
    format!("{body}\u{0}=> {value}")
}

/// An engine error as the shell reports it, pointing at `span`.
fn engine_error(e: crate::engine::Error, span: std::ops::Range<usize>) -> ShellError {
    ShellError {
        message: e.to_string(),
        span,
        command: None,
    }
}
