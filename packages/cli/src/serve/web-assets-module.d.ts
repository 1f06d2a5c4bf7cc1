// The web UI's built files. Not a file on disk: tsup's esbuild plugin (tsup.config.ts) and vitest's plugin
// (vitest.config.ts) resolve this id by bundling packages/cli/web (web/build.mjs).
declare module 'council-web-assets' {
  export const assets: readonly { path: string; contentType: string; body: string }[];
}
