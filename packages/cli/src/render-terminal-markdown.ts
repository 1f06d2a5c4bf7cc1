import type { Style } from './create-style.js';
import { stripTerminalControls } from './strip-terminal-controls.js';

// Placeholders, made of control characters `stripTerminalControls` has already removed from the text, so no model
// text can forge one: \u0001 n \u0002 is the n-th piece set aside (code, an escaped character, a URL), printed as
// it is; \u0003 … \u0004 is strong emphasis, \u0005 … \u0006 emphasis.
// eslint-disable-next-line no-control-regex -- the placeholders are control characters on purpose
const HELD = /\u0001(\d+)\u0002/g;
const STRONG_OPEN = '\u0003';
const STRONG_CLOSE = '\u0004';
const EM_OPEN = '\u0005';
const EM_CLOSE = '\u0006';

// Emphasis never opens after, nor closes before, a letter or digit (for `*` as for `_`, where CommonMark allows
// intraword `*`): models write `2*3*4` and `a*b` as arithmetic far more often than `foo*bar*` as emphasis. An opener
// is followed by a non-space, a closer preceded by one; nothing spans two lines.
const STRONG = /(?<![\p{L}\p{N}])(\*\*|__)(?!\s)(.+?)(?<!\s)\1(?![\p{L}\p{N}])/gu;
const EM_STAR = /(?<![\p{L}\p{N}*])\*(?![\s*])(.+?)(?<![\s*])\*(?![\p{L}\p{N}*])/gu;
const EM_UNDERSCORE = /(?<![\p{L}\p{N}_])_(?![\s_])(.+?)(?<![\s_])_(?![\p{L}\p{N}_])/gu;
// `[text](url)` or `![alt](url)`, with an optional "title"; the URL may hold balanced parentheses (Wikipedia's).
const LINK = /!?\[([^\]\n]*)\]\(\s*<?((?:[^\s()<>]|\([^\s()<>]*\))+)>?(?:\s+"[^"\n]*")?\s*\)/g;
const AUTOLINK = /<((?:https?|mailto):[^\s<>]+)>/g;
const ESCAPABLE = /[!-/:-@[-`{-~]/;

const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})(.*)$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const BULLET = /^([ \t]*)[-*+][ \t]+(.*)$/;
const NUMBERED = /^([ \t]*)(\d{1,9}[.)])[ \t]+(.*)$/;

// SGR codes of the inline styles, opened and closed separately (they nest). Italic is not among the shared styles
// (`createStyle`); the renderer only runs when those are on, so it uses the codes directly. 22 ends bold as `createStyle` does.
const BOLD_ON = '\u001b[1m';
const BOLD_OFF = '\u001b[22m';
const ITALIC_ON = '\u001b[3m';
const ITALIC_OFF = '\u001b[23m';

/**
 * A model's Markdown for a terminal. With styling on (a colour terminal): headings bold, `**strong**` bold,
 * `*em*`/`_em_` italic, `inline code` cyan, fenced code blocks kept verbatim (fences dimmed, the code indented two
 * spaces, no inline rules inside), bullets as • (◦ when nested, indentation kept), numbered items as written with
 * their text rendered, links as `text (url)`, block quotes behind a dimmed bar. With styling off (a pipe, a file,
 * NO_COLOR) the text is left exactly as written. Either way terminal control sequences are removed first
 * (`stripTerminalControls`), so a reply cannot act on the terminal.
 */
export function renderTerminalMarkdown(text: string, style: Style): string {
  const safe = stripTerminalControls(text);
  if (!style.enabled) return safe;
  const out: string[] = [];
  let fence: { char: string; length: number } | null = null;
  for (const line of safe.split('\n')) {
    if (fence !== null) {
      if (closesFence(line, fence)) {
        out.push(style.dim(line));
        fence = null;
      } else {
        out.push(line === '' ? '' : `  ${line}`);
      }
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    // A backtick fence's info string cannot hold a backtick (that line is inline code instead).
    if (open && !(open[1]![0] === '`' && open[2]!.includes('`'))) {
      fence = { char: open[1]![0]!, length: open[1]!.length };
      out.push(style.dim(line));
      continue;
    }
    out.push(renderLine(line, style));
  }
  return out.join('\n');
}

function closesFence(line: string, fence: { char: string; length: number }): boolean {
  const trimmed = line.trim();
  return trimmed.length >= fence.length && [...trimmed].every((c) => c === fence.char);
}

/** One line outside code blocks: its block construct (heading, rule, quote, list item), then its inline text. */
function renderLine(line: string, style: Style): string {
  if (RULE.test(line)) return style.dim(line.trim());
  const heading = HEADING.exec(line);
  if (heading) return style.bold(renderInline(heading[2] ?? '', style, { inBold: true }));
  const quote = QUOTE.exec(line);
  if (quote) return `${style.dim('│')} ${renderLine(quote[1]!, style)}`;
  const bullet = BULLET.exec(line);
  if (bullet) return `${bullet[1]!}${bullet[1]!.length >= 2 ? '◦' : '•'} ${renderInline(bullet[2]!, style)}`;
  const numbered = NUMBERED.exec(line);
  if (numbered) return `${numbered[1]!}${numbered[2]!} ${renderInline(numbered[3]!, style)}`;
  return renderInline(line, style);
}

/**
 * Inline Markdown: code spans and backslash escapes first (left to right, as CommonMark reads them), then links,
 * then strong and plain emphasis. Inside a bold line (a heading) strong emphasis adds nothing, and closing it would
 * end the heading's bold early, so it is dropped.
 */
function renderInline(text: string, style: Style, options: { inBold?: boolean } = {}): string {
  const held: string[] = [];
  const hold = (piece: string) => `\u0001${held.push(piece) - 1}\u0002`;
  let t = '';
  for (let i = 0; i < text.length;) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length && ESCAPABLE.test(text[i + 1]!)) {
      t += hold(text[i + 1]!);
      i += 2;
      continue;
    }
    if (c === '`') {
      let run = 1;
      while (text[i + run] === '`') run++;
      const close = findBacktickRun(text, i + run, run);
      if (close === -1) {
        // No closing run of the same length: the backticks are literal.
        t += text.slice(i, i + run);
        i += run;
        continue;
      }
      let code = text.slice(i + run, close);
      if (code.length >= 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '')
        code = code.slice(1, -1);
      t += hold(style.cyan(code));
      i = close + run;
      continue;
    }
    t += c;
    i++;
  }
  t = t
    .replace(AUTOLINK, (_, url: string) => hold(url))
    .replace(LINK, (_, label: string, url: string) =>
      label === '' || label === url ? hold(url) : `${label}${hold(` (${url})`)}`,
    )
    .replace(STRONG, (_, _marker: string, inner: string) => `${STRONG_OPEN}${inner}${STRONG_CLOSE}`)
    .replace(EM_STAR, (_, inner: string) => `${EM_OPEN}${inner}${EM_CLOSE}`)
    .replace(EM_UNDERSCORE, (_, inner: string) => `${EM_OPEN}${inner}${EM_CLOSE}`);
  const styled = t
    .replaceAll(STRONG_OPEN, options.inBold ? '' : BOLD_ON)
    .replaceAll(STRONG_CLOSE, options.inBold ? '' : BOLD_OFF)
    .replaceAll(EM_OPEN, ITALIC_ON)
    .replaceAll(EM_CLOSE, ITALIC_OFF);
  const restore = (s: string): string => s.replace(HELD, (_, n: string) => restore(held[Number(n)]!));
  return restore(styled);
}

/** Where the next run of exactly `length` backticks starts at or after `from`, or -1. */
function findBacktickRun(text: string, from: number, length: number): number {
  for (let i = from; i < text.length;) {
    if (text[i] !== '`') {
      i++;
      continue;
    }
    let run = 1;
    while (text[i + run] === '`') run++;
    if (run === length) return i;
    i += run;
  }
  return -1;
}
