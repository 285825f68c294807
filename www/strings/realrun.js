// Labels of the "Run for real" panel (www/realrun.js), English and
// Simplified Chinese. Its sentences and the tables' headings, labels and
// cells (notes, estimate, status, yield cost, reading, "not available")
// come from Rust (crate/src/realrun/text.rs).
export default {
  en: {
    'real.title': 'Run for real',
    'real.reading': 'Reading the uploaded tasks…',
    'real.help': 'The same tasks as busy loops on this page\'s own main thread: FIFO (each task to completion, no yield) and sliced (the model\'s round-robin order, yielding to the event loop between slices), measured beside the simulation.',
    'real.scale': 'Scale (× or auto)',
    'real.repeats': 'Repeats',
    'real.yield': 'Yield with',
    'real.run': 'Run for real',
    'real.stop': 'Stop',
    'real.starting': 'Starting…',
    'real.progress': 'Pass {pass} of {total}: {policy}…',
    'real.failed': 'The run failed: {message}',
    'real.col.row': 'policy · kind',
    'real.col.what': 'during the passes',
    'real.usecost': 'Simulate with this yield cost',
    'real.download': 'Download results (JSON)',
  },
  zh: {
    'real.reading': '正在读取上传的任务…',
    'real.title': '真机运行',
    'real.help': '同样的任务，在本页自己的主线程上以忙循环运行：FIFO（每个任务跑完，不让出）和分片（按模型的轮转顺序，片与片之间让出事件循环），并与模拟结果并列。',
    'real.scale': '比例（倍数或 auto）',
    'real.repeats': '重复次数',
    'real.yield': '让出方式',
    'real.run': '真机运行',
    'real.stop': '停止',
    'real.starting': '正在开始…',
    'real.progress': '第 {pass} 轮，共 {total} 轮：{policy}…',
    'real.failed': '运行失败：{message}',
    'real.col.row': '策略 · 类别',
    'real.col.what': '运行期间',
    'real.usecost': '用这个让出开销模拟',
    'real.download': '下载结果（JSON）',
  },
};
