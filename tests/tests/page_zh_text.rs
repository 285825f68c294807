//! With `lang=zh` a reader meets no English sentence: every state of the
//! page (the study, a machine, each scenario, a trace opened with the file
//! picker, Run for real, the sweeps, a link with bad values, the embed
//! view) is visited and every visible text node, tooltip, placeholder, the
//! document's title and every word drawn on a canvas is read (and a
//! refused task list's line). Names may
//! stay as they are (policies, QoS classes, scenarios, units, flags and URL
//! keys): they are the short allow-list below, written out.
//!
//! And every URL key the page reads, given a bad value, gets a banner line
//! that names the key, the value, what is allowed and what is used
//! instead, in English and in Chinese.

use std::time::Duration;

use serde_json::{json, Value};
use tailslice_e2e::page::{open_ready, updates, wait_ready};
use tailslice_e2e::{Browser, Result};

const T: Duration = Duration::from_secs(60);

/// Words that may stay in Latin letters in Chinese text (compared without
/// case), besides the page's own URL keys where a refusal names them
/// (read from its catalog), words with capitals inside (`userInitiated`,
/// `DevTools`, `serialQueue`) and all-capital acronyms and placeholders
/// (`FIFO`, `PID`, `LOAD`).
#[rustfmt::skip]
const ALLOWED_WORDS: &[&str] = &[
    // the product; policies and XNU's Clutch scheduler, QoS classes and
    // machines in lower case
    "tailslice", "fifo", "sjf", "srpt", "mlfq", "xnu", "clutch", "eevdf", "default", "utility",
    "background", "maintenance", "xeon",
    // Linux's fair class: the kernel, its nice values, the base slice's
    // log2 scaling and eevdf_slice_end's values
    "linux", "nice", "log", "tick", "exact",
    // the responsiveness section names its --transit flag and URL key
    "transit",
    // values the parsers read (like flags): generators, arrivals, switches,
    // Run for real's yield primitives
    "python", "fast", "poisson", "burst", "off", "auto", "scheduler", "message", "timeout",
    "raf",
    // a file format (`.json`), products and tools, named as they are
    "json", "apple", "intel", "chrome", "chromium", "headless", "perfetto", "lighthouse",
    "puppeteer", "playwright",
    "instruments", "trace",
    // the language switch's own "English"
    "english",
    // the Feishu start-up's queue names and the M1 study's app (from the
    // studies)
    "account", "network", "cormorant",
    // GCD's and XNU's own terms for a queue kind and a thread-group flag;
    // the GCD cap knob's value
    "overcommit", "efficient", "held",
    // names this test's trace file gives its thread and events
    "crrenderermain", "runtask", "functioncall",
];

/// Names with punctuation or spaces, removed before the text is split into
/// words: scenarios, machines, the start-up's queues, web APIs.
const ALLOWED_NAMES: &[&str] = &[
    "feishu-demo",
    "feishu-startup",
    "m1-compress",
    "xeon-w",
    "net-callback",
    "per-item",
    "prefetch-images",
    "Event Timing",
    "Web Worker",
    // the "Share these tasks" link's fragment key, named in its refusals
    "main-thread",
];

/// The Latin words of `text` that are not names: runs of at least three
/// ASCII letters, after flags (`--machine`), keys with values (`nq=50`),
/// code (`arrival_ms`, `scheduler.yield()`, `ui.perfetto.dev`),
/// [`ALLOWED_NAMES`], `keys` (URL keys, where a refusal names them),
/// [`ALLOWED_WORDS`], words with capitals inside and all-capital words
/// are set aside.
fn english_words(text: &str, keys: &[String]) -> Vec<String> {
    let mut rest = text.to_string();
    for name in ALLOWED_NAMES {
        rest = rest.replace(name, " ");
    }
    let code = |chunk: &str| {
        let b = chunk.as_bytes();
        chunk.contains('_')
            || b.windows(3)
                .any(|w| w[0].is_ascii_alphabetic() && w[1] == b'.' && w[2].is_ascii_alphabetic())
    };
    let mut out = Vec::new();
    for chunk in rest.split(|c: char| c.is_whitespace() || !c.is_ascii()) {
        // A flag, a key=value, a path or code is a name.
        if chunk.starts_with("--") || chunk.contains('=') || chunk.contains('/') || code(chunk) {
            continue;
        }
        for word in chunk.split(|c: char| !c.is_ascii_alphabetic()) {
            let inner_capital = word.chars().skip(1).any(|c| c.is_ascii_uppercase());
            let lower = word.to_ascii_lowercase();
            if word.len() >= 3
                && !inner_capital
                && !ALLOWED_WORDS.contains(&lower.as_str())
                && !keys.contains(&lower)
            {
                out.push(word.to_string());
            }
        }
    }
    out
}

