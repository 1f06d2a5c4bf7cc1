// `npm start`: set up a fresh clone and run the main job, the offline `council demo`.
import { ensurePnpmAndInstall, run } from './ensure-pnpm.mjs';

ensurePnpmAndInstall();
run('pnpm', ['--silent', 'turbo', 'run', 'build', '--output-logs=errors-only']);
run('node', ['apps/cli/dist/council.js', 'demo']);
