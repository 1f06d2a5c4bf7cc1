import type { CliOption } from './cli-command.js';
import { CliError } from './cli-error.js';
import {
  parseChoiceOption,
  parseDurationOption,
  parseIntegerOption,
  parseListOption,
  parseRepeatedStringOption,
  parseStringOption,
} from './parse-option.js';

/**
 * The flags `ask` and `batch` share: who sits on the council, how it runs, and what is saved. Their options
 * (`AskCommandOptions`, `BatchCommandOptions`) take each of these as optional.
 */
export interface CouncilRunFlags {
  /** Member model ids; default `LLM_COUNCIL_MODELS` (through the configuration cascade). */
  models: string[] | undefined;
  /** Default `LLM_COUNCIL_CHAIRMAN`, else the first member. */
  chairman: string | undefined;
  strategy: string | undefined;
  goal: string | undefined;
  mode: 'consensus' | 'voting' | undefined;
  order: 'shared' | 'per-reviewer' | 'latin-square' | undefined;
  /** Default `LLM_COUNCIL_RANDOM_SEED`. */
  seed: number | undefined;
  /** Per-call deadline in every stage, in milliseconds. */
  timeoutMs: number | undefined;
  /** Retries of a model call after a retryable failure; default config.yaml's `retries` (2). */
  retries: number | undefined;
  /** False with `--no-persist`: nothing is written. */
  persist: boolean;
  /**
   * False with `--no-keep-question`: the history entry of this run keeps no question (config.yaml's
   * `history_questions: false` does so for every run; a run never keeps a question the configuration says not to).
   */
  keepQuestion: boolean;
  json: boolean;
  /** False with `--no-synthesis`: no stage 3, the session ends with the ranking. */
  synthesis: boolean;
  /** `--system`: a system prompt for every member's answer; default config.yaml's `model_options.<id>.system`. */
  system: string | undefined;
  /** `-o temperature=…`: every call's temperature, 0 to 2; default config.yaml's `model_options.<id>.temperature`. */
  temperature: number | undefined;
}

/** The first flags of `ask` and `batch`, worded alike in both helps: who sits on the council and how it concludes. */
export const councilMemberOptions: readonly CliOption[] = [
  {
    flags: '--models <ids>',
    description:
      'Comma-separated member model ids, or @name for a pool of config.yaml (pools:), e.g. @deep or @quick,x/y (default LLM_COUNCIL_MODELS)',
  },
  {
    flags: '--chairman <id>',
    description:
      'The model that synthesises, or @name for a pool whose first model chairs and the rest take over if it fails (default LLM_COUNCIL_CHAIRMAN, else the first member)',
  },
  {
    flags: '--strategy <key>',
    description: 'balanced, risk-averse, goal-seeking, novelty, or a key from your configuration',
  },
  { flags: '--goal <text>', description: 'The goal for the goal-seeking strategy' },
  { flags: '--mode <mode>', description: 'consensus or voting' },
  {
    flags: '--system <text>',
    description:
      "A system prompt for every member's answer (personalities keep their own; default config.yaml model_options.<id>.system)",
  },
  {
    flags: '-o, --option <key=value>',
    description:
      'A model option for every call, as llm writes it: temperature=0.2 (0 to 2; default config.yaml model_options.<id>.temperature)',
  },
];

/** The model options `-o` accepts. */
const MODEL_OPTIONS = ['temperature'] as const;

/** `-o key=value` (repeatable): the temperature, the one model option Council passes on; anything else is a usage error. */
export function parseModelOptions(value: unknown): { temperature: number | undefined } {
  let temperature: number | undefined;
  for (const one of parseRepeatedStringOption('option', value) ?? []) {
    const match = /^\s*([A-Za-z_]+)\s*=\s*(.*?)\s*$/.exec(one);
    if (match === null)
      throw new CliError({
        code: 'USAGE',
        message: `-o "${one}" is not key=value; write e.g. -o temperature=0.2 (accepted keys: ${MODEL_OPTIONS.join(', ')}).`,
      });
    const [, key, text] = match;
    if (key !== 'temperature')
      throw new CliError({
        code: 'USAGE',
        message: `-o ${key} is not a model option Council passes on; accepted keys: ${MODEL_OPTIONS.join(', ')}.`,
      });
    const number = Number(text);
    if (text === '' || !Number.isFinite(number) || number < 0 || number > 2)
      throw new CliError({
        code: 'USAGE',
        message: `-o temperature=${text} must be a number from 0 to 2, e.g. -o temperature=0.2.`,
      });
    temperature = number;
  }
  return { temperature };
}

