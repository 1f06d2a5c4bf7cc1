import * as z from 'zod';
import { BiasStoreError } from './bias-store-error.js';
import { describeZodError } from './describe-zod-error.js';
import { parseIsoTimestamp } from './iso-timestamp.js';

/** The `schema_version` this package writes for contribution records. */
export const contributionSchemaVersion = '1.0.0';

/** How the session's chairman answered: a synthesis (`consensus`) or a reported winner (`voting`). */
export type ContributionMode = 'consensus' | 'voting';

/**
 * One member's part in one session's synthesis (design doc 004 §7, table `consensus_contributions`), in the
 * camelCase of the TypeScript API; on disk it is the snake_case line `contributionRecordSchema` maps to and from.
 * It holds ids and numbers only: the chairman's `reason` may quote the question, so it stays in the history log.
 */
export interface ContributionRecord {
  /** `"1.0.0"` when written here; any `"1.x.y"` is read (later minors only add fields). */
  schemaVersion: string;
  /** `<session_id>:<member>`: one record per member and session, so a repeated write is recognised on read. */
  recordId: string;
  sessionId: string;
  /** The conversation of a follow-up session, or null. */
  conversationId: string | null;
  /** The session's time, ISO 8601 with a zone when written here. */
  timestamp: string;
  /** The member id (a model id, or a personality id). */
  member: string;
  /** The model that played the member. */
  model: string;
  /** The personality id when the member is a personality (its id differs from its model's), else null. */
  personality: string | null;
  strategy: string;
  mode: ContributionMode;
  /**
   * The member's normalised weight in the chairman's contributors block (weights sum to 1 over the block);
   * 0 when the block exists and does not credit the member; null when the chairman gave no usable block.
   */
  weight: number | null;
  /** The member was the single leader of the stage-2 Borda leaderboard (no leader on a tie for first). */
  voteWinner: boolean;
  /** The Council version that wrote the record, or null. */
  configVersion: string | null;
}

/** The snake_case line on disk (unknown fields are ignored on read); built on the codec's first use. */
function diskContributionSchema() {
  const nonEmpty = z.string().min(1);
  return z.object({
    schema_version: z.string().regex(/^1(?:\.\d+){0,2}$/, { message: 'expected a "1.x.y" version' }),
    record_id: nonEmpty,
    session_id: nonEmpty,
    conversation_id: nonEmpty.nullable(),
    timestamp: z.string().refine((value) => parseIsoTimestamp(value) !== null, {
      message: 'expected an ISO 8601 date-time such as 2025-12-17T10:30:00Z',
    }),
    member: nonEmpty,
    model: nonEmpty,
    personality: nonEmpty.nullable(),
    strategy: nonEmpty,
    mode: z.enum(['consensus', 'voting']),
    weight: z.number().min(0).max(1).nullable(),
    vote_winner: z.boolean(),
    config_version: z.string().nullable(),
  });
}

type DiskContributionSchema = ReturnType<typeof diskContributionSchema>;
type DiskContribution = z.input<DiskContributionSchema>;

function decode(disk: z.output<DiskContributionSchema>): ContributionRecord {
  return {
    schemaVersion: disk.schema_version,
    recordId: disk.record_id,
    sessionId: disk.session_id,
    conversationId: disk.conversation_id,
    timestamp: disk.timestamp,
    member: disk.member,
    model: disk.model,
    personality: disk.personality,
    strategy: disk.strategy,
    mode: disk.mode,
    weight: disk.weight,
    voteWinner: disk.vote_winner,
    configVersion: disk.config_version,
  };
}

function encode(record: ContributionRecord): DiskContribution {
  return {
    schema_version: record.schemaVersion,
    record_id: record.recordId,
    session_id: record.sessionId,
    conversation_id: record.conversationId,
    timestamp: record.timestamp,
    member: record.member,
    model: record.model,
    personality: record.personality,
    strategy: record.strategy,
    mode: record.mode,
    weight: record.weight,
    vote_winner: record.voteWinner,
    config_version: record.configVersion,
  };
}

/**
 * The `ContributionRecord` codec: `safeDecode(line)` validates a snake_case line and gives the camelCase
 * record; `encode(record)` gives the line's object. Reads any schema `1.x.y`; another major fails here and is
 * skipped (and counted as `unsupported_version`) by the store. Built on its first use (`z.lazy`), not at module
 * load, like `biasMetricRecordSchema`: a command that reads no contributions never builds it.
 */
export const contributionRecordSchema: z.ZodLazy<
  z.ZodCodec<DiskContributionSchema, z.ZodCustom<ContributionRecord, ContributionRecord>>
> = z.lazy(() =>
  z.codec(
    diskContributionSchema(),
    z.custom<ContributionRecord>((value) => typeof value === 'object' && value !== null),
    { decode: (disk) => decode(disk), encode: (record) => encode(record) },
  ),
);

/** The record id of a member's record in a session. */
export function contributionRecordId(sessionId: string, member: string): string {
  return `${sessionId}:${member}`;
}

/** Why a record may not be written, or undefined when it may: the rules past the schema. */
export function contributionWriteProblem(record: ContributionRecord): string | undefined {
  if (record.schemaVersion !== contributionSchemaVersion)
    return `schema_version must be "${contributionSchemaVersion}" on write`;
  if (record.recordId !== contributionRecordId(record.sessionId, record.member))
    return 'record_id must be "<session_id>:<member>"';
  const parsed = parseIsoTimestamp(record.timestamp);
  if (parsed === null || !parsed.hasZone) return 'timestamp must be ISO 8601 with a zone (e.g. 2025-12-17T10:30:00Z)';
  if (record.weight !== null && !Number.isFinite(record.weight)) return 'weight must be a number from 0 to 1, or null';
  if (record.personality !== null && record.personality !== record.member)
    return 'personality must be the member id (or null)';
  return undefined;
}

/** Validates one on-disk (snake_case) record; returns the error instead of throwing. */
export function safeParseContributionRecord(
  line: unknown,
): { success: true; value: ContributionRecord } | { success: false; error: BiasStoreError } {
  const result = contributionRecordSchema.safeDecode(line as DiskContribution);
  if (result.success) return { success: true, value: result.data };
  return {
    success: false,
    error: new BiasStoreError({
      code: 'INVALID_RECORD',
      message: `Not a contribution record (${describeZodError(result.error)}).`,
      cause: result.error,
    }),
  };
}
