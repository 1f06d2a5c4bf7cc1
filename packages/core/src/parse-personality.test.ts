import { describe, expect, it } from 'vitest';
import { parsePersonality, safeParsePersonality, stringifyPersonality } from './parse-personality.js';

describe('parsePersonality', () => {
  it('reads the snake_case file into a camelCase personality and writes it back', () => {
    const text = 'id: skeptic\nname: The Skeptic\nmodel: openai/gpt-4o\nsystem_prompt: You doubt everything.\ntraits: [careful, terse]\nparents: [a, b]\n';
    const personality = parsePersonality(text, 'skeptic.yaml');
    expect(personality).toEqual({ id: 'skeptic', name: 'The Skeptic', model: 'openai/gpt-4o', systemPrompt: 'You doubt everything.', traits: ['careful', 'terse'], parents: ['a', 'b'] });
    expect(parsePersonality(stringifyPersonality(personality), 'again.yaml')).toEqual(personality);
  });

  it('names the file and the key, and lists the accepted keys for an unknown one', () => {
    expect(() => parsePersonality('id: x\nname: X\nmodel: m\n', 'x.yaml')).toThrow(/x\.yaml: invalid personality: "system_prompt"/);
    expect(() => parsePersonality('id: x\nname: X\nmodel: m\nsystem_prompt: p\nmood: grumpy\n', 'x.yaml')).toThrow(/unknown key "mood"; accepted keys: id, name, model, system_prompt/);
    expect(() => parsePersonality('id: "bad id!"\nname: X\nmodel: m\nsystem_prompt: p\n', 'x.yaml')).toThrow(/"id" must be letters, digits/);
  });

  it('reports YAML syntax errors with the line, and safeParsePersonality returns them', () => {
    const result = safeParsePersonality('id: x\nname: [unclosed\n', 'broken.yaml');
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.error.code).toBe('PERSONALITY_INVALID');
      expect(result.error.message).toMatch(/^broken\.yaml:\d+: not valid YAML/);
    }
  });
});
