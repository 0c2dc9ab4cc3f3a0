//! Two simulated tables on one timeline: the sentence saying which holds up and by which
//! figure, then hour by hour the same figures side by side.

use yew::prelude::*;

use crate::designs::lesson::number;
use crate::keyvis::{side_by_side, verdict};
use crate::simulate::{HourFigures, Simulation};

#[derive(Properties, PartialEq)]
pub struct SimCompareProps {
    pub sim: super::sim_run::Shared<Simulation>,
    pub a: usize,
    pub b: usize,
}

fn share(v: Option<f64>) -> String {
    v.map(|v| format!("{} %", number((v * 1000.0).round() / 10.0)))
        .unwrap_or_else(|| "–".into())
}

#[component]
pub fn SimCompare(props: &SimCompareProps) -> Html {
    let (Some(a), Some(b)) = (props.sim.tables.get(props.a), props.sim.tables.get(props.b)) else {
        return html! {};
    };
    let sentence = verdict(&format!("A ({})", a.name), a, &format!("B ({})", b.name), b);
    type Figure = (&'static str, fn(&HourFigures) -> String);
    let figures: [Figure; 5] = [
        ("regions", |h| h.regions.to_string()),
        ("busiest server's writes", |h| {
            share(h.busiest_server_write_share)
        }),
        ("busiest server's reads", |h| {
            share(h.busiest_server_read_share)
        }),
        ("busiest region's writes", |h| {
            share(h.busiest_region_write_share)
        }),
        ("busiest region's reads", |h| {
            share(h.busiest_region_read_share)
        }),
    ];
    // A figure is one column holding A's and B's values one above the other, so that the five
    // figures and the hour fit the views pane; the table scrolls sideways only when narrower.
    let head: Html = figures
        .iter()
        .map(|(label, _)| html! { <th scope="col">{*label}</th> })
        .collect();
    let body: Html = side_by_side(a, b)
        .iter()
        .map(|h| {
            let cells: Html = figures
                .iter()
                .map(|(_, f)| {
                    let a = h.a.as_ref().map(f).unwrap_or_default();
                    let b = h.b.as_ref().map(f).unwrap_or_default();
                    html! {
                        <td>
                            <span class="side-a"><span class="side-tag">{"A "}</span>{a}</span>
                            <span class="side-b"><span class="side-tag">{"B "}</span>{b}</span>
                        </td>
                    }
                })
                .collect();
            html! { <tr><th scope="row">{format!("{}:00", h.hour)}</th>{cells}</tr> }
        })
        .collect();
    html! {
        <div class="sim-compare">
            <p class="verdict-line" role="status"><strong>{sentence}</strong></p>
            <div class="table-scroll" role="region" tabindex="0" aria-label="The two tables hour by hour">
                <table class="figures sim-compare-table">
                    <caption>{format!("A ({}) above B ({}), hour by hour (shares of the hour's operations)", a.name, b.name)}</caption>
                    <thead><tr><th scope="col">{"hour"}</th>{head}</tr></thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
        </div>
    }
}
