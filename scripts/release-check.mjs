// `pnpm release:check`: the release path, run for real in a temporary copy of this repository, so the work tree is
// never touched (`changeset version` rewrites package.json files and changelogs):
//
//   1. copy the repository (no node_modules, no .git; the packages' own node_modules links are made again),
//   2. `changeset version`, as a release does, consuming the pending changesets,
//   3. `pnpm build` (turbo) in the copy, so each bundle carries its new version,
//   4. `pnpm publish -r --dry-run` (what `pnpm changeset publish` runs, short of the upload: every public package,
//      no private app), then `pnpm pack` every package and app (the tarball `pnpm publish` uploads: it rewrites
//      `workspace:^` to a real range, which `npm pack` / `npm publish` do not), and check each tarball's manifest and
//      files,
//   5. `npm install` every tarball together into an empty npm project (`npm init -y`; third-party dependencies from
//      the npm registry, `--prefer-offline`),
//   6. from that project: import every export of every package, run each README's first usage example (the block
//      under the heading named in `examples` below, taken from the README inside the installed tarball: what npm
//      shows), read the Parquet export with DuckDB (the optional native dependency), and run the bins
//      (`npx council --version`, `council demo`, `council-telemetry upload --dry-run`),
//   7. each app's tarball alone into its own empty npm project, and its bin run from there (`council --version`,
//      `council demo`, `council-telemetry upload --dry-run`): an app is one bundle of everything it runs, so a user
//      who installs only the `council` tarball gets a working `council` (its sole dependency is the optional DuckDB).
//
// `--quick` (the unit tier's version) skips step 3 (the build) and DuckDB: it packs the work tree's `dist`
// as built (`npm test` builds first), so the bundles print the version they were built with, and installs without
// optional dependencies (DuckDB's native binary: 70 MB). `--keep` leaves the temporary directory for inspection. `--source <dir>` checks
// another copy of the repository (the tests break one on purpose). Exit code 0 when every step passed, 1 otherwise.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { format } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// The TypeScript examples lose their types with this repository's esbuild (tsup's) before they run.
const esbuild = createRequire(join(root, 'package.json'))('esbuild');

/** Workspace folders whose packages are released (published, or for the private apps, packed and installed). */
const releasedFolders = ['packages', 'apps'];
const dependencyFields = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'];
/** Steps that no later step needs: one failing does not stop the rest. */
const independent = ['README example', 'npx ', 'DuckDB'];
/** Thrown by a step that later steps depend on, after it reported its failure. */
class StepFailed extends Error {}
/** Never copied: installs, caches, history and outputs (`dist` too, unless `--quick` packs the work tree's). */
const notCopied = new Set(['node_modules', '.git', '.turbo', 'coverage', 'test-artifacts', '.vitest-results.json']);

/**
 * Each package's README example: the first ```ts/```js block under `heading` (the README in the installed tarball),
 * run as an ES module from the empty project, and what its output must show. TypeScript blocks are stripped of their
 * types by esbuild. Examples run in `work` (a directory shared in this order: the store's example writes the JSONL the
 * engines' example exports) with HOME and LLM_COUNCIL_HOME in the temporary directory.
 */
