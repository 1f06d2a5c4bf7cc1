import type * as z from 'zod';
import { CliError } from '../cli-error.js';
import { readInputFile } from '../read-input-file.js';
import { evalItemSchema, isRegexLiteral } from './eval-dataset-schema.js';
import type { EvalItemLine } from './eval-dataset-schema.js';
import { majorityVote } from './eval-item.js';
import type { EvalItem, KeyPattern } from './eval-item.js';
import { parseCsv } from './parse-csv.js';

const FORMAT_HELP =
  'An eval dataset is JSONL, one {"id": …, "question": "…", …} per line, or CSV with a header row naming id, question and the columns of `council eval --help`.';

/** The CSV columns and the JSONL fields they stand for. */
const CSV_COLUMNS = [
  'id',
  'question',
  'reference',
  'accept_any_of',
  'accept_all_of',
  'answer_a',
  'answer_b',
  'preferred',
  'answer',
  'human_score',
] as const;

function toPattern(s: string): KeyPattern {
  if (!isRegexLiteral(s)) return { kind: 'phrase', text: s };
  const end = s.lastIndexOf('/');
  return { kind: 'regex', source: s.slice(1, end), flags: s.slice(end + 1) };
}

function toItem(line: EvalItemLine, at: number): EvalItem {
  return {
    id: String(line.id),
    line: at,
    question: line.question,
    ...(line.reference === undefined ? {} : { reference: line.reference }),
    ...(line.accept === undefined
      ? {}
      : {
          accept: {
            anyOf: (line.accept.any_of ?? []).map(toPattern),
            allOf: (line.accept.all_of ?? []).map(toPattern),
          },
        }),
    ...(line.answers === undefined || line.preferred === undefined
      ? {}
      : {
          preference: (() => {
            const votes = Array.isArray(line.preferred) ? line.preferred : [line.preferred];
            return { answers: line.answers, preferred: majorityVote(votes), votes };
          })(),
        }),
    ...(line.answer === undefined || line.human_score === undefined
      ? {}
      : { humanScore: { answer: line.answer, score: line.human_score } }),
  };
}

/** The first problem zod found, as "field "x" must be …", in the file's own field names. */
function describeIssue(error: z.ZodError, csv: boolean): string {
  const issue = error.issues[0]!;
  const path = issue.path.map(String);
  let field = path.join('.');
  if (csv) {
    if (path[0] === 'accept') field = path[1] === undefined ? 'accept_any_of / accept_all_of' : `accept_${path[1]}`;
    else if (path[0] === 'answers')
      field = path[1] === '1' ? 'answer_b' : path[1] === '0' ? 'answer_a' : 'answer_a / answer_b';
  } else if (path[0] === 'accept' && path.length === 3) field = `accept.${path[1]}[${path[2]}]`;
  else if (path[0] === 'answers' && path.length === 2) field = `answers[${path[1]}]`;
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `"${k}"`).join(', ');
    const hint = issue.keys.some((k) => k === 'anyOf' || k === 'allOf')
      ? ' (write any_of and all_of: the file’s fields are snake_case)'
      : issue.keys.some((k) => k === 'prompt')
        ? ' (the question goes in "question")'
        : '';
    return `unknown field${issue.keys.length > 1 ? 's' : ''} ${keys}${field ? ` in "${field}"` : ''}${hint}; the fields are id, question, reference, accept, answers, preferred, answer and human_score`;
  }
  return field === '' ? issue.message : `field "${field}" ${issue.message}`;
}

function csvCell(name: string, value: string, at: string): unknown {
  if (value === '') return undefined;
  switch (name) {
    case 'accept_any_of':
    case 'accept_all_of': {
      if (!value.trimStart().startsWith('[')) return [value];
      try {
        return JSON.parse(value) as unknown;
      } catch {
        throw new CliError({
          code: 'USAGE',
          message: `${at}: column "${name}" starts with "[" but is not a JSON list of phrases; write one phrase, or a JSON list such as ["Paris", "/\\\\bparis\\\\b/i"].`,
        });
      }
    }
    case 'preferred': {
      if (value.trimStart().startsWith('['))
        try {
          return JSON.parse(value) as unknown;
        } catch {
          return value;
        }
      return value === 'tie' ? 'tie' : value === '0' ? 0 : value === '1' ? 1 : value;
    }
    case 'human_score':
    case 'id':
      return name === 'id' || Number.isNaN(Number(value)) ? value : Number(value);
    default:
      return value;
  }
}

