import { describe, expect, it } from 'vitest';
import { releasedPackageNames, runReleaseCheck } from './run-release-check.js';

// The tests' version of `pnpm release:check` (the full one builds every package again and installs DuckDB's binary: run
// it before a release, as the README's Releasing section says): the work tree's builds, after `changeset version`,
// through `pnpm publish --dry-run`, packed with `pnpm pack`, installed into an empty npm project, and run from there.
// It needs the builds: `npm test` builds first.
describe('pnpm release:check --quick', () => {
  it('packs every package and app with real ranges, installs them with npm, and runs each README example and bin', () => {
    const { status, output } = runReleaseCheck(['--quick']);
    expect(output).not.toContain('FAIL');
    expect(status).toBe(0);

    const names = releasedPackageNames();
    expect(names).toContain('@council/scoring');
    expect(output).toMatch(/^ok {3}pnpm publish -r --dry-run /m);
    expect(output).toContain('would publish @council/scoring@');
    expect(output).not.toContain('would publish @council/cli-app@');
    for (const name of names)
      expect(output).toContain(`${name}: real ranges; every file its package.json names is packed`);
    expect(output).toMatch(/^ok {3}npm install the tarballs into an empty project/m);
    expect(output).toMatch(/^ok {3}import every export/m);
    // Every package's README has its example run; the council app's README shows the bin, which runs below.
    for (const name of names.filter((n) => n !== '@council/cli-app')) {
      expect(output).toContain(`ok   README example of ${name} `);
    }
    expect(output).toMatch(/^ok {3}npx council --version .*\n {7}council\/\d+\.\d+\.\d+ /m);
    expect(output).toMatch(/^ok {3}npx council demo /m);
    expect(output).toMatch(/^ok {3}npx council-telemetry upload --dry-run /m);
    // Each app's tarball installs alone (it bundles the packages it calls; --quick leaves out the optional DuckDB) and
    // its bin runs from there.
    expect(output).toMatch(
      /^ok {3}npm install @council\/cli-app alone into an empty project .*\n {7}node_modules: @council\/cli-app\n/m,
    );
    expect(output).toMatch(/^ok {3}npx council alone .*\n {7}council demo: council\/\d+\.\d+\.\d+ /m);
    expect(output).toMatch(
      /^ok {3}npm install @council\/telemetry-uploader alone into an empty project .*\n {7}node_modules: @council\/telemetry-uploader\n/m,
    );
    expect(output).toMatch(/^ok {3}npx council-telemetry alone /m);
    expect(output).toMatch(/^release check passed in [\d.]+ s \(quick\)$/m);
  }, 600_000);
});
