//! The page: header, tables on the left, the console in the middle, the views on the right.

use yew::prelude::*;

use super::console_view::ConsoleView;
use super::read_view::ReadView;
use super::regions_view::RegionsView;
use super::rowkeys_view::RowkeysView;
use super::sidebar::Sidebar;
use super::state::{AppHandle, AppState};
use super::versions_view::VersionsView;

#[component]
pub fn App() -> Html {
    let state = use_reducer(AppState::default);
    html! {
        <ContextProvider<AppHandle> context={state}>
            <div class="app">
                <header class="top">
                    <span class="logo">{"Rowkey"}</span>
                    <span class="tagline">{"HBase schema design, running in your browser"}</span>
                </header>
                <Sidebar />
                <main class="console-pane"><ConsoleView /></main>
                <aside class="views">
                    <RegionsView />
                    <ReadView />
                    <RowkeysView />
                    <VersionsView />
                </aside>
            </div>
        </ContextProvider<AppHandle>>
    }
}
