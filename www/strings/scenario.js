// Strings of the Apple QoS scenario UI (www/scenario.js), English and
// Simplified Chinese. `{name}` placeholders are filled by t(key, vars).
// Everything that names or describes a scenario or a knob (titles, table
// headings, knob labels, ranges and help) comes from Rust's scenario
// registry (scenarioCatalog), and every sentence made from a result
// (reading, the study's figures, notes, calibration) from the result itself
// in both languages; only the page's own chrome is here.
export default {
  en: {
    'sc.picker': 'Apple QoS scenario',
    'sc.none': 'None: the task experiment above',
    'sc.knobs': 'Scenario settings',
    'sc.run': 'Run shown in the charts',
    'sc.heading.gantt': 'Cores, coloured by QoS',
    'sc.heading.states': 'Thread states',
    'sc.heading.pri': 'sched_pri over time',
    'sc.heading.notes': 'Model versus measurements',
    'sc.heading.calibration': 'Calibration',
    'sc.pri.none': 'No priority trace in this scenario (the job times above are the result).',
    'sc.timeline.off': 'Timelines are off (tl=off): tables only.',
    'sc.status.running': 'Running the scenario…',
    'sc.status.progress': 'Running the scenario: simulation {run}, {pct} % of its time · {work} % of the browser’s work limit (any edit cancels it)',
    'sc.status.done': '{name}: simulated in {ms} ms (Web Worker) · drawn in {draw} ms',
    'sc.error.worker': 'The scenario could not run: {message}',
    'sc.caption.gantt': 'Each lane is a core; P cores first. The main thread has its own colour; the rest are coloured by QoS.',
    'sc.caption.states': 'Key threads of this run: the main thread and the first queues or workers.',
  },
  zh: {
    'sc.picker': 'Apple QoS 场景',
    'sc.none': '无：上方的任务实验',
    'sc.knobs': '场景设置',
    'sc.run': '图表显示的运行',
    'sc.heading.gantt': '各核心，按 QoS 着色',
    'sc.heading.states': '线程状态',
    'sc.heading.pri': 'sched_pri 随时间变化',
    'sc.heading.notes': '模型与实测',
    'sc.heading.calibration': '校准',
    'sc.pri.none': '此场景未记录优先级（结果见上方任务耗时）。',
    'sc.timeline.off': '时间线已关闭（tl=off）：仅显示表格。',
    'sc.status.running': '正在运行场景…',
    'sc.status.progress': '正在运行场景：第 {run} 次模拟，已完成其时长的 {pct} % · 已用浏览器工作上限的 {work} %（任何修改都会取消它）',
    'sc.status.done': '{name}：在 Web Worker 中模拟 {ms} ms · 绘制 {draw} ms',
    'sc.error.worker': '场景无法运行：{message}',
    'sc.caption.gantt': '每条泳道是一个核心，性能核在前。主线程单独着色，其余按 QoS 着色。',
    'sc.caption.states': '本次运行的关键线程：主线程和前几个队列或工作线程。',
  },
};
