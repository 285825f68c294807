// tailslice's one worker (a module worker) with one wasm instance: the
// worker's own module (worker-web/, built for speed), fetched when this
// worker starts, which is when the page first needs it. It answers the
// protocol of www/worker-loop.js with the jobs of www/jobs.js (run,
// scenario, sweep, importTasks, exportFile, embedFigure, panic); the page's side is
// www/client.js.
import init, * as wasm from './tailslice-worker-web.js';
import * as jobs from './jobs.js';
import { serve } from './worker-loop.js';

serve(init({ module_or_path: new URL('./tailslice-worker-web_bg.wasm', import.meta.url) }), wasm, jobs);
