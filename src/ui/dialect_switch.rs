//! The console's dialect switch: HBase's shell or Bigtable's cbt, a pair of buttons beside the
//! prompt (Alt+M in the input flips it).

use yew::prelude::*;

use super::state::use_app;
use crate::dialect::Dialect;
use crate::session::Action;

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
            let onclick = Callback::from(move |_: MouseEvent| app.dispatch(Action::SetDialect(d).into()));
            html! {
                {leaf!(@on @dyn "button", [("aria-pressed", (d == current).to_string()), ("title", format!("{title} (Alt+M switches)")), ("class", if d == current { "tool chosen" } else { "tool" })], [onclick(onclick)], *label)}
            }
        })
        .collect();
    html! { {leaf!("span", [("role", "group"), ("aria-label", "Dialect"), ("class", "dialect-switch")], buttons)} }
}
