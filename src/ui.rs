//! The browser app: a console over the shell, the tables in a side panel, and views of what
//! HBase hides (regions, sorted row keys, versions, what a read touched). Components only
//! dispatch actions; the app's logic lives in [`crate::session`] (native and tested), which
//! [`state`] calls, performing the effects it returns.

/// `leaf!("p", "hint", child)`: the element `html! { <p class="hint">{child}</p> }` builds,
/// made by one function ([`view_kit::leaf`]) instead of in line at each of the views' several
/// hundred elements without listeners. Without a class: `leaf!("td", child)`; with other static
/// attributes: `leaf!("th", [("scope", "row")], child)`, listed in the order `html!` lists them
/// (the others, the boolean ones, the class); with computed ones:
/// `leaf!(@dyn "rect", [("x", x), ("y", y)], child)`, each value converted as `html!` converts
/// it ([`view_kit::leaf_with`]); with listeners, `leaf!(@on "button", [("class", "link")],
/// [onclick(go)], child)` (or `leaf!(@on @dyn ...)` with computed attributes) makes the
/// listeners as `html!` makes them ([`view_kit::leaf_on`]).
/// The child converts as `html!` converts it; a string literal becomes static text, as in
/// `html!`.
macro_rules! leaf {
    (@on @dyn $tag:literal, [$(($key:literal, $value:expr)),*], [$($event:ident($handler:expr)),*], $($child:tt)+) => {
        $crate::ui::view_kit::leaf_on(
            $tag,
            $crate::ui::view_kit::computed(
                &[$($key),*],
                ::std::boxed::Box::new([$(
                    ::yew::html::IntoPropValue::<::std::option::Option<::yew::virtual_dom::AttrValue>>::into_prop_value($value)
                ),*]),
            ),
            ::yew::virtual_dom::listeners::Listeners::Pending(::std::boxed::Box::new([
                $(::yew::html::$event::Wrapper::__macro_new($handler)),*
            ])),
            leaf!(@child $($child)+),
        )
    };
    (@on $tag:literal, [$(($key:literal, $value:literal)),*], [$($event:ident($handler:expr)),*], $($child:tt)+) => {
        $crate::ui::view_kit::leaf_on(
            $tag,
            ::yew::virtual_dom::Attributes::Static(&[$(($key, ::yew::virtual_dom::AttributeOrProperty::Static($value))),*]),
            ::yew::virtual_dom::listeners::Listeners::Pending(::std::boxed::Box::new([
                $(::yew::html::$event::Wrapper::__macro_new($handler)),*
            ])),
            leaf!(@child $($child)+),
        )
    };
    (@child $text:literal) => {
        $crate::ui::view_kit::text($text)
    };
    (@child $child:expr) => {
        ::yew::html::IntoPropValue::<::yew::Html>::into_prop_value($child)
    };
    (@dyn $tag:literal, [$(($key:literal, $value:expr)),*], $($child:tt)+) => {
        $crate::ui::view_kit::leaf_with(
            $tag,
            &[$($key),*],
            ::std::boxed::Box::new([$(
                ::yew::html::IntoPropValue::<::std::option::Option<::yew::virtual_dom::AttrValue>>::into_prop_value($value)
            ),*]),
            leaf!(@child $($child)+),
        )
    };
    ($tag:literal, [$(($key:literal, $value:literal)),*], $($child:tt)+) => {
        $crate::ui::view_kit::leaf(
            $tag,
            &[$(($key, ::yew::virtual_dom::AttributeOrProperty::Static($value))),*],
            leaf!(@child $($child)+),
        )
    };
    ($tag:literal, $class:literal, $($child:tt)+) => {
        $crate::ui::view_kit::leaf_class($tag, $class, leaf!(@child $($child)+))
    };
    ($tag:literal, $($child:tt)+) => {
        $crate::ui::view_kit::leaf($tag, &[], leaf!(@child $($child)+))
    };
}

