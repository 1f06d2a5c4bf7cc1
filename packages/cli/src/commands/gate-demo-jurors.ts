import { createHash } from 'node:crypto';
import type { GenerateOptions, GenerateResult, LanguageModelV1 } from '@council/providers';

/** `council gate --demo`'s jury: three simulated personas, ada in the chair. */
export const GATE_DEMO_MEMBERS = ['simulated:ada', 'simulated:basil', 'simulated:cleo'] as const;

const REASONS: Record<string, readonly string[]> = {
  approve: ['the change is small and its intent is clear', 'the evidence shows the behaviour is covered'],
  reject: ['the evidence leaves a failure path untested', 'the change widens what callers must handle'],
  unclear: ['the evidence does not show how the change is used'],
};

/** A number in [0, 1) from a text, the same on every run (the demo's decisions are reproducible). */
function unitHash(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

const promptOf = (options: GenerateOptions) => options.messages.map((m) => m.content).join('\n');

/**
 * A simulated juror's decision: mostly approve, sometimes reject, rarely unclear, by persona and question (with its
 * evidence). The session's random boundary token is left out, so the same question and evidence get the same decisions.
 */
function decide(modelId: string, rawPrompt: string): { decision: string; confidence: number } {
  const prompt = rawPrompt.replace(/<<<\S+ /g, '<<<');
  const u = unitHash(`${modelId}\n${prompt}`);
  const decision = u < 0.6 ? 'approve' : u < 0.9 ? 'reject' : 'unclear';
  return { decision, confidence: Math.round((0.55 + unitHash(`${prompt}\n${modelId}`) * 0.4) * 100) / 100 };
}

/** The chairman's additions: its decision (the rule's, as the prompt states it) and the minority's argument. */
function chairmanParts(prompt: string): { decision: string; dissent: string } {
  const votes = [...prompt.matchAll(/^- (\S+): (approve|reject|unclear)\b/gm)].map((m) => ({
    member: m[1]!,
    decision: m[2]!,
  }));
  const stated = /By the rule the verdict is (APPROVE|REJECT|UNCLEAR)/.exec(prompt)?.[1]?.toLowerCase();
  const count = (d: string) => votes.filter((v) => v.decision === d).length;
  const decision = stated ?? (count('approve') >= count('reject') ? 'approve' : 'reject');
  const minority = votes.filter((v) => v.decision !== decision);
  const dissent =
    minority.length === 0
      ? 'None: every member decided the same way.'
      : minority.map((v) => `${v.member} (${v.decision}) held that ${REASONS[v.decision]![0]!}.`).join(' ');
  return { decision, dissent };
}

/**
 * Wraps a simulated model so it plays a juror (`ask --verdict`, `council gate --demo`): its stage-1 answer ends with a decision block
 * derived from its persona and the question, and as chairman it states a `Decision:` line and a `## Dissent` section
 * built from the votes it is shown. Other models pass through untouched; the wrapper never streams.
 */
export function simulatedJuror(model: LanguageModelV1): LanguageModelV1 {
  if (model.provider !== 'simulated') return model;
  return {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    async doGenerate(options: GenerateOptions): Promise<GenerateResult> {
      const result = await model.doGenerate(options);
      const prompt = promptOf(options);
      if (prompt.includes('You are one member of a jury')) {
        const { decision, confidence } = decide(model.modelId, prompt);
        const block = JSON.stringify({ decision, confidence, reasons: REASONS[decision] });
        return { ...result, text: `${result.text.trim()}\n\n\`\`\`json\n${block}\n\`\`\`` };
      }
      if (prompt.includes('# JURY')) {
        const { decision, dissent } = chairmanParts(prompt);
        // The simulated synthesis ends with its contributors block: the dissent goes before it.
        const fence = result.text.lastIndexOf('```json');
        const body = fence === -1 ? result.text : result.text.slice(0, fence);
        const tail = fence === -1 ? '' : result.text.slice(fence);
        return {
          ...result,
          text: `Decision: ${decision}\n\n${body.trim()}\n\n## Dissent\n\n${dissent}\n\n${tail}`.trim(),
        };
      }
      return result;
    },
  };
}
