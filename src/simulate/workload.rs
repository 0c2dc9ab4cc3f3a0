//! The workload document: what a simulation is given. A versioned JSON document (`"version": 1`)
//! with a seed, the cluster, and per table its families, its key template and its operations
//! with their rates. [`Workload::from_json`] reads it and checks it; every error names the JSON
//! path of what is wrong (`$.tables[0].key[2].kind`).
//!
//! Sizes are `u64` throughout: 10 GB does not fit a WebAssembly `usize`.

use crate::json;

use super::SimulateError;

mod document;

/// The only workload version this build reads.
pub const WORKLOAD_VERSION: u32 = 1;
/// HBase's default `hbase.hregion.memstore.flush.size`: 128 MB.
pub const DEFAULT_FLUSH_SIZE: u64 = 128 * 1024 * 1024;
/// HBase's default `hbase.hregion.max.filesize` (`MAX_FILESIZE`): 10 GB.
pub const DEFAULT_MAX_FILESIZE: u64 = 10 * 1024 * 1024 * 1024;
/// HBase's default `hbase.hregion.max.filesize.jitter`: 0.25.
pub const DEFAULT_JITTER: f64 = 0.25;
/// HBase's default `hbase.balancer.period`: 300,000 ms.
pub const DEFAULT_BALANCER_PERIOD_MS: u64 = 300_000;
/// The simulated clock's default start (epoch ms): 2024-01-01T00:00:00Z.
pub const DEFAULT_START_MS: u64 = 1_704_067_200_000;
/// The most key ranges a heat grid has.
pub const MAX_RANGES: usize = 1_000;
/// The longest traffic a workload plays out: a month (31 days, 744 hours).
pub const MAX_DURATION_MS: u64 = 31 * 24 * 3_600_000;

/// A workload: the traffic one or more tables get on one cluster for a stretch of simulated
/// time.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    /// Always 1.
    pub version: u32,
    /// Seeds every random draw: the same workload and seed give the same simulation, byte for
    /// byte.
    pub seed: u64,
    /// Simulated time, in milliseconds (minutes to days).
    pub duration_ms: u64,
    /// The simulated clock at the start (epoch ms), which timestamp fields read.
    pub start_ms: u64,
    /// The length of one step of simulated time (one column of the heat grid). Default: the
    /// duration / 1,440, at least one second (one minute for a day).
    pub step_ms: Option<u64>,
    /// Weighted samples drawn per operation per step (default 64): the simulation's work grows
    /// with these, not with the operations.
    pub samples_per_step: Option<u32>,
    pub cluster: Cluster,
    pub tables: Vec<TableLoad>,
}

/// The cluster the tables live on.
#[derive(Clone, Debug, PartialEq)]
pub struct Cluster {
    /// How many region servers.
    pub region_servers: u32,
    /// `MAX_FILESIZE` in bytes (default 10 GB).
    pub max_filesize: u64,
    /// The memstore flush size in bytes (default 128 MB).
    pub flush_size: u64,
    /// The split policy (default `stepping`, HBase 2.x's).
    pub split_policy: SplitPolicyKind,
    /// `hbase.hregion.max.filesize.jitter` (default 0.25).
    pub jitter: f64,
    /// `hbase.balancer.period` in ms (default 300,000).
    pub balancer_period_ms: u64,
    /// Reads (gets, scanned rows) one region server serves per second: the read pressure's
    /// denominator.
    pub server_reads_per_sec: f64,
    /// Writes (puts, deletes) one region server takes per second: the write pressure's
    /// denominator.
    pub server_writes_per_sec: f64,
}

