import type { BiasReportDocument, LoadedBiasRecords } from './commands/bias-report-command.js';

const plural = (n: number, word: string): string => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
/** The verb agreeing with a count: `verb(1, 'use', 'uses')` is "uses". */
const verb = (n: number, many: string, one: string): string => (n === 1 ? one : many);

/**
 * What the reader met that a user should know, one line each: unreadable lines (with the first few, whatever
 * the window), foreign schemas, repeated and conflicting records, and — when the window keeps nothing — which
 * filter left the records out.
 */
export function describeBiasRead(options: {
  document: BiasReportDocument;
  loaded: LoadedBiasRecords;
  defaultStore: boolean;
}): string[] {
  const { document, loaded, defaultStore } = options;
  const { read } = loaded;
  const where = loaded.paths.join(', ');
  const lines: string[] = [];
  if (read.skipped > 0) {
    const reasons = Object.entries(read.reasons)
      .filter(([, n]) => n > 0)
      .map(([reason, n]) => `${n} ${reason}`)
      .join(', ');
    const first = read.firstBadLines
      .slice(0, 3)
      .map((bad) => `${bad.file}:${bad.line} (${bad.reason})`)
      .join('; ');
    lines.push(`skipped ${plural(read.skipped, 'unreadable line')} (${reasons}); first: ${first}. The rest was read.`);
  }
  if (read.foreignMajors.length > 0) {
    const majors = read.foreignMajors.sort((a, b) => a - b).join(', ');
    lines.push(
      `${plural(read.reasons.unsupported_version, 'record')} ${verb(read.reasons.unsupported_version, 'use', 'uses')} schema major ${majors}, which this Council cannot read: upgrade Council to read schema ${majors}.`,
    );
  }
  if (read.repeated.duplicates > 0) {
    lines.push(
      `${plural(read.repeated.duplicates, 'record')} appeared more than once (the same record in two inputs, or written twice); each was counted once.`,
    );
  }
  for (const warning of read.warnings) lines.push(warning);
  if (read.positionNotDisplayOrder > 0) {
    lines.push(
      `${plural(read.positionNotDisplayOrder, 'record')} ${verb(read.positionNotDisplayOrder, 'come', 'comes')} from an older writer whose position may be a rank, not the display order.`,
    );
  }
  if (read.lines === 0) {
    if (defaultStore)
      lines.push(
        `no bias records yet at ${where}. They are saved once you opt in: \`bias_persistence: true\` in your Council home's config.yaml (\`council config init --bias-records\` writes it) or LLM_COUNCIL_BIAS_PERSISTENCE=true; or try \`council demo\`.`,
      );
    else lines.push(`no bias records in ${where}: the input${loaded.paths.length === 1 ? ' is' : 's are'} empty.`);
  } else if (read.records === 0) {
    lines.push(
      `none of the ${plural(read.lines, 'line')} in ${where} is a bias record this Council can read (see the skipped lines above).`,
    );
  } else if (loaded.columns.length + loaded.unread.records === 0) {
    // Records exist but the window kept none: say which filter left them out, not "collect more data". (Sessions
    // left out because no review could be read were in the window: the report itself names them.)
    const { model, configVersion, beforeWindow, future } = read.excluded;
    const causes = [
      model > 0
        ? `${plural(model, 'record')} ${verb(model, 'do', 'does')} not involve --model ${document.options.model ?? ''} (check the id: \`council history list\` shows the members)`
        : null,
      configVersion > 0
        ? `${plural(configVersion, 'record')} ${verb(configVersion, 'are', 'is')} of another config version than --config-version ${document.options.configVersion ?? ''}`
        : null,
      beforeWindow > 0
        ? `${plural(beforeWindow, 'record')} ${verb(beforeWindow, 'are', 'is')} older than the ${document.options.maxDays ?? ''}-day window (widen it with --days, or set --now)`
        : null,
      future > 0
        ? `${plural(future, 'record')} ${verb(future, 'are', 'is')} timestamped after the end of the window, ${document.options.now} (set --now later, or check the clock that wrote them)`
        : null,
    ].filter((cause) => cause !== null);
    lines.push(`the window kept none of the ${plural(read.records, 'record')} in ${where}: ${causes.join('; ')}.`);
  }
  return lines.map((line) => `council: ${line}\n`);
}
