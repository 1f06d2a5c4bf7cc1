import type { LeaderboardEntry } from '@council/scoring';
import type { CouncilConfig } from './council-config.js';
import type { Stage1Result } from './council-session.js';
import { decideVerdict, juryWeight, pivotalJurors } from './decide-verdict.js';
import type { DecideVerdictOptions, VerdictTally } from './decide-verdict.js';
import { fillTemplate } from './fill-template.js';
import type { JuryDecision, VerdictMode } from './jury-decision.js';
import { parseVerdictText } from './parse-verdict-text.js';
import type { JurorRecord, SessionVerdict } from './session-verdict.js';

export interface JuryRuleInputs {
  stage1: readonly Stage1Result[];
  leaderboard: readonly LeaderboardEntry[];
  mode: VerdictMode;
  minMargin: number;
  quorum: number;
  reviewerFlags: Readonly<Record<string, readonly string[]>>;
}

/** Each member's vote as recorded: its decision (unread → unclear, failed → none) and its Borda weight. */
export function jurorRecords(inputs: JuryRuleInputs): JurorRecord[] {
  const standing = new Map(inputs.leaderboard.map((e) => [e.candidate, e]));
  return inputs.stage1.map((s) => {
    const entry = standing.get(s.member);
    const flags = inputs.reviewerFlags[s.member] ?? inputs.reviewerFlags[s.model] ?? [];
    const scored = entry !== undefined && entry.voteCount > 0;
    const base = {
      member: s.member,
      model: s.model,
      bordaScore: scored ? entry.bordaScore : null,
      reviewerFlags: [...flags],
    };
    if (s.text === null || s.decision === undefined)
      return { ...base, decision: null, read: 'failed', confidence: null, reasons: [], weight: 0 };
    return {
      ...base,
      decision: s.decision.decision ?? 'unclear',
      read: s.decision.read,
      confidence: s.decision.confidence,
      reasons: s.decision.reasons,
      weight: juryWeight(entry),
    };
  });
}

function ruleOptions(
  inputs: JuryRuleInputs,
  votes: readonly JurorRecord[],
  chairman: JuryDecision | null,
): DecideVerdictOptions {
  return { votes, mode: inputs.mode, minMargin: inputs.minMargin, quorum: inputs.quorum, chairmanDecision: chairman };
}

/** The rule's verdict before the chairman has spoken (the chairman's prompt states it). */
export function provisionalVerdict(inputs: JuryRuleInputs): { votes: JurorRecord[]; tally: VerdictTally } {
  const votes = jurorRecords(inputs);
  return { votes, tally: decideVerdict(ruleOptions(inputs, votes, null)) };
}

const signed = (margin: number) => `${margin >= 0 ? '+' : '−'}${Math.abs(margin).toFixed(2)}`;

/** Jury mode's addition to the chairman's directive: the votes and what the rule decided. */
export function juryChairmanDirective(options: {
  config: Pick<CouncilConfig, 'juryChairmanPrompt'>;
  inputs: JuryRuleInputs;
  votes: readonly JurorRecord[];
  tally: VerdictTally;
}): string {
  const { tally, inputs } = options;
  const votes = options.votes
    .map((v) => {
      if (v.decision === null) return `- ${v.member}: no answer (its call failed)`;
      const confidence = v.confidence === null ? '' : `, confidence ${v.confidence.toFixed(2)}`;
      const unread = v.read === 'unread' ? ' (no decision could be read: counted as unclear)' : '';
      return `- ${v.member}: ${v.decision}${unread}${confidence}, weight ${v.weight.toFixed(2)}`;
    })
    .join('\n');
  let verdict: string;
  if (tally.reason === 'tie' && inputs.mode === 'tie-breaker')
    verdict =
      'The jury is tied exactly: your own decision (approve or reject) breaks the tie. Explain it in the rationale.';
  else if (tally.decision === 'unclear')
    verdict = `By the rule the verdict is UNCLEAR (${describeReason(tally, inputs)}). Explain what would be needed to decide.`;
  else
    verdict = `By the rule the verdict is ${tally.decision.toUpperCase()} (weighted margin ${signed(tally.margin)}). Your own decision does not change it; give it honestly.`;
  return fillTemplate(options.config.juryChairmanPrompt, { votes, verdict });
}

/** The reason for a verdict, in words, for prompts and output. */
export function describeReason(
  tally: Pick<VerdictTally, 'reason' | 'margin' | 'decided'>,
  rule: { minMargin: number; quorum: number },
): string {
  switch (tally.reason) {
    case 'majority':
      return `weighted majority, margin ${signed(tally.margin)}`;
    case 'tie':
      return 'an exact tie between approve and reject';
    case 'tie-breaker':
      return "an exact tie, broken by the chairman's decision";
    case 'below-margin':
      return `margin ${signed(tally.margin)} is below the threshold ${rule.minMargin.toFixed(2)}`;
    case 'no-quorum':
      return `${tally.decided === 0 ? 'no member' : `only ${tally.decided} member${tally.decided === 1 ? '' : 's'}`} decided approve or reject; the quorum is ${rule.quorum}`;
  }
}

/** The session's verdict once the chairman has spoken (or failed: `chairmanText` null). */
export function finalVerdict(options: {
  inputs: JuryRuleInputs;
  votes: JurorRecord[];
  chairmanText: string | null;
}): SessionVerdict {
  const { inputs, votes } = options;
  const parsed = options.chairmanText === null ? null : parseVerdictText(options.chairmanText);
  const chairmanDecision = parsed?.decision ?? null;
  const rule = ruleOptions(inputs, votes, chairmanDecision);
  const tally = decideVerdict(rule);
  const pivotal = pivotalJurors(rule);
  const warnings: string[] = [];
  const unread = votes.filter((v) => v.read === 'unread').map((v) => v.member);
  if (unread.length > 0)
    warnings.push(
      `no decision could be read from ${unread.join(', ')}, even after a repair request; counted as unclear.`,
    );
  if (parsed !== null && parsed.decision === null) warnings.push('the chairman gave no "Decision:" line.');
  if (parsed !== null && parsed.dissent === null) warnings.push('the chairman wrote no dissent section.');
  return {
    mode: inputs.mode,
    decision: tally.decision,
    reason: tally.reason,
    margin: tally.margin,
    minMargin: inputs.minMargin,
    quorum: inputs.quorum,
    approveWeight: tally.approveWeight,
    rejectWeight: tally.rejectWeight,
    unclearWeight: tally.unclearWeight,
    totalWeight: tally.totalWeight,
    votes,
    pivotal,
    flipSensitive: pivotal.length > 0,
    chairmanDecision,
    rationale: parsed?.rationale ?? null,
    dissent: parsed?.dissent ?? null,
    warnings,
  };
}
