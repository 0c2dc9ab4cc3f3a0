//! Bigtable garbage-collection policies as cbt reads and prints them: `never`,
//! `maxversions=N`, `maxage=D` (units ms, s, m, h, d), joined by `and`/`&&` (intersection) or
//! `or`/`||` (union), left to right, with parentheses.
//!
//! A policy becomes the family's retention in the engine, which Bigtable tables apply only when
//! a compaction runs (<https://cloud.google.com/bigtable/docs/garbage-collection>): a union of
//! `maxversions=N` and `maxage=D` keeps at most N versions younger than D (VERSIONS and TTL),
//! an intersection drops a cell only when it is both beyond the N newest and older than D
//! (TTL with MIN_VERSIONS N).

use std::fmt;

use crate::engine::FamilyDescriptor;

/// A garbage-collection policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GcPolicy {
    /// Keep every version (no policy).
    Never,
    /// Keep the N newest versions of each column.
    MaxVersions(u64),
    /// Keep cells younger than this many whole seconds (Bigtable's admin API carries the age as
    /// a protobuf Duration; cbt and the emulator keep whole seconds of it).
    MaxAge { seconds: u64 },
    /// A cell goes when either side would collect it.
    Union(Box<GcPolicy>, Box<GcPolicy>),
    /// A cell goes only when both sides would collect it.
    Intersection(Box<GcPolicy>, Box<GcPolicy>),
}

/// Why a policy does not parse, in cbt's words (without the `invalid GC policy: ` prefix).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyError(pub String);

impl GcPolicy {
    /// Parses cbt's policy syntax (the arguments joined by spaces).
    pub fn parse(text: &str) -> Result<GcPolicy, PolicyError> {
        if text.trim() == "never" {
            return Ok(GcPolicy::Never);
        }
        let mut p = Parser {
            chars: text.chars().collect(),
            at: 0,
            pending: None,
            open: 0,
        };
        let (policy, _) = p.expr()?;
        let tok = p.token()?;
        if !tok.is_empty() {
            return Err(PolicyError(format!(
                "want end of input, got {}",
                go_quote(&tok)
            )));
        }
        Ok(policy)
    }

    /// The policy as `cbt ls TABLE` shows it; empty for `never`.
    pub fn display(&self) -> String {
        match self {
            GcPolicy::Never => String::new(),
            GcPolicy::MaxVersions(n) => format!("versions() > {n}"),
            GcPolicy::MaxAge { seconds } => format!("age() > {}", age(*seconds)),
            GcPolicy::Union(a, b) => format!("({} || {})", a.display(), b.display()),
            GcPolicy::Intersection(a, b) => format!("({} && {})", a.display(), b.display()),
        }
    }

    /// The policy in cbt's own syntax, which [`GcPolicy::parse`] reads back (`never`,
    /// `maxversions=2`, `(maxage=1d || maxversions=3) && maxversions=5`).
    /// The policy that collects what an HBase family's retention drops: versions past
    /// `VERSIONS`, and cells older than `TTL` beyond the `MIN_VERSIONS` newest (HBase keeps those
    /// however old). The inverse of [`GcPolicy::apply_to`] for the policies it writes; a
    /// `VERSIONS` past 65,535 (cbt's largest `maxversions`) keeps every version.
    pub fn of_family(family: &FamilyDescriptor) -> GcPolicy {
        // cbt reads `maxversions=` as a 16-bit number; more versions than that is every one.
        let versions = (family.max_versions <= u32::from(u16::MAX))
            .then(|| GcPolicy::MaxVersions(u64::from(family.max_versions)));
        let age = family.ttl_seconds.map(|seconds| {
            let age = GcPolicy::MaxAge { seconds };
            match family.min_versions {
                0 => age,
                n => GcPolicy::Intersection(
                    Box::new(age),
                    Box::new(GcPolicy::MaxVersions(u64::from(n))),
                ),
            }
        });
        match (versions, age) {
            (Some(v), Some(a)) => GcPolicy::Union(Box::new(v), Box::new(a)),
            (Some(p), None) | (None, Some(p)) => p,
            (None, None) => GcPolicy::Never,
        }
    }

    pub fn to_cbt(&self) -> String {
        match self {
            GcPolicy::Never => "never".into(),
            GcPolicy::MaxVersions(n) => format!("maxversions={n}"),
            GcPolicy::MaxAge { seconds } => {
                let s = *seconds;
                if s > 0 && s.is_multiple_of(86_400) {
                    format!("maxage={}d", s / 86_400)
                } else if s > 0 && s.is_multiple_of(3_600) {
                    format!("maxage={}h", s / 3_600)
                } else if s > 0 && s.is_multiple_of(60) {
                    format!("maxage={}m", s / 60)
                } else {
                    format!("maxage={s}s")
                }
            }
            GcPolicy::Union(a, b) => format!("{} || {}", a.operand(), b.operand()),
            GcPolicy::Intersection(a, b) => format!("{} && {}", a.operand(), b.operand()),
        }
    }

    fn operand(&self) -> String {
        match self {
            GcPolicy::Union(..) | GcPolicy::Intersection(..) => format!("({})", self.to_cbt()),
            _ => self.to_cbt(),
        }
    }

