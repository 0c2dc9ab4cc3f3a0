//! A compare pair at cluster scale: its two tables under the same day of traffic on one
//! cluster, simulated in steps, then the sentence saying which holds up, the hourly figures
//! side by side and each side's Key Visualizer.

use yew::prelude::*;

use super::key_visualizer::KeyVisualizer;
use super::sim_compare::SimCompare;
use super::sim_run::{hours, status_line, use_sim_run, RunState};
use crate::keyvis::pair_workload;

#[derive(Properties, PartialEq)]
pub struct PairSimulationProps {
    /// The pair's id.
    pub pair: AttrValue,
}

#[component]
pub fn PairSimulation(props: &PairSimulationProps) -> Html {
    let run = use_sim_run();
    let Some(workload) = pair_workload(&props.pair) else {
        return html! {};
    };
    let start = {
        let run = run.clone();
        let workload = workload.clone();
        Callback::from(move |_: MouseEvent| run.start(workload.clone()))
    };
    let cancel = {
        let run = run.clone();
        Callback::from(move |_: MouseEvent| run.cancel())
    };
    let ops: Vec<String> = workload.tables[0]
        .operations
        .iter()
        .map(|o| {
            format!(
                "{} {}/s",
                o.label(),
                crate::designs::lesson::number(o.rate().per_sec)
            )
        })
        .collect();
    let body = match &*run.state {
        RunState::Done(sim, ..) if sim.tables.len() >= 2 => html! {
            <>
                <SimCompare sim={sim.clone()} a={0} b={1} />
                {leaf!("div", "pair-keyvis", list![
                    leaf!(@dyn "section", [("aria-label", format!("A: {}", sim.tables[0].name))], html! {<>{leaf!("h4", format!("A: {}", sim.tables[0].name))}<KeyVisualizer sim={sim.clone()} table={0} id="pair-a" /></>}),
                    leaf!(@dyn "section", [("aria-label", format!("B: {}", sim.tables[1].name))], html! {<>{leaf!("h4", format!("B: {}", sim.tables[1].name))}<KeyVisualizer sim={sim.clone()} table={1} id="pair-b" /></>}),
                ])}
            </>
        },
        _ => html! {},
    };
    html! {
        {leaf!("section", [("aria-label", "Both at cluster scale"), ("class", "pair-simulation")], html! {<>
            {leaf!("h3", format!("At cluster scale: {} of traffic", hours(workload.duration_ms)))}
            {leaf!("p", "why", format!("Both tables on one cluster of {} region servers, each under {}.", workload.cluster.region_servers, ops.join(", ")))}
            {leaf!(@on @dyn "button", [("disabled", crate::ui::view_kit::flag(run.running(), "disabled")), ("class", "pair-simulate")], [onclick(start)], "Simulate both")}
            if run.running() { {leaf!(@on "button", [], [onclick(cancel)], "Cancel")} }
            {leaf!("span", [("role", "status"), ("aria-live", "polite"), ("class", "sim-status")], status_line(&run.state))}
            {body}
        </>})}
    }
}
