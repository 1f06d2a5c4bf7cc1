import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BiasMetricRecord } from './bias-metric-record.js';
import { safeParseBiasMetricRecord } from './bias-metric-record.js';
import { noRank } from './bias-record-columns.js';
import { biasLineKeys, biasMetadataKeys } from './bias-record-fields.js';
import { parseIsoTimestamp } from './iso-timestamp.js';
import { BiasLineFields, parseBiasLineFast } from './parse-bias-line.js';

/** A token written exactly as given: `2.0`, `1e0`, `-0`, or text that is not JSON at all (`01`, `.5`). */
class Raw {
  constructor(readonly text: string) {}
}

/** An object written entry by entry, in this order, keys possibly repeated. */
class Obj {
  constructor(readonly entries: readonly (readonly [string, unknown])[]) {}
}

/** Marks a key left out of the line. */
const absent = Symbol('absent');

type EscapeMode = 'json' | 'slash' | 'unicode' | 'raw';

const hex4 = (code: number): string => `\\u${code.toString(16).padStart(4, '0')}`;

/** A string token: as JSON.stringify writes it, with `/` escaped, with non-ASCII (and every `a`) as \uXXXX, or not escaped at all. */
function writeString(value: string, mode: EscapeMode): string {
  switch (mode) {
    case 'json':
      return JSON.stringify(value);
    case 'slash':
      return JSON.stringify(value).replaceAll('/', '\\/');
    case 'unicode':
      return JSON.stringify(value).replace(/[^\x20-\x7e]|a/g, (c) => hex4(c.charCodeAt(0)));
    case 'raw':
      return `"${value}"`;
  }
}

interface Style {
  mode: EscapeMode;
  /** Whitespace written between tokens, taken in turn. */
  spaces: readonly string[];
}

/** Writes a JSON value token by token, with the style's whitespace between every two tokens. */
function writeLine(value: unknown, style: Style): string {
  let turn = 0;
  const gap = (): string => style.spaces[turn++ % style.spaces.length]!;
  const write = (v: unknown): string => {
    if (v instanceof Raw) return v.text;
    if (v instanceof Obj) {
      const body = v.entries
        .filter(([, x]) => x !== absent)
        .map(([k, x]) => `${gap()}${writeString(k, style.mode)}${gap()}:${gap()}${write(x)}${gap()}`);
      return body.length === 0 ? `{${gap()}}` : `{${body.join(',')}}`;
    }
    if (Array.isArray(v)) return `[${gap()}${v.map((x) => write(x)).join(`${gap()},${gap()}`)}${gap()}]`;
    if (typeof v === 'string') return writeString(v, style.mode);
    if (v === null || typeof v === 'boolean' || typeof v === 'number') return JSON.stringify(v);
    throw new Error(`cannot write a ${typeof v}`);
  };
  return `${gap()}${write(value)}${gap()}`;
}

// The keys of a record line, in the order this package writes them.
const canonicalKeys = [
  'schema_version',
  'session_id',
  'timestamp',
  'consent_level',
  'query_metadata',
  'reviewer_id',
  'model_id',
  'position',
  'response_length_chars',
  'score_value',
  'score_scale',
  'council_config_version',
  'query_hash',
  'rank_position',
] as const;
type Key = (typeof canonicalKeys)[number];
const requiredKeys: readonly Key[] = [
  'schema_version',
  'session_id',
  'timestamp',
  'reviewer_id',
  'model_id',
  'position',
  'response_length_chars',
  'score_value',
];

const text = fc.oneof(
  fc.string({ maxLength: 10 }),
  fc.string({ unit: 'grapheme', maxLength: 5 }),
  fc.string({ unit: 'binary', maxLength: 5 }),
  fc.constantFrom(
    'openai/gpt-5.1',
    'anthropic/claude-opus-4.6',
    'modèle-ü',
    '日本語',
    '😀',
    'a"b',
    'a\\b',
    'tab\there',
    '\u2028',
    '\u007f',
    'null',
    '1',
  ),
);
const weird = fc.constantFrom<unknown>(
  null,
  true,
  false,
  0,
  -1,
  1.5,
  '',
  [],
  [1, 'a'],
  new Obj([]),
  new Obj([['a', new Obj([['b', null]])]]),
  'x',
  new Raw('-0'),
  new Raw('01'),
  new Raw('1e400'),
  new Raw('.5'),
  new Raw('nul'),
  new Raw('nulll'),
  new Raw('True'),
  new Raw(''),
);

