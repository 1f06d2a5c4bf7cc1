import { describe, expect, it } from 'vitest';
import { assertQuorum } from './assert-quorum.js';
import type { Stage1Result } from './council-session.js';

const plan = { quorum: 2, timeouts: { stage1Ms: 1000, stage2Ms: 1000, stage3Ms: 1000 } };
const answer = (member: string): Stage1Result =>
  ({ member, text: 'an answer', error: null }) as unknown as Stage1Result;
const failed = (member: string, reason: string, message: string): Stage1Result =>
  ({ member, text: null, error: { reason, message } }) as unknown as Stage1Result;

// Issue 30 item 14: a refused connection was told to raise the stage timeouts; the advice now fits the failures.
describe('assertQuorum advice', () => {
  it('no answer and no timeout: fix the members, nothing about deadlines or the quorum', () => {
    const stage1 = [failed('a', 'network', 'refused.'), failed('b', 'network', 'refused.')];
    expect(() => assertQuorum(stage1, plan)).toThrow(
      'Only 0 of 2 members answered; the quorum is 2. a: refused; b: refused. Fix or replace the failing members.',
    );
  });

  it('one answered, one timed out: all three', () => {
    const stage1 = [answer('a'), failed('b', 'timeout', 'timed out')];
    expect(() => assertQuorum(stage1, plan)).toThrow(
      'b: timed out after 1000 ms. Fix or replace the failing members, raise timeouts.stage1Ms or lower the quorum.',
    );
  });

  it('one answered, none timed out: no deadline advice', () => {
    const stage1 = [answer('a'), failed('b', 'http', 'HTTP 500.')];
    expect(() => assertQuorum(stage1, plan)).toThrow(
      'b: HTTP 500. Fix or replace the failing members or lower the quorum.',
    );
  });
});
