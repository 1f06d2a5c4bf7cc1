/**
 * A request's JSON schema rewritten into the subset node-llama-cpp turns into a llama.cpp grammar
 * (`llama.createGrammarForJsonSchema`), or the reason it cannot be. node-llama-cpp reads fewer keywords than
 * llama.cpp's own converter and reads some differently (no `anyOf`; a schema without `type` becomes `null`; a type
 * list drops `object` and `array`), so this closes the gap where the meaning can be kept and refuses the rest —
 * a constraint silently dropped would let the fixture answer with JSON its schema rejects:
 * - `anyOf` becomes `oneOf` (a grammar accepts either alike); `definitions` and `#/definitions/` become `$defs`;
 * - a schema without `type` (`{}`, `true`) accepts any JSON value; a type list becomes a `oneOf` of each type;
 * - an integer bounded on both sides by at most 1,000 values becomes an `enum` of them (llama.cpp's converter
 *   bounds integers too); a number's bounds are not enforced (nor are they by llama.cpp's converter);
 * - an object without `properties` accepts any members; string formats other than date, time and date-time are
 *   left unchecked (llama.cpp checks few of them either);
 * - every property is generated, required or not (the output still matches the schema).
 * Refused: `allOf`, `not`, conditionals, `pattern`, `patternProperties`, `uniqueItems`, `multipleOf`, other `$ref`s,
 * one-sided or wide integer bounds, enum values that are objects or arrays.
 */
export type GrammarSchemaResult = { success: true; value: Record<string, unknown> } | { success: false; error: string };

const refusedKeywords = [
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'pattern',
  'patternProperties',
  'propertyNames',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'contains',
  'minContains',
  'maxContains',
  'multipleOf',
  'unevaluatedProperties',
  'unevaluatedItems',
];
const checkedFormats = new Set(['date', 'time', 'date-time']);
const maxIntegerEnum = 1000;
const anyValue = {
  oneOf: [
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'null' },
    { type: 'object', additionalProperties: true },
    { type: 'array' },
  ],
};

class Refused extends Error {}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function rewriteDefs(defs: unknown, path: string): Record<string, unknown> {
  if (!isRecord(defs)) throw new Refused(`${path} is not an object of schemas`);
  return Object.fromEntries(Object.entries(defs).map(([name, def]) => [name, rewrite(def, `${path}/${name}`)]));
}

function integerEnum(schema: Record<string, unknown>, path: string): number[] | null {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  const low =
    typeof exclusiveMinimum === 'number'
      ? Math.floor(exclusiveMinimum) + 1
      : typeof minimum === 'number'
        ? Math.ceil(minimum)
        : null;
  const high =
    typeof exclusiveMaximum === 'number'
      ? Math.ceil(exclusiveMaximum) - 1
      : typeof maximum === 'number'
        ? Math.floor(maximum)
        : null;
  if (low === null && high === null) return null;
  if (low === null || high === null || high - low + 1 > maxIntegerEnum || high < low) {
    throw new Refused(
      `${path}: integer bounds other than a range of at most ${maxIntegerEnum} values cannot be enforced`,
    );
  }
  return Array.from({ length: high - low + 1 }, (_, i) => low + i);
}

