//! The workload document read from JSON and written back, member by member. A member a struct
//! does not know is an error at its path; an enum of several shapes is written as its name
//! (`"uniform"`) or as an object of its one variant (`{"zipf": {"s": 1.1}}`); the key's fields
//! and the operations carry their variant in `kind`.

use crate::json::{self, Fields, Node, Value};

use super::{
    Base, Choose, Cluster, ColumnLoad, Curve, Distribution, FamilyLoad, KeyField, NumberFormat,
    Operation, Rate, SplitPolicyKind, TableLoad, TimeEncoding, Weighted, Workload,
    DEFAULT_BALANCER_PERIOD_MS, DEFAULT_FLUSH_SIZE, DEFAULT_JITTER, DEFAULT_MAX_FILESIZE,
    DEFAULT_START_MS,
};

type Read<T> = Result<T, json::Error>;

/// A workload as its document holds it (not yet checked).
pub(super) fn read(node: &Node) -> Read<Workload> {
    let o = node.object(&[
        "version",
        "seed",
        "duration_ms",
        "start_ms",
        "step_ms",
        "samples_per_step",
        "cluster",
        "tables",
    ])?;
    Ok(Workload {
        version: o.read("version", Node::u32)?,
        seed: o.read("seed", Node::u64)?,
        duration_ms: o.read("duration_ms", Node::u64)?,
        start_ms: o.or("start_ms", DEFAULT_START_MS, Node::u64)?,
        step_ms: o.optional("step_ms", Node::u64)?,
        samples_per_step: o.optional("samples_per_step", Node::u32)?,
        cluster: o.read("cluster", cluster)?,
        tables: o.list("tables", table)?,
    })
}

fn cluster(node: &Node) -> Read<Cluster> {
    let o = node.object(&[
        "region_servers",
        "max_filesize",
        "flush_size",
        "split_policy",
        "jitter",
        "balancer_period_ms",
        "server_reads_per_sec",
        "server_writes_per_sec",
    ])?;
    Ok(Cluster {
        region_servers: o.read("region_servers", Node::u32)?,
        max_filesize: o.or("max_filesize", DEFAULT_MAX_FILESIZE, Node::u64)?,
        flush_size: o.or("flush_size", DEFAULT_FLUSH_SIZE, Node::u64)?,
        split_policy: o.or("split_policy", SplitPolicyKind::Stepping, split_policy)?,
        jitter: o.or("jitter", DEFAULT_JITTER, Node::f64)?,
        balancer_period_ms: o.or("balancer_period_ms", DEFAULT_BALANCER_PERIOD_MS, Node::u64)?,
        server_reads_per_sec: o.read("server_reads_per_sec", Node::f64)?,
        server_writes_per_sec: o.read("server_writes_per_sec", Node::f64)?,
    })
}

fn split_policy(node: &Node) -> Read<SplitPolicyKind> {
    let (name, contents) = node.enumeration(&[
        "stepping",
        "increasing_to_upper_bound",
        "constant_size",
        "key_prefix",
        "none",
    ])?;
    Ok(match name {
        "key_prefix" => SplitPolicyKind::KeyPrefix {
            prefix_length: fields_of(node, name, contents, &["prefix_length"])?
                .read("prefix_length", Node::u32)?,
        },
        _ => {
            no_fields(name, contents)?;
            match name {
                "increasing_to_upper_bound" => SplitPolicyKind::IncreasingToUpperBound,
                "constant_size" => SplitPolicyKind::ConstantSize,
                "none" => SplitPolicyKind::None,
                _ => SplitPolicyKind::Stepping,
            }
        }
    })
}

/// The fields of an enum's variant that has them.
fn fields_of<'a>(
    node: &Node<'a>,
    name: &str,
    contents: Option<Node<'a>>,
    fields: &[&str],
) -> Read<Fields<'a>> {
    match contents {
        Some(contents) => contents.object(fields),
        None => Err(node.error(format!(
            "`{name}` needs its fields, as {{\"{name}\": {{\"{}\": ...}}}}",
            fields.first().copied().unwrap_or_default()
        ))),
    }
}

