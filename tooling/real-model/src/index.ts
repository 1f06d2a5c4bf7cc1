export { startRealModelServer } from './real-model-server.js';
export type { RealModelRequestStats, RealModelServer, RealModelServerOptions } from './real-model-server.js';
export { toGrammarSchema } from './grammar-schema.js';
export type { GrammarSchemaResult } from './grammar-schema.js';
