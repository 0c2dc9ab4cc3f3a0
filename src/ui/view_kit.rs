//! What the views share: drawing only while shown ([`use_shown`]), the export buttons under a
//! figure ([`FigureExport`]), the notice for a table dropped while on show, claims as a list of
//! marks ([`checks`]), and the benchmark hook that records how long a view took to draw ([`timed`], [`ViewClock`]:
//! only a build with the `bench` feature records). A view imports these from here, never from
//! another view.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

pub use super::figure_export::FigureExport;

/// An element of static attributes around one child: what `html!` builds for
/// `<p class="hint">{child}</p>` (`VTag::__new_other`, the constructor its expansion calls), in
/// one place. The views call it through the [`leaf!`] macro.
pub fn leaf(
    tag: &'static str,
    attributes: &'static [(&'static str, yew::virtual_dom::AttributeOrProperty)],
    child: Html,
) -> Html {
    leaf_on(
        tag,
        yew::virtual_dom::Attributes::Static(attributes),
        yew::virtual_dom::listeners::Listeners::None,
        child,
    )
}

/// An element of computed attributes (`keys` and their values, as `html!` lists them) around
/// one child, without listeners: what `html!` builds for `<rect x={x} y={y} />`, in one place.
pub fn leaf_with(
    tag: &'static str,
    keys: &'static [&'static str],
    values: Box<[Option<AttrValue>]>,
    child: Html,
) -> Html {
    leaf_on(
        tag,
        computed(keys, values),
        yew::virtual_dom::listeners::Listeners::None,
        child,
    )
}

/// Computed attributes as `html!` makes them (`keys` and their values, each one there an
/// attribute): the views pass the values, and each is wrapped here rather than at its site.
pub fn computed(
    keys: &'static [&'static str],
    values: Box<[Option<AttrValue>]>,
) -> yew::virtual_dom::Attributes {
    yew::virtual_dom::Attributes::Dynamic {
        keys,
        values: values
            .into_vec()
            .into_iter()
            .map(|v| v.map(yew::virtual_dom::AttributeOrProperty::Attribute))
            .collect(),
    }
}

/// An element of one static class around one child: what `html!` builds for
/// `<p class="hint">{child}</p>`, the class passed as a string rather than as a static list of
/// attributes, a slice in the data for each element.
pub fn leaf_class(tag: &'static str, class: &'static str, child: Html) -> Html {
    leaf_on(
        tag,
        yew::virtual_dom::Attributes::Dynamic {
            keys: &["class"],
            values: Box::new([Some(yew::virtual_dom::AttributeOrProperty::Static(class))]),
        },
        yew::virtual_dom::listeners::Listeners::None,
        child,
    )
}

/// An element with listeners (its attributes and listeners as `html!` makes them) around one
/// child: what `html!` builds for `<button class="link" {onclick}>{"Run"}</button>`.
pub fn leaf_on(
    tag: &'static str,
    attributes: yew::virtual_dom::Attributes,
    listeners: yew::virtual_dom::listeners::Listeners,
    child: Html,
) -> Html {
    yew::virtual_dom::VTag::__new_other(
        AttrValue::Static(tag),
        NodeRef::default(),
        None,
        attributes,
        listeners,
        child,
    )
    .into()
}

/// An option of a select, `<option value={value} selected={selected}>{label}</option>`, built
/// in one place.
pub fn option(value: AttrValue, selected: bool, label: Html) -> Html {
    leaf_with(
        "option",
        &["value", "selected"],
        Box::new([Some(value), flag(selected, "selected")]),
        label,
    )
}

/// A boolean attribute as `html!` writes `disabled={on}`: its name when on, absent when off.
pub fn flag(on: bool, name: &'static str) -> Option<AttrValue> {
    on.then_some(AttrValue::Static(name))
}

/// A `class` attribute as `classes!` and `html!`'s `class={...}` make it, without yew's
/// `Classes` (a set, whose code the page would carry for these few elements): each part's
/// words (split at whitespace) in order, a word once however often it comes, and no attribute
/// when there is no word. `classes(&["entry", ""])` is `entry`.
pub fn classes(parts: &[&str]) -> Option<AttrValue> {
    let mut out = String::new();
    for word in parts.iter().flat_map(|part| part.split_whitespace()) {
        if !out.split(' ').any(|seen| seen == word) {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(word);
        }
    }
    (!out.is_empty()).then(|| AttrValue::from(out))
}

