/**
 * What is wrong with an organization id, or null when it is valid. The id names a directory under the home
 * (`organizations/<org>/`), so it may hold nothing that could leave it. The one rule: core's configuration
 * cascade and the CLI's settings (`--org`, `LLM_COUNCIL_ORG`) both check ids with it.
 */
export function orgIdProblem(org: string): string | null {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(org))
    return 'use letters, digits, ".", "_" or "-" only, starting with a letter or digit';
  if (org.includes('..')) return 'use letters, digits, ".", "_" or "-" only, without ".."';
  return null;
}