// Timestamps from their parts, with every zone form parseIsoTimestamp reads (and none).
const validTimestamp = fc
  .record({
    year: fc.integer({ min: 1970, max: 2100 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.option(fc.integer({ min: 0, max: 59 })),
    fraction: fc.option(fc.stringMatching(/^[0-9]{1,9}$/)),
    separator: fc.constantFrom('T', 't', ' '),
    zone: fc.constantFrom('Z', 'z', '+00:00', '-05:30', '+0100', '+01', ''),
  })
  .map((t) => {
    const two = (n: number): string => String(n).padStart(2, '0');
    const seconds = t.second === null ? '' : `:${two(t.second)}${t.fraction === null ? '' : `.${t.fraction}`}`;
    return `${t.year}-${two(t.month)}-${two(t.day)}${t.separator}${two(t.hour)}:${two(t.minute)}${seconds}${t.zone}`;
  });
// Values at the edges of what each key's schema accepts, on both sides, and of the wrong type.
const countEdges: unknown[] = [
  0,
  0xffff_fffe,
  0xffff_ffff,
  2 ** 32,
  2 ** 53 - 1,
  2 ** 53,
  -1,
  1.5,
  ...[
    '2.0',
    '1e0',
    '1E2',
    '-0',
    '00',
    '01',
    '999999999999999',
    '1000000000000000',
    '4294967294',
    '4294967295',
    '9007199254740993',
    '1.5e0',
    '0.0',
  ].map((t) => new Raw(t)),
];
const dupMeta = [
  new Obj([
    ['category', 'coding'],
    ['category', null],
  ]),
  new Obj([
    ['category', null],
    ['category', 'coding'],
  ]),
  new Obj([
    ['category', 'coding'],
    ['category', 'math'],
  ]),
  new Obj([
    ['language', 'en'],
    ['language', 'fr'],
  ]),
];
const edges: Record<Key, unknown[]> = {
  schema_version: [
    ...[
      1,
      '1',
      '1.0',
      '1.1.0',
      '1.2.0',
      '1.10.3',
      '1.0.0.0',
      '2.0.0',
      '2',
      2,
      0,
      -1,
      '10',
      '1.',
      '.1',
      '1..1',
      '1.x',
      '',
      ' 1',
      '1.1.0 ',
      '01',
      '1.1234567890',
      '1.123456789',
      '1.2.0000000001',
    ],
    ...['1.0', '1e0', '10', '-1', '-0', '01'].map((t) => new Raw(t)),
  ],
  session_id: ['', 'a', 'openai/gpt-5.1', 'a"b', 'a\\b', 'tab\there', 'é', '\u2028', '\u007f', 1, null],
  timestamp: [
    '2025-02-30T00:00:00Z',
    '2024-02-29T00:00:00Z',
    '2025-12-17T24:00:00Z',
    '2025-12-17T10:60:00Z',
    '2025-12-17',
    '2025-12-17T10:30:00+24:00',
    '2025-12-17T10:30:00 Z',
    '2025-12-17T10:30',
    'yesterday',
    '',
    0,
    null,
  ],
  consent_level: [0, 1, 2, 3, 4, null, 5, -1, '1', 10, 1.5, ...['1.0', '4e0', '-0', '00', '04'].map((t) => new Raw(t))],
  query_metadata: [
    null,
    new Obj([]),
    new Obj([['other', 1]]),
    new Obj([['category', 1]]),
    new Obj([['category', new Obj([])]]),
    ...dupMeta,
    'coding',
    [],
  ],
  reviewer_id: ['', 'a', 'ü', 'a/b', 1, null],
  model_id: ['', 'a', 'ü', 'a/b', 1, null],
  position: countEdges,
  response_length_chars: countEdges,
  score_value: [
    null,
    0,
    -3,
    7.5,
    1e300,
    ...[
      '7.0',
      '1e-7',
      '-0',
      '1E+2',
      '0.0',
      '1e400',
      '-1e400',
      '.5',
      '5.',
      '1e',
      '--1',
      '+1',
      '0x10',
      'NaN',
      'Infinity',
      '-',
      '1.5.3',
      '01',
    ].map((t) => new Raw(t)),
  ],
  score_scale: [null, '', '1-10', 1],
  council_config_version: [null, '', '0.4.0', 1, new Obj([])],
  query_hash: [
    null,
    '0123456789abcdef',
    '0123456789ABCDEF',
    '0123456789abcde',
    '0123456789abcdef0',
    'g123456789abcdef',
    '',
    1234,
    new Raw('0123456789123456'),
  ],
  rank_position: [null, ...countEdges],
};

const count = fc.oneof(
  { weight: 6, arbitrary: fc.nat({ max: 5000 }) },
  { weight: 4, arbitrary: fc.constantFrom(...countEdges) },
  {
    weight: 1,
    arbitrary: fc.oneof(fc.integer({ min: -100, max: -1 }), fc.double({ noNaN: true, noDefaultInfinity: true }), weird),
  },
);
const metaValue = fc.oneof(
  { weight: 4, arbitrary: text },
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: weird },
);
const optionalText = fc.oneof(
  { weight: 4, arbitrary: text },
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: weird },
);