#[test]
fn the_detector_finds_english_and_passes_names() {
    let keys = ["machine".to_string()];
    let none: &[String] = &[];
    for names in [
        "在 FIFO 下，一半任务在 12.5 ms 内完成（feishu-demo，nq=50）",
        "用 --thread PID:TID 选择；userInitiated、utility",
        "CSV：arrival_ms,duration_ms[,class]；ui.perfetto.dev；scheduler.yield()",
        "machine 的值“99p”无效",
    ] {
        assert_eq!(english_words(names, &keys), Vec::<String>::new(), "{names}");
    }
    assert_eq!(english_words("main", none), ["main"]);
    assert_eq!(english_words("band limit 开", none), ["band", "limit"]);
    assert_eq!(english_words("invalid q '0'", none), ["invalid"]);
    assert_eq!(english_words("machine 留空", none), ["machine"]);
    assert_eq!(english_words("Done.", none), ["Done"]);
}

/// Records every string a canvas draws (`fillText`, `strokeText`) in
/// `window.__drawn`, from before the page's own scripts run.
const RECORD_CANVAS: &str = "window.__drawn = new Set(); \
    for (const C of [window.CanvasRenderingContext2D, window.OffscreenCanvasRenderingContext2D]) { \
      if (!C) continue; \
      for (const m of ['fillText', 'strokeText']) { \
        const f = C.prototype[m]; \
        C.prototype[m] = function (t, ...a) { if (window.__drawn.size < 5000) window.__drawn.add(String(t)); return f.call(this, t, ...a); }; \
      } \
    }";

/// Every text a reader can see now, as `[text, names keys]`: visible text
/// nodes (a closed select's options count when the select is visible),
/// tooltips and placeholders of visible elements, the document's title,
/// and what canvases drew since the last call (marked `canvas:`). Texts in
/// the banner and form errors name URL keys and flags.
const VISIBLE_TEXT: &str = "const shown = (e) => { const s = getComputedStyle(e); \
      return s.display !== 'none' && s.visibility !== 'hidden' && e.getClientRects().length > 0; }; \
    const keyed = (e) => !!e.closest('#error, .form-error'); \
    const out = [[document.title, false]]; \
    const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT); \
    while (w.nextNode()) { \
      const n = w.currentNode, t = n.textContent.trim(), p = n.parentElement; \
      if (!t || !p || p.closest('script, style, textarea')) continue; \
      const sel = p.closest('select'); \
      if (shown(sel || p)) out.push([t, keyed(p)]); \
    } \
    for (const e of document.querySelectorAll('[title]')) if (shown(e) && e.title) out.push([e.title, false]); \
    for (const e of document.querySelectorAll('[placeholder]')) if (shown(e) && !e.value) out.push([e.placeholder, false]); \
    out.push(...[...window.__drawn].map(t => [`canvas: ${t}`, false])); window.__drawn.clear(); \
    return out;";

/// The English found on the page now, as `state: text  [words]` lines
/// (`canvas:` before what a canvas drew).
async fn english_on_page(b: &Browser, state: &str, keys: &[String]) -> Result<Vec<String>> {
    let texts = b.eval_js(VISIBLE_TEXT).await?;
    let mut found = Vec::new();
    for pair in texts.as_array().ok_or("no texts")? {
        let t = pair[0].as_str().unwrap_or_default();
        let keyed = pair[1].as_bool().unwrap_or_default();
        let shown = t.strip_prefix("canvas: ").unwrap_or(t);
        let words = english_words(shown, if keyed { keys } else { &[] });
        if !words.is_empty() {
            found.push(format!("{state}: {t:?}  {words:?}"));
        }
    }
    Ok(found)
}

