//! A modal dialog: the page's native `<dialog>` opened with `showModal`, so the rest of the page
//! is inert, the focus moves into the dialog (to the element marked `autofocus`) and stays there,
//! and Escape cancels. When the dialog goes, the focus returns to where it was.

use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ModalProps {
    /// The id of the element that names the dialog (its heading).
    pub labelled_by: AttrValue,
    /// Escape, or the dialog closing any other way than by a choice.
    pub on_cancel: Callback<()>,
    #[prop_or_default]
    pub testid: AttrValue,
    pub children: Html,
}

#[component]
pub fn Modal(props: &ModalProps) -> Html {
    let node = use_node_ref();
    {
        let node = node.clone();
        use_effect_with((), move |_| {
            let before = gloo::utils::document()
                .active_element()
                .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
            let dialog = node.cast::<web_sys::HtmlDialogElement>();
            if let Some(d) = &dialog {
                let _ = d.show_modal();
            }
            move || {
                if let Some(d) = dialog {
                    d.close();
                }
                if let Some(el) = before {
                    let _ = el.focus();
                }
            }
        });
    }
    let oncancel = {
        let on_cancel = props.on_cancel.clone();
        // The dialog closes itself (a browser may not let a page keep it open on a second
        // Escape); the state then removes it.
        Callback::from(move |_: Event| on_cancel.emit(()))
    };
    html! {
        <dialog ref={node} class="modal" aria-labelledby={props.labelled_by.clone()} {oncancel} data-testid={props.testid.clone()}>
            {props.children.clone()}
        </dialog>
    }
}
