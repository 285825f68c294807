//! The preset experiments the page offers in its picker: a name in both
//! languages and the query that makes the experiment (the URL's own keys,
//! so a preset is exactly the link it would share).

use crate::text::Text;

/// One preset experiment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Preset {
    /// The experiment's query (empty: the study itself).
    pub query: &'static str,
    pub name: Text,
}

/// The picker's presets, in its order.
pub(crate) const PRESETS: [Preset; 6] = [
    Preset {
        query: "",
        name: Text::new(
            "The study: 400 tasks, FIFO vs RR 16 ms",
            "原研究：400 个任务，FIFO 对比 RR 16 ms",
        ),
    },
    Preset {
        query: "p=fifo,rr,sjf,srpt",
        name: Text::new("The study, four policies", "原研究，四种策略"),
    },
    Preset {
        query: "q=4&cs=0.5",
        name: Text::new(
            "The study with 0.5 ms switch cost, 4 ms quantum",
            "原研究加 0.5 ms 切换开销，4 ms 时间片",
        ),
    },
    Preset {
        query: "n=2000&arrivals=poisson:0.9&p=fifo,rr,srpt,mlfq&cores=4",
        name: Text::new(
            "2 000 tasks on 4 cores, Poisson arrivals at 90 % load",
            "4 核上 2000 个任务，泊松到达，负载 90%",
        ),
    },
    Preset {
        query: "mix=1:pareto(2,1.5)&p=fifo,rr,srpt",
        name: Text::new("Heavy tail: Pareto durations", "长尾：帕累托分布的时长"),
    },
    Preset {
        query: "n=200000&q=8",
        name: Text::new(
            "200 000 tasks (runs in the background, with progress)",
            "200 000 个任务（后台运行，显示进度）",
        ),
    },
];
