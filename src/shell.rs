//! The HBase shell: a lexer and parser with byte spans, an AST that prints back as canonical
//! text, an executor over the engine, and output formatted as the HBase 2.x shell formats it.
//! The browser console and the command-line shell both run through [`Shell::run`].

use std::fmt::Write as _;
mod ast;
pub mod commands;
mod complete;
mod convert;
mod exec;
mod format;
mod help;
mod highlight;
mod lexer;
mod parser;
mod script;

pub use ast::{quote, Command, Spanned, Value};
pub use complete::{complete, Completion};
pub use exec::Continuation;
pub(crate) use exec::Run;
pub use format::TimeFormat;
pub use highlight::{highlight, Class};
pub use lexer::{is_incomplete, open_at_end, Open};
pub use parser::parse_command;
pub use script::{parse_script, Script};
pub use ShellError as Error;

use std::ops::Range;

use crate::commands::Dialect;
use crate::engine::{Engine, OpStats};

/// Input that does not parse: what is wrong, where, and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    pub message: String,
    pub span: Range<usize>,
    pub expected: String,
}

impl ParseError {
    pub fn new(
        message: impl Into<String>,
        span: Range<usize>,
        expected: impl Into<String>,
    ) -> ParseError {
        ParseError {
            message: message.into(),
            span,
            expected: expected.into(),
        }
    }
}

/// A command that failed: HBase's message and the span of input at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShellError {
    pub message: String,
    pub span: Range<usize>,
    /// The command whose usage the error points to, if known.
    pub command: Option<String>,
}

/// What a scan or get went through, for the views that draw it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadTrace {
    pub table: String,
    /// Where the rows the read examined are.
    pub examined: crate::engine::Examined,
    /// The keys of the rows it returned, in the order it returned them.
    pub returned: RowKeys,
    pub stats: OpStats,
}

/// The keys of the rows a read returned, in one buffer: a `count` of a million rows keeps a
/// million keys with two allocations that grow, not a million.
pub type RowKeys = crate::kit::packed::Packed;

/// The result of one command.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The command's canonical text (or the raw input when it did not parse).
    pub input: String,
    /// Byte range of the command in the submitted text.
    pub span: Range<usize>,
    /// 1-based line number of the command's first byte in the submitted text.
    pub line: usize,
    /// The command's name from [`crate::commands::COMMANDS`], when it parsed and is known.
    pub name: Option<&'static str>,
    pub output: String,
    pub error: Option<ShellError>,
    /// The console should be cleared.
    pub clear: bool,
    pub trace: Option<ReadTrace>,
    /// Set when the command stopped early (a page of a scan, a step of `generate`):
    /// [`Shell::resume`] goes on with it.
    pub more: Option<Continuation>,
}

/// A shell session over an engine.
pub struct Shell {
    pub engine: Engine,
    /// A monotonic timer in milliseconds, for `Took X seconds`.
    timer: Box<dyn Fn() -> f64>,
    /// Why commands that change data are refused, when they are (another tab is writing).
    pub read_only: Option<String>,
    /// How `get` and `scan` print cell timestamps.
    pub time_format: TimeFormat,
    /// Rows per page of a scan: a scan with more rows returns the first page and a
    /// continuation ([`Outcome::more`]). `None` (the CLI) prints every row at once.
    pub page_rows: Option<usize>,
    /// Rows `generate` writes per step before returning a continuation; `None` writes all.
    pub gen_budget: Option<usize>,
    /// Table references by variable name (`t = get_table 't1'`), to the table's name.
    refs: crate::kit::sorted::SortedMap<String, String>,
    /// Configuration properties set with `-D key=value`, as HBase's shell takes them.
    properties: crate::kit::sorted::SortedMap<String, String>,
    /// A command's question (`disable_all`'s "(y/n)?") that the next line of input answers.
    question: Option<exec::sweep::Question>,
}

/// The property that makes `get` and `scan` print epoch milliseconds (`table.rb` reads it with
/// `getBoolean(..., false)` into `@timestamp_format_epoch`).
pub const TIMESTAMP_FORMAT_EPOCH: &str = "hbase.shell.timestamp.format.epoch";

