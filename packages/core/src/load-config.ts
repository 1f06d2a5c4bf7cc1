import { constants } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type * as z from 'zod';
import { configFilesInHome } from './config-files.js';
import type { ConfigFiles } from './config-files.js';
import type { CouncilConfig, CouncilConfigLayer } from './council-config.js';
import { councilConfigLayerSchema } from './council-config-schema.js';
import { CouncilError } from './council-error.js';
import { defaultConfig } from './default-config.js';
import { mergeConfig } from './merge-config.js';
import { orgIdProblem } from './org-id.js';
import { parsePersonality } from './parse-personality.js';
import { describeYamlLocation, parseYamlSource } from './parse-yaml-source.js';
import type { YamlSource } from './parse-yaml-source.js';
import type { Personality } from './personality.js';

/**
 * This module is the only one in `@council/core` that touches the file system: it reads the
 * configuration cascade and the personality files, and nothing else.
 */

interface LoadConfigLayers {
  /**
   * The organization id (`--org` or `LLM_COUNCIL_ORG`). With `files`, the organization whose layer `files.orgConfig`
   * is: give both or neither.
   */
  org?: string;
  /** Where `org` came from (e.g. `LLM_COUNCIL_ORG`), so that messages point at what the user set; default "the org option". */
  orgSource?: string;
  /**
   * The environment's layer of the cascade, already parsed by the caller's settings
   * (`LLM_COUNCIL_MODELS` → `members`, `LLM_COUNCIL_CHAIRMAN` → `chairman`, `LLM_COUNCIL_BIAS_AUDIT` → `biasAudit`).
   */
  environment?: CouncilConfigLayer;
  /** Explicit options: the last layer of the cascade. */
  overrides?: CouncilConfigLayer;
}

/**
 * What `loadConfig` reads: the files, as the caller's settings resolved them (the CLI passes its `CouncilFiles`), or,
 * as a convenience for a library user who has only a home directory, the home (its files are `configFilesInHome(home, org)`).
 * This package reads no environment: paths are absolute, resolved by the caller.
 */
export type LoadConfigOptions = LoadConfigLayers &
  ({ files: ConfigFiles; home?: never } | { home: string; files?: never });

export interface LoadedConfig {
  config: CouncilConfig;
  /** The layers applied, in order: `built-in defaults`, file paths, `environment`, `explicit options`. */
  sources: string[];
  /** Every `*.yaml` (or `.yml`) in the personalities' directory, sorted by id. */
  personalities: Personality[];
  /** The files the cascade was read from (those that do not exist included). */
  files: ConfigFiles;
  org: string | undefined;
}

const camelToSnake = (key: string): string =>
  key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/(\d)ms$/, '$1_ms');
const snakeToCamel = (key: string): string => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const configKeys = Object.keys(councilConfigLayerSchema.shape);
const timeoutKeys = ['stage1Ms', 'stage2Ms', 'stage3Ms'];
const providerKeys = ['maxConcurrency'];
const modelOptionKeys = ['system', 'temperature'];
/** Top-level keys whose sub-keys are the user's own words (provider names, model ids), never renamed. */
const namedKeys = new Set(['providers', 'modelOptions']);

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function camelKeys(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [snakeToCamel(k), v]));
}

/** Where a key path of a file layer is written; the file's own keys, matched to the layer's camelCase ones. */
type Locate = (path: readonly PropertyKey[]) => ReturnType<YamlSource['locate']>;

/**
 * A model id as a `model_options` key: `provider/model` (`openai/gpt-4o`, `ollama/llama3.2:3b`) or `provider:name`
 * (`simulated:ada`), at most 100 characters. Shown in messages where a key of any other form is `…`: the user's own
 * word, which a line of a file that is not Council's (`root:x:0:0:…:/root:/bin/bash`) does not match.
 */
const MODEL_ID_KEY = /^(?=.{1,100}$)[a-z][a-z0-9-]*(\/[A-Za-z0-9_.:/-]+|:[A-Za-z0-9_.-]+)$/;

/**
 * One validation problem in words. For a file (`locate` given), keys are named as the file writes them, with their
 * line; a key that is not a plain name is shown as `…` (the file may not be Council's: nothing of it beyond key names is shown).
 */
