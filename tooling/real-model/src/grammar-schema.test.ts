import { describe, expect, it } from 'vitest';
import { toGrammarSchema } from './grammar-schema.js';

function rewritten(schema: unknown): Record<string, unknown> {
  const result = toGrammarSchema(schema);
  if (!result.success) throw new Error(result.error);
  return result.value;
}

function refusal(schema: unknown): string {
  const result = toGrammarSchema(schema);
  if (result.success) throw new Error(`accepted: ${JSON.stringify(result.value)}`);
  return result.error;
}

describe('toGrammarSchema', () => {
  it("keeps Council's review schema, with the 1–10 score as the ten integers", () => {
    const label = { type: 'string', enum: ['Response A', 'Response B'] };
    expect(
      rewritten({
        type: 'object',
        properties: {
          evaluations: {
            type: 'array',
            minItems: 2,
            maxItems: 2,
            items: {
              type: 'object',
              properties: {
                response: label,
                strengths: { type: 'string' },
                score: { type: 'integer', minimum: 1, maximum: 10 },
              },
              required: ['response', 'strengths', 'score'],
              additionalProperties: false,
            },
          },
          ranking: { type: 'array', minItems: 2, maxItems: 2, items: label, description: 'best first' },
        },
        required: ['evaluations', 'ranking'],
        additionalProperties: false,
      }),
    ).toEqual({
      type: 'object',
      properties: {
        evaluations: {
          type: 'array',
          minItems: 2,
          maxItems: 2,
          items: {
            type: 'object',
            properties: {
              response: { enum: ['Response A', 'Response B'] },
              strengths: { type: 'string' },
              score: { enum: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] },
            },
          },
        },
        ranking: { type: 'array', minItems: 2, maxItems: 2, items: { enum: ['Response A', 'Response B'] } },
      },
    });
  });

  it('turns exclusive integer bounds into the integers strictly between them', () => {
    expect(rewritten({ type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 4 })).toEqual({ enum: [1, 2, 3] });
  });

  it('reads anyOf as oneOf, a type list as a oneOf of the types, and definitions as $defs', () => {
    expect(rewritten({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toEqual({
      oneOf: [{ type: 'string' }, { type: 'null' }],
    });
    expect(rewritten({ type: ['object', 'null'], properties: { a: { type: 'boolean' } } })).toEqual({
      oneOf: [{ type: 'object', properties: { a: { type: 'boolean' } } }, { type: 'null' }],
    });
    expect(rewritten({ definitions: { n: { type: 'number' } }, $ref: '#/definitions/n' })).toEqual({
      $ref: '#/$defs/n',
      $defs: { n: { type: 'number' } },
    });
  });

  it('lets a schema without a type, and an object without properties, be any JSON', () => {
    const any = rewritten({});
    expect(any.oneOf).toHaveLength(6);
    expect(rewritten({ type: 'object' })).toEqual({ type: 'object', additionalProperties: true });
  });

  it('refuses what a grammar cannot enforce, saying where', () => {
    expect(refusal({ type: 'object', properties: { id: { type: 'string', pattern: '^[a-z]+$' } } })).toBe(
      '#/properties/id: the keyword "pattern" cannot be turned into a grammar',
    );
    expect(refusal({ allOf: [{ type: 'string' }] })).toContain('"allOf"');
    expect(refusal({ type: 'integer', minimum: 0 })).toContain('integer bounds');
    expect(refusal({ type: 'integer', minimum: 0, maximum: 5000 })).toContain('integer bounds');
    expect(refusal({ type: 'array', items: { type: 'string' }, uniqueItems: true })).toContain('uniqueItems');
    expect(refusal({ $ref: 'https://example.com/schema.json' })).toContain('only references into #/$defs/');
    expect(refusal({ enum: [{ a: 1 }] })).toContain('objects or arrays');
    expect(refusal(42)).toBe('# is not a schema object');
  });
});
