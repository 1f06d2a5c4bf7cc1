import { describe, expect, it } from 'vitest';
import { verdictModes } from '@council/core';
import { VERDICT_MODES } from './verdict-flags.js';

describe('the --verdict choices', () => {
  it("are core's verdict modes, in the same order", () => {
    expect(VERDICT_MODES).toEqual(verdictModes);
  });
});
