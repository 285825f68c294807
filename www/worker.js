// tailslice's one worker (a module worker) with one wasm instance: the
// worker's own module (worker-web/, built for speed), fetched when this
// worker starts, which is when the page first needs it. It answers the
// protocol of www/worker-loop.js with the jobs of www/jobs.js (run,
// scenario, sweep, importTasks, exportFile, embedFigure, panic); the page's
// side is www/client.js. The same script runs its helpers (www/helpers.js),
// which get the compiled module from it rather than fetching and compiling
// their own.
import init, * as wasm from './tailslice-worker-web.js';
import * as jobs from './jobs.js';
import { serve } from './worker-loop.js';
import { createHelpers, HELPER } from './helpers.js';

const url = new URL('./tailslice-worker-web_bg.wasm', import.meta.url);

/** The module as the worker that started this helper sends it. */
function moduleFromParent() {
  return new Promise((resolve) => {
    self.addEventListener('message', function take(event) {
      if (event.data && event.data.type === 'module') {
        self.removeEventListener('message', take);
        resolve(event.data.module);
      }
    });
  });
}

/** The module compiled as it downloads (from its bytes where the server
 * does not send it as application/wasm). */
async function compile() {
  try {
    return await WebAssembly.compileStreaming(fetch(url));
  } catch {
    return WebAssembly.compile(await (await fetch(url)).arrayBuffer());
  }
}

const helper = self.name === HELPER;
const module = helper ? moduleFromParent() : compile();
serve(init({ module_or_path: module }), wasm, jobs, helper ? {} : { helpers: createHelpers(module) });
