import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CouncilError } from './council-error.js';
import { defaultConfig } from './default-config.js';
import { configFilesInHome } from './config-files.js';
import { omitUndefined } from './internal/omit-undefined.js';
import { loadConfig, resolveConfig } from './load-config.js';
import { resolveStrategy } from './resolve-strategy.js';

let home: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'council-config-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function write(relative: string, text: string): Promise<string> {
  const path = join(home, relative);
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text);
  return path;
}

async function expectConfigError(promise: Promise<unknown>, ...fragments: string[]): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(CouncilError.isInstance(error)).toBe(true);
  for (const fragment of fragments) expect((error as Error).message).toContain(fragment);
}

describe('loadConfig', () => {
  it('gives the built-in defaults when no file exists', async () => {
    const loaded = await loadConfig({ home });
    expect(loaded.config).toEqual(defaultConfig);
    expect(loaded.sources).toEqual(['built-in defaults']);
    expect(loaded.personalities).toEqual([]);
  });

  it('applies defaults ← config.yaml ← organization file ← environment ← explicit options, key by key', async () => {
    const userPath = await write(
      'config.yaml',
      'mode: voting\nquorum: 3\norder: shared\ntimeouts:\n  stage1_ms: 5000\nstrategies:\n  cautious_growth: Grow, but carefully.\n',
    );
    const orgPath = await write(
      'organizations/acme/config/system-prompts.yaml',
      'strategy: risk_averse\norder: per-reviewer\ntimeouts:\n  stage2_ms: 7000\n',
    );
    const loaded = await loadConfig({
      home,
      org: 'acme',
      orgSource: 'LLM_COUNCIL_ORG',
      environment: { members: ['a/x', 'b/y'], chairman: 'c/z' },
      overrides: { quorum: 4 },
    });
    expect(loaded.sources).toEqual(['built-in defaults', userPath, orgPath, 'environment', 'explicit options']);
    expect(loaded.config.mode).toBe('voting'); // from config.yaml
    expect(loaded.config.order).toBe('per-reviewer'); // org overrides user
    expect(loaded.config.strategy).toBe('risk-averse'); // normalised key
    expect(loaded.config.quorum).toBe(4); // explicit options win
    expect(loaded.config.timeouts).toEqual({
      stage1Ms: 5000,
      stage2Ms: 7000,
      stage3Ms: defaultConfig.timeouts.stage3Ms,
    });
    expect(loaded.config.strategies['cautious-growth']).toBe('Grow, but carefully.');
    expect(loaded.config.strategies.balanced).toBe(defaultConfig.strategies.balanced);
    expect(loaded.config.members).toEqual(['a/x', 'b/y']);
    expect(loaded.config.chairman).toBe('c/z');
    expect(loaded.config.consensusPrompt).toBe(defaultConfig.consensusPrompt);
  });

  it('an organization can override the consensus prompt for all its interactions', async () => {
    await write(
      'organizations/acme/config/system-prompts.yaml',
      'consensus_prompt: "ACME {query} {responses} {directive} {attribution_format}"\n',
    );
    const loaded = await loadConfig({ home, org: 'acme' });
    expect(loaded.config.consensusPrompt).toBe('ACME {query} {responses} {directive} {attribution_format}');
  });

  it('mode_toggle: on by default, a config.yaml may keep it and an organization turn it off (§8.1: only where the organization allows it)', async () => {
    expect((await loadConfig({ home })).config.modeToggle).toBe(true);
    await write('config.yaml', 'mode_toggle: true\n');
    await write('organizations/acme/config/system-prompts.yaml', 'mode: voting\nmode_toggle: false\n');
    expect((await loadConfig({ home })).config.modeToggle).toBe(true);
    const acme = await loadConfig({ home, org: 'acme' });
    expect(acme.config.modeToggle).toBe(false);
    expect(acme.config.mode).toBe('voting');
    await write('organizations/beta/config/system-prompts.yaml', 'mode_toggle: "no"\n');
    await expect(loadConfig({ home, org: 'beta' })).rejects.toThrow(/mode_toggle/);
  });

  it('history_questions: on by default (the local history keeps the question), false in config.yaml turns it off', async () => {
    expect((await loadConfig({ home })).config.historyQuestions).toBe(true);
    await write('config.yaml', 'history_questions: false\n');
    expect((await loadConfig({ home })).config.historyQuestions).toBe(false);
    await write('config.yaml', 'history_questions: "off"\n');
    await expect(loadConfig({ home })).rejects.toThrow(/history_questions/);
  });

  it('names the file, the key and the accepted values of a bad enum', async () => {
    const path = await write('config.yaml', 'order: random\n');
    await expectConfigError(loadConfig({ home }), path, '"order"', '"shared", "per-reviewer", "latin-square"');
  });

  it('names an unknown key and lists the accepted keys in the file’s snake_case', async () => {
    await write('config.yaml', 'quorm: 2\n');
    await expectConfigError(
      loadConfig({ home }),
      'unknown key "quorm"',
      'exclude_self_votes',
      'ranking_enforced_output_format',
    );
  });

  it("providers: each provider's max_concurrency, merged per provider across layers, and structured_reviews", async () => {
    expect((await loadConfig({ home })).config).toMatchObject({ providers: {}, structuredReviews: true });
    await write(
      'config.yaml',
      'structured_reviews: false\nproviders:\n  ollama:\n    max_concurrency: 1\n  my-vllm:\n    max_concurrency: 8\n',
    );
    await write('organizations/acme/config/system-prompts.yaml', 'providers:\n  ollama:\n    max_concurrency: 2\n');
    expect((await loadConfig({ home })).config).toMatchObject({
      providers: { ollama: { maxConcurrency: 1 }, 'my-vllm': { maxConcurrency: 8 } },
      structuredReviews: false,
    });
    const acme = await loadConfig({ home, org: 'acme' });
    expect(acme.config.providers).toEqual({ ollama: { maxConcurrency: 2 }, 'my-vllm': { maxConcurrency: 8 } });
  });

  it('names a bad provider setting and the keys a provider accepts', async () => {
    await write('config.yaml', 'providers:\n  ollama:\n    concurrency: 2\n');
    await expectConfigError(
      loadConfig({ home }),
      'unknown key "providers.ollama.concurrency"',
      'accepted keys: max_concurrency',
    );
    await write('config.yaml', 'providers:\n  ollama:\n    max_concurrency: 0\n');
    await expectConfigError(loadConfig({ home }), '"providers.ollama.max_concurrency"');
    await write('config.yaml', 'providers:\n  Ollama:\n    max_concurrency: 1\n');
    await expectConfigError(loadConfig({ home }), 'provider name as written in model ids');
  });

  it('names a wrong type, and a nested timeout key', async () => {
    await write('config.yaml', 'quorum: two\ntimeouts:\n  stage1_ms: -5\n');
    await expectConfigError(
      loadConfig({ home }),
      '"quorum" (line 1) must be a number',
      '"timeouts.stage1_ms" (line 3)',
    );
  });

  it('requires the placeholders a prompt cannot work without', async () => {
    await write('config.yaml', 'evaluation_prompt: "Rank these."\nranking_enforced_output_format: "Just rank."\n');
    await expectConfigError(
      loadConfig({ home }),
      '"evaluation_prompt" (line 1) must contain the placeholder {query}',
      '{responses}',
      'FINAL RANKING',
    );
  });

  it("never quotes a configuration file: a symlink to a file that is not Council's shows its line numbers, not its lines (issue 27)", async () => {
    const outside = await mkdtemp(join(tmpdir(), 'council-system-'));
    const warned = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const target = join(outside, 'passwd');
      const orgFile = join(home, 'organizations', 'acme', 'config', 'system-prompts.yaml');
      await mkdir(join(orgFile, '..'), { recursive: true });
      const cases: Array<[string, string[]]> = [
        // A plain line followed by a mapping line is one key over two lines: the line and column, the kind of mistake.
        [
          'root:x:0:0:CANARY-ROOT:/root:/bin/bash\nmembers: [a, b]\n',
          [':1: not valid YAML (a key that runs over several lines at line 1, column 1)'],
        ],
        // A list left open on line 1 is found unclosed on line 2, which holds the canary.
        ['members: [a, b\nsecret: CANARY-LINE\n', [':2: not valid YAML (', 'at line 2, column 1)']],
        // The yaml library quoted these in its message: the alias's name, the bad escape.
        ['members: *CANARY-ALIAS\n', ['not valid YAML (an alias (*name) that refers to no anchor before it']],
        [
          'chairman: "CANARY \\q"\n',
          [':1: not valid YAML (an escape sequence in a double-quoted string that is not valid at line 1, column'],
        ],
        // Values never appear; keys only as plain names, with their line.
        [
          'quorum: CANARY-VALUE\nName:\tCANARY-STATUS\n"CANARY key: with spaces": 1\n',
          ['"quorum" (line 1) must be a number', 'unknown key "Name" (line 2), "…" (line 3); accepted keys'],
        ],
      ];
      // The user's config.yaml, then the organization's file, each a symlink to the same file outside the home.
      for (const [slot, org] of [
        [join(home, 'config.yaml'), undefined],
        [orgFile, 'acme'],
      ] as const) {
        await symlink(target, slot);
        for (const [text, fragments] of cases) {
          await writeFile(target, text);
          const error = await loadConfig({ home, ...omitUndefined({ org }) }).then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(CouncilError.isInstance(error), text).toBe(true);
          const message = (error as Error).message;
          expect(message.startsWith(`${slot}`), message).toBe(true);
          for (const fragment of fragments) expect(message).toContain(fragment);
          expect(message).not.toContain('CANARY');
          expect(message).not.toContain('root:x');
        }
        // An unresolvable tag was a warning the library printed on stderr with the lines around it; now nothing is printed.
        await writeFile(target, 'chairman: !CANARY-TAG x/y\n');
        expect((await loadConfig({ home, ...omitUndefined({ org }) })).config.chairman).toBe('x/y');
        await rm(slot);
      }
      expect(warned).not.toHaveBeenCalled();
    } finally {
      warned.mockRestore();
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('reports a YAML syntax error with its file and line', async () => {
    const path = await write('config.yaml', 'mode: voting\norder: [shared\n');
    await expectConfigError(loadConfig({ home }), `${path}:`, 'not valid YAML');
  });

  it('fails clearly when the named organization has no file, or an unsafe id', async () => {
    await expectConfigError(
      loadConfig({ home, org: 'ghost', orgSource: 'LLM_COUNCIL_ORG' }),
      'Organization "ghost"',
      'system-prompts.yaml',
    );
    await expectConfigError(
      loadConfig({ home, org: '../etc' }),
      'Organization id "../etc" (from the org option) is not valid',
    );
    await expectConfigError(
      loadConfig({ home, org: '../etc', orgSource: 'LLM_COUNCIL_ORG' }),
      'Organization id "../etc" (from LLM_COUNCIL_ORG) is not valid',
    );
    // A missing organization is blamed on what named it: the option, or the variable.
    await expectConfigError(loadConfig({ home, org: 'nobody' }), 'Create that file, or choose another organization.');
    await expectConfigError(
      loadConfig({ home, org: 'nobody', orgSource: 'LLM_COUNCIL_ORG' }),
      'Create that file, or unset LLM_COUNCIL_ORG.',
    );
  });

  it("validates the environment layer and applies it (parsing LLM_COUNCIL_BIAS_AUDIT is the CLI settings' job)", async () => {
    await expectConfigError(
      loadConfig({ home, environment: { biasAudit: 'maybe' as never } }),
      'environment',
      '"biasAudit" must be a boolean',
    );
    expect((await loadConfig({ home, environment: { biasAudit: true } })).config.biasAudit).toBe(true);
  });

  it('validates explicit options in camelCase', async () => {
    await expectConfigError(
      loadConfig({ home, overrides: { mode: 'debate' as never } }),
      'explicit options',
      '"mode" must be one of "consensus", "voting"',
    );
    expect(() => resolveConfig({ selfReview: 'skip' as never })).toThrow(
      /"selfReview" must be one of "include", "omit"/,
    );
  });

  it('loads personalities, sorted by id, and rejects duplicates naming both files', async () => {
    await write(
      'personalities/b.yaml',
      'id: skeptic\nname: The Skeptic\nmodel: openai/gpt-4o\nsystem_prompt: You doubt everything.\ntraits: [careful]\n',
    );
    await write(
      'personalities/a.yml',
      'id: builder\nname: The Builder\nmodel: anthropic/claude\nsystem_prompt: You build.\n',
    );
    await write('personalities/notes.txt', 'ignored');
    const loaded = await loadConfig({ home });
    expect(loaded.personalities).toEqual([
      { id: 'builder', name: 'The Builder', model: 'anthropic/claude', systemPrompt: 'You build.' },
      {
        id: 'skeptic',
        name: 'The Skeptic',
        model: 'openai/gpt-4o',
        systemPrompt: 'You doubt everything.',
        traits: ['careful'],
      },
    ]);
    await write('personalities/c.yaml', 'id: skeptic\nname: Again\nmodel: m\nsystem_prompt: p\n');
    await expectConfigError(loadConfig({ home }), 'c.yaml', 'b.yaml', '"skeptic"');
  });
});

// Issue 28 item 4: loadConfig reads the files its caller resolved; the home's layout is configFilesInHome's alone.
describe('loadConfig given the resolved files', () => {
  it('reads the files where they are, not where a home would put them, and returns them', async () => {
    const userPath = await write('elsewhere/mine.yaml', 'mode: voting\n');
    const orgPath = await write('elsewhere/acme-prompts.yaml', 'order: per-reviewer\n');
    await write(
      'elsewhere/people/sage.yaml',
      'id: sage\nname: The Sage\nmodel: openai/gpt-4o\nsystem_prompt: You weigh.\n',
    );
    // A home layout beside them that must not be read.
    await write('config.yaml', 'mode: consensus\nquorum: 9\n');
    await write('personalities/other.yaml', 'id: other\nname: Other\nmodel: m\nsystem_prompt: p\n');
    const files = { config: userPath, personalities: join(home, 'elsewhere', 'people'), orgConfig: orgPath };
    const loaded = await loadConfig({ files, org: 'acme' });
    expect(loaded.sources).toEqual(['built-in defaults', userPath, orgPath]);
    expect(loaded.config.mode).toBe('voting');
    expect(loaded.config.order).toBe('per-reviewer');
    expect(loaded.config.quorum).toBe(defaultConfig.quorum);
    expect(loaded.personalities.map((p) => p.id)).toEqual(['sage']);
    expect(loaded.files).toEqual(files);
    expect(loaded.org).toBe('acme');
  });

  it("the home convenience reads exactly the files configFilesInHome names (DESIGN.md's layout)", async () => {
    expect(configFilesInHome('/h')).toEqual({
      config: '/h/config.yaml',
      personalities: '/h/personalities',
      orgConfig: null,
    });
    expect(configFilesInHome('/h', 'acme')).toEqual({
      config: '/h/config.yaml',
      personalities: '/h/personalities',
      orgConfig: '/h/organizations/acme/config/system-prompts.yaml',
    });
    const orgPath = await write('organizations/acme/config/system-prompts.yaml', 'order: shared\n');
    const fromHome = await loadConfig({ home, org: 'acme' });
    expect(fromHome.files).toEqual(configFilesInHome(home, 'acme'));
    expect(fromHome.sources).toEqual(['built-in defaults', orgPath]);
    expect(await loadConfig({ files: configFilesInHome(home, 'acme'), org: 'acme' })).toEqual(fromHome);
  });

  it('refuses an organization without its file, a file without its organization, and neither files nor home', async () => {
    const files = configFilesInHome(home);
    await expect(loadConfig({ files, org: 'acme' })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: expect.stringContaining('organization "acme" is named but files.orgConfig is null') as unknown,
    });
    await expect(loadConfig({ files: configFilesInHome(home, 'acme') })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: expect.stringContaining('is given without its organization') as unknown,
    });
    await expect(loadConfig({} as never)).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: expect.stringContaining('needs `files`') as unknown,
    });
    // An unsafe id is refused before its file is read, whoever placed the file.
    await expectConfigError(
      loadConfig({ files: { ...files, orgConfig: join(home, 'x.yaml') }, org: '../etc' }),
      'Organization id "../etc" (from the org option) is not valid',
    );
  });
});