impl Shell {
    pub fn new(engine: Engine, timer: Box<dyn Fn() -> f64>) -> Shell {
        Shell {
            engine,
            timer,
            read_only: None,
            time_format: TimeFormat::default(),
            page_rows: None,
            gen_budget: None,
            refs: crate::kit::sorted::SortedMap::new(),
            properties: crate::kit::sorted::SortedMap::new(),
            question: None,
        }
    }

    /// Sets a configuration property, as `hbase shell -D key=value` does. The shell reads
    /// [`TIMESTAMP_FORMAT_EPOCH`]: `true` (any case, as Java's `Boolean.parseBoolean`) prints
    /// timestamps as epoch milliseconds; anything else as local date and time in UTC (a
    /// host that knows its zone sets [`Shell::time_format`] after).
    pub fn set_property(&mut self, key: &str, value: &str) {
        if key == TIMESTAMP_FORMAT_EPOCH {
            self.time_format = if value.eq_ignore_ascii_case("true") {
                TimeFormat::Epoch
            } else {
                TimeFormat::default()
            };
        }
        self.properties.insert(key.to_string(), value.to_string());
    }

    /// A property set with [`Shell::set_property`].
    pub fn property(&self, key: &str) -> Option<&str> {
        self.properties.get(key).map(String::as_str)
    }

    /// Runs every command in `input` in order; a failing command does not stop the rest.
    pub fn run(&mut self, input: &str) -> Vec<Outcome> {
        let mut script = Script::new(input.to_string());
        let mut outcomes = Vec::new();
        while !script.is_done() {
            outcomes.extend(self.run_some(&mut script, 1024));
        }
        outcomes
    }

    /// Runs up to `max` more commands of `script`, reading no further into it than they need;
    /// fewer only when the script is done. A command that fails does not stop the next.
    pub fn run_some(&mut self, script: &mut Script, max: usize) -> Vec<Outcome> {
        let mut outcomes = Vec::new();
        while outcomes.len() < max {
            if let Some(question) = self.question.take() {
                // HBase's shell reads the answer with `gets`: the next line, whatever it is.
                let Some((span, line)) = script.next_line() else {
                    self.question = Some(question);
                    break;
                };
                outcomes.push(self.answer(script.text(), span, line, &question));
                continue;
            }
            let Some(statement) = script.next_statement() else {
                break;
            };
            outcomes.push(self.run_statement(script.text(), statement));
        }
        outcomes
    }

    fn run_statement(&mut self, input: &str, statement: script::Statement) -> Outcome {
        let script::Statement { result, span, line } = statement;
        let text = input.get(span.clone()).unwrap_or_default().to_string();
        // A table reference's command (`t.scan`) hands HBase's shell the `Hbase::Table` object
        // as its first argument (table.rb's `add_command`), which its error for a disabled
        // table names as it prints the object (`"Table #{args.first} is disabled!"`, commands.rb).
        let reference = result
            .as_ref()
            .ok()
            .and_then(|cmd| cmd.name.split_once('.'))
            .and_then(|(var, _)| self.refs.get(var).cloned());
        let result = result.and_then(|cmd| {
            self.resolve(cmd)
                .map_err(|e| ParseError::new(e.message, e.span, ""))
        });
        match result {
            Ok(cmd) => {
                let spec = crate::commands::find(Dialect::HBase, &cmd.name);
                let name = spec.map(|c| c.name);
                if let (Some(message), true) = (&self.read_only, spec.is_some_and(|c| c.writes)) {
                    return Outcome {
                        span,
                        line,
                        name,
                        ..refused(text, message.clone(), cmd.name_span.clone())
                    };
                }
                let mut out = self.execute(&cmd);
                if let (Some(table), Some(e)) = (&reference, out.error.as_mut()) {
                    let plain = format!("Table {table} is disabled!");
                    if e.message == plain {
                        e.message = format!("Table Hbase::Table - {table} is disabled!");
                        out.output = out.output.replacen(&plain, &e.message, 1);
                    }
                }
                if let (Some((var, _)), None) = (&cmd.target, &out.error) {
                    if let Some(Value::Str(table)) = cmd.args.first().map(|a| &a.value) {
                        let table = String::from_utf8_lossy(table).into_owned();
                        let table = table.strip_prefix("default:").unwrap_or(&table).to_string();
                        self.refs.insert(var.clone(), table);
                    }
                }
                out.input = text;
                out.span = span;
                out.line = line;
                out.name = name;
                out
            }
            Err(e) => Outcome {
                input: text,
                span,
                line,
                output: format!("ERROR: {}\n", e.message),
                error: Some(ShellError {
                    message: e.message,
                    span: e.span,
                    command: None,
                }),
                ..Outcome::default()
            },
        }
    }