/// HBase 2.x's split policies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SplitPolicyKind {
    /// `SteppingSplitPolicy`, HBase 2.x's default: split above 2 × flush size while the table
    /// has one region on the server, else above `MAX_FILESIZE` (with jitter).
    #[default]
    Stepping,
    /// `IncreasingToUpperBoundRegionSplitPolicy`: above min(`MAX_FILESIZE`,
    /// 2 × flush size × n³), n the table's regions on the server.
    IncreasingToUpperBound,
    /// `ConstantSizeRegionSplitPolicy`: above `MAX_FILESIZE` with jitter.
    ConstantSize,
    /// `KeyPrefixRegionSplitPolicy`: as `IncreasingToUpperBound`, the split key cut to its
    /// first `prefix_length` bytes.
    KeyPrefix {
        /// `KeyPrefixRegionSplitPolicy.prefix_length`.
        prefix_length: u32,
    },
    /// `DisabledRegionSplitPolicy`: never split.
    None,
}

/// One table: its families, its key and its traffic.
#[derive(Clone, Debug, PartialEq)]
pub struct TableLoad {
    pub name: String,
    pub families: Vec<FamilyLoad>,
    /// The row key, field after field.
    pub key: Vec<KeyField>,
    /// Whether every new row must get a key of its own (checked: a template whose keys
    /// collide is an error).
    pub unique: bool,
    /// Split keys the table is created with (as `Bytes.toBytesBinary` reads them: `\xHH`).
    pub pre_split: Vec<String>,
    /// Rows the table holds before the simulation starts (made by `put_new` at the start).
    pub initial_rows: u64,
    pub operations: Vec<Operation>,
}

/// A column family and the columns a write puts in it.
#[derive(Clone, Debug, PartialEq)]
pub struct FamilyLoad {
    pub name: String,
    pub columns: Vec<ColumnLoad>,
}

/// A column and the size of its value.
#[derive(Clone, Debug, PartialEq)]
pub struct ColumnLoad {
    pub qualifier: String,
    /// Bytes of value per write.
    pub value_size: u64,
    /// Each write adds a new qualifier (`friend:<id>`), so the row widens at every update,
    /// rather than overwriting one cell.
    pub dynamic: bool,
}

/// One field of the key template. Every kind may carry a `name` that `md5` and `salt` fields
/// refer to.
#[derive(Clone, Debug, PartialEq)]
pub enum KeyField {
    /// Fixed text (separators too); `\xHH` escapes a byte.
    Constant { name: String, text: String },
    /// The row's number: `start`, `start + 1`, … in order of creation.
    Sequence {
        name: String,
        start: u64,
        format: NumberFormat,
    },
    /// An entity id in `0..count`, drawn from `distribution` (an entity has many rows).
    Entity {
        name: String,
        count: u64,
        distribution: Distribution,
        format: NumberFormat,
    },
    /// The simulated clock when the row is made.
    Timestamp {
        name: String,
        encoding: TimeEncoding,
    },
    /// The first `digits` hex digits of the MD5 of field `of`'s bytes (`of` names a field that
    /// is not an md5 or a salt, before or after this one).
    Md5 {
        name: String,
        of: String,
        digits: u32,
    },
    /// A salt bucket in `0..buckets`: a hash of field `of` mod `buckets`, or random when `of`
    /// is absent; written as a zero-padded decimal as wide as `buckets - 1`.
    Salt {
        name: String,
        buckets: u64,
        of: Option<String>,
    },
    /// One of `options`, drawn by weight.
    Choice {
        name: String,
        options: Vec<Weighted>,
    },
}

impl KeyField {
    /// The field's name (empty when it has none).
    pub fn name(&self) -> &str {
        match self {
            KeyField::Constant { name, .. }
            | KeyField::Sequence { name, .. }
            | KeyField::Entity { name, .. }
            | KeyField::Timestamp { name, .. }
            | KeyField::Md5 { name, .. }
            | KeyField::Salt { name, .. }
            | KeyField::Choice { name, .. } => name,
        }
    }

    /// Whether the field is different for every row (a sequence or a timestamp).
    pub fn is_per_row(&self) -> bool {
        matches!(self, KeyField::Sequence { .. } | KeyField::Timestamp { .. })
    }
}

/// A choice's option.
#[derive(Clone, Debug, PartialEq)]
pub struct Weighted {
    pub text: String,
    pub weight: f64,
}

