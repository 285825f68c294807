//! A main thread's tasks in a link: the "Share these tasks" link carries a
//! trace's tasks (each one's start and duration, nothing else) in the
//! address's fragment, `#main-thread=1.DATA`, so a reader reopens the same
//! Responsiveness answer without the trace file.
//!
//! `DATA` is base64url (no padding) of: the task count, then per task the
//! change of its start from the previous task's (zigzag, so any order
//! survives) and its duration, every number an unsigned LEB128 varint of
//! whole microseconds (a trace's own resolution, so a
//! trace's tasks come back exact). A link whose fragment would pass
//! [`MAX_FRAGMENT`] characters is refused rather than cut.
//!
//! Decoding refuses, by name ([`LinkError`]), anything that is not such a
//! text: another version, a character outside base64url, a number cut off
//! or too large, more or fewer tasks than it says, more than
//! [`MAX_TASKS`] tasks, a start or end past [`MAX_TIME_MS`].

use crate::text::{Filled, Text};

/// The fragment's key.
pub(crate) const KEY: &str = "main-thread";
/// The format's version (the text before the first `.`).
pub(crate) const VERSION: &str = "1";
/// The longest fragment value written or read, characters: with the page's
/// address the link stays within about 8 KB, which chat apps, mail and
/// browsers all keep whole.
pub(crate) const MAX_FRAGMENT: usize = 8000;
/// The most tasks a link may say it holds.
pub const MAX_TASKS: usize = 100_000;
/// The latest start or end, ms (about 11.6 days: far past any trace).
pub const MAX_TIME_MS: f64 = 1e9;

/// Units per ms: starts and durations come back as `units / 1000`, the
/// nearest number to the decimal a trace's microseconds make.
const PER_MS: f64 = 1000.0;
const MAX_UNITS: u64 = (MAX_TIME_MS * PER_MS) as u64;

/// Why tasks cannot be put in a link, or a link's text read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// No tasks to share.
    NoTasks,
    /// Starts and durations of different lengths.
    Mismatch { starts: usize, durations: usize },
    /// Task `task` (from 1) has a negative, infinite or too large start or
    /// duration.
    BadTask { task: usize },
    /// The fragment would hold `chars` characters, more than [`MAX_FRAGMENT`].
    TooLong { tasks: usize, chars: usize },
    /// Not `VERSION.` first.
    Version,
    /// A character outside base64url at `at` (from 1).
    NotBase64 { at: usize },
    /// The data ends inside a number.
    Truncated,
    /// A number larger than the format allows.
    TooLarge,
    /// The count says more than [`MAX_TASKS`], or none.
    Count { count: u64 },
    /// Data left after the last task.
    Trailing,
}

const NO_TASKS: Text = Text::new("there are no tasks to share", "没有可分享的任务");
const MISMATCH: Text = Text::new(
    "{} starts for {} durations: each task needs both",
    "{} 个开始时间对应 {} 个时长：每个任务都需要两者",
);
const BAD_TASK: Text = Text::new(
    "task {} has a start or duration outside 0 to 1e9 ms",
    "任务 {} 的开始时间或时长不在 0 到 1e9 ms 之内",
);
const TOO_LONG: Text = Text::new(
    "{} tasks make a link of {} characters, more than the {} a link can safely hold: share the trace file instead",
    "{} 个任务会生成 {} 个字符的链接，超过链接能稳妥容纳的 {} 个：请改为分享 trace 文件",
);
const VERSION_TEXT: Text = Text::new(
    "this shared-tasks link is not of version 1 (it should start '1.')",
    "这个分享任务的链接不是第 1 版（应以“1.”开头）",
);
const NOT_BASE64: Text = Text::new(
    "the shared tasks have a character outside A–Z, a–z, 0–9, - and _ at position {}",
    "分享的任务在第 {} 个位置有 A–Z、a–z、0–9、- 和 _ 以外的字符",
);
const TRUNCATED: Text = Text::new(
    "the shared tasks end in the middle of a number: the link was cut",
    "分享的任务在一个数字中间结束：链接被截断了",
);
const TOO_LARGE: Text = Text::new(
    "the shared tasks hold a start or duration past 1e9 ms",
    "分享的任务含有超过 1e9 ms 的开始时间或时长",
);
const COUNT: Text = Text::new(
    "the shared tasks say they are {} tasks: expected 1 to 100000",
    "分享的任务声称有 {} 个：应为 1 到 100000 个",
);
const TRAILING: Text = Text::new(
    "the shared tasks have data after their last task",
    "分享的任务在最后一个任务之后还有多余数据",
);
/// What every refusal of a link's text is prefixed with (the field).
const FIELD: Text = Text::new("#{}: {}", "#{}：{}");