/// Checks that a variant without fields was written without any (as `"name"` or
/// `{"name": null}`).
fn no_fields(name: &str, contents: Option<Node>) -> Read<()> {
    match contents {
        Some(c) if !c.is_null() => {
            Err(c.error(format!("`{name}` has no fields: write it as \"{name}\"")))
        }
        _ => Ok(()),
    }
}

fn table(node: &Node) -> Read<TableLoad> {
    let o = node.object(&[
        "name",
        "families",
        "key",
        "unique",
        "pre_split",
        "initial_rows",
        "operations",
    ])?;
    Ok(TableLoad {
        name: o.read("name", Node::string)?,
        families: o.list("families", family)?,
        key: o.list("key", key_field)?,
        unique: o.or("unique", false, Node::bool)?,
        pre_split: o.or("pre_split", Vec::new(), |n| n.list(Node::string))?,
        initial_rows: o.or("initial_rows", 0, Node::u64)?,
        operations: o.list("operations", operation)?,
    })
}

fn family(node: &Node) -> Read<FamilyLoad> {
    let o = node.object(&["name", "columns"])?;
    Ok(FamilyLoad {
        name: o.read("name", Node::string)?,
        columns: o.list("columns", |n| {
            let o = n.object(&["qualifier", "value_size", "dynamic"])?;
            Ok(ColumnLoad {
                qualifier: o.read("qualifier", Node::string)?,
                value_size: o.read("value_size", Node::u64)?,
                dynamic: o.or("dynamic", false, Node::bool)?,
            })
        })?,
    })
}

const KEY_FIELDS: &[&str] = &[
    "constant",
    "sequence",
    "entity",
    "timestamp",
    "md5",
    "salt",
    "choice",
];

fn key_field(node: &Node) -> Read<KeyField> {
    let (kind, o) = node.tagged("kind", KEY_FIELDS, |kind| match kind {
        "constant" => &["name", "text"],
        "sequence" => &["name", "start", "format"],
        "entity" => &["name", "count", "distribution", "format"],
        "timestamp" => &["name", "encoding"],
        "md5" => &["name", "of", "digits"],
        "salt" => &["name", "buckets", "of"],
        _ => &["name", "options"],
    })?;
    let name = o.or("name", String::new(), Node::string)?;
    let format = || o.or("format", NumberFormat::default(), number_format);
    Ok(match kind {
        "constant" => KeyField::Constant {
            name,
            text: o.read("text", Node::string)?,
        },
        "sequence" => KeyField::Sequence {
            name,
            start: o.or("start", 0, Node::u64)?,
            format: format()?,
        },
        "entity" => KeyField::Entity {
            name,
            count: o.read("count", Node::u64)?,
            distribution: o.or("distribution", Distribution::Uniform, distribution)?,
            format: format()?,
        },
        "timestamp" => KeyField::Timestamp {
            name,
            encoding: o.or("encoding", TimeEncoding::Millis, time_encoding)?,
        },
        "md5" => KeyField::Md5 {
            name,
            of: o.read("of", Node::string)?,
            digits: o.read("digits", Node::u32)?,
        },
        "salt" => KeyField::Salt {
            name,
            buckets: o.read("buckets", Node::u64)?,
            of: o.optional("of", Node::string)?,
        },
        _ => KeyField::Choice {
            name,
            options: o.list("options", |n| {
                let o = n.object(&["text", "weight"])?;
                Ok(Weighted {
                    text: o.read("text", Node::string)?,
                    weight: o.read("weight", Node::f64)?,
                })
            })?,
        },
    })
}

fn number_format(node: &Node) -> Read<NumberFormat> {
    let o = node.object(&["base", "width", "reverse"])?;
    Ok(NumberFormat {
        base: o.or("base", Base::Decimal, |n| {
            Ok(match n.variant(&["decimal", "hex"])? {
                "hex" => Base::Hex,
                _ => Base::Decimal,
            })
        })?,
        width: o.or("width", 0, Node::u32)?,
        reverse: o.or("reverse", false, Node::bool)?,
    })
}

fn distribution(node: &Node) -> Read<Distribution> {
    let (name, contents) = node.enumeration(&["uniform", "zipf", "recent"])?;
    Ok(match name {
        "zipf" => Distribution::Zipf {
            s: fields_of(node, name, contents, &["s"])?.read("s", Node::f64)?,
        },
        "recent" => Distribution::Recent {
            decay: fields_of(node, name, contents, &["decay"])?.read("decay", Node::f64)?,
        },
        _ => {
            no_fields(name, contents)?;
            Distribution::Uniform
        }
    })
}