/// How a number is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NumberFormat {
    pub base: Base,
    /// Zero-padded to this many digits (0: as many as it takes).
    pub width: u32,
    /// The digits written last first (`100123` → `321001`).
    pub reverse: bool,
}

/// Decimal or hexadecimal (lower case).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Base {
    #[default]
    Decimal,
    Hex,
}

/// How an entity id is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Distribution {
    /// Every entity alike.
    #[default]
    Uniform,
    /// Entity `i` (0-based) with probability ∝ 1 / (i + 1)^s: entity 0 the busiest.
    Zipf { s: f64 },
    /// The newest entity (`count - 1`) likeliest: entity `count - 1 - a` with probability
    /// ∝ decay^a, `decay` in (0, 1).
    Recent { decay: f64 },
}

/// How a timestamp is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeEncoding {
    /// Epoch ms as 13 decimal digits.
    #[default]
    Millis,
    /// Epoch ms as 8 big-endian bytes.
    MillisBytes,
    /// `Long.MAX_VALUE - ms` as 19 decimal digits: newest first.
    ReverseDecimal,
    /// `Long.MAX_VALUE - ms` as 8 big-endian bytes.
    ReverseBytes,
}

/// One kind of traffic on a table, with its rate and its choice of rows. Every kind carries a
/// `name` (a label for the reports) and a `rate`.
#[derive(Clone, Debug, PartialEq)]
pub enum Operation {
    /// Put a new row (the next sequence number, fresh draws for every field).
    PutNew { name: String, rate: Rate },
    /// Put the columns of an existing row again.
    Update {
        name: String,
        rate: Rate,
        choose: Choose,
    },
    /// Get one existing row.
    Get {
        name: String,
        rate: Rate,
        choose: Choose,
    },
    /// Scan the rows that share the chosen row's first `fields` key fields, at most `limit`.
    PrefixScan {
        name: String,
        rate: Rate,
        choose: Choose,
        fields: u32,
        limit: u64,
    },
    /// Scan the rows under the chosen row's first `fields` key fields made in the last
    /// `window_ms`, at most `limit`. When a timestamp field comes right after the prefix the
    /// scan reads only the window's rows; otherwise it reads every row under the prefix and
    /// filters.
    WindowScan {
        name: String,
        rate: Rate,
        choose: Choose,
        fields: u32,
        window_ms: u64,
        limit: u64,
    },
    /// Delete an existing row.
    Delete {
        name: String,
        rate: Rate,
        choose: Choose,
    },
}

impl Operation {
    /// The label: the name, or the kind when it has none.
    pub fn label(&self) -> String {
        let (name, kind) = match self {
            Operation::PutNew { name, .. } => (name, "put_new"),
            Operation::Update { name, .. } => (name, "update"),
            Operation::Get { name, .. } => (name, "get"),
            Operation::PrefixScan { name, .. } => (name, "prefix_scan"),
            Operation::WindowScan { name, .. } => (name, "window_scan"),
            Operation::Delete { name, .. } => (name, "delete"),
        };
        if name.is_empty() {
            kind.to_string()
        } else {
            name.clone()
        }
    }

    /// The rate.
    pub fn rate(&self) -> Rate {
        match self {
            Operation::PutNew { rate, .. }
            | Operation::Update { rate, .. }
            | Operation::Get { rate, .. }
            | Operation::PrefixScan { rate, .. }
            | Operation::WindowScan { rate, .. }
            | Operation::Delete { rate, .. } => *rate,
        }
    }

    /// The choice of existing rows (none for `put_new`).
    pub fn choose(&self) -> Option<Choose> {
        match self {
            Operation::PutNew { .. } => None,
            Operation::Update { choose, .. }
            | Operation::Get { choose, .. }
            | Operation::PrefixScan { choose, .. }
            | Operation::WindowScan { choose, .. }
            | Operation::Delete { choose, .. } => Some(*choose),
        }
    }

    /// Whether it writes (a put or a delete).
    pub fn writes(&self) -> bool {
        matches!(
            self,
            Operation::PutNew { .. } | Operation::Update { .. } | Operation::Delete { .. }
        )
    }
}