    /// The family's retention for this policy (see the module documentation).
    pub fn apply_to(&self, family: &mut FamilyDescriptor) {
        let (versions, age, min_versions) = self.retention();
        family.max_versions = versions.map_or(u32::MAX, |v| v.min(u32::MAX as u64) as u32);
        family.ttl_seconds = age;
        family.min_versions = min_versions.map_or(0, |v| v.min(u32::MAX as u64) as u32);
    }

    /// `(max versions, max age in seconds, versions kept past the age)`.
    fn retention(&self) -> (Option<u64>, Option<u64>, Option<u64>) {
        match self {
            GcPolicy::Never => (None, None, None),
            GcPolicy::MaxVersions(n) => (Some(*n), None, None),
            GcPolicy::MaxAge { seconds } => (None, Some(*seconds), None),
            GcPolicy::Union(a, b) => {
                let (av, aa, am) = a.retention();
                let (bv, ba, bm) = b.retention();
                (min(av, bv), min(aa, ba), min(am, bm))
            }
            GcPolicy::Intersection(a, b) => {
                let (av, aa, am) = a.retention();
                let (bv, ba, bm) = b.retention();
                match (av.or(am), aa, bv.or(bm), ba) {
                    // One side counts versions, the other age: age with a floor of versions.
                    (Some(v), None, None, Some(s)) | (None, Some(s), Some(v), None) => {
                        (None, Some(s), Some(v))
                    }
                    _ => (max(av, bv), max(aa, ba), max(am, bm)),
                }
            }
        }
    }
}

fn min(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, y) => x.or(y),
    }
}

fn max(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        _ => None,
    }
}

/// An age as the Bigtable client prints it: whole days, hours or minutes with their unit,
/// anything else as a count of microseconds.
fn age(seconds: u64) -> String {
    if seconds.is_multiple_of(86_400) {
        format!("{}d", seconds / 86_400)
    } else if seconds.is_multiple_of(3_600) {
        format!("{}h", seconds / 3_600)
    } else if seconds.is_multiple_of(60) {
        format!("{}m", seconds / 60)
    } else {
        format!("{}", seconds.saturating_mul(1_000_000))
    }
}

impl fmt::Display for GcPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display())
    }
}

/// Go's `%q` of a short ASCII token (cbt's error texts quote tokens that way).
fn go_quote(text: &str) -> String {
    super::print::go_quote(text.as_bytes())
}

/// The most levels a policy may nest: parentheses inside parentheses, or terms joined one
/// after another (each join is a level of the tree). cbt takes any depth; Rowkey reads and
/// prints a policy by recursion, which a page's stack must hold.
const MAX_DEPTH: usize = 64;

fn too_deep() -> PolicyError {
    PolicyError(format!(
        "nested deeper than {MAX_DEPTH} levels (Rowkey's limit: parentheses within parentheses, \
         or terms joined by and/or, each count as one)"
    ))
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    pending: Option<String>,
    /// Parentheses open around the term being read.
    open: usize,
}

impl Parser {
    /// A policy and how many levels its tree has.
    fn expr(&mut self) -> Result<(GcPolicy, usize), PolicyError> {
        let (mut policy, mut depth) = self.term()?;
        loop {
            let tok = self.token()?;
            let union = match tok.as_str() {
                "and" | "&&" => false,
                "or" | "||" => true,
                _ => {
                    self.pending = Some(tok);
                    return Ok((policy, depth));
                }
            };
            let (next, next_depth) = self.term()?;
            depth = depth.max(next_depth) + 1;
            if depth > MAX_DEPTH {
                return Err(too_deep());
            }
            policy = if union {
                GcPolicy::Union(Box::new(policy), Box::new(next))
            } else {
                GcPolicy::Intersection(Box::new(policy), Box::new(next))
            };
        }
    }

    fn term(&mut self) -> Result<(GcPolicy, usize), PolicyError> {
        let tok = self.token()?;
        match tok.as_str() {
            "" => Err(PolicyError("empty GC policy term".into())),
            "maxage" | "maxversions" => {
                let eq = self.token()?;
                if eq != "=" {
                    return Err(PolicyError(format!(
                        "expected \"=\", saw {}",
                        go_quote(&eq)
                    )));
                }
                let value = self.token()?;
                if value.is_empty() {
                    return Err(PolicyError("expected a token after '='".into()));
                }
                let policy = if tok == "maxage" {
                    GcPolicy::MaxAge {
                        seconds: parse_duration(&value)? / 1_000,
                    }
                } else {
                    parse_uint(&value, 16).map(GcPolicy::MaxVersions)?
                };
                Ok((policy, 1))
            }
            "(" => {
                self.open += 1;
                if self.open > MAX_DEPTH {
                    return Err(too_deep());
                }
                let p = self.expr()?;
                self.open -= 1;
                let close = self.token()?;
                if close != ")" {
                    return Err(PolicyError(format!(
                        "expected \")\", saw {}",
                        go_quote(&close)
                    )));
                }
                Ok(p)
            }
            other => Err(PolicyError(format!(
                "unexpected token: {}",
                go_quote(other)
            ))),
        }
    }

