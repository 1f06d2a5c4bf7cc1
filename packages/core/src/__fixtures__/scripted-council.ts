import type { GenerateOptions, GenerateResult, LanguageModelV1 } from '@council/providers';

/** What a scripted member does with one call: answer text, a delayed answer, an error, or never answer. */
export type ScriptedReply = string | { text: string; delayMs?: number } | { error: Error } | { hang: true };

export type ScriptedRole = 'answer' | 'review' | 'chairman';

export interface ScriptedCall {
  role: ScriptedRole;
  prompt: string;
  options: GenerateOptions;
}

export interface TestModel extends LanguageModelV1 {
  readonly calls: ScriptedCall[];
}

/** The role of a prompt, by the prompt contract: `contributors` → chairman, `FINAL RANKING` → review. */
export function roleOf(prompt: string): ScriptedRole {
  if (/\bcontributors\b/.test(prompt) && /^Model: /m.test(prompt)) return 'chairman';
  if (prompt.includes('FINAL RANKING')) return 'review';
  return 'answer';
}

/** The labelled blocks of a review prompt, in order: `<<<tok Response X>>>` … `<<<tok END>>>`. */
export function reviewBlocks(prompt: string): Array<{ label: string; text: string; boundary: string }> {
  const blocks: Array<{ label: string; text: string; boundary: string }> = [];
  const pattern = /^<<<(\S+) (Response [A-Z]+)>>>\n([\s\S]*?)\n<<<\1 END>>>$/gm;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(prompt)) !== null)
    blocks.push({ boundary: match[1]!, label: match[2]!, text: match[3]! });
  return blocks;
}

/** A review that ranks the blocks by `preference` (higher first) read from each answer's text, with scores. */
export function reviewByPreference(prompt: string, preference: (answerText: string) => number): string {
  const blocks = reviewBlocks(prompt);
  const ranked = [...blocks].sort((a, b) => preference(b.text) - preference(a.text));
  const scores = Object.fromEntries(
    blocks.map((b) => [b.label, Math.max(1, Math.min(10, Math.round(preference(b.text))))]),
  );
  const critiques = blocks
    .map(
      (b) =>
        `### ${b.label}\n**Strengths**: strong on ${b.text.slice(0, 20)}\n**Weaknesses**: could be shorter\n**Score**: ${scores[b.label]}`,
    )
    .join('\n\n');
  return `${critiques}\n\n\`\`\`json\n${JSON.stringify({ ranking: ranked.map((b) => b.label), scores })}\n\`\`\`\n\nFINAL RANKING:\n${ranked.map((b, i) => `${i + 1}. ${b.label}`).join('\n')}`;
}

/**
 * A tiny scripted `LanguageModelV1`: `respond` decides each reply from the role and prompt; usage is
 * fixed (10 in, 5 out, $0.001) so totals can be worked out by hand. Records every call.
 */
export function testModel(id: string, respond: (call: ScriptedCall) => ScriptedReply): TestModel {
  const calls: ScriptedCall[] = [];
  return {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: id,
    calls,
    async doGenerate(options: GenerateOptions): Promise<GenerateResult> {
      const prompt = options.messages.map((m) => m.content).join('\n');
      const call: ScriptedCall = { role: roleOf(prompt), prompt, options };
      calls.push(call);
      const reply = respond(call);
      if (typeof reply === 'object' && 'hang' in reply) return new Promise<GenerateResult>(() => undefined);
      if (typeof reply === 'object' && 'error' in reply) throw reply.error;
      const { text, delayMs } = typeof reply === 'string' ? { text: reply, delayMs: 0 } : reply;
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
      return {
        text,
        usage: { inputTokens: 10, outputTokens: 5, costUsd: 0.001 },
        finishReason: 'stop',
        latencyMs: delayMs ?? 0,
      };
    },
  };
}

/** A fixed clock for byte-identical sessions. */
export const fixedClock = { now: (): number => Date.UTC(2026, 10, 22, 10, 30, 0) };

/** A chairman reply crediting the given members with the given raw weights. */
export function chairmanReply(text: string, weights: Record<string, number>, winner?: string): string {
  const contributors = Object.entries(weights).map(([id, weight]) => ({ id, weight, reason: `ideas from ${id}` }));
  return `${text}\n\n\`\`\`json\n${JSON.stringify(winner === undefined ? { contributors } : { winner, contributors })}\n\`\`\``;
}
