// Builds the `council serve` web UI (Preact, TSX) into the static files the server hands out: index.html,
// one minified JS file and one CSS file named by their content hash, and the favicon. Nothing is written to
// disk: tsup's esbuild plugin (tsup.config.ts) and vitest's plugin (vitest.config.ts) both call this and
// turn the result into the `council-web-assets` module, so the files live as strings in the serve chunk only.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const webDir = new URL('./', import.meta.url);

/** The module id web-assets.ts imports; the build tools resolve it to `webAssetsModuleSource()`. */
export const WEB_ASSETS_MODULE = 'council-web-assets';

function contentHash(text) {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

/** Bundles web/src/main.tsx (and the CSS it imports) in memory; returns the JS and CSS texts. */
async function bundle() {
  const result = await build({
    entryPoints: [new URL('./src/main.tsx', webDir).pathname],
    bundle: true,
    minify: true,
    write: false,
    outdir: 'out',
    format: 'esm',
    target: ['chrome111', 'firefox111', 'safari16.4'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    logLevel: 'silent',
    tsconfig: new URL('./tsconfig.json', webDir).pathname,
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const text = (ext) => {
    const file = result.outputFiles.find((f) => f.path.endsWith(ext));
    if (!file) throw new Error(`The web UI build produced no ${ext} file.`);
    return file.text;
  };
  return { js: text('.js'), css: text('.css') };
}

function indexHtml({ jsPath, cssPath }) {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    '<title>Council</title>',
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    `<link rel="stylesheet" href="${cssPath}">`,
    `<script type="module" src="${jsPath}"></script>`,
    '</head>',
    '<body>',
    '<div id="app"><noscript>Council\'s web UI needs JavaScript.</noscript></div>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * The UI's files: `{ path, contentType, body }` for `/`, `/assets/app.<hash>.js`, `/assets/app.<hash>.css`
 * and `/favicon.svg`. The hashed names let the server cache assets forever.
 */
export async function buildWebAssets() {
  const { js, css } = await bundle();
  const jsPath = `/assets/app.${contentHash(js)}.js`;
  const cssPath = `/assets/app.${contentHash(css)}.css`;
  const favicon = readFileSync(new URL('./favicon.svg', webDir), 'utf8');
  return [
    { path: '/', contentType: 'text/html; charset=utf-8', body: indexHtml({ jsPath, cssPath }) },
    { path: jsPath, contentType: 'text/javascript; charset=utf-8', body: js },
    { path: cssPath, contentType: 'text/css; charset=utf-8', body: css },
    { path: '/favicon.svg', contentType: 'image/svg+xml', body: favicon },
  ];
}

/** The source of the `council-web-assets` module: `export const assets = [...]`. */
export async function webAssetsModuleSource() {
  return `export const assets = ${JSON.stringify(await buildWebAssets())};\n`;
}

/** The web sources, for build tools that watch files. */
export const webSourceDir = new URL('./src/', webDir).pathname;
