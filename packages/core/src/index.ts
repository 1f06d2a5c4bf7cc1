// The main API: a council session (runCouncil), its options, its events and the session it returns.
export { runCouncil } from './run-council.js';
export type { RunCouncilOptions, SynthesisTextPart } from './run-council-options.js';
export type { CouncilMember, ResolvedMember } from './council-member.js';
export type { CouncilEvent, CouncilStage } from './council-event.js';
export type {
  CallError,
  CouncilBiasIndicators,
  CouncilSession,
  Exclusion,
  FailureReason,
  SessionAgreement,
  SessionConfig,
  SessionCostCap,
  SessionEvaluation,
  SessionSynthesis,
  SessionUsage,
  Stage1Result,
  Stage2Result,
  ReviewReadPath,
} from './council-session.js';
export { describeShortfall, sessionOutcome } from './session-outcome.js';

// Jury mode (verdict) and evidence: the rule (to re-tally a session's votes), what a session records, the secret
// scan callers run first. Reading replies and framing evidence stay inside runCouncil (their tests import the files).
export type { JuryDecision, VerdictMode } from './jury-decision.js';
export { verdictModes } from './jury-decision.js';
export { decideVerdict, pivotalJurors } from './decide-verdict.js';
export type { DecideVerdictOptions, JurorVote, VerdictReason, VerdictTally } from './decide-verdict.js';
export { describeReason } from './assemble-verdict.js';
export type { JurorReadPath, JurorRecord, SessionVerdict } from './session-verdict.js';
export type { JurorDecisionRead } from './read-jury-decision.js';
export type { EvidenceInjection, EvidenceItem, EvidenceReport } from './frame-evidence.js';
export { redactSecrets, scanSecrets } from './scan-secrets.js';
export type { SecretFinding, SecretKind } from './scan-secrets.js';
export type { SessionOutcome, SessionShortfall } from './session-outcome.js';
export { CouncilError } from './council-error.js';
export type { CouncilErrorCode } from './council-error.js';

// Configuration: the cascade (loadConfig) and personalities.
export type {
  CouncilConfig,
  CouncilConfigLayer,
  ModelOptions,
  ProviderConfig,
  SelfReview,
  StageTimeouts,
  SynthesisMode,
} from './council-config.js';
export { councilConfigLayerSchema } from './council-config-schema.js';
export { defaultConfig } from './default-config.js';
export { fillTemplate } from './fill-template.js';
export { mergeConfig } from './merge-config.js';
export { loadConfig, resolveConfig } from './load-config.js';
export type { LoadConfigOptions, LoadedConfig } from './load-config.js';
export { configFilesInHome } from './config-files.js';
export type { ConfigFiles } from './config-files.js';
export { orgIdProblem } from './org-id.js';
export { normalizeStrategyKey, resolveStrategy } from './resolve-strategy.js';
export type { Personality } from './personality.js';
export {
  parsePersonality,
  personalityFileSchema,
  personalityFromData,
  safeParsePersonality,
  stringifyPersonality,
} from './parse-personality.js';
export { combinePersonalities } from './combine-personalities.js';
export type { CombinePersonalitiesOptions } from './combine-personalities.js';

// Around a session: members, cost, follow-ups, what a session records and sends.
export { checkCostCap } from './check-cost-cap.js';
export type { CostCapCheck } from './check-cost-cap.js';
export { estimateReviewCost, estimateSynthesisCost } from './estimate-stage-cost.js';
export { expandPools } from './expand-pools.js';
export { MAX_COUNCIL_MEMBERS } from './max-council-members.js';
export { scrubSessionMessages } from './scrub-session-messages.js';
export { buildFollowUpQuery } from './build-follow-up-query.js';
export type { FollowUp } from './build-follow-up-query.js';
export { observationsFromSession } from './observations-from-session.js';
export type { ObservationsFromSessionOptions } from './observations-from-session.js';
export { buildTelemetryEvent } from './build-telemetry-event.js';
export type { TelemetryEventExtras, TelemetryQueryMetadata } from './build-telemetry-event.js';
export { TELEMETRY_SCHEMA_VERSION, telemetryEventSchema } from './telemetry-event-schema.js';
export type { TelemetryEvent } from './telemetry-event-schema.js';
export {
  minimumTelemetryConsentLevel,
  reduceTelemetryEventToConsent,
  telemetryFieldConsentLevel,
  telemetryFieldLevel,
} from './telemetry-field-consent.js';
export { generateFeedbackSummary } from './generate-feedback-summary.js';
export type { FeedbackSummary, FeedbackSummaryOptions, ThemeCount } from './generate-feedback-summary.js';

// The stages' parts, for callers that build their own pipeline: prompts, parsing, injection checks.
export { createBoundaryToken } from './create-boundary-token.js';
export { buildEvaluationPrompt } from './build-evaluation-prompt.js';
export type { BuildEvaluationPromptOptions } from './build-evaluation-prompt.js';
export { buildChairmanPrompt } from './build-chairman-prompt.js';
export type { BuildChairmanPromptOptions, ChairmanInput } from './build-chairman-prompt.js';
export { parseContributors } from './parse-contributors.js';
export type { Contributor, ParsedSynthesis } from './parse-contributors.js';
export { detectInjection } from './detect-injection.js';
export type { InjectionSignal } from './detect-injection.js';
export { parseEvaluation } from './parse-evaluation.js';
// A review asked for as structured output: the schema the call carries, and the reader of its JSON reply.
export { reviewResponseFormat } from './review-response-format.js';
export { parseStructuredEvaluation } from './parse-structured-evaluation.js';
export type { Critique, EvaluationFormat, ParsedEvaluation } from './parse-evaluation.js';

// Randomisation: the seeded generator, orders and labels.
export { createSeededMulberry32 } from './create-seeded-mulberry32.js';
export type { RandomSource } from './random-source.js';
export { shuffle } from './shuffle.js';
export { williamsDesign } from './williams-design.js';
export { orderModes } from './order-mode.js';
export type { OrderMode } from './order-mode.js';
export { createPresentationOrders } from './create-presentation-orders.js';
export type { CreatePresentationOrdersOptions } from './create-presentation-orders.js';
export { responseLabel } from './response-label.js';
export { createLabelToModel } from './label-to-model.js';
export type { LabelEntry, LabelToModel } from './label-to-model.js';
