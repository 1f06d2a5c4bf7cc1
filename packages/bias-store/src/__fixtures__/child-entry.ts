// What child processes in the fault tests import, bundled by esbuild into one file.
export * from '../index.js';
export { eventSchema } from './event-schema.js';
