// The trace worker's jobs (www/trace-worker.js; the protocol is
// www/worker-loop.js'). The file is read here and nowhere else: it never
// leaves the browser. The open trace's loader stays in `ctx.cache`, so
// choosing another thread does not read the file again.

/** The loader's answer for `thread` (or the main thread: ''), `t0`: all
 * arrivals at 0. The task list goes to the page as a File: a handle the
 * page hands on to its own worker with every run, instead of megabytes of
 * text copied through the main thread each time. */
function selected(loader, thread, t0) {
  const sel = loader.select(thread, t0);
  sel.tasks = new File([sel.tasks], 'trace-tasks.csv', { type: 'text/csv' });
  return { value: sel, transfer: [sel.starts.buffer] };
}

/**
 * Reads `{file}` (a File; gzip is detected by its first bytes and inflated
 * with DecompressionStream) a chunk at a time into a TraceLoader, then
 * parses it. Progress: `{read, size, gzip}` while reading, `{parsing:
 * true, read}` before parsing. Value: `TraceLoader.select`'s object for
 * the main thread (`tasks` as a File, `starts` transferred).
 */
export async function* openTrace(wasm, { file }, ctx) {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  if (ctx.cache.loader) { ctx.cache.loader.free(); ctx.cache.loader = null; }
  const loader = new wasm.TraceLoader(file.size, gzip);
  let kept = false;
  let stream = file.stream();
  if (gzip) stream = stream.pipeThrough(new DecompressionStream('gzip'));
  const reader = stream.getReader();
  try {
    let read = 0;
    let last = 0;
    for (;;) {
      let chunk;
      try {
        chunk = await reader.read();
      } catch (err) {
        throw wasm.unreadable(gzip, String(err.message || err));
      }
      if (chunk.done) break;
      loader.push(chunk.value);
      read += chunk.value.length;
      const now = performance.now();
      if (now - last > 100) {
        last = now;
        ctx.progress({ read, size: file.size, gzip });
      }
      yield;
    }
    ctx.progress({ parsing: true, read });
    yield;
    loader.parse();
    ctx.cache.loader = loader;
    kept = true;
    return selected(loader, '', false);
  } finally {
    if (!kept) {
      reader.cancel().catch(() => {});
      loader.free();
    }
  }
}

/** Another thread of the open trace, or arrivals at t = 0: `{thread, t0}`. */
export function* selectTrace(wasm, { thread, t0 }, ctx) {
  if (!ctx.cache.loader) throw new Error('no trace is open');
  yield;
  return selected(ctx.cache.loader, thread, t0);
}
