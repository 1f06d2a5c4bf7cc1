import { BiasStoreError } from './bias-store-error.js';

/** JS's string order (UTF-16 code units): the reader's order of session ids, and an engine's of the window's names. */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The most distinct names a column of `BiasColumns` can index (as the reader's interners allow). */
export const windowNameLimits = { models: 0xffff, 'config versions': 0xfffe, 'query categories': 0xfffe } as const;

/** Refuses a window naming more than its kind's limit of distinct names, as the reader refuses its inputs. */
export function checkWindowNames(count: number, what: keyof typeof windowNameLimits): void {
  if (count <= windowNameLimits[what]) return;
  throw new BiasStoreError({
    code: 'INVALID_OPTION',
    message: `The window holds more than ${windowNameLimits[what]} distinct ${what}; a report over them cannot be built. Narrow the window.`,
  });
}