/// Which existing row an operation picks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Choose {
    /// Any row made so far, alike.
    Uniform,
    /// A row made in the last `ms`, alike.
    WithinMs { ms: u64 },
    /// A row of age a with probability ∝ 2^(-a / half_life_ms).
    Recent { half_life_ms: u64 },
    /// The key a new row would get now (the entity drawn by its distribution, the clock now):
    /// "the latest of a popular sensor".
    Fresh,
}

/// Operations per second over simulated time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// Operations per second at the curve's factor 1.
    pub per_sec: f64,
    pub curve: Curve,
}

/// The factor a rate is multiplied by at simulated time t (ms from the start).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Curve {
    /// 1 all the time.
    #[default]
    Constant,
    /// A daily cycle: 1 at `peak_hour` (hour of the simulated day, 0–23, counted from the
    /// start), `trough` (0–1) twelve hours away, a cosine between.
    Daily { peak_hour: f64, trough: f64 },
    /// `factor` from `start_ms` for `length_ms`, 1 otherwise.
    Burst {
        start_ms: u64,
        length_ms: u64,
        factor: f64,
    },
}

impl Curve {
    /// The factor at `t_ms` from the start.
    pub fn factor(&self, t_ms: f64) -> f64 {
        match *self {
            Curve::Constant => 1.0,
            Curve::Daily { peak_hour, trough } => {
                let hours = t_ms / 3_600_000.0;
                let phase = (hours - peak_hour) / 24.0 * std::f64::consts::TAU;
                trough + (1.0 - trough) * (1.0 + phase.cos()) / 2.0
            }
            Curve::Burst {
                start_ms,
                length_ms,
                factor,
            } => {
                let start = start_ms as f64;
                if t_ms >= start && t_ms < start + length_ms as f64 {
                    factor
                } else {
                    1.0
                }
            }
        }
    }
}

impl Workload {
    /// Reads and checks a workload document. Errors name the JSON path.
    pub fn from_json(text: &str) -> Result<Workload, SimulateError> {
        Workload::from_value(&json::parse(text)?)
    }

    /// Reads and checks a workload document already parsed (a share link's member): paths
    /// start at the document, `$`.
    pub fn from_value(value: &json::Value) -> Result<Workload, SimulateError> {
        let workload = document::read(&json::Node::root(value))?;
        workload.check()?;
        Ok(workload)
    }

    /// The workload as a JSON value (in the order [`Workload::from_json`] documents it).
    pub fn to_value(&self) -> json::Value {
        document::write(self)
    }

    /// The workload as indented JSON (what a file or a share link holds).
    pub fn to_json(&self) -> String {
        self.to_value().to_pretty()
    }

    /// The step of simulated time.
    pub fn step_ms(&self) -> u64 {
        self.step_ms
            .unwrap_or_else(|| (self.duration_ms / 1_440).max(1_000))
            .max(1)
    }

    /// Checks what the types cannot: sizes and rates in range, names that resolve, keys that
    /// do not collide where `unique` says they must not.
    pub fn check(&self) -> Result<(), SimulateError> {
        self.check_with(true)
    }

