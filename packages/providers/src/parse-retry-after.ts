const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const month = `(${months.join('|')})`;
const time = '(\\d{2}):(\\d{2}):(\\d{2})';
// RFC 9110 §5.6.7: IMF-fixdate, and the obsolete rfc850-date and asctime-date that recipients must also accept.
const imfFixdate = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) ${month} (\\d{4}) ${time} GMT$`);
const rfc850Date = new RegExp(
  `^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-${month}-(\\d{2}) ${time} GMT$`,
);
const asctimeDate = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${month} ([ \\d]\\d) ${time} (\\d{4})$`);

interface DateFields {
  year: number;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

function utc(fields: DateFields): number | undefined {
  const m = months.indexOf(fields.month);
  const [day, hour, minute, second] = [fields.day, fields.hour, fields.minute, fields.second].map(Number) as [
    number,
    number,
    number,
    number,
  ];
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  const ms = Date.UTC(fields.year, m, day, hour, minute, Math.min(second, 59));
  // Date.UTC rolls 31 Feb over into March: a day the month does not have is unreadable.
  return new Date(ms).getUTCDate() === day ? ms : undefined;
}

/** An HTTP-date (RFC 9110 §5.6.7) as milliseconds since the epoch, or undefined. */
function parseHttpDate(value: string, nowMs: number): number | undefined {
  let match = imfFixdate.exec(value);
  if (match)
    return utc({
      year: Number(match[3]),
      month: match[2]!,
      day: match[1]!,
      hour: match[4]!,
      minute: match[5]!,
      second: match[6]!,
    });
  match = rfc850Date.exec(value);
  if (match) {
    // A two-digit year more than 50 years ahead is the most recent past year with those digits.
    const thisYear = new Date(nowMs).getUTCFullYear();
    let year = thisYear - (thisYear % 100) + Number(match[3]);
    if (year > thisYear + 50) year -= 100;
    return utc({ year, month: match[2]!, day: match[1]!, hour: match[4]!, minute: match[5]!, second: match[6]! });
  }
  match = asctimeDate.exec(value);
  if (match)
    return utc({
      year: Number(match[6]),
      month: match[1]!,
      day: match[2]!.trim(),
      hour: match[3]!,
      minute: match[4]!,
      second: match[5]!,
    });
  return undefined;
}

/**
 * The wait a `Retry-After` header value asks for, in milliseconds (RFC 9110 §10.2.3): delay-seconds
 * (a decimal fraction is read too), or an HTTP-date in any of its three formats, as the time left
 * until it (0 once past). Undefined when absent or unreadable: a negative number, an ISO 8601 date
 * or any other text is not a Retry-After value.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = parseHttpDate(trimmed, nowMs);
  return date === undefined ? undefined : Math.max(0, date - nowMs);
}
