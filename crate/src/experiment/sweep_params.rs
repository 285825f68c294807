//! A sweep's own flags as spec rows (`--seeds`, `--quanta`, `--steps`):
//! the CLI's `--help` lines and refusals read these rows, with the
//! sweep's parsers and limits.

use crate::error::ParamError;
use crate::param_spec::{self, Entry, Params, Range, Spec, Unit};
use crate::text::Text;

use super::sweep::{
    parse_quanta_spec, parse_seed_range, SweepLimits, DEFAULT_RANGE_STEPS, MIN_RANGE_STEPS,
};

/// A flag only `sweep` has. Its rows have no URL key: the page's sweep is
/// not in its link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SweepParam {
    Seeds,
    Quanta,
    Steps,
}

impl Params for SweepParam {
    const SPECS: &'static [Spec<SweepParam>] = &SPECS;
}

impl SweepParam {
    pub const ALL: [SweepParam; 3] = param_spec::ids(&SPECS);

    /// Checks the flag's value on its own (`--quanta` LO-HI with the
    /// default steps; `--steps` against `--quanta` comes later).
    fn check(self, field: &str, value: &str, limits: &SweepLimits) -> Result<(), ParamError> {
        match self {
            SweepParam::Seeds => parse_seed_range(field, value, limits).map(drop),
            SweepParam::Quanta => {
                parse_quanta_spec(field, value, DEFAULT_RANGE_STEPS, limits).map(drop)
            }
            SweepParam::Steps => steps(field, value, limits).map(drop),
        }
    }

    /// The flag's `--help` entry: its row, default and what it accepts.
    pub fn entry(self, limits: &SweepLimits) -> Entry {
        let default = match self {
            SweepParam::Steps => DEFAULT_RANGE_STEPS.to_string(),
            SweepParam::Seeds | SweepParam::Quanta => String::new(),
        };
        let allowed = param_spec::allowed(|v| self.check(self.flag_name(), v, limits));
        self.spec().entry(default, allowed)
    }

    fn flag_name(self) -> &'static str {
        self.spec().flag.unwrap_or_default()
    }
}

/// Reads `--steps`: how many log-spaced quanta `--quanta LO-HI` gives.
pub fn steps(field: &str, value: &str, limits: &SweepLimits) -> Result<u32, ParamError> {
    crate::error::parse_count(
        field,
        value,
        MIN_RANGE_STEPS as u64,
        limits.max_quanta as u64,
    )
    .map(|n| n as u32)
}

const SPECS: [Spec<SweepParam>; 3] = [
    Spec {
        id: SweepParam::Seeds,
        key: "",
        aliases: &[],
        flag: Some("--seeds"),
        arg: "A-B",
        range: Range::Other,
        unit: None,
        label: Text::new("Seeds", "种子"),
        help: Text::new(
            "Seeds to run, inclusive: the spread of every figure and of each policy's change against the first.",
            "要运行的种子，含两端：每个数字的分布，以及每个策略相对第一个策略的变化的分布。",
        ),
    },
    Spec {
        id: SweepParam::Quanta,
        key: "",
        aliases: &[],
        flag: Some("--quanta"),
        arg: "LIST",
        range: Range::Other,
        unit: Some(Unit::Ms),
        label: Text::new("Quanta", "时间片"),
        help: Text::new(
            "Quanta joined by commas, or LO-HI for --steps log-spaced values (e.g. 0.5-500, as on the page): one workload, every quantum, the best quantum per policy (switch cost included).",
            "以逗号分隔的时间片，或 LO-HI 表示 --steps 个按对数均匀分布的值（例如 0.5-500，与页面相同）：同一工作负载，每个时间片，每个策略的最佳时间片（含切换开销）。",
        ),
    },
    Spec {
        id: SweepParam::Steps,
        key: "",
        aliases: &[],
        flag: Some("--steps"),
        arg: "N",
        range: Range::Other,
        unit: None,
        label: Text::new("Steps", "步数"),
        help: Text::new(
            "With --quanta LO-HI: how many quanta.",
            "与 --quanta LO-HI 一起使用：时间片的个数。",
        ),
    },
];
