//! The page's own DevTools-protocol connection: a WebSocket to the page
//! target, opened beside chromedriver's.
//!
//! chromedriver's `goog/cdp/execute` waits for each command's reply, and an
//! `Input.dispatch*` command is only answered once the renderer has handled
//! the input, so inputs sent through it would queue behind each other. Here
//! commands are written as soon as they are asked for and their replies read
//! by a thread of their own: inputs are pipelined, as a user's are.
//!
//! The browser writes its DevTools port to `DevToolsActivePort` in its
//! profile directory (chromedriver starts it with `--remote-debugging-port=0`);
//! `/json/list` on that port names each page's WebSocket. Loopback only. The
//! WebSocket is the small part of RFC 6455 a client needs: masked text frames
//! out, text/continuation/ping/close frames in.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{json, Value};

use crate::{Browser, Result};

/// Replies by command id, and the events seen, shared with the reader thread.
#[derive(Default)]
struct Inbox {
    replies: HashMap<u64, Value>,
    events: Vec<Value>,
    closed: Option<String>,
}

/// A DevTools-protocol session on one page target.
pub struct CdpSocket {
    writer: Mutex<TcpStream>,
    next_id: AtomicU64,
    inbox: Arc<(Mutex<Inbox>, Condvar)>,
    /// Clock of the mask keys (any value will do; RFC 6455 asks for one per frame).
    mask_seed: AtomicU64,
}

impl Browser {
    /// The browser's DevTools targets (`/json/list`: each page's `url`,
    /// `title`, `webSocketDebuggerUrl`). Answered by the browser process,
    /// so it is current even while the page's main thread is busy.
    pub fn devtools_targets(&self) -> Result<Vec<Value>> {
        let port_file = self.driver().profile_dir().join("DevToolsActivePort");
        let text = std::fs::read_to_string(&port_file)
            .map_err(|e| format!("reading {}: {e}", port_file.display()))?;
        let port: u16 = text
            .lines()
            .next()
            .and_then(|l| l.trim().parse().ok())
            .ok_or_else(|| format!("no port in {}", port_file.display()))?;
        let list = http_get(port, "/json/list")?;
        let targets: Value = serde_json::from_str(&list)
            .map_err(|e| format!("DevTools /json/list is not JSON: {e}"))?;
        Ok(targets.as_array().cloned().unwrap_or_default())
    }

    /// Opens a DevTools-protocol WebSocket to the page whose URL starts with
    /// `url_prefix` (the page must be open).
    pub async fn devtools_socket(&self, url_prefix: &str) -> Result<CdpSocket> {
        let targets = self.devtools_targets()?;
        let ws = targets
            .iter()
            .find(|t| {
                t["type"] == "page" && t["url"].as_str().is_some_and(|u| u.starts_with(url_prefix))
            })
            .and_then(|t| t["webSocketDebuggerUrl"].as_str())
            .ok_or_else(|| format!("no page target at {url_prefix} in {targets:?}"))?
            .to_string();
        CdpSocket::connect(&ws)
    }
}

/// A GET on the DevTools HTTP endpoint, body as text (read to its
/// Content-Length: the endpoint may keep the connection open).
fn http_get(port: u16, path: &str) -> Result<String> {
    let s = TcpStream::connect(("127.0.0.1", port))?;
    s.set_read_timeout(Some(Duration::from_secs(10)))?;
    write!(
        &s,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )?;
    let mut r = BufReader::new(s);
    let mut len = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line)? == 0 || line == "\r\n" {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                len = v.trim().parse::<usize>().ok();
            }
        }
    }
    let mut body = vec![0u8; len.ok_or("the DevTools endpoint sent no Content-Length")?];
    r.read_exact(&mut body)?;
    Ok(String::from_utf8_lossy(&body).into_owned())
}

