// The bias report's findings said as sentences a team lead reads, shared by the text report, the HTML report and
// the dashboard (web/src imports this file: it must stay free of runtime imports). The exact machine names —
// `reviewer_offset[x]`, `position_effect[0]`, `insufficient_data`, `minSessions` — stay in JSON and CSV, which
// scripts read; nothing here changes them.
//
// Three words, one meaning each: "evidence" is the tier a figure's number of sessions earns (too little data,
// preliminary, moderate, high); "coverage" is the share of the possible votes a ranking rests on; "95% interval"
// (a confidence interval) is the only confidence.

/** A figure's interval bounds and estimate, as every report document carries them. */
interface Estimate {
  estimate: number | null;
  ciLower: number | null;
  ciUpper: number | null;
}

/** A raised flag (or one held back), as the report document carries it. */
export interface FindingFlag extends Estimate {
  code: string;
  subject: string | null;
  metric: string;
}

/** The evidence tier's words: `insufficient_data` → "too little data". */
export function evidenceTier(tier: string): string {
  return tier === 'insufficient_data' ? 'too little data' : tier.replace('_', ' ');
}

/** The evidence tier with the sessions it stands for: "moderate (20–49 sessions)". */
export function evidenceTierRange(tier: string): string {
  switch (tier) {
    case 'insufficient_data':
      return 'too little data (fewer than 10 sessions)';
    case 'preliminary':
      return 'preliminary (10–19 sessions)';
    case 'moderate':
      return 'moderate (20–49 sessions)';
    case 'high':
      return 'high (50 or more sessions)';
    default:
      return evidenceTier(tier);
  }
}

/** "1st", "2nd", "3rd", "11th", "22nd". */
export function ordinal(k: number): string {
  const suffix = k % 100 >= 11 && k % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][k % 10] ?? 'th');
  return `${k}${suffix}`;
}

/** Display position `p` (0-based, as stored) said 1-based: "first", then "2nd", "3rd"… */
export function shownAt(position: number): string {
  return position === 0 ? 'first' : ordinal(position + 1);
}

/** The subject inside a metric name: `reviewer_offset[sim:ada]` → `sim:ada`; null when there is none. */
function subjectOf(metric: string): string | null {
  const open = metric.indexOf('[');
  const close = metric.indexOf(']', open);
  return open >= 0 && close > open ? metric.slice(open + 1, close) : null;
}

function fixed(value: number, digits: number): string {
  // −0.00 reads as 0.00.
  const text = value.toFixed(digits);
  return Number(text) === 0 ? (0).toFixed(digits) : text;
}

/**
 * The interval of a size said in words ("1.55 points below"): its bounds as sizes too, smaller first, "[1.42–1.69]";
 * an interval that crosses zero keeps its signs, "[-0.10, +0.30]".
 */
export function sizeInterval(lower: number | null, upper: number | null, digits = 2): string {
  if (lower === null || upper === null || !Number.isFinite(lower) || !Number.isFinite(upper)) return '';
  if (lower < 0 && upper > 0) return `[${fixed(lower, digits)}, +${fixed(upper, digits)}]`;
  const [a, b] = [Math.abs(lower), Math.abs(upper)].sort((x, y) => x - y);
  return `[${fixed(a!, digits)}–${fixed(b!, digits)}]`;
}

/** "1.55 points below the typical reviewer [1.42–1.69]" pieces: the size, and the interval. */
function size(e: Estimate, digits = 2): { amount: string; interval: string; up: boolean } {
  const estimate = e.estimate ?? 0;
  const interval = sizeInterval(e.ciLower, e.ciUpper, digits);
  return {
    amount: fixed(Math.abs(estimate), digits),
    interval: interval === '' ? '' : ` ${interval}`,
    up: estimate >= 0,
  };
}

/**
 * A finding as one sentence, from its flag code (or the figure's own kind) and figure:
 * "simulated:dmitri scores 1.55 points below the typical reviewer [1.42–1.69]",
 * "answers shown first score 0.31 points higher than average [0.12–0.50]".
 */
export function findingSentence(f: FindingFlag): string {
  const subject = f.subject ?? subjectOf(f.metric) ?? '';
  const { amount, interval, up } = size(f);
  const metric = f.metric;
  if (metric.startsWith('position_effect[') || metric.startsWith('rank_position_effect[')) {
    const position = Number(subjectOf(metric));
    const unit = metric.startsWith('rank_') ? 'rank points' : 'points';
    const verb = metric.startsWith('rank_') ? 'are ranked' : 'score';
    return `answers shown ${shownAt(position)} ${verb} ${amount} ${unit} ${up ? 'higher' : 'lower'} than average${interval}`;
  }
  switch (f.code) {
    case 'HARSH_REVIEWER':
    case 'GENEROUS_REVIEWER':
      return `${subject} scores ${amount} points ${up ? 'above' : 'below'} the typical reviewer${interval}`;
    case 'SELF_PREFERENCE':
      return `${subject} scores its own answers ${amount} points ${up ? 'higher' : 'lower'} than the other reviewers do${interval}, over and above its usual offset`;
    case 'REVIEWER_AFFINITY': {
      const [reviewer, author] = subject.split('→');
      return `${reviewer} scores ${author}'s answers ${amount} points ${up ? 'higher' : 'lower'} than the other reviewers do${interval}, over and above its usual offset`;
    }
    case 'REVIEWER_DRIFT':
      return `${subject} now scores ${amount} points ${up ? 'higher' : 'lower'} than before${interval}, against the typical reviewer`;
    case 'LENGTH_BIAS_DETECTED':
      return `longer answers score ${amount} points ${up ? 'higher' : 'lower'} per 1,000 characters${interval}, within a session`;
    case 'ANCHORING': {
      const r = (v: number | null) => (v === null ? '' : `${v > 0 ? '+' : ''}${fixed(v, 3)}`);
      const bounds = f.ciLower === null || f.ciUpper === null ? '' : ` [${r(f.ciLower)}, ${r(f.ciUpper)}]`;
      return `the later an answer is shown, the ${up ? 'further from' : 'closer to'} the session's mean its scores lie (r = ${r(f.estimate)}${bounds})`;
    }
    default:
      return `${metricLabel(metric)}: ${up ? '+' : '-'}${amount}${interval}`;
  }
}