    /// [`Workload::check`], the uniqueness of keys (which makes 100,000 keys per table) only
    /// when `unique_keys` is set.
    pub(crate) fn check_with(&self, unique_keys: bool) -> Result<(), SimulateError> {
        let bad = |path: String, message: String| Err(SimulateError::invalid(path, message));
        if self.version != WORKLOAD_VERSION {
            return bad(
                "$.version".into(),
                format!(
                    "version {} is not supported (this build reads version {WORKLOAD_VERSION})",
                    self.version
                ),
            );
        }
        if self.duration_ms == 0 || self.duration_ms > MAX_DURATION_MS {
            return bad(
                "$.duration_ms".into(),
                format!(
                    "the duration must be above 0 and at most {MAX_DURATION_MS} (744 hours), found {}",
                    self.duration_ms
                ),
            );
        }
        if self.step_ms == Some(0) {
            return bad("$.step_ms".into(), "the step must be above 0".into());
        }
        if self.samples_per_step == Some(0) {
            return bad(
                "$.samples_per_step".into(),
                "at least one sample per step".into(),
            );
        }
        let c = &self.cluster;
        if c.region_servers == 0 {
            return bad(
                "$.cluster.region_servers".into(),
                "at least one region server".into(),
            );
        }
        if c.flush_size == 0 {
            return bad(
                "$.cluster.flush_size".into(),
                "the flush size must be above 0".into(),
            );
        }
        if c.max_filesize == 0 {
            return bad(
                "$.cluster.max_filesize".into(),
                "MAX_FILESIZE must be above 0".into(),
            );
        }
        if !(0.0..=1.0).contains(&c.jitter) {
            return bad(
                "$.cluster.jitter".into(),
                format!("the jitter must be within 0 and 1, found {}", c.jitter),
            );
        }
        if c.balancer_period_ms == 0 {
            return bad(
                "$.cluster.balancer_period_ms".into(),
                "the balancer period must be above 0".into(),
            );
        }
        for (name, v) in [
            ("server_reads_per_sec", c.server_reads_per_sec),
            ("server_writes_per_sec", c.server_writes_per_sec),
        ] {
            if !(v.is_finite() && v > 0.0) {
                return bad(
                    format!("$.cluster.{name}"),
                    format!("a server's capacity must be above 0, found {v}"),
                );
            }
        }
        if self.tables.is_empty() {
            return bad("$.tables".into(), "at least one table".into());
        }
        for (t, table) in self.tables.iter().enumerate() {
            table.check(&format!("$.tables[{t}]"), self, unique_keys)?;
            if let Some(first) = self.tables[..t].iter().position(|o| o.name == table.name) {
                return bad(
                    format!("$.tables[{t}].name"),
                    format!("table '{}' is also $.tables[{first}]", table.name),
                );
            }
        }
        Ok(())
    }
}

