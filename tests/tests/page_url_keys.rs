//! The keys of a link: `tasks` is `n` by another name (accepted and
//! refused alike, written back as `n`), a key the page does not read is
//! named in the banner, and a link with every key docs/url.md documents
//! shows no banner at all; the address fragment's one key (`#main-thread`,
//! "Share these tasks") is read as tasks or refused by name, never as a
//! query key.

use std::time::Duration;

use tailslice_e2e::page::{open_ready, table};
use tailslice_e2e::{Browser, Result};

const T: Duration = Duration::from_secs(60);

async fn banner(b: &Browser) -> Result<Vec<String>> {
    let v = b
        .eval_js(
            "const e = document.querySelector('#error'); \
             return e.hidden ? [] : [...e.querySelectorAll('li')].map((li) => li.textContent);",
        )
        .await?;
    Ok(v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default())
}

#[tokio::test]
async fn tasks_is_n_and_unknown_keys_are_named() -> Result<()> {
    let b = Browser::start().await?;
    open_ready(&b, "/?n=500").await?;
    let want = table(&b).await?;
    open_ready(&b, "/?tasks=500&colour=red").await?;
    assert_eq!(table(&b).await?, want);
    let url = b.current_url().await?;
    let query = url.query().unwrap_or_default().to_string();
    assert!(
        query.contains("n=500") && !query.contains("tasks"),
        "{query}"
    );
    let lines = banner(&b).await?;
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].contains("'colour'") && lines[0].contains("ignored"),
        "{lines:?}"
    );
    // Refused like n: the banner names the key as written.
    open_ready(&b, "/?n=99999999").await?;
    let by_key = banner(&b).await?;
    open_ready(&b, "/?tasks=99999999").await?;
    let by_alias = banner(&b).await?;
    assert_eq!(by_alias.len(), 1, "{by_alias:?}");
    assert_eq!(
        by_alias[0],
        by_key[0]
            .replacen("invalid n ", "invalid tasks ", 1)
            .replace("n=400", "tasks=400")
    );
    // In Chinese too.
    open_ready(&b, "/?lang=zh&colour=red").await?;
    let lines = banner(&b).await?;
    assert!(
        lines.len() == 1 && lines[0].contains("“colour”") && lines[0].contains("忽略"),
        "{lines:?}"
    );
    b.finish().await
}

/// A valid value for each documented key (`tasks` is left out: it is `n`,
/// given once).
const VALUES: &[(&str, &str)] = &[
    ("v", "1"),
    ("seed", "7"),
    ("n", "300"),
    ("mix", "85:1-8,12:10-40,3:80-200"),
    ("q", "16"),
    ("p", "fifo,rr"),
    ("cores", "1"),
    ("machine", "a10"),
    ("cs", "0"),
    ("rng", "python"),
    ("within", "100"),
    ("arrivals", "t0"),
    ("mlfq_levels", "3"),
    ("mlfq_boost", "1000"),
    ("eevdf_slice_end", "exact"),
    ("embed", "0"),
    ("view", "all"),
    ("controls", "1"),
    ("theme", "auto"),
    ("lang", "en"),
    ("real_scale", "auto"),
    ("real_repeats", "3"),
    ("real_yield", "auto"),
    ("resp_yield", "scheduler"),
    ("resp_cost", "0.1"),
    ("resp_cost_from", "given"),
    ("resp_quanta", "4,8,16"),
    ("resp_window", "0-100"),
    ("transit", "0.9"),
    ("s", "feishu-demo"),
    ("bl", "on"),
    ("nq", "2"),
    ("groups", "userInteractive,utility"),
    ("m", "a10"),
    ("ep", "0.3"),
    ("sys", "off"),
    ("secs", "0.5"),
    ("tl", "on"),
    ("pol", "xnu"),
    ("cr", "7195"),
    ("gcd", "per-item"),
    ("run", "0"),
];

#[tokio::test]
async fn a_link_with_every_documented_key_shows_no_banner() -> Result<()> {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/url.md"))?;
    let documented: Vec<&str> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once('`').map(|(k, _)| k))
        .collect();
    for key in &documented {
        assert!(
            *key == "tasks" || VALUES.iter().any(|(k, _)| k == key),
            "docs/url.md's key {key} has no value in this test"
        );
    }
    let query: Vec<String> = VALUES.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let b = Browser::start().await?;
    b.open(&format!("/?{}", query.join("&"))).await?;
    b.wait_js(
        "(() => { const r = document.querySelector('#scenario-results'); \
         return r && r.dataset.state === 'ready'; })()",
        T,
    )
    .await?;
    assert_eq!(banner(&b).await?, Vec::<String>::new());
    b.finish().await
}

#[tokio::test]
async fn a_bad_shared_tasks_fragment_is_refused_by_name() -> Result<()> {
    let b = Browser::start().await?;
    for (query, want) in [
        (
            "/#main-thread=2.AAAA",
            "#main-thread: this shared-tasks link is not of version 1",
        ),
        (
            "/?lang=zh#main-thread=1.AQ*A",
            "#main-thread：分享的任务在第 5 个位置有",
        ),
        (
            "/#main-thread=1.AQ",
            "#main-thread: the shared tasks end in the middle of a number",
        ),
    ] {
        open_ready(&b, query).await?;
        let v = b
            .wait_js(
                "!document.querySelector('#tasks-error').hidden && document.querySelector('#tasks-error').textContent",
                T,
            )
            .await?;
        let text = v.as_str().unwrap_or_default();
        assert!(text.contains(want), "{query}: {text}");
        // The page keeps its own tasks, and the fragment is no unknown key.
        assert_eq!(
            b.eval_js("return document.body.dataset.tasks || '';")
                .await?,
            ""
        );
        assert_eq!(banner(&b).await?, Vec::<String>::new(), "{query}");
    }
    b.finish().await
}
