//! What the xnu kernel of a machine differs in, as xnu's classes (`xnu`,
//! `clutch`) read it: its timebase, whether it has the priority decay band
//! limit, and its OS (Clutch's quantum table). Known by the machine's name,
//! so that a machine (`crate::sim`) is only its cores: these are xnu's facts.

use crate::sim::Machine;

/// The timebase of arm64 devices (24 MHz), in ticks per ms.
pub(crate) const ARM64_TICKS_PER_MS: u64 = 24_000;
/// Intel Macs count `mach_absolute_time` in ns.
pub(crate) const INTEL_TICKS_PER_MS: u64 = 1_000_000;

/// The OS a machine's kernel is built for, where kernels for the two
/// differ in what a class reads (Clutch's quantum per bucket:
/// `sched_clutch_thread_quantum_us` has a macOS table and an iOS one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Os {
    #[default]
    MacOs,
    Ios,
}

/// The kernel facts of one machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KernelFlavour {
    /// `mach_absolute_time` ticks per ms: `sched_usage` counts these, and
    /// `sched_fixed_shift` is derived from them.
    pub ticks_per_ms: u64,
    /// Whether the kernel has the priority decay band limit (iOS ≤ 12
    /// without Clutch: yes; macOS: no). Scenarios may override it with a
    /// knob ([`crate::policy::ClassParams::band_limit`]).
    pub band_limit: bool,
    pub os: Os,
}

impl KernelFlavour {
    /// The kernel `machine` runs: on `a10` an iOS 12-era kernel (band limit
    /// on), on `xeon-w` macOS on Intel (ns timebase), on every other machine
    /// (`m1`, `<P>p+<E>e`, the study's identical cores) macOS on arm64
    /// without the band limit.
    pub(crate) fn of(machine: &Machine) -> KernelFlavour {
        let (ticks_per_ms, band_limit, os) = match machine.name.as_str() {
            "a10" => (ARM64_TICKS_PER_MS, true, Os::Ios),
            "xeon-w" => (INTEL_TICKS_PER_MS, false, Os::MacOs),
            _ => (ARM64_TICKS_PER_MS, false, Os::MacOs),
        };
        KernelFlavour {
            ticks_per_ms,
            band_limit,
            os,
        }
    }
}
