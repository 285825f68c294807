//! A real run as JSON: the run file ("Download results (JSON)") and the
//! report inside it, which is also what the page's panel reads after each
//! run. Defined once here so the page's bindings only convert it to a JS
//! object.
//!
//! Where the JSON is a struct field for field, the struct derives
//! `Serialize` in its own module; the shapes below differ from their
//! structs (computed keys, figures keyed by metric, optional counts left
//! out), so they are written by hand. Non-finite numbers (a task a stopped
//! pass never finished) become `null`, as `JSON.stringify` writes them.

use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

use crate::param_spec::Params;
use crate::responsiveness::yielding;

use super::measure::{Pass, YieldBatch};
use super::plan::{Plan, PlanPass, POLICIES};
use super::report::{Environment, RealRunReport, RealRunRow, YieldCost, METRICS};
use super::settings::RealParam;

/// What the file's `tailslice` key says it is.
const KIND: &str = "real-run";
/// The file's format version.
const VERSION: u32 = 1;

/// The run as a file: the page's query, the settings, the environment,
/// the scaled tasks, each pass's plan, every raw measurement and the
/// report.
pub(crate) struct RunFile<'a> {
    pub query: &'a str,
    pub plan: &'a Plan,
    pub passes: &'a [Pass],
    pub batches: &'a [YieldBatch],
    pub environment: &'a Environment,
    pub report: RealRunReport,
}

impl<'a> RunFile<'a> {
    /// The file of `passes` and `batches` measured on `plan` in
    /// `environment`, for the page query `query`.
    pub(crate) fn new(
        query: &'a str,
        plan: &'a Plan,
        passes: &'a [Pass],
        batches: &'a [YieldBatch],
        environment: &'a Environment,
    ) -> RunFile<'a> {
        RunFile {
            query,
            plan,
            passes,
            batches,
            environment,
            report: RealRunReport::build(plan, passes, batches, environment),
        }
    }
}

/// The `real_*` keys as the URL writes them.
struct Settings<'a>(&'a Plan);

impl Serialize for Settings<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(RealParam::ALL.len()))?;
        for param in RealParam::ALL {
            m.serialize_entry(param.url_key(), &self.0.settings.get(param))?;
        }
        m.end()
    }
}

/// One pass of the plan: its policy, its slices as flattened
/// `task, length` pairs and the model's completion of each task.
struct PlannedPass<'a>(&'a PlanPass);

/// `task, length, task, length, …`.
struct FlatSlices<'a>(&'a [(u32, f64)]);

impl Serialize for FlatSlices<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut q = s.serialize_seq(Some(2 * self.0.len()))?;
        for (task, len) in self.0 {
            q.serialize_element(task)?;
            q.serialize_element(len)?;
        }
        q.end()
    }
}

/// The model's completion of each task.
struct Completions<'a>(&'a PlanPass);

impl Serialize for Completions<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let outcomes = &self.0.schedule.outcomes;
        let mut q = s.serialize_seq(Some(outcomes.len()))?;
        for o in outcomes {
            q.serialize_element(&o.completion)?;
        }
        q.end()
    }
}

impl Serialize for PlannedPass<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let pp = self.0;
        let mut o = s.serialize_struct("PlannedPass", 3)?;
        o.serialize_field("policy", &pp.policy)?;
        o.serialize_field("slices", &FlatSlices(&pp.slices))?;
        o.serialize_field("simulated_completion_ms", &Completions(pp))?;
        o.end()
    }
}

impl Serialize for RunFile<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let p = self.plan;
        let mut o = s.serialize_struct("RunFile", 16)?;
        o.serialize_field("tailslice", KIND)?;
        o.serialize_field("version", &VERSION)?;
        o.serialize_field("query", self.query)?;
        o.serialize_field("settings", &Settings(p))?;
        o.serialize_field("environment", self.environment)?;
        o.serialize_field("scale", &p.scale)?;
        o.serialize_field("quantum_ms", &p.quantum)?;
        o.serialize_field("within_ms", &p.within)?;
        o.serialize_field("switch_cost_ms", &p.switch_cost)?;
        o.serialize_field("arrival_ms", &p.workload.arrival)?;
        o.serialize_field("work_ms", &p.workload.work)?;
        let plan: Vec<PlannedPass> = p.passes.iter().map(PlannedPass).collect();
        o.serialize_field("plan", &plan)?;
        o.serialize_field("passes", self.passes)?;
        o.serialize_field("yield_batches", self.batches)?;
        o.serialize_field("report", &self.report)?;
        o.end()
    }
}

