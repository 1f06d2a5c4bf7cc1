import { defineLibraryConfig } from '../../tsup.base.config.js';

export default defineLibraryConfig(['src/index.ts', 'src/internal/index.ts', 'src/test/index.ts']);
