import { createWriteStream } from 'node:fs';

/**
 * Writes `sessions` council sessions of 5 members (each reviews all 5, so 25 records a session) to a
 * bias store file in ADR-018 v1.1's on-disk format, fast (no validation): input for the benchmarks.
 * Scores carry a small position effect and reviewer offsets, so the report has real work to do.
 */
export async function writeBiasFixture(path: string, sessions: number): Promise<number> {
  const members = ['bench/ada', 'bench/basil', 'bench/cleo', 'bench/dmitri', 'bench/edda'];
  const start = Date.parse('2026-01-01T00:00:00Z');
  const out = createWriteStream(path);
  let seed = 12345;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  let chunk = '';
  let records = 0;
  for (let s = 0; s < sessions; s++) {
    const id = `00000000-0000-4000-8000-${String(s).padStart(12, '0')}`;
    const timestamp = new Date(start + s * 60_000).toISOString();
    for (let r = 0; r < members.length; r++) {
      const shift = Math.floor(rand() * members.length);
      for (let c = 0; c < members.length; c++) {
        const position = (c + shift) % members.length;
        const score = Math.max(
          1,
          Math.min(10, Math.round(6 + (position === 0 ? 0.8 : 0) - (r === 3 ? 1 : 0) + (rand() - 0.5) * 3)),
        );
        chunk +=
          `{"schema_version":"1.1.0","session_id":"${id}","timestamp":"${timestamp}","consent_level":1,` +
          `"query_metadata":{"category":"coding","token_count_bucket":"100-500","language":"en"},` +
          `"reviewer_id":"${members[r]}","model_id":"${members[c]}","position":${position},"response_length_chars":${400 + Math.floor(rand() * 1600)},` +
          `"score_value":${score},"score_scale":"1-10","council_config_version":"1.0.0","query_hash":null,"rank_position":${position}}\n`;
        records++;
      }
    }
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      chunk = '';
    }
  }
  out.write(chunk);
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return records;
}