function describeIssue(issue: z.core.$ZodIssue, style: 'snake' | 'camel', locate?: Locate): string {
  const name = (key: PropertyKey) => (style === 'snake' ? camelToSnake(String(key)) : String(key));
  // A provider's name (providers.<name>) is the user's own word, never renamed.
  const path = issue.path
    .map((key, i) => (i === 1 && namedKeys.has(String(issue.path[0])) ? String(key) : name(key)))
    .join('.');
  const located = issue.path.length === 0 ? undefined : locate?.(issue.path);
  // Under model_options and providers the second key is the user's own model id or provider name.
  const ownName = (key: string, i: number) => i === 1 && namedKeys.has(String(issue.path[0])) && MODEL_ID_KEY.test(key);
  const at =
    located !== undefined ? describeYamlLocation(located, ownName) : path === '' ? 'the top level' : `"${path}"`;
  if (issue.code === 'unrecognized_keys') {
    const accepted = (
      issue.path.length === 0
        ? configKeys
        : issue.path[0] === 'providers'
          ? providerKeys
          : issue.path[0] === 'modelOptions'
            ? modelOptionKeys
            : timeoutKeys
    )
      .map(name)
      .join(', ');
    const unknown = issue.keys.map((k) => {
      const where = locate?.([...issue.path, k]);
      if (where !== undefined) return describeYamlLocation(where, ownName);
      return `"${path === '' ? '' : `${path}.`}${name(k)}"`;
    });
    return `unknown key ${unknown.join(', ')}; accepted keys: ${accepted}`;
  }
  if (issue.code === 'invalid_key')
    return `${at} is not a valid name: it ${issue.issues[0]?.message ?? 'is not accepted'}`;
  if (issue.code === 'invalid_value')
    return `${at} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  if (issue.code === 'invalid_type') {
    const expected =
      issue.expected === 'record' || issue.expected === 'object'
        ? 'a mapping'
        : issue.expected === 'array'
          ? 'a list'
          : issue.expected === 'int'
            ? 'a whole number'
            : `a ${issue.expected}`;
    return `${at} must be ${expected}`;
  }
  // zod's own wording only (a schema's message, such as pools' "must name at least one model", is kept).
  if ((issue.code === 'too_big' || issue.code === 'too_small') && /^Too (big|small)\b/.test(issue.message))
    return `${at} ${describeBound(issue)}`;
  return `${at} ${issue.message}`;
}

/**
 * A value out of its schema's range in words (`must be at most 2`, `must not be empty`), not zod's "Too big: expected
 * number to be <=2". The value itself is not repeated: a file that is not Council's shows nothing beyond key names.
 */
function describeBound(issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall): string {
  const big = issue.code === 'too_big';
  const limit = Number(big ? issue.maximum : issue.minimum);
  const exact = issue.inclusive !== false;
  const shown = limit.toLocaleString('en-US', { maximumFractionDigits: 20 });
  switch (issue.origin) {
    case 'number':
    case 'int':
    case 'bigint':
      if (!big && limit === 0 && !exact) return 'must be a positive number';
      return `must be ${big ? (exact ? 'at most' : 'less than') : exact ? 'at least' : 'more than'} ${shown}`;
    case 'string':
      if (!big && limit === 1) return 'must not be empty';
      return `must be at ${big ? 'most' : 'least'} ${shown} character${limit === 1 ? '' : 's'} long`;
    case 'array':
    case 'set':
      if (!big && limit === 1) return 'must list at least one entry';
      return `must list at ${big ? 'most' : 'least'} ${shown} entr${limit === 1 ? 'y' : 'ies'}`;
    case 'date':
    case 'file':
    case undefined:
      break;
  }
  return issue.message;
}

/** Validates one layer; throws `INVALID_CONFIG` naming the source, each bad key (with its line, for a file) and what it accepts. */
function validateLayer(
  data: unknown,
  options: { source: string; style: 'snake' | 'camel'; locate?: Locate },
): CouncilConfigLayer {
  const result = councilConfigLayerSchema.safeParse(data);
  if (result.success) return result.data as CouncilConfigLayer;
  const problems = result.error.issues.map((issue) => describeIssue(issue, options.style, options.locate));
  throw new CouncilError({ code: 'INVALID_CONFIG', message: `${options.source}: ${problems.join('; ')}.` });
}

/** snake_case file keys → camelCase layer keys (top level, `timeouts`, and each `providers.<name>`, whose names stay); other values untouched. */
function fromFileKeys(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const camel = snakeToCamel(key);
    if (camel === 'timeouts' && isMapping(value)) out[camel] = camelKeys(value);
    else if (namedKeys.has(camel) && isMapping(value))
      out[camel] = Object.fromEntries(
        Object.entries(value).map(([name, p]) => [name, isMapping(p) ? camelKeys(p) : p]),
      );
    else out[camel] = value;
  }
  return out;
}

/**
 * A configuration or personality file's text, or undefined when it does not exist. Only a regular file is read (a
 * symbolic link to one is followed): a FIFO, which would wait for a writer forever, a device or a directory is refused
 * before a byte is read — opened with O_NONBLOCK and checked with fstat, so nothing hangs.
 */
async function readOptional(path: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CouncilError({
      code: 'INVALID_CONFIG',
      message: `${path}: cannot be read (${(error as Error).message}). Check its permissions.`,
      cause: error,
    });
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      const kind = info.isDirectory()
        ? 'a directory'
        : info.isFIFO()
          ? 'a FIFO (named pipe)'
          : info.isCharacterDevice()
            ? 'a character device'
            : info.isBlockDevice()
              ? 'a block device'
              : info.isSocket()
                ? 'a socket'
                : 'not a regular file';
      throw new CouncilError({
        code: 'INVALID_CONFIG',
        message: `${path}: it is ${kind}, not a regular file; Council reads its configuration only from regular files: remove it, or put a YAML file there.`,
      });
    }
    return await handle.readFile('utf8');
  } catch (error) {
    if (CouncilError.isInstance(error)) throw error;
    throw new CouncilError({
      code: 'INVALID_CONFIG',
      message: `${path}: cannot be read (${(error as Error).message}). Check its permissions.`,
      cause: error,
    });
  } finally {
    await handle.close();
  }
}

/**
 * A YAML file read, or `INVALID_CONFIG` naming it with the line and column and the kind of mistake: never the text
 * (the file may be a symlink to one that is not Council's).
 */
function parseYamlFile(text: string, path: string): YamlSource {
  const parsed = parseYamlSource(text);
  if (parsed.success) return parsed.value;
  const { line, column, problem } = parsed.error;
  throw new CouncilError({
    code: 'INVALID_CONFIG',
    message: `${path}${line === undefined ? '' : `:${line}`}: not valid YAML (${problem}${column === undefined ? '' : ` at line ${line}, column ${column}`}). Fix the syntax and try again.`,
  });
}

async function readLayerFile(path: string): Promise<CouncilConfigLayer | undefined> {
  const text = await readOptional(path);
  if (text === undefined) return undefined;
  const source = parseYamlFile(text, path);
  const data = source.data;
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new CouncilError({
      code: 'INVALID_CONFIG',
      message: `${path}: must be a YAML mapping of keys (${configKeys.map(camelToSnake).join(', ')}).`,
    });
  }
  // The layer's keys are camelCase; the file's are snake_case (provider names as written).
  const locate: Locate = (keyPath) =>
    source.locate(keyPath, (written, wanted) => written === wanted || snakeToCamel(written) === wanted);
  return validateLayer(fromFileKeys(data as Record<string, unknown>), { source: path, style: 'snake', locate });
}

async function loadPersonalities(dir: string): Promise<Personality[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR')
      return [];
    throw new CouncilError({
      code: 'INVALID_CONFIG',
      message: `${dir}: cannot be listed (${(error as Error).message}).`,
      cause: error,
    });
  }
  const byId = new Map<string, { personality: Personality; path: string }>();
  for (const name of names.filter((n) => /\.ya?ml$/i.test(n)).sort()) {
    const path = join(dir, name);
    const text = await readOptional(path);
    if (text === undefined) continue;
    const personality = parsePersonality(text, path);
    const existing = byId.get(personality.id);
    if (existing) {
      throw new CouncilError({
        code: 'PERSONALITY_INVALID',
        message: `${path}: id "${personality.id}" is already used by ${existing.path}; personality ids must be unique.`,
      });
    }
    byId.set(personality.id, { personality, path });
  }
  return [...byId.values()].map((v) => v.personality).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The files to read: those given, or the home's; an organization without its file, or a file without its organization, is refused. */
function filesToRead(options: LoadConfigOptions): ConfigFiles {
  if (options.files === undefined && typeof options.home !== 'string') {
    throw new CouncilError({
      code: 'INVALID_OPTION',
      message:
        'loadConfig needs `files` (the configuration files, as your settings resolved them) or `home` (a Council home directory).',
    });
  }
  const files = options.files ?? configFilesInHome(options.home, options.org);
  if (options.org === undefined && files.orgConfig !== null) {
    throw new CouncilError({
      code: 'INVALID_OPTION',
      message: `loadConfig: files.orgConfig (${files.orgConfig}) is given without its organization; pass \`org\` as well, or set files.orgConfig to null.`,
    });
  }
  if (options.org !== undefined && files.orgConfig === null) {
    throw new CouncilError({
      code: 'INVALID_OPTION',
      message: `loadConfig: organization "${options.org}" is named but files.orgConfig is null; pass its file (configFilesInHome(home, org) gives the usual one), or leave out \`org\`.`,
    });
  }
  return files;
}