    fn token(&mut self) -> Result<String, PolicyError> {
        if let Some(t) = self.pending.take() {
            return Ok(t);
        }
        while self.chars.get(self.at).is_some_and(|c| c.is_whitespace()) {
            self.at += 1;
        }
        let Some(&c) = self.chars.get(self.at) else {
            return Ok(String::new());
        };
        self.at += 1;
        match c {
            '=' | '(' | ')' => Ok(c.to_string()),
            '&' | '|' => {
                let c2 = self.chars.get(self.at).copied();
                self.at += 1;
                if c2 != Some(c) {
                    return Err(PolicyError(format!("expected {c}{c}")));
                }
                Ok(format!("{c}{c}"))
            }
            c if c.is_alphanumeric() => {
                let mut s = c.to_string();
                while let Some(&n) = self.chars.get(self.at) {
                    if !n.is_alphanumeric() {
                        break;
                    }
                    s.push(n);
                    self.at += 1;
                }
                Ok(s)
            }
            other => Err(PolicyError(format!(
                "bad rune {}",
                super::print::go_quote_rune(other)
            ))),
        }
    }
}

/// cbt's duration syntax (`[0-9]+(ms|s|m|h|d)`), in milliseconds.
pub fn parse_duration(s: &str) -> Result<u64, PolicyError> {
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (digits, unit) = s.split_at(split);
    let q = go_quote(s);
    if digits.is_empty() || unit.is_empty() {
        return Err(PolicyError(format!("invalid duration {q}")));
    }
    let n = parse_uint(digits, 32)
        .map_err(|e| PolicyError(format!("invalid duration {q}: {}", e.0)))?;
    let per = match unit {
        "ms" => 1,
        "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        other => {
            return Err(PolicyError(format!(
                "unknown unit {} in duration {q}",
                go_quote(other)
            )))
        }
    };
    Ok(n * per)
}

/// Go's `strconv.ParseUint(s, 10, bits)` with its error text.
fn parse_uint(s: &str, bits: u32) -> Result<u64, PolicyError> {
    let q = go_quote(s);
    if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
        return Err(PolicyError(format!(
            "strconv.ParseUint: parsing {q}: invalid syntax"
        )));
    }
    match s.parse::<u64>() {
        Ok(n) if bits >= 64 || n < (1u64 << bits) => Ok(n),
        _ => Err(PolicyError(format!(
            "strconv.ParseUint: parsing {q}: value out of range"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// cbt (Go, whose stacks grow) takes any depth; Rowkey's recursive reading would
    /// overflow a page's stack on thousands of levels, so it refuses past 64 of either kind.
    #[test]
    fn a_policy_nested_past_the_limit_is_refused_not_a_stack_overflow() {
        let parens = |n: usize| format!("{}maxversions=1{}", "(".repeat(n), ")".repeat(n));
        let chain = |n: usize| vec!["maxversions=1"; n].join(" or ");
        assert_eq!(GcPolicy::parse(&parens(64)), Ok(GcPolicy::MaxVersions(1)));
        assert!(GcPolicy::parse(&chain(64)).is_ok());
        for text in [parens(65), parens(30_000), chain(66), chain(30_000)] {
            let e = GcPolicy::parse(&text).map(|_| ()).unwrap_err();
            assert!(e.0.starts_with("nested deeper than 64 levels"), "{}", e.0);
        }
    }

    #[test]
    fn parses_and_prints_as_cbt() -> Result<(), PolicyError> {
        let p = GcPolicy::parse("(maxage=1d || maxversions=3) && maxversions=5")?;
        assert_eq!(
            p.display(),
            "((age() > 1d || versions() > 3) && versions() > 5)"
        );
        assert_eq!(
            GcPolicy::parse("maxversions=1 or maxage=30s")?.display(),
            "(versions() > 1 || age() > 30000000)"
        );
        assert_eq!(GcPolicy::parse("maxage=48h")?.display(), "age() > 2d");
        assert_eq!(
            GcPolicy::parse("foo"),
            Err(PolicyError("unexpected token: \"foo\"".into()))
        );
        for text in [
            "maxversions=2",
            "(maxage=1d || maxversions=3) && maxversions=5",
            "maxage=90s",
        ] {
            let p = GcPolicy::parse(text)?;
            assert_eq!(GcPolicy::parse(&p.to_cbt())?, p);
        }
        Ok(())
    }

    #[test]
    fn intersection_is_age_with_a_floor_of_versions() -> Result<(), PolicyError> {
        let mut f = FamilyDescriptor::new("cf");
        GcPolicy::parse("maxage=1d and maxversions=2")?.apply_to(&mut f);
        assert_eq!(
            (f.max_versions, f.ttl_seconds, f.min_versions),
            (u32::MAX, Some(86_400), 2)
        );
        GcPolicy::parse("maxage=1d or maxversions=2")?.apply_to(&mut f);
        assert_eq!(
            (f.max_versions, f.ttl_seconds, f.min_versions),
            (2, Some(86_400), 0)
        );
        Ok(())
    }
}