    /// Runs one parsed command (not checking `read_only`) at a time of its own
    /// ([`Engine::begin_command`]) and times it; the outcome's `input` and `span` are left for
    /// the caller, who has the submitted text.
    pub fn execute(&mut self, cmd: &Command) -> Outcome {
        let started = (self.timer)();
        self.engine.begin_command();
        let mut ctx = self.context();
        let mut out = exec::execute(&mut ctx, cmd);
        let question = ctx.question.take();
        self.engine.end_command();
        let seconds = (((self.timer)() - started) / 1000.0).max(0.0);
        // `help` is the shell's own method, not a command (`Shell::Shell.help`): no `Took` line;
        // a command waiting for its answer prints it after the answer.
        if (cmd.name != "help" || out.error.is_some()) && question.is_none() {
            exec::finish(&mut out, seconds);
        }
        self.question = question;
        out
    }

    /// Drops a command's question that no line has answered (the person left the HBase
    /// shell), giving the command's name: nothing it asked about was done.
    pub fn drop_question(&mut self) -> Option<&'static str> {
        self.question.take().map(|q| q.sweep.command())
    }

    /// Carries out the answer (the line at `span` of `input`) to a command's question.
    fn answer(
        &mut self,
        input: &str,
        span: Range<usize>,
        line: usize,
        question: &exec::sweep::Question,
    ) -> Outcome {
        let text = input.get(span.clone()).unwrap_or_default();
        let name = Some(question.sweep.command());
        if let Some(message) = &self.read_only {
            return Outcome {
                span: span.clone(),
                line,
                name,
                ..refused(text.to_string(), message.clone(), span)
            };
        }
        let started = (self.timer)();
        self.engine.begin_command();
        let mut out = Outcome {
            output: exec::sweep::answer(&mut self.engine, question, text),
            ..Outcome::default()
        };
        self.engine.end_command();
        exec::finish(&mut out, (((self.timer)() - started) / 1000.0).max(0.0));
        Outcome {
            input: text.to_string(),
            span,
            line,
            name,
            ..out
        }
    }

    /// Goes on with a command that stopped early, for up to `rows` more rows (a page of a
    /// scan, a step of `generate`). The outcome holds that part's output and, unless it is
    /// the last, another continuation; the last part ends with the totals and the `Took` line
    /// (time over every part). `input` is the command's canonical text; `span` is empty.
    pub fn resume(&mut self, cont: Continuation, rows: usize) -> Outcome {
        let input = cont.command();
        if let (Some(message), true) = (
            self.read_only.clone(),
            crate::commands::writes(Dialect::HBase, cont.name()),
        ) {
            return refused(input, message, 0..0);
        }
        let before = cont.seconds();
        let started = (self.timer)();
        self.engine.resume_command(cont.time());
        let mut ctx = self.context();
        let mut out = exec::resume(&mut ctx, cont, rows);
        self.engine.end_command();
        let seconds = before + (((self.timer)() - started) / 1000.0).max(0.0);
        exec::finish(&mut out, seconds);
        out.input = input;
        out
    }

    /// A command on a table reference as the command it stands for: `t.put 'r', ...` is
    /// `put 't1', 'r', ...` and a bare `t` echoes the reference. An assignment keeps only a
    /// table reference (`get_table`, `create`), as Rowkey has no other values to hold.
    fn resolve(&self, mut cmd: Command) -> Result<Command, ShellError> {
        let error = |message: String, span: Range<usize>| ShellError {
            message,
            span,
            command: None,
        };
        let name_span = cmd.name_span.clone();
        if let Some((var, method)) = cmd.name.split_once('.') {
            let var_span = name_span.start..name_span.start + var.len();
            let Some(table) = self.refs.get(var) else {
                return Err(error(
                    format!(
                        "NameError: undefined local variable or method `{var}' for main:Object"
                    ),
                    var_span,
                ));
            };
            if method == "help" && cmd.target.is_none() {
                // table.rb's `help`: the help of table references, as `table_help` prints it.
                cmd.name = "table_help".into();
                return Ok(cmd);
            }
            if !crate::commands::find(Dialect::HBase, method).is_some_and(|c| c.table_method) {
                let mut message = format!(
                    "NoMethodError: undefined method `{method}' for Hbase::Table - {table}"
                );
                if let Some(near) = crate::commands::closest(method, commands::table_methods()) {
                    let _ = write!(message, "\nDid you mean '{near}'?");
                }
                return Err(error(message, var_span.end + 1..name_span.end));
            }
            cmd.args.insert(
                0,
                Spanned {
                    value: Value::Str(table.clone().into_bytes()),
                    span: var_span,
                },
            );
            cmd.name = method.to_string();
        } else if let Some(table) = self.refs.get(&cmd.name).filter(|_| cmd.args.is_empty()) {
            cmd.args.push(Spanned {
                value: Value::Str(table.clone().into_bytes()),
                span: name_span.clone(),
            });
            cmd.name = "get_table".into();
        }
        if let Some((var, span)) = &cmd.target {
            if !matches!(cmd.name.as_str(), "get_table" | "create") {
                return Err(error(
                    format!(
                        "Rowkey keeps only table references in variables: `{var} = get_table 't1'` or `{var} = create 't1', 'f1'`"
                    ),
                    span.clone(),
                ));
            }
            if crate::commands::find(Dialect::HBase, var).is_some() {
                return Err(error(
                    format!(
                        "`{var}` is a command's name; choose another name for the table reference"
                    ),
                    span.clone(),
                ));
            }
        }
        Ok(cmd)
    }

    fn context(&mut self) -> exec::Ctx<'_> {
        exec::Ctx::new(
            &mut self.engine,
            &self.time_format,
            self.page_rows,
            self.gen_budget,
        )
    }
}

