//! What a canvas shows, as a fingerprint kept on the element
//! ([`crate::chart::fingerprint`]): a chart asked to draw what its canvas
//! already shows draws nothing, and a lane chart draws again only the
//! blocks that differ. The fingerprint covers everything the pixels depend
//! on (data, window, size, device pixel ratio, theme, language); it is
//! removed while a drawing in parts is under way, so a canvas left half
//! drawn is always drawn again in full.

use js_sys::Reflect;
use wasm_bindgen::JsValue;
use web_sys::HtmlCanvasElement;

use crate::chart::fingerprint::Fingerprint;
use crate::text::Lang;

/// The property on the canvas element (not an attribute: page state the
/// markup never needs).
const KEY: &str = "tailsliceShown";

/// The fingerprint of what `canvas` shows, if it was drawn completely.
pub(crate) fn get(canvas: &HtmlCanvasElement) -> Option<String> {
    Reflect::get(canvas, &JsValue::from_str(KEY))
        .ok()
        .and_then(|v| v.as_string())
}

/// Records what `canvas` now shows (`None`: unknown, draw it all next time).
pub(crate) fn set(canvas: &HtmlCanvasElement, shown: Option<&str>) {
    let v = shown.map_or(JsValue::UNDEFINED, JsValue::from_str);
    // Setting a property on an element cannot fail.
    let _ = Reflect::set(canvas, &JsValue::from_str(KEY), &v);
}

/// The drawing conditions every chart's pixels depend on: the bitmap's
/// size, the device pixel ratio, the theme and the language.
pub(crate) fn surface(canvas: &HtmlCanvasElement, dpr: f64, dark: bool, lang: Lang) -> Fingerprint {
    let mut f = Fingerprint::new();
    f.word(u64::from(canvas.width()))
        .word(u64::from(canvas.height()))
        .num(dpr)
        .word(u64::from(dark))
        .text(lang.code());
    f
}
