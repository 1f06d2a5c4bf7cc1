export { CouncilError } from './council-error.js';
export type { CouncilErrorCode } from './council-error.js';

export { createRng, randomInt } from './create-rng.js';
export type { Rng } from './rng.js';
export { shuffle } from './shuffle.js';
export { williamsDesign } from './williams-design.js';
export { orderModes } from './order-mode.js';
export type { OrderMode } from './order-mode.js';
export { createPresentationOrders } from './create-presentation-orders.js';
export type { CreatePresentationOrdersOptions } from './create-presentation-orders.js';
export { responseLabel } from './response-label.js';
export { createLabelToModel } from './label-to-model.js';
export type { LabelEntry, LabelToModel } from './label-to-model.js';

export { detectInjection } from './detect-injection.js';
export type { InjectionSignal } from './detect-injection.js';
export { parseEvaluation } from './parse-evaluation.js';
export type { Critique, EvaluationFormat, ParsedEvaluation } from './parse-evaluation.js';

export type { CouncilConfig, CouncilConfigLayer, SelfReview, StageTimeouts, SynthesisMode } from './council-config.js';
export { councilConfigLayerSchema } from './council-config-schema.js';
export { defaultConfig } from './default-config.js';
export { fillTemplate } from './fill-template.js';
export { mergeConfig } from './merge-config.js';
export { loadConfig, resolveConfig } from './load-config.js';
export type { LoadConfigOptions, LoadedConfig } from './load-config.js';
export { normalizeStrategyKey, resolveStrategy } from './resolve-strategy.js';

export type { Personality } from './personality.js';
export { parsePersonality, personalityFileSchema, personalityFromData, stringifyPersonality } from './parse-personality.js';
