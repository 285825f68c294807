//! Every note `measure` prints and puts in its JSON, in English and
//! Chinese: what the run needed, what it changed and put back, and what
//! the kernel did that the model does not (ticks, steal, throttling).

use crate::text::{Filled, Lang, Text};

use super::environment::release_at_least;
use super::plan::list;
use super::report::{EevdfModel, KernelEnvironment, MeasuredRow};

const CPUS_FREE: Text = Text::new(
    "Tasks pinned to CPU {}; CPU {} left free for the system.",
    "任务固定在 CPU {} 上；CPU {} 留给系统。",
);
const CPUS_NONE_FREE: Text = Text::new(
    "Tasks pinned to every CPU this process may use ({}): none is left free for the system, so other work competes with the tasks (and RT throttling stays on).",
    "任务固定在本进程可用的所有 CPU 上（{}）：没有留给系统的 CPU，其他工作会与任务争用（RT 限流保持开启）。",
);
const LEFT_OUT: Text = Text::new(
    "{} left out: real-time policies need root or CAP_SYS_NICE (and a real-time budget in this process's cgroup); without them only SCHED_OTHER runs.",
    "未运行 {}：实时策略需要 root 或 CAP_SYS_NICE（以及本进程 cgroup 的实时预算）；没有这些权限只能运行 SCHED_OTHER。",
);
const THROTTLED: Text = Text::new(
    "RT throttling was on (sched_rt_runtime_us {} of sched_rt_period_us {}): it may pause real-time threads for {} ms of every period; --rt-unthrottled switches it off for the run.",
    "RT 限流处于开启状态（sched_rt_runtime_us 为 {}，sched_rt_period_us 为 {}）：每个周期可能暂停实时线程 {} ms；--rt-unthrottled 可在运行期间关闭它。",
);
const THROTTLE_SEEN: Text = Text::new(
    "Throttling paused the tasks: {} % of the CPU's time in the run went to other things than the tasks, at least half the throttled share of {} %.",
    "限流暂停了任务：运行期间 CPU 时间的 {} % 没有花在任务上，至少是限流份额 {} % 的一半。",
);
const THROTTLE_NOT_SEEN: Text = Text::new(
    "No throttling pause was seen: {} % of the CPU's time in the run went to other things than the tasks, under half the throttled share of {} %.",
    "未见限流暂停：运行期间 CPU 时间的 {} % 没有花在任务上，低于限流份额 {} % 的一半。",
);
const UNTHROTTLED: Text = Text::new(
    "RT throttling was switched off for the run (sched_rt_runtime_us -1) and put back to {}.",
    "运行期间关闭了 RT 限流（sched_rt_runtime_us 设为 -1），之后恢复为 {}。",
);
const NOT_RESTORED: Text = Text::new(
    "Warning: {} did not read back as {} after the run: check it.",
    "警告：运行后 {} 的值不是之前的 {}：请检查。",
);
const FAIR_SERVER: Text = Text::new(
    "Linux {} serves fair (SCHED_OTHER) threads from a deadline server, which can pause real-time threads while fair threads wait, with throttling on or off; its budget on CPU {}: {} of {} ns.",
    "Linux {} 用一个 deadline 服务器运行公平调度（SCHED_OTHER）线程，无论是否限流，它都可能在公平线程等待时暂停实时线程；CPU {} 上它的预算：{} ns / {} ns。",
);
const FAIR_SERVER_UNREAD: Text = Text::new(
    "Linux {} serves fair (SCHED_OTHER) threads from a deadline server (since 6.12), which can pause real-time threads while fair threads wait, with throttling on or off; its budget is in debugfs (/sys/kernel/debug/sched/fair_server), not mounted here.",
    "Linux {} 用一个 deadline 服务器运行公平调度（SCHED_OTHER）线程（6.12 起），无论是否限流，它都可能在公平线程等待时暂停实时线程；它的预算在 debugfs（/sys/kernel/debug/sched/fair_server）中，此处未挂载。",
);
const RR_SLICE: Text = Text::new(
    "SCHED_RR's slice was set to {} ms (sched_rr_timeslice_ms, {} before, put back); the kernel gave {} ms: it counts slices in ticks of {} ms (HZ {}, from {}), and a slice that starts between two ticks ends on a tick.",
    "SCHED_RR 的时间片设为 {} ms（sched_rr_timeslice_ms，之前为 {}，已恢复）；内核实际给出 {} ms：内核以 {} ms 的时钟节拍（HZ {}，来自 {}）计数时间片，在两个节拍之间开始的时间片在节拍上结束。",
);
const STEAL: Text = Text::new(
    "Steal time on the tasks' CPUs during the run (the hypervisor running other guests): {} ms.",
    "运行期间任务所在 CPU 的窃取时间（虚拟机管理程序在运行其他虚拟机）：{} ms。",
);
const LOAD: Text = Text::new(
    "Load average before the run: {}, {}, {} (real-time threads on their pinned CPUs preempt ordinary load, but not interrupts or the hypervisor).",
    "运行前的平均负载：{}、{}、{}（固定在 CPU 上的实时线程会抢占普通负载，但不会抢占中断或虚拟机管理程序）。",
);
const NO_MODEL: Text = Text::new(
    "{} has no model class yet: measured only.",
    "{} 还没有模型类：只有测量值。",
);
const FAIR_SHARES: Text = Text::new(
    "SCHED_OTHER threads share their CPU fairly with every other ordinary thread that runs there: on a loaded machine they wait for it, which the model does not see.",
    "SCHED_OTHER 线程与在该 CPU 上运行的所有其他普通线程公平分享 CPU：机器负载高时它们要等待，而模型看不到这一点。",
);
const EEVDF_EXACT: Text = Text::new(
    "The eevdf model row ends a slice the moment it is used up (eevdf_slice_end exact), as the kernel does for these threads: each reads its own CPU-time clock, that read brings the running thread's runtime up to date (task_sched_runtime, update_curr), and a thread found past its slice is rescheduled there, between ticks. Its base slice is {} ms: 0.75 ms × (1 + log2 of the {} online CPUs, at most 8), as the kernel scales it whatever CPUs the tasks are pinned to.",
    "eevdf 模型行在时间片用完的那一刻结束它（eevdf_slice_end exact），与内核对这些线程的做法相同：每个线程读取自己的 CPU 时间时钟，这次读取会更新正在运行线程的运行时间（task_sched_runtime、update_curr），超出时间片的线程就在此处被重新调度，而不必等到时钟节拍。其基础时间片为 {} ms：0.75 ms × (1 + log2 在线 CPU 数 {}，最多 8)，与内核的缩放方式相同，不论任务固定在哪些 CPU 上。",
);
const EEVDF_TICK: Text = Text::new(
    "The eevdf model row ends a used-up slice at the next tick (eevdf_slice_end tick, as given), but the measured threads read their own CPU-time clock, which ends their slices the moment they are used up: expect the model's figures to differ for that reason. Its base slice is {} ms ({} online CPUs).",
    "eevdf 模型行在下一个时钟节拍结束用完的时间片（按所给的 eevdf_slice_end tick），但被测线程会读取自己的 CPU 时间时钟，使时间片在用完的那一刻就结束：模型的数值会因此不同。其基础时间片为 {} ms（{} 个在线 CPU）。",
);
const AUTOGROUP: Text = Text::new(
    "Autogroup is on (sched_autogroup_enabled): the fair class shares a CPU between sessions first and among a session's threads second, so the SCHED_OTHER tasks, one session at autogroup nice {}, get only their session's share of a CPU that other sessions use (nice values weigh threads within a session). For the tasks' own figures on a busy machine, run measure in a session of its own weighted above the others: sudo setsid sh -c 'echo -20 > /proc/self/autogroup; exec tailslice measure …'.",
    "autogroup 已开启（sched_autogroup_enabled）：公平调度类先在会话之间分配 CPU，再在会话内的线程之间分配，所以 SCHED_OTHER 任务作为一个 autogroup nice 为 {} 的会话，只能得到该会话在其他会话也在使用的 CPU 上的份额（nice 值只在会话内部区分线程权重）。要在繁忙的机器上得到任务自身的数值，请在一个权重高于其他会话的独立会话中运行 measure：sudo setsid sh -c 'echo -20 > /proc/self/autogroup; exec tailslice measure …'。",
);
const MIDDLE: Text = Text::new(
    "Each measured figure is the middle of {} repeats; min and max under it.",
    "每个测量值取 {} 次重复的中位数；其下为最小值和最大值。",
);

