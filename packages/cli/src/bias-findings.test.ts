import { describe, expect, it } from 'vitest';
import {
  evidenceTier,
  evidenceTierRange,
  findingSentence,
  flagName,
  metricLabel,
  ordinal,
  shownAt,
  sizeInterval,
  userNote,
  withheldSentence,
} from './bias-findings.js';

describe('bias findings in words', () => {
  it('counts positions from 1 as a reader does: first, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd, 23rd', () => {
    expect([0, 1, 2, 3].map(shownAt)).toEqual(['first', '2nd', '3rd', '4th']);
    expect([11, 12, 13, 21, 22, 23, 101, 111].map(ordinal)).toEqual([
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '101st',
      '111th',
    ]);
  });

  it('gives a size its interval as sizes, smaller first; an interval across zero keeps its signs', () => {
    expect(sizeInterval(-1.685, -1.415)).toBe('[1.42–1.69]');
    expect(sizeInterval(0.12, 0.5)).toBe('[0.12–0.50]');
    expect(sizeInterval(-0.1, 0.3)).toBe('[-0.10, +0.30]');
    expect(sizeInterval(null, 0.3)).toBe('');
    // −0.001 to two decimals is 0.00, not −0.00.
    expect(sizeInterval(-0.001, -0.2)).toBe('[0.00–0.20]');
  });

  it('says each kind of flag as a sentence, its direction from the sign of the estimate', () => {
    const flag = (code: string, metric: string, [estimate, ciLower, ciUpper]: [number, number, number]) =>
      findingSentence({ code, subject: null, metric, estimate, ciLower, ciUpper });
    expect(flag('HARSH_REVIEWER', 'reviewer_offset[sim:dmitri]', [-1.55, -1.69, -1.42])).toBe(
      'sim:dmitri scores 1.55 points below the typical reviewer [1.42–1.69]',
    );
    expect(flag('GENEROUS_REVIEWER', 'reviewer_offset[r/x]', [0.8, 0.6, 1])).toBe(
      'r/x scores 0.80 points above the typical reviewer [0.60–1.00]',
    );
    expect(flag('POSITION_BIAS_DETECTED', 'position_effect[0]', [0.31, 0.12, 0.5])).toBe(
      'answers shown first score 0.31 points higher than average [0.12–0.50]',
    );
    expect(flag('POSITION_BIAS_DETECTED', 'position_effect[3]', [-0.4, -0.6, -0.2])).toBe(
      'answers shown 4th score 0.40 points lower than average [0.20–0.60]',
    );
    expect(flag('POSITION_BIAS_DETECTED', 'rank_position_effect[0]', [0.2, 0.1, 0.3])).toBe(
      'answers shown first are ranked 0.20 rank points higher than average [0.10–0.30]',
    );
    expect(flag('SELF_PREFERENCE', 'self_preference[a]', [1.07, 0.84, 1.29])).toBe(
      'a scores its own answers 1.07 points higher than the other reviewers do [0.84–1.29], over and above its usual offset',
    );
    expect(flag('REVIEWER_AFFINITY', 'affinity[a→b]', [0.5, 0.3, 0.7])).toBe(
      "a scores b's answers 0.50 points higher than the other reviewers do [0.30–0.70], over and above its usual offset",
    );
    expect(flag('REVIEWER_DRIFT', 'reviewer_drift[r/one]', [-1, -1.066, -0.934])).toBe(
      'r/one now scores 1.00 points lower than before [0.93–1.07], against the typical reviewer',
    );
    expect(flag('LENGTH_BIAS_DETECTED', 'length_slope_per_1000_chars', [0.42, 0.2, 0.64])).toBe(
      'longer answers score 0.42 points higher per 1,000 characters [0.20–0.64], within a session',
    );
    expect(flag('ANCHORING', 'anchoring', [-0.775, -0.8, -0.75])).toBe(
      "the later an answer is shown, the closer to the session's mean its scores lie (r = -0.775 [-0.800, -0.750])",
    );
  });

  it('says a held-back flag as too little data, with the sessions it has and needs', () => {
    expect(
      withheldSentence(
        { metric: 'reviewer_offset[r/harsh]', estimate: -2, ciLower: -2, ciUpper: -2, sessions: 12 },
        { code: 'HARSH_REVIEWER', minSessions: 20 },
      ),
    ).toBe(
      'too little data: 12 sessions, 20 needed for a flag (harsh reviewer): r/harsh scores 2.00 points below the typical reviewer [2.00–2.00]',
    );
  });

  it('names tiers, flags and metrics in words, and leaves none of their machine names', () => {
    expect(['insufficient_data', 'preliminary', 'moderate', 'high'].map(evidenceTier)).toEqual([
      'too little data',
      'preliminary',
      'moderate',
      'high',
    ]);
    expect(evidenceTierRange('moderate')).toBe('moderate (20–49 sessions)');
    expect(flagName('POSITION_BIAS_DETECTED')).toBe('Position bias');
    expect(flagName('SUSPECTED_INJECTION')).toBe('Suspected injection');
    expect(metricLabel('position_effect[0]')).toBe('answers shown first');
    expect(metricLabel('reviewer_offset[r/one] since 2026-10-20')).toBe(
      'r/one: offset against the typical reviewer since 2026-10-20',
    );
    expect(metricLabel('position_spread_slope_per_day')).toBe('spread of the position effects: change per day');
    for (const metric of [
      'length_slope_per_1000_chars',
      'length_between_sessions_per_1000_chars',
      'primacy_effect',
      'reviewer_z[x]',
      'affinity[a→b]',
      'length_score_correlation[window]',
    ])
      expect(metricLabel(metric)).not.toMatch(/_|\[/);
  });

  it('drops the note the report already says in words, and names options by their flags', () => {
    expect(
      userNote(
        '14 session(s) in the window, fewer than minSessions = 20: figures are shown per their tier, but no bias flag is raised.',
      ),
    ).toBeNull();
    expect(
      userNote(
        '2 change point(s) in the window: consider filtering by configVersion or model, since pooling across a model change mixes two councils.',
      ),
    ).toBe(
      '2 change point(s) in the window: consider filtering with --config-version or --model, since pooling across a model change mixes two councils.',
    );
  });
});
