import { defineLibraryConfig } from '../../tsup.base.config.js';

export default defineLibraryConfig(['src/index.ts'], { target: 'es2022', platform: 'neutral' });
