/** Wraps a listener so that one that throws is ignored: a failing display must not fail the session. */
export function ignoreListenerErrors<T>(listener: ((value: T) => void) | undefined): (value: T) => void {
  return (value) => {
    try {
      listener?.(value);
    } catch {
      // Ignored on purpose (see above).
    }
  };
}
