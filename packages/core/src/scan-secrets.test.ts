import { describe, expect, it } from 'vitest';
import { redactSecrets, scanSecrets, shannonEntropy } from './scan-secrets.js';

// Planted secrets are built from pieces, so no scanner mistakes this file for a leak.
const openai = ['sk', 'proj', 'Zq4vN8rT2wX6yB1cD5eF9gH3'].join('-');
const anthropic = ['sk', 'ant', 'api03', 'Qm7Lp2Xv9Rt4Wz8Kd3Fs6Hj1'].join('-');
const openrouter = ['sk', 'or', 'v1', '0123456789abcdef0123456789abcdef'].join('-');
const aws = 'AKIA' + 'Z7Q2XK4M9P3LW8TB';
const github = 'ghp' + '_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
const githubPat = 'github' + '_pat_' + '11ABCDEFG0123456789_abcdefghijKLMNOP';
const slack = 'xox' + 'b-1234567890-abcdefghij';
const google = 'AIza' + 'SyD4x7Q9r2T5v8W1y3Z6b9C2e5F8h1J4k7M';
const pem = ['-----BEGIN RSA PRIVATE', 'KEY-----\nMIIEpAIBAAKCAQEA7x\nq2w3e4r5\n-----END RSA PRIVATE', 'KEY-----'].join(
  ' ',
);

describe('scanSecrets', () => {
  it('finds each key format on its line and column, and names it without the secret', () => {
    const text = [
      `const a = "${openai}";`,
      `ANTHROPIC=${anthropic}`,
      `  or: ${openrouter}`,
      `aws ${aws} here`,
      `token ${github}`,
      githubPat,
      `slack ${slack}`,
      `maps ${google}`,
    ].join('\n');
    const findings = scanSecrets(text);
    expect(findings.map((f) => [f.kind, f.line, f.column])).toEqual([
      ['openai-key', 1, 12],
      ['anthropic-key', 2, 11],
      ['openrouter-key', 3, 7],
      ['aws-access-key', 4, 5],
      ['github-token', 5, 7],
      ['github-token', 6, 1],
      ['slack-token', 7, 7],
      ['google-api-key', 8, 6],
    ]);
    for (const f of findings)
      expect(JSON.stringify(f)).not.toMatch(/Zq4vN8|Qm7Lp2|0123456789abcdef|Z7Q2XK|aB3dE5|SyD4x7/);
  });

  it('finds a PEM private key block, from its BEGIN line', () => {
    expect(scanSecrets(`intro\n${pem}\nafter`)).toMatchObject([{ kind: 'private-key', line: 2, column: 1 }]);
  });

  it('flags password/secret assignments only with a high-entropy value', () => {
    const text = [
      'password = "pX9#kd82Lq"',
      'DB_PASSWORD=${DB_PASSWORD}',
      'password = getPassword()',
      'secret: changeme',
      'password=hunter2',
      'client_secret: 3f9a1c0e77b2d4e8',
    ].join('\n');
    expect(scanSecrets(text).map((f) => [f.kind, f.line])).toEqual([
      ['password-assignment', 1],
      ['password-assignment', 6],
    ]);
  });

  it('takes an unquoted value for a secret only where config files write one, never code that names a variable', () => {
    const code = [
      'const token = createToken;',
      '  password: passwordInput.value,',
      'this.apiKey = config.apiKey2;',
      'const auth = authenticate(user);',
      'secret: process.env.SECRET',
      '+    accessKey: keyFor(user),',
    ].join('\n');
    expect(scanSecrets(code)).toEqual([]);
    const config = [
      'DB_PASSWORD=hunter2XYZ9',
      'export API_KEY=ab12cd34ef56',
      '+  client_secret: 9f8e7d6c5b4a3921',
      'const x = 1; password=Zz9yY8xX7w',
    ].join('\n');
    // The last line's key is not at the start of its line and its value is unquoted: code, not a config file.
    expect(scanSecrets(config).map((f) => f.line)).toEqual([1, 2, 3]);
  });

  it('finds nothing in ordinary code and prose', () => {
    expect(scanSecrets('const skip = tokens.filter((t) => t.kind !== "sk");\nThe task-runner is fine.')).toEqual([]);
    // A name in the key's shape, but words and hyphens: no digit, so not key material.
    expect(scanSecrets('pip install sk-learn-compatible-estimators')).toEqual([]);
  });
});

describe('redactSecrets', () => {
  it('replaces each secret and keeps the rest of the text', () => {
    const { text, findings } = redactSecrets(`key=${openai}\npassword = "pX9#kd82Lq" # rotate\n`);
    expect(text).toBe('key=[REDACTED openai-key]\npassword = "[REDACTED password-assignment]" # rotate\n');
    expect(findings.map((f) => f.line)).toEqual([1, 2]);
  });
});

describe('shannonEntropy', () => {
  it('is 0 for one repeated character and 2 bits for four equally frequent ones', () => {
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBe(2);
  });
});