/** How each model call of `ask` and `batch` runs, worded alike in both helps: its deadline and its retries. */
export const councilCallOptions: readonly CliOption[] = [
  {
    flags: '--timeout <duration>',
    description:
      'Deadline of each model call in every stage, e.g. 60s or 2m (default: 120s to answer, 120s to review, 180s to synthesise; config.yaml timeouts)',
  },
  {
    flags: '--retries <n>',
    description:
      'Retries of a model call after a temporary failure (HTTP 429, 5xx, network), 0 to 10 (default 2; config.yaml retries)',
  },
];

/** What `--concurrency` (ask) and `--endpoint-concurrency` (batch, whose `--concurrency` counts sessions) mean. */
const endpointConcurrencyHelp =
  "Calls sent at once to each model endpoint, 1 to 256; the rest wait in Council's queue and their deadline starts when sent (default: config.yaml providers.<name>.max_concurrency, else 1 for ollama, llamacpp and lmstudio, 16 for the others)";

/** `ask`'s per-endpoint limit. */
export const askConcurrencyOption: CliOption = { flags: '--concurrency <n>', description: endpointConcurrencyHelp };
/** `batch`'s per-endpoint limit (its `--concurrency` is the sessions in flight). */
export const batchEndpointConcurrencyOption: CliOption = {
  flags: '--endpoint-concurrency <n>',
  description: endpointConcurrencyHelp,
};

/** Reads the per-endpoint limit from its flag (`concurrency` or `endpoint-concurrency`). */
export function parseEndpointConcurrency(
  flag: 'concurrency' | 'endpoint-concurrency',
  value: unknown,
): number | undefined {
  return parseIntegerOption(flag, value, { min: 1, max: 256 });
}

/** The stages `ask` and `batch` run, worded alike in both helps. */
export const councilStageOptions: readonly CliOption[] = [
  {
    flags: '--no-synthesis',
    description: 'Skip the chairman: the session ends with the ranking (complete, exit 0, when ranked)',
  },
];

/** What `ask` and `batch` save, worded alike in both helps: nothing at all, or no question in the history. */
export const councilSaveOptions: readonly CliOption[] = [
  { flags: '--no-persist', description: 'Save nothing: no history, bias records or telemetry' },
  {
    flags: '--no-keep-question',
    description:
      'Keep no question in the local history for this run: the session is saved without its text (config.yaml history_questions: false does so for every run)',
  },
];

/** Validates the shared flags from cac's parsed options; a bad value is a usage error naming the flag. */
export function parseCouncilRunFlags(o: Record<string, unknown>): CouncilRunFlags {
  return {
    models: parseListOption('models', o['models']),
    chairman: parseStringOption('chairman', o['chairman']),
    strategy: parseStringOption('strategy', o['strategy']),
    goal: parseStringOption('goal', o['goal']),
    mode: parseChoiceOption('mode', o['mode'], ['consensus', 'voting'] as const),
    order: parseChoiceOption('order', o['order'], ['shared', 'per-reviewer', 'latin-square'] as const),
    seed: parseIntegerOption('seed', o['seed'], { min: 0 }),
    timeoutMs: parseDurationOption('timeout', o['timeout']),
    retries: parseIntegerOption('retries', o['retries'], { min: 0, max: 10 }),
    persist: o['persist'] !== false,
    keepQuestion: o['keepQuestion'] !== false,
    json: o['json'] === true,
    synthesis: o['synthesis'] !== false,
    system: parseStringOption('system', o['system']),
    ...parseModelOptions(o['option']),
  };
}
