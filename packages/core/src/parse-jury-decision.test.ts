import { describe, expect, it } from 'vitest';
import { parseJuryDecision } from './parse-jury-decision.js';

describe('parseJuryDecision', () => {
  it('reads the fenced JSON object: decision, confidence and reasons', () => {
    const text =
      'The change is small and tested.\n\n```json\n{"decision": "approve", "confidence": 0.8, "reasons": ["tests cover it", "no API change"]}\n```\n';
    expect(parseJuryDecision(text)).toEqual({
      decision: 'approve',
      confidence: 0.8,
      reasons: ['tests cover it', 'no API change'],
      format: 'json',
    });
  });

  it('takes the last object, a bare one too, and reads a percentage confidence and a single reason', () => {
    const text =
      'At first I thought {"decision": "approve"} but no.\n{"decision": "Rejected", "confidence": "85%", "reason": "breaks the build"}';
    expect(parseJuryDecision(text)).toEqual({
      decision: 'reject',
      confidence: 0.85,
      reasons: ['breaks the build'],
      format: 'json',
    });
  });

  it('falls back to a DECISION: line, and drops a confidence out of range', () => {
    expect(parseJuryDecision('Reasons…\n\n**Decision:** unclear')).toMatchObject({
      decision: 'unclear',
      format: 'line',
    });
    expect(parseJuryDecision('{"decision": "approve", "confidence": 140}').confidence).toBeNull();
  });

  it('gives no decision for a reply without one, or with an unknown word', () => {
    expect(parseJuryDecision('It depends on the context.')).toEqual({
      decision: null,
      confidence: null,
      reasons: [],
      format: 'none',
    });
    expect(parseJuryDecision('{"decision": "maybe"}').decision).toBeNull();
  });
});