impl LinkError {
    /// What went wrong, in both languages.
    pub fn messages(&self) -> Filled {
        let body = match *self {
            LinkError::NoTasks => NO_TASKS.both(&[]),
            LinkError::Mismatch { starts, durations } => {
                MISMATCH.both(&[&starts.to_string(), &durations.to_string()])
            }
            LinkError::BadTask { task } => BAD_TASK.both(&[&task.to_string()]),
            LinkError::TooLong { tasks, chars } => TOO_LONG.both(&[
                &tasks.to_string(),
                &chars.to_string(),
                &MAX_FRAGMENT.to_string(),
            ]),
            LinkError::Version => VERSION_TEXT.both(&[]),
            LinkError::NotBase64 { at } => NOT_BASE64.both(&[&at.to_string()]),
            LinkError::Truncated => TRUNCATED.both(&[]),
            LinkError::TooLarge => TOO_LARGE.both(&[]),
            LinkError::Count { count } => COUNT.both(&[&count.to_string()]),
            LinkError::Trailing => TRAILING.both(&[]),
        };
        if self.reading() {
            Filled::each(|lang| FIELD.fill(lang, &[KEY, body.get(lang)]))
        } else {
            body
        }
    }

    /// A refusal of a link's text (not of tasks to share).
    fn reading(&self) -> bool {
        !matches!(
            self,
            LinkError::NoTasks
                | LinkError::Mismatch { .. }
                | LinkError::BadTask { .. }
                | LinkError::TooLong { .. }
        )
    }
}

impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.messages().en)
    }
}

impl std::error::Error for LinkError {}

/// Tasks read back from a link: starts and durations, ms.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkTasks {
    pub starts: Vec<f64>,
    pub durations: Vec<f64>,
}

fn units(ms: f64) -> Option<u64> {
    if !(ms.is_finite() && (0.0..=MAX_TIME_MS).contains(&ms)) {
        return None;
    }
    Some((ms * PER_MS).round() as u64)
}

fn push_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

fn from_base64url(text: &str, offset: usize) -> Result<Vec<u8>, LinkError> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for (i, c) in text.chars().enumerate() {
        let v = match c {
            'A'..='Z' => c as u32 - 'A' as u32,
            'a'..='z' => c as u32 - 'a' as u32 + 26,
            '0'..='9' => c as u32 - '0' as u32 + 52,
            '-' => 62,
            '_' => 63,
            _ => return Err(LinkError::NotBase64 { at: offset + i + 1 }),
        };
        acc = (acc << 6 | v) & 0xff_ffff;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    // A lone last character (6 bits) holds no byte: the text was cut.
    if bits >= 6 {
        return Err(LinkError::Truncated);
    }
    Ok(out)
}

/// The fragment's value (`1.DATA`) for tasks starting at `starts` and
/// running `durations` ms.
pub fn encode(starts: &[f64], durations: &[f64]) -> Result<String, LinkError> {
    if starts.len() != durations.len() {
        return Err(LinkError::Mismatch {
            starts: starts.len(),
            durations: durations.len(),
        });
    }
    if starts.is_empty() {
        return Err(LinkError::NoTasks);
    }
    let mut bytes = Vec::with_capacity(starts.len() * 6 + 4);
    push_varint(&mut bytes, starts.len() as u64);
    let mut prev = 0i64;
    for (i, (&s, &d)) in starts.iter().zip(durations).enumerate() {
        let bad = LinkError::BadTask { task: i + 1 };
        let (s, d) = (units(s).ok_or(bad.clone())?, units(d).ok_or(bad.clone())?);
        if s + d > MAX_UNITS {
            return Err(bad);
        }
        push_varint(&mut bytes, zigzag(s as i64 - prev));
        push_varint(&mut bytes, d);
        prev = s as i64;
    }
    let text = format!("{VERSION}.{}", base64url(&bytes));
    if text.len() > MAX_FRAGMENT {
        return Err(LinkError::TooLong {
            tasks: starts.len(),
            chars: text.len(),
        });
    }
    Ok(text)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn varint(&mut self) -> Result<u64, LinkError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = *self.bytes.get(self.at).ok_or(LinkError::Truncated)?;
            self.at += 1;
            let part = (b & 0x7f) as u64;
            if shift == 63 && part > 1 {
                return Err(LinkError::TooLarge);
            }
            v |= part << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(LinkError::TooLarge)
    }
}

