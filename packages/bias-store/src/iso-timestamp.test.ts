import { describe, expect, it } from 'vitest';
import { parseIsoTimestamp } from './iso-timestamp.js';

describe('parseIsoTimestamp', () => {
  it('reads zones, fractions and the zone-less form (as UTC)', () => {
    // 2025-12-17T10:30:00Z = 1765967400000 ms since the epoch (20439 days × 86400000 + 37800000).
    expect(parseIsoTimestamp('2025-12-17T10:30:00Z')).toEqual({ ms: 1765967400000, hasZone: true });
    expect(parseIsoTimestamp('2025-12-17T10:30:00.123456+00:00')).toEqual({ ms: 1765967400123, hasZone: true });
    expect(parseIsoTimestamp('2025-12-17T11:30:00+01:00')).toEqual({ ms: 1765967400000, hasZone: true });
    expect(parseIsoTimestamp('2025-12-17T05:00:00-0530')).toEqual({ ms: 1765967400000, hasZone: true });
    expect(parseIsoTimestamp('2025-12-17T10:30:00')).toEqual({ ms: 1765967400000, hasZone: false });
    expect(parseIsoTimestamp('2025-12-17 10:30')).toEqual({ ms: 1765967400000, hasZone: false });
  });

  it('rejects impossible dates and other text', () => {
    for (const bad of [
      '2025-02-30T00:00:00Z',
      '2025-13-01T00:00:00Z',
      '2025-12-17T24:00:00Z',
      '2025-12-17',
      'yesterday',
      '',
      '2025-12-17T10:30:00+25:00',
    ]) {
      expect(parseIsoTimestamp(bad)).toBeNull();
    }
    expect(parseIsoTimestamp('2024-02-29T00:00:00Z')).not.toBeNull(); // leap year
    expect(parseIsoTimestamp('2100-02-29T00:00:00Z')).toBeNull(); // not a leap year
  });
});
