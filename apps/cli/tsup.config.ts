import { defineExecutableConfig } from '../../tsup.base.config.js';

// Self-contained (the shared executable build: every dependency bundled, the `require` shim in every chunk).
// Split into chunks at the commands' dynamic imports, so a command loads (and V8 compiles) only its own
// code: `bias-report` skips the providers, the council and the MCP SDK, ≈ 60 ms of a cold start.
export default defineExecutableConfig({ council: 'src/council.ts' }, { splitting: true });
