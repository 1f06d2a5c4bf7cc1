// `@council/cli/test`: what the council-telemetry executable's own tests and benchmark use (apps/telemetry-uploader).
export { startIngestTestServer } from '../telemetry-upload/testing/ingest-test-server.js';
export type { IngestAnswer, IngestTestServer } from '../telemetry-upload/testing/ingest-test-server.js';
export { appendOutboxEvents, sampleEvent } from '../telemetry-upload/testing/sample-events.js';
export { tempHome } from '../telemetry-upload/testing/temp-home.js';
