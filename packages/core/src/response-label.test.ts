import { describe, expect, it } from 'vitest';
import { createLabelToModel } from './label-to-model.js';
import { responseLabel } from './response-label.js';

describe('responseLabel', () => {
  it('runs A…Z, then AA, AB…, like spreadsheet columns', () => {
    expect(responseLabel(0)).toBe('Response A');
    expect(responseLabel(1)).toBe('Response B');
    expect(responseLabel(25)).toBe('Response Z');
    expect(responseLabel(26)).toBe('Response AA');
    expect(responseLabel(27)).toBe('Response AB');
    expect(responseLabel(51)).toBe('Response AZ');
    expect(responseLabel(52)).toBe('Response BA');
    expect(responseLabel(701)).toBe('Response ZZ');
    expect(responseLabel(702)).toBe('Response AAA');
  });

  it('is one-to-one over the first thousand positions', () => {
    const labels = new Set(Array.from({ length: 1000 }, (_, i) => responseLabel(i)));
    expect(labels.size).toBe(1000);
  });
});

describe('createLabelToModel', () => {
  it('labels in presentation order with the enhanced { model, displayIndex } format', () => {
    expect(createLabelToModel(['m/c', 'm/a', 'm/b'])).toEqual({
      'Response A': { model: 'm/c', displayIndex: 0 },
      'Response B': { model: 'm/a', displayIndex: 1 },
      'Response C': { model: 'm/b', displayIndex: 2 },
    });
  });
});
