import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { testContext } from '../testing/capture-io.js';
import { createCouncilMcpServer } from './create-council-mcp-server.js';

// Issue 30 item 10: "MCP says query/members/save, the CLI [question]/--models/--no-persist". The tool keeps one name per
// input (two would double the schema a client's model reads) and says, where a client lists its tools, which of
// `council ask`'s options each renamed input is (the names the cli README lists under council mcp).
// Input, the option its description names, and how the tool's own description says the pair.
const RENAMED: [string, string, string][] = [
  ['query', 'council ask "<question>"', 'query is its question'],
  ['members', '--models', 'members its --models'],
  ['continueFrom', '--continue', 'continueFrom its --continue'],
  ['timeoutSeconds', '--timeout', 'timeoutSeconds its --timeout'],
  ['maxCostUsd', '--max-cost', 'maxCostUsd its --max-cost'],
  ['temperature', '-o temperature', 'temperature its -o temperature'],
  ['save', '--no-persist', 'save: false its --no-persist'],
  ['keepQuestion', '--no-keep-question', 'keepQuestion: false its --no-keep-question'],
];

describe('consult_council names the ask option behind each of its inputs (issue 30 item 10)', () => {
  it('as tools/list shows it: the tool says the mapping, each renamed input names its flag', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-mcp-names-'));
    const t = testContext({ env: { LLM_COUNCIL_HOME: home }, home });
    const server = createCouncilMcpServer({ ctx: t.ctx, log: () => undefined });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 'names', version: '1.0.0' });
    await client.connect(b);
    const tool = (await client.listTools()).tools.find((x) => x.name === 'consult_council');
    expect(tool).toBeDefined();
    const properties = tool!.inputSchema.properties as Record<string, { description?: string }>;
    for (const [input, flag, said] of RENAMED) {
      expect(properties[input]?.description, input).toContain(flag);
      expect(tool!.description, input).toContain(said);
    }
    await client.close();
  });
});
