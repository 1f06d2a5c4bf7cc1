import { describe, expect, it } from 'vitest';
import { councilRequestStage } from './council-request-stage.js';

describe('councilRequestStage', () => {
  it('answers a question that mentions contributors as a question, not as a chairman', () => {
    expect(councilRequestStage('Who were the main contributors to the Linux kernel?')).toBe('answer');
    expect(councilRequestStage('Rank them. FINAL RANKING:')).toBe('review');
    // A structured review's prompt asks for JSON instead of the FINAL RANKING list.
    expect(
      councilRequestStage(
        'IMPORTANT: Reply with one JSON object and nothing else. Under "evaluations", give one entry for each response',
      ),
    ).toBe('review');
    expect(councilRequestStage('List contributors.\nModel: simulated:ada\ntext')).toBe('chairman');
  });
});
