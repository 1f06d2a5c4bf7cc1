import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';

async function run(argv: string[]) {
  const c = captureIo();
  const code = await runCli(argv, { version: '1.0.0', io: c.io, env: {}, cwd: '/tmp' });
  return { code, out: c.out(), err: c.err() };
}

/** What bash's completion offers for the words typed so far (the last one being completed). */
function bashComplete(script: string, words: string[]): string[] {
  const file = join(mkdtempSync(join(tmpdir(), 'council-completion-')), 'council.bash');
  writeFileSync(file, script);
  const program = `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _council; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const out = execFileSync('bash', ['-c', program, 'bash', file, ...words], { encoding: 'utf8', cwd: tmpdir() });
  return out.split('\n').filter((line) => line !== '');
}

describe('council completion (issue 15 item 12)', () => {
  it("prints a bash script that completes commands and each command's flags", async () => {
    const r = await run(['completion', 'bash']);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(bashComplete(r.out, ['council', 'as'])).toEqual(['ask']);
    expect(bashComplete(r.out, ['council', 'bias-report', '--ses'])).toEqual(['--sessions']);
    expect(bashComplete(r.out, ['council', 'ask', '--mo']).sort()).toEqual(['--mode', '--models']);
    // Flags are the command's own: history has --limit, ask has not.
    expect(bashComplete(r.out, ['council', 'history', '--li'])).toEqual(['--limit']);
    expect(bashComplete(r.out, ['council', 'ask', '--li'])).toEqual([]);
  }, 60_000);

  it('prints zsh and fish scripts naming the commands and flags', async () => {
    const zsh = await run(['completion', 'zsh']);
    expect(zsh.code).toBe(0);
    expect(zsh.out.startsWith('#compdef council\n')).toBe(true);
    expect(zsh.out).toContain("history) flags=('--limit:list: the most recent n sessions (default 20)'");
    const fish = await run(['completion', 'fish']);
    expect(fish.code).toBe(0);
    expect(fish.out).toContain("complete -c council -n __fish_use_subcommand -a demo -d 'Offline:");
    expect(fish.out).toContain(
      "complete -c council -n '__fish_seen_subcommand_from ask' -l models -r -F -d 'Comma-separated member model ids",
    );
    // A switch takes no value: no -r.
    expect(fish.out).toContain("complete -c council -n '__fish_seen_subcommand_from ask' -l json -d ");
  });

  it('names the shells it knows when given another', async () => {
    expect(await run(['completion', 'tcsh'])).toEqual({
      code: 2,
      out: '',
      err: 'council: council completion needs a shell: bash, zsh or fish, got "tcsh". Example: source <(council completion bash).\n',
    });
  });
});
