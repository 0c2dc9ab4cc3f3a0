//! Runs parsed commands against the engine and formats what HBase would print.
//!
//! The command table ([`crate::commands::COMMANDS`]) decides what exists and names each
//! command's executor; the executors of each of HBase's command groups live in a child module
//! (`general`, `ddl`, `dml`, `tools`), and Rowkey's own commands in `rowkey`. `args` reads
//! arguments and option hashes.

use std::fmt::Write as _;
mod args;
pub(super) mod ddl;
pub(super) mod dml;
pub(super) mod general;
mod jruby;
pub(super) mod rowkey;
pub(super) mod sweep;
pub(super) mod tools;

use args::fail;
pub(crate) use args::{Args, Res};

use super::ast::Command;
use super::format::{self, TimeFormat};
use super::help;
use super::{Outcome, ReadTrace, ShellError};
use crate::commands::{Dialect, Executor};
use crate::engine::Engine;

/// What a command's text is: `None` clears the console.
pub(crate) type Reply = Option<String>;

/// What runs an HBase shell command: its entry in the command table names it.
pub(crate) type Run = fn(&mut Ctx<'_>, &Args<'_>) -> Res<Reply>;

/// What a command runs with, and what it hands back besides its text.
pub(crate) struct Ctx<'a> {
    pub(super) engine: &'a mut Engine,
    pub(super) time_format: &'a TimeFormat,
    /// Rows per page of a scan; `None` prints every row at once.
    pub(super) page_rows: Option<usize>,
    /// Rows per step of `generate`; `None` writes every row at once.
    pub(super) gen_budget: Option<usize>,
    /// What a read went through, for the views.
    trace: Option<ReadTrace>,
    /// Set by a command that stopped early and can go on.
    more: Option<Step>,
    /// Set by a command that asks a question the next line of input answers.
    pub(super) question: Option<sweep::Question>,
    /// What the command has printed so far, shown before its error if it fails (the header
    /// of a `get` or `scan`, `truncate`'s first line): HBase's shell prints as it goes.
    pub(super) printed: String,
}

impl<'a> Ctx<'a> {
    pub(super) fn new(
        engine: &'a mut Engine,
        time_format: &'a TimeFormat,
        page_rows: Option<usize>,
        gen_budget: Option<usize>,
    ) -> Ctx<'a> {
        Ctx {
            engine,
            time_format,
            page_rows,
            gen_budget,
            printed: String::new(),
            trace: None,
            more: None,
            question: None,
        }
    }
}

/// A command that stopped after a page of output (a paged `scan`) or a step of work
/// (`generate`); [`super::Shell::resume`] goes on with it.
#[derive(Clone, Debug)]
pub struct Continuation {
    cmd: Command,
    step: Step,
    /// Seconds spent so far, for the final `Took` line.
    seconds: f64,
    /// The command's time (`Engine::begin_command`), which every step of it keeps.
    time: u64,
}

/// Where a continued command stands.
#[derive(Clone, Debug)]
enum Step {
    Scan(dml::Progress),
    Generate(rowkey::Progress),
}

impl Continuation {
    /// Rows shown (a scan) or written (`generate`) so far.
    pub fn rows_so_far(&self) -> u64 {
        match &self.step {
            Step::Scan(p) => p.rows,
            Step::Generate(p) => p.rows,
        }
    }

    /// A `generate`'s rows written and rows to write in all; `None` for a scan, whose end is
    /// not known before it gets there.
    pub fn generated(&self) -> Option<(u64, u64)> {
        match &self.step {
            Step::Scan(_) => None,
            Step::Generate(p) => Some((p.rows, p.total)),
        }
    }

    /// What a `generate` stopped before its end had written, as the shell's closing lines.
    pub fn stopped_text(&self) -> Option<String> {
        match &self.step {
            Step::Scan(_) => None,
            Step::Generate(p) => Some(format!(
                "Stopped after {} of {} rows: {}",
                p.rows,
                p.total,
                p.written()
            )),
        }
    }

    /// The command being continued, as canonical text.
    pub fn command(&self) -> String {
        self.cmd.to_string()
    }

    /// Seconds spent on the command so far.
    pub(super) fn seconds(&self) -> f64 {
        self.seconds
    }

    /// The command's time, which its later steps keep.
    pub(super) fn time(&self) -> u64 {
        self.time
    }