const examples = [
  {
    name: '@council/scoring',
    heading: 'Three ballots in ten lines',
    // The block ends with the lines it prints, as comments.
    check: ({ stdout, block }) => expectLines(stdout, commentLinesAtEnd(block)),
  },
  {
    name: '@council/bias-audit',
    heading: 'A per-session audit',
    // The section shows `summarizeSession(result)` as JSON; the example logs that object.
    check: ({ stdout, section }) => expectLines(stdout, [format(JSON.parse(fencedBlocks(section, 'json')[0]))]),
  },
  {
    name: '@council/bias-store',
    heading: 'Example',
    edit: (code, { work }) => code.replaceAll('/tmp/council-example', work),
    check: ({ stdout, work }) => {
      expectIncludes(stdout, "queryCategory: 'coding'");
      // "The query text is nowhere on disk".
      const line = readFileSync(join(work, 'bias_metrics.jsonl'), 'utf8');
      if (line.includes('merge two sorted')) throw new Error('bias_metrics.jsonl holds the query text');
    },
  },
  {
    name: '@council/bias-engines',
    heading: "Example: Parquet through the store's reader and export",
    check: ({ work }) => {
      const days = readdirSync(join(work, 'bias-export')).filter((name) => name.startsWith('day='));
      if (days.length === 0 || !existsSync(join(work, 'bias-export', days[0], 'part-0.parquet'))) {
        throw new Error('no bias-export/day=YYYY-MM-DD/part-0.parquet was written');
      }
    },
  },
  {
    name: '@council/providers',
    heading: 'A minimal example (runs offline)',
    check: ({ stdout }) => expectIncludes(stdout, '[simulated]'),
  },
  {
    name: '@council/core',
    heading: 'A session',
    check: ({ stdout }) => {
      expectIncludes(stdout, '[simulated]');
      for (const member of ['simulated:ada', 'simulated:basil', 'simulated:cleo']) expectIncludes(stdout, member);
    },
  },
  {
    name: '@council/cli',
    heading: 'Install',
    check: ({ stdout }) => {
      const demo = JSON.parse(stdout);
      if (demo.kind !== 'council-demo') throw new Error(`expected kind "council-demo", got ${String(demo.kind)}`);
    },
  },
  {
    name: '@council/telemetry-uploader',
    heading: 'council-telemetry (apps/telemetry-uploader)',
    check: ({ stdout }) => expectIncludes(stdout, 'nothing was sent'),
  },
];

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const keep = args.includes('--keep');
const sourceAt = args.indexOf('--source');
const source = sourceAt >= 0 ? resolve(args[sourceAt + 1] ?? '.') : root;
const unknown = args.filter((arg, i) => !['--quick', '--keep', '--source'].includes(arg) && i !== sourceAt + 1);
if (unknown.length > 0 || (sourceAt >= 0 && !args[sourceAt + 1])) {
  console.error(`release-check: unknown option ${unknown.join(' ') || '--source without a directory'}`);
  console.error('Usage: node scripts/release-check.mjs [--quick] [--keep] [--source <repository>]');
  process.exit(2);
}

const started = performance.now();
const temp = mkdtempSync(join(tmpdir(), 'council-release-'));
const repo = join(temp, 'repo');
const tarballs = join(temp, 'tarballs');
const project = join(temp, 'project');
const work = join(temp, 'work');
let failures = 0;

