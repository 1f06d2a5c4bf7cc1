import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError } from './cli-error.js';
import type { CliIo } from './cli-io.js';

/** The largest question `ask` reads from a file or stdin: 1 MiB of UTF-8, far past any model's context. */
export const MAX_QUESTION_BYTES = 1024 * 1024;

export interface ReadQuestionOptions {
  /** The positional argument: the question, `-` for stdin, or undefined. */
  question: string | undefined;
  /** `--file PATH`. */
  file: string | undefined;
  io: Pick<CliIo, 'readStdin' | 'stdinIsTTY'>;
  cwd: string;
  /** Default `MAX_QUESTION_BYTES`. */
  maxBytes?: number;
}

function usage(message: string): CliError {
  return new CliError({ code: 'USAGE', message });
}

function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 1)} MiB`;
}

/** Reads at most `limit` bytes of a file, so a huge file costs no more memory than the limit. */
function readFileHead(path: string, limit: number): { bytes: Buffer; size: number } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'it is a directory'
            : (code ?? 'error');
    throw usage(`Cannot read the question file ${path}: ${why}. Check the path given to --file.`);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory())
      throw usage(`Cannot read the question file ${path}: it is a directory. Check the path given to --file.`);
    const buffer = Buffer.alloc(limit);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, limit - length, null);
      if (n === 0) break;
      length += n;
      if (length === limit) break;
    }
    return { bytes: buffer.subarray(0, length), size: Math.max(stat.size, length) };
  } catch (error) {
    if (CliError.isInstance(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw usage(
      `Cannot read the question file ${path}: ${code === 'EISDIR' ? 'it is a directory' : (code ?? 'error')}. Check the path given to --file.`,
    );
  } finally {
    closeSync(fd);
  }
}

/**
 * The offset of the first byte sequence that is not UTF-8, by the rules TextDecoder applies (RFC 3629, the
 * WHATWG decoder): the lead byte sets the width and the second byte's range, which excludes overlong forms
 * (after E0 and F0), UTF-16 surrogates (after ED) and code points past U+10FFFF (after F4). Decoding growing
 * prefixes to find it would be quadratic, so it scans; 0 only if it finds nothing (TextDecoder did).
 */
function firstInvalidSequence(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    const width =
      b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    const [low, high] =
      b === 0xe0
        ? [0xa0, 0xbf]
        : b === 0xed
          ? [0x80, 0x9f]
          : b === 0xf0
            ? [0x90, 0xbf]
            : b === 0xf4
              ? [0x80, 0x8f]
              : [0x80, 0xbf];
    const tail = bytes.subarray(i + 1, i + width);
    const ok =
      width > 0 &&
      i + width <= bytes.length &&
      tail.every((c, k) => (k === 0 ? c >= low && c <= high : c >= 0x80 && c <= 0xbf));
    if (!ok) return i;
    i += width;
  }
  return 0;
}

/** Decodes UTF-8 strictly (a stray byte is an error naming its offset), dropping a byte-order mark. */
function decodeUtf8(bytes: Buffer, source: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const offset = firstInvalidSequence(bytes);
    throw usage(
      `${source} is not UTF-8 text (invalid byte at offset ${offset}). Convert it, e.g. iconv -t UTF-8, and try again.`,
    );
  }
}

/**
 * The question `council ask` runs on: the positional argument; or, with `-` (or no argument while stdin is
 * not a terminal), all of stdin; or the file `--file` names. Stdin and files are UTF-8, at most
 * `maxBytes` (1 MiB). Every failure is a one-line usage error saying what to do.
 */
export async function readQuestion(options: ReadQuestionOptions): Promise<string> {
  const { question, file, io } = options;
  const maxBytes = options.maxBytes ?? MAX_QUESTION_BYTES;
  const tooLarge = (source: string, size: number) =>
    usage(
      `${source} is ${size > maxBytes ? `over ${mebibytes(maxBytes)}` : mebibytes(size)}; a question can be at most ${mebibytes(maxBytes)}. Shorten it, or put the material in a file the models can be pointed to.`,
    );
  if (file !== undefined) {
    if (question !== undefined) throw usage('Give the question either as an argument or with --file, not both.');
    const path = resolve(options.cwd, file);
    const read = readFileHead(path, maxBytes + 1);
    if (read.size > maxBytes) throw tooLarge(`The question file ${path}`, read.size);
    return nonEmpty(decodeUtf8(read.bytes, `The question file ${path}`), `The question file ${path} is empty.`);
  }
  if (question !== undefined && question !== '-') return question;
  if (question === undefined && io.stdinIsTTY !== false) {
    throw usage('No question: council ask "your question", or pipe it in (echo "…" | council ask -), or --file PATH.');
  }
  if (io.readStdin === undefined)
    throw usage(
      'No question: this front end has no standard input; pass the question as an argument or with --file PATH.',
    );
  const bytes = await io.readStdin({ maxBytes: maxBytes + 1 });
  if (bytes.length > maxBytes) throw tooLarge('The question on stdin', bytes.length);
  return nonEmpty(
    decodeUtf8(bytes, 'The question on stdin'),
    'The question on stdin is empty: pipe the question in, e.g. echo "…" | council ask -.',
  );
}

function nonEmpty(text: string, message: string): string {
  if (text.trim() === '') throw usage(message);
  return text;
}
