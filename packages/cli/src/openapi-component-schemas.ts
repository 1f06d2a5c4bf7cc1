import * as z from 'zod';

/**
 * OpenAPI 3.1 component schemas from zod schemas, each under its name: JSON Schema 2020-12 with references
 * between them as `#/components/schemas/<name>`, names sorted. `io` is the side a schema describes: what a
 * request may send (`input`) or what a validated value holds (`output`). Used by both OpenAPI documents
 * (`council serve`'s API and the telemetry ingest contract).
 */
export function openApiComponentSchemas(
  named: ReadonlyArray<readonly [z.ZodType, string]>,
  io: 'input' | 'output',
): Record<string, Record<string, unknown>> {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of named) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Record<string, unknown>> };
  const result: Record<string, Record<string, unknown>> = {};
  for (const name of Object.keys(schemas).sort()) {
    // OpenAPI 3.1 schemas are JSON Schema 2020-12 already; the per-schema $schema/$id add nothing.
    const { $schema: _schema, $id: _id, ...rest } = schemas[name]!;
    result[name] = rest;
  }
  return result;
}
