//! The workload form's edits: each [`FormAction`] changes the workload document in one place,
//! and the form shows the document's JSON after it. Numbers arrive as the text a person typed;
//! one that does not read leaves the document as it was and says why.

use crate::simulate::workload::{
    Base, Choose, ColumnLoad, Curve, Distribution, FamilyLoad, KeyField, NumberFormat, Operation,
    Rate, SplitPolicyKind, TableLoad, TimeEncoding, MAX_DURATION_MS,
};
use crate::simulate::{OpKind, Workload};

/// A kind of key field the form can add.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    Constant,
    Sequence,
    Entity,
    Timestamp,
    ReverseTimestamp,
    Md5,
    Salt,
    Choice,
}

impl FieldKind {
    pub const ALL: [FieldKind; 8] = [
        FieldKind::Constant,
        FieldKind::Sequence,
        FieldKind::Entity,
        FieldKind::Timestamp,
        FieldKind::ReverseTimestamp,
        FieldKind::Md5,
        FieldKind::Salt,
        FieldKind::Choice,
    ];

    pub fn label(self) -> &'static str {
        match self {
            FieldKind::Constant => "constant text",
            FieldKind::Sequence => "sequence",
            FieldKind::Entity => "entity id",
            FieldKind::Timestamp => "timestamp",
            FieldKind::ReverseTimestamp => "reverse timestamp",
            FieldKind::Md5 => "MD5 prefix",
            FieldKind::Salt => "salt bucket",
            FieldKind::Choice => "weighted choice",
        }
    }

    /// A new field of this kind; `earlier` names the field an MD5 or a salt reads.
    fn field(self, index: usize, earlier: Option<&str>) -> KeyField {
        let name = format!("f{index}");
        let of = earlier.unwrap_or_default().to_string();
        match self {
            FieldKind::Constant => KeyField::Constant {
                name: String::new(),
                text: "#".into(),
            },
            FieldKind::Sequence => KeyField::Sequence {
                name,
                start: 0,
                format: NumberFormat {
                    base: Base::Decimal,
                    width: 10,
                    reverse: false,
                },
            },
            FieldKind::Entity => KeyField::Entity {
                name,
                count: 1000,
                distribution: Distribution::Uniform,
                format: NumberFormat {
                    base: Base::Decimal,
                    width: 6,
                    reverse: false,
                },
            },
            FieldKind::Timestamp => KeyField::Timestamp {
                name,
                encoding: TimeEncoding::Millis,
            },
            FieldKind::ReverseTimestamp => KeyField::Timestamp {
                name,
                encoding: TimeEncoding::ReverseDecimal,
            },
            FieldKind::Md5 => KeyField::Md5 {
                name,
                of,
                digits: 4,
            },
            FieldKind::Salt => KeyField::Salt {
                name,
                buckets: 16,
                of: earlier.map(str::to_string),
            },
            FieldKind::Choice => KeyField::Choice {
                name,
                options: vec![
                    crate::simulate::workload::Weighted {
                        text: "a".into(),
                        weight: 1.0,
                    },
                    crate::simulate::workload::Weighted {
                        text: "b".into(),
                        weight: 1.0,
                    },
                ],
            },
        }
    }
}

/// The operation the form adds for a kind: a constant rate, uniform rows, the first field as
/// a scan's prefix, a limit of 100 and a window of an hour.
fn operation(kind: OpKind, per_sec: f64) -> Operation {
    let rate = Rate {
        per_sec,
        curve: Curve::Constant,
    };
    let choose = Choose::Uniform;
    let name = String::new();
    match kind {
        OpKind::PutNew => Operation::PutNew { name, rate },
        OpKind::Update => Operation::Update { name, rate, choose },
        OpKind::Get => Operation::Get { name, rate, choose },
        OpKind::PrefixScan => Operation::PrefixScan {
            name,
            rate,
            choose,
            fields: 1,
            limit: 100,
        },
        OpKind::WindowScan => Operation::WindowScan {
            name,
            rate,
            choose,
            fields: 1,
            window_ms: 3_600_000,
            limit: 100,
        },
        OpKind::Delete => Operation::Delete { name, rate, choose },
    }
}

