import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { redactSecrets, scanSecrets } from '@council/core';
import type { EvidenceItem, SecretKind } from '@council/core';
import { CliError } from '../cli-error.js';
import type { CliIo } from '../cli-io.js';
import { isDotEnvFile, parseCouncilIgnore } from './councilignore.js';
import type { CouncilIgnore } from './councilignore.js';

/** The largest evidence file (or stdin) read: past the per-prompt cap many times over. */
export const MAX_EVIDENCE_FILE_BYTES = 8 * 1024 * 1024;

/** A file (or a diff's file section) left out of the evidence, and why. */
export interface EvidenceExclusion {
  name: string;
  reason: string;
}

/** A secret replaced under `--redact-secrets`: where and what, never the secret. */
export interface EvidenceRedaction {
  name: string;
  line: number;
  kind: SecretKind;
  description: string;
}

export interface ReadEvidenceResult {
  items: EvidenceItem[];
  excluded: EvidenceExclusion[];
  redacted: EvidenceRedaction[];
}

export interface ReadEvidenceOptions {
  /** `--evidence` values in order: files, directories, or `-` for stdin. */
  sources: readonly string[];
  cwd: string;
  io: Pick<CliIo, 'readStdin' | 'stdinIsTTY'>;
  /** `--redact-secrets`: replace secrets (and leave `.env` files out) instead of refusing. */
  redact: boolean;
  maxFileBytes?: number;
}

interface Entry {
  name: string;
  /** The path matched against `.councilignore` rules, with `/`. */
  path: string;
  bytes: Buffer | null;
  /** Set when the file was too large to read whole. */
  size?: number;
}

const SKIPPED_DIRECTORIES = new Set(['.git', 'node_modules']);

function usage(message: string): CliError {
  return new CliError({ code: 'USAGE', message });
}

function loadIgnore(dir: string): CouncilIgnore | null {
  const file = join(dir, '.councilignore');
  return existsSync(file) ? parseCouncilIgnore(readFileSync(file, 'utf8')) : null;
}

const slash = (path: string) => path.split(sep).join('/');

function displayName(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel !== '' && !rel.startsWith('..') ? slash(rel) : path;
}

function readLimited(path: string, limit: number): { bytes: Buffer | null; size: number } {
  const size = statSync(path).size;
  return size > limit ? { bytes: null, size } : { bytes: readFileSync(path), size };
}

/** Every file under `dir`, sorted, without `.git` and `node_modules`. */
function walk(dir: string): string[] {
  const files: string[] = [];
  const visit = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) visit(path);
      } else if (entry.isFile()) files.push(path);
    }
  };
  visit(dir);
  return files;
}