// Every key's values: mostly what the schema accepts, and every kind of thing it does not.
const fieldValue: Record<Key, fc.Arbitrary<unknown>> = {
  schema_version: fc.oneof(
    fc.constantFrom(...edges.schema_version),
    fc.tuple(fc.nat(20), fc.nat(20)).map(([a, b]) => `1.${a}.${b}`),
    weird,
  ),
  session_id: fc.oneof(text, fc.constantFrom(...edges.session_id)),
  timestamp: fc.oneof(
    { weight: 3, arbitrary: validTimestamp },
    { weight: 1, arbitrary: fc.constantFrom(...edges.timestamp) },
  ),
  consent_level: fc.oneof(fc.constantFrom(...edges.consent_level), weird),
  query_metadata: fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .array(
          fc.tuple(
            fc.constantFrom(
              'category',
              'token_count_bucket',
              'token_bucket',
              'language',
              'category',
              'other',
              'Category',
            ),
            metaValue,
          ),
          { maxLength: 5 },
        )
        .map((entries) => new Obj(entries)),
    },
    { weight: 2, arbitrary: fc.constantFrom(...edges.query_metadata) },
    { weight: 1, arbitrary: weird },
  ),
  reviewer_id: fc.oneof(text, fc.constantFrom(...edges.reviewer_id)),
  model_id: fc.oneof(text, fc.constantFrom(...edges.model_id)),
  position: count,
  response_length_chars: count,
  score_value: fc.oneof(
    { weight: 4, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
    { weight: 2, arbitrary: fc.integer({ min: -20, max: 20 }) },
    { weight: 3, arbitrary: fc.constantFrom(...edges.score_value) },
    { weight: 1, arbitrary: weird },
  ),
  score_scale: optionalText,
  council_config_version: optionalText,
  query_hash: fc.oneof(fc.stringMatching(/^[0-9a-f]{16}$/), fc.constantFrom(...edges.query_hash)),
  rank_position: fc.oneof(fc.constant(null), count),
};
// A valid record most of the time, so that the fast path has lines to accept.
const typical: Record<Key, fc.Arbitrary<unknown>> = {
  schema_version: fc.constantFrom<unknown>('1.1.0', '1.2.0', 1, '1'),
  session_id: fc.constantFrom('s-1', '0f9e2d1c-4b3a-4a59-8e7d-6c5b4a392817', 'séance-é'),
  timestamp: validTimestamp,
  consent_level: fc.constantFrom<unknown>(1, 4, null, absent),
  query_metadata: fc.constantFrom<unknown>(
    new Obj([
      ['category', 'coding'],
      ['token_count_bucket', '100-500'],
      ['language', 'en'],
    ]),
    new Obj([['token_bucket', 'short']]),
    null,
    absent,
  ),
  reviewer_id: fc.constantFrom('openai/gpt-5.1', 'x-ai/grok-4'),
  model_id: fc.constantFrom('anthropic/claude-opus-4.6', 'google/gemini-3-pro-preview'),
  position: fc.nat({ max: 4 }),
  response_length_chars: fc.nat({ max: 100_000 }),
  score_value: fc.oneof(
    fc.constant(null),
    fc.integer({ min: 1, max: 10 }),
    fc.double({ min: 1, max: 10, noNaN: true }),
  ),
  score_scale: fc.constantFrom<unknown>('1-10', null, absent),
  council_config_version: fc.constantFrom<unknown>('0.4.0', '', null, absent),
  query_hash: fc.constantFrom<unknown>(null, 'a1b2c3d4e5f60718', absent),
  rank_position: fc.oneof(fc.nat({ max: 4 }), fc.constantFrom<unknown>(null, absent)),
};
const anyValue = fc.oneof(text, count, fieldValue.score_value, weird, fieldValue.query_metadata);

