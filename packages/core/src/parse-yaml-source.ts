import { LineCounter, isMap, isScalar, isSeq, parseDocument } from 'yaml';
import type { Document, ErrorCode } from 'yaml';

/**
 * What each YAML syntax error is, in words that quote nothing of the file. The `yaml` library's own messages quote
 * the offending text (an alias, a tag, an escape, the lines around the error), and a configuration file may be a
 * symlink to a file that is not Council's: its errors give the line, the column and the kind of mistake, never content.
 */
const syntaxProblems: Record<ErrorCode, string> = {
  ALIAS_PROPS: 'an alias with an anchor or a tag of its own',
  BAD_ALIAS: 'an alias that is not valid',
  BAD_DIRECTIVE: 'a directive (a line starting with %) that is not valid',
  BAD_DQ_ESCAPE: 'an escape sequence in a double-quoted string that is not valid',
  BAD_INDENT: 'indentation that does not line up',
  BAD_PROP_ORDER: 'an anchor or a tag in the wrong place',
  BAD_SCALAR_START: 'a plain value that starts with a reserved character (quote it)',
  BLOCK_AS_IMPLICIT_KEY: 'a nested mapping where a key was expected',
  BLOCK_IN_FLOW: 'a block collection inside [ ] or { }',
  DUPLICATE_KEY: 'a key given twice in one mapping',
  IMPOSSIBLE: 'a structure that cannot be read',
  KEY_OVER_1024_CHARS: 'a key over 1,024 characters',
  MISSING_CHAR: 'a missing character (a closing quote or bracket, a comma or a colon)',
  MULTILINE_IMPLICIT_KEY: 'a key that runs over several lines',
  MULTIPLE_ANCHORS: 'a node with several anchors',
  MULTIPLE_DOCS: 'more than one document (a second ---); keep one',
  MULTIPLE_TAGS: 'a node with several tags',
  NON_STRING_KEY: 'a key that is not a string',
  RESOURCE_EXHAUSTION: 'aliases that expand too far',
  TAB_AS_INDENT: 'a tab used for indentation (indent with spaces)',
  TAG_RESOLVE_FAILED: 'a tag that cannot be resolved',
  UNEXPECTED_TOKEN: 'an unexpected character',
  BAD_COLLECTION_TYPE: 'a tag that does not fit its collection',
};

/** A YAML text read: its data, and where a key path of it is written. */
export interface YamlSource {
  data: unknown;
  /**
   * The line (1-based) of the last key of `path` (or of the list item), and each step's key as written in the file
   * (a list index as its number), each step matched by `matches(written, wanted)` (default: equal). Undefined where
   * the path is not in the file.
   */
  locate: (
    path: readonly PropertyKey[],
    matches?: (written: string, wanted: string) => boolean,
  ) => YamlLocation | undefined;
}

/** Where a key path is written in a YAML text. */
export interface YamlLocation {
  line: number;
  keys: string[];
}

/**
 * A located key path as a message names it: `"timeouts.stage1_ms" (line 4)`. Keys are part of the file's text, so only
 * plain names (letters, digits, `_`, `-`, `.`; at most 64 characters) are shown, any other key as `…`: a file that is
 * not Council's (a symlink to a system file) shows nothing of itself beyond such names. `alsoShown` lets the caller
 * show a key it knows the form of at that place (a model id under `model_options`).
 */
export function describeYamlLocation(
  location: YamlLocation,
  alsoShown?: (key: string, index: number) => boolean,
): string {
  const shown = (key: string, i: number) => /^[A-Za-z0-9_.-]{1,64}$/.test(key) || alsoShown?.(key, i) === true;
  return `"${location.keys.map((key, i) => (shown(key, i) ? key : '…')).join('.')}" (line ${location.line})`;
}

/** A YAML text that could not be read: where, and what kind of mistake (never the text). */
export interface YamlSyntaxProblem {
  line: number | undefined;
  column: number | undefined;
  problem: string;
}

/**
 * Reads YAML text into data without the `yaml` library's messages or warnings (which quote the text and, for warnings,
 * print it on stderr): returns the data and a locator, or the first syntax problem by line, column and kind.
 */
export function parseYamlSource(
  text: string,
): { success: true; value: YamlSource } | { success: false; error: YamlSyntaxProblem } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const first = doc.errors[0];
  if (first !== undefined) {
    const at = lineCounter.linePos(first.pos[0]);
    return {
      success: false,
      error: { line: at.line, column: at.col, problem: syntaxProblems[first.code] ?? 'a syntax error' },
    };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch {
    // An alias to an anchor never set (its message names the alias), or aliases that expand past the limit.
    return {
      success: false,
      error: {
        line: undefined,
        column: undefined,
        problem: 'an alias (*name) that refers to no anchor before it, or aliases that expand too far',
      },
    };
  }
  return {
    success: true,
    value: {
      data,
      locate: (path, matches) => locate({ doc, lineCounter, path, matches: matches ?? ((a, b) => a === b) }),
    },
  };
}

function locate(options: {
  doc: Document;
  lineCounter: LineCounter;
  path: readonly PropertyKey[];
  matches: (written: string, wanted: string) => boolean;
}): YamlLocation | undefined {
  let node: unknown = options.doc.contents;
  let offset: number | undefined;
  const keys: string[] = [];
  for (const step of options.path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => {
        const written = isScalar(p.key) ? p.key.value : p.key;
        return (
          (typeof written === 'string' || typeof written === 'number') && options.matches(String(written), String(step))
        );
      });
      if (pair === undefined || !isScalar(pair.key)) return undefined;
      keys.push(String(pair.key.value));
      offset = pair.key.range?.[0];
      node = pair.value;
    } else if (isSeq(node) && typeof step === 'number') {
      const item: unknown = node.items[step];
      if (item === undefined) return undefined;
      keys.push(String(step));
      offset = (item as { range?: [number, number, number] }).range?.[0];
      node = item;
    } else {
      return undefined;
    }
  }
  return offset === undefined ? undefined : { line: options.lineCounter.linePos(offset).line, keys };
}
