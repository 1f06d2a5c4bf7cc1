import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { combinePersonalities, CouncilError, generateFeedbackSummary, stringifyPersonality } from '@council/core';
import type { Personality } from '@council/core';
import { BiasStoreError, createNewFile, makeDirectory } from '@council/bias-store';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../command-context.js';
import { checkModels } from '../check-models.js';
import { createModelResolver } from '../create-model-resolver.js';
import { commandSettings } from '../command-context.js';
import { loadCouncilConfig } from '../settings/load-council-config.js';
import { renderTable } from '../render-table.js';
import { loadHistory } from './history-command.js';

export interface PersonalitiesCommandOptions {
  action: string | undefined;
  ids: string[];
  /** `evolve`: the model that designs the offspring (default the first parent's model). */
  model?: string;
  /** `evolve`: write the offspring to `$LLM_COUNCIL_HOME/personalities/<id>.yaml`. */
  save?: boolean;
  json?: boolean;
}

function find(personalities: readonly Personality[], id: string, dir: string): Personality {
  const p = personalities.find((x) => x.id === id);
  if (!p) {
    const known = personalities.map((x) => x.id).join(', ') || 'none';
    throw new CliError({
      code: 'USAGE',
      message: `No personality "${id}" in ${dir} (known: ${known}). Add a YAML file there with id, name, model and system_prompt.`,
    });
  }
  return p;
}

/** `council personalities list|show <id>|evolve <a> <b>`: the YAML personas in `$LLM_COUNCIL_HOME/personalities`. */
export async function runPersonalitiesCommand(
  options: PersonalitiesCommandOptions,
  ctx: CommandContext,
): Promise<number> {
  const settings = commandSettings(ctx);
  const env = settings.secrets.providerEnv;
  const dir = settings.files.personalities;
  const { personalities, config } = await loadCouncilConfig(settings);
  const s = ctx.out;
  switch (options.action ?? '') {
    case 'list': {
      if (options.json) {
        ctx.io.stdout(`${JSON.stringify(personalities, null, 2)}\n`);
        return 0;
      }
      if (personalities.length === 0) {
        ctx.io.stdout(`No personalities yet in ${dir}. Add YAML files with id, name, model and system_prompt.\n`);
        return 0;
      }
      ctx.io.stdout(
        renderTable({
          head: ['id', 'name', 'model', 'traits', 'parents'],
          style: s,
          rows: personalities.map((p) => [
            p.id,
            p.name,
            p.model,
            (p.traits ?? []).join(', '),
            (p.parents ?? []).join(', '),
          ]),
        }),
      );
      return 0;
    }
    case 'show': {
      const id = options.ids[0];
      if (id === undefined)
        throw new CliError({
          code: 'USAGE',
          message: 'council personalities show needs an id: run "council personalities list".',
        });
      const p = find(personalities, id, dir);
      ctx.io.stdout(options.json ? `${JSON.stringify(p, null, 2)}\n` : stringifyPersonality(p));
      return 0;
    }
    case 'evolve': {
      if (options.ids.length < 2)
        throw new CliError({
          code: 'USAGE',
          message: 'council personalities evolve needs two parent ids, e.g. council personalities evolve careful bold.',
        });
      const parents = options.ids.map((id) => find(personalities, id, dir));
      const { entries } = await loadHistory(ctx);
      const history = entries.map((e) => e.session);
      const feedback = await Promise.all(parents.map((p) => generateFeedbackSummary(history, p.id)));
      const modelId = options.model ?? parents[0]!.model;
      const resolveModel = createModelResolver({ env });
      checkModels({ ids: [modelId], env, resolveModel });
      const model = resolveModel(modelId);
      if (model.provider === 'simulated') {
        throw new CliError({
          code: 'USAGE',
          message: `${modelId} is a simulated persona: it plays council sessions but cannot design a personality. Pass --model with a real model id, e.g. --model openai/gpt-4o-mini.`,
        });
      }
      ctx.io.stderr(
        `Evolving ${parents.map((p) => p.id).join(' + ')} with ${modelId}, using ${feedback.reduce((n, f) => n + f.reviews, 0)} peer reviews…\n`,
      );
      let child: Personality;
      try {
        child = await combinePersonalities(parents, feedback, { model, config });
      } catch (error) {
        // An unusable reply is the model's failure (exit 1), not a mistake in the user's files or options.
        if (CouncilError.isInstance(error) && error.code === 'PERSONALITY_INVALID')
          throw new CliError({ code: 'RUNTIME', message: error.message, cause: error });
        throw error;
      }
      const yaml = stringifyPersonality(child);
      if (options.save) {
        const file = join(dir, `${child.id}.yaml`);
        const exists = new CliError({
          code: 'RUNTIME',
          message: `${file} already exists; nothing was overwritten. Rename the offspring's id or remove the file.`,
        });
        if (existsSync(file)) throw exists;
        makeDirectory(dir);
        try {
          // Whole or not at all, never over an existing file: a full disk leaves no empty personality to break the next load.
          createNewFile(file, yaml);
        } catch (error) {
          if (BiasStoreError.isInstance(error) && error.problem?.code === 'EEXIST') throw exists;
          if (BiasStoreError.isInstance(error)) {
            ctx.io.stdout(options.json ? `${JSON.stringify(child, null, 2)}\n` : yaml); // the model's work is not lost
            throw new CliError({
              code: 'RUNTIME',
              message: `${error.message} The personality was not saved: it is printed above; save it by hand once fixed.`,
              cause: error,
            });
          }
          throw error;
        }
        ctx.io.stderr(`Saved ${file}\n`);
      }
      ctx.io.stdout(options.json ? `${JSON.stringify(child, null, 2)}\n` : yaml);
      return 0;
    }
    default:
      throw new CliError({
        code: 'USAGE',
        message: `Unknown personalities action "${options.action ?? ''}": use list, show <id> or evolve <a> <b>.`,
      });
  }
}
