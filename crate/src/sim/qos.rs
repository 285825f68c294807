//! Quality-of-service classes, the vocabulary that machines (placement),
//! classes (priorities) and workloads (a mix class `@utility`, a scenario's
//! threads) share: what `qos_class_self()` reports and the base priority
//! XNU gives each.

use serde::Serialize;

/// A QoS class, numbered as `qos_class_self()` reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Qos {
    Maintenance,
    Background,
    Utility,
    Default,
    UserInitiated,
    UserInteractive,
}

impl Qos {
    pub const ALL: [Qos; 6] = [
        Qos::UserInteractive,
        Qos::UserInitiated,
        Qos::Default,
        Qos::Utility,
        Qos::Background,
        Qos::Maintenance,
    ];

    /// The number `qos_class_self()` returns (QOS_CLASS_* in `<sys/qos.h>`).
    pub fn number(self) -> u8 {
        match self {
            Qos::UserInteractive => 33,
            Qos::UserInitiated => 25,
            Qos::Default => 21,
            Qos::Utility => 17,
            Qos::Background => 9,
            Qos::Maintenance => 5,
        }
    }

    pub(crate) fn from_number(n: u8) -> Option<Qos> {
        Qos::ALL.into_iter().find(|q| q.number() == n)
    }

    /// The Swift spelling, as in `DispatchQoS.userInitiated`.
    pub fn name(self) -> &'static str {
        match self {
            Qos::UserInteractive => "userInteractive",
            Qos::UserInitiated => "userInitiated",
            Qos::Default => "default",
            Qos::Utility => "utility",
            Qos::Background => "background",
            Qos::Maintenance => "maintenance",
        }
    }

    /// Accepts the Swift name or the number (`utility` or `17`).
    pub fn parse(text: &str) -> Option<Qos> {
        let t = text.trim();
        Qos::ALL
            .into_iter()
            .find(|q| q.name().eq_ignore_ascii_case(t))
            .or_else(|| t.parse().ok().and_then(Qos::from_number))
    }

    /// The XNU base priority of a thread of this class: the `qos_pri` table
    /// in xnu `osfmk/kern/thread_policy.c` (constants from
    /// `osfmk/kern/sched.h`). The frontmost app's main thread gets
    /// [`BASEPRI_FOREGROUND`] instead of 46; see [`ThreadSpec::main_thread`].
    pub const fn base_pri(self) -> u8 {
        match self {
            Qos::UserInteractive => 46,
            Qos::UserInitiated => 37,
            Qos::Default => 31,
            Qos::Utility => 20,
            Qos::Background | Qos::Maintenance => 4,
        }
    }

    /// Background and maintenance: the classes XNU's AMP scheduler keeps on
    /// efficiency cores.
    pub fn is_background(self) -> bool {
        matches!(self, Qos::Background | Qos::Maintenance)
    }
}

/// BASEPRI_FOREGROUND in xnu `osfmk/kern/sched.h`: the frontmost app's main
/// thread.
pub(crate) const BASEPRI_FOREGROUND: u8 = 47;
/// A fixed priority above every timeshare user thread, used for the "other
/// system work" threads (kernel and daemon activity we do not model).
pub(crate) const SYSTEM_WORK_PRI: u8 = 80;
