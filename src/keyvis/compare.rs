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

fn percent(v: f64) -> String {
    format!("{} %", number((v * 1000.0).round() / 10.0))
}

/// One sentence: which side holds up, by the busiest region server's share of an hour's
/// writes, on average over the hours (then of reads when the writes are even within one
/// point), naming both figures.
pub fn verdict(a_label: &str, a: &TableRun, b_label: &str, b: &TableRun) -> String {
    type Share = fn(&HourFigures) -> Option<f64>;
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
