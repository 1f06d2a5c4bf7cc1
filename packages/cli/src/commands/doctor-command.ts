import { constants, createReadStream, existsSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { access } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import {
  BiasStoreError,
  completeUnsavedSessions,
  councilPaths,
  createBiasStore,
  isAbandoned,
  listJournal,
  readBiasRecords,
} from '@council/bias-store';
import { endpointUrl, scrubSecrets, takeUrlCredentials } from '@council/providers';
import type { CommandContext } from '../command-context.js';
import { PROVIDER_VARIABLES } from '../settings/provider-variables.js';
import { safeCommandSettings } from '../command-context.js';
import type { CouncilSettings } from '../settings/council-settings.js';
import { renderTable, terminalFit } from '../render-table.js';
import { countNoun } from '../count-noun.js';
import { keysFilePath, readKeysFile } from '../settings/keys-file.js';

export type DoctorStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface DoctorCheck {
  check: string;
  status: DoctorStatus;
  detail: string;
}

export interface DoctorCommandOptions {
  json?: boolean;
  /** Skip the network probes. */
  offline?: boolean;
  /** Per-probe timeout in milliseconds. Default 3000. */
  timeoutMs?: number;
  /** `--repair`: finish saving the sessions a failed or interrupted save left in the journal. */
  repair?: boolean;
}

async function probe(url: string, timeoutMs: number): Promise<{ ok: boolean; status: number | null; detail: string }> {
  const started = Date.now();
  try {
    // Reachability only: no key is sent, so a 401 still proves the server answers.
    const response = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    await response.body?.cancel();
    return { ok: true, status: response.status, detail: `HTTP ${response.status} in ${Date.now() - started} ms` };
  } catch (error) {
    const reason =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : describeNetworkError(error);
    // A network error may quote the URL it was given (credentials, query keys): scrubbed where it enters the row.
    return { ok: false, status: null, detail: scrubSecrets(reason) };
  }
}

/** What the provider rows found: which providers can run a council, which were set up and did not answer. */
interface ProviderFindings {
  /** Providers that answered (or, with `--offline`, are set up), as the verdict names them. */
  usable: string[];
  /** Set up, but not answering (or, for a local server, asking for a key that is not set). */
  unusable: string[];
  offline: boolean;
}

/** A list in prose: `a`, `a or b`, `a, b or c`. */
function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)!}`;
}

/**
 * The verdict over the provider rows, so it never contradicts them: the providers that can run (a hosted one with a
 * key that answered, a local server whose address is set and that answered: no key needed); else what to set.
 */
function providersVerdict(found: ProviderFindings): DoctorCheck {
  const check = 'providers';
  if (found.usable.length > 0) {
    const can = found.offline
      ? `set up (not probed: --offline): ${found.usable.join(', ')}`
      : `can run a council: ${found.usable.join(', ')}`;
    return {
      check,
      status: 'ok',
      detail: found.unusable.length > 0 ? `${can}; not usable: ${found.unusable.join(', ')} (see above)` : can,
    };
  }
  if (found.unusable.length > 0) {
    return {
      check,
      status: 'warn',
      detail: `no set-up provider can run a council (${found.unusable.join(', ')}: see above); \`council demo\` runs without one`,
    };
  }
  const keys = PROVIDER_VARIABLES.filter((p) => p.keyRequired).map((p) => p.keyVariables.join('/'));
  const addresses = PROVIDER_VARIABLES.filter((p) => !p.keyRequired).map((p) => p.baseUrlVariable);
  return {
    check,
    status: 'warn',
    detail: `no provider is set up: set a hosted provider's key (${orList(keys)}) or the address of a running local server (${orList(addresses)}; no key needed). Until then only \`council demo\` (simulated) runs`,
  };
}

