import { useState } from 'preact/hooks';
import {
  ANALYTICS_ONLY,
  calibratedOrderSentence,
  noSpreadSentence,
  effectiveJudgesSentence,
  styleCoefficientSentence,
  styleOrderSentence,
} from '../../src/calibrated-findings.js';
import { withInterval } from './format.js';
import type { CalibratedFigures, RatedCandidate, StyleControlled } from './types.js';

type View = 'raw' | 'calibrated';

const elo = (e: RatedCandidate | undefined): string =>
  e === undefined
    ? '–'
    : `${e.rating.toFixed(0)}${e.interval ? ` [${e.interval.lower.toFixed(0)}, ${e.interval.upper.toFixed(0)}]` : ''}`;

/** Where the style-controlled ratings are: not asked for yet (their fit takes seconds), on their way, or here. */
export type StyleState =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'ok'; ratings: StyleControlled | undefined }
  | { kind: 'error'; message: string };

function StyleRatingsBody({ ratings }: { ratings: StyleControlled }) {
  if (!ratings.computable) return <p class="small">Not computable: {ratings.reason}.</p>;
  const plain = new Map(ratings.plain.map((e) => [e.candidate, e]));
  return (
    <>
      <p class="small">{styleOrderSentence(ratings)}</p>
      {ratings.coefficients.map((c) => (
        <p class="small" key={c.feature}>
          {styleCoefficientSentence(c)}.
        </p>
      ))}
      <div class="table-wrap">
        <table class="style-ratings">
          <caption>
            Bradley–Terry ratings (Elo scale) from the reviewers' rankings, {ratings.comparisons} pairwise preferences:
            with answer length as a covariate, beside the plain fit.
          </caption>
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Member</th>
              <th scope="col">Length held fixed [95% interval]</th>
              <th scope="col">Plain [95% interval]</th>
              <th scope="col">Plain rank</th>
            </tr>
          </thead>
          <tbody>
            {ratings.styleControlled.map((e) => (
              <tr key={e.candidate}>
                <td class="num">{e.rank}</td>
                <th scope="row">{e.candidate}</th>
                <td class="num">{elo(e)}</td>
                <td class="num">{elo(plain.get(e.candidate))}</td>
                <td class="num">{plain.get(e.candidate)?.rank ?? '–'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/**
 * Bradley–Terry with answer length held fixed beside the plain fit, folded away under the scores: its bootstrap takes
 * seconds, so it is asked for (`onOpen`) the first time a reader opens it.
 */
function StyleControlledRatings({ state, onOpen }: { state: StyleState; onOpen: () => void }) {
  return (
    <details
      class="style-controlled"
      onToggle={(e) => {
        if (e.currentTarget.open && state.kind === 'idle') onOpen();
      }}
    >
      <summary>Style-controlled ratings</summary>
      {(state.kind === 'idle' || state.kind === 'loading') && (
        <p class="muted">Fitting Bradley–Terry with answer length held fixed…</p>
      )}
      {state.kind === 'error' && <p class="error">{state.message}</p>}
      {state.kind === 'ok' &&
        (state.ratings ? <StyleRatingsBody ratings={state.ratings} /> : <p class="muted">None in this window.</p>)}
    </details>
  );
}

/**
 * ADR-018 Phase 3's Calibrated View on the dashboard: each member's mean score as the reviewers gave it (Raw) or with
 * each reviewer's offset and the display positions' effects taken out (Calibrated), switched by two buttons whose
 * `aria-pressed` says which is shown; the table re-orders by the chosen score. Analytics only, as the page says.
 */
export function CalibratedLeaderboard({
  figures,
  style,
  onOpenStyle,
}: {
  figures: CalibratedFigures;
  /** The style-controlled ratings, fetched when their section is first opened. */
  style: StyleState;
  onOpenStyle: () => void;
}) {
  const [view, setView] = useState<View>('raw');
  if (figures.leaderboard.length === 0)
    return <p class="muted">No answer was scored by another member in this window: nothing to calibrate.</p>;
  const rank = (e: CalibratedFigures['leaderboard'][number]): number => (view === 'raw' ? e.rawRank : e.calibratedRank);
  const rows = [...figures.leaderboard].sort((a, b) => rank(a) - rank(b) || a.model.localeCompare(b.model));
  return (
    <div class="calibrated">
      <div class="row">
        <h3>Mean score</h3>
        <div role="group" aria-label="Scores shown" class="toggle">
          {(['raw', 'calibrated'] as const).map((v) => (
            <button key={v} type="button" class="toggle-button" aria-pressed={view === v} onClick={() => setView(v)}>
              {v === 'raw' ? 'Raw' : 'Calibrated'}
            </button>
          ))}
        </div>
      </div>
      <p class="small">
        {view === 'raw'
          ? "Each member's mean score as the reviewers gave it (self-reviews left out)."
          : figures.identified
            ? (noSpreadSentence(figures) ?? calibratedOrderSentence(figures))
            : "These records cannot put every reviewer's offset and display position on one scale: the calibrated scores repeat the raw ones."}
      </p>
      <div class="table-wrap">
        <table class="calibrated-leaderboard">
          <caption>
            {view === 'raw' ? 'Raw' : 'Calibrated'} mean score over {figures.sessions} sessions, with its{' '}
            {Math.round(figures.level * 100)}% interval.
          </caption>
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Member</th>
              <th scope="col">{view === 'raw' ? 'Raw' : 'Calibrated'} score [95% interval]</th>
              <th scope="col">{view === 'raw' ? 'Calibrated rank' : 'Raw rank'}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => {
              const shown = view === 'raw' ? e.raw : e.calibrated;
              return (
                <tr key={e.model}>
                  <td class="num">{rank(e)}</td>
                  <th scope="row">{e.model}</th>
                  <td class="num">{withInterval(shown.estimate, shown.lower, shown.upper)}</td>
                  <td class="num">{view === 'raw' ? e.calibratedRank : e.rawRank}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <StyleControlledRatings state={style} onOpen={onOpenStyle} />
      <p class="small analytics-only">{ANALYTICS_ONLY}</p>
    </div>
  );
}

/** n_eff under the bias figures: "How many judges you really have: 5 judges, 2.3 effective [1.8–3.1]: …". */
export function EffectiveJudges({ figures }: { figures: CalibratedFigures }) {
  return (
    <p class="small effective-judges">
      <strong>How many judges you really have:</strong> {effectiveJudgesSentence(figures.effectiveJudges)}
    </p>
  );
}