/// One edit of the form. Indices name a table, then a field, column or operation in it.
#[derive(Clone, Debug, PartialEq)]
pub enum FormAction {
    Seed(String),
    DurationHours(String),
    RegionServers(String),
    MaxFileSizeMb(String),
    FlushSizeMb(String),
    /// `stepping`, `increasing_to_upper_bound`, `constant_size`, `key_prefix` or `none`.
    Policy(String),
    ServerReads(String),
    ServerWrites(String),
    AddTable,
    RemoveTable(usize),
    TableName(usize, String),
    AddField(usize, FieldKind),
    RemoveField(usize, usize),
    /// The field's main setting: a constant's text, an entity's count, a sequence's width, an
    /// MD5's digits, a salt's buckets, a choice's options (`a,b,c`).
    FieldValue(usize, usize, String),
    /// An entity's distribution: `uniform`, `zipf` (s = 1.1) or `recent` (decay 0.99).
    FieldDistribution(usize, usize, String),
    /// Whether a sequence's or an entity's digits are written reversed (`reversed`) or as
    /// counted (`counted`).
    FieldOrder(usize, usize, String),
    AddColumn(usize),
    ColumnName(usize, usize, String),
    ColumnSize(usize, usize, String),
    AddOperation(usize, OpKind),
    RemoveOperation(usize, usize),
    OperationRate(usize, usize, String),
    /// `constant`, `daily` (peak at 14:00, trough 0.2) or `burst` (×5 for the second hour).
    OperationCurve(usize, usize, String),
}

impl FormAction {
    /// The text the edit carries, as it was typed (`None` for an edit of no text: a button's).
    pub fn text(&self) -> Option<&str> {
        use FormAction as A;
        match self {
            A::Seed(v)
            | A::DurationHours(v)
            | A::RegionServers(v)
            | A::MaxFileSizeMb(v)
            | A::FlushSizeMb(v)
            | A::Policy(v)
            | A::ServerReads(v)
            | A::ServerWrites(v)
            | A::TableName(_, v)
            | A::FieldValue(_, _, v)
            | A::FieldDistribution(_, _, v)
            | A::FieldOrder(_, _, v)
            | A::ColumnName(_, _, v)
            | A::ColumnSize(_, _, v)
            | A::OperationRate(_, _, v)
            | A::OperationCurve(_, _, v) => Some(v),
            A::AddTable
            | A::RemoveTable(_)
            | A::AddField(..)
            | A::RemoveField(..)
            | A::AddColumn(_)
            | A::AddOperation(..)
            | A::RemoveOperation(..) => None,
        }
    }
}

/// A number the form reads: floats through [`crate::decimal`] (not `f64::from_str`, whose
/// tables the page does not carry), integers through `from_str`.
trait Number: Sized {
    fn read(text: &str) -> Option<Self>;
}

impl Number for f64 {
    fn read(text: &str) -> Option<f64> {
        crate::decimal::parse_f64(text)
    }
}

macro_rules! integer_number {
    ($($t:ty),*) => {$(
        impl Number for $t {
            fn read(text: &str) -> Option<$t> {
                text.parse().ok()
            }
        }
    )*};
}
integer_number!(u64, u32, usize);

/// `text` read as a number for the field labelled `what`. A number the field cannot take (a
/// fraction or a negative where a count goes) is said to be that, not "not a number".
fn number<T: Number>(text: &str, what: &str) -> Result<T, String> {
    let clean = text.trim().replace([',', '_'], "");
    T::read(&clean).ok_or_else(|| {
        let typed = text.trim();
        if crate::decimal::parse_f64(&clean).is_some() {
            format!("{what}: '{typed}' is not a whole number of 0 or more")
        } else {
            format!("{what}: '{typed}' is not a number")
        }
    })
}

/// The form's first table, for a new workload: sensor readings under a reverse timestamp.
pub fn starter() -> Workload {
    let mut w = Workload {
        version: 1,
        seed: 1,
        duration_ms: 6 * 3_600_000,
        start_ms: crate::simulate::workload::DEFAULT_START_MS,
        step_ms: None,
        samples_per_step: None,
        cluster: crate::simulate::workload::Cluster {
            region_servers: 4,
            max_filesize: 1024 * 1024 * 1024,
            flush_size: 128 * 1024 * 1024,
            split_policy: SplitPolicyKind::Stepping,
            jitter: crate::simulate::workload::DEFAULT_JITTER,
            balancer_period_ms: crate::simulate::workload::DEFAULT_BALANCER_PERIOD_MS,
            server_reads_per_sec: 20_000.0,
            server_writes_per_sec: 10_000.0,
        },
        tables: Vec::new(),
    };
    let _ = apply(&mut w, FormAction::AddTable);
    w
}

