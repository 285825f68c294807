//! What a row of figures is about: a simulated policy, or a trace's tasks
//! as they ran (the "as recorded" baseline), and how each is named. A
//! report's JSON names either in its `policy` key; code keeps the kind, so
//! nothing reads a name back.

use serde::{Serialize, Serializer};

use crate::policy::PolicyKind;
use crate::text::{Lang, Text};

/// The policy name of the baseline in reports (`"policy": "recorded"`).
pub(crate) const RECORDED: &str = "recorded";

/// The heading of a trace's "as recorded" row.
pub(crate) const RECORDED_TITLE: Text = Text::new("as recorded", "按记录");

/// A policy's (or the "as recorded" row's) name in headings, legends and
/// sentences: the CLI name in capitals (FIFO, RR). The one spelling of a
/// policy wherever a reader meets it; only the CLI's table and flags keep
/// the flag's own lower case.
pub fn policy_title(name: &str, lang: Lang) -> String {
    if name == RECORDED {
        RECORDED_TITLE.get(lang).to_string()
    } else {
        name.to_ascii_uppercase()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RowPolicy {
    Simulated(PolicyKind),
    /// The trace as recorded ([`super::recorded`]).
    Recorded,
}

impl RowPolicy {
    /// The name reports write (`fifo`, …, or `recorded`).
    pub fn name(self) -> &'static str {
        match self {
            RowPolicy::Simulated(kind) => kind.name(),
            RowPolicy::Recorded => RECORDED,
        }
    }

    /// The simulated policy, if the row is one.
    pub fn kind(self) -> Option<PolicyKind> {
        match self {
            RowPolicy::Simulated(kind) => Some(kind),
            RowPolicy::Recorded => None,
        }
    }

    /// The name in headings, legends and sentences ([`policy_title`]).
    pub(crate) fn title(self, lang: Lang) -> String {
        policy_title(self.name(), lang)
    }
}

/// The name, as every report has written it.
impl Serialize for RowPolicy {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_serialises_as_its_name() {
        for kind in PolicyKind::ALL {
            assert_eq!(
                serde_json::to_string(&RowPolicy::Simulated(kind)).unwrap(),
                format!("\"{}\"", kind.name())
            );
        }
        assert_eq!(
            serde_json::to_string(&RowPolicy::Recorded).unwrap(),
            "\"recorded\""
        );
        assert_eq!(RowPolicy::Recorded.title(Lang::En), "as recorded");
        assert_eq!(RowPolicy::Simulated(PolicyKind::Rr).title(Lang::En), "RR");
        assert_eq!(RowPolicy::Recorded.kind(), None);
    }
}