function fromCsv(text: string, path: string): { value: unknown; line: number }[] {
  const parsed = parseCsv(text);
  if ('error' in parsed)
    throw new CliError({ code: 'USAGE', message: `${path}:${parsed.line}: ${parsed.error}. ${FORMAT_HELP}` });
  const [header, ...rows] = parsed.records;
  const names = header?.fields.map((f) => f.trim().toLowerCase()) ?? [];
  if (!names.includes('id') || !names.includes('question'))
    throw new CliError({
      code: 'USAGE',
      message: `${path} is not an eval dataset: its first line is not a CSV header naming the columns id and question. ${FORMAT_HELP}`,
    });
  const unknown = names.filter((n) => !(CSV_COLUMNS as readonly string[]).includes(n));
  if (unknown.length > 0)
    throw new CliError({
      code: 'USAGE',
      message: `${path}:${header!.line}: unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}; the columns are ${CSV_COLUMNS.join(', ')}.`,
    });
  return rows.map((row) => {
    const at = `${path}:${row.line}`;
    if (row.fields.length !== names.length)
      throw new CliError({
        code: 'USAGE',
        message: `${at}: ${row.fields.length} fields where the header has ${names.length} columns; quote a field that holds a comma ("a, b").`,
      });
    const cells: Record<string, unknown> = {};
    names.forEach((name, k) => (cells[name] = csvCell(name, row.fields[k]!, at)));
    const value: Record<string, unknown> = { id: cells['id'], question: cells['question'] };
    if (cells['reference'] !== undefined) value['reference'] = cells['reference'];
    if (cells['accept_any_of'] !== undefined || cells['accept_all_of'] !== undefined)
      value['accept'] = {
        ...(cells['accept_any_of'] === undefined ? {} : { any_of: cells['accept_any_of'] }),
        ...(cells['accept_all_of'] === undefined ? {} : { all_of: cells['accept_all_of'] }),
      };
    if (cells['answer_a'] !== undefined || cells['answer_b'] !== undefined)
      value['answers'] = [cells['answer_a'], cells['answer_b']];
    for (const k of ['preferred', 'answer', 'human_score'] as const) if (cells[k] !== undefined) value[k] = cells[k];
    return { value, line: row.line };
  });
}

function fromJsonl(text: string, path: string): { value: unknown; line: number }[] {
  const out: { value: unknown; line: number }[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const trimmed = raw.trim();
    if (trimmed === '') return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      // The first line decides whether this is a dataset at all; later, it is a bad line of one.
      throw new CliError({
        code: 'USAGE',
        message:
          out.length === 0
            ? `${path} is not an eval dataset: line ${index + 1} is not JSON. ${FORMAT_HELP}`
            : `${path}:${index + 1} is not valid JSON; each line must be one JSON object.`,
      });
    }
    out.push({ value, line: index + 1 });
  });
  return out;
}

/**
 * Reads an eval dataset: JSONL (`.jsonl`, `.ndjson`, `.json`, or a file whose first character is `{`) or CSV. Every
 * item is validated; a problem is an error naming the file, line and field and what to write instead, never a
 * skipped line. Ids must be unique (a run's journal is keyed on them).
 */
export function readEvalDataset(path: string): EvalItem[] {
  const text = readInputFile(path, 'dataset');
  if (text.includes('\u0000'))
    throw new CliError({
      code: 'USAGE',
      message: `${path} is not an eval dataset: it is a binary file. ${FORMAT_HELP}`,
    });
  const csv = /\.csv$/i.test(path) || (!/\.(jsonl|ndjson|json)$/i.test(path) && !text.trimStart().startsWith('{'));
  const raw = csv ? fromCsv(text, path) : fromJsonl(text, path);
  const items: EvalItem[] = [];
  const ids = new Map<string, number>();
  for (const { value, line } of raw) {
    const parsed = evalItemSchema.safeParse(value);
    if (!parsed.success) {
      const notDataset = items.length === 0 && (typeof value !== 'object' || value === null || !('question' in value));
      throw new CliError({
        code: 'USAGE',
        message: notDataset
          ? `${path} is not an eval dataset: line ${line} has no "question". ${FORMAT_HELP}`
          : `${path}:${line}: ${describeIssue(parsed.error, csv)}.`,
      });
    }
    const item = toItem(parsed.data, line);
    const first = ids.get(item.id);
    if (first !== undefined)
      throw new CliError({
        code: 'USAGE',
        message: `${path}:${line}: the id "${item.id.slice(0, 64)}" is already used on line ${first}; ids must be unique (a run is resumed by them).`,
      });
    ids.set(item.id, line);
    items.push(item);
  }
  if (items.length === 0) throw new CliError({ code: 'USAGE', message: `${path} holds no items. ${FORMAT_HELP}` });
  return items;
}
