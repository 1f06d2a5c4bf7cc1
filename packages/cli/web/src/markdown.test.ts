import type { ComponentChildren, VNode } from 'preact';
import { describe, expect, it } from 'vitest';
import { parseMarkdown, renderInline, renderMarkdown, safeHref } from './markdown.js';

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The HTML Preact would write for these children (text escaped as Preact escapes it; `key` is not an attribute). */
function html(children: ComponentChildren): string {
  if (children === null || children === undefined || typeof children === 'boolean') return '';
  if (typeof children === 'string' || typeof children === 'number') return escape(String(children));
  if (Array.isArray(children)) return children.map((c) => html(c as ComponentChildren)).join('');
  const vnode = children as VNode<Record<string, unknown>>;
  if (typeof vnode.type !== 'string') throw new Error('only elements are expected');
  const { children: inner, style, ...props } = vnode.props;
  const attrs = Object.entries(props)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escape(String(v))}"`)
    .join('');
  const css = style
    ? ` style="${Object.entries(style)
        .map(([k, v]) => `${k}:${String(v)}`)
        .join(';')}"`
    : '';
  return vnode.type === 'br' || vnode.type === 'hr'
    ? `<${vnode.type}${attrs}>`
    : `<${vnode.type}${attrs}${css}>${html(inner)}</${vnode.type}>`;
}

const md = (text: string) => html(renderMarkdown(text));

/** Every element type in the rendered tree. */
function tags(children: ComponentChildren, into: string[] = []): string[] {
  if (Array.isArray(children)) for (const c of children) tags(c as ComponentChildren, into);
  else if (children && typeof children === 'object' && 'type' in children) {
    into.push(String(children.type));
    tags((children.props as { children?: ComponentChildren }).children, into);
  }
  return into;
}

