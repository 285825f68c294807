//! "Share these tasks": a trace's main-thread tasks in the page's address
//! fragment and back ([`crate::workload::task_link`]), in the worker's
//! module (loaded on the main thread for the button and for a link opened
//! with tasks in it).

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::result::to_js;
use crate::experiment::Limits;
use crate::text::Filled;
use crate::workload::task_link::{self, LinkError};
use crate::workload::task_list::{parse_task_list, task_list_text};
use crate::workload::Workload;

#[derive(Serialize)]
struct Refused {
    error: Filled,
}

fn refused(e: &LinkError) -> JsValue {
    to_js(&Refused {
        error: e.messages(),
    })
}

/// `shareTasksLink(tasks, starts) -> {fragment} | {error: {en, zh}}`: the
/// address fragment (`main-thread=1.DATA`, without `#`) carrying the tasks of the task list `tasks`
/// (the trace's, as the page holds them) started at their recorded
/// `starts`; refused (too many tasks for a link, …) in both languages.
#[wasm_bindgen(js_name = shareTasksLink)]
pub fn share_tasks_link(tasks: &str, starts: Vec<f64>) -> JsValue {
    let w = match parse_task_list(tasks, Limits::WEB.max_tasks) {
        Ok(w) => w,
        Err(_) => return refused(&LinkError::NoTasks),
    };
    match task_link::encode(&starts, &w.work) {
        Ok(value) => {
            to_js(&serde_json::json!({ "fragment": format!("{}={value}", task_link::KEY) }))
        }
        Err(e) => refused(&e),
    }
}

/// `openTasksLink(hash) -> {tasks, starts, count} | {error: {en, zh}} |
/// null`: the tasks of an address's fragment (`location.hash`, with or
/// without `#`) as a task list (`tasks`, CSV text) and their recorded
/// `starts`, the way a trace's tasks reach the page; null when the
/// fragment holds no tasks.
#[wasm_bindgen(js_name = openTasksLink)]
pub fn open_tasks_link(hash: &str) -> JsValue {
    let hash = hash.strip_prefix('#').unwrap_or(hash);
    let Some(value) = hash
        .strip_prefix(task_link::KEY)
        .and_then(|v| v.strip_prefix('='))
    else {
        return JsValue::NULL;
    };
    match task_link::decode(value) {
        Ok(t) => {
            let n = t.starts.len();
            let w = Workload {
                arrival: t.starts.clone(),
                work: t.durations,
                class: vec![0; n],
                ..Workload::default()
            };
            let o = js_sys::Object::new();
            let set = |k: &str, v: JsValue| {
                let _ = js_sys::Reflect::set(&o, &k.into(), &v);
            };
            set("tasks", task_list_text(&w).into());
            set("starts", js_sys::Float64Array::from(&t.starts[..]).into());
            set("count", (n as f64).into());
            o.into()
        }
        Err(e) => refused(&e),
    }
}
