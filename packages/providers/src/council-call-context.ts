/** One answer under review in a stage-2 call, as the prompt shows it. */
export interface CouncilReviewedResponse {
  /** `Response A`, `Response B`, … in presentation order. */
  label: string;
  text: string;
}

/** One member's answer in a stage-3 call, as the prompt shows it. */
export interface CouncilMemberAnswer {
  /** The member id the prompt lists it under (`Model: <id>`). */
  id: string;
  text: string;
}

/**
 * What a council call is, besides its messages: the stage, and for stages 2 and 3 the answers the
 * prompt shows. `@council/core` passes it as `providerOptions.simulated.council` (`SimulatedProviderOptions`),
 * so the simulated provider, which does not read prompts, plays its part from these values instead of parsing
 * core's text. Other providers ignore the `simulated` namespace; nothing of it is sent.
 */
export type CouncilCallContext =
  | { stage: 'answer' }
  | { stage: 'review'; responses: readonly CouncilReviewedResponse[] }
  | { stage: 'chairman'; answers: readonly CouncilMemberAnswer[] };

/** The council stage of a call: `answer` (stage 1), `review` (stage 2) or `chairman` (stage 3). */
export type CouncilCallStage = CouncilCallContext['stage'];
