// tailslice's trace worker (a module worker): reads a browser performance
// trace the visitor opened, off the main thread, with the trace reader's
// own wasm module (trace-web/), fetched only now. The same protocol as the
// page's worker (www/worker-loop.js) with the jobs of www/trace-jobs.js;
// the page's side is `traceClient` in www/client.js.
import init, * as wasm from './tailslice-trace-web.js';
import * as jobs from './trace-jobs.js';
import { serve } from './worker-loop.js';

serve(init({ module_or_path: new URL('./tailslice-trace-web_bg.wasm', import.meta.url) }), wasm, jobs);