const TIME_ENCODINGS: [(&str, TimeEncoding); 4] = [
    ("millis", TimeEncoding::Millis),
    ("millis_bytes", TimeEncoding::MillisBytes),
    ("reverse_decimal", TimeEncoding::ReverseDecimal),
    ("reverse_bytes", TimeEncoding::ReverseBytes),
];

fn time_encoding(node: &Node) -> Read<TimeEncoding> {
    let name = node.variant(&TIME_ENCODINGS.map(|(name, _)| name))?;
    Ok(TIME_ENCODINGS
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(TimeEncoding::Millis, |(_, e)| *e))
}

const OPERATIONS: &[&str] = &[
    "put_new",
    "update",
    "get",
    "prefix_scan",
    "window_scan",
    "delete",
];

fn operation(node: &Node) -> Read<Operation> {
    let (kind, o) = node.tagged("kind", OPERATIONS, |kind| match kind {
        "put_new" => &["name", "rate"],
        "prefix_scan" => &["name", "rate", "choose", "fields", "limit"],
        "window_scan" => &["name", "rate", "choose", "fields", "window_ms", "limit"],
        _ => &["name", "rate", "choose"],
    })?;
    let name = o.or("name", String::new(), Node::string)?;
    let rate = o.read("rate", rate)?;
    if kind == "put_new" {
        return Ok(Operation::PutNew { name, rate });
    }
    let choose = o.read("choose", choose)?;
    Ok(match kind {
        "update" => Operation::Update { name, rate, choose },
        "get" => Operation::Get { name, rate, choose },
        "delete" => Operation::Delete { name, rate, choose },
        "prefix_scan" => Operation::PrefixScan {
            name,
            rate,
            choose,
            fields: o.read("fields", Node::u32)?,
            limit: o.read("limit", Node::u64)?,
        },
        _ => Operation::WindowScan {
            name,
            rate,
            choose,
            fields: o.read("fields", Node::u32)?,
            window_ms: o.read("window_ms", Node::u64)?,
            limit: o.read("limit", Node::u64)?,
        },
    })
}

fn choose(node: &Node) -> Read<Choose> {
    let (name, contents) = node.enumeration(&["uniform", "within_ms", "recent", "fresh"])?;
    Ok(match name {
        "within_ms" => Choose::WithinMs {
            ms: fields_of(node, name, contents, &["ms"])?.read("ms", Node::u64)?,
        },
        "recent" => Choose::Recent {
            half_life_ms: fields_of(node, name, contents, &["half_life_ms"])?
                .read("half_life_ms", Node::u64)?,
        },
        "fresh" => {
            no_fields(name, contents)?;
            Choose::Fresh
        }
        _ => {
            no_fields(name, contents)?;
            Choose::Uniform
        }
    })
}

fn rate(node: &Node) -> Read<Rate> {
    let o = node.object(&["per_sec", "curve"])?;
    Ok(Rate {
        per_sec: o.read("per_sec", Node::f64)?,
        curve: o.or("curve", Curve::Constant, curve)?,
    })
}

fn curve(node: &Node) -> Read<Curve> {
    let (name, contents) = node.enumeration(&["constant", "daily", "burst"])?;
    Ok(match name {
        "daily" => {
            let o = fields_of(node, name, contents, &["peak_hour", "trough"])?;
            Curve::Daily {
                peak_hour: o.read("peak_hour", Node::f64)?,
                trough: o.read("trough", Node::f64)?,
            }
        }
        "burst" => {
            let o = fields_of(node, name, contents, &["start_ms", "length_ms", "factor"])?;
            Curve::Burst {
                start_ms: o.read("start_ms", Node::u64)?,
                length_ms: o.read("length_ms", Node::u64)?,
                factor: o.read("factor", Node::f64)?,
            }
        }
        _ => {
            no_fields(name, contents)?;
            Curve::Constant
        }
    })
}

