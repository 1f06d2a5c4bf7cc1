import { describe, expect, it, vi } from 'vitest';
import { runCli } from '../run-cli.js';
import { askCliCommand } from './ask-cli-command.js';
import { biasReportCliCommand } from './bias-report-cli-command.js';

// cac reads any value that looks like a number as one: `--continue 6038e167` (a session id's prefix) arrived as
// 6.038e170 and `--config-version 1.10` as 1.1. These options take the text as typed.
describe('values that look like numbers are taken as typed', () => {
  it('ask --continue with a session prefix such as 6038e167', () => {
    const argv = ['ask', '--continue', '6038e167', 'What about C?'];
    const parsed = askCliCommand.parse({ args: ['What about C?'], options: { continue: 6038e167 }, argv });
    expect(parsed).toMatchObject({ question: 'What about C?', continueFrom: '6038e167' });
  });

  it('bias-report --config-version 1.10 and --config-version=1.0', () => {
    for (const [typed, parsedByCac] of [
      ['1.10', 1.1],
      ['1.0', 1],
    ] as const) {
      for (const argv of [
        ['bias-report', '--config-version', typed],
        ['bias-report', `--config-version=${typed}`],
      ]) {
        const parsed = biasReportCliCommand.parse({ args: [], options: { configVersion: parsedByCac }, argv });
        expect(parsed).toMatchObject({ configVersion: typed });
      }
    }
  });

  it('through the whole parser: --config-version 1.0 reaches the command as "1.0"', async () => {
    let seen: unknown;
    const parse = biasReportCliCommand.parse.bind(biasReportCliCommand);
    const spy = vi.spyOn(biasReportCliCommand, 'parse').mockImplementation((input) => {
      seen = (parse(input) as { configVersion?: unknown }).configVersion;
      throw new Error('stop after parsing');
    });
    try {
      await runCli(['bias-report', '--config-version', '1.0', '--input', '/nonexistent.jsonl'], {
        version: '0.0.0',
        io: { stdout: () => {}, stderr: () => {} },
        env: {},
        cwd: '/',
      }).catch(() => undefined);
    } finally {
      spy.mockRestore();
    }
    expect(seen).toBe('1.0');
  });
});