/// A command refused because another tab is writing: `message` pointing at `span`.
fn refused(input: String, message: String, span: Range<usize>) -> Outcome {
    Outcome {
        input,
        output: format!("ERROR: {message}\n"),
        error: Some(ShellError {
            message,
            span,
            command: None,
        }),
        ..Outcome::default()
    }
}

fn line_around(input: &str, span: &Range<usize>) -> Range<usize> {
    let start = input
        .get(..span.start.min(input.len()))
        .and_then(|s| s.rfind('\n'))
        .map(|i| i + 1)
        .unwrap_or(0);
    let end = input
        .get(span.end.min(input.len())..)
        .and_then(|s| s.find('\n'))
        .map(|i| i + span.end)
        .unwrap_or(input.len());
    start..end
}

/// The error's input line with carets under the span, as the CLI prints it.
pub fn render_caret(input: &str, span: &Range<usize>) -> String {
    let line = line_around(input, span);
    let text = input.get(line.clone()).unwrap_or_default();
    let col = input
        .get(line.start..span.start.max(line.start).min(input.len()))
        .map(|s| s.chars().count())
        .unwrap_or(0);
    let width = input
        .get(span.start.min(input.len())..span.end.min(line.end).max(span.start).min(input.len()))
        .map(|s| s.chars().count())
        .unwrap_or(0)
        .max(1);
    format!("  {}\n  {}{}\n", text, " ".repeat(col), "^".repeat(width))
}

// Added by the executor's work; kept apart from the list above for a clean merge.
