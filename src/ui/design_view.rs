//! The design on show: what it is, why it works or does not, and its access patterns as
//! buttons that run them in the console; after a run, the numbers it produced and the lesson
//! they show.

use yew::prelude::*;

use super::state::use_app;
use super::view_kit::checks;
use crate::designs::lesson::number;
use crate::designs::tour::View;
use crate::designs::{PatternRun, Size};
use crate::session::Action;

/// The numbers of a pattern run: the view that shows it, what the engine counted, then each
/// claim ticked or crossed.
fn figures(name: &str, view: View, run: &PatternRun) -> Html {
    let m = &run.measures;
    let mut rows: Vec<(&str, String)> = Vec::new();
    if m.reads > 0 {
        rows.push(("reads (gets and scans)", number(m.reads as f64)));
        rows.push(("rows scanned", number(m.rows_scanned as f64)));
        rows.push(("rows returned", number(m.rows_returned as f64)));
    }
    rows.push(("regions touched", number(m.regions_touched as f64)));
    if m.rows_written > 0 {
        rows.push(("row mutations", number(m.rows_written as f64)));
        rows.push(("logical actions", number(m.actions as f64)));
        rows.push(("row mutations per action", number(m.rows_per_action())));
        rows.push((
            "busiest region's share of writes",
            format!("{} %", number(m.busiest_write_share)),
        ));
        rows.push(("KeyValue bytes per record", number(m.bytes_per_record())));
    }
    if m.runs_flushed > 0 {
        let families: Vec<String> = m
            .flushed_by_family
            .iter()
            .map(|(f, runs, bytes)| format!("{f}: {runs} ({bytes} B)"))
            .collect();
        rows.push((
            "runs flushed",
            format!("{} — {}", m.runs_flushed, families.join(", ")),
        ));
    }
    let rows: Html = rows
        .into_iter()
        .map(|(k, v)| {
            html! { {leaf!("tr", list![
                leaf!("th", [("scope", "row")], k),
                leaf!("td", v),
            ])} }
        })
        .collect();
    let checks = checks(
        run.checks
            .iter()
            .map(|(claim, held)| (claim.explain(m), *held)),
    );
    html! {
        {leaf!("div", [("aria-live", "polite"), ("class", "lesson")], list![
            leaf!("h3", format!("Numbers: {name}")),
            leaf!("p", "lesson-view", format!("Ran. Now in the {} view below.", view.label())),
            leaf!("table", "figures", leaf!("tbody", rows)),
            leaf!("ul", [("aria-label", "The lesson"), ("class", "claims")], checks),
        ])}
    }
}

