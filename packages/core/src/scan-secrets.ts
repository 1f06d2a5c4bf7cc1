/** What kind of secret a finding is. */
export type SecretKind =
  | 'private-key'
  | 'anthropic-key'
  | 'openrouter-key'
  | 'openai-key'
  | 'aws-access-key'
  | 'github-token'
  | 'slack-token'
  | 'google-api-key'
  | 'password-assignment';

/** One secret found in a text: where and what, never the secret itself. */
export interface SecretFinding {
  kind: SecretKind;
  /** 1-based line of the secret's first character. */
  line: number;
  /** 1-based column of the secret's first character. */
  column: number;
  /** What it is, for a message: "an OpenAI API key (sk-…)". */
  description: string;
}

interface SecretPattern {
  kind: SecretKind;
  description: string;
  /** Global; group `secret`, when present, is the part to redact (else the whole match). */
  pattern: RegExp;
  /** A further check on the secret (the generic assignment's): the secret, its match, and the text it is in. */
  accept?: (secret: string, match: RegExpExecArray, text: string) => boolean;
}

/** Shannon entropy in bits per character. */
export function shannonEntropy(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * A value that looks like a real secret rather than code or a placeholder: at least 8 characters, no spaces or
 * call syntax, letters and digits (or symbols) mixed, and at least 3 bits of entropy per character. `hunter2`,
 * `changeme`, `${DB_PASSWORD}`, `getPassword()` and `process.env.X` are not; `pX9#kd82Lq` and `3f9a1c0e77b2d4e8` are.
 */
function highEntropyValue(value: string): boolean {
  if (value.length < 8) return false;
  if (/[(){}<>$]|^process\.env|^os\.environ|^env\./.test(value)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((c) => c.test(value)).length;
  return classes >= 2 && shannonEntropy(value) >= 3;
}

/**
 * The generic assignment's check. A quoted value (a string literal) needs only to look like a secret. An unquoted one
 * is code far more often than a secret (`token = createToken`, `password: input.value`), so it counts only where
 * config files write secrets — the key at the start of its line (`DB_PASSWORD=…`, `export API_KEY=…`, YAML's
 * `client_secret: …`; a diff's `+` allowed) — and only with both letters and digits and no dotted name.
 */
function secretAssignment(value: string, match: RegExpExecArray, text: string): boolean {
  if (!highEntropyValue(value)) return false;
  if (match.groups?.quote !== undefined) return true;
  const lineStart = text.lastIndexOf('\n', match.index) + 1;
  const before = text.slice(lineStart, match.index);
  if (!/^[+\s]*(?:export\s+)?$/.test(before)) return false;
  return /[A-Za-z]/.test(value) && /[0-9]/.test(value) && !/^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$/.test(value);
}

/** Random key material has letters and digits; `sk-learn-compatible-estimators` (words and hyphens) is a name. */
const randomLooking = (secret: string): boolean => /[0-9]/.test(secret) && /[A-Za-z]/.test(secret);

// Order matters where formats nest: sk-ant- and sk-or- before the OpenAI sk- pattern.
const patterns: readonly SecretPattern[] = [
  {
    kind: 'private-key',
    description: 'a private key (PEM block)',
    pattern:
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
  },
  {
    kind: 'anthropic-key',
    description: 'an Anthropic API key (sk-ant-…)',
    pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g,
    accept: randomLooking,
  },
  {
    kind: 'openrouter-key',
    description: 'an OpenRouter API key (sk-or-…)',
    pattern: /\bsk-or-[A-Za-z0-9_-]{20,}/g,
    accept: randomLooking,
  },
  {
    kind: 'openai-key',
    description: 'an OpenAI API key (sk-…)',
    pattern: /\bsk-(?!ant-|or-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g,
    accept: randomLooking,
  },
  { kind: 'aws-access-key', description: 'an AWS access key id (AKIA…)', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  {
    kind: 'github-token',
    description: 'a GitHub token (ghp_…, github_pat_…)',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g,
  },
  { kind: 'slack-token', description: 'a Slack token (xox…)', pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g },
  { kind: 'google-api-key', description: 'a Google API key (AIza…)', pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  {
    kind: 'password-assignment',
    description: 'a password or secret assignment with a high-entropy value',
    pattern:
      /\b[A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|auth)[A-Za-z0-9_.-]*["']?\s*(?:=|:=|:)\s*(?<quote>["'])?(?<secret>[^\s"'`,;]+)/gi,
    accept: secretAssignment,
  },
];

interface Match {
  kind: SecretKind;
  description: string;
  start: number;
  end: number;
}

function findMatches(text: string): Match[] {
  const matches: Match[] = [];
  for (const { kind, description, pattern, accept } of patterns) {
    pattern.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = pattern.exec(text)) !== null) {
      if (m[0] === '') {
        pattern.lastIndex++;
        continue;
      }
      const secret = m.groups?.secret ?? m[0];
      const start = m.index + m[0].lastIndexOf(secret);
      const end = start + secret.length;
      if (accept !== undefined && !accept(secret, m, text)) continue;
      // A span already claimed by an earlier (more specific) pattern is not found twice.
      if (matches.some((other) => start < other.end && end > other.start)) continue;
      matches.push({ kind, description, start, end });
    }
  }
  return matches.sort((a, b) => a.start - b.start);
}

function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * The secrets in a text, by line and column, in order: private keys (PEM blocks), OpenAI/OpenRouter (`sk-…`,
 * `sk-or-…`), Anthropic (`sk-ant-…`), AWS (`AKIA…`), GitHub (`ghp_…`, `github_pat_…`), Slack (`xox…`) and Google
 * (`AIza…`) keys, and `password=`/`secret:`/`api_key=`-style assignments whose value has high entropy. A finding
 * never carries the secret.
 */
export function scanSecrets(text: string): SecretFinding[] {
  return findMatches(text).map((m) => ({ kind: m.kind, description: m.description, ...position(text, m.start) }));
}

/** The text with every secret `scanSecrets` finds replaced by `[REDACTED <kind>]`, and the findings. */
export function redactSecrets(text: string): { text: string; findings: SecretFinding[] } {
  const matches = findMatches(text);
  let out = '';
  let at = 0;
  for (const m of matches) {
    out += `${text.slice(at, m.start)}[REDACTED ${m.kind}]`;
    at = m.end;
  }
  out += text.slice(at);
  return {
    text: out,
    findings: matches.map((m) => ({ kind: m.kind, description: m.description, ...position(text, m.start) })),
  };
}