try {
  step('copy the repository', () => copyRepository());
  const before = releasedPackages();
  step('changeset version', () => {
    run(process.execPath, [join(root, 'node_modules/@changesets/cli/bin.js'), 'version'], { cwd: repo });
    const after = releasedPackages();
    return after.map((pkg) => `${pkg.name} ${before.find((b) => b.name === pkg.name)?.version} → ${pkg.version}`);
  });
  if (!quick) {
    step('pnpm build', () => {
      run(join(repo, 'node_modules/.bin/turbo'), ['run', 'build', '--output-logs=errors-only'], {
        cwd: repo,
        env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
      });
    });
  }
  const packages = releasedPackages();
  // What `pnpm changeset publish` runs, short of uploading: the public packages, none of the private apps.
  step('pnpm publish -r --dry-run', () => {
    const output = run('pnpm', ['publish', '-r', '--dry-run', '--no-git-checks'], { cwd: repo });
    const published = packages.filter((pkg) => !pkg.manifest.private);
    const missing = published.filter((pkg) => !output.includes(`+ ${pkg.name}@${pkg.version}`));
    if (missing.length > 0) {
      throw new Error(`would not publish ${missing.map((pkg) => pkg.name).join(', ')}:\n${output}`);
    }
    return published.map((pkg) => `would publish ${pkg.name}@${pkg.version}`);
  });
  const packed = step('pnpm pack', () => {
    mkdirSync(tarballs);
    return packages.map((pkg) => {
      const output = run('pnpm', ['pack', '--pack-destination', tarballs], { cwd: pkg.dir });
      const tarball = output.trim().split('\n').at(-1);
      if (!tarball?.endsWith('.tgz') || !existsSync(tarball)) throw new Error(`${pkg.name}: no tarball in ${output}`);
      return { ...pkg, tarball };
    });
  });
  step('check each tarball', () =>
    packed.map((pkg) => {
      checkTarball(pkg, packages);
      return `${pkg.name}: real ranges; every file its package.json names is packed`;
    }),
  );
  step(`npm install the tarballs into an empty project${quick ? ' (no optional dependencies)' : ''}`, () => {
    mkdirSync(project);
    run('npm', ['init', '-y'], { cwd: project });
    const omit = quick ? ['--omit=optional'] : [];
    run(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', ...omit, ...packed.map((pkg) => pkg.tarball)],
      { cwd: project },
    );
  });
  const installed = packed.map((pkg) => ({ ...pkg, dir: join(project, 'node_modules', pkg.name) }));
  step('import every export', () => importEveryExport(installed));
  mkdirSync(work);
  const env = {
    ...process.env,
    HOME: join(temp, 'home'),
    LLM_COUNCIL_HOME: join(temp, 'council-home'),
    NO_COLOR: '1',
  };
  for (const example of examples) {
    step(`README example of ${example.name} ("${example.heading}")`, () => runExample(example, installed, env));
  }
  if (!quick) {
    // The optional native dependency (the bins' optionalDependencies, the engines' optional peer) installs and loads.
    step('DuckDB reads the Parquet export (@council/bias-engines, @duckdb/node-api)', () => {
      const script = [
        "import { duckdbBiasRead } from '@council/bias-engines';",
        "const read = await duckdbBiasRead({ inputs: ['bias-export'], window: { sessions: 1000 } });",
        'console.log(read.records);',
      ].join('\n');
      writeFileSync(join(project, 'duckdb-read.mjs'), script);
      // The store's README example wrote one record, which the engines' example exported.
      expectLines(run(process.execPath, [join(project, 'duckdb-read.mjs')], { cwd: work, env }), ['1']);
    });
  }
  step('npx council --version', () => {
    const cliApp = installed.find((pkg) => pkg.name === '@council/cli-app');
    const printed = run('npx', ['--no', '--', 'council', '--version'], { cwd: project, env }).trim();
    // A bundle built after `changeset version` (not --quick) carries the new version.
    const expected = quick
      ? /^council\/\d+\.\d+\.\d+ /
      : new RegExp(`^council/${cliApp.version.replaceAll('.', '\\.')} `);
    if (!expected.test(printed)) throw new Error(`printed "${printed}", expected ${expected}`);
    return [printed];
  });
  step('npx council demo', () => {
    const home = join(temp, 'demo-home');
    const stdout = run('npx', ['--no', '--', 'council', 'demo', '--home', home], { cwd: project, env });
    expectIncludes(stdout, 'simulated:dmitri');
    if (!existsSync(join(home, 'bias-report.html'))) throw new Error(`no bias-report.html in ${home}`);
  });
  step('npx council-telemetry upload --dry-run', () => {
    const stdout = run('npx', ['--no', '--', 'council-telemetry', 'upload', '--dry-run'], { cwd: project, env });
    expectIncludes(stdout, 'nothing was sent');
  });
  // Step 7: each app alone, as a user who downloads only its tarball installs it.
  for (const app of packed.filter(isBundledApp)) {
    const alone = join(temp, `alone-${basename(app.dir)}`);
    const bin = Object.keys(app.manifest.bin)[0];
    step(`npm install ${app.name} alone into an empty project${quick ? ' (no optional dependencies)' : ''}`, () => {
      mkdirSync(alone);
      run('npm', ['init', '-y'], { cwd: alone });
      const omit = quick ? ['--omit=optional'] : [];
      run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...omit, app.tarball], { cwd: alone });
      // What npm put beside it: with --quick nothing (the optional DuckDB left out), else DuckDB alone.
      const modules = join(alone, 'node_modules');
      const names = readdirSync(modules)
        .filter((name) => !name.startsWith('.'))
        .flatMap((name) =>
          name.startsWith('@') ? readdirSync(join(modules, name)).map((n) => `${name}/${n}`) : [name],
        );
      return [`node_modules: ${names.join(', ')}`];
    });
    step(`npx ${bin} alone`, () => {
      if (bin === 'council') {
        const home = join(temp, 'demo-home-alone');
        const stdout = run('npx', ['--no', '--', 'council', 'demo', '--home', home], { cwd: alone, env });
        expectIncludes(stdout, 'simulated:dmitri');
        if (!existsSync(join(home, 'bias-report.html'))) throw new Error(`no bias-report.html in ${home}`);
        return [`council demo: ${run('npx', ['--no', '--', 'council', '--version'], { cwd: alone, env }).trim()}`];
      }
      const stdout = run('npx', ['--no', '--', bin, 'upload', '--dry-run'], { cwd: alone, env });
      expectIncludes(stdout, 'nothing was sent');
      return [`${bin} upload --dry-run`];
    });
  }
} catch (error) {
  // A step that others depend on failed (it is reported already): the steps after it cannot run.
  if (!(error instanceof StepFailed)) throw error;
} finally {
  if (keep) console.log(`kept ${temp}`);
  else rmSync(temp, { recursive: true, force: true });
}

