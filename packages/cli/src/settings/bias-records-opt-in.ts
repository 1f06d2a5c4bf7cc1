import type { CouncilConfig } from '@council/core';
import type { CouncilSettings } from './council-settings.js';

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
