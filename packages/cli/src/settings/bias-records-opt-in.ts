import type { CouncilConfig } from '@council/core';
import type { CouncilSettings } from './council-settings.js';
import { loadCouncilConfig } from './load-council-config.js';

/**
 * The settings with bias persistence as the configuration cascade resolved it: `bias_persistence` in config.yaml (or
 * the organization's file) when `LLM_COUNCIL_BIAS_PERSISTENCE` is unset; the variable (or a command's own flag, as
 * `demo`'s) when it is set, since the environment's layer sits above the files. The cascade's result is what saves:
 * ADR-018's opt-in, now one line of config.yaml (`council config init --bias-records` writes it). The secrets stay
 * where they were: not enumerable.
 */
export function withConfiguredPersistence(
  settings: CouncilSettings,
  config: Pick<CouncilConfig, 'biasPersistence'>,
): CouncilSettings {
  if (config.biasPersistence === settings.biasPersistence) return settings;
  const values: Omit<CouncilSettings, 'secrets'> = {
    ...settings,
    biasPersistence: config.biasPersistence,
    writesBiasRecords: config.biasPersistence && settings.consentLevel >= 1,
  };
  return Object.defineProperty(values, 'secrets', { value: settings.secrets, enumerable: false }) as CouncilSettings;
}

/**
 * The one step that turns bias records on, for every message that finds none: the line to add to this home's
 * config.yaml, or what to unset when the variable turned them off.
 */
export function biasRecordsOptIn(
  settings: Pick<CouncilSettings, 'files' | 'variablesSet' | 'biasPersistence'>,
): string {
  if (settings.variablesSet.includes('LLM_COUNCIL_BIAS_PERSISTENCE') && !settings.biasPersistence)
    return 'LLM_COUNCIL_BIAS_PERSISTENCE turns them off: unset it (or set it to true)';
  return `add \`bias_persistence: true\` to ${settings.files.config} (\`council config init --bias-records\` writes one) or set LLM_COUNCIL_BIAS_PERSISTENCE=true`;
}

/**
 * For a command that found no bias records (store, contributions, bias-report): whether they are on — then the next
 * session saves some — or the one step that turns them on, as the configuration cascade says.
 */
export async function biasRecordsState(settings: CouncilSettings): Promise<string> {
  let effective = settings;
  try {
    effective = withConfiguredPersistence(settings, (await loadCouncilConfig(settings)).config);
  } catch {
    // An unreadable config.yaml: the environment's word stands here, and the commands that read it say what is wrong.
  }
  if (effective.writesBiasRecords)
    return 'Bias records are on: each session you run saves them (or try `council demo`).';
  if (effective.biasPersistence)
    return 'Bias records are on, but consent level 0 (LLM_COUNCIL_BIAS_CONSENT) saves nothing (or try `council demo`).';
  return `Bias records are off until you opt in: ${biasRecordsOptIn(effective)} (or try \`council demo\`).`;
}