/// Nodes side by side: what `html! { <>{a}{b}</> }` makes of them (a list without a key). The
/// views call it through the [`list!`] macro.
pub fn list(children: Vec<Html>) -> Html {
    Html::VList(Rc::new(yew::virtual_dom::VList::with_children(
        children, None,
    )))
}

/// Static text, as `html!` makes a string literal child.
#[inline(never)]
pub fn text(text: &'static str) -> Html {
    yew::virtual_dom::VText::new(AttrValue::Static(text)).into()
}

/// Whether the panel a view sits in is the one shown.
#[derive(Clone, Copy, PartialEq)]
pub struct Shown(pub bool);

/// What a view draws from (its memo key): the current one while its panel is shown; while
/// hidden, the one it drew last, so a hidden view does no work until it is shown again (then
/// it catches up once). Views outside the pane are always shown.
#[hook]
pub fn use_shown<K: Clone + 'static>(key: K) -> K {
    let shown = use_context::<Shown>().is_none_or(|s| s.0);
    let last = use_mut_ref(|| key.clone());
    if shown {
        *last.borrow_mut() = key;
    }
    let drawn = last.borrow().clone();
    drawn
}

/// Says which table was dropped while shown, once, and remembers the table shown now.
pub fn dropped_notice(
    last_shown: &Rc<RefCell<Option<String>>>,
    now: Option<&str>,
    exists: impl Fn(&str) -> bool,
) -> Html {
    let mut last = last_shown.borrow_mut();
    let gone = last
        .as_deref()
        .filter(|t| Some(*t) != now && !exists(t))
        .map(str::to_string);
    *last = now.map(str::to_string);
    match gone {
        Some(t) => html! {
            {leaf!("p", [("role", "status"), ("class", "notice")], format!("Table '{t}' was dropped while shown; its view is gone."))}
        },
        None => html! {},
    }
}

/// Claims as a list of marks: ✓ held, ✗ broken.
pub fn checks(items: impl Iterator<Item = (String, bool)>) -> Html {
    items
        .map(|(text, held)| {
            let mark = if held { "✓" } else { "✗" };
            let class = if held { "held" } else { "broken" };
            html! {
                {leaf!(@dyn "li", [("class", classes(&["claim", class]))], list!(@mixed 3;
                    leaf!("span", [("aria-hidden", "true"), ("class", "claim-mark")], mark),
                    leaf!("span", "visually-hidden", if held { "holds: " } else { "does not hold: " }),
                    @seq(text),
                ))}
            }
        })
        .collect()
}

/// Draws with `draw`, recording its time as the view `name`'s (see [`ViewClock`]).
pub fn timed<T>(name: &str, draw: impl FnOnce() -> T) -> T {
    let clock = ViewClock::start();
    let out = draw();
    clock.stop(name);
    out
}

/// A view's drawing time, started where its drawing starts. With the `bench` feature,
/// [`ViewClock::stop`] adds it to `window.__rowkeyViewMs[name]` when a benchmark set that
/// object up (`tests/e2e/bench-lsm.mjs`); in other builds it is empty and reads no clock.
pub struct ViewClock {
    #[cfg(feature = "bench")]
    started: f64,
}

impl ViewClock {
    pub fn start() -> ViewClock {
        ViewClock {
            #[cfg(feature = "bench")]
            started: super::perf_ms(),
        }
    }

    #[cfg(not(feature = "bench"))]
    pub fn stop(self, _name: &str) {}

    #[cfg(feature = "bench")]
    pub fn stop(self, name: &str) {
        use wasm_bindgen::JsValue;
        let Some(w) = web_sys::window() else {
            return;
        };
        let Ok(sink) = js_sys::Reflect::get(&w, &JsValue::from_str("__rowkeyViewMs")) else {
            return;
        };
        if !sink.is_object() {
            return;
        }
        let key = JsValue::from_str(name);
        let sum = js_sys::Reflect::get(&sink, &key)
            .ok()
            .and_then(|v| v.as_f64())
            .unwrap_or(0.0);
        let _ = js_sys::Reflect::set(
            &sink,
            &key,
            &JsValue::from_f64(sum + super::perf_ms() - self.started),
        );
    }
}
