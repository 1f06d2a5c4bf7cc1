import { describe, expect, it, vi } from 'vitest';
import type { CliCommand } from '../cli-command.js';
import { runCli } from '../run-cli.js';
import { typedOptionValues } from '../typed-option-values.js';
import { askCliCommand } from './ask-cli-command.js';
import { biasReportCliCommand } from './bias-report-cli-command.js';
import { evalCliCommand } from './eval-cli-command.js';
import { mcpCliCommand } from './mcp-cli-command.js';
import { serveCliCommand } from './serve-cli-command.js';

// cac reads any value that looks like a number as one: `--continue 6038e167` (a session id's prefix) arrived as
// 6.038e170, `--config-version 1.10` as 1.1 and `--sessions 6038e167` matched no session. Every option that takes a
// value gets the text as typed.
describe('values that look like numbers are taken as typed', () => {
  it('replaces a number the parser made with the text typed, in either form, and leaves other values alone', () => {
    const flags = ['--continue [session]', '--config-version <v>', '--sessions <ids>', '--json'];
    expect(
      typedOptionValues(
        { continue: 6.038e170, configVersion: 1, sessions: 'a,b', json: true },
        ['ask', '--continue', '6038e167', '--config-version=1.0', '--sessions', 'a,b', '--json'],
        flags,
      ),
    ).toEqual({ continue: '6038e167', configVersion: '1.0', sessions: 'a,b', json: true });
    // A repeated option: each occurrence as typed, in order.
    expect(typedOptionValues({ sessions: [7, 'x'] }, ['--sessions', '007', '--sessions=x'], flags)).toEqual({
      sessions: ['007', 'x'],
    });
    // An occurrence the parser read with no value (the next token is a flag) keeps the list aligned: 5 as typed, the
    // second left as the parser's true, never "--json".
    expect(typedOptionValues({ sessions: [5, true] }, ['--sessions', '5', '--sessions', '--json'], flags)).toEqual({
      sessions: ['5', true],
    });
    // mri reads `--config-version= 42` as 42 (an empty value takes the next token): the empty text is not 42, so the
    // number stays; a negative value comes joined to its flag (joinNegativeValues) and is taken as typed.
    expect(typedOptionValues({ configVersion: 42 }, ['--config-version=', '42'], flags)).toEqual({ configVersion: 42 });
    expect(typedOptionValues({ configVersion: -5 }, ['--config-version=-5'], flags)).toEqual({ configVersion: '-5' });
  });

  /** The options `command` receives from the whole parser for `argv`. */
  async function parsedBy(command: CliCommand, argv: string[]): Promise<Record<string, unknown>> {
    let seen: Record<string, unknown> = {};
    const spy = vi.spyOn(command, 'parse').mockImplementation((input) => {
      seen = input.options;
      throw new Error('stop after parsing');
    });
    try {
      await runCli(argv, { version: '0.0.0', io: { stdout: () => {}, stderr: () => {} }, env: {}, cwd: '/' });
    } finally {
      spy.mockRestore();
    }
    return seen;
  }

  it('ask --continue 6038e167, bias-report --config-version 1.0 / =1.10, eval --sessions 6038e167, serve and mcp --token 0123…', async () => {
    expect((await parsedBy(askCliCommand, ['ask', '--continue', '6038e167', 'What about C?']))['continue']).toBe(
      '6038e167',
    );
    expect((await parsedBy(biasReportCliCommand, ['bias-report', '--config-version', '1.0']))['configVersion']).toBe(
      '1.0',
    );
    expect((await parsedBy(biasReportCliCommand, ['bias-report', '--config-version=1.10']))['configVersion']).toBe(
      '1.10',
    );
    expect((await parsedBy(evalCliCommand, ['eval', 'd.jsonl', '--sessions', '6038e167']))['sessions']).toBe(
      '6038e167',
    );
    expect((await parsedBy(serveCliCommand, ['serve', '--token', '0123456789']))['token']).toBe('0123456789');
    expect(
      await parsedBy(mcpCliCommand, ['mcp', '--http', '--token', '0123456789', '--host', '0x7f000001']),
    ).toMatchObject({ token: '0123456789', host: '0x7f000001' });
    expect((await parsedBy(mcpCliCommand, ['mcp', '--http', '--token=007']))['token']).toBe('007');
  });

  it('bias-report --input 5 --input --json: the second --input has no value, and --json is not taken as a path', async () => {
    const options = await parsedBy(biasReportCliCommand, ['bias-report', '--input', '5', '--input', '--json']);
    expect(options['input']).toEqual(['5', true]);
  });

  it('a number a command wants still reads as one: ask --seed 42 --max-cost 0.50', async () => {
    const options = await parsedBy(askCliCommand, ['ask', '--seed', '42', '--max-cost', '0.50', 'Q?']);
    expect(options).toMatchObject({ seed: '42', maxCost: '0.50' });
    expect(askCliCommand.parse({ args: ['Q?'], options, argv: [] })).toMatchObject({ seed: 42, maxCostUsd: 0.5 });
  });
});
