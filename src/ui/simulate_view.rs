//! The Simulate view: a workload (from the gallery, the form, a file or typed as JSON), run in
//! steps with its progress and a cancel, then per table the Key Visualizer, the findings and,
//! when the workload has two tables or more, two of them compared on one timeline. What is
//! kept is the workload and its seed (in this browser and as a file), never the results: they
//! are recomputed from it.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::key_visualizer::KeyVisualizer;
use super::sim_compare::SimCompare;
use super::sim_run::{status_line, use_sim_run, RunState, Shared};
use super::workload_form::WorkloadForm;
use crate::designs::lesson::number;
use crate::keyvis::{apply, next_slice, starter, FormAction, Provenance};
use crate::session::Action;
use crate::simulate::findings::Moment;
use crate::simulate::sample_engine::SAMPLE_CELLS;
use crate::simulate::{gallery, SampleBuild, SampleLimits, Simulation, Workload};

/// The workload being written: the document, its JSON as shown (or as typed), and what was
/// wrong with the last edit. An edit that does not read changes nothing else.
#[derive(Clone, PartialEq)]
pub struct Draft {
    pub workload: Workload,
    pub json: String,
    /// The last edit of the form, when it was refused, and why.
    pub form_error: Option<(FormAction, String)>,
    pub json_error: Option<String>,
}

pub enum DraftAction {
    Form(FormAction),
    Json(String),
    Load(Workload),
    LoadText(String),
}

impl Draft {
    fn of(workload: Workload) -> Draft {
        Draft {
            json: workload.to_json(),
            workload,
            form_error: None,
            json_error: None,
        }
    }

    fn saved() -> Draft {
        super::state::saved_workload().map_or_else(|| Draft::of(starter()), Draft::of)
    }
}

impl Reducible for Draft {
    type Action = DraftAction;

    fn reduce(self: Rc<Self>, action: DraftAction) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            DraftAction::Form(a) => match apply(&mut next.workload, a.clone()) {
                Ok(()) => {
                    next.json = next.workload.to_json();
                    next.form_error = None;
                    next.json_error = None;
                }
                Err(e) => next.form_error = Some((a, e)),
            },
            DraftAction::Json(text) | DraftAction::LoadText(text) => {
                match Workload::from_json(&text) {
                    Ok(w) => {
                        next.workload = w;
                        next.json_error = None;
                        next.form_error = None;
                    }
                    Err(e) => next.json_error = Some(e.to_string()),
                }
                next.json = text;
            }
            DraftAction::Load(w) => next = Draft::of(w),
        }
        Rc::new(next)
    }
}

fn findings(sim: &Simulation, table: usize, show: &Callback<Moment>) -> Html {
    let Some(run) = sim.tables.get(table) else {
        return html! {};
    };
    if run.findings.is_empty() {
        return html! { {leaf!("p", "hint", format!("No findings for {}: nothing passed a threshold.", run.name))} };
    }
    let items: Html = run
        .findings
        .iter()
        .map(|f| {
            html! {
                {leaf!("li", "finding", list!(@mixed 6;
                    leaf!(@dyn "strong", [("title", format!("{} in the report (--json)", f.code.code()))], f.code.words()),
                    crate::ui::view_kit::text(": "),
                    leaf!("code", f.subject.clone()),
                    @seq({
                        let (figure, unit) = shown(f.figure, &f.unit);
                        let (threshold, _) = shown(f.threshold, &f.unit);
                        format!(" — {figure} {unit} (threshold {} {threshold})", f.compare.symbol())
                    }),
                    leaf!("div", "finding-advice", html! {<>{"Try instead: "}{f.advice.clone()}</>}),
                    @seq(f.moment.map(|m| {
                        let show = show.clone();
                        let when = super::key_visualizer::moment_words(m.step, sim.steps.max(1), sim.step_ms);
                        leaf!(@on "button", [("type", "button"), ("class", "link")], [onclick(Callback::from(move |_: MouseEvent| show.emit(m)))],
                            format!("Show region {} at {when} in the regions table", m.region))
                    })),
                ))}
            }
        })
        .collect();
    html! { {leaf!(@dyn "ul", [("aria-label", format!("Findings for {}", run.name)), ("class", "findings")], items)} }
}

