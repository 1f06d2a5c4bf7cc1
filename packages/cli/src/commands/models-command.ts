import type { CommandContext } from '../command-context.js';
import { commandSettings } from '../command-context.js';
import { loadCouncilConfig } from '../settings/load-council-config.js';
import { PROVIDER_VARIABLES } from '../settings/provider-variables.js';

export interface ModelsCommandOptions {
  json: boolean;
}

/** The provider a model id goes to: the part before the first colon, else OpenRouter (bare ids). */
function providerOf(id: string): string {
  const colon = id.indexOf(':');
  return colon > 0 ? id.slice(0, colon) : 'openrouter';
}

/**
 * `council models`: what `llm models` shows, for a council — the members and chairman the configuration cascade
 * gives (config.yaml, the organization's file, LLM_COUNCIL_MODELS/CHAIRMAN), its pools, the personalities in
 * `<home>/personalities` (id, model, name), the per-model options (system prompt shown by length only: it may be
 * long; temperature) and, for each provider the members use, whether a key is set (never the key).
 */
export async function runModelsCommand(options: ModelsCommandOptions, ctx: CommandContext): Promise<number> {
  const settings = commandSettings(ctx);
  const { config, personalities } = await loadCouncilConfig(settings);
  const personalityById = new Map(personalities.map((p) => [p.id, p]));
  const modelOf = (id: string) => personalityById.get(id)?.model ?? id;
  const used = [
    ...config.members,
    ...(config.chairman === undefined ? [] : [config.chairman]),
    ...Object.values(config.pools).flat(),
    ...personalities.map((p) => p.model),
  ].filter((id) => !id.startsWith('@'));
  const providers = [...new Set(used.map(modelOf).map(providerOf))].sort().map((name) => {
    const row = PROVIDER_VARIABLES.find((p) => p.provider === name);
    return {
      provider: name,
      key: row === undefined ? null : row.keyVariables.some((v) => settings.apiKeys[v] === true),
      keyRequired: row?.keyRequired ?? false,
    };
  });
  const document = {
    members: config.members,
    chairman: config.chairman ?? config.members[0] ?? null,
    pools: config.pools,
    personalities: personalities.map((p) => ({ id: p.id, name: p.name, model: p.model })),
    modelOptions: config.modelOptions,
    providers,
  };
  if (options.json) {
    ctx.io.stdout(`${JSON.stringify(document, null, 2)}\n`);
    return 0;
  }
  const s = ctx.out;
  const describe = (id: string) => {
    const p = personalityById.get(id);
    return p === undefined ? id : `${id} (personality "${p.name}", model ${p.model})`;
  };
  const lines: string[] = [];
  lines.push(s.bold('Members'));
  if (config.members.length === 0)
    lines.push(
      s.dim(
        '  none configured: set members in config.yaml (council config init) or LLM_COUNCIL_MODELS, or pass --models',
      ),
    );
  else for (const id of config.members) lines.push(`  ${describe(id)}`);
  lines.push(
    `${s.bold('Chairman')} ${document.chairman === null ? s.dim('none (the first member chairs)') : describe(document.chairman)}${config.chairman === undefined && document.chairman !== null ? s.dim(' (the first member)') : ''}`,
  );
  lines.push('', s.bold('Pools') + s.dim(' (use as --models @name)'));
  const pools = Object.entries(config.pools);
  if (pools.length === 0) lines.push(s.dim('  none (config.yaml pools:)'));
  else for (const [name, ids] of pools) lines.push(`  @${name}: ${ids.join(', ')}`);
  lines.push('', s.bold('Personalities') + s.dim(` (${settings.files.personalities})`));
  if (personalities.length === 0) lines.push(s.dim('  none'));
  else for (const p of personalities) lines.push(`  ${p.id}: ${p.name}, model ${p.model}`);
  const options_ = Object.entries(config.modelOptions);
  if (options_.length > 0) {
    lines.push('', s.bold('Model options') + s.dim(' (config.yaml model_options; --system and -o win)'));
    for (const [id, o] of options_)
      lines.push(
        `  ${id}: ${[
          o.temperature === undefined ? null : `temperature ${o.temperature}`,
          o.system === undefined ? null : `system prompt (${o.system.length} characters)`,
        ]
          .filter((x) => x !== null)
          .join(', ')}`,
      );
  }
  if (providers.length > 0) {
    lines.push('', s.bold('Providers') + s.dim(' (keys never printed; council keys set <provider>)'));
    for (const p of providers)
      lines.push(
        `  ${p.provider.padEnd(10)} ${p.key === null ? s.dim('offline or unknown') : p.key ? 'key set' : p.keyRequired ? 'no key' : s.dim('no key (local server)')}`,
      );
  }
  ctx.io.stdout(`${lines.join('\n')}\n`);
  return 0;
}
