/** A timed case. Cases of one suite are run round-robin, so a case and its baseline share the machine's mood. */
export interface BenchCase {
  name: string;
  fn: () => unknown;
  /** Name of another case in the same suite; the table shows this case's median divided by the baseline's. */
  baseline?: string;
  /** A time budget in milliseconds from the issue; the table shows median / budget when there is no baseline. */
  budgetMs?: number;
  /** Timed runs (after one untimed warm-up). Default 7. */
  iterations?: number;
}

/** A figure that is not a time (a bundle size, a false-positive rate, bytes on disk), measured once. */
export interface BenchValue {
  name: string;
  value: number;
  unit: string;
  /** The limit the issue sets; the table shows value / budget. */
  budget?: number;
}

export interface BenchSuite {
  name: string;
  cases?: BenchCase[];
  /** Runs after the timed cases. */
  values?: () => Promise<BenchValue[]> | BenchValue[];
  setup?: () => Promise<void> | void;
  teardown?: () => Promise<void> | void;
}

/** Identity helper that gives a suite file its types. Export the result as `suite`. */
export function defineBenchSuite(suite: BenchSuite): BenchSuite {
  return suite;
}
