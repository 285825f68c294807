//! chromedriver as a child process: found, started on a free port, and on
//! drop killed together with every Chromium process it started (even if
//! the test panicked), its temporary profile removed.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::Result;

fn free_port() -> Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

fn find_chromedriver() -> Result<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMEDRIVER") {
        return Ok(PathBuf::from(p));
    }
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("chromedriver"))
            .find(|p| p.is_file())
    });
    let candidate = on_path.unwrap_or_else(|| PathBuf::from("/usr/bin/chromedriver"));
    if candidate.is_file() {
        Ok(candidate)
    } else {
        Err(
            "chromedriver not found (looked at $CHROMEDRIVER, PATH, /usr/bin/chromedriver). \
             Install it with ./scripts/setup.sh (Debian: apt-get install chromium chromium-driver)"
                .into(),
        )
    }
}

/// Every process whose parent chain leads to `root` (not including `root`).
fn descendants(root: u32) -> Vec<u32> {
    let mut parent_of: Vec<(u32, u32)> = Vec::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for e in entries.flatten() {
            let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
                continue;
            };
            // "pid (comm) state ppid ..."; comm may contain spaces, so cut at the last ')'.
            let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
                continue;
            };
            if let Some(ppid) = rest.split_whitespace().nth(1).and_then(|s| s.parse().ok()) {
                parent_of.push((pid, ppid));
            }
        }
    }
    let mut found = vec![root];
    let mut i = 0;
    while i < found.len() {
        let p = found[i];
        found.extend(parent_of.iter().filter(|(_, pp)| *pp == p).map(|(c, _)| *c));
        i += 1;
    }
    found.remove(0);
    found
}

/// Processes whose command line mentions `needle` (used with the unique profile dir).
fn processes_mentioning(needle: &str) -> Vec<u32> {
    let me = std::process::id();
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for e in entries.flatten() {
            let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
                continue;
            };
            if pid == me {
                continue;
            }
            if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
                if String::from_utf8_lossy(&cmd).contains(needle) {
                    out.push(pid);
                }
            }
        }
    }
    out
}

/// A running chromedriver. Dropping it kills chromedriver, every browser
/// process it started, and removes the temporary profile.
pub struct ChromeDriver {
    child: Child,
    port: u16,
    profile_dir: PathBuf,
}

impl ChromeDriver {
    /// Starts chromedriver on a free port and waits until it answers `/status`.
    pub fn start() -> Result<Self> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let exe = find_chromedriver()?;
        let port = free_port()?;
        let profile_dir = std::env::temp_dir().join(format!(
            "tailslice-e2e-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&profile_dir);
        std::fs::create_dir_all(&profile_dir)?;
        let log = std::fs::File::create(profile_dir.with_extension("chromedriver.log"))?;
        let child = Command::new(&exe)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
        let mut driver = ChromeDriver {
            child,
            port,
            profile_dir,
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = driver.child.try_wait()? {
                return Err(format!(
                    "chromedriver exited at start ({status}); log: {}",
                    driver.log_path().display()
                )
                .into());
            }
            if let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) {
                // chromedriver refuses HTTP/1.0; ask it to close so read_to_string ends.
                let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
                let _ = s.write_all(
                    format!("GET /status HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n")
                        .as_bytes(),
                );
                let mut buf = String::new();
                let _ = s.read_to_string(&mut buf);
                if buf.contains("\"ready\"") {
                    return Ok(driver);
                }
            }
            if Instant::now() > deadline {
                return Err("chromedriver did not become ready within 20 s".into());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// `http://127.0.0.1:<port>` for the WebDriver client.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The fresh `--user-data-dir` for this browser.
    pub fn profile_dir(&self) -> &Path {
        &self.profile_dir
    }

    /// chromedriver's own log (useful when a session fails to start).
    pub fn log_path(&self) -> PathBuf {
        self.profile_dir.with_extension("chromedriver.log")
    }
}

impl Drop for ChromeDriver {
    fn drop(&mut self) {
        let mut pids = descendants(self.child.id());
        pids.extend(processes_mentioning(&self.profile_dir.to_string_lossy()));
        let _ = self.child.kill();
        for pid in pids {
            // SAFETY: plain kill(2) on pids we found as our own descendants.
            unsafe {
                libc::kill(pid as libc::pid_t, libc::SIGKILL);
            }
        }
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile_dir);
        let _ = std::fs::remove_file(self.log_path());
    }
}
