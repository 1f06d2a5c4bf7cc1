import { scrubSecrets } from '@council/providers/scrub-secrets';

/**
 * A URL (or any text) as it may be shown: Council's one scrubbing function, `scrubSecrets` of `@council/providers` —
 * user-info removed (`https://user:token@host/…` → `https://host/…`), credential-bearing query values `[REDACTED]`.
 * Kept under this name for the commands that import it.
 */
export const stripUrlCredentials: (url: string) => string = scrubSecrets;
