//! The workload form: the cluster, then per table its name, its key template field by field,
//! its columns with their value sizes and its operations with their rates and curves. Each
//! change is one [`FormAction`]; the document it writes is shown beside it as JSON.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::keyvis::{FieldKind, FormAction, OpKind};
use crate::simulate::workload::{
    Curve, Distribution, KeyField, Operation, SplitPolicyKind, TimeEncoding,
};
use crate::simulate::Workload;

#[derive(Properties, PartialEq)]
pub struct WorkloadFormProps {
    pub workload: Workload,
    pub on_action: Callback<FormAction>,
    /// The last edit, when it was refused, and why: its field keeps the text as typed and
    /// shows why under it.
    #[prop_or_default]
    pub refused: Option<(FormAction, String)>,
}

/// What every input of the form sends its edits to, and the edit refused last.
struct Form {
    on: Callback<FormAction>,
    refused: Option<(FormAction, String)>,
}

/// A labelled text input that sends `make(value)` when changed.
fn field(
    label: &str,
    value: String,
    on: &Form,
    make: impl Fn(String) -> FormAction + 'static,
) -> Html {
    // This field's edit, refused: the same edit made again from its text is the one refused.
    let refused = on.refused.as_ref().and_then(|(edit, why)| {
        let typed = edit.text()?;
        (make(typed.to_string()) == *edit).then(|| (typed.to_string(), why.clone()))
    });
    text_input(label, value, refused, on.on.reform(make))
}

/// The input of [`field`], one copy for every field (the generic wrapper only builds the
/// callback). A refused edit keeps its text in the input, marked invalid, and says why under
/// it, where the person is looking.
fn text_input(
    label: &str,
    value: String,
    refused: Option<(String, String)>,
    emit: Callback<String>,
) -> Html {
    let onchange = Callback::from(move |e: Event| emit.emit(super::event_value(&e)));
    let (value, why) = match refused {
        Some((typed, why)) => (typed, Some(why)),
        None => (value, None),
    };
    let invalid = why.is_some().then_some("true");
    let described = why.is_some().then_some("wf-refused");
    html! {
        {leaf!("label", "wf-field", html! {<>
            {label}
            <input type="text" inputmode="decimal" {value} {onchange} aria-invalid={invalid} aria-describedby={described} />
            if let Some(why) = why { {leaf!("span", [("id", "wf-refused"), ("role", "alert"), ("class", "error wf-why")], why)} }
        </>})}
    }
}

fn select(
    label: &str,
    options: &[(&str, &str)],
    current: &str,
    on: &Form,
    make: impl Fn(String) -> FormAction + 'static,
) -> Html {
    choice(label, options, current, on.on.reform(make))
}

/// The select of [`select`], one copy for every select.
fn choice(label: &str, options: &[(&str, &str)], current: &str, emit: Callback<String>) -> Html {
    let onchange = Callback::from(move |e: Event| emit.emit(super::event_value(&e)));
    let opts: Html = options
        .iter()
        .map(|(v, l)| {
            crate::ui::view_kit::option(
                AttrValue::from(v.to_string()),
                *v == current,
                Html::from(*l),
            )
        })
        .collect();
    html! { {leaf!("label", "wf-field", list!(@mixed 2;
        @seq(label),
        leaf!(@on "select", [], [onchange(onchange)], opts),
    ))} }
}

fn button(label: &str, aria: String, on: &Form, action: FormAction) -> Html {
    let on = on.on.clone();
    let onclick = Callback::from(move |_: MouseEvent| on.emit(action.clone()));
    html! { {leaf!(@on @dyn "button", [("type", "button"), ("aria-label", aria), ("class", "link")], [onclick(onclick)], label)} }
}

/// Whether a number's digits are written as counted or reversed (what spreads a sequence).
fn digit_order(t: usize, f: usize, reverse: bool, on: &Form) -> Html {
    select(
        "written",
        &[("counted", "as counted"), ("reversed", "digits reversed")],
        if reverse { "reversed" } else { "counted" },
        on,
        move |v| FormAction::FieldOrder(t, f, v),
    )
}

