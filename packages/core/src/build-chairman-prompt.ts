import type { CouncilConfig, SynthesisMode } from './council-config.js';
import { fillTemplate } from './fill-template.js';
import type { Critique } from './parse-evaluation.js';

/** One member's material for the chairman: its answer, its standing, and what peers wrote about it. */
export interface ChairmanInput {
  member: string;
  text: string;
  /** 1-based leaderboard rank, when scored. */
  rank?: number;
  /** Borda score 0..1, when scored. */
  bordaScore?: number;
  critiques: readonly Critique[];
}

export interface BuildChairmanPromptOptions {
  config: Pick<CouncilConfig, 'consensusPrompt' | 'attributionFormat' | 'votingInstruction'>;
  query: string;
  inputs: readonly ChairmanInput[];
  /** The resolved strategic directive. */
  directive: string;
  mode: SynthesisMode;
}

/**
 * The stage-3 chairman prompt: design doc §5.3's skeleton (`consensus_prompt`) with the strategic
 * directive swapped in. Each answer appears under a line `Model: <member-id>`; leaderboard standing
 * and peer critiques follow the answers; the `attribution_format` asks for the `contributors` block
 * (§7.2), and in `voting` mode the `voting_instruction` also asks for the winner.
 */
export function buildChairmanPrompt(options: BuildChairmanPromptOptions): string {
  const ids = options.inputs.map((i) => i.member);
  const memberIds = ids.map((id) => `"${id}"`).join(', ');
  const responses = options.inputs.map((i) => `Model: ${i.member}\n${i.text}`).join('\n\n');
  const evaluations = options.inputs
    .map((i) => {
      const standing =
        i.rank === undefined
          ? 'not ranked'
          : `leaderboard rank ${i.rank} of ${ids.length}${i.bordaScore === undefined ? '' : `, Borda score ${i.bordaScore.toFixed(2)}`}`;
      const notes = i.critiques
        .filter((c) => c.strengths !== '' || c.weaknesses !== '')
        .map((c) => `- Strengths: ${c.strengths || '(none given)'}\n  Weaknesses: ${c.weaknesses || '(none given)'}`);
      return `Peer reviews of ${i.member} (${standing}):\n${notes.length > 0 ? notes.join('\n') : '- (no written critiques)'}`;
    })
    .join('\n\n');
  return fillTemplate(options.config.consensusPrompt, {
    query: options.query,
    count: String(options.inputs.length),
    responses,
    evaluations,
    directive: options.directive,
    mode_instruction:
      options.mode === 'voting' ? fillTemplate(options.config.votingInstruction, { member_ids: memberIds }) : '',
    attribution_format: fillTemplate(options.config.attributionFormat, { member_ids: memberIds }),
  });
}
