/** FNV-1a (32 bit) over the UTF-8 bytes of `text`: the hash that turns a string seed into a number. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  const add = (byte: number): void => {
    hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  };
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x80) add(code);
    else if (code < 0x800) {
      add(0xc0 | (code >> 6));
      add(0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
      add(0xe0 | (code >> 12));
      add(0x80 | ((code >> 6) & 0x3f));
      add(0x80 | (code & 0x3f));
    } else {
      add(0xf0 | (code >> 18));
      add(0x80 | ((code >> 12) & 0x3f));
      add(0x80 | ((code >> 6) & 0x3f));
      add(0x80 | (code & 0x3f));
    }
  }
  return hash;
}
