//! The app in a real browser (wasm-bindgen-test, headless Chromium): mounting, running commands
//! from the keyboard, errors with their span marked, user text rendered as text.
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use rowkey::ui::{App, AppProps};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlTextAreaElement, KeyboardEvent, KeyboardEventInit};

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts an app on its own database and waits until it is ready to save.
async fn mount(database: &'static str) -> Element {
    let document = gloo::utils::document();
    let root = document.create_element("div").expect("create div");
    gloo::utils::body().append_child(&root).expect("append");
    yew::Renderer::<App>::with_root_and_props(
        root.clone(),
        AppProps {
            database: database.into(),
        },
    )
    .render();
    for _ in 0..200 {
        settle().await;
        if root.query_selector(".status.ok").ok().flatten().is_some() {
            return root;
        }
    }
    panic!("the app did not get ready to save");
}

async fn settle() {
    yew::platform::time::sleep(Duration::from_millis(30)).await;
}

async fn type_command(root: &Element, text: &str) {
    let input: HtmlTextAreaElement = root
        .query_selector("textarea.input")
        .ok()
        .flatten()
        .expect("input")
        .dyn_into()
        .expect("textarea");
    let entries_before = root.query_selector_all(".entry").expect("query").length();
    input.set_value(text);
    let init = KeyboardEventInit::new();
    init.set_key("Enter");
    init.set_bubbles(true);
    init.set_cancelable(true);
    let event = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).expect("event");
    input.dispatch_event(&event).expect("dispatch");
    // A loaded machine may take longer than one pause to show the command's entry.
    for _ in 0..200 {
        settle().await;
        if root.query_selector_all(".entry").expect("query").length() > entries_before {
            return;
        }
    }
    panic!("no entry appeared for {text}");
}

fn texts(root: &Element, selector: &str) -> Vec<String> {
    let list = root.query_selector_all(selector).expect("query");
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.text_content())
        .collect()
}

#[wasm_bindgen_test]
async fn commands_run_from_the_keyboard_and_tables_appear() {
    let root = mount("rowkey-web-test-1").await;
    type_command(&root, "create 'web', 'f'").await;
    type_command(&root, "put 'web', 'k1', 'f:q', 'v1'").await;
    type_command(&root, "scan 'web'").await;
    let outputs = texts(&root, ".entry .output");
    assert!(
        outputs
            .iter()
            .any(|o| o.contains(" k1 column=f:q, timestamp=") && o.contains("value=v1")),
        "{outputs:?}"
    );
    assert!(texts(&root, ".table-name")
        .iter()
        .any(|t| t.starts_with("web")));
    assert_eq!(texts(&root, ".krow.read .kk"), vec!["k1".to_string()]);
}

#[wasm_bindgen_test]
async fn errors_mark_the_span_and_user_text_stays_text() {
    let root = mount("rowkey-web-test-2").await;
    type_command(&root, "create 'x', 'f'").await;
    type_command(
        &root,
        "put 'x', '<img src=x onerror=alert(1)>', 'f:q', '<b>bold</b>'",
    )
    .await;
    type_command(&root, "get 'nope', 'r'").await;
    assert_eq!(texts(&root, "mark.error-span"), vec!["'nope'".to_string()]);
    assert!(
        root.query_selector("img").ok().flatten().is_none(),
        "a row key is never markup"
    );
    assert!(root.query_selector(".output b").ok().flatten().is_none());
    type_command(&root, "scan 'x'").await;
    assert!(texts(&root, ".entry .output")
        .iter()
        .any(|o| o.contains("value=<b>bold</b>")));
}
