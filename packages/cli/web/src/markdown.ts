import { h } from 'preact';
import type { ComponentChildren } from 'preact';

// A model's Markdown for the page, as Preact elements (never an HTML string, never `dangerouslySetInnerHTML`): raw
// HTML in the text stays text (Preact escapes it), links keep only http(s) addresses and open with
// rel="noopener noreferrer", images become links to the image (the page loads nothing a model names). Blocks:
// headings, paragraphs, fenced code, bullet and numbered lists (nested by indentation), block quotes, rules and
// pipe tables; inline: code, strong, emphasis, links and bare http(s) addresses. The inline rules follow the
// terminal renderer's (`src/render-terminal-markdown.ts`): emphasis never opens after, nor closes before, a letter or
// digit, so `2*3*4` stays arithmetic.

/** A parsed block. */
export type MarkdownBlock =
  | { kind: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'code'; lang: string; text: string }
  | { kind: 'rule' }
  | { kind: 'quote'; blocks: MarkdownBlock[] }
  | { kind: 'list'; ordered: boolean; start: number; items: MarkdownBlock[][] }
  | { kind: 'table'; align: ('left' | 'center' | 'right' | null)[]; head: string[]; rows: string[][] };

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})[ \t]*([^`\s]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])([ \t]+(.*))?$/;
const DELIMITER_ROW = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

const indentOf = (line: string) => /^[ \t]*/.exec(line)![0].replace(/\t/g, '    ').length;
const isBlank = (line: string) => line.trim() === '';

/** The cells of a table row: split on `|` not escaped and not inside code, the outer pipes dropped. */
function tableCells(line: string): string[] {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  const cells: string[] = [];
  let cell = '';
  let code = false;
  for (let i = 0; i < row.length; i++) {
    const c = row[i]!;
    if (c === '\\' && row[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (c === '`') {
      code = !code;
      cell += c;
    } else if (c === '|' && !code) {
      cells.push(cell.trim());
      cell = '';
    } else cell += c;
  }
  cells.push(cell.trim());
  return cells;
}

/** Whether `line` starts a block other than a paragraph (so it ends the paragraph before it). */
function startsBlock(line: string, next: string | undefined): boolean {
  return (
    FENCE_OPEN.test(line) ||
    HEADING.test(line) ||
    RULE.test(line) ||
    QUOTE.test(line) ||
    ITEM.test(line) ||
    (line.includes('|') && next !== undefined && DELIMITER_ROW.test(next) && next.includes('-'))
  );
}

/** Markdown's blocks (a CommonMark subset: what models write). */
export function parseMarkdown(text: string): MarkdownBlock[] {
  return parseLines(text.replace(/\r\n?/g, '\n').split('\n'));
}

function parseLines(lines: string[]): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }
    const fence = FENCE_OPEN.exec(line);
    if (fence) {
      const marker = fence[1]!;
      const indent = indentOf(line);
      const body: string[] = [];
      i++;
      while (i < lines.length) {
        const l = lines[i]!;
        const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(l);
        if (close && close[1]![0] === marker[0] && close[1]!.length >= marker.length) break;
        body.push(l.replace(new RegExp(`^ {0,${indent}}`), ''));
        i++;
      }
      i++; // the closing fence (or the end: an unclosed fence runs to the end of the text)
      blocks.push({ kind: 'code', lang: fence[2] ?? '', text: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({
        kind: 'heading',
        level: heading[1]!.length as 1 | 2 | 3 | 4 | 5 | 6,
        text: heading[2] ?? '',
      });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ kind: 'rule' });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && !isBlank(lines[i]!)) {
        const q = QUOTE.exec(lines[i]!);
        inner.push(q ? q[1]! : lines[i]!);
        i++;
      }
      blocks.push({ kind: 'quote', blocks: parseLines(inner) });
      continue;
    }
    const next = lines[i + 1];
    if (line.includes('|') && next !== undefined && DELIMITER_ROW.test(next) && next.includes('-')) {
      const head = tableCells(line);
      const align = tableCells(next).map((d) =>
        d.startsWith(':') && d.endsWith(':') ? 'center' : d.endsWith(':') ? 'right' : d.startsWith(':') ? 'left' : null,
      );
      const rows: string[][] = [];
      i += 2;
      while (i < lines.length && !isBlank(lines[i]!) && lines[i]!.includes('|')) {
        const cells = tableCells(lines[i]!);
        rows.push(head.map((_, c) => cells[c] ?? ''));
        i++;
      }
      blocks.push({ kind: 'table', align: head.map((_, c) => align[c] ?? null), head, rows });
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      i = parseList(lines, i, blocks);
      continue;
    }
    const paragraph: string[] = [];
    while (
      i < lines.length &&
      !isBlank(lines[i]!) &&
      (paragraph.length === 0 || !startsBlock(lines[i]!, lines[i + 1]))
    ) {
      paragraph.push(lines[i]!.trim());
      i++;
    }
    blocks.push({ kind: 'paragraph', text: paragraph.join('\n') });
  }
  return blocks;
}

