#!/usr/bin/env node
// INP of a trace by Lighthouse's own code: its `interaction-to-next-paint`
// audit (and the `Responsiveness` computed artifact behind it), run in
// timespan mode on the trace alone, as a Lighthouse user flow's timespan
// step runs it on the trace it recorded.
//
//   node scripts/lighthouse-inp.mjs TRACE.json[.gz]
//
// Prints one line of JSON:
//   {"lighthouse":"12.8.2","inp_ms":130.785,"interaction":{...}}  or
//   {"lighthouse":"12.8.2","inp_ms":"none"}                       (no interaction)
// (with "frame_named": true when the trace did not name its page's frame,
// see nameTheFrame)
// and exits 2, with the reason on stderr, when Lighthouse refuses the trace.
//
// Lighthouse comes from the project's .tools/ (scripts/setup.sh installs
// it), or from LIGHTHOUSE_DIR (a directory holding node_modules/lighthouse).
import {readFileSync} from 'node:fs';
import {gunzipSync} from 'node:zlib';
import {createRequire} from 'node:module';
import {dirname, join, resolve} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';

const [file] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node scripts/lighthouse-inp.mjs TRACE.json[.gz]\n');
  process.exit(64);
}

const here = dirname(fileURLToPath(import.meta.url));
const toolsDir = process.env.LIGHTHOUSE_DIR
  ? resolve(process.env.LIGHTHOUSE_DIR)
  : join(here, '..', '.tools');
const lhRoot = join(toolsDir, 'node_modules', 'lighthouse');
const lh = (path) => import(pathToFileURL(join(lhRoot, path)).href);

let version;
try {
  version = createRequire(import.meta.url)(join(lhRoot, 'package.json')).version;
} catch {
  process.stderr.write(`lighthouse not found in ${lhRoot}: run ./scripts/setup.sh\n`);
  process.exit(3);
}

const {default: InteractionToNextPaint} = await lh('core/audits/metrics/interaction-to-next-paint.js');
const {Responsiveness} = await lh('core/computed/metrics/responsiveness.js');
const {initializeConfig} = await lh('core/config/config.js');

let bytes = readFileSync(file);
if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
const json = JSON.parse(bytes.toString('utf8'));
// Both forms Chrome writes: {"traceEvents": [...]} and a bare array.
const trace = Array.isArray(json) ? {traceEvents: json} : json;

// Lighthouse finds the inspected page through `TracingStartedInBrowser`'s
// frame list, which Chrome fills when tracing starts on the page's own
// DevTools session (DevTools, Lighthouse, scripts/record-traces.sh). A
// trace from a browser-wide session (chromedriver's performance log) has
// the event with no frames, and Lighthouse refuses it (NO_TRACING_STARTED).
// For such a trace only, the frame its EventTiming events name, in the
// process that records them, is given as the main frame, and Lighthouse's
// timespan marker is put at the event's time; nothing else changes, and
// the output says `"frame_named": true`.
function nameTheFrame(events) {
  const started = events.find((e) => e.name === 'TracingStartedInBrowser');
  if (!started || started.args?.data?.frames) return false;
  const timing = events.find((e) => e.name === 'EventTiming' && e.args?.data?.frame);
  if (!timing) return false;
  started.args = {
    ...started.args,
    data: {frames: [{frame: timing.args.data.frame, processId: timing.pid, url: ''}]},
  };
  events.push({
    name: 'clock_sync', ph: 'c', cat: '__metadata', pid: started.pid, tid: started.tid,
    ts: started.ts, args: {sync_id: '__lighthouseTimespanStart__'},
  });
  return true;
}
const frameNamed = nameTheFrame(trace.traceEvents);

// The settings a timespan step runs with (simulated throttling is turned
// into devtools throttling there; the audit is not applicable under
// simulation).
const {resolvedConfig} = await initializeConfig('timespan');
const settings = resolvedConfig.settings;
const artifacts = {Trace: trace, GatherContext: {gatherMode: 'timespan'}};
const context = {
  settings,
  options: InteractionToNextPaint.defaultOptions,
  computedCache: new Map(),
};

try {
  const product = await InteractionToNextPaint.audit(artifacts, context);
  const out = {lighthouse: version};
  if (frameNamed) out.frame_named = true;
  if (product.notApplicable) {
    out.inp_ms = 'none';
  } else {
    out.inp_ms = product.numericValue;
    // The EventTiming entry the audit took its number from.
    const event = await Responsiveness.request({trace, settings}, context);
    const d = event.args.data;
    out.interaction = {
      interaction_id: d.interactionId,
      type: d.type,
      time_stamp: d.timeStamp,
      duration: d.duration,
      ts: event.ts,
    };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
} catch (err) {
  process.stderr.write(`lighthouse refused ${file}: ${err && err.message ? err.message : err}\n`);
  process.exit(2);
}
