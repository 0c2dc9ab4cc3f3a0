//! The console's two dialects: HBase's shell and Bigtable's `cbt`. Both run over the one
//! engine, so an HBase table and a Bigtable table live side by side; the dialect decides how a
//! line is read (`count` and `help` are words of both). Every history line keeps the dialect
//! it was typed in, and the history is saved with it ([`HISTORY_FORMAT`]).

use crate::json::{Node, Value};

use crate::cbt;
use crate::engine::Engine;

/// Which front end reads a line: the command table's dialects.
pub use crate::commands::Dialect;

impl Dialect {
    /// The word the prompt shows: `hbase` or `cbt`.
    pub fn word(self) -> &'static str {
        match self {
            Dialect::HBase => "hbase",
            Dialect::Cbt => "cbt",
        }
    }

    /// The other dialect (what the switch turns to).
    pub fn other(self) -> Dialect {
        match self {
            Dialect::HBase => Dialect::Cbt,
            Dialect::Cbt => Dialect::HBase,
        }
    }

    /// The prompt before line `number`: HBase's `hbase:007:0> `, or `cbt> `.
    pub fn prompt(self, number: usize) -> String {
        match self {
            Dialect::HBase => format!("hbase:{number:03}:0> "),
            Dialect::Cbt => "cbt> ".to_string(),
        }
    }
}

/// The words a view uses for a table, in its dialect: HBase's regions and memstore, or
/// Bigtable's tablets. Bigtable splits a tablet by size and by load and documents no
/// threshold (https://cloud.google.com/bigtable/docs/overview#load-balancing), so the split
/// size and the load rule ([`crate::engine::LOAD_WINDOW`], [`crate::engine::LOAD_SPLIT_OPS`])
/// a Bigtable view names are Rowkey's model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terms {
    /// `region` or `tablet`.
    pub part: &'static str,
    /// `Regions` or `Tablets`, for headings.
    pub parts: &'static str,
    /// What fills before a write reaches a file: HBase's memstore, a tablet's write buffer.
    pub buffer: &'static str,
    /// How the split size is to be read: HBase's setting, or Rowkey's model of Bigtable with
    /// its load rule.
    pub split_rule: &'static str,
}

impl Terms {
    /// The words for a table with these rules: Bigtable's for a Bigtable table.
    pub fn of(rules: &crate::engine::Rules) -> Terms {
        if *rules == cbt::BIGTABLE_RULES {
            Terms {
                part: "tablet",
                parts: "Tablets",
                buffer: "write buffer",
                split_rule: " (Rowkey's model, as Bigtable documents no threshold); a tablet that \
                     served 600 of the table's last 1,000 operations splits too, at the middle of \
                     the keys asked for there",
            }
        } else {
            Terms {
                part: "region",
                parts: "Regions",
                buffer: "memstore",
                split_rule: "",
            }
        }
    }

    /// The words for the engine's table `name` (HBase's when there is no such table).
    pub fn of_table(engine: &Engine, name: &str) -> Terms {
        let hbase = crate::engine::Rules::default();
        Terms::of(engine.table(name).map_or(&hbase, |t| &t.descriptor.rules))
    }

    /// `n` parts: `1 region`, `3 tablets`.
    pub fn count(&self, n: usize) -> String {
        format!("{n} {}{}", self.part, if n == 1 { "" } else { "s" })
    }
}

/// One history line and the dialect it was typed in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryLine {
    pub dialect: Dialect,
    pub text: String,
}

impl HistoryLine {
    pub fn hbase(text: impl Into<String>) -> HistoryLine {
        HistoryLine {
            dialect: Dialect::HBase,
            text: text.into(),
        }
    }
}

/// Version of the saved history: 1 was a bare list of strings (every line HBase's); 2 keeps
/// each line's dialect.
pub const HISTORY_FORMAT: u32 = 2;

/// The history as it is saved: `{"lines":[{"dialect":"hbase","text":"..."}],"version":2}`.
pub fn encode_history(lines: &[HistoryLine]) -> Value {
    let lines = lines
        .iter()
        .map(|l| {
            Value::object(vec![
                ("dialect", Value::from(l.dialect.word())),
                ("text", Value::from(l.text.as_str())),
            ])
        })
        .collect();
    Value::object(vec![
        ("lines", Value::Array(lines)),
        ("version", Value::from(HISTORY_FORMAT)),
    ])
}

/// A saved history of any format; version 1's lines read as HBase's. Anything unreadable reads
/// as an empty history (the history is a convenience, never a reason not to open).
pub fn decode_history(saved: &Value) -> Vec<HistoryLine> {
    let root = Node::root(saved);
    if let Ok(v1) = root.list(Node::string) {
        return v1.into_iter().map(HistoryLine::hbase).collect();
    }
    let v2 = || -> Result<Vec<HistoryLine>, crate::json::Error> {
        let f = root.members()?;
        if f.read("version", Node::u32)? > HISTORY_FORMAT {
            return Ok(Vec::new());
        }
        f.list("lines", |line| {
            let l = line.members()?;
            let dialect = match l.required("dialect")?.variant(&["hbase", "cbt"])? {
                "cbt" => Dialect::Cbt,
                _ => Dialect::HBase,
            };
            Ok(HistoryLine {
                dialect,
                text: l.read("text", Node::string)?,
            })
        })
    };
    v2().unwrap_or_default()
}

/// Whether a cbt command changes data or schema (the command table says).
pub fn cbt_writes(name: &str) -> bool {
    crate::commands::writes(Dialect::Cbt, name)
}

/// The cbt command a line names, as the command table spells it (after an optional `cbt`).
pub fn cbt_command(line: &str) -> Option<&'static str> {
    let words = cbt::split(line).ok()?;
    let first = cbt::command_words(&words).first()?;
    crate::commands::find(Dialect::Cbt, &String::from_utf8_lossy(first)).map(|c| c.name)
}

/// The timestamp lint for text about to run in cbt: one warning per `set`, `addtocell` or
/// `checkandmutate` cell
/// whose timestamp looks like epoch milliseconds, when its table is a Bigtable table (or does
/// not exist yet, so a script that creates it is warned too). Each warning names its line.
pub fn lint_cbt(text: &str, engine: &Engine) -> Vec<String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let Ok(words) = cbt::split(line) else {
            continue;
        };
        let [command, table, _row, cells @ ..] = cbt::command_words(&words) else {
            continue;
        };
        // `checkandmutate`'s `true=fam:col=val@ts` reads the same way: the timestamp follows
        // the value's last `@`.
        if !matches!(
            command.as_slice(),
            b"set" | b"addtocell" | b"checkandmutate"
        ) {
            continue;
        }
        let table = String::from_utf8_lossy(table);
        if engine
            .table(&table)
            .is_ok_and(|t| t.descriptor.rules != cbt::BIGTABLE_RULES)
        {
            continue;
        }
        for cell in cells {
            let Some(eq) = cell.iter().position(|b| *b == b'=') else {
                continue;
            };
            let value = &cell[eq + 1..];
            let Some(at) = value.iter().rposition(|b| *b == b'@') else {
                continue;
            };
            let Some(ts) = std::str::from_utf8(&value[at + 1..])
                .ok()
                .and_then(|t| t.parse::<u64>().ok())
            else {
                continue;
            };
            if let Some(warning) = cbt::lint::epoch_millis_warning(ts) {
                let warning = warning.trim_start_matches("rowkey: warning: ");
                out.push(format!("line {}: {warning}", n + 1));
            }
        }
    }
    out
}
