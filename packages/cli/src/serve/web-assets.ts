import { assets } from 'council-web-assets';

/** One static file of the web UI. */
export interface WebAsset {
  /** The URL path: `/`, `/assets/app.<hash>.js`, `/assets/app.<hash>.css`, `/favicon.svg`. */
  path: string;
  contentType: string;
  body: string | Uint8Array;
}

/**
 * The files of `council serve`'s web UI (Preact, built from packages/cli/web when this package is built),
 * which exist only inside the serve code, so other commands do not load them. Paths under /assets/ carry
 * their content's hash and never change.
 */
export function webAssets(): WebAsset[] {
  return assets.map((a) => ({ ...a }));
}
