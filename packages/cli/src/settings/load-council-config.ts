import { loadConfig } from '@council/core';
import type { CouncilConfigLayer, LoadedConfig } from '@council/core';
import type { CouncilSettings } from './council-settings.js';

/** The environment's layer of the configuration cascade, from the resolved settings. */
function environmentLayer(settings: CouncilSettings): CouncilConfigLayer {
  return {
    ...(settings.models.length > 0 ? { members: settings.models } : {}),
    ...(settings.chairman === null ? {} : { chairman: settings.chairman }),
    ...(settings.biasAudit === null ? {} : { biasAudit: settings.biasAudit }),
  };
}

/**
 * Core's configuration cascade for these settings: the home, the organization (`org` is a command's
 * `--org`, which wins over `LLM_COUNCIL_ORG`) and the environment's layer, passed as values.
 */
export function loadCouncilConfig(settings: CouncilSettings, options: { org?: string } = {}): Promise<LoadedConfig> {
  const org = options.org ?? settings.org ?? undefined;
  const orgSource = options.org === undefined && settings.orgSource === 'LLM_COUNCIL_ORG' ? 'LLM_COUNCIL_ORG' : undefined;
  return loadConfig({
    home: settings.home,
    ...(org === undefined ? {} : { org }),
    ...(orgSource === undefined ? {} : { orgSource }),
    environment: environmentLayer(settings),
  });
}
