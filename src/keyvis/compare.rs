//! Two tables under traffic, hour by hour on one timeline, with the same figures side by side
//! and one sentence saying which holds up and by which figure.

use crate::designs::lesson::number;
use crate::simulate::{HourFigures, TableRun};

/// One hour of both sides.
#[derive(Clone, Debug, PartialEq)]
pub struct HourPair {
    pub hour: u64,
    pub a: Option<HourFigures>,
    pub b: Option<HourFigures>,
}

/// The hours of both, aligned by hour.
pub fn side_by_side(a: &TableRun, b: &TableRun) -> Vec<HourPair> {
    let hours = a.hours.len().max(b.hours.len());
    (0..hours)
        .map(|h| HourPair {
            hour: h as u64,
            a: a.hours.get(h).cloned(),
            b: b.hours.get(h).cloned(),
        })
        .collect()
}

/// The mean of a share over the hours that had any (`None`: none had).
fn mean(run: &TableRun, share: impl Fn(&HourFigures) -> Option<f64>) -> Option<f64> {
    let shares: Vec<f64> = run.hours.iter().filter_map(share).collect();
    (!shares.is_empty()).then(|| shares.iter().sum::<f64>() / shares.len() as f64)
}

/// How an hour's operations are attributed to regions and servers in the compare table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Attribution {
    /// By key, to the regions of the hour's end (the report's `busiest_*_share`).
    #[default]
    ByKey,
    /// To the region that took each operation when it was played, step by step (the report's
    /// `busiest_*_share_live`): a split inside the hour does not move its early operations.
    Live,
}

/// A share an hour's figures hold.
pub type Share = fn(&HourFigures) -> Option<f64>;

impl Attribution {
    /// Both, in the order the page offers them.
    pub const ALL: [Attribution; 2] = [Attribution::ByKey, Attribution::Live];

    /// How the page names it.
    pub fn label(self) -> &'static str {
        match self {
            Attribution::ByKey => "by key, at the hour's end",
            Attribution::Live => "live, as each step was played",
        }
    }

    /// The busiest server's and region's shares of writes and of reads under this attribution,
    /// each with its heading.
    pub fn shares(self) -> [(&'static str, Share); 4] {
        match self {
            Attribution::ByKey => [
                ("busiest server's writes", |h| h.busiest_server_write_share),
                ("busiest server's reads", |h| h.busiest_server_read_share),
                ("busiest region's writes", |h| h.busiest_region_write_share),
                ("busiest region's reads", |h| h.busiest_region_read_share),
            ],
            Attribution::Live => [
                ("busiest server's writes", |h| {
                    h.busiest_server_write_share_live
                }),
                ("busiest server's reads", |h| {
                    h.busiest_server_read_share_live
                }),
                ("busiest region's writes", |h| {
                    h.busiest_region_write_share_live
                }),
                ("busiest region's reads", |h| {
                    h.busiest_region_read_share_live
                }),
            ],
        }
    }
}

/// A share as the page prints it: `36.9 %`.
pub fn percent(v: f64) -> String {
    format!("{} %", number((v * 1000.0).round() / 10.0))
}

/// One sentence: which side holds up, by the busiest region server's share of an hour's
/// writes, on average over the hours (then of reads when the writes are even within one
/// point), naming both figures.
pub fn verdict(a_label: &str, a: &TableRun, b_label: &str, b: &TableRun) -> String {
    let figures: [(&str, Share); 2] = [
        ("writes", |h| h.busiest_server_write_share),
        ("reads", |h| h.busiest_server_read_share),
    ];
    for (kind, share) in figures {
        let (Some(wa), Some(wb)) = (mean(a, share), mean(b, share)) else {
            continue;
        };
        if (wa - wb).abs() < 0.01 {
            continue;
        }
        let (good, good_v, bad, bad_v) = if wa < wb {
            (a_label, wa, b_label, wb)
        } else {
            (b_label, wb, a_label, wa)
        };
        return format!(
            "{good} holds up better: its busiest region server took {} of an hour's {kind} on average, {bad}'s {}.",
            percent(good_v),
            percent(bad_v)
        );
    }
    format!(
        "{a_label} and {b_label} hold up alike: their busiest region servers' average hourly shares of writes and reads are within one point of each other."
    )
}
