import type { LanguageModelV1 } from '@council/providers';
import type { CouncilConfig } from './council-config.js';
import { CouncilError } from './council-error.js';
import type { CouncilSession } from './council-session.js';
import { defaultConfig } from './default-config.js';
import { fillTemplate } from './fill-template.js';
import { promptModel } from './prompt-model.js';

/** A theme peers raised, and how many critiques raised it. */
export interface ThemeCount {
  theme: string;
  count: number;
}

/** Aggregated peer feedback about one personality (design doc §3.1, `generate_feedback_summary`). */
export interface FeedbackSummary {
  personalityId: string;
  /** Sessions in which at least one peer critiqued it. */
  sessions: number;
  /** Peer critiques counted (its own self-reviews excluded). */
  reviews: number;
  /** Most frequent first; ties alphabetical. */
  strengths: ThemeCount[];
  weaknesses: ThemeCount[];
  /** A model-written summary, when a model was given. */
  summary: string | null;
}

export interface FeedbackSummaryOptions {
  /** Writes `summary` from the counted themes (never from session queries or answers). */
  model?: LanguageModelV1;
  /** Supplies `feedbackSummaryPrompt`; default the built-in one. */
  config?: Pick<CouncilConfig, 'feedbackSummaryPrompt'>;
  /** Themes kept per list; default 10. */
  maxThemes?: number;
  timeoutMs?: number;
  abortSignal?: AbortSignal;
}

const empty = new Set([
  '',
  'none',
  'none found',
  'n/a',
  'na',
  'nothing',
  'no weaknesses',
  'no strengths',
  '(none given)',
]);

/** Splits a critique into themes: lines, bullets and sentences, normalised (lower case, no bullets or end punctuation). */
export function critiqueThemes(text: string): string[] {
  return text
    .split(/\n|;|(?<=[.!?])\s+/)
    .map((part) =>
      part
        .replace(/^[\s>*\-•+\d.)]+/, '')
        .replace(/[*_`]/g, '')
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/[.!?,:;]+$/, '')
        .toLowerCase(),
    )
    .filter((theme) => !empty.has(theme));
}

function top(counts: Map<string, number>, max: number): ThemeCount[] {
  return [...counts]
    .map(([theme, count]) => ({ theme, count }))
    .sort((a, b) => b.count - a.count || (a.theme < b.theme ? -1 : a.theme > b.theme ? 1 : 0))
    .slice(0, max);
}

/**
 * Aggregates what peers wrote about `personalityId` across sessions: the strengths and weaknesses of
 * every stage-2 critique of it by another member, split into themes and counted. With `model`, also
 * asks it for a short written summary of those themes (`feedback_summary_prompt`).
 */
export async function generateFeedbackSummary(
  history: ReadonlyArray<Pick<CouncilSession, 'stage2'>>,
  personalityId: string,
  options: FeedbackSummaryOptions = {},
): Promise<FeedbackSummary> {
  const max = options.maxThemes ?? 10;
  if (!(Number.isInteger(max) && max >= 1))
    throw new CouncilError({
      code: 'INVALID_OPTION',
      message: `maxThemes must be a whole number of at least 1 (got ${String(max)}).`,
    });
  const strengths = new Map<string, number>();
  const weaknesses = new Map<string, number>();
  let sessions = 0;
  let reviews = 0;
  for (const session of history) {
    let counted = false;
    for (const review of session.stage2) {
      if (review.reviewer === personalityId) continue;
      const critique = review.evaluation?.critiques[personalityId];
      if (!critique) continue;
      reviews++;
      counted = true;
      for (const theme of new Set(critiqueThemes(critique.strengths)))
        strengths.set(theme, (strengths.get(theme) ?? 0) + 1);
      for (const theme of new Set(critiqueThemes(critique.weaknesses)))
        weaknesses.set(theme, (weaknesses.get(theme) ?? 0) + 1);
    }
    if (counted) sessions++;
  }
  const result: FeedbackSummary = {
    personalityId,
    sessions,
    reviews,
    strengths: top(strengths, max),
    weaknesses: top(weaknesses, max),
    summary: null,
  };
  if (options.model && reviews > 0) {
    const list = (items: ThemeCount[]) =>
      items.length ? items.map((t) => `- ${t.theme} (${t.count})`).join('\n') : '- (none)';
    const prompt = fillTemplate((options.config ?? defaultConfig).feedbackSummaryPrompt, {
      personality: personalityId,
      themes: `Strengths:\n${list(result.strengths)}\n\nWeaknesses:\n${list(result.weaknesses)}`,
    });
    const reply = await promptModel(
      { ...options, model: options.model },
      {
        text: prompt,
        defaultTimeoutMs: 120_000,
        task: 'feedback summary',
        remedy: 'Retry, or omit model to get the counted themes only.',
      },
    );
    result.summary = reply.trim();
  }
  return result;
}
