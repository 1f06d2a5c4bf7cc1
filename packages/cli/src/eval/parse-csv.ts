/** One CSV record: its fields and the line it starts on. */
export interface CsvRecord {
  fields: string[];
  line: number;
}

/**
 * RFC 4180 CSV: fields separated by commas, records by CR LF or LF; a field in double quotes may hold commas, line
 * breaks and doubled quotes (`""`). Blank lines are skipped. Returns the problem and its line when a quoted field is
 * never closed or text follows a closing quote.
 */
export function parseCsv(text: string): { records: CsvRecord[] } | { error: string; line: number } {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  // Whether the current field began with a quote, and whether it has any character yet.
  let quoted = false;
  let line = 1;
  let start = 1;
  let i = 0;
  const endRecord = () => {
    fields.push(field);
    if (!(fields.length === 1 && field === '' && !quoted)) records.push({ fields, line: start });
    fields = [];
    field = '';
    quoted = false;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' && field === '' && !quoted) {
      quoted = true;
      const open = line;
      i++;
      for (;;) {
        if (i >= text.length) return { error: 'a quoted field is never closed', line: open };
        const d = text[i]!;
        if (d === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (d === '\n') line++;
        field += d;
        i++;
      }
      if (i < text.length && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r')
        return { error: 'text follows a closing quote (double a quote inside a quoted field: "")', line };
      continue;
    }
    if (c === ',') {
      fields.push(field);
      field = '';
      quoted = false;
      i++;
      continue;
    }
    if (c === '\r' || c === '\n') {
      endRecord();
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line++;
      start = line;
      continue;
    }
    field += c;
    i++;
  }
  if (field !== '' || fields.length > 0 || quoted) endRecord();
  return { records };
}
