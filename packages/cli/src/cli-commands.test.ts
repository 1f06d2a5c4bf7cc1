import { describe, expect, it } from 'vitest';
import { cliCommands } from './cli-commands.js';
import { runCli } from './run-cli.js';
import { captureIo } from './testing/capture-io.js';

describe('cliCommands', () => {
  it('names each command once', () => {
    const names = cliCommands.map((command) => command.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(cliCommands.map((command) => [command.name, command] as const))(
    'gives "%s" help with its own flags and examples',
    async (name, command) => {
      expect(command.examples.length).toBeGreaterThan(0);
      const c = captureIo();
      const code = await runCli([name, '--help'], { version: '9.8.7', io: c.io, env: {}, cwd: '/tmp' });
      expect(code).toBe(0);
      expect(c.out()).toContain(`$ council ${name}`);
      for (const option of command.options) expect(c.out()).toContain(option.flags);
      for (const example of command.examples) {
        expect(example.startsWith(`council ${name}`)).toBe(true);
        expect(c.out()).toContain(`\n  ${example}\n`);
      }
      expect(c.err()).toBe('');
    },
  );
});
