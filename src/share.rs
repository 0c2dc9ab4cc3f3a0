//! Share by URL: the design on show, the console's lines (each with the dialect it was typed
//! in) and a simulation's workload, in the link's fragment (which never reaches a server) as
//! `#s=2.<base64url of zlib-deflated JSON>`. The number is the format version; zlib's checksum
//! tells a damaged link from a good one. A link longer than [`MAX_FRAGMENT`] is refused: the
//! session then goes by file export instead.
//!
//! Format 2 (written and read):
//!
//! ```json
//! {"design": "csdn.blog",
//!  "entries": [{"dialect": "hbase", "text": "scan 'users'"}, {"dialect": "cbt", "text": "ls"}],
//!  "workload": { ... a workload document, `crate::simulate::workload` ... }}
//! ```
//!
//! Format 1 (read only): `{"design": ..., "commands": ["scan 'users'"]}`, every command the HBase
//! shell's. Opening a link never runs or saves anything by itself: [`decode`] only reads, and
//! what it holds waits for the person's answer.

pub mod zlib;

use crate::kit::base64::{self, Alphabet};

use crate::analysis::{existing_changed, Access, Analyzer};
use crate::dialect::{Dialect, HistoryLine};
use crate::json::{self, Node, Value};
use crate::simulate::{SimulateError, Workload};

/// The format version this build writes.
pub const VERSION: u32 = 2;

/// The oldest format version this build still reads.
pub const OLDEST_READ: u32 = 1;

/// The longest fragment a link carries, in bytes: long links are cut by chat programs, mail
/// clients and some servers' logs.
pub const MAX_FRAGMENT: usize = 32 * 1024;

/// The most a link may inflate to: a link is short, its contents need not be large, and a
/// crafted one must not take the page's memory.
const MAX_INFLATED: usize = 8 * 1024 * 1024;

/// What a link carries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shared {
    /// The gallery design on show, by id.
    pub design: Option<String>,
    /// The console's lines, each as it was submitted and in its dialect, oldest first.
    pub entries: Vec<HistoryLine>,
    /// A workload for the simulator, checked when the link was read.
    pub workload: Option<Workload>,
}

impl Shared {
    /// A link of HBase shell commands only (what format 1 held).
    pub fn hbase(design: Option<String>, commands: &[String]) -> Shared {
        Shared {
            design,
            entries: commands.iter().cloned().map(HistoryLine::hbase).collect(),
            workload: None,
        }
    }

    /// The entries' texts in one dialect, in order.
    pub fn texts(&self, dialect: Dialect) -> Vec<String> {
        self.entries
            .iter()
            .filter(|e| e.dialect == dialect)
            .map(|e| e.text.clone())
            .collect()
    }
}

/// Format 2 as it is written: the design and the entries when there are any, the workload as
/// its own document (read and checked separately, so that its errors name the path inside it).
fn to_wire(shared: &Shared) -> Value {
    let mut members = Vec::new();
    if let Some(design) = &shared.design {
        members.push(("design".to_string(), design.as_str().into()));
    }
    if !shared.entries.is_empty() {
        let entries = shared.entries.iter().map(|e| {
            Value::object(vec![
                ("dialect", e.dialect.word().into()),
                ("text", e.text.as_str().into()),
            ])
        });
        members.push(("entries".to_string(), Value::Array(entries.collect())));
    }
    if let Some(workload) = &shared.workload {
        members.push(("workload".to_string(), workload.to_value()));
    }
    Value::Object(members)
}

/// Format 2's design and entries, and its workload document unread.
fn from_wire(
    wire: &Value,
) -> Result<(Option<String>, Vec<HistoryLine>, Option<&Value>), json::Error> {
    let o = Node::root(wire).object(&["design", "entries", "workload"])?;
    let entries = o.or("entries", Vec::new(), |n| {
        n.list(|entry| {
            let e = entry.object(&["dialect", "text"])?;
            let dialects = [Dialect::HBase, Dialect::Cbt];
            let word = e
                .required("dialect")?
                .variant(&dialects.map(Dialect::word))?;
            Ok(HistoryLine {
                dialect: dialects
                    .into_iter()
                    .find(|d| d.word() == word)
                    .unwrap_or(Dialect::HBase),
                text: e.read("text", Node::string)?,
            })
        })
    })?;
    Ok((
        o.optional("design", Node::string)?,
        entries,
        o.get("workload")
            .map(|n| n.value())
            .filter(|v| **v != Value::Null),
    ))
}

/// Format 1: the design and HBase shell commands (other members ignored).
fn from_wire_v1(wire: &Value) -> Result<Shared, json::Error> {
    let o = Node::root(wire).members()?;
    Ok(Shared::hbase(
        o.optional("design", Node::string)?,
        &o.or("commands", Vec::new(), |n| n.list(Node::string))?,
    ))
}

