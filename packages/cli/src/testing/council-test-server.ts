import { createOpenRouterTestServer } from '@council/providers/test';
import type { RecordedRequest, TestResponse, TestServer } from '@council/providers/test';
import { councilRequestStage } from './council-request-stage.js';

/**
 * An OpenRouter-compatible server on 127.0.0.1 that plays a council: members answer, reviewers return
 * the unified evaluation (a json block ranking the labels in the order shown, i.e. every reviewer puts
 * "Response A" first, with scores 9, 7, 5, …), and the chairman credits the members it is told about.
 * Model `test/broken` answers 404 (model not found); `test/flaky` always answers 500 (retryable); `test/hang` never answers; a question containing
 * `PLEASE-FAIL` gets a 400 from every member. As a member, `test/huge` answers `hugeReplyBytes` bytes (default 50 MiB)
 * of text, written as the client reads it (`hugeBytesSent`), and `test/long…` answers `longReplyBytes` (default 400 KiB).
 * As a reviewer, `test/vague…` (which answers like any member) replies with critiques and no ranking — no JSON block,
 * no FINAL RANKING list, no refusal — to the review and to any repair request alike, so its review cannot be read.
 * A review asked for as structured output (`response_format` with core's `council_review` schema) is answered with
 * that JSON — an evaluation per label, then the ranking, in the order shown — and a structured repair request
 * (`council_ranking`) with the ranking alone.
 * In jury mode (core's `jury_prompt`), a member decides by its id: one containing `reject` rejects, `unclear` is unclear,
 * `garbled` never gives a decision (not even to the repair request), any other approves; each ends its answer with
 * the decision's JSON block, and answers a repair request with the JSON alone. The chairman (shown `# JURY`) starts
 * with `Decision: <chairman.decision>` (default: reject when its id contains `reject`, else approve) and ends with a
 * `## Dissent` section.
 */
export async function startCouncilTestServer(options: {
  contributors: readonly string[];
  apiKey?: string;
  /** The chairman's text before its contributors block, and how it streams (when asked to): pieces and the wait between them. */
  chairman?: { text?: string; chunkSize?: number; chunkDelayMs?: number; decision?: 'approve' | 'reject' | 'unclear' };
  /** What a review reports using (default, as every call: 100 input and 50 output tokens, $0.001). */
  reviewUsage?: { inputTokens: number; outputTokens: number; costUsd: number };
  hugeReplyBytes?: number;
  longReplyBytes?: number;
  /** Every text reply waits this long first: a slow model (with the server's `maxInFlight`, a local one-slot server's load). */
  delayMs?: number;
  /** Answer stream requests with the whole reply as plain JSON, as proxies that ignore `stream: true` do. */
  ignoreStream?: boolean;
}): Promise<TestServer> {
  const respond = councilReply(options);
  return createOpenRouterTestServer({
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.ignoreStream ? { ignoreStream: true } : {}),
    respond: (request) => {
      const response = respond(request);
      return options.delayMs !== undefined && response.kind === 'text'
        ? { ...response, delayMs: options.delayMs }
        : response;
    },
  });
}

