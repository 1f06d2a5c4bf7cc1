import { ProviderError, hasErrorMarker, markError } from './provider-error.js';

/**
 * Why a response had no text: `empty` (the model said nothing), `reasoning-used-budget` (it spent
 * the whole token budget thinking), or `content-filter` (the provider withheld the answer).
 */
export type EmptyResponseReason = 'empty' | 'reasoning-used-budget' | 'content-filter';

/** The call succeeded but the model returned no answer text. */
export class EmptyResponseError extends ProviderError {
  readonly reason: EmptyResponseReason;
  readonly provider: string;
  readonly modelId: string;

  constructor(options: { message: string; reason: EmptyResponseReason; provider: string; modelId: string }) {
    super({ code: 'EMPTY_RESPONSE', message: options.message });
    this.name = 'EmptyResponseError';
    this.reason = options.reason;
    this.provider = options.provider;
    this.modelId = options.modelId;
    markError(this, 'EmptyResponseError');
  }

  static override isInstance(error: unknown): error is EmptyResponseError {
    return hasErrorMarker(error, 'EmptyResponseError');
  }
}