/// The tasks of a fragment's value (`1.DATA`, as [`encode`] writes it).
pub fn decode(text: &str) -> Result<LinkTasks, LinkError> {
    let data = text
        .strip_prefix(VERSION)
        .and_then(|t| t.strip_prefix('.'))
        .ok_or(LinkError::Version)?;
    if text.len() > MAX_FRAGMENT {
        return Err(LinkError::TooLong {
            tasks: 0,
            chars: text.len(),
        });
    }
    let bytes = from_base64url(data, VERSION.len() + 1)?;
    let mut r = Reader {
        bytes: &bytes,
        at: 0,
    };
    let count = r.varint()?;
    if count == 0 || count > MAX_TASKS as u64 {
        return Err(LinkError::Count { count });
    }
    // Each task takes at least two bytes: a count larger than the data
    // holds is a cut link, found before allocating for it.
    if count > (bytes.len() / 2) as u64 {
        return Err(LinkError::Truncated);
    }
    let mut out = LinkTasks {
        starts: Vec::with_capacity(count as usize),
        durations: Vec::with_capacity(count as usize),
    };
    let mut prev = 0i64;
    for _ in 0..count {
        let delta = unzigzag(r.varint()?);
        let d = r.varint()?;
        let s = prev.checked_add(delta).ok_or(LinkError::TooLarge)?;
        if s < 0 || s as u64 > MAX_UNITS || d > MAX_UNITS || s as u64 + d > MAX_UNITS {
            return Err(LinkError::TooLarge);
        }
        out.starts.push(s as f64 / PER_MS);
        out.durations.push(d as f64 / PER_MS);
        prev = s;
    }
    if r.at != bytes.len() {
        return Err(LinkError::Trailing);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_traces_tasks_come_back_exact() {
        let starts = [0.0, 275.033, 320.5, 1000.001, 999.999];
        let durations = [275.0, 12.25, 0.0, 51.5, 0.001];
        let text = encode(&starts, &durations).unwrap();
        assert!(text.starts_with("1."));
        let back = decode(&text).unwrap();
        assert_eq!(back.starts, starts);
        assert_eq!(back.durations, durations);
    }

    #[test]
    fn too_many_tasks_are_refused_not_cut() {
        let n = 3000;
        let starts: Vec<f64> = (0..n).map(|i| i as f64 * 97.123).collect();
        let durations: Vec<f64> = (0..n).map(|i| 50.0 + i as f64 * 0.731).collect();
        let e = encode(&starts, &durations).unwrap_err();
        assert!(matches!(e, LinkError::TooLong { tasks: 3000, .. }), "{e:?}");
        assert!(e.messages().en.contains("share the trace file instead"));
        assert!(e.messages().zh.contains("分享 trace 文件"));
    }

    #[test]
    fn bad_text_gets_a_named_refusal() {
        let good = encode(&[0.0, 10.0], &[5.0, 7.0]).unwrap();
        let cases = [
            ("", LinkError::Version),
            ("2.AAAA", LinkError::Version),
            ("1.AB*C", LinkError::NotBase64 { at: 5 }),
            ("1.", LinkError::Truncated),
            ("1.A", LinkError::Truncated),
            ("1.AA", LinkError::Count { count: 0 }),
            ("1.________________", LinkError::TooLarge),
        ];
        for (text, want) in cases {
            assert_eq!(decode(text), Err(want), "{text:?}");
        }
        assert_eq!(decode(&good[..good.len() - 2]), Err(LinkError::Truncated));
        let mut bytes = vec![1u8, 0, 0, 0];
        assert_eq!(
            decode(&format!("1.{}", base64url(&bytes))),
            Err(LinkError::Trailing)
        );
        bytes = vec![1u8, 1, 0];
        // A start before 0.
        assert_eq!(
            decode(&format!("1.{}", base64url(&bytes))),
            Err(LinkError::TooLarge)
        );
        for e in [
            LinkError::Version,
            LinkError::NotBase64 { at: 3 },
            LinkError::Truncated,
        ] {
            assert!(e.messages().en.starts_with("#main-thread: "), "{e}");
            assert!(e.messages().zh.starts_with("#main-thread："), "{e}");
        }
    }

    #[test]
    fn tasks_that_cannot_be_shared_are_named() {
        assert_eq!(encode(&[], &[]), Err(LinkError::NoTasks));
        assert_eq!(
            encode(&[0.0], &[1.0, 2.0]),
            Err(LinkError::Mismatch {
                starts: 1,
                durations: 2
            })
        );
        assert_eq!(
            encode(&[0.0, -1.0], &[1.0, 2.0]),
            Err(LinkError::BadTask { task: 2 })
        );
        assert_eq!(
            encode(&[f64::NAN], &[1.0]),
            Err(LinkError::BadTask { task: 1 })
        );
    }
}