/** The council the test server plays: one reply per request, by model and stage (see `startCouncilTestServer`). */
function councilReply(
  options: Parameters<typeof startCouncilTestServer>[0],
): (request: RecordedRequest) => TestResponse {
  return (request: RecordedRequest): TestResponse => {
    const model = request.model ?? '';
    if (model === 'test/broken') return { kind: 'error', status: 404, message: `No endpoints found for ${model}.` };
    if (model === 'test/flaky') return { kind: 'error', status: 500, message: 'Internal server error.' };
    if (model === 'test/hang') return { kind: 'hang' };
    const body = request.body as { messages?: { role: string; content: string }[] } | undefined;
    const prompt = (body?.messages ?? []).map((m) => m.content).join('\n');
    const usage = { inputTokens: 100, outputTokens: 50, costUsd: 0.001 };
    // A structured review's prompt has no FINAL RANKING list: its schema's name says what it is.
    const schema = (request.body as { response_format?: { json_schema?: { name?: string } } } | undefined)
      ?.response_format?.json_schema?.name;
    const structured = schema === 'council_review' || schema === 'council_ranking' ? schema : null;
    if (prompt.includes('# Parents')) {
      // The evolution prompt: answer with a new personality as YAML.
      return {
        kind: 'text',
        text: 'Here is the offspring.\n\n```yaml\nid: careful-bold\nname: Careful Bold\nmodel: test/alpha\nsystem_prompt: Weigh risks first, then commit to a bold plan.\ntraits: [careful, decisive]\n```\n',
        usage,
      };
    }
    switch (structured === null ? councilRequestStage(prompt) : 'review') {
      case 'answer':
        if (prompt.includes('PLEASE-FAIL'))
          return { kind: 'error', status: 400, message: 'This prompt is refused by the test server.' };
        if (model === 'test/huge') return { kind: 'huge', bytes: options.hugeReplyBytes ?? 50 * 1024 * 1024, usage };
        if (model.startsWith('test/long')) return { kind: 'huge', bytes: options.longReplyBytes ?? 400 * 1024, usage };
        if (prompt.includes('You are one member of a jury'))
          return { kind: 'text', text: jurorReply(model, prompt), usage };
        return {
          kind: 'text',
          text: `Answer from ${model}: ${'write characterisation tests first. '.repeat((model.length % 5) + 1)}`,
          usage,
        };
      case 'review': {
        if (model.startsWith('test/vague'))
          return {
            kind: 'text',
            text: 'Each response has merits; they are all reasonable, and I would not put one above another.',
            usage: options.reviewUsage ?? usage,
          };
        const labels = [...new Set([...prompt.matchAll(/Response ([A-Z]+)\b/g)].map((m) => `Response ${m[1]}`))].filter(
          (l) => l !== 'Response X',
        );
        const scores = Object.fromEntries(labels.map((l, i) => [l, Math.max(1, 9 - 2 * i)]));
        const reviewUsage = options.reviewUsage ?? usage;
        if (structured === 'council_ranking')
          return { kind: 'text', text: JSON.stringify({ ranking: labels }), usage: reviewUsage };
        if (structured === 'council_review') {
          const evaluations = labels.map((l) => ({
            response: l,
            strengths: 'clear steps',
            weaknesses: 'no examples',
            score: scores[l],
          }));
          return { kind: 'text', text: JSON.stringify({ evaluations, ranking: labels }), usage: reviewUsage };
        }
        const critiques = labels
          .map(
            (l) =>
              `### ${l}\n1. **Strengths**: clear steps\n2. **Weaknesses**: no examples\n3. **Score**: ${scores[l]}`,
          )
          .join('\n\n');
        const json = JSON.stringify({ ranking: labels, scores });
        return {
          kind: 'text',
          text: `${critiques}\n\n\`\`\`json\n${json}\n\`\`\`\n\nFINAL RANKING:\n${labels.map((l, i) => `${i + 1}. ${l}`).join('\n')}\n`,
          usage: options.reviewUsage ?? usage,
        };
      }
      case 'chairman': {
        const weight = 1 / options.contributors.length;
        const contributors = options.contributors.map((id) => ({ id, weight, reason: 'useful steps' }));
        const jury = prompt.includes('# JURY');
        const decision = options.chairman?.decision ?? (model.includes('reject') ? 'reject' : 'approve');
        const base = options.chairman?.text ?? 'Start with characterisation tests around the riskiest module.';
        const text = jury
          ? `Decision: ${decision}\n\n${base}\n\n## Dissent\n\nThe minority held that the change needs more tests.`
          : base;
        const pacing = {
          ...(options.chairman?.chunkSize ? { chunkSize: options.chairman.chunkSize } : {}),
          ...(options.chairman?.chunkDelayMs ? { chunkDelayMs: options.chairman.chunkDelayMs } : {}),
        };
        return {
          kind: 'text',
          text: `${text}\n\n\`\`\`json\n${JSON.stringify({ contributors })}\n\`\`\`\n`,
          usage,
          ...pacing,
        };
      }
    }
  };
}

/** A juror's reply from the test server: the decision its model id names (see `startCouncilTestServer`). */
function jurorReply(model: string, prompt: string): string {
  if (model.includes('garbled')) return `Answer from ${model}: it depends on many things.`;
  const decision = model.includes('reject') ? 'reject' : model.includes('unclear') ? 'unclear' : 'approve';
  const json = JSON.stringify({ decision, confidence: 0.8, reasons: [`${model} read the evidence`] });
  if (prompt.includes('no decision in the required form')) return json;
  return `Answer from ${model}: the change ${decision === 'reject' ? 'breaks' : 'keeps'} the contract.\n\n\`\`\`json\n${json}\n\`\`\`\n`;
}
