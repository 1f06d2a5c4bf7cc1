import type { VerdictMode } from '@council/core';

/** The name the pasted evidence goes by in the session (its notes and the members' prompts). */
export const EVIDENCE_NAME = 'pasted-text';

/** The chat form's jury choices: '' is the server's default verdict (config.yaml's, else off). */
export interface JuryChoices {
  verdict: VerdictMode | '';
  /** Pasted text every member reads; '' sends none. */
  evidence: string;
  /** Replace secrets found in the evidence instead of refusing the question. */
  redactSecrets: boolean;
}

const verdictLabels: Record<VerdictMode, string> = {
  binary: 'binary (approve or reject)',
  'tie-breaker': 'tie-breaker (the chairman breaks a tie)',
};

/**
 * Jury mode from the chat (issue 32, as `ask --verdict --evidence`): a Verdict choice (off, binary, tie-breaker) and
 * evidence pasted as text, which the server scans for secrets before any model is called.
 */
export function JuryOptions({
  defaultVerdict,
  choices,
  onChange,
}: {
  /** config.yaml's verdict: with one, the request cannot turn the jury off, so there is no Off to choose. */
  defaultVerdict: VerdictMode | null;
  choices: JuryChoices;
  onChange: (choices: JuryChoices) => void;
}) {
  return (
    <fieldset class="picker jury-options">
      <legend>Jury</legend>
      <div class="row">
        <label>
          Verdict
          <select
            value={choices.verdict}
            onChange={(e) => onChange({ ...choices, verdict: e.currentTarget.value as VerdictMode | '' })}
          >
            <option value="">
              {defaultVerdict === null ? 'Off: the council answers' : `Default (${defaultVerdict})`}
            </option>
            {(['binary', 'tie-breaker'] as const).map((mode) => (
              <option key={mode} value={mode}>
                {verdictLabels[mode]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label for="evidence">
        Evidence (optional): pasted text every member reads, such as a diff, logs or a design note
      </label>
      <textarea
        id="evidence"
        name="evidence"
        rows={4}
        value={choices.evidence}
        onInput={(e) => onChange({ ...choices, evidence: e.currentTarget.value })}
      />
      <label class="check">
        <input
          type="checkbox"
          name="redact-secrets"
          checked={choices.redactSecrets}
          onChange={(e) => onChange({ ...choices, redactSecrets: e.currentTarget.checked })}
        />
        Redact secrets in the evidence instead of refusing the question
      </label>
      <p class="muted small">
        A jury's members each decide approve, reject or unclear; the verdict is their majority weighted by the peer
        review. The evidence is scanned for secrets (private keys, API keys) before anything is sent to a model.
      </p>
    </fieldset>
  );
}
