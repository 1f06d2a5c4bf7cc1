import { generateFeedbackSummary } from '@council/core';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../command-context.js';
import { checkModels } from '../check-models.js';
import { createModelResolver } from '../create-model-resolver.js';
import { commandSettings } from '../command-context.js';
import { loadCouncilConfig } from '../settings/load-council-config.js';
import { renderTable } from '../render-table.js';
import { loadHistory } from './history-command.js';
import { countNoun } from '../count-noun.js';

export interface FeedbackCommandOptions {
  /** A member or personality id as it appears in sessions. */
  id: string;
  /** Ask this model for a short written summary of the counted themes. */
  model?: string;
  /** Themes per list. Default 10. */
  top?: number;
  json?: boolean;
}

/** `council feedback <id>`: what peers wrote about a member across the history, as counted themes. */
export async function runFeedbackCommand(options: FeedbackCommandOptions, ctx: CommandContext): Promise<number> {
  const id = options.id.trim();
  if (id === '')
    throw new CliError({
      code: 'USAGE',
      message: 'council feedback needs a member id, e.g. council feedback openai/gpt-4o.',
    });
  const { entries } = await loadHistory(ctx);
  const known = new Set(entries.flatMap((e) => e.session.stage1.map((r) => r.member)));
  if (!known.has(id)) {
    const list = [...known].sort().slice(0, 12).join(', ') || 'none yet';
    throw new CliError({
      code: 'USAGE',
      message: `No session in the history has a member "${id}" (members: ${list}).`,
    });
  }
  const settings = commandSettings(ctx);
  const env = settings.secrets.providerEnv;
  const { config } = await loadCouncilConfig(settings);
  const resolveModel = createModelResolver({ env });
  // A missing key or an unknown provider is one clear line before the counting starts.
  if (options.model !== undefined) checkModels({ ids: [options.model], env, resolveModel });
  const summary = await generateFeedbackSummary(
    entries.map((e) => e.session),
    id,
    { config, maxThemes: options.top ?? 10, ...(options.model ? { model: resolveModel(options.model) } : {}) },
  );
  if (options.json) {
    ctx.io.stdout(`${JSON.stringify(summary, null, 2)}\n`);
    return 0;
  }
  const s = ctx.out;
  ctx.io.stdout(
    `${s.bold(`Peer feedback on ${id}`)}: ${countNoun(summary.reviews, 'critique')} by other members in ${countNoun(summary.sessions, 'session')}\n`,
  );
  for (const [title, list] of [
    ['Strengths', summary.strengths],
    ['Weaknesses', summary.weaknesses],
  ] as const) {
    ctx.io.stdout(`${s.bold(title)}\n`);
    ctx.io.stdout(
      list.length === 0
        ? '  none recorded\n'
        : renderTable({
            head: ['times', 'theme'],
            align: ['right', 'left'],
            style: s,
            rows: list.map((t) => [String(t.count), t.theme]),
          }),
    );
  }
  if (summary.summary) ctx.io.stdout(`${s.bold('Summary')}\n${summary.summary.trim()}\n`);
  return 0;
}
