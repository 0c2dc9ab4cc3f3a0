//! The input: a textarea over a copy of its text coloured by the shell's own lexer; Enter runs
//! (or continues a line left open, as the HBase shell does), Shift+Enter adds a line, Tab
//! completes from the live schema, Up/Down walk the history, Ctrl+C stops a running batch.
//! In cbt mode (Alt+M) a line is cbt's: plain text, Enter runs it, and the timestamp lint
//! warns under the input before it runs.

use web_sys::{HtmlTextAreaElement, KeyboardEvent};
use yew::prelude::*;

use super::dialect_switch::DialectSwitch;
use super::state::use_app;
use super::storage::Mode;
use crate::cbt;
use crate::dialect::{lint_cbt, Dialect};
use crate::session::Action;
use crate::shell::{complete, highlight, is_incomplete, open_at_end};

/// Inputs longer than this are not coloured (a big paste stays fast to edit).
const HIGHLIGHT_LIMIT: usize = 10_000;
/// Completions listed at most.
const LISTED: usize = 60;

/// Splits text at a caret position given in UTF-16 units, as the DOM reports it.
fn split_utf16(text: &str, units: u32) -> (&str, &str) {
    let mut seen = 0u32;
    for (i, c) in text.char_indices() {
        if seen >= units {
            return text.split_at(i);
        }
        seen += c.len_utf16() as u32;
    }
    (text, "")
}

fn utf16_len(text: &str) -> u32 {
    text.chars().map(|c| c.len_utf16() as u32).sum()
}

/// The input's text as coloured spans.
fn coloured(text: &str) -> Html {
    let mut out: Vec<Html> = Vec::new();
    let mut at = 0;
    for (range, class) in highlight(text) {
        if range.start < at || range.end > text.len() {
            continue;
        }
        if let Some(gap) = text.get(at..range.start) {
            out.push(html! { {gap} });
        }
        if let Some(piece) = text.get(range.clone()) {
            out.push(
                html! { {leaf!(@dyn "span", [("class", crate::ui::view_kit::classes(&[class.css()]))], piece)} },
            );
            at = range.end;
        }
    }
    if let Some(rest) = text.get(at..) {
        out.push(html! { {rest} });
    }
    // A trailing newline needs something after it to take up its line.
    out.push(html! { {" "} });
    out.into_iter().collect()
}

/// An open list of completions: where they go and which one is chosen.
#[derive(Clone, PartialEq)]
struct Choices {
    replace: std::ops::Range<usize>,
    candidates: Vec<String>,
    chosen: usize,
}

/// Runs the input. The textarea is emptied at once when the run is accepted: a large paste left
/// in it until the next render would be laid out once more, which costs more than the paste runs.
fn submit(app: &super::state::AppHandle, el: &HtmlTextAreaElement, value: String) {
    if app.can_run() {
        el.set_value("");
    }
    app.dispatch(Action::Submit(value).into());
}

fn set_text(el: &HtmlTextAreaElement, text: &str, caret_bytes: usize) {
    el.set_value(text);
    let caret = utf16_len(text.get(..caret_bytes).unwrap_or(text));
    let _ = el.set_selection_range(caret, caret);
}