/// A finding's figure and its unit as the page shows them: a share or a fraction of capacity
/// as a percentage ("100 %", "of new rows"), any other figure to three decimals.
fn shown<'u>(value: f64, unit: &'u str) -> (String, &'u str) {
    let share = unit.strip_prefix("share ");
    if share.is_some() || unit.starts_with("of a server's capacity") {
        let percent = number((value * 1000.0).round() / 10.0);
        (format!("{percent} %"), share.unwrap_or(unit))
    } else {
        (number((value * 1000.0).round() / 1000.0), unit)
    }
}

/// What a simulation was, in a few words: its tables, its duration and its seed.
fn title(sim: &Simulation) -> String {
    let names: Vec<&str> = sim.tables.iter().map(|t| t.name.as_str()).collect();
    format!(
        "{}; {}, seed {}",
        names.join(", "),
        super::sim_run::hours(sim.workload.duration_ms),
        sim.workload.seed
    )
}

/// The sample of a finished run, offered to the console: its own engine, with the sampling
/// ratio shown; the person's tables wait aside until they come back to them. The engine is
/// built in slices of about [`crate::keyvis::SLICE_MS`] of work, as the run is, with its
/// progress and a cancel; a new run cancels it.
#[component]
fn SampleOffer(props: &SampleOfferProps) -> Html {
    let app = super::state::use_app();
    let error = use_state(|| None::<String>);
    // The build under way: the fraction of the writes replayed.
    let building = use_state(|| None::<f64>);
    // The last build: its wall time and its longest slice, in ms.
    let built = use_state(|| None::<(f64, f64)>);
    // Turned by a new build, a cancel or a new simulation: a build under way then stops.
    let serial = use_memo((), |_| Rc::new(Cell::new(0u64)));
    {
        let (serial, building) = (serial.clone(), building.clone());
        use_effect_with(props.sim.clone(), move |_| {
            move || {
                serial.set(serial.get() + 1);
                building.set(None);
            }
        });
    }
    let Some(app) = app else { return html! {} };
    let open = {
        let app = app.clone();
        let sim = props.sim.clone();
        let (error, building, built, serial) = (
            error.clone(),
            building.clone(),
            built.clone(),
            serial.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            let me = serial.get() + 1;
            serial.set(me);
            error.set(None);
            building.set(Some(0.0));
            let (app, sim, error, building, built, serial) = (
                app.clone(),
                sim.clone(),
                error.clone(),
                building.clone(),
                built.clone(),
                serial.clone(),
            );
            wasm_bindgen_futures::spawn_local(async move {
                let began = super::perf_ms();
                let mut build = SampleBuild::new(&sim, SampleLimits::default());
                let mut longest = super::perf_ms() - began;
                let mut writes = 1_024u64;
                loop {
                    // The page paints and takes a cancel between two slices.
                    yew::platform::time::sleep(std::time::Duration::from_millis(1)).await;
                    if serial.get() != me {
                        return;
                    }
                    let slice = super::perf_ms();
                    let step = build.advance(&sim, usize::try_from(writes).unwrap_or(usize::MAX));
                    let took = super::perf_ms() - slice;
                    longest = longest.max(took);
                    writes = next_slice(writes, took);
                    match step {
                        Ok(true) => break,
                        Ok(false) => building.set(Some(build.progress())),
                        Err(e) => {
                            building.set(None);
                            error.set(Some(format!("The sample could not be built: {e}")));
                            return;
                        }
                    }
                }
                let last = super::perf_ms();
                match build.finish(&sim) {
                    Ok(sample) => {
                        app.dispatch(Action::OpenSample(Box::new(sample), title(&sim)).into())
                    }
                    Err(e) => error.set(Some(format!("The sample could not be built: {e}"))),
                }
                let now = super::perf_ms();
                building.set(None);
                built.set(Some((now - began, longest.max(now - last))));
            });
        })
    };
    let cancel = {
        let (serial, building) = (serial.clone(), building.clone());
        Callback::from(move |_: MouseEvent| {
            serial.set(serial.get() + 1);
            building.set(None);
        })
    };
    let can = app.can_run();
    let status = match (*building, *built) {
        (Some(p), _) => format!("Building the sample… {} % done", (p * 100.0).round()),
        (None, Some((ms, _))) => format!(
            "The sample was built in {} s.",
            number((ms / 100.0).round() / 10.0)
        ),
        (None, None) => String::new(),
    };
    html! {
        {leaf!("section", [("aria-label", "The sample"), ("class", "sim-section sim-sample")], html! {<>
            {leaf!("h3", "The sample")}
            {leaf!("p", "hint", format!("Rows of the template's shape, at most {} cells of them, in an engine of their own: open it in the console to scan, get and count them and to see its regions in the views. Your tables stay as they are.", crate::kit::text::thousands(SAMPLE_CELLS)))}
            {leaf!("div", "sim-run", html! {<>
                {leaf!(@on @dyn "button", [("data-testid", "open-sample"), ("disabled", crate::ui::view_kit::flag(!can || building.is_some(), "disabled")), ("class", "action")], [onclick(open)], "Open the sample in the console")}
                if let Some(p) = *building {
                    {leaf!(@on "button", [], [onclick(cancel)], "Cancel")}
                    <progress max="1" value={p.to_string()} aria-label="The sample built so far"></progress>
                }
                {leaf!(@dyn "span", [("role", "status"), ("aria-live", "polite"), ("data-longest-slice-ms", built.map(|(_, longest)| format!("{longest:.0}"))), ("class", "sample-status")], status)}
            </>})}
            if let Some(e) = &*error { {leaf!("p", [("role", "alert"), ("class", "error")], e.clone())} }
        </>})}
    }
}

