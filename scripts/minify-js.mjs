// Trunk post_build hook (release builds): bundles the page's JavaScript,
// then minifies it.
//
// 1. esbuild bundles each entry — the page (main.js), the worker
//    (worker.js), the trace reader's worker (trace-worker.js) — into one
//    ES module, with the code two entries share in a chunk of its own
//    (chunk-<hash>.js): one request for the page's code instead of thirty,
//    and one gzip stream that compresses better than thirty small ones.
//    The files it bundled leave the staging directory; a file no entry
//    imports stays as it is (facade.js, the blog snippets' loader).
// 2. terser minifies every JavaScript file left, as ES modules (Trunk's own
//    minifier cannot parse wasm-bindgen's glue and leaves copied files
//    alone).
// esbuild and terser come from .tools/ (installed by scripts/setup.sh).
import { readdir, readFile, writeFile, rm, rename, rmdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('minify-js: TRUNK_STAGING_DIR is not set (run through trunk build)');
  process.exit(1);
}
if (process.env.TRUNK_PROFILE !== 'release') process.exit(0);

const tools = createRequire(join(root, '.tools', 'package.json'));
let minify;
let esbuild;
try {
  ({ minify } = tools('terser'));
  esbuild = tools('esbuild');
} catch {
  console.error('minify-js: terser or esbuild is missing from .tools/: run ./scripts/setup.sh');
  process.exit(1);
}

/** The entries: each is loaded by a page or a worker by its own name. */
const ENTRIES = ['main.js', 'worker.js', 'trace-worker.js'];

async function* jsFiles(d) {
  for (const e of await readdir(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    if (e.isDirectory()) yield* jsFiles(p);
    else if (e.name.endsWith('.js')) yield p;
  }
}

async function bundle() {
  const out = join(dir, '.bundle');
  const result = await esbuild.build({
    absWorkingDir: dir,
    entryPoints: ENTRIES,
    bundle: true,
    format: 'esm',
    splitting: true,
    outdir: out,
    chunkNames: 'chunk-[hash]',
    metafile: true,
    logLevel: 'warning',
  });
  // The bundled sources leave; the bundles take their place.
  for (const input of Object.keys(result.metafile.inputs)) await rm(join(dir, input));
  for (const name of await readdir(out)) await rename(join(out, name), join(dir, name));
  await rmdir(out);
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.isDirectory() && (await readdir(join(dir, e.name))).length === 0) await rmdir(join(dir, e.name));
  }
  const inputs = Object.keys(result.metafile.inputs).length;
  const outputs = Object.keys(result.metafile.outputs).length;
  console.log(`minify-js: bundled ${inputs} modules into ${outputs} files`);
}

await bundle();

let before = 0;
let after = 0;
for await (const file of jsFiles(dir)) {
  const code = await readFile(file, 'utf8');
  const out = await minify(code, {
    module: true,
    compress: { passes: 2 },
    mangle: true,
    format: { comments: false },
  });
  await writeFile(file, out.code);
  before += code.length;
  after += out.code.length;
}
console.log(`minify-js: ${before} -> ${after} bytes of JavaScript`);
