import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyRepository, runReleaseCheck } from './run-release-check.js';

const copies: string[] = [];
afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the repository with `edits` made: `[file, from, to]`, each `from` found exactly once. */
function brokenCopy(edits: [file: string, from: string, to: string][]): string {
  const dir = mkdtempSync(join(tmpdir(), 'council-release-broken-'));
  copies.push(dir);
  copyRepository(dir);
  for (const [file, from, to] of edits) {
    const text = readFileSync(join(dir, file), 'utf8');
    expect(text.split(from)).toHaveLength(2);
    writeFileSync(join(dir, file), text.replace(from, to));
  }
  return dir;
}

describe('pnpm release:check', () => {
  it('fails on a README example that no longer runs, or that shows output it does not print, and runs the rest', () => {
    const source = brokenCopy([
      // The example names an export the package does not have: the import fails.
      [
        'packages/providers/README.md',
        "import { resolveModel } from '@council/providers';\n\nconst model = resolveModel(",
        "import { createModel } from '@council/providers';\n\nconst model = createModel(",
      ],
      // The README shows a ranking the code does not print.
      ['packages/scoring/README.md', '// 1 claude 1 high\n// 2 gpt 0.5 high', '// 1 gpt 1 high\n// 2 claude 0.5 high'],
    ]);
    const { status, output } = runReleaseCheck(['--quick', '--source', source]);
    expect(status).toBe(1);
    expect(output).toMatch(/^FAIL README example of @council\/providers /m);
    expect(output).toContain("does not provide an export named 'createModel'");
    expect(output).toMatch(/^FAIL README example of @council\/scoring /m);
    expect(output).toContain('the README shows:');
    expect(output).toMatch(/^ok {3}README example of @council\/core /m);
    expect(output).toMatch(/^ok {3}npx council demo /m);
    expect(output).toMatch(/^release check FAILED: 2 steps failed/m);
  }, 600_000);

  it('fails on a files entry that leaves out what package.json names, before installing anything', () => {
    const source = brokenCopy([
      ['packages/bias-audit/package.json', '"files": [\n    "dist"\n  ]', '"files": [\n    "dist/*.js"\n  ]'],
    ]);
    const { status, output } = runReleaseCheck(['--quick', '--source', source]);
    expect(status).toBe(1);
    expect(output).toMatch(/^FAIL check each tarball /m);
    expect(output).toMatch(
      /@council\/bias-audit \(council-bias-audit-[\d.]+\.tgz\):\n {7}\.\/dist\/index\.d\.ts \(named by package\.json\) is not in the tarball/,
    );
    expect(output).not.toContain('npm install the tarballs');
    expect(output).toMatch(/^release check FAILED: 1 step failed/m);
  }, 600_000);

  it('fails on an app that lists a package it bundles as a dependency: its tarball would not install alone', () => {
    const source = brokenCopy([
      ['apps/cli/package.json', '"devDependencies": {\n    "@council/cli"', '"dependencies": {\n    "@council/cli"'],
    ]);
    const { status, output } = runReleaseCheck(['--quick', '--source', source]);
    expect(status).toBe(1);
    expect(output).toMatch(/^FAIL check each tarball /m);
    expect(output).toMatch(
      /@council\/cli-app \(council-cli-app-[\d.]+\.tgz\):\n {7}dependencies\.@council\/cli: the app bundles it \(dist\); list it under devDependencies/,
    );
    expect(output).toMatch(/^release check FAILED: 1 step failed/m);
  }, 600_000);
});
