//! The design on show: what it is, why it works or does not, and its access patterns as
//! buttons that run them in the console.

use yew::prelude::*;

use super::state::{use_app, Action};
use crate::designs::find;

#[component]
pub fn DesignView() -> Html {
    let Some(app) = use_app() else {
        return html! {};
    };
    let Some(design) = app.selected_design.and_then(find) else {
        return html! {};
    };
    let close = {
        let app = app.clone();
        Callback::from(move |_| app.dispatch(Action::CloseDesign))
    };
    let tables: Html = design
        .tables
        .iter()
        .map(|t| {
            let app = app.clone();
            let name = t.to_string();
            let selected = app.selected_table.as_deref() == Some(*t);
            let onclick = Callback::from(move |_| app.dispatch(Action::SelectTable(name.clone())));
            html! { <button class={classes!("chip", "table-chip")} aria-pressed={selected.to_string()} {onclick}>{*t}</button> }
        })
        .collect();
    let patterns: Html = design
        .patterns
        .iter()
        .map(|p| {
            let app = app.clone();
            let command = p.command.clone();
            let onclick = Callback::from(move |_| app.dispatch(Action::Submit(command.clone())));
            html! {
                <li>
                    <button class="pattern" {onclick} title={p.command.clone()}>{p.name}</button>
                    <div class="pattern-note">{p.note}</div>
                </li>
            }
        })
        .collect();
    html! {
        <section class="view design-card" aria-label="Design">
            <div class="design-head">
                <span class={classes!("verdict", design.verdict.label().replace(' ', "-").replace('-', "_"))}>{design.verdict.label()}</span>
                <button class="link" onclick={close}>{"close"}</button>
            </div>
            <h2 class="design-title">{design.title}</h2>
            <div class="design-source">{format!("From: {}", super::gallery::source_title(design.source))}</div>
            <p class="why">{design.why}</p>
            <div class="design-tables">{"Tables: "}{tables}</div>
            <h3>{"Access patterns"}</h3>
            <ul class="patterns">{patterns}</ul>
        </section>
    }
}
