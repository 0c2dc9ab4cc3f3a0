//! Two simulated tables on one timeline: the sentence saying which holds up and by which
//! figure, then hour by hour the same figures side by side, the shares attributed by key at
//! the hour's end or live, as the person chooses.

use yew::prelude::*;

use crate::keyvis::{percent, side_by_side, verdict, Attribution};
use crate::simulate::{HourFigures, Simulation};

#[derive(Properties, PartialEq)]
pub struct SimCompareProps {
    pub sim: super::sim_run::Shared<Simulation>,
    pub a: usize,
    pub b: usize,
}

fn share(v: Option<f64>) -> String {
    v.map(percent).unwrap_or_else(|| "–".into())
}

#[component]
pub fn SimCompare(props: &SimCompareProps) -> Html {
    let attribution = use_state(Attribution::default);
    let (Some(a), Some(b)) = (props.sim.tables.get(props.a), props.sim.tables.get(props.b)) else {
        return html! {};
    };
    let sentence = verdict(&format!("A ({})", a.name), a, &format!("B ({})", b.name), b);
    let shares = attribution.shares();
    // A figure is one column holding A's and B's values one above the other, so that the five
    // figures and the hour fit the views pane; the table scrolls sideways only when narrower.
    let head: Html = shares
        .iter()
        .map(|(label, _)| html! { {leaf!("th", [("scope", "col")], *label)} })
        .collect();
    let cell = |a: String, b: String| {
        html! {
            {leaf!("td", list![
                leaf!("span", "side-a", list!(@mixed 2;
                    leaf!("span", "side-tag", "A "),
                    @seq(a),
                )),
                leaf!("span", "side-b", list!(@mixed 2;
                    leaf!("span", "side-tag", "B "),
                    @seq(b),
                )),
            ])}
        }
    };
    let body: Html = side_by_side(a, b)
        .iter()
        .map(|h| {
            let regions = |f: &Option<HourFigures>| f.as_ref().map(|f| f.regions.to_string());
            let figures: Html = shares
                .iter()
                .map(|(_, f)| {
                    let value = |side: &Option<HourFigures>| side.as_ref().map(|h| share(f(h)));
                    cell(
                        value(&h.a).unwrap_or_default(),
                        value(&h.b).unwrap_or_default(),
                    )
                })
                .collect();
            html! {
                {leaf!("tr", list!(@mixed 3;
                    leaf!("th", [("scope", "row")], format!("{}:00", h.hour)),
                    cell(regions(&h.a).unwrap_or_default(), regions(&h.b).unwrap_or_default()),
                    figures,
                ))}
            }
        })
        .collect();
    let choices: Html = Attribution::ALL
        .iter()
        .map(|&choice| {
            let onchange = {
                let attribution = attribution.clone();
                Callback::from(move |_: Event| attribution.set(choice))
            };
            html! {
                {leaf!("label", html! {<>
                    <input type="radio" name={format!("attribution-{}-{}", props.a, props.b)}
                        checked={*attribution == choice} {onchange} />
                    {choice.label()}
                </>})}
            }
        })
        .collect();
    html! {
        {leaf!("div", "sim-compare", list![leaf!("p", [("role", "status"), ("class", "verdict-line")], leaf!("strong", sentence)), leaf!("fieldset", "attribution", list!(@mixed 2;
            leaf!("legend", "Shares of the hour's operations"),
            choices,
        )), leaf!("div", [("role", "region"), ("tabindex", "0"), ("aria-label", "The two tables hour by hour"), ("class", "table-scroll")], leaf!("table", "figures sim-compare-table", list![leaf!("caption", format!("A ({}) above B ({}), hour by hour (shares of the hour's operations, {})", a.name, b.name, attribution.label())), leaf!("thead", leaf!("tr", list!(@mixed 3;
            leaf!("th", [("scope", "col")], "hour"),
            leaf!("th", [("scope", "col")], "regions"),
            head,
        ))), leaf!("tbody", body)]))])}
    }
}
