// tailslice trace worker (a module worker): reads a browser performance
// trace the visitor opened, off the main thread. Receives
//   {type: "open", id, file}           (a File; gzip is detected by its first bytes)
//   {type: "select", id, thread, t0}   (another thread, or arrivals at t = 0)
// and answers
//   {type: "progress", id, read, size, gzip}   (while reading)
//   {type: "parsing", id, read}                (reading done, parsing)
//   {type: "selected", id, sel, ms}            (sel: TraceLoader.select's object; sel.starts transferred)
//   {type: "error", id, message}
// The page cancels by terminating this worker. The file is read here and
// nowhere else: it never leaves the browser.
// The trace reader is its own wasm module (trace-web/), fetched only now.
import init, { TraceLoader } from './tailslice-trace-web.js';

const ready = init({ module_or_path: new URL('./tailslice-trace-web_bg.wasm', import.meta.url) });
let loader = null;

async function open({ id, file }) {
  const t0 = performance.now();
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  if (loader) { loader.free(); loader = null; }
  const l = new TraceLoader(file.size, gzip);
  let stream = file.stream();
  if (gzip) stream = stream.pipeThrough(new DecompressionStream('gzip'));
  const reader = stream.getReader();
  let read = 0;
  let last = 0;
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch (err) {
      l.free();
      throw new Error(gzip ? `the gzip data does not inflate: ${err.message || err}` : `cannot read the file: ${err.message || err}`);
    }
    if (chunk.done) break;
    try {
      l.push(chunk.value);
    } catch (err) {
      reader.cancel();
      l.free();
      throw err;
    }
    read += chunk.value.length;
    const now = performance.now();
    if (now - last > 100) {
      last = now;
      self.postMessage({ type: 'progress', id, read, size: file.size, gzip });
    }
  }
  self.postMessage({ type: 'parsing', id, read });
  try {
    l.parse();
  } catch (err) {
    l.free();
    throw err;
  }
  loader = l;
  select({ id, thread: '', t0: false }, t0);
}

function select({ id, thread, t0 }, start = performance.now()) {
  if (!loader) throw new Error('no trace is open');
  const sel = loader.select(thread, t0);
  self.postMessage({ type: 'selected', id, sel, ms: performance.now() - start }, [sel.starts.buffer]);
}

self.onmessage = async (event) => {
  const msg = event.data;
  try {
    await ready;
    if (msg.type === 'open') await open(msg);
    else if (msg.type === 'select') select(msg);
  } catch (err) {
    self.postMessage({ type: 'error', id: msg.id, message: String((err && err.message) || err) });
  }
};