#[derive(Properties, PartialEq)]
struct SampleOfferProps {
    sim: Shared<Simulation>,
}

#[component]
pub fn SimulateView() -> Html {
    let draft = use_reducer(Draft::saved);
    let run = use_sim_run();
    let table = use_state(|| 0usize);
    let compare_with = use_state(|| None::<usize>);
    // The moment a finding asked the Key Visualizer to show: its table, the moment, and the
    // number of the ask.
    let shown = use_state(|| None::<(usize, Moment, u32)>);
    // One callback for the view's life: the form is not drawn again while a run reports its
    // progress, so what is being typed in a field is left as it is (it went back to the
    // refused text at the run's next report).
    let on_action = {
        let dispatcher = draft.dispatcher();
        use_memo((), move |_| {
            Callback::from(move |a: FormAction| dispatcher.dispatch(DraftAction::Form(a)))
        })
    };
    let on_json = {
        let draft = draft.clone();
        Callback::from(move |e: Event| {
            draft.dispatch(DraftAction::Json(super::event_value(&e)));
        })
    };
    let on_gallery = {
        let draft = draft.clone();
        Callback::from(move |e: Event| {
            let id = super::event_value(&e);
            let w = if id == "starter" {
                Some(starter())
            } else {
                gallery::workload(&id).or_else(|| gallery::pair_workload(&id))
            };
            if let Some(w) = w {
                draft.dispatch(DraftAction::Load(w));
            }
        })
    };
    let start = {
        let run = run.clone();
        let draft = draft.clone();
        let table = table.clone();
        let compare_with = compare_with.clone();
        Callback::from(move |_: MouseEvent| {
            // What is kept is the workload and its seed; the results are made again from it.
            super::state::save_workload(&draft.workload);
            table.set(0);
            compare_with.set(if draft.workload.tables.len() > 1 {
                Some(1)
            } else {
                None
            });
            run.start(draft.workload.clone());
        })
    };
    let cancel = {
        let run = run.clone();
        Callback::from(move |_: MouseEvent| run.cancel())
    };
    let export = {
        let draft = draft.clone();
        Callback::from(move |_: MouseEvent| {
            let _ = super::download(
                "workload.json",
                "application/json",
                &draft.workload.to_json(),
            );
        })
    };
    let import = {
        let draft = draft.clone();
        Callback::from(move |e: Event| {
            let Some(file) = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                .and_then(|i| i.files())
                .and_then(|f| f.get(0))
            else {
                return;
            };
            let draft = draft.clone();
            wasm_bindgen_futures::spawn_local(async move {
                if let Some(t) = wasm_bindgen_futures::JsFuture::from(file.text())
                    .await
                    .ok()
                    .and_then(|v| v.as_string())
                {
                    draft.dispatch(DraftAction::LoadText(t));
                }
            });
        })
    };
    // Each workload by its design's or pair's title, as the gallery names it (its id when it
    // has none).
    let designs = crate::designs::shared();
    let pairs = crate::designs::compare::shared();
    let title = |id: &'static str| -> &'static str {
        designs
            .iter()
            .find(|d| d.id == id)
            .map(|d| d.title)
            .or_else(|| pairs.iter().find(|p| p.id == id).map(|p| p.title))
            .unwrap_or(id)
    };
    let options = |ids: Vec<&'static str>| -> Html {
        ids.into_iter()
            .map(|id| html! { <option value={id}>{title(id)}</option> })
            .collect()
    };
    let gallery_options = list![
        leaf!(
            "optgroup",
            [("label", "Gallery designs")],
            options(gallery::ids())
        ),
        leaf!(
            "optgroup",
            [("label", "Compare pairs (both tables)")],
            options(gallery::PAIRS.ids())
        ),
    ];
    // A run just done brings its results into sight (they sit under the long form) while the
    // focus is still in this view; not when the person went on elsewhere.
    let done = match &*run.state {
        RunState::Done(_, ms, _) => Some(ms.to_bits()),
        _ => None,
    };
    use_effect_with(done, |done| {
        // The Run button, disabled while it runs, gives the focus back to the page's body.
        let document = gloo::utils::document();
        let here = match document.active_element() {
            None => true,
            Some(el) if document.body().is_some_and(|b| b.is_same_node(Some(&el))) => true,
            Some(el) => el.closest(".simulate-view").ok().flatten().is_some(),
        };
        if done.is_some() && here {
            super::bring_into_view(".sim-results");
        }
    });
    let running = run.running();
    let status = status_line(&run.state);
    // The longest stretch the run held the page, for the end-to-end tests.
    let longest_slice = match &*run.state {
        RunState::Done(_, _, longest) => Some(format!("{longest:.0}")),
        _ => None,
    };
    let results = match &*run.state {
        RunState::Done(sim, ..) => {
            let tabs: Html = sim
                .tables
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let current = i == *table;
                    let table = table.clone();
                    let onclick = Callback::from(move |_| table.set(i));
                    html! { {leaf!(@on @dyn "button", [("aria-pressed", current.to_string()), ("class", if current { "sim-table-tab current" } else { "sim-table-tab" })], [onclick(onclick)], t.name.clone())} }
                })
                .collect();
            let t = (*table).min(sim.tables.len().saturating_sub(1));
            let [counted, estimated] = Provenance::sentences(sim.ops_per_sample);
            let compare = match *compare_with {
                Some(b) if sim.tables.len() > 1 => {
                    let others: Html = sim
                        .tables
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| *i != t)
                        .map(|(i, o)| {
                            crate::ui::view_kit::option(
                                AttrValue::from(i.to_string()),
                                i == b,
                                Html::from(o.name.clone()),
                            )
                        })
                        .collect();
                    let on_b = {
                        let compare_with = compare_with.clone();
                        Callback::from(move |e: Event| {
                            let v = e
                                .target()
                                .and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok())
                                .and_then(|s| s.value().parse().ok());
                            compare_with.set(v);
                        })
                    };
                    let b = if b == t {
                        (0..sim.tables.len()).find(|i| *i != t).unwrap_or(b)
                    } else {
                        b
                    };
                    html! {
                        {leaf!("section", [("aria-label", "Compare two tables"), ("class", "sim-section")], html! {<>
                            {leaf!("h3", "Compare on one timeline")}
                            {leaf!("label", list!(@mixed 2;
                                @seq(format!("A: {} against B: ", sim.tables[t].name)),
                                leaf!(@on "select", [], [onchange(on_b)], others),
                            ))}
                            <SimCompare sim={sim.clone()} a={t} b={b} />
                        </>})}
                    }
                }
                _ => html! {},
            };
            html! {
                {leaf!("div", "sim-results", html! {<>
                    {leaf!("div", "sim-provenance", list![
                        leaf!("p", counted),
                        leaf!("p", estimated),
                    ])}
                    {leaf!("div", [("role", "group"), ("aria-label", "Table"), ("class", "sim-table-tabs")], tabs)}
                    {leaf!("section", [("aria-label", "Key Visualizer"), ("class", "sim-section")], html! {<>
                        {leaf!("h3", format!("Key Visualizer: {}", sim.tables[t].name))}
                        <KeyVisualizer key={format!("{t}")} sim={sim.clone()} table={t} shown={shown.filter(|s| s.0 == t).map(|s| (s.1, s.2))} />
                    </>})}
                    {leaf!("section", [("aria-label", "Findings"), ("class", "sim-section")], list!(@mixed 2;
                        leaf!("h3", format!("Findings: {}", sim.tables[t].name)),
                        findings(sim, t, &{
                            let shown = shown.clone();
                            Callback::from(move |m: Moment| {
                                shown.set(Some((t, m, (*shown).map_or(0, |s| s.2.wrapping_add(1)))))
                            })
                        }),
                    ))}
                    <SampleOffer sim={sim.clone()} />
                    {compare}
                </>})}
            }
        }
        _ => html! {},
    };
    html! {
        {leaf!("section", [("aria-label", "Simulate"), ("class", "view simulate-view")], list!(@mixed 5;
            leaf!("p", "hint", "Your design under your traffic, at a real cluster's sizes: write a workload, run it, and read the regions, splits and hot spots over simulated time. The simulation runs beside your tables and never touches them."),
            leaf!("div", "sim-source", list![leaf!("label", list![crate::ui::view_kit::text("Start from "), leaf!(@on "select", [("class", "sim-gallery")], [onchange(on_gallery)], html! {<>
                        <option value="" selected=true disabled=true>{"a workload…"}</option>
                        <option value="starter">{"sensor readings (a new workload)"}</option>
                        {gallery_options}
                    </>})]), leaf!(@on "button", [("type", "button")], [onclick(export)], "Export workload"), leaf!("label", "file-button", html! {<>{"Import workload…"}<input type="file" accept=".json,application/json" onchange={import} /></>})]),
            leaf!("details", [("open", "open"), ("class", "sim-form-box")], html! {<>
                {leaf!("summary", "Workload")}
                <WorkloadForm workload={draft.workload.clone()} on_action={(*on_action).clone()} refused={draft.form_error.clone()} />
                // An edit of no text (a button's) has no field to say why under.
                if let Some((_, e)) = draft.form_error.as_ref().filter(|(a, _)| a.text().is_none()) { {leaf!("p", [("role", "alert"), ("class", "error")], e.clone())} }
                {leaf!("label", [("for", "sim-json"), ("class", "sim-json-label")], "The workload as JSON (edit it by hand; the form follows)")}
                <textarea id="sim-json" class="sim-json" spellcheck="false" rows="12" value={draft.json.clone()} onchange={on_json}
                    aria-invalid={draft.json_error.is_some().to_string()} aria-describedby="sim-json-error" />
                {leaf!("p", [("id", "sim-json-error"), ("role", "alert"), ("class", "error")], draft.json_error.clone().unwrap_or_default())}
            </>}),
            leaf!("div", "sim-run", html! {<>
                {leaf!(@on @dyn "button", [("disabled", crate::ui::view_kit::flag(running || draft.json_error.is_some() || draft.form_error.is_some(), "disabled")), ("class", "sim-run-button")], [onclick(start)], "Run the simulation")}
                if running { {leaf!(@on "button", [], [onclick(cancel)], "Cancel")} }
                if let RunState::Running(p, _) = &*run.state { <progress max="1" value={p.to_string()} aria-label="Simulated so far"></progress> }
                {leaf!(@dyn "span", [("role", "status"), ("aria-live", "polite"), ("data-longest-slice-ms", longest_slice), ("class", "sim-status")], status)}
            </>}),
            results,
        ))}
    }
}