/// The workload's document: every member, the optional ones when they are set.
pub(super) fn write(w: &Workload) -> Value {
    let mut members = vec![
        member("version", w.version),
        member("seed", w.seed),
        member("duration_ms", w.duration_ms),
        member("start_ms", w.start_ms),
    ];
    if let Some(step) = w.step_ms {
        members.push(member("step_ms", step));
    }
    if let Some(samples) = w.samples_per_step {
        members.push(member("samples_per_step", samples));
    }
    let c = &w.cluster;
    members.push(member(
        "cluster",
        Value::object(vec![
            ("region_servers", c.region_servers.into()),
            ("max_filesize", c.max_filesize.into()),
            ("flush_size", c.flush_size.into()),
            ("split_policy", write_split_policy(c.split_policy)),
            ("jitter", c.jitter.into()),
            ("balancer_period_ms", c.balancer_period_ms.into()),
            ("server_reads_per_sec", c.server_reads_per_sec.into()),
            ("server_writes_per_sec", c.server_writes_per_sec.into()),
        ]),
    ));
    members.push(member(
        "tables",
        Value::Array(w.tables.iter().map(write_table).collect()),
    ));
    Value::Object(members)
}

fn member(name: &str, value: impl Into<Value>) -> (String, Value) {
    (name.to_string(), value.into())
}

/// An enum's variant with fields: `{"name": {fields}}`.
fn variant(name: &str, fields: Vec<(&str, Value)>) -> Value {
    Value::Object(vec![member(name, Value::object(fields))])
}

fn write_split_policy(policy: SplitPolicyKind) -> Value {
    match policy {
        SplitPolicyKind::Stepping => "stepping".into(),
        SplitPolicyKind::IncreasingToUpperBound => "increasing_to_upper_bound".into(),
        SplitPolicyKind::ConstantSize => "constant_size".into(),
        SplitPolicyKind::KeyPrefix { prefix_length } => {
            variant("key_prefix", vec![("prefix_length", prefix_length.into())])
        }
        SplitPolicyKind::None => "none".into(),
    }
}

fn write_table(t: &TableLoad) -> Value {
    let mut members = vec![
        member("name", t.name.as_str()),
        member(
            "families",
            Value::Array(
                t.families
                    .iter()
                    .map(|f| {
                        Value::object(vec![
                            ("name", f.name.as_str().into()),
                            (
                                "columns",
                                Value::Array(
                                    f.columns
                                        .iter()
                                        .map(|c| {
                                            Value::object(vec![
                                                ("qualifier", c.qualifier.as_str().into()),
                                                ("value_size", c.value_size.into()),
                                                ("dynamic", c.dynamic.into()),
                                            ])
                                        })
                                        .collect(),
                                ),
                            ),
                        ])
                    })
                    .collect(),
            ),
        ),
        member(
            "key",
            Value::Array(t.key.iter().map(write_key_field).collect()),
        ),
        member("unique", t.unique),
    ];
    if !t.pre_split.is_empty() {
        members.push(member(
            "pre_split",
            Value::Array(t.pre_split.iter().map(|s| s.as_str().into()).collect()),
        ));
    }
    members.push(member("initial_rows", t.initial_rows));
    members.push(member(
        "operations",
        Value::Array(t.operations.iter().map(write_operation).collect()),
    ));
    Value::Object(members)
}

/// `{"kind": kind, "name": name (when set), fields...}`.
fn tagged(kind: &str, name: &str, fields: Vec<(&str, Value)>) -> Value {
    let mut members = vec![member("kind", kind)];
    if !name.is_empty() {
        members.push(member("name", name));
    }
    members.extend(fields.into_iter().map(|(n, v)| member(n, v)));
    Value::Object(members)
}

