//! A long text in a scroll box that renders only the lines in view. Copying from it yields the
//! whole text when the selection covers what is shown (Ctrl+A in the box selects it all).

use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::{ClipboardEvent, Element, HtmlElement, KeyboardEvent};
use yew::prelude::*;

/// Pixel height of one line: the console's `--line-height`.
pub const LINE_PX: f64 = 19.5;
/// Lines rendered above and below the view.
const OVERSCAN: usize = 20;
/// Lines the box shows before it scrolls (matches `.vtext`'s max-height).
const VIEW_LINES: usize = 28;

#[derive(Properties, PartialEq)]
pub struct VirtualTextProps {
    pub text: Rc<String>,
    #[prop_or_default]
    pub label: AttrValue,
}

/// Byte offsets where each line starts.
fn line_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    if starts.len() > 1 && starts.last() == Some(&text.len()) {
        starts.pop();
    }
    starts
}

#[component]
pub fn VirtualText(props: &VirtualTextProps) -> Html {
    let starts = {
        let text = props.text.clone();
        use_memo(Rc::as_ptr(&props.text) as usize, move |_| {
            line_starts(&text)
        })
    };
    let first = use_state(|| 0usize);
    let all_selected = use_mut_ref(|| false);
    let lines = starts.len();
    let onscroll = {
        let first = first.clone();
        Callback::from(move |e: Event| {
            if let Some(el) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) {
                let top = (el.scroll_top() as f64 / LINE_PX).floor() as usize;
                first.set(top.saturating_sub(OVERSCAN));
            }
        })
    };
    let oncopy = {
        let text = props.text.clone();
        let all_selected = all_selected.clone();
        Callback::from(move |e: Event| {
            if !*all_selected.borrow() {
                return;
            }
            let Ok(e) = e.dyn_into::<ClipboardEvent>() else {
                return;
            };
            if let Some(data) = e.clipboard_data() {
                if data.set_data("text/plain", &text).is_ok() {
                    e.prevent_default();
                }
            }
        })
    };
    let onkeydown = {
        let all_selected = all_selected.clone();
        Callback::from(move |e: KeyboardEvent| {
            if (e.ctrl_key() || e.meta_key()) && e.key().eq_ignore_ascii_case("a") {
                // Select what is rendered, and remember that the whole text is meant.
                if let Some(el) = e
                    .current_target()
                    .and_then(|t| t.dyn_into::<HtmlElement>().ok())
                {
                    if let Some(sel) = gloo::utils::window().get_selection().ok().flatten() {
                        let _ = sel.select_all_children(&el);
                        e.prevent_default();
                        *all_selected.borrow_mut() = true;
                    }
                }
            }
        })
    };
    let onmousedown = {
        let all_selected = all_selected.clone();
        Callback::from(move |_| *all_selected.borrow_mut() = false)
    };
    let from = (*first).min(lines.saturating_sub(1));
    let to = (from + VIEW_LINES + 2 * OVERSCAN).min(lines);
    let text = props.text.as_str();
    let rows: Html = (from..to)
        .map(|i| {
            let start = starts.get(i).copied().unwrap_or(text.len());
            let end = starts
                .get(i + 1)
                .map(|e| e - 1)
                .unwrap_or(text.len())
                .max(start);
            let line = text.get(start..end).unwrap_or("");
            let class = line.starts_with("ERROR").then_some("err");
            html! { {leaf!(@dyn "div", [("class", crate::ui::view_kit::classes(&[class.unwrap_or_default()]))], line)} }
        })
        .collect();
    let height = format!("height:{}px", lines as f64 * LINE_PX);
    let offset = format!("transform:translateY({}px)", from as f64 * LINE_PX);
    html! {
        {leaf!(@on @dyn "div", [("tabindex", "0"), ("role", "region"), ("aria-label", props.label.clone()), ("data-lines", lines.to_string()), ("class", "vtext")], [onscroll(onscroll), oncopy(oncopy), onkeydown(onkeydown), onmousedown(onmousedown)], leaf!(@dyn "div", [("style", height)], leaf!(@dyn "pre", [("style", offset)], rows)))}
    }
}
