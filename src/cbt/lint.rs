//! The timestamp lint: Bigtable counts microseconds, and a timestamp written as epoch
//! milliseconds of this era (between 10^12 and 10^13) reads as a moment in January 1970.

/// The warning for a timestamp that looks like epoch milliseconds, or `None`.
pub fn epoch_millis_warning(ts: u64) -> Option<String> {
    if (1_000_000_000_000..10_000_000_000_000).contains(&ts) {
        Some(format!(
            "rowkey: warning: timestamp {ts} looks like epoch milliseconds; Bigtable counts microseconds, so it reads as {} (write {} for that moment)",
            super::print::timestamp(&crate::kit::civil::Zone::Utc, ts),
            ts.saturating_mul(1_000)
        ))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_milliseconds_of_this_era() {
        assert!(epoch_millis_warning(1_700_000_000_000).is_some());
        assert!(epoch_millis_warning(1_700_000_000_000_000).is_none());
        assert!(epoch_millis_warning(1_000).is_none());
    }
}
