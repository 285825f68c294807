//! Scheduling classes, one per file, each implementing the class
//! interface of the loop (`crate::sim::class`, as every file of the
//! kernel's `kernel/sched/` includes `sched.h`). A class owns its run
//! queue(s) and its priority model: `rr` (with `fifo` as round-robin with an
//! endless quantum), `sjf`, `srpt`, `mlfq`,
//! XNU's timeshare class `xnu` over its priority model [`timeshare`] (the
//! kernels before Clutch), and XNU's Clutch/Edge class `clutch` over its
//! rules and tables [`clutch_rules`] (Apple silicon since macOS 11, iOS
//! since 13), and Linux's fair class `eevdf` (SCHED_OTHER since Linux 6.6).
//! Every one runs on every machine and every workload.
//!
//! [`PolicyKind::run`] is the one way into the loop: it builds the class a
//! kind names and runs it, with the class known at compile time so the loop
//! inlines it. Everything that simulates (experiments, sweeps, scenarios,
//! Run for real's plan, the benchmarks) goes through it.

pub(crate) mod clutch;
pub mod clutch_rules;
pub mod eevdf;
pub(crate) mod kernel_flavour;
mod mlfq;
mod rr;
mod run_queue;
mod sjf;
mod srpt;
pub mod timeshare;
pub(crate) mod xnu;

pub use clutch::{Clutch, ClutchParams};
pub use clutch_rules::ClutchRules;
pub use eevdf::{Eevdf, EevdfParams};
pub(crate) use kernel_flavour::KernelFlavour;
pub use mlfq::{Mlfq, MlfqParams};
pub(crate) use rr::RoundRobin;

use crate::error::ParamError;
use crate::sim::{
    simulate_on, EngineConfig, EngineError, Machine, Recorder, Schedule, ThreadInfo, Threads,
};
use crate::text::Text;

/// What a class is built from besides its kind: the knobs, the machine
/// and the threads' scheduling attributes (which only `xnu` and `clutch`
/// read, and `eevdf` their nice values and pins).
#[derive(Clone, Copy, Debug)]
pub struct ClassParams<'a> {
    pub quantum: f64,
    pub mlfq: &'a MlfqParams,
    /// How `eevdf` ends a slice and scales it.
    pub eevdf: EevdfParams,
    /// Which xnu release's Clutch rules `clutch` follows.
    pub clutch: ClutchParams,
    /// Whether `xnu`'s priority decay has the band limit, where a run sets
    /// it (a scenario's knob); `None`: as the machine's kernel has it
    /// ([`KernelFlavour::of`]).
    pub band_limit: Option<bool>,
    pub machine: &'a Machine,
    /// Each thread's attributes (empty: every thread at the defaults).
    pub threads: &'a [ThreadInfo],
}

/// The policies a user can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PolicyKind {
    Fifo,
    Rr,
    Sjf,
    Srpt,
    Mlfq,
    Xnu,
    Clutch,
    Eevdf,
}

const ONE_OF: Text = Text::new("one of {}", "以下之一：{}");
const POLICY_LIST: Text = Text::new(
    "1 to {} distinct policies from {} joined by commas",
    "1 到 {} 个不重复的策略，取自 {}，以逗号分隔",
);

impl PolicyKind {
    pub const ALL: [PolicyKind; 8] = [
        PolicyKind::Fifo,
        PolicyKind::Rr,
        PolicyKind::Sjf,
        PolicyKind::Srpt,
        PolicyKind::Mlfq,
        PolicyKind::Xnu,
        PolicyKind::Clutch,
        PolicyKind::Eevdf,
    ];
    /// At most this many policies are compared in one experiment: all.
    pub(crate) const MAX_COMPARED: usize = PolicyKind::ALL.len();

