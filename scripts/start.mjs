// `npm start`: set up a fresh clone and run the main job, the offline `council demo`.
import { ensurePnpmAndInstall, run } from './ensure-pnpm.mjs';

// The set-up is most of a first run's time: said and timed here, so the demo's own "ran in" is not read as the whole.
const started = Date.now();
console.error('npm start: installing and building Council (about a minute the first time), then the offline demo…');
ensurePnpmAndInstall();
run('pnpm', ['--silent', 'turbo', 'run', 'build', '--output-logs=errors-only']);
console.error(`npm start: installed and built in ${Math.round((Date.now() - started) / 1000)} s; the demo follows.`);
run('node', ['apps/cli/dist/council.js', 'demo']);
