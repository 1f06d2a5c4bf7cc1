/** ADR-018's tiered confidence, from the number of sessions behind a figure. */
export type ConfidenceTier = 'insufficient_data' | 'preliminary' | 'moderate' | 'high';

/** < 10 sessions: insufficient_data (no estimate shown); 10–19 preliminary; 20–49 moderate; ≥ 50 high. */
export function confidenceTier(sessions: number): ConfidenceTier {
  if (sessions < 10) return 'insufficient_data';
  if (sessions < 20) return 'preliminary';
  if (sessions < 50) return 'moderate';
  return 'high';
}
