import type { ResponseFormat } from '@council/providers';

/**
 * The JSON schema a structured review follows: per response shown, its label, strengths, weaknesses and a 1–10
 * score, then the ranking of every label, best first. Evaluations come before the ranking so a model reasons
 * before it ranks. Only keywords every structured-output API accepts (OpenAI's strict mode included); the
 * ranking's uniqueness cannot be expressed there, so the parser keeps a repeated label's first place.
 */
export function reviewResponseFormat(labels: readonly string[]): ResponseFormat {
  const label = { type: 'string', enum: [...labels] };
  return {
    type: 'json',
    name: 'council_review',
    description: 'A blind peer review of the anonymised responses: a critique and a score for each, then a ranking.',
    schema: {
      type: 'object',
      properties: {
        evaluations: {
          type: 'array',
          minItems: labels.length,
          maxItems: labels.length,
          items: {
            type: 'object',
            properties: {
              response: label,
              strengths: { type: 'string' },
              weaknesses: { type: 'string' },
              score: { type: 'integer', minimum: 1, maximum: 10 },
            },
            required: ['response', 'strengths', 'weaknesses', 'score'],
            additionalProperties: false,
          },
        },
        ranking: {
          type: 'array',
          minItems: labels.length,
          maxItems: labels.length,
          items: label,
          description: 'Every label once, best first.',
        },
      },
      required: ['evaluations', 'ranking'],
      additionalProperties: false,
    },
  };
}

/** The schema of a repair reply: the ranking alone. */
export function rankingResponseFormat(labels: readonly string[]): ResponseFormat {
  return {
    type: 'json',
    name: 'council_ranking',
    description: 'The ranking of the anonymised responses, every label once, best first.',
    schema: {
      type: 'object',
      properties: {
        ranking: {
          type: 'array',
          minItems: labels.length,
          maxItems: labels.length,
          items: { type: 'string', enum: [...labels] },
        },
      },
      required: ['ranking'],
      additionalProperties: false,
    },
  };
}
