/** "1 session", "2 sessions", "0 sessions": a count with its noun (the plural is the noun + "s" unless given). */
export function countNoun(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}
