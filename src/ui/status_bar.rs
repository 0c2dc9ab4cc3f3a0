//! The header: where the tables are saved, how much storage they use, and export, import and
//! reset.

use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::download;
use super::prefs::{CbtZone, KeyDisplay, Prefs, Theme, Timestamps};
use super::state::{use_app, use_status, Action};
use super::storage::Mode;
use std::rc::Rc;

use crate::designs::loads::Placement;
use crate::persist::{export_json, export_kept_runs, export_script, read_export, ExportFile};
use crate::session::Action as SessionAction;
use crate::session::Choice;

#[component]
pub fn StatusBar() -> Html {
    let Some(app) = use_app() else {
        return html! {};
    };
    let _status = use_status();
    let file_ref = use_node_ref();
    let storage = app.storage.borrow();
    let queue = &storage.queue;
    let pending = queue.pending() || storage.busy;
    let (class, text) = match &storage.mode {
        Mode::Loading => ("status loading", "Loading your tables…".to_string()),
        Mode::Unavailable(why) => (
            "status bad",
            format!("Not saved: storage unavailable ({why})"),
        ),
        Mode::ReadOnly => (
            "status warn",
            "Read-only: Rowkey is open in another tab".to_string(),
        ),
        Mode::Writer if queue.can_retry() => ("status bad", "Not saved".to_string()),
        Mode::Writer if queue.retrying() => ("status saving", "Retrying the save…".to_string()),
        Mode::Writer if pending => ("status saving", "Saving…".to_string()),
        Mode::Writer => ("status ok", "All changes saved".to_string()),
    };
    let persistent = storage.persistent;
    let usage = storage
        .usage
        .map(|(used, _)| format!("stored: {}", crate::kit::text::human_bytes(used as u64)));
    let writer = storage.mode == Mode::Writer;
    let retry = (writer && queue.can_retry()).then(|| {
        let app = app.clone();
        html! { {leaf!(@on "button", [("class", "link")], [onclick(Callback::from(move |_| app.dispatch(Action::RetrySave)))], "Retry")} }
    });
    drop(storage);

    // The menu closes as a dialog does: when focus leaves it (a click or Tab elsewhere) and on
    // Escape, which gives focus back to its summary.
    // (The page's listeners are delegated: the menu is found from the event's target.)
    let menu_of = |target: Option<web_sys::EventTarget>| {
        target
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|t| t.closest("details.menu").ok().flatten())
    };
    let on_menu_focusout = Callback::from(move |e: FocusEvent| {
        let Some(menu) = menu_of(e.target()) else {
            return;
        };
        let inside = e
            .related_target()
            .and_then(|t| t.dyn_into::<web_sys::Node>().ok())
            .is_some_and(|n| menu.contains(Some(&n)));
        if !inside {
            let _ = menu.remove_attribute("open");
        }
    });
    let on_menu_key = Callback::from(move |e: KeyboardEvent| {
        let Some(menu) = menu_of(e.target()) else {
            return;
        };
        if e.key() != "Escape" || !menu.has_attribute("open") {
            return;
        }
        e.stop_propagation();
        let _ = menu.remove_attribute("open");
        if let Some(summary) = menu
            .query_selector("summary")
            .ok()
            .flatten()
            .and_then(|s| s.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = summary.focus();
        }
    });
    // One button per export: a select would download on every arrow key press.
    let export = |choice: &'static str| {
        let app = app.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some(menu) = menu_of(e.target()) {
                let _ = menu.remove_attribute("open");
            }
            // The person's own tables, also while a simulation's sample is in the console.
            let Some(done) = app.with_own_tables(|engine, table| {
                let (scope, name) = match (choice.starts_with("table"), table) {
                    (true, Some(t)) => (Some(t), t.to_string()),
                    (true, None) => return None,
                    (false, _) => (None, "rowkey".to_string()),
                };
                Some(if choice.ends_with("json") {
                    download(
                        &format!("{name}.json"),
                        "application/json",
                        &export_json(engine, scope),
                    )
                } else {
                    download(
                        &format!("{name}.hbase"),
                        "text/plain",
                        &export_script(engine, scope),
                    )
                })
            }) else {
                return;
            };
            if done.is_none() {
                app.dispatch(
                    SessionAction::Note("ERROR: the export could not be downloaded".into()).into(),
                );
            }
        })
    };
    let on_import_click = {
        let file_ref = file_ref.clone();
        Callback::from(move |_| {
            if let Some(input) = file_ref.cast::<HtmlInputElement>() {
                input.click();
            }
        })
    };
    // A file whose tables exist here: what it is, waiting for the person's answer.
    let asking = use_state(|| None::<Rc<Clashing>>);
    let on_file = {
        let app = app.clone();
        let asking = asking.clone();
        Callback::from(move |e: Event| {
            let Some(file) = super::chosen_file(&e) else {
                return;
            };
            let app = app.clone();
            let asking = asking.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let name = file.name();
                let text = match wasm_bindgen_futures::JsFuture::from(file.text())
                    .await
                    .ok()
                    .and_then(|v| v.as_string())
                {
                    Some(t) => t,
                    None => {
                        app.dispatch(
                            SessionAction::Note(format!("ERROR: could not read {name} as text"))
                                .into(),
                        );
                        return;
                    }
                };
                // The file read once: one that does not read is refused before anything is
                // asked; tables it would make again are replaced only when the person says so.
                let file = match read_export(&text) {
                    Ok(file) => file,
                    Err(e) => return not_imported(&app, &name, &text, &e),
                };
                let clashing = file.clashes(&app.console.borrow().shell.engine);
                if clashing.is_empty() {
                    let result = file.import(
                        &app.console.borrow().shell.engine,
                        Box::new(super::now_ms),
                        &[],
                    );
                    return imported(&app, &name, &text, result);
                }
                let renamed = file.free_names(&app.console.borrow().shell.engine);
                asking.set(Some(Rc::new(Clashing {
                    name,
                    file,
                    clashing,
                    renamed,
                })));
            });
        })
    };
    let on_reset = {
        let app = app.clone();
        Callback::from(move |_| {
            let sure = web_sys::window()
                .and_then(|w| {
                    w.confirm_with_message(
                        "Delete every table and the command history? This cannot be undone.",
                    )
                    .ok()
                })
                .unwrap_or(false);
            if sure {
                app.dispatch(SessionAction::Reset.into());
            }
        })
    };
    let has_table = app.with_own_tables(|_, table| table.is_some());
    let prefs = app.prefs;
    let set_pref = |f: fn(&mut Prefs, &str)| {
        let app = app.clone();
        Callback::from(move |e: Event| {
            if let Some(select) = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlSelectElement>().ok())
            {
                let mut p = app.prefs;
                f(&mut p, &select.value());
                app.dispatch(SessionAction::SetPrefs(p).into());
            }
        })
    };
    let on_theme = set_pref(|p, v| {
        p.theme = match v {
            "light" => Theme::Light,
            "dark" => Theme::Dark,
            _ => Theme::System,
        }
    });
    let on_time = set_pref(|p, v| {
        p.timestamps = if v == "local" {
            Timestamps::Local
        } else {
            Timestamps::Epoch
        }
    });
    let on_cbt_zone = set_pref(|p, v| {
        p.cbt_zone = if v == "utc" {
            CbtZone::Utc
        } else {
            CbtZone::Local
        }
    });
    let on_keys = set_pref(|p, v| {
        p.keys = if v == "utf8" {
            KeyDisplay::Utf8
        } else {
            KeyDisplay::Hbase
        }
    });
    html! {
        {leaf!("header", "top", html! {<>
            {leaf!("h1", "logo", "Rowkey")}
            {leaf!("span", "tagline", "HBase schema design, running in your browser")}
            {leaf!("span", "spacer", html! {})}
            {leaf!("span", "prefs", list![leaf!("label", [("for", "pref-theme")], "Theme"), leaf!(@on "select", [("id", "pref-theme"), ("class", "action")], [onchange(on_theme)], list![
                crate::ui::view_kit::option(AttrValue::Static("system"), prefs.theme == Theme::System, crate::ui::view_kit::text("System")),
                crate::ui::view_kit::option(AttrValue::Static("light"), prefs.theme == Theme::Light, crate::ui::view_kit::text("Light")),
                crate::ui::view_kit::option(AttrValue::Static("dark"), prefs.theme == Theme::Dark, crate::ui::view_kit::text("Dark")),
            ]), leaf!("label", [("for", "pref-time")], "Timestamps"), leaf!(@on "select", [("id", "pref-time"), ("class", "action")], [onchange(on_time)], list![
                    crate::ui::view_kit::option(AttrValue::Static("epoch"), prefs.timestamps == Timestamps::Epoch, crate::ui::view_kit::text("epoch ms")),
                    crate::ui::view_kit::option(AttrValue::Static("local"), prefs.timestamps == Timestamps::Local, crate::ui::view_kit::text("local time")),
                ]), leaf!("label", [("for", "pref-cbt-zone")], "cbt times"), leaf!(@on "select", [("id", "pref-cbt-zone"), ("class", "action")], [onchange(on_cbt_zone)], list![
                    crate::ui::view_kit::option(AttrValue::Static("local"), prefs.cbt_zone == CbtZone::Local, crate::ui::view_kit::text("local zone")),
                    crate::ui::view_kit::option(AttrValue::Static("utc"), prefs.cbt_zone == CbtZone::Utc, crate::ui::view_kit::text("UTC")),
                ]), leaf!("label", [("for", "pref-keys")], "Keys"), leaf!(@on "select", [("id", "pref-keys"), ("class", "action")], [onchange(on_keys)], list![
                    crate::ui::view_kit::option(AttrValue::Static("hbase"), prefs.keys == KeyDisplay::Hbase, crate::ui::view_kit::text("as HBase prints (\\xHH)")),
                    crate::ui::view_kit::option(AttrValue::Static("utf8"), prefs.keys == KeyDisplay::Utf8, crate::ui::view_kit::text("UTF-8")),
                ])])}
            {leaf!(@dyn "span", [("role", "status"), ("class", class)], text)}
            {retry}
            // "persistent" gives way on a laptop's width (it is still read out), so that the
            // header keeps to one line as the figure grows.
            if let Some(u) = usage { {leaf!("span", [("title", "What this site keeps in the browser's storage (the browser's estimate): your tables, the history and the saved settings, with the storage's own overhead"), ("class", "usage")], list!(@mixed 2; @seq(u), if persistent { leaf!("span", [("title", "The browser has made this site's storage persistent: it will not clear it to make room"), ("class", "persist-note")], " · persistent") } else { html! {} }))} }
            {leaf!(@on "details", [("class", "menu")], [onfocusout(on_menu_focusout), onkeydown(on_menu_key)], list![
                leaf!("summary", "action", "Export…"),
                leaf!("div", [("role", "group"), ("aria-label", "Export"), ("class", "menu-items")], list![leaf!(@on "button", [("data-export", "all-json"), ("class", "action")], [onclick(export("all-json"))], "All tables · JSON"), leaf!(@on "button", [("data-export", "all-script"), ("class", "action")], [onclick(export("all-script"))], "All tables · HBase shell script"), leaf!(@on @dyn "button", [("data-export", "table-json"), ("disabled", crate::ui::view_kit::flag(!has_table, "disabled")), ("class", "action")], [onclick(export("table-json"))], "Selected table · JSON"), leaf!(@on @dyn "button", [("data-export", "table-script"), ("disabled", crate::ui::view_kit::flag(!has_table, "disabled")), ("class", "action")], [onclick(export("table-script"))], "Selected table · HBase shell script")]),
            ])}
            {leaf!(@on @dyn "button", [("disabled", crate::ui::view_kit::flag(!writer, "disabled")), ("class", "action")], [onclick(on_import_click)], "Import…")}
            <input ref={file_ref} type="file" class="hidden" accept=".json,.hbase,.hb,.txt,.rb" onchange={on_file} data-testid="import-file" />
            if let Some(asked) = (*asking).clone() { {import_clash(&app, &asking, asked)} }
            {leaf!(@on @dyn "button", [("disabled", crate::ui::view_kit::flag(!writer, "disabled")), ("class", "action danger")], [onclick(on_reset)], "Reset")}
        </>})}
    }
}