function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.code) return cause.code;
  if (cause?.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** The keys file `council keys set` writes: absent, read (which keys, never their values), or refused (open to others). */
function checkKeysFile(home: string): DoctorCheck {
  const check = 'keys file';
  const file = readKeysFile(home);
  if (file.status === 'absent')
    return { check, status: 'skip', detail: `none (${keysFilePath(home)}; council keys set <provider> creates it)` };
  if (file.status === 'refused') return { check, status: 'fail', detail: file.problem };
  const names = Object.keys(file.keys);
  return {
    check,
    status: 'ok',
    detail: `${keysFilePath(home)}, mode 0600: ${names.length === 0 ? 'no keys' : names.join(', ')} (values never shown; the environment wins)`,
  };
}

/** The bias store, read by the one reader of bias records: what a report would find unreadable. */
async function checkBiasStore(path: string): Promise<DoctorCheck> {
  const check = 'bias store';
  if (existsSync(path)) {
    const problem = await checkFileAccess(path, check);
    if (problem !== null) return problem;
  } else {
    let files;
    try {
      files = await createBiasStore({ path }).files();
    } catch (error) {
      return { check, status: 'fail', detail: BiasStoreError.isInstance(error) ? error.message : String(error) };
    }
    if (files.length === 0) return { check, status: 'ok', detail: 'not created yet (written after the first session)' };
  }
  let read;
  try {
    // Counting needs no columns: keep one session, so a store of millions reads in the memory of one.
    read = await readBiasRecords({ inputs: [path], window: { sessions: 1, now: new Date(8.64e15) } });
  } catch (error) {
    return { check, status: 'fail', detail: BiasStoreError.isInstance(error) ? error.message : String(error) };
  }
  const summary = `${countNoun(read.records, 'record')} in ${countNoun(read.sessions, 'session')}, ${countNoun(read.files.length, 'file')}`;
  if (read.skipped === 0) return { check, status: 'ok', detail: `${summary}, all readable` };
  const reasons = Object.entries(read.reasons)
    .filter(([, n]) => n > 0)
    .map(([reason, n]) => `${n} ${reason}`)
    .join(', ');
  const first = read.firstBadLines[0]!;
  return {
    check,
    status: 'warn',
    detail: `${read.lines} lines, ${read.skipped} unreadable (${reasons}; first at ${first.file}:${first.line}); readers skip them`,
  };
}

/** A problem with the file itself (a directory, a FIFO or a device, unreadable), or null when its lines can be read. */
async function checkFileAccess(path: string, label: string): Promise<DoctorCheck | null> {
  try {
    const info = statSync(path);
    if (info.isDirectory()) return { check: label, status: 'fail', detail: `${path} is a directory; move it away` };
    // A FIFO would hang the reader below; a device is no file of Council's.
    if (!info.isFile())
      return { check: label, status: 'fail', detail: `${path} is ${fileKindOf(info)}, not a regular file; remove it` };
    await access(path, constants.R_OK);
  } catch {
    return { check: label, status: 'fail', detail: `${path} is not readable; check its permissions` };
  }
  return null;
}

async function checkJsonl(path: string, label: string): Promise<DoctorCheck> {
  if (!existsSync(path))
    return { check: label, status: 'ok', detail: 'not created yet (written after the first session)' };
  const problem = await checkFileAccess(path, label);
  if (problem !== null) return problem;
  let lines = 0;
  let bad = 0;
  let firstBad = 0;
  const reader = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of reader) {
    lines++;
    if (line.trim() === '') continue;
    try {
      JSON.parse(line);
    } catch {
      bad++;
      if (firstBad === 0) firstBad = lines;
    }
  }
  if (bad > 0)
    return {
      check: label,
      status: 'warn',
      detail: `${lines} lines, ${bad} unreadable (first at line ${firstBad}); readers skip them`,
    };
  return { check: label, status: 'ok', detail: `${lines} lines, all readable` };
}

