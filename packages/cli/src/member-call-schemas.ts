import * as z from 'zod';

/** A system prompt for every member's answer, as serve's and MCP's inputs take it (`ask --system`). */
export const systemPromptSchema = z
  .string()
  .min(1, 'system is empty: leave it out for no system prompt')
  .max(100_000, 'system must be at most 100,000 characters');

/** Every member call's temperature, as serve's and MCP's inputs take it (`ask -o temperature=…`). */
export const temperatureSchema = z
  .number({ error: 'temperature must be a number from 0 to 2, e.g. 0.2' })
  .min(0, 'temperature must be from 0 to 2, e.g. 0.2')
  .max(2, 'temperature must be from 0 to 2, e.g. 0.2');
