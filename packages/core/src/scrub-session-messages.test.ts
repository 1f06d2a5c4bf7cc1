import { describe, expect, it } from 'vitest';
import { scrubSessionMessages } from './scrub-session-messages.js';

const leaky =
  'The connection to vllm at http://user:PASS@127.0.0.1:9 failed: No route for POST /v1/chat/completions?key=QKEY';
const clean =
  'The connection to vllm at http://127.0.0.1:9 failed: No route for POST /v1/chat/completions?key=[REDACTED]';

describe('scrubSessionMessages', () => {
  it('scrubs every message of a session and leaves what the models wrote as written', () => {
    const session = {
      sessionId: 's',
      stage1: [
        { member: 'a', text: 'see http://u:p@docs.example/?token=T', error: null },
        { member: 'b', text: null, error: { reason: 'error', code: 'API_CALL', message: leaky } },
      ],
      stage2: [{ reviewer: 'a', text: 'fine', error: null, warnings: [leaky] }],
      synthesis: { text: 'answer', warnings: [leaky] },
      excluded: [{ member: 'b', stage: 1, reason: 'error', message: leaky }],
      warnings: [leaky],
    };
    const scrubbed = scrubSessionMessages(session as never) as unknown as typeof session;
    expect(scrubbed.stage1[1]!.error).toEqual({ reason: 'error', code: 'API_CALL', message: clean });
    expect(scrubbed.stage2[0]!.warnings).toEqual([clean]);
    expect(scrubbed.synthesis.warnings).toEqual([clean]);
    expect(scrubbed.excluded[0]!.message).toBe(clean);
    expect(scrubbed.warnings).toEqual([clean]);
    // An answer may quote a URL the user asked about: it is the model's text, kept.
    expect(scrubbed.stage1[0]!.text).toBe('see http://u:p@docs.example/?token=T');
    expect(JSON.stringify({ ...scrubbed, stage1: [] })).not.toMatch(/PASS|QKEY/);
  });

  it('takes a saved session of an older or damaged shape as it is', () => {
    expect(scrubSessionMessages({ sessionId: 'old' } as never)).toEqual({ sessionId: 'old' });
    const odd = {
      stage1: [{ member: 'a', error: { message: 42 } }],
      stage2: [{ reviewer: 'a', error: null }],
      synthesis: null,
      warnings: 'not a list',
    };
    expect(scrubSessionMessages(odd as never)).toEqual(odd);
  });
});
