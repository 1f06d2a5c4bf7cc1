import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGzip, constants as zlibConstants } from 'node:zlib';

/**
 * The team-scale benchmark's store: `sessions` sessions of a 5-member council in which every member reviews the four
 * others (20 records a session, so 1,000,000 sessions are 20,000,000 records), spread evenly over one year, written as
 * the closed gzip segments of one JSONL store (1,000,000 records a segment) beside an empty active file.
 *
 * What makes it a team's store rather than copies of one session: seven models over three council configuration
 * versions (the roster changes twice), a harsh reviewer (about 1.5 points below the others) and a lenient one, answers
 * of a latent quality whose length is correlated with it, a primacy effect (the answer shown first gets +0.4), scores
 * on a 1–10 scale in half points, ranks that follow the scores (ties by display order), one session in twenty ranked
 * without scores, reviewers' timestamps a few seconds apart, varied query categories, buckets and languages.
 */
export const teamStoreVersion = 1;

const models = [
  'anthropic/claude-opus-4.6',
  'openai/gpt-5.1',
  'google/gemini-3-pro-preview',
  'x-ai/grok-4',
  'meta-llama/llama-4-maverick',
  'mistralai/mistral-large-2512',
  'deepseek/deepseek-v3.2',
] as const;

/** The rosters by configuration version, a third of the year each; mistral (index 5) is the harsh reviewer. */
const configs = [
  { version: '2025.1.0', members: [0, 1, 2, 3, 4] },
  { version: '2025.2.0', members: [0, 1, 2, 5, 4] },
  { version: '2025.3.0', members: [0, 1, 6, 5, 2] },
] as const;

const reviewerOffset = [0, 0.2, 0.4, -0.2, 0, -1.5, 0.1];
const categories = ['coding', 'coding', 'coding', 'writing', 'analysis', 'math', 'general', 'creative'];
const buckets = ['0-100', '100-500', '100-500', '500-2000', '2000+'];
const languages = ['en', 'en', 'en', 'en', 'de', 'fr', 'es', 'ja'];

/** The first session's time; the sessions fill the 365 days from here evenly. */
export const teamStoreStart = Date.parse('2025-01-01T00:00:00Z');
const yearMs = 365 * 86_400_000;
export const recordsPerSession = 20;
const recordsPerSegment = 1_000_000;

/** A "now" a day after the last session: every session is in a window of `--days 100000`. */
export const teamStoreNow = new Date(teamStoreStart + yearMs + 86_400_000).toISOString();

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hex8 = (n: number): string => (n >>> 0).toString(16).padStart(8, '0');

/** The JSONL lines of one session (20 records). */
function sessionLines(s: number, sessions: number, random: () => number): string {
  const step = Math.floor(yearMs / sessions);
  const at = teamStoreStart + s * step;
  const config = configs[Math.min(2, Math.floor((s * 3) / sessions))]!;
  const id = `${hex8(random() * 2 ** 32)}-${hex8(s).slice(0, 4)}-4${hex8(s).slice(5, 8)}-a${hex8(random() * 2 ** 32).slice(0, 3)}-${hex8(random() * 2 ** 32)}${hex8(s).slice(4, 8)}`;
  const unscored = random() < 0.05;
  const quality = config.members.map(() => random() * 4 - 2);
  const lengths = quality.map((q) => Math.max(80, Math.round(1800 + q * 350 + (random() - 0.5) * 2400)));
  const meta =
    `"query_metadata":{"category":"${categories[Math.floor(random() * categories.length)]}",` +
    `"token_count_bucket":"${buckets[Math.floor(random() * buckets.length)]}","language":"${languages[Math.floor(random() * languages.length)]}"}`;
  let out = '';
  for (let r = 0; r < 5; r++) {
    const reviewer = config.members[r]!;
    const timestamp = new Date(at + 20_000 + r * 1_500 + Math.floor(random() * 1_000)).toISOString();
    const shown = [0, 1, 2, 3, 4].filter((c) => c !== r);
    for (let i = shown.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [shown[i], shown[j]] = [shown[j]!, shown[i]!];
    }
    const scores = shown.map((c, position) => {
      const raw = 6.2 + quality[c]! + reviewerOffset[reviewer]! + (position === 0 ? 0.4 : 0) + (random() - 0.5) * 2.5;
      return Math.max(1, Math.min(10, Math.round(raw * 2) / 2));
    });
    const order = shown.map((_, position) => position).sort((a, b) => scores[b]! - scores[a]! || a - b);
    for (let position = 0; position < shown.length; position++) {
      const c = shown[position]!;
      out +=
        `{"schema_version":"1.1.0","session_id":"${id}","timestamp":"${timestamp}","consent_level":1,${meta},` +
        `"reviewer_id":"${models[reviewer]}","model_id":"${models[config.members[c]!]}","position":${position},` +
        `"response_length_chars":${lengths[c]},"score_value":${unscored ? 'null' : scores[position]},` +
        `"score_scale":${unscored ? 'null' : '"1-10"'},"council_config_version":"${config.version}","query_hash":null,` +
        `"rank_position":${order.indexOf(position)}}\n`;
    }
  }
  return out;
}

export interface TeamStore {
  /** The store's active file (empty; the records are in the gzip segments beside it). */
  store: string;
  sessions: number;
  records: number;
}

/** Writes the store under `dir` (`store/bias_metrics.jsonl` and its segments) unless a finished one is there. */
export async function ensureTeamStore(
  dir: string,
  sessions: number,
): Promise<TeamStore & { generatedSeconds: number | null }> {
  const storeDir = join(dir, 'store');
  const done = join(dir, 'store.done.json');
  const store = join(storeDir, 'bias_metrics.jsonl');
  if (existsSync(done))
    return { ...(JSON.parse(readFileSync(done, 'utf8')) as TeamStore), store, generatedSeconds: null };
  const started = performance.now();
  rmSync(storeDir, { recursive: true, force: true });
  mkdirSync(storeDir, { recursive: true, mode: 0o700 });
  const random = mulberry32(20_251_124);
  let segment = 0;
  let records = 0;
  let gzip: ReturnType<typeof createGzip> | null = null;
  let finishing: Promise<void> = Promise.resolve();
  const close = async (): Promise<void> => {
    if (gzip === null) return;
    gzip.end();
    await finishing;
    gzip = null;
  };
  let chunk = '';
  const flush = async (): Promise<void> => {
    if (chunk === '' || gzip === null) return;
    if (!gzip.write(chunk)) await once(gzip, 'drain');
    chunk = '';
  };
  for (let s = 0; s < sessions; s++) {
    if (records % recordsPerSegment === 0) {
      await flush();
      await close();
      segment++;
      const path = join(storeDir, `bias_metrics.${String(segment).padStart(6, '0')}.jsonl.gz`);
      const current = createGzip({ level: zlibConstants.Z_BEST_SPEED });
      const file = createWriteStream(`${path}.part`, { mode: 0o600 });
      current.pipe(file);
      finishing = once(file, 'close').then(() => renameSync(`${path}.part`, path));
      gzip = current;
    }
    chunk += sessionLines(s, sessions, random);
    records += recordsPerSession;
    if (chunk.length > 1 << 20) await flush();
  }
  await flush();
  await close();
  writeFileSync(store, '', { mode: 0o600 });
  const result: TeamStore = { store, sessions, records };
  writeFileSync(done, JSON.stringify(result) + '\n');
  return { ...result, generatedSeconds: (performance.now() - started) / 1000 };
}