/** A file is text when it has no NUL byte in its first 8 KiB and is valid UTF-8. */
function decodeText(bytes: Buffer): string | null {
  if (bytes.subarray(0, 8192).includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** A git diff's sections, one per file (`diff --git a/x b/y`), after any preamble; null when the text is no git diff. */
function diffSections(text: string): Array<{ path: string | null; text: string }> | null {
  const starts = [...text.matchAll(/^diff --git a\/(\S+) b\/(\S+)$/gm)];
  if (starts.length === 0) return null;
  const sections: Array<{ path: string | null; text: string }> = [];
  if (starts[0]!.index > 0) sections.push({ path: null, text: text.slice(0, starts[0]!.index) });
  starts.forEach((m, i) => {
    const end = i + 1 < starts.length ? starts[i + 1]!.index : text.length;
    sections.push({ path: m[2]!, text: text.slice(m.index, end) });
  });
  return sections;
}

/**
 * Reads `--evidence` for a council: files, directories (walked, sorted, without `.git` and `node_modules`) and `-`
 * (stdin). Left out, each with its reason: what `.councilignore` (in the working directory, and in a directory
 * given) excludes, binary files, files past `maxFileBytes`, and in a git diff the sections of ignored files. Then
 * the secret scan: a `.env` file (or a diff's section of one) or a secret (`scanSecrets`) refuses the whole run with
 * a message naming each file and line, never the secret; with `redact`, secrets are replaced and `.env` files left out.
 */
export async function readEvidence(options: ReadEvidenceOptions): Promise<ReadEvidenceResult> {
  const { cwd } = options;
  const limit = options.maxFileBytes ?? MAX_EVIDENCE_FILE_BYTES;
  const rootIgnore = loadIgnore(cwd);
  const excluded: EvidenceExclusion[] = [];
  const entries: Array<Entry & { ignore: Array<{ rules: CouncilIgnore; path: string }> }> = [];
  for (const source of options.sources) {
    if (source === '-') {
      if (options.io.readStdin === undefined || options.io.stdinIsTTY === true)
        throw usage('--evidence - reads standard input, but nothing is piped in: pipe the evidence (git diff | …).');
      const bytes = await options.io.readStdin({ maxBytes: limit });
      entries.push(
        bytes.length > limit
          ? { name: 'stdin', path: 'stdin', bytes: null, size: bytes.length, ignore: [] }
          : { name: 'stdin', path: 'stdin', bytes, ignore: [] },
      );
      continue;
    }
    const path = resolve(cwd, source);
    if (!existsSync(path)) throw usage(`Cannot read the evidence ${source}: no such file or directory.`);
    const files = statSync(path).isDirectory() ? walk(path) : [path];
    const dirIgnore = statSync(path).isDirectory() ? loadIgnore(path) : null;
    for (const file of files) {
      const ignore = [
        ...(rootIgnore === null ? [] : [{ rules: rootIgnore, path: slash(relative(cwd, file)) }]),
        ...(dirIgnore === null ? [] : [{ rules: dirIgnore, path: slash(relative(path, file)) }]),
      ];
      const name = displayName(cwd, file);
      const ignored = ignoredBy(ignore);
      if (ignored !== null) {
        excluded.push({ name, reason: `matches .councilignore pattern ${ignored}` });
        continue;
      }
      entries.push({ name, path: slash(relative(cwd, file)), ...readLimited(file, limit), ignore });
    }
  }

  const refusals: string[] = [];
  const redacted: EvidenceRedaction[] = [];
  const items: EvidenceItem[] = [];
  const dotEnv = (name: string) => {
    if (options.redact) excluded.push({ name, reason: 'a .env file (environment secrets): left out' });
    else refusals.push(`${name}: a .env file (environment secrets)`);
  };
  for (const entry of entries) {
    if (entry.bytes === null) {
      excluded.push({ name: entry.name, reason: `larger than ${limit / 1024 / 1024} MiB (${entry.size} bytes)` });
      continue;
    }
    if (entry.name !== 'stdin' && isDotEnvFile(entry.path)) {
      dotEnv(entry.name);
      continue;
    }
    const decoded = decodeText(entry.bytes);
    if (decoded === null) {
      excluded.push({ name: entry.name, reason: 'binary file (not UTF-8 text)' });
      continue;
    }
    let text = decoded;
    const sections = diffSections(text);
    if (sections !== null) {
      const kept: string[] = [];
      for (const section of sections) {
        const inDiff = `${entry.name} (${section.path ?? 'preamble'} in the diff)`;
        const ignored = section.path === null ? null : (rootIgnore?.match(section.path) ?? null);
        if (ignored !== null) excluded.push({ name: inDiff, reason: `matches .councilignore pattern ${ignored}` });
        else if (section.path !== null && isDotEnvFile(section.path)) dotEnv(inDiff);
        else kept.push(section.text);
      }
      text = kept.join('');
    }
    if (options.redact) {
      const result = redactSecrets(text);
      for (const f of result.findings)
        redacted.push({ name: entry.name, line: f.line, kind: f.kind, description: f.description });
      text = result.text;
    } else {
      for (const f of scanSecrets(text)) refusals.push(`${entry.name}:${f.line}:${f.column}: ${f.description}`);
    }
    if (text.trim() === '') {
      excluded.push({ name: entry.name, reason: 'empty (nothing left to send)' });
      continue;
    }
    items.push({ name: entry.name, text });
  }
  if (refusals.length > 0) {
    const shown = refusals.slice(0, 20).map((r) => `  ${r}`);
    if (refusals.length > 20) shown.push(`  … and ${refusals.length - 20} more`);
    throw usage(
      `The evidence contains secrets; nothing was sent to any model:\n${shown.join('\n')}\nRemove them, list the files in .councilignore, or pass --redact-secrets to replace each secret (and leave .env files out).`,
    );
  }
  return { items, excluded, redacted };
}

function ignoredBy(ignore: ReadonlyArray<{ rules: CouncilIgnore; path: string }>): string | null {
  for (const { rules, path } of ignore) {
    const pattern = rules.match(path);
    if (pattern !== null) return pattern;
  }
  return null;
}

/** What was left out or redacted, one line each, for stderr (and the gate's summary). */
export function describeEvidenceRead(result: Pick<ReadEvidenceResult, 'excluded' | 'redacted'>): string[] {
  return [
    ...result.excluded.map((e) => `evidence excluded: ${e.name}: ${e.reason}.`),
    ...result.redacted.map((r) => `evidence redacted: ${r.name}:${r.line}: ${r.description}.`),
  ];
}

/**
 * `--evidence` as a command reads it: the sources (none given: nothing read) read and scanned by `readEvidence`, and
 * each file left out or secret redacted told on stderr, one line each. What `ask`, `gate` and `batch` do before any
 * model is called; a secret throws here, so nothing is sent.
 */
export async function readEvidenceFlags(options: {
  sources: readonly string[] | undefined;
  redact: boolean;
  cwd: string;
  io: Pick<CliIo, 'readStdin' | 'stdinIsTTY' | 'stderr'>;
}): Promise<ReadEvidenceResult> {
  const { sources, io } = options;
  if (sources === undefined || sources.length === 0) return { items: [], excluded: [], redacted: [] };
  const read = await readEvidence({ sources, cwd: options.cwd, io, redact: options.redact });
  for (const line of describeEvidenceRead(read)) io.stderr(`${line}\n`);
  return read;
}

/**
 * The secret scan for evidence given as text (by `council serve` or MCP, not read from files): a secret refuses, with
 * each item and line named, never the secret; with `redact`, each is replaced and listed.
 */
export function scanEvidenceText(
  items: ReadonlyArray<{ name: string; text: string }>,
  redact: boolean,
): { items: EvidenceItem[]; redacted: EvidenceRedaction[] } {
  const refusals: string[] = [];
  const redacted: EvidenceRedaction[] = [];
  const out: EvidenceItem[] = [];
  for (const item of items) {
    if (redact) {
      const result = redactSecrets(item.text);
      for (const f of result.findings)
        redacted.push({ name: item.name, line: f.line, kind: f.kind, description: f.description });
      out.push({ name: item.name, text: result.text });
    } else {
      for (const f of scanSecrets(item.text)) refusals.push(`${item.name}:${f.line}:${f.column}: ${f.description}`);
      out.push({ name: item.name, text: item.text });
    }
  }
  if (refusals.length > 0)
    throw usage(
      `The evidence contains secrets; nothing was sent to any model:\n${refusals.map((r) => `  ${r}`).join('\n')}\nRemove them, or ask for redaction (redact_secrets) to replace each secret.`,
    );
  return { items: out, redacted };
}
