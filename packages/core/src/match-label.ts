/**
 * Reads a label written by a reviewer — `Response C`, `response c`, `**Response AA**`, `"C"` — and
 * returns the canonical label from `labels` (`Response C`), or undefined when it names none of them.
 * The letter code may be several letters long (`Response AB`). Matching ignores case.
 */
export function matchLabel(raw: string, labelsByCode: ReadonlyMap<string, string>): string | undefined {
  const code = labelCode(raw);
  return code === undefined ? undefined : labelsByCode.get(code);
}

/** The upper-case letter code a reviewer's text names (`C` for `Response c`), or undefined when it names no label. */
export function labelCode(raw: string): string | undefined {
  const mention = /\bresponse[\s_-]+([a-z]{1,4})\b/i.exec(raw);
  if (mention) return mention[1]!.toUpperCase();
  const bare = /^[\s*_"'`[(]*([a-z]{1,3})[\s*_"'`\]).:]*$/i.exec(raw);
  return bare ? bare[1]!.toUpperCase() : undefined;
}

/** Index of canonical labels by their letter code: `Response AB` → key `AB`. */
export function labelsByCode(labels: readonly string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const label of labels) {
    const code = /([A-Za-z]+)\s*$/.exec(label)?.[1]?.toUpperCase();
    if (code !== undefined && !map.has(code)) map.set(code, label);
  }
  return map;
}
