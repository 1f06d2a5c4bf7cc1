import { describe, expect, it } from 'vitest';
import { councilRequestStage } from './council-request-stage.js';

describe('councilRequestStage', () => {
  it('answers a question that mentions contributors as a question, not as a chairman', () => {
    expect(councilRequestStage('Who were the main contributors to the Linux kernel?')).toBe('answer');
    expect(councilRequestStage('Rank them. FINAL RANKING:')).toBe('review');
    expect(councilRequestStage('List contributors.\nModel: simulated:ada\ntext')).toBe('chairman');
  });
});
