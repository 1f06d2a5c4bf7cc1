import type { LanguageModelV1 } from '@council/providers';
import { CliError } from './cli-error.js';
import type { Env } from './settings/council-settings.js';
import { PROVIDER_VARIABLES } from './settings/provider-variables.js';

/**
 * Checks the member and chairman ids before any model is called, so that a batch fails once rather than
 * on every prompt: an id no provider knows is a usage error (exit 2); a hosted provider whose key is not
 * set is one line naming the variable and the models that need it (exit 1), instead of a council that
 * starts, loses every member to the same missing key and reports a quorum failure. Key values are only
 * tested, never read out.
 */
export function checkModels(options: {
  ids: readonly string[];
  env: Env;
  resolveModel: (id: string) => LanguageModelV1;
}): void {
  const missing = new Map<string, string[]>();
  const providers = new Set<string>();
  for (const id of new Set(options.ids)) {
    let provider: string;
    try {
      provider = options.resolveModel(id).provider;
    } catch (error) {
      const reason =
        error instanceof Error
          ? error.message.split('; register a custom one')[0]!.replace(/\.?$/, '.')
          : String(error);
      throw new CliError({
        code: 'USAGE',
        message: `Cannot use the model "${id}": ${reason} Check the model ids given (--models, --chairman, --model) or LLM_COUNCIL_MODELS and LLM_COUNCIL_CHAIRMAN.`,
        cause: error,
      });
    }
    // A hosted provider needs one of its key variables; local servers (and unknown providers) need none.
    const variables = PROVIDER_VARIABLES.find((p) => p.provider === provider && p.keyRequired)?.keyVariables;
    if (variables === undefined || variables.some((name) => (options.env[name] ?? '').trim() !== '')) continue;
    const key = variables.join(' or ');
    missing.set(key, [...(missing.get(key) ?? []), id]);
    providers.add(provider);
  }
  if (missing.size === 0) return;
  const needs = [...missing].map(([key, ids]) => `${key} (for ${ids.join(', ')})`).join('; ');
  const save = providers.size === 1 ? `council keys set ${[...providers][0]!}` : 'council keys set <provider>';
  throw new CliError({
    code: 'RUNTIME',
    message: `No API key set: ${needs}. Save it with \`${save}\` (it reads the key from stdin and keeps it in the home, mode 0600) or export it in your environment; or try \`council demo\` or simulated:<name> models, which need none.`,
  });
}