/**
 * Loads the configuration cascade (design doc §6.3): built-in defaults ← `files.config` (`$LLM_COUNCIL_HOME/config.yaml`)
 * ← `files.orgConfig` (`organizations/<org>/config/system-prompts.yaml`, `LLM_COUNCIL_ORG`) ← the environment's layer
 * (`LLM_COUNCIL_MODELS`, `LLM_COUNCIL_CHAIRMAN`, `LLM_COUNCIL_BIAS_AUDIT`, parsed by the caller) ← `overrides`; plus the
 * personalities in `files.personalities` (`$LLM_COUNCIL_HOME/personalities/`). A missing `config.yaml` is fine; a named
 * organization without its file is an error. Every error is a `CouncilError` (`INVALID_CONFIG` or
 * `PERSONALITY_INVALID`) naming the file, the key and what is accepted.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<LoadedConfig> {
  const { org } = options;
  const files = filesToRead(options);
  // Where the organization came from, so a message points at what the user actually set.
  const orgSource = options.orgSource ?? 'the org option';
  const sources = ['built-in defaults'];
  const layers: CouncilConfigLayer[] = [];

  const user = await readLayerFile(files.config);
  if (user) {
    layers.push(user);
    sources.push(files.config);
  }
  if (org !== undefined && files.orgConfig !== null) {
    const problem = orgIdProblem(org);
    if (problem !== null) {
      throw new CouncilError({
        code: 'INVALID_CONFIG',
        message: `Organization id "${org}" (from ${orgSource}) is not valid: ${problem}.`,
      });
    }
    const orgPath = files.orgConfig;
    const orgLayer = await readLayerFile(orgPath);
    if (!orgLayer) {
      throw new CouncilError({
        code: 'INVALID_CONFIG',
        message: `Organization "${org}" has no configuration at ${orgPath}. Create that file, or ${options.orgSource === undefined ? 'choose another organization' : `unset ${options.orgSource}`}.`,
      });
    }
    layers.push(orgLayer);
    sources.push(orgPath);
  }
  if (options.environment !== undefined && Object.keys(options.environment).length > 0) {
    layers.push(validateLayer(options.environment, { source: 'environment', style: 'camel' }));
    sources.push('environment');
  }
  if (options.overrides) {
    layers.push(validateLayer(options.overrides, { source: 'explicit options', style: 'camel' }));
    sources.push('explicit options');
  }
  const config = mergeConfig(defaultConfig, ...layers);
  const personalities = await loadPersonalities(files.personalities);
  return { config, sources, personalities, files, org };
}

/** Validates an explicit configuration layer (camelCase) without touching files; throws `INVALID_CONFIG`. */
export function resolveConfig(
  overrides?: CouncilConfigLayer,
  base: Readonly<CouncilConfig> = defaultConfig,
): CouncilConfig {
  return overrides === undefined
    ? mergeConfig(base)
    : mergeConfig(base, validateLayer(overrides, { source: 'explicit options', style: 'camel' }));
}
