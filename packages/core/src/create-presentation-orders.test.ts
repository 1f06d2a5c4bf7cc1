import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPresentationOrders } from './create-presentation-orders.js';
import { createSeededMulberry32 } from './create-seeded-mulberry32.js';
import { orderModes } from './order-mode.js';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `m${i}`);

describe('createPresentationOrders', () => {
  it('every order of every mode is a permutation of the candidates', () => {
    fc.assert(
      fc.property(
        fc.record({
          n: fc.integer({ min: 1, max: 30 }),
          reviewerCount: fc.integer({ min: 0, max: 40 }),
          seed: fc.integer(),
          mode: fc.constantFrom(...orderModes),
        }),
        ({ n, reviewerCount, seed, mode }) => {
          const orders = createPresentationOrders({
            candidates: ids(n),
            reviewerCount,
            mode,
            rng: createSeededMulberry32(seed),
          });
          expect(orders).toHaveLength(reviewerCount);
          for (const order of orders) expect([...order].sort()).toEqual([...ids(n)].sort());
        },
      ),
    );
  }, 30_000);

  it('shared: every reviewer sees the same order', () => {
    const orders = createPresentationOrders({
      candidates: ids(6),
      reviewerCount: 5,
      mode: 'shared',
      rng: createSeededMulberry32(3),
    });
    for (const order of orders) expect(order).toEqual(orders[0]);
  });

  it('per-reviewer: reviewers see independent orders', () => {
    const orders = createPresentationOrders({
      candidates: ids(6),
      reviewerCount: 8,
      mode: 'per-reviewer',
      rng: createSeededMulberry32(3),
    });
    // 720 orders for 6 items: eight independent draws are very unlikely to all agree.
    expect(new Set(orders.map((o) => o.join())).size).toBeGreaterThan(1);
  });

  it('is identical on every run for the same seed, in every mode', () => {
    for (const mode of orderModes) {
      const a = createPresentationOrders({
        candidates: ids(7),
        reviewerCount: 7,
        mode,
        rng: createSeededMulberry32('seed'),
      });
      const b = createPresentationOrders({
        candidates: ids(7),
        reviewerCount: 7,
        mode,
        rng: createSeededMulberry32('seed'),
      });
      expect(a).toEqual(b);
    }
  });

  it('latin-square: with as many reviewers as answers, each answer is in each position exactly once', () => {
    for (const n of [3, 4, 5, 6, 12]) {
      const orders = createPresentationOrders({
        candidates: ids(n),
        reviewerCount: n,
        mode: 'latin-square',
        rng: createSeededMulberry32(n),
      });
      for (let position = 0; position < n; position++) {
        const atPosition = orders.map((o) => o[position]);
        expect(new Set(atPosition).size).toBe(n);
      }
    }
  });

  it('latin-square: with twice as many reviewers, each answer is in each position exactly twice', () => {
    const n = 5;
    const orders = createPresentationOrders({
      candidates: ids(n),
      reviewerCount: 2 * n,
      mode: 'latin-square',
      rng: createSeededMulberry32(11),
    });
    for (const candidate of ids(n)) {
      for (let position = 0; position < n; position++) {
        expect(orders.filter((o) => o[position] === candidate)).toHaveLength(2);
      }
    }
    // Odd n over 2n rows: every ordered pair of neighbours occurs exactly twice (2n(n−1) adjacencies / n(n−1) pairs).
    const carry = new Map<string, number>();
    for (const o of orders)
      for (let i = 1; i < n; i++) carry.set(`${o[i - 1]}>${o[i]}`, (carry.get(`${o[i - 1]}>${o[i]}`) ?? 0) + 1);
    expect(carry.size).toBe(n * (n - 1));
    for (const count of carry.values()) expect(count).toBe(2);
  });
});
