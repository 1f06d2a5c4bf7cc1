// `pnpm --filter @council/cli generate:openapi`: writes docs/telemetry-ingest-openapi.json from the zod schemas.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiDocumentText } from './openapi-document.js';

const target = fileURLToPath(new URL('../../docs/telemetry-ingest-openapi.json', import.meta.url));
writeFileSync(target, openApiDocumentText());
process.stdout.write(`wrote ${target}\n`);
