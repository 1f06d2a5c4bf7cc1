import { describe, expect, it, vi } from 'vitest';
import { parsePersonality, safeParsePersonality, stringifyPersonality } from './parse-personality.js';

describe('parsePersonality', () => {
  it('reads the snake_case file into a camelCase personality and writes it back', () => {
    const text =
      'id: skeptic\nname: The Skeptic\nmodel: openai/gpt-4o\nsystem_prompt: You doubt everything.\ntraits: [careful, terse]\nparents: [a, b]\n';
    const personality = parsePersonality(text, 'skeptic.yaml');
    expect(personality).toEqual({
      id: 'skeptic',
      name: 'The Skeptic',
      model: 'openai/gpt-4o',
      systemPrompt: 'You doubt everything.',
      traits: ['careful', 'terse'],
      parents: ['a', 'b'],
    });
    expect(parsePersonality(stringifyPersonality(personality), 'again.yaml')).toEqual(personality);
  });

  it('names the file and the key, and lists the accepted keys for an unknown one', () => {
    expect(() => parsePersonality('id: x\nname: X\nmodel: m\n', 'x.yaml')).toThrow(
      /x\.yaml: invalid personality: "system_prompt"/,
    );
    expect(() => parsePersonality('id: x\nname: X\nmodel: m\nsystem_prompt: p\nmood: grumpy\n', 'x.yaml')).toThrow(
      /unknown key "mood" \(line 5\); accepted keys: id, name, model, system_prompt/,
    );
    expect(() => parsePersonality('id: "bad id!"\nname: X\nmodel: m\nsystem_prompt: p\n', 'x.yaml')).toThrow(
      /"id" \(line 1\) must be letters, digits/,
    );
  });

  it('reports YAML syntax errors with the line, and safeParsePersonality returns them', () => {
    const result = safeParsePersonality('id: x\nname: [unclosed\n', 'broken.yaml');
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.error.code).toBe('PERSONALITY_INVALID');
      expect(result.error.message).toMatch(/^broken\.yaml:\d+: not valid YAML/);
    }
  });

  it('never quotes the file: a syntax error or a bad key gives its line and kind, not the text (issue 27)', () => {
    const warned = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      // Each text holds CANARY on the line of its mistake; the yaml library's own messages (or warnings) quoted it.
      const cases: Array<[string, RegExp]> = [
        [
          'id: x\nname: *CANARY-ALIAS\n',
          /^p\.yaml: not valid YAML \(an alias \(\*name\) that refers to no anchor before it, or aliases that expand too far\)\./,
        ],
        [
          'id: x\nname: "CANARY \\q escape"\n',
          /^p\.yaml:2: not valid YAML \(an escape sequence in a double-quoted string that is not valid at line 2, column \d+\)\./,
        ],
        ['id: x\nname: [CANARY\nmodel: m\n', /^p\.yaml:3: not valid YAML \(.+ at line 3, column 1\)\./],
        ['id: x\n  CANARY-INDENT: : :\n', /^p\.yaml:\d+: not valid YAML \(/],
        // A key that is not a plain name is part of the text: its line is given, the key is not.
        [
          'id: x\nname: X\nmodel: m\nsystem_prompt: p\n"root:x:0:0:CANARY:/root:/bin/bash": 1\n',
          /unknown key "…" \(line 5\); accepted keys/,
        ],
      ];
      for (const [text, expected] of cases) {
        const result = safeParsePersonality(text, 'p.yaml');
        expect(result.success, text).toBe(false);
        if (result.success) continue;
        expect(result.error.message).toMatch(expected);
        expect(result.error.message).not.toContain('CANARY');
      }
      // A tag the library cannot resolve is a warning it printed on stderr, lines and all: now nothing is printed.
      expect(parsePersonality('id: x\nname: !CANARY-TAG X\nmodel: m\nsystem_prompt: p\n', 'p.yaml').name).toBe('X');
      expect(warned).not.toHaveBeenCalled();
    } finally {
      warned.mockRestore();
    }
  });
});