impl CdpSocket {
    /// Connects to `ws://127.0.0.1:<port>/devtools/page/<id>`.
    fn connect(ws_url: &str) -> Result<CdpSocket> {
        let rest = ws_url
            .strip_prefix("ws://")
            .ok_or_else(|| format!("not a ws:// URL: {ws_url}"))?;
        let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
        if !(host.starts_with("127.0.0.1:") || host.starts_with("localhost:")) {
            return Err(format!("the DevTools socket must be on loopback, not {host}").into());
        }
        let stream = TcpStream::connect(host.replace("localhost", "127.0.0.1"))?;
        stream.set_nodelay(true)?;
        // The key only proves the server speaks WebSocket; nothing secret.
        let key = base64::engine::general_purpose::STANDARD
            .encode(std::process::id().to_le_bytes().repeat(4));
        let mut w = stream.try_clone()?;
        // No Origin header: Chromium accepts DevTools sockets without one.
        write!(
            w,
            "GET /{path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )?;
        let mut reader = BufReader::new(stream.try_clone()?);
        let mut status = String::new();
        reader.read_line(&mut status)?;
        if !status.contains(" 101 ") {
            return Err(format!("DevTools socket refused the upgrade: {}", status.trim()).into());
        }
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line)? == 0 || line == "\r\n" {
                break;
            }
        }
        let inbox = Arc::new((Mutex::new(Inbox::default()), Condvar::new()));
        let inbox2 = inbox.clone();
        let pong = stream.try_clone()?;
        std::thread::Builder::new()
            .name("e2e-devtools-socket".into())
            .spawn(move || read_loop(reader, pong, &inbox2))?;
        Ok(CdpSocket {
            writer: Mutex::new(w),
            next_id: AtomicU64::new(1),
            inbox,
            mask_seed: AtomicU64::new(0x9e37_79b9_7f4a_7c15),
        })
    }

    /// Writes one command and returns its id at once, without waiting for
    /// the reply.
    pub fn send(&self, method: &str, params: Value) -> Result<u64> {
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        let text = json!({ "id": id, "method": method, "params": params }).to_string();
        let mask = self
            .mask_seed
            .fetch_add(0x9e37_79b9_7f4a_7c15, Ordering::Relaxed)
            .to_le_bytes();
        let frame = client_frame(text.as_bytes(), [mask[0], mask[1], mask[2], mask[3]]);
        self.writer
            .lock()
            .unwrap()
            .write_all(&frame)
            .map_err(|e| format!("writing {method} to the DevTools socket: {e}"))?;
        Ok(id)
    }

    /// Waits (blocking, at most `timeout`) for the reply to command `id`.
    pub fn reply(&self, id: u64, timeout: Duration) -> Result<Value> {
        let (lock, cv) = &*self.inbox;
        let deadline = Instant::now() + timeout;
        let mut inbox = lock.lock().unwrap();
        loop {
            if let Some(v) = inbox.replies.remove(&id) {
                if let Some(err) = v.get("error") {
                    return Err(format!("DevTools command {id} failed: {err}").into());
                }
                return Ok(v["result"].clone());
            }
            if let Some(why) = &inbox.closed {
                return Err(format!("DevTools socket closed: {why}").into());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(format!("no reply to DevTools command {id} within {timeout:?}").into());
            }
            inbox = cv.wait_timeout(inbox, left).unwrap().0;
        }
    }

    /// Sends a command and waits for its reply.
    pub fn call(&self, method: &str, params: Value, timeout: Duration) -> Result<Value> {
        let id = self.send(method, params)?;
        self.reply(id, timeout)
            .map_err(|e| format!("{method}: {e}").into())
    }

    /// Waits for every reply up to and including command `last` (the
    /// pipelined inputs are answered in order, once each was handled).
    pub fn replies_through(&self, last: u64, timeout: Duration) -> Result<()> {
        let (lock, cv) = &*self.inbox;
        let deadline = Instant::now() + timeout;
        let mut inbox = lock.lock().unwrap();
        loop {
            if inbox.replies.keys().any(|&id| id >= last) {
                return Ok(());
            }
            if let Some(why) = &inbox.closed {
                return Err(format!("DevTools socket closed: {why}").into());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(
                    format!("no reply to DevTools command {last} within {timeout:?}").into(),
                );
            }
            inbox = cv.wait_timeout(inbox, left).unwrap().0;
        }
    }

    /// Waits for an event named `method` (e.g. `Tracing.tracingComplete`)
    /// and returns its params.
    pub fn event(&self, method: &str, timeout: Duration) -> Result<Value> {
        let (lock, cv) = &*self.inbox;
        let deadline = Instant::now() + timeout;
        let mut inbox = lock.lock().unwrap();
        loop {
            if let Some(i) = inbox.events.iter().position(|e| e["method"] == method) {
                return Ok(inbox.events.remove(i)["params"].clone());
            }
            if let Some(why) = &inbox.closed {
                return Err(format!("DevTools socket closed: {why}").into());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(format!("no {method} event within {timeout:?}").into());
            }
            inbox = cv.wait_timeout(inbox, left).unwrap().0;
        }
    }
}

impl CdpSocket {
    /// Traces this page target with `categories` (comma-separated) from now
    /// on: the DevTools protocol's `Tracing.start` on the page's own
    /// session, as DevTools' Performance panel and Lighthouse start it, so
    /// the trace's `TracingStartedInBrowser` names the page's frame tree;
    /// then the `clock_sync` marker Lighthouse's trace gatherer records at
    /// the start of a timespan (`__lighthouseTimespanStart__`, its time
    /// origin), so Lighthouse reads the trace as one of its timespans.
    pub fn start_tracing(&self, categories: &str) -> Result<()> {
        let included: Vec<&str> = categories.split(',').collect();
        self.call(
            "Tracing.start",
            json!({
                "traceConfig": {"includedCategories": included, "recordMode": "recordUntilFull"},
                "transferMode": "ReportEvents",
            }),
            Duration::from_secs(30),
        )?;
        self.call(
            "Tracing.recordClockSyncMarker",
            json!({"syncId": "__lighthouseTimespanStart__"}),
            Duration::from_secs(30),
        )?;
        Ok(())
    }

