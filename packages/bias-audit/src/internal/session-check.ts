/** What the checks of one summarised session share: its members, and the way to fail that names the session. */
export interface SessionCheck {
  members: ReadonlySet<string>;
  fail: (what: string) => never;
}

export const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
