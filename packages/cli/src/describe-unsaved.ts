/**
 * The note of readers that left sessions out: how many, and where to look. Its own module so that `bias-report`
 * does not load `history`'s (core, the session renderer and cli-table3) for one sentence.
 */
export function describeUnsaved(sessions: number): string {
  return `${sessions} session${sessions === 1 ? ' is' : 's are'} left out: being saved now, or not saved whole (see \`council doctor\`).`;
}