describe('resolveStrategy', () => {
  it('reaches every built-in strategy and fills in the goal', () => {
    expect(resolveStrategy(defaultConfig, { strategy: 'balanced' })).toMatch(/middle ground/);
    expect(resolveStrategy(defaultConfig, { strategy: 'risk_averse' })).toMatch(/MUST be discarded/);
    expect(resolveStrategy(defaultConfig, { strategy: 'novelty' })).toMatch(/most novel/);
    expect(resolveStrategy(defaultConfig, { strategy: 'goal-seeking', goal: 'ship by Friday' })).toContain(
      'ship by Friday',
    );
  });

  it('errors on an unknown key, listing the accepted ones, and on a goal-seeking strategy without a goal', () => {
    expect(() => resolveStrategy(defaultConfig, { strategy: 'yolo' })).toThrow(
      /Unknown strategy "yolo". Accepted strategies: balanced, goal-seeking, novelty, risk-averse/,
    );
    expect(() => resolveStrategy(defaultConfig, { strategy: 'goal-seeking' })).toThrow(/needs a goal/);
  });
});

// Issue 27 item 3: a FIFO would make every reader wait for a writer forever; a device or a directory is no YAML file.
describe.runIf(process.platform === 'linux')('special files where a configuration file belongs', () => {
  it('a FIFO, a link to a device and a directory as config.yaml or a personality: refused at once, naming the file', async () => {
    const { spawnSync } = await import('node:child_process');
    for (const slot of ['config.yaml', join('personalities', 'sage.yaml')]) {
      const path = join(home, slot);
      await mkdir(join(path, '..'), { recursive: true });
      expect(spawnSync('mkfifo', [path]).status).toBe(0);
      // A reader that opened the FIFO would block until a writer came: the test's own timeout is then its failure.
      const settled = await loadConfig({ home }).then(
        () => 'loaded',
        (e: unknown) => e,
      );
      expect(CouncilError.isInstance(settled)).toBe(true);
      expect((settled as Error).message).toBe(
        `${path}: it is a FIFO (named pipe), not a regular file; Council reads its configuration only from regular files: remove it, or put a YAML file there.`,
      );
      await rm(path);
      await symlink('/dev/null', path);
      await expectConfigError(loadConfig({ home }), `${path}: it is a character device, not a regular file`);
      await rm(path);
      await mkdir(path);
      await expectConfigError(loadConfig({ home }), `${path}: it is a directory, not a regular file`);
      await rm(path, { recursive: true });
    }
  }, 60_000);
});
