/** ADR-018's unified consent levels, as the CLI shows them: `CONSENT_NAMES[level]` (bias-store's `consentLevelNames` in words). */
export const CONSENT_NAMES = ['off', 'local only', 'anonymous', 'enhanced', 'research'] as const;
