//! A view's picture as a file for a design review: two buttons, SVG and PNG, that export the
//! `<svg>` of the figure they sit in. The file stands alone: every element carries its computed
//! paint and font inline (so it looks as it does in the page, in the page's theme), a
//! background in the theme's panel colour lies under it, and the figure's caption is its
//! `<title>` and a line of text under the picture. The PNG is that same SVG drawn on a canvas
//! at twice its size. One component for every figure of the views.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{CanvasRenderingContext2d, Element, HtmlCanvasElement, HtmlImageElement};
use yew::prelude::*;

const SVG_NS: &str = "http://www.w3.org/2000/svg";
/// Space around the picture in the file.
const PAD: f64 = 8.0;
/// The narrowest file: a thin picture (the keyspace strip) still gets a readable caption.
const MIN_WIDTH: f64 = 320.0;
/// The caption's font size and line height, and the width of one of its characters, about.
const CAPTION_PX: f64 = 11.0;
const CAPTION_LINE: f64 = 15.0;
const CAPTION_CHAR: f64 = 6.0;

/// Computed properties copied onto every shape, with the value that needs no copying (the
/// initial one, which a standalone file gets anyway).
const SHAPE_PAINT: [(&str, &str); 7] = [
    ("fill", ""),
    ("fill-opacity", "1"),
    ("stroke", "none"),
    ("stroke-width", ""),
    ("stroke-dasharray", "none"),
    ("stroke-opacity", "1"),
    ("opacity", "1"),
];
/// The same for text.
const TEXT_PAINT: [(&str, &str); 8] = [
    ("fill", ""),
    ("opacity", "1"),
    ("font-family", ""),
    ("font-size", ""),
    ("font-weight", "400"),
    ("font-style", "normal"),
    ("text-anchor", "start"),
    ("dominant-baseline", "auto"),
];
const SHAPES: [&str; 7] = [
    "rect", "circle", "ellipse", "line", "path", "polygon", "polyline",
];
const TEXTS: [&str; 3] = ["text", "tspan", "textPath"];

#[derive(Properties, PartialEq)]
pub struct FigureExportProps {
    /// What the picture shows, for the buttons' names: "the write heatmap".
    pub what: AttrValue,
    /// The table drawn, and the view's short name: the file is `rowkey-<table>-<view>`.
    pub table: AttrValue,
    pub view: AttrValue,
    /// The figure's one-line caption, kept in the file.
    pub caption: AttrValue,
}

#[derive(Clone, Copy, PartialEq)]
enum Format {
    Svg,
    Png,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Svg => "SVG",
            Format::Png => "PNG",
        }
    }
}

/// The SVG and PNG buttons of one figure; a failure is said beside them.
#[component]
pub fn FigureExport(props: &FigureExportProps) -> Html {
    let here = use_node_ref();
    let failure = use_state(|| None::<String>);
    let button = |format: Format| {
        let onclick = {
            let here = here.clone();
            let failure = failure.clone();
            let what = props.what.clone();
            let caption = props.caption.clone();
            let file = file_name(&props.table, &props.view);
            Callback::from(move |_: MouseEvent| {
                let here = here.clone();
                let failure = failure.clone();
                let what = what.clone();
                let caption = caption.clone();
                let file = file.clone();
                failure.set(None);
                wasm_bindgen_futures::spawn_local(async move {
                    if let Err(why) = export(&here, &caption, &file, format).await {
                        failure.set(Some(format!(
                            "Could not export {what} as {}: {why}.",
                            format.name()
                        )));
                    }
                });
            })
        };
        html! {
            {leaf!(@on @dyn "button", [("type", "button"), ("aria-label", format!("Export {} as {}", props.what, format.name())), ("class", "export-button")], [onclick(onclick)], format.name())}
        }
    };
    let (svg, png) = (button(Format::Svg), button(Format::Png));
    let shown = (*failure).clone().unwrap_or_default();
    html! {
        <span class="figure-export" ref={here}>
            {svg}
            {png}
            {leaf!("span", [("role", "status"), ("class", "export-failure")], shown)}
        </span>
    }
}