/// One measured pass: its counts beside its raw arrays; a count the
/// browser does not report is left out.
impl Serialize for Pass {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let c = &self.counts;
        let mut o = s.serialize_struct("Pass", 18)?;
        o.serialize_field("policy", &self.policy)?;
        o.serialize_field("repeat", &self.repeat)?;
        o.serialize_field("slices", &c.slices)?;
        o.serialize_field("yields", &c.yields)?;
        o.serialize_field("idle_waits", &c.idle_waits)?;
        o.serialize_field("input_yields", &c.input_yields)?;
        o.serialize_field("stopped", &c.stopped)?;
        o.serialize_field("frames", &c.frames)?;
        o.serialize_field("wall_ms", &c.wall_ms)?;
        optional(&mut o, "longtasks", &c.longtasks)?;
        optional(&mut o, "longtask_ms", &c.longtask_ms)?;
        optional(&mut o, "loafs", &c.loafs)?;
        optional(&mut o, "loaf_blocking_ms", &c.loaf_blocking_ms)?;
        o.serialize_field("completion", &self.completion)?;
        o.serialize_field("busy", &self.busy)?;
        o.serialize_field("gaps", &self.gaps)?;
        o.serialize_field("probe_late", &self.probe_late)?;
        o.serialize_field("input_delay", &self.input_delay)?;
        o.end()
    }
}

/// A field the browser may not report: left out when it is `None`.
fn optional<O: SerializeStruct, T: Serialize>(
    o: &mut O,
    key: &'static str,
    value: &Option<T>,
) -> Result<(), O::Error> {
    match value {
        Some(v) => o.serialize_field(key, v),
        None => o.skip_field(key),
    }
}

/// A row's figures keyed by metric name (see [`METRICS`]), the ones it
/// lacks left out.
struct ByMetric<'a, T>(&'a [Option<T>; 7]);

impl<T: Serialize> Serialize for ByMetric<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        for (name, v) in METRICS.iter().zip(self.0) {
            if let Some(v) = v {
                m.serialize_entry(name, v)?;
            }
        }
        m.end()
    }
}

impl Serialize for RealRunRow {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut o = s.serialize_struct("RealRunRow", 6)?;
        o.serialize_field("policy", &self.policy)?;
        o.serialize_field("kind", self.kind())?;
        o.serialize_field("values", &ByMetric(&self.values))?;
        o.serialize_field("spread", &ByMetric(&self.spread))?;
        o.serialize_field("repeats", &self.repeats)?;
        o.serialize_field("change", &ByMetric(&self.change))?;
        o.end()
    }
}

impl Serialize for YieldCost {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut o = s.serialize_struct("YieldCost", 10)?;
        o.serialize_field("gaps", &self.gaps)?;
        o.serialize_field("pass_median", &self.pass_median)?;
        o.serialize_field("per_pass", &self.per_pass)?;
        o.serialize_field("batches", &self.batches)?;
        o.serialize_field("batch_yields", &self.batch_yields)?;
        o.serialize_field("step_ms", &self.step_ms)?;
        o.serialize_field("resolved", &self.resolved)?;
        o.serialize_field("ms", &self.ms)?;
        o.serialize_field("p95", &self.p95)?;
        // The model's switch cost as the URL writes it (`cs=`).
        o.serialize_field("cs", &self.ms.map(yielding::rounded_cost))?;
        o.end()
    }
}

/// Complete passes keyed by policy name.
struct Complete<'a>(&'a [usize; 2]);

impl Serialize for Complete<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(POLICIES.len()))?;
        for (policy, n) in POLICIES.iter().zip(self.0) {
            m.serialize_entry(policy.name(), n)?;
        }
        m.end()
    }
}

/// The report as the page reads it (`docs/page-internals.md`, Run for
/// real) and the file holds it.
impl Serialize for RealRunReport {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut o = s.serialize_struct("RealRunReport", 12)?;
        o.serialize_field("state", &self.state)?;
        o.serialize_field("scale", &self.scale)?;
        o.serialize_field("quantum", &self.quantum)?;
        o.serialize_field("within", &self.within)?;
        o.serialize_field("yield_used", &self.yield_used)?;
        o.serialize_field("complete", &Complete(&self.complete))?;
        o.serialize_field("columns", &METRICS)?;
        let passes: Vec<&str> = self.compare.iter().map(|c| c.policy.name()).collect();
        o.serialize_field("passes", &passes)?;
        o.serialize_field("rows", &self.rows)?;
        o.serialize_field("yield_cost", &self.yield_cost)?;
        o.serialize_field("compare", &self.compare)?;
        o.serialize_field("text", &self.text)?;
        o.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::Experiment;
    use crate::policy::PolicyKind;
    use crate::realrun::settings::{RealSettings, RealYield, Scale};
    use crate::realrun::PassCounts;
    use crate::responsiveness::YieldKind;
    use crate::workload::Workload;
    use serde_json::{json, Value};