const space = fc.constantFrom('', '', '', '', ' ', '  ', '\t', '\r', ' \r\t ', '\u00a0', '\f');

const lineArb = fc.record({
  typical: fc.tuple(...canonicalKeys.map((k) => typical[k])),
  // The keys (none, one or two) whose value is drawn from everything, or left out.
  changed: fc.array(
    fc.tuple(
      fc.constantFrom(...canonicalKeys),
      fc.oneof({ weight: 6, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    ),
    { maxLength: 2 },
  ),
  anything: fc.tuple(...canonicalKeys.map((k) => fieldValue[k])),
  // Unknown keys, and known keys a second time.
  extras: fc.oneof(
    { weight: 4, arbitrary: fc.constant<[string, unknown][]>([]) },
    {
      weight: 1,
      arbitrary: fc.array(
        fc.tuple(
          fc.constantFrom<string>(...canonicalKeys, 'extra', 'position_is_display_order', 'Schema_version', ''),
          anyValue,
        ),
        { minLength: 1, maxLength: 2 },
      ),
    },
  ),
  // Sort keys for the entries; null keeps the canonical order.
  order: fc.option(fc.array(fc.double({ noNaN: true }), { minLength: 16, maxLength: 16 })),
  spaces: fc.oneof(fc.constant(['']), fc.array(space, { minLength: 1, maxLength: 16 })),
  mode: fc.constantFrom<EscapeMode>('json', 'json', 'json', 'json', 'slash', 'unicode', 'raw'),
  crlf: fc.boolean(),
  // The line sits inside a larger buffer, as it does in a read chunk: bytes before it, its newline, more after.
  before: fc.uint8Array({ maxLength: 4 }),
  after: fc.constantFrom('', '}', '1', 'null}', '"x"}', '{"a":1}'),
  // Rarely, something before or after the object on its own line.
  lead: fc.oneof(
    { weight: 20, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constantFrom('x', '[', ',', '\ufeff', '{}') },
  ),
  trail: fc.oneof(
    { weight: 20, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constantFrom('x', '}', ',', ']', '{}', 'null', ' 1') },
  ),
});

function valuesOf(input: { typical: unknown[]; changed: [Key, boolean][]; anything: unknown[] }): unknown[] {
  const values = [...input.typical];
  for (const [key, replaced] of input.changed) {
    const i = canonicalKeys.indexOf(key);
    values[i] = replaced ? input.anything[i] : absent;
  }
  return values;
}

function entriesOf(input: {
  values: unknown[];
  extras: [string, unknown][];
  order: number[] | null;
}): (readonly [string, unknown])[] {
  const entries: (readonly [string, unknown])[] = [
    ...canonicalKeys.map((k, i) => [k, input.values[i]] as const),
    ...input.extras,
  ];
  if (input.order === null) return entries;
  const order = input.order;
  return entries
    .map((e, i) => ({ e, rank: order[i % order.length]! + i / 1000 }))
    .sort((a, b) => a.rank - b.rank)
    .map(({ e }) => e);
}

/** The line in a buffer the way the reader hands it over: [start, end) with the newline at `end`. */
function inBuffer(
  line: string,
  options: { before: Uint8Array; after: string; crlf: boolean },
): { buf: Buffer; start: number; end: number } {
  const body = Buffer.from(line + (options.crlf ? '\r' : ''), 'utf8');
  const buf = Buffer.concat([options.before, body, Buffer.from(`\n${options.after}`, 'utf8')]);
  return { buf, start: options.before.length, end: options.before.length + body.length };
}

/** Every field the fast path filled equals the schema's decoding of the same line. */
function expectSameFields(buf: Buffer, f: BiasLineFields, record: BiasMetricRecord): void {
  const bytes = (start: number, end: number): string | null => (start === -1 ? null : buf.toString('utf8', start, end));
  expect(bytes(f.sessionStart, f.sessionEnd)).toBe(record.sessionId);
  expect(bytes(f.timeStart, f.timeEnd)).toBe(record.timestamp);
  expect(bytes(f.reviewerStart, f.reviewerEnd)).toBe(record.reviewerId);
  expect(bytes(f.modelStart, f.modelEnd)).toBe(record.modelId);
  expect(bytes(f.configStart, f.configEnd)).toBe(record.councilConfigVersion);
  expect(bytes(f.categoryStart, f.categoryEnd)).toBe(record.queryMetadata?.category ?? null);
  expect(f.position).toBe(record.position);
  expect(f.responseLengthChars).toBe(record.responseLengthChars);
  expect(Number.isNaN(f.score) ? null : f.score).toBe(record.scoreValue);
  expect(f.rankPosition === noRank ? null : f.rankPosition).toBe(record.rankPosition);
  expect(f.positionIsDisplayOrder).toBe(record.positionIsDisplayOrder);
  const time = parseIsoTimestamp(record.timestamp)!;
  expect(f.time).toBe(time.ms);
  expect(f.hasZone).toBe(time.hasZone);
}

/**
 * The property for one line: when the fast path accepts it, JSON.parse and the schema accept it too and
 * read the same fields. Returns whether the fast path accepted it.
 */
function checkLine(
  line: string,
  options: { fields: BiasLineFields; before?: Uint8Array; after?: string; crlf?: boolean },
): boolean {
  const { buf, start, end } = inBuffer(line, {
    before: options.before ?? new Uint8Array(0),
    after: options.after ?? '',
    crlf: options.crlf ?? false,
  });
  if (!parseBiasLineFast(buf, start, end, options.fields)) return false;
  const parsed = safeParseBiasMetricRecord(JSON.parse(line));
  expect(parsed.success, line).toBe(true);
  if (parsed.success) expectSameFields(buf, options.fields, parsed.value);
  return true;
}

// Property tests over thousands of generated records: 17.8 s on a loaded machine, past vitest's 5 s default.
describe('parseBiasLineFast', { timeout: 120_000 }, () => {
  // One fields object for every line, as the reader uses it: nothing may leak from one line to the next.
  const fields = new BiasLineFields();

  it('accepts only lines the schema accepts, and reads them as the schema does', () => {
    let accepted = 0;
    let runs = 0;
    fc.assert(
      fc.property(lineArb, (input) => {
        runs++;
        const entries = entriesOf({ values: valuesOf(input), extras: input.extras, order: input.order });
        const line = input.lead + writeLine(new Obj(entries), { mode: input.mode, spaces: input.spaces }) + input.trail;
        if (checkLine(line, { fields, ...input })) accepted++;
      }),
      { numRuns: 4000 },
    );
    // The property says something only if the fast path accepted a fair share of the lines.
    expect(accepted).toBeGreaterThan(runs / 10);
  });

  it('holds for every edge value of every key, in a valid record, compact and spaced', () => {
    // The same property, exhaustively over the edge values (random runs may miss one of them).
    const valid: unknown[] = [
      '1.1.0',
      's-1',
      '2026-01-01T00:00:00Z',
      1,
      new Obj([
        ['category', 'coding'],
        ['token_count_bucket', '100-500'],
        ['language', 'en'],
      ]),
      'openai/gpt-5.1',
      'x-ai/grok-4',
      2,
      900,
      7.5,
      '1-10',
      '0.4.0',
      null,
      1,
    ];
    let accepted = 0;
    for (const [k, key] of canonicalKeys.entries()) {
      for (const value of [...edges[key], absent]) {
        const values = valid.map((v, i) => (i === k ? value : v));
        const entries = canonicalKeys.map((name, i) => [name, values[i]] as const);
        for (const spaces of [[''], [' ', '', '  ']]) {
          if (checkLine(writeLine(new Obj(entries), { mode: 'json', spaces }), { fields })) accepted++;
        }
      }
    }
    expect(accepted).toBeGreaterThan(100);
  });

  // Records the schema accepts, written as this package (or any JSON.stringify) writes them: no escapes, canonical order.
  const plain = (minLength: number): fc.Arbitrary<string> =>
    fc
      .oneof(fc.string({ minLength, maxLength: 12 }), fc.string({ unit: 'grapheme', minLength, maxLength: 6 }))
      .filter((s) => !/["\\]/.test(s));
  const commonRecord = fc.record(
    {
      schema_version: fc.oneof(
        fc.constantFrom<number | string>(1, '1'),
        fc
          .tuple(fc.nat(999_999_999), fc.option(fc.nat(999_999_999)))
          .map(([a, b]) => (b === null ? `1.${a}` : `1.${a}.${b}`)),
      ),
      session_id: plain(1),
      timestamp: validTimestamp,
      consent_level: fc.constantFrom(0, 1, 2, 3, 4, null),
      query_metadata: fc.option(
        fc.record(
          {
            category: fc.option(plain(0)),
            token_count_bucket: fc.option(plain(0)),
            token_bucket: fc.option(plain(0)),
            language: fc.option(plain(0)),
          },
          { requiredKeys: [] },
        ),
      ),
      reviewer_id: plain(1),
      model_id: plain(1),
      position: fc.nat({ max: 0xffff_fffe }),
      response_length_chars: fc.nat({ max: 0xffff_fffe }),
      score_value: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true })),
      score_scale: fc.option(plain(0)),
      council_config_version: fc.option(plain(0)),
      query_hash: fc.option(fc.stringMatching(/^[0-9a-f]{16}$/)),
      rank_position: fc.option(fc.nat({ max: 0xffff_fffe })),
    },
    { requiredKeys: [...requiredKeys] },
  );

  it('accepts every valid record written compactly in the canonical key order (the common case stays fast)', () => {
    fc.assert(
      fc.property(commonRecord, (generated) => {
        const ordered = Object.fromEntries(canonicalKeys.filter((k) => k in generated).map((k) => [k, generated[k]]));
        const line = JSON.stringify(ordered);
        const parsed = safeParseBiasMetricRecord(JSON.parse(line));
        expect(parsed.success).toBe(true);
        const buf = Buffer.from(line, 'utf8');
        expect(parseBiasLineFast(buf, 0, buf.length, fields)).toBe(true);
        if (parsed.success) expectSameFields(buf, fields, parsed.value);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves escapes, repeated keys, 2.0 and unknown keys to JSON.parse', () => {
    // Each of these is a record the schema accepts; the fast path must decline rather than guess.
    const base =
      '"session_id":"s","timestamp":"2026-01-01T00:00:00Z","reviewer_id":"a","model_id":"b","response_length_chars":5,"score_value":7';
    const declined = [
      `{"schema_version":"1.1.0",${base},"position":1,"note":"x"}`,
      `{"schema_version":"1.1.0",${base},"position":1,"position":2}`,
      `{"schema_version":"1.1.0",${base},"position":2.0}`,
      `{"schema_version":"1.1.0",${base},"position":1e0}`,
      `{"schema_version":1.0,${base},"position":1}`,
      `{"schema_version":"1.1.0",${base.replace('"a"', '"\\u0061"')},"position":1}`,
      `{"schema_version":"1.1.0",${base},"position":1,"query_metadata":{"category":"coding","other":1}}`,
    ];
    for (const line of declined) {
      expect(safeParseBiasMetricRecord(JSON.parse(line)).success).toBe(true);
      const buf = Buffer.from(line);
      expect(parseBiasLineFast(buf, 0, buf.length, fields)).toBe(false);
    }
    const accepted = Buffer.from(`{ "schema_version" : "1.1.0", ${base.replaceAll(',', ' ,  ')}, "position": 1 }\r`);
    expect(parseBiasLineFast(accepted, 0, accepted.length, fields)).toBe(true);
    expect(fields.score).toBe(7);
    expect(fields.time).toBe(Date.UTC(2026, 0, 1));
  });
});

describe('the fast parser and the record table', () => {
  it('reads the keys of bias-record-fields.ts in the order its switch expects (a field inserted before them fails here)', () => {
    // The switch's cases 0–13 by index, as ADR-018 v1.1's example orders the keys; then the derived key other writers
    // add, which the parser finds by name (a field appended to the table is read by the slow path until the switch knows it).
    expect(biasLineKeys.slice(0, 14)).toEqual([
      'schema_version',
      'session_id',
      'timestamp',
      'consent_level',
      'query_metadata',
      'reviewer_id',
      'model_id',
      'position',
      'response_length_chars',
      'score_value',
      'score_scale',
      'council_config_version',
      'query_hash',
      'rank_position',
    ]);
    expect(biasLineKeys).toContain('position_is_display_order');
    expect(biasMetadataKeys).toEqual(['category', 'token_count_bucket', 'token_bucket', 'language']);
  });
});
