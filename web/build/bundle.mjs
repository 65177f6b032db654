// The web client's build: esbuild bundles and minifies the sources into OUT, which the server
// embeds in its binary (crates/server/build.rs runs this):
//
//   OUT/index.html        the page, pointing at the hashed files below
//   OUT/assets/…          scripts, chunks, the style sheet and their source maps, named by
//                         their content's hash: served as immutable
//   OUT/img/…             the pictures, under their own names
//   OUT/offline.html      the page the service worker shows when the server is unreachable
//   OUT/sw.js             the service worker, with the bundle's version and files written in
//   OUT/manifest.webmanifest  what makes the site installable
//   OUT/pages.json        the texts the server writes into the game pages (pages.mjs)
//   OUT/files.tsv         what to serve: URL, file, content type, cache class, gzipped copy
//                         (or -) and entity tag, one file a line
//
//   node build/bundle.mjs --out DIR
//
// esbuild is found by Node's module resolution from this folder (web/node_modules after
// `npm ci` here) or, as the server's build script arranges, through NODE_PATH.

import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync, constants } from 'node:zlib';
import { createHash } from 'node:crypto';
import { pageTexts } from './pages.mjs';

const esbuild = createRequire(import.meta.url)('esbuild');

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TYPES = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
};
// Compressing a body smaller than this gains less than the encoding's overhead.
const WORTH_GZIP = 1024;

const { values: args } = parseArgs({ options: { out: { type: 'string' } } });
if (!args.out) throw new Error('usage: node build/bundle.mjs --out DIR');
const OUT = resolve(args.out);
rmSync(OUT, { recursive: true, force: true });
mkdirSync(join(OUT, 'assets'), { recursive: true });

const common = {
  absWorkingDir: WEB,
  bundle: true,
  minify: true,
  sourcemap: 'linked',
  legalComments: 'none',
  outdir: join(OUT, 'assets'),
  entryNames: '[name]-[hash]',
  chunkNames: 'chunk-[hash]',
  // Browsers of the last few years: module scripts, top-level await and import attributes.
  target: ['chrome109', 'edge109', 'firefox115', 'safari16'],
  metafile: true,
  logLevel: 'warning',
};

// The app and its style sheet. Pages other than the catalogue are chunks of their own,
// loaded when first visited (app.js imports them dynamically).
const app = await esbuild.build({
  ...common,
  entryPoints: ['js/app.js', 'css/app.css'],
  format: 'esm',
  splitting: true,
});
// Run before the first paint as a classic script, so that a dark page never flashes light.
const boot = await esbuild.build({ ...common, entryPoints: ['js/theme-boot.js'], format: 'iife' });
// The offline page's script, on its own: the service worker keeps it beside the page.
const offlineScript = await esbuild.build({ ...common, entryPoints: ['js/offline.js'], format: 'esm' });

/** The URL of the output built from entry `source`, and the chunks it imports at once. */
function output(meta, source) {
  for (const [file, out] of Object.entries(meta.outputs)) {
    if (out.entryPoint === source) {
      const chunks = out.imports.filter((i) => i.kind === 'import-statement').map((i) => '/' + relative(OUT, resolve(WEB, i.path)));
      return { url: '/' + relative(OUT, resolve(WEB, file)), chunks };
    }
  }
  throw new Error(`esbuild wrote nothing for ${source}`);
}

const script = output(app.metafile, 'js/app.js');
const style = output(app.metafile, 'css/app.css');
const themeBoot = output(boot.metafile, 'js/theme-boot.js');
const offline = output(offlineScript.metafile, 'js/offline.js');

// index.html with the hashed names; the chunks the app needs at once are fetched beside it
// rather than after it.
/** A page of web/ written to OUT with the source names in it swapped for the hashed ones. */
function page(name, swaps) {
  let html = readFileSync(join(WEB, name), 'utf8');
  for (const [from, to] of swaps) {
    if (!html.includes(from)) throw new Error(`${name} does not contain ${from}`);
    html = html.replace(from, to);
  }
  writeFileSync(join(OUT, name), html);
}
page('index.html', [
  ['href="/css/app.css"', `href="${style.url}"`],
  ['src="/js/theme-boot.js"', `src="${themeBoot.url}"`],
  [
    '<script type="module" src="/js/app.js"></script>',
    [`<script type="module" src="${script.url}"></script>`, ...script.chunks.map((c) => `<link rel="modulepreload" href="${c}">`)].join('\n  '),
  ],
]);
page('offline.html', [
  ['href="/css/app.css"', `href="${style.url}"`],
  ['src="/js/theme-boot.js"', `src="${themeBoot.url}"`],
  ['src="/js/offline.js"', `src="${offline.url}"`],
]);
copyFileSync(join(WEB, 'manifest.webmanifest'), join(OUT, 'manifest.webmanifest'));

mkdirSync(join(OUT, 'img'));
for (const f of readdirSync(join(WEB, 'img'))) copyFileSync(join(WEB, 'img', f), join(OUT, 'img', f));

writeFileSync(join(OUT, 'pages.json'), JSON.stringify(await pageTexts(WEB)));

// The manifest: every file with the URL it is served at and how long it may be kept.
const rows = [];
function serve(file, url, cache) {
  const type = TYPES[file.slice(file.lastIndexOf('.'))];
  if (!type) throw new Error(`no content type for ${file}`);
  const body = readFileSync(join(OUT, file));
  let gz = '-';
  if (body.length >= WORTH_GZIP) {
    const packed = gzipSync(body, { level: constants.Z_BEST_COMPRESSION });
    if (packed.length < body.length) {
      writeFileSync(join(OUT, file + '.gz'), packed);
      gz = file + '.gz';
    }
  }
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  rows.push([url, file, type, cache, gz, etag].join('\t'));
}
for (const f of readdirSync(join(OUT, 'assets'))) serve(`assets/${f}`, `/assets/${f}`, 'immutable');
for (const f of readdirSync(join(OUT, 'img'))) serve(`img/${f}`, `/img/${f}`, 'day');
serve('index.html', '/', 'no-cache');
serve('offline.html', '/offline.html', 'no-cache');
serve('manifest.webmanifest', '/manifest.webmanifest', 'day');

// The service worker, versioned by everything it keeps: a new bundle is a new worker, which
// replaces the old one's files (web/sw.js).
const precache = [
  '/offline.html',
  ...readdirSync(join(OUT, 'assets')).filter((f) => !f.endsWith('.map') && !f.endsWith('.gz')).map((f) => `/assets/${f}`),
  ...readdirSync(join(OUT, 'img')).filter((f) => !f.endsWith('.gz')).map((f) => `/img/${f}`),
].sort();
const version = createHash('sha256').update(rows.join('\n')).digest('base64url').slice(0, 16);
const worker = readFileSync(join(WEB, 'sw.js'), 'utf8');
const buildLine = /^const BUILD = .*$/m;
if (!buildLine.test(worker)) throw new Error('sw.js has no `const BUILD = …` line to write');
writeFileSync(join(OUT, 'sw.js'), worker.replace(buildLine, `const BUILD = ${JSON.stringify({ version, precache })};`));
serve('sw.js', '/sw.js', 'no-cache');
writeFileSync(join(OUT, 'files.tsv'), rows.join('\n') + '\n');
