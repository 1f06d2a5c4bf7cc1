/**
 * Replaces each `{name}` in `template` whose name is a key of `values`; other braces are left alone
 * (so JSON examples survive). One pass: text inserted for a placeholder is never scanned again, so a
 * query that contains `{responses}` stays literal.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([a-z_]+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? values[name]! : whole,
  );
}
