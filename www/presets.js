// The preset experiments of the picker: the page's own content (queries
// and the keys of their names in www/strings/page.js), not a copy of any
// core table.

/** [query, label key], in the picker's order. */
export const PRESETS = [
  ['', 'preset.study'],
  ['p=fifo,rr,sjf,srpt', 'preset.four'],
  ['q=4&cs=0.5', 'preset.switch'],
  ['n=2000&arrivals=poisson:0.9&p=fifo,rr,srpt,mlfq&cores=4', 'preset.poisson'],
  ['mix=1:pareto(2,1.5)&p=fifo,rr,srpt', 'preset.pareto'],
  ['n=200000&q=8', 'preset.large'],
];
