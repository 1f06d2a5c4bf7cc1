import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { webAssets } from './web-assets.js';

describe('webAssets', () => {
  const assets = webAssets();
  const byPath = new Map(assets.map((a) => [a.path, a]));
  const html = String(byPath.get('/')?.body ?? '');

  it('serves index.html, one hashed JS file, one hashed CSS file and the favicon', () => {
    expect(assets.map((a) => a.path.replace(/\.[0-9a-f]{12}\./, '.HASH.'))).toEqual([
      '/',
      '/assets/app.HASH.js',
      '/assets/app.HASH.css',
      '/favicon.svg',
    ]);
    expect(byPath.get('/')?.contentType).toBe('text/html; charset=utf-8');
  });

  it('has index.html load its script and stylesheet by path, with no inline script or style (the CSP allows neither)', () => {
    const js = assets.find((a) => a.path.endsWith('.js'));
    const css = assets.find((a) => a.path.endsWith('.css'));
    expect(html).toContain(`<script type="module" src="${js?.path}"></script>`);
    expect(html).toContain(`<link rel="stylesheet" href="${css?.path}">`);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
    // Nothing from another origin: no http(s) URL in the page or its stylesheet.
    expect(html + String(css?.body)).not.toMatch(/https?:\/\//);
  });

  it('names each asset by the hash of its content', async () => {
    const { createHash } = await import('node:crypto');
    for (const a of assets.filter((x) => x.path.startsWith('/assets/'))) {
      expect(a.path).toContain(createHash('sha256').update(a.body).digest('hex').slice(0, 12));
    }
  });

  it('keeps the JavaScript within 60 KB min+gzip (issue 16)', () => {
    const js = assets.find((a) => a.path.endsWith('.js'));
    expect(gzipSync(js?.body ?? '').length).toBeLessThan(60 * 1024);
  });
});
