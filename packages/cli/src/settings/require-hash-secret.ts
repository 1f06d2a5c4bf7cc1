import { CliError } from '../cli-error.js';
import type { CouncilSettings } from './council-settings.js';

/**
 * Before anything is saved: consent level 4 stores salted query hashes, and there is no default secret,
 * so it needs `LLM_COUNCIL_HASH_SECRET`. A usage error (exit 2) otherwise. Commands that save call this
 * before calling any model, so a misconfiguration costs nothing.
 */
export function requireHashSecret(settings: Pick<CouncilSettings, 'consentLevel' | 'hashSecretSet'>): void {
  if (settings.consentLevel !== 4 || settings.hashSecretSet) return;
  throw new CliError({
    code: 'USAGE',
    message:
      'Invalid bias store configuration: LLM_COUNCIL_BIAS_CONSENT is 4 (RESEARCH), which stores query hashes, but LLM_COUNCIL_HASH_SECRET is not set; there is no default secret. Set LLM_COUNCIL_HASH_SECRET to a long random secret of your own (e.g. `openssl rand -hex 32`), or choose consent 3 or lower.',
  });
}
