const KEY = 'council-token';

/**
 * The API token: taken from the address's fragment (`#token=…`, as `council serve` prints it) on the first
 * load, kept in sessionStorage, and removed from the address bar so it is not bookmarked or shared.
 */
export function takeToken(): string | null {
  const match = /(?:^#|[&#])token=([^&]+)/.exec(location.hash);
  if (match?.[1]) {
    sessionStorage.setItem(KEY, decodeURIComponent(match[1]));
    history.replaceState(null, '', `${location.pathname}${location.search}#/chat`);
  }
  return sessionStorage.getItem(KEY);
}