/// What a note needs besides the environment.
pub struct NoteInputs<'a> {
    pub env: &'a KernelEnvironment,
    pub rows: &'a [MeasuredRow],
    pub left_out: &'a [String],
    /// Policies measured without a model row.
    pub without_model: &'a [String],
    pub throttling_seen: Option<bool>,
    pub repeats: u32,
    /// How the `eevdf` model row was set up, when `eevdf` is measured.
    pub eevdf_model: Option<EevdfModel>,
}

fn ms(v: f64) -> String {
    format!("{v:.1}")
}

/// The notes, in both languages.
pub fn notes(n: &NoteInputs<'_>) -> Filled<Vec<String>> {
    Filled::each(|lang| notes_in(n, lang))
}

fn notes_in(n: &NoteInputs<'_>, lang: Lang) -> Vec<String> {
    let env = n.env;
    let mut out = Vec::new();
    let cpus = &env.cpus;
    out.push(if cpus.free.is_empty() {
        CPUS_NONE_FREE.fill(lang, &[&list(&cpus.used)])
    } else {
        CPUS_FREE.fill(lang, &[&list(&cpus.used), &list(&cpus.free)])
    });
    if !n.left_out.is_empty() {
        out.push(LEFT_OUT.fill(lang, &[&n.left_out.join(", ")]));
    }
    for name in n.without_model {
        out.push(NO_MODEL.fill(lang, &[name]));
    }
    if !n.rows.is_empty() && n.repeats > 1 {
        out.push(MIDDLE.fill(lang, &[&n.repeats.to_string()]));
    }
    if n.rows.iter().any(|r| !r.kernel_policy.real_time()) {
        out.push(FAIR_SHARES.get(lang).to_string());
    }
    if let Some(g) = env.autogroup.filter(|g| g.enabled) {
        if n.rows.iter().any(|r| !r.kernel_policy.real_time()) {
            let nice = g.nice.map_or_else(|| "?".to_string(), |v| v.to_string());
            out.push(AUTOGROUP.fill(lang, &[&nice]));
        }
    }
    if let Some(m) = &n.eevdf_model {
        let note = if m.slice_end == crate::policy::eevdf::SLICE_END_EXACT {
            EEVDF_EXACT
        } else {
            EEVDF_TICK
        };
        out.push(note.fill(
            lang,
            &[&format!("{}", m.base_slice_ms), &m.slice_cpus.to_string()],
        ));
    }
    let t = &env.rt_throttling;
    let shown = |v: Option<i64>| v.map_or_else(|| "?".to_string(), |v| v.to_string());
    let runs_rt = n.rows.iter().any(|r| r.kernel_policy.real_time());
    if t.switched_off {
        out.push(UNTHROTTLED.fill(lang, &[&shown(t.read.runtime_us)]));
    } else if runs_rt && t.read.share_paused > 0.0 {
        let paused_ms = t.read.share_paused * t.read.period_us.unwrap_or(0) as f64 / 1000.0;
        out.push(THROTTLED.fill(
            lang,
            &[
                &shown(t.read.runtime_us),
                &shown(t.read.period_us),
                &format!("{paused_ms:.0}"),
            ],
        ));
    }
    if let Some(seen) = n.throttling_seen {
        let share = n
            .rows
            .iter()
            .filter(|r| r.kernel_policy.real_time())
            .map(|r| r.other_cpu_share)
            .fold(0.0, f64::max);
        let args = [
            format!("{:.1}", share * 100.0),
            format!("{:.0}", t.read.share_paused * 100.0),
        ];
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        out.push(
            if seen {
                THROTTLE_SEEN
            } else {
                THROTTLE_NOT_SEEN
            }
            .fill(lang, &args),
        );
    }
    if !t.restored {
        out.push(NOT_RESTORED.fill(lang, &["sched_rt_runtime_us", &shown(t.read.runtime_us)]));
    }
    if runs_rt && release_at_least(&env.kernel, 6, 12) {
        let cpu = cpus.used.first().copied().unwrap_or(0).to_string();
        out.push(
            match (t.read.fair_server_runtime_ns, t.read.fair_server_period_ns) {
                (Some(r), Some(p)) => {
                    FAIR_SERVER.fill(lang, &[&env.kernel, &cpu, &r.to_string(), &p.to_string()])
                }
                _ => FAIR_SERVER_UNREAD.fill(lang, &[&env.kernel]),
            },
        );
    }
    if let Some(slice) = &env.rr_timeslice {
        let hz = env.hz;
        out.push(RR_SLICE.fill(
            lang,
            &[
                &slice.written.to_string(),
                &shown(slice.before),
                &slice.effective.map_or_else(|| "?".to_string(), ms),
                &hz.map_or_else(|| "?".to_string(), |h| ms(1000.0 / f64::from(h))),
                &hz.map_or_else(|| "?".to_string(), |h| h.to_string()),
                env.hz_source,
            ],
        ));
        if !slice.restored {
            out.push(NOT_RESTORED.fill(lang, &["sched_rr_timeslice_ms", &shown(slice.before)]));
        }
    }
    let steal: Vec<String> = env
        .steal_ms_per_cpu
        .iter()
        .map(|(cpu, v)| format!("{cpu} {v:.0}"))
        .collect();
    if !steal.is_empty() {
        out.push(STEAL.fill(lang, &[&steal.join(", ")]));
    }
    if let Some([a, b, c]) = env.load_average {
        out.push(LOAD.fill(lang, &[&a.to_string(), &b.to_string(), &c.to_string()]));
    }
    out
}
