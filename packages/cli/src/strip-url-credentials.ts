/**
 * A URL as it may be shown: without its user-info (`https://user:token@host/…` → `https://host/…`), which can
 * hold a credential. The rest is kept exactly as written. Text that is not an absolute URL is returned as is.
 */
export function stripUrlCredentials(url: string): string {
  // The authority runs from `//` to the first `/`, `?` or `#`; its user-info ends at its last `@`.
  return url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#]*@/, '$1');
}
