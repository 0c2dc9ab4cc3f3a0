//! The gallery: every table design of the design documents, runnable. A design is its tables
//! and sample data (as a shell script), the access patterns it serves (as commands), and what
//! to look at to see why it works or why it is the anti-pattern.

mod cases;
mod colliding_keys;
pub mod compare;
mod csdn;
pub mod delete_models;
mod follow;
pub mod gen;
pub mod in_cbt;
pub mod lesson;
pub mod loads;
mod one_to_many;
mod org;
mod person_role;
mod random_salt;
mod schema_guide;
mod secondary_index;
pub mod size;
mod techniques;
pub mod tour;
mod unfollow;
mod weibo;

use crate::shell::{quote, Shell};

pub use lesson::{Claim, Measure, Measures, PatternRun};
pub use size::Size;

/// What the design teaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The layout the design document recommends.
    Recommended,
    /// Works, with a cost worth seeing.
    Tradeoff,
    /// The layout the design document warns against.
    AntiPattern,
}

impl Verdict {
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Recommended => "recommended",
            Verdict::Tradeoff => "trade-off",
            Verdict::AntiPattern => "anti-pattern",
        }
    }
}

/// One access pattern: a command, what its result shows, and the lesson in numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct Pattern {
    pub name: &'static str,
    pub command: String,
    pub note: &'static str,
    /// The logical actions the command performs (posts, follows, renames), for the
    /// per-action figures.
    pub actions: u64,
    /// What the numbers of a run must show.
    pub claims: Vec<Claim>,
}

impl Pattern {
    /// The pattern, stating its lesson as these relations.
    pub fn shows(mut self, claims: impl IntoIterator<Item = Claim>) -> Pattern {
        self.claims.extend(claims);
        self
    }

    /// The pattern performs `n` logical actions.
    pub fn actions(mut self, n: u64) -> Pattern {
        self.actions = n;
        self
    }
}

/// One table design.
#[derive(Clone, Debug)]
pub struct Design {
    pub id: &'static str,
    pub title: &'static str,
    /// The design document it comes from.
    pub source: &'static str,
    pub verdict: Verdict,
    /// Why it works, or why not, in a few sentences.
    pub why: &'static str,
    /// The tables its script creates.
    pub tables: &'static [&'static str],
    /// The shell script that creates the tables and loads the sample data at a size.
    pub setup: fn(Size) -> String,
    /// The size this design's sample data and access patterns are built for.
    pub size: Size,
    /// Whether the sample grows with the size. The documents' own small examples (five persons
    /// and three roles, eight departments) load the same at every size.
    pub scales: bool,
    pub patterns: Vec<Pattern>,
}

impl Design {
    /// The script that creates the tables and loads the sample data at the design's size.
    pub fn setup_script(&self) -> String {
        (self.setup)(self.size)
    }

    /// Runs access pattern `index` on a shell holding the design's tables and measures it.
    /// The error names the failed command, or an index past the patterns.
    pub fn run_pattern(&self, shell: &mut Shell, index: usize) -> Result<PatternRun, String> {
        let p = self
            .patterns
            .get(index)
            .ok_or_else(|| format!("{} has no access pattern {index}", self.id))?;
        let (measures, outcomes) = lesson::run_measured(shell, self.tables, &p.command, p.actions)?;
        let checks = p.claims.iter().map(|c| (*c, c.holds(&measures))).collect();
        Ok(PatternRun {
            measures,
            checks,
            outcomes,
        })
    }
}

/// Every design at the default size, in the order of the design documents.
pub fn catalogue() -> Vec<Design> {
    catalogue_at(Size::default())
}

/// Every design with its sample data and access patterns built for `size`.
pub fn catalogue_at(size: Size) -> Vec<Design> {
    let mut all = Vec::new();
    all.extend(person_role::designs(size));
    all.extend(org::designs(size));
    all.extend(weibo::designs(size));
    all.extend(csdn::designs(size));
    all.extend(techniques::designs_001(size));
    all.extend(random_salt::designs(size));
    all.extend(colliding_keys::designs(size));
    all.extend(schema_guide::designs(size));
    all.extend(techniques::designs_002(size));
    all.extend(one_to_many::designs(size));
    all.extend(cases::designs(size));
    all.extend(secondary_index::designs(size));
    all.extend(follow::designs(size));
    all.extend(unfollow::designs(size));
    all.extend(techniques::designs_004(size));
    all
}

