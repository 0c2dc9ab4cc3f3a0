//! A/B compare: the pair on show, its one workload, and after "Run both" each side's figures
//! next to the other's (the busiest region's share of writes, regions touched, row mutations
//! per action, KeyValue bytes, rows scanned against returned) with a keyspace map of each
//! side's table. Each side runs on an engine of its own, so the person's tables are never
//! touched and the pair's tables never meet them.

use std::rc::Rc;

use yew::prelude::*;

use super::minimap::{Minimap, MinimapData};
use super::state::use_app;
use super::view_kit::checks;
use crate::designs::compare::{find, Pair, Side, SideRun};
use crate::designs::lesson::number;
use crate::engine::Engine;
use crate::session::Action;
use crate::shell::Shell;

/// One side's run and the map of its table afterwards.
struct Ran {
    run: SideRun,
    map: Rc<MinimapData>,
}

/// Both sides' runs, or the error of the side that failed.
struct Compared {
    pair: &'static str,
    sides: Result<(Ran, Ran), String>,
}

fn run_side(side: &Side, pair: &Pair) -> Result<Ran, String> {
    let engine = Engine::new(Box::new(super::now_ms));
    let mut shell = Shell::new(engine, Box::new(super::perf_ms));
    let run = side.run(&mut shell, pair.write_actions, pair.read_actions)?;
    let table = shell.engine.table(side.table).map_err(|e| e.to_string())?;
    let map = Rc::new(MinimapData::of(
        table,
        shell.engine.activity(side.table),
        None,
    ));
    Ok(Ran { run, map })
}

fn side_html(tag: &str, side: &Side, ran: Option<&Ran>, keys: super::prefs::KeyDisplay) -> Html {
    let body = match ran {
        None => html! { {leaf!("p", "hint", "Not run yet.")} },
        Some(Ran { run, map }) => {
            let (w, r) = (&run.writes, &run.reads);
            let rows: Vec<(&str, String)> = vec![
                (
                    "busiest region's share of writes",
                    format!("{} %", number(w.busiest_write_share)),
                ),
                (
                    "regions the writes touched",
                    number(w.regions_touched as f64),
                ),
                ("row mutations per action", number(w.rows_per_action())),
                (
                    "KeyValue bytes written (per record)",
                    format!(
                        "{} ({})",
                        number(w.kv_bytes_written as f64),
                        number(w.bytes_per_record())
                    ),
                ),
                (
                    "rows scanned / returned",
                    format!(
                        "{} / {}",
                        number(r.rows_scanned as f64),
                        number(r.rows_returned as f64)
                    ),
                ),
                (
                    "regions the reads touched",
                    number(r.regions_touched as f64),
                ),
                (
                    "table afterwards",
                    format!("{} rows, {} regions", number(run.rows as f64), run.regions),
                ),
            ];
            let rows: Html = rows
                .into_iter()
                .map(|(k, v)| {
                    html! { {leaf!("tr", list![
                        leaf!("th", [("scope", "row")], k),
                        leaf!("td", v),
                    ])} }
                })
                .collect();
            let claims = checks(run.checks.iter().map(|(phase, claim, held)| {
                (
                    format!("{}: {}", phase.label(), claim.explain(run.get(*phase))),
                    *held,
                )
            }));
            html! {
                {leaf!("div", "compare-body", html! {<>
                    <Minimap data={map.clone()} first={0} shown={map.rows} keys={keys} on_pick={Callback::noop()} />
                    {leaf!("div", list![
                        leaf!("table", "figures", leaf!("tbody", rows)),
                        leaf!(@dyn "ul", [("aria-label", format!("{}'s lesson", side.label)), ("class", "claims")], claims),
                    ])}
                </>})}
            }
        }
    };
    html! {
        {leaf!(@dyn "section", [("aria-label", format!("{tag}: {}", side.label)), ("class", "compare-side")], list!(@mixed 3;
            leaf!("h3", format!("{tag}: {}", side.label)),
            leaf!("div", "compare-key", list![
                crate::ui::view_kit::text("Row key "),
                leaf!("code", side.key),
            ]),
            body,
        ))}
    }
}

#[component]
pub fn CompareView() -> Html {
    let outcome = use_state(|| None::<Rc<Compared>>);
    let app = use_app();
    let opened = app.as_ref().and_then(|a| a.selected_compare);
    use_effect_with(opened, |opened| {
        if opened.is_some() {
            super::open_here(".compare-card", ".compare-card .design-title");
        }
    });
    let Some(app) = app else {
        return html! {};
    };
    let Some(pair) = app.selected_compare.and_then(find) else {
        return html! {};
    };
    let close = {
        let app = app.clone();
        Callback::from(move |_| app.dispatch(Action::CloseCompare.into()))
    };
    let run = {
        let outcome = outcome.clone();
        let pair = pair.clone();
        Callback::from(move |_: MouseEvent| {
            let sides = run_side(&pair.a, &pair).and_then(|a| Ok((a, run_side(&pair.b, &pair)?)));
            outcome.set(Some(Rc::new(Compared {
                pair: pair.id,
                sides,
            })));
        })
    };
    let shown = (*outcome).clone().filter(|o| o.pair == pair.id);
    let keys = app.prefs.keys;
    let (a, b, error) = match shown.as_deref() {
        Some(Compared {
            sides: Ok((a, b)), ..
        }) => (Some(a), Some(b), html! {}),
        Some(Compared { sides: Err(e), .. }) => (
            None,
            None,
            html! { {leaf!("p", [("role", "alert"), ("class", "error")], format!("The comparison did not run: {e}"))} },
        ),
        None => (None, None, html! {}),
    };
    let versus = match (a, b) {
        (Some(a), Some(b)) => {
            let items = checks(pair.versus.iter().map(|v| {
                (
                    format!("{}: {}", v.phase.label(), v.explain(&a.run, &b.run)),
                    v.holds(&a.run, &b.run),
                )
            }));
            html! { {leaf!("ul", [("aria-label", "A against B"), ("class", "claims compare-versus")], items)} }
        }
        _ => html! {},
    };
    html! {
        {leaf!("section", [("aria-label", "A/B compare"), ("class", "view compare-card")], html! {<>
            {leaf!("div", "design-head", list![
                leaf!("span", "verdict compare-tag", "A/B compare"),
                leaf!(@on "button", [("class", "link")], [onclick(close)], "close"),
            ])}
            {leaf!("h2", [("tabindex", "-1"), ("class", "design-title")], pair.title)}
            {leaf!("p", "why", list!(@mixed 2;
                leaf!("strong", "One workload: "),
                @seq(pair.workload),
            ))}
            {leaf!("p", "why", pair.why)}
            {leaf!(@on "button", [("class", "compare-run")], [onclick(run)], if shown.is_some() { "Run both again" } else { "Run both" })}
            {leaf!("p", "hint", "Each side runs on an engine of its own: your tables are not touched.")}
            {error}
            {leaf!("div", [("aria-live", "polite"), ("class", "compare-sides")], list![
                side_html("A", &pair.a, a, keys),
                side_html("B", &pair.b, b, keys),
            ])}
            {versus}
            <super::pair_simulation::PairSimulation key={pair.id} pair={pair.id} />
        </>})}
    }
}
