//! cbt mode's file chooser: a CSV for `import`, which a page cannot read from a disk by name.
//! The file chosen is kept for the page under its name and the line that imports it is put in
//! the input; nothing is imported until the person runs that line.

use std::rc::Rc;

use yew::prelude::*;

use super::state::use_app;
use crate::session::Action;

#[component]
pub fn CbtFile() -> Html {
    let Some(app) = use_app() else {
        return html! {};
    };
    let onchange = Callback::from(move |e: Event| {
        let Some(file) = super::chosen_file(&e) else {
            return;
        };
        let app = app.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let name = file.name();
            match wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await {
                Ok(buffer) => {
                    let bytes: Rc<[u8]> = js_sys::Uint8Array::new(&buffer).to_vec().into();
                    app.dispatch(Action::GiveCbtFile(name, bytes).into());
                }
                Err(_) => app.dispatch(
                    Action::Note(format!("ERROR: the file {name} could not be read.")).into(),
                ),
            }
        });
    });
    html! {
        {leaf!("label", [("title", "Choose a CSV for cbt's import: the import line is put in the input for you to run"), ("class", "tool cbt-file")], html! {<>
            {"CSV…"}
            <input type="file" class="visually-hidden" accept=".csv,text/csv,text/plain" aria-label="A CSV file for cbt's import" {onchange} />
        </>})}
    }
}