async fn wait_scenario(b: &Browser) -> Result<()> {
    b.wait_js(
        "(() => { const r = document.querySelector('#scenario-results'); \
         return r && r.dataset.state === 'ready'; })()",
        T,
    )
    .await?;
    Ok(())
}

/// A small trace: a page's main thread with a few tasks (one long) and
/// their first events, and a second thread.
fn small_trace() -> String {
    let mut events = vec![
        json!({"args": {"data": {"frames": [{"frame": "M", "processId": 20}]}},
               "name": "TracingStartedInBrowser", "ph": "I", "pid": 1, "tid": 1, "ts": 1e11}),
        json!({"args": {"name": "CrRendererMain"}, "name": "thread_name", "ph": "M", "pid": 20, "tid": 20}),
    ];
    let mut ts = 100_000_000_000u64;
    for i in 0..40u64 {
        let dur = if i == 7 { 80_000 } else { 500 + 300 * (i % 5) };
        let tid = if i % 4 == 3 { 31 } else { 20 };
        events.push(
            json!({"args": {}, "cat": "disabled-by-default-devtools.timeline", "name": "RunTask",
                           "ph": "X", "pid": 20, "tid": tid, "ts": ts, "dur": dur}),
        );
        events.push(json!({"args": {"data": {"frame": "M"}}, "cat": "devtools.timeline", "name": "FunctionCall",
                           "ph": "X", "pid": 20, "tid": tid, "ts": ts + 1, "dur": dur / 2}));
        ts += dur + 2_000;
    }
    json!({ "traceEvents": events }).to_string()
}

