import { describe, expect, it } from 'vitest';
import reference from './__fixtures__/agreement-reference.json';
import { ordinalAlpha } from './ordinal-alpha.js';

describe('ordinalAlpha against the krippendorff package (human vs judge scores)', () => {
  it.each(reference.ordinalAlpha)('$name', (c) => {
    // Units are the items, the two coders the human and the judge.
    const units = c.human.map((h, i) => [h, c.judge[i]!]);
    expect(ordinalAlpha(units).alpha).toBeCloseTo(c.ordinal, 10);
  });
});
