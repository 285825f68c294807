//! The browser bindings, in headless Chromium (wasm-bindgen-test):
//! `cargo test --target wasm32-unknown-unknown -p tailslice --test wasm_bindings`.
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Float64Array, Reflect};
use serde_json::Value;
use tailslice::web::{self, Gantt, View};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn json(v: &JsValue) -> Value {
    let s = js_sys::JSON::stringify(v).unwrap().as_string().unwrap();
    serde_json::from_str(&s).unwrap()
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &key.into()).unwrap()
}

#[wasm_bindgen_test]
fn parse_query_defaults_and_canonical_form() {
    let d = json(&web::parse_query(""));
    assert_eq!(d["query"], "");
    assert_eq!(d["values"]["seed"], "42");
    assert_eq!(d["values"]["q"], "16");
    assert_eq!(d["values"]["mix"], "85:1-8,12:10-40,3:80-200");
    assert_eq!(d["policies"], serde_json::json!(["fifo", "rr"]));
    let long = &d["mix"][2];
    assert_eq!(
        [&long["weight"], &long["lo"], &long["hi"]].map(|v| v.as_f64().unwrap()),
        [3.0, 80.0, 200.0]
    );
    assert_eq!(long["dist"], "80-200");

    // Defaults are dropped, percent-escapes decoded, order canonical.
    let p = json(&web::parse_query("?q=8&seed=42&embed=1&mix=1%3Aexp(5)&v=1"));
    assert_eq!(p["query"], "v=1&mix=1:exp(5)&q=8&embed=1");
    assert_eq!(p["experiment"], "mix=1:exp(5)&q=8");
    assert_eq!(p["embed"], true);
    assert_eq!(p["mix"][0]["lo"], Value::Null);
    assert!(p["errors"].as_array().unwrap().is_empty());
}

#[wasm_bindgen_test]
fn the_embed_view_keys_end_the_canonical_query() {
    let p = json(&web::parse_query(
        "theme=dark&controls=0&view=gantt&embed=1&seed=3&real_repeats=5&v=1",
    ));
    assert!(p["errors"].as_array().unwrap().is_empty(), "{p}");
    assert_eq!(
        p["query"],
        "v=1&seed=3&real_repeats=5&embed=1&view=gantt&controls=0&theme=dark"
    );
    assert_eq!(p["view_query"], "embed=1&view=gantt&controls=0&theme=dark");
    assert_eq!(
        [&p["view"], &p["controls"], &p["theme"]],
        [
            &Value::from("gantt"),
            &Value::from(false),
            &Value::from("dark")
        ]
    );
    // On the full page only the theme applies and is written back.
    let full = json(&web::parse_query("view=table&controls=0&theme=light"));
    assert_eq!(full["query"], "v=1&theme=light");
    assert_eq!(full["view_query"], "theme=light");
    let none = json(&web::parse_query("seed=3"));
    assert_eq!(
        [
            &none["view"],
            &none["controls"],
            &none["theme"],
            &none["view_query"]
        ],
        [
            &Value::from("all"),
            &Value::from(true),
            &Value::from("auto"),
            &Value::from("")
        ]
    );
}

#[wasm_bindgen_test]
fn the_embed_snippet_and_its_refusals() {
    let svg = "<svg width=\"10\" height=\"10\" xmlns=\"http://www.w3.org/2000/svg\"></svg>";
    let live = web::embed_snippet(
        "live",
        "https://example.org/t/",
        "seed=3&lang=zh",
        "view=table&controls=1&theme=auto",
        "zh",
        svg,
        None,
    )
    .unwrap();
    assert!(
        live.contains("href=\"https://example.org/t/?v=1&amp;seed=3&amp;lang=zh\""),
        "{live}"
    );
    assert!(
        live.contains(
            "data-tailslice-facade=\"v=1&amp;seed=3&amp;lang=zh&amp;embed=1&amp;view=table\""
        ),
        "{live}"
    );
    assert!(live.contains("切换为可交互"), "{live}");
    for (kind, base, view, svg) in [
        ("iframe", "https://example.org/t/", "", svg),
        ("live", "javascript:alert(1)//", "", svg),
        ("live", "https://example.org/t/", "view=everything", svg),
        (
            "static",
            "https://example.org/t/",
            "",
            "<img src=x onerror=alert(1)>",
        ),
    ] {
        assert!(
            web::embed_snippet(kind, base, "seed=3", view, "en", svg, None).is_err(),
            "{kind} {base} {view} {svg}"
        );
    }
}

