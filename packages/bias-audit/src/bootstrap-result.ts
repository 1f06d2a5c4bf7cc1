/** How a bootstrap interval is read off the replicates. */
export type BootstrapMethod = 'percentile' | 'bca';

/** A bootstrap interval, or why none could be formed. */
export type BootstrapResult =
  | {
      computable: true;
      estimate: number;
      lower: number;
      upper: number;
      level: number;
      method: BootstrapMethod;
      /** Replicates whose statistic was finite and so entered the interval. */
      replicates: number;
      /** Replicates dropped because the statistic was not finite on them (e.g. a resample with no variance). */
      droppedReplicates: number;
      /** The standard deviation of the replicates. */
      standardError: number;
    }
  | { computable: false; estimate: number | null; reason: string };