/// `list![a, b]`: nodes side by side, the list `html! { <>{a}{b}</> }` makes of them, each
/// pushed into a vector made to size ([`view_kit::list`]) rather than turned into a sequence
/// of one node first, as `html!` turns a `{block}`.
///
/// `list!(@mixed 3; a, @seq(b), c)`: the same with children written `@seq(expr)` added as
/// `html!` adds a `{block}` (a string, an optional node, a vector of nodes: through yew's
/// `NodeSeq`), the others pushed; 3 is how many children there are.
macro_rules! list {
    (@mixed $count:literal; $($all:tt)+) => {{
        let mut nodes: ::std::vec::Vec<::yew::Html> = ::std::vec::Vec::with_capacity($count);
        list!(@add nodes; $($all)+);
        $crate::ui::view_kit::list(nodes)
    }};
    (@add $nodes:ident;) => {};
    (@add $nodes:ident; @seq($seq:expr) $(, $($rest:tt)*)?) => {
        ::std::iter::Extend::extend(
            &mut $nodes,
            ::std::convert::Into::<::yew::utils::NodeSeq<_, _>>::into($seq),
        );
        list!(@add $nodes; $($($rest)*)?);
    };
    (@add $nodes:ident; $node:expr $(, $($rest:tt)*)?) => {
        $nodes.push($node);
        list!(@add $nodes; $($($rest)*)?);
    };
    ($($node:expr),+ $(,)?) => {{
        let mut nodes = ::std::vec::Vec::with_capacity([$(stringify!($node)),+].len());
        $(nodes.push($node);)+
        $crate::ui::view_kit::list(nodes)
    }};
}

mod address;
mod app;
#[cfg(feature = "bench")]
mod bench;
mod cbt_file;
mod clash_dialog;
mod compare_view;
mod console_view;
mod delete_models_view;
mod design_view;
mod dialect_switch;
mod entry_view;
mod figure_export;
mod gallery;
mod hotspots_view;
mod import_dialog;
mod input_box;
mod key_visualizer;
mod keyspace_view;
mod link_dialog;
mod lsm_view;
mod minimap;
mod modal;
mod pair_simulation;
mod prefs;
mod read_view;
mod region_table;
mod regions_view;
mod share_dialog;
mod sidebar;
mod sim_compare;
mod sim_run;
mod simulate_view;
mod state;
mod status_bar;
mod storage;
mod storage_work;
mod tour_view;
mod versions_view;
mod view_kit;
mod views_pane;
mod virtual_text;
mod workload_form;

pub use app::{App, AppProps};
pub use state::{use_app, Action, AppState};

/// Mounts the app on the page body and registers the offline cache.
pub fn mount() {
    if let Some(w) = web_sys::window() {
        let _ = w.navigator().service_worker().register("./sw.js");
        #[cfg(feature = "bench")]
        if w.location().search().unwrap_or_default().contains("bench") {
            bench::expose(&w);
        }
    }
    yew::Renderer::<App>::with_props(AppProps::default()).render();
}

/// The JSON value saved under `key` in the page's local storage read by `read`, or `None` when
/// there is none or it does not read. Read with [`crate::json`], the reader every other saved
/// document goes through, so the page carries one JSON reader, not two.
pub(crate) fn saved_json<T>(
    key: &str,
    read: impl FnOnce(&crate::json::Node) -> Result<T, crate::json::Error>,
) -> Option<T> {
    use gloo::storage::Storage as _;
    let text = gloo::storage::LocalStorage::raw().get_item(key).ok()??;
    let value = crate::json::parse(&text).ok()?;
    read(&crate::json::Node::root(&value)).ok()
}

/// Saves `text` under `key` in the page's local storage (a full storage drops it: what is
/// saved there is a convenience).
pub(crate) fn save_text(key: &str, text: &str) {
    use gloo::storage::Storage as _;
    let _ = gloo::storage::LocalStorage::raw().set_item(key, text);
}

/// Milliseconds since the epoch, from the browser.
pub(crate) fn now_ms() -> u64 {
    js_sys::Date::now() as u64
}

/// A monotonic timer in milliseconds.
pub(crate) fn perf_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or_else(js_sys::Date::now)
}

/// A row key as the person chose to see it: as HBase prints it (`\xHH` for what is not
/// printable ASCII) or as UTF-8 text where it is valid UTF-8 without control characters.
pub(crate) fn show_key(key: &[u8], display: prefs::KeyDisplay) -> String {
    match (display, std::str::from_utf8(key)) {
        (prefs::KeyDisplay::Utf8, Ok(text)) if !text.chars().any(char::is_control) => {
            text.to_string()
        }
        _ => crate::bytes::to_printable(key),
    }
}

