//! The page's layout where it broke: the Tasks input and the "new seed"
//! button at desktop widths, the latency table's p95 on a phone, elements
//! marked `hidden` that a stylesheet showed anyway, and the Cores control
//! out of step with the Machine field. Each test waits on the page's own
//! state and measures the DOM; screenshots of the parts go to
//! `tests/artifacts/` for a person to look at.

use serde_json::Value;
use tailslice_e2e::page::{open_ready, updates, wait_ready};
use tailslice_e2e::{artifacts_dir, Browser, Result};

/// Saves a PNG of the element `css` to `tests/artifacts/<name>.png`.
async fn shot(b: &Browser, css: &str, name: &str) -> Result<()> {
    b.eval_js(&format!(
        "document.querySelector('{css}').scrollIntoView({{block: 'center'}}); return true;"
    ))
    .await?;
    let png = b.find(css).await?.screenshot().await?;
    std::fs::write(artifacts_dir().join(format!("{name}.png")), png)?;
    Ok(())
}

/// Sets a control's value and sends the event a visitor's edit would.
async fn set_control(b: &Browser, css: &str, value: &str, event: &str) -> Result<()> {
    b.eval_js(&format!(
        "const e = document.querySelector('{css}'); e.value = {}; \
         e.dispatchEvent(new Event('{event}', {{bubbles: true}})); return true;",
        serde_json::to_string(value)?
    ))
    .await?;
    Ok(())
}

/// `[left, right, scrollWidth, clientWidth]` of the first element matching `css`.
async fn box_of(b: &Browser, css: &str) -> Result<[f64; 4]> {
    let v = b
        .eval_js(&format!(
            "const e = document.querySelector('{css}'); const r = e.getBoundingClientRect(); \
             return [r.left, r.right, e.scrollWidth, e.clientWidth];"
        ))
        .await?;
    let n = |i: usize| v[i].as_f64().unwrap_or(f64::NAN);
    Ok([n(0), n(1), n(2), n(3)])
}

#[tokio::test]
async fn the_seed_row_fits_beside_the_tasks_input_at_desktop_widths() -> Result<()> {
    let b = Browser::start().await?;
    for lang in ["en", "zh"] {
        open_ready(&b, &format!("/?lang={lang}")).await?;
        for width in [1200, 1100, 1300, 1400] {
            // A window shorter than the page: the page has a scrollbar.
            b.set_window_size(width, 800).await?;
            b.wait_js(
                &format!("document.documentElement.clientWidth < {width} && document.documentElement.scrollHeight > innerHeight"),
                tailslice_e2e::DEFAULT_TIMEOUT,
            )
            .await?;
            if width == 1200 {
                shot(&b, ".row2", &format!("layout-seed-row-{lang}-{width}")).await?;
            }
            let [_, button_right, button_scroll, button_client] = box_of(&b, "#new-seed").await?;
            let [tasks_left, ..] = box_of(&b, "#tasks").await?;
            let [seed_left, seed_right, ..] = box_of(&b, "#seed").await?;
            assert!(
                button_right <= tasks_left,
                "{lang} at {width} px: the new-seed button (right {button_right}) overlaps the Tasks input (left {tasks_left})"
            );
            assert!(
                button_scroll <= button_client,
                "{lang} at {width} px: the button's text is cut ({button_scroll} > {button_client})"
            );
            // The seed shows all ten digits of the largest 32-bit seed.
            let fits = b
                .eval_js(
                    "const s = document.querySelector('#seed'); const old = s.value; s.value = '4294967295'; \
                     const ok = s.scrollWidth <= s.clientWidth; s.value = old; return ok;",
                )
                .await?;
            assert_eq!(
                fits,
                Value::Bool(true),
                "{lang} at {width} px: seed {seed_left}..{seed_right}"
            );
        }
    }
    b.finish().await
}

/// `[cell right, wrap right, wrap scrollWidth, wrap clientWidth]` of the
/// latency table's p95 column.
async fn p95_edges(b: &Browser) -> Result<Vec<f64>> {
    let v = b
        .eval_js(
            "const wrap = document.querySelector('#percentiles').closest('.table-wrap'); \
             const cells = [...document.querySelectorAll('#percentiles td[data-metric=p95]')]; \
             const right = Math.max(...cells.map(c => c.getBoundingClientRect().right)); \
             return [right, wrap.getBoundingClientRect().right, wrap.scrollWidth, wrap.clientWidth];",
        )
        .await?;
    Ok(v.as_array()
        .ok_or("edges")?
        .iter()
        .map(|x| x.as_f64().unwrap_or(f64::NAN))
        .collect())
}

