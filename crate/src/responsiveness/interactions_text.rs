//! The interactions in plain words, English and Chinese: the table's
//! headings, INP per row, and the reading of the interaction that sets INP
//! (which phase dominates it and what slicing can and cannot do about it),
//! with the model checked against the recorded input delays.

use super::answer::Answer;
use super::interactions::LONG_HANDLER_MS;
use crate::text::{Lang, Text};

/// The interactions table's headings before the sliced latencies.
pub const HEADS: [Text; 8] = [
    Text::new("id", "编号"),
    Text::new("kind", "类型"),
    Text::new("start", "开始"),
    Text::new("latency", "延迟"),
    Text::new("input delay", "输入延迟"),
    Text::new("processing", "处理"),
    Text::new("presentation", "呈现延迟"),
    Text::new("model delay", "模型输入延迟"),
];
/// A sliced latency's heading (`{}`: the quantum).
pub const SLICED_HEAD: Text = Text::new("q {}", "q {}");
pub const CAPTION: Text = Text::new(
    "Interactions (ms; recorded phases, the model's input delay as recorded, then the latency sliced at each quantum):",
    "交互（ms；记录的各阶段、模型按记录给出的输入延迟，以及按各时间片切分后的延迟）：",
);
pub const INP_ROW: Text = Text::new("INP per row (ms): {}", "各行的 INP（ms）：{}");
pub const INP_HANDLERS_YIELD: Text = Text::new(
    "INP if the interactions' own handlers yielded after q ms, the other tasks whole (the frame after their first piece) (ms): {}",
    "若交互自身的处理程序在 q ms 后让出、其他任务整体运行（第一片之后即出帧）时的 INP（ms）：{}",
);
pub const RECORDED: Text = Text::new("as recorded", "按记录");
pub const WITHOUT_HANDLERS: Text = Text::new(
    "The same rows with the interactions' own handler tasks not counted as obstacles (an input does not wait behind its own response):",
    "同样的各行，但不把交互自身的处理任务算作障碍（输入不会等待它自己的响应）：",
);
pub const WITH_ALL: Text = Text::new(
    "The rows above count every task as an obstacle, the interactions' own handlers included.",
    "上表把每个任务都算作障碍，包括交互自身的处理任务。",
);

const INP_IS: Text = Text::new(
    "INP is {} ms: interaction {} ({}) at {} ms, with input delay {} ms, processing {} ms and presentation delay {} ms; the {} dominates.",
    "INP 为 {} ms：交互 {}（{}），发生在 {} ms，输入延迟 {} ms、处理 {} ms、呈现延迟 {} ms；以{}为主。",
);
const PHASES: [Text; 3] = [
    Text::new("input delay", "输入延迟"),
    Text::new("processing", "处理"),
    Text::new("presentation delay", "呈现延迟"),
];
const LONG_HANDLER: Text = Text::new(
    "Its own handlers run {} ms: slicing the other tasks cannot shorten that; the handler itself must be split (yield inside it, or defer work until after the next paint).",
    "它自身的处理程序运行了 {} ms：切分其他任务无法缩短这部分；必须拆分处理程序本身（在其中让出，或把工作推迟到下一次绘制之后）。",
);
const BEHIND_SCRIPT: Text = Text::new(
    "{} ms of its presentation delay is other script that ran after its handlers; with that script sliced the frame can start at the next yield point, and {} ms of rendering work on the main thread stays.",
    "其呈现延迟中有 {} ms 是处理程序之后运行的其他脚本；把这些脚本切分后，帧可以在下一个让出点开始，主线程上 {} ms 的渲染工作仍然保留。",
);
const SLICED_INP: Text = Text::new(
    "Sliced at {} ms, the model gives INP {} ms (recorded {} ms).",
    "按 {} ms 切分，模型给出的 INP 为 {} ms（记录为 {} ms）。",
);
const MODEL_CHECK: Text = Text::new(
    "The model's input delay as recorded is within {} ms of the recorded one for {} of {} interactions (largest gap {} ms, interaction {}).",
    "模型按记录给出的输入延迟与记录值相差不超过 {} ms 的交互有 {} 个，共 {} 个（最大差距 {} ms，交互 {}）。",
);

