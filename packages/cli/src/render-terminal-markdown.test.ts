import { describe, expect, it } from 'vitest';
import { createStyle } from './create-style.js';
import { renderTerminalMarkdown } from './render-terminal-markdown.js';
import { stripTerminalControls } from './strip-terminal-controls.js';

const on = createStyle(true);
const off = createStyle(false);
// The SGR codes, written out: bold 1/22 (createStyle's), italic 3/23, dim 2/22, cyan 36/39.
const B = (s: string) => `\u001b[1m${s}\u001b[22m`;
const I = (s: string) => `\u001b[3m${s}\u001b[23m`;
const D = (s: string) => `\u001b[2m${s}\u001b[22m`;
const C = (s: string) => `\u001b[36m${s}\u001b[39m`;
const md = (text: string) => renderTerminalMarkdown(text, on);

describe('renderTerminalMarkdown with styling on', () => {
  it('makes headings bold without their # marks, and drops strong emphasis inside them (it would end the bold early)', () => {
    expect(md('# Plan')).toBe(B('Plan'));
    expect(md('### Step 2 ###')).toBe(B('Step 2'));
    expect(md('## The **key** point')).toBe(B('The key point'));
    expect(md('## A *small* change')).toBe(B(`A ${I('small')} change`));
    // No space after the marks: a hashtag, not a heading; seven marks: not a heading either.
    expect(md('#hashtag')).toBe('#hashtag');
    expect(md('####### seven')).toBe('####### seven');
  });

  it('renders strong and plain emphasis with * and _', () => {
    expect(md('a **bold** word')).toBe(`a ${B('bold')} word`);
    expect(md('a __bold__ word')).toBe(`a ${B('bold')} word`);
    expect(md('an *em* and an _em_')).toBe(`an ${I('em')} and an ${I('em')}`);
    expect(md('*all of it*')).toBe(I('all of it'));
    expect(md('*italic with **bold** inside*')).toBe(I(`italic with ${B('bold')} inside`));
  });

  it('leaves arithmetic, snake_case, spaced and unclosed markers as written', () => {
    expect(md('2*3*4 = 24')).toBe('2*3*4 = 24');
    expect(md('a * b * c')).toBe('a * b * c');
    expect(md('call snake_case_name now')).toBe('call snake_case_name now');
    expect(md('*unclosed emphasis')).toBe('*unclosed emphasis');
    expect(md('**unclosed strong')).toBe('**unclosed strong');
    expect(md('a lone * star')).toBe('a lone * star');
    // The closer must follow a non-space: "*a *" has none, so it stays.
    expect(md('*a * b')).toBe('*a * b');
  });

  it('renders inline code in cyan, with no rule applied inside it', () => {
    expect(md('use `a*b*c` here')).toBe(`use ${C('a*b*c')} here`);
    expect(md('`**not bold**` and **bold**')).toBe(`${C('**not bold**')} and ${B('bold')}`);
    // A double-backtick span holds a backtick; one space inside each end is dropped.
    expect(md('``a ` b``')).toBe(C('a ` b'));
    expect(md('`` `x` ``')).toBe(C('`x`'));
    // An unmatched backtick is literal, and rules go on after it.
    expect(md('a ` b *c*')).toBe(`a \` b ${I('c')}`);
    // Emphasis around code.
    expect(md('**run `make`**')).toBe(B(`run ${C('make')}`));
  });

  it('drops the backslash of an escaped character and keeps the character literal', () => {
    expect(md('\\*not em\\*')).toBe('*not em*');
    expect(md('a \\`tick\\` b')).toBe('a `tick` b');
    // A backslash before a letter is not an escape.
    expect(md('C:\\dir')).toBe('C:\\dir');
  });

  it('writes links as text (url), autolinks and bare links as the URL, and renders the link text', () => {
    expect(md('see [the docs](https://example.com/a_b_c)')).toBe('see the docs (https://example.com/a_b_c)');
    expect(md('[**bold** link](https://x.io)')).toBe(`${B('bold')} link (https://x.io)`);
    expect(md('[https://x.io](https://x.io)')).toBe('https://x.io');
    expect(md('<https://x.io/a_b_>')).toBe('https://x.io/a_b_');
    expect(md('[Rust](https://en.wikipedia.org/wiki/Rust_(programming_language) "title")')).toBe(
      'Rust (https://en.wikipedia.org/wiki/Rust_(programming_language))',
    );
    expect(md('![a diagram](d.png)')).toBe('a diagram (d.png)');
    // Not a link: no parenthesis after the brackets.
    expect(md('an [array] index')).toBe('an [array] index');
  });

  it('draws bullets as • (◦ when nested), keeps numbered items and indentation, and renders the item text', () => {
    const text = [
      '- first **one**',
      '  - nested *two*',
      '    * deeper',
      '+ plus',
      '1. step `one`',
      '   2) sub-step',
    ].join('\n');
    expect(md(text)).toBe(
      [
        `• first ${B('one')}`,
        `  ◦ nested ${I('two')}`,
        '    ◦ deeper',
        '• plus',
        `1. step ${C('one')}`,
        '   2) sub-step',
      ].join('\n'),
    );
    // A dash without a space is not a bullet; a line of three stars is a rule, not a bullet or emphasis.
    expect(md('-5 degrees')).toBe('-5 degrees');
    expect(md('***')).toBe(D('***'));
    expect(md(' - - -')).toBe(D('- - -'));
  });

  it('puts block quotes behind a dimmed bar, nested quotes behind two, with their content rendered', () => {
    expect(md('> a *quote*')).toBe(`${D('│')} a ${I('quote')}`);
    expect(md('> > nested')).toBe(`${D('│')} ${D('│')} nested`);
    expect(md('> - item')).toBe(`${D('│')} • item`);
  });

  it('keeps fenced code verbatim: fences dimmed, code indented two spaces, no rules inside, blank lines blank', () => {
    const text = ['Run:', '```ts', 'const x = 2*3*4; // **not bold**', '', '# not a heading', '```', 'after *em*'].join(
      '\n',
    );
    expect(md(text)).toBe(
      [
        'Run:',
        D('```ts'),
        '  const x = 2*3*4; // **not bold**',
        '',
        '  # not a heading',
        D('```'),
        `after ${I('em')}`,
      ].join('\n'),
    );
    // A tilde fence is closed only by tildes, at least as many as opened it; an unclosed fence runs to the end.
    expect(md(['~~~~', '```', '~~~', 'x', '~~~~~', '*y*'].join('\n'))).toBe(
      [D('~~~~'), '  ```', '  ~~~', '  x', D('~~~~~'), I('y')].join('\n'),
    );
    expect(md(['```', '*open*'].join('\n'))).toBe([D('```'), '  *open*'].join('\n'));
    // A fence indented under a list item.
    expect(md(['1. Install:', '   ```sh', '   npm i', '   ```'].join('\n'))).toBe(
      ['1. Install:', D('   ```sh'), '     npm i', D('   ```')].join('\n'),
    );
    // Three backticks with a backtick later on the line are inline code, not a fence.
    expect(md('```a` b')).toBe('```a` b');
  });

  it('reads CRLF line endings as LF', () => {
    expect(md('# Title\r\n\r\n- **a**\r\n```\r\nx*y*\r\n```\r\n')).toBe(
      [B('Title'), '', `• ${B('a')}`, D('```'), '  x*y*', D('```'), ''].join('\n'),
    );
  });

  it('removes control sequences from the model text before styling it', () => {
    expect(md('**a**\u001b[2J\u001b]0;pwned\u0007 b')).toBe(`${B('a')} b`);
    // A model cannot forge the renderer's placeholders: their control characters are removed first.
    expect(md('x\u00010\u0002y')).toBe('x0y');
  });
});