function fileKindOf(info: Stats): string {
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Sessions a save left unfinished (a full disk, a process killed between the files of a session): their journal files,
 * which keep them out of every reader. With `repair`, completes those whose save was given up or whose process is gone.
 */
async function checkUnsavedSessions(settings: CouncilSettings, repair: boolean): Promise<DoctorCheck> {
  const check = 'sessions saved whole';
  const journal = councilPaths(settings.home).journal;
  const ids = (list: readonly string[]) => `${list.slice(0, 3).join(', ')}${list.length > 3 ? ', …' : ''}`;
  const sessions = (n: number) => `${n} session${n === 1 ? '' : 's'}`;
  try {
    if (repair) {
      const done = await completeUnsavedSessions({ journal });
      const busy = done.busy.length > 0 ? `; ${sessions(done.busy.length)} being saved now by a running council` : '';
      if (done.failed.length > 0) {
        const first = done.failed[0]!;
        return {
          check,
          status: 'fail',
          detail: `could not finish saving ${sessions(done.failed.length)} (${ids(done.failed.map((f) => f.sessionId))}): ${first.error.message} They stay left out of the history and reports; fix that, then run council doctor --repair again${busy}`,
        };
      }
      const said: string[] = [];
      if (done.completed.length > 0)
        said.push(
          `finished saving ${sessions(done.completed.length)} (${ids(done.completed.map((c) => c.sessionId))}): now in the history and reports`,
        );
      if (done.discarded > 0)
        said.push(
          `removed ${done.discarded} journal file${done.discarded === 1 ? '' : 's'} of a save stopped before it wrote anything (nothing of ${done.discarded === 1 ? 'that session' : 'those sessions'} was on disk)`,
        );
      if (said.length === 0) said.push('nothing to repair');
      return { check, status: 'ok', detail: `${said.join('; ')}${busy}` };
    }
    const files = await listJournal(journal);
    const abandoned = files.filter((f) => isAbandoned(f.state)).map((f) => f.sessionId);
    const busy = files.length - abandoned.length;
    const busyText = busy > 0 ? `${sessions(busy)} being saved now by a running council` : '';
    if (abandoned.length === 0)
      return { check, status: 'ok', detail: busyText === '' ? 'every session is saved whole' : busyText };
    return {
      check,
      status: 'warn',
      detail: `${sessions(abandoned.length)} not saved whole (${ids(abandoned)}: a save failed or was interrupted), left out of the history and reports; run council doctor --repair to finish saving ${abandoned.length === 1 ? 'it' : 'them'} (journal: ${journal})${busyText === '' ? '' : `; ${busyText}`}`,
    };
  } catch (error) {
    return { check, status: 'fail', detail: BiasStoreError.isInstance(error) ? error.message : String(error) };
  }
}

async function checkHome(settings: CouncilSettings): Promise<DoctorCheck> {
  const target = existsSync(settings.home) ? settings.home : dirname(settings.home);
  try {
    await access(target, constants.W_OK);
    return {
      check: 'home directory',
      status: 'ok',
      detail: existsSync(settings.home) ? `${settings.home} is writable` : `${settings.home} will be created`,
    };
  } catch {
    return {
      check: 'home directory',
      status: 'fail',
      detail: `${target} is not writable; set LLM_COUNCIL_HOME to a writable directory`,
    };
  }
}

function checkConsent(settings: CouncilSettings): DoctorCheck {
  const check = 'consent and secret';
  if (settings.consentLevel === 4 && !settings.hashSecretSet) {
    return {
      check,
      status: 'fail',
      detail: 'consent level 4 (research) needs LLM_COUNCIL_HASH_SECRET; set it or lower LLM_COUNCIL_BIAS_CONSENT',
    };
  }
  if (settings.consentLevel < 4 && settings.hashSecretSet) {
    return {
      check,
      status: 'warn',
      detail: `LLM_COUNCIL_HASH_SECRET is set but only consent level 4 uses it (level is ${settings.consentLevel})`,
    };
  }
  if (settings.consentLevel >= 2 && !(settings.cloudUrl && settings.cloudTokenSet)) {
    return {
      check,
      status: 'warn',
      detail: `consent level ${settings.consentLevel} queues telemetry, but LLM_COUNCIL_CLOUD_URL or LLM_COUNCIL_CLOUD_TOKEN is unset, so nothing is uploaded`,
    };
  }
  return {
    check,
    status: 'ok',
    detail: `consent level ${settings.consentLevel}${settings.hashSecretSet ? ', hash secret present' : ''}`,
  };
}

/** Runs every check. Separate from the command so tests can assert on the checks themselves. */
export async function runDoctorChecks(options: DoctorCommandOptions, ctx: CommandContext): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const resolved = safeCommandSettings(ctx);
  // A doctor reports a bad value as a failed check and goes on with the defaults for it.
  const settings = resolved.success ? resolved.value : resolved.fallback;
  if (resolved.success)
    checks.push({ check: 'environment', status: 'ok', detail: 'every LLM_COUNCIL_* value is valid' });
  else checks.push({ check: 'environment', status: 'fail', detail: resolved.error.message });
  const found: ProviderFindings = { usable: [], unusable: [], offline: options.offline === true };
  for (const endpoint of PROVIDER_VARIABLES) {
    const [keyVariable, ...alternatives] = endpoint.keyVariables;
    const hasKey = settings.apiKeys[keyVariable];
    const alternative = alternatives.find((name) => settings.apiKeys[name]);
    const keySet = hasKey || alternative !== undefined;
    const baseUrl = (settings.baseUrls[endpoint.baseUrlVariable] ?? '').replace(/\/+$/, '');
    // A hosted provider is probed when it has a key; a local server (whose key is optional) when its address is set.
    const configured = endpoint.keyRequired ? keySet : baseUrl !== '';
    if (endpoint.keyRequired) {
      checks.push({
        check: keyVariable,
        status: keySet ? 'ok' : 'skip',
        detail: hasKey ? 'present' : alternative ? `absent (${alternative} present)` : 'absent',
      });
    }
    if (!configured) continue;
    // How the verdict names it: a local server by its address, since it needs no key.
    const name = endpoint.keyRequired
      ? endpoint.provider
      : `${endpoint.provider} at ${baseUrl} (${keySet ? `${keyVariable} present` : 'no key needed'})`;
    // Probed at the address as set (its query string after the path, its user-info left out: no credential is sent),
    // shown scrubbed of credentials and query keys, like every URL Council prints.
    const probeUrl = takeUrlCredentials(
      endpointUrl(settings.secrets.providerEnv[endpoint.baseUrlVariable] ?? endpoint.defaultBaseUrl, 'models'),
    ).url;
    const url = scrubSecrets(probeUrl);
    if (options.offline) {
      checks.push({ check: `${endpoint.provider} reachable`, status: 'skip', detail: '--offline' });
      found.usable.push(name);
      continue;
    }
    const result = await probe(probeUrl, options.timeoutMs ?? 3000);
    const check = `${endpoint.provider} reachable`;
    if (!result.ok) {
      checks.push({
        check,
        status: 'fail',
        // A refused connection is no network trouble: nothing listens at that address (a local server not started).
        detail:
          result.detail === 'ECONNREFUSED'
            ? `${url}: ECONNREFUSED; check ${endpoint.baseUrlVariable}: nothing is listening there${endpoint.keyRequired ? '' : ` (start the ${endpoint.provider} server)`}`
            : `${url}: ${result.detail}; check ${endpoint.baseUrlVariable} and your network`,
      });
      found.unusable.push(endpoint.provider);
    } else if (!endpoint.keyRequired && !keySet && (result.status === 401 || result.status === 403)) {
      // A local server started with a key (`vllm serve --api-key`) refuses calls without one.
      checks.push({
        check,
        status: 'warn',
        detail: `${url}: ${result.detail}: the server wants a key; set ${keyVariable}`,
      });
      found.unusable.push(endpoint.provider);
    } else {
      checks.push({ check, status: 'ok', detail: `${url}: ${result.detail}` });
      found.usable.push(name);
    }
  }
  checks.push(providersVerdict(found));
  checks.push(checkKeysFile(settings.home));
  checks.push(await checkHome(settings));
  checks.push(await checkBiasStore(settings.files.biasStore));
  checks.push(await checkJsonl(settings.files.history, 'history'));
  checks.push(await checkJsonl(settings.files.outbox, 'telemetry outbox'));
  checks.push(await checkUnsavedSessions(settings, options.repair === true));
  checks.push(checkConsent(settings));
  return checks;
}

