import type { CouncilMember, Personality } from '@council/core';

/** Who sits on a council: what `runCouncil` gets for each id, and the model ids behind them. */
export interface CouncilSeats {
  members: CouncilMember[];
  chairman: CouncilMember;
  /** The model behind each member and the chairman, for the key check (`checkModels`). */
  modelIds: string[];
  /** True when every member is played by a `simulated:` model. */
  simulated: boolean;
}

/**
 * Seats the council: an id that names a personality in `$LLM_COUNCIL_HOME/personalities` is that
 * personality (its model, with its system prompt; the session records the personality id as the member),
 * and any other id is a model id. A personality id wins over a model id of the same spelling. Works the
 * same for `--models`, `--chairman` and the configuration's `members` and `chairman`.
 */
export function seatCouncil(options: {
  members: readonly string[];
  chairman: string;
  personalities: readonly Personality[];
}): CouncilSeats {
  const byId = new Map(options.personalities.map((p) => [p.id, p]));
  const seat = (id: string): CouncilMember => byId.get(id) ?? id;
  const modelOf = (id: string): string => byId.get(id)?.model ?? id;
  return {
    members: options.members.map(seat),
    chairman: seat(options.chairman),
    modelIds: [...options.members, options.chairman].map(modelOf),
    simulated: options.members.every((id) => modelOf(id).startsWith('simulated:')),
  };
}
