import type { BiasStyleControlled } from '../bias-style-controlled.js';
import {
  ANALYTICS_ONLY,
  calibratedOrderSentence,
  noSpreadSentence,
  effectiveJudgesSentence,
  figureText,
  judgePairSentence,
  poolingPriorSentence,
  signed,
  styleCoefficientSentence,
  styleOrderSentence,
} from '../calibrated-findings.js';
import type { BiasReportDocument } from '../commands/bias-report-command.js';
import { countNoun } from '../count-noun.js';
import { escapeXml } from './svg-primitives.js';

/** Issue 31's figures of the report's records, as `calibratedFigures` computes them. */
export interface CalibratedSectionData {
  calibrated: NonNullable<BiasReportDocument['calibrated']>;
  /** Absent: no style-controlled section. */
  styleControlled?: BiasStyleControlled;
}

/** Numbers only (no member name can reach here): the page's minus sign, as `formatNumber` writes it. */
const minus = (text: string): string => text.replace(/-(?=\d)/g, '−');

function table(spec: {
  caption: string;
  className: string;
  head: readonly string[];
  rows: readonly (readonly string[])[];
}): string {
  const head = spec.head.map((h) => `<th scope="col">${escapeXml(h)}</th>`).join('');
  const body = spec.rows
    .map((r) => `<tr>${r.map((c, i) => `<td${i > 0 ? ' class="num"' : ''}>${escapeXml(c)}</td>`).join('')}</tr>`)
    .join('');
  return `<div class="scroll"><table class="${spec.className}"><caption>${escapeXml(spec.caption)}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
}

const elo = (x: number): string => x.toFixed(0);
const eloSpan = (rating: number, i: { lower: number; upper: number } | null): string =>
  `${elo(rating)}${i === null ? '' : ` [${elo(i.lower)}, ${elo(i.upper)}]`}`;

/**
 * The HTML report's sections for issue 31: the calibrated leaderboard beside the raw one, how many judges the council
 * really has, the reviewer offsets pooled toward the typical reviewer (the prior stated) and the style-controlled
 * ratings beside the plain ones. Each opens with the sentence a team lead reads; tables scroll in their own box on a
 * phone (`.scroll`), the member's name in the first cell, as in the page's other tables.
 */
export function renderCalibratedSection(data: CalibratedSectionData): string {
  const { calibrated: view, styleControlled } = data;
  const level = `${Math.round(view.level * 100)}% interval`;
  const out: string[] = [];
  out.push('<h2 id="calibrated">Calibrated leaderboard</h2>');
  out.push(`<p class="notice">${escapeXml(ANALYTICS_ONLY)} Nothing here reaches a council’s vote.</p>`);
  if (view.leaderboard.length === 0) {
    out.push('<p class="meta">No answer was scored by another member in this window: nothing to calibrate.</p>');
  } else {
    out.push(
      `<p>${escapeXml(
        view.identified
          ? (noSpreadSentence(view) ?? calibratedOrderSentence(view))
          : "These records cannot put every reviewer's offset and display position on one scale (reviewers who never scored a common answer, or answers always shown in the same place to all): the calibrated column repeats the raw one.",
      )}</p>`,
    );
    out.push(
      table({
        caption: `Each member’s mean score with each reviewer’s offset and the display positions’ effects taken out, beside the raw mean (${countNoun(view.observations, 'score')} in ${countNoun(view.sessions, 'session')}, self-reviews left out)`,
        className: 'calibrated',
        head: ['member', 'rank', `calibrated [${level}]`, `raw [${level}]`, 'raw rank', 'answers'],
        rows: view.leaderboard.map((e) => [
          e.model,
          String(e.calibratedRank),
          minus(figureText(e.calibrated)),
          minus(figureText(e.raw)),
          String(e.rawRank),
          String(e.answers),
        ]),
      }),
    );
  }

  const judges = view.effectiveJudges;
  out.push('<h2 id="judges">How many judges you really have</h2>');
  out.push(`<p>${escapeXml(effectiveJudgesSentence(judges))}</p>`);
  if (judges.effective.estimate !== null && Number.isFinite(judges.effective.estimate) && judges.pairs.length > 0)
    out.push(
      `<details><summary>Each pair of reviewers</summary><ul>${judges.pairs
        .map((p) => `<li>${escapeXml(judgePairSentence(p))}</li>`)
        .join('')}</ul></details>`,
    );

  const pooled = view.partialPooling.reviewerOffsets;
  if (pooled.effects.length > 0) {
    out.push('<h2 id="pooled">Reviewer offsets pooled toward the typical reviewer</h2>');
    out.push(`<p>${escapeXml(poolingPriorSentence(pooled.prior))}</p>`);
    out.push(
      table({
        caption: 'Points against the typical reviewer on the same answer (negative = harsh): as measured, and pooled',
        className: 'pooled',
        head: ['reviewer', 'measured', `pooled [${Math.round(pooled.level * 100)}% interval]`, 'kept'],
        rows: pooled.effects.map((e) => [
          e.subject,
          minus(signed(e.raw)),
          minus(figureText(e, { signed: true })),
          `${Math.round(e.shrinkage * 100)}%`,
        ]),
      }),
    );
  }

  if (styleControlled === undefined) return out.join('\n');
  out.push('<h2 id="style">Style-controlled ratings</h2>');
  if (!styleControlled.computable) {
    out.push(`<p class="meta">Not computable: ${escapeXml(styleControlled.reason)}.</p>`);
  } else {
    out.push(`<p>${escapeXml(styleOrderSentence(styleControlled))}</p>`);
    if (styleControlled.coefficients.length > 0)
      out.push(
        `<ul>${styleControlled.coefficients.map((c) => `<li>${escapeXml(minus(styleCoefficientSentence(c)))}</li>`).join('')}</ul>`,
      );
    const plain = new Map(styleControlled.plain.map((e) => [e.candidate, e]));
    out.push(
      table({
        caption: `Bradley–Terry ratings (Elo scale) from the reviewers’ rankings, ${countNoun(styleControlled.comparisons, 'pairwise preference')} in ${countNoun(styleControlled.sessions, 'session')}: with answer length as a covariate, beside the plain fit`,
        className: 'style-controlled',
        head: ['member', 'rank', 'style-controlled [interval]', 'plain [interval]', 'plain rank'],
        rows: styleControlled.styleControlled.map((e) => {
          const p = plain.get(e.candidate);
          return [
            e.candidate,
            String(e.rank),
            eloSpan(e.rating, e.interval),
            p === undefined ? 'n/a' : eloSpan(p.rating, p.interval),
            p === undefined ? '' : String(p.rank),
          ];
        }),
      }),
    );
    out.push(
      `<p class="meta">${escapeXml(styleControlled.note.charAt(0).toUpperCase() + styleControlled.note.slice(1))}.</p>`,
    );
  }
  return out.join('\n');
}