    pub fn name(self) -> &'static str {
        match self {
            PolicyKind::Fifo => "fifo",
            PolicyKind::Rr => "rr",
            PolicyKind::Sjf => "sjf",
            PolicyKind::Srpt => "srpt",
            PolicyKind::Mlfq => "mlfq",
            PolicyKind::Xnu => "xnu",
            PolicyKind::Clutch => "clutch",
            PolicyKind::Eevdf => "eevdf",
        }
    }

    /// Whether the `quantum` parameter changes what this class does.
    pub(crate) fn uses_quantum(self) -> bool {
        matches!(self, PolicyKind::Rr | PolicyKind::Mlfq)
    }

    /// Whether the class reads the threads' attributes (QoS, base
    /// priority, pin, thread group); the others schedule by work alone.
    pub const fn reads_threads(self) -> bool {
        matches!(self, PolicyKind::Xnu | PolicyKind::Clutch)
    }

    /// Whether the class reads the threads' nice values (only `eevdf`:
    /// Linux's fair class weighs threads by them).
    pub(crate) const fn reads_nice(self) -> bool {
        matches!(self, PolicyKind::Eevdf)
    }

    /// Whether this build carries the class's code. The page's main-thread
    /// module (feature `page`) carries only the default experiment's two
    /// classes, `fifo` and `rr`, so that the first download stays small: an
    /// experiment with any other runs in the page's worker, whose module
    /// has every class.
    pub(crate) const fn built_in(self) -> bool {
        cfg!(not(feature = "page")) || matches!(self, PolicyKind::Fifo | PolicyKind::Rr)
    }

    /// A one-line description (help texts, the page's tooltips).
    pub(crate) fn describe(self) -> Text {
        match self {
            PolicyKind::Fifo => Text::new(
                "first in, first out; each task runs to completion",
                "先进先出；每个任务一直运行到完成",
            ),
            PolicyKind::Rr => Text::new(
                "round-robin: at most one quantum, then to the back of the queue",
                "轮转：每次最多运行一个时间片，然后排到队尾",
            ),
            PolicyKind::Sjf => Text::new(
                "shortest job first, non-preemptive",
                "最短作业优先，不抢占",
            ),
            PolicyKind::Srpt => Text::new(
                "shortest remaining processing time, preemptive",
                "最短剩余处理时间优先，可抢占",
            ),
            PolicyKind::Mlfq => Text::new(
                "multi-level feedback queue (levels, doubling quanta, periodic boost)",
                "多级反馈队列（多个级别、逐级翻倍的时间片、定期提升优先级）",
            ),
            PolicyKind::Xnu => Text::new(
                "XNU timeshare: QoS priorities that decay with CPU use, 10 ms quanta, background on E cores",
                "XNU 分时调度：QoS 优先级随 CPU 使用而衰减，10 ms 时间片，background 在能效核上运行",
            ),
            PolicyKind::Clutch => Text::new(
                "XNU Clutch/Edge: QoS buckets by earliest deadline, then apps (thread groups), then threads; background on E cores",
                "XNU Clutch/Edge：先按最早截止时间选 QoS 桶，再选应用（线程组），再选线程；background 在能效核上运行",
            ),
            PolicyKind::Eevdf => Text::new(
                "Linux EEVDF (SCHED_OTHER): the eligible task with the earliest virtual deadline, weights from nice, 0.75 ms base slice × (1 + log2 cores) ending at the 4 ms tick",
                "Linux EEVDF（SCHED_OTHER）：选虚拟截止时间最早的合格任务，权重来自 nice，基础时间片 0.75 ms × (1 + log2 核数)，在 4 ms 时钟节拍处结束",
            ),
        }
    }

    /// The names joined by commas (`fifo, rr, …`), for messages and help.
    pub fn names() -> String {
        PolicyKind::ALL.map(PolicyKind::name).join(", ")
    }

    pub fn parse(field: &str, text: &str) -> Result<PolicyKind, ParamError> {
        PolicyKind::ALL
            .into_iter()
            .find(|p| p.name() == text.trim())
            .ok_or_else(|| ParamError::new(field, text, ONE_OF.both(&[&Self::names()])))
    }

    /// Parses a comma-separated list of distinct policies.
    pub(crate) fn parse_list(field: &str, text: &str) -> Result<Vec<PolicyKind>, ParamError> {
        let allowed = POLICY_LIST.both(&[&Self::MAX_COMPARED.to_string(), &Self::names()]);
        let mut out = Vec::new();
        for part in text.split(',') {
            let p = PolicyKind::parse(field, part)
                .map_err(|_| ParamError::new(field, text, allowed.clone()))?;
            if out.contains(&p) {
                return Err(ParamError::new(field, text, allowed));
            }
            out.push(p);
        }
        if out.len() > Self::MAX_COMPARED {
            return Err(ParamError::new(field, text, allowed));
        }
        Ok(out)
    }

    /// Runs `threads` on `p.machine` under a fresh class of this kind,
    /// telling `recorder` what each thread does: the one way into the loop.
    pub fn run<W: Threads, R: Recorder>(
        self,
        p: &ClassParams,
        threads: &mut W,
        recorder: &mut R,
        config: &EngineConfig,
    ) -> Result<Schedule, EngineError> {
        let n = threads.len();
        let m = p.machine;
        match self {
            PolicyKind::Fifo => simulate_on(threads, m, &mut RoundRobin::fifo(n), recorder, config),
            PolicyKind::Rr => simulate_on(
                threads,
                m,
                &mut RoundRobin::new(p.quantum, n),
                recorder,
                config,
            ),
            #[cfg(not(feature = "page"))]
            PolicyKind::Sjf => simulate_on(threads, m, &mut sjf::Sjf::default(), recorder, config),
            #[cfg(not(feature = "page"))]
            PolicyKind::Srpt => {
                simulate_on(threads, m, &mut srpt::Srpt::default(), recorder, config)
            }
            #[cfg(not(feature = "page"))]
            PolicyKind::Mlfq => simulate_on(
                threads,
                m,
                &mut Mlfq::new(n, p.quantum, p.mlfq),
                recorder,
                config,
            ),
            #[cfg(not(feature = "page"))]
            PolicyKind::Xnu => simulate_on(
                threads,
                m,
                &mut xnu::Xnu::new(n, p.threads, m, p.band_limit),
                recorder,
                config,
            ),
            #[cfg(not(feature = "page"))]
            PolicyKind::Clutch => simulate_on(
                threads,
                m,
                &mut Clutch::new(n, p.threads, m, p.clutch),
                recorder,
                config,
            ),
            #[cfg(not(feature = "page"))]
            PolicyKind::Eevdf => simulate_on(
                threads,
                m,
                &mut Eevdf::new(n, p.threads, m, p.eevdf),
                recorder,
                config,
            ),
            // Not built in (`built_in`): the page's runner refuses such an
            // experiment before it gets here and the page sends it to the
            // worker.
            #[cfg(feature = "page")]
            PolicyKind::Sjf
            | PolicyKind::Srpt
            | PolicyKind::Mlfq
            | PolicyKind::Xnu
            | PolicyKind::Clutch
            | PolicyKind::Eevdf => {
                unreachable!("{} is not in the page's module", self.name())
            }
        }
    }

    /// The shortest slice this policy can hand out, for the up-front guard
    /// against runs with an absurd number of slices.
    pub(crate) fn min_slice(self, quantum: f64) -> f64 {
        match self {
            PolicyKind::Rr | PolicyKind::Mlfq => quantum,
            PolicyKind::Xnu => xnu::MIN_SLICE_MS,
            PolicyKind::Clutch => clutch::MIN_SLICE_MS,
            PolicyKind::Eevdf => eevdf::MIN_SLICE_MS,
            _ => f64::INFINITY,
        }
    }
}