#[tokio::test]
async fn the_latency_table_shows_p95_on_a_phone_without_scrolling() -> Result<()> {
    let b = Browser::start().await?;
    b.set_window_size(390, 844).await?;
    for (query, name) in [
        ("/", "study"),
        ("/?p=fifo,rr,sjf,srpt", "four"),
        ("/?lang=zh&p=fifo,rr,mlfq", "zh"),
        ("/?n=20000&mix=1:pareto(2,1.5)&p=fifo,rr,srpt", "large"),
    ] {
        open_ready(&b, query).await?;
        b.wait_js(
            "document.documentElement.clientWidth <= 390",
            tailslice_e2e::DEFAULT_TIMEOUT,
        )
        .await?;
        shot(
            &b,
            ".table-wrap:has(#percentiles)",
            &format!("layout-phone-table-{name}"),
        )
        .await?;
        let e = p95_edges(&b).await?;
        assert!(
            e[0] <= e[1] + 0.5,
            "{query}: p95 cells end at {} px, past the table's box at {} px",
            e[0],
            e[1]
        );
    }
    b.finish().await
}

/// Elements marked `hidden` that are displayed all the same.
async fn shown_though_hidden(b: &Browser) -> Result<Vec<String>> {
    let v = b
        .eval_js(
            "return [...document.querySelectorAll('[hidden]')] \
             .filter(e => getComputedStyle(e).display !== 'none') \
             .map(e => e.id ? `#${e.id}` : `${e.tagName.toLowerCase()}.${e.className}`);",
        )
        .await?;
    Ok(v.as_array()
        .map(|a| {
            a.iter()
                .map(|x| x.as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default())
}

#[tokio::test]
async fn every_hidden_element_stays_hidden() -> Result<()> {
    let b = Browser::start().await?;
    // The study, with the settings' folded panels open (the trace options
    // showed here before any trace was opened).
    open_ready(&b, "/").await?;
    b.eval_js("for (const d of document.querySelectorAll('details')) d.open = true; return true;")
        .await?;
    let found = shown_though_hidden(&b).await?;
    assert!(b
        .find("#trace-choice")
        .await?
        .attr("hidden")
        .await?
        .is_some());
    shot(&b, "#tasks-panel", "layout-hidden-tasks-panel").await?;
    assert!(found.is_empty(), "the study: {found:?}");
    // A scenario, an embed, and Chinese: other panels, other hidden parts.
    for query in ["/?s=feishu-demo", "/?embed=1", "/?lang=zh&p=fifo,rr,srpt"] {
        b.open(query).await?;
        b.wait_js(
            "document.body.dataset.state === 'ready' || (document.querySelector('#scenario-results') || {dataset: {}}).dataset.state === 'ready'",
            tailslice_e2e::page::READY,
        )
        .await?;
        let found = shown_though_hidden(&b).await?;
        assert!(found.is_empty(), "{query}: {found:?}");
    }
    b.finish().await
}

async fn disabled(b: &Browser, css: &str) -> Result<bool> {
    Ok(
        b.eval_js(&format!("return document.querySelector('{css}').disabled;"))
            .await?
            .as_bool()
            .unwrap_or(false),
    )
}

#[tokio::test]
async fn cores_follow_the_machine_field_while_editing() -> Result<()> {
    let b = Browser::start().await?;
    // A named machine decides the cores: the Cores control is disabled,
    // and a cores= it overrides is not kept in the link.
    open_ready(&b, "/?machine=m1&cores=4").await?;
    assert!(disabled(&b, "#cores").await?, "m1: Cores disabled");
    let q = b
        .current_url()
        .await?
        .query()
        .unwrap_or_default()
        .to_string();
    assert!(q.contains("machine=m1") && !q.contains("cores="), "{q}");
    let machine = "#controls [data-param=machine]";
    // Emptied: identical cores again, and Cores can be edited.
    let n = updates(&b).await?;
    set_control(&b, machine, "", "input").await?;
    wait_ready(&b, n + 1).await?;
    assert!(!disabled(&b, "#cores").await?, "no machine: Cores enabled");
    let q = b.eval_js("return window.tailslice.query;").await?;
    assert!(
        !q.as_str().unwrap_or("machine=").contains("machine="),
        "{q}"
    );
    // Typed: 2p+4e decides the cores again.
    let n = updates(&b).await?;
    set_control(&b, machine, "2p+4e", "input").await?;
    wait_ready(&b, n + 1).await?;
    assert!(disabled(&b, "#cores").await?, "2p+4e: Cores disabled");
    let q = b
        .current_url()
        .await?
        .query()
        .unwrap_or_default()
        .to_string();
    assert!(q.contains("machine=2p%2B4e"), "{q}");
    assert!(!q.contains("cores="), "{q}");
    b.finish().await
}
