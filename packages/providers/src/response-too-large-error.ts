import { ProviderError, hasErrorMarker, markError } from './provider-error.js';

/** A reply whose body passed the provider's `maxResponseBytes`: it was cut off unread, so it cannot fill memory. */
export class ResponseTooLargeError extends ProviderError {
  readonly provider: string;
  readonly modelId: string;
  readonly limitBytes: number;

  constructor(options: { provider: string; modelId: string; limitBytes: number }) {
    super({
      code: 'RESPONSE_TOO_LARGE',
      message: `reply too large: ${options.provider} sent more than ${describeBytes(options.limitBytes)} for ${options.modelId}, so it was cut off unread. Ask for a shorter answer, or raise the provider's maxResponseBytes.`,
    });
    this.name = 'ResponseTooLargeError';
    this.provider = options.provider;
    this.modelId = options.modelId;
    this.limitBytes = options.limitBytes;
    markError(this, 'ResponseTooLargeError');
  }

  static override isInstance(error: unknown): error is ResponseTooLargeError {
    return hasErrorMarker(error, 'ResponseTooLargeError');
  }
}

/** 4194304 → "4 MiB", 1536 → "1.5 KiB", 100 → "100 bytes". */
export function describeBytes(bytes: number): string {
  const trim = (n: number) => String(Number(n.toFixed(1)));
  if (bytes >= 1024 * 1024) return `${trim(bytes / (1024 * 1024))} MiB`;
  if (bytes >= 1024) return `${trim(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}
