import * as z from 'zod';

const itemsSchema = z.looseObject({
  total: z.number().int(),
  done: z.number().int(),
  notDone: z.number().int(),
  withCouncil: z.number().int(),
  withPreference: z.number().int(),
  withScore: z.number().int(),
});

/** `GET /api/evals`: the eval runs saved in the home (each `council eval` run's report), newest first. */
export const evalListResponseSchema = z.object({
  evals: z.array(
    z.object({
      id: z.string().describe('The run id: its journal path hashed (a resumed run keeps it).'),
      generatedAt: z.string(),
      journal: z.string().describe("The journal's file name."),
      demo: z.boolean(),
      items: itemsSchema,
      members: z.array(z.string()),
      totalCostUsd: z.number().nullable(),
    }),
  ),
});

/** `GET /api/evals/{id}`: the document of `council eval --json`, as the run saved it. */
export const evalReportResponseSchema = z.looseObject({
  kind: z.literal('council-eval'),
  generatedAt: z.string(),
  journal: z.string(),
  demo: z.boolean(),
  grader: z.string(),
  items: itemsSchema,
  members: z.array(z.looseObject({ member: z.string() })),
  council: z.looseObject({}),
  councilVsBest: z.looseObject({}),
  reviewers: z.array(z.looseObject({ reviewer: z.string() })),
  bias: z.looseObject({}),
  cost: z.looseObject({}).optional().describe('Absent in reports saved before costs were reported.'),
  sentences: z.array(z.string()),
  notes: z.array(z.string()),
});