fn write_key_field(field: &KeyField) -> Value {
    match field {
        KeyField::Constant { name, text } => {
            tagged("constant", name, vec![("text", text.as_str().into())])
        }
        KeyField::Sequence {
            name,
            start,
            format,
        } => tagged(
            "sequence",
            name,
            vec![
                ("start", (*start).into()),
                ("format", write_number_format(format)),
            ],
        ),
        KeyField::Entity {
            name,
            count,
            distribution,
            format,
        } => tagged(
            "entity",
            name,
            vec![
                ("count", (*count).into()),
                ("distribution", write_distribution(*distribution)),
                ("format", write_number_format(format)),
            ],
        ),
        KeyField::Timestamp { name, encoding } => {
            let encoding = TIME_ENCODINGS
                .iter()
                .find(|(_, e)| e == encoding)
                .map_or("millis", |(n, _)| n);
            tagged("timestamp", name, vec![("encoding", encoding.into())])
        }
        KeyField::Md5 { name, of, digits } => tagged(
            "md5",
            name,
            vec![("of", of.as_str().into()), ("digits", (*digits).into())],
        ),
        KeyField::Salt { name, buckets, of } => {
            let mut v = tagged("salt", name, vec![("buckets", (*buckets).into())]);
            if let (Value::Object(members), Some(of)) = (&mut v, of) {
                members.push(member("of", of.as_str()));
            }
            v
        }
        KeyField::Choice { name, options } => tagged(
            "choice",
            name,
            vec![(
                "options",
                Value::Array(
                    options
                        .iter()
                        .map(|o| {
                            Value::object(vec![
                                ("text", o.text.as_str().into()),
                                ("weight", o.weight.into()),
                            ])
                        })
                        .collect(),
                ),
            )],
        ),
    }
}

fn write_number_format(f: &NumberFormat) -> Value {
    Value::object(vec![
        (
            "base",
            match f.base {
                Base::Decimal => "decimal",
                Base::Hex => "hex",
            }
            .into(),
        ),
        ("width", f.width.into()),
        ("reverse", f.reverse.into()),
    ])
}

fn write_distribution(d: Distribution) -> Value {
    match d {
        Distribution::Uniform => "uniform".into(),
        Distribution::Zipf { s } => variant("zipf", vec![("s", s.into())]),
        Distribution::Recent { decay } => variant("recent", vec![("decay", decay.into())]),
    }
}

fn write_operation(op: &Operation) -> Value {
    let rate = |r: &Rate| {
        Value::object(vec![
            ("per_sec", r.per_sec.into()),
            (
                "curve",
                match r.curve {
                    Curve::Constant => "constant".into(),
                    Curve::Daily { peak_hour, trough } => variant(
                        "daily",
                        vec![("peak_hour", peak_hour.into()), ("trough", trough.into())],
                    ),
                    Curve::Burst {
                        start_ms,
                        length_ms,
                        factor,
                    } => variant(
                        "burst",
                        vec![
                            ("start_ms", start_ms.into()),
                            ("length_ms", length_ms.into()),
                            ("factor", factor.into()),
                        ],
                    ),
                },
            ),
        ])
    };
    let choose = |c: &Choose| match *c {
        Choose::Uniform => "uniform".into(),
        Choose::WithinMs { ms } => variant("within_ms", vec![("ms", ms.into())]),
        Choose::Recent { half_life_ms } => {
            variant("recent", vec![("half_life_ms", half_life_ms.into())])
        }
        Choose::Fresh => "fresh".into(),
    };
    match op {
        Operation::PutNew { name, rate: r } => tagged("put_new", name, vec![("rate", rate(r))]),
        Operation::Update {
            name,
            rate: r,
            choose: c,
        } => tagged(
            "update",
            name,
            vec![("rate", rate(r)), ("choose", choose(c))],
        ),
        Operation::Get {
            name,
            rate: r,
            choose: c,
        } => tagged("get", name, vec![("rate", rate(r)), ("choose", choose(c))]),
        Operation::Delete {
            name,
            rate: r,
            choose: c,
        } => tagged(
            "delete",
            name,
            vec![("rate", rate(r)), ("choose", choose(c))],
        ),
        Operation::PrefixScan {
            name,
            rate: r,
            choose: c,
            fields,
            limit,
        } => tagged(
            "prefix_scan",
            name,
            vec![
                ("rate", rate(r)),
                ("choose", choose(c)),
                ("fields", (*fields).into()),
                ("limit", (*limit).into()),
            ],
        ),
        Operation::WindowScan {
            name,
            rate: r,
            choose: c,
            fields,
            window_ms,
            limit,
        } => tagged(
            "window_scan",
            name,
            vec![
                ("rate", rate(r)),
                ("choose", choose(c)),
                ("fields", (*fields).into()),
                ("window_ms", (*window_ms).into()),
                ("limit", (*limit).into()),
            ],
        ),
    }
}