    /// The command's name, for the read-only check.
    pub(super) fn name(&self) -> &str {
        &self.cmd.name
    }
}

/// Appends the `Took` line (`seconds` counts every step of a continued command) and the usage
/// hint for errors; a command that will go on gets no `Took` line yet. A command's error is
/// framed as the interactive shell frames it (`Shell::Commands::Command.command_safe`: an
/// empty line, the `ERROR:` line, an empty line, the usage hint, an empty line), after what
/// the command printed before it failed.
pub(super) fn finish(out: &mut Outcome, seconds: f64) {
    if let Some(err) = &out.error {
        let frame = match &err.command {
            Some(cmd) => format!(
                "\nERROR: {}\n\nFor usage try 'help \"{cmd}\"'\n\n",
                err.message
            ),
            None => format!("ERROR: {}\n", err.message),
        };
        out.output.push_str(&frame);
    }
    if out.clear {
        return;
    }
    if let Some(more) = out.more.as_mut() {
        more.seconds = seconds;
        return;
    }
    let (body, echo) = match out.output.split_once("\u{0}=> ") {
        Some((body, echo)) => (body.to_string(), Some(echo.to_string())),
        None => (std::mem::take(&mut out.output), None),
    };
    out.output = body;
    out.output.push_str(&format::took(seconds));
    if let Some(echo) = echo {
        let _ = writeln!(out.output, "=> {echo}");
    }
}

/// Runs one command.
pub(super) fn execute(ctx: &mut Ctx<'_>, cmd: &Command) -> Outcome {
    let result = dispatch(ctx, cmd);
    outcome(ctx, cmd, result)
}

/// Goes on with a continued command for up to `rows` more rows.
pub(super) fn resume(ctx: &mut Ctx<'_>, cont: Continuation, rows: usize) -> Outcome {
    let Continuation { cmd, step, .. } = cont;
    let args = Args { cmd: &cmd };
    let result = match step {
        Step::Scan(progress) => dml::resume_scan(ctx, &args, progress, rows),
        Step::Generate(progress) => rowkey::resume_generate(ctx, &args, progress, rows),
    };
    outcome(ctx, &cmd, result)
}

/// The outcome of a command's result: its text, or its error pointing into the command.
fn outcome(ctx: &mut Ctx<'_>, cmd: &Command, result: Res<Reply>) -> Outcome {
    let trace = ctx.trace.take();
    let printed = std::mem::take(&mut ctx.printed);
    let more = ctx.more.take().map(|step| Continuation {
        cmd: cmd.clone(),
        step,
        seconds: 0.0,
        time: ctx.engine.now(),
    });
    match result {
        Ok(Some(output)) => Outcome {
            output,
            trace,
            more,
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
            let runs = crate::commands::find(Dialect::HBase, &cmd.name).is_some_and(|c| c.runs());
            if help::text(&cmd.name).is_some() && runs {
                e.command = Some(cmd.name.clone());
            }
            Outcome {
                output: printed,
                error: Some(*e),
                trace,
                ..Outcome::default()
            }
        }
    }
}

/// Finds the command in the table, checks its count of arguments, and runs its executor.
fn dispatch(ctx: &mut Ctx<'_>, cmd: &Command) -> Res<Reply> {
    let spec = crate::commands::find(Dialect::HBase, &cmd.name);
    let Some(spec) = spec else {
        return fail(undefined(cmd), cmd.name_span.clone());
    };
    let args = Args { cmd };
    match spec.run {
        Executor::Shell(run) => {
            args.check_arity(spec.arity)?;
            run(ctx, &args)
        }
        Executor::Refused | Executor::Cbt { .. } => fail(
            format!("{} is not run in Rowkey: {}", spec.name, spec.note),
            cmd.name_span.clone(),
        ),
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
    if let Some(near) =
        crate::commands::closest(name, crate::commands::of(Dialect::HBase).map(|c| c.name))
    {
        let _ = write!(message, "\nDid you mean '{near}'?");
    }
    message
}

/// The `=> value` line the shell echoes after some commands.
fn echo(body: String, value: String) -> String {
    format!("{body}\u{0}=> {value}")
}

/// An engine error as the shell reports it, pointing at `span`.
fn engine_error(e: crate::engine::Error, span: std::ops::Range<usize>) -> Box<ShellError> {
    Box::new(ShellError {
        message: e.to_string(),
        span,
        command: None,
    })
}