/// `rowkey-<table>-<view>`, with what a file name should not hold replaced by `_`.
fn file_name(table: &str, view: &str) -> String {
    let safe = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    format!("rowkey-{}-{}", safe(table), safe(view))
}

/// A standalone SVG document and its size in pixels.
struct Picture {
    svg: String,
    width: u32,
    height: u32,
}

async fn export(here: &NodeRef, caption: &str, file: &str, format: Format) -> Result<(), String> {
    let svg = here
        .cast::<Element>()
        .and_then(|el| el.closest("figure").ok().flatten())
        .and_then(|figure| figure.query_selector("svg").ok().flatten())
        .ok_or("the picture is not in the page")?;
    let picture = standalone(&svg, caption)?;
    match format {
        Format::Svg => super::download(
            &format!("{file}.svg"),
            "image/svg+xml;charset=utf-8",
            &picture.svg,
        )
        .ok_or_else(|| "the browser did not offer the file".to_string()),
        Format::Png => {
            let url = rasterise(&picture).await?;
            super::download_url(&format!("{file}.png"), &url)
                .ok_or_else(|| "the browser did not offer the file".to_string())
        }
    }
}

/// The figure's `<svg>` as a file of its own. See the module doc.
fn standalone(svg: &Element, caption: &str) -> Result<Picture, String> {
    let rect = svg.get_bounding_client_rect();
    let (w, h) = (rect.width().round(), rect.height().round());
    if w < 1.0 || h < 1.0 {
        return Err("the picture is not on screen; open its view first".into());
    }
    let window = web_sys::window().ok_or("no window")?;
    // The picture's own background, when the page gives it one (the keyspace strip has).
    let ground = window
        .get_computed_style(svg)
        .ok()
        .flatten()
        .and_then(|s| s.get_property_value("background-color").ok())
        .filter(|c| !c.is_empty() && c != "transparent" && c != "rgba(0, 0, 0, 0)")
        .map(|c| {
            format!(
                r#"<rect x="{PAD}" y="{PAD}" width="{w}" height="{h}" fill="{}"/>"#,
                escape(&c)
            )
        })
        .unwrap_or_default();
    let copy: Element = svg
        .clone_node_with_deep(true)
        .ok()
        .and_then(|n| n.dyn_into().ok())
        .ok_or("the picture could not be copied")?;
    let originals = svg
        .query_selector_all("*")
        .map_err(|_| "the picture's parts could not be listed")?;
    let copies = copy
        .query_selector_all("*")
        .map_err(|_| "the picture's parts could not be listed")?;
    for i in 0..originals.length().min(copies.length()) {
        let (Some(from), Some(to)) = (
            originals.item(i).and_then(|n| n.dyn_into::<Element>().ok()),
            copies.item(i).and_then(|n| n.dyn_into::<Element>().ok()),
        ) else {
            continue;
        };
        let tag = from.tag_name();
        let props: &[(&str, &str)] = if SHAPES.contains(&tag.as_str()) {
            &SHAPE_PAINT
        } else if TEXTS.contains(&tag.as_str()) {
            &TEXT_PAINT
        } else {
            &SHAPE_PAINT[6..]
        };
        let Ok(Some(style)) = window.get_computed_style(&from) else {
            continue;
        };
        let inline: Vec<String> = props
            .iter()
            .filter_map(|(name, initial)| {
                let value = style.get_property_value(name).ok()?;
                (!value.is_empty() && value != *initial).then(|| format!("{name}:{value}"))
            })
            .collect();
        let _ = to.set_attribute("style", &inline.join(";"));
    }
    for name in ["class", "role", "aria-label", "tabindex", "style"] {
        let _ = copy.remove_attribute(name);
    }
    for (name, value) in [("x", PAD), ("y", PAD), ("width", w), ("height", h)] {
        let _ = copy.set_attribute(name, &value.to_string());
    }
    let inner = web_sys::XmlSerializer::new()
        .and_then(|s| s.serialize_to_string(&copy))
        .map_err(|_| "the picture could not be written out")?;
    let root = window
        .document()
        .and_then(|d| d.document_element())
        .ok_or("no document")?;
    let theme = window.get_computed_style(&root).ok().flatten();
    let var = |name: &str, fallback: &str| {
        theme
            .as_ref()
            .and_then(|s| s.get_property_value(name).ok())
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| fallback.to_string())
    };
    let width = w.max(MIN_WIDTH) + 2.0 * PAD;
    let lines = wrap(caption, ((width - 2.0 * PAD) / CAPTION_CHAR) as usize);
    let height = h + 2.0 * PAD + lines.len() as f64 * CAPTION_LINE + PAD / 2.0;
    let text: String = lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            format!(
                r#"<tspan x="{PAD}" y="{}">{}</tspan>"#,
                h + PAD + (i as f64 + 1.0) * CAPTION_LINE,
                escape(line)
            )
        })
        .collect();
    let svg = format!(
        concat!(
            r#"<svg xmlns="{ns}" width="{width}" height="{height}" viewBox="0 0 {width} {height}">"#,
            r#"<title>{title}</title>"#,
            r#"<rect class="background" x="0" y="0" width="{width}" height="{height}" fill="{bg}"/>"#,
            "{ground}{inner}",
            r#"<text class="caption" font-family="{font}" font-size="{size}" fill="{fg}">{text}</text>"#,
            "</svg>"
        ),
        ns = SVG_NS,
        width = width,
        height = height,
        ground = ground,
        inner = inner,
        text = text,
        title = escape(caption),
        bg = escape(&var("--panel", "#ffffff")),
        fg = escape(&var("--text-2", "#24313f")),
        font = escape(&var("--sans", "sans-serif")),
        size = CAPTION_PX,
    );
    Ok(Picture {
        svg,
        width: width as u32,
        height: height.ceil() as u32,
    })
}

