import type { EvidenceReport, JurorRecord, SessionVerdict } from '@council/core';
import { evidenceNotes, flipSentence } from '../../src/jury-sentences.js';
import { fixed } from './format.js';
import { signedMargin, verdictReasonText } from './verdict-view-model.js';

/** What else a vote's row says: how its decision was read, and what the bias store knows of it as a reviewer. */
function voteNotes(vote: JurorRecord): string[] {
  const notes: string[] = [];
  if (vote.decision === null) notes.push('no vote: its call failed');
  else if (vote.read === 'unread') notes.push('no decision could be read: counted unclear');
  else if (vote.read.endsWith('-repaired')) notes.push('read after a repair request');
  if (vote.reviewerFlags.length > 0) notes.push(`flagged as a reviewer: ${vote.reviewerFlags.join(', ')}`);
  return notes;
}

/** Each evidence item: how much of it the members read; then what was cut or left out, and lines flagged as injections. */
function EvidenceSection({ evidence }: { evidence: readonly EvidenceReport[] }) {
  const notes = evidenceNotes(evidence);
  return (
    <section class="evidence-notes" aria-label="Evidence">
      <h4>Evidence</h4>
      <ul class="small">
        {evidence.map((item) => (
          <li key={item.name}>
            <span class="model-text">{item.name}</span>:{' '}
            {item.cut
              ? `${item.keptChars.toLocaleString('en-US')} of ${item.chars.toLocaleString('en-US')} characters read`
              : `all ${item.chars.toLocaleString('en-US')} characters read`}
          </li>
        ))}
      </ul>
      {notes.length > 0 && (
        <ul class="warnings small" aria-label="Evidence notes">
          {notes.map((n) => (
            <li key={n} class="model-text">
              {n}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * A jury session's verdict (issue 32): the decision and why, each member's decision with its weight and confidence
 * (a reviewer the bias store flagged named beside its vote), the weighted margin, who could flip it alone, the
 * chairman's own decision and the dissent; then what became of the evidence. Renders nothing for a plain session.
 */
export function VerdictView({
  verdict,
  evidence,
  idPrefix,
}: {
  verdict: SessionVerdict | undefined;
  evidence: readonly EvidenceReport[] | undefined;
  /** Makes the ids in it unique on a page that shows several sessions (the chat's turns). */
  idPrefix: string;
}) {
  if (verdict === undefined && (evidence === undefined || evidence.length === 0)) return null;
  return (
    <section class="verdict" aria-label="Verdict">
      {verdict !== undefined && (
        <>
          <h3>
            Verdict:{' '}
            <span class={`verdict-decision verdict-${verdict.decision}`}>{verdict.decision.toUpperCase()}</span>
          </h3>
          <p class="verdict-reason">
            {verdictReasonText(verdict)} ({verdict.mode}, threshold {verdict.minMargin.toFixed(2)})
          </p>
          <p class="muted small verdict-votes-note" id={`${idPrefix}-votes-note`}>
            Each member's decision, weighed by its answer's Borda score in the peer review (1 + score)
          </p>
          <div class="table-scroll">
            <table class="verdict-votes" aria-labelledby={`${idPrefix}-votes-note`}>
              <thead>
                <tr>
                  <th scope="col">Member</th>
                  <th scope="col">Decision</th>
                  <th scope="col" class="num">
                    Weight
                  </th>
                  <th scope="col" class="num">
                    Confidence
                  </th>
                  <th scope="col">Notes</th>
                </tr>
              </thead>
              <tbody>
                {verdict.votes.map((vote) => (
                  <tr key={vote.member} class={verdict.pivotal.includes(vote.member) ? 'pivotal' : undefined}>
                    <th scope="row">
                      {vote.member}
                      {verdict.pivotal.includes(vote.member) && <span class="badge badge-pivotal">pivotal</span>}
                    </th>
                    <td>{vote.decision ?? 'failed'}</td>
                    <td class="num">{vote.decision === null ? '–' : vote.weight.toFixed(2)}</td>
                    <td class="num">{fixed(vote.confidence)}</td>
                    <td class="small">{voteNotes(vote).join('; ')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p class="verdict-margin small">
            Weighted: approve {verdict.approveWeight.toFixed(2)}, reject {verdict.rejectWeight.toFixed(2)}, unclear{' '}
            {verdict.unclearWeight.toFixed(2)} of {verdict.totalWeight.toFixed(2)}; margin{' '}
            {signedMargin(verdict.margin)}.
          </p>
          <p class="verdict-flip">{flipSentence(verdict)}</p>
          {verdict.chairmanDecision !== null && (
            <p class="small">The chairman's own decision: {verdict.chairmanDecision}.</p>
          )}
          <div class="dissent">
            <h4>Dissent</h4>
            {verdict.dissent === null ? (
              <p class="muted">None written.</p>
            ) : (
              <p class="model-text">{verdict.dissent}</p>
            )}
          </div>
          {verdict.warnings.length > 0 && (
            <ul class="warnings small">
              {verdict.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          )}
        </>
      )}
      {evidence !== undefined && evidence.length > 0 && <EvidenceSection evidence={evidence} />}
    </section>
  );
}
