import type { StudyFlag } from './study-estimator.js';

/** `CODE` for a council-wide flag, `CODE(subject)` otherwise: how the study names and compares flags. */
export function flagKey(flag: StudyFlag): string {
  return flag.subject === null ? flag.code : `${flag.code}(${flag.subject})`;
}
