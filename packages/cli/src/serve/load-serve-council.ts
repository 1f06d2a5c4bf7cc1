import type { CouncilServer, ServeCouncilOptions } from './serve-council.js';
import type { WebAsset } from './web-assets.js';

/**
 * `council serve`'s server for embedders, loaded when called (the HTTP server and the web UI's files are no part
 * of the package's other functions): `serveCouncil(options)`, and `webAssets()` for its `assets` option.
 */
export async function loadServeCouncil(): Promise<{
  serveCouncil: (options: ServeCouncilOptions) => Promise<CouncilServer>;
  webAssets: () => WebAsset[];
}> {
  const [{ serveCouncil }, { webAssets }] = await Promise.all([
    import('./serve-council.js'),
    import('./web-assets.js'),
  ]);
  return { serveCouncil, webAssets };
}
