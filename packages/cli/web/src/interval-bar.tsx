/**
 * An estimate with its interval drawn on a shared scale [-extent, extent] (or [0, extent] when `from0`),
 * with the zero line. Decorative: the numbers are printed beside it.
 */
export function IntervalBar({
  estimate,
  lower,
  upper,
  extent,
  from0 = false,
}: {
  estimate: number | null;
  lower: number | null;
  upper: number | null;
  extent: number;
  from0?: boolean;
}) {
  const width = 160;
  const min = from0 ? 0 : -extent;
  const x = (v: number) => Math.max(0, Math.min(width, ((v - min) / (extent - min || 1)) * width));
  return (
    <svg class="interval-bar" viewBox={`0 0 ${width} 12`} width={width} height={12} aria-hidden="true">
      <line x1={x(0)} x2={x(0)} y1={0} y2={12} class="zero" stroke="#767676" stroke-width={1} />
      {lower !== null && upper !== null && (
        <line x1={x(lower)} x2={x(upper)} y1={6} y2={6} stroke="#1d4e89" stroke-width={2} />
      )}
      {estimate !== null && <circle cx={x(estimate)} cy={6} r={3.5} fill="#1d4e89" />}
    </svg>
  );
}

/** The largest absolute bound of the figures (at least `floor`), for a shared scale. */
export function extentOf(values: (number | null | undefined)[], floor = 1e-9): number {
  return Math.max(floor, ...values.map((v) => (typeof v === 'number' && Number.isFinite(v) ? Math.abs(v) : 0)));
}