/// Offers the whole database as an HBase shell script (what to keep when saving fails).
pub(super) fn export_all(app: &super::state::AppHandle) {
    let text = app.with_own_tables(|engine, _| export_script(engine, None));
    if download("rowkey.hbase", "text/plain", &text).is_none() {
        app.dispatch(
            SessionAction::Note("ERROR: the export could not be downloaded".into()).into(),
        );
    }
}

/// The notices about saving: a failed save (why, and Retry or Export), records that could not
/// be read, sorted runs kept aside (Export or Discard), and lock or takeover problems.
#[component]
pub fn SaveNotices() -> Html {
    let Some(app) = use_app() else {
        return html! {};
    };
    let _status = use_status();
    let s = app.storage.borrow();
    let writer = s.mode == Mode::Writer;
    let mut out: Vec<Html> = Vec::new();
    if let Some(notice) = &s.notice {
        out.push(
            html! { {leaf!("div", [("role", "alert"), ("class", "banner warn")], notice.clone())} },
        );
    }
    if let Some(failure) = s.queue.failure() {
        let retrying = s.queue.retrying();
        let retry = {
            let app = app.clone();
            Callback::from(move |_| app.dispatch(Action::RetrySave))
        };
        let export = {
            let app = app.clone();
            Callback::from(move |_| export_all(&app))
        };
        let text = if retrying {
            "Retrying the save: everything in memory is being written in one checkpoint…"
                .to_string()
        } else {
            format!(
                "Not saved: {} Your tables stay usable here; the commands marked “not saved” are lost if this page closes before a save succeeds.",
                capitalised(&failure.advice())
            )
        };
        out.push(html! {
            {leaf!(@dyn "div", [("role", "alert"), ("data-kind", format!("{:?}", failure.kind)), ("class", "banner bad")], html! {<>
                {leaf!("span", text)}
                if !retrying {
                    {leaf!(@on "button", [("class", "link")], [onclick(retry)], "Retry")}
                    {leaf!(@on "button", [("class", "link")], [onclick(export)], "Export all tables")}
                }
            </>})}
        });
    }
    if !s.problems.is_empty() {
        let dismiss = {
            let app = app.clone();
            Callback::from(move |_| app.dispatch(Action::DismissProblems))
        };
        let items: Html = s
            .problems
            .iter()
            .map(|p| html! { {leaf!("li", p.clone())} })
            .collect();
        out.push(html! {
            {leaf!("div", [("role", "alert"), ("class", "banner bad")], list![
                leaf!("strong", "Some stored data could not be read; what could be read is loaded:"),
                leaf!("ul", items),
                leaf!(@on "button", [("class", "link")], [onclick(dismiss)], "Dismiss"),
            ])}
        });
    }
    let readable: Vec<&crate::persist::KeptRun> =
        s.kept_aside.iter().filter(|k| k.run.is_some()).collect();
    if !s.kept_aside.is_empty() {
        let tables: crate::kit::sorted::SortedSet<String> = readable
            .iter()
            .filter_map(|k| k.place.as_ref().map(|p| p.table.clone()))
            .collect();
        let cells: usize = readable
            .iter()
            .filter_map(|k| k.run.as_ref().map(|r| r.len()))
            .sum();
        let export = {
            let app = app.clone();
            Callback::from(move |_| {
                let text = export_kept_runs(&app.storage.borrow().kept_aside);
                if download("rowkey-kept-aside.hbase", "text/plain", &text).is_none() {
                    app.dispatch(
                        SessionAction::Note("ERROR: the export could not be downloaded".into())
                            .into(),
                    );
                }
            })
        };
        let discard = {
            let app = app.clone();
            Callback::from(move |_| {
                let sure = web_sys::window()
                    .and_then(|w| {
                        w.confirm_with_message(
                            "Delete the sorted runs kept aside from storage? Export them first to keep their cells. This cannot be undone.",
                        )
                        .ok()
                    })
                    .unwrap_or(false);
                if sure {
                    app.dispatch(Action::DiscardKeptAside);
                }
            })
        };
        let tables = if tables.is_empty() {
            String::new()
        } else {
            format!(
                " of table{} {}",
                if tables.len() == 1 { "" } else { "s" },
                tables.into_iter().collect::<Vec<_>>().join(", ")
            )
        };
        out.push(html! {
            {leaf!("div", [("role", "status"), ("data-testid", "kept-aside"), ("class", "banner warn")], html! {<>
                {leaf!("span", format!(
                    "{} sorted run{}{tables} ({cells} cells) that no readable catalog names {} kept in storage, untouched{}. Export them as an HBase shell script to replay what you need; discard them when you no longer want them.",
                    readable.len(),
                    if readable.len() == 1 { "" } else { "s" },
                    if readable.len() == 1 { "is" } else { "are" },
                    match s.kept_aside.len() - readable.len() {
                        0 => String::new(),
                        n => format!(", with {n} damaged one{}", if n == 1 { "" } else { "s" }),
                    },
                ))}
                {leaf!(@on "button", [("class", "link")], [onclick(export)], "Export kept runs")}
                if writer {
                    {leaf!(@on "button", [("class", "link")], [onclick(discard)], "Discard them")}
                }
            </>})}
        });
    }
    html! { <>{out}</> }
}

