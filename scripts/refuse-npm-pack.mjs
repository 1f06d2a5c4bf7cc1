// The `prepack` script of every package and app. `npm pack` and `npm publish` copy package.json as it is, so their
// tarball keeps the `workspace:^` ranges between Council's packages, and npm cannot install it
// (EUNSUPPORTEDPROTOCOL). `pnpm pack` and `pnpm publish` (which `pnpm changeset publish` calls) rewrite them to real
// ranges. So npm stops here, before it packs, and says what to run instead; pnpm (and a package without workspace
// ranges) goes on. COUNCIL_ALLOW_NPM_PACK=1 lets npm pack anyway: `attw --pack` packs with npm to read the types,
// and never installs what it packed.
import { readFileSync } from 'node:fs';

const agent = process.env.npm_config_user_agent ?? '';
if (agent.startsWith('npm/') && process.env.COUNCIL_ALLOW_NPM_PACK !== '1') {
  const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
  const workspaceRanges = ['dependencies', 'peerDependencies', 'optionalDependencies'].flatMap((field) =>
    Object.entries(manifest[field] ?? {})
      .filter(([, range]) => String(range).startsWith('workspace:'))
      .map(([name, range]) => `${name}@${range}`),
  );
  if (workspaceRanges.length > 0) {
    console.error(
      [
        `${manifest.name}: npm would pack ${workspaceRanges.join(', ')} as written, and npm cannot install that tarball.`,
        'Pack with `pnpm pack` (or publish with `pnpm publish` / `pnpm changeset publish`): pnpm rewrites workspace',
        'ranges to real ones. `pnpm release:check` at the repository root runs the whole release path.',
      ].join('\n'),
    );
    process.exit(1);
  }
}
