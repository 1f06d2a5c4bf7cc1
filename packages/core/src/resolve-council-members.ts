import type { LanguageModelV1 } from '@council/providers';
import { CouncilError } from './council-error.js';
import type { CouncilConfig } from './council-config.js';
import type { CouncilMember, ResolvedMember } from './council-member.js';
import { MAX_COUNCIL_MEMBERS } from './max-council-members.js';
import { resolveMember } from './resolve-member.js';

export interface ResolveCouncilMembersOptions {
  members?: readonly CouncilMember[] | undefined;
  chairman?: CouncilMember | undefined;
  chairmanFallbacks?: readonly CouncilMember[] | undefined;
  config: Pick<CouncilConfig, 'members' | 'chairman' | 'chairmanFallbacks'>;
  resolveModel: (id: string) => LanguageModelV1;
}

export interface CouncilMembers {
  members: ResolvedMember[];
  /** The chairman first, then its fallbacks in order, each id once. */
  chairmen: ResolvedMember[];
}

function invalid(message: string): CouncilError {
  return new CouncilError({ code: 'INVALID_OPTION', message });
}

/**
 * The members (unique ids, at least one, at most `MAX_COUNCIL_MEMBERS`) and the chairmen to try in turn: the chairman (default: the
 * configured one, else the first member) then its fallbacks. Throws `INVALID_OPTION` naming the role.
 */
export function resolveCouncilMembers(options: ResolveCouncilMembersOptions): CouncilMembers {
  const { config, resolveModel } = options;
  const memberOptions = options.members ?? config.members;
  if (memberOptions.length === 0)
    throw invalid('members is empty: pass at least two model ids (or set LLM_COUNCIL_MODELS).');
  if (memberOptions.length > MAX_COUNCIL_MEMBERS) {
    throw invalid(
      `members has ${memberOptions.length} entries; a council has at most ${MAX_COUNCIL_MEMBERS} members (MAX_COUNCIL_MEMBERS): every reviewer reads every answer. Choose fewer.`,
    );
  }
  const members = memberOptions.map((m, i) => resolveMember(m, { resolveModel, role: `members[${i}]` }));
  const seen = new Set<string>();
  for (const member of members) {
    if (seen.has(member.id))
      throw invalid(
        `members has "${member.id}" twice; member ids must be unique (wrap one in { id, model } to give it another id).`,
      );
    seen.add(member.id);
  }
  const chairmen: ResolvedMember[] = [];
  const chairmanCandidates = [
    options.chairman ?? config.chairman ?? memberOptions[0]!,
    ...(options.chairmanFallbacks ?? config.chairmanFallbacks),
  ];
  chairmanCandidates.forEach((c, i) => {
    const resolved = resolveMember(c, { resolveModel, role: i === 0 ? 'chairman' : `chairmanFallbacks[${i - 1}]` });
    if (!chairmen.some((x) => x.id === resolved.id)) chairmen.push(resolved);
  });
  return { members, chairmen };
}