#[wasm_bindgen_test]
fn the_embed_figure_is_the_svg_figure_of_the_dialogs_part_and_colours() {
    // The figure at the snippet's three widths, the widest first: that one
    // is the page's figure.
    let figure = |view: &str, dark: bool, lang: &str| {
        let all =
            web::embed_figure("seed=3&q=9", view, dark, lang).unwrap_or_else(|_| panic!("{view}"));
        assert_eq!(all.matches("<svg").count(), 3, "{view}");
        let end = all.find("</svg>").unwrap() + "</svg>".len();
        all[..end].to_string()
    };
    let svg = |view: &str, theme: &str, lang: &str| {
        web::svg_figure("seed=3&q=9", view, theme, lang, None)
            .unwrap()
            .trim_end()
            .to_string()
    };
    // theme=auto takes the page's scheme; light and dark override it.
    assert_eq!(
        figure("view=all&theme=auto", false, "en"),
        svg("all", "light", "en")
    );
    assert_eq!(
        figure("view=cdf&theme=auto", true, "en"),
        svg("cdf", "dark", "en")
    );
    assert_eq!(
        figure("view=table&theme=dark", false, "zh"),
        svg("table", "dark", "zh")
    );
    assert_eq!(
        figure("view=gantt&theme=light&controls=0", true, "en"),
        svg("gantt", "light", "en")
    );
    // The snippet takes it as its figure.
    let table = web::embed_figure("seed=3&q=9", "view=table", false, "en").unwrap();
    assert!(web::embed_snippet(
        "static",
        "https://example.org/t/",
        "seed=3&q=9",
        "view=table",
        "en",
        &table,
        None
    )
    .is_ok());
    assert!(web::embed_figure("seed=3", "view=histogram", false, "en").is_err());
    assert!(web::embed_figure("seed=-1", "view=all", false, "en").is_err());
}

/// "Share these tasks": a trace's tasks out to a fragment and back, as the
/// page hands them over; a fragment of no tasks is null, a bad one refused
/// in both languages.
#[wasm_bindgen_test]
fn a_share_tasks_link_round_trips_and_refuses_by_name() {
    let tasks = "arrival_ms,duration_ms,class\n0,120,long\n130,30.25,short\n170.001,275,long\n";
    let out = json(&web::share_tasks_link(tasks, vec![0.0, 130.0, 170.001]));
    let fragment = out["fragment"].as_str().expect("a fragment").to_string();
    assert!(fragment.starts_with("main-thread=1."), "{fragment}");
    let back = web::open_tasks_link(&format!("#{fragment}"));
    let starts: Vec<f64> =
        js_sys::Float64Array::from(js_sys::Reflect::get(&back, &"starts".into()).unwrap()).to_vec();
    assert_eq!(starts, vec![0.0, 130.0, 170.001]);
    let text = js_sys::Reflect::get(&back, &"tasks".into())
        .unwrap()
        .as_string()
        .unwrap();
    assert!(text.contains("130,30.25,"), "{text}");
    assert!(web::open_tasks_link("#other=1").is_null());
    assert!(web::open_tasks_link("").is_null());
    let bad = json(&web::open_tasks_link("#main-thread=1.A*"));
    assert!(
        bad["error"]["en"]
            .as_str()
            .unwrap()
            .starts_with("#main-thread: "),
        "{bad}"
    );
    assert!(
        bad["error"]["zh"].as_str().unwrap().contains("第 4 个位置"),
        "{bad}"
    );
}

