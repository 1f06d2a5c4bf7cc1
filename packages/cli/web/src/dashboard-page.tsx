import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, query } from './api.js';
import { BiasFigures } from './bias-figures.js';
import { CalibratedLeaderboard, EffectiveJudges } from './calibrated-toggle.js';
import type { StyleState } from './calibrated-toggle.js';
import { EvalsSection } from './eval-section.js';
import { dayBound, withInterval } from './format.js';
import { ContributionHeatmap } from './heatmap.js';
import type { BiasReportDocument, ContributionsReport, LeaderboardDocument } from './types.js';

interface Window {
  last: string;
  since: string;
}

type Loaded<T> = { kind: 'loading' } | { kind: 'ok'; value: T } | { kind: 'error'; message: string; status: number };

async function load<T>(path: string): Promise<Loaded<T>> {
  try {
    return { kind: 'ok', value: await api<T>(path) };
  } catch (e) {
    return {
      kind: 'error',
      message: e instanceof ApiError ? e.message : String(e),
      status: e instanceof ApiError ? e.status : 0,
    };
  }
}

function Leaderboard({ document }: { document: LeaderboardDocument }) {
  if (document.borda.length === 0) return <p class="muted">No ranked sessions yet.</p>;
  return (
    <div class="table-wrap">
      <table class="leaderboard">
        <caption>
          Aggregate Borda score over {document.sessions} sessions (0 last, 1 first), with its 95% interval.
        </caption>
        <thead>
          <tr>
            <th scope="col">Rank</th>
            <th scope="col">Member</th>
            <th scope="col">Borda [95% interval]</th>
            <th scope="col">Wins</th>
            <th scope="col">Sessions</th>
          </tr>
        </thead>
        <tbody>
          {document.borda.map((e) => (
            <tr key={e.candidate}>
              <td class="num">{e.rank}</td>
              <th scope="row">{e.candidate}</th>
              <td class="num">{withInterval(e.aggregateBorda, e.interval?.lower, e.interval?.upper)}</td>
              <td class="num">{e.totalWins}</td>
              <td class="num">{e.appearances}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Section<T>({
  title,
  id,
  state,
  render,
  missing,
  wide,
}: {
  title: string;
  id: string;
  state: Loaded<T>;
  render: (value: T) => preact.ComponentChildren;
  missing?: string;
  wide?: boolean;
}) {
  return (
    <section class={wide ? 'card wide' : 'card'} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {state.kind === 'loading' && <p class="muted">Loading…</p>}
      {state.kind === 'error' && (missing ? <p class="muted">{missing}</p> : <p class="error">{state.message}</p>)}
      {state.kind === 'ok' && render(state.value)}
    </section>
  );
}

/** The leaderboard, the contribution heatmap and the bias report's figures, over a window of sessions. */
export function DashboardPage() {
  const [form, setForm] = useState<Window>({ last: '', since: '' });
  const [applied, setApplied] = useState<Window>(form);
  const [leaderboard, setLeaderboard] = useState<Loaded<LeaderboardDocument>>({ kind: 'loading' });
  const [contributions, setContributions] = useState<Loaded<ContributionsReport>>({ kind: 'loading' });
  const [bias, setBias] = useState<Loaded<BiasReportDocument>>({ kind: 'loading' });
  // The same window's calibrated figures (bias-report --calibrated): their bootstraps take longer, so apart.
  const [calibrated, setCalibrated] = useState<Loaded<BiasReportDocument>>({ kind: 'loading' });
  // Its style-controlled fit (seconds more) only once a reader opens it.
  const [style, setStyle] = useState<StyleState>({ kind: 'idle' });

  useEffect(() => {
    const window = query({ last: applied.last, since: dayBound(applied.since, false) });
    setContributions({ kind: 'loading' });
    setBias({ kind: 'loading' });
    setCalibrated({ kind: 'loading' });
    setStyle({ kind: 'idle' });
    void load<LeaderboardDocument>('/api/leaderboard').then(setLeaderboard);
    void load<ContributionsReport>(`/api/contributions${window}`).then(setContributions);
    void load<BiasReportDocument>(`/api/bias-report${window}`).then(setBias);
    void load<BiasReportDocument>(
      `/api/bias-report${query({ last: applied.last, since: dayBound(applied.since, false), calibrated: 'true', style: 'false' })}`,
    ).then(setCalibrated);
  }, [applied]);
  const openStyle = () => {
    setStyle({ kind: 'loading' });
    void load<BiasReportDocument>(
      `/api/bias-report${query({ last: applied.last, since: dayBound(applied.since, false), calibrated: 'true' })}`,
    ).then((r) =>
      setStyle(
        r.kind === 'ok'
          ? { kind: 'ok', ratings: r.value.styleControlled }
          : r.kind === 'error'
            ? { kind: 'error', message: r.message }
            : { kind: 'loading' },
      ),
    );
  };
  const figures = calibrated.kind === 'ok' ? calibrated.value.calibrated : undefined;
  const calibratedView =
    calibrated.kind === 'loading' ? (
      <p class="muted">Loading the calibrated view…</p>
    ) : calibrated.kind === 'error' ? (
      <p class="muted">No calibrated view: {calibrated.message}</p>
    ) : figures ? (
      <CalibratedLeaderboard figures={figures} style={style} onOpenStyle={openStyle} />
    ) : null;

  return (
    <div class="dashboard">
      <form
        class="filters row"
        aria-label="Window"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(form);
        }}
      >
        <label>
          Last sessions
          <input
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            value={form.last}
            placeholder="all"
            onInput={(e) => setForm({ ...form, last: e.currentTarget.value })}
          />
        </label>
        <label>
          Since
          <input type="date" value={form.since} onInput={(e) => setForm({ ...form, since: e.currentTarget.value })} />
        </label>
        <button type="submit">Apply</button>
      </form>
      <div class="grid">
        <Section
          title="Leaderboard"
          id="dash-leaderboard"
          state={leaderboard}
          render={(d) => (
            <>
              <Leaderboard document={d} />
              {calibratedView}
            </>
          )}
        />
        <Section
          title="Contribution heatmap"
          id="dash-heatmap"
          state={contributions}
          render={(d) => <ContributionHeatmap report={d} />}
          {...(contributions.kind === 'error' && contributions.status === 404
            ? { missing: 'No contribution data yet.' }
            : {})}
        />
        <Section
          title="Bias report"
          id="dash-bias"
          wide
          state={bias}
          render={(d) => (
            <>
              <BiasFigures document={d} />
              {figures && (d.report?.window.sessions ?? 0) > 0 && <EffectiveJudges figures={figures} />}
            </>
          )}
        />
        <EvalsSection />
      </div>
    </div>
  );
}
