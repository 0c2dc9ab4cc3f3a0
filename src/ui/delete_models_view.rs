//! The delete-models comparison: the same story on HBase and on Bigtable, each side's steps in
//! its own dialect with what it printed and how many cells of the row a read returns after it.
//! Both sides run on engines of their own; the person's tables are not touched.

use std::rc::Rc;

use yew::prelude::*;

use super::state::use_app;
use crate::designs::delete_models::{Side, StepRun, BIGTABLE, HBASE, ID, TITLE};
use crate::session::Action;

/// The step (0-based) where each side writes the cell again at the older time.
const REWRITE: usize = 3;

fn side_html(tag: &str, side: &Side, runs: &Result<Vec<StepRun>, String>) -> Html {
    let body = match runs {
        Err(e) => {
            html! { {leaf!("p", [("role", "alert"), ("class", "error")], format!("This side did not run: {e}"))} }
        }
        Ok(runs) => {
            let steps: Html = side
                .steps
                .iter()
                .zip(runs)
                .enumerate()
                .map(|(i, (s, r))| {
                    html! {
                        {leaf!("li", "dm-step", html! {<>
                            {leaf!("div", "prompt-line", list![
                                leaf!("span", "prompt", side.dialect.prompt(i + 1)),
                                leaf!("code", "typed", s.line),
                            ])}
                            {leaf!("p", "dm-note", s.note)}
                            if !r.output.is_empty() { {leaf!("pre", "output", r.output.as_str())} }
                            {leaf!("p", "dm-visible", format!("cells a read returns: {}", r.visible))}
                        </>})}
                    }
                })
                .collect();
            html! { {leaf!("ol", "dm-steps", steps)} }
        }
    };
    html! {
        {leaf!(@dyn "section", [("aria-label", format!("{tag}: {}", side.label)), ("class", "compare-side")], list!(@mixed 2;
            leaf!("h3", format!("{tag}: {}", side.label)),
            body,
        ))}
    }
}

/// The lesson, checked against the runs: HBase hides the older rewrite until the marker is
/// compacted away; Bigtable shows it at once.
fn claims(h: &Result<Vec<StepRun>, String>, b: &Result<Vec<StepRun>, String>) -> Html {
    let visible = |r: &Result<Vec<StepRun>, String>, i: Option<usize>| {
        r.as_ref()
            .ok()
            .and_then(|r| r.get(i.unwrap_or(r.len().saturating_sub(1))))
            .map(|s| s.visible)
    };
    let items = [
        (
            "HBase: after the delete, the rewrite at the older time 1000 is hidden (0 cells)",
            visible(h, Some(REWRITE)) == Some(0),
        ),
        (
            "HBase: after a flush and a major compaction the same rewrite shows (1 cell)",
            visible(h, None) == Some(1),
        ),
        (
            "Bigtable: the rewrite at the older time 1000 shows at once (1 cell)",
            visible(b, Some(REWRITE)) == Some(1),
        ),
    ];
    let items = super::view_kit::checks(items.iter().map(|(t, held)| (t.to_string(), *held)));
    html! { {leaf!("ul", [("aria-label", "The lesson"), ("class", "claims compare-versus")], items)} }
}

#[component]
pub fn DeleteModelsView() -> Html {
    let app = use_app();
    let shown = app.as_ref().is_some_and(|a| a.selected_compare == Some(ID));
    let runs = use_memo(shown, |shown| {
        shown.then(|| Rc::new((HBASE.run(), BIGTABLE.run())))
    });
    use_effect_with(shown, |shown| {
        if *shown {
            super::open_here(".delete-models", ".delete-models .design-title");
        }
    });
    let (Some(app), Some(runs)) = (app, (*runs).clone()) else {
        return html! {};
    };
    let close = Callback::from(move |_| app.dispatch(Action::CloseCompare.into()));
    let (h, b) = &*runs;
    html! {
        {leaf!("section", [("aria-label", "Delete models"), ("class", "view compare-card delete-models")], list!(@mixed 7;
            leaf!("div", "design-head", list![
                leaf!("span", "verdict compare-tag", "side by side"),
                leaf!(@on "button", [("class", "link")], [onclick(close)], "close"),
            ]),
            leaf!("h2", [("tabindex", "-1"), ("class", "design-title")], TITLE),
            leaf!("p", "why", list![
                leaf!("strong", "One story: "),
                crate::ui::view_kit::text("a cell written at time 2000, the row deleted, then the cell written again at the older time 1000."),
            ]),
            leaf!("p", "why", "HBase's delete writes a marker that hides every older cell until a major compaction removes it; Bigtable's delete removes the cells that exist and leaves no marker, so an older write comes straight back."),
            leaf!("p", "hint", "Each side runs on an engine of its own: your tables are not touched."),
            claims(h, b),
            leaf!("div", "compare-sides", list![
                side_html("A", &HBASE, h),
                side_html("B", &BIGTABLE, b),
            ]),
        ))}
    }
}
