import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { ByteWriter } from 'hyparquet-writer';

const flushBytes = 1 << 20;

/**
 * hyparquet-writer's `Writer` over a file descriptor: the encoder's buffer is written out whenever it passes
 * 1 MiB, so a file of any size needs about that much beyond the row group being encoded. `finish()` writes the
 * rest and fsyncs; the caller renames the file into place and closes nothing else.
 */
export class ParquetFileWriter extends ByteWriter {
  private fd: number | null;

  constructor(readonly path: string) {
    super(flushBytes * 2);
    this.fd = openSync(path, 'wx', 0o600);
  }

  override ensure(size: number): void {
    if (this.index > flushBytes) this.flushToFile();
    super.ensure(size);
  }

  override finish(): void {
    this.flushToFile();
    fsyncSync(this.fd!);
    this.close();
  }

  /** Closes the file without finishing it (after an error); the caller removes it. */
  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }

  private flushToFile(): void {
    const bytes = new Uint8Array(this.buffer, 0, this.index);
    let written = 0;
    while (written < bytes.length) written += writeSync(this.fd!, bytes, written, bytes.length - written);
    this.index = 0;
  }
}