#[wasm_bindgen_test]
fn bad_and_hostile_values_are_reported_and_fall_back() {
    let p = json(&web::parse_query(
        "seed=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&q=0&v=2&embed=yes&n=9",
    ));
    let errors = p["errors"].as_array().unwrap();
    let fields: Vec<&str> = errors
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["v", "embed", "seed", "q"]);
    assert_eq!(errors[2]["value"], "<img src=x onerror=alert(1)>");
    assert_eq!(
        errors[3]["message"],
        "invalid q '0': expected a number of ms from 0.001 to 100000"
    );
    // In both languages, and with the value used instead for the banner.
    assert_eq!(errors[3]["refusal"]["en"], errors[3]["message"]);
    assert_eq!(
        errors[3]["refusal"]["zh"],
        "q 的值“0”无效，应为：0.001 到 100000 之间的数（ms）"
    );
    assert_eq!(
        errors[3]["banner"]["en"],
        "invalid q '0': expected a number of ms from 0.001 to 100000 → q=16 is used."
    );
    assert!(errors[3]["banner"]["zh"]
        .as_str()
        .unwrap()
        .ends_with("→ 改用 q=16。"));
    assert!(errors[1]["banner"]["en"]
        .as_str()
        .unwrap()
        .ends_with("→ embed=0 is used."));
    // The good parameter still applies; the bad ones use their defaults.
    assert_eq!(p["values"]["n"], "9");
    assert_eq!(p["values"]["seed"], "42");
    assert_eq!(p["query"], "v=1&n=9");
    // Beyond the web limits.
    let big = json(&web::parse_query("n=5000000"));
    assert_eq!(big["errors"][0]["field"], "n");
    assert_eq!(big["values"]["n"], "400");
}

#[wasm_bindgen_test]
fn run_gives_the_studys_numbers() {
    let r = web::run("").unwrap();
    let rows = json(&get(&r, "rows"));
    let fifo = &rows[0];
    let rr = &rows[1];
    assert_eq!(fifo["policy"], "fifo");
    assert_eq!(format!("{:.1}", fifo["mean"].as_f64().unwrap()), "2661.3");
    assert_eq!(format!("{:.1}", fifo["p95"].as_f64().unwrap()), "4774.4");
    assert_eq!(format!("{:.1}", rr["p50"].as_f64().unwrap()), "1472.8");
    assert_eq!(format!("{:.1}", rr["p95"].as_f64().unwrap()), "3441.4");
    assert_eq!(fifo["change"], Value::Null);
    assert!(rr["change"]["max"].as_f64().unwrap().abs() < 1e-9);
    assert_eq!(rr["change"]["p95"].as_f64().unwrap().round(), -28.0);
    // The cells' change texts and verdicts, and the table's reading, are Rust's.
    assert_eq!(fifo["change_text"], Value::Null);
    assert_eq!(rr["change_text"]["p95"], "−28 %");
    assert_eq!(rr["change_text"]["max"], "±0 %");
    assert_eq!(rr["verdict"]["p95"], "better");
    assert_eq!(rr["verdict"]["max"], "same");
    let reading = json(&get(&r, "reading"));
    assert!(
        reading["en"]
            .as_str()
            .unwrap()
            .starts_with("RR vs FIFO: mean −41 %"),
        "{reading}"
    );
    assert!(
        reading["zh"].as_str().unwrap().contains("最大值不变"),
        "{reading}"
    );
    // The report is the CLI's JSON object.
    let report = json(&get(&r, "report"));
    assert_eq!(report["tasks"], 400);
    assert_eq!(report["results"][1]["policy"], "rr");
    let cli: Value = serde_json::from_str(&web::report_json("").unwrap()).unwrap();
    for i in 0..2 {
        for m in ["mean", "p50", "p90", "p95", "p99", "max", "done_within"] {
            assert_eq!(
                cli["results"][i][m].as_f64(),
                report["results"][i][m].as_f64(),
                "{m}"
            );
        }
    }
    // Typed arrays, ready to be transferred: the schedules in the lane
    // charts' wire format.
    let gantt = get(&r, "gantt");
    let start: Float64Array = get(&gantt, "start").dyn_into().unwrap();
    assert!(start.length() > 800, "FIFO's 400 slices and RR's more");
    assert_eq!(json(&get(&gantt, "meta"))["drawn"], true);
    let runs: Array = get(&r, "runs").dyn_into().unwrap();
    let cdf: Float64Array = get(&runs.get(1), "cdf_x").dyn_into().unwrap();
    assert!(cdf.length() > 400);
}