/// Moves the keyboard focus to the element of id `id`, if there is one.
pub(crate) fn focus_id(id: &str) {
    use wasm_bindgen::JsCast;
    if let Some(el) = gloo::utils::document()
        .get_element_by_id(id)
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

/// Scrolls the first element matching `selector` to the top of its scrolling pane (or of the
/// page, when the panes stack), so what a click just opened is in sight.
pub(crate) fn bring_into_view(selector: &str) {
    let Ok(Some(el)) = gloo::utils::document().query_selector(selector) else {
        return;
    };
    let options = web_sys::ScrollIntoViewOptions::new();
    options.set_block(web_sys::ScrollLogicalPosition::Start);
    el.scroll_into_view_with_scroll_into_view_options(&options);
}

/// Brings the numbers a pattern or tour step just produced and the view that explains them into
/// sight together. Beside the console (a window over 900 px wide) the design card is at most
/// about half the pane high and scrolls on its own, so the card is brought to the top of the
/// pane, its numbers into the card's sight, and the view stays in sight below it. Where the
/// panes stack, the page scrolls to the numbers, with the view after them. Without a design
/// card, the view is brought to the top.
pub(crate) fn show_numbers_with_view() {
    let document = gloo::utils::document();
    let numbers = document
        .query_selector(".design-card .lesson, .design-card .tour-claims")
        .ok()
        .flatten();
    let Some(numbers) = numbers else {
        bring_into_view(".views-pane");
        return;
    };
    let beside = gloo::utils::window()
        .match_media("(min-width: 901px)")
        .ok()
        .flatten()
        .is_some_and(|m| m.matches());
    let options = web_sys::ScrollIntoViewOptions::new();
    if beside {
        options.set_block(web_sys::ScrollLogicalPosition::Nearest);
        numbers.scroll_into_view_with_scroll_into_view_options(&options);
        bring_into_view(".design-card");
    } else {
        options.set_block(web_sys::ScrollLogicalPosition::Start);
        numbers.scroll_into_view_with_scroll_into_view_options(&options);
    }
}

/// Brings what a click or Enter just opened into sight and moves the keyboard focus to its
/// heading (which takes focus by `tabindex="-1"`), so the next Tab walks it.
pub(crate) fn open_here(card: &str, heading: &str) {
    use wasm_bindgen::JsCast;
    bring_into_view(card);
    let found = gloo::utils::document()
        .query_selector(heading)
        .ok()
        .flatten()
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(el) = found {
        let _ = el.focus();
    }
}

/// The value of the input, select or text area an event came from (empty for anything else).
pub(crate) fn event_value(e: &yew::Event) -> String {
    use wasm_bindgen::JsCast;
    let Some(t) = e.target() else {
        return String::new();
    };
    if let Some(i) = t.dyn_ref::<web_sys::HtmlInputElement>() {
        return i.value();
    }
    if let Some(a) = t.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        return a.value();
    }
    t.dyn_ref::<web_sys::HtmlSelectElement>()
        .map(|s| s.value())
        .unwrap_or_default()
}

/// The file a file input's change event chose. The input is emptied, so that choosing the same
/// file again is a change too.
pub(crate) fn chosen_file(e: &yew::Event) -> Option<web_sys::File> {
    use wasm_bindgen::JsCast;
    let input = e.target()?.dyn_into::<web_sys::HtmlInputElement>().ok()?;
    let file = input.files()?.get(0)?;
    input.set_value("");
    Some(file)
}

/// Offers `text` as a file named `name`; `None` when the browser would not.
pub(crate) fn download(name: &str, mime: &str, text: &str) -> Option<()> {
    let parts = js_sys::Array::of1(&text.into());
    let bag = web_sys::BlobPropertyBag::new();
    bag.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &bag).ok()?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
    let offered = download_url(name, &url);
    // The browser reads the blob after the click returns: revoked at once, a busy page's
    // download can find it gone and silently fail.
    gloo::timers::callback::Timeout::new(60_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
    offered
}

/// Offers what `url` (an object or data URL) holds as a file named `name`.
pub(crate) fn download_url(name: &str, url: &str) -> Option<()> {
    use wasm_bindgen::JsCast;
    let a: web_sys::HtmlAnchorElement = gloo::utils::document()
        .create_element("a")
        .ok()?
        .dyn_into()
        .ok()?;
    a.set_href(url);
    a.set_download(name);
    a.click();
    Some(())
}