function rewriteTyped(schema: Record<string, unknown>, type: string, path: string): Record<string, unknown> {
  const out: Record<string, unknown> = { type };
  switch (type) {
    case 'object': {
      const properties = schema.properties;
      if (properties !== undefined) {
        if (!isRecord(properties)) throw new Refused(`${path}/properties is not an object`);
        out.properties = Object.fromEntries(
          Object.entries(properties).map(([name, value]) => [name, rewrite(value, `${path}/properties/${name}`)]),
        );
      }
      const additional = schema.additionalProperties;
      if (additional === true || (additional === undefined && properties === undefined))
        out.additionalProperties = true;
      else if (isRecord(additional)) out.additionalProperties = rewrite(additional, `${path}/additionalProperties`);
      for (const key of ['minProperties', 'maxProperties'] as const)
        if (typeof schema[key] === 'number') out[key] = schema[key];
      return out;
    }
    case 'array': {
      if (schema.uniqueItems === true) throw new Refused(`${path}: uniqueItems cannot be enforced`);
      if (Array.isArray(schema.prefixItems)) {
        out.prefixItems = schema.prefixItems.map((item, i) => rewrite(item, `${path}/prefixItems/${i}`));
      }
      if (schema.items === false) out.maxItems = Array.isArray(schema.prefixItems) ? schema.prefixItems.length : 0;
      else if (Array.isArray(schema.items))
        throw new Refused(`${path}/items: a list of item schemas (draft 4 tuples) is not supported; use prefixItems`);
      else if (schema.items !== undefined && schema.items !== true) out.items = rewrite(schema.items, `${path}/items`);
      for (const key of ['minItems', 'maxItems'] as const)
        if (typeof schema[key] === 'number' && out[key] === undefined) out[key] = schema[key];
      return out;
    }
    case 'string':
      for (const key of ['minLength', 'maxLength'] as const)
        if (typeof schema[key] === 'number') out[key] = schema[key];
      if (typeof schema.format === 'string' && checkedFormats.has(schema.format)) out.format = schema.format;
      return out;
    case 'integer': {
      const values = integerEnum(schema, path);
      return values ? { enum: values } : out;
    }
    case 'number':
    case 'boolean':
    case 'null':
      return out;
    default:
      throw new Refused(`${path}: unknown type ${JSON.stringify(type)}`);
  }
}

function rewrite(schema: unknown, path: string): Record<string, unknown> {
  if (schema === true) return anyValue;
  if (!isRecord(schema)) throw new Refused(`${path} is not a schema object`);
  const refused = refusedKeywords.find((key) => schema[key] !== undefined);
  if (refused) throw new Refused(`${path}: the keyword "${refused}" cannot be turned into a grammar`);
  const defs = {
    ...(schema.definitions === undefined ? {} : rewriteDefs(schema.definitions, `${path}/definitions`)),
    ...(schema.$defs === undefined ? {} : rewriteDefs(schema.$defs, `${path}/$defs`)),
  };
  const withDefs = (out: Record<string, unknown>): Record<string, unknown> =>
    Object.keys(defs).length > 0 ? { ...out, $defs: defs } : out;

  if (typeof schema.$ref === 'string') {
    const match = /^#\/(?:\$defs|definitions)\/([^/]+)$/.exec(schema.$ref);
    if (!match)
      throw new Refused(`${path}: only references into #/$defs/ are supported, not ${JSON.stringify(schema.$ref)}`);
    return withDefs({ $ref: `#/$defs/${match[1]}` });
  }
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives !== undefined) {
    if (schema.oneOf !== undefined && schema.anyOf !== undefined) throw new Refused(`${path}: both oneOf and anyOf`);
    if (!Array.isArray(alternatives) || alternatives.length === 0)
      throw new Refused(`${path}: oneOf/anyOf is not a list of schemas`);
    const key = schema.oneOf !== undefined ? 'oneOf' : 'anyOf';
    return withDefs({ oneOf: alternatives.map((alt, i) => rewrite(alt, `${path}/${key}/${i}`)) });
  }
  const literals =
    schema.const !== undefined ? [schema.const] : Array.isArray(schema.enum) ? (schema.enum as unknown[]) : null;
  if (literals) {
    const bad = literals.find((value) => typeof value === 'object' && value !== null);
    if (bad !== undefined)
      throw new Refused(`${path}: enum and const values that are objects or arrays are not supported`);
    return withDefs(schema.const !== undefined ? { const: schema.const } : { enum: literals });
  }
  const type = schema.type;
  if (type === undefined) return withDefs(anyValue);
  if (typeof type === 'string') return withDefs(rewriteTyped(schema, type, path));
  if (!Array.isArray(type) || type.length === 0 || type.some((t) => typeof t !== 'string')) {
    throw new Refused(`${path}/type is not a type name or a list of them`);
  }
  if (type.length === 1) return withDefs(rewriteTyped(schema, type[0] as string, path));
  return withDefs({ oneOf: (type as string[]).map((t) => rewriteTyped(schema, t, path)) });
}

/** The schema in the form node-llama-cpp's grammar builder reads as the schema means, or why there is none. */
export function toGrammarSchema(schema: unknown): GrammarSchemaResult {
  try {
    return { success: true, value: rewrite(schema, '#') };
  } catch (error) {
    if (error instanceof Refused) return { success: false, error: error.message };
    throw error;
  }
}
