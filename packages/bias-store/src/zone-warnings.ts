/** The warning for records whose timestamp had no zone (read as UTC); none when there were none. */
export function zoneWarnings(path: string, count: number): string[] {
  return count === 0
    ? []
    : [`${count} record${count === 1 ? '' : 's'} in ${path} had a timestamp without a zone; read as UTC.`];
}