    fn plan() -> Plan {
        let exp = Experiment {
            tasks: 3,
            ..Experiment::default()
        };
        let settings = RealSettings {
            scale: Scale::Fixed(0.5),
            repeats: 1,
            yield_kind: RealYield::Primitive(YieldKind::Message),
        };
        Plan::build(&exp, &Workload::generate(&exp.workload_spec()), settings).unwrap()
    }

    /// A pass that ran every slice back to back, no yield costing anything.
    fn pass(plan: &Plan, policy: PolicyKind, longtasks: Option<u32>) -> Pass {
        let pp = plan.pass(policy).unwrap();
        let completion: Vec<f64> = pp.schedule.outcomes.iter().map(|o| o.completion).collect();
        Pass {
            policy,
            repeat: 0,
            completion,
            busy: plan.workload.work.clone(),
            gaps: vec![0.25; pp.slices.len() - 1],
            probe_late: vec![1.5],
            input_delay: None,
            counts: PassCounts {
                slices: pp.slices.len() as u32,
                yields: pp.slices.len() as u32 - 1,
                frames: 4,
                wall_ms: 12.5,
                longtasks,
                ..PassCounts::default()
            },
        }
    }

    fn env() -> Environment {
        Environment {
            isolated: false,
            resolution_ms: 0.1,
            yield_used: "message".into(),
            invalid: None,
            stopped: false,
            event_timing: false,
        }
    }

    /// An object's keys, sorted (the order the file writes them in is
    /// checked on its text).
    fn keys(v: &Value) -> Vec<&str> {
        let mut k: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        k.sort_unstable();
        k
    }

    #[test]
    fn the_file_holds_the_plan_the_passes_the_batches_and_the_report() {
        let plan = plan();
        let mut stopped = pass(&plan, PolicyKind::Rr, None);
        stopped.completion[0] = f64::NAN;
        stopped.counts.stopped = true;
        let passes = [pass(&plan, PolicyKind::Fifo, Some(2)), stopped];
        let batches = [YieldBatch {
            yields: 40,
            ms: 2.0,
        }];
        let env = env();
        let file = RunFile::new("tasks=3&real_scale=0.5", &plan, &passes, &batches, &env);
        let text = serde_json::to_string(&file).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();

        // The keys in the order the file writes them.
        let order = [
            "tailslice",
            "version",
            "query",
            "settings",
            "environment",
            "scale",
            "quantum_ms",
            "within_ms",
            "switch_cost_ms",
            "arrival_ms",
            "work_ms",
            "plan",
            "passes",
            "yield_batches",
            "report",
        ];
        let at: Vec<usize> = order
            .iter()
            .map(|k| text.find(&format!("\"{k}\":")).unwrap())
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{text}");
        let mut sorted = order.to_vec();
        sorted.sort_unstable();
        assert_eq!(keys(&v), sorted);

        assert_eq!(v["tailslice"], "real-run");
        assert_eq!(v["version"], 1);
        assert_eq!(v["query"], "tasks=3&real_scale=0.5");
        assert_eq!(
            v["settings"],
            json!({"real_scale": "0.5", "real_repeats": "1", "real_yield": "message"})
        );
        assert_eq!(
            v["environment"],
            json!({"isolated": false, "resolution_ms": 0.1, "yield_used": "message",
                   "invalid": null, "stopped": false, "event_timing": false})
        );
        assert_eq!(v["scale"], 0.5);
        assert_eq!(v["quantum_ms"], plan.quantum);
        assert_eq!(v["within_ms"], plan.within);
        assert_eq!(v["switch_cost_ms"], plan.switch_cost);
        assert_eq!(v["arrival_ms"], json!(plan.workload.arrival));
        assert_eq!(v["work_ms"], json!(plan.workload.work));

        let planned = v["plan"].as_array().unwrap();
        assert_eq!(planned.len(), 2);
        for (pv, pp) in planned.iter().zip(&plan.passes) {
            assert_eq!(keys(pv), ["policy", "simulated_completion_ms", "slices"]);
            assert_eq!(pv["policy"], pp.policy.name());
            let flat: Vec<Value> = pp
                .slices
                .iter()
                .flat_map(|&(t, len)| [json!(t), json!(len)])
                .collect();
            assert_eq!(pv["slices"], Value::Array(flat));
            let sim: Vec<f64> = pp.schedule.outcomes.iter().map(|o| o.completion).collect();
            assert_eq!(pv["simulated_completion_ms"], json!(sim));
        }

        let fifo = &v["passes"][0];
        assert_eq!(fifo["policy"], "fifo");
        assert_eq!(fifo["repeat"], 0);
        assert_eq!(fifo["frames"], 4);
        assert_eq!(fifo["wall_ms"], 12.5);
        assert_eq!(fifo["stopped"], false);
        assert_eq!(fifo["longtasks"], 2);
        assert_eq!(fifo["probe_late"], json!([1.5]));
        assert_eq!(fifo["input_delay"], Value::Null);
        assert_eq!(fifo["busy"], json!(plan.workload.work));
        // A count the browser did not report is left out, not zero.
        for absent in ["longtask_ms", "loafs", "loaf_blocking_ms"] {
            assert!(fifo.get(absent).is_none(), "{absent}");
        }
        let rr = &v["passes"][1];
        assert_eq!(rr["policy"], "rr");
        assert!(rr.get("longtasks").is_none());
        assert_eq!(rr["stopped"], true);
        // The task the stopped pass never finished is `null`, as
        // `JSON.stringify` writes NaN.
        assert_eq!(rr["completion"][0], Value::Null);
        assert!(rr["completion"][1].is_number());

        assert_eq!(v["yield_batches"], json!([{"yields": 40, "ms": 2.0}]));

        let report = &v["report"];
        assert_eq!(report["state"], "stopped");
        assert_eq!(report["complete"], json!({"fifo": 1, "rr": 0}));
        assert_eq!(report["passes"], json!(["fifo", "rr"]));
        assert_eq!(report["columns"], json!(METRICS));
        assert_eq!(report["yield_cost"], Value::Null);
        assert_eq!(report["rows"].as_array().unwrap().len(), 4);
        assert_eq!(report, &serde_json::to_value(&file.report).unwrap());
    }