/// A file of tables, some of which exist here already, waiting for the person's answer.
struct Clashing {
    name: String,
    file: ExportFile,
    /// The tables here that the file would make again.
    clashing: Vec<String>,
    /// Free names for those.
    renamed: Placement,
}

/// The question a file over tables of the same names asks: import them under other names
/// (the choice that has the focus), replace the tables here, or cancel. Keyboard first, as
/// the gallery's question: Escape cancels.
fn import_clash(
    app: &super::state::AppHandle,
    asking: &UseStateHandle<Option<Rc<Clashing>>>,
    asked: Rc<Clashing>,
) -> Html {
    let answer = |a: Choice| {
        let (app, asking, asked) = (app.clone(), asking.clone(), asked.clone());
        move || {
            asking.set(None);
            let Clashing {
                name,
                file,
                clashing,
                renamed,
            } = &*asked;
            if let Choice::Cancel = a {
                let verb = if clashing.len() == 1 {
                    "exists"
                } else {
                    "exist"
                };
                let note = format!(
                    "{name} was not imported, nothing changed: {} {verb} here already.",
                    clashing.join(", ")
                );
                return app.dispatch(SessionAction::Note(note).into());
            }
            // The console's borrow ends with the import, before the outcome is dispatched.
            let result = {
                let engine = &app.console.borrow().shell.engine;
                match a {
                    Choice::Rename => file.import_as(engine, Box::new(super::now_ms), renamed),
                    _ => file.import(engine, Box::new(super::now_ms), clashing),
                }
            };
            imported(&app, name, file.text(), result);
        }
    };
    let on = |a: Choice| {
        let answer = answer(a);
        Callback::from(move |_: MouseEvent| answer())
    };
    let on_cancel = {
        let answer = answer(Choice::Cancel);
        Callback::from(move |_: ()| answer())
    };
    let one = asked.clashing.len() == 1;
    let names = asked.clashing.join(", ");
    let renamed = asked.renamed.tables().join(", ");
    html! {
        <super::modal::Modal labelled_by="import-clash-title" {on_cancel} testid="import-clash-dialog">
            {leaf!("h2", [("id", "import-clash-title")], if one { "A table of yours has this name" } else { "Tables of yours have these names" })}
            {leaf!("p", format!("{} makes {} you have already: {names}.", asked.name, if one { "a table" } else { "tables" }))}
            {leaf!("div", "modal-choices", list![
                leaf!(@on "button", [("data-choice", "rename"), ("autofocus", "autofocus"), ("class", "action primary")], [onclick(on(Choice::Rename))], format!("Import as {renamed}")),
                leaf!(@on "button", [("data-choice", "replace"), ("class", "action danger")], [onclick(on(Choice::Replace))], format!("Replace: drop {names}")),
                leaf!(@on "button", [("data-choice", "cancel"), ("class", "action")], [onclick(on(Choice::Cancel))], "Cancel"),
            ])}
            {leaf!("p", "hint", format!("“Import as” makes the file's {} under the new {}, and leaves yours as they are. “Replace” deletes yours first; that cannot be undone.", if one { "table" } else { "tables" }, if one { "name" } else { "names" }))}
        </super::modal::Modal>
    }
}

