import type { JsonSchema } from './language-model-v1.js';

/** Gemini's `Type` enum, by JSON Schema type name. */
const geminiType: Partial<Record<string, string>> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A JSON Schema as Gemini's `responseSchema` (its `Schema` object, a subset of OpenAPI 3.0): `type` in Gemini's
 * upper-case names (`["string", "null"]` becomes `STRING` with `nullable: true`); `properties` (converted, with
 * `propertyOrdering` keeping the schema's order, which Gemini otherwise sorts), `required`, `items` (converted),
 * `minimum`/`maximum`, `minItems`/`maxItems` (int64, written as strings as the API reference types them) and
 * `description` kept; `enum` kept when its values are strings (Gemini's enums are string enums; a number enum is
 * left out, its `minimum`/`maximum` still apply); everything else, `additionalProperties` included, dropped.
 */
export function toGeminiSchema(schema: JsonSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
    (t): t is string => typeof t === 'string',
  );
  const type = types.find((t) => t !== 'null');
  if (type !== undefined && geminiType[type] !== undefined) out.type = geminiType[type];
  if (types.includes('null')) out.nullable = true;
  if (typeof schema.description === 'string') out.description = schema.description;
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every((v) => typeof v === 'string'))
    out.enum = [...schema.enum];
  if (isRecord(schema.properties)) {
    const properties = Object.entries(schema.properties).filter((entry): entry is [string, Record<string, unknown>] =>
      isRecord(entry[1]),
    );
    out.properties = Object.fromEntries(properties.map(([name, value]) => [name, toGeminiSchema(value)]));
    out.propertyOrdering = properties.map(([name]) => name);
  }
  if (Array.isArray(schema.required)) out.required = schema.required.filter((name) => typeof name === 'string');
  if (isRecord(schema.items)) out.items = toGeminiSchema(schema.items);
  for (const bound of ['minimum', 'maximum'] as const) {
    if (typeof schema[bound] === 'number') out[bound] = schema[bound];
  }
  for (const bound of ['minItems', 'maxItems'] as const) {
    const value = schema[bound];
    if (typeof value === 'number' && Number.isInteger(value)) out[bound] = String(value);
  }
  return out;
}