/// The picture drawn on a canvas at twice its size, as a PNG data URL.
async fn rasterise(picture: &Picture) -> Result<String, String> {
    let parts = js_sys::Array::of1(&picture.svg.as_str().into());
    let bag = web_sys::BlobPropertyBag::new();
    bag.set_type("image/svg+xml;charset=utf-8");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &bag)
        .map_err(|_| "the SVG could not be held in memory")?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)
        .map_err(|_| "the SVG could not be given an address")?;
    let drawn = draw(picture, &url).await;
    let _ = web_sys::Url::revoke_object_url(&url);
    drawn
}

async fn draw(picture: &Picture, url: &str) -> Result<String, String> {
    let image = HtmlImageElement::new().map_err(|_| "no image element")?;
    image.set_src(url);
    JsFuture::from(image.decode())
        .await
        .map_err(|_| "the browser could not draw the SVG")?;
    let canvas: HtmlCanvasElement = gloo::utils::document()
        .create_element("canvas")
        .ok()
        .and_then(|c| c.dyn_into().ok())
        .ok_or("the canvas is not available")?;
    let (w, h) = (picture.width * 2, picture.height * 2);
    canvas.set_width(w);
    canvas.set_height(h);
    let context: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into().ok())
        .ok_or("the canvas is not available")?;
    context
        .draw_image_with_html_image_element_and_dw_and_dh(
            &image,
            0.0,
            0.0,
            f64::from(w),
            f64::from(h),
        )
        .map_err(|_| "the SVG could not be drawn on the canvas")?;
    canvas
        .to_data_url_with_type("image/png")
        .map_err(|_| "the canvas could not be written as PNG".into())
}

/// Text split at spaces into lines of at most `width` characters (a longer word stands alone).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width.max(1) {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Text as XML character data or an attribute value.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}
