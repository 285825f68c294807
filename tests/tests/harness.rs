//! Checks of the harness itself, on a tiny page written here (no dist/ needed):
//! console errors, exceptions and missing files are caught, so a clean smoke
//! test really means a clean page.

use std::ops::ControlFlow;
use std::time::Duration;

use tailslice_e2e::{Browser, Result};

fn page_dir(name: &str, html: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tailslice-e2e-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("index.html"), html).unwrap();
    dir
}

#[tokio::test]
async fn errors_on_the_page_are_reported() -> Result<()> {
    let dir = page_dir(
        "errors",
        r#"<!doctype html><title>t</title>
<script src="missing.js"></script>
<script>console.error("boom from console"); setTimeout(() => { throw new Error("uncaught boom"); });</script>
<p id="p" data-x="7">hello</p>"#,
    );
    let b = Browser::start_serving(&dir).await?;
    b.open("/?a=1&b=2").await?;
    assert_eq!(b.text("#p").await?, "hello");
    assert_eq!(b.attr("#p", "data-x").await?.as_deref(), Some("7"));
    assert_eq!(b.eval_js("return location.search").await?, "?a=1&b=2");
    // The exception is thrown from a timer: wait until the console has it.
    let all = b
        .wait_until(
            "the uncaught error logged",
            Duration::from_secs(10),
            || async {
                let all = b.errors().await?.join("\n");
                Ok(if all.contains("uncaught boom") {
                    ControlFlow::Break(all)
                } else {
                    ControlFlow::Continue(all)
                })
            },
        )
        .await?;
    assert!(all.contains("boom from console"), "{all}");
    assert!(all.contains("uncaught boom"), "{all}");
    assert!(all.contains("missing.js"), "{all}");
    assert!(b.assert_no_errors().await.is_err());

    b.ignore_error("boom");
    b.ignore_error("missing.js");
    assert!(b.errors().await?.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

#[tokio::test]
async fn wait_for_times_out_with_a_clear_message() -> Result<()> {
    let dir = page_dir("timeout", "<!doctype html><title>t</title><p>x</p>");
    let b = Browser::start_serving(&dir).await?;
    b.open("/").await?;
    let err = match b.wait_for("#never", Duration::from_millis(300)).await {
        Ok(_) => panic!("wait_for must fail"),
        Err(e) => e,
    };
    assert!(err.to_string().contains("#never"), "{err}");
    b.finish().await?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

#[test]
fn the_cli_binary_is_built_and_runs() -> Result<()> {
    let path = tailslice_e2e::cli_path()?;
    assert!(path.is_file(), "{}", path.display());
    let help = tailslice_e2e::run_cli(["help"])?;
    assert!(help.contains("tailslice"), "{help}");
    Ok(())
}
