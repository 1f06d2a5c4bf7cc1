// What child processes of the export tests import, bundled by esbuild into one file: the store, with Parquet.
export * from '@council/bias-store';
export { biasParquet } from '../bias-parquet.js';
