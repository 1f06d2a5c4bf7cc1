/**
 * The one repair request a reviewer gets when no ranking could be read from its reply: a short instruction to
 * restate only the ranking, in the form the review was asked for (JSON for a structured review, the
 * `FINAL RANKING:` list otherwise). It follows the reviewer's own reply in the conversation, so the answers it
 * ranks stay between the same boundary markers of the original prompt.
 */
export function buildRepairRequest(options: { labels: readonly string[]; structured: boolean }): string {
  const { labels } = options;
  if (options.structured) {
    return `Your evaluation above could not be read: it has no ranking in the required form. Reply now with only one JSON object, {"ranking": [...]}, listing every label (${labels.join(', ')}) once, best first.`;
  }
  const list = labels.map((_, i) => `${i + 1}. <label>`).join('\n');
  return `Your evaluation above could not be read: it has no ranking in the required form. Restate only your ranking now, every label (${labels.join(', ')}) once, best first, exactly in this form and with nothing else:\n\nFINAL RANKING:\n${list}`;
}