const WAITED_MORE: Text = Text::new(
    "Interaction {} waited {} ms longer than the task running when it arrived explains: something the trace does not show as a task on this thread held it (work queued ahead of it, or an input held for the next frame, as continuous events such as pointermove are).",
    "交互 {} 比它到达时正在运行的任务所能解释的多等了 {} ms：有某种在此线程上不表现为任务的东西拖住了它（排在它前面的工作，或像 pointermove 这类连续事件那样被推迟到下一帧的输入）。",
);
const WAITED_LESS: Text = Text::new(
    "Interaction {} waited {} ms less than the model says: it was handled before the task it met had ended (inside that task, e.g. a nested event loop or a synchronous dispatch), so that task is not what delayed it.",
    "交互 {} 比模型给出的少等了 {} ms：它在所遇任务结束之前就被处理了（在该任务内部，如嵌套的事件循环或同步派发），所以拖慢它的并不是该任务。",
);

/// A gap between the model's and the recorded input delay this small is
/// agreement: the trace's times are in µs, Event Timing's in ms rounded.
pub(crate) const AGREEMENT_MS: f64 = 2.0;

fn ms(v: f64) -> String {
    format!("{v:.1}")
}

/// The reading of the interactions, one paragraph per item; none without
/// interactions.
pub fn reading(answer: &Answer, lang: Lang) -> Vec<String> {
    let Some(m) = &answer.interactions else {
        return Vec::new();
    };
    let Some(inp) = m.recorded.inp else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let i = &m.recorded.list[inp.interaction];
    let phases = [i.input_delay_ms, i.processing_ms, i.presentation_ms];
    let top = (0..3)
        .max_by(|&a, &b| phases[a].total_cmp(&phases[b]))
        .unwrap_or(0);
    let mut first = INP_IS.fill(
        lang,
        &[
            &ms(inp.latency_ms),
            &i.id.to_string(),
            i.kind.label().get(lang),
            &ms(i.start_ms),
            &ms(i.input_delay_ms),
            &ms(i.processing_ms),
            &ms(i.presentation_ms),
            PHASES[top].get(lang),
        ],
    );
    let gap = lang.sentence_gap();
    if i.processing_ms >= LONG_HANDLER_MS {
        first.push_str(gap);
        first.push_str(&LONG_HANDLER.fill(lang, &[&ms(i.processing_ms)]));
    }
    let behind = i.script_after_ms.min(i.presentation_ms);
    if behind > 0.0 {
        first.push_str(gap);
        first.push_str(&BEHIND_SCRIPT.fill(lang, &[&ms(behind), &ms(i.rendering_ms)]));
    }
    let row = answer
        .favoured
        .map(|f| f.row)
        .filter(|&r| r > 0)
        .or_else(|| (answer.report.rows.len() > 1).then_some(1));
    if let (Some(r), Some(q)) = (row, row.and_then(|r| answer.report.rows[r].quantum_ms)) {
        if let Some(sliced) = answer.inp(r) {
            first.push_str(gap);
            first.push_str(&SLICED_INP.fill(
                lang,
                &[
                    &crate::error::fmt_number(q),
                    &ms(sliced),
                    &ms(inp.latency_ms),
                ],
            ));
        }
    }
    out.push(first);
    let gaps: Vec<f64> = m
        .recorded
        .list
        .iter()
        .zip(&m.modelled)
        .map(|(i, x)| (x.model_input_delay_ms - i.input_delay_ms).abs())
        .collect();
    let worst = (0..gaps.len())
        .max_by(|&a, &b| gaps[a].total_cmp(&gaps[b]))
        .unwrap_or(0);
    let close = gaps.iter().filter(|&&g| g <= AGREEMENT_MS).count();
    let mut check = MODEL_CHECK.fill(
        lang,
        &[
            &crate::error::fmt_number(AGREEMENT_MS),
            &close.to_string(),
            &gaps.len().to_string(),
            &ms(gaps[worst]),
            &m.recorded.list[worst].id.to_string(),
        ],
    );
    if gaps[worst] > AGREEMENT_MS {
        let i = &m.recorded.list[worst];
        let why = if m.modelled[worst].model_input_delay_ms < i.input_delay_ms {
            WAITED_MORE
        } else {
            WAITED_LESS
        };
        check.push_str(gap);
        check.push_str(&why.fill(lang, &[&i.id.to_string(), &ms(gaps[worst])]));
    }
    out.push(check);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_languages_take_the_same_arguments() {
        for t in [
            INP_IS,
            LONG_HANDLER,
            BEHIND_SCRIPT,
            SLICED_INP,
            MODEL_CHECK,
            WAITED_MORE,
            WAITED_LESS,
            SLICED_HEAD,
            INP_ROW,
            INP_HANDLERS_YIELD,
        ] {
            assert_eq!(
                t.en.matches("{}").count(),
                t.zh.matches("{}").count(),
                "{t:?}"
            );
        }
    }
}
