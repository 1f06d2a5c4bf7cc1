import { execFileSync, spawnSync } from 'node:child_process';
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
    expect(zsh.out).toContain("history) flags=('--limit:list, search: the most recent n sessions (default 20)'");
    const fish = await run(['completion', 'fish']);
    expect(fish.code).toBe(0);
    expect(fish.out).toContain("complete -c council -n __fish_use_subcommand -a demo -d 'Offline:");
    // --models completes the configured ids and pools (issue 30 item 11), not file names.
    expect(fish.out).toContain(
      "complete -c council -n '__fish_seen_subcommand_from ask' -l models -r -a '(string replace -r \\'[^,]*$\\' \\'\\' -- (commandline -ct))(council completion models 2>/dev/null)' -d 'Comma-separated member model ids",
    );
    // A switch takes no value: no -r.
    expect(fish.out).toContain("complete -c council -n '__fish_seen_subcommand_from ask' -l json -d ");
  });

  it('completes the actions of history, store, config, telemetry and personalities (issue 30 item 11)', async () => {
    const script = (await run(['completion', 'bash'])).out;
    expect(bashComplete(script, ['council', 'history', ''])).toEqual([
      'list',
      'search',
      'show',
      'consistency',
      'mimicry',
    ]);
    expect(bashComplete(script, ['council', 'history', 'sh'])).toEqual(['show']);
    expect(bashComplete(script, ['council', 'store', 'st'])).toEqual(['stats']);
    expect(bashComplete(script, ['council', 'config', 'i'])).toEqual(['init']);
    expect(bashComplete(script, ['council', 'telemetry', 'r'])).toEqual(['retry-dead']);
    expect(bashComplete(script, ['council', 'personalities', 'e'])).toEqual(['evolve']);
    // store and personalities run alone too (stats, list), and offer every action.
    expect(bashComplete(script, ['council', 'store', ''])).toEqual(['stats', 'compact', 'export', 'clickhouse-init']);
    expect(bashComplete(script, ['council', 'personalities', ''])).toEqual(['list', 'show', 'evolve']);
    // Only the first argument is an action: after it, files as before.
    expect(bashComplete(script, ['council', 'history', 'show', 'li'])).not.toContain('list');
    const zsh = (await run(['completion', 'zsh'])).out;
    expect(zsh).toContain("actions=('list' 'search' 'show' 'consistency' 'mimicry')");
    const fish = (await run(['completion', 'fish'])).out;
    expect(fish).toContain(
      "complete -c council -n '__fish_seen_subcommand_from history; and test (count (commandline -opc)) -eq 2' -a 'list search show consistency mimicry'",
    );
  }, 60_000);

  it('completes --models and --chairman from the configured ids and pools, after a comma and across the colon of an id (issue 30 item 11)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-completion-home-'));
    writeFileSync(
      join(home, 'config.yaml'),
      'members: [openai/gpt-4o, ollama:llama3.2]\npools:\n  deep: [anthropic/claude-3.5-sonnet, google/gemini-2.5-pro]\n',
    );
    const c = captureIo();
    const env = { LLM_COUNCIL_HOME: home, LLM_COUNCIL_MODELS: 'simulated:ada,simulated:basil' };
    expect(await runCli(['completion', 'models'], { version: '1.0.0', io: c.io, env, cwd: home })).toBe(0);
    const ids = c.out().trim().split('\n');
    // The environment's members win over config.yaml's (the cascade), then the pools as @name with their models.
    expect(ids).toEqual([
      'simulated:ada',
      'simulated:basil',
      '@deep',
      'anthropic/claude-3.5-sonnet',
      'google/gemini-2.5-pro',
    ]);
    // An unreadable setting prints nothing and still exits 0: completion never writes errors into the command line.
    const bad = captureIo();
    expect(
      await runCli(['completion', 'models'], {
        version: '1.0.0',
        io: bad.io,
        env: { LLM_COUNCIL_HOME: home, LLM_COUNCIL_BIAS_CONSENT: 'lots' },
        cwd: home,
      }),
    ).toBe(0);
    expect(bad.err()).toBe('');

    // Bash as a terminal drives it: COMP_LINE as typed, COMP_WORDS split at spaces and at ":" (COMP_WORDBREAKS);
    // `council completion models` answers what runCli printed above.
    const script = (await run(['completion', 'bash'])).out;
    const complete = (line: string): string[] => {
      const file = join(mkdtempSync(join(tmpdir(), 'council-completion-')), 'council.bash');
      writeFileSync(file, script);
      const words = line
        .split(' ')
        .flatMap((word) => word.split(/(:)/))
        .filter((w, i, all) => w !== '' || i === all.length - 1);
      const program = [
        `council() { printf '%s\\n' ${ids.map((id) => `'${id}'`).join(' ')}; }`,
        'source "$1"; shift',
        `COMP_LINE=${JSON.stringify(line)}; COMP_POINT=\${#COMP_LINE}`,
        'COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _council',
        `printf '%s\\n' "\${COMPREPLY[@]}"`,
      ].join('\n');
      const cwd = mkdtempSync(join(tmpdir(), 'council-completion-cwd-'));
      return execFileSync('bash', ['-c', program, 'bash', file, ...words], { encoding: 'utf8', cwd })
        .split('\n')
        .filter((l) => l !== '');
    };
    expect(complete('council ask "q" --models @')).toEqual(['@deep']);
    expect(complete('council ask "q" --models simulated:b')).toEqual(['basil']);
    expect(complete('council ask "q" --models @deep,goo')).toEqual(['@deep,google/gemini-2.5-pro']);
    expect(complete('council ask "q" --models @deep,simulated:a')).toEqual(['ada']);
    expect(complete('council ask "q" --chairman anth')).toEqual(['anthropic/claude-3.5-sonnet']);
    // Any other flag's value is not a model.
    expect(complete('council ask "q" --strategy sim')).toEqual([]);
  }, 60_000);

  // fish answers `complete -C "<line>"` with what it would offer: the script as fish itself runs it. `npm test` installs
  // Debian's fish (scripts/ensure-debian-packages.mjs) and CI runs it, so only a local run without fish skips this.
  const fish = process.env['FISH_PATH'] ?? 'fish';
  it.skipIf(process.env['CI'] === undefined && spawnSync(fish, ['--version']).status !== 0)(
    'fish offers the actions and, after --models and --chairman, the ids `council completion models` prints (issue 30 item 11)',
    async () => {
      const script = join(mkdtempSync(join(tmpdir(), 'council-completion-')), 'council.fish');
      writeFileSync(script, (await run(['completion', 'fish'])).out);
      // A stand-in `council` on PATH for the script's `council completion models`.
      const bin = mkdtempSync(join(tmpdir(), 'council-completion-bin-'));
      writeFileSync(
        join(bin, 'council'),
        "#!/bin/sh\nprintf '%s\\n' simulated:ada simulated:basil @deep openai/gpt-4o\n",
        {
          mode: 0o755,
        },
      );
      const complete = (line: string): string[] =>
        execFileSync(fish, ['-c', `source ${script}; complete -C ${JSON.stringify(line)}`], {
          encoding: 'utf8',
          env: { PATH: `${bin}:${process.env['PATH'] ?? ''}` },
          cwd: mkdtempSync(join(tmpdir(), 'council-completion-cwd-')),
        })
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => l.split('\t')[0]!);
      expect(complete('council history ').sort()).toEqual(['consistency', 'list', 'mimicry', 'search', 'show']);
      expect(complete('council ask q --models sim')).toEqual(['simulated:ada', 'simulated:basil']);
      expect(complete('council ask q --models @deep,open')).toEqual(['@deep,openai/gpt-4o']);
      expect(complete('council ask q --chairman @')).toEqual(['@deep']);
    },
    60_000,
  );

  it('names the shells it knows when given another', async () => {
    expect(await run(['completion', 'tcsh'])).toEqual({
      code: 2,
      out: '',
      err: 'council: council completion needs a shell: bash, zsh or fish, got "tcsh". Example: source <(council completion bash).\n',
    });
  });
});
