//! The gallery list in the side panel: every design, grouped by design document.

use yew::prelude::*;

use super::state::use_app;
use crate::designs::shared;
use crate::session::Action;

const SOURCES: &[(&str, &str)] = &[
    ("000", "Three applications"),
    ("001", "Table structure basics"),
    ("002", "The schema guide"),
    ("003", "Case studies (2009)"),
    ("004", "A follow feature"),
];

/// The name of the design document a design comes from, as a reader knows it.
pub fn source_title(source: &str) -> &'static str {
    SOURCES
        .iter()
        .find(|(s, _)| *s == source)
        .map(|(_, t)| *t)
        .unwrap_or("")
}

#[component]
pub fn Gallery() -> Html {
    let Some(app) = use_app() else {
        return html! {};
    };
    let designs = shared();
    let groups: Html = SOURCES
        .iter()
        .map(|(source, heading)| {
            let items: Html = designs
                .iter()
                .filter(|d| d.source == *source)
                .map(|d| {
                    let app2 = app.clone();
                    let id = d.id;
                    let onclick = Callback::from(move |_| app2.dispatch(Action::OpenDesign(id).into()));
                    let selected = app.selected_design == Some(d.id);
                    html! {
                        {leaf!("li", leaf!(@on @dyn "button", [("aria-current", selected.to_string()), ("title", d.verdict.label()), ("class", "design-item")], [onclick(onclick)], list!(@mixed 3;
                                leaf!(@dyn "span", [("aria-hidden", "true"), ("class", crate::ui::view_kit::classes(&["dot", &d.verdict.label().replace(' ', "_").replace('-', "_")]))], html! {}),
                                @seq(d.title),
                                leaf!("span", "visually-hidden", format!(" ({})", d.verdict.label())),
                            )))}
                    }
                })
                .collect();
            html! { {leaf!("li", "group-wrap", list![
                leaf!("h3", "group", *heading),
                leaf!(@dyn "ul", [("aria-label", *heading), ("class", "gallery")], items),
            ])} }
        })
        .collect();
    let pairs: Html = crate::designs::compare::shared()
        .iter()
        .map(|p| {
            let app2 = app.clone();
            let onclick = { let id = p.id; Callback::from(move |_| app2.dispatch(Action::OpenCompare(id).into())) };
            let selected = app.selected_compare == Some(p.id);
            html! { {leaf!("li", leaf!(@on @dyn "button", [("aria-current", selected.to_string()), ("class", "design-item compare-item")], [onclick(onclick)], p.title))} }
        })
        .collect();
    let delete_models = {
        use crate::designs::delete_models::{ID, TITLE};
        let app2 = app.clone();
        let onclick = Callback::from(move |_| app2.dispatch(Action::OpenCompare(ID).into()));
        let selected = app.selected_compare == Some(ID);
        html! { {leaf!("li", leaf!(@on @dyn "button", [("aria-current", selected.to_string()), ("class", "design-item compare-item")], [onclick(onclick)], TITLE))} }
    };
    list![
        leaf!("h2", "gallery-heading", "Design gallery"),
        leaf!(
            "ul",
            [("aria-label", "Designs"), ("class", "gallery")],
            list!(@mixed 2;
                groups,
                leaf!("li", "group-wrap", list![
                    leaf!("h3", "group", "A/B compare"),
                    leaf!("ul", [("aria-label", "A/B compare"), ("class", "gallery")], html! {<>{pairs}{delete_models}</>}),
                ]),
            )
        ),
    ]
}