fn new_table(index: usize) -> TableLoad {
    TableLoad {
        name: format!("t{}", index + 1),
        families: vec![FamilyLoad {
            name: "d".into(),
            columns: vec![ColumnLoad {
                qualifier: "v".into(),
                value_size: 100,
                dynamic: false,
            }],
        }],
        key: vec![
            FieldKind::Entity.field(0, None),
            KeyField::Constant {
                name: String::new(),
                text: "#".into(),
            },
            FieldKind::ReverseTimestamp.field(2, None),
        ],
        unique: false,
        pre_split: Vec::new(),
        initial_rows: 0,
        operations: vec![
            operation(OpKind::PutNew, 5_000.0),
            operation(OpKind::Get, 20_000.0),
        ],
    }
}

/// Applies `action` to `w`. An error leaves `w` as it was.
pub fn apply(w: &mut Workload, action: FormAction) -> Result<(), String> {
    use FormAction as A;
    const MB: f64 = 1024.0 * 1024.0;
    let mut next = w.clone();
    fn tab(n: &mut Workload, t: usize) -> Result<&mut TableLoad, String> {
        n.tables
            .get_mut(t)
            .ok_or_else(|| format!("no table {}", t + 1))
    }
    match action {
        A::Seed(v) => next.seed = number(&v, "seed")?,
        A::DurationHours(v) => {
            let h: f64 = number(&v, "hours of traffic")?;
            let ms = (h * 3_600_000.0).round();
            if !(ms >= 1.0 && ms <= MAX_DURATION_MS as f64) {
                return Err(format!(
                    "hours of traffic: {h} must be above 0 and at most 744"
                ));
            }
            next.duration_ms = ms as u64;
        }
        A::RegionServers(v) => next.cluster.region_servers = number(&v, "region servers")?,
        A::MaxFileSizeMb(v) => {
            next.cluster.max_filesize = (number::<f64>(&v, "MAX_FILESIZE (MB)")? * MB) as u64
        }
        A::FlushSizeMb(v) => {
            next.cluster.flush_size = (number::<f64>(&v, "flush size (MB)")? * MB) as u64
        }
        A::Policy(v) => {
            next.cluster.split_policy = match v.as_str() {
                "stepping" => SplitPolicyKind::Stepping,
                "increasing_to_upper_bound" => SplitPolicyKind::IncreasingToUpperBound,
                "constant_size" => SplitPolicyKind::ConstantSize,
                "key_prefix" => SplitPolicyKind::KeyPrefix { prefix_length: 4 },
                "none" => SplitPolicyKind::None,
                other => return Err(format!("no split policy '{other}'")),
            }
        }
        A::ServerReads(v) => {
            next.cluster.server_reads_per_sec = number(&v, "reads/s a server serves")?
        }
        A::ServerWrites(v) => {
            next.cluster.server_writes_per_sec = number(&v, "writes/s a server takes")?
        }
        A::AddTable => {
            let i = next.tables.len();
            next.tables.push(new_table(i));
        }
        A::RemoveTable(t) => {
            if t < next.tables.len() && next.tables.len() > 1 {
                next.tables.remove(t);
            }
        }
        A::TableName(t, v) => tab(&mut next, t)?.name = v,
        A::AddField(t, kind) => {
            let table = tab(&mut next, t)?;
            let earlier = table
                .key
                .iter()
                .map(KeyField::name)
                .rfind(|n| !n.is_empty())
                .map(str::to_string);
            if matches!(kind, FieldKind::Md5) && earlier.is_none() {
                return Err("an MD5 field hashes an earlier named field: add one first".into());
            }
            let i = table.key.len();
            table.key.push(kind.field(i, earlier.as_deref()));
        }
        A::RemoveField(t, f) => {
            let table = tab(&mut next, t)?;
            if f < table.key.len() && table.key.len() > 1 {
                table.key.remove(f);
            }
        }
        A::FieldValue(t, f, v) => {
            let table = tab(&mut next, t)?;
            let field = table.key.get_mut(f).ok_or("no such field")?;
            match field {
                KeyField::Constant { text, .. } => *text = v,
                KeyField::Entity { count, .. } => *count = number(&v, "entities")?,
                KeyField::Sequence { format, .. } => format.width = number(&v, "width")?,
                KeyField::Md5 { digits, .. } => *digits = number(&v, "hex digits")?,
                KeyField::Salt { buckets, .. } => *buckets = number(&v, "buckets")?,
                KeyField::Choice { options, .. } => {
                    *options = v
                        .split(',')
                        .map(str::trim)
                        .filter(|o| !o.is_empty())
                        .map(|o| crate::simulate::workload::Weighted {
                            text: o.to_string(),
                            weight: 1.0,
                        })
                        .collect()
                }
                KeyField::Timestamp { encoding, .. } => {
                    *encoding = match v.as_str() {
                        "millis" => TimeEncoding::Millis,
                        "millis_bytes" => TimeEncoding::MillisBytes,
                        "reverse_decimal" => TimeEncoding::ReverseDecimal,
                        "reverse_bytes" => TimeEncoding::ReverseBytes,
                        other => return Err(format!("no timestamp encoding '{other}'")),
                    }
                }
            }
        }
        A::FieldOrder(t, f, v) => {
            let table = tab(&mut next, t)?;
            let reverse = match v.as_str() {
                "counted" => false,
                "reversed" => true,
                other => return Err(format!("no digit order '{other}'")),
            };
            if let Some(KeyField::Sequence { format, .. } | KeyField::Entity { format, .. }) =
                table.key.get_mut(f)
            {
                format.reverse = reverse;
            }
        }
        A::FieldDistribution(t, f, v) => {
            let table = tab(&mut next, t)?;
            if let Some(KeyField::Entity { distribution, .. }) = table.key.get_mut(f) {
                *distribution = match v.as_str() {
                    "uniform" => Distribution::Uniform,
                    "zipf" => Distribution::Zipf { s: 1.1 },
                    "recent" => Distribution::Recent { decay: 0.99 },
                    other => return Err(format!("no distribution '{other}'")),
                };
            }
        }
        A::AddColumn(t) => {
            let table = tab(&mut next, t)?;
            if let Some(family) = table.families.first_mut() {
                let i = family.columns.len();
                family.columns.push(ColumnLoad {
                    qualifier: format!("c{i}"),
                    value_size: 100,
                    dynamic: false,
                });
            }
        }
        A::ColumnName(t, c, v) => column(tab(&mut next, t)?, c)?.qualifier = v,
        A::ColumnSize(t, c, v) => {
            column(tab(&mut next, t)?, c)?.value_size = number(&v, "value bytes")?
        }
        A::AddOperation(t, kind) => tab(&mut next, t)?.operations.push(operation(kind, 100.0)),
        A::RemoveOperation(t, o) => {
            let table = tab(&mut next, t)?;
            if o < table.operations.len() && table.operations.len() > 1 {
                table.operations.remove(o);
            }
        }
        A::OperationRate(t, o, v) => {
            let per: f64 = number(&v, "per second")?;
            let op = tab(&mut next, t)?
                .operations
                .get_mut(o)
                .ok_or("no such operation")?;
            rate_of(op).per_sec = per;
        }
        A::OperationCurve(t, o, v) => {
            let op = tab(&mut next, t)?
                .operations
                .get_mut(o)
                .ok_or("no such operation")?;
            rate_of(op).curve = match v.as_str() {
                "constant" => Curve::Constant,
                "daily" => Curve::Daily {
                    peak_hour: 14.0,
                    trough: 0.2,
                },
                "burst" => Curve::Burst {
                    start_ms: 3_600_000,
                    length_ms: 3_600_000,
                    factor: 5.0,
                },
                other => return Err(format!("no curve '{other}'")),
            };
        }
    }
    // Under the field the form shows it by, a rule the workload breaks is said without its
    // JSON path.
    next.check().map_err(|e| match e {
        crate::simulate::SimulateError::Document(crate::json::Error::Invalid(i)) => i.message,
        other => other.to_string(),
    })?;
    *w = next;
    Ok(())
}

/// Column `c` of the table's first family.
fn column(table: &mut TableLoad, c: usize) -> Result<&mut ColumnLoad, String> {
    table
        .families
        .first_mut()
        .and_then(|f| f.columns.get_mut(c))
        .ok_or_else(|| "no such column".to_string())
}

fn rate_of(op: &mut Operation) -> &mut Rate {
    match op {
        Operation::PutNew { rate, .. }
        | Operation::Update { rate, .. }
        | Operation::Get { rate, .. }
        | Operation::PrefixScan { rate, .. }
        | Operation::WindowScan { rate, .. }
        | Operation::Delete { rate, .. } => rate,
    }
}