/// The catalogue at the default size, built once per thread and shared: the page reads it on
/// every render.
pub fn shared() -> std::rc::Rc<[Design]> {
    shared_at(Size::default())
}

/// The catalogue at `size`, built the first time a design of that size is asked for and then
/// shared.
pub fn shared_at(size: Size) -> std::rc::Rc<[Design]> {
    use crate::kit::sorted::SortedMap;
    use std::cell::RefCell;
    thread_local! {
        static SHARED: RefCell<SortedMap<Size, std::rc::Rc<[Design]>>> = RefCell::default();
    }
    SHARED.with(|cell| {
        cell.borrow_mut()
            .entry(size)
            .or_insert_with(|| catalogue_at(size).into())
            .clone()
    })
}

/// The design with this id, at the default size.
pub fn find(id: &str) -> Option<Design> {
    find_at(id, Size::default())
}

/// The design with this id, built for `size`.
pub fn find_at(id: &str, size: Size) -> Option<Design> {
    shared_at(size).iter().find(|d| d.id == id).cloned()
}

/// Java's `Long.MAX_VALUE - ts`, the reverse timestamp that makes the newest sort first.
pub(crate) fn reverse_ts(ts: u64) -> u64 {
    i64::MAX as u64 - ts
}

/// The first `n` hex digits of the MD5 of `text`: a fixed-length, evenly spread key part.
pub(crate) fn md5_hex(text: &str, n: usize) -> String {
    use md5::{Digest, Md5};
    let digest = Md5::digest(text.as_bytes());
    digest
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>()
        .chars()
        .take(n)
        .collect()
}

/// Epoch milliseconds of a UTC date and time.
pub(crate) fn epoch_ms(y: i64, m: i64, d: i64, hh: i64, mm: i64, ss: i64) -> u64 {
    let days = crate::kit::civil::days_from_civil(y, m as u32, d as u32);
    ((days * 86_400 + hh * 3600 + mm * 60 + ss) * 1000) as u64
}

/// A script being written: one command per line.
#[derive(Default)]
pub(crate) struct Script(pub String);

impl Script {
    pub fn line(&mut self, text: impl AsRef<str>) -> &mut Self {
        self.0.push_str(text.as_ref());
        self.0.push('\n');
        self
    }

    /// `put 'table', 'row', 'column', 'value'` with any bytes quoted right.
    pub fn put(&mut self, table: &str, row: &str, column: &str, value: &str) -> &mut Self {
        let line = format!(
            "put {}, {}, {}, {}",
            quote(table.as_bytes()),
            quote(row.as_bytes()),
            quote(column.as_bytes()),
            quote(value.as_bytes())
        );
        self.line(line)
    }

    /// A put with an explicit timestamp.
    pub fn put_at(
        &mut self,
        table: &str,
        row: &str,
        column: &str,
        value: &str,
        ts: u64,
    ) -> &mut Self {
        let line = format!(
            "put {}, {}, {}, {}, {ts}",
            quote(table.as_bytes()),
            quote(row.as_bytes()),
            quote(column.as_bytes()),
            quote(value.as_bytes())
        );
        self.line(line)
    }

    pub fn done(&mut self) -> String {
        std::mem::take(&mut self.0)
    }
}

/// A pattern, briefly.
pub(crate) fn pattern(
    name: &'static str,
    command: impl Into<String>,
    note: &'static str,
) -> Pattern {
    Pattern {
        name,
        command: command.into(),
        note,
        actions: 1,
        claims: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers() {
        assert_eq!(epoch_ms(1970, 1, 1, 0, 0, 0), 0);
        assert_eq!(epoch_ms(2022, 12, 1, 0, 0, 0), 1_669_852_800_000);
        assert_eq!(md5_hex("", 8), "d41d8cd9");
        assert_eq!(reverse_ts(1), 9_223_372_036_854_775_806);
    }
}