#[component]
pub fn InputBox() -> Html {
    let app = use_app();
    let input_ref = use_node_ref();
    let overlay_ref = use_node_ref();
    let draft = use_state(String::new);
    let choices = use_state(|| None::<Choices>);
    // Set by Up as it walks back: the entry it brings is shown with the caret at its start, so
    // that the next Up goes on to the one before instead of climbing a recalled paste line by
    // line (Down leaves the caret at the end, for the next Down).
    let walked_up = use_mut_ref(|| false);
    let serial = app.as_ref().map(|a| a.input_serial).unwrap_or(0);
    let ready = app
        .as_ref()
        .is_some_and(|a| a.storage.borrow().mode != Mode::Loading);
    {
        let input_ref = input_ref.clone();
        let draft = draft.clone();
        let choices = choices.clone();
        let text = app.as_ref().map(|a| a.input.clone()).unwrap_or_default();
        let walked_up = walked_up.clone();
        // Also once the tables have loaded: the input is disabled until then, so a keyboard
        // user starts in it rather than thirty Tab presses away.
        use_effect_with((serial, ready), move |_| {
            if let Some(el) = input_ref.cast::<HtmlTextAreaElement>() {
                el.set_value(&text);
                let up = std::mem::take(&mut *walked_up.borrow_mut());
                let at = match up && text.contains('\n') {
                    true => 0,
                    false => utf16_len(&text),
                };
                let _ = el.set_selection_range(at, at);
                let _ = el.focus();
            }
            draft.set(text);
            choices.set(None);
        });
    }
    let Some(app) = app else { return html! {} };
    let oninput = {
        let draft = draft.clone();
        let choices = choices.clone();
        let input_ref = input_ref.clone();
        Callback::from(move |_: InputEvent| {
            if let Some(el) = input_ref.cast::<HtmlTextAreaElement>() {
                draft.set(el.value());
            }
            if choices.is_some() {
                choices.set(None);
            }
        })
    };
    let onscroll = {
        let input_ref = input_ref.clone();
        let overlay_ref = overlay_ref.clone();
        Callback::from(move |_: Event| {
            if let (Some(el), Some(ov)) = (
                input_ref.cast::<HtmlTextAreaElement>(),
                overlay_ref.cast::<web_sys::HtmlElement>(),
            ) {
                ov.set_scroll_top(el.scroll_top());
            }
        })
    };
    let accept = {
        let draft = draft.clone();
        let choices = choices.clone();
        move |el: &HtmlTextAreaElement, value: &str, c: &Choices, pick: &str| {
            let start = c.replace.start.min(value.len());
            let end = c.replace.end.clamp(start, value.len());
            if !value.is_char_boundary(start) || !value.is_char_boundary(end) {
                return;
            }
            let text = format!("{}{}{}", &value[..start], pick, &value[end..]);
            set_text(el, &text, start + pick.len());
            draft.set(text);
            choices.set(None);
        }
    };
    let onkeydown = {
        let app = app.clone();
        let input_ref = input_ref.clone();
        let choices = choices.clone();
        let walked_up = walked_up.clone();
        Callback::from(move |e: KeyboardEvent| {
            let Some(el) = input_ref.cast::<HtmlTextAreaElement>() else {
                return;
            };
            let value = el.value();
            let open = (*choices).clone();
            let key = e.key();
            let cbt = app.console.borrow().dialect == Dialect::Cbt;
            match key.as_str() {
                // Alt+M switches the dialect (by the key's place: Alt+M types µ on a Mac).
                _ if e.alt_key() && e.code() == "KeyM" => {
                    e.prevent_default();
                    let other = app.console.borrow().dialect.other();
                    app.dispatch(Action::SetDialect(other).into());
                }
                // cbt reads one line at a time: Enter runs, and nothing completes.
                "Enter" if cbt && !e.shift_key() => {
                    e.prevent_default();
                    submit(&app, &el, value);
                }
                "Tab" if cbt => {}
                "Escape" if open.is_some() => {
                    e.prevent_default();
                    choices.set(None);
                }
                "ArrowDown" | "ArrowUp" if open.is_some() => {
                    e.prevent_default();
                    if let Some(mut c) = open {
                        let n = c.candidates.len().max(1);
                        c.chosen = if key == "ArrowDown" {
                            (c.chosen + 1) % n
                        } else {
                            (c.chosen + n - 1) % n
                        };
                        choices.set(Some(c));
                    }
                }
                "Enter" | "Tab" if open.is_some() && !e.shift_key() => {
                    e.prevent_default();
                    if let Some(c) = open {
                        if let Some(pick) = c.candidates.get(c.chosen) {
                            accept(&el, &value, &c, pick);
                        }
                    }
                }
                "Tab" if !e.shift_key() && !value.trim().is_empty() => {
                    let caret =
                        split_utf16(&value, el.selection_start().ok().flatten().unwrap_or(0))
                            .0
                            .len();
                    let found = {
                        let console = app.console.borrow();
                        match console.dialect {
                            Dialect::HBase => complete(&value, caret, &console.shell.engine),
                            Dialect::Cbt => cbt::complete(&value, caret, &console.shell.engine),
                        }
                    };
                    if found.candidates.is_empty() {
                        // Nothing to complete: Tab moves on, as everywhere else.
                        return;
                    }
                    e.prevent_default();
                    let c = Choices {
                        replace: found.replace.clone(),
                        candidates: found.candidates.clone(),
                        chosen: 0,
                    };
                    if found.candidates.len() == 1 {
                        accept(&el, &value, &c, &found.candidates[0]);
                        return;
                    }
                    let common = found.common();
                    let typed = value.get(found.replace.clone()).unwrap_or("");
                    if common.len() > typed.len() {
                        accept(&el, &value, &c, &common);
                        let replace = c.replace.start..c.replace.start + common.len();
                        choices.set(Some(Choices { replace, ..c }));
                    } else {
                        choices.set(Some(c));
                    }
                }
                // Ctrl+Enter runs the input as it is, open string or not.
                "Enter"
                    if e.ctrl_key()
                        || e.meta_key()
                        || (!e.shift_key() && !is_incomplete(&value)) =>
                {
                    e.prevent_default();
                    submit(&app, &el, value);
                }
                "c" | "C" if e.ctrl_key() && app.console.borrow().is_running() => {
                    let selected =
                        el.selection_start().ok().flatten() != el.selection_end().ok().flatten();
                    if !selected {
                        e.prevent_default();
                        app.dispatch(Action::Cancel.into());
                    }
                }
                "l" | "L" if e.ctrl_key() => {
                    e.prevent_default();
                    app.dispatch(Action::ClearScreen.into());
                }
                "ArrowUp"
                    if !split_utf16(&value, el.selection_start().ok().flatten().unwrap_or(0))
                        .0
                        .contains('\n') =>
                {
                    e.prevent_default();
                    *walked_up.borrow_mut() = true;
                    app.dispatch(Action::HistoryUp(value).into());
                }
                "ArrowDown"
                    if !split_utf16(&value, el.selection_end().ok().flatten().unwrap_or(0))
                        .1
                        .contains('\n') =>
                {
                    e.prevent_default();
                    app.dispatch(Action::HistoryDown.into());
                }
                _ => {}
            }
        })
    };
    let onblur = {
        let choices = choices.clone();
        Callback::from(move |_: FocusEvent| choices.set(None))
    };
    let loading = app.storage.borrow().mode == Mode::Loading;
    let (running, next, dialect) = {
        let c = app.console.borrow();
        (c.is_running(), c.next_number(), c.dialect)
    };
    let cbt = dialect == Dialect::Cbt;
    let cancel = {
        let app = app.clone();
        Callback::from(move |_| app.dispatch(Action::Cancel.into()))
    };
    let plain = cbt || draft.len() > HIGHLIGHT_LIMIT;
    // Why Enter would continue the entry rather than run it.
    let open = (!plain).then(|| open_at_end(&draft)).flatten();
    // Timestamps that look like epoch milliseconds, before the line runs.
    let lint = if cbt && draft.len() <= HIGHLIGHT_LIMIT {
        lint_cbt(&draft, &app.console.borrow().shell.engine)
    } else {
        Vec::new()
    };
    // Always there, so that the input beside it is never re-created as warnings come and go.
    let lint = {
        let items: Html = lint
            .iter()
            .map(|w| html! { {leaf!("li", w.as_str())} })
            .collect();
        let shown = !lint.is_empty();
        html! { {leaf!("div", [("role", "status"), ("class", "lint-region")], html! {<>if shown { {leaf!("ul", [("aria-label", "Warnings"), ("class", "lint")], items)} }</>})} }
    };
    let list = (*choices).as_ref().map(|c| {
        let items: Html = c
            .candidates
            .iter()
            .take(LISTED)
            .enumerate()
            .map(|(i, s)| {
                let chosen = i == c.chosen;
                html! { {leaf!(@dyn "li", [("id", format!("completion-{i}")), ("role", "option"), ("aria-selected", chosen.to_string())], s.clone())} }
            })
            .collect();
        html! { {leaf!("ul", [("id", "completions"), ("role", "listbox"), ("aria-label", "Completions"), ("class", "completions")], items)} }
    });
    let active = (*choices)
        .as_ref()
        .map(|c| format!("completion-{}", c.chosen));
    // The textarea as `html!` builds it (its attributes in its order, the class last), its class
    // without yew's `Classes` (view_kit::classes).
    let textarea: Html = yew::virtual_dom::VTag::__new_textarea(
        None,
        None,
        input_ref,
        None,
        yew::virtual_dom::Attributes::Dynamic {
            keys: &[
                "id",
                "rows",
                "spellcheck",
                "autocomplete",
                "autocapitalize",
                "placeholder",
                "aria-label",
                "aria-describedby",
                "aria-controls",
                "aria-activedescendant",
                "disabled",
                "class",
            ],
            values: Box::new(
                [
                    Some(AttrValue::Static("console-input")),
                    Some(AttrValue::Static("2")),
                    Some(AttrValue::Static("false")),
                    Some(AttrValue::Static("off")),
                    Some(AttrValue::Static("off")),
                    Some(AttrValue::Static(if loading {
                        "Loading your tables…"
                    } else if cbt {
                        "createtable t families=cf"
                    } else {
                        "create 't', 'f'"
                    })),
                    Some(AttrValue::Static(if cbt {
                        "cbt command"
                    } else {
                        "HBase shell command"
                    })),
                    Some(AttrValue::Static("input-hint")),
                    choices
                        .is_some()
                        .then_some(AttrValue::Static("completions")),
                    active.map(AttrValue::from),
                    crate::ui::view_kit::flag(loading, "disabled"),
                    Some(AttrValue::Static(if plain {
                        "input plain"
                    } else {
                        "input"
                    })),
                ]
                .map(|v| v.map(yew::virtual_dom::AttributeOrProperty::Attribute)),
            ),
        },
        yew::virtual_dom::listeners::Listeners::Pending(Box::new([
            yew::html::oninput::Wrapper::__macro_new(oninput),
            yew::html::onkeydown::Wrapper::__macro_new(onkeydown),
            yew::html::onscroll::Wrapper::__macro_new(onscroll),
            yew::html::onblur::Wrapper::__macro_new(onblur),
        ])),
    )
    .into();
    list![
        leaf!(
            "div",
            "input-row",
            html! {<>
                {list}
                <DialectSwitch />
                if cbt { <super::cbt_file::CbtFile /> }
                {leaf!("span", [("aria-hidden", "true"), ("class", "prompt")], dialect.prompt(next).trim_end().to_string())}
                {leaf!("div", "editor", html! {<>
                    if !plain {
                        <pre class="highlight" ref={overlay_ref} aria-hidden="true">{coloured(&draft)}</pre>
                    }
                    {textarea}
                </>})}
                if running {
                    {leaf!(@on "button", [("class", "action")], [onclick(cancel)], "Cancel")}
                }
            </>}
        ),
        lint,
        leaf!(
            "div",
            [("id", "input-hint"), ("class", "hint-line")],
            html! {<>
                if running {
                    {"A batch is running: Ctrl+C or Cancel stops it; what ran is kept."}
                } else if cbt {
                    {leaf!("kbd", "Enter")}{" runs each line as cbt · "}{leaf!("kbd", "Shift+Enter")}{" new line · "}{leaf!("kbd", "↑")}{" history · "}{leaf!("kbd", "Alt+M")}{" HBase shell"}
                } else if let Some(open) = open {
                    {leaf!("span", "open-note", format!("Enter continues on a new line: {}. ", open.describe()))}
                    {leaf!("kbd", "Ctrl+Enter")}{" runs it as it is."}
                } else {
                    {leaf!("kbd", "Enter")}{" runs · "}{leaf!("kbd", "Shift+Enter")}{" new line · "}{leaf!("kbd", "Ctrl+Enter")}{" runs an open line · "}{leaf!("kbd", "Tab")}{" completes · "}{leaf!("kbd", "↑")}{" history"}
                }
            </>}
        ),
    ]
}
