import { describe, expect, it } from 'vitest';
import { detectQueryCategory } from './query-category.js';

describe('detectQueryCategory', () => {
  it.each([
    ['How do I reverse a linked list in Python?', 'coding'],
    ['Why does this code throw a NullPointerException?\n```java\nfoo.bar();\n```', 'coding'],
    ['Solve the equation 3x + 5 = 20', 'math'],
    ['What is the integral of x^2 from 0 to 3?', 'math'],
    ['Write a short poem about autumn leaves', 'writing'],
    ['Draft a polite email declining a meeting', 'writing'],
    ['Compare the pros and cons of remote work', 'analysis'],
    ['Evaluate the impact of tariffs on small exporters', 'analysis'],
    ['What is the capital of France?', 'general'],
    ['', 'general'],
  ] as const)('%j → %s', (query, expected) => {
    expect(detectQueryCategory(query)).toBe(expected);
  });

  it('breaks ties by the documented order: coding before writing', () => {
    // One writing cue ("write") and one coding cue ("function"): equal scores, coding wins.
    expect(detectQueryCategory('write a function')).toBe('coding');
  });
});