/**
 * A list from line `start`: items of the same kind (bullets, or numbers) at the first item's indentation; an item
 * holds its first line and the lines after it indented past its marker (a nested list, a second paragraph) or
 * continuing it without a blank line. Returns the line after the list.
 */
function parseList(lines: string[], start: number, blocks: MarkdownBlock[]): number {
  const first = ITEM.exec(lines[start]!)!;
  const ordered = /\d/.test(first[2]!);
  const baseIndent = first[1]!.length;
  const items: MarkdownBlock[][] = [];
  let i = start;
  while (i < lines.length) {
    const m = ITEM.exec(lines[i]!);
    if (!m || m[1]!.length !== baseIndent || /\d/.test(m[2]!) !== ordered) break;
    const contentIndent = baseIndent + m[2]!.length + 1;
    const body = [m[4] ?? ''];
    i++;
    while (i < lines.length) {
      const l = lines[i]!;
      if (isBlank(l)) {
        // A blank line continues the item only when the next text is indented into it.
        const after = lines.slice(i + 1).find((x) => !isBlank(x));
        if (after === undefined || indentOf(after) < contentIndent) break;
        body.push('');
        i++;
        continue;
      }
      const indent = indentOf(l);
      if (indent >= contentIndent) body.push(l.replace(/^[ \t]+/, ' '.repeat(Math.max(0, indent - contentIndent))));
      else if (indent > baseIndent && ITEM.test(l)) body.push(l.trimStart());
      else if (!ITEM.test(l) && !startsBlock(l, lines[i + 1]) && body[body.length - 1] !== '') body.push(l.trim());
      else break;
      i++;
    }
    items.push(parseLines(body));
    // Blank lines between items keep the list going.
    let j = i;
    while (j < lines.length && isBlank(lines[j]!)) j++;
    const nextItem = j < lines.length ? ITEM.exec(lines[j]!) : null;
    if (j > i && nextItem && nextItem[1]!.length === baseIndent && /\d/.test(nextItem[2]!) === ordered) i = j;
  }
  blocks.push({ kind: 'list', ordered, start: ordered ? Number.parseInt(first[2]!, 10) : 1, items });
  return i;
}