const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  failures === 0
    ? `release check passed in ${seconds} s${quick ? ' (quick)' : ''}`
    : `release check FAILED: ${failures} step${failures === 1 ? '' : 's'} failed (${seconds} s)`,
);
process.exit(failures === 0 ? 0 : 1);

// ---------------------------------------------------------------------------------------------------------------

/** Runs one step, printing `ok`/`FAIL`, its time and any detail lines. Steps whose result later steps use rethrow. */
function step(title, action) {
  const start = performance.now();
  const elapsed = () => `${((performance.now() - start) / 1000).toFixed(1)} s`;
  try {
    const result = action();
    console.log(`ok   ${title} (${elapsed()})`);
    if (Array.isArray(result) && result.every((line) => typeof line === 'string')) {
      for (const line of result) console.log(`       ${line}`);
    }
    return result;
  } catch (error) {
    failures += 1;
    console.log(`FAIL ${title} (${elapsed()})`);
    console.log(String(error instanceof Error ? error.message : error).replace(/^/gm, '       '));
    if (independent.some((prefix) => title.startsWith(prefix))) return undefined;
    throw new StepFailed(title);
  }
}

/** Runs a command; returns its stdout, or throws with its exit status and output. */
function run(command, commandArgs, { cwd, env = process.env }) {
  const result = spawnSync(command, commandArgs, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status === 0) return result.stdout;
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-30).join('\n');
  throw new Error(
    `\`${basename(command)} ${commandArgs.join(' ')}\` in ${cwd} exited ${result.status ?? result.signal ?? result.error?.message}:\n${output}`,
  );
}

function copyRepository() {
  cpSync(source, repo, {
    recursive: true,
    // The packages' builds are copied below (`--quick`) or built in the copy.
    filter: (path) => !notCopied.has(basename(path)) && basename(path) !== 'dist',
  });
  // The tools (changesets, turbo, tsup) are this repository's; each package's own links are made again, the
  // links to its workspace siblings relative (so they name the copies) and the others as this repository has them.
  symlinkSync(join(root, 'node_modules'), join(repo, 'node_modules'));
  for (const pkg of releasedPackages()) {
    const ownModules = join(root, relative(repo, pkg.dir), 'node_modules');
    if (!existsSync(ownModules)) continue;
    for (const entry of linksIn(ownModules)) {
      const target = join(pkg.dir, 'node_modules', relative(ownModules, entry));
      mkdirSync(dirname(target), { recursive: true });
      symlinkSync(readlinkSync(entry), target);
    }
  }
  if (quick) copyBuilds();
}

/**
 * `--quick` packs the builds as they are. A build running in the work tree meanwhile (tsup empties `dist`, writes the
 * JavaScript, and the declarations up to a minute later) would be packed half-written, so a build is copied again
 * until every file its package.json names is in the copy, for up to two minutes; then the check says what is missing.
 */
