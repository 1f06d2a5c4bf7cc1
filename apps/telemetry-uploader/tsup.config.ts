import { defineExecutableConfig } from '../../tsup.base.config.js';

// One self-contained file (the shared executable build: every dependency bundled, the `require` shim).
export default defineExecutableConfig({ 'council-telemetry': 'src/council-telemetry.ts' }, { splitting: false });
