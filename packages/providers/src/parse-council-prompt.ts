/** One response under review in a stage-2 prompt. */
export interface PromptResponseBlock {
  /** `Response A`, `Response B`, … */
  label: string;
  text: string;
}

/** One member's answer in a stage-3 prompt. */
export interface PromptMemberAnswer {
  id: string;
  text: string;
}

const boundaryHeader = /^<<<[^>]*?\s+Response ([A-Z]{1,3})\s*>>>$/;
const plainHeader = /^[^A-Za-z0-9]*Response ([A-Z]{1,3})[^A-Za-z0-9]*$/;
const boundaryLine = /^<<<[^>]*>>>$/;
const numbered = /^\d+[.)]/;
const memberHeader = /^[#>*\-\s]*Model:\s*([^\s*]+?)[\s*:]*$/;
const sectionHeading = /^# \S/;

/**
 * The responses of a stage-2 prompt. A block opens with a line that is the label `Response X`
 * decorated only with non-letters (`### Response B`, `--- Response B ---`) or wrapped in a boundary
 * marker (`<<<a1b2c3 Response B>>>`); when boundary-marked headers are present only they count.
 * Numbered lines (`1. Response A`, a ranking example) never open a block. A marker-only line
 * (`<<<a1b2c3 END>>>`) closes the block it follows; otherwise a block runs to the next header.
 * When a label opens several blocks, the longest text wins.
 */
export function extractResponseBlocks(prompt: string): PromptResponseBlock[] {
  const lines = prompt.split(/\r?\n/);
  const marked = lines.some((l) => boundaryHeader.test(l.trim()));
  const blocks: Array<{ label: string; lines: string[] }> = [];
  let current: { label: string; lines: string[] } | undefined;
  for (const line of lines) {
    const t = line.trim();
    const header = marked ? boundaryHeader.exec(t) : numbered.test(t) ? null : plainHeader.exec(t);
    if (header) {
      current = { label: `Response ${header[1]!}`, lines: [] };
      blocks.push(current);
      continue;
    }
    if (boundaryLine.test(t)) {
      if (current?.lines.some((l) => l.trim() !== '')) current = undefined;
      continue;
    }
    current?.lines.push(line);
  }
  const chosen = new Map<string, { index: number; text: string }>();
  blocks.forEach((block, index) => {
    const text = block.lines.join('\n').trim();
    if ((chosen.get(block.label)?.text.length ?? -1) < text.length) chosen.set(block.label, { index, text });
  });
  return [...chosen]
    .sort((a, b) => a[1].index - b[1].index)
    .map(([label, { text }]) => ({ label, text }));
}

/** The members' answers of a stage-3 prompt: each `Model: <id>` line opens one, running to the next. */
export function extractMemberAnswers(prompt: string): PromptMemberAnswer[] {
  const answers: PromptMemberAnswer[] = [];
  let current: { id: string; lines: string[] } | undefined;
  const flush = (): void => {
    if (current && !answers.some((a) => a.id === current!.id)) answers.push({ id: current.id, text: current.lines.join('\n').trim() });
  };
  for (const line of prompt.split(/\r?\n/)) {
    const header = memberHeader.exec(line.trim());
    if (header) {
      flush();
      current = { id: header[1]!, lines: [] };
      continue;
    }
    // A top-level heading ("# Peer Evaluations") starts the next prompt section, not more of the answer.
    if (sectionHeading.test(line)) {
      flush();
      current = undefined;
      continue;
    }
    current?.lines.push(line);
  }
  flush();
  return answers;
}
