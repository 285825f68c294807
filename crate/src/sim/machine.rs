//! Machines: cores with a kind (performance or efficiency) and a speed, and
//! a name (what xnu's classes know a machine's kernel by:
//! `crate::policy::kernel_flavour`). Placement by QoS lives here too,
//! because it is a property of the machine.
//!
//! The study's "N identical cores" is the machine [`Machine::identical`];
//! the QoS studies' `a10`, `m1`, `xeon-w` and `<P>p+<E>e` are the others.
//! Every policy runs on every one of them.

use serde::Serialize;

use super::qos::Qos;
use crate::error::ParamError;
use crate::text::{Filled, Text};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CoreKind {
    Performance,
    Efficiency,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Core {
    pub kind: CoreKind,
    /// Work done per ms of running, relative to a speed-1 core.
    pub speed: f64,
}

/// E-core speed relative to a P core on `m1`, calibrated (the only machine
/// constant we tuned): with the chunk work fixed by the Xeon W figures
/// (see `scenarios::m1_compress`), a QoS 9 job on the 4 E cores alone takes
/// `total / (4 * ratio)`; 0.30 puts it at ~41 s, inside the measured
/// 38–43 s. Apple publishes no such ratio; it folds in clock, width and
/// memory effects of Icestorm vs Firestorm for this one workload.
pub const M1_EP_RATIO: f64 = 0.30;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Machine {
    pub name: String,
    pub cores: Vec<Core>,
}

impl Machine {
    /// `n` identical speed-1 performance cores: the study's machine
    /// (`--cores N`).
    pub fn identical(n: usize) -> Machine {
        Machine {
            name: format!("{n}p"),
            cores: vec![
                Core {
                    kind: CoreKind::Performance,
                    speed: 1.0,
                };
                n.max(1)
            ],
        }
    }

    /// "1 core", "4 cores"; for a named machine "a10 (2 P cores)", "m1 (4 P
    /// + 4 E cores at 0.3×)".
    pub fn describe(&self, named: bool) -> Filled {
        const CORE: Text = Text::new("{} core", "{} 个核心");
        const CORES: Text = Text::new("{} cores", "{} 个核心");
        const P_CORE: Text = Text::new("{} P core", "{} 个 P 核");
        const P_CORES: Text = Text::new("{} P cores", "{} 个 P 核");
        // P cores, E cores, the E cores' speed.
        const P_AND_E: Text = Text::new(
            "{} P + {} E cores at {}×",
            "{} 个 P 核 + {} 个 E 核，E 核速度为 {}×",
        );
        const NAMED: Text = Text::new("{} ({})", "{}（{}）");
        let n = self.cores.len();
        if !named {
            return if n == 1 { CORE } else { CORES }.both(&[&n.to_string()]);
        }
        let e = self
            .cores
            .iter()
            .filter(|c| c.kind == CoreKind::Efficiency)
            .count();
        let p = n - e;
        let ratio = self
            .cores
            .iter()
            .find(|c| c.kind == CoreKind::Efficiency)
            .map_or(1.0, |c| c.speed);
        Filled::each(|lang| {
            let kinds = if e == 0 {
                if p == 1 { P_CORE } else { P_CORES }.fill(lang, &[&p.to_string()])
            } else {
                P_AND_E.fill(lang, &[&p.to_string(), &e.to_string(), &ratio.to_string()])
            };
            NAMED.fill(lang, &[&self.name, &kinds])
        })
    }

    /// Whether every core runs at speed 1 (the loop then skips the
    /// divisions by speed, so identical cores compute exactly as before).
    pub(crate) fn all_speed_one(&self) -> bool {
        self.cores.iter().all(|c| c.speed == 1.0)
    }

    /// iPhone 7 (Plus), A10 Fusion: 4 cores but only one pair (2 big or
    /// 2 little) active at a time, so the kernel sees 2 identical cores.
    pub fn a10() -> Machine {
        Machine {
            name: "a10".into(),
            cores: vec![
                Core {
                    kind: CoreKind::Performance,
                    speed: 1.0,
                };
                2
            ],
        }
    }

    /// M1: 4 Firestorm (P, speed 1) + 4 Icestorm (E, speed `ep_ratio`).
    pub fn m1(ep_ratio: f64) -> Machine {
        let mut cores = vec![
            Core {
                kind: CoreKind::Performance,
                speed: 1.0,
            };
            4
        ];
        cores.extend(std::iter::repeat_n(
            Core {
                kind: CoreKind::Efficiency,
                speed: ep_ratio,
            },
            4,
        ));
        Machine {
            name: "m1".into(),
            cores,
        }
    }

    /// Intel Xeon W, 8 identical cores (hyper-threading not modelled). Its
    /// cores are assumed as fast as an M1 P core for this workload (not
    /// calibrated: the study gives no figure that would pin it).
    pub fn xeon_w() -> Machine {
        Machine {
            name: "xeon-w".into(),
            cores: vec![
                Core {
                    kind: CoreKind::Performance,
                    speed: 1.0,
                };
                8
            ],
        }
    }

    /// `p` performance and `e` efficiency cores.
    pub fn custom(p: usize, e: usize, ep_ratio: f64) -> Machine {
        let mut m = Machine::m1(ep_ratio);
        m.name = format!("{p}p+{e}e");
        m.cores = std::iter::repeat_n(
            Core {
                kind: CoreKind::Performance,
                speed: 1.0,
            },
            p,
        )
        .chain(std::iter::repeat_n(
            Core {
                kind: CoreKind::Efficiency,
                speed: ep_ratio,
            },
            e,
        ))
        .collect();
        m
    }

    /// A machine spec as [`Machine::parse`] reads it: lower case, and the
    /// parts of `<P>p+<E>e` joined by `+` whether they were separated by
    /// `+`, spaces or both. A `+` typed into a URL arrives as a space
    /// (`?machine=2p+4e` reads `2p 4e`), and means the same machine.
    pub(crate) fn spec(text: &str) -> String {
        text.trim()
            .to_ascii_lowercase()
            .split('+')
            .map(|part| part.split_whitespace().collect::<Vec<_>>().join("+"))
            .collect::<Vec<_>>()
            .join("+")
    }

    /// Parses `a10`, `m1`, `xeon-w` or `<P>p+<E>e` (e.g. `2p+4e`, `2p 4e`,
    /// `4p`), at most 64 cores, at least one.
    pub fn parse(field: &str, text: &str, ep_ratio: f64) -> Result<Machine, ParamError> {
        const ALLOWED: Text = Text::new(
            "a10, m1, xeon-w or <P>p+<E>e with 1 to 64 cores in all (e.g. 2p+4e)",
            "a10、m1、xeon-w 或 <P>p+<E>e，共 1 到 64 个核心（如 2p+4e）",
        );
        let t = Machine::spec(text);
        match t.as_str() {
            "a10" => return Ok(Machine::a10()),
            "m1" => return Ok(Machine::m1(ep_ratio)),
            "xeon-w" => return Ok(Machine::xeon_w()),
            _ => {}
        }
        let bad = || ParamError::new(field, text, ALLOWED);
        let mut p = 0usize;
        let mut e = 0usize;
        for part in t.split('+') {
            // Strip the kind as a character, not as the last byte: the text
            // is untrusted and may end inside a multi-byte character (`é`).
            let (num, count) = if let Some(num) = part.strip_suffix('p') {
                (num, &mut p)
            } else if let Some(num) = part.strip_suffix('e') {
                (num, &mut e)
            } else {
                return Err(bad());
            };
            let n: usize = num.parse().map_err(|_| bad())?;
            // Bounded before adding, so no count of parts can overflow.
            if n > 64 || *count + n > 64 {
                return Err(bad());
            }
            *count += n;
        }
        if p + e == 0 || p + e > 64 {
            return Err(bad());
        }
        Ok(Machine::custom(p, e, ep_ratio))
    }

    pub fn has_efficiency_cores(&self) -> bool {
        self.cores.iter().any(|c| c.kind == CoreKind::Efficiency)
    }

    /// Cores of this kind.
    pub fn count(&self, kind: CoreKind) -> usize {
        self.cores.iter().filter(|c| c.kind == kind).count()
    }

    /// How many threads of class `qos` the kernel reports it can run in
    /// parallel (`qos_max_parallelism(qos, QOS_PARALLELISM_COUNT_LOGICAL)`):
    /// on a machine with both kinds of cores the efficiency cores for
    /// background and maintenance (Edge's `sched_edge_qos_max_parallelism`:
    /// CLPC never recommends P cores for them), every core otherwise. GCD's
    /// worker cap (`workq_constrained_allowance`) reads it.
    pub(crate) fn max_parallelism(&self, qos: Qos) -> usize {
        let e = self.count(CoreKind::Efficiency);
        if qos.is_background() && e > 0 && e < self.cores.len() {
            e
        } else {
            self.cores.len()
        }
    }

    /// Placement by QoS: background and maintenance only on efficiency
    /// cores when the machine has them (as the M1 study observed, and as
    /// xnu's Edge scheduler does for the background bucket); everything
    /// else may use every core and prefers performance cores (see
    /// [`Machine::preference_order`]).
    pub fn may_run(&self, qos: Qos, core: usize) -> bool {
        !(qos.is_background() && self.has_efficiency_cores())
            || self.cores[core].kind == CoreKind::Efficiency
    }

    /// Cores in the order an idle one is handed out: performance first,
    /// then efficiency, by index. A thread that may use both thus lands on
    /// a P core when one is free and spills to E otherwise.
    pub(crate) fn preference_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.cores.len()).collect();
        order.sort_unstable_by_key(|&c| (self.cores[c].kind == CoreKind::Efficiency, c));
        order
    }
}
