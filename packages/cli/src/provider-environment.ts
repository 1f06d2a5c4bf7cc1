/** ADR-018's unified consent levels. */
export const CONSENT_NAMES = ['off', 'local only', 'anonymous', 'enhanced', 'research'] as const;