/// Why a session could not become a link, or a link a session.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ShareError {
    /// The session's link would pass [`MAX_FRAGMENT`].
    #[error("the link would be {bytes} bytes long, more than the {max} a link can safely carry")]
    TooLong { bytes: usize, max: usize },
    /// The fragment is no share link.
    #[error("the address holds no shared session (it does not start with #s=)")]
    NotALink,
    /// A link of a format this build does not know.
    #[error("the link is of format {0}, which this version of Rowkey cannot read (it reads formats {OLDEST_READ} to {VERSION})")]
    Version(String),
    /// The link was cut or changed on its way.
    #[error("the link is damaged ({0}); it was probably cut short when it was copied")]
    Damaged(&'static str),
    /// The link reads, but the workload it carries is not a valid one: the error names the
    /// JSON path inside the workload (`$.tables[0].key[2].kind`).
    #[error("the link's workload is not valid: {0}")]
    Workload(SimulateError),
}

/// The fragment (without `#`) of a link to this session.
pub fn encode(shared: &Shared) -> Result<String, ShareError> {
    let json = to_wire(shared).to_compact();
    let packed = zlib::compress(json.as_bytes());
    let fragment = format!(
        "s={VERSION}.{}",
        base64::encode(&packed, Alphabet::UrlNoPad)
    );
    if fragment.len() + 1 > MAX_FRAGMENT {
        return Err(ShareError::TooLong {
            bytes: fragment.len() + 1,
            max: MAX_FRAGMENT,
        });
    }
    Ok(fragment)
}

/// Whether a location's fragment is meant as a share link (so that a damaged one is reported,
/// and any other fragment is left alone).
pub fn is_link(fragment: &str) -> bool {
    fragment.trim_start_matches('#').starts_with("s=")
}

/// The session a fragment carries (with or without the leading `#`), of any format this build
/// reads; a format-1 link's commands read as HBase shell lines.
pub fn decode(fragment: &str) -> Result<Shared, ShareError> {
    let body = fragment
        .trim_start_matches('#')
        .strip_prefix("s=")
        .ok_or(ShareError::NotALink)?;
    if body.len() + 3 > MAX_FRAGMENT {
        return Err(ShareError::TooLong {
            bytes: body.len() + 3,
            max: MAX_FRAGMENT,
        });
    }
    let (version, data) = body
        .split_once('.')
        .ok_or(ShareError::Damaged("it has no format version"))?;
    if version.is_empty() || !version.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ShareError::Damaged("it has no format version"));
    }
    let format = match version.parse::<u32>() {
        Ok(v) if (OLDEST_READ..=VERSION).contains(&v) => v,
        _ => return Err(ShareError::Version(version.to_string())),
    };
    let packed = base64::decode(data.trim_end(), Alphabet::UrlNoPad)
        .map_err(|_| ShareError::Damaged("it holds characters, or a length, that no link has"))?;
    let json = zlib::decompress(&packed, MAX_INFLATED)
        .map_err(|_| ShareError::Damaged("its compressed contents do not check out"))?;
    let not_a_session = |_| ShareError::Damaged("its contents are not a session");
    let text = std::str::from_utf8(&json)
        .map_err(|_| ShareError::Damaged("its contents are not a session"))?;
    let wire = json::parse(text).map_err(not_a_session)?;
    if format == 1 {
        return from_wire_v1(&wire).map_err(not_a_session);
    }
    let (design, entries, workload) = from_wire(&wire).map_err(not_a_session)?;
    let workload = workload
        .map(Workload::from_value)
        .transpose()
        .map_err(ShareError::Workload)?;
    Ok(Shared {
        design,
        entries,
        workload,
    })
}

/// What each entry does, in order, each read in its own dialect (HBase's table references
/// carry from one HBase entry to the later ones).
pub fn accesses(entries: &[HistoryLine]) -> Vec<Access> {
    let mut hbase = Analyzer::new(Dialect::HBase);
    let mut cbt = Analyzer::new(Dialect::Cbt);
    entries
        .iter()
        .flat_map(|e| match e.dialect {
            Dialect::HBase => hbase.script(&e.text),
            Dialect::Cbt => cbt.script(&e.text),
        })
        .collect()
}

/// The existing tables that a link's entries would change (`put`, `delete`, `drop`, `alter`,
/// cbt's `set`, `deleterow`, ... on a table that `exists` says is there, directly or through a
/// table reference), in order of first mention: what opening the link must ask about. A table
/// the entries create first is theirs and not listed.
pub fn tables_changed(entries: &[HistoryLine], exists: impl Fn(&str) -> bool) -> Vec<String> {
    existing_changed(&accesses(entries), exists)
}
