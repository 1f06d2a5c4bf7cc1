import { describe, expect, it } from 'vitest';
import { orgIdProblem } from './org-id.js';

describe('orgIdProblem', () => {
  it('accepts ids made of letters, digits, ".", "_" and "-" that start with a letter or digit', () => {
    for (const org of ['acme', 'Acme-2', 'a.b_c-d', '9lives']) expect(orgIdProblem(org), org).toBeNull();
  });

  it('refuses anything that could name another directory or is not one plain name', () => {
    for (const org of ['', '.hidden', '-x', 'Acme Corp', 'a/b', 'a\\b', 'é'])
      expect(orgIdProblem(org), org).toBe('use letters, digits, ".", "_" or "-" only, starting with a letter or digit');
    for (const org of ['a..b', 'acme..'])
      expect(orgIdProblem(org), org).toBe('use letters, digits, ".", "_" or "-" only, without ".."');
  });
});
