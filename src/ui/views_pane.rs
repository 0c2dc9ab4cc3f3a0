//! The views as tabs: Keyspace, Hotspots, Regions & read, LSM, Versions, Simulate. An ARIA tablist: one
//! Tab stop on the chosen tab, arrow keys (and Home, End) move between tabs.

use web_sys::KeyboardEvent;
use yew::prelude::*;

use super::hotspots_view::HotspotsView;
use super::keyspace_view::KeyspaceView;
use super::lsm_view::LsmView;
use super::read_view::ReadView;
use super::regions_view::RegionsView;
use super::versions_view::VersionsView;
use super::view_kit::Shown;

const TABS: [&str; 6] = [
    "Keyspace",
    "Hotspots",
    "Regions & read",
    "LSM",
    "Versions",
    "Simulate",
];
const VERSIONS_TAB: usize = 4;
/// Where the tab on show is kept across reloads.
const SAVED_TAB: &str = "rowkey.view";

#[component]
pub fn ViewsPane() -> Html {
    let current = use_state(|| {
        super::saved_json(SAVED_TAB, |n| n.u64())
            .and_then(|tab| usize::try_from(tab).ok())
            .filter(|tab| *tab < TABS.len())
            .unwrap_or(0)
    });
    let app = super::state::use_app();
    // Whether the focus was in a view when a row was picked there: it follows to the versions.
    let refocus = use_mut_ref(|| false);
    {
        // A row picked (in the keyspace, or by the last get) shows its version stack.
        let current = current.clone();
        let refocus = refocus.clone();
        let row = app.as_ref().and_then(|a| a.selected_row.clone());
        use_effect_with(row, move |row| {
            if row.is_some() {
                *refocus.borrow_mut() = gloo::utils::document()
                    .active_element()
                    .is_some_and(|el| el.closest(".view-panel").ok().flatten().is_some());
                current.set(VERSIONS_TAB);
            }
        });
    }
    {
        // The keyspace's list is hidden with its view: the focus goes to the versions' panel,
        // not to the page's start.
        let refocus = refocus.clone();
        use_effect_with(*current, move |tab| {
            // The tab on show is the one a reload opens on.
            super::save_text(SAVED_TAB, &tab.to_string());
            if std::mem::take(&mut *refocus.borrow_mut()) && *tab == VERSIONS_TAB {
                super::focus_id(&format!("view-panel-{VERSIONS_TAB}"));
            }
        });
    }
    {
        // A tour step asks for the view that answers it (after the row effect, so it wins).
        let current = current.clone();
        let request = app.as_ref().map_or((0, 0), |a| a.view_request);
        use_effect_with(request, move |(tab, serial)| {
            if *serial > 0 && *tab < TABS.len() {
                current.set(*tab);
                // The step's picture in sight, beside its numbers in the design card above.
                crate::ui::show_numbers_with_view();
            }
        });
    }
    let onkeydown = {
        let current = current.clone();
        Callback::from(move |e: KeyboardEvent| {
            let n = TABS.len();
            let next = match e.key().as_str() {
                "ArrowRight" | "ArrowDown" => (*current + 1) % n,
                "ArrowLeft" | "ArrowUp" => (*current + n - 1) % n,
                "Home" => 0,
                "End" => n - 1,
                _ => return,
            };
            e.prevent_default();
            current.set(next);
            super::focus_id(&format!("view-tab-{next}"));
        })
    };
    let tabs: Html = TABS
        .iter()
        .enumerate()
        .map(|(i, label)| {
            let selected = i == *current;
            let onclick = {
                let current = current.clone();
                Callback::from(move |_| current.set(i))
            };
            html! {
                {leaf!(@on @dyn "button", [("id", format!("view-tab-{i}")), ("role", "tab"), ("aria-selected", selected.to_string()), ("aria-controls", format!("view-panel-{i}")), ("tabindex", if selected { "0" } else { "-1" }), ("class", "view-tab")], [onclick(onclick)], *label)}
            }
        })
        .collect();
    // Every view stays mounted, keeping its place (scroll, picks); the ones not chosen are
    // hidden and do no work until shown (`view_kit::use_shown`).
    let panel = |i: usize, body: Html| {
        html! {
            {leaf!(@dyn "div", [("id", format!("view-panel-{i}")), ("role", "tabpanel"), ("tabindex", "0"), ("aria-labelledby", format!("view-tab-{i}")), ("hidden", crate::ui::view_kit::flag(i != *current, "hidden")), ("class", "view-panel")], html! {<>
                <ContextProvider<Shown> context={Shown(i == *current)}>{body}</ContextProvider<Shown>>
            </>})}
        }
    };
    html! {
        {leaf!("div", "views-pane", list!(@mixed 7;
            leaf!(@on "div", [("role", "tablist"), ("aria-label", "Views"), ("class", "view-tabs")], [onkeydown(onkeydown)], tabs),
            panel(0, html! { <KeyspaceView /> }),
            panel(1, html! { <HotspotsView /> }),
            panel(2, html! { <><RegionsView /><ReadView /></> }),
            panel(3, html! { <LsmView /> }),
            panel(4, html! { <VersionsView /> }),
            panel(5, html! {
                // A shared link's workload, once the person said Run, is the saved one: the
                // view mounts again to read it.
                <super::simulate_view::SimulateView key={app.as_ref().map_or(0, |a| a.workload_serial).to_string()} />
            }),
        ))}
    }
}