    #[test]
    fn the_report_keys_figures_by_metric_and_leaves_out_what_it_lacks() {
        let plan = plan();
        let passes = [
            pass(&plan, PolicyKind::Fifo, None),
            pass(&plan, PolicyKind::Rr, None),
        ];
        let batches = [YieldBatch {
            yields: 40,
            ms: 2.0,
        }];
        let report = RealRunReport::build(&plan, &passes, &batches, &env());
        let v = serde_json::to_value(&report).unwrap();
        assert_eq!(
            keys(&v),
            [
                "columns",
                "compare",
                "complete",
                "passes",
                "quantum",
                "rows",
                "scale",
                "state",
                "text",
                "within",
                "yield_cost",
                "yield_used"
            ]
        );
        assert_eq!(v["state"], "done");
        assert_eq!(v["yield_used"], "message");
        let row = &v["rows"][3];
        assert_eq!(
            keys(row),
            ["change", "kind", "policy", "repeats", "spread", "values"]
        );
        assert_eq!(row["policy"], "rr");
        assert_eq!(row["kind"], "measured");
        assert_eq!(row["repeats"], 1);
        let r = report.row("rr", "measured").unwrap();
        for (i, m) in METRICS.iter().enumerate() {
            assert_eq!(row["values"][m], json!(r.values[i].unwrap()), "{m}");
            let (lo, hi) = r.spread[i].unwrap();
            assert_eq!(row["spread"][m], json!([lo, hi]), "{m}");
        }
        // The base row has no change at all: an empty object.
        assert_eq!(v["rows"][1]["change"], json!({}));

        // The clock's step (0.1 ms) is coarse beside 0.25 ms gaps: the
        // batches time the yield, 2 ms over 40 yields.
        let y = &v["yield_cost"];
        assert_eq!(y["resolved"], false);
        assert_eq!(y["ms"], 0.05);
        assert_eq!(y["cs"], 0.05);
        assert_eq!(y["batch_yields"], 40);
        assert_eq!(y["gaps"]["p50"], 0.25);
        assert_eq!(
            keys(&y["pass_median"]),
            ["max", "median", "min", "n"],
            "a spread"
        );

        let c = &v["compare"][0];
        assert_eq!(c["policy"], "fifo");
        assert_eq!(c["longtasks"], Value::Null);
        assert_eq!(c["input"], Value::Null);
        assert_eq!(
            c["frames"],
            json!({"median": 4.0, "min": 4.0, "max": 4.0, "n": 1})
        );
        assert_eq!(c["probe"]["p95"], 1.5);

        let en = &v["text"]["en"];
        assert_eq!(
            keys(en),
            [
                "columns",
                "compare",
                "na",
                "notes",
                "passes",
                "reading",
                "rows",
                "status",
                "yield_cost"
            ]
        );
        assert_eq!(en["na"], "not available");
        assert_eq!(v["text"]["zh"]["na"], "不可用");
        assert_eq!(
            keys(&en["rows"][0]["cells"][0]),
            ["change", "spread", "text"]
        );
        assert_eq!(keys(&en["compare"][0]), ["cells", "key", "label"]);
    }
}