fn key_field(t: usize, f: usize, k: &KeyField, on: &Form) -> Html {
    let (kind, setting) = match k {
        KeyField::Constant { text, .. } => (
            "constant text",
            field("text", text.clone(), on, move |v| {
                FormAction::FieldValue(t, f, v)
            }),
        ),
        KeyField::Sequence { format, .. } => (
            "sequence",
            list![
                field(
                    "digits (0: as many as it takes)",
                    format.width.to_string(),
                    on,
                    move |v| { FormAction::FieldValue(t, f, v) }
                ),
                digit_order(t, f, format.reverse, on),
            ],
        ),
        KeyField::Entity {
            count,
            distribution,
            format,
            ..
        } => {
            let d = match distribution {
                Distribution::Uniform => "uniform",
                Distribution::Zipf { .. } => "zipf",
                Distribution::Recent { .. } => "recent",
            };
            (
                "entity id",
                list![
                    field("entities", count.to_string(), on, move |v| {
                        FormAction::FieldValue(t, f, v)
                    }),
                    select(
                        "drawn",
                        &[
                            ("uniform", "uniformly"),
                            ("zipf", "Zipf, s = 1.1"),
                            ("recent", "most recent first, decay 0.99")
                        ],
                        d,
                        on,
                        move |v| FormAction::FieldDistribution(t, f, v)
                    ),
                    digit_order(t, f, format.reverse, on),
                ],
            )
        }
        KeyField::Timestamp { encoding, .. } => {
            let e = match encoding {
                TimeEncoding::Millis => "millis",
                TimeEncoding::MillisBytes => "millis_bytes",
                TimeEncoding::ReverseDecimal => "reverse_decimal",
                TimeEncoding::ReverseBytes => "reverse_bytes",
            };
            (
                "timestamp",
                select(
                    "written as",
                    &[
                        ("millis", "ms, 13 digits"),
                        ("millis_bytes", "ms, 8 bytes"),
                        ("reverse_decimal", "Long.MAX_VALUE − ms, 19 digits"),
                        ("reverse_bytes", "Long.MAX_VALUE − ms, 8 bytes"),
                    ],
                    e,
                    on,
                    move |v| FormAction::FieldValue(t, f, v),
                ),
            )
        }
        KeyField::Md5 { digits, of, .. } => (
            "MD5 prefix",
            list![
                field("hex digits", digits.to_string(), on, move |v| {
                    FormAction::FieldValue(t, f, v)
                }),
                leaf!("span", "hint", format!(" of {of}")),
            ],
        ),
        KeyField::Salt { buckets, of, .. } => (
            "salt bucket",
            list![
                field("buckets", buckets.to_string(), on, move |v| {
                    FormAction::FieldValue(t, f, v)
                }),
                leaf!(
                    "span",
                    "hint",
                    of.as_ref()
                        .map(|o| format!(" hash of {o}"))
                        .unwrap_or_else(|| " random".into())
                ),
            ],
        ),
        KeyField::Choice { options, .. } => (
            "weighted choice",
            field(
                "options",
                options
                    .iter()
                    .map(|o| o.text.as_str())
                    .collect::<Vec<_>>()
                    .join(","),
                on,
                move |v| FormAction::FieldValue(t, f, v),
            ),
        ),
    };
    let name = if k.name().is_empty() {
        String::new()
    } else {
        format!(" ({})", k.name())
    };
    html! {
        {leaf!("li", "wf-row", list!(@mixed 3;
            leaf!("span", "wf-kind", format!("{}. {kind}{name}", f + 1)),
            setting,
            button("remove", format!("Remove key field {}", f + 1), on, FormAction::RemoveField(t, f)),
        ))}
    }
}

fn operation(t: usize, o: usize, op: &Operation, on: &Form) -> Html {
    let rate = op.rate();
    let curve = match rate.curve {
        Curve::Constant => "constant",
        Curve::Daily { .. } => "daily",
        Curve::Burst { .. } => "burst",
    };
    html! {
        {leaf!("li", "wf-row", list!(@mixed 4;
            leaf!("span", "wf-kind", op.label()),
            field("per second", rate.per_sec.to_string(), on, move |v| FormAction::OperationRate(t, o, v)),
            select("curve", &[("constant", "constant"), ("daily", "daily cycle, peak 14:00"), ("burst", "burst ×5 in hour 2")], curve, on, move |v| FormAction::OperationCurve(t, o, v)),
            button("remove", format!("Remove operation {}", o + 1), on, FormAction::RemoveOperation(t, o)),
        ))}
    }
}

fn adder<K: Copy + PartialEq + 'static>(
    label: &str,
    kinds: &'static [K],
    names: fn(K) -> &'static str,
    on: &Form,
    make: impl Fn(K) -> FormAction + 'static,
) -> Html {
    let labels: Vec<&'static str> = kinds.iter().map(|k| names(*k)).collect();
    let on = on.on.clone();
    let emit = Callback::from(move |i: usize| {
        if let Some(k) = kinds.get(i) {
            on.emit(make(*k));
        }
    });
    add_choice(label, labels, emit)
}