#[tokio::test]
async fn lang_zh_shows_no_english_sentence_in_any_state() -> Result<()> {
    let b = Browser::start().await?;
    b.cdp(
        "Page.addScriptToEvaluateOnNewDocument",
        json!({ "source": RECORD_CANVAS }),
    )
    .await?;
    let mut found: Vec<String> = Vec::new();

    // The study, with the settings and the generated sentences.
    open_ready(&b, "/?lang=zh").await?;
    let keys: Vec<String> = b
        .eval_js(KEYS)
        .await?
        .as_array()
        .ok_or("no keys")?
        .iter()
        .filter_map(|k| k["key"].as_str().map(str::to_string))
        .collect();
    let open_all =
        "document.querySelectorAll('details').forEach(d => { d.open = true; }); return true;";
    b.eval_js(open_all).await?;
    found.extend(english_on_page(&b, "study", &keys).await?);

    // A machine with P and E cores, and xnu.
    open_ready(
        &b,
        "/?lang=zh&machine=m1&p=fifo,rr,xnu&mix=85:1-8@utility,15:10-40",
    )
    .await?;
    found.extend(english_on_page(&b, "machine", &keys).await?);

    // The sweeps.
    b.eval_js("document.querySelector('#sweep-seeds').value = '1-5'; return true;")
        .await?;
    b.click("#sweep-seeds-run").await?;
    b.wait_js("document.body.dataset.sweep === 'done'", T)
        .await?;
    found.extend(english_on_page(&b, "seed sweep", &keys).await?);
    b.click("#sweep-quanta-run").await?;
    b.wait_js("document.body.dataset.sweep === 'done'", T)
        .await?;
    found.extend(english_on_page(&b, "quantum sweep", &keys).await?);

    // Each scenario, and another run picked in the charts.
    let names = b
        .eval_js("return window.tailslice.keyTables().scenarios.scenarios.map(s => s.name);")
        .await?;
    for name in names.as_array().ok_or("no scenarios")? {
        let name = name.as_str().unwrap_or_default();
        b.open(&format!("/?lang=zh&s={name}")).await?;
        wait_scenario(&b).await?;
        found.extend(english_on_page(&b, name, &keys).await?);
    }
    b.open("/?lang=zh&s=feishu-demo&bl=on&secs=2&run=1").await?;
    wait_scenario(&b).await?;
    found.extend(english_on_page(&b, "feishu-demo, band limit on, run 1", &keys).await?);

    // A trace opened with the file picker.
    open_ready(&b, "/?lang=zh&p=fifo,rr").await?;
    let path = std::env::temp_dir().join(format!(
        "tailslice-e2e-zh-trace-{}.json",
        std::process::id()
    ));
    std::fs::write(&path, small_trace())?;
    let n = updates(&b).await?;
    b.eval_js("document.querySelector('#tasks-panel').open = true; return true;")
        .await?;
    b.find("#trace-file")
        .await?
        .send_keys(path.to_str().ok_or("path")?)
        .await?;
    b.wait_js(
        "document.body.dataset.trace === 'ready' || document.body.dataset.trace === 'error'",
        T,
    )
    .await?;
    wait_ready(&b, n + 1).await?;
    let _ = std::fs::remove_file(&path);
    assert_eq!(
        b.eval_js("return document.body.dataset.trace;").await?,
        json!("ready")
    );
    found.extend(english_on_page(&b, "trace", &keys).await?);

    // Run for real: the panel, then a short run's results.
    open_ready(&b, "/?lang=zh&n=20&real_repeats=1&real_scale=0.05").await?;
    b.eval_js(open_all).await?;
    found.extend(english_on_page(&b, "run for real", &keys).await?);
    b.wait_js("!document.querySelector('#real-run').disabled", T)
        .await?;
    b.click("#real-run").await?;
    b.wait_js(
        "['done', 'invalid'].includes(document.querySelector('#real-status').dataset.state)",
        T,
    )
    .await?;
    found.extend(english_on_page(&b, "run for real, done", &keys).await?);

    // A link with bad values: the banner, and a form error.
    open_ready(&b, "/?lang=zh&q=0&machine=99p&real_scale=x&embed=2&lang=en").await?;
    found.extend(english_on_page(&b, "bad link", &keys).await?);
    b.eval_js(
        "const q = document.querySelector('#controls [data-param=q]'); q.value = '0'; \
         q.dispatchEvent(new Event('input', {bubbles: true})); return true;",
    )
    .await?;
    b.wait_js("!document.querySelector('#form-error').hidden", T)
        .await?;
    found.extend(english_on_page(&b, "form error", &keys).await?);
    // A task list with a bad line: Rust's refusal under the list.
    b.eval_js(open_all).await?;
    b.eval_js("document.querySelector('#tasks-text').value = '1\\nx\\n'; return true;")
        .await?;
    b.click("#tasks-use").await?;
    b.wait_js("!document.querySelector('#tasks-error').hidden", T)
        .await?;
    let refusal = b.text("#tasks-error").await?;
    assert!(refusal.contains("“x”"), "{refusal}");
    found.extend(english_on_page(&b, "task list error", &keys).await?);

    // The embed view, of the study and of a scenario.
    open_ready(&b, "/?lang=zh&embed=1").await?;
    found.extend(english_on_page(&b, "embed", &keys).await?);
    b.open("/?lang=zh&s=m1-compress&embed=1").await?;
    wait_scenario(&b).await?;
    found.extend(english_on_page(&b, "scenario embed", &keys).await?);

    found.dedup();
    assert!(
        found.is_empty(),
        "English with lang=zh ({} texts):\n{}",
        found.len(),
        found.join("\n")
    );
    b.finish().await
}

/// A value no key accepts, with a character outside ASCII.
const BAD: &str = "§bad";

/// Every key the page reads: the experiment's and the page's (catalog),
/// Run for real's (`real_values`), the scenarios' name, knobs and run.
const KEYS: &str = "return Promise.resolve(window.tailslice.keyTables()).then(t => { \
    const c = t.catalog, sc = t.scenarios, q = t.empty; \
    const keys = [...c.params, ...c.page_params].map(p => ({ key: p.key, allowed: p.allowed, default: p.default })); \
    for (const [key, v] of Object.entries(q.real_values)) keys.push({ key, default: v }); \
    keys.push({ key: sc.key }); \
    for (const k of sc.knobs) keys.push({ key: k.key, default: k.default }); \
    keys.push({ key: sc.run_key, default: '0' }); \
    return keys; });";

/// The banner's lines.
async fn banner_lines(b: &Browser) -> Result<Vec<String>> {
    let v = b
        .eval_js("return [...document.querySelectorAll('#error li')].map(li => li.textContent);")
        .await?;
    Ok(v.as_array()
        .ok_or("no banner")?
        .iter()
        .map(|l| l.as_str().unwrap_or_default().to_string())
        .collect())
}