describe('renderTerminalMarkdown with styling off (a pipe, a file, NO_COLOR)', () => {
  it('leaves the Markdown exactly as written', () => {
    const text = '# Title\n\n- **a** and *b* and `c`\n> quote\n[x](https://x.io)\n```\ncode\n```\n';
    expect(renderTerminalMarkdown(text, off)).toBe(text);
  });

  it('still removes control sequences and reads CRLF as LF', () => {
    expect(renderTerminalMarkdown('a\r\nb\u001b[1A\u001b]2;title\u001b\\c', off)).toBe('a\nbc');
  });
});

describe('stripTerminalControls', () => {
  it('removes whole CSI, OSC and short escapes, and 8-bit controls', () => {
    expect(stripTerminalControls('a\u001b[31mred\u001b[0m b')).toBe('ared b');
    // Cursor moves, erase, hide the cursor, a title (ended by BEL, or by ST), a hyperlink, a clipboard write.
    expect(stripTerminalControls('\u001b[3A\u001b[2K\u001b[?25lx')).toBe('x');
    expect(stripTerminalControls('\u001b]0;title\u0007y\u001b]2;t\u001b\\z')).toBe('yz');
    expect(stripTerminalControls('\u001b]8;;https://evil\u0007link\u001b]8;;\u0007')).toBe('link');
    expect(stripTerminalControls('\u001b]52;c;aGk=\u0007.')).toBe('.');
    expect(stripTerminalControls('\u001bcreset \u001b7saved \u001b(B')).toBe('reset saved ');
    // The 8-bit CSI (U+009B) and a DCS string ended by the 8-bit ST.
    expect(stripTerminalControls('\u009b2Jq\u0090data\u009cr')).toBe('qr');
  });

  it('drops other controls (a lone CR, backspace, bell, DEL) and keeps tabs, newlines and all printable text', () => {
    expect(stripTerminalControls('done\rFAKE')).toBe('doneFAKE');
    expect(stripTerminalControls('a\bb\u0007c\u007fd')).toBe('abcd');
    expect(stripTerminalControls('tab\there\nnext é 中 🙂')).toBe('tab\there\nnext é 中 🙂');
  });

  it('leaves the harmless rest of a sequence cut in two (a stream piece ending after ESC [) as text', () => {
    expect(stripTerminalControls('a\u001b[') + stripTerminalControls('2Jb')).toBe('a2Jb');
    expect(stripTerminalControls('t\u001b]0;unterminated title')).toBe('t0;unterminated title');
  });
});
