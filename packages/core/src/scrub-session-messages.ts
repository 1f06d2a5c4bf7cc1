import { scrubSecrets } from '@council/providers';
import type { CouncilSession } from './council-session.js';

/** The parts of a session that hold messages (a saved one may lack some: sessions of older versions). */
type SessionMessages = Partial<Pick<CouncilSession, 'stage1' | 'stage2' | 'synthesis' | 'excluded' | 'warnings'>>;

/**
 * A session with every message in it — call errors, review warnings, the synthesis's warnings, exclusions, session
 * warnings — scrubbed of URL credentials and query-string keys (`scrubSecrets`); answers, reviews and the synthesis
 * are left as the models wrote them. `runCouncil` returns sessions so scrubbed, and readers of saved sessions pass
 * them through it again, so a session saved before the scrubbing shows no credential either.
 */
export function scrubSessionMessages<S extends SessionMessages>(session: S): S {
  // Defensive about shape: a saved line of an older (or damaged) session may lack a field or hold another type.
  const text = <T>(t: T): T => (typeof t === 'string' ? (scrubSecrets(t) as T) : t);
  const texts = <T>(list: T): T => (Array.isArray(list) ? (list.map(text) as T) : list);
  const error = <E>(e: E): E =>
    typeof e === 'object' && e !== null && 'message' in e ? { ...e, message: text(e.message) } : e;
  return {
    ...session,
    ...(Array.isArray(session.stage1) ? { stage1: session.stage1.map((s) => ({ ...s, error: error(s.error) })) } : {}),
    ...(Array.isArray(session.stage2)
      ? { stage2: session.stage2.map((r) => ({ ...r, error: error(r.error), warnings: texts(r.warnings) })) }
      : {}),
    ...(typeof session.synthesis === 'object' && session.synthesis !== null
      ? { synthesis: { ...session.synthesis, warnings: texts(session.synthesis.warnings) } }
      : {}),
    ...(Array.isArray(session.excluded) ? { excluded: session.excluded.map(error) } : {}),
    ...(Array.isArray(session.warnings) ? { warnings: texts(session.warnings) } : {}),
  };
}
