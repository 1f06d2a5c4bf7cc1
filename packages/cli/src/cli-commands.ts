import type { CliCommand } from './cli-command.js';
import { askCliCommand } from './commands/ask-cli-command.js';
import { batchCliCommand } from './commands/batch-cli-command.js';
import { completionCliCommand } from './commands/completion-cli-command.js';
import { biasReportCliCommand } from './commands/bias-report-cli-command.js';
import { configCliCommand } from './commands/config-cli-command.js';
import { contributionsCliCommand } from './commands/contributions-cli-command.js';
import { demoCliCommand } from './commands/demo-cli-command.js';
import { doctorCliCommand } from './commands/doctor-cli-command.js';
import { evalCliCommand } from './commands/eval-cli-command.js';
import { feedbackCliCommand } from './commands/feedback-cli-command.js';
import { gateCliCommand } from './commands/gate-cli-command.js';
import { historyCliCommand } from './commands/history-cli-command.js';
import { keysCliCommand } from './commands/keys-cli-command.js';
import { leaderboardCliCommand } from './commands/leaderboard-cli-command.js';
import { mcpCliCommand } from './commands/mcp-cli-command.js';
import { modelsCliCommand } from './commands/models-cli-command.js';
import { serveCliCommand } from './commands/serve-cli-command.js';
import { personalitiesCliCommand } from './commands/personalities-cli-command.js';
import { storeCliCommand } from './commands/store-cli-command.js';
import { telemetryCliCommand } from './commands/telemetry-cli-command.js';

/** Every command of the `council` executable, in the order `council --help` lists them. */
export const cliCommands: readonly CliCommand[] = [
  configCliCommand,
  doctorCliCommand,
  keysCliCommand,
  modelsCliCommand,
  askCliCommand,
  biasReportCliCommand,
  demoCliCommand,
  batchCliCommand,
  evalCliCommand,
  gateCliCommand,
  leaderboardCliCommand,
  contributionsCliCommand,
  historyCliCommand,
  storeCliCommand,
  personalitiesCliCommand,
  feedbackCliCommand,
  telemetryCliCommand,
  mcpCliCommand,
  serveCliCommand,
  completionCliCommand,
];