describe('renderMarkdown: a model’s Markdown as elements, never as HTML', () => {
  it('a <script> and an <img onerror> in an answer stay text: no script or img element, the text escaped', () => {
    const text = 'Try this: <script>alert(1)</script> and <img src=x onerror="alert(2)">';
    const tree = renderMarkdown(text);
    expect(tags(tree)).toEqual(['p']);
    expect(md(text)).toBe(
      '<p>Try this: &lt;script&gt;alert(1)&lt;/script&gt; and &lt;img src=x onerror=&quot;alert(2)&quot;&gt;</p>',
    );
    // A block of raw HTML is a paragraph of text too.
    expect(tags(renderMarkdown('<div onclick="x()">\n<iframe src="evil.html"></iframe>\n</div>'))).toEqual([
      'p',
      'br',
      'br',
    ]);
  });

  it('**bold** → <strong>, *em* and _em_ → <em>, `code` → <code>; arithmetic stars stay stars', () => {
    expect(md('A **bold** claim')).toBe('<p>A <strong>bold</strong> claim</p>');
    expect(md('__also bold__, *leaning* and _leaning_')).toBe(
      '<p><strong>also bold</strong>, <em>leaning</em> and <em>leaning</em></p>',
    );
    expect(md('Run `npm test` now')).toBe('<p>Run <code>npm test</code> now</p>');
    expect(md('**Score**: `**not bold**`')).toBe('<p><strong>Score</strong>: <code>**not bold**</code></p>');
    expect(md('2*3*4 = 24 and snake_case_name')).toBe('<p>2*3*4 = 24 and snake_case_name</p>');
    expect(md('\\*not em\\*')).toBe('<p>*not em*</p>');
  });

  it('a fenced block → <pre><code> with its text verbatim (no inline rules, HTML escaped)', () => {
    const text = 'Before\n\n```ts\nconst a = **b** < 3;\n  <b>x</b>\n```\n\nAfter';
    expect(md(text)).toBe(
      '<p>Before</p><pre><code class="language-ts">const a = **b** &lt; 3;\n  &lt;b&gt;x&lt;/b&gt;</code></pre><p>After</p>',
    );
    // An unclosed fence runs to the end of the text (a streamed answer mid-block).
    expect(md('~~~\nline 1\nline 2')).toBe('<pre><code>line 1\nline 2</code></pre>');
  });

  it('a pipe table → <table> with a head, a body and the alignment of the delimiter row', () => {
    const text = '| Option | Cost |\n|:--|--:|\n| **A** | 3 |\n| B \\| C | `x|y` |';
    expect(md(text)).toBe(
      '<div class="md-table"><table><thead><tr><th style="textAlign:left">Option</th><th style="textAlign:right">Cost</th></tr></thead>' +
        '<tbody><tr><td style="textAlign:left"><strong>A</strong></td><td style="textAlign:right">3</td></tr>' +
        '<tr><td style="textAlign:left">B | C</td><td style="textAlign:right"><code>x|y</code></td></tr></tbody></table></div>',
    );
  });

  it('lists (bullets, numbers from their start, nested by indentation), headings, quotes and rules', () => {
    expect(md('- one\n- two\n  - two.a\n- three')).toBe(
      '<ul><li>one</li><li><p>two</p><ul><li>two.a</li></ul></li><li>three</li></ul>',
    );
    expect(md('3. third\n4. fourth')).toBe('<ol start="3"><li>third</li><li>fourth</li></ol>');
    expect(md('1. **Strengths**: clear steps\n2. **Score**: 9')).toBe(
      '<ol><li><strong>Strengths</strong>: clear steps</li><li><strong>Score</strong>: 9</li></ol>',
    );
    // Model headings sit two levels down, under the page's own h3 sections.
    expect(md('# Plan\n### Response A')).toBe('<h3 class="md-heading">Plan</h3><h5 class="md-heading">Response A</h5>');
    expect(md('> quoted **text**\n> more')).toBe(
      '<blockquote><p>quoted <strong>text</strong><br>more</p></blockquote>',
    );
    expect(md('above\n\n---\n\nbelow')).toBe('<p>above</p><hr><p>below</p>');
  });

  it('links: http(s) only, opened with rel="noopener noreferrer"; javascript: and data: addresses become text', () => {
    expect(md('See [the docs](https://example.com/a_(b)) now')).toBe(
      '<p>See <a href="https://example.com/a_(b)" rel="noopener noreferrer" target="_blank">the docs</a> now</p>',
    );
    expect(md('[click](javascript:alert(1)) and [data](data:text/html;base64,PHNjcmlwdD4=)')).toBe(
      '<p>click and data</p>',
    );
    expect(md('Bare https://example.org/x, done')).toBe(
      '<p>Bare <a href="https://example.org/x" rel="noopener noreferrer" target="_blank">https://example.org/x</a>, done</p>',
    );
    // An image is a link to it: the page loads nothing a model names.
    expect(md('![chart](https://example.org/c.png)')).toBe(
      '<p><a href="https://example.org/c.png" rel="noopener noreferrer" target="_blank">chart (image)</a></p>',
    );
    expect(safeHref('  HTTPS://Example.org/ ')).toBe('https://example.org/');
    expect(safeHref('//example.org')).toBeNull();
    expect(safeHref('javascript:alert(1)')).toBeNull();
  });

  it('parses the blocks a review is made of', () => {
    expect(parseMarkdown('### Response A\n1. **Strengths**: clear steps\n\nFINAL RANKING:\n1. Response A')).toEqual([
      { kind: 'heading', level: 3, text: 'Response A' },
      { kind: 'list', ordered: true, start: 1, items: [[{ kind: 'paragraph', text: '**Strengths**: clear steps' }]] },
      { kind: 'paragraph', text: 'FINAL RANKING:' },
      { kind: 'list', ordered: true, start: 1, items: [[{ kind: 'paragraph', text: 'Response A' }]] },
    ]);
  });
});

describe('renderMarkdown on long replies', () => {
  it('emphasis stays on its line; unmatched markers and backticks in a long reply are left as text', () => {
    expect(md('**not\nbold**')).toBe('<p>**not<br>bold**</p>');
    // 20 000 openers of each kind with no closer (each is followed by a space before the next): every one is text
    // (a search to the end of the text for each would be quadratic; the bounded one is not, with the same result).
    const text = ' *a _b ~~d'.repeat(20_000) + ' `e';
    expect(html(renderInline(text))).toBe(escape(text));
  });
});
