import * as z from 'zod';

const text = (what: string) =>
  z.string({ error: `must be a string (${what})` }).refine((s) => s.trim() !== '', { error: `is empty (${what})` });

const pattern = z
  .string({ error: 'must be a list of strings: phrases, or regular expressions written /…/flags' })
  .refine((s) => s.trim() !== '', { error: 'holds an empty phrase' })
  .refine((s) => !isRegexLiteral(s) || compiles(s), {
    error: 'is not a valid regular expression (write /pattern/flags with flags among d, g, i, m, s, u, v, y)',
  });

const vote = z.union([z.literal(0), z.literal(1), z.literal('tie')], {
  error: 'must be 0 (the first answer), 1 (the second) or "tie"',
});

/** `/…/flags`: a pattern written as a regular expression. */
export function isRegexLiteral(s: string): boolean {
  return /^\/.+\/[a-z]*$/s.test(s);
}

function compiles(s: string): boolean {
  const end = s.lastIndexOf('/');
  try {
    new RegExp(s.slice(1, end), s.slice(end + 1));
    return true;
  } catch {
    return false;
  }
}

/** One line of a JSONL dataset (or one CSV record, mapped to these fields): the fields as the file spells them. */
export const evalItemSchema = z
  .strictObject(
    {
      id: z.union([z.string().refine((s) => s.trim() !== '', { error: 'is empty' }), z.number()], {
        error: 'must be a string or a number that names the item',
      }),
      question: text('the question put to the council'),
      reference: text('a reference answer').optional(),
      accept: z
        .strictObject(
          {
            any_of: z.array(pattern, { error: 'must be a list of phrases' }).optional(),
            all_of: z.array(pattern, { error: 'must be a list of phrases' }).optional(),
          },
          { error: 'must be {"any_of": […], "all_of": […]} (snake_case)' },
        )
        .refine((a) => (a.any_of?.length ?? 0) + (a.all_of?.length ?? 0) > 0, {
          error: 'names no phrase: give any_of or all_of a phrase',
        })
        .optional(),
      answers: z
        .tuple([text('the first answer'), text('the second answer')], {
          error: 'must be a list of exactly two answer strings',
        })
        .optional(),
      preferred: z
        .union(
          [
            vote,
            z.array(vote, { error: 'must be a list of votes, each 0, 1 or "tie"' }).min(1, {
              error: 'is an empty list: give at least one vote (0, 1 or "tie")',
            }),
          ],
          { error: 'must be 0 (the first answer), 1 (the second) or "tie", or a list of such votes (one per person)' },
        )
        .optional(),
      answer: text('the answer people scored').optional(),
      human_score: z
        .number({ error: "must be a number on the reviewers' 1–10 scale" })
        .min(1, { error: "must lie on the reviewers' 1–10 scale" })
        .max(10, { error: "must lie on the reviewers' 1–10 scale" })
        .optional(),
    },
    { error: 'must be a JSON object' },
  )
  .superRefine((item, ctx) => {
    if ((item.answers === undefined) !== (item.preferred === undefined))
      ctx.addIssue({
        code: 'custom',
        path: [item.answers === undefined ? 'answers' : 'preferred'],
        message: 'is missing: a human preference needs both "answers": [a, b] and "preferred": 0, 1 or "tie"',
      });
    if ((item.answer === undefined) !== (item.human_score === undefined))
      ctx.addIssue({
        code: 'custom',
        path: [item.answer === undefined ? 'answer' : 'human_score'],
        message: 'is missing: a human score needs both "answer" and "human_score"',
      });
    if (
      item.reference === undefined &&
      item.accept === undefined &&
      item.answers === undefined &&
      item.answer === undefined &&
      item.preferred === undefined &&
      item.human_score === undefined
    )
      ctx.addIssue({
        code: 'custom',
        path: [],
        message:
          'gives nothing to check: add "accept" (key content), "reference" (a reference answer), "answers" + "preferred" (a human preference) or "answer" + "human_score"',
      });
  });

export type EvalItemLine = z.infer<typeof evalItemSchema>;
