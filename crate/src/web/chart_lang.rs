//! The language the wasm draws charts and writes tooltips in. The page
//! sets it with `setChartLang` when it starts and whenever the language
//! changes; every chart's words are Rust's ([`crate::chart::words`]).

use std::cell::Cell;

use wasm_bindgen::prelude::*;

use crate::text::Lang;

thread_local! {
    static LANG: Cell<Lang> = const { Cell::new(Lang::En) };
}

/// The charts' language.
pub(crate) fn lang() -> Lang {
    LANG.with(Cell::get)
}

/// Sets the charts' language (`en` or `zh`; anything else is English).
#[wasm_bindgen(js_name = setChartLang)]
pub fn set_chart_lang(code: &str) {
    LANG.with(|l| l.set(Lang::from_tag(code)));
}
