import { useEffect, useState } from 'preact/hooks';
import { ApiError, api } from './api.js';
import type { EvalFigure, EvalReportDocument, EvalRunSummary } from './eval-types.js';
import { fixed, formatTime } from './format.js';

type Loaded<T> = { kind: 'loading' } | { kind: 'ok'; value: T } | { kind: 'error'; message: string };

async function load<T>(path: string): Promise<Loaded<T>> {
  try {
    return { kind: 'ok', value: await api<T>(path) };
  } catch (e) {
    return { kind: 'error', message: e instanceof ApiError ? e.message : String(e) };
  }
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
const dash = '–';

/** A figure with the typographic minus, as the CLI's report writes it: "−0.67". */
const minus = (v: number) => fixed(v).replace('-', '−');

/** A share of items: "75%" and its interval "[30–95%]". */
function share(f: EvalFigure): [string, string | null] {
  const { interval } = f;
  return [
    f.estimate === null ? dash : pct(f.estimate),
    interval ? `[${Math.round(interval.lower * 100)}–${pct(interval.upper)}]` : null,
  ];
}

/** κ or ρ: "0.67" and "[0.20, 0.90]"; "undefined" when it cannot be computed (one side does not vary). */
function figure(f: EvalFigure): [string, string | null] {
  if (f.estimate === null) return ['undefined', null];
  return [minus(f.estimate), f.interval ? `[${minus(f.interval.lower)}, ${minus(f.interval.upper)}]` : null];
}

/**
 * A figure's cell: the estimate, and under it its interval and how many items it is over — two short lines, so the
 * eight columns fit a laptop's width and a phone shows a name beside its first figure whole.
 */
function Cell({ f, text }: { f: EvalFigure | undefined; text: (f: EvalFigure) => [string, string | null] }) {
  if (f === undefined || f.n === 0) return <td class="num">{dash}</td>;
  const [estimate, interval] = text(f);
  return (
    <td class="num">
      {estimate}
      <br />
      {interval ?? ''} <small class="muted">n={f.n}</small>
    </td>
  );
}

/** An offset in points, signed: "−1.52" over "[−2.10, −0.90]". */
function Offset({ b }: { b: EvalReportDocument['reviewers'][number]['bias']['offset'] | undefined }) {
  if (b == null || b.estimate === null) return <td class="num">{dash}</td>;
  const signed = (v: number) => (Number(v.toFixed(2)) > 0 ? `+${fixed(v)}` : minus(v));
  return (
    <td class="num">
      {signed(b.estimate)}
      <br />
      {b.interval ? `[${signed(b.interval.lower)}, ${signed(b.interval.upper)}]` : ''}
    </td>
  );
}

const COUNCIL_VS_BEST = 'Is the council better than its best member?';

/** One eval run's report: the accuracy · agreement · bias table with intervals, the council against its best member, every figure in words. */
function EvalReportView({ report }: { report: EvalReportDocument }) {
  const reviewers = new Map(report.reviewers.map((r) => [r.reviewer, r]));
  const names = [...new Set([...report.members.map((m) => m.member), ...report.reviewers.map((r) => r.reviewer)])];
  const versus = report.sentences.find((s) => s.startsWith(COUNCIL_VS_BEST));
  const grader = report.grader === 'simulated' ? 'the demo’s simulated grader' : report.grader;
  return (
    <div class="eval-report">
      {report.demo && <p class="notes">Demo run on simulated members: a walk through the report, not a measurement.</p>}
      <p>
        {report.items.done} of {report.items.total} items done ({report.items.withCouncil} answered by the council,{' '}
        {report.items.withPreference} with people’s preferences, {report.items.withScore} with people’s scores).
      </p>
      <div class="table-wrap">
        <table class="eval-table">
          <caption>
            Accuracy · agreement · bias, each with its 95% interval (n: the items it is over): Wilson’s for shares of
            items, a bootstrap over items for κ and ρ, the bias report’s for offsets.
          </caption>
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">Key content</th>
              <th scope="col">Graded*</th>
              <th scope="col">Win rate</th>
              <th scope="col">Correct/$</th>
              <th scope="col">κ vs people</th>
              <th scope="col">ρ vs people</th>
              <th scope="col">Offset (pts)</th>
            </tr>
          </thead>
          <tbody>
            {names.map((name) => {
              const m = report.members.find((x) => x.member === name);
              const r = reviewers.get(name);
              return (
                <tr key={name}>
                  <th scope="row">{name}</th>
                  <Cell f={m?.keyContent} text={share} />
                  <Cell f={m?.graded} text={share} />
                  <Cell f={m?.winRate} text={share} />
                  <td class="num">{m?.correctPerDollar == null ? dash : m.correctPerDollar.toFixed(1)}</td>
                  <Cell f={r?.preferences.kappa} text={figure} />
                  <Cell f={r?.scores.rho} text={figure} />
                  <Offset b={r?.bias.offset} />
                </tr>
              );
            })}
            <tr>
              <th scope="row">Council (synthesis)</th>
              <Cell f={report.council} text={share} />
              <td colSpan={6} />
            </tr>
          </tbody>
        </table>
      </div>
      <p class="notes">* Graded: items with only a reference answer, judged by {grader} — a judgement, not a check.</p>
      {versus && (
        <p class="eval-versus">
          <strong>{COUNCIL_VS_BEST}</strong>
          {versus.slice(COUNCIL_VS_BEST.length)}
        </p>
      )}
      <details class="eval-sentences">
        <summary>Every figure in words ({report.sentences.length - (versus ? 1 : 0)} sentences)</summary>
        <ul>
          {report.sentences
            .filter((s) => s !== versus)
            .map((s, i) => (
              <li key={i}>{s}</li>
            ))}
        </ul>
      </details>
      {report.notes.length > 0 && (
        <ul class="notes">
          {report.notes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The dashboard's Evals section: the eval runs saved in the home (`council eval` saves each run's report), the newest
 * shown, any other chosen from a list.
 */
export function EvalsSection() {
  const [runs, setRuns] = useState<Loaded<EvalRunSummary[]>>({ kind: 'loading' });
  const [chosen, setChosen] = useState<string | null>(null);
  const [report, setReport] = useState<Loaded<EvalReportDocument>>({ kind: 'loading' });

  useEffect(() => {
    void load<{ evals: EvalRunSummary[] }>('/api/evals').then((r) => {
      setRuns(r.kind === 'ok' ? { kind: 'ok', value: r.value.evals } : r);
      if (r.kind === 'ok' && r.value.evals.length > 0) setChosen(r.value.evals[0]!.id);
    });
  }, []);
  useEffect(() => {
    if (chosen === null) return;
    setReport({ kind: 'loading' });
    void load<EvalReportDocument>(`/api/evals/${encodeURIComponent(chosen)}`).then(setReport);
  }, [chosen]);

  return (
    <section class="card wide" aria-labelledby="dash-evals">
      <h2 id="dash-evals">Evals: are the judges right?</h2>
      {runs.kind === 'loading' && <p class="muted">Loading…</p>}
      {runs.kind === 'error' && <p class="error">{runs.message}</p>}
      {runs.kind === 'ok' && runs.value.length === 0 && (
        <p class="muted">
          No eval runs in this home yet: <code>council eval DATASET</code> saves its report here (try{' '}
          <code>council eval examples/eval/questions.jsonl --demo</code>).
        </p>
      )}
      {runs.kind === 'ok' && runs.value.length === 1 && (
        <p class="muted">
          Run: {runs.value[0]!.journal} · {formatTime(runs.value[0]!.generatedAt)}
        </p>
      )}
      {runs.kind === 'ok' && runs.value.length > 1 && (
        <label class="row">
          Run{' '}
          <select value={chosen ?? ''} onChange={(e) => setChosen(e.currentTarget.value)}>
            {runs.value.map((r) => (
              <option key={r.id} value={r.id}>
                {r.journal} · {formatTime(r.generatedAt)} · {r.items.done} items{r.demo ? ' · demo' : ''}
              </option>
            ))}
          </select>
        </label>
      )}
      {chosen !== null && report.kind === 'loading' && <p class="muted">Loading the report…</p>}
      {chosen !== null && report.kind === 'error' && <p class="error">{report.message}</p>}
      {chosen !== null && report.kind === 'ok' && <EvalReportView report={report.value} />}
    </section>
  );
}
