import { loadConfig } from '@council/core';
import type { CouncilConfigLayer, LoadedConfig } from '@council/core';
import type { CouncilSettings } from './council-settings.js';

/** The environment's layer of the configuration cascade, from the resolved settings. */
function environmentLayer(settings: CouncilSettings): CouncilConfigLayer {
  return {
    ...(settings.models.length > 0 ? { members: settings.models } : {}),
    ...(settings.chairman === null ? {} : { chairman: settings.chairman }),
    ...(settings.biasAudit === null ? {} : { biasAudit: settings.biasAudit }),
    // Set only when LLM_COUNCIL_BIAS_PERSISTENCE (or a command's own flag) said so: else config.yaml's, else false.
    ...(settings.variablesSet.includes('LLM_COUNCIL_BIAS_PERSISTENCE')
      ? { biasPersistence: settings.biasPersistence }
      : {}),
  };
}

/**
 * Core's configuration cascade for these settings: the files they resolved (`config.yaml`, `personalities/` and the
 * organization's file, from `--org` or `LLM_COUNCIL_ORG`) and the environment's layer, passed as values.
 */
export function loadCouncilConfig(settings: CouncilSettings): Promise<LoadedConfig> {
  const { files, org } = settings;
  return loadConfig({
    files,
    ...(org === null ? {} : { org }),
    // A message about the organization points at the variable when that is what named it; at the option otherwise.
    ...(settings.orgSource === 'LLM_COUNCIL_ORG' ? { orgSource: 'LLM_COUNCIL_ORG' } : {}),
    environment: environmentLayer(settings),
  });
}