#[wasm_bindgen_test]
fn runner_steps_report_progress() {
    let mut r = web::Runner::new("p=fifo,rr,srpt").unwrap();
    assert_eq!(r.total(), 4);
    assert_eq!(r.done(), 0);
    assert_eq!(r.next_label(), "drawing 400 tasks");
    assert!(r.step().unwrap());
    assert_eq!(r.next_label(), "simulating fifo");
    while r.step().unwrap() {}
    assert_eq!(r.done(), 4);
    let result = r.finish().unwrap();
    assert_eq!(json(&get(&result, "rows")).as_array().unwrap().len(), 3);
    assert!(web::Runner::new("q=-1").is_err());
}

fn canvas(w: u32, h: u32) -> web_sys::HtmlCanvasElement {
    let doc = web_sys::window().unwrap().document().unwrap();
    let c: web_sys::HtmlCanvasElement = doc.create_element("canvas").unwrap().dyn_into().unwrap();
    c.set_width(w);
    c.set_height(h);
    doc.body().unwrap().append_child(&c).unwrap();
    c
}

fn ink(c: &web_sys::HtmlCanvasElement) -> usize {
    let ctx: web_sys::CanvasRenderingContext2d =
        c.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    let data = js_sys::Reflect::get(
        &ctx.get_image_data(0.0, 0.0, c.width() as f64, c.height() as f64)
            .unwrap(),
        &"data".into(),
    )
    .unwrap();
    let bytes = js_sys::Uint8ClampedArray::from(data).to_vec();
    bytes.chunks(4).filter(|p| p[3] > 0).count()
}

#[wasm_bindgen_test]
fn gantt_and_view_draw_and_hit_test() {
    let result = web::run("").unwrap();
    let mut g = Gantt::new(get(&result, "gantt")).unwrap();
    assert!(g.drawn());
    // Segments are copied in chunks; the study's fit in one.
    assert!(g.load_segments());
    assert!((g.horizon() - 5209.4).abs() < 0.1);
    let h = g.height(800.0);
    let c = canvas(800, h as u32);
    g.draw(&c, 1.0, false).unwrap();
    assert!(ink(&c) > 800 * 20, "the Gantt chart is drawn");
    // FIFO's first lane starts with task 0.
    let tip = g.hit(9.0, 26.0, 800.0).unwrap();
    assert!(tip.starts_with("task #0 "), "{tip}");
    assert!(tip.contains("FIFO core 0"), "{tip}");
    assert!(
        g.hit(9.0, h - 2.0, 800.0).is_none(),
        "the legend is not a task"
    );
    // The legend names the classes, the long one marked.
    assert_eq!(g.legend_text(), "1-8 ms\n10-40 ms\n80-200 ms (long)");
    web::set_chart_lang("zh");
    assert!(g.hit(9.0, 26.0, 800.0).unwrap().starts_with("任务 #0 "));
    web::set_chart_lang("en");
    // Zoom keeps the time under the pointer; pan moves; reset shows all.
    g.zoom(4.0, 400.0, 800.0);
    assert!((g.t1() - g.t0() - g.horizon() / 4.0).abs() < 1e-6);
    let t0 = g.t0();
    g.pan(100.0, 800.0);
    assert!(g.t0() < t0);
    g.reset();
    assert_eq!(g.t0(), 0.0);

    let view = View::new(result).unwrap();
    let cdf = canvas(600, 300);
    view.draw_cdf(&cdf, 1.0, true).unwrap();
    assert!(ink(&cdf) > 2000, "CDF drawn");
    let hist = canvas(600, 300);
    view.draw_histogram(&hist, 2.0, false).unwrap();
    assert!(ink(&hist) > 2000, "histogram drawn");
}

#[wasm_bindgen_test]
fn the_catalog_is_the_cores_tables() {
    let c = json(&web::catalog());
    let keys: Vec<_> = c["params"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["key"].as_str().unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            "seed",
            "n",
            "mix",
            "q",
            "p",
            "cores",
            "cs",
            "rng",
            "within",
            "arrivals",
            "mlfq_levels",
            "mlfq_boost",
            "machine",
            "eevdf_slice_end"
        ]
    );
    assert_eq!(c["params"][1]["max"], 1_000_000.0);
    assert_eq!(c["policies"][4]["name"], "mlfq");
    assert_eq!(c["policies"][4]["uses_quantum"], true);
    assert_eq!(c["policies"][2]["uses_quantum"], false);
    assert_eq!(c["metrics"].as_array().unwrap().len(), 7);
    assert_eq!(c["limits"]["inline_max_slices"], 20_000.0);
    assert_eq!(c["limits"]["max_classes"], 16);
    assert!(web::file_too_large(20.0 * 1024.0 * 1024.0, "en").is_none());
    let too = web::file_too_large(20.0 * 1024.0 * 1024.0 + 1.0, "en").unwrap();
    assert!(too.starts_with("the file is 20971521 bytes"), "{too}");
    let too = web::file_too_large(20.0 * 1024.0 * 1024.0 + 1.0, "zh").unwrap();
    assert!(too.starts_with("文件有 20971521 字节"), "{too}");
}