fn has_han(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[tokio::test]
async fn every_key_with_a_bad_value_gets_a_banner_line_in_both_languages() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/").await?;
    let keys = b.eval_js(KEYS).await?;
    let keys: Vec<&Value> = keys.as_array().ok_or("no keys")?.iter().collect();
    let bad = "%C2%A7bad";
    for lang in ["en", "zh"] {
        // A bad lang= falls back to the browser's language (English here);
        // in Chinese it is refused as a repeat after lang=zh.
        let mut query = if lang == "en" {
            format!("/?lang={bad}")
        } else {
            format!("/?lang=zh&lang={bad}")
        };
        for k in &keys {
            let key = k["key"].as_str().unwrap_or_default();
            if key != "lang" {
                query.push_str(&format!("&{key}={bad}"));
            }
        }
        open_ready(&b, &query).await?;
        let lines = banner_lines(&b).await?;
        let head = b.text("#error p").await?;
        assert_eq!(lang == "zh", has_han(&head), "{lang}: {head}");
        for k in &keys {
            let key = k["key"].as_str().unwrap_or_default();
            let line = lines
                .iter()
                .find(|l| {
                    l.starts_with(&format!("invalid {key} '"))
                        || l.starts_with(&format!("{key} 的值"))
                        || l.starts_with(&format!("{key} 只能"))
                })
                .ok_or_else(|| format!("{lang}: no banner line for {key}: {lines:#?}"))?;
            let why = format!("{lang}, {key}: {line}");
            // The value as given.
            assert!(line.contains(BAD), "the value: {why}");
            // What is allowed: the catalog's words where it has them.
            let expected = if lang == "en" { "': expected " } else { "" };
            if let Some(allowed) = k["allowed"][lang]
                .as_str()
                .filter(|_| key != "lang" || lang == "en")
            {
                assert!(
                    line.contains(&format!("{expected}{allowed}")),
                    "what is allowed: {why}"
                );
            } else if lang == "en" {
                assert!(line.contains(expected), "what is allowed: {why}");
            } else {
                assert!(
                    line.contains("应为：") || line.contains("只能给一次"),
                    "what is allowed: {why}"
                );
            }
            // What is used instead, after the arrow: the value in effect.
            let (_, instead) = line
                .split_once(" → ")
                .ok_or_else(|| format!("no arrow: {why}"))?;
            let default = k["default"].as_str();
            let used = match (key, lang, default) {
                ("lang", "en", _) => "the browser's language is used.".to_string(),
                ("lang", _, _) => "改用 lang=zh。".to_string(),
                ("s", "en", _) => "no scenario: the experiment page is shown.".to_string(),
                ("s", _, _) => "不打开场景，显示实验页面。".to_string(),
                (_, "en", Some("")) if key == "machine" => format!("{key} is left empty."),
                (_, _, Some("")) if key == "machine" => format!("{key} 留空。"),
                (_, "en", Some("") | None) => "the scenario's default is used.".to_string(),
                (_, _, Some("") | None) => "使用场景的默认值。".to_string(),
                (_, "en", Some(d)) => format!("{key}={d} is used."),
                (_, _, Some(d)) => format!("改用 {key}={d}。"),
            };
            assert_eq!(instead, used, "what is used instead: {why}");
            if lang == "zh" {
                assert!(has_han(line), "not Chinese: {why}");
                assert!(
                    !line.contains("invalid") && !line.contains("expected"),
                    "{why}"
                );
            }
        }
        assert_eq!(
            lines.len(),
            keys.len(),
            "{lang}: one line per key: {lines:#?}"
        );
    }
    // Switching the language redraws the banner in the other one.
    b.eval_js(
        "const s = document.querySelector('#lang'); s.value = 'en'; \
         s.dispatchEvent(new Event('change')); return true;",
    )
    .await?;
    b.wait_js("document.documentElement.lang === 'en'", T)
        .await?;
    let lines = banner_lines(&b).await?;
    assert!(lines.iter().all(|l| !has_han(l)), "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("invalid q '§bad': expected ")),
        "{lines:#?}"
    );
    b.finish().await
}
