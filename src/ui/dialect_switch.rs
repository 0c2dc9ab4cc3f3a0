//! The console's dialect switch: HBase's shell or Bigtable's cbt, a pair of buttons beside the
//! prompt (Alt+M in the input flips it), and what the page keeps for the dialect: the saved
//! history with each line's dialect, and the zone cbt prints dates in.

use gloo::storage::Storage as _;
use yew::prelude::*;

use super::prefs::{CbtZone, Prefs};
use super::state::{use_app, Action};
use crate::console::Console;
use crate::dialect::{decode_history, Dialect, HistoryLine};
use crate::kit::civil::Zone;

/// The history saved under `key`, of any format (format 1's lines read as HBase's).
pub fn saved_history(key: &str) -> Vec<HistoryLine> {
    gloo::storage::LocalStorage::get::<serde_json::Value>(key)
        .map(|v| decode_history(&v))
        .unwrap_or_default()
}

/// Points cbt's printer at the zone the preferences name: the browser's, or UTC.
pub fn set_zone(console: &mut Console, prefs: &Prefs) {
    console.cbt.zone = match prefs.cbt_zone {
        CbtZone::Utc => Zone::Utc,
        // The browser's zone at each instant printed, so a time across a daylight-saving
        // change prints in the offset it had then.
        CbtZone::Local => Zone::from_fn(super::prefs::utc_offset_minutes),
    };
    console.cbt.timer = Box::new(super::perf_ms);
}

/// What the switch's buttons say and mean.
const CHOICES: [(Dialect, &str, &str); 2] = [
    (
        Dialect::HBase,
        "HBase",
        "Read lines as the HBase shell does",
    ),
    (
        Dialect::Cbt,
        "cbt",
        "Read lines as Bigtable's cbt tool does",
    ),
];

#[component]
pub fn DialectSwitch() -> Html {
    let Some(app) = use_app() else {
        return html! {};
    };
    let current = app.console.borrow().dialect;
    let buttons: Html = CHOICES
        .iter()
        .map(|(dialect, label, title)| {
            let app = app.clone();
            let d = *dialect;
            let onclick = Callback::from(move |_: MouseEvent| app.dispatch(Action::SetDialect(d)));
            html! {
                <button class={classes!("tool", (d == current).then_some("chosen"))} aria-pressed={(d == current).to_string()}
                    title={format!("{title} (Alt+M switches)")} {onclick}>{*label}</button>
            }
        })
        .collect();
    html! { <span class="dialect-switch" role="group" aria-label="Dialect">{buttons}</span> }
}
