import type * as z from 'zod';
import { readHistory } from '@council/bias-store';
import type { CommandContext } from '../command-context.js';
import { commandSettings } from '../command-context.js';
import { withConfiguredPersistence } from '../settings/bias-records-opt-in.js';
import { loadCouncilConfig } from '../settings/load-council-config.js';
import type { HistorySession } from '../history-entry.js';
import type { configResponseSchema } from './api-schemas.js';

/** How many of the newest sessions lend their members to the page's suggestions. */
const RECENT_SESSIONS = 20;

/**
 * `GET /api/config`: what the chat page offers (the configured council, pools, strategies, modes, model
 * suggestions) and what a session will save. Names and ids only: no key, no path, nothing of the environment's secrets.
 */
export async function serveConfig(
  ctx: CommandContext,
  options: { demo: boolean },
): Promise<z.infer<typeof configResponseSchema>> {
  const given = commandSettings(ctx);
  const { config, personalities } = await loadCouncilConfig(given);
  // What a session will save is what ask saves: config.yaml's bias_persistence counts, not the environment alone.
  const settings = withConfiguredPersistence(given, config);
  const models = new Set([...config.members, ...Object.values(config.pools).flat(), ...personalities.map((p) => p.id)]);
  if (config.chairman !== undefined) models.add(config.chairman);
  // With no configured council, the models of the newest sessions too: a council asked with `ask --models a,b,c` and
  // no config.yaml is the one the page offers to tick (it has no box to type model ids in). Only then is the history
  // read: a configured page's first request stays as cheap as before, however long the history.
  if (config.members.length === 0) for (const model of await recentModels(settings.files.history)) models.add(model);
  return {
    demo: options.demo,
    members: config.members,
    chairman: config.chairman ?? null,
    pools: config.pools,
    strategies: Object.keys(config.strategies).sort(),
    defaultStrategy: config.strategy,
    modes: ['consensus', 'voting'],
    defaultMode: config.mode,
    // mode_toggle (config.yaml or the organization's file): false fixes the mode to defaultMode.
    modeToggle: config.modeToggle,
    // config.yaml's verdict: without one the page's Verdict choice offers Off (a request cannot turn a configured jury off).
    defaultVerdict: config.verdict ?? null,
    models: [...models].sort(),
    persist: { consent: settings.consentLevel, biasRecords: settings.writesBiasRecords },
  };
}

/** The members and chairmen of the newest sessions in the history (none when it is missing or unreadable). */
async function recentModels(path: string): Promise<string[]> {
  try {
    const { entries } = await readHistory<HistorySession>(path);
    return entries.slice(-RECENT_SESSIONS).flatMap((e) => [...e.session.config.members, e.session.config.chairman]);
  } catch {
    return [];
  }
}