/** What a flag code stands for, in words: `HARSH_REVIEWER` → "Harsh reviewer". */
export function flagName(code: string): string {
  const names: Record<string, string> = {
    LENGTH_BIAS_DETECTED: 'Length bias',
    POSITION_BIAS_DETECTED: 'Position bias',
    HARSH_REVIEWER: 'Harsh reviewer',
    GENEROUS_REVIEWER: 'Generous reviewer',
    SELF_PREFERENCE: 'Self-preference',
    REVIEWER_AFFINITY: 'Affinity',
    ANCHORING: 'Anchoring',
    REVIEWER_DRIFT: 'Reviewer drift',
  };
  return names[code] ?? code.charAt(0) + code.slice(1).toLowerCase().replaceAll('_', ' ');
}

/**
 * A figure that would have raised a flag but rests on fewer sessions than a flag needs:
 * "too little data: 12 sessions, 20 needed for a flag (harsh reviewer): r/harsh scores 2.00 points below the typical
 * reviewer [2.00–2.00]".
 */
export function withheldSentence(
  figure: Estimate & { metric: string; sessions: number },
  withheld: { code: string; minSessions: number },
): string {
  const sentence = findingSentence({ ...figure, code: withheld.code, subject: null });
  return `too little data: ${figure.sessions} session${figure.sessions === 1 ? '' : 's'}, ${withheld.minSessions} needed for a flag (${flagName(withheld.code).toLowerCase()}): ${sentence}`;
}

/** A trend's or anomaly's indicator in words: `position_spread` → "spread of the position effects". */
export function indicatorName(indicator: string): string {
  switch (indicator) {
    case 'length_score_correlation':
      return 'length–score correlation within sessions';
    case 'position_spread':
      return 'spread of the position effects';
    case 'mean_score':
      return 'mean score';
    default:
      return indicator.replaceAll('_', ' ');
  }
}

/**
 * A metric's machine name as a reader's label: `reviewer_offset[x]` → "x: offset against the typical reviewer",
 * `position_effect[0]` → "answers shown first". Unknown names come back with their underscores as spaces.
 */
export function metricLabel(metric: string): string {
  const subject = subjectOf(metric);
  const family = metric.indexOf('[') >= 0 ? metric.slice(0, metric.indexOf('[')) : metric;
  const rest = metric.indexOf(']') >= 0 ? metric.slice(metric.indexOf(']') + 1) : '';
  switch (family) {
    case 'length_slope_per_1000_chars':
      return 'length: points per 1,000 characters, within sessions';
    case 'length_score_correlation':
      return 'length: correlation r with score, within sessions';
    case 'length_between_sessions_per_1000_chars':
      return 'length: points per 1,000 characters, between sessions (not flagged)';
    case 'position_effect':
      return `answers shown ${shownAt(Number(subject))}`;
    case 'rank_position_effect':
      return `answers shown ${shownAt(Number(subject))} (rank points)`;
    case 'primacy_effect':
      return 'primacy: answers shown first';
    case 'recency_effect':
      return 'recency: answers shown last';
    case 'reviewer_offset':
      return `${subject}: offset against the typical reviewer${rest}`;
    case 'reviewer_drift':
      return `${subject}: change in offset`;
    case 'reviewer_mean':
      return `${subject}: mean score`;
    case 'reviewer_sd':
      return `${subject}: score SD`;
    case 'reviewer_z':
      return `${subject}: offset in score SDs`;
    case 'self_preference':
      return `${subject}: own answers (self-preference)`;
    case 'affinity': {
      const [reviewer, author] = (subject ?? '').split('→');
      return `${reviewer} on ${author}'s answers (affinity)`;
    }
    case 'anchoring':
      return 'anchoring: r of position and distance from the mean';
    default:
      if (family.endsWith('_slope_per_day'))
        return `${indicatorName(family.slice(0, -'_slope_per_day'.length))}: change per day`;
      if (subject === 'window') return `${indicatorName(family)} over a window`;
      return metric.replaceAll('_', ' ');
  }
}

/**
 * A note of the report as a reader should meet it: the minimum for flags said in words, options by their flags.
 * (The report already says when the window is below the minimum: that note comes back null.)
 */
export function userNote(note: string): string | null {
  if (/fewer than minSessions = \d+/.test(note)) return null;
  return note
    .replace('filtering by configVersion or model', 'filtering with --config-version or --model')
    .replace(/minSessions = (\d+)/g, 'the $1 sessions a flag needs');
}