function copyBuilds() {
  const deadline = performance.now() + 120_000;
  let pending = releasedPackages();
  for (;;) {
    for (const pkg of pending) {
      const from = join(source, relative(repo, pkg.dir), 'dist');
      rmSync(join(pkg.dir, 'dist'), { recursive: true, force: true });
      if (existsSync(from)) cpSync(from, join(pkg.dir, 'dist'), { recursive: true });
    }
    pending = pending.filter((pkg) => namedFiles(pkg.manifest).some((path) => !existsSync(join(pkg.dir, path))));
    if (pending.length === 0) return;
    if (performance.now() > deadline) {
      const missing = pending.map(
        (pkg) =>
          `${pkg.name}: ${namedFiles(pkg.manifest)
            .filter((path) => !existsSync(join(pkg.dir, path)))
            .join(', ')}`,
      );
      throw new Error(
        `--quick packs the builds as they are, and these files are not built: run pnpm build\n${missing.join('\n')}`,
      );
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2000);
  }
}

/** The files a manifest names: main, types, bin and every `exports` target. */
function namedFiles(manifest) {
  const named = [
    manifest.main,
    manifest.types,
    ...Object.values(manifest.bin ?? {}),
    ...exportTargets(manifest.exports),
  ];
  return [...new Set(named.filter(Boolean).map((path) => path.replace(/^\.\//, '')))];
}

/** The symbolic links directly in a node_modules folder and in its @scope folders. */
function linksIn(modules) {
  return readdirSync(modules).flatMap((name) => {
    const path = join(modules, name);
    if (lstatSync(path).isSymbolicLink()) return [path];
    if (!name.startsWith('@')) return [];
    return readdirSync(path)
      .map((inner) => join(path, inner))
      .filter((inner) => lstatSync(inner).isSymbolicLink());
  });
}

/** The released packages of the copy, with their manifests as they are now. */
function releasedPackages() {
  return releasedFolders.flatMap((folder) =>
    readdirSync(join(repo, folder))
      .map((name) => join(repo, folder, name))
      .filter((dir) => existsSync(join(dir, 'package.json')))
      .map((dir) => {
        const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
        return { name: manifest.name, version: manifest.version, dir, manifest };
      }),
  );
}

/** The packed manifest has real ranges that the released siblings meet, and every file it names is in the tarball. */
function checkTarball(pkg, packages) {
  const files = new Set(
    run('tar', ['-tzf', pkg.tarball], { cwd: temp })
      .split('\n')
      .filter(Boolean)
      .map((path) => path.replace(/^package\//, '')),
  );
  const manifest = JSON.parse(run('tar', ['-xzOf', pkg.tarball, 'package/package.json'], { cwd: temp }));
  const problems = [];
  for (const field of dependencyFields) {
    for (const [dep, range] of Object.entries(manifest[field] ?? {})) {
      if (/^(workspace|catalog|link|file):/.test(range)) problems.push(`${field}.${dep} is "${range}"`);
      const sibling = packages.find((other) => other.name === dep);
      if (sibling && field !== 'devDependencies' && range !== `^${sibling.version}`) {
        problems.push(`${field}.${dep} is "${range}", not the released "^${sibling.version}"`);
      }
    }
  }
  // An app's bundle carries the packages it calls: listed as dependencies, npm would fetch them beside it (from the
  // registry, where the private build's versions may not be), and its tarball would not install alone.
  if (isBundledApp(pkg)) {
    for (const dep of Object.keys(manifest.dependencies ?? {})) {
      if (packages.some((other) => other.name === dep))
        problems.push(`dependencies.${dep}: the app bundles it (dist); list it under devDependencies`);
    }
  }
  if (manifest.version !== pkg.version) problems.push(`version ${manifest.version}, not ${pkg.version}`);
  for (const path of namedFiles(manifest)) {
    if (!files.has(path)) problems.push(`./${path} (named by package.json) is not in the tarball`);
  }
  for (const path of ['README.md', 'LICENSE']) if (!files.has(path)) problems.push(`${path} is not in the tarball`);
  if (problems.length > 0) throw new Error(`${pkg.name} (${basename(pkg.tarball)}):\n${problems.join('\n')}`);
}

/** A private package with a bin: an app, built by tsup into one self-contained bundle (tsup.base.config.ts). */
function isBundledApp(pkg) {
  return pkg.manifest.private === true && pkg.manifest.bin !== undefined;
}

function exportTargets(exports) {
  if (typeof exports === 'string') return [exports];
  if (exports === null || typeof exports !== 'object') return [];
  return Object.values(exports).flatMap(exportTargets);
}

/** Imports every subpath of every installed package's `exports`, as a user's code would. */
function importEveryExport(installed) {
  const specifiers = installed.flatMap((pkg) =>
    Object.keys(pkg.manifest.exports ?? {})
      .filter((subpath) => subpath !== './package.json')
      .map((subpath) => `${pkg.name}${subpath.slice(1)}`),
  );
  const script = `for (const specifier of ${JSON.stringify(specifiers)}) await import(specifier);\n`;
  writeFileSync(join(project, 'import-every-export.mjs'), script);
  run(process.execPath, ['import-every-export.mjs'], { cwd: project });
  return [`${specifiers.length} entry points: ${specifiers.join(', ')}`];
}

function runExample(example, installed, env) {
  const pkg = installed.find((candidate) => candidate.name === example.name);
  if (!pkg) throw new Error(`${example.name} is not among the packed packages`);
  const readme = readFileSync(join(pkg.dir, 'README.md'), 'utf8');
  const section = sectionUnder(readme, example.heading);
  if (section === undefined) throw new Error(`its README has no heading "${example.heading}"`);
  const block = fencedBlocks(section, 'ts', 'js')[0];
  if (block === undefined) throw new Error(`its README has no ts or js block under "${example.heading}"`);
  const edited = example.edit ? example.edit(block, { work }) : block;
  // verbatimModuleSyntax keeps every import as written (esbuild otherwise drops an unused one as a possible type), so
  // an example importing a name the package no longer exports fails as it would for a user.
  const code = esbuild.transformSync(edited, {
    loader: 'ts',
    format: 'esm',
    target: 'node20',
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
  }).code;
  const file = join(project, `example-${example.name.replace('@council/', '')}.mjs`);
  writeFileSync(file, code);
  const stdout = run(process.execPath, [file], { cwd: work, env });
  example.check({ stdout, block, section, work });
}

/** The text under a `#`…`####` heading up to the next heading of any level (fenced blocks may hold `#` lines). */
function sectionUnder(markdown, heading) {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => /^#{1,4} /.test(line) && line.replace(/^#+ /, '').trim() === heading);
  if (start < 0) return undefined;
  let fenced = false;
  const body = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('```')) fenced = !fenced;
    if (!fenced && /^#{1,4} /.test(line)) break;
    body.push(line);
  }
  return body.join('\n');
}

/** The bodies of the fenced blocks of the given languages, in order. */
function fencedBlocks(markdown, ...languages) {
  const pattern = /^```(\w*)\n([\s\S]*?)^```$/gm;
  return [...markdown.matchAll(pattern)].filter((m) => languages.includes(m[1])).map((m) => m[2]);
}

/** The `// …` lines that end a block: the output it shows. */
function commentLinesAtEnd(block) {
  const lines = block.trimEnd().split('\n');
  const output = [];
  while (lines.length > 0 && lines.at(-1).startsWith('// ')) output.unshift(lines.pop().slice(3));
  if (output.length === 0) throw new Error('the block shows no output as trailing // comments');
  return output;
}

function expectLines(stdout, expected) {
  const printed = stdout.trimEnd().split('\n');
  if (printed.join('\n') !== expected.join('\n')) {
    throw new Error(`printed:\n${printed.join('\n')}\nthe README shows:\n${expected.join('\n')}`);
  }
}

function expectIncludes(stdout, text) {
  if (!stdout.includes(text)) throw new Error(`its output lacks "${text}":\n${stdout.slice(0, 2000)}`);
}
