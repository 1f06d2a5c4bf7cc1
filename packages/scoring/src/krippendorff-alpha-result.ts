/** Krippendorff's ordinal alpha and the counts behind it: what `krippendorffAlpha` and `ordinalAlpha` return. */
export interface KrippendorffAlphaResult {
  /** 1 = perfect agreement, 0 = chance level, below 0 = systematic disagreement. */
  alpha: number;
  /** Units (candidates) with at least two values: the only ones that carry agreement information. */
  pairableUnits: number;
  /** Values in those units: the n of the formula. */
  pairableValues: number;
}
