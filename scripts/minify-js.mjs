// Trunk post_build hook (release builds): minifies every JavaScript file in
// the staging directory with terser, as ES modules. Trunk's own minifier
// cannot parse wasm-bindgen's glue (`export default`) and leaves copied
// files alone; this keeps the page's transfer within its budget.
// terser comes from .tools/ (installed by scripts/setup.sh).
import { readdir, readFile, writeFile } from 'node:fs/promises';
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

let minify;
try {
  ({ minify } = createRequire(join(root, '.tools', 'package.json'))('terser'));
} catch {
  console.error('minify-js: terser is missing from .tools/: run ./scripts/setup.sh');
  process.exit(1);
}

async function* jsFiles(d) {
  for (const e of await readdir(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    if (e.isDirectory()) yield* jsFiles(p);
    else if (e.name.endsWith('.js')) yield p;
  }
}

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
