import type { CouncilEvent } from './council-event.js';

export type EmitCouncilEvent = (event: CouncilEvent) => void;

/** Passes events to the session's listener, if any; a listener that throws is ignored. */
export function createEventEmitter(onEvent: ((event: CouncilEvent) => void) | undefined): EmitCouncilEvent {
  return (event) => {
    try {
      onEvent?.(event);
    } catch {
      // A failing progress display must not fail the session.
    }
  };
}