impl TableLoad {
    fn check(&self, at: &str, workload: &Workload, unique_keys: bool) -> Result<(), SimulateError> {
        let bad = |path: String, message: String| Err(SimulateError::invalid(path, message));
        if self.name.is_empty() {
            return bad(format!("{at}.name"), "a table needs a name".into());
        }
        if self.families.is_empty() {
            return bad(format!("{at}.families"), "at least one family".into());
        }
        for (f, family) in self.families.iter().enumerate() {
            if family.name.is_empty() || family.name.contains(':') {
                return bad(
                    format!("{at}.families[{f}].name"),
                    format!("'{}' is not a family name", family.name),
                );
            }
            if family.columns.is_empty() {
                return bad(
                    format!("{at}.families[{f}].columns"),
                    "at least one column".into(),
                );
            }
        }
        if self.key.is_empty() {
            return bad(
                format!("{at}.key"),
                "the key needs at least one field".into(),
            );
        }
        for (k, field) in self.key.iter().enumerate() {
            let path = format!("{at}.key[{k}]");
            // An md5 or a salt reads a field that is neither (made first, wherever it is).
            let source = |name: &str| {
                self.key.iter().any(|f| {
                    f.name() == name && !matches!(f, KeyField::Md5 { .. } | KeyField::Salt { .. })
                })
            };
            match field {
                KeyField::Entity {
                    count,
                    distribution,
                    ..
                } => {
                    if *count == 0 {
                        return bad(format!("{path}.count"), "at least one entity".into());
                    }
                    match *distribution {
                        Distribution::Zipf { s } if !(s.is_finite() && s > 0.0) => {
                            return bad(
                                format!("{path}.distribution.zipf.s"),
                                format!("the exponent must be above 0, found {s}"),
                            )
                        }
                        Distribution::Recent { decay } if !(decay > 0.0 && decay < 1.0) => {
                            return bad(
                                format!("{path}.distribution.recent.decay"),
                                format!("the decay must be within (0, 1), found {decay}"),
                            )
                        }
                        _ => {}
                    }
                }
                KeyField::Md5 { of, digits, .. } => {
                    if !source(of) {
                        return bad(
                            format!("{path}.of"),
                            format!("no field other than an md5 or a salt is named '{of}'"),
                        );
                    }
                    if !(1..=32).contains(digits) {
                        return bad(
                            format!("{path}.digits"),
                            format!("an MD5 has 1 to 32 hex digits, found {digits}"),
                        );
                    }
                }
                KeyField::Salt { buckets, of, .. } => {
                    if *buckets == 0 {
                        return bad(format!("{path}.buckets"), "at least one bucket".into());
                    }
                    if let Some(of) = of {
                        if !self.key.iter().any(|f| f.name() == of) {
                            return bad(format!("{path}.of"), format!("no field is named '{of}'"));
                        }
                    }
                }
                KeyField::Choice { options, .. } => {
                    if options.is_empty() {
                        return bad(format!("{path}.options"), "at least one option".into());
                    }
                    for (o, opt) in options.iter().enumerate() {
                        if !(opt.weight.is_finite() && opt.weight >= 0.0) {
                            return bad(
                                format!("{path}.options[{o}].weight"),
                                format!("a weight must be 0 or above, found {}", opt.weight),
                            );
                        }
                    }
                    if options.iter().all(|o| o.weight == 0.0) {
                        return bad(
                            format!("{path}.options"),
                            "at least one weight must be above 0".into(),
                        );
                    }
                }
                KeyField::Constant { .. }
                | KeyField::Sequence { .. }
                | KeyField::Timestamp { .. } => {}
            }
        }
        if self.operations.is_empty() {
            return bad(format!("{at}.operations"), "at least one operation".into());
        }
        for (o, op) in self.operations.iter().enumerate() {
            let path = format!("{at}.operations[{o}]");
            let r = op.rate();
            if !(r.per_sec.is_finite() && r.per_sec >= 0.0) {
                return bad(
                    format!("{path}.rate.per_sec"),
                    format!("a rate must be 0 or above, found {}", r.per_sec),
                );
            }
            match r.curve {
                Curve::Daily { peak_hour, trough } => {
                    if !(0.0..24.0).contains(&peak_hour) {
                        return bad(
                            format!("{path}.rate.curve.daily.peak_hour"),
                            format!("the peak hour is within 0 and 24, found {peak_hour}"),
                        );
                    }
                    if !(0.0..=1.0).contains(&trough) {
                        return bad(
                            format!("{path}.rate.curve.daily.trough"),
                            format!("the trough is within 0 and 1, found {trough}"),
                        );
                    }
                }
                Curve::Burst { factor, .. } if !(factor.is_finite() && factor >= 0.0) => {
                    return bad(
                        format!("{path}.rate.curve.burst.factor"),
                        format!("a factor must be 0 or above, found {factor}"),
                    );
                }
                _ => {}
            }
            let fields = match *op {
                Operation::PrefixScan { fields, .. } | Operation::WindowScan { fields, .. } => {
                    Some(fields)
                }
                _ => None,
            };
            if let Some(fields) = fields {
                if fields as usize > self.key.len() {
                    return bad(
                        format!("{path}.fields"),
                        format!(
                            "the key has {} fields, the prefix asks for {fields}",
                            self.key.len()
                        ),
                    );
                }
            }
        }
        for (s, split) in self.pre_split.iter().enumerate() {
            if split.is_empty() {
                return bad(
                    format!("{at}.pre_split[{s}]"),
                    "a split key cannot be empty".into(),
                );
            }
            if s > 0
                && crate::bytes::from_printable(&self.pre_split[s - 1])
                    >= crate::bytes::from_printable(split)
            {
                return bad(
                    format!("{at}.pre_split[{s}]"),
                    "split keys must be in increasing order".into(),
                );
            }
        }
        if self.unique && unique_keys {
            super::key::check_unique(self, at, workload)?;
        }
        Ok(())
    }
}
