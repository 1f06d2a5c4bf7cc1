/** V = A⁺ M A⁺ · correction (k × k). */
export function sandwich(spec: {
  inverse: Float64Array;
  meat: Float64Array;
  k: number;
  correction: number;
}): Float64Array {
  const { inverse, meat, k, correction } = spec;
  const half = new Float64Array(k * k);
  for (let a = 0; a < k; a++)
    for (let b = 0; b < k; b++) {
      const x = inverse[a * k + b]!;
      if (x === 0) continue;
      for (let c = 0; c < k; c++) half[a * k + c]! += x * meat[b * k + c]!;
    }
  const covariance = new Float64Array(k * k);
  for (let a = 0; a < k; a++)
    for (let b = 0; b < k; b++) {
      const x = half[a * k + b]!;
      if (x === 0) continue;
      for (let c = 0; c < k; c++) covariance[a * k + c]! += x * inverse[b * k + c]! * correction;
    }
  return covariance;
}

export function quadraticForm(matrix: Float64Array, v: Float64Array, k: number): number {
  let total = 0;
  for (let a = 0; a < k; a++) {
    if (v[a] === 0) continue;
    for (let b = 0; b < k; b++) total += v[a]! * matrix[a * k + b]! * v[b]!;
  }
  return total;
}
