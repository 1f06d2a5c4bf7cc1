import type { ChildProcess, spawn as spawnFunction } from 'node:child_process';

/**
 * Starts the bundled executable's `council serve --demo --port 0` (simulated members, 127.0.0.1, a free port) and
 * resolves with the address it prints (`…/#token=…`) once it listens. For the UI's benchmark and screenshots.
 */
export function startServeProcess(options: { bundle: string; home: string; spawn: typeof spawnFunction; timeoutMs?: number }): Promise<{ child: ChildProcess; url: string }> {
  const child = options.spawn(process.execPath, [options.bundle, 'serve', '--demo', '--port', '0', '--home', options.home], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env['PATH'] ?? '', LLM_COUNCIL_HOME: options.home, NO_COLOR: '1' },
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`council serve printed no address within ${options.timeoutMs ?? 20_000} ms:\n${output}`));
    }, options.timeoutMs ?? 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const url = /https?:\/\/\S+#token=\S+/.exec(output)?.[0];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`council serve exited (${code}) before listening:\n${output}`));
    });
  });
}
