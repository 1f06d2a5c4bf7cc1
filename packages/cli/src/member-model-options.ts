import type { CouncilMember, ModelOptions } from '@council/core';
import type { LanguageModelV1 } from '@council/providers';

/** What the CLI's flags say for every model: `--system` and `-o temperature=…`; each wins over config.yaml's. */
export interface ModelOptionFlags {
  system?: string | undefined;
  temperature?: number | undefined;
}

/**
 * A model whose calls carry `temperature` unless the call sets its own. The model's other methods and fields are
 * its own (the wrapper inherits from it), so its id, provider and capabilities are unchanged.
 */
function withTemperature(model: LanguageModelV1, temperature: number): LanguageModelV1 {
  const wrapped = Object.create(model) as LanguageModelV1 & { doStream?: LanguageModelV1['doStream'] };
  wrapped.doGenerate = (options) => model.doGenerate({ ...options, temperature: options.temperature ?? temperature });
  if (typeof model.doStream === 'function')
    wrapped.doStream = (options) => model.doStream!({ ...options, temperature: options.temperature ?? temperature });
  return wrapped;
}

/**
 * Applies what `llm` users set per model — a temperature for its calls and a system prompt for its answers — from the
 * flags (for every model) over config.yaml's `model_options.<model id>`: `resolveModel` gives each id its temperature;
 * `seat` gives each plain model id among the members its system prompt (`{ id, model, systemPrompt }`, which core
 * sends before the question when the member answers). A personality keeps its own system prompt; the chairman's
 * synthesis prompt is Council's own.
 */
export function applyModelOptions(options: {
  flags: ModelOptionFlags;
  config: Readonly<Record<string, ModelOptions>>;
}): {
  resolveModel: (resolve: (id: string) => LanguageModelV1) => (id: string) => LanguageModelV1;
  seat: (member: CouncilMember) => CouncilMember;
} {
  const { flags, config } = options;
  return {
    resolveModel: (resolve) => (id) => {
      const model = resolve(id);
      const temperature = flags.temperature ?? config[id]?.temperature;
      return temperature === undefined ? model : withTemperature(model, temperature);
    },
    seat: (member) => {
      if (typeof member !== 'string') return member;
      const system = flags.system ?? config[member]?.system;
      return system === undefined || system.trim() === ''
        ? member
        : { id: member, model: member, systemPrompt: system };
    },
  };
}
