//! A guided tour of a design: a few steps, each a command, the view that answers it and the
//! number it shows. The first step counts the design's tables as loaded (the whole keyspace,
//! read once); the others are every access pattern of the design, in their order, each shown
//! in the view its lesson is read from: a lesson told by two sides (reversing keeps one range,
//! and loses another) needs both steps. A step's numbers are the same [`Claim`]s the
//! design card checks, measured the same way ([`lesson::run_measured`]).

use super::lesson::{self, scanned_is_returned, Claim, Measure, PatternRun};
use super::Design;
use crate::shell::{quote, Shell};
use std::fmt::Write as _;

/// Most steps a tour has: the opening count and the access patterns of the design with most
/// of them (org.departments' six).
pub const MAX_STEPS: usize = 7;

/// The views of the explorer a step points at, in the order of the views pane's tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Keyspace,
    Hotspots,
    RegionsAndRead,
    Lsm,
    Versions,
}

impl View {
    /// The position of the view's tab in the views pane.
    pub fn tab(self) -> usize {
        match self {
            View::Keyspace => 0,
            View::Hotspots => 1,
            View::RegionsAndRead => 2,
            View::Lsm => 3,
            View::Versions => 4,
        }
    }

    /// The tab's label.
    pub fn label(self) -> &'static str {
        match self {
            View::Keyspace => "Keyspace",
            View::Hotspots => "Hotspots",
            View::RegionsAndRead => "Regions & read",
            View::Lsm => "LSM",
            View::Versions => "Versions",
        }
    }

    /// What to look at in the view.
    pub fn hint(self) -> &'static str {
        match self {
            View::Keyspace => "The Keyspace view lists the rows in stored order; its strip shows the regions and marks the rows just written and the range just read.",
            View::Hotspots => "The Hotspots view shows where in the key order the writes went and how the regions shared them.",
            View::RegionsAndRead => "Regions & read shows the regions the read touched, and how many rows it examined against how many it returned.",
            View::Lsm => "The LSM view shows the runs each family flushed, with their sizes.",
            View::Versions => "The Versions view shows every version the row stores, newest first.",
        }
    }

    /// The view a pattern's lesson is read from: write spread in Hotspots, flushes in the LSM,
    /// version stacks in Versions, other writes in the Keyspace, reads in Regions & read.
    pub fn for_pattern(command: &str, claims: &[Claim]) -> View {
        let on = |ms: &[Measure]| claims.iter().any(|c| ms.contains(&c.measure));
        if on(&[Measure::BusiestWriteShare]) {
            View::Hotspots
        } else if on(&[
            Measure::RunsFlushed,
            Measure::BytesPerRun,
            Measure::FamiliesFlushed,
            Measure::SmallestFamilyRuns,
        ]) {
            View::Lsm
        } else if command.contains("VERSIONS =>") {
            View::Versions
        } else if on(&[
            Measure::RowsWritten,
            Measure::RowsPerAction,
            Measure::BytesPerRecord,
        ]) {
            View::Keyspace
        } else {
            View::RegionsAndRead
        }
    }
}

/// One step of a tour.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub title: String,
    /// What the step does and what to look at.
    pub text: String,
    pub command: String,
    /// Logical actions the command performs.
    pub actions: u64,
    /// The number the step shows, as relations that must hold.
    pub claims: Vec<Claim>,
    pub view: View,
    /// The access pattern the step runs, if it is one.
    pub pattern: Option<usize>,
}

/// Lines of a step's command a preview shows before the rest is summed up.
const PREVIEW_LINES: usize = 3;

impl Step {
    /// The command's first lines, and how many more it has.
    pub fn preview(&self) -> String {
        let lines: Vec<&str> = self.command.lines().collect();
        let mut shown = lines[..lines.len().min(PREVIEW_LINES)].join("\n");
        if lines.len() > PREVIEW_LINES {
            let _ = write!(shown, "\n… {} more lines", lines.len() - PREVIEW_LINES);
        }
        shown
    }

    /// Runs the step on a shell holding the design's tables and measures it.
    pub fn run(&self, shell: &mut Shell, tables: &[&str]) -> Result<PatternRun, String> {
        let (measures, outcomes) =
            lesson::run_measured(shell, tables, &self.command, self.actions)?;
        let checks = self
            .claims
            .iter()
            .map(|c| (*c, c.holds(&measures)))
            .collect();
        Ok(PatternRun {
            measures,
            checks,
            outcomes,
        })
    }
}

/// The tour of a design: the tables counted, then every access pattern.
pub fn tour(design: &Design) -> Vec<Step> {
    let counts: Vec<String> = design
        .tables
        .iter()
        .map(|t| format!("count {}", quote(t.as_bytes())))
        .collect();
    let tables = if design.tables.len() == 1 {
        "the table"
    } else {
        "each table"
    };
    let mut steps = vec![Step {
        title: "The tables as loaded".into(),
        text: format!(
            "A count reads {tables} from end to end: every row examined is returned. {}",
            View::Keyspace.hint()
        ),
        command: counts.join("\n"),
        actions: 1,
        claims: vec![scanned_is_returned()],
        view: View::Keyspace,
        pattern: None,
    }];
    for (i, p) in design.patterns.iter().enumerate() {
        let view = View::for_pattern(&p.command, &p.claims);
        steps.push(Step {
            title: p.name.to_string(),
            text: format!("{} {}", p.note, view.hint()),
            command: p.command.clone(),
            actions: p.actions,
            claims: p.claims.clone(),
            view,
            pattern: Some(i),
        });
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tour_has_three_to_seven_steps_each_with_a_number() {
        for d in super::super::catalogue() {
            let t = tour(&d);
            assert!((3..=MAX_STEPS).contains(&t.len()), "{}: {}", d.id, t.len());
            assert!(t.iter().all(|s| !s.claims.is_empty()), "{}", d.id);
        }
    }

    #[test]
    fn a_long_command_is_previewed_by_its_first_lines() {
        let step = |command: &str| Step {
            title: String::new(),
            text: String::new(),
            command: command.into(),
            actions: 1,
            claims: Vec::new(),
            view: View::Keyspace,
            pattern: None,
        };
        assert_eq!(step("a\nb").preview(), "a\nb");
        assert_eq!(step("1\n2\n3\n4\n5").preview(), "1\n2\n3\n… 2 more lines");
    }

    #[test]
    fn a_write_spread_is_read_in_hotspots_and_flushes_in_the_lsm() {
        let share = lesson::on(Measure::BusiestWriteShare).gt(90.0);
        let runs = lesson::on(Measure::RunsFlushed).gt(1.0);
        assert_eq!(View::for_pattern("put", &[share]), View::Hotspots);
        assert_eq!(View::for_pattern("put", &[runs]), View::Lsm);
        assert_eq!(
            View::for_pattern("get 't', 'r', {VERSIONS => 3}", &[scanned_is_returned()]),
            View::Versions
        );
        assert_eq!(
            View::for_pattern("scan 't'", &[scanned_is_returned()]),
            View::RegionsAndRead
        );
    }
}