#[component]
pub fn DesignView() -> Html {
    let app = use_app();
    // A design just opened is brought into sight: the pane may be scrolled far below its top.
    let opened = app.as_ref().and_then(|a| a.selected_design);
    use_effect_with(opened, |opened| {
        if opened.is_some() {
            super::open_here(".design-card", ".design-card .design-title");
        }
    });
    let Some(app) = app else {
        return html! {};
    };
    let Some(design) = app.selected_design.and_then(|id| app.design(id)) else {
        return html! {};
    };
    let close = {
        let app = app.clone();
        Callback::from(move |_| {
            // The focus goes back to the design's entry in the gallery, which opened it (the
            // close link goes with the card).
            let entry = gloo::utils::document()
                .query_selector(".design-item[aria-current='true']")
                .ok()
                .flatten()
                .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok());
            app.dispatch(Action::CloseDesign.into());
            if let Some(entry) = entry {
                let _ = entry.focus();
            }
        })
    };
    // The tables where the gallery loaded them (under other names when the design's were taken).
    let placement = app.placement(&design);
    let tables: Html = placement
        .tables()
        .into_iter()
        .map(|t| {
            let app = app.clone();
            let name = t.to_string();
            let selected = app.selected_table.as_deref() == Some(t);
            let onclick = Callback::from(move |_| app.dispatch(Action::SelectTable(name.clone()).into()));
            html! { {leaf!(@on @dyn "button", [("aria-pressed", selected.to_string()), ("class", "chip table-chip")], [onclick(onclick)], t.to_string())} }
        })
        .collect();
    let renamed = placement.is_renamed().then(|| {
        let names: Vec<String> = placement
            .names
            .iter()
            .map(|(own, new)| format!("{own} → {new}"))
            .collect();
        html! { {leaf!("p", "hint renamed", format!("Loaded under other names, because tables of yours have the design's: {}. Its access patterns run on the new names.", names.join(", ")))} }
    });
    let reset = app.is_loaded(design.id).then(|| {
        let can_run = app.can_run();
        let app = app.clone();
        let names = placement.tables().join(", ");
        let onclick = Callback::from(move |_| {
            let sure = web_sys::window()
                .and_then(|w| {
                    w.confirm_with_message(&format!(
                        "Reset this design? Its tables ({names}) are dropped and loaded again with the sample data; what you changed in them is lost. Your other tables stay as they are."
                    ))
                    .ok()
                })
                .unwrap_or(false);
            if sure {
                app.dispatch(Action::ResetDesign.into());
            }
        });
        html! { {leaf!(@on @dyn "button", [("data-testid", "reset-design"), ("disabled", crate::ui::view_kit::flag(!can_run, "disabled")), ("class", "action")], [onclick(onclick)], "Reset this design")} }
    });
    let size = design.scales.then(|| {
        size_control(
            &app,
            &design.size,
            app.is_loaded(design.id),
            &placement.tables().join(", "),
        )
    });
    let loaded = loaded_figures(&app, &placement.tables());
    // In cbt mode a pattern runs as cbt lines; one that cbt cannot say is not offered, and the
    // card says why.
    let cbt = app.console.borrow().dialect == crate::dialect::Dialect::Cbt;
    let patterns: Html = design
        .patterns
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let command = if cbt {
                app.pattern_in_cbt(&design, i)
            } else {
                Ok(placement.rewrite(&p.command).unwrap_or_else(|_| p.command.clone()))
            };
            let app = app.clone();
            let onclick = Callback::from(move |_| app.dispatch(Action::RunPattern(i).into()));
            let button = match command {
                Ok(command) => html! { {leaf!(@on @dyn "button", [("title", command), ("class", "pattern")], [onclick(onclick)], p.name)} },
                Err(why) => list![
                    leaf!("span", "pattern off", p.name),
                    leaf!("div", [("role", "note"), ("class", "pattern-off")], format!("Not in cbt: {why}. Switch the console to HBase to run it.")),
                ],
            };
            html! {
                {leaf!("li", list!(@mixed 3;
                    button,
                    leaf!("div", "pattern-note", p.note),
                    leaf!("div", "pattern-claims", format!("Shows: {}", p.claims.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))),
                ))}
            }
        })
        .collect();
    let compare: Html = crate::designs::compare::shared()
        .iter()
        .filter(|p| p.designs.contains(&design.id))
        .map(|p| {
            let app = app.clone();
            let onclick = {
                let id = p.id;
                Callback::from(move |_| app.dispatch(Action::OpenCompare(id).into()))
            };
            html! { {leaf!("div", "design-compare", list![
                crate::ui::view_kit::text("Compare side by side: "),
                leaf!(@on "button", [("class", "link")], [onclick(onclick)], p.title),
            ])} }
        })
        .collect();
    let lesson = match &app.pattern_run {
        Some((id, i, run)) if *id == design.id => design
            .patterns
            .get(*i)
            .map(|p| figures(p.name, View::for_pattern(&p.command, &p.claims), run))
            .unwrap_or_default(),
        _ => html! {},
    };
    html! {
        {leaf!("section", [("aria-label", "Design"), ("class", "view design-card")], html! {<>
            {leaf!("div", "design-head", list![
                leaf!(@dyn "span", [("class", crate::ui::view_kit::classes(&["verdict", &design.verdict.label().replace(' ', "-").replace('-', "_")]))], design.verdict.label()),
                leaf!(@on "button", [("class", "link")], [onclick(close)], "close"),
            ])}
            {leaf!("h2", [("tabindex", "-1"), ("class", "design-title")], design.title)}
            {leaf!("div", "design-source", format!("From: {}", super::gallery::source_title(design.source)))}
            {leaf!("p", "why", design.why)}
            <super::tour_view::TourView design={design.id} />
            {leaf!("div", "design-tables", html! {<>{"Tables: "}{tables}{reset}</>})}
            {size}
            {loaded}
            {renamed}
            {compare}
            {leaf!("h3", "Access patterns")}
            {leaf!("ul", "patterns", patterns)}
            {lesson}
        </>})}
    }
}

/// The sample-size buttons: one per size, the current one pressed. Choosing another size loads
/// the design's tables again at that size (after asking, when they are loaded and may hold
/// changes); buttons rather than radio buttons, so that moving the focus never reloads.
fn size_control(app: &super::state::AppHandle, current: &Size, loaded: bool, names: &str) -> Html {
    let can_run = app.can_run();
    let buttons: Html = Size::ALL
        .iter()
        .map(|&size| {
            let pressed = size == *current;
            let app = app.clone();
            let names = names.to_string();
            let onclick = Callback::from(move |_| {
                if pressed {
                    return;
                }
                let sure = !loaded
                    || web_sys::window()
                        .and_then(|w| {
                            w.confirm_with_message(&format!(
                                "Load this design again with the {} sample? Its tables ({names}) are dropped and loaded again; what you changed in them is lost. Your other tables stay as they are.",
                                size.label()
                            ))
                            .ok()
                        })
                        .unwrap_or(false);
                if sure {
                    app.dispatch(Action::ResizeDesign(size).into());
                }
            });
            html! {
                {leaf!(@on @dyn "button", [("aria-pressed", pressed.to_string()), ("data-size", size.label()), ("disabled", crate::ui::view_kit::flag(!can_run, "disabled")), ("class", "chip size-chip")], [onclick(onclick)], size.label())}
            }
        })
        .collect();
    html! {
        {leaf!("div", [("role", "group"), ("aria-labelledby", "design-size-label"), ("data-testid", "design-size"), ("class", "design-size")], list!(@mixed 2;
            leaf!("span", [("id", "design-size-label")], "Sample size: "),
            buttons,
        ))}
    }
}

/// Rows and regions of each of the design's tables as they are now: what a size loaded, and
/// what the patterns run since added.
fn loaded_figures(app: &super::state::AppHandle, tables: &[&str]) -> Html {
    let console = app.console.borrow();
    let parts: Vec<String> = tables
        .iter()
        .filter_map(|name| {
            let t = console.shell.engine.table(name).ok()?;
            let parts = crate::dialect::Terms::of(&t.descriptor.rules).count(t.regions.len());
            Some(format!(
                "{name}: {} rows in {parts}",
                crate::kit::text::thousands(t.keys.row_count() as u64),
            ))
        })
        .collect();
    if parts.is_empty() {
        return html! {};
    }
    html! { {leaf!("p", [("data-testid", "design-loaded"), ("class", "hint design-loaded")], parts.join("; "))} }
}
