//! How much sample data a design loads. The generator is seeded, so one size always loads the
//! same rows, values and timestamps; a larger size draws more entities from the same world
//! (more users, more posts, more events) with the same skew, so the lesson's relations hold at
//! every size while the figures behind them grow.

/// A design's sample size. Medium is what a design loads unless the person picks another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Size {
    /// A quarter of the medium sample: quick to load, few regions.
    Small,
    #[default]
    Medium,
    /// Three times the medium sample: more regions, longer scans.
    Large,
}

impl Size {
    /// Every size, smallest first.
    pub const ALL: [Size; 3] = [Size::Small, Size::Medium, Size::Large];

    /// The name the page shows and the saved state keeps.
    pub fn label(self) -> &'static str {
        match self {
            Size::Small => "small",
            Size::Medium => "medium",
            Size::Large => "large",
        }
    }

    /// The size whose [`Size::label`] is `name`.
    pub fn named(name: &str) -> Option<Size> {
        Size::ALL.into_iter().find(|s| s.label() == name)
    }

    /// How many of something the sample holds at this size, given how many the medium sample
    /// holds: a quarter (at least one), as many, or three times as many.
    pub fn of(self, medium: u64) -> u64 {
        match self {
            Size::Small => (medium / 4).max(1),
            Size::Medium => medium,
            Size::Large => medium * 3,
        }
    }

    /// [`Size::of`] for counts kept as `usize`.
    pub fn of_usize(self, medium: usize) -> usize {
        self.of(medium as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_scale_the_medium_count() {
        assert_eq!(Size::Small.of(400), 100);
        assert_eq!(Size::Small.of(2), 1);
        assert_eq!(Size::default().of(400), 400);
        assert_eq!(Size::Large.of(400), 1200);
        assert_eq!(Size::named("large"), Some(Size::Large));
        assert_eq!(Size::named("Large"), None);
    }
}
