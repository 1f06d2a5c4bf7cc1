// Starts the test fixture alone, for trying it by hand (curl, `council ask` with LLAMACPP_BASE_URL):
//   pnpm --filter @council/real-model serve [--port N] [--model smollm2|gemma] [--threads N] [--context N] [--cap N] [--ignore-stream]
// It prints the base URL and serves until stopped (Ctrl-C).
import { parseArgs } from 'node:util';
import { ensureRealModel } from '../../../scripts/ensure-real-model.mjs';
import { startRealModelServer } from './real-model-server.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    model: { type: 'string', default: 'smollm2' },
    threads: { type: 'string', default: '1' },
    context: { type: 'string' },
    cap: { type: 'string' },
    'ignore-stream': { type: 'boolean', default: false },
  },
});
if (values.model !== 'smollm2' && values.model !== 'gemma')
  throw new Error(`--model must be smollm2 or gemma, not ${values.model}`);

const server = await startRealModelServer({
  modelPath: await ensureRealModel({ model: values.model }),
  port: Number(values.port),
  threads: Number(values.threads),
  ...(values.context ? { contextSize: Number(values.context) } : {}),
  ...(values.cap ? { maxTokensCap: Number(values.cap) } : {}),
  ignoreStream: values['ignore-stream'],
});
console.log(`Real-model fixture (${values.model}, context ${server.contextSize}) at ${server.baseURL}`);
console.log(
  `  LLAMACPP_BASE_URL=${server.baseURL} council ask "…" --models llamacpp:a,llamacpp:b --chairman llamacpp:c`,
);
console.log(`  stats: curl http://127.0.0.1:${server.port}/stats`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