/// Says how an import of the export `name` went: its engine taken in with a note of the
/// tables there are now, or why nothing changed.
fn imported(
    app: &super::state::AppHandle,
    name: &str,
    text: &str,
    result: Result<crate::engine::Engine, crate::persist::ImportError>,
) {
    match result {
        Ok(engine) => {
            let tables = engine.tables().count();
            let note = format!(
                "Imported {name}: {} now.",
                crate::kit::text::count_of(tables as u64, "table")
            );
            app.dispatch(SessionAction::Imported(Box::new(engine), note).into());
        }
        Err(e) => not_imported(app, name, text, &e),
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => std::iter::once(first.to_ascii_uppercase())
            .chain(chars)
            .collect(),
        None => String::new(),
    }
}

/// Says that the export `name` (whose text is `text`) was not imported, and why; a file that
/// reads as one table's rows is pointed to the sidebar's "Import a table…".
fn not_imported(
    app: &super::state::AppHandle,
    name: &str,
    text: &str,
    e: &crate::persist::ImportError,
) {
    // A scan's output or a CSV is one table's rows, which the sidebar's "Import a table…"
    // reads; this reads exports (a script or JSON).
    let hint = match crate::import::parse(text, &|_| 0, 0) {
        Ok(t) => format!(
            " It reads as {} of one table: load it with \"Import a table…\" in the tables' list.",
            match t.format {
                crate::import::Format::Scan => "a scan's output",
                crate::import::Format::Csv => "a CSV",
            }
        ),
        Err(_) => String::new(),
    };
    app.dispatch(
        SessionAction::Note(format!(
            "ERROR: {name} was not imported, nothing changed. {e}{hint}"
        ))
        .into(),
    )
}
