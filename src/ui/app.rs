//! The page: header, tables on the left, the console in the middle, the views on the right;
//! and the background jobs: loading at start, saving after changes, stepping a long batch.

use yew::prelude::*;

use super::console_view::ConsoleView;
use super::design_view::DesignView;
use super::sidebar::Sidebar;
use super::state::{AppHandle, AppState, SaveStatus, StatusHandle, STEP_MS};
use super::status_bar::StatusBar;
use super::storage::Mode;
use super::storage_work;
use super::views_pane::ViewsPane;
use crate::session::Action;

/// How often a running batch shows its progress, in milliseconds.
const SHOW_EVERY_MS: f64 = 100.0;

/// Which database the app keeps its tables in (tests give each app its own).
#[derive(Properties, PartialEq, Clone)]
pub struct AppProps {
    #[prop_or(AttrValue::Static(crate::persist::idb::DB_NAME))]
    pub database: AttrValue,
}

impl Default for AppProps {
    fn default() -> Self {
        AppProps {
            database: AttrValue::Static(crate::persist::idb::DB_NAME),
        }
    }
}

/// Steps the running entry until it ends, giving the page the thread between steps. The page
/// shows (and saves) what ran every [`SHOW_EVERY_MS`] and at the end, not after every step:
/// re-rendering and laying out the console costs more than a step runs.
async fn run_batch(app: AppHandle) {
    let mut shown_at = super::perf_ms();
    loop {
        yew::platform::time::sleep(std::time::Duration::ZERO).await;
        if !app.console.borrow().is_running() {
            break;
        }
        let ended = {
            let mut console = app.console.borrow_mut();
            console.step(&mut super::perf_ms, STEP_MS);
            !console.is_running()
        };
        let now = super::perf_ms();
        if ended || now - shown_at >= SHOW_EVERY_MS {
            shown_at = now;
            app.dispatch(Action::Ran.into());
        }
    }
    app.runner.set(false);
}

#[component]
pub fn App(props: &AppProps) -> Html {
    let state = use_reducer(AppState::default);
    let status = use_reducer(SaveStatus::default);
    {
        let app = state.clone();
        let status = status.clone();
        let database = props.database.to_string();
        use_effect_with((), move |_| {
            super::prefs::apply_theme(app.prefs.theme);
            wasm_bindgen_futures::spawn_local(storage_work::start(app, status, database))
        });
    }
    {
        // After every change: carry queued save plans to IndexedDB, one at a time, and keep a
        // long batch stepping.
        let app = state.clone();
        let status = status.clone();
        use_effect_with(state.version, move |_| {
            let start = {
                let mut s = app.storage.borrow_mut();
                let start = !s.busy && !s.queue.is_empty();
                s.busy |= start;
                start
            };
            if start {
                wasm_bindgen_futures::spawn_local(storage_work::drain(app.clone(), status));
            }
            let arm = {
                let mut s = app.storage.borrow_mut();
                let arm = s.history_pending && !s.history_timer;
                s.history_timer |= arm;
                arm
            };
            if arm {
                let app = app.clone();
                gloo::timers::callback::Timeout::new(
                    super::storage::HISTORY_SAVE_DELAY_MS,
                    move || app.dispatch(super::state::Action::SaveHistory),
                )
                .forget();
            }
            if app.console.borrow().is_running() && !app.runner.replace(true) {
                wasm_bindgen_futures::spawn_local(run_batch(app));
            }
        });
    }
    super::link_dialog::use_shared_links(state.clone());
    html! {
        <ContextProvider<AppHandle> context={state.clone()}>
        <ContextProvider<StatusHandle> context={status}>
            {leaf!("div", "app", html! {<>
                <SkipLinks />
                <StatusBar />
                <Sidebar />
                {leaf!("main", [("aria-label", "Console"), ("class", "console-pane")], html! {<>
                    <Banners />
                    <ConsoleView />
                </>})}
                {leaf!("aside", [("id", "views-pane"), ("tabindex", "-1"), ("aria-label", "What HBase hides"), ("class", "views")], html! {<>
                    <super::compare_view::CompareView />
                    <super::delete_models_view::DeleteModelsView />
                    <DesignView />
                    <ViewsPane />
                </>})}
                <super::clash_dialog::ClashDialog />
                <super::link_dialog::LinkDialog />
            </>})}
        </ContextProvider<StatusHandle>>
        </ContextProvider<AppHandle>>
    }
}

/// Links that move the keyboard focus straight to a pane, shown when focused.
#[component]
fn SkipLinks() -> Html {
    let to = |id: &'static str| {
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            super::focus_id(id);
        })
    };
    html! {
        {leaf!("nav", [("aria-label", "Skip links"), ("class", "skip-links")], list![
            leaf!(@on "a", [("href", "#console-input")], [onclick(to("console-input"))], "Skip to the console input"),
            leaf!(@on "a", [("href", "#tables-pane")], [onclick(to("tables-pane"))], "Skip to the tables and gallery"),
            leaf!(@on "a", [("href", "#views-pane")], [onclick(to("views-pane"))], "Skip to the views"),
        ])}
    }
}

/// Notices about storage: read-only tab, another version, failed saves, damaged records.
#[component]
fn Banners() -> Html {
    let Some(app) = super::state::use_app() else {
        return html! {};
    };
    let _status = super::state::use_status();
    let s = app.storage.borrow();
    let mut out: Vec<Html> = Vec::new();
    if let Some(sample) = &app.sample {
        let leave = {
            let app = app.clone();
            Callback::from(move |_: MouseEvent| app.dispatch(Action::LeaveSample.into()))
        };
        let ratios: Html = sample
            .ratios()
            .into_iter()
            .map(|r| html! { {leaf!("li", r)} })
            .collect();
        out.push(html! {
            {leaf!("div", [("role", "status"), ("class", "banner sample-banner")], list![
                leaf!("p", list!(@mixed 2;
                    leaf!("strong", "The console runs on a simulation's sample"),
                    @seq(format!(" ({}), not on your tables; nothing written here is saved.", sample.title)),
                )),
                leaf!("ul", "sample-ratios", ratios),
                leaf!(@on "button", [("data-testid", "leave-sample"), ("class", "action")], [onclick(leave)], "Back to your tables"),
            ])}
        });
    }
    if s.mode == Mode::ReadOnly {
        out.push(html! { {leaf!("div", [("role", "status"), ("class", "banner warn")], "Rowkey is open in another tab, which saves the tables. This tab is read-only until that one closes.")} });
    }
    if s.outdated {
        out.push(html! { {leaf!("div", [("role", "status"), ("class", "banner warn")], "Another tab of Rowkey runs a different version of its storage. Reload or close the other tabs so both use the same one.")} });
    }
    // Save failures, damaged records, runs kept aside, lock and takeover problems.
    out.push(html! { <super::status_bar::SaveNotices /> });
    html! { {leaf!("div", "banners", out)} }
}
