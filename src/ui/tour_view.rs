//! The guided tour of the design on show: step N of M, what the step does and which view
//! answers it, a button that runs its command in the console and turns the views pane to that
//! view, and the step's number once it ran. Back and Next are buttons, so the tour is
//! operated from the keyboard like the rest of the page.

use yew::prelude::*;

use super::state::use_app;
use super::view_kit::checks;
use crate::designs::tour::tour;
use crate::designs::Design;
use crate::session::Action;

#[derive(Properties, PartialEq)]
pub struct TourProps {
    /// The design's id (the tour starts over when it changes).
    pub design: &'static str,
}

#[component]
pub fn TourView(props: &TourProps) -> Html {
    let step = use_state(|| 0usize);
    {
        let step = step.clone();
        use_effect_with(props.design, move |_| step.set(0));
    }
    let Some(app) = use_app() else {
        return html! {};
    };
    let Some(design): Option<Design> = app.design(props.design) else {
        return html! {};
    };
    let steps = tour(&design);
    let total = steps.len();
    let at = (*step).min(total.saturating_sub(1));
    let Some(current) = steps.get(at) else {
        return html! {};
    };
    let go = |to: usize| {
        let step = step.clone();
        Callback::from(move |_: MouseEvent| step.set(to))
    };
    let run = {
        let app = app.clone();
        Callback::from(move |_: MouseEvent| app.dispatch(Action::RunTourStep(at).into()))
    };
    let shows = current
        .claims
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ");
    let result = match &app.tour_run {
        Some((id, i, run)) if *id == design.id && *i == at => {
            let checks = checks(
                run.checks
                    .iter()
                    .map(|(claim, held)| (claim.explain(&run.measures), *held)),
            );
            list![
                leaf!(
                    "div",
                    "tour-ran",
                    format!("Ran. Now in the {} view:", current.view.label())
                ),
                leaf!(
                    "ul",
                    [
                        ("aria-label", "The step's number"),
                        ("class", "claims tour-claims")
                    ],
                    checks
                ),
            ]
        }
        _ => html! {},
    };
    let running = !app.can_run();
    // The steps are the design's HBase lines: in cbt mode they still run as HBase lines (the
    // console shows them under HBase's prompt), where a pattern's button runs its cbt lines.
    let cbt = app.console.borrow().dialect == crate::dialect::Dialect::Cbt;
    let run_label = if cbt {
        format!(
            "Run this step as HBase lines, show {}",
            current.view.label()
        )
    } else {
        format!("Run this step, show {}", current.view.label())
    };
    html! {
        {leaf!("section", [("aria-label", "Guided tour"), ("class", "tour")], list![
            leaf!("div", "tour-head", list![leaf!("h3", "Tour"), leaf!("span", "tour-count", format!("Step {} of {total}", at + 1))]),
            leaf!("h4", "tour-title", current.title.clone()),
            leaf!("p", "tour-text", current.text.clone()),
            leaf!("pre", [("aria-label", "Command"), ("class", "tour-command")], leaf!("code", current.preview())),
            leaf!("div", "tour-shows", format!("Shows: {shows}")),
            leaf!("div", "tour-buttons", list![leaf!(@on @dyn "button", [("disabled", crate::ui::view_kit::flag(at == 0, "disabled")), ("class", "tour-back")], [onclick(go(at.saturating_sub(1)))], "Back"), leaf!(@on @dyn "button", [("disabled", crate::ui::view_kit::flag(running, "disabled")), ("class", "tour-run")], [onclick(run)], run_label), leaf!(@on @dyn "button", [("disabled", crate::ui::view_kit::flag(at + 1 >= total, "disabled")), ("class", "tour-next")], [onclick(go(at + 1))], "Next")]),
            leaf!("div", [("aria-live", "polite"), ("class", "tour-result")], result),
        ])}
    }
}
