//! The page: header, tables on the left, the console in the middle, the views on the right;
//! and the two background jobs: loading at start, saving after changes.

use yew::prelude::*;

use super::console_view::ConsoleView;
use super::design_view::DesignView;
use super::read_view::ReadView;
use super::regions_view::RegionsView;
use super::rowkeys_view::RowkeysView;
use super::sidebar::Sidebar;
use super::state::{Action, AppHandle, AppState};
use super::status_bar::StatusBar;
use super::storage::{self, Mode};
use super::versions_view::VersionsView;

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

#[component]
pub fn App(props: &AppProps) -> Html {
    let state = use_reducer(AppState::default);
    {
        let app = state.clone();
        let database = props.database.to_string();
        use_effect_with((), move |_| {
            wasm_bindgen_futures::spawn_local(storage::start(app, database))
        });
    }
    {
        // After every change: carry queued save plans to IndexedDB, one at a time.
        let app = state.clone();
        use_effect_with(state.version, move |_| {
            let start = {
                let mut s = app.storage.borrow_mut();
                let start = !s.busy && !s.queue.is_empty();
                s.busy |= start;
                start
            };
            if start {
                wasm_bindgen_futures::spawn_local(storage::drain(app));
            }
        });
    }
    let banners = {
        let s = state.storage.borrow();
        let mut out: Vec<Html> = Vec::new();
        if s.mode == Mode::ReadOnly {
            out.push(html! { <div class="banner warn">{"Rowkey is open in another tab, which saves the tables. This tab is read-only until that one closes."}</div> });
        }
        if s.outdated {
            out.push(html! { <div class="banner warn">{"Another tab of Rowkey runs a different version of its storage. Reload or close the other tabs so both use the same one."}</div> });
        }
        if let Some(e) = &s.error {
            out.push(html! { <div class="banner bad">{format!("Not saved: {e}")}</div> });
        }
        if !s.problems.is_empty() {
            let dismiss = {
                let app = state.clone();
                Callback::from(move |_| app.dispatch(Action::DismissProblems))
            };
            let items: Html = s
                .problems
                .iter()
                .map(|p| html! { <li>{p.clone()}</li> })
                .collect();
            out.push(html! {
                <div class="banner bad">
                    <strong>{"Some stored data could not be read and was skipped:"}</strong>
                    <ul>{items}</ul>
                    <button class="link" onclick={dismiss}>{"Dismiss"}</button>
                </div>
            });
        }
        out
    };
    html! {
        <ContextProvider<AppHandle> context={state}>
            <div class="app">
                <StatusBar />
                <Sidebar />
                <main class="console-pane">
                    <div class="banners">{banners}</div>
                    <ConsoleView />
                </main>
                <aside class="views">
                    <DesignView />
                    <RegionsView />
                    <ReadView />
                    <RowkeysView />
                    <VersionsView />
                </aside>
            </div>
        </ContextProvider<AppHandle>>
    }
}