/** `council doctor`: exit 0 when nothing failed (warnings allowed, "no provider set up" among them), 1 otherwise. */
export async function runDoctorCommand(options: DoctorCommandOptions, ctx: CommandContext): Promise<number> {
  const checks = await runDoctorChecks(options, ctx);
  const failed = checks.filter((c) => c.status === 'fail').length;
  if (options.json) {
    ctx.io.stdout(`${JSON.stringify({ ok: failed === 0, checks }, null, 2)}\n`);
  } else {
    const s = ctx.out;
    const mark = (status: DoctorStatus) =>
      status === 'ok'
        ? s.green('ok')
        : status === 'warn'
          ? s.yellow('warn')
          : status === 'fail'
            ? s.red('FAIL')
            : s.dim('-');
    ctx.io.stdout(
      renderTable({
        head: ['check', 'status', 'detail'],
        rows: checks.map((c) => [c.check, mark(c.status), c.detail]),
        style: s,
        // On a terminal the details wrap to its width (the providers row's advice is a paragraph): a row wider than
        // the window would break every line of the box.
        ...terminalFit(ctx, 2),
      }),
    );
    // The last line agrees with the rows: nothing failed is not "in place" while no provider can run a council.
    const providers = checks.find((c) => c.check === 'providers');
    const noProvider = providers !== undefined && providers.status !== 'ok';
    const warned = checks.filter((c) => c.status === 'warn').map((c) => c.check);
    ctx.io.stdout(
      failed > 0
        ? `${failed} check${failed === 1 ? '' : 's'} failed; see the detail column.\n`
        : noProvider
          ? 'Nothing failed, but no model provider can run a council yet: see "providers".\n'
          : warned.length > 0
            ? `A council can run; ${countNoun(warned.length, 'warning')} to read: ${warned.map((c) => `"${c}"`).join(', ')}.\n`
            : 'Everything needed is in place.\n',
    );
  }
  return failed === 0 ? 0 : 1;
}
