import { defineLibraryConfig } from '../../tsup.base.config.js';

// scrub-secrets on its own too: the CLI scrubs every stderr line of every command, and importing it from the index
// would evaluate all of providers (zod, ky, whose module load builds a Request and so loads Node's undici) before
// `bias-report` reads a line.
export default defineLibraryConfig(['src/index.ts', 'src/scrub-secrets.ts', 'src/test/index.ts']);