#[wasm_bindgen_test]
fn lang_is_a_parameter_like_any_other() {
    let p = json(&web::parse_query("lang=zh-CN&seed=7"));
    assert_eq!(p["lang"], "zh");
    assert_eq!(p["errors"], serde_json::json!([]));
    let p = json(&web::parse_query("lang=fr"));
    assert_eq!(p["lang"], Value::Null);
    assert_eq!(p["errors"][0]["field"], "lang");
    assert_eq!(
        p["errors"][0]["message"],
        "invalid lang 'fr': expected en or zh"
    );
    assert!(p["errors"][0]["banner"]["en"]
        .as_str()
        .unwrap()
        .ends_with("→ the browser's language is used."));
    let p = json(&web::parse_query("lang=en&lang=zh"));
    assert_eq!(p["lang"], "en");
    assert!(p["errors"][0]["message"]
        .as_str()
        .unwrap()
        .contains("lang only once"));
}

#[wasm_bindgen_test]
fn the_measured_yield_cost_follows_the_primitive_run_for_real_used() {
    let cost = |used: Option<&str>, ms: Option<f64>| {
        json(&web::measured_yield_cost(used.map(str::to_string), ms))
    };
    // scheduler and message: the cost of one yield itself, to 0.1 µs.
    let c = cost(Some("message"), Some(0.123_456));
    assert_eq!(c, serde_json::json!({"yield": "message", "cost": "0.1235"}));
    // timeout: what is left after the 4 ms clamp the model adds itself.
    let c = cost(Some("timeout"), Some(4.26));
    assert_eq!(c, serde_json::json!({"yield": "timeout", "cost": "0.26"}));
    let c = cost(Some("timeout"), Some(3.0));
    assert_eq!(c["cost"], "0");
    // No run yet, a raf run, or a yield the clock could not time: a
    // sentence in both languages instead of a cost.
    for (used, ms, en) in [
        (None, None, "Run for real first"),
        (Some("raf"), Some(7.78), "requestAnimationFrame"),
        (Some("scheduler"), None, "could not time a yield"),
    ] {
        let m = cost(used, ms);
        assert!(m.get("cost").is_none(), "{m}");
        assert!(m["message"]["en"].as_str().unwrap().contains(en), "{m}");
        assert!(!m["message"]["zh"].as_str().unwrap().is_empty(), "{m}");
    }
}

#[wasm_bindgen_test]
fn bad_responsiveness_keys_say_what_is_used_instead() {
    let p = json(&web::parse_query(
        "resp_yield=auto&resp_cost=-1&resp_cost_from=typed&resp_quanta=4,4&resp_window=5-1",
    ));
    let banner = |field: &str| -> String {
        let e = p["errors"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["field"] == field)
            .unwrap_or_else(|| panic!("no refusal of {field}: {p}"));
        e["banner"]["en"].as_str().unwrap().to_string()
    };
    assert!(banner("resp_yield").ends_with("→ resp_yield=scheduler is used."));
    assert!(banner("resp_cost").ends_with("→ resp_cost=0.1 is used."));
    assert!(banner("resp_cost_from").ends_with("→ resp_cost_from is left empty."));
    assert!(banner("resp_quanta").ends_with("→ resp_quanta=4,8,16,24,32,48,64,100 is used."));
    assert!(banner("resp_window").ends_with("→ the tasks' span is used."));
    let zh = p["errors"][0]["refusal"]["zh"].as_str().unwrap();
    assert!(zh.starts_with("resp_yield 的值“auto”无效"), "{zh}");
    assert_eq!(p["query"], "", "every bad value leaves the link");
}