    /// Ends the trace of [`Self::start_tracing`] and returns its events (the
    /// `traceEvents` of a trace file), in the order the browser sent them.
    pub fn end_tracing(&self, timeout: Duration) -> Result<Vec<Value>> {
        self.call("Tracing.end", json!({}), timeout)?;
        self.event("Tracing.tracingComplete", timeout)?;
        let (lock, _) = &*self.inbox;
        let mut inbox = lock.lock().unwrap();
        let mut events = Vec::new();
        inbox.events.retain(|e| {
            if e["method"] == "Tracing.dataCollected" {
                if let Some(v) = e["params"]["value"].as_array() {
                    events.extend(v.iter().cloned());
                }
                false
            } else {
                true
            }
        });
        Ok(events)
    }
}

impl Drop for CdpSocket {
    fn drop(&mut self) {
        if let Ok(w) = self.writer.lock() {
            let _ = w.shutdown(std::net::Shutdown::Both);
        }
    }
}

/// One masked, final text frame (clients must mask, RFC 6455 §5.3).
fn client_frame(payload: &[u8], mask: [u8; 4]) -> Vec<u8> {
    let mut f = Vec::with_capacity(payload.len() + 14);
    f.push(0x81);
    let n = payload.len();
    if n < 126 {
        f.push(0x80 | n as u8);
    } else if n <= 0xffff {
        f.push(0x80 | 126);
        f.extend_from_slice(&(n as u16).to_be_bytes());
    } else {
        f.push(0x80 | 127);
        f.extend_from_slice(&(n as u64).to_be_bytes());
    }
    f.extend_from_slice(&mask);
    f.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    f
}

/// Reads frames until the socket closes, filing replies and events.
fn read_loop(mut r: BufReader<TcpStream>, mut pong: TcpStream, inbox: &(Mutex<Inbox>, Condvar)) {
    let why = loop {
        match read_message(&mut r, &mut pong) {
            Ok(Some(text)) => {
                let Ok(v) = serde_json::from_str::<Value>(&text) else {
                    continue;
                };
                let mut g = inbox.0.lock().unwrap();
                match v.get("id").and_then(Value::as_u64) {
                    Some(id) => {
                        g.replies.insert(id, v);
                    }
                    None => g.events.push(v),
                }
                inbox.1.notify_all();
            }
            Ok(None) => break "the browser closed it".to_string(),
            Err(e) => break e.to_string(),
        }
    };
    inbox.0.lock().unwrap().closed = Some(why);
    inbox.1.notify_all();
}

/// One whole text message (continuation frames joined); `None` on close.
fn read_message(r: &mut impl Read, pong: &mut TcpStream) -> std::io::Result<Option<String>> {
    let mut message = Vec::new();
    loop {
        let mut head = [0u8; 2];
        r.read_exact(&mut head)?;
        let (fin, opcode) = (head[0] & 0x80 != 0, head[0] & 0x0f);
        let masked = head[1] & 0x80 != 0;
        let len = match head[1] & 0x7f {
            126 => {
                let mut b = [0u8; 2];
                r.read_exact(&mut b)?;
                u64::from(u16::from_be_bytes(b))
            }
            127 => {
                let mut b = [0u8; 8];
                r.read_exact(&mut b)?;
                u64::from_be_bytes(b)
            }
            n => u64::from(n),
        };
        let mut mask = [0u8; 4];
        if masked {
            r.read_exact(&mut mask)?;
        }
        let mut payload = vec![0u8; len as usize];
        r.read_exact(&mut payload)?;
        if masked {
            for (i, b) in payload.iter_mut().enumerate() {
                *b ^= mask[i % 4];
            }
        }
        match opcode {
            0x8 => return Ok(None),
            0x9 => {
                let mut f = vec![0x8a, 0x80 | payload.len().min(125) as u8, 0, 0, 0, 0];
                f.extend_from_slice(&payload[..payload.len().min(125)]);
                pong.write_all(&f)?;
                continue;
            }
            0xa => continue,
            _ => message.extend_from_slice(&payload),
        }
        if fin {
            return Ok(Some(String::from_utf8_lossy(&message).into_owned()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_frames_are_masked_with_the_right_length() {
        let f = client_frame(b"hi", [1, 2, 3, 4]);
        assert_eq!(f, [0x81, 0x82, 1, 2, 3, 4, b'h' ^ 1, b'i' ^ 2]);
        let long = client_frame(&[0u8; 300], [0; 4]);
        assert_eq!(&long[..4], &[0x81, 0x80 | 126, 1, 44]);
        assert_eq!(long.len(), 4 + 4 + 300);
    }

    #[test]
    fn server_messages_join_their_fragments() {
        // "ab" in two frames (text, then a final continuation), then a close.
        let bytes = [0x01, 1, b'a', 0x80, 1, b'b', 0x88, 0];
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let mut pong = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let mut r = &bytes[..];
        assert_eq!(
            read_message(&mut r, &mut pong).unwrap().as_deref(),
            Some("ab")
        );
        assert_eq!(read_message(&mut r, &mut pong).unwrap(), None);
    }
}