// Inline rules, tried where the text is (sticky). Emphasis: an opener is followed by a non-space, a closer preceded
// by one, and neither touches a letter or digit on its outer side (checked before the match for the opener); it
// stays on one line and within 1000 characters, so a long reply full of unmatched `*` renders in linear time.
const STRONG = /(\*\*|__)(?!\s)([^\n]{1,1000}?)(?<!\s)\1(?![\p{L}\p{N}])/uy;
const EM_STAR = /\*(?![\s*])([^\n]{1,1000}?)(?<![\s*])\*(?![\p{L}\p{N}*])/uy;
const EM_UNDERSCORE = /_(?![\s_])([^\n]{1,1000}?)(?<![\s_])_(?![\p{L}\p{N}_])/uy;
const STRIKE = /~~(?!\s)([^\n]{1,1000}?)(?<!\s)~~/uy;
const LINK = /(!?)\[([^\]\n]*)\]\(\s*<?((?:[^\s()<>]|\([^\s()<>]*\))+)>?(?:\s+"[^"\n]*")?\s*\)/y;
const AUTOLINK = /<(https?:\/\/[^\s<>]+)>/iy;
const BARE_URL = /https?:\/\/[^\s<>()]*[^\s<>().,;:!?'"*_]/iy;
const ESCAPABLE = /[!-/:-@[-`{-~]/;
const WORD_BEFORE = /[\p{L}\p{N}]/u;

/** An address the page may link to: http(s) only (no javascript:, data:, relative or protocol-less addresses). */
export function safeHref(url: string): string | null {
  const trimmed = url.trim();
  if (!/^https?:\/\/[^\s]+$/i.test(trimmed)) return null;
  try {
    const parsed = new URL(trimmed);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

function link(href: string, children: ComponentChildren, key: number): ComponentChildren {
  return h('a', { key, href, rel: 'noopener noreferrer', target: '_blank' }, children);
}

/** Inline Markdown as Preact children: text (escaped by Preact), code, strong, emphasis, strike-through, links. */
export function renderInline(text: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let plain = '';
  const flush = () => {
    if (plain !== '') out.push(plain);
    plain = '';
  };
  let i = 0;
  // Backtick run lengths with no run of that length after some point: none after any later point either.
  const unclosed = new Set<number>();
  const at = (re: RegExp) => {
    re.lastIndex = i;
    return re.exec(text);
  };
  while (i < text.length) {
    const c = text[i]!;
    const before = i > 0 ? text[i - 1]! : '';
    if (c === '\\' && i + 1 < text.length && ESCAPABLE.test(text[i + 1]!)) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (c === '`') {
      const run = /`+/y;
      run.lastIndex = i;
      const ticks = run.exec(text)![0];
      const close = unclosed.has(ticks.length) ? -1 : text.indexOf(ticks, i + ticks.length);
      // A run of the same length closes the span (a longer or shorter run does not).
      let end = close;
      while (end !== -1 && (text[end + ticks.length] === '`' || text[end - 1] === '`'))
        end = text.indexOf(ticks, end + 1);
      if (end !== -1) {
        let code = text.slice(i + ticks.length, end).replace(/\n/g, ' ');
        if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '')
          code = code.slice(1, -1);
        flush();
        out.push(h('code', { key: out.length }, code));
        i = end + ticks.length;
        continue;
      }
      unclosed.add(ticks.length);
      plain += ticks;
      i += ticks.length;
      continue;
    }
    if (c === '[' || (c === '!' && text[i + 1] === '[')) {
      const m = at(LINK);
      if (m) {
        const href = safeHref(m[3]!);
        const label = m[1] === '!' ? m[2] || 'image' : m[2]!;
        flush();
        // An image is shown as a link to it (with its alt text): the page never loads what a model points to.
        if (href) out.push(link(href, m[1] === '!' ? `${label} (image)` : renderInline(label), out.length));
        else out.push(...renderInline(label));
        i += m[0].length;
        continue;
      }
    }
    if (c === '<') {
      const m = at(AUTOLINK);
      const href = m ? safeHref(m[1]!) : null;
      if (m && href) {
        flush();
        out.push(link(href, m[1], out.length));
        i += m[0].length;
        continue;
      }
    }
    if ((c === 'h' || c === 'H') && !WORD_BEFORE.test(before)) {
      const m = at(BARE_URL);
      const href = m ? safeHref(m[0]) : null;
      if (m && href) {
        flush();
        out.push(link(href, m[0], out.length));
        i += m[0].length;
        continue;
      }
    }
    if ((c === '*' || c === '_' || c === '~') && !WORD_BEFORE.test(before) && before !== c) {
      const strong = c === '~' ? null : at(STRONG);
      if (strong) {
        flush();
        out.push(h('strong', { key: out.length }, renderInline(strong[2]!)));
        i += strong[0].length;
        continue;
      }
      const em = c === '*' ? at(EM_STAR) : c === '_' ? at(EM_UNDERSCORE) : null;
      if (em) {
        flush();
        out.push(h('em', { key: out.length }, renderInline(em[1]!)));
        i += em[0].length;
        continue;
      }
      const strike = c === '~' ? at(STRIKE) : null;
      if (strike) {
        flush();
        out.push(h('del', { key: out.length }, renderInline(strike[1]!)));
        i += strike[0].length;
        continue;
      }
    }
    if (c === '\n') {
      // A line break inside a paragraph: kept as a break (models write lines meant as lines).
      flush();
      out.push(h('br', { key: out.length }));
      i++;
      continue;
    }
    plain += c;
    i++;
  }
  flush();
  return out;
}

function renderBlock(block: MarkdownBlock, key: number, tight = false): ComponentChildren {
  switch (block.kind) {
    case 'heading':
      return h(`h${Math.min(6, block.level + 2)}`, { key, class: 'md-heading' }, renderInline(block.text));
    case 'paragraph':
      return tight ? renderInline(block.text) : h('p', { key }, renderInline(block.text));
    case 'code':
      return h(
        'pre',
        { key },
        h('code', block.lang ? { class: `language-${block.lang.replace(/[^\w+-]/g, '')}` } : {}, block.text),
      );
    case 'rule':
      return h('hr', { key });
    case 'quote':
      return h('blockquote', { key }, renderBlocks(block.blocks));
    case 'list': {
      const items = block.items.map((item, n) =>
        h('li', { key: n }, item.length === 1 ? renderBlock(item[0]!, 0, true) : renderBlocks(item)),
      );
      return block.ordered
        ? h('ol', block.start === 1 ? { key } : { key, start: block.start }, items)
        : h('ul', { key }, items);
    }
    case 'table': {
      const style = (c: number) => (block.align[c] ? { textAlign: block.align[c] } : undefined);
      return h(
        'div',
        { key, class: 'md-table' },
        h(
          'table',
          null,
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              block.head.map((cell, c) => h('th', { key: c, style: style(c) }, renderInline(cell))),
            ),
          ),
          h(
            'tbody',
            null,
            block.rows.map((row, r) =>
              h(
                'tr',
                { key: r },
                row.map((cell, c) => h('td', { key: c, style: style(c) }, renderInline(cell))),
              ),
            ),
          ),
        ),
      );
    }
  }
}

/** Blocks as Preact elements. Headings sit two levels down (a model's `#` under the page's own h3 sections). */
export function renderBlocks(blocks: MarkdownBlock[]): ComponentChildren[] {
  return blocks.map((b, n) => renderBlock(b, n));
}

/** A model's Markdown text as Preact elements, safely (see the top of this file). */
export function renderMarkdown(text: string): ComponentChildren[] {
  return renderBlocks(parseMarkdown(text));
}

/** A block of a model's Markdown: `<div class="markdown …">` holding the rendered text. */
export function Markdown({ text, class: className }: { text: string; class?: string }): ComponentChildren {
  return h('div', { class: className ? `markdown ${className}` : 'markdown' }, renderMarkdown(text));
}
