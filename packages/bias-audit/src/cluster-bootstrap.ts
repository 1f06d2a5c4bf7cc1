import { BiasAuditError } from './bias-audit-error.js';
import { isArrayValue } from './internal/is-array-value.js';
import { bootstrap } from './bootstrap.js';
import type { BootstrapMethod, BootstrapResult } from './bootstrap-result.js';

/** Options of `clusterBootstrap`. */
export interface ClusterBootstrapOptions<T> {
  /** The observations; they are resampled a whole cluster at a time. */
  data: readonly T[];
  /** The cluster an observation belongs to, e.g. its session id. */
  clusterOf: (item: T) => string;
  /** The statistic over a resample, given as a list of clusters (a cluster drawn twice appears twice). */
  statistic: (clusters: readonly (readonly T[])[]) => number;
  replicates?: number;
  level?: number;
  method?: BootstrapMethod;
  seed?: number;
}

/**
 * The cluster (block) bootstrap: resamples whole clusters, such as sessions, with replacement, so
 * the interval honours the dependence among observations of one session. Clusters are ordered by
 * first appearance, so the same data and seed give the same interval.
 */
export function clusterBootstrap<T>(options: ClusterBootstrapOptions<T>): BootstrapResult {
  if (!isArrayValue(options.data))
    throw new BiasAuditError({ code: 'INVALID_INPUT', message: 'data must be an array of observations.' });
  const groups = new Map<string, T[]>();
  for (const item of options.data) {
    const key = options.clusterOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  const { statistic, data: _data, clusterOf: _clusterOf, ...rest } = options;
  return bootstrap<readonly T[]>({ ...rest, data: [...groups.values()], statistic });
}
