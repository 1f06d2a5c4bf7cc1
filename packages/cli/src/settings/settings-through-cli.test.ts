import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

// The settings as a user meets them: through the whole CLI, with the environment runCli is handed.
const SIM = 'simulated:ada,simulated:basil,simulated:cleo';

async function run(argv: string[], env: Record<string, string>) {
  const c = captureIo();
  const code = await runCli(argv, { version: '9.8.7', io: c.io, env, cwd: '/tmp' });
  return { code, out: c.out(), err: c.err() };
}

describe('ADR-015 thresholds through the CLI (issue 15 item 6)', () => {
  it('ask passes LLM_COUNCIL_*_THRESHOLD to the per-session audit', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-thresholds-'));
    const env = {
      LLM_COUNCIL_HOME: home,
      LLM_COUNCIL_LENGTH_CORRELATION_THRESHOLD: '0.9',
      LLM_COUNCIL_POSITION_VARIANCE_THRESHOLD: '2',
    };
    const r = await run(['ask', 'Which queue should we use?', '--models', SIM, '--json', '--no-persist'], env);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as { biasAudit: { thresholds: Record<string, number> } | null };
    // The two set here, and the self-vote inflation default (1 point) of ADR-015.
    expect(doc.biasAudit?.thresholds).toEqual({ lengthCorrelation: 0.9, positionVariance: 2, selfVoteInflation: 1 });
  });

  it("ask without them uses ADR-015's defaults, 0.3 and 0.5", async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-thresholds-'));
    const r = await run(['ask', 'Which queue should we use?', '--models', SIM, '--json', '--no-persist'], {
      LLM_COUNCIL_HOME: home,
    });
    expect(r.code).toBe(0);
    expect(
      (JSON.parse(r.out) as { biasAudit: { thresholds: Record<string, number> } }).biasAudit.thresholds,
    ).toMatchObject({ lengthCorrelation: 0.3, positionVariance: 0.5 });
  });

  it('an invalid threshold is one usage line naming the variable, before anything runs or is written', async () => {
    const home = join(mkdtempSync(join(tmpdir(), 'council-thresholds-')), 'home');
    const r = await run(['ask', 'Which queue should we use?', '--models', SIM], {
      LLM_COUNCIL_HOME: home,
      LLM_COUNCIL_LENGTH_CORRELATION_THRESHOLD: '30%',
    });
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      'council: LLM_COUNCIL_LENGTH_CORRELATION_THRESHOLD="30%" is not valid: use a number from 0 to 1, the |r| above which length bias is flagged (default 0.3). Fix or unset it.\n',
    );
    expect(r.out).toBe('');
    expect(existsSync(home)).toBe(false);
  });

  it('config show prints both thresholds and where they came from', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-thresholds-'));
    const text = await run(['config', 'show'], {
      LLM_COUNCIL_HOME: home,
      LLM_COUNCIL_POSITION_VARIANCE_THRESHOLD: '0.75',
    });
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/length bias above +\|r\| 0\.3 \(default\)\n/);
    expect(text.out).toMatch(/position bias above +variance 0\.75 \(LLM_COUNCIL_POSITION_VARIANCE_THRESHOLD\)\n/);
    const json = await run(['config', 'show', '--json'], {
      LLM_COUNCIL_HOME: home,
      LLM_COUNCIL_LENGTH_CORRELATION_THRESHOLD: '0.5',
    });
    expect((JSON.parse(json.out) as { biasThresholds: unknown }).biasThresholds).toEqual({
      lengthCorrelation: 0.5,
      positionVariance: 0.5,
    });
  });

  it('the position-bias flag is raised below the measured variance and not above it', async () => {
    // The test server's reviewers score the answers in the order shown 9, 7, 5, and each sees all three: the
    // per-position means are 9, 7 and 5, whose population variance is ((9-7)² + 0 + (5-7)²) / 3 = 8/3 ≈ 2.667.
    const members = ['test/alpha', 'test/beta', 'test/gamma'];
    const server = await startCouncilTestServer({ contributors: members, apiKey: 'sk-or-v1-THRESHOLD-KEY' });
    try {
      const askWith = async (threshold: string) => {
        const home = mkdtempSync(join(tmpdir(), 'council-thresholds-'));
        const env = {
          OPENROUTER_BASE_URL: server.url,
          OPENROUTER_API_KEY: 'sk-or-v1-THRESHOLD-KEY',
          LLM_COUNCIL_HOME: home,
          LLM_COUNCIL_POSITION_VARIANCE_THRESHOLD: threshold,
        };
        const r = await run(
          ['ask', 'Which queue should we use?', '--models', members.join(','), '--json', '--no-persist'],
          env,
        );
        expect(r.code).toBe(0);
        return (
          JSON.parse(r.out) as {
            biasAudit: {
              positionScoreVariance: { variance: number };
              positionBiasDetected: boolean | null;
              riskFactors: string[];
            };
          }
        ).biasAudit;
      };
      const below = await askWith('2.6');
      expect(below.positionScoreVariance.variance).toBeCloseTo(8 / 3, 12);
      expect(below.positionBiasDetected).toBe(true);
      expect(below.riskFactors).toContain('position_bias');
      const above = await askWith('2.7');
      expect(above.positionScoreVariance.variance).toBeCloseTo(8 / 3, 12);
      expect(above.positionBiasDetected).toBe(false);
      expect(above.riskFactors).not.toContain('position_bias');
    } finally {
      await server.close();
    }
  });
});

describe('--home through the CLI', () => {
  it('wins over LLM_COUNCIL_HOME, expands ~, and leaves the environment it was given unchanged', async () => {
    const env = { HOME: '/home/tester', LLM_COUNCIL_HOME: '/env/home' };
    const r = await run(['config', 'path', '--home', '~/flag-home'], env);
    expect(r.code).toBe(0);
    expect(r.out).toBe('/home/tester/flag-home\n');
    expect(env).toEqual({ HOME: '/home/tester', LLM_COUNCIL_HOME: '/env/home' });
    expect((await run(['config', 'path'], env)).out).toBe('/env/home\n');
  });
});
