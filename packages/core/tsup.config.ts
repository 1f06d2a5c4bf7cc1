import { defineLibraryConfig } from '../../tsup.base.config.js';

// org-id and config-files on their own too: the CLI's settings check --org and place the configuration files on
// every command, and importing them from the index would evaluate all of core (its providers, ky, yaml, the fetch
// globals) before `bias-report` reads a line.
export default defineLibraryConfig(['src/index.ts', 'src/org-id.ts', 'src/config-files.ts']);