/// The select of [`adder`]: sends the index of the kind chosen, then shows "choose…" again.
fn add_choice(label: &str, labels: Vec<&'static str>, emit: Callback<usize>) -> Html {
    let opts: Html = labels
        .iter()
        .map(|name| html! { <option value={*name}>{*name}</option> })
        .collect();
    let onchange = Callback::from(move |e: Event| {
        let v = super::event_value(&e);
        if let Some(i) = labels.iter().position(|name| *name == v) {
            emit.emit(i);
        }
        if let Some(s) = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok())
        {
            s.set_value("");
        }
    });
    html! { {leaf!("label", "wf-field", list!(@mixed 2;
        @seq(label),
        leaf!(@on "select", [], [onchange(onchange)], html! {<><option value="" selected=true>{"choose…"}</option>{opts}</>}),
    ))} }
}

#[component]
pub fn WorkloadForm(props: &WorkloadFormProps) -> Html {
    let w = &props.workload;
    let on = &Form {
        on: props.on_action.clone(),
        refused: props.refused.clone(),
    };
    let c = &w.cluster;
    const MB: f64 = 1024.0 * 1024.0;
    let policy = match c.split_policy {
        SplitPolicyKind::Stepping => "stepping",
        SplitPolicyKind::IncreasingToUpperBound => "increasing_to_upper_bound",
        SplitPolicyKind::ConstantSize => "constant_size",
        SplitPolicyKind::KeyPrefix { .. } => "key_prefix",
        SplitPolicyKind::None => "none",
    };
    let tables: Html = w
        .tables
        .iter()
        .enumerate()
        .map(|(t, table)| {
            let keys: Html = table.key.iter().enumerate().map(|(f, k)| key_field(t, f, k, on)).collect();
            let columns: Html = table
                .families
                .first()
                .map(|fam| {
                    fam.columns
                        .iter()
                        .enumerate()
                        .map(|(ci, col)| html! {
                            {leaf!("li", "wf-row", list!(@mixed 3;
                                leaf!("span", "wf-kind", format!("{}:", fam.name)),
                                field("qualifier", col.qualifier.clone(), on, move |v| FormAction::ColumnName(t, ci, v)),
                                field("value bytes", col.value_size.to_string(), on, move |v| FormAction::ColumnSize(t, ci, v)),
                            ))}
                        })
                        .collect()
                })
                .unwrap_or_default();
            let ops: Html = table.operations.iter().enumerate().map(|(o, op)| operation(t, o, op, on)).collect();
            html! {
                {leaf!("fieldset", "wf-table", list!(@mixed 11;
                    leaf!("legend", format!("Table {}", t + 1)),
                    leaf!("div", "wf-row", html! {<>
                        {field("name", table.name.clone(), on, move |v| FormAction::TableName(t, v))}
                        if w.tables.len() > 1 { {button("remove table", format!("Remove table {}", table.name), on, FormAction::RemoveTable(t))} }
                    </>}),
                    leaf!("h4", "Row key"),
                    leaf!("ol", "wf-list", keys),
                    adder("add a key field", &FieldKind::ALL, FieldKind::label, on, move |k| FormAction::AddField(t, k)),
                    leaf!("h4", "Columns"),
                    leaf!("ul", "wf-list", columns),
                    button("add a column", format!("Add a column to {}", table.name), on, FormAction::AddColumn(t)),
                    leaf!("h4", "Operations"),
                    leaf!("ul", "wf-list", ops),
                    adder("add an operation", &OpKind::ALL, OpKind::label, on, move |k| FormAction::AddOperation(t, k)),
                ))}
            }
        })
        .collect();
    let hours = w.duration_ms as f64 / 3_600_000.0;
    html! {
        {leaf!("div", "workload-form", list!(@mixed 3;
            leaf!("fieldset", "wf-cluster", list![leaf!("legend", "Run and cluster"), leaf!("div", "wf-grid", list![
                field("hours of traffic", hours.to_string(), on, FormAction::DurationHours),
                field("seed", w.seed.to_string(), on, FormAction::Seed),
                field("region servers", c.region_servers.to_string(), on, FormAction::RegionServers),
                field("MAX_FILESIZE (MB)", (c.max_filesize as f64 / MB).to_string(), on, FormAction::MaxFileSizeMb),
                field("flush size (MB)", (c.flush_size as f64 / MB).to_string(), on, FormAction::FlushSizeMb),
                select("split policy", &[("stepping", "SteppingSplitPolicy (default)"), ("increasing_to_upper_bound", "IncreasingToUpperBound"), ("constant_size", "ConstantSize"), ("key_prefix", "KeyPrefix (4 bytes)"), ("none", "none")], policy, on, FormAction::Policy),
                field("reads/s a server serves", c.server_reads_per_sec.to_string(), on, FormAction::ServerReads),
                field("writes/s a server takes", c.server_writes_per_sec.to_string(), on, FormAction::ServerWrites),
            ])]),
            tables,
            button("add a table", "Add a table".into(), on, FormAction::AddTable),
        ))}
    }
}
