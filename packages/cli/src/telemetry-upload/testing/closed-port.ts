import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A loopback port with nothing listening: bind one on 127.0.0.1, note it, close it. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
